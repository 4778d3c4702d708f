/* SPDX-License-Identifier: ISC */
/*
 * A table that drains: its emptied dests reclaimed in bulk, not one tree delete each.
 *
 * A withdrawal leaves its dest in the tree without paths until the journal's trim, once every
 * reader is past its entry, deletes it (bgp_adj_out.c). After a full table's withdrawal those
 * deletes were a third of its CPU: a million deletes far apart in the tree, in journal order.
 * The RIB's readers already take a path-less dest for what it is (the walks and the shows skip
 * it, an output walk sends it only as a withdrawal to a session that had it), so while the
 * table drains the trim leaves them there (dead) and they go in bulk:
 *   - when nothing in the AF is live any more (no path, no session that is up still to be sent
 *     a withdrawal, the journal empty, no default-originate kept): the whole tree at once
 *     (ptree_clear(), the slabs' chunks back to malloc): a full withdrawal deletes nothing;
 *   - otherwise, when at least 1 / RIB_DRAIN_SWEEP_SHARE of the tree's dests are dead, a
 *     sweep: an in-order walk, bounded per turn like the RIB's other walks, that frees the
 *     dead dests it passes (neighbours in the tree: each delete's nodes are in the cache). It
 *     starts once the withdrawals have stopped for RIB_DRAIN_QUIET_MS, so that a full
 *     withdrawal's sweep does not delete one by one what the clear at its end frees at once.
 *     Not only when the dead outnumber the live: after a third of the table went, its
 *     memory comes back too; a walk of the whole tree for a few dead would not pay.
 * The table drains from a trim that may pass RIB_DRAIN_BURST entries or more (a burst of
 * changes) until that reclaim; smaller trims (a peer's flaps) delete as before, so dead dests
 * never pile up in a table that churns slowly. Fewer dead than the share after a burst stay
 * until a later burst's reclaim counts them again (so at most that share of the tree is
 * dead); a prefix announced again revives its dest.
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib_deforig.h"
#include "bgpd/rib/bgp_rib_drain.h"
#include "lib/event.h"
#include "lib/table.h"

/* Dests per descent of the sweep (ptree_next_batch()). */
#define SWEEP_STEP 256
/* The sweep pays when at least this share (1 / N) of the tree's dests are dead: a walk
 * visits at most N dests per dest it frees, in order. */
#define RIB_DRAIN_SWEEP_SHARE 16

size_t rib_drain_dead(const struct bgp_rib *rib, enum bgp_af af)
{
	return ptree_count(rib->af[af].tree) - (size_t)rib->af[af].dests_live;
}

bool rib_drain_defers(struct bgp_rib *rib, enum bgp_af af, uint64_t backlog)
{
	if (backlog >= RIB_DRAIN_BURST)
		rib->af[af].draining = true;
	return rib->af[af].draining;
}

/* Is a dest of the AF advertised to a session that is up (it must be sent a withdrawal)? */
static bool sent_to_live_session(const struct bgp_rib *rib, enum bgp_af af)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		if (src && src->up && src->sent[af])
			return true;
	}
	return false;
}

struct drain_ctx {
	struct bgp_rib *rib;
	enum bgp_af af;
};

/* ptree_clear()'s release: a dest holds something only when advertised (to sessions that
 * are down and not yet cleaned up: their counts drop as dest_free() would drop them). */
static void dest_release(void *value, void *arg)
{
	struct bgp_dest *d = value;
	const struct drain_ctx *c = arg;

	if (d->adv)
		bgp_dest_adv_release(c->rib, c->af, d);
}

static void sweep_start(struct bgp_rib *rib, enum bgp_af af)
{
	rib->af[af].sweeping = true;
	rib->af[af].drain_sweeps++;
	rib->af[af].sweep_started = false;
	rib_work_schedule(rib);
}

static bool sweep_pays(const struct bgp_rib *rib, enum bgp_af af)
{
	size_t dead = rib_drain_dead(rib, af);

	return dead && dead >= ptree_count(rib->af[af].tree) / RIB_DRAIN_SWEEP_SHARE;
}

static void drain_quiet_cb(int fd, short what, void *arg)
{
	struct bgp_rib *rib = arg;

	(void)fd;
	(void)what;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct rib_af *a = &rib->af[af];

		/* A burst under way: its trim's reclaim arms the timer again. */
		if (!a->draining || a->sweeping || a->journal.tail != a->journal.head)
			continue;
		if (sweep_pays(rib, (enum bgp_af)af))
			sweep_start(rib, (enum bgp_af)af);
		else
			a->draining = false;
	}
}

void rib_drain_reclaim(struct bgp_rib *rib, enum bgp_af af)
{
	struct rib_af *a = &rib->af[af];

	if (!a->draining || a->journal.tail != a->journal.head)
		return;
	if (a->dests_live == 0 && !sent_to_live_session(rib, af) && !rib_deforig_keeps(rib, af)) {
		struct drain_ctx c = { rib, af };

		/* dest_maybe_free()'s test holds for every dest of the tree. */
		ptree_clear(a->tree, dest_release, &c);
		a->drain_clears++;
		a->draining = a->sweeping = false;
		return;
	}
	if (a->sweeping)
		return;
	if (!sweep_pays(rib, af)) {
		a->draining = false; /* not worth a walk: the trim deletes again */
		return;
	}
	if (!rib->bgp || !rib->bgp->base) {
		sweep_start(rib, af); /* no event loop (unit tests): nothing to wait for */
		return;
	}
	if (!rib->drain_timer)
		rib->drain_timer = event_timer_new(rib->bgp->base, drain_quiet_cb, rib);
	if (rib->drain_timer)
		event_timer_add(rib->drain_timer, RIB_DRAIN_QUIET_MS, 0); /* again: not quiet yet */
}

bool rib_drain_sweep_pending(const struct bgp_rib *rib)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (rib->af[af].sweeping)
			return true;
	return false;
}

size_t rib_drain_sweep_run(struct bgp_rib *rib, size_t budget)
{
	size_t visited = 0;

	for (int af = 0; af < BGP_AF_MAX && visited < budget; af++) {
		struct rib_af *a = &rib->af[af];

		while (a->sweeping && visited < budget) {
			void *dests[SWEEP_STEP];
			size_t want = MIN((size_t)SWEEP_STEP, budget - visited);
			size_t got =
				ptree_next_batch(a->tree, a->sweep_started ? &a->sweep_last : NULL,
						 dests, want, &a->sweep_last);

			a->sweep_started = true;
			/* Freeing a dest frees at most that dest: the others of the batch stay
			 * valid, and the cursor is already past the last one. */
			for (size_t i = 0; i < got; i++)
				if (!dest_has_paths(dests[i]))
					rib_dest_maybe_free(rib, (enum bgp_af)af, dests[i]);
			visited += got;
			if (got < want)
				a->sweeping = a->draining = false; /* the end of the tree */
		}
	}
	return visited;
}

void rib_drain_fini(struct bgp_rib *rib)
{
	event_free(rib->drain_timer);
	rib->drain_timer = NULL;
}
