/* SPDX-License-Identifier: ISC */
/*
 * JSON renderer of the route show commands, with FRR's key names (bgp_show_table(),
 * route_vty_out(), route_vty_out_detail()), streamed through lib/json.h into the vty's output.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <time.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/show/bgp_route_out.h"
#include "lib/vty.h"

static void json_begin(struct route_show *s)
{
	json_init(&s->json, &s->vty->out, true);
	json_object_open(&s->json, NULL);
}

static void json_inaddr(struct json_writer *w, const char *key, struct in_addr a)
{
	char buf[INET_ADDRSTRLEN];

	json_string(w, key, inet_ntop(AF_INET, &a, buf, sizeof(buf)));
}

static void json_in6addr(struct json_writer *w, const char *key, const struct in6_addr *a)
{
	char buf[INET6_ADDRSTRLEN];

	json_string(w, key, inet_ntop(AF_INET6, a, buf, sizeof(buf)));
}

static void json_table_begin(struct route_show *s)
{
	struct json_writer *w = &s->json;

	json_begin(s);
	json_int(w, "vrfId", 0);
	json_string(w, "vrfName", "default");
	json_uint(w, "tableVersion", rib_af_version(s->rib, s->af));
	json_inaddr(w, "routerId", s->bgp->router_id);
	json_uint(w, "defaultLocPrf", BGP_DEFAULT_LOCAL_PREF);
	json_uint(w, "localAS", s->bgp->asn);
	json_object_open(w, "routes");
}

/* nexthops: [{ip, afi, scope, used}] as route_vty_out() (IPv6: global, then link-local). In
 * detail, a path that is not valid has its next hop "accessible": false and no metric (FRR). */
static void json_nexthops(struct route_show *s, const struct bgp_attr *attr, bool detail,
			  bool valid)
{
	struct json_writer *w = &s->json;
	bool ll = s->af == BGP_AF_IPV6_UNICAST && attr->mp_nh_len == 32;

	json_array_open(w, "nexthops");
	json_object_open(w, NULL);
	if (!route_nh_ipv6(s, attr)) {
		json_inaddr(w, "ip", attr->nexthop);
		json_string(w, "afi", "ipv4");
	} else {
		json_in6addr(w, "ip", bgp_attr_mp_nh_global(attr));
		json_string(w, "afi", "ipv6");
		json_string(w, "scope", "global");
	}
	if (detail && valid)
		json_uint(w, "metric", 0);
	if (detail)
		json_bool(w, "accessible", valid);
	if (!ll)
		json_bool(w, "used", true);
	json_object_close(w);
	if (ll) {
		json_object_open(w, NULL);
		json_in6addr(w, "ip", bgp_attr_mp_nh_local(attr));
		json_string(w, "afi", "ipv6");
		json_string(w, "scope", "link-local");
		if (detail)
			json_bool(w, "accessible", true);
		json_bool(w, "used", true);
		json_object_close(w);
	}
	json_array_close(w);
}

static void json_table_path(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			    const struct bgp_path *path, enum bgp_sel_reason why, struct sbuf *tmp)
{
	struct json_writer *w = &s->json;
	const struct bgp_attr *attr = path_attr(path);
	const struct rib_src *src = route_path_src(s, path);
	char buf[PREFIX_STRLEN];

	json_object_open(w, NULL);
	if (route_path_removed(s, path))
		json_bool(w, "removed", true);
	if (route_path_stale(s, path))
		json_bool(w, "stale", true);
	if (rib_aggr_suppressed(s->rib, s->af, d))
		json_bool(w, "suppressed", true); /* summary-only (FRR's key and place) */
	if (route_path_valid(s, path))
		json_bool(w, "valid", true);
	if (rib_path_multipath(s->rib, s->af, d, path))
		json_bool(w, "multipath", true);
	if (path == dest_best(d)) {
		json_bool(w, "bestpath", true);
		json_string(w, "selectionReason", bgp_sel_reason_str(why));
	}
	json_string(w, "pathFrom", route_path_internal(s, path) ? "internal" : "external");
	inet_ntop(p->family, p->u.bytes, buf, sizeof(buf));
	json_string(w, "prefix", buf);
	json_uint(w, "prefixLen", p->len);
	json_string(w, "network", prefix_to_str(p, buf, sizeof(buf)));
	json_uint(w, "version", d->version);
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		json_uint(w, "metric", attr->med);
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		json_uint(w, "locPrf", attr->local_pref);
	json_uint(w, "weight", bgp_attr_weight(attr));
	json_string(w, "peerId", route_peer_str(src, true, buf, sizeof(buf)));
	route_aspath_str(attr->aspath, tmp);
	json_string(w, "path", tmp->buf);
	json_string(w, "origin", route_origin_long(attr->origin));
	json_nexthops(s, attr, false, true);
	json_object_close(w);
}

static void json_dest_header(struct route_show *s, const struct bgp_dest *d,
			     const struct prefix *p);
static void json_path_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			     const struct bgp_path *path, struct sbuf *tmp);

static void json_table_route(struct route_show *s, const struct bgp_dest *d, const struct prefix *p)
{
	struct json_writer *w = &s->json;
	char buf[PREFIX_STRLEN];
	enum bgp_sel_reason why = bgp_decision_reason(s->rib, d);
	struct sbuf tmp;

	sbuf_init(&tmp);
	json_array_open(w, prefix_to_str(p, buf, sizeof(buf)));
	/* `detail` (FRR 8.4): the route's own members first, then each path in detail. */
	if (s->detail) {
		json_object_open(w, NULL);
		json_dest_header(s, d, p);
		json_object_close(w);
	}
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path)) {
		if (!route_path_shown(s, path))
			continue;
		if (s->detail)
			json_path_detail(s, d, p, path, &tmp);
		else
			json_table_path(s, d, p, path, why, &tmp);
		s->paths++;
	}
	json_array_close(w);
	sbuf_free(&tmp);
	s->routes++;
}

static void json_table_end(struct route_show *s)
{
	struct json_writer *w = &s->json;

	json_object_close(w); /* routes */
	json_uint(w, "totalRoutes", s->routes);
	json_uint(w, "totalPaths", s->paths);
	json_object_close(w);
	json_end(w);
}

/* ---- detail view ---- */

static void json_seg(const char *type, const uint32_t *as, unsigned count, void *arg)
{
	struct json_writer *w = arg;

	json_object_open(w, NULL);
	json_string(w, "type", type);
	json_array_open(w, "list");
	for (unsigned i = 0; i < count; i++)
		json_uint(w, NULL, as[i]);
	json_array_close(w);
	json_object_close(w);
}

static void json_aspath(struct json_writer *w, const struct bgp_aspath *p, struct sbuf *tmp)
{
	json_object_open(w, "aspath");
	route_aspath_str(p, tmp);
	/* FRR names the empty path "Local" here (the text view prints it as "Local" too). */
	json_string(w, "string", tmp->len ? tmp->buf : "Local");
	json_array_open(w, "segments");
	route_aspath_segments(p, json_seg, w);
	json_array_close(w);
	json_uint(w, "length", p ? p->path_len : 0);
	json_object_close(w);
}

static void json_path_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			     const struct bgp_path *path, struct sbuf *tmp)
{
	struct json_writer *w = &s->json;
	const struct bgp_attr *attr = path_attr(path);
	const struct bgp_attr_extra *ex = bgp_attr_ex(attr);
	const struct rib_src *src = route_path_src(s, path);
	bool local = !src || src->local;
	char buf[IPADDR_STRLEN], tbuf[64];
	time_t t = (time_t)path->uptime;

	json_object_open(w, NULL);
	json_aspath(w, attr->aspath, tmp);
	if (route_path_removed(s, path))
		json_bool(w, "removed", true);
	if (route_path_stale(s, path))
		json_bool(w, "stale", true);
	if (attr->present & ATTR_BIT(BGP_ATTR_AGGREGATOR)) {
		json_uint(w, "aggregatorAs", ex->aggregator_as);
		json_inaddr(w, "aggregatorId", ex->aggregator_addr);
	}
	json_string(w, "origin", route_origin_long(attr->origin));
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		json_uint(w, "metric", attr->med);
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		json_uint(w, "locPrf", attr->local_pref);
	if (bgp_attr_weight(attr))
		json_uint(w, "weight", bgp_attr_weight(attr));
	if (bgp_attr_ex(attr)->tag) /* a route-map's set tag (FRR) */
		json_uint(w, "tag", bgp_attr_ex(attr)->tag);
	json_bool(w, "valid", route_path_valid(s, path));
	json_uint(w, "version", d->version);
	if (local) {
		json_bool(w, "sourced", true);
		json_bool(w, "local", true);
	}
	if (attr->atomic_aggregate || (attr->present & ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE)))
		json_bool(w, "atomicAggregate", true);
	if (rib_path_multipath(s->rib, s->af, d, path))
		json_bool(w, "multipath", true);
	if (s->rpki)
		json_string(w, "rpkiValidationState",
			    route_rpki_state_str(route_rpki_state(s, p, path)));
	if (route_aspa_state(s, path) != ASPA_NOT_USED) /* skua's */
		json_string(w, "aspaValidationState", aspa_state_name(route_aspa_state(s, path)));
	if (path == dest_best(d)) {
		json_object_open(w, "bestpath");
		json_bool(w, "overall", true);
		json_string(w, "selectionReason",
			    bgp_sel_reason_str(bgp_decision_reason(s->rib, d)));
		json_object_close(w);
	}
	if (attr->communities) {
		json_object_open(w, "community");
		route_community_str(attr->communities, tmp);
		json_string(w, "string", tmp->buf);
		json_array_open(w, "list");
		for (uint32_t i = 0; i < attr->communities->count; i++)
			json_string(w, NULL,
				    route_community_one(attr->communities->val[i], true, buf,
							sizeof(buf)));
		json_array_close(w);
		json_object_close(w);
	}
	if (ex->ecommunities) {
		/* FRR 8.4 gives the string only, no list. */
		json_object_open(w, "extendedCommunity");
		route_ecommunity_str(ex->ecommunities, tmp);
		json_string(w, "string", tmp->buf);
		json_object_close(w);
	}
	if (ex->lcommunities) {
		const struct bgp_lcommlist *l = ex->lcommunities;

		json_object_open(w, "largeCommunity");
		route_lcommunity_str(l, tmp);
		json_string(w, "string", tmp->buf);
		json_array_open(w, "list");
		for (uint32_t i = 0; i < l->count; i++)
			json_stringf(w, NULL, "%u:%u:%u", l->val[3 * i], l->val[3 * i + 1],
				     l->val[3 * i + 2]);
		json_array_close(w);
		json_object_close(w);
	}
	if (attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID))
		json_inaddr(w, "originatorId", ex->originator_id);
	if (ex->cluster_list) {
		json_object_open(w, "clusterList");
		json_array_open(w, "list");
		for (uint32_t i = 0; i < ex->cluster_list->count; i++) {
			struct in_addr a = { .s_addr = htonl(ex->cluster_list->val[i]) };

			json_inaddr(w, NULL, a);
		}
		json_array_close(w);
		json_object_close(w);
	}
	json_object_open(w, "lastUpdate");
	json_int(w, "epoch", (int64_t)path->uptime);
	if (!ctime_r(&t, tbuf))
		snprintf(tbuf, sizeof(tbuf), "?\n");
	json_string(w, "string", tbuf);
	json_object_close(w);
	if (src && route_path_stale(s, path) && rib_src_gr_restart_remaining(src) >= 0)
		json_int(w, "gracefulRestartSecondsRemaining", rib_src_gr_restart_remaining(src));
	json_nexthops(s, attr, true, route_path_valid(s, path));
	json_object_open(w, "peer");
	if (local) {
		json_string(w, "peerId", s->af == BGP_AF_IPV4_UNICAST ? "0.0.0.0" : "::");
		json_inaddr(w, "routerId", s->bgp->router_id);
	} else {
		json_string(w, "peerId", route_peer_str(src, false, buf, sizeof(buf)));
		json_inaddr(w, "routerId", src->remote_id);
		json_string(w, "type", src->ebgp || src->confed ? "external" : "internal");
	}
	json_object_close(w);
	json_object_close(w);
}

/* The members every detail view opens a route with: prefix, version, the peers it went to. */
static void json_dest_header(struct route_show *s, const struct bgp_dest *d, const struct prefix *p)
{
	struct json_writer *w = &s->json;
	char buf[PREFIX_STRLEN];
	bool adv_open = false;

	json_string(w, "prefix", prefix_to_str(p, buf, sizeof(buf)));
	json_uint(w, "version", d->version);
	for (uint32_t id = 1; id < s->rib->src_cap; id++) {
		const struct rib_src *src = s->rib->src[id];

		if (!src || !src->up || !bgp_dest_adv_test(d, id))
			continue;
		if (!adv_open)
			json_object_open(w, "advertisedTo");
		adv_open = true;
		json_object_open(w, route_peer_str(src, false, buf, sizeof(buf)));
		json_object_close(w);
	}
	if (adv_open)
		json_object_close(w);
}

static void json_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p)
{
	struct json_writer *w = &s->json;
	struct sbuf tmp;

	json_begin(s);
	json_dest_header(s, d, p);
	json_uint(w, "pathCount", route_path_count(d));
	json_uint(w, "multiPathCount", dest_best(d) ? 1 : 0);
	sbuf_init(&tmp);
	json_array_open(w, "paths");
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path))
		json_path_detail(s, d, p, path, &tmp);
	json_array_close(w);
	sbuf_free(&tmp);
	json_object_close(w);
	json_end(w);
}

static void json_empty(struct route_show *s)
{
	json_begin(s);
	json_object_close(&s->json);
	json_end(&s->json);
}

/* ---- neighbors X advertised-routes|received-routes (FRR's show_adj_route(),
 * route_vty_out_tmp()) ---- */

static void json_adv_begin(struct route_show *s)
{
	struct json_writer *w = &s->json;

	json_begin(s);
	json_uint(w, "bgpTableVersion", rib_af_version(s->rib, s->af));
	json_inaddr(w, "bgpLocalRouterId", s->bgp->router_id);
	json_uint(w, "defaultLocPrf", BGP_DEFAULT_LOCAL_PREF);
	json_uint(w, "localAS", s->bgp->asn);
	json_object_open(w, s->received ? "receivedRoutes" : "advertisedRoutes");
}

static void json_adv_route(struct route_show *s, const struct prefix *p,
			   const struct bgp_attr *attr)
{
	struct json_writer *w = &s->json;
	char buf[PREFIX_STRLEN];
	struct sbuf tmp;

	json_object_open(w, prefix_to_str(p, buf, sizeof(buf)));
	inet_ntop(p->family, p->u.bytes, buf, sizeof(buf));
	json_string(w, "addrPrefix", buf);
	json_uint(w, "prefixLen", p->len);
	json_string(w, "network", prefix_to_str(p, buf, sizeof(buf)));
	if (s->af == BGP_AF_IPV4_UNICAST)
		json_inaddr(w, "nextHop", attr->nexthop);
	else
		json_in6addr(w, "nextHopGlobal", bgp_attr_mp_nh_global(attr));
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		json_uint(w, "metric", attr->med);
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		json_uint(w, "locPrf", attr->local_pref);
	json_uint(w, "weight", bgp_attr_weight(attr));
	sbuf_init(&tmp);
	route_aspath_str(attr->aspath, &tmp);
	json_string(w, "path", tmp.buf);
	sbuf_free(&tmp);
	json_string(w, "bgpOriginCode", route_origin_char(attr->origin));
	json_object_close(w);
	s->routes++;
}

static void json_adv_end(struct route_show *s)
{
	struct json_writer *w = &s->json;

	json_object_close(w); /* advertisedRoutes or receivedRoutes */
	json_uint(w, "totalPrefixCounter", s->routes);
	json_object_close(w);
	json_end(w);
}

static void json_warning(struct route_show *s, const char *msg)
{
	json_begin(s);
	json_string(&s->json, "warning", msg);
	json_object_close(&s->json);
	json_end(&s->json);
}

const struct route_out route_out_json = {
	.table_begin = json_table_begin,
	.table_route = json_table_route,
	.table_end = json_table_end,
	.detail = json_detail,
	.not_found = json_empty,
	.no_instance = json_empty,
	.adv_begin = json_adv_begin,
	.adv_route = json_adv_route,
	.adv_end = json_adv_end,
	.warning = json_warning,
};
