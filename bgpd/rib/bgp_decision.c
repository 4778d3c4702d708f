/* SPDX-License-Identifier: ISC */
/*
 * The decision process.
 *
 * RFC 4271 9.1 in short:
 *   Phase 1 (9.1.1): each feasible route gets a degree of preference: LOCAL_PREF for routes
 *     learned over iBGP, local policy otherwise.
 *   Phase 2 (9.1.2): routes whose NEXT_HOP is unresolvable or whose AS_PATH contains our own
 *     AS are excluded; among the rest the highest degree of preference wins, ties broken by
 *     9.1.2.2:
 *       a) shortest AS_PATH (an AS_SET counts 1, confederation segments 0),
 *       b) lowest ORIGIN (IGP < EGP < INCOMPLETE),
 *       c) lowest MULTI_EXIT_DISC, compared only among routes from the same neighboring AS
 *          (leftmost AS of the AS_PATH); a missing MED counts as the lowest value,
 *       d) routes learned from eBGP over routes learned from iBGP,
 *       e) lowest interior cost to the NEXT_HOP,
 *       f) lowest BGP Identifier of the advertising speaker (RFC 4456 9: the ORIGINATOR_ID
 *          stands in for it when present, and a shorter CLUSTER_LIST wins before it),
 *       g) lowest peer address.
 *
 * Before all of it, RFC 9494 4.3: a path carrying LLGR_STALE (long-lived stale, bgp_rib_llgr.c)
 * is least preferred, whatever else it has; FRR checks it first too.
 *
 * Our deviations, all as FRR 8.4 does unless noted; the knobs are FRR's (struct bgp_bestpath,
 * `frr defaults traditional`):
 *   - Weight (a local value, never sent) is compared first; locally originated routes carry
 *     32768.
 *   - LOCAL_PREF: a path without the attribute (eBGP-learned: RFC 4271 5.1.5 makes us ignore a
 *     received one, and local routes) counts as 100.
 *   - Locally originated routes (network statements) win over learned ones right after
 *     LOCAL_PREF.
 *   - a) `bgp bestpath as-path ignore` skips the rule; `... as-path confed` counts the ASes
 *     of confederation segments too (a CONFED_SET counts 1).
 *   - c) MED is compared when both paths have the same leftmost AS after the confederation
 *     segments, or the same first AS of a leading AS_CONFED_SEQUENCE, or neither has an AS
 *     outside confederation segments; `bgp always-compare-med` compares it always. A missing
 *     MED is 0, or 4294967295 with `bgp bestpath med missing-as-worst`. `bgp bestpath med
 *     confed` is accepted and kept; in FRR 8.4 its case is already one of the above.
 *   - `bgp deterministic-med`: paths are grouped by neighboring AS, the best of each group is
 *     chosen with MED, then the group winners are compared. Plain pairwise comparison (FRR's
 *     default) is not transitive when MED is only compared within one AS: the result depends
 *     on the order the paths are compared in. FRR walks its list newest first; skua walks its
 *     own, which holds the current best first and then the others newest first.
 *   - e) The IGP cost is the metric of the kernel route that resolves the next hop (0 for a
 *     connected network, as zebra counts it; bgpd/fib/bgp_nexthop.c); unresolvable next hops
 *     make the path unusable before any comparison (RFC 4271 9.1.2.1, bgp_path_valid()).
 *   - After e), a path from a confed-external neighbor (another member AS of our
 *     confederation, RFC 5065) wins over one from an internal neighbor ("Confed Peer Type");
 *     at d) confed-external counts as internal.
 *   - Between e) and f), two eBGP paths: the one already selected stays (RFC 5004, FRR's
 *     "Older Path"), unless `bgp bestpath compare-routerid`.
 *   - Between two paths of the same source nothing is compared (cannot happen: one path per
 *     source and prefix).
 *   - The reason shown is the one FRR keeps: that of the last comparison its walk made. Without
 *     deterministic-med that is the best against the last valid path of the list, the oldest
 *     (FRR's list is newest first; in skua's the selected path comes first, so when the best
 *     is itself the oldest, skua names why it beat the oldest of the others). With it, the
 *     best against the best of the others.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib_api.h"

static const char *const sel_reason_str[BGP_SEL_MAX] = {
	[BGP_SEL_NONE] = "Nothing to Select",
	[BGP_SEL_FIRST] = "First path received",
	[BGP_SEL_LLGR_STALE] = "Long-lived stale",
	[BGP_SEL_WEIGHT] = "Weight",
	[BGP_SEL_LOCAL_PREF] = "Local Pref",
	[BGP_SEL_LOCAL_ROUTE] = "Local Route",
	[BGP_SEL_AS_PATH] = "AS Path",
	[BGP_SEL_ORIGIN] = "Origin",
	[BGP_SEL_MED] = "MED",
	[BGP_SEL_PEER_TYPE] = "Peer Type",
	[BGP_SEL_IGP_METRIC] = "IGP Metric",
	[BGP_SEL_CONFED] = "Confed Peer Type",
	[BGP_SEL_OLDER] = "Older Path",
	[BGP_SEL_ROUTER_ID] = "Router ID",
	[BGP_SEL_CLUSTER_LEN] = "Cluster length",
	[BGP_SEL_NEIGHBOR_IP] = "Neighbor IP",
	[BGP_SEL_DEFAULT] = "Nothing left to compare",
};

const char *bgp_sel_reason_str(enum bgp_sel_reason r)
{
	if ((unsigned)r >= BGP_SEL_MAX)
		return "Invalid (internal error)";
	return sel_reason_str[r];
}

/* ---- the neighboring AS for MED (RFC 4271 9.1.2.2 c) ---- */

enum nbr_kind {
	NBR_EMPTY, /* no segments: originated in our AS; such paths compare MED with each other */
	NBR_AS,	   /* leftmost AS of a leading AS_SEQUENCE (after confederation segments) */
	NBR_UNCOMPARABLE, /* starts with an AS_SET, or only confederation segments */
};

static enum nbr_kind neighbor_as(const struct bgp_aspath *p, uint32_t *asn)
{
	size_t off = 0;

	*asn = 0;
	if (!p || p->len == 0)
		return NBR_EMPTY;
	/* Segments: type, count, count x 4-byte AS (host order). */
	while (off + 2 <= p->len) {
		uint8_t type = p->data[off];
		uint8_t count = p->data[off + 1];

		if (type == AS_SEG_CONFED_SEQUENCE || type == AS_SEG_CONFED_SET) {
			off += 2 + (size_t)count * 4;
			continue;
		}
		if (type == AS_SEG_SEQUENCE && count > 0 && off + 6 <= p->len) {
			memcpy(asn, p->data + off + 2, 4);
			return NBR_AS;
		}
		return NBR_UNCOMPARABLE;
	}
	return NBR_UNCOMPARABLE;
}

/* FRR's aspath_count_confeds(): the ASes of confederation segments, a CONFED_SET as one. */
static uint32_t confed_count(const struct bgp_aspath *p)
{
	uint32_t n = 0;

	for (size_t off = 0; p && off + 2 <= p->len;) {
		uint8_t type = p->data[off], count = p->data[off + 1];

		if (type == AS_SEG_CONFED_SEQUENCE)
			n += count;
		else if (type == AS_SEG_CONFED_SET)
			n++;
		off += 2 + (size_t)count * 4;
	}
	return n;
}

/* The first AS of a leading AS_CONFED_SEQUENCE (FRR's aspath_cmp_left_confed()). */
static bool leftmost_confed(const struct bgp_aspath *p, uint32_t *asn)
{
	if (!p || p->len < 6 || p->data[0] != AS_SEG_CONFED_SEQUENCE || p->data[1] == 0)
		return false;
	memcpy(asn, p->data + 2, 4);
	return true;
}

static uint32_t hops(const struct bgp_attr *attr)
{
	return attr->aspath ? attr->aspath->path_len : 0;
}

/* ---- one function per tie-breaker; each returns < 0 when a is better ---- */

static int cmp_u32_high(uint32_t a, uint32_t b)
{
	return a > b ? -1 : (a < b ? 1 : 0);
}

static int cmp_u32_low(uint32_t a, uint32_t b)
{
	return a < b ? -1 : (a > b ? 1 : 0);
}

static int cmp_llgr_stale(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			  const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_low(rib_attr_llgr_stale(a->attr), rib_attr_llgr_stale(b->attr));
}

static int cmp_weight(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		      const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_high(bgp_attr_weight(a->attr), bgp_attr_weight(b->attr));
}

static uint32_t local_pref(const struct bgp_attr *attr)
{
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		return attr->local_pref;
	return BGP_DEFAULT_LOCAL_PREF;
}

static int cmp_local_pref(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			  const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_high(local_pref(a->attr), local_pref(b->attr));
}

static int cmp_local_route(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			   const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_high(a->src->local, b->src->local);
}

static int cmp_as_path(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		       const struct bgp_cand *b)
{
	uint32_t la = hops(a->attr), lb = hops(b->attr);

	if (cfg->aspath_ignore)
		return 0;
	if (cfg->aspath_confed) {
		la += confed_count(a->attr->aspath);
		lb += confed_count(b->attr->aspath);
	}
	return cmp_u32_low(la, lb);
}

static int cmp_origin(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		      const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_low(a->attr->origin, b->attr->origin);
}

static uint32_t med(const struct bgp_bestpath *cfg, const struct bgp_attr *attr)
{
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		return attr->med;
	/* RFC 4271 9.1.2.2 c: a missing MED is the lowest value; FRR's missing-as-worst. */
	return cfg->med_missing_as_worst ? UINT32_MAX : 0;
}

static bool same_neighbor_as(const struct bgp_attr *a, const struct bgp_attr *b)
{
	uint32_t asa, asb;
	enum nbr_kind ka = neighbor_as(a->aspath, &asa);
	enum nbr_kind kb = neighbor_as(b->aspath, &asb);

	if (ka == NBR_UNCOMPARABLE || kb == NBR_UNCOMPARABLE || ka != kb)
		return false;
	return ka == NBR_EMPTY || asa == asb;
}

static bool same_leftmost_confed(const struct bgp_attr *a, const struct bgp_attr *b)
{
	uint32_t asa, asb;

	return leftmost_confed(a->aspath, &asa) && leftmost_confed(b->aspath, &asb) && asa == asb;
}

/* FRR's conditions, in its order (bgp_path_info_cmp() step 6). */
static bool med_comparable(const struct bgp_bestpath *cfg, const struct bgp_attr *a,
			   const struct bgp_attr *b)
{
	bool internal = hops(a) == 0 && hops(b) == 0;
	bool confed = internal && confed_count(a->aspath) > 0 && confed_count(b->aspath) > 0;

	return cfg->always_compare_med || (cfg->med_confed && confed) || same_neighbor_as(a, b) ||
	       same_leftmost_confed(a, b) || internal;
}

static int cmp_med(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		   const struct bgp_cand *b)
{
	if (!med_comparable(cfg, a->attr, b->attr))
		return 0;
	return cmp_u32_low(med(cfg, a->attr), med(cfg, b->attr));
}

static bool is_ebgp(const struct rib_src *src)
{
	return !src->local && src->ebgp;
}

static int cmp_peer_type(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			 const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_high(is_ebgp(a->src), is_ebgp(b->src));
}

/* The IGP cost to the path's next hop (rule e); 0 for our own routes, as FRR. */
static uint32_t igp_metric(const struct bgp_rib *rib, const struct rib_src *src,
			   const struct bgp_path *p)
{
	const struct rib_fib_ops *ops = rib->fib.ops;
	struct ipaddr nh;

	if (!src || src->local || !ops || !ops->nexthop_metric)
		return 0;
	rib_path_nexthop(path_attr(p), &nh);
	return ops->nexthop_metric(rib->fib.arg, &nh);
}

static uint32_t cand_igp_metric(const struct bgp_cand *c)
{
	return c->rib ? igp_metric(c->rib, c->src, c->path) : c->igp_metric;
}

static int cmp_igp_metric(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			  const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_low(cand_igp_metric(a), cand_igp_metric(b));
}

/* Neither is eBGP by now: a confed-external path over an internal one (FRR's step 10). */
static int cmp_confed(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		      const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_high(a->src->confed, b->src->confed);
}

/* RFC 5004: between two eBGP paths, keep the one selected (FRR: "oldest external"). */
static int cmp_older(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		     const struct bgp_cand *b)
{
	if (cfg->compare_routerid || !is_ebgp(a->src) || !is_ebgp(b->src))
		return 0;
	return cmp_u32_high(a->selected, b->selected);
}

static uint32_t router_id(const struct bgp_cand *c)
{
	if (c->attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID))
		return ntohl(bgp_attr_ex(c->attr)->originator_id.s_addr);
	return ntohl(c->src->remote_id.s_addr);
}

static int cmp_router_id(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			 const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_low(router_id(a), router_id(b));
}

static uint32_t cluster_len(const struct bgp_attr *attr)
{
	const struct bgp_u32list *l = bgp_attr_ex(attr)->cluster_list;

	return l ? l->count : 0;
}

static int cmp_cluster_len(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			   const struct bgp_cand *b)
{
	(void)cfg;
	return cmp_u32_low(cluster_len(a->attr), cluster_len(b->attr));
}

static int cmp_neighbor_ip(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
			   const struct bgp_cand *b)
{
	(void)cfg;
	int r = ipaddr_cmp(&a->src->remote_addr, &b->src->remote_addr);

	return r < 0 ? -1 : (r > 0 ? 1 : 0);
}

/* In FRR's order (bgp_path_info_cmp()). */
static const struct {
	int (*cmp)(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		   const struct bgp_cand *b);
	enum bgp_sel_reason why;
} tie_breakers[] = {
	{ cmp_llgr_stale, BGP_SEL_LLGR_STALE },
	{ cmp_weight, BGP_SEL_WEIGHT },
	{ cmp_local_pref, BGP_SEL_LOCAL_PREF },
	{ cmp_local_route, BGP_SEL_LOCAL_ROUTE },
	{ cmp_as_path, BGP_SEL_AS_PATH },
	{ cmp_origin, BGP_SEL_ORIGIN },
	{ cmp_med, BGP_SEL_MED },
	{ cmp_peer_type, BGP_SEL_PEER_TYPE },
	{ cmp_igp_metric, BGP_SEL_IGP_METRIC },
	{ cmp_confed, BGP_SEL_CONFED },
	{ cmp_older, BGP_SEL_OLDER },
	{ cmp_router_id, BGP_SEL_ROUTER_ID },
	{ cmp_cluster_len, BGP_SEL_CLUSTER_LEN },
	{ cmp_neighbor_ip, BGP_SEL_NEIGHBOR_IP },
};

int bgp_decision_cmp(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		     const struct bgp_cand *b, enum bgp_sel_reason *why)
{
	static const struct bgp_bestpath frr_defaults;

	if (!cfg)
		cfg = &frr_defaults;
	for (size_t i = 0; i < array_size(tie_breakers); i++) {
		int r = tie_breakers[i].cmp(cfg, a, b);

		if (r != 0) {
			if (why)
				*why = tie_breakers[i].why;
			return r;
		}
	}
	if (why)
		*why = BGP_SEL_DEFAULT;
	return 0;
}

bool bgp_path_valid(const struct bgp_rib *rib, const struct bgp_path *path)
{
	const struct rib_src *src = rib_src_get(rib, path->src);
	const struct rib_fib_ops *ops = rib->fib.ops;
	struct ipaddr nh;

	if (!src || !rib_src_usable(src) || !path_attr(path))
		return false;
	if (path->flags & PATH_F_IMPORT_FAILED)
		return false; /* a network statement without its kernel route (FRR: not valid) */
	/* Next-hop tracking (bgpd/fib/bgp_nexthop.c): a next hop the kernel cannot reach makes the
	 * path unusable (RFC 4271 9.1.2.1), as FRR does; not for our own routes. */
	if (src->local || !ops || !ops->nexthop_valid)
		return true;
	rib_path_nexthop(path_attr(path), &nh);
	return ops->nexthop_valid(rib->fib.arg, &nh);
}

/* What one decision run compares with: the knobs, and the path selected before it. */
struct decide_ctx {
	const struct bgp_rib *rib;
	const struct bgp_bestpath *cfg;
	const struct bgp_path *selected;
};

static void ctx_init(struct decide_ctx *ctx, const struct bgp_rib *rib, const struct bgp_dest *dest)
{
	static const struct bgp_bestpath frr_defaults;

	ctx->rib = rib;
	ctx->cfg = rib->bgp ? &rib->bgp->bestpath : &frr_defaults;
	ctx->selected = dest_best(dest);
}

static void cand_of(const struct decide_ctx *ctx, const struct bgp_path *p, struct bgp_cand *c)
{
	c->attr = path_attr(p);
	c->src = rib_src_get(ctx->rib, p->src);
	c->igp_metric = 0;
	c->selected = p == ctx->selected;
	c->rib = ctx->rib;
	c->path = p;
}

void bgp_decision_cand(const struct bgp_rib *rib, const struct bgp_path *p, struct bgp_cand *c)
{
	c->attr = path_attr(p);
	c->src = rib_src_get(rib, p->src);
	c->igp_metric = 0;
	c->selected = false;
	c->rib = rib;
	c->path = p;
}

static int cmp_paths(const struct decide_ctx *ctx, const struct bgp_path *a,
		     const struct bgp_path *b, enum bgp_sel_reason *why)
{
	struct bgp_cand ca, cb;

	cand_of(ctx, a, &ca);
	cand_of(ctx, b, &cb);
	return bgp_decision_cmp(ctx->cfg, &ca, &cb, why);
}

static bool better(const struct decide_ctx *ctx, const struct bgp_path *a, const struct bgp_path *b)
{
	return cmp_paths(ctx, a, b, NULL) < 0;
}

/* A group of paths from the same neighboring AS (deterministic MED). */
struct med_group {
	enum nbr_kind kind;
	uint32_t asn;
	const struct bgp_path *win;
};

#define MED_GROUPS_STACK 16

/* bgp deterministic-med: best of each neighbor-AS group with MED, then the best of the group
 * winners; independent of the order of the list. */
static const struct bgp_path *select_deterministic(const struct decide_ctx *ctx,
						   const struct bgp_dest *dest,
						   const struct bgp_path *skip)
{
	struct med_group stack_groups[MED_GROUPS_STACK];
	struct med_group *g = stack_groups;
	size_t ng = 0, cap = MED_GROUPS_STACK;
	const struct bgp_path *p, *best;

	for (p = dest_paths(dest); p; p = path_next(p)) {
		uint32_t asn;
		enum nbr_kind kind;
		size_t i;

		if (p == skip || !bgp_path_valid(ctx->rib, p))
			continue;
		kind = neighbor_as(path_attr(p)->aspath, &asn);
		if (kind != NBR_UNCOMPARABLE) {
			for (i = 0; i < ng; i++)
				if (g[i].kind == kind && g[i].asn == asn)
					break;
			if (i < ng) {
				if (better(ctx, p, g[i].win))
					g[i].win = p;
				continue;
			}
		}
		if (ng == cap) {
			struct med_group *n = XMALLOC(MTYPE_BGP_RIB, 2 * cap * sizeof(*n));

			memcpy(n, g, ng * sizeof(*n));
			if (g != stack_groups)
				XFREE(MTYPE_BGP_RIB, g);
			g = n;
			cap *= 2;
		}
		g[ng].kind = kind;
		g[ng].asn = asn;
		g[ng].win = p;
		ng++;
	}
	best = ng ? g[0].win : NULL;
	for (size_t i = 1; i < ng; i++)
		if (better(ctx, g[i].win, best))
			best = g[i].win;
	if (g != stack_groups)
		XFREE(MTYPE_BGP_RIB, g);
	return best;
}

/* FRR's default: each path against the best so far, in the order of the list. */
static const struct bgp_path *select_pairwise(const struct decide_ctx *ctx,
					      const struct bgp_dest *dest,
					      const struct bgp_path *skip)
{
	const struct bgp_path *best = NULL;

	for (const struct bgp_path *p = dest_paths(dest); p; p = path_next(p)) {
		if (p == skip || !bgp_path_valid(ctx->rib, p))
			continue;
		if (!best || better(ctx, p, best))
			best = p;
	}
	return best;
}

/* The best valid path of dest other than skip (NULL = none skipped). */
static const struct bgp_path *select_best(const struct decide_ctx *ctx, const struct bgp_dest *dest,
					  const struct bgp_path *skip)
{
	if (ctx->cfg->deterministic_med)
		return select_deterministic(ctx, dest, skip);
	return select_pairwise(ctx, dest, skip);
}

/* The last valid path of the list but skip: the last one FRR's walk compares. */
static const struct bgp_path *last_valid_other(const struct decide_ctx *ctx,
					       const struct bgp_dest *dest,
					       const struct bgp_path *skip)
{
	const struct bgp_path *last = NULL;

	for (const struct bgp_path *p = dest_paths(dest); p; p = path_next(p))
		if (p != skip && bgp_path_valid(ctx->rib, p))
			last = p;
	return last;
}

/* The reason is kept in the best path's 6-bit field. */
_Static_assert(BGP_SEL_MAX <= 64, "enum bgp_sel_reason outgrew struct bgp_path.reason");

void bgp_decision_run(struct bgp_rib *rib, struct bgp_dest *dest)
{
	struct decide_ctx ctx;
	const struct bgp_path *best, *second;
	struct bgp_path *winner, *prev, *head = dest_paths(dest);
	enum bgp_sel_reason why = BGP_SEL_FIRST;

	ctx_init(&ctx, rib, dest);
	best = select_best(&ctx, dest, NULL);
	/* Only the head may carry the mark: take it off the old winner first. */
	if (head)
		head->flags &= ~PATH_F_BEST;
	if (!best)
		return;
	/* Why, judged with what was selected before this run, as FRR records it. */
	second = ctx.cfg->deterministic_med ? select_best(&ctx, dest, best)
					    : last_valid_other(&ctx, dest, best);
	if (second)
		cmp_paths(&ctx, best, second, &why);
	winner = (struct bgp_path *)best;
	winner->reason = why;
	/* Move the best path to the head of the list. */
	if (winner != head) {
		bgp_path_ref ref;

		for (prev = head; path_next(prev) != winner; prev = path_next(prev))
			;
		ref = prev->next;
		prev->next = winner->next;
		winner->next = dest->paths;
		dest->paths = ref;
	}
	winner->flags |= PATH_F_BEST;
}

enum bgp_sel_reason bgp_decision_reason(const struct bgp_rib *rib, const struct bgp_dest *dest)
{
	const struct bgp_path *best = dest_best(dest);

	(void)rib;
	return best ? (enum bgp_sel_reason)best->reason : BGP_SEL_NONE;
}

void bgp_bestpath_changed(struct bgp *bgp)
{
	/* The revalidation walk re-runs the decision for every prefix and tells the sessions and
	 * the kernel what changed, a bounded number of prefixes per loop turn. */
	if (bgp && bgp->rib)
		rib_fib_revalidate(bgp->rib, true);
}
