/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart, the helper's side (RFC 4724 4.2, RFC 8538): the RIB keeps a restarting
 * peer's routes, stale but used and advertised, until the peer is back and has re-sent them.
 *
 * A session with GR negotiated that is lost gracefully (rib_peer_down_graceful(), the session
 * side decides) keeps its struct rib_src, marked gr_stale, with the families the peer's
 * capability listed; the others go at once. The restart timer (the peer's restart time) runs
 * until the peer is Established again; then the families the new OPEN does not list with the
 * F bit go at once, the rest are replaced route by route as the peer re-announces them
 * (path_find() gives a new session the stale path of the same peer) and what is left goes at
 * the peer's End-of-RIB for the family, or when the stalepath timer runs out (as FRR, it starts
 * with the restart timer when the session is lost). A second loss
 * while stale, a peer back without GR, a neighbor shut down or deleted: everything goes.
 *
 * Removing a family's stale paths is a walk of the family's table, bounded per loop turn like
 * the cleanup walk (bgp_rib_work.c calls rib_gr_run()); when no family is kept any more the
 * source goes to the cleanup walk, which removes its "advertised" bits and frees it.
 */
#ifndef SKUA_BGP_RIB_GR_H
#define SKUA_BGP_RIB_GR_H

#include <stdbool.h>
#include <stddef.h>

#include "bgpd/rib/bgp_rib.h"

/* The helper's state of one source. */
enum rib_gr_state {
	RIB_GR_UP = 0,	   /* Established (the capability is recorded) */
	RIB_GR_RESTARTING, /* lost; the restart timer runs until the peer is back */
	RIB_GR_STALE,	   /* the peer is back; the stalepath timer runs until its End-of-RIB */
	RIB_GR_DONE,	   /* nothing kept any more: removals under way, then the cleanup walk */
};

/* A new session: record what its capability said (info), and settle the stale routes of the
 * peer's earlier session, if any (flushed or kept per the new OPEN). */
void rib_gr_peer_up(struct bgp_rib *rib, struct rib_src *src, const struct bgp_session_info *info);
/* src (Established, not yet marked down) is lost in a way GR covers: true when its paths are
 * kept (src is then down and stale), false when GR does not apply (the caller takes it down
 * as usual). */
bool rib_gr_session_lost(struct bgp_rib *rib, struct rib_src *src);
/* src received End-of-RIB for af: the peer's stale routes of af from before go. */
void rib_gr_eor(struct bgp_rib *rib, const struct rib_src *src, enum bgp_af af);
/* Every stale route of the peer whose struct rib_peer is rp goes (except src's, when given). */
void rib_gr_flush_peer(struct bgp_rib *rib, const struct rib_peer *rp, const struct rib_src *keep);
/* Long-lived graceful restart (bgp_rib_llgr.c) has removed src's stale paths of af: nothing of
 * af is kept any more (the source goes once no family is). */
void rib_gr_af_released(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af);
/* Seconds left on the restart timer of src (lost, its peer not back yet); -1 otherwise. For
 * the route views' "Time until Graceful Restart stale route deleted". */
int64_t rib_src_gr_restart_remaining(const struct rib_src *src);
/* The helper's state of src, RIB_GR_UP without GR. */
enum rib_gr_state rib_gr_state(const struct rib_src *src);

/* The bounded removal walk (bgp_rib_work.c). */
bool rib_gr_pending(const struct bgp_rib *rib);
size_t rib_gr_run(struct bgp_rib *rib, size_t budget);

void rib_gr_src_free(struct bgp_rib *rib, struct rib_src *src); /* from rib_src_free() */
void rib_gr_fini(struct bgp_rib *rib);				/* from rib_free() */

#endif /* SKUA_BGP_RIB_GR_H */
