/* SPDX-License-Identifier: ISC */
/*
 * neighbor X default-originate [route-map NAME], as FRR 8.4 (subgroup_default_originate()):
 *   - the neighbor is sent 0.0.0.0/0 (or ::/0) whatever the table holds: origin IGP, an empty
 *     AS path (ours prepended towards eBGP), MED 0, our next hop; no outbound policy applies
 *     to it, and it takes the place of a default route of the table for that neighbor;
 *   - with a route-map, only while some path of the table matches it: the match clauses read
 *     that path (and its prefix), the set clauses write the default route (FRR's
 *     route_map_apply_ext()); the first path in prefix order that the map permits gives the
 *     sets. When none matches any more the default is withdrawn, and a default route of the
 *     table, if any, is sent as to every other neighbor. A name that names no route-map
 *     matches nothing.
 *
 * Design: each session's current default route is an interned set on its struct rib_src
 * (deforig[af]); the export (bgp_adj_out.c) asks for it when it reaches the family's default
 * dest, which is kept in the table, without paths if need be, while a session has one. A
 * change of that set journals the dest, so the ordinary output sends or withdraws it. The
 * evaluation runs with the RIB's work at once after a configuration or route-map change, and,
 * when a session's default has a route-map, after the table changed, but then at most every
 * RIB_DEFORIG_INTERVAL_MS: each evaluation walks the table (until a path matches) per such
 * session and family, which a full table's convergence must not pay at every turn. FRR 8.4
 * rescans every 5 s too (RMAP_DEFAULT_ORIGINATE_EVAL_TIMER).
 */
#include "lib/compat.h"

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_rib_deforig.h"
#include "lib/event.h"
#include "lib/table.h"

/* Does the peer want a default route in af now? */
static bool wanted(const struct rib_src *src, enum bgp_af af)
{
	return src->up && src->peer && src->af[af] && src->peer->conf.default_originate[af];
}

/* The first path of the table (in prefix order) the route-map permits, its sets written into
 * *t; false if none. */
static bool table_matches(struct bgp_rib *rib, enum bgp_af af, const char *rmap, struct bgp_attr *t,
			  struct rmap_refs *refs)
{
	struct ptree *tree = rib->af[af].tree;
	struct bgp_dest *dest;
	struct prefix p;

	for (dest = ptree_first(tree, &p); dest; dest = ptree_next(tree, &p, &p)) {
		for (const struct bgp_path *path = dest_paths(dest); path; path = path_next(path)) {
			const struct rib_src *from = rib_src_get(rib, path->src);
			struct bgp_attr try = *t;

			if (path->src != 0 && (!from || !rib_src_usable(from)))
				continue;
			if (route_map_apply_split(rmap, &p, path_attr(path), &try, refs)) {
				*t = try;
				return true;
			}
			route_map_refs_release(refs);
		}
	}
	return false;
}

/* What src is to be sent in af now (a new reference), or NULL. */
static struct bgp_attr *default_attr(struct bgp_rib *rib, const struct rib_src *src, enum bgp_af af)
{
	const char *rmap = src->peer->conf.default_rmap[af];
	struct bgp_attr tmpl, *attr = NULL;
	struct bgp_attr_extra ex;
	struct rmap_refs refs;

	/* FRR's bgp_attr_default_set() with MED 0: as a network statement's route. */
	rib_local_template(af, BGP_ORIGIN_IGP, 0, &tmpl, &ex);
	if (!rmap) {
		attr = bgp_attr_intern(&tmpl);
	} else if (table_matches(rib, af, rmap, &tmpl, &refs)) {
		attr = bgp_attr_intern(&tmpl);
		route_map_refs_release(&refs);
	}
	bgp_aspath_unref(tmpl.aspath);
	return attr;
}

static void journal_default(struct bgp_rib *rib, enum bgp_af af)
{
	struct prefix p = { .family = (uint8_t)bgp_af_family(af), .len = 0 };

	rib_journal_mark(rib, af, rib_dest_get(rib, af, &p));
}

/* Evaluate src's default routes; journal the families whose default changed. */
static void evaluate(struct bgp_rib *rib, struct rib_src *src, bool journal)
{
	for (int i = 0; i < BGP_AF_MAX; i++) {
		enum bgp_af af = (enum bgp_af)i;
		struct bgp_attr *want = wanted(src, af) ? default_attr(rib, src, af) : NULL;

		if (want == src->deforig[af]) {
			bgp_attr_unref(want);
			continue;
		}
		bgp_attr_unref(src->deforig[af]);
		src->deforig[af] = want;
		if (journal)
			journal_default(rib, af);
	}
}

void rib_deforig_peer_up(struct bgp_rib *rib, struct rib_src *src)
{
	struct prefix p = { 0 };

	evaluate(rib, src, false);
	/* The walk that follows finds the default dest in the table and sends it first. */
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (src->deforig[af]) {
			p.family = (uint8_t)bgp_af_family((enum bgp_af)af);
			rib_dest_get(rib, (enum bgp_af)af, &p);
		}
}

void rib_deforig_src_stop(struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		bgp_attr_unref(src->deforig[af]);
		src->deforig[af] = NULL;
	}
}

/* Does any session's default depend on the table (a route-map)? */
static bool follows_table(const struct bgp_rib *rib)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		if (!src || !src->up || !src->peer)
			continue;
		for (int af = 0; af < BGP_AF_MAX; af++)
			if (src->peer->conf.default_originate[af] &&
			    src->peer->conf.default_rmap[af])
				return true;
	}
	return false;
}

/* The table changed under a route-map's condition since the last evaluation. */
static bool table_moved(const struct bgp_rib *rib)
{
	return rib->deforig_version != rib_table_version(rib->bgp) && follows_table(rib);
}

static bool table_due(const struct bgp_rib *rib)
{
	return monotime_ms() >= rib->deforig_last_ms + rib->deforig_interval_ms;
}

bool rib_deforig_pending(const struct bgp_rib *rib)
{
	return rib->deforig_dirty || (table_moved(rib) && table_due(rib));
}

static void deforig_timer_cb(int fd, short what, void *arg)
{
	struct bgp_rib *rib = arg;

	(void)fd;
	(void)what;
	rib_work_schedule(rib);
}

void rib_deforig_run(struct bgp_rib *rib)
{
	rib->deforig_dirty = false;
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *src = rib->src[id];

		if (src && !src->local)
			evaluate(rib, src, true);
	}
	/* What this evaluation journaled is not a change of the table it looked at. */
	rib->deforig_version = rib_table_version(rib->bgp);
	rib->deforig_last_ms = monotime_ms();
}

void rib_deforig_tick(struct bgp_rib *rib)
{
	if (rib_deforig_pending(rib)) {
		rib_deforig_run(rib);
		return;
	}
	/* Changed, but evaluated too recently: come back when the interval is over. */
	if (table_moved(rib) && rib->bgp && rib->bgp->base) {
		uint64_t now = monotime_ms(), at = rib->deforig_last_ms + rib->deforig_interval_ms;

		if (!rib->deforig_timer)
			rib->deforig_timer = event_timer_new(rib->bgp->base, deforig_timer_cb, rib);
		if (rib->deforig_timer && !event_pending(rib->deforig_timer))
			event_timer_add(rib->deforig_timer, (uint32_t)(at > now ? at - now : 0), 0);
	}
}

void rib_deforig_fini(struct bgp_rib *rib)
{
	event_free(rib->deforig_timer);
	rib->deforig_timer = NULL;
}

bool rib_deforig_keeps(const struct bgp_rib *rib, enum bgp_af af)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		if (src && src->deforig[af])
			return true;
	}
	return false;
}

void rib_default_originate_changed(struct bgp *bgp)
{
	if (!bgp || !bgp->rib)
		return;
	bgp->rib->deforig_dirty = true;
	rib_work_schedule(bgp->rib);
}

bool rib_peer_default_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;
	struct prefix p = { 0 };
	const struct bgp_dest *d;

	if (!src || af >= BGP_AF_MAX || !src->deforig[af] || !peer->bgp || !peer->bgp->rib)
		return false;
	/* Sent: the export has set the session's bit on the default dest with it. */
	p.family = (uint8_t)bgp_af_family(af);
	d = ptree_lookup(peer->bgp->rib->af[af].tree, &p);
	return d && bgp_dest_adv_test(d, src->id);
}
