/* SPDX-License-Identifier: ISC */
/*
 * Next-hop tracking's cache (bgpd/fib/bgp_nexthop.c), through the daemon's own forwarding side
 * (bgp_fib_ops), with the real RIB and fake sessions, and no kernel (the null backend resolves
 * nothing, so every tracked next hop is unreachable: what is tested here is the bookkeeping).
 * Entries are made on first use; a walk over the table keeps every next hop some path still uses
 * and drops the others; growth to twice the size left by the last sweep asks for such a walk by
 * itself.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/fib/bgp_fib.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *e1;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	e1 = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	fake_peer_up(e1);
	/* The daemon's own, no kernel behind; its calls get the RIB, as in the daemon. */
	rib_fib_attach(bgp->rib, &bgp_fib_ops, bgp->rib);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(e1);
	fake_bgp_free(bgp);
	bgp_nh_reset();
	ck_assert_uint_eq(bgp_nh_count(), 0);
}

/* n prefixes from e1, each with its own next hop 203.0.113.x / 198.51.100.x (x from first). */
static void announce_spread(unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char pfx[PREFIX_STRLEN], nh[INET_ADDRSTRLEN];
		unsigned k = first + i;
		struct bgp_attr t;
		struct prefix p;

		snprintf(pfx, sizeof(pfx), "10.%u.%u.0/24", k / 256, k % 256);
		snprintf(nh, sizeof(nh), "%s.%u", k < 256 ? "203.0.113" : "198.51.100", k % 256);
		p = tpfx(pfx);
		tmpl_init(&t, "65002", nh, BGP_ORIGIN_IGP);
		fake_announce(e1, V4, &t, &p, 1);
		tmpl_release(&t);
	}
	fake_run(bgp, RUN_ALL);
}

static void withdraw_spread(unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char pfx[PREFIX_STRLEN];
		unsigned k = first + i;
		struct prefix p;

		snprintf(pfx, sizeof(pfx), "10.%u.%u.0/24", k / 256, k % 256);
		p = tpfx(pfx);
		fake_withdraw(e1, V4, &p, 1);
	}
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_made_on_first_use)
{
	announce_spread(0, 10);
	ck_assert_uint_eq(bgp_nh_count(), 10);
	/* Unreachable without a kernel: the paths are not used. */
	ck_assert(!bgp_nh_lookup(
			   &(struct ipaddr){ .family = AF_INET, .u.v4.s_addr = htonl(0xcb007105) })
			   ->valid);
}
END_TEST

START_TEST(test_walk_drops_unused)
{
	announce_spread(0, 20);
	ck_assert_uint_eq(bgp_nh_count(), 20);
	withdraw_spread(0, 15);
	ck_assert_uint_eq(bgp_nh_count(), 20); /* nothing walked yet */
	rib_fib_revalidate(bgp->rib, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(bgp_nh_count(), 5);
}
END_TEST

START_TEST(test_growth_asks_for_a_sweep)
{
	/* 64 entries ask for a walk (the first threshold); withdraw most first, so the walk that
	 * the 64th next hop starts finds them unused. */
	announce_spread(0, 60);
	withdraw_spread(0, 58);
	announce_spread(300, 4); /* 64 entries: a walk is asked for */
	ck_assert_uint_eq(bgp_nh_count(), 6);
}
END_TEST

/*
 * bgp network import-check (bgpd/fib/bgp_network_check.c) without the kernel's routes (the
 * fib is not started here): under the check no statement is announced, as FRR without zebra,
 * but it is in the table, not valid and not best (FRR shows it so); without the check every
 * one is announced; turning it back on withdraws them, and a statement removed leaves the
 * table. The kernel routes that let a statement pass are the lab's (network_import_check).
 */
static const struct bgp_path *network_path(const struct prefix *p, bool *best)
{
	const struct bgp_dest *d = ptree_lookup(bgp->rib->af[V4].tree, p);

	*best = d && dest_best(d);
	return d ? dest_paths(d) : NULL;
}

START_TEST(test_network_import_check_without_kernel_view)
{
	struct bgp_network n = { .prefix = tpfx("198.51.100.128/25") };
	const struct bgp_path *path;
	bool best;

	TAILQ_INSERT_TAIL(&bgp->networks[V4], &n, entry);
	bgp->network_import_check = true;
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, "198.51.100.128/25"));
	ck_assert(!bgp_network_check_announced(V4, &n.prefix));
	path = network_path(&n.prefix, &best);
	ck_assert_ptr_nonnull(path);
	ck_assert(path->flags & PATH_F_IMPORT_FAILED);
	ck_assert(!bgp_path_valid(bgp->rib, path) && !best);

	bgp->network_import_check = false;
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e1, "198.51.100.128/25"));
	ck_assert(bgp_network_check_announced(V4, &n.prefix));
	path = network_path(&n.prefix, &best);
	ck_assert(path && !(path->flags & PATH_F_IMPORT_FAILED) && best);

	bgp->network_import_check = true;
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, "198.51.100.128/25"));

	bgp->network_import_check = false;
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e1, "198.51.100.128/25"));
	TAILQ_REMOVE(&bgp->networks[V4], &n, entry);
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, "198.51.100.128/25"));
	ck_assert_ptr_null(network_path(&n.prefix, &best));
	bgp_network_check_reset();
}
END_TEST

static Suite *nexthop_suite(void)
{
	Suite *s = suite_create("bgp_nexthop");
	TCase *tc = tcase_create("cache");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_made_on_first_use);
	tcase_add_test(tc, test_walk_drops_unused);
	tcase_add_test(tc, test_growth_asks_for_a_sweep);
	tcase_add_test(tc, test_network_import_check_without_kernel_view);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(nexthop_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
