/* SPDX-License-Identifier: ISC */
/*
 * Update groups: when are two sessions sent the same bytes?
 *
 * What a session is sent for a route is export_attr() (bgp_adj_out.c) of the route's best
 * path, encoded with the session's codec into messages of its maximum size. Everything of the
 * receiving session those read is compared here, field by field, or the case is left out:
 *   - the session: the family negotiated, eBGP outside any confederation (iBGP output depends
 *     on the peer's router id, ORIGINATOR_ID, and on route reflection per client, so iBGP
 *     sessions are not grouped yet), long-lived graceful restart (LLGR_STALE routes), our
 *     address on it (next hop self), the codec (4-octet AS, extended messages, our AS) and the
 *     message size. skua negotiates no ADD-PATH and no extended next hop, which would go here;
 *   - its outbound policy: route-map, prefix-list and filter-list by name (they are looked up
 *     by name when applied, bgp_peer_filter.h, and the route-map sees no neighbour address),
 *     send-community, local-as and its options, next-hop-self; none with remove-private-AS (it
 *     reads the peer's AS), default-originate (a per-session route), an advertisement
 *     interval (per-session timing) or an RFC 8212 policy missing (a per-session warning);
 *   - the one per-route difference left, "never back to the session it came from", is decided
 *     per route (update_group_route_shareable()).
 * The check is cheap and made when a batch is about to be shared, so a session whose
 * configuration changes, or that goes down, or refreshes, simply stops matching: there is no
 * group membership to maintain.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/rib/bgp_peer_filter.h"
#include "bgpd/rib/bgp_update_group.h"

static bool same_name(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The parts of a session's configuration that shape its output for af. */
static bool same_policy(const struct bgp_peer_config *a, const struct bgp_peer_config *b,
			enum bgp_af af)
{
	return same_name(a->rmap[af][BGP_DIR_OUT], b->rmap[af][BGP_DIR_OUT]) &&
	       same_name(a->plist[af][BGP_DIR_OUT], b->plist[af][BGP_DIR_OUT]) &&
	       same_name(a->aspath_list[af][BGP_DIR_OUT], b->aspath_list[af][BGP_DIR_OUT]) &&
	       a->send_comm_off[af] == b->send_comm_off[af] && a->local_as == b->local_as &&
	       a->local_as_no_prepend == b->local_as_no_prepend &&
	       a->local_as_replace == b->local_as_replace &&
	       a->nexthop_self[af] == b->nexthop_self[af];
}

/* Left out of groups: configuration that makes a session's output its own. */
static bool groupable(const struct rib_src *s, enum bgp_af af)
{
	const struct bgp_peer_config *c;

	if (!s->peer || !s->up || s->local || !s->af[af] || !s->ebgp || s->confed)
		return false;
	c = &s->peer->conf;
	return c->remove_private_as[af] == BGP_RPA_OFF && !c->default_originate[af] &&
	       !s->deforig[af] && c->adv_interval == 0 &&
	       !bgp_peer_policy_missing(s->peer, true, af, BGP_DIR_OUT);
}

bool update_group_same_output(const struct rib_src *a, const struct rib_src *b, enum bgp_af af)
{
	if (a == b || !groupable(a, af) || !groupable(b, af))
		return false;
	return a->llgr == b->llgr && a->max_msg == b->max_msg && a->codec.as4 == b->codec.as4 &&
	       a->codec.ebgp == b->codec.ebgp && a->codec.local_as == b->codec.local_as &&
	       a->codec.extended_message == b->codec.extended_message &&
	       ipaddr_cmp(&a->local_addr, &b->local_addr) == 0 &&
	       same_policy(&a->peer->conf, &b->peer->conf, af);
}
