/* SPDX-License-Identifier: ISC */
/*
 * lib/table.c: a delete from where a lookup found the prefix (ptree_lookup_where(),
 * ptree_delete_inline()), against a reference on random data with other inserts and deletes
 * between the lookup and the delete, with and without the directory, both families; and the
 * cases where the note no longer holds (its parent or grandparent freed, or spliced out, a
 * node inserted above, another prefix's note), where the delete must descend instead; and
 * the lookups of a group at once (ptree_lookup_where_group()), and by the index
 * (ptree_lookup_group(), ptree_index_make()) with deletes that have no note.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "lib/table.h"
#include "tests/unit/fast_test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	return (uint32_t)(xorshift64s(&rng) >> 32);
}

/* A random prefix crowded into a few /16 blocks (IPv6: a few /19s inside 2000::/3, and one
 * outside it), so that prefixes nest, share glue, and blocks hold many of them. */
static void random_prefix(int family, struct prefix *p)
{
	static const uint8_t tops4[] = { 10, 192 };
	static const uint8_t tops6[] = { 0x20, 0x2a, 0xfc };

	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)family;
	for (size_t i = 0; i < family_addr_bytes(family); i++)
		p->u.bytes[i] = (uint8_t)rnd();
	if (family == AF_INET) {
		p->u.bytes[0] = tops4[rnd() % 2];
		p->u.bytes[1] = (uint8_t)(rnd() % 4);
		p->len = (uint8_t)(12 + rnd() % 19); /* 12 to 30 */
	} else {
		p->u.bytes[0] = tops6[rnd() % 3];
		p->u.bytes[1] = 0x01;
		p->u.bytes[2] = (uint8_t)(rnd() % 2 ? 0x0d : 0x00);
		/* 14 to 80: nodes with 8-byte keys (up to /64) and 16-byte ones */
		p->len = (uint8_t)(14 + rnd() % 67);
	}
	prefix_apply_mask(p);
}

struct val {
	struct prefix p;
};

enum { N = 3000 };

struct entry {
	struct prefix p;
	struct val *v; /* NULL: not in the tree */
	struct ptree_where w;
};

static struct entry ents[N];

/* Every entry found at its value, the others absent; the count and the walk agree. */
static void check_all(struct ptree *t)
{
	size_t live = 0, walked = 0;
	struct prefix p, q;

	for (size_t i = 0; i < N; i++) {
		FAST_EQ(ptree_lookup(t, &ents[i].p), (void *)ents[i].v);
		if (ents[i].v)
			FAST_EQ(ptree_match_prefix(t, &ents[i].p), (void *)ents[i].v);
		live += ents[i].v != NULL;
	}
	FAST_EQ(ptree_count(t), live);
	for (void *v = ptree_first(t, &p); v; v = ptree_next(t, &q, &p)) {
		FAST_EQ(prefix_cmp(&((struct val *)v)->p, &p), 0);
		q = p;
		walked++;
	}
	FAST_EQ(walked, live);
}

/* Entries are distinct prefixes; an entry is inserted (its value records its prefix). */
static void insert(struct ptree *t, size_t i)
{
	bool created;

	ents[i].v = ptree_get_inline(t, &ents[i].p, &created);
	FAST_ASSERT(ents[i].v && created);
	ents[i].v->p = ents[i].p;
}

static void make_entries(int family)
{
	for (size_t i = 0; i < N; i++) {
		bool dup;

		do {
			random_prefix(family, &ents[i].p);
			dup = false;
			for (size_t k = 0; k < i && !dup; k++)
				dup = prefix_cmp(&ents[k].p, &ents[i].p) == 0;
		} while (dup);
		ents[i].v = NULL;
		memset(&ents[i].w, 0, sizeof(ents[i].w));
	}
}

/*
 * Fill a tree with half the entries and note where each is. Then delete them by their notes
 * in random order while the other half goes in and out: some notes hold, some no longer do.
 * dir: 0 none, 1 from the start, 2 made after the notes were taken (the notes then reach
 * above the blocks, and a delete through them can change a block's top), 3 from the start
 * with the index (made by inserts that find their prefix stored), which the deletes by
 * notes must keep exact.
 */
static void run_model(int family, int dir)
{
	struct ptree *t = ptree_new_inline(family, sizeof(struct val));
	size_t order[N / 2], noted = 0, served = 0, missed = 0;

	ck_assert_ptr_nonnull(t);
	ptree_directory_thresholds(t, dir % 2 ? 64 : SIZE_MAX, dir % 2 ? 16 : SIZE_MAX);
	make_entries(family);
	for (size_t i = 0; i < N / 2; i++)
		insert(t, i);
	for (size_t i = 0; dir == 3 && i < N / 2; i++) {
		bool created;

		FAST_EQ(ptree_get_inline(t, &ents[i].p, &created), (void *)ents[i].v);
		FAST_ASSERT(!created);
	}
	ck_assert(dir == 3 ? ptree_index_slots(t) > 0 : ptree_index_slots(t) == 0);
	for (size_t i = 0; i < N / 2; i++) {
		FAST_EQ(ptree_lookup_where(t, &ents[i].p, &ents[i].w), (void *)ents[i].v);
		noted += ents[i].w.up[0] != 0;
		order[i] = i;
	}
	/* Below the root (or a block's top), a lookup knows the parent. */
	ck_assert_uint_gt(noted, N / 2 - N / 8);
	if (dir == 2)
		ptree_directory_thresholds(t, 64, 16);
	for (size_t i = 0; i < N / 2; i++) {
		size_t j = i + rnd() % (N / 2 - i), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	for (size_t k = 0; k < N / 2; k++) {
		size_t i = order[k], other = N / 2 + rnd() % (N / 2), before;
		bool serves;

		/* A change elsewhere meanwhile, or a fresh note. */
		switch (rnd() % 3) {
		case 0:
			if (ents[other].v) {
				FAST_ASSERT(ptree_delete(t, &ents[other].p) == ents[other].v);
				ents[other].v = NULL;
			} else {
				insert(t, other);
			}
			break;
		case 1:
			FAST_EQ(ptree_lookup_where(t, &ents[i].p, &ents[i].w), (void *)ents[i].v);
			break;
		default:
			break;
		}
		/* The prediction is the delete's own outcome: through the note, or a descent. */
		serves = ptree_where_serves(t, ents[i].v, &ents[i].w);
		before = ptree_where_missed(t);
		FAST_ASSERT(ptree_delete_inline(t, ents[i].v, &ents[i].w));
		FAST_EQ(ptree_where_missed(t) - before, (size_t)!serves);
		served += serves;
		missed += !serves;
		ents[i].v = NULL;
		FAST_EQ(ptree_lookup(t, &ents[i].p), NULL);
		if (k % 64 == 0)
			check_all(t);
	}
	/* Both outcomes, many times (the model makes stale notes on purpose). */
	ck_assert_uint_gt(served, N / 8);
	ck_assert_uint_gt(missed, N / 64);
	check_all(t);
	for (size_t i = N / 2; i < N; i++)
		if (ents[i].v)
			FAST_ASSERT(ptree_delete_inline(t, ents[i].v, NULL));
	ck_assert_uint_eq(ptree_count(t), 0);
	ptree_free(t, NULL);
}

START_TEST(test_where_model_ipv4)
{
	for (int dir = 0; dir < 4; dir++)
		run_model(AF_INET, dir);
}
END_TEST

START_TEST(test_where_model_ipv6)
{
	for (int dir = 0; dir < 4; dir++)
		run_model(AF_INET6, dir);
}
END_TEST

/* The group lookup gives each prefix's ptree_lookup_where() answer and note: groups of up to
 * 40 (more than one interleaved round), present and absent prefixes (some at glue nodes, some
 * repeated), one of the other family; with and without the directory and the index. */
static void run_group(int family, int dir)
{
	struct ptree *t = ptree_new_inline(family, sizeof(struct val));
	struct prefix group[40];
	struct ptree_where w[40], one;
	void *val[40];
	size_t found = 0, absent = 0;

	ptree_directory_thresholds(t, dir ? 64 : SIZE_MAX, dir ? 16 : SIZE_MAX);
	make_entries(family);
	for (size_t i = 0; i < N / 2; i++)
		insert(t, i);
	for (size_t i = 0; dir == 2 && i < N / 2; i++)
		FAST_ASSERT(ptree_get_inline(t, &ents[i].p, NULL) == (void *)ents[i].v);
	ck_assert(dir == 2 ? ptree_index_slots(t) > 0 : ptree_index_slots(t) == 0);
	for (int round = 0; round < 400; round++) {
		size_t n = 1 + rnd() % 40;

		for (size_t k = 0; k < n; k++)
			group[k] = ents[rnd() % N].p;
		if (round % 7 == 0) {
			memset(&group[n / 2], 0, sizeof(group[0]));
			group[n / 2].family = family == AF_INET ? AF_INET6 : AF_INET;
		}
		memset(w, 0xa5, sizeof(w));
		ptree_lookup_where_group(t, group, n, val, w);
		for (size_t k = 0; k < n; k++) {
			FAST_EQ(val[k], ptree_lookup_where(t, &group[k], &one));
			FAST_ASSERT(memcmp(&w[k], &one, sizeof(one)) == 0);
			found += val[k] != NULL;
			absent += val[k] == NULL;
		}
	}
	ck_assert_uint_gt(found, 1000);
	ck_assert_uint_gt(absent, 1000);
	ptree_lookup_where_group(NULL, group, 3, val, w);
	ck_assert(!val[0] && !val[2] && !w[1].up[0]);
	ptree_free(t, NULL);
}

START_TEST(test_where_group)
{
	for (int dir = 0; dir < 3; dir++) {
		run_group(AF_INET, dir);
		run_group(AF_INET6, dir);
	}
}
END_TEST

/*
 * A withdrawal by the index: ptree_index_make() on a tree of the directory's size (none on a
 * small tree, none without the directory), then groups of the stored prefixes in random order
 * looked up by ptree_lookup_group() (against the model, with absent prefixes and one of
 * the other family among them) and deleted without a note, while the other half goes in and
 * out; the index made smaller as the tree empties, and dropped below the threshold.
 */
static void run_withdraw_by_index(int family)
{
	struct ptree *t = ptree_new_inline(family, sizeof(struct val));
	struct prefix group[40];
	void *val[40];
	size_t order[N / 2], idx[40], found = 0, absent = 0, made_smaller = 0, slots;

	make_entries(family);
	for (size_t i = 0; i < N / 2; i++)
		insert(t, i);
	ck_assert(!ptree_index_make(t)); /* no directory: the tree is small */
	ck_assert(!ptree_index_make(NULL));
	ptree_directory_thresholds(t, 2 * N, 16);
	ck_assert(!ptree_index_make(t)); /* below the directory's threshold */
	ck_assert_uint_eq(ptree_index_slots(t), 0);
	ptree_directory_thresholds(t, 64, 16);
	ck_assert_uint_eq(ptree_index_slots(t), 0); /* a first feed: none on demand */
	ck_assert(ptree_index_make(t));
	slots = ptree_index_slots(t);
	ck_assert_uint_ge(slots, N / 2);
	ck_assert(ptree_index_make(t)); /* made once */
	ck_assert_uint_eq(ptree_index_slots(t), slots);
	for (size_t i = 0; i < N / 2; i++) {
		size_t j = rnd() % (i + 1);

		order[i] = order[j];
		order[j] = i;
	}
	for (size_t k = 0; k < N / 2;) {
		size_t n = MIN(1 + rnd() % 40, N / 2 - k), now;

		for (size_t g = 0; g < n; g++) {
			idx[g] = rnd() % 8 ? order[k + g] : N / 2 + rnd() % (N / 2);
			group[g] = ents[idx[g]].p;
		}
		if (k % 7 == 0) {
			memset(&group[n / 2], 0, sizeof(group[0]));
			group[n / 2].family = family == AF_INET ? AF_INET6 : AF_INET;
			idx[n / 2] = N; /* absent */
		}
		ptree_lookup_group(t, group, n, val);
		for (size_t g = 0; g < n; g++) {
			/* Against the model, not ptree_lookup() (which goes by the index too). */
			FAST_EQ(val[g], idx[g] < N ? (void *)ents[idx[g]].v : NULL);
			found += val[g] != NULL;
			absent += val[g] == NULL;
		}
		for (size_t g = 0; g < n; g++, k++) {
			size_t i = order[k], other = N / 2 + rnd() % (N / 2);

			FAST_ASSERT(ptree_delete_inline(t, ents[i].v, NULL));
			ents[i].v = NULL;
			if (rnd() % 4 == 0) {
				if (ents[other].v) {
					FAST_ASSERT(ptree_delete(t, &ents[other].p) ==
						    ents[other].v);
					ents[other].v = NULL;
				} else {
					insert(t, other);
				}
			}
		}
		now = ptree_index_slots(t);
		made_smaller += now < slots;
		slots = now;
		check_all(t);
	}
	ck_assert_uint_gt(found, N / 4);
	ck_assert_uint_gt(absent, N / 64);
	ck_assert_uint_gt(made_smaller, 0);
	for (size_t i = N / 2; i < N; i++)
		if (ents[i].v)
			FAST_ASSERT(ptree_delete_inline(t, ents[i].v, NULL));
	ck_assert_uint_eq(ptree_count(t), 0);
	ck_assert_uint_eq(ptree_index_slots(t), 0);
	ptree_lookup_group(NULL, group, 3, val);
	ck_assert(!val[0] && !val[1] && !val[2]);
	ptree_free(t, NULL);
}

START_TEST(test_withdraw_by_index)
{
	run_withdraw_by_index(AF_INET);
	run_withdraw_by_index(AF_INET6);
}
END_TEST

static struct prefix pfx(const char *s)
{
	struct prefix p;

	ck_assert_msg(prefix_from_str(&p, s, false) == 0, "cannot parse %s", s);
	return p;
}

/* Store s in t, its value recording it. */
static void put(struct ptree *t, const char *s)
{
	struct prefix p = pfx(s);
	struct val *v = ptree_get_inline(t, &p, NULL);

	ck_assert_ptr_nonnull(v);
	v->p = p;
}

/* The tree of the strings in set. */
static struct ptree *tree_of(int family, const char *const *set, size_t n)
{
	struct ptree *t = ptree_new_inline(family, sizeof(struct val));

	for (size_t i = 0; i < n; i++)
		put(t, set[i]);
	return t;
}

/* Exactly the strings in set are in t, each at a value that records it. */
static void expect(struct ptree *t, const char *const *set, size_t n)
{
	ck_assert_uint_eq(ptree_count(t), n);
	for (size_t i = 0; i < n; i++) {
		struct prefix p = pfx(set[i]);
		struct val *v = ptree_lookup(t, &p);

		ck_assert_msg(v != NULL, "%s missing", set[i]);
		ck_assert_int_eq(prefix_cmp(&v->p, &p), 0);
	}
}

static struct val *find(struct ptree *t, const char *s, struct ptree_where *w)
{
	struct prefix p = pfx(s);
	struct val *v = ptree_lookup_where(t, &p, w);

	ck_assert_ptr_nonnull(v);
	return v;
}

/* One family's cases; a, b, c, d, e: prefixes where b and c are siblings under a glue node
 * inside a, d their glue's prefix, e far from all of them. */
static void run_stale(int family, const char *a, const char *b, const char *c, const char *d,
		      const char *e)
{
	struct ptree_where w, wc;
	struct ptree *t;
	struct prefix p;
	struct val *v;
	size_t missed;

	/* Fresh: the leaf b goes, its glue with it; a, c stay. */
	{
		const char *set[] = { a, b, c }, *left[] = { a, c };

		t = tree_of(family, set, 3);
		v = find(t, b, &w);
		ck_assert_uint_ne(w.up[0], 0);
		ck_assert(ptree_where_serves(t, v, &w));
		ck_assert(ptree_delete_inline(t, v, &w));
		ck_assert_uint_eq(ptree_where_missed(t), 0);
		expect(t, left, 2);
		ptree_free(t, NULL);
	}
	/* The parent glue became a stored prefix (d inserted): the glue's handle is freed. */
	{
		const char *set[] = { a, b, c }, *left[] = { a, c, d };

		t = tree_of(family, set, 3);
		v = find(t, b, &w);
		put(t, d);
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 3);
		ptree_free(t, NULL);
	}
	/* The sibling went first: the parent glue was spliced out, b hangs from a now. */
	{
		const char *set[] = { a, b, c, e }, *left[] = { a, e };

		t = tree_of(family, set, 4);
		v = find(t, b, &w);
		ck_assert(ptree_delete_inline(t, find(t, c, &wc), &wc));
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 2);
		ptree_free(t, NULL);
	}
	/* The grandparent went (a removed: b's glue now hangs from the root's side). */
	{
		const char *set[] = { a, b, c, e }, *left[] = { c, e };

		t = tree_of(family, set, 4);
		v = find(t, b, &w);
		p = pfx(a);
		ck_assert_ptr_nonnull(ptree_delete(t, &p));
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 2);
		ptree_free(t, NULL);
	}
	/* A node inserted between b and its parent (d stored, above b). */
	{
		const char *set[] = { a, b, e }, *left[] = { a, d, e };

		t = tree_of(family, set, 3);
		v = find(t, b, &w);
		put(t, d);
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 3);
		ptree_free(t, NULL);
	}
	/* Another prefix's note, and a note of nothing. */
	{
		const char *set[] = { a, b, c, e }, *left[] = { a, e };

		t = tree_of(family, set, 4);
		find(t, e, &w);
		ck_assert(ptree_delete_inline(t, find(t, b, &wc), &w));
		p = pfx(d);
		ck_assert_ptr_null(ptree_lookup_where(t, &p, &wc));
		ck_assert_uint_eq(wc.up[0], 0);
		v = find(t, c, &w);
		ck_assert(!ptree_where_serves(t, v, &wc));
		ck_assert(!ptree_where_serves(t, v, NULL));
		missed = ptree_where_missed(t);
		ck_assert(ptree_delete_inline(t, v, &wc));
		ck_assert_uint_eq(ptree_where_missed(t), missed + 1);
		expect(t, left, 2);
		ptree_free(t, NULL);
	}
	/* Under the root glue: the root itself is spliced out. */
	{
		const char *set[] = { b, e }, *left[] = { e };

		t = tree_of(family, set, 2);
		v = find(t, b, &w);
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 1);
		ck_assert(ptree_delete_inline(t, find(t, e, &w), &w));
		ck_assert_uint_eq(ptree_count(t), 0);
		ptree_free(t, NULL);
	}
	/* A branch point: a goes, as glue, b and c stay. */
	{
		const char *set[] = { e, a, b, c }, *left[] = { e, b, c };

		t = tree_of(family, set, 4);
		v = find(t, a, &w);
		ck_assert(ptree_delete_inline(t, v, &w));
		expect(t, left, 3);
		ptree_free(t, NULL);
	}
	/* Not an inline tree: refused. */
	t = ptree_new(family);
	ck_assert(!ptree_delete_inline(t, &w, &w));
	ptree_free(t, NULL);
}

START_TEST(test_where_stale)
{
	run_stale(AF_INET, "10.0.0.0/16", "10.0.0.0/24", "10.0.1.0/24", "10.0.0.0/23",
		  "192.0.2.0/24");
	run_stale(AF_INET6, "2001:db8::/32", "2001:db8::/48", "2001:db8:1::/48", "2001:db8::/47",
		  "3fff::/20");
}
END_TEST

/* Notes taken before a directory existed reach above the blocks: deleting a block's top, or
 * splicing out a glue top, through them must set the block's entry. */
START_TEST(test_where_block_tops)
{
	const char *set4[] = { "10.0.0.0/8",  "10.1.0.0/16", "10.1.2.0/24", "10.1.3.0/24",
			       "10.2.0.0/24", "10.2.1.0/24", "10.3.4.0/24" };
	struct ptree_where w[7];
	struct val *v[7];
	struct ptree *t;
	struct prefix p;

	for (int round = 0; round < 7; round++) {
		t = tree_of(AF_INET, set4, 7);
		ptree_directory_thresholds(t, SIZE_MAX, SIZE_MAX);
		for (int i = 0; i < 7; i++)
			v[i] = find(t, set4[i], &w[i]);
		ptree_directory_thresholds(t, 4, 1);
		/* Delete them all, starting at a different one each round, each through its
		 * note; after each, the others are found (through the directory). */
		for (int k = 0; k < 7; k++) {
			int i = (round + k) % 7;

			ck_assert(ptree_delete_inline(t, v[i], &w[i]));
			p = pfx(set4[i]);
			ck_assert_ptr_null(ptree_lookup(t, &p));
			for (int m = k + 1; m < 7; m++) {
				int o = (round + m) % 7;

				p = pfx(set4[o]);
				ck_assert_ptr_eq(ptree_lookup(t, &p), v[o]);
				ck_assert_ptr_eq(ptree_match_prefix(t, &p), v[o]);
			}
		}
		ck_assert_uint_eq(ptree_count(t), 0);
		ptree_free(t, NULL);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table_where");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_where_model_ipv4);
	tcase_add_test(tc, test_where_model_ipv6);
	tcase_add_test(tc, test_where_stale);
	tcase_add_test(tc, test_where_block_tops);
	tcase_add_test(tc, test_where_group);
	tcase_add_test(tc, test_withdraw_by_index);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
