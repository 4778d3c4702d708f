/* SPDX-License-Identifier: ISC */
/*
 * `show bgp gtsm [json]`: GTSM (RFC 5082) and TCP-MD5 (RFC 2385) at a glance, one line per
 * neighbor: configured hops, the minimum TTL configured and read back from the live socket, the
 * sending TTL of that socket, MD5 on or off, whether the listeners TTL-check the neighbor's
 * handshake, and the session state; then the listeners and this namespace's kernel counters.
 * FRR has no such command; the JSON keys are camelCase like FRR's.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "lib/command.h"
#include "lib/vty.h"

#define GTSM_STR "TTL security (GTSM, RFC 5082) and TCP-MD5 of every neighbor\n"

static const char *cover_str(enum bgp_listener_cover c)
{
	switch (c) {
	case BGP_LISTENER_COVER_YES:
		return "yes";
	case BGP_LISTENER_COVER_NO:
		return "NO";
	case BGP_LISTENER_COVER_NA:
		break;
	}
	return "-";
}

static void text_listeners(struct vty *vty)
{
	struct bgp_listener_info li;
	char addr[SU_STRLEN];

	for (int i = 0; bgp_network_listener_info(i, &li) == 0; i++) {
		ipaddr_port_to_str(&li.addr, li.port, addr, sizeof(addr));
		if (!li.open)
			vty_out(vty, "Listener %s: closed (could not be reopened, see the log)\n",
				addr);
		else if (!li.group)
			vty_out(vty, "Listener %s: plain socket, no GTSM at the listener\n", addr);
		else
			vty_out(vty,
				"Listener %s: GTSM group, %u GTSM rules (selector %u, filter %u "
				"instructions)%s\n",
				addr, li.rules, li.selector_len, li.filter_len,
				li.stale ? ", STALE: last update failed" : "");
	}
}

static void text_row(struct vty *vty, const struct bgp_peer_view *pv, int width)
{
	char hops[12] = "-", minc[12] = "-", mins[12] = "-", ttl[12] = "-";

	if (pv->gtsm_hops) {
		snprintf(hops, sizeof(hops), "%d", pv->gtsm_hops);
		snprintf(minc, sizeof(minc), "%d", pv->min_ttl_conf);
	}
	if (pv->min_ttl_sock >= 0) {
		snprintf(mins, sizeof(mins), "%d", pv->min_ttl_sock);
		snprintf(ttl, sizeof(ttl), "%d", pv->send_ttl_sock);
	}
	vty_out(vty, "%-*s %4s %7s %6s %7s %-3s %-8s %s%s\n", width, pv->name, hops, minc, mins,
		ttl, pv->password ? "yes" : "no", cover_str(pv->listener_cover),
		bgp_fsm_state_str(pv->state), pv->sec_refused ? " (held down: kernel)" : "");
}

static int show_gtsm_text(struct vty *vty, const struct bgp *bgp,
			  const struct kernel_gtsm_counters *c, bool have_counters)
{
	const struct bgp_peer *peer;
	struct bgp_peer_view pv;
	char counters[192];
	int width = 16;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		if ((int)strlen(peer->name) + 1 > width)
			width = (int)strlen(peer->name) + 1;
	text_listeners(vty);
	vty_out(vty, "%-*s %4s %7s %6s %7s %-3s %-8s %s\n", width, "Neighbor", "Hops", "MinTTL",
		"Socket", "SendTTL", "MD5", "Listener", "State");
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		bgp_peer_view_fill(&pv, peer);
		text_row(vty, &pv, width);
	}
	if (have_counters) {
		bgp_counters_text(c, counters, sizeof(counters));
		vty_out(vty, "Kernel counters (this namespace): %s\n", counters);
	}
	return CMD_SUCCESS;
}

static int show_gtsm_json(struct vty *vty, const struct bgp *bgp,
			  const struct kernel_gtsm_counters *c, bool have_counters)
{
	struct bgp_listener_info li;
	const struct bgp_peer *peer;
	struct bgp_peer_view pv;
	struct json_writer w;
	char addr[IPADDR_STRLEN];

	json_init(&w, &vty->out, true);
	json_object_open(&w, NULL);
	json_array_open(&w, "listeners");
	for (int i = 0; bgp_network_listener_info(i, &li) == 0; i++) {
		json_object_open(&w, NULL);
		json_string(&w, "address", ipaddr_to_str(&li.addr, addr, sizeof(addr)));
		json_uint(&w, "port", li.port);
		json_bool(&w, "open", li.open);
		json_bool(&w, "gtsmGroup", li.group);
		json_uint(&w, "gtsmRules", li.rules);
		json_uint(&w, "selectorInstructions", li.selector_len);
		json_uint(&w, "filterInstructions", li.filter_len);
		json_bool(&w, "stale", li.stale);
		json_object_close(&w);
	}
	json_array_close(&w);
	json_object_open(&w, "neighbors");
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		bgp_peer_view_fill(&pv, peer);
		json_object_open(&w, pv.name);
		json_int(&w, "hops", pv.gtsm_hops);
		json_int(&w, "minTtlConfigured", pv.min_ttl_conf);
		if (pv.min_ttl_sock >= 0) {
			json_int(&w, "minTtlSocket", pv.min_ttl_sock);
			json_int(&w, "sendTtlSocket", pv.send_ttl_sock);
		}
		json_bool(&w, "md5", pv.password);
		json_bool(&w, "listenerProtected", pv.listener_cover == BGP_LISTENER_COVER_YES);
		json_string(&w, "state", bgp_fsm_state_str(pv.state));
		if (pv.sec_refused)
			json_bool(&w, "securityUnsupported", true);
		json_object_close(&w);
	}
	json_object_close(&w);
	if (have_counters)
		bgp_counters_json(&w, "kernelCounters", c);
	json_object_close(&w);
	json_end(&w);
	return CMD_SUCCESS;
}

DEFCMD(show_bgp_gtsm, "show bgp gtsm [json]", SHOW_STR BGP_STR GTSM_STR JSON_STR)
{
	struct kernel_gtsm_counters c;
	struct bgp *bgp = bgp_get();
	bool json = cmd_has(args, "json"), have;

	if (!bgp) {
		vty_out(vty, json ? "{}\n" : "%% BGP instance not found\n");
		return CMD_WARNING;
	}
	have = kernel_gtsm_counters_read(&c) == 0;
	return json ? show_gtsm_json(vty, bgp, &c, have) : show_gtsm_text(vty, bgp, &c, have);
}

void bgp_show_gtsm_init(void)
{
	cmd_install(VIEW_NODE, &show_bgp_gtsm_cmd);
}
