/* SPDX-License-Identifier: ISC */
/*
 * AS path access lists (bgpd/policy/bgp_aspath_list.c): FRR's `_` (a separator or either end, never
 * part of a number), anchors, sets and confederation segments as FRR writes them, first match
 * in seq order, implicit deny, a missing list denies, expressions that do not compile, the
 * list going with its last entry, the change hook, and nothing leaked.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/wire/bgp_attr.h"

static bool permits(const char *list, const char *path_text)
{
	struct bgp_aspath *path = bgp_aspath_from_str(path_text);
	bool r;

	ck_assert_ptr_nonnull(path);
	r = aspath_list_permits(aspath_list_lookup(list), path);
	bgp_aspath_unref(path);
	return r;
}

static void one(const char *list, const char *regex)
{
	ck_assert_int_eq(aspath_list_entry_set(list, 5, true, regex), 0);
}

static void teardown(void)
{
	aspath_list_set_change_hook(NULL);
	aspath_list_reset();
	ck_assert_uint_eq(MTYPE_BGP_ASPATH_LIST->allocated, 0);
}

START_TEST(test_underscore)
{
	one("ANY65001", "_65001_");
	ck_assert(permits("ANY65001", "65001"));
	ck_assert(permits("ANY65001", "65002 65001 65003"));
	ck_assert(permits("ANY65001", "65002 65001"));
	ck_assert(!permits("ANY65001", "165001")); /* never part of a number */
	ck_assert(!permits("ANY65001", "65002 650011"));
	ck_assert(permits("ANY65001", "65002 {65001,65003}")); /* inside a set */
	ck_assert(permits("ANY65001", "(65001 65002) 65003")); /* a confederation segment */

	one("ORIGIN", "_65010$");
	ck_assert(permits("ORIGIN", "65002 65010"));
	ck_assert(!permits("ORIGIN", "65010 65002"));
	one("FIRST", "^65002_");
	ck_assert(permits("FIRST", "65002 65010"));
	ck_assert(!permits("FIRST", "65010 65002"));
	ck_assert(!permits("FIRST", "650021"));
}
END_TEST

START_TEST(test_empty_path_and_anchors)
{
	one("LOCAL", "^$");
	ck_assert(permits("LOCAL", ""));
	ck_assert(!permits("LOCAL", "65002"));
	one("ALL", ".*");
	ck_assert(permits("ALL", ""));
	ck_assert(permits("ALL", "65002 65003"));
}
END_TEST

START_TEST(test_first_match_implicit_deny_missing)
{
	ck_assert_int_eq(aspath_list_entry_set("L", 20, true, "^65002_"), 0);
	ck_assert_int_eq(aspath_list_entry_set("L", 10, false, "_65666_"), 0);
	ck_assert(permits("L", "65002 65010"));
	ck_assert(!permits("L", "65002 65666")); /* seq 10 first */
	ck_assert(!permits("L", "65003"));	 /* implicit deny */
	ck_assert(!permits("NOPE", "65003"));	 /* no such list: deny (FRR) */
	/* Replacing seq 10 by a permit; deleting entries; the list goes with the last one. */
	ck_assert_int_eq(aspath_list_entry_set("L", 10, true, "_65666_"), 0);
	ck_assert(permits("L", "65002 65666"));
	aspath_list_entry_delete("L", 10);
	aspath_list_entry_delete("L", 99);
	ck_assert_ptr_nonnull(aspath_list_lookup("L"));
	aspath_list_entry_delete("L", 20);
	ck_assert_ptr_null(aspath_list_lookup("L"));
}
END_TEST

START_TEST(test_bad_regex)
{
	char err[256];

	ck_assert_int_eq(aspath_regex_check("(65001", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "(65001"));
	ck_assert_int_eq(aspath_list_entry_set("B", 5, true, "(65001"), -1);
	ck_assert_ptr_null(aspath_list_lookup("B"));
	ck_assert_int_eq(aspath_regex_check("^6500[0-9]_", err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_long_path)
{
	char text[8000] = "";
	struct bgp_aspath *path;

	/* 600 four-byte AS numbers: longer than the on-stack buffer. */
	for (int i = 0; i < 600; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%u", i ? " " : "",
			 4200000000u + (unsigned)i);
	path = bgp_aspath_from_str(text);
	ck_assert_ptr_nonnull(path);
	one("LAST", "_4200000599$");
	ck_assert(aspath_list_permits(aspath_list_lookup("LAST"), path));
	bgp_aspath_unref(path);
}
END_TEST

static char hooked[128];

static void hook(const char *name)
{
	strcat(hooked, name);
	strcat(hooked, " ");
}

START_TEST(test_hook_and_walk)
{
	hooked[0] = '\0';
	aspath_list_set_change_hook(hook);
	one("B", "1");
	one("A", "2");
	aspath_list_entry_delete("A", 5);
	aspath_list_delete("B");
	ck_assert_str_eq(hooked, "B A A B ");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_aspath_list");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_underscore);
	tcase_add_test(tc, test_empty_path_and_anchors);
	tcase_add_test(tc, test_first_match_implicit_deny_missing);
	tcase_add_test(tc, test_bad_regex);
	tcase_add_test(tc, test_long_path);
	tcase_add_test(tc, test_hook_and_walk);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
