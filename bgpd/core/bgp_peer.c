/* SPDX-License-Identifier: ISC */
/* A peer's effective values and the instance's peer table (bgpd/core/bgp_peer.h, bgp.h). */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"
#include "lib/hash.h"

static uint32_t peer_hash_key(const void *item)
{
	const struct bgp_peer *peer = item;

	return hash_bytes(peer->conf.addr.u.bytes, family_addr_bytes(peer->conf.addr.family),
			  peer->conf.addr.family);
}

static bool peer_hash_eq(const void *a, const void *b)
{
	const struct bgp_peer *pa = a, *pb = b;

	return ipaddr_cmp(&pa->conf.addr, &pb->conf.addr) == 0;
}

struct hash *bgp_peer_table_new(void)
{
	return hash_new(peer_hash_key, peer_hash_eq, "BGP peers");
}

struct bgp_peer *bgp_peer_lookup(struct bgp *bgp, const struct ipaddr *addr)
{
	struct bgp_peer key;

	if (!bgp || !addr)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.conf.addr = *addr;
	ipaddr_unmap_v4(&key.conf.addr);
	return hash_lookup(bgp->peer_hash, &key);
}

bool bgp_peer_is_ebgp(const struct bgp_peer *peer)
{
	switch (peer->conf.remote_as_type) {
	case BGP_REMOTE_AS_EXTERNAL:
		return true;
	case BGP_REMOTE_AS_INTERNAL:
		return false;
	case BGP_REMOTE_AS_SPECIFIED:
		break;
	}
	if (peer->conf.remote_as)
		return peer->conf.remote_as != peer->bgp->asn && !bgp_peer_is_confed(peer);
	return peer->learned_as && peer->learned_as != peer->bgp->asn;
}

uint32_t bgp_peer_remote_as_expected(const struct bgp_peer *peer)
{
	return peer->conf.remote_as_type == BGP_REMOTE_AS_SPECIFIED ? peer->conf.remote_as : 0;
}

bool bgp_peer_af_activated(const struct bgp_peer *peer, enum bgp_af af)
{
	if ((unsigned)af >= BGP_AF_MAX)
		return false;
	switch (peer->conf.af_activation[af]) {
	case BGP_AF_ACT_ON:
		return true;
	case BGP_AF_ACT_OFF:
		return false;
	case BGP_AF_ACT_DEFAULT:
		break;
	}
	/* `bgp default ipv4-unicast` (on by default) activates IPv4 unicast for every neighbor,
	 * FRR's traditional behaviour; other families need `neighbor X activate`. */
	return af == BGP_AF_IPV4_UNICAST && peer->bgp->default_ipv4_unicast;
}

uint16_t bgp_peer_keepalive(const struct bgp_peer *peer)
{
	if (peer->conf.timers_configured)
		return peer->conf.keepalive;
	return peer->bgp->keepalive;
}

uint16_t bgp_peer_holdtime(const struct bgp_peer *peer)
{
	if (peer->conf.timers_configured)
		return peer->conf.holdtime;
	return peer->bgp->holdtime;
}

enum bgp_gr_mode bgp_peer_gr_mode(const struct bgp_peer *peer)
{
	if (peer->conf.gr_mode != BGP_GR_INHERIT)
		return peer->conf.gr_mode;
	return peer->bgp->gr_mode != BGP_GR_INHERIT ? peer->bgp->gr_mode : BGP_GR_HELPER;
}
