/* SPDX-License-Identifier: ISC */
/* Linux socket options for BGP sockets (kernel/kernel.h). Each call is one setsockopt. */
#include "lib/compat.h"

#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel.h"

/* glibc may lack it while <linux/in6.h> conflicts with <netinet/in.h>: the value is ABI. */
#ifndef IPV6_MINHOPCOUNT
#define IPV6_MINHOPCOUNT 73
#endif

static int set_int(int fd, int level, int opt, int val)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)) < 0)
		return -errno;
	return 0;
}

static int get_int(int fd, int level, int opt)
{
	int val = 0;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, level, opt, &val, &len) < 0)
		return -errno;
	return val;
}

int kernel_sock_reuseaddr(int fd)
{
	return set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
}

int kernel_sock_v6only(int fd)
{
	return set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1);
}

int kernel_sock_get_ttl(int fd, int family)
{
	if (family == AF_INET6)
		return get_int(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS);
	return get_int(fd, IPPROTO_IP, IP_TTL);
}

int kernel_sock_bind(int fd, const struct ipaddr *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	socklen_t len = ipaddr_to_sockaddr(addr, port, &ss);

	if (len == 0)
		return -EAFNOSUPPORT;
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return -errno;
	return 0;
}

int kernel_port_probe(const struct ipaddr *addr, uint16_t port)
{
	int fd = socket(addr->family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	int r;

	if (fd < 0)
		return -errno;
	/* SO_REUSEADDR: connections of an earlier run lingering in TIME_WAIT do not count; a
	 * listener does. No SO_REUSEPORT: with it we would be let in beside another bgpd. */
	r = kernel_sock_reuseaddr(fd);
	if (r == 0 && addr->family == AF_INET6)
		r = kernel_sock_v6only(fd);
	if (r == 0)
		r = kernel_sock_bind(fd, addr, port);
	close(fd);
	return r;
}

int kernel_sock_bind_device(int fd, const char *ifname)
{
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname) + 1) < 0)
		return -errno;
	return 0;
}

int kernel_sock_error(int fd)
{
	int err = get_int(fd, SOL_SOCKET, SO_ERROR);

	return err > 0 ? -err : err;
}

int kernel_sock_names(int fd, struct ipaddr *local, uint16_t *lport, struct ipaddr *remote,
		      uint16_t *rport)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (local) {
		if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
			return -errno;
		if (ipaddr_from_sockaddr(local, lport, (struct sockaddr *)&ss) < 0)
			return -EAFNOSUPPORT;
		ipaddr_unmap_v4(local);
	}
	if (remote) {
		len = sizeof(ss);
		if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0)
			return -errno;
		if (ipaddr_from_sockaddr(remote, rport, (struct sockaddr *)&ss) < 0)
			return -EAFNOSUPPORT;
		ipaddr_unmap_v4(remote);
	}
	return 0;
}
