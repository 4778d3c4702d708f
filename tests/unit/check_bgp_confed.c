/* SPDX-License-Identifier: ISC */
/*
 * Confederations (RFC 5065) through the real RIB and fake sessions: member AS 65001 of
 * confederation 65000 with member 65002 beside it. What a confed-external neighbor is sent (our
 * member AS in an AS_CONFED_SEQUENCE, LOCAL_PREF, MED and next hop kept), what the outside is
 * sent (the identifier, no confederation segments), loop detection on both, the split horizon
 * that does not apply to confed-external neighbors, and the "Confed Peer Type" rule.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *member, *outside, *internal;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	bgp->confed_id = 65000;
	bgp->confed_peers[0] = 65002;
	bgp->confed_npeers = 1;
	member = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.200");
	outside = fake_peer_new(bgp, "192.0.2.6", 65100, "192.0.2.5", "198.51.100.6");
	internal = fake_peer_new(bgp, "192.0.2.10", 65001, "192.0.2.9", "198.51.100.10");
	fake_peer_up(member);
	fake_peer_up(outside);
	fake_peer_up(internal);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(member);
	fake_peer_free(outside);
	fake_peer_free(internal);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

/* Announce pfx from fp; lp, med: 0 = absent. */
static void announce(struct fake_peer *fp, const char *pfx, const char *aspath, const char *nh,
		     uint32_t lp, uint32_t med)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	if (lp) {
		t.present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
		t.local_pref = lp;
	}
	if (med) {
		t.present |= ATTR_BIT(BGP_ATTR_MED);
		t.med = med;
	}
	fake_announce(fp, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static const char *path_of(struct fake_peer *fp, const char *pfx)
{
	static char buf[128];
	const struct bgp_attr *a = fake_adj(fp, pfx);

	if (!a)
		return "(not sent)";
	bgp_aspath_to_str(a->aspath, buf, sizeof(buf));
	return buf;
}

static const char *nexthop_of(struct fake_peer *fp, const char *pfx)
{
	static char buf[INET_ADDRSTRLEN];
	const struct bgp_attr *a = fake_adj(fp, pfx);

	return a ? inet_ntop(AF_INET, &a->nexthop, buf, sizeof(buf)) : "(not sent)";
}

START_TEST(test_outside_route_to_member_and_internal)
{
	announce(outside, "203.0.113.0/24", "65100", "192.0.2.6", 0, 7);
	/* RFC 5065 6.1 b: our member AS in an AS_CONFED_SEQUENCE; the rest as over iBGP. */
	ck_assert_str_eq(path_of(member, "203.0.113.0/24"), "(65001) 65100");
	ck_assert_str_eq(nexthop_of(member, "203.0.113.0/24"), "192.0.2.6");
	ck_assert(fake_adj(member, "203.0.113.0/24")->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF));
	ck_assert_uint_eq(fake_adj(member, "203.0.113.0/24")->local_pref, 100);
	ck_assert(fake_adj(member, "203.0.113.0/24")->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert_uint_eq(fake_adj(member, "203.0.113.0/24")->med, 7);
	/* Within our member AS nothing is prepended. */
	ck_assert_str_eq(path_of(internal, "203.0.113.0/24"), "65100");
}
END_TEST

START_TEST(test_member_route_to_outside_and_internal)
{
	announce(member, "198.51.100.0/24", "(65002) 65200", "192.0.2.2", 200, 9);
	/* The identifier, no confederation segments, and no LOCAL_PREF outside. */
	ck_assert_str_eq(path_of(outside, "198.51.100.0/24"), "65000 65200");
	ck_assert(!(fake_adj(outside, "198.51.100.0/24")->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));
	/* Learned from a confed-external neighbor: passed to internal ones with its LOCAL_PREF
	 * and MED, its next hop unchanged. */
	ck_assert_str_eq(path_of(internal, "198.51.100.0/24"), "(65002) 65200");
	ck_assert_uint_eq(fake_adj(internal, "198.51.100.0/24")->local_pref, 200);
	ck_assert_uint_eq(fake_adj(internal, "198.51.100.0/24")->med, 9);
	ck_assert_str_eq(nexthop_of(internal, "198.51.100.0/24"), "192.0.2.2");
}
END_TEST

START_TEST(test_internal_route_reaches_member)
{
	/* No iBGP split horizon towards a confed-external neighbor (RFC 5065 5). */
	announce(internal, "198.51.100.128/25", "", "192.0.2.10", 100, 0);
	ck_assert_str_eq(path_of(member, "198.51.100.128/25"), "(65001)");
	ck_assert_str_eq(path_of(outside, "198.51.100.128/25"), "65000");
}
END_TEST

/* RFC 8212 2 names confederation boundaries: without policies a member AS is sent nothing,
 * like an outside neighbor, and an internal one everything. */
START_TEST(test_rfc8212_at_the_boundary)
{
	bgp->ebgp_requires_policy = true;
	announce(internal, "198.51.100.128/25", "", "192.0.2.10", 100, 0);
	ck_assert_str_eq(path_of(member, "198.51.100.128/25"), "(not sent)");
	ck_assert_str_eq(path_of(outside, "198.51.100.128/25"), "(not sent)");
	announce(member, "198.51.100.0/24", "(65002) 65200", "192.0.2.2", 200, 9);
	ck_assert_str_eq(path_of(internal, "198.51.100.0/24"), "(not sent)");
}
END_TEST

START_TEST(test_loops)
{
	/* The identifier from outside, our member AS from inside: both loops. */
	announce(outside, "203.0.113.0/24", "65100 65000 65300", "192.0.2.6", 0, 0);
	ck_assert_ptr_null(fake_adj(internal, "203.0.113.0/24"));
	announce(member, "198.51.100.0/24", "(65002 65001) 65300", "192.0.2.2", 100, 0);
	ck_assert_ptr_null(fake_adj(internal, "198.51.100.0/24"));
	/* A member AS that is not ours is no loop. */
	announce(member, "198.51.100.0/24", "(65002 65003) 65300", "192.0.2.2", 100, 0);
	ck_assert_str_eq(path_of(internal, "198.51.100.0/24"), "(65002 65003) 65300");
}
END_TEST

START_TEST(test_confed_peer_type)
{
	struct prefix p = tpfx("198.51.100.0/24");
	const struct bgp_dest *d;

	/* Equal up to the IGP metric: the confed-external path wins over the internal one,
	 * though the internal neighbor's router id is the lower. */
	announce(internal, "198.51.100.0/24", "65200", "192.0.2.10", 100, 0);
	announce(member, "198.51.100.0/24", "(65002) 65200", "192.0.2.2", 100, 0);
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(dest_best(d)->src, member->peer.rib->cur->id);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, d), BGP_SEL_CONFED);
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_CONFED), "Confed Peer Type");
}
END_TEST

static Suite *confed_suite(void)
{
	Suite *s = suite_create("bgp_confed");
	TCase *tc = tcase_create("confed");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_outside_route_to_member_and_internal);
	tcase_add_test(tc, test_member_route_to_outside_and_internal);
	tcase_add_test(tc, test_internal_route_reaches_member);
	tcase_add_test(tc, test_loops);
	tcase_add_test(tc, test_confed_peer_type);
	tcase_add_test(tc, test_rfc8212_at_the_boundary);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(confed_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
