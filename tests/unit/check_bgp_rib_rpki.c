/* SPDX-License-Identifier: ISC */
/*
 * RPKI revalidation in the RIB (bgpd/rib/bgp_rib_rpki.c), through the real RIB, a real RPKI
 * store (bgpd/rpki) installed as the route-maps' validator, and fake peers that decode every
 * UPDATE sent: `from` (AS 65002) sends routes through an inbound route-map that denies RPKI
 * invalid ones, `to` (AS 65003) receives what the RIB selects. A VRP that makes a route
 * invalid withdraws exactly that prefix from `to`; removing it announces it again; a change
 * that leaves every outcome as it was sends nothing; the full walk (store switched off and on,
 * a commit over the threshold); the walk is bounded per loop turn; ASPA through the
 * neighbor's role; the Adj-RIB-In kept because of the route-map.
 */
#include "lib/compat.h"

#include <check.h>
#include <string.h>

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "bgpd/rpki/rpki_db.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *from, *to;
static struct rpki_db *db;
static int src;

static enum rpki_state v_rov(const struct prefix *p, const struct bgp_aspath *aspath)
{
	return rpki_validate(db, p, aspath);
}

static enum aspa_state v_aspa(const struct bgp_aspath *aspath, uint32_t peer_as, enum aspa_dir dir)
{
	return rpki_aspa_verify(db, aspath, peer_as, dir);
}

static const struct rmap_validator validator = { v_rov, v_aspa };

static void use_route_map(struct fake_peer *fp, enum bgp_af af, enum bgp_dir dir, const char *name)
{
	free(fp->peer.conf.rmap[af][dir]);
	fp->peer.conf.rmap[af][dir] = name ? strdup(name) : NULL;
}

/* NAME: deny what the state `deny` matches (RPKI or ASPA), permit the rest. */
static void deny_map(const char *name, enum rpki_state rov, enum aspa_state aspa)
{
	struct rmap_entry e = { .seq = 10, .permit = false, .match_rpki = rov, .match_aspa = aspa };

	route_map_entry_set(name, &e);
	e = (struct rmap_entry){ .seq = 20, .permit = true };
	route_map_entry_set(name, &e);
}

static void setup(void)
{
	db = rpki_db_new();
	src = rpki_source_add(db, "192.0.2.100 3323");
	rpki_db_set_active(db, true);
	rpki_db_set_default(db);
	route_map_set_validator(&validator);

	bgp = fake_bgp_new(65001, "192.0.2.1");
	rib_rpki_watch(bgp->rib, true);
	from = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	to = fake_peer_new(bgp, "192.0.2.6", 65003, "192.0.2.5", "198.51.100.3");
	deny_map("RPKI-IN", RPKI_INVALID, ASPA_NOT_USED);
	use_route_map(from, V4, BGP_DIR_IN, "RPKI-IN");
	use_route_map(from, V6, BGP_DIR_IN, "RPKI-IN");
	fake_peer_up(from);
	fake_peer_up(to);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
			use_route_map(from, (enum bgp_af)af, (enum bgp_dir)dir, NULL);
			use_route_map(to, (enum bgp_af)af, (enum bgp_dir)dir, NULL);
		}
	rib_rpki_watch(bgp->rib, false);
	fake_peer_free(from);
	fake_peer_free(to);
	fake_bgp_free(bgp);
	route_map_reset();
	route_map_set_validator(NULL);
	rpki_db_free(db);
	ck_assert_ptr_null(rpki_db_default());
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_eq(MTYPE_RPKI_VRP->allocated, 0);
	ck_assert_uint_eq(MTYPE_RPKI_DB->allocated, 0);
}

/* from announces four /26s of 198.51.100.0/24, 203.0.113.0/24 and 2001:db8:1::/48, origin
 * AS path "65002 path_tail". */
static void announce_all(const char *path)
{
	struct bgp_attr t;
	struct prefix p4[5] = { tpfx("198.51.100.0/26"), tpfx("198.51.100.64/26"),
				tpfx("198.51.100.128/26"), tpfx("198.51.100.192/26"),
				tpfx("203.0.113.0/24") };
	struct prefix p6 = tpfx("2001:db8:1::/48");

	tmpl_init(&t, path, "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, p4, 5);
	tmpl_release(&t);
	tmpl_init(&t, path, "2001:db8:ffff::2", BGP_ORIGIN_IGP);
	fake_announce(from, V6, &t, &p6, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static void vrp(const char *pfx, unsigned max_len, uint32_t asn, bool announce)
{
	struct rpki_txn *txn = rpki_txn_begin(db, src, false);
	struct rpki_vrp v = { .prefix = tpfx(pfx), .max_len = (uint8_t)max_len, .asn = asn };

	ck_assert_int_eq(rpki_txn_vrp(txn, &v, announce), 0);
	rpki_txn_commit(txn);
}

/* What `to` was sent since the last snapshot. */
struct sent {
	uint64_t msgs, ann, wd;
};

static struct sent snap(void)
{
	struct sent s = { to->msgs, to->pfx_announced, to->pfx_withdrawn };

	return s;
}

static struct sent since(struct sent s)
{
	struct sent d = { to->msgs - s.msgs, to->pfx_announced - s.ann, to->pfx_withdrawn - s.wd };

	return d;
}

START_TEST(test_vrp_invalidates_one_prefix)
{
	struct sent s, d;

	announce_all("65002");
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	ck_assert_uint_eq(fake_adj_count(to, V6), 1);
	/* kept as received for the route-map, without soft-reconfiguration */
	ck_assert(!from->peer.conf.soft_reconfig[V4]);
	ck_assert_ptr_nonnull(rib_adj_in(from->peer.rib->cur, V4));
	ck_assert_ptr_null(rib_adj_in(to->peer.rib->cur, V4));

	/* Another AS holds 198.51.100.64/26: that route is invalid, and only that one goes. */
	s = snap();
	vrp("198.51.100.64/26", 26, 65999, true);
	ck_assert(rib_work_pending(bgp->rib));
	fake_run(bgp, RUN_ALL);
	d = since(s);
	ck_assert_uint_eq(d.wd, 1);
	ck_assert_uint_eq(d.ann, 0);
	ck_assert_uint_eq(d.msgs, 1);
	ck_assert_ptr_null(fake_adj(to, "198.51.100.64/26"));
	ck_assert_uint_eq(fake_adj_count(to, V4), 4);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 4);

	/* The VRP goes: the route (denied, kept only as received) is announced again. */
	s = snap();
	vrp("198.51.100.64/26", 26, 65999, false);
	fake_run(bgp, RUN_ALL);
	d = since(s);
	ck_assert_uint_eq(d.ann, 1);
	ck_assert_uint_eq(d.wd, 0);
	ck_assert_uint_eq(d.msgs, 1);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.64/26"));
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5);
}
END_TEST

START_TEST(test_unchanged_outcomes_send_nothing)
{
	struct sent s, d;

	announce_all("65002");
	/* Not found -> valid for the four /26s: permitted before and after: nothing sent. */
	s = snap();
	vrp("198.51.100.0/24", 26, 65002, true);
	fake_run(bgp, RUN_ALL);
	d = since(s);
	ck_assert_uint_eq(d.msgs, 0);
	/* A VRP where no route is, and one of the other family: nothing either. */
	vrp("192.0.2.0/24", 24, 65999, true);
	vrp("2001:db8:2::/48", 48, 65999, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(since(s).msgs, 0);
	/* Invalid for IPv6 only: only that prefix goes. */
	vrp("2001:db8::/32", 32, 65999, true);
	fake_run(bgp, RUN_ALL);
	d = since(s);
	ck_assert_uint_eq(d.wd, 1);
	ck_assert_uint_eq(d.ann, 0);
	ck_assert_ptr_null(fake_adj(to, "2001:db8:1::/48"));
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	/* 203.0.113.0/24 becomes invalid, the /26s stay valid (their own VRP). */
	s = snap();
	vrp("203.0.113.0/24", 24, 65998, true);
	vrp("198.51.100.0/22", 22, 65998, true);
	fake_run(bgp, RUN_ALL);
	d = since(s);
	ck_assert_uint_eq(d.wd, 1);
	ck_assert_uint_eq(d.ann, 0);
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));
	ck_assert_uint_eq(fake_adj_count(to, V4), 4);
}
END_TEST

START_TEST(test_invalid_on_arrival_then_valid)
{
	/* The VRP is there first: the route is refused as it arrives, kept as received, and
	 * let in when a VRP for its origin appears. */
	vrp("203.0.113.0/24", 24, 65999, true);
	announce_all("65002 65010");
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));
	ck_assert_uint_eq(ptree_count(rib_adj_in(from->peer.rib->cur, V4)), 5);
	vrp("203.0.113.0/24", 24, 65010, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(to, "203.0.113.0/24"));
	/* an AS_SET origin is NONE: covered, so invalid */
	announce_all("65002 {65010,65011}");
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26")); /* not covered: not found */
}
END_TEST

START_TEST(test_full_walks)
{
	struct rpki_txn *txn;
	struct sent s;
	char buf[64];

	vrp("198.51.100.0/24", 26, 65999, true);
	announce_all("65002");
	ck_assert_uint_eq(fake_adj_count(to, V4), 1); /* 203.0.113.0/24 only */

	/* The store not in use: nothing is invalid, everything comes in. */
	rpki_db_set_active(db, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	rpki_db_set_active(db, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);

	/* A commit over the threshold: one full walk, the same outcome as prefix by prefix. */
	s = snap();
	txn = rpki_txn_begin(db, src, true);
	for (int i = 0; i <= RPKI_CHANGE_FULL_WALK; i++) {
		struct rpki_vrp v = { .max_len = 24, .asn = 65999 };

		snprintf(buf, sizeof(buf), "10.%d.%d.0/24", i / 256, i % 256);
		v.prefix = tpfx(buf);
		ck_assert_int_eq(rpki_txn_vrp(txn, &v, true), 0);
	}
	{
		/* 203.0.113.0/24 becomes invalid; 198.51.100.0/24's VRP is gone with the reset */
		struct rpki_vrp v = { .prefix = tpfx("203.0.113.0/24"), .max_len = 24, .asn = 1 };

		ck_assert_int_eq(rpki_txn_vrp(txn, &v, true), 0);
	}
	rpki_txn_commit(txn);
	ck_assert(rib_rpki_pending(bgp->rib));
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(since(s).wd, 1);
	ck_assert_uint_eq(since(s).ann, 4);
	ck_assert_uint_eq(fake_adj_count(to, V4), 4);
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));
}
END_TEST

START_TEST(test_max_prefix_after_revalidation)
{
	/* Two routes refused on arrival keep the count under the limit; when they come in by
	 * revalidation, the limit is judged again. */
	from->peer.conf.maxpfx[V4].max = 4;
	from->peer.conf.maxpfx[V4].threshold = 75;
	vrp("198.51.100.0/25", 26, 65999, true);
	announce_all("65002");
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 3);
	ck_assert_uint_eq(from->maxpfx_calls[V4], 0);
	vrp("198.51.100.0/25", 26, 65999, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5);
	ck_assert_uint_eq(from->maxpfx_calls[V4], 1);
	ck_assert_uint_eq(from->maxpfx_limit, 4);
}
END_TEST

#define MANY 5000

START_TEST(test_bounded_per_turn)
{
	static struct prefix p[MANY];
	struct bgp_attr t;
	unsigned turns = 0;

	tpfx_range(p, MANY, "10.0.0.0/24", 24);
	tmpl_init(&t, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, p, MANY);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), MANY);

	/* One VRP covering them all: every route turns invalid, a batch per turn. */
	vrp("10.0.0.0/8", 24, 65999, true);
	rib_work_run(bgp->rib, 1);
	ck_assert(rib_rpki_pending(bgp->rib));
	ck_assert_uint_gt(rib_peer_accepted(&from->peer, V4), 0);
	ck_assert_uint_lt(rib_peer_accepted(&from->peer, V4), MANY);
	while (rib_rpki_pending(bgp->rib) && turns < 100) {
		rib_work_run(bgp->rib, 1);
		turns++;
	}
	ck_assert_uint_ge(turns, 1);
	ck_assert(!rib_rpki_pending(bgp->rib));
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 0);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
}
END_TEST

START_TEST(test_outbound_map)
{
	/* The rule on the way out instead: to is not sent invalid routes. */
	use_route_map(from, V4, BGP_DIR_IN, NULL);
	use_route_map(from, V6, BGP_DIR_IN, NULL);
	ck_assert(!rib_adj_in_update(&from->peer, V4)); /* no longer kept */
	ck_assert_ptr_null(rib_adj_in(from->peer.rib->cur, V4));
	deny_map("RPKI-OUT", RPKI_INVALID, ASPA_NOT_USED);
	use_route_map(to, V4, BGP_DIR_OUT, "RPKI-OUT");
	announce_all("65002");
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	vrp("198.51.100.128/26", 26, 65999, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(to, "198.51.100.128/26"));
	ck_assert_uint_eq(fake_adj_count(to, V4), 4);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5); /* still in our RIB */
	vrp("198.51.100.128/26", 26, 65999, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.128/26"));

	/* A map that comes to match on RPKI: the routes are kept from now on, fetched again. */
	use_route_map(from, V4, BGP_DIR_IN, "RPKI-IN");
	ck_assert(rib_adj_in_update(&from->peer, V4));
	ck_assert_ptr_nonnull(rib_adj_in(from->peer.rib->cur, V4));
	ck_assert(!rib_adj_in_update(&from->peer, V4)); /* already kept */
}
END_TEST

START_TEST(test_aspa_by_role)
{
	static const uint32_t prov[] = { 65020 };
	struct rpki_txn *txn;

	/* from is our customer; 65010 attests 65020 as its only provider, so 65010 -> 65002
	 * is a leak (upstream: 65002 is not 65010's provider). */
	deny_map("ASPA-IN", RPKI_NOT_USED, ASPA_INVALID);
	use_route_map(from, V4, BGP_DIR_IN, "ASPA-IN");
	use_route_map(from, V6, BGP_DIR_IN, "ASPA-IN");
	ck_assert(!rib_adj_in_update(&from->peer, V4)); /* still kept: the map validates */
	txn = rpki_txn_begin(db, src, false);
	ck_assert_int_eq(rpki_txn_aspa(txn, 65010, prov, 1, true), 0);
	rpki_txn_commit(txn);

	/* No role: ASPA is not used, nothing is denied. */
	announce_all("65002 65010");
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	/* Our role: provider. Upstream verification: invalid. The role is read when the route
	 * goes through the map: a full walk (what an ASPA change starts) applies it. */
	from->peer.conf.local_role = BGP_ROLE_PROVIDER;
	txn = rpki_txn_begin(db, src, false);
	ck_assert_int_eq(rpki_txn_aspa(txn, 65002, prov, 1, true), 0);
	rpki_txn_commit(txn);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
	/* 65010 now attests 65002 too: valid again. */
	{
		static const uint32_t both[] = { 65020, 65002 };

		txn = rpki_txn_begin(db, src, false);
		ck_assert_int_eq(rpki_txn_aspa(txn, 65010, both, 2, true), 0);
		rpki_txn_commit(txn);
	}
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	ck_assert_uint_eq(fake_adj_count(to, V6), 1);
	from->peer.conf.local_role = BGP_ROLE_NONE;
}
END_TEST

START_TEST(test_own_routes_origin)
{
	struct bgp_attr t;
	struct prefix p = tpfx("192.0.2.128/25");

	/* An iBGP neighbor's route with an empty path was originated in our AS (65001): the
	 * VRP of our AS makes it valid, another AS's invalid. */
	struct fake_peer *ibgp =
		fake_peer_new(bgp, "192.0.2.10", 65001, "192.0.2.9", "198.51.100.10");

	use_route_map(ibgp, V4, BGP_DIR_IN, "RPKI-IN");
	fake_peer_up(ibgp);
	vrp("192.0.2.128/25", 25, 65001, true);
	tmpl_init(&t, "", "192.0.2.10", BGP_ORIGIN_IGP);
	fake_announce(ibgp, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(to, "192.0.2.128/25"));
	vrp("192.0.2.128/25", 25, 65001, false);
	vrp("192.0.2.0/24", 25, 65999, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(to, "192.0.2.128/25"));
	use_route_map(ibgp, V4, BGP_DIR_IN, NULL);
	fake_peer_free(ibgp);
	fake_run(bgp, RUN_ALL);
}
END_TEST

START_TEST(test_role_directions)
{
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_NONE), ASPA_DIR_NONE);
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_PROVIDER), ASPA_DIR_UPSTREAM);
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_RS_SERVER), ASPA_DIR_UPSTREAM);
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_RS_CLIENT), ASPA_DIR_UPSTREAM);
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_PEER), ASPA_DIR_UPSTREAM);
	ck_assert_int_eq(bgp_role_aspa_dir(BGP_ROLE_CUSTOMER), ASPA_DIR_DOWNSTREAM);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_rib_rpki");
	TCase *tc = tcase_create("revalidation");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_vrp_invalidates_one_prefix);
	tcase_add_test(tc, test_unchanged_outcomes_send_nothing);
	tcase_add_test(tc, test_invalid_on_arrival_then_valid);
	tcase_add_test(tc, test_full_walks);
	tcase_add_test(tc, test_bounded_per_turn);
	tcase_add_test(tc, test_max_prefix_after_revalidation);
	tcase_add_test(tc, test_outbound_map);
	tcase_add_test(tc, test_aspa_by_role);
	tcase_add_test(tc, test_own_routes_origin);
	tcase_add_test(tc, test_role_directions);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
