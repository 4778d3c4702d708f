/* SPDX-License-Identifier: ISC */
/*
 * Interning store for variable-sized objects (AS paths, community lists): slabs of 8-byte
 * size classes and an index of 32-bit slots over them. See bgp_vstore.c for the layout.
 */
#ifndef SKUA_BGP_VSTORE_H
#define SKUA_BGP_VSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

/* The index of AS paths and community lists, for bgp_vstore_init(). */
DECLARE_MTYPE(BGP_VSTORE_INDEX);

/* Largest object a store keeps (header included); the callers keep larger ones elsewhere. */
#define BGP_VSTORE_MAX_SIZE 256
#define BGP_VSTORE_CLASSES (BGP_VSTORE_MAX_SIZE / 8 - 1) /* 16, 24, ... 256 bytes */

/* One chunk: 256 objects of one size class; an object's id is its chunk's number * 256 plus
 * its place in the chunk. */
#define BGP_VSTORE_CHUNK_SHIFT 8
/* One chunk: 256 objects of one size class. */
struct bgp_vstore_chunk {
	uint8_t *mem;	/* NULL once given back; its number is then reused */
	void *free;	/* freed objects of this chunk */
	uint32_t prev;	/* neighbours on the class's list of chunks with room */
	uint32_t next;	/* (or, for a chunk given back, the next unused number) */
	uint16_t live;	/* objects allocated */
	uint16_t fresh; /* objects ever handed out: the rest are still zero */
	uint8_t cls;	/* size class: 16 + 8 * cls bytes */
	bool has_room;	/* on its class's list */
};

/* An index slot left by a deletion (never an id + 1): probes go on over it, insertions
 * reuse it. */
#define BGP_VSTORE_TOMB ((UINT32_C(1) << 26) - 1)

/*
 * Every object starts with a uint32_t refcount (never 0 while stored) and the uint32_t hash
 * it was added with. eq(stored, key) compares the rest.
 */
struct bgp_vstore {
	struct mtype *mt;	/* chunks */
	struct mtype *index_mt; /* the index */
	bool (*eq)(const void *stored, const void *key);
	struct bgp_vstore_chunk *chunk; /* chunk[id / 256] */
	uint32_t nchunk;
	uint32_t chunk_cap;
	uint32_t unused_chunk;			/* first number given back, or UINT32_MAX */
	uint32_t with_room[BGP_VSTORE_CLASSES]; /* first chunk with room, or UINT32_MAX */
	uint32_t *slot; /* 0 = empty, a tombstone, or tag << 26 | (id + 1) */
	unsigned bits;	/* 0 before the first insert */
	uint32_t live;
	uint32_t tombs; /* slots left by deletions, reused by insertions */
};

void bgp_vstore_init(struct bgp_vstore *s, struct mtype *mt, struct mtype *index_mt,
		     bool (*eq)(const void *stored, const void *key));
/* Frees the index; the slabs only when nothing is live (a leak stays a leak, not a UAF). */
void bgp_vstore_fini(struct bgp_vstore *s);
/* The refcount of an object its owner has released and will delete shortly: it stays in the
 * index (an index rebuild keeps it, for bgp_vstore_del() to find) but no lookup finds it. The
 * owner sets the refcount to 0 before the deletion, as for any other. */
#define BGP_VSTORE_RELEASED UINT32_MAX

/* The stored object equal to key (whose hash is hv), or NULL. */
void *bgp_vstore_lookup(const struct bgp_vstore *s, const void *key, uint32_t hv);
/* Start loading the index slot where hv's probe begins, for a deletion or a lookup a few
 * steps later (a hint: the index may even be rebuilt meanwhile). */
static inline void bgp_vstore_prefetch(const struct bgp_vstore *s, uint32_t hv)
{
	if (s->bits)
		__builtin_prefetch(&s->slot[hv & ((1u << s->bits) - 1)]);
}
/* A new object of size bytes (16 .. BGP_VSTORE_MAX_SIZE), indexed under hv. The caller sets its
 * refcount (non-zero) and hash (hv) before anything else touches the store. */
void *bgp_vstore_add(struct bgp_vstore *s, uint32_t hv, size_t size);
/* The same, with the object's id in *id: it stays the object's until bgp_vstore_del(). */
void *bgp_vstore_add_id(struct bgp_vstore *s, uint32_t hv, size_t size, uint32_t *id);
/* The object of that id, for a store whose objects are all size bytes (rounded up to 8, as the
 * store's size classes): no index probe, a read of the chunk table. */
static inline void *bgp_vstore_at(const struct bgp_vstore *s, uint32_t id, size_t size)
{
	size_t stride = (size + 7) & ~(size_t)7;

	return s->chunk[id >> BGP_VSTORE_CHUNK_SHIFT].mem +
	       (size_t)(id & ((1u << BGP_VSTORE_CHUNK_SHIFT) - 1)) * stride;
}
/* Remove obj (its refcount already 0) from the index and give it back to its chunk. A chunk
 * left empty goes back to malloc, unless it is the last with room in its class (so that one
 * object coming and going does not allocate and free a chunk each time). */
void bgp_vstore_del(struct bgp_vstore *s, void *obj);
size_t bgp_vstore_memory(const struct bgp_vstore *s);
/* Give back every chunk with no object in it, the spare kept per size class included, and
 * when the store is empty its index and chunk table too: for when a large release has ended
 * (bgpd/rib/bgp_rib_release.c), not per object. */
void bgp_vstore_trim(struct bgp_vstore *s);

#endif /* SKUA_BGP_VSTORE_H */
