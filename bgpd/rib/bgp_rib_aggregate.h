/* SPDX-License-Identifier: ISC */
/*
 * aggregate-address inside the RIB (bgp_rib_aggregate.c): which aggregates a changed prefix
 * concerns, and the recomputation of those, run with the RIB's deferred work.
 */
#ifndef SKUA_BGP_RIB_AGGREGATE_H
#define SKUA_BGP_RIB_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>

#include "bgpd/rib/bgp_rib.h"

/* dest's paths changed: every aggregate strictly covering it is recomputed soon. */
void rib_aggr_touch(struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest);
/* Aggregates waiting for their recomputation, and that recomputation (bgp_rib_work.c). */
bool rib_aggr_pending(const struct bgp_rib *rib);
void rib_aggr_run(struct bgp_rib *rib);
/* Is dest a more specific of an aggregate that exists and suppresses it, with summary-only
 * or a suppress-map permitting its best path (FRR's status 's': sent to no neighbor)? */
bool rib_aggr_suppressed(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest);
/* The RIB goes: its aggregates with it (their routes go with the table). */
void rib_aggr_fini(struct bgp_rib *rib);

#endif /* SKUA_BGP_RIB_AGGREGATE_H */
