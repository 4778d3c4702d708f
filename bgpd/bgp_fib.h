/* SPDX-License-Identifier: ISC */
/*
 * Forwarding: bgpd's best routes in the Linux FIB (bgpd/bgp_fib.c) and next-hop tracking
 * through the kernel's own routes (bgpd/bgp_nexthop.c). The RIB reaches both through
 * struct rib_fib_ops (bgpd/bgp_rib.h); the kernel through kernel/kernel.h.
 */
#ifndef SKUA_BGP_FIB_H
#define SKUA_BGP_FIB_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/bgp_rib.h"
#include "bgpd/bgpd.h"
#include "kernel/kernel.h"

struct event_base;
struct vty;

/* BGP's route metric in the kernel: FRR's zebra installs every route with 20. */
#define BGP_FIB_METRIC 20

/* Start forwarding (install = false: bgpd --no-fib, nothing installed, next hops untracked).
 * Before the configuration is read. */
void bgp_fib_start(struct event_base *base, bool install);
/* Clean shutdown: remove bgpd's routes from the kernel unless `bgp fib retain`. */
void bgp_fib_stop(void);
/* What the RIB calls (installed by the instance hook; tests attach it themselves). Without
 * bgp_fib_start() it tracks next hops against no kernel and installs nothing. */
extern const struct rib_fib_ops bgp_fib_ops;
/* The kernel mirror next hops resolve through (NULL when not watching). */
struct kernel_watch *bgp_fib_watch(void);

/* What `show ip route` and `show bgp nexthop` print. */
struct bgp_fib_status {
	bool enabled; /* not --no-fib */
	bool active;  /* installing now */
	bool retain;
	uint32_t table;
	uint64_t routes[BGP_AF_MAX]; /* installed now */
	uint64_t installs, removals, refused, messages, purged;
};
void bgp_fib_status(struct bgp_fib_status *st);

/* One tracked next hop (bgpd/bgp_nexthop.c). */
struct bgp_nh {
	struct ipaddr addr;
	bool valid;
	struct kernel_resolution res;
	uint32_t used;	  /* use epoch of the last lookup (a walk's begin bumps it) */
	uint32_t changed; /* generation of the last change */
	uint32_t changes;
	int64_t since; /* wall clock of the last change */
};

struct bgp_nh *bgp_nh_get(const struct ipaddr *addr); /* created and resolved on first use */
struct bgp_nh *bgp_nh_lookup(const struct ipaddr *addr);
/* The kernel's routes or interfaces changed: re-resolve every next hop, revalidate the RIB's
 * prefixes that use one whose answer changed. */
void bgp_nh_kernel_changed(struct bgp_rib *rib);
bool bgp_nh_changed(const struct ipaddr *addr);
void bgp_nh_walk_begin(void);
void bgp_nh_walk_done(bool all);
void bgp_nh_reset(void);
int bgp_nh_walk(int (*cb)(struct bgp_nh *nh, void *arg), void *arg);
size_t bgp_nh_count(void);

/* Redistribution (bgpd/bgp_redist.c). */
const char *bgp_redist_type_str(enum bgp_redist_type t);
void bgp_redist_kernel_changed(void); /* the kernel's routes changed */
uint64_t bgp_redist_count(enum bgp_af af, enum bgp_redist_type t);
void bgp_redist_reset(void); /* the instance is going */
void bgp_redist_stop(void);

void bgp_fib_show_init(void);

#endif /* SKUA_BGP_FIB_H */
