/* SPDX-License-Identifier: ISC */
/*
 * Interface addresses through getifaddrs(3): enough for the router-id choice and for
 * `update-source IFNAME` until the rtnetlink interface mirror exists.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include "kernel/kernel.h"

int kernel_highest_ipv4(struct in_addr *addr)
{
	struct ifaddrs *ifap, *ifa;
	uint32_t best = 0;

	if (getifaddrs(&ifap) < 0)
		return -errno;
	for (ifa = ifap; ifa; ifa = ifa->ifa_next) {
		const struct sockaddr_in *sin;
		uint32_t a;

		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != AF_INET)
			continue;
		if (!(ifa->ifa_flags & IFF_UP))
			continue;
		sin = (const struct sockaddr_in *)ifa->ifa_addr;
		a = ntohl(sin->sin_addr.s_addr);
		if ((a >> 24) == 127 || a == 0)
			continue;
		if (a > best)
			best = a;
	}
	freeifaddrs(ifap);
	if (best == 0)
		return -ENOENT;
	addr->s_addr = htonl(best);
	return 0;
}

/* Global unicast beats link-local for IPv6: a session source must be routable. */
static bool v6_is_linklocal(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xfe && (a->s6_addr[1] & 0xc0) == 0x80;
}

int kernel_if_addr(const char *ifname, int family, struct ipaddr *addr)
{
	struct ifaddrs *ifap, *ifa;
	bool found = false, found_global = false;

	if (getifaddrs(&ifap) < 0)
		return -errno;
	for (ifa = ifap; ifa && !found_global; ifa = ifa->ifa_next) {
		struct ipaddr a;
		uint16_t port;

		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != family)
			continue;
		if (strcmp(ifa->ifa_name, ifname) != 0)
			continue;
		if (ipaddr_from_sockaddr(&a, &port, ifa->ifa_addr) < 0)
			continue;
		if (family == AF_INET6 && v6_is_linklocal(&a.u.v6)) {
			if (!found)
				*addr = a;
			found = true;
			continue;
		}
		*addr = a;
		found = found_global = true;
	}
	freeifaddrs(ifap);
	return found ? 0 : -EADDRNOTAVAIL;
}
