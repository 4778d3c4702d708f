/* SPDX-License-Identifier: ISC */
/*
 * bgp_blaster's --shape internet (blaster_shape.c): a full-size IPv4 and IPv6 table has the
 * published order of prefix lengths and the shares written in blaster_shape.c, every prefix
 * distinct, masked and inside the shape's range; attribute sets of 2 or 3 consecutive
 * prefixes; AS paths of 1 to 10 ASes with a mean of 4 to 5; the same seed gives the same
 * table, another seed another order.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bench/blaster.h"
#include "bench/blaster_shape.h"

/* Prefixes per length of a whole table, checking each prefix on the way. */
static void walk_table(const struct shape *s, uint64_t *per_len)
{
	struct pset seen;
	struct prefix p, masked;

	pset_init(&seen, s->n);
	for (uint64_t i = 0; i < s->n; i++) {
		shape_prefix(s, i, &p);
		ck_assert_int_eq(p.family, s->family);
		masked = p;
		prefix_apply_mask(&masked);
		ck_assert_msg(!memcmp(&masked.u, &p.u, sizeof(p.u)), "host bits set at %lu",
			      (unsigned long)i);
		if (s->family == AF_INET) {
			uint32_t a = ntohl(p.u.v4.s_addr);

			ck_assert(p.len >= 8 && p.len <= 24);
			ck_assert_msg(a >= 0x01000000u && a < 0x7f000000u, "%08x out of range", a);
		} else {
			ck_assert(p.len >= 24 && p.len <= 48);
			ck_assert_msg((p.u.bytes[0] & 0xfc) == 0x24, "outside 2400::/6");
		}
		ck_assert_msg(pset_add(&seen, &p), "prefix %lu sent twice", (unsigned long)i);
		per_len[p.len]++;
	}
	pset_free(&seen);
}

/* Each length of `order` has strictly more prefixes than the next one. */
static void check_order(const uint64_t *per_len, const uint8_t *order, size_t n)
{
	for (size_t k = 0; k + 1 < n; k++)
		ck_assert_msg(per_len[order[k]] > per_len[order[k + 1]],
			      "/%u (%lu) should outnumber /%u (%lu)", order[k],
			      (unsigned long)per_len[order[k]], order[k + 1],
			      (unsigned long)per_len[order[k + 1]]);
}

START_TEST(test_ipv4_full_table)
{
	static const uint8_t order[] = { 24, 22, 23, 20, 21, 19, 16 };
	uint64_t per_len[129] = { 0 };
	struct shape s;
	char why[200];

	ck_assert_int_eq(shape_init(&s, AF_INET, 1000000, 1, why, sizeof(why)), 0);
	walk_table(&s, per_len);
	check_order(per_len, order, array_size(order));
	/* The shares of blaster_shape.c: /24 59.58%, /22 12.5%, /16 1.45%. */
	ck_assert_uint_eq(per_len[24], 595800);
	ck_assert_uint_eq(per_len[22], 125000);
	ck_assert_uint_eq(per_len[16], 14500);
	for (unsigned len = 8; len < 24; len++)
		ck_assert_msg(per_len[len] > 0, "no /%u", len);
}
END_TEST

START_TEST(test_ipv6_table)
{
	static const uint8_t order[] = { 48, 32, 44, 40, 36, 29 };
	uint64_t per_len[129] = { 0 };
	struct shape s;
	char why[200];

	ck_assert_int_eq(shape_init(&s, AF_INET6, 200000, 7, why, sizeof(why)), 0);
	walk_table(&s, per_len);
	check_order(per_len, order, array_size(order));
	ck_assert_uint_eq(per_len[48], 94000); /* 47% */
	ck_assert_uint_eq(per_len[32], 26000); /* 13% */
}
END_TEST

START_TEST(test_small_table)
{
	uint64_t per_len[129] = { 0 };
	struct shape s;
	char why[200];

	/* A smoke-test size: every share rounds down, the rest goes to /24. */
	ck_assert_int_eq(shape_init(&s, AF_INET, 2000, 3, why, sizeof(why)), 0);
	walk_table(&s, per_len);
	ck_assert_uint_ge(per_len[24], 1190);
	ck_assert_uint_eq(per_len[22], 250);
}
END_TEST

START_TEST(test_sets_of_two_or_three)
{
	enum { N = 1000000 };
	uint64_t set = 0, size = 0, sets = 0;

	ck_assert_uint_eq(shape_set_of(1, 0), 0);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t s = shape_set_of(1, i);

		if (s != set) {
			ck_assert_uint_eq(s, set + 1); /* consecutive prefixes, sets in order */
			ck_assert_msg(size == 2 || size == 3, "set %lu has %lu prefixes",
				      (unsigned long)set, (unsigned long)size);
			sets++;
			set = s;
			size = 0;
		}
		size++;
	}
	/* Mean 2.5 prefixes per set. */
	ck_assert_uint_eq(sets, N / 5 * 2 - 1);
}
END_TEST

START_TEST(test_path_lengths)
{
	enum { SETS = 400000 };
	unsigned count[11] = { 0 };
	uint64_t total = 0;

	for (uint64_t set = 0; set < SETS; set++) {
		unsigned len = shape_path_len(5, set);

		ck_assert(len >= 1 && len <= 10);
		count[len]++;
		total += len;
	}
	ck_assert_msg(total * 10 / SETS >= 44 && total * 10 / SETS <= 46, "mean %.2f",
		      (double)total / SETS);
	ck_assert_uint_gt(count[1], 0);
	ck_assert_uint_gt(count[10], 0);
	ck_assert_uint_gt(count[4], count[3]); /* the mode is 4 */
}
END_TEST

START_TEST(test_seed)
{
	struct shape a, b, c;
	struct prefix pa, pb, pc;
	char why[200];
	unsigned differ = 0;

	ck_assert_int_eq(shape_init(&a, AF_INET, 100000, 1, why, sizeof(why)), 0);
	ck_assert_int_eq(shape_init(&b, AF_INET, 100000, 1, why, sizeof(why)), 0);
	ck_assert_int_eq(shape_init(&c, AF_INET, 100000, 2, why, sizeof(why)), 0);
	for (uint64_t i = 0; i < 1000; i++) {
		shape_prefix(&a, i, &pa);
		shape_prefix(&b, i, &pb);
		shape_prefix(&c, i, &pc);
		ck_assert(prefix_same(&pa, &pb));
		differ += !prefix_same(&pa, &pc);
	}
	ck_assert_uint_gt(differ, 900);
}
END_TEST

START_TEST(test_too_big)
{
	struct shape s;
	char why[200] = "";

	/* 12 million /24s do not fit in 1.0.0.0-126.255.255.255 (8.2 million). */
	ck_assert_int_eq(shape_init(&s, AF_INET, 20000000, 1, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "/24"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("blaster_shape");
	TCase *tc = tcase_create("shape");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ipv4_full_table);
	tcase_add_test(tc, test_ipv6_table);
	tcase_add_test(tc, test_small_table);
	tcase_add_test(tc, test_sets_of_two_or_three);
	tcase_add_test(tc, test_path_lengths);
	tcase_add_test(tc, test_seed);
	tcase_add_test(tc, test_too_big);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
