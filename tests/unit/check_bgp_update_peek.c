/* SPDX-License-Identifier: ISC */
/*
 * bgp_update_peek(): the prefixes of UPDATEs read ahead of their decode, as a hint for the
 * RIB. It must give the decode's prefixes, family by family and in order, stop at its limit,
 * add up across UPDATEs, and never read outside its input whatever the bytes (every
 * truncation in an exact-size buffer, for ASan, and mutations).
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_update.h"
#include "tests/unit/codec_test.h"

static const struct bgp_codec_ctx ebgp = {
	.as4 = true, .ebgp = true, .local_as = 65002, .peer_as = 65001
};

static void zero(struct bgp_update_peek *pk)
{
	memset(pk->n, 0, sizeof(pk->n));
}

/* The decode's prefixes of af (withdrawn, then announced) equal pk's, in order. */
static void same_as_decode(const struct bgp_update_peek *pk, struct bgp_update *u, enum bgp_af af,
			   unsigned want)
{
	struct prefix p;
	unsigned i = 0;

	while (bgp_nlri_next(&u->withdrawn[af], af, &p)) {
		ck_assert_uint_lt(i, pk->n[af]);
		ck_assert_msg(prefix_same(&p, &pk->p[af][i]), "af %d prefix %u", af, i);
		i++;
	}
	while (bgp_nlri_next(&u->announced[af], af, &p)) {
		ck_assert_uint_lt(i, pk->n[af]);
		ck_assert_msg(prefix_same(&p, &pk->p[af][i]), "af %d prefix %u", af, i);
		i++;
	}
	ck_assert_uint_eq(i, pk->n[af]);
	ck_assert_uint_eq(i, want);
}

START_TEST(test_peek_gives_the_decodes_prefixes)
{
	uint8_t b[512];
	size_t len = rich_update(b, sizeof(b));
	struct bgp_update_peek pk;
	struct bgp_update u;
	struct bgp_error e;

	zero(&pk);
	ck_assert(bgp_update_peek(b, len, &pk));
	ck_assert_int_eq(bgp_update_decode(&u, b, len, &ebgp, &e), 0);
	same_as_decode(&pk, &u, BGP_AF_IPV4_UNICAST, 5);
	same_as_decode(&pk, &u, BGP_AF_IPV6_UNICAST, 3);
	bgp_update_release(&u);
}
END_TEST

/* A body announcing n consecutive /24s from 10.<first>.0.0 (no attributes: the peek does not
 * read them). Returns its length. */
static size_t nlri_body(uint8_t *b, unsigned first, unsigned n)
{
	size_t o = 0;

	b[o++] = 0; /* no withdrawn routes */
	b[o++] = 0;
	b[o++] = 0; /* no attributes */
	b[o++] = 0;
	for (unsigned i = 0; i < n; i++) {
		b[o++] = 24;
		b[o++] = 10;
		b[o++] = (uint8_t)((first + i) >> 8);
		b[o++] = (uint8_t)(first + i);
	}
	return o;
}

static void is_slash24(const struct prefix *p, unsigned k)
{
	struct prefix want;
	char s[32];

	snprintf(s, sizeof(s), "10.%u.%u.0/24", (k >> 8) & 0xff, k & 0xff);
	ck_assert_int_eq(prefix_from_str(&want, s, true), 0);
	ck_assert_msg(prefix_same(p, &want), "want %s", s);
}

START_TEST(test_peek_stops_at_its_limit)
{
	uint8_t b[4096];
	size_t len = nlri_body(b, 0, 100);
	struct bgp_update_peek pk;

	zero(&pk);
	ck_assert(!bgp_update_peek(b, len, &pk)); /* full: the caller stops */
	ck_assert_uint_eq(pk.n[BGP_AF_IPV4_UNICAST], BGP_PEEK_MAX);
	ck_assert_uint_eq(pk.n[BGP_AF_IPV6_UNICAST], 0);
	for (unsigned i = 0; i < BGP_PEEK_MAX; i++)
		is_slash24(&pk.p[BGP_AF_IPV4_UNICAST][i], i);
	/* Full already: a further UPDATE adds nothing. */
	len = nlri_body(b, 500, 2);
	ck_assert(!bgp_update_peek(b, len, &pk));
	ck_assert_uint_eq(pk.n[BGP_AF_IPV4_UNICAST], BGP_PEEK_MAX);
}
END_TEST

START_TEST(test_peek_adds_up_across_updates)
{
	uint8_t b[64];
	struct bgp_update_peek pk;
	unsigned k = 0;

	zero(&pk);
	/* UPDATEs of 3 prefixes, as a full table comes: as many as leave room, then one that
	 * fills the list. */
	for (unsigned m = 0; m < (BGP_PEEK_MAX - 1) / 3; m++, k += 3)
		ck_assert(bgp_update_peek(b, nlri_body(b, k, 3), &pk));
	ck_assert_uint_eq(pk.n[BGP_AF_IPV4_UNICAST], k);
	ck_assert_uint_lt(k, BGP_PEEK_MAX);
	ck_assert(!bgp_update_peek(b, nlri_body(b, k, 3), &pk));
	ck_assert_uint_eq(pk.n[BGP_AF_IPV4_UNICAST], BGP_PEEK_MAX);
	for (unsigned i = 0; i < BGP_PEEK_MAX; i++)
		is_slash24(&pk.p[BGP_AF_IPV4_UNICAST][i], i);
}
END_TEST

/* Whatever it was given: within its limit, and only prefixes a family can hold. */
static void sane(const struct bgp_update_peek *pk)
{
	ck_assert_uint_le(pk->n[BGP_AF_IPV4_UNICAST], BGP_PEEK_MAX);
	ck_assert_uint_le(pk->n[BGP_AF_IPV6_UNICAST], BGP_PEEK_MAX);
	for (unsigned i = 0; i < pk->n[BGP_AF_IPV4_UNICAST]; i++)
		ck_assert(pk->p[BGP_AF_IPV4_UNICAST][i].family == AF_INET &&
			  pk->p[BGP_AF_IPV4_UNICAST][i].len <= 32);
	for (unsigned i = 0; i < pk->n[BGP_AF_IPV6_UNICAST]; i++)
		ck_assert(pk->p[BGP_AF_IPV6_UNICAST][i].family == AF_INET6 &&
			  pk->p[BGP_AF_IPV6_UNICAST][i].len <= 128);
}

START_TEST(test_peek_truncated_and_mutated)
{
	uint8_t b[512], m[512], *copy;
	size_t len = rich_update(b, sizeof(b));
	struct bgp_update_peek pk;
	unsigned seed = 4242, before = 0;

	/* Each cut in a buffer of exactly that size: ASan sees any read past it. A cut never
	 * gives more prefixes than a longer cut. */
	for (size_t cut = 0; cut <= len; cut++) {
		unsigned total;

		copy = malloc(cut ? cut : 1);
		memcpy(copy, b, cut);
		zero(&pk);
		bgp_update_peek(copy, cut, &pk);
		free(copy);
		sane(&pk);
		total = pk.n[BGP_AF_IPV4_UNICAST] + pk.n[BGP_AF_IPV6_UNICAST];
		ck_assert_uint_ge(total, before);
		before = total;
	}
	ck_assert_uint_eq(before, 8);
	for (unsigned round = 0; round < 50000; round++) {
		memcpy(m, b, len);
		for (unsigned k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = (uint8_t)(seed >> 20);
		}
		copy = malloc(len);
		memcpy(copy, m, len);
		zero(&pk);
		bgp_update_peek(copy, len, &pk);
		free(copy);
		sane(&pk);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_update_peek");
	TCase *tc = tcase_create("peek");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_peek_gives_the_decodes_prefixes);
	tcase_add_test(tc, test_peek_stops_at_its_limit);
	tcase_add_test(tc, test_peek_adds_up_across_updates);
	tcase_add_test(tc, test_peek_truncated_and_mutated);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
