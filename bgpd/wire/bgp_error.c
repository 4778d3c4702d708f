/* SPDX-License-Identifier: ISC */
/*
 * NOTIFICATION error codes: the parser verdict (struct bgp_error) and the operator-facing text.
 * The text follows FRR's wording so that logs and `show bgp neighbors` read the same.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_error.h"

int bgp_error_set(struct bgp_error *err, uint8_t code, uint8_t subcode, const void *data,
		  size_t data_len, const char *reason)
{
	if (!err)
		return -1;
	err->code = code;
	err->subcode = subcode;
	/*
	 * The data field is informational (RFC 4271 4.5); an attribute or a message longer than
	 * BGP_ERROR_DATA_MAX is cut, which keeps the verdict a fixed-size value on the stack.
	 */
	if (!data)
		data_len = 0;
	if (data_len > BGP_ERROR_DATA_MAX)
		data_len = BGP_ERROR_DATA_MAX;
	err->data_len = (uint16_t)data_len;
	if (data_len)
		memcpy(err->data, data, data_len);
	err->reason = reason;
	return -1;
}

struct bgp_err_text {
	uint8_t subcode;
	const char *text;
};

static const struct bgp_err_text hdr_text[] = {
	{ BGP_ERR_HDR_NOT_SYNC, "Connection Not Synchronized" },
	{ BGP_ERR_HDR_BAD_LENGTH, "Bad Message Length" },
	{ BGP_ERR_HDR_BAD_TYPE, "Bad Message Type" },
	{ 0, NULL },
};

static const struct bgp_err_text open_text[] = {
	{ BGP_ERR_UNSPECIFIC, "Unspecific" },
	{ BGP_ERR_OPEN_UNSUP_VERSION, "Unsupported Version Number" },
	{ BGP_ERR_OPEN_BAD_PEER_AS, "Bad Peer AS" },
	{ BGP_ERR_OPEN_BAD_BGP_ID, "Bad BGP Identifier" },
	{ BGP_ERR_OPEN_UNSUP_PARAM, "Unsupported Optional Parameter" },
	{ 5, "Authentication Failure" },
	{ BGP_ERR_OPEN_UNACCEPTABLE_HOLD, "Unacceptable Hold Time" },
	{ BGP_ERR_OPEN_UNSUP_CAPABILITY, "Unsupported Capability" },
	{ BGP_ERR_OPEN_ROLE_MISMATCH, "Role Mismatch" },
	{ 0, NULL },
};

static const struct bgp_err_text update_text[] = {
	{ BGP_ERR_UNSPECIFIC, "Unspecific" },
	{ BGP_ERR_UPD_MALFORMED_ATTR_LIST, "Malformed Attribute List" },
	{ BGP_ERR_UPD_UNRECOGNIZED_WELLKNOWN, "Unrecognized Well-known Attribute" },
	{ BGP_ERR_UPD_MISSING_WELLKNOWN, "Missing Well-known Attribute" },
	{ BGP_ERR_UPD_ATTR_FLAGS, "Attribute Flags Error" },
	{ BGP_ERR_UPD_ATTR_LENGTH, "Attribute Length Error" },
	{ BGP_ERR_UPD_INVALID_ORIGIN, "Invalid ORIGIN Attribute" },
	{ BGP_ERR_UPD_AS_ROUTING_LOOP, "AS Routing Loop" },
	{ BGP_ERR_UPD_INVALID_NEXT_HOP, "Invalid NEXT_HOP Attribute" },
	{ BGP_ERR_UPD_OPTIONAL_ATTR, "Optional Attribute Error" },
	{ BGP_ERR_UPD_INVALID_NETWORK, "Invalid Network Field" },
	{ BGP_ERR_UPD_MALFORMED_AS_PATH, "Malformed AS_PATH" },
	{ 0, NULL },
};

static const struct bgp_err_text fsm_text[] = {
	{ BGP_ERR_UNSPECIFIC, "Unspecific" },
	{ BGP_ERR_FSM_UNEXPECTED_OPENSENT, "Receive Unexpected Message in OpenSent State" },
	{ BGP_ERR_FSM_UNEXPECTED_OPENCONFIRM, "Receive Unexpected Message in OpenConfirm State" },
	{ BGP_ERR_FSM_UNEXPECTED_ESTABLISHED, "Receive Unexpected Message in Established State" },
	{ 0, NULL },
};

static const struct bgp_err_text cease_text[] = {
	{ BGP_ERR_UNSPECIFIC, "Unspecific" },
	{ BGP_ERR_CEASE_MAX_PREFIX, "Maximum Number of Prefixes Reached" },
	{ BGP_ERR_CEASE_ADMIN_SHUTDOWN, "Administrative Shutdown" },
	{ BGP_ERR_CEASE_PEER_DECONFIGURED, "Peer De-configured" },
	{ BGP_ERR_CEASE_ADMIN_RESET, "Administrative Reset" },
	{ BGP_ERR_CEASE_CONNECTION_REJECTED, "Connection Rejected" },
	{ BGP_ERR_CEASE_CONFIG_CHANGE, "Other Configuration Change" },
	{ BGP_ERR_CEASE_COLLISION, "Connection Collision Resolution" },
	{ BGP_ERR_CEASE_OUT_OF_RESOURCES, "Out of Resources" },
	{ BGP_ERR_CEASE_HARD_RESET, "Hard Reset" },
	{ 10, "BFD Down" },
	{ 0, NULL },
};

static const struct bgp_err_text rr_text[] = {
	{ BGP_ERR_UNSPECIFIC, "Unspecific" },
	{ BGP_ERR_RR_INVALID_LENGTH, "Invalid Message Length" },
	{ 0, NULL },
};

const char *bgp_error_code_str(uint8_t code)
{
	switch (code) {
	case BGP_ERR_HEADER:
		return "Message Header Error";
	case BGP_ERR_OPEN:
		return "OPEN Message Error";
	case BGP_ERR_UPDATE:
		return "UPDATE Message Error";
	case BGP_ERR_HOLD_TIMER:
		return "Hold Timer Expired";
	case BGP_ERR_FSM:
		return "Neighbor Events Error";
	case BGP_ERR_CEASE:
		return "Cease";
	case BGP_ERR_ROUTE_REFRESH:
		return "ROUTE-REFRESH Message Error";
	case BGP_ERR_SEND_HOLD_TIMER:
		return "Send Hold Timer Expired"; /* RFC 9687 6 */
	}
	return "Unrecognized Error Code";
}

static const char *lookup(const struct bgp_err_text *t, uint8_t subcode)
{
	for (; t->text; t++)
		if (t->subcode == subcode)
			return t->text;
	return "Unrecognized Error Subcode";
}

const char *bgp_error_subcode_str(uint8_t code, uint8_t subcode)
{
	switch (code) {
	case BGP_ERR_HEADER:
		return lookup(hdr_text, subcode);
	case BGP_ERR_OPEN:
		return lookup(open_text, subcode);
	case BGP_ERR_UPDATE:
		return lookup(update_text, subcode);
	case BGP_ERR_FSM:
		return lookup(fsm_text, subcode);
	case BGP_ERR_CEASE:
		return lookup(cease_text, subcode);
	case BGP_ERR_ROUTE_REFRESH:
		return lookup(rr_text, subcode);
	}
	return ""; /* (Send) Hold Timer Expired and unknown codes carry no subcode text */
}

const char *bgp_error_str(uint8_t code, uint8_t subcode, char *buf, size_t size)
{
	const char *sub = bgp_error_subcode_str(code, subcode);

	if (!size)
		return buf;
	snprintf(buf, size, "%s%s%s", bgp_error_code_str(code), *sub ? "/" : "", sub);
	return buf;
}

bool bgp_error_inner(const struct bgp_error *err, uint8_t *code, uint8_t *subcode)
{
	if (err->code == BGP_ERR_CEASE && err->subcode == BGP_ERR_CEASE_HARD_RESET &&
	    err->data_len >= 2) {
		*code = err->data[0];
		*subcode = err->data[1];
		return true;
	}
	*code = err->code;
	*subcode = err->subcode;
	return false;
}
