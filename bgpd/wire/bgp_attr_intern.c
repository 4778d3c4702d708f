/* SPDX-License-Identifier: ISC */
/*
 * Interning of attribute sets, of their extra blocks and of unknown transitive attributes: one
 * refcounted copy per distinct value, found by a hash of the value.
 *
 * Memory is what this file is about. A full table learned from one peer (about 1M prefixes)
 * has about 330k distinct attribute sets (3 prefixes per set), so every byte of a set costs a
 * third of a byte per prefix; at one set per prefix (a table where every route differs, as
 * after per-prefix policy) a set costs as much as the RIB's own per-prefix objects. Hence:
 *   - sets and extras come from slabs (struct bgp_ipool): no malloc header, no rounding;
 *   - the rarely present attributes live in a separately interned extra block, so the set
 *     itself is small (see bgp_attr.h);
 *   - the index is an open-addressing table of 32-bit slots, each a slab id (26 bits) and 6
 *     more bits of the hash: 4 bytes per slot instead of a pointer and a cached hash (12).
 *     The tag makes a probe skip 63 in 64 non-matching slots without touching the set; the
 *     full hash is in the set itself, for the rare probe that does.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "lib/hash.h"
#include "lib/log.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POOL_POISON(p, n) ((void)(p), (void)(n))
#define POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

DEFINE_MTYPE(BGP_ATTR, "BGP attribute set");
DEFINE_MTYPE(BGP_ATTR_EXTRA, "BGP attribute extras");
DEFINE_MTYPE(BGP_ATTR_INDEX, "BGP attribute index");
DEFINE_MTYPE(BGP_TRANSIT, "BGP unknown transitive attributes");

const struct bgp_attr_extra bgp_attr_extra_none;

/* ======================================================================================
 * Slabs with ids
 * ====================================================================================== */

/* How a free object is laid out (objects are at least 16 bytes). The zero refcount lets a
 * scan of the slab tell free objects from live interned ones, which all start with theirs. */
struct ipool_free {
	uint32_t refcnt; /* 0 */
	uint32_t id;
	void *next;
};

void bgp_ipool_init(struct bgp_ipool *p, struct mtype *mt, size_t size, size_t chunk_bytes)
{
	uint32_t shift = 0;

	memset(p, 0, sizeof(*p));
	p->mt = mt;
	size = (MAX(size, sizeof(struct ipool_free)) + 7) & ~(size_t)7;
	p->size = (uint32_t)size;
	/* A power of two objects per chunk (ids map to chunks with a shift), as many as fit. */
	while ((size << (shift + 1)) <= chunk_bytes)
		shift++;
	p->shift = shift;
}

void bgp_ipool_fini(struct bgp_ipool *p)
{
	for (uint32_t i = 0; i < p->nchunk; i++)
		XFREE(p->mt, p->chunk[i]);
	XFREE(p->mt, p->chunk);
	p->nchunk = p->chunk_cap = p->used = p->live = 0;
	p->free_list = NULL;
}

void *bgp_ipool_alloc(struct bgp_ipool *p, uint32_t *id)
{
	struct ipool_free *f;
	uint8_t *obj;

	if (p->free_list) {
		f = p->free_list;
		POOL_UNPOISON(f, p->size);
		p->free_list = f->next;
		*id = f->id;
		obj = (uint8_t *)f;
	} else {
		if (p->used >= BGP_IPOOL_MAX_IDS) {
			/* 64M interned objects of one kind: gigabytes of attributes. Treated like
			 * an allocation failure (lib/memory.h). */
			log_err("out of ids for interned %s (%u in use); cannot continue",
				p->mt->name, p->live);
			abort();
		}
		if ((p->used >> p->shift) == p->nchunk) {
			if (p->nchunk == p->chunk_cap) {
				p->chunk_cap = p->chunk_cap ? 2 * p->chunk_cap : 16;
				p->chunk =
					XREALLOC(p->mt, p->chunk, p->chunk_cap * sizeof(*p->chunk));
			}
			p->chunk[p->nchunk++] = XMALLOC(p->mt, (size_t)p->size << p->shift);
		}
		*id = p->used++;
		obj = bgp_ipool_ptr(p, *id);
	}
	p->live++;
	return obj;
}

/* The last object gone (a withdrawn table's sets and paths): every chunk goes back to malloc
 * and ids start again from 0, so a table that went leaves nothing behind (issue 15; the AS
 * path pools are one per length class, thirty of them). Nothing holds an id of a free object
 * (the index has none). */
static void ipool_release_empty(struct bgp_ipool *p)
{
	while (p->nchunk > 0) {
		p->nchunk--;
		XFREE(p->mt, p->chunk[p->nchunk]);
	}
	p->used = 0;
	p->free_list = NULL;
}

void bgp_ipool_free(struct bgp_ipool *p, void *obj, uint32_t id)
{
	struct ipool_free *f = obj;

	f->refcnt = 0;
	f->id = id;
	f->next = p->free_list;
	p->free_list = f;
	p->live--;
	/* A use after free of an interned object is then an error under ASan; the header
	 * stays readable for the slab scan and the free list. */
	POOL_POISON((uint8_t *)obj + sizeof(*f), p->size - sizeof(*f));
	if (p->live == 0)
		ipool_release_empty(p);
}

size_t bgp_ipool_memory(const struct bgp_ipool *p)
{
	return (size_t)p->nchunk * ((size_t)p->size << p->shift) + p->chunk_cap * sizeof(*p->chunk);
}

/* ======================================================================================
 * Interning stores: a slab and a compact index over it
 * ====================================================================================== */

/* What every interned object stored here starts with. */
struct ihdr {
	uint32_t refcnt;
	uint32_t hash;
};

_Static_assert(offsetof(struct bgp_attr, refcnt) == offsetof(struct ihdr, refcnt) &&
		       offsetof(struct bgp_attr, hash) == offsetof(struct ihdr, hash) &&
		       offsetof(struct bgp_attr_extra, refcnt) == offsetof(struct ihdr, refcnt) &&
		       offsetof(struct bgp_attr_extra, hash) == offsetof(struct ihdr, hash),
	       "interned objects start with refcnt, hash");

#define SLOT_ID_BITS 26
#define SLOT_ID_MASK ((UINT32_C(1) << SLOT_ID_BITS) - 1)
#define SLOT_TAG(hv) ((hv) >> SLOT_ID_BITS)
#define STORE_MIN_BITS 6

struct istore {
	struct bgp_ipool pool;
	bool (*eq)(const void *stored, const void *key);
	uint32_t *slot; /* 0 = empty, else tag << SLOT_ID_BITS | (id + 1) */
	unsigned bits;	/* 0 before the first insert */
};

static inline uint32_t store_slot_val(uint32_t hv, uint32_t id)
{
	return SLOT_TAG(hv) << SLOT_ID_BITS | (id + 1);
}

static inline struct ihdr *store_obj(const struct istore *s, uint32_t slotval)
{
	return bgp_ipool_ptr(&s->pool, (slotval & SLOT_ID_MASK) - 1);
}

static void store_place(struct istore *s, uint32_t hv, uint32_t id)
{
	uint32_t mask = (1u << s->bits) - 1, i;

	for (i = hv & mask; s->slot[i]; i = (i + 1) & mask)
		;
	s->slot[i] = store_slot_val(hv, id);
}

/* Rebuild the index with 2^bits slots from the live objects of the slab (sequential reads,
 * and no hash kept in the index, so a scan of the slab is the cheapest source). */
static void store_resize(struct istore *s, unsigned bits)
{
	XFREE(MTYPE_BGP_ATTR_INDEX, s->slot);
	s->bits = bits;
	s->slot = XCALLOC(MTYPE_BGP_ATTR_INDEX, sizeof(*s->slot) << bits);
	for (uint32_t id = 0; id < s->pool.used; id++) {
		const struct ihdr *h = bgp_ipool_ptr(&s->pool, id);

		if (h->refcnt)
			store_place(s, h->hash, id);
	}
}

static void *store_lookup(const struct istore *s, const void *key, uint32_t hv)
{
	uint32_t mask, i, tag = SLOT_TAG(hv);

	if (!s->bits)
		return NULL;
	mask = (1u << s->bits) - 1;
	for (i = hv & mask; s->slot[i]; i = (i + 1) & mask) {
		struct ihdr *h;

		if (SLOT_TAG(s->slot[i]) != tag)
			continue;
		h = store_obj(s, s->slot[i]);
		if (h->hash == hv && s->eq(h, key))
			return h;
	}
	return NULL;
}

/* A new object for hash hv, indexed; the caller fills it (hash and a non-zero refcount
 * before anything else touches the store). */
static void *store_add(struct istore *s, uint32_t hv)
{
	uint32_t id;
	void *obj;

	/* Grow at 3/4 load: linear probing stays short below that. */
	if (!s->bits)
		store_resize(s, STORE_MIN_BITS);
	else if (((size_t)s->pool.live + 1) * 4 > ((size_t)3 << s->bits))
		store_resize(s, s->bits + 1);
	obj = bgp_ipool_alloc(&s->pool, &id);
	store_place(s, hv, id);
	return obj;
}

/* Remove obj (refcount already zero) from the index and give it back to the slab. */
static void store_del(struct istore *s, struct ihdr *obj)
{
	uint32_t mask = (1u << s->bits) - 1, i, j, home, id;

	for (i = obj->hash & mask; s->slot[i]; i = (i + 1) & mask)
		if (store_obj(s, s->slot[i]) == obj)
			break;
	if (!s->slot[i]) {
		log_err("BUG: interned %s not found in its index; please report", s->pool.mt->name);
		return;
	}
	id = (s->slot[i] & SLOT_ID_MASK) - 1;
	/* Backward shift (no tombstones): pull later members of the run into the hole unless
	 * their home slot lies cyclically in (hole, j]. */
	for (j = (i + 1) & mask; s->slot[j]; j = (j + 1) & mask) {
		home = store_obj(s, s->slot[j])->hash & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			s->slot[i] = s->slot[j];
			i = j;
		}
	}
	s->slot[i] = 0;
	bgp_ipool_free(&s->pool, obj, id);
	/* Shrink at 1/8 load, so that the index of a table that went away is given back. */
	if (s->bits > STORE_MIN_BITS && (size_t)s->pool.live * 8 < ((size_t)1 << s->bits))
		store_resize(s, s->bits - 1);
}

static void store_fini(struct istore *s)
{
	XFREE(MTYPE_BGP_ATTR_INDEX, s->slot);
	s->bits = 0;
	/* Leaked objects (warned about by the caller) keep their memory: freeing the chunks
	 * would turn a leak into a use after free. */
	if (!s->pool.live)
		bgp_ipool_fini(&s->pool);
}

static size_t store_memory(const struct istore *s)
{
	return bgp_ipool_memory(&s->pool) + (s->bits ? sizeof(*s->slot) << s->bits : 0);
}

/* ======================================================================================
 * Unknown transitive attributes (rare: a generic hash table is fine)
 * ====================================================================================== */

/* Transit lookup key: header then the attributes as re-encoded. */
static _Alignas(struct bgp_transit) uint8_t
	transit_key_buf[sizeof(struct bgp_transit) + BGP_TRANSIT_MAX];

static struct bgp_transit *transit_key(void)
{
	return (struct bgp_transit *)transit_key_buf;
}

uint8_t *bgp_transit_key_data(void)
{
	return transit_key()->data;
}

static struct hash *transit_hash;

static uint32_t transit_hash_key(const void *item)
{
	return ((const struct bgp_transit *)item)->hash;
}

static bool transit_eq(const void *a, const void *b)
{
	const struct bgp_transit *ta = a, *tb = b;

	return ta->len == tb->len && memcmp(ta->data, tb->data, ta->len) == 0;
}

struct bgp_transit *bgp_transit_intern(size_t len)
{
	struct bgp_transit *key = transit_key(), *t;

	if (!transit_hash)
		transit_hash = hash_new(transit_hash_key, transit_eq, "BGP unknown attributes");
	key->len = (uint32_t)len;
	key->hash = hash_bytes(key->data, len, 0x7472616eu);
	t = hash_lookup(transit_hash, key);
	if (t) {
		t->refcnt++;
		return t;
	}
	t = XMALLOC(MTYPE_BGP_TRANSIT, sizeof(*t) + len);
	t->refcnt = 1;
	t->hash = key->hash;
	t->len = (uint32_t)len;
	memcpy(t->data, key->data, len);
	hash_insert(transit_hash, t);
	return t;
}

static struct bgp_transit *transit_ref(struct bgp_transit *t)
{
	if (t)
		t->refcnt++;
	return t;
}

void bgp_transit_unref(struct bgp_transit *t)
{
	if (!t)
		return;
	if (t->refcnt == 0) {
		log_err("BUG: transit attribute reference count underflow; please report");
		return;
	}
	if (--t->refcnt)
		return;
	hash_remove(transit_hash, t);
	XFREE(MTYPE_BGP_TRANSIT, t);
}

/* ======================================================================================
 * Extras
 * ====================================================================================== */

static struct istore extra_store;

static bool extra_eq(const void *pa, const void *pb)
{
	const struct bgp_attr_extra *a = pa, *b = pb;

	/* Sub-objects are interned, so pointer equality is value equality. */
	return a->aggregator_as == b->aggregator_as &&
	       a->aggregator_addr.s_addr == b->aggregator_addr.s_addr &&
	       a->originator_id.s_addr == b->originator_id.s_addr &&
	       a->cluster_list == b->cluster_list && a->lcommunities == b->lcommunities &&
	       a->ecommunities == b->ecommunities && a->transit == b->transit &&
	       memcmp(&a->mp_nh_global, &b->mp_nh_global, 16) == 0 &&
	       memcmp(&a->mp_nh_local, &b->mp_nh_local, 16) == 0 && a->tag == b->tag;
}

static uint32_t extra_hash(const struct bgp_attr_extra *e)
{
	struct {
		uintptr_t cluster_list, lcommunities, ecommunities, transit;
		uint32_t aggregator_as, aggregator_addr, originator_id, tag;
		struct in6_addr mp_nh_global, mp_nh_local;
	} k;

	memset(&k, 0, sizeof(k));
	k.cluster_list = (uintptr_t)e->cluster_list;
	k.lcommunities = (uintptr_t)e->lcommunities;
	k.ecommunities = (uintptr_t)e->ecommunities;
	k.transit = (uintptr_t)e->transit;
	k.aggregator_as = e->aggregator_as;
	k.aggregator_addr = e->aggregator_addr.s_addr;
	k.originator_id = e->originator_id.s_addr;
	k.tag = e->tag;
	k.mp_nh_global = e->mp_nh_global;
	k.mp_nh_local = e->mp_nh_local;
	return hash_bytes(&k, sizeof(k), 0x65787472u);
}

/* The interned copy of t (a reference taken), NULL when t carries nothing. */
const struct bgp_attr_extra *bgp_attr_extra_intern(const struct bgp_attr_extra *t)
{
	struct bgp_attr_extra *e;
	uint32_t hv;

	if (!t || extra_eq(t, &bgp_attr_extra_none))
		return NULL;
	bgp_attr_init();
	hv = extra_hash(t);
	e = store_lookup(&extra_store, t, hv);
	if (e) {
		e->refcnt++;
		return e;
	}
	e = store_add(&extra_store, hv);
	*e = *t;
	e->refcnt = 1;
	e->hash = hv;
	bgp_u32list_ref(e->cluster_list);
	if (e->lcommunities)
		e->lcommunities->refcnt++;
	bgp_ecommlist_ref(e->ecommunities);
	transit_ref(e->transit);
	return e;
}

/*
 * Drop a reference to an interned extra block. Sets hold theirs through a const pointer (so
 * that nothing else writes to a shared block); this module is the owner and may.
 */
void bgp_attr_extra_unref(const struct bgp_attr_extra *ce)
{
	struct bgp_attr_extra *e = (struct bgp_attr_extra *)(uintptr_t)ce, old;

	if (!e)
		return;
	if (e->refcnt == 0) {
		log_err("BUG: attribute extras reference count underflow; please report");
		return;
	}
	if (--e->refcnt)
		return;
	old = *e; /* the slab takes the memory back */
	store_del(&extra_store, (struct ihdr *)e);
	bgp_u32list_unref(old.cluster_list);
	bgp_lcommlist_unref(old.lcommunities);
	bgp_ecommlist_unref(old.ecommunities);
	bgp_transit_unref(old.transit);
}

size_t bgp_attr_extra_count(void)
{
	return extra_store.pool.live;
}

/* ======================================================================================
 * Attribute sets
 * ====================================================================================== */

static struct istore attr_store;

/* The fields that make two sets equal, packed without padding holes for hashing. */
struct attr_key {
	uint64_t present;
	uintptr_t aspath, communities, extra;
	uint32_t nexthop, med, local_pref, weight;
	uint8_t origin, mp_nh_len, atomic_aggregate, pad[5];
};

static uint32_t attr_compute_hash(const struct bgp_attr *a)
{
	struct attr_key k;

	memset(&k, 0, sizeof(k));
	k.present = a->present;
	k.aspath = (uintptr_t)a->aspath;
	k.communities = (uintptr_t)a->communities;
	k.extra = (uintptr_t)a->extra;
	k.nexthop = a->nexthop.s_addr;
	k.med = a->med;
	k.local_pref = a->local_pref;
	k.weight = a->weight;
	k.origin = a->origin;
	k.mp_nh_len = a->mp_nh_len;
	k.atomic_aggregate = a->atomic_aggregate;
	return hash_bytes(&k, sizeof(k), 0x61747472u);
}

static bool attr_eq(const void *pa, const void *pb)
{
	const struct bgp_attr *a = pa, *b = pb;

	/* Sub-objects (extras included) are interned, so pointer equality is value equality. */
	return a->present == b->present && a->aspath == b->aspath &&
	       a->communities == b->communities && a->extra == b->extra &&
	       a->nexthop.s_addr == b->nexthop.s_addr && a->med == b->med &&
	       a->local_pref == b->local_pref && a->weight == b->weight && a->origin == b->origin &&
	       a->mp_nh_len == b->mp_nh_len && a->atomic_aggregate == b->atomic_aggregate;
}

/* Chunks of about 64 KiB for sets and 16 KiB for extras (a few hundred in a full table). */
#define ATTR_CHUNK_BYTES (64 * 1024)
#define EXTRA_CHUNK_BYTES (16 * 1024)

void bgp_attr_init(void)
{
	if (!attr_store.eq) {
		bgp_ipool_init(&attr_store.pool, MTYPE_BGP_ATTR, sizeof(struct bgp_attr),
			       ATTR_CHUNK_BYTES);
		attr_store.eq = attr_eq;
	}
	if (!extra_store.eq) {
		bgp_ipool_init(&extra_store.pool, MTYPE_BGP_ATTR_EXTRA,
			       sizeof(struct bgp_attr_extra), EXTRA_CHUNK_BYTES);
		extra_store.eq = extra_eq;
	}
	if (!transit_hash)
		transit_hash = hash_new(transit_hash_key, transit_eq, "BGP unknown attributes");
}

void bgp_attr_finish(void)
{
	if (attr_store.pool.live)
		log_warn("BGP attribute sets: %u still referenced at exit (a leak)",
			 attr_store.pool.live);
	if (extra_store.pool.live)
		log_warn("BGP attribute extras: %u still referenced at exit (a leak)",
			 extra_store.pool.live);
	if (transit_hash && hash_count(transit_hash))
		log_warn("BGP unknown attributes: %zu still referenced at exit (a leak)",
			 hash_count(transit_hash));
	store_fini(&attr_store);
	store_fini(&extra_store);
	/* Initialised again on next use (with the leaked objects' slabs left alone). */
	if (!attr_store.pool.live)
		attr_store.eq = NULL;
	if (!extra_store.pool.live)
		extra_store.eq = NULL;
	hash_free(transit_hash);
	transit_hash = NULL;
	bgp_aspath_finish();
	bgp_community_finish();
}

struct bgp_attr *bgp_attr_intern(const struct bgp_attr *tmpl)
{
	struct bgp_attr key = *tmpl, *a;
	struct bgp_aspath *empty = NULL;

	bgp_attr_init();
	if (!key.aspath)
		key.aspath = empty = bgp_aspath_empty();
	/* The extra block first: sets compare their extras by pointer. */
	key.extra = bgp_attr_extra_intern(tmpl->extra);
	key.hash = attr_compute_hash(&key);
	a = store_lookup(&attr_store, &key, key.hash);
	if (a) {
		a->refcnt++;
		bgp_attr_extra_unref(key.extra);
		bgp_aspath_unref(empty);
		return a;
	}
	a = store_add(&attr_store, key.hash);
	*a = key;
	a->refcnt = 1;
	/* The interned copy holds its own references (the empty path's and the extra block's
	 * are already taken). */
	if (!empty)
		bgp_aspath_ref(a->aspath);
	bgp_u32list_ref(a->communities);
	return a;
}

struct bgp_attr *bgp_attr_ref(struct bgp_attr *attr)
{
	if (attr)
		attr->refcnt++;
	return attr;
}

void bgp_attr_unref(struct bgp_attr *attr)
{
	struct bgp_aspath *aspath;
	struct bgp_u32list *communities;
	const struct bgp_attr_extra *extra;

	if (!attr)
		return;
	if (attr->refcnt == 0) {
		log_err("BUG: attribute set reference count underflow; please report");
		return;
	}
	if (--attr->refcnt)
		return;
	/* Read what it references before the slab takes the memory back. */
	aspath = attr->aspath;
	communities = attr->communities;
	extra = attr->extra;
	store_del(&attr_store, (struct ihdr *)attr);
	bgp_aspath_unref(aspath);
	bgp_u32list_unref(communities);
	bgp_attr_extra_unref(extra);
}

void bgp_attr_set_mp_nh(struct bgp_attr *t, struct bgp_attr_extra *ex, uint8_t len,
			const struct in6_addr *global, const struct in6_addr *local)
{
	static const struct in6_addr none;
	struct in6_addr g = global ? *global : none, l = local ? *local : none;

	t->mp_nh_len = len;
	if (!t->extra && !global && !local)
		return; /* nothing to store (an IPv4 set) */
	/* g and l were read first: they may point into the block being replaced. */
	if (t->extra != ex) {
		*ex = *bgp_attr_ex(t);
		t->extra = ex;
	}
	ex->mp_nh_global = g;
	ex->mp_nh_local = l;
}

size_t bgp_attr_count(void)
{
	return attr_store.pool.live;
}

size_t bgp_attr_memory(void)
{
	return store_memory(&attr_store) + store_memory(&extra_store);
}

size_t bgp_attr_aspath_count(void)
{
	return bgp_aspath_count();
}

size_t bgp_attr_list_count(void)
{
	return bgp_u32list_count() + bgp_lcommlist_count() + bgp_ecommlist_count() +
	       (transit_hash ? hash_count(transit_hash) : 0);
}
