/* SPDX-License-Identifier: ISC */
/*
 * Text renderer of the route show commands, in FRR's layout (bgp_show_table(),
 * route_vty_out(), route_vty_out_detail_header(), route_vty_out_detail()).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <time.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_gr.h"
#include "bgpd/show/bgp_route_out.h"
#include "lib/vty.h"

/* FRR 8.4's legend and column header (bgp_show_table(), checked in the lab against FRR 8.4's
 * own output: tests/lab/scenarios/frr_output): the status column is three characters ("*> "),
 * preceded by the RPKI code only when a route has one. The Adj-RIB views share them. */
#define SHOW_SCODE_HEADER                                                                   \
	"Status codes:  s suppressed, d damped, h history, * valid, > best, = multipath,\n" \
	"               i internal, r RIB-failure, S Stale, R Removed\n"
#define SHOW_NCODE_HEADER "Nexthop codes: @NNN nexthop's vrf id, < announce-nh-self\n"
#define SHOW_OCODE_HEADER "Origin codes:  i - IGP, e - EGP, ? - incomplete\n"
#define SHOW_RPKI_HEADER "RPKI validation codes: V valid, I invalid, N Not found\n\n"
#define SHOW_HEADER "   Network          Next Hop            Metric LocPrf Weight Path\n"

/* The lines above a route table: the table version, the defaults, the legend and the column
 * header; the Loc-RIB and the Adj-RIB views print the same in FRR 8.4. */
static void text_header(struct route_show *s)
{
	struct vty *vty = s->vty;
	char id[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &s->bgp->router_id, id, sizeof(id));
	vty_out(vty, "BGP table version is %" PRIu64 ", local router ID is %s, vrf id 0\n",
		rib_af_version(s->rib, s->af), id);
	vty_out(vty, "Default local pref %u, local AS %u\n", BGP_DEFAULT_LOCAL_PREF, s->bgp->asn);
	vty_out(vty, SHOW_SCODE_HEADER SHOW_NCODE_HEADER SHOW_OCODE_HEADER SHOW_RPKI_HEADER);
	vty_out(vty, SHOW_HEADER);
}

static void text_table_begin(struct route_show *s)
{
	(void)s; /* the header comes with the first route, as FRR */
}

/* Pad to width after len characters, or continue on the next line at column indent. */
static void pad(struct vty *vty, int len, int width, int indent)
{
	if (width - len < 1)
		vty_out(vty, "\n%*s", indent, " ");
	else
		vty_out(vty, "%*s", width - len, " ");
}

/* One table row after the status columns (FRR's route_vty_out()). */
static void text_row(struct route_show *s, const struct prefix *p, const struct bgp_attr *attr,
		     struct sbuf *tmp)
{
	struct vty *vty = s->vty;
	char buf[PREFIX_STRLEN];

	if (p)
		pad(vty, vty_out(vty, "%s", prefix_to_str(p, buf, sizeof(buf))), 17, 20);
	else
		vty_out(vty, "%*s", 17, " ");
	pad(vty, vty_out(vty, "%s", route_nexthop_str(s, attr, buf, sizeof(buf))), 16, 38);
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		vty_out(vty, "%10u", attr->med);
	else
		vty_out(vty, "%10s", "");
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		vty_out(vty, "%7u", attr->local_pref);
	else
		vty_out(vty, "%7s", "");
	vty_out(vty, "%7u ", bgp_attr_weight(attr));
	route_aspath_str(attr->aspath, tmp);
	if (tmp->len)
		vty_out(vty, "%s ", tmp->buf);
	vty_out(vty, "%s\n", route_origin_char(attr->origin));
}

/* '>' best, '=' another multipath, ' ' neither. */
static char selection_char(const struct route_show *s, const struct bgp_dest *d,
			   const struct bgp_path *path)
{
	if (path == dest_best(d))
		return '>';
	return rib_path_multipath(s->rib, s->af, d, path) ? '=' : ' ';
}

static void text_path_row(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			  const struct bgp_path *path, bool first, struct sbuf *tmp)
{
	char state = route_path_removed(s, path)	     ? 'R'
		     : route_path_stale(s, path)	     ? 'S'
		     : rib_aggr_suppressed(s->rib, s->af, d) ? 's'
		     : route_path_valid(s, path)	     ? '*'
							     : ' ';

	char rpki = route_rpki_code(route_rpki_state(s, p, path));

	/* The RPKI code when the route has one (FRR prints nothing, not a blank, without a
	 * validation state, so the row shifts by one), then state, selection and internal
	 * (bgp_route.c route_vty_short_status_out(): removed, then stale, then suppressed by a
	 * summary-only aggregate, before valid). */
	if (rpki != ' ')
		vty_out(s->vty, "%c", rpki);
	vty_out(s->vty, "%c%c%c", state, selection_char(s, d, path),
		route_path_internal(s, path) ? 'i' : ' ');
	text_row(s, first ? p : NULL, path_attr(path), tmp);
}

static void text_path_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			     const struct bgp_path *path, struct sbuf *tmp);

/* A row per path, or with `detail` FRR 8.4's path details alone (no entry header). */
static void text_table_route(struct route_show *s, const struct bgp_dest *d, const struct prefix *p)
{
	struct sbuf tmp;
	bool first = true;

	if (!s->header_done) {
		text_header(s);
		s->header_done = true;
	}
	sbuf_init(&tmp);
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path)) {
		if (!route_path_shown(s, path))
			continue;
		if (s->detail)
			text_path_detail(s, d, p, path, &tmp);
		else
			text_path_row(s, d, p, path, first, &tmp);
		first = false;
		s->paths++;
	}
	sbuf_free(&tmp);
	s->routes++;
}

static void text_table_end(struct route_show *s)
{
	if (s->routes == 0 && (s->filter || s->detail))
		return; /* FRR 8.4 says nothing when a filter or `detail` shows no route */
	if (s->routes == 0)
		vty_out(s->vty, "No BGP prefixes displayed, %" PRIu64 " exist\n", s->paths);
	else
		vty_out(s->vty, "\nDisplayed  %" PRIu64 " routes and %" PRIu64 " total paths\n",
			s->routes, s->paths);
}

/* ---- detail view ---- */

static void text_advertised_to(struct route_show *s, const struct bgp_dest *d)
{
	struct vty *vty = s->vty;
	bool first = true;
	char buf[IPADDR_STRLEN];

	for (uint32_t id = 1; id < s->rib->src_cap; id++) {
		const struct rib_src *src = s->rib->src[id];

		if (!src || !src->up || !bgp_dest_adv_test(d, id))
			continue;
		if (first)
			vty_out(vty, "  Advertised to non peer-group peers:\n ");
		first = false;
		vty_out(vty, " %s", route_peer_str(src, false, buf, sizeof(buf)));
	}
	if (first)
		vty_out(vty, "  Not advertised to any peer");
	vty_out(vty, "\n");
}

static void text_path_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p,
			     const struct bgp_path *path, struct sbuf *tmp)
{
	struct vty *vty = s->vty;
	const struct bgp_attr *attr = path_attr(path);
	const struct bgp_attr_extra *ex = bgp_attr_ex(attr);
	const struct rib_src *src = route_path_src(s, path);
	bool valid = route_path_valid(s, path);
	char buf[IPADDR_STRLEN], id[INET_ADDRSTRLEN], tbuf[64];
	time_t t = (time_t)path->uptime;

	/* Line 1: AS path */
	route_aspath_str(attr->aspath, tmp);
	vty_out(vty, "  %s", tmp->len ? tmp->buf : "Local");
	if (route_path_removed(s, path))
		vty_out(vty, ", (removed)");
	if (route_path_stale(s, path))
		vty_out(vty, ", (stale)");
	if (attr->present & ATTR_BIT(BGP_ATTR_AGGREGATOR)) {
		inet_ntop(AF_INET, &ex->aggregator_addr, id, sizeof(id));
		vty_out(vty, ", (aggregated by %u %s)", ex->aggregator_as, id);
	}
	vty_out(vty, "\n");

	/* Line 2: next hop, from, router id */
	if (!route_nh_ipv6(s, attr))
		inet_ntop(AF_INET, &attr->nexthop, buf, sizeof(buf));
	else
		inet_ntop(AF_INET6, bgp_attr_mp_nh_global(attr), buf, sizeof(buf));
	vty_out(vty, "    %s%s", buf, valid ? "" : " (inaccessible)"); /* FRR: not valid */
	if (!src || src->local) {
		inet_ntop(AF_INET, &s->bgp->router_id, id, sizeof(id));
		vty_out(vty, " from %s (%s)\n",
			s->af == BGP_AF_IPV4_UNICAST ? "0.0.0.0" : "::", id);
	} else {
		inet_ntop(AF_INET,
			  (attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)) ? &ex->originator_id
									     : &src->remote_id,
			  id, sizeof(id));
		vty_out(vty, " from %s (%s)\n", route_peer_str(src, false, buf, sizeof(buf)), id);
	}
	if (s->af == BGP_AF_IPV6_UNICAST && attr->mp_nh_len == 32) {
		inet_ntop(AF_INET6, bgp_attr_mp_nh_local(attr), buf, sizeof(buf));
		vty_out(vty, "    (%s) (used)\n", buf);
	}

	/* Line 3: origin, metric, localpref, weight, validity, type, best */
	vty_out(vty, "      Origin %s", route_origin_long(attr->origin));
	if (attr->present & ATTR_BIT(BGP_ATTR_MED))
		vty_out(vty, ", metric %u", attr->med);
	if (attr->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))
		vty_out(vty, ", localpref %u", attr->local_pref);
	if (bgp_attr_weight(attr))
		vty_out(vty, ", weight %u", bgp_attr_weight(attr));
	if (bgp_attr_ex(attr)->tag) /* a route-map's set tag (FRR) */
		vty_out(vty, ", tag %u", bgp_attr_ex(attr)->tag);
	vty_out(vty, valid ? ", valid" : ", invalid");
	if (!src || src->local)
		vty_out(vty, ", sourced, local");
	else
		/* FRR 8.4: within a confederation the words say which kind. */
		vty_out(vty, src->ebgp		 ? ", external"
			     : src->confed	 ? ", confed-external"
			     : s->bgp->confed_id ? ", confed-internal"
						 : ", internal");
	if (attr->atomic_aggregate || (attr->present & ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE)))
		vty_out(vty, ", atomic-aggregate");
	if (rib_path_multipath(s->rib, s->af, d, path))
		vty_out(vty, ", multipath");
	if (path == dest_best(d))
		vty_out(vty, ", best (%s)", bgp_sel_reason_str(bgp_decision_reason(s->rib, d)));
	if (s->rpki)
		vty_out(vty, ", rpki validation-state: %s",
			route_rpki_state_str(route_rpki_state(s, p, path)));
	if (route_aspa_state(s, path) != ASPA_NOT_USED) /* skua's */
		vty_out(vty, ", aspa validation-state: %s",
			aspa_state_name(route_aspa_state(s, path)));
	vty_out(vty, "\n");

	if (attr->communities) {
		route_community_str(attr->communities, tmp);
		vty_out(vty, "      Community: %s\n", tmp->buf);
	}
	if (ex->ecommunities) {
		route_ecommunity_str(ex->ecommunities, tmp);
		vty_out(vty, "      Extended Community: %s\n", tmp->buf);
	}
	if (ex->lcommunities) {
		route_lcommunity_str(ex->lcommunities, tmp);
		vty_out(vty, "      Large Community: %s\n", tmp->buf);
	}
	if ((attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)) || ex->cluster_list) {
		if (attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)) {
			inet_ntop(AF_INET, &ex->originator_id, id, sizeof(id));
			vty_out(vty, "      Originator: %s", id);
		}
		if (ex->cluster_list) {
			vty_out(vty, ", Cluster list: ");
			for (uint32_t i = 0; i < ex->cluster_list->count; i++) {
				struct in_addr a = { .s_addr = htonl(ex->cluster_list->val[i]) };

				inet_ntop(AF_INET, &a, id, sizeof(id));
				vty_out(vty, "%s ", id);
			}
		}
		vty_out(vty, "\n");
	}
	/* ctime format, newline included (FRR's time_to_string()). */
	if (!ctime_r(&t, tbuf))
		snprintf(tbuf, sizeof(tbuf), "?\n");
	vty_out(vty, "      Last update: %s", tbuf);
	if (src && route_path_stale(s, path) && rib_src_gr_restart_remaining(src) >= 0)
		vty_out(vty, "      Time until Graceful Restart stale route deleted: %" PRId64 "\n",
			rib_src_gr_restart_remaining(src));
}

static void text_detail(struct route_show *s, const struct bgp_dest *d, const struct prefix *p)
{
	struct vty *vty = s->vty;
	char buf[PREFIX_STRLEN];
	unsigned best = route_best_index(d);
	struct sbuf tmp;

	vty_out(vty, "BGP routing table entry for %s, version %u\n",
		prefix_to_str(p, buf, sizeof(buf)), d->version);
	vty_out(vty, "Paths: (%u available", route_path_count(d));
	if (best)
		vty_out(vty, ", best #%u, table default", best);
	else
		vty_out(vty, ", no best path");
	vty_out(vty, ")\n");
	text_advertised_to(s, d);
	sbuf_init(&tmp);
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path))
		text_path_detail(s, d, p, path, &tmp);
	sbuf_free(&tmp);
}

static void text_not_found(struct route_show *s)
{
	vty_out(s->vty, "%% Network not in table\n");
}

static void text_no_instance(struct route_show *s)
{
	vty_out(s->vty, "No BGP process is configured\n");
}

/* ---- neighbors X advertised-routes|received-routes ---- */

static void text_adv_begin(struct route_show *s)
{
	(void)s; /* the header comes with the first route, as FRR */
}

static void text_adv_route(struct route_show *s, const struct prefix *p,
			   const struct bgp_attr *attr)
{
	struct sbuf tmp;

	if (!s->header_done) {
		text_header(s);
		s->header_done = true;
	}
	/* FRR marks every row valid and best, sent or received. */
	vty_out(s->vty, "*> ");
	sbuf_init(&tmp);
	text_row(s, p, attr, &tmp);
	sbuf_free(&tmp);
	s->routes++;
}

static void text_adv_end(struct route_show *s)
{
	if (s->routes)
		vty_out(s->vty, "\nTotal number of prefixes %" PRIu64 "\n", s->routes);
}

static void text_warning(struct route_show *s, const char *msg)
{
	vty_out(s->vty, "%% %s\n", msg);
}

const struct route_out route_out_text = {
	.table_begin = text_table_begin,
	.table_route = text_table_route,
	.table_end = text_table_end,
	.detail = text_detail,
	.not_found = text_not_found,
	.no_instance = text_no_instance,
	.adv_begin = text_adv_begin,
	.adv_route = text_adv_route,
	.adv_end = text_adv_end,
	.warning = text_warning,
};
