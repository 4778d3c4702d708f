/* SPDX-License-Identifier: ISC */
/*
 * network P route-map NAME (bgpd/fib/bgp_network_check.c), with the real RIB and route-maps and
 * a fake eBGP neighbor that decodes what it is sent: the map's sets reach the neighbor, a deny
 * (an explicit one, the implicit one at the end, or a name that names no route-map) keeps the
 * prefix out, and running the statements again after the map changed announces, re-announces
 * with the new attributes, or withdraws. Import-check is off: every statement passes it.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>

#include "bgpd/fib/bgp_fib.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *e1;
static struct bgp_network n1, n2, n6;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	e1 = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	fake_peer_up(e1);
	fake_run(bgp, RUN_ALL);
	bgp->network_import_check = false;
	n1 = (struct bgp_network){ .prefix = tpfx("203.0.113.0/26") };
	n2 = (struct bgp_network){ .prefix = tpfx("198.51.100.0/24") };
	n6 = (struct bgp_network){ .prefix = tpfx("2001:db8:1::/48") };
	TAILQ_INSERT_TAIL(&bgp->networks[V4], &n1, entry);
	TAILQ_INSERT_TAIL(&bgp->networks[V4], &n2, entry);
	TAILQ_INSERT_TAIL(&bgp->networks[V6], &n6, entry);
}

static void teardown(void)
{
	TAILQ_REMOVE(&bgp->networks[V4], &n1, entry);
	TAILQ_REMOVE(&bgp->networks[V4], &n2, entry);
	TAILQ_REMOVE(&bgp->networks[V6], &n6, entry);
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e1, V4), 0);
	bgp_network_check_reset();
	fake_peer_free(e1);
	fake_bgp_free(bgp);
	route_map_reset();
	prefix_list_reset();
}

static void sync_all(void)
{
	bgp_network_check_sync(bgp);
	fake_run(bgp, RUN_ALL);
}

static const char *comms_of(const struct bgp_attr *a, char *buf, size_t size)
{
	buf[0] = '\0';
	if (a && a->present & ATTR_BIT(BGP_ATTR_COMMUNITIES))
		bgp_u32list_community_str(a->communities, buf, size);
	return buf;
}

/* route-map NAME permit|deny SEQ [match ip address prefix-list PLIST]
 * [set community 65001:comm] [set metric med] (comm, med: 0 = no such set). */
static void rmap_entry(const char *name, uint16_t seq, bool permit, const char *plist,
		       uint32_t comm, uint32_t med)
{
	struct rmap_entry e = { .seq = seq, .permit = permit };

	if (plist)
		e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, plist);
	if (comm) {
		e.comm_set = true;
		e.comm = XMALLOC(MTYPE_BGP_ROUTEMAP, sizeof(*e.comm));
		e.comm[0] = 65001u << 16 | comm;
		e.ncomm = 1;
	}
	if (med) {
		e.med_set = true;
		e.med = med;
	}
	route_map_entry_set(name, &e);
}

static void plist_permit(const char *name, const char *prefix)
{
	struct prefix_list_entry e = { .seq = 5, .action = PREFIX_PERMIT };

	e.p = tpfx(prefix);
	prefix_list_entry_set(prefix_list_get(AF_INET, name), &e);
}

/* The sets of the map reach the neighbor; a statement without a map is as before. */
START_TEST(test_sets_apply)
{
	const struct bgp_attr *a;
	char buf[64];

	rmap_entry("TAG", 10, true, NULL, 7, 42);
	snprintf(n1.rmap, sizeof(n1.rmap), "TAG");
	sync_all();
	a = fake_adj(e1, "203.0.113.0/26");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65001:7");
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert_uint_eq(a->med, 42);
	ck_assert_uint_eq(a->origin, BGP_ORIGIN_IGP);
	a = fake_adj(e1, "198.51.100.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "");
}
END_TEST

/* Only the entry matching the prefix permits: the other statement meets the implicit deny at
 * the end of the map and stays out of the RIB, hence away from the neighbor. */
START_TEST(test_deny_keeps_out)
{
	plist_permit("NETS", "203.0.113.0/26");
	rmap_entry("ONLY", 10, true, "NETS", 9, 0);
	snprintf(n1.rmap, sizeof(n1.rmap), "ONLY");
	snprintf(n2.rmap, sizeof(n2.rmap), "ONLY");
	sync_all();
	ck_assert_ptr_nonnull(fake_adj(e1, "203.0.113.0/26"));
	ck_assert_ptr_null(fake_adj(e1, "198.51.100.0/24"));
	ck_assert(!bgp_network_check_announced(V4, &n2.prefix));
	ck_assert_uint_eq(fake_adj_count(e1, V4), 1);
}
END_TEST

/* FRR: a name that names no route-map denies (bgp_static_update() applies the name). Once the
 * map exists, running the statements again announces. */
START_TEST(test_missing_map_denies_until_made)
{
	char buf[64];

	snprintf(n1.rmap, sizeof(n1.rmap), "LATER");
	sync_all();
	ck_assert_ptr_null(fake_adj(e1, "203.0.113.0/26"));
	ck_assert_ptr_nonnull(fake_adj(e1, "198.51.100.0/24"));
	rmap_entry("LATER", 10, true, NULL, 3, 0);
	sync_all();
	ck_assert_str_eq(comms_of(fake_adj(e1, "203.0.113.0/26"), buf, sizeof(buf)), "65001:3");
}
END_TEST

/* A map changed: re-announced with the new sets; turned to deny: withdrawn; the statement's map
 * removed: announced bare again. */
START_TEST(test_map_change_follows)
{
	char buf[64];

	rmap_entry("TAG", 10, true, NULL, 7, 0);
	snprintf(n1.rmap, sizeof(n1.rmap), "TAG");
	sync_all();
	ck_assert_str_eq(comms_of(fake_adj(e1, "203.0.113.0/26"), buf, sizeof(buf)), "65001:7");
	rmap_entry("TAG", 10, true, NULL, 8, 0);
	sync_all();
	ck_assert_str_eq(comms_of(fake_adj(e1, "203.0.113.0/26"), buf, sizeof(buf)), "65001:8");
	rmap_entry("TAG", 10, false, NULL, 0, 0);
	sync_all();
	ck_assert_ptr_null(fake_adj(e1, "203.0.113.0/26"));
	n1.rmap[0] = '\0';
	sync_all();
	ck_assert_ptr_nonnull(fake_adj(e1, "203.0.113.0/26"));
	ck_assert_str_eq(comms_of(fake_adj(e1, "203.0.113.0/26"), buf, sizeof(buf)), "");
}
END_TEST

/* IPv6 statements run their map too. */
START_TEST(test_ipv6)
{
	char buf[64];

	rmap_entry("TAG6", 10, true, NULL, 6, 0);
	snprintf(n6.rmap, sizeof(n6.rmap), "TAG6");
	sync_all();
	ck_assert_str_eq(comms_of(fake_adj(e1, "2001:db8:1::/48"), buf, sizeof(buf)), "65001:6");
	rmap_entry("TAG6", 10, false, NULL, 0, 0);
	sync_all();
	ck_assert_ptr_null(fake_adj(e1, "2001:db8:1::/48"));
}
END_TEST

static Suite *network_rmap_suite(void)
{
	Suite *s = suite_create("bgp_network_rmap");
	TCase *tc = tcase_create("network route-map");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sets_apply);
	tcase_add_test(tc, test_deny_keeps_out);
	tcase_add_test(tc, test_missing_map_denies_until_made);
	tcase_add_test(tc, test_map_change_follows);
	tcase_add_test(tc, test_ipv6);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(network_rmap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
