/* SPDX-License-Identifier: ISC */
/*
 * Community lists (bgpd/bgp_clist.c): a standard entry matches a route carrying all its
 * communities (exact-match: only them), `internet` matches any, an expanded entry is a
 * regular expression over FRR's text of the communities, first match in seq order, implicit
 * deny, a missing list permits nothing, bad entries refused, no leaks.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/bgp_attr.h"
#include "bgpd/bgp_clist.h"
#include "bgpd/bgp_community.h"

/* An interned list from text "65001:1 no-export" (NULL for ""); the caller unrefs. */
static struct bgp_u32list *comms(const char *text)
{
	uint32_t v[16], n = 0;
	char copy[256], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_community_from_str(w, &v[n++]), 0);
	return n ? bgp_u32list_intern(v, n) : NULL;
}

static bool permits(const char *list, const char *text, bool exact)
{
	struct bgp_u32list *l = comms(text);
	bool r = community_list_permits(community_list_lookup(list), l, exact);

	if (l)
		bgp_u32list_unref(l);
	return r;
}

static void teardown(void)
{
	community_list_set_change_hook(NULL);
	community_list_reset();
	ck_assert_uint_eq(MTYPE_BGP_CLIST->allocated, 0);
}

START_TEST(test_standard_include_and_exact)
{
	ck_assert_int_eq(community_list_entry_set("S", false, 5, true, "65001:1 no-export"), 0);
	ck_assert(permits("S", "65001:1 no-export", false));
	ck_assert(permits("S", "65002:7 no-export 65001:1", false)); /* includes both */
	ck_assert(!permits("S", "65001:1", false));		     /* lacks no-export */
	ck_assert(!permits("S", "", false));
	ck_assert(permits("S", "no-export 65001:1", true)); /* exact, any order */
	ck_assert(!permits("S", "65002:7 no-export 65001:1", true));
}
END_TEST

START_TEST(test_internet_first_match_implicit_deny)
{
	ck_assert_int_eq(community_list_entry_set("L", false, 10, false, "65001:666"), 0);
	ck_assert_int_eq(community_list_entry_set("L", false, 20, true, "internet"), 0);
	ck_assert(!permits("L", "65001:666 65001:1", false)); /* seq 10 denies first */
	ck_assert(permits("L", "65001:1", false));
	ck_assert(permits("L", "", false)); /* internet matches any route */
	community_list_entry_delete("L", 20);
	ck_assert(!permits("L", "65001:1", false)); /* implicit deny */
	ck_assert(!permits("MISSING", "65001:1", false));
}
END_TEST

START_TEST(test_expanded)
{
	ck_assert_int_eq(community_list_entry_set("X", true, 5, true, "^65001:[0-9]+$"), 0);
	ck_assert_int_eq(community_list_entry_set("Y", true, 5, true, "_no-export_"), 0);
	ck_assert(permits("X", "65001:100", false));
	ck_assert(!permits("X", "65001:100 65002:1", false)); /* anchored at both ends */
	ck_assert(permits("Y", "65002:1 no-export", false));
	ck_assert(!permits("Y", "65002:1", false));
	/* The other type for an existing list is refused. */
	ck_assert_int_eq(community_list_entry_set("X", false, 10, true, "65001:1"), -1);
}
END_TEST

START_TEST(test_checks)
{
	char err[128];

	ck_assert_int_eq(community_list_entry_check(false, "65001:70000", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "65001:70000"));
	ck_assert_int_eq(community_list_entry_check(false, "65001:1 blackhole", err, sizeof(err)),
			 0);
	ck_assert_int_eq(community_list_entry_check(true, "(", err, sizeof(err)), -1);
	/* The list goes with its last entry. */
	ck_assert_int_eq(community_list_entry_set("G", false, 5, true, "65001:1"), 0);
	community_list_entry_delete("G", 5);
	ck_assert_ptr_null(community_list_lookup("G"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_clist");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_standard_include_and_exact);
	tcase_add_test(tc, test_internet_first_match_implicit_deny);
	tcase_add_test(tc, test_expanded);
	tcase_add_test(tc, test_checks);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
