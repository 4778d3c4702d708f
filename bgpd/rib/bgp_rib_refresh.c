/* SPDX-License-Identifier: ISC */
/*
 * Enhanced route refresh (RFC 7313), the receiving side: what a peer re-announces between its
 * BoRR and its EoRR for a family replaces what it had; what it does not is removed at the
 * EoRR, so a route the peer dropped from its table while we were not told (a lost WITHDRAW, a
 * policy change on its side) goes too.
 *
 *   - BoRR: every path of the session in the family gets PATH_F_STALE (still used: RFC 7313
 *     4 keeps stale routes in the decision until the EoRR); the prefixes of the Adj-RIB-In
 *     kept as received (soft-reconfiguration inbound) are listed in rr_unseen.
 *   - An announcement clears the path's flag (bgp_rib.c) and crosses the prefix off
 *     rr_unseen; a withdrawal removes both as usual.
 *   - EoRR: paths still flagged are removed (decision, journal, kernel as for a withdrawal),
 *     and the kept Adj-RIB-In entries still listed are forgotten.
 *   - No EoRR: as FRR does, a timer of the instance's stalepath-time (bgp graceful-restart
 *     stalepath-time, 360 s by default) ends the refresh as an EoRR would, with a log line.
 *     RFC 7313 4 leaves the time to the implementation.
 * A second BoRR during a refresh starts over (marks everything again and re-arms the timer),
 * which is what the RFC's "the previous round is incomplete" asks for.
 *
 * The marking and the sweep walk the family's table at once, as FRR does: both only touch the
 * session's own paths, and a refresh is an operator's or a policy change's act, not a stream.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_af.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

static struct rib_src *refresh_src(const struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	if (!peer->bgp || !peer->bgp->rib || !src || !src->up || (unsigned)af >= BGP_AF_MAX ||
	    !src->af[af])
		return NULL;
	return src;
}

static int unseen_list_cb(const struct prefix *p, void *value, void *arg)
{
	(void)value;
	*ptree_get(arg, p) = (void *)1;
	return 0;
}

/* The session's path of dest (its own id only: paths of an earlier session of the same peer,
 * kept by graceful restart, are not this refresh's business). */
static struct bgp_path *src_path(struct bgp_dest *dest, const struct rib_src *src)
{
	for (struct bgp_path *path = dest->paths; path; path = path->next)
		if (path->src == src->id)
			return path;
	return NULL;
}

/* A timer may fire a little before its deadline by the monotonic clock's reading. */
#define TIMER_SLACK_MS 5

static void refresh_timer_cb(int fd, short what, void *arg);

static void refresh_timer_arm(struct bgp_rib *rib, struct rib_src *src)
{
	uint64_t next = 0, now = monotime_ms();

	for (int af = 0; af < BGP_AF_MAX; af++)
		if (src->rr_in[af] && (!next || src->rr_deadline_ms[af] < next))
			next = src->rr_deadline_ms[af];
	if (!next) {
		if (src->rr_ev)
			event_del(src->rr_ev);
		return;
	}
	if (!src->rr_ev && rib->bgp->base)
		src->rr_ev = event_timer_new(rib->bgp->base, refresh_timer_cb, src);
	if (src->rr_ev)
		event_timer_add(src->rr_ev, (uint32_t)MIN(next > now ? next - now : 0, UINT32_MAX),
				0);
}

void rib_refresh_begin_received(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = refresh_src(peer, af);
	struct bgp_rib *rib;
	struct bgp_dest *dest;
	struct prefix p, q;
	uint32_t marked = 0;

	if (!src)
		return;
	rib = peer->bgp->rib;
	for (dest = ptree_first(rib->af[af].tree, &p); dest;
	     q = p, dest = ptree_next(rib->af[af].tree, &q, &p)) {
		struct bgp_path *path = src_path(dest, src);

		if (path) {
			path->flags |= PATH_F_STALE;
			marked++;
		}
	}
	if (src->rr_unseen[af]) {
		ptree_free(src->rr_unseen[af], NULL);
		src->rr_unseen[af] = NULL;
	}
	if (src->adj_in[af]) {
		src->rr_unseen[af] = ptree_new(bgp_af_family(af));
		ptree_walk(src->adj_in[af], unseen_list_cb, src->rr_unseen[af]);
	}
	src->rr_in[af] = true;
	src->rr_deadline_ms[af] = monotime_ms() + (uint64_t)rib->bgp->gr_stalepath_time * 1000;
	refresh_timer_arm(rib, src);
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer,
		       "BoRR for %s: %u paths stale until the EoRR (at most %u s)",
		       bgp_af_text_name(af), marked, rib->bgp->gr_stalepath_time);
}

static int unseen_forget_cb(const struct prefix *p, void *value, void *arg)
{
	struct rib_src *src = arg;
	enum bgp_af af = p->family == AF_INET ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST;

	(void)value;
	if (src->adj_in[af])
		bgp_attr_unref(ptree_delete(src->adj_in[af], p));
	return 0;
}

/* End src's refresh of af: remove what was not re-announced. Returns the paths removed. */
static uint32_t refresh_end(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	struct bgp_dest *dest;
	struct prefix p, q;
	uint32_t removed = 0;

	if (!src->rr_in[af])
		return 0;
	src->rr_in[af] = false;
	for (dest = ptree_first(rib->af[af].tree, &p); dest;
	     q = p, dest = ptree_next(rib->af[af].tree, &q, &p)) {
		struct bgp_path *path = src_path(dest, src);

		if (path && (path->flags & PATH_F_STALE)) {
			rib_dest_remove_src(rib, af, dest, src);
			removed++;
		}
	}
	if (src->rr_unseen[af]) {
		ptree_walk(src->rr_unseen[af], unseen_forget_cb, src);
		ptree_free(src->rr_unseen[af], NULL);
		src->rr_unseen[af] = NULL;
	}
	refresh_timer_arm(rib, src);
	return removed;
}

void rib_refresh_end_received(struct bgp_peer *peer, enum bgp_af af)
{
	struct rib_src *src = refresh_src(peer, af);
	uint32_t removed;

	if (!src)
		return;
	if (!src->rr_in[af]) {
		/* RFC 7313 4: an EoRR without a BoRR before it is ignored. */
		bgp_peer_info_limited(peer, "EoRR for %s without a BoRR before it, ignored",
				      bgp_af_text_name(af));
		return;
	}
	removed = refresh_end(peer->bgp->rib, src, af);
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer,
		       "EoRR for %s: %u stale paths not re-announced, removed",
		       bgp_af_text_name(af), removed);
}

void rib_refresh_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af)
{
	uint32_t removed = refresh_end(rib, src, af);

	log_warn("%s: no EoRR for %s within %u s of its BoRR (enhanced route refresh): %u stale "
		 "paths removed; check the peer's logs, or raise `bgp graceful-restart "
		 "stalepath-time` if its table takes longer to send",
		 src->name, bgp_af_text_name(af), rib->bgp->gr_stalepath_time, removed);
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
		if (src->rr_in[af] && src->rr_deadline_ms[af] <= now + TIMER_SLACK_MS)
			rib_refresh_expire(rib, src, (enum bgp_af)af);
	refresh_timer_arm(rib, src);
}

bool rib_refresh_in_progress(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;

	return src && (unsigned)af < BGP_AF_MAX && src->rr_in[af];
}

void rib_refresh_src_stop(struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		src->rr_in[af] = false;
		if (src->rr_unseen[af]) {
			ptree_free(src->rr_unseen[af], NULL);
			src->rr_unseen[af] = NULL;
		}
	}
	event_free(src->rr_ev);
	src->rr_ev = NULL;
}
