/* SPDX-License-Identifier: ISC */
/*
 * Nexthop objects (RTM_NEWNEXTHOP, Linux 5.3 and later) for the routes bgpd installs
 * (private to kernel/; kernel/route_nhobj.c says why and how).
 */
#ifndef SKUA_KERNEL_ROUTE_NHOBJ_H
#define SKUA_KERNEL_ROUTE_NHOBJ_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/kernel.h"

/* Our ids: protocol bgp's number in the high bits, 2^20 of them. */
#define NHOBJ_ID_BASE (186u << 20)
#define NHOBJ_ID_COUNT (1u << 20)

struct nhobj_set;

/* Probe the kernel for nexthop objects and read those an earlier run left (protocol bgp, ids
 * in our range), unused until routes are adopted with nhobj_adopt(). -errno when the kernel
 * has none (then routes carry their own next hops). */
int nhobj_open(struct nhobj_set **out);
void nhobj_close(struct nhobj_set *s);

/* The object for these next hops, one more reference taken for a route about to be queued,
 * created (queued into kf before the route) when new. 0 when none can be had (every id in
 * use): the route then carries its next hops itself. */
uint32_t nhobj_get(struct nhobj_set *s, struct kernel_fib *kf, int family,
		   const struct kernel_nh *nh, unsigned nnh);
/* Route p now refers to object id (0: to none, or gone); the object it referred to before
 * loses that reference and, at none left, is deleted (queued into kf after the route). */
void nhobj_bind(struct nhobj_set *s, struct kernel_fib *kf, const struct prefix *p, uint32_t id);
/* The kernel deleted object id without us (someone else's request). It is no longer handed
 * out: the next route with its next hops gets a new one. */
void nhobj_gone(struct nhobj_set *s, uint32_t id);
/* Interface ifindex went down or away: the kernel deleted the objects on it, and their
 * routes, without a notification; likewise. */
void nhobj_gone_dev(struct nhobj_set *s, uint32_t ifindex);
/* Apply the bindings nhobj_bind() queued (kernel_fib_flush() does, before it sends). */
void nhobj_settle(struct nhobj_set *s, struct kernel_fib *kf);
/* Route p, found in the kernel, refers to object id: counted as a reference when the object
 * is one of ours. true when it was. */
bool nhobj_adopt(struct nhobj_set *s, struct kernel_fib *kf, const struct prefix *p, uint32_t id);
/* Delete (queue into kf) the objects found at open that no route was adopted with, of the
 * routes of family (AF_UNSPEC: all): an object's deletion removes the routes still using it. */
size_t nhobj_prune(struct nhobj_set *s, struct kernel_fib *kf, int family);
/* Objects and routes referring to them (show, tests), as of the last flush. */
void nhobj_stats(const struct nhobj_set *s, size_t *objects, size_t *routes);

#endif /* SKUA_KERNEL_ROUTE_NHOBJ_H */
