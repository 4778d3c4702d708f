/* SPDX-License-Identifier: ISC */
/* The decision process: one row per tie-breaker, and independence from the order of paths. */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "tests/unit/rib_test.h"

/* A candidate described in a table row. */
struct cand_desc {
	const char *aspath;
	uint8_t origin;
	bool med_set;
	uint32_t med;
	bool lp_set;
	uint32_t lp;
	uint32_t weight;
	const char *originator; /* NULL = none */
	uint32_t cluster_len;
	/* source */
	bool local;
	bool ebgp;
	const char *router_id;
	const char *addr;
	uint32_t igp_metric; /* to its next hop */
	bool selected;	     /* the best before this decision */
};

struct tie_row {
	const char *name;
	struct cand_desc a, b;
	int winner; /* 0 = a, 1 = b */
	enum bgp_sel_reason why;
	const char *why_text;
	const struct bgp_bestpath *cfg; /* NULL = FRR 8.4's defaults */
};

static const struct bgp_bestpath always_compare_med = { .always_compare_med = true };
static const struct bgp_bestpath missing_as_worst = { .med_missing_as_worst = true };
static const struct bgp_bestpath compare_routerid = { .compare_routerid = true };
static const struct bgp_bestpath aspath_ignore = { .aspath_ignore = true };
static const struct bgp_bestpath aspath_confed = { .aspath_confed = true };

#define EBGP(asp, rid, a_) .aspath = asp, .ebgp = true, .router_id = rid, .addr = a_
#define IBGP(asp, rid, a_) .aspath = asp, .ebgp = false, .router_id = rid, .addr = a_

static const struct tie_row rows[] = {
	{ "weight",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9"), .weight = 100 },
	  { EBGP("65003", "1.1.1.1", "10.0.0.1") },
	  0,
	  BGP_SEL_WEIGHT,
	  "Weight" },
	{ "local-pref higher",
	  { IBGP("65100", "9.9.9.9", "10.0.0.9"), .lp_set = true, .lp = 200 },
	  { IBGP("65100", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 100 },
	  0,
	  BGP_SEL_LOCAL_PREF,
	  "Local Pref" },
	{ "local-pref default 100 for eBGP",
	  { EBGP("65002 65100 65200", "9.9.9.9", "10.0.0.9") },
	  { IBGP("65100", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 90 },
	  0,
	  BGP_SEL_LOCAL_PREF,
	  "Local Pref" },
	{ "locally originated",
	  { .aspath = "", .local = true, .addr = "0.0.0.0", .router_id = "10.0.0.1" },
	  { EBGP("65002", "1.1.1.1", "10.0.0.1") },
	  0,
	  BGP_SEL_LOCAL_ROUTE,
	  "Local Route" },
	{ "as-path shorter",
	  { EBGP("65003 65100", "9.9.9.9", "10.0.0.9") },
	  { EBGP("65002 65050 65100", "1.1.1.1", "10.0.0.1") },
	  0,
	  BGP_SEL_AS_PATH,
	  "AS Path" },
	{ "as-path: a set counts one (RFC 4271 9.1.2.2 a)",
	  { EBGP("65003 {65010,65011,65012}", "9.9.9.9", "10.0.0.9") },
	  { EBGP("65002 65050 65100", "1.1.1.1", "10.0.0.1") },
	  0,
	  BGP_SEL_AS_PATH,
	  "AS Path" },
	{ "as-path: confederation segments count zero",
	  { IBGP("(65501 65502 65503) 65100", "9.9.9.9", "10.0.0.9"), .lp_set = true, .lp = 100 },
	  { IBGP("65050 65100", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 100 },
	  0,
	  BGP_SEL_AS_PATH,
	  "AS Path" },
	{ "origin igp < egp",
	  { EBGP("65003", "9.9.9.9", "10.0.0.9"), .origin = BGP_ORIGIN_IGP },
	  { EBGP("65002", "1.1.1.1", "10.0.0.1"), .origin = BGP_ORIGIN_EGP },
	  0,
	  BGP_SEL_ORIGIN,
	  "Origin" },
	{ "origin egp < incomplete",
	  { EBGP("65003", "1.1.1.1", "10.0.0.1"), .origin = BGP_ORIGIN_INCOMPLETE },
	  { EBGP("65002", "9.9.9.9", "10.0.0.9"), .origin = BGP_ORIGIN_EGP },
	  1,
	  BGP_SEL_ORIGIN,
	  "Origin" },
	{ "med lower, same neighbor AS",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9"), .med_set = true, .med = 10 },
	  { EBGP("65002 65200", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 20 },
	  0,
	  BGP_SEL_MED,
	  "MED" },
	{ "med missing counts 0",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9") },
	  { EBGP("65002 65200", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 5 },
	  0,
	  BGP_SEL_MED,
	  "MED" },
	{ "med not compared across neighbor ASes",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9"), .med_set = true, .med = 0 },
	  { EBGP("65003 65100", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 500 },
	  1,
	  BGP_SEL_ROUTER_ID,
	  "Router ID" },
	{ "med compared between paths originated in our AS",
	  { IBGP("", "9.9.9.9", "10.0.0.9"), .lp_set = true, .lp = 100, .med_set = true, .med = 1 },
	  { IBGP("", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 100, .med_set = true, .med = 2 },
	  0,
	  BGP_SEL_MED,
	  "MED" },
	{ "ebgp over ibgp",
	  { EBGP("65002", "9.9.9.9", "10.0.0.9") },
	  { IBGP("65003", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 100 },
	  0,
	  BGP_SEL_PEER_TYPE,
	  "Peer Type" },
	{ "router id lower",
	  { EBGP("65002", "192.0.2.2", "10.0.0.9") },
	  { EBGP("65003", "192.0.2.10", "10.0.0.1") },
	  0,
	  BGP_SEL_ROUTER_ID,
	  "Router ID" },
	{ "originator id stands for the router id (RFC 4456 9)",
	  { IBGP("65100", "1.1.1.1", "10.0.0.1"), .lp_set = true, .lp = 100,
	    .originator = "3.3.3.3" },
	  { IBGP("65100", "2.2.2.2", "10.0.0.9"), .lp_set = true, .lp = 100 },
	  1,
	  BGP_SEL_ROUTER_ID,
	  "Router ID" },
	{ "cluster list shorter",
	  { IBGP("65100", "1.1.1.1", "10.0.0.9"), .lp_set = true, .lp = 100,
	    .originator = "3.3.3.3", .cluster_len = 1 },
	  { IBGP("65100", "2.2.2.2", "10.0.0.1"), .lp_set = true, .lp = 100,
	    .originator = "3.3.3.3", .cluster_len = 2 },
	  0,
	  BGP_SEL_CLUSTER_LEN,
	  "Cluster length" },
	/* The knobs and the rules FRR 8.4 has beyond RFC 4271 (bgp_path_info_cmp()). */
	{ "igp metric lower",
	  { IBGP("65100", "9.9.9.9", "10.0.0.9"), .igp_metric = 10 },
	  { IBGP("65100", "1.1.1.1", "10.0.0.1"), .igp_metric = 20 },
	  0,
	  BGP_SEL_IGP_METRIC,
	  "IGP Metric" },
	{ "igp metric after peer type",
	  { IBGP("65100", "9.9.9.9", "10.0.0.9"), .igp_metric = 0 },
	  { EBGP("65100", "1.1.1.1", "10.0.0.1"), .igp_metric = 20 },
	  1,
	  BGP_SEL_PEER_TYPE,
	  "Peer Type" },
	{ "older path: the selected eBGP path stays",
	  { EBGP("65002", "192.0.2.10", "10.0.0.9"), .selected = true },
	  { EBGP("65003", "192.0.2.2", "10.0.0.1") },
	  0,
	  BGP_SEL_OLDER,
	  "Older Path" },
	{ "older path: only between eBGP paths",
	  { IBGP("65002", "192.0.2.10", "10.0.0.9"), .selected = true },
	  { IBGP("65003", "192.0.2.2", "10.0.0.1") },
	  1,
	  BGP_SEL_ROUTER_ID,
	  "Router ID" },
	{ "compare-routerid: router id between eBGP paths",
	  { EBGP("65002", "192.0.2.10", "10.0.0.9"), .selected = true },
	  { EBGP("65003", "192.0.2.2", "10.0.0.1") },
	  1,
	  BGP_SEL_ROUTER_ID,
	  "Router ID",
	  &compare_routerid },
	{ "always-compare-med: across neighbor ASes",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9"), .med_set = true, .med = 0 },
	  { EBGP("65003 65100", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 500 },
	  0,
	  BGP_SEL_MED,
	  "MED",
	  &always_compare_med },
	{ "med missing-as-worst",
	  { EBGP("65002 65100", "9.9.9.9", "10.0.0.9") },
	  { EBGP("65002 65200", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 5 },
	  1,
	  BGP_SEL_MED,
	  "MED",
	  &missing_as_worst },
	{ "med missing-as-worst: 4294967295 ties with the worst value",
	  { EBGP("65002 65100", "1.1.1.1", "10.0.0.9") },
	  { EBGP("65002 65200", "9.9.9.9", "10.0.0.1"), .med_set = true, .med = UINT32_MAX },
	  0,
	  BGP_SEL_ROUTER_ID,
	  "Router ID",
	  &missing_as_worst },
	{ "med between paths that only crossed our confederation",
	  { IBGP("(65501)", "9.9.9.9", "10.0.0.9"), .med_set = true, .med = 10 },
	  { IBGP("(65502 65503)", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 20 },
	  0,
	  BGP_SEL_MED,
	  "MED" },
	{ "med: same first AS of a leading confederation sequence",
	  { IBGP("(65501) 65100", "9.9.9.9", "10.0.0.9"), .med_set = true, .med = 10 },
	  { IBGP("(65501) 65200", "1.1.1.1", "10.0.0.1"), .med_set = true, .med = 20 },
	  0,
	  BGP_SEL_MED,
	  "MED" },
	{ "as-path ignore",
	  { EBGP("65002 65050 65100", "1.1.1.1", "10.0.0.9") },
	  { EBGP("65003", "9.9.9.9", "10.0.0.1") },
	  0,
	  BGP_SEL_ROUTER_ID,
	  "Router ID",
	  &aspath_ignore },
	{ "as-path confed: confederation segments count",
	  { IBGP("(65501 65502) 65100", "1.1.1.1", "10.0.0.9"), .lp_set = true, .lp = 100 },
	  { IBGP("65050 65100", "9.9.9.9", "10.0.0.1"), .lp_set = true, .lp = 100 },
	  1,
	  BGP_SEL_AS_PATH,
	  "AS Path",
	  &aspath_confed },
	{ "as-path confed: a confederation set counts one",
	  { IBGP("[65501,65502,65503] 65100", "1.1.1.1", "10.0.0.9"), .lp_set = true, .lp = 100 },
	  { IBGP("65050 65100", "9.9.9.9", "10.0.0.1"), .lp_set = true, .lp = 100 },
	  0,
	  BGP_SEL_ROUTER_ID,
	  "Router ID",
	  &aspath_confed },
	{ "neighbor address lower",
	  { EBGP("65002", "1.1.1.1", "10.0.0.3") },
	  { EBGP("65003", "1.1.1.1", "10.0.0.2") },
	  1,
	  BGP_SEL_NEIGHBOR_IP,
	  "Neighbor IP" },
};

struct built {
	struct bgp_attr attr;
	struct bgp_attr_extra ex; /* attr.extra */
	struct bgp_attr *stored;  /* attr interned, for a path (dest_setup()) */
	struct rib_src src;
};

static void build(const struct cand_desc *d, struct built *b)
{
	uint32_t clusters[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(b, 0, sizeof(*b));
	b->attr.extra = &b->ex;
	b->attr.aspath = bgp_aspath_from_str(d->aspath);
	ck_assert_msg(b->attr.aspath != NULL, "bad AS path %s", d->aspath);
	b->attr.origin = d->origin;
	b->ex.weight = d->weight;
	if (d->med_set) {
		b->attr.present |= ATTR_BIT(BGP_ATTR_MED);
		b->attr.med = d->med;
	}
	if (d->lp_set) {
		b->attr.present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
		b->attr.local_pref = d->lp;
	}
	if (d->originator) {
		b->attr.present |= ATTR_BIT(BGP_ATTR_ORIGINATOR_ID);
		inet_pton(AF_INET, d->originator, &b->ex.originator_id);
	}
	if (d->cluster_len)
		b->ex.cluster_list = bgp_u32list_intern(clusters, d->cluster_len);
	b->src.local = d->local;
	b->src.up = true;
	b->src.ebgp = d->ebgp;
	inet_pton(AF_INET, d->router_id, &b->src.remote_id);
	ck_assert_int_eq(ipaddr_from_str(&b->src.remote_addr, d->addr), 0);
}

static void release(struct built *b)
{
	bgp_attr_unref(b->stored);
	b->stored = NULL;
	bgp_aspath_unref(b->attr.aspath);
	bgp_u32list_unref(b->ex.cluster_list);
}

START_TEST(test_tie_breakers)
{
	const struct tie_row *r = &rows[_i];
	struct built a, b;
	struct bgp_cand ca, cb;
	enum bgp_sel_reason why = BGP_SEL_NONE, why2 = BGP_SEL_NONE;
	int c, c2;

	build(&r->a, &a);
	build(&r->b, &b);
	ca = (struct bgp_cand){ &a.attr, &a.src, r->a.igp_metric, r->a.selected };
	cb = (struct bgp_cand){ &b.attr, &b.src, r->b.igp_metric, r->b.selected };
	c = bgp_decision_cmp(r->cfg, &ca, &cb, &why);
	c2 = bgp_decision_cmp(r->cfg, &cb, &ca, &why2);
	ck_assert_msg(r->winner == 0 ? c < 0 : c > 0, "%s: wrong winner (cmp %d)", r->name, c);
	ck_assert_msg(c2 == -c, "%s: not antisymmetric (%d, %d)", r->name, c, c2);
	ck_assert_msg(why == r->why && why2 == r->why, "%s: reason %s / %s, expected %s", r->name,
		      bgp_sel_reason_str(why), bgp_sel_reason_str(why2), r->why_text);
	ck_assert_str_eq(bgp_sel_reason_str(why), r->why_text);
	release(&a);
	release(&b);
}
END_TEST

START_TEST(test_reason_strings)
{
	/* FRR's bgp_path_selection_reason2str() texts. */
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_NONE), "Nothing to Select");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_FIRST), "First path received");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_LOCAL_PREF), "Local Pref");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_PEER_TYPE), "Peer Type");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_IGP_METRIC), "IGP Metric");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_OLDER), "Older Path");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_NEIGHBOR_IP), "Neighbor IP");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_DEFAULT), "Nothing left to compare");
	ck_assert_str_eq(bgp_sel_reason_str(BGP_SEL_MAX), "Invalid (internal error)");
}
END_TEST

/* ---- order independence, on a real dest ---- */

#define NPATHS 5

static struct bgp *bgp;
static struct built cands[NPATHS];
/* From the RIB's path slab: the lists link paths by handle. */
static struct bgp_path *paths[NPATHS];
static bgp_path_ref refs[NPATHS];
static struct bgp_dest *dest;

static void dest_setup(const struct cand_desc *descs, size_t n)
{
	bgp = fake_bgp_new(65001, "10.0.0.1");
	dest = calloc(1, sizeof(*dest) + 4);
	for (size_t i = 0; i < n; i++) {
		build(&descs[i], &cands[i]);
		cands[i].src.id = (uint32_t)i + 1;
		bgp->rib->src[i + 1] = &cands[i].src;
		paths[i] = bgp_slab_alloc_ref(&bgp->rib->path_slab, &refs[i]);
		cands[i].stored = bgp_attr_intern(&cands[i].attr);
		path_attr_set(paths[i], cands[i].stored);
		paths[i]->src = (uint32_t)i + 1;
	}
}

static void dest_teardown(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bgp_slab_free_ref(&bgp->rib->path_slab, refs[i]);
		paths[i] = NULL;
		bgp->rib->src[i + 1] = NULL;
		release(&cands[i]);
	}
	free(dest);
	fake_bgp_free(bgp);
}

/* No path selected (PATH_F_BEST is the selection's mark, on the head only). */
static void clear_selection(void)
{
	for (size_t i = 0; i < NPATHS; i++)
		if (paths[i])
			paths[i]->flags &= ~PATH_F_BEST;
}

/* Paths that carry the selection's mark. */
static size_t marked_paths(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NPATHS; i++)
		n += paths[i] && (paths[i]->flags & PATH_F_BEST) != 0;
	return n;
}

/* Link the paths in the order given by perm and run the decision. */
static const struct bgp_path *decide(const int *perm, size_t n)
{
	dest->paths = 0;
	clear_selection();
	for (size_t i = n; i-- > 0;) {
		paths[perm[i]]->next = dest->paths;
		dest->paths = refs[perm[i]];
	}
	bgp_decision_run(bgp->rib, dest);
	return dest_best(dest);
}

static bool next_perm(int *a, size_t n)
{
	size_t i = n - 1, j;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (i == 0)
		return false;
	j = n - 1;
	while (a[j] <= a[i - 1])
		j--;
	int t = a[i - 1];
	a[i - 1] = a[j];
	a[j] = t;
	for (j = n - 1; i < j; i++, j--) {
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
	return true;
}

/*
 * A MED cycle: A and C share neighbor AS 65100, B comes from 65200.
 * A vs B: router id (A); B vs C: router id (B); A vs C: MED (C). Pairwise comparison (FRR's
 * default) gives a result that depends on the order; `bgp deterministic-med` groups by
 * neighbor AS (C wins 65100) and then gives B always.
 */
static const struct cand_desc med_cycle[NPATHS] = {
	{ EBGP("65100 65300", "192.0.2.1", "10.0.0.3"), .med_set = true, .med = 50 },
	{ EBGP("65200 65300", "192.0.2.2", "10.0.0.2") },
	{ EBGP("65100 65301", "192.0.2.3", "10.0.0.4"), .med_set = true, .med = 10 },
	{ EBGP("65400 65500 65300", "192.0.2.1", "10.0.0.1") }, /* longer path: never best */
	{ IBGP("65200 65300", "192.0.2.1", "10.0.0.5"), .lp_set = true, .lp = 100 }, /* iBGP */
};

START_TEST(test_order_independence)
{
	int perm[NPATHS] = { 0, 1, 2, 3, 4 };
	const struct bgp_path *first;
	unsigned count = 0;

	dest_setup(med_cycle, NPATHS);
	bgp->bestpath.deterministic_med = true;
	first = decide(perm, NPATHS);
	ck_assert_ptr_eq(first, paths[1]);
	do {
		const struct bgp_path *best = decide(perm, NPATHS);

		ck_assert_msg(best == first, "best depends on the order of paths (permutation %u)",
			      count);
		ck_assert_ptr_eq(dest_paths(dest), best); /* best at the head */
		ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_ROUTER_ID);
		count++;
	} while (next_perm(perm, NPATHS));
	ck_assert_uint_eq(count, 120);
	dest_teardown(NPATHS);
}
END_TEST

/* FRR's default (no deterministic-med): each path against the best so far, in list order. */
START_TEST(test_pairwise_in_list_order)
{
	static const int abc[NPATHS] = { 0, 1, 2, 3, 4 }, cab[NPATHS] = { 2, 0, 1, 3, 4 };

	dest_setup(med_cycle, NPATHS);
	/* A beats B, then C beats A by MED: C. The reason is that of FRR's last comparison:
	 * C against the last path of the list, E, which is iBGP. */
	ck_assert_ptr_eq(decide(abc, NPATHS), paths[2]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_PEER_TYPE);
	/* C beats A by MED, then B beats C: B, as deterministic-med gives. */
	ck_assert_ptr_eq(decide(cab, NPATHS), paths[1]);
	/* Switched on, the order no longer matters. */
	bgp->bestpath.deterministic_med = true;
	ck_assert_ptr_eq(decide(abc, NPATHS), paths[1]);
	dest_teardown(NPATHS);
}
END_TEST

/* RFC 5004 (FRR's "Older Path"): a newer eBGP path equal up to the IGP metric does not
 * displace the selected one, whatever its router id; compare-routerid switches that off. */
static const struct cand_desc two_ebgp[2] = {
	{ EBGP("65100", "192.0.2.9", "10.0.0.9") },
	{ EBGP("65200", "192.0.2.1", "10.0.0.1") },
};

/* Run the decision again on dest as it stands (the best at the head stays selected). */
static const struct bgp_path *decide_again(void)
{
	const struct bgp_path *best;

	bgp_decision_run(bgp->rib, dest);
	best = dest_best(dest);
	/* The mark is on the selected path, the head, and on no other. */
	ck_assert_uint_eq(marked_paths(), best ? 1 : 0);
	return best;
}

START_TEST(test_older_path)
{
	static const int only_first[1] = { 0 };

	dest_setup(two_ebgp, 2);
	ck_assert_ptr_eq(decide(only_first, 1), paths[0]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_FIRST);
	/* The second path arrives (behind the selected one, as bgp_rib.c links it): the first
	 * stays. */
	paths[1]->next = 0;
	paths[0]->next = refs[1];
	ck_assert_ptr_eq(decide_again(), paths[0]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_OLDER);
	ck_assert_str_eq(bgp_sel_reason_str(bgp_decision_reason(bgp->rib, dest)), "Older Path");
	/* bgp bestpath compare-routerid: the lower router id wins. */
	bgp->bestpath.compare_routerid = true;
	ck_assert_ptr_eq(decide_again(), paths[1]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_ROUTER_ID);
	/* Back off: the path now selected (the second) stays. */
	bgp->bestpath.compare_routerid = false;
	cands[1].src.remote_id.s_addr = htonl(0xc00002ff); /* 192.0.2.255: now the higher id */
	ck_assert_ptr_eq(decide_again(), paths[1]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_OLDER);
	/* The selected path's session goes: nothing is selected, the router id decides again. */
	cands[1].src.up = false;
	ck_assert_ptr_eq(decide_again(), paths[0]);
	cands[1].src.up = true;
	clear_selection(); /* as after a withdrawal of every path: no selection to keep */
	ck_assert_ptr_eq(decide_again(), paths[0]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_ROUTER_ID);
	dest_teardown(2);
}
END_TEST

START_TEST(test_invalid_paths_and_reasons)
{
	int perm[NPATHS] = { 0, 1, 2, 3, 4 };
	const struct bgp_path *best;

	dest_setup(med_cycle, NPATHS);
	bgp->bestpath.deterministic_med = true; /* the reason: the best against the runner-up */
	/* Rule 0: paths of a session that went down are not eligible. */
	cands[1].src.up = false;
	best = decide(perm, NPATHS);
	/* Without B: A vs C by MED within 65100 -> C; C vs the iBGP path: eBGP wins. */
	ck_assert_ptr_eq(best, paths[2]);
	/* The runner-up is A (best without C), which C beat by MED. */
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_MED);
	for (int i = 0; i < NPATHS; i++)
		cands[i].src.up = false;
	cands[3].src.up = true;
	best = decide(perm, NPATHS);
	ck_assert_ptr_eq(best, paths[3]);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_FIRST);
	cands[3].src.up = false;
	ck_assert_ptr_null(decide(perm, NPATHS));
	ck_assert_uint_eq(marked_paths(), 0);
	ck_assert_int_eq(bgp_decision_reason(bgp->rib, dest), BGP_SEL_NONE);
	dest_teardown(NPATHS);
}
END_TEST

static Suite *decision_suite(void)
{
	Suite *s = suite_create("bgp_decision");
	TCase *tc = tcase_create("decision");

	tcase_add_loop_test(tc, test_tie_breakers, 0, (int)array_size(rows));
	tcase_add_test(tc, test_reason_strings);
	tcase_add_test(tc, test_order_independence);
	tcase_add_test(tc, test_pairwise_in_list_order);
	tcase_add_test(tc, test_older_path);
	tcase_add_test(tc, test_invalid_paths_and_reasons);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(decision_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
