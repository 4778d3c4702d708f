/* SPDX-License-Identifier: ISC */
/*
 * Long-lived graceful restart (RFC 9494), FRR 8.4's command: the command, its northbound
 * callbacks and its running-config printer.
 *
 *   router bgp ASN
 *    bgp long-lived-graceful-restart stale-time (1-4294967295)     absent: 0, no LLGR
 *    no bgp long-lived-graceful-restart stale-time [(1-4294967295)]
 *
 * As FRR, the range is a 32-bit one although the capability carries 24 bits (the session
 * side sends at most 16777215), and a change applies to the next OPEN and the next session
 * loss (FRR 8.4 resets nothing either).
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define LLGR_XPATH BGP_XPATH "/long-lived-graceful-restart/stale-time"
#define LLGR_STR "Long-lived Graceful Restart capability parameters\n"
#define STALE_STR "Specifies maximum time to wait before purging long-lived stale routes\n"

/* ---- northbound ---- */

static int llgr_stale_time_set(struct nb_cb_args *args, uint32_t t)
{
	struct bgp *bgp;

	if (args->event != NB_EV_APPLY || !(bgp = bgp_get()))
		return NB_OK;
	bgp->llgr_stale_time = t;
	return NB_OK;
}

static int llgr_stale_time_modify(struct nb_cb_args *args)
{
	return llgr_stale_time_set(args, (uint32_t)strtoul(lyd_get_value(args->dnode), NULL, 10));
}

static int llgr_stale_time_destroy(struct nb_cb_args *args)
{
	return llgr_stale_time_set(args, 0);
}

static void llgr_print(struct sbuf *out, const struct lyd_node *d)
{
	sbuf_printf(out, " bgp long-lived-graceful-restart stale-time %s\n", lyd_get_value(d));
}

static const struct nb_node_info llgr_nodes[] = {
	{
		.xpath = LLGR_XPATH,
		.cbs = { .modify = llgr_stale_time_modify,
			 .destroy = llgr_stale_time_destroy,
			 .cli_show = llgr_print },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info llgr_module = {
	.name = "skua-bgp",
	.nodes = llgr_nodes,
};

/* ---- commands ---- */

DEFCMD(bgp_llgr_stale_time, "bgp long-lived-graceful-restart stale-time (1-4294967295)$t",
       BGP_STR LLGR_STR STALE_STR "Stale time value (seconds)\n")
{
	nb_cli_enqueue_change(vty, "./long-lived-graceful-restart/stale-time", NB_OP_MODIFY,
			      cmd_arg(args, "t"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_llgr_stale_time, "no bgp long-lived-graceful-restart stale-time [(1-4294967295)]",
       NO_STR BGP_STR LLGR_STR STALE_STR "Stale time value (seconds)\n")
{
	nb_cli_enqueue_change(vty, "./long-lived-graceful-restart/stale-time", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void bgp_llgr_cli_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&bgp_llgr_stale_time_cmd,
		&no_bgp_llgr_stale_time_cmd,
	};

	nb_module_register(&llgr_module);
	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
}
