/* SPDX-License-Identifier: ISC */
/*
 * The restarting speaker's deferred selection (bgpd/rib/bgp_rib_gr_defer.c) through the real RIB,
 * fake sessions and a fake forwarding side: while deferring, routes are learned but neither
 * the kernel nor any peer hears of them; the End-of-RIB of the last awaited Graceful Restart
 * peer ends it, and then the table is installed and sent, End-of-RIB included. Which peers
 * are awaited: every configured one until it is up, but not one without the capability nor
 * one that is restarting too (its R bit).
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_gr_defer.h"
#include "lib/event.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000
#define NPFX 300

static struct bgp *bgp;
static struct fake_peer *g1, *g2, *plain;

static struct {
	unsigned installs;
	unsigned walks_all_done;
} fk;

static bool fk_valid(void *arg, const struct ipaddr *nh)
{
	(void)arg;
	(void)nh;
	return true;
}

static bool fk_install(void *arg, enum bgp_af af, const struct prefix *p, bool ebgp,
		       const struct rib_fib_set *set, bool installed)
{
	(void)arg;
	(void)af;
	(void)p;
	(void)ebgp;
	(void)installed;
	fk.installs++;
	return set->n > 0;
}

static void fk_walk_done(void *arg, bool all)
{
	(void)arg;
	fk.walks_all_done += all;
}

static const struct rib_fib_ops fk_ops = {
	.nexthop_valid = fk_valid,
	.install = fk_install,
	.walk_done = fk_walk_done,
};

static struct fake_peer *peer(const char *addr, uint32_t as, const char *local, const char *rid,
			      bool gr)
{
	struct fake_peer *fp = fake_peer_new(bgp, addr, as, local, rid);

	fp->info.gr = gr;
	fp->info.af[V6] = false; /* IPv4 only: one End-of-RIB each */
	TAILQ_INSERT_TAIL(&bgp->peers, &fp->peer, entry);
	return fp;
}

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	bgp = fake_bgp_new(65001, "192.0.2.1");
	bgp->default_ipv4_unicast = true; /* the configured neighbors are IPv4 ones */
	g1 = peer("192.0.2.2", 65002, "192.0.2.1", "198.51.100.2", true);
	g2 = peer("192.0.2.6", 65003, "192.0.2.5", "198.51.100.6", true);
	plain = peer("192.0.2.10", 65004, "192.0.2.9", "198.51.100.10", false);
	rib_gr_defer_begin(bgp->rib, 360);
	rib_fib_attach(bgp->rib, &fk_ops, NULL);
}

static void teardown(void)
{
	struct fake_peer *all[] = { g1, g2, plain };

	for (unsigned i = 0; i < 3; i++) {
		TAILQ_REMOVE(&bgp->peers, &all[i]->peer, entry);
		fake_peer_free(all[i]);
	}
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void announce(struct fake_peer *fp, const char *base, const char *aspath, const char *nh)
{
	struct bgp_attr t;
	struct prefix p[NPFX];

	tpfx_range(p, NPFX, base, 24);
	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	fake_announce(fp, V4, &t, p, NPFX);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static void eor(struct fake_peer *fp)
{
	static const uint8_t body[] = { 0, 0, 0, 0 }; /* IPv4 unicast End-of-RIB */

	ck_assert_int_eq(fake_deliver(fp, body, sizeof(body)), 0);
	fake_run(bgp, RUN_ALL);
}

static void all_up_and_announcing(void)
{
	fake_peer_up(g1);
	fake_peer_up(g2);
	fake_peer_up(plain);
	announce(g1, "10.10.0.0/24", "65002", "192.0.2.2");
	announce(g2, "10.20.0.0/24", "65003", "192.0.2.6");
	announce(plain, "10.30.0.0/24", "65004", "192.0.2.10");
}

START_TEST(test_nothing_moves_until_every_gr_peer_sent_eor)
{
	all_up_and_announcing();
	ck_assert(rib_gr_deferring(bgp->rib));
	ck_assert(bgp->gr_restarting);
	ck_assert_uint_eq(rib_af_count(bgp, V4), 3 * NPFX); /* learned... */
	ck_assert_uint_eq(fk.installs, 0);		    /* ...but not installed */
	ck_assert_uint_eq(g1->pfx_announced + g2->pfx_announced + plain->pfx_announced, 0);
	ck_assert_uint_eq(g1->eor[V4] + g2->eor[V4] + plain->eor[V4], 0);

	eor(g1);
	ck_assert(rib_gr_deferring(bgp->rib));
	ck_assert_uint_eq(fk.installs, 0);
	ck_assert_uint_eq(plain->msgs, 0);

	eor(g2); /* the last awaited one: plain never advertised the capability */
	ck_assert(!rib_gr_deferring(bgp->rib));
	ck_assert(!bgp->gr_restarting);
	ck_assert_uint_eq(fk.installs, 3 * NPFX); /* one walk, each prefix once */
	ck_assert_uint_eq(fk.walks_all_done, 1);
	/* Each peer gets the routes of the other two, then End-of-RIB. */
	ck_assert_uint_eq(plain->pfx_announced, 2 * NPFX);
	ck_assert_uint_eq(g1->pfx_announced, 2 * NPFX);
	ck_assert_uint_eq(plain->eor[V4], 1);
	ck_assert_uint_eq(g1->eor[V4], 1);
	ck_assert_uint_eq(g1->msgs_after_eor[V4], 0);
}
END_TEST

START_TEST(test_a_peer_not_up_is_awaited)
{
	fake_peer_up(g1);
	fake_peer_up(plain);
	announce(g1, "10.10.0.0/24", "65002", "192.0.2.2");
	eor(g1);
	/* g2 is configured and not up yet: it may still bring routes. */
	ck_assert(rib_gr_deferring(bgp->rib));
	ck_assert_uint_eq(fk.installs, 0);
	g2->peer.conf.shutdown = true; /* unless it is shut down */
	rib_gr_defer_check(bgp->rib);
	ck_assert(!rib_gr_deferring(bgp->rib));
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fk.installs, NPFX);
}
END_TEST

START_TEST(test_a_restarting_peer_is_not_awaited)
{
	g2->info.gr_restarting = true; /* it waits for our End-of-RIB: no deadlock */
	fake_peer_up(g1);
	fake_peer_up(g2);
	fake_peer_up(plain);
	announce(g2, "10.20.0.0/24", "65003", "192.0.2.6");
	ck_assert(rib_gr_deferring(bgp->rib));
	eor(g1);
	ck_assert(!rib_gr_deferring(bgp->rib));
	ck_assert_uint_eq(g1->pfx_announced, NPFX);
	ck_assert_uint_eq(g2->eor[V4], 1);
}
END_TEST

START_TEST(test_a_session_lost_while_deferring_is_awaited_again)
{
	all_up_and_announcing();
	eor(g1);
	fake_peer_down(g2);
	fake_run(bgp, RUN_ALL);
	ck_assert(rib_gr_deferring(bgp->rib));
	ck_assert_uint_eq(fk.installs, 0);
	fake_peer_up(g2);
	announce(g2, "10.20.0.0/24", "65003", "192.0.2.6");
	eor(g2);
	ck_assert(!rib_gr_deferring(bgp->rib));
	ck_assert_uint_eq(fk.installs, 3 * NPFX);
}
END_TEST

/* A peer that never sends End-of-RIB: select-defer-time ends the wait (the timer needs a loop:
 * a second deferral, on a RIB whose instance has one). */
START_TEST(test_select_defer_time_bounds_the_wait)
{
	struct event_base *base = event_loop_new();
	uint64_t t0;

	ck_assert_ptr_nonnull(base);
	all_up_and_announcing();
	eor(g1);
	eor(g2);
	ck_assert(!rib_gr_deferring(bgp->rib));
	fk.installs = 0;
	fake_peer_down(g2);
	fake_peer_up(g2); /* a new session, whose End-of-RIB never comes */
	bgp->base = base;
	rib_gr_defer_begin(bgp->rib, 1);
	ck_assert(rib_gr_deferring(bgp->rib));
	announce(g2, "10.20.0.0/24", "65003", "192.0.2.6");
	ck_assert_uint_eq(fk.installs, 0);
	t0 = monotime_ms();
	while (rib_gr_deferring(bgp->rib) && monotime_ms() - t0 < 5000)
		event_loop_once(base, true);
	ck_assert(!rib_gr_deferring(bgp->rib));
	ck_assert_uint_ge(monotime_ms() - t0, 900);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fk.installs, 3 * NPFX);
	rib_gr_defer_fini(bgp->rib); /* its timer goes before the loop */
	bgp->base = NULL;
	event_loop_free(base);
}
END_TEST

static Suite *gr_suite(void)
{
	Suite *s = suite_create("bgp_rib_gr_defer");
	TCase *tc = tcase_create("deferred_selection");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_nothing_moves_until_every_gr_peer_sent_eor);
	tcase_add_test(tc, test_a_peer_not_up_is_awaited);
	tcase_add_test(tc, test_a_restarting_peer_is_not_awaited);
	tcase_add_test(tc, test_a_session_lost_while_deferring_is_awaited_again);
	tcase_add_test(tc, test_select_defer_time_bounds_the_wait);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gr_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
