/* SPDX-License-Identifier: ISC */
/*
 * The RTR PDU codec (bgpd/rtr/rtr_pdu.c): byte vectors of every PDU type in every version
 * it exists in (decoded, checked, re-encoded to the same bytes), StayRTR 0.5.1's ASPA PDU as
 * it sent it, every length/type/version error with the Error Report code it calls for, every
 * truncation, and the Error Report we build.
 */
#include "lib/compat.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/rtr/rtr_pdu.h"

static size_t hex(uint8_t *buf, size_t size, const char *s)
{
	size_t n = 0;
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (isspace((unsigned char)*s) || *s == '|')
			continue;
		ck_assert_msg(isxdigit((unsigned char)*s), "bad hex '%c'", *s);
		v = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		if (hi < 0) {
			hi = v;
			continue;
		}
		ck_assert(n < size);
		buf[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	ck_assert(hi < 0);
	return n;
}

/* Decode h, which must succeed, re-encode, and compare. */
static struct rtr_pdu roundtrip(const char *h, uint8_t *buf, size_t size)
{
	struct rtr_pdu_error err = { 0 };
	struct rtr_pdu pdu;
	uint8_t out[1024];
	size_t n = hex(buf, size, h);
	uint32_t plen;
	int m;

	ck_assert_int_eq(rtr_pdu_frame(buf, n, &plen, &err), 0);
	ck_assert_uint_eq(plen, n);
	ck_assert_msg(rtr_pdu_decode(buf, n, &pdu, &err) == 0, "%s: %s", h, err.why);
	ck_assert_uint_eq(pdu.length, n);
	m = rtr_pdu_encode(&pdu, out, sizeof(out));
	ck_assert_int_eq(m, (int)n);
	ck_assert_msg(memcmp(out, buf, n) == 0, "re-encoding %s differs", h);
	/* Every truncation is refused. */
	for (size_t k = 0; k < n; k++) {
		struct rtr_pdu cut;

		ck_assert_int_eq(rtr_pdu_decode(buf, k, &cut, &err), -1);
		ck_assert_uint_eq(err.code, RTR_ERR_CORRUPT_DATA);
	}
	return pdu;
}

START_TEST(test_queries_and_responses)
{
	uint8_t b[128];
	struct rtr_pdu p;

	for (int v = 0; v <= 2; v++) {
		char h[128];

		snprintf(h, sizeof(h), "%02x 00 1234 0000000c 00000005", v); /* Serial Notify */
		p = roundtrip(h, b, sizeof(b));
		ck_assert_uint_eq(p.version, v);
		ck_assert_uint_eq(p.type, RTR_PDU_SERIAL_NOTIFY);
		ck_assert_uint_eq(p.session_id, 0x1234);
		ck_assert_uint_eq(p.u.serial, 5);
		snprintf(h, sizeof(h), "%02x 01 1234 0000000c ffffffff", v); /* Serial Query */
		p = roundtrip(h, b, sizeof(b));
		ck_assert_uint_eq(p.type, RTR_PDU_SERIAL_QUERY);
		ck_assert_uint_eq(p.u.serial, 0xffffffff);
		snprintf(h, sizeof(h), "%02x 02 0000 00000008", v); /* Reset Query */
		p = roundtrip(h, b, sizeof(b));
		ck_assert_uint_eq(p.type, RTR_PDU_RESET_QUERY);
		snprintf(h, sizeof(h), "%02x 03 9999 00000008", v); /* Cache Response */
		p = roundtrip(h, b, sizeof(b));
		ck_assert_uint_eq(p.type, RTR_PDU_CACHE_RESPONSE);
		ck_assert_uint_eq(p.session_id, 0x9999);
		snprintf(h, sizeof(h), "%02x 08 0000 00000008", v); /* Cache Reset */
		p = roundtrip(h, b, sizeof(b));
		ck_assert_uint_eq(p.type, RTR_PDU_CACHE_RESET);
	}
}
END_TEST

START_TEST(test_prefixes)
{
	uint8_t b[128];
	struct rtr_pdu p;

	/* What StayRTR 0.5.1 sent for 198.51.100.0/24-24 AS64500 and 2001:db8::/32-48 AS64501. */
	p = roundtrip("02 04 0000 00000014 01 18 18 00 c6336400 0000fbf4", b, sizeof(b));
	ck_assert_uint_eq(p.type, RTR_PDU_IPV4_PREFIX);
	ck_assert_uint_eq(p.u.prefix.flags, RTR_FLAG_ANNOUNCE);
	ck_assert_uint_eq(p.u.prefix.prefix_len, 24);
	ck_assert_uint_eq(p.u.prefix.max_len, 24);
	ck_assert_uint_eq(p.u.prefix.addr[0], 198);
	ck_assert_uint_eq(p.u.prefix.addr[2], 100);
	ck_assert_uint_eq(p.u.prefix.asn, 64500);
	p = roundtrip("00 06 0000 00000020 01 20 30 00 20010db8000000000000000000000000 0000fbf5",
		      b, sizeof(b));
	ck_assert_uint_eq(p.type, RTR_PDU_IPV6_PREFIX);
	ck_assert_uint_eq(p.u.prefix.prefix_len, 32);
	ck_assert_uint_eq(p.u.prefix.max_len, 48);
	ck_assert_uint_eq(p.u.prefix.addr[1], 0x01);
	ck_assert_uint_eq(p.u.prefix.asn, 64501);
	/* Withdrawal, edges: /0, /32 and /128. */
	p = roundtrip("01 04 0000 00000014 00 00 20 00 00000000 00000000", b, sizeof(b));
	ck_assert_uint_eq(p.u.prefix.flags, 0);
	ck_assert_uint_eq(p.u.prefix.max_len, 32);
	roundtrip("01 06 0000 00000020 00 80 80 00 20010db8000000000000000000000001 00000001", b,
		  sizeof(b));
}
END_TEST

START_TEST(test_end_of_data)
{
	uint8_t b[128];
	struct rtr_pdu p;

	p = roundtrip("00 07 0102 0000000c 0000002a", b, sizeof(b)); /* RFC 6810: no timers */
	ck_assert_uint_eq(p.session_id, 0x0102);
	ck_assert_uint_eq(p.u.eod.serial, 42);
	ck_assert_uint_eq(p.u.eod.refresh, 0);
	/* StayRTR's, version 2: refresh 3600, retry 600, expire 7200. */
	p = roundtrip("02 07 9229 00000018 00000000 00000e10 00000258 00001c20", b, sizeof(b));
	ck_assert_uint_eq(p.u.eod.refresh, 3600);
	ck_assert_uint_eq(p.u.eod.retry, 600);
	ck_assert_uint_eq(p.u.eod.expire, 7200);
	p = roundtrip("01 07 0001 00000018 00000001 00000001 00000002 00000258", b, sizeof(b));
	ck_assert_uint_eq(p.version, 1);
}
END_TEST

START_TEST(test_router_key_and_error_report)
{
	uint8_t b[256];
	struct rtr_pdu p;

	p = roundtrip(
		"01 09 0100 00000024 0102030405060708090a0b0c0d0e0f1011121314 0000fbf4 aabbccdd", b,
		sizeof(b));
	ck_assert_uint_eq(p.type, RTR_PDU_ROUTER_KEY);
	ck_assert_uint_eq(p.u.router_key.flags, RTR_FLAG_ANNOUNCE);
	ck_assert_uint_eq(p.u.router_key.asn, 64500);
	ck_assert_uint_eq(p.u.router_key.spki_len, 4);
	ck_assert_uint_eq(p.u.router_key.ski[19], 0x14);
	roundtrip("02 09 0000 00000020 0102030405060708090a0b0c0d0e0f1011121314 0000fbf4", b,
		  sizeof(b));
	/* StayRTR 0.5.1's answer to a version 3 query: text with a terminating NUL. */
	p = roundtrip(
		"00 0a 0004 00000025 00000000 00000015 4261642070726f746f636f6c2076657273696f6e00",
		b, sizeof(b));
	ck_assert_uint_eq(p.u.error.code, RTR_ERR_UNSUPPORTED_VERSION);
	ck_assert_uint_eq(p.u.error.pdu_len, 0);
	ck_assert_uint_eq(p.u.error.text_len, 21);
	ck_assert_int_eq(memcmp(p.u.error.text, "Bad protocol version", 20), 0);
	/* With an encapsulated PDU and no text. */
	p = roundtrip("01 0a 0000 0000001c 0000000c 01000007 0000000c 00000001 00000000", b,
		      sizeof(b));
	ck_assert_uint_eq(p.u.error.pdu_len, 12);
	ck_assert_uint_eq(p.u.error.pdu[1], 0);
	ck_assert_ptr_null(p.u.error.text);
}
END_TEST

START_TEST(test_aspa)
{
	uint8_t b[128];
	struct rtr_pdu p;

	/* StayRTR 0.5.1 (draft -10): AS64500 -> 64501, 64502 for IPv4; 64503 for IPv6. */
	p = roundtrip("02 0b 0000 00000018 01 00 0002 0000fbf4 0000fbf5 0000fbf6", b, sizeof(b));
	ck_assert_uint_eq(p.type, RTR_PDU_ASPA);
	ck_assert_uint_eq(p.u.aspa.flags, RTR_FLAG_ANNOUNCE);
	ck_assert_uint_eq(p.u.aspa.afi_flags, 0);
	ck_assert_uint_eq(p.u.aspa.customer, 64500);
	ck_assert_uint_eq(p.u.aspa.nproviders, 2);
	ck_assert_uint_eq(rtr_pdu_aspa_provider(&p, 0), 64501);
	ck_assert_uint_eq(rtr_pdu_aspa_provider(&p, 1), 64502);
	p = roundtrip("02 0b 0000 00000014 01 01 0001 0000fbf4 0000fbf7", b, sizeof(b));
	ck_assert_uint_eq(p.u.aspa.afi_flags, RTR_ASPA_AFI_IPV6);
	p = roundtrip("02 0b 0000 00000010 00 01 0000 0000fbf4", b, sizeof(b)); /* withdrawal */
	ck_assert_uint_eq(p.u.aspa.flags, 0);
	ck_assert_uint_eq(p.u.aspa.nproviders, 0);
}
END_TEST

/* Each malformed PDU and the Error Report code it calls for. */
static const struct {
	const char *hex;
	uint16_t code;
} bad[] = {
	{ "02 04 0000 00000015 01 18 18 00 c6336400 0000fbf4 00", RTR_ERR_CORRUPT_DATA }, /* long */
	{ "02 04 0000 00000010 01 18 18 00 c6336400", RTR_ERR_CORRUPT_DATA },	       /* short */
	{ "02 06 0000 00000014 01 18 18 00 c6336400 0000fbf4", RTR_ERR_CORRUPT_DATA }, /* v6 20 */
	{ "02 00 0000 00000010 00000001 00000000", RTR_ERR_CORRUPT_DATA },
	{ "02 02 0000 0000000c 00000000", RTR_ERR_CORRUPT_DATA },
	{ "00 07 0001 00000018 00000001 00000001 00000002 00000258", RTR_ERR_CORRUPT_DATA },
	{ "01 07 0001 0000000c 00000001", RTR_ERR_CORRUPT_DATA }, /* v1 EoD without timers */
	{ "02 04 0000 00000014 01 21 21 00 c6336400 0000fbf4", RTR_ERR_CORRUPT_DATA }, /* /33 */
	{ "02 04 0000 00000014 01 18 21 00 c6336400 0000fbf4", RTR_ERR_CORRUPT_DATA }, /* max 33 */
	{ "02 04 0000 00000014 01 18 10 00 c6336400 0000fbf4", RTR_ERR_CORRUPT_DATA }, /* max<len */
	{ "02 06 0000 00000020 01 81 81 00 20010db8000000000000000000000000 00000001",
	  RTR_ERR_CORRUPT_DATA },
	{ "02 04 0000 00000014 03 18 18 00 c6336400 0000fbf4", RTR_ERR_CORRUPT_DATA }, /* flags */
	{ "03 02 0000 00000008", RTR_ERR_UNSUPPORTED_VERSION },
	{ "ff 04 0000 00000014 01 18 18 00 c6336400 0000fbf4", RTR_ERR_UNSUPPORTED_VERSION },
	{ "02 05 0000 00000008", RTR_ERR_UNSUPPORTED_PDU_TYPE },
	{ "02 0c 0000 00000008", RTR_ERR_UNSUPPORTED_PDU_TYPE },
	{ "02 ff 0000 00000008", RTR_ERR_UNSUPPORTED_PDU_TYPE },
	{ "00 09 0000 00000020 0102030405060708090a0b0c0d0e0f1011121314 0000fbf4",
	  RTR_ERR_UNSUPPORTED_PDU_TYPE }, /* Router Key in version 0 */
	{ "01 0b 0000 00000010 00 00 0000 0000fbf4", RTR_ERR_UNSUPPORTED_PDU_TYPE }, /* ASPA v1 */
	{ "01 09 0000 0000001f 0102030405060708090a0b0c0d0e0f1011121314 0000fb",
	  RTR_ERR_CORRUPT_DATA }, /* Router Key without its ASN */
	{ "01 0a 0000 00000010 00000005 00000000", RTR_ERR_CORRUPT_DATA },    /* PDU past end */
	{ "01 0a 0000 00000010 00000000 00000001", RTR_ERR_CORRUPT_DATA },    /* text past end */
	{ "01 0a 0000 00000011 00000000 00000000 41", RTR_ERR_CORRUPT_DATA }, /* text short */
	{ "01 0a 0000 0000000c 00000000", RTR_ERR_CORRUPT_DATA },	      /* no text length */
	{ "01 0a 0000 00000010 ffffffff 00000000", RTR_ERR_CORRUPT_DATA },    /* huge length */
	{ "02 0b 0000 00000018 01 00 0001 0000fbf4 0000fbf5 0000fbf6", RTR_ERR_ASPA_PROVIDER_LIST },
	{ "02 0b 0000 00000014 01 00 0002 0000fbf4 0000fbf5", RTR_ERR_ASPA_PROVIDER_LIST },
	{ "02 0b 0000 00000016 01 00 0001 0000fbf4 0000fbf5 0000", RTR_ERR_ASPA_PROVIDER_LIST },
	{ "02 0b 0001 00000014 01 00 0001 0000fbf4 0000fbf5", RTR_ERR_CORRUPT_DATA },
	{ "02 0b 0000 00000014 01 02 0001 0000fbf4 0000fbf5", RTR_ERR_CORRUPT_DATA }, /* AFI 2 */
	{ "02 0b 0000 0000000c 01 00 0000", RTR_ERR_CORRUPT_DATA }, /* no customer */
};

START_TEST(test_errors)
{
	struct rtr_pdu_error err;
	struct rtr_pdu p;
	uint8_t b[128];
	size_t n = hex(b, sizeof(b), bad[_i].hex);

	memset(&err, 0, sizeof(err));
	ck_assert_msg(rtr_pdu_decode(b, n, &p, &err) == -1, "accepted %s", bad[_i].hex);
	ck_assert_msg(err.code == bad[_i].code, "%s: code %u (%s), expected %u", bad[_i].hex,
		      err.code, err.why, bad[_i].code);
	ck_assert_ptr_nonnull(err.why);
}
END_TEST

START_TEST(test_frame)
{
	struct rtr_pdu_error err;
	uint8_t b[16];
	uint32_t len = 0;

	hex(b, sizeof(b), "02 04 0000 00000014");
	for (size_t k = 0; k < RTR_PDU_HEADER_LEN; k++)
		ck_assert_int_eq(rtr_pdu_frame(b, k, &len, &err), 1); /* wait for more */
	ck_assert_int_eq(rtr_pdu_frame(b, 8, &len, &err), 0);
	ck_assert_uint_eq(len, 20);
	hex(b, sizeof(b), "02 04 0000 00000007");
	ck_assert_int_eq(rtr_pdu_frame(b, 8, &len, &err), -1);
	ck_assert_uint_eq(err.code, RTR_ERR_CORRUPT_DATA);
	hex(b, sizeof(b), "02 0b 0000 7fffffff");
	ck_assert_int_eq(rtr_pdu_frame(b, 8, &len, &err), -1);
	ck_assert_uint_eq(err.code, RTR_ERR_CORRUPT_DATA);
	hex(b, sizeof(b), "02 0b 0000 00040010"); /* 65536 providers: one more than possible */
	ck_assert_int_eq(rtr_pdu_frame(b, 8, &len, &err), -1);
	hex(b, sizeof(b), "02 0b 0000 0004000c"); /* 65535 providers */
	ck_assert_int_eq(rtr_pdu_frame(b, 8, &len, &err), 0);
}
END_TEST

START_TEST(test_error_report_we_send)
{
	uint8_t er[RTR_ERROR_REPORT_MAX], bigpdu[1000], b[128];
	char text[600];
	struct rtr_pdu_error err;
	struct rtr_pdu p;
	size_t n, m;

	/* A short one: the PDU whole, the text whole. */
	m = hex(b, sizeof(b), "02 04 0000 00000014 01 18 18 00 c6336400 0000fbf4");
	n = rtr_pdu_error_report(er, 2, RTR_ERR_DUPLICATE_ANNOUNCEMENT, b, m, "duplicate");
	ck_assert_uint_eq(n, 16 + m + 9);
	ck_assert_int_eq(rtr_pdu_decode(er, n, &p, &err), 0);
	ck_assert_uint_eq(p.version, 2);
	ck_assert_uint_eq(p.u.error.code, RTR_ERR_DUPLICATE_ANNOUNCEMENT);
	ck_assert_uint_eq(p.u.error.pdu_len, m);
	ck_assert_int_eq(memcmp(p.u.error.pdu, b, m), 0);
	ck_assert_uint_eq(p.u.error.text_len, 9);
	/* A long one: both cut, the result still a valid PDU within the bound. */
	memset(bigpdu, 0xab, sizeof(bigpdu));
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	n = rtr_pdu_error_report(er, 0, RTR_ERR_CORRUPT_DATA, bigpdu, sizeof(bigpdu), text);
	ck_assert_uint_eq(n, RTR_ERROR_REPORT_MAX);
	ck_assert_int_eq(rtr_pdu_decode(er, n, &p, &err), 0);
	ck_assert_uint_eq(p.u.error.pdu_len, RTR_ERROR_PDU_COPY_MAX);
	ck_assert_uint_eq(p.u.error.text_len, RTR_ERROR_TEXT_MAX);
	/* No PDU, no text. */
	n = rtr_pdu_error_report(er, 1, RTR_ERR_INTERNAL, NULL, 0, NULL);
	ck_assert_uint_eq(n, 16);
	ck_assert_int_eq(rtr_pdu_decode(er, n, &p, &err), 0);
	/* Encoding into too small a buffer fails rather than overflowing. */
	ck_assert_int_eq(rtr_pdu_encode(&p, b, 15), -1);
}
END_TEST

/* The `debug rpki` line: key fields, a cache's Error Report text escaped, and cut to size. */
START_TEST(test_describe)
{
	uint8_t b[128];
	char line[200], tiny[12];
	struct rtr_pdu_error err;
	struct rtr_pdu p;
	size_t m;

	m = hex(b, sizeof(b), "01 04 0000 00000014 01 18 19 00 c6336400 0000fbf4");
	ck_assert_int_eq(rtr_pdu_decode(b, m, &p, &err), 0);
	rtr_pdu_describe(&p, line, sizeof(line));
	ck_assert_str_eq(line, "IPv4 Prefix v1 len 20: announce 198.51.100.0/24 max 25 AS64500");
	m = hex(b, sizeof(b), "00 07 002a 0000000c 00000009");
	ck_assert_int_eq(rtr_pdu_decode(b, m, &p, &err), 0);
	rtr_pdu_describe(&p, line, sizeof(line));
	ck_assert_str_eq(line, "End of Data v0 len 12: session 42 serial 9");
	/* Error Report, no PDU, text "a\"b\n" and its NUL. */
	m = hex(b, sizeof(b), "01 0a 0002 00000015 00000000 00000005 61 22 62 0a 00");
	ck_assert_int_eq(rtr_pdu_decode(b, m, &p, &err), 0);
	rtr_pdu_describe(&p, line, sizeof(line));
	ck_assert_str_eq(line, "Error Report v1 len 21: No Data Available (2), 0 bytes of PDU, "
			       "text \"a.b.\"");
	rtr_pdu_describe(&p, tiny, sizeof(tiny));
	ck_assert_str_eq(tiny, "Error Repor");
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(rtr_pdu_type_name(RTR_PDU_ASPA), "ASPA");
	ck_assert_str_eq(rtr_pdu_type_name(5), "unknown PDU type");
	ck_assert_str_eq(rtr_pdu_type_name(200), "unknown PDU type");
	ck_assert_str_eq(rtr_error_code_name(RTR_ERR_ASPA_PROVIDER_LIST),
			 "ASPA Provider List Error");
	ck_assert_str_eq(rtr_error_code_name(99), "unknown error code");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtr_pdu");
	TCase *tc = tcase_create("codec");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_queries_and_responses);
	tcase_add_test(tc, test_prefixes);
	tcase_add_test(tc, test_end_of_data);
	tcase_add_test(tc, test_router_key_and_error_report);
	tcase_add_test(tc, test_aspa);
	tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_frame);
	tcase_add_test(tc, test_error_report_we_send);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_describe);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
