/* SPDX-License-Identifier: ISC */
/* rtnetlink sockets for kernel/route.c and kernel/route_watch.c (private to kernel/). */
#ifndef SKUA_KERNEL_NETLINK_H
#define SKUA_KERNEL_NETLINK_H

#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/prefix.h"

/* Dump replies come in messages of up to 32 KiB (libmnl 1.0.4 lacks MNL_SOCKET_DUMP_SIZE). */
#define NL_RECV_SIZE 32768

#define RTPROT_BGP_VALUE 186 /* <linux/rtnetlink.h> RTPROT_BGP (older headers lack it) */

struct nl_sock {
	struct mnl_socket *mnl;
	uint32_t portid;
	uint32_t seq;
};

/* Open a NETLINK_ROUTE socket joined to groups (RTMGRP_* bits, 0 = none) with a receive buffer
 * of at least rcvbuf bytes (SO_RCVBUFFORCE when privileged). 0 or -errno. */
int nl_open(struct nl_sock *s, unsigned groups, int rcvbuf, bool nonblock);
void nl_close(struct nl_sock *s);
int nl_fd(const struct nl_sock *s);

/* Dump request (type RTM_GETLINK/RTM_GETROUTE...) for family; cb is called for every answer
 * until NLMSG_DONE. 0 or -errno (the kernel's, or the callback's MNL_CB_ERROR). */
int nl_dump(struct nl_sock *s, uint16_t type, uint8_t family, mnl_cb_t cb, void *data);

/* Attribute helpers: the address of an attribute of family into a, checked for length. */
bool nl_attr_addr(const struct nlattr *attr, int family, struct ipaddr *a);

/* The route a RTM_*ROUTE message is about: destination prefix (0 on success, -EINVAL when the
 * message is malformed). tb is filled with the message's attributes (RTA_MAX + 1 entries). */
int nl_route_parse(const struct nlmsghdr *nlh, const struct nlattr **tb, struct prefix *dst);

/* One next hop of a route message. */
struct nl_nh {
	struct ipaddr gw; /* family 0: none (a device route) */
	uint32_t ifindex; /* 0: none */
	uint8_t flags;	  /* RTNH_F_DEAD, RTNH_F_LINKDOWN... */
};

/* The next hops of a route message parsed by nl_route_parse(), in order, at most max:
 * RTA_MULTIPATH's, or else the single RTA_GATEWAY / RTA_OIF with the message's flags (then
 * always one, possibly with neither gateway nor interface). A malformed multipath entry ends
 * the list there. */
unsigned nl_route_nexthops(const struct nlmsghdr *nlh, const struct nlattr **tb, struct nl_nh *nh,
			   unsigned max);

#endif /* SKUA_KERNEL_NETLINK_H */
