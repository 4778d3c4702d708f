/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists (lib/plist.c): FRR's match semantics entry by entry (exact, ge, le, ge+le,
 * any), first match in seq order, implicit deny, the permissive empty list and the missing
 * one that denies,
 * families kept apart, sequence numbering, the registry's order, the change hook, and that
 * nothing leaks.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plist.h"

static struct prefix P(const char *s) {
	struct prefix p;

	ck_assert_int_eq(prefix_from_str(&p, s, false), 0);
	prefix_apply_mask(&p);
	return p;
}

static struct prefix_list_entry
E(uint32_t seq, enum prefix_list_action a, const char *prefix, unsigned ge, unsigned le) {
	struct prefix_list_entry e = { .seq = seq, .action = a, .ge = ge, .le = le };

	if (prefix)
		e.p = P(prefix);
	else
		e.any = true;
	return e;
}

static bool
matches(const char *entry, unsigned ge, unsigned le, const char *route)
{
	struct prefix_list_entry e = E(5, PREFIX_PERMIT, entry, ge, le);
	struct prefix r = P(route);

	return prefix_list_entry_matches(&e, &r);
}

static void teardown(void)
{
	prefix_list_set_change_hook(NULL);
	prefix_list_reset();
	ck_assert_uint_eq(MTYPE_PREFIX_LIST->allocated, 0);
	ck_assert_uint_eq(MTYPE_PREFIX_LIST_ENTRY->allocated, 0);
}

START_TEST(test_entry_exact)
{
	ck_assert(matches("10.0.0.0/8", 0, 0, "10.0.0.0/8"));
	ck_assert(!matches("10.0.0.0/8", 0, 0, "10.1.0.0/16")); /* inside, but longer */
	ck_assert(!matches("10.0.0.0/8", 0, 0, "0.0.0.0/0"));
	ck_assert(!matches("10.0.0.0/8", 0, 0, "11.0.0.0/8"));
	ck_assert(matches("2001:db8::/32", 0, 0, "2001:db8::/32"));
	ck_assert(!matches("2001:db8::/32", 0, 0, "2001:db9::/32"));
}
END_TEST

START_TEST(test_entry_ranges)
{
	/* ge G: lengths G..max inside the prefix */
	ck_assert(!matches("10.0.0.0/8", 16, 0, "10.0.0.0/8"));
	ck_assert(!matches("10.0.0.0/8", 16, 0, "10.0.0.0/15"));
	ck_assert(matches("10.0.0.0/8", 16, 0, "10.1.0.0/16"));
	ck_assert(matches("10.0.0.0/8", 16, 0, "10.1.2.3/32"));
	ck_assert(!matches("10.0.0.0/8", 16, 0, "11.1.0.0/16"));
	/* le L: lengths len..L */
	ck_assert(matches("10.0.0.0/8", 0, 24, "10.0.0.0/8"));
	ck_assert(matches("10.0.0.0/8", 0, 24, "10.9.9.0/24"));
	ck_assert(!matches("10.0.0.0/8", 0, 24, "10.9.9.128/25"));
	ck_assert(!matches("10.0.0.0/8", 0, 24, "0.0.0.0/0"));
	/* ge G le L */
	ck_assert(!matches("10.0.0.0/8", 16, 24, "10.0.0.0/12"));
	ck_assert(matches("10.0.0.0/8", 16, 24, "10.0.0.0/16"));
	ck_assert(matches("10.0.0.0/8", 16, 24, "10.0.0.0/24"));
	ck_assert(!matches("10.0.0.0/8", 16, 24, "10.0.0.0/25"));
	/* ge equal to the length: the prefix itself and everything inside (FRR 8.4 accepts) */
	ck_assert(matches("10.0.0.0/8", 8, 0, "10.0.0.0/8"));
	ck_assert(matches("10.0.0.0/8", 8, 0, "10.0.0.1/32"));
	/* IPv6 */
	ck_assert(matches("2001:db8::/32", 0, 48, "2001:db8:1::/48"));
	ck_assert(!matches("2001:db8::/32", 0, 48, "2001:db8:1::/64"));
	ck_assert(matches("2001:db8::/32", 64, 64, "2001:db8:1:2::/64"));
	ck_assert(!matches("2001:db8::/32", 64, 64, "2001:db8:1:2::/63"));
}
END_TEST

START_TEST(test_entry_any_and_families)
{
	struct prefix_list_entry any = E(5, PREFIX_PERMIT, NULL, 0, 0);
	struct prefix r4 = P("192.0.2.0/24"), r6 = P("2001:db8::/32"), def = P("0.0.0.0/0");

	ck_assert(prefix_list_entry_matches(&any, &r4));
	ck_assert(prefix_list_entry_matches(&any, &def));
	/* An IPv4 entry never matches an IPv6 prefix, whatever its bits. */
	ck_assert(!matches("0.0.0.0/0", 0, 32, "::/0"));
	ck_assert(!matches("::/0", 0, 128, "0.0.0.0/0"));
	(void)r6;
}
END_TEST

START_TEST(test_first_match_in_seq_order)
{
	struct prefix_list *pl = prefix_list_get(AF_INET, "L");
	struct prefix_list_entry e;
	struct prefix in = P("10.1.0.0/16"), out = P("192.0.2.0/24"), edge = P("10.0.0.0/8");

	/* Added out of order: seq 20 permits 10/8 le 24, seq 10 denies 10/8 ge 16. */
	e = E(20, PREFIX_PERMIT, "10.0.0.0/8", 0, 24);
	prefix_list_entry_set(pl, &e);
	e = E(10, PREFIX_DENY, "10.0.0.0/8", 16, 0);
	prefix_list_entry_set(pl, &e);
	ck_assert_uint_eq(pl->entries[0].seq, 10);
	ck_assert_int_eq(prefix_list_apply(pl, &in), PREFIX_DENY);     /* seq 10 first */
	ck_assert_int_eq(prefix_list_apply(pl, &edge), PREFIX_PERMIT); /* only seq 20 */
	ck_assert_int_eq(prefix_list_apply(pl, &out), PREFIX_DENY);    /* implicit deny */
	ck_assert_uint_eq(pl->entries[0].hits, 1);
	ck_assert_uint_eq(pl->entries[1].hits, 1);
	ck_assert_uint_eq(pl->applied, 3);

	/* Replacing seq 10 by a permit changes the verdict; deleting it too. */
	e = E(10, PREFIX_PERMIT, "10.0.0.0/8", 16, 0);
	prefix_list_entry_set(pl, &e);
	ck_assert_uint_eq(pl->count, 2);
	ck_assert_int_eq(prefix_list_apply(pl, &in), PREFIX_PERMIT);
	prefix_list_entry_delete(pl, 20);
	prefix_list_entry_delete(pl, 99); /* absent: nothing happens */
	ck_assert_uint_eq(pl->count, 1);
	ck_assert_int_eq(prefix_list_apply(pl, &edge), PREFIX_DENY);
	ck_assert_ptr_null(prefix_list_entry_find(pl, 20));
	ck_assert_ptr_nonnull(prefix_list_entry_find(pl, 10));
}
END_TEST

START_TEST(test_empty_permits_missing_denies)
{
	struct prefix r = P("192.0.2.0/24");
	struct prefix_list *pl = prefix_list_get(AF_INET, "EMPTY");
	struct prefix_list_entry e = E(5, PREFIX_PERMIT, "2001:db8::/32", 0, 0);
	struct prefix_list *v6 = prefix_list_get(AF_INET6, "V6");

	ck_assert_int_eq(prefix_list_apply(NULL, &r), PREFIX_DENY); /* no such list (FRR 8.4) */
	ck_assert_int_eq(prefix_list_apply(pl, &r), PREFIX_PERMIT);
	/* A non-empty list of the other family denies: nothing in it can match. */
	prefix_list_entry_set(v6, &e);
	ck_assert_int_eq(prefix_list_apply(v6, &r), PREFIX_DENY);
}
END_TEST

START_TEST(test_next_seq)
{
	struct prefix_list *pl = prefix_list_get(AF_INET, "S");
	struct prefix_list_entry e = E(7, PREFIX_PERMIT, NULL, 0, 0);

	ck_assert_uint_eq(prefix_list_next_seq(NULL), 5);
	ck_assert_uint_eq(prefix_list_next_seq(pl), 5);
	prefix_list_entry_set(pl, &e);
	ck_assert_uint_eq(prefix_list_next_seq(pl), 12); /* the highest plus 5, as FRR 8.4 */
	e.seq = 10;
	prefix_list_entry_set(pl, &e);
	ck_assert_uint_eq(prefix_list_next_seq(pl), 15);
	e.seq = 4294967295u;
	prefix_list_entry_set(pl, &e);
	ck_assert_uint_eq(prefix_list_next_seq(pl), 0); /* no room left */
}
END_TEST

static void collect(struct prefix_list *pl, void *arg)
{
	char *out = arg;

	strcat(out, pl->family == AF_INET ? "4:" : "6:");
	strcat(out, pl->name);
	strcat(out, " ");
}

static char hook_log[256];

static void hook(int family, const char *name)
{
	char line[64];

	snprintf(line, sizeof(line), "%d:%s ", family == AF_INET ? 4 : 6, name);
	strcat(hook_log, line);
}

START_TEST(test_registry_order_hook_delete)
{
	char order[256] = "";
	struct prefix_list_entry e = E(5, PREFIX_DENY, NULL, 0, 0);

	hook_log[0] = '\0';
	prefix_list_set_change_hook(hook);
	prefix_list_get(AF_INET6, "b");
	prefix_list_get(AF_INET, "c");
	prefix_list_get(AF_INET, "a");
	ck_assert_ptr_eq(prefix_list_get(AF_INET, "a"), prefix_list_lookup(AF_INET, "a"));
	ck_assert_ptr_null(prefix_list_lookup(AF_INET6, "a")); /* families are separate */
	ck_assert_uint_eq(prefix_list_count(0), 3);
	prefix_list_walk(0, collect, order);
	ck_assert_str_eq(order, "4:a 4:c 6:b ");

	prefix_list_entry_set(prefix_list_lookup(AF_INET, "c"), &e);
	prefix_list_delete(prefix_list_lookup(AF_INET, "a"));
	ck_assert_ptr_null(prefix_list_lookup(AF_INET, "a"));
	ck_assert_uint_eq(prefix_list_count(AF_INET), 1);
	/* Every creation, entry change and deletion was told, in order. */
	ck_assert_str_eq(hook_log, "6:b 4:c 4:a 4:c 4:a ");
}
END_TEST

START_TEST(test_entry_text)
{
	char buf[128];
	struct prefix_list_entry e = E(5, PREFIX_DENY, "10.0.0.0/8", 16, 24);

	ck_assert_str_eq(prefix_list_entry_str(&e, buf, sizeof(buf)),
			 "deny 10.0.0.0/8 ge 16 le 24");
	e = E(5, PREFIX_PERMIT, "2001:db8::/32", 0, 48);
	ck_assert_str_eq(prefix_list_entry_str(&e, buf, sizeof(buf)), "permit 2001:db8::/32 le 48");
	e = E(5, PREFIX_PERMIT, NULL, 0, 0);
	ck_assert_str_eq(prefix_list_entry_str(&e, buf, sizeof(buf)), "permit any");
	/* A short buffer truncates, never overruns. */
	e = E(5, PREFIX_DENY, "10.0.0.0/8", 16, 24);
	ck_assert_str_eq(prefix_list_entry_str(&e, buf, 8), "deny 10");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plist");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_entry_exact);
	tcase_add_test(tc, test_entry_ranges);
	tcase_add_test(tc, test_entry_any_and_families);
	tcase_add_test(tc, test_first_match_in_seq_order);
	tcase_add_test(tc, test_empty_permits_missing_denies);
	tcase_add_test(tc, test_next_seq);
	tcase_add_test(tc, test_registry_order_hook_delete);
	tcase_add_test(tc, test_entry_text);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
