/* SPDX-License-Identifier: ISC */
/*
 * Adj-RIB-In and Loc-RIB: the RIB side's entry points of bgpd/core/bgp_msg.h. Layout and the
 * lifecycle of sessions are described in bgp_rib.h; output in bgp_adj_out.c; bounded work in
 * bgp_rib_work.c.
 *
 * rib_update_received() runs inline: an UPDATE holds at most about 1,000 IPv4 prefixes (16,000
 * with RFC 8654 extended messages), and per prefix it only touches the tree, the path list and
 * the journal. Everything proportional to the table size (sending to peers, removing a down
 * peer's paths) is deferred and done in batches.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_deforig.h"
#include "bgpd/rib/bgp_peer_filter.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_gr_defer.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/rib/bgp_rib_inmap.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_limit.h"
#include "lib/table.h"

DEFINE_MTYPE(BGP_RIB, "BGP RIB");
DEFINE_MTYPE(BGP_RIB_PEER, "BGP RIB peer");
DEFINE_MTYPE(BGP_RIB_SRC, "BGP RIB session");
DEFINE_MTYPE(BGP_PATH_SLAB, "BGP paths");
DEFINE_MTYPE(BGP_JOURNAL, "BGP change journal");
DEFINE_MTYPE(BGP_ADV_BITMAP, "BGP advertised-to bitmaps");
DEFINE_MTYPE(BGP_ADJ_OUT, "BGP Adj-RIB-Out");

struct bgp_slab_dir bgp_path_dir;

#define SRC_TABLE_INITIAL 64

/* ---- dests and paths ---- */

void bgp_dest_prefix(const struct bgp_dest *dest, enum bgp_af af, struct prefix *p)
{
	ptree_inline_prefix(bgp_af_family(af), dest, p);
}

static struct bgp_dest *dest_get(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p)
{
	return ptree_get_inline(rib->af[af].tree, p, NULL);
}

struct bgp_dest *rib_dest_get(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p)
{
	return dest_get(rib, af, p);
}

/* The path of src's peer in dest: its current session's, or a stale one of an earlier
 * session of the same peer (which the new one replaces); *prev is the path before it (NULL:
 * it is the head). */
static struct bgp_path *path_find(struct bgp_rib *rib, struct bgp_dest *dest,
				  const struct rib_src *src, struct bgp_path **prev)
{
	*prev = NULL;
	for (struct bgp_path *path = dest_paths(dest); path; *prev = path, path = path_next(path)) {
		const struct rib_src *ps;

		if (path->src == src->id)
			return path;
		if (!src->rp)
			continue;
		ps = rib_src_get(rib, path->src);
		if (ps && ps->rp == src->rp)
			return path;
	}
	return NULL;
}

/* What the export side looks at: the best path, its attribute and its source; and what the
 * kernel is given: the forwarding set (bgpd/rib/bgp_rib_fib.c). */
struct best_snap {
	const struct bgp_path *path;
	const struct bgp_attr *attr;
	uint32_t src;
	struct rib_fib_set fib;
};

static void best_snap(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
		      struct best_snap *s)
{
	s->path = dest_best(dest);
	s->attr = s->path ? path_attr(s->path) : NULL;
	s->src = s->path ? s->path->src : 0;
	rib_fib_set_of(rib, af, dest, &s->fib);
}

/* Re-run the decision and journal the dest when what peers would be sent changed; hand it to
 * the kernel when its forwarding set changed. */
static void dest_decide(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
			const struct best_snap *before)
{
	struct best_snap after;

	bgp_decision_run(rib, dest);
	rib_aggr_touch(rib, af, dest);
	best_snap(rib, af, dest, &after);
	/* An empty dest is journaled too: the journal frees it once every reader is past. */
	if (after.path != before->path || after.attr != before->attr || after.src != before->src ||
	    !dest_has_paths(dest))
		rib_journal_mark(rib, af, dest);
	if (rib->fib.ops && !rib_fib_set_same(&before->fib, &after.fib))
		rib_fib_sync(rib, af, dest);
}

/* Take path (after prev, NULL: the head) out of dest's list. */
static void path_unlink(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
			struct bgp_path *prev, struct bgp_path *path)
{
	struct rib_src *src = rib_src_get(rib, path->src);

	/* The selected path goes: none is selected until the decision runs (its "Older Path"
	 * rule must not take the next one for it). The mark goes with it: the new head has none. */
	bgp_path_ref ref = prev ? prev->next : dest->paths;

	path->flags &= ~PATH_F_BEST;
	if (prev)
		prev->next = path->next;
	else
		dest->paths = path->next;
	if (src)
		src->accepted[af]--;
	rib->af[af].paths--;
	if (!dest_has_paths(dest))
		rib->af[af].dests_live--;
	bgp_attr_unref(path_attr(path));
	bgp_slab_free_ref(&rib->path_slab, ref);
}

/* Store (or replace) src's path for p with attr (a reference is taken), its
 * PATH_F_IMPORT_FAILED set to import_failed (network statements; 0 for every other source): a
 * change of that flag alone re-decides too. */
static void rib_path_update_flags(struct bgp_rib *rib, enum bgp_af af, struct rib_src *src,
				  const struct prefix *p, struct bgp_attr *attr, uint32_t now,
				  uint8_t import_failed)
{
	struct bgp_dest *dest = dest_get(rib, af, p);
	struct bgp_path *prev;
	struct bgp_path *path = path_find(rib, dest, src, &prev);
	struct best_snap before;

	best_snap(rib, af, dest, &before);
	if (path) {
		if ((path->flags & PATH_F_IMPORT_FAILED) != import_failed) {
			path->flags ^= PATH_F_IMPORT_FAILED;
			path->uptime = now;
			dest_decide(rib, af, dest, &before);
			best_snap(rib, af, dest, &before);
		}
		/* Announced again: no longer stale since an enhanced route refresh's BoRR, nor
		 * long-lived stale (its new attributes come without our LLGR_STALE). */
		rib_refresh_path_updated(rib, src, af, p, path);
		if (path->src == src->id && path_attr(path) == attr)
			return; /* the same route again: nothing changes */
		if (path->src != src->id) {
			struct rib_src *old = rib_src_get(rib, path->src);

			if (old)
				old->accepted[af]--;
			src->accepted[af]++;
			path->src = src->id;
			/* The same peer's new session takes its path over (graceful restart: the
			 * stale path re-announced): not news for the other peers by itself. */
			if (before.path == path)
				before.src = src->id;
		}
		if (path_attr(path) != attr) {
			bgp_attr_unref(path_attr(path));
			path_attr_set(path, bgp_attr_ref(attr));
		}
	} else {
		struct bgp_path *best = dest_best(dest);
		bgp_path_ref ref;

		if (!dest_has_paths(dest))
			rib->af[af].dests_live++; /* new, or revived from the drain's dead */
		path = bgp_slab_alloc_ref(&rib->path_slab, &ref);
		path_attr_set(path, bgp_attr_ref(attr));
		path->src = src->id;
		/* the slab does not clear: a freed path's flags would stay */
		path->flags = import_failed;
		path->reason = 0;
		rib_refresh_path_updated(rib, src, af, p, path);
		/* Behind the selected path, which stays first (dest_best()); the others are
		 * newest first, the order FRR walks its paths in. */
		if (best) {
			path->next = best->next;
			best->next = ref;
		} else {
			path->next = dest->paths;
			dest->paths = ref;
		}
		src->accepted[af]++;
		rib->af[af].paths++;
	}
	path->uptime = now;
	dest_decide(rib, af, dest, &before);
}

/* Store (or replace) src's path for p with attr (a reference is taken). */
static void rib_path_update(struct bgp_rib *rib, enum bgp_af af, struct rib_src *src,
			    const struct prefix *p, struct bgp_attr *attr, uint32_t now)
{
	rib_path_update_flags(rib, af, src, p, attr, now, 0);
}

/* src's path in dest (found at where) goes. */
static void rib_path_withdraw_at(struct bgp_rib *rib, enum bgp_af af, struct rib_src *src,
				 struct bgp_dest *dest, const struct ptree_where *where)
{
	struct bgp_path *path, *prev;
	struct best_snap before;

	path = path_find(rib, dest, src, &prev);
	if (!path)
		return;
	best_snap(rib, af, dest, &before);
	path_unlink(rib, af, dest, prev, path);
	dest_decide(rib, af, dest, &before);
	/* Emptied: the trim frees it later, from where this descent found it. */
	if (!dest_has_paths(dest))
		rib_journal_note_where(rib, af, dest, where);
}

static void rib_path_withdraw(struct bgp_rib *rib, enum bgp_af af, struct rib_src *src,
			      const struct prefix *p)
{
	struct ptree_where where;
	struct bgp_dest *dest = ptree_lookup_where(rib->af[af].tree, p, &where);

	if (dest)
		rib_path_withdraw_at(rib, af, src, dest, &where);
}

void rib_dest_remove_src(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
			 struct rib_src *src)
{
	struct bgp_path *path, *prev = NULL;
	struct best_snap before;

	for (path = dest_paths(dest); path; prev = path, path = path_next(path))
		if (path->src == src->id)
			break;
	if (!path)
		return;
	best_snap(rib, af, dest, &before);
	path_unlink(rib, af, dest, prev, path);
	dest_decide(rib, af, dest, &before);
}

void rib_path_set_attr(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
		       struct bgp_path *path, struct bgp_attr *attr)
{
	struct best_snap before;

	if (path_attr(path) == attr)
		return;
	best_snap(rib, af, dest, &before);
	bgp_attr_unref(path_attr(path));
	path_attr_set(path, bgp_attr_ref(attr));
	dest_decide(rib, af, dest, &before);
}

/* ---- sources ---- */

static struct rib_src *src_new(struct bgp_rib *rib)
{
	struct rib_src *src;
	uint32_t id;

	/* The lowest free id: ids are bits of every dest's bitmap, inline up to 63. */
	for (id = 1; id < rib->src_cap; id++)
		if (!rib->src[id])
			break;
	if (id == rib->src_cap) {
		uint32_t ncap = rib->src_cap * 2;

		rib->src = XREALLOC(MTYPE_BGP_RIB, rib->src, ncap * sizeof(*rib->src));
		memset(rib->src + rib->src_cap, 0, (ncap - rib->src_cap) * sizeof(*rib->src));
		rib->src_cap = ncap;
	}
	src = XCALLOC(MTYPE_BGP_RIB_SRC, sizeof(*src));
	src->id = id;
	rib->src[id] = src;
	return src;
}

/* The routes as received are kept with soft-reconfiguration inbound, and when the inbound
 * route-map matches on the RPKI state: they go through it again when the RPKI data changes
 * (bgp_rib_rpki.c). */
static bool adj_in_wanted(const struct bgp_peer *peer, enum bgp_af af)
{
	return peer->conf.soft_reconfig[af] || rib_rmap_validates(peer, af, BGP_DIR_IN);
}

/* The Adj-RIB-In kept for soft-reconfiguration inbound, released. */
static int adj_in_free_cb(const struct prefix *p, void *value, void *arg)
{
	(void)p;
	(void)arg;
	bgp_attr_unref(value);
	return 0;
}

static void adj_in_drop(struct rib_src *src, enum bgp_af af)
{
	if (!src->adj_in[af])
		return;
	ptree_walk(src->adj_in[af], adj_in_free_cb, NULL);
	ptree_free(src->adj_in[af], NULL);
	src->adj_in[af] = NULL;
}

void rib_src_free(struct bgp_rib *rib, struct rib_src *src)
{
	if (src->local)
		return;
	rib_gr_src_free(rib, src);
	for (int af = 0; af < BGP_AF_MAX; af++)
		adj_in_drop(src, (enum bgp_af)af);
	rib_refresh_src_stop(src);
	rib_llgr_src_stop(src);
	rib_deforig_src_stop(src);
	adj_out_peer_down(rib, src);
	if (src->rp && src->rp->cur == src)
		src->rp->cur = NULL;
	rib->src[src->id] = NULL;
	XFREE(MTYPE_BGP_RIB_SRC, src);
}

/* ---- lifecycle ---- */

struct bgp_rib *rib_new(struct bgp *bgp, const struct bgp_session_ops *sops)
{
	struct bgp_rib *rib = XCALLOC(MTYPE_BGP_RIB, sizeof(*rib));

	rib->bgp = bgp;
	rib->sops = sops;
	rib->deforig_interval_ms = RIB_DEFORIG_INTERVAL_MS;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct rib_af *raf = &rib->af[af];

		raf->tree = ptree_new_inline(bgp_af_family(af), sizeof(struct bgp_dest));
		raf->journal.base = raf->journal.tail = raf->journal.head = 1;
		raf->journal.passed = 1;
	}
	bgp_slab_init_numbered(&rib->path_slab, MTYPE_BGP_PATH_SLAB, sizeof(struct bgp_path),
			       &bgp_path_dir);
	rib->src_cap = SRC_TABLE_INITIAL;
	rib->src = XCALLOC(MTYPE_BGP_RIB, rib->src_cap * sizeof(*rib->src));
	rib->local.id = 0;
	rib->local.local = true;
	rib->local.up = true;
	snprintf(rib->local.name, sizeof(rib->local.name), "0.0.0.0");
	rib->src[0] = &rib->local;
	TAILQ_INIT(&rib->clean_q);
	for (int af = 0; af < BGP_AF_MAX; af++)
		rib->fib.maxpaths[af][0] = rib->fib.maxpaths[af][1] = RIB_MAXPATHS;
	adj_out_init(rib);
	rib_work_init(rib);
	rib_fib_instance(rib, true);
	bgp->rib = rib;
	return rib;
}

static int dest_release_cb(const struct prefix *p, void *value, void *arg)
{
	struct bgp_rib *rib = arg;
	struct bgp_dest *dest = value;
	struct bgp_path *path;

	for (path = dest_paths(dest); path; path = path_next(path))
		bgp_attr_unref(path_attr(path));
	/* The bitmap only (no counters to keep: every source goes with the RIB). */
	if (dest->adv & 1) {
		void *map = (void *)(dest->adv & ~(uintptr_t)1);

		XFREE(MTYPE_BGP_ADV_BITMAP, map);
	}
	(void)p;
	(void)rib;
	return 0;
}

void rib_free(struct bgp_rib *rib)
{
	if (!rib)
		return;
	rib_work_fini(rib);
	rib_gr_defer_fini(rib);
	rib_rpki_fini(rib);
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *src = rib->src[id];

		if (!src)
			continue;
		if (src->rp)
			src->rp->cur = NULL;
		rib_src_free(rib, src);
	}
	rib_gr_fini(rib);
	rib_aggr_fini(rib);
	rib_deforig_fini(rib);
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct rib_af *raf = &rib->af[af];

		ptree_walk(raf->tree, dest_release_cb, rib);
		ptree_free(raf->tree, NULL);
		rib_journal_free(rib, af);
	}
	bgp_slab_fini(&rib->path_slab);
	adj_out_fini(rib);
	if (rib->bgp && rib->bgp->rib == rib)
		rib->bgp->rib = NULL;
	XFREE(MTYPE_BGP_RIB, rib->src);
	XFREE(MTYPE_BGP_RIB, rib);
}

void rib_peer_attach(struct bgp_peer *peer)
{
	struct rib_peer *rp;

	if (peer->rib)
		return;
	rp = XCALLOC(MTYPE_BGP_RIB_PEER, sizeof(*rp));
	rp->peer = peer;
	peer->rib = rp;
}

void rib_peer_detach(struct bgp_peer *peer)
{
	struct rib_peer *rp = peer->rib;
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;

	if (!rp)
		return;
	if (rp->cur)
		rib_peer_down(peer);
	/* A deleted neighbor's routes kept by graceful restart go too (FRR). */
	if (rib)
		rib_gr_flush_peer(rib, rp, NULL);
	/* Sessions still being cleaned up outlive the peer: they keep their own copy of what
	 * the show commands print. */
	if (rib) {
		for (uint32_t id = 1; id < rib->src_cap; id++) {
			struct rib_src *src = rib->src[id];

			if (src && src->rp == rp) {
				src->rp = NULL;
				src->peer = NULL;
			}
		}
	}
	XFREE(MTYPE_BGP_RIB_PEER, rp);
	peer->rib = NULL;
}

void rib_peer_up(struct bgp_peer *peer, const struct bgp_session_info *info)
{
	struct bgp_rib *rib = peer->bgp->rib;
	struct rib_src *src;

	if (!rib)
		return;
	if (!peer->rib)
		rib_peer_attach(peer);
	if (peer->rib->cur)
		rib_peer_down(peer);

	src = src_new(rib);
	src->up = true;
	src->peer = peer;
	src->rp = peer->rib;
	snprintf(src->name, sizeof(src->name), "%s", peer->name);
	src->ebgp = info->ebgp;
	src->confed = info->confed;
	src->remote_id = info->remote_id;
	src->remote_as = info->remote_as;
	src->remote_addr = info->remote_addr;
	src->local_addr = info->local_addr;
	ipaddr_unmap_v4(&src->remote_addr);
	src->codec = info->codec;
	src->enhanced_rr = info->enhanced_rr;
	src->llgr = info->llgr;
	for (int af = 0; af < BGP_AF_MAX; af++)
		src->llgr_time[af] =
			info->llgr && info->af[af] && info->llgr_af[af] ? info->llgr_time[af] : 0;
	src->max_msg = info->max_msg_size ? info->max_msg_size : 4096;
	if (src->max_msg > 65535)
		src->max_msg = 65535;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		src->af[af] = info->af[af];
		if (src->af[af] && adj_in_wanted(peer, af))
			src->adj_in[af] = ptree_new(bgp_af_family(af));
	}
	src->gr_capable = info->gr;
	src->gr_peer_restarting = info->gr_restarting;
	src->up_since = wallclock_s();
	peer->rib->cur = src;
	rib->nsessions++;
	rib_gr_peer_up(rib, src, info);
	rib_deforig_peer_up(rib, src); /* before the walk, which sends it first */
	adj_out_peer_up(rib, src);
	rib_gr_defer_check(rib); /* a peer that sends no End-of-RIB is not awaited */
	if (DEBUG_ON(BGP_DEBUG_NEIGHBOR_EVENTS))
		log_debug("%s: RIB: session %u up (%s)", peer->name, src->id,
			  src->ebgp ? "external" : "internal");
}

void rib_peer_down(struct bgp_peer *peer)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!rib || !src)
		return;
	/* Routes kept stale from an earlier loss go with this one (graceful restart ends). */
	rib_gr_flush_peer(rib, peer->rib, src);
	peer->rib->cur = NULL;
	src->up = false;
	rib->nsessions--;
	for (int af = 0; af < BGP_AF_MAX; af++)
		adj_in_drop(src, (enum bgp_af)af);
	rib_refresh_src_stop(src);
	adj_out_peer_down(rib, src);
	/* Its paths are now invalid (bgp_path_valid()); the cleanup walk removes them and the
	 * session's bits in bounded batches, then frees src. */
	rib_cleanup_start(rib, src);
	rib_gr_defer_check(rib);
}

void rib_peer_down_graceful(struct bgp_peer *peer)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!rib || !src)
		return;
	if (!rib_gr_session_lost(rib, src)) {
		rib_peer_down(peer);
		return;
	}
	for (int af = 0; af < BGP_AF_MAX; af++)
		adj_in_drop(src, (enum bgp_af)af);
	/* A refresh under way ends with the session, its marks left alone. */
	rib_refresh_src_stop(src);
}

void rib_peer_gr_flush(struct bgp_peer *peer)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;

	if (rib && peer->rib)
		rib_gr_flush_peer(rib, peer->rib, peer->rib->cur);
}

/* ---- UPDATE input ---- */

/* RFC 4271 9.1.2: our own AS (or our confederation's identifier) in the AS_PATH is a loop,
 * unless the neighbor's allowas-in lets it appear that many times (or as the origin). */
static bool as_loop(const struct bgp *bgp, const struct rib_src *src, enum bgp_af af,
		    const struct bgp_aspath *path)
{
	uint8_t allow = src->peer ? src->peer->conf.allowas_in[af] : 0;

	/* RFC 5065 6.2: the confederation's identifier is ours too (FRR checks both). */
	if (bgp->confed_id && path && bgp_aspath_contains(path, bgp->confed_id) &&
	    (allow == BGP_ALLOWAS_ORIGIN ? bgp_aspath_origin_as(path) != bgp->confed_id
					 : bgp_aspath_count_as(path, bgp->confed_id) > allow))
		return true;
	if (!path || !bgp_aspath_contains(path, bgp->asn))
		return false;
	if (allow == BGP_ALLOWAS_ORIGIN)
		return bgp_aspath_origin_as(path) != bgp->asn;
	return bgp_aspath_count_as(path, bgp->asn) > allow;
}

/* neighbor X local-as AS (FRR): the path as received with AS prepended, unless no-prepend
 * (a new reference), or NULL when nothing is to change. */
static struct bgp_aspath *local_as_prepend(const struct rib_src *src, const struct bgp_aspath *path)
{
	const struct bgp_peer_config *c = src->peer ? &src->peer->conf : NULL;

	if (!c || !c->local_as || c->local_as_no_prepend || !src->ebgp)
		return NULL;
	return bgp_aspath_prepend((struct bgp_aspath *)path, c->local_as);
}

/* FRR's local-as loop check: the local AS may appear once more than allowas-in allows when
 * it was prepended here (counted after the prepend, as FRR). */
static bool local_as_loop(const struct rib_src *src, enum bgp_af af, const struct bgp_aspath *path)
{
	const struct bgp_peer_config *c = src->peer ? &src->peer->conf : NULL;
	bool prepend;
	uint32_t n, allow;

	if (!c || !c->local_as || !src->ebgp || !path)
		return false;
	prepend = !c->local_as_no_prepend;
	n = bgp_aspath_count_as(path, c->local_as) + (prepend ? 1 : 0);
	allow = c->allowas_in[af] && c->allowas_in[af] != BGP_ALLOWAS_ORIGIN ? c->allowas_in[af]
		: prepend						     ? 1
									     : 0;
	return n > allow;
}

/*
 * The attribute set stored for the announced prefixes of one UPDATE (attr as received, NULL
 * when treat-as-withdraw), or NULL when they must be treated as withdrawn (why says why).
 * Returns a reference.
 */
static struct bgp_attr *in_attr(struct bgp_rib *rib, struct rib_src *src,
				const struct bgp_attr *attr, enum bgp_af af, uint32_t *why)
{
	struct bgp *bgp = rib->bgp;
	struct bgp_aspath *prepended;

	if (!attr) {
		*why = 1;
		return NULL;
	}
	/* The setting of the first family announced decides for the whole UPDATE (one
	 * attribute set); FRR checks every peer, iBGP too. */
	if (as_loop(bgp, src, af, attr->aspath)) {
		*why = 2;
		return NULL;
	}
	if (local_as_loop(src, af, attr->aspath)) {
		*why = 2;
		return NULL;
	}
	/* RFC 4456 8: our cluster id in the CLUSTER_LIST: the route went round the cluster. */
	if (!src->ebgp && (attr->present & ATTR_BIT(BGP_ATTR_CLUSTER_LIST)) &&
	    bgp_u32list_contains(bgp_attr_ex(attr)->cluster_list,
				 ntohl(bgp->cluster_id.s_addr ? bgp->cluster_id.s_addr
							      : bgp->router_id.s_addr))) {
		*why = 4;
		return NULL;
	}
	/* RFC 4456 8: our own ORIGINATOR_ID coming back over iBGP. */
	if (!src->ebgp && (attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)) &&
	    bgp_attr_ex(attr)->originator_id.s_addr == bgp->router_id.s_addr) {
		*why = 3;
		return NULL;
	}
	/* RFC 4271 5.1.5: LOCAL_PREF from an external peer is ignored; the stored copy lacks it,
	 * so the show commands print no LocPrf, as FRR. Weight is ours alone. */
	prepended = local_as_prepend(src, attr->aspath);
	if ((src->ebgp && (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))) ||
	    bgp_attr_weight(attr) != 0 || prepended) {
		struct bgp_attr tmpl = *attr, *stored;
		struct bgp_attr_extra ex;

		if (src->ebgp) {
			tmpl.present &= ~ATTR_BIT(BGP_ATTR_LOCAL_PREF);
			tmpl.local_pref = 0;
		}
		bgp_attr_set_weight(&tmpl, &ex, 0);
		if (prepended) {
			tmpl.aspath = prepended;
			tmpl.present |= ATTR_BIT(BGP_ATTR_AS_PATH);
		}
		stored = bgp_attr_intern(&tmpl);
		bgp_aspath_unref(prepended);
		return stored;
	}
	return bgp_attr_ref((struct bgp_attr *)attr);
}

/*
 * RFC 7999 3.2: a route from an eBGP neighbor tagged BLACKHOLE gets NO_EXPORT, so that it
 * stays in the AS, as FRR 8.4 does after the inbound route-map (not for iBGP-learned routes:
 * the lab scenario policy_lcomm saw FRR add it only over eBGP). A new reference to what is to
 * be stored.
 */
static struct bgp_attr *blackhole_no_export(const struct rib_src *src, struct bgp_attr *a)
{
	const struct bgp_u32list *c = a->communities;
	struct bgp_attr t;
	uint32_t *v, n;

	if (!src->ebgp || !bgp_u32list_contains(c, BGP_COMM_BLACKHOLE) ||
	    bgp_u32list_contains(c, BGP_COMM_NO_EXPORT))
		return bgp_attr_ref(a);
	v = XMALLOC(MTYPE_BGP_RIB, ((size_t)c->count + 1) * sizeof(*v));
	memcpy(v, c->val, c->count * sizeof(*v));
	v[c->count] = BGP_COMM_NO_EXPORT;
	n = bgp_comm_sort_uniq(v, c->count + 1);
	t = *a;
	t.communities = bgp_u32list_intern(v, n);
	XFREE(MTYPE_BGP_RIB, v);
	a = bgp_attr_intern(&t);
	bgp_u32list_unref(t.communities);
	return a;
}

/* A received path through the neighbor's inbound route-map: stored with its set statements,
 * or withdrawn (filtered) when denied. memo (NULL: none) holds what the map made of this
 * UPDATE's attributes for its earlier prefixes (bgp_rib_inmap.c). */
static void rib_path_update_mapped(struct bgp_rib *rib, enum bgp_af af, struct rib_src *src,
				   const struct prefix *p, const struct bgp_attr *stored,
				   const char *rmap, uint32_t now, struct rib_inmap_memo *memo)
{
	struct bgp_attr t = *stored, *mapped, *kept;
	struct rmap_refs refs;
	struct rmap_ctx cbuf;
	const struct rmap_ctx *ctx = rib_rmap_ctx(src, &cbuf);
	const struct rmap_entry *one = NULL;
	enum rmap_one how = memo ? route_map_decide_one(rmap, p, stored, ctx, &one) : RMAP_ONE_MORE;
	bool permitted;

	if (how == RMAP_ONE_PERMIT && (kept = rib_inmap_memo_find(memo, one))) {
		rib_path_update(rib, af, src, p, kept, now);
		bgp_attr_unref(kept);
		return;
	}
	if (how == RMAP_ONE_MORE) {
		permitted = route_map_apply_ctx(rmap, p, &t, &refs, ctx);
	} else {
		permitted = how == RMAP_ONE_PERMIT;
		if (permitted)
			route_map_entry_apply(one, p, ctx, &t, &refs);
		else
			refs = (struct rmap_refs){ 0 };
	}
	if (!permitted) {
		route_map_refs_release(&refs);
		src->in_stats.filtered++;
		rib_path_withdraw(rib, af, src, p);
		return;
	}
	mapped = bgp_attr_intern(&t);
	route_map_refs_release(&refs);
	kept = blackhole_no_export(src, mapped);
	bgp_attr_unref(mapped);
	if (how == RMAP_ONE_PERMIT)
		rib_inmap_memo_add(memo, one, kept);
	rib_path_update(rib, af, src, p, kept, now);
	bgp_attr_unref(kept);
}

/* FRR's words: at most once every 15 minutes per instance, as FRR, and naming the neighbor,
 * the family and the way to turn the rule off, which FRR's does not. */
#define POLICY_WARN_INTERVAL_MS (15 * 60 * 1000)

void rib_policy_missing_warn(struct bgp_rib *rib, const struct rib_src *src, enum bgp_af af,
			     enum bgp_dir dir)
{
	struct bgp *bgp = rib->bgp;
	uint64_t now = monotime_ms();

	if (bgp->ebgp_policy_warned_ms &&
	    now - bgp->ebgp_policy_warned_ms < POLICY_WARN_INTERVAL_MS)
		return;
	bgp->ebgp_policy_warned_ms = now ? now : 1;
	log_warn("EBGP inbound/outbound policy not properly setup, please configure in order for "
		 "your peering to work correctly (%s: no %s policy for %s, its %s are discarded "
		 "(RFC 8212); configure a route-map, prefix-list or filter-list %s, or `no bgp "
		 "ebgp-requires-policy`)",
		 src->name, dir == BGP_DIR_IN ? "inbound" : "outbound",
		 af == BGP_AF_IPV4_UNICAST ? "IPv4 Unicast" : "IPv6 Unicast",
		 dir == BGP_DIR_IN ? "updates received" : "updates to send",
		 dir == BGP_DIR_IN ? "in" : "out");
}

/* One announced prefix of a session through the inbound policy into the RIB: stored holds
 * what in_attr() made of the attributes (NULL: refused for `why`), aspath_denied the
 * filter-list's verdict on them. */
static void rib_in_prefix(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
			  const struct prefix *p, struct bgp_attr *stored, bool aspath_denied,
			  uint32_t why, uint32_t now, struct rib_inmap_memo *memo)
{
	struct bgp_peer *peer = src->peer;
	const char *rmap = peer ? peer->conf.rmap[af][BGP_DIR_IN] : NULL;

	if (stored && peer &&
	    bgp_peer_policy_missing(peer, src->ebgp || src->confed, af, BGP_DIR_IN)) {
		/* RFC 8212: discarded, not counted as filtered (FRR); withdrawn in case it came
		 * in before the rule applied. */
		rib_policy_missing_warn(rib, src, af, BGP_DIR_IN);
		rib_path_withdraw(rib, af, src, p);
		return;
	}
	if (stored && peer && (aspath_denied || !bgp_peer_plist_permits(peer, af, BGP_DIR_IN, p))) {
		/* Filtered: as if withdrawn, in case an earlier policy let it in. */
		src->in_stats.filtered++;
		rib_path_withdraw(rib, af, src, p);
		return;
	}
	if (stored && rmap) {
		rib_path_update_mapped(rib, af, src, p, stored, rmap, now, memo);
		return;
	}
	if (stored) {
		struct bgp_attr *a = blackhole_no_export(src, stored);

		rib_path_update(rib, af, src, p, a, now);
		bgp_attr_unref(a);
		return;
	}
	if (why == 1)
		src->in_stats.treat_as_withdraw++;
	else if (why == 2)
		src->in_stats.as_loop++;
	else if (why == 4)
		src->in_stats.cluster_loop++;
	else
		src->in_stats.originator_loop++;
	rib_path_withdraw(rib, af, src, p);
}

static void max_prefix_check(struct rib_src *src, enum bgp_af af);

/* ---- soft-reconfiguration inbound: the Adj-RIB-In as received ---- */

/* Keep (attr) or forget (NULL) what the peer said about p, when it is kept at all. */
static void adj_in_set(struct rib_src *src, enum bgp_af af, const struct prefix *p,
		       struct bgp_attr *attr)
{
	void **slot, *old;

	if (!src->adj_in[af])
		return;
	/* Announced or withdrawn since the BoRR: not forgotten at the EoRR. */
	rib_refresh_touched(src, af, p);
	if (!attr) {
		old = ptree_delete(src->adj_in[af], p);
		bgp_attr_unref(old);
		return;
	}
	slot = ptree_get(src->adj_in[af], p);
	old = *slot;
	*slot = bgp_attr_ref(attr);
	bgp_attr_unref(old);
}

struct soft_in {
	struct bgp_rib *rib;
	struct rib_src *src;
	enum bgp_af af;
	uint32_t now;
};

void rib_in_rerun(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, const struct prefix *p,
		  const struct bgp_attr *received, uint32_t now)
{
	uint32_t why = 0;
	struct bgp_attr *stored = in_attr(rib, src, received, af, &why);
	bool aspath_denied = stored && src->peer &&
			     !bgp_peer_aspath_permits(src->peer, af, BGP_DIR_IN, stored->aspath);

	/* Not an announcement: an enhanced route refresh's marks stay (bgp_rib_refresh.c). */
	rib->rerun = true;
	rib_in_prefix(rib, src, af, p, stored, aspath_denied, why, now, NULL);
	rib->rerun = false;
	bgp_attr_unref(stored);
}

static int soft_in_cb(const struct prefix *p, void *value, void *arg)
{
	struct soft_in *si = arg;

	rib_in_rerun(si->rib, si->src, si->af, p, value, si->now);
	return 0;
}

bool rib_soft_reconfig_in(struct bgp_peer *peer, enum bgp_af af)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;
	struct soft_in si;

	if (!rib || !src || !src->up || !src->adj_in[af])
		return false;
	si.rib = rib;
	si.src = src;
	si.af = af;
	si.now = (uint32_t)wallclock_s();
	ptree_walk(src->adj_in[af], soft_in_cb, &si);
	max_prefix_check(src, af);
	return true;
}

bool rib_adj_in_update(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!src || !src->up || !src->af[af])
		return false;
	if (!adj_in_wanted(peer, af)) {
		adj_in_drop(src, af);
		return false;
	}
	if (src->adj_in[af])
		return false;
	/* Kept from now on; what the peer sent before comes again with a refresh. */
	src->adj_in[af] = ptree_new(bgp_af_family(af));
	rib_sops(peer)->send_route_refresh(peer, af);
	return true;
}

bool rib_adj_in_kept(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && src->adj_in[af];
}

void rib_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af)
{
	rib_adj_in_update(peer, af);
}

const struct ptree *rib_adj_in(const struct rib_src *src, enum bgp_af af)
{
	return src->adj_in[af];
}

/* neighbor X maximum-prefix: FRR's bgp_maximum_prefix_overflow() on the accepted count, with
 * its log lines (at warning level here: an operator set the limit to hear about it). */
static void max_prefix_check(struct rib_src *src, enum bgp_af af)
{
	const struct bgp_maxpfx *m = src->peer ? &src->peer->conf.maxpfx[af] : NULL;
	const char *afname = af == BGP_AF_IPV4_UNICAST ? "IPv4 Unicast" : "IPv6 Unicast";
	uint32_t n = src->accepted[af];

	if (!m || !m->max || !src->up)
		return;
	if (n > m->max) {
		if (src->pfx_over[af])
			return;
		src->pfx_over[af] = true;
		log_warn_limited(
			"%%MAXPFXEXCEED: No. of %s prefix received from %s %u exceed, limit %u",
			afname, src->name, n, m->max);
		if (!m->warning_only)
			rib_sops(src->peer)->max_prefix_exceeded(src->peer, af, m->max);
		return;
	}
	src->pfx_over[af] = false;
	if (n > (uint64_t)m->max * m->threshold / 100) {
		if (src->pfx_warned[af])
			return;
		src->pfx_warned[af] = true;
		log_warn_limited("%%MAXPFX: No. of %s prefix received from %s reaches %u, max %u",
				 afname, src->name, n, m->max);
		return;
	}
	src->pfx_warned[af] = false;
}

void rib_src_max_prefix_check(struct rib_src *src, enum bgp_af af)
{
	max_prefix_check(src, af);
}

void rib_max_prefix_check(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (src && (unsigned)af < BGP_AF_MAX) {
		/* A new limit is judged afresh, warnings included (FRR's `always`). */
		src->pfx_over[af] = src->pfx_warned[af] = false;
		max_prefix_check(src, af);
	}
}

/* A received UPDATE's withdrawn prefixes, in order, taken WITHDRAW_GROUP at a time so that
 * the tree descents of a group are fetched together (ptree_prefetch()): withdrawals of a
 * table come far apart in the tree, and each descent was a cache miss per level, the
 * largest part of a withdrawal's cost. */
#define WITHDRAW_GROUP 16

/* Does the next withdrawal group look its prefixes up by the tree's exact-match index? A run
 * of withdrawals without an announcement, a sixteenth of an IPv4 table of the directory's
 * size (ptree_index_make() makes none for a smaller one), is a table
 * being withdrawn: it makes the index (ptree_index_make(): 4.7 bytes a prefix, dropped with
 * the tree's bulk reclaim or below the directory's threshold), a probe, the slot then the
 * node, instead of a descent of 16 to 32 misses. The deletes that would need the descents'
 * notes do not happen meanwhile: the draining table keeps its emptied dests
 * (bgp_rib_drain.c). A few withdrawals in ordinary churn never make it; IPv6 keeps the
 * descents: its peak memory has nothing to spare for the index. */
static bool withdraw_by_index(struct bgp_rib *rib, enum bgp_af af)
{
	struct rib_af *raf = &rib->af[af];

	if (af != BGP_AF_IPV4_UNICAST)
		return false;
	if (ptree_index_slots(raf->tree))
		return true;
	return raf->withdrawn_run >= ptree_count(raf->tree) / 16 && ptree_index_make(raf->tree);
}

static void rib_withdrawn_received(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
				   struct stream *it)
{
	struct prefix group[WITHDRAW_GROUP];
	struct bgp_dest *dest[WITHDRAW_GROUP];
	void *found[WITHDRAW_GROUP];
	struct ptree_where where[WITHDRAW_GROUP];
	struct bgp_path *path, *prev;
	size_t n;

	do {
		for (n = 0; n < WITHDRAW_GROUP && bgp_nlri_next(it, af, &group[n]); n++)
			;
		/* The withdrawal's lookups descend (they note the way for the delete), the
		 * group's together, once. Each withdrawal releases its path's attribute set: the
		 * path, then the set, were two dependent cache misses per withdrawal, one
		 * withdrawal after the other. The group's lookups first, loading every path, then
		 * every set: their misses overlap. The dests stay valid meanwhile (only the
		 * journal's trim frees one). */
		rib->af[af].withdrawn_run += n;
		if (withdraw_by_index(rib, af)) {
			/* No notes: the trim's deletes descend (fetched ahead there). */
			ptree_lookup_group(rib->af[af].tree, group, n, found);
			memset(where, 0, n * sizeof(where[0]));
		} else {
			ptree_lookup_where_group(rib->af[af].tree, group, n, found, where);
		}
		for (size_t i = 0; i < n; i++) {
			dest[i] = found[i];
			if (dest[i] && dest_has_paths(dest[i]))
				__builtin_prefetch(dest_paths(dest[i]));
		}
		for (size_t i = 0; i < n; i++)
			if (dest[i] && (path = path_find(rib, dest[i], src, &prev)))
				bgp_attr_prefetch_release(path_attr(path));
		for (size_t i = 0; i < n; i++) {
			adj_in_set(src, af, &group[i], NULL);
			if (dest[i])
				rib_path_withdraw_at(rib, af, src, dest[i], &where[i]);
		}
	} while (n == WITHDRAW_GROUP);
}

/* A received UPDATE's announced prefixes, in order, ANNOUNCE_GROUP at a time with their tree
 * descents fetched together, as for withdrawals: an attribute set's prefixes are often far
 * apart in the tree (a table's 2 or 3 per set), each descent a cache miss per level. */
#define ANNOUNCE_GROUP 16

static void rib_announced_received(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
				   struct bgp_update *upd, struct bgp_attr *stored,
				   bool aspath_denied, uint32_t why, uint32_t now,
				   struct rib_inmap_memo *memo)
{
	struct prefix group[ANNOUNCE_GROUP];
	size_t n;

	rib->af[af].withdrawn_run = 0; /* not a table's withdrawal (withdraw_by_index()) */
	do {
		for (n = 0; n < ANNOUNCE_GROUP && bgp_nlri_next(&upd->announced[af], af, &group[n]);
		     n++)
			;
		ptree_prefetch(rib->af[af].tree, group, n);
		for (size_t i = 0; i < n; i++) {
			adj_in_set(src, af, &group[i], upd->treat_as_withdraw ? NULL : upd->attr);
			rib_in_prefix(rib, src, af, &group[i], stored, aspath_denied, why, now,
				      memo);
		}
	} while (n == ANNOUNCE_GROUP);
}

void rib_prefetch(struct bgp_peer *peer, const struct bgp_update_peek *pk)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;

	if (!rib || !peer->rib || !peer->rib->cur)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++)
		ptree_prefetch(rib->af[af].tree, pk->p[af], pk->n[af]);
}

void rib_update_received(struct bgp_peer *peer, struct bgp_update *upd)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;
	struct bgp_attr *stored = NULL;
	bool stored_done = false, aspath_denied;
	uint32_t why = 0;
	uint32_t now;
	struct bgp_update sub;
	struct rib_inmap_memo memo;

	/* RFC 7606 5.1: IPv4 prefixes of MP_REACH_NLRI whose next hop differs from NEXT_HOP's
	 * (in an UPDATE that also uses the NLRI field) come as an UPDATE of their own. */
	if (bgp_update_take_mp4(upd, &sub))
		rib_update_received(peer, &sub);

	if (!rib || !src || !src->up) {
		bgp_update_release(upd);
		return;
	}
	now = (uint32_t)wallclock_s();
	for (int af = 0; af < BGP_AF_MAX; af++) {
		/* Families not negotiated with this peer are ignored (the codec decodes all). */
		if (!src->af[af])
			continue;
		if (upd->end_of_rib[af]) {
			src->eor_rcvd[af] = true;
			rib_gr_eor(rib, src, af);
		}
		if (upd->has_withdrawn[af])
			rib_withdrawn_received(rib, src, af, &upd->withdrawn[af]);
		if (!upd->has_announced[af])
			continue;
		if (!stored_done) {
			stored = in_attr(rib, src, upd->treat_as_withdraw ? NULL : upd->attr, af,
					 &why);
			stored_done = true;
		}
		/* The AS path is the same for every prefix of the UPDATE: one decision. */
		aspath_denied =
			stored && !bgp_peer_aspath_permits(peer, af, BGP_DIR_IN, stored->aspath);
		rib_inmap_memo_init(&memo);
		rib_announced_received(rib, src, af, upd, stored, aspath_denied, why, now, &memo);
		rib_inmap_memo_release(&memo);
		max_prefix_check(src, af);
	}
	if (upd->end_of_rib[BGP_AF_IPV4_UNICAST] || upd->end_of_rib[BGP_AF_IPV6_UNICAST])
		rib_gr_defer_check(rib);
	if (stored_done && !stored && why == 2 && DEBUG_ON(BGP_DEBUG_UPDATES_IN))
		log_debug("%s: rcvd UPDATE with our AS %u in AS_PATH: routes treated as withdrawn",
			  peer->name, rib->bgp->asn);
	bgp_attr_unref(stored);
	bgp_update_release(upd);
}

void rib_route_refresh_received(struct bgp_peer *peer, enum bgp_af af)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!rib || !src || af >= BGP_AF_MAX)
		return;
	adj_out_refresh(rib, src, af, src->enhanced_rr);
}

void rib_resend(struct bgp_peer *peer, enum bgp_af af)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!rib || !src || af >= BGP_AF_MAX)
		return;
	adj_out_refresh(rib, src, af, false);
}

void rib_peer_writable(struct bgp_peer *peer)
{
	struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!rib || !src)
		return;
	src->blocked = false;
	rib_work_schedule(rib);
}

/* ---- network statements and redistribution ---- */

void rib_local_template(enum bgp_af af, uint8_t origin, uint32_t med, struct bgp_attr *tmpl,
			struct bgp_attr_extra *ex)
{
	/* As FRR's bgp_static_update() / bgp_redistribute_add(): empty AS_PATH, MED, weight
	 * 32768, next hop 0.0.0.0 / ::, no LOCAL_PREF (the default applies). The template holds
	 * a reference to the empty path: the caller releases tmpl->aspath. */
	memset(tmpl, 0, sizeof(*tmpl));
	tmpl->origin = origin;
	tmpl->aspath = bgp_aspath_empty();
	tmpl->present =
		ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) | ATTR_BIT(BGP_ATTR_MED);
	if (af == BGP_AF_IPV4_UNICAST)
		tmpl->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
	else
		bgp_attr_set_mp_nh(tmpl, ex, 16, NULL, NULL);
	tmpl->med = med;
	bgp_attr_set_weight(tmpl, ex, BGP_WEIGHT_LOCAL);
}

static struct bgp_attr *local_attr(enum bgp_af af)
{
	struct bgp_attr tmpl;
	struct bgp_attr_extra ex;
	struct bgp_attr *attr;

	rib_local_template(af, BGP_ORIGIN_IGP, 0, &tmpl, &ex);
	attr = bgp_attr_intern(&tmpl);
	bgp_aspath_unref(tmpl.aspath);
	return attr;
}

void rib_local_set(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p,
		   struct bgp_attr *attr)
{
	rib_path_update(rib, af, &rib->local, p, attr, (uint32_t)wallclock_s());
}

void rib_local_del(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p)
{
	rib_path_withdraw(rib, af, &rib->local, p);
}

void rib_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	rib_network_set(bgp, af, p, NULL, true);
}

void rib_network_set(struct bgp *bgp, enum bgp_af af, const struct prefix *p, struct bgp_attr *attr,
		     bool import_ok)
{
	struct bgp_rib *rib = bgp->rib;
	struct bgp_attr *own = NULL;
	struct prefix q = *p;

	if (!rib || af >= BGP_AF_MAX || p->family != bgp_af_family(af))
		return;
	prefix_apply_mask(&q);
	if (!attr)
		attr = own = local_attr(af);
	rib_path_update_flags(rib, af, &rib->local, &q, attr, (uint32_t)wallclock_s(),
			      import_ok ? 0 : PATH_F_IMPORT_FAILED);
	bgp_attr_unref(own);
}

void rib_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_rib *rib = bgp->rib;
	struct prefix q = *p;

	if (!rib || af >= BGP_AF_MAX || p->family != bgp_af_family(af))
		return;
	prefix_apply_mask(&q);
	rib_path_withdraw(rib, af, &rib->local, &q);
}

/* ---- counters ---- */

uint32_t rib_peer_accepted(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && af < BGP_AF_MAX ? src->accepted[af] : 0;
}

uint32_t rib_peer_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && af < BGP_AF_MAX ? src->sent[af] : 0;
}

bool rib_peer_eor_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && af < BGP_AF_MAX && src->out[af].eor_sent;
}

bool rib_peer_eor_rcvd(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && af < BGP_AF_MAX && src->eor_rcvd[af];
}

uint64_t rib_af_table_version(const struct bgp *bgp, enum bgp_af af)
{
	if (!bgp || !bgp->rib || af >= BGP_AF_MAX)
		return 0;
	return rib_af_version(bgp->rib, af);
}

size_t rib_af_count(const struct bgp *bgp, enum bgp_af af)
{
	if (!bgp || !bgp->rib || af >= BGP_AF_MAX)
		return 0;
	/* Not the tree's count: emptied dests wait there for the drain's reclaim. */
	return (size_t)bgp->rib->af[af].dests_live;
}

size_t rib_af_memory(const struct bgp *bgp, enum bgp_af af)
{
	if (!bgp || !bgp->rib || af >= BGP_AF_MAX)
		return 0;
	/* Every node the tree holds, the drain's dead ones too: their bytes are held. */
	return ptree_count(bgp->rib->af[af].tree) * ptree_entry_size(bgp->rib->af[af].tree);
}

uint64_t rib_table_version(const struct bgp *bgp)
{
	uint64_t v = 0;

	for (int af = 0; af < BGP_AF_MAX; af++)
		v += rib_af_table_version(bgp, af);
	return v;
}

size_t rib_memory(const struct bgp_rib *rib)
{
	size_t total = bgp_slab_memory(&rib->path_slab);

	for (int af = 0; af < BGP_AF_MAX; af++) {
		const struct rib_af *raf = &rib->af[af];

		total += ptree_memory(raf->tree);
		total += (size_t)raf->journal.nchunk * RIB_JCHUNK * sizeof(struct bgp_dest *);
		total += (size_t)raf->journal.nwhere * RIB_JCHUNK * sizeof(struct ptree_where);
	}
	return total;
}
