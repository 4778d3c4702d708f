/* SPDX-License-Identifier: ISC */
/*
 * The SendHoldTimer (RFC 9687): a peer that reads nothing of ours for the SendHoldTime is
 * dropped. Without it a peer whose BGP process is stuck while its kernel still ACKs our
 * keepalives' TCP segments (a zero window) keeps the session, and its routes, alive for
 * ever; and everything we owe it waits in our output queue.
 *
 * What is measured: the time during which we had something to write and could write none of
 * it. The timer is armed when the output queue stops being empty, restarted by every write
 * that made progress, and stopped when the queue drains. With keepalives flowing this is the
 * RFC's "time since a message was last sent"; on a quiet session with hold time 0 (no
 * keepalives) it never fires for want of anything to send, which is the RFC's intent.
 *
 * The SendHoldTime: `neighbor X timers send-hold N` (BIRD's `send hold time`), otherwise the
 * RFC 9687 4 default, the greater of 8 minutes and twice the hold time (the negotiated one,
 * or the 4 minutes of OpenSent before an OPEN arrived).
 *
 * On expiry (event SendHoldTimer_Expires, bgp_fsm.c): a NOTIFICATION Send Hold Timer Expired,
 * best effort (the peer is not reading, so it usually cannot be written), and the connection
 * is closed, its output queue freed.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"

uint32_t bgp_conn_send_hold_ms(const struct bgp_conn *c)
{
	const struct bgp_peer *peer = c->s->peer;
	uint32_t hold_s = c->open_rcvd ? c->holdtime : BGP_OPEN_HOLD_MS / 1000;

	if (peer->conf.send_hold_time)
		return (uint32_t)peer->conf.send_hold_time * 1000;
	return MAX(BGP_SEND_HOLD_MIN_DEFAULT_S, 2 * hold_s) * 1000;
}

static void send_hold_cb(int fd, short what, void *arg)
{
	struct bgp_conn *c = arg;

	bgp_fsm_event(c, BGP_EV_SEND_HOLD_EXPIRES);
}

void bgp_conn_send_hold_init(struct bgp_conn *c, struct event_base *base)
{
	c->send_hold_timer = event_timer_new(base, send_hold_cb, c);
}

void bgp_conn_send_hold_progress(struct bgp_conn *c)
{
	if (c->oqueued)
		event_timer_add(c->send_hold_timer, bgp_conn_send_hold_ms(c), 0);
	else
		event_del(c->send_hold_timer);
}

void bgp_conn_send_hold_queued(struct bgp_conn *c)
{
	/* Only the first byte waiting starts the clock: queueing more is no progress. */
	if (!event_pending(c->send_hold_timer))
		event_timer_add(c->send_hold_timer, bgp_conn_send_hold_ms(c), 0);
}

void bgp_conn_send_hold_stop(struct bgp_conn *c)
{
	event_del(c->send_hold_timer);
}
