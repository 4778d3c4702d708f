/* SPDX-License-Identifier: ISC */
/*
 * Internals shared by the wire codec's files (bgp_attr.c, bgp_aspath.c, bgp_community.c,
 * bgp_update.c, bgp_open.c, bgp_notify.c). Not for use outside the codec: the public contract
 * is bgp_attr.h, bgp_update.h, bgp_open.h, bgp_notify.h and bgp_header.h.
 */
#ifndef SKUA_BGP_CODEC_H
#define SKUA_BGP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_error.h"
#include "lib/memory.h"
#include "lib/stream.h"

DECLARE_MTYPE(BGP_ATTR);       /* struct bgp_attr (interned sets): slab chunks */
DECLARE_MTYPE(BGP_ATTR_EXTRA); /* struct bgp_attr_extra (interned): slab chunks */
DECLARE_MTYPE(BGP_ATTR_INDEX); /* the indexes of interned sets and extras */
DECLARE_MTYPE(BGP_ASPATH);     /* struct bgp_aspath */
DECLARE_MTYPE(BGP_U32LIST);    /* communities and cluster lists */
DECLARE_MTYPE(BGP_LCOMMLIST);  /* large communities */
DECLARE_MTYPE(BGP_ECOMMLIST);  /* extended communities */
DECLARE_MTYPE(BGP_TRANSIT);    /* unknown optional transitive attributes */
DECLARE_MTYPE(BGP_NLRI_JOIN);  /* IPv4 NLRI of a mixed UPDATE, joined (bgp_update.c) */

/* Unaligned host-order u32 in AS path data. */
static inline uint32_t bgp_get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline void bgp_put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* RFC 7606 2 approaches, weakest first so that the strongest is the largest (3.h). */
enum bgp_attr_action {
	BGP_ACT_NONE = 0,
	BGP_ACT_DISCARD,  /* attribute discard */
	BGP_ACT_WITHDRAW, /* treat-as-withdraw */
	BGP_ACT_RESET,	  /* session reset */
};

/* ---- AS paths (bgp_aspath.c) ---- */

/* Largest internal path (bytes of segment data: uint16_t len). */
#define BGP_ASPATH_MAX_DATA 65535

/*
 * Parse a wire AS_PATH (asn_size 2 or 4) or AS4_PATH (asn_size 4, confed segments refused)
 * into internal segment data in out (capacity BGP_ASPATH_MAX_DATA). 0, or -1 with *reason
 * when malformed in the sense of RFC 7606 7.2 (plus AS 0, RFC 7607, and confed segments in
 * AS4_PATH, RFC 6793 3).
 */
int bgp_aspath_wire_parse(const uint8_t *wire, size_t len, unsigned asn_size, bool as4_path,
			  uint8_t *out, size_t *out_len, const char **reason);
/* RFC 6793 4.2.3: merge AS_PATH (internal data p2) and AS4_PATH (p4) into out. */
int bgp_aspath_as4_merge(const uint8_t *p2, size_t len2, const uint8_t *p4, size_t len4,
			 uint8_t *out, size_t *out_len);
/* Number of ASes for RFC 6793 4.2.3 / RFC 4271 9.1.2.2 (SET = 1, confed = 0). */
unsigned bgp_aspath_data_count(const uint8_t *data, size_t len);
/* The leftmost AS when the path starts with an AS_SEQUENCE (RFC 4271 6.3 first-AS check),
 * 0 otherwise. */
uint32_t bgp_aspath_leftmost(const struct bgp_aspath *p);
bool bgp_aspath_has_confed(const struct bgp_aspath *p);
/* The lookup key's data area (BGP_ASPATH_MAX_DATA bytes): parse into it, then intern. */
uint8_t *bgp_aspath_key_data(void);
/* Intern internal data without validating it again (it came from the parser). */
struct bgp_aspath *bgp_aspath_intern_data(const uint8_t *data, size_t len);
/*
 * Encode AS_PATH for a peer. as4: 4-octet ASNs. Otherwise ASNs above 65535 become AS_TRANS
 * and *needs_as4 is set (the caller then adds AS4_PATH with bgp_aspath_encode_as4()).
 */
int bgp_aspath_encode(struct stream *s, const struct bgp_aspath *p, bool as4, bool *needs_as4);
int bgp_aspath_encode_as4(struct stream *s, const struct bgp_aspath *p);
size_t bgp_aspath_count(void);
size_t bgp_aspath_memory(void); /* slabs, large paths and the index */
void bgp_aspath_finish(void);
void bgp_aspath_trim(void); /* empty slab chunks back to malloc (bgp_vstore_trim) */
/* The hash the store files a path of len bytes (the 4-octet form, as interned) under, and a
 * hint that starts loading the store's index slot for that hash: for the input side, a few
 * UPDATEs before the path's decode interns it (bgp_update_peek.c). */
uint32_t bgp_aspath_hash(const uint8_t *data, size_t len);
void bgp_aspath_prefetch(uint32_t hv, size_t len);

/* ---- communities (bgp_community.c) ---- */
/* Lookup key value areas (65535/4 values), filled by the parser before interning. */
uint32_t *bgp_u32list_key_vals(void);
uint32_t *bgp_lcommlist_key_vals(void);
uint32_t *bgp_ecommlist_key_vals(void);
size_t bgp_u32list_count(void);
size_t bgp_lcommlist_count(void);
size_t bgp_ecommlist_count(void);
void bgp_community_finish(void);
void bgp_community_trim(void); /* empty slab chunks back to malloc (bgp_vstore_trim) */
/* COMMUNITIES as kept (a set, as FRR): val[0..n) sorted and without repeats in place; returns
 * how many are left. The decode and the input side's peek both use it. */
uint32_t bgp_u32list_set(uint32_t *val, uint32_t n);
/* As for AS paths: the hash the 32-bit list store files val[0..count) under, and a hint that
 * starts loading its index slot. */
uint32_t bgp_u32list_hash(const uint32_t *val, uint32_t count);
void bgp_u32list_prefetch(uint32_t hv, uint32_t count);

/* ---- attribute section (bgp_attr.c) ---- */

/* The parsed attribute section of one UPDATE. */
struct bgp_attr_parse {
	/* Template: sub-objects are interned references owned by this struct until
	 * bgp_attr_parse_release(). attr.extra points to extra (never moved: the parse
	 * state is used in place). */
	struct bgp_attr attr;
	struct bgp_attr_extra extra;
	enum bgp_attr_action action; /* strongest RFC 7606 action taken */
	uint64_t discarded;	     /* ATTR_BIT() of attributes discarded */
	const char *reason;	     /* of the strongest treat-as-withdraw, else of a discard */
	struct bgp_error err;	     /* NOTIFICATION for the strongest error (RFC 7606 5.2) */
	unsigned count;		     /* attributes seen */
	bool mp_reach;
	bool mp_unreach;
	int mp_reach_af; /* enum bgp_af, -1 for a family we do not handle */
	int mp_unreach_af;
	struct stream mp_reach_nlri; /* syntax already checked */
	struct stream mp_unreach_nlri;
};

/*
 * Parse the path attributes of an UPDATE. nlri: the NLRI field is not empty (NEXT_HOP needed).
 * Returns -1 with err on a session reset; otherwise 0 with ap->action telling what to do.
 */
int bgp_attr_parse(struct bgp_attr_parse *ap, const uint8_t *data, size_t len,
		   const struct bgp_codec_ctx *ctx, bool nlri, struct bgp_error *err);
void bgp_attr_parse_release(struct bgp_attr_parse *ap);

/*
 * Encode every attribute of attr for the peer described by ctx, except MP_REACH/MP_UNREACH,
 * in type-code order. NEXT_HOP is written only for IPv4 unicast. 0 or -1 when s is full.
 */
int bgp_attr_encode(struct stream *s, const struct bgp_attr *attr, const struct bgp_codec_ctx *ctx,
		    enum bgp_af af);
/* Unknown transitive attributes (bgp_attr_intern.c): the parser writes them re-encoded into
 * the key area (BGP_TRANSIT_MAX bytes), then interns them. */
#define BGP_TRANSIT_MAX 65535
uint8_t *bgp_transit_key_data(void);
struct bgp_transit *bgp_transit_intern(size_t len);
void bgp_transit_unref(struct bgp_transit *t);

/* Attribute header with the extended length bit when len > 255. */
int bgp_attr_put_header(struct stream *s, uint8_t flags, uint8_t code, size_t len);

/* NLRI syntax (RFC 7606 5.3): every prefix length within the family, no overrun. */
bool bgp_nlri_valid(const uint8_t *data, size_t len, enum bgp_af af);

/* ---- the graceful restart capabilities (bgp_open_gr.c), for bgp_open.c ---- */

struct bgp_caps;
struct bgp_open_local;
/* Append the GR (code 64) / LLGR (code 71) capability at d + o when the local side asks for
 * it; the new offset. d must have room for a header and 4 (GR) or 7 (LLGR) bytes a family. */
size_t bgp_cap_gr_put(uint8_t *d, size_t o, const struct bgp_open_local *l);
size_t bgp_cap_llgr_put(uint8_t *d, size_t o, const struct bgp_open_local *l);
/* Parse the value v of a GR / LLGR capability into caps; -1 with err (GR only) when malformed. */
int bgp_cap_gr_parse(struct bgp_caps *caps, struct stream *v, struct bgp_error *err);
int bgp_cap_llgr_parse(struct bgp_caps *caps, struct stream *v);

#endif /* SKUA_BGP_CODEC_H */
