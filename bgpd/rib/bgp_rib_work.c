/* SPDX-License-Identifier: ISC */
/*
 * Bounded work per loop turn (OpenBGPD's rde main loop idea): everything the RIB does that is
 * proportional to the table size runs from one deferred task that visits at most
 * RIB_TURN_BUDGET prefixes per turn and then yields, so reads, keepalives and hold timers are
 * served between batches even while a full table is sent or a peer's paths are removed.
 *
 * One turn:
 *   1. removal of down sessions' paths and bits (up to half the budget),
 *   1b. the next-hop revalidation walk (bgpd/rib/bgp_rib_fib.c), likewise,
 *   2. output to the Established sessions, round robin, one batch each per round,
 *   3. trimming of the journals (cheap per entry; bounded too).
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "lib/event.h"
#include "lib/table.h"

#define RIB_TRIM_PER_TURN 65536

static void rib_work_turn(struct bgp_rib *rib)
{
	size_t budget = RIB_TURN_BUDGET;

	if (!TAILQ_EMPTY(&rib->clean_q))
		budget -= rib_cleanup_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	if (rib->fib.walk_on)
		budget -= rib_fib_walk_run(rib, MIN((size_t)RIB_BATCH, budget / 2));
	adj_out_run(rib, budget);
	for (int af = 0; af < BGP_AF_MAX; af++)
		rib_journal_trim(rib, af, RIB_TRIM_PER_TURN);
}

bool rib_work_pending(const struct bgp_rib *rib)
{
	if (!TAILQ_EMPTY(&rib->clean_q) || rib->fib.walk_on || adj_out_has_work(rib))
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
	while ((src = TAILQ_FIRST(&rib->clean_q)))
		TAILQ_REMOVE(&rib->clean_q, src, clean_entry);
}

void rib_work_schedule(struct bgp_rib *rib)
{
	if (rib->work && !event_pending(rib->work))
		event_defer(rib->work);
}

void rib_work_run(struct bgp_rib *rib, unsigned max_turns)
{
	for (unsigned i = 0; i < max_turns && rib_work_pending(rib); i++)
		rib_work_turn(rib);
}

/* ---- removing a down session's paths ---- */

static bool src_clean(const struct rib_src *src, enum bgp_af af)
{
	return src->accepted[af] == 0 && src->sent[af] == 0;
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
	src->clean_af = 0;
	src->clean_started = false;
	TAILQ_INSERT_TAIL(&rib->clean_q, src, clean_entry);
	rib_work_schedule(rib);
}

size_t rib_cleanup_run(struct bgp_rib *rib, size_t budget)
{
	size_t visited = 0;
	struct rib_src *src;

	while (visited < budget && (src = TAILQ_FIRST(&rib->clean_q))) {
		enum bgp_af af = src->clean_af;
		struct ptree *tree;
		struct bgp_dest *d;
		struct prefix p;

		if (af >= BGP_AF_MAX) {
			TAILQ_REMOVE(&rib->clean_q, src, clean_entry);
			rib_src_free(rib, src);
			continue;
		}
		/* The counters say when nothing of this session is left in the AF: stop early. */
		if (src_clean(src, af)) {
			src->clean_af++;
			src->clean_started = false;
			continue;
		}
		tree = rib->af[af].tree;
		d = src->clean_started ? ptree_next(tree, &src->clean_last, &p)
				       : ptree_first(tree, &p);
		src->clean_started = true;
		if (!d) {
			src->clean_af++;
			src->clean_started = false;
			continue;
		}
		src->clean_last = p;
		visited++;
		rib_dest_remove_src(rib, af, d, src);
		if (bgp_dest_adv_clear(d, src->id)) {
			src->sent[af]--;
			rib_dest_maybe_free(rib, af, d);
		}
	}
	return visited;
}
