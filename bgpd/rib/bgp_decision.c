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
 * Our deviations, all as FRR does by default unless noted:
 *   - Weight (a local value, never sent) is compared first; locally originated routes carry
 *     32768.
 *   - LOCAL_PREF: a path without the attribute (eBGP-learned: RFC 4271 5.1.5 makes us ignore a
 *     received one, and local routes) counts as 100.
 *   - Locally originated routes (network statements) win over learned ones right after
 *     LOCAL_PREF.
 *   - MED: "deterministic MED" always (FRR: `bgp deterministic-med`): paths are grouped by
 *     neighboring AS, the best of each group is chosen with MED, then the group winners are
 *     compared without it. Plain pairwise comparison is not transitive when MED is only
 *     compared within one AS, and the result would depend on the order paths arrived in.
 *   - The RFC 5004 "prefer the oldest eBGP path" step FRR applies before the router id is
 *     left out for the same reason (FRR: `bgp bestpath compare-routerid`).
 *   - e) The IGP cost to the next hop is not compared (FRR compares it; skua shows the
 *     kernel's metric, it does not rank by it). Reachability is checked: a next hop the kernel
 *     cannot reach makes the path unusable before any comparison (RFC 4271 9.1.2.1,
 *     bgp_path_valid() with bgpd/fib/bgp_nexthop.c behind it).
 *   - Between two paths of the same source nothing is compared (cannot happen: one path per
 *     source and prefix).
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/rib/bgp_decision.h"

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

/* ---- one function per tie-breaker; each returns < 0 when a is better ---- */

static int cmp_u32_high(uint32_t a, uint32_t b)
{
	return a > b ? -1 : (a < b ? 1 : 0);
}

static int cmp_u32_low(uint32_t a, uint32_t b)
{
	return a < b ? -1 : (a > b ? 1 : 0);
}

static int cmp_llgr_stale(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_low(rib_attr_llgr_stale(a->attr), rib_attr_llgr_stale(b->attr));
}

static int cmp_weight(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_high(a->attr->weight, b->attr->weight);
}

static uint32_t local_pref(const struct bgp_attr *attr)
{
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		return attr->local_pref;
	return BGP_DEFAULT_LOCAL_PREF;
}

static int cmp_local_pref(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_high(local_pref(a->attr), local_pref(b->attr));
}

static int cmp_local_route(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_high(a->src->local, b->src->local);
}

static int cmp_as_path(const struct bgp_cand *a, const struct bgp_cand *b)
{
	uint32_t la = a->attr->aspath ? a->attr->aspath->path_len : 0;
	uint32_t lb = b->attr->aspath ? b->attr->aspath->path_len : 0;

	return cmp_u32_low(la, lb);
}

static int cmp_origin(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_low(a->attr->origin, b->attr->origin);
}

static uint32_t med(const struct bgp_attr *attr)
{
	/* A missing MED is the best value (RFC 4271 9.1.2.2 c; FRR without missing-as-worst). */
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		return attr->med;
	return 0;
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

static int cmp_med(const struct bgp_cand *a, const struct bgp_cand *b)
{
	if (!same_neighbor_as(a->attr, b->attr))
		return 0;
	return cmp_u32_low(med(a->attr), med(b->attr));
}

static bool is_ebgp(const struct rib_src *src)
{
	return !src->local && src->ebgp;
}

static int cmp_peer_type(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_high(is_ebgp(a->src), is_ebgp(b->src));
}

static uint32_t router_id(const struct bgp_cand *c)
{
	if (c->attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID))
		return ntohl(bgp_attr_ex(c->attr)->originator_id.s_addr);
	return ntohl(c->src->remote_id.s_addr);
}

static int cmp_router_id(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_low(router_id(a), router_id(b));
}

static uint32_t cluster_len(const struct bgp_attr *attr)
{
	const struct bgp_u32list *l = bgp_attr_ex(attr)->cluster_list;

	return l ? l->count : 0;
}

static int cmp_cluster_len(const struct bgp_cand *a, const struct bgp_cand *b)
{
	return cmp_u32_low(cluster_len(a->attr), cluster_len(b->attr));
}

static int cmp_neighbor_ip(const struct bgp_cand *a, const struct bgp_cand *b)
{
	int r = ipaddr_cmp(&a->src->remote_addr, &b->src->remote_addr);

	return r < 0 ? -1 : (r > 0 ? 1 : 0);
}

/* In FRR's order (bgp_path_info_cmp()). */
static const struct {
	int (*cmp)(const struct bgp_cand *a, const struct bgp_cand *b);
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
	/* IGP metric: skipped, see the deviations above */
	{ cmp_router_id, BGP_SEL_ROUTER_ID },
	{ cmp_cluster_len, BGP_SEL_CLUSTER_LEN },
	{ cmp_neighbor_ip, BGP_SEL_NEIGHBOR_IP },
};

int bgp_decision_cmp(const struct bgp_cand *a, const struct bgp_cand *b, enum bgp_sel_reason *why)
{
	for (size_t i = 0; i < array_size(tie_breakers); i++) {
		int r = tie_breakers[i].cmp(a, b);

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

	if (!src || !rib_src_usable(src) || !path->attr)
		return false;
	if (path->flags & PATH_F_IMPORT_FAILED)
		return false; /* a network statement without its kernel route (FRR: not valid) */
	/* Next-hop tracking (bgpd/fib/bgp_nexthop.c): a next hop the kernel cannot reach makes the
	 * path unusable (RFC 4271 9.1.2.1), as FRR does; not for our own routes. */
	if (src->local || !ops || !ops->nexthop_valid)
		return true;
	rib_path_nexthop(path->attr, &nh);
	return ops->nexthop_valid(rib->fib.arg, &nh);
}

static void cand_of(const struct bgp_rib *rib, const struct bgp_path *p, struct bgp_cand *c)
{
	c->attr = p->attr;
	c->src = rib_src_get(rib, p->src);
}

static bool better(const struct bgp_rib *rib, const struct bgp_path *a, const struct bgp_path *b)
{
	struct bgp_cand ca, cb;

	cand_of(rib, a, &ca);
	cand_of(rib, b, &cb);
	return bgp_decision_cmp(&ca, &cb, NULL) < 0;
}

/* A group of paths from the same neighboring AS (deterministic MED). */
struct med_group {
	enum nbr_kind kind;
	uint32_t asn;
	const struct bgp_path *win;
};

#define MED_GROUPS_STACK 16

/*
 * The best valid path of dest other than skip (NULL = none skipped), independent of list
 * order: best of each neighbor-AS group with MED, then the best of the group winners.
 */
static const struct bgp_path *select_best(const struct bgp_rib *rib, const struct bgp_dest *dest,
					  const struct bgp_path *skip)
{
	struct med_group stack_groups[MED_GROUPS_STACK];
	struct med_group *g = stack_groups;
	size_t ng = 0, cap = MED_GROUPS_STACK;
	const struct bgp_path *p, *best = NULL, *only = NULL;
	size_t nvalid = 0;

	for (p = dest->paths; p; p = p->next) {
		if (p == skip || !bgp_path_valid(rib, p))
			continue;
		nvalid++;
		only = p;
	}
	if (nvalid <= 1)
		return only;

	for (p = dest->paths; p; p = p->next) {
		uint32_t asn;
		enum nbr_kind kind;
		size_t i;

		if (p == skip || !bgp_path_valid(rib, p))
			continue;
		kind = neighbor_as(p->attr->aspath, &asn);
		if (kind != NBR_UNCOMPARABLE) {
			for (i = 0; i < ng; i++)
				if (g[i].kind == kind && g[i].asn == asn)
					break;
			if (i < ng) {
				if (better(rib, p, g[i].win))
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
	best = g[0].win;
	for (size_t i = 1; i < ng; i++)
		if (better(rib, g[i].win, best))
			best = g[i].win;
	if (g != stack_groups)
		XFREE(MTYPE_BGP_RIB, g);
	return best;
}

void bgp_decision_run(struct bgp_rib *rib, struct bgp_dest *dest)
{
	const struct bgp_path *best = select_best(rib, dest, NULL);
	struct bgp_path **pp;

	if (!best) {
		dest->flags &= (uint8_t)~DEST_F_BEST;
		return;
	}
	/* Move the best path to the head of the list. */
	for (pp = &dest->paths; *pp != best; pp = &(*pp)->next)
		;
	*pp = best->next;
	((struct bgp_path *)best)->next = dest->paths;
	dest->paths = (struct bgp_path *)best;
	dest->flags |= DEST_F_BEST;
}

enum bgp_sel_reason bgp_decision_reason(const struct bgp_rib *rib, const struct bgp_dest *dest)
{
	const struct bgp_path *best = dest_best(dest);
	const struct bgp_path *second;
	struct bgp_cand a, b;
	enum bgp_sel_reason why;

	if (!best)
		return BGP_SEL_NONE;
	second = select_best(rib, dest, best);
	if (!second)
		return BGP_SEL_FIRST;
	cand_of(rib, best, &a);
	cand_of(rib, second, &b);
	bgp_decision_cmp(&a, &b, &why);
	return why;
}
