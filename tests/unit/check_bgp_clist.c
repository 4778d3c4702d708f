/* SPDX-License-Identifier: ISC */
/*
 * Community lists (bgpd/policy/bgp_clist.c): a standard entry matches a route carrying all its
 * communities (exact-match: only them), `internet` matches any, an expanded entry is a
 * regular expression over FRR's text of the communities, first match in seq order, implicit
 * deny, a missing list permits nothing, bad entries refused, no leaks. Large community lists
 * the same over GLOBAL:LOCAL1:LOCAL2 values, in their own namespace (a route without large
 * communities is the empty text to an expanded entry). The delete helpers (set comm-list /
 * large-comm-list NAME delete) judge each value alone. Extended community lists: FRR 8.4's
 * entry syntax and canonical text, its in-order match, its display text for expanded entries
 * and its delete, whose expanded entries look at the whole list.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_clist.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"

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

/* An interned large community list from "1:2:3 4:5:6" (NULL for ""); the caller unrefs. */
static struct bgp_lcommlist *lcomms(const char *text)
{
	uint32_t v[48], n = 0;
	char copy[512], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_lcommunity_from_str(w, &v[3 * n++]), 0);
	return n ? bgp_lcommlist_intern(v, n) : NULL;
}

static bool lpermits(const char *list, const char *text, bool exact)
{
	struct bgp_lcommlist *l = lcomms(text);
	bool r = lcommunity_list_permits(lcommunity_list_lookup(list), l, exact);

	bgp_lcommlist_unref(l);
	return r;
}

/* What is left of text once the list strips it, as text. */
static const char *lstrip(const char *list, const char *text)
{
	static char buf[512];
	struct bgp_lcommlist *l = lcomms(text);
	struct bgp_lcommlist *r = lcommunity_list_strip(lcommunity_list_lookup(list), l);

	bgp_lcommlist_str(r, buf, sizeof(buf));
	bgp_lcommlist_unref(r);
	bgp_lcommlist_unref(l);
	return buf;
}

static const char *cstrip(const char *list, const char *text)
{
	static char buf[512];
	struct bgp_u32list *l = comms(text);
	struct bgp_u32list *r = community_list_strip(community_list_lookup(list), l);

	bgp_u32list_community_str(r, buf, sizeof(buf));
	if (r)
		bgp_u32list_unref(r);
	if (l)
		bgp_u32list_unref(l);
	return buf;
}

/* An interned extended community list from "rt 65000:1 soo 192.0.2.1:7" in that order (not
 * sorted: as a route-map leaves it), NULL for ""; the caller unrefs. */
static struct bgp_ecommlist *ecomms(const char *text)
{
	uint32_t v[32], n = 0;
	char copy[512], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint8_t sub = strcmp(w, "rt") == 0 ? BGP_ECOMM_SUB_RT : BGP_ECOMM_SUB_SOO;

		w = strtok_r(NULL, " ", &save);
		ck_assert_ptr_nonnull(w);
		ck_assert_int_eq(bgp_ecomm_from_str(w, sub, &v[2 * n++]), 0);
	}
	return n ? bgp_ecommlist_intern(v, n) : NULL;
}

static bool epermits(const char *list, const char *text)
{
	struct bgp_ecommlist *l = ecomms(text);
	bool r = ecommunity_list_permits(ecommunity_list_lookup(list), l);

	bgp_ecommlist_unref(l);
	return r;
}

static const char *estrip(const char *list, const char *text)
{
	static char buf[512];
	struct bgp_ecommlist *l = ecomms(text);
	struct bgp_ecommlist *r = ecommunity_list_strip(ecommunity_list_lookup(list), l);

	ck_assert_int_ge(bgp_ecommlist_str(r, buf, sizeof(buf)), 0);
	bgp_ecommlist_unref(r);
	bgp_ecommlist_unref(l);
	return buf;
}

static const char *ecanon(const char *text)
{
	static char buf[512];

	if (ecommunity_list_canonical(text, buf, sizeof(buf)) < 0)
		return "(refused)";
	return buf;
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

START_TEST(test_large_standard_expanded)
{
	ck_assert_int_eq(lcommunity_list_entry_set("L", false, 5, true, "65001:1:1 65001:2:2"), 0);
	ck_assert_int_eq(lcommunity_list_entry_set("L", false, 10, false, "65001:1:1"), 0);
	ck_assert(lpermits("L", "65001:2:2 65001:1:1", false));
	ck_assert(lpermits("L", "65001:2:2 7:7:7 65001:1:1", false));
	ck_assert(!lpermits("L", "65001:1:1", false)); /* seq 10 denies */
	ck_assert(!lpermits("L", "7:7:7", false));     /* implicit deny */
	ck_assert(lpermits("L", "65001:2:2 65001:1:1", true));
	ck_assert(!lpermits("L", "65001:2:2 7:7:7 65001:1:1", true));
	/* The namespaces are apart: no community list L. */
	ck_assert_ptr_null(community_list_lookup("L"));
	/* 4-octet parts, ordered as numbers. */
	ck_assert_int_eq(
		lcommunity_list_entry_set("B", false, 5, true, "4294967295:0:1 4200000000:5:5"), 0);
	ck_assert(lpermits("B", "4200000000:5:5 1:1:1 4294967295:0:1", false));
	/* A route without large communities is the empty text: `.*` matches it (FRR 8.4),
	 * a standard entry does not. */
	ck_assert_int_eq(lcommunity_list_entry_set("X", true, 5, true, ".*"), 0);
	ck_assert(lpermits("X", "", false));
	ck_assert(!lpermits("L", "", false));
	ck_assert(lpermits("X", "1:2:3", false));
	ck_assert_int_eq(lcommunity_list_entry_set("Y", true, 5, true, "^65001:1:"), 0);
	ck_assert(lpermits("Y", "65001:1:7 65002:0:0", false));
	ck_assert(!lpermits("Y", "65002:0:0 65001:2:1", false));
	ck_assert(!lpermits("MISSING", "1:2:3", false));
	/* Checks: malformed values, type changes. */
	char err[128];

	ck_assert_int_eq(lcommunity_list_entry_check(false, "1:2", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "Malformed large-community-list value: 1:2");
	ck_assert_int_eq(lcommunity_list_entry_check(false, "1:2:4294967296", err, sizeof(err)),
			 -1);
	ck_assert_int_eq(lcommunity_list_entry_check(false, "no-export", err, sizeof(err)), -1);
	ck_assert_int_eq(lcommunity_list_entry_check(false, "1:2:3:", err, sizeof(err)), -1);
	ck_assert_int_eq(lcommunity_list_entry_check(false, "0:0:0 1:2:3", err, sizeof(err)), 0);
	ck_assert_int_eq(lcommunity_list_entry_set("X", false, 10, true, "1:2:3"), -1);
	lcommunity_list_entry_delete("X", 5);
	ck_assert_ptr_null(lcommunity_list_lookup("X"));
}
END_TEST

START_TEST(test_strip)
{
	/* Standard: a value the first matching entry permits goes; each value alone. */
	ck_assert_int_eq(lcommunity_list_entry_set("D", false, 5, false, "65001:1:1"), 0);
	ck_assert_int_eq(lcommunity_list_entry_set("D", false, 10, true, "65001:1:1 65001:2:2"), 0);
	ck_assert_str_eq(lstrip("D", "65001:1:1 65001:2:2 65001:3:3"), "65001:1:1 65001:3:3");
	ck_assert_int_eq(lcommunity_list_entry_set("E", true, 5, true, "^65001:"), 0);
	ck_assert_str_eq(lstrip("E", "65001:1:1 65002:2:2 65001:3:3"), "65002:2:2");
	ck_assert_str_eq(lstrip("E", "65001:1:1"), "");
	ck_assert_str_eq(lstrip("MISSING", "1:2:3"), "1:2:3");
	ck_assert_int_eq(community_list_entry_set("C", false, 5, true, "no-export 65001:1"), 0);
	ck_assert_str_eq(cstrip("C", "65001:1 65001:2 no-export"), "65001:2");
	ck_assert_int_eq(community_list_entry_set("I", false, 5, true, "internet"), 0);
	ck_assert_str_eq(cstrip("I", "65001:1 no-export"), "");
	ck_assert_int_eq(community_list_entry_set("R", true, 5, true, "^65001:"), 0);
	ck_assert_str_eq(cstrip("R", "65001:1 65002:1 no-export"), "65002:1 no-export");
}
END_TEST

/* What FRR 8.4 accepts and how it writes it back (checked on FRR 8.4's running-config). */
START_TEST(test_ext_entries)
{
	char err[128];

	ck_assert_str_eq(ecanon("soo 65000:1 rt 65000:100 rt 192.0.2.1:5"),
			 "rt 65000:100 soo 65000:1 rt 192.0.2.1:5");
	ck_assert_str_eq(ecanon("RT 65000:100 rt 65000:100"), "rt 65000:100");
	ck_assert_str_eq(ecanon("rt 4200000000:1 soo 192.0.2.4:65535"),
			 "soo 192.0.2.4:65535 rt 4200000000:1");
	ck_assert_str_eq(ecanon("rt 70000:5 rt 65536:1 rt 0:0"), "rt 0:0 rt 65536:1 rt 70000:5");
	ck_assert_str_eq(ecanon("rt 65000:4294967295"), "rt 65000:4294967295");
	/* Refused by FRR: a value without its kind, out of range, a kind alone, junk. */
	ck_assert_str_eq(ecanon("rt 65000:1 65000:2"), "(refused)");
	ck_assert_str_eq(ecanon("65000:1"), "(refused)");
	ck_assert_str_eq(ecanon("rt 70000:65536"), "(refused)");
	ck_assert_str_eq(ecanon("rt 192.0.2.1:65536"), "(refused)");
	ck_assert_str_eq(ecanon("rt 65000:4294967296"), "(refused)");
	ck_assert_str_eq(ecanon("rt 4294967296:1"), "(refused)");
	ck_assert_str_eq(ecanon("rt 192.0.2:1"), "(refused)");
	ck_assert_str_eq(ecanon("rt :1"), "(refused)");
	ck_assert_str_eq(ecanon("rt 1:"), "(refused)");
	ck_assert_str_eq(ecanon("rt 1:-1"), "(refused)");
	ck_assert_str_eq(ecanon("rt"), "(refused)");
	ck_assert_str_eq(ecanon("lb 1:1"), "(refused)");
	ck_assert_int_eq(ecommunity_list_entry_check(false, "rt 1:1 soo", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "Malformed extcommunity-list value: rt 1:1 soo");
	ck_assert_int_eq(ecommunity_list_entry_check(false, "rt 1:1 1:2", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "Malformed extcommunity-list value: 1:2");
	ck_assert_int_eq(ecommunity_list_entry_check(true, "(", err, sizeof(err)), -1);
	ck_assert_int_eq(ecommunity_list_entry_check(true, "^RT:65000:", err, sizeof(err)), 0);
	/* Its own namespace; a list keeps its type. */
	ck_assert_int_eq(ecommunity_list_entry_set("X", false, 5, true, "rt 1:1"), 0);
	ck_assert_int_eq(ecommunity_list_entry_set("X", true, 10, true, "."), -1);
	ck_assert_ptr_null(community_list_lookup("X"));
	ck_assert_ptr_null(lcommunity_list_lookup("X"));
	ecommunity_list_delete("X");
	ck_assert_ptr_null(ecommunity_list_lookup("X"));
}
END_TEST

START_TEST(test_ext_match)
{
	/* Standard: the entry's values among the route's, in order; first entry decides. */
	ck_assert_int_eq(ecommunity_list_entry_set("S", false, 5, false, "soo 65000:9"), 0);
	ck_assert_int_eq(ecommunity_list_entry_set("S", false, 10, true, "rt 65000:1 rt 65000:2"),
			 0);
	ck_assert(epermits("S", "rt 65000:1 rt 65000:2"));
	ck_assert(epermits("S", "rt 65000:1 soo 65000:3 rt 65000:2 rt 192.0.2.1:1"));
	ck_assert(!epermits("S", "rt 65000:1"));
	ck_assert(!epermits("S", "rt 65000:1 rt 65000:2 soo 65000:9"));
	ck_assert(!epermits("S", ""));
	/* FRR's ecommunity_match() walks both in order: a route-map's append that put the
	 * values the other way round does not match. */
	ck_assert(!epermits("S", "rt 65000:2 rt 65000:1"));
	/* Expanded: FRR's display text; a route without any is the empty text. */
	ck_assert_int_eq(ecommunity_list_entry_set("E", true, 5, true, "^RT:65000:1 SoO:"), 0);
	ck_assert_int_eq(ecommunity_list_entry_set("E", true, 10, false, "RT:"), 0);
	ck_assert_int_eq(ecommunity_list_entry_set("E", true, 15, true, "^$"), 0);
	ck_assert(epermits("E", "rt 65000:1 soo 65000:7"));
	ck_assert(!epermits("E", "rt 65000:1"));
	ck_assert(epermits("E", ""));
	ck_assert(!epermits("E", "soo 192.0.2.1:1"));
	/* A missing list permits nothing. */
	ck_assert(!epermits("MISSING", "rt 1:1"));
	ck_assert(!epermits("MISSING", ""));
}
END_TEST

START_TEST(test_ext_strip)
{
	/* Standard: each value alone through the entries; what is left comes back sorted
	 * (route_set_ecommunity_delete()). */
	ck_assert_int_eq(ecommunity_list_entry_set("D", false, 5, false, "rt 65000:1"), 0);
	ck_assert_int_eq(ecommunity_list_entry_set("D", false, 10, true, "rt 65000:1 soo 65000:2"),
			 0);
	ck_assert_str_eq(estrip("D", "soo 65000:3 soo 65000:2 rt 65000:1"),
			 "RT:65000:1 SoO:65000:3");
	ck_assert_str_eq(estrip("D", "soo 65000:2"), "");
	ck_assert_str_eq(estrip("MISSING", "soo 65000:2 rt 1:1"), "SoO:65000:2 RT:1:1");
	/* Expanded: FRR 8.4 matches the whole list's text for every value, so one match takes
	 * them all. */
	ck_assert_int_eq(ecommunity_list_entry_set("R", true, 5, true, "RT:65000:1"), 0);
	ck_assert_str_eq(estrip("R", "rt 65000:1 soo 65000:2 rt 192.0.2.1:9"), "");
	ck_assert_str_eq(estrip("R", "rt 65000:2 soo 65000:2"), "RT:65000:2 SoO:65000:2");
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
	tcase_add_test(tc, test_large_standard_expanded);
	tcase_add_test(tc, test_strip);
	tcase_add_test(tc, test_ext_entries);
	tcase_add_test(tc, test_ext_match);
	tcase_add_test(tc, test_ext_strip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
