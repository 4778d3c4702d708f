/* SPDX-License-Identifier: ISC */
/*
 * A route-map entry's extended community statements, FRR 8.4's syntax:
 *
 *   match extcommunity <(1-99)|(100-500)|NAME>
 *   set extcommunity bandwidth (1-25600) [non-transitive]
 *   set extcommunity none
 *   set extcommunity rt ASN:NN|A.B.C.D:NN...
 *   set extcommunity soo ASN:NN|A.B.C.D:NN...
 *
 * and their no forms. FRR keeps the rt and soo values as typed and prints them so; it applies
 * them sorted without repeats (ecommunity_str2com()), which is what the entry gets here. FRR
 * 8.4 has no `set extcomm-list NAME delete` (it refuses the line), and its bandwidth
 * `cumulative` and `num-multipaths` forms are not supported by skua yet.
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_routemap_ecomm.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"

#define RMAP_SET_XPATH POLICY_XPATH "/route-map/entry/set"

/* The values of a set extcommunity rt|soo text (VALIDATE checked every word), sorted without
 * repeats; *out is to free. */
static uint32_t values_parse(const char *s, uint8_t subtype, uint32_t **out)
{
	char *copy = XSTRDUP(MTYPE_BGP_ROUTEMAP, s), *save = NULL;
	uint32_t n = 1, k = 0, *v;

	for (const char *p = s; *p; p++)
		n += *p == ' ';
	v = XCALLOC(MTYPE_BGP_ROUTEMAP, (size_t)n * 2 * sizeof(*v));
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (bgp_ecomm_from_str(w, subtype, &v[2 * k]) == 0)
			k++;
	XFREE(MTYPE_BGP_ROUTEMAP, copy);
	*out = v;
	return bgp_ecomm_sort_uniq(v, k);
}

void rmap_ecomm_from_dnode(struct rmap_entry *e, const struct lyd_node *dnode)
{
	const char *rt = yang_dnode_get_string(dnode, "set/extcommunity-rt");
	const char *soo = yang_dnode_get_string(dnode, "set/extcommunity-soo");
	const char *name = yang_dnode_get_string(dnode, "match/extcommunity");

	e->match_eclist = name ? XSTRDUP(MTYPE_BGP_ROUTEMAP, name) : NULL;
	if (rt)
		e->necomm_rt = values_parse(rt, BGP_ECOMM_SUB_RT, &e->ecomm_rt);
	if (soo)
		e->necomm_soo = values_parse(soo, BGP_ECOMM_SUB_SOO, &e->ecomm_soo);
	e->ecomm_none = yang_dnode_exists(dnode, "set/extcommunity-none");
	e->lb_mbps = (uint32_t)yang_dnode_get_uint(dnode, 0, "set/extcommunity-bandwidth");
	e->lb_non_transitive =
		yang_dnode_exists(dnode, "set/extcommunity-bandwidth-non-transitive");
}

void rmap_ecomm_show_match(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *v = yang_dnode_get_string(dnode, "match/extcommunity");

	if (v)
		sbuf_printf(out, " match extcommunity %s\n", v);
}

void rmap_ecomm_show_set(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *v;

	if ((v = yang_dnode_get_string(dnode, "set/extcommunity-bandwidth")))
		sbuf_printf(out, " set extcommunity bandwidth %s%s\n", v,
			    yang_dnode_exists(dnode, "set/extcommunity-bandwidth-non-transitive")
				    ? " non-transitive"
				    : "");
	if (yang_dnode_exists(dnode, "set/extcommunity-none"))
		sbuf_puts(out, " set extcommunity none\n");
	if ((v = yang_dnode_get_string(dnode, "set/extcommunity-rt")))
		sbuf_printf(out, " set extcommunity rt %s\n", v);
	if ((v = yang_dnode_get_string(dnode, "set/extcommunity-soo")))
		sbuf_printf(out, " set extcommunity soo %s\n", v);
}

/* VALIDATE of set extcommunity rt|soo: every word a value. */
static int values_modify(struct nb_cb_args *args, const char *kind)
{
	const char *s = lyd_get_value(args->dnode);
	char *copy, *save = NULL;
	int ret = NB_OK;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	copy = XSTRDUP(MTYPE_BGP_ROUTEMAP, s);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint32_t v[2];

		if (bgp_ecomm_from_str(w, BGP_ECOMM_SUB_RT, v) < 0) {
			snprintf(args->errmsg, args->errmsg_len,
				 "Malformed extcommunity %s value: %s (ASN:NN, NN up to "
				 "4294967295 for an AS up to 65535 and up to 65535 above; or "
				 "A.B.C.D:NN, NN up to 65535)",
				 kind, w);
			ret = NB_ERR;
			break;
		}
	}
	XFREE(MTYPE_BGP_ROUTEMAP, copy);
	return ret;
}

static int set_rt_modify(struct nb_cb_args *args)
{
	return values_modify(args, "rt");
}

static int set_soo_modify(struct nb_cb_args *args)
{
	return values_modify(args, "soo");
}

static const struct nb_node_info ecomm_nb_nodes[] = {
	{
		.xpath = RMAP_SET_XPATH "/extcommunity-rt",
		.cbs = { .modify = set_rt_modify },
	},
	{
		.xpath = RMAP_SET_XPATH "/extcommunity-soo",
		.cbs = { .modify = set_soo_modify },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info ecomm_nb_module = {
	.name = "skua-policy",
	.nodes = ecomm_nb_nodes,
};

/* ---- commands ---------------------------------------------------------------------------- */

#define MATCH_STR "Match values from routing table\n"
#define SET_STR "Set values in destination routing protocol\n"
#define MATCH_ECL_HELP                                          \
	MATCH_STR "Match BGP/VPN extended community list\n"     \
		  "Extended community-list number (standard)\n" \
		  "Extended community-list number (expanded)\n" \
		  "Extended community-list name\n"

DEFCMD(match_ecommunity, "match extcommunity <(1-99)|(100-500)|WORD>$name", MATCH_ECL_HELP)
{
	const char *name = cmd_arg(args, "name");

	if (strchr(name, '\'')) {
		vty_out(vty, "%% An extended community list name cannot contain a quote (')\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	return rmap_stmt_edit(vty, "match/extcommunity", name, false);
}

DEFCMD(no_match_ecommunity, "no match extcommunity [<(1-99)|(100-500)|WORD>]",
       NO_STR MATCH_ECL_HELP)
{
	return rmap_stmt_edit(vty, "match/extcommunity", NULL, true);
}

#define SET_ECOMM_STR SET_STR "BGP extended community attribute\n"

DEFCMD(set_ecommunity_rt, "set extcommunity rt LINE...",
       SET_ECOMM_STR "Route Target extended community\n"
		     "VPN extended community (ASN:NN or A.B.C.D:NN)\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-rt", cmd_arg(args, "LINE..."), false);
}

DEFCMD(no_set_ecommunity_rt, "no set extcommunity rt [LINE...]",
       NO_STR SET_ECOMM_STR "Route Target extended community\n"
			    "VPN extended community (ASN:NN or A.B.C.D:NN)\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-rt", NULL, true);
}

DEFCMD(set_ecommunity_soo, "set extcommunity soo LINE...",
       SET_ECOMM_STR "Site-of-Origin extended community\n"
		     "VPN extended community (ASN:NN or A.B.C.D:NN)\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-soo", cmd_arg(args, "LINE..."), false);
}

DEFCMD(no_set_ecommunity_soo, "no set extcommunity soo [LINE...]",
       NO_STR SET_ECOMM_STR "Site-of-Origin extended community\n"
			    "VPN extended community (ASN:NN or A.B.C.D:NN)\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-soo", NULL, true);
}

DEFCMD(set_ecommunity_none, "set extcommunity none",
       SET_ECOMM_STR "No extended community attribute\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-none", NULL, false);
}

DEFCMD(no_set_ecommunity_none, "no set extcommunity none",
       NO_STR SET_ECOMM_STR "No extended community attribute\n")
{
	return rmap_stmt_edit(vty, "set/extcommunity-none", NULL, true);
}

#define LB_HELP                               \
	"Link bandwidth extended community\n" \
	"Bandwidth value in Mbps\n"

/* The value and its flag are one statement, set or removed in one commit. */
static int lb_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	char xp[512], nt[560];

	snprintf(xp, sizeof(xp), "%s/set/extcommunity-bandwidth", vty->xpath[vty->xpath_index - 1]);
	snprintf(nt, sizeof(nt), "%s-non-transitive", xp);
	nb_cli_enqueue_change(vty, nt,
			      !no && cmd_has(args, "non-transitive") ? NB_OP_CREATE : NB_OP_DESTROY,
			      NULL);
	nb_cli_enqueue_change(vty, xp, no ? NB_OP_DESTROY : NB_OP_MODIFY,
			      no ? NULL : cmd_arg(args, "bw"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(set_ecommunity_lb, "set extcommunity bandwidth (1-25600)$bw [non-transitive]",
       SET_ECOMM_STR LB_HELP "Attribute is set as non-transitive\n")
{
	return lb_edit(vty, args, false);
}

DEFCMD(no_set_ecommunity_lb, "no set extcommunity bandwidth [(1-25600) [non-transitive]]",
       NO_STR SET_ECOMM_STR LB_HELP "Attribute is set as non-transitive\n")
{
	return lb_edit(vty, args, true);
}

void bgp_routemap_ecomm_cli_init(void)
{
	static const struct cmd_def *cmds[] = {
		&match_ecommunity_cmd,	   &no_match_ecommunity_cmd,	&set_ecommunity_rt_cmd,
		&no_set_ecommunity_rt_cmd, &set_ecommunity_soo_cmd,	&no_set_ecommunity_soo_cmd,
		&set_ecommunity_none_cmd,  &no_set_ecommunity_none_cmd, &set_ecommunity_lb_cmd,
		&no_set_ecommunity_lb_cmd,
	};

	nb_module_register(&ecomm_nb_module);
	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(RMAP_NODE, cmds[i]);
}
