/* SPDX-License-Identifier: ISC */
/*
 * The RTR PDU codec: RFC 6810 (version 0), RFC 8210 (version 1) and
 * draft-ietf-sidrops-8210bis-10 (version 2, the draft StayRTR 0.5.1 speaks).
 *
 * Every PDU opens with the same 8 bytes: version, type, a 16-bit field (session id, flags or
 * error code, by type), and the 32-bit length of the whole PDU. rtr_pdu_frame() reads only
 * that header, so the caller knows how much to collect; rtr_pdu_decode() then checks the
 * whole PDU against its type's layout and never reads past the length it is given. A decode
 * failure says which Error Report code (RFC 8210 12) the client owes the cache, and why.
 *
 * Decoded PDUs point into the caller's buffer (Error Report text and encapsulated PDU, ASPA
 * providers, Router Key SPKI): they are valid while that buffer is.
 *
 * The layout choices where the documents leave room or changed between drafts:
 * - ASPA (type 11) is draft -10's: flags (bit 0: announce), AFI flags (bit 0: IPv6, else
 *   IPv4), Provider AS Count, customer AS, providers. The count must agree with the length
 *   (ASPA Provider List Error otherwise); later drafts dropped the AFI and the count.
 * - An Error Report's text is not NUL-terminated on the wire (RFC 8210 5.11); StayRTR sends
 *   one NUL at its end, which is kept in text_len and stripped by the printers.
 * - A PDU longer than RTR_PDU_MAX (an ASPA with 65,535 providers, 262,156 bytes) is Corrupt
 *   Data before its body is read: no other PDU a cache sends legitimately comes close.
 */
#ifndef SKUA_RTR_PDU_H
#define SKUA_RTR_PDU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RTR_PDU_HEADER_LEN 8
#define RTR_PDU_MAX (16 + 65535 * 4) /* the largest ASPA: 65,535 providers */
#define RTR_VERSION_MAX 2

enum rtr_pdu_type {
	RTR_PDU_SERIAL_NOTIFY = 0,
	RTR_PDU_SERIAL_QUERY = 1,
	RTR_PDU_RESET_QUERY = 2,
	RTR_PDU_CACHE_RESPONSE = 3,
	RTR_PDU_IPV4_PREFIX = 4,
	RTR_PDU_IPV6_PREFIX = 6,
	RTR_PDU_END_OF_DATA = 7,
	RTR_PDU_CACHE_RESET = 8,
	RTR_PDU_ROUTER_KEY = 9, /* version 1+ */
	RTR_PDU_ERROR_REPORT = 10,
	RTR_PDU_ASPA = 11, /* version 2 */
};

/* Error Report codes, RFC 8210 12 and draft-ietf-sidrops-8210bis-10 13. */
enum rtr_error_code {
	RTR_ERR_CORRUPT_DATA = 0,
	RTR_ERR_INTERNAL = 1,
	RTR_ERR_NO_DATA = 2,
	RTR_ERR_INVALID_REQUEST = 3,
	RTR_ERR_UNSUPPORTED_VERSION = 4,
	RTR_ERR_UNSUPPORTED_PDU_TYPE = 5,
	RTR_ERR_WITHDRAWAL_UNKNOWN = 6,
	RTR_ERR_DUPLICATE_ANNOUNCEMENT = 7,
	RTR_ERR_UNEXPECTED_VERSION = 8, /* version 1+ */
	RTR_ERR_ASPA_PROVIDER_LIST = 9, /* version 2 */
};

#define RTR_FLAG_ANNOUNCE 0x01
#define RTR_ASPA_AFI_IPV6 0x01 /* draft -10: AFI flags bit 0 */
#define RTR_SKI_LEN 20

/* Error Report limits of what we send: the encapsulated PDU and the text are cut there. */
#define RTR_ERROR_PDU_COPY_MAX 256
#define RTR_ERROR_TEXT_MAX 256
#define RTR_ERROR_REPORT_MAX \
	(RTR_PDU_HEADER_LEN + 4 + RTR_ERROR_PDU_COPY_MAX + 4 + RTR_ERROR_TEXT_MAX)

struct rtr_pdu {
	uint8_t version;
	uint8_t type;
	uint16_t session_id; /* Serial Notify/Query, Cache Response, End of Data */
	uint32_t length;
	union {
		uint32_t serial; /* Serial Notify, Serial Query */
		struct {
			uint8_t flags;
			uint8_t prefix_len, max_len;
			uint8_t addr[16]; /* 4 bytes used for IPv4 */
			uint32_t asn;
		} prefix;
		struct {
			uint32_t serial;
			uint32_t refresh, retry, expire; /* version 1+ only (0 with version 0) */
		} eod;
		struct {
			uint8_t flags;
			uint8_t ski[RTR_SKI_LEN];
			uint32_t asn;
			const uint8_t *spki;
			size_t spki_len;
		} router_key;
		struct {
			uint16_t code;
			const uint8_t *pdu; /* the erroneous PDU, as the cache copied it */
			uint32_t pdu_len;
			const char *text; /* not NUL-terminated */
			uint32_t text_len;
		} error;
		struct {
			uint8_t flags, afi_flags;
			uint16_t nproviders;
			uint32_t customer;
			const uint8_t *providers; /* nproviders big-endian 32-bit ASNs */
		} aspa;
	} u;
};

/* Why a PDU was refused: the Error Report code to send and a short text for it and the log. */
struct rtr_pdu_error {
	uint16_t code; /* enum rtr_error_code */
	const char *why;
};

/*
 * Look at the first len bytes of a stream. 0: a header is there and the PDU is *pdu_len
 * bytes (it may not all have arrived yet); 1: fewer than 8 bytes, wait for more; -1: the
 * header is unusable (length under 8 or over RTR_PDU_MAX), err says so.
 */
int rtr_pdu_frame(const uint8_t *buf, size_t len, uint32_t *pdu_len, struct rtr_pdu_error *err);

/* Decode exactly one PDU of len bytes (its header's length must be len). 0, or -1 with err. */
int rtr_pdu_decode(const uint8_t *buf, size_t len, struct rtr_pdu *pdu, struct rtr_pdu_error *err);

/* The i-th provider of a decoded ASPA PDU (i < nproviders). */
uint32_t rtr_pdu_aspa_provider(const struct rtr_pdu *pdu, uint16_t i);

/*
 * Encode pdu (every type: the client sends queries and Error Reports; tests and the fuzz
 * target play the cache with the rest) into buf. Returns the length, or -1 when size is too
 * small or a field cannot be encoded (an Error Report longer than 32 bits can count). The
 * header's length field is computed, pdu->length is ignored.
 */
int rtr_pdu_encode(const struct rtr_pdu *pdu, uint8_t *buf, size_t size);

/*
 * An Error Report for the client to send: the erroneous PDU (may be NULL) cut to
 * RTR_ERROR_PDU_COPY_MAX bytes, the text cut to RTR_ERROR_TEXT_MAX. buf holds at least
 * RTR_ERROR_REPORT_MAX bytes. Returns the length.
 */
size_t rtr_pdu_error_report(uint8_t *buf, uint8_t version, uint16_t code, const uint8_t *bad_pdu,
			    size_t bad_len, const char *text);

const char *rtr_pdu_type_name(uint8_t type);

/*
 * One line for `debug rpki`: type, version, length and the type's key fields, e.g.
 * "IPv4 Prefix v1 len 20: announce 198.51.100.0/24 max 24 AS64500". Always NUL-terminated,
 * cut at size.
 */
void rtr_pdu_describe(const struct rtr_pdu *pdu, char *buf, size_t size);
const char *rtr_error_code_name(uint16_t code);

#endif /* SKUA_RTR_PDU_H */
