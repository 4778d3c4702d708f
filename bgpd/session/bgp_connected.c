/* SPDX-License-Identifier: ISC */
/*
 * The connected check of single-hop eBGP, as FRR: a neighbor we talk to with TTL 1 (eBGP
 * without ebgp-multihop or ttl-security) can only be one link away, so FRR connects to it only
 * once its address is on a connected network (FRR asks zebra; "Waiting for NHT" until then).
 * `neighbor X disable-connected-check` skips the check, for a neighbor's loopback reached
 * over a static route; the TTL stays 1 (one link, the packet is not forwarded). Like FRR the
 * check only gates our outgoing connections: a connection the neighbor opens is accepted.
 *
 * "Connected" here is an up interface's address prefix in this network namespace
 * (getifaddrs()), looked at each time a connection is to be opened (every connect retry),
 * so an address added later is found without any netlink watch.
 */
#include "lib/compat.h"

#include <ifaddrs.h>
#include <net/if.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"

/* Does a equal b under mask (len bytes)? */
static bool masked_equal(const uint8_t *a, const uint8_t *b, const uint8_t *mask, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((a[i] & mask[i]) != (b[i] & mask[i]))
			return false;
	return true;
}

/* Is addr inside the prefix of an address of an up interface (not the host address itself
 * on a /32 or /128, which connects nothing)? -1 when the interfaces cannot be read. */
static int on_connected_network(const struct ipaddr *addr)
{
	struct ifaddrs *list, *ifa;
	int found = 0;

	if (getifaddrs(&list) < 0)
		return -1;
	for (ifa = list; ifa && !found; ifa = ifa->ifa_next) {
		const uint8_t *a, *m, *p;
		size_t len;

		if (!ifa->ifa_addr || !ifa->ifa_netmask || !(ifa->ifa_flags & IFF_UP) ||
		    ifa->ifa_addr->sa_family != addr->family)
			continue;
		if (addr->family == AF_INET) {
			a = (const uint8_t *)&((struct sockaddr_in *)ifa->ifa_addr)->sin_addr;
			m = (const uint8_t *)&((struct sockaddr_in *)ifa->ifa_netmask)->sin_addr;
			p = (const uint8_t *)&addr->u.v4;
			len = 4;
		} else {
			a = (const uint8_t *)&((struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr;
			m = (const uint8_t *)&((struct sockaddr_in6 *)ifa->ifa_netmask)->sin6_addr;
			p = (const uint8_t *)&addr->u.v6;
			len = 16;
		}
		if (m[len - 1] == 0xff && memcmp(a, p, len) != 0)
			continue; /* a host route's own address: nothing else on that "network" */
		found = masked_equal(a, p, m, len);
	}
	freeifaddrs(list);
	return found;
}

bool bgp_session_connected_ok(struct bgp_session *s)
{
	struct bgp_peer *peer = s->peer;
	char buf[IPADDR_STRLEN];
	int r;

	if (peer->conf.disable_connected_check || !bgp_peer_is_ebgp(peer) ||
	    peer->conf.ttl_security_hops || bgp_peer_plain_ttl(peer) != 1)
		return true;
	r = on_connected_network(&peer->conf.addr);
	if (r != 0) {
		s->not_connected_logged = false;
		return true; /* connected, or we cannot tell: try, as before */
	}
	if (s->last_reset != BGP_DOWN_WAITING_NHT) {
		s->last_reset = BGP_DOWN_WAITING_NHT;
		s->last_reset_ms = monotime_ms();
	}
	if (!s->not_connected_logged) {
		s->not_connected_logged = true;
		bgp_peer_info(
			peer,
			"%s is on no connected network: not connecting to this single-hop "
			"eBGP neighbor (waiting, as FRR); for a loopback reached over a route "
			"configure `neighbor %s disable-connected-check` or ebgp-multihop",
			ipaddr_to_str(&peer->conf.addr, buf, sizeof(buf)), peer->name);
	}
	return false;
}
