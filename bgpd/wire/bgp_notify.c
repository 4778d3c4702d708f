/* SPDX-License-Identifier: ISC */
/*
 * NOTIFICATION (RFC 4271 4.5, shutdown communication RFC 8203/9003), KEEPALIVE and
 * ROUTE-REFRESH (RFC 2918, RFC 7313).
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid (RFC 3629). */
static size_t utf8_seq(const uint8_t *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static bool utf8_valid(const uint8_t *s, size_t n)
{
	size_t i = 0, l;

	while (i < n) {
		l = utf8_seq(s + i, n - i);
		if (!l)
			return false;
		i += l;
	}
	return true;
}

int bgp_notify_decode(struct bgp_notify *n, const uint8_t *body, size_t len)
{
	const uint8_t *inner;
	size_t mlen, i, inner_len;
	uint8_t inner_code, inner_subcode;

	memset(n, 0, sizeof(*n));
	if (len < 2)
		return -1;
	n->code = body[0];
	n->subcode = body[1];
	n->data = len > 2 ? body + 2 : NULL;
	n->data_len = (uint16_t)MIN(len - 2, (size_t)UINT16_MAX);

	/* RFC 8538 3: a Hard Reset carries the original NOTIFICATION's code, subcode and data. */
	inner_code = n->code;
	inner_subcode = n->subcode;
	inner = n->data;
	inner_len = n->data_len;
	if (n->code == BGP_ERR_CEASE && n->subcode == BGP_ERR_CEASE_HARD_RESET &&
	    n->data_len >= 2) {
		n->hard_reset = true;
		n->inner_code = inner_code = n->data[0];
		n->inner_subcode = inner_subcode = n->data[1];
		inner = n->data + 2;
		inner_len = (size_t)n->data_len - 2;
	}
	/* RFC 9003 2: Cease/Administrative Shutdown or Reset may carry length + UTF-8 text. */
	if (inner_code != BGP_ERR_CEASE ||
	    (inner_subcode != BGP_ERR_CEASE_ADMIN_SHUTDOWN &&
	     inner_subcode != BGP_ERR_CEASE_ADMIN_RESET) ||
	    inner_len == 0)
		return 0;
	mlen = inner[0];
	if (mlen == 0)
		return 0;
	n->has_shutdown_msg = true;
	/* RFC 9003 3: a bad length or bad UTF-8 is noted, and the text is not logged. */
	if (mlen > inner_len - 1 || !utf8_valid(inner + 1, mlen)) {
		n->shutdown_msg_invalid = true;
		return 0;
	}
	memcpy(n->shutdown_msg, inner + 1, mlen);
	n->shutdown_msg[mlen] = '\0';
	/* Valid UTF-8 may still carry control characters: keep them out of the logs. */
	for (i = 0; i < mlen; i++)
		if ((uint8_t)n->shutdown_msg[i] < 0x20 || n->shutdown_msg[i] == 0x7f)
			n->shutdown_msg[i] = '?';
	return 0;
}

size_t bgp_notify_encode(uint8_t *buf, size_t size, uint8_t code, uint8_t subcode, const void *data,
			 size_t data_len)
{
	struct stream s;
	int start;

	stream_init_writer(&s, buf, MIN(size, (size_t)BGP_MAX_MSG_LEN));
	start = bgp_msg_begin(&s, BGP_MSG_NOTIFICATION);
	if (start < 0 || stream_put_u8(&s, code) < 0 || stream_put_u8(&s, subcode) < 0 ||
	    (data_len && (!data || stream_put_bytes(&s, data, data_len) < 0)))
		return 0;
	return bgp_msg_finish(&s, (size_t)start);
}

size_t bgp_notify_encode_error(uint8_t *buf, size_t size, const struct bgp_error *err)
{
	return bgp_notify_encode(buf, size, err->code, err->subcode, err->data, err->data_len);
}

size_t bgp_notify_encode_shutdown(uint8_t *buf, size_t size, uint8_t subcode, const char *msg)
{
	uint8_t data[1 + BGP_SHUTDOWN_MSG_MAX];
	size_t len = msg ? strlen(msg) : 0, i = 0, l;

	/* Cut at 255 bytes, never inside a UTF-8 sequence (RFC 9003 2). */
	while (i < len) {
		l = utf8_seq((const uint8_t *)msg + i, len - i);
		if (!l)
			l = 1; /* not UTF-8: the caller's problem, but stay bounded */
		if (i + l > BGP_SHUTDOWN_MSG_MAX)
			break;
		i += l;
	}
	data[0] = (uint8_t)i;
	if (i)
		memcpy(data + 1, msg, i);
	return bgp_notify_encode(buf, size, BGP_ERR_CEASE, subcode, data, i + 1);
}

const char *bgp_notify_str(const struct bgp_notify *n, char *buf, size_t size)
{
	char what[160];
	size_t o, i;

	if (!size)
		return buf;
	bgp_error_str(n->code, n->subcode, what, sizeof(what));
	if (n->has_shutdown_msg && !n->shutdown_msg_invalid) {
		snprintf(buf, size, "%s \"%s\"", what, n->shutdown_msg);
		return buf;
	}
	if (n->has_shutdown_msg) {
		snprintf(buf, size, "%s (invalid shutdown communication)", what);
		return buf;
	}
	if (!n->data_len) {
		snprintf(buf, size, "%s", what);
		return buf;
	}
	o = (size_t)snprintf(buf, size, "%s %u bytes", what, n->data_len);
	for (i = 0; i < n->data_len && o + 4 < size; i++)
		o += (size_t)snprintf(buf + o, size - o, " %02x", n->data[i]);
	return buf;
}

size_t bgp_keepalive_encode(uint8_t *buf, size_t size)
{
	if (size < BGP_KEEPALIVE_LEN)
		return 0;
	return bgp_header_encode(buf, BGP_MSG_KEEPALIVE, BGP_KEEPALIVE_LEN);
}

int bgp_route_refresh_decode(struct bgp_route_refresh *rr, const uint8_t *body, size_t len,
			     struct bgp_error *err)
{
	uint8_t msg[BGP_ERROR_DATA_MAX];
	size_t n;

	memset(rr, 0, sizeof(*rr));
	rr->af = -1;
	if (len < 4)
		return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, NULL, 0,
				     "ROUTE-REFRESH shorter than 23 bytes");
	rr->afi = (uint16_t)(body[0] << 8 | body[1]);
	rr->subtype = body[2];
	rr->safi = body[3];
	/* RFC 7313 5: BoRR/EoRR must be exactly 4 bytes; the data is the whole message. */
	if ((rr->subtype == BGP_RR_BORR || rr->subtype == BGP_RR_EORR) && len != 4) {
		n = MIN(len, sizeof(msg) - BGP_HEADER_LEN);
		bgp_header_encode(msg, BGP_MSG_ROUTE_REFRESH,
				  (uint16_t)MIN(len + BGP_HEADER_LEN, (size_t)UINT16_MAX));
		memcpy(msg + BGP_HEADER_LEN, body, n);
		return bgp_error_set(err, BGP_ERR_ROUTE_REFRESH, BGP_ERR_RR_INVALID_LENGTH, msg,
				     BGP_HEADER_LEN + n,
				     "ROUTE-REFRESH with subtype 1 or 2 is not 23 bytes long");
	}
	rr->af = bgp_af_from_afi_safi(rr->afi, rr->safi);
	/* RFC 2918 4 (family not advertised) and RFC 7313 5 (unknown subtype): ignore. */
	rr->ignore = rr->af < 0 || rr->subtype > BGP_RR_EORR;
	return 0;
}

size_t bgp_route_refresh_encode(uint8_t *buf, size_t size, enum bgp_af af, uint8_t subtype)
{
	struct stream s;
	int start;

	stream_init_writer(&s, buf, size);
	start = bgp_msg_begin(&s, BGP_MSG_ROUTE_REFRESH);
	if (start < 0 || stream_put_u16(&s, bgp_af_afi(af)) < 0 || stream_put_u8(&s, subtype) < 0 ||
	    stream_put_u8(&s, BGP_SAFI_UNICAST) < 0)
		return 0;
	return bgp_msg_finish(&s, (size_t)start);
}
