/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: a neighbor's session (bgpd/session: the RFC 4271 FSM table, collision
 * resolution with a second connection, timers, stop/start/reset, configuration changes while
 * up) driven by a fuzzer-chosen sequence of events and received messages, with the real RIB
 * behind it. The neighbor is passive; its connections are socketpairs (tests/fuzz/fuzz_session.h),
 * so no packet leaves the process. Everything bgpd sends is checked (fuzz_session.c).
 *
 * Input: byte 0 configures the neighbor (bits 0-1 the AS kind of struct fz_peer_opts, bit 2
 * `timers 30 H` with H from bits 5-7, bit 3 IPv6, bit 4 local-as 65500); then operations, each
 * an opcode byte (low 4 bits: what; bit 4: which of our connections, 0 or 1; bits 5-7 a small
 * argument) followed by its operands:
 *    0 a new connection from the neighbor       1 OPEN: AS 4, hold 2, id 4, capabilities 1
 *    2 KEEPALIVE                                  3 UPDATE: length 2, body
 *    4 NOTIFICATION: code, subcode, length 1, data
 *    5 ROUTE-REFRESH: AFI 2, SAFI 1, subtype 1    6 any type: type 1, length 2, body
 *    7 raw bytes on the wire: length 2, bytes     8 the connection's HoldTimer fires
 *    9 its KeepaliveTimer fires                  10 ConnectRetryTimer fires
 *   11 IdleHoldTimer fires                       12 the neighbor closes the connection
 *   13 operator: argument 0 stop, 1 reset, 2 shutdown, 3 no shutdown, 4 clear maximum-prefix
 *   14 configuration: argument 0-3 hold time (0, 3, 9, 65535), 4 remote-as changes,
 *      5 passive off and on again
 *   15 the loop runs (and any lingering close ends)
 * See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_closer.h"
#include "bgpd/session/bgp_session.h"
#include "tests/fuzz/fuzz_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPS 64 /* every operation runs the loop: keep an input's time bounded */

struct reader {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct reader *r, size_t n)
{
	uint32_t v = 0;

	for (size_t i = 0; i < n; i++) {
		v <<= 8;
		if (r->left) {
			v |= *r->p++;
			r->left--;
		}
	}
	return v;
}

static size_t take_bytes(struct reader *r, size_t want, const uint8_t **out)
{
	size_t n = MIN(want, r->left);

	*out = r->p;
	r->p += n;
	r->left -= n;
	return n;
}

/* The slots of our connections 0 and 1, in the order they were opened. */
static int slots[2];

static void send_msg(int which, uint8_t type, const uint8_t *body, size_t len)
{
	static uint8_t buf[65536 + 19];

	len = MIN(len, sizeof(buf) - 19);
	fz_send(slots[which], buf, fz_msg(buf, type, body, len));
	fz_pump();
}

static void admin(struct bgp_peer *peer, unsigned arg)
{
	switch (arg) {
	case 0:
		bgp_session_stop(peer, BGP_ERR_CEASE_ADMIN_RESET, BGP_DOWN_USER_RESET);
		break;
	case 1:
		bgp_session_reset(peer, BGP_ERR_CEASE_ADMIN_RESET, BGP_DOWN_USER_RESET);
		break;
	case 2:
	case 3:
		peer->conf.shutdown = arg == 2;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
		break;
	default:
		bgp_max_prefix_clear(peer);
		break;
	}
}

static void configure(struct bgp_peer *peer, unsigned arg)
{
	static const uint16_t holds[] = { 0, 3, 9, 65535 };

	if (arg < 4) {
		peer->conf.timers_configured = true;
		peer->conf.keepalive = 1;
		peer->conf.holdtime = holds[arg];
		bgp_peer_config_changed(peer, BGP_PEER_CHG_TIMERS);
	} else if (arg == 4) {
		peer->conf.remote_as = peer->conf.remote_as == 65002 ? 65003 : 65002;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_REMOTE_AS);
	} else {
		peer->conf.passive = false;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_PASSIVE);
		peer->conf.passive = true; /* connect() is refused anyway (fuzz_sandbox.c) */
		bgp_peer_config_changed(peer, BGP_PEER_CHG_PASSIVE);
	}
}

static void fire(struct bgp_peer *peer, unsigned what, int which)
{
	struct bgp_session *s = peer->session;

	if (!s)
		return;
	/* Timers of the session's connection slots: ours 0/1 are the session's conn[0]/[1]
	 * most of the time; either way a running timer fires. */
	switch (what) {
	case 8:
		fz_fire(s->conn[which].hold_timer);
		break;
	case 9:
		fz_fire(s->conn[which].keepalive_timer);
		break;
	case 10:
		fz_fire(s->connect_retry_timer);
		break;
	default:
		fz_fire(s->idle_hold_timer);
		break;
	}
}

static void run_op(struct bgp_peer *peer, struct reader *r, const struct fz_peer_opts *o)
{
	uint8_t op = (uint8_t)take(r, 1), body[8];
	int which = (op >> 4) & 1;
	unsigned arg = op >> 5;
	const uint8_t *p;
	size_t n;

	switch (op & 15) {
	case 0:
		if (!fz_open_slot(slots[which])) {
			fz_close(slots[which]);
			slots[which] = fz_connect(peer);
		}
		break;
	case 1: {
		uint32_t asn = take(r, 4), id;
		uint16_t hold = (uint16_t)take(r, 2);
		uint8_t buf[128];

		id = take(r, 4);
		if (arg & 1)
			asn = fz_peer_as(o); /* most OPENs should be acceptable */
		fz_send(slots[which], buf, fz_open(buf, asn, hold, id, take(r, 1)));
		fz_pump();
		break;
	}
	case 2:
		send_msg(which, 4, NULL, 0);
		break;
	case 3:
		n = take_bytes(r, take(r, 2), &p);
		send_msg(which, 2, p, n);
		break;
	case 4:
		body[0] = (uint8_t)take(r, 1);
		body[1] = (uint8_t)take(r, 1);
		n = take_bytes(r, take(r, 1), &p);
		{
			uint8_t msg[2 + 255];

			memcpy(msg, body, 2);
			memcpy(msg + 2, p, n);
			send_msg(which, 3, msg, n + 2);
		}
		break;
	case 5: {
		uint32_t v = take(r, 4);

		body[0] = (uint8_t)(v >> 24);
		body[1] = (uint8_t)(v >> 16);
		body[2] = (uint8_t)(v >> 8);
		body[3] = (uint8_t)v;
		send_msg(which, 5, body, 4);
		break;
	}
	case 6: {
		uint8_t type = (uint8_t)take(r, 1);

		n = take_bytes(r, take(r, 2), &p);
		send_msg(which, type, p, n);
		break;
	}
	case 7:
		n = take_bytes(r, take(r, 2), &p);
		fz_send(slots[which], p, n);
		fz_pump();
		break;
	case 8:
	case 9:
	case 10:
	case 11:
		fire(peer, op & 15, which);
		break;
	case 12:
		fz_close(slots[which]);
		slots[which] = -1;
		break;
	case 13:
		admin(peer, arg);
		fz_pump();
		break;
	case 14:
		configure(peer, arg);
		fz_pump();
		break;
	default:
		bgp_closer_flush();
		fz_pump();
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_peer_opts o = { 0 };
	struct reader r = { data + 1, size - 1 };
	struct bgp_peer *peer;

	if (size < 1)
		return 0;
	fz_session_init();
	o.as_kind = data[0] & 3;
	o.timers = data[0] & 4;
	o.holdtime = (uint16_t)((data[0] >> 5) * 3);
	o.ipv6 = data[0] & 8;
	o.local_as = (data[0] & 16) ? 65500 : 0;
	peer = fz_peer_new(&o);
	slots[0] = fz_connect(peer);
	slots[1] = -1;
	for (int i = 0; i < MAX_OPS && r.left; i++)
		run_op(peer, &r, &o);
	fz_peer_delete(peer);
	return 0;
}
