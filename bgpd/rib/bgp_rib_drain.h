/* SPDX-License-Identifier: ISC */
/* Emptied dests reclaimed in bulk while a table drains (see bgp_rib_drain.c). */
#ifndef SKUA_BGP_RIB_DRAIN_H
#define SKUA_BGP_RIB_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/rib/bgp_rib.h"

/* Journal entries one trim may pass at once that make it a burst: the table drains. A full
 * UPDATE holds up to about 800 IPv4 withdrawals; a flapping peer's few prefixes are far
 * below. */
#define RIB_DRAIN_BURST 1024
/* How long the withdrawals must have stopped before the sweep starts. */
#define RIB_DRAIN_QUIET_MS 500

/* The trim may pass backlog entries now: does it leave their emptied dests in the tree? */
bool rib_drain_defers(struct bgp_rib *rib, enum bgp_af af, uint64_t backlog);
/* The trim emptied the journal: the dead dests go now (the whole tree at once when nothing
 * in it is live), or the sweep is started (at once without an event loop). */
void rib_drain_reclaim(struct bgp_rib *rib, enum bgp_af af);
/* The sweep: an in-order walk that frees the dead dests it passes, bounded per turn. */
bool rib_drain_sweep_pending(const struct bgp_rib *rib);
size_t rib_drain_sweep_run(struct bgp_rib *rib, size_t budget);
void rib_drain_fini(struct bgp_rib *rib);
/* Dests in the AF's tree without a path (dead, or emptied and not yet trimmed). */
size_t rib_drain_dead(const struct bgp_rib *rib, enum bgp_af af);

#endif /* SKUA_BGP_RIB_DRAIN_H */
