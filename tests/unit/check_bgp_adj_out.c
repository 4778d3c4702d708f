/* SPDX-License-Identifier: ISC */
/*
 * Adj-RIB-Out: packing (N prefixes with one attribute set in ceil(N/k) UPDATEs), backpressure
 * and resume, End-of-RIB after the whole initial table, withdrawals only to the sessions that
 * had the prefix (more than 63 sessions: the spilled bitmap), journal deduplication, and
 * bounded work per loop turn on a real event loop.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_limit.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 1000000

static struct bgp *bgp;
static struct fake_peer *e1, *e2;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "10.0.0.1");
	e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

/* How many prefixes like p fit one UPDATE to fp with attribute set attr (or withdrawals). */
static unsigned per_message(struct fake_peer *fp, enum bgp_af af, const struct bgp_attr *attr,
			    const struct prefix *p, size_t n)
{
	struct bgp_update_builder ub;
	uint8_t buf[4096];
	unsigned k = 0;

	if (attr)
		ck_assert_int_eq(
			bgp_ub_begin_announce(&ub, buf, sizeof(buf), &fp->info.codec, af, attr), 0);
	else
		ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, buf, sizeof(buf), &fp->info.codec, af),
				 0);
	while (k < n && bgp_ub_add(&ub, &p[k]) == 0)
		k++;
	ck_assert_uint_lt(k, n);
	return k;
}

static void packing(enum bgp_af af, const char *base, unsigned len, const char *nh, size_t n)
{
	struct prefix *p = calloc(n, sizeof(*p));
	struct bgp_attr t;
	const struct bgp_attr *sent;
	unsigned k, kw;
	char buf[PREFIX_STRLEN];

	tpfx_range(p, n, base, len);
	tmpl_init(&t, "65002 65100", nh, BGP_ORIGIN_IGP);
	fake_announce(e1, af, &t, p, n);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, af), n);
	/* All with one exported attribute set: as many per UPDATE as fit. */
	sent = fake_adj(e2, prefix_to_str(&p[0], buf, sizeof(buf)));
	ck_assert_ptr_nonnull(sent);
	k = per_message(e2, af, sent, p, n);
	ck_assert_uint_eq(e2->msgs_announce, (n + k - 1) / k);
	ck_assert_uint_eq(e2->eor[af], 1);

	fake_withdraw(e1, af, p, n);
	fake_run(bgp, RUN_ALL);
	kw = per_message(e2, af, NULL, p, n);
	ck_assert_uint_eq(fake_adj_count(e2, af), 0);
	ck_assert_uint_eq(e2->msgs_withdraw, (n + kw - 1) / kw);
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
	ck_assert_uint_eq(e2->decode_errors, 0);
	free(p);
}

START_TEST(test_packing_ipv4)
{
	packing(V4, "20.0.0.0/24", 24, "10.0.0.2", 10000);
}
END_TEST

START_TEST(test_packing_ipv6)
{
	packing(V6, "2001:db8::/48", 48, "2001:db8:ffff::2", 10000);
}
END_TEST

START_TEST(test_grouping_across_prefix_order)
{
	/* Two attribute sets interleaved prefix by prefix: grouping a batch by attribute set
	 * still fills the messages (consecutive-only grouping would send 10,000 UPDATEs). */
	static struct prefix p[10000], a[5000], b[5000];
	struct bgp_attr ta, tb;

	tpfx_range(p, 10000, "20.0.0.0/24", 24);
	for (int i = 0; i < 5000; i++) {
		a[i] = p[2 * i];
		b[i] = p[2 * i + 1];
	}
	tmpl_init(&ta, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	tmpl_init(&tb, "65002 65200", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &ta, a, 5000);
	fake_announce(e1, V4, &tb, b, 5000);
	tmpl_release(&ta);
	tmpl_release(&tb);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 10000);
	ck_assert_uint_le(e2->msgs_announce, 14);
}
END_TEST

START_TEST(test_backpressure)
{
	static struct prefix p[10000];
	struct bgp_attr t;
	struct fake_peer *e3;
	unsigned rounds = 0;

	tpfx_range(p, 10000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 10000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);

	/* A new session whose output queue takes 5,000 bytes at a time. */
	e3 = fake_peer_new(bgp, "10.0.3.2", 65004, "10.0.3.1", "4.4.4.4");
	e3->space = 5000;
	fake_peer_up(e3);
	while (fake_adj_count(e3, V4) < 10000 || !e3->eor[V4]) {
		uint64_t before = e3->bytes;

		fake_run(bgp, RUN_ALL);
		/* Stalled: nothing is queued once the room is used up (the last message may go
		 * past it, as the session allows), and no work stays scheduled for the blocked
		 * session. */
		ck_assert(!rib_work_pending(bgp->rib));
		ck_assert_uint_eq(e3->sent_at_zero, 0);
		ck_assert_uint_lt(e3->bytes - before, 5000 + 4096);
		ck_assert_msg(++rounds < 200, "no progress");
		e3->space = 5000;
		rib_peer_writable(&e3->peer);
	}
	ck_assert_uint_lt(e3->overshoot, 4096);
	ck_assert_uint_ge(rounds, 5); /* about 40 KB at 5 KB (+ one message) per round */
	ck_assert_uint_eq(e3->pfx_announced, 10000);
	ck_assert_uint_eq(e3->msgs_after_eor[V4], 0);
	ck_assert_uint_eq(rib_peer_sent(&e3->peer, V4), 10000);
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e3);
}
END_TEST

/* A session's table walk goes over several batches (its queue takes 5,000 bytes at a time)
 * while the table changes behind and ahead of it: every other prefix is withdrawn, the dests
 * freed where no session holds them, and new ones are added. It ends with exactly the table
 * as it is then, each withdrawal sent only for what it had. */
START_TEST(test_walk_while_table_changes)
{
	static struct prefix p[10000], q[1000];
	struct fake_peer *e3;
	struct bgp_attr t;
	unsigned rounds = 0;
	char buf[PREFIX_STRLEN];

	tpfx_range(p, 10000, "20.0.0.0/24", 24);
	tpfx_range(q, 1000, "21.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 10000);
	fake_run(bgp, RUN_ALL);

	e3 = fake_peer_new(bgp, "10.0.3.2", 65004, "10.0.3.1", "4.4.4.4");
	e3->space = 5000;
	fake_peer_up(e3);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(fake_adj_count(e3, V4), 0);
	ck_assert_uint_lt(fake_adj_count(e3, V4), 5000);
	for (size_t i = 0; i < 10000; i += 2)
		fake_withdraw(e1, V4, &p[i], 1);
	fake_announce(e1, V4, &t, q, 1000);
	tmpl_release(&t);
	while (!e3->eor[V4]) {
		e3->space = 5000;
		rib_peer_writable(&e3->peer);
		fake_run(bgp, RUN_ALL);
		ck_assert_msg(++rounds < 400, "no progress");
	}
	ck_assert_uint_eq(fake_adj_count(e3, V4), 5000 + 1000);
	ck_assert_uint_eq(rib_peer_sent(&e3->peer, V4), 5000 + 1000);
	for (size_t i = 0; i < 10000; i += 7)
		ck_assert((fake_adj(e3, prefix_to_str(&p[i], buf, sizeof(buf))) != NULL) ==
			  (i % 2 == 1));
	for (size_t i = 0; i < 1000; i += 7)
		ck_assert_ptr_nonnull(fake_adj(e3, prefix_to_str(&q[i], buf, sizeof(buf))));
	ck_assert_uint_eq(e3->spurious_withdraw, 0);
	ck_assert_uint_eq(e3->msgs_after_eor[V4], 0);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 5000 + 1000);
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e3);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 5000 + 1000);
}
END_TEST

START_TEST(test_eor_after_initial_table)
{
	static struct prefix p[6000];
	struct bgp_attr t;
	struct fake_peer *e3;

	tpfx_range(p, 6000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 5000);
	fake_run(bgp, RUN_ALL);

	e3 = fake_peer_new(bgp, "10.0.3.2", 65004, "10.0.3.1", "4.4.4.4");
	fake_peer_up(e3);
	fake_run(bgp, 1); /* the walk has started */
	ck_assert_uint_eq(e3->eor[V4], 0);
	/* Changes during the walk: new prefixes, and withdrawals of ones already sent. */
	fake_announce(e1, V4, &t, p + 5000, 1000);
	fake_withdraw(e1, V4, p, 10);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e3, V4), 5990);
	ck_assert_uint_eq(e3->eor[V4], 1);
	ck_assert_uint_eq(e3->eor[V6], 1);
	/* End-of-RIB came after the whole table, changes during the walk included. */
	ck_assert_uint_eq(e3->msgs_after_eor[V4], 0);
	ck_assert_uint_eq(e3->spurious_withdraw, 0);
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e3);
}
END_TEST

START_TEST(test_many_sessions_bitmap)
{
	enum { N = 80 };
	struct fake_peer *fp[N];
	struct prefix p = tpfx("192.0.2.0/24");
	const struct bgp_dest *d;
	struct bgp_attr t;
	char addr[32], local[32];

	for (int i = 0; i < N; i++) {
		snprintf(addr, sizeof(addr), "10.1.%d.2", i);
		snprintf(local, sizeof(local), "10.1.%d.1", i);
		fp[i] = fake_peer_new(bgp, addr, 65100 + (uint32_t)i, local, "9.9.9.9");
		fake_peer_up(fp[i]);
	}
	fake_run(bgp, RUN_ALL);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert_ptr_nonnull(d);
	ck_assert(d->adv & 1); /* more than 63 sessions: the bitmap spilled */
	for (int i = 0; i < N; i++) {
		ck_assert_ptr_nonnull(fake_adj(fp[i], "192.0.2.0/24"));
		ck_assert(bgp_dest_adv_test(d, fp[i]->peer.rib->cur->id));
	}
	ck_assert(!bgp_dest_adv_test(d, e1->peer.rib->cur->id));

	/* Half of them go away: their bits with them. */
	for (int i = 0; i < N; i += 2)
		fake_peer_down(fp[i]);
	fake_run(bgp, RUN_ALL);
	fake_withdraw(e1, V4, &p, 1);
	fake_run(bgp, RUN_ALL);
	for (int i = 1; i < N; i += 2) {
		ck_assert_ptr_null(fake_adj(fp[i], "192.0.2.0/24"));
		ck_assert_uint_eq(fp[i]->pfx_withdrawn, 1);
		ck_assert_uint_eq(fp[i]->spurious_withdraw, 0);
	}
	for (int i = 0; i < N; i += 2)
		ck_assert_uint_eq(fp[i]->pfx_withdrawn, 0);
	ck_assert_uint_eq(e2->pfx_withdrawn, 1);
	ck_assert_uint_eq(e1->pfx_withdrawn, 0);
	for (int i = 0; i < N; i++) {
		fake_peer_down(fp[i]);
		fake_peer_free(fp[i]);
	}
	fake_run(bgp, RUN_ALL);
}
END_TEST

START_TEST(test_journal_dedup)
{
	struct prefix p = tpfx("192.0.2.0/24");
	struct bgp_attr t;
	const struct rib_journal *j = &bgp->rib->af[V4].journal;

	/* e2 cannot take anything while the prefix flaps 1,000 times. */
	e2->space = 0;
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	for (int i = 0; i < 1000; i++) {
		fake_announce(e1, V4, &t, &p, 1);
		fake_withdraw(e1, V4, &p, 1);
		fake_run(bgp, RUN_ALL);
	}
	fake_announce(e1, V4, &t, &p, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(e2->msgs, 2); /* the End-of-RIBs of setup() */
	/* e1 reads every change (and sends nothing: split horizon), so each one was appended;
	 * e2 sees only the latest entry of the prefix and sends one announcement. */
	ck_assert_uint_le(j->head - j->tail, 2001);
	e2->space = SIZE_MAX;
	rib_peer_writable(&e2->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/24"));
	ck_assert_uint_eq(e2->pfx_announced, 1);
	ck_assert_uint_eq(e2->pfx_withdrawn, 0);
	ck_assert_uint_eq(j->head - j->tail, 0);

	/* Without any reader in between, changes to one prefix are folded into one entry. */
	e2->space = 0;
	fake_peer_down(e1);
	fake_run(bgp, RUN_ALL);
	fake_peer_up(e1);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < 100; i++) {
		fake_announce(e1, V4, &t, &p, 1);
		fake_withdraw(e1, V4, &p, 1);
	}
	ck_assert_uint_le(j->head - j->tail, 3);
	tmpl_release(&t);
	e2->space = SIZE_MAX;
	rib_peer_writable(&e2->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/24"));
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
}
END_TEST

START_TEST(test_stalled_session_bounded_journal)
{
	static struct prefix p[100];
	struct bgp_attr t;
	const struct rib_journal *j = &bgp->rib->af[V4].journal;
	unsigned flaps = RIB_JOURNAL_LAG_MIN / 100 + 10;

	tpfx_range(p, 100, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 100);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 100);

	/* e2 stalls while 100 prefixes flap many times; its lag passes the limit and it falls
	 * back to walking the table: the journal does not grow with the flaps. */
	e2->space = 0;
	for (unsigned i = 0; i < flaps; i++) {
		fake_withdraw(e1, V4, p, 50);
		fake_announce(e1, V4, &t, p, 50);
		fake_run(bgp, RUN_ALL);
		ck_assert_uint_le(j->head - j->tail, RIB_JOURNAL_LAG_MIN + 200);
	}
	/* Leave half of them withdrawn: e2 must still be told. */
	fake_withdraw(e1, V4, p, 50);
	fake_run(bgp, RUN_ALL);
	tmpl_release(&t);
	e2->space = SIZE_MAX;
	rib_peer_writable(&e2->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 50);
	ck_assert_ptr_null(fake_adj(e2, "20.0.0.0/24"));
	ck_assert_ptr_nonnull(fake_adj(e2, "20.0.99.0/24"));
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
	ck_assert_uint_eq(rib_peer_sent(&e2->peer, V4), 50);
	/* The withdrawn prefixes are gone from the table once e2 was told. */
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 50);
}
END_TEST

/* ---- bounded work on a real loop ---- */

static struct event_base *base;

static void loop_setup(void)
{
	base = event_loop_new();
	ck_assert_ptr_nonnull(base);
	bgp = fake_bgp_new(65001, "10.0.0.1");
	/* fake_bgp_new() made the RIB without a loop: make it again on this one. */
	rib_free(bgp->rib);
	bgp->base = base;
	rib_new(bgp, &fake_session_ops);
	e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	fake_peer_up(e1);
	fake_peer_up(e2);
}

static void loop_teardown(void)
{
	teardown();
	event_loop_free(base);
}

START_TEST(test_bounded_turns)
{
	static struct prefix p[30000];
	struct bgp_attr t;
	unsigned turns = 0;
	uint64_t before;

	while (event_loop_once(base, false) == 0 && e2->eor[V4] == 0 && turns++ < 10)
		;
	ck_assert_uint_eq(e2->eor[V4], 1);
	tpfx_range(p, 30000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 30000);
	tmpl_release(&t);
	/* Nothing is sent from rib_update_received() itself: it is deferred work. */
	ck_assert_uint_eq(e2->pfx_announced, 0);
	turns = 0;
	while (e2->pfx_announced < 30000) {
		before = e2->pfx_announced;
		event_loop_once(base, false);
		ck_assert_uint_le(e2->pfx_announced - before, RIB_TURN_BUDGET);
		ck_assert_msg(++turns < 100, "no progress");
	}
	ck_assert_uint_ge(turns, 30000 / RIB_TURN_BUDGET);
	/* And the peer's removal too. */
	fake_peer_down(e1);
	turns = 0;
	while (fake_adj_count(e2, V4) > 0) {
		before = e2->pfx_withdrawn;
		event_loop_once(base, false);
		ck_assert_uint_le(e2->pfx_withdrawn - before, RIB_BATCH);
		ck_assert_msg(++turns < 100, "no progress");
	}
	ck_assert_uint_ge(turns, 30000 / RIB_BATCH);
}
END_TEST

struct ring_count {
	const char *needle;
	int matching, suppressed;
	char first[512];
};

static void ring_cb(const char *line, void *arg)
{
	struct ring_count *rc = arg;

	if (strstr(line, rc->needle) && !rc->matching++)
		snprintf(rc->first, sizeof(rc->first), "%s", line);
	if (strstr(line, "similar messages suppressed"))
		rc->suppressed++;
}

/*
 * A peer with extended messages sends attribute sets too large for a 4096-byte UPDATE, each
 * one different: every one used to cost a warning per receiving session (20,000 lines for
 * 20,000 prefixes). The first lines stay; the rest are counted (lib/log_limit.h).
 */
START_TEST(test_oversized_attribute_flood)
{
	enum { N = 2000, NCOMM = 1100 };
	const size_t attrs = 4 + 9 + 7 + 4 + 4 * NCOMM;
	uint8_t *body = malloc(2 + 2 + attrs + 4);
	struct ring_count rc = { .needle = "attribute set too large" };

	e1->info.max_msg_size = 65535;
	e1->info.codec.extended_message = true;
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	log_ring_clear();
	for (unsigned i = 0; i < N; i++) {
		size_t o = 0;

		body[o++] = 0, body[o++] = 0; /* no withdrawals */
		body[o++] = (uint8_t)(attrs >> 8), body[o++] = (uint8_t)attrs;
		memcpy(body + o, (const uint8_t[]){ 0x40, 1, 1, 0 }, 4); /* ORIGIN IGP */
		o += 4;
		memcpy(body + o, (const uint8_t[]){ 0x40, 2, 6, 2, 1, 0, 0, 0xfd, 0xea }, 9);
		o += 9; /* AS_PATH 65002 */
		memcpy(body + o, (const uint8_t[]){ 0x40, 3, 4, 10, 0, 0, 2 }, 7); /* NEXT_HOP */
		o += 7;
		body[o++] = 0xd0; /* optional transitive, extended length */
		body[o++] = BGP_ATTR_COMMUNITIES;
		body[o++] = (uint8_t)((4 * NCOMM) >> 8), body[o++] = (uint8_t)(4 * NCOMM);
		for (unsigned c = 0; c < NCOMM; c++) {
			/* 65002:c, the last one differs per UPDATE: a new set each time */
			uint32_t v = (65002u << 16) | (c + 1 == NCOMM ? 10000 + i : c);

			body[o++] = (uint8_t)(v >> 24), body[o++] = (uint8_t)(v >> 16);
			body[o++] = (uint8_t)(v >> 8), body[o++] = (uint8_t)v;
		}
		body[o++] = 24, body[o++] = 20, body[o++] = (uint8_t)(i >> 8);
		body[o++] = (uint8_t)i; /* 20.i.i/24 */
		ck_assert_uint_eq(o, 2 + 2 + attrs + 4);
		ck_assert_int_eq(fake_deliver(e1, body, o), 0);
		fake_run(bgp, RUN_ALL);
	}
	free(body);
	log_ring_walk(ring_cb, &rc);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 0); /* nothing could be sent */
	ck_assert_msg(rc.matching >= 1 && rc.matching <= LOG_LIMIT_BURST,
		      "%d lines for %d oversized attribute sets", rc.matching, N);
	ck_assert_msg(strstr(rc.first, "10.0.1.2: attribute set too large for a 4096-byte UPDATE"),
		      "first line: %s", rc.first);
	log_ring_clear();
}
END_TEST

static Suite *adj_out_suite(void)
{
	Suite *s = suite_create("bgp_adj_out");
	TCase *tc = tcase_create("adj_out");
	TCase *tl = tcase_create("loop");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_packing_ipv4);
	tcase_add_test(tc, test_packing_ipv6);
	tcase_add_test(tc, test_grouping_across_prefix_order);
	tcase_add_test(tc, test_backpressure);
	tcase_add_test(tc, test_walk_while_table_changes);
	tcase_add_test(tc, test_eor_after_initial_table);
	tcase_add_test(tc, test_many_sessions_bitmap);
	tcase_add_test(tc, test_journal_dedup);
	tcase_add_test(tc, test_stalled_session_bounded_journal);
	tcase_add_test(tc, test_oversized_attribute_flood);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tl, loop_setup, loop_teardown);
	tcase_set_timeout(tl, 60);
	tcase_add_test(tl, test_bounded_turns);
	suite_add_tcase(s, tl);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(adj_out_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
