/* SPDX-License-Identifier: ISC */
/*
 * The RTR client against fake caches on loopback (tests/unit/rtr_test.c), feeding the real
 * store: reset and serial synchronisation, Serial Notify, Cache Reset, a session id change,
 * version fallback 2 -> 1 -> 0, every kind of malformed or inconsistent PDU (Error Report
 * sent with the PDU, store untouched, reconnect), expiry of a lost cache's data at its expire
 * interval, failover between two caches by preference, the response timeout (a silent or
 * stalled cache fails over, a slow but moving one is never cut), stop/start/reset and
 * configuration errors.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <event2/dns.h>
#include <unistd.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_private.h"
#include "kernel/kernel_security.h"
#include "lib/event.h"
#include "lib/log.h"
#include "tests/unit/rtr_test.h"

static uint8_t buf[RTR_PDU_MAX];

/* Timers at 10 ms per protocol second: a 10-second retry interval takes 100 ms. */
static void setup(void)
{
	struct rtr_timers t = { .polling_period = 3600,
				.retry_interval = 10,
				.expire_interval = 7200 };

	rt_setup(10);
	rtr_timers_set(&t);
}

static void teardown(void)
{
	rt_teardown();
}

/* The client's Reset Query, answered with a whole data set at serial 1. */
static void first_sync(struct fake_cache *fc, uint8_t pref)
{
	struct rtr_pdu q;
	const uint32_t p4[] = { 64502, 64501 }, p6[] = { 64503 };

	ck_assert(fc_accept(fc, 3000));
	fc_expect(fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.version, fc->version);
	fc_cache_response(fc);
	fc_prefix(fc, true, "198.51.100.0/24", 24, 64500);
	fc_prefix(fc, true, "203.0.113.0/24", 25, 64501);
	fc_prefix(fc, true, "2001:db8::/32", 48, 64501);
	if (fc->version == 2) {
		fc_aspa(fc, true, false, 64500, p4, 2);
		fc_aspa(fc, true, true, 64500, p6, 1);
	}
	fc_end_of_data(fc, 1, 3600, 10, 7200);
	rt_wait_state(pref, RTR_STATE_ESTABLISHED, 3000);
}

/* A Serial Notify, and the Serial Query it must bring. */
static void notify_and_query(struct fake_cache *fc, uint32_t serial, uint32_t have)
{
	struct rtr_pdu q;

	fc_notify(fc, serial);
	fc_expect(fc, RTR_PDU_SERIAL_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.session_id, fc->session_id);
	ck_assert_uint_eq(q.u.serial, have);
}

START_TEST(test_reset_and_serial_sync)
{
	struct fake_cache fc;
	struct rtr_cache_status s;
	struct rtr_pdu q;
	const uint32_t p6b[] = { 64504, 64505 };

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	ck_assert(rpki_db_active(rt_db));
	first_sync(&fc, 1);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_INET), 2);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_INET6), 1);
	ck_assert(rt_has_vrp("203.0.113.0/24", 25, 64501));
	/* The IPv4 and IPv6 records of AS64500 merged into one. */
	ck_assert_str_eq(rt_aspa(64500), "64501,64502,64503");
	s = rt_status(1);
	ck_assert_uint_eq(s.version, 2);
	ck_assert_uint_eq(s.session_id, 7);
	ck_assert_uint_eq(s.serial, 1);
	ck_assert(s.have_serial);
	ck_assert_uint_eq(s.refresh, 3600);
	ck_assert_uint_eq(s.retry, 10);
	ck_assert_uint_eq(s.vrps_v4, 2);
	ck_assert_uint_eq(s.vrps_v6, 1);
	ck_assert_uint_eq(s.aspas, 1);
	ck_assert_uint_eq(s.pdus_rx, 7);
	ck_assert_uint_eq(s.pdus_tx, 1);
	ck_assert_uint_eq(s.connects, 1);
	ck_assert_int_gt(s.last_sync, 0);
	ck_assert_uint_eq(rtr_active_group(), 1);

	/* Serial sync: one withdrawal, one announcement, the IPv6 ASPA replaced. */
	notify_and_query(&fc, 2, 1);
	rt_wait_state(1, RTR_STATE_SYNCING, 1000);
	fc_cache_response(&fc);
	fc_prefix(&fc, false, "203.0.113.0/24", 25, 64501);
	fc_prefix(&fc, true, "198.51.100.128/25", 25, 64510);
	fc_aspa(&fc, true, true, 64500, p6b, 2);
	fc_end_of_data(&fc, 2, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert(!rt_has_vrp("203.0.113.0/24", 25, 64501));
	ck_assert(rt_has_vrp("198.51.100.128/25", 25, 64510));
	ck_assert_str_eq(rt_aspa(64500), "64501,64502,64504,64505");
	ck_assert_uint_eq(rt_status(1).serial, 2);

	/* A Notify of the serial we have asks for nothing. */
	fc_notify(&fc, 2);
	ck_assert_int_eq(fc_recv(&fc, buf, sizeof(buf), 200), -1);

	/* Cache Reset: a Reset Query, whose answer replaces everything. */
	notify_and_query(&fc, 3, 2);
	fc_cache_reset(&fc);
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert(rt_has_vrp("198.51.100.0/24", 24, 64500)); /* kept until the reset commits */
	fc_cache_response(&fc);
	fc_prefix(&fc, true, "198.51.100.0/24", 24, 64500);
	fc_end_of_data(&fc, 3, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 1);
	ck_assert_uint_eq(rpki_aspa_count(rt_db), 0);
	ck_assert_uint_eq(rt_status(1).serial, 3);

	/* A new session id: data flushed, reconnect, Reset Query. */
	notify_and_query(&fc, 4, 3);
	fc.session_id = 8;
	fc_cache_response(&fc);
	fc_expect_eof(&fc, 2000);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 0);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_cache_response(&fc);
	fc_prefix(&fc, true, "2001:db8:1::/48", 48, 64520);
	fc_end_of_data(&fc, 1, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert(rt_has_vrp("2001:db8:1::/48", 48, 64520));
	ck_assert_uint_eq(rt_status(1).session_id, 8);

	/* The refresh timer asks by itself: End of Data sets refresh to 1 s (10 ms here). */
	notify_and_query(&fc, 2, 1);
	fc_cache_response(&fc);
	fc_end_of_data(&fc, 2, 1, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	fc_expect(&fc, RTR_PDU_SERIAL_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.u.serial, 2);

	rtr_cache_del(1);
	ck_assert(!rpki_db_active(rt_db));
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 0);
	fc_close(&fc);
}
END_TEST

/* A changed ASPA as StayRTR 0.5.1 sends it in a serial response (seen on the wire): the new
 * record announced, then the old one withdrawn with its providers; the IPv6 record withdrawn
 * with its providers. */
START_TEST(test_aspa_delta_as_stayrtr_sends_it)
{
	struct fake_cache fc;
	struct rtr_pdu er;
	struct rtr_pdu_error err;
	const uint32_t new4[] = { 64501, 64509 }, old4[] = { 64501, 64502 }, old6[] = { 64503 };
	const uint32_t other[] = { 64777 };
	int len;

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	first_sync(&fc, 1);
	notify_and_query(&fc, 2, 1);
	fc_cache_response(&fc);
	fc_aspa(&fc, true, false, 64500, new4, 2);
	fc_aspa(&fc, false, false, 64500, old4, 2);
	fc_aspa(&fc, false, true, 64500, old6, 1);
	fc_end_of_data(&fc, 2, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert_str_eq(rt_aspa(64500), "64501,64509");

	/* A withdrawal matching neither the record nor what it replaced is an error. */
	notify_and_query(&fc, 3, 2);
	fc_cache_response(&fc);
	fc_aspa(&fc, false, false, 64500, other, 1);
	len = fc_recv(&fc, buf, sizeof(buf), 3000);
	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(rtr_pdu_decode(buf, (size_t)len, &er, &err), 0);
	ck_assert_uint_eq(er.type, RTR_PDU_ERROR_REPORT);
	ck_assert_uint_eq(er.u.error.code, RTR_ERR_WITHDRAWAL_UNKNOWN);
	ck_assert_str_eq(rt_aspa(64500), "64501,64509");
	fc_close(&fc);
}
END_TEST

/* Answer the client's query with an Error Report "Unsupported Protocol Version" at v. */
static void refuse_version(struct fake_cache *fc, uint8_t v, uint8_t asked)
{
	struct rtr_pdu q;
	uint8_t er[RTR_ERROR_REPORT_MAX];
	size_t n;

	ck_assert(fc_accept(fc, 3000));
	fc_expect(fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.version, asked);
	n = rtr_pdu_error_report(er, v, RTR_ERR_UNSUPPORTED_VERSION, buf, 8,
				 "Bad protocol version");
	fc_send_raw(fc, er, n);
	fc_drop(fc);
}

START_TEST(test_version_fallback)
{
	struct fake_cache fc;
	struct rtr_cache_status s;

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	/* A version 1 cache refuses 2 and says 1; then as a version 0 cache, refuses 1. */
	refuse_version(&fc, 1, 2);
	refuse_version(&fc, 0, 1);
	fc.version = 0;
	first_sync(&fc, 1);
	s = rt_status(1);
	ck_assert_uint_eq(s.version, 0);
	ck_assert_uint_eq(s.errors_rx, 2);
	ck_assert_ptr_nonnull(strstr(s.last_error, "Unsupported Protocol Version"));
	/* Version 0: the configured intervals stay in force. */
	ck_assert_uint_eq(s.refresh, 3600);
	ck_assert_uint_eq(s.expire, 7200);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 3);
	/* The session stays at 0: a serial query of version 0. */
	notify_and_query(&fc, 2, 1);
	ck_assert_uint_eq(buf[0], 0);
	fc_close(&fc);
}
END_TEST

START_TEST(test_lower_version_answer)
{
	struct fake_cache fc;
	struct rtr_pdu q;

	/* A cache that answers our version 2 query at version 1 is followed down. */
	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.version, 2);
	fc.version = 1;
	fc_cache_response(&fc);
	fc_prefix(&fc, true, "198.51.100.0/24", 24, 64500);
	fc_end_of_data(&fc, 1, 600, 30, 1200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert_uint_eq(rt_status(1).version, 1);
	ck_assert_uint_eq(rt_status(1).refresh, 600);
	ck_assert_uint_eq(rt_status(1).expire, 1200);
	notify_and_query(&fc, 2, 1);
	ck_assert_uint_eq(buf[0], 1); /* the Serial Query's version */
	/* Intervals out of RFC 8210 6's ranges are brought into them. */
	fc_cache_response(&fc);
	fc_end_of_data(&fc, 2, 0, 100000, 10);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert_uint_eq(rt_status(1).refresh, 1);
	ck_assert_uint_eq(rt_status(1).retry, 7200);
	ck_assert_uint_eq(rt_status(1).expire, 600);
	fc_close(&fc);
}
END_TEST

/*
 * Malformed or inconsistent PDUs inside a serial response. Each: the client sends an Error
 * Report of that code carrying the PDU, closes, and the store keeps exactly what it had (the
 * announcement before the bad PDU in the same response never shows).
 */
enum bad_kind {
	BAD_TRUNCATED,	    /* an IPv4 Prefix PDU cut to 16 bytes */
	BAD_SHORT_LENGTH,   /* a header whose length is under 8 */
	BAD_UNKNOWN_TYPE,   /* PDU type 12 */
	BAD_VERSION,	    /* a version 1 PDU in a version 2 session */
	BAD_WITHDRAW,	    /* withdrawal of a prefix never announced */
	BAD_DUPLICATE,	    /* announcement of a prefix already held */
	BAD_ASPA_WITHDRAW,  /* withdrawal of an ASPA never announced */
	BAD_ASPA_COUNT,	    /* provider count disagreeing with the length */
	BAD_ASPA_SELF,	    /* the customer among its own providers */
	BAD_QUERY,	    /* a Reset Query sent by the cache */
	BAD_EOD_SESSION,    /* End of Data of another session */
	BAD_PREFIX_OUTSIDE, /* a prefix before any Cache Response */
	BAD_MAX,
};

static const struct {
	uint16_t code;
	bool in_response; /* sent after the Cache Response */
} bad_case[BAD_MAX] = {
	[BAD_TRUNCATED] = { RTR_ERR_CORRUPT_DATA, true },
	[BAD_SHORT_LENGTH] = { RTR_ERR_CORRUPT_DATA, true },
	[BAD_UNKNOWN_TYPE] = { RTR_ERR_UNSUPPORTED_PDU_TYPE, true },
	[BAD_VERSION] = { RTR_ERR_UNEXPECTED_VERSION, true },
	[BAD_WITHDRAW] = { RTR_ERR_WITHDRAWAL_UNKNOWN, true },
	[BAD_DUPLICATE] = { RTR_ERR_DUPLICATE_ANNOUNCEMENT, true },
	[BAD_ASPA_WITHDRAW] = { RTR_ERR_WITHDRAWAL_UNKNOWN, true },
	[BAD_ASPA_COUNT] = { RTR_ERR_ASPA_PROVIDER_LIST, true },
	[BAD_ASPA_SELF] = { RTR_ERR_ASPA_PROVIDER_LIST, true },
	[BAD_QUERY] = { RTR_ERR_UNSUPPORTED_PDU_TYPE, true },
	[BAD_EOD_SESSION] = { RTR_ERR_CORRUPT_DATA, true },
	[BAD_PREFIX_OUTSIDE] = { RTR_ERR_CORRUPT_DATA, false },
};

static size_t build_bad(enum bad_kind k, uint8_t *b)
{
	struct rtr_pdu p = { .version = 2 };
	size_t n;

	switch (k) {
	case BAD_TRUNCATED:
		n = fc_build_prefix(b, 2, true, "192.0.2.0/24", 24, 64999);
		b[7] = 16; /* the length field says 16: the PDU ends after the address */
		return 16;
	case BAD_SHORT_LENGTH:
		n = fc_build_prefix(b, 2, true, "192.0.2.0/24", 24, 64999);
		b[7] = 4;
		return n;
	case BAD_UNKNOWN_TYPE:
		memcpy(b, "\x02\x0c\x00\x00\x00\x00\x00\x08", 8);
		return 8;
	case BAD_VERSION:
		return fc_build_prefix(b, 1, true, "192.0.2.0/24", 24, 64999);
	case BAD_WITHDRAW:
		return fc_build_prefix(b, 2, false, "192.0.2.0/24", 24, 64999);
	case BAD_DUPLICATE:
		return fc_build_prefix(b, 2, true, "198.51.100.0/24", 24, 64500);
	case BAD_ASPA_WITHDRAW:
		memcpy(b, "\x02\x0b\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\xfd\xe8", 16);
		return 16; /* AS65000, never announced */
	case BAD_ASPA_COUNT:
		memcpy(b,
		       "\x02\x0b\x00\x00\x00\x00\x00\x14\x01\x00\x00\x02\x00\x00\xfd\xe8"
		       "\x00\x00\xfd\xe9",
		       20);
		return 20;
	case BAD_ASPA_SELF:
		memcpy(b,
		       "\x02\x0b\x00\x00\x00\x00\x00\x14\x01\x00\x00\x01\x00\x00\xfd\xe8"
		       "\x00\x00\xfd\xe8",
		       20);
		return 20;
	case BAD_QUERY:
		memcpy(b, "\x02\x02\x00\x00\x00\x00\x00\x08", 8);
		return 8;
	case BAD_EOD_SESSION:
		p.type = RTR_PDU_END_OF_DATA;
		p.session_id = 99;
		p.u.eod.serial = 2;
		p.u.eod.refresh = 3600;
		p.u.eod.retry = 10;
		p.u.eod.expire = 7200;
		return (size_t)rtr_pdu_encode(&p, b, 64);
	case BAD_PREFIX_OUTSIDE:
		return fc_build_prefix(b, 2, true, "192.0.2.0/24", 24, 64999);
	case BAD_MAX:
		break;
	}
	ck_abort();
	return 0;
}

START_TEST(test_malformed)
{
	enum bad_kind k = (enum bad_kind)_i;
	struct fake_cache fc;
	struct rtr_pdu er, q;
	struct rtr_pdu_error err;
	struct rtr_cache_status s;
	uint8_t bad[64];
	size_t n = build_bad(k, bad);
	int len;

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	first_sync(&fc, 1);
	notify_and_query(&fc, 2, 1);
	if (bad_case[k].in_response) {
		fc_cache_response(&fc);
		fc_prefix(&fc, true, "203.0.113.128/25", 25, 64530); /* must never show */
	}
	fc_send_raw(&fc, bad, n);
	len = fc_recv(&fc, buf, sizeof(buf), 3000);
	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(rtr_pdu_decode(buf, (size_t)len, &er, &err), 0);
	ck_assert_uint_eq(er.type, RTR_PDU_ERROR_REPORT);
	ck_assert_msg(er.u.error.code == bad_case[k].code, "case %d: Error Report code %u, want %u",
		      k, er.u.error.code, bad_case[k].code);
	ck_assert_uint_eq(er.version, 2);
	/* The erroneous PDU comes back (its first bytes at least). */
	ck_assert_uint_gt(er.u.error.pdu_len, 0);
	ck_assert_int_eq(
		memcmp(er.u.error.pdu, bad, er.u.error.pdu_len < n ? er.u.error.pdu_len : n), 0);
	ck_assert_uint_gt(er.u.error.text_len, 0);
	fc_expect_eof(&fc, 3000);
	/* The store as it was after the first sync. */
	ck_assert(!rt_has_vrp("203.0.113.128/25", 25, 64530));
	ck_assert(!rt_has_vrp("192.0.2.0/24", 24, 64999));
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 3);
	ck_assert_str_eq(rt_aspa(64500), "64501,64502,64503");
	s = rt_status(1);
	ck_assert_uint_eq(s.errors_tx, 1);
	ck_assert_ptr_nonnull(strstr(s.last_error, "sent Error Report"));
	/* It comes back after the retry interval and asks from the serial it holds. */
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_SERIAL_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.u.serial, 1);
	fc_close(&fc);
}
END_TEST

START_TEST(test_error_report_received)
{
	struct fake_cache fc;
	struct rtr_pdu q;
	uint8_t er[RTR_ERROR_REPORT_MAX];
	size_t n;

	/* No Data Available: logged, shown, no answer, retried. */
	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	n = rtr_pdu_error_report(er, 2, RTR_ERR_NO_DATA, buf, 8, "no data yet\x01");
	fc_send_raw(&fc, er, n);
	fc_expect_eof(&fc, 3000);
	ck_assert_uint_eq(rt_status(1).errors_rx, 1);
	ck_assert_uint_eq(rt_status(1).errors_tx, 0);
	ck_assert_str_eq(rt_status(1).last_error,
			 "cache sent Error Report No Data Available (2): no data yet.");
	ck_assert_uint_eq(rt_status(1).state, RTR_STATE_ERROR);
	first_sync(&fc, 1);
	fc_close(&fc);
}
END_TEST

START_TEST(test_expiry)
{
	struct fake_cache fc;
	uint64_t t0;
	struct rtr_pdu q;

	/* 1 ms per second: End of Data's expire of 600 s (the least allowed) is 600 ms. */
	rt_teardown();
	rt_setup(1);
	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_cache_response(&fc);
	fc_prefix(&fc, true, "198.51.100.0/24", 24, 64500);
	/* The expire clock starts when End of Data arrives: no earlier than it is sent, and
	 * perhaps well before the wait below sees the session established on a busy machine. */
	t0 = monotime_ms();
	fc_end_of_data(&fc, 1, 86400, 7200, 600);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	/* The cache goes away, and refuses connections from now on. */
	fc_close(&fc);
	rt_wait_state(1, RTR_STATE_ERROR, 2000);
	rt_pump(300);
	ck_assert_msg(rt_has_vrp("198.51.100.0/24", 24, 64500), "data dropped before expiry");
	ck_assert(!rt_status(1).data_expired);
	while (rpki_vrp_count(rt_db, AF_UNSPEC) && monotime_ms() - t0 < 3000)
		rt_pump(5);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 0);
	ck_assert_uint_ge(monotime_ms() - t0, 590);
	ck_assert_uint_le(monotime_ms() - t0, 1500);
	ck_assert(rt_status(1).data_expired);
	ck_assert_uint_eq(rt_status(1).vrps_v4, 0);
	ck_assert(rpki_db_active(rt_db)); /* still configured: validation stays in use */
}
END_TEST

START_TEST(test_failover)
{
	struct fake_cache a, b;
	struct rtr_pdu q;
	uint16_t aport;

	/* A (preference 1) is down; B (preference 2) is used. */
	fc_listen(&a, 0);
	aport = a.port;
	fc_close(&a);
	fc_listen(&b, 0);
	rt_cache_tcp(1, aport);
	rt_cache_tcp(2, b.port);
	ck_assert(fc_accept(&b, 3000));
	fc_expect(&b, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_cache_response(&b);
	fc_prefix(&b, true, "203.0.113.0/24", 24, 64502);
	fc_end_of_data(&b, 1, 3600, 10, 7200);
	rt_wait_state(2, RTR_STATE_ESTABLISHED, 3000);
	ck_assert(rt_has_vrp("203.0.113.0/24", 24, 64502));
	ck_assert_uint_eq(rtr_active_group(), 2);
	ck_assert_ptr_nonnull(strstr(rt_status(1).last_error, "Connection refused"));

	/* A comes back: retried within its retry interval, synchronised, and B let go. */
	fc_listen(&a, aport);
	ck_assert(fc_accept(&a, 3000));
	fc_expect(&a, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert(rt_has_vrp("203.0.113.0/24", 24, 64502)); /* B still serves meanwhile */
	fc_cache_response(&a);
	fc_prefix(&a, true, "198.51.100.0/24", 24, 64501);
	fc_end_of_data(&a, 1, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	fc_expect_eof(&b, 3000);
	rt_wait_state(2, RTR_STATE_IDLE, 1000);
	ck_assert(!rt_has_vrp("203.0.113.0/24", 24, 64502));
	ck_assert(rt_has_vrp("198.51.100.0/24", 24, 64501));
	ck_assert_uint_eq(rtr_active_group(), 1);

	/* A fails: B is started again; A's data stays until its expire interval. */
	fc_drop(&a);
	fc_close(&a);
	ck_assert(fc_accept(&b, 3000));
	fc_expect(&b, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert(rt_has_vrp("198.51.100.0/24", 24, 64501));
	fc_close(&b);
}
END_TEST

/*
 * Response timeout (30 protocol seconds, 300 ms here). A cache that accepts and never answers
 * our query, or stops in the middle of its answer, is closed, reported in its status, retried
 * after the retry interval, and the next preference takes over meanwhile.
 */
static void stuck_then_failover(bool half_answer, const char *reason)
{
	struct fake_cache a, b;
	struct rtr_pdu q;
	struct rtr_cache_status s;
	uint64_t t0;

	fc_listen(&a, 0);
	fc_listen(&b, 0);
	rt_cache_tcp(1, a.port);
	rt_cache_tcp(2, b.port);
	ck_assert(fc_accept(&a, 3000));
	fc_expect(&a, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	t0 = monotime_ms();
	if (half_answer) {
		fc_cache_response(&a);
		fc_prefix(&a, true, "198.51.100.0/24", 24, 64500);
	}
	/* ... and nothing more: the connection stays open. */
	rt_wait_state(1, RTR_STATE_ERROR, 3000);
	ck_assert_uint_ge(monotime_ms() - t0, 290);
	s = rt_status(1);
	ck_assert_msg(strstr(s.last_error, reason), "last_error: %s", s.last_error);
	ck_assert(!rt_has_vrp("198.51.100.0/24", 24, 64500)); /* half an answer never applied */
	fc_expect_eof(&a, 1000);

	/* The second cache is used meanwhile. */
	ck_assert(fc_accept(&b, 3000));
	fc_expect(&b, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_cache_response(&b);
	fc_prefix(&b, true, "203.0.113.0/24", 24, 64502);
	fc_end_of_data(&b, 1, 3600, 10, 7200);
	rt_wait_state(2, RTR_STATE_ESTABLISHED, 3000);
	ck_assert(rt_has_vrp("203.0.113.0/24", 24, 64502));
	ck_assert_uint_eq(rtr_active_group(), 2);

	/* The stuck one is retried after its retry interval (10 s, 100 ms here). */
	ck_assert(fc_accept(&a, 3000));
	fc_expect(&a, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_close(&a);
	fc_close(&b);
}

START_TEST(test_silent_cache_times_out)
{
	stuck_then_failover(false, "no answer to our Reset Query");
}
END_TEST

START_TEST(test_stalled_response_times_out)
{
	stuck_then_failover(true, "no PDU for 30 s before End of Data");
}
END_TEST

/* A transfer longer than the timeout in all, but never silent that long, goes through. */
START_TEST(test_slow_response_not_cut)
{
	struct fake_cache fc;
	struct rtr_pdu q;
	uint64_t t0;
	char pfx[32];

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	t0 = monotime_ms();
	rt_pump(150);
	fc_cache_response(&fc);
	for (int i = 0; i < 6; i++) {
		rt_pump(150);
		snprintf(pfx, sizeof(pfx), "198.51.100.%d/32", i);
		fc_prefix(&fc, true, pfx, 32, 64500);
	}
	rt_pump(150);
	fc_end_of_data(&fc, 1, 3600, 10, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert_uint_ge(monotime_ms() - t0, 900); /* three times the timeout */
	ck_assert_uint_eq(rt_status(1).connects, 1);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_INET), 6);
	/* Established, nothing owed: silence is no error. */
	rt_pump(500);
	ck_assert_uint_eq(rt_status(1).state, RTR_STATE_ESTABLISHED);
	fc_close(&fc);
}
END_TEST

/* `debug rpki` (the RTR_DEBUG bit): every PDU in and out at debugging level, nothing when off. */
struct ring_count {
	const char *needle;
	unsigned n;
};

static void ring_count_cb(const char *line, void *arg)
{
	struct ring_count *rc = arg;

	if (strstr(line, rc->needle))
		rc->n++;
}

static unsigned ring_count(const char *needle)
{
	struct ring_count rc = { .needle = needle };

	log_ring_walk(ring_count_cb, &rc);
	return rc.n;
}

static bool serial_is_2(void *arg)
{
	(void)arg;
	return rt_status(1).serial == 2;
}

START_TEST(test_debug_pdus)
{
	struct fake_cache fc;

	log_set_ring_level(LOG_LVL_DEBUG);
	log_ring_clear();
	debug_flags &= ~RTR_DEBUG;
	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	first_sync(&fc, 1);
	ck_assert_uint_eq(ring_count(": rcvd "), 0);
	ck_assert_uint_eq(ring_count(": sent "), 0);

	debug_flags |= RTR_DEBUG;
	notify_and_query(&fc, 2, 1);
	fc_cache_response(&fc);
	fc_prefix(&fc, false, "198.51.100.0/24", 24, 64500);
	fc_end_of_data(&fc, 2, 3600, 10, 7200);
	ck_assert(rt_wait(serial_is_2, NULL, 3000));
	debug_flags &= ~RTR_DEBUG;
	ck_assert_uint_eq(ring_count("(preference 1): rcvd Serial Notify v2 len 12: session "), 1);
	ck_assert_uint_eq(ring_count("(preference 1): sent Serial Query v2 len 12: session "), 1);
	ck_assert_uint_eq(ring_count(": rcvd Cache Response v2 len 8: session "), 1);
	ck_assert_uint_eq(
		ring_count(": rcvd IPv4 Prefix v2 len 20: withdraw 198.51.100.0/24 max 24 AS64500"),
		1);
	ck_assert_uint_eq(ring_count(": rcvd End of Data v2 len 24: session "), 1);
	ck_assert_uint_eq(ring_count(" serial 2 refresh 3600 retry 10 expire 7200"), 1);

	/* Off again: the next exchange leaves no line. */
	notify_and_query(&fc, 3, 2);
	ck_assert_uint_eq(ring_count(": rcvd Serial Notify"), 1);
	ck_assert_uint_eq(ring_count(": sent Serial Query"), 1);
	log_set_ring_level(LOG_LVL_INFO);
	fc_close(&fc);
}
END_TEST

START_TEST(test_stop_start_reset)
{
	struct fake_cache fc;
	struct rtr_pdu q;

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	first_sync(&fc, 1);
	ck_assert(rtr_running());
	rtr_stop();
	ck_assert(!rtr_running());
	fc_expect_eof(&fc, 2000);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 0);
	ck_assert_uint_eq(rt_status(1).state, RTR_STATE_IDLE);
	ck_assert_uint_eq(rtr_active_group(), 0);
	rtr_start();
	first_sync(&fc, 1);
	/* Reset: reconnect, Reset Query, the data kept until the answer replaces it. */
	rtr_reset();
	fc_expect_eof(&fc, 2000);
	ck_assert(fc_accept(&fc, 3000));
	fc_expect(&fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	ck_assert_uint_eq(q.version, 2);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 3);
	fc_close(&fc);
}
END_TEST

START_TEST(test_name_resolution)
{
	struct fake_cache fc;

	/* A name through evdns (from /etc/hosts). The listener is IPv4 only: should "localhost"
	 * resolve to ::1 first, that address is refused and the next one tried. */
	fc_listen(&fc, 0);
	rt_cache(1, "localhost", fc.port, NULL, NULL);
	first_sync(&fc, 1);
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 3);
	fc_close(&fc);
}
END_TEST

START_TEST(test_next_address)
{
	struct fake_cache fc;
	char hosts[] = "/tmp/check_rtr_hosts.XXXXXX";
	int fd = mkstemp(hosts);
	const char *lines = "127.0.0.3 rtr-cache.example\n127.0.0.1 rtr-cache.example\n";

	/* A name with two addresses, the first refusing: the second is tried at once (a retry
	 * would start over from the first, and never get here). */
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, lines, strlen(lines)), (int)strlen(lines));
	close(fd);
	ck_assert_int_eq(evdns_base_load_hosts(rtr_dns_base(rt_base), hosts), 0);
	unlink(hosts);
	fc_listen(&fc, 0);
	rt_cache(1, "rtr-cache.example", fc.port, NULL, NULL);
	ck_assert(fc_accept(&fc, 1000));
	fc_close(&fc);
}
END_TEST

START_TEST(test_source_address)
{
	struct fake_cache fc;
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	char a[INET_ADDRSTRLEN];

	fc_listen(&fc, 0);
	rt_cache(1, "127.0.0.1", fc.port, "127.0.0.2", NULL);
	first_sync(&fc, 1);
	ck_assert_int_eq(getpeername(fc.fd, (struct sockaddr *)&sin, &len), 0);
	ck_assert_str_eq(inet_ntop(AF_INET, &sin.sin_addr, a, sizeof(a)), "127.0.0.2");
	fc_close(&fc);
}
END_TEST

START_TEST(test_tcp_md5)
{
	struct fake_cache fc;
	struct kernel_sec_err kerr;
	struct ipaddr client;

	/* The listener holds a key for the client: with the same key the session comes up. */
	ck_assert_int_eq(ipaddr_from_str(&client, "127.0.0.1"), 0);
	fc_listen(&fc, 0);
	if (kernel_md5_set(fc.lfd, &client, "rtr-secret", &kerr) < 0) {
		fc_close(&fc);
		ck_abort_msg("TCP-MD5 on the listener: %s", kerr.msg);
	}
	rt_cache(1, "127.0.0.1", fc.port, NULL, "rtr-secret");
	first_sync(&fc, 1);
	rtr_cache_del(1);
	fc_close(&fc);

	/* A different key: the kernel drops the client's SYNs, nothing is accepted. */
	fc_listen(&fc, 0);
	ck_assert_int_eq(kernel_md5_set(fc.lfd, &client, "another-secret", &kerr), 0);
	rt_cache(1, "127.0.0.1", fc.port, NULL, "rtr-secret");
	ck_assert(!fc_accept(&fc, 500));
	ck_assert_uint_eq(rt_status(1).state, RTR_STATE_CONNECTING);
	/* And no key at all on the client side: dropped as well. */
	rt_cache(1, "127.0.0.1", fc.port, NULL, NULL);
	ck_assert(!fc_accept(&fc, 500));
	fc_close(&fc);
}
END_TEST

/* Reconnects after errors give back what they took: the cache's memory is flat. */
START_TEST(test_memory_flat_over_flaps)
{
	struct fake_cache fc;
	uint64_t at5 = 0;
	struct rtr_pdu q;
	uint8_t bad[64];

	fc_listen(&fc, 0);
	rt_cache_tcp(1, fc.port);
	first_sync(&fc, 1);
	for (int i = 0; i < 30; i++) {
		/* A serial response with an ASPA change, then a malformed PDU: abort, reconnect. */
		const uint32_t p[] = { 64600 + (uint32_t)i };

		notify_and_query(&fc, 2, 1);
		fc_cache_response(&fc);
		fc_aspa(&fc, true, false, 64500, p, 1);
		fc_prefix(&fc, true, "192.0.2.0/24", 24, 64999);
		fc_send_raw(&fc, bad, build_bad(BAD_DUPLICATE, bad));
		fc_expect_eof(&fc, 3000);
		ck_assert(fc_accept(&fc, 3000));
		fc_expect(&fc, RTR_PDU_SERIAL_QUERY, &q, buf, sizeof(buf));
		fc_cache_response(&fc);
		fc_end_of_data(&fc, 1, 3600, 10, 7200);
		rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
		if (i == 5)
			at5 = MTYPE_RTR_CACHE->allocated;
	}
	ck_assert_uint_eq(MTYPE_RTR_CACHE->allocated, at5);
	ck_assert_str_eq(rt_aspa(64500), "64501,64502,64503");
	fc_close(&fc);
}
END_TEST

START_TEST(test_config_errors)
{
	struct rtr_cache_config c = {
		.transport = RTR_TRANSPORT_TCP, .host = "127.0.0.1", .port = 8282, .preference = 1
	};
	char err[256];

	c.password = "secret";
	c.transport = RTR_TRANSPORT_TLS;
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "TCP-MD5"));
	c.password = NULL;
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "CA file"));
	c.ca_file = "/nonexistent/ca.pem";
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/ca.pem"));
	c.transport = RTR_TRANSPORT_TCP;
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	c.ca_file = NULL;
	c.source = "not-an-address";
	ck_assert_int_lt(rtr_cache_set(&c, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "not-an-address"));
	c.source = NULL;
	c.preference = 0;
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	c.preference = 1;
	ck_assert_int_eq(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert(!rpki_db_active(rt_db)); /* check applies nothing */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtr");
	TCase *tc = tcase_create("session");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_reset_and_serial_sync);
	tcase_add_test(tc, test_aspa_delta_as_stayrtr_sends_it);
	tcase_add_test(tc, test_version_fallback);
	tcase_add_test(tc, test_lower_version_answer);
	tcase_add_loop_test(tc, test_malformed, 0, BAD_MAX);
	tcase_add_test(tc, test_error_report_received);
	tcase_add_test(tc, test_expiry);
	tcase_add_test(tc, test_failover);
	tcase_add_test(tc, test_silent_cache_times_out);
	tcase_add_test(tc, test_stalled_response_times_out);
	tcase_add_test(tc, test_slow_response_not_cut);
	tcase_add_test(tc, test_debug_pdus);
	tcase_add_test(tc, test_stop_start_reset);
	tcase_add_test(tc, test_name_resolution);
	tcase_add_test(tc, test_next_address);
	tcase_add_test(tc, test_source_address);
	tcase_add_test(tc, test_tcp_md5);
	tcase_add_test(tc, test_memory_flat_over_flaps);
	tcase_add_test(tc, test_config_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
