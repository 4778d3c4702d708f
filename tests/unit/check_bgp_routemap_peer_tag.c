/* SPDX-License-Identifier: ISC */
/*
 * match peer, match tag and set tag (bgpd/policy/bgp_routemap.c) against FRR 8.4's rules:
 * an address matches the neighbor an inbound map runs for and no other, in either family, and
 * nothing in an outbound map (no neighbor address there, as FRR 8.4); `local` matches in maps
 * of our own routes (no ctx) only; an interface name matches no
 * numbered neighbor; set tag goes into the route's extras (interned with them, so two tags
 * are two attribute sets), match tag compares it (an untagged route does not match).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/wire/bgp_attr.h"

static struct bgp_attr base;
static struct prefix p;

static void setup(void)
{
	memset(&base, 0, sizeof(base));
	base.aspath = bgp_aspath_from_str("65002");
	base.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH) |
		       ATTR_BIT(BGP_ATTR_NEXT_HOP);
	inet_pton(AF_INET, "192.0.2.2", &base.nexthop);
	ck_assert_int_eq(prefix_from_str(&p, "198.51.100.0/24", false), 0);
}

static void teardown(void)
{
	bgp_aspath_unref(base.aspath);
	route_map_reset();
	ck_assert_uint_eq(MTYPE_BGP_ROUTEMAP->allocated, 0);
}

static struct ipaddr addr(const char *s)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, s), 0);
	return a;
}

/* One entry `permit SEQ` with `match peer` from form, `set weight SEQ` to tell it. */
static void peer_entry(const char *map, uint16_t seq, enum rmap_match_peer kind, const char *v)
{
	struct rmap_entry e = { .seq = seq, .permit = true, .weight_set = true, .weight = seq };

	e.match_peer = kind;
	if (kind == RMAP_PEER_ADDR)
		e.match_peer_addr = addr(v);
	else if (kind == RMAP_PEER_IFNAME)
		e.match_peer_ifname = XSTRDUP(MTYPE_BGP_ROUTEMAP, v);
	route_map_entry_set(map, &e);
}

/* The weight the map gives base in the inbound map of neighbor peer ("": an outbound map,
 * NULL: a map of our own routes), 0 when it denies. */
static uint32_t weight_for(const char *map, const char *peer)
{
	struct ipaddr a;
	struct rmap_ctx ctx = { 0 };
	struct rmap_refs refs;
	struct bgp_attr t = base;
	bool ok;

	if (peer && *peer) {
		a = addr(peer);
		ctx.peer = &a;
	}
	ok = route_map_apply_ctx(map, &p, &t, &refs, peer ? &ctx : NULL);
	route_map_refs_release(&refs);
	return ok ? bgp_attr_weight(&t) : 0;
}

START_TEST(test_match_peer_address)
{
	peer_entry("M", 10, RMAP_PEER_ADDR, "192.0.2.2");
	peer_entry("M", 20, RMAP_PEER_ADDR, "2001:db8::2");
	ck_assert_uint_eq(weight_for("M", "192.0.2.2"), 10);
	ck_assert_uint_eq(weight_for("M", "2001:db8::2"), 20);
	ck_assert_uint_eq(weight_for("M", "192.0.2.3"), 0);
	ck_assert_uint_eq(weight_for("M", "2001:db8::3"), 0);
	/* An IPv4 address never equals an IPv6 one, not even a mapped one. */
	ck_assert_uint_eq(weight_for("M", "::ffff:192.0.2.2"), 0);
	/* Our own routes have no neighbor: an address never matches them; nor does it in an
	 * outbound map (FRR 8.4). */
	ck_assert_uint_eq(weight_for("M", NULL), 0);
	ck_assert_uint_eq(weight_for("M", ""), 0);
}
END_TEST

START_TEST(test_match_peer_local_and_ifname)
{
	peer_entry("M", 10, RMAP_PEER_LOCAL, NULL);
	peer_entry("M", 20, RMAP_PEER_IFNAME, "eth0");
	ck_assert_uint_eq(weight_for("M", NULL), 10);
	ck_assert_uint_eq(weight_for("M", "192.0.2.2"), 0);
	ck_assert_uint_eq(weight_for("M", ""), 0); /* an outbound map is a neighbor's */
	peer_entry("N", 20, RMAP_PEER_IFNAME, "eth0");
	ck_assert_uint_eq(weight_for("N", NULL), 0);
	ck_assert_uint_eq(weight_for("N", "192.0.2.2"), 0);
	/* The entry's strings are the map's: replaced and freed with it (teardown counts). */
	peer_entry("N", 20, RMAP_PEER_IFNAME, "eth1");
}
END_TEST

START_TEST(test_set_and_match_tag)
{
	struct rmap_entry set = { .seq = 10, .permit = true, .tag_set = true, .tag = 77 };
	struct rmap_entry match = {
		.seq = 10, .permit = true, .match_tag_set = true, .match_tag = 77
	};
	struct rmap_refs refs;
	struct bgp_attr t = base, *tagged, *plain;

	route_map_entry_set("SET", &set);
	route_map_entry_set("MATCH", &match);
	/* Untagged: match tag 77 does not hold. */
	ck_assert(!route_map_apply("MATCH", &p, &t, &refs));
	route_map_refs_release(&refs);
	/* set tag puts it in the template's extras; the interned set keeps it. */
	t = base;
	ck_assert(route_map_apply("SET", &p, &t, &refs));
	ck_assert_uint_eq(bgp_attr_ex(&t)->tag, 77);
	ck_assert_ptr_eq(base.extra, NULL); /* the route's own attributes are untouched */
	tagged = bgp_attr_intern(&t);
	route_map_refs_release(&refs);
	plain = bgp_attr_intern(&base);
	ck_assert_ptr_ne(tagged, plain);
	ck_assert_uint_eq(bgp_attr_ex(tagged)->tag, 77);
	/* An outbound map sees the tag an inbound one set. */
	t = *tagged;
	ck_assert(route_map_apply("MATCH", &p, &t, &refs));
	route_map_refs_release(&refs);
	bgp_attr_unref(tagged);
	bgp_attr_unref(plain);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_routemap_peer_tag");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_match_peer_address);
	tcase_add_test(tc, test_match_peer_local_and_ifname);
	tcase_add_test(tc, test_set_and_match_tag);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
