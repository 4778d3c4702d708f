/* SPDX-License-Identifier: ISC */
/*
 * The RFC 4271 FSM: the table itself (every state x event has an outcome, the important ones
 * as the RFC says), then sessions driven through it against a scripted remote speaker on
 * loopback: establishment, timers (as a fake clock: we read what is armed and deliver the
 * expiry), errors and the NOTIFICATIONs they send, collision resolution both ways, passive
 * peers, the IdleHoldTimer back-off, and bounded reading.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_limit.h"
#include "tests/unit/session_test.h"

#define REMOTE_AS 65002
#define REMOTE_ID_LOW "192.0.2.1"    /* lower than ST_LOCAL_ID */
#define REMOTE_ID_HIGH "192.0.2.200" /* higher than ST_LOCAL_ID */

/* ---- the table ---- */

struct expect {
	enum bgp_fsm_state st;
	enum bgp_fsm_event ev;
	enum bgp_fsm_state next;
};

/* RFC 4271 8.2.2, with our documented deviations marked. */
static const struct expect table_expect[] = {
	{ BGP_ST_IDLE, BGP_EV_MANUAL_START, BGP_ST_CONNECT },
	{ BGP_ST_IDLE, BGP_EV_AUTOMATIC_START, BGP_ST_CONNECT },
	{ BGP_ST_IDLE, BGP_EV_MANUAL_START_PASSIVE, BGP_ST_ACTIVE },
	{ BGP_ST_IDLE, BGP_EV_AUTOMATIC_START_PASSIVE, BGP_ST_ACTIVE },
	{ BGP_ST_IDLE, BGP_EV_IDLE_HOLD_EXPIRES, BGP_ST_CONNECT },
	{ BGP_ST_IDLE, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_IDLE, BGP_EV_OPEN, BGP_ST_IDLE },
	{ BGP_ST_IDLE, BGP_EV_KEEPALIVE_MSG, BGP_ST_IDLE },
	{ BGP_ST_IDLE, BGP_EV_TCP_CONFIRMED, BGP_ST_IDLE },
	{ BGP_ST_CONNECT, BGP_EV_MANUAL_START, BGP_ST_CONNECT },
	{ BGP_ST_CONNECT, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_CONNECT, BGP_EV_CONNECT_RETRY_EXPIRES, BGP_ST_CONNECT },
	{ BGP_ST_CONNECT, BGP_EV_TCP_CR_ACKED, BGP_ST_OPENSENT },
	{ BGP_ST_CONNECT, BGP_EV_TCP_CONFIRMED, BGP_ST_OPENSENT },
	{ BGP_ST_CONNECT, BGP_EV_TCP_FAILS, BGP_ST_ACTIVE }, /* deviation: RFC says Idle */
	{ BGP_ST_CONNECT, BGP_EV_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_CONNECT, BGP_EV_OPEN, BGP_ST_IDLE },
	{ BGP_ST_CONNECT, BGP_EV_NOTIF, BGP_ST_IDLE },
	{ BGP_ST_CONNECT, BGP_EV_UPDATE_MSG, BGP_ST_IDLE },
	{ BGP_ST_ACTIVE, BGP_EV_MANUAL_START, BGP_ST_ACTIVE },
	{ BGP_ST_ACTIVE, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_ACTIVE, BGP_EV_CONNECT_RETRY_EXPIRES, BGP_ST_CONNECT },
	{ BGP_ST_ACTIVE, BGP_EV_TCP_CR_ACKED, BGP_ST_OPENSENT },
	{ BGP_ST_ACTIVE, BGP_EV_TCP_CONFIRMED, BGP_ST_OPENSENT },
	{ BGP_ST_ACTIVE, BGP_EV_TCP_FAILS, BGP_ST_IDLE },
	{ BGP_ST_ACTIVE, BGP_EV_KEEPALIVE_MSG, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_MANUAL_START, BGP_ST_OPENSENT },
	{ BGP_ST_OPENSENT, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_AUTOMATIC_STOP, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_TCP_CONFIRMED, BGP_ST_OPENSENT },
	{ BGP_ST_OPENSENT, BGP_EV_TCP_FAILS, BGP_ST_ACTIVE },
	{ BGP_ST_OPENSENT, BGP_EV_OPEN, BGP_ST_OPENCONFIRM },
	{ BGP_ST_OPENSENT, BGP_EV_HEADER_ERR, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_OPEN_ERR, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_COLLISION_DUMP, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_NOTIF_VER_ERR, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_NOTIF, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_KEEPALIVE_MSG, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_UPDATE_MSG, BGP_ST_IDLE },
	{ BGP_ST_OPENSENT, BGP_EV_CONNECT_RETRY_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_KEEPALIVE_EXPIRES, BGP_ST_OPENCONFIRM },
	{ BGP_ST_OPENCONFIRM, BGP_EV_TCP_FAILS, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_NOTIF, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_COLLISION_DUMP, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_KEEPALIVE_MSG, BGP_ST_ESTABLISHED },
	{ BGP_ST_OPENCONFIRM, BGP_EV_UPDATE_MSG, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_OPEN, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_MANUAL_START, BGP_ST_ESTABLISHED },
	{ BGP_ST_ESTABLISHED, BGP_EV_MANUAL_STOP, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_AUTOMATIC_STOP, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_KEEPALIVE_EXPIRES, BGP_ST_ESTABLISHED },
	{ BGP_ST_ESTABLISHED, BGP_EV_TCP_CONFIRMED, BGP_ST_ESTABLISHED },
	{ BGP_ST_ESTABLISHED, BGP_EV_TCP_FAILS, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_KEEPALIVE_MSG, BGP_ST_ESTABLISHED },
	{ BGP_ST_ESTABLISHED, BGP_EV_UPDATE_MSG, BGP_ST_ESTABLISHED },
	{ BGP_ST_ESTABLISHED, BGP_EV_UPDATE_ERR, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_NOTIF, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_OPEN, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_COLLISION_DUMP, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_CONNECT_RETRY_EXPIRES, BGP_ST_IDLE },
	/* RFC 9687 4: SendHoldTimer_Expires wherever messages are sent. */
	{ BGP_ST_OPENSENT, BGP_EV_SEND_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_OPENCONFIRM, BGP_EV_SEND_HOLD_EXPIRES, BGP_ST_IDLE },
	{ BGP_ST_ESTABLISHED, BGP_EV_SEND_HOLD_EXPIRES, BGP_ST_IDLE },
};

START_TEST(test_table_outcomes)
{
	enum bgp_fsm_state next;
	size_t i;
	int st, ev;

	for (i = 0; i < array_size(table_expect); i++) {
		const struct expect *e = &table_expect[i];

		ck_assert(bgp_fsm_lookup(e->st, e->ev, &next));
		ck_assert_msg(next == e->next, "%s + %s -> %s, expected %s",
			      bgp_fsm_state_str(e->st), bgp_fsm_event_str(e->ev),
			      bgp_fsm_state_str(next), bgp_fsm_state_str(e->next));
	}
	/* Every pair has an outcome; only Idle leaves unknown events alone. */
	for (st = 0; st < BGP_ST_MAX; st++) {
		for (ev = 0; ev < BGP_EV_MAX; ev++) {
			ck_assert(bgp_fsm_lookup(st, ev, &next));
			ck_assert_int_lt(next, BGP_ST_MAX);
			ck_assert_str_ne(bgp_fsm_event_str(ev), "Unknown");
		}
		ck_assert_str_ne(bgp_fsm_state_str(st), "Unknown");
	}
	ck_assert(!bgp_fsm_lookup(BGP_ST_MAX, BGP_EV_OPEN, &next));
	ck_assert_str_eq(bgp_fsm_state_str(BGP_ST_OPENCONFIRM), "OpenConfirm");
	ck_assert_str_eq(bgp_fsm_event_str(BGP_EV_HOLD_EXPIRES), "HoldTimer_Expires");
}
END_TEST

/* ---- sessions ---- */

static int lfd = -1;

static int accept_and_establish(struct bgp_peer *peer);

static void setup(void)
{
	uint16_t port;

	st_setup();
	lfd = st_listen(&port);
	bgp_network_set_remote_port(port);
	ck_assert_int_eq(bgp_network_listen(st_base, "127.0.0.1", 0), 1);
}

static void teardown(void)
{
	close(lfd);
	st_teardown();
}

static struct bgp_conn *primary(struct bgp_peer *peer)
{
	return bgp_session_primary(peer);
}

/* Expect a NOTIFICATION code/subcode on fd, then the connection's end. */
static void expect_notify(int fd, uint8_t code, uint8_t subcode)
{
	uint8_t body[64];
	size_t len = 0;

	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_ge(len, 2);
	ck_assert_uint_eq(body[0], code);
	ck_assert_uint_eq(body[1], subcode);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 0);
}

START_TEST(test_establish_outgoing)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	uint8_t body[256];
	size_t len;
	int64_t t;
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	/* ConnectRetryTimer: 120 s, jittered down by at most 25 % (RFC 4271 10). */
	t = bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY);
	ck_assert_int_le(t, 120000);
	ck_assert_int_ge(t, 89000);
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert(st_state_is(peer, BGP_ST_OPENSENT, 2000));
	/* The large HoldTimer of OpenSent (4 minutes), ConnectRetryTimer stopped. */
	t = bgp_session_timer_remaining(peer, BGP_TIMER_HOLD);
	ck_assert_int_gt(t, 230000);
	ck_assert_int_le(t, 240000);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY), -1);

	/* Our OPEN: version 4, AS 65001, hold 180, router-id. */
	ck_assert_int_eq(st_recv(fd, body, sizeof(body), &len, 2000), 1);
	ck_assert_uint_ge(len, 10);
	ck_assert_uint_eq(body[0], 4);
	ck_assert_uint_eq(body[1] << 8 | body[2], ST_LOCAL_AS);
	ck_assert_uint_eq(body[3] << 8 | body[4], 180);
	ck_assert_mem_eq(body + 5, "\xc0\x00\x02\x09", 4);

	/* The peer offers hold 90: negotiated 90, keepalive 30 (RFC 4271 4.2, 10). */
	st_send_open(fd, REMOTE_AS, 90, REMOTE_ID_LOW);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 4); /* our KEEPALIVE */
	ck_assert_uint_eq(primary(peer)->holdtime, 90);
	ck_assert_uint_eq(primary(peer)->keepalive, 30);
	t = bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE);
	ck_assert_int_le(t, 30000);
	ck_assert_int_ge(t, 22000);
	ck_assert_uint_eq(rib_calls.up, 0);

	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_uint_eq(rib_calls.up, 1);
	ck_assert(rib_calls.last_info.af[BGP_AF_IPV4_UNICAST]);
	ck_assert(!rib_calls.last_info.af[BGP_AF_IPV6_UNICAST]);
	ck_assert(rib_calls.last_info.ebgp);
	ck_assert_uint_eq(rib_calls.last_info.remote_as, REMOTE_AS);
	ck_assert(rib_calls.last_info.codec.as4);
	ck_assert(rib_calls.last_info.route_refresh);
	ck_assert_uint_eq(rib_calls.last_info.max_msg_size, 4096);
	t = bgp_session_timer_remaining(peer, BGP_TIMER_HOLD);
	ck_assert_int_gt(t, 85000);
	ck_assert_int_le(t, 90000);
	ck_assert_uint_eq(peer->session->established_count, 1);

	/* KeepaliveTimer_Expires sends one and re-arms. */
	bgp_fsm_event(primary(peer), BGP_EV_KEEPALIVE_EXPIRES);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 4);
	ck_assert_int_gt(bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE), 20000);
	close(fd);
}
END_TEST

/* Bring an outgoing session to Established with the scripted remote; its socket. */
static int establish_scripted(struct bgp_peer *peer)
{
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, REMOTE_AS, 90, REMOTE_ID_LOW);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	return fd;
}

/* Resident pages of [p, p + len) (mincore). */
static size_t resident_pages(const uint8_t *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + len) & ~(page - 1);
	unsigned char vec[256];
	size_t n = 0;

	ck_assert_uint_le((to - from) / page, sizeof(vec));
	ck_assert_int_eq(mincore((void *)from, to - from, vec), 0);
	for (size_t i = 0; i < (to - from) / page; i++)
		n += vec[i] & 1;
	return n;
}

static bool input_drained(void *arg)
{
	struct bgp_conn *c = arg;

	return c->ilen == 0 && c->itouched > 0;
}

/* A burst fills the input buffer; once it is drained, the RIB's release after a large
 * withdrawal gives its pages back (release_idle), and the session goes on reading. */
START_TEST(test_idle_input_buffer_pages_given_back)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	uint8_t burst[19 * 4000];
	struct bgp_conn *c;
	size_t before;
	int fd;

	fd = establish_scripted(peer);
	c = primary(peer);

	/* 76,000 bytes of KEEPALIVEs in one write: most of them in the buffer at once. */
	for (size_t i = 0; i < sizeof(burst); i += 19) {
		memset(burst + i, 0xff, 16);
		burst[i + 16] = 0;
		burst[i + 17] = 19;
		burst[i + 18] = 4;
	}
	st_send(fd, burst, sizeof(burst));
	ck_assert(st_pump_until(input_drained, c, 2000));
	ck_assert_uint_gt(c->itouched, 8192);
	before = resident_pages(c->ibuf, c->itouched);
	ck_assert_uint_ge(before, 2);

	/* Not while it holds data. */
	c->ilen = 1;
	bgp_session_ops.release_idle(peer);
	ck_assert_uint_eq(resident_pages(c->ibuf, c->itouched), before);
	c->ilen = 0;

	bgp_session_ops.release_idle(peer);
	ck_assert_uint_eq(c->itouched, 0);
	ck_assert_uint_eq(resident_pages(c->ibuf, c->isize), 0);

	/* The buffer works on: a KEEPALIVE more is read, the session stays up. */
	st_send_keepalive(fd);
	st_pump(100);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 10));
	ck_assert_uint_gt(c->itouched, 0);
	close(fd);
}
END_TEST

/* Bring a session with the scripted remote to Established and drop it again. */
static void establish_and_drop(struct bgp_peer *peer)
{
	int fd = establish_scripted(peer);

	close(fd);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000) || st_state_is(peer, BGP_ST_ACTIVE, 10) ||
		  st_state_is(peer, BGP_ST_CONNECT, 10));
}

/* %ADJCHANGE at notice level only with `bgp log-neighbor-changes` (FRR), otherwise only under
 * `debug bgp neighbor-events`. */
START_TEST(test_adjchange_follows_log_neighbor_changes)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);

	log_ring_clear();
	peer->bgp->log_neighbor_changes = false;
	establish_and_drop(peer);
	ck_assert(!st_logged("%ADJCHANGE", NULL, NULL));

	bgp_peer_delete(peer);
	peer = st_peer("127.0.0.1", REMOTE_AS, false);
	peer->bgp->log_neighbor_changes = true;
	establish_and_drop(peer);
	ck_assert(st_logged("%ADJCHANGE: neighbor 127.0.0.1 in vrf default Up", NULL, NULL));
	ck_assert(st_logged("%ADJCHANGE: neighbor 127.0.0.1 in vrf default Down", NULL, NULL));
}
END_TEST

/* Hold 0 on either side: no HoldTimer and no keepalives (RFC 4271 4.2, 4.4). */
START_TEST(test_hold_zero)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	st_send_open(fd, REMOTE_AS, 0, REMOTE_ID_LOW);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	ck_assert_uint_eq(primary(peer)->holdtime, 0);
	ck_assert_uint_eq(primary(peer)->keepalive, 0);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_HOLD), -1);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE), -1);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_HOLD), -1);
	close(fd);
}
END_TEST

/* keepalive = min(configured keepalive, negotiated hold / 3). */
START_TEST(test_configured_timers)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	uint8_t body[64];
	size_t len;
	int fd;

	peer->conf.timers_configured = true;
	peer->conf.keepalive = 5;
	peer->conf.holdtime = 30;
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_eq(st_recv(fd, body, sizeof(body), &len, 2000), 1);
	ck_assert_uint_eq(body[3] << 8 | body[4], 30); /* our hold time */
	st_send_open(fd, REMOTE_AS, 90, REMOTE_ID_LOW);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	ck_assert_uint_eq(primary(peer)->holdtime, 30);
	ck_assert_uint_eq(primary(peer)->keepalive, 5);
	bgp_get()->keepalive = 60; /* the instance's value does not matter here */
	close(fd);
}
END_TEST

/*
 * RFC 4271 8.2.2: sending an UPDATE restarts the KeepaliveTimer (OpenBGPD does it too); a
 * ROUTE-REFRESH does not, as nothing says it restarts the peer's HoldTimer.
 */
START_TEST(test_update_sent_restarts_keepalive)
{
	/* An End-of-RIB marker for IPv4 unicast: the smallest UPDATE (RFC 4724 2). */
	static const uint8_t eor[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0,    23,   2,	  0,	0,    0,    0,
	};
	static const uint8_t keepalive[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0,	  19,	4,
	};
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	struct bgp_conn *c = primary(peer);
	int64_t t;

	ck_assert_uint_eq(c->keepalive, 60);
	/* Pretend the next KEEPALIVE is due in one second. */
	event_timer_add(c->keepalive_timer, 1000, 0);
	ck_assert_int_eq(session_send(peer, eor, sizeof(eor)), 0);
	t = bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE);
	ck_assert_int_gt(t, 44000); /* 60 s, jittered down by at most 25 % */
	ck_assert_int_le(t, 60000);
	ck_assert_int_eq(st_expect(fd, 2, NULL, 0, NULL, 2000), 2);

	event_timer_add(c->keepalive_timer, 1000, 0);
	ck_assert_int_eq(session_send_route_refresh(peer, BGP_AF_IPV4_UNICAST), 0);
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE), 1000);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 5);
	/* Any other message the RIB might queue is not an UPDATE either. */
	ck_assert_int_eq(session_send(peer, keepalive, sizeof(keepalive)), 0);
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_KEEPALIVE), 1000);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 4);
	/* The KEEPALIVE then comes on time. */
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 3000), 4);
	close(fd);
}
END_TEST

START_TEST(test_hold_timer_expires)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);

	ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_HOLD_EXPIRES), BGP_ST_IDLE);
	expect_notify(fd, BGP_ERR_HOLD_TIMER, 0);
	ck_assert_uint_eq(rib_calls.down, 1);
	ck_assert_uint_eq(peer->session->dropped_count, 1);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_NOTIFY_SENT);
	ck_assert_uint_eq(peer->session->last_notify.code, BGP_ERR_HOLD_TIMER);
	/* Automatic restart after the IdleHoldTimer (1 s the first time). */
	ck_assert_int_gt(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), 900);
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), 1000);
	close(fd);
}
END_TEST

START_TEST(test_keepalive_in_opensent_is_fsm_error)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert(st_state_is(peer, BGP_ST_OPENSENT, 2000));
	st_send_keepalive(fd);
	/* RFC 6608: FSM Error / Receive Unexpected Message in OpenSent State. */
	expect_notify(fd, BGP_ERR_FSM, BGP_ERR_FSM_UNEXPECTED_OPENSENT);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	ck_assert_uint_eq(rib_calls.up, 0);
	close(fd);
}
END_TEST

START_TEST(test_update_in_openconfirm_is_fsm_error)
{
	static const uint8_t upd[23] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0,    23,   2,	   0,	 0,    0,    0 };
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	st_send_open(fd, REMOTE_AS, 180, REMOTE_ID_LOW);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	st_send(fd, upd, sizeof(upd));
	expect_notify(fd, BGP_ERR_FSM, BGP_ERR_FSM_UNEXPECTED_OPENCONFIRM);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	close(fd);
}
END_TEST

START_TEST(test_open_bad_peer_as)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	st_send_open(fd, 65099, 180, REMOTE_ID_LOW);
	expect_notify(fd, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_NOTIFY_SENT);
	close(fd);
}
END_TEST

START_TEST(test_bad_marker_header_error)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	uint8_t junk[19];
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert(st_state_is(peer, BGP_ST_OPENSENT, 2000));
	memset(junk, 0xfe, sizeof(junk));
	st_send(fd, junk, sizeof(junk));
	expect_notify(fd, BGP_ERR_HEADER, BGP_ERR_HDR_NOT_SYNC);
	close(fd);
}
END_TEST

START_TEST(test_notification_received)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	uint8_t body[64];

	st_send_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_RESET);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	/* A NOTIFICATION is never answered with one: the connection just closes. */
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), NULL, 2000), 0);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_NOTIFY_RECEIVED);
	ck_assert(!peer->session->last_notify_sent);
	ck_assert_uint_eq(peer->session->last_notify.subcode, BGP_ERR_CEASE_ADMIN_RESET);
	ck_assert_uint_eq(rib_calls.down, 1);
	close(fd);
}
END_TEST

START_TEST(test_manual_stop_no_restart)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);

	bgp_session_stop(peer, BGP_ERR_CEASE_ADMIN_SHUTDOWN, BGP_DOWN_ADMIN_SHUTDOWN);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	expect_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_ADMIN_SHUTDOWN);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), -1);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY), -1);
	close(fd);
}
END_TEST

/* A restarting speaker's stop (graceful restart without the N bit): no NOTIFICATION, the
 * connection just closes, so that the peer keeps our routes as after a crash. */
START_TEST(test_manual_stop_silent)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	uint8_t body[64];

	bgp_session_stop(peer, BGP_SESSION_STOP_SILENT, BGP_DOWN_ADMIN_SHUTDOWN);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), NULL, 2000), 0);
	ck_assert(!peer->session->have_last_notify);
	close(fd);
}
END_TEST

START_TEST(test_shutdown_config)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);

	peer->conf.shutdown = true;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	expect_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	close(fd);
	st_pump(50);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	/* While shut down an incoming connection is refused. */
	fd = st_connect("127.0.0.1", bgp_network_listen_port(0));
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 0);
	close(fd);
	peer->conf.shutdown = false;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
}
END_TEST

/* Milliseconds left on the ConnectRetryTimer, checked against the back-off's step: at most ms,
 * and no less than the 25 % jitter allows. */
static void expect_retry_within(struct bgp_peer *peer, uint32_t ms)
{
	int64_t t = bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY);

	ck_assert_msg(t <= (int64_t)ms && t >= (int64_t)ms * 3 / 4 - 100,
		      "ConnectRetryTimer %lld ms, expected %u ms less up to a quarter",
		      (long long)t, ms);
}

/* The back-off of failed attempts (bgp_reconnect.c): 1, 2, 4 ... s, then the ConnectRetryTime. */
static const uint32_t retry_steps_ms[] = { 1000,  2000,	 4000,	 8000,	16000,
					   32000, 64000, 120000, 120000 };

/* RFC 9003: `neighbor X shutdown message TEXT` sends the text in the Cease/Administrative
 * Shutdown, length first; a plain shutdown sends none. */
START_TEST(test_shutdown_message)
{
	static const char text[] = "maintenance until 03:00 \xc3\xa9t\xc3\xa9";
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	uint8_t body[512];
	size_t len = 0;

	peer->conf.shutdown_message = XSTRDUP(MTYPE_BGP_PEER_CONF, text);
	peer->conf.shutdown = true;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	ck_assert_uint_eq(len, 3 + strlen(text));
	ck_assert_uint_eq(body[2], strlen(text));
	ck_assert_mem_eq(body + 3, text, strlen(text));
	ck_assert(st_logged("sending NOTIFICATION 6/2", text, NULL));
	close(fd);
	st_pump(50);

	/* Without a message: the bare Cease of RFC 4486. */
	XFREE(MTYPE_BGP_PEER_CONF, peer->conf.shutdown_message);
	peer->conf.shutdown = false;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	fd = accept_and_establish(peer);
	peer->conf.shutdown = true;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(len, 2);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	close(fd);
}
END_TEST

/* RFC 8538 3 with RFC 9003: when both sides sent the N bit, `neighbor X shutdown message` is a
 * Cease/Hard Reset whose data is the whole Administrative Shutdown, message included (FRR
 * unwraps it and shows the text). */
START_TEST(test_shutdown_message_hard_reset)
{
	static const char text[] = "moving to the new rack";
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	struct bgp_open_local ol = { .asn = REMOTE_AS, .holdtime = 180 };
	uint8_t open[256], body[512];
	size_t len = 0, olen;
	int fd;

	inet_pton(AF_INET, REMOTE_ID_LOW, &ol.id);
	ol.af[BGP_AF_IPV4_UNICAST] = true;
	ol.gr = ol.gr_notification = true;
	ol.gr_time = 120;
	olen = bgp_open_encode(open, sizeof(open), &ol);
	ck_assert_uint_gt(olen, 0);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send(fd, open, olen);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert(bgp_session_primary(peer)->nego.gr_notification);

	peer->conf.shutdown_message = XSTRDUP(MTYPE_BGP_PEER_CONF, text);
	peer->conf.shutdown = true;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_SHUTDOWN);
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_HARD_RESET);
	ck_assert_uint_eq(len, 5 + strlen(text));
	ck_assert_uint_eq(body[2], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[3], BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	ck_assert_uint_eq(body[4], strlen(text));
	ck_assert_mem_eq(body + 5, text, strlen(text));
	ck_assert(st_logged("sending NOTIFICATION 6/9", text, NULL));
	XFREE(MTYPE_BGP_PEER_CONF, peer->conf.shutdown_message);
	close(fd);
}
END_TEST

START_TEST(test_connect_refused_goes_active)
{
	struct bgp_peer *peer;
	size_t k;

	close(lfd);
	lfd = -1;
	peer = st_peer("127.0.0.1", REMOTE_AS, false);
	/* Nobody listens: the connect fails, we wait in Active for the ConnectRetryTimer, which
	 * backs off while the peer keeps refusing, up to the ConnectRetryTime. */
	for (k = 0; k < array_size(retry_steps_ms); k++) {
		ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
		expect_retry_within(peer, retry_steps_ms[k]);
		ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_CONNECT_RETRY_EXPIRES),
				  BGP_ST_CONNECT);
	}
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
}
END_TEST

/* The next outgoing attempt (already started) answered by the scripted remote: Established. */
static int accept_and_establish(struct bgp_peer *peer)
{
	int fd = st_accept(lfd, 2000);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, REMOTE_AS, 180, REMOTE_ID_LOW);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	return fd;
}

/* `clear bgp X` toward a peer that closes our first attempt (a passive BIRD still tearing down
 * the old session): the next attempt comes within a second, not after the ConnectRetryTime
 * (issue 13: skua waited 120 s, FRR is back in about 2 s). */
START_TEST(test_clear_reconnects_promptly)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	int round, k;

	for (round = 0; round < 2; round++) {
		/* What `clear bgp X` does (bgpd/show/bgp_clear.c). */
		bgp_session_reset(peer, BGP_ERR_CEASE_ADMIN_RESET, BGP_DOWN_USER_RESET);
		expect_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_RESET);
		close(fd);
		/* The peer refuses twice (it accepts and closes at once), then answers. */
		for (k = 0; k < 2; k++) {
			fd = st_accept(lfd, 2000);
			ck_assert_int_ge(fd, 0);
			close(fd);
			ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
			expect_retry_within(peer, retry_steps_ms[k]);
			ck_assert_uint_eq(
				bgp_fsm_event(primary(peer), BGP_EV_CONNECT_RETRY_EXPIRES),
				BGP_ST_CONNECT);
		}
		/* Established again: the next clear starts the back-off at 1 s once more. */
		fd = accept_and_establish(peer);
	}
	close(fd);
}
END_TEST

/* A peer's administrative Cease brings the session back after the shortest IdleHoldTimer, even
 * when the session was short-lived: only failures grow the back-off. */
START_TEST(test_peer_cease_reconnects_promptly)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	int64_t t;

	/* A failure first: the peer just closes. 1 s, and the back-off doubles. */
	close(fd);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	t = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
	ck_assert_int_le(t, 1000);
	ck_assert_int_gt(t, 800);
	ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_IDLE_HOLD_EXPIRES), BGP_ST_CONNECT);
	fd = accept_and_establish(peer);
	/* Now the peer is reset by its operator: Cease/Administrative Reset. 1 s again. */
	st_send_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_RESET);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	t = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
	ck_assert_msg(t <= 1000 && t > 800, "idle hold after an administrative Cease: %lld ms",
		      (long long)t);
	close(fd);
	/* A Cease that says the peer refuses us (Out of Resources) is a failure: it backs off. */
	ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_IDLE_HOLD_EXPIRES), BGP_ST_CONNECT);
	fd = accept_and_establish(peer);
	st_send_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_OUT_OF_RESOURCES);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_IDLE_HOLD_EXPIRES), BGP_ST_CONNECT);
	close(fd);
	fd = accept_and_establish(peer);
	st_send_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_OUT_OF_RESOURCES);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	t = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
	ck_assert_msg(t <= 2000 && t > 1800, "idle hold after a second refusal: %lld ms",
		      (long long)t);
	close(fd);
	/* An administrative Cease before Established is a refusal too: the back-off goes on. */
	ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_IDLE_HOLD_EXPIRES), BGP_ST_CONNECT);
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_notify(fd, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_RESET);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	t = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
	ck_assert_msg(t <= 4000 && t > 3800, "idle hold after a Cease in OpenSent: %lld ms",
		      (long long)t);
	close(fd);
}
END_TEST

START_TEST(test_passive_incoming)
{
	struct bgp_peer *peer = st_peer("127.0.0.2", REMOTE_AS, true);
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_CONNECT_RETRY), -1);
	st_pump(50);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ACTIVE);
	fd = st_connect("127.0.0.2", bgp_network_listen_port(0));
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1); /* our OPEN */
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_OPENSENT);
	ck_assert(!primary(peer)->outgoing);
	st_send_open(fd, REMOTE_AS, 180, REMOTE_ID_LOW);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	/* The peer closes: TcpConnectionFails, Idle, "Peer closed the session". */
	close(fd);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_CLOSED);
	ck_assert_uint_eq(rib_calls.down, 1);
}
END_TEST

static void count_rejected(const char *line, void *arg)
{
	if (strstr(line, "rejected: not a configured neighbor"))
		(*(int *)arg)++;
}

START_TEST(test_unknown_neighbor_rejected)
{
	int fd, lines = 0;

	st_peer("127.0.0.2", REMOTE_AS, true);
	log_ring_clear();
	fd = st_connect("127.0.0.3", bgp_network_listen_port(0));
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 0);
	close(fd);
	ck_assert(st_logged("connection from 127.0.0.3", "not a configured neighbor", NULL));
	/* Anyone can connect: a stranger's storm costs a few lines, not one per connect. */
	for (int i = 0; i < 100; i++) {
		fd = st_connect("127.0.0.3", bgp_network_listen_port(0));
		ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 0);
		close(fd);
	}
	log_ring_walk(count_rejected, &lines);
	ck_assert_msg(lines >= 1 && lines <= LOG_LIMIT_BURST, "%d lines for 101 connections",
		      lines);
}
END_TEST

/*
 * Collision (RFC 4271 6.8): we connect out (O) and the peer connects in (I) at the same time.
 * The connection opened by the speaker with the higher BGP Identifier survives.
 */
static void collision(bool local_wins)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	const char *rid = local_wins ? REMOTE_ID_LOW : REMOTE_ID_HIGH;
	int o, i, winner, loser;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	o = st_accept(lfd, 2000);
	ck_assert_int_ge(o, 0);
	ck_assert_int_eq(st_recv(o, NULL, 0, NULL, 2000), 1);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_OPENSENT);

	i = st_connect("127.0.0.1", bgp_network_listen_port(0));
	ck_assert_int_eq(st_recv(i, NULL, 0, NULL, 2000), 1); /* OPEN on the second one */
	ck_assert_uint_eq(peer->session->conn[!peer->session->primary].state, BGP_ST_OPENSENT);

	/* OPEN on O: O goes to OpenConfirm (I is only in OpenSent, nothing to compare). */
	st_send_open(o, REMOTE_AS, 180, rid);
	ck_assert(st_state_is(peer, BGP_ST_OPENCONFIRM, 2000));
	ck_assert_int_eq(st_recv(o, NULL, 0, NULL, 2000), 4);
	/* OPEN on I: now the identifiers decide. */
	st_send_open(i, REMOTE_AS, 180, rid);
	winner = local_wins ? o : i;
	loser = local_wins ? i : o;
	expect_notify(loser, BGP_ERR_CEASE, BGP_ERR_CEASE_COLLISION);
	ck_assert_uint_eq(peer->session->conn[!peer->session->primary].state, BGP_ST_IDLE);
	ck_assert_uint_eq(primary(peer)->outgoing, local_wins);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_OPENCONFIRM);
	st_send_keepalive(winner);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_uint_eq(rib_calls.up, 1);
	ck_assert_uint_eq(rib_calls.down, 0);
	ck_assert_uint_eq(peer->session->established_count, 1);
	close(o);
	close(i);
}

START_TEST(test_collision_local_id_higher)
{
	collision(true);
}
END_TEST

START_TEST(test_collision_local_id_lower)
{
	collision(false);
}
END_TEST

/* A second connection while Established is dumped once its OPEN arrives (6.8). */
START_TEST(test_collision_established_keeps_session)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_HIGH);
	int i = st_connect("127.0.0.1", bgp_network_listen_port(0));

	ck_assert_int_eq(st_recv(i, NULL, 0, NULL, 2000), 1);
	st_send_open(i, REMOTE_AS, 180, REMOTE_ID_HIGH);
	expect_notify(i, BGP_ERR_CEASE, BGP_ERR_CEASE_COLLISION);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	ck_assert_uint_eq(rib_calls.down, 0);
	close(i);
	close(fd);
}
END_TEST

/* IdleHoldTimer back-off: 1, 2, 4 ... 120 s while failing; reset by a stable session. */
START_TEST(test_idle_hold_backoff)
{
	static const uint32_t expect_ms[] = { 1000,  2000,  4000,   8000,  16000,
					      32000, 64000, 120000, 120000 };
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	size_t k;
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	for (k = 0; k < array_size(expect_ms); k++) {
		int64_t t;

		/* Any unexpected event in Connect drops to Idle (RFC 4271 8.2.2). */
		ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_HOLD_EXPIRES), BGP_ST_IDLE);
		t = bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD);
		ck_assert_msg(t <= expect_ms[k] && t > (int64_t)expect_ms[k] - 200,
			      "drop %zu: idle hold %lld ms, expected %u", k, (long long)t,
			      expect_ms[k]);
		/* Fake clock: the timer "expires" now. */
		ck_assert_uint_eq(bgp_fsm_event(primary(peer), BGP_EV_IDLE_HOLD_EXPIRES),
				  BGP_ST_CONNECT);
		ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), -1);
		fd = st_accept(lfd, 200);
		if (fd >= 0)
			close(fd);
	}
	/* A session that stays up for a minute resets the back-off. */
	fd = st_accept(lfd, 2000);
	ck_assert(st_state_is(peer, BGP_ST_OPENSENT, 2000));
	st_send_open(fd, REMOTE_AS, 180, REMOTE_ID_LOW);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	peer->session->uptime_ms -= BGP_IDLE_HOLD_STABLE_MS + 1000;
	close(fd);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), 1000);
	ck_assert_int_gt(bgp_session_timer_remaining(peer, BGP_TIMER_IDLE_HOLD), 800);
}
END_TEST

/* Queue about `total` bytes on c in messages of 4096 bytes (UPDATE-typed, never parsed by the
 * scripted remote): few calls, so the SendHoldTimer is checked right after it was armed. */
static void queue_bytes(struct bgp_conn *c, size_t total)
{
	static uint8_t msg[4096];
	size_t done;

	memset(msg, 0xff, 16);
	msg[16] = sizeof(msg) >> 8;
	msg[17] = sizeof(msg) & 0xff;
	msg[18] = 2;
	for (done = 0; done < total; done += sizeof(msg))
		ck_assert_int_eq(bgp_conn_queue(c, msg, sizeof(msg)), 0);
}

/* RFC 9687: a peer that reads nothing of ours for the SendHoldTime is dropped, with a
 * NOTIFICATION Send Hold Timer Expired when it can still be written, and our queue freed.
 * Writes that make progress keep it alive; an empty queue stops the clock. */
START_TEST(test_send_hold_timer)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int small = 4096, fd, type;
	uint8_t body[64];
	size_t len;
	uint64_t t0;

	/* The RFC's default before any configuration: max(8 minutes, 2 x hold time). */
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)), 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, REMOTE_AS, 300, REMOTE_ID_LOW);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_uint_eq(primary(peer)->holdtime, 180);
	ck_assert_uint_eq(bgp_conn_send_hold_ms(primary(peer)), 480000);
	primary(peer)->holdtime = 300;
	ck_assert_uint_eq(bgp_conn_send_hold_ms(primary(peer)), 600000);
	primary(peer)->holdtime = 180;
	/* Everything was read: nothing waits, the clock is stopped. */
	st_pump(100);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_SEND_HOLD), -1);

	/* neighbor X timers send-hold 1; the peer stops reading while we have 2 MB to send. */
	peer->conf.send_hold_time = 1;
	ck_assert_int_eq(
		setsockopt(primary(peer)->fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)), 0);
	queue_bytes(primary(peer), 2 * 1024 * 1024);
	ck_assert_int_gt(bgp_session_timer_remaining(peer, BGP_TIMER_SEND_HOLD), 500);
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_SEND_HOLD), 1000);
	t0 = monotime_ms();
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 3000));
	/* Not before the SendHoldTime: the socket took what it could, then nothing moved. */
	ck_assert_uint_ge(monotime_ms() - t0, 900);
	ck_assert(peer->session->last_notify_sent);
	ck_assert_uint_eq(peer->session->last_notify.code, BGP_ERR_SEND_HOLD_TIMER);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_NOTIFY_SENT);
	ck_assert_uint_eq(primary(peer)->oqueued, 0);
	ck_assert_int_eq(bgp_session_timer_remaining(peer, BGP_TIMER_SEND_HOLD), -1);
	ck_assert(st_logged("send hold timer expired", "read nothing of ours for 1 s", NULL));
	ck_assert_uint_eq(rib_calls.down, 1);
	/* The peer reads again at last: what the socket took, never a NOTIFICATION of another
	 * kind, then the end of the connection. */
	while ((type = st_recv(fd, body, sizeof(body), &len, 2000)) == 2 || type == 4)
		;
	ck_assert_msg(type == 0 || type == 3, "message type %d after the keepalives", type);
	if (type == 3)
		ck_assert_uint_eq(body[0], BGP_ERR_SEND_HOLD_TIMER);
	close(fd);
}
END_TEST

/* A slow reader that still makes progress is not dropped: every write restarts the clock. */
START_TEST(test_send_hold_progress_keeps_session)
{
	struct bgp_peer *peer;
	int small = 4096, fd, rounds;
	uint8_t buf[8192];

	/* The remote's small window is set on the listener: its connections inherit it. */
	ck_assert_int_eq(setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)), 0);
	peer = st_peer("127.0.0.1", REMOTE_AS, false);
	fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	peer->conf.send_hold_time = 1;
	ck_assert_int_eq(
		setsockopt(primary(peer)->fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)), 0);
	queue_bytes(primary(peer), 1024 * 1024);
	/* Read 8 KB every 300 ms for 3 s, three SendHoldTimes, with output waiting all along. */
	for (rounds = 0; rounds < 10; rounds++) {
		st_pump(300);
		ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
		ck_assert_uint_gt(primary(peer)->oqueued, 0);
		ck_assert_int_gt(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), 0);
	}
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	close(fd);
}
END_TEST

/* A flood of messages is read in bounded batches: the loop gets control back in between. */
START_TEST(test_bounded_reading)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	enum { N = 1000 };
	static uint8_t flood[N * 19];
	uint32_t before = peer->session->rcvd.count[4], after;
	int i;

	for (i = 0; i < N; i++) {
		memset(flood + i * 19, 0xff, 16);
		flood[i * 19 + 16] = 0;
		flood[i * 19 + 17] = 19;
		flood[i * 19 + 18] = 4;
	}
	st_send(fd, flood, sizeof(flood));
	usleep(20000); /* all of it is in our socket buffer */
	event_loop_once(st_base, false);
	after = peer->session->rcvd.count[4];
	ck_assert_uint_gt(after, before);
	ck_assert_uint_le(after - before, BGP_READ_MAX_MSGS);
	ck_assert_uint_gt(primary(peer)->inq, 0);
	st_pump(300);
	ck_assert_uint_eq(peer->session->rcvd.count[4] - before, N);
	ck_assert_uint_eq(primary(peer)->inq, 0);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	close(fd);
}
END_TEST

/* Dense withdrawals are bounded by bytes too: 64 full UPDATEs of /24 withdrawals would be
 * 65,000 prefixes in one turn, hundreds of milliseconds with the shell waiting. */
START_TEST(test_bounded_reading_by_bytes)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	enum { N = 20, PFX = 1018, LEN = 19 + 2 + 4 * PFX + 2 };
	static uint8_t flood[N * LEN];
	uint32_t before = peer->session->rcvd.count[2], after;

	for (int i = 0; i < N; i++) {
		uint8_t *m = flood + i * LEN;

		memset(m, 0xff, 16);
		m[16] = LEN >> 8;
		m[17] = LEN & 0xff;
		m[18] = 2; /* UPDATE */
		m[19] = (4 * PFX) >> 8;
		m[20] = (4 * PFX) & 0xff;
		for (int k = 0; k < PFX; k++) { /* 203.0.113.0/24, withdrawn PFX times over */
			m[21 + 4 * k] = 24;
			m[22 + 4 * k] = 203;
			m[23 + 4 * k] = 0;
			m[24 + 4 * k] = 113;
		}
		m[LEN - 2] = m[LEN - 1] = 0; /* no path attributes */
	}
	st_send(fd, flood, sizeof(flood));
	usleep(20000);
	event_loop_once(st_base, false);
	after = peer->session->rcvd.count[2];
	ck_assert_uint_gt(after, before);
	/* About 8,000 prefixes (bgp_session.h), the last message taken whole. */
	ck_assert_uint_le((after - before) * PFX, 10000);
	st_pump(300);
	ck_assert_uint_eq(peer->session->rcvd.count[2] - before, N);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	close(fd);
}
END_TEST

/* An UPDATE as a peer in AS 65002 sends it: ORIGIN IGP, AS_PATH 65002 (4-octet), NEXT_HOP
 * 192.0.2.77, NLRI 198.51.100.0/24 (its last byte is the /24's third octet). */
static const uint8_t update_one[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0,	  47,	2,    /* header */
	0,    0,					      /* withdrawn */
	0,    20,					      /* attributes */
	0x40, 1,    1,	  0,				      /* ORIGIN */
	0x40, 2,    6,	  2,	1,    0,    0,	  0xfd, 0xea, /* AS_PATH */
	0x40, 3,    4,	  192,	0,    2,    77,		      /* NEXT_HOP */
	24,   198,  51,	  100,				      /* NLRI */
};

START_TEST(test_update_to_rib_and_malformed)
{
	/* Total Path Attribute Length beyond the message: Malformed Attribute List (RFC 4271
	 * 6.3), a session reset under RFC 7606 too. */
	static const uint8_t bad[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0,	  28,	2,    0,    0,	  0,	64,   0x40, 1,	  1,	0,    0,
	};
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);
	uint8_t body[64];
	size_t len = 0;

	st_send(fd, update_one, sizeof(update_one));
	st_pump(100);
	ck_assert_uint_eq(rib_calls.updates, 1);
	ck_assert(rib_calls.last_update_announced_ipv4);
	ck_assert_uint_eq(peer->session->rcvd.count[2], 1);

	st_send(fd, bad, sizeof(bad));
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_UPDATE);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	ck_assert_uint_eq(rib_calls.down, 1);
	close(fd);
}
END_TEST

/* The HoldTimer on the clock: KEEPALIVEs and UPDATEs keep a 3 s session up for longer than
 * 3 s (the timer re-arms itself from the last message's read), and it expires 3 s after the
 * last one, not 3 s after it was first armed nor later. */
START_TEST(test_hold_timer_runs_from_the_last_message)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	uint64_t last, expired;
	int fd;

	peer->conf.timers_configured = true;
	peer->conf.keepalive = 1;
	peer->conf.holdtime = 3;
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, REMOTE_AS, 3, REMOTE_ID_LOW);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_uint_eq(primary(peer)->holdtime, 3);
	/* 5 s of messages 0.8 s apart, never 3 s without one. */
	for (unsigned i = 0; i < 6; i++) {
		st_pump(800);
		if (i & 1)
			st_send(fd, update_one, sizeof(update_one));
		else
			st_send_keepalive(fd);
		ck_assert_uint_eq(primary(peer)->state, BGP_ST_ESTABLISHED);
	}
	last = monotime_ms();
	st_pump(100);
	ck_assert_int_gt(bgp_session_timer_remaining(peer, BGP_TIMER_HOLD), 2700);
	ck_assert_int_le(bgp_session_timer_remaining(peer, BGP_TIMER_HOLD), 3000);
	/* Silence: the NOTIFICATION (Hold Timer Expired) comes 3 s after the last message. */
	ck_assert_int_eq(st_expect(fd, 3, NULL, 0, NULL, 6000), 3);
	expired = monotime_ms();
	ck_assert_uint_ge(expired - last, 2900);
	ck_assert_uint_le(expired - last, 3900);
	ck_assert_uint_eq(peer->session->last_notify.code, BGP_ERR_HOLD_TIMER);
	ck_assert_uint_eq(rib_calls.updates, 3);
	close(fd);
}
END_TEST

/* BGP_PEEK_MAX + 4 UPDATEs of one prefix in one segment: before the first is handed to the
 * RIB, the prefixes of the first BGP_PEEK_MAX are given as a hint (rib_prefetch()), then
 * those of the last four. */
START_TEST(test_updates_peeked_ahead)
{
	enum { N = BGP_PEEK_MAX + 4, LEN = sizeof(update_one) };
	uint8_t all[N * LEN];
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID_LOW);

	for (unsigned i = 0; i < N; i++) {
		memcpy(all + i * LEN, update_one, LEN);
		all[(i + 1) * LEN - 1] = (uint8_t)i; /* 198.51.i.0/24 */
	}
	st_send(fd, all, sizeof(all));
	st_pump(200);
	ck_assert_uint_eq(rib_calls.updates, N);
	ck_assert_uint_eq(rib_calls.prefetches, 2);
	ck_assert_uint_eq(rib_calls.prefetched, N);
	ck_assert_uint_eq(rib_calls.updates_at_prefetch[0], 0);
	ck_assert_uint_eq(rib_calls.updates_at_prefetch[1], BGP_PEEK_MAX);
	close(fd);
}
END_TEST

static Suite *fsm_suite(void)
{
	Suite *s = suite_create("bgp_fsm");
	TCase *tc = tcase_create("table");
	TCase *ts = tcase_create("sessions");

	tcase_add_test(tc, test_table_outcomes);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(ts, setup, teardown);
	tcase_set_timeout(ts, 30);
	tcase_add_test(ts, test_establish_outgoing);
	tcase_add_test(ts, test_idle_input_buffer_pages_given_back);
	tcase_add_test(ts, test_adjchange_follows_log_neighbor_changes);
	tcase_add_test(ts, test_hold_zero);
	tcase_add_test(ts, test_configured_timers);
	tcase_add_test(ts, test_update_sent_restarts_keepalive);
	tcase_add_test(ts, test_hold_timer_expires);
	tcase_add_test(ts, test_keepalive_in_opensent_is_fsm_error);
	tcase_add_test(ts, test_update_in_openconfirm_is_fsm_error);
	tcase_add_test(ts, test_open_bad_peer_as);
	tcase_add_test(ts, test_bad_marker_header_error);
	tcase_add_test(ts, test_notification_received);
	tcase_add_test(ts, test_manual_stop_no_restart);
	tcase_add_test(ts, test_manual_stop_silent);
	tcase_add_test(ts, test_shutdown_config);
	tcase_add_test(ts, test_shutdown_message);
	tcase_add_test(ts, test_shutdown_message_hard_reset);
	tcase_add_test(ts, test_connect_refused_goes_active);
	tcase_add_test(ts, test_clear_reconnects_promptly);
	tcase_add_test(ts, test_peer_cease_reconnects_promptly);
	tcase_add_test(ts, test_passive_incoming);
	tcase_add_test(ts, test_unknown_neighbor_rejected);
	tcase_add_test(ts, test_collision_local_id_higher);
	tcase_add_test(ts, test_collision_local_id_lower);
	tcase_add_test(ts, test_collision_established_keeps_session);
	tcase_add_test(ts, test_idle_hold_backoff);
	tcase_add_test(ts, test_bounded_reading);
	tcase_add_test(ts, test_bounded_reading_by_bytes);
	tcase_add_test(ts, test_send_hold_timer);
	tcase_add_test(ts, test_send_hold_progress_keeps_session);
	tcase_add_test(ts, test_update_to_rib_and_malformed);
	tcase_add_test(ts, test_updates_peeked_ahead);
	tcase_add_test(ts, test_hold_timer_runs_from_the_last_message);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fsm_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
