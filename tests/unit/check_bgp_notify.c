/* SPDX-License-Identifier: ISC */
/* NOTIFICATION (RFC 4271, RFC 9003 shutdown communication), KEEPALIVE, ROUTE-REFRESH. */
#include "lib/compat.h"

#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "tests/unit/codec_test.h"

#define MARKER "ffffffffffffffffffffffffffffffff"

static uint8_t body[4096];

static int ndec(const char *h, struct bgp_notify *n)
{
	size_t len = hex(body, sizeof(body), h);

	return bgp_notify_decode(n, body, len);
}

START_TEST(test_decode_plain)
{
	struct bgp_notify n;

	ck_assert_int_eq(ndec("06 02", &n), 0);
	ck_assert_uint_eq(n.code, 6);
	ck_assert_uint_eq(n.subcode, 2);
	ck_assert_uint_eq(n.data_len, 0);
	ck_assert(!n.has_shutdown_msg);
	ck_assert_int_eq(ndec("03 01 41 42", &n), 0);
	ck_assert_uint_eq(n.data_len, 2);
	ck_assert_uint_eq(n.data[0], 0x41);
	ck_assert(!n.has_shutdown_msg);
	ck_assert_int_eq(ndec("06", &n), -1);
}
END_TEST

START_TEST(test_decode_shutdown)
{
	struct bgp_notify n;

	ck_assert_int_eq(ndec("06 02 0b 6d61696e74656e616e6365", &n), 0);
	ck_assert(n.has_shutdown_msg);
	ck_assert(!n.shutdown_msg_invalid);
	ck_assert_str_eq(n.shutdown_msg, "maintenance");
	/* Administrative Reset carries one too. */
	ck_assert_int_eq(ndec("06 04 02 c3a9", &n), 0);
	ck_assert_str_eq(n.shutdown_msg, "\xc3\xa9");
	/* Zero length: no communication. */
	ck_assert_int_eq(ndec("06 02 00", &n), 0);
	ck_assert(!n.has_shutdown_msg);
	/* Other Cease subcodes do not. */
	ck_assert_int_eq(ndec("06 03 02 4142", &n), 0);
	ck_assert(!n.has_shutdown_msg);
	/* Length beyond the data (RFC 9003 3): flagged, text not copied. */
	ck_assert_int_eq(ndec("06 02 20 4142", &n), 0);
	ck_assert(n.has_shutdown_msg);
	ck_assert(n.shutdown_msg_invalid);
	ck_assert_str_eq(n.shutdown_msg, "");
	/* Invalid UTF-8: a bad continuation, an overlong form, a surrogate. */
	ck_assert_int_eq(ndec("06 02 02 c328", &n), 0);
	ck_assert(n.shutdown_msg_invalid);
	ck_assert_int_eq(ndec("06 02 02 c0af", &n), 0);
	ck_assert(n.shutdown_msg_invalid);
	ck_assert_int_eq(ndec("06 02 03 eda080", &n), 0);
	ck_assert(n.shutdown_msg_invalid);
	/* Control characters are made harmless for the log. */
	ck_assert_int_eq(ndec("06 02 03 410a42", &n), 0);
	ck_assert(!n.shutdown_msg_invalid);
	ck_assert_str_eq(n.shutdown_msg, "A?B");
	/* Inside a Hard Reset (RFC 8538 3): the inner Cease's message. */
	ck_assert_int_eq(ndec("06 09 06 02 05 6c61746572", &n), 0);
	ck_assert(n.hard_reset);
	ck_assert_uint_eq(n.inner_code, 6);
	ck_assert_uint_eq(n.inner_subcode, 2);
	ck_assert(n.has_shutdown_msg);
	ck_assert_str_eq(n.shutdown_msg, "later");
	/* ... whose length overruns: flagged; a Hard Reset of another Cease: no message. */
	ck_assert_int_eq(ndec("06 09 06 02 09 6c61746572", &n), 0);
	ck_assert(n.shutdown_msg_invalid);
	ck_assert_int_eq(ndec("06 09 06 01 01 02 03", &n), 0);
	ck_assert(n.hard_reset);
	ck_assert(!n.has_shutdown_msg);
	/* A Hard Reset too short to carry a code and subcode: nothing inside. */
	ck_assert_int_eq(ndec("06 09 06", &n), 0);
	ck_assert(!n.hard_reset);
	/* 255 bytes, the RFC 9003 maximum. */
	body[0] = 6;
	body[1] = 2;
	body[2] = 255;
	memset(body + 3, 'x', 255);
	ck_assert_int_eq(bgp_notify_decode(&n, body, 258), 0);
	ck_assert(!n.shutdown_msg_invalid);
	ck_assert_uint_eq(strlen(n.shutdown_msg), 255);
}
END_TEST

START_TEST(test_encode)
{
	uint8_t buf[4096], want[64];
	struct bgp_error e;
	size_t n;

	n = bgp_notify_encode(buf, sizeof(buf), 3, 4, "\x40\x01\x01\x00", 4);
	ck_assert_uint_eq(n, hex(want, sizeof(want), MARKER "0019 03 03 04 40010100"));
	ck_assert_mem_eq(buf, want, n);

	bgp_error_set(&e, 2, 2, "\xfd\xea", 2, "test");
	n = bgp_notify_encode_error(buf, sizeof(buf), &e);
	ck_assert_uint_eq(n, hex(want, sizeof(want), MARKER "0017 03 02 02 fdea"));
	ck_assert_mem_eq(buf, want, n);

	n = bgp_notify_encode(buf, sizeof(buf), 4, 0, NULL, 0);
	ck_assert_uint_eq(n, hex(want, sizeof(want), MARKER "0015 03 04 00"));
	ck_assert_mem_eq(buf, want, n);
	/* Too small a buffer. */
	ck_assert_uint_eq(bgp_notify_encode(buf, 20, 4, 0, NULL, 0), 0);
}
END_TEST

START_TEST(test_encode_shutdown)
{
	uint8_t buf[4096], want[64];
	char msg[400];
	struct bgp_notify n;
	size_t len, i;

	len = bgp_notify_encode_shutdown(buf, sizeof(buf), BGP_ERR_CEASE_ADMIN_SHUTDOWN, "bye");
	ck_assert_uint_eq(len, hex(want, sizeof(want), MARKER "0019 03 06 02 03 627965"));
	ck_assert_mem_eq(buf, want, len);
	len = bgp_notify_encode_shutdown(buf, sizeof(buf), BGP_ERR_CEASE_ADMIN_RESET, NULL);
	ck_assert_uint_eq(len, hex(want, sizeof(want), MARKER "0016 03 06 04 00"));
	ck_assert_mem_eq(buf, want, len);
	/* 150 x "é" = 300 bytes: cut to 127 characters (254 bytes), never mid-character. */
	for (i = 0; i < 150; i++)
		memcpy(msg + 2 * i, "\xc3\xa9", 2);
	msg[300] = '\0';
	len = bgp_notify_encode_shutdown(buf, sizeof(buf), BGP_ERR_CEASE_ADMIN_SHUTDOWN, msg);
	ck_assert_uint_eq(len, 19 + 2 + 1 + 254);
	ck_assert_uint_eq(buf[21], 254);
	ck_assert_int_eq(bgp_notify_decode(&n, buf + 19, len - 19), 0);
	ck_assert(!n.shutdown_msg_invalid);
	ck_assert_uint_eq(strlen(n.shutdown_msg), 254);
	/* 300 ASCII bytes: exactly 255. */
	memset(msg, 'a', 300);
	len = bgp_notify_encode_shutdown(buf, sizeof(buf), BGP_ERR_CEASE_ADMIN_SHUTDOWN, msg);
	ck_assert_uint_eq(buf[21], 255);
}
END_TEST

START_TEST(test_str)
{
	struct bgp_notify n;
	char buf[256];

	ndec("06 02 0b 6d61696e74656e616e6365", &n);
	ck_assert_str_eq(bgp_notify_str(&n, buf, sizeof(buf)),
			 "Cease/Administrative Shutdown \"maintenance\"");
	ndec("03 05 400101ff", &n);
	ck_assert_str_eq(bgp_notify_str(&n, buf, sizeof(buf)),
			 "UPDATE Message Error/Attribute Length Error 4 bytes 40 01 01 ff");
	ndec("06 02 20 4142", &n);
	ck_assert_str_eq(bgp_notify_str(&n, buf, sizeof(buf)),
			 "Cease/Administrative Shutdown (invalid shutdown communication)");
	ndec("04 00", &n);
	ck_assert_str_eq(bgp_notify_str(&n, buf, sizeof(buf)), "Hold Timer Expired");
	/* Small buffers stay terminated. */
	ndec("03 05 400101ff", &n);
	bgp_notify_str(&n, buf, 10);
	ck_assert_uint_eq(strlen(buf), 9);
}
END_TEST

START_TEST(test_keepalive)
{
	uint8_t buf[64], want[64];

	ck_assert_uint_eq(bgp_keepalive_encode(buf, sizeof(buf)), 19);
	hex(want, sizeof(want), MARKER "0013 04");
	ck_assert_mem_eq(buf, want, 19);
	ck_assert_uint_eq(bgp_keepalive_encode(buf, 18), 0);
}
END_TEST

START_TEST(test_route_refresh)
{
	struct bgp_route_refresh rr;
	struct bgp_error e;
	uint8_t buf[64], want[64];
	size_t len, n;

	len = hex(body, sizeof(body), "0001 00 01");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert_int_eq(rr.af, BGP_AF_IPV4_UNICAST);
	ck_assert_uint_eq(rr.subtype, BGP_RR_NORMAL);
	ck_assert(!rr.ignore);
	len = hex(body, sizeof(body), "0002 01 01");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert_int_eq(rr.af, BGP_AF_IPV6_UNICAST);
	ck_assert_uint_eq(rr.subtype, BGP_RR_BORR);
	len = hex(body, sizeof(body), "0002 02 01");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert_uint_eq(rr.subtype, BGP_RR_EORR);
	/* A normal request may carry ORF entries: accepted, ignored. */
	len = hex(body, sizeof(body), "0001 00 01 01 40 0007 00");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert(!rr.ignore);
	/* RFC 7313 5: BoRR/EoRR not 4 bytes -> 7/1 with the whole message as data. */
	len = hex(body, sizeof(body), "0001 01 01 ff");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), -1);
	assert_err(&e, BGP_ERR_ROUTE_REFRESH, BGP_ERR_RR_INVALID_LENGTH,
		   MARKER "0018 05 0001 01 01 ff");
	len = hex(body, sizeof(body), "0002 02 01 0000");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), -1);
	assert_err(&e, BGP_ERR_ROUTE_REFRESH, BGP_ERR_RR_INVALID_LENGTH,
		   MARKER "0019 05 0002 02 01 0000");
	/* A long one: data cut to BGP_ERROR_DATA_MAX. */
	memset(body, 0, 200);
	body[1] = 1;
	body[2] = 1;
	body[3] = 1;
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, 200, &e), -1);
	ck_assert_uint_eq(e.data_len, BGP_ERROR_DATA_MAX);
	ck_assert_uint_eq(e.data[16], 0);
	ck_assert_uint_eq(e.data[17], 219);
	/* Unknown family or subtype: ignored (RFC 2918 4, RFC 7313 5). */
	len = hex(body, sizeof(body), "0001 00 02");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert(rr.ignore);
	ck_assert_int_eq(rr.af, -1);
	len = hex(body, sizeof(body), "0001 03 01");
	ck_assert_int_eq(bgp_route_refresh_decode(&rr, body, len, &e), 0);
	ck_assert(rr.ignore);
	/* Encode. */
	n = bgp_route_refresh_encode(buf, sizeof(buf), BGP_AF_IPV6_UNICAST, BGP_RR_NORMAL);
	ck_assert_uint_eq(n, hex(want, sizeof(want), MARKER "0017 05 0002 00 01"));
	ck_assert_mem_eq(buf, want, n);
	n = bgp_route_refresh_encode(buf, sizeof(buf), BGP_AF_IPV4_UNICAST, BGP_RR_EORR);
	ck_assert_uint_eq(n, hex(want, sizeof(want), MARKER "0017 05 0001 02 01"));
	ck_assert_mem_eq(buf, want, n);
	ck_assert_uint_eq(bgp_route_refresh_encode(buf, 22, BGP_AF_IPV4_UNICAST, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_notify");
	TCase *tc = tcase_create("notify");

	tcase_add_test(tc, test_decode_plain);
	tcase_add_test(tc, test_decode_shutdown);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_encode_shutdown);
	tcase_add_test(tc, test_str);
	tcase_add_test(tc, test_keepalive);
	tcase_add_test(tc, test_route_refresh);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
