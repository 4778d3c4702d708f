/* SPDX-License-Identifier: ISC */
/*
 * Route-maps on the CLI and in the northbound (skua-policy's route-map), FRR's syntax:
 *
 *   route-map NAME <permit|deny> (1-65535)     enters r1(config-route-map)#
 *    match ip address prefix-list NAME | match ipv6 address prefix-list NAME
 *    match ip next-hop prefix-list NAME | match ipv6 next-hop [address] X:X::X:X
 *    match as-path NAME | match metric (0-4294967295)
 *    match community NAME [exact-match] | match large-community NAME [exact-match]
 *    match rpki valid|invalid|notfound | match aspa valid|invalid|unknown
 *    match peer A.B.C.D|X:X::X:X|local|IFNAME | match tag N | set tag N
 *      (bgp_routemap_peer_tag_cli.c)
 *    set local-preference N|+N|-N | set metric N|+N|-N | set weight N
 *    set as-path prepend ASN... | set as-path exclude ASN... | set ip next-hop A.B.C.D
 *    set community AA:NN... [additive] | set community none | set comm-list NAME delete
 *    set large-community G:L1:L2... [additive] | set large-community none
 *    set large-comm-list NAME delete | set origin igp|egp|incomplete
 *    match extcommunity and set extcommunity ... (bgp_routemap_ecomm_cli.c)
 *    call NAME | on-match next | on-match goto N | description LINE...
 *   exit
 *   no route-map NAME [<permit|deny> (1-65535)]
 *
 * (`show route-map` is bgpd/show/bgp_show_policy.c's.)
 *
 * An entry is rebuilt whole from its node whenever any of its statements changed
 * (apply_finish), so a route never meets a half-edited entry. A map goes with its last entry.
 * Printed after the prefix and AS path lists, each entry a block ending in "exit", blocks
 * separated by "!" as FRR does.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_routemap_ecomm.h"
#include "bgpd/config/bgp_routemap_peer_tag.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define RMAP_XPATH POLICY_XPATH "/route-map"
#define XPATH_MAX 512

/* ---- callbacks ----------------------------------------------------------------------- */

static char *dup_leaf(const struct lyd_node *dnode, const char *path)
{
	const char *v = yang_dnode_get_string(dnode, "%s", path);

	return v ? XSTRDUP(MTYPE_BGP_ROUTEMAP, v) : NULL;
}

/* "N", "+N" or "-N" (validated by the model). */
static bool arith_leaf(const struct lyd_node *dnode, const char *path, enum rmap_arith *op,
		       uint32_t *v)
{
	const char *s = yang_dnode_get_string(dnode, "%s", path);
	unsigned long long n;

	if (!s)
		return false;
	*op = s[0] == '+' ? RMAP_ADD : s[0] == '-' ? RMAP_SUB : RMAP_SET_VALUE;
	n = strtoull(s + (*op != RMAP_SET_VALUE), NULL, 10);
	*v = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	return true;
}

/* The AS numbers of set as-path prepend / exclude, in the order written (the model's
 * pattern and the command's range leave numbers only). */
static void asn_list_leaf(const struct lyd_node *dnode, const char *path, uint32_t **out,
			  uint32_t *count)
{
	const char *s = yang_dnode_get_string(dnode, "%s", path);
	uint32_t n = 0;

	if (!s)
		return;
	for (const char *p = s; *p; p++)
		n += *p == ' ';
	*out = XCALLOC(MTYPE_BGP_ROUTEMAP, (n + 1) * sizeof(**out));
	for (const char *p = s; *p;) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			break;
		(*out)[(*count)++] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		p = *end ? end + 1 : end;
	}
}

/* The words of a set community / set large-community value (parsed by VALIDATE already),
 * w words each: a set, sorted and without repeats. */
static uint32_t values_parse(const char *s, uint32_t w, uint32_t **out)
{
	char *copy = XSTRDUP(MTYPE_BGP_ROUTEMAP, s), *save = NULL;
	uint32_t n = 1, k = 0, *v;

	for (const char *p = s; *p; p++)
		n += *p == ' ';
	v = XCALLOC(MTYPE_BGP_ROUTEMAP, (size_t)n * w * sizeof(*v));
	for (char *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save))
		if ((w == 3 ? bgp_lcommunity_from_str(word, &v[k * w])
			    : bgp_community_from_str(word, &v[k * w])) == 0)
			k++;
	XFREE(MTYPE_BGP_ROUTEMAP, copy);
	*out = v;
	return w == 3 ? bgp_lcomm_sort_uniq(v, k) : bgp_comm_sort_uniq(v, k);
}

/* set community / set large-community: "none", or the values. */
static void communities_leaf(const struct lyd_node *dnode, struct rmap_entry *e)
{
	const char *s = yang_dnode_get_string(dnode, "set/community");
	const char *ls = yang_dnode_get_string(dnode, "set/large-community");

	if (s) {
		e->comm_set = true;
		e->comm_additive = yang_dnode_exists(dnode, "set/community-additive");
		if (strcmp(s, "none") == 0)
			e->comm_none = true;
		else
			e->ncomm = values_parse(s, 1, &e->comm);
	}
	if (ls) {
		e->lcomm_set = true;
		e->lcomm_additive = yang_dnode_exists(dnode, "set/large-community-additive");
		if (strcmp(ls, "none") == 0)
			e->lcomm_none = true;
		else
			e->nlcomm = values_parse(ls, 3, &e->lcomm);
	}
}

/* VALIDATE of set community / set large-community: every word a value, or the single word
 * none. */
static int set_values_modify(struct nb_cb_args *args, bool large)
{
	const char *s = lyd_get_value(args->dnode);
	char *copy, *save = NULL;
	int ret = NB_OK;

	if (args->event != NB_EV_VALIDATE || strcmp(s, "none") == 0)
		return NB_OK;
	copy = XSTRDUP(MTYPE_BGP_ROUTEMAP, s);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint32_t v[3];

		if ((large ? bgp_lcommunity_from_str(w, v) : bgp_community_from_str(w, v)) < 0) {
			snprintf(args->errmsg, args->errmsg_len,
				 large ? "Malformed large-community attribute: %s "
					 "(GLOBAL:LOCAL1:LOCAL2, "
					 "each 0-4294967295)"
				       : "Malformed communities attribute: %s",
				 w);
			ret = NB_ERR;
			break;
		}
	}
	XFREE(MTYPE_BGP_ROUTEMAP, copy);
	return ret;
}

static int set_community_modify(struct nb_cb_args *args)
{
	return set_values_modify(args, false);
}

static int set_lcommunity_modify(struct nb_cb_args *args)
{
	return set_values_modify(args, true);
}

/* match rpki: the model's words are rpki_state_name()'s. */
static enum rpki_state rpki_leaf(const struct lyd_node *dnode)
{
	static const enum rpki_state states[] = { RPKI_VALID, RPKI_INVALID, RPKI_NOTFOUND };
	const char *s = yang_dnode_get_string(dnode, "match/rpki");

	for (size_t i = 0; s && i < array_size(states); i++)
		if (strcmp(s, rpki_state_name(states[i])) == 0)
			return states[i];
	return RPKI_NOT_USED;
}

static enum aspa_state aspa_leaf(const struct lyd_node *dnode)
{
	static const enum aspa_state states[] = { ASPA_VALID, ASPA_INVALID, ASPA_UNKNOWN };
	const char *s = yang_dnode_get_string(dnode, "match/aspa");

	for (size_t i = 0; s && i < array_size(states); i++)
		if (strcmp(s, aspa_state_name(states[i])) == 0)
			return states[i];
	return ASPA_NOT_USED;
}

static void origin_leaf(const struct lyd_node *dnode, struct rmap_entry *e)
{
	const char *s = yang_dnode_get_string(dnode, "set/origin");

	if (!s)
		return;
	e->origin_set = true;
	e->origin = strcmp(s, "egp") == 0	   ? BGP_ORIGIN_EGP
		    : strcmp(s, "incomplete") == 0 ? BGP_ORIGIN_INCOMPLETE
						   : BGP_ORIGIN_IGP;
}

static void entry_from_dnode(struct rmap_entry *e, const struct lyd_node *dnode)
{
	const char *action = yang_dnode_get_string(dnode, "action");
	const char *nh = yang_dnode_get_string(dnode, "set/ip-next-hop");
	const char *nh6 = yang_dnode_get_string(dnode, "set/ipv6-next-hop-global");
	const char *nh6m;

	memset(e, 0, sizeof(*e));
	e->seq = (uint16_t)yang_dnode_get_uint(dnode, 0, "seq");
	e->permit = action && strcmp(action, "permit") == 0;
	if (yang_dnode_exists(dnode, "on-match-next")) {
		e->on_match = RMAP_NEXT;
	} else if (yang_dnode_exists(dnode, "on-match-goto")) {
		e->on_match = RMAP_GOTO;
		e->goto_seq = (uint16_t)yang_dnode_get_uint(dnode, 0, "on-match-goto");
	}
	e->call = dup_leaf(dnode, "call");
	e->description = dup_leaf(dnode, "description");
	e->match_plist4 = dup_leaf(dnode, "match/ip-prefix-list");
	e->match_nh_plist4 = dup_leaf(dnode, "match/ip-next-hop-prefix-list");
	nh6m = yang_dnode_get_string(dnode, "match/ipv6-next-hop-address");
	e->match_nh6_set = nh6m && inet_pton(AF_INET6, nh6m, &e->match_nh6) == 1;
	e->match_plist6 = dup_leaf(dnode, "match/ipv6-prefix-list");
	e->match_aspath = dup_leaf(dnode, "match/as-path");
	e->match_metric_set = yang_dnode_exists(dnode, "match/metric");
	e->match_metric = (uint32_t)yang_dnode_get_uint(dnode, 0, "match/metric");
	e->lp_set = arith_leaf(dnode, "set/local-preference", &e->lp_op, &e->lp);
	e->med_set = arith_leaf(dnode, "set/metric", &e->med_op, &e->med);
	e->weight_set = yang_dnode_exists(dnode, "set/weight");
	e->weight = (uint32_t)yang_dnode_get_uint(dnode, 0, "set/weight");
	origin_leaf(dnode, e);
	e->nexthop_set = nh && inet_pton(AF_INET, nh, &e->nexthop) == 1;
	e->nexthop6_set = nh6 && inet_pton(AF_INET6, nh6, &e->nexthop6) == 1;
	asn_list_leaf(dnode, "set/as-path-prepend", &e->prepend, &e->nprepend);
	asn_list_leaf(dnode, "set/as-path-exclude", &e->exclude, &e->nexclude);
	e->match_clist = dup_leaf(dnode, "match/community");
	e->match_clist_exact = yang_dnode_exists(dnode, "match/community-exact");
	e->match_lclist = dup_leaf(dnode, "match/large-community");
	e->match_lclist_exact = yang_dnode_exists(dnode, "match/large-community-exact");
	e->comm_delete = dup_leaf(dnode, "set/comm-list-delete");
	e->lcomm_delete = dup_leaf(dnode, "set/large-comm-list-delete");
	communities_leaf(dnode, e);
	e->match_rpki = rpki_leaf(dnode);
	e->match_aspa = aspa_leaf(dnode);
	rmap_ecomm_from_dnode(e, dnode);
	rmap_peer_tag_from_dnode(e, dnode);
}

static void rmap_entry_apply_finish(struct nb_cb_args *args)
{
	struct rmap_entry e;

	entry_from_dnode(&e, args->dnode);
	route_map_entry_set(yang_dnode_get_string(lyd_parent(args->dnode), "name"), &e);
}

static int rmap_entry_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		route_map_entry_delete(yang_dnode_get_string(lyd_parent(args->dnode), "name"),
				       (uint16_t)yang_dnode_get_uint(args->dnode, 0, "seq"));
	return NB_OK;
}

static int rmap_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		route_map_delete(yang_dnode_get_string(args->dnode, "name"));
	return NB_OK;
}

/* ---- running-config -------------------------------------------------------------------- */

/* FRR separates each route-map block (and the lists before them) with "!". The first block
 * prints one only when prefix or AS path lists came before it. */
static bool first_block(const struct lyd_node *entry)
{
	const struct lyd_node *map = lyd_parent(entry);
	const char *name = yang_dnode_get_string(map, "name");
	uint64_t seq = yang_dnode_get_uint(entry, 0, "seq");

	for (const struct lyd_node *s = lyd_first_sibling(map); s; s = s->next)
		if (s->schema == map->schema && s != map &&
		    strcmp(yang_dnode_get_string(s, "name"), name) < 0)
			return false;
	for (const struct lyd_node *s = lyd_child(map); s; s = s->next)
		if (s != entry && s->schema == entry->schema &&
		    yang_dnode_get_uint(s, 0, "seq") < seq)
			return false;
	return true;
}

static bool lists_before(const struct lyd_node *map)
{
	for (const struct lyd_node *s = lyd_first_sibling(map); s; s = s->next)
		if (s->schema != map->schema)
			return true;
	return false;
}

static void rmap_entry_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *map = lyd_parent(dnode);
	const char *v;
	size_t body;

	if (!first_block(dnode) || lists_before(map))
		sbuf_puts(out, "!\n");
	sbuf_printf(out, "route-map %s %s %" PRIu64 "\n", yang_dnode_get_string(map, "name"),
		    yang_dnode_get_string(dnode, "action"), yang_dnode_get_uint(dnode, 0, "seq"));
	body = out->len;
	if ((v = yang_dnode_get_string(dnode, "description")))
		sbuf_printf(out, " description %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/ip-prefix-list")))
		sbuf_printf(out, " match ip address prefix-list %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/ip-next-hop-prefix-list")))
		sbuf_printf(out, " match ip next-hop prefix-list %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/ipv6-prefix-list")))
		sbuf_printf(out, " match ipv6 address prefix-list %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/ipv6-next-hop-address")))
		sbuf_printf(out, " match ipv6 next-hop address %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/as-path")))
		sbuf_printf(out, " match as-path %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/metric")))
		sbuf_printf(out, " match metric %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/community")))
		sbuf_printf(out, " match community %s%s\n", v,
			    yang_dnode_exists(dnode, "match/community-exact") ? " exact-match"
									      : "");
	rmap_ecomm_show_match(out, dnode);
	if ((v = yang_dnode_get_string(dnode, "match/large-community")))
		sbuf_printf(out, " match large-community %s%s\n", v,
			    yang_dnode_exists(dnode, "match/large-community-exact") ? " exact-match"
										    : "");
	rmap_match_peer_show(out, dnode);
	if ((v = yang_dnode_get_string(dnode, "match/rpki")))
		sbuf_printf(out, " match rpki %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "match/aspa")))
		sbuf_printf(out, " match aspa %s\n", v);
	rmap_match_tag_show(out, dnode);
	if ((v = yang_dnode_get_string(dnode, "set/as-path-exclude")))
		sbuf_printf(out, " set as-path exclude %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/as-path-prepend")))
		sbuf_printf(out, " set as-path prepend %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/community")))
		sbuf_printf(out, " set community %s%s\n", v,
			    yang_dnode_exists(dnode, "set/community-additive") ? " additive" : "");
	if ((v = yang_dnode_get_string(dnode, "set/comm-list-delete")))
		sbuf_printf(out, " set comm-list %s delete\n", v);
	rmap_ecomm_show_set(out, dnode);
	if ((v = yang_dnode_get_string(dnode, "set/large-community")))
		sbuf_printf(out, " set large-community %s%s\n", v,
			    yang_dnode_exists(dnode, "set/large-community-additive") ? " additive"
										     : "");
	if ((v = yang_dnode_get_string(dnode, "set/large-comm-list-delete")))
		sbuf_printf(out, " set large-comm-list %s delete\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/ip-next-hop")))
		sbuf_printf(out, " set ip next-hop %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/ipv6-next-hop-global")))
		sbuf_printf(out, " set ipv6 next-hop global %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/local-preference")))
		sbuf_printf(out, " set local-preference %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/metric")))
		sbuf_printf(out, " set metric %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/origin")))
		sbuf_printf(out, " set origin %s\n", v);
	rmap_set_tag_show(out, dnode);
	if ((v = yang_dnode_get_string(dnode, "set/weight")))
		sbuf_printf(out, " set weight %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "call")))
		sbuf_printf(out, " call %s\n", v);
	if (yang_dnode_exists(dnode, "on-match-next"))
		sbuf_puts(out, " on-match next\n");
	if ((v = yang_dnode_get_string(dnode, "on-match-goto")))
		sbuf_printf(out, " on-match goto %s\n", v);
	/* FRR's vtysh prints an entry's lines sorted (its config lines of a route-map node are a
	 * sorted list): `call` first, the matches, `on-match`, then the sets. */
	sbuf_sort_lines_from(out, body);
	sbuf_puts(out, "exit\n");
}

static int rmap_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	return strcmp(yang_dnode_get_string(a, "name"), yang_dnode_get_string(b, "name"));
}

static int rmap_entry_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	uint64_t sa = yang_dnode_get_uint(a, 0, "seq"), sb = yang_dnode_get_uint(b, 0, "seq");

	return sa < sb ? -1 : sa > sb;
}

static const struct nb_node_info rmap_nb_nodes[] = {
	{
		.xpath = RMAP_XPATH,
		.cbs = { .destroy = rmap_destroy, .cli_cmp = rmap_cmp },
	},
	{
		.xpath = RMAP_XPATH "/entry/set/community",
		.cbs = { .modify = set_community_modify },
	},
	{
		.xpath = RMAP_XPATH "/entry/set/large-community",
		.cbs = { .modify = set_lcommunity_modify },
	},
	{
		.xpath = RMAP_XPATH "/entry",
		.cbs = { .destroy = rmap_entry_destroy,
			 .apply_finish = rmap_entry_apply_finish,
			 .cli_show = rmap_entry_show,
			 .cli_cmp = rmap_entry_cmp },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info rmap_nb_module = {
	.name = "skua-policy",
	.nodes = rmap_nb_nodes,
};

/* ---- commands ---------------------------------------------------------------------------- */

static bool name_usable(struct vty *vty, const char *name)
{
	if (name && strchr(name, '\'')) {
		vty_out(vty, "%% A route-map name cannot contain a quote (')\n");
		return false;
	}
	return true;
}

DEFCMD(route_map, "route-map WORD$name <deny|permit>$action (1-65535)$seq",
       "Create route-map or enter route-map command mode\n"
       "Route map tag\n"
       "Route map denies set operations\n"
       "Route map permits set operations\n"
       "Sequence to insert to/delete from existing route-map entry\n")
{
	const char *name = cmd_arg(args, "name");
	char xp[XPATH_MAX], leaf[XPATH_MAX + 16];
	int ret;

	if (!name_usable(vty, name))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xp, sizeof(xp), RMAP_XPATH "[name='%s']/entry[seq='%s']", name,
		 cmd_arg(args, "seq"));
	snprintf(leaf, sizeof(leaf), "%s/action", xp);
	nb_cli_enqueue_change(vty, leaf, NB_OP_MODIFY, cmd_arg(args, "action"));
	ret = nb_cli_apply_changes(vty, NULL);
	if (ret == CMD_SUCCESS)
		nb_cli_enter_node(vty, RMAP_NODE, xp);
	return ret;
}

DEFCMD(no_route_map, "no route-map WORD$name [<deny|permit>$action (1-65535)$seq]",
       NO_STR "Create route-map or enter route-map command mode\n"
	      "Route map tag\n"
	      "Route map denies set operations\n"
	      "Route map permits set operations\n"
	      "Sequence to insert to/delete from existing route-map entry\n")
{
	const char *name = cmd_arg(args, "name");
	char map[XPATH_MAX], xp[XPATH_MAX + 32];
	const struct lyd_node *m;
	int entries = 0;

	if (!name_usable(vty, name))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(map, sizeof(map), RMAP_XPATH "[name='%s']", name);
	m = nb_cli_get(vty, "%s", map);
	if (!m) {
		vty_out(vty, "%% Could not find route-map %s\n", name);
		return CMD_WARNING_CONFIG_FAILED;
	}
	for (const struct lyd_node *n = lyd_child(m); n; n = n->next)
		entries += strcmp(n->schema->name, "entry") == 0;
	if (cmd_has(args, "seq") && entries > 1) {
		snprintf(xp, sizeof(xp), "%s/entry[seq='%s']", map, cmd_arg(args, "seq"));
		if (!nb_cli_exists(vty, "%s", xp)) {
			vty_out(vty, "%% Could not find route-map entry %s %s\n", name,
				cmd_arg(args, "seq"));
			return CMD_WARNING_CONFIG_FAILED;
		}
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	} else {
		nb_cli_enqueue_change(vty, map, NB_OP_DESTROY, NULL); /* with its last entry */
	}
	return nb_cli_apply_changes(vty, NULL);
}

/* A statement of the entry the vty is in: set (value, or NULL for an empty leaf) or remove. */
static int stmt_edit(struct vty *vty, const char *leaf, const char *value, bool no)
{
	char xp[XPATH_MAX + 64];

	snprintf(xp, sizeof(xp), "%s/%s", vty->xpath[vty->xpath_index - 1], leaf);
	if (no)
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	else
		nb_cli_enqueue_change(vty, xp, value ? NB_OP_MODIFY : NB_OP_CREATE, value);
	return nb_cli_apply_changes(vty, NULL);
}

int rmap_stmt_edit(struct vty *vty, const char *leaf, const char *value, bool no)
{
	return stmt_edit(vty, leaf, value, no);
}

#define MATCH_STR "Match values from routing table\n"
#define SET_STR "Set values in destination routing protocol\n"
#define PLIST_MATCH_HELP                  \
	"Match address of route\n"        \
	"Match entries of prefix-lists\n" \
	"IP prefix-list name\n"

static const char *word(const struct cmd_args *args)
{
	return cmd_arg(args, "WORD");
}

DEFCMD(match_ip_plist, "match ip address prefix-list WORD", MATCH_STR IP_STR PLIST_MATCH_HELP)
{
	return name_usable(vty, word(args))
		       ? stmt_edit(vty, "match/ip-prefix-list", word(args), false)
		       : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_match_ip_plist, "no match ip address prefix-list [WORD]",
       NO_STR MATCH_STR IP_STR PLIST_MATCH_HELP)
{
	return stmt_edit(vty, "match/ip-prefix-list", NULL, true);
}

#define NH_PLIST_MATCH_HELP                 \
	"Match next-hop address of route\n" \
	"Match entries of prefix-lists\n"   \
	"IP prefix-list name\n"

DEFCMD(match_ip_nh_plist, "match ip next-hop prefix-list WORD",
       MATCH_STR IP_STR NH_PLIST_MATCH_HELP)
{
	return name_usable(vty, word(args))
		       ? stmt_edit(vty, "match/ip-next-hop-prefix-list", word(args), false)
		       : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_match_ip_nh_plist, "no match ip next-hop prefix-list [WORD]",
       NO_STR MATCH_STR IP_STR NH_PLIST_MATCH_HELP)
{
	return stmt_edit(vty, "match/ip-next-hop-prefix-list", NULL, true);
}

DEFCMD(match_ipv6_plist, "match ipv6 address prefix-list WORD", MATCH_STR IPV6_STR PLIST_MATCH_HELP)
{
	return name_usable(vty, word(args))
		       ? stmt_edit(vty, "match/ipv6-prefix-list", word(args), false)
		       : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_match_ipv6_plist, "no match ipv6 address prefix-list [WORD]",
       NO_STR MATCH_STR IPV6_STR PLIST_MATCH_HELP)
{
	return stmt_edit(vty, "match/ipv6-prefix-list", NULL, true);
}

#define NH6_MATCH_HELP                           \
	"Match IPv6 next-hop address of route\n" \
	"IPv6 address\n"                         \
	"IPv6 address of next hop\n"

DEFCMD(match_ipv6_nh, "match ipv6 next-hop address X:X::X:X$nh", MATCH_STR IPV6_STR NH6_MATCH_HELP)
{
	return stmt_edit(vty, "match/ipv6-next-hop-address", cmd_arg(args, "nh"), false);
}

/* FRR's older spelling, which FRR still takes and prints as the one above. */
DEFCMD(match_ipv6_nh_old, "match ipv6 next-hop X:X::X:X$nh",
       MATCH_STR IPV6_STR "Match IPv6 next-hop address of route\n"
			  "IPv6 address of next hop\n")
{
	return stmt_edit(vty, "match/ipv6-next-hop-address", cmd_arg(args, "nh"), false);
}

DEFCMD(no_match_ipv6_nh, "no match ipv6 next-hop address [X:X::X:X]",
       NO_STR MATCH_STR IPV6_STR NH6_MATCH_HELP)
{
	return stmt_edit(vty, "match/ipv6-next-hop-address", NULL, true);
}

DEFCMD(no_match_ipv6_nh_old, "no match ipv6 next-hop X:X::X:X",
       NO_STR MATCH_STR IPV6_STR "Match IPv6 next-hop address of route\n"
				 "IPv6 address of next hop\n")
{
	return stmt_edit(vty, "match/ipv6-next-hop-address", NULL, true);
}

DEFCMD(match_as_path, "match as-path WORD",
       MATCH_STR "Match BGP AS path list\n"
		 "AS path access-list name\n")
{
	return name_usable(vty, word(args)) ? stmt_edit(vty, "match/as-path", word(args), false)
					    : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_match_as_path, "no match as-path [WORD]",
       NO_STR MATCH_STR "Match BGP AS path list\n"
			"AS path access-list name\n")
{
	return stmt_edit(vty, "match/as-path", NULL, true);
}

DEFCMD(match_metric, "match metric (0-4294967295)$metric",
       MATCH_STR "Match metric of route\n"
		 "Metric value\n")
{
	return stmt_edit(vty, "match/metric", cmd_arg(args, "metric"), false);
}

DEFCMD(no_match_metric, "no match metric [(0-4294967295)]",
       NO_STR MATCH_STR "Match metric of route\n"
			"Metric value\n")
{
	return stmt_edit(vty, "match/metric", NULL, true);
}

/* match community / match large-community NAME [exact-match]: the name and the flag are one
 * statement, set or removed in one commit. leaf: "community", "large-community". */
static int match_clist_edit(struct vty *vty, const struct cmd_args *args, const char *leaf, bool no)
{
	char xp[XPATH_MAX + 64];

	if (!no && !name_usable(vty, word(args)))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xp, sizeof(xp), "%s/match/%s", vty->xpath[vty->xpath_index - 1], leaf);
	if (no) {
		char exact[XPATH_MAX + 80];

		snprintf(exact, sizeof(exact), "%s-exact", xp);
		nb_cli_enqueue_change(vty, exact, NB_OP_DESTROY, NULL);
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, word(args));
	strncat(xp, "-exact", sizeof(xp) - strlen(xp) - 1);
	nb_cli_enqueue_change(vty, xp, cmd_has(args, "exact-match") ? NB_OP_CREATE : NB_OP_DESTROY,
			      NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(match_community, "match community WORD [exact-match]",
       MATCH_STR "Match BGP community list\n"
		 "Community-list name\n"
		 "Do exact matching of communities\n")
{
	return match_clist_edit(vty, args, "community", false);
}

DEFCMD(no_match_community, "no match community [WORD [exact-match]]",
       NO_STR MATCH_STR "Match BGP community list\n"
			"Community-list name\n"
			"Do exact matching of communities\n")
{
	return match_clist_edit(vty, args, "community", true);
}

DEFCMD(match_lcommunity, "match large-community WORD [exact-match]",
       MATCH_STR "Match BGP large community list\n"
		 "Large Community-list name\n"
		 "Do exact matching of communities\n")
{
	return match_clist_edit(vty, args, "large-community", false);
}

DEFCMD(no_match_lcommunity, "no match large-community [WORD [exact-match]]",
       NO_STR MATCH_STR "Match BGP large community list\n"
			"Large Community-list name\n"
			"Do exact matching of communities\n")
{
	return match_clist_edit(vty, args, "large-community", true);
}

/* FRR's words (bgpd/bgp_rpki.c); `no match rpki` takes any state, as FRR's does. */
#define RPKI_MATCH_HELP                         \
	MATCH_STR "Match RPKI covered prefix\n" \
		  "Valid prefix\n"              \
		  "Invalid prefix\n"            \
		  "Prefix not found\n"
#define ASPA_MATCH_HELP                                          \
	MATCH_STR "Match the ASPA verification of the AS path\n" \
		  "Verified: every hop authorised\n"             \
		  "A hop proven unauthorised\n"                  \
		  "Neither: a hop without an ASPA record\n"

DEFCMD(match_rpki, "match rpki <valid|invalid|notfound>$state", RPKI_MATCH_HELP)
{
	return stmt_edit(vty, "match/rpki", cmd_arg(args, "state"), false);
}

DEFCMD(no_match_rpki, "no match rpki [<valid|invalid|notfound>]", NO_STR RPKI_MATCH_HELP)
{
	return stmt_edit(vty, "match/rpki", NULL, true);
}

DEFCMD(match_aspa, "match aspa <valid|invalid|unknown>$state", ASPA_MATCH_HELP)
{
	return stmt_edit(vty, "match/aspa", cmd_arg(args, "state"), false);
}

DEFCMD(no_match_aspa, "no match aspa [<valid|invalid|unknown>]", NO_STR ASPA_MATCH_HELP)
{
	return stmt_edit(vty, "match/aspa", NULL, true);
}

/* FRR keeps a set community value as a set, and prints it so: sorted, without repeats, each
 * value by its well-known name when it has one ("65535:666" is "blackhole"). The model keeps
 * the same text, so that skua's printout is FRR's and the round trip holds. A value with a word
 * that does not parse is left as written, for VALIDATE to name the word. */
static void community_canonical(char *text, size_t size)
{
	char *copy, *save = NULL, buf[32];
	uint32_t *v, n = 0, words = 1;
	struct sbuf out;

	if (strcmp(text, "none") == 0)
		return;
	for (const char *p = text; *p; p++)
		words += *p == ' ';
	copy = XSTRDUP(MTYPE_BGP_ROUTEMAP, text);
	v = XCALLOC(MTYPE_BGP_ROUTEMAP, (size_t)words * sizeof(*v));
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (bgp_community_from_str(w, &v[n]) < 0) {
			n = 0;
			break;
		}
		n++;
	}
	if (n) {
		n = bgp_comm_sort_uniq(v, n);
		sbuf_init(&out);
		for (uint32_t i = 0; i < n; i++)
			sbuf_printf(&out, "%s%s", i ? " " : "",
				    bgp_community_str(v[i], buf, sizeof(buf)));
		if (out.len < size)
			memcpy(text, out.buf, out.len + 1);
		sbuf_free(&out);
	}
	XFREE(MTYPE_BGP_ROUTEMAP, v);
	XFREE(MTYPE_BGP_ROUTEMAP, copy);
}

/* set community|large-community VALUES... [additive] | ... none: "additive" is the last word.
 * leaf: "community", "large-community". */
static int set_values_edit(struct vty *vty, const struct cmd_args *args, const char *leaf, bool no)
{
	char text[1100], xp[XPATH_MAX + 64], add[XPATH_MAX + 80];
	size_t len;
	bool additive = false;

	snprintf(xp, sizeof(xp), "%s/set/%s", vty->xpath[vty->xpath_index - 1], leaf);
	snprintf(add, sizeof(add), "%s-additive", xp);
	nb_cli_enqueue_change(vty, add, NB_OP_DESTROY, NULL);
	if (no) {
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	snprintf(text, sizeof(text), "%s", cmd_arg(args, "LINE..."));
	len = strlen(text);
	if (len > 9 && strcmp(text + len - 9, " additive") == 0) {
		text[len - 9] = '\0';
		additive = true;
	}
	if (strcmp(leaf, "community") == 0)
		community_canonical(text, sizeof(text));
	nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, text);
	if (additive)
		nb_cli_enqueue_change(vty, add, NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(set_community, "set community LINE...",
       SET_STR "BGP community attribute\n"
	       "Communities (AA:NN, well-known names) [additive], or none\n")
{
	return set_values_edit(vty, args, "community", false);
}

DEFCMD(no_set_community, "no set community [LINE...]",
       NO_STR SET_STR "BGP community attribute\n"
		      "Communities\n")
{
	return set_values_edit(vty, args, "community", true);
}

DEFCMD(set_lcommunity, "set large-community LINE...",
       SET_STR "BGP large community attribute\n"
	       "Large communities (GLOBAL:LOCAL1:LOCAL2) [additive], or none\n")
{
	return set_values_edit(vty, args, "large-community", false);
}

DEFCMD(no_set_lcommunity, "no set large-community [LINE...]",
       NO_STR SET_STR "BGP large community attribute\n"
		      "Large communities\n")
{
	return set_values_edit(vty, args, "large-community", true);
}

DEFCMD(set_comm_list_delete, "set comm-list WORD delete",
       SET_STR "set BGP community list (for deletion)\n"
	       "Community-list name\n"
	       "Delete matching communities\n")
{
	return name_usable(vty, word(args))
		       ? stmt_edit(vty, "set/comm-list-delete", word(args), false)
		       : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_set_comm_list_delete, "no set comm-list [WORD delete]",
       NO_STR SET_STR "set BGP community list (for deletion)\n"
		      "Community-list name\n"
		      "Delete matching communities\n")
{
	return stmt_edit(vty, "set/comm-list-delete", NULL, true);
}

DEFCMD(set_lcomm_list_delete, "set large-comm-list WORD delete",
       SET_STR "set BGP large community list (for deletion)\n"
	       "Large Community-list name\n"
	       "Delete matching large communities\n")
{
	return name_usable(vty, word(args))
		       ? stmt_edit(vty, "set/large-comm-list-delete", word(args), false)
		       : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_set_lcomm_list_delete, "no set large-comm-list [WORD delete]",
       NO_STR SET_STR "set BGP large community list (for deletion)\n"
		      "Large Community-list name\n"
		      "Delete matching large communities\n")
{
	return stmt_edit(vty, "set/large-comm-list-delete", NULL, true);
}

DEFCMD(set_local_pref, "set local-preference WORD",
       SET_STR "BGP local preference path attribute\n"
	       "Preference value (0-4294967295), or +N / -N to add or subtract\n")
{
	return stmt_edit(vty, "set/local-preference", word(args), false);
}

DEFCMD(no_set_local_pref, "no set local-preference [WORD]",
       NO_STR SET_STR "BGP local preference path attribute\n"
		      "Preference value\n")
{
	return stmt_edit(vty, "set/local-preference", NULL, true);
}

DEFCMD(set_metric, "set metric WORD",
       SET_STR "Metric value for destination routing protocol\n"
	       "Metric value (0-4294967295), or +N / -N to add or subtract\n")
{
	return stmt_edit(vty, "set/metric", word(args), false);
}

DEFCMD(no_set_metric, "no set metric [WORD]",
       NO_STR SET_STR "Metric value for destination routing protocol\n"
		      "Metric value\n")
{
	return stmt_edit(vty, "set/metric", NULL, true);
}

DEFCMD(set_weight, "set weight (0-4294967295)$weight",
       SET_STR "BGP weight for routing table\n"
	       "Weight value\n")
{
	return stmt_edit(vty, "set/weight", cmd_arg(args, "weight"), false);
}

DEFCMD(no_set_weight, "no set weight [(0-4294967295)]",
       NO_STR SET_STR "BGP weight for routing table\n"
		      "Weight value\n")
{
	return stmt_edit(vty, "set/weight", NULL, true);
}

DEFCMD(set_origin, "set origin <egp|igp|incomplete>$origin",
       SET_STR "BGP origin code\n"
	       "remote EGP\n"
	       "local IGP\n"
	       "unknown heritage\n")
{
	return stmt_edit(vty, "set/origin", cmd_arg(args, "origin"), false);
}

DEFCMD(no_set_origin, "no set origin [<egp|igp|incomplete>]",
       NO_STR SET_STR "BGP origin code\n"
		      "remote EGP\n"
		      "local IGP\n"
		      "unknown heritage\n")
{
	return stmt_edit(vty, "set/origin", NULL, true);
}

DEFCMD(set_prepend, "set as-path prepend LINE...",
       SET_STR "Transform BGP AS-path attribute\n"
	       "Prepend to the as-path\n"
	       "AS number(s)\n")
{
	return stmt_edit(vty, "set/as-path-prepend", cmd_arg(args, "LINE..."), false);
}

DEFCMD(no_set_prepend, "no set as-path prepend [LINE...]",
       NO_STR SET_STR "Transform BGP AS-path attribute\n"
		      "Prepend to the as-path\n"
		      "AS number(s)\n")
{
	return stmt_edit(vty, "set/as-path-prepend", NULL, true);
}

/* FRR takes (1-4294967295) for each AS number of set as-path exclude; the model's pattern
 * cannot say the upper bound. */
static bool asns_in_range(struct vty *vty, const char *stmt, const char *line)
{
	for (const char *p = line; *p;) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || (*end && *end != ' ') || v < 1 || v > UINT32_MAX || *p == '-' ||
		    *p == '+') {
			size_t len = strcspn(p, " ");

			vty_out(vty, "%% %s: %.*s is not an AS number (1-4294967295)\n", stmt,
				(int)len, p);
			return false;
		}
		p = *end ? end + 1 : end;
	}
	return true;
}

DEFCMD(set_exclude, "set as-path exclude LINE...",
       SET_STR "Transform BGP AS-path attribute\n"
	       "Exclude from the as-path\n"
	       "AS number(s)\n")
{
	const char *line = cmd_arg(args, "LINE...");

	if (!asns_in_range(vty, "set as-path exclude", line))
		return CMD_WARNING_CONFIG_FAILED;
	return stmt_edit(vty, "set/as-path-exclude", line, false);
}

DEFCMD(no_set_exclude, "no set as-path exclude [LINE...]",
       NO_STR SET_STR "Transform BGP AS-path attribute\n"
		      "Exclude from the as-path\n"
		      "AS number(s)\n")
{
	return stmt_edit(vty, "set/as-path-exclude", NULL, true);
}

DEFCMD(set_nexthop, "set ip next-hop A.B.C.D$nh",
       SET_STR IP_STR "Next hop address\n"
		      "IP address of next hop\n")
{
	return stmt_edit(vty, "set/ip-next-hop", cmd_arg(args, "nh"), false);
}

DEFCMD(no_set_nexthop, "no set ip next-hop [A.B.C.D]",
       NO_STR SET_STR IP_STR "Next hop address\n"
			     "IP address of next hop\n")
{
	return stmt_edit(vty, "set/ip-next-hop", NULL, true);
}

DEFCMD(set_nexthop6, "set ipv6 next-hop global X:X::X:X$nh",
       SET_STR IPV6_STR "IPv6 next-hop address\n"
			"IPv6 global address\n"
			"IPv6 address of next hop\n")
{
	return stmt_edit(vty, "set/ipv6-next-hop-global", cmd_arg(args, "nh"), false);
}

DEFCMD(no_set_nexthop6, "no set ipv6 next-hop global [X:X::X:X]",
       NO_STR SET_STR IPV6_STR "IPv6 next-hop address\n"
			       "IPv6 global address\n"
			       "IPv6 address of next hop\n")
{
	return stmt_edit(vty, "set/ipv6-next-hop-global", NULL, true);
}

DEFCMD(rmap_call, "call WORD",
       "Jump to another Route-Map after match+set\n"
       "Target route-map name\n")
{
	return name_usable(vty, word(args)) ? stmt_edit(vty, "call", word(args), false)
					    : CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(no_rmap_call, "no call [WORD]",
       NO_STR "Jump to another Route-Map after match+set\n"
	      "Target route-map name\n")
{
	return stmt_edit(vty, "call", NULL, true);
}

DEFCMD(rmap_on_match_next, "on-match next",
       "Exit policy on matches\n"
       "Next clause\n")
{
	return stmt_edit(vty, "on-match-next", NULL, false);
}

DEFCMD(rmap_on_match_goto, "on-match goto (1-65535)$seq",
       "Exit policy on matches\n"
       "Goto Clause number\n"
       "Number\n")
{
	return stmt_edit(vty, "on-match-goto", cmd_arg(args, "seq"), false);
}

DEFCMD(no_rmap_on_match, "no on-match <next|goto [(1-65535)]>",
       NO_STR "Exit policy on matches\n"
	      "Next clause\n"
	      "Goto Clause number\n"
	      "Number\n")
{
	return stmt_edit(vty, cmd_has(args, "next") ? "on-match-next" : "on-match-goto", NULL,
			 true);
}

DEFCMD(rmap_description, "description LINE...",
       "Route-map comment\n"
       "Comment describing this route-map rule\n")
{
	return stmt_edit(vty, "description", cmd_arg(args, "LINE..."), false);
}

DEFCMD(no_rmap_description, "no description [LINE...]",
       NO_STR "Route-map comment\n"
	      "Comment describing this route-map rule\n")
{
	return stmt_edit(vty, "description", NULL, true);
}

void bgp_routemap_cli_init(void)
{
	static const struct cmd_def *rmap_cmds[] = {
		&match_ip_plist_cmd,
		&no_match_ip_plist_cmd,
		&match_ip_nh_plist_cmd,
		&no_match_ip_nh_plist_cmd,
		&match_ipv6_plist_cmd,
		&no_match_ipv6_plist_cmd,
		&match_ipv6_nh_cmd,
		&match_ipv6_nh_old_cmd,
		&no_match_ipv6_nh_cmd,
		&no_match_ipv6_nh_old_cmd,
		&match_as_path_cmd,
		&no_match_as_path_cmd,
		&match_metric_cmd,
		&no_match_metric_cmd,
		&set_local_pref_cmd,
		&no_set_local_pref_cmd,
		&set_metric_cmd,
		&no_set_metric_cmd,
		&set_weight_cmd,
		&no_set_weight_cmd,
		&set_origin_cmd,
		&no_set_origin_cmd,
		&set_prepend_cmd,
		&no_set_prepend_cmd,
		&set_exclude_cmd,
		&no_set_exclude_cmd,
		&set_nexthop_cmd,
		&no_set_nexthop_cmd,
		&set_nexthop6_cmd,
		&no_set_nexthop6_cmd,
		&rmap_call_cmd,
		&no_rmap_call_cmd,
		&rmap_on_match_next_cmd,
		&rmap_on_match_goto_cmd,
		&no_rmap_on_match_cmd,
		&rmap_description_cmd,
		&no_rmap_description_cmd,
		&match_community_cmd,
		&no_match_community_cmd,
		&set_community_cmd,
		&no_set_community_cmd,
		&match_lcommunity_cmd,
		&no_match_lcommunity_cmd,
		&set_lcommunity_cmd,
		&no_set_lcommunity_cmd,
		&set_comm_list_delete_cmd,
		&no_set_comm_list_delete_cmd,
		&set_lcomm_list_delete_cmd,
		&no_set_lcomm_list_delete_cmd,
		&match_rpki_cmd,
		&no_match_rpki_cmd,
		&match_aspa_cmd,
		&no_match_aspa_cmd,
	};

	nb_module_register(&rmap_nb_module);
	cmd_install(CONFIG_NODE, &route_map_cmd);
	cmd_install(CONFIG_NODE, &no_route_map_cmd);
	for (size_t i = 0; i < array_size(rmap_cmds); i++)
		cmd_install(RMAP_NODE, rmap_cmds[i]);
	bgp_routemap_ecomm_cli_init();
	bgp_routemap_peer_tag_cli_init();
}
