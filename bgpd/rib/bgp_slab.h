/* SPDX-License-Identifier: ISC */
/*
 * A fixed-size object allocator for the RIB's per-prefix objects (struct bgp_dest,
 * struct bgp_path). A full table holds millions of them: malloc would add a 16-byte header and
 * round each one up, which alone is a third of the per-prefix budget. Objects are carved from
 * 64 KiB chunks (accounted under the slab's MTYPE) and recycled through a free list. When a
 * table shrinks to under a quarter of the slab (a session's routes withdrawn), the chunks whose
 * objects are all free go back to malloc, so that memory returns to about that of the smaller
 * table (bgp_slab.c says how, and what it costs).
 *
 * A numbered slab (bgp_slab_init_numbered()) also names each object by a 32-bit handle, so
 * that the objects that link to it hold 4 bytes instead of an 8-byte pointer: its chunks have
 * numbers in a table (struct bgp_slab_dir, which several slabs may share, so that a handle
 * decodes without knowing its slab), and a handle is the chunk's number and the index within
 * it: decoding it is a load, a shift, a mask and a multiply by a constant. Since a handle also
 * names its chunk, each chunk keeps its own free list and goes back to malloc the moment its
 * last object does: no reclaim pass.
 */
#ifndef SKUA_BGP_SLAB_H
#define SKUA_BGP_SLAB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

struct bgp_slab_chunk;

/* Objects per chunk of a numbered slab; a handle is num << BGP_SLAB_REF_SHIFT | index. */
#define BGP_SLAB_REF_SHIFT 11
#define BGP_SLAB_REF_PER_CHUNK (UINT32_C(1) << BGP_SLAB_REF_SHIFT)

/* The chunk numbers of numbered slabs. Number 0 is never given, so no handle is 0 (0 = none). A
 * number freed with its chunk is given again; nothing may hold a handle into a freed chunk. */
struct bgp_slab_dir {
	uint8_t **base; /* base[num]: the objects of chunk num; NULL = a free number */
	uint32_t cap;
	uint32_t used; /* numbers given: the table goes when the last one comes back */
	uint32_t hint; /* no free number below it */
};

/* The object named by handle ref (not 0) of a slab of obj_size-byte objects numbered in d. */
static inline void *bgp_slab_dir_at(const struct bgp_slab_dir *d, uint32_t ref, size_t obj_size)
{
	return d->base[ref >> BGP_SLAB_REF_SHIFT] +
	       (size_t)(ref & (BGP_SLAB_REF_PER_CHUNK - 1)) * obj_size;
}

struct bgp_slab {
	struct mtype *mt;
	uint32_t obj_size; /* rounded up to 8 bytes (4 when numbered) */
	uint32_t per_chunk;
	size_t chunk_bytes;	  /* one chunk's allocation */
	struct bgp_slab_dir *dir; /* numbered: where its chunks are numbered, else NULL */
	void *free_list;	  /* plain: freed objects, linked through their first word */
	/* numbered: the chunks holding freed objects, each with its own list (bgp_slab.c) */
	struct bgp_slab_chunk *partial;
	struct bgp_slab_chunk *chunks;
	uint32_t fresh; /* objects never handed out in the newest chunk */
	size_t in_use;
	size_t chunk_count;
	size_t reclaim_below;  /* in_use under which the next reclaim pass runs */
	size_t reclaim_owed;   /* frees still to come before it may: the last pass's cost */
	size_t reclaim_passes; /* passes so far (plain slabs), for tests and show memory */
};

void bgp_slab_init(struct bgp_slab *s, struct mtype *mt, size_t obj_size);
/* A slab whose objects have handles, its chunks numbered in dir (obj_size at least 4). Its
 * objects are taken and given back by handle: bgp_slab_alloc_ref(), bgp_slab_free_ref(). */
void bgp_slab_init_numbered(struct bgp_slab *s, struct mtype *mt, size_t obj_size,
			    struct bgp_slab_dir *dir);
/* Every object back to the system (they must no longer be referenced). */
void bgp_slab_fini(struct bgp_slab *s);
void *bgp_slab_alloc(struct bgp_slab *s); /* zeroed */
void bgp_slab_free(struct bgp_slab *s, void *obj);
void *bgp_slab_alloc_ref(struct bgp_slab *s, uint32_t *ref); /* zeroed; its handle in *ref */
void bgp_slab_free_ref(struct bgp_slab *s, uint32_t ref);
size_t bgp_slab_memory(const struct bgp_slab *s); /* bytes held in chunks */

#endif /* SKUA_BGP_SLAB_H */
