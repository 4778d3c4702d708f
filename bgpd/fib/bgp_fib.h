/* SPDX-License-Identifier: ISC */
/*
 * Forwarding: bgpd's best routes in the Linux FIB (bgpd/fib/bgp_fib.c) and next-hop tracking
 * through the kernel's own routes (bgpd/fib/bgp_nexthop.c). The RIB reaches both through
 * struct rib_fib_ops (bgpd/rib/bgp_rib.h); the kernel through kernel/kernel.h.
 */
#ifndef SKUA_BGP_FIB_H
#define SKUA_BGP_FIB_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/rib/bgp_rib.h"
#include "kernel/kernel.h"

struct event_base;
struct vty;

/* The forwarding settings changed (bgp fib install|table|retain, maximum-paths): applied now. */
void bgp_fib_config_changed(struct bgp *bgp);
void bgp_maxpaths_changed(struct bgp *bgp, enum bgp_af af);
/* What is redistributed, or a route-map it may use, changed: applied on the next loop turn. */
void bgp_redist_changed(struct bgp *bgp);

/* BGP's route metric in the kernel: FRR's zebra installs every route with 20. */
#define BGP_FIB_METRIC 20

/* Start forwarding (install = false: bgpd --no-fib, nothing installed, next hops untracked).
 * Before the configuration is read. */
void bgp_fib_start(struct event_base *base, bool install);
/* Clean shutdown: remove bgpd's routes from the kernel unless `bgp fib retain` or
 * `bgp graceful-restart` (the next start adopts them). */
void bgp_fib_stop(void);
/* What the RIB calls (installed by the instance hook; tests attach it themselves). Without
 * bgp_fib_start() it tracks next hops against no kernel and installs nothing. */
extern const struct rib_fib_ops bgp_fib_ops;
/* The instance whose RIB the forwarding layer serves (NULL before `router bgp`). */
struct bgp *bgp_fib_instance(void);
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
	/* The last graceful restart (bgp_fib_gr.c): routes of the earlier run adopted, then
	 * left as they were, replaced, removed; pending: the deferred selection is not done. */
	uint64_t gr_adopted, gr_unchanged, gr_replaced, gr_removed;
	bool gr_pending;
	/* Nexthop objects: nh_err 0 when routes refer to them (nh_objects of them, used by
	 * nh_routes routes), else why not (-errno of the kernel's probe). */
	int nh_err;
	size_t nh_objects, nh_routes;
};
void bgp_fib_status(struct bgp_fib_status *st);

/* One tracked next hop (bgpd/fib/bgp_nexthop.c). */
struct bgp_nh {
	struct ipaddr addr;
	bool valid;
	struct kernel_resolution res;
	uint32_t used;	  /* use epoch of the last lookup (a walk's begin bumps it) */
	uint32_t changed; /* generation of the last change */
	uint32_t changes;
	int64_t since; /* wall clock of the last change */
};

/* Created and resolved on first use. rib: the RIB whose paths use it; when the cache has
 * doubled since its last sweep, it is asked for a revalidation walk (which sweeps). */
struct bgp_nh *bgp_nh_get(struct bgp_rib *rib, const struct ipaddr *addr);
struct bgp_nh *bgp_nh_lookup(const struct ipaddr *addr);
/* Its IGP metric, for the decision and the show commands: the metric of the route that
 * resolves it, 0 for a connected network (as zebra counts it) or when unresolved. */
uint32_t bgp_nh_igp_metric(const struct bgp_nh *nh);
/* The kernel's routes or interfaces changed: re-resolve every next hop, revalidate the RIB's
 * prefixes that use one whose answer changed. */
void bgp_nh_kernel_changed(struct bgp_rib *rib);
bool bgp_nh_changed(const struct ipaddr *addr);
void bgp_nh_walk_begin(void);
void bgp_nh_walk_done(bool all);
void bgp_nh_reset(void);
int bgp_nh_walk(int (*cb)(struct bgp_nh *nh, void *arg), void *arg);
size_t bgp_nh_count(void);

/* Redistribution (bgpd/fib/bgp_redist.c). */
const char *bgp_redist_type_str(enum bgp_redist_type t);
void bgp_redist_kernel_changed(void); /* the kernel's routes changed */
void bgp_redist_reset(void);	      /* the instance is going */
void bgp_redist_stop(void);

/* bgp network import-check (bgpd/fib/bgp_network_check.c): hand the RIB the network
 * statements with the check's outcome (all passing when it is off; one that fails stays in
 * the table, not valid, as in FRR). sync: the statements or the check changed (applies at
 * once); kernel_changed: on the next loop turn. */
void bgp_network_check_sync(struct bgp *bgp);
void bgp_network_check_kernel_changed(void);
/* A route-map, prefix list or AS-path list changed: the statements' route-maps are run again
 * on the next loop turn. */
void bgp_network_check_policy_changed(void);
/* Does the statement for p pass the check now (for show)? */
bool bgp_network_check_announced(enum bgp_af af, const struct prefix *p);
void bgp_network_check_reset(void); /* the instance is going */
void bgp_network_check_stop(void);

#endif /* SKUA_BGP_FIB_H */
