/* SPDX-License-Identifier: ISC */
/*
 * RFC 8326 graceful shutdown, the sending side: `bgp graceful-shutdown` marks everything we
 * send, so that the neighbors move their traffic away before the sessions go.
 */
#ifndef SKUA_BGP_GSHUT_H
#define SKUA_BGP_GSHUT_H

#include <stdbool.h>

#include "bgpd/core/bgp.h"
#include "bgpd/wire/bgp_attr.h"

/*
 * When bgp is in graceful shutdown, mark the exported set t: the GRACEFUL_SHUTDOWN community
 * added (RFC 8326 4), and towards iBGP a LOCAL_PREF of 0 (FRR; eBGP neighbors get no
 * LOCAL_PREF, RFC 4271 5.1.5, and lower their own on the community). Returns the community
 * list t now points to (the caller drops it once t is interned), NULL when t's is unchanged.
 */
struct bgp_u32list *bgp_gshut_mark(const struct bgp *bgp, bool ebgp, struct bgp_attr *t);

/* `bgp graceful-shutdown` switched on or off: every neighbor's routes are sent again. */
void bgp_graceful_shutdown_changed(struct bgp *bgp);

#endif /* SKUA_BGP_GSHUT_H */
