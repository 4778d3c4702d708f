/* SPDX-License-Identifier: ISC */
/*
 * aggregate-address X/M, as FRR 8.4 does it (bgp_aggregate_route()):
 *   - the aggregate is in the Loc-RIB, a locally originated route, while at least one more
 *     specific route (a longer prefix inside it) is, and goes with the last one;
 *   - its ORIGIN is the "worst" of the contributors' (INCOMPLETE over EGP over IGP, RFC 4271
 *     9.2.2.2), its AS_PATH empty, MED 0, next hop :: (FRR's, in both families: shown so,
 *     replaced by ours on export), weight 32768;
 *   - ATOMIC_AGGREGATE is set (the AS path of the more specifics is not carried: RFC 4271
 *     9.2.2.2 and 5.1.6), and AGGREGATOR names our AS and router id.
 *
 * Design: the aggregates of a family live in a prefix tree of their own (rib->aggr[af]). A
 * change of any prefix marks the aggregates that strictly cover it (a descent of that small
 * tree, O(depth)), and the RIB's deferred work recomputes each marked one by walking its part
 * of the table once: many changes under one aggregate in a turn cost one walk.
 *
 * summary-only: while the aggregate exists, its more specifics are sent to no neighbor (they
 * stay in the Loc-RIB and the kernel). The export asks rib_aggr_suppressed() (a descent of the
 * aggregates' tree, only when the family has aggregates); whenever the answer changes for a
 * part of the table (the aggregate appears or goes, the option changes), every prefix of that
 * part is journaled again so that each session sends or withdraws it.
 *
 * as-set (FRR's bgp_compute_aggregate_aspath() and _community()): the AS path is the
 * contributors' paths aggregated (bgp_aspath_aggregate(): their common beginning, then an
 * AS_SET of the rest), the communities and the large communities their unions, sorted
 * (_lcommunity()); no ATOMIC_AGGREGATE unless a contributor carried one.
 *
 * The other options, as FRR 8.4's bgp_aggregate_route() / _install():
 *   origin O       the aggregate's ORIGIN is O rather than the contributors' worst;
 *   route-map M    runs on the aggregate's attributes: its sets apply; a deny (or a name naming
 *                  no route-map) leaves the aggregate out, and then it suppresses nothing;
 *   matching-MED-only  the aggregate exists only while every contributor has the same MED
 *                  (absent counts as 0); otherwise it is out and suppresses nothing;
 *   suppress-map M a more specific whose best path M permits is sent to no neighbor while the
 *                  aggregate exists (as summary-only does for all of them). The map runs when
 *                  the export asks, per neighbor: only under such an aggregate.
 * A change of a route-map (or a list one uses) recomputes the aggregates naming one.
 *
 * Not yet: extended communities of as-set. An aggregate and a `network` statement for the same
 * prefix share the local source's one path.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/memory.h"
#include "lib/table.h"

DEFINE_MTYPE(BGP_AGGREGATE, "BGP aggregate-address");

struct rib_aggr {
	struct prefix p;
	struct rib_aggregate_opts opts;
	bool dirty;  /* recompute at the next turn of the RIB's work */
	bool active; /* its route is in the Loc-RIB */
};

struct aggr_touch {
	uint8_t plen;
	bool any;
};

static int touch_cb(const struct prefix *p, void *value, void *arg)
{
	struct rib_aggr *ag = value;
	struct aggr_touch *t = arg;

	/* Only strictly covering aggregates: the aggregate's own prefix does not count. */
	if (p->len < t->plen && !ag->dirty) {
		ag->dirty = true;
		t->any = true;
	}
	return 0;
}

void rib_aggr_touch(struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest)
{
	struct aggr_touch t;
	struct prefix p;

	if (!rib->aggr[af])
		return;
	t = (struct aggr_touch){ .plen = (uint8_t)bgp_dest_plen(dest, af) };
	bgp_dest_prefix(dest, af, &p);
	ptree_walk_covering(rib->aggr[af], &p, touch_cb, &t);
	if (t.any) {
		rib->aggr_dirty = true;
		rib_work_schedule(rib);
	}
}

bool rib_aggr_pending(const struct bgp_rib *rib)
{
	return rib->aggr_dirty;
}

/* Does ag hold (some of) its more specifics back from the neighbors now? */
static bool aggr_suppressing(const struct rib_aggr *ag)
{
	return ag->active && (ag->opts.summary_only || ag->opts.suppress_map[0]);
}

/* suppress-map: does the map permit dest's best path? It runs on a copy of the attributes;
 * what its sets would change is dropped. */
static bool suppress_map_permits(const struct rib_aggr *ag, enum bgp_af af,
				 const struct bgp_dest *dest)
{
	const struct bgp_path *best = dest_best(dest);
	struct rmap_refs refs;
	struct bgp_attr t;
	struct prefix p;
	bool permit;

	if (!best)
		return false;
	t = *path_attr(best);
	bgp_dest_prefix(dest, af, &p);
	permit = route_map_apply(ag->opts.suppress_map, &p, &t, &refs);
	route_map_refs_release(&refs);
	return permit;
}

/* The more specifics of ag are to be exported again (suppressed or no longer). */
static void aggr_reexport(struct bgp_rib *rib, enum bgp_af af, const struct rib_aggr *ag)
{
	struct prefix q;
	struct bgp_dest *dest;

	for (dest = ptree_next(rib->af[af].tree, &ag->p, &q); dest && prefix_contains(&ag->p, &q);
	     dest = ptree_next(rib->af[af].tree, &q, &q))
		rib_journal_mark(rib, af, dest);
}

struct aggr_suppress {
	enum bgp_af af;
	const struct bgp_dest *dest;
	bool yes;
};

static int suppress_cb(const struct prefix *p, void *value, void *arg)
{
	const struct rib_aggr *ag = value;
	struct aggr_suppress *q = arg;

	if (p->len >= bgp_dest_plen(q->dest, q->af) || !aggr_suppressing(ag))
		return 0;
	if (ag->opts.summary_only || suppress_map_permits(ag, q->af, q->dest)) {
		q->yes = true;
		return 1;
	}
	return 0;
}

bool rib_aggr_suppressed(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest)
{
	struct aggr_suppress q = { .af = af, .dest = dest };
	struct prefix p;

	if (!rib->aggr[af])
		return false;
	bgp_dest_prefix(dest, af, &p);
	ptree_walk_covering(rib->aggr[af], &p, suppress_cb, &q);
	return q.yes;
}

/* What the contributors of one aggregate add up to. */
struct aggr_sum {
	unsigned count;
	uint8_t origin;
	bool atomic;
	uint32_t med;		   /* the first contributor's MED (0 when it has none) */
	bool med_mismatch;	   /* another contributor's differs */
	struct bgp_aspath *aspath; /* as-set: the aggregated path (reference held) */
	uint32_t *comm;		   /* as-set: the contributors' communities, ncomm of them */
	size_t ncomm, comm_cap;
	uint32_t *lcomm; /* as-set: their large communities, 3 words each, nlcomm of them */
	size_t nlcomm, lcomm_cap;
};

/* Append n values of `width` words to *v (count *nv, room *cap), growing it. */
static void words_append(uint32_t **v, size_t *nv, size_t *cap, const uint32_t *val, size_t n,
			 size_t width)
{
	if (*nv + n > *cap) {
		*cap = MAX(2 * *cap, *nv + n);
		*v = XREALLOC(MTYPE_BGP_AGGREGATE, *v, *cap * width * sizeof(**v));
	}
	memcpy(*v + *nv * width, val, n * width * sizeof(**v));
	*nv += n;
}

static void sum_add_as_set(struct aggr_sum *sum, const struct bgp_attr *attr)
{
	if (!sum->aspath) {
		sum->aspath = bgp_aspath_ref(attr->aspath);
	} else {
		struct bgp_aspath *agg = bgp_aspath_aggregate(sum->aspath, attr->aspath);

		if (agg) {
			bgp_aspath_unref(sum->aspath);
			sum->aspath = agg;
		}
	}
	if (attr->communities)
		words_append(&sum->comm, &sum->ncomm, &sum->comm_cap, attr->communities->val,
			     attr->communities->count, 1);
	if (bgp_attr_ex(attr)->lcommunities)
		words_append(&sum->lcomm, &sum->nlcomm, &sum->lcomm_cap,
			     bgp_attr_ex(attr)->lcommunities->val,
			     bgp_attr_ex(attr)->lcommunities->count, 3);
}

static void sum_release(struct aggr_sum *sum)
{
	bgp_aspath_unref(sum->aspath);
	XFREE(MTYPE_BGP_AGGREGATE, sum->comm);
	XFREE(MTYPE_BGP_AGGREGATE, sum->lcomm);
}

static int comm_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Large communities in numeric order: global administrator, then the two local parts. */
static int lcomm_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Sort v (n values of width words) and drop repeats; returns how many are left. */
static size_t sort_unique(uint32_t *v, size_t n, size_t width,
			  int (*cmp)(const void *, const void *))
{
	size_t m = 0;

	qsort(v, n, width * sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++)
		if (!m || cmp(v + (m - 1) * width, v + i * width) != 0)
			memmove(v + m++ * width, v + i * width, width * sizeof(*v));
	return m;
}

static void aggr_collect(struct bgp_rib *rib, enum bgp_af af, const struct rib_aggr *ag,
			 struct aggr_sum *sum)
{
	struct prefix q;
	struct bgp_dest *dest;

	memset(sum, 0, sizeof(*sum));
	sum->origin = BGP_ORIGIN_IGP;
	/* In prefix_cmp order every more specific follows the aggregate's prefix, together. */
	for (dest = ptree_next(rib->af[af].tree, &ag->p, &q); dest && prefix_contains(&ag->p, &q);
	     dest = ptree_next(rib->af[af].tree, &q, &q)) {
		for (const struct bgp_path *path = dest_paths(dest); path; path = path_next(path)) {
			const struct rib_src *src = rib_src_get(rib, path->src);
			uint32_t med;

			if (path->src != 0 && (!src || !rib_src_usable(src)))
				continue;
			/* A network statement failing its import check is not valid: FRR's
			 * aggregates skip such paths (BGP_PATH_HOLDDOWN). */
			if (path->flags & PATH_F_IMPORT_FAILED)
				continue;
			sum->count++;
			/* enum bgp_origin: IGP 0 < EGP 1 < INCOMPLETE 2, the RFC's order. */
			if (path_attr(path)->origin > sum->origin)
				sum->origin = path_attr(path)->origin;
			if (path_attr(path)->atomic_aggregate)
				sum->atomic = true;
			med = path_attr(path)->present & ATTR_BIT(BGP_ATTR_MED)
				      ? path_attr(path)->med
				      : 0;
			if (sum->count == 1)
				sum->med = med;
			else if (med != sum->med)
				sum->med_mismatch = true;
			if (ag->opts.as_set)
				sum_add_as_set(sum, path_attr(path));
		}
	}
}

/* The aggregate's attributes (a reference for the caller), or NULL: its route-map denies. */
static struct bgp_attr *aggr_attr(const struct bgp_rib *rib, enum bgp_af af,
				  const struct rib_aggr *ag, struct aggr_sum *sum)
{
	struct bgp_u32list *comm = NULL;
	struct bgp_lcommlist *lcomm = NULL;
	struct bgp_attr tmpl;
	struct bgp_attr_extra ex;
	struct bgp_attr *attr;

	memset(&ex, 0, sizeof(ex));
	rib_local_template(af, ag->opts.origin_set ? ag->opts.origin : sum->origin, 0, &tmpl, &ex);
	if (!tmpl.extra)
		tmpl.extra = &ex;
	/* Without as-set the contributors' AS paths are dropped: RFC 4271 9.2.2.2 asks for
	 * ATOMIC_AGGREGATE then (FRR sets it likewise); with it, only if a contributor had it. */
	tmpl.atomic_aggregate = !ag->opts.as_set || sum->atomic;
	if (ag->opts.as_set && sum->aspath) {
		bgp_aspath_unref(tmpl.aspath);
		tmpl.aspath = bgp_aspath_ref(sum->aspath);
	}
	if (ag->opts.as_set && sum->ncomm) {
		size_t m = sort_unique(sum->comm, sum->ncomm, 1, comm_cmp);

		comm = bgp_u32list_intern(sum->comm, (uint32_t)m);
		tmpl.communities = comm;
		tmpl.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	if (ag->opts.as_set && sum->nlcomm) {
		size_t m = sort_unique(sum->lcomm, sum->nlcomm, 3, lcomm_cmp);

		lcomm = bgp_lcommlist_intern(sum->lcomm, (uint32_t)m);
		ex.lcommunities = lcomm;
		tmpl.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	}
	/* FRR makes its aggregates with an IPv6 next hop :: and no NEXT_HOP, whatever the
	 * family, and shows "::" for them; the export sets our next hop either way. */
	if (af == BGP_AF_IPV4_UNICAST) {
		tmpl.present &= ~ATTR_BIT(BGP_ATTR_NEXT_HOP);
		bgp_attr_set_mp_nh(&tmpl, &ex, 16, NULL, NULL);
	}
	tmpl.present |= ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE) | ATTR_BIT(BGP_ATTR_AGGREGATOR);
	ex.aggregator_as = rib->bgp->asn;
	ex.aggregator_addr = rib->bgp->router_id;
	if (!ag->opts.rmap[0]) {
		attr = bgp_attr_intern(&tmpl);
	} else {
		struct rmap_refs refs;

		attr = route_map_apply(ag->opts.rmap, &ag->p, &tmpl, &refs) ? bgp_attr_intern(&tmpl)
									    : NULL;
		route_map_refs_release(&refs);
	}
	bgp_aspath_unref(tmpl.aspath);
	bgp_u32list_unref(comm);
	bgp_lcommlist_unref(lcomm);
	return attr;
}

static void aggr_update(struct bgp_rib *rib, enum bgp_af af, struct rib_aggr *ag)
{
	bool suppressing = aggr_suppressing(ag);
	struct bgp_attr *attr = NULL;
	struct aggr_sum sum;

	ag->dirty = false;
	aggr_collect(rib, af, ag, &sum);
	if (sum.count && !(ag->opts.match_med && sum.med_mismatch))
		attr = aggr_attr(rib, af, ag, &sum);
	if (attr) {
		rib_local_set(rib, af, &ag->p, attr);
		bgp_attr_unref(attr);
		ag->active = true;
	} else if (ag->active) {
		rib_local_del(rib, af, &ag->p);
		ag->active = false;
	}
	sum_release(&sum);
	if (aggr_suppressing(ag) != suppressing)
		aggr_reexport(rib, af, ag);
}

void rib_aggr_run(struct bgp_rib *rib)
{
	/* An aggregate's own route may mark a shorter aggregate: loop until none is left (the
	 * nesting depth bounds it). */
	while (rib->aggr_dirty) {
		rib->aggr_dirty = false;
		for (int af = 0; af < BGP_AF_MAX; af++) {
			struct prefix q;
			struct rib_aggr *ag;

			if (!rib->aggr[af])
				continue;
			/* An outer aggregate comes first; if an inner one's route then changes,
			 * the outer is marked again and the next round recomputes it. */
			for (ag = ptree_first(rib->aggr[af], &q); ag;
			     ag = ptree_next(rib->aggr[af], &q, &q))
				if (ag->dirty)
					aggr_update(rib, af, ag);
		}
	}
}

void rib_aggregate_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p,
		       const struct rib_aggregate_opts *opts)
{
	struct bgp_rib *rib = bgp->rib;
	struct rib_aggr *ag;
	struct prefix q = *p;
	bool resuppress;
	void **slot;

	if (!rib || af >= BGP_AF_MAX || p->family != bgp_af_family(af))
		return;
	prefix_apply_mask(&q);
	if (!rib->aggr[af])
		rib->aggr[af] = ptree_new(q.family);
	slot = ptree_get(rib->aggr[af], &q);
	if (!*slot) {
		ag = XCALLOC(MTYPE_BGP_AGGREGATE, sizeof(*ag));
		ag->p = q;
		*slot = ag;
	}
	ag = *slot;
	/* What it suppresses may change with the options: its more specifics are exported again
	 * (the export asks when the RIB's work runs, after the update below). */
	resuppress = ag->active && (ag->opts.summary_only != opts->summary_only ||
				    strcmp(ag->opts.suppress_map, opts->suppress_map) != 0);
	ag->opts = *opts;
	if (resuppress)
		aggr_reexport(rib, af, ag);
	aggr_update(rib, af, ag);
}

void rib_aggregate_policy_changed(struct bgp *bgp)
{
	struct bgp_rib *rib = bgp ? bgp->rib : NULL;

	if (!rib)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct prefix q;
		struct rib_aggr *ag;

		if (!rib->aggr[af])
			continue;
		for (ag = ptree_first(rib->aggr[af], &q); ag;
		     ag = ptree_next(rib->aggr[af], &q, &q)) {
			if (!ag->opts.rmap[0] && !ag->opts.suppress_map[0])
				continue;
			if (aggr_suppressing(ag) && ag->opts.suppress_map[0])
				aggr_reexport(rib, af, ag);
			ag->dirty = true;
			rib->aggr_dirty = true;
		}
	}
	if (rib->aggr_dirty)
		rib_work_schedule(rib);
}

void rib_aggregate_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_rib *rib = bgp->rib;
	struct rib_aggr *ag;
	struct prefix q = *p;

	if (!rib || af >= BGP_AF_MAX || p->family != bgp_af_family(af) || !rib->aggr[af])
		return;
	prefix_apply_mask(&q);
	ag = ptree_delete(rib->aggr[af], &q);
	if (!ag)
		return;
	if (ag->active)
		rib_local_del(rib, af, &ag->p);
	if (aggr_suppressing(ag))
		aggr_reexport(rib, af, ag); /* no longer in the tree: no longer suppressing */
	XFREE(MTYPE_BGP_AGGREGATE, ag);
}

static void aggr_free(void *value)
{
	struct rib_aggr *ag = value;

	XFREE(MTYPE_BGP_AGGREGATE, ag);
}

void rib_aggr_fini(struct bgp_rib *rib)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		if (rib->aggr[af])
			ptree_free(rib->aggr[af], aggr_free);
		rib->aggr[af] = NULL;
	}
	rib->aggr_dirty = false;
}
