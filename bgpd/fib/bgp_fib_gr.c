/* SPDX-License-Identifier: ISC */
/*
 * Adopting an earlier run's kernel routes across a graceful restart (RFC 4724 4.1: "the
 * restarting speaker ... MUST retain the forwarding state"), see bgp_fib_gr.h.
 *
 * What is kept per adopted route: a 64-bit fingerprint of its next hops (gateway and
 * interface of each, sorted, so the kernel's order does not matter) in a prefix tree per
 * family, as the tree's value; no allocation per route, so adopting a million routes costs
 * the tree's nodes only. A route whose fingerprint matches what the RIB decides is left
 * alone; a collision (2^-64 per route) would leave one stale next hop, which the next change
 * of that prefix repairs.
 *
 * Routes of protocol bgp with another metric than ours are not ours as we would install
 * them (an older skua or another daemon): removed at once, as before graceful restart.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/fib/bgp_fib.h"
#include "bgpd/fib/bgp_fib_gr.h"
#include "lib/log.h"
#include "lib/table.h"

static struct {
	struct ptree *tree[BGP_AF_MAX]; /* prefix -> fingerprint | 1 (never NULL) */
	struct kernel_fib *kf;		/* for the removals of adopt_cb */
	struct fib_gr_stats st;
	uint64_t *count; /* adopt_cb's per-family counts */
} gr;

static int nh_cmp(const void *a, const void *b)
{
	const struct kernel_nh *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	return ipaddr_cmp(&x->gw, &y->gw);
}

/* FNV-1a over the sorted next hops; the low bit set so that the value is never NULL. */
static uintptr_t fingerprint(const struct kernel_route *r)
{
	struct kernel_nh nh[KERNEL_NH_MAX];
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned n = MIN(r->nnh, (unsigned)KERNEL_NH_MAX);

	memcpy(nh, r->nh, n * sizeof(nh[0]));
	qsort(nh, n, sizeof(nh[0]), nh_cmp);
	for (unsigned i = 0; i < n; i++) {
		uint8_t b[4 + 1 + 16];
		size_t len = prefix_maxlen(nh[i].gw.family ? nh[i].gw.family : AF_INET) / 8;

		memcpy(b, &nh[i].ifindex, 4);
		b[4] = nh[i].gw.family;
		memset(b + 5, 0, 16);
		if (nh[i].gw.family)
			memcpy(b + 5, nh[i].gw.u.bytes, len);
		for (size_t j = 0; j < sizeof(b); j++) {
			h ^= b[j];
			h *= 0x100000001b3ull;
		}
	}
	return (uintptr_t)(h | 1);
}

static enum bgp_af af_of(int family)
{
	return family == AF_INET ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST;
}

static int adopt_cb(const struct kernel_route *r, void *arg)
{
	enum bgp_af af = af_of(r->dst.family);
	void **slot;

	(void)arg;
	if (r->metric != BGP_FIB_METRIC || !r->nnh) {
		kernel_fib_delete(gr.kf, &r->dst, r->table, r->metric);
		gr.st.foreign++;
		return 0;
	}
	slot = ptree_get(gr.tree[af], &r->dst);
	if (!slot)
		return 0;
	if (!*slot)
		gr.count[af]++;
	*slot = (void *)fingerprint(r);
	kernel_fib_adopt(gr.kf, r); /* its nexthop object is in use */
	return 0;
}

int fib_gr_adopt(struct kernel_fib *kf, uint32_t table, uint64_t adopted[BGP_AF_MAX])
{
	int ret = 0;

	fib_gr_reset();
	memset(&gr.st, 0, sizeof(gr.st));
	gr.kf = kf;
	gr.count = adopted;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		adopted[af] = 0;
		gr.tree[af] = ptree_new(bgp_af_family(af));
		ret = kernel_fib_dump(table, bgp_af_family(af), adopt_cb, NULL);
		if (ret < 0)
			break;
	}
	/* The earlier run's nexthop objects that no kept route uses (a route removed above was
	 * the last of its object's). */
	kernel_fib_nexthops_prune(kf);
	kernel_fib_flush(kf);
	gr.count = NULL;
	if (ret < 0) {
		fib_gr_reset();
		adopted[0] = adopted[1] = 0;
		return ret;
	}
	gr.st.adopted = adopted[0] + adopted[1];
	return 0;
}

enum fib_gr_match fib_gr_take(const struct kernel_route *r)
{
	struct ptree *t = gr.tree[af_of(r->dst.family)];
	uintptr_t fp;

	if (!t || !ptree_count(t))
		return FIB_GR_NONE;
	fp = (uintptr_t)ptree_delete(t, &r->dst);
	if (!fp)
		return FIB_GR_NONE;
	if (fp == fingerprint(r)) {
		gr.st.kept++;
		return FIB_GR_SAME;
	}
	gr.st.replaced++;
	return FIB_GR_CHANGED;
}

bool fib_gr_pending(void)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (gr.tree[af])
			return true;
	return false;
}

static int sweep_cb(const struct prefix *p, void *value, void *arg)
{
	uint32_t *table = arg;

	(void)value;
	kernel_fib_delete(gr.kf, p, *table, BGP_FIB_METRIC);
	gr.st.removed++;
	return 0;
}

uint64_t fib_gr_sweep(struct kernel_fib *kf, uint32_t table)
{
	uint64_t before = gr.st.removed;

	gr.kf = kf;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (gr.tree[af])
			ptree_walk(gr.tree[af], sweep_cb, &table);
	kernel_fib_flush(kf);
	fib_gr_reset();
	log_notice("FIB: graceful restart done: of %" PRIu64 " routes kept from the earlier run, "
		   "%" PRIu64 " unchanged, %" PRIu64 " replaced, %" PRIu64 " removed",
		   gr.st.adopted, gr.st.kept, gr.st.replaced, gr.st.removed);
	return gr.st.removed - before;
}

void fib_gr_reset(void)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(gr.tree[af], NULL);
		gr.tree[af] = NULL;
	}
}

void fib_gr_stats(struct fib_gr_stats *st)
{
	*st = gr.st;
}
