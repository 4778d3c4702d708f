/* SPDX-License-Identifier: ISC */
/* The string pool (lib/str_pool.c): one copy per distinct string, all freed with the pool. */
#include "lib/compat.h"

#include <check.h>

#include "lib/str_pool.h"

DEFINE_MTYPE(TEST_POOL, "Test string pool");

START_TEST(test_one_copy_per_string)
{
	struct str_pool p = STR_POOL_INIT(MTYPE_TEST_POOL);
	const char line[] = "neighbor remote-as";
	const char *a = str_pool_intern(&p, line, 8); /* "neighbor", not NUL-terminated there */
	const char *b = str_pool_intern(&p, "neighbor", 8);
	const char *c = str_pool_intern(&p, "neighbo", 7);
	const char *e = str_pool_intern(&p, "", 0);

	ck_assert_ptr_eq(a, b);
	ck_assert_str_eq(a, "neighbor");
	ck_assert_str_eq(c, "neighbo");
	ck_assert_ptr_ne(a, c); /* a prefix of another string is another string */
	ck_assert_str_eq(e, "");
	ck_assert_ptr_eq(str_pool_intern(&p, line + 9, 9), str_pool_intern(&p, "remote-as", 9));
	ck_assert_uint_eq(str_pool_count(&p), 4);
	str_pool_free(&p);
	ck_assert_uint_eq(MTYPE_TEST_POOL->allocated, 0);
	ck_assert_uint_eq(str_pool_count(&p), 0);
}
END_TEST

START_TEST(test_many_and_long_strings)
{
	struct str_pool p = STR_POOL_INIT(MTYPE_TEST_POOL);
	static const char *kept[5000];
	char buf[32], *big = malloc(20000);
	const char *big1, *after;

	/* Enough to grow the table several times and fill several blocks. */
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof(buf), "token-%d", i);

		kept[i] = str_pool_intern(&p, buf, (size_t)n);
	}
	memset(big, 'x', 20000);
	big1 = str_pool_intern(&p, big, 20000); /* longer than a block: a block of its own */
	after = str_pool_intern(&p, "after the long one", 18);
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof(buf), "token-%d", i);

		ck_assert_str_eq(kept[i], buf);
		ck_assert_ptr_eq(str_pool_intern(&p, buf, (size_t)n), kept[i]);
	}
	ck_assert_uint_eq(strlen(big1), 20000);
	ck_assert_ptr_eq(str_pool_intern(&p, big, 20000), big1);
	ck_assert_str_eq(after, "after the long one");
	ck_assert_uint_eq(str_pool_count(&p), 5002);
	/* Packed: far less than a malloc'd copy each (5,000 x 32 bytes with headers). */
	ck_assert_uint_lt(MTYPE_TEST_POOL->bytes, 20000 + 5000 * 12 + 8192 * 2 + 8192 * 8);
	str_pool_free(&p);
	ck_assert_uint_eq(MTYPE_TEST_POOL->allocated, 0);
	ck_assert_uint_eq(MTYPE_TEST_POOL->bytes, 0);
	free(big);
}
END_TEST

START_TEST(test_long_string_first)
{
	struct str_pool p = STR_POOL_INIT(MTYPE_TEST_POOL);
	char *big = malloc(10000);

	memset(big, 'y', 10000);
	ck_assert_uint_eq(strlen(str_pool_intern(&p, big, 10000)), 10000);
	ck_assert_str_eq(str_pool_intern(&p, "short", 5), "short");
	str_pool_free(&p);
	ck_assert_uint_eq(MTYPE_TEST_POOL->allocated, 0);
	free(big);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("str_pool");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_one_copy_per_string);
	tcase_add_test(tc, test_many_and_long_strings);
	tcase_add_test(tc, test_long_string_first);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
