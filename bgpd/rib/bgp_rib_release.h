/* SPDX-License-Identifier: ISC */
/* Giving memory back after a large release of routes (see bgp_rib_release.c). */
#ifndef SKUA_BGP_RIB_RELEASE_H
#define SKUA_BGP_RIB_RELEASE_H

#include <stddef.h>

#include "bgpd/rib/bgp_rib.h"

/* Objects (dests and paths) whose release, since the last time, makes the RIB give memory
 * back when its work goes idle: a full table is about two million, one flapping peer's few
 * prefixes nowhere near. */
#define RIB_RELEASE_OBJECTS 65536

/* After every turn of the RIB's work: remember the high-water mark of its objects. */
void rib_release_note(struct bgp_rib *rib);
/* The RIB's work has gone idle: give memory back (see the .c file) when the table is gone
 * after holding RIB_RELEASE_OBJECTS or more, or when half of what it held at the last time
 * went (RIB_RELEASE_OBJECTS at least). */
void rib_release_idle(struct bgp_rib *rib);

#endif /* SKUA_BGP_RIB_RELEASE_H */
