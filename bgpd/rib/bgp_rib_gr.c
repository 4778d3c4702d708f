/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart, the helper's side (RFC 4724 4.2, RFC 8538): see bgp_rib_gr.h. The session
 * side says how a session was lost (rib_peer_down_graceful() or rib_peer_down()); this file
 * keeps or drops the peer's routes and runs the restart and stalepath timers.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

struct rib_gr {
	struct bgp_rib *rib;
	struct rib_src *src;
	enum rib_gr_state state;
	uint16_t restart_time;	 /* the peer's, seconds */
	bool cap_af[BGP_AF_MAX]; /* the families its capability listed */
	bool keep[BGP_AF_MAX];	 /* stale paths kept */
	bool flush[BGP_AF_MAX];	 /* stale paths the walk removes */
	bool queued;
	/* As FRR, both start when the session is lost: the restart timer (the peer's restart
	 * time) stops when the peer is back, the stalepath timer (ours) only with the End-of-RIBs.
	 */
	struct ev *restart_timer;
	struct ev *stale_timer;
	TAILQ_ENTRY(rib_gr) entry;
};
TAILQ_HEAD(rib_gr_list, rib_gr);

/* The removal walk: the first source of the queue, family by family. */
struct rib_gr_walk {
	struct rib_gr_list q;
	enum bgp_af af;
	bool started;
	struct prefix last;
};

static const char *src_name(const struct rib_src *src)
{
	return src->name[0] ? src->name : "?";
}

static struct rib_gr_walk *walk_of(struct bgp_rib *rib)
{
	if (!rib->gr) {
		rib->gr = XCALLOC(MTYPE_BGP_RIB_SRC, sizeof(*rib->gr));
		TAILQ_INIT(&rib->gr->q);
	}
	return rib->gr;
}

static bool any_kept(const struct rib_gr *gr)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (gr->keep[af])
			return true;
	return false;
}

static void timer_stop(struct ev **t)
{
	event_free(*t);
	*t = NULL;
}

static void timers_stop(struct rib_gr *gr)
{
	timer_stop(&gr->restart_timer);
	timer_stop(&gr->stale_timer);
}

/* Nothing kept any more: once the walk has removed what it must, the cleanup walk takes the
 * source (its "advertised" bits) and frees it. */
static void gr_end_if_done(struct rib_gr *gr)
{
	struct rib_src *src = gr->src;

	if (any_kept(gr) || gr->queued)
		return;
	timers_stop(gr);
	gr->state = RIB_GR_DONE;
	src->gr_stale = false;
	rib_cleanup_start(gr->rib, src);
}

/* af's stale paths go: by the walk, or at once when there are none. */
static void flush_af(struct rib_gr *gr, enum bgp_af af, const char *why)
{
	struct rib_gr_walk *w;

	if (!gr->keep[af])
		return;
	gr->keep[af] = false;
	if (DEBUG_ON(BGP_DEBUG_NEIGHBOR_EVENTS))
		log_debug("%s: graceful restart: %s stale routes go (%s)", src_name(gr->src),
			  bgp_af_text_name(af), why);
	if (!gr->src->accepted[af])
		return;
	gr->flush[af] = true;
	if (gr->queued)
		return;
	w = walk_of(gr->rib);
	if (TAILQ_EMPTY(&w->q)) {
		w->af = 0;
		w->started = false;
	}
	TAILQ_INSERT_TAIL(&w->q, gr, entry);
	gr->queued = true;
	rib_work_schedule(gr->rib);
}

static void flush_all(struct rib_gr *gr, const char *why)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		flush_af(gr, (enum bgp_af)af, why);
	gr_end_if_done(gr);
}

static void expired(struct rib_gr *gr, const char *which)
{
	log_info("%s: graceful restart: the %s timer expired, removing its stale routes",
		 src_name(gr->src), which);
	/* RFC 9494 4.2: families with long-lived GR stay, long-lived stale (bgp_rib_llgr.c). */
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (!gr->keep[af] || !rib_llgr_takeover(gr->rib, gr->src, (enum bgp_af)af))
			flush_af(gr, (enum bgp_af)af, which);
	gr_end_if_done(gr);
}

void rib_gr_af_released(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	(void)rib;
	if (!src->gr || src->gr->state == RIB_GR_UP || src->gr->state == RIB_GR_DONE)
		return;
	flush_af(src->gr, af, "long-lived stale time expired");
	gr_end_if_done(src->gr);
}

static void restart_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	expired(arg, "restart");
}

static void stale_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	expired(arg, "stalepath");
}

static void timer_start(struct rib_gr *gr, struct ev **t, ev_cb cb, uint32_t seconds)
{
	struct event_base *base = gr->rib->bgp ? gr->rib->bgp->base : NULL;

	timer_stop(t);
	if (!base)
		return; /* no loop (tests without one): the timer never fires */
	*t = event_timer_new(base, cb, gr);
	event_timer_add(*t, seconds * 1000, 0);
}

/* ---- session events ---- */

void rib_gr_peer_up(struct bgp_rib *rib, struct rib_src *src, const struct bgp_session_info *info)
{
	if (info->gr) {
		struct rib_gr *gr = XCALLOC(MTYPE_BGP_RIB_SRC, sizeof(*gr));

		gr->rib = rib;
		gr->src = src;
		gr->restart_time = info->gr_time;
		for (int af = 0; af < BGP_AF_MAX; af++)
			gr->cap_af[af] = info->af[af] && info->gr_af[af];
		src->gr = gr;
	}
	/* The peer's earlier session lost gracefully: what the new OPEN keeps. */
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *old = rib->src[id];
		struct rib_gr *ogr = old ? old->gr : NULL;

		if (!ogr || old == src || old->rp != src->rp || ogr->state != RIB_GR_RESTARTING)
			continue;
		if (!info->gr) {
			log_info("%s: graceful restart: the peer is back without the capability, "
				 "removing its stale routes",
				 src_name(src));
			flush_all(ogr, "back without graceful restart");
			continue;
		}
		/* RFC 4724 4.2: families absent from the new capability, or without the F bit
		 * (forwarding state not kept), go now; the rest wait for End-of-RIB. */
		for (int af = 0; af < BGP_AF_MAX; af++) {
			bool fwd = info->af[af] && info->gr_af[af] && info->gr_fwd[af];

			/* RFC 9494 4.2: for long-lived stale routes the LLGR capability's F bit. */
			if (rib_llgr_active(old, (enum bgp_af)af))
				fwd = info->af[af] && info->llgr && info->llgr_af[af] &&
				      info->llgr_fwd[af];
			if (!fwd)
				flush_af(ogr, (enum bgp_af)af, "no F bit in the new OPEN");
		}
		if (!any_kept(ogr)) {
			gr_end_if_done(ogr);
			continue;
		}
		ogr->state = RIB_GR_STALE;
		timer_stop(&ogr->restart_timer);
	}
}

bool rib_gr_session_lost(struct bgp_rib *rib, struct rib_src *src)
{
	struct rib_gr *gr = src->gr;
	bool kept = false;

	if (!gr || gr->state != RIB_GR_UP)
		return false;
	/* RFC 9494 4.2: a family long-lived GR covers is kept too, even when the GR capability
	 * does not list it (it is long-lived stale at once then, below). */
	for (int af = 0; af < BGP_AF_MAX; af++)
		kept |= (gr->cap_af[af] || src->llgr_time[af]) && src->af[af];
	if (!kept)
		return false;
	/* A second loss while the first one's routes are still stale: those go. */
	rib_gr_flush_peer(rib, src->rp, src);

	src->rp->cur = NULL;
	src->up = false;
	src->gr_stale = true;
	rib->nsessions--;
	adj_out_peer_down(rib, src);
	gr->state = RIB_GR_RESTARTING;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		gr->keep[af] = src->af[af];
		if (gr->cap_af[af] || !gr->keep[af])
			continue;
		if (!rib_llgr_takeover(rib, src, (enum bgp_af)af))
			flush_af(gr, (enum bgp_af)af, "family not in the capability");
	}
	log_info("%s: graceful restart: session lost, keeping its routes as stale for up to "
		 "%u seconds (its restart time)",
		 src_name(src), gr->restart_time);
	timer_start(gr, &gr->restart_timer, restart_cb, gr->restart_time);
	timer_start(gr, &gr->stale_timer, stale_cb,
		    rib->bgp ? rib->bgp->gr_stalepath_time : BGP_GR_STALEPATH_TIME_DEFAULT);
	return true;
}

void rib_gr_eor(struct bgp_rib *rib, const struct rib_src *src, enum bgp_af af)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *old = rib->src[id];
		struct rib_gr *ogr = old ? old->gr : NULL;

		if (!ogr || old == src || old->rp != src->rp || ogr->state != RIB_GR_STALE ||
		    !ogr->keep[af])
			continue;
		flush_af(ogr, af, "End-of-RIB received");
		gr_end_if_done(ogr);
	}
}

void rib_gr_flush_peer(struct bgp_rib *rib, const struct rib_peer *rp, const struct rib_src *keep)
{
	if (!rp)
		return;
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *old = rib->src[id];
		struct rib_gr *ogr = old ? old->gr : NULL;

		if (!ogr || old == keep || old->rp != rp || ogr->state == RIB_GR_UP ||
		    ogr->state == RIB_GR_DONE)
			continue;
		flush_all(ogr, "graceful restart ended");
	}
}

enum rib_gr_state rib_gr_state(const struct rib_src *src)
{
	return src->gr ? src->gr->state : RIB_GR_UP;
}

static int64_t remaining_s(const struct ev *t)
{
	if (!t || !event_pending(t))
		return -1;
	return event_timer_remaining(t) / 1000; /* FRR's thread_timer_remain_second(): down */
}

/* The peer's source in state st (restarting or stale), or NULL. */
static const struct rib_gr *peer_gr_in(const struct bgp_peer *peer, enum rib_gr_state st)
{
	const struct bgp_rib *rib = peer->bgp ? peer->bgp->rib : NULL;

	if (!rib || !peer->rib)
		return NULL;
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		if (src && src->gr && src->rp == peer->rib && src->gr->state == st)
			return src->gr;
	}
	return NULL;
}

int64_t rib_src_gr_restart_remaining(const struct rib_src *src)
{
	return src->gr && src->gr->state == RIB_GR_RESTARTING ? remaining_s(src->gr->restart_timer)
							      : -1;
}

int64_t rib_peer_gr_restart_remaining(const struct bgp_peer *peer)
{
	const struct rib_gr *gr = peer_gr_in(peer, RIB_GR_RESTARTING);

	return gr ? remaining_s(gr->restart_timer) : -1;
}

int64_t rib_peer_gr_stale_remaining(const struct bgp_peer *peer)
{
	const struct rib_gr *gr = peer_gr_in(peer, RIB_GR_RESTARTING);

	if (!gr)
		gr = peer_gr_in(peer, RIB_GR_STALE);
	return gr ? remaining_s(gr->stale_timer) : -1;
}

/* ---- the removal walk ---- */

bool rib_gr_pending(const struct bgp_rib *rib)
{
	return rib->gr && !TAILQ_EMPTY(&rib->gr->q);
}

/* The walk is done with gr: off the queue, and the next source starts from the top. */
static void walk_next(struct rib_gr_walk *w, struct rib_gr *gr)
{
	TAILQ_REMOVE(&w->q, gr, entry);
	gr->queued = false;
	memset(gr->flush, 0, sizeof(gr->flush));
	w->af = 0;
	w->started = false;
	gr_end_if_done(gr);
}

size_t rib_gr_run(struct bgp_rib *rib, size_t budget)
{
	struct rib_gr_walk *w = rib->gr;
	size_t visited = 0;
	struct rib_gr *gr;

	while (w && visited < budget && (gr = TAILQ_FIRST(&w->q))) {
		enum bgp_af af = w->af;
		struct bgp_dest *d;
		struct prefix p;

		if (af >= BGP_AF_MAX) {
			walk_next(w, gr);
			continue;
		}
		/* Nothing (left) to remove in this family: the next one. */
		if (!gr->flush[af] || !gr->src->accepted[af]) {
			w->af++;
			w->started = false;
			continue;
		}
		d = w->started ? ptree_next(rib->af[af].tree, &w->last, &p)
			       : ptree_first(rib->af[af].tree, &p);
		w->started = true;
		if (!d) {
			w->af++;
			w->started = false;
			continue;
		}
		w->last = p;
		visited++;
		rib_dest_remove_src(rib, af, d, gr->src);
	}
	return visited;
}

void rib_gr_src_free(struct bgp_rib *rib, struct rib_src *src)
{
	struct rib_gr *gr = src->gr;

	if (!gr)
		return;
	if (gr->queued) {
		/* The walk was on it: the next source starts from the top. */
		if (TAILQ_FIRST(&rib->gr->q) == gr) {
			rib->gr->af = 0;
			rib->gr->started = false;
		}
		TAILQ_REMOVE(&rib->gr->q, gr, entry);
	}
	timers_stop(gr);
	XFREE(MTYPE_BGP_RIB_SRC, gr);
	src->gr = NULL;
	src->gr_stale = false;
}

void rib_gr_fini(struct bgp_rib *rib)
{
	XFREE(MTYPE_BGP_RIB_SRC, rib->gr);
}
