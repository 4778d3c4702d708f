/* SPDX-License-Identifier: ISC */
/* Helpers shared by the codec's Check programs (header only: each test is its own program). */
#ifndef SKUA_CODEC_TEST_H
#define SKUA_CODEC_TEST_H

#include <arpa/inet.h>
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_error.h"
#include "lib/prefix.h"

/* "ff 01 0a" (spaces and '|' ignored) into buf; aborts the test on bad input. */
static inline size_t hex(uint8_t *buf, size_t size, const char *s)
{
	size_t n = 0;
	int hi = -1, v;

	for (; *s; s++) {
		if (isspace((unsigned char)*s) || *s == '|')
			continue;
		ck_assert_msg(isxdigit((unsigned char)*s), "bad hex character '%c'", *s);
		v = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		if (hi < 0) {
			hi = v;
			continue;
		}
		ck_assert_msg(n < size, "hex vector longer than the buffer");
		buf[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	ck_assert_msg(hi < 0, "odd number of hex digits");
	return n;
}

/* Assert a parser verdict: code, subcode and data. */
static inline void assert_err(const struct bgp_error *err, uint8_t code, uint8_t subcode,
			      const char *data_hex)
{
	uint8_t d[256];
	size_t n = data_hex ? hex(d, sizeof(d), data_hex) : 0;

	ck_assert_msg(err->code == code && err->subcode == subcode,
		      "expected %u/%u, got %u/%u (%s)", code, subcode, err->code, err->subcode,
		      err->reason ? err->reason : "no reason");
	if (data_hex) {
		ck_assert_uint_eq(err->data_len, n);
		ck_assert_msg(memcmp(err->data, d, n) == 0, "NOTIFICATION data differs");
	}
	ck_assert_ptr_nonnull(err->reason);
}

static inline struct prefix pfx(const char *s)
{
	struct prefix p;

	ck_assert_msg(prefix_from_str(&p, s, true) == 0, "bad prefix %s", s);
	return p;
}

static inline struct in_addr ip4(const char *s)
{
	struct in_addr a;

	ck_assert_int_eq(inet_pton(AF_INET, s, &a), 1);
	return a;
}

static inline struct in6_addr ip6(const char *s)
{
	struct in6_addr a;

	ck_assert_int_eq(inet_pton(AF_INET6, s, &a), 1);
	return a;
}

/*
 * A valid UPDATE body using most of the format: withdrawn 10.9.9.0/24 and 0.0.0.0/0;
 * MP_UNREACH (2001:db9::/32), MP_REACH (2001:db8::/32, 2001:db8:1::/48) and the other
 * attributes, an unknown transitive among them; NLRI 10.0.0.0/24, 11.0.0.0/16, 12.0.0.1/32.
 */
static inline size_t rich_update(uint8_t *b, size_t size)
{
	return hex(b, size,
		   "0005 18 0a0909 00"
		   "008c"
		   "80 0f 08 0002 01 20 20010db9"
		   "90 0e 0021 0002 01 10 20010db8000000000000000000000001 00 20 20010db8 30 "
		   "20010db80001"
		   "40 01 01 00 40 02 0e 02 03 0000fde9 fa56ea00 00000007"
		   "40 03 04 c0000201 80 04 04 00000005 40 06 00 c0 07 08 0000fde9 c0000201"
		   "c0 08 08 fde90001 ffffff01 c0 10 08 0002fde900000001"
		   "c0 20 0c 0000fde9 00000001 00000002 c0 63 03 010203"
		   "18 0a0000 10 0b00 20 0c000001");
}

static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* SKUA_CODEC_TEST_H */
