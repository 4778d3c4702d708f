/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart, the helper's side (bgpd/rib/bgp_rib_gr.c), through the RIB's session
 * calls: a restarting peer (r) whose routes an observer (o) is sent. What o holds is what the
 * rest of the network sees: routes kept through the restart are neither withdrawn nor
 * re-sent; routes flushed are withdrawn. The restart and stalepath timers run on a real event
 * loop with short times (bounded waits).
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "lib/event.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct event_base *base;
static struct fake_peer *r, *o;

/* r negotiated GR listing both families, restart time t; F bits per fwd4/fwd6. */
static void r_gr(uint16_t t, bool fwd4, bool fwd6)
{
	r->info.gr = true;
	r->info.gr_time = t;
	r->info.gr_af[V4] = r->info.gr_af[V6] = true;
	r->info.gr_fwd[V4] = fwd4;
	r->info.gr_fwd[V6] = fwd6;
}

static void setup(void)
{
	bgp = fake_bgp_new(65001, "10.0.0.1");
	base = event_loop_new();
	bgp->base = base; /* the RIB's timers use it; its work runs with fake_run() */
	bgp->gr_stalepath_time = 1;
	r = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	o = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	r_gr(120, true, true);
	fake_peer_up(r);
	fake_peer_up(o);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(r);
	fake_peer_free(o);
	fake_bgp_free(bgp);
	event_loop_free(base);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void announce(const char *pfx, const char *aspath, const char *nh)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	fake_announce(r, p.family == AF_INET ? V4 : V6, &t, &p, 1);
	tmpl_release(&t);
}

/* The table r sends before each restart: three IPv4 prefixes and one IPv6. */
static void announce_table(void)
{
	announce("20.0.1.0/24", "65002", "10.0.0.2");
	announce("20.0.2.0/24", "65002", "10.0.0.2");
	announce("20.0.3.0/24", "65002", "10.0.0.2");
	announce("2001:db8:20::/48", "65002", "2001:db8::2");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert_uint_eq(fake_adj_count(o, V6), 1);
}

static void eor(enum bgp_af af)
{
	static const uint8_t v4[] = { 0, 0, 0, 0 };
	static const uint8_t v6[] = { 0, 0, 0, 6, 0x80, 0x0f, 3, 0, 2, 1 };

	if (af == V4)
		ck_assert_int_eq(fake_deliver(r, v4, sizeof(v4)), 0);
	else
		ck_assert_int_eq(fake_deliver(r, v6, sizeof(v6)), 0);
	fake_run(bgp, RUN_ALL);
}

/* The source holding r's path for pfx (NULL: none). */
static const struct rib_src *path_src(const char *pfx)
{
	struct prefix p = tpfx(pfx);
	const struct bgp_dest *d =
		ptree_lookup(bgp->rib->af[p.family == AF_INET ? V4 : V6].tree, &p);

	return d && dest_paths(d) ? rib_src_get(bgp->rib, dest_paths(d)->src) : NULL;
}

static bool o_lost_all(void *arg)
{
	(void)arg;
	fake_run(bgp, RUN_ALL);
	return fake_adj_count(o, V4) == 0 && fake_adj_count(o, V6) == 0;
}

static bool o_has_v4(void *arg)
{
	fake_run(bgp, RUN_ALL);
	return fake_adj_count(o, V4) == (size_t)(uintptr_t)arg;
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

/* Kept through the loss, replaced as re-announced, the rest gone at End-of-RIB; a family
 * without the F bit in the new OPEN goes at once. */
START_TEST(test_kept_replaced_flushed_at_eor)
{
	const struct rib_src *old;
	char buf[64];

	announce_table();
	old = r->peer.rib->cur;
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	/* Nothing withdrawn, nothing re-sent: the rest of the network sees no change. */
	ck_assert_uint_eq(o->pfx_withdrawn, 0);
	ck_assert_uint_eq(o->pfx_announced, 4);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert_ptr_eq(path_src("20.0.1.0/24"), old);
	ck_assert(!old->up && old->gr_stale);
	ck_assert_int_eq(rib_gr_state(old), RIB_GR_RESTARTING);
	ck_assert_ptr_null(r->peer.rib->cur);

	/* Back, IPv4 forwarding state kept (F), IPv6 not: IPv6 goes now. */
	r_gr(120, true, false);
	r->info.gr_restarting = true;
	fake_peer_up(r);
	fake_run(bgp, RUN_ALL);
	ck_assert_int_eq(rib_gr_state(old), RIB_GR_STALE);
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert_uint_eq(o->pfx_withdrawn, 1);

	/* Re-announced: one changed (the new attributes go out), one the same; 20.0.3.0 not. */
	announce("20.0.1.0/24", "65002 65099", "10.0.0.2");
	announce("20.0.2.0/24", "65002", "10.0.0.2");
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_eq(path_src("20.0.1.0/24"), r->peer.rib->cur);
	ck_assert_ptr_eq(path_src("20.0.2.0/24"), r->peer.rib->cur);
	ck_assert_ptr_eq(path_src("20.0.3.0/24"), old);
	bgp_aspath_to_str(fake_adj(o, "20.0.1.0/24")->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65001 65002 65099");
	/* Only the changed route was sent on: the same route again is no news for o. */
	ck_assert_uint_eq(o->pfx_announced, 5);
	ck_assert_ptr_nonnull(fake_adj(o, "20.0.3.0/24"));
	ck_assert_uint_eq(rib_peer_accepted(&r->peer, V4), 2);

	/* End-of-RIB: what was not re-announced goes, and the old session with it. */
	eor(V4);
	ck_assert_ptr_null(fake_adj(o, "20.0.3.0/24"));
	ck_assert_uint_eq(fake_adj_count(o, V4), 2);
	ck_assert_uint_eq(o->pfx_withdrawn, 2);
	for (uint32_t id = 1; id < bgp->rib->src_cap; id++)
		if (bgp->rib->src[id])
			ck_assert(bgp->rib->src[id]->up);
}
END_TEST

/* Families the capability did not list are not kept; nor is anything without GR. */
START_TEST(test_capability_families)
{
	/* r's capability listed IPv4 only (FRR lists families only in restart mode). */
	fake_peer_down(r);
	r->info.gr_af[V6] = false;
	fake_peer_up(r);
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);

	/* Back without GR at all: the stale IPv4 routes go too. */
	memset(r->info.gr_af, 0, sizeof(r->info.gr_af));
	r->info.gr = false;
	fake_peer_up(r);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 0);

	/* A session without GR negotiated, lost the same way: routes go at once. */
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 0);
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);
}
END_TEST

/* The restart timer (the peer's restart time) runs out before the peer is back. */
START_TEST(test_restart_timer_expires)
{
	fake_peer_down(r); /* a session with restart time 0 */
	r_gr(0, true, true);
	fake_peer_up(r);
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert(pump_until(o_lost_all, NULL, 3000));
}
END_TEST

/* Back, but no End-of-RIB: the stalepath timer (started at the loss, as FRR's) removes what
 * was not re-announced. */
START_TEST(test_stalepath_timer_expires)
{
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_peer_up(r);
	announce("20.0.2.0/24", "65002", "10.0.0.2");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	ck_assert_int_eq(rib_peer_gr_restart_remaining(&r->peer), -1); /* r is back */
	ck_assert_int_ge(rib_peer_gr_stale_remaining(&r->peer), 0);
	ck_assert(pump_until(o_has_v4, (void *)(uintptr_t)1, 3000));
	ck_assert_ptr_nonnull(fake_adj(o, "20.0.2.0/24"));
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);
}
END_TEST

/* A second loss while stale: the first restart's leftovers go; what the second session
 * re-announced is kept, stale, for the next restart. */
START_TEST(test_second_loss_while_stale)
{
	const struct rib_src *first;

	announce_table();
	first = r->peer.rib->cur;
	rib_peer_down_graceful(&r->peer);
	fake_peer_up(r);
	announce("20.0.1.0/24", "65002", "10.0.0.2");
	fake_run(bgp, RUN_ALL);
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(o, "20.0.1.0/24"));
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);
	ck_assert(path_src("20.0.1.0/24") != first);
	ck_assert(path_src("20.0.1.0/24")->gr_stale);
}
END_TEST

/* Shut down, reset or deleted while the routes are stale: they go (and nothing leaks: the
 * teardown checks the RIB's memory). */
START_TEST(test_flush_on_operator_action)
{
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	rib_peer_gr_flush(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 0);
	ck_assert_uint_eq(fake_adj_count(o, V6), 0);

	/* Deleted while restarting: fake_peer_free() in the teardown detaches r then. */
	fake_peer_up(r);
	announce_table();
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 3);
	rib_peer_detach(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 0);
	rib_peer_attach(&r->peer);
}
END_TEST

/* A bigger table goes in bounded batches, more than one loop turn. */
START_TEST(test_flush_is_bounded)
{
	static struct prefix p[6000];
	struct bgp_attr t;
	unsigned turns = 0;

	tpfx_range(p, 6000, "30.0.0.0/24", 24);
	tmpl_init(&t, "65002", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(r, V4, &t, p, 6000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	rib_peer_down_graceful(&r->peer);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(o, V4), 6000);
	fake_peer_up(r);
	eor(V6);
	ck_assert_uint_eq(fake_adj_count(o, V4), 6000);
	ck_assert(fake_deliver(r, (const uint8_t[]){ 0, 0, 0, 0 }, 4) == 0);
	while (rib_work_pending(bgp->rib) && turns < 100) {
		fake_run(bgp, 1);
		turns++;
	}
	ck_assert_uint_ge(turns, 3);
	ck_assert_uint_eq(fake_adj_count(o, V4), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_rib_gr");
	TCase *tc = tcase_create("helper");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_kept_replaced_flushed_at_eor);
	tcase_add_test(tc, test_capability_families);
	tcase_add_test(tc, test_restart_timer_expires);
	tcase_add_test(tc, test_stalepath_timer_expires);
	tcase_add_test(tc, test_second_loss_while_stale);
	tcase_add_test(tc, test_flush_on_operator_action);
	tcase_add_test(tc, test_flush_is_bounded);
	suite_add_tcase(s, tc);
	{
		SRunner *sr = srunner_create(s);
		int failed;

		srunner_run_all(sr, CK_NORMAL);
		failed = srunner_ntests_failed(sr);
		srunner_free(sr);
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;
	}
}
