/* SPDX-License-Identifier: ISC */
/*
 * The one header through which bgpd talks to the operating system beyond plain BSD socket
 * calls (doc/architecture.md "Layers"): socket options, and routes and interfaces over rtnetlink
 * (kernel/kernel_route.h, included below).
 *
 * Conventions: every function returns 0 on success or a negative errno; it never logs, because
 * only the caller knows which peer and why (the caller logs option, peer and errno). Two
 * backends implement this header: kernel/sockopt.c, kernel/ifaddr.c, kernel/route.c and
 * kernel/route_watch.c (Linux) and kernel/kernel_null.c (no-op, for tests and systems without
 * the features).
 *
 * Socket security (TCP-MD5 keys, GTSM's sending and minimum TTL, the listener group that applies
 * GTSM to the handshake, the TcpExt counters and the start-up probe) is kernel/kernel_security.h,
 * included here so that bgpd still sees one header; bgpd links kernel/libkernelsec.la for it.
 * The order on every BGP socket (doc/architecture.md "GTSM and TCP-MD5 on every socket"):
 * TCP-MD5 key, then the sending TTL, then the minimum accepted TTL, then bind, then connect;
 * kernel_sec_apply(), kernel_gtsm_set()/kernel_gtsm_clear() and kernel_gtsm_accepted() do it.
 */
#ifndef SKUA_KERNEL_H
#define SKUA_KERNEL_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernel/kernel_route.h"
#include "kernel/kernel_security.h"
#include "lib/prefix.h"

/* Allow a listener to rebind while old connections linger in TIME_WAIT. */
int kernel_sock_reuseaddr(int fd);
/* An IPv6 listener carries IPv6 only; IPv4 has its own socket (no v4-mapped addresses). */
int kernel_sock_v6only(int fd);
/* The sending TTL (IPv4 IP_TTL) or hop limit (IPv6 IPV6_UNICAST_HOPS) of a socket, read back
 * (show commands, tests); -errno on failure. */
int kernel_sock_get_ttl(int fd, int family);
/* Bind to a local address (port 0 = any) and, optionally, to a device (SO_BINDTODEVICE). */
int kernel_sock_bind(int fd, const struct ipaddr *addr, uint16_t port);
int kernel_sock_bind_device(int fd, const char *ifname);
/* Could a listener bind addr and port? 0, or -EADDRINUSE when something listens there (a
 * socket is bound and closed again: nothing is left behind). */
int kernel_port_probe(const struct ipaddr *addr, uint16_t port);
/* The pending error of a non-blocking connect (SO_ERROR): 0 or a negative errno. */
int kernel_sock_error(int fd);
/* Local and remote address and port of a connected socket (IPv4-mapped IPv6 unmapped). */
int kernel_sock_names(int fd, struct ipaddr *local, uint16_t *lport, struct ipaddr *remote,
		      uint16_t *rport);

/* Interfaces (getifaddrs): the highest IPv4 address not in 127/8 (router-id choice). */
int kernel_highest_ipv4(struct in_addr *addr);
/* The address of the interface to use as source toward a peer (update-source IFNAME), chosen
 * by source_addr_choose() (lib/source_addr.h). -ENOENT: no address of the peer's family;
 * -EADDRNOTAVAIL: only ones unusable toward it (loopback addresses). */
int kernel_if_addr(const char *ifname, const struct ipaddr *toward, struct ipaddr *addr);

/* The next hops a connection from local to remote offers, as FRR 8.4 derives them from the
 * interface holding the local address (kernel/conn_nexthops.c says how). -ENOENT: no interface
 * holds it (*nh: the IPv4 local address, every other next hop unset, not shared). */
struct kernel_conn_nexthops {
	struct in_addr v4;
	struct in6_addr v6_global, v6_local;
	bool shared_network; /* the peer is on a subnet of one of our interfaces */
};
int kernel_conn_nexthops(const struct ipaddr *local, const struct ipaddr *remote,
			 struct kernel_conn_nexthops *nh);

#endif /* SKUA_KERNEL_H */
