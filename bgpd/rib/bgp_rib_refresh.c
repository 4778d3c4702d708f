/* SPDX-License-Identifier: ISC */
/*
 * Enhanced route refresh (RFC 7313), the receiving side: what a peer re-announces between its
 * BoRR and its EoRR for a family replaces what it had; what it does not is removed at the
 * EoRR, so a route the peer dropped from its table while we were not told (a lost WITHDRAW, a
 * policy change on its side) goes too.
 *
 * Each (session, family) goes through phases, and the table walks they need are bounded per
 * loop turn like the RIB's other walks (bgp_rib_work.c calls rib_refresh_run()):
 *
 *   IDLE ──BoRR──> MARKING ──walk done──> OPEN ──EoRR──> SWEEPING ──walk done──> IDLE
 *                     └───── EoRR during the walk: SWEEPING once marked ─────┘
 *
 *   - MARKING: a walk in prefix order gives each path of the session PATH_F_STALE (still
 *     used and advertised: RFC 7313 4 keeps stale routes until the EoRR). A path announced
 *     while the walk is under way is fresh: if the walk is already past its prefix, the
 *     announcement cleared the mark (bgp_rib.c); if not, it got PATH_F_RR_SEEN, which the walk
 *     clears instead of marking. So SEEN is only ever set ahead of the walk and none is left
 *     when it ends.
 *   - SWEEPING: a walk removes the paths still marked (decision, journal, kernel as for a
 *     withdrawal); announcements during it clear marks as usual. Then, when the routes are
 *     kept as received (soft-reconfiguration inbound), a walk of that Adj-RIB-In forgets the
 *     prefixes the peer neither announced nor withdrew since the BoRR (rr_seen lists those it
 *     did, from the BoRR until this walk ends).
 *   - No EoRR: as FRR does, a timer of the instance's stalepath-time (bgp graceful-restart
 *     stalepath-time, 360 s by default) ends the refresh as an EoRR would, with a log line.
 *     RFC 7313 4 leaves the time to the implementation.
 *   - A BoRR before the previous round is over starts a new one: the walk under way (marking
 *     or sweeping) is finished at once first, which only a peer that refreshes twice within
 *     one walk makes happen.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_af.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

/* A timer may fire a little before its deadline by the monotonic clock's reading. */
#define TIMER_SLACK_MS 5

static struct rib_src *refresh_src(const struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!peer->bgp || !peer->bgp->rib || !src || !src->up || (unsigned)af >= BGP_AF_MAX ||
	    !src->af[af])
		return NULL;
	return src;
}

/* The session's path of dest (its own id only: paths of an earlier session of the same peer,
 * kept by graceful restart, are not this refresh's business). */
static struct bgp_path *src_path(struct bgp_dest *dest, const struct rib_src *src)
{
	for (struct bgp_path *path = dest_paths(dest); path; path = path_next(path))
		if (path->src == src->id)
			return path;
	return NULL;
}

/* ---- the walks ---- */

static void walk_reset(struct rib_src *src, enum bgp_af af, enum rib_rr_phase phase)
{
	src->rr_phase[af] = (uint8_t)phase;
	src->rr_started[af] = false;
	src->rr_adj_in_stage[af] = false;
}

/* The next prefix of the walk over tree (NULL at its end). */
static void *walk_next(struct rib_src *src, enum bgp_af af, const struct ptree *tree,
		       struct prefix *p)
{
	void *v =
		src->rr_started[af] ? ptree_next(tree, &src->rr_last[af], p) : ptree_first(tree, p);

	src->rr_started[af] = true;
	if (v)
		src->rr_last[af] = *p;
	return v;
}

static void refresh_done(struct rib_src *src, enum bgp_af af)
{
	walk_reset(src, af, RIB_RR_IDLE);
	if (src->rr_seen[af]) {
		ptree_free(src->rr_seen[af], NULL);
		src->rr_seen[af] = NULL;
	}
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, src->peer,
		       "enhanced route refresh of %s done: %u stale paths removed",
		       bgp_af_text_name(af), src->rr_removed[af]);
}

/* One step of src's walk of af (budget prefixes at most); returns the prefixes visited. */
static size_t walk_run(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, size_t budget)
{
	struct ptree *tree = rib->af[af].tree;
	size_t visited = 0;
	struct prefix p;

	while (visited < budget) {
		enum rib_rr_phase phase = src->rr_phase[af];

		if (phase == RIB_RR_MARKING) {
			struct bgp_dest *d = walk_next(src, af, tree, &p);
			struct bgp_path *path;

			if (!d) {
				walk_reset(src, af,
					   src->rr_eorr[af] ? RIB_RR_SWEEPING : RIB_RR_OPEN);
				continue;
			}
			visited++;
			if (!(path = src_path(d, src)))
				continue;
			if (path->flags & PATH_F_RR_SEEN)
				path->flags &= ~PATH_F_RR_SEEN; /* announced since the BoRR */
			else
				path->flags |= PATH_F_STALE;
		} else if (phase == RIB_RR_SWEEPING && !src->rr_adj_in_stage[af]) {
			struct bgp_dest *d = walk_next(src, af, tree, &p);
			struct bgp_path *path;

			if (!d) {
				src->rr_started[af] = false;
				src->rr_adj_in_stage[af] = true;
				continue;
			}
			visited++;
			path = src_path(d, src);
			if (path && (path->flags & PATH_F_STALE)) {
				rib_dest_remove_src(rib, af, d, src);
				src->rr_removed[af]++;
			}
		} else if (phase == RIB_RR_SWEEPING) {
			/* The routes kept as received: forget what the peer did not send again. */
			void *kept =
				src->adj_in[af] ? walk_next(src, af, src->adj_in[af], &p) : NULL;

			if (!kept) {
				refresh_done(src, af);
				break;
			}
			visited++;
			if (!src->rr_seen[af] || !ptree_lookup(src->rr_seen[af], &p))
				bgp_attr_unref(ptree_delete(src->adj_in[af], &p));
		} else {
			break; /* IDLE or OPEN: nothing to walk */
		}
	}
	return visited;
}

static bool walking(const struct rib_src *src, enum bgp_af af)
{
	return src->rr_phase[af] == RIB_RR_MARKING || src->rr_phase[af] == RIB_RR_SWEEPING;
}

bool rib_refresh_pending(const struct bgp_rib *rib)
{
	return rib_src_af_walk_pending(rib, walking);
}

size_t rib_refresh_run(struct bgp_rib *rib, size_t budget)
{
	return rib_src_af_walk_run(rib, walking, walk_run, budget);
}

/* ---- the timer ---- */

static void refresh_timer_cb(int fd, short what, void *arg);

static void refresh_timer_arm(struct bgp_rib *rib, struct rib_src *src)
{
	uint64_t next = 0, now = monotime_ms();

	for (int af = 0; af < BGP_AF_MAX; af++)
		if ((src->rr_phase[af] == RIB_RR_MARKING || src->rr_phase[af] == RIB_RR_OPEN) &&
		    !src->rr_eorr[af] && (!next || src->rr_deadline_ms[af] < next))
			next = src->rr_deadline_ms[af];
	if (!next) {
		if (src->rr_ev)
			event_del(src->rr_ev);
		return;
	}
	if (!src->rr_ev && rib->bgp->base)
		src->rr_ev = event_timer_new(rib->bgp->base, refresh_timer_cb, src);
	if (src->rr_ev)
		event_timer_add(src->rr_ev,
				(uint32_t)MIN(next > now ? next - now : 0, (uint64_t)UINT32_MAX),
				0);
}

/* The EoRR came (or stands in for it): sweep once marked. */
static void refresh_end(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	if (src->rr_phase[af] == RIB_RR_MARKING) {
		src->rr_eorr[af] = true;
	} else if (src->rr_phase[af] == RIB_RR_OPEN) {
		src->rr_eorr[af] = true;
		walk_reset(src, af, RIB_RR_SWEEPING);
	}
	refresh_timer_arm(rib, src);
	rib_work_schedule(rib);
}

/* ---- the peer's messages ---- */

void rib_refresh_begin_received(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = refresh_src(peer, af);
	struct bgp_rib *rib;

	if (!src)
		return;
	rib = peer->bgp->rib;
	/* The previous round's walk first (a peer refreshing twice within one walk). */
	if (walking(src, af))
		walk_run(rib, src, af, SIZE_MAX);
	if (walking(src, af)) /* MARKING with no EoRR becomes OPEN; SWEEPING becomes IDLE */
		walk_run(rib, src, af, SIZE_MAX);
	if (src->rr_seen[af])
		ptree_free(src->rr_seen[af], NULL);
	src->rr_seen[af] = src->adj_in[af] ? ptree_new(bgp_af_family(af)) : NULL;
	src->rr_eorr[af] = false;
	src->rr_removed[af] = 0;
	walk_reset(src, af, RIB_RR_MARKING);
	src->rr_deadline_ms[af] = monotime_ms() + (uint64_t)rib->bgp->gr_stalepath_time * 1000;
	refresh_timer_arm(rib, src);
	rib_work_schedule(rib);
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer,
		       "BoRR for %s: its paths stale until the EoRR (at most %u s)",
		       bgp_af_text_name(af), rib->bgp->gr_stalepath_time);
}

void rib_refresh_end_received(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = refresh_src(peer, af);

	if (!src)
		return;
	if (src->rr_eorr[af] ||
	    (src->rr_phase[af] != RIB_RR_MARKING && src->rr_phase[af] != RIB_RR_OPEN)) {
		/* RFC 7313 4: an EoRR without a BoRR before it is ignored. */
		bgp_peer_info_limited(peer, "EoRR for %s without a BoRR before it, ignored",
				      bgp_af_text_name(af));
		return;
	}
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer, "EoRR for %s: removing what was not sent again",
		       bgp_af_text_name(af));
	refresh_end(peer->bgp->rib, src, af);
}

void rib_refresh_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	log_warn("%s: no EoRR for %s within %u s of its BoRR (enhanced route refresh): removing "
		 "its stale paths; check the peer's logs, or raise `bgp graceful-restart "
		 "stalepath-time` if its table takes longer to send",
		 src->name, bgp_af_text_name(af), rib->bgp->gr_stalepath_time);
	refresh_end(rib, src, af);
}

static void refresh_timer_cb(int fd, short what, void *arg)
{
	struct rib_src *src = arg;
	struct bgp_rib *rib = src->peer && src->peer->bgp ? src->peer->bgp->rib : NULL;
	uint64_t now = monotime_ms();

	(void)fd;
	(void)what;
	if (!rib)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if ((src->rr_phase[af] == RIB_RR_MARKING || src->rr_phase[af] == RIB_RR_OPEN) &&
		    !src->rr_eorr[af] && src->rr_deadline_ms[af] <= now + TIMER_SLACK_MS)
			rib_refresh_expire(rib, src, (enum bgp_af)af);
	refresh_timer_arm(rib, src);
}

/* ---- what the RIB tells us (bgp_rib.c) ---- */

/* Is p ahead of src's marking walk of af (the walk has yet to reach it)? */
static bool ahead_of_marking(const struct rib_src *src, enum bgp_af af, const struct prefix *p)
{
	return src->rr_phase[af] == RIB_RR_MARKING &&
	       (!src->rr_started[af] || prefix_cmp(p, &src->rr_last[af]) > 0);
}

void rib_refresh_path_updated(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
			      const struct prefix *p, struct bgp_path *path)
{
	if (rib->rerun) {
		/* Not announced again: a kept route the peer has not sent since its BoRR stays
		 * stale (a path the re-run creates included), so that the sweep removes it with
		 * its kept entry. */
		if (src->rr_phase[af] != RIB_RR_IDLE && src->rr_seen[af] &&
		    !ptree_lookup(src->rr_seen[af], p) && !ahead_of_marking(src, af, p))
			path->flags |= PATH_F_STALE;
		return;
	}
	path->flags &= ~(PATH_F_STALE | PATH_F_LLGR_STALE | PATH_F_RR_SEEN);
	/* Ahead of the marking walk, the walk must leave it fresh; behind it, clearing the
	 * mark was enough. */
	if (ahead_of_marking(src, af, p))
		path->flags |= PATH_F_RR_SEEN;
}

void rib_refresh_touched(struct rib_src *src, enum bgp_af af, const struct prefix *p)
{
	if (src->rr_seen[af])
		*ptree_get(src->rr_seen[af], p) = (void *)1;
}

bool rib_refresh_in_progress(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && (unsigned)af < BGP_AF_MAX && src->rr_phase[af] != RIB_RR_IDLE;
}

void rib_refresh_src_stop(struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		walk_reset(src, (enum bgp_af)af, RIB_RR_IDLE);
		src->rr_eorr[af] = false;
		if (src->rr_seen[af]) {
			ptree_free(src->rr_seen[af], NULL);
			src->rr_seen[af] = NULL;
		}
	}
	event_free(src->rr_ev);
	src->rr_ev = NULL;
}
