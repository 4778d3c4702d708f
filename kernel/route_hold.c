/* SPDX-License-Identifier: ISC */
/*
 * Route deletions held back and handed to the installer in random order (kernel/kernel_route.h).
 *
 * Why: the kernel keeps IPv4 routes in an LC-trie (net/ipv4/fib_trie.c) whose nodes are
 * arrays of 2^bits slots. A node is halved once fewer than a quarter of its slots are used
 * (15% at the root): halve() pairs neighbouring slots, makes a new two-way node for every pair
 * whose slots are both used, and resizes each of those in turn. A full table of /24s sits in
 * one node of 2^20 slots. Deleted in address order (the order of bgpd's prefix tree, and of
 * the kernel's own dump), the routes left are one dense block at the top of the node: when
 * 262,144 (2^18) remain the node is a quarter full, every pair is full, and the node halves
 * ten times in a row inside one deletion; each smaller node then empties from its low end and
 * goes through the same again. Measured: a million /24s deleted in address order take 3.6 s,
 * 70% of them in the first 0.6 s, the last quarter in 3 s with a 0.8 s pause at 262,144 left;
 * in random order, 1.7 s at an even pace (doc/performance.md, "Kernel FIB").
 *
 * So deletions are collected while they come (a session loss removes a whole table in a few
 * loop turns) and released in random order: each release picks a held deletion uniformly at
 * random (an incremental Fisher-Yates draw), which keeps the routes still installed spread
 * over the whole node, whatever order the deletions arrived in and however they interleave
 * with releases. IPv4 addresses are kept in one array per prefix length, 4 bytes each (a
 * million held deletions take 4 MiB for the moment they are held); IPv6 prefixes whole.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <stdint.h>

#include "kernel/kernel.h"
#include "lib/memory.h"

static DEFINE_MTYPE(KERNEL_FIB_HOLD, "Kernel route deletions held");

#define HOLD_V4_BITS 32 /* an IPv4 prefix length is 0..32 */

struct kernel_fib_hold {
	uint32_t table, metric;		/* of every held deletion */
	uint32_t *v4[HOLD_V4_BITS + 1]; /* addresses (host order) by prefix length */
	size_t n4[HOLD_V4_BITS + 1], cap4[HOLD_V4_BITS + 1];
	size_t n4_all;
	struct prefix *v6;
	size_t n6, cap6;
	uint64_t rng; /* xorshift64 state: the draw needs no quality, only no pattern */
};

struct kernel_fib_hold *kernel_fib_hold_new(void)
{
	struct kernel_fib_hold *h = XCALLOC(MTYPE_KERNEL_FIB_HOLD, sizeof(*h));

	h->rng = 0x9e3779b97f4a7c15ull;
	return h;
}

void kernel_fib_hold_free(struct kernel_fib_hold *h)
{
	if (!h)
		return;
	for (unsigned len = 0; len <= HOLD_V4_BITS; len++)
		XFREE(MTYPE_KERNEL_FIB_HOLD, h->v4[len]);
	XFREE(MTYPE_KERNEL_FIB_HOLD, h->v6);
	XFREE(MTYPE_KERNEL_FIB_HOLD, h);
}

size_t kernel_fib_hold_count(const struct kernel_fib_hold *h)
{
	return h ? h->n4_all + h->n6 : 0;
}

/* A uniform index below n (n > 0); the modulo bias is far below what the trie can tell. */
static size_t draw(struct kernel_fib_hold *h, size_t n)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return (size_t)(h->rng % n);
}

static void grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 1024;
	*v = XREALLOC(MTYPE_KERNEL_FIB_HOLD, *v, *cap * size);
}

void kernel_fib_hold_add(struct kernel_fib_hold *h, struct kernel_fib *kf, const struct prefix *dst,
			 uint32_t table, uint32_t metric)
{
	/* One table and metric per batch of held deletions: a change sends the batch first. */
	if (kernel_fib_hold_count(h) && (h->table != table || h->metric != metric))
		kernel_fib_hold_release(h, kf, SIZE_MAX);
	h->table = table;
	h->metric = metric;
	if (dst->family == AF_INET) {
		unsigned len = dst->len > HOLD_V4_BITS ? HOLD_V4_BITS : dst->len;

		grow((void **)&h->v4[len], &h->cap4[len], h->n4[len], sizeof(*h->v4[len]));
		h->v4[len][h->n4[len]++] = ntohl(dst->u.v4.s_addr);
		h->n4_all++;
	} else {
		grow((void **)&h->v6, &h->cap6, h->n6, sizeof(*h->v6));
		h->v6[h->n6++] = *dst;
	}
}

/* Take the i-th held IPv4 deletion (counting through the lengths in turn) out of the arrays. */
static void take_v4(struct kernel_fib_hold *h, size_t i, struct prefix *p)
{
	unsigned len = 0;

	while (i >= h->n4[len])
		i -= h->n4[len++];
	memset(p, 0, sizeof(*p));
	p->family = AF_INET;
	p->len = (uint8_t)len;
	p->u.v4.s_addr = htonl(h->v4[len][i]);
	h->v4[len][i] = h->v4[len][--h->n4[len]];
	h->n4_all--;
	/* Emptied: give the array back (a full table's worth would otherwise stay allocated). */
	if (!h->n4[len]) {
		XFREE(MTYPE_KERNEL_FIB_HOLD, h->v4[len]);
		h->cap4[len] = 0;
	}
}

size_t kernel_fib_hold_release(struct kernel_fib_hold *h, struct kernel_fib *kf, size_t max)
{
	size_t sent = 0;
	struct prefix p;

	for (; sent < max && h->n4_all; sent++) {
		take_v4(h, draw(h, h->n4_all), &p);
		kernel_fib_delete(kf, &p, h->table, h->metric);
	}
	for (; sent < max && h->n6; sent++) {
		size_t i = draw(h, h->n6);

		p = h->v6[i];
		h->v6[i] = h->v6[--h->n6];
		kernel_fib_delete(kf, &p, h->table, h->metric);
	}
	if (!h->n6 && h->cap6) {
		XFREE(MTYPE_KERNEL_FIB_HOLD, h->v6);
		h->cap6 = 0;
	}
	return sent;
}
