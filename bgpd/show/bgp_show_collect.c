/* SPDX-License-Identifier: ISC */
/*
 * What the summary and neighbor commands display, collected once per peer into a view so that
 * the text and JSON renderers print the same numbers.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>

#include "bgpd/core/bgp_msg.h"
#include "bgpd/rib/bgp_peer_filter.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "kernel/kernel.h"
#include "lib/event.h"

void bgp_uptime_str(uint64_t elapsed_ms, char *buf, size_t size)
{
	uint64_t t = elapsed_ms / 1000;
	unsigned sec = t % 60, min = (t / 60) % 60, hour = (t / 3600) % 24;
	uint64_t days = t / 86400;

	if (t < 86400)
		snprintf(buf, size, "%02u:%02u:%02u", hour, min, sec);
	else if (t < 7 * 86400)
		snprintf(buf, size, "%ud%02uh%02um", (unsigned)days, hour, min);
	else if (t < 365 * 86400)
		snprintf(buf, size, "%02uw%ud%02uh", (unsigned)(days / 7), (unsigned)(days % 7),
			 hour);
	else
		snprintf(buf, size, "%02uy%02uw%ud", (unsigned)(days / 365),
			 (unsigned)((days % 365) / 7), (unsigned)((days % 365) % 7));
}

const char *bgp_memstr(char *buf, size_t size, size_t bytes)
{
	size_t g = bytes >> 30, m = bytes >> 20, k = bytes >> 10;

	if (bytes == 0)
		return "0 bytes";
	if (bytes == 1)
		return "1 byte";
	if (g > 10)
		snprintf(buf, size, "%zu GB", g + ((bytes >> 29) & 1));
	else if (m > 10)
		snprintf(buf, size, "%zu MiB", m + ((bytes >> 19) & 1));
	else if (k > 10)
		snprintf(buf, size, "%zu KiB", k + ((bytes >> 9) & 1));
	else
		snprintf(buf, size, "%zu bytes", bytes);
	return buf;
}

void bgp_desc_stripped(const char *desc, size_t size, char *buf, size_t bufsize)
{
	size_t i, last_space = size;

	if (size >= bufsize)
		size = bufsize - 1;
	for (i = 0; i < size; i++) {
		if (desc[i] == '\0') {
			buf[i] = '\0';
			return;
		}
		/* Cut at the last word boundary (FRR cuts after a space run's first space). */
		if (i != 0 && desc[i] == ' ' && last_space != i - 1)
			last_space = i;
		buf[i] = desc[i];
	}
	buf[last_space < size ? last_space : size] = '\0';
}

static uint32_t peer_remote_as(const struct bgp_peer *peer)
{
	switch (peer->conf.remote_as_type) {
	case BGP_REMOTE_AS_SPECIFIED:
		return peer->conf.remote_as;
	case BGP_REMOTE_AS_INTERNAL:
		return peer->bgp->asn;
	case BGP_REMOTE_AS_EXTERNAL:
		break;
	}
	return peer->learned_as;
}

static enum bgp_link_type peer_link(const struct bgp_peer *peer)
{
	switch (peer->conf.remote_as_type) {
	case BGP_REMOTE_AS_INTERNAL:
		return BGP_LINK_INTERNAL;
	case BGP_REMOTE_AS_EXTERNAL:
		return BGP_LINK_EXTERNAL;
	case BGP_REMOTE_AS_SPECIFIED:
		break;
	}
	if (!peer->conf.remote_as)
		return BGP_LINK_UNSPECIFIED;
	return peer->conf.remote_as == peer->bgp->asn ? BGP_LINK_INTERNAL : BGP_LINK_EXTERNAL;
}

static void since(uint64_t now, uint64_t then, bool *never, uint64_t *elapsed, char *buf,
		  size_t size)
{
	*never = then == 0;
	*elapsed = then && now > then ? now - then : 0;
	if (*never)
		snprintf(buf, size, "never");
	else
		bgp_uptime_str(*elapsed, buf, size);
}

/* FRR 8.4's names of the RFC 9234 roles (bgp_get_name_by_role()). */
static const char *bgp_role_name(enum bgp_role r)
{
	switch (r) {
	case BGP_ROLE_PROVIDER:
		return "provider";
	case BGP_ROLE_RS_SERVER:
		return "rs-server";
	case BGP_ROLE_RS_CLIENT:
		return "rs-client";
	case BGP_ROLE_CUSTOMER:
		return "customer";
	case BGP_ROLE_PEER:
		return "peer";
	case BGP_ROLE_NONE:
		break;
	}
	return "undefined";
}

static void fill_caps(struct bgp_peer_view *v, const struct bgp_session *s)
{
	const struct bgp_open_local *ours = &s->open_sent;
	const struct bgp_caps *theirs = &s->nego.remote;
	int af;

	v->show_caps = v->established && s->have_nego;
	v->as4.adv = true; /* the codec always sends the 4-octet AS capability */
	v->as4.rcv = theirs->as4;
	v->ext_msg.adv = ours->ext_message;
	v->ext_msg.rcv = theirs->ext_message;
	v->route_refresh.adv = ours->route_refresh;
	v->route_refresh.rcv = theirs->route_refresh || theirs->route_refresh_old;
	v->rr_old = theirs->route_refresh_old;
	v->role.rcv = theirs->role;
	if (v->show_caps && theirs->role) /* the wire value is enum bgp_role's minus one */
		v->remote_role = bgp_role_name((enum bgp_role)(theirs->role_value + 1));
	v->rr_new = theirs->route_refresh;
	v->enhanced_rr.adv = ours->enhanced_rr;
	v->enhanced_rr.rcv = theirs->enhanced_rr;
	for (af = 0; af < BGP_AF_MAX; af++) {
		v->af[af].advertised = ours->af[af];
		v->af[af].received = theirs->mp[af];
	}
}

static void fill_reset(struct bgp_peer_view *v, const struct bgp_session *s, uint64_t now)
{
	bool never;

	v->last_reset = s->last_reset;
	since(now, s->last_reset_ms, &never, &v->last_reset_ms, v->last_reset_str,
	      sizeof(v->last_reset_str));
	if (s->have_last_notify &&
	    (s->last_reset == BGP_DOWN_NOTIFY_SENT || s->last_reset == BGP_DOWN_NOTIFY_RECEIVED)) {
		v->notify_shown = true;
		v->notify_sent = s->last_reset == BGP_DOWN_NOTIFY_SENT;
		/* FRR records the NOTIFICATION a Hard Reset carries, marked as such. */
		v->notify_hard_reset =
			bgp_error_inner(&s->last_notify, &v->notify_code, &v->notify_subcode);
		bgp_error_str(v->notify_code, v->notify_subcode, v->notify_text,
			      sizeof(v->notify_text));
		if (!v->notify_sent)
			snprintf(v->shutdown_msg, sizeof(v->shutdown_msg), "%s",
				 s->rx_shutdown_msg);
	}
}

/* The connection's addresses and the next hops it offers, FRR's way (kernel/conn_nexthops.c):
 * an IPv4 session shows the interface's IPv6 next hops, and an IPv6 session on an interface
 * without IPv4 shows the router-id as its IPv4 next hop, as FRR. */
static void fill_conn(struct bgp_peer_view *v, const struct bgp_peer *peer,
		      const struct bgp_session *s)
{
	const struct bgp_conn *c = &s->conn[s->primary];
	struct kernel_conn_nexthops nh;
	struct ipaddr a;

	v->fd = c->fd;
	v->read_on = c->read_ev && event_pending(c->read_ev);
	v->write_on = c->write_ev && event_pending(c->write_ev);
	v->inq = c->inq;
	v->outq = c->omsgs;
	if (c->fd < 0 || c->connecting || !c->local.family)
		return;
	v->have_conn = true;
	ipaddr_to_str(&c->local, v->local_host, sizeof(v->local_host));
	ipaddr_to_str(&c->remote, v->remote_host, sizeof(v->remote_host));
	v->local_port = c->lport;
	v->remote_port = c->rport;
	kernel_conn_nexthops(&c->local, &c->remote, &nh); /* none found: all zero, not shared */
	if (c->local.family == AF_INET6 && nh.v4.s_addr == INADDR_ANY)
		nh.v4 = v->local_id;
	a.family = AF_INET;
	a.u.v4 = nh.v4;
	ipaddr_to_str(&a, v->nexthop, sizeof(v->nexthop));
	a.family = AF_INET6;
	a.u.v6 = nh.v6_global;
	ipaddr_to_str(&a, v->nexthop_global, sizeof(v->nexthop_global));
	a.u.v6 = nh.v6_local;
	ipaddr_to_str(&a, v->nexthop_local, sizeof(v->nexthop_local));
	v->shared_network = nh.shared_network;
}

/*
 * GTSM and TCP-MD5 as the kernel has them: the minimum and the sending TTL read back from the
 * connection's socket (getsockopt through the kernel layer), in the option family that
 * governs the peer's traffic, and whether the listeners check this peer's handshake.
 */
static void fill_security(struct bgp_peer_view *v, const struct bgp_peer *peer)
{
	const struct bgp_session *s = peer->session;
	bool pw = peer->conf.password && peer->conf.password[0];
	char msg[1200];

	v->gtsm_hops = peer->conf.ttl_security_hops;
	v->min_ttl_conf = bgp_peer_min_ttl(peer);
	v->min_ttl_sock = v->send_ttl_sock = -1;
	v->listener_cover = bgp_network_gtsm_cover(peer);
	v->md5_listener_missing = pw && s && s->listener_md5_failed;
	v->sec_refused = bgp_peer_security_check(&peer->conf.addr, pw, peer->conf.ttl_security_hops,
						 msg, sizeof(msg)) < 0;
	if (v->gtsm_hops)
		v->max_hops = v->gtsm_hops;
	if (s && s->conn[s->primary].fd >= 0) {
		int fd = s->conn[s->primary].fd;
		int min = kernel_minttl_get(fd, peer->conf.addr.family);
		int ttl = kernel_ttl_get(fd, peer->conf.addr.family);

		v->min_ttl_sock = min < 0 ? -1 : min;
		v->send_ttl_sock = ttl < 0 ? -1 : ttl;
	}
}

void bgp_counters_text(const struct kernel_gtsm_counters *c, char *buf, size_t size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < KERNEL_CNT__MAX && used < size; i++) {
		int n;

		if (!c->present[i])
			continue;
		n = snprintf(buf + used, size - used, "%s%s %" PRIu64, used ? ", " : "",
			     kernel_gtsm_counter_name(i), c->value[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

void bgp_counters_json(struct json_writer *w, const char *key, const struct kernel_gtsm_counters *c)
{
	static const char *const names[KERNEL_CNT__MAX] = {
		[KERNEL_CNT_MIN_TTL_DROP] = "tcpMinTtlDrop",
		[KERNEL_CNT_MD5_NOT_FOUND] = "tcpMd5NotFound",
		[KERNEL_CNT_MD5_UNEXPECTED] = "tcpMd5Unexpected",
		[KERNEL_CNT_MD5_FAILURE] = "tcpMd5Failure",
	};

	json_object_open(w, key);
	for (int i = 0; i < KERNEL_CNT__MAX; i++)
		if (c->present[i])
			json_uint(w, names[i], c->value[i]);
	json_object_close(w);
}

void bgp_peer_view_fill(struct bgp_peer_view *v, const struct bgp_peer *peer)
{
	const struct bgp_session *s = peer->session;
	const struct bgp *bgp = peer->bgp;
	uint64_t now = monotime_ms();
	int af, i;

	memset(v, 0, sizeof(*v));
	v->peer = peer;
	v->name = peer->name;
	v->ipv6 = peer->conf.addr.family == AF_INET6;
	v->desc = peer->conf.description;
	v->peer_group = peer->conf.peer_group;
	v->dynamic = peer->dynamic;
	v->remote_as = peer_remote_as(peer);
	v->local_as = bgp_peer_local_as(peer);
	v->link = peer_link(peer);
	v->confed = bgp->confed_id != 0;
	v->confed_member = bgp_peer_is_confed(peer);
	v->admin_down = peer->conf.shutdown;
	v->pfx_overflow = bgp_session_pfx_overflow(peer);
	v->pfx_restart_ms = bgp_session_pfx_restart_remaining(peer);
	v->passive = peer->conf.passive;
	v->state = bgp_session_state(peer);
	v->established = s && s->established;
	v->local_id = bgp->router_id;
	v->local_role = bgp_role_name(peer->conf.local_role);
	v->remote_role = bgp_role_name(BGP_ROLE_NONE); /* fill_caps(): the peer's, if sent */
	v->conf_holdtime = bgp_peer_holdtime(peer);
	v->conf_keepalive = bgp_peer_keepalive(peer);
	v->holdtime = v->conf_holdtime;
	v->keepalive = v->conf_keepalive;
	v->connect_retry =
		peer->conf.connect_retry ? peer->conf.connect_retry : BGP_DEFAULT_CONNECT_RETRY;
	v->password = peer->conf.password && peer->conf.password[0];
	v->max_hops = bgp_peer_plain_ttl(peer); /* ttl-security hops instead: fill_security() */
	v->fd = -1;
	v->next_connect_ms = v->next_start_ms = -1;
	if (peer->conf.update_source.family)
		ipaddr_to_str(&peer->conf.update_source, v->update_source,
			      sizeof(v->update_source));
	else if (peer->conf.update_source_ifname)
		snprintf(v->update_source, sizeof(v->update_source), "%s",
			 peer->conf.update_source_ifname);
	for (af = 0; af < BGP_AF_MAX; af++) {
		v->af[af].activated = bgp_peer_af_activated(peer, af);
		for (i = 0; i < BGP_DIR_MAX; i++)
			v->af[af].policy_missing[i] = bgp_peer_policy_missing(
				peer, bgp_peer_is_ebgp(peer) || bgp_peer_is_confed(peer), af,
				(enum bgp_dir)i);
	}
	fill_security(v, peer);
	bgp_gr_view_fill(&v->gr, peer, v->established);
	snprintf(v->up_str, sizeof(v->up_str), "never");
	snprintf(v->last_read_str, sizeof(v->last_read_str), "never");
	snprintf(v->last_write_str, sizeof(v->last_write_str), "never");
	snprintf(v->last_reset_str, sizeof(v->last_reset_str), "never");
	v->up_never = v->read_never = v->write_never = true;
	if (!s)
		return;

	v->remote_id = s->remote_id;
	since(now, s->uptime_ms, &v->up_never, &v->up_ms, v->up_str, sizeof(v->up_str));
	v->up_epoch = v->up_never ? 0 : wallclock_s() - (int64_t)(v->up_ms / 1000);
	since(now, s->last_read_ms, &v->read_never, &v->last_read_ms, v->last_read_str,
	      sizeof(v->last_read_str));
	since(now, s->last_write_ms, &v->write_never, &v->last_write_ms, v->last_write_str,
	      sizeof(v->last_write_str));
	if (v->established) {
		v->holdtime = s->holdtime;
		v->keepalive = s->keepalive;
	}
	fill_caps(v, s);
	for (af = 0; af < BGP_AF_MAX; af++) {
		v->af[af].negotiated = v->established && s->info.af[af];
		if (v->af[af].negotiated) {
			v->af[af].accepted = rib_peer_accepted(peer, af);
			v->af[af].sent = rib_peer_sent(peer, af);
			v->af[af].table_version = rib_af_table_version(bgp, af);
			v->af[af].kept_for_validation =
				!peer->conf.soft_reconfig[af] && rib_adj_in_kept(peer, af);
			v->af[af].default_sent = rib_peer_default_sent(peer, af);
		}
	}
	v->sent = s->sent;
	v->rcvd = s->rcvd;
	for (i = 0; i < BGP_MSG_COUNTERS; i++) {
		v->total_sent += s->sent.count[i];
		v->total_rcvd += s->rcvd.count[i];
	}
	v->established_count = s->established_count;
	v->dropped_count = s->dropped_count;
	fill_reset(v, s, now);
	fill_conn(v, peer, s);
	v->next_connect_ms = bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY);
	v->next_start_ms = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
}

void bgp_summary_view_fill(struct bgp_summary_view *sv, const struct bgp *bgp, enum bgp_af af)
{
	const struct bgp_peer *peer;

	memset(sv, 0, sizeof(*sv));
	sv->af = af;
	sv->router_id = bgp->router_id;
	sv->asn = bgp->asn;
	sv->table_version = rib_af_table_version(bgp, af);
	sv->rib_count = rib_af_count(bgp, af);
	sv->rib_memory = rib_af_memory(bgp, af);
	sv->neighbor_width = 16;
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		int w;

		if (!bgp_peer_af_activated(peer, af))
			continue;
		sv->peer_count++;
		sv->total++;
		sv->dynamic += peer->dynamic;
		if (!peer->session || !peer->session->established || !peer->session->info.af[af])
			sv->failed++;
		w = (int)strlen(peer->name) + 1;
		if (w > sv->neighbor_width)
			sv->neighbor_width = w;
	}
	sv->displayed = sv->total;
	sv->dynamic_limit = bgp_dynamic_limit();
	sv->peer_memory = sv->peer_count * (sizeof(struct bgp_peer) + sizeof(struct bgp_session));
}
