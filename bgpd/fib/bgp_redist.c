/* SPDX-License-Identifier: ISC */
/*
 * redistribute connected|static|kernel [metric N] [route-map NAME], per address family.
 *
 * The routes come from the kernel's main table as bgpd mirrors it (kernel/route_watch.c):
 *   connected  the kernel's own routes for the networks on our links (protocol kernel, on-link)
 *   static     routes of protocol static (`ip route add ... proto static`, or another daemon's)
 *   kernel     every other route that is not BGP's (`ip route add` without a protocol: boot)
 * IPv6 link-local networks and default routes are never redistributed (FRR's rules; there is
 * no default-information originate). A prefix that a `network` statement originates stays the
 * network's. Each becomes a route of ours with origin incomplete, MED = the `metric` given or
 * else the kernel route's metric (0 for connected networks), weight 32768, then the route-map
 * (which may deny it or set attributes; one that does not exist denies, as FRR).
 *
 * Applied as a whole: each change (configuration, a kernel route, a route-map) schedules one
 * resynchronisation on the next loop turn, which computes the wanted set and hands the RIB only
 * the differences, so a busy kernel table costs one pass per loop turn at most.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include <linux/rtnetlink.h>

#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/policy/bgp_routemap.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/table.h"

static struct {
	struct ev *ev;
	struct ptree *origin[BGP_AF_MAX]; /* prefix -> interned attributes we originate */
	uint64_t routes[BGP_AF_MAX][BGP_REDIST_MAX];
} rd;

const char *bgp_redist_type_str(enum bgp_redist_type t)
{
	switch (t) {
	case BGP_REDIST_CONNECTED:
		return "connected";
	case BGP_REDIST_STATIC:
		return "static";
	case BGP_REDIST_KERNEL:
	case BGP_REDIST_MAX:
		break;
	}
	return "kernel";
}

static enum bgp_redist_type type_of(uint8_t protocol, bool connected)
{
	if (connected)
		return BGP_REDIST_CONNECTED;
	return protocol == RTPROT_STATIC ? BGP_REDIST_STATIC : BGP_REDIST_KERNEL;
}

static bool never_redistributed(const struct prefix *p)
{
	if (p->len == 0)
		return true;
	/* fe80::/10 */
	return p->family == AF_INET6 && p->u.bytes[0] == 0xfe && (p->u.bytes[1] & 0xc0) == 0x80;
}

static bool network_statement(const struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	const struct bgp_network *n;

	TAILQ_FOREACH (n, &bgp->networks[af], entry)
		if (prefix_same(&n->prefix, p))
			return true;
	return false;
}

struct collect_ctx {
	struct bgp *bgp;
	enum bgp_af af;
	struct ptree *want;
	uint64_t count[BGP_REDIST_MAX];
};

static int collect(const struct prefix *p, uint8_t protocol, bool connected, uint32_t metric,
		   void *arg)
{
	struct collect_ctx *c = arg;
	enum bgp_redist_type t = type_of(protocol, connected);
	const struct bgp_redist *r = &c->bgp->redist[c->af][t];
	struct bgp_attr tmpl, *attr;
	struct bgp_attr_extra ex;
	struct rmap_refs refs;
	void **slot;

	if (!r->on || never_redistributed(p) || network_statement(c->bgp, c->af, p) ||
	    ptree_lookup(c->want, p))
		return 0;
	rib_local_template(c->af, BGP_ORIGIN_INCOMPLETE,
			   r->metric_set ? r->metric : (connected ? 0 : metric), &tmpl, &ex);
	if (r->rmap[0]) {
		bool permit = route_map_apply(r->rmap, p, &tmpl, &refs);

		if (!permit) {
			route_map_refs_release(&refs);
			bgp_aspath_unref(tmpl.aspath);
			return 0;
		}
		attr = bgp_attr_intern(&tmpl);
		route_map_refs_release(&refs);
	} else {
		attr = bgp_attr_intern(&tmpl);
	}
	bgp_aspath_unref(tmpl.aspath);
	slot = ptree_get(c->want, p);
	*slot = attr;
	c->count[t]++;
	return 0;
}

static void attr_release(void *value)
{
	bgp_attr_unref(value);
}

struct apply_ctx {
	struct bgp_rib *rib;
	enum bgp_af af;
	struct ptree *other;
	unsigned changes;
};

/* In the old set, not in the new: withdraw. */
static int withdraw_gone(const struct prefix *p, void *value, void *arg)
{
	struct apply_ctx *c = arg;

	(void)value;
	if (!ptree_lookup(c->other, p)) {
		rib_local_del(c->rib, c->af, p);
		c->changes++;
	}
	return 0;
}

/* In the new set with other attributes than before (or new): originate. */
static int originate_new(const struct prefix *p, void *value, void *arg)
{
	struct apply_ctx *c = arg;

	if (!c->other || ptree_lookup(c->other, p) != value) {
		rib_local_set(c->rib, c->af, p, value);
		c->changes++;
	}
	return 0;
}

static void sync_af(struct bgp *bgp, enum bgp_af af)
{
	struct collect_ctx c = { .bgp = bgp, .af = af, .want = ptree_new(bgp_af_family(af)) };
	struct kernel_watch *kw = bgp_fib_watch();
	struct ptree *old = rd.origin[af];
	struct apply_ctx a = { .rib = bgp->rib, .af = af };
	bool any = false;

	for (int t = 0; t < BGP_REDIST_MAX; t++)
		any = any || bgp->redist[af][t].on;
	if (any && kw)
		kernel_watch_walk(kw, bgp_af_family(af), collect, &c);
	if (old) {
		a.other = c.want;
		ptree_walk(old, withdraw_gone, &a);
	}
	a.other = old;
	ptree_walk(c.want, originate_new, &a);
	ptree_free(old, attr_release);
	rd.origin[af] = c.want;
	for (int t = 0; t < BGP_REDIST_MAX; t++) {
		if (bgp->redist[af][t].on && c.count[t] != rd.routes[af][t])
			log_info("redistribute %s (%s): %" PRIu64 " route%s",
				 bgp_redist_type_str(t),
				 af == BGP_AF_IPV4_UNICAST ? "IPv4" : "IPv6", c.count[t],
				 c.count[t] == 1 ? "" : "s");
		rd.routes[af][t] = c.count[t];
	}
	if (any && !kw)
		log_warn("redistribute: the kernel's routes cannot be read (see the FIB messages "
			 "at start-up): nothing is redistributed");
}

static void sync_cb(int fd, short what, void *arg)
{
	struct bgp *bgp = bgp_fib_instance();

	(void)fd;
	(void)what;
	(void)arg;
	if (!bgp || !bgp->rib)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++)
		sync_af(bgp, af);
}

void bgp_redist_changed(struct bgp *bgp)
{
	struct event_base *base = bgp ? bgp->base : NULL;

	if (!rd.ev && base)
		rd.ev = event_defer_new(base, sync_cb, NULL);
	if (rd.ev && !event_pending(rd.ev))
		event_defer(rd.ev);
}

void bgp_redist_kernel_changed(void)
{
	struct bgp *bgp = bgp_fib_instance();
	bool any = false;

	for (int af = 0; bgp && af < BGP_AF_MAX; af++)
		for (int t = 0; t < BGP_REDIST_MAX; t++)
			any = any || bgp->redist[af][t].on;
	if (any || rd.origin[0] || rd.origin[1])
		bgp_redist_changed(bgp);
}

void bgp_redist_reset(void)
{
	/* The instance's RIB goes with its paths; our references go with the sets. */
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(rd.origin[af], attr_release);
		rd.origin[af] = NULL;
		for (int t = 0; t < BGP_REDIST_MAX; t++)
			rd.routes[af][t] = 0;
	}
}

void bgp_redist_stop(void)
{
	bgp_redist_reset();
	event_free(rd.ev);
	rd.ev = NULL;
}
