/* SPDX-License-Identifier: ISC */
/*
 * bgp_blaster's prefix set against a plain bitmap: random announce/withdraw churn over a
 * range small enough to mirror exactly, with growth from a tiny table, both families, and the
 * same address under different lengths kept apart.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bench/blaster.h"

static struct prefix v4(uint32_t addr, uint8_t len)
{
	struct prefix p;

	memset(&p, 0, sizeof(p));
	p.family = AF_INET;
	p.len = len;
	p.u.v4.s_addr = htonl(addr);
	return p;
}

START_TEST(test_basic)
{
	struct pset s;
	struct prefix a = v4(0x0a000000, 24), b = v4(0x0a000000, 16), c;

	pset_init(&s, 1);
	ck_assert(pset_add(&s, &a));
	ck_assert(!pset_add(&s, &a)); /* re-announcement: counted once */
	ck_assert(pset_add(&s, &b));  /* same address, other length: another prefix */
	ck_assert_uint_eq(s.count, 2);
	memset(&c, 0, sizeof(c));
	c.family = AF_INET6;
	c.len = 24;
	memcpy(c.u.bytes, &a.u.v4, 4); /* same bytes, other family */
	ck_assert(pset_add(&s, &c));
	ck_assert_uint_eq(s.count, 3);
	ck_assert(pset_del(&s, &a));
	ck_assert(!pset_del(&s, &a));
	ck_assert(pset_del(&s, &c));
	ck_assert(pset_del(&s, &b));
	ck_assert_uint_eq(s.count, 0);
	pset_free(&s);
}
END_TEST

START_TEST(test_churn_against_bitmap)
{
	enum { RANGE = 1 << 16, OPS = 400000 };
	static uint8_t ref[RANGE];
	struct pset s;
	unsigned seed = 7, i;
	size_t count = 0;

	memset(ref, 0, sizeof(ref));
	pset_init(&s, 1); /* grows many times */
	for (i = 0; i < OPS; i++) {
		struct prefix p;
		uint32_t k;
		bool add, changed;

		seed = seed * 1103515245u + 12345u;
		k = (seed >> 8) % RANGE;
		/* Mostly additions early, then balanced churn: long probe runs get deleted from. */
		add = i < OPS / 4 ? (seed & 3) != 0 : (seed & 1) != 0;
		p = v4(0x10000000u + (k << 8), 24);
		if (add) {
			changed = pset_add(&s, &p);
			ck_assert_int_eq(changed, !ref[k]);
			count += changed;
			ref[k] = 1;
		} else {
			changed = pset_del(&s, &p);
			ck_assert_int_eq(changed, ref[k]);
			count -= changed;
			ref[k] = 0;
		}
		ck_assert_uint_eq(s.count, count);
	}
	/* Every entry still findable: deleting what the bitmap holds empties the set. */
	for (i = 0; i < RANGE; i++) {
		struct prefix p = v4(0x10000000u + (i << 8), 24);

		ck_assert_int_eq(pset_del(&s, &p), ref[i]);
	}
	ck_assert_uint_eq(s.count, 0);
	pset_free(&s);
}
END_TEST

START_TEST(test_ipv6)
{
	struct pset s;
	struct prefix p;
	unsigned i;

	pset_init(&s, 100);
	for (i = 0; i < 50000; i++) {
		ck_assert_int_eq(prefix_from_str(&p, "2001:db8::/48", true), 0);
		p.u.bytes[4] = (uint8_t)(i >> 8);
		p.u.bytes[5] = (uint8_t)i;
		p.u.bytes[15] = 0;
		ck_assert(pset_add(&s, &p));
	}
	ck_assert_uint_eq(s.count, 50000);
	for (i = 0; i < 50000; i += 2) {
		ck_assert_int_eq(prefix_from_str(&p, "2001:db8::/48", true), 0);
		p.u.bytes[4] = (uint8_t)(i >> 8);
		p.u.bytes[5] = (uint8_t)i;
		ck_assert(pset_del(&s, &p));
	}
	ck_assert_uint_eq(s.count, 25000);
	pset_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("blaster_pset");
	TCase *tc = tcase_create("pset");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_churn_against_bitmap);
	tcase_add_test(tc, test_ipv6);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
