/* SPDX-License-Identifier: ISC */
/* Text renderer of the summary and neighbor views: FRR's layout (bgp_vty.c, show output). */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/plist.h"
#include "lib/vty.h"

#define SUMMARY_HEADER_AS "V         AS"
#define SUMMARY_HEADER_LOCAL_AS "    LocalAS"
#define SUMMARY_HEADER_REST \
	"   MsgRcvd   MsgSent   TblVer  InQ OutQ  Up/Down State/PfxRcd   PfxSnt Desc\n"

#define SUMMARY_HEADER_FAILED "EstdCnt DropCnt ResetTime Reason\n"

/* ---- summary ---- */

static void text_summary_begin(struct bgp_show_ctx *ctx)
{
}

static bool none_failed(const struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	return ctx->filter == BGP_SUMMARY_FAILED && !sv->displayed;
}

static void text_summary_af_begin(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	struct vty *vty = ctx->vty;
	char id[INET_ADDRSTRLEN], mem[32];

	if (ctx->titled)
		vty_out(vty, "\n%s Summary (VRF default):\n", bgp_af_text_name(sv->af));
	if (none_failed(ctx, sv)) {
		vty_out(vty, "%% No failed BGP neighbors found\n");
		return;
	}
	inet_ntop(AF_INET, &sv->router_id, id, sizeof(id));
	vty_out(vty, "BGP router identifier %s, local AS number %u vrf-id 0\n", id, sv->asn);
	vty_out(vty, "BGP table version %" PRIu64 "\n", sv->table_version);
	vty_out(vty, "RIB entries %zu, using %s of memory\n", sv->rib_count,
		bgp_memstr(mem, sizeof(mem), sv->rib_memory));
	vty_out(vty, "Peers %u, using %s of memory\n", sv->peer_count,
		bgp_memstr(mem, sizeof(mem), sv->peer_memory));
	if (!sv->displayed)
		return; /* FRR prints the column header with the first row */
	vty_out(vty, "\nNeighbor%*s", sv->neighbor_width - 8, " ");
	if (ctx->filter == BGP_SUMMARY_FAILED)
		vty_out(vty, SUMMARY_HEADER_FAILED);
	else
		vty_out(vty, SUMMARY_HEADER_AS "%s" SUMMARY_HEADER_REST,
			ctx->wide ? SUMMARY_HEADER_LOCAL_AS : "");
}

/* `failed`: sessions established and dropped, time since the last change, why it went down. */
static void text_summary_failed_peer(struct vty *vty, const struct bgp_peer_view *pv)
{
	vty_out(vty, "%7u %7u %9s", pv->established_count, pv->dropped_count, pv->up_str);
	if (pv->notify_shown)
		vty_out(vty, " Notification %s (%s)\n", pv->notify_sent ? "sent" : "received",
			pv->notify_text);
	else if (pv->last_reset != BGP_DOWN_NONE)
		vty_out(vty, " %s\n", bgp_down_reason_str(pv->last_reset));
	else
		vty_out(vty, " Never established\n");
}

static void text_summary_peer(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv,
			      const struct bgp_peer_view *pv)
{
	struct vty *vty = ctx->vty;
	const struct bgp_af_view *af = &pv->af[sv->af];
	char desc[64];
	int len = (int)strlen(pv->name) + pv->dynamic;

	vty_out(vty, "%s%s", pv->dynamic ? "*" : "", pv->name);
	if (len < sv->neighbor_width)
		vty_out(vty, "%*s", sv->neighbor_width - len, " ");
	if (ctx->filter == BGP_SUMMARY_FAILED) {
		text_summary_failed_peer(vty, pv);
		return;
	}
	vty_out(vty, "4%11u", pv->remote_as);
	if (ctx->wide)
		vty_out(vty, " %10u", pv->local_as);
	vty_out(vty, " %9u %9u %8" PRIu64 " %4u %4u %8s", pv->total_rcvd, pv->total_sent,
		af->table_version, pv->inq, pv->outq, pv->up_str);
	if (pv->established) {
		if (af->negotiated) {
			/* FRR: "(Policy)" instead of a count that RFC 8212 holds at 0 */
			if (af->policy_missing[BGP_DIR_IN])
				vty_out(vty, " %12s", "(Policy)");
			else
				vty_out(vty, " %12u", af->accepted);
			if (af->policy_missing[BGP_DIR_OUT])
				vty_out(vty, " %8s", "(Policy)");
			else
				vty_out(vty, " %8u", af->sent);
		} else
			vty_out(vty, "        NoNeg    NoNeg");
	} else if (pv->admin_down) {
		vty_out(vty, " Idle (Admin) %8u", 0u);
	} else if (pv->pfx_overflow) {
		vty_out(vty, " Idle (PfxCt) %8u", 0u);
	} else {
		vty_out(vty, " %12s %8u", bgp_fsm_state_str(pv->state), 0u);
	}
	if (pv->desc) {
		bgp_desc_stripped(pv->desc, 20, desc, sizeof(desc));
		vty_out(vty, " %s\n", desc);
	} else {
		vty_out(vty, " N/A\n");
	}
}

static void text_summary_af_end(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	struct vty *vty = ctx->vty;

	if (none_failed(ctx, sv))
		return;
	if (!sv->displayed) {
		vty_out(vty, "\n%% No matching neighbor\n");
		return;
	}
	if (ctx->filter != BGP_SUMMARY_ALL)
		vty_out(vty, "\nDisplayed neighbors %u", sv->displayed);
	vty_out(vty, "\nTotal number of neighbors %u\n", sv->total);
	if (sv->dynamic) /* FRR's footer */
		vty_out(vty, "* - dynamic neighbor\n%u dynamic neighbor(s), limit %u\n",
			sv->dynamic, sv->dynamic_limit);
}

static void text_summary_end(struct bgp_show_ctx *ctx, enum bgp_show_end end)
{
	switch (end) {
	case BGP_SHOW_END_NO_PEERS:
		vty_out(ctx->vty, "%% No BGP neighbors found in VRF default\n");
		break;
	case BGP_SHOW_END_NO_INSTANCE:
		vty_out(ctx->vty, "%% BGP instance not found\n");
		break;
	case BGP_SHOW_END_NOT_FOUND:
		vty_out(ctx->vty, "%% No such neighbor in this view/vrf\n");
		break;
	case BGP_SHOW_END_OK:
		break;
	}
}

/* ---- neighbors ---- */

/* FRR 8.4's words: with a confederation, internal links and those to another member AS are
 * "confed-" ones; a link outside it stays "external link". */
static const char *link_str(const struct bgp_peer_view *pv)
{
	switch (pv->link) {
	case BGP_LINK_INTERNAL:
		return pv->confed ? "confed-internal link" : "internal link";
	case BGP_LINK_EXTERNAL:
		return pv->confed_member ? "confed-external link" : "external link";
	case BGP_LINK_UNSPECIFIED:
		break;
	}
	return "unspecified link";
}

static void text_cap(struct vty *vty, const char *name, struct bgp_cap_view c)
{
	if (!c.adv && !c.rcv)
		return;
	vty_out(vty, "    %s:", name);
	if (c.adv)
		vty_out(vty, " advertised");
	if (c.rcv)
		vty_out(vty, " %sreceived", c.adv ? "and " : "");
	vty_out(vty, "\n");
}

/* FRR 8.4 names the codes the peer sent: new (2, RFC 2918), old (128, pre-standard). */
static const char *rr_codes(const struct bgp_peer_view *pv)
{
	if (pv->rr_old && pv->rr_new)
		return "old & new";
	return pv->rr_old ? "old" : "new";
}

static void text_route_refresh(struct vty *vty, const struct bgp_peer_view *pv)
{
	struct bgp_cap_view c = pv->route_refresh;

	if (!c.adv && !c.rcv)
		return;
	vty_out(vty, "    Route refresh:");
	if (c.adv)
		vty_out(vty, " advertised");
	if (c.rcv)
		vty_out(vty, " %sreceived(%s)", c.adv ? "and " : "", rr_codes(pv));
	vty_out(vty, "\n");
}

static void text_capabilities(struct vty *vty, const struct bgp_peer_view *pv)
{
	int af;

	if (!pv->show_caps)
		return;
	vty_out(vty, "  Neighbor capabilities:\n");
	text_cap(vty, "4 Byte AS", pv->as4);
	text_cap(vty, "Extended Message", pv->ext_msg);
	text_cap(vty, "Role", pv->role); /* FRR 8.4's place for it */
	text_route_refresh(vty, pv);
	text_cap(vty, "Enhanced Route Refresh", pv->enhanced_rr);
	for (af = 0; af < BGP_AF_MAX; af++) {
		struct bgp_cap_view c = { pv->af[af].advertised, pv->af[af].received };
		char name[64];

		snprintf(name, sizeof(name), "Address Family %s", bgp_af_text_name(af));
		text_cap(vty, name, c);
	}
	bgp_show_gr_caps_text(vty, pv);
}

static void text_msg_stats(struct vty *vty, const struct bgp_peer_view *pv)
{
	static const struct {
		const char *label;
		int type;
	} rows[] = {
		{ "Opens:        ", 1 }, { "Notifications:", 3 }, { "Updates:      ", 2 },
		{ "Keepalives:   ", 4 }, { "Route Refresh:", 5 }, { "Capability:   ", 6 },
	};
	size_t i;

	vty_out(vty, "  Message statistics:\n");
	vty_out(vty, "    Inq depth is %u\n", pv->inq);
	vty_out(vty, "    Outq depth is %u\n", pv->outq);
	vty_out(vty, "                         Sent       Rcvd\n");
	for (i = 0; i < array_size(rows); i++)
		vty_out(vty, "    %s %10u %10u\n", rows[i].label, pv->sent.count[rows[i].type],
			pv->rcvd.count[rows[i].type]);
	vty_out(vty, "    Total:         %10u %10u\n", pv->total_sent, pv->total_rcvd);
}

/* FRR's filter lines; "*" marks a name that names no list (it then denies everything). */
static void text_filters(struct vty *vty, const struct bgp_peer *peer, enum bgp_af af,
			 const struct bgp_af_view *av)
{
	static const char *const what[BGP_DIR_MAX] = { "Incoming", "Outgoing" };
	uint8_t off = peer->conf.send_comm_off[af];
	const char *kind;

	if (peer->conf.rr_client[af])
		vty_out(vty, "  Route-Reflector Client\n");
	if (peer->conf.remove_private_as[af] != BGP_RPA_OFF)
		vty_out(vty, "  Private AS numbers %s%s in updates to this neighbor\n",
			peer->conf.remove_private_as[af] >= BGP_RPA_ALL ? "(all) " : "",
			peer->conf.remove_private_as[af] == BGP_RPA_ONLY_REPLACE ||
					peer->conf.remove_private_as[af] == BGP_RPA_ALL_REPLACE
				? "replaced"
				: "removed");
	if (peer->conf.soft_reconfig[af])
		vty_out(vty, "  Inbound soft reconfiguration allowed\n");
	else if (av->kept_for_validation)
		vty_out(vty, "  Inbound routes kept as received (inbound route-map matches rpki or "
			     "aspa)\n");
	if (peer->conf.allowas_in[af] == BGP_ALLOWAS_ORIGIN)
		vty_out(vty, "  Local AS allowed as path origin\n");
	else if (peer->conf.allowas_in[af])
		vty_out(vty, "  Local AS allowed in path %u times\n", peer->conf.allowas_in[af]);
	if (peer->conf.nexthop_self[af] == BGP_NHS_FORCE)
		vty_out(vty, "  NEXT_HOP is always this router (forced)\n");
	else if (peer->conf.nexthop_self[af] == BGP_NHS_SELF)
		vty_out(vty, "  NEXT_HOP is always this router\n");
	if ((kind = bgp_send_community_name(!(off & BGP_SEND_COMM_STANDARD),
					    !(off & BGP_SEND_COMM_EXTENDED),
					    !(off & BGP_SEND_COMM_LARGE), true)))
		vty_out(vty, "  Community attribute sent to this neighbor(%s)\n", kind);
	if (peer->conf.default_originate[af]) {
		const char *map = peer->conf.default_rmap[af];

		/* FRR 8.4's line (which marks no route-map name with "*" here). */
		vty_out(vty, "  Default information originate,");
		if (map)
			vty_out(vty, " default route-map %s,", map);
		vty_out(vty, " default %s\n", av->default_sent ? "sent" : "not sent");
	}
	for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
		const char *name = peer->conf.plist[af][dir];

		if (name)
			vty_out(vty, "  %s update prefix filter list is %s%s\n", what[dir],
				prefix_list_lookup(bgp_af_family(af), name) ? "" : "*", name);
	}
	for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
		const char *name = peer->conf.rmap[af][dir];

		if (name)
			vty_out(vty, "  Route map for %s advertisements is %s%s\n",
				dir == BGP_DIR_IN ? "incoming" : "outgoing",
				route_map_lookup(name) ? "" : "*", name);
	}
	for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
		const char *name = peer->conf.aspath_list[af][dir];

		if (name)
			vty_out(vty, "  %s update AS path filter list is %s%s\n", what[dir],
				aspath_list_lookup(name) ? "" : "*", name);
	}
}

/* RFC 8212, FRR's lines (after the route-map ones in FRR; skua prints its filters by kind). */
static void text_policy_missing(struct vty *vty, const struct bgp_af_view *af)
{
	if (af->policy_missing[BGP_DIR_IN])
		vty_out(vty, "  Inbound updates discarded due to missing policy\n");
	if (af->policy_missing[BGP_DIR_OUT])
		vty_out(vty, "  Outbound updates discarded due to missing policy\n");
}

/* neighbor X maximum-prefix, FRR's lines. */
static void text_maxpfx(struct vty *vty, const struct bgp_maxpfx *m)
{
	if (!m->max)
		return;
	vty_out(vty, "  Maximum prefixes allowed %u%s\n", m->max,
		m->warning_only ? " (warning-only)" : "");
	vty_out(vty, "  Threshold for warning message %u%%", m->threshold);
	if (m->restart)
		vty_out(vty, ", restart interval %u min", m->restart);
	vty_out(vty, "\n");
}

/* Held down by maximum-prefix: FRR's lines after "Last reset". */
static void text_pfx_overflow(struct vty *vty, const struct bgp_peer_view *pv)
{
	if (!pv->pfx_overflow)
		return;
	vty_out(vty, "  Peer had exceeded the max. no. of prefixes configured.\n");
	if (pv->pfx_restart_ms >= 0)
		vty_out(vty,
			"  Reduce the no. of prefix from %s, will restart in %" PRId64 " seconds\n",
			pv->name, pv->pfx_restart_ms / 1000);
	else
		vty_out(vty, "  Reduce the no. of prefix and clear ip bgp %s to restore peering\n",
			pv->name);
}

static void text_last_reset(struct vty *vty, const struct bgp_peer_view *pv)
{
	if (pv->last_reset == BGP_DOWN_NONE) {
		vty_out(vty, "  Last reset never\n");
		return;
	}
	vty_out(vty, "  Last reset %s, ", pv->last_reset_str);
	if (pv->notify_shown)
		vty_out(vty, " Notification %s (%s)\n", pv->notify_sent ? "sent" : "received",
			pv->notify_text);
	else
		vty_out(vty, " %s\n", bgp_down_reason_str(pv->last_reset));
}

/* Ours (FRR has none of it): GTSM and TCP-MD5 as the kernel has them, and its drop counters. */
static void text_security(struct vty *vty, const struct bgp_peer_view *pv)
{
	char sock[80], counters[192];

	if (pv->min_ttl_sock >= 0)
		snprintf(sock, sizeof(sock), "on the socket minimum TTL %d, sending TTL %d",
			 pv->min_ttl_sock, pv->send_ttl_sock);
	else
		snprintf(sock, sizeof(sock), "no socket");
	if (pv->gtsm_hops)
		vty_out(vty, "  TTL security (GTSM): hops %d, minimum TTL %d; %s\n", pv->gtsm_hops,
			pv->min_ttl_conf, sock);
	else
		vty_out(vty, "  TTL security (GTSM): off; %s\n", sock);
	switch (pv->listener_cover) {
	case BGP_LISTENER_COVER_YES:
		vty_out(vty, "  GTSM at the listener: handshake TTL-checked\n");
		break;
	case BGP_LISTENER_COVER_NO:
		vty_out(vty, "  GTSM at the listener: not in force for this neighbor, incoming "
			     "connections refused\n");
		break;
	case BGP_LISTENER_COVER_NA:
		break;
	}
	if (pv->md5_listener_missing)
		vty_out(vty, "  TCP-MD5 at the listener: key missing, incoming connections "
			     "refused\n");
	if (pv->sec_refused)
		vty_out(vty, "  Held down: this kernel cannot enforce the password or ttl-security "
			     "(see the log)\n");
	if (pv->have_counters) {
		bgp_counters_text(&pv->counters, counters, sizeof(counters));
		vty_out(vty, "  Kernel counters (this namespace): %s\n", counters);
	}
}

static void text_neighbor(struct bgp_show_ctx *ctx, const struct bgp_peer_view *pv)
{
	struct vty *vty = ctx->vty;
	char rid[INET_ADDRSTRLEN], lid[INET_ADDRSTRLEN];
	int af;

	vty_out(vty, "BGP neighbor is %s, remote AS %u, local AS %u%s%s, %s\n", pv->name,
		pv->remote_as, pv->local_as,
		pv->peer->conf.local_as_no_prepend ? " no-prepend" : "",
		pv->peer->conf.local_as_replace ? " replace-as" : "", link_str(pv));
	vty_out(vty, "  Local Role: %s\n  Remote Role: %s\n", pv->local_role, pv->remote_role);
	if (pv->desc)
		vty_out(vty, " Description: %s\n", pv->desc);
	if (pv->peer_group)
		vty_out(vty, " Member of peer-group %s for session parameters\n", pv->peer_group);
	if (pv->admin_down)
		vty_out(vty, " Administratively shut down\n");
	inet_ntop(AF_INET, &pv->remote_id, rid, sizeof(rid));
	inet_ntop(AF_INET, &pv->local_id, lid, sizeof(lid));
	vty_out(vty, "  BGP version 4, remote router ID %s, local router ID %s\n", rid, lid);
	vty_out(vty, "  BGP state = %s", bgp_fsm_state_str(pv->state));
	if (pv->established)
		vty_out(vty, ", up for %8s", pv->up_str);
	else if (pv->state == BGP_ST_ACTIVE && pv->passive)
		vty_out(vty, " (passive)");
	else if (pv->state == BGP_ST_ACTIVE && pv->gr.restart_remaining >= 0)
		vty_out(vty, " (NSF passive)"); /* FRR: its routes kept while it restarts */
	vty_out(vty, "\n");
	vty_out(vty, "  Last read %s, Last write %s\n", pv->last_read_str, pv->last_write_str);
	vty_out(vty, "  Hold time is %u seconds, keepalive interval is %u seconds\n", pv->holdtime,
		pv->keepalive);
	vty_out(vty, "  Configured hold time is %u seconds, keepalive interval is %u seconds\n",
		pv->conf_holdtime, pv->conf_keepalive);
	text_capabilities(vty, pv);
	bgp_show_gr_info_text(vty, pv);
	text_msg_stats(vty, pv);
	vty_out(vty, "  Minimum time between advertisement runs is %u seconds\n",
		pv->peer->conf.adv_interval);
	if (pv->update_source[0])
		vty_out(vty, "  Update source is %s\n", pv->update_source);
	vty_out(vty, "\n");
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!pv->af[af].activated)
			continue;
		vty_out(vty, " For address family: %s\n", bgp_af_text_name(af));
		text_filters(vty, pv->peer, af, &pv->af[af]);
		text_policy_missing(vty, &pv->af[af]);
		vty_out(vty, "  %u accepted prefixes\n", pv->af[af].accepted);
		text_maxpfx(vty, &pv->peer->conf.maxpfx[af]);
		vty_out(vty, "\n");
	}
	vty_out(vty, "  Connections established %u; dropped %u\n", pv->established_count,
		pv->dropped_count);
	text_last_reset(vty, pv);
	text_pfx_overflow(vty, pv);
	vty_out(vty, "  %s BGP neighbor may be up to %d hops away.\n",
		pv->link == BGP_LINK_INTERNAL ? "Internal" : "External", pv->max_hops);
	text_security(vty, pv);
	if (pv->have_conn) {
		vty_out(vty, "Local host: %s, Local port: %u\n", pv->local_host, pv->local_port);
		vty_out(vty, "Foreign host: %s, Foreign port: %u\n", pv->remote_host,
			pv->remote_port);
		vty_out(vty, "Nexthop: %s\n", pv->nexthop);
		vty_out(vty, "Nexthop global: %s\n", pv->nexthop_global);
		vty_out(vty, "Nexthop local: %s\n", pv->nexthop_local);
		vty_out(vty, "BGP connection: %s\n",
			pv->shared_network ? "shared network" : "non shared network");
	}
	vty_out(vty, "BGP Connect Retry Timer in Seconds: %u\n", pv->connect_retry);
	if (pv->next_start_ms >= 0)
		vty_out(vty, "Next start timer due in %" PRId64 " seconds\n",
			(pv->next_start_ms + 999) / 1000);
	if (pv->next_connect_ms >= 0)
		vty_out(vty, "Next connect timer due in %" PRId64 " seconds\n",
			(pv->next_connect_ms + 999) / 1000);
	if (pv->password)
		vty_out(vty, "Peer Authentication Enabled\n");
	vty_out(vty, "Read thread: %s  Write thread: %s  FD used: %d\n", pv->read_on ? "on" : "off",
		pv->write_on ? "on" : "off", pv->fd);
	vty_out(vty, "\n");
}

static void text_neighbors_begin(struct bgp_show_ctx *ctx)
{
}

static void text_neighbors_end(struct bgp_show_ctx *ctx, enum bgp_show_end end)
{
	switch (end) {
	case BGP_SHOW_END_NOT_FOUND:
		vty_out(ctx->vty, "%% No such neighbor in this view/vrf\n");
		break;
	case BGP_SHOW_END_NO_PEERS:
		vty_out(ctx->vty, "%% No BGP neighbors found\n");
		break;
	case BGP_SHOW_END_NO_INSTANCE:
		vty_out(ctx->vty, "%% BGP instance not found\n");
		return;
	case BGP_SHOW_END_OK:
		break;
	}
	vty_out(ctx->vty, "\n");
}

const struct bgp_show_output bgp_show_text = {
	.summary_begin = text_summary_begin,
	.summary_af_begin = text_summary_af_begin,
	.summary_peer = text_summary_peer,
	.summary_af_end = text_summary_af_end,
	.summary_end = text_summary_end,
	.neighbors_begin = text_neighbors_begin,
	.neighbor = text_neighbor,
	.neighbors_end = text_neighbors_end,
};
