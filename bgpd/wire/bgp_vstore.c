/* SPDX-License-Identifier: ISC */
/*
 * Interning store for variable-sized objects: AS paths and community lists.
 *
 * Why not lib/hash.c: a full table has hundreds of thousands of distinct AS paths and
 * community lists. lib/hash.c spends 12 bytes per slot (a pointer and the cached hash) and
 * malloc adds a 16-byte header to each list. Here, as for attribute sets (bgp_attr_intern.c):
 *   - objects come from chunks of 256 objects of one 8-byte size class, so an object has a
 *     dense 32-bit id (chunk number * 256 + place in the chunk) and no malloc header;
 *   - the index is open addressing over 32-bit slots, each the id (26 bits) and 6 more bits of
 *     the hash as a tag: a probe skips 63 in 64 non-matching slots without reading the object
 *     (the full hash is in the object, for the rare probe that does);
 *   - a deletion leaves a tombstone in its slot rather than shifting the rest of the run back:
 *     the shift needs each later member's home slot, that is its hash, that is a read of the
 *     object (a cache miss per member, most of a deletion's cost). Insertions reuse tombstones;
 *     when tombstones and live slots together reach the growth threshold the index is rebuilt
 *     (larger only if the live ones alone need it), which clears them.
 * A fixed number of objects per chunk (rather than a fixed chunk size) is what lets one id
 * space cover every size class: the id finds the chunk, the chunk's class gives the stride.
 * Each chunk keeps its own free objects, so that a chunk whose objects are all freed (a
 * withdrawn table) can go back to malloc, and from there to the system (lib/mem_trim.c).
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_vstore.h"
#include "lib/log.h"
#include "lib/memory.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define VS_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define VS_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define VS_POISON(p, n) ((void)(p), (void)(n))
#define VS_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

DEFINE_MTYPE(BGP_VSTORE_INDEX, "BGP AS path/community index");

#define CHUNK_SHIFT BGP_VSTORE_CHUNK_SHIFT
#define CHUNK_OBJS (1u << CHUNK_SHIFT)
#define SLOT_ID_BITS 26
#define SLOT_ID_MASK ((UINT32_C(1) << SLOT_ID_BITS) - 1)
#define SLOT_TAG(hv) ((hv) >> SLOT_ID_BITS)
#define MAX_CHUNKS ((SLOT_ID_MASK - 1) >> CHUNK_SHIFT) /* id + 1 must fit in 26 bits */
#define INDEX_MIN_BITS 6
/* Never an id + 1 (MAX_CHUNKS keeps those below it); its tag is 0, so a probe whose tag is 0
 * checks for it before reading an object. */
#define SLOT_TOMB BGP_VSTORE_TOMB
_Static_assert(BGP_VSTORE_TOMB == SLOT_ID_MASK, "a tombstone is the id field all ones");
#define NONE UINT32_MAX

/* What every stored object starts with. */
struct vs_hdr {
	uint32_t refcnt;
	uint32_t hash;
};

/* A free object (objects are 16 bytes or more): the zero refcount tells a scan of the chunks
 * that it is not live. */
struct vs_free {
	uint32_t refcnt; /* 0 */
	uint32_t place;	 /* in its chunk: the id's low bits */
	void *next;
};

static size_t class_size(unsigned cls)
{
	return 16 + (size_t)cls * 8;
}

static inline struct vs_hdr *obj_of_id(const struct bgp_vstore *s, uint32_t id)
{
	const struct bgp_vstore_chunk *ch = &s->chunk[id >> CHUNK_SHIFT];

	return (struct vs_hdr *)(ch->mem + (size_t)(id & (CHUNK_OBJS - 1)) * class_size(ch->cls));
}

static inline struct vs_hdr *obj_of_slot(const struct bgp_vstore *s, uint32_t slotval)
{
	return obj_of_id(s, (slotval & SLOT_ID_MASK) - 1);
}

void bgp_vstore_init(struct bgp_vstore *s, struct mtype *mt, struct mtype *index_mt,
		     bool (*eq)(const void *stored, const void *key))
{
	memset(s, 0, sizeof(*s));
	s->mt = mt;
	s->index_mt = index_mt;
	s->eq = eq;
	s->unused_chunk = NONE;
	for (unsigned c = 0; c < BGP_VSTORE_CLASSES; c++)
		s->with_room[c] = NONE;
}

/* Put id in the first empty slot or tombstone of hv's run. The caller knows that no object
 * equal to id's is stored (a lookup missed), so the first tombstone will do. */
static void index_place(struct bgp_vstore *s, uint32_t hv, uint32_t id)
{
	uint32_t mask = (1u << s->bits) - 1, i;

	for (i = hv & mask; s->slot[i] && s->slot[i] != SLOT_TOMB; i = (i + 1) & mask)
		;
	if (s->slot[i] == SLOT_TOMB)
		s->tombs--;
	s->slot[i] = SLOT_TAG(hv) << SLOT_ID_BITS | (id + 1);
}

/* Objects of a rebuild whose home slots load while the ones before them are placed. */
#define RESIZE_AHEAD 16

/* Rebuild the index with 2^bits slots from the live objects of the chunks (sequential reads;
 * the index keeps no full hash, so the chunks are the source). Unused places of a chunk are
 * zero (calloc), free ones have a zero refcount.
 * The reads are sequential, the writes are not: each object's home slot is anywhere in an
 * index larger than the caches at a full table (4 MiB for 660,000 sets), a miss per object,
 * and a growth in the middle of a feed places hundreds of thousands at once. So each object's
 * slot is loaded RESIZE_AHEAD objects before it is placed: the misses overlap. Linear probing
 * takes its members in any order, so placing them late changes no lookup. */
static void index_resize(struct bgp_vstore *s, unsigned bits)
{
	struct {
		uint32_t hash, id;
	} ahead[RESIZE_AHEAD];
	uint32_t mask = (1u << bits) - 1, n = 0;

	XFREE(s->index_mt, s->slot);
	s->bits = bits;
	s->tombs = 0;
	s->slot = XCALLOC(s->index_mt, sizeof(*s->slot) << bits);
	for (uint32_t c = 0; c < s->nchunk; c++) {
		size_t size = class_size(s->chunk[c].cls);

		for (uint32_t k = 0; s->chunk[c].mem && k < s->chunk[c].fresh; k++) {
			const struct vs_hdr *h = (const void *)(s->chunk[c].mem + k * size);
			unsigned a = n % RESIZE_AHEAD;

			if (!h->refcnt)
				continue;
			if (n >= RESIZE_AHEAD)
				index_place(s, ahead[a].hash, ahead[a].id);
			ahead[a].hash = h->hash;
			ahead[a].id = c << CHUNK_SHIFT | k;
			__builtin_prefetch(&s->slot[h->hash & mask], 1);
			n++;
		}
	}
	/* The last ones, oldest first. */
	for (uint32_t i = n > RESIZE_AHEAD ? n - RESIZE_AHEAD : 0; i < n; i++)
		index_place(s, ahead[i % RESIZE_AHEAD].hash, ahead[i % RESIZE_AHEAD].id);
}

void *bgp_vstore_lookup(const struct bgp_vstore *s, const void *key, uint32_t hv)
{
	uint32_t mask, i, tag = SLOT_TAG(hv);

	if (!s->bits)
		return NULL;
	mask = (1u << s->bits) - 1;
	for (i = hv & mask; s->slot[i]; i = (i + 1) & mask) {
		struct vs_hdr *h;

		if (SLOT_TAG(s->slot[i]) != tag || s->slot[i] == SLOT_TOMB)
			continue;
		h = obj_of_slot(s, s->slot[i]);
		if (h->hash == hv && h->refcnt != BGP_VSTORE_RELEASED && s->eq(h, key))
			return h;
	}
	return NULL;
}

/* The class's list of chunks that have room. */
static void room_push(struct bgp_vstore *s, uint32_t c)
{
	struct bgp_vstore_chunk *ch = &s->chunk[c];

	ch->prev = NONE;
	ch->next = s->with_room[ch->cls];
	if (ch->next != NONE)
		s->chunk[ch->next].prev = c;
	s->with_room[ch->cls] = c;
	ch->has_room = true;
}

static void room_remove(struct bgp_vstore *s, uint32_t c)
{
	struct bgp_vstore_chunk *ch = &s->chunk[c];

	if (ch->prev != NONE)
		s->chunk[ch->prev].next = ch->next;
	else
		s->with_room[ch->cls] = ch->next;
	if (ch->next != NONE)
		s->chunk[ch->next].prev = ch->prev;
	ch->has_room = false;
}

static uint32_t chunk_new(struct bgp_vstore *s, unsigned cls)
{
	uint32_t c = s->unused_chunk;

	if (c != NONE) {
		s->unused_chunk = s->chunk[c].next;
	} else {
		if (s->nchunk >= MAX_CHUNKS) {
			/* 64M interned objects of one store: gigabytes. Treated like an
			 * allocation failure (lib/memory.h). */
			log_err("out of ids for interned %s (%u in use); cannot continue",
				s->mt->name, s->live);
			abort();
		}
		if (s->nchunk == s->chunk_cap) {
			s->chunk_cap = s->chunk_cap ? 2 * s->chunk_cap : 16;
			s->chunk = XREALLOC(s->mt, s->chunk, s->chunk_cap * sizeof(*s->chunk));
		}
		c = s->nchunk++;
	}
	memset(&s->chunk[c], 0, sizeof(s->chunk[c]));
	/* Zeroed: the places not handed out yet read as free to a scan (refcount 0). */
	s->chunk[c].mem = XCALLOC(s->mt, class_size(cls) << CHUNK_SHIFT);
	s->chunk[c].cls = (uint8_t)cls;
	room_push(s, c);
	return c;
}

static void chunk_release(struct bgp_vstore *s, uint32_t c)
{
	struct bgp_vstore_chunk *ch = &s->chunk[c];

	room_remove(s, c);
	VS_UNPOISON(ch->mem, class_size(ch->cls) << CHUNK_SHIFT);
	XFREE(s->mt, ch->mem);
	ch->free = NULL;
	ch->next = s->unused_chunk;
	s->unused_chunk = c;
}

void *bgp_vstore_add(struct bgp_vstore *s, uint32_t hv, size_t size)
{
	uint32_t id;

	return bgp_vstore_add_id(s, hv, size, &id);
}

void *bgp_vstore_add_id(struct bgp_vstore *s, uint32_t hv, size_t size, uint32_t *id)
{
	unsigned cls = size <= 16 ? 0 : (unsigned)((size - 16 + 7) / 8);
	struct bgp_vstore_chunk *ch;
	struct vs_free *f;
	uint32_t c, k;
	void *obj;

	if (cls >= BGP_VSTORE_CLASSES) {
		log_err("BUG: %zu-byte object for the interned %s (at most %d); please report",
			size, s->mt->name, BGP_VSTORE_MAX_SIZE);
		abort();
	}
	/* At 3/4 of the slots used (tombstones count: probes walk over them), rebuild: larger
	 * if the live objects would fill more than 3/8 (so that the next rebuild is as far off
	 * as the last growth's), else at the same size, which only clears the tombstones. */
	if (!s->bits)
		index_resize(s, INDEX_MIN_BITS);
	else if (((size_t)s->live + s->tombs + 1) * 4 > ((size_t)3 << s->bits))
		index_resize(s, ((size_t)s->live + 1) * 8 > ((size_t)3 << s->bits) ? s->bits + 1
										   : s->bits);
	c = s->with_room[cls];
	if (c == NONE)
		c = chunk_new(s, cls);
	ch = &s->chunk[c];
	if (ch->free) {
		f = ch->free;
		VS_UNPOISON(f, class_size(cls));
		ch->free = f->next;
		k = f->place;
		obj = f;
	} else {
		k = ch->fresh++;
		obj = ch->mem + (size_t)k * class_size(cls);
	}
	if (++ch->live == CHUNK_OBJS)
		room_remove(s, c);
	*id = c << CHUNK_SHIFT | k;
	index_place(s, hv, *id);
	s->live++;
	return obj;
}

void bgp_vstore_del(struct bgp_vstore *s, void *obj)
{
	struct vs_hdr *h = obj;
	uint32_t mask = (1u << s->bits) - 1, i, id, tag = SLOT_TAG(h->hash);
	struct bgp_vstore_chunk *ch;
	struct vs_free *f = obj;
	uint32_t c;

	if (!s->bits)
		return;
	/* The tag first: the slot's object is then only located (not read) for 1 in 64 of the
	 * other members of the run. */
	for (i = h->hash & mask; s->slot[i]; i = (i + 1) & mask)
		if (SLOT_TAG(s->slot[i]) == tag && s->slot[i] != SLOT_TOMB &&
		    obj_of_slot(s, s->slot[i]) == h)
			break;
	if (!s->slot[i]) {
		log_err("BUG: interned %s not found in its index; please report", s->mt->name);
		return;
	}
	id = (s->slot[i] & SLOT_ID_MASK) - 1;
	if (s->slot[(i + 1) & mask]) {
		s->slot[i] = SLOT_TOMB;
		s->tombs++;
	} else {
		/* The end of a run: no probe needs this slot to go on, nor the tombstones just
		 * before it, which would only lengthen probes that end here anyway. */
		s->slot[i] = 0;
		for (i = (i - 1) & mask; s->slot[i] == SLOT_TOMB; i = (i - 1) & mask) {
			s->slot[i] = 0;
			s->tombs--;
		}
	}
	s->live--;
	c = id >> CHUNK_SHIFT;
	ch = &s->chunk[c];
	f->refcnt = 0;
	f->place = id & (CHUNK_OBJS - 1);
	f->next = ch->free;
	ch->free = f;
	/* A use after free is then an error under ASan; the header stays readable for the
	 * chunk scan and the free list. */
	VS_POISON((uint8_t *)obj + sizeof(*f), class_size(ch->cls) - sizeof(*f));
	if (!ch->has_room)
		room_push(s, c);
	if (--ch->live == 0 && (s->with_room[ch->cls] != c || ch->next != NONE))
		chunk_release(s, c);
	/* Shrink at 1/8 load, so that the index of a table that went away is given back. */
	if (s->bits > INDEX_MIN_BITS && (size_t)s->live * 8 < ((size_t)1 << s->bits))
		index_resize(s, s->bits - 1);
}

void bgp_vstore_fini(struct bgp_vstore *s)
{
	XFREE(s->index_mt, s->slot);
	s->bits = 0;
	if (s->live)
		return;
	for (uint32_t c = 0; c < s->nchunk; c++) {
		if (!s->chunk[c].mem)
			continue;
		VS_UNPOISON(s->chunk[c].mem, class_size(s->chunk[c].cls) << CHUNK_SHIFT);
		XFREE(s->mt, s->chunk[c].mem);
	}
	XFREE(s->mt, s->chunk);
	bgp_vstore_init(s, s->mt, s->index_mt, s->eq);
}

void bgp_vstore_trim(struct bgp_vstore *s)
{
	/* Empty: the chunk table (a descriptor per chunk number ever used, 64 KiB after a full
	 * table) goes too; numbering starts again, as it would reuse freed numbers anyway. */
	if (s->live == 0) {
		bgp_vstore_fini(s);
		return;
	}
	for (uint32_t c = 0; c < s->nchunk; c++)
		if (s->chunk[c].mem && s->chunk[c].live == 0)
			chunk_release(s, c);
}

size_t bgp_vstore_memory(const struct bgp_vstore *s)
{
	size_t bytes =
		(s->bits ? sizeof(*s->slot) << s->bits : 0) + s->chunk_cap * sizeof(*s->chunk);

	for (uint32_t c = 0; c < s->nchunk; c++)
		if (s->chunk[c].mem)
			bytes += class_size(s->chunk[c].cls) << CHUNK_SHIFT;
	return bytes;
}
