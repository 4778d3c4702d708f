/* SPDX-License-Identifier: ISC */
/*
 * OPEN messages and capabilities (RFC 4271 4.2 and 6.2, RFC 5492, RFC 9072, RFC 4760,
 * RFC 2918, RFC 6793, RFC 8654, RFC 7313; graceful restart's in bgp_open_gr.c).
 *
 * The checks run in this order: version and the optional parameters' syntax (decode), then
 * peer AS, hold time and BGP Identifier (check; the peer AS may come from the 4-octet AS
 * capability, so the parameters are parsed first), then the negotiation.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_open.h"

/* Our capabilities: at most 2 families x 6 + 2 + 2 + 2 + 6 + 2 bytes, GR 4 + 2 x 4, LLGR
 * 2 + 2 x 7. */
#define CAPS_MAX 128

static size_t put_cap(uint8_t *d, size_t o, uint8_t code, const uint8_t *val, uint8_t len)
{
	d[o] = code;
	d[o + 1] = len;
	if (len)
		memcpy(d + o + 2, val, len);
	return o + 2 + len;
}

static size_t mp_cap(uint8_t *d, size_t o, enum bgp_af af)
{
	uint16_t afi = bgp_af_afi(af);
	uint8_t v[4] = { (uint8_t)(afi >> 8), (uint8_t)afi, 0, BGP_SAFI_UNICAST };

	return put_cap(d, o, BGP_CAP_MP, v, 4);
}

static size_t local_caps(const struct bgp_open_local *local, uint8_t *d)
{
	uint8_t as4[4] = { (uint8_t)(local->asn >> 24), (uint8_t)(local->asn >> 16),
			   (uint8_t)(local->asn >> 8), (uint8_t)local->asn };
	size_t o = 0;
	int af;

	for (af = 0; af < BGP_AF_MAX; af++)
		if (local->af[af])
			o = mp_cap(d, o, af);
	if (local->route_refresh) {
		o = put_cap(d, o, BGP_CAP_ROUTE_REFRESH, NULL, 0);
		o = put_cap(d, o, BGP_CAP_ROUTE_REFRESH_OLD, NULL, 0);
	}
	if (local->enhanced_rr)
		o = put_cap(d, o, BGP_CAP_ENHANCED_RR, NULL, 0);
	if (local->ext_message)
		o = put_cap(d, o, BGP_CAP_EXT_MESSAGE, NULL, 0);
	o = bgp_cap_gr_put(d, o, local);
	o = bgp_cap_llgr_put(d, o, local);
	/* RFC 6793: always, whatever our AS. */
	o = put_cap(d, o, BGP_CAP_AS4, as4, 4);
	return o;
}

size_t bgp_open_encode(uint8_t *buf, size_t size, const struct bgp_open_local *local)
{
	uint8_t caps[CAPS_MAX];
	size_t clen = local_caps(local, caps);
	struct stream s;
	int start;

	stream_init_writer(&s, buf, MIN(size, (size_t)BGP_MAX_MSG_LEN));
	start = bgp_msg_begin(&s, BGP_MSG_OPEN);
	if (start < 0 || stream_put_u8(&s, BGP_VERSION) < 0 ||
	    stream_put_u16(&s, local->asn > UINT16_MAX ? BGP_AS_TRANS : (uint16_t)local->asn) < 0 ||
	    stream_put_u16(&s, local->holdtime) < 0 || stream_put_bytes(&s, &local->id, 4) < 0)
		return 0;
	/* One Capabilities parameter holding them all (RFC 5492 4 allows either form). */
	if (clen + 2 > 255 || local->force_ext_opt_params) {
		/* RFC 9072 2: Non-Ext OP Len 255, Non-Ext OP Type 255, then 2-byte lengths. */
		if (stream_put_u8(&s, 255) < 0 || stream_put_u8(&s, BGP_OPEN_OPT_EXTENDED) < 0 ||
		    stream_put_u16(&s, (uint16_t)(clen + 3)) < 0 ||
		    stream_put_u8(&s, BGP_OPEN_OPT_CAPABILITIES) < 0 ||
		    stream_put_u16(&s, (uint16_t)clen) < 0)
			return 0;
	} else {
		if (stream_put_u8(&s, (uint8_t)(clen + 2)) < 0 ||
		    stream_put_u8(&s, BGP_OPEN_OPT_CAPABILITIES) < 0 ||
		    stream_put_u8(&s, (uint8_t)clen) < 0)
			return 0;
	}
	if (stream_put_bytes(&s, caps, clen) < 0)
		return 0;
	return bgp_msg_finish(&s, (size_t)start);
}

static int open_malformed(struct bgp_error *err, const char *reason)
{
	return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, NULL, 0, reason);
}

/* The capabilities inside one Capabilities optional parameter (RFC 5492 4). */
static int parse_caps(struct bgp_caps *caps, struct stream *p, struct bgp_error *err)
{
	struct stream v;
	uint8_t code, len, safi, b;
	uint16_t afi;
	int af;

	caps->present = true;
	while (stream_readable(p)) {
		if (stream_get_u8(p, &code) < 0 || stream_get_u8(p, &len) < 0 ||
		    stream_get_sub(p, len, &v) < 0)
			return open_malformed(err, "capability overruns its optional parameter");
		switch (code) {
		case BGP_CAP_MP:
			/* RFC 4760 8: AFI (2), reserved (1), SAFI (1). */
			if (len != 4)
				return open_malformed(err,
						      "multiprotocol capability length is not 4");
			stream_get_u16(&v, &afi);
			stream_get_u8(&v, &b);
			stream_get_u8(&v, &safi);
			caps->mp_any = true;
			af = bgp_af_from_afi_safi(afi, safi);
			if (af >= 0)
				caps->mp[af] = true;
			else
				caps->unknown++;
			break;
		case BGP_CAP_ROUTE_REFRESH:
		case BGP_CAP_ROUTE_REFRESH_OLD:
			if (len != 0)
				return open_malformed(err,
						      "route refresh capability length is not 0");
			if (code == BGP_CAP_ROUTE_REFRESH)
				caps->route_refresh = true;
			else
				caps->route_refresh_old = true;
			break;
		case BGP_CAP_AS4:
			if (len != 4)
				return open_malformed(err, "4-octet AS capability length is not 4");
			stream_get_u32(&v, &caps->as4_asn);
			caps->as4 = true;
			break;
		case BGP_CAP_EXT_MESSAGE:
			if (len != 0)
				return open_malformed(
					err, "extended message capability length is not 0");
			caps->ext_message = true;
			break;
		case BGP_CAP_ENHANCED_RR:
			if (len != 0)
				return open_malformed(err,
						      "enhanced route refresh capability length "
						      "is not 0");
			caps->enhanced_rr = true;
			break;
		case BGP_CAP_GRACEFUL_RESTART:
			if (bgp_cap_gr_parse(caps, &v, err) < 0)
				return -1;
			break;
		case BGP_CAP_LLGR:
			bgp_cap_llgr_parse(caps, &v);
			break;
		case BGP_CAP_ROLE:
			if (len == 1 && stream_get_u8(&v, &b) == 0 && b <= 4) {
				caps->role = true;
				caps->role_value = b;
			} else {
				caps->unknown++;
			}
			break;
		default:
			/* RFC 5492 4: capabilities we do not know are ignored. */
			caps->unknown++;
			break;
		}
	}
	return 0;
}

int bgp_open_decode(struct bgp_open *open, const uint8_t *body, size_t len, struct bgp_error *err)
{
	static const uint8_t version_data[2] = { 0, BGP_VERSION };
	struct stream s, params, p;
	uint16_t plen16, optlen16;
	uint8_t optlen = 0, type, plen8, next;
	bool ext = false;

	memset(open, 0, sizeof(*open));
	stream_init_reader(&s, body, len);
	if (stream_get_u8(&s, &open->version) < 0 || stream_get_u16(&s, &open->my_as) < 0 ||
	    stream_get_u16(&s, &open->holdtime) < 0 || stream_get_bytes(&s, &open->id, 4) < 0 ||
	    stream_get_u8(&s, &optlen) < 0)
		return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, NULL, 0,
				     "OPEN shorter than its fixed part");

	/* RFC 4271 6.2: the data is the largest version we support below theirs; we have one. */
	if (open->version != BGP_VERSION)
		return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_VERSION, version_data, 2,
				     "unsupported BGP version");

	/* RFC 9072 2: a non-zero length followed by type 255 announces the extended form,
	 * and the one-octet length is then ignored. */
	if (optlen && stream_peek_u8(&s, 0, &next) == 0 && next == BGP_OPEN_OPT_EXTENDED) {
		ext = true;
		stream_skip(&s, 1);
		if (stream_get_u16(&s, &optlen16) < 0)
			return open_malformed(err, "extended optional parameters length missing");
	} else {
		optlen16 = optlen;
	}
	if (stream_get_sub(&s, optlen16, &params) < 0 || stream_readable(&s))
		return open_malformed(err, "optional parameters length does not match the "
					   "OPEN length");
	open->ext_opt_params = ext;

	while (stream_readable(&params)) {
		if (stream_get_u8(&params, &type) < 0)
			return open_malformed(err, "optional parameter header truncated");
		if (ext) {
			if (stream_get_u16(&params, &plen16) < 0)
				return open_malformed(err, "optional parameter header truncated");
		} else {
			if (stream_get_u8(&params, &plen8) < 0)
				return open_malformed(err, "optional parameter header truncated");
			plen16 = plen8;
		}
		if (stream_get_sub(&params, plen16, &p) < 0)
			return open_malformed(err, "optional parameter overruns the parameters");
		/* RFC 4271 6.2 and RFC 9072 3 (type 255 elsewhere is just unrecognized). */
		if (type != BGP_OPEN_OPT_CAPABILITIES)
			return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_PARAM, NULL, 0,
					     "unsupported optional parameter");
		if (parse_caps(&open->caps, &p, err) < 0)
			return -1;
	}
	open->asn = open->caps.as4 ? open->caps.as4_asn : open->my_as;
	return 0;
}

static int bad_peer_as(const struct bgp_open *open, struct bgp_error *err, const char *reason)
{
	uint8_t d[4];

	/* The AS we were told: 4 bytes from the capability when there was one. */
	if (open->caps.as4) {
		d[0] = (uint8_t)(open->caps.as4_asn >> 24);
		d[1] = (uint8_t)(open->caps.as4_asn >> 16);
		d[2] = (uint8_t)(open->caps.as4_asn >> 8);
		d[3] = (uint8_t)open->caps.as4_asn;
		return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, d, 4, reason);
	}
	d[0] = (uint8_t)(open->my_as >> 8);
	d[1] = (uint8_t)open->my_as;
	return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, d, 2, reason);
}

int bgp_open_check(const struct bgp_open *open, const struct bgp_open_local *local,
		   struct bgp_open_result *res, struct bgp_error *err)
{
	uint8_t d[CAPS_MAX];
	bool ibgp, any = false;
	int af;

	memset(res, 0, sizeof(*res));

	/* Peer AS: RFC 7607 (never 0), RFC 6793 4.1 (My AS agrees with the capability). */
	if (open->asn == 0)
		return bad_peer_as(open, err, "peer AS 0 (RFC 7607)");
	if (open->caps.as4 && open->my_as != BGP_AS_TRANS && open->my_as != open->caps.as4_asn)
		return bad_peer_as(open, err, "My AS disagrees with the 4-octet AS capability");
	switch (local->remote_as_type) {
	case BGP_REMOTE_AS_SPECIFIED:
		if (local->remote_as && open->asn != local->remote_as)
			return bad_peer_as(open, err, "peer AS is not the configured remote-as");
		break;
	case BGP_REMOTE_AS_INTERNAL:
		if (open->asn != local->asn)
			return bad_peer_as(open, err,
					   "remote-as internal, but the peer AS is not ours");
		break;
	case BGP_REMOTE_AS_EXTERNAL:
		if (open->asn == local->asn)
			return bad_peer_as(open, err,
					   "remote-as external, but the peer AS is ours");
		break;
	}

	/* RFC 4271 6.2: zero, or at least three seconds. */
	if (open->holdtime == 1 || open->holdtime == 2) {
		d[0] = (uint8_t)(open->holdtime >> 8);
		d[1] = (uint8_t)open->holdtime;
		return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_UNACCEPTABLE_HOLD, d, 2,
				     "hold time of 1 or 2 seconds");
	}

	/* RFC 6286 2.2: never 0; not ours on an internal session. */
	ibgp = open->asn == local->asn;
	if (open->id.s_addr == INADDR_ANY || (ibgp && open->id.s_addr == local->id.s_addr))
		return bgp_error_set(
			err, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_BGP_ID, &open->id, 4,
			open->id.s_addr == INADDR_ANY
				? "BGP Identifier 0"
				: "BGP Identifier equal to ours on an internal session");

	/* RFC 4760 8: a peer with no MP capability at all speaks IPv4 unicast. */
	for (af = 0; af < BGP_AF_MAX; af++) {
		bool remote = open->caps.mp_any ? open->caps.mp[af] : af == BGP_AF_IPV4_UNICAST;

		res->af[af] = local->af[af] && remote;
		any |= res->af[af];
	}
	if (!any) {
		/* RFC 5492 5: list the capabilities we needed (our MP capabilities). */
		size_t o = 0;

		for (af = 0; af < BGP_AF_MAX; af++)
			if (local->af[af])
				o = mp_cap(d, o, af);
		return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_CAPABILITY, d, o,
				     "no address family in common with the peer");
	}

	res->as4 = open->caps.as4;
	res->route_refresh = open->caps.route_refresh || open->caps.route_refresh_old;
	res->enhanced_rr = local->enhanced_rr && open->caps.enhanced_rr;
	res->ext_message = local->ext_message && open->caps.ext_message;
	res->gr = local->gr && open->caps.gr;
	res->gr_notification = res->gr && local->gr_notification && open->caps.gr_notification;
	/* RFC 9494 4.2: LLGR needs GR alongside it. */
	res->llgr = res->gr && local->llgr && open->caps.llgr;
	res->holdtime = MIN(local->holdtime, open->holdtime);
	res->keepalive = res->holdtime / 3;
	res->remote_as = open->asn;
	res->remote_id = open->id;
	res->confed = !ibgp && local->confed;
	res->ebgp = !ibgp && !local->confed;
	res->remote = open->caps;
	return 0;
}

int bgp_open_receive(const uint8_t *body, size_t len, const struct bgp_open_local *local,
		     struct bgp_open_result *res, struct bgp_error *err)
{
	struct bgp_open open;

	if (bgp_open_decode(&open, body, len, err) < 0)
		return -1;
	return bgp_open_check(&open, local, res, err);
}

const char *bgp_cap_name(uint8_t code)
{
	switch (code) {
	case BGP_CAP_MP:
		return "Multiprotocol Extensions";
	case BGP_CAP_ROUTE_REFRESH:
		return "Route Refresh";
	case BGP_CAP_EXT_MESSAGE:
		return "Extended Message";
	case BGP_CAP_ROLE:
		return "Role";
	case BGP_CAP_GRACEFUL_RESTART:
		return "Graceful Restart";
	case BGP_CAP_AS4:
		return "4 Byte AS";
	case BGP_CAP_ADDPATH:
		return "AddPath";
	case BGP_CAP_ENHANCED_RR:
		return "Enhanced Route Refresh";
	case BGP_CAP_LLGR:
		return "Long-lived Graceful Restart";
	case BGP_CAP_ROUTE_REFRESH_OLD:
		return "Route Refresh (old)";
	}
	return "Unknown";
}
