/* SPDX-License-Identifier: ISC */
/*
 * `debug bgp neighbor-events|updates [in|out]|keepalives`, `debug rpki`, their `no` forms, and
 * `show debugging bgp`. The flags live in lib/log.h's debug_flags (bits in bgpd/core/bgp_log.h,
 * and bgpd/rtr/rtr.h for rpki); messages still need a log target at level debugging to be seen.
 * FRR 8.4 has `debug rpki` but does not list it in `show debugging`; we do, in the words of
 * later FRR releases.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/core/bgp_log.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/vty.h"

#define DEBUG_STR "Debugging functions\n"
#define NEIGHBOR_EVENTS_STR "BGP Neighbor Events\n"
#define UPDATES_STR "BGP updates\n"
#define IN_STR "Inbound updates\n"
#define OUT_STR "Outbound updates\n"
#define KEEPALIVES_STR "BGP keepalives\n"
#define RPKI_DEBUG_STR "RPKI-to-Router client: every PDU received and sent\n"

static uint64_t updates_flags(const struct cmd_args *args)
{
	if (cmd_has(args, "in"))
		return BGP_DEBUG_UPDATES_IN;
	if (cmd_has(args, "out"))
		return BGP_DEBUG_UPDATES_OUT;
	return BGP_DEBUG_UPDATES;
}

DEFCMD(debug_bgp_neighbor_events, "debug bgp neighbor-events",
       DEBUG_STR BGP_STR NEIGHBOR_EVENTS_STR)
{
	debug_flags |= BGP_DEBUG_NEIGHBOR_EVENTS;
	return CMD_SUCCESS;
}

DEFCMD(no_debug_bgp_neighbor_events, "no debug bgp neighbor-events",
       NO_STR DEBUG_STR BGP_STR NEIGHBOR_EVENTS_STR)
{
	debug_flags &= ~BGP_DEBUG_NEIGHBOR_EVENTS;
	return CMD_SUCCESS;
}

DEFCMD(debug_bgp_updates, "debug bgp updates [<in|out>]",
       DEBUG_STR BGP_STR UPDATES_STR IN_STR OUT_STR)
{
	debug_flags |= updates_flags(args);
	return CMD_SUCCESS;
}

DEFCMD(no_debug_bgp_updates, "no debug bgp updates [<in|out>]",
       NO_STR DEBUG_STR BGP_STR UPDATES_STR IN_STR OUT_STR)
{
	debug_flags &= ~updates_flags(args);
	return CMD_SUCCESS;
}

DEFCMD(debug_bgp_keepalives, "debug bgp keepalives", DEBUG_STR BGP_STR KEEPALIVES_STR)
{
	debug_flags |= BGP_DEBUG_KEEPALIVES;
	return CMD_SUCCESS;
}

DEFCMD(no_debug_bgp_keepalives, "no debug bgp keepalives", NO_STR DEBUG_STR BGP_STR KEEPALIVES_STR)
{
	debug_flags &= ~BGP_DEBUG_KEEPALIVES;
	return CMD_SUCCESS;
}

DEFCMD(debug_rpki, "debug rpki", DEBUG_STR RPKI_DEBUG_STR)
{
	debug_flags |= RTR_DEBUG;
	return CMD_SUCCESS;
}

DEFCMD(no_debug_rpki, "no debug rpki", NO_STR DEBUG_STR RPKI_DEBUG_STR)
{
	debug_flags &= ~RTR_DEBUG;
	return CMD_SUCCESS;
}

DEFCMD(show_debugging_bgp, "show debugging [bgp]",
       "Show running system information\n" DEBUG_STR BGP_STR)
{
	uint64_t upd = debug_flags & BGP_DEBUG_UPDATES;

	vty_out(vty, "BGP debugging status:\n");
	if (DEBUG_ON(BGP_DEBUG_NEIGHBOR_EVENTS))
		vty_out(vty, "  BGP neighbor-events debugging is on\n");
	if (upd == BGP_DEBUG_UPDATES)
		vty_out(vty, "  BGP updates debugging is on\n");
	else if (upd == BGP_DEBUG_UPDATES_IN)
		vty_out(vty, "  BGP updates debugging is on (inbound)\n");
	else if (upd == BGP_DEBUG_UPDATES_OUT)
		vty_out(vty, "  BGP updates debugging is on (outbound)\n");
	if (DEBUG_ON(BGP_DEBUG_KEEPALIVES))
		vty_out(vty, "  BGP keepalives debugging is on\n");
	if (DEBUG_ON(RTR_DEBUG))
		vty_out(vty, "  BGP RPKI debugging is on\n");
	return CMD_SUCCESS;
}

void bgp_debug_init(void)
{
	static const struct cmd_def *const cmds[] = {
		&debug_bgp_neighbor_events_cmd,
		&no_debug_bgp_neighbor_events_cmd,
		&debug_bgp_updates_cmd,
		&no_debug_bgp_updates_cmd,
		&debug_bgp_keepalives_cmd,
		&no_debug_bgp_keepalives_cmd,
		&debug_rpki_cmd,
		&no_debug_rpki_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++) {
		cmd_install(ENABLE_NODE, cmds[i]);
		cmd_install(CONFIG_NODE, cmds[i]);
	}
	cmd_install(VIEW_NODE, &show_debugging_bgp_cmd);
}
