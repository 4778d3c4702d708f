/* SPDX-License-Identifier: ISC */
/*
 * The RIB's fixed-size slabs (bgpd/rib/bgp_slab.c): chunks whose objects are all freed go back
 * when the slab shrinks (a withdrawn table), chunks with a live object stay, and live objects
 * are never handed out twice across the reclaim passes.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rib/bgp_slab.h"
#include "lib/log.h"

static DEFINE_MTYPE(TEST_SLAB, "test slab");

#define OBJ_SIZE 24 /* struct bgp_path's */

struct obj {
	uint64_t owner; /* the index that holds it, checked for double hand-outs */
	uint64_t pad[2];
};

_Static_assert(sizeof(struct obj) == OBJ_SIZE, "test objects are path-sized");

static struct bgp_slab slab;
static struct obj **o;
static size_t per_chunk, n;

static void setup(void)
{
	bgp_slab_init(&slab, MTYPE_TEST_SLAB, OBJ_SIZE);
	/* Twenty chunks' worth, in order: object i is in chunk i / per_chunk. */
	o = XCALLOC(MTYPE_TEST_SLAB, 20 * 4096 * sizeof(*o));
	n = 0;
	do {
		o[n] = bgp_slab_alloc(&slab);
		o[n]->owner = n;
		n++;
	} while (slab.chunk_count < 20 || slab.fresh);
	per_chunk = n / 20;
	ck_assert_uint_eq(n, 20 * per_chunk);
}

static void teardown(void)
{
	bgp_slab_fini(&slab);
	XFREE(MTYPE_TEST_SLAB, o);
}

static void drop(size_t i)
{
	bgp_slab_free(&slab, o[i]);
	o[i] = NULL;
}

static void check_live(void)
{
	for (size_t i = 0; i < n; i++)
		if (o[i])
			ck_assert_uint_eq(o[i]->owner, i);
}

START_TEST(test_all_freed)
{
	for (size_t i = 0; i < n; i++)
		drop(i);
	ck_assert_uint_eq(slab.in_use, 0);
	ck_assert_uint_eq(bgp_slab_memory(&slab), 0);
}
END_TEST

/* One live object keeps its chunk: freeing all others, scattered, gives nothing back. */
START_TEST(test_one_live_keeps_its_chunk)
{
	size_t mem = bgp_slab_memory(&slab);

	for (size_t k = 0; k < n; k++) {
		size_t i = (size_t)(((uint64_t)k * 7919) % n); /* every i once: 7919 is prime */

		if (i % per_chunk != per_chunk / 2)
			drop(i);
	}
	ck_assert_uint_eq(slab.in_use, 20);
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
	check_live();
	/* Refilled from the free list: live objects are not handed out again. */
	for (size_t i = 0; i < n; i++)
		if (!o[i]) {
			o[i] = bgp_slab_alloc(&slab);
			ck_assert_uint_eq(o[i]->owner, 0); /* zeroed */
			o[i]->owner = i;
		}
	check_live();
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
}
END_TEST

/* The first 16 chunks emptied (under a quarter left: a pass runs): they go back, the other 4
 * stay, and the slab works on. */
START_TEST(test_emptied_chunks_go_back)
{
	size_t mem = bgp_slab_memory(&slab);

	for (size_t i = 0; i < 16 * per_chunk; i++)
		drop(i);
	/* The four full chunks, and the one emptied after the pass (at under a quarter). */
	ck_assert_uint_le(bgp_slab_memory(&slab), mem / 20 * 5);
	check_live();
	for (size_t i = 0; i < 16 * per_chunk; i++) {
		o[i] = bgp_slab_alloc(&slab);
		ck_assert_uint_eq(o[i]->owner, 0);
		o[i]->owner = i;
	}
	check_live();
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
	/* Now the objects past the first 4 chunks' worth go, in reverse: the pass runs when
	 * under a quarter is left (5 chunks' worth), the chunk emptied after it stays until the
	 * next one. */
	for (size_t i = n; i-- > 4 * per_chunk;)
		drop(i);
	check_live();
	ck_assert_uint_le(bgp_slab_memory(&slab), mem / 20 * 6);
	for (size_t i = 0; i < 4 * per_chunk; i++)
		drop(i);
	ck_assert_uint_eq(bgp_slab_memory(&slab), 0);
}
END_TEST

/* A session's paths freed in prefix order are scattered over every chunk: a pass frees no
 * chunk and leaves the free list as long as the table was. The passes after it must wait
 * until the frees have paid for that walk, not run at every quarter step (each walked the
 * whole free list again: most of a session drop's CPU). */
START_TEST(test_scattered_frees_walk_once)
{
	for (size_t k = 0; k < n; k++)
		drop((size_t)(((uint64_t)k * 7919) % n));
	ck_assert_uint_eq(slab.in_use, 0);
	ck_assert_uint_eq(bgp_slab_memory(&slab), 0);
	ck_assert_uint_le(slab.reclaim_passes, 1);
}
END_TEST

/* The same, stopping at 1%: the frees after the first pass have not paid for a second. The
 * slab still works and gives everything back at the end. */
START_TEST(test_scattered_shrink_then_refill)
{
	size_t mem = bgp_slab_memory(&slab);

	for (size_t k = 0; k < n - n / 100; k++)
		drop((size_t)(((uint64_t)k * 7919) % n));
	ck_assert_uint_le(slab.reclaim_passes, 1);
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem); /* every chunk keeps a live object */
	check_live();
	for (size_t i = 0; i < n; i++)
		if (!o[i]) {
			o[i] = bgp_slab_alloc(&slab);
			ck_assert_uint_eq(o[i]->owner, 0);
			o[i]->owner = i;
		}
	check_live();
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_slab");
	TCase *tc = tcase_create("slab");
	SRunner *sr;
	int failed;

	log_init("check_bgp_slab");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_all_freed);
	tcase_add_test(tc, test_one_live_keeps_its_chunk);
	tcase_add_test(tc, test_emptied_chunks_go_back);
	tcase_add_test(tc, test_scattered_frees_walk_once);
	tcase_add_test(tc, test_scattered_shrink_then_refill);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
