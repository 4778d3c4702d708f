/* SPDX-License-Identifier: ISC */
/*
 * Path attributes: the descriptor table that drives parsing, encoding and printing, and the
 * RFC 7606 error handling. Interning is in bgp_attr_intern.c.
 *
 * Every attribute the codec knows has one row: expected Optional/Transitive bits, a length
 * rule, the RFC 7606 approach for a malformed instance, and decode/encode/print functions.
 * The parse loop applies the generic checks (duplicates, flags, length) from the row, then the
 * row's decoder does the value checks. The strongest approach met wins (RFC 7606 3.h).
 *
 * Choices where the RFCs leave room, or where we deviate:
 * - An attribute overrunning the section is treat-as-withdraw (RFC 7606 4, the NLRI are found
 *   from the Total Attribute Length); with no reachable NLRI it becomes a session reset
 *   (RFC 7606 5.2), since an MP_REACH_NLRI may have been lost behind the error.
 * - eBGP AS_PATH not starting with the peer's AS: treat-as-withdraw (RFC 7606 7.2 SHOULD;
 *   FRR resets the session instead). Route servers that do not prepend are not supported.
 * - Wrong Optional/Transitive bits: the attribute's own approach (RFC 7606 3.c with 3.e and
 *   3.f), so a reset (subcode 4) only for MP_REACH_NLRI/MP_UNREACH_NLRI.
 * - MP_REACH/MP_UNREACH errors: session reset, not "AFI/SAFI disable"; subcode 9 (RFC 4760 7).
 * - NEXT_HOP: invalid host addresses (0/8, 127/8, 224/3) are treat-as-withdraw; without NLRI
 *   in the NLRI field NEXT_HOP is ignored, errors included (RFC 4760 3). Our own address is
 *   the RIB's check.
 * - LOCAL_PREF missing on iBGP is accepted (RFC 4271 6.3 lists only ORIGIN, AS_PATH and
 *   NEXT_HOP as mandatory); the RIB applies its default.
 * - An unrecognized well-known attribute resets the session (RFC 4271 6.3; RFC 7606 does not
 *   revise it).
 * - IPv4 unicast NLRI in both the NLRI field and MP_REACH_NLRI of one UPDATE (RFC 7606 5.1:
 *   accepted): NEXT_HOP stays in attr->nexthop for the NLRI field, the MP_REACH_NLRI next hop
 *   is only in bgp_attr_mp_nh_global(attr); bgp_update.c sorts the two sets out.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "bgpd/wire/bgp_open.h"
#include "lib/hash.h"
#include "lib/log.h"

#define FLAGS_OT (BGP_ATTR_FLAG_OPTIONAL | BGP_ATTR_FLAG_TRANSITIVE)
#define WELL_KNOWN BGP_ATTR_FLAG_TRANSITIVE
#define OPT_TRANS (BGP_ATTR_FLAG_OPTIONAL | BGP_ATTR_FLAG_TRANSITIVE)
#define OPT_NONTRANS BGP_ATTR_FLAG_OPTIONAL

/* ======================================================================================
 * Parse state
 * ====================================================================================== */

struct attr_state {
	struct bgp_attr_parse *ap;
	const struct bgp_codec_ctx *ctx;
	bool nlri;	     /* the NLRI field is not empty */
	uint8_t flags, code; /* the attribute being parsed */
	const uint8_t *raw;  /* its whole TLV, for the NOTIFICATION data */
	size_t raw_len;
	uint8_t seen[32]; /* codes met (RFC 7606 3.g) */
	/* 2-octet sessions: AS_PATH waits for AS4_PATH and AGGREGATOR (RFC 6793 4.2.3). */
	bool as2_path;
	size_t as2_len;
	bool as4_path;
	size_t as4_len;
	bool as4_agg;
	uint32_t as4_agg_as;
	struct in_addr as4_agg_addr;
	/* Unknown optional transitive attributes, appended to the transit key in place. */
	size_t transit_len;
	bool transit_unsorted;
	uint8_t transit_last;
	bool overrun; /* the section could not be walked to its end (RFC 7606 4) */
};

/* AS paths in 4-octet form waiting for the merge (2-octet sessions only). */
static uint8_t as2_buf[BGP_ASPATH_MAX_DATA];
static uint8_t as4_buf[BGP_ASPATH_MAX_DATA];

static bool seen_test_set(struct attr_state *st, uint8_t code)
{
	bool seen = st->seen[code >> 3] & (1u << (code & 7));

	st->seen[code >> 3] |= (uint8_t)(1u << (code & 7));
	return seen;
}

static bool seen_test(const struct attr_state *st, uint8_t code)
{
	return st->seen[code >> 3] & (1u << (code & 7));
}

/*
 * Record an error met while parsing the current attribute with the RFC 7606 approach act and
 * the RFC 4271 6.3 subcode that a session reset would send. Returns act.
 */
static enum bgp_attr_action attr_error(struct attr_state *st, enum bgp_attr_action act,
				       uint8_t subcode, const char *reason)
{
	struct bgp_attr_parse *ap = st->ap;

	if (act == BGP_ACT_DISCARD && st->code < 64)
		ap->discarded |= ATTR_BIT(st->code);
	if (act > ap->action || (act == ap->action && !ap->reason)) {
		ap->action = act;
		ap->reason = reason;
		/* RFC 4271 6.3: the data is the erroneous attribute (type, length, value). */
		bgp_error_set(&ap->err, BGP_ERR_UPDATE, subcode, st->raw, st->raw_len, reason);
	}
	return act;
}

static bool ipv4_martian(struct in_addr a)
{
	uint32_t h = ntohl(a.s_addr);

	/* RFC 4271 6.3 "not a valid IP host address": this network (0/8), loopback (127/8),
	 * multicast and reserved (224/3, which includes the broadcast address). */
	return (h >> 24) == 0 || (h >> 24) == 127 || (h >> 29) == 7;
}

/* ======================================================================================
 * Decoders: v is bounded to the attribute value; the length rule has already been checked.
 * Each returns BGP_ACT_NONE or the approach of an error it recorded.
 * ====================================================================================== */

static enum bgp_attr_action dec_origin(struct attr_state *st, struct stream *v)
{
	uint8_t o = 0;

	stream_get_u8(v, &o);
	if (o > BGP_ORIGIN_INCOMPLETE)
		return attr_error(st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_INVALID_ORIGIN,
				  "ORIGIN value undefined (RFC 7606 7.1)");
	st->ap->attr.origin = o;
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_ORIGIN);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_as_path(struct attr_state *st, struct stream *v)
{
	const char *reason = NULL;
	size_t len = 0;

	if (st->ctx->as4) {
		if (bgp_aspath_wire_parse(stream_pnt(v), stream_readable(v), 4, false,
					  bgp_aspath_key_data(), &len, &reason) < 0)
			return attr_error(st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_MALFORMED_AS_PATH,
					  reason);
		st->ap->attr.aspath = bgp_aspath_intern_data(bgp_aspath_key_data(), len);
	} else {
		if (bgp_aspath_wire_parse(stream_pnt(v), stream_readable(v), 2, false, as2_buf,
					  &len, &reason) < 0)
			return attr_error(st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_MALFORMED_AS_PATH,
					  reason);
		st->as2_path = true;
		st->as2_len = len;
	}
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_AS_PATH);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_next_hop(struct attr_state *st, struct stream *v)
{
	struct in_addr nh = { 0 };

	stream_get_bytes(v, &nh, 4);
	/* RFC 4760 3: without NLRI in the NLRI field, NEXT_HOP means nothing: ignore it. */
	if (!st->nlri)
		return BGP_ACT_NONE;
	if (ipv4_martian(nh))
		return attr_error(st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_INVALID_NEXT_HOP,
				  "NEXT_HOP is not a valid host address (RFC 4271 6.3)");
	st->ap->attr.nexthop = nh;
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_med(struct attr_state *st, struct stream *v)
{
	stream_get_u32(v, &st->ap->attr.med);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_MED);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_local_pref(struct attr_state *st, struct stream *v)
{
	stream_get_u32(v, &st->ap->attr.local_pref);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_atomic_aggregate(struct attr_state *st, struct stream *v)
{
	st->ap->attr.atomic_aggregate = true;
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_aggregator(struct attr_state *st, struct stream *v)
{
	uint32_t as = 0;
	uint16_t as2 = 0;

	if (st->ctx->as4) {
		stream_get_u32(v, &as);
	} else {
		stream_get_u16(v, &as2);
		as = as2;
	}
	if (as == 0)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_OPTIONAL_ATTR,
				  "AGGREGATOR with AS 0 (RFC 7607 2)");
	st->ap->extra.aggregator_as = as;
	stream_get_bytes(v, &st->ap->extra.aggregator_addr, 4);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_AGGREGATOR);
	return BGP_ACT_NONE;
}

/* Read n u32 into the list key and intern. */
static struct bgp_u32list *intern_u32s(struct stream *v)
{
	uint32_t *vals = bgp_u32list_key_vals(), n = (uint32_t)(stream_readable(v) / 4), i;

	for (i = 0; i < n; i++)
		stream_get_u32(v, &vals[i]);
	return bgp_u32list_intern(vals, n);
}

/* COMMUNITIES are a set: sorted and without repeats on receipt, as FRR keeps them
 * (community_uniq_sort()), so matching, printing and what is passed on agree with it. */
static enum bgp_attr_action dec_communities(struct attr_state *st, struct stream *v)
{
	uint32_t *vals = bgp_u32list_key_vals(), n = (uint32_t)(stream_readable(v) / 4);

	for (uint32_t i = 0; i < n; i++)
		stream_get_u32(v, &vals[i]);
	st->ap->attr.communities = bgp_u32list_intern(vals, bgp_u32list_set(vals, n));
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_originator_id(struct attr_state *st, struct stream *v)
{
	stream_get_bytes(v, &st->ap->extra.originator_id, 4);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_ORIGINATOR_ID);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_cluster_list(struct attr_state *st, struct stream *v)
{
	st->ap->extra.cluster_list = intern_u32s(v);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_CLUSTER_LIST);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action mp_error(struct attr_state *st, const char *reason)
{
	/* RFC 7606 7.11 and 5.3: the NLRI cannot be located or parsed, so session reset; the
	 * subcode is RFC 4760 7's Optional Attribute Error. */
	return attr_error(st, BGP_ACT_RESET, BGP_ERR_UPD_OPTIONAL_ATTR, reason);
}

static enum bgp_attr_action dec_mp_reach(struct attr_state *st, struct stream *v)
{
	struct bgp_attr *attr = &st->ap->attr;
	struct in6_addr global, local;
	uint16_t afi = 0;
	uint8_t safi = 0, nhlen = 0;
	int af;

	stream_get_u16(v, &afi);
	stream_get_u8(v, &safi);
	stream_get_u8(v, &nhlen);
	st->ap->mp_reach = true;
	if (stream_readable(v) < (size_t)nhlen + 1)
		return mp_error(st, "MP_REACH_NLRI next hop overruns the attribute");
	af = bgp_af_from_afi_safi(afi, safi);
	st->ap->mp_reach_af = af;
	if (af < 0)
		return BGP_ACT_NONE; /* a family we do not handle (nor advertise): ignore it */

	memset(&global, 0, sizeof(global));
	memset(&local, 0, sizeof(local));
	if (af == BGP_AF_IPV6_UNICAST) {
		/* RFC 2545 3: a global address, optionally followed by a link-local one. */
		if (nhlen != 16 && nhlen != 32)
			return mp_error(st, "MP_REACH_NLRI next hop length is not 16 or 32 for "
					    "IPv6 unicast (RFC 7606 7.11)");
		stream_get_bytes(v, &global, 16);
		if (nhlen == 32)
			stream_get_bytes(v, &local, 16);
	} else {
		if (nhlen != 4)
			return mp_error(st, "MP_REACH_NLRI next hop length is not 4 for IPv4 "
					    "unicast (RFC 7606 7.11)");
		stream_get_bytes(v, &global, 4);
	}
	stream_skip(v, 1); /* Reserved (RFC 4760 3: ignored) */
	if (!bgp_nlri_valid(stream_pnt(v), stream_readable(v), af))
		return mp_error(st, "MP_REACH_NLRI carries a malformed prefix (RFC 7606 5.3)");
	stream_get_sub(v, stream_readable(v), &st->ap->mp_reach_nlri);

	if (af == BGP_AF_IPV6_UNICAST) {
		/* A link-local next hop that is not link-local is ignored (as FRR does). */
		if (nhlen == 32 && !IN6_IS_ADDR_LINKLOCAL(&local)) {
			memset(&local, 0, sizeof(local));
			nhlen = 16;
		}
		if (stream_readable(&st->ap->mp_reach_nlri) &&
		    (IN6_IS_ADDR_MULTICAST(&global) || IN6_IS_ADDR_LOOPBACK(&global) ||
		     (IN6_IS_ADDR_UNSPECIFIED(&global) && nhlen != 32)))
			return attr_error(st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_INVALID_NEXT_HOP,
					  "MP_REACH_NLRI next hop is not a valid host address");
	} else {
		struct in_addr nh4;

		memcpy(&nh4, &global, 4);
		if (stream_readable(&st->ap->mp_reach_nlri)) {
			if (ipv4_martian(nh4))
				return attr_error(st, BGP_ACT_WITHDRAW,
						  BGP_ERR_UPD_INVALID_NEXT_HOP,
						  "MP_REACH_NLRI next hop is not a valid host "
						  "address");
			/* IPv4 unicast routes always find their next hop in attr->nexthop; with
			 * NLRI in the NLRI field too, that is NEXT_HOP's (RFC 4760 3) and the
			 * UPDATE decoder gives these prefixes their own set if they differ. */
			if (!st->nlri) {
				attr->nexthop = nh4;
				attr->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
			}
		}
	}
	bgp_attr_set_mp_nh(attr, &st->ap->extra, nhlen, &global, &local);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_mp_unreach(struct attr_state *st, struct stream *v)
{
	uint16_t afi = 0;
	uint8_t safi = 0;
	int af;

	stream_get_u16(v, &afi);
	stream_get_u8(v, &safi);
	st->ap->mp_unreach = true;
	af = bgp_af_from_afi_safi(afi, safi);
	st->ap->mp_unreach_af = af;
	if (af < 0)
		return BGP_ACT_NONE;
	if (!bgp_nlri_valid(stream_pnt(v), stream_readable(v), af))
		return mp_error(st, "MP_UNREACH_NLRI carries a malformed prefix (RFC 7606 5.3)");
	stream_get_sub(v, stream_readable(v), &st->ap->mp_unreach_nlri);
	return BGP_ACT_NONE;
}

/* Append the current attribute to the transit list with the given flags. */
static void transit_add(struct attr_state *st, uint8_t flags, const uint8_t *val, size_t len)
{
	uint8_t *d = bgp_transit_key_data();
	size_t need = len + (len > 255 ? 4 : 3);

	if (st->transit_len + need > BGP_TRANSIT_MAX)
		return; /* cannot happen: the attributes came in one message */
	if (st->transit_len && st->code < st->transit_last)
		st->transit_unsorted = true;
	st->transit_last = st->code;
	d += st->transit_len;
	if (len > 255) {
		d[0] = flags | BGP_ATTR_FLAG_EXTLEN;
		d[1] = st->code;
		d[2] = (uint8_t)(len >> 8);
		d[3] = (uint8_t)len;
		d += 4;
	} else {
		d[0] = flags & (uint8_t)~BGP_ATTR_FLAG_EXTLEN;
		d[1] = st->code;
		d[2] = (uint8_t)len;
		d += 3;
	}
	if (len)
		memcpy(d, val, len);
	st->transit_len += need;
}

static enum bgp_attr_action dec_ext_communities(struct attr_state *st, struct stream *v)
{
	uint32_t *vals = bgp_ecommlist_key_vals(), n = (uint32_t)(stream_readable(v) / 8), i;

	for (i = 0; i < 2 * n; i++)
		stream_get_u32(v, &vals[i]);
	/* A set, as FRR keeps it (ecommunity_parse()): sorted in wire order, no repeats. */
	n = bgp_ecomm_sort_uniq(vals, n);
	st->ap->extra.ecommunities = bgp_ecommlist_intern(vals, n);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_as4_path(struct attr_state *st, struct stream *v)
{
	const char *reason = NULL;
	size_t len = 0;

	/* RFC 6793 3: between two NEW speakers AS4_PATH is not used; discard it. */
	if (st->ctx->as4)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_OPTIONAL_ATTR,
				  "AS4_PATH from a 4-octet AS peer (RFC 6793 3)");
	/* RFC 6793 6 and RFC 7606 4: a malformed AS4_PATH is discarded. */
	if (!stream_readable(v))
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_ATTR_LENGTH,
				  "AS4_PATH of length zero (RFC 7606 4)");
	if (bgp_aspath_wire_parse(stream_pnt(v), stream_readable(v), 4, true, as4_buf, &len,
				  &reason) < 0)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_MALFORMED_AS_PATH, reason);
	st->as4_path = true;
	st->as4_len = len;
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_as4_aggregator(struct attr_state *st, struct stream *v)
{
	if (st->ctx->as4)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_OPTIONAL_ATTR,
				  "AS4_AGGREGATOR from a 4-octet AS peer (RFC 6793 3)");
	stream_get_u32(v, &st->as4_agg_as);
	stream_get_bytes(v, &st->as4_agg_addr, 4);
	if (st->as4_agg_as == 0)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_OPTIONAL_ATTR,
				  "AS4_AGGREGATOR with AS 0 (RFC 7607 2)");
	st->as4_agg = true;
	return BGP_ACT_NONE;
}

static enum bgp_attr_action dec_large_communities(struct attr_state *st, struct stream *v)
{
	uint32_t *vals = bgp_lcommlist_key_vals(), n = (uint32_t)(stream_readable(v) / 12), i;

	for (i = 0; i < 3 * n; i++)
		stream_get_u32(v, &vals[i]);
	/* A set, like COMMUNITIES: sorted and without repeats, as FRR (lcommunity_parse()). */
	n = bgp_lcomm_sort_uniq(vals, n);
	st->ap->extra.lcommunities = bgp_lcommlist_intern(vals, n);
	st->ap->attr.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	return BGP_ACT_NONE;
}

/* ======================================================================================
 * Encoders: write the attribute if attr carries it; 0 or -1 when the stream is full.
 * ====================================================================================== */

struct attr_enc {
	const struct bgp_attr *attr;
	const struct bgp_attr_extra *ex; /* bgp_attr_ex(attr) */
	const struct bgp_codec_ctx *ctx;
	enum bgp_af af;
	bool as4_path; /* AS_PATH had to use AS_TRANS: add AS4_PATH (RFC 6793 4.2.2) */
	bool as4_agg;  /* AGGREGATOR had to use AS_TRANS: add AS4_AGGREGATOR */
};

int bgp_attr_put_header(struct stream *s, uint8_t flags, uint8_t code, size_t len)
{
	if (len > 65535)
		return -1;
	if (len > 255) {
		if (stream_writable(s) < 4 + len)
			return -1;
		stream_put_u8(s, flags | BGP_ATTR_FLAG_EXTLEN);
		stream_put_u8(s, code);
		stream_put_u16(s, (uint16_t)len);
		return 0;
	}
	if (stream_writable(s) < 3 + len)
		return -1;
	stream_put_u8(s, flags & (uint8_t)~BGP_ATTR_FLAG_EXTLEN);
	stream_put_u8(s, code);
	stream_put_u8(s, (uint8_t)len);
	return 0;
}

static int put_u32_attr(struct stream *s, uint8_t flags, uint8_t code, uint32_t v)
{
	if (bgp_attr_put_header(s, flags, code, 4) < 0)
		return -1;
	return stream_put_u32(s, v);
}

static int put_addr_attr(struct stream *s, uint8_t flags, uint8_t code, struct in_addr a)
{
	if (bgp_attr_put_header(s, flags, code, 4) < 0)
		return -1;
	return stream_put_bytes(s, &a, 4);
}

static int put_u32list_attr(struct stream *s, uint8_t flags, uint8_t code, const uint32_t *val,
			    size_t n)
{
	size_t i;

	if (bgp_attr_put_header(s, flags, code, n * 4) < 0)
		return -1;
	for (i = 0; i < n; i++)
		stream_put_u32(s, val[i]);
	return 0;
}

static int enc_origin(struct stream *s, struct attr_enc *e)
{
	if (bgp_attr_put_header(s, WELL_KNOWN, BGP_ATTR_ORIGIN, 1) < 0)
		return -1;
	return stream_put_u8(s, e->attr->origin);
}

static int enc_as_path(struct stream *s, struct attr_enc *e)
{
	static const struct bgp_aspath empty = { 0 };

	return bgp_aspath_encode(s, e->attr->aspath ? e->attr->aspath : &empty, e->ctx->as4,
				 &e->as4_path);
}

static int enc_next_hop(struct stream *s, struct attr_enc *e)
{
	/* IPv6 and MP-carried families take their next hop in MP_REACH_NLRI. */
	if (e->af != BGP_AF_IPV4_UNICAST)
		return 0;
	return put_addr_attr(s, WELL_KNOWN, BGP_ATTR_NEXT_HOP, e->attr->nexthop);
}

static int enc_med(struct stream *s, struct attr_enc *e)
{
	if (!(e->attr->present & ATTR_BIT(BGP_ATTR_MED)))
		return 0;
	return put_u32_attr(s, OPT_NONTRANS, BGP_ATTR_MED, e->attr->med);
}

static int enc_local_pref(struct stream *s, struct attr_enc *e)
{
	if (!(e->attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)))
		return 0;
	return put_u32_attr(s, WELL_KNOWN, BGP_ATTR_LOCAL_PREF, e->attr->local_pref);
}

static int enc_atomic_aggregate(struct stream *s, struct attr_enc *e)
{
	if (!e->attr->atomic_aggregate)
		return 0;
	return bgp_attr_put_header(s, WELL_KNOWN, BGP_ATTR_ATOMIC_AGGREGATE, 0);
}

static int enc_aggregator(struct stream *s, struct attr_enc *e)
{
	uint32_t as = e->ex->aggregator_as;

	if (!(e->attr->present & ATTR_BIT(BGP_ATTR_AGGREGATOR)))
		return 0;
	if (e->ctx->as4) {
		if (bgp_attr_put_header(s, OPT_TRANS, BGP_ATTR_AGGREGATOR, 8) < 0)
			return -1;
		stream_put_u32(s, as);
	} else {
		if (bgp_attr_put_header(s, OPT_TRANS, BGP_ATTR_AGGREGATOR, 6) < 0)
			return -1;
		if (as > UINT16_MAX) {
			as = BGP_AS_TRANS; /* RFC 6793 4.2.2 */
			e->as4_agg = true;
		}
		stream_put_u16(s, (uint16_t)as);
	}
	return stream_put_bytes(s, &e->ex->aggregator_addr, 4);
}

static int enc_communities(struct stream *s, struct attr_enc *e)
{
	const struct bgp_u32list *l = e->attr->communities;

	if (!l || !l->count)
		return 0;
	return put_u32list_attr(s, OPT_TRANS, BGP_ATTR_COMMUNITIES, l->val, l->count);
}

static int enc_originator_id(struct stream *s, struct attr_enc *e)
{
	if (!(e->attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)))
		return 0;
	return put_addr_attr(s, OPT_NONTRANS, BGP_ATTR_ORIGINATOR_ID, e->ex->originator_id);
}

static int enc_cluster_list(struct stream *s, struct attr_enc *e)
{
	const struct bgp_u32list *l = e->ex->cluster_list;

	if (!l || !l->count)
		return 0;
	return put_u32list_attr(s, OPT_NONTRANS, BGP_ATTR_CLUSTER_LIST, l->val, l->count);
}

static int enc_as4_path(struct stream *s, struct attr_enc *e)
{
	if (e->ctx->as4 || !e->as4_path || !e->attr->aspath)
		return 0;
	return bgp_aspath_encode_as4(s, e->attr->aspath);
}

static int enc_as4_aggregator(struct stream *s, struct attr_enc *e)
{
	if (e->ctx->as4 || !e->as4_agg)
		return 0;
	if (bgp_attr_put_header(s, OPT_TRANS, BGP_ATTR_AS4_AGGREGATOR, 8) < 0)
		return -1;
	stream_put_u32(s, e->ex->aggregator_as);
	return stream_put_bytes(s, &e->ex->aggregator_addr, 4);
}

static int enc_ext_communities(struct stream *s, struct attr_enc *e)
{
	const struct bgp_ecommlist *l = e->ex->ecommunities;

	if (!l || !l->count)
		return 0;
	return put_u32list_attr(s, OPT_TRANS, BGP_ATTR_EXT_COMMUNITIES, l->val,
				(size_t)l->count * 2);
}

static int enc_large_communities(struct stream *s, struct attr_enc *e)
{
	const struct bgp_lcommlist *l = e->ex->lcommunities;

	if (!l || !l->count)
		return 0;
	return put_u32list_attr(s, OPT_TRANS, BGP_ATTR_LARGE_COMMUNITIES, l->val,
				(size_t)l->count * 3);
}

/* ======================================================================================
 * Printers: append ", name value" for an attribute attr carries.
 * ====================================================================================== */

struct out {
	char *buf;
	size_t size, len;
};

static void out_add(struct out *o, const char *fmt, ...) SKUA_PRINTF(2, 3);
static void out_add(struct out *o, const char *fmt, ...)
{
	size_t at = MIN(o->len, o->size - 1);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + at, o->size - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static const char *sep(const struct out *o)
{
	return o->len ? ", " : "";
}

static void prt_origin(struct out *o, const struct bgp_attr *a)
{
	static const char *const codes[] = { "i", "e", "?" };

	if (a->present & ATTR_BIT(BGP_ATTR_ORIGIN))
		out_add(o, "%sorigin %s", sep(o), a->origin <= 2 ? codes[a->origin] : "?");
}

static void prt_as_path(struct out *o, const struct bgp_attr *a)
{
	char path[512];

	if (!a->aspath)
		return;
	if (bgp_aspath_to_str(a->aspath, path, sizeof(path)) < 0)
		strcpy(path + sizeof(path) - 4, "...");
	out_add(o, "%spath %s", sep(o), path);
}

static void prt_next_hop(struct out *o, const struct bgp_attr *a)
{
	char s[INET_ADDRSTRLEN];

	if (a->present & ATTR_BIT(BGP_ATTR_NEXT_HOP))
		out_add(o, "%snexthop %s", sep(o), inet_ntop(AF_INET, &a->nexthop, s, sizeof(s)));
}

static void prt_med(struct out *o, const struct bgp_attr *a)
{
	if (a->present & ATTR_BIT(BGP_ATTR_MED))
		out_add(o, "%smetric %u", sep(o), a->med);
}

static void prt_local_pref(struct out *o, const struct bgp_attr *a)
{
	if (a->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		out_add(o, "%slocalpref %u", sep(o), a->local_pref);
}

static void prt_atomic_aggregate(struct out *o, const struct bgp_attr *a)
{
	if (a->atomic_aggregate)
		out_add(o, "%satomic-aggregate", sep(o));
}

static void prt_aggregator(struct out *o, const struct bgp_attr *a)
{
	char s[INET_ADDRSTRLEN];

	if (a->present & ATTR_BIT(BGP_ATTR_AGGREGATOR))
		out_add(o, "%saggregated by %u %s", sep(o), bgp_attr_ex(a)->aggregator_as,
			inet_ntop(AF_INET, &bgp_attr_ex(a)->aggregator_addr, s, sizeof(s)));
}

static void prt_communities(struct out *o, const struct bgp_attr *a)
{
	char s[512];

	if (!a->communities)
		return;
	if (bgp_u32list_community_str(a->communities, s, sizeof(s)) < 0)
		strcpy(s + sizeof(s) - 4, "...");
	out_add(o, "%scommunity %s", sep(o), s);
}

static void prt_originator_id(struct out *o, const struct bgp_attr *a)
{
	char s[INET_ADDRSTRLEN];

	if (a->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID))
		out_add(o, "%soriginator %s", sep(o),
			inet_ntop(AF_INET, &bgp_attr_ex(a)->originator_id, s, sizeof(s)));
}

static void prt_cluster_list(struct out *o, const struct bgp_attr *a)
{
	char s[512];

	if (!bgp_attr_ex(a)->cluster_list)
		return;
	if (bgp_u32list_addr_str(bgp_attr_ex(a)->cluster_list, s, sizeof(s)) < 0)
		strcpy(s + sizeof(s) - 4, "...");
	out_add(o, "%sclusterlist %s", sep(o), s);
}

static void prt_mp_reach(struct out *o, const struct bgp_attr *a)
{
	char g[INET6_ADDRSTRLEN], l[INET6_ADDRSTRLEN];

	if (a->mp_nh_len == 16)
		out_add(o, "%smp_nexthop %s", sep(o),
			inet_ntop(AF_INET6, bgp_attr_mp_nh_global(a), g, sizeof(g)));
	else if (a->mp_nh_len == 32)
		out_add(o, "%smp_nexthop %s(%s)", sep(o),
			inet_ntop(AF_INET6, bgp_attr_mp_nh_global(a), g, sizeof(g)),
			inet_ntop(AF_INET6, bgp_attr_mp_nh_local(a), l, sizeof(l)));
}

static void prt_ext_communities(struct out *o, const struct bgp_attr *a)
{
	char s[512];

	if (!bgp_attr_ex(a)->ecommunities)
		return;
	if (bgp_ecommlist_str(bgp_attr_ex(a)->ecommunities, s, sizeof(s)) < 0)
		strcpy(s + sizeof(s) - 4, "...");
	out_add(o, "%sextcommunity %s", sep(o), s);
}

static void prt_large_communities(struct out *o, const struct bgp_attr *a)
{
	char s[512];

	if (!bgp_attr_ex(a)->lcommunities)
		return;
	if (bgp_lcommlist_str(bgp_attr_ex(a)->lcommunities, s, sizeof(s)) < 0)
		strcpy(s + sizeof(s) - 4, "...");
	out_add(o, "%slarge-community %s", sep(o), s);
}

/* ======================================================================================
 * The descriptor table
 * ====================================================================================== */

enum len_rule {
	LEN_FIXED,	/* exactly len */
	LEN_MULT,	/* a non-zero multiple of len */
	LEN_MIN,	/* at least len */
	LEN_ANY,	/* checked by the decoder */
	LEN_AGGREGATOR, /* 8 with 4-octet AS, else 6 (RFC 7606 7.7) */
};

struct attr_desc {
	const char *name;
	uint8_t flags; /* expected Optional and Transitive bits */
	enum len_rule len_rule;
	uint16_t len;
	enum bgp_attr_action on_error; /* RFC 7606 approach for a malformed instance */
	uint8_t len_subcode;	       /* RFC 4271 subcode for a length error */
	bool ibgp_only;		       /* from an external peer: attribute discard */
	bool nlri_field_only;	       /* errors matter only with NLRI in the NLRI field */
	enum bgp_attr_action (*decode)(struct attr_state *st, struct stream *v);
	int (*encode)(struct stream *s, struct attr_enc *e);
	void (*print)(struct out *o, const struct bgp_attr *a);
};

static const struct attr_desc attr_table[256] = {
	/* RFC 7606 7.1 */
	[BGP_ATTR_ORIGIN] = {
		.name = "ORIGIN",
		.flags = WELL_KNOWN,
		.len_rule = LEN_FIXED,
		.len = 1,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.decode = dec_origin,
		.encode = enc_origin,
		.print = prt_origin,
	},
	/* RFC 7606 7.2 */
	[BGP_ATTR_AS_PATH] = {
		.name = "AS_PATH",
		.flags = WELL_KNOWN,
		.len_rule = LEN_ANY,
		.len = 0,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.decode = dec_as_path,
		.encode = enc_as_path,
		.print = prt_as_path,
	},
	/* RFC 7606 7.3; RFC 4760 3 makes it irrelevant without NLRI in the NLRI field */
	[BGP_ATTR_NEXT_HOP] = {
		.name = "NEXT_HOP",
		.flags = WELL_KNOWN,
		.len_rule = LEN_FIXED,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.nlri_field_only = true,
		.decode = dec_next_hop,
		.encode = enc_next_hop,
		.print = prt_next_hop,
	},
	/* RFC 7606 7.4 */
	[BGP_ATTR_MED] = {
		.name = "MULTI_EXIT_DISC",
		.flags = OPT_NONTRANS,
		.len_rule = LEN_FIXED,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.decode = dec_med,
		.encode = enc_med,
		.print = prt_med,
	},
	/* RFC 7606 7.5 */
	[BGP_ATTR_LOCAL_PREF] = {
		.name = "LOCAL_PREF",
		.flags = WELL_KNOWN,
		.len_rule = LEN_FIXED,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.ibgp_only = true,
		.decode = dec_local_pref,
		.encode = enc_local_pref,
		.print = prt_local_pref,
	},
	/* RFC 7606 7.6 */
	[BGP_ATTR_ATOMIC_AGGREGATE] = {
		.name = "ATOMIC_AGGREGATE",
		.flags = WELL_KNOWN,
		.len_rule = LEN_FIXED,
		.len = 0,
		.on_error = BGP_ACT_DISCARD,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.decode = dec_atomic_aggregate,
		.encode = enc_atomic_aggregate,
		.print = prt_atomic_aggregate,
	},
	/* RFC 7606 7.7 */
	[BGP_ATTR_AGGREGATOR] = {
		.name = "AGGREGATOR",
		.flags = OPT_TRANS,
		.len_rule = LEN_AGGREGATOR,
		.len = 0,
		.on_error = BGP_ACT_DISCARD,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.decode = dec_aggregator,
		.encode = enc_aggregator,
		.print = prt_aggregator,
	},
	/* RFC 7606 7.8 */
	[BGP_ATTR_COMMUNITIES] = {
		.name = "COMMUNITIES",
		.flags = OPT_TRANS,
		.len_rule = LEN_MULT,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_communities,
		.encode = enc_communities,
		.print = prt_communities,
	},
	/* RFC 7606 7.9 */
	[BGP_ATTR_ORIGINATOR_ID] = {
		.name = "ORIGINATOR_ID",
		.flags = OPT_NONTRANS,
		.len_rule = LEN_FIXED,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.ibgp_only = true,
		.decode = dec_originator_id,
		.encode = enc_originator_id,
		.print = prt_originator_id,
	},
	/* RFC 7606 7.10 */
	[BGP_ATTR_CLUSTER_LIST] = {
		.name = "CLUSTER_LIST",
		.flags = OPT_NONTRANS,
		.len_rule = LEN_MULT,
		.len = 4,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_ATTR_LENGTH,
		.ibgp_only = true,
		.decode = dec_cluster_list,
		.encode = enc_cluster_list,
		.print = prt_cluster_list,
	},
	/* RFC 7606 7.11 (and 3.j, 5.3); encoded by the UPDATE builder */
	[BGP_ATTR_MP_REACH_NLRI] = {
		.name = "MP_REACH_NLRI",
		.flags = OPT_NONTRANS,
		.len_rule = LEN_MIN,
		.len = 5,
		.on_error = BGP_ACT_RESET,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_mp_reach,
		.print = prt_mp_reach,
	},
	/* RFC 7606 7.12 */
	[BGP_ATTR_MP_UNREACH_NLRI] = {
		.name = "MP_UNREACH_NLRI",
		.flags = OPT_NONTRANS,
		.len_rule = LEN_MIN,
		.len = 3,
		.on_error = BGP_ACT_RESET,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_mp_unreach,
	},
	/* RFC 7606 7.14: a non-zero multiple of 8, else treat-as-withdraw (FRR too) */
	[BGP_ATTR_EXT_COMMUNITIES] = {
		.name = "EXTENDED_COMMUNITIES",
		.flags = OPT_TRANS,
		.len_rule = LEN_MULT,
		.len = 8,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_ext_communities,
		.encode = enc_ext_communities,
		.print = prt_ext_communities,
	},
	/* RFC 6793 6: a malformed AS4_PATH or AS4_AGGREGATOR is discarded */
	[BGP_ATTR_AS4_PATH] = {
		.name = "AS4_PATH",
		.flags = OPT_TRANS,
		.len_rule = LEN_ANY,
		.len = 0,
		.on_error = BGP_ACT_DISCARD,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_as4_path,
		.encode = enc_as4_path,
	},
	[BGP_ATTR_AS4_AGGREGATOR] = {
		.name = "AS4_AGGREGATOR",
		.flags = OPT_TRANS,
		.len_rule = LEN_FIXED,
		.len = 8,
		.on_error = BGP_ACT_DISCARD,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_as4_aggregator,
		.encode = enc_as4_aggregator,
	},
	/* RFC 8092 6: a non-zero multiple of 12, else treat-as-withdraw */
	[BGP_ATTR_LARGE_COMMUNITIES] = {
		.name = "LARGE_COMMUNITIES",
		.flags = OPT_TRANS,
		.len_rule = LEN_MULT,
		.len = 12,
		.on_error = BGP_ACT_WITHDRAW,
		.len_subcode = BGP_ERR_UPD_OPTIONAL_ATTR,
		.decode = dec_large_communities,
		.encode = enc_large_communities,
		.print = prt_large_communities,
	},
};

const char *bgp_attr_name(uint8_t code)
{
	return attr_table[code].name;
}

static bool len_ok(const struct attr_desc *d, const struct bgp_codec_ctx *ctx, size_t len)
{
	switch (d->len_rule) {
	case LEN_FIXED:
		return len == d->len;
	case LEN_MULT:
		return len && len % d->len == 0;
	case LEN_MIN:
		return len >= d->len;
	case LEN_ANY:
		return true;
	case LEN_AGGREGATOR:
		return len == (ctx->as4 ? 8u : 6u);
	}
	return false;
}

/* ======================================================================================
 * Parsing the attribute section
 * ====================================================================================== */

static enum bgp_attr_action parse_one(struct attr_state *st, struct stream *v)
{
	const struct attr_desc *d = &attr_table[st->code];
	enum bgp_attr_action act;
	bool dup = seen_test_set(st, st->code);

	st->ap->count++;
	/* RFC 7606 3.g */
	if (dup) {
		if (st->code == BGP_ATTR_MP_REACH_NLRI || st->code == BGP_ATTR_MP_UNREACH_NLRI)
			return attr_error(st, BGP_ACT_RESET, BGP_ERR_UPD_MALFORMED_ATTR_LIST,
					  "MP_REACH_NLRI or MP_UNREACH_NLRI more than once "
					  "(RFC 7606 3.g)");
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_MALFORMED_ATTR_LIST,
				  "attribute repeated: all but the first discarded (RFC 7606 3.g)");
	}

	if (!d->name) {
		/* RFC 4271 6.3: an unrecognized well-known attribute cannot be ignored. */
		if (!(st->flags & BGP_ATTR_FLAG_OPTIONAL))
			return attr_error(st, BGP_ACT_RESET, BGP_ERR_UPD_UNRECOGNIZED_WELLKNOWN,
					  "unrecognized well-known attribute");
		/* RFC 4271 5: an unrecognized optional transitive attribute is passed on with
		 * the Partial bit set; a non-transitive one is dropped quietly. */
		if (st->flags & BGP_ATTR_FLAG_TRANSITIVE)
			transit_add(st, st->flags | BGP_ATTR_FLAG_PARTIAL, stream_pnt(v),
				    stream_readable(v));
		return BGP_ACT_NONE;
	}

	/* RFC 7606 7.5, 7.9, 7.10: iBGP-only attributes from an external peer are discarded,
	 * whatever their shape. */
	if (d->ibgp_only && st->ctx->ebgp)
		return attr_error(st, BGP_ACT_DISCARD, BGP_ERR_UPD_OPTIONAL_ATTR,
				  "attribute only valid from an internal peer, discarded "
				  "(RFC 7606 7.5/7.9/7.10)");

	/* RFC 7606 3.c: wrong Optional/Transitive bits make the attribute malformed, handled as
	 * the attribute's own errors are (3.e/3.f); RFC 4271's Attribute Flags Error subcode is
	 * what a session reset sends. */
	if ((st->flags & FLAGS_OT) != d->flags) {
		act = d->on_error;
		if (d->nlri_field_only && !st->nlri)
			act = BGP_ACT_DISCARD;
		return attr_error(st, act, BGP_ERR_UPD_ATTR_FLAGS,
				  "attribute flags conflict with its type (RFC 7606 3.c)");
	}

	/* Length rule; a zero length is an error for all but AS_PATH and ATOMIC_AGGREGATE
	 * (RFC 7606 4), which the rules encode. */
	if (!len_ok(d, st->ctx, stream_readable(v))) {
		act = d->on_error;
		if (d->nlri_field_only && !st->nlri)
			act = BGP_ACT_DISCARD;
		return attr_error(st, act, d->len_subcode,
				  "attribute length invalid for its type (RFC 7606 7)");
	}
	return d->decode(st, v);
}

/* RFC 6793 4.2.3: reconcile AS_PATH with AS4_PATH and AGGREGATOR with AS4_AGGREGATOR. */
static void as4_reconcile(struct attr_state *st)
{
	struct bgp_attr *attr = &st->ap->attr;
	struct bgp_attr_extra *ex = &st->ap->extra;
	bool use_as4_path = st->as4_path;
	size_t len = 0;

	if (attr->present & ATTR_BIT(BGP_ATTR_AGGREGATOR)) {
		if (ex->aggregator_as != BGP_AS_TRANS) {
			/* The aggregating speaker was old: nothing after it is 4-octet. */
			use_as4_path = false;
		} else if (st->as4_agg) {
			ex->aggregator_as = st->as4_agg_as;
			ex->aggregator_addr = st->as4_agg_addr;
		}
	}
	if (!st->as2_path)
		return;
	if (use_as4_path)
		bgp_aspath_as4_merge(as2_buf, st->as2_len, as4_buf, st->as4_len,
				     bgp_aspath_key_data(), &len);
	else
		memcpy(bgp_aspath_key_data(), as2_buf, (len = st->as2_len));
	attr->aspath = bgp_aspath_intern_data(bgp_aspath_key_data(), len);
}

static void transit_sort(uint8_t *d, size_t len)
{
	struct {
		uint8_t code;
		size_t off, len;
	} e[256], t;
	uint8_t *tmp;
	size_t n = 0, i, j, o;

	/* Rare (senders order attributes, RFC 4271 5): an insertion sort on a copy. */
	for (i = 0; i < len && n < 256; n++) {
		e[n].code = d[i + 1];
		e[n].off = i;
		e[n].len = (d[i] & BGP_ATTR_FLAG_EXTLEN) ? 4 + ((size_t)d[i + 2] << 8 | d[i + 3])
							 : 3 + (size_t)d[i + 2];
		i += e[n].len;
	}
	for (i = 1; i < n; i++) {
		t = e[i];
		for (j = i; j > 0 && e[j - 1].code > t.code; j--)
			e[j] = e[j - 1];
		e[j] = t;
	}
	tmp = XMALLOC(MTYPE_BGP_TRANSIT, len);
	for (i = 0, o = 0; i < n; i++) {
		memcpy(tmp + o, d + e[i].off, e[i].len);
		o += e[i].len;
	}
	memcpy(d, tmp, len);
	XFREE(MTYPE_BGP_TRANSIT, tmp);
}

int bgp_attr_parse(struct bgp_attr_parse *ap, const uint8_t *data, size_t len,
		   const struct bgp_codec_ctx *ctx, bool nlri, struct bgp_error *err)
{
	struct attr_state st;
	struct stream s, v;
	uint16_t alen;
	uint8_t l8;
	bool reach;

	memset(ap, 0, sizeof(*ap));
	ap->attr.extra = &ap->extra;
	ap->mp_reach_af = -1;
	ap->mp_unreach_af = -1;
	memset(&st, 0, sizeof(st));
	st.ap = ap;
	st.ctx = ctx;
	st.nlri = nlri;

	stream_init_reader(&s, data, len);
	while (stream_readable(&s)) {
		size_t start = s.getp;

		st.raw = data + start;
		st.raw_len = stream_readable(&s);
		st.code = 0;
		/* RFC 7606 4: a header or a length that overruns the section is
		 * treat-as-withdraw; the Total Attribute Length still locates the NLRI. */
		if (stream_get_u8(&s, &st.flags) < 0 || stream_get_u8(&s, &st.code) < 0) {
			st.overrun = true;
			attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_ATTR_LENGTH,
				   "attribute header overruns the attribute section (RFC 7606 4)");
			break;
		}
		if (st.flags & BGP_ATTR_FLAG_EXTLEN) {
			if (stream_get_u16(&s, &alen) < 0) {
				st.overrun = true;
				attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_ATTR_LENGTH,
					   "attribute header overruns the attribute section "
					   "(RFC 7606 4)");
				break;
			}
		} else {
			if (stream_get_u8(&s, &l8) < 0) {
				st.overrun = true;
				attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_ATTR_LENGTH,
					   "attribute header overruns the attribute section "
					   "(RFC 7606 4)");
				break;
			}
			alen = l8;
		}
		if (stream_get_sub(&s, alen, &v) < 0) {
			st.overrun = true;
			attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_ATTR_LENGTH,
				   "attribute length overruns the attribute section (RFC 7606 4)");
			break;
		}
		st.raw_len = s.getp - start;
		if (parse_one(&st, &v) == BGP_ACT_RESET)
			goto reset;
	}

	if (!ctx->as4)
		as4_reconcile(&st);

	/* What follows only matters when something is announced in a family we handle. */
	reach = nlri || (ap->mp_reach && ap->mp_reach_af >= 0);
	st.raw = NULL;
	st.raw_len = 0;
	if (reach && ap->attr.aspath && ctx->ebgp) {
		/* RFC 5065 5: confederation segments never come from outside; RFC 7606 7.2
		 * makes the AS_PATH malformed. */
		st.code = BGP_ATTR_AS_PATH;
		if (bgp_aspath_has_confed(ap->attr.aspath))
			attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_MALFORMED_AS_PATH,
				   "AS_PATH from an external peer carries confederation segments");
		/* RFC 4271 6.3 leftmost AS check; RFC 7606 7.2 says treat-as-withdraw. */
		else if (ctx->peer_as && bgp_aspath_leftmost(ap->attr.aspath) != ctx->peer_as)
			attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_MALFORMED_AS_PATH,
				   "AS_PATH does not start with the peer's AS (RFC 4271 6.3)");
	}
	if (reach) {
		/* RFC 7606 3.d: missing well-known mandatory attributes; the data is the
		 * missing type code. NEXT_HOP only with NLRI in the NLRI field (RFC 4760). */
		static const uint8_t mandatory[] = { BGP_ATTR_ORIGIN, BGP_ATTR_AS_PATH,
						     BGP_ATTR_NEXT_HOP };
		size_t i;

		for (i = 0; i < array_size(mandatory); i++) {
			if (seen_test(&st, mandatory[i]))
				continue;
			if (mandatory[i] == BGP_ATTR_NEXT_HOP && !nlri)
				continue;
			st.code = mandatory[i];
			st.raw = &mandatory[i];
			st.raw_len = 1;
			attr_error(&st, BGP_ACT_WITHDRAW, BGP_ERR_UPD_MISSING_WELLKNOWN,
				   "well-known mandatory attribute missing (RFC 7606 3.d)");
		}
	}
	/*
	 * RFC 7606 5.2: attributes (other than MP_UNREACH_NLRI alone) with no reachable NLRI
	 * give no confidence that the NLRI were found, so any error stronger than a discard
	 * resets the session.
	 */
	if (ap->action >= BGP_ACT_WITHDRAW && !nlri && !ap->mp_reach && len &&
	    !(ap->mp_unreach && ap->count == 1 && !st.overrun)) {
		ap->action = BGP_ACT_RESET;
		goto reset;
	}

	if (ap->action == BGP_ACT_WITHDRAW) {
		bgp_attr_parse_release(ap);
		return 0;
	}
	if (st.transit_len) {
		if (st.transit_unsorted)
			transit_sort(bgp_transit_key_data(), st.transit_len);
		ap->extra.transit = bgp_transit_intern(st.transit_len);
	}
	return 0;

reset:
	*err = ap->err;
	bgp_attr_parse_release(ap);
	return -1;
}

void bgp_attr_parse_release(struct bgp_attr_parse *ap)
{
	struct bgp_attr *a = &ap->attr;
	struct bgp_attr_extra *ex = &ap->extra;

	bgp_aspath_unref(a->aspath);
	bgp_u32list_unref(a->communities);
	bgp_u32list_unref(ex->cluster_list);
	bgp_lcommlist_unref(ex->lcommunities);
	bgp_ecommlist_unref(ex->ecommunities);
	bgp_transit_unref(ex->transit);
	a->aspath = NULL;
	a->communities = NULL;
	ex->cluster_list = NULL;
	ex->lcommunities = NULL;
	ex->ecommunities = NULL;
	ex->transit = NULL;
}

/* ======================================================================================
 * Encoding
 * ====================================================================================== */

static int transit_put_below(struct stream *s, const struct bgp_transit *t, size_t *pos,
			     unsigned below)
{
	size_t n;

	while (t && *pos < t->len && t->data[*pos + 1] < below) {
		n = (t->data[*pos] & BGP_ATTR_FLAG_EXTLEN)
			    ? 4 + ((size_t)t->data[*pos + 2] << 8 | t->data[*pos + 3])
			    : 3 + (size_t)t->data[*pos + 2];
		if (stream_put_bytes(s, t->data + *pos, n) < 0)
			return -1;
		*pos += n;
	}
	return 0;
}

/* The codes attr_table can encode, ascending, found on first use: the encoder visits these
 * 14 rather than all 255 rows (the walk of the 16 KiB table was most of its own time). */
static uint8_t enc_codes[256];
static unsigned enc_ncodes;

static void enc_codes_init(void)
{
	for (unsigned code = 1; code < 256; code++)
		if (attr_table[code].encode)
			enc_codes[enc_ncodes++] = (uint8_t)code;
}

int bgp_attr_encode(struct stream *s, const struct bgp_attr *attr, const struct bgp_codec_ctx *ctx,
		    enum bgp_af af)
{
	struct attr_enc e = { .attr = attr, .ex = bgp_attr_ex(attr), .ctx = ctx, .af = af };
	const struct bgp_transit *transit = e.ex->transit;
	size_t tpos = 0;

	if (!enc_ncodes)
		enc_codes_init();
	/* RFC 4271 5: in ascending type code order, unknown transitive ones merged in (those
	 * below the next code we encode go first). */
	for (unsigned i = 0; i < enc_ncodes; i++) {
		uint8_t code = enc_codes[i];

		if (transit_put_below(s, transit, &tpos, code) < 0 ||
		    attr_table[code].encode(s, &e) < 0)
			return -1;
	}
	return transit_put_below(s, transit, &tpos, 256);
}

int bgp_attr_to_str(const struct bgp_attr *attr, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	unsigned code;

	if (!size)
		return -1;
	buf[0] = '\0';
	if (!attr)
		return 0;
	for (code = 0; code < 256; code++)
		if (attr_table[code].print)
			attr_table[code].print(&o, attr);
	if (bgp_attr_ex(attr)->transit)
		out_add(&o, "%sunknown attributes %u bytes", sep(&o),
			bgp_attr_ex(attr)->transit->len);
	return o.len >= size ? -1 : (int)o.len;
}
