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

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/wire/bgp_community.h"
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

	ck_assert_uint_eq(rib_llgr_start(bgp->rib, src_of(from), V4, 60), 2);
	fake_run(bgp, RUN_ALL);

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
	ck_assert_uint_eq(rib_llgr_expire(bgp->rib, src_of(from), V4), 2);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(llgr_to, "198.51.101.0/24"));
	ck_assert_ptr_nonnull(fake_adj(llgr_to, "198.51.100.0/24"));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 0);
	ck_assert_uint_eq(rib_llgr_expire(bgp->rib, src_of(from), V4), 0);
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
	ck_assert_uint_eq(rib_llgr_expire(bgp->rib, src_of(from), V4), 0);
	fake_run(bgp, RUN_ALL);
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

static Suite *llgr_suite(void)
{
	Suite *s = suite_create("bgp_llgr");
	TCase *tc = tcase_create("llgr");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_llgr_stale_depreferred_and_sent_to_llgr_peers_only);
	tcase_add_test(tc, test_reannounced_is_fresh);
	tcase_add_test(tc, test_received_llgr_stale_community);
	tcase_add_test(tc, test_down_while_llgr_stale);
	suite_add_tcase(s, tc);
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
