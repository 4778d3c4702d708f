/* SPDX-License-Identifier: ISC */
/*
 * The RFC 4271 section 8 FSM as a table. Each row is one state; an entry is the action and the
 * next state the RFC gives for the event. Where the RFC says "in response to any other event",
 * the row's default applies (bgp_fsm_default[]). An action may change the next state when it
 * fails (a connect() that fails at once) or when configuration decides (a passive peer goes to
 * Active rather than Connect).
 *
 * Our deviations from the RFC text, each for interoperability or robustness:
 *  - Connect + TcpConnectionFails goes to Active, not Idle, and keeps retrying on the
 *    ConnectRetryTimer (as FRR and BIRD do): in Idle the peer would refuse the remote's own
 *    connection until the IdleHoldTimer expired, and two speakers backing off could miss each
 *    other for ever.
 *  - After a failed attempt the ConnectRetryTimer runs for a back-off (1 s doubling up to the
 *    ConnectRetryTime, bgp_reconnect.c), not the full time: a peer reset on purpose is back
 *    in seconds, one that keeps failing is retried as the RFC says.
 *  - A NOTIFICATION received in OpenSent closes the connection without answering with an FSM
 *    Error NOTIFICATION (RFC 4271 lists event 25 among the "other events" there); answering a
 *    NOTIFICATION only adds noise to the peer's log.
 *  - A header or OPEN error detected in Established sends that error's NOTIFICATION rather
 *    than a generic FSM Error: it tells the peer what was wrong.
 *  - A second OPEN on a connection past OpenSent is an FSM Error: with one FSM per
 *    connection, the collision case of RFC 4271 8.2.2 OpenConfirm/Established event 19 is
 *    handled when the other connection's OPEN arrives (act_open).
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"

typedef void (*bgp_fsm_action)(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next);

struct bgp_fsm_entry {
	bgp_fsm_action action;
	enum bgp_fsm_state next;
};

static const char *const state_names[BGP_ST_MAX] = {
	[BGP_ST_IDLE] = "Idle",
	[BGP_ST_CONNECT] = "Connect",
	[BGP_ST_ACTIVE] = "Active",
	[BGP_ST_OPENSENT] = "OpenSent",
	[BGP_ST_OPENCONFIRM] = "OpenConfirm",
	[BGP_ST_ESTABLISHED] = "Established",
};

static const char *const event_names[BGP_EV_MAX] = {
	[BGP_EV_MANUAL_START] = "ManualStart",
	[BGP_EV_MANUAL_STOP] = "ManualStop",
	[BGP_EV_AUTOMATIC_START] = "AutomaticStart",
	[BGP_EV_MANUAL_START_PASSIVE] = "ManualStart_with_PassiveTcpEstablishment",
	[BGP_EV_AUTOMATIC_START_PASSIVE] = "AutomaticStart_with_PassiveTcpEstablishment",
	[BGP_EV_AUTOMATIC_STOP] = "AutomaticStop",
	[BGP_EV_CONNECT_RETRY_EXPIRES] = "ConnectRetryTimer_Expires",
	[BGP_EV_HOLD_EXPIRES] = "HoldTimer_Expires",
	[BGP_EV_KEEPALIVE_EXPIRES] = "KeepaliveTimer_Expires",
	[BGP_EV_IDLE_HOLD_EXPIRES] = "IdleHoldTimer_Expires",
	[BGP_EV_TCP_CR_ACKED] = "Tcp_CR_Acked",
	[BGP_EV_TCP_CONFIRMED] = "TcpConnectionConfirmed",
	[BGP_EV_TCP_FAILS] = "TcpConnectionFails",
	[BGP_EV_OPEN] = "BGPOpen",
	[BGP_EV_HEADER_ERR] = "BGPHeaderErr",
	[BGP_EV_OPEN_ERR] = "BGPOpenMsgErr",
	[BGP_EV_COLLISION_DUMP] = "OpenCollisionDump",
	[BGP_EV_NOTIF_VER_ERR] = "NotifMsgVerErr",
	[BGP_EV_NOTIF] = "NotifMsg",
	[BGP_EV_KEEPALIVE_MSG] = "KeepAliveMsg",
	[BGP_EV_UPDATE_MSG] = "UpdateMsg",
	[BGP_EV_UPDATE_ERR] = "UpdateMsgErr",
	[BGP_EV_SEND_HOLD_EXPIRES] = "SendHoldTimer_Expires",
};

const char *bgp_fsm_state_str(enum bgp_fsm_state st)
{
	return (unsigned)st < BGP_ST_MAX ? state_names[st] : "Unknown";
}

const char *bgp_fsm_event_str(enum bgp_fsm_event ev)
{
	return (unsigned)ev < BGP_EV_MAX ? event_names[ev] : "Unknown";
}

/* ---- actions ---- */

static void act_none(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
}

/*
 * Idle -> Connect (RFC 4271 8.2.2 Idle, events 1 and 3): initialise, start the
 * ConnectRetryTimer and connect. Passive peers (events 4 and 5, or `neighbor X passive`) only
 * listen and go to Active. A peer that may not run (no router-id, no remote AS) stays Idle.
 */
static void act_start(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_session *s = c->s;

	if (!bgp_conn_is_primary(c) || !bgp_session_may_start(s->peer)) {
		*next = BGP_ST_IDLE;
		return;
	}
	bgp_session_idle_hold_stop(s);
	s->connect_retry_count = 0;
	if (ev == BGP_EV_MANUAL_START_PASSIVE || ev == BGP_EV_AUTOMATIC_START_PASSIVE ||
	    s->peer->conf.passive) {
		*next = BGP_ST_ACTIVE;
		return;
	}
	bgp_session_connect_retry_start(s);
	if (!bgp_session_connected_ok(s) || bgp_conn_connect(c) < 0)
		*next = BGP_ST_ACTIVE;
}

/* Connect/Active + ConnectRetryTimer_Expires: drop any attempt, restart the timer, connect. */
static void act_connect_retry(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_session *s = c->s;

	bgp_conn_close(c);
	bgp_session_connect_retry_start(s);
	if (s->peer->conf.passive || !bgp_session_may_start(s->peer)) {
		*next = BGP_ST_ACTIVE;
		return;
	}
	if (!bgp_session_connected_ok(s) || bgp_conn_connect(c) < 0)
		*next = BGP_ST_ACTIVE;
}

/* Connect/Active + Tcp_CR_Acked/TcpConnectionConfirmed: send OPEN, HoldTimer 4 minutes. */
static void act_tcp_up(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_session *s = c->s;
	bool primary = bgp_conn_is_primary(c);

	if (primary)
		bgp_session_connect_retry_stop(s);
	if (bgp_conn_io_start(c) < 0 || bgp_conn_send_open(c) < 0) {
		bgp_conn_close(c);
		if (primary) {
			bgp_session_connect_retry_after_failure(s);
			*next = BGP_ST_ACTIVE;
		} else {
			*next = BGP_ST_IDLE;
		}
		return;
	}
	bgp_conn_hold_start(c, BGP_OPEN_HOLD_MS);
}

/* Connect + TcpConnectionFails: our deviation, wait in Active for the ConnectRetryTimer, armed
 * with the back-off of bgp_reconnect.c. */
static void act_connect_fail(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	bgp_conn_close(c);
	bgp_session_connect_retry_after_failure(c->s);
}

/* Drop the connection and go Idle, without a NOTIFICATION. */
static void act_close_idle(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	if (ev != BGP_EV_MANUAL_STOP)
		c->s->connect_retry_count++;
	bgp_conn_close(c);
}

/* ManualStop/AutomaticStop with a connection: Cease (the subcode the stopper chose; a shutdown
 * carries the neighbor's shutdown message, RFC 9003), or none (BGP_SESSION_STOP_SILENT: a
 * restarting speaker's stop, which its peers take for a restart). */
static void act_notify_cease(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	if (c->s->stop_subcode == BGP_SESSION_STOP_SILENT) {
		bgp_conn_close(c);
		return;
	}
	bgp_conn_send_cease(c, c->s->stop_subcode, c->s->stop_data_len ? c->s->stop_data : NULL,
			    c->s->stop_data_len);
	bgp_conn_close(c);
}

/* HoldTimer_Expires: NOTIFICATION Hold Timer Expired (RFC 4271 6.5). */
static void act_hold_expired(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_error err;

	bgp_error_set(&err, BGP_ERR_HOLD_TIMER, 0, NULL, 0, NULL);
	bgp_peer_warn(c->s->peer, "hold timer expired (%u s without a message)%s", c->holdtime,
		      bgp_conn_is_primary(c) ? "" : " on the colliding connection");
	bgp_conn_send_notify(c, &err);
	c->s->connect_retry_count++;
	bgp_conn_close(c);
}

/* SendHoldTimer_Expires (RFC 9687 4): the peer read nothing of ours for the SendHoldTime.
 * The NOTIFICATION is best effort: bgp_conn_write_now() drops the queue and tries once. */
static void act_send_hold_expired(struct bgp_conn *c, enum bgp_fsm_event ev,
				  enum bgp_fsm_state *next)
{
	struct bgp_error err;

	bgp_error_set(&err, BGP_ERR_SEND_HOLD_TIMER, 0, NULL, 0, NULL);
	bgp_peer_warn(c->s->peer,
		      "send hold timer expired: the peer read nothing of ours for %u s "
		      "(%zu bytes waiting)%s; closing the connection",
		      bgp_conn_send_hold_ms(c) / 1000, c->oqueued,
		      bgp_conn_is_primary(c) ? "" : " on the colliding connection");
	bgp_conn_send_notify(c, &err);
	c->s->connect_retry_count++;
	bgp_conn_close(c);
}

/* Header, OPEN, UPDATE errors: the NOTIFICATION the parser asked for (in c->err). */
static void act_notify_err(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	bgp_conn_send_notify(c, &c->err);
	c->s->connect_retry_count++;
	bgp_conn_close(c);
}

/* An event the state does not expect: FSM Error with the RFC 6608 subcode of the state. */
static void act_fsm_error(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_error err;
	uint8_t sub = 0;

	switch (c->state) {
	case BGP_ST_OPENSENT:
		sub = BGP_ERR_FSM_UNEXPECTED_OPENSENT;
		break;
	case BGP_ST_OPENCONFIRM:
		sub = BGP_ERR_FSM_UNEXPECTED_OPENCONFIRM;
		break;
	case BGP_ST_ESTABLISHED:
		sub = BGP_ERR_FSM_UNEXPECTED_ESTABLISHED;
		break;
	default:
		break;
	}
	bgp_error_set(&err, BGP_ERR_FSM, sub, NULL, 0, NULL);
	bgp_peer_warn(c->s->peer, "%s unexpected in %s, sending FSM Error", bgp_fsm_event_str(ev),
		      bgp_fsm_state_str(c->state));
	bgp_conn_send_notify(c, &err);
	c->s->connect_retry_count++;
	bgp_conn_close(c);
}

/* OpenCollisionDump: Cease / Connection Collision Resolution (RFC 4271 6.8, RFC 4486). */
static void act_collision_dump(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	struct bgp_error err;

	bgp_error_set(&err, BGP_ERR_CEASE, BGP_ERR_CEASE_COLLISION, NULL, 0, NULL);
	bgp_conn_send_notify(c, &err);
	bgp_conn_close(c);
}

/* OpenSent + TcpConnectionFails: close, restart ConnectRetryTimer (with the back-off of
 * bgp_reconnect.c: a peer still tearing down its last session closes our first attempt),
 * listen (Active). */
static void act_opensent_tcp_fail(struct bgp_conn *c, enum bgp_fsm_event ev,
				  enum bgp_fsm_state *next)
{
	bgp_conn_close(c);
	if (!bgp_conn_is_primary(c)) {
		*next = BGP_ST_IDLE;
		return;
	}
	bgp_session_connect_retry_after_failure(c->s);
}

/*
 * OpenSent + BGPOpen (already checked against our configuration when it was read): resolve a
 * collision (RFC 4271 6.8), set the negotiated timers, send KEEPALIVE.
 */
static void act_open(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	if (bgp_session_collision(c)) {
		/* This connection lost: act_collision_dump's work, then Idle. */
		act_collision_dump(c, ev, next);
		*next = BGP_ST_IDLE;
		return;
	}
	bgp_conn_negotiated(c);
	if (bgp_conn_send_keepalive(c) < 0) {
		bgp_conn_close(c);
		*next = BGP_ST_IDLE;
		return;
	}
	bgp_conn_keepalive_start(c);
	bgp_conn_hold_restart(c);
}

/* OpenConfirm/Established + KeepaliveTimer_Expires. */
static void act_keepalive_send(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	if (bgp_conn_send_keepalive(c) < 0) {
		bgp_conn_close(c);
		*next = BGP_ST_IDLE;
		return;
	}
	bgp_conn_keepalive_start(c);
}

/* OpenConfirm + KeepAliveMsg: the session is up. */
static void act_established(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	bgp_conn_hold_restart(c);
	bgp_session_up(c);
}

/* Established + KeepAliveMsg. */
static void act_keepalive_rcvd(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	bgp_conn_hold_restart(c);
}

/* Established + UpdateMsg: the decoded UPDATE goes to the RIB. */
static void act_update(struct bgp_conn *c, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	bgp_conn_hold_restart(c);
	bgp_session_update(c);
}

/* ---- the table ---- */

#define E(act, st)               \
	{                        \
		act, BGP_ST_##st \
	}

/* Any event a row does not name (RFC 4271 8.2.2 "in response to any other event"). */
static const struct bgp_fsm_entry bgp_fsm_default[BGP_ST_MAX] = {
	[BGP_ST_IDLE] = E(act_none, IDLE),
	[BGP_ST_CONNECT] = E(act_close_idle, IDLE),
	[BGP_ST_ACTIVE] = E(act_close_idle, IDLE),
	[BGP_ST_OPENSENT] = E(act_fsm_error, IDLE),
	[BGP_ST_OPENCONFIRM] = E(act_fsm_error, IDLE),
	[BGP_ST_ESTABLISHED] = E(act_fsm_error, IDLE),
};

static const struct bgp_fsm_entry bgp_fsm_table[BGP_ST_MAX][BGP_EV_MAX] = {
	[BGP_ST_IDLE] = {
		[BGP_EV_MANUAL_START] = E(act_start, CONNECT),
		[BGP_EV_AUTOMATIC_START] = E(act_start, CONNECT),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_start, ACTIVE),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_start, ACTIVE),
		[BGP_EV_IDLE_HOLD_EXPIRES] = E(act_start, CONNECT),
		/* ManualStop, AutomaticStop and everything else are ignored in Idle. */
	},
	[BGP_ST_CONNECT] = {
		[BGP_EV_MANUAL_START] = E(act_none, CONNECT),
		[BGP_EV_AUTOMATIC_START] = E(act_none, CONNECT),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_none, CONNECT),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_none, CONNECT),
		[BGP_EV_MANUAL_STOP] = E(act_close_idle, IDLE),
		[BGP_EV_CONNECT_RETRY_EXPIRES] = E(act_connect_retry, CONNECT),
		[BGP_EV_TCP_CR_ACKED] = E(act_tcp_up, OPENSENT),
		[BGP_EV_TCP_CONFIRMED] = E(act_tcp_up, OPENSENT),
		[BGP_EV_TCP_FAILS] = E(act_connect_fail, ACTIVE), /* deviation, see above */
	},
	[BGP_ST_ACTIVE] = {
		[BGP_EV_MANUAL_START] = E(act_none, ACTIVE),
		[BGP_EV_AUTOMATIC_START] = E(act_none, ACTIVE),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_none, ACTIVE),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_none, ACTIVE),
		[BGP_EV_MANUAL_STOP] = E(act_close_idle, IDLE),
		[BGP_EV_CONNECT_RETRY_EXPIRES] = E(act_connect_retry, CONNECT),
		[BGP_EV_TCP_CR_ACKED] = E(act_tcp_up, OPENSENT),
		[BGP_EV_TCP_CONFIRMED] = E(act_tcp_up, OPENSENT),
		[BGP_EV_TCP_FAILS] = E(act_close_idle, IDLE),
	},
	[BGP_ST_OPENSENT] = {
		[BGP_EV_MANUAL_START] = E(act_none, OPENSENT),
		[BGP_EV_AUTOMATIC_START] = E(act_none, OPENSENT),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_none, OPENSENT),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_none, OPENSENT),
		[BGP_EV_MANUAL_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_AUTOMATIC_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_HOLD_EXPIRES] = E(act_hold_expired, IDLE),
		[BGP_EV_SEND_HOLD_EXPIRES] = E(act_send_hold_expired, IDLE),
		/* A second connection is tracked by the session until its OPEN (6.8). */
		[BGP_EV_TCP_CR_ACKED] = E(act_none, OPENSENT),
		[BGP_EV_TCP_CONFIRMED] = E(act_none, OPENSENT),
		[BGP_EV_TCP_FAILS] = E(act_opensent_tcp_fail, ACTIVE),
		[BGP_EV_OPEN] = E(act_open, OPENCONFIRM),
		[BGP_EV_HEADER_ERR] = E(act_notify_err, IDLE),
		[BGP_EV_OPEN_ERR] = E(act_notify_err, IDLE),
		[BGP_EV_COLLISION_DUMP] = E(act_collision_dump, IDLE),
		[BGP_EV_NOTIF_VER_ERR] = E(act_close_idle, IDLE),
		[BGP_EV_NOTIF] = E(act_close_idle, IDLE), /* deviation, see above */
	},
	[BGP_ST_OPENCONFIRM] = {
		[BGP_EV_MANUAL_START] = E(act_none, OPENCONFIRM),
		[BGP_EV_AUTOMATIC_START] = E(act_none, OPENCONFIRM),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_none, OPENCONFIRM),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_none, OPENCONFIRM),
		[BGP_EV_MANUAL_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_AUTOMATIC_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_HOLD_EXPIRES] = E(act_hold_expired, IDLE),
		[BGP_EV_SEND_HOLD_EXPIRES] = E(act_send_hold_expired, IDLE),
		[BGP_EV_KEEPALIVE_EXPIRES] = E(act_keepalive_send, OPENCONFIRM),
		[BGP_EV_TCP_CR_ACKED] = E(act_none, OPENCONFIRM),
		[BGP_EV_TCP_CONFIRMED] = E(act_none, OPENCONFIRM),
		[BGP_EV_TCP_FAILS] = E(act_close_idle, IDLE),
		[BGP_EV_HEADER_ERR] = E(act_notify_err, IDLE),
		[BGP_EV_OPEN_ERR] = E(act_notify_err, IDLE),
		[BGP_EV_COLLISION_DUMP] = E(act_collision_dump, IDLE),
		[BGP_EV_NOTIF_VER_ERR] = E(act_close_idle, IDLE),
		[BGP_EV_NOTIF] = E(act_close_idle, IDLE),
		[BGP_EV_KEEPALIVE_MSG] = E(act_established, ESTABLISHED),
	},
	[BGP_ST_ESTABLISHED] = {
		[BGP_EV_MANUAL_START] = E(act_none, ESTABLISHED),
		[BGP_EV_AUTOMATIC_START] = E(act_none, ESTABLISHED),
		[BGP_EV_MANUAL_START_PASSIVE] = E(act_none, ESTABLISHED),
		[BGP_EV_AUTOMATIC_START_PASSIVE] = E(act_none, ESTABLISHED),
		[BGP_EV_MANUAL_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_AUTOMATIC_STOP] = E(act_notify_cease, IDLE),
		[BGP_EV_HOLD_EXPIRES] = E(act_hold_expired, IDLE),
		[BGP_EV_SEND_HOLD_EXPIRES] = E(act_send_hold_expired, IDLE),
		[BGP_EV_KEEPALIVE_EXPIRES] = E(act_keepalive_send, ESTABLISHED),
		[BGP_EV_TCP_CR_ACKED] = E(act_none, ESTABLISHED),
		[BGP_EV_TCP_CONFIRMED] = E(act_none, ESTABLISHED),
		[BGP_EV_TCP_FAILS] = E(act_close_idle, IDLE),
		[BGP_EV_HEADER_ERR] = E(act_notify_err, IDLE), /* deviation, see above */
		[BGP_EV_OPEN_ERR] = E(act_notify_err, IDLE),   /* deviation, see above */
		[BGP_EV_COLLISION_DUMP] = E(act_collision_dump, IDLE),
		[BGP_EV_NOTIF_VER_ERR] = E(act_close_idle, IDLE),
		[BGP_EV_NOTIF] = E(act_close_idle, IDLE),
		[BGP_EV_KEEPALIVE_MSG] = E(act_keepalive_rcvd, ESTABLISHED),
		[BGP_EV_UPDATE_MSG] = E(act_update, ESTABLISHED),
		[BGP_EV_UPDATE_ERR] = E(act_notify_err, IDLE),
	},
};

#undef E

static const struct bgp_fsm_entry *fsm_entry(enum bgp_fsm_state st, enum bgp_fsm_event ev)
{
	const struct bgp_fsm_entry *e = &bgp_fsm_table[st][ev];

	return e->action ? e : &bgp_fsm_default[st];
}

bool bgp_fsm_lookup(enum bgp_fsm_state st, enum bgp_fsm_event ev, enum bgp_fsm_state *next)
{
	if ((unsigned)st >= BGP_ST_MAX || (unsigned)ev >= BGP_EV_MAX)
		return false;
	*next = fsm_entry(st, ev)->next;
	return true;
}

/*
 * Which debug flag shows a transition: every state change and every event under
 * neighbor-events, except the steady traffic of an Established session (keepalives under
 * `debug bgp keepalives`; UPDATEs are logged by the update code under `debug bgp updates`).
 */
static uint64_t fsm_debug_flag(enum bgp_fsm_event ev, enum bgp_fsm_state from,
			       enum bgp_fsm_state next)
{
	if (from != next)
		return BGP_DEBUG_NEIGHBOR_EVENTS;
	switch (ev) {
	case BGP_EV_KEEPALIVE_MSG:
	case BGP_EV_KEEPALIVE_EXPIRES:
		return BGP_DEBUG_KEEPALIVES;
	case BGP_EV_UPDATE_MSG:
		return 0;
	default:
		return BGP_DEBUG_NEIGHBOR_EVENTS;
	}
}

enum bgp_fsm_state bgp_fsm_event(struct bgp_conn *c, enum bgp_fsm_event ev)
{
	const struct bgp_fsm_entry *e;
	enum bgp_fsm_state from = c->state, next;
	struct bgp_peer *peer = c->s->peer;
	bool primary = bgp_conn_is_primary(c);
	int fd = c->fd;

	if ((unsigned)ev >= BGP_EV_MAX)
		return c->state;
	e = fsm_entry(from, ev);
	next = e->next;
	e->action(c, ev, &next);
	if (DEBUG_ON(fsm_debug_flag(ev, from, next)))
		bgp_peer_log(LOG_LVL_DEBUG, peer, "[FSM] %s (%s->%s), fd %d%s",
			     bgp_fsm_event_str(ev), bgp_fsm_state_str(from),
			     bgp_fsm_state_str(next), fd, primary ? "" : " (second connection)");
	c->state = next;
	if (next != from)
		bgp_session_state_changed(c, from, ev);
	return c->state;
}
