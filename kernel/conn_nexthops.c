/* SPDX-License-Identifier: ISC */
/*
 * The next hops a BGP connection offers, as FRR 8.4 derives them from the interface that holds
 * the connection's local address (bgp_nexthop_set()): `show bgp neighbors` prints them
 * ("Nexthop", "Nexthop global", "Nexthop local", "BGP connection: shared network"), and an FRR
 * operator reads an IPv4 session's IPv6 next hops there before enabling IPv6 on it.
 *
 * - IPv4 connection: the IPv4 next hop is the local address. The interface's first global
 *   IPv6 address is the global next hop and its link-local one the local next hop; without a
 *   global address, the link-local one is both (FRR: "the admin would use a route-map to
 *   specify the global next hop").
 * - IPv6 connection: the interface's first IPv4 address is the IPv4 next hop (0.0.0.0 when it
 *   has none: the caller puts the router-id there, as FRR). A global local address is the
 *   global next hop, with the interface's link-local address as the local one when the peer is
 *   on a connected subnet; a link-local local address is the local next hop beside the
 *   interface's global one, or the global next hop itself when the interface has none.
 * - Shared network: the peer's address is on a subnet of one of our interfaces (always, for
 *   a link-local connection).
 * No interface holds the local address (a connection that just went away): every IPv6 next
 * hop stays ::, and the network is not shared.
 */
#include "lib/compat.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <string.h>

#include "kernel/kernel.h"

static bool is_ll(const struct in6_addr *a)
{
	return IN6_IS_ADDR_LINKLOCAL(a);
}

static const struct in6_addr *v6_of(const struct ifaddrs *ifa)
{
	return &((const struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr;
}

static struct in_addr v4_of(const struct sockaddr *sa)
{
	return ((const struct sockaddr_in *)sa)->sin_addr;
}

/* Does ifa hold exactly the address a? */
static bool holds(const struct ifaddrs *ifa, const struct ipaddr *a)
{
	if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != a->family)
		return false;
	if (a->family == AF_INET)
		return v4_of(ifa->ifa_addr).s_addr == a->u.v4.s_addr;
	return memcmp(v6_of(ifa), &a->u.v6, sizeof(a->u.v6)) == 0;
}

/* Is a on ifa's subnet (an IPv4 point-to-point address with a peer: that peer)? */
static bool on_subnet(const struct ifaddrs *ifa, const struct ipaddr *a)
{
	const uint8_t *mine, *mask, *want = a->u.bytes;
	size_t len;

	if (!ifa->ifa_addr || !ifa->ifa_netmask || ifa->ifa_addr->sa_family != a->family)
		return false;
	/* getifaddrs gives a point-to-point interface's peer in ifa_dstaddr, or the address
	 * itself when it has none (then the prefix counts, as for any other). */
	if ((ifa->ifa_flags & IFF_POINTOPOINT) && ifa->ifa_dstaddr && a->family == AF_INET &&
	    v4_of(ifa->ifa_dstaddr).s_addr != v4_of(ifa->ifa_addr).s_addr)
		return v4_of(ifa->ifa_dstaddr).s_addr == a->u.v4.s_addr;
	if (a->family == AF_INET) {
		mine = (const uint8_t *)&((const struct sockaddr_in *)ifa->ifa_addr)->sin_addr;
		mask = (const uint8_t *)&((const struct sockaddr_in *)ifa->ifa_netmask)->sin_addr;
		len = 4;
	} else {
		mine = (const uint8_t *)v6_of(ifa);
		mask = (const uint8_t *)&((const struct sockaddr_in6 *)ifa->ifa_netmask)->sin6_addr;
		len = 16;
	}
	for (size_t i = 0; i < len; i++)
		if ((mine[i] & mask[i]) != (want[i] & mask[i]))
			return false;
	return true;
}

/* The interface's first IPv6 address that is (ll) or is not (!ll) link-local. */
static bool if_v6(const struct ifaddrs *all, const char *ifname, bool ll, struct in6_addr *out)
{
	for (const struct ifaddrs *ifa = all; ifa; ifa = ifa->ifa_next)
		if (ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET6 &&
		    strcmp(ifa->ifa_name, ifname) == 0 && is_ll(v6_of(ifa)) == ll) {
			*out = *v6_of(ifa);
			return true;
		}
	return false;
}

static bool if_v4(const struct ifaddrs *all, const char *ifname, struct in_addr *out)
{
	for (const struct ifaddrs *ifa = all; ifa; ifa = ifa->ifa_next)
		if (ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET &&
		    strcmp(ifa->ifa_name, ifname) == 0) {
			*out = v4_of(ifa->ifa_addr);
			return true;
		}
	return false;
}

static bool connected(const struct ifaddrs *all, const struct ipaddr *a)
{
	for (const struct ifaddrs *ifa = all; ifa; ifa = ifa->ifa_next)
		if (on_subnet(ifa, a))
			return true;
	return false;
}

static void from_v4(const struct ifaddrs *all, const char *ifname, const struct ipaddr *local,
		    const struct ipaddr *remote, struct kernel_conn_nexthops *nh)
{
	nh->v4 = local->u.v4;
	if (if_v6(all, ifname, false, &nh->v6_global)) {
		if_v6(all, ifname, true, &nh->v6_local);
	} else if (if_v6(all, ifname, true, &nh->v6_global)) {
		nh->v6_local = nh->v6_global;
	}
	nh->shared_network = connected(all, remote);
}

static void from_v6(const struct ifaddrs *all, const char *ifname, const struct ipaddr *local,
		    const struct ipaddr *remote, struct kernel_conn_nexthops *nh)
{
	if_v4(all, ifname, &nh->v4);
	if (!is_ll(&local->u.v6)) {
		nh->v6_global = local->u.v6;
		nh->shared_network = connected(all, remote);
		if (nh->shared_network)
			if_v6(all, ifname, true, &nh->v6_local);
		return;
	}
	nh->shared_network = true;
	if (if_v6(all, ifname, false, &nh->v6_global))
		nh->v6_local = local->u.v6;
	else
		nh->v6_global = local->u.v6;
}

int kernel_conn_nexthops(const struct ipaddr *local, const struct ipaddr *remote,
			 struct kernel_conn_nexthops *nh)
{
	struct ifaddrs *all;
	const struct ifaddrs *ifa;

	memset(nh, 0, sizeof(*nh));
	if (local->family == AF_INET)
		nh->v4 = local->u.v4;
	if (local->family != remote->family ||
	    (local->family != AF_INET && local->family != AF_INET6))
		return -EAFNOSUPPORT;
	if (getifaddrs(&all) < 0)
		return -errno;
	for (ifa = all; ifa && !holds(ifa, local); ifa = ifa->ifa_next)
		;
	if (!ifa) {
		freeifaddrs(all);
		return -ENOENT;
	}
	if (local->family == AF_INET)
		from_v4(all, ifa->ifa_name, local, remote, nh);
	else
		from_v6(all, ifa->ifa_name, local, remote, nh);
	freeifaddrs(all);
	return 0;
}
