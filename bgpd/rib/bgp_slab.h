/* SPDX-License-Identifier: ISC */
/*
 * A fixed-size object allocator for the RIB's per-prefix objects (struct bgp_dest,
 * struct bgp_path). A full table holds millions of them: malloc would add a 16-byte header and
 * round each one up, which alone is a third of the per-prefix budget. Objects are carved from
 * 64 KiB chunks (accounted under the slab's MTYPE) and recycled through a free list. When a
 * table shrinks to under a quarter of the slab (a session's routes withdrawn), the chunks whose
 * objects are all free go back to malloc, so that memory returns to about that of the smaller
 * table (bgp_slab.c says how, and what it costs).
 */
#ifndef SKUA_BGP_SLAB_H
#define SKUA_BGP_SLAB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

struct bgp_slab_chunk;

struct bgp_slab {
	struct mtype *mt;
	uint32_t obj_size; /* rounded up to 8 bytes */
	uint32_t per_chunk;
	void *free_list; /* freed objects, linked through their first word */
	struct bgp_slab_chunk *chunks;
	uint32_t fresh; /* objects never handed out in the newest chunk */
	size_t in_use;
	size_t chunk_count;
	size_t reclaim_below;  /* in_use under which the next reclaim pass runs */
	size_t reclaim_owed;   /* frees still to come before it may: the last pass's cost */
	size_t reclaim_passes; /* passes so far, for tests and show memory */
};

void bgp_slab_init(struct bgp_slab *s, struct mtype *mt, size_t obj_size);
/* Every object back to the system (they must no longer be referenced). */
void bgp_slab_fini(struct bgp_slab *s);
void *bgp_slab_alloc(struct bgp_slab *s); /* zeroed */
void bgp_slab_free(struct bgp_slab *s, void *obj);
size_t bgp_slab_memory(const struct bgp_slab *s); /* bytes held in chunks */

#endif /* SKUA_BGP_SLAB_H */
