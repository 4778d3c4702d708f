/* SPDX-License-Identifier: ISC */
/*
 * Next-hop tracking: is a path's next hop reachable through the kernel's own routes, and over
 * which gateways and interfaces (kernel/route_watch.c keeps the mirror they are read from).
 *
 * Every next hop the decision process asks about gets an entry, resolved on first use and
 * again whenever the kernel's routes or interfaces change. Only entries whose answer changed
 * (reachability, the route that resolves it, its metric, or its gateways) are marked, and the RIB's
 * revalidation walk (bgpd/rib/bgp_rib_fib.c) re-decides and re-installs just the prefixes whose
 * paths use a marked next hop: an IGP change behind one next hop costs the prefixes behind
 * it, not the table. Entries no prefix used during a whole walk are dropped at its end; when
 * the entries have doubled since the last sweep, a walk is asked for just to sweep (lookups
 * only, nothing is written to the kernel for prefixes whose next hops did not change).
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/fib/bgp_fib.h"
#include "lib/event.h"
#include "lib/hash.h"
#include "lib/log.h"
#include "lib/memory.h"

static DEFINE_MTYPE(BGP_NEXTHOP, "BGP next-hop tracking");

static struct hash *nh_hash;
static uint32_t nh_generation = 1; /* changed marks: bumped when a revalidation walk ends */
static uint32_t nh_use_epoch = 1;  /* used marks: bumped when a walk begins */
static size_t nh_gc_at = 64;	   /* entries that make the next sweep worth a walk */

static uint32_t nh_key(const void *item)
{
	const struct bgp_nh *nh = item;

	return hash_bytes(nh->addr.u.bytes, family_addr_bytes(nh->addr.family), nh->addr.family);
}

static bool nh_eq(const void *a, const void *b)
{
	return ipaddr_cmp(&((const struct bgp_nh *)a)->addr, &((const struct bgp_nh *)b)->addr) ==
	       0;
}

static void resolve(struct bgp_nh *nh)
{
	nh->valid = kernel_resolve(bgp_fib_watch(), &nh->addr, &nh->res) == 0;
}

static bool same_resolution(const struct bgp_nh *nh, bool valid,
			    const struct kernel_resolution *res)
{
	if (nh->valid != valid)
		return false;
	if (!valid)
		return true;
	/* The metric too: it is the decision's IGP cost (bgpd/rib/bgp_decision.c). */
	return prefix_same(&nh->res.via, &res->via) && nh->res.metric == res->metric &&
	       nh->res.connected == res->connected && nh->res.nnh == res->nnh &&
	       memcmp(nh->res.nh, res->nh, res->nnh * sizeof(res->nh[0])) == 0;
}

struct bgp_nh *bgp_nh_get(struct bgp_rib *rib, const struct ipaddr *addr)
{
	struct bgp_nh key, *nh;

	if (!nh_hash)
		nh_hash = hash_new(nh_key, nh_eq, "BGP next hops");
	memset(&key.addr, 0, sizeof(key.addr));
	key.addr.family = addr->family;
	memcpy(key.addr.u.bytes, addr->u.bytes, family_addr_bytes(addr->family));
	nh = hash_lookup(nh_hash, &key);
	if (!nh) {
		nh = XCALLOC(MTYPE_BGP_NEXTHOP, sizeof(*nh));
		nh->addr = key.addr;
		nh->since = wallclock_s();
		resolve(nh);
		hash_insert(nh_hash, nh);
		if (hash_count(nh_hash) >= nh_gc_at) {
			/* Twice as many as after the last sweep: a walk finds which are still
			 * used (it costs lookups, no kernel writes); the rest go at its end. */
			nh_gc_at = 2 * hash_count(nh_hash);
			if (rib)
				rib_fib_revalidate(rib, false);
		}
	}
	nh->used = nh_use_epoch;
	return nh;
}

struct bgp_nh *bgp_nh_lookup(const struct ipaddr *addr)
{
	struct bgp_nh key;

	if (!nh_hash)
		return NULL;
	memset(&key.addr, 0, sizeof(key.addr));
	key.addr.family = addr->family;
	memcpy(key.addr.u.bytes, addr->u.bytes, family_addr_bytes(addr->family));
	return hash_lookup(nh_hash, &key);
}

uint32_t bgp_nh_igp_metric(const struct bgp_nh *nh)
{
	return nh->valid && !nh->res.connected ? nh->res.metric : 0;
}

struct reresolve_ctx {
	unsigned changed;
	unsigned lost;
};

static int reresolve_one(void *item, void *arg)
{
	struct bgp_nh *nh = item;
	struct reresolve_ctx *c = arg;
	struct kernel_resolution res;
	bool valid = kernel_resolve(bgp_fib_watch(), &nh->addr, &res) == 0;
	char a[IPADDR_STRLEN], via[PREFIX_STRLEN];

	if (same_resolution(nh, valid, &res))
		return 0;
	nh->changed = nh_generation;
	nh->since = wallclock_s();
	nh->changes++;
	c->changed++;
	if (nh->valid && !valid)
		c->lost++;
	if (valid)
		log_info("next hop %s: reachable via %s (%u path%s)",
			 ipaddr_to_str(&nh->addr, a, sizeof(a)),
			 prefix_to_str(&res.via, via, sizeof(via)), res.nnh,
			 res.nnh == 1 ? "" : "s");
	else
		log_info("next hop %s: unreachable: its routes are no longer used",
			 ipaddr_to_str(&nh->addr, a, sizeof(a)));
	nh->valid = valid;
	nh->res = res;
	return 0;
}

void bgp_nh_kernel_changed(struct bgp_rib *rib)
{
	struct reresolve_ctx c = { 0 };

	if (!nh_hash)
		return;
	/* Marks carry the generation of the walk that acts on them: the walk under way (it is
	 * restarted, so it sees them everywhere) or the next one. */
	hash_walk(nh_hash, reresolve_one, &c);
	if (!c.changed || !rib)
		return;
	log_debug("kernel routes changed: %u next hop%s resolve differently, re-deciding the "
		  "prefixes that use them",
		  c.changed, c.changed == 1 ? "" : "s");
	rib_fib_revalidate(rib, false);
}

bool bgp_nh_changed(const struct ipaddr *addr)
{
	struct bgp_nh *nh = bgp_nh_lookup(addr);

	if (!nh)
		return false;
	nh->used = nh_use_epoch; /* the walk asks about every path: it is still used */
	return nh->changed == nh_generation;
}

struct sweep_ctx {
	struct bgp_nh **dead;
	size_t n, cap;
};

static int sweep_collect(void *item, void *arg)
{
	struct bgp_nh *nh = item;
	struct sweep_ctx *c = arg;

	if (nh->used == nh_use_epoch)
		return 0;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->dead = XREALLOC(MTYPE_BGP_NEXTHOP, c->dead, c->cap * sizeof(*c->dead));
	}
	c->dead[c->n++] = nh;
	return 0;
}

void bgp_nh_walk_begin(void)
{
	/* From now on only what the walk (or anything else) looks up counts as used. */
	nh_use_epoch++;
}

void bgp_nh_walk_done(bool all)
{
	struct sweep_ctx c = { 0 };

	(void)all;
	if (!nh_hash)
		return;
	/* A whole walk looked up the next hop of every path (bgp_nh_changed() or the decision's
	 * bgp_nh_get()): what it did not touch is no longer used. */
	hash_walk(nh_hash, sweep_collect, &c);
	for (size_t i = 0; i < c.n; i++) {
		hash_remove(nh_hash, c.dead[i]);
		XFREE(MTYPE_BGP_NEXTHOP, c.dead[i]);
	}
	XFREE(MTYPE_BGP_NEXTHOP, c.dead);
	nh_gc_at = MAX((size_t)64, 2 * hash_count(nh_hash));
	nh_generation++;
}

static int free_one(void *item, void *arg)
{
	(void)arg;
	XFREE(MTYPE_BGP_NEXTHOP, item);
	return 0;
}

void bgp_nh_reset(void)
{
	if (!nh_hash)
		return;
	hash_walk(nh_hash, free_one, NULL);
	hash_free(nh_hash);
	nh_hash = NULL;
}

int bgp_nh_walk(int (*cb)(struct bgp_nh *nh, void *arg), void *arg)
{
	return nh_hash ? hash_walk(nh_hash, (hash_walk_cb)cb, arg) : 0;
}

size_t bgp_nh_count(void)
{
	return nh_hash ? hash_count(nh_hash) : 0;
}
