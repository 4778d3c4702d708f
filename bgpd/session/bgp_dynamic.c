/* SPDX-License-Identifier: ISC */
/*
 * Dynamic neighbors: the list of them, the listen ranges for the listeners, and the accept
 * and end of a dynamic session (bgp_dynamic.h).
 */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"
#include "lib/log_limit.h"
#include "lib/memory.h"

DEFINE_MTYPE(BGP_DYNAMIC, "BGP dynamic neighbors and listen ranges");

struct dyn_entry {
	struct ipaddr addr;
	char group[BGP_PEER_GROUP_NAME_MAX + 1];
	bool ending; /* its session ended: deleted at the next loop turn */
};

static struct {
	struct dyn_entry *v;
	size_t n, cap;
	struct bgp_listen_range *ranges;
	size_t nranges;
	unsigned limit;
	bgp_dynamic_apply_fn apply;
	struct ev *reap_ev;
} dyn = { .limit = BGP_LISTEN_LIMIT_DEFAULT };

void bgp_dynamic_set_apply(bgp_dynamic_apply_fn fn)
{
	dyn.apply = fn;
}

static void ranges_free(struct bgp_listen_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		XFREE(MTYPE_BGP_DYNAMIC, r[i].password);
	XFREE(MTYPE_BGP_DYNAMIC, r);
}

static bool ranges_same(const struct bgp_listen_range *a, size_t na,
			const struct bgp_listen_range *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!prefix_same(&a[i].prefix, &b[i].prefix) ||
		    a[i].ttl_security_hops != b[i].ttl_security_hops ||
		    !a[i].password != !b[i].password ||
		    (a[i].password && strcmp(a[i].password, b[i].password) != 0))
			return false;
	return true;
}

void bgp_dynamic_set_ranges(struct bgp_listen_range *ranges, size_t n, unsigned limit)
{
	struct bgp_listen_range *old = dyn.ranges;
	size_t nold = dyn.nranges;

	dyn.limit = limit ? limit : BGP_LISTEN_LIMIT_DEFAULT;
	if (ranges_same(old, nold, ranges, n)) {
		ranges_free(ranges, n);
		return;
	}
	dyn.ranges = ranges;
	dyn.nranges = n;
	bgp_network_ranges_changed(old, nold);
	ranges_free(old, nold);
}

size_t bgp_dynamic_ranges(const struct bgp_listen_range **ranges)
{
	*ranges = dyn.ranges;
	return dyn.nranges;
}

const struct bgp_listen_range *bgp_dynamic_range_match(const struct ipaddr *addr)
{
	const struct bgp_listen_range *best = NULL;
	struct ipaddr a = *addr;

	ipaddr_unmap_v4(&a);
	for (size_t i = 0; i < dyn.nranges; i++)
		if (prefix_contains_addr(&dyn.ranges[i].prefix, &a) &&
		    (!best || dyn.ranges[i].prefix.len > best->prefix.len))
			best = &dyn.ranges[i];
	return best;
}

unsigned bgp_dynamic_limit(void)
{
	return dyn.limit;
}

void bgp_dynamic_foreach(void (*cb)(const struct ipaddr *addr, const char *group, void *arg),
			 void *arg)
{
	for (size_t i = 0; i < dyn.n; i++)
		if (!dyn.v[i].ending)
			cb(&dyn.v[i].addr, dyn.v[i].group, arg);
}

static struct dyn_entry *entry_of(const struct ipaddr *addr)
{
	for (size_t i = 0; i < dyn.n; i++)
		if (ipaddr_cmp(&dyn.v[i].addr, addr) == 0)
			return &dyn.v[i];
	return NULL;
}

bool bgp_dynamic_lookup(const struct ipaddr *addr, const char **group)
{
	struct dyn_entry *e = entry_of(addr);

	if (group)
		*group = e ? e->group : NULL;
	return e != NULL;
}

void bgp_dynamic_reset(void)
{
	XFREE(MTYPE_BGP_DYNAMIC, dyn.v);
	dyn.n = dyn.cap = 0;
	event_free(dyn.reap_ev);
	dyn.reap_ev = NULL;
}

void bgp_dynamic_forget(const struct ipaddr *addr)
{
	struct dyn_entry *e = entry_of(addr);

	if (!e)
		return;
	*e = dyn.v[--dyn.n];
	if (!dyn.n) {
		XFREE(MTYPE_BGP_DYNAMIC, dyn.v);
		dyn.cap = 0;
	}
}

struct bgp_peer *bgp_dynamic_accept(struct bgp *bgp, const struct ipaddr *addr, uint16_t port)
{
	const struct bgp_listen_range *r = bgp_dynamic_range_match(addr);
	char a[IPADDR_STRLEN], p[PREFIX_STRLEN], why[512];
	struct bgp_peer *peer;

	if (!r)
		return NULL;
	ipaddr_to_str(addr, a, sizeof(a));
	prefix_to_str(&r->prefix, p, sizeof(p));
	if (dyn.n >= dyn.limit) {
		log_warn_limited(
			"connection from %s port %u (listen range %s, peer-group %s) refused: "
			"%u dynamic neighbors, the bgp listen limit",
			a, port, p, r->group, dyn.limit);
		return NULL;
	}
	if (!dyn.apply)
		return NULL;
	if (dyn.n == dyn.cap) {
		dyn.cap = dyn.cap ? 2 * dyn.cap : 8;
		dyn.v = XREALLOC(MTYPE_BGP_DYNAMIC, dyn.v, dyn.cap * sizeof(*dyn.v));
	}
	memset(&dyn.v[dyn.n], 0, sizeof(dyn.v[0]));
	dyn.v[dyn.n].addr = *addr;
	snprintf(dyn.v[dyn.n].group, sizeof(dyn.v[0].group), "%s", r->group);
	dyn.n++;
	why[0] = '\0';
	if (dyn.apply(why, sizeof(why)) < 0 || !(peer = bgp_peer_lookup(bgp, addr))) {
		bgp_dynamic_forget(addr);
		log_err_limited(
			"connection from %s port %u (listen range %s, peer-group %s) refused: the "
			"dynamic neighbor was not accepted by the configuration: %s",
			a, port, p, r->group, why[0] ? why : "unknown reason");
		return NULL;
	}
	log_info_limited("dynamic neighbor %s of peer-group %s created (listen range %s)", a,
			 dyn.v[dyn.n - 1].group, p);
	bgp_session_start(peer);
	return peer;
}

static void reap_cb(int fd, short what, void *arg)
{
	char why[512];
	bool any = false;

	(void)fd;
	(void)what;
	(void)arg;
	for (size_t i = 0; i < dyn.n; i++)
		any |= dyn.v[i].ending;
	if (!any || !dyn.apply)
		return;
	/* The expansion leaves ending entries out: their neighbors are destroyed, and the
	 * destroy callback forgets them. */
	why[0] = '\0';
	if (dyn.apply(why, sizeof(why)) < 0)
		log_err("dynamic neighbors could not be deleted: %s", why);
}

void bgp_dynamic_session_ended(struct bgp_peer *peer)
{
	struct dyn_entry *e = entry_of(&peer->conf.addr);

	if (!e || e->ending)
		return;
	e->ending = true;
	bgp_peer_info_limited(peer, "dynamic neighbor's session ended: deleting it");
	if (!dyn.reap_ev)
		dyn.reap_ev = event_defer_new(peer->bgp->base, reap_cb, NULL);
	if (dyn.reap_ev)
		event_defer(dyn.reap_ev);
}
