/* SPDX-License-Identifier: ISC */
/*
 * UPDATE messages: decoding into struct bgp_update (NLRI left in place, checked once, walked
 * by the RIB with bgp_nlri_next()) and the builder that packs prefixes into messages.
 *
 * Error handling follows RFC 7606: the fields that locate the NLRI must be consistent
 * (3.b, 5.3: session reset), the attribute section gets treat-as-withdraw or attribute
 * discard where the RFC allows (bgp_attr.c).
 */
#include "lib/compat.h"

#include <errno.h>
#include <limits.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_update.h"

DEFINE_MTYPE(BGP_NLRI_JOIN, "BGP NLRI of a mixed UPDATE");

/* ======================================================================================
 * NLRI
 * ====================================================================================== */

bool bgp_nlri_valid(const uint8_t *d, size_t len, enum bgp_af af)
{
	unsigned max = af == BGP_AF_IPV4_UNICAST ? 32 : 128;
	size_t i = 0, n;

	/* RFC 7606 5.3: a length beyond the family's maximum, or a prefix running past the
	 * end of the field, makes the field syntactically incorrect. */
	while (i < len) {
		if (d[i] > max)
			return false;
		n = ((size_t)d[i] + 7) / 8;
		if (n > len - i - 1)
			return false;
		i += 1 + n;
	}
	return true;
}

bool bgp_nlri_next(struct stream *nlri, enum bgp_af af, struct prefix *p)
{
	const uint8_t *d;
	uint8_t plen;
	size_t n;

	if (stream_readable(nlri) == 0)
		return false;
	d = stream_pnt(nlri);
	plen = d[0];
	n = ((size_t)plen + 7) / 8;
	/* Checked by the decoder already; checked again so a misuse cannot overrun. */
	if (plen > (af == BGP_AF_IPV4_UNICAST ? 32 : 128) || n + 1 > stream_readable(nlri))
		return false;
	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)bgp_af_family(af);
	p->len = plen;
	memcpy(p->u.bytes, d + 1, n);
	/* Trailing bits are irrelevant (RFC 4271 4.3): clear them. */
	if (plen & 7)
		p->u.bytes[n - 1] &= (uint8_t)(0xff << (8 - (plen & 7)));
	nlri->getp += n + 1;
	return true;
}

/* ======================================================================================
 * Decoding
 * ====================================================================================== */

/*
 * RFC 7606 5.1: IPv4 unicast prefixes may come both in a classic field and in
 * MP_(UN)REACH_NLRI. Both runs are already validated, so the two byte runs end to end are a
 * valid NLRI run too: copy them into one owned buffer and point *dst at it.
 */
static void join_nlri(struct bgp_update *upd, int slot, struct stream *dst,
		      const struct stream *other)
{
	size_t a = stream_readable(dst), b = stream_readable(other);
	uint8_t *buf = XMALLOC(MTYPE_BGP_NLRI_JOIN, a + b);

	memcpy(buf, stream_pnt(dst), a);
	memcpy(buf + a, stream_pnt(other), b);
	upd->joined[slot] = buf;
	stream_init_reader(dst, buf, a + b);
}

int bgp_update_decode(struct bgp_update *upd, const uint8_t *body, size_t len,
		      const struct bgp_codec_ctx *ctx, struct bgp_error *err)
{
	struct stream s, wd, attrs, nlri;
	struct bgp_attr_parse ap;
	uint16_t wlen = 0, alen = 0;
	int af;

	memset(upd, 0, sizeof(*upd));
	stream_init_reader(&s, body, len);
	/* RFC 7606 3.b: Withdrawn Routes Length + Total Attribute Length + 23 beyond the
	 * message length. */
	if (stream_get_u16(&s, &wlen) < 0 || stream_get_sub(&s, wlen, &wd) < 0 ||
	    stream_get_u16(&s, &alen) < 0 || stream_get_sub(&s, alen, &attrs) < 0)
		return bgp_error_set(err, BGP_ERR_UPDATE, BGP_ERR_UPD_MALFORMED_ATTR_LIST, NULL, 0,
				     "Withdrawn Routes or Total Attribute Length exceeds the "
				     "message (RFC 7606 3.b)");
	stream_get_sub(&s, stream_readable(&s), &nlri);

	/* RFC 7606 3.i, 5.3: both prefix fields must parse, else session reset. */
	if (!bgp_nlri_valid(stream_pnt(&wd), stream_readable(&wd), BGP_AF_IPV4_UNICAST))
		return bgp_error_set(err, BGP_ERR_UPDATE, BGP_ERR_UPD_INVALID_NETWORK, NULL, 0,
				     "Withdrawn Routes field malformed (RFC 7606 5.3)");
	if (!bgp_nlri_valid(stream_pnt(&nlri), stream_readable(&nlri), BGP_AF_IPV4_UNICAST))
		return bgp_error_set(err, BGP_ERR_UPDATE, BGP_ERR_UPD_INVALID_NETWORK, NULL, 0,
				     "NLRI field malformed (RFC 7606 5.3)");

	if (bgp_attr_parse(&ap, stream_pnt(&attrs), alen, ctx, stream_readable(&nlri) > 0, err) < 0)
		return -1;

	upd->discarded = ap.discarded;
	if (ap.action >= BGP_ACT_DISCARD)
		upd->reason = ap.reason;
	upd->treat_as_withdraw = ap.action == BGP_ACT_WITHDRAW;

	if (wlen) {
		upd->withdrawn[BGP_AF_IPV4_UNICAST] = wd;
		upd->has_withdrawn[BGP_AF_IPV4_UNICAST] = true;
	}
	if (stream_readable(&nlri)) {
		upd->announced[BGP_AF_IPV4_UNICAST] = nlri;
		upd->has_announced[BGP_AF_IPV4_UNICAST] = true;
	}
	af = ap.mp_unreach_af;
	if (ap.mp_unreach && af >= 0) {
		if (!stream_readable(&ap.mp_unreach_nlri)) {
			/* RFC 4724 2: End-of-RIB is an UPDATE carrying only an empty
			 * MP_UNREACH_NLRI. */
			if (ap.count == 1 && !wlen && !stream_readable(&nlri))
				upd->end_of_rib[af] = true;
		} else if (upd->has_withdrawn[af]) {
			/* IPv4 withdrawals in both places (RFC 7606 5.1). */
			join_nlri(upd, 0, &upd->withdrawn[af], &ap.mp_unreach_nlri);
		} else {
			upd->withdrawn[af] = ap.mp_unreach_nlri;
			upd->has_withdrawn[af] = true;
		}
	}
	af = ap.mp_reach_af;
	if (ap.mp_reach && af >= 0 && stream_readable(&ap.mp_reach_nlri)) {
		if (!upd->has_announced[af]) {
			upd->announced[af] = ap.mp_reach_nlri;
			upd->has_announced[af] = true;
		} else if (upd->treat_as_withdraw ||
			   !memcmp(&ap.attr.nexthop, bgp_attr_mp_nh_global(&ap.attr), 4)) {
			/* IPv4 in the NLRI field and MP_REACH_NLRI (RFC 7606 5.1) with one next
			 * hop, or all to be withdrawn anyway: one reader. */
			join_nlri(upd, 1, &upd->announced[af], &ap.mp_reach_nlri);
		} else {
			/* Two next hops (RFC 4760 3: NEXT_HOP for the NLRI field, the MP one for
			 * MP_REACH_NLRI): two attribute sets. */
			struct bgp_attr tmpl = ap.attr;

			memcpy(&tmpl.nexthop, bgp_attr_mp_nh_global(&ap.attr), 4);
			upd->attr_mp4 = bgp_attr_intern(&tmpl);
			upd->announced_mp4 = ap.mp_reach_nlri;
			upd->has_announced_mp4 = true;
		}
	}
	/* RFC 4724 2: for IPv4 unicast, an UPDATE with nothing at all. */
	if (len == 4)
		upd->end_of_rib[BGP_AF_IPV4_UNICAST] = true;

	if (!upd->treat_as_withdraw &&
	    (upd->has_announced[BGP_AF_IPV4_UNICAST] || upd->has_announced[BGP_AF_IPV6_UNICAST]))
		upd->attr = bgp_attr_intern(&ap.attr);
	bgp_attr_parse_release(&ap);
	return 0;
}

void bgp_update_release(struct bgp_update *upd)
{
	if (!upd)
		return;
	bgp_attr_unref(upd->attr);
	upd->attr = NULL;
	bgp_attr_unref(upd->attr_mp4);
	upd->attr_mp4 = NULL;
	upd->has_announced_mp4 = false;
	for (size_t i = 0; i < array_size(upd->joined); i++) {
		XFREE(MTYPE_BGP_NLRI_JOIN, upd->joined[i]);
		upd->joined[i] = NULL;
	}
}

bool bgp_update_take_mp4(struct bgp_update *upd, struct bgp_update *sub)
{
	memset(sub, 0, sizeof(*sub));
	if (!upd->has_announced_mp4)
		return false;
	sub->attr = upd->attr_mp4; /* the reference moves */
	sub->announced[BGP_AF_IPV4_UNICAST] = upd->announced_mp4;
	sub->has_announced[BGP_AF_IPV4_UNICAST] = true;
	sub->discarded = upd->discarded;
	sub->reason = upd->reason;
	upd->attr_mp4 = NULL;
	upd->has_announced_mp4 = false;
	return true;
}

/* ======================================================================================
 * Building
 * ====================================================================================== */

static int ub_begin(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
		    const struct bgp_codec_ctx *ctx, enum bgp_af af, bool withdraw)
{
	size_t max = ctx->extended_message ? BGP_MAX_EXT_MSG_LEN : BGP_MAX_MSG_LEN;

	memset(ub, 0, sizeof(*ub));
	if (af != BGP_AF_IPV4_UNICAST && af != BGP_AF_IPV6_UNICAST)
		return -1;
	ub->ctx = ctx;
	ub->af = af;
	ub->withdraw = withdraw;
	ub->size = MIN(size, max);
	stream_init_writer(&ub->s, buf, ub->size);
	if (bgp_msg_begin(&ub->s, BGP_MSG_UPDATE) < 0)
		return -1;
	ub->withdrawn_len_pos = ub->s.endp;
	if (stream_put_u16(&ub->s, 0) < 0)
		return -1;
	if (af == BGP_AF_IPV4_UNICAST && withdraw) {
		/* Prefixes go in Withdrawn Routes; keep room for the Total Attribute Length that
		 * follows them. */
		if (stream_writable(&ub->s) < 2)
			return -1;
		ub->s.size -= 2;
		return 0;
	}
	ub->total_path_attr_len_pos = ub->s.endp;
	if (stream_put_u16(&ub->s, 0) < 0)
		return -1;
	ub->attr_start = ub->s.endp;
	return 0;
}

/* MP_(UN)REACH_NLRI header with a 2-byte length to fill in at finish; RFC 7606 5.1 wants it
 * as the first attribute. */
static int ub_mp_header(struct bgp_update_builder *ub, uint8_t code)
{
	if (stream_put_u8(&ub->s, BGP_ATTR_FLAG_OPTIONAL | BGP_ATTR_FLAG_EXTLEN) < 0 ||
	    stream_put_u8(&ub->s, code) < 0)
		return -1;
	ub->mp_len_pos = ub->s.endp;
	if (stream_put_u16(&ub->s, 0) < 0 || stream_put_u16(&ub->s, BGP_AFI_IPV6) < 0 ||
	    stream_put_u8(&ub->s, BGP_SAFI_UNICAST) < 0)
		return -1;
	return 0;
}

int bgp_ub_begin_announce(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af,
			  const struct bgp_attr *attr)
{
	size_t start, len;

	if (ub_begin(ub, buf, size, ctx, af, false) < 0)
		return -1;
	if (af == BGP_AF_IPV4_UNICAST) {
		if (bgp_attr_encode(&ub->s, attr, ctx, af) < 0)
			return -1;
		return stream_set_u16_at(&ub->s, ub->total_path_attr_len_pos,
					 (uint16_t)(ub->s.endp - ub->attr_start));
	}

	if (ub_mp_header(ub, BGP_ATTR_MP_REACH_NLRI) < 0)
		return -1;
	/* RFC 2545 3: global, then link-local when there is one. */
	len = attr->mp_nh_len == 32 ? 32 : 16;
	if (stream_put_u8(&ub->s, (uint8_t)len) < 0 ||
	    stream_put_bytes(&ub->s, bgp_attr_mp_nh_global(attr), 16) < 0 ||
	    (len == 32 && stream_put_bytes(&ub->s, bgp_attr_mp_nh_local(attr), 16) < 0) ||
	    stream_put_u8(&ub->s, 0) < 0)
		return -1;
	/*
	 * The other attributes follow MP_REACH_NLRI, whose prefixes are not known yet: encode
	 * them here, park them at the end of the buffer and let the prefixes fill the space
	 * between (one pass over the prefixes, one move of the attributes at finish).
	 */
	start = ub->s.endp;
	if (bgp_attr_encode(&ub->s, attr, ctx, af) < 0)
		return -1;
	ub->tail_len = ub->s.endp - start;
	memmove(ub->s.data + ub->size - ub->tail_len, ub->s.data + start, ub->tail_len);
	ub->s.endp = start;
	ub->s.size = ub->size - ub->tail_len;
	return 0;
}

int bgp_update_attrs_encode(uint8_t *buf, size_t size, const struct bgp_attr *attr,
			    const struct bgp_codec_ctx *ctx, enum bgp_af af)
{
	struct stream s;
	size_t len = 0;

	stream_init_writer(&s, buf, size);
	if (af == BGP_AF_IPV6_UNICAST) {
		/* RFC 2545 3: global, then link-local when there is one. */
		len = attr->mp_nh_len == 32 ? 32 : 16;
		if (stream_put_u8(&s, (uint8_t)len) < 0 ||
		    stream_put_bytes(&s, bgp_attr_mp_nh_global(attr), 16) < 0 ||
		    (len == 32 && stream_put_bytes(&s, bgp_attr_mp_nh_local(attr), 16) < 0))
			return -1;
	} else if (stream_put_u8(&s, 0) < 0) {
		return -1;
	}
	if (bgp_attr_encode(&s, attr, ctx, af) < 0 || s.endp > INT_MAX)
		return -1;
	return (int)s.endp;
}

int bgp_ub_begin_announce_wire(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			       const struct bgp_codec_ctx *ctx, enum bgp_af af, const uint8_t *wire,
			       size_t wire_len)
{
	size_t nh_len, alen;

	if (!wire_len || ub_begin(ub, buf, size, ctx, af, false) < 0)
		return -1;
	nh_len = wire[0];
	if (nh_len > wire_len - 1 || (af == BGP_AF_IPV4_UNICAST) != (nh_len == 0) ||
	    (af != BGP_AF_IPV4_UNICAST && nh_len != 16 && nh_len != 32))
		return -1;
	alen = wire_len - 1 - nh_len;
	if (af == BGP_AF_IPV4_UNICAST) {
		if (stream_put_bytes(&ub->s, wire + 1, alen) < 0)
			return -1;
		return stream_set_u16_at(&ub->s, ub->total_path_attr_len_pos,
					 (uint16_t)(ub->s.endp - ub->attr_start));
	}
	if (ub_mp_header(ub, BGP_ATTR_MP_REACH_NLRI) < 0 ||
	    stream_put_u8(&ub->s, (uint8_t)nh_len) < 0 ||
	    stream_put_bytes(&ub->s, wire + 1, nh_len) < 0 || stream_put_u8(&ub->s, 0) < 0)
		return -1;
	/* As bgp_ub_begin_announce(): the other attributes wait at the end of the buffer. */
	if (stream_writable(&ub->s) < alen)
		return -1;
	ub->tail_len = alen;
	memcpy(ub->s.data + ub->size - alen, wire + 1 + nh_len, alen);
	ub->s.size = ub->size - alen;
	return 0;
}

int bgp_ub_begin_withdraw(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af)
{
	if (ub_begin(ub, buf, size, ctx, af, true) < 0)
		return -1;
	if (af == BGP_AF_IPV6_UNICAST)
		return ub_mp_header(ub, BGP_ATTR_MP_UNREACH_NLRI);
	return 0;
}

int bgp_ub_add(struct bgp_update_builder *ub, const struct prefix *p)
{
	size_t n;
	uint8_t *d;

	if (p->family != bgp_af_family(ub->af) || p->len > prefix_maxlen(p->family))
		return -EINVAL;
	n = ((size_t)p->len + 7) / 8;
	if (stream_writable(&ub->s) < n + 1)
		return -1;
	d = ub->s.data + ub->s.endp;
	d[0] = p->len;
	memcpy(d + 1, p->u.bytes, n);
	if (p->len & 7)
		d[n] &= (uint8_t)(0xff << (8 - (p->len & 7)));
	ub->s.endp += n + 1;
	ub->count++;
	return 0;
}

size_t bgp_ub_finish(struct bgp_update_builder *ub)
{
	struct stream *s = &ub->s;

	if (!ub->count)
		return 0;
	s->size = ub->size;
	if (ub->af == BGP_AF_IPV4_UNICAST) {
		if (ub->withdraw) {
			stream_set_u16_at(s, ub->withdrawn_len_pos,
					  (uint16_t)(s->endp - ub->withdrawn_len_pos - 2));
			stream_put_u16(s, 0); /* Total Path Attribute Length */
		}
		/* IPv4 announcements: attributes were written first, prefixes follow. */
		return bgp_msg_finish(s, 0);
	}
	stream_set_u16_at(s, ub->mp_len_pos, (uint16_t)(s->endp - ub->mp_len_pos - 2));
	if (ub->tail_len) {
		memmove(s->data + s->endp, s->data + ub->size - ub->tail_len, ub->tail_len);
		s->endp += ub->tail_len;
	}
	stream_set_u16_at(s, ub->total_path_attr_len_pos,
			  (uint16_t)(s->endp - ub->total_path_attr_len_pos - 2));
	return bgp_msg_finish(s, 0);
}

size_t bgp_update_end_of_rib(uint8_t *buf, size_t size, enum bgp_af af)
{
	struct stream s;
	int start;

	stream_init_writer(&s, buf, size);
	start = bgp_msg_begin(&s, BGP_MSG_UPDATE);
	if (start < 0 || stream_put_u16(&s, 0) < 0)
		return 0;
	if (af == BGP_AF_IPV4_UNICAST) {
		/* RFC 4724 2: an UPDATE with no withdrawn routes and no attributes. */
		if (stream_put_u16(&s, 0) < 0)
			return 0;
	} else {
		/* An empty MP_UNREACH_NLRI for the family. */
		if (stream_put_u16(&s, 6) < 0 || stream_put_u8(&s, BGP_ATTR_FLAG_OPTIONAL) < 0 ||
		    stream_put_u8(&s, BGP_ATTR_MP_UNREACH_NLRI) < 0 || stream_put_u8(&s, 3) < 0 ||
		    stream_put_u16(&s, bgp_af_afi(af)) < 0 ||
		    stream_put_u8(&s, BGP_SAFI_UNICAST) < 0)
			return 0;
	}
	return bgp_msg_finish(&s, (size_t)start);
}
