/* SPDX-License-Identifier: ISC */
/*
 * `clear bgp`: resetting sessions by hand, with FRR's syntax and messages.
 *
 *   clear [ip] bgp <*|A.B.C.D|X:X::X:X> [soft [<in|out>]|in|out]
 *   clear bgp <ipv4|ipv6> [unicast] <*|A.B.C.D|X:X::X:X> [soft [<in|out>]|in|out]
 *
 * Without `soft`, `in` or `out` the session is reset: NOTIFICATION Cease / Administrative Reset
 * (RFC 4486 4) if a connection is up, then a new start at once (no IdleHoldTimer back-off: the
 * operator asked for it now). "Last reset" then says "User reset". A peer that may not run
 * (shut down, no router-id) is only stopped. As in FRR, a hard reset is of the whole session
 * whatever family the command names; the family only narrows the soft variants (`clear ip bgp`
 * meaning IPv4 unicast).
 *
 * The soft variants keep the session. `in`, for each negotiated family or the one given, runs
 * the routes kept as received through the inbound policy again when the RIB keeps them
 * (soft-reconfiguration inbound, or an inbound route-map that matches rpki or aspa: skua keeps
 * them then without the command, doc/policy.md), and otherwise sends a ROUTE-REFRESH (RFC
 * 2918); a family with neither is refused with FRR's message (the others are done). `out` has the
 * RIB send the peer's Adj-RIB-Out again, as on a ROUTE-REFRESH received from it. `soft` alone does
 * both. Sessions that are not Established are skipped.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/vty.h"

#define CLEAR_STR "Reset functions\n"
#define ALL_STR "Clear all peers\n"
#define PEER_STR "BGP neighbor address to clear\n"
#define SOFT_STR "Soft reconfig inbound and outbound updates\n"
#define IN_STR "Send route-refresh unless using 'soft-reconfiguration inbound'\n"
#define OUT_STR "Resend all outbound updates\n"

#define AF_ALL (-1)

enum clear_kind {
	CLEAR_HARD,
	CLEAR_SOFT_IN,
	CLEAR_SOFT_OUT,
	CLEAR_SOFT_BOTH,
};

/* Is the peer activated in af_only, or (AF_ALL) in some family: is there anything to clear? */
static bool peer_activated_in(const struct bgp_peer *peer, int af_only)
{
	int af;

	if (af_only != AF_ALL)
		return bgp_peer_af_activated(peer, af_only);
	for (af = 0; af < BGP_AF_MAX; af++)
		if (bgp_peer_af_activated(peer, af))
			return true;
	return false;
}

/* Soft: per negotiated family. Returns false when `in` was impossible for the peer. */
static bool clear_soft(struct vty *vty, struct bgp_peer *peer, int af_only, enum clear_kind kind)
{
	const struct bgp_session *s = peer->session;
	bool in = kind == CLEAR_SOFT_IN || kind == CLEAR_SOFT_BOTH;
	bool out = kind == CLEAR_SOFT_OUT || kind == CLEAR_SOFT_BOTH;
	bool refused = false;
	int af;

	if (!s || !s->established)
		return true;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if ((af_only != AF_ALL && af != af_only) || !s->info.af[af])
			continue;
		/* The kept routes through the policy again, or a refresh from the peer; a family
		 * with neither is refused, the others done. */
		if (in && !rib_soft_reconfig_in(peer, (enum bgp_af)af)) {
			if (s->info.route_refresh)
				session_send_route_refresh(peer, af);
			else
				refused = true;
		}
		if (out) {
			bgp_peer_debug(BGP_DEBUG_UPDATES_OUT, peer, "clear soft out: resending %s",
				       bgp_af_text_name(af));
			rib_resend(peer, af);
		}
	}
	if (refused)
		vty_out(vty,
			"%% BGP: Inbound soft reconfig for %s not possible as it\n"
			"      has neither refresh capability, nor inbound soft reconfig\n",
			peer->name);
	return !refused;
}

static void clear_hard(struct bgp_peer *peer)
{
	bgp_peer_info(peer, "session reset by the operator (clear bgp)");
	bgp_max_prefix_clear(peer); /* a session held down by maximum-prefix may come up */
	bgp_session_reset(peer, BGP_ERR_CEASE_ADMIN_RESET, BGP_DOWN_USER_RESET);
}

/* A hard reset is of the whole session, whatever family the command named (as FRR). */
static int clear_bgp(struct vty *vty, int af_only, const char *which, enum clear_kind kind)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;
	bool ok = true;

	if (!bgp) {
		vty_out(vty, "%% No BGP process is configured\n");
		return CMD_WARNING;
	}
	if (strcmp(which, "*") != 0) {
		struct ipaddr a;

		if (ipaddr_from_str(&a, which) < 0 || !(peer = bgp_peer_lookup(bgp, &a))) {
			vty_out(vty, "%% BGP: Unknown neighbor - \"%s\"\n", which);
			return CMD_WARNING;
		}
		if (kind == CLEAR_HARD) {
			clear_hard(peer);
			return CMD_SUCCESS;
		}
		if (!peer_activated_in(peer, af_only)) {
			vty_out(vty, "%% BGP: Enable %s address family for the neighbor %s\n",
				bgp_af_text_name(af_only), peer->name);
			return CMD_WARNING;
		}
		return clear_soft(vty, peer, af_only, kind) ? CMD_SUCCESS : CMD_WARNING;
	}
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (kind == CLEAR_HARD)
			clear_hard(peer);
		else if (peer_activated_in(peer, af_only) && !clear_soft(vty, peer, af_only, kind))
			ok = false;
	}
	return ok ? CMD_SUCCESS : CMD_WARNING;
}

static enum clear_kind arg_kind(const struct cmd_args *args)
{
	bool soft = cmd_has(args, "soft"), in = cmd_has(args, "in"), out = cmd_has(args, "out");

	if (in)
		return CLEAR_SOFT_IN;
	if (out)
		return CLEAR_SOFT_OUT;
	return soft ? CLEAR_SOFT_BOTH : CLEAR_HARD;
}

static int arg_af(const struct cmd_args *args)
{
	if (cmd_has(args, "ipv4"))
		return BGP_AF_IPV4_UNICAST;
	if (cmd_has(args, "ipv6"))
		return BGP_AF_IPV6_UNICAST;
	return AF_ALL;
}

DEFCMD(clear_ip_bgp, "clear ip bgp <*|A.B.C.D|X:X::X:X>$peer [<soft [<in|out>]|in|out>]",
       CLEAR_STR IP_STR BGP_STR ALL_STR PEER_STR PEER_STR SOFT_STR IN_STR OUT_STR IN_STR OUT_STR)
{
	/* FRR's IPv4 spelling: the soft variants are for IPv4 unicast. */
	return clear_bgp(vty, BGP_AF_IPV4_UNICAST, cmd_arg(args, "peer"), arg_kind(args));
}

DEFCMD(clear_bgp_all, "clear bgp <*|A.B.C.D|X:X::X:X>$peer [<soft [<in|out>]|in|out>]",
       CLEAR_STR BGP_STR ALL_STR PEER_STR PEER_STR SOFT_STR IN_STR OUT_STR IN_STR OUT_STR)
{
	return clear_bgp(vty, AF_ALL, cmd_arg(args, "peer"), arg_kind(args));
}

DEFCMD(clear_bgp_af,
       "clear bgp <ipv4|ipv6> [unicast] <*|A.B.C.D|X:X::X:X>$peer [<soft [<in|out>]|in|out>]",
       CLEAR_STR BGP_STR AF_STR AF_STR SAFI_STR ALL_STR PEER_STR PEER_STR SOFT_STR IN_STR OUT_STR
	       IN_STR OUT_STR)
{
	return clear_bgp(vty, arg_af(args), cmd_arg(args, "peer"), arg_kind(args));
}

void bgp_clear_init(void)
{
	static const struct cmd_def *const cmds[] = {
		&clear_ip_bgp_cmd,
		&clear_bgp_all_cmd,
		&clear_bgp_af_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(ENABLE_NODE, cmds[i]);
}
