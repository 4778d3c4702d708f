/* SPDX-License-Identifier: ISC */
/*
 * The RIB's fixed-size slabs (bgpd/rib/bgp_slab.c): chunks whose objects are all freed go back
 * when the slab shrinks (a withdrawn table), chunks with a live object stay, and live objects
 * are never handed out twice across the reclaim passes. Every test runs on a plain slab and on
 * a numbered one (objects named by 32-bit handles, as the RIB's paths), where the handles of
 * live objects must also keep naming them, and where a chunk goes with its last object,
 * without a pass.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rib/bgp_slab.h"
#include "lib/log.h"

static DEFINE_MTYPE(TEST_SLAB, "test slab");

#define OBJ_SIZE 20 /* struct bgp_path's */

struct obj {
	uint32_t link;	/* the free list's, while free */
	uint32_t owner; /* the index that holds it, checked for double hand-outs */
	uint32_t pad[3];
};

_Static_assert(sizeof(struct obj) == OBJ_SIZE, "test objects are path-sized");

static struct bgp_slab slab;
static struct bgp_slab_dir dir; /* the numbered slab's */
static bool numbered;
static struct obj **o;
static uint32_t *r; /* numbered: o[i]'s handle */
static size_t per_chunk, n;

/* A new object for index i. */
static struct obj *take(size_t i)
{
	struct obj *x;

	if (!numbered)
		return bgp_slab_alloc(&slab);
	x = bgp_slab_alloc_ref(&slab, &r[i]);
	ck_assert_uint_ne(r[i], 0);
	ck_assert_ptr_eq(bgp_slab_dir_at(&dir, r[i], OBJ_SIZE), x);
	return x;
}

static void fill(void)
{
	/* Twenty chunks' worth, in order: object i is in chunk i / per_chunk. */
	o = XCALLOC(MTYPE_TEST_SLAB, 20 * 4096 * sizeof(*o));
	r = XCALLOC(MTYPE_TEST_SLAB, 20 * 4096 * sizeof(*r));
	n = 0;
	do {
		o[n] = take(n);
		o[n]->owner = (uint32_t)n;
		n++;
	} while (slab.chunk_count < 20 || slab.fresh);
	per_chunk = n / 20;
	ck_assert_uint_eq(n, 20 * per_chunk);
}

static void setup(void)
{
	numbered = false;
	bgp_slab_init(&slab, MTYPE_TEST_SLAB, OBJ_SIZE);
	fill();
}

static void setup_numbered(void)
{
	numbered = true;
	bgp_slab_init_numbered(&slab, MTYPE_TEST_SLAB, OBJ_SIZE, &dir);
	ck_assert_uint_eq(slab.obj_size, OBJ_SIZE); /* not rounded up to 24 */
	fill();
	ck_assert_uint_eq(per_chunk, BGP_SLAB_REF_PER_CHUNK);
}

static void teardown(void)
{
	bgp_slab_fini(&slab);
	/* The numbers came back with the chunks, and the table with the last of them. */
	ck_assert_uint_eq(dir.used, 0);
	ck_assert_ptr_null(dir.base);
	XFREE(MTYPE_TEST_SLAB, o);
	XFREE(MTYPE_TEST_SLAB, r);
	ck_assert_uint_eq(MTYPE_TEST_SLAB->allocated, 0);
}

static void drop(size_t i)
{
	if (numbered)
		bgp_slab_free_ref(&slab, r[i]);
	else
		bgp_slab_free(&slab, o[i]);
	o[i] = NULL;
}

static void check_live(void)
{
	for (size_t i = 0; i < n; i++) {
		if (!o[i])
			continue;
		ck_assert_uint_eq(o[i]->owner, i);
		if (numbered)
			ck_assert_ptr_eq(bgp_slab_dir_at(&dir, r[i], OBJ_SIZE), o[i]);
	}
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
			o[i] = take(i);
			ck_assert_uint_eq(o[i]->owner, 0); /* zeroed */
			o[i]->owner = (uint32_t)i;
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
		o[i] = take(i);
		ck_assert_uint_eq(o[i]->owner, 0);
		o[i]->owner = (uint32_t)i;
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
			o[i] = take(i);
			ck_assert_uint_eq(o[i]->owner, 0);
			o[i]->owner = (uint32_t)i;
		}
	check_live();
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
}
END_TEST

/* Numbered: a chunk goes back the moment its last object does, in whatever order its objects
 * were freed, and no pass ever walks the free objects (a pass over a full table's was a
 * 250 ms stall of the loop after a session drop). */
START_TEST(test_numbered_chunk_goes_with_its_last_object)
{
	size_t mem = bgp_slab_memory(&slab), chunk = mem / 20, live[20], chunks_live = 20;

	/* Objects were handed out in order, a chunk at a time: o[i] is in chunk i / per_chunk. */
	for (size_t c = 0; c < 20; c++)
		live[c] = per_chunk;
	/* Chunk 3's objects, scattered; the others stay full. */
	for (size_t k = 0; k < per_chunk; k++) {
		size_t i = 3 * per_chunk + (size_t)(((uint64_t)k * 7919) % per_chunk);

		ck_assert_uint_eq(bgp_slab_memory(&slab), mem);
		drop(i);
		live[3]--;
	}
	ck_assert_uint_eq(bgp_slab_memory(&slab), mem - chunk);
	chunks_live--;
	/* Everything else, scattered over the 19 chunks left: each goes with its last object. */
	for (size_t k = 0; k < n; k++) {
		size_t i = (size_t)(((uint64_t)k * 7919) % n);

		if (!o[i])
			continue;
		drop(i);
		if (--live[i / per_chunk] == 0)
			chunks_live--;
		ck_assert_uint_eq(bgp_slab_memory(&slab), chunks_live * chunk);
	}
	ck_assert_uint_eq(bgp_slab_memory(&slab), 0);
	ck_assert_uint_eq(slab.reclaim_passes, 0);
}
END_TEST

/* Two slabs numbered in one table (every RIB's paths): their chunks have distinct numbers, a
 * number given back is given again, and the other slab's handles keep naming its objects. */
START_TEST(test_shared_dir)
{
	struct bgp_slab other;
	uint32_t ref;
	struct obj *x;

	bgp_slab_init_numbered(&other, MTYPE_TEST_SLAB, OBJ_SIZE, &dir);
	x = bgp_slab_alloc_ref(&other, &ref);
	x->owner = 4242;
	ck_assert_uint_eq(dir.used, 21);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_ne(r[i] >> BGP_SLAB_REF_SHIFT, ref >> BGP_SLAB_REF_SHIFT);
	/* Handle 0 is none: chunk number 0 is never given, the first is 1. */
	ck_assert_uint_eq(r[0] >> BGP_SLAB_REF_SHIFT, 1);
	/* The first slab emptied: its numbers come back, the other's stays. */
	for (size_t i = 0; i < n; i++)
		drop(i);
	ck_assert_uint_eq(dir.used, 1);
	ck_assert_ptr_eq(bgp_slab_dir_at(&dir, ref, OBJ_SIZE), x);
	ck_assert_uint_eq(x->owner, 4242);
	/* The first slab grows again from the lowest number. */
	o[0] = take(0);
	ck_assert_uint_eq(r[0] >> BGP_SLAB_REF_SHIFT, 1);
	drop(0);
	bgp_slab_free_ref(&other, ref);
	ck_assert_uint_eq(other.chunk_count, 0);
	bgp_slab_fini(&other);
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
	tc = tcase_create("numbered");
	tcase_add_checked_fixture(tc, setup_numbered, teardown);
	tcase_add_test(tc, test_numbered_chunk_goes_with_its_last_object);
	tcase_add_test(tc, test_all_freed);
	tcase_add_test(tc, test_one_live_keeps_its_chunk);
	tcase_add_test(tc, test_emptied_chunks_go_back);
	tcase_add_test(tc, test_scattered_frees_walk_once);
	tcase_add_test(tc, test_scattered_shrink_then_refill);
	tcase_add_test(tc, test_shared_dir);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
