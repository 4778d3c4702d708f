/* SPDX-License-Identifier: ISC */
/* lib/hash.c: table operations against a reference, collisions, growth/shrink, SipHash. */
#include "lib/compat.h"

#include <check.h>

#include "lib/core_mtypes.h"
#include "lib/hash.h"
#include "tests/unit/fast_test.h"

struct item {
	uint32_t key;
	uint32_t extra;
};

static uint32_t item_hash(const void *p)
{
	const struct item *it = p;

	return hash_bytes(&it->key, sizeof(it->key), 0);
}

/* Everything collides: probing and backward-shift deletion do all the work. */
static uint32_t item_hash_const(const void *p)
{
	return 42;
}

/* Weak: multiples of 1024 only (the slot function must still spread them). */
static uint32_t item_hash_weak(const void *p)
{
	return ((const struct item *)p)->key << 10;
}

static bool item_eq(const void *a, const void *b)
{
	return ((const struct item *)a)->key == ((const struct item *)b)->key;
}

static uint32_t rng_state = 2463534242u;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int count_cb(void *item, void *arg)
{
	(*(size_t *)arg)++;
	return 0;
}

static int stop_cb(void *item, void *arg)
{
	return ++(*(int *)arg) == 5 ? 77 : 0;
}

/* Random inserts/removes against a presence bitmap; every key checked at the end. */
static void run_reference(hash_key_fn fn, unsigned nkeys, unsigned ops)
{
	struct item *items = calloc(nkeys, sizeof(*items));
	bool *present = calloc(nkeys, sizeof(*present));
	struct hash *h = hash_new(fn, item_eq, "test");
	size_t n = 0, walked = 0;
	struct item probe;

	for (unsigned i = 0; i < nkeys; i++)
		items[i].key = i * 2654435761u;
	for (unsigned op = 0; op < ops; op++) {
		unsigned k = rnd() % nkeys;

		probe.key = items[k].key;
		if (present[k]) {
			FAST_EQ(hash_lookup(h, &probe), &items[k]);
			if (rnd() & 1) {
				FAST_EQ(hash_remove(h, &probe), &items[k]);
				present[k] = false;
				n--;
			}
		} else {
			FAST_EQ(hash_lookup(h, &probe), NULL);
			FAST_EQ(hash_remove(h, &probe), NULL);
			hash_insert(h, &items[k]);
			present[k] = true;
			n++;
		}
		FAST_EQ(hash_count(h), n);
	}
	for (unsigned k = 0; k < nkeys; k++) {
		probe.key = items[k].key;
		FAST_EQ(hash_lookup(h, &probe), present[k] ? &items[k] : NULL);
	}
	hash_walk(h, count_cb, &walked);
	FAST_EQ(walked, n);
	hash_free(h);
	free(items);
	free(present);
}

START_TEST(test_reference_good_hash)
{
	run_reference(item_hash, 5000, 200000);
}
END_TEST

START_TEST(test_reference_all_collide)
{
	run_reference(item_hash_const, 300, 20000);
}
END_TEST

START_TEST(test_reference_weak_hash)
{
	run_reference(item_hash_weak, 5000, 100000);
}
END_TEST

START_TEST(test_grow_shrink_memory)
{
	enum { N = 100000 };
	struct item *items = calloc(N, sizeof(*items));
	struct hash *h = hash_new(item_hash, item_eq, "grow");
	uint64_t before = MTYPE_HASH_INDEX->allocated;
	size_t empty_mem = hash_memory(h), full_mem;
	int stops = 0;

	ck_assert_str_eq(hash_name(h), "grow");
	for (unsigned i = 0; i < N; i++) {
		items[i].key = i;
		hash_insert(h, &items[i]);
	}
	ck_assert_uint_eq(hash_count(h), N);
	full_mem = hash_memory(h);
	/* load stays at or under 3/4: at least N * 4/3 slots of 12 bytes */
	ck_assert_uint_ge(full_mem, (size_t)N * 4 / 3 * 12);
	ck_assert_uint_le(full_mem, (size_t)N * 4 * 12); /* and not absurdly sparse */
	ck_assert_int_eq(hash_walk(h, stop_cb, &stops), 77);
	ck_assert_int_eq(stops, 5);

	for (unsigned i = 0; i < N; i++)
		ck_assert_ptr_eq(hash_remove(h, &items[i]), &items[i]);
	ck_assert_uint_eq(hash_count(h), 0);
	ck_assert_uint_lt(hash_memory(h), 1024); /* shrunk back down */
	ck_assert_uint_ge(hash_memory(h), empty_mem);
	hash_free(h);
	ck_assert_uint_le(MTYPE_HASH_INDEX->allocated, before);
	free(items);
}
END_TEST

/* SipHash-2-4 reference vectors (key 00..0f, message 00..len-1) from the SipHash paper. */
START_TEST(test_siphash_vectors)
{
	uint8_t key[16], msg[64];

	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	ck_assert(hash_siphash(msg, 0, key, 2, 4) == 0x726fdb47dd0e0e31ull);
	ck_assert(hash_siphash(msg, 1, key, 2, 4) == 0x74f839c593dc67fdull);
	ck_assert(hash_siphash(msg, 15, key, 2, 4) == 0xa129ca6149be45e5ull);
}
END_TEST

START_TEST(test_hash_bytes)
{
	uint32_t a = hash_bytes("hello", 5, 0);
	uint32_t seen[4096];
	unsigned collisions = 0;

	ck_assert_uint_eq(a, hash_bytes("hello", 5, 0)); /* deterministic within a process */
	ck_assert_uint_ne(a, hash_bytes("hello", 5, 1)); /* the seed matters */
	ck_assert_uint_ne(a, hash_bytes("hellp", 5, 0));
	ck_assert_uint_ne(hash_bytes("", 0, 0), hash_bytes("\0", 1, 0)); /* length matters */

	/* 100,000 distinct 4-byte keys: a 32-bit hash should give about one full collision;
	 * a table-sized 12-bit bucket histogram should be flat. */
	memset(seen, 0, sizeof(seen));
	{
		enum { N = 100000 };
		uint32_t *hs = malloc(N * sizeof(*hs));
		unsigned maxb = 0;

		for (uint32_t i = 0; i < N; i++) {
			hs[i] = hash_bytes(&i, sizeof(i), 7);
			seen[hs[i] & 4095]++;
		}
		for (int i = 0; i < 4096; i++)
			maxb = MAX(maxb, seen[i]);
		/* mean 24.4: a max above 60 would be a badly skewed hash */
		ck_assert_uint_lt(maxb, 60);
		for (uint32_t i = 0; i < N; i++)
			for (uint32_t j = i + 1; j < N && j < i + 64; j++)
				collisions += hs[i] == hs[j];
		ck_assert_uint_lt(collisions, 3);
		free(hs);
	}
}
END_TEST

START_TEST(test_combine)
{
	uint32_t h1 = hash_combine(hash_combine(0, 1), 2);
	uint32_t h2 = hash_combine(hash_combine(0, 2), 1);

	ck_assert_uint_ne(h1, h2); /* order matters */
	ck_assert_uint_eq(h1, hash_combine(hash_combine(0, 1), 2));
	ck_assert_uint_ne(hash_combine(0, 0), hash_combine(0, 1));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reference_good_hash);
	tcase_add_test(tc, test_reference_all_collide);
	tcase_add_test(tc, test_reference_weak_hash);
	tcase_add_test(tc, test_grow_shrink_memory);
	tcase_add_test(tc, test_siphash_vectors);
	tcase_add_test(tc, test_hash_bytes);
	tcase_add_test(tc, test_combine);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
