/* SPDX-License-Identifier: ISC */
/*
 * The null backend of kernel/kernel.h: every option "succeeds" without touching the socket.
 * For unit tests that use socketpairs, and for running without privileges; never linked into
 * bgpd together with the Linux backend (kernel/libkernel_null.la is a separate library).
 */
#include "lib/compat.h"

#include <sys/socket.h>

#include "kernel/kernel.h"

int kernel_sock_reuseaddr(int fd)
{
	return 0;
}

int kernel_sock_v6only(int fd)
{
	return 0;
}

int kernel_sock_ttl(int fd, int family, int ttl)
{
	return ttl >= 1 && ttl <= 255 ? 0 : -EINVAL;
}

int kernel_sock_get_ttl(int fd, int family)
{
	return 64;
}

int kernel_sock_minttl(int fd, int family, int minttl)
{
	return minttl >= 0 && minttl <= 255 ? 0 : -EINVAL;
}

int kernel_sock_get_minttl(int fd, int family)
{
	return 0;
}

int kernel_sock_md5(int fd, const struct ipaddr *peer, const char *key)
{
	return 0;
}

int kernel_sock_bind(int fd, const struct ipaddr *addr, uint16_t port)
{
	return 0;
}

int kernel_sock_bind_device(int fd, const char *ifname)
{
	return 0;
}

int kernel_sock_error(int fd)
{
	return 0;
}

int kernel_sock_names(int fd, struct ipaddr *local, uint16_t *lport, struct ipaddr *remote,
		      uint16_t *rport)
{
	if (local) {
		memset(local, 0, sizeof(*local));
		if (lport)
			*lport = 0;
	}
	if (remote) {
		memset(remote, 0, sizeof(*remote));
		if (rport)
			*rport = 0;
	}
	return 0;
}

int kernel_highest_ipv4(struct in_addr *addr)
{
	return -ENOENT;
}

int kernel_if_addr(const char *ifname, int family, struct ipaddr *addr)
{
	return -EADDRNOTAVAIL;
}

const char *kernel_sock_ttl_name(int family)
{
	return family == AF_INET6 ? "IPV6_UNICAST_HOPS" : "IP_TTL";
}
