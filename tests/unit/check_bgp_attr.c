/* SPDX-License-Identifier: ISC */
/*
 * Path attributes through the UPDATE decoder: every attribute, and every RFC 7606 case with
 * its byte vector and the approach expected (session reset with the exact NOTIFICATION,
 * treat-as-withdraw, attribute discard). Then encoding, printing and interning.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "bgpd/wire/bgp_open.h"
#include "bgpd/wire/bgp_update.h"
#include "tests/unit/codec_test.h"

/* Valid pieces: eBGP from AS 65002 with 4-octet AS. */
#define ORIGIN "40 01 01 00"
#define PATH "40 02 06 02 01 0000fdea"
#define NH "40 03 04 c0000201"
#define BASE ORIGIN PATH NH
#define NLRI "18 0a0000"

static const struct bgp_codec_ctx ebgp = {
	.as4 = true, .ebgp = true, .local_as = 65001, .peer_as = 65002
};
static const struct bgp_codec_ctx ibgp = {
	.as4 = true, .ebgp = false, .local_as = 65001, .peer_as = 65001
};
static const struct bgp_codec_ctx ebgp2 = {
	.as4 = false, .ebgp = true, .local_as = 65001, .peer_as = 65002
};

static uint8_t body[8192];
static size_t body_len;
static struct bgp_update u;
static struct bgp_error e;

/* Build and decode an UPDATE body from its three parts. */
static int dec(const struct bgp_codec_ctx *ctx, const char *wd, const char *attrs, const char *nlri)
{
	size_t wl, al, nl;

	wl = hex(body + 2, sizeof(body) - 2, wd);
	al = hex(body + 4 + wl, sizeof(body) - 4 - wl, attrs);
	nl = hex(body + 4 + wl + al, sizeof(body) - 4 - wl - al, nlri);
	body[0] = (uint8_t)(wl >> 8);
	body[1] = (uint8_t)wl;
	body[2 + wl] = (uint8_t)(al >> 8);
	body[3 + wl] = (uint8_t)al;
	memset(&e, 0, sizeof(e));
	body_len = 4 + wl + al + nl;
	return bgp_update_decode(&u, body, body_len, ctx, &e);
}

/* Decode must succeed, announce, and not be treat-as-withdraw. */
static void ok(const struct bgp_codec_ctx *ctx, const char *attrs, const char *nlri)
{
	ck_assert_msg(dec(ctx, "", attrs, nlri) == 0, "reset %u/%u: %s", e.code, e.subcode,
		      e.reason);
	ck_assert_msg(!u.treat_as_withdraw, "treat-as-withdraw: %s", u.reason);
	ck_assert_ptr_nonnull(u.attr);
}

/* Treat-as-withdraw: the NLRI are still there to withdraw, no attribute set. */
static void taw(const struct bgp_codec_ctx *ctx, const char *attrs, const char *nlri)
{
	ck_assert_msg(dec(ctx, "", attrs, nlri) == 0, "reset %u/%u: %s", e.code, e.subcode,
		      e.reason);
	ck_assert_msg(u.treat_as_withdraw, "not treat-as-withdraw");
	ck_assert_ptr_null(u.attr);
	ck_assert_ptr_nonnull(u.reason);
	ck_assert(u.has_announced[BGP_AF_IPV4_UNICAST] || u.has_announced[BGP_AF_IPV6_UNICAST]);
}

/* Attribute discard: route kept, code flagged. */
static void discard(const struct bgp_codec_ctx *ctx, const char *attrs, const char *nlri,
		    uint8_t code)
{
	ok(ctx, attrs, nlri);
	ck_assert_msg(u.discarded & ATTR_BIT(code), "attribute %u not flagged as discarded", code);
	ck_assert_ptr_nonnull(u.reason);
	ck_assert(!(u.attr->present & ATTR_BIT(code)));
}

/* Session reset with this NOTIFICATION. */
static void reset(const struct bgp_codec_ctx *ctx, const char *wd, const char *attrs,
		  const char *nlri, uint8_t subcode, const char *data)
{
	ck_assert_int_eq(dec(ctx, wd, attrs, nlri), -1);
	assert_err(&e, BGP_ERR_UPDATE, subcode, data);
	ck_assert_ptr_null(u.attr);
}

static void teardown(void)
{
	bgp_update_release(&u);
	memset(&u, 0, sizeof(u));
	/* Nothing interned survives its UPDATE. */
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_le(bgp_attr_aspath_count(), 1);
	ck_assert_uint_eq(bgp_attr_list_count(), 0);
}

static void rel(void)
{
	bgp_update_release(&u);
	memset(&u, 0, sizeof(u));
}

/* ---- a valid UPDATE ---- */

START_TEST(test_valid)
{
	struct prefix p;
	char buf[256];

	ok(&ebgp, BASE "80 04 04 00000064 c0 08 04 fdea0001", NLRI "10 0b00");
	ck_assert_uint_eq(u.attr->origin, BGP_ORIGIN_IGP);
	ck_assert_uint_eq(u.attr->nexthop.s_addr, ip4("192.0.2.1").s_addr);
	ck_assert_uint_eq(u.attr->med, 100);
	ck_assert_uint_eq(u.attr->communities->count, 1);
	ck_assert_uint_eq(u.attr->communities->val[0], 0xfdea0001);
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_ORIGIN));
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_AS_PATH));
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_NEXT_HOP));
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert(!(u.attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));
	ck_assert_uint_eq(u.discarded, 0);
	ck_assert_ptr_null(u.reason);
	ck_assert_int_ge(bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "65002");
	ck_assert(bgp_nlri_next(&u.announced[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.0.0.0/24");
	ck_assert(bgp_nlri_next(&u.announced[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "11.0.0.0/16");
	ck_assert(!bgp_nlri_next(&u.announced[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_int_ge(bgp_attr_to_str(u.attr, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf,
			 "origin i, path 65002, nexthop 192.0.2.1, metric 100, community 65002:1");
}
END_TEST

/* ---- RFC 7606 7.1 ORIGIN ---- */

START_TEST(test_origin)
{
	ok(&ebgp, "40 01 01 02" PATH NH, NLRI);
	ck_assert_uint_eq(u.attr->origin, BGP_ORIGIN_INCOMPLETE);
	rel();
	taw(&ebgp, "40 01 01 03" PATH NH, NLRI); /* undefined value */
	rel();
	taw(&ebgp, "40 01 02 0000" PATH NH, NLRI); /* length */
	rel();
	taw(&ebgp, "40 01 00" PATH NH, NLRI); /* zero length (RFC 7606 4) */
	rel();
	taw(&ebgp, "c0 01 01 00" PATH NH, NLRI); /* flags: optional (3.c) */
	rel();
	taw(&ebgp, "00 01 01 00" PATH NH, NLRI); /* flags: not transitive */
	rel();
	/* Partial and Extended Length bits are not errors. */
	ok(&ebgp, "70 01 0001 00" PATH NH, NLRI);
	rel();
	taw(&ebgp, PATH NH, NLRI); /* missing (3.d) */
	ck_assert_str_eq(u.reason, "well-known mandatory attribute missing (RFC 7606 3.d)");
}
END_TEST

/* ---- RFC 7606 7.2 AS_PATH ---- */

START_TEST(test_as_path)
{
	char buf[64];

	taw(&ebgp, ORIGIN "40 02 06 02 02 0000fdea" NH, NLRI); /* segment overrun */
	rel();
	taw(&ebgp, ORIGIN "40 02 07 02 01 0000fdea 02" NH, NLRI); /* lone octet */
	rel();
	taw(&ebgp, ORIGIN "40 02 08 02 01 0000fdea 02 00" NH, NLRI); /* zero-length segment */
	rel();
	taw(&ebgp, ORIGIN "40 02 06 07 01 0000fdea" NH, NLRI); /* unknown type */
	rel();
	taw(&ebgp, ORIGIN "40 02 0a 02 02 0000fdea 00000000" NH, NLRI); /* AS 0, RFC 7607 */
	rel();
	taw(&ebgp, ORIGIN "80 02 06 02 01 0000fdea" NH, NLRI); /* flags */
	rel();
	taw(&ebgp, ORIGIN NH, NLRI); /* missing */
	rel();
	/* RFC 4271 6.3 / RFC 7606 7.2: eBGP leftmost AS must be the peer's. */
	taw(&ebgp, ORIGIN "40 02 06 02 01 0000fdeb" NH, NLRI);
	ck_assert_str_eq(u.reason, "AS_PATH does not start with the peer's AS (RFC 4271 6.3)");
	rel();
	taw(&ebgp, ORIGIN "40 02 00" NH, NLRI); /* empty from eBGP */
	rel();
	taw(&ebgp, ORIGIN "40 02 06 01 01 0000fdea" NH, NLRI); /* starts with a SET */
	rel();
	/* RFC 5065: confederation segments from outside. */
	taw(&ebgp, ORIGIN "40 02 0c 02 01 0000fdea 03 01 0000fe4c" NH, NLRI);
	rel();
	/* iBGP: empty path fine, no first-AS rule, confed segments accepted. */
	ok(&ibgp, ORIGIN "40 02 00" NH "40 05 04 00000064", NLRI);
	ck_assert_uint_eq(u.attr->aspath->len, 0);
	rel();
	ok(&ibgp, ORIGIN "40 02 0c 03 01 0000fe4c 02 01 0000fdeb" NH "40 05 04 00000064", NLRI);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "(65100) 65003");
	rel();
	/* Extended length AS_PATH. */
	ok(&ebgp, ORIGIN "50 02 0006 02 01 0000fdea" NH, NLRI);
	rel();
	/* 2-octet session. */
	ok(&ebgp2, ORIGIN "40 02 06 02 02 fdea 0064" NH, NLRI);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002 100");
	rel();
	taw(&ebgp2, ORIGIN "40 02 06 02 01 0000fdea" NH, NLRI); /* 4-octet on a 2-octet session */
}
END_TEST

/* ---- RFC 7606 7.3 NEXT_HOP ---- */

START_TEST(test_next_hop)
{
	taw(&ebgp, ORIGIN PATH "40 03 05 c000020101", NLRI);
	rel();
	taw(&ebgp, ORIGIN PATH "40 03 03 c00002", NLRI);
	rel();
	taw(&ebgp, ORIGIN PATH "c0 03 04 c0000201", NLRI); /* flags */
	rel();
	/* RFC 4271 6.3 semantic checks. */
	taw(&ebgp, ORIGIN PATH "40 03 04 00000000", NLRI);
	ck_assert_str_eq(u.reason, "NEXT_HOP is not a valid host address (RFC 4271 6.3)");
	rel();
	taw(&ebgp, ORIGIN PATH "40 03 04 7f000001", NLRI);
	rel();
	taw(&ebgp, ORIGIN PATH "40 03 04 e0000001", NLRI);
	rel();
	taw(&ebgp, ORIGIN PATH "40 03 04 ffffffff", NLRI);
	rel();
	taw(&ebgp, ORIGIN PATH, NLRI); /* missing with IPv4 NLRI */
	rel();
	/* Without NLRI in the NLRI field NEXT_HOP is ignored (RFC 4760 3), errors included. */
	ok(&ebgp,
	   ORIGIN PATH
	   "40 03 04 00000000 80 0e 1a 0002 01 10 20010db8000000000000000000000001 00 20 20010db8",
	   "");
	ck_assert(!(u.attr->present & ATTR_BIT(BGP_ATTR_NEXT_HOP)));
	rel();
	discard(&ebgp,
		ORIGIN PATH "40 03 03 000000 80 0e 1a 0002 01 10 20010db8000000000000000000000001 "
			    "00 20 20010db8",
		"", BGP_ATTR_NEXT_HOP);
}
END_TEST

/* ---- RFC 7606 7.4 MULTI_EXIT_DISC ---- */

START_TEST(test_med)
{
	ok(&ebgp, BASE "80 04 04 ffffffff", NLRI);
	ck_assert_uint_eq(u.attr->med, 0xffffffff);
	rel();
	taw(&ebgp, BASE "80 04 03 000064", NLRI);
	rel();
	taw(&ebgp, BASE "80 04 00", NLRI);
	rel();
	taw(&ebgp, BASE "40 04 04 00000064", NLRI); /* flags: well-known */
	rel();
	taw(&ebgp, BASE "c0 04 04 00000064", NLRI); /* flags: transitive */
}
END_TEST

/* ---- RFC 7606 7.5 LOCAL_PREF ---- */

START_TEST(test_local_pref)
{
	ok(&ibgp, BASE "40 05 04 000000c8", NLRI);
	ck_assert_uint_eq(u.attr->local_pref, 200);
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF));
	rel();
	/* iBGP without LOCAL_PREF: accepted, the RIB applies the default. */
	ok(&ibgp, BASE, NLRI);
	rel();
	taw(&ibgp, BASE "40 05 03 0000c8", NLRI);
	rel();
	taw(&ibgp, BASE "c0 05 04 000000c8", NLRI);
	rel();
	/* From an external peer: discarded whatever its shape. */
	discard(&ebgp, BASE "40 05 04 000000c8", NLRI, BGP_ATTR_LOCAL_PREF);
	rel();
	discard(&ebgp, BASE "40 05 03 0000c8", NLRI, BGP_ATTR_LOCAL_PREF);
	rel();
	discard(&ebgp, BASE "c0 05 03 0000c8", NLRI, BGP_ATTR_LOCAL_PREF);
}
END_TEST

/* ---- RFC 7606 7.6, 7.7 ATOMIC_AGGREGATE, AGGREGATOR ---- */

START_TEST(test_aggregation)
{
	ok(&ebgp, BASE "40 06 00 c0 07 08 0000fdea c0000202", NLRI);
	ck_assert(u.attr->atomic_aggregate);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_as, 65002);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_addr.s_addr, ip4("192.0.2.2").s_addr);
	rel();
	discard(&ebgp, BASE "40 06 01 00", NLRI, BGP_ATTR_ATOMIC_AGGREGATE);
	ck_assert(!u.attr->atomic_aggregate);
	rel();
	discard(&ebgp, BASE "c0 06 00", NLRI, BGP_ATTR_ATOMIC_AGGREGATE); /* flags */
	rel();
	/* Length 6 with 4-octet AS negotiated, 8 without. */
	discard(&ebgp, BASE "c0 07 06 fdea c0000202", NLRI, BGP_ATTR_AGGREGATOR);
	rel();
	discard(&ebgp2, ORIGIN "40 02 04 02 01 fdea" NH "c0 07 08 0000fdea c0000202", NLRI,
		BGP_ATTR_AGGREGATOR);
	rel();
	ok(&ebgp2, ORIGIN "40 02 04 02 01 fdea" NH "c0 07 06 fdea c0000202", NLRI);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_as, 65002);
	rel();
	discard(&ebgp, BASE "c0 07 08 00000000 c0000202", NLRI, BGP_ATTR_AGGREGATOR); /* AS 0 */
	rel();
	discard(&ebgp, BASE "40 07 08 0000fdea c0000202", NLRI, BGP_ATTR_AGGREGATOR); /* flags */
	rel();
	/* Discard and treat-as-withdraw together: the stronger wins (3.h). */
	taw(&ebgp, BASE "40 06 01 00 80 04 01 00", NLRI);
	ck_assert(u.discarded & ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE));
}
END_TEST

/* ---- RFC 7606 7.8 COMMUNITIES, RFC 8092 LARGE_COMMUNITIES, 7.14 EXTENDED ---- */

/* COMMUNITIES of n values sent in descending order with every fifth repeated: received
 * sorted ascending, each once (short lists and long ones take different sorts). */
static void communities_sorted(unsigned n)
{
	char attrs[2048];
	size_t o;
	unsigned sent = 0;

	o = (size_t)snprintf(attrs, sizeof(attrs), "%s c0 08 %02x", BASE, 4 * n);
	for (unsigned i = 0; i < n; i++, sent++)
		o += (size_t)snprintf(attrs + o, sizeof(attrs) - o, " fdea%04x",
				      i % 5 == 4 ? n - i + 1 : n - i);
	ck_assert_uint_eq(sent, n);
	ok(&ebgp, attrs, NLRI);
	ck_assert_uint_eq(u.attr->communities->count, n - n / 5);
	for (unsigned i = 1; i < u.attr->communities->count; i++)
		ck_assert_uint_lt(u.attr->communities->val[i - 1], u.attr->communities->val[i]);
	rel();
}

START_TEST(test_communities_sorted_whatever_the_count)
{
	communities_sorted(1);
	communities_sorted(5);
	communities_sorted(20);
	communities_sorted(32);
	communities_sorted(33);
	communities_sorted(60);
}
END_TEST

START_TEST(test_communities)
{
	char buf[256];

	ok(&ebgp, BASE "c0 08 0c fdea0064 ffffff01 ffff029a", NLRI);
	ck_assert_uint_eq(u.attr->communities->count, 3);
	ck_assert_int_ge(bgp_u32list_community_str(u.attr->communities, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "65002:100 blackhole no-export"); /* sorted on receipt (FRR) */
	rel();
	ok(&ebgp, BASE "c0 08 0c ffffff01 fdea0064 ffffff01", NLRI); /* a repeat */
	ck_assert_uint_eq(u.attr->communities->count, 2);
	ck_assert_int_ge(bgp_u32list_community_str(u.attr->communities, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "65002:100 no-export");
	rel();
	taw(&ebgp, BASE "c0 08 00", NLRI);
	rel();
	taw(&ebgp, BASE "c0 08 06 fdea0064 0000", NLRI);
	rel();
	taw(&ebgp, BASE "40 08 04 fdea0064", NLRI); /* flags */
	rel();
	/* Partial bit on a known optional transitive: fine. */
	ok(&ebgp, BASE "e0 08 04 fdea0064", NLRI);
	rel();

	ok(&ebgp, BASE "c0 20 18 0000fdea 00000001 00000002 0000fdea 00000003 00000004", NLRI);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->lcommunities->count, 2);
	ck_assert_int_ge(bgp_lcommlist_str(bgp_attr_ex(u.attr)->lcommunities, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "65002:1:2 65002:3:4");
	rel();
	taw(&ebgp, BASE "c0 20 0b 0000fdea 00000001 000000", NLRI);
	rel();
	taw(&ebgp, BASE "c0 20 00", NLRI);
	rel();

	/* Extended communities: decoded into their own list, sorted and without repeats as
	 * FRR keeps them; nothing left among the unknown attributes. */
	ok(&ebgp, BASE "c0 10 18 0003fdea00000001 0002fdea00000064 0003fdea00000001", NLRI);
	ck_assert_ptr_null(bgp_attr_ex(u.attr)->transit);
	ck_assert(u.attr->present & ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES));
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->ecommunities->count, 2);
	ck_assert_int_ge(bgp_ecommlist_str(bgp_attr_ex(u.attr)->ecommunities, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "RT:65002:100 SoO:65002:1");
	bgp_attr_to_str(u.attr, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, ", extcommunity RT:65002:100 SoO:65002:1"));
	rel();
	/* RFC 7606 7.14: wrong flags are malformed too. */
	taw(&ebgp, BASE "40 10 08 0002fdea00000064", NLRI);
	rel();
	taw(&ebgp, BASE "c0 10 07 0002fdea000000", NLRI);
	rel();
	taw(&ebgp, BASE "c0 10 00", NLRI);
}
END_TEST

/* ---- RFC 7606 7.9, 7.10 ORIGINATOR_ID, CLUSTER_LIST ---- */

START_TEST(test_reflection)
{
	char buf[128];

	ok(&ibgp, BASE "80 09 04 0a000009 80 0a 08 0a000001 0a000002", NLRI);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->originator_id.s_addr, ip4("10.0.0.9").s_addr);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->cluster_list->count, 2);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->cluster_list->val[1], 0x0a000002);
	bgp_attr_to_str(u.attr, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "originator 10.0.0.9, clusterlist 10.0.0.1 10.0.0.2"));
	rel();
	taw(&ibgp, BASE "80 09 03 0a0000", NLRI);
	rel();
	taw(&ibgp, BASE "80 0a 06 0a000001 0a00", NLRI);
	rel();
	taw(&ibgp, BASE "80 0a 00", NLRI);
	rel();
	taw(&ibgp, BASE "c0 09 04 0a000009", NLRI); /* flags */
	rel();
	discard(&ebgp, BASE "80 09 04 0a000009", NLRI, BGP_ATTR_ORIGINATOR_ID);
	rel();
	discard(&ebgp, BASE "80 0a 04 0a000001", NLRI, BGP_ATTR_CLUSTER_LIST);
	ck_assert_ptr_null(bgp_attr_ex(u.attr)->cluster_list);
	rel();
	discard(&ebgp, BASE "80 0a 03 0a0000", NLRI, BGP_ATTR_CLUSTER_LIST);
}
END_TEST

/* ---- RFC 7606 7.11, 7.12, 5.3 MP_REACH_NLRI, MP_UNREACH_NLRI ---- */

#define NH6 "20010db8000000000000000000000001"
#define LL6 "fe800000000000000000000000000001"
#define MP_V6 "80 0e 21 0002 01 10 " NH6 " 00 20 20010db8 30 20010db80001"

START_TEST(test_mp_reach)
{
	struct in6_addr a6;
	struct prefix p;
	char buf[64];

	ok(&ebgp, ORIGIN PATH MP_V6, "");
	ck_assert(u.has_announced[BGP_AF_IPV6_UNICAST]);
	ck_assert(!u.has_announced[BGP_AF_IPV4_UNICAST]);
	ck_assert_uint_eq(u.attr->mp_nh_len, 16);
	a6 = ip6("2001:db8::1");
	ck_assert_mem_eq(bgp_attr_mp_nh_global(u.attr), &a6, 16);
	ck_assert(bgp_nlri_next(&u.announced[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "2001:db8::/32");
	ck_assert(bgp_nlri_next(&u.announced[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "2001:db8:1::/48");
	ck_assert(!bgp_nlri_next(&u.announced[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &p));
	rel();
	/* Global + link-local (RFC 2545), extended length form. */
	ok(&ebgp, ORIGIN PATH "90 0e 002a 0002 01 20 " NH6 LL6 " 00 20 20010db8", "");
	ck_assert_uint_eq(u.attr->mp_nh_len, 32);
	a6 = ip6("fe80::1");
	ck_assert_mem_eq(bgp_attr_mp_nh_local(u.attr), &a6, 16);
	bgp_attr_to_str(u.attr, buf, sizeof(buf));
	rel();
	/* A "link-local" that is not: dropped. */
	ok(&ebgp, ORIGIN PATH "80 0e 2a 0002 01 20 " NH6 NH6 " 00 20 20010db8", "");
	ck_assert_uint_eq(u.attr->mp_nh_len, 16);
	rel();
	/* IPv4 unicast in MP_REACH: the next hop lands in attr->nexthop. */
	ok(&ebgp, ORIGIN PATH "80 0e 0d 0001 01 04 c0000209 00 18 0a0101", "");
	ck_assert(u.has_announced[BGP_AF_IPV4_UNICAST]);
	ck_assert_uint_eq(u.attr->nexthop.s_addr, ip4("192.0.2.9").s_addr);
	ck_assert_uint_eq(u.attr->mp_nh_len, 4);
	rel();
	/* A family we do not handle: ignored; nothing announced, no attribute set. */
	ck_assert_int_eq(dec(&ebgp, "", ORIGIN PATH "80 0e 0a 0019 46 04 c0000209 00 00", ""), 0);
	ck_assert(!u.has_announced[BGP_AF_IPV6_UNICAST]);
	ck_assert_ptr_null(u.attr);
	rel();
	/* Missing ORIGIN with MP_REACH: treat-as-withdraw. */
	taw(&ebgp, PATH MP_V6, "");
	rel();
	/* Bad next hop addresses: treat-as-withdraw. */
	taw(&ebgp,
	    ORIGIN PATH "80 0e 1a 0002 01 10 ff020000000000000000000000000001 00 20 20010db8", "");
	rel();
	taw(&ebgp,
	    ORIGIN PATH "80 0e 1a 0002 01 10 00000000000000000000000000000000 00 20 20010db8", "");
	rel();
	taw(&ebgp, ORIGIN PATH "80 0e 0d 0001 01 04 00000000 00 18 0a0101", "");
}
END_TEST

START_TEST(test_mp_reach_reset)
{
	/* RFC 7606 7.11: next hop length wrong for the family. Data = the attribute. */
	reset(&ebgp, "",
	      ORIGIN PATH "80 0e 19 0002 01 0f 20010db80000000000000000000000 00 20 20010db8", "",
	      BGP_ERR_UPD_OPTIONAL_ATTR,
	      "80 0e 19 0002 01 0f 20010db80000000000000000000000 00 20 20010db8");
	reset(&ebgp, "", ORIGIN PATH "80 0e 16 0001 01 10 " NH6 " 00 00", "",
	      BGP_ERR_UPD_OPTIONAL_ATTR, NULL);
	/* Shorter than AFI/SAFI/length/reserved. */
	reset(&ebgp, "", ORIGIN PATH "80 0e 04 0002 01 00", "", BGP_ERR_UPD_OPTIONAL_ATTR,
	      "80 0e 04 0002 01 00");
	/* Next hop running past the attribute. */
	reset(&ebgp, "", ORIGIN PATH "80 0e 08 0002 01 10 20010db8", "", BGP_ERR_UPD_OPTIONAL_ATTR,
	      NULL);
	/* RFC 7606 5.3: prefix too long, prefix overrun. */
	reset(&ebgp, "", ORIGIN PATH "80 0e 1a 0002 01 10 " NH6 " 00 81 20010db8", "",
	      BGP_ERR_UPD_OPTIONAL_ATTR, NULL);
	reset(&ebgp, "", ORIGIN PATH "80 0e 1a 0002 01 10 " NH6 " 00 40 20010db8", "",
	      BGP_ERR_UPD_OPTIONAL_ATTR, NULL);
	/* Flags: session reset with Attribute Flags Error (its handling is reset). */
	reset(&ebgp, "", ORIGIN PATH "c0 0e 1a 0002 01 10 " NH6 " 00 20 20010db8", "",
	      BGP_ERR_UPD_ATTR_FLAGS, "c0 0e 1a 0002 01 10 " NH6 " 00 20 20010db8");
	/* RFC 7606 3.g: twice. */
	reset(&ebgp, "", ORIGIN PATH MP_V6 MP_V6, "", BGP_ERR_UPD_MALFORMED_ATTR_LIST, NULL);
}
END_TEST

/* The prefixes of an IPv4 reader, as "a b c". */
static const char *walk4(struct stream *r, char *out, size_t size)
{
	char buf[64];
	struct prefix p;
	size_t n = 0;

	out[0] = '\0';
	while (bgp_nlri_next(r, BGP_AF_IPV4_UNICAST, &p))
		n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "",
				      prefix_to_str(&p, buf, sizeof(buf)));
	return out;
}

/* RFC 7606 5.1: IPv4 unicast prefixes in the classic fields and in MP_(UN)REACH_NLRI of one
 * UPDATE are accepted, whatever order the attributes come in. */
START_TEST(test_mixed_ipv4)
{
	struct bgp_update sub;
	char out[256];

	/* Same next hop in NEXT_HOP and MP_REACH_NLRI: one attribute set, one reader. */
	ok(&ebgp, BASE "80 0e 0d 0001 01 04 c0000201 00 18 0a0101", NLRI);
	ck_assert_str_eq(walk4(&u.announced[BGP_AF_IPV4_UNICAST], out, sizeof(out)),
			 "10.0.0.0/24 10.1.1.0/24");
	ck_assert_str_eq(inet_ntoa(u.attr->nexthop), "192.0.2.1");
	ck_assert(!u.has_announced_mp4);
	ck_assert(!bgp_update_take_mp4(&u, &sub));
	ck_assert_ptr_null(sub.attr);
	rel();

	/* MP_REACH_NLRI first (RFC 7606 5.1 position), another next hop: the NLRI field keeps
	 * NEXT_HOP's, the MP prefixes come out as an UPDATE of their own with theirs. */
	ok(&ebgp, "80 0e 10 0001 01 04 c0000209 00 18 0a0101 10 0b0b" BASE, NLRI);
	ck_assert_str_eq(walk4(&u.announced[BGP_AF_IPV4_UNICAST], out, sizeof(out)), "10.0.0.0/24");
	ck_assert_str_eq(inet_ntoa(u.attr->nexthop), "192.0.2.1");
	ck_assert(u.has_announced_mp4);
	ck_assert(bgp_update_take_mp4(&u, &sub));
	ck_assert(!u.has_announced_mp4);
	ck_assert_ptr_null(u.attr_mp4);
	ck_assert(sub.has_announced[BGP_AF_IPV4_UNICAST]);
	ck_assert(!sub.has_withdrawn[BGP_AF_IPV4_UNICAST]);
	ck_assert_ptr_nonnull(sub.attr);
	ck_assert_ptr_ne(sub.attr, u.attr);
	ck_assert_str_eq(inet_ntoa(sub.attr->nexthop), "192.0.2.9");
	ck_assert_uint_eq(bgp_aspath_leftmost(sub.attr->aspath), 65002);
	ck_assert_str_eq(walk4(&sub.announced[BGP_AF_IPV4_UNICAST], out, sizeof(out)),
			 "10.1.1.0/24 11.11.0.0/16");
	bgp_update_release(&sub);
	rel();

	/* Not taken: released with the UPDATE (the teardown checks nothing leaks). */
	ok(&ebgp, BASE "80 0e 0d 0001 01 04 c0000209 00 18 0a0101", NLRI);
	ck_assert(u.has_announced_mp4);
	rel();

	/* Treat-as-withdraw (bad ORIGIN value): every prefix of both fields is withdrawn. */
	taw(&ebgp, "40 01 01 07" PATH NH "80 0e 0d 0001 01 04 c0000209 00 18 0a0101", NLRI);
	ck_assert_str_eq(walk4(&u.announced[BGP_AF_IPV4_UNICAST], out, sizeof(out)),
			 "10.0.0.0/24 10.1.1.0/24");
	ck_assert(!u.has_announced_mp4);
	rel();

	/* A martian MP next hop makes the whole UPDATE treat-as-withdraw. */
	taw(&ebgp, BASE "80 0e 0d 0001 01 04 7f000001 00 18 0a0101", NLRI);
	rel();

	/* Withdrawals in both places, with announcements in both too. */
	ck_assert_int_eq(dec(&ebgp, "18 0a0000 10 0c00",
			     "80 0f 07 0001 01 18 0a0101" BASE
			     "80 0e 0d 0001 01 04 c0000201 00 18 0d0d0d",
			     "18 0e0e0e"),
			 0);
	ck_assert_str_eq(walk4(&u.withdrawn[BGP_AF_IPV4_UNICAST], out, sizeof(out)),
			 "10.0.0.0/24 12.0.0.0/16 10.1.1.0/24");
	ck_assert_str_eq(walk4(&u.announced[BGP_AF_IPV4_UNICAST], out, sizeof(out)),
			 "14.14.14.0/24 13.13.13.0/24");
	ck_assert(!u.end_of_rib[BGP_AF_IPV4_UNICAST]);
	rel();

	/* NEXT_HOP is still mandatory for the NLRI field. */
	taw(&ebgp, ORIGIN PATH "80 0e 0d 0001 01 04 c0000209 00 18 0a0101", NLRI);
	rel();
}
END_TEST

START_TEST(test_mp_unreach)
{
	struct prefix p;
	char buf[64];

	ck_assert_int_eq(dec(&ebgp, "", "80 0f 0b 0002 01 20 20010db8 10 2001", ""), 0);
	ck_assert(u.has_withdrawn[BGP_AF_IPV6_UNICAST]);
	ck_assert_ptr_null(u.attr);
	ck_assert(!u.end_of_rib[BGP_AF_IPV6_UNICAST]);
	ck_assert(bgp_nlri_next(&u.withdrawn[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "2001:db8::/32");
	ck_assert(bgp_nlri_next(&u.withdrawn[BGP_AF_IPV6_UNICAST], BGP_AF_IPV6_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "2001::/16");
	rel();
	reset(&ebgp, "", "80 0f 02 0002", "", BGP_ERR_UPD_OPTIONAL_ATTR, "80 0f 02 0002");
	reset(&ebgp, "", "80 0f 06 0002 01 30 2001", "", BGP_ERR_UPD_OPTIONAL_ATTR, NULL);
	reset(&ebgp, "", "80 0f 03 0002 01 80 0f 03 0002 01", "", BGP_ERR_UPD_MALFORMED_ATTR_LIST,
	      NULL);
	reset(&ebgp, "", "40 0f 03 0002 01", "", BGP_ERR_UPD_ATTR_FLAGS, "40 0f 03 0002 01");
	/* IPv4 withdrawals in both places (RFC 7606 5.1): one reader with both. */
	ck_assert_int_eq(dec(&ebgp, "18 0a0000", "80 0f 07 0001 01 18 0a0101", ""), 0);
	ck_assert(bgp_nlri_next(&u.withdrawn[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.0.0.0/24");
	ck_assert(bgp_nlri_next(&u.withdrawn[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_str_eq(prefix_to_str(&p, buf, sizeof(buf)), "10.1.1.0/24");
	ck_assert(!bgp_nlri_next(&u.withdrawn[BGP_AF_IPV4_UNICAST], BGP_AF_IPV4_UNICAST, &p));
	ck_assert_ptr_null(u.attr);
	rel();
	/* Announce and withdraw in one UPDATE (any combination must be accepted). */
	ok(&ebgp, "80 0f 08 0002 01 20 20010db9" ORIGIN PATH MP_V6 NH, NLRI);
	ck_assert(u.has_withdrawn[BGP_AF_IPV6_UNICAST]);
	ck_assert(u.has_announced[BGP_AF_IPV6_UNICAST]);
	ck_assert(u.has_announced[BGP_AF_IPV4_UNICAST]);
}
END_TEST

/* ---- RFC 7606 3.g duplicates, unknown attributes ---- */

START_TEST(test_duplicates)
{
	/* All but the first discarded. */
	ok(&ebgp, BASE "40 01 01 02", NLRI);
	ck_assert_uint_eq(u.attr->origin, 0);
	ck_assert(u.discarded & ATTR_BIT(BGP_ATTR_ORIGIN));
	rel();
	ok(&ebgp, BASE "80 04 04 00000001 80 04 04 00000002", NLRI);
	ck_assert_uint_eq(u.attr->med, 1);
	rel();
	/* Even when the repeat is malformed: it is not looked at. */
	ok(&ebgp, BASE "40 03 01 00", NLRI);
	rel();
	/* Unknown attributes repeated: only the first is passed on. */
	ok(&ebgp, BASE "c0 63 01 01 c0 63 01 02", NLRI);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->transit->len, 4);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->transit->data[3], 1);
}
END_TEST

START_TEST(test_unknown)
{
	const struct bgp_transit *t;

	/* Optional transitive: kept, Partial bit set (RFC 4271 5). */
	ok(&ebgp, BASE "c0 63 02 abcd", NLRI);
	t = bgp_attr_ex(u.attr)->transit;
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->len, 5);
	ck_assert_uint_eq(t->data[0], 0xe0);
	ck_assert_uint_eq(t->data[1], 0x63);
	ck_assert_uint_eq(t->data[2], 2);
	rel();
	/* Sorted by code whatever the order received. */
	ok(&ebgp, "c0 64 01 02 c0 63 01 01" BASE, NLRI);
	t = bgp_attr_ex(u.attr)->transit;
	ck_assert_uint_eq(t->len, 8);
	ck_assert_uint_eq(t->data[1], 0x63);
	ck_assert_uint_eq(t->data[5], 0x64);
	rel();
	/* Optional non-transitive: dropped quietly. */
	ok(&ebgp, BASE "80 63 02 abcd", NLRI);
	ck_assert_ptr_null(bgp_attr_ex(u.attr)->transit);
	ck_assert_uint_eq(u.discarded, 0);
	rel();
	/* Unrecognized well-known: session reset, 3/2 with the attribute (RFC 4271 6.3). */
	reset(&ebgp, "", BASE "40 63 02 abcd", NLRI, BGP_ERR_UPD_UNRECOGNIZED_WELLKNOWN,
	      "40 63 02 abcd");
	/* Deprecated codes are unknown to us too (optional ones pass). */
	ok(&ebgp, BASE "c0 15 04 00000001", NLRI);
}
END_TEST

/* ---- RFC 7606 4: lengths against the attribute section; 3.b; 5.2; 5.3 ---- */

START_TEST(test_section_overrun)
{
	/* The last attribute runs past the section: treat-as-withdraw, NLRI still found. */
	taw(&ebgp, BASE "80 04 08 00000064", NLRI);
	ck_assert_str_eq(u.reason, "attribute length overruns the attribute section (RFC 7606 4)");
	rel();
	/* Fewer than 3 (4 with Extended Length) octets left for a header. */
	taw(&ebgp, BASE "80 04", NLRI);
	rel();
	taw(&ebgp, BASE "90 04 00", NLRI);
	rel();
	taw(&ebgp, BASE "80", NLRI);
	rel();
	/* RFC 7606 5.2: the same with nothing announced resets the session. */
	reset(&ebgp, "18 0a0000", BASE "80 04 08 00000064", "", BGP_ERR_UPD_ATTR_LENGTH,
	      "80 04 08 00000064");
	reset(&ebgp, "", BASE "80", "", BGP_ERR_UPD_ATTR_LENGTH, "80");
	/* Even when nothing before the break parsed. */
	reset(&ebgp, "18 0a0000", "80", "", BGP_ERR_UPD_ATTR_LENGTH, "80");
	reset(&ebgp, "", "80 0f 03 0002 01 80", "", BGP_ERR_UPD_ATTR_LENGTH, "80");
}
END_TEST

START_TEST(test_no_nlri_errors)
{
	/* RFC 7606 5.2: attributes, no NLRI, an error stronger than discard -> reset. */
	reset(&ebgp, "18 0a0000", "40 01 01 05", "", BGP_ERR_UPD_INVALID_ORIGIN, "40 01 01 05");
	reset(&ebgp, "", ORIGIN PATH "80 04 02 0000", "", BGP_ERR_UPD_ATTR_LENGTH, "80 04 02 0000");
	/* A discard is fine. */
	ck_assert_int_eq(dec(&ebgp, "18 0a0000", "40 06 01 00", ""), 0);
	ck_assert(u.discarded & ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE));
	ck_assert(u.has_withdrawn[BGP_AF_IPV4_UNICAST]);
	rel();
	/* An UPDATE with MP_UNREACH_NLRI and a bad attribute is not "only MP_UNREACH". */
	reset(&ebgp, "", "80 0f 03 0002 01 80 04 02 0000", "", BGP_ERR_UPD_ATTR_LENGTH, NULL);
	/* Missing attributes do not matter without NLRI. */
	ck_assert_int_eq(dec(&ebgp, "18 0a0000", "", ""), 0);
	ck_assert(!u.treat_as_withdraw);
	rel();
	/* NLRI but no attributes at all: treat-as-withdraw (RFC 7606 3.d). */
	taw(&ebgp, "", NLRI);
	ck_assert(!u.has_withdrawn[BGP_AF_IPV4_UNICAST]);
}
END_TEST

START_TEST(test_lengths_inconsistent)
{
	static const uint8_t b1[] = { 0x00, 0x05, 0x18, 0x0a, 0x00, 0x00 };
	static const uint8_t b2[] = { 0x00, 0x00, 0x00, 0x05, 0x40, 0x01, 0x01, 0x00 };
	static const uint8_t b3[] = { 0x00, 0x00 };

	/* RFC 7606 3.b: Malformed Attribute List. */
	ck_assert_int_eq(bgp_update_decode(&u, b1, sizeof(b1), &ebgp, &e), -1);
	assert_err(&e, BGP_ERR_UPDATE, BGP_ERR_UPD_MALFORMED_ATTR_LIST, "");
	ck_assert_int_eq(bgp_update_decode(&u, b2, sizeof(b2), &ebgp, &e), -1);
	assert_err(&e, BGP_ERR_UPDATE, BGP_ERR_UPD_MALFORMED_ATTR_LIST, "");
	ck_assert_int_eq(bgp_update_decode(&u, b3, sizeof(b3), &ebgp, &e), -1);
	assert_err(&e, BGP_ERR_UPDATE, BGP_ERR_UPD_MALFORMED_ATTR_LIST, "");
	/* RFC 7606 3.i, 5.3: Withdrawn Routes and NLRI syntax -> Invalid Network Field. */
	reset(&ebgp, "21 0a000000 00", "", "", BGP_ERR_UPD_INVALID_NETWORK, "");
	reset(&ebgp, "18 0a00", "", "", BGP_ERR_UPD_INVALID_NETWORK, "");
	reset(&ebgp, "", BASE, "21 0a00000000", BGP_ERR_UPD_INVALID_NETWORK, "");
	reset(&ebgp, "", BASE, "18 0a0000 20 0a", BGP_ERR_UPD_INVALID_NETWORK, "");
}
END_TEST

/* ---- RFC 6793: 2-octet sessions ---- */

START_TEST(test_as4_reconstruction)
{
	char buf[128];

	/* AS_PATH "65002 23456", AS4_PATH "4200000000": merged. */
	ok(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 11 06 02 01 fa56ea00", NLRI);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002 4200000000");
	rel();
	/* AGGREGATOR not AS_TRANS: AS4_PATH and AS4_AGGREGATOR ignored. */
	ok(&ebgp2,
	   ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 07 06 fdeb c0000203 c0 11 06 02 01 fa56ea00"
		  "c0 12 08 fa56ea01 c0000204",
	   NLRI);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002 23456");
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_as, 65003);
	ck_assert_uint_eq(u.discarded, 0);
	rel();
	/* AGGREGATOR AS_TRANS + AS4_AGGREGATOR: the 4-octet aggregator, and the merge. */
	ok(&ebgp2,
	   ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 07 06 5ba0 c0000203 c0 11 06 02 01 fa56ea00"
		  "c0 12 08 fa56ea01 c0000204",
	   NLRI);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002 4200000000");
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_as, 4200000001u);
	ck_assert_uint_eq(bgp_attr_ex(u.attr)->aggregator_addr.s_addr, ip4("192.0.2.4").s_addr);
	rel();
	/* Malformed AS4_PATH: discarded, AS_PATH used (RFC 6793 6). */
	discard(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 11 06 02 02 fa56ea00", NLRI,
		BGP_ATTR_AS4_PATH);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002 23456");
	rel();
	discard(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 11 06 03 01 fa56ea00", NLRI,
		BGP_ATTR_AS4_PATH);
	rel();
	discard(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 11 00", NLRI, BGP_ATTR_AS4_PATH);
	rel();
	discard(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "80 11 06 02 01 fa56ea00", NLRI,
		BGP_ATTR_AS4_PATH); /* flags */
	rel();
	discard(&ebgp2, ORIGIN "40 02 06 02 02 fdea 5ba0" NH "c0 12 07 fa56ea01 c00002", NLRI,
		BGP_ATTR_AS4_AGGREGATOR);
	rel();
	/* AS4 attributes between 4-octet speakers are discarded. */
	discard(&ebgp, BASE "c0 11 06 02 01 fa56ea00", NLRI, BGP_ATTR_AS4_PATH);
	bgp_aspath_to_str(u.attr->aspath, buf, sizeof(buf));
	ck_assert_str_eq(buf, "65002");
	rel();
	discard(&ebgp, BASE "c0 12 08 fa56ea01 c0000204", NLRI, BGP_ATTR_AS4_AGGREGATOR);
}
END_TEST

/* ---- end-of-RIB ---- */

START_TEST(test_end_of_rib)
{
	static const uint8_t eor4[] = { 0, 0, 0, 0 };

	ck_assert_int_eq(bgp_update_decode(&u, eor4, sizeof(eor4), &ebgp, &e), 0);
	ck_assert(u.end_of_rib[BGP_AF_IPV4_UNICAST]);
	ck_assert(!u.end_of_rib[BGP_AF_IPV6_UNICAST]);
	rel();
	ck_assert_int_eq(dec(&ebgp, "", "80 0f 03 0002 01", ""), 0);
	ck_assert(u.end_of_rib[BGP_AF_IPV6_UNICAST]);
	ck_assert(!u.has_withdrawn[BGP_AF_IPV6_UNICAST]);
	rel();
	/* With other attributes it is not an End-of-RIB. */
	ck_assert_int_eq(dec(&ebgp, "", "80 0f 03 0002 01 40 06 00", ""), 0);
	ck_assert(!u.end_of_rib[BGP_AF_IPV6_UNICAST]);
	rel();
	/* An empty MP_UNREACH for a family we do not handle: nothing. */
	ck_assert_int_eq(dec(&ebgp, "", "80 0f 03 0001 02", ""), 0);
	ck_assert(!u.end_of_rib[BGP_AF_IPV4_UNICAST]);
}
END_TEST

/* ---- encoding ---- */

static struct bgp_attr *decode_attr(const struct bgp_codec_ctx *ctx, const char *attrs)
{
	ok(ctx, attrs, NLRI);
	return bgp_attr_ref(u.attr);
}

START_TEST(test_encode)
{
	struct bgp_attr *a;
	uint8_t buf[512], want[512];
	struct stream s;
	size_t n;

	/* Received from an iBGP peer, sent on unchanged: type-code order, unknown merged in
	 * (11 between the known 10 and 16, 0x63 after them all). */
	a = decode_attr(&ibgp, ORIGIN
			"40 02 0a 02 02 0000fdea fa56ea00" NH "80 04 04 00000005"
			"40 05 04 00000064 40 06 00 c0 07 08 fa56ea00 c0000203"
			"c0 08 04 fdea0001 c0 0b 01 05 c0 10 08 0002fdea00000064 c0 20 0c 0000fdea"
			"00000001 00000002 c0 63 01 07");
	rel();
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_attr_encode(&s, a, &ibgp, BGP_AF_IPV4_UNICAST), 0);
	n = hex(want, sizeof(want),
		ORIGIN "40 02 0a 02 02 0000fdea fa56ea00" NH "80 04 04 00000005"
		       "40 05 04 00000064 40 06 00 c0 07 08 fa56ea00 c0000203"
		       "c0 08 04 fdea0001 e0 0b 01 05 c0 10 08 0002fdea00000064 c0 20 0c 0000fdea"
		       "00000001 00000002 e0 63 01 07");
	ck_assert_uint_eq(s.endp, n);
	ck_assert_mem_eq(buf, want, n);

	/* To a 2-octet peer: AS_TRANS, AS4_PATH and AS4_AGGREGATOR. */
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_attr_encode(&s, a, &ebgp2, BGP_AF_IPV4_UNICAST), 0);
	n = hex(want, sizeof(want),
		ORIGIN "40 02 06 02 02 fdea 5ba0" NH "80 04 04 00000005"
		       "40 05 04 00000064 40 06 00 c0 07 06 5ba0 c0000203"
		       "c0 08 04 fdea0001 e0 0b 01 05 c0 10 08 0002fdea00000064"
		       "c0 11 0a 02 02 0000fdea fa56ea00 c0 12 08 fa56ea00 c0000203"
		       "c0 20 0c 0000fdea 00000001 00000002 e0 63 01 07");
	ck_assert_uint_eq(s.endp, n);
	ck_assert_mem_eq(buf, want, n);

	/* IPv6: the same without NEXT_HOP. Full buffer: -1. */
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_attr_encode(&s, a, &ibgp, BGP_AF_IPV6_UNICAST), 0);
	n = hex(want, sizeof(want),
		ORIGIN "40 02 0a 02 02 0000fdea fa56ea00 80 04 04 00000005"
		       "40 05 04 00000064 40 06 00 c0 07 08 fa56ea00 c0000203"
		       "c0 08 04 fdea0001 e0 0b 01 05 c0 10 08 0002fdea00000064 c0 20 0c 0000fdea"
		       "00000001 00000002 e0 63 01 07");
	ck_assert_uint_eq(s.endp, n);
	ck_assert_mem_eq(buf, want, n);
	stream_init_writer(&s, buf, 20);
	ck_assert_int_eq(bgp_attr_encode(&s, a, &ibgp, BGP_AF_IPV4_UNICAST), -1);
	bgp_attr_unref(a);
}
END_TEST

START_TEST(test_encode_long_communities)
{
	uint32_t vals[100];
	struct bgp_attr t, *a;
	uint8_t buf[1024];
	struct stream s;
	int i;

	/* 100 communities = 400 bytes: Extended Length. */
	for (i = 0; i < 100; i++)
		vals[i] = 0xfde90000u + (uint32_t)i;
	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH);
	t.communities = bgp_u32list_intern(vals, 100);
	a = bgp_attr_intern(&t);
	bgp_u32list_unref(t.communities);
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_attr_encode(&s, a, &ebgp, BGP_AF_IPV6_UNICAST), 0);
	/* ORIGIN (4), empty AS_PATH (3), COMMUNITIES (4 + 400). */
	ck_assert_uint_eq(s.endp, 4 + 3 + 404);
	ck_assert_uint_eq(buf[7], 0xd0);
	ck_assert_uint_eq(buf[8], BGP_ATTR_COMMUNITIES);
	ck_assert_uint_eq(buf[9] << 8 | buf[10], 400);
	bgp_attr_unref(a);
}
END_TEST

/* ---- interning ---- */

START_TEST(test_interning)
{
	struct bgp_attr *a, *b;
	struct bgp_update u2;
	struct bgp_error e2;
	uint8_t copy[256];
	size_t len;

	ok(&ebgp, BASE "c0 08 04 fdea0001", NLRI);
	a = u.attr;
	ck_assert_uint_eq(a->refcnt, 1);
	/* The same attributes again: the same set, one more reference. */
	len = body_len;
	memcpy(copy, body, len);
	ck_assert_int_eq(bgp_update_decode(&u2, copy, len, &ebgp, &e2), 0);
	ck_assert_ptr_eq(u2.attr, a);
	ck_assert_uint_eq(a->refcnt, 2);
	ck_assert_uint_eq(bgp_attr_count(), 1);
	bgp_update_release(&u2);
	ck_assert_uint_eq(a->refcnt, 1);
	/* A different MED: a different set sharing the AS path and community list. */
	ck_assert_int_eq(dec(&ebgp, "", BASE "c0 08 04 fdea0001 80 04 04 00000001", NLRI), 0);
	b = u.attr;
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_eq(a->aspath, b->aspath);
	ck_assert_ptr_eq(a->communities, b->communities);
	ck_assert_uint_eq(bgp_attr_count(), 2);
	bgp_attr_unref(a);
	ck_assert_uint_eq(bgp_attr_count(), 1);
	ck_assert_uint_eq(b->communities->refcnt, 1);
}
END_TEST

/*
 * Released sets are deleted BGP_ATTR_RELEASE_AHEAD releases later (bgp_attr_intern.c): never
 * found again meanwhile (a set interned again is a new one, which the queue does not take
 * away), no more than that many held, and all gone once the counts are asked for.
 */
START_TEST(test_release_queue)
{
	static const uint8_t seq[] = { 2, 2, 0, 0, 0xfd, 0xea, 0, 0, 0xfd, 0xeb };
	struct bgp_aspath *path = bgp_aspath_intern_raw(seq, sizeof(seq));
	struct bgp_attr t, *set[20], *again, *found;

	ck_assert_ptr_nonnull(path);
	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		    ATTR_BIT(BGP_ATTR_NEXT_HOP) | ATTR_BIT(BGP_ATTR_MED);
	t.aspath = path;
	t.nexthop = ip4("192.0.2.1");
	for (uint32_t i = 0; i < 20; i++) {
		t.med = i;
		set[i] = bgp_attr_intern(&t);
		ck_assert_uint_eq(set[i]->refcnt, 1);
	}
	ck_assert_uint_eq(path->refcnt, 21);
	for (uint32_t i = 0; i < 20; i++)
		bgp_attr_unref(set[i]);
	/* Only the queued sets still hold the path. */
	ck_assert_uint_le(path->refcnt, 1 + BGP_ATTR_RELEASE_AHEAD);
	ck_assert_uint_gt(path->refcnt, 1);
	/* The last one released, certainly queued: interned again, it is a new set. */
	t.med = 19;
	again = bgp_attr_intern(&t);
	ck_assert_uint_eq(again->refcnt, 1);
	ck_assert_uint_eq(bgp_attr_count(), 1); /* the queue done; the new set stays */
	ck_assert_uint_eq(path->refcnt, 2);
	ck_assert_uint_eq(again->med, 19);
	ck_assert_ptr_eq(again->aspath, path);
	found = bgp_attr_intern(&t);
	ck_assert_ptr_eq(found, again);
	ck_assert_uint_eq(again->refcnt, 2);
	bgp_attr_unref(found);
	bgp_attr_unref(again);
	bgp_aspath_unref(path);
	ck_assert_uint_eq(bgp_attr_count(), 0);
	ck_assert_uint_le(bgp_attr_aspath_count(), 1); /* the empty path, held by the module */
}
END_TEST

/* An AS path of n ASes (one SEQUENCE; over BGP_VSTORE_MAX_SIZE bytes from about 60 ASes on,
 * kept in lib/hash.c instead of the store), the first one asn. */
static struct bgp_aspath *path_of(uint32_t asn, unsigned n)
{
	uint8_t seq[2 + 4 * 255];

	seq[0] = 2;
	seq[1] = (uint8_t)n;
	for (unsigned i = 0; i < n; i++) {
		uint32_t as = asn + i;

		seq[2 + 4 * i] = (uint8_t)(as >> 24);
		seq[3 + 4 * i] = (uint8_t)(as >> 16);
		seq[4 + 4 * i] = (uint8_t)(as >> 8);
		seq[5 + 4 * i] = (uint8_t)as;
	}
	return bgp_aspath_intern_raw(seq, (uint16_t)(2 + 4 * n));
}

/*
 * The release queue loads the index slots of the AS paths and community lists whose last
 * reference a queued set holds (bgp_aspath_prefetch_release(), bgp_u32list_prefetch_release()):
 * hints, which change nothing. Sets with a path and a list of their own, or shared with the
 * set before them, or a path too long for the store, released in turn: each path and list
 * stays while a set or its owner holds it, and every one goes with its last set.
 */
START_TEST(test_release_queue_paths)
{
	enum { SETS = 40 };
	struct bgp_attr t, *set[SETS];
	size_t paths0 = bgp_attr_aspath_count(), lists0 = bgp_attr_list_count();
	struct bgp_aspath *kept = path_of(64496, 2), *large = path_of(65000, 100);
	struct bgp_u32list *list;
	uint32_t comm[2];

	ck_assert_ptr_nonnull(kept);
	ck_assert_ptr_nonnull(large);
	/* The hints alone: nothing released, whatever the count. */
	bgp_aspath_prefetch_release(NULL);
	bgp_u32list_prefetch_release(NULL);
	bgp_aspath_prefetch_release(kept);
	bgp_aspath_prefetch_release(large);
	ck_assert_uint_eq(kept->refcnt, 1);
	ck_assert_uint_eq(large->refcnt, 1);
	ck_assert_uint_eq(bgp_attr_aspath_count(), paths0 + 2);
	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		    ATTR_BIT(BGP_ATTR_NEXT_HOP) | ATTR_BIT(BGP_ATTR_COMMUNITIES);
	t.nexthop = ip4("192.0.2.1");
	for (uint32_t i = 0; i < SETS; i++) {
		/* Every third set shares the previous one's path and list; every fifth has the
		 * long path, every seventh the path its owner keeps. */
		if (i % 3 == 1) {
			t.aspath = bgp_aspath_ref(set[i - 1]->aspath);
			t.communities = bgp_u32list_ref(set[i - 1]->communities);
		} else {
			t.aspath = i % 5 == 0	? bgp_aspath_ref(large)
				   : i % 7 == 0 ? bgp_aspath_ref(kept)
						: path_of(65536 + 10 * i, 3);
			comm[0] = 0xfdea0000 | i;
			comm[1] = 0xfdeb0000 | i;
			t.communities = bgp_u32list_intern(comm, 2);
		}
		t.med = i;
		set[i] = bgp_attr_intern(&t);
		ck_assert_uint_eq(set[i]->refcnt, 1);
		bgp_aspath_unref(t.aspath);
		bgp_u32list_unref(t.communities);
	}
	for (uint32_t i = 0; i < SETS; i++) {
		bgp_attr_unref(set[i]);
		/* The queue's hints dropped no reference: the owner's path and the long one are
		 * still there, and an interned list still found. */
		ck_assert_uint_ge(kept->refcnt, 1);
		ck_assert_uint_ge(large->refcnt, 1);
		comm[0] = 0xfdea0000 | (SETS - 1);
		comm[1] = 0xfdeb0000 | (SETS - 1);
		list = bgp_u32list_intern(comm, 2);
		ck_assert_uint_eq(list->count, 2);
		bgp_u32list_unref(list);
	}
	ck_assert_uint_eq(bgp_attr_count(), 0); /* the queue done */
	ck_assert_uint_eq(kept->refcnt, 1);
	ck_assert_uint_eq(large->refcnt, 1);
	ck_assert_uint_eq(bgp_attr_aspath_count(), paths0 + 2);
	ck_assert_uint_eq(bgp_attr_list_count(), lists0);
	bgp_aspath_unref(kept);
	bgp_aspath_unref(large);
	ck_assert_uint_eq(bgp_attr_aspath_count(), paths0);
}
END_TEST

START_TEST(test_intern_template)
{
	struct bgp_attr t, *a, *b;
	struct bgp_attr_extra ex;

	/* No AS path in the template: the empty one. */
	memset(&t, 0, sizeof(t));
	t.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_NEXT_HOP);
	t.nexthop = ip4("192.0.2.1");
	bgp_attr_set_weight(&t, &ex, 32768);
	a = bgp_attr_intern(&t);
	ck_assert_uint_eq(bgp_attr_weight(a), 32768);
	ck_assert_ptr_eq(bgp_attr_at(a->id), a); /* the id paths hold finds the set */
	ck_assert_ptr_nonnull(a->aspath);
	ck_assert_uint_eq(a->aspath->len, 0);
	t.aspath = bgp_aspath_empty();
	b = bgp_attr_intern(&t);
	ck_assert_ptr_eq(a, b);
	bgp_aspath_unref(t.aspath);
	bgp_attr_set_weight(&t, &ex, 0);
	bgp_attr_unref(b);
	b = bgp_attr_intern(&t);
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_null(b->extra); /* weight 0 and nothing else: no extras block */
	ck_assert_ptr_eq(bgp_attr_at(b->id), b);
	bgp_attr_unref(a);
	bgp_attr_unref(b);
	bgp_attr_unref(NULL);
	ck_assert_ptr_null(bgp_attr_ref(NULL));
	ck_assert_str_eq(bgp_attr_name(BGP_ATTR_MP_REACH_NLRI), "MP_REACH_NLRI");
	ck_assert_ptr_null(bgp_attr_name(99));
}
END_TEST

START_TEST(test_community_text)
{
	uint32_t c;
	char buf[32];

	ck_assert_int_eq(bgp_community_from_str("65001:100", &c), 0);
	ck_assert_uint_eq(c, 0xfde90064);
	ck_assert_str_eq(bgp_community_str(c, buf, sizeof(buf)), "65001:100");
	ck_assert_int_eq(bgp_community_from_str("no-export", &c), 0);
	ck_assert_uint_eq(c, BGP_COMM_NO_EXPORT);
	ck_assert_int_eq(bgp_community_from_str("graceful-shutdown", &c), 0);
	ck_assert_str_eq(bgp_community_str(0xFFFFFF03u, buf, sizeof(buf)), "local-AS");
	ck_assert_int_eq(bgp_community_from_str("4294967295", &c), 0);
	ck_assert_uint_eq(c, 0xffffffffu);
	ck_assert_int_eq(bgp_community_from_str("65536:1", &c), -1);
	ck_assert_int_eq(bgp_community_from_str("1:65536", &c), -1);
	ck_assert_int_eq(bgp_community_from_str("1:", &c), -1);
	ck_assert_int_eq(bgp_community_from_str("x", &c), -1);
	ck_assert_int_eq(bgp_community_from_str("1:2:3", &c), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_attr");
	TCase *tc = tcase_create("attr");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_origin);
	tcase_add_test(tc, test_as_path);
	tcase_add_test(tc, test_next_hop);
	tcase_add_test(tc, test_med);
	tcase_add_test(tc, test_local_pref);
	tcase_add_test(tc, test_aggregation);
	tcase_add_test(tc, test_communities);
	tcase_add_test(tc, test_communities_sorted_whatever_the_count);
	tcase_add_test(tc, test_reflection);
	tcase_add_test(tc, test_mp_reach);
	tcase_add_test(tc, test_mp_reach_reset);
	tcase_add_test(tc, test_mp_unreach);
	tcase_add_test(tc, test_mixed_ipv4);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_section_overrun);
	tcase_add_test(tc, test_no_nlri_errors);
	tcase_add_test(tc, test_lengths_inconsistent);
	tcase_add_test(tc, test_as4_reconstruction);
	tcase_add_test(tc, test_end_of_rib);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_encode_long_communities);
	tcase_add_test(tc, test_interning);
	tcase_add_test(tc, test_intern_template);
	tcase_add_test(tc, test_release_queue);
	tcase_add_test(tc, test_release_queue_paths);
	tcase_add_test(tc, test_community_text);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
