/* SPDX-License-Identifier: ISC */
/*
 * The interning store for variable-sized objects (bgpd/wire/bgp_vstore.c), checked against a
 * plain array of what should be in it: every size class, ids past one chunk, colliding hashes
 * (the tag and the equality function decide), deletion from the middle of probe runs
 * (tombstones), growth and shrinking of the index, reuse of freed objects, and chunks
 * given back when all their objects are freed.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/wire/bgp_vstore.h"
#include "lib/hash.h"
#include "lib/log.h"
#include "lib/memory.h"

static DEFINE_MTYPE(TEST_VSTORE, "test vstore objects");

struct tobj {
	uint32_t refcnt;
	uint32_t hash;
	uint32_t len;
	uint8_t data[];
};

#define MAX_DATA (BGP_VSTORE_MAX_SIZE - sizeof(struct tobj))
#define N 6000

static bool tobj_eq(const void *stored, const void *key)
{
	const struct tobj *a = stored, *b = key;

	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

static _Alignas(struct tobj) uint8_t key_buf[BGP_VSTORE_MAX_SIZE];

/* The value number v: its length walks every size class (16 to 256 bytes with the header),
 * its first 4 bytes are v (distinct values, distinct contents). */
static struct tobj *key_of(uint32_t v)
{
	struct tobj *k = (struct tobj *)key_buf;

	k->len = 4 + (uint32_t)(v % (MAX_DATA - 3));
	for (uint32_t i = 0; i < k->len; i++)
		k->data[i] = (uint8_t)(v >> (8 * (i % 4)));
	return k;
}

/* weak: few distinct hashes, so that runs are long and tags equal; else a good hash. */
static uint32_t hash_of(const struct tobj *k, bool weak)
{
	uint32_t h = hash_bytes(k->data, k->len, 0x74657374u);

	return weak ? h % 37 : h;
}

/* A stored copy of k, filed under hv. */
static struct tobj *store(struct bgp_vstore *s, const struct tobj *k, uint32_t hv)
{
	struct tobj *o = bgp_vstore_add(s, hv, sizeof(*o) + k->len);

	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq((uintptr_t)o % 8, 0);
	o->refcnt = 1;
	o->hash = hv;
	o->len = k->len;
	memcpy(o->data, k->data, k->len);
	return o;
}

static struct tobj *add(struct bgp_vstore *s, uint32_t v, bool weak)
{
	struct tobj *k = key_of(v);
	uint32_t hv = hash_of(k, weak);

	ck_assert_ptr_null(bgp_vstore_lookup(s, k, hv));
	return store(s, k, hv);
}

static void check_all(struct bgp_vstore *s, struct tobj **obj, bool weak)
{
	uint32_t live = 0;

	for (uint32_t v = 0; v < N; v++) {
		struct tobj *k = key_of(v);
		void *found = bgp_vstore_lookup(s, k, hash_of(k, weak));

		ck_assert_ptr_eq(found, obj[v]);
		if (obj[v]) {
			ck_assert_uint_eq(obj[v]->len, k->len);
			ck_assert_mem_eq(obj[v]->data, k->data, k->len);
			live++;
		}
	}
	ck_assert_uint_eq(s->live, live);
}

static void churn(bool weak)
{
	static struct tobj *obj[N];
	struct bgp_vstore s;
	size_t full_mem, empty_mem;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t v = 0; v < N; v++)
		obj[v] = add(&s, v, weak);
	check_all(&s, obj, weak);
	full_mem = bgp_vstore_memory(&s);
	/* Every third one goes: holes in the middle of probe runs. */
	for (uint32_t v = 0; v < N; v += 3) {
		obj[v]->refcnt = 0;
		bgp_vstore_del(&s, obj[v]);
		obj[v] = NULL;
	}
	check_all(&s, obj, weak);
	/* They come back into the freed places: no new chunk. */
	for (uint32_t v = 0; v < N; v += 3)
		obj[v] = add(&s, v, weak);
	check_all(&s, obj, weak);
	ck_assert_uint_eq(bgp_vstore_memory(&s), full_mem);
	/* All go, in an order unrelated to the index: the index shrinks back to its minimum. */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t v = (uint32_t)(((uint64_t)i * 2477) % N); /* 2477 is prime to N */

		obj[v]->refcnt = 0;
		bgp_vstore_del(&s, obj[v]);
		obj[v] = NULL;
		if (i % 1000 == 0)
			check_all(&s, obj, weak);
	}
	check_all(&s, obj, weak);
	empty_mem = bgp_vstore_memory(&s);
	ck_assert_uint_lt(empty_mem + (N / 2) * sizeof(uint32_t), full_mem);
	bgp_vstore_fini(&s);
	ck_assert_uint_eq(bgp_vstore_memory(&s), 0);
}

START_TEST(test_churn_good_hash)
{
	churn(false);
}
END_TEST

START_TEST(test_churn_colliding_hashes)
{
	churn(true);
}
END_TEST

/* A 32-byte object numbered i (lengths 13 .. 20 after the 12-byte header: one class). */
static struct tobj *add32(struct bgp_vstore *s, uint32_t i)
{
	struct tobj *k = (struct tobj *)key_buf;

	k->len = 13 + i % 8;
	memset(k->data, 0, k->len);
	memcpy(k->data, &i, 4);
	return store(s, k, hash_of(k, false));
}

static void del(struct bgp_vstore *s, struct tobj **o)
{
	(*o)->refcnt = 0;
	bgp_vstore_del(s, *o);
	*o = NULL;
}

#define OBJS32 (16 * 256)

/* Objects cost their size rounded up to 8 and a 4-byte slot: no per-object header. */
START_TEST(test_memory_per_object)
{
	static struct tobj *o[OBJS32];
	struct bgp_vstore s;
	size_t mem;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t i = 0; i < OBJS32; i++)
		o[i] = add32(&s, i);
	mem = bgp_vstore_memory(&s);
	/* 4096 x 32 bytes of objects, 8192 slots x 4 bytes, the chunk table. */
	ck_assert_uint_ge(mem, OBJS32 * 32 + 8192 * 4);
	ck_assert_uint_le(mem, OBJS32 * 32 + 8192 * 4 + 1024);
	for (uint32_t i = 0; i < OBJS32; i++)
		del(&s, &o[i]);
	ck_assert_uint_eq(s.live, 0);
	bgp_vstore_fini(&s);
}
END_TEST

/*
 * Chunks whose objects are all freed go back to malloc (but the last one with room in its
 * class), chunks with one object left stay, and the store works on after giving chunks back.
 */
START_TEST(test_chunks_given_back)
{
	static struct tobj *o[OBJS32];
	const size_t one_chunk = 32 * 256;
	struct bgp_vstore s;
	size_t full, mem;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t i = 0; i < OBJS32; i++)
		o[i] = add32(&s, i);
	full = bgp_vstore_memory(&s);
	/* All but the first object of each chunk (they were handed out in order). */
	for (uint32_t i = 0; i < OBJS32; i++)
		if (i % 256)
			del(&s, &o[i]);
	ck_assert_uint_eq(s.live, 16);
	mem = bgp_vstore_memory(&s);
	ck_assert_uint_ge(mem, 16 * one_chunk);
	ck_assert_uint_lt(mem, full);
	/* The last object of each: all but one chunk go. */
	for (uint32_t i = 0; i < OBJS32; i += 256)
		del(&s, &o[i]);
	ck_assert_uint_eq(s.live, 0);
	mem = bgp_vstore_memory(&s);
	ck_assert_uint_ge(mem, one_chunk);
	ck_assert_uint_le(mem, one_chunk + (sizeof(uint32_t) << 6) + 16 * sizeof(*s.chunk));
	/* And back: every object found again, the chunk numbers reused (no more than before). */
	for (uint32_t i = 0; i < OBJS32; i++)
		o[i] = add32(&s, i);
	ck_assert_uint_eq(bgp_vstore_memory(&s), full);
	for (uint32_t i = 0; i < OBJS32; i++) {
		struct tobj *k = (struct tobj *)key_buf;

		k->len = 13 + i % 8;
		memset(k->data, 0, k->len);
		memcpy(k->data, &i, 4);
		ck_assert_ptr_eq(bgp_vstore_lookup(&s, k, hash_of(k, false)), o[i]);
	}
	for (uint32_t i = 0; i < OBJS32; i++)
		del(&s, &o[i]);
	bgp_vstore_fini(&s);
	ck_assert_uint_eq(bgp_vstore_memory(&s), 0);
}
END_TEST

/* bgp_vstore_trim(), once a table has gone: the spare chunk a size class keeps when its last
 * object goes is given back too, a chunk with a live object stays and its object is found,
 * and the store works on. */
START_TEST(test_trim_gives_spares_back)
{
	static struct tobj *o[OBJS32];
	const size_t one_chunk = 32 * 256;
	struct tobj *k = (struct tobj *)key_buf;
	uint32_t zero = 0;
	struct bgp_vstore s;
	size_t full;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t i = 0; i < OBJS32; i++)
		o[i] = add32(&s, i);
	full = bgp_vstore_memory(&s);
	for (uint32_t i = 1; i < OBJS32; i++)
		del(&s, &o[i]);
	bgp_vstore_trim(&s); /* object 0's chunk is not empty: it stays */
	ck_assert_uint_ge(bgp_vstore_memory(&s), one_chunk);
	k->len = 13;
	memset(k->data, 0, k->len);
	memcpy(k->data, &zero, 4);
	ck_assert_ptr_eq(bgp_vstore_lookup(&s, k, hash_of(k, false)), o[0]);
	del(&s, &o[0]);
	ck_assert_uint_eq(s.live, 0);
	ck_assert_uint_ge(bgp_vstore_memory(&s), one_chunk); /* kept as the spare */
	bgp_vstore_trim(&s);
	ck_assert_uint_eq(bgp_vstore_memory(&s), 0); /* empty: its index and table go too */
	for (uint32_t i = 0; i < OBJS32; i++)
		o[i] = add32(&s, i);
	ck_assert_uint_eq(bgp_vstore_memory(&s), full);
	for (uint32_t i = 0; i < OBJS32; i++)
		del(&s, &o[i]);
	bgp_vstore_fini(&s);
}
END_TEST

/*
 * The index itself: as many object slots as live objects, no id in two slots (with
 * check_all() finding every live object: each in exactly one slot, so a deleted one cannot
 * be found again), the tombstones counted, and an empty slot left so that a probe for a
 * missing key ends.
 */
static void check_index(const struct bgp_vstore *s)
{
	uint32_t slots = 1u << s->bits, live = 0, tombs = 0, empty = 0;
	uint8_t *seen = calloc((size_t)s->nchunk * 256, 1);

	ck_assert_ptr_nonnull(seen);
	for (uint32_t i = 0; i < slots; i++) {
		uint32_t v = s->slot[i], id;

		if (v == 0) {
			empty++;
			continue;
		}
		if (v == BGP_VSTORE_TOMB) {
			tombs++;
			continue;
		}
		id = (v & BGP_VSTORE_TOMB) - 1;
		ck_assert_uint_lt(id, s->nchunk * 256);
		ck_assert_uint_eq(seen[id], 0);
		seen[id] = 1;
		live++;
	}
	free(seen);
	ck_assert_uint_eq(live, s->live);
	ck_assert_uint_eq(tombs, s->tombs);
	ck_assert_uint_gt(empty, 0);
}

/*
 * Deletions and insertions that keep the number of objects level, on long runs (weak: 37
 * hashes) and on short ones: the tombstones the deletions leave are walked over by later
 * probes (a probe stopping at one would miss the objects after it), reused by insertions, and
 * cleared by rebuilds. 300 objects fill 512 slots past 3/8: the first rebuild doubles the
 * index; 1024 slots are then enough for them, so the index never grows again, however many
 * tombstones the churn leaves.
 */
static void steady_churn(bool weak)
{
	static struct tobj *obj[N];
	const uint32_t level = 300;
	struct bgp_vstore s;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	memset(obj, 0, sizeof(obj));
	for (uint32_t v = 0; v < level; v++)
		obj[v] = add(&s, v, weak);
	ck_assert_uint_eq(s.bits, 9);
	for (uint32_t v = level; v < N; v++) {
		/* The oldest goes, from wherever it is in its run; a new one comes. */
		uint32_t old = v - level;

		obj[old]->refcnt = 0;
		bgp_vstore_del(&s, obj[old]);
		obj[old] = NULL;
		obj[v] = add(&s, v, weak);
		ck_assert_uint_le(s.bits, 10);
		if (v % 500 == 0) {
			check_index(&s);
			check_all(&s, obj, weak);
		}
	}
	if (!weak) /* (37 hashes: one run, whose tombstones insertions reuse at once) */
		ck_assert_uint_eq(s.bits, 10);
	check_index(&s);
	check_all(&s, obj, weak);
	for (uint32_t v = N - level; v < N; v++) {
		obj[v]->refcnt = 0;
		bgp_vstore_del(&s, obj[v]);
		obj[v] = NULL;
	}
	check_index(&s);
	check_all(&s, obj, weak);
	bgp_vstore_fini(&s);
}

START_TEST(test_steady_churn_good_hash)
{
	steady_churn(false);
}
END_TEST

START_TEST(test_steady_churn_colliding_hashes)
{
	steady_churn(true);
}
END_TEST

/*
 * One run (every object the same hash): deleting all but the last leaves tombstones, which
 * keep the last one reachable; deleting the last, at the end of the run, clears them all.
 */
START_TEST(test_end_of_run_clears_tombstones)
{
	static struct tobj *o[40];
	struct bgp_vstore s;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t v = 0; v < 40; v++) {
		struct tobj *k = key_of(v);

		ck_assert_ptr_null(bgp_vstore_lookup(&s, k, 5));
		o[v] = bgp_vstore_add(&s, 5, sizeof(*o[v]) + k->len);
		o[v]->refcnt = 1;
		o[v]->hash = 5;
		o[v]->len = k->len;
		memcpy(o[v]->data, k->data, k->len);
	}
	ck_assert_uint_eq(s.bits, 6); /* 40 of 64: no growth, no shrinking below */
	for (uint32_t v = 0; v < 39; v++) {
		o[v]->refcnt = 0;
		bgp_vstore_del(&s, o[v]);
		o[v] = NULL;
		ck_assert_uint_eq(s.tombs, v + 1);
		ck_assert_ptr_eq(bgp_vstore_lookup(&s, key_of(39), 5), o[39]);
		ck_assert_ptr_null(bgp_vstore_lookup(&s, key_of(v), 5));
	}
	check_index(&s);
	o[39]->refcnt = 0;
	bgp_vstore_del(&s, o[39]);
	ck_assert_uint_eq(s.tombs, 0);
	ck_assert_uint_eq(s.live, 0);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(s.slot[i], 0);
	bgp_vstore_fini(&s);
}
END_TEST

/* An object released by its owner (BGP_VSTORE_RELEASED), not deleted yet, is not found: the
 * same value added again is a second object, found. The released one stays indexed through
 * index rebuilds, so that its deletion finds it, and that deletion leaves the second. */
START_TEST(test_released_not_found)
{
	struct bgp_vstore s;
	static struct tobj *others[200];
	struct tobj *first, *second;
	uint32_t hv = hash_of(key_of(7), false);

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	first = add(&s, 7, false);
	ck_assert_ptr_eq(bgp_vstore_lookup(&s, key_of(7), hv), first);
	first->refcnt = BGP_VSTORE_RELEASED;
	second = add(&s, 7, false); /* add() checks that the lookup misses */
	ck_assert_ptr_ne(first, second);
	ck_assert_ptr_eq(bgp_vstore_lookup(&s, key_of(7), hv), second);
	/* Enough others for the index to grow twice: rebuilt from the chunks. */
	for (uint32_t v = 100; v < 300; v++)
		others[v - 100] = add(&s, v, false);
	ck_assert_uint_gt(s.bits, 7);
	ck_assert_uint_eq(s.live, 202);
	check_index(&s);
	first->refcnt = 0;
	bgp_vstore_del(&s, first);
	ck_assert_uint_eq(s.live, 201);
	check_index(&s);
	ck_assert_ptr_eq(bgp_vstore_lookup(&s, key_of(7), hv), second);
	for (uint32_t v = 0; v < 200; v++)
		del(&s, &others[v]);
	del(&s, &second);
	ck_assert_ptr_null(bgp_vstore_lookup(&s, key_of(7), hv));
	ck_assert_uint_eq(s.live, 0);
	bgp_vstore_fini(&s);
}
END_TEST

/* Object v filed under hash hv (the caller's choice of runs). */
static struct tobj *add_hashed(struct bgp_vstore *s, uint32_t v, uint32_t hv)
{
	struct tobj *k = key_of(v);

	ck_assert_ptr_null(bgp_vstore_lookup(s, k, hv));
	return store(s, k, hv);
}

/* Every object below n is found, under the hash it was filed with. */
static void check_wrapping(const struct bgp_vstore *s, struct tobj **o, uint32_t n)
{
	for (uint32_t v = 0; v < n; v++)
		ck_assert_ptr_eq(bgp_vstore_lookup(s, key_of(v), UINT32_MAX - v % 5), o[v]);
	check_index(s);
}

/*
 * A rebuild places each object some objects after it has read it (its home slot loads
 * meanwhile): every object must still be placed, the last ones of the scan too, when there
 * are fewer objects than that distance, and when the runs wrap around the end of the index
 * (hashes whose low bits are all ones but for the last few: the last slots at every size).
 */
START_TEST(test_rebuilds_place_every_object)
{
	static struct tobj *o[400];
	struct bgp_vstore s;
	unsigned bits = 0, rebuilds = 0;

	bgp_vstore_init(&s, MTYPE_TEST_VSTORE, MTYPE_TEST_VSTORE, tobj_eq);
	for (uint32_t v = 0; v < 400; v++) {
		o[v] = add_hashed(&s, v, UINT32_MAX - v % 5);
		if (s.bits != bits) {
			bits = s.bits;
			rebuilds++;
			check_wrapping(&s, o, v + 1);
		}
	}
	ck_assert_uint_eq(s.bits, 10); /* grown from 64 slots four times */
	ck_assert_uint_eq(rebuilds, 5);
	check_wrapping(&s, o, 400);
	/* Down to a few: shrinking rebuilds, the last ones with fewer objects than the
	 * distance: the last, at 15 objects, from 128 slots to 64. */
	for (uint32_t v = 400; v-- > 3;) {
		del(&s, &o[v]);
		if (s.bits != bits) {
			bits = s.bits;
			check_wrapping(&s, o, v);
		}
	}
	ck_assert_uint_eq(s.bits, 6);
	check_wrapping(&s, o, 3);
	for (uint32_t v = 0; v < 3; v++)
		del(&s, &o[v]);
	ck_assert_uint_eq(s.live, 0);
	bgp_vstore_fini(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_vstore");
	TCase *tc = tcase_create("vstore");
	SRunner *sr;
	int failed;

	log_init("check_bgp_vstore");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_churn_good_hash);
	tcase_add_test(tc, test_churn_colliding_hashes);
	tcase_add_test(tc, test_memory_per_object);
	tcase_add_test(tc, test_chunks_given_back);
	tcase_add_test(tc, test_trim_gives_spares_back);
	tcase_add_test(tc, test_steady_churn_good_hash);
	tcase_add_test(tc, test_steady_churn_colliding_hashes);
	tcase_add_test(tc, test_end_of_run_clears_tombstones);
	tcase_add_test(tc, test_released_not_found);
	tcase_add_test(tc, test_rebuilds_place_every_object);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
