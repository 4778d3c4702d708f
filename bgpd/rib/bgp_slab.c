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
 * A numbered slab's free objects are handles, which name their chunk: the pass counts them
 * per chunk number without a search.
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
	uint32_t num; /* numbered slabs: its number in the dir */
	uint32_t pad; /* keeps objects 16-byte aligned within the chunk */
	uint8_t data[];
};

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

/* Objects 4-aligned only (a 20-byte path is not rounded to 24): their users read them
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
	s->free_ref = 0;
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

	if (s->dir)
		dir_take(s, c);
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

void *bgp_slab_alloc_ref(struct bgp_slab *s, uint32_t *ref)
{
	uint8_t *obj;

	assert(s->dir);
	if (s->free_ref) {
		*ref = s->free_ref;
		obj = bgp_slab_dir_at(s->dir, *ref, s->obj_size);
		memcpy(&s->free_ref, obj, sizeof(s->free_ref));
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

/* slab_reclaim() of a numbered slab: the free handles counted by chunk number. */
static size_t slab_reclaim_numbered(struct bgp_slab *s)
{
	size_t walked = s->chunk_count, kept = 0;
	struct bgp_slab_chunk *newest = s->chunks, *c, *next, **ctail;
	uint32_t *nfree, ref, nref, *tail;

	nfree = XCALLOC(s->mt, s->dir->cap * sizeof(*nfree));
	for (ref = s->free_ref; ref; walked++) {
		nfree[ref >> BGP_SLAB_REF_SHIFT]++;
		memcpy(&ref, bgp_slab_dir_at(s->dir, ref, s->obj_size), sizeof(ref));
	}
	if (newest)
		nfree[newest->num] += s->fresh;
	/* The free list without the handles of the chunks about to go. */
	tail = &s->free_ref;
	for (ref = s->free_ref; ref; ref = nref) {
		uint8_t *obj = bgp_slab_dir_at(s->dir, ref, s->obj_size);

		memcpy(&nref, obj, sizeof(nref));
		if (nfree[ref >> BGP_SLAB_REF_SHIFT] < s->per_chunk) {
			memcpy(tail, &ref, sizeof(ref));
			tail = (uint32_t *)(void *)obj; /* written through memcpy only */
		}
	}
	memcpy(tail, &(uint32_t){ 0 }, sizeof(uint32_t));
	/* The chunks that stay, in their order (the newest, carved from, stays first). */
	ctail = &s->chunks;
	for (c = s->chunks; c; c = next) {
		next = c->next;
		if (nfree[c->num] == s->per_chunk) {
			if (c == newest)
				s->fresh = 0;
			chunk_free(s, c);
			continue;
		}
		*ctail = c;
		ctail = &c->next;
		kept++;
	}
	*ctail = NULL;
	s->chunk_count = kept;
	s->reclaim_passes++;
	XFREE(s->mt, nfree);
	return walked;
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
		s->reclaim_owed = (s->dir ? slab_reclaim_numbered(s) : slab_reclaim(s)) / 2;
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
	assert(s->dir);
	memcpy(bgp_slab_dir_at(s->dir, ref, s->obj_size), &s->free_ref, sizeof(s->free_ref));
	s->free_ref = ref;
	slab_after_free(s);
}

size_t bgp_slab_memory(const struct bgp_slab *s)
{
	return s->chunk_count * s->chunk_bytes;
}
