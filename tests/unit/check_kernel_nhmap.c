/* SPDX-License-Identifier: ISC */
/*
 * kernel/route_nhmap.c: prefix -> value, checked against a plain array after every kind of
 * change (new, replaced, removed in an order unlike the insertion's, the table growing and
 * shrinking), for both families.
 */
#include "lib/compat.h"

#include <check.h>

#include "kernel/route_nhmap.h"

#define N 20000

static struct prefix nth(int family, uint32_t i, uint8_t len)
{
	struct prefix p;

	memset(&p, 0, sizeof(p));
	p.family = (uint8_t)family;
	p.len = len;
	if (family == AF_INET) {
		uint32_t a =
			htonl(0xc6000000u | (i << 8)); /* n/24s; the length makes them differ */

		memcpy(p.u.bytes, &a, 4);
	} else {
		p.u.bytes[0] = 0x20;
		p.u.bytes[1] = 0x01;
		p.u.bytes[2] = 0x0d;
		p.u.bytes[3] = 0xb8;
		memcpy(p.u.bytes + 8, &i, sizeof(i));
	}
	return p;
}

static void check_family(int family)
{
	struct nhmap *m = nhmap_new(family);
	static uint32_t want[N][2]; /* [i][/24 or /23-like twin]: the value held, 0 = none */
	uint8_t lens[2] = { family == AF_INET ? 24 : 64, family == AF_INET ? 23 : 63 };

	memset(want, 0, sizeof(want));
	/* Same address, two lengths: two keys. */
	for (uint32_t i = 0; i < N; i++)
		for (int t = 0; t < 2; t++) {
			struct prefix p = nth(family, i, lens[t]);

			ck_assert_uint_eq(nhmap_set(m, &p, 1 + (i * 7 + (uint32_t)t) % 1000), 0);
			want[i][t] = 1 + (i * 7 + (uint32_t)t) % 1000;
		}
	ck_assert_uint_eq(nhmap_count(m), 2 * N);
	/* Replace every third: the old value comes back. */
	for (uint32_t i = 0; i < N; i += 3) {
		struct prefix p = nth(family, i, lens[0]);

		ck_assert_uint_eq(nhmap_set(m, &p, NHMAP_VALUE_MAX), want[i][0]);
		want[i][0] = NHMAP_VALUE_MAX;
	}
	/* Remove in a scattered order, most of them (the table shrinks under the runs). */
	for (uint32_t k = 0; k < N; k++) {
		uint32_t i = (k * 7919) % N;
		int t = (int)(k & 1);
		struct prefix p = nth(family, i, lens[t]);

		if (k % 10 == 9)
			continue;
		ck_assert_uint_eq(nhmap_del(m, &p), want[i][t]);
		want[i][t] = 0;
	}
	for (uint32_t i = 0; i < N; i++)
		for (int t = 0; t < 2; t++) {
			struct prefix p = nth(family, i, lens[t]);

			ck_assert_uint_eq(nhmap_get(m, &p), want[i][t]);
		}
	/* Removing what is not there changes nothing; 0 as a value removes. */
	{
		struct prefix p = nth(family, N + 5, lens[0]);

		ck_assert_uint_eq(nhmap_del(m, &p), 0);
	}
	for (uint32_t i = 0; i < N; i++)
		for (int t = 0; t < 2; t++) {
			struct prefix p = nth(family, i, lens[t]);

			nhmap_set(m, &p, 0);
		}
	ck_assert_uint_eq(nhmap_count(m), 0);
	ck_assert_uint_lt(nhmap_memory(m), 4096); /* back to its smallest */
	nhmap_free(m);
}

START_TEST(test_ipv4)
{
	check_family(AF_INET);
}
END_TEST

START_TEST(test_ipv6)
{
	check_family(AF_INET6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel_nhmap");
	TCase *tc = tcase_create("map");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_ipv4);
	tcase_add_test(tc, test_ipv6);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
