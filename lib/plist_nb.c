/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists in the northbound: skua-policy's prefix-list nodes -> lib/plist.c objects, and
 * back out as running-config lines in FRR's layout:
 *
 *   ip prefix-list OURS description our networks
 *   ip prefix-list OURS seq 5 permit 198.51.100.0/24
 *   ip prefix-list OURS seq 10 deny 10.0.0.0/8 ge 16 le 24
 *   !
 *   ipv6 prefix-list V6 seq 5 permit 2001:db8::/32 le 48
 *
 * IPv4 lists first, then IPv6, each by name; entries by sequence number. An entry is rebuilt
 * whole from its node whenever any of its leaves changed (apply_finish), so a commit that
 * turns `permit P` into `deny P ge 24` never shows a half-changed entry to a route.
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <string.h>

#include "lib/northbound.h"
#include "lib/plist.h"
#include "lib/plist_cli.h"
#include "lib/yang.h"

static int family_of(const struct lyd_node *list)
{
	const char *afi = yang_dnode_get_string(list, "afi");

	return afi && strcmp(afi, "ipv6") == 0 ? AF_INET6 : AF_INET;
}

static struct prefix_list *list_of(const struct lyd_node *list_dnode)
{
	return prefix_list_lookup(family_of(list_dnode), yang_dnode_get_string(list_dnode, "name"));
}

/* ---- callbacks --------------------------------------------------------------------------- */

static int plist_create(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		prefix_list_get(family_of(args->dnode), yang_dnode_get_string(args->dnode, "name"));
	return NB_OK;
}

static int plist_destroy(struct nb_cb_args *args)
{
	struct prefix_list *pl;

	if (args->event == NB_EV_APPLY && (pl = list_of(args->dnode)))
		prefix_list_delete(pl);
	return NB_OK;
}

static int plist_description_modify(struct nb_cb_args *args)
{
	struct prefix_list *pl;

	if (args->event == NB_EV_APPLY && (pl = list_of(lyd_parent(args->dnode))))
		prefix_list_set_description(pl, lyd_get_value(args->dnode));
	return NB_OK;
}

static int plist_description_destroy(struct nb_cb_args *args)
{
	struct prefix_list *pl;

	if (args->event == NB_EV_APPLY && (pl = list_of(lyd_parent(args->dnode))))
		prefix_list_set_description(pl, NULL);
	return NB_OK;
}

/* The entry a node describes (validated by libyang: action, prefix or any, ranges). */
static void entry_from_dnode(struct prefix_list_entry *e, const struct lyd_node *dnode)
{
	const char *action = yang_dnode_get_string(dnode, "action");
	const char *prefix = yang_dnode_get_string(dnode, "prefix");

	memset(e, 0, sizeof(*e));
	e->seq = (uint32_t)yang_dnode_get_uint(dnode, 0, "seq");
	e->action = action && strcmp(action, "permit") == 0 ? PREFIX_PERMIT : PREFIX_DENY;
	e->any = yang_dnode_exists(dnode, "any");
	if (!e->any && prefix)
		prefix_from_str(&e->p, prefix, false);
	e->ge = (uint8_t)yang_dnode_get_uint(dnode, 0, "ge");
	e->le = (uint8_t)yang_dnode_get_uint(dnode, 0, "le");
}

static void plist_entry_apply_finish(struct nb_cb_args *args)
{
	struct prefix_list_entry e;
	struct prefix_list *pl = list_of(lyd_parent(args->dnode));

	if (!pl)
		return;
	entry_from_dnode(&e, args->dnode);
	prefix_list_entry_set(pl, &e);
}

static int plist_entry_destroy(struct nb_cb_args *args)
{
	struct prefix_list *pl;

	if (args->event == NB_EV_APPLY && (pl = list_of(lyd_parent(args->dnode))))
		prefix_list_entry_delete(pl, (uint32_t)yang_dnode_get_uint(args->dnode, 0, "seq"));
	return NB_OK;
}

/* ---- running-config ----------------------------------------------------------------------- */

static const char *keyword_of(const struct lyd_node *list)
{
	return family_of(list) == AF_INET ? "ip" : "ipv6";
}

static void plist_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *desc = yang_dnode_get_string(dnode, "description");

	if (desc)
		sbuf_printf(out, "%s prefix-list %s description %s\n", keyword_of(dnode),
			    yang_dnode_get_string(dnode, "name"), desc);
}

/* FRR separates the IPv4 lists from the IPv6 ones with "!": after the last IPv4 list, when
 * IPv6 lists follow (the module's own "!" closes the last group). */
static void plist_show_end(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *name = yang_dnode_get_string(dnode, "name");
	bool v6_follows = false;

	if (family_of(dnode) != AF_INET)
		return;
	for (const struct lyd_node *s = lyd_first_sibling(dnode); s; s = s->next) {
		if (s->schema != dnode->schema || s == dnode)
			continue;
		if (family_of(s) == AF_INET6)
			v6_follows = true;
		else if (strcmp(yang_dnode_get_string(s, "name"), name) > 0)
			return; /* another IPv4 list prints after this one */
	}
	if (v6_follows)
		sbuf_puts(out, "!\n");
}

static int plist_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	int fa = family_of(a), fb = family_of(b);

	if (fa != fb)
		return fa == AF_INET ? -1 : 1;
	return strcmp(yang_dnode_get_string(a, "name"), yang_dnode_get_string(b, "name"));
}

static void plist_entry_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *list = lyd_parent(dnode);
	struct prefix_list_entry e;
	char buf[128];

	entry_from_dnode(&e, dnode);
	sbuf_printf(out, "%s prefix-list %s seq %u %s\n", keyword_of(list),
		    yang_dnode_get_string(list, "name"), e.seq,
		    prefix_list_entry_str(&e, buf, sizeof(buf)));
}

static int plist_entry_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	uint64_t sa = yang_dnode_get_uint(a, 0, "seq"), sb = yang_dnode_get_uint(b, 0, "seq");

	return sa < sb ? -1 : sa > sb;
}

static const struct nb_node_info plist_nb_nodes[] = {
	{
		.xpath = PLIST_XPATH,
		.cbs = { .create = plist_create,
			 .destroy = plist_destroy,
			 .cli_show = plist_show,
			 .cli_show_end = plist_show_end,
			 .cli_cmp = plist_cmp },
	},
	{
		.xpath = PLIST_XPATH "/description",
		.cbs = { .modify = plist_description_modify, .destroy = plist_description_destroy },
	},
	{
		.xpath = PLIST_XPATH "/entry",
		.cbs = { .destroy = plist_entry_destroy,
			 .apply_finish = plist_entry_apply_finish,
			 .cli_show = plist_entry_show,
			 .cli_cmp = plist_entry_cmp },
	},
	{ .xpath = NULL },
};

const struct nb_module_info plist_nb_module = {
	.name = "skua-policy",
	.nodes = plist_nb_nodes,
};
