/* SPDX-License-Identifier: ISC */
/*
 * Communities on export, through the real RIB and fake sessions that decode what they are
 * sent: the RFC 1997 well-known communities (NO_ADVERTISE to nobody, NO_EXPORT and
 * NO_EXPORT_SUBCONFED not to eBGP; no confederations), BLACKHOLE from an eBGP neighbor kept
 * in the AS with NO_EXPORT (RFC 7999 3.2, as FRR 8.4; from iBGP passed on as it is), and `no
 * neighbor X send-community [standard|extended|large|all]` leaving the kind out for that neighbor
 * only, while the same attribute set goes whole to the others.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *src, *ibgp, *ebgp, *quiet;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	src = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.2");
	ibgp = fake_peer_new(bgp, "192.0.2.11", 65001, "192.0.2.1", "198.51.100.11");
	ebgp = fake_peer_new(bgp, "203.0.113.6", 65003, "203.0.113.5", "198.51.100.3");
	quiet = fake_peer_new(bgp, "203.0.113.10", 65004, "203.0.113.9", "198.51.100.4");
	fake_peer_up(src);
	fake_peer_up(ibgp);
	fake_peer_up(ebgp);
	fake_peer_up(quiet);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	fake_peer_free(src);
	fake_peer_free(ibgp);
	fake_peer_free(ebgp);
	fake_peer_free(quiet);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

/* The extended communities every announcement carries: route target 65002:7 (transitive)
 * and a non-transitive link bandwidth of 65002 (100 Mbps, 12500000 bytes/s as a float). */
static struct bgp_ecommlist *ext_rt_lb(void)
{
	static const uint32_t v[] = { 0x0002FDEAu, 7, 0x4004FDEAu, 0x4B3EBC20u };

	return bgp_ecommlist_intern(v, 2);
}

/* from announces pfx with communities `comms` (text), large communities 65002:1:1 and an
 * extended community. */
static void announce_from(struct fake_peer *from, const char *pfx, const char *comms)
{
	struct bgp_attr_extra ex = bgp_attr_extra_none;
	uint32_t v[8], n = 0, lc[3] = { 65002, 1, 1 };
	char copy[128], *save = NULL;
	struct bgp_u32list *cl = NULL;
	struct prefix p = tpfx(pfx);
	struct bgp_attr t;

	tmpl_init(&t, from == src ? "65002" : "", from == src ? "203.0.113.2" : "192.0.2.11",
		  BGP_ORIGIN_IGP);
	snprintf(copy, sizeof(copy), "%s", comms);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_community_from_str(w, &v[n++]), 0);
	if (n) {
		t.communities = cl = bgp_u32list_intern(v, n);
		t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	ex.lcommunities = bgp_lcommlist_intern(lc, 1);
	ex.ecommunities = ext_rt_lb();
	t.extra = &ex;
	t.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES) | ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	if (cl)
		bgp_u32list_unref(cl);
	bgp_lcommlist_unref(ex.lcommunities);
	bgp_ecommlist_unref(ex.ecommunities);
	fake_run(bgp, RUN_ALL);
}

static void announce(const char *pfx, const char *comms)
{
	announce_from(src, pfx, comms);
}

static const char *comms_of(const struct bgp_attr *a, char *buf, size_t size)
{
	bgp_u32list_community_str(a->communities, buf, size);
	return buf;
}

/* The extended communities a neighbor is sent, as FRR shows them ("" for none). */
static const char *ext_of(const struct bgp_attr *a, char *buf, size_t size)
{
	ck_assert_int_ge(bgp_ecommlist_str(bgp_attr_ex(a)->ecommunities, buf, size), 0);
	ck_assert(!!*buf == !!(a->present & ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES)));
	return buf;
}

static bool has_ext(const struct bgp_attr *a)
{
	char buf[128];

	return *ext_of(a, buf, sizeof(buf));
}

START_TEST(test_well_known)
{
	char buf[128];

	announce("198.51.100.0/28", "65002:1");
	announce("198.51.100.16/28", "65002:1 no-export");
	announce("198.51.100.32/28", "no-advertise");
	announce("198.51.100.48/28", "local-AS");
	announce("198.51.100.64/28", "blackhole 65002:666");
	/* Plain: everyone. */
	ck_assert_ptr_nonnull(fake_adj(ibgp, "198.51.100.0/28"));
	ck_assert_ptr_nonnull(fake_adj(ebgp, "198.51.100.0/28"));
	/* NO_EXPORT: iBGP only, with the community. */
	ck_assert_str_eq(comms_of(fake_adj(ibgp, "198.51.100.16/28"), buf, sizeof(buf)),
			 "65002:1 no-export");
	ck_assert_ptr_null(fake_adj(ebgp, "198.51.100.16/28"));
	ck_assert_ptr_null(fake_adj(quiet, "198.51.100.16/28"));
	/* NO_ADVERTISE: nobody. */
	ck_assert_ptr_null(fake_adj(ibgp, "198.51.100.32/28"));
	ck_assert_ptr_null(fake_adj(ebgp, "198.51.100.32/28"));
	/* NO_EXPORT_SUBCONFED (local-AS): iBGP only (no confederation). */
	ck_assert_ptr_nonnull(fake_adj(ibgp, "198.51.100.48/28"));
	ck_assert_ptr_null(fake_adj(ebgp, "198.51.100.48/28"));
	/* BLACKHOLE from eBGP: NO_EXPORT added on receipt, so iBGP only. */
	ck_assert_str_eq(comms_of(fake_adj(ibgp, "198.51.100.64/28"), buf, sizeof(buf)),
			 "65002:666 blackhole no-export");
	ck_assert_ptr_null(fake_adj(ebgp, "198.51.100.64/28"));
	/* From iBGP it is passed on as it is. */
	announce_from(ibgp, "198.51.100.80/28", "blackhole");
	ck_assert_str_eq(comms_of(fake_adj(ebgp, "198.51.100.80/28"), buf, sizeof(buf)),
			 "blackhole");
}
END_TEST

/* RFC 4360 6: the non-transitive link bandwidth stays inside the AS; the route target goes
 * everywhere, and a list left empty leaves the attribute out. */
START_TEST(test_ext_transitive)
{
	char buf[128];

	announce("198.51.100.160/28", "");
	ck_assert_str_eq(ext_of(fake_adj(ibgp, "198.51.100.160/28"), buf, sizeof(buf)),
			 "RT:65002:7 LB:65002:12500000 (100.000 Mbps)");
	ck_assert_str_eq(ext_of(fake_adj(ebgp, "198.51.100.160/28"), buf, sizeof(buf)),
			 "RT:65002:7");
}
END_TEST

/* Only non-transitive values: towards eBGP no EXTENDED_COMMUNITIES at all. */
START_TEST(test_ext_only_non_transitive)
{
	static const uint32_t lb[] = { 0x4004FDEAu, 0x4B3EBC20u };
	struct bgp_attr_extra ex = bgp_attr_extra_none;
	struct prefix p = tpfx("198.51.100.176/28");
	char buf[128];
	struct bgp_attr t;

	tmpl_init(&t, "65002", "203.0.113.2", BGP_ORIGIN_IGP);
	ex.ecommunities = bgp_ecommlist_intern(lb, 1);
	t.extra = &ex;
	t.present |= ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	fake_announce(src, V4, &t, &p, 1);
	tmpl_release(&t);
	bgp_ecommlist_unref(ex.ecommunities);
	fake_run(bgp, RUN_ALL);
	ck_assert_str_eq(ext_of(fake_adj(ibgp, "198.51.100.176/28"), buf, sizeof(buf)),
			 "LB:65002:12500000 (100.000 Mbps)");
	ck_assert_str_eq(ext_of(fake_adj(ebgp, "198.51.100.176/28"), buf, sizeof(buf)), "");
	ck_assert_ptr_null(bgp_attr_ex(fake_adj(ebgp, "198.51.100.176/28"))->ecommunities);
}
END_TEST

/* The knob for `quiet`, applied as the northbound does (the session's policy changed). */
static void send_comm_off(uint8_t off)
{
	quiet->peer.conf.send_comm_off[V4] = off;
	rib_route_refresh_received(&quiet->peer, V4);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_send_community)
{
	const struct bgp_attr *a, *b;
	char buf[128];

	announce("198.51.100.128/28", "65002:1");
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1"); /* all by default */
	ck_assert_ptr_nonnull(bgp_attr_ex(a)->lcommunities);
	ck_assert(has_ext(a));

	send_comm_off(BGP_SEND_COMM_STANDARD);
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_ptr_null(a->communities);
	ck_assert(!(a->present & ATTR_BIT(BGP_ATTR_COMMUNITIES)));
	ck_assert_ptr_nonnull(bgp_attr_ex(a)->lcommunities);
	ck_assert(has_ext(a));
	b = fake_adj(ebgp, "198.51.100.128/28"); /* the other neighbor: untouched */
	ck_assert_str_eq(comms_of(b, buf, sizeof(buf)), "65002:1");

	send_comm_off(BGP_SEND_COMM_LARGE);
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1");
	ck_assert_ptr_null(bgp_attr_ex(a)->lcommunities);
	ck_assert(!(a->present & ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES)));
	ck_assert(has_ext(a));

	send_comm_off(BGP_SEND_COMM_EXTENDED);
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_ptr_nonnull(bgp_attr_ex(a)->lcommunities);
	ck_assert(!has_ext(a));
	ck_assert(has_ext(fake_adj(ebgp, "198.51.100.128/28")));
	ck_assert(has_ext(fake_adj(ibgp, "198.51.100.128/28")));

	send_comm_off(BGP_SEND_COMM_ALL);
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_ptr_null(a->communities);
	ck_assert_ptr_null(bgp_attr_ex(a)->lcommunities);
	ck_assert(!has_ext(a));

	/* Back to the default: all three again. */
	send_comm_off(0);
	a = fake_adj(quiet, "198.51.100.128/28");
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1");
	ck_assert_ptr_nonnull(bgp_attr_ex(a)->lcommunities);
	ck_assert(has_ext(a));

	/* Withheld communities still decide the well-known rules. */
	send_comm_off(BGP_SEND_COMM_STANDARD);
	announce("198.51.100.144/28", "no-export");
	ck_assert_ptr_null(fake_adj(quiet, "198.51.100.144/28"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_comm_export");
	TCase *tc = tcase_create("export");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_well_known);
	tcase_add_test(tc, test_send_community);
	tcase_add_test(tc, test_ext_transitive);
	tcase_add_test(tc, test_ext_only_non_transitive);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
