/* SPDX-License-Identifier: ISC */
/*
 * Interning of attribute sets, extras and AS paths (bgp_attr_intern.c, bgp_aspath.c): sharing,
 * the extras block, the compact index under churn (backward-shift deletion, growth and
 * shrinking), slab reuse, and the MP next hop accessors.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/log.h"

static struct bgp_aspath *path(const char *s)
{
	struct bgp_aspath *p = bgp_aspath_from_str(s);

	ck_assert_msg(p != NULL, "cannot parse \"%s\"", s);
	return p;
}

/* Template number i: distinct for distinct i (MED and next hop), AS path shared by 16. */
static void tmpl(struct bgp_attr *t, uint32_t i, struct bgp_aspath *p)
{
	memset(t, 0, sizeof(*t));
	t->present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		     ATTR_BIT(BGP_ATTR_NEXT_HOP) | ATTR_BIT(BGP_ATTR_MED);
	t->aspath = p;
	t->med = i;
	t->nexthop.s_addr = htonl(0x0a000000u + (i % 7));
}

static void teardown(void)
{
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_eq(bgp_attr_extra_count(), 0);
	bgp_attr_finish();
}

START_TEST(test_share)
{
	struct bgp_aspath *p = path("65001 65002");
	struct bgp_attr t, *a, *b, *c;

	tmpl(&t, 1, p);
	a = bgp_attr_intern(&t);
	b = bgp_attr_intern(&t);
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(a->refcnt, 2);
	ck_assert_uint_eq(bgp_attr_count(), 1);
	/* The interned copy holds its own AS path reference: the template's can go. */
	ck_assert_uint_eq(p->refcnt, 2);
	t.med = 2;
	c = bgp_attr_intern(&t);
	ck_assert_ptr_ne(a, c);
	ck_assert_uint_eq(bgp_attr_count(), 2);
	/* Sets live in slabs, not one malloc each. */
	ck_assert_uint_le(sizeof(struct bgp_attr), 88);
	ck_assert_uint_gt(bgp_attr_memory(), 0);
	bgp_aspath_unref(p);
	bgp_attr_unref(a);
	bgp_attr_unref(b);
	bgp_attr_unref(c);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_eq(bgp_attr_aspath_count(), 0);
}
END_TEST

/*
 * The decision's LLGR_STALE check reads a bit of the set, not its list: the bit says what the
 * interned list holds, whatever the template that was copied from another set said.
 */
START_TEST(test_llgr_stale_bit)
{
	const uint32_t stale[] = { 0xfde80001u, BGP_COMM_LLGR_STALE },
		       plain[] = { 0xfde80001u, 0xfde80002u };
	struct bgp_aspath *p = path("65001 65002");
	struct bgp_attr t, *none, *with, *without, *copied;

	tmpl(&t, 1, p);
	none = bgp_attr_intern(&t);
	ck_assert(!none->llgr_stale);
	t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	t.communities = bgp_u32list_intern(stale, 2);
	with = bgp_attr_intern(&t);
	ck_assert(with->llgr_stale);
	ck_assert_ptr_eq(bgp_attr_intern(&t), with); /* found: the bit stays */
	ck_assert(with->llgr_stale);
	bgp_u32list_unref(t.communities);
	/* A stale set's copy with another list, then with a template's bit that lies. */
	t = *with;
	t.communities = bgp_u32list_intern(plain, 2);
	without = bgp_attr_intern(&t);
	ck_assert_ptr_ne(without, with);
	ck_assert(!without->llgr_stale);
	bgp_u32list_unref(t.communities);
	t = *none;
	t.llgr_stale = 1;
	copied = bgp_attr_intern(&t);
	ck_assert_ptr_eq(copied, none);
	ck_assert(!copied->llgr_stale);
	bgp_aspath_unref(p);
	bgp_attr_unref(none);
	bgp_attr_unref(with);
	bgp_attr_unref(with);
	bgp_attr_unref(without);
	bgp_attr_unref(copied);
}
END_TEST

START_TEST(test_extras)
{
	struct bgp_aspath *p = path("65001");
	struct bgp_attr t, *a, *b, *c, *d;
	struct bgp_attr_extra ex, ex2;
	uint32_t cl[2] = { 1, 2 };

	/* All-zero extras are no extras. */
	tmpl(&t, 1, p);
	memset(&ex, 0, sizeof(ex));
	t.extra = &ex;
	a = bgp_attr_intern(&t);
	ck_assert_ptr_null(a->extra);
	ck_assert_uint_eq(bgp_attr_ex(a)->aggregator_as, 0);
	ck_assert_uint_eq(bgp_attr_extra_count(), 0);

	/* An aggregator: one interned block, shared by sets that differ elsewhere. */
	t.present |= ATTR_BIT(BGP_ATTR_AGGREGATOR);
	ex.aggregator_as = 65010;
	ex.aggregator_addr.s_addr = htonl(0xc0000201);
	b = bgp_attr_intern(&t);
	ck_assert_ptr_nonnull(b->extra);
	ck_assert_ptr_ne(b->extra, &ex);
	ck_assert_uint_eq(bgp_attr_ex(b)->aggregator_as, 65010);
	t.med = 2;
	c = bgp_attr_intern(&t);
	ck_assert_ptr_ne(b, c);
	ck_assert_ptr_eq(b->extra, c->extra);
	ck_assert_uint_eq(bgp_attr_extra_count(), 1);

	/* A template pointing at an interned block (a copy of a stored set) finds the set. */
	t = *b;
	d = bgp_attr_intern(&t);
	ck_assert_ptr_eq(d, b);
	bgp_attr_unref(d);

	/* A cluster list: the block holds its own reference to the list. */
	ex2 = ex;
	ex2.cluster_list = bgp_u32list_intern(cl, 2);
	t.extra = &ex2;
	d = bgp_attr_intern(&t);
	ck_assert_ptr_ne(d->extra, b->extra);
	ck_assert_uint_eq(bgp_attr_extra_count(), 2);
	ck_assert_uint_eq(ex2.cluster_list->refcnt, 2);
	bgp_u32list_unref(ex2.cluster_list);
	ck_assert_uint_eq(bgp_attr_ex(d)->cluster_list->val[1], 2);

	bgp_attr_unref(d);
	ck_assert_uint_eq(bgp_attr_extra_count(), 1);
	ck_assert_uint_eq(bgp_attr_list_count(), 0);
	bgp_attr_unref(a);
	bgp_attr_unref(b);
	bgp_attr_unref(c);
	bgp_aspath_unref(p);
}
END_TEST

START_TEST(test_mp_nexthop)
{
	struct bgp_attr t, *a, *b;
	struct bgp_attr_extra ex;
	struct in6_addr g, l;
	const struct bgp_attr_extra *held;
	size_t extras;

	inet_pton(AF_INET6, "2001:db8::1", &g);
	inet_pton(AF_INET6, "fe80::1", &l);
	tmpl(&t, 1, NULL);
	t.present &= ~ATTR_BIT(BGP_ATTR_NEXT_HOP);
	bgp_attr_set_mp_nh(&t, &ex, 32, &g, &l);
	ck_assert_uint_eq(t.mp_nh_len, 32);
	ck_assert_mem_eq(bgp_attr_mp_nh_global(&t), &g, 16);
	ck_assert_mem_eq(bgp_attr_mp_nh_local(&t), &l, 16);
	a = bgp_attr_intern(&t);
	ck_assert_uint_eq(a->mp_nh_len, 32);
	ck_assert_mem_eq(bgp_attr_mp_nh_global(a), &g, 16);
	ck_assert_mem_eq(bgp_attr_mp_nh_local(a), &l, 16);
	/* Dropping the link-local one makes another set. */
	t = *a;
	bgp_attr_set_mp_nh(&t, &ex, 16, bgp_attr_mp_nh_global(a), NULL);
	b = bgp_attr_intern(&t);
	ck_assert_ptr_ne(a, b);
	ck_assert_mem_eq(bgp_attr_mp_nh_global(b), &g, 16);
	ck_assert(IN6_IS_ADDR_UNSPECIFIED(bgp_attr_mp_nh_local(b)));
	/* A template may hold an interned extras block of its own. */
	memset(&ex, 0, sizeof(ex));
	ex.originator_id.s_addr = htonl(0x0a000009);
	extras = bgp_attr_extra_count();
	held = bgp_attr_extra_intern(&ex);
	ck_assert_ptr_nonnull(held);
	ck_assert_ptr_eq(bgp_attr_extra_intern(&ex), held);
	ck_assert_uint_eq(bgp_attr_extra_count(), extras + 1);
	bgp_attr_extra_unref(held);
	bgp_attr_extra_unref(held);
	ck_assert_ptr_null(bgp_attr_extra_intern(&bgp_attr_extra_none));
	bgp_attr_unref(a);
	bgp_attr_unref(b);
}
END_TEST

/* The block interned last is given again without a probe, and never once it is freed. */
START_TEST(test_extras_last)
{
	struct bgp_attr_extra ex, ex2;
	const struct bgp_attr_extra *a, *b, *c;

	memset(&ex, 0, sizeof(ex));
	inet_pton(AF_INET6, "2001:db8::1", &ex.mp_nh_global);
	ex2 = ex;
	ex2.mp_nh_global.s6_addr[15] = 2;
	a = bgp_attr_extra_intern(&ex);
	ck_assert_ptr_eq(bgp_attr_extra_intern(&ex), a);
	ck_assert_uint_eq(a->refcnt, 2);
	b = bgp_attr_extra_intern(&ex2);
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_eq(bgp_attr_extra_intern(&ex), a);
	ck_assert_uint_eq(a->refcnt, 3);
	ck_assert_uint_eq(bgp_attr_extra_count(), 2);
	/* the last one (a) freed, then interned again: a new live block */
	bgp_attr_extra_unref(a);
	bgp_attr_extra_unref(a);
	bgp_attr_extra_unref(a);
	ck_assert_uint_eq(bgp_attr_extra_count(), 1);
	c = bgp_attr_extra_intern(&ex);
	ck_assert_uint_eq(bgp_attr_extra_count(), 2);
	ck_assert_uint_eq(c->refcnt, 1);
	ck_assert_mem_eq(&c->mp_nh_global, &ex.mp_nh_global, 16);
	bgp_attr_extra_unref(c);
	bgp_attr_extra_unref(b);
}
END_TEST

/* Many sets, freed in a scattered order: every survivor must still be found (backward-shift
 * deletion keeps probe runs intact), and the index shrinks back. */
START_TEST(test_churn)
{
	enum { N = 50000 };
	struct bgp_aspath *p[N / 16];
	struct bgp_attr **a = calloc(N, sizeof(*a)), t;
	size_t mem_full, mem_empty;

	for (uint32_t i = 0; i < N / 16; i++) {
		char s[64];

		snprintf(s, sizeof(s), "65001 %u %u", 1000 + i, 70000 + i % 13);
		p[i] = path(s);
	}
	for (uint32_t i = 0; i < N; i++) {
		tmpl(&t, i, p[i / 16]);
		a[i] = bgp_attr_intern(&t);
	}
	ck_assert_uint_eq(bgp_attr_count(), N);
	mem_full = bgp_attr_memory();
	/* Drop two thirds, scattered (i * 7919 mod N visits every i once). */
	for (uint32_t k = 0; k < N; k++) {
		uint32_t i = (uint32_t)(((uint64_t)k * 7919) % N);

		if (i % 3) {
			bgp_attr_unref(a[i]);
			a[i] = NULL;
		}
	}
	ck_assert_uint_eq(bgp_attr_count(), (N + 2) / 3);
	for (uint32_t i = 0; i < N; i++) {
		struct bgp_attr *b;

		tmpl(&t, i, p[i / 16]);
		b = bgp_attr_intern(&t);
		if (a[i])
			ck_assert_ptr_eq(b, a[i]);
		else
			a[i] = b; /* a new one, re-using freed slab room */
		if (b != a[i] || i % 3 == 0)
			bgp_attr_unref(b);
	}
	ck_assert_uint_eq(bgp_attr_count(), N);
	/* Re-created sets took the freed room: no growth beyond the first fill. */
	ck_assert_uint_le(bgp_attr_memory(), mem_full);
	for (uint32_t i = 0; i < N; i++)
		bgp_attr_unref(a[i]);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	/* The index and the emptied slab chunks went back (what stays: one chunk with room,
	 * the minimum index, the table of chunk numbers): after a withdrawal, memory returns
	 * to about that of an empty daemon. */
	mem_empty = bgp_attr_memory();
	ck_assert_uint_lt(mem_empty, mem_full);
	ck_assert_uint_le(mem_empty, 64 * 1024);
	mem_full = bgp_aspath_memory();
	for (uint32_t i = 0; i < N / 16; i++)
		bgp_aspath_unref(p[i]);
	ck_assert_uint_eq(bgp_attr_aspath_count(), 0);
	ck_assert_uint_le(bgp_aspath_memory(), mem_full / 8);
	free(a);
}
END_TEST

/* AS paths of every length class, a long one past the slabs, reused after free. */
START_TEST(test_aspath_sizes)
{
	static char s[8192];
	struct bgp_aspath *p[300];
	size_t o, mem;

	for (unsigned n = 0; n < 300; n++) {
		o = 0;
		for (unsigned k = 0; k < n; k++)
			o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%u", k ? " " : "",
					      65000 + k);
		s[o] = '\0';
		p[n] = path(s);
		ck_assert_uint_eq(p[n]->path_len, n);
		/* Segments of at most 255 ASes: 2 header bytes each, 4 per AS. */
		ck_assert_uint_eq(p[n]->len, 4 * n + 2 * ((n + 254) / 255));
		if (n && n <= 255)
			ck_assert_uint_eq(bgp_get_u32(p[n]->data + 2 + 4 * (n - 1)), 65000 + n - 1);
	}
	/* Equal paths are one object, whatever its size class. */
	ck_assert_ptr_eq(path(s), p[299]);
	bgp_aspath_unref(p[299]);
	mem = bgp_aspath_memory();
	for (unsigned n = 0; n < 300; n++)
		bgp_aspath_unref(p[n]);
	ck_assert_uint_eq(bgp_aspath_count(), 0);
	for (unsigned n = 1; n < 60; n++) {
		o = 0;
		for (unsigned k = 0; k < n; k++)
			o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%u", k ? " " : "", 1 + k);
		s[o] = '\0';
		p[n] = path(s);
	}
	ck_assert_uint_le(bgp_aspath_memory(), mem);
	for (unsigned n = 1; n < 60; n++)
		bgp_aspath_unref(p[n]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_intern");
	TCase *tc = tcase_create("intern");
	SRunner *sr;
	int failed;

	log_init("check_bgp_intern");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_share);
	tcase_add_test(tc, test_llgr_stale_bit);
	tcase_add_test(tc, test_extras);
	tcase_add_test(tc, test_mp_nexthop);
	tcase_add_test(tc, test_extras_last);
	tcase_add_test(tc, test_churn);
	tcase_add_test(tc, test_aspath_sizes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
