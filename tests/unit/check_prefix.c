/* SPDX-License-Identifier: ISC */
/* lib/prefix.c: strict parsing, printing, masking, ordering, containment, sockaddrs. */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "lib/prefix.h"

static struct prefix P(const char *s) {
	struct prefix p;

	ck_assert_msg(prefix_from_str(&p, s, true) == 0, "cannot parse %s", s);
	return p;
}

START_TEST(test_prefix_parse_valid)
{
	static const struct {
		const char *in, *out;
		int family, len;
	} ok[] = {
		{ "10.0.0.0/8", "10.0.0.0/8", AF_INET, 8 },
		{ "0.0.0.0/0", "0.0.0.0/0", AF_INET, 0 },
		{ "192.0.2.1/32", "192.0.2.1/32", AF_INET, 32 },
		{ "255.255.255.255/32", "255.255.255.255/32", AF_INET, 32 },
		{ "172.16.0.0/12", "172.16.0.0/12", AF_INET, 12 },
		{ "::/0", "::/0", AF_INET6, 0 },
		{ "2001:db8::/32", "2001:db8::/32", AF_INET6, 32 },
		{ "2001:DB8:0:0::/64", "2001:db8::/64", AF_INET6, 64 },
		{ "fe80::1/128", "fe80::1/128", AF_INET6, 128 },
		{ "::ffff:10.0.0.0/104", "::ffff:10.0.0.0/104", AF_INET6, 104 },
	};
	char buf[PREFIX_STRLEN];
	struct prefix p;

	for (size_t i = 0; i < array_size(ok); i++) {
		ck_assert_msg(prefix_from_str(&p, ok[i].in, true) == 0, "rejected %s", ok[i].in);
		ck_assert_int_eq(p.family, ok[i].family);
		ck_assert_int_eq(p.len, ok[i].len);
		ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), ok[i].out);
	}
}
END_TEST

START_TEST(test_prefix_parse_invalid)
{
	static const char *const bad[] = {
		"",
		"/",
		"/8",
		"10.0.0.0",
		"10.0.0.0/",
		"10.0.0.0/33",
		"10.0.0.0/-1",
		"10.0.0.0/+8",
		"10.0.0.0/08",
		"10.0.0.0/8x",
		"10.0.0.0/8 ",
		" 10.0.0.0/8",
		"10.0.0.0 /8",
		"10.0.0/8",
		"10.0.0.0.0/8",
		"256.0.0.0/8",
		"10.0.0.0/8/8",
		"010.0.0.0/8",
		"1e.0.0.0/8",
		"10.0.0.0/1000",
		"::/129",
		"2001:db8::/",
		"2001:db8:::/32",
		"2001:db8::g/32",
		"2001:db8::/64junk",
		"10.0.0.1/24", /* host bits, strict */
		"2001:db8::1/64",
		"10.0.0.0/0008",
		"abc",
		"1.2.3.4/3 2",
		"0000:0000:0000:0000:0000:0000:0000:0000:0000/0",
	};
	struct prefix p;

	memset(&p, 0x5a, sizeof(p));
	for (size_t i = 0; i < array_size(bad); i++) {
		ck_assert_msg(prefix_from_str(&p, bad[i], true) == -1, "accepted '%s'", bad[i]);
		ck_assert_uint_eq(p.family, 0x5a); /* untouched on error */
	}
	ck_assert_int_eq(prefix_from_str(&p, NULL, true), -1);
}
END_TEST

START_TEST(test_prefix_non_strict)
{
	char buf[PREFIX_STRLEN];
	struct prefix p;

	/* non-strict keeps the host bits (an interface address), mask on request */
	ck_assert_int_eq(prefix_from_str(&p, "10.1.2.3/24", false), 0);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.1.2.3/24");
	prefix_apply_mask(&p);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.1.2.0/24");
	ck_assert_int_eq(prefix_from_str(&p, "2001:db8::ffff/33", false), 0);
	prefix_apply_mask(&p);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "2001:db8::/33");
	/* everything else stays as strict as before */
	ck_assert_int_eq(prefix_from_str(&p, "10.0.0.0/33", false), -1);
	ck_assert_int_eq(prefix_from_str(&p, "10.0.0.0/8junk", false), -1);
}
END_TEST

START_TEST(test_mask)
{
	char buf[PREFIX_STRLEN];
	struct prefix p;

	for (unsigned len = 0; len <= 32; len++) {
		uint32_t expect = len ? 0xffffffffu << (32 - len) : 0;

		memset(&p, 0xff, sizeof(p));
		p.family = AF_INET;
		p.len = (uint8_t)len;
		prefix_apply_mask(&p);
		ck_assert_uint_eq(ntohl(p.u.v4.s_addr), expect);
		for (int i = 4; i < 16; i++)
			ck_assert_uint_eq(p.u.bytes[i], 0);
	}
	memset(&p, 0xff, sizeof(p));
	p.family = AF_INET6;
	p.len = 65;
	prefix_apply_mask(&p);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "ffff:ffff:ffff:ffff:8000::/65");
	p.len = 128;
	memset(p.u.bytes, 0xff, 16);
	prefix_apply_mask(&p);
	ck_assert_uint_eq(p.u.bytes[15], 0xff);
}
END_TEST

START_TEST(test_cmp_order)
{
	/* The tree's walk order: family, then address bytes, then length. */
	static const char *const sorted[] = {
		"0.0.0.0/0",	 "10.0.0.0/8",	  "10.0.0.0/16",     "10.0.0.0/24", "10.0.1.0/24",
		"10.128.0.0/9",	 "11.0.0.0/8",	  "192.0.2.0/24",    "::/0",	    "::/1",
		"2001:db8::/32", "2001:db8::/48", "2001:db8:1::/48", "fe80::/10",
	};
	struct prefix a, b;

	for (size_t i = 0; i < array_size(sorted); i++) {
		a = P(sorted[i]);
		ck_assert_int_eq(prefix_cmp(&a, &a), 0);
		ck_assert(prefix_same(&a, &a));
		for (size_t j = i + 1; j < array_size(sorted); j++) {
			b = P(sorted[j]);
			ck_assert_msg(prefix_cmp(&a, &b) < 0, "%s !< %s", sorted[i], sorted[j]);
			ck_assert_msg(prefix_cmp(&b, &a) > 0, "%s !> %s", sorted[j], sorted[i]);
			ck_assert(!prefix_same(&a, &b));
		}
	}
}
END_TEST

START_TEST(test_contains)
{
	struct prefix p8 = P("10.0.0.0/8"), p24 = P("10.1.2.0/24"), o = P("11.0.0.0/8");
	struct prefix any = P("0.0.0.0/0"), v6 = P("2001:db8::/32"), v6in = P("2001:db8:1::/48");
	struct ipaddr a;

	ck_assert(prefix_contains(&p8, &p24));
	ck_assert(!prefix_contains(&p24, &p8));
	ck_assert(prefix_contains(&p8, &p8));
	ck_assert(!prefix_contains(&o, &p24));
	ck_assert(prefix_contains(&any, &p24));
	ck_assert(!prefix_contains(&any, &v6)); /* different family */
	ck_assert(prefix_contains(&v6, &v6in));
	ck_assert(!prefix_contains(&v6in, &v6));

	ck_assert_int_eq(ipaddr_from_str(&a, "10.1.2.200"), 0);
	ck_assert(prefix_contains_addr(&p8, &a));
	ck_assert(prefix_contains_addr(&p24, &a));
	ck_assert(!prefix_contains_addr(&o, &a));
	ck_assert(prefix_contains_addr(&any, &a));
	ck_assert(!prefix_contains_addr(&v6, &a));
	ck_assert_int_eq(ipaddr_from_str(&a, "2001:db8:1::5"), 0);
	ck_assert(prefix_contains_addr(&v6in, &a));
	ck_assert(!prefix_contains_addr(&p8, &a));
}
END_TEST

START_TEST(test_ipaddr)
{
	char buf[IPADDR_STRLEN], small[4];
	struct ipaddr a, b;
	struct prefix p;

	ck_assert_int_eq(ipaddr_from_str(&a, "192.0.2.1"), 0);
	ck_assert_int_eq(a.family, AF_INET);
	ck_assert_str_eq(ipaddr_to_str(&a, buf, sizeof(buf)), "192.0.2.1");
	ck_assert_str_eq(ipaddr_to_str(&a, small, sizeof(small)), "192"); /* truncated, NUL'd */
	ck_assert_int_eq(ipaddr_from_str(&b, "2001:DB8::1"), 0);
	ck_assert_int_eq(b.family, AF_INET6);
	ck_assert_str_eq(ipaddr_to_str(&b, buf, sizeof(buf)), "2001:db8::1");
	ck_assert_int_lt(ipaddr_cmp(&a, &b), 0);
	ck_assert_int_gt(ipaddr_cmp(&b, &a), 0);
	ck_assert_int_eq(ipaddr_cmp(&a, &a), 0);
	ck_assert(!ipaddr_is_zero(&a));

	static const char *const bad[] = { "",	    "1.2.3", "1.2.3.4 ",  "1.2.3.4/32", "01.2.3.4",
					   "::1::", "x",     "1.2.3.256", "[::1]" };
	for (size_t i = 0; i < array_size(bad); i++)
		ck_assert_msg(ipaddr_from_str(&a, bad[i]) == -1, "accepted '%s'", bad[i]);

	ck_assert_int_eq(ipaddr_from_str(&a, "0.0.0.0"), 0);
	ck_assert(ipaddr_is_zero(&a));
	ck_assert_int_eq(ipaddr_from_str(&a, "::"), 0);
	ck_assert(ipaddr_is_zero(&a));
	memset(&a, 0, sizeof(a));
	ck_assert(ipaddr_is_zero(&a));
	ck_assert_str_eq(ipaddr_to_str(&a, buf, sizeof(buf)), "(unset)");

	ck_assert_int_eq(ipaddr_from_str(&a, "10.9.8.7"), 0);
	prefix_from_ipaddr(&p, &a);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.9.8.7/32");
	ck_assert_int_eq(ipaddr_from_str(&a, "fe80::1"), 0);
	prefix_from_ipaddr(&p, &a);
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "fe80::1/128");
}
END_TEST

START_TEST(test_unmap)
{
	char buf[IPADDR_STRLEN];
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, "::ffff:192.0.2.7"), 0);
	ck_assert_int_eq(a.family, AF_INET6);
	ipaddr_unmap_v4(&a);
	ck_assert_int_eq(a.family, AF_INET);
	ck_assert_str_eq(ipaddr_to_str(&a, buf, sizeof(buf)), "192.0.2.7");
	for (int i = 4; i < 16; i++)
		ck_assert_uint_eq(a.u.bytes[i], 0);
	/* not mapped: unchanged */
	ck_assert_int_eq(ipaddr_from_str(&a, "::192.0.2.7"), 0);
	ipaddr_unmap_v4(&a);
	ck_assert_int_eq(a.family, AF_INET6);
	ck_assert_int_eq(ipaddr_from_str(&a, "2001:db8::1"), 0);
	ipaddr_unmap_v4(&a);
	ck_assert_int_eq(a.family, AF_INET6);
	ck_assert_int_eq(ipaddr_from_str(&a, "10.0.0.1"), 0);
	ipaddr_unmap_v4(&a);
	ck_assert_int_eq(a.family, AF_INET);
}
END_TEST

START_TEST(test_sockaddr)
{
	struct sockaddr_storage ss;
	struct ipaddr a, b;
	uint16_t port = 0;
	char buf[SU_STRLEN];
	socklen_t sl;

	ck_assert_int_eq(ipaddr_from_str(&a, "192.0.2.1"), 0);
	sl = ipaddr_to_sockaddr(&a, 179, &ss);
	ck_assert_uint_eq(sl, sizeof(struct sockaddr_in));
	ck_assert_int_eq(ss.ss_family, AF_INET);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&ss)->sin_port), 179);
	ck_assert_int_eq(ipaddr_from_sockaddr(&b, &port, (struct sockaddr *)&ss), 0);
	ck_assert_int_eq(ipaddr_cmp(&a, &b), 0);
	ck_assert_uint_eq(port, 179);
	ck_assert_str_eq(ipaddr_port_to_str(&a, 179, buf, sizeof(buf)), "192.0.2.1:179");

	ck_assert_int_eq(ipaddr_from_str(&a, "2001:db8::2"), 0);
	sl = ipaddr_to_sockaddr(&a, 40000, &ss);
	ck_assert_uint_eq(sl, sizeof(struct sockaddr_in6));
	ck_assert_int_eq(ipaddr_from_sockaddr(&b, &port, (struct sockaddr *)&ss), 0);
	ck_assert_int_eq(ipaddr_cmp(&a, &b), 0);
	ck_assert_uint_eq(port, 40000);
	ck_assert_int_eq(ipaddr_from_sockaddr(&b, NULL, (struct sockaddr *)&ss), 0);
	ck_assert_str_eq(ipaddr_port_to_str(&a, 179, buf, sizeof(buf)), "[2001:db8::2]:179");

	memset(&a, 0, sizeof(a));
	ck_assert_uint_eq(ipaddr_to_sockaddr(&a, 1, &ss), 0);
	ss.ss_family = AF_UNIX;
	ck_assert_int_eq(ipaddr_from_sockaddr(&b, &port, (struct sockaddr *)&ss), -1);
}
END_TEST

/* Every string of the form "<addr>/<n>" for n in 0..140 behaves as the rule says. */
START_TEST(test_len_sweep)
{
	char s[64];
	struct prefix p;

	for (int n = 0; n <= 140; n++) {
		snprintf(s, sizeof(s), "0.0.0.0/%d", n);
		ck_assert_int_eq(prefix_from_str(&p, s, true), n <= 32 ? 0 : -1);
		snprintf(s, sizeof(s), "::/%d", n);
		ck_assert_int_eq(prefix_from_str(&p, s, true), n <= 128 ? 0 : -1);
		if (n <= 128)
			ck_assert_int_eq(p.len, n);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("prefix");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_prefix_parse_valid);
	tcase_add_test(tc, test_prefix_parse_invalid);
	tcase_add_test(tc, test_prefix_non_strict);
	tcase_add_test(tc, test_mask);
	tcase_add_test(tc, test_cmp_order);
	tcase_add_test(tc, test_contains);
	tcase_add_test(tc, test_ipaddr);
	tcase_add_test(tc, test_unmap);
	tcase_add_test(tc, test_sockaddr);
	tcase_add_test(tc, test_len_sweep);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
