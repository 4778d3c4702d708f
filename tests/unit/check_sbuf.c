/* SPDX-License-Identifier: ISC */
/* lib/sbuf.c: appends, printf growth, reset, steal. */
#include "lib/compat.h"

#include <check.h>

#include "lib/sbuf.h"

START_TEST(test_basic)
{
	struct sbuf sb;
	char *s;

	sbuf_init(&sb);
	ck_assert_ptr_null(sb.buf);
	ck_assert_uint_eq(sb.len, 0);
	sbuf_puts(&sb, "hello");
	sbuf_put(&sb, ", world!!!", 7);
	ck_assert_str_eq(sb.buf, "hello, world");
	ck_assert_uint_eq(sb.len, 12);
	sbuf_printf(&sb, " %d-%s", 42, "x");
	ck_assert_str_eq(sb.buf, "hello, world 42-x");
	ck_assert_uint_eq(sb.len, strlen(sb.buf));

	sbuf_reset(&sb);
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.len, 0);
	sbuf_put(&sb, "", 0);
	ck_assert_str_eq(sb.buf, "");

	sbuf_puts(&sb, "kept");
	s = sbuf_steal(&sb);
	ck_assert_str_eq(s, "kept");
	ck_assert_ptr_null(sb.buf);
	ck_assert_uint_eq(sb.len, 0);
	XFREE(MTYPE_SBUF, s);

	/* stealing an empty buffer still gives a string */
	s = sbuf_steal(&sb);
	ck_assert_str_eq(s, "");
	XFREE(MTYPE_SBUF, s);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_growth)
{
	struct sbuf sb;
	char expect[32];
	size_t off = 0;
	uint64_t before = MTYPE_SBUF->allocated;

	sbuf_init(&sb);
	/* printf output longer than the current capacity goes through the regrow path */
	for (int i = 0; i < 20000; i++)
		sbuf_printf(&sb, "%05d,", i);
	ck_assert_uint_eq(sb.len, 20000 * 6);
	ck_assert_uint_eq(strlen(sb.buf), sb.len);
	for (int i = 0; i < 20000; i++) {
		snprintf(expect, sizeof(expect), "%05d,", i);
		ck_assert_int_eq(memcmp(sb.buf + off, expect, 6), 0);
		off += 6;
	}
	sbuf_reset(&sb);
	sbuf_printf(&sb, "%3000s|", "");
	ck_assert_uint_eq(sb.len, 3001);
	ck_assert_int_eq(sb.buf[3000], '|');
	sbuf_free(&sb);
	ck_assert_ptr_null(sb.buf);
	ck_assert_uint_eq(MTYPE_SBUF->allocated, before);
}
END_TEST

START_TEST(test_sort_lines_from)
{
	struct sbuf sb;

	sbuf_init(&sb);
	sbuf_puts(&sb, "route-map X permit 10\n");
	{
		size_t body = sb.len;

		sbuf_puts(&sb, " set metric 5\n match peer 192.0.2.1\n call Y\n match as-path A\n"
			       " on-match next\n match as\n");
		sbuf_sort_lines_from(&sb, body);
	}
	ck_assert_str_eq(sb.buf, "route-map X permit 10\n call Y\n match as\n match as-path A\n"
				 " match peer 192.0.2.1\n on-match next\n set metric 5\n");
	/* Nothing after the offset, one line, an unterminated last line. */
	sbuf_sort_lines_from(&sb, sb.len);
	sbuf_reset(&sb);
	sbuf_puts(&sb, "b\na");
	sbuf_sort_lines_from(&sb, 0);
	ck_assert_str_eq(sb.buf, "a\nb\n");
	sbuf_free(&sb);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sbuf");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_sort_lines_from);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
