/* SPDX-License-Identifier: ISC */
/*
 * Route-maps (bgpd/policy/bgp_routemap.c) against FRR's rules: deny, permit with set statements,
 * implicit deny, on-match next and goto, call (and a call loop), match statements naming
 * missing lists, +N/-N arithmetic saturating, prepend order, a missing route-map, no leaks;
 * match large-community [exact-match], set large-community [additive] | none and the
 * set comm-list / large-comm-list delete statements, in the route's extras; match rpki and
 * match aspa through the installed validator, and route_map_uses_validation() through calls;
 * set origin, the last one applied winning; set as-path exclude, before the entry's prepend;
 * match ip next-hop prefix-list (missing, empty, IPv6 routes as FRR); match ipv6 next-hop
 * address (global, link-local only beside a global, none on an IPv4 route).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "lib/plist.h"

static struct bgp_attr base;

static void setup(void)
{
	memset(&base, 0, sizeof(base));
	base.aspath = bgp_aspath_from_str("65002 65010");
	base.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		       ATTR_BIT(BGP_ATTR_NEXT_HOP);
	inet_pton(AF_INET, "192.0.2.2", &base.nexthop);
}

static void teardown(void)
{
	bgp_aspath_unref(base.aspath);
	route_map_reset();
	prefix_list_reset();
	aspath_list_reset();
	community_list_reset();
	ck_assert_uint_eq(MTYPE_BGP_ROUTEMAP->allocated, 0);
}

static struct rmap_entry E(uint16_t seq, bool permit) {
	struct rmap_entry e = { .seq = seq, .permit = permit };

	return e;
}

static char *
S(const char *s)
{
	return XSTRDUP(MTYPE_BGP_ROUTEMAP, s);
}

/* Run map on prefix s with a copy of base; returns the verdict, *out the result. */
/* The weight of run()'s last result: it lives in the map's extras block, which is run()'s. */
static uint32_t out_weight;

static bool run(const char *map, const char *s, struct bgp_attr *out, char *path, size_t size)
{
	struct prefix p;
	struct rmap_refs refs;
	bool r;

	ck_assert_int_eq(prefix_from_str(&p, s, false), 0);
	*out = base;
	r = route_map_apply(map, &p, out, &refs);
	if (path)
		bgp_aspath_to_str(out->aspath, path, size);
	out_weight = bgp_attr_weight(out);
	route_map_refs_release(&refs);
	out->extra = NULL; /* it pointed into refs */
	return r;
}

START_TEST(test_deny_permit_implicit)
{
	struct rmap_entry e = E(10, false);
	struct prefix_list_entry pe = { .seq = 5, .action = PREFIX_PERMIT, .le = 32 };
	struct bgp_attr out;

	prefix_from_str(&pe.p, "10.0.0.0/8", false);
	prefix_list_entry_set(prefix_list_get(AF_INET, "TEN"), &pe);
	e.match_plist4 = S("TEN");
	route_map_entry_set("M", &e);
	e = E(20, true);
	e.match_metric_set = true;
	e.match_metric = 0; /* no MED counts as 0 */
	e.lp_set = true;
	e.lp = 300;
	route_map_entry_set("M", &e);

	ck_assert(!run("M", "10.1.0.0/16", &out, NULL, 0)); /* seq 10 denies */
	ck_assert(run("M", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.local_pref, 300);
	ck_assert(out.present & ATTR_BIT(BGP_ATTR_LOCAL_PREF));
	base.present |= ATTR_BIT(BGP_ATTR_MED);
	base.med = 5;
	ck_assert(!run("M", "192.0.2.0/24", &out, NULL, 0));	/* metric 5: implicit deny */
	ck_assert(!run("NOPE", "192.0.2.0/24", &out, NULL, 0)); /* no such map: deny */
}
END_TEST

START_TEST(test_missing_lists_match_nothing)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	e.match_plist4 = S("MISSING");
	route_map_entry_set("M", &e);
	e = E(20, true);
	e.match_aspath = S("MISSING-TOO");
	route_map_entry_set("M", &e);
	ck_assert(!run("M", "192.0.2.0/24", &out, NULL, 0));
	/* An IPv4 prefix list never matches an IPv6 route. */
	e = E(5, true);
	e.match_plist6 = S("V6");
	route_map_entry_set("N", &e);
	prefix_list_get(AF_INET6, "V6");
	ck_assert(!run("N", "192.0.2.0/24", &out, NULL, 0));
	ck_assert(!run("N", "2001:db8::/32", &out, NULL, 0)); /* an empty list matches nothing */
}
END_TEST

START_TEST(test_on_match_next_goto_and_call)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;
	char path[128];

	e.med_set = true;
	e.med = 10;
	e.on_match = RMAP_NEXT;
	route_map_entry_set("M", &e);
	e = E(20, true);
	e.med_set = true;
	e.med_op = RMAP_ADD;
	e.med = 5;
	e.on_match = RMAP_GOTO;
	e.goto_seq = 35;
	route_map_entry_set("M", &e);
	e = E(30, false); /* skipped by the goto */
	route_map_entry_set("M", &e);
	e = E(40, true);
	e.weight_set = true;
	e.weight = 7;
	e.call = S("PREPEND");
	route_map_entry_set("M", &e);
	e = E(5, true);
	e.prepend = XCALLOC(MTYPE_BGP_ROUTEMAP, 2 * sizeof(uint32_t));
	e.prepend[0] = 65001;
	e.prepend[1] = 65009;
	e.nprepend = 2;
	route_map_entry_set("PREPEND", &e);

	ck_assert(run("M", "192.0.2.0/24", &out, path, sizeof(path)));
	ck_assert_uint_eq(out.med, 15);
	ck_assert_uint_eq(out_weight, 7);
	ck_assert_str_eq(path, "65001 65009 65002 65010"); /* in the order written */

	/* A call that denies makes the entry deny. */
	route_map_entry_delete("PREPEND", 5);
	ck_assert(!run("M", "192.0.2.0/24", &out, NULL, 0));
}
END_TEST

START_TEST(test_set_origin)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	base.origin = BGP_ORIGIN_IGP;
	e.origin_set = true;
	e.origin = BGP_ORIGIN_INCOMPLETE;
	route_map_entry_set("M", &e);
	ck_assert(run("M", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.origin, BGP_ORIGIN_INCOMPLETE);
	ck_assert(out.present & ATTR_BIT(BGP_ATTR_ORIGIN));
	ck_assert_uint_eq(base.origin, BGP_ORIGIN_IGP); /* on the copy only */

	/* An entry without set origin leaves the route's origin alone. */
	base.origin = BGP_ORIGIN_EGP;
	e = E(10, true);
	e.weight_set = true;
	route_map_entry_set("N", &e);
	ck_assert(run("N", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.origin, BGP_ORIGIN_EGP);

	/* on-match next, then a called map: the last set origin applied wins (FRR). */
	e = E(10, true);
	e.origin_set = true;
	e.origin = BGP_ORIGIN_INCOMPLETE;
	e.on_match = RMAP_NEXT;
	route_map_entry_set("O", &e);
	e = E(20, true);
	e.call = S("TO-IGP");
	route_map_entry_set("O", &e);
	e = E(10, true);
	e.origin_set = true;
	e.origin = BGP_ORIGIN_IGP;
	route_map_entry_set("TO-IGP", &e);
	ck_assert(run("O", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.origin, BGP_ORIGIN_IGP);
	/* A deny after the set takes the route, origin and all. */
	e = E(30, false);
	route_map_entry_set("TO-IGP", &e);
	route_map_entry_delete("TO-IGP", 10);
	ck_assert(!run("O", "192.0.2.0/24", &out, NULL, 0));
}
END_TEST

static uint32_t *asns(uint32_t a, uint32_t b)
{
	uint32_t *v = XCALLOC(MTYPE_BGP_ROUTEMAP, 2 * sizeof(*v));

	v[0] = a;
	v[1] = b;
	return v;
}

START_TEST(test_set_as_path_exclude)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;
	char path[128];

	bgp_aspath_unref(base.aspath);
	base.aspath = bgp_aspath_from_str("65002 65010 65002 {65002,65011}");
	e.exclude = asns(65002, 65099); /* 65099 is not in the path: nothing to do for it */
	e.nexclude = 2;
	route_map_entry_set("M", &e);
	ck_assert(run("M", "192.0.2.0/24", &out, path, sizeof(path)));
	ck_assert_str_eq(path, "65010 {65011}");

	/* Exclude runs before the same entry's prepend (FRR's printed order), so a prepended
	 * AS stays even when the exclude names it. */
	e = E(10, true);
	e.exclude = asns(65010, 65002);
	e.nexclude = 2;
	e.prepend = asns(65002, 65002);
	e.nprepend = 2;
	route_map_entry_set("P", &e);
	ck_assert(run("P", "192.0.2.0/24", &out, path, sizeof(path)));
	ck_assert_str_eq(path, "65002 65002 {65011}");

	/* A later entry (on-match next) excludes what an earlier one prepended. */
	e = E(10, true);
	e.prepend = asns(65003, 65004);
	e.nprepend = 2;
	e.on_match = RMAP_NEXT;
	route_map_entry_set("N", &e);
	e = E(20, true);
	e.exclude = asns(65004, 65011);
	e.nexclude = 2;
	route_map_entry_set("N", &e);
	ck_assert(run("N", "192.0.2.0/24", &out, path, sizeof(path)));
	ck_assert_str_eq(path, "65003 65002 65010 65002 {65002}");
}
END_TEST

START_TEST(test_match_ip_nexthop_plist)
{
	struct prefix_list_entry pe = { .seq = 5, .action = PREFIX_PERMIT, .le = 32 };
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	/* NH permits 192.0.2.0/24 and longer: base's next hop 192.0.2.2 is in it. */
	prefix_from_str(&pe.p, "192.0.2.0/24", false);
	prefix_list_entry_set(prefix_list_get(AF_INET, "NH"), &pe);
	e.match_nh_plist4 = S("NH");
	e.weight_set = true;
	e.weight = 1;
	route_map_entry_set("M", &e);
	ck_assert(run("M", "198.51.100.0/24", &out, NULL, 0)); /* the next hop, not the prefix */
	ck_assert_uint_eq(out_weight, 1);
	inet_pton(AF_INET, "203.0.113.2", &base.nexthop);
	ck_assert(!run("M", "198.51.100.0/24", &out, NULL, 0));
	inet_pton(AF_INET, "192.0.2.2", &base.nexthop);

	/* A list without entries permits every next hop; a missing one matches nothing. */
	e = E(10, true);
	e.match_nh_plist4 = S("EMPTY");
	route_map_entry_set("E", &e);
	ck_assert(!run("E", "198.51.100.0/24", &out, NULL, 0));
	prefix_list_get(AF_INET, "EMPTY");
	ck_assert(run("E", "198.51.100.0/24", &out, NULL, 0));
	/* IPv6 routes never match, whatever the list says (FRR). */
	ck_assert(!run("E", "2001:db8::/32", &out, NULL, 0));
	ck_assert(!run("M", "2001:db8::/32", &out, NULL, 0));
}
END_TEST

START_TEST(test_next_falls_off_end_permits)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	e.lp_set = true;
	e.lp = 50;
	e.on_match = RMAP_NEXT;
	route_map_entry_set("M", &e);
	ck_assert(run("M", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.local_pref, 50);
	/* FRR: an entry tried after the continue that does not match takes the permit back. */
	e = E(20, true);
	e.match_metric_set = true;
	e.match_metric = 99;
	route_map_entry_set("M", &e);
	ck_assert(!run("M", "192.0.2.0/24", &out, NULL, 0));
	/* A call to a route-map that does not exist is skipped (FRR). */
	e = E(10, true);
	e.weight_set = true;
	e.weight = 3;
	e.call = S("NOT-THERE");
	route_map_entry_set("C", &e);
	ck_assert(run("C", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out_weight, 3);
}
END_TEST

START_TEST(test_arithmetic_saturates)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	e.lp_set = true;
	e.lp_op = RMAP_SUB;
	e.lp = 1000; /* from 0 (no LOCAL_PREF: FRR counts from 0): 0, not a wrap */
	e.med_set = true;
	e.med_op = RMAP_ADD;
	e.med = 4294967295u;
	route_map_entry_set("M", &e);
	base.present |= ATTR_BIT(BGP_ATTR_MED);
	base.med = 10;
	ck_assert(run("M", "192.0.2.0/24", &out, NULL, 0));
	ck_assert_uint_eq(out.local_pref, 0);
	ck_assert_uint_eq(out.med, 4294967295u);
}
END_TEST

START_TEST(test_call_loop_denies)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	e.call = S("B");
	route_map_entry_set("A", &e);
	e = E(10, true);
	e.call = S("A");
	route_map_entry_set("B", &e);
	ck_assert(!run("A", "192.0.2.0/24", &out, NULL, 0)); /* bounded, then denied */
}
END_TEST

/* Run map on a route carrying communities `have` (text); the result's communities as text
 * in *out ("-" when denied). */
static void run_comms(const char *map, const char *have, char *out, size_t size)
{
	uint32_t v[8], n = 0;
	char copy[128], *save = NULL;
	struct bgp_attr t = base;
	struct bgp_u32list *in;
	struct rmap_refs refs;
	struct prefix p;

	snprintf(copy, sizeof(copy), "%s", have);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_community_from_str(w, &v[n++]), 0);
	in = n ? bgp_u32list_intern(v, n) : NULL;
	t.communities = in;
	prefix_from_str(&p, "192.0.2.0/24", false);
	out[0] = '\0';
	if (!route_map_apply(map, &p, &t, &refs))
		snprintf(out, size, "-");
	else if (t.communities)
		bgp_u32list_community_str(t.communities, out, size);
	route_map_refs_release(&refs);
	if (in)
		bgp_u32list_unref(in);
}

START_TEST(test_match_and_set_community)
{
	struct rmap_entry e = E(10, true);
	char out[128];

	ck_assert_int_eq(community_list_entry_set("TAG", false, 5, true, "65001:666"), 0);
	e.match_clist = S("TAG");
	e.comm_set = true;
	e.comm_additive = true;
	e.comm = XCALLOC(MTYPE_BGP_ROUTEMAP, 2 * sizeof(uint32_t));
	bgp_community_from_str("no-export", &e.comm[1]);
	bgp_community_from_str("65001:2", &e.comm[0]);
	e.ncomm = 2;
	route_map_entry_set("M", &e);
	e = E(20, true);
	e.comm_set = true;
	e.comm_none = true;
	route_map_entry_set("M", &e);

	run_comms("M", "65001:666 65001:2", out, sizeof(out));
	ck_assert_str_eq(out, "65001:2 65001:666 no-export"); /* added, sorted, no duplicate */
	run_comms("M", "65009:1", out, sizeof(out));
	ck_assert_str_eq(out, ""); /* seq 20: none */

	/* Replace (not additive). */
	e = E(5, true);
	e.comm_set = true;
	e.comm = XCALLOC(MTYPE_BGP_ROUTEMAP, sizeof(uint32_t));
	bgp_community_from_str("65001:9", &e.comm[0]);
	e.ncomm = 1;
	route_map_entry_set("R", &e);
	run_comms("R", "65001:666 65001:2", out, sizeof(out));
	ck_assert_str_eq(out, "65001:9");
}
END_TEST

/* Run map over base with large communities `lc` (and communities `c`); "-" when denied,
 * else "large | communities". */
static void run_large(const char *map, const char *lc, const char *c, char *out, size_t size)
{
	struct bgp_attr_extra ex = bgp_attr_extra_none;
	uint32_t v[30], cv[10], n = 0, cn = 0;
	char copy[256], *save = NULL, a[100], b[100];
	struct bgp_attr t = base, *interned;
	struct bgp_u32list *cl = NULL;
	struct rmap_refs refs;
	struct prefix p;

	snprintf(copy, sizeof(copy), "%s", lc);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_lcommunity_from_str(w, &v[3 * n++]), 0);
	snprintf(copy, sizeof(copy), "%s", c);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_community_from_str(w, &cv[cn++]), 0);
	if (n) {
		ex.lcommunities = bgp_lcommlist_intern(v, n);
		t.extra = &ex;
		t.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	}
	if (cn) {
		t.communities = cl = bgp_u32list_intern(cv, cn);
		t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	ck_assert_int_eq(prefix_from_str(&p, "192.0.2.0/24", false), 0);
	if (!route_map_apply(map, &p, &t, &refs)) {
		snprintf(out, size, "-");
	} else {
		/* Interned as the RIB does: the set owns its references from then on. */
		interned = bgp_attr_intern(&t);
		bgp_lcommlist_str(bgp_attr_ex(interned)->lcommunities, a, sizeof(a));
		bgp_u32list_community_str(interned->communities, b, sizeof(b));
		ck_assert_int_eq(!!(interned->present & ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES)),
				 !!bgp_attr_ex(interned)->lcommunities);
		snprintf(out, size, "%s | %s", a, b);
		bgp_attr_unref(interned);
	}
	route_map_refs_release(&refs);
	bgp_lcommlist_unref(ex.lcommunities);
	if (cl)
		bgp_u32list_unref(cl);
}

START_TEST(test_large_communities)
{
	struct rmap_entry e = E(10, true);
	char out[256];

	ck_assert_int_eq(lcommunity_list_entry_set("LT", false, 5, true, "65001:1:1"), 0);
	ck_assert_int_eq(lcommunity_list_entry_set("DEL", true, 5, true, "^65001:1:"), 0);
	ck_assert_int_eq(community_list_entry_set("CDEL", false, 5, true, "65001:1"), 0);
	e.match_lclist = S("LT");
	e.lcomm_set = true;
	e.lcomm_additive = true;
	e.lcomm = XCALLOC(MTYPE_BGP_ROUTEMAP, 6 * sizeof(uint32_t));
	bgp_lcommunity_from_str("65001:9:9", &e.lcomm[0]);
	bgp_lcommunity_from_str("2:2:2", &e.lcomm[3]);
	e.nlcomm = 2;
	route_map_entry_set("M", &e);
	e = E(20, true);
	e.match_lclist = S("LT");
	route_map_entry_set("X", &e);
	e = E(10, true);
	e.match_lclist = S("LT");
	e.match_lclist_exact = true;
	e.lcomm_set = true;
	e.lcomm_none = true;
	route_map_entry_set("EX", &e);
	e = E(10, true);
	e.lcomm_delete = S("DEL");
	e.comm_delete = S("CDEL");
	route_map_entry_set("D", &e);

	run_large("M", "65001:1:1 3:3:3", "", out, sizeof(out));
	ck_assert_str_eq(out, "2:2:2 3:3:3 65001:1:1 65001:9:9 | "); /* added, sorted */
	run_large("M", "3:3:3", "", out, sizeof(out));
	ck_assert_str_eq(out, "-");
	run_large("X", "", "65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "-"); /* no large communities: no standard entry matches */
	run_large("EX", "65001:1:1 3:3:3", "", out, sizeof(out));
	ck_assert_str_eq(out, "-"); /* not exact */
	run_large("EX", "65001:1:1", "65001:5", out, sizeof(out));
	ck_assert_str_eq(out, " | 65001:5"); /* none: gone, communities kept */
	run_large("D", "65001:1:1 65001:2:2 65001:1:7", "65001:1 65001:2", out, sizeof(out));
	ck_assert_str_eq(out, "65001:2:2 | 65001:2");
	run_large("D", "65001:1:1", "65001:1", out, sizeof(out));
	ck_assert_str_eq(out, " | ");
}
END_TEST

/* Extended communities from "rt 65001:1 soo 192.0.2.1:7 lb 100" (lb: a transitive link
 * bandwidth of AS 65001 in Mbps, lbn: non-transitive), in that order. */
static uint32_t ecomm_values(const char *text, uint32_t *v)
{
	char copy[256], *save = NULL;
	uint32_t n = 0;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *val = strtok_r(NULL, " ", &save);

		ck_assert_ptr_nonnull(val);
		if (strncmp(w, "lb", 2) == 0)
			bgp_ecomm_lb(65001, (uint32_t)strtoul(val, NULL, 10) * 125000, w[2] != 'n',
				     &v[2 * n]);
		else
			ck_assert_int_eq(bgp_ecomm_from_str(val,
							    strcmp(w, "rt") == 0
								    ? BGP_ECOMM_SUB_RT
								    : BGP_ECOMM_SUB_SOO,
							    &v[2 * n]),
					 0);
		n++;
	}
	return n;
}

/* Run map on a route with extended communities ec; out: the route's afterwards, as FRR
 * shows them, or "-" when denied. */
static void run_ext_ctx(const char *map, const char *ec, const struct rmap_ctx *ctx, char *out,
			size_t size)
{
	struct bgp_attr_extra ex = bgp_attr_extra_none;
	struct bgp_attr t = base, *interned;
	uint32_t v[40], n = ecomm_values(ec, v);
	struct rmap_refs refs;
	struct prefix p;

	if (n) {
		ex.ecommunities = bgp_ecommlist_intern(v, n);
		t.extra = &ex;
		t.present |= ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	}
	ck_assert_int_eq(prefix_from_str(&p, "192.0.2.0/24", false), 0);
	if (!route_map_apply_ctx(map, &p, &t, &refs, ctx)) {
		snprintf(out, size, "-");
	} else {
		interned = bgp_attr_intern(&t);
		ck_assert_int_ge(bgp_ecommlist_str(bgp_attr_ex(interned)->ecommunities, out, size),
				 0);
		ck_assert_int_eq(!!(interned->present & ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES)),
				 !!bgp_attr_ex(interned)->ecommunities);
		bgp_attr_unref(interned);
	}
	route_map_refs_release(&refs);
	bgp_ecommlist_unref(ex.ecommunities);
}

static void run_ext(const char *map, const char *ec, char *out, size_t size)
{
	run_ext_ctx(map, ec, NULL, out, size);
}

/* An entry's set extcommunity rt|soo values from text ("65001:1 192.0.2.1:7"), sorted as the
 * configuration layer hands them over. */
static uint32_t *ecomm_set(const char *kind, const char *vals, uint32_t *n)
{
	uint32_t *v = XCALLOC(MTYPE_BGP_ROUTEMAP, 16 * sizeof(uint32_t));
	uint8_t sub = strcmp(kind, "rt") == 0 ? BGP_ECOMM_SUB_RT : BGP_ECOMM_SUB_SOO;
	char copy[256], *save = NULL;

	*n = 0;
	snprintf(copy, sizeof(copy), "%s", vals);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_ecomm_from_str(w, sub, &v[2 * (*n)++]), 0);
	*n = bgp_ecomm_sort_uniq(v, *n);
	return v;
}

START_TEST(test_extended_communities)
{
	struct rmap_entry e = E(10, true);
	char out[512];

	route_map_set_local_as(65001);
	ck_assert_int_eq(ecommunity_list_entry_set("RT1", false, 5, true, "rt 65001:1"), 0);
	/* match extcommunity, then rt and soo appended (FRR's ecommunity_merge(): repeats
	 * kept), the values of each statement sorted. */
	e.match_eclist = S("RT1");
	e.ecomm_rt = ecomm_set("rt", "65001:3 65001:1 192.0.2.1:7", &e.necomm_rt);
	e.ecomm_soo = ecomm_set("soo", "65001:9", &e.necomm_soo);
	route_map_entry_set("M", &e);
	run_ext("M", "soo 65001:2 rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "SoO:65001:2 RT:65001:1 RT:65001:1 RT:65001:3 RT:192.0.2.1:7 "
			      "SoO:65001:9");
	run_ext("M", "rt 65001:2", out, sizeof(out));
	ck_assert_str_eq(out, "-");
	run_ext("M", "", out, sizeof(out));
	ck_assert_str_eq(out, "-");
	/* A missing list matches nothing. */
	e = E(10, true);
	e.match_eclist = S("MISSING");
	route_map_entry_set("MISS", &e);
	run_ext("MISS", "rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "-");

	/* bandwidth: 100 Mbps of our AS, in sorted place; one of the same transitivity is
	 * replaced where it stands (FRR's ecommunity_add_val(unique, overwrite)). */
	e = E(10, true);
	e.lb = RMAP_LB_VALUE;
	e.lb_mbps = 100;
	route_map_entry_set("LB", &e);
	run_ext("LB", "", out, sizeof(out));
	ck_assert_str_eq(out, "LB:65001:12500000 (100.000 Mbps)");
	run_ext("LB", "soo 65001:9 rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "SoO:65001:9 RT:65001:1 LB:65001:12500000 (100.000 Mbps)");
	run_ext("LB", "rt 65001:1 rt 192.0.2.1:1", out, sizeof(out));
	ck_assert_str_eq(out, "RT:65001:1 LB:65001:12500000 (100.000 Mbps) RT:192.0.2.1:1");
	run_ext("LB", "rt 192.0.2.1:1 lb 5 rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "RT:192.0.2.1:1 LB:65001:12500000 (100.000 Mbps) RT:65001:1");
	/* The non-transitive one is another type: added beside the transitive one. */
	e = E(10, true);
	e.lb = RMAP_LB_VALUE;
	e.lb_mbps = 25600;
	e.lb_non_transitive = true;
	route_map_entry_set("LBN", &e);
	run_ext("LBN", "lb 5 rt 192.0.2.1:1", out, sizeof(out));
	ck_assert_str_eq(out, "LB:65001:625000 (5.000 Mbps) RT:192.0.2.1:1 "
			      "LB:65001:3200000000 (25.000 Gbps)");
	run_ext("LBN", "lbn 5", out, sizeof(out));
	ck_assert_str_eq(out, "LB:65001:3200000000 (25.000 Gbps)");
	/* A 4-octet AS is AS_TRANS in the 2-octet field. */
	route_map_set_local_as(4200000000u);
	run_ext("LBN", "", out, sizeof(out));
	ck_assert_str_eq(out, "LB:23456:3200000000 (25.000 Gbps)");
	route_map_set_local_as(65001);

	/* none after the bandwidth of the same entry, before its rt and soo (FRR's order). */
	e = E(10, true);
	e.ecomm_none = true;
	route_map_entry_set("NONE", &e);
	run_ext("NONE", "rt 65001:1 soo 65001:2", out, sizeof(out));
	ck_assert_str_eq(out, "");
	e = E(10, true);
	e.ecomm_none = true;
	e.lb = RMAP_LB_VALUE;
	e.lb_mbps = 1;
	e.ecomm_soo = ecomm_set("soo", "65001:5", &e.necomm_soo);
	route_map_entry_set("NONE2", &e);
	run_ext("NONE2", "rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "SoO:65001:5");
	route_map_set_local_as(0);
}
END_TEST

/* bandwidth num-multipaths: 1 Mbps per path, on the exported best path only (FRR: an inbound
 * map's path is not selected yet); cumulative: nothing for a path alone. */
START_TEST(test_bandwidth_paths)
{
	struct rmap_ctx in = { .peer_as = 65002 }, out1 = { .export_paths = 1 },
			out3 = { .export_paths = 3 };
	struct rmap_entry e = E(10, true);
	char out[256];

	route_map_set_local_as(65001);
	e.lb = RMAP_LB_NUM_MPATH;
	route_map_entry_set("NM", &e);
	e = E(10, true);
	e.lb = RMAP_LB_CUMULATIVE;
	e.lb_non_transitive = true;
	route_map_entry_set("CU", &e);
	run_ext_ctx("NM", "rt 65001:1", &in, out, sizeof(out));
	ck_assert_str_eq(out, "RT:65001:1");
	run_ext("NM", "rt 65001:1", out, sizeof(out));
	ck_assert_str_eq(out, "RT:65001:1");
	run_ext_ctx("NM", "rt 65001:1", &out1, out, sizeof(out));
	ck_assert_str_eq(out, "RT:65001:1 LB:65001:125000 (1.000 Mbps)");
	run_ext_ctx("NM", "lb 7", &out3, out, sizeof(out));
	ck_assert_str_eq(out, "LB:65001:375000 (3.000 Mbps)");
	run_ext_ctx("CU", "lbn 7", &out1, out, sizeof(out));
	ck_assert_str_eq(out, "LB:65001:875000 (7.000 Mbps)");
	run_ext_ctx("CU", "", &out1, out, sizeof(out));
	ck_assert_str_eq(out, "");
	route_map_set_local_as(0);
}
END_TEST

START_TEST(test_set_ipv6_nexthop_global)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr t, v4;
	struct bgp_attr_extra ex;
	struct rmap_refs refs;
	struct prefix p6, p4;
	struct in6_addr g, ll;
	char buf[INET6_ADDRSTRLEN];

	inet_pton(AF_INET6, "2001:db8::2", &g);
	inet_pton(AF_INET6, "fe80::2", &ll);
	inet_pton(AF_INET6, "2001:db8:ff::1", &e.nexthop6);
	e.nexthop6_set = true;
	route_map_entry_set("NH6", &e);

	/* An IPv6 route: the global next hop replaced, the link-local one kept. */
	t = base;
	bgp_attr_set_mp_nh(&t, &ex, 32, &g, &ll);
	ck_assert_int_eq(prefix_from_str(&p6, "2001:db8:5::/48", true), 0);
	ck_assert(route_map_apply("NH6", &p6, &t, &refs));
	ck_assert(refs.nexthop6_set);
	ck_assert_uint_eq(t.mp_nh_len, 32);
	ck_assert_str_eq(inet_ntop(AF_INET6, bgp_attr_mp_nh_global(&t), buf, sizeof(buf)),
			 "2001:db8:ff::1");
	ck_assert_str_eq(inet_ntop(AF_INET6, bgp_attr_mp_nh_local(&t), buf, sizeof(buf)),
			 "fe80::2");
	route_map_refs_release(&refs);

	/* An IPv4 route is left alone. */
	v4 = base;
	ck_assert_int_eq(prefix_from_str(&p4, "198.51.100.0/24", true), 0);
	ck_assert(route_map_apply("NH6", &p4, &v4, &refs));
	ck_assert(!refs.nexthop6_set);
	ck_assert_uint_eq(v4.mp_nh_len, 0);
	ck_assert_ptr_eq(v4.extra, base.extra);
	route_map_refs_release(&refs);
}
END_TEST

/* A validator that calls everything in 198.51.100.0/24 from AS 64500 valid, the rest of
 * 198.51.100.0/24 invalid, and anything else not found; ASPA: a path through AS 64666 is
 * invalid upstream, unknown downstream. */
static enum rpki_state fake_rov(const struct prefix *p, const struct bgp_aspath *aspath)
{
	struct prefix net;

	prefix_from_str(&net, "198.51.100.0/24", false);
	if (!prefix_contains(&net, p))
		return RPKI_NOTFOUND;
	return bgp_aspath_origin_as(aspath) == 64500 ? RPKI_VALID : RPKI_INVALID;
}

static enum aspa_state fake_aspa(const struct bgp_aspath *aspath, uint32_t peer_as,
				 enum aspa_dir dir)
{
	if (!bgp_aspath_contains(aspath, 64666))
		return ASPA_VALID;
	return dir == ASPA_DIR_UPSTREAM ? ASPA_INVALID : ASPA_UNKNOWN;
}

static const struct rmap_validator fake_validator = { fake_rov, fake_aspa };

/* Run map on an IPv6 route whose next hops are global g and, when ll is given, link-local ll. */
static bool run6(const char *map, const char *g, const char *ll)
{
	struct bgp_attr t = base;
	struct bgp_attr_extra ex;
	struct rmap_refs refs;
	struct in6_addr ga, la;
	struct prefix p;
	bool r;

	inet_pton(AF_INET6, g, &ga);
	if (ll)
		inet_pton(AF_INET6, ll, &la);
	bgp_attr_set_mp_nh(&t, &ex, ll ? 32 : 16, &ga, ll ? &la : NULL);
	ck_assert_int_eq(prefix_from_str(&p, "2001:db8:5::/48", true), 0);
	r = route_map_apply(map, &p, &t, &refs);
	route_map_refs_release(&refs);
	return r;
}

START_TEST(test_match_ipv6_nexthop)
{
	struct rmap_entry e = E(10, true);
	struct bgp_attr out;

	e.match_nh6_set = true;
	inet_pton(AF_INET6, "2001:db8::2", &e.match_nh6);
	route_map_entry_set("G", &e);
	e = E(10, true);
	e.match_nh6_set = true;
	inet_pton(AF_INET6, "fe80::2", &e.match_nh6);
	route_map_entry_set("LL", &e);

	ck_assert(run6("G", "2001:db8::2", NULL));
	ck_assert(run6("G", "2001:db8::2", "fe80::2"));
	ck_assert(!run6("G", "2001:db8::3", "fe80::2"));
	ck_assert(run6("LL", "2001:db8::3", "fe80::2")); /* the link-local one, beside a global */
	ck_assert(!run6("LL", "fe80::3", NULL));
	/* An IPv4 route has no IPv6 next hop: `::` matches nothing either. */
	e = E(10, true);
	e.match_nh6_set = true;
	route_map_entry_set("ZERO", &e);
	ck_assert(!run("ZERO", "192.0.2.0/24", &out, NULL, 0));
	ck_assert(!run("G", "192.0.2.0/24", &out, NULL, 0));
}
END_TEST

START_TEST(test_match_rpki_and_aspa)
{
	struct rmap_entry deny_invalid = E(10, false), lp_notfound = E(20, true);
	struct rmap_entry rest = E(30, true), aspa_bad = E(5, false);
	struct rmap_ctx up = { .peer_as = 65002, .aspa_dir = ASPA_DIR_UPSTREAM };
	struct rmap_ctx down = { .peer_as = 65002, .aspa_dir = ASPA_DIR_DOWNSTREAM };
	struct rmap_refs refs;
	struct bgp_attr out;
	struct prefix p;

	deny_invalid.match_rpki = RPKI_INVALID;
	lp_notfound.match_rpki = RPKI_NOTFOUND;
	lp_notfound.lp_set = true;
	lp_notfound.lp = 90;
	route_map_entry_set("EDGE", &deny_invalid);
	route_map_entry_set("EDGE", &lp_notfound);
	route_map_entry_set("EDGE", &rest);
	ck_assert(route_map_uses_validation("EDGE"));

	/* No validator installed: the clauses match nothing, the route falls to seq 30. */
	ck_assert(run("EDGE", "198.51.100.0/24", &out, NULL, 0));
	ck_assert(!(out.present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));

	route_map_set_validator(&fake_validator);
	ck_assert(!run("EDGE", "198.51.100.0/24", &out, NULL, 0)); /* origin 65010: invalid */
	ck_assert(run("EDGE", "192.0.2.0/24", &out, NULL, 0));	   /* not found: lp 90 */
	ck_assert_uint_eq(out.local_pref, 90);
	bgp_aspath_unref(base.aspath);
	base.aspath = bgp_aspath_from_str("65002 64500");
	ck_assert(run("EDGE", "198.51.100.0/24", &out, NULL, 0)); /* valid: seq 30, no lp */
	ck_assert(!(out.present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));

	/* match aspa needs to know where the route came from. */
	aspa_bad.match_aspa = ASPA_INVALID;
	route_map_entry_set("EDGE", &aspa_bad);
	bgp_aspath_unref(base.aspath);
	base.aspath = bgp_aspath_from_str("65002 64666 64500");
	prefix_from_str(&p, "198.51.100.0/24", false);
	out = base;
	ck_assert(!route_map_apply_ctx("EDGE", &p, &out, &refs, &up));
	route_map_refs_release(&refs);
	out = base;
	ck_assert(route_map_apply_ctx("EDGE", &p, &out, &refs, &down));
	route_map_refs_release(&refs);
	out = base;
	ck_assert(route_map_apply("EDGE", &p, &out, &refs)); /* no context: ASPA not used */
	route_map_refs_release(&refs);

	/* A map that only calls EDGE uses validation too; one that does not, does not. */
	{
		struct rmap_entry caller = E(10, true), plain = E(10, true);

		caller.call = S("EDGE");
		route_map_entry_set("OUTER", &caller);
		route_map_entry_set("PLAIN", &plain);
	}
	ck_assert(route_map_uses_validation("OUTER"));
	ck_assert(!route_map_uses_validation("PLAIN"));
	ck_assert(!route_map_uses_validation("MISSING"));
	ck_assert(!route_map_uses_validation(NULL));
	route_map_set_validator(NULL);
}
END_TEST

int main(void)
{

	Suite *s = suite_create("bgp_routemap");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_deny_permit_implicit);
	tcase_add_test(tc, test_missing_lists_match_nothing);
	tcase_add_test(tc, test_on_match_next_goto_and_call);
	tcase_add_test(tc, test_next_falls_off_end_permits);
	tcase_add_test(tc, test_set_origin);
	tcase_add_test(tc, test_set_as_path_exclude);
	tcase_add_test(tc, test_match_ip_nexthop_plist);
	tcase_add_test(tc, test_arithmetic_saturates);
	tcase_add_test(tc, test_call_loop_denies);
	tcase_add_test(tc, test_match_and_set_community);
	tcase_add_test(tc, test_large_communities);
	tcase_add_test(tc, test_extended_communities);
	tcase_add_test(tc, test_bandwidth_paths);
	tcase_add_test(tc, test_set_ipv6_nexthop_global);
	tcase_add_test(tc, test_match_rpki_and_aspa);
	tcase_add_test(tc, test_match_ipv6_nexthop);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
