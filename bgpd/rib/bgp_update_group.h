/* SPDX-License-Identifier: ISC */
/*
 * Update groups: which sessions are provably sent the same bytes for a family, so that one
 * export evaluation and one encoding of each UPDATE serve them all (bgp_adj_out.c shares a
 * batch; FRR calls such sessions an update group). See bgp_update_group.c for what must be
 * equal and why.
 */
#ifndef SKUA_BGP_UPDATE_GROUP_H
#define SKUA_BGP_UPDATE_GROUP_H

#include <stdbool.h>

#include "bgpd/rib/bgp_rib.h"

/* Would a and b, both up, be sent the same UPDATEs for af for any route whose source is
 * neither of them? Symmetric; false for a session with itself. */
bool update_group_same_output(const struct rib_src *a, const struct rib_src *b, enum bgp_af af);

/* May a route whose best path came from `from` (NULL: no best path) go into a batch shared
 * between the sessions a and b? Not when it came from either: a route is never sent back to
 * the session it came from, so their outputs differ for it. */
static inline bool update_group_route_shareable(const struct rib_src *from, const struct rib_src *a,
						const struct rib_src *b)
{
	return !from ||
	       (from != a && from != b && (!from->rp || (from->rp != a->rp && from->rp != b->rp)));
}

#endif /* SKUA_BGP_UPDATE_GROUP_H */
