/* SPDX-License-Identifier: ISC */
/*
 * Interning of attribute sets and of unknown transitive attributes: one refcounted copy per
 * distinct value, found by a hash of a compact key. A full table has hundreds of thousands of
 * prefixes but a few ten thousand distinct sets; sharing them is most of the memory saving.
 */
#include "lib/compat.h"

#include "bgpd/bgp_codec.h"
#include "lib/hash.h"
#include "lib/log.h"

DEFINE_MTYPE(BGP_ATTR, "BGP attribute set");
DEFINE_MTYPE(BGP_TRANSIT, "BGP unknown transitive attributes");

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

static struct hash *attr_hash;
static struct hash *transit_hash;

static uint32_t item_hash(const void *item)
{
	/* struct bgp_attr and struct bgp_transit both start with refcnt, hash. */
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
		transit_hash = hash_new(item_hash, transit_eq, "BGP unknown attributes");
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

/* The fields that make two sets equal, packed without padding holes for hashing. */
struct attr_key {
	uint64_t present;
	uintptr_t aspath, communities, cluster_list, lcommunities, transit;
	uint32_t nexthop, med, local_pref, weight, aggregator_as, aggregator_addr, originator_id;
	uint8_t origin, mp_nh_len, atomic_aggregate, pad;
	struct in6_addr mp_nh_global, mp_nh_local;
};

static uint32_t attr_compute_hash(const struct bgp_attr *a)
{
	struct attr_key k;

	memset(&k, 0, sizeof(k));
	k.present = a->present;
	k.aspath = (uintptr_t)a->aspath;
	k.communities = (uintptr_t)a->communities;
	k.cluster_list = (uintptr_t)a->cluster_list;
	k.lcommunities = (uintptr_t)a->lcommunities;
	k.transit = (uintptr_t)a->transit;
	k.nexthop = a->nexthop.s_addr;
	k.med = a->med;
	k.local_pref = a->local_pref;
	k.weight = a->weight;
	k.aggregator_as = a->aggregator_as;
	k.aggregator_addr = a->aggregator_addr.s_addr;
	k.originator_id = a->originator_id.s_addr;
	k.origin = a->origin;
	k.mp_nh_len = a->mp_nh_len;
	k.atomic_aggregate = a->atomic_aggregate;
	k.mp_nh_global = a->mp_nh_global;
	k.mp_nh_local = a->mp_nh_local;
	return hash_bytes(&k, sizeof(k), 0x61747472u);
}

static bool attr_eq(const void *pa, const void *pb)
{
	const struct bgp_attr *a = pa, *b = pb;

	/* Sub-objects are interned, so pointer equality is value equality. */
	return a->present == b->present && a->origin == b->origin && a->mp_nh_len == b->mp_nh_len &&
	       a->atomic_aggregate == b->atomic_aggregate && a->aspath == b->aspath &&
	       a->nexthop.s_addr == b->nexthop.s_addr &&
	       memcmp(&a->mp_nh_global, &b->mp_nh_global, 16) == 0 &&
	       memcmp(&a->mp_nh_local, &b->mp_nh_local, 16) == 0 && a->med == b->med &&
	       a->local_pref == b->local_pref && a->weight == b->weight &&
	       a->aggregator_as == b->aggregator_as &&
	       a->aggregator_addr.s_addr == b->aggregator_addr.s_addr &&
	       a->originator_id.s_addr == b->originator_id.s_addr &&
	       a->communities == b->communities && a->cluster_list == b->cluster_list &&
	       a->lcommunities == b->lcommunities && a->transit == b->transit;
}

void bgp_attr_init(void)
{
	if (!attr_hash)
		attr_hash = hash_new(item_hash, attr_eq, "BGP attribute sets");
	if (!transit_hash)
		transit_hash = hash_new(item_hash, transit_eq, "BGP unknown attributes");
}

void bgp_attr_finish(void)
{
	if (attr_hash && hash_count(attr_hash))
		log_warn("BGP attribute sets: %zu still referenced at exit (a leak)",
			 hash_count(attr_hash));
	if (transit_hash && hash_count(transit_hash))
		log_warn("BGP unknown attributes: %zu still referenced at exit (a leak)",
			 hash_count(transit_hash));
	hash_free(attr_hash);
	hash_free(transit_hash);
	attr_hash = NULL;
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
	key.hash = attr_compute_hash(&key);
	a = hash_lookup(attr_hash, &key);
	if (a) {
		a->refcnt++;
		bgp_aspath_unref(empty);
		return a;
	}
	a = XMALLOC(MTYPE_BGP_ATTR, sizeof(*a));
	*a = key;
	a->refcnt = 1;
	/* The interned copy holds its own references (the empty path's is already taken). */
	if (!empty)
		bgp_aspath_ref(a->aspath);
	bgp_u32list_ref(a->communities);
	bgp_u32list_ref(a->cluster_list);
	if (a->lcommunities)
		a->lcommunities->refcnt++;
	if (a->transit)
		a->transit->refcnt++;
	hash_insert(attr_hash, a);
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
	if (!attr)
		return;
	if (attr->refcnt == 0) {
		log_err("BUG: attribute set reference count underflow; please report");
		return;
	}
	if (--attr->refcnt)
		return;
	hash_remove(attr_hash, attr);
	bgp_aspath_unref(attr->aspath);
	bgp_u32list_unref(attr->communities);
	bgp_u32list_unref(attr->cluster_list);
	bgp_lcommlist_unref(attr->lcommunities);
	bgp_transit_unref(attr->transit);
	XFREE(MTYPE_BGP_ATTR, attr);
}

size_t bgp_attr_count(void)
{
	return attr_hash ? hash_count(attr_hash) : 0;
}

size_t bgp_attr_aspath_count(void)
{
	return bgp_aspath_count();
}

size_t bgp_attr_list_count(void)
{
	return bgp_u32list_count() + bgp_lcommlist_count() +
	       (transit_hash ? hash_count(transit_hash) : 0);
}
