/* SPDX-License-Identifier: ISC */
/*
 * RPKI revalidation (bgp_rib_rpki.h).
 *
 * The store says which prefixes' VRPs changed (or that everything may have). Each becomes a
 * job: a walk of every prefix equal to or more specific than it. Two kinds of walk:
 *   - inbound: for every session whose inbound route-map matches on the RPKI state, its kept
 *     Adj-RIB-In under the prefix goes through the inbound policy again (as soft-
 *     reconfiguration inbound does). That covers the routes that were accepted and those that
 *     were denied. The RIB changes, and the peers are sent something, only if the outcome
 *     changed: the same interned attributes again are no change (rib_path_update()).
 *   - outbound: when some session's outbound route-map matches on the RPKI state, every
 *     dest under the prefix is journaled, so that the sessions run their export again. The
 *     Adj-RIB-Out keeps no copy of what it sent (bgp_adj_out.c), so a route whose outcome did
 *     not change is sent again to those sessions: the price of not storing a state per
 *     route and session; without such outbound maps nothing is journaled.
 * A job's cursor (source, last prefix) survives changes between turns: ptree_next() resumes
 * after any prefix. Queued prefixes covered by another queued one are not queued again; a full
 * walk is a job under /0 of each family.
 */
#include "lib/compat.h"

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "bgpd/rpki/rpki_db.h"
#include "lib/event.h"
#include "lib/table.h"

bool rib_rmap_validates(const struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir)
{
	const char *name = peer->conf.rmap[af][dir];

	return name && route_map_uses_validation(name);
}

const struct rmap_ctx *rib_rmap_ctx(const struct rib_src *src, struct rmap_ctx *buf)
{
	enum bgp_role role;

	if (!src || src->local || !src->peer)
		return NULL;
	memset(buf, 0, sizeof(*buf));
	role = src->peer->conf.local_role;
	buf->aspa_dir = bgp_role_aspa_dir(role);
	/* A route server does not put its AS in the path (RFC 7947 2.2.2.1): the first AS is
	 * then not the neighbor's, and verification must not require it (0: not checked). */
	buf->peer_as = role == BGP_ROLE_RS_CLIENT ? 0 : src->remote_as;
	buf->peer = &src->peer->conf.addr; /* match peer: the sender */
	return buf;
}

static enum bgp_af af_of(const struct prefix *p)
{
	return p->family == AF_INET ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST;
}

void rib_rpki_prefix_changed(struct bgp_rib *rib, const struct prefix *p)
{
	struct rib_rpki *st = &rib->rpki;
	enum bgp_af af;
	void **slot;

	if (p->family != AF_INET && p->family != AF_INET6)
		return;
	af = af_of(p);
	if (!st->queue[af])
		st->queue[af] = ptree_new(p->family);
	/* Under a prefix still waiting: that walk will cover it. */
	if (ptree_match_prefix(st->queue[af], p))
		return;
	slot = ptree_get(st->queue[af], p);
	if (slot)
		*slot = (void *)1;
	rib_work_schedule(rib);
}

void rib_rpki_all_changed(struct bgp_rib *rib)
{
	struct rib_rpki *st = &rib->rpki;
	struct prefix all;

	/* One walk of everything replaces whatever was queued or under way. */
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(st->queue[af], NULL);
		st->queue[af] = NULL;
	}
	st->on = false;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		memset(&all, 0, sizeof(all));
		all.family = (uint8_t)bgp_af_family((enum bgp_af)af);
		rib_rpki_prefix_changed(rib, &all);
	}
}

bool rib_rpki_pending(const struct bgp_rib *rib)
{
	if (rib->rpki.on)
		return true;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (ptree_count(rib->rpki.queue[af]))
			return true;
	return false;
}

/* The next queued prefix becomes the job; false when none is left. */
static bool job_next(struct rib_rpki *st)
{
	struct prefix p;

	for (int af = 0; af < BGP_AF_MAX; af++) {
		if (!ptree_first(st->queue[af], &p))
			continue;
		ptree_delete(st->queue[af], &p);
		st->on = true;
		st->af = (enum bgp_af)af;
		st->root = p;
		st->src_id = 1; /* 0 is our own routes: no route-map in */
		st->rib_phase = false;
		st->started = false;
		return true;
	}
	return false;
}

/* The next prefix of t under the job's root, after the cursor: its value, or NULL. */
static void *walk_step(struct rib_rpki *st, const struct ptree *t, struct prefix *p)
{
	void *v;

	if (st->started) {
		v = ptree_next(t, &st->last, p);
	} else {
		v = ptree_lookup(t, &st->root);
		if (v)
			*p = st->root;
		else
			v = ptree_next(t, &st->root, p);
	}
	if (!v || !prefix_contains(&st->root, p))
		return NULL;
	st->last = *p;
	st->started = true;
	return v;
}

/* A session whose routes of af go through a validating inbound route-map, kept as received. */
static bool src_revalidates(const struct rib_src *src, enum bgp_af af)
{
	return src && src->up && src->peer && src->adj_in[af] &&
	       rib_rmap_validates(src->peer, af, BGP_DIR_IN);
}

static bool out_revalidates(const struct bgp_rib *rib, enum bgp_af af)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *s = rib->src[id];

		if (s && s->up && s->peer && s->af[af] &&
		    rib_rmap_validates(s->peer, af, BGP_DIR_OUT))
			return true;
	}
	return false;
}

size_t rib_rpki_run(struct bgp_rib *rib, size_t budget)
{
	struct rib_rpki *st = &rib->rpki;
	uint32_t now = (uint32_t)wallclock_s();
	size_t visited = 0;
	struct prefix p;
	void *v;

	while (visited < budget) {
		if (!st->on && !job_next(st))
			break;
		if (!st->rib_phase) {
			struct rib_src *src = NULL;

			while (st->src_id < rib->src_cap &&
			       !src_revalidates(src = rib->src[st->src_id], st->af)) {
				st->src_id++;
				st->started = false;
			}
			if (st->src_id >= rib->src_cap) {
				/* Inbound done; outbound only if some session needs it. */
				st->rib_phase = true;
				st->started = false;
				st->on = out_revalidates(rib, st->af);
				continue;
			}
			v = walk_step(st, src->adj_in[st->af], &p);
			if (!v) {
				/* Refused routes may have come in: the limit is judged again. */
				rib_src_max_prefix_check(src, st->af);
				st->src_id++;
				st->started = false;
				continue;
			}
			visited++;
			rib_in_rerun(rib, src, st->af, &p, v, now);
			continue;
		}
		v = walk_step(st, rib->af[st->af].tree, &p);
		if (!v) {
			st->on = false;
			continue;
		}
		visited++;
		if (dest_paths((struct bgp_dest *)v))
			rib_journal_mark(rib, st->af, v);
	}
	return visited;
}

void rib_rpki_fini(struct bgp_rib *rib)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(rib->rpki.queue[af], NULL);
		rib->rpki.queue[af] = NULL;
	}
	rib->rpki.on = false;
}

/* ---- the store's watcher ---- */

static void watch_vrp(void *arg, const struct prefix *p)
{
	rib_rpki_prefix_changed(arg, p);
}

static void watch_all(void *arg)
{
	rib_rpki_all_changed(arg);
}

static const struct rpki_watch_ops rib_watch_ops = {
	.vrp_changed = watch_vrp,
	.aspa_changed = watch_all, /* any path may be affected */
	.all_changed = watch_all,
};

void rib_rpki_watch(struct bgp_rib *rib, bool on)
{
	struct rpki_db *db = rpki_db_default();

	if (!db || !rib)
		return;
	rpki_db_watch(db, on ? &rib_watch_ops : NULL, rib);
	/* Routes with an empty AS_PATH are ours: their origin is our AS (RFC 6811 2). */
	rpki_db_set_local_as(db, on ? rib->bgp->asn : 0);
}
