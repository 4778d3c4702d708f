/* SPDX-License-Identifier: ISC */
/* One entry of a {seq, action, text} policy list from the CLI (see
 * bgpd/config/bgp_list_entry_cli.h). */
#include "lib/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bgpd/config/bgp_list_entry_cli.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define SEQ_STEP 5
#define XPATH_MAX 640

/* An entry's leaf equals what was typed; an entry may lack the leaf (a candidate that a refused
 * line left half-made), which matches nothing. */
static bool same_string(const char *leaf, const char *typed)
{
	return leaf && typed && strcmp(leaf, typed) == 0;
}

/* The entry saying action + text, the highest seq and how many entries the list holds. */
static const struct lyd_node *entry_scan(const struct lyd_node *list,
					 const struct policy_entry_edit *e, uint64_t *max_seq,
					 size_t *count)
{
	const struct lyd_node *found = NULL;

	*max_seq = 0;
	*count = 0;
	for (const struct lyd_node *n = list ? lyd_child(list) : NULL; n; n = n->next) {
		uint64_t seq;

		if (strcmp(n->schema->name, "entry") != 0)
			continue;
		seq = yang_dnode_get_uint(n, 0, "seq");
		*max_seq = seq > *max_seq ? seq : *max_seq;
		(*count)++;
		if (!found && e->action &&
		    same_string(yang_dnode_get_string(n, "action"), e->action) &&
		    same_string(yang_dnode_get_string(n, "%s", e->text_leaf), e->text))
			found = n;
	}
	return found;
}

static int entry_remove(struct vty *vty, const struct policy_entry_edit *e,
			const struct lyd_node *found, size_t count)
{
	char xp[XPATH_MAX];
	uint64_t seq;

	if (!e->action) {
		nb_cli_enqueue_change(vty, e->list_xpath, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	if (e->has_seq) {
		seq = e->seq;
		if (!nb_cli_exists(vty, "%s/entry[seq='%" PRIu64 "']", e->list_xpath, seq))
			return CMD_SUCCESS;
	} else if (found) {
		seq = yang_dnode_get_uint(found, 0, "seq");
	} else {
		vty_out(vty, "%% Could not find entry in %s %s\n", e->kind, e->name);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (count <= 1) {
		nb_cli_enqueue_change(vty, e->list_xpath, NB_OP_DESTROY, NULL);
	} else {
		snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu64 "']", e->list_xpath, seq);
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	}
	return nb_cli_apply_changes(vty, NULL);
}

int policy_entry_edit(struct vty *vty, const struct policy_entry_edit *e, bool no)
{
	const struct lyd_node *list = nb_cli_get(vty, "%s", e->list_xpath), *found;
	char xp[XPATH_MAX];
	uint64_t max_seq, seq;
	size_t count;

	found = entry_scan(list, e, &max_seq, &count);
	if (no)
		return list ? entry_remove(vty, e, found, count) : CMD_SUCCESS;
	if (e->has_seq)
		seq = e->seq;
	else if (found)
		return CMD_SUCCESS; /* FRR adds it once */
	else
		seq = count ? max_seq + SEQ_STEP : SEQ_STEP;
	if (seq > UINT32_MAX) {
		vty_out(vty, "%% No sequence number left in %s %s: give one with seq\n", e->kind,
			e->name);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (e->list_leaf) {
		snprintf(xp, sizeof(xp), "%s/%s", e->list_xpath, e->list_leaf);
		nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, e->list_value);
	}
	snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu64 "']", e->list_xpath, seq);
	nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	nb_cli_enqueue_change(vty, xp, NB_OP_CREATE, NULL);
	snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu64 "']/action", e->list_xpath, seq);
	nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, e->action);
	snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu64 "']/%s", e->list_xpath, seq,
		 e->text_leaf);
	nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, e->text);
	return nb_cli_apply_changes(vty, NULL);
}
