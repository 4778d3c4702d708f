/* SPDX-License-Identifier: ISC */
/*
 * Route reflection (RFC 4456) and next-hop-self through the real RIB and fake sessions:
 * a client's routes go to every iBGP peer, a non-client's to the clients only, with
 * ORIGINATOR_ID and our cluster id in CLUSTER_LIST; a route carrying our cluster id is a loop;
 * `next-hop-self` rewrites eBGP-learned next hops for iBGP peers, `force` reflected ones too.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_community.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *c1, *c2, *n1, *n2, *e1;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	c1 = fake_peer_new(bgp, "192.0.2.11", 65001, "192.0.2.1", "198.51.100.11");
	c2 = fake_peer_new(bgp, "192.0.2.12", 65001, "192.0.2.1", "198.51.100.12");
	n1 = fake_peer_new(bgp, "192.0.2.21", 65001, "192.0.2.1", "198.51.100.21");
	n2 = fake_peer_new(bgp, "192.0.2.22", 65001, "192.0.2.1", "198.51.100.22");
	e1 = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.99");
	c1->peer.conf.rr_client[V4] = true;
	c2->peer.conf.rr_client[V4] = true;
	fake_peer_up(c1);
	fake_peer_up(c2);
	fake_peer_up(n1);
	fake_peer_up(n2);
	fake_peer_up(e1);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(c1);
	fake_peer_free(c2);
	fake_peer_free(n1);
	fake_peer_free(n2);
	fake_peer_free(e1);
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

static const char *clusters(const struct bgp_attr *a, char *buf, size_t size)
{
	bgp_u32list_addr_str(bgp_attr_ex(a)->cluster_list, buf, size);
	return buf;
}

static const char *addr(struct in_addr a, char *buf)
{
	return inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
}

START_TEST(test_client_routes_to_everyone)
{
	const struct bgp_attr *a;
	char buf[128];

	announce(c1, "198.51.100.0/26", "", "192.0.2.11");
	ck_assert_ptr_null(fake_adj(c1, "198.51.100.0/26")); /* not back to the sender */
	ck_assert_ptr_nonnull(fake_adj(c2, "198.51.100.0/26"));
	ck_assert_ptr_nonnull(fake_adj(n2, "198.51.100.0/26"));
	ck_assert_ptr_nonnull(fake_adj(e1, "198.51.100.0/26"));
	a = fake_adj(n1, "198.51.100.0/26");
	ck_assert_ptr_nonnull(a);
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID));
	ck_assert_str_eq(addr(bgp_attr_ex(a)->originator_id, buf), "198.51.100.11");
	ck_assert_str_eq(clusters(a, buf, sizeof(buf)), "192.0.2.1"); /* the router id */
	ck_assert_str_eq(addr(a->nexthop, buf), "192.0.2.11");	      /* unchanged */
	/* eBGP never sees the reflection attributes. */
	a = fake_adj(e1, "198.51.100.0/26");
	ck_assert(!(a->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)));
	ck_assert(!(a->present & ATTR_BIT(BGP_ATTR_CLUSTER_LIST)));
}
END_TEST

START_TEST(test_non_client_routes_to_clients_only)
{
	const struct bgp_attr *a;
	char buf[128];

	inet_pton(AF_INET, "203.0.113.254", &bgp->cluster_id);
	announce(n1, "198.51.100.64/26", "", "192.0.2.21");
	ck_assert_ptr_nonnull(fake_adj(c1, "198.51.100.64/26"));
	ck_assert_ptr_nonnull(fake_adj(c2, "198.51.100.64/26"));
	ck_assert_ptr_null(fake_adj(n2, "198.51.100.64/26")); /* non-client to non-client: no */
	a = fake_adj(c1, "198.51.100.64/26");
	ck_assert_str_eq(clusters(a, buf, sizeof(buf)), "203.0.113.254"); /* bgp cluster-id */
}
END_TEST

START_TEST(test_cluster_loop_dropped)
{
	struct bgp_attr t;
	struct bgp_attr_extra ex;
	struct prefix p = tpfx("198.51.100.128/26");
	uint32_t ids[2] = { 0xCB007101u, 0xC0000201u }; /* 203.0.113.1, then ours 192.0.2.1 */

	tmpl_init(&t, "", "192.0.2.21", BGP_ORIGIN_IGP);
	ex = *bgp_attr_ex(&t);
	ex.cluster_list = bgp_u32list_intern(ids, 2);
	t.extra = &ex;
	t.present |= ATTR_BIT(BGP_ATTR_CLUSTER_LIST);
	fake_announce(n1, V4, &t, &p, 1);
	bgp_u32list_unref(ex.cluster_list);
	t.extra = NULL;
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&n1->peer, V4), 0);
	ck_assert_uint_eq(n1->peer.rib->cur->in_stats.cluster_loop, 1);
	ck_assert_ptr_null(fake_adj(c1, "198.51.100.128/26"));
}
END_TEST

START_TEST(test_next_hop_self)
{
	const struct bgp_attr *a;
	char buf[INET_ADDRSTRLEN];

	n1->peer.conf.nexthop_self[V4] = BGP_NHS_SELF;
	c2->peer.conf.nexthop_self[V4] = BGP_NHS_SELF;
	announce(e1, "203.0.113.128/25", "65002", "203.0.113.2");
	announce(c1, "198.51.100.192/26", "", "192.0.2.11");
	/* eBGP-learned: our address towards n1 (next-hop-self), the peer's towards n2. */
	a = fake_adj(n1, "203.0.113.128/25");
	ck_assert_str_eq(addr(a->nexthop, buf), "192.0.2.1");
	a = fake_adj(n2, "203.0.113.128/25");
	ck_assert_str_eq(addr(a->nexthop, buf), "203.0.113.2");
	/* Reflected: unchanged with next-hop-self, ours with force. */
	a = fake_adj(c2, "198.51.100.192/26");
	ck_assert_str_eq(addr(a->nexthop, buf), "192.0.2.11");
	c2->peer.conf.nexthop_self[V4] = BGP_NHS_FORCE;
	rib_route_refresh_received(&c2->peer, V4);
	fake_run(bgp, RUN_ALL);
	a = fake_adj(c2, "198.51.100.192/26");
	ck_assert_str_eq(addr(a->nexthop, buf), "192.0.2.1");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_rr");
	TCase *tc = tcase_create("reflection");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_client_routes_to_everyone);
	tcase_add_test(tc, test_non_client_routes_to_clients_only);
	tcase_add_test(tc, test_cluster_loop_dropped);
	tcase_add_test(tc, test_next_hop_self);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
