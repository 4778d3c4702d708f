/* SPDX-License-Identifier: ISC */
/*
 * A neighbor's filters as the RIB side applies them to the routes it receives from a peer
 * (in) and sends to it (out).
 *
 * Today that is `neighbor X prefix-list NAME in|out`, `neighbor X filter-list NAME in|out`
 * (an AS path access list, bgpd/policy/bgp_aspath_list.h) and `neighbor X route-map NAME in|out`
 * (bgpd/policy/bgp_routemap.h), applied in that order. The lists are looked up by name each
 * time a batch of routes is filtered (an UPDATE's prefixes, a batch of the Adj-RIB-Out), so a
 * list created, changed or deleted after the neighbor statement takes effect without any
 * pointer to keep valid; a name that names no list (or route-map) denies everything until it
 * exists, as in FRR.
 *
 * What follows a change of them: bgpd/rib/bgp_policy_reeval.h.
 */
#ifndef SKUA_BGP_PEER_FILTER_H
#define SKUA_BGP_PEER_FILTER_H

#include "bgpd/core/bgp.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "lib/plist.h"

/* Does the neighbor's `prefix-list NAME dir` let p through? No such statement: yes; a name
 * that names no list: no (FRR denies everything then). */
static inline bool bgp_peer_plist_permits(const struct bgp_peer *peer, enum bgp_af af,
					  enum bgp_dir dir, const struct prefix *p)
{
	const char *name = peer->conf.plist[af][dir];

	return !name ||
	       prefix_list_apply(prefix_list_lookup(bgp_af_family(af), name), p) == PREFIX_PERMIT;
}

/* The same for `filter-list NAME dir` (an AS path access list) and an AS path. */
static inline bool bgp_peer_aspath_permits(const struct bgp_peer *peer, enum bgp_af af,
					   enum bgp_dir dir, const struct bgp_aspath *path)
{
	const char *name = peer->conf.aspath_list[af][dir];

	return !name || aspath_list_permits(aspath_list_lookup(name), path);
}

/*
 * RFC 8212 (`bgp ebgp-requires-policy`, on by default as in FRR 8.4): is this eBGP neighbor
 * (ebgp: as its session runs; a confederation boundary counts, RFC 8212 2 names it and FRR
 * 8.4 sends a member AS nothing without a policy) without any policy for af in direction dir,
 * so that no route flows that way? A route-map, prefix-list or filter-list statement counts as a
 * policy whatever it names, as FRR's bgp_{in,out}bound_policy_exists() (FRR's distribute-list,
 * which skua lacks, would count too). iBGP needs none.
 */
static inline bool bgp_peer_policy_missing(const struct bgp_peer *peer, bool ebgp, enum bgp_af af,
					   enum bgp_dir dir)
{
	const struct bgp_peer_config *c = &peer->conf;

	return ebgp && peer->bgp && peer->bgp->ebgp_requires_policy && !c->rmap[af][dir] &&
	       !c->plist[af][dir] && !c->aspath_list[af][dir];
}

#endif /* SKUA_BGP_PEER_FILTER_H */
