/* SPDX-License-Identifier: ISC */
/*
 * The RIB's side of forwarding (bgpd/rib/bgp_rib_fib.c) through the real RIB, fake sessions and a
 * fake forwarding side that records what it is told: which paths make a multipath set (FRR's
 * rules), that a losing second feed costs the kernel nothing, maximum-paths, that our own
 * routes are not installed, that withdrawals remove, and that an unreachable next hop takes
 * its paths out of the decision, of the kernel and of what peers are sent.
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
static struct fake_peer *e1, *e2, *e3, *i1, *sink;

/* ---- the fake forwarding side ---- */

static struct {
	unsigned installs, removals;
	char last[256]; /* "PREFIX nh,nh" of the last call, "PREFIX -" for a removal */
	struct ipaddr down[4];
	unsigned ndown;
	bool changed_all;
	unsigned walks_done;
	struct ipaddr far; /* a next hop with an IGP metric (the others: 0) */
	uint32_t far_metric;
} fk;

static bool fk_valid(void *arg, const struct ipaddr *nh)
{
	(void)arg;
	for (unsigned i = 0; i < fk.ndown; i++)
		if (ipaddr_cmp(&fk.down[i], nh) == 0)
			return false;
	return true;
}

static bool fk_changed(void *arg, const struct ipaddr *nh)
{
	(void)arg;
	(void)nh;
	return fk.changed_all;
}

static uint32_t fk_metric(void *arg, const struct ipaddr *nh)
{
	(void)arg;
	return ipaddr_cmp(&fk.far, nh) == 0 ? fk.far_metric : 0;
}

static bool fk_install(void *arg, enum bgp_af af, const struct prefix *p, bool ebgp,
		       const struct rib_fib_set *set, bool installed)
{
	char pfx[PREFIX_STRLEN], a[IPADDR_STRLEN];
	size_t off;

	(void)arg;
	(void)af;
	(void)ebgp;
	(void)installed;
	off = (size_t)snprintf(fk.last, sizeof(fk.last), "%s ", prefix_to_str(p, pfx, sizeof(pfx)));
	if (!set->n) {
		fk.removals++;
		snprintf(fk.last + off, sizeof(fk.last) - off, "-");
		return false;
	}
	fk.installs++;
	for (unsigned i = 0; i < set->n; i++)
		off += (size_t)snprintf(fk.last + off, sizeof(fk.last) - off, "%s%s", i ? "," : "",
					ipaddr_to_str(&set->nh[i], a, sizeof(a)));
	return true;
}

static void fk_walk_done(void *arg, bool all)
{
	(void)arg;
	(void)all;
	fk.walks_done++;
}

static const struct rib_fib_ops fk_ops = {
	.nexthop_valid = fk_valid,
	.nexthop_changed = fk_changed,
	.nexthop_metric = fk_metric,
	.install = fk_install,
	.walk_done = fk_walk_done,
};

/* ---- set-up ---- */

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	bgp = fake_bgp_new(65001, "192.0.2.1");
	e1 = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	e2 = fake_peer_new(bgp, "192.0.2.6", 65002, "192.0.2.5", "198.51.100.6");
	e3 = fake_peer_new(bgp, "192.0.2.10", 65003, "192.0.2.9", "198.51.100.10");
	i1 = fake_peer_new(bgp, "192.0.2.14", 65001, "192.0.2.13", "198.51.100.14");
	sink = fake_peer_new(bgp, "192.0.2.18", 65009, "192.0.2.17", "198.51.100.18");
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_peer_up(e3);
	fake_peer_up(i1);
	fake_peer_up(sink);
	rib_fib_attach(bgp->rib, &fk_ops, NULL);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_peer_free(e3);
	fake_peer_free(i1);
	fake_peer_free(sink);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void announce(struct fake_peer *fp, const char *pfx, const char *aspath, const char *nh)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	fake_announce(fp, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static void withdraw(struct fake_peer *fp, const char *pfx)
{
	struct prefix p = tpfx(pfx);

	fake_withdraw(fp, V4, &p, 1);
	fake_run(bgp, RUN_ALL);
}

/* What the forwarding side asks when it releases a held deletion (bgpd/fib/bgp_fib.c). */
static bool installed(const char *pfx)
{
	struct prefix p = tpfx(pfx);

	return rib_fib_installed(bgp->rib, V4, &p);
}

/* Paths of pfx the show commands mark multipath. */
static unsigned multipaths(const char *pfx)
{
	struct prefix p = tpfx(pfx);
	const struct bgp_dest *d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	unsigned n = 0;

	for (const struct bgp_path *path = d ? dest_paths(d) : NULL; path; path = path_next(path))
		n += rib_path_multipath(bgp->rib, V4, d, path);
	return n;
}

/* ---- tests ---- */

START_TEST(test_equal_ebgp_paths_are_multipath)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
	announce(e2, "203.0.113.0/24", "65002", "192.0.2.6");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2,192.0.2.6");
	ck_assert_uint_eq(fk.installs, 2);
	ck_assert(installed("203.0.113.0/24"));
	ck_assert_uint_eq(multipaths("203.0.113.0/24"), 2); /* shown as *> and *= */
	rib_fib_maxpaths_set(bgp->rib, V4, false, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(multipaths("203.0.113.0/24"), 0);
}
END_TEST

START_TEST(test_different_as_path_is_not_multipath)
{
	/* Same length, another neighbor AS: FRR requires identical AS paths (no
	 * multipath-relax), and the set stays the best path alone: no second call. */
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e3, "203.0.113.0/24", "65003", "192.0.2.10");
	ck_assert_uint_eq(fk.installs, 1);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
}
END_TEST

START_TEST(test_multipath_relax)
{
	/* bgp bestpath as-path multipath-relax: the same length is enough, at once. */
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e3, "203.0.113.0/24", "65003", "192.0.2.10");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
	bgp->bestpath.multipath_relax = true;
	bgp_bestpath_changed(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2,192.0.2.10");
	ck_assert_uint_eq(multipaths("203.0.113.0/24"), 2);
	/* A longer AS path still is not. */
	announce(e3, "203.0.113.0/24", "65003 65004", "192.0.2.10");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
	bgp->bestpath.multipath_relax = false;
	bgp_bestpath_changed(bgp);
	fake_run(bgp, RUN_ALL);
}
END_TEST

START_TEST(test_igp_metric_decides_and_splits_multipath)
{
	/* Two eBGP paths equal but for the IGP metric to their next hops: the lower metric is
	 * best, and they are no multipath (FRR: equal only up to and with the metric). */
	ipaddr_from_str(&fk.far, "192.0.2.2");
	fk.far_metric = 10;
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e2, "203.0.113.0/24", "65002", "192.0.2.6");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.6");
	ck_assert_uint_eq(multipaths("203.0.113.0/24"), 0);
	/* The metric goes to 0 (the next hop's resolution changed): equal again. */
	fk.far_metric = 0;
	fk.changed_all = true;
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	fk.changed_all = false;
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2,192.0.2.6");
}
END_TEST

START_TEST(test_losing_feed_costs_the_kernel_nothing)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e3, "203.0.113.0/24", "65003 65004", "192.0.2.10");
	announce(i1, "203.0.113.0/24", "65002", "192.0.2.14"); /* eBGP beats iBGP */
	ck_assert_uint_eq(fk.installs, 1);
	ck_assert_uint_eq(fk.removals, 0);
}
END_TEST

START_TEST(test_maximum_paths)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e2, "203.0.113.0/24", "65002", "192.0.2.6");
	rib_fib_maxpaths_set(bgp->rib, V4, false, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
	/* The iBGP limit is another one: it does not apply to eBGP paths. */
	rib_fib_maxpaths_set(bgp->rib, V4, false, 2);
	rib_fib_maxpaths_set(bgp->rib, V4, true, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2,192.0.2.6");
}
END_TEST

START_TEST(test_withdraw_removes)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e2, "203.0.113.0/24", "65002", "192.0.2.6");
	withdraw(e1, "203.0.113.0/24");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.6");
	ck_assert(installed("203.0.113.0/24"));
	withdraw(e2, "203.0.113.0/24");
	ck_assert_str_eq(fk.last, "203.0.113.0/24 -");
	ck_assert_uint_eq(fk.removals, 1);
	ck_assert(!installed("203.0.113.0/24"));
	/* Back before the removal reached the kernel: the RIB says it is wanted again. */
	announce(e2, "203.0.113.0/24", "65002", "192.0.2.6");
	ck_assert(installed("203.0.113.0/24"));
	ck_assert(!installed("203.0.113.128/25")); /* never seen */
}
END_TEST

START_TEST(test_local_routes_not_installed)
{
	struct prefix p = tpfx("198.51.100.128/25");

	rib_network_add(bgp, V4, &p);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fk.installs, 0);
	ck_assert_ptr_nonnull(fake_adj(sink, "198.51.100.128/25")); /* but advertised */
	rib_network_del(bgp, V4, &p);
	fake_run(bgp, RUN_ALL);
}
END_TEST

START_TEST(test_unreachable_nexthop_invalidates)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	announce(e3, "203.0.113.0/24", "65003 65004", "192.0.2.10");
	ck_assert_ptr_nonnull(fake_adj(sink, "203.0.113.0/24"));

	/* 192.0.2.2 becomes unreachable: the longer path takes over, in the kernel and for the
	 * peers. */
	ipaddr_from_str(&fk.down[fk.ndown++], "192.0.2.2");
	fk.changed_all = true;
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	fk.changed_all = false;
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.10");
	ck_assert_uint_ge(fk.walks_done, 1);

	/* Both unreachable: nothing is installed and the peers get a withdrawal. */
	ipaddr_from_str(&fk.down[fk.ndown++], "192.0.2.10");
	fk.changed_all = true;
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 -");
	ck_assert(!installed("203.0.113.0/24"));
	ck_assert_ptr_null(fake_adj(sink, "203.0.113.0/24"));

	/* Reachable again: back in the kernel and at the peers. */
	fk.ndown = 0;
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(fk.last, "203.0.113.0/24 192.0.2.2");
	ck_assert_ptr_nonnull(fake_adj(sink, "203.0.113.0/24"));
}
END_TEST

START_TEST(test_unchanged_nexthops_skip_the_walk)
{
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	/* A kernel change that moved no next hop: the walk visits, re-installs nothing. */
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fk.installs, 1);
}
END_TEST

START_TEST(test_detach_makes_every_nexthop_valid)
{
	ipaddr_from_str(&fk.down[fk.ndown++], "192.0.2.2");
	announce(e1, "203.0.113.0/24", "65002", "192.0.2.2");
	ck_assert_ptr_null(fake_adj(sink, "203.0.113.0/24"));
	rib_fib_detach(bgp->rib);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(sink, "203.0.113.0/24"));
	ck_assert(!installed("203.0.113.0/24"));
}
END_TEST

static Suite *fib_suite(void)
{
	Suite *s = suite_create("bgp_fib");
	TCase *tc = tcase_create("rib_fib");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_equal_ebgp_paths_are_multipath);
	tcase_add_test(tc, test_different_as_path_is_not_multipath);
	tcase_add_test(tc, test_multipath_relax);
	tcase_add_test(tc, test_igp_metric_decides_and_splits_multipath);
	tcase_add_test(tc, test_losing_feed_costs_the_kernel_nothing);
	tcase_add_test(tc, test_maximum_paths);
	tcase_add_test(tc, test_withdraw_removes);
	tcase_add_test(tc, test_local_routes_not_installed);
	tcase_add_test(tc, test_unreachable_nexthop_invalidates);
	tcase_add_test(tc, test_unchanged_nexthops_skip_the_walk);
	tcase_add_test(tc, test_detach_makes_every_nexthop_valid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fib_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
