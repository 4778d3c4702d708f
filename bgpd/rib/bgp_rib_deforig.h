/* SPDX-License-Identifier: ISC */
/*
 * neighbor X default-originate [route-map NAME] inside the RIB (bgp_rib_deforig.c): which
 * default route each session is sent, kept on its struct rib_src, and handed to the export
 * (bgp_adj_out.c) for the family's 0.0.0.0/0 or ::/0.
 */
#ifndef SKUA_BGP_RIB_DEFORIG_H
#define SKUA_BGP_RIB_DEFORIG_H

#include <stdbool.h>

#include "bgpd/rib/bgp_rib.h"

/* A session came up: what it is to be sent, before its first walk of the table. */
void rib_deforig_peer_up(struct bgp_rib *rib, struct rib_src *src);
/* A session goes: its default route goes with it. */
void rib_deforig_src_stop(struct rib_src *src);
/* How often at most a change of the table makes the route-map conditions be evaluated again
 * (FRR 8.4's fixed rescan period); a configuration or route-map change is evaluated at once. */
#define RIB_DEFORIG_INTERVAL_MS 5000

/* Is an evaluation due (bgp_rib_work.c)? The turn's evaluation: runs it when due, else arms
 * the timer that brings the next turn when the interval is over. The timer goes in
 * rib_deforig_fini(). */
bool rib_deforig_pending(const struct bgp_rib *rib);
void rib_deforig_run(struct bgp_rib *rib);
void rib_deforig_tick(struct bgp_rib *rib);
void rib_deforig_fini(struct bgp_rib *rib);
/* Is the family's default dest to be kept though it has no path (a session has one)? */
bool rib_deforig_keeps(const struct bgp_rib *rib, enum bgp_af af);

#endif /* SKUA_BGP_RIB_DEFORIG_H */
