/* SPDX-License-Identifier: ISC */
/*
 * UPDATE: builder -> decoder round trips for IPv4 and IPv6, packing up to the message limit,
 * End-of-RIB, and robustness (every truncation and many mutations of a valid UPDATE decode
 * to an error or a valid result without reading outside the input).
 */
#include "lib/compat.h"

#include <errno.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_update.h"
#include "tests/unit/codec_test.h"

static const struct bgp_codec_ctx ebgp = {
	.as4 = true, .ebgp = true, .local_as = 65002, .peer_as = 65001
};
static const struct bgp_codec_ctx ebgp_ext = {
	.as4 = true, .ebgp = true, .local_as = 65002, .peer_as = 65001, .extended_message = true
};
static const struct bgp_codec_ctx ebgp2 = {
	.as4 = false, .ebgp = true, .local_as = 65002, .peer_as = 65001
};

static uint8_t msg[65536];

/* An attribute set as a peer in AS 65001 would send it. */
static struct bgp_attr *make_attr(enum bgp_af af)
{
	uint32_t comm[2] = { 0xfde90001, 0xfde90002 };
	struct bgp_attr_extra ex;
	struct bgp_attr t, *a;

	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		    ATTR_BIT(BGP_ATTR_MED) | ATTR_BIT(BGP_ATTR_COMMUNITIES);
	t.origin = BGP_ORIGIN_INCOMPLETE;
	t.med = 42;
	t.aspath = bgp_aspath_from_str("65001 4200000000 {7,8}");
	t.communities = bgp_u32list_intern(comm, 2);
	if (af == BGP_AF_IPV4_UNICAST) {
		t.present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
		t.nexthop = ip4("192.0.2.1");
	} else {
		struct in6_addr g = ip6("2001:db8::1"), l = ip6("fe80::1");

		bgp_attr_set_mp_nh(&t, &ex, 32, &g, &l);
	}
	a = bgp_attr_intern(&t);
	bgp_aspath_unref(t.aspath);
	bgp_u32list_unref(t.communities);
	return a;
}

static struct prefix nth_prefix(enum bgp_af af, unsigned i, unsigned len)
{
	struct prefix p;

	memset(&p, 0, sizeof(p));
	p.family = (uint8_t)bgp_af_family(af);
	p.len = (uint8_t)len;
	if (af == BGP_AF_IPV4_UNICAST) {
		p.u.v4.s_addr = htonl(0x0a000000u + (i << (32 - MIN(len, 24u))));
	} else {
		p.u.bytes[0] = 0x20;
		p.u.bytes[1] = 0x01;
		p.u.bytes[2] = 0x0d;
		p.u.bytes[3] = 0xb8;
		p.u.bytes[4] = (uint8_t)(i >> 8);
		p.u.bytes[5] = (uint8_t)i;
	}
	prefix_apply_mask(&p);
	return p;
}

/* Decode a built message (header checked too). */
static void decode_msg(const struct bgp_codec_ctx *ctx, size_t len, struct bgp_update *u)
{
	struct bgp_header h;
	struct bgp_error e;

	ck_assert_int_eq(bgp_header_decode(msg, ctx->extended_message, &h, &e), 0);
	ck_assert_uint_eq(h.len, len);
	ck_assert_uint_eq(h.type, BGP_MSG_UPDATE);
	ck_assert_msg(bgp_update_decode(u, msg + 19, len - 19, ctx, &e) == 0, "%u/%u %s", e.code,
		      e.subcode, e.reason);
}

static void teardown(void)
{
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_le(bgp_attr_aspath_count(), 1);
	ck_assert_uint_eq(bgp_attr_list_count(), 0);
}

static void round_trip(enum bgp_af af, unsigned plen, const struct bgp_codec_ctx *ctx)
{
	struct bgp_update_builder ub;
	struct bgp_attr *a = make_attr(af);
	struct bgp_update u;
	struct prefix p, q;
	unsigned i, n;
	size_t len;

	ck_assert_int_eq(bgp_ub_begin_announce(&ub, msg, sizeof(msg), ctx, af, a), 0);
	for (n = 0; n < 100; n++) {
		p = nth_prefix(af, n, plen);
		ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	}
	len = bgp_ub_finish(&ub);
	ck_assert_uint_gt(len, 19);
	decode_msg(ctx, len, &u);
	ck_assert(!u.treat_as_withdraw);
	ck_assert_msg(u.discarded == 0, "discarded: %s", u.reason);
	ck_assert(u.has_announced[af]);
	ck_assert(!u.has_announced[!af]);
	/* The same attribute values: the very same interned set. */
	ck_assert_ptr_eq(u.attr, a);
	for (i = 0; bgp_nlri_next(&u.announced[af], af, &q); i++) {
		p = nth_prefix(af, i, plen);
		ck_assert(prefix_same(&p, &q));
	}
	ck_assert_uint_eq(i, n);
	bgp_update_release(&u);

	/* And withdraw them. */
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, sizeof(msg), ctx, af), 0);
	for (i = 0; i < n; i++) {
		p = nth_prefix(af, i, plen);
		ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	}
	len = bgp_ub_finish(&ub);
	decode_msg(ctx, len, &u);
	ck_assert_ptr_null(u.attr);
	ck_assert(u.has_withdrawn[af]);
	ck_assert(!u.has_announced[af]);
	ck_assert(!u.end_of_rib[af]);
	for (i = 0; bgp_nlri_next(&u.withdrawn[af], af, &q); i++) {
		p = nth_prefix(af, i, plen);
		ck_assert(prefix_same(&p, &q));
	}
	ck_assert_uint_eq(i, n);
	bgp_update_release(&u);
	bgp_attr_unref(a);
}

START_TEST(test_round_trip_v4)
{
	round_trip(BGP_AF_IPV4_UNICAST, 24, &ebgp);
	round_trip(BGP_AF_IPV4_UNICAST, 32, &ebgp);
	round_trip(BGP_AF_IPV4_UNICAST, 9, &ebgp);
	/* To a 2-octet peer: AS_TRANS + AS4_PATH, and back to the same path. */
	round_trip(BGP_AF_IPV4_UNICAST, 24, &ebgp2);
}
END_TEST

START_TEST(test_round_trip_v6)
{
	round_trip(BGP_AF_IPV6_UNICAST, 48, &ebgp);
	round_trip(BGP_AF_IPV6_UNICAST, 128, &ebgp);
	round_trip(BGP_AF_IPV6_UNICAST, 33, &ebgp2);
}
END_TEST

START_TEST(test_default_route)
{
	struct bgp_update_builder ub;
	struct bgp_attr *a = make_attr(BGP_AF_IPV4_UNICAST);
	struct bgp_update u;
	struct prefix p = pfx("0.0.0.0/0"), q;
	size_t len;

	ck_assert_int_eq(
		bgp_ub_begin_announce(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV4_UNICAST, a), 0);
	ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	len = bgp_ub_finish(&ub);
	decode_msg(&ebgp, len, &u);
	ck_assert(bgp_nlri_next(&u.announced[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &q));
	ck_assert(prefix_same(&p, &q));
	bgp_update_release(&u);
	bgp_attr_unref(a);
}
END_TEST

/* Fill one message; return how many prefixes went in and the length. */
static unsigned fill(const struct bgp_codec_ctx *ctx, enum bgp_af af, bool withdraw, unsigned plen,
		     size_t size, size_t *len)
{
	struct bgp_update_builder ub;
	struct bgp_attr *a = make_attr(af);
	struct prefix p;
	unsigned n = 0;

	if (withdraw)
		ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, size, ctx, af), 0);
	else
		ck_assert_int_eq(bgp_ub_begin_announce(&ub, msg, size, ctx, af, a), 0);
	for (;; n++) {
		p = nth_prefix(af, n, plen);
		if (bgp_ub_add(&ub, &p) < 0)
			break;
	}
	*len = bgp_ub_finish(&ub);
	bgp_attr_unref(a);
	return n;
}

START_TEST(test_packing)
{
	struct bgp_update u;
	struct prefix q;
	size_t len;
	unsigned n, i;

	/* /24 = 4 bytes each: the message ends within 4 bytes of the limit. */
	n = fill(&ebgp, BGP_AF_IPV4_UNICAST, false, 24, sizeof(msg), &len);
	ck_assert_uint_le(len, 4096);
	ck_assert_uint_gt(len, 4096 - 4);
	decode_msg(&ebgp, len, &u);
	for (i = 0; bgp_nlri_next(&u.announced[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &q);)
		i++;
	ck_assert_uint_eq(i, n);
	bgp_update_release(&u);
	/* Withdrawals: 5 bytes per /32. */
	n = fill(&ebgp, BGP_AF_IPV4_UNICAST, true, 32, sizeof(msg), &len);
	ck_assert_uint_le(len, 4096);
	ck_assert_uint_gt(len, 4096 - 5);
	ck_assert_uint_eq(n, (4096 - 23) / 5);
	decode_msg(&ebgp, len, &u);
	bgp_update_release(&u);
	/* IPv6 /48 = 7 bytes, attributes after MP_REACH_NLRI. */
	n = fill(&ebgp, BGP_AF_IPV6_UNICAST, false, 48, sizeof(msg), &len);
	ck_assert_uint_le(len, 4096);
	ck_assert_uint_gt(len, 4096 - 7);
	decode_msg(&ebgp, len, &u);
	for (i = 0; bgp_nlri_next(&u.announced[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &q);)
		i++;
	ck_assert_uint_eq(i, n);
	ck_assert_uint_eq(u.attr->med, 42);
	bgp_update_release(&u);
	n = fill(&ebgp, BGP_AF_IPV6_UNICAST, true, 64, sizeof(msg), &len);
	ck_assert_uint_gt(len, 4096 - 9);
	decode_msg(&ebgp, len, &u);
	bgp_update_release(&u);
	/* RFC 8654: 65535 with extended messages. */
	n = fill(&ebgp_ext, BGP_AF_IPV4_UNICAST, false, 24, sizeof(msg), &len);
	ck_assert_uint_le(len, 65535);
	ck_assert_uint_gt(len, 65535 - 4);
	decode_msg(&ebgp_ext, len, &u);
	bgp_update_release(&u);
	n = fill(&ebgp_ext, BGP_AF_IPV6_UNICAST, false, 48, sizeof(msg), &len);
	ck_assert_uint_gt(len, 65535 - 7);
	decode_msg(&ebgp_ext, len, &u);
	bgp_update_release(&u);
	/* A smaller caller buffer is respected. */
	n = fill(&ebgp, BGP_AF_IPV4_UNICAST, false, 24, 1000, &len);
	ck_assert_uint_le(len, 1000);
	ck_assert_uint_gt(len, 1000 - 4);
	(void)n;
}
END_TEST

START_TEST(test_builder_edges)
{
	struct bgp_update_builder ub;
	struct bgp_attr *a = make_attr(BGP_AF_IPV4_UNICAST);
	struct prefix p6 = pfx("2001:db8::/32"), p4 = pfx("10.0.0.0/8");

	/* Nothing added: nothing to send. */
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV4_UNICAST),
			 0);
	ck_assert_uint_eq(bgp_ub_finish(&ub), 0);
	/* Wrong family: -EINVAL, not "full". */
	ck_assert_int_eq(
		bgp_ub_begin_announce(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV4_UNICAST, a), 0);
	ck_assert_int_eq(bgp_ub_add(&ub, &p6), -EINVAL);
	ck_assert_int_eq(bgp_ub_add(&ub, &p4), 0);
	ck_assert_uint_gt(bgp_ub_finish(&ub), 0);
	/* A buffer too small for the attributes. */
	ck_assert_int_eq(bgp_ub_begin_announce(&ub, msg, 30, &ebgp, BGP_AF_IPV4_UNICAST, a), -1);
	ck_assert_int_eq(bgp_ub_begin_announce(&ub, msg, 30, &ebgp, BGP_AF_IPV6_UNICAST, a), -1);
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, 20, &ebgp, BGP_AF_IPV4_UNICAST), -1);
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, 24, &ebgp, BGP_AF_IPV6_UNICAST), -1);
	bgp_attr_unref(a);
}
END_TEST

START_TEST(test_wire_exact)
{
	struct bgp_update_builder ub;
	struct bgp_attr_extra ex;
	struct in6_addr g;
	struct bgp_attr t, *a;
	struct prefix p = pfx("2001:db8::/32");
	uint8_t want[256];
	size_t len, n;

	/* IPv6 announcement: MP_REACH_NLRI first (RFC 7606 5.1), then the rest. */
	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH);
	t.aspath = bgp_aspath_from_str("65002");
	g = ip6("2001:db8::1");
	bgp_attr_set_mp_nh(&t, &ex, 16, &g, NULL);
	a = bgp_attr_intern(&t);
	bgp_aspath_unref(t.aspath);
	ck_assert_int_eq(
		bgp_ub_begin_announce(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV6_UNICAST, a), 0);
	ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	len = bgp_ub_finish(&ub);
	n = hex(want, sizeof(want),
		"ffffffffffffffffffffffffffffffff 0042 02 0000 002b"
		"90 0e 001a 0002 01 10 20010db8000000000000000000000001 00 20 20010db8"
		"40 01 01 00 40 02 06 02 01 0000fdea");
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(msg, want, n);
	bgp_attr_unref(a);

	/* IPv6 withdrawal. */
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV6_UNICAST),
			 0);
	ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	len = bgp_ub_finish(&ub);
	n = hex(want, sizeof(want),
		"ffffffffffffffffffffffffffffffff 0023 02 0000 000c 90 0f 0008 0002 01 20 "
		"20010db8");
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(msg, want, n);

	/* IPv4 withdrawal: host bits of the input are not sent. */
	p = pfx("10.1.0.0/16");
	p.u.bytes[3] = 0xff;
	ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, msg, sizeof(msg), &ebgp, BGP_AF_IPV4_UNICAST),
			 0);
	ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	p = pfx("10.128.0.0/9");
	p.u.bytes[1] = 0xff;
	ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
	len = bgp_ub_finish(&ub);
	n = hex(want, sizeof(want),
		"ffffffffffffffffffffffffffffffff 001d 02 0006 10 0a01 09 0a80 0000");
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(msg, want, n);
}
END_TEST

START_TEST(test_end_of_rib)
{
	struct bgp_update u;
	uint8_t want[64];
	size_t len, n;

	len = bgp_update_end_of_rib(msg, sizeof(msg), BGP_AF_IPV4_UNICAST);
	n = hex(want, sizeof(want), "ffffffffffffffffffffffffffffffff 0017 02 0000 0000");
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(msg, want, n);
	decode_msg(&ebgp, len, &u);
	ck_assert(u.end_of_rib[BGP_AF_IPV4_UNICAST]);
	bgp_update_release(&u);
	len = bgp_update_end_of_rib(msg, sizeof(msg), BGP_AF_IPV6_UNICAST);
	n = hex(want, sizeof(want),
		"ffffffffffffffffffffffffffffffff 001d 02 0000 0006 80 0f 03 0002 01");
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(msg, want, n);
	decode_msg(&ebgp, len, &u);
	ck_assert(u.end_of_rib[BGP_AF_IPV6_UNICAST]);
	ck_assert(!u.end_of_rib[BGP_AF_IPV4_UNICAST]);
	bgp_update_release(&u);
	ck_assert_uint_eq(bgp_update_end_of_rib(msg, 28, BGP_AF_IPV6_UNICAST), 0);
}
END_TEST

START_TEST(test_nlri_next_guard)
{
	struct stream s;
	struct prefix p;
	static const uint8_t bad[] = { 33, 10, 0, 0, 0, 0 }, cut[] = { 24, 10 };

	/* Even misused on unchecked data, the walker stops instead of overrunning. */
	stream_init_reader(&s, bad, sizeof(bad));
	ck_assert(!bgp_nlri_next(&s, BGP_AF_IPV4_UNICAST, &p));
	stream_init_reader(&s, cut, sizeof(cut));
	ck_assert(!bgp_nlri_next(&s, BGP_AF_IPV4_UNICAST, &p));
	ck_assert(!bgp_nlri_valid(cut, sizeof(cut), BGP_AF_IPV4_UNICAST));
	ck_assert(bgp_nlri_valid(bad, 0, BGP_AF_IPV4_UNICAST));
}
END_TEST

START_TEST(test_rich_valid)
{
	uint8_t b[512];
	size_t len = rich_update(b, sizeof(b));
	struct bgp_update u;
	struct bgp_error e;

	ck_assert_msg(bgp_update_decode(&u, b, len, &ebgp, &e) == 0, "%u/%u %s", e.code, e.subcode,
		      e.reason);
	ck_assert(!u.treat_as_withdraw);
	ck_assert_uint_eq(u.discarded, 0);
	ck_assert(u.has_withdrawn[BGP_AF_IPV4_UNICAST]);
	ck_assert(u.has_withdrawn[BGP_AF_IPV6_UNICAST]);
	ck_assert(u.has_announced[BGP_AF_IPV4_UNICAST]);
	ck_assert(u.has_announced[BGP_AF_IPV6_UNICAST]);
	ck_assert_ptr_nonnull(bgp_attr_ex(u.attr)->transit);
	bgp_update_release(&u);
}
END_TEST

START_TEST(test_truncation)
{
	uint8_t b[512], *copy;
	size_t len = rich_update(b, sizeof(b)), cut;
	struct bgp_update u;
	struct bgp_error e;
	int ret, ok = 0, err = 0;

	/* Every prefix of a valid UPDATE, in a buffer of exactly that size (ASan sees any
	 * read past it): an error or a valid result, never a crash. */
	for (cut = 0; cut < len; cut++) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, b, cut);
		memset(&e, 0, sizeof(e));
		ret = bgp_update_decode(&u, copy, cut, &ebgp, &e);
		if (ret == 0) {
			struct prefix p;
			int af;

			ok++;
			for (af = 0; af < BGP_AF_MAX; af++) {
				while (bgp_nlri_next(&u.withdrawn[af], af, &p))
					;
				while (bgp_nlri_next(&u.announced[af], af, &p))
					;
			}
			bgp_update_release(&u);
		} else {
			ck_assert_int_eq(ret, -1);
			ck_assert_uint_eq(e.code, BGP_ERR_UPDATE);
			ck_assert_ptr_nonnull(e.reason);
			err++;
		}
		free(copy);
	}
	/* Cutting inside the NLRI field gives valid (shorter) or malformed NLRI. */
	ck_assert_int_gt(ok, 0);
	ck_assert_int_gt(err, 0);
}
END_TEST

START_TEST(test_mutation)
{
	uint8_t b[512], m[512];
	size_t len = rich_update(b, sizeof(b)), i;
	struct bgp_update u;
	struct bgp_error e;
	unsigned seed = 12345, round, k;
	const struct bgp_codec_ctx *ctxs[] = { &ebgp, &ebgp2 };

	/* Every byte set to every interesting value, then random multi-byte mutations. */
	for (i = 0; i < len; i++) {
		static const uint8_t vals[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x0f, 0x10,
						0x20, 0x40, 0x7f, 0x80, 0x90, 0xc0, 0xff };

		for (k = 0; k < array_size(vals); k++) {
			memcpy(m, b, len);
			m[i] = vals[k];
			if (bgp_update_decode(&u, m, len, ctxs[k & 1], &e) == 0)
				bgp_update_release(&u);
		}
	}
	for (round = 0; round < 20000; round++) {
		memcpy(m, b, len);
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = (uint8_t)(seed >> 20);
		}
		if (bgp_update_decode(&u, m, len, ctxs[round & 1], &e) == 0)
			bgp_update_release(&u);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_update");
	TCase *tc = tcase_create("update");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_round_trip_v4);
	tcase_add_test(tc, test_round_trip_v6);
	tcase_add_test(tc, test_default_route);
	tcase_add_test(tc, test_packing);
	tcase_add_test(tc, test_builder_edges);
	tcase_add_test(tc, test_wire_exact);
	tcase_add_test(tc, test_end_of_rib);
	tcase_add_test(tc, test_nlri_next_guard);
	tcase_add_test(tc, test_rich_valid);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_mutation);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
