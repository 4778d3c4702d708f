/* SPDX-License-Identifier: ISC */
/*
 * kernel/netstat.c: the /proc/net/netstat parser on sample and malformed text (every input is
 * handed over in an exact-size heap copy without a NUL, so AddressSanitizer catches any read
 * past it), and the reader on this namespace's real file.
 */
#include "lib/compat.h"

#include <check.h>
#include <inttypes.h>

#include "kernel/kernel_security.h"

static const char sample[] =
	"TcpExt: SyncookiesSent TW TCPMD5NotFound TCPMD5Unexpected TCPMD5Failure TCPMinTTLDrop\n"
	"TcpExt: 0 460 3 4 5 17\n"
	"IpExt: InNoRoutes InOctets\n"
	"IpExt: 7 18446744073709551615\n";

/* Parse text[0..len) from an exact-size copy (no terminator). */
static int parse_n(const char *text, size_t len, const char *section, const char *name, uint64_t *v)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, len);
	ret = kernel_netstat_parse(copy, len, section, name, v);
	free(copy);
	return ret;
}

static int parse(const char *text, const char *section, const char *name, uint64_t *v)
{
	return parse_n(text, strlen(text), section, name, v);
}

START_TEST(test_lookup)
{
	uint64_t v = 0;

	ck_assert_int_eq(parse(sample, "TcpExt", "TW", &v), 0);
	ck_assert_uint_eq(v, 460);
	ck_assert_int_eq(parse(sample, "TcpExt", "TCPMinTTLDrop", &v), 0);
	ck_assert_uint_eq(v, 17);
	ck_assert_int_eq(parse(sample, "TcpExt", "SyncookiesSent", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse(sample, "IpExt", "InOctets", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(parse(sample, "IpExt", "InNoRoutes", &v), 0);
	ck_assert_uint_eq(v, 7);
}
END_TEST

START_TEST(test_absent)
{
	uint64_t v = 99;

	ck_assert_int_eq(parse(sample, "TcpExt", "NoSuchCounter", &v), -ENOENT);
	ck_assert_int_eq(parse(sample, "TcpExt", "TCPMinTTL", &v), -ENOENT); /* prefix only */
	ck_assert_int_eq(parse(sample, "TcpEx", "TW", &v), -ENOENT);	     /* section prefix */
	ck_assert_int_eq(parse(sample, "MPTcpExt", "TW", &v), -ENOENT);
	ck_assert_int_eq(parse(sample, "IpExt", "TW", &v), -ENOENT);
	ck_assert_int_eq(parse("", "TcpExt", "TW", &v), -ENOENT);
	ck_assert_int_eq(parse("\n\n\n", "TcpExt", "TW", &v), -ENOENT);
	ck_assert_uint_eq(v, 99); /* untouched when not found */
	ck_assert_int_eq(parse(sample, "", "TW", &v), -EINVAL);
	ck_assert_int_eq(parse(sample, "TcpExt", "", &v), -EINVAL);
}
END_TEST

START_TEST(test_malformed)
{
	static const struct {
		const char *text;
		int ret;
	} bad[] = {
		{ "TcpExt: A B\n", -EINVAL },		     /* no value line */
		{ "TcpExt: A B", -EINVAL },		     /* no value line, no newline */
		{ "TcpExt: A B\nIpExt: 1 2\n", -EINVAL },    /* value line of another section */
		{ "TcpExt: A B\nTcpExt: 1\n", -EINVAL },     /* fewer values */
		{ "TcpExt: A B\nTcpExt: 1 2 3\n", -EINVAL }, /* more values */
		{ "TcpExt: A B\nTcpExt: 1 x\n", -EINVAL },   /* not a number */
		{ "TcpExt: A B\nTcpExt: 1 -2\n", -EINVAL },  /* negative */
		{ "TcpExt: A B\nTcpExt: 1 +2\n", -EINVAL },  /* sign */
		{ "TcpExt: A B\nTcpExt: 1 0x2\n", -EINVAL }, /* hex */
		{ "TcpExt: A B\nTcpExt: 1 18446744073709551616\n", -ERANGE }, /* 2^64 */
		{ "TcpExt: A B\nTcpExt: 1 99999999999999999999999\n", -ERANGE },
		{ "TcpExt B\nTcpExt 2\n", -ENOENT }, /* no colon: not a section */
		{ "TcpExt:\nTcpExt:\n", -ENOENT },   /* empty pair */
	};
	uint64_t v = 0;

	for (size_t i = 0; i < array_size(bad); i++)
		ck_assert_msg(parse(bad[i].text, "TcpExt", "B", &v) == bad[i].ret,
			      "case %zu (%s): want %d", i, bad[i].text, bad[i].ret);
	/* the requested column is fine but the pair is not: still malformed */
	ck_assert_int_eq(parse("TcpExt: B A\nTcpExt: 1\n", "TcpExt", "B", &v), -EINVAL);
	/* a bad value in another column does not matter */
	ck_assert_int_eq(parse("TcpExt: A B\nTcpExt: -1 2\n", "TcpExt", "B", &v), 0);
	ck_assert_uint_eq(v, 2);
	/* CRLF and tabs */
	ck_assert_int_eq(parse("TcpExt:\tA\tB\r\nTcpExt:\t1\t3\r\n", "TcpExt", "B", &v), 0);
	ck_assert_uint_eq(v, 3);
	/* a NUL inside the text is data, not an end */
	{
		static const char nul[] = "TcpExt: A\0B C\nTcpExt: 1 2\n";

		ck_assert_int_eq(parse_n(nul, sizeof(nul) - 1, "TcpExt", "B", &v), -ENOENT);
		ck_assert_int_eq(parse_n(nul, sizeof(nul) - 1, "TcpExt", "C", &v), 0);
		ck_assert_uint_eq(v, 2);
	}
}
END_TEST

/* Every prefix of the sample: no read past len (ASan), never a wrong value. */
START_TEST(test_truncations)
{
	size_t n = strlen(sample);

	for (size_t len = 0; len <= n; len++) {
		uint64_t v = 12345;
		int ret = parse_n(sample, len, "TcpExt", "TCPMinTTLDrop", &v);

		/* the last value is complete only once its final digit is in */
		if (len >= strlen("TcpExt: SyncookiesSent TW TCPMD5NotFound TCPMD5Unexpected "
				  "TCPMD5Failure TCPMinTTLDrop\nTcpExt: 0 460 3 4 5 17")) {
			ck_assert_int_eq(ret, 0);
			ck_assert_uint_eq(v, 17);
		} else {
			ck_assert_msg(ret < 0 || v == 1, "len %zu: %d %" PRIu64, len, ret, v);
		}
	}
}
END_TEST

static int counters(const char *text, struct kernel_gtsm_counters *c)
{
	size_t len = strlen(text);
	char *copy = malloc(len);
	int ret;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, len);
	ret = kernel_gtsm_counters_parse(copy, len, c);
	free(copy);
	return ret;
}

START_TEST(test_counters_parse)
{
	struct kernel_gtsm_counters c;

	ck_assert_int_eq(counters(sample, &c), 0);
	for (unsigned i = 0; i < KERNEL_CNT__MAX; i++)
		ck_assert(c.present[i]);
	ck_assert_uint_eq(c.value[KERNEL_CNT_MIN_TTL_DROP], 17);
	ck_assert_uint_eq(c.value[KERNEL_CNT_MD5_NOT_FOUND], 3);
	ck_assert_uint_eq(c.value[KERNEL_CNT_MD5_UNEXPECTED], 4);
	ck_assert_uint_eq(c.value[KERNEL_CNT_MD5_FAILURE], 5);
	ck_assert_str_eq(kernel_gtsm_counter_name(KERNEL_CNT_MD5_FAILURE), "TCPMD5Failure");
	ck_assert_str_eq(kernel_gtsm_counter_name(KERNEL_CNT__MAX), "(unknown)");

	/* an older kernel without TCPMD5Failure */
	ck_assert_int_eq(counters("TcpExt: TCPMinTTLDrop\nTcpExt: 2\n", &c), 0);
	ck_assert(c.present[KERNEL_CNT_MIN_TTL_DROP]);
	ck_assert(!c.present[KERNEL_CNT_MD5_FAILURE]);
	ck_assert_uint_eq(c.value[KERNEL_CNT_MIN_TTL_DROP], 2);
	ck_assert_int_eq(counters("IpExt: A\nIpExt: 1\n", &c), -ENOENT);
	ck_assert_int_eq(counters("TcpExt: TCPMinTTLDrop\n", &c), -EINVAL);
}
END_TEST

/* This namespace's real file has all four counters (Linux >= 5.x). */
START_TEST(test_read_real)
{
	struct kernel_gtsm_counters c;
	uint64_t tw;

	ck_assert_int_eq(kernel_gtsm_counters_read(&c), 0);
	for (unsigned i = 0; i < KERNEL_CNT__MAX; i++)
		ck_assert_msg(c.present[i], "%s missing", kernel_gtsm_counter_name(i));
	ck_assert_int_eq(kernel_netstat_read("TcpExt", "TW", &tw), 0);
	ck_assert_int_eq(kernel_netstat_read("TcpExt", "NoSuchCounter", &tw), -ENOENT);
	ck_assert_uint_eq(MTYPE_KERNEL_NETSTAT->allocated, 0);
}
END_TEST

static Suite *netstat_suite(void)
{
	Suite *s = suite_create("kernel_netstat");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_absent);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_truncations);
	tcase_add_test(tc, test_counters_parse);
	tcase_add_test(tc, test_read_real);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(netstat_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
