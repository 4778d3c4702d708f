/* SPDX-License-Identifier: ISC */
/*
 * A neighbor's prefix lists in the RIB (neighbor X prefix-list NAME in|out): what a peer's
 * UPDATEs leave in the RIB and what other peers are sent, through the real RIB and fake
 * peers; the re-walk after an outbound change withdraws what the list now denies and sends
 * what it now permits; a name that names no list denies everything (FRR 8.4). The same for
 * `neighbor X filter-list NAME in|out` (AS path access lists), whose outbound decision is
 * cached per attribute set and must be recomputed after a change.
 */
#include "lib/compat.h"

#include <check.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST
#define RUN_ALL 100000

static struct bgp *bgp;
static struct fake_peer *from, *to;

static void setup(void)
{
	bgp = fake_bgp_new(65001, "192.0.2.1");
	from = fake_peer_new(bgp, "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	to = fake_peer_new(bgp, "192.0.2.6", 65003, "192.0.2.5", "198.51.100.3");
	fake_peer_up(from);
	fake_peer_up(to);
	fake_run(bgp, RUN_ALL);
}

static void teardown(void)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
			free(from->peer.conf.plist[af][dir]);
			free(to->peer.conf.plist[af][dir]);
			free(from->peer.conf.aspath_list[af][dir]);
			free(to->peer.conf.aspath_list[af][dir]);
			free(from->peer.conf.rmap[af][dir]);
			free(to->peer.conf.rmap[af][dir]);
			from->peer.conf.rmap[af][dir] = to->peer.conf.rmap[af][dir] = NULL;
			from->peer.conf.plist[af][dir] = to->peer.conf.plist[af][dir] = NULL;
			from->peer.conf.aspath_list[af][dir] = NULL;
			to->peer.conf.aspath_list[af][dir] = NULL;
		}
	fake_peer_free(from);
	fake_peer_free(to);
	fake_bgp_free(bgp);
	prefix_list_reset();
	aspath_list_reset();
	route_map_reset();
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void use_list(struct fake_peer *fp, enum bgp_af af, enum bgp_dir dir, const char *name)
{
	free(fp->peer.conf.plist[af][dir]);
	fp->peer.conf.plist[af][dir] = name ? strdup(name) : NULL;
}

static void add_entry(int family, const char *list, uint32_t seq, enum prefix_list_action a,
		      const char *prefix, uint8_t ge, uint8_t le)
{
	struct prefix_list_entry e = { .seq = seq, .action = a, .ge = ge, .le = le };

	e.p = tpfx(prefix);
	prefix_list_entry_set(prefix_list_get(family, list), &e);
}

/* from announces 198.51.100.0/24 split in /26s plus 203.0.113.0/24, and 2001:db8::/48s. */
static void announce_all(void)
{
	struct bgp_attr t;
	struct prefix p4[5] = { tpfx("198.51.100.0/26"), tpfx("198.51.100.64/26"),
				tpfx("198.51.100.128/26"), tpfx("198.51.100.192/26"),
				tpfx("203.0.113.0/24") };
	struct prefix p6[2] = { tpfx("2001:db8:1::/48"), tpfx("2001:db8:2::/48") };

	tmpl_init(&t, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, p4, 5);
	tmpl_release(&t);
	tmpl_init(&t, "65002", "2001:db8:ffff::2", BGP_ORIGIN_IGP);
	fake_announce(from, V6, &t, p6, 2);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_inbound_list_filters_received_routes)
{
	/* Only the /26s of 198.51.100.0/24 in, except .128/26; IPv6 has no list. */
	add_entry(AF_INET, "IN", 5, PREFIX_DENY, "198.51.100.128/26", 0, 0);
	add_entry(AF_INET, "IN", 10, PREFIX_PERMIT, "198.51.100.0/24", 26, 26);
	use_list(from, V4, BGP_DIR_IN, "IN");
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 3);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V6), 2);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26"));
	ck_assert_ptr_null(fake_adj(to, "198.51.100.128/26")); /* seq 5 denies */
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));    /* implicit deny */
	ck_assert_ptr_nonnull(fake_adj(to, "2001:db8:1::/48"));
	ck_assert_uint_eq(from->peer.rib->cur->in_stats.filtered, 2);
}
END_TEST

START_TEST(test_inbound_list_change_then_resend)
{
	/* Routes in with no list; then a list denying 203.0.113.0/24: the peer's next
	 * announcement (what a ROUTE-REFRESH brings) takes the stored path out. */
	announce_all();
	ck_assert_ptr_nonnull(fake_adj(to, "203.0.113.0/24"));
	add_entry(AF_INET, "IN", 5, PREFIX_DENY, "203.0.113.0/24", 0, 0);
	add_entry(AF_INET, "IN", 10, PREFIX_PERMIT, "0.0.0.0/0", 0, 32);
	use_list(from, V4, BGP_DIR_IN, "IN");
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 4);
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24")); /* withdrawn from `to` */
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.64/26"));
}
END_TEST

START_TEST(test_outbound_list_and_rewalk)
{
	/* to gets only 203.0.113.0/24 over IPv4. */
	add_entry(AF_INET, "OUT", 5, PREFIX_PERMIT, "203.0.113.0/24", 0, 0);
	use_list(to, V4, BGP_DIR_OUT, "OUT");
	announce_all();
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "203.0.113.0/24"));
	ck_assert_uint_eq(fake_adj_count(to, V6), 2);
	ck_assert_uint_eq(rib_peer_sent(&to->peer, V4), 1);

	/* The list changes to the opposite; the re-walk (what bgp_policy_reeval.c asks for) sends
	 * the four /26s and withdraws 203.0.113.0/24. */
	prefix_list_entry_delete(prefix_list_lookup(AF_INET, "OUT"), 5);
	add_entry(AF_INET, "OUT", 5, PREFIX_PERMIT, "198.51.100.0/24", 25, 32);
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 4);
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));
	ck_assert_uint_eq(rib_peer_sent(&to->peer, V4), 4);
	ck_assert_uint_eq(to->spurious_withdraw, 0);

	/* The list is deleted: the name names nothing, nothing goes out (FRR 8.4). */
	prefix_list_delete(prefix_list_lookup(AF_INET, "OUT"));
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
	ck_assert_uint_eq(to->spurious_withdraw, 0);
}
END_TEST

START_TEST(test_empty_list_permits_missing_denies)
{
	prefix_list_get(AF_INET, "EMPTY");
	use_list(from, V4, BGP_DIR_IN, "EMPTY");
	use_list(to, V4, BGP_DIR_OUT, "MISSING");
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0); /* FRR 8.4: no such list denies */
	ck_assert_uint_eq(fake_adj_count(to, V6), 2); /* the other family has no statement */
}
END_TEST

static void use_aspath_list(struct fake_peer *fp, enum bgp_dir dir, const char *name)
{
	free(fp->peer.conf.aspath_list[V4][dir]);
	fp->peer.conf.aspath_list[V4][dir] = strdup(name);
}

/* Two UPDATEs: 198.51.100.0/26 via 65010, 198.51.100.64/26 via 65666 (both behind 65002). */
static void announce_two_paths(void)
{
	struct bgp_attr t;
	struct prefix a = tpfx("198.51.100.0/26"), b = tpfx("198.51.100.64/26");

	tmpl_init(&t, "65002 65010", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &a, 1);
	tmpl_release(&t);
	tmpl_init(&t, "65002 65666", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &b, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
}

START_TEST(test_filter_list_in)
{
	ck_assert_int_eq(aspath_list_entry_set("NO-666", 5, false, "_65666_"), 0);
	ck_assert_int_eq(aspath_list_entry_set("NO-666", 10, true, ".*"), 0);
	use_aspath_list(from, BGP_DIR_IN, "NO-666");
	announce_two_paths();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26"));
	ck_assert_ptr_null(fake_adj(to, "198.51.100.64/26"));
}
END_TEST

START_TEST(test_filter_list_out_cached_then_changed)
{
	ck_assert_int_eq(aspath_list_entry_set("ONLY-10", 5, true, "_65010$"), 0);
	use_aspath_list(to, BGP_DIR_OUT, "ONLY-10");
	announce_two_paths();
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26"));

	/* The list now selects the other origin: the cached decisions must not survive. */
	ck_assert_int_eq(aspath_list_entry_set("ONLY-10", 5, true, "_65666$"), 0);
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 1);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.64/26"));
	ck_assert_ptr_null(fake_adj(to, "198.51.100.0/26"));
	ck_assert_uint_eq(to->spurious_withdraw, 0);
}
END_TEST

static void use_route_map(struct fake_peer *fp, enum bgp_dir dir, const char *name)
{
	free(fp->peer.conf.rmap[V4][dir]);
	fp->peer.conf.rmap[V4][dir] = strdup(name);
}

START_TEST(test_route_map_in_sets_and_denies)
{
	struct rmap_entry e = { .seq = 10, .permit = false };
	const struct bgp_attr *a;
	const struct bgp_dest *d;
	struct prefix p;

	/* Deny what comes through 65666, raise MED on the rest. */
	ck_assert_int_eq(aspath_list_entry_set("VIA-666", 5, true, "_65666_"), 0);
	e.match_aspath = XSTRDUP(MTYPE_BGP_ROUTEMAP, "VIA-666");
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 20, .permit = true, .med_set = true, .med = 77 };
	route_map_entry_set("IN", &e);
	use_route_map(from, BGP_DIR_IN, "IN");
	announce_two_paths();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 1);
	/* The stored path carries the set MED (not sent on to another AS, RFC 4271 5.1.4). */
	p = tpfx("198.51.100.0/26");
	d = ptree_lookup(bgp->rib->af[V4].tree, &p);
	ck_assert_ptr_nonnull(d);
	a = path_attr(dest_paths(d));
	ck_assert(a->present & ATTR_BIT(BGP_ATTR_MED));
	ck_assert_uint_eq(a->med, 77);
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26"));
	ck_assert_ptr_null(fake_adj(to, "198.51.100.64/26"));
}
END_TEST

START_TEST(test_route_map_out_per_prefix_and_missing)
{
	struct rmap_entry e = { .seq = 10, .permit = true };
	const struct bgp_attr *a;
	char path[64];

	/* Prepend twice towards `to`, only for 198.51.100.64/26. */
	add_entry(AF_INET, "ONE", 5, PREFIX_PERMIT, "198.51.100.64/26", 0, 0);
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "ONE");
	e.prepend = XCALLOC(MTYPE_BGP_ROUTEMAP, sizeof(uint32_t));
	e.prepend[0] = 65001;
	e.nprepend = 1;
	route_map_entry_set("OUT", &e);
	use_route_map(to, BGP_DIR_OUT, "OUT");
	announce_two_paths();
	ck_assert_uint_eq(fake_adj_count(to, V4), 1); /* the other prefix: implicit deny */
	a = fake_adj(to, "198.51.100.64/26");
	ck_assert_ptr_nonnull(a);
	bgp_aspath_to_str(a->aspath, path, sizeof(path));
	ck_assert_str_eq(path, "65001 65001 65002 65666"); /* ours on export, then the set */

	/* A route-map name that names nothing denies everything (FRR). */
	use_route_map(to, BGP_DIR_OUT, "NOT-DEFINED");
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
}
END_TEST

/* How often entry seq of route-map map ran (show route-map's Invoked). */
struct hits_q {
	const char *map;
	uint16_t seq;
	uint64_t hits;
};

static void hits_cb(const char *map, const struct rmap_entry *e, void *arg)
{
	struct hits_q *q = arg;

	if (strcmp(map, q->map) == 0 && e->seq == q->seq)
		q->hits = e->hits;
}

static uint64_t rmap_hits(const char *map, uint16_t seq)
{
	struct hits_q q = { map, seq, 0 };

	route_map_walk(map, hits_cb, &q);
	return q.hits;
}

/*
 * A session whose outbound route-map denies everything (a deny entry without match clauses:
 * a neighbor that only gives routes) is sent nothing: its initial table and the journal are
 * not read for it, so the map never runs (issue 15's second feeder paid a walk of the full
 * table for such a session). Once it holds routes, a change to such a map withdraws them.
 */
START_TEST(test_route_map_out_denies_all_skips_table)
{
	struct rmap_entry e = { .seq = 10, .permit = false };
	struct fake_peer *late;
	struct bgp_attr t;
	struct prefix p = tpfx("192.0.2.128/25");

	ck_assert(route_map_denies_all("NOT-DEFINED"));
	route_map_entry_set("NOTHING", &e);
	ck_assert(route_map_denies_all("NOTHING"));
	announce_all();
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);

	late = fake_peer_new(bgp, "192.0.2.10", 65010, "192.0.2.9", "198.51.100.10");
	late->peer.conf.rmap[V4][BGP_DIR_OUT] = strdup("NOTHING");
	late->peer.conf.rmap[V6][BGP_DIR_OUT] = strdup("NOTHING");
	fake_peer_up(late);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(late->eor[V4], 1);
	ck_assert_uint_eq(late->eor[V6], 1);
	ck_assert_uint_eq(late->pfx_announced, 0);
	ck_assert_uint_eq(rmap_hits("NOTHING", 10), 0); /* the table was not walked for it */

	/* A change read from the journal: still nothing run, nothing sent. */
	tmpl_init(&t, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_nonnull(fake_adj(to, "192.0.2.128/25"));
	ck_assert_uint_eq(late->pfx_announced, 0);
	ck_assert_uint_eq(rmap_hits("NOTHING", 10), 0);

	/* `to` holds 6 routes: the same map now withdraws them all. */
	use_route_map(to, BGP_DIR_OUT, "NOTHING");
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
	ck_assert_uint_eq(to->pfx_withdrawn, 6);
	ck_assert_uint_eq(to->spurious_withdraw, 0);
	ck_assert_uint_eq(rmap_hits("NOTHING", 10), 6);

	/* A deny with a match clause is no total deny: the late session gets the rest. */
	add_entry(AF_INET, "ONE", 5, PREFIX_PERMIT, "203.0.113.0/24", 0, 0);
	e = (struct rmap_entry){ .seq = 10, .permit = false };
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "ONE");
	route_map_entry_set("NOTHING", &e);
	e = (struct rmap_entry){ .seq = 20, .permit = true };
	route_map_entry_set("NOTHING", &e);
	ck_assert(!route_map_denies_all("NOTHING"));
	rib_route_refresh_received(&late->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(late, V4), 5);
	ck_assert_ptr_null(fake_adj(late, "203.0.113.0/24"));

	fake_peer_down(late);
	fake_run(bgp, RUN_ALL);
	for (int af = 0; af < BGP_AF_MAX; af++)
		free(late->peer.conf.rmap[af][BGP_DIR_OUT]);
	fake_peer_free(late);
}
END_TEST

/* The stored path of prefix s (from `from`), or NULL. */
static const struct bgp_attr *stored_of(const char *s)
{
	struct prefix p = tpfx(s);
	const struct bgp_dest *d = ptree_lookup(bgp->rib->af[V4].tree, &p);

	return d && dest_paths(d) ? path_attr(dest_paths(d)) : NULL;
}

static bool has_comm(const struct bgp_attr *a, uint32_t c)
{
	return a && bgp_u32list_contains(a->communities, c);
}

/*
 * An inbound route-map on the prefixes of one UPDATE: the set clauses of each deciding entry
 * are made once for the UPDATE (bgp_rib_inmap.c), and every prefix still gets its own entry's
 * result and counts one hit; an entry that goes on (on-match next) is run in full; the next
 * UPDATE, with other attributes, gets its own results.
 */
START_TEST(test_route_map_in_one_update_many_prefixes)
{
	struct rmap_entry e = { .seq = 10, .permit = false };
	static const uint32_t c20 = 0xfde80014, c30 = 0xfde8001e; /* 65000:20, 65000:30 */
	struct prefix p[6] = { tpfx("198.51.100.0/26"),	  tpfx("198.51.100.64/26"),
			       tpfx("198.51.100.128/26"), tpfx("198.51.100.192/26"),
			       tpfx("203.0.113.0/25"),	  tpfx("203.0.113.128/25") };
	uint32_t theirs = 0xfe0c0001; /* 65036:1 */
	struct bgp_attr t;

	add_entry(AF_INET, "DENY-ONE", 5, PREFIX_PERMIT, "198.51.100.0/26", 0, 0);
	add_entry(AF_INET, "P20", 5, PREFIX_PERMIT, "198.51.100.0/24", 26, 26);
	add_entry(AF_INET, "P40", 5, PREFIX_PERMIT, "203.0.113.128/25", 0, 0);
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "DENY-ONE");
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){
		.seq = 20, .permit = true, .comm_set = true, .comm_additive = true, .ncomm = 1
	};
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "P20");
	e.comm = XMALLOC(MTYPE_BGP_ROUTEMAP, sizeof(uint32_t));
	e.comm[0] = c20;
	route_map_entry_set("IN", &e);
	/* seq 25: on-match next for P40 only (adds LOCAL_PREF), then seq 30 for it too */
	e = (struct rmap_entry){
		.seq = 25, .permit = true, .on_match = RMAP_NEXT, .lp_set = true, .lp = 250
	};
	e.match_plist4 = XSTRDUP(MTYPE_BGP_ROUTEMAP, "P40");
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 30,
				 .permit = true,
				 .comm_set = true,
				 .comm_additive = true,
				 .ncomm = 1,
				 .med_set = true,
				 .med = 30 };
	e.comm = XMALLOC(MTYPE_BGP_ROUTEMAP, sizeof(uint32_t));
	e.comm[0] = c30;
	route_map_entry_set("IN", &e);
	use_route_map(from, BGP_DIR_IN, "IN");

	tmpl_init(&t, "65002", "192.0.2.2", BGP_ORIGIN_IGP);
	t.communities = bgp_u32list_intern(&theirs, 1);
	t.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	fake_announce(from, V4, &t, p, 6); /* one UPDATE */
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(stored_of("198.51.100.0/26"));
	ck_assert_uint_eq(from->peer.rib->cur->in_stats.filtered, 1);
	/* seq 20: the three other /26s, one stored set with both communities */
	ck_assert(has_comm(stored_of("198.51.100.64/26"), c20));
	ck_assert(has_comm(stored_of("198.51.100.64/26"), theirs));
	ck_assert(!has_comm(stored_of("198.51.100.64/26"), c30));
	ck_assert_ptr_eq(stored_of("198.51.100.64/26"), stored_of("198.51.100.128/26"));
	ck_assert_ptr_eq(stored_of("198.51.100.64/26"), stored_of("198.51.100.192/26"));
	/* seq 30 alone: 203.0.113.0/25 */
	ck_assert(has_comm(stored_of("203.0.113.0/25"), c30));
	ck_assert(has_comm(stored_of("203.0.113.0/25"), theirs));
	ck_assert_uint_eq(stored_of("203.0.113.0/25")->med, 30);
	ck_assert(!(stored_of("203.0.113.0/25")->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)));
	/* seq 25 then 30: 203.0.113.128/25 */
	ck_assert(has_comm(stored_of("203.0.113.128/25"), c30));
	ck_assert_uint_eq(stored_of("203.0.113.128/25")->local_pref, 250);
	ck_assert_uint_eq(stored_of("203.0.113.128/25")->med, 30);
	ck_assert_uint_eq(rmap_hits("IN", 10), 1);
	ck_assert_uint_eq(rmap_hits("IN", 20), 3);
	ck_assert_uint_eq(rmap_hits("IN", 25), 1);
	ck_assert_uint_eq(rmap_hits("IN", 30), 2);

	/* The next UPDATE, without communities: its own results. */
	bgp_u32list_unref(t.communities);
	t.communities = NULL;
	t.present &= ~ATTR_BIT(BGP_ATTR_COMMUNITIES);
	fake_announce(from, V4, &t, p + 1, 2);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert(has_comm(stored_of("198.51.100.64/26"), c20));
	ck_assert(!has_comm(stored_of("198.51.100.64/26"), theirs));
	ck_assert_uint_eq(stored_of("198.51.100.64/26")->communities->count, 1);
	ck_assert_ptr_eq(stored_of("198.51.100.64/26"), stored_of("198.51.100.128/26"));
	ck_assert(has_comm(stored_of("198.51.100.192/26"), theirs)); /* not in that UPDATE */
	ck_assert_uint_eq(rmap_hits("IN", 20), 5);
}
END_TEST

/* One route whose AS path is `path`, from `from`; is it in the RIB afterwards? */
static bool accepted_with(const char *pfx, const char *path)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);

	tmpl_init(&t, path, "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	return ptree_lookup(bgp->rib->af[V4].tree, &p) &&
	       dest_paths(ptree_lookup(bgp->rib->af[V4].tree, &p));
}

/* RFC 8212 (bgp ebgp-requires-policy, FRR 8.4): an eBGP neighbor with no policy in a
 * direction for a family gets nothing and gives nothing that way; any of prefix-list,
 * filter-list and route-map counts, even one naming nothing; iBGP needs none. */
START_TEST(test_ebgp_requires_policy)
{
	struct fake_peer *ibgp = fake_peer_new(bgp, "192.0.2.10", 65001, "192.0.2.9", "192.0.2.10");

	fake_peer_up(ibgp);
	fake_run(bgp, RUN_ALL);
	bgp->ebgp_requires_policy = true;
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 0);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V6), 0);
	ck_assert_uint_eq(from->peer.rib->cur->in_stats.filtered, 0); /* discarded, as FRR */

	/* An inbound prefix list for IPv4 only: IPv4 comes in, IPv6 still does not. The iBGP
	 * peer is sent it without a policy; `to`, eBGP, is not. */
	add_entry(AF_INET, "ALL", 5, PREFIX_PERMIT, "0.0.0.0/0", 0, 32);
	use_list(from, V4, BGP_DIR_IN, "ALL");
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V6), 0);
	ck_assert_uint_eq(fake_adj_count(ibgp, V4), 5);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
	ck_assert_uint_eq(rib_peer_sent(&to->peer, V4), 0);

	/* An outbound filter-list naming no list counts as a policy (and denies: FRR 8.4);
	 * one that permits all sends everything. */
	use_aspath_list(to, BGP_DIR_OUT, "NONE-YET");
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 0);
	ck_assert_int_eq(aspath_list_entry_set("NONE-YET", 5, true, ".*"), 0);
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);

	/* The rule turned off: the re-walk sends IPv6 too, and nothing is withdrawn twice. */
	bgp->ebgp_requires_policy = false;
	rib_route_refresh_received(&to->peer, V6);
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V6), 2);
	ck_assert_uint_eq(fake_adj_count(to, V6), 2);
	/* And on again: the outbound re-walk withdraws what `to` has in IPv6. */
	bgp->ebgp_requires_policy = true;
	rib_route_refresh_received(&to->peer, V6);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(to, V6), 0);
	ck_assert_uint_eq(fake_adj_count(to, V4), 5);
	ck_assert_uint_eq(to->spurious_withdraw, 0);
	fake_peer_free(ibgp);
}
END_TEST

/* neighbor X maximum-prefix: counted after the inbound policy (FRR's pcount); past the
 * threshold only a log line; over the limit the session side is told once per crossing, with
 * the limit; warning-only never tells it; the other family has its own count. */
START_TEST(test_max_prefix)
{
	struct bgp_maxpfx *m4 = &from->peer.conf.maxpfx[V4];

	/* 5 IPv4 prefixes announced, the inbound list lets 4 in: a limit of 4 holds. */
	*m4 = (struct bgp_maxpfx){ .max = 4, .threshold = 50 };
	add_entry(AF_INET, "IN", 5, PREFIX_DENY, "203.0.113.0/24", 0, 0);
	add_entry(AF_INET, "IN", 10, PREFIX_PERMIT, "0.0.0.0/0", 0, 32);
	use_list(from, V4, BGP_DIR_IN, "IN");
	announce_all();
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 4);
	ck_assert_uint_eq(from->maxpfx_calls[V4], 0);
	ck_assert(from->peer.rib->cur->pfx_warned[V4]); /* 4 > 50 % of 4 */

	/* The list goes: 5 > 4, the session side is told once, with the limit. */
	use_list(from, V4, BGP_DIR_IN, NULL);
	announce_all();
	ck_assert_uint_eq(from->maxpfx_calls[V4], 1);
	ck_assert_uint_eq(from->maxpfx_limit, 4);
	announce_all();
	ck_assert_uint_eq(from->maxpfx_calls[V4], 1);
	ck_assert_uint_eq(from->maxpfx_calls[V6], 0);

	/* A new limit is judged at once (the configuration changed): 5 is within 10, and
	 * under warning-only 3 only logs. */
	*m4 = (struct bgp_maxpfx){ .max = 10, .threshold = 75 };
	rib_max_prefix_check(&from->peer, V4);
	ck_assert(!from->peer.rib->cur->pfx_over[V4]);
	ck_assert(!from->peer.rib->cur->pfx_warned[V4]); /* 5 <= 7.5 */
	*m4 = (struct bgp_maxpfx){ .max = 3, .threshold = 75, .warning_only = true };
	rib_max_prefix_check(&from->peer, V4);
	ck_assert(from->peer.rib->cur->pfx_over[V4]);
	ck_assert_uint_eq(from->maxpfx_calls[V4], 1);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5); /* nothing taken out */

	/* IPv6 has its own limit and count. */
	from->peer.conf.maxpfx[V6] = (struct bgp_maxpfx){ .max = 1, .threshold = 75 };
	announce_all();
	ck_assert_uint_eq(from->maxpfx_calls[V6], 1);
	ck_assert_uint_eq(from->maxpfx_limit, 1);
}
END_TEST

START_TEST(test_allowas_in)
{
	ck_assert(!accepted_with("198.51.100.0/26", "65002 65001 65010")); /* our AS: a loop */
	from->peer.conf.allowas_in[V4] = 1;
	ck_assert(accepted_with("198.51.100.0/26", "65002 65001 65010"));
	ck_assert(!accepted_with("198.51.100.64/26", "65002 65001 65001"));
	from->peer.conf.allowas_in[V4] = BGP_ALLOWAS_DEFAULT;
	ck_assert(accepted_with("198.51.100.64/26", "65002 65001 65001"));
	from->peer.conf.allowas_in[V4] = BGP_ALLOWAS_ORIGIN;
	ck_assert(accepted_with("198.51.100.128/26", "65002 65010 65001")); /* we originated it */
	ck_assert(!accepted_with("198.51.100.192/26", "65002 65001 65010"));
}
END_TEST

/* What `to` (eBGP, AS 65003) is sent for one prefix announced by `from` with `path`. */
static const char *sent_path(const char *pfx, const char *path, enum bgp_rpa rpa, char *buf,
			     size_t size)
{
	struct bgp_attr t;
	struct prefix p = tpfx(pfx);
	const struct bgp_attr *a;

	to->peer.conf.remove_private_as[V4] = rpa;
	tmpl_init(&t, path, "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	rib_route_refresh_received(&to->peer, V4);
	fake_run(bgp, RUN_ALL);
	a = fake_adj(to, pfx);
	ck_assert_ptr_nonnull(a);
	bgp_aspath_to_str(a->aspath, buf, size);
	return buf;
}

START_TEST(test_remove_private_as)
{
	char b[128];

	/* The peers' ASes (650xx) are private too; 64496 is a documentation, public, one. */
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496 64512", BGP_RPA_OFF, b, 128),
			 "65001 65002 64496 64512");
	/* Without `all`, a path that is not all private is left alone (FRR) ... */
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496 64512", BGP_RPA_ONLY, b, 128),
			 "65001 65002 64496 64512");
	/* ... an all-private one is emptied before our AS goes in. */
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64512", BGP_RPA_ONLY, b, 128),
			 "65001");
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496 64512", BGP_RPA_ALL, b, 128),
			 "65001 64496");
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 {64512,64496} 4200000001",
				   BGP_RPA_ALL_REPLACE, b, 128),
			 "65001 65001 {65001,64496} 65001");
}
END_TEST

/* neighbor X local-as L [no-prepend [replace-as]] (FRR): routes from the neighbor get L in
 * front (not with no-prepend) and L in their path is a loop; routes to it get L in front of
 * our AS, or instead of it with replace-as. */
START_TEST(test_local_as)
{
	char b[128];
	const struct bgp_attr *a;
	struct bgp_attr t;
	struct prefix p = tpfx("198.51.100.64/26");

	from->peer.conf.local_as = 64999;
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496", BGP_RPA_OFF, b, 128),
			 "65001 64999 65002 64496");
	/* L already in the path: counted with the prepended one, a loop (FRR). */
	tmpl_init(&t, "65002 64999", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &p, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(to, "198.51.100.64/26"));
	ck_assert_uint_eq(from->peer.rib->cur->in_stats.as_loop, 1);
	from->peer.conf.local_as_no_prepend = true;
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496", BGP_RPA_OFF, b, 128),
			 "65001 65002 64496");
	from->peer.conf.local_as = 0;
	from->peer.conf.local_as_no_prepend = false;

	/* Towards `to` with local-as 64998: in front of ours; replace-as: instead of it. */
	to->peer.conf.local_as = 64998;
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496", BGP_RPA_OFF, b, 128),
			 "64998 65001 65002 64496");
	to->peer.conf.local_as_no_prepend = to->peer.conf.local_as_replace = true;
	ck_assert_str_eq(sent_path("198.51.100.0/26", "65002 64496", BGP_RPA_OFF, b, 128),
			 "64998 65002 64496");
	a = fake_adj(to, "198.51.100.0/26");
	ck_assert_ptr_nonnull(a);
	to->peer.conf.local_as = 0;
	to->peer.conf.local_as_no_prepend = to->peer.conf.local_as_replace = false;
}
END_TEST

/* neighbor X advertisement-interval (MRAI): the table goes at once; later changes (a
 * withdrawal, a new prefix, a prefix changed twice) wait for the interval since the last
 * UPDATE, then go out together, each prefix once as it then is. */
START_TEST(test_advertisement_interval)
{
	struct bgp_attr t;
	struct prefix gone = tpfx("198.51.100.0/26"), added = tpfx("192.0.2.128/25");
	struct prefix twice = tpfx("198.51.100.64/26");
	struct rib_src *dst;
	uint64_t msgs;
	char b[64];

	to->peer.conf.adv_interval = 30;
	announce_all();
	ck_assert_uint_eq(fake_adj_count(to, V4), 5); /* the table: not held */
	dst = to->peer.rib->cur;
	ck_assert_uint_gt(dst->mrai_last_ms, 0);
	msgs = to->msgs;

	fake_withdraw(from, V4, &gone, 1);
	tmpl_init(&t, "65002 64496", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &added, 1);
	fake_announce(from, V4, &t, &twice, 1);
	tmpl_release(&t);
	tmpl_init(&t, "65002 64497", "192.0.2.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, &twice, 1);
	tmpl_release(&t);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(to->msgs, msgs); /* held */
	ck_assert_ptr_nonnull(fake_adj(to, "198.51.100.0/26"));

	dst->mrai_last_ms -= 30000; /* the interval is over */
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(to, "198.51.100.0/26"));
	ck_assert_ptr_nonnull(fake_adj(to, "192.0.2.128/25"));
	bgp_aspath_to_str(fake_adj(to, "198.51.100.64/26")->aspath, b, sizeof(b));
	ck_assert_str_eq(b, "65001 65002 64497");
	ck_assert_uint_le(to->msgs - msgs, 3); /* one withdrawal and the announcements */
	ck_assert_uint_eq(to->spurious_withdraw, 0);

	/* 0: at once again. */
	to->peer.conf.adv_interval = 0;
	fake_withdraw(from, V4, &added, 1);
	fake_run(bgp, RUN_ALL);
	ck_assert_ptr_null(fake_adj(to, "192.0.2.128/25"));
}
END_TEST

START_TEST(test_soft_reconfiguration_inbound)
{
	const struct ptree *kept;

	from->peer.conf.soft_reconfig[V4] = true;
	rib_soft_reconfig_changed(&from->peer, V4);
	/* A list denying 203.0.113.0/24: refused in the RIB, kept as received. */
	add_entry(AF_INET, "IN", 5, PREFIX_DENY, "203.0.113.0/24", 0, 0);
	add_entry(AF_INET, "IN", 10, PREFIX_PERMIT, "0.0.0.0/0", 0, 32);
	use_list(from, V4, BGP_DIR_IN, "IN");
	announce_all();
	kept = rib_adj_in(from->peer.rib->cur, V4);
	ck_assert_ptr_nonnull(kept);
	ck_assert_uint_eq(ptree_count(kept), 5);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 4);
	ck_assert_ptr_null(fake_adj(to, "203.0.113.0/24"));

	/* The policy changes: applied to the kept routes, no ROUTE-REFRESH needed. */
	prefix_list_entry_delete(prefix_list_lookup(AF_INET, "IN"), 5);
	ck_assert(rib_soft_reconfig_in(&from->peer, V4));
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(rib_peer_accepted(&from->peer, V4), 5);
	ck_assert_ptr_nonnull(fake_adj(to, "203.0.113.0/24"));

	/* A withdrawal leaves the kept copy too; switching it off drops the copy. */
	{
		struct prefix p = tpfx("203.0.113.0/24");

		fake_withdraw(from, V4, &p, 1);
		fake_run(bgp, RUN_ALL);
	}
	ck_assert_uint_eq(ptree_count(rib_adj_in(from->peer.rib->cur, V4)), 4);
	from->peer.conf.soft_reconfig[V4] = false;
	rib_soft_reconfig_changed(&from->peer, V4);
	ck_assert_ptr_null(rib_adj_in(from->peer.rib->cur, V4));
	ck_assert(!rib_soft_reconfig_in(&from->peer, V4)); /* nothing kept: ask the peer */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_policy");
	TCase *tc = tcase_create("prefix-list");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_inbound_list_filters_received_routes);
	tcase_add_test(tc, test_inbound_list_change_then_resend);
	tcase_add_test(tc, test_outbound_list_and_rewalk);
	tcase_add_test(tc, test_empty_list_permits_missing_denies);
	tcase_add_test(tc, test_filter_list_in);
	tcase_add_test(tc, test_filter_list_out_cached_then_changed);
	tcase_add_test(tc, test_route_map_in_sets_and_denies);
	tcase_add_test(tc, test_route_map_out_per_prefix_and_missing);
	tcase_add_test(tc, test_route_map_out_denies_all_skips_table);
	tcase_add_test(tc, test_route_map_in_one_update_many_prefixes);
	tcase_add_test(tc, test_allowas_in);
	tcase_add_test(tc, test_soft_reconfiguration_inbound);
	tcase_add_test(tc, test_remove_private_as);
	tcase_add_test(tc, test_ebgp_requires_policy);
	tcase_add_test(tc, test_max_prefix);
	tcase_add_test(tc, test_local_as);
	tcase_add_test(tc, test_advertisement_interval);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
