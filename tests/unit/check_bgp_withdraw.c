/* SPDX-License-Identifier: ISC */
/*
 * The withdrawal side's memory (issue 15: "memory back to within 5% of the empty daemon's
 * after the withdrawal"): the RIB's slabs give their chunks back once empty, whether the
 * table went by explicit withdrawals or with the session, and what the other peer is sent
 * stays right.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_release.h"
#include "bgpd/rib/bgp_slab.h"
#include "bgpd/wire/bgp_codec.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000
#define TABLE 40000 /* several slab chunks; dests and paths over RIB_RELEASE_OBJECTS */

DEFINE_MTYPE(TEST_SLAB, "test slab");

/* ---- the slab alone ---- */

START_TEST(test_slab_empty_releases_its_chunks)
{
	struct bgp_slab s;
	size_t n = 10000;
	void **obj = malloc(n * sizeof(*obj));

	bgp_slab_init(&s, MTYPE_TEST_SLAB, 40);
	for (size_t i = 0; i < n; i++)
		obj[i] = bgp_slab_alloc(&s);
	ck_assert_uint_gt(s.chunk_count, 5);
	/* Half gone: the chunks stay (objects do not move). */
	for (size_t i = 0; i < n; i += 2)
		bgp_slab_free(&s, obj[i]);
	ck_assert_uint_gt(s.chunk_count, 5);
	/* All gone: the chunks are back with malloc. */
	for (size_t i = 1; i < n; i += 2)
		bgp_slab_free(&s, obj[i]);
	ck_assert_uint_eq(s.in_use, 0);
	ck_assert_uint_eq(s.chunk_count, 0);
	ck_assert_uint_eq(bgp_slab_memory(&s), 0);
	ck_assert_uint_eq(MTYPE_TEST_SLAB->allocated, 0);
	ck_assert_uint_eq(MTYPE_TEST_SLAB->bytes, 0);

	/* And the slab works again from there: zeroed, distinct objects, new chunks as needed. */
	for (size_t i = 0; i < n; i++) {
		uint8_t *o = obj[i] = bgp_slab_alloc(&s);

		for (size_t b = 0; b < 40; b++)
			ck_assert_uint_eq(o[b], 0);
		memset(o, 0xa5, 40);
	}
	ck_assert_uint_eq(s.in_use, n);
	for (size_t i = 1; i < n; i++)
		ck_assert_ptr_ne(obj[i], obj[i - 1]);
	for (size_t i = 0; i < n; i++)
		bgp_slab_free(&s, obj[i]);
	ck_assert_uint_eq(s.chunk_count, 0);
	bgp_slab_fini(&s);
	ck_assert_uint_eq(MTYPE_TEST_SLAB->allocated, 0);
	free(obj);
}
END_TEST

/* One object coming and going alone: a fresh zeroed object each time, nothing left after. */
START_TEST(test_slab_single_object_flap)
{
	struct bgp_slab s;

	bgp_slab_init(&s, MTYPE_TEST_SLAB, 24);
	for (int i = 0; i < 1000; i++) {
		uint8_t *o = bgp_slab_alloc(&s);

		for (size_t b = 0; b < 24; b++)
			ck_assert_uint_eq(o[b], 0);
		memset(o, 0x5a, 24);
		ck_assert_uint_eq(s.chunk_count, 1);
		bgp_slab_free(&s, o);
		ck_assert_uint_eq(s.chunk_count, 0);
	}
	ck_assert_uint_eq(MTYPE_TEST_SLAB->allocated, 0);
	bgp_slab_fini(&s);
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

/* e1 sends the table, one attribute set per 10 prefixes; e2 gets it all. */
static void load_table(void)
{
	fake_announce_table(e1, e2, table, TABLE);
	ck_assert_uint_gt(bgp->rib->path_slab.chunk_count, 1);
	ck_assert_uint_gt(ptree_memory(bgp->rib->af[V4].tree), 65536); /* dests live in its nodes */
	/* The per-prefix records the memory budget counts: 16-byte paths (the attribute set by
	 * its 32-bit id; a chunk's header is 48 bytes) and 16-byte dests inline in 32-byte IPv4
	 * and 44-byte IPv6 nodes. */
	ck_assert_uint_eq(bgp->rib->path_slab.obj_size, 16);
	ck_assert_uint_eq(bgp_slab_memory(&bgp->rib->path_slab),
			  bgp->rib->path_slab.chunk_count * (48 + 16 * BGP_SLAB_REF_PER_CHUNK));
	ck_assert_uint_eq(ptree_entry_size(bgp->rib->af[V4].tree), 32);
	ck_assert_uint_eq(ptree_entry_size(bgp->rib->af[BGP_AF_IPV6_UNICAST].tree), 44);
}

/* Nothing left in the table, e2 was withdrawn everything, and the slabs hold no chunk. */
static void check_released(uint64_t withdrawn_before)
{
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 0);
	ck_assert_uint_eq(e2->pfx_withdrawn - withdrawn_before, TABLE);
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
	ck_assert_uint_eq(bgp->rib->path_slab.in_use, 0);
	ck_assert_uint_eq(bgp->rib->path_slab.chunk_count, 0);
	ck_assert_uint_lt(ptree_memory(bgp->rib->af[V4].tree), 4096); /* its node chunks gone */
	ck_assert_uint_eq(MTYPE_BGP_PATH_SLAB->allocated, 0);
	ck_assert_uint_eq(bgp_path_dir.used, 0); /* the handles' chunk table went too */
}

START_TEST(test_explicit_withdrawal_releases)
{
	load_table();
	fake_withdraw(e1, V4, table, TABLE);
	fake_run(bgp, RUN_ALL);
	check_released(0);

	/* The table comes back whole from the kept chunk and new ones. */
	load_table();
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), TABLE);
}
END_TEST

START_TEST(test_session_drop_releases)
{
	load_table();
	fake_peer_down(e1);
	fake_run(bgp, RUN_ALL);
	check_released(0);
	fake_peer_up(e1);
	load_table();
}
END_TEST

/* A second peer's copy of part of the table keeps the slabs in use: nothing is released
 * under it, and its routes are what e2 is sent after e1 goes. */
START_TEST(test_other_source_keeps_its_paths)
{
	struct fake_peer *e3 = fake_peer_new(bgp, "10.0.2.2", 65004, "10.0.2.1", "4.4.4.4");
	struct bgp_attr t;

	fake_peer_up(e3);
	load_table();
	tmpl_init(&t, "65004 65100 65101", "10.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(e3, V4, &t, table, 100);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	fake_peer_down(e1);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 100);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 100);
	ck_assert_uint_eq(bgp->rib->path_slab.in_use, 100);
	ck_assert_ptr_nonnull(fake_adj(e2, "20.0.0.0/24"));
	ck_assert_ptr_null(fake_adj(e2, "20.0.100.0/24"));
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(bgp->rib->path_slab.chunk_count, 0);
	fake_peer_free(e3);
}
END_TEST

/* A received withdrawal is handled a group of prefixes at a time, their lookups (and the
 * loads of their paths and sets) ahead of the withdrawals: a prefix repeated within a group,
 * one the peer never sent, and prefixes where another peer's path is also there. */
START_TEST(test_withdrawal_groups_with_repeats_and_strangers)
{
	struct fake_peer *e3 = fake_peer_new(bgp, "10.0.2.2", 65004, "10.0.2.1", "4.4.4.4");
	struct prefix w[40], stranger;
	struct bgp_attr t;
	size_t n = 0;

	fake_peer_up(e3);
	load_table();
	tmpl_init(&t, "65004 65100 65101", "10.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(e3, V4, &t, table, 20);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	/* 20.0.0.0/24, 20.0.2.0/24 ... 20.0.34.0/24, each twice in a row, over three groups. */
	for (size_t i = 0; i < 36; i += 2) {
		w[n++] = table[i];
		w[n++] = table[i];
	}
	tpfx_range(&stranger, 1, "30.0.0.0/24", 24);
	w[n++] = stranger;
	fake_withdraw(e1, V4, w, n);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&e1->peer, V4), TABLE - 18);
	ck_assert_uint_eq(rib_peer_accepted(&e3->peer, V4), 20);
	/* e3's path stays where it was (0 .. 18), the other 8 went (20 .. 34). */
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), TABLE - 8);
	ck_assert_uint_eq(fake_adj_count(e2, V4), TABLE - 8);
	ck_assert_ptr_nonnull(fake_adj(e2, "20.0.18.0/24"));
	ck_assert_ptr_null(fake_adj(e2, "20.0.20.0/24"));
	ck_assert_ptr_null(fake_adj(e2, "20.0.34.0/24"));
	ck_assert_ptr_nonnull(fake_adj(e2, "20.0.35.0/24"));
	ck_assert_uint_eq(e2->spurious_withdraw, 0);
	fake_peer_down(e3);
	fake_run(bgp, RUN_ALL);
	fake_peer_free(e3);
}
END_TEST

/* A full table withdrawn: the work gives memory back once, when it goes idle, and the export
 * caches no longer pin attribute sets, so the interning pools empty too. */
START_TEST(test_full_withdrawal_empties_the_pools)
{
	size_t adj_out_empty;

	ck_assert_uint_ge(2 * TABLE, RIB_RELEASE_OBJECTS);
	adj_out_empty = MTYPE_BGP_ADJ_OUT->bytes;
	load_table();
	ck_assert_uint_eq(bgp->rib->release_count, 0);
	fake_withdraw(e1, V4, table, TABLE);
	fake_run(bgp, RUN_ALL);
	check_released(0);
	ck_assert_uint_eq(bgp->rib->release_count, 1);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_eq(bgp_attr_aspath_count(), 0);
	/* Not even the chunk per size class the stores keep for the next object, nor the
	 * export caches' encoded bytes: what the sessions held before the table. */
	ck_assert_uint_eq(MTYPE_BGP_ATTR->bytes, 0);
	ck_assert_uint_eq(MTYPE_BGP_ASPATH->bytes, 0);
	ck_assert_uint_le(MTYPE_BGP_ADJ_OUT->bytes, adj_out_empty + 16384); /* batch arrays */
	ck_assert_uint_eq(MTYPE_BGP_JOURNAL->bytes, 0); /* nor the empty journal's chunk */

	/* A few routes coming and going afterwards do not trim again. */
	load_table();
	fake_withdraw(e1, V4, table, 100);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(bgp->rib->release_count, 1);
	ck_assert_uint_eq(fake_adj_count(e2, V4), TABLE - 100);
}
END_TEST

/* The same table withdrawn a little at a time, the work going idle after each step (as
 * withdrawals arriving over seconds do): a few trims on the way, not one per step, and the
 * pools still empty at the end. */
START_TEST(test_gradual_withdrawal_empties_the_pools)
{
	load_table();
	for (size_t i = 0; i < TABLE; i += 500) {
		fake_withdraw(e1, V4, table + i, 500);
		fake_run(bgp, RUN_ALL);
	}
	check_released(0);
	ck_assert_uint_ge(bgp->rib->release_count, 1);
	ck_assert_uint_le(bgp->rib->release_count, 3);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_eq(bgp_attr_aspath_count(), 0);
}
END_TEST

/*
 * The export cache keeps short encoded sets in its block of slots and long ones apart: with
 * more sets than entries, entries go from short to long and back, and every prefix is still
 * sent its own attributes; when the table has gone, so have the slots and the long buffers.
 */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_export_cache_long_and_short_sets)
{
	enum { SETS = 3000 };
	static struct prefix p[SETS];
	size_t before;

	tpfx_range(p, SETS, "20.0.0.0/24", 24);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < SETS; i++) {
			struct bgp_attr t;
			uint32_t c[40];
			char path[32];
			size_t n = i % 3 == 0 ? 40 : 1; /* 40 communities: over a slot's 96 bytes */

			for (size_t k = 0; k < n; k++)
				c[k] = (65002u << 16) |
				       (uint32_t)(i * 2 + round + k * 7919) % 65536;
			snprintf(path, sizeof(path), "65002 %zu", 100 + i);
			tmpl_init(&t, path, "10.0.0.2", BGP_ORIGIN_IGP);
			t.communities = bgp_u32list_intern(c, (uint32_t)n);
			t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
			fake_announce(e1, V4, &t, &p[i], 1);
			bgp_u32list_unref(t.communities);
			tmpl_release(&t);
		}
		fake_run(bgp, RUN_ALL);
		ck_assert_uint_eq(fake_adj_count(e2, V4), SETS);
		for (size_t i = 0; i < SETS; i++) {
			char s[32];
			const struct bgp_attr *a;
			size_t n = i % 3 == 0 ? 40 : 1;
			uint32_t want[40], got[40];

			prefix_to_str(&p[i], s, sizeof(s));
			a = fake_adj(e2, s);
			ck_assert_ptr_nonnull(a);
			ck_assert_ptr_nonnull(a->communities);
			ck_assert_uint_eq(a->communities->count, n);
			/* the same values (their order on the wire is the encoder's) */
			for (size_t k = 0; k < n; k++) {
				want[k] = (65002u << 16) |
					  (uint32_t)(i * 2 + round + k * 7919) % 65536;
				got[k] = a->communities->val[k];
			}
			qsort(want, n, sizeof(*want), cmp_u32);
			qsort(got, n, sizeof(*got), cmp_u32);
			ck_assert_mem_eq(want, got, n * sizeof(*want));
		}
	}
	fake_withdraw(e1, V4, p, SETS);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(e2, V4), 0);
	/* What the release does once a table of RIB_RELEASE_OBJECTS has gone (this one is
	 * smaller): the slots (96 KiB) and the long sets' own buffers (a third of the 1,024
	 * entries, 176 bytes or more each) go. */
	before = MTYPE_BGP_ADJ_OUT->bytes;
	adj_out_cache_clear_all(bgp->rib);
	ck_assert_uint_ge(before - MTYPE_BGP_ADJ_OUT->bytes, 96 * 1024 + 200 * 176);
	before = MTYPE_BGP_ADJ_OUT->bytes;
	adj_out_cache_clear_all(bgp->rib);
	ck_assert_uint_eq(MTYPE_BGP_ADJ_OUT->bytes, before);
}
END_TEST

static Suite *withdraw_suite(void)
{
	Suite *s = suite_create("bgp_withdraw");
	TCase *ts = tcase_create("slab");
	TCase *tr = tcase_create("rib");

	tcase_add_test(ts, test_slab_empty_releases_its_chunks);
	tcase_add_test(ts, test_slab_single_object_flap);
	suite_add_tcase(s, ts);
	tcase_add_checked_fixture(tr, setup, teardown);
	tcase_set_timeout(tr, 60);
	tcase_add_test(tr, test_explicit_withdrawal_releases);
	tcase_add_test(tr, test_session_drop_releases);
	tcase_add_test(tr, test_other_source_keeps_its_paths);
	tcase_add_test(tr, test_withdrawal_groups_with_repeats_and_strangers);
	tcase_add_test(tr, test_full_withdrawal_empties_the_pools);
	tcase_add_test(tr, test_gradual_withdrawal_empties_the_pools);
	tcase_add_test(tr, test_export_cache_long_and_short_sets);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(withdraw_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
