/* SPDX-License-Identifier: ISC */
/*
 * Enhanced route refresh (RFC 7313) on the RIB side, both ways. Receiving: what a peer does not
 * re-announce between its BoRR and its EoRR goes at the EoRR (or when the stale-path timer
 * runs out), from the RIB, from the peers it was sent to, and from the kept Adj-RIB-In.
 * Sending: a refresh asked by a peer that negotiated the capability goes between a BoRR and
 * an EoRR, in that order, once the initial End-of-RIB has gone; not otherwise.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *from, *to;
static struct bgp_attr tmpl;
static struct prefix pfx[3]; /* 198.51.100.0/24, 198.51.101.0/24, 198.51.102.0/24 */

static void setup_with(bool soft_in, bool enhanced)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	bgp->gr_stalepath_time = 360; /* bgp_create()'s default */
	from = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "2.2.2.2");
	to = fake_peer_new(bgp, "192.0.2.3", 65003, "192.0.2.1", "3.3.3.3");
	from->peer.conf.soft_reconfig[V4] = soft_in;
	from->info.enhanced_rr = enhanced;
	to->info.enhanced_rr = enhanced;
	fake_peer_up(from);
	fake_peer_up(to);
	tmpl_init(&tmpl, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	tpfx_range(pfx, 3, "198.51.100.0/24", 24);
	fake_announce(from, V4, &tmpl, pfx, 3);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 3);
	ck_assert_uint_eq(to->eor[V4], 1);
}

static void setup(void)
{
	setup_with(false, true);
}

static void setup_soft_in(void)
{
	setup_with(true, true);
}

static void teardown(void)
{
	tmpl_release(&tmpl);
	fake_peer_free(from);
	fake_peer_free(to);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static struct rib_src *src_of(struct fake_peer *fp)
{
	return fp->peer.rib->cur;
}

/* The peer refreshes: BoRR, only pfx[0] and pfx[2] again, EoRR. */
START_TEST(test_eorr_removes_what_was_not_reannounced)
{
	rib_refresh_begin_received(&from->peer, V4);
	ck_assert(rib_refresh_in_progress(&from->peer, V4));
	fake_announce(from, V4, &tmpl, &pfx[0], 1);
	fake_announce(from, V4, &tmpl, &pfx[2], 1);
	fake_run(bgp, RUN_ALL);
	/* Until the EoRR the stale route is still used and still advertised (RFC 7313 4). */
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 3);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.101.0/24"));
	ck_assert_uint_eq(to->pfx_withdrawn, 0);

	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert(!rib_refresh_in_progress(&from->peer, V4));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 2);
	ck_assert_ptr_null(fake_adj(to, "198.51.101.0/24"));
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/24"));
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.102.0/24"));
	ck_assert_uint_eq(to->pfx_withdrawn, 1);

	/* The next round starts clean: re-announced paths carry no stale mark into it. */
	rib_refresh_begin_received(&from->peer, V4);
	fake_announce(from, V4, &tmpl, pfx, 1);
	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
}
END_TEST

/* A route that comes back unchanged (the same interned set) is re-announced as much as a
 * changed one: it must lose its mark too. */
START_TEST(test_unchanged_reannouncement_is_fresh)
{
	struct bgp_attr other;

	tmpl_init(&other, "65002 65010", "192.0.2.2", BGP_ORIGIN_IGP);
	rib_refresh_begin_received(&from->peer, V4);
	fake_announce(from, V4, &tmpl, &pfx[0], 1);  /* the same as before */
	fake_announce(from, V4, &other, &pfx[1], 1); /* changed */
	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 2);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/24"));
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.101.0/24"));
	ck_assert_ptr_null(fake_adj(to, "198.51.102.0/24"));
	tmpl_release(&other);
}
END_TEST

START_TEST(test_eorr_without_borr_ignored)
{
	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 3);
	ck_assert_uint_eq(fake_adj_count(to, V4), 3);
}
END_TEST

/* No EoRR: the stale-path timer ends the refresh as an EoRR would. */
START_TEST(test_timer_expiry_removes_stale)
{
	rib_refresh_begin_received(&from->peer, V4);
	fake_announce(from, V4, &tmpl, &pfx[1], 1);
	rib_refresh_expire(bgp->rib, src_of(from), V4);
	fake_run(bgp, RUN_ALL);
	ck_assert(!rib_refresh_in_progress(&from->peer, V4));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.101.0/24"));
}
END_TEST

/* A session that goes down mid-refresh takes its refresh state with it (no leak, no timer). */
START_TEST(test_down_during_refresh)
{
	rib_refresh_begin_received(&from->peer, V4);
	fake_peer_down(from);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
}
END_TEST

/* soft-reconfiguration inbound keeps the routes as received: the EoRR removes what was not
 * re-announced there too, withdrawn or filtered alike. */
START_TEST(test_kept_adj_in_swept)
{
	const struct ptree *kept = rib_adj_in(src_of(from), V4);

	ck_assert_ptr_nonnull(kept);
	ck_assert_uint_eq(ptree_count(kept), 3);
	rib_refresh_begin_received(&from->peer, V4);
	fake_announce(from, V4, &tmpl, &pfx[2], 1);
	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(ptree_count(kept), 1);
	ck_assert_ptr_nonnull(ptree_lookup(kept, &pfx[2]));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	/* And the kept routes through the policy again bring nothing stale back. */
	ck_assert(rib_soft_reconfig_in(&from->peer, V4));
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
}
END_TEST

/* Sending: the peer asks, and gets BoRR, the table, EoRR, in that order. */
START_TEST(test_refresh_sent_between_borr_and_eorr)
{
	to->rr_nlog = 0;
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(to->borr[V4], 1);
	ck_assert_uint_eq(to->eorr[V4], 1);
	to->rr_log[to->rr_nlog] = 0;
	ck_assert_str_eq(to->rr_log, "BUE");
	ck_assert_uint_eq(fake_adj_count(to, V4), 3);

	/* A change while the walk goes on is inside the round: it precedes the EoRR. */
	to->rr_nlog = 0;
	rib_route_refresh_received(&to->peer, V4);
	fake_withdraw(from, V4, &pfx[0], 1);
	fake_run(bgp, RUN_ALL);
	to->rr_log[to->rr_nlog] = 0;
	ck_assert_uint_eq(to->rr_log[0], 'B');
	ck_assert_uint_eq(to->rr_log[to->rr_nlog - 1], 'E');
	ck_assert_uint_eq(to->eorr[V4], 2);
	ck_assert_ptr_null(fake_adj(to, "198.51.100.0/24"));

	/* A resend of our own (clear soft out, an outbound policy change) is no refresh round
	 * (FRR's behaviour): no BoRR. */
	rib_resend(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(to->borr[V4], 2);
}
END_TEST

/* Without the capability: the table again, no BoRR/EoRR. */
START_TEST(test_no_borr_without_capability)
{
	tmpl_release(&tmpl);
	fake_peer_free(from);
	fake_peer_free(to);
	fake_bgp_free(bgp);
	setup_with(false, false);
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(to->borr[V4], 0);
	ck_assert_uint_eq(to->eorr[V4], 0);
	ck_assert_uint_eq(to->pfx_announced, 6);
}
END_TEST

/* Before our first End-of-RIB the initial table is still going out: the refresh joins it and
 * that End-of-RIB ends it, without BoRR/EoRR. */
START_TEST(test_no_borr_before_eor)
{
	struct fake_peer *late = fake_peer_new(bgp, "192.0.2.4", 65004, "192.0.2.1", "4.4.4.4");

	late->info.enhanced_rr = true;
	fake_peer_up(late);
	rib_route_refresh_received(&late->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(late->borr[V4], 0);
	ck_assert_uint_eq(late->eorr[V4], 0);
	ck_assert_uint_eq(late->eor[V4], 1);
	ck_assert_uint_eq(fake_adj_count(late, V4), 3);
	fake_peer_free(late);
}
END_TEST

/* A table larger than one turn's walk: announcements behind and ahead of the marking walk are
 * fresh alike; a second BoRR during the walk starts the round again, so what was announced
 * before it is stale once more. */
#define BIG 6000

START_TEST(test_walk_interleaved_with_announcements)
{
	static struct prefix big[BIG];

	tpfx_range(big, BIG, "10.0.0.0/32", 32);
	fake_announce(from, V4, &tmpl, big, BIG);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), BIG + 3);

	rib_refresh_begin_received(&from->peer, V4);
	fake_run(bgp, 1); /* one turn: the walk is part way (RIB_BATCH prefixes) */
	ck_assert(src_of(from)->rr_phase[V4] == RIB_RR_MARKING);
	ck_assert(src_of(from)->rr_started[V4]);
	ck_assert_int_gt(prefix_cmp(&big[BIG - 1], &src_of(from)->rr_last[V4]), 0);
	ck_assert_int_lt(prefix_cmp(&big[10], &src_of(from)->rr_last[V4]), 0);
	fake_announce(from, V4, &tmpl, &big[10], 1);	  /* behind the walk */
	fake_announce(from, V4, &tmpl, &big[BIG - 1], 1); /* ahead of it */
	rib_refresh_end_received(&from->peer, V4);	  /* before the walk ends */
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 2);
	ck_assert_uint_eq(fake_adj_count(to, V4), 2);
	ck_assert_ptr_nonnull(fake_adj(to, "10.0.0.10/32"));

	/* Twice: what came between the two BoRRs is stale again. */
	fake_announce(from, V4, &tmpl, big, BIG);
	fake_run(bgp, RUN_ALL);
	rib_refresh_begin_received(&from->peer, V4);
	fake_run(bgp, 1);
	fake_announce(from, V4, &tmpl, &big[BIG - 2], 1); /* ahead, before the second BoRR */
	rib_refresh_begin_received(&from->peer, V4);
	fake_announce(from, V4, &tmpl, &big[BIG - 3], 1); /* after it */
	rib_refresh_end_received(&from->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "10.0.23.109/32")); /* big[BIG - 3] = 10.0.0.0 + 5997 */
	for (uint32_t id = 1; id < bgp->rib->src_cap; id++) {
		struct rib_src *s = bgp->rib->src[id];

		ck_assert(!s || s->rr_phase[V4] == RIB_RR_IDLE);
	}
}
END_TEST

static Suite *refresh_suite(void)
{
	Suite *s = suite_create("bgp_refresh");
	TCase *tc = tcase_create("enhanced");
	TCase *ts = tcase_create("soft_in");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_eorr_removes_what_was_not_reannounced);
	tcase_add_test(tc, test_unchanged_reannouncement_is_fresh);
	tcase_add_test(tc, test_eorr_without_borr_ignored);
	tcase_add_test(tc, test_timer_expiry_removes_stale);
	tcase_add_test(tc, test_down_during_refresh);
	tcase_add_test(tc, test_refresh_sent_between_borr_and_eorr);
	tcase_add_test(tc, test_no_borr_without_capability);
	tcase_add_test(tc, test_no_borr_before_eor);
	tcase_add_test(tc, test_walk_interleaved_with_announcements);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(ts, setup_soft_in, teardown);
	tcase_set_timeout(ts, 30);
	tcase_add_test(ts, test_kept_adj_in_swept);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(refresh_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
