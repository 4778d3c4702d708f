/* SPDX-License-Identifier: ISC */
/*
 * Interning of attribute sets, of their extra blocks and of unknown transitive attributes: one
 * refcounted copy per distinct value, found by a hash of the value.
 *
 * Memory is what this file is about. A full table learned from one peer (about 1M prefixes)
 * has about 330k distinct attribute sets (3 prefixes per set), so every byte of a set costs a
 * third of a byte per prefix; at one set per prefix (a table where every route differs, as
 * after per-prefix policy) a set costs as much as the RIB's own per-prefix objects. Hence:
 *   - sets and extras live in interning stores (bgp_vstore.c): slabs without malloc header
 *     or rounding, under an index of 4-byte slots (a slab id and 6 bits of hash tag, against
 *     12 bytes for lib/hash.c), and slabs emptied by a withdrawal go back to malloc;
 *   - the rarely present attributes live in a separately interned extra block, so the set
 *     itself is small (see bgp_attr.h).
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_vstore.h"
#include "lib/hash.h"
#include "lib/log.h"

DEFINE_MTYPE(BGP_ATTR, "BGP attribute set");
DEFINE_MTYPE(BGP_ATTR_EXTRA, "BGP attribute extras");
DEFINE_MTYPE(BGP_ATTR_INDEX, "BGP attribute index");
DEFINE_MTYPE(BGP_TRANSIT, "BGP unknown transitive attributes");

const struct bgp_attr_extra bgp_attr_extra_none;

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

static struct bgp_vstore extra_store;
/* The block interned last, while it lives: an IPv6 feed's UPDATEs carry the feeder's next
 * hop and nothing else of the extras, so each would hash the same 96 bytes (a siphash of
 * about 460 instructions) and probe the store to find this block again. */
static struct bgp_attr_extra *extra_last;

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
	       memcmp(&a->mp_nh_local, &b->mp_nh_local, 16) == 0 && a->tag == b->tag &&
	       a->weight == b->weight;
}

static uint32_t extra_hash(const struct bgp_attr_extra *e)
{
	struct {
		uintptr_t cluster_list, lcommunities, ecommunities, transit;
		uint32_t aggregator_as, aggregator_addr, originator_id, tag, weight;
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
	k.weight = e->weight;
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
	if (extra_last && extra_eq(t, extra_last)) {
		extra_last->refcnt++;
		return extra_last;
	}
	bgp_attr_init();
	hv = extra_hash(t);
	e = bgp_vstore_lookup(&extra_store, t, hv);
	if (e) {
		e->refcnt++;
		extra_last = e;
		return e;
	}
	e = bgp_vstore_add(&extra_store, hv, sizeof(*e));
	extra_last = e;
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
	if (e == extra_last)
		extra_last = NULL;
	old = *e; /* the slab takes the memory back */
	bgp_vstore_del(&extra_store, e);
	bgp_u32list_unref(old.cluster_list);
	bgp_lcommlist_unref(old.lcommunities);
	bgp_ecommlist_unref(old.ecommunities);
	bgp_transit_unref(old.transit);
}

size_t bgp_attr_extra_count(void)
{
	bgp_attr_release_pending();
	return extra_store.live;
}

/* ======================================================================================
 * Attribute sets
 * ====================================================================================== */

struct bgp_vstore bgp_attr_store;

/*
 * Deferred release. A table going away releases sets back to back, and each release waits
 * on two cache misses, the set's index slot and its AS path (whose refcount drops), then on
 * the path's own slot when it goes too. So bgp_attr_unref() only starts loading those and
 * queues the set; the set is deleted, and its references dropped, RELEASE_AHEAD releases
 * later, when they have arrived: the misses of several sets overlap instead of following one
 * another. A queued set's refcount is BGP_VSTORE_RELEASED, so lookups pass over it.
 */
#define RELEASE_AHEAD BGP_ATTR_RELEASE_AHEAD
static struct bgp_attr *release_queue[RELEASE_AHEAD];
static unsigned release_next;	 /* where the next set goes: the oldest when full */
static unsigned release_waiting; /* sets queued */

static void attr_release(struct bgp_attr *attr)
{
	/* Read what it references before the slab takes the memory back. */
	struct bgp_aspath *aspath = attr->aspath;
	struct bgp_u32list *communities = attr->communities;
	const struct bgp_attr_extra *extra = attr->extra;

	attr->refcnt = 0;
	bgp_vstore_del(&bgp_attr_store, attr);
	bgp_aspath_unref(aspath);
	bgp_u32list_unref(communities);
	bgp_attr_extra_unref(extra);
}

void bgp_attr_release_pending(void)
{
	while (release_waiting) {
		unsigned oldest = (release_next + RELEASE_AHEAD - release_waiting) % RELEASE_AHEAD;

		release_waiting--;
		attr_release(release_queue[oldest]);
	}
}

/*
 * The fields that make two sets equal, packed without padding holes for hashing. The AS path
 * and the community list go in by their own hashes, not their addresses: so the input's peek
 * can compute a set's hash from the wire before either is interned
 * (bgp_attr_plain_hash()), and load the set's index slot ahead of the decode. Sets still
 * compare them by pointer (attr_eq()); two objects of one hash only share a probe run.
 */
struct attr_key {
	uint64_t present;
	uintptr_t extra;
	uint32_t aspath, communities;
	uint32_t nexthop, med, local_pref;
	uint8_t origin, mp_nh_len, atomic_aggregate, pad[1];
};

static uint32_t attr_key_hash(const struct bgp_attr *a, uint32_t aspath_hash, uint32_t comm_hash)
{
	struct attr_key k;

	memset(&k, 0, sizeof(k));
	k.present = a->present;
	k.aspath = aspath_hash;
	k.communities = comm_hash;
	k.extra = (uintptr_t)a->extra;
	k.nexthop = a->nexthop.s_addr;
	k.med = a->med;
	k.local_pref = a->local_pref;
	k.origin = a->origin;
	k.mp_nh_len = a->mp_nh_len;
	k.atomic_aggregate = a->atomic_aggregate;
	return hash_bytes(&k, sizeof(k), 0x61747472u);
}

/* a's aspath is set (bgp_attr_intern() puts the empty path in), its extra interned. */
static uint32_t attr_compute_hash(const struct bgp_attr *a)
{
	return attr_key_hash(a, a->aspath->hash, a->communities ? a->communities->hash : 0);
}

uint32_t bgp_attr_plain_hash(const struct bgp_attr *t, uint32_t aspath_hash, uint32_t comm_hash)
{
	struct bgp_attr plain = *t;

	plain.extra = NULL;
	return attr_key_hash(&plain, aspath_hash, comm_hash);
}

void bgp_attr_prefetch_hash(uint32_t hv)
{
	bgp_vstore_prefetch(&bgp_attr_store, hv);
}

static bool attr_eq(const void *pa, const void *pb)
{
	const struct bgp_attr *a = pa, *b = pb;

	/* Sub-objects (extras included) are interned, so pointer equality is value equality. */
	return a->present == b->present && a->aspath == b->aspath &&
	       a->communities == b->communities && a->extra == b->extra &&
	       a->nexthop.s_addr == b->nexthop.s_addr && a->med == b->med &&
	       a->local_pref == b->local_pref && a->origin == b->origin &&
	       a->mp_nh_len == b->mp_nh_len && a->atomic_aggregate == b->atomic_aggregate;
}

/* What every interned object stored here starts with (bgp_vstore.h). */
_Static_assert(offsetof(struct bgp_attr, refcnt) == 0 && offsetof(struct bgp_attr, hash) == 4 &&
		       offsetof(struct bgp_attr_extra, refcnt) == 0 &&
		       offsetof(struct bgp_attr_extra, hash) == 4,
	       "interned objects start with refcnt, hash");
_Static_assert(sizeof(struct bgp_attr) <= BGP_VSTORE_MAX_SIZE &&
		       sizeof(struct bgp_attr_extra) <= BGP_VSTORE_MAX_SIZE,
	       "sets and extras fit the store's size classes");

void bgp_attr_init(void)
{
	if (!bgp_attr_store.mt)
		bgp_vstore_init(&bgp_attr_store, MTYPE_BGP_ATTR, MTYPE_BGP_ATTR_INDEX, attr_eq);
	if (!extra_store.mt)
		bgp_vstore_init(&extra_store, MTYPE_BGP_ATTR_EXTRA, MTYPE_BGP_ATTR_INDEX, extra_eq);
	if (!transit_hash)
		transit_hash = hash_new(transit_hash_key, transit_eq, "BGP unknown attributes");
}

void bgp_attr_finish(void)
{
	bgp_attr_release_pending();
	if (bgp_attr_store.live)
		log_warn("BGP attribute sets: %u still referenced at exit (a leak)",
			 bgp_attr_store.live);
	if (extra_store.live)
		log_warn("BGP attribute extras: %u still referenced at exit (a leak)",
			 extra_store.live);
	if (transit_hash && hash_count(transit_hash))
		log_warn("BGP unknown attributes: %zu still referenced at exit (a leak)",
			 hash_count(transit_hash));
	/* Leaked objects keep their slabs (a leak stays a leak, not a use after free); a store
	 * with none is initialised again on next use. */
	bgp_vstore_fini(&bgp_attr_store);
	bgp_vstore_fini(&extra_store);
	extra_last = NULL;
	hash_free(transit_hash);
	transit_hash = NULL;
	bgp_aspath_finish();
	bgp_community_finish();
}

struct bgp_attr *bgp_attr_intern(const struct bgp_attr *tmpl)
{
	struct bgp_attr key = *tmpl, *a;
	struct bgp_aspath *empty = NULL;
	uint32_t id;

	bgp_attr_init();
	if (!key.aspath)
		key.aspath = empty = bgp_aspath_empty();
	/* The extra block first: sets compare their extras by pointer. */
	key.extra = bgp_attr_extra_intern(tmpl->extra);
	key.hash = attr_compute_hash(&key);
	a = bgp_vstore_lookup(&bgp_attr_store, &key, key.hash);
	if (a) {
		a->refcnt++;
		bgp_attr_extra_unref(key.extra);
		bgp_aspath_unref(empty);
		return a;
	}
	a = bgp_vstore_add_id(&bgp_attr_store, key.hash, sizeof(*a), &id);
	*a = key;
	a->refcnt = 1;
	a->id = id;
	/* The decision asks for every pair of paths it compares (RFC 9494 4.3, its first rule):
	 * the best path's list is a cache miss there, its set (read by the next rules) is not.
	 * Derived from the list, whatever the template said: sets do not compare it. */
	a->llgr_stale = bgp_u32list_contains(a->communities, BGP_COMM_LLGR_STALE);
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
	struct bgp_attr *oldest = NULL;

	if (!attr)
		return;
	if (attr->refcnt == 0 || attr->refcnt == BGP_VSTORE_RELEASED) {
		log_err("BUG: attribute set reference count underflow; please report");
		return;
	}
	if (--attr->refcnt)
		return;
	attr->refcnt = BGP_VSTORE_RELEASED;
	bgp_vstore_prefetch(&bgp_attr_store, attr->hash);
	__builtin_prefetch(attr->aspath, 1);
	if (attr->communities)
		__builtin_prefetch(attr->communities, 1);
	if (attr->extra)
		__builtin_prefetch(attr->extra, 1);
	if (release_waiting == RELEASE_AHEAD)
		oldest = release_queue[release_next];
	else
		release_waiting++;
	release_queue[release_next] = attr;
	release_next = (release_next + 1) % RELEASE_AHEAD;
	/* The set queued half the queue ago has its path and list loaded by now: those it holds
	 * the last reference to have their own index slots loaded, for when it goes. */
	if (release_waiting > RELEASE_AHEAD / 2) {
		const struct bgp_attr *mid =
			release_queue[(release_next + RELEASE_AHEAD - 1 - RELEASE_AHEAD / 2) %
				      RELEASE_AHEAD];

		bgp_aspath_prefetch_release(mid->aspath);
		bgp_u32list_prefetch_release(mid->communities);
	}
	if (oldest)
		attr_release(oldest);
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
	bgp_attr_own_extras(t, ex);
	ex->mp_nh_global = g;
	ex->mp_nh_local = l;
}

void bgp_attr_set_weight(struct bgp_attr *t, struct bgp_attr_extra *ex, uint32_t weight)
{
	if (bgp_attr_weight(t) == weight)
		return;
	bgp_attr_own_extras(t, ex);
	ex->weight = weight;
}

size_t bgp_attr_count(void)
{
	bgp_attr_release_pending();
	return bgp_attr_store.live;
}

void bgp_attr_trim(void)
{
	bgp_attr_release_pending();
	bgp_vstore_trim(&bgp_attr_store);
	bgp_vstore_trim(&extra_store);
	bgp_aspath_trim();
	bgp_community_trim();
}

size_t bgp_attr_memory(void)
{
	bgp_attr_release_pending();
	return bgp_vstore_memory(&bgp_attr_store) + bgp_vstore_memory(&extra_store);
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
