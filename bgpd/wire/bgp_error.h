/* SPDX-License-Identifier: ISC */
/* NOTIFICATION error codes (RFC 4271 4.5, 6) and the error a parser returns to its caller. */
#ifndef SKUA_BGP_ERROR_H
#define SKUA_BGP_ERROR_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

enum bgp_err_code {
	BGP_ERR_HEADER = 1,
	BGP_ERR_OPEN = 2,
	BGP_ERR_UPDATE = 3,
	BGP_ERR_HOLD_TIMER = 4,
	BGP_ERR_FSM = 5,
	BGP_ERR_CEASE = 6,
	BGP_ERR_ROUTE_REFRESH = 7,   /* RFC 7313 */
	BGP_ERR_SEND_HOLD_TIMER = 8, /* RFC 9687 */
};

/* Message Header Error subcodes */
#define BGP_ERR_HDR_NOT_SYNC 1
#define BGP_ERR_HDR_BAD_LENGTH 2
#define BGP_ERR_HDR_BAD_TYPE 3
/* Subcode 0 of any code: "Unspecific" (RFC 4271 errata 4493) */
#define BGP_ERR_UNSPECIFIC 0
/* OPEN Message Error subcodes */
#define BGP_ERR_OPEN_UNSUP_VERSION 1
#define BGP_ERR_OPEN_BAD_PEER_AS 2
#define BGP_ERR_OPEN_BAD_BGP_ID 3
#define BGP_ERR_OPEN_UNSUP_PARAM 4
#define BGP_ERR_OPEN_UNACCEPTABLE_HOLD 6
#define BGP_ERR_OPEN_UNSUP_CAPABILITY 7
#define BGP_ERR_OPEN_ROLE_MISMATCH 11
/* UPDATE Message Error subcodes */
#define BGP_ERR_UPD_MALFORMED_ATTR_LIST 1
#define BGP_ERR_UPD_UNRECOGNIZED_WELLKNOWN 2
#define BGP_ERR_UPD_MISSING_WELLKNOWN 3
#define BGP_ERR_UPD_ATTR_FLAGS 4
#define BGP_ERR_UPD_ATTR_LENGTH 5
#define BGP_ERR_UPD_INVALID_ORIGIN 6
#define BGP_ERR_UPD_AS_ROUTING_LOOP 7
#define BGP_ERR_UPD_INVALID_NEXT_HOP 8
#define BGP_ERR_UPD_OPTIONAL_ATTR 9
#define BGP_ERR_UPD_INVALID_NETWORK 10
#define BGP_ERR_UPD_MALFORMED_AS_PATH 11
/* FSM Error subcodes (RFC 6608) */
#define BGP_ERR_FSM_UNEXPECTED_OPENSENT 1
#define BGP_ERR_FSM_UNEXPECTED_OPENCONFIRM 2
#define BGP_ERR_FSM_UNEXPECTED_ESTABLISHED 3
/* Cease subcodes (RFC 4486) */
#define BGP_ERR_CEASE_MAX_PREFIX 1
#define BGP_ERR_CEASE_ADMIN_SHUTDOWN 2
#define BGP_ERR_CEASE_PEER_DECONFIGURED 3
#define BGP_ERR_CEASE_ADMIN_RESET 4
#define BGP_ERR_CEASE_CONNECTION_REJECTED 5
#define BGP_ERR_CEASE_CONFIG_CHANGE 6
#define BGP_ERR_CEASE_COLLISION 7
#define BGP_ERR_CEASE_OUT_OF_RESOURCES 8
#define BGP_ERR_CEASE_HARD_RESET 9 /* RFC 8538 */
/* ROUTE-REFRESH Message Error subcodes (RFC 7313) */
#define BGP_ERR_RR_INVALID_LENGTH 1

#define BGP_ERROR_DATA_MAX 64

/* A parser's verdict: the NOTIFICATION to send, with its data field, and a reason for the log. */
struct bgp_error {
	uint8_t code;
	uint8_t subcode;
	uint16_t data_len;
	uint8_t data[BGP_ERROR_DATA_MAX];
	const char *reason; /* static text for the log: "AS_PATH segment overruns attribute" */
};

/* Fill err (data may be NULL); always returns -1 so parsers can `return bgp_error_set(...)`. */
int bgp_error_set(struct bgp_error *err, uint8_t code, uint8_t subcode, const void *data,
		  size_t data_len, const char *reason);

/* The NOTIFICATION a Cease/Hard Reset carries (RFC 8538 3: its data starts with the original
 * code and subcode), or err's own code and subcode. Returns whether err was a Hard Reset. */
bool bgp_error_inner(const struct bgp_error *err, uint8_t *code, uint8_t *subcode);

/* FRR's text: "OPEN Message Error/Bad Peer AS". */
const char *bgp_error_code_str(uint8_t code);
const char *bgp_error_subcode_str(uint8_t code, uint8_t subcode);
/* Both joined as FRR prints them: "OPEN Message Error/Bad Peer AS" (no '/' when the code has no
 * subcode text, e.g. "Hold Timer Expired"). Returns buf. */
const char *bgp_error_str(uint8_t code, uint8_t subcode, char *buf, size_t size);

#endif /* SKUA_BGP_ERROR_H */
