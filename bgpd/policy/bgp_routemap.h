/* SPDX-License-Identifier: ISC */
/*
 * Route-maps (`route-map NAME <permit|deny> SEQ` with match, set, call and on-match), FRR's
 * semantics for what skua supports:
 *
 * - Entries are tried in sequence order. An entry matches when every match statement in it
 *   matches (an entry without any matches everything). A matching deny entry denies the route.
 *   A matching permit entry applies its set statements, then its `call` (a route-map that
 *   denies makes this one deny), then: accept the route (no on-match), go on with the next
 *   entry (`on-match next`) or with the first entry at or after N (`on-match goto N`).
 *   Falling off the end without a decision denies, except after a permit entry sent us on with
 *   on-match, which then accepts (the sets stay applied).
 * - Match statements: `match ip address prefix-list`, `match ipv6 address prefix-list`,
 *   `match ip next-hop prefix-list` (an IPv4 route's NEXT_HOP as a /32; unlike the route's
 *   prefix, a list without entries permits it, as in FRR), `match ipv6 next-hop address X`
 *   (the global next hop, or the link-local one when both were sent),
 *   `match as-path`, `match metric`, `match community NAME [exact-match]`,
 *   `match large-community NAME [exact-match]`, `match extcommunity NAME`. A list that does
 *   not exist matches nothing.
 *   `match peer A.B.C.D|X:X::X:X`: in an inbound map, the neighbor the route came from; in an
 *   outbound map nothing (FRR 8.4 runs outbound maps for its update group, whose stand-in
 *   peer has no address: no address ever matches there); `match peer local`: in a map of our
 *   own routes (redistribute), never in a neighbor's; `match peer IFNAME` names an interface
 *   neighbor, which skua does not have (FRR's numbered neighbors never match it either).
 *   `match tag N`: the route's tag (FRR's local attribute; routes carry 0 until a map sets it).
 * - Set statements: `set local-preference N|+N|-N`, `set metric N|+N|-N`, `set weight N`,
 *   `set as-path exclude ASN...` (before the prepend of the same entry: FRR's printed order),
 *   `set as-path prepend ASN...`, `set ip next-hop A.B.C.D`, `set ipv6 next-hop global X:X::X:X`,
 *   `set community AA:NN... [additive]` / `set community none`, `set comm-list NAME delete`,
 *   `set large-community G:L1:L2... [additive]` / `set large-community none`,
 *   `set large-comm-list NAME delete` (each delete after its kind's set),
 *   `set origin igp|egp|incomplete`, and the extended communities in FRR's printed order:
 *   `set extcommunity bandwidth (1-25600)|num-multipaths [non-transitive]` (our AS, the Mbps
 *   as bytes per second, 1 Mbps per multipath for num-multipaths, which only outbound maps
 *   apply, as FRR; replaces a bandwidth of the same transitivity, else goes in at its sorted
 *   place; `cumulative` sets nothing on a single path, as FRR, and is not done for several),
 *   `set extcommunity none`, `set extcommunity rt VALUE...`, `set extcommunity soo VALUE...`
 *   (appended to what the route has, repeats kept: FRR's ecommunity_merge()), `set tag N`
 *   (local, never sent: it carries from the inbound map to the outbound ones).
 * - A neighbor's `route-map NAME in|out` naming no route-map denies everything, as in FRR.
 *
 * Route-maps are looked up by name whenever applied; every change calls the change hook.
 */
#ifndef SKUA_BGP_ROUTEMAP_H
#define SKUA_BGP_ROUTEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

#include "bgpd/rpki/rpki.h"
#include "bgpd/wire/bgp_attr.h"
#include "lib/memory.h"
#include "lib/prefix.h"

DECLARE_MTYPE(BGP_ROUTEMAP);

struct bgp_aspath;
struct bgp_attr;
struct bgp_u32list;
struct route_map;

/* What a route-map put into a template that the template does not own: new interned AS
 * path and community list references, released by route_map_refs_release() once the
 * template has been interned (the interned set holds its own references), and the extras
 * block the template points to once a set statement changed one of its attributes. */
struct rmap_refs {
	struct bgp_aspath *aspath;
	struct bgp_u32list *communities;
	struct bgp_lcommlist *lcommunities;
	struct bgp_ecommlist *ecommunities;
	struct bgp_attr_extra ex;
	bool med_set;	   /* a set metric ran: an outbound MED stays (even towards eBGP) */
	bool nexthop_set;  /* a set ip next-hop ran: it is not replaced by our address */
	bool nexthop6_set; /* likewise set ipv6 next-hop global */
};
void route_map_refs_release(struct rmap_refs *r);

#define RMAP_CALL_DEPTH 10 /* call nesting, against loops (FRR refuses deeper) */

enum rmap_on_match {
	RMAP_EXIT = 0,
	RMAP_NEXT,
	RMAP_GOTO,
};

/* +N / -N / N for set local-preference and set metric. */
enum rmap_arith {
	RMAP_SET_VALUE = 0,
	RMAP_ADD,
	RMAP_SUB,
};

/* set extcommunity bandwidth (1-25600)|cumulative|num-multipaths. */
enum rmap_lb {
	RMAP_LB_NONE = 0,
	RMAP_LB_VALUE,
	RMAP_LB_CUMULATIVE, /* FRR: the multipaths' bandwidths summed; nothing for one path */
	RMAP_LB_NUM_MPATH,  /* FRR: 1 Mbps per multipath, on the exported best path only */
};

/* What a `match peer` clause names. */
enum rmap_match_peer {
	RMAP_PEER_NONE = 0,
	RMAP_PEER_ADDR,	  /* A.B.C.D or X:X::X:X */
	RMAP_PEER_LOCAL,  /* local */
	RMAP_PEER_IFNAME, /* an interface neighbor's name */
};

struct rmap_entry {
	uint16_t seq;
	bool permit;
	enum rmap_on_match on_match;
	uint16_t goto_seq;
	char *call;
	char *description;
	/* match (each clause named in bgp_routemap.c's entry_matches_all() too) */
	char *match_plist4, *match_plist6, *match_aspath;
	char *match_nh_plist4; /* match ip next-hop prefix-list NAME */
	bool match_nh6_set;    /* match ipv6 next-hop address X:X::X:X */
	struct in6_addr match_nh6;
	bool match_metric_set;
	uint32_t match_metric;
	char *match_clist; /* match community NAME */
	bool match_clist_exact;
	enum rmap_match_peer match_peer; /* match peer ... */
	struct ipaddr match_peer_addr;	 /* RMAP_PEER_ADDR */
	char *match_peer_ifname;	 /* RMAP_PEER_IFNAME */
	bool match_tag_set;		 /* match tag N */
	uint32_t match_tag;
	/* set */
	bool lp_set, med_set, weight_set, nexthop_set;
	enum rmap_arith lp_op, med_op;
	uint32_t lp, med, weight;
	bool origin_set; /* set origin igp|egp|incomplete */
	bool tag_set;	 /* set tag N */
	uint32_t tag;
	enum bgp_origin origin;
	struct in_addr nexthop;
	bool nexthop6_set; /* set ipv6 next-hop global X:X::X:X */
	struct in6_addr nexthop6;
	uint32_t *prepend; /* AS numbers, in the order given */
	uint32_t nprepend;
	uint32_t *exclude; /* set as-path exclude: AS numbers, in the order given */
	uint32_t nexclude;
	bool comm_set;	/* set community ... */
	bool comm_none; /* set community none */
	bool comm_additive;
	uint32_t *comm; /* sorted, without duplicates */
	uint32_t ncomm;
	char *comm_delete;  /* set comm-list NAME delete */
	char *match_lclist; /* match large-community NAME */
	bool match_lclist_exact;
	bool lcomm_set;	 /* set large-community ... */
	bool lcomm_none; /* set large-community none */
	bool lcomm_additive;
	uint32_t *lcomm; /* 3 words each, sorted, without duplicates */
	uint32_t nlcomm;
	char *lcomm_delete; /* set large-comm-list NAME delete */
	char *match_eclist; /* match extcommunity NAME */
	bool ecomm_none;    /* set extcommunity none */
	uint32_t *ecomm_rt; /* set extcommunity rt: 2 words each, sorted, no repeats */
	uint32_t necomm_rt;
	uint32_t *ecomm_soo; /* set extcommunity soo: the same */
	uint32_t necomm_soo;
	char *ecomm_rt_text, *ecomm_soo_text; /* as typed, for show route-map (FRR) */
	enum rmap_lb lb;		      /* set extcommunity bandwidth ... */
	uint32_t lb_mbps;		      /* RMAP_LB_VALUE: (1-25600) */
	bool lb_non_transitive;
	enum rpki_state match_rpki; /* match rpki valid|invalid|notfound; NOT_USED = none */
	enum aspa_state match_aspa; /* match aspa valid|invalid|unknown; NOT_USED = none */
	uint64_t hits;
};

struct route_map *route_map_lookup(const char *name);
/* Add or replace an entry (the map is created); takes over e's strings and arrays. */
void route_map_entry_set(const char *name, struct rmap_entry *e);
void route_map_entry_delete(const char *name, uint16_t seq);
void route_map_delete(const char *name);

/*
 * Run the route-map named `name` on prefix p with attributes *t (a template: the caller
 * interns it afterwards). true: permitted, *t carries the set statements' changes; the new
 * references they made are in *refs (always to be released, permitted or not). A name that
 * names no route-map denies.
 */
bool route_map_apply(const char *name, const struct prefix *p, struct bgp_attr *t,
		     struct rmap_refs *refs);

/* Where a route came from, for the clauses that depend on it (`match aspa`: the neighbor's AS
 * and which verification its role calls for). route_map_apply() is this with ctx NULL: a
 * route of our own, whose ASPA state is ASPA_NOT_USED. */
struct rmap_ctx {
	uint32_t peer_as;	/* the neighbor's AS, 0 = a route of our own */
	enum aspa_dir aspa_dir; /* from `neighbor X local-role` */
	/* An outbound map on the best path: 1 + its multipaths (set extcommunity bandwidth
	 * num-multipaths); 0 anywhere else. */
	uint32_t export_paths;
	/* `match peer`: the neighbor an inbound map runs for; NULL in an outbound map (FRR 8.4
	 * gives those no address). Without a ctx the map is one of our own routes', which only
	 * `match peer local` matches. */
	const struct ipaddr *peer;
};
bool route_map_apply_ctx(const char *name, const struct prefix *p, struct bgp_attr *t,
			 struct rmap_refs *refs, const struct rmap_ctx *ctx);
/* The match clauses read (p, *match), the set clauses write *t: FRR's route_map_apply_ext(),
 * for `neighbor X default-originate route-map NAME`, which asks whether a route of the table
 * matches and gives its sets to the default route. */
bool route_map_apply_split(const char *name, const struct prefix *p, const struct bgp_attr *match,
			   struct bgp_attr *t, struct rmap_refs *refs);

/*
 * route_map_apply_ctx() in two steps, for a caller that applies one map to many prefixes with
 * the same attributes (an UPDATE's) and would make the result once: which entry decides, then
 * its set clauses. RMAP_ONE_DENY: the map denies (p, *a) (a deny entry matched, none did, or
 * no such map); RMAP_ONE_PERMIT: *one, a permit entry without call or on-match, matched and
 * ends the map: the result is *a with its set clauses, which depend on *a, the prefix's family
 * and ctx alone (route_map_entry_apply()); RMAP_ONE_MORE: more than one entry or map decides:
 * run route_map_apply_ctx(). The deciding entry's hit is counted, as route_map_apply_ctx()
 * does (not for RMAP_ONE_MORE, whose route_map_apply_ctx() counts it).
 */
enum rmap_one {
	RMAP_ONE_DENY,
	RMAP_ONE_PERMIT,
	RMAP_ONE_MORE,
};
enum rmap_one route_map_decide_one(const char *name, const struct prefix *p,
				   const struct bgp_attr *a, const struct rmap_ctx *ctx,
				   const struct rmap_entry **one);
/* e's set clauses on template *t, the new references in *refs (to be released after
 * interning, as route_map_apply_ctx()'s). */
void route_map_entry_apply(const struct rmap_entry *e, const struct prefix *p,
			   const struct rmap_ctx *ctx, struct bgp_attr *t, struct rmap_refs *refs);

/*
 * What `match rpki` and `match aspa` ask: installed by whoever owns the RPKI store (bgpd/main.c
 * installs bgpd/rpki's; tests install their own), so that this layer links no store. Without
 * one every route is RPKI_NOT_USED / ASPA_NOT_USED, and such clauses match nothing.
 */
struct rmap_validator {
	enum rpki_state (*rov)(const struct prefix *p, const struct bgp_aspath *aspath);
	enum aspa_state (*aspa)(const struct bgp_aspath *aspath, uint32_t peer_as,
				enum aspa_dir dir);
};
void route_map_set_validator(const struct rmap_validator *v); /* NULL removes it */

/* Our AS, which `set extcommunity bandwidth` puts in the value (the instance sets it). */
void route_map_set_local_as(uint32_t asn);
/* Does the route-map (or one it calls) have a match rpki / match aspa clause? A neighbor whose
 * inbound route-map does needs its routes as received kept, to run them through the map again
 * when the RPKI data changes (bgpd/rib/). A missing map: false. */
bool route_map_uses_validation(const char *name);

/* Does the route-map deny every route whatever its prefix and attributes (its first entry a
 * deny without match clauses, or the name naming no map)? Then a session it filters towards
 * is sent nothing, and need not be walked (bgpd/rib/bgp_adj_out_walk.c). */
bool route_map_denies_all(const char *name);

/* Walk for show and printing: maps in name order, entries in seq order. */
typedef void (*route_map_walk_cb)(const char *map, const struct rmap_entry *e, void *arg);
void route_map_walk(const char *only, route_map_walk_cb cb, void *arg);

typedef void (*route_map_hook_fn)(const char *name);
void route_map_set_change_hook(route_map_hook_fn fn);

void route_map_entry_free(struct rmap_entry *e); /* its strings and arrays */
void route_map_reset(void);

#endif /* SKUA_BGP_ROUTEMAP_H */
