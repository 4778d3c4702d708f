/* SPDX-License-Identifier: ISC */
/*
 * Routes: what bgpd installs in the Linux FIB (kernel/route.c) and the kernel's own routes and
 * interfaces that bgpd resolves next hops through (kernel/route_watch.c). Both over rtnetlink
 * with libmnl (kernel/netlink.c). Included by kernel/kernel.h.
 *
 * Installing (struct kernel_fib): changes are queued into one buffer and handed to the kernel
 * in one sendmsg() per buffer (about 1,000 routes), without asking for acknowledgements: the
 * kernel then answers only the changes it refuses, and kernel_fib_flush() reports each of those
 * with the prefix and errno the kernel echoed. Routes carry protocol `bgp` (RTPROT_BGP), so
 * `ip route show proto bgp` lists exactly them and a restarted bgpd finds its leftovers.
 *
 * Watching (struct kernel_watch): a mirror of the main table's unicast routes that are not
 * BGP's, and of the interfaces' state, kept current from the kernel's notifications. BGP routes
 * (ours, or any other daemon's) are dropped by a socket filter before they are even queued to
 * us, so installing a full table does not flood the watcher with its own echo.
 */
#ifndef SKUA_KERNEL_ROUTE_H
#define SKUA_KERNEL_ROUTE_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/prefix.h"

#define KERNEL_NH_MAX 64 /* next hops of one route (maximum-paths' upper bound) */
#define KERNEL_TABLE_MAIN 254

/* One next hop: a gateway (family 0 = none: on the link) and/or an interface (0 = any). */
struct kernel_nh {
	struct ipaddr gw;
	uint32_t ifindex;
};

/* A route as bgpd installs it. */
struct kernel_route {
	struct prefix dst;
	uint32_t table;
	uint32_t metric; /* RTA_PRIORITY; FRR's zebra installs every route with 20 */
	unsigned nnh;	 /* 1..KERNEL_NH_MAX; more than 1 = a multipath (ECMP) route */
	struct kernel_nh nh[KERNEL_NH_MAX];
	uint32_t nh_id; /* read back only (kernel_fib_dump()): the nexthop object it refers to */
};

/* ---- installing (kernel/route.c) ---- */

struct kernel_fib;

/* The kernel refused a change: which prefix, whether it was a delete, and its errno. */
typedef void (*kernel_fib_err_cb)(const struct prefix *dst, bool del, int err, void *arg);

/* Open the rtnetlink socket for route changes; refusals are reported to cb. 0 or -errno. */
int kernel_fib_open(struct kernel_fib **kf, kernel_fib_err_cb cb, void *arg);
void kernel_fib_close(struct kernel_fib *kf);
/* Queue "replace (or create) this route"; sent when the buffer fills or at flush. -errno for a
 * route that cannot be encoded (no next hop, too many). */
int kernel_fib_replace(struct kernel_fib *kf, const struct kernel_route *r);
/* Queue "delete the BGP route for dst in table". */
int kernel_fib_delete(struct kernel_fib *kf, const struct prefix *dst, uint32_t table,
		      uint32_t metric);
/* Send what is queued and read the kernel's refusals (the callback once for each). Returns the
 * number of changes sent, or -errno when the socket itself failed. */
int kernel_fib_flush(struct kernel_fib *kf);
/* Delete every route of protocol bgp in table for family (left by an earlier run). Returns
 * how many were deleted, or -errno. Blocking: for start-up and shutdown only. */
int kernel_fib_purge(struct kernel_fib *kf, uint32_t table, int family);
/* Every route of protocol bgp in table for family, as the kernel holds it now (next hops in
 * the kernel's order), for a restarting bgpd to adopt (kernel/route_dump.c). cb's non-zero
 * return skips the rest. 0 or -errno. Blocking: for start-up only. */
typedef int (*kernel_fib_dump_cb)(const struct kernel_route *r, void *arg);
int kernel_fib_dump(uint32_t table, int family, kernel_fib_dump_cb cb, void *arg);
/*
 * Nexthop objects (Linux 5.3 and later, kernel/route_nhobj.c): routes refer to one object per
 * distinct next hop or ECMP list, created with the first route that needs it and deleted after
 * the last. 0 when they are used, else the probe's -errno (routes then carry their own next
 * hops); objects and routes referring to them in *objects and *routes.
 */
int kernel_fib_nexthop_objects(const struct kernel_fib *kf, size_t *objects, size_t *routes);
/* Route r, read back by kernel_fib_dump() and kept (graceful restart), is the installer's
 * again: its nexthop object counts it as a user. */
void kernel_fib_adopt(struct kernel_fib *kf, const struct kernel_route *r);
/* Delete (queue) the nexthop objects an earlier run left that no adopted route refers to;
 * after every kept route went through kernel_fib_adopt(). kernel_fib_purge() does it too.
 * Returns how many. */
size_t kernel_fib_nexthops_prune(struct kernel_fib *kf);
/* Changes sent and refused since open (show output). */
void kernel_fib_stats(const struct kernel_fib *kf, uint64_t *sent, uint64_t *refused,
		      uint64_t *messages);

/* ---- deletions held back (kernel/route_hold.c) ---- */

/* Deletions collected while a table goes (a session loss) and handed to an installer in random
 * order: the kernel's IPv4 trie removes a block of routes deleted in address order several
 * times slower than the same routes spread (kernel/route_hold.c says why). */
struct kernel_fib_hold;

struct kernel_fib_hold *kernel_fib_hold_new(void);
void kernel_fib_hold_free(struct kernel_fib_hold *h);
/* Hold "delete the BGP route for dst in table". A table or metric other than the held ones'
 * releases those first, into kf. */
void kernel_fib_hold_add(struct kernel_fib_hold *h, struct kernel_fib *kf, const struct prefix *dst,
			 uint32_t table, uint32_t metric);
size_t kernel_fib_hold_count(const struct kernel_fib_hold *h);
/* A held deletion whose route is wanted again (installed anew since it was held): true drops
 * the deletion instead of sending it. */
typedef bool (*kernel_fib_hold_keep_cb)(const struct prefix *dst, void *arg);
/* Take up to max held deletions (SIZE_MAX: all), each drawn at random from those held, and
 * queue into kf with kernel_fib_delete() those that keep (NULL: none) does not claim; returns
 * how many were taken. The caller flushes kf. */
size_t kernel_fib_hold_release(struct kernel_fib_hold *h, struct kernel_fib *kf, size_t max,
			       kernel_fib_hold_keep_cb keep, void *arg);

/* ---- watching (kernel/route_watch.c) ---- */

struct kernel_watch;

/* Subscribe to link and route changes and read the current state. 0 or -errno. */
int kernel_watch_open(struct kernel_watch **w);
void kernel_watch_close(struct kernel_watch *w);
/* The socket to watch for readability. It changes when kernel_watch_read() resynchronises:
 * compare after each call and watch the new one. */
int kernel_watch_fd(const struct kernel_watch *w);
/* Process what the kernel sent. 1 when routes or interfaces changed, 0 when not, -errno on a
 * socket error. A lost notification (ENOBUFS) is repaired here by reading the state again on a
 * new socket (at most once per call; kernel_watch_resyncs() counts them, for the caller to
 * report). */
int kernel_watch_read(struct kernel_watch *w);
/* Times the mirror was rebuilt after lost notifications, and routes mirrored per family. */
uint64_t kernel_watch_resyncs(const struct kernel_watch *w);
size_t kernel_watch_routes(const struct kernel_watch *w, int family);

/* How an address is reached, by the kernel's own (non-BGP) routes of the main table. */
struct kernel_resolution {
	struct prefix via; /* the route that resolves it */
	uint8_t protocol;  /* of that route (RTPROT_KERNEL = a connected network) */
	bool connected;	   /* the address is on one of our links */
	uint32_t metric;
	unsigned nnh; /* usable next hops (interface running, not dead) */
	struct kernel_nh nh[KERNEL_NH_MAX];
};

/*
 * Resolve addr: the longest matching route that has at least one usable next hop (a next hop
 * whose interface is down or without carrier does not count; a more specific route without
 * one falls back to a shorter one). The default route never resolves a next hop (FRR's
 * default). For a connected network the next hop is addr itself on that interface.
 * 0 or -ENETUNREACH.
 */
int kernel_resolve(const struct kernel_watch *w, const struct ipaddr *addr,
		   struct kernel_resolution *res);
/* An interface's name ("?" + index when unknown). */
const char *kernel_ifname(const struct kernel_watch *w, uint32_t ifindex, char buf[IF_NAMESIZE]);
/* Is the interface up with carrier? */
bool kernel_if_running(const struct kernel_watch *w, uint32_t ifindex);

/* The mirrored routes of family (redistribution): cb for each, the lowest metric's; stops at
 * a non-zero return. connected = a network on one of our links (protocol kernel, on the link);
 * those of an interface that is down or without carrier are left out (as zebra does). */
typedef int (*kernel_route_cb)(const struct prefix *p, uint8_t protocol, bool connected,
			       uint32_t metric, void *arg);
int kernel_watch_walk(const struct kernel_watch *w, int family, kernel_route_cb cb, void *arg);

#endif /* SKUA_KERNEL_ROUTE_H */
