/* SPDX-License-Identifier: ISC */
/*
 * `ip prefix-list` and `ipv6 prefix-list` configuration commands, FRR's syntax and behaviour:
 *
 *   ip prefix-list NAME [seq N] <permit|deny> <any|A.B.C.D/M [ge G] [le L]>
 *   ip prefix-list NAME description LINE...
 *   no ip prefix-list NAME [seq N] [<permit|deny> <any|A.B.C.D/M [ge G] [le L]>]
 *   no ip prefix-list NAME description [LINE...]
 *
 * As in FRR 8.4: an entry without seq gets the highest seq plus 5 and is not added again when an
 * identical one exists; host bits of the prefix are cleared; `no ... seq N` removes entry N
 * whatever else the line says, `no` without seq removes the entry with that content; a list
 * left with neither entries nor description goes away. Every command is one candidate edit,
 * validated whole (ranges, len <= ge <= le, family) by the model.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/plist.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define XPATH_MAX 512

/* What one command line says about one entry. */
struct entry_spec {
	int family;
	const char *name;
	bool has_seq;
	uint32_t seq;
	bool has_match; /* action and any/prefix given */
	const char *action;
	bool any;
	char prefix[PREFIX_STRLEN]; /* masked */
	unsigned ge, le;	    /* 0: not given */
};

static const char *afi_of(int family)
{
	return family == AF_INET ? "ipv4" : "ipv6";
}

static void list_xpath(char *buf, size_t size, int family, const char *name)
{
	snprintf(buf, size, PLIST_XPATH "[afi='%s'][name='%s']", afi_of(family), name);
}

/* The name must fit in an xpath predicate; the model refuses the rest with its message. */
static bool name_usable(struct vty *vty, const char *name)
{
	if (strchr(name, '\'')) {
		vty_out(vty, "%% A prefix-list name cannot contain a quote (')\n");
		return false;
	}
	return true;
}

static int spec_parse(struct vty *vty, const struct cmd_args *args, int family,
		      struct entry_spec *s)
{
	const char *prefix = cmd_arg(args, "prefix");

	memset(s, 0, sizeof(*s));
	s->family = family;
	s->name = cmd_arg(args, "name");
	if (!name_usable(vty, s->name))
		return -1;
	s->has_seq = cmd_has(args, "seq");
	s->seq = (uint32_t)cmd_arg_u64(args, "seq", 0);
	s->action = cmd_arg(args, "action");
	s->has_match = s->action != NULL;
	s->any = cmd_has(args, "any");
	if (prefix) {
		struct prefix p;

		if (prefix_from_str(&p, prefix, false) < 0) {
			vty_out(vty, "%% Malformed prefix %s\n", prefix);
			return -1;
		}
		prefix_apply_mask(&p); /* FRR keeps 10.0.0.0/8 for 10.0.0.1/8 */
		prefix_to_str(&p, s->prefix, sizeof(s->prefix));
	}
	s->ge = (unsigned)cmd_arg_u64(args, "ge", 0);
	s->le = (unsigned)cmd_arg_u64(args, "le", 0);
	return 0;
}

/* Does the entry node say what the spec says (action, any/prefix, ge, le)? */
static bool entry_is(const struct lyd_node *entry, const struct entry_spec *s)
{
	const char *action = yang_dnode_get_string(entry, "action");
	const char *prefix = yang_dnode_get_string(entry, "prefix");

	if (!action || strcmp(action, s->action) != 0)
		return false;
	if (s->any)
		return yang_dnode_exists(entry, "any");
	return prefix && strcmp(prefix, s->prefix) == 0 &&
	       yang_dnode_get_uint(entry, 0, "ge") == s->ge &&
	       yang_dnode_get_uint(entry, 0, "le") == s->le;
}

/* Walk the list's entries in the tree this vty edits: the one matching the spec (or NULL),
 * the highest seq, and how many there are. */
static const struct lyd_node *entries_scan(struct vty *vty, const struct entry_spec *s,
					   uint32_t *max_seq, uint32_t *count)
{
	char xp[XPATH_MAX];
	const struct lyd_node *list, *found = NULL;

	*max_seq = 0;
	*count = 0;
	list_xpath(xp, sizeof(xp), s->family, s->name);
	list = nb_cli_get(vty, "%s", xp);
	if (!list)
		return NULL;
	for (const struct lyd_node *n = lyd_child(list); n; n = n->next) {
		uint32_t seq;

		if (strcmp(n->schema->name, "entry") != 0)
			continue;
		seq = (uint32_t)yang_dnode_get_uint(n, 0, "seq");
		if (seq > *max_seq)
			*max_seq = seq;
		(*count)++;
		if (!found && s->has_match && entry_is(n, s))
			found = n;
	}
	return found;
}

static int entry_add(struct vty *vty, const struct entry_spec *s)
{
	char list[XPATH_MAX], xp[XPATH_MAX + 64], num[16];
	uint32_t max_seq, count, seq = s->seq;

	if (!s->has_seq) {
		if (entries_scan(vty, s, &max_seq, &count))
			return CMD_SUCCESS; /* already there: FRR does not add it twice */
		seq = count ? max_seq + PREFIX_LIST_SEQ_STEP : PREFIX_LIST_SEQ_STEP;
		if (count && max_seq > UINT32_MAX - PREFIX_LIST_SEQ_STEP) {
			vty_out(vty,
				"%% No sequence number left after %" PRIu32
				" in prefix-list %s: give one with seq\n",
				max_seq, s->name);
			return CMD_WARNING_CONFIG_FAILED;
		}
	}
	list_xpath(list, sizeof(list), s->family, s->name);
	snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']", list, seq);
	/* The line replaces the entry with that seq whole. */
	nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	nb_cli_enqueue_change(vty, xp, NB_OP_CREATE, NULL);
	snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']/action", list, seq);
	nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, s->action);
	if (s->any) {
		snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']/any", list, seq);
		nb_cli_enqueue_change(vty, xp, NB_OP_CREATE, NULL);
	} else {
		snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']/prefix", list, seq);
		nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, s->prefix);
		if (s->ge) {
			snprintf(num, sizeof(num), "%u", s->ge);
			snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']/ge", list, seq);
			nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, num);
		}
		if (s->le) {
			snprintf(num, sizeof(num), "%u", s->le);
			snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']/le", list, seq);
			nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, num);
		}
	}
	return nb_cli_apply_changes(vty, NULL);
}

static int entry_remove(struct vty *vty, const struct entry_spec *s)
{
	char list[XPATH_MAX], xp[XPATH_MAX + 64];
	const struct lyd_node *found;
	const struct lyd_node *list_node;
	uint32_t max_seq, count, seq = s->seq;

	found = entries_scan(vty, s, &max_seq, &count);
	if (!s->has_seq) {
		if (!found)
			return CMD_SUCCESS; /* nothing with that content: nothing to do (FRR) */
		seq = (uint32_t)yang_dnode_get_uint(found, 0, "seq");
	}
	list_xpath(list, sizeof(list), s->family, s->name);
	list_node = nb_cli_get(vty, "%s", list);
	if (!list_node)
		return CMD_SUCCESS;
	if (!nb_cli_exists(vty, "%s/entry[seq='%" PRIu32 "']", list, seq))
		return CMD_SUCCESS;
	/* The last entry of a list without description takes the list with it (FRR). */
	if (count <= 1 && !yang_dnode_exists(list_node, "description")) {
		nb_cli_enqueue_change(vty, list, NB_OP_DESTROY, NULL);
	} else {
		snprintf(xp, sizeof(xp), "%s/entry[seq='%" PRIu32 "']", list, seq);
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	}
	return nb_cli_apply_changes(vty, NULL);
}

static int plist_entry(struct vty *vty, const struct cmd_args *args, int family)
{
	struct entry_spec s;

	if (spec_parse(vty, args, family, &s) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	return entry_add(vty, &s);
}

static int no_plist_entry(struct vty *vty, const struct cmd_args *args, int family)
{
	struct entry_spec s;
	char list[XPATH_MAX];

	if (spec_parse(vty, args, family, &s) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	if (s.has_seq || s.has_match)
		return entry_remove(vty, &s);
	/* `no ip prefix-list NAME`: the whole list. */
	list_xpath(list, sizeof(list), family, s.name);
	nb_cli_enqueue_change(vty, list, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

static int plist_description(struct vty *vty, const struct cmd_args *args, int family, bool no)
{
	const char *name = cmd_arg(args, "name");
	char xp[XPATH_MAX + 16], list[XPATH_MAX];
	const struct lyd_node *list_node;

	if (!name_usable(vty, name))
		return CMD_WARNING_CONFIG_FAILED;
	list_xpath(list, sizeof(list), family, name);
	snprintf(xp, sizeof(xp), "%s/description", list);
	if (!no) {
		nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, cmd_arg(args, "LINE..."));
		return nb_cli_apply_changes(vty, NULL);
	}
	list_node = nb_cli_get(vty, "%s", list);
	if (!list_node)
		return CMD_SUCCESS;
	/* A list that held only its description goes with it. */
	if (!yang_dnode_exists(list_node, "entry"))
		nb_cli_enqueue_change(vty, list, NB_OP_DESTROY, NULL);
	else
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/* ---- the commands ------------------------------------------------------------------------ */

#define PLIST_STR "Build a prefix list\n"
#define PLIST_NAME_STR "Name of a prefix list\n"
#define SEQ_STR                         \
	"sequence number of an entry\n" \
	"Sequence number\n"
#define ACTION_STR                    \
	"Specify packets to reject\n" \
	"Specify packets to forward\n"
#define ANY_STR "Any prefix match. Same as \"0.0.0.0/0 le 32\"\n"
#define ANY6_STR "Any prefix match. Same as \"::0/0 le 128\"\n"
#define GE_LE_STR(max)                          \
	"Minimum prefix length to be matched\n" \
	"Minimum prefix length\n"               \
	"Maximum prefix length to be matched\n" \
	"Maximum prefix length\n"

#define V4_ENTRY                                                                             \
	"[seq (1-4294967295)$seq] <deny|permit>$action <any|A.B.C.D/M$prefix [{ge (0-32)$ge" \
	"|le (0-32)$le}]>"
#define V4_ENTRY_HELP \
	SEQ_STR ACTION_STR ANY_STR "IP prefix <network>/<length>, e.g., 35.0.0.0/8\n" GE_LE_STR(32)
#define V6_ENTRY                                                                     \
	"[seq (1-4294967295)$seq] <deny|permit>$action <any|X:X::X:X/M$prefix [{ge " \
	"(0-128)$ge|le (0-128)$le}]>"
#define V6_ENTRY_HELP               \
	SEQ_STR ACTION_STR ANY6_STR \
		"IPv6 prefix <network>/<length>, e.g., 3ffe::/16\n" GE_LE_STR(128)

DEFCMD(ip_prefix_list, "ip prefix-list WORD$name " V4_ENTRY,
       IP_STR PLIST_STR PLIST_NAME_STR V4_ENTRY_HELP)
{
	return plist_entry(vty, args, AF_INET);
}

DEFCMD(no_ip_prefix_list, "no ip prefix-list WORD$name [" V4_ENTRY "]",
       NO_STR IP_STR PLIST_STR PLIST_NAME_STR V4_ENTRY_HELP)
{
	return no_plist_entry(vty, args, AF_INET);
}

DEFCMD(no_ip_prefix_list_seq, "no ip prefix-list WORD$name seq (1-4294967295)$seq",
       NO_STR IP_STR PLIST_STR PLIST_NAME_STR SEQ_STR)
{
	return no_plist_entry(vty, args, AF_INET);
}

DEFCMD(ip_prefix_list_description, "ip prefix-list WORD$name description LINE...",
       IP_STR PLIST_STR PLIST_NAME_STR "Prefix-list specific description\n"
				       "Up to 80 characters describing this prefix-list\n")
{
	return plist_description(vty, args, AF_INET, false);
}

DEFCMD(no_ip_prefix_list_description, "no ip prefix-list WORD$name description [LINE...]",
       NO_STR IP_STR PLIST_STR PLIST_NAME_STR "Prefix-list specific description\n"
					      "Up to 80 characters describing this prefix-list\n")
{
	return plist_description(vty, args, AF_INET, true);
}

DEFCMD(ipv6_prefix_list, "ipv6 prefix-list WORD$name " V6_ENTRY,
       IPV6_STR PLIST_STR PLIST_NAME_STR V6_ENTRY_HELP)
{
	return plist_entry(vty, args, AF_INET6);
}

DEFCMD(no_ipv6_prefix_list, "no ipv6 prefix-list WORD$name [" V6_ENTRY "]",
       NO_STR IPV6_STR PLIST_STR PLIST_NAME_STR V6_ENTRY_HELP)
{
	return no_plist_entry(vty, args, AF_INET6);
}

DEFCMD(no_ipv6_prefix_list_seq, "no ipv6 prefix-list WORD$name seq (1-4294967295)$seq",
       NO_STR IPV6_STR PLIST_STR PLIST_NAME_STR SEQ_STR)
{
	return no_plist_entry(vty, args, AF_INET6);
}

DEFCMD(ipv6_prefix_list_description, "ipv6 prefix-list WORD$name description LINE...",
       IPV6_STR PLIST_STR PLIST_NAME_STR "Prefix-list specific description\n"
					 "Up to 80 characters describing this prefix-list\n")
{
	return plist_description(vty, args, AF_INET6, false);
}

DEFCMD(no_ipv6_prefix_list_description, "no ipv6 prefix-list WORD$name description [LINE...]",
       NO_STR IPV6_STR PLIST_STR PLIST_NAME_STR "Prefix-list specific description\n"
						"Up to 80 characters describing this prefix-list\n")
{
	return plist_description(vty, args, AF_INET6, true);
}

void plist_cli_init(void)
{
	nb_module_register(&plist_nb_module);
	cmd_install(CONFIG_NODE, &ip_prefix_list_cmd);
	cmd_install(CONFIG_NODE, &no_ip_prefix_list_cmd);
	cmd_install(CONFIG_NODE, &no_ip_prefix_list_seq_cmd);
	cmd_install(CONFIG_NODE, &ip_prefix_list_description_cmd);
	cmd_install(CONFIG_NODE, &no_ip_prefix_list_description_cmd);
	cmd_install(CONFIG_NODE, &ipv6_prefix_list_cmd);
	cmd_install(CONFIG_NODE, &no_ipv6_prefix_list_cmd);
	cmd_install(CONFIG_NODE, &no_ipv6_prefix_list_seq_cmd);
	cmd_install(CONFIG_NODE, &ipv6_prefix_list_description_cmd);
	cmd_install(CONFIG_NODE, &no_ipv6_prefix_list_description_cmd);
	plist_show_init();
}
