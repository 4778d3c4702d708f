/* SPDX-License-Identifier: ISC */
/*
 * JSON renderer of the summary and neighbor views, with FRR's key names so that tools written
 * for FRR (topotests' json_cmp, monitoring scripts) read ours. Streamed with lib/json.h: one
 * valid document per command.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/show/bgp_show_neighbor.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/vty.h"

/* FRR's PEER_DOWN_* numbers (lastResetCode), for the reasons we produce. */
static int frr_reset_code(enum bgp_down_reason r)
{
	switch (r) {
	case BGP_DOWN_NONE:
		return 0;
	case BGP_DOWN_ROUTER_ID:
	case BGP_DOWN_NO_ROUTER_ID:
		return 1;
	case BGP_DOWN_REMOTE_AS:
		return 2;
	case BGP_DOWN_UPDATE_SOURCE:
		return 9;
	case BGP_DOWN_AF_ACTIVATE:
		return 10;
	case BGP_DOWN_ADMIN_SHUTDOWN:
		return 11;
	case BGP_DOWN_USER_RESET:
		return 12;
	case BGP_DOWN_NOTIFY_RECEIVED:
		return 13;
	case BGP_DOWN_NOTIFY_SENT:
	case BGP_DOWN_HOLD_EXPIRED:
		return 14;
	case BGP_DOWN_CLOSED:
		return 15;
	case BGP_DOWN_NEIGHBOR_DELETE:
		return 16;
	case BGP_DOWN_CONFIG_CHANGE:
		return 19;
	case BGP_DOWN_PASSIVE_CHANGE:
		return 20;
	case BGP_DOWN_MULTIHOP_CHANGE:
		return 21;
	case BGP_DOWN_SOCKET_ERROR:
		return 34;
	case BGP_DOWN_WAITING_NHT:
		return 27;
	case BGP_DOWN_LOCAL_AS:
		return 3;
	case BGP_DOWN_PASSWORD_CHANGE:
		return 37; /* FRR's PEER_DOWN_PASSWORD_CHANGE */
	case BGP_DOWN_MAX:
		break;
	}
	return 0;
}

/* FRR's peerState for one family, in FRR's order of precedence. */
static const char *peer_state_str(const struct bgp_peer_view *pv, enum bgp_af af)
{
	if (pv->admin_down)
		return "Admin";
	if (pv->pfx_overflow)
		return "PfxCt";
	if (pv->passive)
		return "Passive";
	if (pv->af[af].policy_missing[BGP_DIR_IN] || pv->af[af].policy_missing[BGP_DIR_OUT])
		return "Policy"; /* RFC 8212 */
	return "OK";
}

/* ---- summary ---- */

static void json_summary_begin(struct bgp_show_ctx *ctx)
{
	json_init(&ctx->json, &ctx->vty->out, true);
	if (ctx->titled)
		json_object_open(&ctx->json, NULL);
}

/* `failed` with nothing failed in the family: FRR's three counters instead of the block. */
static bool none_failed(const struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	return ctx->filter == BGP_SUMMARY_FAILED && !sv->displayed;
}

static void json_summary_af_begin(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	struct json_writer *w = &ctx->json;
	char id[INET_ADDRSTRLEN];

	json_object_open(w, ctx->titled ? bgp_af_json_name(sv->af) : NULL);
	if (none_failed(ctx, sv)) {
		json_uint(w, "failedPeersCount", 0);
		json_uint(w, "dynamicPeers", sv->dynamic);
		json_uint(w, "totalPeers", sv->total);
		return;
	}
	inet_ntop(AF_INET, &sv->router_id, id, sizeof(id));
	json_string(w, "routerId", id);
	json_uint(w, "as", sv->asn);
	json_int(w, "vrfId", 0);
	json_string(w, "vrfName", "default");
	json_uint(w, "tableVersion", sv->table_version);
	json_uint(w, "ribCount", sv->rib_count);
	json_uint(w, "ribMemory", sv->rib_memory);
	json_uint(w, "peerCount", sv->peer_count);
	json_uint(w, "peerMemory", sv->peer_memory);
	json_object_open(w, "peers");
}

/* `failed`: FRR's bgp_show_failed_summary() keys. */
static void json_summary_failed_peer(struct json_writer *w, const struct bgp_peer_view *pv)
{
	json_uint(w, "connectionsEstablished", pv->established_count);
	json_uint(w, "connectionsDropped", pv->dropped_count);
	json_string(w, "peerUptime", pv->up_str);
	json_uint(w, "peerUptimeMsec", pv->up_never ? 0 : pv->up_ms / 1000 * 1000);
	if (!pv->up_never)
		json_int(w, "peerUptimeEstablishedEpoch", pv->up_epoch);
	if (pv->notify_shown) {
		json_stringf(w, "lastErrorCodeSubcode", "%02X%02X", pv->notify_code,
			     pv->notify_subcode);
		json_string(w, "lastNotificationReason", pv->notify_text);
		json_bool(w, "lastNotificationHardReset", pv->notify_hard_reset);
	}
	json_string(w, "lastResetDueTo", bgp_down_reason_str(pv->last_reset));
	json_int(w, "lastResetCode", frr_reset_code(pv->last_reset));
}

static void json_summary_peer(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv,
			      const struct bgp_peer_view *pv)
{
	struct json_writer *w = &ctx->json;
	const struct bgp_af_view *af = &pv->af[sv->af];
	const char *state;

	json_object_open(w, pv->name);
	if (ctx->filter == BGP_SUMMARY_FAILED) {
		json_summary_failed_peer(w, pv);
		json_string(w, "idType", pv->ipv6 ? "ipv6" : "ipv4");
		json_object_close(w);
		return;
	}
	json_uint(w, "remoteAs", pv->remote_as);
	json_uint(w, "localAs", pv->local_as);
	json_int(w, "version", 4);
	json_uint(w, "msgRcvd", pv->total_rcvd);
	json_uint(w, "msgSent", pv->total_sent);
	json_uint(w, "tableVersion", af->table_version);
	json_uint(w, "outq", pv->outq);
	json_uint(w, "inq", pv->inq);
	json_string(w, "peerUptime", pv->up_str);
	json_uint(w, "peerUptimeMsec", pv->up_never ? 0 : pv->up_ms / 1000 * 1000);
	if (!pv->up_never)
		json_int(w, "peerUptimeEstablishedEpoch", pv->up_epoch);
	json_uint(w, "pfxRcd", af->accepted);
	json_uint(w, "pfxSnt", af->sent);
	if (pv->admin_down)
		state = "Idle (Admin)";
	else if (pv->pfx_overflow && !pv->established)
		state = "Idle (PfxCt)";
	else
		state = bgp_fsm_state_str(pv->state);
	json_string(w, "state", state);
	json_string(w, "peerState", peer_state_str(pv, sv->af));
	json_uint(w, "connectionsEstablished", pv->established_count);
	json_uint(w, "connectionsDropped", pv->dropped_count);
	if (pv->desc)
		json_string(w, "desc", pv->desc);
	if (pv->dynamic)
		json_bool(w, "dynamicPeer", true);
	json_string(w, "idType", pv->ipv6 ? "ipv6" : "ipv4");
	json_object_close(w);
}

static void json_summary_af_end(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv)
{
	struct json_writer *w = &ctx->json;

	if (!none_failed(ctx, sv)) {
		json_object_close(w); /* peers */
		json_uint(w, "failedPeers", sv->failed);
		json_uint(w, "displayedPeers", sv->displayed);
		json_uint(w, "totalPeers", sv->total);
		json_uint(w, "dynamicPeers", sv->dynamic);
	}
	json_object_close(w);
	ctx->blocks++;
}

static void json_summary_end(struct bgp_show_ctx *ctx, enum bgp_show_end end)
{
	struct json_writer *w = &ctx->json;

	if (!ctx->titled && !ctx->blocks) {
		/* FRR prints an empty object when there is nothing to show. */
		json_object_open(w, NULL);
		json_object_close(w);
	} else if (ctx->titled) {
		json_object_close(w);
	}
	json_end(w);
}

/* ---- neighbors ---- */

static void json_cap(struct json_writer *w, const char *key, struct bgp_cap_view c)
{
	if (c.adv && c.rcv)
		json_string(w, key, "advertisedAndReceived");
	else if (c.adv)
		json_string(w, key, "advertised");
	else if (c.rcv)
		json_string(w, key, "received");
}

static void json_capabilities(struct json_writer *w, const struct bgp_peer_view *pv)
{
	int af;

	if (!pv->show_caps)
		return;
	json_object_open(w, "neighborCapabilities");
	json_cap(w, "4byteAs", pv->as4);
	json_cap(w, "extendedMessage", pv->ext_msg);
	json_cap(w, "role", pv->role);
	if (pv->route_refresh.adv && pv->route_refresh.rcv)
		/* FRR 8.4 names the codes received: advertisedAndReceived{OldNew,Old,New} */
		json_string(w, "routeRefresh",
			    pv->rr_old && pv->rr_new ? "advertisedAndReceivedOldNew"
			    : pv->rr_old	     ? "advertisedAndReceivedOld"
						     : "advertisedAndReceivedNew");
	else
		json_cap(w, "routeRefresh", pv->route_refresh);
	json_cap(w, "enhancedRouteRefresh", pv->enhanced_rr);
	json_object_open(w, "multiprotocolExtensions");
	for (af = 0; af < BGP_AF_MAX; af++) {
		const struct bgp_af_view *a = &pv->af[af];

		if (!a->advertised && !a->received)
			continue;
		json_object_open(w, bgp_af_json_name(af));
		if (a->advertised && a->received)
			json_bool(w, "advertisedAndReceived", true);
		else if (a->advertised)
			json_bool(w, "advertised", true);
		else
			json_bool(w, "received", true);
		json_object_close(w);
	}
	json_object_close(w);
	bgp_show_gr_caps_json(w, pv);
	json_object_close(w);
}

static void json_msg_stats(struct json_writer *w, const struct bgp_peer_view *pv)
{
	json_object_open(w, "messageStats");
	json_uint(w, "depthInq", pv->inq);
	json_uint(w, "depthOutq", pv->outq);
	json_uint(w, "opensSent", pv->sent.count[1]);
	json_uint(w, "opensRecv", pv->rcvd.count[1]);
	json_uint(w, "notificationsSent", pv->sent.count[3]);
	json_uint(w, "notificationsRecv", pv->rcvd.count[3]);
	json_uint(w, "updatesSent", pv->sent.count[2]);
	json_uint(w, "updatesRecv", pv->rcvd.count[2]);
	json_uint(w, "keepalivesSent", pv->sent.count[4]);
	json_uint(w, "keepalivesRecv", pv->rcvd.count[4]);
	json_uint(w, "routeRefreshSent", pv->sent.count[5]);
	json_uint(w, "routeRefreshRecv", pv->rcvd.count[5]);
	json_uint(w, "capabilitySent", pv->sent.count[6]);
	json_uint(w, "capabilityRecv", pv->rcvd.count[6]);
	json_uint(w, "totalSent", pv->total_sent);
	json_uint(w, "totalRecv", pv->total_rcvd);
	json_object_close(w);
}

/* A neighbor's filters in one family, FRR's keys (in, out for each kind). */
static void json_filters(struct json_writer *w, const struct bgp_peer_config *c, enum bgp_af af)
{
	const struct {
		char *const *names; /* [BGP_DIR_MAX] */
		const char *key[BGP_DIR_MAX];
	} kinds[] = {
		{ c->plist[af],
		  { "incomingUpdatePrefixFilterList", "outgoingUpdatePrefixFilterList" } },
		{ c->rmap[af],
		  { "routeMapForIncomingAdvertisements", "routeMapForOutgoingAdvertisements" } },
		{ c->aspath_list[af],
		  { "incomingUpdateAsPathFilterList", "outgoingUpdateAsPathFilterList" } },
	};

	for (size_t k = 0; k < array_size(kinds); k++)
		for (int dir = 0; dir < BGP_DIR_MAX; dir++)
			if (kinds[k].names[dir])
				json_string(w, kinds[k].key[dir], kinds[k].names[dir]);
}

/* neighbor X maximum-prefix, FRR's keys. */
static void json_maxpfx(struct json_writer *w, const struct bgp_maxpfx *m)
{
	if (!m->max)
		return;
	json_uint(w, "prefixAllowedMax", m->max);
	if (m->warning_only)
		json_bool(w, "prefixAllowedMaxWarning", true);
	json_uint(w, "prefixAllowedWarningThresh", m->threshold);
	if (m->restart)
		json_uint(w, "prefixAllowedRestartIntervalMsecs", (uint32_t)m->restart * 60000);
}

static void json_last_reset(struct json_writer *w, const struct bgp_peer_view *pv)
{
	if (pv->last_reset == BGP_DOWN_NONE) {
		json_string(w, "lastReset", "never");
		return;
	}
	json_uint(w, "lastResetTimerMsecs", pv->last_reset_ms / 1000 * 1000);
	if (pv->notify_shown) {
		json_stringf(w, "lastErrorCodeSubcode", "%02X%02X", pv->notify_code,
			     pv->notify_subcode);
		json_string(w, "lastNotificationReason", pv->notify_text);
		json_bool(w, "lastNotificationHardReset", pv->notify_hard_reset);
		/* FRR: the received RFC 9003 communication, in JSON only. */
		if (pv->shutdown_msg[0])
			json_string(w, "lastShutdownDescription", pv->shutdown_msg);
	}
	json_string(w, "lastResetDueTo", bgp_down_reason_str(pv->last_reset));
	json_int(w, "lastResetCode", frr_reset_code(pv->last_reset));
}

/* Ours: GTSM read back from the socket, the listener's coverage, the kernel's counters. */
/* neighbor X send-community: FRR's commAttriSentToNbr, absent when nothing is sent. */
static void json_send_community(struct json_writer *w, uint8_t off)
{
	const char *kind = bgp_send_community_name(!(off & BGP_SEND_COMM_STANDARD),
						   !(off & BGP_SEND_COMM_EXTENDED),
						   !(off & BGP_SEND_COMM_LARGE), false);

	if (kind)
		json_string(w, "commAttriSentToNbr", kind);
}

static void json_security(struct json_writer *w, const struct bgp_peer_view *pv)
{
	json_object_open(w, "gtsm");
	json_bool(w, "enabled", pv->gtsm_hops > 0);
	json_int(w, "hops", pv->gtsm_hops);
	json_int(w, "minTtlConfigured", pv->min_ttl_conf);
	if (pv->min_ttl_sock >= 0) {
		json_int(w, "minTtlSocket", pv->min_ttl_sock);
		json_int(w, "sendTtlSocket", pv->send_ttl_sock);
	}
	json_bool(w, "listenerProtected", pv->listener_cover == BGP_LISTENER_COVER_YES);
	json_object_close(w);
	if (pv->password)
		json_bool(w, "md5ListenerKey", !pv->md5_listener_missing);
	if (pv->sec_refused)
		json_bool(w, "securityUnsupported", true);
	if (pv->have_counters)
		bgp_counters_json(w, "kernelCounters", &pv->counters);
}

static void json_neighbor(struct bgp_show_ctx *ctx, const struct bgp_peer_view *pv)
{
	struct json_writer *w = &ctx->json;
	char rid[INET_ADDRSTRLEN], lid[INET_ADDRSTRLEN];
	int af;

	json_object_open(w, pv->name);
	json_uint(w, "remoteAs", pv->remote_as);
	json_uint(w, "localAs", pv->local_as);
	if (pv->peer->conf.local_as_no_prepend)
		json_bool(w, "localAsNoPrepend", true);
	if (pv->peer->conf.local_as_replace)
		json_bool(w, "localAsReplaceAs", true);
	/* FRR 8.4: with a confederation every link is a "confed" one in JSON. */
	if (pv->link == BGP_LINK_INTERNAL)
		json_bool(w, pv->confed ? "nbrConfedInternalLink" : "nbrInternalLink", true);
	else if (pv->link == BGP_LINK_EXTERNAL)
		json_bool(w, pv->confed ? "nbrConfedExternalLink" : "nbrExternalLink", true);
	else
		json_bool(w, "nbrUnspecifiedLink", true);
	json_string(w, "localRole", pv->local_role);
	json_string(w, "remoteRole", pv->remote_role);
	if (pv->desc)
		json_string(w, "nbrDesc", pv->desc);
	if (pv->peer_group)
		json_string(w, "peerGroup", pv->peer_group);
	if (pv->dynamic)
		json_bool(w, "dynamicPeer", true);
	if (pv->admin_down)
		json_bool(w, "adminShutDown", true);
	json_int(w, "bgpVersion", 4);
	inet_ntop(AF_INET, &pv->remote_id, rid, sizeof(rid));
	inet_ntop(AF_INET, &pv->local_id, lid, sizeof(lid));
	json_string(w, "remoteRouterId", rid);
	json_string(w, "localRouterId", lid);
	if (pv->confed_member)
		json_bool(w, "nbrCommonAdmin", true);
	json_string(w, "bgpState", bgp_fsm_state_str(pv->state));
	if (pv->established) {
		json_uint(w, "bgpTimerUpMsec", pv->up_ms / 1000 * 1000);
		json_string(w, "bgpTimerUpString", pv->up_str);
		json_int(w, "bgpTimerUpEstablishedEpoch", pv->up_epoch);
	} else if (pv->state == BGP_ST_ACTIVE && pv->passive) {
		json_string(w, "bgpStateIs", "passive");
	} else if (pv->state == BGP_ST_ACTIVE && pv->gr.restart_remaining >= 0) {
		json_string(w, "bgpStateIs", "passiveNSF");
	}
	json_uint(w, "bgpTimerLastRead", pv->read_never ? 0 : pv->last_read_ms);
	json_uint(w, "bgpTimerLastWrite", pv->write_never ? 0 : pv->last_write_ms);
	json_uint(w, "bgpTimerConfiguredHoldTimeMsecs", (uint64_t)pv->conf_holdtime * 1000);
	json_uint(w, "bgpTimerConfiguredKeepAliveIntervalMsecs",
		  (uint64_t)pv->conf_keepalive * 1000);
	json_uint(w, "bgpTimerHoldTimeMsecs", (uint64_t)pv->holdtime * 1000);
	json_uint(w, "bgpTimerKeepAliveIntervalMsecs", (uint64_t)pv->keepalive * 1000);
	json_capabilities(w, pv);
	bgp_show_gr_info_json(w, pv);
	json_msg_stats(w, pv);
	json_uint(w, "minBtwnAdvertisementRunsTimerMsecs",
		  (uint32_t)pv->peer->conf.adv_interval * 1000);
	if (pv->update_source[0])
		json_string(w, "updateSource", pv->update_source);
	json_object_open(w, "addressFamilyInfo");
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!pv->af[af].activated)
			continue;
		json_object_open(w, bgp_af_json_name(af));
		if (pv->peer->conf.soft_reconfig[af])
			json_bool(w, "inboundSoftConfigPermit", true);
		else if (pv->af[af].kept_for_validation)
			json_bool(w, "inboundRoutesKeptForValidation", true); /* skua's */
		if (pv->peer->conf.rr_client[af])
			json_bool(w, "routeReflectorClient", true);
		if (pv->peer->conf.nexthop_self[af] != BGP_NHS_OFF)
			json_bool(w,
				  pv->peer->conf.nexthop_self[af] == BGP_NHS_FORCE
					  ? "nextHopSelfForced"
					  : "nextHopSelf",
				  true);
		json_send_community(w, pv->peer->conf.send_comm_off[af]);
		if (pv->peer->conf.default_originate[af]) {
			if (pv->peer->conf.default_rmap[af])
				json_string(w, "defaultRouteMap", pv->peer->conf.default_rmap[af]);
			json_bool(w, pv->af[af].default_sent ? "defaultSent" : "defaultNotSent",
				  true);
		}
		json_filters(w, &pv->peer->conf, af);
		if (pv->af[af].policy_missing[BGP_DIR_IN])
			json_string(w, "inboundEbgpRequiresPolicy",
				    "Inbound updates discarded due to missing policy");
		if (pv->af[af].policy_missing[BGP_DIR_OUT])
			json_string(w, "outboundEbgpRequiresPolicy",
				    "Outbound updates discarded due to missing policy");
		json_uint(w, "acceptedPrefixCounter", pv->af[af].accepted);
		if (pv->af[af].negotiated)
			json_uint(w, "sentPrefixCounter", pv->af[af].sent);
		json_maxpfx(w, &pv->peer->conf.maxpfx[af]);
		json_object_close(w);
	}
	json_object_close(w);
	json_uint(w, "connectionsEstablished", pv->established_count);
	json_uint(w, "connectionsDropped", pv->dropped_count);
	json_last_reset(w, pv);
	if (pv->pfx_overflow) {
		json_bool(w, "prefixesConfigExceedMax", true);
		if (pv->pfx_restart_ms >= 0) {
			json_bool(w, "reducePrefixNumFrom", true);
			json_int(w, "restartInTimerMsec", pv->pfx_restart_ms / 1000 * 1000);
		} else {
			json_bool(w, "reducePrefixNumAndClearIpBgp", true);
		}
	}
	json_int(w,
		 pv->link == BGP_LINK_INTERNAL ? "internalBgpNbrMaxHopsAway"
					       : "externalBgpNbrMaxHopsAway",
		 pv->max_hops);
	json_security(w, pv);
	if (pv->have_conn) {
		json_string(w, "hostLocal", pv->local_host);
		json_uint(w, "portLocal", pv->local_port);
		json_string(w, "hostForeign", pv->remote_host);
		json_uint(w, "portForeign", pv->remote_port);
		json_string(w, "nexthop", pv->nexthop);
		json_string(w, "nexthopGlobal", pv->nexthop_global);
		json_string(w, "nexthopLocal", pv->nexthop_local);
		json_string(w, "bgpConnection",
			    pv->shared_network ? "sharedNetwork" : "nonSharedNetwork");
	} else {
		json_string(w, "hostLocal", "Unknown");
		json_int(w, "portLocal", -1);
		json_string(w, "hostForeign", "Unknown");
		json_int(w, "portForeign", -1);
		json_string(w, "nexthop", "Unknown");
		json_string(w, "nexthopGlobal", "Unknown");
		json_string(w, "nexthopLocal", "Unknown");
	}
	json_uint(w, "connectRetryTimer", pv->connect_retry);
	if (pv->next_start_ms >= 0)
		json_int(w, "nextStartTimerDueInMsecs", pv->next_start_ms);
	if (pv->next_connect_ms >= 0)
		json_int(w, "nextConnectTimerDueInMsecs", pv->next_connect_ms);
	if (pv->password)
		json_int(w, "authenticationEnabled", 1);
	json_string(w, "readThread", pv->read_on ? "on" : "off");
	json_string(w, "writeThread", pv->write_on ? "on" : "off");
	json_object_close(w);
}

static void json_neighbors_begin(struct bgp_show_ctx *ctx)
{
	json_init(&ctx->json, &ctx->vty->out, true);
	json_object_open(&ctx->json, NULL);
}

static void json_neighbors_end(struct bgp_show_ctx *ctx, enum bgp_show_end end)
{
	if (end == BGP_SHOW_END_NOT_FOUND)
		json_bool(&ctx->json, "bgpNoSuchNeighbor", true);
	json_object_close(&ctx->json);
	json_end(&ctx->json);
}

const struct bgp_show_output bgp_show_json = {
	.summary_begin = json_summary_begin,
	.summary_af_begin = json_summary_af_begin,
	.summary_peer = json_summary_peer,
	.summary_af_end = json_summary_af_end,
	.summary_end = json_summary_end,
	.neighbors_begin = json_neighbors_begin,
	.neighbor = json_neighbor,
	.neighbors_end = json_neighbors_end,
};
