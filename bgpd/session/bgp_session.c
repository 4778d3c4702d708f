/* SPDX-License-Identifier: ISC */
/*
 * A peer's session: its two connection slots, peer-wide timers, collision resolution
 * (RFC 4271 6.8), the Established bookkeeping towards the RIB, and the one place where a
 * session's resources are released (bgp_session_free()).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_closer.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/event.h"

DEFINE_MTYPE(BGP_SESSION, "BGP session");
DEFINE_MTYPE(BGP_IBUF, "BGP input buffer");
DEFINE_MTYPE(BGP_OBUF, "BGP output queue");

/* FRR's peer_down_str texts, so that operators and scripts see familiar reasons. */
static const char *const down_str[BGP_DOWN_MAX] = {
	[BGP_DOWN_NONE] = "",
	[BGP_DOWN_ROUTER_ID] = "Router ID changed",
	[BGP_DOWN_REMOTE_AS] = "Remote AS changed",
	[BGP_DOWN_UPDATE_SOURCE] = "Update source change",
	[BGP_DOWN_AF_ACTIVATE] = "Address family activated",
	[BGP_DOWN_ADMIN_SHUTDOWN] = "Admin. shutdown",
	[BGP_DOWN_USER_RESET] = "User reset",
	[BGP_DOWN_NOTIFY_RECEIVED] = "BGP Notification received",
	[BGP_DOWN_NOTIFY_SENT] = "BGP Notification send",
	[BGP_DOWN_CLOSED] = "Peer closed the session",
	[BGP_DOWN_NEIGHBOR_DELETE] = "Neighbor deleted",
	[BGP_DOWN_PASSIVE_CHANGE] = "Passive config change",
	[BGP_DOWN_MULTIHOP_CHANGE] = "Multihop config change",
	[BGP_DOWN_CONFIG_CHANGE] = "Capability changed",
	[BGP_DOWN_SOCKET_ERROR] = "Socket Error",
	[BGP_DOWN_HOLD_EXPIRED] = "BGP Notification send",
	[BGP_DOWN_NO_ROUTER_ID] = "Router ID changed",
	[BGP_DOWN_WAITING_NHT] = "Waiting for NHT",
	[BGP_DOWN_LOCAL_AS] = "Local AS change",
	/* Ours, in FRR's place (its PEER_DOWN_PASSWORD_CHANGE): says why a reset was needed. */
	[BGP_DOWN_PASSWORD_CHANGE] = "Password changed (TCP-MD5 is checked on every segment: "
				     "a new key needs a new connection)",
};

const char *bgp_down_reason_str(enum bgp_down_reason r)
{
	return (unsigned)r < BGP_DOWN_MAX ? down_str[r] : "";
}

static struct event_base *session_base(const struct bgp_peer *peer)
{
	return peer->bgp->base;
}

static int conn_index(const struct bgp_conn *c)
{
	return c == &c->s->conn[0] ? 0 : 1;
}

bool bgp_conn_is_primary(const struct bgp_conn *c)
{
	return conn_index(c) == c->s->primary;
}

static struct bgp_conn *conn_other(struct bgp_conn *c)
{
	return &c->s->conn[!conn_index(c)];
}

struct bgp_conn *bgp_session_primary(const struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;

	return s ? &s->conn[s->primary] : NULL;
}

enum bgp_fsm_state bgp_session_state(const struct bgp_peer *peer)
{
	struct bgp_conn *c = bgp_session_primary(peer);

	return c ? c->state : BGP_ST_IDLE;
}

/* ---- timers ---- */

/*
 * The HoldTimer runs out hold time after the last KEEPALIVE or UPDATE (RFC 4271 6.5; and
 * ROUTE-REFRESH, as FRR). A full table is a million UPDATEs in a few seconds, and re-arming
 * the timer for each (a clock read and a libevent heap operation) cost 1.5% of the
 * announcement's CPU. A message now only moves hold_due_ms, from the clock reading its read
 * took (c->last_read_ms); the armed timer, firing before that, re-arms itself for the rest.
 * It expires when it did before, to the millisecond.
 */
static void hold_arm(struct bgp_conn *c, uint64_t now)
{
	event_timer_add(c->hold_timer, (uint32_t)(c->hold_due_ms > now ? c->hold_due_ms - now : 0),
			0);
	c->hold_armed_ms = c->hold_due_ms;
}

static void hold_timer_cb(int fd, short what, void *arg)
{
	struct bgp_conn *c = arg;
	uint64_t now = monotime_ms();

	if (c->hold_due_ms > now) {
		hold_arm(c, now); /* messages came since it was armed */
		return;
	}
	bgp_fsm_event(c, BGP_EV_HOLD_EXPIRES);
}

static void keepalive_timer_cb(int fd, short what, void *arg)
{
	bgp_fsm_event(arg, BGP_EV_KEEPALIVE_EXPIRES);
}

static void connect_retry_cb(int fd, short what, void *arg)
{
	struct bgp_session *s = arg;

	bgp_fsm_event(&s->conn[s->primary], BGP_EV_CONNECT_RETRY_EXPIRES);
}

static void idle_hold_cb(int fd, short what, void *arg)
{
	struct bgp_session *s = arg;

	bgp_fsm_event(&s->conn[s->primary], BGP_EV_IDLE_HOLD_EXPIRES);
}

void bgp_conn_hold_start(struct bgp_conn *c, uint32_t ms)
{
	uint64_t now = monotime_ms();

	c->hold_due_ms = now + ms;
	hold_arm(c, now);
}

void bgp_conn_hold_restart(struct bgp_conn *c)
{
	uint64_t read_ms = c->last_read_ms;

	if (!c->holdtime) {
		event_del(c->hold_timer);
		return;
	}
	if (!read_ms)
		read_ms = monotime_ms(); /* no read yet: only an event handed over by hand */
	c->hold_due_ms = read_ms + (uint64_t)c->holdtime * 1000;
	/* Armed to fire later than the new due time (the large OpenSent timer, a shorter hold
	 * time), or not armed: arm it now. */
	if (c->hold_armed_ms > c->hold_due_ms || !event_pending(c->hold_timer))
		hold_arm(c, monotime_ms());
}

/* RFC 4271 10: the KeepaliveTimer is jittered (0.75..1 of its value). */
void bgp_conn_keepalive_start(struct bgp_conn *c)
{
	if (c->keepalive)
		event_timer_add(c->keepalive_timer, (uint32_t)c->keepalive * 1000, 25);
	else
		event_del(c->keepalive_timer);
}

void bgp_session_connect_retry_start(struct bgp_session *s)
{
	uint32_t secs = s->peer->conf.connect_retry ? s->peer->conf.connect_retry
						    : BGP_DEFAULT_CONNECT_RETRY;

	event_timer_add(s->connect_retry_timer, secs * 1000, 25);
}

void bgp_session_connect_retry_stop(struct bgp_session *s)
{
	event_del(s->connect_retry_timer);
}

void bgp_session_idle_hold_stop(struct bgp_session *s)
{
	event_del(s->idle_hold_timer);
}

int64_t bgp_session_timer_remaining(const struct bgp_peer *peer, enum bgp_timer t)
{
	const struct bgp_session *s = peer->session;
	const struct bgp_conn *c;

	if (!s)
		return -1;
	c = &s->conn[s->primary];
	switch (t) {
	case BGP_TIMER_CONNECT_RETRY:
		return event_timer_remaining(s->connect_retry_timer);
	case BGP_TIMER_IDLE_HOLD:
		return event_timer_remaining(s->idle_hold_timer);
	case BGP_TIMER_HOLD: {
		uint64_t now = monotime_ms();

		if (!event_pending(c->hold_timer))
			return -1;
		return c->hold_due_ms > now ? (int64_t)(c->hold_due_ms - now) : 0;
	}
	case BGP_TIMER_KEEPALIVE:
		return event_timer_remaining(c->keepalive_timer);
	case BGP_TIMER_SEND_HOLD:
		return event_timer_remaining(c->send_hold_timer);
	}
	return -1;
}

/* ---- connections ---- */

static void conn_init(struct bgp_session *s, struct bgp_conn *c)
{
	struct event_base *base = session_base(s->peer);

	memset(c, 0, sizeof(*c));
	c->s = s;
	c->fd = -1;
	c->state = BGP_ST_IDLE;
	TAILQ_INIT(&c->obuf);
	c->hold_timer = event_timer_new(base, hold_timer_cb, c);
	c->keepalive_timer = event_timer_new(base, keepalive_timer_cb, c);
	bgp_conn_send_hold_init(c, base);
}

void bgp_conn_close(struct bgp_conn *c)
{
	bgp_conn_connect_cancel(c);
	bgp_conn_io_stop(c);
	if (c->fd >= 0) {
		bgp_closer_close(c->s->peer->bgp->base, c->fd);
		c->fd = -1;
	}
	event_del(c->hold_timer);
	event_del(c->keepalive_timer);
	bgp_conn_send_hold_stop(c);
	c->open_rcvd = false;
	c->holdtime = 0;
	c->keepalive = 0;
	c->ext_msg = false;
	c->gen++;
}

void bgp_conn_abort(struct bgp_conn *c)
{
	bgp_conn_connect_cancel(c);
	bgp_conn_io_stop(c);
	if (c->fd >= 0) {
		close(c->fd); /* no drain: nothing more is read from a socket in doubt */
		c->fd = -1;
	}
}

void bgp_conn_set_down_reason(struct bgp_conn *c, enum bgp_down_reason why)
{
	if (c->down_reason == BGP_DOWN_NONE)
		c->down_reason = why;
}

/* Addresses of a connected socket, for show and for next-hop-self. */
void bgp_conn_take_names(struct bgp_conn *c)
{
	struct bgp_session *s = c->s;
	int r = kernel_sock_names(c->fd, &c->local, &c->lport, &c->remote, &c->rport);

	if (r < 0) {
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, s->peer,
			       "cannot read the socket's addresses (fd %d): %s", c->fd,
			       strerror(-r));
		return;
	}
	s->local = c->local;
	s->remote = c->remote;
	s->lport = c->lport;
	s->rport = c->rport;
	s->have_addrs = true;
}

/* ---- lifecycle ---- */

static void kick_cb(int fd, short what, void *arg);

void bgp_session_new(struct bgp_peer *peer)
{
	struct bgp_session *s = XCALLOC(MTYPE_BGP_SESSION, sizeof(*s));
	struct event_base *base = session_base(peer);

	s->peer = peer;
	peer->session = s;
	conn_init(s, &s->conn[0]);
	conn_init(s, &s->conn[1]);
	s->primary = 0;
	s->connect_retry_timer = event_timer_new(base, connect_retry_cb, s);
	s->idle_hold_timer = event_timer_new(base, idle_hold_cb, s);
	s->kick_ev = event_defer_new(base, kick_cb, s);
	bgp_max_prefix_session_init(s, base);
	s->idle_hold_ms = BGP_IDLE_HOLD_MIN_MS;
	bgp_session_retry_prompt(s);
	s->stop_subcode = BGP_ERR_CEASE_ADMIN_RESET;
	bgp_session_kick(peer);
}

void bgp_session_free(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	int i;

	if (!s)
		return;
	if (s->conn[0].state != BGP_ST_IDLE || s->conn[1].state != BGP_ST_IDLE)
		bgp_session_stop(peer, BGP_ERR_CEASE_PEER_DECONFIGURED, BGP_DOWN_NEIGHBOR_DELETE);
	for (i = 0; i < 2; i++) {
		bgp_conn_close(&s->conn[i]);
		event_free(s->conn[i].hold_timer);
		event_free(s->conn[i].keepalive_timer);
		event_free(s->conn[i].send_hold_timer);
	}
	event_free(s->connect_retry_timer);
	event_free(s->idle_hold_timer);
	event_free(s->kick_ev);
	event_free(s->pfx_stop_ev);
	event_free(s->pfx_restart_ev);
	XFREE(MTYPE_BGP_SESSION, s);
	peer->session = NULL;
}

static bool peer_any_af(const struct bgp_peer *peer)
{
	int af;

	for (af = 0; af < BGP_AF_MAX; af++)
		if (bgp_peer_af_activated(peer, af))
			return true;
	return false;
}

/* Fail closed: settings the kernel cannot enforce keep the session down (logged once). */
static bool security_supported(const struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	bool pw = peer->conf.password && peer->conf.password[0];
	char msg[1200];

	if (bgp_peer_security_check(&peer->conf.addr, pw, peer->conf.ttl_security_hops, msg,
				    sizeof(msg)) == 0) {
		if (s)
			s->sec_refused_warned = false;
		return true;
	}
	if (s && !s->sec_refused_warned) {
		bgp_peer_err(peer, "session held down: %s", msg);
		s->sec_refused_warned = true;
	}
	return false;
}

bool bgp_session_may_start(const struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;

	if (peer->conf.shutdown || !peer->bgp)
		return false;
	if (peer->conf.addr.family != AF_INET && peer->conf.addr.family != AF_INET6)
		return false;
	if (peer->conf.remote_as_type == BGP_REMOTE_AS_SPECIFIED && peer->conf.remote_as == 0)
		return false;
	if (!peer_any_af(peer))
		return false;
	if (peer->bgp->router_id.s_addr == INADDR_ANY) {
		if (s && !s->no_router_id_warned) {
			bgp_peer_warn(peer,
				      "no BGP router-id: configure `bgp router-id A.B.C.D` or "
				      "an IPv4 address on an interface; session not started");
			s->no_router_id_warned = true;
		}
		return false;
	}
	if (s)
		s->no_router_id_warned = false;
	if (s && s->pfx_overflow)
		return false; /* maximum-prefix: until `clear bgp` or the restart timer */
	if (!security_supported(peer))
		return false;
	return true;
}

void bgp_session_start(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	struct bgp_conn *c;

	if (!s)
		return;
	c = &s->conn[s->primary];
	if (c->state != BGP_ST_IDLE || event_pending(s->idle_hold_timer))
		return;
	if (!bgp_session_may_start(peer))
		return;
	/* Started by the operator or the configuration (a clear, a change): retry promptly. */
	bgp_session_retry_prompt(s);
	bgp_fsm_event(c, peer->conf.passive ? BGP_EV_MANUAL_START_PASSIVE : BGP_EV_MANUAL_START);
}

void bgp_session_stop(struct bgp_peer *peer, uint8_t cease_subcode, enum bgp_down_reason why)
{
	bgp_session_stop_data(peer, cease_subcode, NULL, 0, why);
}

void bgp_session_stop_data(struct bgp_peer *peer, uint8_t cease_subcode, const uint8_t *data,
			   size_t len, enum bgp_down_reason why)
{
	struct bgp_session *s = peer->session;
	struct bgp_conn *c, *other;

	if (!s)
		return;
	c = &s->conn[s->primary];
	other = conn_other(c);
	s->stop_subcode = cease_subcode;
	s->stop_data_len = (uint8_t)MIN(len, sizeof(s->stop_data));
	if (s->stop_data_len)
		memcpy(s->stop_data, data, s->stop_data_len);
	if (other->state != BGP_ST_IDLE)
		bgp_fsm_event(other, BGP_EV_MANUAL_STOP);
	bgp_session_idle_hold_stop(s);
	if (c->state != BGP_ST_IDLE) {
		bgp_conn_set_down_reason(c, why);
		bgp_fsm_event(c, BGP_EV_MANUAL_STOP);
	}
	s->stop_data_len = 0; /* the data was for this NOTIFICATION only */
	/* Shut down, deleted, reset by the operator, over its maximum-prefix: what graceful
	 * restart kept from an earlier loss goes too, as FRR. */
	if (bgp_session_stop_flushes(cease_subcode))
		rib_peer_gr_flush(peer);
}

void bgp_session_reset(struct bgp_peer *peer, uint8_t cease_subcode, enum bgp_down_reason why)
{
	bgp_session_stop(peer, cease_subcode, why);
	bgp_session_kick(peer);
}

void bgp_session_kick(struct bgp_peer *peer)
{
	if (peer->session)
		event_defer(peer->session->kick_ev);
}

/* Bring the session in line with the configuration: start it, or stop it if it may not run. */
static void kick_cb(int fd, short what, void *arg)
{
	struct bgp_session *s = arg;
	struct bgp_peer *peer = s->peer;
	struct bgp_conn *c = &s->conn[s->primary];

	if (!bgp_session_may_start(peer)) {
		if (c->state != BGP_ST_IDLE || conn_other(c)->state != BGP_ST_IDLE ||
		    event_pending(s->idle_hold_timer)) {
			if (peer->conf.shutdown)
				bgp_session_stop(peer, BGP_ERR_CEASE_ADMIN_SHUTDOWN,
						 BGP_DOWN_ADMIN_SHUTDOWN);
			else
				bgp_session_stop(peer, BGP_ERR_CEASE_CONFIG_CHANGE,
						 BGP_DOWN_CONFIG_CHANGE);
		}
		/* Shown as "Last reset ..., Admin. shutdown" even if it never ran. */
		if (peer->conf.shutdown && s->last_reset != BGP_DOWN_ADMIN_SHUTDOWN) {
			s->last_reset = BGP_DOWN_ADMIN_SHUTDOWN;
			s->last_reset_ms = monotime_ms();
		}
		return;
	}
	bgp_session_start(peer);
}

/* ---- incoming connections ---- */

/* The socket's options were set by bgp_network.c right after accept() (bgp_security.h). */
static int conn_attach_fd(struct bgp_conn *c, int fd)
{
	c->fd = fd;
	c->outgoing = false;
	c->connecting = false;
	bgp_conn_take_names(c);
	return 0;
}

void bgp_session_accept(struct bgp_peer *peer, int fd)
{
	struct bgp_session *s = peer->session;
	struct bgp_conn *c, *other;

	if (!s) {
		close(fd);
		return;
	}
	c = &s->conn[s->primary];
	other = conn_other(c);
	/* RFC 4271 8.2.2: Idle refuses incoming connections. */
	if (c->state == BGP_ST_IDLE || !bgp_session_may_start(peer)) {
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
			       "incoming connection refused: session is Idle%s",
			       peer->conf.shutdown ? " (Admin)" : "");
		bgp_closer_close(peer->bgp->base, fd);
		return;
	}
	if (c->state == BGP_ST_CONNECT || c->state == BGP_ST_ACTIVE) {
		/* The peer was quicker: use its connection, drop our attempt. */
		bgp_conn_close(c);
		if (conn_attach_fd(c, fd) < 0) {
			bgp_conn_close(c);
			return;
		}
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
			       "incoming connection accepted, fd %d", fd);
		bgp_fsm_event(c, BGP_EV_TCP_CONFIRMED);
		return;
	}
	/* OpenSent or later: track it as a second connection until its OPEN (RFC 4271 6.8). */
	if (other->state != BGP_ST_IDLE) {
		bgp_peer_info_limited(peer,
				      "incoming connection refused: already tracking a second one");
		bgp_closer_close(peer->bgp->base, fd);
		return;
	}
	bgp_conn_close(other);
	if (conn_attach_fd(other, fd) < 0) {
		bgp_conn_close(other);
		return;
	}
	other->state = BGP_ST_ACTIVE;
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
		       "incoming connection while %s: tracked as a second connection, fd %d",
		       bgp_fsm_state_str(c->state), fd);
	bgp_fsm_event(other, BGP_EV_TCP_CONFIRMED);
}

/* ---- collision resolution (RFC 4271 6.8) ---- */

bool bgp_session_collision(struct bgp_conn *c)
{
	struct bgp_conn *other = conn_other(c);
	struct bgp_peer *peer = c->s->peer;
	uint32_t local_id, remote_id;
	bool close_outgoing;
	struct bgp_conn *loser;

	if (other->state == BGP_ST_IDLE)
		return false;
	/* A connection that is already Established wins (CollisionDetectEstablishedState off). */
	if (other->state == BGP_ST_ESTABLISHED) {
		bgp_peer_info_limited(peer,
				      "collision: session already Established, dropping the new "
				      "connection");
		return true;
	}
	/* Only a connection in OpenConfirm knows the peer's identifier for sure. */
	if (other->state != BGP_ST_OPENCONFIRM)
		return false;

	if (c->outgoing == other->outgoing) {
		/* Both from the same side (the peer reconnected): the newer one, our second
		 * connection, is the one the peer is still using. */
		loser = bgp_conn_is_primary(c) ? c : other;
	} else {
		local_id = ntohl(peer->bgp->router_id.s_addr);
		remote_id = ntohl(c->nego.remote_id.s_addr);
		/* The connection opened by the speaker with the higher BGP Identifier survives;
		 * identical identifiers (eBGP, RFC 6286 2.3): the higher AS number's survives. */
		if (local_id != remote_id)
			close_outgoing = local_id < remote_id;
		else
			close_outgoing = peer->bgp->asn < c->nego.remote_as;
		loser = c->outgoing == close_outgoing ? c : other;
	}
	bgp_peer_info_limited(peer,
			      "connection collision: keeping the %s connection, closing the %s one",
			      loser->outgoing ? "incoming" : "outgoing",
			      loser->outgoing ? "outgoing" : "incoming");
	if (loser == c)
		return true;
	bgp_fsm_event(other, BGP_EV_COLLISION_DUMP);
	return false;
}

/* ---- Established ---- */

void bgp_conn_negotiated(struct bgp_conn *c)
{
	uint16_t conf_ka = bgp_peer_keepalive(c->s->peer);

	c->holdtime = c->nego.holdtime;
	/* keepalive = min(configured keepalive, hold / 3); hold 0 = no keepalives (RFC 4271
	 * 4.4). A configured 0 falls back to hold / 3: the peer would time out otherwise. */
	c->keepalive = c->holdtime / 3;
	if (conf_ka && conf_ka < c->keepalive)
		c->keepalive = conf_ka;
	if (!c->holdtime)
		c->keepalive = 0;
	c->ext_msg = c->nego.ext_message;
}

/* FRR's %ADJCHANGE line, at notice level with `bgp log-neighbor-changes` (as FRR), otherwise
 * only under `debug bgp neighbor-events`. */
/* A Cease the peer sent on purpose (bgp_cease_is_prompt()), judged by what a Hard Reset carries:
 * a Hard Reset for maximum-prefix is still maximum-prefix. */
static bool cease_prompt(const struct bgp_error *notify)
{
	uint8_t code, subcode;

	bgp_error_inner(notify, &code, &subcode);
	return bgp_cease_is_prompt(code, subcode);
}

static void log_adjchange(const struct bgp_peer *peer, const char *what, const char *reason)
{
	int level = LOG_LVL_NOTICE;

	if (!peer->bgp || !peer->bgp->log_neighbor_changes) {
		if (!DEBUG_ON(BGP_DEBUG_NEIGHBOR_EVENTS))
			return;
		level = LOG_LVL_DEBUG;
	}
	zlog(level, "%%ADJCHANGE: neighbor %s in vrf default %s%s", peer->name, what, reason);
}

void bgp_session_up(struct bgp_conn *c)
{
	struct bgp_session *s = c->s;
	struct bgp_peer *peer = s->peer;
	struct bgp_session_info *info = &s->info;
	struct bgp_conn *other;
	int af;

	/* The Established connection is the peer's; any other one loses the collision. */
	s->primary = conn_index(c);
	other = conn_other(c);
	if (other->state != BGP_ST_IDLE)
		bgp_fsm_event(other, BGP_EV_COLLISION_DUMP);
	bgp_session_connect_retry_stop(s);

	memset(info, 0, sizeof(*info));
	for (af = 0; af < BGP_AF_MAX; af++)
		info->af[af] = c->nego.af[af] && bgp_peer_af_activated(peer, af);
	info->codec.as4 = c->nego.as4;
	info->codec.ebgp = c->nego.ebgp;
	info->codec.local_as = peer->conf.local_as ? peer->conf.local_as : peer->bgp->asn;
	info->codec.peer_as = c->nego.remote_as;
	info->codec.extended_message = c->nego.ext_message;
	info->remote_id = c->nego.remote_id;
	info->remote_as = c->nego.remote_as;
	info->ebgp = c->nego.ebgp;
	info->confed = c->nego.confed;
	info->route_refresh = c->nego.route_refresh;
	info->enhanced_rr = c->nego.enhanced_rr;
	info->local_addr = c->local;
	info->remote_addr = c->remote;
	info->max_msg_size = c->nego.ext_message ? BGP_MAX_EXT_MSG_LEN : BGP_MAX_MSG_LEN;
	bgp_session_info_gr(info, &c->nego);

	s->nego = c->nego;
	s->have_nego = true;
	s->remote_id = c->nego.remote_id;
	s->peer->learned_as = c->nego.remote_as;
	s->holdtime = c->holdtime;
	s->keepalive = c->keepalive;
	s->established = true;
	/* A reason recorded on this connection before it got here (e.g. while it lost a
	 * collision race) is not why the session will go down. */
	c->down_reason = BGP_DOWN_NONE;
	s->established_count++;
	s->uptime_ms = monotime_ms();
	s->uptime_epoch = wallclock_s();
	s->write_blocked = false;
	c->taw_warned = false;
	bgp_session_retry_prompt(s);

	log_adjchange(peer, "Up", "");
	rib_peer_up(peer, info);
}

/* Called after every state change of a connection; the work of entering Idle lives here. */
void bgp_session_state_changed(struct bgp_conn *c, enum bgp_fsm_state from, enum bgp_fsm_event ev)
{
	struct bgp_session *s = c->s;
	struct bgp_peer *peer = s->peer;
	struct bgp_conn *other;
	enum bgp_down_reason why;
	bool was_established = s->established;
	uint64_t now;

	if (c->state != BGP_ST_IDLE)
		return;
	bgp_conn_close(c);
	why = c->down_reason;
	c->down_reason = BGP_DOWN_NONE;
	if (!bgp_conn_is_primary(c))
		return;

	now = monotime_ms();
	if (why == BGP_DOWN_NONE)
		why = ev == BGP_EV_TCP_FAILS ? BGP_DOWN_CLOSED : BGP_DOWN_SOCKET_ERROR;
	if (s->established) {
		uint64_t up_for = now - s->uptime_ms;

		s->established = false;
		s->dropped_count++;
		s->uptime_ms = now;
		s->uptime_epoch = wallclock_s();
		log_adjchange(peer, "Down ", bgp_down_reason_str(why));
		if (bgp_session_gr_covers(s, why))
			rib_peer_down_graceful(peer);
		else
			rib_peer_down(peer);
		/* A session that held for a while was not flapping: forget the back-off. */
		if (up_for >= BGP_IDLE_HOLD_STABLE_MS)
			s->idle_hold_ms = BGP_IDLE_HOLD_MIN_MS;
	}
	s->last_reset = why;
	s->last_reset_ms = now;
	bgp_session_connect_retry_stop(s);

	/* A second connection in progress takes over as the peer's connection. */
	other = conn_other(c);
	if (other->state != BGP_ST_IDLE) {
		s->primary = conn_index(other);
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
			       "second connection (%s) becomes the session's connection",
			       bgp_fsm_state_str(other->state));
		return;
	}
	if (ev == BGP_EV_MANUAL_STOP)
		return;
	if (peer->dynamic) {
		/* FRR: a dynamic neighbor lives as long as its session. */
		bgp_dynamic_session_ended(peer);
		return;
	}
	if (was_established && why == BGP_DOWN_NOTIFY_RECEIVED && s->have_last_notify &&
	    !s->last_notify_sent && cease_prompt(&s->last_notify)) {
		/* An Established session the peer reset or reconfigured on purpose: no sign of
		 * instability, so back promptly and without growing the back-off
		 * (bgp_reconnect.c). A peer that sends such a Cease before Established keeps
		 * refusing us: the back-off below applies. */
		s->idle_hold_ms = BGP_IDLE_HOLD_MIN_MS;
		bgp_session_retry_prompt(s);
		event_timer_add(s->idle_hold_timer, s->idle_hold_ms, 0);
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
			       "restart in %u ms (idle hold; the peer's Cease was administrative)",
			       s->idle_hold_ms);
		return;
	}
	/* IdleHoldTimer with back-off (RFC 4271 8.1.1 DampPeerOscillations): 1 s, doubling
	 * up to 120 s while the session keeps failing; reset by a stable session. */
	event_timer_add(s->idle_hold_timer, s->idle_hold_ms, 0);
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer, "restart in %u ms (idle hold)",
		       s->idle_hold_ms);
	s->idle_hold_ms = MIN(s->idle_hold_ms * 2, BGP_IDLE_HOLD_MAX_MS);
}
