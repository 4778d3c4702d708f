/* SPDX-License-Identifier: ISC */
/* The 19-byte message header: RFC 4271 4.1 and 6.1, RFC 8654. */
#include "lib/compat.h"

#include "bgpd/wire/bgp_header.h"
#include "tests/unit/codec_test.h"

#define MARKER "ffffffffffffffffffffffffffffffff"

static int decode(const char *h, bool ext, struct bgp_header *hdr, struct bgp_error *err)
{
	uint8_t buf[64];

	ck_assert_uint_eq(hex(buf, sizeof(buf), h), BGP_HEADER_LEN);
	memset(err, 0, sizeof(*err));
	return bgp_header_decode(buf, ext, hdr, err);
}

START_TEST(test_valid_types)
{
	struct bgp_header h;
	struct bgp_error e;

	ck_assert_int_eq(decode(MARKER "001d 01", false, &h, &e), 0);
	ck_assert_uint_eq(h.len, 29);
	ck_assert_uint_eq(h.type, BGP_MSG_OPEN);
	ck_assert_int_eq(decode(MARKER "0017 02", false, &h, &e), 0);
	ck_assert_uint_eq(h.type, BGP_MSG_UPDATE);
	ck_assert_int_eq(decode(MARKER "0015 03", false, &h, &e), 0);
	ck_assert_int_eq(decode(MARKER "0013 04", false, &h, &e), 0);
	ck_assert_uint_eq(h.len, 19);
	ck_assert_int_eq(decode(MARKER "0017 05", false, &h, &e), 0);
	ck_assert_uint_eq(h.type, BGP_MSG_ROUTE_REFRESH);
	ck_assert_int_eq(decode(MARKER "1000 02", false, &h, &e), 0);
	ck_assert_uint_eq(h.len, 4096);
}
END_TEST

START_TEST(test_marker)
{
	struct bgp_header h;
	struct bgp_error e;

	ck_assert_int_eq(decode("ffffffffffffffffffffffffffffff7f 0013 04", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_NOT_SYNC, "");
	ck_assert_int_eq(decode("00000000000000000000000000000000 0013 04", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_NOT_SYNC, "");
}
END_TEST

START_TEST(test_bad_length)
{
	struct bgp_header h;
	struct bgp_error e;

	/* Data is the length field (RFC 4271 6.1). */
	ck_assert_int_eq(decode(MARKER "0012 04", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0012");
	ck_assert_int_eq(decode(MARKER "1001 02", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "1001");
	ck_assert_int_eq(decode(MARKER "0000 02", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0000");
	/* Per-type minimums and KEEPALIVE's exact length. */
	ck_assert_int_eq(decode(MARKER "001c 01", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "001c");
	ck_assert_int_eq(decode(MARKER "0016 02", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0016");
	ck_assert_int_eq(decode(MARKER "0014 03", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0014");
	ck_assert_int_eq(decode(MARKER "0014 04", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0014");
	ck_assert_int_eq(decode(MARKER "0016 05", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0016");
}
END_TEST

START_TEST(test_bad_type)
{
	struct bgp_header h;
	struct bgp_error e;

	ck_assert_int_eq(decode(MARKER "0013 06", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_TYPE, "06");
	ck_assert_int_eq(decode(MARKER "0013 00", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_TYPE, "00");
	/* The length is checked first (RFC 4271 6.1 order). */
	ck_assert_int_eq(decode(MARKER "0005 ff", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "0005");
}
END_TEST

START_TEST(test_extended_message)
{
	struct bgp_header h;
	struct bgp_error e;

	/* RFC 8654: UPDATE up to 65535 when negotiated, not before. */
	ck_assert_int_eq(decode(MARKER "ffff 02", true, &h, &e), 0);
	ck_assert_uint_eq(h.len, 65535);
	ck_assert_int_eq(decode(MARKER "ffff 02", false, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "ffff");
	ck_assert_int_eq(decode(MARKER "2000 03", true, &h, &e), 0);
	ck_assert_int_eq(decode(MARKER "2000 05", true, &h, &e), 0);
	/* OPEN and KEEPALIVE keep the 4096-byte limit (RFC 8654 3). */
	ck_assert_int_eq(decode(MARKER "1001 01", true, &h, &e), -1);
	assert_err(&e, BGP_ERR_HEADER, BGP_ERR_HDR_BAD_LENGTH, "1001");
	ck_assert_int_eq(decode(MARKER "1001 04", true, &h, &e), -1);
	ck_assert_uint_eq(bgp_msg_max_len(BGP_MSG_OPEN, true), 4096);
	ck_assert_uint_eq(bgp_msg_max_len(BGP_MSG_UPDATE, true), 65535);
	ck_assert_uint_eq(bgp_msg_max_len(BGP_MSG_UPDATE, false), 4096);
}
END_TEST

START_TEST(test_encode)
{
	uint8_t buf[64], want[64];
	struct stream s;
	int start;

	ck_assert_uint_eq(bgp_header_encode(buf, BGP_MSG_KEEPALIVE, 19), 19);
	hex(want, sizeof(want), MARKER "0013 04");
	ck_assert_mem_eq(buf, want, 19);

	stream_init_writer(&s, buf, sizeof(buf));
	start = bgp_msg_begin(&s, BGP_MSG_NOTIFICATION);
	ck_assert_int_eq(start, 0);
	stream_put_u8(&s, 6);
	stream_put_u8(&s, 2);
	ck_assert_uint_eq(bgp_msg_finish(&s, 0), 21);
	hex(want, sizeof(want), MARKER "0015 03 06 02");
	ck_assert_mem_eq(buf, want, 21);

	stream_init_writer(&s, buf, 10);
	ck_assert_int_eq(bgp_msg_begin(&s, BGP_MSG_OPEN), -1);
	ck_assert_str_eq(bgp_msg_type_str(BGP_MSG_ROUTE_REFRESH), "ROUTE-REFRESH");
	ck_assert_str_eq(bgp_msg_type_str(9), "UNKNOWN");
}
END_TEST

START_TEST(test_error_text)
{
	char buf[128];

	ck_assert_str_eq(bgp_error_str(2, 2, buf, sizeof(buf)), "OPEN Message Error/Bad Peer AS");
	ck_assert_str_eq(bgp_error_str(4, 0, buf, sizeof(buf)), "Hold Timer Expired");
	ck_assert_str_eq(bgp_error_str(8, 0, buf, sizeof(buf)), "Send Hold Timer Expired");
	ck_assert_str_eq(bgp_error_str(6, 2, buf, sizeof(buf)), "Cease/Administrative Shutdown");
	ck_assert_str_eq(bgp_error_str(3, 11, buf, sizeof(buf)),
			 "UPDATE Message Error/Malformed AS_PATH");
	ck_assert_str_eq(bgp_error_str(5, 1, buf, sizeof(buf)),
			 "Neighbor Events Error/Receive Unexpected Message in OpenSent State");
	ck_assert_str_eq(bgp_error_str(7, 1, buf, sizeof(buf)),
			 "ROUTE-REFRESH Message Error/Invalid Message Length");
	ck_assert_str_eq(bgp_error_str(1, 9, buf, sizeof(buf)),
			 "Message Header Error/Unrecognized Error Subcode");
	ck_assert_str_eq(bgp_error_code_str(99), "Unrecognized Error Code");
}
END_TEST

START_TEST(test_error_set)
{
	struct bgp_error e;
	uint8_t big[200];

	memset(big, 0xab, sizeof(big));
	ck_assert_int_eq(bgp_error_set(&e, 3, 5, big, sizeof(big), "x"), -1);
	ck_assert_uint_eq(e.data_len, BGP_ERROR_DATA_MAX);
	ck_assert_int_eq(bgp_error_set(&e, 3, 5, NULL, 10, "x"), -1);
	ck_assert_uint_eq(e.data_len, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_header");
	TCase *tc = tcase_create("header");

	tcase_add_test(tc, test_valid_types);
	tcase_add_test(tc, test_marker);
	tcase_add_test(tc, test_bad_length);
	tcase_add_test(tc, test_bad_type);
	tcase_add_test(tc, test_extended_message);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_error_text);
	tcase_add_test(tc, test_error_set);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
