/* SPDX-License-Identifier: ISC */
/*
 * RPKI revalidation: the RIB as the watcher of the RPKI store (bgpd/rpki/rpki_db.h). When the
 * store's data changes, the routes whose validation state may have changed go through their
 * neighbor's inbound route-map again (from the kept Adj-RIB-In), and their prefixes through
 * the outbound route-maps, in bounded batches per loop turn (bgp_rib_work.c).
 */
#ifndef SKUA_BGP_RIB_RPKI_H
#define SKUA_BGP_RIB_RPKI_H

#include <stdbool.h>
#include <stddef.h>

#include "bgpd/core/bgp_peer.h"
#include "bgpd/rpki/rpki.h"
#include "lib/prefix.h"

struct bgp_rib;

/* Which ASPA procedure applies to routes from a neighbor towards which we have role: from a
 * customer, a lateral peer or a route server client, upstream; from a provider, downstream;
 * from a route server (we are its client) upstream too, the route server being no hop of
 * the path (draft-ietf-sidrops-aspa-verification 6); no role: none (ASPA_NOT_USED). */
static inline enum aspa_dir bgp_role_aspa_dir(enum bgp_role role)
{
	switch (role) {
	case BGP_ROLE_PROVIDER:
	case BGP_ROLE_RS_SERVER:
	case BGP_ROLE_PEER:
	case BGP_ROLE_RS_CLIENT:
		return ASPA_DIR_UPSTREAM;
	case BGP_ROLE_CUSTOMER:
		return ASPA_DIR_DOWNSTREAM;
	default:
		return ASPA_DIR_NONE;
	}
}

/* Routes to p and its more specifics may have a new state / every route may. Queued: the work
 * runs from the RIB's deferred task. */
void rib_rpki_prefix_changed(struct bgp_rib *rib, const struct prefix *p);
void rib_rpki_all_changed(struct bgp_rib *rib);

/* Make rib the watcher of the daemon's RPKI store (rpki_db_default()), or stop (on false),
 * and give the store the instance's AS as the origin of routes with an empty AS_PATH.
 * Nothing when there is no store. */
void rib_rpki_watch(struct bgp_rib *rib, bool on);

/* The work scheduler's side: anything queued? Run at most budget prefixes; returns the
 * prefixes visited. */
bool rib_rpki_pending(const struct bgp_rib *rib);
size_t rib_rpki_run(struct bgp_rib *rib, size_t budget);
void rib_rpki_fini(struct bgp_rib *rib);

#endif /* SKUA_BGP_RIB_RPKI_H */
