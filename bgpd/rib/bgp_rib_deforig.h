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
/* Evaluate again (configuration, route-maps or the table changed) at the next turn of the
 * RIB's work, and that evaluation (bgp_rib_work.c). */
bool rib_deforig_pending(const struct bgp_rib *rib);
void rib_deforig_run(struct bgp_rib *rib);
/* Is the family's default dest to be kept though it has no path (a session has one)? */
bool rib_deforig_keeps(const struct bgp_rib *rib, enum bgp_af af);

#endif /* SKUA_BGP_RIB_DEFORIG_H */
