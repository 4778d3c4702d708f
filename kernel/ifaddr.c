/* SPDX-License-Identifier: ISC */
/*
 * Interface addresses through getifaddrs(3): enough for the router-id choice and for
 * `update-source IFNAME` until the rtnetlink interface mirror exists.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "lib/source_addr.h"

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

/* Every address of the interface in the peer's family, in getifaddrs' order: a calloc'ed array
 * the caller frees, and its length (0: none, *out NULL). */
static int if_addrs_of_family(const char *ifname, int family, struct ipaddr **out, size_t *n)
{
	struct ifaddrs *ifap, *ifa;
	size_t count = 0;

	*out = NULL;
	*n = 0;
	if (getifaddrs(&ifap) < 0)
		return -errno;
	for (ifa = ifap; ifa; ifa = ifa->ifa_next)
		if (ifa->ifa_addr && ifa->ifa_addr->sa_family == family &&
		    strcmp(ifa->ifa_name, ifname) == 0)
			count++;
	if (count && !(*out = calloc(count, sizeof(**out)))) {
		freeifaddrs(ifap);
		return -ENOMEM;
	}
	for (ifa = ifap; ifa && *n < count; ifa = ifa->ifa_next) {
		uint16_t port;

		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != family ||
		    strcmp(ifa->ifa_name, ifname) != 0)
			continue;
		if (ipaddr_from_sockaddr(&(*out)[*n], &port, ifa->ifa_addr) == 0)
			(*n)++;
	}
	freeifaddrs(ifap);
	return 0;
}

int kernel_if_addr(const char *ifname, const struct ipaddr *toward, struct ipaddr *addr)
{
	struct ipaddr *cands;
	size_t n;
	int r;

	r = if_addrs_of_family(ifname, toward->family, &cands, &n);
	if (r < 0)
		return r;
	if (n == 0)
		r = -ENOENT;
	else
		r = source_addr_choose(cands, n, toward, addr);
	free(cands);
	return r;
}
