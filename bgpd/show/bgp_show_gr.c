/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart in the show commands, FRR 8.4's layout and keys (checked against FRR's
 * output on the same state, tests/lab/scenarios/gr_helper):
 *   - `show bgp [ipv4|ipv6] neighbors [PEER] graceful-restart [json]`;
 *   - in `show bgp neighbors [PEER] [json]`: the "Graceful Restart Capability" lines of the
 *     capabilities and the "Graceful restart information" block.
 * The view of one peer (struct bgp_gr_view) is filled once from the session (what the OPENs
 * said), the RIB (End-of-RIBs, the helper's timers) and the configuration.
 *
 * FRR's quirks kept: "Restart Time Remaining(sec)" is printed twice in text; `show bgp neighbors
 * graceful-restart` without a family prints one block per family. Departures: FRR 8.4 crashes
 * on the JSON form without a family (skua prints every neighbor once, every family in it), and
 * refuses a neighbor without a family ("Command incomplete": its WORD form of PEER swallows
 * the keyword; skua takes addresses only, and the form).
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "lib/command.h"
#include "lib/vty.h"

#define AF_ALL (-1)

static const char *mode_str(enum bgp_gr_mode m)
{
	switch (m) {
	case BGP_GR_RESTART:
		return "Restart";
	case BGP_GR_DISABLE:
		return "Disable";
	case BGP_GR_HELPER:
	case BGP_GR_INHERIT:
		break;
	}
	return "Helper";
}

void bgp_gr_view_fill(struct bgp_gr_view *g, const struct bgp_peer *peer, bool established)
{
	const struct bgp_session *s = peer->session;
	const struct bgp *bgp = peer->bgp;
	bool listed = false;
	int af;

	memset(g, 0, sizeof(*g));
	g->local_mode = mode_str(bgp_peer_gr_mode(peer));
	g->local_inherited = peer->conf.gr_mode == BGP_GR_INHERIT;
	g->local_restart = bgp_peer_gr_mode(peer) == BGP_GR_RESTART;
	g->conf_restart_time = bgp->gr_restart_time;
	g->stalepath_time = bgp->gr_stalepath_time;
	g->select_defer_time = bgp->gr_select_defer_time;
	g->remote_mode = "NotApplicable";
	g->restart_remaining = rib_peer_gr_restart_remaining(peer);
	g->stale_remaining = rib_peer_gr_stale_remaining(peer);
	if (!s || !s->have_nego)
		return;
	/* The peer's restart time outlives its session (FRR shows it while the peer is away). */
	g->rcvd_time = s->nego.remote.gr_time;
	if (!established)
		return;
	g->adv = s->open_sent.gr;
	g->rcv = s->nego.remote.gr;
	g->r_bit = s->nego.remote.gr_restart;
	g->n_bit = s->nego.remote.gr_notification;
	for (af = 0; af < BGP_AF_MAX; af++) {
		g->rcvd_af[af] = s->nego.remote.gr_af[af];
		g->rcvd_fwd[af] = s->nego.remote.gr_fwd[af];
		listed |= g->rcvd_af[af];
		g->eor_sent[af] = rib_peer_eor_sent(peer, af);
		g->eor_rcvd[af] = rib_peer_eor_rcvd(peer, af);
	}
	/* FRR's remote mode: known once we advertised the capability on an Established session. */
	if (g->adv)
		g->remote_mode = !g->rcv ? "Disable" : listed ? "Restart" : "Helper";
}

/* ---- text ---- */

void bgp_show_gr_caps_text(struct vty *vty, const struct bgp_peer_view *pv)
{
	const struct bgp_gr_view *g = &pv->gr;
	int af, n = 0;

	if (!g->adv && !g->rcv)
		return;
	vty_out(vty, "    Graceful Restart Capability:");
	if (g->adv)
		vty_out(vty, " advertised");
	if (g->rcv)
		vty_out(vty, " %sreceived", g->adv ? "and " : "");
	vty_out(vty, "\n");
	if (!g->rcv)
		return;
	vty_out(vty, "      Remote Restart timer is %u seconds\n", g->rcvd_time);
	vty_out(vty, "      Address families by peer:\n        ");
	for (af = 0; af < BGP_AF_MAX; af++)
		if (g->rcvd_af[af])
			vty_out(vty, "%s%s(%s)", n++ ? ", " : "", bgp_af_text_name(af),
				g->rcvd_fwd[af] ? "preserved" : "not preserved");
	vty_out(vty, "%s\n", n ? "" : "none");
}

static const char *yes_no(bool b)
{
	return b ? "Yes" : "No";
}

static const char *true_false(bool b)
{
	return b ? "True" : "False";
}

/* What `graceful-restart` and the neighbor's information block share: modes, bits, timers,
 * and the families of af_only (AF_ALL: every one) that the session negotiated. */
static void gr_body_text(struct vty *vty, const struct bgp_peer_view *pv, int af_only)
{
	const struct bgp_gr_view *g = &pv->gr;
	int af;

	vty_out(vty, "    Local GR Mode: %s%s\n", g->local_mode, g->local_inherited ? "*" : "");
	vty_out(vty, "    Remote GR Mode: %s\n", g->remote_mode);
	vty_out(vty, "    R bit: %s\n", true_false(g->r_bit));
	vty_out(vty, "    N bit: %s\n", true_false(g->n_bit));
	vty_out(vty, "    Timers:\n");
	vty_out(vty, "      Configured Restart Time(sec): %u\n", g->conf_restart_time);
	vty_out(vty, "      Received Restart Time(sec): %u\n", g->rcvd_time);
	/* FRR 8.4 prints this line twice. */
	for (int i = 0; i < 2 && g->restart_remaining >= 0; i++)
		vty_out(vty, "      Restart Time Remaining(sec): %" PRId64 "\n",
			g->restart_remaining);
	for (af = 0; af < BGP_AF_MAX; af++) {
		if ((af_only != AF_ALL && af != af_only) || !pv->af[af].negotiated)
			continue;
		vty_out(vty, "    %s:\n", bgp_af_text_name(af));
		vty_out(vty, "      F bit: %s\n", true_false(g->rcvd_fwd[af]));
		vty_out(vty, "      End-of-RIB sent: %s\n", yes_no(g->eor_sent[af]));
		vty_out(vty, "      End-of-RIB sent after update: %s\n", yes_no(g->eor_sent[af]));
		vty_out(vty, "      End-of-RIB received: %s\n", yes_no(g->eor_rcvd[af]));
		vty_out(vty, "      Timers:\n");
		vty_out(vty, "        Configured Stale Path Time(sec): %u\n", g->stalepath_time);
		if (g->local_restart)
			vty_out(vty, "        Configured Selection Deferral Time(sec): %u\n",
				g->select_defer_time);
	}
}

static void eor_list_text(struct vty *vty, const char *label, const bool *flags)
{
	int n = 0;

	vty_out(vty, "    %s: ", label);
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (flags[af])
			vty_out(vty, "%s%s", n++ ? ", " : "", bgp_af_text_name(af));
	vty_out(vty, "\n");
}

void bgp_show_gr_info_text(struct vty *vty, const struct bgp_peer_view *pv)
{
	const struct bgp_gr_view *g = &pv->gr;

	vty_out(vty, "  Graceful restart information:\n");
	if (pv->established) {
		eor_list_text(vty, "End-of-RIB send", g->eor_sent);
		eor_list_text(vty, "End-of-RIB received", g->eor_rcvd);
	}
	if (g->restart_remaining >= 0)
		vty_out(vty, "    The remaining time of restart timer is %" PRId64 "\n",
			g->restart_remaining);
	if (g->stale_remaining >= 0)
		vty_out(vty, "    The remaining time of stalepath timer is %" PRId64 "\n",
			g->stale_remaining);
	gr_body_text(vty, pv, AF_ALL);
}

/* ---- JSON ---- */

void bgp_show_gr_caps_json(struct json_writer *w, const struct bgp_peer_view *pv)
{
	const struct bgp_gr_view *g = &pv->gr;
	bool any = false;
	int af;

	if (!g->adv && !g->rcv)
		return;
	json_string(w, "gracefulRestart",
		    g->adv && g->rcv ? "advertisedAndReceived"
		    : g->adv	     ? "advertised"
				     : "received");
	if (!g->rcv)
		return;
	json_uint(w, "gracefulRestartRemoteTimerMsecs", (uint64_t)g->rcvd_time * 1000);
	for (af = 0; af < BGP_AF_MAX; af++)
		any |= g->rcvd_af[af];
	if (!any) {
		json_string(w, "addressFamiliesByPeer", "none");
		return;
	}
	json_object_open(w, "addressFamiliesByPeer");
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!g->rcvd_af[af])
			continue;
		json_object_open(w, bgp_af_json_name(af));
		json_bool(w, g->rcvd_fwd[af] ? "preserved" : "notPreserved", true);
		json_object_close(w);
	}
	json_object_close(w);
}

static void gr_body_json(struct json_writer *w, const struct bgp_peer_view *pv, int af_only)
{
	const struct bgp_gr_view *g = &pv->gr;
	int af;

	json_stringf(w, "localGrMode", "%s%s", g->local_mode, g->local_inherited ? "*" : "");
	json_string(w, "remoteGrMode", g->remote_mode);
	json_bool(w, "rBit", g->r_bit);
	json_bool(w, "nBit", g->n_bit);
	json_object_open(w, "timers");
	json_uint(w, "configuredRestartTimer", g->conf_restart_time);
	json_uint(w, "receivedRestartTimer", g->rcvd_time);
	if (g->restart_remaining >= 0)
		json_int(w, "restartTimerRemaining", g->restart_remaining);
	json_object_close(w);
	for (af = 0; af < BGP_AF_MAX; af++) {
		if ((af_only != AF_ALL && af != af_only) || !pv->af[af].negotiated)
			continue;
		json_object_open(w, bgp_af_json_name(af));
		json_bool(w, "fBit", g->rcvd_fwd[af]);
		json_object_open(w, "endOfRibStatus");
		json_bool(w, "endOfRibSend", g->eor_sent[af]);
		json_bool(w, "endOfRibSentAfterUpdate", g->eor_sent[af]);
		json_bool(w, "endOfRibRecv", g->eor_rcvd[af]);
		json_object_close(w);
		json_object_open(w, "timers");
		json_uint(w, "stalePathTimer", g->stalepath_time);
		if (g->local_restart)
			json_uint(w, "selectionDeferralTimer", g->select_defer_time);
		json_object_close(w);
		json_object_close(w);
	}
}

static void eor_list_json(struct json_writer *w, const char *key, const bool *flags)
{
	json_object_open(w, key);
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (flags[af])
			json_bool(w, bgp_af_json_name(af), true);
	json_object_close(w);
}

void bgp_show_gr_info_json(struct json_writer *w, const struct bgp_peer_view *pv)
{
	const struct bgp_gr_view *g = &pv->gr;

	json_object_open(w, "gracefulRestartInfo");
	eor_list_json(w, "endOfRibSend", g->eor_sent);
	eor_list_json(w, "endOfRibRecv", g->eor_rcvd);
	if (g->restart_remaining >= 0)
		json_int(w, "gracefulRestartTimerMsecs", g->restart_remaining * 1000);
	if (g->stale_remaining >= 0)
		json_int(w, "gracefulStalepathTimerMsecs", g->stale_remaining * 1000);
	gr_body_json(w, pv, AF_ALL);
	json_object_close(w);
}

/* ---- show bgp [ipv4|ipv6] neighbors [PEER] graceful-restart [json] ---- */

static void header_text(struct vty *vty, const struct bgp *bgp)
{
	vty_out(vty, "\nCodes: GR - Graceful Restart, * -  Inheriting Global GR Config,\n"
		     "       Restart - GR Mode-Restarting, Helper - GR Mode-Helper,\n"
		     "       Disable - GR Mode-Disable.\n\n");
	vty_out(vty, "Global BGP GR Mode :  %s\n\n", mode_str(bgp->gr_mode));
}

/* One family's block (af AF_ALL: the JSON of every family): its neighbors, or PEER. */
static int show_gr_af(struct vty *vty, struct bgp *bgp, int af, const struct bgp_peer *only,
		      struct json_writer *w)
{
	const struct bgp_peer *peer;
	struct bgp_peer_view pv;

	if (!w)
		header_text(vty, bgp);
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if ((only && peer != only) || (af != AF_ALL && !bgp_peer_af_activated(peer, af)))
			continue;
		bgp_peer_view_fill(&pv, peer);
		if (w) {
			json_object_open(w, peer->name);
			json_string(w, "neighborAddr", peer->name);
			gr_body_json(w, &pv, af);
			json_object_close(w);
			continue;
		}
		vty_out(vty, "BGP neighbor is %s\n", peer->name);
		gr_body_text(vty, &pv, af);
	}
	if (!w)
		vty_out(vty, "\n");
	return CMD_SUCCESS;
}

static int show_gr(struct vty *vty, int af_only, const char *addr, bool use_json)
{
	struct bgp *bgp = bgp_get();
	const struct bgp_peer *peer = NULL;
	struct json_writer w;
	struct ipaddr a;
	int af;

	if (!bgp) {
		vty_out(vty, use_json ? "{}\n" : "%% No BGP process is configured\n");
		return CMD_WARNING;
	}
	if (addr && (ipaddr_from_str(&a, addr) < 0 || !(peer = bgp_peer_lookup(bgp, &a)) ||
		     (af_only != AF_ALL && !bgp_peer_af_activated(peer, af_only)))) {
		if (use_json) {
			vty_out(vty, "{\n  \"bgpNoSuchNeighbor\":true\n}\n");
		} else {
			header_text(vty, bgp);
			vty_out(vty, "%% No such neighbor\n\n");
		}
		return CMD_WARNING;
	}
	if (use_json) {
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		show_gr_af(vty, bgp, af_only, peer, &w);
		json_object_close(&w);
		json_end(&w);
		return CMD_SUCCESS;
	}
	for (af = 0; af < BGP_AF_MAX; af++)
		if (af_only == AF_ALL || af == af_only)
			show_gr_af(vty, bgp, af, peer, NULL);
	return CMD_SUCCESS;
}

#define GR_SHOW_STR                                                  \
	"Detailed information on TCP and BGP neighbor connections\n" \
	"Neighbor to display information about\n"                    \
	"Neighbor to display information about\n"                    \
	"Graceful restart capabilities and state\n" JSON_STR

DEFCMD(show_bgp_neighbors_gr,
       "show bgp [<ipv4|ipv6>$afi] neighbors [<A.B.C.D|X:X::X:X>$peer] graceful-restart [json]",
       SHOW_STR BGP_STR AF_STR AF_STR GR_SHOW_STR)
{
	const char *afi = cmd_arg(args, "afi");
	int af = !afi ? AF_ALL : !strcmp(afi, "ipv6") ? BGP_AF_IPV6_UNICAST : BGP_AF_IPV4_UNICAST;

	return show_gr(vty, af, cmd_arg(args, "peer"), cmd_has(args, "json"));
}

void bgp_show_gr_init(void)
{
	cmd_install(VIEW_NODE, &show_bgp_neighbors_gr_cmd);
}
