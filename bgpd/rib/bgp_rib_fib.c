/* SPDX-License-Identifier: ISC */
/*
 * The RIB's side of forwarding: which paths of a prefix go into the kernel (the best path and
 * those equal to it, up to maximum-paths), when to tell the forwarding side (bgpd/fib/bgp_fib.c),
 * and the walk that re-runs the decision when next hops change.
 *
 * When: the RIB compares a prefix's forwarding set (its next hop addresses) before and after
 * every change and calls the forwarding side only when the set differs, so a second full feed
 * whose paths lose the decision costs the kernel nothing. How a next hop is reached (the
 * gateway and interface behind an iBGP next hop) is the forwarding side's business: when
 * that changes, the revalidation walk re-syncs exactly the prefixes whose paths use a changed
 * next hop.
 *
 * Multipath (FRR's rules): a valid path is equal to the best when the decision between them
 * got past the IGP metric without a winner, i.e. weight, local preference,
 * local origin, AS path length, origin, MED, peer type and IGP metric are all equal, and the
 * AS paths are identical (with `bgp bestpath as-path multipath-relax`, of the same length). eBGP
 * best paths use `maximum-paths N`, iBGP ones `maximum-paths ibgp N`. Locally originated routes
 * (network statements) are never installed: the kernel is where they came from.
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "lib/table.h"

void rib_path_nexthop(const struct bgp_attr *attr, struct ipaddr *nh)
{
	memset(nh, 0, sizeof(*nh));
	if (attr->mp_nh_len >= 16) {
		nh->family = AF_INET6;
		nh->u.v6 = *bgp_attr_mp_nh_global(attr);
	} else {
		nh->family = AF_INET;
		nh->u.v4 = attr->nexthop;
	}
}

static bool path_equal_to_best(const struct bgp_rib *rib, const struct bgp_path *best,
			       const struct bgp_path *p)
{
	const struct bgp_bestpath *cfg = rib->bgp ? &rib->bgp->bestpath : NULL;
	struct bgp_cand a, b;
	enum bgp_sel_reason why = BGP_SEL_NONE;

	bgp_decision_cand(rib, best, &a);
	bgp_decision_cand(rib, p, &b);
	if (!a.src || !b.src || b.src->local || a.src->ebgp != b.src->ebgp)
		return false;
	/* Equal up to and with the IGP metric; the older path and what follows only order them. */
	if (bgp_decision_cmp(cfg, &a, &b, &why) != 0 && why < BGP_SEL_OLDER)
		return false;
	if (cfg && cfg->multipath_relax)
		return true; /* bgp bestpath as-path multipath-relax: same length is enough */
	/* Interned: identical = same pointer. */
	return path_attr(best)->aspath == path_attr(p)->aspath;
}

static void set_add(struct rib_fib_set *set, const struct ipaddr *nh)
{
	unsigned i = 0;

	/* Sorted and distinct: two sets compare with memcmp. */
	while (i < set->n && ipaddr_cmp(&set->nh[i], nh) < 0)
		i++;
	if (i < set->n && ipaddr_cmp(&set->nh[i], nh) == 0)
		return;
	memmove(&set->nh[i + 1], &set->nh[i], (set->n - i) * sizeof(set->nh[0]));
	set->nh[i] = *nh;
	set->n++;
}

void rib_fib_set_of(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
		    struct rib_fib_set *set)
{
	const struct bgp_path *best;
	const struct rib_src *bsrc;
	struct ipaddr nh;
	unsigned max;

	set->n = 0;
	if (!rib->fib.ops)
		return; /* no kernel: not even the best path to read */
	best = dest_best(dest);
	if (!best)
		return;
	bsrc = rib_src_get(rib, best->src);
	if (!bsrc || bsrc->local)
		return;
	max = rib->fib.maxpaths[af][bsrc->ebgp ? 0 : 1];
	rib_path_nexthop(path_attr(best), &nh);
	set_add(set, &nh);
	for (const struct bgp_path *p = path_next(best); p && set->n < max; p = path_next(p)) {
		if (!bgp_path_valid(rib, p) || !path_equal_to_best(rib, best, p))
			continue;
		rib_path_nexthop(path_attr(p), &nh);
		set_add(set, &nh);
	}
}

bool rib_path_multipath(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
			const struct bgp_path *path)
{
	const struct bgp_path *best = dest_best(dest);
	const struct rib_src *bsrc = best ? rib_src_get(rib, best->src) : NULL;
	unsigned n = 1, max;

	if (!bsrc || bsrc->local)
		return false;
	max = rib->fib.maxpaths[af][bsrc->ebgp ? 0 : 1];
	for (const struct bgp_path *p = path_next(best); p && n < max; p = path_next(p)) {
		if (!bgp_path_valid(rib, p) || !path_equal_to_best(rib, best, p))
			continue;
		if (p == path || path == best)
			return true; /* the best is multipath when another one is */
		n++;
	}
	return false;
}

bool rib_fib_set_same(const struct rib_fib_set *a, const struct rib_fib_set *b)
{
	return a->n == b->n && memcmp(a->nh, b->nh, a->n * sizeof(a->nh[0])) == 0;
}

static void sync_set(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
		     const struct rib_fib_set *set)
{
	const struct bgp_path *best = dest_best(dest);
	const struct rib_src *bsrc = best ? rib_src_get(rib, best->src) : NULL;
	uint8_t *flags = bgp_dest_flags(dest, af);
	bool installed = *flags & DEST_F_FIB;
	struct prefix p;

	if (!set->n && !installed)
		return;
	bgp_dest_prefix(dest, af, &p);
	if (rib->fib.ops->install(rib->fib.arg, af, &p, bsrc && bsrc->ebgp, set, installed))
		*flags |= DEST_F_FIB;
	else
		*flags &= (uint8_t)~DEST_F_FIB;
}

bool rib_fib_installed(const struct bgp_rib *rib, enum bgp_af af, const struct prefix *p)
{
	const struct bgp_dest *dest = ptree_lookup(rib->af[af].tree, p);

	return dest && (*bgp_dest_flags((struct bgp_dest *)dest, af) & DEST_F_FIB);
}

void rib_fib_sync(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest)
{
	struct rib_fib_set set;

	/* Restarting: the kernel keeps the earlier run's routes until the deferred selection. */
	if (!rib->fib.ops || rib->gr_deferring)
		return;
	rib_fib_set_of(rib, af, dest, &set);
	sync_set(rib, af, dest, &set);
}

/* ---- attach, detach, maximum-paths ---- */

static rib_fib_instance_hook instance_hook;

void rib_fib_set_instance_hook(rib_fib_instance_hook hook)
{
	instance_hook = hook;
}

void rib_fib_instance(struct bgp_rib *rib, bool up)
{
	if (instance_hook && rib)
		instance_hook(rib->bgp, rib, up);
}

void rib_fib_attach(struct bgp_rib *rib, const struct rib_fib_ops *ops, void *arg)
{
	rib->fib.ops = ops;
	rib->fib.arg = arg;
	rib_fib_revalidate(rib, true); /* next hops are judged now, and the table installed */
}

static int clear_flag(const struct prefix *p, void *value, void *arg)
{
	const enum bgp_af *af = arg;

	(void)p;
	*bgp_dest_flags(value, *af) &= (uint8_t)~DEST_F_FIB;
	return 0;
}

void rib_fib_detach(struct bgp_rib *rib)
{
	if (!rib->fib.ops)
		return;
	rib->fib.ops = NULL;
	rib->fib.arg = NULL;
	rib->fib.walk_on = false;
	for (enum bgp_af af = 0; af < BGP_AF_MAX; af++)
		ptree_walk(rib->af[af].tree, clear_flag, &af);
	/* Every next hop counts as reachable again. */
	rib->fib.walk_on = true;
	rib->fib.walk_all = true;
	rib->fib.walk_started = false;
	rib->fib.walk_begun = false;
	rib->fib.walk_af = 0;
	rib_work_schedule(rib);
}

void rib_fib_maxpaths_set(struct bgp_rib *rib, enum bgp_af af, bool ibgp, unsigned n)
{
	n = MAX(1u, MIN(n, (unsigned)RIB_MAXPATHS));
	if (rib->fib.maxpaths[af][ibgp] == n)
		return;
	rib->fib.maxpaths[af][ibgp] = (uint16_t)n;
	rib_fib_revalidate(rib, true);
}

/* ---- the revalidation walk ---- */

void rib_fib_revalidate(struct bgp_rib *rib, bool all)
{
	struct rib_fib *f = &rib->fib;

	if (f->walk_on) {
		f->walk_again = true;
		f->walk_all = f->walk_all || all;
		return;
	}
	f->walk_on = true;
	f->walk_all = all;
	f->walk_started = false;
	f->walk_begun = false;
	f->walk_af = 0;
	rib_work_schedule(rib);
}

static bool uses_changed_nexthop(const struct bgp_rib *rib, const struct bgp_dest *d)
{
	const struct rib_fib_ops *ops = rib->fib.ops;
	struct ipaddr nh;

	if (!ops || !ops->nexthop_changed)
		return true;
	for (const struct bgp_path *p = dest_paths(d); p; p = path_next(p)) {
		if (!path_attr(p))
			continue;
		rib_path_nexthop(path_attr(p), &nh);
		if (ops->nexthop_changed(rib->fib.arg, &nh))
			return true;
	}
	return false;
}

/* Visit one prefix: decide again, tell the sessions (journal) and the kernel what changed. */
static void revisit(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d)
{
	const struct bgp_path *before = dest_best(d);
	const struct bgp_attr *before_attr = before ? path_attr(before) : NULL;
	const struct bgp_path *after;

	if (!rib->fib.walk_all && !uses_changed_nexthop(rib, d))
		return;
	bgp_decision_run(rib, d);
	after = dest_best(d);
	if (after != before || (after && path_attr(after) != before_attr))
		rib_journal_mark(rib, af, d);
	/* The gateways behind a next hop may have changed though the set did not. */
	rib_fib_sync(rib, af, d);
}

size_t rib_fib_walk_run(struct bgp_rib *rib, size_t budget)
{
	struct rib_fib *f = &rib->fib;
	size_t visited = 0;

	while (f->walk_on && visited < budget) {
		struct ptree *tree;
		struct bgp_dest *d;
		struct prefix p;

		if (!f->walk_begun) {
			f->walk_begun = true;
			if (f->ops && f->ops->walk_begin)
				f->ops->walk_begin(f->arg);
		}
		if (f->walk_af >= BGP_AF_MAX) {
			const struct rib_fib_ops *ops = f->ops;

			f->walk_on = false;
			if (f->walk_again) {
				f->walk_again = false;
				rib_fib_revalidate(rib, f->walk_all);
			} else {
				bool all = f->walk_all;

				f->walk_all = false;
				if (ops && ops->walk_done)
					ops->walk_done(f->arg, all);
			}
			break;
		}
		tree = rib->af[f->walk_af].tree;
		d = f->walk_started ? ptree_next(tree, &f->walk_last, &p) : ptree_first(tree, &p);
		f->walk_started = true;
		if (!d) {
			f->walk_af++;
			f->walk_started = false;
			continue;
		}
		f->walk_last = p;
		visited++;
		revisit(rib, f->walk_af, d);
	}
	return visited;
}
