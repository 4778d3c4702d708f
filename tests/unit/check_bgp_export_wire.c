/* SPDX-License-Identifier: ISC */
/*
 * The output encodes each exported set straight from the stored one (bgp_adj_out.c:
 * export_wire(), AS path prepended in a scratch buffer, nothing interned) and packs prefixes
 * by the bytes. This checks, for every UPDATE sent to every kind of neighbor, that the
 * message is byte for byte the one the interned way builds: the exported set as
 * `show ... advertised-routes` makes it (interned, our AS prepended with
 * bgp_aspath_prepend()) through bgp_ub_begin_announce(), with the same prefixes.
 *
 * Sets vary in AS path (AS_SET, confederation segments, private and 4-octet ASes, long
 * paths, empty), MED, LOCAL_PREF, communities (GRACEFUL_SHUTDOWN among them), large and
 * extended communities (transitive or not), AGGREGATOR with a 4-octet AS, ATOMIC_AGGREGATE,
 * ORIGINATOR_ID and CLUSTER_LIST, IPv6 next hops with and without a link-local one; they come
 * from an eBGP and an iBGP neighbor. Neighbors: eBGP with 4-octet ASes and without (AS_TRANS,
 * AS4_PATH, AS4_AGGREGATOR), two alike (an update group: followers get copies), remove-private-AS
 * (all, replace; only), local-as (with and without replace-as), send-community off, an outbound
 * route-map (set MED, prepend, communities), iBGP plain, next-hop-self, a route-reflector
 * client, a confederation member; with and without a confederation, with and without graceful
 * shutdown.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>

#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 1000000
#define NSETS 64
#define PER_SET 3
#define MAX_TO 16

static struct bgp *bgp;
static struct fake_peer *from_e, *from_i;
static struct fake_peer *to[MAX_TO];
static unsigned nto;
static uint64_t compared[MAX_TO]; /* prefixes checked, per neighbor */
static uint64_t mismatches;

static struct fake_peer *to_add(const char *addr, uint32_t as, const char *local, const char *rid)
{
	struct fake_peer *fp = fake_peer_new(bgp, addr, as, local, rid);

	ck_assert_uint_lt(nto, MAX_TO);
	to[nto++] = fp;
	return fp;
}

/* Every UPDATE announcing something: rebuild it the interned way and compare. */
static void check_tap(struct fake_peer *fp, const uint8_t *msg, size_t len,
		      const struct bgp_update *upd)
{
	struct rib_src *src = fp->peer.rib->cur;
	unsigned who = 0;

	while (who < nto && to[who] != fp)
		who++;
	ck_assert_uint_lt(who, nto);
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct stream nlri = upd->announced[af];
		struct bgp_update_builder ub;
		struct bgp_attr *first = NULL;
		uint8_t *buf;
		struct prefix p;
		size_t n;

		if (!upd->has_announced[af])
			continue;
		buf = malloc(fp->info.max_msg_size);
		ck_assert_ptr_nonnull(buf);
		while (bgp_nlri_next(&nlri, af, &p)) {
			struct bgp_dest *d = ptree_lookup(bgp->rib->af[af].tree, &p);
			struct bgp_attr *a = d ? adj_out_advertised(bgp->rib, src, af, d) : NULL;
			char s[PREFIX_STRLEN];

			ck_assert_msg(a != NULL, "%s: %s sent but not advertised", fp->peer.name,
				      prefix_to_str(&p, s, sizeof(s)));
			if (!first) {
				first = a;
				ck_assert_int_eq(bgp_ub_begin_announce(&ub, buf,
								       fp->info.max_msg_size,
								       &src->codec, af, a),
						 0);
			} else {
				/* Packed together: one exported set. */
				ck_assert_ptr_eq(a, first);
				bgp_attr_unref(a);
			}
			ck_assert_int_eq(bgp_ub_add(&ub, &p), 0);
			compared[who]++;
		}
		n = bgp_ub_finish(&ub);
		if (n != len || memcmp(buf, msg, len) != 0) {
			char s[512];

			bgp_attr_to_str(first, s, sizeof(s));
			fprintf(stderr,
				"%s: UPDATE differs (%zu bytes sent, %zu the interned way): %s\n",
				fp->peer.name, len, n, s);
			mismatches++;
		}
		bgp_attr_unref(first);
		free(buf);
	}
}

/* A little generator, so that the sets are varied but the same on every run. */
static uint32_t rnd_state;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

static const char *const ebgp_paths[] = {
	"65002",
	"65002 65100 65101",
	"65002 64512 65100",
	"65002 64512 64513",
	"65002 {65100,65101,4200000001}",
	"65002 4200000001 70000 65100",
	"65002 65100 65100 65100 65100 65100 65100 65100 65100 65100 65100 65100 65100",
	"65002 (65010 65011) 65100",
	"65002 65100 {64512}",
};

static const char *const ibgp_paths[] = {
	"", "65100", "64512 64513", "(65010) 65100", "4200000001 {65100,65101}", "65100 64999",
};

/* One varied set from `from` (eBGP or iBGP), for af, announced for PER_SET prefixes. */
static void announce_set(struct fake_peer *from, enum bgp_af af, unsigned k)
{
	bool ebgp = from == from_e;
	const char *path = ebgp ? ebgp_paths[rnd(array_size(ebgp_paths))]
				: ibgp_paths[rnd(array_size(ibgp_paths))];
	const struct bgp_attr_extra *orig, *held;
	struct bgp_attr_extra ex;
	struct prefix p[PER_SET];
	struct bgp_attr t;
	uint32_t comms[6], lc[6], ec[6], cl[2], n;
	char base[64];

	if (af == V4) {
		tmpl_init(&t, path, ebgp ? "203.0.113.2" : "192.0.2.11", rnd(3));
		orig = t.extra;
		ex = *bgp_attr_ex(&t);
		t.extra = &ex;
		snprintf(base, sizeof(base), "%u.%u.%u.0/24", ebgp ? 20 : 30, k * PER_SET / 256,
			 k * PER_SET % 256);
		tpfx_range(p, PER_SET, base, 24);
	} else {
		struct in6_addr g, ll;

		tmpl_init(&t, path, "2001:db8::2", rnd(3));
		orig = t.extra;
		ex = *bgp_attr_ex(&t);
		t.extra = &ex;
		inet_pton(AF_INET6, ebgp ? "2001:db8:ffff::2" : "2001:db8:fffe::11", &g);
		inet_pton(AF_INET6, "fe80::2", &ll);
		bgp_attr_set_mp_nh(&t, &ex, rnd(2) ? 32 : 16, &g, &ll);
		snprintf(base, sizeof(base), "2001:db8:%x:%x::/64", ebgp ? 0x20 : 0x30,
			 k * PER_SET);
		tpfx_range(p, PER_SET, base, 64);
	}
	if (rnd(2)) {
		t.med = rnd(1000);
		t.present |= ATTR_BIT(BGP_ATTR_MED);
	}
	if (!ebgp && rnd(2)) {
		t.local_pref = 50 + rnd(200);
		t.present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	}
	n = rnd(5);
	for (uint32_t i = 0; i < n; i++)
		comms[i] = (65002u << 16) | (i * 7 + rnd(5));
	if (rnd(5) == 0)
		comms[n++] = BGP_COMM_GRACEFUL_SHUTDOWN;
	if (n) {
		t.communities = bgp_u32list_intern(comms, n);
		t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	if (rnd(3) == 0) {
		lc[0] = 65002, lc[1] = 1, lc[2] = rnd(9);
		lc[3] = 4200000001u, lc[4] = 2, lc[5] = 3;
		ex.lcommunities = bgp_lcommlist_intern(lc, 1 + rnd(2));
		t.present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	}
	if (rnd(3) == 0) {
		/* Route target 65002:n (transitive), link bandwidth (non-transitive), SoO. */
		ec[0] = 0x0002FDEAu, ec[1] = rnd(9);
		ec[2] = 0x4004FDEAu, ec[3] = 0x4B3EBC20u;
		ec[4] = 0x0003FDEAu, ec[5] = 1;
		ex.ecommunities = bgp_ecommlist_intern(ec, 1 + rnd(3));
		t.present |= ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	}
	if (rnd(4) == 0) {
		ex.aggregator_as = rnd(2) ? 4200000001u : 65100;
		inet_pton(AF_INET, "198.51.100.7", &ex.aggregator_addr);
		t.present |= ATTR_BIT(BGP_ATTR_AGGREGATOR);
		t.atomic_aggregate = rnd(2);
	}
	if (!ebgp && rnd(3) == 0) {
		inet_pton(AF_INET, "198.51.100.77", &ex.originator_id);
		t.present |= ATTR_BIT(BGP_ATTR_ORIGINATOR_ID);
		cl[0] = 0xC6336401u, cl[1] = 0xC6336402u;
		ex.cluster_list = bgp_u32list_intern(cl, 1 + rnd(2));
		t.present |= ATTR_BIT(BGP_ATTR_CLUSTER_LIST);
	}
	/* The template's extras as an interned block (tmpl_release() drops it); the lists made
	 * here hold a reference of their own in it. */
	held = bgp_attr_extra_intern(&ex);
	bgp_lcommlist_unref(ex.lcommunities);
	bgp_ecommlist_unref(ex.ecommunities);
	if (ex.cluster_list)
		bgp_u32list_unref(ex.cluster_list);
	bgp_attr_extra_unref(orig);
	t.extra = held;
	fake_announce(from, af, &t, p, PER_SET);
	if (t.communities)
		bgp_u32list_unref(t.communities);
	tmpl_release(&t);
}

/* set metric 77, prepend 65001 65001, set community 65001:9 additive. */
static void route_map_out(void)
{
	struct rmap_entry e = { .seq = 10, .permit = true, .med_set = true, .med = 77 };

	e.prepend = XCALLOC(MTYPE_BGP_ROUTEMAP, 2 * sizeof(uint32_t));
	e.prepend[0] = e.prepend[1] = 65001;
	e.nprepend = 2;
	e.comm_set = e.comm_additive = true;
	e.comm = XCALLOC(MTYPE_BGP_ROUTEMAP, sizeof(uint32_t));
	e.comm[0] = (65001u << 16) | 9;
	e.ncomm = 1;
	route_map_entry_set("OUT", &e);
}

static void matrix(bool confed, bool gshut)
{
	struct fake_peer *fp;

	nto = 0;
	mismatches = 0;
	memset(compared, 0, sizeof(compared));
	rnd_state = 7 + confed * 2 + gshut;
	bgp = fake_bgp_new(65001, "192.0.2.1");
	if (confed) {
		bgp->confed_id = 65000;
		bgp->confed_peers[0] = 65010;
		bgp->confed_npeers = 1;
	}
	bgp->graceful_shutdown = gshut;
	route_map_out();
	from_e = fake_peer_new(bgp, "203.0.113.2", 65002, "203.0.113.1", "198.51.100.2");
	from_i = fake_peer_new(bgp, "192.0.2.11", 65001, "192.0.2.1", "198.51.100.11");
	to_add("203.0.113.6", 65003, "203.0.113.5", "198.51.100.3");
	/* Alike, on the same LAN: an update group. */
	to_add("203.0.113.7", 65013, "203.0.113.5", "198.51.100.13");
	fp = to_add("203.0.113.14", 65004, "203.0.113.13", "198.51.100.4");
	fp->info.codec.as4 = false;
	fp = to_add("203.0.113.18", 65005, "203.0.113.17", "198.51.100.5");
	fp->peer.conf.remove_private_as[V4] = fp->peer.conf.remove_private_as[V6] =
		BGP_RPA_ALL_REPLACE;
	fp = to_add("203.0.113.22", 65006, "203.0.113.21", "198.51.100.6");
	fp->peer.conf.remove_private_as[V4] = fp->peer.conf.remove_private_as[V6] = BGP_RPA_ONLY;
	fp = to_add("203.0.113.26", 65007, "203.0.113.25", "198.51.100.7");
	fp->peer.conf.local_as = 64900;
	fp = to_add("203.0.113.30", 65008, "203.0.113.29", "198.51.100.8");
	fp->peer.conf.local_as = 4200000002u;
	fp->peer.conf.local_as_no_prepend = fp->peer.conf.local_as_replace = true;
	fp->info.codec.as4 = false;
	fp = to_add("203.0.113.34", 65009, "203.0.113.33", "198.51.100.9");
	fp->peer.conf.send_comm_off[V4] = BGP_SEND_COMM_STANDARD | BGP_SEND_COMM_LARGE;
	fp->peer.conf.send_comm_off[V6] = BGP_SEND_COMM_EXTENDED;
	fp = to_add("203.0.113.38", 65011, "203.0.113.37", "198.51.100.10");
	fp->peer.conf.rmap[V4][BGP_DIR_OUT] = strdup("OUT");
	fp->peer.conf.rmap[V6][BGP_DIR_OUT] = strdup("OUT");
	to_add("192.0.2.21", 65001, "192.0.2.1", "198.51.100.21");
	fp = to_add("192.0.2.22", 65001, "192.0.2.1", "198.51.100.22");
	fp->peer.conf.nexthop_self[V4] = fp->peer.conf.nexthop_self[V6] = BGP_NHS_SELF;
	fp = to_add("192.0.2.23", 65001, "192.0.2.1", "198.51.100.23");
	fp->peer.conf.rr_client[V4] = fp->peer.conf.rr_client[V6] = true;
	if (confed)
		to_add("192.0.2.30", 65010, "192.0.2.1", "198.51.100.30");
	for (unsigned i = 0; i < nto; i++)
		to[i]->tap = check_tap;
	fake_peer_up(from_e);
	fake_peer_up(from_i);
	for (unsigned i = 0; i < nto; i++)
		fake_peer_up(to[i]);
	fake_run(bgp, RUN_ALL);
	for (unsigned k = 0; k < NSETS; k++) {
		announce_set(from_e, V4, k);
		announce_set(from_i, V4, k);
		announce_set(from_e, V6, k);
		announce_set(from_i, V6, k);
	}
	fake_run(bgp, RUN_ALL);

	ck_assert_uint_eq(mismatches, 0);
	for (unsigned i = 0; i < nto; i++) {
		/* Every neighbor was sent (and checked) a good part of the table. */
		ck_assert_msg(compared[i] >= NSETS * PER_SET, "%s: only %" PRIu64 " checked",
			      to[i]->peer.name, compared[i]);
		ck_assert_uint_eq(to[i]->decode_errors, 0);
	}
	ck_assert_uint_gt(bgp->rib->out_shared, 0); /* the update group shared batches */

	for (unsigned i = 0; i < nto; i++) {
		for (int af = 0; af < BGP_AF_MAX; af++)
			free(to[i]->peer.conf.rmap[af][BGP_DIR_OUT]);
		fake_peer_free(to[i]);
	}
	fake_peer_free(from_e);
	fake_peer_free(from_i);
	fake_bgp_free(bgp);
	route_map_reset();
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

START_TEST(test_plain)
{
	matrix(false, false);
}
END_TEST

START_TEST(test_confed)
{
	matrix(true, false);
}
END_TEST

START_TEST(test_gshut)
{
	matrix(false, true);
}
END_TEST

START_TEST(test_confed_gshut)
{
	matrix(true, true);
}
END_TEST

static Suite *export_wire_suite(void)
{
	Suite *s = suite_create("bgp_export_wire");
	TCase *tc = tcase_create("export_wire");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_confed);
	tcase_add_test(tc, test_gshut);
	tcase_add_test(tc, test_confed_gshut);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(export_wire_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
