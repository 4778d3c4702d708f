/* SPDX-License-Identifier: ISC */
/*
 * lib/table.c: exact and longest match against a brute-force reference on random data, walk
 * order equal to prefix_cmp order, ptree_next() across deleted keys, glue reclaiming, values
 * held inline in the nodes, IPv6 nodes with short (up to /64) and full keys mixed around the
 * boundary, and the memory budgets (<= 48 bytes per IPv4 prefix, measured on a million random
 * prefixes; <= 53 per IPv6 prefix up to /64).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "lib/table.h"
#include "tests/unit/fast_test.h"

static uint64_t rng = 0x123456789abcdef1ull;

static uint64_t rnd64(void)
{
	return xorshift64s(&rng);
}

static uint32_t rnd(void)
{
	return (uint32_t)(rnd64() >> 32);
}

struct ref {
	struct prefix p;
	bool present;
};

static int ref_cmp(const void *a, const void *b)
{
	return prefix_cmp(&((const struct ref *)a)->p, &((const struct ref *)b)->p);
}

/* When set, IPv6 prefixes are drawn around /64 (lengths 56..72 within eight /48s), where a
 * node's key goes from 8 bytes to 16: stored and glue nodes of both sizes, side by side. */
static bool near64;

/* Random prefix of the family, clustered so that many prefixes nest and share glue. */
static void random_prefix(int family, struct prefix *p, unsigned minlen, unsigned maxlen)
{
	static const uint8_t tops[] = { 10, 11, 172, 192 };
	/* IPv6: within the directory's base 2000::/3 and outside it */
	static const uint8_t tops6[] = { 0x20, 0x2a, 0x3f, 0xfc };

	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)family;
	for (size_t i = 0; i < family_addr_bytes(family); i++)
		p->u.bytes[i] = (uint8_t)rnd();
	p->u.bytes[0] = family == AF_INET6 ? tops6[rnd() % 4] : tops[rnd() % 4];
	if (family == AF_INET6 && (rnd() & 1))
		memset(&p->u.bytes[4], 0, 8); /* more sharing in the middle bits */
	p->len = (uint8_t)(minlen + rnd() % (maxlen - minlen + 1));
	if (family == AF_INET6 && near64) {
		static const uint8_t top[] = { 0x20, 0x01, 0x0d, 0xb8 };

		memcpy(p->u.bytes, top, sizeof(top));
		p->u.bytes[4] = (uint8_t)(rnd() % 2);
		p->u.bytes[5] = (uint8_t)(rnd() % 4);
		p->len = (uint8_t)MAX(minlen, MIN(maxlen, 56 + rnd() % 17));
	}
	prefix_apply_mask(p);
}

/* Sorted, de-duplicated reference set of n random prefixes; returns its size. */
static size_t make_reference(int family, struct ref *refs, size_t n)
{
	size_t i, u = 0;

	for (i = 0; i < n; i++) {
		random_prefix(family, &refs[i].p, 0, prefix_maxlen(family));
		refs[i].present = true;
	}
	qsort(refs, n, sizeof(*refs), ref_cmp);
	for (i = 0; i < n; i++)
		if (u == 0 || prefix_cmp(&refs[u - 1].p, &refs[i].p) != 0)
			refs[u++] = refs[i];
	return u;
}

static struct ref *ref_find(struct ref *refs, size_t n, const struct prefix *p)
{
	struct ref key = { .p = *p };
	struct ref *r = bsearch(&key, refs, n, sizeof(*refs), ref_cmp);

	return r && r->present ? r : NULL;
}

static struct ref *ref_longest(struct ref *refs, size_t n, const struct prefix *p)
{
	struct prefix q;

	for (int len = p->len; len >= 0; len--) {
		struct ref *r;

		q = *p;
		q.len = (uint8_t)len;
		prefix_apply_mask(&q);
		r = ref_find(refs, n, &q);
		if (r)
			return r;
	}
	return NULL;
}

/* First present reference strictly after q. */
static struct ref *ref_next(struct ref *refs, size_t n, const struct prefix *q)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (prefix_cmp(&refs[mid].p, q) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++)
		if (refs[lo].present)
			return &refs[lo];
	return NULL;
}

struct walk_check {
	struct ref *refs;
	size_t n, pos;
};

static int walk_cb(const struct prefix *p, void *value, void *arg)
{
	struct walk_check *wc = arg;

	while (wc->pos < wc->n && !wc->refs[wc->pos].present)
		wc->pos++;
	FAST_ASSERT((wc->pos) < (wc->n));
	FAST_EQ(value, &wc->refs[wc->pos]);
	FAST_EQ(prefix_cmp(p, &wc->refs[wc->pos].p), 0);
	wc->pos++;
	return 0;
}

/* ptree_walk_covering() must give exactly the present references that contain p, shortest
 * first: the brute-force answer is every mask of p from /0 to its own length. */
struct covering_check {
	struct ref *refs;
	size_t n;
	const struct prefix *p;
	int next_len; /* shortest length not yet checked */
	size_t seen;
};

static int covering_cb(const struct prefix *q, void *value, void *arg)
{
	struct covering_check *cc = arg;
	struct prefix m;
	struct ref *r = NULL;

	/* every shorter mask skipped since the previous visit must be absent */
	for (; cc->next_len <= q->len; cc->next_len++) {
		m = *cc->p;
		m.len = (uint8_t)cc->next_len;
		prefix_apply_mask(&m);
		r = ref_find(cc->refs, cc->n, &m);
		if (cc->next_len < q->len)
			FAST_EQ(r, NULL);
	}
	FAST_ASSERT(r != NULL);
	FAST_EQ(value, r);
	FAST_EQ(prefix_cmp(q, &r->p), 0);
	cc->seen++;
	return 0;
}

static void check_covering(struct ptree *t, struct ref *refs, size_t n, const struct prefix *p)
{
	struct covering_check cc = { refs, n, p, 0, 0 };
	struct prefix m;

	FAST_EQ(ptree_walk_covering(t, p, covering_cb, &cc), 0);
	for (; cc.next_len <= p->len; cc.next_len++) {
		m = *p;
		m.len = (uint8_t)cc.next_len;
		prefix_apply_mask(&m);
		FAST_EQ(ref_find(refs, n, &m), NULL);
	}
}

/* ptree_next_batch(): the whole tree in batches of varying size, each resumed from the last
 * one's cursor, gives every present reference once and in order; a batch after a random
 * probe starts where ref_next() says. */
static void check_batches(struct ptree *t, struct ref *refs, size_t n)
{
	void *vals[64];
	struct prefix cur, probe;
	size_t i = 0, got;
	bool started = false;

	for (;;) {
		size_t max = 1 + (size_t)rnd() % 64;

		got = ptree_next_batch(t, started ? &cur : NULL, vals, max, &cur);
		FAST_EQ(got <= max, true);
		if (!got)
			break;
		started = true;
		for (size_t k = 0; k < got; k++) {
			while (i < n && !refs[i].present)
				i++;
			FAST_EQ(i < n, true);
			FAST_EQ(vals[k], &refs[i]);
			i++;
		}
		FAST_EQ(prefix_cmp(&cur, &refs[i - 1].p), 0);
	}
	while (i < n && !refs[i].present)
		i++;
	FAST_EQ(i, n);
	/* ptree_prefetch() is a hint: whatever it is given, the tree stays the same. */
	for (size_t k = 0; n && k < 200; k++) {
		struct prefix probes[PTREE_PREFETCH_MAX + 8];
		size_t np = (size_t)rnd() % (PTREE_PREFETCH_MAX + 8);

		for (size_t m = 0; m < np; m++) {
			if (rnd() % 2)
				probes[m] = refs[(size_t)rnd() % n].p;
			else
				random_prefix(refs[0].p.family, &probes[m], 0,
					      prefix_maxlen(refs[0].p.family));
		}
		got = ptree_count(t);
		ptree_prefetch(t, probes, np);
		FAST_EQ(ptree_count(t), got);
		for (size_t m = 0; m < np; m++)
			FAST_EQ(ptree_lookup(t, &probes[m]), ref_find(refs, n, &probes[m]));
	}
	ptree_prefetch(NULL, NULL, 0);
	for (size_t k = 0; n && k < 2000; k++) {
		struct ref *r;

		random_prefix(refs[0].p.family, &probe, 0, prefix_maxlen(refs[0].p.family));
		r = ref_next(refs, n, &probe);
		got = ptree_next_batch(t, &probe, vals, 3, &cur);
		FAST_EQ(got > 0, r != NULL);
		if (r)
			FAST_EQ(vals[0], r);
	}
}

static void check_against_reference(struct ptree *t, int family, struct ref *refs, size_t n)
{
	struct walk_check wc = { refs, n, 0 };
	size_t present = 0, i;
	struct prefix p, q;
	void *v;

	for (i = 0; i < n; i++) {
		present += refs[i].present;
		FAST_EQ(ptree_lookup(t, &refs[i].p), refs[i].present ? &refs[i] : NULL);
	}
	FAST_EQ(ptree_count(t), present);

	/* walk order == prefix_cmp order, via the callback walk and via first/next */
	FAST_EQ(ptree_walk(t, walk_cb, &wc), 0);
	while (wc.pos < n && !refs[wc.pos].present)
		wc.pos++;
	FAST_EQ(wc.pos, n);
	i = 0;
	for (v = ptree_first(t, &p); v; v = ptree_next(t, &q, &p)) {
		while (!refs[i].present)
			i++;
		FAST_EQ(v, &refs[i]);
		FAST_EQ(prefix_cmp(&p, &refs[i].p), 0);
		q = p;
		i++;
	}
	while (i < n && !refs[i].present)
		i++;
	FAST_EQ(i, n);

	/* random probes: exact, longest match (prefix and address), next */
	for (i = 0; i < 20000; i++) {
		struct ipaddr a;
		struct ref *r;

		random_prefix(family, &p, 0, prefix_maxlen(family));
		FAST_EQ(ptree_lookup(t, &p), ref_find(refs, n, &p));
		FAST_EQ(ptree_match_prefix(t, &p), ref_longest(refs, n, &p));
		check_covering(t, refs, n, &p);
		r = ref_next(refs, n, &p);
		v = ptree_next(t, &p, &q);
		FAST_EQ(v, r);
		if (r)
			FAST_EQ(prefix_cmp(&q, &r->p), 0);

		memset(&a, 0, sizeof(a));
		a.family = (uint8_t)family;
		random_prefix(family, &p, prefix_maxlen(family), prefix_maxlen(family));
		memcpy(a.u.bytes, p.u.bytes, 16);
		FAST_EQ(ptree_match(t, &a), ref_longest(refs, n, &p));
	}
	/* next after every reference key, present or deleted */
	for (i = 0; i < n; i++) {
		struct ref *r = ref_next(refs, n, &refs[i].p);

		FAST_EQ(ptree_next(t, &refs[i].p, &q), r);
		check_covering(t, refs, n, &refs[i].p);
	}
	check_batches(t, refs, n);
}

/* Bytes the directory of t holds: its memory less that without it (which drops it), after
 * which the directory is made again with the thresholds of the tests (64, 16). */
static size_t directory_bytes(struct ptree *t)
{
	size_t with = ptree_memory(t), without;

	ptree_directory_thresholds(t, SIZE_MAX, SIZE_MAX);
	without = ptree_memory(t);
	ptree_directory_thresholds(t, 64, 16);
	return with - without;
}

/* dir: with a directory from 64 prefixes on (the default would make none at this size). */
static void run_random(int family, size_t nrand, bool dir)
{
	struct ref *refs = malloc(nrand * sizeof(*refs));
	struct ptree *t = ptree_new(family);
	size_t initial = ptree_memory(t), n, i;
	struct prefix p, q;
	void **slot;

	if (dir)
		ptree_directory_thresholds(t, 64, 16);

	n = make_reference(family, refs, nrand);
	/* insert in random order */
	for (i = 0; i < n; i++) {
		size_t j = i + rnd() % (n - i);
		struct prefix tmp = refs[j].p;

		refs[j].p = refs[i].p;
		refs[i].p = tmp;
	}
	for (i = 0; i < n; i++) {
		slot = ptree_get(t, &refs[i].p);
		FAST_ASSERT((slot) != NULL);
		FAST_EQ(*slot, NULL);
		*slot = (void *)1; /* placeholder until the refs are sorted again */
	}
	qsort(refs, n, sizeof(*refs), ref_cmp);
	for (i = 0; i < n; i++) {
		slot = ptree_get(t, &refs[i].p);
		FAST_EQ(*slot, (void *)1); /* found, not created again */
		*slot = &refs[i];
	}
	FAST_EQ(ptree_count(t), n);
	check_against_reference(t, family, refs, n);
	/* The directory is there (and made again over the full tree) or not, as asked. */
	if (dir) {
		ck_assert_uint_ge(directory_bytes(t), 65536 * 4);
	} else {
		/* the defaults make one from 65,536 IPv4 or 16,384 IPv6 prefixes on: dropping it
		 * frees its 256 KiB, or nothing below that */
		size_t mem = ptree_memory(t);

		ptree_directory_thresholds(t, SIZE_MAX, SIZE_MAX);
		if (family == AF_INET6 && n >= 16384)
			ck_assert_uint_ge(mem - ptree_memory(t), 65536 * 4);
		else
			ck_assert_uint_eq(ptree_memory(t), mem);
	}

	/* delete a random half, including deletes of absent prefixes */
	for (i = 0; i < n; i++) {
		if (rnd() & 1)
			continue;
		FAST_EQ(ptree_delete(t, &refs[i].p), &refs[i]);
		FAST_EQ(ptree_delete(t, &refs[i].p), NULL);
		refs[i].present = false;
	}
	check_against_reference(t, family, refs, n);

	/* a resumable walk that deletes what it visits: sees every remaining prefix once */
	i = 0;
	for (void *v = ptree_first(t, &p); v; v = ptree_next(t, &q, &p)) {
		FAST_EQ(ptree_delete(t, &p), v);
		((struct ref *)v)->present = false;
		q = p;
		i++;
	}
	for (size_t k = 0; k < n; k++)
		FAST_ASSERT(!refs[k].present);
	FAST_EQ(ptree_count(t), 0);
	FAST_EQ(ptree_first(t, &p), NULL);
	/* every chunk went back: only the (small) chunk tables remain */
	ck_assert_uint_le(ptree_memory(t), initial + 16384);
	ptree_free(t, NULL);
	free(refs);
}

START_TEST(test_random_ipv4)
{
	run_random(AF_INET, 30000, false);
	run_random(AF_INET, 30000, true);
}
END_TEST

START_TEST(test_random_ipv6)
{
	run_random(AF_INET6, 20000, false);
	run_random(AF_INET6, 20000, true);
}
END_TEST

/*
 * The directory against the reference while it is made and dropped again and again: random
 * inserts and deletes over a fixed set of prefixes (every length from /0, so shorter and
 * longer than the directory's blocks, both families, IPv6 within 2000::/3 and outside),
 * each answer checked as it happens, the whole tree checked at intervals.
 */
static void run_directory_churn(int family, size_t nrand)
{
	struct ref *refs = malloc(nrand * sizeof(*refs));
	struct ptree *t = ptree_new(family);
	size_t n, present = 0, builds = 0, drops = 0, mem = 0;

	n = make_reference(family, refs, nrand);
	for (size_t i = 0; i < n; i++)
		refs[i].present = false;
	/* made at half of the set, dropped below a quarter: the churn crosses both */
	ptree_directory_thresholds(t, n / 2, n / 4);
	for (size_t op = 0; op < 40 * n; op++) {
		/* phases that grow the tree towards all of the set, then shrink it to nearly none
		 */
		bool grow = (op / (4 * n)) % 2 == 0;
		struct ref *r = &refs[(size_t)rnd() % n];
		size_t now;

		if (!r->present && (grow ? rnd() % 8 != 0 : rnd() % 8 == 0)) {
			void **slot = ptree_get(t, &r->p);

			FAST_ASSERT(slot != NULL);
			FAST_EQ(*slot, NULL);
			*slot = r;
			r->present = true;
			present++;
		} else if (r->present && (grow ? rnd() % 8 == 0 : rnd() % 8 != 0)) {
			FAST_EQ(ptree_delete(t, &r->p), r);
			FAST_EQ(ptree_delete(t, &r->p), NULL);
			r->present = false;
			present--;
		}
		FAST_EQ(ptree_lookup(t, &r->p), r->present ? r : NULL);
		FAST_EQ(ptree_match_prefix(t, &r->p), ref_longest(refs, n, &r->p));
		FAST_EQ(ptree_count(t), present);
		/* the directory's 256 KiB come and go in one step; the nodes of 2,000 prefixes
		 * take chunks of at most 2,048 nodes, under 120 KiB */
		now = ptree_memory(t);
		builds += now >= mem + 65536 * 4;
		drops += mem >= now + 65536 * 4;
		mem = now;
		if (op % (8 * n) == 8 * n - 1)
			check_against_reference(t, family, refs, n);
	}
	check_against_reference(t, family, refs, n);
	/* the churn did cross the thresholds, both ways, more than once */
	ck_assert_uint_ge(builds, 2);
	ck_assert_uint_ge(drops, 2);
	ptree_free(t, NULL);
	free(refs);
}

/* A prefix of length len (at least base_len) drawn within base. */
static void prefix_within(struct prefix *p, const uint8_t *base, unsigned base_len, unsigned len)
{
	memset(p, 0, sizeof(*p));
	p->family = AF_INET6;
	for (size_t i = 0; i < 16; i++)
		p->u.bytes[i] = (uint8_t)rnd();
	for (unsigned b = 0; b < base_len; b++) {
		uint8_t m = (uint8_t)(0x80 >> (b % 8));

		p->u.bytes[b / 8] = (uint8_t)((p->u.bytes[b / 8] & ~m) | (base[b / 8] & m));
	}
	p->len = (uint8_t)len;
	prefix_apply_mask(p);
}

/*
 * An IPv6 table in a small part of 2000::/3 (2400::/20, under a default route) gets its
 * directory's blocks below its own common prefix, not among the /19s; prefixes then
 * inserted elsewhere (2a00::/16) make it again above both. Every answer against the
 * reference throughout.
 */
START_TEST(test_directory_base_ipv6)
{
	static const uint8_t dense[16] = { 0x24, 0x00 }, other[16] = { 0x2a, 0x00 };
	enum { N_DENSE = 3000, N_OTHER = 1000, N = N_DENSE + N_OTHER + 1 };
	struct ref *refs = malloc(N * sizeof(*refs));
	struct ptree *t = ptree_new(AF_INET6);
	struct prefix base;
	size_t n;

	for (size_t i = 0; i < N_DENSE; i++)
		prefix_within(&refs[i].p, dense, 20, 32 + rnd() % 17);
	for (size_t i = N_DENSE; i < N - 1; i++)
		prefix_within(&refs[i].p, other, 16, 32 + rnd() % 17);
	memset(&refs[N - 1].p, 0, sizeof(refs[N - 1].p));
	refs[N - 1].p.family = AF_INET6; /* ::/0 */
	n = N;
	qsort(refs, n, sizeof(*refs), ref_cmp);
	n = 0;
	for (size_t i = 0; i < N; i++)
		if (n == 0 || prefix_cmp(&refs[n - 1].p, &refs[i].p) != 0)
			refs[n++] = refs[i];
	for (size_t i = 0; i < n; i++)
		refs[i].present = false;
	ptree_directory_thresholds(t, 512, 128);

	/* the default route and the dense part: the base lies within 2400::/20 */
	for (size_t i = 0; i < n; i++)
		if (refs[i].p.len == 0 || refs[i].p.u.bytes[0] == 0x24) {
			void **slot = ptree_get(t, &refs[i].p);

			FAST_EQ(*slot, NULL);
			*slot = &refs[i];
			refs[i].present = true;
		}
	ck_assert(ptree_directory_base(t, &base));
	ck_assert_uint_ge(base.len, 20);
	ck_assert_uint_le(base.len, 32);
	ck_assert_int_eq(memcmp(base.u.bytes, dense, 2), 0);
	check_against_reference(t, AF_INET6, refs, n);

	/* the others: once an eighth of the count came from elsewhere, the base is above both
	 * (2400 and 2a00 share 4 bits) */
	for (size_t i = 0; i < n; i++)
		if (!refs[i].present) {
			void **slot = ptree_get(t, &refs[i].p);

			FAST_EQ(*slot, NULL);
			*slot = &refs[i];
			refs[i].present = true;
		}
	ck_assert(ptree_directory_base(t, &base));
	ck_assert_uint_eq(base.len, 4);
	check_against_reference(t, AF_INET6, refs, n);

	/* and back to the dense part alone: answers hold with the wider base */
	for (size_t i = 0; i < n; i++)
		if (refs[i].p.u.bytes[0] == 0x2a) {
			FAST_EQ(ptree_delete(t, &refs[i].p), &refs[i]);
			refs[i].present = false;
		}
	check_against_reference(t, AF_INET6, refs, n);
	ptree_free(t, NULL);
	free(refs);
}
END_TEST

START_TEST(test_directory_churn)
{
	run_directory_churn(AF_INET, 2000);
	run_directory_churn(AF_INET6, 2000);
}
END_TEST

/*
 * The index against the reference: a set of prefixes (every length from /0, both families)
 * grown to all of it (the index made once enough inserts found their prefix stored), churned at a
 * steady size (tombstones pile up, and rebuilds of the same size clear them), shrunk to nearly
 * none, again and again across the thresholds. After every operation the prefix is found (or not)
 * by ptree_lookup(), which the index answers, and ptree_get() of a stored one gives its slot back
 * without making a node; a group of ptree_prefetch() with stored and absent prefixes now and then
 * changes nothing.
 */
static void run_index_churn(int family, size_t nrand)
{
	struct ref *refs = malloc(nrand * sizeof(*refs));
	struct ptree *t = ptree_new(family);
	size_t n, present = 0, builds = 0, drops = 0, resizes = 0, slots = 0;

	n = make_reference(family, refs, nrand);
	for (size_t i = 0; i < n; i++)
		refs[i].present = false;
	ptree_directory_thresholds(t, n / 2, n / 4);
	for (size_t op = 0; op < 60 * n; op++) {
		/* grow to nearly all, churn at a steady size, shrink to nearly none */
		unsigned phase = (unsigned)(op / (4 * n)) % 3;
		unsigned in = phase == 0 ? 7 : phase == 1 ? 4 : 1; /* eighths that insert */
		struct ref *r = &refs[(size_t)rnd() % n];
		size_t now;

		if (!r->present && rnd() % 8 < in) {
			void **slot = ptree_get(t, &r->p);

			FAST_ASSERT(slot != NULL);
			FAST_EQ(*slot, NULL);
			*slot = r;
			r->present = true;
			present++;
		} else if (r->present && rnd() % 8 >= in) {
			FAST_EQ(ptree_delete(t, &r->p), r);
			r->present = false;
			present--;
		} else if (r->present) {
			void **slot = ptree_get(t, &r->p);

			FAST_ASSERT(slot != NULL);
			FAST_EQ(*slot, r);
		}
		FAST_EQ(ptree_lookup(t, &r->p), r->present ? r : NULL);
		FAST_EQ(ptree_count(t), present);
		if (op % 97 == 0) {
			struct prefix group[PTREE_PREFETCH_MAX];

			for (size_t m = 0; m < PTREE_PREFETCH_MAX; m++)
				group[m] = refs[(size_t)rnd() % n].p;
			ptree_prefetch(t, group, PTREE_PREFETCH_MAX);
			ptree_prefetch_descents(t, group, PTREE_PREFETCH_MAX);
			FAST_EQ(ptree_count(t), present);
		}
		now = ptree_index_slots(t);
		builds += !slots && now;
		drops += slots && !now;
		resizes += slots && now && now != slots;
		slots = now;
		/* never full, and gone below the drop threshold */
		FAST_ASSERT(!now || now > present);
		if (present < n / 4)
			FAST_EQ(now, 0);
		if (op % (8 * n) == 8 * n - 1)
			check_against_reference(t, family, refs, n);
	}
	check_against_reference(t, family, refs, n);
	ck_assert_uint_ge(builds, 2);
	ck_assert_uint_ge(drops, 2);
	ck_assert_uint_ge(resizes, 4);
	ptree_free(t, NULL);
	free(refs);
}

START_TEST(test_index_churn)
{
	run_index_churn(AF_INET, 3000);
	run_index_churn(AF_INET6, 3000);
}
END_TEST

static struct prefix P(const char *s) {
	struct prefix p;

	ck_assert_msg(prefix_from_str(&p, s, false) == 0, "cannot parse %s", s);
	return p;
}

START_TEST(test_glue_and_edges)
{
	struct ptree *t = ptree_new(AF_INET);
	struct prefix a = P("10.0.0.0/24"), b = P("10.0.1.0/24"), c = P("10.0.0.0/23");
	struct prefix any = P("0.0.0.0/0"), host = P("10.0.1.77/32"), out;
	int va, vb, vc, vany;
	struct ipaddr addr;
	size_t mem_empty = ptree_memory(t);

	*ptree_get(t, &a) = &va;
	*ptree_get(t, &b) = &vb; /* a glue /23 appears above them */
	ck_assert_uint_eq(ptree_count(t), 2);
	ck_assert_ptr_null(ptree_lookup(t, &c)); /* glue is not a prefix */
	ck_assert_ptr_null(ptree_delete(t, &c));
	ck_assert_ptr_null(ptree_match_prefix(t, &c));
	*ptree_get(t, &c) = &vc; /* the glue becomes stored */
	ck_assert_uint_eq(ptree_count(t), 3);
	ck_assert_ptr_eq(ptree_lookup(t, &c), &vc);
	ck_assert_ptr_eq(ptree_match_prefix(t, &host), &vb);
	ck_assert_ptr_eq(ptree_first(t, &out), &vc); /* /23 sorts before 10.0.0.0/24 */
	ck_assert_int_eq(prefix_cmp(&out, &c), 0);
	ck_assert_ptr_eq(ptree_delete(t, &c), &vc); /* back to glue */
	ck_assert_uint_eq(ptree_count(t), 2);
	ck_assert_ptr_eq(ptree_lookup(t, &a), &va);
	ck_assert_ptr_eq(ptree_lookup(t, &b), &vb);
	ck_assert_ptr_eq(ptree_delete(t, &a), &va); /* the glue has one child left: spliced */
	ck_assert_ptr_eq(ptree_lookup(t, &b), &vb);

	/* the default route, host routes, and the lookup by address */
	*ptree_get(t, &any) = &vany;
	ck_assert_int_eq(ipaddr_from_str(&addr, "192.0.2.1"), 0);
	ck_assert_ptr_eq(ptree_match(t, &addr), &vany);
	ck_assert_int_eq(ipaddr_from_str(&addr, "10.0.1.9"), 0);
	ck_assert_ptr_eq(ptree_match(t, &addr), &vb);
	*ptree_get(t, &host) = &va;
	ck_assert_int_eq(ipaddr_from_str(&addr, "10.0.1.77"), 0);
	ck_assert_ptr_eq(ptree_match(t, &addr), &va);

	/* a NULL value slot is skipped by match and iteration, but counted */
	ck_assert_ptr_nonnull(ptree_get(t, &a));
	ck_assert_uint_eq(ptree_count(t), 4);
	ck_assert_int_eq(ipaddr_from_str(&addr, "10.0.0.1"), 0);
	ck_assert_ptr_eq(ptree_match(t, &addr), &vany);
	ck_assert_ptr_eq(ptree_first(t, &out), &vany);
	ck_assert_ptr_eq(ptree_next(t, &out, &out), &vb);
	ck_assert_ptr_null(ptree_delete(t, &a)); /* returns the NULL value, but removes it */
	ck_assert_uint_eq(ptree_count(t), 3);

	/* unmasked input is masked; the wrong family is refused */
	ck_assert_ptr_eq(ptree_lookup(t, &host), &va);
	out = P("10.0.1.255/24");
	ck_assert_ptr_eq(ptree_lookup(t, &out), &vb);
	out = P("2001:db8::/32");
	ck_assert_ptr_null(ptree_get(t, &out));
	ck_assert_ptr_null(ptree_lookup(t, &out));
	ck_assert_ptr_null(ptree_delete(t, &out));
	/* ptree_next with another family: before = from the start, after = nothing */
	ck_assert_ptr_null(ptree_next(t, &out, &out));
	memset(&out, 0, sizeof(out));
	ck_assert_ptr_eq(ptree_next(t, &out, &out), &vany);

	ck_assert_ptr_eq(ptree_delete(t, &any), &vany);
	ck_assert_ptr_eq(ptree_delete(t, &host), &va);
	ck_assert_ptr_eq(ptree_delete(t, &b), &vb);
	ck_assert_uint_eq(ptree_count(t), 0);
	ck_assert_uint_le(ptree_memory(t), mem_empty + 1024);
	ptree_free(t, NULL);
	ck_assert_ptr_null(ptree_new(AF_UNIX));
}
END_TEST

struct collect {
	void *v[8];
	int n, stop_at;
};

static int collect_cb(const struct prefix *p, void *value, void *arg)
{
	struct collect *c = arg;

	(void)p;
	c->v[c->n++] = value;
	return c->n == c->stop_at ? 7 : 0;
}

/* The covering walk skips glue, other branches and NULL slots, and stops when asked. */
START_TEST(test_walk_covering)
{
	struct ptree *t = ptree_new(AF_INET);
	struct prefix any = P("0.0.0.0/0"), a = P("10.0.0.0/24"), b = P("10.0.1.0/24");
	struct prefix host = P("10.0.1.77/32"), wide = P("10.0.0.0/8"), q;
	struct collect c = { 0 };
	int va, vb, vany, vhost;

	*ptree_get(t, &a) = &va;
	*ptree_get(t, &b) = &vb; /* glue 10.0.0.0/23 above them */
	*ptree_get(t, &host) = &vhost;
	ck_assert_int_eq(ptree_walk_covering(t, &host, collect_cb, &c), 0);
	ck_assert_int_eq(c.n, 2);
	ck_assert_ptr_eq(c.v[0], &vb);
	ck_assert_ptr_eq(c.v[1], &vhost);

	*ptree_get(t, &any) = &vany;
	ck_assert_ptr_nonnull(ptree_get(t, &wide)); /* NULL slot: not visited */
	c.n = 0;
	q = P("10.0.1.128/25"); /* not stored itself: its coverers are */
	ck_assert_int_eq(ptree_walk_covering(t, &q, collect_cb, &c), 0);
	ck_assert_int_eq(c.n, 2);
	ck_assert_ptr_eq(c.v[0], &vany);
	ck_assert_ptr_eq(c.v[1], &vb);

	c.n = 0;
	c.stop_at = 2;
	ck_assert_int_eq(ptree_walk_covering(t, &host, collect_cb, &c), 7);
	ck_assert_int_eq(c.n, 2);

	c.n = 0;
	c.stop_at = 0;
	q = P("2001:db8::/32");
	ck_assert_int_eq(ptree_walk_covering(t, &q, collect_cb, &c), 0);
	ck_assert_int_eq(c.n, 0);
	ptree_free(t, NULL);
}
END_TEST

static int freed;

static void free_value(void *v)
{
	freed++;
	free(v);
}

START_TEST(test_free_values)
{
	struct ptree *t = ptree_new(AF_INET6);
	struct prefix p;

	for (int i = 0; i < 1000; i++) {
		random_prefix(AF_INET6, &p, 0, 128);
		void **slot = ptree_get(t, &p);

		if (!*slot)
			*slot = malloc(8);
	}
	ck_assert_uint_gt(ptree_count(t), 900);
	freed = 0;
	{
		int expect = (int)ptree_count(t);

		ptree_free(t, free_value);
		ck_assert_int_eq(freed, expect);
	}
}
END_TEST

/*
 * Inline values (ptree_new_inline()): a value is created zeroed once, keeps its address while
 * other prefixes come and go (glue made, converted and reclaimed around it), gives its prefix
 * back by itself, and goes with its node; an emptied tree gives its node memory back.
 */
struct inline_val {
	struct prefix p; /* what the test wrote on creation */
	uint32_t tag;	 /* 4-byte aligned, as inline values are */
};

static void check_inline(int family, unsigned maxlen)
{
	enum { N = 3000 };
	struct ptree *t = ptree_new_inline(family, sizeof(struct inline_val));
	static struct ref refs[N];
	static struct inline_val *addr[N];
	size_t initial = ptree_memory(t), live = 0;
	struct prefix q;
	uint8_t *spare;
	bool created;

	ck_assert_ptr_nonnull(t);
	/* The pointer interface is refused on an inline tree. */
	random_prefix(family, &q, 0, maxlen);
	ck_assert_ptr_null(ptree_get(t, &q));
	ck_assert_uint_eq(ptree_count(t), 0);
	for (size_t i = 0; i < N; i++) {
		struct inline_val *v;

		random_prefix(family, &refs[i].p, 0, maxlen);
		v = ptree_get_inline(t, &refs[i].p, &created);
		FAST_ASSERT(v != NULL);
		if (!created) {
			/* A duplicate of an earlier draw: same value, already written. */
			FAST_EQ(v->tag, 0x5eedu);
			FAST_EQ(prefix_cmp(&v->p, &refs[i].p), 0);
			refs[i].present = false;
			continue;
		}
		FAST_EQ(v->tag, 0u);
		FAST_EQ(v->p.len, 0);
		/* The node's spare bytes: zero when made, the value's owner's to write. */
		spare = ptree_inline_spare(family, v);
		FAST_EQ(spare[0] | spare[1] | spare[2], 0);
		memset(spare, (int)(i & 0xff) | 1, PT_INLINE_SPARE);
		FAST_EQ(ptree_inline_len(family, v), refs[i].p.len);
		v->p = refs[i].p;
		v->tag = 0x5eedu;
		addr[i] = v;
		refs[i].present = true;
		live++;
	}
	ck_assert_uint_eq(ptree_count(t), live);
	/* Delete every other one, then check the rest did not move or change. */
	for (size_t i = 0; i < N; i += 2)
		if (refs[i].present) {
			FAST_ASSERT(ptree_delete(t, &refs[i].p) != NULL);
			FAST_ASSERT(ptree_lookup(t, &refs[i].p) == NULL);
			refs[i].present = false;
			live--;
		}
	ck_assert_uint_eq(ptree_count(t), live);
	for (size_t i = 0; i < N; i++) {
		struct prefix back;

		if (!refs[i].present)
			continue;
		FAST_ASSERT(ptree_lookup(t, &refs[i].p) == addr[i]);
		FAST_EQ(prefix_cmp(&addr[i]->p, &refs[i].p), 0);
		FAST_EQ(addr[i]->tag, 0x5eedu);
		/* ... kept while glue nodes came and went around the node */
		spare = ptree_inline_spare(family, addr[i]);
		for (size_t k = 0; k < PT_INLINE_SPARE; k++)
			FAST_EQ(spare[k], (i & 0xff) | 1);
		ptree_inline_prefix(family, addr[i], &back);
		FAST_EQ(prefix_cmp(&back, &refs[i].p), 0);
		FAST_ASSERT(ptree_get_inline(t, &refs[i].p, &created) == addr[i] && !created);
	}
	/* A deleted prefix comes back as a new, zeroed value. */
	for (size_t i = 0; i < N; i += 2)
		if (!ptree_lookup(t, &refs[i].p)) {
			struct inline_val *v = ptree_get_inline(t, &refs[i].p, &created);

			ck_assert(created);
			ck_assert_uint_eq(v->tag, 0);
			spare = ptree_inline_spare(family, v);
			ck_assert_uint_eq(spare[0] | spare[1] | spare[2], 0);
			ck_assert_ptr_nonnull(ptree_delete(t, &refs[i].p));
			break;
		}
	/* Empty it: every node and chunk goes. */
	for (size_t i = 0; i < N; i++)
		if (refs[i].present)
			FAST_ASSERT(ptree_delete(t, &refs[i].p) != NULL);
	ck_assert_uint_eq(ptree_count(t), 0);
	/* Only the chunk tables stay (about a kilobyte with IPv6's two node sizes; the nodes
	 * took over 100 KB). */
	ck_assert_uint_lt(ptree_memory(t), initial + 2048);
	ptree_free(t, NULL);
}

START_TEST(test_inline_values)
{
	struct ptree *t;
	struct prefix p;

	check_inline(AF_INET, 32);
	check_inline(AF_INET6, 128);
	/* The node sizes the RIB's budget counts on: the key, the 12-byte header, the value
	 * right after it, 4-aligned, so a 20-byte value makes a 36-byte IPv4 node, a 40-byte
	 * IPv6 node up to /64 (an 8-byte key) and a 48-byte longer one, and a 22-byte value is
	 * rounded up to 4. ptree_entry_size() is the largest. */
	t = ptree_new_inline(AF_INET, 20);
	ck_assert_uint_eq(ptree_entry_size(t), 36);
	ck_assert_uint_eq(ptree_entry_size_len(t, 0), 36);
	ck_assert_uint_eq(ptree_entry_size_len(t, 32), 36);
	ptree_free(t, NULL);
	t = ptree_new_inline(AF_INET6, 20);
	ck_assert_uint_eq(ptree_entry_size(t), 48);
	ck_assert_uint_eq(ptree_entry_size_len(t, 0), 40);
	ck_assert_uint_eq(ptree_entry_size_len(t, 64), 40);
	ck_assert_uint_eq(ptree_entry_size_len(t, 65), 48);
	ck_assert_uint_eq(ptree_entry_size_len(t, 128), 48);
	ptree_free(t, NULL);
	t = ptree_new_inline(AF_INET6, 22);
	ck_assert_uint_eq(ptree_entry_size(t), 52);
	ck_assert_uint_eq(ptree_entry_size_len(t, 48), 44);
	ptree_free(t, NULL);
	/* A pointer tree's slot is 8-aligned: IPv4 24 bytes, IPv6 32 up to /64, else 40. */
	t = ptree_new(AF_INET);
	ck_assert_uint_eq(ptree_entry_size(t), 24);
	ptree_free(t, NULL);
	t = ptree_new(AF_INET6);
	ck_assert_uint_eq(ptree_entry_size_len(t, 64), 32);
	ck_assert_uint_eq(ptree_entry_size(t), 40);
	ptree_free(t, NULL);
	/* A pointer tree refuses the inline interface; sizes out of range are refused. */
	t = ptree_new(AF_INET);
	random_prefix(AF_INET, &p, 0, 32);
	ck_assert_ptr_null(ptree_get_inline(t, &p, NULL));
	ptree_free(t, NULL);
	ck_assert_ptr_null(ptree_new_inline(AF_INET, 0));
	ck_assert_ptr_null(ptree_new_inline(AF_INET, PT_INLINE_MAX + 1));
}
END_TEST

/* The budget: a million random IPv4 prefixes of lengths 8..24. */
START_TEST(test_memory_budget)
{
	enum { N = 1000000 };
	struct ptree *t = ptree_new(AF_INET);
	size_t initial = ptree_memory(t), mem, count, draws;
	static int value;
	struct prefix p;
	double per;

	rng = 0x9e3779b97f4a7c15ull;
	/* short lengths repeat (there are only 256 /8s): draw until a million are distinct */
	for (draws = 0; ptree_count(t) < N; draws++) {
		memset(&p, 0, sizeof(p));
		p.family = AF_INET;
		p.u.v4.s_addr = rnd();
		p.len = (uint8_t)(8 + rnd() % 17);
		prefix_apply_mask(&p);
		*ptree_get(t, &p) = &value;
	}
	count = ptree_count(t);
	mem = ptree_memory(t);
	per = (double)mem / (double)count;
	printf("check_table: %zu distinct IPv4 prefixes (%zu random /8../24 drawn) in %zu bytes: "
	       "%.2f bytes per prefix (budget 48)\n",
	       count, draws, mem, per);
	ck_assert_uint_eq(count, N);
	ck_assert_msg(per <= 48.0, "%.2f bytes per prefix exceeds the 48-byte budget", per);

	/* delete everything, in walk order: memory returns to nearly the initial */
	for (void *v = ptree_first(t, &p); v; v = ptree_first(t, &p))
		FAST_EQ(ptree_delete(t, &p), v);
	ck_assert_uint_eq(ptree_count(t), 0);
	ck_assert_ptr_null(ptree_first(t, &p));
	mem = ptree_memory(t);
	printf("check_table: after deleting all: %zu bytes (empty tree: %zu)\n", mem, initial);
	ck_assert_uint_le(mem, initial + 32768);
	ptree_free(t, NULL);
}
END_TEST

/* Around /64, where nodes take the short key or the full one (lib/table.c's size classes):
 * inserts and deletes in random orders, with and without the directory, the index's churn,
 * and inline values (their prefix and length read back from the value alone). */
START_TEST(test_ipv6_key_classes)
{
	near64 = true;
	run_random(AF_INET6, 20000, false);
	run_random(AF_INET6, 20000, true);
	run_directory_churn(AF_INET6, 2000);
	run_index_churn(AF_INET6, 3000);
	check_inline(AF_INET6, 128);
	near64 = false;
}
END_TEST

/*
 * IPv6's budget: 200,000 random prefixes of 2000::/3, /29../64 as an internet table's are.
 * Every node, stored or glue, has an 8-byte key: a stored node (pointer slot) is 32 bytes
 * and a glue node 20, at most 52 a prefix, and the last chunks' unused room: budget 53 (with
 * 16-byte keys the nodes were 40 and 28 bytes, 68 a prefix).
 */
START_TEST(test_memory_budget_ipv6)
{
	enum { N = 200000 };
	struct ptree *t = ptree_new(AF_INET6);
	size_t mem, count;
	static int value;
	struct prefix p;
	double per;

	/* the nodes alone: without the directory's 256 KiB (1.3 bytes a prefix here) */
	ptree_directory_thresholds(t, SIZE_MAX, SIZE_MAX);
	rng = 0x2545f4914f6cdd1dull;
	while (ptree_count(t) < N) {
		memset(&p, 0, sizeof(p));
		p.family = AF_INET6;
		for (size_t i = 0; i < 8; i++)
			p.u.bytes[i] = (uint8_t)rnd();
		p.u.bytes[0] = (uint8_t)(0x20 | (p.u.bytes[0] & 0x1f));
		p.len = (uint8_t)(29 + rnd() % 36);
		prefix_apply_mask(&p);
		*ptree_get(t, &p) = &value;
	}
	count = ptree_count(t);
	mem = ptree_memory(t);
	per = (double)mem / (double)count;
	printf("check_table: %zu IPv6 prefixes /29../64 in %zu bytes: %.2f bytes per prefix "
	       "(budget 53)\n",
	       count, mem, per);
	ck_assert_msg(per <= 53.0, "%.2f bytes per prefix exceeds the 53-byte budget", per);
	ptree_free(t, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120); /* sanitizer builds are several times slower */
	tcase_add_test(tc, test_glue_and_edges);
	tcase_add_test(tc, test_walk_covering);
	tcase_add_test(tc, test_random_ipv4);
	tcase_add_test(tc, test_random_ipv6);
	tcase_add_test(tc, test_ipv6_key_classes);
	tcase_add_test(tc, test_directory_churn);
	tcase_add_test(tc, test_directory_base_ipv6);
	tcase_add_test(tc, test_index_churn);
	tcase_add_test(tc, test_free_values);
	tcase_add_test(tc, test_inline_values);
	tcase_add_test(tc, test_memory_budget);
	tcase_add_test(tc, test_memory_budget_ipv6);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
