/* SPDX-License-Identifier: ISC */
/*
 * Route-maps (see bgpd/policy/bgp_routemap.h): a name-sorted array of maps, each an array of
 * entries sorted by seq; the evaluation follows FRR's route_map_apply() for what skua supports.
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "lib/name_index.h"
#include "lib/plist.h"

DEFINE_MTYPE(BGP_ROUTEMAP, "Route-map");

struct route_map {
	char *name;
	struct rmap_entry *e; /* sorted by seq */
	uint32_t n, alloc;
};

static struct name_index maps = NAME_INDEX_INIT(struct route_map, name, MTYPE_BGP_ROUTEMAP);
static route_map_hook_fn change_hook;

void route_map_set_change_hook(route_map_hook_fn fn)
{
	change_hook = fn;
}

static void changed(const char *name)
{
	if (change_hook)
		change_hook(name);
}

struct route_map *route_map_lookup(const char *name)
{
	return name_index_find(&maps, name);
}

void route_map_entry_free(struct rmap_entry *e)
{
	XFREE(MTYPE_BGP_ROUTEMAP, e->call);
	XFREE(MTYPE_BGP_ROUTEMAP, e->description);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_plist4);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_nh_plist4);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_plist6);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_aspath);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_clist);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_peer_ifname);
	XFREE(MTYPE_BGP_ROUTEMAP, e->prepend);
	XFREE(MTYPE_BGP_ROUTEMAP, e->exclude);
	XFREE(MTYPE_BGP_ROUTEMAP, e->comm);
	XFREE(MTYPE_BGP_ROUTEMAP, e->comm_delete);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_lclist);
	XFREE(MTYPE_BGP_ROUTEMAP, e->lcomm);
	XFREE(MTYPE_BGP_ROUTEMAP, e->lcomm_delete);
	XFREE(MTYPE_BGP_ROUTEMAP, e->match_eclist);
	XFREE(MTYPE_BGP_ROUTEMAP, e->ecomm_rt);
	XFREE(MTYPE_BGP_ROUTEMAP, e->ecomm_soo);
	XFREE(MTYPE_BGP_ROUTEMAP, e->ecomm_rt_text);
	XFREE(MTYPE_BGP_ROUTEMAP, e->ecomm_soo_text);
}

static void map_free(struct route_map *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		route_map_entry_free(&m->e[i]);
	XFREE(MTYPE_BGP_ROUTEMAP, m->e);
	XFREE(MTYPE_BGP_ROUTEMAP, m->name);
	XFREE(MTYPE_BGP_ROUTEMAP, m);
}

void route_map_entry_set(const char *name, struct rmap_entry *e)
{
	struct route_map *m;
	bool found;
	uint32_t i = name_index_search(&maps, name, &found);

	if (!found) {
		m = XCALLOC(MTYPE_BGP_ROUTEMAP, sizeof(*m));
		m->name = XSTRDUP(MTYPE_BGP_ROUTEMAP, name);
		name_index_insert_at(&maps, i, m);
	}
	m = maps.v[i];
	for (i = 0; i < m->n && m->e[i].seq < e->seq; i++)
		;
	if (i < m->n && m->e[i].seq == e->seq) {
		route_map_entry_free(&m->e[i]);
	} else {
		if (m->n == m->alloc) {
			m->alloc = m->alloc ? m->alloc * 2 : 4;
			m->e = XREALLOC(MTYPE_BGP_ROUTEMAP, m->e, m->alloc * sizeof(*m->e));
		}
		memmove(&m->e[i + 1], &m->e[i], (m->n - i) * sizeof(*m->e));
		m->n++;
	}
	m->e[i] = *e;
	memset(e, 0, sizeof(*e)); /* taken over */
	changed(name);
}

void route_map_delete(const char *name)
{
	bool found;
	uint32_t i = name_index_search(&maps, name, &found);

	if (!found)
		return;
	map_free(name_index_remove_at(&maps, i));
	changed(name);
}

void route_map_entry_delete(const char *name, uint16_t seq)
{
	struct route_map *m = route_map_lookup(name);

	if (!m)
		return;
	for (uint32_t i = 0; i < m->n; i++) {
		if (m->e[i].seq != seq)
			continue;
		route_map_entry_free(&m->e[i]);
		memmove(&m->e[i], &m->e[i + 1], (m->n - i - 1) * sizeof(*m->e));
		m->n--;
		changed(name);
		return;
	}
}

/* ---- evaluation ---- */

static const struct rmap_validator *validator;

void route_map_set_validator(const struct rmap_validator *v)
{
	validator = v;
}

static bool uses_validation_depth(const char *name, int depth)
{
	const struct route_map *m = route_map_lookup(name);

	if (!m || depth > RMAP_CALL_DEPTH)
		return false;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct rmap_entry *e = &m->e[i];

		if (e->match_rpki != RPKI_NOT_USED || e->match_aspa != ASPA_NOT_USED)
			return true;
		if (e->call && uses_validation_depth(e->call, depth + 1))
			return true;
	}
	return false;
}

bool route_map_uses_validation(const char *name)
{
	return name && uses_validation_depth(name, 0);
}

/* match ip next-hop prefix-list: IPv4 routes only (FRR); a missing list matches nothing, and
 * this is the list's plain verdict on the next hop as a /32 (FRR's route-map optimization,
 * which makes an empty list match nothing for `match ip address`, does not look at it). */
static bool nexthop4_permitted(const char *name, const struct prefix *p, const struct bgp_attr *a)
{
	struct prefix_list *pl = prefix_list_lookup(AF_INET, name);
	struct prefix nh;

	if (!pl || p->family != AF_INET)
		return false;
	memset(&nh, 0, sizeof(nh));
	nh.family = AF_INET;
	nh.len = 32;
	nh.u.v4 = a->nexthop;
	return prefix_list_apply(pl, &nh) == PREFIX_PERMIT;
}

/* match ipv6 next-hop address: the global next hop, or the link-local one when the route
 * carries both (FRR). A route without IPv6 next hops matches nothing. */
static bool nexthop6_is(const struct in6_addr *want, const struct bgp_attr *a)
{
	if (a->mp_nh_len < 16)
		return false;
	if (memcmp(bgp_attr_mp_nh_global(a), want, sizeof(*want)) == 0)
		return true;
	return a->mp_nh_len == 32 && memcmp(bgp_attr_mp_nh_local(a), want, sizeof(*want)) == 0;
}

/* match peer (FRR's route_match_peer()): an address is the neighbor's own (inbound maps
 * only, see rmap_ctx); `local` holds in maps of our own routes only (no ctx); an interface
 * name matches no numbered neighbor. */
static bool peer_matches(const struct rmap_entry *e, const struct rmap_ctx *ctx)
{
	const struct ipaddr *peer = ctx ? ctx->peer : NULL;

	switch (e->match_peer) {
	case RMAP_PEER_NONE:
		return true;
	case RMAP_PEER_LOCAL:
		return !ctx;
	case RMAP_PEER_ADDR:
		return peer && ipaddr_cmp(peer, &e->match_peer_addr) == 0;
	case RMAP_PEER_IFNAME:
		break;
	}
	return false;
}

static bool entry_matches(const struct rmap_entry *e, const struct prefix *p,
			  const struct rmap_ctx *ctx, const struct bgp_attr *a)
{
	if (e->match_plist4) {
		struct prefix_list *pl = prefix_list_lookup(AF_INET, e->match_plist4);

		/* A missing or empty list matches nothing (FRR's route-map). */
		if (!pl || !pl->count || p->family != AF_INET ||
		    prefix_list_apply(pl, p) != PREFIX_PERMIT)
			return false;
	}
	if (e->match_plist6) {
		struct prefix_list *pl = prefix_list_lookup(AF_INET6, e->match_plist6);

		if (!pl || !pl->count || p->family != AF_INET6 ||
		    prefix_list_apply(pl, p) != PREFIX_PERMIT)
			return false;
	}
	if (e->match_nh_plist4 && !nexthop4_permitted(e->match_nh_plist4, p, a))
		return false;
	if (e->match_nh6_set && !nexthop6_is(&e->match_nh6, a))
		return false;
	if (e->match_aspath) {
		struct aspath_list *l = aspath_list_lookup(e->match_aspath);

		if (!l || !aspath_list_permits(l, a->aspath))
			return false;
	}
	if (e->match_clist && !community_list_permits(community_list_lookup(e->match_clist),
						      a->communities, e->match_clist_exact))
		return false;
	if (e->match_lclist &&
	    !lcommunity_list_permits(lcommunity_list_lookup(e->match_lclist),
				     bgp_attr_ex(a)->lcommunities, e->match_lclist_exact))
		return false;
	if (e->match_eclist && !ecommunity_list_permits(ecommunity_list_lookup(e->match_eclist),
							bgp_attr_ex(a)->ecommunities))
		return false;
	if (!peer_matches(e, ctx))
		return false;
	if (e->match_tag_set && bgp_attr_ex(a)->tag != e->match_tag)
		return false;
	if (e->match_metric_set) {
		uint32_t med = (a->present & ATTR_BIT(BGP_ATTR_MED)) ? a->med : 0;

		if (med != e->match_metric)
			return false;
	}
	if (e->match_rpki != RPKI_NOT_USED &&
	    (!validator || validator->rov(p, a->aspath) != e->match_rpki))
		return false;
	if (e->match_aspa != ASPA_NOT_USED &&
	    (!validator || !ctx || ctx->aspa_dir == ASPA_DIR_NONE ||
	     validator->aspa(a->aspath, ctx->peer_as, ctx->aspa_dir) != e->match_aspa))
		return false;
	return true;
}

static uint32_t arith(uint32_t cur, enum rmap_arith op, uint32_t v)
{
	uint64_t r;

	switch (op) {
	case RMAP_ADD:
		r = (uint64_t)cur + v;
		return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r; /* FRR saturates */
	case RMAP_SUB:
		return cur > v ? cur - v : 0;
	case RMAP_SET_VALUE:
		break;
	}
	return v;
}

void route_map_refs_release(struct rmap_refs *r)
{
	if (r->aspath)
		bgp_aspath_unref(r->aspath);
	if (r->communities)
		bgp_u32list_unref(r->communities);
	if (r->lcommunities)
		bgp_lcommlist_unref(r->lcommunities);
	bgp_ecommlist_unref(r->ecommunities);
	r->aspath = NULL;
	r->communities = NULL;
	r->lcommunities = NULL;
	r->ecommunities = NULL;
}

/* The template's COMMUNITIES become l, a reference refs now holds. */
static void put_communities(struct bgp_attr *t, struct rmap_refs *refs, struct bgp_u32list *l)
{
	if (refs->communities)
		bgp_u32list_unref(refs->communities);
	refs->communities = l;
	t->communities = l;
	if (l)
		t->present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	else
		t->present &= ~ATTR_BIT(BGP_ATTR_COMMUNITIES);
}

/* The template's extras become refs' own block (a copy of them), to be changed. */
static void own_extras(struct bgp_attr *t, struct rmap_refs *refs)
{
	bgp_attr_own_extras(t, &refs->ex);
}

/* The template's LARGE_COMMUNITIES become l (in refs' own extras block). */
static void put_lcommunities(struct bgp_attr *t, struct rmap_refs *refs, struct bgp_lcommlist *l)
{
	own_extras(t, refs);
	if (refs->lcommunities)
		bgp_lcommlist_unref(refs->lcommunities);
	refs->lcommunities = l;
	refs->ex.lcommunities = l;
	if (l)
		t->present |= ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	else
		t->present &= ~ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
}

/* The template's EXTENDED_COMMUNITIES become l (in refs' own extras block). */
static void put_ecommunities(struct bgp_attr *t, struct rmap_refs *refs, struct bgp_ecommlist *l)
{
	own_extras(t, refs);
	bgp_ecommlist_unref(refs->ecommunities);
	refs->ecommunities = l;
	refs->ex.ecommunities = l;
	if (l)
		t->present |= ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	else
		t->present &= ~ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
}

static uint32_t local_as;

void route_map_set_local_as(uint32_t asn)
{
	local_as = asn;
}

/* The route's extended communities (n values) in a new array with room for extra more. */
static uint32_t *ecomm_copy(const struct bgp_ecommlist *l, uint32_t extra)
{
	uint32_t n = l ? l->count : 0;
	uint32_t *v = XMALLOC(MTYPE_BGP_ROUTEMAP, ((size_t)n + extra + 1) * 2 * sizeof(*v));

	if (n)
		memcpy(v, l->val, (size_t)n * 2 * sizeof(*v));
	return v;
}

/*
 * set extcommunity bandwidth: FRR's ecommunity_add_val(unique, overwrite): a value of the same
 * type and sub-type is replaced where it stands; else the new one goes before the first value
 * greater than it. (n values in v, room for one more; returns the new count.)
 */
static uint32_t lb_add(uint32_t *v, uint32_t n, const uint32_t lb[2])
{
	uint32_t at = n;

	for (uint32_t i = 0; i < n; i++) {
		if ((v[2 * i] >> 16) == (lb[0] >> 16)) {
			v[2 * i] = lb[0];
			v[2 * i + 1] = lb[1];
			return n;
		}
		if (v[2 * i] == lb[0] && v[2 * i + 1] == lb[1])
			return n;
		if (at == n && (v[2 * i] > lb[0] || (v[2 * i] == lb[0] && v[2 * i + 1] > lb[1])))
			at = i;
	}
	memmove(&v[2 * (at + 1)], &v[2 * at], (size_t)(n - at) * 2 * sizeof(*v));
	v[2 * at] = lb[0];
	v[2 * at + 1] = lb[1];
	return n + 1;
}

/* The bandwidth in Mbps set extcommunity bandwidth gives here; 0: nothing to set. */
static uint64_t lb_mbps(const struct rmap_entry *e, const struct rmap_ctx *ctx)
{
	switch (e->lb) {
	case RMAP_LB_VALUE:
		return e->lb_mbps;
	case RMAP_LB_NUM_MPATH:
		/* FRR: the reference bandwidth (1 Mbps) times the paths, on the selected path
		 * only, so never in an inbound map. */
		return ctx ? ctx->export_paths : 0;
	case RMAP_LB_CUMULATIVE:
		/* FRR sums the multipaths' bandwidths when every one has some, and sets nothing
		 * for a path alone; skua does not do the sum. */
	case RMAP_LB_NONE:
		break;
	}
	return 0;
}

/* The extended community statements, in FRR's printed order: bandwidth, none, rt, soo. */
static void set_ecommunities(const struct rmap_entry *e, const struct rmap_ctx *ctx,
			     struct bgp_attr *t, struct rmap_refs *refs)
{
	const struct bgp_ecommlist *old = bgp_attr_ex(t)->ecommunities;
	uint32_t *v, n = old ? old->count : 0;
	uint64_t mbps = lb_mbps(e, ctx);

	if (!mbps && !e->ecomm_none && !e->necomm_rt && !e->necomm_soo)
		return;
	v = ecomm_copy(old, 1 + e->necomm_rt + e->necomm_soo);
	if (mbps) {
		uint64_t bytes = mbps * 1000 * 1000 / 8;
		uint32_t lb[2];

		bgp_ecomm_lb(local_as, bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes,
			     !e->lb_non_transitive, lb);
		n = lb_add(v, n, lb);
	}
	if (e->ecomm_none)
		n = 0;
	if (e->necomm_rt)
		memcpy(&v[2 * n], e->ecomm_rt, (size_t)e->necomm_rt * 2 * sizeof(*v));
	n += e->necomm_rt;
	if (e->necomm_soo)
		memcpy(&v[2 * n], e->ecomm_soo, (size_t)e->necomm_soo * 2 * sizeof(*v));
	n += e->necomm_soo;
	put_ecommunities(t, refs, n ? bgp_ecommlist_intern(v, n) : NULL);
	XFREE(MTYPE_BGP_ROUTEMAP, v);
}

/* The values of a set statement, added to what the route has (additive) or alone, as a set:
 * sorted, without repeats. w: words per value. n: the count, the array is to free. */
static uint32_t merge_values(const uint32_t *have, uint32_t nhave, const uint32_t *add,
			     uint32_t nadd, uint32_t w, uint32_t **out)
{
	uint32_t *v = XMALLOC(MTYPE_BGP_ROUTEMAP, ((size_t)nhave + nadd + 1) * w * sizeof(*v));

	if (nhave)
		memcpy(v, have, (size_t)nhave * w * sizeof(*v));
	if (nadd)
		memcpy(v + (size_t)nhave * w, add, (size_t)nadd * w * sizeof(*v));
	*out = v;
	return w == 3 ? bgp_lcomm_sort_uniq(v, nhave + nadd) : bgp_comm_sort_uniq(v, nhave + nadd);
}

/* set community: replace, add to (additive) or remove the route's COMMUNITIES. */
static void set_communities(const struct rmap_entry *e, struct bgp_attr *t, struct rmap_refs *refs)
{
	const struct bgp_u32list *old = e->comm_additive ? t->communities : NULL;
	struct bgp_u32list *l = NULL;
	uint32_t *v, n;

	if (!e->comm_none) {
		n = merge_values(old ? old->val : NULL, old ? old->count : 0, e->comm, e->ncomm, 1,
				 &v);
		l = n ? bgp_u32list_intern(v, n) : NULL;
		XFREE(MTYPE_BGP_ROUTEMAP, v);
	}
	put_communities(t, refs, l);
}

/* set large-community: the same for LARGE_COMMUNITIES. */
static void set_lcommunities(const struct rmap_entry *e, struct bgp_attr *t, struct rmap_refs *refs)
{
	const struct bgp_lcommlist *old = e->lcomm_additive ? bgp_attr_ex(t)->lcommunities : NULL;
	struct bgp_lcommlist *l = NULL;
	uint32_t *v, n;

	if (!e->lcomm_none) {
		n = merge_values(old ? old->val : NULL, old ? old->count : 0, e->lcomm, e->nlcomm,
				 3, &v);
		l = n ? bgp_lcommlist_intern(v, n) : NULL;
		XFREE(MTYPE_BGP_ROUTEMAP, v);
	}
	put_lcommunities(t, refs, l);
}

/* set comm-list NAME delete, set large-comm-list NAME delete. A missing list deletes
 * nothing. */
static void delete_communities(const struct rmap_entry *e, struct bgp_attr *t,
			       struct rmap_refs *refs)
{
	struct community_list *l;

	if (e->comm_delete && t->communities && (l = community_list_lookup(e->comm_delete)))
		put_communities(t, refs, community_list_strip(l, t->communities));
	if (e->lcomm_delete && bgp_attr_ex(t)->lcommunities &&
	    (l = lcommunity_list_lookup(e->lcomm_delete)))
		put_lcommunities(t, refs, lcommunity_list_strip(l, bgp_attr_ex(t)->lcommunities));
}

static void entry_set(const struct rmap_entry *e, const struct prefix *p,
		      const struct rmap_ctx *ctx, struct bgp_attr *t, struct rmap_refs *refs)
{
	if (e->lp_set) {
		/* +N / -N on a route without LOCAL_PREF count from 0, as FRR (an eBGP route;
		 * towards iBGP the default 100 is set before the outbound map runs). */
		uint32_t cur = (t->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF)) ? t->local_pref : 0;

		t->local_pref = arith(cur, e->lp_op, e->lp);
		t->present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
	}
	if (e->med_set) {
		uint32_t cur = (t->present & ATTR_BIT(BGP_ATTR_MED)) ? t->med : 0;

		t->med = arith(cur, e->med_op, e->med);
		t->present |= ATTR_BIT(BGP_ATTR_MED);
		refs->med_set = true;
	}
	if (e->weight_set) {
		own_extras(t, refs);
		refs->ex.weight = e->weight;
	}
	if (e->origin_set)
		t->origin = e->origin;
	if (e->tag_set) {
		own_extras(t, refs);
		refs->ex.tag = e->tag;
	}
	if (e->nexthop_set) {
		t->nexthop = e->nexthop;
		t->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
		refs->nexthop_set = true;
	}
	if (e->nexthop6_set && p->family == AF_INET6) {
		/* The link-local next hop, if any, stays (FRR). */
		struct in6_addr local = *bgp_attr_mp_nh_local(t);
		bool has_local = t->mp_nh_len == 32;

		bgp_attr_set_mp_nh(t, &refs->ex, has_local ? 32 : 16, &e->nexthop6,
				   has_local ? &local : NULL);
		refs->nexthop6_set = true;
	}
	if (e->nexclude && t->aspath) {
		struct bgp_aspath *np = bgp_aspath_exclude(t->aspath, e->exclude, e->nexclude);

		if (refs->aspath)
			bgp_aspath_unref(refs->aspath);
		refs->aspath = np;
		t->aspath = np;
	}
	/* Prepended in the order written: the first number ends up leftmost. */
	for (uint32_t k = e->nprepend; k-- > 0;) {
		struct bgp_aspath *np = bgp_aspath_prepend(t->aspath, e->prepend[k]);

		if (refs->aspath)
			bgp_aspath_unref(refs->aspath);
		refs->aspath = np;
		t->aspath = np;
	}
	if (e->comm_set)
		set_communities(e, t, refs);
	if (e->lcomm_set)
		set_lcommunities(e, t, refs);
	delete_communities(e, t, refs);
	set_ecommunities(e, ctx, t, refs);
}

/* match: what the match clauses read (NULL: t itself); t: what the set clauses write. */
static bool apply_depth(const char *name, const struct prefix *p, const struct bgp_attr *match,
			struct bgp_attr *t, struct rmap_refs *refs, const struct rmap_ctx *ctx,
			int depth)
{
	struct route_map *m = route_map_lookup(name);
	bool permitted = false;
	uint32_t i = 0;

	if (!m || depth > RMAP_CALL_DEPTH)
		return false;
	while (i < m->n) {
		struct rmap_entry *e = &m->e[i];

		if (!entry_matches(e, p, ctx, match ? match : t)) {
			/* FRR: an entry tried after an on-match continue that does not match
			 * takes the earlier permit back (only falling off the end keeps it). */
			permitted = false;
			i++;
			continue;
		}
		e->hits++;
		if (!e->permit)
			return false;
		entry_set(e, p, ctx, t, refs);
		/* A call to a route-map that does not exist is skipped, as FRR. */
		if (e->call && route_map_lookup(e->call) &&
		    !apply_depth(e->call, p, match, t, refs, ctx, depth + 1))
			return false;
		permitted = true;
		if (e->on_match == RMAP_EXIT)
			return true;
		if (e->on_match == RMAP_NEXT) {
			i++;
			continue;
		}
		for (i++; i < m->n && m->e[i].seq < e->goto_seq; i++)
			;
	}
	return permitted;
}

/* An entry without a match clause: it matches every route. Every match clause of struct
 * rmap_entry must be named here (a forgotten one would make a conditional deny total). */
static bool entry_matches_all(const struct rmap_entry *e)
{
	return !e->match_plist4 && !e->match_plist6 && !e->match_nh_plist4 && !e->match_nh6_set &&
	       !e->match_aspath && !e->match_clist && !e->match_lclist && !e->match_eclist &&
	       e->match_peer == RMAP_PEER_NONE && !e->match_tag_set && !e->match_metric_set &&
	       e->match_rpki == RPKI_NOT_USED && e->match_aspa == ASPA_NOT_USED;
}

bool route_map_denies_all(const char *name)
{
	const struct route_map *m = route_map_lookup(name);

	/* A name that names no route-map denies (see route_map_apply()). */
	if (!m)
		return true;
	return m->n > 0 && !m->e[0].permit && entry_matches_all(&m->e[0]);
}

bool route_map_apply(const char *name, const struct prefix *p, struct bgp_attr *t,
		     struct rmap_refs *refs)
{
	return route_map_apply_ctx(name, p, t, refs, NULL);
}

/* Nothing held yet: every entry point starts here, so a new kind of reference is never
 * released uninitialised by one of them. */
static void refs_init(struct rmap_refs *refs)
{
	refs->aspath = NULL;
	refs->communities = NULL;
	refs->lcommunities = NULL;
	refs->ecommunities = NULL;
	refs->med_set = refs->nexthop_set = refs->nexthop6_set = false;
}

bool route_map_apply_ctx(const char *name, const struct prefix *p, struct bgp_attr *t,
			 struct rmap_refs *refs, const struct rmap_ctx *ctx)
{
	refs_init(refs);
	return apply_depth(name, p, NULL, t, refs, ctx, 0);
}

bool route_map_apply_split(const char *name, const struct prefix *p, const struct bgp_attr *match,
			   struct bgp_attr *t, struct rmap_refs *refs)
{
	refs_init(refs);
	return apply_depth(name, p, match, t, refs, NULL, 0);
}

enum rmap_one route_map_decide_one(const char *name, const struct prefix *p,
				   const struct bgp_attr *a, const struct rmap_ctx *ctx,
				   const struct rmap_entry **one)
{
	struct route_map *m = route_map_lookup(name);

	*one = NULL;
	if (!m)
		return RMAP_ONE_DENY;
	for (uint32_t i = 0; i < m->n; i++) {
		struct rmap_entry *e = &m->e[i];

		if (!entry_matches(e, p, ctx, a))
			continue;
		/* What apply_depth() does next depends on more than this entry: let it. */
		if (e->permit && (e->call || e->on_match != RMAP_EXIT))
			return RMAP_ONE_MORE;
		e->hits++;
		if (!e->permit)
			return RMAP_ONE_DENY;
		*one = e;
		return RMAP_ONE_PERMIT;
	}
	return RMAP_ONE_DENY; /* falling off the end */
}

void route_map_entry_apply(const struct rmap_entry *e, const struct prefix *p,
			   const struct rmap_ctx *ctx, struct bgp_attr *t, struct rmap_refs *refs)
{
	refs_init(refs);
	entry_set(e, p, ctx, t, refs);
}

void route_map_walk(const char *only, route_map_walk_cb cb, void *arg)
{
	for (uint32_t i = 0; i < maps.n; i++) {
		const struct route_map *m = maps.v[i];

		if (only && strcmp(only, m->name) != 0)
			continue;
		for (uint32_t k = 0; k < m->n; k++)
			cb(m->name, &m->e[k], arg);
	}
}

void route_map_reset(void)
{
	for (uint32_t i = 0; i < maps.n; i++)
		map_free(maps.v[i]);
	name_index_clear(&maps);
}
