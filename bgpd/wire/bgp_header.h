/* SPDX-License-Identifier: ISC */
/*
 * The 19-byte message header (RFC 4271 4.1): marker, length, type. The receiver checks it with
 * bgp_header_decode() before reading the body, so that a bad length can never make the framer
 * wait for (or read) bytes that do not belong to the message.
 */
#ifndef SKUA_BGP_HEADER_H
#define SKUA_BGP_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_error.h"
#include "lib/stream.h"

#define BGP_MARKER_LEN 16
#define BGP_HEADER_LEN 19
#define BGP_MAX_MSG_LEN 4096	  /* RFC 4271 4.1 */
#define BGP_MAX_EXT_MSG_LEN 65535 /* RFC 8654 */

enum bgp_msg_type {
	BGP_MSG_OPEN = 1,
	BGP_MSG_UPDATE = 2,
	BGP_MSG_NOTIFICATION = 3,
	BGP_MSG_KEEPALIVE = 4,
	BGP_MSG_ROUTE_REFRESH = 5, /* RFC 2918 */
};

/* Smallest legal messages, header included (RFC 4271 4.2-4.5, RFC 2918 3). */
#define BGP_OPEN_MIN_LEN 29
#define BGP_UPDATE_MIN_LEN 23
#define BGP_NOTIFY_MIN_LEN 21
#define BGP_KEEPALIVE_LEN 19
#define BGP_ROUTE_REFRESH_LEN 23

struct bgp_header {
	uint16_t len; /* whole message, header included */
	uint8_t type;
};

/*
 * Check the header at buf (which must hold BGP_HEADER_LEN bytes). ext_msg: RFC 8654 Extended
 * Message was negotiated (then every type but OPEN and KEEPALIVE may be up to 65535 bytes).
 * Errors (RFC 4271 6.1), always a Message Header Error:
 *   marker not all ones           -> 1/1 Connection Not Synchronized, no data
 *   length out of range for type  -> 1/2 Bad Message Length, data = the 2-byte length field
 *   unknown type                  -> 1/3 Bad Message Type, data = the type octet
 */
int bgp_header_decode(const uint8_t *buf, bool ext_msg, struct bgp_header *hdr,
		      struct bgp_error *err);

/* Largest message of this type (4096, or 65535 with extended messages except OPEN/KEEPALIVE). */
size_t bgp_msg_max_len(uint8_t type, bool ext_msg);

/* Write a header into buf (BGP_HEADER_LEN bytes); returns BGP_HEADER_LEN. */
size_t bgp_header_encode(uint8_t *buf, uint8_t type, uint16_t len);

/*
 * Writers: bgp_msg_begin() puts a header with a zero length at the stream's end and returns
 * its position (or -1 when full); bgp_msg_finish() fills the length in from that position to
 * the end of the stream and returns the message length (0 if it exceeds 65535).
 */
int bgp_msg_begin(struct stream *s, uint8_t type);
size_t bgp_msg_finish(struct stream *s, size_t start);

/* "OPEN", "UPDATE", "NOTIFICATION", "KEEPALIVE", "ROUTE-REFRESH", or "UNKNOWN". */
const char *bgp_msg_type_str(uint8_t type);

#endif /* SKUA_BGP_HEADER_H */
