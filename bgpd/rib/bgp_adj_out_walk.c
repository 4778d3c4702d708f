/* SPDX-License-Identifier: ISC */
/*
 * Which sessions the Adj-RIB-Out must read the table or the journal for. A session whose
 * outbound route-map denies every route (`route-map NOTHING deny 10` with no match clause, or
 * a name naming no map), that has no default route of its own to send and holds nothing, is
 * sent nothing whatever the table holds: walking a full table for it (its initial table, a
 * refresh) or reading every journal entry cost the second feeder of issue 15 a third of its
 * CPU (doc/performance.md, "Two feeders and route-map (round 2)"). Once it holds something
 * (a policy change let routes through), it is read as usual, so that what the map now denies
 * is withdrawn.
 */
#include "lib/compat.h"

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"

bool adj_out_sends_nothing(const struct rib_src *to, enum bgp_af af)
{
	const char *rmap;

	if (!to->peer || to->deforig[af] || to->sent[af])
		return false;
	rmap = to->peer->conf.rmap[af][BGP_DIR_OUT];
	return rmap && route_map_denies_all(rmap);
}
