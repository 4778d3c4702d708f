/* SPDX-License-Identifier: ISC */
/*
 * Long-lived graceful restart (RFC 9494), the helper's side in the RIB: what happens to a
 * peer's kept paths once graceful restart's own time for them has run out (or at once, when
 * only LLGR was negotiated: the caller decides when, see rib_llgr_start() in bgp_rib.h).
 *
 *   - Entering (4.2): each kept path of the session in the family gets the LLGR_STALE
 *     community (65535:6) added to its stored attributes and PATH_F_LLGR_STALE; a path that
 *     carries NO_LLGR (65535:7) is removed instead (4.1: its owner does not want it kept).
 *   - Decision (4.3): a path with LLGR_STALE loses to any path without it, before every other
 *     rule (bgp_decision.c). Routes that arrive with LLGR_STALE from an LLGR peer are treated
 *     the same way: the community is the mark, as in FRR.
 *   - Export (4.5): a route with LLGR_STALE goes only to sessions that negotiated LLGR, the
 *     community kept; the others are sent a withdrawal (bgp_adj_out.c's export rules). RFC
 *     9494 4.5 lets iBGP peers without the capability have it with NO_EXPORT and LOCAL_PREF 0;
 *     FRR does not, and neither do we.
 *   - Leaving: a re-announcement replaces the path (the flag goes, bgp_rib.c); the stale time
 *     running out removes what is still long-lived stale.
 * Entering and leaving are walks of the family's table, bounded per loop turn like the RIB's
 * other walks (bgp_rib_work.c calls rib_llgr_run()); the stale time counts from the start.
 * The session is down meanwhile, so nothing it sends can cross the walks; a new session of
 * the same peer replaces paths (they change source) and the walks leave those alone.
 * The community is added to the stored set (interned like any other), so the export cache,
 * the show commands and the decision see it with no special case; FRR stores it the same way.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

/* A timer may fire a little before its deadline by the monotonic clock's reading. */
#define TIMER_SLACK_MS 5

bool rib_attr_llgr_stale(const struct bgp_attr *attr)
{
	return attr && attr->llgr_stale; /* set at interning: the list is not read */
}

/* attr with LLGR_STALE added (a new reference). */
static struct bgp_attr *attr_with_llgr_stale(const struct bgp_attr *attr)
{
	const struct bgp_u32list *c = attr->communities;
	uint32_t n = c ? c->count : 0;
	uint32_t *v = XMALLOC(MTYPE_BGP_RIB, ((size_t)n + 1) * sizeof(*v));
	struct bgp_attr t = *attr, *out;

	if (n)
		memcpy(v, c->val, n * sizeof(*v));
	v[n] = BGP_COMM_LLGR_STALE;
	n = bgp_comm_sort_uniq(v, n + 1);
	t.communities = bgp_u32list_intern(v, n);
	t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	XFREE(MTYPE_BGP_RIB, v);
	out = bgp_attr_intern(&t);
	bgp_u32list_unref(t.communities);
	return out;
}

static struct bgp_path *src_path(struct bgp_dest *dest, const struct rib_src *src)
{
	for (struct bgp_path *path = dest_paths(dest); path; path = path_next(path))
		if (path->src == src->id)
			return path;
	return NULL;
}

static bool timed(const struct rib_src *src, enum bgp_af af)
{
	return src->llgr_phase[af] == RIB_LLGR_MARKING || src->llgr_phase[af] == RIB_LLGR_ON;
}

static void llgr_timer_cb(int fd, short what, void *arg);

static void llgr_timer_arm(struct bgp_rib *rib, struct rib_src *src)
{
	uint64_t next = 0, now = monotime_ms();

	for (int af = 0; af < BGP_AF_MAX; af++)
		if (timed(src, (enum bgp_af)af) && (!next || src->llgr_deadline_ms[af] < next))
			next = src->llgr_deadline_ms[af];
	if (!next) {
		if (src->llgr_ev)
			event_del(src->llgr_ev);
		return;
	}
	if (!src->llgr_ev && rib->bgp->base)
		src->llgr_ev = event_timer_new(rib->bgp->base, llgr_timer_cb, src);
	if (src->llgr_ev)
		event_timer_add(src->llgr_ev,
				(uint32_t)MIN(next > now ? next - now : 0, (uint64_t)UINT32_MAX),
				0);
}

/* ---- the walks: marking, then (the stale time over) flushing ---- */

static void walk_reset(struct rib_src *src, enum bgp_af af, enum rib_llgr_phase phase)
{
	src->llgr_phase[af] = (uint8_t)phase;
	src->llgr_started[af] = false;
}

/* Interning is per attribute set, not per path: paths in prefix order share sets (one UPDATE's
 * worth), so the last conversion is kept. */
struct stale_memo {
	struct bgp_attr *in, *out; /* references held */
};

static struct bgp_attr *memo_stale(struct stale_memo *m, struct bgp_attr *in)
{
	if (m->in != in) {
		bgp_attr_unref(m->in);
		bgp_attr_unref(m->out);
		m->in = bgp_attr_ref(in);
		m->out = attr_with_llgr_stale(in);
	}
	return m->out;
}

static size_t walk_run(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, size_t budget)
{
	struct ptree *tree = rib->af[af].tree;
	struct stale_memo memo = { NULL, NULL };
	size_t visited = 0;
	struct prefix p;

	while (visited < budget) {
		bool marking = src->llgr_phase[af] == RIB_LLGR_MARKING;
		struct bgp_dest *d;
		struct bgp_path *path;

		if (!marking && src->llgr_phase[af] != RIB_LLGR_FLUSHING)
			break;
		d = src->llgr_started[af] ? ptree_next(tree, &src->llgr_last[af], &p)
					  : ptree_first(tree, &p);
		src->llgr_started[af] = true;
		if (!d) {
			if (marking) {
				walk_reset(src, af, RIB_LLGR_ON);
				log_info("%s: %s routes long-lived stale (RFC 9494): %u kept with "
					 "LLGR_STALE, %u with NO_LLGR removed",
					 src->name, bgp_af_text_name(af), src->llgr_kept[af],
					 src->llgr_dropped[af]);
			} else {
				walk_reset(src, af, RIB_LLGR_IDLE);
				log_info("%s: long-lived stale time for %s over: %u stale routes "
					 "removed",
					 src->name, bgp_af_text_name(af), src->llgr_removed[af]);
				/* Graceful restart keeps nothing of af any more: its source may go.
				 */
				rib_gr_af_released(rib, src, af);
			}
			break;
		}
		src->llgr_last[af] = p;
		visited++;
		if (!(path = src_path(d, src)))
			continue;
		if (!marking) {
			if (path->flags & PATH_F_LLGR_STALE) {
				rib_dest_remove_src(rib, af, d, src);
				src->llgr_removed[af]++;
			}
		} else if (bgp_u32list_contains(path_attr(path)->communities, BGP_COMM_NO_LLGR)) {
			rib_dest_remove_src(rib, af, d, src);
			src->llgr_dropped[af]++;
		} else if (!(path->flags & PATH_F_LLGR_STALE)) {
			path->flags |= PATH_F_LLGR_STALE;
			rib_path_set_attr(rib, af, d, path, memo_stale(&memo, path_attr(path)));
			src->llgr_kept[af]++;
		}
	}
	bgp_attr_unref(memo.in);
	bgp_attr_unref(memo.out);
	return visited;
}

static bool walking(const struct rib_src *src, enum bgp_af af)
{
	return src->llgr_phase[af] == RIB_LLGR_MARKING || src->llgr_phase[af] == RIB_LLGR_FLUSHING;
}

bool rib_llgr_pending(const struct bgp_rib *rib)
{
	return rib_src_af_walk_pending(rib, walking);
}

size_t rib_llgr_run(struct bgp_rib *rib, size_t budget)
{
	return rib_src_af_walk_run(rib, walking, walk_run, budget);
}

/* ---- entering and leaving ---- */

void rib_llgr_start(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, uint32_t seconds)
{
	src->llgr_kept[af] = src->llgr_dropped[af] = src->llgr_removed[af] = 0;
	walk_reset(src, af, RIB_LLGR_MARKING);
	src->llgr_rib = rib;
	src->llgr_deadline_ms[af] = monotime_ms() + (uint64_t)seconds * 1000;
	llgr_timer_arm(rib, src);
	rib_work_schedule(rib);
	log_info("%s: %s routes long-lived stale for %u s (RFC 9494)", src->name,
		 bgp_af_text_name(af), seconds);
}

bool rib_llgr_takeover(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	if (!src->llgr || !src->llgr_time[af])
		return false;
	if (src->llgr_phase[af] == RIB_LLGR_IDLE)
		rib_llgr_start(rib, src, af, src->llgr_time[af]);
	return true;
}

void rib_llgr_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	/* A stale time shorter than the marking walk: the walk ends first. */
	if (src->llgr_phase[af] == RIB_LLGR_MARKING)
		walk_run(rib, src, af, SIZE_MAX);
	if (src->llgr_phase[af] != RIB_LLGR_ON)
		return;
	walk_reset(src, af, RIB_LLGR_FLUSHING);
	llgr_timer_arm(rib, src);
	rib_work_schedule(rib);
}

bool rib_llgr_active(const struct rib_src *src, enum bgp_af af)
{
	return src->llgr_phase[af] != RIB_LLGR_IDLE;
}

static void llgr_timer_cb(int fd, short what, void *arg)
{
	struct rib_src *src = arg;
	/* Not through src->peer: a kept session outlives its peer's deletion. */
	struct bgp_rib *rib = src->llgr_rib;
	uint64_t now = monotime_ms();

	(void)fd;
	(void)what;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (timed(src, (enum bgp_af)af) &&
		    src->llgr_deadline_ms[af] <= now + TIMER_SLACK_MS)
			rib_llgr_expire(rib, src, (enum bgp_af)af);
	llgr_timer_arm(rib, src);
}

void rib_llgr_src_stop(struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		walk_reset(src, (enum bgp_af)af, RIB_LLGR_IDLE);
	event_free(src->llgr_ev);
	src->llgr_ev = NULL;
}
