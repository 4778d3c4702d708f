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
#include "bgpd/wire/bgp_vstore.h"
#include "tests/unit/codec_test.h"

static const struct bgp_codec_ctx ebgp = {
	.as4 = true, .ebgp = true, .local_as = 65002, .peer_as = 65001
};

static const struct bgp_codec_ctx ibgp = {
	.as4 = true, .ebgp = false, .local_as = 65001, .peer_as = 65001
};

static void zero(struct bgp_update_peek *pk)
{
	bgp_update_peek_start(pk, true, true);
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

/* A 4-octet AS path and COMMUNITIES out of order and with a repeat (the decode sorts them and
 * drops the repeat before interning), one prefix. */
static size_t communities_update(uint8_t *b, size_t size)
{
	return hex(b, size,
		   "0000 002f"
		   "40 01 01 00 40 02 0e 02 03 0000fde9 fa56ea00 00000007 40 03 04 c0000201"
		   "c0 08 10 ffffff01 fde90001 ffffff01 00010002"
		   "18 0a0000");
}

/* The peeked hashes are those the stores filed the decoded set's path and list under. */
static void same_hashes_as_decode(const uint8_t *b, size_t len)
{
	struct bgp_update_peek pk;
	struct bgp_update u;
	struct bgp_error e;
	uint32_t refs;

	zero(&pk);
	ck_assert(bgp_update_peek(b, len, &pk));
	ck_assert_uint_eq(pk.nsets, 1);
	ck_assert_uint_eq(pk.set[0].flags & ~BGP_PEEK_F_SET,
			  BGP_PEEK_F_ASPATH | BGP_PEEK_F_COMMUNITIES);
	ck_assert_int_eq(bgp_update_decode(&u, b, len, &ebgp, &e), 0);
	ck_assert_ptr_nonnull(u.attr);
	ck_assert_uint_eq(pk.set[0].aspath_hash, u.attr->aspath->hash);
	ck_assert_uint_eq(pk.set[0].aspath_len, u.attr->aspath->len);
	ck_assert_uint_eq(pk.set[0].comm_hash, u.attr->communities->hash);
	ck_assert_uint_eq(pk.set[0].comm_count, u.attr->communities->count);
	if (pk.set[0].flags & BGP_PEEK_F_SET)
		ck_assert_uint_eq(pk.set[0].attr_hash, u.attr->hash);
	/* A hint, with the stores filled: it changes nothing. */
	refs = u.attr->aspath->refcnt;
	bgp_update_peek_prefetch(&pk);
	ck_assert_uint_eq(u.attr->aspath->refcnt, refs);
	bgp_update_release(&u);
}

START_TEST(test_peeked_hashes_are_the_stores)
{
	uint8_t b[512];

	same_hashes_as_decode(b, rich_update(b, sizeof(b)));
	same_hashes_as_decode(b, communities_update(b, sizeof(b)));
	bgp_attr_finish();
}
END_TEST

/* The set's hash, guessed from the wire (want_set) or not, and when guessed the one the
 * decode's set was interned under, for a session of ctx. */
static void set_hash_as_decode(const char *update, const struct bgp_codec_ctx *ctx, bool want_set)
{
	uint8_t b[512];
	size_t len = hex(b, sizeof(b), update);
	struct bgp_update_peek pk;
	struct bgp_update u;
	struct bgp_error e;

	bgp_update_peek_start(&pk, ctx->as4, ctx->ebgp);
	ck_assert(bgp_update_peek(b, len, &pk));
	ck_assert_uint_eq(pk.nsets, 1);
	ck_assert_int_eq(bgp_update_decode(&u, b, len, ctx, &e), 0);
	ck_assert_ptr_nonnull(u.attr);
	ck_assert_msg(!!(pk.set[0].flags & BGP_PEEK_F_SET) == want_set, "%s", update);
	if (want_set)
		ck_assert_msg(pk.set[0].attr_hash == u.attr->hash, "%s", update);
	bgp_update_release(&u);
}

/* ORIGIN, AS_PATH, NEXT_HOP, MED, LOCAL_PREF, ATOMIC_AGGREGATE; one prefix. */
#define PLAIN_ATTRS                                                               \
	"40 01 01 02 40 02 0e 02 03 0000fde9 fa56ea00 00000007 40 03 04 c0000201" \
	"80 04 04 00000064 40 05 04 000000c8 40 06 00"

START_TEST(test_peeked_set_hash_is_the_decodes)
{
	/* LOCAL_PREF discarded from an external peer, kept from an internal one. */
	set_hash_as_decode("0000 002d" PLAIN_ATTRS "18 0a0000", &ebgp, true);
	set_hash_as_decode("0000 002d" PLAIN_ATTRS "18 0a0000", &ibgp, true);
	/* With communities (out of order, a repeat), and a path that is not the first's. */
	set_hash_as_decode("0000 0040" PLAIN_ATTRS "c0 08 10 ffffff01 fde90001 ffffff01 00010002"
			   "18 0a0000",
			   &ebgp, true);
	set_hash_as_decode("0000 002d"
			   "40 01 01 02 40 02 0e 02 03 0000fde9 fa56ea00 00000008 40 03 04 c0000202"
			   "80 04 04 00000064 40 05 04 000000c8 40 06 00 18 0a0000",
			   &ebgp, true);
	/* AGGREGATOR goes to the extras, whose address the set's hash takes: no guess. */
	set_hash_as_decode("0000 0038" PLAIN_ATTRS "c0 07 08 0000fde9 c0000201 18 0a0000", &ebgp,
			   false);
	/* A repeated ORIGIN (the decode keeps the first): no guess. */
	set_hash_as_decode("0000 0031 40 01 01 00" PLAIN_ATTRS "18 0a0000", &ebgp, false);
	/* More communities than the peek reads: no list hash, so no set hash. */
	set_hash_as_decode("0000 00b4" PLAIN_ATTRS "c0 08 84"
			   "00010001 00010002 00010003 00010004 00010005 00010006 00010007 00010008"
			   "00010009 0001000a 0001000b 0001000c 0001000d 0001000e 0001000f 00010010"
			   "00010011 00010012 00010013 00010014 00010015 00010016 00010017 00010018"
			   "00010019 0001001a 0001001b 0001001c 0001001d 0001001e 0001001f 00010020"
			   "00010021"
			   "18 0a0000",
			   &ebgp, false);
	bgp_attr_finish();
}
END_TEST

START_TEST(test_peek_hashes_only_what_the_store_keeps_as_sent)
{
	uint8_t b[512];
	size_t len = communities_update(b, sizeof(b));
	struct bgp_update_peek pk;

	/* A 2-octet session's path is widened before interning: no hash of its bytes, nor of
	 * its set. */
	bgp_update_peek_start(&pk, false, true);
	ck_assert(bgp_update_peek(b, len, &pk));
	ck_assert_uint_eq(pk.nsets, 1);
	ck_assert_uint_eq(pk.set[0].flags, BGP_PEEK_F_COMMUNITIES);
	ck_assert_uint_eq(pk.set[0].comm_count, 3);
	/* A withdrawal has no attributes: no entry. */
	ck_assert(bgp_update_peek(b, hex(b, sizeof(b), "0004 18 0a0909 0000"), &pk));
	ck_assert_uint_eq(pk.nsets, 1);
	/* Attributes cut short: the entry is not kept. */
	ck_assert(bgp_update_peek(b, len - 20, &pk));
	ck_assert_uint_eq(pk.nsets, 1);
	/* No store exists yet: the hint is still safe. */
	bgp_update_peek_prefetch(&pk);
}
END_TEST

START_TEST(test_peek_keeps_at_most_its_sets)
{
	uint8_t b[512];
	size_t len = communities_update(b, sizeof(b)) - 4; /* without its prefix */
	struct bgp_update_peek pk;

	/* UPDATEs without prefixes never fill a family: the entries fill, then stay full. */
	zero(&pk);
	b[len - 1] ^= 0x01; /* the last community: a different list from here on */
	for (unsigned i = 0; i < BGP_PEEK_SETS + 8; i++)
		ck_assert(bgp_update_peek(b, len, &pk));
	ck_assert_uint_eq(pk.nsets, BGP_PEEK_SETS);
	for (unsigned i = 1; i < BGP_PEEK_SETS; i++)
		ck_assert(memcmp(&pk.set[i], &pk.set[0], sizeof(pk.set[0])) == 0);
}
END_TEST

/* Whatever it was given: within its limit, and only prefixes a family can hold. */
static void sane(const struct bgp_update_peek *pk)
{
	ck_assert_uint_le(pk->n[BGP_AF_IPV4_UNICAST], BGP_PEEK_MAX);
	ck_assert_uint_le(pk->n[BGP_AF_IPV6_UNICAST], BGP_PEEK_MAX);
	ck_assert_uint_le(pk->nsets, BGP_PEEK_SETS);
	for (unsigned i = 0; i < pk->nsets; i++)
		ck_assert(pk->set[i].flags && pk->set[i].comm_count <= BGP_PEEK_COMMUNITIES &&
			  pk->set[i].aspath_len <= BGP_VSTORE_MAX_SIZE);
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
	tcase_add_test(tc, test_peeked_hashes_are_the_stores);
	tcase_add_test(tc, test_peeked_set_hash_is_the_decodes);
	tcase_add_test(tc, test_peek_hashes_only_what_the_store_keeps_as_sent);
	tcase_add_test(tc, test_peek_keeps_at_most_its_sets);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
