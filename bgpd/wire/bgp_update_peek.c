/* SPDX-License-Identifier: ISC */
/*
 * The prefixes of UPDATEs still waiting in the input buffer, read from their raw bytes ahead
 * of their decode: a hint that lets the RIB fetch the prefix tree's descents of many UPDATEs
 * at once (rib_prefetch()). A full table comes 2 or 3 prefixes per UPDATE, far apart in the
 * tree, so fetching one UPDATE's descents together overlaps only 2 or 3 runs of cache misses;
 * sixteen prefixes from the next UPDATEs overlap sixteen.
 *
 * Nothing here is trusted: the walk stays inside the body it is given, stops at the first
 * thing that does not parse, and judges nothing. The UPDATE's real decode
 * (bgp_update_decode()) decides what the message means, RFC 7606 included; a prefix peeked
 * here that the decode refuses has only been brought into the cache for nothing.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_update.h"
#include "bgpd/wire/bgp_vstore.h"

void bgp_update_peek_start(struct bgp_update_peek *pk, bool as4, bool ebgp)
{
	memset(pk->n, 0, sizeof(pk->n));
	pk->nsets = 0;
	pk->as4 = as4;
	pk->ebgp = ebgp;
}

/*
 * The hashes of an UPDATE's AS_PATH and COMMUNITIES, as the stores will compute them once the
 * decode has judged the attributes: the announcement's interning was a chain of cache misses
 * per UPDATE, the first of each the store's index slot (2 MiB per store at a full table).
 * Loading the slots of the next UPDATEs now takes that miss off the chain. The values are
 * not checked: a malformed one gives a hash nothing is filed under, and only a useless load.
 */
static void peek_aspath(struct stream *v, struct bgp_peek_set *set, bool as4)
{
	/* The stored form, as the decode makes it: 4-octet numbers in host order. From 4-octet
	 * wire numbers it is never longer than the wire's. */
	uint8_t data[BGP_VSTORE_MAX_SIZE];
	size_t len = stream_readable(v), out;
	const char *reason;

	/* A 2-octet session's paths are widened (and merged with AS4_PATH) before interning;
	 * the long ones live outside the store (and their hash would cost more than a miss). */
	if (!as4 || len > sizeof(data))
		return;
	if (bgp_aspath_wire_parse(stream_pnt(v), len, 4, false, data, &out, &reason) < 0)
		return;
	set->aspath_hash = bgp_aspath_hash(data, out);
	set->aspath_len = (uint16_t)out;
	set->flags |= BGP_PEEK_F_ASPATH;
}

static void peek_communities(struct stream *v, struct bgp_peek_set *set)
{
	uint32_t val[BGP_PEEK_COMMUNITIES], n = 0;

	/* The decode refuses a length that is not a multiple of 4 (or is 0). */
	if (stream_readable(v) % 4 || stream_readable(v) / 4 > BGP_PEEK_COMMUNITIES)
		return;
	while (stream_get_u32(v, &val[n]) == 0)
		n++;
	if (!n)
		return;
	n = bgp_u32list_set(val, n);
	set->comm_hash = bgp_u32list_hash(val, n);
	set->comm_count = (uint8_t)n;
	set->flags |= BGP_PEEK_F_COMMUNITIES;
}

/*
 * Fold one attribute (its value v, a copy: the caller's is read again) into t, the set the
 * decode will intern, as far as the attributes its hash covers go. False for anything that
 * would go to the extras (which the set names by the interned block's address) or that the
 * decode would not take as it is (a repeat, a length its rule refuses): the set's hash is
 * then not guessed. A guess that is wrong anyway (flags the decode refuses, say) only loads
 * a slot for nothing.
 */
static bool peek_plain(struct stream v, uint8_t code, struct bgp_attr *t, bool ebgp)
{
	size_t len = stream_readable(&v);
	uint32_t u32 = 0;
	uint8_t u8 = 0;

	if (code >= 40 || (t->present & ATTR_BIT(code)))
		return false;
	switch (code) {
	case BGP_ATTR_ORIGIN:
		if (len != 1 || stream_get_u8(&v, &u8) < 0 || u8 > BGP_ORIGIN_INCOMPLETE)
			return false;
		t->origin = u8;
		break;
	case BGP_ATTR_AS_PATH:
	case BGP_ATTR_COMMUNITIES:
		break; /* hashed by peek_aspath() and peek_communities() */
	case BGP_ATTR_NEXT_HOP:
		if (len != 4 || stream_get_bytes(&v, &t->nexthop, 4) < 0)
			return false;
		break;
	case BGP_ATTR_MED:
		if (len != 4 || stream_get_u32(&v, &u32) < 0)
			return false;
		t->med = u32;
		break;
	case BGP_ATTR_LOCAL_PREF:
		if (ebgp)
			return true; /* RFC 7606 7.5: discarded, not in the set */
		if (len != 4 || stream_get_u32(&v, &u32) < 0)
			return false;
		t->local_pref = u32;
		break;
	case BGP_ATTR_ATOMIC_AGGREGATE:
		if (len)
			return false;
		t->atomic_aggregate = 1;
		break;
	default:
		return false;
	}
	t->present |= ATTR_BIT(code);
	return true;
}

void bgp_update_peek_prefetch(const struct bgp_update_peek *pk)
{
	for (unsigned i = 0; i < pk->nsets; i++) {
		const struct bgp_peek_set *set = &pk->set[i];

		if (set->flags & BGP_PEEK_F_ASPATH)
			bgp_aspath_prefetch(set->aspath_hash, set->aspath_len);
		if (set->flags & BGP_PEEK_F_COMMUNITIES)
			bgp_u32list_prefetch(set->comm_hash, set->comm_count);
		if (set->flags & BGP_PEEK_F_SET)
			bgp_attr_prefetch_hash(set->attr_hash);
	}
}

/* Add the prefixes of one NLRI run of af; false once af's list is full. */
static bool peek_nlri(struct stream *run, enum bgp_af af, struct bgp_update_peek *pk)
{
	while (pk->n[af] < BGP_PEEK_MAX) {
		if (!bgp_nlri_next(run, af, &pk->p[af][pk->n[af]]))
			return true;
		pk->n[af]++;
	}
	return false;
}

/* MP_REACH_NLRI or MP_UNREACH_NLRI (RFC 4760 3, 4): the family, then for the former the next
 * hop and a reserved octet, then the prefixes. */
static bool peek_mp(struct stream *v, bool reach, struct bgp_update_peek *pk)
{
	uint16_t afi;
	uint8_t safi, nh_len = 0;
	int af;

	if (stream_get_u16(v, &afi) < 0 || stream_get_u8(v, &safi) < 0)
		return true;
	af = bgp_af_from_afi_safi(afi, safi);
	if (af < 0)
		return true; /* a family we do not carry */
	if (reach && (stream_get_u8(v, &nh_len) < 0 || stream_skip(v, (size_t)nh_len + 1) < 0))
		return true;
	return peek_nlri(v, (enum bgp_af)af, pk);
}

bool bgp_update_peek(const uint8_t *body, size_t len, struct bgp_update_peek *pk)
{
	struct stream s, run;
	uint16_t wlen, alen;
	/* The hashes go to the next free entry, kept only if one was read (a withdrawal has
	 * none); once the entries are full, the rest go to a scratch one. */
	struct bgp_peek_set scratch,
		*set = pk->nsets < BGP_PEEK_SETS ? &pk->set[pk->nsets] : &scratch;
	struct bgp_attr t;
	bool plain = true;

	stream_init_reader(&s, body, len);
	if (stream_get_u16(&s, &wlen) < 0 || stream_get_sub(&s, wlen, &run) < 0)
		return true;
	if (!peek_nlri(&run, BGP_AF_IPV4_UNICAST, pk))
		return false;
	if (stream_get_u16(&s, &alen) < 0 || stream_get_sub(&s, alen, &run) < 0)
		return true;
	set->flags = 0;
	set->attr_hash = 0;
	memset(&t, 0, sizeof(t));
	while (stream_readable(&run) > 0) {
		uint8_t flags, code, l8;
		uint16_t l16;
		struct stream v;

		if (stream_get_u8(&run, &flags) < 0 || stream_get_u8(&run, &code) < 0)
			return true;
		if (flags & BGP_ATTR_FLAG_EXTLEN) {
			if (stream_get_u16(&run, &l16) < 0)
				return true;
		} else {
			if (stream_get_u8(&run, &l8) < 0)
				return true;
			l16 = l8;
		}
		if (stream_get_sub(&run, l16, &v) < 0)
			return true;
		plain = plain && peek_plain(v, code, &t, pk->ebgp);
		if (code == BGP_ATTR_AS_PATH)
			peek_aspath(&v, set, pk->as4);
		else if (code == BGP_ATTR_COMMUNITIES)
			peek_communities(&v, set);
		if ((code == BGP_ATTR_MP_REACH_NLRI || code == BGP_ATTR_MP_UNREACH_NLRI) &&
		    !peek_mp(&v, code == BGP_ATTR_MP_REACH_NLRI, pk))
			return false;
	}
	/* The set's hash needs the path's and the list's (none is 0), and prefixes in the NLRI
	 * field (without, the decode ignores NEXT_HOP). */
	if (plain && (set->flags & BGP_PEEK_F_ASPATH) && stream_readable(&s) > 0 &&
	    (!(t.present & ATTR_BIT(BGP_ATTR_COMMUNITIES)) ||
	     (set->flags & BGP_PEEK_F_COMMUNITIES))) {
		set->attr_hash = bgp_attr_plain_hash(
			&t, set->aspath_hash,
			set->flags & BGP_PEEK_F_COMMUNITIES ? set->comm_hash : 0);
		set->flags |= BGP_PEEK_F_SET;
	}
	/* The attributes parsed to their end: their hashes count. */
	if (set->flags && set != &scratch)
		pk->nsets++;
	/* What is left after the attributes is the IPv4 NLRI field. */
	return peek_nlri(&s, BGP_AF_IPV4_UNICAST, pk);
}
