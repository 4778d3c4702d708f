/* SPDX-License-Identifier: ISC */
/*
 * Route show commands (FRR's `show ip bgp`, `show bgp ipv4|ipv6 [unicast]`, with a prefix or
 * an address for the detail view, `json` everywhere). This file parses the command, finds the
 * table and walks it; the renderers in bgp_route_text.c and bgp_route_json.c do the output,
 * streaming into the vty as they go.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rpki/rpki_db.h"
#include "bgpd/show/bgp_route_out.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "lib/command.h"
#include "lib/table.h"
#include "lib/vty.h"

/* ---- helpers shared by the renderers ---- */

const char *route_origin_char(uint8_t origin)
{
	static const char *const s[] = { "i", "e", "?" };

	return origin < array_size(s) ? s[origin] : "?";
}

const char *route_origin_long(uint8_t origin)
{
	static const char *const s[] = { "IGP", "EGP", "incomplete" };

	return origin < array_size(s) ? s[origin] : "incomplete";
}

const struct rib_src *route_path_src(const struct route_show *s, const struct bgp_path *path)
{
	return rib_src_get(s->rib, path->src);
}

bool route_path_shown(const struct route_show *s, const struct bgp_path *path)
{
	if (s->only && path->src != s->only->id)
		return false;
	if (s->filter && s->filter->path_ok && !s->filter->path_ok(s->filter, path))
		return false;
	return s->only_rpki == RPKI_NOT_USED || !s->cur ||
	       route_rpki_state(s, s->cur, path) == s->only_rpki;
}

enum rpki_state route_rpki_state(const struct route_show *s, const struct prefix *p,
				 const struct bgp_path *path)
{
	const struct bgp_aspath *as = path_attr(path)->aspath;

	if (!s->rpki)
		return RPKI_NOT_USED;
	if (!as || as->len == 0)
		return rpki_validate_origin(s->rpki, p, s->bgp->asn, true);
	return rpki_validate(s->rpki, p, as);
}

const char *route_rpki_state_str(enum rpki_state st)
{
	return st == RPKI_NOTFOUND ? "not found" : rpki_state_name(st);
}

char route_rpki_code(enum rpki_state st)
{
	switch (st) {
	case RPKI_VALID:
		return 'V';
	case RPKI_INVALID:
		return 'I';
	case RPKI_NOTFOUND:
		return 'N';
	default:
		return ' ';
	}
}

enum aspa_state route_aspa_state(const struct route_show *s, const struct bgp_path *path)
{
	const struct rib_src *src = route_path_src(s, path);
	struct rmap_ctx buf;
	const struct rmap_ctx *ctx;

	/* The procedure and neighbor AS the route-maps are given (bgpd/rib/bgp_rib_rpki.c). */
	if (!s->rpki || !path_attr(path)->aspath || !(ctx = rib_rmap_ctx(src, &buf)) ||
	    ctx->aspa_dir == ASPA_DIR_NONE)
		return ASPA_NOT_USED;
	return rpki_aspa_verify(s->rpki, path_attr(path)->aspath, ctx->peer_as, ctx->aspa_dir);
}

bool route_path_valid(const struct route_show *s, const struct bgp_path *path)
{
	return bgp_path_valid(s->rib, path);
}

bool route_path_stale(const struct route_show *s, const struct bgp_path *path)
{
	const struct rib_src *src = route_path_src(s, path);

	return (src && !src->up && src->gr_stale) || (path->flags & PATH_F_STALE);
}

bool route_path_removed(const struct route_show *s, const struct bgp_path *path)
{
	const struct rib_src *src = route_path_src(s, path);

	return src && !rib_src_usable(src);
}

bool route_path_internal(const struct route_show *s, const struct bgp_path *path)
{
	const struct rib_src *src = route_path_src(s, path);

	return src && !src->local && !src->ebgp && !src->confed; /* FRR: sort IBGP only */
}

bool route_nh_ipv6(const struct route_show *s, const struct bgp_attr *attr)
{
	return s->af == BGP_AF_IPV6_UNICAST ||
	       (!(attr->present & ATTR_BIT(BGP_ATTR_NEXT_HOP)) && attr->mp_nh_len >= 16);
}

const char *route_nexthop_str(const struct route_show *s, const struct bgp_attr *attr, char *buf,
			      size_t size)
{
	const void *a = &attr->nexthop;
	int family = AF_INET;

	/* IPv4 routes have their next hop in attr->nexthop whichever field carried it, except
	 * our aggregates (route_nh_ipv6()). */
	if (route_nh_ipv6(s, attr)) {
		/* FRR shows the link-local next hop when both were received (no prefer-global). */
		a = attr->mp_nh_len == 32 ? bgp_attr_mp_nh_local(attr)
					  : bgp_attr_mp_nh_global(attr);
		family = AF_INET6;
	}
	if (!inet_ntop(family, a, buf, (socklen_t)size))
		snprintf(buf, size, "?");
	return buf;
}

const char *route_peer_str(const struct rib_src *src, bool local_unspec, char *buf, size_t size)
{
	if (!src) {
		snprintf(buf, size, "?");
		return buf;
	}
	if (src->local) {
		snprintf(buf, size, "%s", local_unspec ? "(unspec)" : "0.0.0.0");
		return buf;
	}
	return ipaddr_to_str(&src->remote_addr, buf, size);
}

void route_aspath_segments(const struct bgp_aspath *p, route_seg_cb cb, void *arg)
{
	uint32_t as[255];
	size_t off = 0;

	if (!p)
		return;
	while (off + 2 <= p->len) {
		uint8_t type = p->data[off];
		uint8_t count = p->data[off + 1];
		const char *name;

		if (off + 2 + (size_t)count * 4 > p->len)
			break;
		memcpy(as, p->data + off + 2, (size_t)count * 4);
		switch (type) {
		case AS_SEG_SET:
			name = "as-set";
			break;
		case AS_SEG_SEQUENCE:
			name = "as-sequence";
			break;
		case AS_SEG_CONFED_SEQUENCE:
			name = "as-confed-sequence";
			break;
		case AS_SEG_CONFED_SET:
			name = "as-confed-set";
			break;
		default:
			name = "unknown";
			break;
		}
		cb(name, as, count, arg);
		off += 2 + (size_t)count * 4;
	}
}

static void aspath_str_seg(const char *type, const uint32_t *as, unsigned count, void *arg)
{
	struct sbuf *sb = arg;
	char open = 0, close = 0, sep = ' ';

	if (!strcmp(type, "as-set")) {
		open = '{', close = '}', sep = ',';
	} else if (!strcmp(type, "as-confed-sequence")) {
		open = '(', close = ')';
	} else if (!strcmp(type, "as-confed-set")) {
		open = '[', close = ']', sep = ',';
	}
	if (sb->len)
		sbuf_put(sb, " ", 1);
	if (open)
		sbuf_put(sb, &open, 1);
	for (unsigned i = 0; i < count; i++) {
		if (i)
			sbuf_put(sb, &sep, 1);
		sbuf_printf(sb, "%u", as[i]);
	}
	if (close)
		sbuf_put(sb, &close, 1);
}

void route_aspath_str(const struct bgp_aspath *p, struct sbuf *sb)
{
	sbuf_reset(sb);
	sbuf_put(sb, "", 0);
	route_aspath_segments(p, aspath_str_seg, sb);
}

const char *route_community_one(uint32_t c, bool json, char *buf, size_t size)
{
	/* FRR's community_str() names: text, then the JSON list form. */
	static const struct {
		uint32_t val;
		const char *name;
		const char *json;
	} names[] = {
		{ 0xFFFF0000, "graceful-shutdown", "gracefulShutdown" },
		{ 0xFFFF0001, "accept-own", "acceptown" },
		{ 0xFFFF0002, "route-filter-translated-v4", "routeFilterTranslatedV4" },
		{ 0xFFFF0003, "route-filter-v4", "routeFilterV4" },
		{ 0xFFFF0004, "route-filter-translated-v6", "routeFilterTranslatedV6" },
		{ 0xFFFF0005, "route-filter-v6", "routeFilterV6" },
		{ 0xFFFF0006, "llgr-stale", "llgrStale" },
		{ 0xFFFF0007, "no-llgr", "noLlgr" },
		{ 0xFFFF0008, "accept-own-nexthop", "acceptownnexthop" },
		{ 0xFFFF029A, "blackhole", "blackhole" },
		{ 0xFFFFFF01, "no-export", "noExport" },
		{ 0xFFFFFF02, "no-advertise", "noAdvertise" },
		{ 0xFFFFFF03, "local-AS", "localAs" },
		{ 0xFFFFFF04, "no-peer", "noPeer" },
	};

	for (size_t i = 0; i < array_size(names); i++)
		if (names[i].val == c) {
			snprintf(buf, size, "%s", json ? names[i].json : names[i].name);
			return buf;
		}
	snprintf(buf, size, "%u:%u", c >> 16, c & 0xFFFF);
	return buf;
}

void route_community_str(const struct bgp_u32list *l, struct sbuf *sb)
{
	char buf[32];

	sbuf_reset(sb);
	sbuf_put(sb, "", 0);
	for (uint32_t i = 0; l && i < l->count; i++) {
		if (i)
			sbuf_put(sb, " ", 1);
		sbuf_puts(sb, route_community_one(l->val[i], false, buf, sizeof(buf)));
	}
}

void route_lcommunity_str(const struct bgp_lcommlist *l, struct sbuf *sb)
{
	sbuf_reset(sb);
	sbuf_put(sb, "", 0);
	for (uint32_t i = 0; l && i < l->count; i++)
		sbuf_printf(sb, "%s%u:%u:%u", i ? " " : "", l->val[3 * i], l->val[3 * i + 1],
			    l->val[3 * i + 2]);
}

void route_ecommunity_str(const struct bgp_ecommlist *l, struct sbuf *sb)
{
	uint8_t sub = 0;
	char one[80];

	sbuf_reset(sb);
	sbuf_put(sb, "", 0);
	for (uint32_t i = 0; l && i < l->count; i++) {
		bgp_ecomm_str_in_list(&l->val[2 * i], &sub, one, sizeof(one));
		sbuf_printf(sb, "%s%s", i ? " " : "", one);
	}
}

unsigned route_best_index(const struct bgp_dest *d)
{
	/* The best path is kept at the head of the list. */
	return dest_best(d) ? 1 : 0;
}

unsigned route_path_count(const struct bgp_dest *d)
{
	unsigned n = 0;

	for (const struct bgp_path *p = dest_paths(d); p; p = path_next(p))
		n++;
	return n;
}

/* ---- commands ---- */

static bool show_setup(struct route_show *s, const struct route_out *o, struct vty *vty,
		       enum bgp_af af)
{
	memset(s, 0, sizeof(*s));
	s->out = o;
	s->vty = vty;
	s->af = af;
	s->bgp = bgp_get();
	s->rib = s->bgp ? s->bgp->rib : NULL;
	s->rpki = rpki_db_default();
	if (s->rpki && !rpki_db_active(s->rpki))
		s->rpki = NULL;
	return s->rib != NULL;
}

static bool dest_has_shown(const struct route_show *s, const struct bgp_dest *d)
{
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path))
		if (route_path_shown(s, path))
			return true;
	return false;
}

static int table_cb(const struct prefix *p, void *value, void *arg)
{
	struct route_show *s = arg;
	const struct bgp_dest *d = value;

	bool outside = s->filter && s->filter->within && !prefix_contains(s->filter->within, p);

	s->cur = p;
	/* FRR counts every path of the table in "total paths", shown or filtered out by
	 * state, attribute or prefix. */
	if (s->only_rpki != RPKI_NOT_USED || s->filter)
		for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path))
			s->paths += (outside || !route_path_shown(s, path)) &&
				    (!s->only || path->src == s->only->id);
	/* Prefixes without paths wait for the journal to free them: nothing to show. */
	if (!outside && dest_has_shown(s, d))
		s->out->table_route(s, d, p);
	s->cur = NULL;
	return 0;
}

static int show_table_filtered(struct vty *vty, enum bgp_af af, bool json, enum rpki_state only,
			       const struct route_filter *filter, bool detail)
{
	const struct route_out *o = json ? &route_out_json : &route_out_text;
	struct route_show s;

	if (!show_setup(&s, o, vty, af)) {
		o->no_instance(&s);
		return CMD_WARNING;
	}
	s.only_rpki = only;
	s.filter = filter;
	s.detail = detail;
	o->table_begin(&s);
	ptree_walk(s.rib->af[af].tree, table_cb, &s);
	o->table_end(&s);
	return CMD_SUCCESS;
}

static int show_table_rpki(struct vty *vty, enum bgp_af af, bool json, enum rpki_state only)
{
	return show_table_filtered(vty, af, json, only, NULL, false);
}

int route_show_table(struct vty *vty, enum bgp_af af, bool json, const struct route_filter *filter)
{
	return show_table_filtered(vty, af, json, RPKI_NOT_USED, filter, false);
}

int route_show_table_detail(struct vty *vty, enum bgp_af af, bool json)
{
	return show_table_filtered(vty, af, json, RPKI_NOT_USED, NULL, true);
}

/* `net` is a prefix (exact match, host bits ignored as FRR) or an address (longest match). */
static int show_route(struct vty *vty, enum bgp_af af, const char *net, bool json)
{
	const struct route_out *o = json ? &route_out_json : &route_out_text;
	const struct bgp_dest *d = NULL;
	struct route_show s;
	struct prefix p;

	if (!show_setup(&s, o, vty, af)) {
		o->no_instance(&s);
		return CMD_WARNING;
	}
	if (strchr(net, '/')) {
		if (prefix_from_str(&p, net, false) < 0 || p.family != bgp_af_family(af)) {
			vty_out(vty, "%% Malformed prefix %s\n", net);
			return CMD_WARNING;
		}
		prefix_apply_mask(&p);
		d = ptree_lookup(s.rib->af[af].tree, &p);
	} else {
		struct ipaddr a;
		struct prefix hp;

		if (ipaddr_from_str(&a, net) < 0 || a.family != bgp_af_family(af)) {
			vty_out(vty, "%% Malformed address %s\n", net);
			return CMD_WARNING;
		}
		/* Longest match among prefixes that have paths. */
		prefix_from_ipaddr(&hp, &a);
		while (true) {
			d = ptree_match_prefix(s.rib->af[af].tree, &hp);
			if (!d || dest_has_paths(d))
				break;
			bgp_dest_prefix(d, af, &hp);
			if (hp.len == 0) {
				d = NULL;
				break;
			}
			hp.len--;
			prefix_apply_mask(&hp);
		}
		if (d)
			bgp_dest_prefix(d, af, &p);
	}
	if (!d || !dest_has_paths(d)) {
		o->not_found(&s);
		return CMD_WARNING;
	}
	o->detail(&s, d, &p);
	return CMD_SUCCESS;
}

/* ---- neighbors X advertised-routes|received-routes|routes ---- */

/* The current session with the neighbor at addr (FRR's peer_lookup_in_view()). */
struct rib_src *route_neighbor_src(const struct bgp_rib *rib, const struct ipaddr *addr)
{
	struct rib_src *down = NULL;

	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *src = rib->src[id];
		struct ipaddr a;

		if (!src || src->local)
			continue;
		a = src->remote_addr;
		ipaddr_unmap_v4(&a);
		if (ipaddr_cmp(&a, addr))
			continue;
		if (src->up)
			return src;
		down = src; /* its paths are being removed: still shown, as stale */
	}
	return down;
}

static int adv_cb(const struct prefix *p, void *value, void *arg)
{
	struct route_show *s = arg;
	struct bgp_attr *attr;

	/* The show does not change the RIB; the export cache may be filled, which is harmless. */
	attr = adj_out_advertised(s->rib, (struct rib_src *)s->only, s->af, value);
	if (attr) {
		s->out->adv_route(s, p, attr);
		bgp_attr_unref(attr);
	}
	return 0;
}

static int received_cb(const struct prefix *p, void *value, void *arg)
{
	struct route_show *s = arg;

	s->out->adv_route(s, p, value);
	return 0;
}

enum nbr_view { NBR_ADVERTISED, NBR_RECEIVED, NBR_ROUTES };

static int show_neighbor(struct vty *vty, enum bgp_af af, const char *peer, const char *kind,
			 bool json)
{
	const struct route_out *o = json ? &route_out_json : &route_out_text;
	enum nbr_view view = !strcmp(kind, "advertised-routes") ? NBR_ADVERTISED
			     : !strcmp(kind, "received-routes") ? NBR_RECEIVED
								: NBR_ROUTES;
	struct route_show s;
	struct ipaddr a;

	if (!show_setup(&s, o, vty, af)) {
		o->no_instance(&s);
		return CMD_WARNING;
	}
	if (ipaddr_from_str(&a, peer) < 0) {
		vty_out(vty, "%% Malformed address: %s\n", peer);
		return CMD_WARNING;
	}
	ipaddr_unmap_v4(&a);
	s.only = route_neighbor_src(s.rib, &a);
	if (!s.only || !s.only->af[af]) {
		o->warning(&s, "No such neighbor or address family");
		return CMD_WARNING;
	}
	switch (view) {
	case NBR_RECEIVED:
		/* The routes as received, before the inbound policy: kept only with
		 * soft-reconfiguration inbound (FRR's words when it is not). */
		if (!rib_adj_in(s.only, af)) {
			o->warning(&s, "Inbound soft reconfiguration not enabled");
			return CMD_WARNING;
		}
		s.received = true;
		o->adv_begin(&s);
		ptree_walk((struct ptree *)rib_adj_in(s.only, af), received_cb, &s);
		o->adv_end(&s);
		return CMD_SUCCESS;
	case NBR_ADVERTISED:
		o->adv_begin(&s);
		ptree_walk(s.rib->af[af].tree, adv_cb, &s);
		o->adv_end(&s);
		return CMD_SUCCESS;
	case NBR_ROUTES:
		break;
	}
	o->table_begin(&s);
	ptree_walk(s.rib->af[af].tree, table_cb, &s);
	o->table_end(&s);
	return CMD_SUCCESS;
}

static int show_table(struct vty *vty, enum bgp_af af, bool json)
{
	return show_table_rpki(vty, af, json, RPKI_NOT_USED);
}

#define NET_STR "Network in the BGP routing table to display\n"

DEFCMD(show_ip_bgp, "show ip bgp [json]", SHOW_STR IP_STR BGP_STR JSON_STR)
{
	return show_table(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_ip_bgp_route, "show ip bgp <A.B.C.D/M|A.B.C.D>$net [json]",
       SHOW_STR IP_STR BGP_STR "IPv4 prefix\n" NET_STR JSON_STR)
{
	return show_route(vty, BGP_AF_IPV4_UNICAST, cmd_arg(args, "net"), cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv4, "show bgp ipv4 [unicast] [json]", SHOW_STR BGP_STR AF_STR SAFI_STR JSON_STR)
{
	return show_table(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv6, "show bgp ipv6 [unicast] [json]", SHOW_STR BGP_STR AF_STR SAFI_STR JSON_STR)
{
	return show_table(vty, BGP_AF_IPV6_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv4_route, "show bgp ipv4 [unicast] <A.B.C.D/M|A.B.C.D>$net [json]",
       SHOW_STR BGP_STR AF_STR SAFI_STR "IPv4 prefix\n" NET_STR JSON_STR)
{
	return show_route(vty, BGP_AF_IPV4_UNICAST, cmd_arg(args, "net"), cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv6_route, "show bgp ipv6 [unicast] <X:X::X:X/M|X:X::X:X>$net [json]",
       SHOW_STR BGP_STR AF_STR SAFI_STR "IPv6 prefix\n" NET_STR JSON_STR)
{
	return show_route(vty, BGP_AF_IPV6_UNICAST, cmd_arg(args, "net"), cmd_has(args, "json"));
}

/* FRR's `show bgp ipv4 unicast rpki invalid`: only the paths in that state (none while no
 * cache is configured: no path has a state then). */
#define RPKI_FILTER "rpki <valid|invalid|notfound>$state [json]"
#define RPKI_FILTER_STR                             \
	"Display RPKI validation state of routes\n" \
	"Valid paths, as determined by RPKI\n"      \
	"Invalid paths, as determined by RPKI\n"    \
	"Paths no VRP covers\n" JSON_STR

static enum rpki_state state_arg(const struct cmd_args *args)
{
	const char *st = cmd_arg(args, "state");

	return !strcmp(st, "valid")	? RPKI_VALID
	       : !strcmp(st, "invalid") ? RPKI_INVALID
					: RPKI_NOTFOUND;
}

DEFCMD(show_bgp_ipv4_rpki, "show bgp ipv4 [unicast] " RPKI_FILTER,
       SHOW_STR BGP_STR AF_STR SAFI_STR RPKI_FILTER_STR)
{
	return show_table_rpki(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"), state_arg(args));
}

DEFCMD(show_bgp_ipv6_rpki, "show bgp ipv6 [unicast] " RPKI_FILTER,
       SHOW_STR BGP_STR AF_STR SAFI_STR RPKI_FILTER_STR)
{
	return show_table_rpki(vty, BGP_AF_IPV6_UNICAST, cmd_has(args, "json"), state_arg(args));
}

#define NBR_STR "Detailed information on TCP and BGP neighbor connections\n"
#define NBR_KIND "<advertised-routes|received-routes|routes>$kind"
#define NBR_KIND_STR                                        \
	"Display the routes advertised to a BGP neighbor\n" \
	"Display the received routes from neighbor\n"       \
	"Display routes learned from neighbor\n"

DEFCMD(show_ip_bgp_nbr_routes, "show ip bgp neighbors <A.B.C.D|X:X::X:X>$peer " NBR_KIND " [json]",
       SHOW_STR IP_STR BGP_STR NBR_STR
       "Neighbor to display information about\n"
       "Neighbor to display information about\n" NBR_KIND_STR JSON_STR)
{
	return show_neighbor(vty, BGP_AF_IPV4_UNICAST, cmd_arg(args, "peer"), cmd_arg(args, "kind"),
			     cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv4_nbr_routes,
       "show bgp ipv4 [unicast] neighbors <A.B.C.D|X:X::X:X>$peer " NBR_KIND " [json]",
       SHOW_STR BGP_STR AF_STR SAFI_STR NBR_STR
       "Neighbor to display information about\n"
       "Neighbor to display information about\n" NBR_KIND_STR JSON_STR)
{
	return show_neighbor(vty, BGP_AF_IPV4_UNICAST, cmd_arg(args, "peer"), cmd_arg(args, "kind"),
			     cmd_has(args, "json"));
}

DEFCMD(show_bgp_ipv6_nbr_routes,
       "show bgp ipv6 [unicast] neighbors <A.B.C.D|X:X::X:X>$peer " NBR_KIND " [json]",
       SHOW_STR BGP_STR AF_STR SAFI_STR NBR_STR
       "Neighbor to display information about\n"
       "Neighbor to display information about\n" NBR_KIND_STR JSON_STR)
{
	return show_neighbor(vty, BGP_AF_IPV6_UNICAST, cmd_arg(args, "peer"), cmd_arg(args, "kind"),
			     cmd_has(args, "json"));
}

void bgp_show_route_init(void)
{
	static const struct cmd_def *const cmds[] = {
		&show_ip_bgp_cmd,
		&show_ip_bgp_route_cmd,
		&show_bgp_ipv4_cmd,
		&show_bgp_ipv6_cmd,
		&show_bgp_ipv4_route_cmd,
		&show_bgp_ipv6_route_cmd,
		&show_ip_bgp_nbr_routes_cmd,
		&show_bgp_ipv4_nbr_routes_cmd,
		&show_bgp_ipv6_nbr_routes_cmd,
		&show_bgp_ipv4_rpki_cmd,
		&show_bgp_ipv6_rpki_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(VIEW_NODE, cmds[i]);
	bgp_show_route_filter_init();
	bgp_show_prefix_counts_init();
	bgp_show_statistics_init();
}
