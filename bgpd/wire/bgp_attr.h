/* SPDX-License-Identifier: ISC */
/*
 * Path attributes. A received attribute set is parsed into a struct bgp_attr and interned: one
 * refcounted copy per distinct set, shared by every path that carries it (a full table has a
 * few hundred thousand prefixes but far fewer distinct sets). AS paths, community lists and
 * cluster lists are interned separately, since many attribute sets share them.
 *
 * Parsing is driven by a descriptor table (code, flags, length rule, decode, encode, RFC 7606
 * action) in bgp_attr.c.
 */
#ifndef SKUA_BGP_ATTR_H
#define SKUA_BGP_ATTR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "bgpd/wire/bgp_vstore.h"
#include "lib/stream.h"

/* Attribute type codes. */
enum {
	BGP_ATTR_ORIGIN = 1,
	BGP_ATTR_AS_PATH = 2,
	BGP_ATTR_NEXT_HOP = 3,
	BGP_ATTR_MED = 4,
	BGP_ATTR_LOCAL_PREF = 5,
	BGP_ATTR_ATOMIC_AGGREGATE = 6,
	BGP_ATTR_AGGREGATOR = 7,
	BGP_ATTR_COMMUNITIES = 8,
	BGP_ATTR_ORIGINATOR_ID = 9,
	BGP_ATTR_CLUSTER_LIST = 10,
	BGP_ATTR_MP_REACH_NLRI = 14,
	BGP_ATTR_MP_UNREACH_NLRI = 15,
	BGP_ATTR_EXT_COMMUNITIES = 16,
	BGP_ATTR_AS4_PATH = 17,
	BGP_ATTR_AS4_AGGREGATOR = 18,
	BGP_ATTR_LARGE_COMMUNITIES = 32,
};

/* Attribute flags octet. */
#define BGP_ATTR_FLAG_OPTIONAL 0x80
#define BGP_ATTR_FLAG_TRANSITIVE 0x40
#define BGP_ATTR_FLAG_PARTIAL 0x20
#define BGP_ATTR_FLAG_EXTLEN 0x10

enum bgp_origin {
	BGP_ORIGIN_IGP = 0,
	BGP_ORIGIN_EGP = 1,
	BGP_ORIGIN_INCOMPLETE = 2,
};

/* Which attributes are present in a struct bgp_attr (bit = 1 << code, for known codes). */
#define ATTR_BIT(code) (UINT64_C(1) << (code))

/* AS_PATH, always held with 4-octet ASNs (RFC 6793 4.2.3: merged with AS4_PATH on receipt). */
enum {
	AS_SEG_SET = 1,
	AS_SEG_SEQUENCE = 2,
	AS_SEG_CONFED_SEQUENCE = 3,
	AS_SEG_CONFED_SET = 4,
};

struct bgp_aspath {
	uint32_t refcnt;
	uint32_t hash;
	uint16_t len;	   /* bytes in data */
	uint16_t path_len; /* RFC 4271 9.1.2.2 a: a SET counts 1, confed segments 0 */
	uint32_t first_as; /* leftmost AS of the first SEQUENCE, 0 if none (MED comparison) */
	/* Segments as on the wire with 4-octet ASNs: type, count, count x u32 (host order). */
	uint8_t data[];
};

/* A refcounted list of 32-bit values (communities, cluster list). */
struct bgp_u32list {
	uint32_t refcnt;
	uint32_t hash;
	uint32_t count;
	uint32_t val[];
};

/* Large communities: count x (global, local1, local2). */
struct bgp_lcommlist {
	uint32_t refcnt;
	uint32_t hash;
	uint32_t count;
	uint32_t val[]; /* 3 x count */
};

/* Extended communities (RFC 4360): count x 8 octets, each held as two host-order words (octets
 * 0-3, then 4-7), so that numeric order is the wire order FRR sorts them in. */
struct bgp_ecommlist {
	uint32_t refcnt;
	uint32_t hash;
	uint32_t count;
	uint32_t val[]; /* 2 x count */
};

/* Unknown optional transitive attributes, kept raw to pass on with the Partial bit set. */
struct bgp_transit {
	uint32_t refcnt;
	uint32_t hash;
	uint32_t len;
	uint8_t data[]; /* flags, code, length, value ... as re-encoded */
};

/*
 * The attributes that are rare in a full table (AGGREGATOR on a few percent of routes,
 * route-reflection attributes only on iBGP, large communities, unknown ones), interned apart
 * so that struct bgp_attr stays small: most sets have none of them (extra == NULL), and the
 * sets that have some share few distinct blocks.
 */
struct bgp_attr_extra {
	uint32_t refcnt; /* interned copies only */
	uint32_t hash;
	uint32_t aggregator_as;
	struct in_addr aggregator_addr;
	struct in_addr originator_id;
	struct bgp_u32list *cluster_list; /* IPv4 addresses as host-order u32 (ntohl) */
	struct bgp_lcommlist *lcommunities;
	struct bgp_ecommlist *ecommunities;
	struct bgp_transit *transit;
	/* MP_REACH next hops (bgp_attr_mp_nh_global()): IPv6 global, or IPv4 in the first 4
	 * bytes; link-local when mp_nh_len == 32. */
	struct in6_addr mp_nh_global;
	struct in6_addr mp_nh_local;
	uint32_t tag;	 /* local, never sent: a route-map's `set tag` (FRR's attr->tag) */
	uint32_t weight; /* local, never sent: 32768 for local routes, or a route-map's */
};

/*
 * One attribute set. The fields the decision process and the export path read for every
 * route come first; see struct bgp_attr_extra for the rest. Interned copies come from a slab
 * (bgp_attr_intern.c), so the size here is what a set costs, plus 4 bytes of index.
 */
struct bgp_attr {
	uint32_t refcnt; /* interned copies: references held by paths and queues */
	uint32_t hash;
	/* One word for which attributes are present and the small ones (bit-fields: no &). */
	uint64_t present : 40;		 /* ATTR_BIT(code) set for each attribute carried */
	uint64_t origin : 2;		 /* enum bgp_origin */
	uint64_t mp_nh_len : 6;		 /* 0, 4, 16 or 32 */
	uint64_t atomic_aggregate : 1;	 /* bool */
	uint64_t llgr_stale : 1;	 /* communities has LLGR_STALE: see bgp_attr_intern() */
	struct bgp_aspath *aspath;	 /* never NULL once interned (empty path allowed) */
	struct bgp_u32list *communities; /* values in host order, as received */
	/* NULL: none of the extras. In a template it may point to any block the caller owns
	 * (its sub-objects interned, like the template's own); read it with bgp_attr_ex(). */
	const struct bgp_attr_extra *extra;
	struct in_addr nexthop; /* NEXT_HOP (IPv4 unicast) */
	uint32_t med;
	uint32_t local_pref;
	/* Interned copies: the set's id in its store (bgp_attr_at()), for 4-byte references from
	 * paths. Weight, which received routes seldom carry, is in the extras. */
	uint32_t id;
};

/* Every attribute the codec flags in present fits its 40 bits. */
_Static_assert(BGP_ATTR_LARGE_COMMUNITIES < 40, "attribute code beyond bgp_attr.present");

/* All-zero extras, for sets that carry none. */
extern const struct bgp_attr_extra bgp_attr_extra_none;

static inline const struct bgp_attr_extra *bgp_attr_ex(const struct bgp_attr *attr)
{
	return attr->extra ? attr->extra : &bgp_attr_extra_none;
}

/*
 * The MP_REACH_NLRI next hops, kept with the extras: an IPv4 set has none, and the sets of an
 * IPv6 table share a few (one per peer, mostly).
 */
/* Make ex, a block of the caller's, template t's extras (a copy of what t had), so that they
 * can be changed; nothing happens when t's extras already are ex. */
static inline void bgp_attr_own_extras(struct bgp_attr *t, struct bgp_attr_extra *ex)
{
	if (t->extra != ex) {
		*ex = *bgp_attr_ex(t);
		t->extra = ex;
	}
}

/* The weight (local, never sent; 0 unless a local route's or set by a route-map). */
static inline uint32_t bgp_attr_weight(const struct bgp_attr *attr)
{
	return bgp_attr_ex(attr)->weight;
}

/* Set template t's weight; ex as for bgp_attr_set_mp_nh(). */
void bgp_attr_set_weight(struct bgp_attr *t, struct bgp_attr_extra *ex, uint32_t weight);

static inline const struct in6_addr *bgp_attr_mp_nh_global(const struct bgp_attr *attr)
{
	return &bgp_attr_ex(attr)->mp_nh_global;
}

static inline const struct in6_addr *bgp_attr_mp_nh_local(const struct bgp_attr *attr)
{
	return &bgp_attr_ex(attr)->mp_nh_local;
}

/*
 * Set the next hops of template t: len 0, 4, 16 or 32 (mp_nh_len), global and local (NULL for
 * none). ex is a block of the caller's that t->extra may be pointed at (filled from t's
 * extras first); it must live as long as the template is used.
 */
void bgp_attr_set_mp_nh(struct bgp_attr *t, struct bgp_attr_extra *ex, uint8_t len,
			const struct in6_addr *global, const struct in6_addr *local);

/* An interned copy of extras block ex (a reference; NULL when ex carries nothing), for a
 * template that outlives the block it was filled in. ex's sub-objects must be interned. */
const struct bgp_attr_extra *bgp_attr_extra_intern(const struct bgp_attr_extra *ex);
void bgp_attr_extra_unref(const struct bgp_attr_extra *ex); /* NULL is fine */

/* ---- interning ---- */
/* The store of interned sets (bgp_attr_intern.c). */
extern struct bgp_vstore bgp_attr_store;
/* The interned set whose id is id (attr->id): 4-byte references, as paths hold them. */
static inline struct bgp_attr *bgp_attr_at(uint32_t id)
{
	return bgp_vstore_at(&bgp_attr_store, id, sizeof(struct bgp_attr));
}
void bgp_attr_init(void);
void bgp_attr_finish(void); /* frees the intern tables (every reference must be gone) */
/* Intern a filled template: returns the shared copy with its refcount raised. The template's
 * own sub-objects (aspath, lists, and those of its extra block) must themselves be interned.
 * (The interned copy takes its own references on them: the caller still owns and drops the
 * template's.) A NULL aspath is taken as the empty path. The extra block is interned too
 * (whether or not it already was one); all-zero extras become NULL. */
struct bgp_attr *bgp_attr_intern(const struct bgp_attr *tmpl);
struct bgp_attr *bgp_attr_ref(struct bgp_attr *attr);
/* The hash bgp_attr_intern() files a set without extras under, from template t (its extra
 * ignored, its aspath and communities unread) and the hashes of the AS path and community
 * list it will carry (bgp_aspath_hash(), bgp_u32list_hash(); 0 for no communities): for
 * the input's peek (bgp_update_peek.c), which knows those before they are interned. */
uint32_t bgp_attr_plain_hash(const struct bgp_attr *t, uint32_t aspath_hash, uint32_t comm_hash);
/* A hint, which changes nothing: start loading the set index's slot where hv's probe
 * begins. */
void bgp_attr_prefetch_hash(uint32_t hv);
/* NULL is fine. A set whose last reference goes is deleted a few releases later (see
 * bgp_attr_intern.c): bgp_attr_release_pending() finishes those; the counts, memory, trim
 * and finish functions of the interned objects call it first. */
void bgp_attr_unref(struct bgp_attr *attr);
void bgp_attr_release_pending(void);
/* A hint, which changes nothing (attr may be NULL): a caller that will drop a reference to
 * attr a few steps later (a withdrawal group, a session's cleanup walk) starts loading the
 * set now, so that the refcount bgp_attr_unref() decrements, and the hash by which it then
 * prefetches the set's index slot, are in the cache when it runs: without it each release
 * began with that miss, and the misses of consecutive releases did not overlap. */
static inline void bgp_attr_prefetch_release(const struct bgp_attr *attr)
{
	if (attr)
		__builtin_prefetch(attr, 1);
}
#define BGP_ATTR_RELEASE_AHEAD 8   /* sets queued at most */
size_t bgp_attr_count(void);	   /* distinct interned sets (show memory) */
size_t bgp_attr_extra_count(void); /* distinct interned extras */
/* Bytes held for interned sets and extras: slabs and their indexes. */
size_t bgp_attr_memory(void);
/* The interning stores' empty chunks (sets, AS paths, lists) back to malloc, the spares kept
 * for the next object included: once a table has gone. */
void bgp_attr_trim(void);

struct bgp_aspath *bgp_aspath_intern_raw(const uint8_t *data, uint16_t len);
struct bgp_aspath *bgp_aspath_empty(void); /* interned empty path, reference taken */
struct bgp_aspath *bgp_aspath_ref(struct bgp_aspath *p);
void bgp_aspath_unref(struct bgp_aspath *p);
/* A hint, which changes nothing (p may be NULL): p is loaded and a release will drop a
 * reference to it shortly; if that is its last, start loading its index slot, which the
 * deletion probes (bgp_attr_intern.c's deferred release of sets). */
void bgp_aspath_prefetch_release(const struct bgp_aspath *p);
/* A new interned path with asn prepended (into a leading SEQUENCE; new segment if full). */
struct bgp_aspath *bgp_aspath_prepend(struct bgp_aspath *p, uint32_t asn);
/*
 * The same path as bgp_aspath_prepend() gives, written into the caller's buffer of size bytes
 * instead of interned: for encoding it once without making a shared copy (the export side).
 * refcnt 0 and no hash: never pass it to _ref/_unref or keep it. NULL when it does not fit.
 */
struct bgp_aspath *bgp_aspath_prepend_scratch(void *buf, size_t size, const struct bgp_aspath *p,
					      uint32_t asn);
/* Toward a confed-external neighbor (RFC 5065 6.1): asn (our member AS) into a leading
 * AS_CONFED_SEQUENCE, or a new one. A new interned path. */
struct bgp_aspath *bgp_aspath_prepend_confed(struct bgp_aspath *p, uint32_t asn);
/* Toward the outside (RFC 5065 6.1 c): the path without its confederation segments, a new
 * reference; NULL when it has none (send it as it is). */
struct bgp_aspath *bgp_aspath_strip_confed(const struct bgp_aspath *p);
bool bgp_aspath_contains(const struct bgp_aspath *p, uint32_t asn); /* loop detection */
/* How many times asn appears (every segment), and the origin AS (the last AS of a final
 * SEQUENCE; 0 when the path is empty or ends in a set). For allowas-in. */
unsigned bgp_aspath_count_as(const struct bgp_aspath *p, uint32_t asn);
/* Private AS numbers (RFC 6996, FRR's ranges 64512-65535 and 4200000000-4294967295). */
bool bgp_as_is_private(uint32_t asn);
/* Is every AS of the path private (an empty path is not)? */
bool bgp_aspath_all_private(const struct bgp_aspath *p);
/* A new interned path without its private ASes (keep: one kept anyway, the neighbor's own;
 * 0 none), or with each replaced by `replace` when it is not 0. Empty segments go. */
struct bgp_aspath *bgp_aspath_strip_private(const struct bgp_aspath *p, uint32_t keep,
					    uint32_t replace);
/* A new interned path without any of the n AS numbers asns, from every segment (FRR's
 * `set as-path exclude`); segments left empty go, the others stay as they are (not merged).
 * NULL p: NULL. */
struct bgp_aspath *bgp_aspath_exclude(const struct bgp_aspath *p, const uint32_t *asns, uint32_t n);
uint32_t bgp_aspath_origin_as(const struct bgp_aspath *p);
/* The path of an as-set aggregate of a and b (bgp_aspath_aggregate.c): their common leading
 * segments, then an AS_SET of the other ASes of both, sorted (FRR's aspath_aggregate()). A new
 * reference; NULL if it would not fit an attribute. */
struct bgp_aspath *bgp_aspath_aggregate(const struct bgp_aspath *a, const struct bgp_aspath *b);
/* FRR's text form: "65001 65002 {65010,65011}" (empty string for an empty path). */
int bgp_aspath_to_str(const struct bgp_aspath *p, char *buf, size_t size);
/* Parse the text form (tests, network statements); NULL on error. */
struct bgp_aspath *bgp_aspath_from_str(const char *s);

struct bgp_u32list *bgp_u32list_intern(const uint32_t *val, uint32_t count);
struct bgp_u32list *bgp_u32list_ref(struct bgp_u32list *l);
void bgp_u32list_unref(struct bgp_u32list *l);
/* bgp_aspath_prefetch_release() for a community list. */
void bgp_u32list_prefetch_release(const struct bgp_u32list *l);
struct bgp_lcommlist *bgp_lcommlist_intern(const uint32_t *val, uint32_t count);
void bgp_lcommlist_unref(struct bgp_lcommlist *l);
/* Extended community lists: val holds 2 x count words; NULL when count is too large. */
struct bgp_ecommlist *bgp_ecommlist_intern(const uint32_t *val, uint32_t count);
struct bgp_ecommlist *bgp_ecommlist_ref(struct bgp_ecommlist *l);
void bgp_ecommlist_unref(struct bgp_ecommlist *l);

/* One line for logs and `debug bgp updates`, attributes in type-code order:
 * "origin i, path 65001 65002, nexthop 192.0.2.1, metric 0, localpref 100, community 65001:1".
 * Returns the length, or -1 when truncated. */
int bgp_attr_to_str(const struct bgp_attr *attr, char *buf, size_t size);
/* "ORIGIN", "AS_PATH", ... for a code the codec knows, else NULL. */
const char *bgp_attr_name(uint8_t code);
/* Interned attribute sets / AS paths / lists currently alive (show memory, leak tests). */
size_t bgp_attr_aspath_count(void);
size_t bgp_attr_list_count(void);

/* ---- wire ---- */

/* What the codec needs to know about the session it parses for / encodes to. */
struct bgp_codec_ctx {
	bool as4;	   /* 4-octet AS negotiated */
	bool ebgp;	   /* peer is external */
	uint32_t local_as; /* for checks such as AS_PATH first AS on eBGP */
	uint32_t peer_as;
	bool extended_message; /* RFC 8654: up to 65535 bytes */
};

#endif /* SKUA_BGP_ATTR_H */
