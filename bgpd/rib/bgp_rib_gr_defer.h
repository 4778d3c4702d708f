/* SPDX-License-Identifier: ISC */
/*
 * The restarting speaker's deferred best-path selection (RFC 4724 4.1),
 * bgpd/rib/bgp_rib_gr_defer.c.
 *
 * While bgpd restarts gracefully, the routes of its earlier run keep forwarding (the forwarding
 * side adopted them, bgpd/fib/bgp_fib_gr.c) and its peers keep its routes as stale. The RIB
 * then learns the peers' tables but neither touches the kernel nor sends an UPDATE until every
 * peer has sent End-of-RIB or select-defer-time has run out; then it decides once, installs
 * only what differs from what the kernel holds, and sends its table followed by End-of-RIB.
 */
#ifndef SKUA_BGP_RIB_GR_DEFER_H
#define SKUA_BGP_RIB_GR_DEFER_H

#include <stdbool.h>
#include <stdint.h>

struct bgp_rib;

/* Start deferring (the forwarding side found an earlier run's routes): no FIB change and no
 * UPDATE until every peer's End-of-RIB or `seconds` (select-defer-time) have passed. Sets
 * bgp->gr_restarting (the R bit) until then. */
void rib_gr_defer_begin(struct bgp_rib *rib, uint32_t seconds);
/* Is the selection deferred now? */
bool rib_gr_deferring(const struct bgp_rib *rib);
/* A peer came up or went down, or sent End-of-RIB: end the deferral if nothing is awaited. */
void rib_gr_defer_check(struct bgp_rib *rib);
/* The RIB is going: disarm the timer. */
void rib_gr_defer_fini(struct bgp_rib *rib);

#endif /* SKUA_BGP_RIB_GR_DEFER_H */
