/* SPDX-License-Identifier: ISC */
/* The message header: RFC 4271 4.1 and 6.1, RFC 8654 for extended messages. */
#include "lib/compat.h"

#include "bgpd/wire/bgp_header.h"

size_t bgp_msg_max_len(uint8_t type, bool ext_msg)
{
	/* RFC 8654 3: OPEN and KEEPALIVE keep the 4096-byte limit even when negotiated. */
	if (!ext_msg || type == BGP_MSG_OPEN || type == BGP_MSG_KEEPALIVE)
		return BGP_MAX_MSG_LEN;
	return BGP_MAX_EXT_MSG_LEN;
}

static size_t msg_min_len(uint8_t type)
{
	switch (type) {
	case BGP_MSG_OPEN:
		return BGP_OPEN_MIN_LEN;
	case BGP_MSG_UPDATE:
		return BGP_UPDATE_MIN_LEN;
	case BGP_MSG_NOTIFICATION:
		return BGP_NOTIFY_MIN_LEN;
	case BGP_MSG_KEEPALIVE:
		return BGP_KEEPALIVE_LEN;
	case BGP_MSG_ROUTE_REFRESH:
		/* RFC 2918 says 23 exactly, but RFC 5291 (ORF) may follow and RFC 7313 wants a
		 * longer message with subtype 1/2 answered by a ROUTE-REFRESH error, not here. */
		return BGP_ROUTE_REFRESH_LEN;
	}
	return 0;
}

int bgp_header_decode(const uint8_t *buf, bool ext_msg, struct bgp_header *hdr,
		      struct bgp_error *err)
{
	uint16_t len;
	uint8_t type;
	size_t i;

	for (i = 0; i < BGP_MARKER_LEN; i++)
		if (buf[i] != 0xff)
			return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_NOT_SYNC, NULL, 0,
					     "message header marker is not all ones");

	len = (uint16_t)(buf[16] << 8 | buf[17]);
	type = buf[18];

	/* RFC 4271 6.1: the length is checked before the type, the data is the length field. */
	if (len < BGP_HEADER_LEN || len > bgp_msg_max_len(BGP_MSG_UPDATE, ext_msg))
		return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, buf + 16, 2,
				     "message length out of range");
	if (!msg_min_len(type))
		return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_TYPE, buf + 18, 1,
				     "unknown message type");
	if (len < msg_min_len(type) || len > bgp_msg_max_len(type, ext_msg) ||
	    (type == BGP_MSG_KEEPALIVE && len != BGP_KEEPALIVE_LEN))
		return bgp_error_set(err, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, buf + 16, 2,
				     "message length invalid for its type");

	hdr->len = len;
	hdr->type = type;
	return 0;
}

size_t bgp_header_encode(uint8_t *buf, uint8_t type, uint16_t len)
{
	memset(buf, 0xff, BGP_MARKER_LEN);
	buf[16] = (uint8_t)(len >> 8);
	buf[17] = (uint8_t)len;
	buf[18] = type;
	return BGP_HEADER_LEN;
}

int bgp_msg_begin(struct stream *s, uint8_t type)
{
	size_t start = s->endp;

	if (stream_writable(s) < BGP_HEADER_LEN)
		return -1;
	bgp_header_encode(s->data + s->endp, type, 0);
	s->endp += BGP_HEADER_LEN;
	return (int)start;
}

size_t bgp_msg_finish(struct stream *s, size_t start)
{
	size_t len = s->endp - start;

	if (start + BGP_HEADER_LEN > s->endp || len > BGP_MAX_EXT_MSG_LEN)
		return 0;
	stream_set_u16_at(s, start + BGP_MARKER_LEN, (uint16_t)len);
	return len;
}

const char *bgp_msg_type_str(uint8_t type)
{
	switch (type) {
	case BGP_MSG_OPEN:
		return "OPEN";
	case BGP_MSG_UPDATE:
		return "UPDATE";
	case BGP_MSG_NOTIFICATION:
		return "NOTIFICATION";
	case BGP_MSG_KEEPALIVE:
		return "KEEPALIVE";
	case BGP_MSG_ROUTE_REFRESH:
		return "ROUTE-REFRESH";
	}
	return "UNKNOWN";
}
