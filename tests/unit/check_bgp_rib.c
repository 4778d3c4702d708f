/* SPDX-License-Identifier: ISC */
/*
 * The RIB end to end: UPDATEs in through rib_update_received(), the decision, and what every
 * fake peer receives (decoded with the codec). Withdraw, replace, loop detection, iBGP rules,
 * next hop self towards eBGP, LOCAL_PREF and MED rules, network statements, peer down and a
 * peer that comes back while its old paths are still being removed, the show commands.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rpki/rpki_db.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/command.h"
#include "lib/table.h"
#include "lib/vty.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *e1, *e2, *i1, *i2;

/* The show commands find the running instance through the instance layer: this one. */
struct bgp *bgp_get(void)
{
	return bgp;
}

static void setup(void)
{
	bgp = fake_bgp_new(65001, "10.0.0.1");
	e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	i1 = fake_peer_new(bgp, "10.0.2.2", 65001, "10.0.2.1", "4.4.4.4");
	i2 = fake_peer_new(bgp, "10.0.3.2", 65001, "10.0.3.1", "5.5.5.5");
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_peer_up(i1);
	fake_peer_up(i2);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_peer_free(i1);
	fake_peer_free(i2);
	fake_bgp_free(bgp);
	/* Every object of the RIB died with it; every attribute set with its last user. */
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static const char *aspath_of(const struct bgp_attr *a, char *buf, size_t size)
{
	bgp_aspath_to_str(a->aspath, buf, size);
	return buf;
}

static const char *nh_of(const struct bgp_attr *a, char *buf)
{
	return inet_ntop(AF_INET, &a->nexthop, buf, INET_ADDRSTRLEN);
}

static bool has(const struct bgp_attr *a, int code)
{
	return (a->present & ATTR_BIT(code)) != 0;
}

static const struct bgp_dest *rib_dest(const char *s)
{
	struct prefix p = tpfx(s);

	return ptree_lookup(bgp->rib->af[p.family == AF_INET ? V4 : V6].tree, &p);
}

static void announce1(struct fake_peer *fp, const char *pfx, const char *aspath, const char *nh,
		      void (*tweak)(struct bgp_attr *))
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	if (tweak)
		tweak(&t);
	fake_announce(fp, p.family == AF_INET ? V4 : V6, &t, &p, 1);
	tmpl_release(&t);
}

static void withdraw1(struct fake_peer *fp, const char *pfx)
{
	struct prefix p = tpfx(pfx);

	fake_withdraw(fp, p.family == AF_INET ? V4 : V6, &p, 1);
}

static void med50_lp300(struct bgp_attr *t)
{
	t->present |= ATTR_BIT(BGP_ATTR_MED) | ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	t->med = 50;
	t->local_pref = 300;
}

static void med7_lp200(struct bgp_attr *t)
{
	t->present |= ATTR_BIT(BGP_ATTR_MED) | ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	t->med = 7;
	t->local_pref = 200;
}

static void lp100(struct bgp_attr *t)
{
	t->present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	t->local_pref = 100;
}

START_TEST(test_eor_on_empty_table)
{
	/* Every session got End-of-RIB for both families right after coming up. */
	ck_assert_uint_eq(e1->eor[V4], 1);
	ck_assert_uint_eq(e1->eor[V6], 1);
	ck_assert_uint_eq(i2->eor[V4], 1);
	ck_assert_uint_eq(e2->msgs, 2);
}
END_TEST

START_TEST(test_ebgp_learned)
{
	const struct bgp_attr *a;
	const struct bgp_dest *d;
	char buf[128];

	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", med50_lp300);
	fake_run(bgp, RUN_ALL);

	/* Stored: LOCAL_PREF from an external peer ignored (RFC 4271 5.1.5), MED kept. */
	d = rib_dest("192.0.2.0/24");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(dest_paths(d));
	ck_assert(!has(path_attr(dest_paths(d)), BGP_ATTR_LOCAL_PREF));
	ck_assert(has(path_attr(dest_paths(d)), BGP_ATTR_MED));
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 1);

	/* eBGP: our AS prepended, next hop self, no MED (5.1.4), no LOCAL_PREF. */
	a = fake_adj(e2, "192.0.2.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65001 65002 65100");
	ck_assert_str_eq(nh_of(a, buf), "10.0.1.1");
	ck_assert(!has(a, BGP_ATTR_MED));
	ck_assert(!has(a, BGP_ATTR_LOCAL_PREF));

	/* iBGP: path and next hop unchanged, LOCAL_PREF 100, MED kept. */
	for (int k = 0; k < 2; k++) {
		a = fake_adj(k ? i2 : i1, "192.0.2.0/24");
		ck_assert_ptr_nonnull(a);
		ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65002 65100");
		ck_assert_str_eq(nh_of(a, buf), "10.0.0.2");
		ck_assert(has(a, BGP_ATTR_LOCAL_PREF));
		ck_assert_uint_eq(a->local_pref, 100);
		ck_assert(has(a, BGP_ATTR_MED));
		ck_assert_uint_eq(a->med, 50);
	}
	/* Never back to the sender. */
	ck_assert_ptr_null(fake_adj(e1, "192.0.2.0/24"));
	ck_assert_uint_eq(rib_peer_sent(&e1->peer, V4), 0);
	ck_assert_uint_eq(rib_peer_sent(&e2->peer, V4), 1);
	ck_assert_uint_eq(rib_peer_sent(&i1->peer, V4), 1);
	ck_assert_uint_eq(e2->decode_errors + i1->decode_errors, 0);
	ck_assert_uint_eq(rib_table_version(bgp), 1);
}
END_TEST

/* A received UPDATE's prefixes are taken in groups (their tree descents fetched together):
 * every prefix of an UPDATE of any size around the group boundaries is stored and sent on,
 * in announcements and in withdrawals, prefixes far apart in the tree as a table's are. */
START_TEST(test_update_prefix_groups)
{
	static const unsigned sizes[] = { 1, 2, 15, 16, 17, 31, 32, 33, 50 };
	struct prefix p[50];
	struct bgp_attr t;
	char buf[32];
	size_t total = 0;

	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	for (unsigned k = 0; k < array_size(sizes); k++) {
		for (unsigned j = 0; j < sizes[k]; j++) {
			snprintf(buf, sizeof(buf), "%u.%u.%u.0/24", 1 + (j * 37 + k) % 200, k, j);
			p[j] = tpfx(buf);
		}
		fake_announce(e1, V4, &t, p, sizes[k]);
		fake_run(bgp, RUN_ALL);
		total += sizes[k];
		for (unsigned j = 0; j < sizes[k]; j++) {
			const struct bgp_dest *d = ptree_lookup(bgp->rib->af[V4].tree, &p[j]);

			ck_assert_msg(d && dest_paths(d), "UPDATE of %u: prefix %u not stored",
				      sizes[k], j);
			ck_assert_msg(ptree_lookup(e2->adj[V4], &p[j]),
				      "UPDATE of %u: prefix %u not sent on", sizes[k], j);
		}
		ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), total);
		ck_assert_uint_eq(fake_adj_count(e2, V4), total);
	}
	tmpl_release(&t);
	for (unsigned k = 0; k < array_size(sizes); k++) {
		for (unsigned j = 0; j < sizes[k]; j++) {
			snprintf(buf, sizeof(buf), "%u.%u.%u.0/24", 1 + (j * 37 + k) % 200, k, j);
			p[j] = tpfx(buf);
		}
		fake_withdraw(e1, V4, p, sizes[k]);
		fake_run(bgp, RUN_ALL);
		total -= sizes[k];
		for (unsigned j = 0; j < sizes[k]; j++)
			ck_assert_msg(!ptree_lookup(e2->adj[V4], &p[j]),
				      "UPDATE of %u: prefix %u not withdrawn", sizes[k], j);
		ck_assert_uint_eq(fake_adj_count(e2, V4), total);
	}
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);
}
END_TEST

START_TEST(test_ibgp_learned)
{
	const struct bgp_attr *a;
	const struct bgp_dest *d;
	char buf[128];

	announce1(i1, "198.51.100.0/24", "65100", "192.0.2.99", med7_lp200);
	fake_run(bgp, RUN_ALL);

	d = rib_dest("198.51.100.0/24");
	ck_assert_ptr_nonnull(d);
	ck_assert(has(path_attr(dest_paths(d)), BGP_ATTR_LOCAL_PREF));
	ck_assert_uint_eq(path_attr(dest_paths(d))->local_pref, 200);

	/* RFC 4271 9.2: not to other iBGP peers (no reflection), not back to the sender. */
	ck_assert_ptr_null(fake_adj(i2, "198.51.100.0/24"));
	ck_assert_ptr_null(fake_adj(i1, "198.51.100.0/24"));
	ck_assert_uint_eq(i2->pfx_announced, 0);
	/* To eBGP: prepend, next hop self, LOCAL_PREF and MED gone. */
	a = fake_adj(e1, "198.51.100.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65001 65100");
	ck_assert_str_eq(nh_of(a, buf), "10.0.0.1");
	ck_assert(!has(a, BGP_ATTR_LOCAL_PREF));
	ck_assert(!has(a, BGP_ATTR_MED));
	a = fake_adj(e2, "198.51.100.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(nh_of(a, buf), "10.0.1.1");
}
END_TEST

START_TEST(test_as_loop)
{
	announce1(e1, "203.0.113.0/24", "65002 65100", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e2, "203.0.113.0/24"));

	/* Our AS in the path: dropped, and it replaces (withdraws) the earlier route. */
	announce1(e1, "203.0.113.0/24", "65002 65001 65100", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "203.0.113.0/24"));
	ck_assert_ptr_null(fake_adj(i1, "203.0.113.0/24"));
	ck_assert_uint_eq(e2->pfx_withdrawn, 1);
	ck_assert_uint_eq(e1->peer.rib->cur->in_stats.as_loop, 1);
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 0);
	ck_assert_uint_eq(e2->spurious_withdraw + i1->spurious_withdraw + e1->spurious_withdraw, 0);

	/* Looping from the start: never stored, nothing sent. */
	announce1(e1, "203.0.114.0/24", "65002 65001", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(rib_dest("203.0.114.0/24"));
	ck_assert_uint_eq(e1->peer.rib->cur->in_stats.as_loop, 2);
	ck_assert_uint_eq(e2->pfx_withdrawn, 1);
}
END_TEST

START_TEST(test_treat_as_withdraw)
{
	announce1(e1, "203.0.113.0/24", "65002 65100", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	/* AS_PATH not starting with the peer's AS: RFC 7606 treat-as-withdraw (codec). */
	announce1(e1, "203.0.113.0/24", "65099 65100", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "203.0.113.0/24"));
	ck_assert_uint_eq(e1->peer.rib->cur->in_stats.treat_as_withdraw, 1);
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 0);
}
END_TEST

static void no_export(struct bgp_attr *t)
{
	uint32_t c[] = { (65002u << 16) | 7, 0xFFFFFF01u };

	t->communities = bgp_u32list_intern(c, 2);
	t->present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
}

START_TEST(test_withdraw_only_to_peers_that_had_it)
{
	struct bgp_attr t;
	struct prefix p = tpfx("192.0.2.0/24");

	tmpl_init(&t, "65002", "10.0.0.2", BGP_ORIGIN_IGP);
	no_export(&t);
	fake_announce(e1, V4, &t, &p, 1);
	bgp_u32list_unref(t.communities);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	/* NO_EXPORT (RFC 1997): iBGP peers get it, the other eBGP peer does not. */
	ck_assert_ptr_nonnull(fake_adj(i1, "192.0.2.0/24"));
	ck_assert_ptr_nonnull(fake_adj(i2, "192.0.2.0/24"));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/24"));
	ck_assert_ptr_nonnull(fake_adj(i1, "192.0.2.0/24")->communities);

	withdraw1(e1, "192.0.2.0/24");
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(i1, "192.0.2.0/24"));
	ck_assert_ptr_null(fake_adj(i2, "192.0.2.0/24"));
	ck_assert_uint_eq(i1->pfx_withdrawn, 1);
	/* e2 and e1 never had it: no withdrawal. */
	ck_assert_uint_eq(e2->pfx_withdrawn, 0);
	ck_assert_uint_eq(e1->pfx_withdrawn, 0);
	ck_assert_uint_eq(e2->msgs_withdraw + e1->msgs_withdraw, 0);
	/* The prefix is gone from the RIB once the journal has been read. */
	ck_assert_ptr_null(rib_dest("192.0.2.0/24"));
	/* Withdrawing what is not there changes nothing. */
	withdraw1(e1, "192.0.2.0/24");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(i1->pfx_withdrawn, 1);
}
END_TEST

START_TEST(test_replace_and_best_switch)
{
	const struct bgp_attr *a;
	const struct bgp_dest *d;
	char buf[128];

	announce1(e1, "192.0.2.0/24", "65002 65100 65200", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(aspath_of(fake_adj(e2, "192.0.2.0/24"), buf, sizeof(buf)),
			 "65001 65002 65100 65200");

	/* A shorter path from e2: best changes; e2 loses e1's route (split horizon), e1 gets
	 * e2's, the iBGP peers get e2's with e2 as next hop. */
	announce1(e2, "192.0.2.0/24", "65003 65200", "10.0.1.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/24"));
	ck_assert_uint_eq(e2->pfx_withdrawn, 1);
	a = fake_adj(e1, "192.0.2.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65001 65003 65200");
	a = fake_adj(i1, "192.0.2.0/24");
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65003 65200");
	ck_assert_str_eq(nh_of(a, buf), "10.0.1.2");
	d = rib_dest("192.0.2.0/24");
	ck_assert_ptr_nonnull(path_next(dest_paths(d)));
	ck_assert_ptr_null(path_next(path_next(dest_paths(d))));

	/* e2 replaces its path with a longer one: back to e1's. */
	announce1(e2, "192.0.2.0/24", "65003 65300 65400 65200", "10.0.1.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e1, "192.0.2.0/24"));
	ck_assert_str_eq(aspath_of(fake_adj(e2, "192.0.2.0/24"), buf, sizeof(buf)),
			 "65001 65002 65100 65200");
	ck_assert_str_eq(aspath_of(fake_adj(i2, "192.0.2.0/24"), buf, sizeof(buf)),
			 "65002 65100 65200");
	ck_assert_uint_eq(rib_peer_accepted(&e2->peer, V4), 1);
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 1);

	/* The same UPDATE again changes nothing and sends nothing. */
	uint64_t before = i1->msgs;

	announce1(e2, "192.0.2.0/24", "65003 65300 65400 65200", "10.0.1.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(i1->msgs, before);
	ck_assert_uint_eq(e1->spurious_withdraw + e2->spurious_withdraw + i1->spurious_withdraw, 0);
}
END_TEST

START_TEST(test_network_statement)
{
	struct fake_peer *e6;
	struct prefix p = tpfx("203.0.113.0/24"), p6 = tpfx("2001:db8:1::/48");
	const struct bgp_attr *a;
	char buf[128];

	e6 = fake_peer_new(bgp, "2001:db8::2", 65006, "2001:db8::1", "6.6.6.6");
	fake_peer_up(e6);
	rib_network_add(bgp, V4, &p);
	rib_network_add(bgp, V6, &p6);
	fake_run(bgp, RUN_ALL);

	/* eBGP: our AS, next hop self, MED 0 (we originated it, FRR sends it). */
	a = fake_adj(e1, "203.0.113.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "65001");
	ck_assert_str_eq(nh_of(a, buf), "10.0.0.1");
	ck_assert(has(a, BGP_ATTR_MED));
	ck_assert_uint_eq(a->med, 0);
	ck_assert(!has(a, BGP_ATTR_LOCAL_PREF));
	/* iBGP: empty path, next hop self, LOCAL_PREF 100. */
	a = fake_adj(i1, "203.0.113.0/24");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(aspath_of(a, buf, sizeof(buf)), "");
	ck_assert_str_eq(nh_of(a, buf), "10.0.2.1");
	ck_assert_uint_eq(a->local_pref, 100);
	/* IPv6 next hop: our global address on the session; IPv4-mapped over IPv4 sessions. */
	a = fake_adj(e6, "2001:db8:1::/48");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(inet_ntop(AF_INET6, bgp_attr_mp_nh_global(a), buf, sizeof(buf)),
			 "2001:db8::1");
	a = fake_adj(e1, "2001:db8:1::/48");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(inet_ntop(AF_INET6, bgp_attr_mp_nh_global(a), buf, sizeof(buf)),
			 "::ffff:10.0.0.1");
	/* Stored with weight 32768 and no LOCAL_PREF, as FRR's static routes. */
	ck_assert_uint_eq(bgp_attr_weight(path_attr(dest_paths(rib_dest("203.0.113.0/24")))),
			  32768);

	rib_network_del(bgp, V4, &p);
	rib_network_del(bgp, V6, &p6);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e1, V4) + fake_adj_count(i1, V4), 0);
	ck_assert_uint_eq(fake_adj_count(e6, V6) + fake_adj_count(e1, V6), 0);
	ck_assert_ptr_null(rib_dest("203.0.113.0/24"));
	fake_peer_down(e6);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e6);
}
END_TEST

START_TEST(test_peer_down_bounded)
{
	static struct prefix p[5000];
	struct bgp_attr t;
	unsigned turns = 0;

	tpfx_range(p, 5000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 5000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 5000);
	ck_assert_uint_eq(rib_peer_sent(&e2->peer, V4), 5000);

	fake_peer_down(e1);
	/* Removal goes in batches: more than one turn for 5,000 prefixes. */
	fake_run(bgp, 1);
	turns++;
	ck_assert_uint_gt(fake_adj_count(e2, V4), 0);
	while (rib_work_pending(bgp->rib)) {
		fake_run(bgp, 1);
		turns++;
	}
	ck_assert_uint_ge(turns, 3);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 0);
	ck_assert_uint_eq(fake_adj_count(i1, V4), 0);
	ck_assert_uint_eq(e2->pfx_withdrawn, 5000);
	ck_assert_uint_eq(rib_peer_sent(&e2->peer, V4), 0);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);
	/* The old session's id is free again. */
	for (uint32_t id = 1; id < bgp->rib->src_cap; id++)
		if (bgp->rib->src[id])
			ck_assert(bgp->rib->src[id]->up);
}
END_TEST

START_TEST(test_flap_during_cleanup)
{
	static struct prefix p[12000];
	struct bgp_attr t;
	const struct bgp_dest *d;
	uint32_t old_id = e1->peer.rib->cur->id;

	tpfx_range(p, 12000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 10000);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 10000);

	/* Down, and straight back up before any removal work ran. */
	fake_peer_down(e1);
	fake_run(bgp, 1);
	fake_peer_up(e1);
	ck_assert_uint_ne(e1->peer.rib->cur->id, old_id);
	/* The new session re-announces half of the old prefixes and 2,000 new ones. */
	fake_announce(e1, V4, &t, p + 5000, 7000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);

	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 7000);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 7000);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 7000);
	ck_assert_ptr_null(fake_adj(e2, "20.0.0.0/24"));
	ck_assert_ptr_nonnull(fake_adj(e2, "20.19.136.0/24")); /* p[5000] */
	ck_assert_ptr_null(rib_dest("20.0.200.0/24"));	       /* p[200]: not announced again */
	d = rib_dest("20.23.112.0/24");			       /* p[6000] */
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_null(path_next(dest_paths(d)));
	ck_assert_uint_eq(dest_paths(d)->src, e1->peer.rib->cur->id);
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
	ck_assert_ptr_null(bgp->rib->src[old_id]);
	/* e1 never gets its own routes back; each of its two sessions got an End-of-RIB. */
	ck_assert_uint_eq(fake_adj_count(e1, V4), 0);
	ck_assert_uint_eq(e1->eor[V4], 2);
}
END_TEST

/* Sessions that go down together are removed in one walk of the table, not one each. */
START_TEST(test_cleanup_walks_once_for_many_sessions)
{
	static struct prefix p[4000];
	struct bgp_attr t;
	uint32_t ids[3] = { e2->peer.rib->cur->id, i1->peer.rib->cur->id, i2->peer.rib->cur->id };

	tpfx_range(p, 4000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 4000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 4000);
	ck_assert_uint_eq(fake_adj_count(i1, V4), 4000);
	/* Three sessions that were sent the table go down at once: one walk clears them all. */
	fake_peer_down(e2);
	fake_peer_down(i1);
	fake_peer_down(i2);
	ck_assert_uint_eq(rib_cleanup_run(bgp->rib, SIZE_MAX), 4000);
	ck_assert(!rib_cleanup_pending(bgp->rib));
	for (int k = 0; k < 3; k++)
		ck_assert_ptr_null(bgp->rib->src[ids[k]]);
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), 4000);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 4000);
}
END_TEST

START_TEST(test_route_refresh)
{
	static struct prefix p[3000];
	struct bgp_attr t;

	tpfx_range(p, 3000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 3000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(e2->pfx_announced, 3000);
	rib_route_refresh_received(&e2->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(e2->pfx_announced, 6000);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 3000);
	ck_assert_uint_eq(e2->eor[V4], 1);
	ck_assert_uint_eq(rib_peer_sent(&e2->peer, V4), 3000);
}
END_TEST

START_TEST(test_detach_while_cleanup)
{
	static struct prefix p[4000];
	struct bgp_attr t;

	tpfx_range(p, 4000, "20.0.0.0/24", 24);
	tmpl_init(&t, "65002 65100", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, p, 4000);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	/* The peer is deconfigured while its session's paths are still being removed. */
	fake_peer_down(e1);
	fake_peer_free(e1);
	e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 0);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);
}
END_TEST

/* ---- show commands ---- */

static struct vty *vty;

static const char *run_cmd(const char *line)
{
	sbuf_reset(&vty->out);
	cmd_execute(vty, line, false);
	if (getenv("RIB_TEST_SHOW"))
		fprintf(stderr, "---- %s\n%s", line, vty->out.buf ? vty->out.buf : "");
	return vty->out.buf ? vty->out.buf : "";
}

static void show_setup(void)
{
	setup();
	cmd_init();
	bgp_show_route_init();
	vty = vty_new(-1);
}

static void show_teardown(void)
{
	vty_free(vty);
	cmd_terminate();
	teardown();
}

START_TEST(test_show_table_text)
{
	struct prefix p = tpfx("203.0.113.0/24");
	const char *out;

	ck_assert_str_eq(run_cmd("show ip bgp"), "No BGP prefixes displayed, 0 exist\n");
	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", med50_lp300);
	announce1(i1, "198.51.100.0/24", "65100", "192.0.2.99", med7_lp200);
	announce1(e2, "192.0.2.0/24", "65003 65300 65100", "10.0.1.2", NULL);
	rib_network_add(bgp, V4, &p);
	fake_run(bgp, RUN_ALL);

	out = run_cmd("show ip bgp");
	ck_assert_msg(strstr(out, "BGP table version is 3, local router ID is 10.0.0.1, vrf id 0\n"
				  "Default local pref 100, local AS 65001\n"
				  "Status codes:  s suppressed, d damped, h history, * "
				  "valid, > best, = multipath,\n") == out,
		      "header:\n%s", out);
	ck_assert_msg(strstr(out,
			     "   Network          Next Hop            Metric LocPrf Weight "
			     "Path\n"
			     "*> 192.0.2.0/24     10.0.0.2                50             0 "
			     "65002 65100 i\n"
			     "*                   10.0.1.2                               0 "
			     "65003 65300 65100 i\n"
			     "*>i198.51.100.0/24  192.0.2.99               7    200      0 65100 "
			     "i\n"
			     "*> 203.0.113.0/24   0.0.0.0                  0         32768 i\n"
			     "\nDisplayed  3 routes and 4 total paths\n"),
		      "rows:\n%s", out);
	out = run_cmd("show bgp ipv4 unicast");
	ck_assert_ptr_nonnull(strstr(out, "Displayed  3 routes and 4 total paths"));
	out = run_cmd("show bgp ipv6 unicast");
	ck_assert_str_eq(out, "No BGP prefixes displayed, 0 exist\n");
}
END_TEST

START_TEST(test_show_table_json)
{
	const char *out;

	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", med50_lp300);
	announce1(e2, "192.0.2.0/24", "65003 65300 65100", "10.0.1.2", NULL);
	announce1(i1, "2001:db8:5::/48", "65100", "2001:db8::99", lp100);
	fake_run(bgp, RUN_ALL);

	out = run_cmd("show ip bgp json");
	ck_assert_msg(strstr(out, "\"vrfId\":0") && strstr(out, "\"vrfName\":\"default\"") &&
			      strstr(out, "\"tableVersion\":1") &&
			      strstr(out, "\"routerId\":\"10.0.0.1\"") &&
			      strstr(out, "\"defaultLocPrf\":100") &&
			      strstr(out, "\"localAS\":65001") &&
			      strstr(out, "\"totalRoutes\":1") && strstr(out, "\"totalPaths\":2"),
		      "header keys:\n%s", out);
	ck_assert_msg(strstr(out, "\"192.0.2.0/24\":[") && strstr(out, "\"valid\":true,\n") &&
			      strstr(out, "\"bestpath\":true,\n") &&
			      strstr(out, "\"selectionReason\":\"AS Path\"") &&
			      strstr(out, "\"pathFrom\":\"external\"") &&
			      strstr(out, "\"prefix\":\"192.0.2.0\"") &&
			      strstr(out, "\"prefixLen\":24") &&
			      strstr(out, "\"network\":\"192.0.2.0/24\"") &&
			      strstr(out, "\"metric\":50") && strstr(out, "\"weight\":0") &&
			      strstr(out, "\"peerId\":\"10.0.0.2\"") &&
			      strstr(out, "\"path\":\"65002 65100\"") &&
			      strstr(out, "\"origin\":\"IGP\"") &&
			      strstr(out, "\"ip\":\"10.0.0.2\"") &&
			      strstr(out, "\"afi\":\"ipv4\"") && strstr(out, "\"used\":true") &&
			      !strstr(out, "locPrf"),
		      "route keys:\n%s", out);
	out = run_cmd("show bgp ipv6 unicast json");
	ck_assert_msg(
		strstr(out, "\"2001:db8:5::/48\":[") && strstr(out, "\"pathFrom\":\"internal\"") &&
			strstr(out, "\"locPrf\":100") &&
			strstr(out, "\"selectionReason\":\"First path received\"") &&
			strstr(out, "\"ip\":\"2001:db8::99\"") && strstr(out, "\"afi\":\"ipv6\"") &&
			strstr(out, "\"scope\":\"global\""),
		"IPv6:\n%s", out);
}
END_TEST

/* Graceful restart's stale paths as FRR shows them: 'S' for '*', "stale": true, "(stale)". */
START_TEST(test_show_stale)
{
	const char *out;

	fake_peer_down(e1);
	e1->info.gr = true;
	e1->info.gr_time = 120;
	e1->info.gr_af[V4] = true;
	fake_peer_up(e1);
	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", NULL);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(strstr(run_cmd("show ip bgp"), "*> 192.0.2.0/24"));
	ck_assert_ptr_null(strstr(run_cmd("show ip bgp json"), "\"stale\""));

	rib_peer_down_graceful(&e1->peer);
	fake_run(bgp, RUN_ALL);
	out = run_cmd("show ip bgp");
	ck_assert_msg(strstr(out, "S> 192.0.2.0/24     10.0.0.2                               0 "
				  "65002 65100 i\n"),
		      "%s", out);
	out = run_cmd("show ip bgp json");
	ck_assert_msg(strstr(out, "\"stale\":true") && strstr(out, "\"valid\":true") &&
			      !strstr(out, "\"removed\""),
		      "%s", out);
	out = run_cmd("show ip bgp 192.0.2.0/24");
	ck_assert_msg(strstr(out, "  65002 65100, (stale)\n"), "%s", out);
	out = run_cmd("show ip bgp 192.0.2.0/24 json");
	ck_assert_msg(strstr(out, "\"stale\":true"), "%s", out);
}
END_TEST

START_TEST(test_show_detail)
{
	const char *out;

	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", med50_lp300);
	announce1(e2, "192.0.2.0/24", "65003 65300 65100", "10.0.1.2", NULL);
	fake_run(bgp, RUN_ALL);

	out = run_cmd("show ip bgp 192.0.2.0/24");
	ck_assert_msg(strstr(out, "BGP routing table entry for 192.0.2.0/24, version 1\n"
				  "Paths: (2 available, best #1, table default)\n"
				  "  Advertised to non peer-group peers:\n"
				  "  10.0.1.2 10.0.2.2 10.0.3.2\n"
				  "  65002 65100\n"
				  "    10.0.0.2 from 10.0.0.2 (2.2.2.2)\n"
				  "      Origin IGP, metric 50, valid, external, best (AS Path)\n"
				  "      Last update: ") == out,
		      "detail:\n%s", out);
	ck_assert_ptr_nonnull(strstr(out, "  65003 65300 65100\n"
					  "    10.0.1.2 from 10.0.1.2 (3.3.3.3)\n"
					  "      Origin IGP, valid, external\n"));
	/* An address: longest match. */
	out = run_cmd("show ip bgp 192.0.2.77");
	ck_assert_ptr_nonnull(strstr(out, "BGP routing table entry for 192.0.2.0/24"));
	out = run_cmd("show ip bgp 10.99.0.0/16");
	ck_assert_str_eq(out, "% Network not in table\n");
	out = run_cmd("show ip bgp 10.99.0.0/16 json");
	ck_assert_str_eq(out, "{}\n");

	out = run_cmd("show bgp ipv4 unicast 192.0.2.0/24 json");
	ck_assert_msg(strstr(out, "\"prefix\":\"192.0.2.0/24\"") && strstr(out, "\"version\":1") &&
			      strstr(out, "\"advertisedTo\":{") && strstr(out, "\"10.0.1.2\":{}") &&
			      strstr(out, "\"pathCount\":2") &&
			      strstr(out, "\"string\":\"65002 65100\"") &&
			      strstr(out, "\"type\":\"as-sequence\"") &&
			      strstr(out, "\"overall\":true") &&
			      strstr(out, "\"selectionReason\":\"AS Path\"") &&
			      strstr(out, "\"peerId\":\"10.0.0.2\"") &&
			      strstr(out, "\"routerId\":\"2.2.2.2\"") &&
			      strstr(out, "\"type\":\"external\"") &&
			      strstr(out, "\"lastUpdate\":{"),
		      "detail json:\n%s", out);
}
END_TEST

/* ---- RPKI in the route views ---- */

/* The store of the reference capture (FRR-RPKI-OUTPUT.md): 198.51.100.0/24, 203.0.113.0/24
 * and 2001:db8:1::/48 for AS64500, plus 192.0.2.0/24 for our own AS; ASPA: 64500's provider
 * is 65002, 64502's is 64999. Filled through a transaction, as an RTR cache would. */
static struct rpki_db *rpki_store(void)
{
	static const char *const vrps[] = { "198.51.100.0/24", "203.0.113.0/24", "2001:db8:1::/48",
					    "192.0.2.0/26" };
	struct rpki_db *db = rpki_db_new();
	int src = rpki_source_add(db, "127.0.0.1 8282");
	struct rpki_txn *txn;
	uint32_t p64500 = 65002, p64502 = 64999;

	ck_assert_int_ge(src, 0);
	rpki_db_set_active(db, true);
	txn = rpki_txn_begin(db, src, true);
	for (size_t i = 0; i < array_size(vrps); i++) {
		struct rpki_vrp v = { .prefix = tpfx(vrps[i]), .asn = i == 3 ? 65001 : 64500 };

		v.max_len = v.prefix.len;
		ck_assert_int_eq(rpki_txn_vrp(txn, &v, true), 0);
	}
	ck_assert_int_eq(rpki_txn_aspa(txn, 64500, &p64500, 1, true), 0);
	ck_assert_int_eq(rpki_txn_aspa(txn, 64502, &p64502, 1, true), 0);
	ck_assert_uint_eq(rpki_txn_commit(txn), 6);
	rpki_db_set_default(db);
	return db;
}

static void rpki_routes(void)
{
	struct prefix own = tpfx("192.0.2.0/26");

	announce1(e1, "192.0.2.128/25", "65002 64502", "10.0.0.2", NULL);
	announce1(e1, "198.51.100.0/24", "65002 64500", "10.0.0.2", NULL);
	announce1(e1, "203.0.113.0/24", "65002 64501", "10.0.0.2", NULL);
	announce1(e2, "203.0.113.0/24", "65003 64500", "10.0.1.2", NULL);
	rib_network_add(bgp, V4, &own); /* empty AS path: our AS originates it (FRR) */
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_show_rpki_codes)
{
	struct rpki_db *db;
	const char *out;

	rpki_routes();
	/* Without a store, or while it is not in use: no code, no state (FRR without rpki). */
	out = run_cmd("show ip bgp");
	ck_assert_ptr_nonnull(strstr(out, "\n*> 192.0.2.128/25   "));
	ck_assert_ptr_null(strstr(run_cmd("show ip bgp 203.0.113.0/24"), "rpki"));
	ck_assert_ptr_null(strstr(run_cmd("show ip bgp 203.0.113.0/24 json"), "rpki"));

	db = rpki_store();
	out = run_cmd("show ip bgp");
	ck_assert_msg(strstr(out,
			     "RPKI validation codes: V valid, I invalid, N Not found\n\n"
			     "   Network          Next Hop            Metric LocPrf Weight "
			     "Path\n"
			     "V*> 192.0.2.0/26     0.0.0.0                  0         32768 i\n"
			     "N*> 192.0.2.128/25   10.0.0.2                               0 "
			     "65002 64502 i\n"
			     "V*> 198.51.100.0/24  10.0.0.2                               0 "
			     "65002 64500 i\n"
			     "I*> 203.0.113.0/24   10.0.0.2                               0 "
			     "65002 64501 i\n"
			     "V*                   10.0.1.2                               0 "
			     "65003 64500 i\n"),
		      "table:\n%s", out);

	/* The detail line and the JSON key of the reference; ASPA where the neighbor has a
	 * role (skua's). */
	out = run_cmd("show bgp ipv4 unicast 203.0.113.0/24");
	/* e1's path came first and stays (RFC 5004, FRR's default without compare-routerid). */
	ck_assert_msg(strstr(out, "      Origin IGP, valid, external, best (Older Path), rpki "
				  "validation-state: invalid\n"),
		      "detail:\n%s", out);
	ck_assert_ptr_nonnull(strstr(out, "      Origin IGP, valid, external, rpki "
					  "validation-state: valid\n"));
	ck_assert_ptr_null(strstr(out, "aspa"));
	out = run_cmd("show bgp ipv4 unicast 192.0.2.128/25 json");
	ck_assert_msg(strstr(out, "\"rpkiValidationState\":\"not found\",\n") &&
			      strstr(out, "\"rpkiValidationState\":\"not found\",\n") <
				      strstr(out, "\"bestpath\":{"),
		      "json:\n%s", out);

	e1->peer.conf.local_role = BGP_ROLE_PROVIDER; /* 65002 is our customer: upstream */
	ck_assert_ptr_nonnull(
		strstr(run_cmd("show ip bgp 198.51.100.0/24"),
		       "rpki validation-state: valid, aspa validation-state: valid\n"));
	ck_assert_ptr_nonnull(strstr(run_cmd("show ip bgp 192.0.2.128/25"),
				     "validation-state: not found, aspa validation-state: "
				     "invalid\n"));
	ck_assert_ptr_nonnull(strstr(run_cmd("show ip bgp 203.0.113.0/24 json"),
				     "\"aspaValidationState\":\"unknown\""));
	e1->peer.conf.local_role = BGP_ROLE_NONE;

	/* Only the paths in one state; FRR counts every path in "total paths". */
	out = run_cmd("show bgp ipv4 unicast rpki invalid");
	ck_assert_msg(strstr(out, "I*> 203.0.113.0/24   10.0.0.2") &&
			      !strstr(out, "198.51.100.0") && !strstr(out, "10.0.1.2") &&
			      strstr(out, "\nDisplayed  1 routes and 5 total paths\n"),
		      "invalid:\n%s", out);
	out = run_cmd("show bgp ipv4 rpki valid");
	ck_assert_msg(strstr(out, "V*> 192.0.2.0/26") && strstr(out, "V*> 198.51.100.0/24") &&
			      strstr(out, "V*  203.0.113.0/24   10.0.1.2") &&
			      strstr(out, "Displayed  3 routes and 5 total paths"),
		      "valid:\n%s", out);
	out = run_cmd("show bgp ipv4 unicast rpki notfound json");
	ck_assert_msg(strstr(out, "\"192.0.2.128/25\":[") && !strstr(out, "198.51.100.0/24"),
		      "notfound json:\n%s", out);
	ck_assert_str_eq(run_cmd("show bgp ipv6 unicast rpki valid"),
			 "No BGP prefixes displayed, 0 exist\n");

	/* No cache configured any more: the codes go. */
	rpki_db_set_active(db, false);
	ck_assert_ptr_nonnull(strstr(run_cmd("show ip bgp"), "\n*> 192.0.2.128/25   "));
	rpki_db_set_default(NULL);
	rpki_db_free(db);
}
END_TEST

/* An inbound route-map that matches rpki keeps the routes as received without
 * soft-reconfiguration inbound: `received-routes` lists them (denied ones too), and a soft
 * inbound reconfiguration runs them through the policy again (doc/policy.md). */
static struct rpki_db *kept_db;

static enum rpki_state kept_rov(const struct prefix *p, const struct bgp_aspath *aspath)
{
	return rpki_validate(kept_db, p, aspath);
}

static enum aspa_state kept_aspa(const struct bgp_aspath *aspath, uint32_t peer_as,
				 enum aspa_dir dir)
{
	return rpki_aspa_verify(kept_db, aspath, peer_as, dir);
}

static void deny_rpki(const char *name, enum rpki_state rov)
{
	struct rmap_entry e = { .seq = 10, .permit = false, .match_rpki = rov };

	route_map_entry_set(name, &e);
	e = (struct rmap_entry){ .seq = 20, .permit = true };
	route_map_entry_set(name, &e);
}

START_TEST(test_rpki_map_keeps_received_routes)
{
	static const struct rmap_validator validator = { kept_rov, kept_aspa };
	const char *out;

	kept_db = rpki_store();
	route_map_set_validator(&validator);
	deny_rpki("RPKI-IN", RPKI_INVALID);
	e1->peer.conf.rmap[V4][BGP_DIR_IN] = strdup("RPKI-IN");
	ck_assert(rib_adj_in_update(&e1->peer, V4)); /* kept from now on, refresh asked */
	ck_assert(rib_adj_in_kept(&e1->peer, V4));
	ck_assert(!rib_adj_in_kept(&e2->peer, V4));
	rpki_routes();

	/* All three as received, the invalid one the policy denied included. */
	out = run_cmd("show bgp ipv4 unicast neighbors 10.0.0.2 received-routes");
	ck_assert_msg(strstr(out, "*> 192.0.2.128/25   10.0.0.2 ") &&
			      strstr(out, "*> 198.51.100.0/24  10.0.0.2 ") &&
			      strstr(out, "*> 203.0.113.0/24   10.0.0.2 ") &&
			      strstr(out, "\nTotal number of prefixes 3\n"),
		      "received-routes:\n%s", out);
	/* FRR 8.4's key for them is receivedRoutes (advertisedRoutes is for what is sent). */
	out = run_cmd("show bgp ipv4 unicast neighbors 10.0.0.2 received-routes json");
	ck_assert_msg(strstr(out, "\"receivedRoutes\":{") && !strstr(out, "advertisedRoutes") &&
			      strstr(out, "\"203.0.113.0/24\":{") &&
			      strstr(out, "\"totalPrefixCounter\":3"),
		      "received-routes json:\n%s", out);
	out = run_cmd("show ip bgp neighbors 10.0.0.2 routes");
	ck_assert_msg(!strstr(out, "203.0.113.0/24") && strstr(out, "192.0.2.128/25"),
		      "routes before:\n%s", out);

	/* The map changed behind the RIB's back (no re-evaluation): the soft inbound
	 * reconfiguration applies it to the kept routes. */
	deny_rpki("RPKI-IN", RPKI_NOTFOUND);
	ck_assert(rib_soft_reconfig_in(&e1->peer, V4));
	fake_run(bgp, RUN_ALL);
	out = run_cmd("show ip bgp neighbors 10.0.0.2 routes");
	ck_assert_msg(strstr(out, "203.0.113.0/24") && !strstr(out, "192.0.2.128/25"),
		      "routes after:\n%s", out);

	free(e1->peer.conf.rmap[V4][BGP_DIR_IN]);
	e1->peer.conf.rmap[V4][BGP_DIR_IN] = NULL;
	route_map_reset();
	route_map_set_validator(NULL);
	rpki_db_set_default(NULL);
	rpki_db_free(kept_db);
}
END_TEST

static void nbr_routes_setup(void)
{
	struct prefix p = tpfx("203.0.113.0/24");

	announce1(e1, "192.0.2.0/24", "65002 65100", "10.0.0.2", med50_lp300);
	announce1(e2, "192.0.2.0/24", "65003 65300 65100", "10.0.1.2", NULL);
	announce1(i1, "198.51.100.0/24", "65100", "192.0.2.99", med7_lp200);
	rib_network_add(bgp, V4, &p);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_show_neighbor_advertised_text)
{
	const char *out;

	nbr_routes_setup();
	/* eBGP: next hop self, our AS prepended, no LOCAL_PREF, learned MED not passed on. */
	out = run_cmd("show ip bgp neighbors 10.0.1.2 advertised-routes");
	ck_assert_msg(strstr(out, "BGP table version is ") == out &&
			      strstr(out, "Default local pref 100, local AS 65001\n"),
		      "header:\n%s", out);
	ck_assert_msg(strstr(out,
			     "Status codes:  s suppressed, d damped, h history, * valid, > best, "
			     "= multipath,\n"),
		      "legend:\n%s", out);
	ck_assert_msg(strstr(out, "   Network          Next Hop            Metric LocPrf Weight "
				  "Path\n"
				  "*> 192.0.2.0/24     10.0.1.1                               0 "
				  "65001 65002 65100 i\n"
				  "*> 198.51.100.0/24  10.0.1.1                               0 "
				  "65001 65100 i\n"
				  "*> 203.0.113.0/24   10.0.1.1                 0             0 "
				  "65001 i\n"
				  "\nTotal number of prefixes 3\n"),
		      "eBGP rows:\n%s", out);
	/* Not back to the peer it came from. */
	out = run_cmd("show ip bgp neighbors 10.0.0.2 advertised-routes");
	ck_assert_msg(!strstr(out, "192.0.2.0/24") && strstr(out, "198.51.100.0/24") &&
			      strstr(out, "Total number of prefixes 2\n"),
		      "e1:\n%s", out);
	/* iBGP: next hop kept for learned routes, self for ours, LOCAL_PREF 100; no iBGP to
	 * iBGP. */
	out = run_cmd("show bgp ipv4 unicast neighbors 10.0.3.2 advertised-routes");
	ck_assert_msg(strstr(out, "*> 192.0.2.0/24     10.0.0.2                50    100      0 "
				  "65002 65100 i\n"
				  "*> 203.0.113.0/24   10.0.3.1                 0    100      0 i\n"
				  "\nTotal number of prefixes 2\n") &&
			      !strstr(out, "198.51.100.0/24"),
		      "iBGP rows:\n%s", out);
	/* Nothing advertised: no output, as FRR. */
	ck_assert_str_eq(run_cmd("show bgp ipv6 unicast neighbors 10.0.1.2 advertised-routes"), "");
	ck_assert_str_eq(run_cmd("show ip bgp neighbors 10.9.9.9 advertised-routes"),
			 "% No such neighbor or address family\n");
	ck_assert_str_eq(run_cmd("show ip bgp neighbors 10.0.0.2 received-routes"),
			 "% Inbound soft reconfiguration not enabled\n");
}
END_TEST

START_TEST(test_show_neighbor_routes_text)
{
	const char *out;

	nbr_routes_setup();
	/* Only the paths learned from the neighbor, in the `show ip bgp` layout. */
	out = run_cmd("show ip bgp neighbors 10.0.1.2 routes");
	ck_assert_msg(strstr(out, "BGP table version is ") == out &&
			      strstr(out,
				     "   Network          Next Hop            Metric LocPrf "
				     "Weight Path\n"
				     "*  192.0.2.0/24     10.0.1.2                               0 "
				     "65003 65300 65100 i\n"
				     "\nDisplayed  1 routes and 1 total paths\n") &&
			      !strstr(out, "10.0.0.2") && !strstr(out, "198.51.100.0/24"),
		      "e2 routes:\n%s", out);
	out = run_cmd("show ip bgp neighbors 10.0.2.2 routes");
	ck_assert_msg(strstr(out, "*>i198.51.100.0/24  192.0.2.99               7    200      0 "
				  "65100 i\n"
				  "\nDisplayed  1 routes and 1 total paths\n"),
		      "i1 routes:\n%s", out);
	ck_assert_str_eq(run_cmd("show ip bgp neighbors 10.0.3.2 routes"),
			 "No BGP prefixes displayed, 0 exist\n");
}
END_TEST

START_TEST(test_show_neighbor_routes_json)
{
	const char *out;

	nbr_routes_setup();
	out = run_cmd("show ip bgp neighbors 10.0.1.2 advertised-routes json");
	ck_assert_msg(strstr(out, "\"bgpTableVersion\":") &&
			      strstr(out, "\"bgpLocalRouterId\":\"10.0.0.1\"") &&
			      strstr(out, "\"defaultLocPrf\":100") &&
			      strstr(out, "\"localAS\":65001") &&
			      strstr(out, "\"advertisedRoutes\":{") &&
			      strstr(out, "\"192.0.2.0/24\":{") &&
			      strstr(out, "\"addrPrefix\":\"192.0.2.0\"") &&
			      strstr(out, "\"prefixLen\":24") &&
			      strstr(out, "\"network\":\"192.0.2.0/24\"") &&
			      strstr(out, "\"nextHop\":\"10.0.1.1\"") &&
			      strstr(out, "\"path\":\"65001 65002 65100\"") &&
			      strstr(out, "\"bgpOriginCode\":\"i\"") &&
			      strstr(out, "\"totalPrefixCounter\":3") && !strstr(out, "locPrf"),
		      "advertised json:\n%s", out);
	out = run_cmd("show bgp ipv6 unicast neighbors 10.0.1.2 advertised-routes json");
	ck_assert_msg(strstr(out, "\"advertisedRoutes\":{}") &&
			      strstr(out, "\"totalPrefixCounter\":0"),
		      "empty advertised json:\n%s", out);
	out = run_cmd("show ip bgp neighbors 10.0.0.2 routes json");
	ck_assert_msg(strstr(out, "\"routes\":{") && strstr(out, "\"peerId\":\"10.0.0.2\"") &&
			      !strstr(out, "\"peerId\":\"10.0.1.2\"") &&
			      strstr(out, "\"totalRoutes\":1") && strstr(out, "\"totalPaths\":1"),
		      "routes json:\n%s", out);
	out = run_cmd("show ip bgp neighbors 10.0.0.2 received-routes json");
	ck_assert_msg(strstr(out, "\"warning\":\"Inbound soft reconfiguration not enabled\""),
		      "received json:\n%s", out);
}
END_TEST

static Suite *rib_suite(void)
{
	Suite *s = suite_create("bgp_rib");
	TCase *tc = tcase_create("rib");
	TCase *ts = tcase_create("show");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_eor_on_empty_table);
	tcase_add_test(tc, test_ebgp_learned);
	tcase_add_test(tc, test_update_prefix_groups);
	tcase_add_test(tc, test_ibgp_learned);
	tcase_add_test(tc, test_as_loop);
	tcase_add_test(tc, test_treat_as_withdraw);
	tcase_add_test(tc, test_withdraw_only_to_peers_that_had_it);
	tcase_add_test(tc, test_replace_and_best_switch);
	tcase_add_test(tc, test_network_statement);
	tcase_add_test(tc, test_peer_down_bounded);
	tcase_add_test(tc, test_flap_during_cleanup);
	tcase_add_test(tc, test_cleanup_walks_once_for_many_sessions);
	tcase_add_test(tc, test_route_refresh);
	tcase_add_test(tc, test_detach_while_cleanup);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(ts, show_setup, show_teardown);
	tcase_add_test(ts, test_show_table_text);
	tcase_add_test(ts, test_show_table_json);
	tcase_add_test(ts, test_show_stale);
	tcase_add_test(ts, test_show_detail);
	tcase_add_test(ts, test_show_rpki_codes);
	tcase_add_test(ts, test_rpki_map_keeps_received_routes);
	tcase_add_test(ts, test_show_neighbor_advertised_text);
	tcase_add_test(ts, test_show_neighbor_routes_text);
	tcase_add_test(ts, test_show_neighbor_routes_json);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rib_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
