/* SPDX-License-Identifier: ISC */
/*
 * RFC 8326 graceful shutdown (FRR's command): the command, its northbound callback and its
 * running-config line.
 *
 *   router bgp ASN
 *    bgp graceful-shutdown     mark everything sent with GRACEFUL_SHUTDOWN (and LOCAL_PREF 0
 *                              towards iBGP) and re-send every table; `no` re-sends them plain
 *
 * FRR prints it right after `bgp cluster-id`; the model keeps that order.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_gshut.h"
#include "lib/command.h"
#include "lib/log.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

int bgp_nb_graceful_shutdown_modify(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	bool on;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	on = strcmp(lyd_get_value(args->dnode), "true") == 0;
	if (bgp->graceful_shutdown == on)
		return NB_OK;
	bgp->graceful_shutdown = on;
	log_notice("graceful shutdown (RFC 8326) %s: every neighbor's routes are sent again%s",
		   on ? "on" : "off",
		   on ? " with the GRACEFUL_SHUTDOWN community (LOCAL_PREF 0 towards iBGP)" : "");
	bgp_graceful_shutdown_changed(bgp);
	return NB_OK;
}

void bgp_print_graceful_shutdown(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "true") == 0)
		sbuf_puts(out, " bgp graceful-shutdown\n");
}

DEFCMD(bgp_graceful_shutdown, "[no] bgp graceful-shutdown",
       NO_STR BGP_STR "Graceful shutdown parameters\n")
{
	nb_cli_enqueue_change(vty, "./graceful-shutdown", NB_OP_MODIFY,
			      cmd_has(args, "no") ? "false" : "true");
	return nb_cli_apply_changes(vty, NULL);
}

void bgp_gshut_cli_init(void)
{
	cmd_install(BGP_NODE, &bgp_graceful_shutdown_cmd);
}
