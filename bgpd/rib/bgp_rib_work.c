/* SPDX-License-Identifier: ISC */
/*
 * Bounded work per loop turn (OpenBGPD's rde main loop idea): everything the RIB does that is
 * proportional to the table size runs from one deferred task that visits at most
 * RIB_TURN_BUDGET prefixes per turn and then yields, so reads, keepalives and hold timers are
 * served between batches even while a full table is sent or a peer's paths are removed.
 *
 * One turn:
 *   1. removal of down sessions' paths and bits, many sessions in one walk (up to half the
 *      budget),
 *   1b. the next-hop revalidation walk (bgpd/rib/bgp_rib_fib.c), likewise,
 *   1c. the RPKI revalidation walk (bgpd/rib/bgp_rib_rpki.c), likewise,
 *   1d. graceful restart's removal of stale families (bgpd/rib/bgp_rib_gr.c), likewise,
 *   1e. enhanced route refresh's marking and sweeping walks (bgp_rib_refresh.c), likewise,
 *   1f. long-lived graceful restart's marking and flushing walks (bgp_rib_llgr.c), likewise,
 *   1g. the aggregates whose more specifics changed, recomputed (bgp_rib_aggregate.c),
 *   2. output to the Established sessions, round robin, one batch each per round,
 *   1h. the drain's sweep of dead dests (bgp_rib_drain.c), likewise,
 *   3. trimming of the journals (cheap per entry; bounded too).
 * When the work goes idle after a large release of routes, memory goes back to the system
 * (bgp_rib_release.c).
 * While a restarting bgpd defers its selection (bgp_rib_gr_defer.c), 1b and 2 wait: the kernel and
 * the peers hear nothing until the deferral ends.
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_deforig.h"
#include "bgpd/rib/bgp_rib_drain.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/rib/bgp_rib_release.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "lib/event.h"
#include "lib/table.h"

#define RIB_TRIM_PER_TURN 65536

bool rib_src_af_walk_pending(const struct bgp_rib *rib, rib_src_af_walking_fn walking)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		for (int af = 0; src && af < BGP_AF_MAX; af++)
			if (walking(src, (enum bgp_af)af))
				return true;
	}
	return false;
}

size_t rib_src_af_walk_run(struct bgp_rib *rib, rib_src_af_walking_fn walking,
			   rib_src_af_step_fn step, size_t budget)
{
	size_t visited = 0;

	for (uint32_t id = 1; id < rib->src_cap && visited < budget; id++) {
		struct rib_src *src = rib->src[id];

		for (int af = 0; src && af < BGP_AF_MAX && visited < budget; af++) {
			if (!walking(src, (enum bgp_af)af))
				continue;
			visited += step(rib, src, (enum bgp_af)af, budget - visited);
			src = rib->src[id];
		}
	}
	return visited;
}

static void rib_work_turn(struct bgp_rib *rib)
{
	size_t budget = RIB_TURN_BUDGET;

	if (rib_cleanup_pending(rib))
		budget -= rib_cleanup_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib->fib.walk_on && !rib->gr_deferring)
		budget -= rib_fib_walk_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib_rpki_pending(rib))
		budget -= rib_rpki_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib_gr_pending(rib))
		budget -= rib_gr_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib_refresh_pending(rib))
		budget -= rib_refresh_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib_llgr_pending(rib))
		budget -= rib_llgr_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib_aggr_pending(rib))
		rib_aggr_run(rib);
	if (rib_drain_sweep_pending(rib))
		budget -= rib_drain_sweep_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	rib_deforig_tick(rib);
	if (!rib->gr_deferring)
		adj_out_run(rib, budget);
	for (int af = 0; af < BGP_AF_MAX; af++)
		rib_journal_trim(rib, af, RIB_TRIM_PER_TURN);
	rib_release_note(rib);
}

bool rib_work_pending(const struct bgp_rib *rib)
{
	if (rib_cleanup_pending(rib) || rib_rpki_pending(rib) || rib_gr_pending(rib) ||
	    rib_refresh_pending(rib) || rib_llgr_pending(rib) || rib_aggr_pending(rib) ||
	    rib_deforig_pending(rib) || rib_drain_sweep_pending(rib))
		return true;
	if (rib->gr_deferring)
		return false; /* the rest waits for the deferral's end (it schedules the work) */
	if (rib->fib.walk_on || adj_out_has_work(rib))
		return true;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (rib->af[af].journal.tail < adj_out_min_cursor(rib, af))
			return true;
	return false;
}

static void rib_work_cb(int fd, short what, void *arg)
{
	struct bgp_rib *rib = arg;

	(void)fd;
	(void)what;
	rib_work_turn(rib);
	if (rib_work_pending(rib))
		event_defer(rib->work);
	else
		rib_release_idle(rib);
}

void rib_work_init(struct bgp_rib *rib)
{
	struct event_base *base = rib->bgp->base;

	rib->work = base ? event_defer_new(base, rib_work_cb, rib) : NULL;
}

void rib_work_fini(struct bgp_rib *rib)
{
	struct rib_src *src;

	event_free(rib->work);
	rib->work = NULL;
	rib_drain_fini(rib);
	while ((src = TAILQ_FIRST(&rib->clean_q)))
		TAILQ_REMOVE(&rib->clean_q, src, clean_entry);
	rib->nclean = 0; /* the sources themselves go with the RIB's table of them */
}

void rib_work_schedule(struct bgp_rib *rib)
{
	if (rib->work && !event_pending(rib->work))
		event_defer(rib->work);
}

void rib_work_run(struct bgp_rib *rib, unsigned max_turns)
{
	unsigned i;

	for (i = 0; i < max_turns && rib_work_pending(rib); i++)
		rib_work_turn(rib);
	if (i && !rib_work_pending(rib))
		rib_release_idle(rib);
}

/* ---- removing down sessions' paths ---- */

/*
 * A session that goes down leaves its paths and, when it was sent the table, one "advertised"
 * bit in every prefix: removing them is a walk of the whole table. A walk removes every
 * session queued when it began (up to RIB_CLEAN_BATCH) at once, so a hundred peers that flap
 * cost a few walks, not one each: with a full table, one each kept bgpd busy for minutes after
 * the flapping stopped (tests/lab/scenarios/fault_flap).
 */
static bool src_clean(const struct rib_src *src, enum bgp_af af)
{
	return src->accepted[af] == 0 && src->sent[af] == 0;
}

static bool batch_clean(const struct bgp_rib *rib, enum bgp_af af)
{
	for (unsigned i = 0; i < rib->nclean; i++)
		if (!src_clean(rib->clean_batch[i], af))
			return false;
	return true;
}

/* The sessions queued so far become the next walk's; false when none is queued. */
static bool batch_begin(struct bgp_rib *rib)
{
	struct rib_src *src;

	while (rib->nclean < RIB_CLEAN_BATCH && (src = TAILQ_FIRST(&rib->clean_q))) {
		TAILQ_REMOVE(&rib->clean_q, src, clean_entry);
		rib->clean_batch[rib->nclean++] = src;
	}
	rib->clean_af = 0;
	rib->clean_started = false;
	return rib->nclean > 0;
}

static void batch_end(struct bgp_rib *rib)
{
	for (unsigned i = 0; i < rib->nclean; i++)
		rib_src_free(rib, rib->clean_batch[i]);
	rib->nclean = 0;
}

bool rib_cleanup_pending(const struct bgp_rib *rib)
{
	return rib->nclean || !TAILQ_EMPTY(&rib->clean_q);
}

void rib_cleanup_start(struct bgp_rib *rib, struct rib_src *src)
{
	bool clean = true;

	for (int af = 0; af < BGP_AF_MAX; af++)
		clean = clean && src_clean(src, af);
	if (clean) {
		rib_src_free(rib, src);
		return;
	}
	TAILQ_INSERT_TAIL(&rib->clean_q, src, clean_entry);
	rib_work_schedule(rib);
}

/* One prefix: every session of the walk loses its path and its bit there. */
static void clean_dest(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d)
{
	bool cleared = false;

	for (unsigned i = 0; i < rib->nclean; i++) {
		struct rib_src *src = rib->clean_batch[i];

		if (src_clean(src, af))
			continue;
		rib_dest_remove_src(rib, af, d, src);
		if (bgp_dest_adv_clear(d, src->id)) {
			src->sent[af]--;
			cleared = true;
		}
	}
	if (cleared)
		rib_dest_maybe_free(rib, af, d);
}

/* How far ahead of the dest being cleaned its paths (CLEAN_AHEAD_PATH), then their
 * attribute sets (CLEAN_AHEAD_ATTR) start loading: the walk's dests are in the cache, but
 * a path and then its set were two dependent misses per dest before each release. */
#define CLEAN_AHEAD_PATH 8
#define CLEAN_AHEAD_ATTR 4

/* A hint, which changes nothing: the batch's dests further on stay valid (cleaning a dest
 * frees at most that dest), and so do their paths until their own dest is cleaned. Every path
 * of the dest, not only the cleaned sessions': one or two in a table, and a loaded line
 * costs nothing when it is not released. */
static void clean_prefetch(void *const *dests, size_t got, size_t i)
{
	if (i + CLEAN_AHEAD_PATH < got) {
		const struct bgp_dest *d = dests[i + CLEAN_AHEAD_PATH];

		if (dest_has_paths(d))
			__builtin_prefetch(dest_paths(d));
	}
	if (i + CLEAN_AHEAD_ATTR < got) {
		const struct bgp_dest *d = dests[i + CLEAN_AHEAD_ATTR];

		for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path))
			bgp_attr_prefetch_release(path_attr(path));
	}
}

/* Dests taken from the tree per descent: ptree_next() from the cursor for every prefix cost a
 * descent with a key comparison per level each, 40% of a full table's removal. */
#define CLEAN_STEP 256

size_t rib_cleanup_run(struct bgp_rib *rib, size_t budget)
{
	size_t visited = 0;

	while (visited < budget && (rib->nclean || batch_begin(rib))) {
		enum bgp_af af = rib->clean_af;
		void *dests[CLEAN_STEP];
		size_t got;

		if (af >= BGP_AF_MAX) {
			batch_end(rib);
			continue;
		}
		/* The counters say when nothing of these sessions is left in the AF: stop early. */
		if (batch_clean(rib, af)) {
			rib->clean_af++;
			rib->clean_started = false;
			continue;
		}
		got = ptree_next_batch(rib->af[af].tree,
				       rib->clean_started ? &rib->clean_last : NULL, dests,
				       MIN((size_t)CLEAN_STEP, budget - visited), &rib->clean_last);
		rib->clean_started = true;
		if (!got) {
			rib->clean_af++;
			rib->clean_started = false;
			continue;
		}
		/* Cleaning a dest frees at most that dest (rib_dest_maybe_free()), so the others
		 * of the batch stay valid; the cursor is already past the last one. */
		for (size_t i = 0; i < got; i++) {
			clean_prefetch(dests, got, i);
			clean_dest(rib, af, dests[i]);
		}
		visited += got;
	}
	return visited;
}
