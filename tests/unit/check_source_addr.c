/* SPDX-License-Identifier: ISC */
/*
 * lib/source_addr.c: the source of an `update-source IFNAME` session among the interface's
 * addresses. The case that made the issue: `lo` lists 127.0.0.1 first, and a connect from it
 * to any other host fails with EINVAL, so the session stayed Active for ever.
 */
#include "lib/compat.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/source_addr.h"

static struct ipaddr ip(const char *s)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, s), 0);
	return a;
}

/* The chosen source, as text ("" when there is none). */
static const char *choose(const char *peer, const char *const *cands, size_t n)
{
	static char buf[IPADDR_STRLEN];
	struct ipaddr list[8], out, p = ip(peer);
	size_t i;

	ck_assert_uint_le(n, 8);
	for (i = 0; i < n; i++)
		list[i] = ip(cands[i]);
	if (source_addr_choose(list, n, &p, &out) < 0)
		return "";
	return ipaddr_to_str(&out, buf, sizeof(buf));
}

#define CHOOSE(peer, ...)                                  \
	choose(peer, (const char *const[]){ __VA_ARGS__ }, \
	       sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

START_TEST(test_loopback_set_aside)
{
	/* lo as Linux lists it; longest common prefix alone would take 127.0.0.1 toward 10/8 */
	ck_assert_str_eq(CHOOSE("10.0.0.2", "127.0.0.1", "192.0.2.1"), "192.0.2.1");
	ck_assert_str_eq(CHOOSE("198.51.100.2", "127.0.0.1", "192.0.2.1"), "192.0.2.1");
	ck_assert_str_eq(CHOOSE("2001:db8:1::2", "::1", "2001:db8::1"), "2001:db8::1");
	/* only loopback addresses: nothing usable toward another host */
	ck_assert_str_eq(CHOOSE("198.51.100.2", "127.0.0.1", "127.0.1.1"), "");
	ck_assert_str_eq(CHOOSE("2001:db8::2", "::1"), "");
	/* ...but a session to this host itself may come from one */
	ck_assert_str_eq(CHOOSE("127.0.0.2", "192.0.2.1", "127.0.0.1"), "127.0.0.1");
}
END_TEST

START_TEST(test_family)
{
	ck_assert_str_eq(CHOOSE("192.0.2.9", "2001:db8::1", "203.0.113.1"), "203.0.113.1");
	ck_assert_str_eq(CHOOSE("2001:db8::9", "192.0.2.1"), "");
	ck_assert_str_eq(CHOOSE("192.0.2.9", "2001:db8::1"), "");
}
END_TEST

START_TEST(test_longest_common_prefix)
{
	/* FRR's rule among usable addresses: the one sharing most leading bits with the peer */
	ck_assert_str_eq(CHOOSE("198.51.100.7", "192.0.2.1", "198.51.100.1", "203.0.113.1"),
			 "198.51.100.1");
	ck_assert_str_eq(CHOOSE("2001:db8:2::9", "2001:db8:1::1", "2001:db8:2::1"),
			 "2001:db8:2::1");
	/* a tie keeps the interface's order */
	ck_assert_str_eq(CHOOSE("198.51.100.7", "192.0.2.1", "192.0.2.2"), "192.0.2.1");
}
END_TEST

START_TEST(test_scope)
{
	/* a global peer gets a global source even when a link-local one comes first */
	ck_assert_str_eq(CHOOSE("2001:db8::9", "fe80::1", "2001:db8:ffff::1"), "2001:db8:ffff::1");
	/* a link-local peer gets a link-local source */
	ck_assert_str_eq(CHOOSE("fe80::9", "2001:db8::1", "fe80::1"), "fe80::1");
	/* a link-local address is still better than none */
	ck_assert_str_eq(CHOOSE("2001:db8::9", "::1", "fe80::1"), "fe80::1");
}
END_TEST

START_TEST(test_loopback_predicate)
{
	struct ipaddr a;

	a = ip("127.255.0.1");
	ck_assert(ipaddr_is_loopback(&a));
	a = ip("128.0.0.1");
	ck_assert(!ipaddr_is_loopback(&a));
	a = ip("::1");
	ck_assert(ipaddr_is_loopback(&a));
	a = ip("::2");
	ck_assert(!ipaddr_is_loopback(&a));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("source_addr");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_loopback_set_aside);
	tcase_add_test(tc, test_family);
	tcase_add_test(tc, test_longest_common_prefix);
	tcase_add_test(tc, test_scope);
	tcase_add_test(tc, test_loopback_predicate);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
