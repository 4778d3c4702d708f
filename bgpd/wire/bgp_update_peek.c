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

#include "bgpd/wire/bgp_update.h"

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

	stream_init_reader(&s, body, len);
	if (stream_get_u16(&s, &wlen) < 0 || stream_get_sub(&s, wlen, &run) < 0)
		return true;
	if (!peek_nlri(&run, BGP_AF_IPV4_UNICAST, pk))
		return false;
	if (stream_get_u16(&s, &alen) < 0 || stream_get_sub(&s, alen, &run) < 0)
		return true;
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
		if ((code == BGP_ATTR_MP_REACH_NLRI || code == BGP_ATTR_MP_UNREACH_NLRI) &&
		    !peek_mp(&v, code == BGP_ATTR_MP_REACH_NLRI, pk))
			return false;
	}
	/* What is left after the attributes is the IPv4 NLRI field. */
	return peek_nlri(&s, BGP_AF_IPV4_UNICAST, pk);
}
