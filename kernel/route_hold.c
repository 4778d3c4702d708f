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
 * with releases. A route installed again while its deletion is held is not deleted: the
 * caller's keep callback says which (bgpd asks its RIB), so a new route never waits for, nor
 * is overtaken by, the deletions held before it. IPv4 addresses are kept by prefix length, 4 bytes
 * each (a million held deletions take 4 MiB for the moment they are held); IPv6 prefixes whole.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <stdint.h>

#include "kernel/kernel.h"
#include "lib/memory.h"

static DEFINE_MTYPE(KERNEL_FIB_HOLD, "Kernel route deletions held");

#define HOLD_V4_BITS 32	       /* an IPv4 prefix length is 0..32 */
#define HOLD_BLOCK (16 * 1024) /* bytes per block of held deletions */

/*
 * A vector in blocks of HOLD_BLOCK bytes. Held deletions come while the RIB frees a lost
 * session's paths: blocks grow without copying and fit in the holes those frees leave, where
 * one array doubled up to a million entries took its last size in fresh pages on top of the
 * removal's peak (measured: 8 MiB more VmHWM than before holding).
 */
struct bvec {
	uint8_t **blk;
	size_t nblk, cap_blk;
	size_t n;	  /* elements */
	size_t size, per; /* element size, elements per block */
};

static void bv_init(struct bvec *v, size_t size)
{
	memset(v, 0, sizeof(*v));
	v->size = size;
	v->per = HOLD_BLOCK / size;
}

static void *bv_at(const struct bvec *v, size_t i)
{
	return v->blk[i / v->per] + (i % v->per) * v->size;
}

static void bv_push(struct bvec *v, const void *elem)
{
	if (v->n == v->nblk * v->per) {
		if (v->nblk == v->cap_blk) {
			v->cap_blk = v->cap_blk ? v->cap_blk * 2 : 16;
			v->blk = XREALLOC(MTYPE_KERNEL_FIB_HOLD, v->blk,
					  v->cap_blk * sizeof(*v->blk));
		}
		v->blk[v->nblk++] = XMALLOC(MTYPE_KERNEL_FIB_HOLD, HOLD_BLOCK);
	}
	memcpy(bv_at(v, v->n++), elem, v->size);
}

/* Element i into out; the last element takes its place, and an emptied block goes back. */
static void bv_take(struct bvec *v, size_t i, void *out)
{
	memcpy(out, bv_at(v, i), v->size);
	if (i != --v->n)
		memcpy(bv_at(v, i), bv_at(v, v->n), v->size);
	if (v->n == (v->nblk - 1) * v->per) {
		v->nblk--; /* not inside XFREE(), which names its argument twice */
		XFREE(MTYPE_KERNEL_FIB_HOLD, v->blk[v->nblk]);
	}
	if (!v->n) {
		XFREE(MTYPE_KERNEL_FIB_HOLD, v->blk);
		v->cap_blk = 0;
	}
}

static void bv_free(struct bvec *v)
{
	while (v->nblk) {
		v->nblk--;
		XFREE(MTYPE_KERNEL_FIB_HOLD, v->blk[v->nblk]);
	}
	XFREE(MTYPE_KERNEL_FIB_HOLD, v->blk);
	v->cap_blk = v->n = 0;
}

struct kernel_fib_hold {
	uint32_t table, metric;		  /* of every held deletion */
	struct bvec v4[HOLD_V4_BITS + 1]; /* addresses (uint32_t, host order) by prefix length */
	size_t n4_all;
	struct bvec v6; /* struct prefix */
	uint64_t rng;	/* xorshift64 state: the draw needs no quality, only no pattern */
};

struct kernel_fib_hold *kernel_fib_hold_new(void)
{
	struct kernel_fib_hold *h = XCALLOC(MTYPE_KERNEL_FIB_HOLD, sizeof(*h));

	for (unsigned len = 0; len <= HOLD_V4_BITS; len++)
		bv_init(&h->v4[len], sizeof(uint32_t));
	bv_init(&h->v6, sizeof(struct prefix));
	h->rng = 0x9e3779b97f4a7c15ull;
	return h;
}

void kernel_fib_hold_free(struct kernel_fib_hold *h)
{
	if (!h)
		return;
	for (unsigned len = 0; len <= HOLD_V4_BITS; len++)
		bv_free(&h->v4[len]);
	bv_free(&h->v6);
	XFREE(MTYPE_KERNEL_FIB_HOLD, h);
}

size_t kernel_fib_hold_count(const struct kernel_fib_hold *h)
{
	return h ? h->n4_all + h->v6.n : 0;
}

/* A uniform index below n (n > 0); the modulo bias is far below what the trie can tell. */
static size_t draw(struct kernel_fib_hold *h, size_t n)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return (size_t)(h->rng % n);
}

void kernel_fib_hold_add(struct kernel_fib_hold *h, struct kernel_fib *kf, const struct prefix *dst,
			 uint32_t table, uint32_t metric)
{
	/* One table and metric per batch of held deletions: a change sends the batch first. */
	if (kernel_fib_hold_count(h) && (h->table != table || h->metric != metric))
		kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL);
	h->table = table;
	h->metric = metric;
	if (dst->family == AF_INET) {
		unsigned len = dst->len > HOLD_V4_BITS ? HOLD_V4_BITS : dst->len;
		uint32_t addr = ntohl(dst->u.v4.s_addr);

		bv_push(&h->v4[len], &addr);
		h->n4_all++;
	} else {
		bv_push(&h->v6, dst);
	}
}

/* Take the i-th held IPv4 deletion (counting through the lengths in turn) out of the vectors. */
static void take_v4(struct kernel_fib_hold *h, size_t i, struct prefix *p)
{
	unsigned len = 0;
	uint32_t addr;

	while (i >= h->v4[len].n)
		i -= h->v4[len++].n;
	bv_take(&h->v4[len], i, &addr);
	h->n4_all--;
	memset(p, 0, sizeof(*p));
	p->family = AF_INET;
	p->len = (uint8_t)len;
	p->u.v4.s_addr = htonl(addr);
}

size_t kernel_fib_hold_release(struct kernel_fib_hold *h, struct kernel_fib *kf, size_t max,
			       kernel_fib_hold_keep_cb keep, void *arg)
{
	size_t taken = 0;
	struct prefix p;

	for (; taken < max && h->n4_all; taken++) {
		take_v4(h, draw(h, h->n4_all), &p);
		if (!keep || !keep(&p, arg))
			kernel_fib_delete(kf, &p, h->table, h->metric);
	}
	for (; taken < max && h->v6.n; taken++) {
		bv_take(&h->v6, draw(h, h->v6.n), &p);
		if (!keep || !keep(&p, arg))
			kernel_fib_delete(kf, &p, h->table, h->metric);
	}
	return taken;
}
