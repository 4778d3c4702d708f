/* SPDX-License-Identifier: ISC */
/*
 * A draining table (bgpd/rib/bgp_rib_drain.c): the dests a burst of withdrawals empties stay
 * in the tree, dead, and go in bulk: the whole tree at once when nothing is live, else an
 * in-order sweep. What the peers are sent, what stays and what a new feed or a new session
 * sees must be as if each had been deleted at once.
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_drain.h"
#include "bgpd/wire/bgp_codec.h"
#include "lib/event.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000
#define TABLE 20000 /* withdrawals of many UPDATEs: a burst (RIB_DRAIN_BURST) */

/* ---- the tree's bulk free ---- */

static void count_value(void *value, void *arg)
{
	size_t *n = arg;

	(*n)++;
	ck_assert_uint_eq(*(uint32_t *)value, 0xd00d);
}

START_TEST(test_ptree_clear)
{
	static struct prefix q[5000];
	struct ptree *t = ptree_new_inline(AF_INET, 16);
	struct prefix p;
	size_t released = 0, empty = ptree_memory(t);

	tpfx_range(q, 5000, "10.0.0.0/24", 24);
	ptree_directory_thresholds(t, 1000, 500); /* the directory and the index go too */
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < 5000; i++) {
			bool created;
			uint32_t *v = ptree_get_inline(t, &q[i], &created);

			ck_assert(created);
			*v = 0xd00d;
		}
		/* Some deleted one by one before: their slots are on the slabs' free lists. */
		for (size_t i = 0; i < 5000; i += 3)
			ck_assert_ptr_nonnull(ptree_delete(t, &q[i]));
		released = 0;
		ptree_clear(t, count_value, &released);
		ck_assert_uint_eq(released, 5000 - 1667); /* each stored value once */
		ck_assert_uint_eq(ptree_count(t), 0);
		ck_assert_uint_eq(ptree_memory(t), empty);
		ck_assert_ptr_null(ptree_first(t, &p));
		ck_assert_ptr_null(ptree_lookup(t, &q[1]));
		/* ... and it takes a new set of prefixes (the second round). */
	}
	ptree_free(t, NULL);
}
END_TEST

/* ---- the RIB ---- */

static struct bgp *bgp;
static struct fake_peer *e1, *e2;
static struct prefix table[TABLE];

static void setup(void)
{
	bgp = fake_bgp_two_peers(&e1, &e2);
	tpfx_range(table, TABLE, "20.0.0.0/24", 24);
}

static void teardown(void)
{
	fake_bgp_two_peers_free(bgp, e1, e2);
}

static void load_table(void)
{
	fake_announce_table(e1, e2, table, TABLE);
}

/* 70% of the table, spread over it: i % 10 < 7. */
static bool withdrawn(size_t i)
{
	return i % 10 < 7;
}

static void withdraw_70(void)
{
	for (size_t i = 0; i < TABLE; i += 10)
		fake_withdraw(e1, V4, table + i, 7);
}

/* Turns until the drain's sweep is under way (the trim left the dead dests in the tree). */
static void run_until_sweeping(void)
{
	unsigned turns = 0;

	while (!bgp->rib->af[V4].sweeping) {
		fake_run(bgp, 1);
		ck_assert_msg(++turns < 1000, "no sweep");
	}
	ck_assert_uint_gt(rib_drain_dead(bgp->rib, V4), 0);
}

/* The tree holds exactly the prefixes of the reference, each with a path, and e2 has them. */
static void check_live(bool (*live)(size_t))
{
	const struct ptree *tree = bgp->rib->af[V4].tree;
	size_t n = 0;
	char buf[64];

	for (size_t i = 0; i < TABLE; i++) {
		const struct bgp_dest *d = ptree_lookup(tree, &table[i]);

		ck_assert_int_eq(d != NULL, live(i));
		ck_assert(!d || dest_has_paths(d));
		ck_assert_int_eq(fake_adj(e2, prefix_to_str(&table[i], buf, sizeof(buf))) != NULL,
				 live(i));
		n += live(i);
	}
	ck_assert_uint_eq(ptree_count(tree), n); /* no dead node left */
	ck_assert_uint_eq(rib_drain_dead(bgp->rib, V4), 0);
	ck_assert_uint_eq(bgp->rib->af[V4].dests_live, n);
	ck_assert_uint_eq(fake_adj_count(e2, V4), n);
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
}

static bool none(size_t i)
{
	(void)i;
	return false;
}

static bool all(size_t i)
{
	(void)i;
	return true;
}

static bool kept(size_t i)
{
	return !withdrawn(i);
}

static bool kept_or_back(size_t i)
{
	return !withdrawn(i) || i % 10 < 2;
}

START_TEST(test_full_withdrawal_clears_the_tree)
{
	const struct rib_af *a = &bgp->rib->af[V4];

	load_table();
	fake_withdraw(e1, V4, table, TABLE);
	fake_run(bgp, RUN_ALL);
	check_live(none);
	ck_assert_uint_eq(a->drain_clears, 1); /* at once, not a delete per prefix */
	ck_assert_uint_eq(a->drain_sweeps, 0);
	ck_assert_uint_eq(e2->pfx_withdrawn, TABLE);
	ck_assert_uint_eq(a->journal.tail, a->journal.head);
	ck_assert_uint_lt(ptree_memory(a->tree), 4096);
	/* The emptied tree takes a new feed, and that can drain again. */
	load_table();
	check_live(all);
	fake_withdraw(e1, V4, table, TABLE);
	fake_run(bgp, RUN_ALL);
	check_live(none);
	ck_assert_uint_eq(a->drain_clears, 2);
}
END_TEST

/* 70% withdrawn: the dead outnumber the live, a sweep frees them; the rest is exactly the
 * table less the withdrawn. */
START_TEST(test_partial_withdrawal_sweeps)
{
	const struct rib_af *a = &bgp->rib->af[V4];

	load_table();
	withdraw_70();
	run_until_sweeping();
	fake_run(bgp, RUN_ALL);
	ck_assert(!a->sweeping);
	ck_assert_uint_eq(a->drain_clears, 0);
	ck_assert_uint_eq(a->drain_sweeps, 1);
	check_live(kept);
	ck_assert_uint_eq(e2->pfx_withdrawn, TABLE / 10 * 7);
	/* The rest withdrawn: the tree goes at once. */
	for (size_t i = 0; i < TABLE; i += 10)
		fake_withdraw(e1, V4, table + i + 7, 3);
	fake_run(bgp, RUN_ALL);
	check_live(none);
	ck_assert_uint_eq(a->drain_clears, 1);
}
END_TEST

/* Withdrawn, then announced again (with another origin) while its dest is dead: it is live
 * with the new path, and e2 has that. */
START_TEST(test_reannounced_before_the_sweep)
{
	struct bgp_attr t;
	char buf[64];

	load_table();
	withdraw_70();
	run_until_sweeping();
	tmpl_init(&t, "65002 7", "10.0.0.2", BGP_ORIGIN_EGP);
	for (size_t i = 0; i < TABLE; i += 10)
		fake_announce(e1, V4, &t, table + i, 2); /* i % 10 < 2: back */
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	check_live(kept_or_back);
	for (size_t i = 0; i < TABLE; i += 10) {
		const struct bgp_attr *got =
			fake_adj(e2, prefix_to_str(&table[i], buf, sizeof(buf)));

		ck_assert_ptr_nonnull(got);
		ck_assert_uint_eq(got->origin, BGP_ORIGIN_EGP);
		ck_assert_ptr_nonnull(dest_paths(ptree_lookup(bgp->rib->af[V4].tree, &table[i])));
	}
}
END_TEST

/* A session that comes up while dead dests are in the tree is sent the live routes only: no
 * withdrawal for a dead one, nothing after its End-of-RIB. */
START_TEST(test_session_up_during_the_drain)
{
	struct fake_peer *e3 = fake_peer_new(bgp, "10.0.2.2", 65004, "10.0.2.1", "4.4.4.4");
	char buf[64];

	load_table();
	withdraw_70();
	run_until_sweeping();
	fake_peer_up(e3);
	fake_run(bgp, RUN_ALL);
	ck_assert(e3->eor[V4]);
	ck_assert_uint_eq(fake_adj_count(e3, V4), TABLE / 10 * 3);
	ck_assert_uint_eq(e3->pfx_announced, TABLE / 10 * 3);
	ck_assert_uint_eq(e3->pfx_withdrawn, 0);
	ck_assert_uint_eq(e3->spurious_withdraw, 0);
	ck_assert_uint_eq(e3->msgs_after_eor[V4], 0);
	for (size_t i = 0; i < TABLE; i++)
		ck_assert_int_eq(fake_adj(e3, prefix_to_str(&table[i], buf, sizeof(buf))) != NULL,
				 kept(i));
	check_live(kept);
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e3);
}
END_TEST

/* With an event loop, the sweep waits until the withdrawals have stopped for
 * RIB_DRAIN_QUIET_MS (a full withdrawal under way would have it delete one by one what the
 * clear at its end frees at once). */
START_TEST(test_sweep_waits_for_quiet)
{
	const struct rib_af *a = &bgp->rib->af[V4];
	struct event_base *base = event_loop_new();
	uint64_t start, end;

	bgp->base = base;
	load_table();
	withdraw_70();
	fake_run(bgp, RUN_ALL);
	start = monotime_ms();
	ck_assert(a->draining);
	ck_assert(!a->sweeping);
	ck_assert_uint_eq(rib_drain_dead(bgp->rib, V4), TABLE / 10 * 7);
	ck_assert_uint_eq(fake_adj_count(e2, V4), TABLE / 10 * 3); /* e2 was told at once */
	end = start + 10 * RIB_DRAIN_QUIET_MS;
	while (!a->sweeping && monotime_ms() < end) {
		event_loop_once(base, false);
		usleep(10000);
	}
	ck_assert(a->sweeping);
	ck_assert_uint_ge(monotime_ms() - start, RIB_DRAIN_QUIET_MS - 50);
	fake_run(bgp, RUN_ALL);
	check_live(kept);
	rib_drain_fini(bgp->rib); /* its timer, before the loop goes */
	bgp->base = NULL;
	event_loop_free(base);
}
END_TEST

/* A few withdrawals (a flap, below a burst) are deleted by the trim as before: no drain. */
START_TEST(test_small_withdrawal_deletes_at_once)
{
	const struct rib_af *a = &bgp->rib->af[V4];

	load_table();
	fake_run(bgp, RUN_ALL);
	fake_withdraw(e1, V4, table, 100);
	fake_run(bgp, RUN_ALL);
	ck_assert(!a->draining);
	ck_assert_uint_eq(ptree_count(a->tree), TABLE - 100);
	ck_assert_uint_eq(a->drain_clears + a->drain_sweeps, 0);
}
END_TEST

/* A table's withdrawal (withdrawals in a row, a sixteenth of a table of the directory's size)
 * is looked up by the tree's index; a flap, or withdrawals with announcements between, never
 * make it. */
START_TEST(test_table_withdrawal_by_index)
{
	const struct rib_af *a = &bgp->rib->af[V4];
	const size_t few = TABLE / 32, gone = 2 * few + TABLE / 2;
	struct bgp_attr t;

	ptree_directory_thresholds(a->tree, 1000, 500);
	load_table();
	/* A thirty-second of the table, an announcement, another thirty-second: two runs,
	 * neither a sixteenth. */
	fake_withdraw(e1, V4, table, few);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(ptree_index_slots(a->tree), 0);
	tmpl_init(&t, "65002 7", "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(e1, V4, &t, table, 1);
	tmpl_release(&t);
	fake_withdraw(e1, V4, table, 1);
	fake_withdraw(e1, V4, table + few, few);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(ptree_index_slots(a->tree), 0);
	/* Half the table in a row: the index answers from a sixteenth on. */
	fake_withdraw(e1, V4, table + 2 * few, gone - 2 * few);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(ptree_index_slots(a->tree), 0);
	for (size_t i = 0; i < TABLE; i++) {
		const struct bgp_dest *d = ptree_lookup(a->tree, &table[i]);
		char buf[64];

		ck_assert_int_eq(d && dest_has_paths(d), i >= gone);
		ck_assert_int_eq(fake_adj(e2, prefix_to_str(&table[i], buf, sizeof(buf))) != NULL,
				 i >= gone);
	}
	/* table[0] came back and went again between two runs: e2 heard neither. */
	ck_assert_uint_eq(e2->pfx_withdrawn, gone);
	/* The rest: the tree goes at once, and its index with it. */
	fake_withdraw(e1, V4, table + gone, TABLE - gone);
	fake_run(bgp, RUN_ALL);
	check_live(none);
	ck_assert_uint_eq(ptree_index_slots(a->tree), 0);
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
}
END_TEST

static Suite *drain_suite(void)
{
	Suite *s = suite_create("bgp_drain");
	TCase *tc = tcase_create("tree");

	tcase_add_test(tc, test_ptree_clear);
	suite_add_tcase(s, tc);
	tc = tcase_create("rib");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_full_withdrawal_clears_the_tree);
	tcase_add_test(tc, test_partial_withdrawal_sweeps);
	tcase_add_test(tc, test_reannounced_before_the_sweep);
	tcase_add_test(tc, test_session_up_during_the_drain);
	tcase_add_test(tc, test_sweep_waits_for_quiet);
	tcase_add_test(tc, test_small_withdrawal_deletes_at_once);
	tcase_add_test(tc, test_table_withdrawal_by_index);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(drain_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
