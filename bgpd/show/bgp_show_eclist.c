/* SPDX-License-Identifier: ISC */
/*
 * `show bgp extcommunity-list [NAME detail]` in FRR 8.4's layout, and the lines of a
 * route-map entry's extended community clauses in `show route-map` (bgp_show_policy.c).
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/vty.h"

/* FRR 8.4 wants `detail` after a name; skua takes the name alone too. */
DEFCMD(show_bgp_ecommunity_list, "show bgp extcommunity-list [WORD$name [detail]]",
       SHOW_STR BGP_STR "List extended-community list\n"
			"Extcommunity-list name\n"
			"Detailed information on extcommunity-list\n")
{
	struct bgp_show_clist_ctx c = { .vty = vty, .kind = BGP_SHOW_CLIST_EXT };
	const char *name = cmd_arg(args, "name");

	if (name && !ecommunity_list_lookup(name)) {
		vty_out(vty, "%% Can't find extcommunity-list\n");
		return CMD_WARNING;
	}
	ecommunity_list_walk(name, bgp_show_clist_entry, &c);
	return CMD_SUCCESS;
}

void bgp_show_eclist_match(struct vty *vty, const struct rmap_entry *e)
{
	if (e->match_eclist)
		vty_out(vty, "    extcommunity %s\n", e->match_eclist);
}

void bgp_show_eclist_set(struct vty *vty, const struct rmap_entry *e)
{
	static const char *const forms[] = {
		[RMAP_LB_CUMULATIVE] = "cumulative", [RMAP_LB_NUM_MPATH] = "num-multipaths"
	};

	if (e->lb == RMAP_LB_VALUE)
		vty_out(vty, "    extcommunity bandwidth %u%s\n", e->lb_mbps,
			e->lb_non_transitive ? " non-transitive" : "");
	else if (e->lb != RMAP_LB_NONE)
		vty_out(vty, "    extcommunity bandwidth %s%s\n", forms[e->lb],
			e->lb_non_transitive ? " non-transitive" : "");
	if (e->ecomm_none)
		vty_out(vty, "    extcommunity none\n");
	/* The values as typed, as FRR shows them. */
	if (e->ecomm_rt_text)
		vty_out(vty, "    extcommunity rt %s\n", e->ecomm_rt_text);
	if (e->ecomm_soo_text)
		vty_out(vty, "    extcommunity soo %s\n", e->ecomm_soo_text);
}

void bgp_show_eclist_init(void)
{
	cmd_install(VIEW_NODE, &show_bgp_ecommunity_list_cmd);
}
