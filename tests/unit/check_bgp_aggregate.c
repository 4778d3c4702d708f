/* SPDX-License-Identifier: ISC */
/*
 * aggregate-address through the real RIB and fake sessions that decode what they are sent:
 * the aggregate exists while a more specific route does and goes with the last one (an equal
 * prefix does not count), carries the worst ORIGIN of its contributors, ATOMIC_AGGREGATE and
 * AGGREGATOR (our AS and router id) as FRR 8.4 sends them, for IPv4 and IPv6; summary-only
 * holds the more specifics back from every neighbor while the aggregate exists, and releases
 * them when it goes or the option is dropped; as-set carries the contributors' AS paths (their
 * common beginning, then a sorted AS_SET) and communities, without ATOMIC_AGGREGATE. The
 * other options: route-map (sets, deny), matching-MED-only, suppress-map, origin.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "lib/vty.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000
#define AGG "192.0.2.0/24"

static struct bgp *bgp;
static struct fake_peer *e1, *e2, *i1;

/* The show commands find the running instance through the instance layer: this one. */
struct bgp *bgp_get(void)
{
	return bgp;
}

static void setup(void)
{
	bgp = fake_bgp_new(65001, "198.51.100.1");
	e1 = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.2");
	e2 = fake_peer_new(bgp, "203.0.113.6", 65003, "203.0.113.5", "198.51.100.3");
	i1 = fake_peer_new(bgp, "203.0.113.10", 65001, "203.0.113.9", "198.51.100.4");
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_peer_up(i1);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_peer_free(i1);
	fake_bgp_free(bgp);
	route_map_reset();
	prefix_list_reset();
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void announce(const char *pfx, uint8_t origin)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, "65002 65100", "203.0.113.2", origin);
	fake_announce(e1, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

static void withdraw(const char *pfx)
{
	struct prefix p = tpfx(pfx);

	fake_withdraw(e1, V4, &p, 1);
	fake_run(bgp, RUN_ALL);
}

static void aggregate_set(enum bgp_af af, const char *pfx, bool as_set, bool summary_only)
{
	struct rib_aggregate_opts opts = { .as_set = as_set, .summary_only = summary_only };
	struct prefix p = tpfx(pfx);

	rib_aggregate_add(bgp, af, &p, &opts);
	fake_run(bgp, RUN_ALL);
}

static void aggregate_opts(enum bgp_af af, const char *pfx, bool summary_only)
{
	struct rib_aggregate_opts opts = { .summary_only = summary_only };
	struct prefix p = tpfx(pfx);

	rib_aggregate_add(bgp, af, &p, &opts);
	fake_run(bgp, RUN_ALL);
}

static void aggregate(enum bgp_af af, const char *pfx, bool add)
{
	struct prefix p = tpfx(pfx);

	if (add) {
		aggregate_opts(af, pfx, false);
		return;
	}
	rib_aggregate_del(bgp, af, &p);
	fake_run(bgp, RUN_ALL);
}

/* What FRR 8.4 sends for a plain aggregate to an eBGP peer: our AS alone, ATOMIC_AGGREGATE,
 * AGGREGATOR 65001 198.51.100.1. */
static void assert_plain_aggregate(const struct bgp_attr *a, uint8_t origin)
{
	char buf[64];

	ck_assert_ptr_nonnull(a);
	bgp_aspath_to_str(a->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65001");
	ck_assert_uint_eq(a->origin, origin);
	ck_assert(a->atomic_aggregate);
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_AGGREGATOR));
	ck_assert_uint_eq(bgp_attr_ex(a)->aggregator_as, 65001);
	ck_assert_str_eq(inet_ntop(AF_INET, &bgp_attr_ex(a)->aggregator_addr, buf, sizeof(buf)),
			 "198.51.100.1");
}

START_TEST(test_follows_more_specifics)
{
	aggregate(V4, AGG, true);
	/* Nothing under it: no aggregate. */
	ck_assert_ptr_null(fake_adj(e2, AGG));

	announce("192.0.2.0/25", BGP_ORIGIN_EGP);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_EGP);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25")); /* not summary-only */
	/* iBGP gets it too, with the default LOCAL_PREF. */
	ck_assert_ptr_nonnull(fake_adj(i1, AGG));
	ck_assert_uint_eq(fake_adj(i1, AGG)->local_pref, 100);

	/* RFC 4271 9.2.2.2: one INCOMPLETE contributor makes the aggregate INCOMPLETE. */
	announce("192.0.2.128/26", BGP_ORIGIN_INCOMPLETE);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_INCOMPLETE);
	withdraw("192.0.2.128/26");
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_EGP);

	/* It goes with the last more specific. */
	withdraw("192.0.2.0/25");
	ck_assert_ptr_null(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(i1, AGG));
}
END_TEST

START_TEST(test_configured_after_routes_and_removed)
{
	announce("192.0.2.64/27", BGP_ORIGIN_IGP);
	ck_assert_ptr_null(fake_adj(e2, AGG));
	aggregate(V4, AGG, true);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_IGP);
	aggregate(V4, AGG, false);
	ck_assert_ptr_null(fake_adj(e2, AGG));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.64/27"));
}
END_TEST

START_TEST(test_equal_or_outside_prefix_does_not_count)
{
	aggregate(V4, AGG, true);
	/* The aggregate's own prefix learned from a peer is no more specific route; neither is
	 * a neighbour outside it. */
	announce(AGG, BGP_ORIGIN_IGP);
	announce("192.0.3.0/25", BGP_ORIGIN_IGP);
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_uint_eq(fake_adj(e2, AGG)->aspath->path_len, 3); /* 65001 65002 65100 */
	ck_assert(!fake_adj(e2, AGG)->atomic_aggregate);
}
END_TEST

START_TEST(test_ipv6)
{
	struct prefix more = tpfx("2001:db8:1::/48");
	const struct bgp_attr *a;

	aggregate(V6, "2001:db8::/32", true);
	ck_assert_ptr_null(fake_adj(e2, "2001:db8::/32"));
	rib_network_add(bgp, V6, &more);
	fake_run(bgp, RUN_ALL);
	a = fake_adj(e2, "2001:db8::/32");
	ck_assert_ptr_nonnull(a);
	ck_assert(a->atomic_aggregate);
	ck_assert_uint_eq(bgp_attr_ex(a)->aggregator_as, 65001);
	rib_network_del(bgp, V6, &more);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "2001:db8::/32"));
}
END_TEST

/* A network statement failing its import check is in the table but not valid: it does not
 * make the aggregate (FRR skips paths that are not valid); passing, it does, at once. */
START_TEST(test_import_failed_contributes_nothing)
{
	struct prefix more = tpfx("2001:db8:1::/48");

	aggregate(V6, "2001:db8::/32", true);
	rib_network_set(bgp, V6, &more, NULL, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "2001:db8::/32"));
	rib_network_set(bgp, V6, &more, NULL, true);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e2, "2001:db8::/32"));
	rib_network_set(bgp, V6, &more, NULL, false);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "2001:db8::/32"));
	ck_assert_ptr_null(fake_adj(e2, "2001:db8:1::/48"));
	rib_network_del(bgp, V6, &more);
}
END_TEST

START_TEST(test_summary_only)
{
	const struct bgp_dest *d;
	struct prefix p = tpfx("192.0.2.0/25");

	aggregate_opts(V4, AGG, true);
	announce("192.0.2.0/25", BGP_ORIGIN_IGP);
	/* The aggregate goes out, its more specific to nobody, but stays in the Loc-RIB. */
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_IGP);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_null(fake_adj(i1, "192.0.2.0/25"));
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert_ptr_nonnull(d);
	ck_assert(rib_aggr_suppressed(bgp->rib, V4, d));
	/* A prefix outside it is not held back. */
	announce("192.0.3.0/25", BGP_ORIGIN_IGP);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.3.0/25"));

	/* The option dropped (the line without it): the more specific is sent. */
	aggregate_opts(V4, AGG, false);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	/* Back on: withdrawn again. */
	aggregate_opts(V4, AGG, true);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
	/* The aggregate removed: the more specific comes back. */
	aggregate(V4, AGG, false);
	ck_assert_ptr_null(fake_adj(e2, AGG));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));
}
END_TEST

START_TEST(test_summary_only_follows_last_contributor)
{
	/* Once the aggregate has gone with its last more specific, nothing is held back: a new
	 * more specific makes it appear again, and is held back with it. */
	aggregate_opts(V4, AGG, true);
	announce("192.0.2.0/25", BGP_ORIGIN_IGP);
	withdraw("192.0.2.0/25");
	ck_assert_ptr_null(fake_adj(e2, AGG));
	announce("192.0.2.128/25", BGP_ORIGIN_IGP);
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.128/25"));
}
END_TEST

static void announce_path(struct fake_peer *fp, const char *pfx, const char *aspath, const char *nh,
			  uint32_t community)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, aspath, nh, BGP_ORIGIN_IGP);
	if (community) {
		t.communities = bgp_u32list_intern(&community, 1);
		t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	fake_announce(fp, V4, &t, &p, 1);
	bgp_u32list_unref(t.communities);
	t.communities = NULL;
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_as_set)
{
	const struct bgp_attr *a;
	char buf[128];

	aggregate_set(V4, AGG, true, false);
	announce_path(e1, "192.0.2.0/25", "65002 65100 65200", "203.0.113.2", 0xFDE80002);
	/* One contributor: its path as it is, no ATOMIC_AGGREGATE (FRR). */
	a = fake_adj(e2, AGG);
	ck_assert_ptr_nonnull(a);
	bgp_aspath_to_str(a->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65001 65002 65100 65200");
	ck_assert(!a->atomic_aggregate);
	ck_assert_uint_eq(bgp_attr_ex(a)->aggregator_as, 65001);

	/* Two: the common beginning, then the rest in a sorted set; communities merged. */
	announce_path(e2, "192.0.2.128/25", "65003 65300 65100", "203.0.113.6", 0xFDE80001);
	a = fake_adj(i1, AGG);
	ck_assert_ptr_nonnull(a);
	bgp_aspath_to_str(a->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "{65002,65003,65100,65200,65300}");
	ck_assert_ptr_nonnull(a->communities);
	ck_assert_uint_eq(a->communities->count, 2);
	ck_assert_uint_eq(a->communities->val[0], 0xFDE80001);
	ck_assert_uint_eq(a->communities->val[1], 0xFDE80002);
	ck_assert(!a->atomic_aggregate);

	/* The same first AS: kept in front of the set. */
	withdraw("192.0.2.0/25");
	announce_path(e2, "192.0.2.64/26", "65003 65400", "203.0.113.6", 0);
	a = fake_adj(i1, AGG);
	bgp_aspath_to_str(a->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65003 {65100,65300,65400}");
	ck_assert_uint_eq(a->communities->count, 1);

	/* as-set dropped: back to the plain aggregate. */
	aggregate_set(V4, AGG, false, false);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_IGP);
	ck_assert_ptr_null(fake_adj(e2, AGG)->communities);
}
END_TEST

/* as-set carries the contributors' large communities too (FRR's
 * bgp_compute_aggregate_lcommunity()): their union, in numeric order, each once. */
static void announce_lcomm(struct fake_peer *fp, const char *pfx, const char *nh,
			   const uint32_t *lc, uint32_t n)
{
	struct bgp_attr_extra ex = { 0 };
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, fp == e1 ? "65002" : "65003", nh, BGP_ORIGIN_IGP);
	ex = *bgp_attr_ex(&t);
	ex.lcommunities = bgp_lcommlist_intern(lc, n);
	t.extra = &ex;
	t.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	fake_announce(fp, V4, &t, &p, 1);
	bgp_lcommlist_unref(ex.lcommunities);
	t.extra = NULL;
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_as_set_large_communities)
{
	static const uint32_t lc1[] = { 65002, 1, 2, 65001, 9, 9 };
	static const uint32_t lc2[] = { 65001, 9, 9, 65001, 1, 3 };
	const struct bgp_lcommlist *l;

	aggregate_set(V4, AGG, true, false);
	announce_lcomm(e1, "192.0.2.0/25", "203.0.113.2", lc1, 2);
	announce_lcomm(e2, "192.0.2.128/25", "203.0.113.6", lc2, 2);
	l = bgp_attr_ex(fake_adj(i1, AGG))->lcommunities;
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->count, 3);
	ck_assert_mem_eq(l->val, ((uint32_t[]){ 65001, 1, 3, 65001, 9, 9, 65002, 1, 2 }),
			 9 * sizeof(uint32_t));
	/* Without as-set the aggregate carries none. */
	aggregate_set(V4, AGG, false, false);
	ck_assert_ptr_null(bgp_attr_ex(fake_adj(i1, AGG))->lcommunities);
}
END_TEST

/* ---- route-map, matching-MED-only, suppress-map, origin ---- */

static void aggregate_with(const char *pfx, const struct rib_aggregate_opts *opts)
{
	struct prefix p = tpfx(pfx);

	rib_aggregate_add(bgp, V4, &p, opts);
	fake_run(bgp, RUN_ALL);
}

/* From e1 (AS path 65002 65100, origin IGP), with a MED unless med < 0. */
static void announce_med(const char *pfx, int64_t med)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, "65002 65100", "203.0.113.2", BGP_ORIGIN_IGP);
	if (med >= 0) {
		t.med = (uint32_t)med;
		t.present |= ATTR_BIT(BGP_ATTR_MED);
	}
	fake_announce(e1, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

/* route-map NAME permit|deny 10 [match ip address prefix-list PLIST] [set community
 * 65001:comm] [set metric med] (0: no such set). */
static void rmap10(const char *name, bool permit, const char *plist, uint32_t comm, uint32_t med)
{
	struct rmap_entry e = { .seq = 10, .permit = permit };

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

/* route-map: its sets on the aggregate; its deny takes the aggregate out, and then it holds
 * nothing back (summary-only); a change of the map applies once the RIB is told. */
START_TEST(test_route_map)
{
	struct rib_aggregate_opts o = { .summary_only = true };
	const struct bgp_attr *a;

	rmap10("AGG", true, NULL, 40, 7);
	snprintf(o.rmap, sizeof(o.rmap), "AGG");
	aggregate_with(AGG, &o);
	announce_med("192.0.2.0/25", -1);
	a = fake_adj(i1, AGG);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(a->communities);
	ck_assert_uint_eq(a->communities->val[0], 65001u << 16 | 40);
	ck_assert_uint_eq(a->med, 7);
	ck_assert(a->atomic_aggregate);
	ck_assert_ptr_null(fake_adj(i1, "192.0.2.0/25"));

	rmap10("AGG", false, NULL, 0, 0);
	rib_aggregate_policy_changed(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(i1, AGG));
	ck_assert_ptr_nonnull(fake_adj(i1, "192.0.2.0/25"));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));

	/* A name naming no route-map denies too (FRR). */
	snprintf(o.rmap, sizeof(o.rmap), "NONE");
	aggregate_with(AGG, &o);
	ck_assert_ptr_null(fake_adj(i1, AGG));
	o.rmap[0] = '\0';
	aggregate_with(AGG, &o);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_IGP);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
}
END_TEST

/* matching-MED-only: the aggregate while every contributor has the same MED (none is 0);
 * without it, nothing is held back. */
START_TEST(test_matching_med_only)
{
	struct rib_aggregate_opts o = { .summary_only = true, .match_med = true };

	aggregate_with(AGG, &o);
	announce_med("192.0.2.0/25", 0);
	announce_med("192.0.2.128/26", -1);
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
	announce_med("192.0.2.192/26", 5);
	ck_assert_ptr_null(fake_adj(e2, AGG));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.192/26"));
	/* The odd one gone: the MEDs agree again. */
	withdraw("192.0.2.192/26");
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.128/26"));
	/* Without the option a mismatch does not matter. */
	announce_med("192.0.2.192/26", 5);
	o.match_med = false;
	aggregate_with(AGG, &o);
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.192/26"));
}
END_TEST

/* suppress-map: only the more specifics it permits are held back, while the aggregate
 * exists; a change of the map releases or holds them. */
START_TEST(test_suppress_map)
{
	struct rib_aggregate_opts o = { 0 };
	struct prefix_list_entry pe = { .seq = 5, .action = PREFIX_PERMIT };
	const struct bgp_dest *d;
	struct prefix p = tpfx("192.0.2.0/25");

	pe.p = tpfx("192.0.2.0/25");
	prefix_list_entry_set(prefix_list_get(AF_INET, "FIRST"), &pe);
	rmap10("SUP", true, "FIRST", 0, 0);
	snprintf(o.suppress_map, sizeof(o.suppress_map), "SUP");
	aggregate_with(AGG, &o);
	announce_med("192.0.2.0/25", -1);
	announce_med("192.0.2.128/25", -1);
	ck_assert_ptr_nonnull(fake_adj(e2, AGG));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.128/25"));
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert(rib_aggr_suppressed(bgp->rib, V4, d));

	rmap10("SUP", false, NULL, 0, 0);
	rib_aggregate_policy_changed(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));
	rmap10("SUP", true, NULL, 0, 0);
	rib_aggregate_policy_changed(bgp);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_null(fake_adj(e2, "192.0.2.128/25"));
	/* The option dropped: all sent. */
	o.suppress_map[0] = '\0';
	aggregate_with(AGG, &o);
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.0/25"));
	ck_assert_ptr_nonnull(fake_adj(e2, "192.0.2.128/25"));
}
END_TEST

/* origin O: the aggregate's ORIGIN, whatever the contributors'. */
START_TEST(test_origin)
{
	struct rib_aggregate_opts o = { .origin_set = true, .origin = BGP_ORIGIN_EGP };

	aggregate_with(AGG, &o);
	announce("192.0.2.0/25", BGP_ORIGIN_INCOMPLETE);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_EGP);
	o.origin_set = false;
	aggregate_with(AGG, &o);
	assert_plain_aggregate(fake_adj(e2, AGG), BGP_ORIGIN_INCOMPLETE);
}
END_TEST

START_TEST(test_show_suppressed)
{
	struct vty *vty;
	const char *out;

	cmd_init();
	bgp_show_route_init();
	vty = vty_new(-1);
	aggregate_opts(V4, AGG, true);
	announce("192.0.2.0/25", BGP_ORIGIN_IGP);

	/* FRR's rows: the aggregate with next hop ::, the more specific with status s. */
	cmd_execute(vty, "show ip bgp", false);
	out = vty->out.buf ? vty->out.buf : "";
	ck_assert_msg(strstr(out, "*> 192.0.2.0/24     ::                       0         32768 i\n"
				  "s> 192.0.2.0/25     203.0.113.2                            0 "
				  "65002 65100 i\n"),
		      "rows:\n%s", out);
	sbuf_reset(&vty->out);
	cmd_execute(vty, "show ip bgp json", false);
	out = vty->out.buf ? vty->out.buf : "";
	ck_assert_msg(strstr(out, "\"suppressed\":true"), "json:\n%s", out);
	vty_free(vty);
	cmd_terminate();
}
END_TEST

static Suite *aggregate_suite(void)
{
	Suite *s = suite_create("bgp_aggregate");
	TCase *tc = tcase_create("aggregate");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_follows_more_specifics);
	tcase_add_test(tc, test_configured_after_routes_and_removed);
	tcase_add_test(tc, test_equal_or_outside_prefix_does_not_count);
	tcase_add_test(tc, test_ipv6);
	tcase_add_test(tc, test_import_failed_contributes_nothing);
	tcase_add_test(tc, test_summary_only);
	tcase_add_test(tc, test_summary_only_follows_last_contributor);
	tcase_add_test(tc, test_as_set);
	tcase_add_test(tc, test_as_set_large_communities);
	tcase_add_test(tc, test_route_map);
	tcase_add_test(tc, test_matching_med_only);
	tcase_add_test(tc, test_suppress_map);
	tcase_add_test(tc, test_origin);
	tcase_add_test(tc, test_show_suppressed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(aggregate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
