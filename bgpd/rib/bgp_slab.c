/* SPDX-License-Identifier: ISC */
/* Fixed-size object slabs for the RIB (see bgp_slab.h for why). */
#include "lib/compat.h"

#include "bgpd/rib/bgp_slab.h"

/* 64 KiB minus room for malloc's own header, so a chunk does not spill into a second page run. */
#define SLAB_CHUNK_BYTES (64 * 1024 - 32)

struct bgp_slab_chunk {
	struct bgp_slab_chunk *next;
	uint64_t pad; /* keeps objects 16-byte aligned within the chunk */
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
}

void bgp_slab_fini(struct bgp_slab *s)
{
	struct bgp_slab_chunk *c, *next;

	for (c = s->chunks; c; c = next) {
		next = c->next;
		XFREE(s->mt, c);
	}
	s->chunks = NULL;
	s->free_list = NULL;
	s->fresh = 0;
	s->in_use = 0;
	s->chunk_count = 0;
}

void *bgp_slab_alloc(struct bgp_slab *s)
{
	void *obj;

	if (s->free_list) {
		obj = s->free_list;
		s->free_list = *(void **)obj;
	} else {
		if (s->fresh == 0) {
			struct bgp_slab_chunk *c = XMALLOC(s->mt, SLAB_CHUNK_BYTES);

			c->next = s->chunks;
			s->chunks = c;
			s->fresh = s->per_chunk;
			s->chunk_count++;
		}
		obj = s->chunks->data + (size_t)(s->per_chunk - s->fresh) * s->obj_size;
		s->fresh--;
	}
	memset(obj, 0, s->obj_size);
	s->in_use++;
	return obj;
}

/* The last object gone: every chunk goes back to malloc (and from there, after the RIB's
 * malloc_trim(), to the system), so a table that was withdrawn whole leaves nothing behind
 * (issue 15). One prefix flapping alone then takes and gives back a chunk each time, which
 * malloc serves from its free lists. A slab that is never empty keeps its chunks: objects do
 * not move, and a partial release would need a chunk lookup on every free. */
static void slab_release_empty(struct bgp_slab *s)
{
	struct bgp_slab_chunk *c, *next;

	for (c = s->chunks; c; c = next) {
		next = c->next;
		XFREE(s->mt, c);
	}
	s->chunks = NULL;
	s->chunk_count = 0;
	s->free_list = NULL;
	s->fresh = 0;
}

void bgp_slab_free(struct bgp_slab *s, void *obj)
{
	if (!obj)
		return;
	*(void **)obj = s->free_list;
	s->free_list = obj;
	s->in_use--;
	if (s->in_use == 0)
		slab_release_empty(s);
}

size_t bgp_slab_memory(const struct bgp_slab *s)
{
	return s->chunk_count * SLAB_CHUNK_BYTES;
}
