/* SPDX-License-Identifier: ISC */
/*
 * Fixed-size object slabs for the RIB (see bgp_slab.h for why).
 *
 * Giving chunks back: objects carry no header, so a free object does not say which chunk it
 * is in, and the free list threads through every chunk. Rather than a per-object cost, a
 * reclaim pass runs when the slab is under a quarter full: it counts the free objects of
 * each chunk (a binary search among the chunks sorted by address), frees the chunks that are
 * entirely free and rebuilds the free list from the rest. Its cost is linear in the free
 * objects, each a cache miss when they are scattered. It runs again only once in_use has
 * fallen to a quarter of what it was at the last pass, and once the frees since then are at
 * least half of what the last pass walked: a session's paths freed in prefix order are
 * scattered over every chunk, so a pass frees few chunks and leaves the free list nearly as
 * long as the table was; without that second rule each quarter step walked it again (ten
 * walks of a million misses for one session drop, 58% of its CPU). With it the passes cost at
 * most a few walks per object freed, and at once when the slab empties nothing is walked.
 *
 * A numbered slab needs no pass: a freed object's handle names its chunk, so each chunk keeps
 * its own free list and count, and a chunk goes back to malloc when its last object does.
 * The pass walked the whole free list at once, two cache misses per free object: after a
 * full table's session drop that was one 250 ms stretch of the loop, and `show bgp summary`
 * waited for it (edge_bench's session_drop). The chunk headers a free touches instead are a
 * few hundred lines for a full table's paths, which stay in the cache.
 */
#include "lib/compat.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/rib/bgp_slab.h"

/* 64 KiB minus room for malloc's own header, so a chunk does not spill into a second page run. */
#define SLAB_CHUNK_BYTES (64 * 1024 - 32)

struct bgp_slab_chunk {
	struct bgp_slab_chunk *next;
	/* Numbered slabs: the rest of the list of chunks (a chunk leaves it from anywhere), and
	 * the list of those with freed objects (the slab's partial). */
	struct bgp_slab_chunk *prev;
	struct bgp_slab_chunk *pnext, *pprev;
	uint32_t num;	   /* numbered slabs: its number in the dir */
	uint32_t free_ref; /* numbered: its freed objects, linked by handle; 0 = none */
	uint32_t nfree;	   /* numbered: how many */
	uint32_t pad;	   /* keeps objects 16-byte aligned within the chunk */
	uint8_t data[];
};
_Static_assert(sizeof(struct bgp_slab_chunk) % 16 == 0, "objects 16-byte aligned");

void bgp_slab_init(struct bgp_slab *s, struct mtype *mt, size_t obj_size)
{
	memset(s, 0, sizeof(*s));
	s->mt = mt;
	if (obj_size < sizeof(void *))
		obj_size = sizeof(void *);
	s->obj_size = (uint32_t)((obj_size + 7) & ~(size_t)7);
	s->per_chunk = (uint32_t)((SLAB_CHUNK_BYTES - sizeof(struct bgp_slab_chunk)) / s->obj_size);
	s->chunk_bytes = SLAB_CHUNK_BYTES;
	s->reclaim_below = SIZE_MAX;
}

/* Objects 4-aligned only (a 20-byte object is not rounded to 24): their users read them
 * through packed types, and the free list through memcpy. */
void bgp_slab_init_numbered(struct bgp_slab *s, struct mtype *mt, size_t obj_size,
			    struct bgp_slab_dir *dir)
{
	memset(s, 0, sizeof(*s));
	s->mt = mt;
	s->dir = dir;
	if (obj_size < sizeof(uint32_t))
		obj_size = sizeof(uint32_t);
	s->obj_size = (uint32_t)((obj_size + 3) & ~(size_t)3);
	s->per_chunk = BGP_SLAB_REF_PER_CHUNK;
	s->chunk_bytes = sizeof(struct bgp_slab_chunk) + (size_t)s->per_chunk * s->obj_size;
	s->reclaim_below = SIZE_MAX;
}

/* A number for chunk c in s's dir, the lowest free one (chunks come and go rarely: a scan). */
static void dir_take(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	struct bgp_slab_dir *d = s->dir;
	uint32_t n = d->hint ? d->hint : 1;

	while (n < d->cap && d->base[n])
		n++;
	if (n >= d->cap) {
		uint32_t ncap = d->cap ? d->cap * 2 : 64;

		assert(ncap <= (UINT32_C(1) << (32 - BGP_SLAB_REF_SHIFT)));
		d->base = XREALLOC(s->mt, d->base, ncap * sizeof(*d->base));
		memset(d->base + d->cap, 0, (ncap - d->cap) * sizeof(*d->base));
		d->cap = ncap;
	}
	d->base[n] = c->data;
	d->used++;
	d->hint = n + 1;
	c->num = n;
}

static void dir_give_back(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	struct bgp_slab_dir *d = s->dir;

	d->base[c->num] = NULL;
	if (c->num < d->hint)
		d->hint = c->num;
	if (--d->used == 0) {
		XFREE(s->mt, d->base);
		d->cap = 0;
		d->hint = 0;
	}
}

static void chunk_free(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	if (s->dir)
		dir_give_back(s, c);
	XFREE(s->mt, c);
}

void bgp_slab_fini(struct bgp_slab *s)
{
	struct bgp_slab_chunk *c, *next;

	for (c = s->chunks; c; c = next) {
		next = c->next;
		chunk_free(s, c);
	}
	s->chunks = NULL;
	s->free_list = NULL;
	s->partial = NULL;
	s->fresh = 0;
	s->in_use = 0;
	s->chunk_count = 0;
	s->reclaim_below = SIZE_MAX;
	s->reclaim_owed = 0;
}

/* A new chunk to carve from. */
static void chunk_new(struct bgp_slab *s)
{
	struct bgp_slab_chunk *c = XMALLOC(s->mt, s->chunk_bytes);

	if (s->dir) {
		dir_take(s, c);
		c->prev = NULL;
		c->pnext = c->pprev = NULL;
		c->free_ref = c->nfree = 0;
		if (s->chunks)
			s->chunks->prev = c;
	}
	c->next = s->chunks;
	s->chunks = c;
	s->fresh = s->per_chunk;
	s->chunk_count++;
	/* growing again: a pass when it next shrinks */
	s->reclaim_below = SIZE_MAX;
	s->reclaim_owed = 0;
}

void *bgp_slab_alloc(struct bgp_slab *s)
{
	void *obj;

	assert(!s->dir);
	if (s->free_list) {
		obj = s->free_list;
		s->free_list = *(void **)obj;
	} else {
		if (s->fresh == 0)
			chunk_new(s);
		obj = s->chunks->data + (size_t)(s->per_chunk - s->fresh) * s->obj_size;
		s->fresh--;
	}
	memset(obj, 0, s->obj_size);
	s->in_use++;
	return obj;
}

/* ---- numbered slabs: a free list per chunk ---- */

static struct bgp_slab_chunk *chunk_of_ref(const struct bgp_slab *s, uint32_t ref)
{
	return (struct bgp_slab_chunk *)(s->dir->base[ref >> BGP_SLAB_REF_SHIFT] -
					 offsetof(struct bgp_slab_chunk, data));
}

static void partial_push(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	c->pprev = NULL;
	c->pnext = s->partial;
	if (s->partial)
		s->partial->pprev = c;
	s->partial = c;
}

static void partial_remove(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	if (c->pprev)
		c->pprev->pnext = c->pnext;
	else
		s->partial = c->pnext;
	if (c->pnext)
		c->pnext->pprev = c->pprev;
	c->pnext = c->pprev = NULL;
}

/* c, all of whose objects are free, out of the slab and back to malloc. */
static void chunk_release(struct bgp_slab *s, struct bgp_slab_chunk *c)
{
	partial_remove(s, c);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->chunks = c->next;
	if (c->next)
		c->next->prev = c->prev;
	s->chunk_count--;
	chunk_free(s, c);
}

void *bgp_slab_alloc_ref(struct bgp_slab *s, uint32_t *ref)
{
	uint8_t *obj;

	assert(s->dir);
	if (s->partial) {
		struct bgp_slab_chunk *c = s->partial;

		*ref = c->free_ref;
		obj = bgp_slab_dir_at(s->dir, *ref, s->obj_size);
		memcpy(&c->free_ref, obj, sizeof(c->free_ref));
		if (--c->nfree == 0)
			partial_remove(s, c);
	} else {
		uint32_t i;

		if (s->fresh == 0)
			chunk_new(s);
		i = s->per_chunk - s->fresh;
		*ref = s->chunks->num << BGP_SLAB_REF_SHIFT | i;
		obj = s->chunks->data + (size_t)i * s->obj_size;
		s->fresh--;
	}
	memset(obj, 0, s->obj_size);
	s->in_use++;
	return obj;
}

static int chunk_addr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (struct bgp_slab_chunk *const *)a;
	uintptr_t y = (uintptr_t) * (struct bgp_slab_chunk *const *)b;

	return x < y ? -1 : x > y;
}

/* Index in sorted[] of the chunk holding obj (every free object is in one). */
static size_t chunk_of(struct bgp_slab_chunk **sorted, size_t n, const void *obj)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)sorted[mid] <= (uintptr_t)obj)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Free the chunks whose objects are all free (see the top of the file). Returns how many
 * objects and chunks it walked. */
static size_t slab_reclaim(struct bgp_slab *s)
{
	size_t n = s->chunk_count, i, kept = 0, walked = n;
	struct bgp_slab_chunk **sorted, *newest = s->chunks, *c;
	uint32_t *nfree;
	void *obj, *next, **tail;

	sorted = XMALLOC(s->mt, n * sizeof(*sorted));
	nfree = XCALLOC(s->mt, n * sizeof(*nfree));
	for (i = 0, c = s->chunks; c; c = c->next)
		sorted[i++] = c;
	qsort(sorted, n, sizeof(*sorted), chunk_addr_cmp);
	for (obj = s->free_list; obj; obj = *(void **)obj) {
		nfree[chunk_of(sorted, n, obj)]++;
		walked++;
	}
	/* The newest chunk's objects never handed out are free too. */
	if (newest)
		nfree[chunk_of(sorted, n, newest->data)] += s->fresh;
	/* The free list without the objects of the chunks about to go. */
	tail = &s->free_list;
	for (obj = s->free_list; obj; obj = next) {
		next = *(void **)obj;
		if (nfree[chunk_of(sorted, n, obj)] < s->per_chunk) {
			*tail = obj;
			tail = (void **)obj;
		}
	}
	*tail = NULL;
	/* Relink the chunks that stay, the newest first (it is the one carved from). */
	s->chunks = NULL;
	for (i = n; i-- > 0;) {
		if (nfree[i] == s->per_chunk) {
			if (sorted[i] == newest)
				s->fresh = 0;
			chunk_free(s, sorted[i]);
			continue;
		}
		if (sorted[i] == newest && s->fresh)
			continue; /* linked first, below */
		sorted[i]->next = s->chunks;
		s->chunks = sorted[i];
		kept++;
	}
	if (s->fresh) {
		newest->next = s->chunks;
		s->chunks = newest;
		kept++;
	}
	s->chunk_count = kept;
	s->reclaim_passes++;
	XFREE(s->mt, nfree);
	XFREE(s->mt, sorted);
	return walked;
}

/* After an object went on the free list: give chunks back (see the top of the file). */
static void slab_after_free(struct bgp_slab *s)
{
	s->in_use--;
	if (s->reclaim_owed)
		s->reclaim_owed--;
	if (s->in_use == 0) {
		size_t passes = s->reclaim_passes;

		bgp_slab_fini(s); /* nothing is referenced: no need to look */
		s->reclaim_passes = passes;
		return;
	}
	if (s->in_use * 4 < s->chunk_count * s->per_chunk && s->in_use <= s->reclaim_below &&
	    s->reclaim_owed == 0) {
		s->reclaim_owed = slab_reclaim(s) / 2;
		s->reclaim_below = s->in_use / 4;
	}
}

void bgp_slab_free(struct bgp_slab *s, void *obj)
{
	if (!obj)
		return;
	assert(!s->dir);
	*(void **)obj = s->free_list;
	s->free_list = obj;
	slab_after_free(s);
}

void bgp_slab_free_ref(struct bgp_slab *s, uint32_t ref)
{
	if (!ref)
		return;
	struct bgp_slab_chunk *c;

	assert(s->dir);
	c = chunk_of_ref(s, ref);
	memcpy(bgp_slab_dir_at(s->dir, ref, s->obj_size), &c->free_ref, sizeof(c->free_ref));
	c->free_ref = ref;
	if (++c->nfree == 1)
		partial_push(s, c);
	if (--s->in_use == 0) {
		bgp_slab_fini(s); /* nothing is referenced: no need to look */
		return;
	}
	/* Its last object gone: the chunk goes, unless it is the one still being carved. */
	if (c->nfree == s->per_chunk)
		chunk_release(s, c);
}

size_t bgp_slab_memory(const struct bgp_slab *s)
{
	return s->chunk_count * s->chunk_bytes;
}
