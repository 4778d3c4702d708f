/* SPDX-License-Identifier: ISC */
/*
 * Long-lived graceful restart (RFC 9494) in the RIB: a session's paths made long-lived stale
 * carry LLGR_STALE, lose to any fresh path whatever else they have, go only to sessions that
 * negotiated LLGR (the others are sent a withdrawal), paths with NO_LLGR are removed instead,
 * a re-announcement makes a path fresh again, and the stale time running out removes the rest.
 * What each neighbour receives is decoded from the wire (rib_fake.c).
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/event.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
/* from: the restarting peer; alt: a second path for pfx[0], longer AS path; llgr_to and
 * plain_to: neighbours with and without LLGR. */
static struct fake_peer *from, *alt, *llgr_to, *plain_to;
static struct bgp_attr tmpl, tmpl_no_llgr, tmpl_alt;
static struct prefix pfx[3]; /* 198.51.100.0/24, 198.51.101.0/24, 198.51.102.0/24 */

static void comm_set(struct bgp_attr *t, uint32_t c)
{
	t->communities = bgp_u32list_intern(&c, 1);
	t->present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
}

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	from = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "2.2.2.2");
	alt = fake_peer_new(bgp, "192.0.2.4", 65004, "192.0.2.1", "4.4.4.4");
	llgr_to = fake_peer_new(bgp, "192.0.2.3", 65003, "192.0.2.1", "3.3.3.3");
	plain_to = fake_peer_new(bgp, "192.0.2.5", 65005, "192.0.2.1", "5.5.5.5");
	from->info.llgr = true;
	llgr_to->info.llgr = true;
	fake_peer_up(from);
	fake_peer_up(alt);
	fake_peer_up(llgr_to);
	fake_peer_up(plain_to);
	tmpl_init(&tmpl, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	tmpl_init(&tmpl_no_llgr, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	comm_set(&tmpl_no_llgr, BGP_COMM_NO_LLGR);
	tmpl_init(&tmpl_alt, "65004 65010 65011", "192.0.2.4", BGP_ORIGIN_IGP);
	tpfx_range(pfx, 3, "198.51.100.0/24", 24);
	fake_announce(from, V4, &tmpl, pfx, 2);
	fake_announce(from, V4, &tmpl_no_llgr, &pfx[2], 1);
	fake_announce(alt, V4, &tmpl_alt, pfx, 1);
	fake_run(bgp, RUN_ALL);
	/* The shorter AS path of from wins pfx[0] while it is fresh. */
	ck_assert_uint_eq(fake_adj(llgr_to, "198.51.100.0/24")->aspath->path_len, 2);
	ck_assert_uint_eq(fake_adj_count(plain_to, V4), 3);
}

static void teardown(void)
{
	bgp_u32list_unref(tmpl_no_llgr.communities);
	tmpl_release(&tmpl);
	tmpl_release(&tmpl_no_llgr);
	tmpl_release(&tmpl_alt);
	fake_peer_free(from);
	fake_peer_free(alt);
	fake_peer_free(llgr_to);
	fake_peer_free(plain_to);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static struct rib_src *src_of(struct fake_peer *fp)
{
	return fp->peer.rib->cur;
}

static bool has_llgr_stale(const struct bgp_attr *a)
{
	return a && bgp_u32list_contains(a->communities, BGP_COMM_LLGR_STALE);
}

START_TEST(test_llgr_stale_depreferred_and_sent_to_llgr_peers_only)
{
	const struct bgp_attr *a;
	struct bgp_dest *dest;

	rib_llgr_start(bgp->rib, src_of(from), V4, 60);
	fake_run(bgp, RUN_ALL);
	ck_assert_int_eq(src_of(from)->llgr_phase[V4], RIB_LLGR_ON);
	ck_assert_uint_eq(src_of(from)->llgr_kept[V4], 2);
	ck_assert_uint_eq(src_of(from)->llgr_dropped[V4], 1);

	/* NO_LLGR: removed, withdrawn from both. */
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.102.0/24"));
	ck_assert_ptr_null(fake_adj(plain_to, "198.51.102.0/24"));

	/* pfx[0]: the stale path loses to alt's longer AS path (RFC 9494 4.3). */
	a = fake_adj(llgr_to, "198.51.100.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->aspath->path_len, 4); /* ours + alt's three */
	ck_assert(!has_llgr_stale(a));
	ck_assert_ptr_nonnull(fake_adj(plain_to, "198.51.100.0/24"));
	dest = ptree_lookup(bgp->rib->af[V4].tree, &pfx[0]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_LLGR_STALE);

	/* pfx[1]: only the stale path: to the LLGR neighbour with LLGR_STALE, withdrawn from the
	 * other (RFC 9494 4.5). */
	a = fake_adj(llgr_to, "198.51.101.0/24");
	ck_assert(has_llgr_stale(a));
	ck_assert_ptr_null(fake_adj(plain_to, "198.51.101.0/24"));
	ck_assert_uint_eq(plain_to->spurious_withdraw, 0);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 2);

	/* The stale time runs out: the rest goes. */
	rib_llgr_expire(bgp->rib, src_of(from), V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(src_of(from)->llgr_removed[V4], 2);
	ck_assert_int_eq(src_of(from)->llgr_phase[V4], RIB_LLGR_IDLE);
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.101.0/24"));
	ck_assert_ptr_nonnull(fake_adj(llgr_to, "198.51.100.0/24"));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 0);
}
END_TEST

/* A re-announced route is fresh again: it wins, goes everywhere without LLGR_STALE, and the
 * stale time running out leaves it alone. */
START_TEST(test_reannounced_is_fresh)
{
	const struct bgp_attr *a;

	rib_llgr_start(bgp->rib, src_of(from), V4, 60);
	fake_run(bgp, RUN_ALL);
	fake_announce(from, V4, &tmpl, pfx, 2);
	fake_run(bgp, RUN_ALL);
	a = fake_adj(llgr_to, "198.51.100.0/24");
	ck_assert_uint_eq(a->aspath->path_len, 2);
	ck_assert(!has_llgr_stale(a));
	ck_assert(!has_llgr_stale(fake_adj(llgr_to, "198.51.101.0/24")));
	ck_assert_ptr_nonnull(fake_adj(plain_to, "198.51.101.0/24"));
	rib_llgr_expire(bgp->rib, src_of(from), V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(src_of(from)->llgr_removed[V4], 0);
	ck_assert_uint_eq(fake_adj_count(plain_to, V4), 2);
}
END_TEST

/* A route received with LLGR_STALE (an LLGR neighbour passing on what it keeps) is treated
 * alike: least preferred, and never sent to a neighbour without LLGR. */
START_TEST(test_received_llgr_stale_community)
{
	struct bgp_attr stale, longer;
	struct prefix p = tpfx("203.0.113.0/24");
	const struct bgp_attr *a;

	tmpl_init(&stale, "65004", "192.0.2.4", BGP_ORIGIN_IGP);
	comm_set(&stale, BGP_COMM_LLGR_STALE);
	fake_announce(alt, V4, &stale, &p, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert(has_llgr_stale(fake_adj(llgr_to, "203.0.113.0/24")));
	ck_assert_ptr_null(fake_adj(plain_to, "203.0.113.0/24"));
	/* A fresh path with a longer AS path beats it. */
	tmpl_init(&longer, "65002 65010 65011", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &longer, &p, 1);
	tmpl_release(&longer);
	fake_run(bgp, RUN_ALL);
	a = fake_adj(llgr_to, "203.0.113.0/24");
	ck_assert(!has_llgr_stale(a));
	ck_assert_ptr_nonnull(fake_adj(plain_to, "203.0.113.0/24"));
	bgp_u32list_unref(stale.communities);
	tmpl_release(&stale);
}
END_TEST

/* The session goes while long-lived stale: its timer goes with it (no leak, checked by the
 * teardown), and its paths with the cleanup walk. */
START_TEST(test_down_while_llgr_stale)
{
	rib_llgr_start(bgp->rib, src_of(from), V4, 60);
	fake_peer_down(from);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.101.0/24"));
	ck_assert_uint_eq(fake_adj_count(llgr_to, V4), 1); /* alt's pfx[0] */
}
END_TEST

/* ---- with graceful restart (bgp_rib_gr.c), on a real event loop ---- */

static struct event_base *base;

static void gr_setup(void)
{
	setup();
	base = event_loop_new();
	bgp->base = base;	      /* the timers run on it; the RIB's work with fake_run() */
	bgp->gr_stalepath_time = 360; /* bgp_create()'s default: not what ends GR here */
}

static void gr_teardown(void)
{
	teardown();
	event_loop_free(base);
}

/* from's next session: GR with restart time gr_time listing IPv4 (or nothing), LLGR for IPv4
 * with stale time llgr_time and its F bit. */
static void from_caps(uint16_t gr_time, bool gr_lists_v4, uint32_t llgr_time)
{
	from->info.gr = true;
	from->info.gr_time = gr_time;
	from->info.gr_af[V4] = gr_lists_v4;
	from->info.gr_fwd[V4] = gr_lists_v4;
	from->info.llgr = true;
	from->info.llgr_af[V4] = true;
	from->info.llgr_fwd[V4] = true;
	from->info.llgr_time[V4] = llgr_time;
	fake_peer_down(from);
	fake_peer_up(from);
	fake_announce(from, V4, &tmpl, pfx, 2);
	fake_announce(from, V4, &tmpl_no_llgr, &pfx[2], 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(plain_to, V4), 3);
}

static bool stale_at_llgr_to(void *arg)
{
	(void)arg;
	fake_run(bgp, RUN_ALL);
	return has_llgr_stale(fake_adj(llgr_to, "198.51.101.0/24"));
}

static bool gone_from_llgr_to(void *arg)
{
	(void)arg;
	fake_run(bgp, RUN_ALL);
	return fake_adj(llgr_to, "198.51.101.0/24") == NULL;
}

/* Run the loop (timers) until cond holds, for at most ms milliseconds. */
static bool pump_until(bool (*cond)(void *), void *arg, int ms)
{
	uint64_t end = monotime_ms() + (uint64_t)ms;

	while (!cond(arg)) {
		if (monotime_ms() > end)
			return false;
		event_loop_once(base, false);
		usleep(10000);
	}
	return true;
}

static bool all_sources_up(void)
{
	for (uint32_t id = 1; id < bgp->rib->src_cap; id++)
		if (bgp->rib->src[id] && !bgp->rib->src[id]->up)
			return false;
	return true;
}

/* GR first: kept unchanged through the restart time; then long-lived stale for the peer's
 * stale time (past GR's timers); then gone, and the kept session with them. */
START_TEST(test_after_restart_time)
{
	uint64_t t0;

	from_caps(1, true, 2);
	rib_peer_down_graceful(&from->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(plain_to, V4), 3);
	ck_assert(!has_llgr_stale(fake_adj(llgr_to, "198.51.101.0/24")));
	t0 = monotime_ms();
	ck_assert(pump_until(stale_at_llgr_to, NULL, 3000));
	ck_assert_uint_ge(monotime_ms() - t0, 900); /* not before the restart time */
	/* Past the restart time: NO_LLGR gone everywhere, the rest only to the LLGR neighbour,
	 * pfx[0] to alt's path. */
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.102.0/24"));
	ck_assert_ptr_null(fake_adj(plain_to, "198.51.101.0/24"));
	ck_assert_ptr_nonnull(fake_adj(plain_to, "198.51.100.0/24"));
	ck_assert_uint_eq(fake_adj(llgr_to, "198.51.100.0/24")->aspath->path_len, 4);
	ck_assert(!all_sources_up());
	ck_assert(pump_until(gone_from_llgr_to, NULL, 4000));
	ck_assert_uint_ge(monotime_ms() - t0, 2800); /* restart time + stale time */
	fake_run(bgp, RUN_ALL);
	ck_assert(all_sources_up());
}
END_TEST

/* A GR capability that lists no family (a helper-only peer) with LLGR: long-lived stale at
 * once when the session is lost. */
START_TEST(test_llgr_only_at_once)
{
	from_caps(120, false, 1);
	rib_peer_down_graceful(&from->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert(has_llgr_stale(fake_adj(llgr_to, "198.51.101.0/24")));
	ck_assert_ptr_null(fake_adj(plain_to, "198.51.101.0/24"));
	ck_assert(pump_until(gone_from_llgr_to, NULL, 3000));
	fake_run(bgp, RUN_ALL);
	ck_assert(all_sources_up());
}
END_TEST

/* Back while long-lived stale, with the LLGR F bit: kept until its End-of-RIB, what it sends
 * again is fresh, the rest goes at the End-of-RIB. */
START_TEST(test_back_while_long_lived_stale)
{
	static const uint8_t eor_v4[] = { 0, 0, 0, 0 };

	from_caps(120, false, 60);
	rib_peer_down_graceful(&from->peer);
	fake_run(bgp, RUN_ALL);
	fake_peer_up(from);
	fake_run(bgp, RUN_ALL);
	ck_assert(has_llgr_stale(fake_adj(llgr_to, "198.51.101.0/24")));
	fake_announce(from, V4, &tmpl, &pfx[0], 1);
	fake_run(bgp, RUN_ALL);
	ck_assert(!has_llgr_stale(fake_adj(llgr_to, "198.51.100.0/24")));
	ck_assert_uint_eq(fake_adj(llgr_to, "198.51.100.0/24")->aspath->path_len, 2);
	ck_assert_int_eq(fake_deliver(from, eor_v4, sizeof(eor_v4)), 0);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.101.0/24"));
	ck_assert_ptr_nonnull(fake_adj(plain_to, "198.51.100.0/24"));
	ck_assert(all_sources_up());
}
END_TEST

static Suite *llgr_suite(void)
{
	Suite *s = suite_create("bgp_llgr");
	TCase *tc = tcase_create("llgr");
	TCase *tg = tcase_create("with_gr");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_llgr_stale_depreferred_and_sent_to_llgr_peers_only);
	tcase_add_test(tc, test_reannounced_is_fresh);
	tcase_add_test(tc, test_received_llgr_stale_community);
	tcase_add_test(tc, test_down_while_llgr_stale);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tg, gr_setup, gr_teardown);
	tcase_set_timeout(tg, 30);
	tcase_add_test(tg, test_after_restart_time);
	tcase_add_test(tg, test_llgr_only_at_once);
	tcase_add_test(tg, test_back_while_long_lived_stale);
	suite_add_tcase(s, tg);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(llgr_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
