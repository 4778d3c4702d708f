/* SPDX-License-Identifier: ISC */
/*
 * RFC 8326 graceful shutdown through the real RIB and fake sessions that decode what they are
 * sent. Sending side (`bgp graceful-shutdown`): every route gets GRACEFUL_SHUTDOWN, iBGP
 * neighbors a LOCAL_PREF of 0 that no outbound route-map undoes, eBGP neighbors no LOCAL_PREF;
 * switching it asks for every neighbor's table to be sent again, and off sends them plain.
 * Receiving side: the operator's policy documented in doc/graceful-restart.md (a community
 * list matching graceful-shutdown, an inbound route-map setting local-preference 0) moves the
 * decision to the other path.
 */
#include "lib/compat.h"

#include <check.h>
#include <string.h>

#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_gshut.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 100000
#define PFX "198.51.100.0/28"

static struct bgp *bgp;
static struct fake_peer *src, *ibgp, *ebgp;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	src = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.2");
	ibgp = fake_peer_new(bgp, "192.0.2.11", 65001, "192.0.2.1", "198.51.100.11");
	ebgp = fake_peer_new(bgp, "203.0.113.6", 65003, "203.0.113.5", "198.51.100.3");
	/* In the instance's list, where bgp_graceful_shutdown_changed() finds them. */
	TAILQ_INSERT_TAIL(&bgp->peers, &src->peer, entry);
	TAILQ_INSERT_TAIL(&bgp->peers, &ibgp->peer, entry);
	TAILQ_INSERT_TAIL(&bgp->peers, &ebgp->peer, entry);
	fake_peer_up(src);
	fake_peer_up(ibgp);
	fake_peer_up(ebgp);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
		free(src->peer.conf.rmap[V4][dir]);
		free(ibgp->peer.conf.rmap[V4][dir]);
		src->peer.conf.rmap[V4][dir] = ibgp->peer.conf.rmap[V4][dir] = NULL;
	}
	TAILQ_INIT(&bgp->peers);
	bgp_policy_fini(bgp); /* the re-evaluation switch_gshut() stood in for */
	fake_peer_free(src);
	fake_peer_free(ibgp);
	fake_peer_free(ebgp);
	fake_bgp_free(bgp);
	route_map_reset();
	community_list_reset();
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

/* from announces PFX over AS path `path` with the communities `comms` (text, may be ""). */
static void announce(struct fake_peer *from, const char *path, const char *nh, const char *comms)
{
	uint32_t v[8], n = 0;
	char copy[128], *save = NULL;
	struct bgp_u32list *cl = NULL;
	struct prefix p = tpfx(PFX);
	struct bgp_attr t;

	tmpl_init(&t, path, nh, BGP_ORIGIN_IGP);
	snprintf(copy, sizeof(copy), "%s", comms);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert_int_eq(bgp_community_from_str(w, &v[n++]), 0);
	if (n) {
		t.communities = cl = bgp_u32list_intern(v, n);
		t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	if (cl)
		bgp_u32list_unref(cl);
	fake_run(bgp, RUN_ALL);
}

static const char *comms_of(const struct bgp_attr *a, char *buf, size_t size)
{
	buf[0] = '\0';
	if (a->present & ATTR_BIT(BGP_ATTR_COMMUNITIES))
		bgp_u32list_community_str(a->communities, buf, size);
	return buf;
}

/* What bgp_graceful_shutdown_changed() schedules (bgp_policy_reeval.c), run at once: every
 * neighbor's outbound re-walk. */
static void switch_gshut(bool on)
{
	bgp->graceful_shutdown = on;
	bgp_graceful_shutdown_changed(bgp);
	ck_assert_uint_eq(src->peer.policy_pending[V4], 1u << BGP_DIR_OUT);
	ck_assert_uint_eq(ibgp->peer.policy_pending[V4], 1u << BGP_DIR_OUT);
	ck_assert_uint_eq(ebgp->peer.policy_pending[V4], 1u << BGP_DIR_OUT);
	src->peer.policy_pending[V4] = ibgp->peer.policy_pending[V4] = 0;
	ebgp->peer.policy_pending[V4] = 0;
	rib_route_refresh_received(&src->peer, V4);
	rib_route_refresh_received(&ibgp->peer, V4);
	rib_route_refresh_received(&ebgp->peer, V4);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_marks_everything_sent)
{
	const struct bgp_attr *a;
	char buf[128];

	announce(src, "65002", "203.0.113.2", "65002:1 no-export");
	announce(src, "65002", "203.0.113.2", "65002:1");
	a = fake_adj(ibgp, PFX);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->local_pref, 100);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1");

	switch_gshut(true);
	/* iBGP: the community, in FRR's sorted order, and LOCAL_PREF 0. */
	a = fake_adj(ibgp, PFX);
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF));
	ck_assert_uint_eq(a->local_pref, 0);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1 graceful-shutdown");
	/* eBGP: the community, and no LOCAL_PREF (RFC 4271 5.1.5). */
	a = fake_adj(ebgp, PFX);
	ck_assert(!(a->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1 graceful-shutdown");

	/* A route without communities gets the attribute; one that already has it is not
	 * given it twice. */
	announce(src, "65002", "203.0.113.2", "");
	ck_assert_str_eq(comms_of(fake_adj(ebgp, PFX), buf, sizeof(buf)), "graceful-shutdown");
	announce(src, "65002", "203.0.113.2", "graceful-shutdown 65002:9");
	ck_assert_str_eq(comms_of(fake_adj(ebgp, PFX), buf, sizeof(buf)),
			 "65002:9 graceful-shutdown");
	ck_assert_uint_eq(ebgp->spurious_withdraw, 0);

	/* Off: sent again as they were. */
	announce(src, "65002", "203.0.113.2", "65002:1");
	switch_gshut(false);
	a = fake_adj(ibgp, PFX);
	ck_assert_uint_eq(a->local_pref, 100);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65002:1");
	ck_assert_str_eq(comms_of(fake_adj(ebgp, PFX), buf, sizeof(buf)), "65002:1");
}
END_TEST

/* An outbound route-map that sets LOCAL_PREF or the communities does not undo the marking. */
START_TEST(test_route_map_out_does_not_undo)
{
	struct rmap_entry e = { .seq = 10, .permit = true, .lp_set = true, .lp = 300 };
	uint32_t c = 65001u << 16 | 7;
	const struct bgp_attr *a;
	char buf[128];

	e.comm_set = true;
	e.comm = XMALLOC(MTYPE_BGP_ROUTEMAP, sizeof(*e.comm));
	e.comm[0] = c;
	e.ncomm = 1;
	route_map_entry_set("TO-IBGP", &e);
	ibgp->peer.conf.rmap[V4][BGP_DIR_OUT] = strdup("TO-IBGP");
	announce(src, "65002", "203.0.113.2", "65002:1");
	a = fake_adj(ibgp, PFX);
	ck_assert_uint_eq(a->local_pref, 300);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65001:7");
	switch_gshut(true);
	a = fake_adj(ibgp, PFX);
	ck_assert_uint_eq(a->local_pref, 0);
	ck_assert_str_eq(comms_of(a, buf, sizeof(buf)), "65001:7 graceful-shutdown");
}
END_TEST

/* The receiving side: FRR's documented policy moves the decision away from the path marked
 * GRACEFUL_SHUTDOWN, though its AS path is shorter. */
START_TEST(test_operator_policy_honours_received_community)
{
	struct rmap_entry e = { .seq = 10, .permit = true, .lp_set = true, .lp = 0 };
	struct rmap_entry rest = { .seq = 20, .permit = true };
	struct prefix p = tpfx(PFX);
	const struct bgp_dest *d;
	const struct bgp_attr *a;

	ck_assert_int_eq(community_list_entry_set("GSHUT", false, 5, true, "graceful-shutdown"), 0);
	e.match_clist = XSTRDUP(MTYPE_BGP_ROUTEMAP, "GSHUT");
	route_map_entry_set("RM-GSHUT", &e);
	route_map_entry_set("RM-GSHUT", &rest);
	src->peer.conf.rmap[V4][BGP_DIR_IN] = strdup("RM-GSHUT");
	ibgp->peer.conf.rmap[V4][BGP_DIR_IN] = strdup("RM-GSHUT");

	/* Through src the shorter path; through ibgp (iBGP, LOCAL_PREF 100) a longer one. */
	announce(src, "65002", "203.0.113.2", "65002:1");
	announce(ibgp, "65010 65011 65012", "192.0.2.11", "");
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert_ptr_nonnull(d);
	a = fake_adj(ebgp, PFX);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->aspath->path_len, 2); /* 65001 65002: via src */

	/* src's neighbor goes into graceful shutdown: its path drops to LOCAL_PREF 0, the
	 * other one wins and is what the other neighbors are sent. */
	announce(src, "65002", "203.0.113.2", "65002:1 graceful-shutdown");
	a = fake_adj(ebgp, PFX);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->aspath->path_len, 4); /* 65001 65010 65011 65012: via ibgp */
	/* And back when it ends. */
	announce(src, "65002", "203.0.113.2", "65002:1");
	ck_assert_uint_eq(fake_adj(ebgp, PFX)->aspath->path_len, 2);
}
END_TEST

static Suite *gshut_suite(void)
{
	Suite *s = suite_create("bgp_gshut");
	TCase *tc = tcase_create("gshut");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_marks_everything_sent);
	tcase_add_test(tc, test_route_map_out_does_not_undo);
	tcase_add_test(tc, test_operator_policy_honours_received_community);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gshut_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
