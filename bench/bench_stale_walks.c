/* SPDX-License-Identifier: ISC */
/*
 * Benchmark (not a test): the table walks of enhanced route refresh (RFC 7313) and long-lived
 * graceful restart (RFC 9494) on one peer's N IPv4 paths, through the RIB alone (the fake
 * sessions of tests/unit/rib_fake.c), turn by turn as the event loop runs them:
 *
 *   bench/bench_stale_walks [prefixes (1000000)]
 *
 *   1. the peer's BoRR: the walk marking its N paths stale;
 *   2. half of them announced again, then its EoRR: the walk removing the other half (and
 *      the withdrawals to a second peer);
 *   3. the rest made long-lived stale: the walk adding LLGR_STALE (and the UPDATEs);
 *   4. the stale time over: the walk removing them.
 * For each: the time of the call itself, the number of work turns, the total time and the
 * longest turn (what the sessions wait at most for their keepalives and reads).
 */
#include "lib/compat.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/event.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST

static size_t n_prefixes = 1000000;

/* Run the RIB's work turn by turn until none is left; print what it took. */
static void turns(struct bgp *bgp, const char *what, uint64_t call_ms)
{
	uint64_t t0 = monotime_ms(), worst = 0, count = 0;

	while (rib_work_pending(bgp->rib)) {
		uint64_t a = monotime_ms();

		rib_work_run(bgp->rib, 1);
		count++;
		if (monotime_ms() - a > worst)
			worst = monotime_ms() - a;
	}
	printf("%-44s call %3llu ms, %5llu turns, %5llu ms in all, longest turn %3llu ms\n", what,
	       (unsigned long long)call_ms, (unsigned long long)count,
	       (unsigned long long)(monotime_ms() - t0), (unsigned long long)worst);
}

START_TEST(bench)
{
	struct bgp *bgp = fake_bgp_new(65001, "192.0.2.1");
	struct fake_peer *from = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "2.2.2.2");
	struct fake_peer *to = fake_peer_new(bgp, "192.0.2.3", 65003, "192.0.2.1", "3.3.3.3");
	struct prefix *p = calloc(n_prefixes, sizeof(*p));
	struct bgp_attr t;
	char what[64];
	uint64_t t0;

	ck_assert_ptr_nonnull(p);
	bgp->gr_stalepath_time = 360;
	from->info.enhanced_rr = true;
	to->keep = false; /* count what it is sent, keep nothing */
	to->info.llgr = true;
	fake_peer_up(from);
	fake_peer_up(to);
	tmpl_init(&t, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	tpfx_range(p, n_prefixes, "10.0.0.0/32", 32);
	fake_announce(from, V4, &t, p, n_prefixes);
	turns(bgp, "table in and out", 0);

	t0 = monotime_ms();
	rib_refresh_begin_received(&from->peer, V4);
	snprintf(what, sizeof(what), "BoRR: marking %zu paths stale", n_prefixes);
	turns(bgp, what, monotime_ms() - t0);

	fake_announce(from, V4, &t, p, n_prefixes / 2);
	t0 = monotime_ms();
	rib_refresh_end_received(&from->peer, V4);
	snprintf(what, sizeof(what), "EoRR: removing %zu stale paths", n_prefixes - n_prefixes / 2);
	turns(bgp, what, monotime_ms() - t0);

	t0 = monotime_ms();
	rib_llgr_start(bgp->rib, from->peer.rib->cur, V4, 60);
	snprintf(what, sizeof(what), "LLGR: %zu paths long-lived stale", n_prefixes / 2);
	turns(bgp, what, monotime_ms() - t0);

	t0 = monotime_ms();
	rib_llgr_expire(bgp->rib, from->peer.rib->cur, V4);
	snprintf(what, sizeof(what), "LLGR stale time over: removing %zu", n_prefixes / 2);
	turns(bgp, what, monotime_ms() - t0);

	tmpl_release(&t);
	fake_peer_free(from);
	fake_peer_free(to);
	fake_bgp_free(bgp);
	free(p);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("bench_stale_walks");
	TCase *tc = tcase_create("walks");
	SRunner *sr;
	int failed;

	if (argc > 1)
		n_prefixes = strtoul(argv[1], NULL, 10);
	if (n_prefixes < 2 || n_prefixes > 16000000) {
		fprintf(stderr, "usage: bench_stale_walks [prefixes, 2 to 16000000]\n");
		return 2;
	}
	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, bench);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	/* In this process (the fakes use Check's assertions), quietly. */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
