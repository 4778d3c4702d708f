/* SPDX-License-Identifier: ISC */
/*
 * The null backend of kernel/kernel.h: every option "succeeds" without touching the socket.
 * For unit tests that use socketpairs, and for running without privileges; never linked into
 * bgpd together with the Linux backend (kernel/libkernel_null.la is a separate library).
 */
#include "lib/compat.h"

#include <string.h>
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

int kernel_sock_get_ttl(int fd, int family)
{
	return 64;
}

int kernel_sock_bind(int fd, const struct ipaddr *addr, uint16_t port)
{
	return 0;
}

int kernel_sock_bind_device(int fd, const char *ifname)
{
	return 0;
}

int kernel_port_probe(const struct ipaddr *addr, uint16_t port)
{
	return 0; /* no kernel, no port taken */
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

int kernel_if_addr(const char *ifname, const struct ipaddr *toward, struct ipaddr *addr)
{
	return -EADDRNOTAVAIL;
}

int kernel_conn_nexthops(const struct ipaddr *local, const struct ipaddr *remote,
			 struct kernel_conn_nexthops *nh)
{
	memset(nh, 0, sizeof(*nh));
	if (local->family == AF_INET)
		nh->v4 = local->u.v4;
	return -ENOENT; /* no interfaces here */
}

/* Routes: the null backend installs nothing and watches nothing (bgpd --no-fib does not even
 * open them; these keep test programs that link the null backend complete). */
int kernel_fib_open(struct kernel_fib **kf, kernel_fib_err_cb cb, void *arg)
{
	*kf = NULL;
	return -EOPNOTSUPP;
}

void kernel_fib_close(struct kernel_fib *kf)
{
}

int kernel_fib_replace(struct kernel_fib *kf, const struct kernel_route *r)
{
	return -EOPNOTSUPP;
}

int kernel_fib_delete(struct kernel_fib *kf, const struct prefix *dst, uint32_t table,
		      uint32_t metric)
{
	return -EOPNOTSUPP;
}

int kernel_fib_flush(struct kernel_fib *kf)
{
	return 0;
}

int kernel_fib_purge(struct kernel_fib *kf, uint32_t table, int family)
{
	return -EOPNOTSUPP;
}

int kernel_fib_dump(uint32_t table, int family, kernel_fib_dump_cb cb, void *arg)
{
	return -EOPNOTSUPP;
}

void kernel_fib_stats(const struct kernel_fib *kf, uint64_t *sent, uint64_t *refused,
		      uint64_t *messages)
{
	*sent = *refused = *messages = 0;
}

int kernel_fib_nexthop_objects(const struct kernel_fib *kf, size_t *objects, size_t *routes)
{
	*objects = *routes = 0;
	return -EOPNOTSUPP;
}

void kernel_fib_adopt(struct kernel_fib *kf, const struct kernel_route *r)
{
}

size_t kernel_fib_nexthops_prune(struct kernel_fib *kf)
{
	return 0;
}

int kernel_watch_open(struct kernel_watch **w)
{
	*w = NULL;
	return -EOPNOTSUPP;
}

void kernel_watch_close(struct kernel_watch *w)
{
}

int kernel_watch_fd(const struct kernel_watch *w)
{
	return -1;
}

int kernel_watch_read(struct kernel_watch *w)
{
	return 0;
}

uint64_t kernel_watch_resyncs(const struct kernel_watch *w)
{
	return 0;
}

size_t kernel_watch_routes(const struct kernel_watch *w, int family)
{
	return 0;
}

int kernel_resolve(const struct kernel_watch *w, const struct ipaddr *addr,
		   struct kernel_resolution *res)
{
	memset(res, 0, sizeof(*res));
	return -ENETUNREACH;
}

const char *kernel_ifname(const struct kernel_watch *w, uint32_t ifindex, char buf[IF_NAMESIZE])
{
	snprintf(buf, IF_NAMESIZE, "?%u", ifindex);
	return buf;
}

bool kernel_if_running(const struct kernel_watch *w, uint32_t ifindex)
{
	return false;
}

int kernel_watch_walk(const struct kernel_watch *w, int family, kernel_route_cb cb, void *arg)
{
	return 0;
}
