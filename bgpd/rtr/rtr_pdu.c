/* SPDX-License-Identifier: ISC */
/*
 * The RTR PDU codec (rtr_pdu.h). One row per PDU type says in which versions it exists and
 * what length it may have; the decoder checks the row, then reads the body with bounds-checked
 * readers. Nothing here allocates or logs: the fuzz target links this file alone.
 */
#include "lib/compat.h"

#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <sys/socket.h>

#include "bgpd/rtr/rtr_pdu.h"

/* Big-endian readers and writers on a buffer already checked to be long enough. */
static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

/* The layout table: in which versions a type exists, and its length (fixed, or a minimum when
 * variable). Version 0 End of Data is shorter: handled in the decoder. */
struct pdu_row {
	const char *name;
	uint8_t min_version;
	bool variable;
	uint32_t len;
};

static const struct pdu_row rows[] = {
	[RTR_PDU_SERIAL_NOTIFY] = { "Serial Notify", 0, false, 12 },
	[RTR_PDU_SERIAL_QUERY] = { "Serial Query", 0, false, 12 },
	[RTR_PDU_RESET_QUERY] = { "Reset Query", 0, false, 8 },
	[RTR_PDU_CACHE_RESPONSE] = { "Cache Response", 0, false, 8 },
	[RTR_PDU_IPV4_PREFIX] = { "IPv4 Prefix", 0, false, 20 },
	[5] = { NULL, 0, false, 0 },
	[RTR_PDU_IPV6_PREFIX] = { "IPv6 Prefix", 0, false, 32 },
	[RTR_PDU_END_OF_DATA] = { "End of Data", 0, false, 24 },
	[RTR_PDU_CACHE_RESET] = { "Cache Reset", 0, false, 8 },
	[RTR_PDU_ROUTER_KEY] = { "Router Key", 1, true, 8 + RTR_SKI_LEN + 4 },
	[RTR_PDU_ERROR_REPORT] = { "Error Report", 0, true, 16 },
	[RTR_PDU_ASPA] = { "ASPA", 2, true, 16 },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

const char *rtr_pdu_type_name(uint8_t type)
{
	if (type < NROWS && rows[type].name)
		return rows[type].name;
	return "unknown PDU type";
}

const char *rtr_error_code_name(uint16_t code)
{
	static const char *const names[] = {
		[RTR_ERR_CORRUPT_DATA] = "Corrupt Data",
		[RTR_ERR_INTERNAL] = "Internal Error",
		[RTR_ERR_NO_DATA] = "No Data Available",
		[RTR_ERR_INVALID_REQUEST] = "Invalid Request",
		[RTR_ERR_UNSUPPORTED_VERSION] = "Unsupported Protocol Version",
		[RTR_ERR_UNSUPPORTED_PDU_TYPE] = "Unsupported PDU Type",
		[RTR_ERR_WITHDRAWAL_UNKNOWN] = "Withdrawal of Unknown Record",
		[RTR_ERR_DUPLICATE_ANNOUNCEMENT] = "Duplicate Announcement Received",
		[RTR_ERR_UNEXPECTED_VERSION] = "Unexpected Protocol Version",
		[RTR_ERR_ASPA_PROVIDER_LIST] = "ASPA Provider List Error",
	};

	if (code < sizeof(names) / sizeof(names[0]))
		return names[code];
	return "unknown error code";
}

void rtr_pdu_describe(const struct rtr_pdu *p, char *buf, size_t size)
{
	char addr[INET6_ADDRSTRLEN] = "?";
	int n;

	if (!size)
		return;
	n = snprintf(buf, size, "%s v%u len %u", rtr_pdu_type_name(p->type), p->version, p->length);
	if (n < 0 || (size_t)n >= size)
		return;
	buf += n;
	size -= (size_t)n;
	switch (p->type) {
	case RTR_PDU_SERIAL_NOTIFY:
	case RTR_PDU_SERIAL_QUERY:
		snprintf(buf, size, ": session %u serial %u", p->session_id, p->u.serial);
		break;
	case RTR_PDU_CACHE_RESPONSE:
		snprintf(buf, size, ": session %u", p->session_id);
		break;
	case RTR_PDU_IPV4_PREFIX:
	case RTR_PDU_IPV6_PREFIX:
		inet_ntop(p->type == RTR_PDU_IPV4_PREFIX ? AF_INET : AF_INET6, p->u.prefix.addr,
			  addr, sizeof(addr));
		snprintf(buf, size, ": %s %s/%u max %u AS%u",
			 (p->u.prefix.flags & RTR_FLAG_ANNOUNCE) ? "announce" : "withdraw", addr,
			 p->u.prefix.prefix_len, p->u.prefix.max_len, p->u.prefix.asn);
		break;
	case RTR_PDU_END_OF_DATA:
		if (p->version == 0)
			snprintf(buf, size, ": session %u serial %u", p->session_id,
				 p->u.eod.serial);
		else
			snprintf(buf, size, ": session %u serial %u refresh %u retry %u expire %u",
				 p->session_id, p->u.eod.serial, p->u.eod.refresh, p->u.eod.retry,
				 p->u.eod.expire);
		break;
	case RTR_PDU_ROUTER_KEY:
		snprintf(buf, size, ": %s AS%u",
			 (p->u.router_key.flags & RTR_FLAG_ANNOUNCE) ? "announce" : "withdraw",
			 p->u.router_key.asn);
		break;
	case RTR_PDU_ERROR_REPORT:
		/* The text is the cache's: only its printable bytes, and not all of them. */
		n = snprintf(buf, size, ": %s (%u), %u bytes of PDU, text \"",
			     rtr_error_code_name(p->u.error.code), p->u.error.code,
			     p->u.error.pdu_len);
		if (n < 0 || (size_t)n >= size)
			break;
		for (uint32_t i = 0;
		     i < p->u.error.text_len && i < RTR_ERROR_TEXT_MAX && (size_t)n + 2 < size;
		     i++) {
			unsigned char ch = (unsigned char)p->u.error.text[i];

			if (ch == '\0' && i + 1 == p->u.error.text_len)
				break;
			buf[n++] = (ch >= 0x20 && ch < 0x7f && ch != '"') ? (char)ch : '.';
		}
		if ((size_t)n + 1 < size) {
			buf[n++] = '"';
			buf[n] = '\0';
		}
		break;
	case RTR_PDU_ASPA:
		snprintf(buf, size, ": %s customer AS%u%s, %u providers",
			 (p->u.aspa.flags & RTR_FLAG_ANNOUNCE) ? "announce" : "withdraw",
			 p->u.aspa.customer,
			 (p->u.aspa.afi_flags & RTR_ASPA_AFI_IPV6) ? " (IPv6)" : "",
			 p->u.aspa.nproviders);
		break;
	default:
		break; /* Reset Query, Cache Reset: the header says it all */
	}
}

static int fail(struct rtr_pdu_error *err, uint16_t code, const char *why)
{
	err->code = code;
	err->why = why;
	return -1;
}

int rtr_pdu_frame(const uint8_t *buf, size_t len, uint32_t *pdu_len, struct rtr_pdu_error *err)
{
	uint32_t l;

	if (len < RTR_PDU_HEADER_LEN)
		return 1;
	l = get32(buf + 4);
	if (l < RTR_PDU_HEADER_LEN)
		return fail(err, RTR_ERR_CORRUPT_DATA, "PDU length under 8 bytes");
	if (l > RTR_PDU_MAX)
		return fail(err, RTR_ERR_CORRUPT_DATA,
			    "PDU length over the largest a cache can send");
	*pdu_len = l;
	return 0;
}

static int decode_prefix(const uint8_t *b, struct rtr_pdu *pdu, bool v6, struct rtr_pdu_error *err)
{
	unsigned bits = v6 ? 128 : 32;
	size_t alen = v6 ? 16 : 4;

	pdu->u.prefix.flags = b[8];
	pdu->u.prefix.prefix_len = b[9];
	pdu->u.prefix.max_len = b[10];
	memset(pdu->u.prefix.addr, 0, sizeof(pdu->u.prefix.addr));
	memcpy(pdu->u.prefix.addr, b + 12, alen);
	pdu->u.prefix.asn = get32(b + 12 + alen);
	if (pdu->u.prefix.flags & ~RTR_FLAG_ANNOUNCE)
		return fail(err, RTR_ERR_CORRUPT_DATA, "prefix PDU with unknown flags");
	/* RFC 8210 5.6: lengths within the family, max_len not under the prefix length. */
	if (pdu->u.prefix.prefix_len > bits || pdu->u.prefix.max_len > bits)
		return fail(err, RTR_ERR_CORRUPT_DATA,
			    "prefix length or max length beyond the family");
	if (pdu->u.prefix.max_len < pdu->u.prefix.prefix_len)
		return fail(err, RTR_ERR_CORRUPT_DATA, "max length under the prefix length");
	return 0;
}

static int decode_error_report(const uint8_t *b, size_t len, struct rtr_pdu *pdu,
			       struct rtr_pdu_error *err)
{
	uint32_t elen, tlen;
	size_t off = 12;

	pdu->u.error.code = pdu->session_id;
	elen = get32(b + 8);
	if (elen > len - off - 4)
		return fail(err, RTR_ERR_CORRUPT_DATA,
			    "Error Report: encapsulated PDU past its end");
	pdu->u.error.pdu = elen ? b + off : NULL;
	pdu->u.error.pdu_len = elen;
	off += elen;
	tlen = get32(b + off);
	off += 4;
	if (tlen != len - off)
		return fail(err, RTR_ERR_CORRUPT_DATA,
			    "Error Report: text length disagrees with PDU");
	pdu->u.error.text = tlen ? (const char *)(b + off) : NULL;
	pdu->u.error.text_len = tlen;
	return 0;
}

static int decode_aspa(const uint8_t *b, size_t len, struct rtr_pdu *pdu, struct rtr_pdu_error *err)
{
	pdu->u.aspa.flags = b[8];
	pdu->u.aspa.afi_flags = b[9];
	pdu->u.aspa.nproviders = get16(b + 10);
	pdu->u.aspa.customer = get32(b + 12);
	pdu->u.aspa.providers = b + 16;
	if (pdu->session_id != 0)
		return fail(err, RTR_ERR_CORRUPT_DATA, "ASPA: non-zero header field");
	if ((pdu->u.aspa.flags & ~RTR_FLAG_ANNOUNCE) ||
	    (pdu->u.aspa.afi_flags & ~RTR_ASPA_AFI_IPV6))
		return fail(err, RTR_ERR_CORRUPT_DATA, "ASPA: unknown flags");
	if ((len - 16) % 4 || (len - 16) / 4 != pdu->u.aspa.nproviders)
		return fail(err, RTR_ERR_ASPA_PROVIDER_LIST,
			    "ASPA: provider count disagrees with the PDU length");
	/* Nothing more is checked: draft -10 allows an empty provider list, and a withdrawal may
	 * repeat the providers it withdraws; the store judges the record. */
	return 0;
}

int rtr_pdu_decode(const uint8_t *b, size_t len, struct rtr_pdu *pdu, struct rtr_pdu_error *err)
{
	const struct pdu_row *row;
	uint32_t want;

	memset(pdu, 0, sizeof(*pdu));
	if (len < RTR_PDU_HEADER_LEN)
		return fail(err, RTR_ERR_CORRUPT_DATA, "PDU shorter than its header");
	pdu->version = b[0];
	pdu->type = b[1];
	pdu->session_id = get16(b + 2);
	pdu->length = get32(b + 4);
	if (pdu->length != len)
		return fail(err, RTR_ERR_CORRUPT_DATA, "PDU length field disagrees with the PDU");
	if (pdu->version > RTR_VERSION_MAX)
		return fail(err, RTR_ERR_UNSUPPORTED_VERSION, "protocol version over 2");
	if (pdu->type >= NROWS || !rows[pdu->type].name ||
	    pdu->version < rows[pdu->type].min_version)
		return fail(err, RTR_ERR_UNSUPPORTED_PDU_TYPE, "PDU type unknown in this version");
	row = &rows[pdu->type];
	want = row->len;
	if (pdu->type == RTR_PDU_END_OF_DATA && pdu->version == 0)
		want = 12; /* RFC 6810 5.8: no timers */
	if (row->variable ? len < want : len != want)
		return fail(err, RTR_ERR_CORRUPT_DATA, "PDU length wrong for its type");

	switch (pdu->type) {
	case RTR_PDU_SERIAL_NOTIFY:
	case RTR_PDU_SERIAL_QUERY:
		pdu->u.serial = get32(b + 8);
		return 0;
	case RTR_PDU_RESET_QUERY:
	case RTR_PDU_CACHE_RESPONSE:
	case RTR_PDU_CACHE_RESET:
		return 0;
	case RTR_PDU_IPV4_PREFIX:
		return decode_prefix(b, pdu, false, err);
	case RTR_PDU_IPV6_PREFIX:
		return decode_prefix(b, pdu, true, err);
	case RTR_PDU_END_OF_DATA:
		pdu->u.eod.serial = get32(b + 8);
		if (pdu->version > 0) {
			pdu->u.eod.refresh = get32(b + 12);
			pdu->u.eod.retry = get32(b + 16);
			pdu->u.eod.expire = get32(b + 20);
		}
		return 0;
	case RTR_PDU_ROUTER_KEY:
		pdu->u.router_key.flags = b[2];
		if (pdu->u.router_key.flags & ~RTR_FLAG_ANNOUNCE)
			return fail(err, RTR_ERR_CORRUPT_DATA, "Router Key with unknown flags");
		memcpy(pdu->u.router_key.ski, b + 8, RTR_SKI_LEN);
		pdu->u.router_key.asn = get32(b + 8 + RTR_SKI_LEN);
		pdu->u.router_key.spki = b + want;
		pdu->u.router_key.spki_len = len - want;
		return 0;
	case RTR_PDU_ERROR_REPORT:
		return decode_error_report(b, len, pdu, err);
	case RTR_PDU_ASPA:
		return decode_aspa(b, len, pdu, err);
	}
	return fail(err, RTR_ERR_UNSUPPORTED_PDU_TYPE, "PDU type unknown in this version");
}

uint32_t rtr_pdu_aspa_provider(const struct rtr_pdu *pdu, uint16_t i)
{
	return get32(pdu->u.aspa.providers + (size_t)i * 4);
}

static void put_header(uint8_t *b, const struct rtr_pdu *pdu, uint16_t field, uint32_t len)
{
	b[0] = pdu->version;
	b[1] = pdu->type;
	put16(b + 2, field);
	put32(b + 4, len);
}

int rtr_pdu_encode(const struct rtr_pdu *pdu, uint8_t *b, size_t size)
{
	size_t len, alen;

	switch (pdu->type) {
	case RTR_PDU_SERIAL_NOTIFY:
	case RTR_PDU_SERIAL_QUERY:
		len = 12;
		if (size < len)
			return -1;
		put_header(b, pdu, pdu->session_id, len);
		put32(b + 8, pdu->u.serial);
		return (int)len;
	case RTR_PDU_RESET_QUERY:
	case RTR_PDU_CACHE_RESET:
	case RTR_PDU_CACHE_RESPONSE:
		len = 8;
		if (size < len)
			return -1;
		put_header(b, pdu, pdu->type == RTR_PDU_CACHE_RESPONSE ? pdu->session_id : 0, len);
		return (int)len;
	case RTR_PDU_IPV4_PREFIX:
	case RTR_PDU_IPV6_PREFIX:
		alen = pdu->type == RTR_PDU_IPV6_PREFIX ? 16 : 4;
		len = 16 + alen;
		if (size < len)
			return -1;
		put_header(b, pdu, 0, len);
		b[8] = pdu->u.prefix.flags;
		b[9] = pdu->u.prefix.prefix_len;
		b[10] = pdu->u.prefix.max_len;
		b[11] = 0;
		memcpy(b + 12, pdu->u.prefix.addr, alen);
		put32(b + 12 + alen, pdu->u.prefix.asn);
		return (int)len;
	case RTR_PDU_END_OF_DATA:
		len = pdu->version == 0 ? 12 : 24;
		if (size < len)
			return -1;
		put_header(b, pdu, pdu->session_id, len);
		put32(b + 8, pdu->u.eod.serial);
		if (pdu->version > 0) {
			put32(b + 12, pdu->u.eod.refresh);
			put32(b + 16, pdu->u.eod.retry);
			put32(b + 20, pdu->u.eod.expire);
		}
		return (int)len;
	case RTR_PDU_ROUTER_KEY:
		len = 8 + RTR_SKI_LEN + 4 + pdu->u.router_key.spki_len;
		if (size < len || len > RTR_PDU_MAX)
			return -1;
		put_header(b, pdu, (uint16_t)(pdu->u.router_key.flags << 8), len);
		memcpy(b + 8, pdu->u.router_key.ski, RTR_SKI_LEN);
		put32(b + 8 + RTR_SKI_LEN, pdu->u.router_key.asn);
		if (pdu->u.router_key.spki_len)
			memcpy(b + 8 + RTR_SKI_LEN + 4, pdu->u.router_key.spki,
			       pdu->u.router_key.spki_len);
		return (int)len;
	case RTR_PDU_ERROR_REPORT:
		len = 16 + (size_t)pdu->u.error.pdu_len + pdu->u.error.text_len;
		if (size < len || len > RTR_PDU_MAX)
			return -1;
		put_header(b, pdu, pdu->u.error.code, len);
		put32(b + 8, pdu->u.error.pdu_len);
		if (pdu->u.error.pdu_len)
			memcpy(b + 12, pdu->u.error.pdu, pdu->u.error.pdu_len);
		put32(b + 12 + pdu->u.error.pdu_len, pdu->u.error.text_len);
		if (pdu->u.error.text_len)
			memcpy(b + 16 + pdu->u.error.pdu_len, pdu->u.error.text,
			       pdu->u.error.text_len);
		return (int)len;
	case RTR_PDU_ASPA:
		len = 16 + (size_t)pdu->u.aspa.nproviders * 4;
		if (size < len)
			return -1;
		put_header(b, pdu, 0, len);
		b[8] = pdu->u.aspa.flags;
		b[9] = pdu->u.aspa.afi_flags;
		put16(b + 10, pdu->u.aspa.nproviders);
		put32(b + 12, pdu->u.aspa.customer);
		if (pdu->u.aspa.nproviders)
			memcpy(b + 16, pdu->u.aspa.providers, (size_t)pdu->u.aspa.nproviders * 4);
		return (int)len;
	}
	return -1;
}

size_t rtr_pdu_error_report(uint8_t *buf, uint8_t version, uint16_t code, const uint8_t *bad_pdu,
			    size_t bad_len, const char *text)
{
	struct rtr_pdu pdu = { .version = version, .type = RTR_PDU_ERROR_REPORT };
	size_t tlen = text ? strnlen(text, RTR_ERROR_TEXT_MAX) : 0;

	pdu.u.error.code = code;
	pdu.u.error.pdu = bad_pdu;
	if (!bad_pdu)
		bad_len = 0;
	pdu.u.error.pdu_len =
		(uint32_t)(bad_len < RTR_ERROR_PDU_COPY_MAX ? bad_len : RTR_ERROR_PDU_COPY_MAX);
	pdu.u.error.text = text;
	pdu.u.error.text_len = (uint32_t)tlen;
	return (size_t)rtr_pdu_encode(&pdu, buf, RTR_ERROR_REPORT_MAX);
}
