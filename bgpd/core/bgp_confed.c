/* SPDX-License-Identifier: ISC */
/*
 * Confederations (RFC 5065) as FRR configures them: `bgp confederation identifier ASN` is the
 * AS the outside sees (OPEN, AS_PATH), `bgp confederation peers ASN...` the other member ASes.
 * A neighbor whose remote-as is one of them is confed-external: handled as internal for the
 * attributes (LOCAL_PREF and MED kept, next hop unchanged), with our member AS prepended in an
 * AS_CONFED_SEQUENCE (bgpd/rib/bgp_adj_out.c); a neighbor of any other AS is external and sees
 * the identifier and no confederation segments.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"

bool bgp_confed_member(const struct bgp *bgp, uint32_t asn)
{
	if (!bgp || !bgp->confed_id)
		return false;
	for (unsigned i = 0; i < bgp->confed_npeers; i++)
		if (bgp->confed_peers[i] == asn)
			return true;
	return false;
}

uint32_t bgp_outside_as(const struct bgp *bgp)
{
	return bgp->confed_id ? bgp->confed_id : bgp->asn;
}

bool bgp_peer_is_confed(const struct bgp_peer *peer)
{
	return peer->conf.remote_as_type == BGP_REMOTE_AS_SPECIFIED && peer->conf.remote_as &&
	       peer->conf.remote_as != peer->bgp->asn &&
	       bgp_confed_member(peer->bgp, peer->conf.remote_as);
}

uint32_t bgp_peer_local_as(const struct bgp_peer *peer)
{
	const struct bgp_peer_config *c = &peer->conf;
	bool internal =
		c->remote_as_type == BGP_REMOTE_AS_INTERNAL ||
		(c->remote_as_type == BGP_REMOTE_AS_SPECIFIED && c->remote_as == peer->bgp->asn);

	if (c->local_as)
		return c->local_as;
	if (internal || bgp_peer_is_confed(peer))
		return peer->bgp->asn;
	return bgp_outside_as(peer->bgp);
}
