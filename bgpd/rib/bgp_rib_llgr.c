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
	return attr && bgp_u32list_contains(attr->communities, BGP_COMM_LLGR_STALE);
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
	for (struct bgp_path *path = dest->paths; path; path = path->next)
		if (path->src == src->id)
			return path;
	return NULL;
}

static void llgr_timer_cb(int fd, short what, void *arg);

static void llgr_timer_arm(struct bgp_rib *rib, struct rib_src *src)
{
	uint64_t next = 0, now = monotime_ms();

	for (int af = 0; af < BGP_AF_MAX; af++)
		if (src->llgr_on[af] && (!next || src->llgr_deadline_ms[af] < next))
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

uint32_t rib_llgr_start(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, uint32_t seconds)
{
	struct ptree *tree = rib->af[af].tree;
	struct bgp_dest *dest;
	struct prefix p, q;
	uint32_t kept = 0, dropped = 0;

	for (dest = ptree_first(tree, &p); dest; q = p, dest = ptree_next(tree, &q, &p)) {
		struct bgp_path *path = src_path(dest, src);
		struct bgp_attr *stale;

		if (!path)
			continue;
		if (bgp_u32list_contains(path->attr->communities, BGP_COMM_NO_LLGR)) {
			rib_dest_remove_src(rib, af, dest, src);
			dropped++;
			continue;
		}
		path->flags |= PATH_F_LLGR_STALE;
		stale = attr_with_llgr_stale(path->attr);
		rib_path_set_attr(rib, af, dest, path, stale);
		bgp_attr_unref(stale);
		kept++;
	}
	src->llgr_on[af] = true;
	src->llgr_rib = rib;
	src->llgr_deadline_ms[af] = monotime_ms() + (uint64_t)seconds * 1000;
	llgr_timer_arm(rib, src);
	log_info("%s: %s routes long-lived stale for %u s (RFC 9494): %u kept with LLGR_STALE, "
		 "%u with NO_LLGR removed",
		 src->name, bgp_af_text_name(af), seconds, kept, dropped);
	return kept;
}

bool rib_llgr_takeover(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	if (!src->llgr || !src->llgr_time[af])
		return false;
	if (!src->llgr_on[af])
		rib_llgr_start(rib, src, af, src->llgr_time[af]);
	return true;
}

uint32_t rib_llgr_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	struct ptree *tree = rib->af[af].tree;
	struct bgp_dest *dest;
	struct prefix p, q;
	uint32_t removed = 0;

	if (!src->llgr_on[af])
		return 0;
	src->llgr_on[af] = false;
	for (dest = ptree_first(tree, &p); dest; q = p, dest = ptree_next(tree, &q, &p)) {
		struct bgp_path *path = src_path(dest, src);

		if (path && (path->flags & PATH_F_LLGR_STALE)) {
			rib_dest_remove_src(rib, af, dest, src);
			removed++;
		}
	}
	llgr_timer_arm(rib, src);
	log_info("%s: long-lived stale time for %s over: %u stale routes removed", src->name,
		 bgp_af_text_name(af), removed);
	/* Graceful restart keeps nothing of af any more: its source may go. */
	rib_gr_af_released(rib, src, af);
	return removed;
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
		if (src->llgr_on[af] && src->llgr_deadline_ms[af] <= now + TIMER_SLACK_MS)
			rib_llgr_expire(rib, src, (enum bgp_af)af);
	llgr_timer_arm(rib, src);
}

void rib_llgr_src_stop(struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		src->llgr_on[af] = false;
	event_free(src->llgr_ev);
	src->llgr_ev = NULL;
}
