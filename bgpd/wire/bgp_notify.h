/* SPDX-License-Identifier: ISC */
/*
 * NOTIFICATION (RFC 4271 4.5) with the shutdown communication of RFC 8203/9003, KEEPALIVE
 * (RFC 4271 4.4) and ROUTE-REFRESH (RFC 2918, subtypes of RFC 7313).
 * Encoders write a complete message (header included) and return its length, 0 if it does not
 * fit in size.
 */
#ifndef SKUA_BGP_NOTIFY_H
#define SKUA_BGP_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_error.h"

/* RFC 9003: up to 255 octets of UTF-8 (RFC 8203 allowed 128). */
#define BGP_SHUTDOWN_MSG_MAX 255

struct bgp_notify {
	uint8_t code;
	uint8_t subcode;
	const uint8_t *data; /* points into the received message */
	uint16_t data_len;
	/* Cease/Hard Reset (RFC 8538 3) and the NOTIFICATION it carries. */
	bool hard_reset;
	uint8_t inner_code, inner_subcode;
	/* Cease/Administrative Shutdown or Reset with a shutdown communication (RFC 9003 2), also
	 * inside a Hard Reset. */
	bool has_shutdown_msg;
	/* A communication was there but its length overran the data or it was not UTF-8: per
	 * RFC 9003 3 log that fact, never the text. */
	bool shutdown_msg_invalid;
	/* NUL-terminated; control characters replaced by '?' so it is safe to log. */
	char shutdown_msg[BGP_SHUTDOWN_MSG_MAX + 1];
};

/* Decode a NOTIFICATION body. A NOTIFICATION is never answered with one (RFC 4271 6.4), so
 * this only fails (-1) on a body shorter than 2 bytes, which the header check excludes. */
int bgp_notify_decode(struct bgp_notify *n, const uint8_t *body, size_t len);

size_t bgp_notify_encode(uint8_t *buf, size_t size, uint8_t code, uint8_t subcode, const void *data,
			 size_t data_len);
/* The NOTIFICATION a parser asked for. */
size_t bgp_notify_encode_error(uint8_t *buf, size_t size, const struct bgp_error *err);
/* Cease with a shutdown communication (subcode 2 or 4); msg NULL or "" sends a zero length.
 * A longer msg is cut at 255 bytes on a UTF-8 character boundary. */
size_t bgp_notify_encode_shutdown(uint8_t *buf, size_t size, uint8_t subcode, const char *msg);

/* "OPEN Message Error/Bad Peer AS" plus the shutdown communication or the data in hex:
 * `Cease/Administrative Shutdown "maintenance"` or `UPDATE Message Error/... 3 bytes 40 01 05`. */
const char *bgp_notify_str(const struct bgp_notify *n, char *buf, size_t size);

/* KEEPALIVE: a bare header. */
size_t bgp_keepalive_encode(uint8_t *buf, size_t size);

/* ROUTE-REFRESH subtypes (RFC 7313 3). */
enum bgp_rr_subtype {
	BGP_RR_NORMAL = 0,
	BGP_RR_BORR = 1, /* beginning of route refresh */
	BGP_RR_EORR = 2, /* end of route refresh */
};

struct bgp_route_refresh {
	uint16_t afi;
	uint8_t safi;
	uint8_t subtype;
	int af;	     /* enum bgp_af, or -1: a family we do not handle (RFC 2918 4: ignore it) */
	bool ignore; /* unknown family or subtype > 2 (RFC 7313 5: ignore the message) */
};

/*
 * Decode a ROUTE-REFRESH body. 0, or -1 with err when subtype 1 or 2 comes with a body that is
 * not 4 bytes (RFC 7313 5: 7/1 Invalid Message Length, data = the whole message, cut to
 * BGP_ERROR_DATA_MAX). A normal request may carry ORF entries (RFC 5291) after the 4 bytes;
 * they are ignored.
 */
int bgp_route_refresh_decode(struct bgp_route_refresh *rr, const uint8_t *body, size_t len,
			     struct bgp_error *err);
size_t bgp_route_refresh_encode(uint8_t *buf, size_t size, enum bgp_af af, uint8_t subtype);

#endif /* SKUA_BGP_NOTIFY_H */
