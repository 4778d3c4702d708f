/* SPDX-License-Identifier: ISC */
/*
 * The BGP finite state machine of RFC 4271 section 8, as a table:
 * [state][event] -> { action, next state }.
 *
 * One FSM runs per connection (struct bgp_conn). A peer normally has one connection, its
 * "primary", whose state is the peer's state. While the primary is in OpenSent or later, a
 * second, incoming connection may be tracked until its OPEN arrives and the collision is
 * resolved (RFC 4271 6.8); it runs the same table. Peer-wide timers (ConnectRetry, IdleHold)
 * deliver their events to the primary.
 *
 * Every transition is logged with the peer under `debug bgp neighbor-events`; entering and
 * leaving Established is logged at notice level as FRR's "%ADJCHANGE".
 */
#ifndef SKUA_BGP_FSM_H
#define SKUA_BGP_FSM_H

#include <stdbool.h>
#include <stdint.h>

struct bgp_conn;

enum bgp_fsm_state {
	BGP_ST_IDLE = 0,
	BGP_ST_CONNECT,
	BGP_ST_ACTIVE,
	BGP_ST_OPENSENT,
	BGP_ST_OPENCONFIRM,
	BGP_ST_ESTABLISHED,
	BGP_ST_MAX,
};

/* RFC 4271 8.1 events (their numbers in the comments); the optional damping and DelayOpen
 * events (6, 7, 12, 20) and the TCP validity events (14, 15) are not implemented. */
enum bgp_fsm_event {
	BGP_EV_MANUAL_START = 0,	/* 1 */
	BGP_EV_MANUAL_STOP,		/* 2 */
	BGP_EV_AUTOMATIC_START,		/* 3 */
	BGP_EV_MANUAL_START_PASSIVE,	/* 4 ManualStart_with_PassiveTcpEstablishment */
	BGP_EV_AUTOMATIC_START_PASSIVE, /* 5 AutomaticStart_with_PassiveTcpEstablishment */
	BGP_EV_AUTOMATIC_STOP,		/* 8 */
	BGP_EV_CONNECT_RETRY_EXPIRES,	/* 9 ConnectRetryTimer_Expires */
	BGP_EV_HOLD_EXPIRES,		/* 10 HoldTimer_Expires */
	BGP_EV_KEEPALIVE_EXPIRES,	/* 11 KeepaliveTimer_Expires */
	BGP_EV_IDLE_HOLD_EXPIRES,	/* 13 IdleHoldTimer_Expires */
	BGP_EV_TCP_CR_ACKED,		/* 16 Tcp_CR_Acked: our connect() completed */
	BGP_EV_TCP_CONFIRMED,		/* 17 TcpConnectionConfirmed: we accepted one */
	BGP_EV_TCP_FAILS,		/* 18 TcpConnectionFails */
	BGP_EV_OPEN,			/* 19 BGPOpen (a valid OPEN) */
	BGP_EV_HEADER_ERR,		/* 21 BGPHeaderErr */
	BGP_EV_OPEN_ERR,		/* 22 BGPOpenMsgErr */
	BGP_EV_COLLISION_DUMP,		/* 23 OpenCollisionDump */
	BGP_EV_NOTIF_VER_ERR,		/* 24 NotifMsgVerErr */
	BGP_EV_NOTIF,			/* 25 NotifMsg */
	BGP_EV_KEEPALIVE_MSG,		/* 26 KeepAliveMsg */
	BGP_EV_UPDATE_MSG,		/* 27 UpdateMsg */
	BGP_EV_UPDATE_ERR,		/* 28 UpdateMsgErr */
	BGP_EV_SEND_HOLD_EXPIRES,	/* 29 SendHoldTimer_Expires (RFC 9687 4) */
	BGP_EV_MAX,
};

/* FRR's names: "Idle", "Connect", "Active", "OpenSent", "OpenConfirm", "Established". */
const char *bgp_fsm_state_str(enum bgp_fsm_state st);
/* RFC names for logs: "ManualStart", "HoldTimer_Expires", ... */
const char *bgp_fsm_event_str(enum bgp_fsm_event ev);

/*
 * Run one event on a connection: look up [conn state][event], run the action, enter the next
 * state. Returns the new state. Safe to call from any callback; an action that closes the
 * connection leaves it in Idle (the connection's generation changes, see bgp_conn.gen).
 */
enum bgp_fsm_state bgp_fsm_event(struct bgp_conn *conn, enum bgp_fsm_event ev);

/* The table entry for tests: true when [st][ev] is a defined transition and *next is set. */
bool bgp_fsm_lookup(enum bgp_fsm_state st, enum bgp_fsm_event ev, enum bgp_fsm_state *next);

#endif /* SKUA_BGP_FSM_H */
