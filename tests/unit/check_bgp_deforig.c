/* SPDX-License-Identifier: ISC */
/*
 * neighbor X default-originate [route-map NAME] (bgpd/rib/bgp_rib_deforig.c) through the real
 * RIB and fake sessions that decode what they are sent: the default route goes to the
 * neighbors that have the setting and to no other, with FRR's attributes (origin IGP, our AS
 * alone towards eBGP, MED 0, our next hop), in IPv4 and IPv6, and in place of a default route
 * of the table; with a route-map, only while a path of the table matches it, with the map's
 * sets; it is withdrawn when the setting goes or nothing matches any more.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000
#define DEF4 "0.0.0.0/0"
#define DEF6 "::/0"

static struct bgp *bgp;
static struct fake_peer *e1, *e2, *i1;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "198.51.100.1");
	e1 = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.2");
	e2 = fake_peer_new(bgp, "203.0.113.6", 65003, "203.0.113.5", "198.51.100.3");
	i1 = fake_peer_new(bgp, "203.0.113.10", 65001, "203.0.113.9", "198.51.100.4");
	/* Every table change evaluated at once, except where a test sets the interval. */
	bgp->rib->deforig_interval_ms = 0;
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_peer_up(i1);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	struct fake_peer *all[] = { e1, e2, i1 };

	/* The names this test gave (strdup), which the fakes do not own. */
	for (size_t i = 0; i < array_size(all); i++)
		for (int af = 0; af < BGP_AF_MAX; af++)
			free(all[i]->peer.conf.default_rmap[af]);
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_peer_free(i1);
	fake_bgp_free(bgp);
	route_map_reset();
	prefix_list_reset();
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

/* What the configuration side does: the setting, then the RIB told. */
static void deforig(struct fake_peer *fp, enum bgp_af af, bool on, const char *rmap)
{
	fp->peer.conf.default_originate[af] = on;
	free(fp->peer.conf.default_rmap[af]);
	fp->peer.conf.default_rmap[af] = rmap ? strdup(rmap) : NULL;
	rib_default_originate_changed(bgp);
	fake_run(bgp, RUN_ALL);
}

static void announce(struct fake_peer *fp, enum bgp_af af, const char *pfx, const char *aspath,
		     const char *nh)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	fake_announce(fp, af, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static const char *aspath_of(const struct bgp_attr *a, char *buf, size_t size)
{
	bgp_aspath_to_str(a->aspath, buf, size);
	return buf;
}

/* Unconditional: to e1 only, FRR's attributes; gone with the setting. */
START_TEST(test_unconditional)
{
	const struct bgp_attr *a;
	char buf[64];

	deforig(e1, V4, true, NULL);
	a = fake_adj(e1, DEF4);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65001");
	ck_assert_uint_eq(a->origin, BGP_ORIGIN_IGP);
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert_uint_eq(a->med, 0);
	ck_assert_str_eq(inet_ntop(AF_INET, &a->nexthop, buf, sizeof(buf)), "203.0.113.1");
	ck_assert(!a->atomic_aggregate);
	ck_assert_ptr_null(fake_adj(e2, DEF4));
	ck_assert_ptr_null(fake_adj(i1, DEF4));
	ck_assert(rib_peer_default_sent(&e1->peer, V4));
	ck_assert(!rib_peer_default_sent(&e2->peer, V4));

	deforig(e1, V4, false, NULL);
	ck_assert_ptr_null(fake_adj(e1, DEF4));
	ck_assert(!rib_peer_default_sent(&e1->peer, V4));
}
END_TEST

/* IPv6, and towards iBGP (LOCAL_PREF 100, empty AS path). */
START_TEST(test_ipv6_and_ibgp)
{
	const struct bgp_attr *a;
	char buf[64];

	deforig(i1, V6, true, NULL);
	a = fake_adj(i1, DEF6);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "");
	ck_assert_uint_eq(a->local_pref, 100);
	ck_assert_ptr_null(fake_adj(i1, DEF4));
	ck_assert_ptr_null(fake_adj(e1, DEF6));
}
END_TEST

/* A session that comes up with the setting is sent the default with the table. */
START_TEST(test_session_up)
{
	uint64_t eor;

	e1->peer.conf.default_originate[V4] = true;
	fake_peer_down(e1);
	fake_run(bgp, RUN_ALL);
	eor = e1->eor[V4];
	fake_peer_up(e1);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e1, DEF4));
	ck_assert_uint_eq(e1->eor[V4], eor + 1);
}
END_TEST

/* The table's own default route: e1 gets ours in its place, e2 the table's; when ours goes,
 * e1 gets the table's. */
START_TEST(test_in_place_of_the_table)
{
	char buf[64];

	announce(i1, V4, DEF4, "", "203.0.113.10");
	ck_assert_str_eq(aspath_of(fake_adj(e1, DEF4), buf, sizeof(buf)), "65001");
	deforig(e1, V4, true, NULL);
	ck_assert_str_eq(aspath_of(fake_adj(e1, DEF4), buf, sizeof(buf)), "65001");
	ck_assert_ptr_nonnull(fake_adj(e2, DEF4));
	/* Ours has MED 0; the table's (from iBGP, no MED) has none. */
	ck_assert(fake_adj(e1, DEF4)->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert(!(fake_adj(e2, DEF4)->present & ATTR_BIT(BGP_ATTR_MED)));
	deforig(e1, V4, false, NULL);
	ck_assert_ptr_nonnull(fake_adj(e1, DEF4));
	ck_assert(!(fake_adj(e1, DEF4)->present & ATTR_BIT(BGP_ATTR_MED)));
}
END_TEST

/* route-map: while a path of the table matches (prefix list on the table's prefix), with the
 * map's sets; withdrawn when the matching route goes, back when it returns. */
START_TEST(test_route_map_condition)
{
	struct prefix_list_entry pe = { .seq = 5, .action = PREFIX_PERMIT };
	struct rmap_entry e = { .seq = 10, .permit = true };
	const struct bgp_attr *a;

	pe.p = tpfx("192.0.2.0/24");
	prefix_list_entry_set(prefix_list_get(AF_INET, "UPSTREAM"), &pe);
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "UPSTREAM");
	e.comm_set = true;
	e.comm = XMALLOC(MTYPE_BGP_ROUTEMAP, sizeof(*e.comm));
	e.comm[0] = 65001u << 16 | 99;
	e.ncomm = 1;
	route_map_entry_set("DEF", &e);

	deforig(e1, V4, true, "DEF");
	ck_assert_ptr_null(fake_adj(e1, DEF4));
	ck_assert(!rib_peer_default_sent(&e1->peer, V4));

	announce(e2, V4, "192.0.2.0/24", "65003", "203.0.113.6");
	fake_run(bgp, RUN_ALL);
	a = fake_adj(e1, DEF4);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(a->communities);
	ck_assert_uint_eq(a->communities->val[0], 65001u << 16 | 99);
	ck_assert(rib_peer_default_sent(&e1->peer, V4));

	{
		struct prefix p = tpfx("192.0.2.0/24");

		fake_withdraw(e2, V4, &p, 1);
	}
	fake_run(bgp, RUN_ALL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, DEF4));

	/* A name that names no route-map matches nothing. */
	announce(e2, V4, "192.0.2.0/24", "65003", "203.0.113.6");
	ck_assert_ptr_nonnull(fake_adj(e1, DEF4));
	deforig(e1, V4, true, "NONE");
	ck_assert_ptr_null(fake_adj(e1, DEF4));
}
END_TEST

/* A table change is evaluated at most once per interval: a full table's convergence does not
 * walk the table at every turn of the work. A configuration change still goes at once. */
START_TEST(test_table_changes_rate_limited)
{
	struct prefix_list_entry pe = { .seq = 5, .action = PREFIX_PERMIT };
	struct rmap_entry e = { .seq = 10, .permit = true };

	pe.p = tpfx("192.0.2.0/24");
	prefix_list_entry_set(prefix_list_get(AF_INET, "UPSTREAM"), &pe);
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "UPSTREAM");
	route_map_entry_set("DEF", &e);
	bgp->rib->deforig_interval_ms = 300;
	deforig(e1, V4, true, "DEF"); /* evaluated at once: nothing matches yet */
	ck_assert_ptr_null(fake_adj(e1, DEF4));

	announce(e2, V4, "192.0.2.0/24", "65003", "203.0.113.6");
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, DEF4)); /* within the interval: not yet */
	usleep(350 * 1000);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e1, DEF4));
}
END_TEST

static Suite *deforig_suite(void)
{
	Suite *s = suite_create("bgp_deforig");
	TCase *tc = tcase_create("default-originate");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_unconditional);
	tcase_add_test(tc, test_ipv6_and_ibgp);
	tcase_add_test(tc, test_session_up);
	tcase_add_test(tc, test_in_place_of_the_table);
	tcase_add_test(tc, test_route_map_condition);
	tcase_add_test(tc, test_table_changes_rate_limited);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(deforig_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
