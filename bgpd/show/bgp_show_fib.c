/* SPDX-License-Identifier: ISC */
/*
 * What bgpd put in the kernel and how it reaches its next hops:
 *   show ip route [json] / show ipv6 route [json]   the routes bgpd installed, in the layout of
 *       FRR's zebra (skua has no zebra: bgpd is the only source, so only "B" lines appear)
 *   show bgp nexthop [json]                          next-hop tracking, as FRR's
 *   show bgp fib [json]                              the installer's counters (skua only)
 * Each route is recomputed from the RIB and the next-hop cache the same way it was installed,
 * so what is shown is what the kernel was last told.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <time.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/json.h"
#include "lib/table.h"
#include "lib/vty.h"

#define NEXTHOP_STR "BGP nexthop table\n"
#define FIB_STR "Routes installed in the kernel (FIB)\n"
#define ROUTE_STR "IP routing table\n"

/* The kernel route bgpd installed for dest (as bgp_fib.c built it). */
static bool installed_route(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
			    struct kernel_route *r)
{
	struct rib_fib_set set;

	if (!(*bgp_dest_flags((struct bgp_dest *)dest, af) & DEST_F_FIB))
		return false;
	memset(r, 0, sizeof(*r));
	rib_fib_set_of(rib, af, dest, &set);
	for (unsigned i = 0; i < set.n; i++) {
		const struct bgp_nh *nh = bgp_nh_lookup(&set.nh[i]);

		for (unsigned j = 0; nh && nh->valid && j < nh->res.nnh && r->nnh < KERNEL_NH_MAX;
		     j++) {
			bool dup = false;

			for (unsigned k = 0; k < r->nnh; k++)
				dup = dup || (r->nh[k].ifindex == nh->res.nh[j].ifindex &&
					      ipaddr_cmp(&r->nh[k].gw, &nh->res.nh[j].gw) == 0);
			if (!dup)
				r->nh[r->nnh++] = nh->res.nh[j];
		}
	}
	return r->nnh > 0;
}

static void uptime_of(const struct bgp_path *best, char *buf, size_t size)
{
	int64_t age = wallclock_s() - (int64_t)best->uptime;

	bgp_uptime_str(age > 0 ? (uint64_t)age * 1000 : 0, buf, size);
}

static unsigned distance_of(const struct bgp_rib *rib, const struct bgp_path *best)
{
	const struct rib_src *src = rib_src_get(rib, best->src);

	return src && src->ebgp ? 20 : 200; /* FRR's administrative distances */
}

static void route_text(struct vty *vty, const struct bgp_rib *rib, const struct prefix *p,
		       const struct bgp_dest *d, const struct kernel_route *r)
{
	const struct bgp_path *best = dest_best(d);
	char pfx[PREFIX_STRLEN], gw[IPADDR_STRLEN], ifname[IF_NAMESIZE], age[32], head[96];
	int width;

	uptime_of(best, age, sizeof(age));
	width = snprintf(head, sizeof(head), "B>* %s [%u/%u]", prefix_to_str(p, pfx, sizeof(pfx)),
			 distance_of(rib, best), path_attr(best)->med);
	for (unsigned i = 0; i < r->nnh; i++) {
		kernel_ifname(bgp_fib_watch(), r->nh[i].ifindex, ifname);
		ipaddr_to_str(&r->nh[i].gw, gw, sizeof(gw));
		if (i == 0)
			vty_out(vty, "%s via %s, %s, weight 1, %s\n", head, gw, ifname, age);
		else
			vty_out(vty, "  *%*s via %s, %s, weight 1, %s\n", width - 3, "", gw, ifname,
				age);
	}
}

static void route_json(struct json_writer *w, const struct bgp_rib *rib, const struct prefix *p,
		       const struct bgp_dest *d, const struct kernel_route *r, uint32_t table)
{
	const struct bgp_path *best = dest_best(d);
	char pfx[PREFIX_STRLEN], gw[IPADDR_STRLEN], ifname[IF_NAMESIZE], age[32];

	prefix_to_str(p, pfx, sizeof(pfx));
	uptime_of(best, age, sizeof(age));
	json_array_open(w, pfx);
	json_object_open(w, NULL);
	json_string(w, "prefix", pfx);
	json_string(w, "protocol", "bgp");
	json_bool(w, "selected", true);
	json_bool(w, "destSelected", true);
	json_uint(w, "distance", distance_of(rib, best));
	json_uint(w, "metric", path_attr(best)->med);
	json_bool(w, "installed", true);
	json_uint(w, "table", table);
	json_uint(w, "internalNextHopNum", r->nnh);
	json_uint(w, "internalNextHopActiveNum", r->nnh);
	json_string(w, "uptime", age);
	json_array_open(w, "nexthops");
	for (unsigned i = 0; i < r->nnh; i++) {
		json_object_open(w, NULL);
		json_bool(w, "fib", true);
		json_string(w, "ip", ipaddr_to_str(&r->nh[i].gw, gw, sizeof(gw)));
		json_string(w, "afi", p->family == AF_INET ? "ipv4" : "ipv6");
		json_uint(w, "interfaceIndex", r->nh[i].ifindex);
		json_string(w, "interfaceName",
			    kernel_ifname(bgp_fib_watch(), r->nh[i].ifindex, ifname));
		json_bool(w, "active", true);
		json_uint(w, "weight", 1);
		json_object_close(w);
	}
	json_array_close(w);
	json_object_close(w);
	json_array_close(w);
}

static int show_routes(struct vty *vty, enum bgp_af af, bool json)
{
	struct bgp *bgp = bgp_get();
	struct bgp_fib_status st;
	struct json_writer w;
	struct kernel_route r;
	struct prefix p;

	bgp_fib_status(&st);
	if (json) {
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
	} else {
		vty_out(vty, "Codes: B - BGP (skua bgpd is the only source shown)\n"
			     "       > - selected route, * - FIB route\n\n");
		if (!st.active)
			vty_out(vty, "%% routes are not being installed (%s)\n",
				!st.enabled ? "bgpd runs with --no-fib" : "no bgp fib install");
	}
	if (bgp && bgp->rib) {
		const struct bgp_rib *rib = bgp->rib;

		for (struct bgp_dest *d = ptree_first(rib->af[af].tree, &p); d;
		     d = ptree_next(rib->af[af].tree, &p, &p)) {
			if (!dest_best(d) || !installed_route(rib, af, d, &r))
				continue;
			if (json)
				route_json(&w, rib, &p, d, &r, st.table);
			else
				route_text(vty, rib, &p, d, &r);
		}
	}
	if (json) {
		json_object_close(&w);
		json_end(&w);
	}
	return CMD_SUCCESS;
}

DEFCMD(show_ip_route, "show ip route [bgp] [json]",
       SHOW_STR IP_STR ROUTE_STR "Border Gateway Protocol (BGP)\n" JSON_STR)
{
	return show_routes(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_ipv6_route, "show ipv6 route [bgp] [json]",
       SHOW_STR IPV6_STR ROUTE_STR "Border Gateway Protocol (BGP)\n" JSON_STR)
{
	return show_routes(vty, BGP_AF_IPV6_UNICAST, cmd_has(args, "json"));
}

/* ---- show bgp nexthop ---- */

/* How many paths of the RIB use addr as their next hop (FRR's "#paths"). */
static unsigned paths_using(const struct bgp_rib *rib, const struct ipaddr *addr)
{
	enum bgp_af af = addr->family == AF_INET ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST;
	struct ipaddr nh;
	struct prefix p;
	unsigned n = 0;

	for (struct bgp_dest *d = ptree_first(rib->af[af].tree, &p); d;
	     d = ptree_next(rib->af[af].tree, &p, &p))
		for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path)) {
			const struct rib_src *src = rib_src_get(rib, path->src);

			if (!path_attr(path) || !src || src->local)
				continue;
			rib_path_nexthop(path_attr(path), &nh);
			n += ipaddr_cmp(&nh, addr) == 0;
		}
	return n;
}

struct nh_show {
	struct vty *vty;
	struct json_writer *w;
	const struct bgp_rib *rib;
	int family;
};

static void last_update(int64_t epoch, char *buf, size_t size)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, size, "?");
}

static int nh_text(struct bgp_nh *nh, void *arg)
{
	struct nh_show *s = arg;
	char a[IPADDR_STRLEN], gw[IPADDR_STRLEN], ifname[IF_NAMESIZE], when[64], via[PREFIX_STRLEN];

	if (nh->addr.family != s->family)
		return 0;
	ipaddr_to_str(&nh->addr, a, sizeof(a));
	last_update(nh->since, when, sizeof(when));
	if (nh->valid) {
		vty_out(s->vty, " %s valid [IGP metric %u], #paths %u\n", a, bgp_nh_igp_metric(nh),
			s->rib ? paths_using(s->rib, &nh->addr) : 0);
		vty_out(s->vty, "  Resolved via %s%s\n",
			prefix_to_str(&nh->res.via, via, sizeof(via)),
			nh->res.connected ? " (connected)" : "");
		for (unsigned i = 0; i < nh->res.nnh; i++)
			vty_out(s->vty, "  gate %s, if %s\n",
				ipaddr_to_str(&nh->res.nh[i].gw, gw, sizeof(gw)),
				kernel_ifname(bgp_fib_watch(), nh->res.nh[i].ifindex, ifname));
	} else {
		vty_out(s->vty, " %s invalid, #paths %u\n", a,
			s->rib ? paths_using(s->rib, &nh->addr) : 0);
	}
	vty_out(s->vty, "  Last update: %s\n", when);
	return 0;
}

static int nh_json(struct bgp_nh *nh, void *arg)
{
	struct nh_show *s = arg;
	char a[IPADDR_STRLEN], gw[IPADDR_STRLEN], ifname[IF_NAMESIZE], when[64], via[PREFIX_STRLEN];

	if (nh->addr.family != s->family)
		return 0;
	json_object_open(s->w, ipaddr_to_str(&nh->addr, a, sizeof(a)));
	json_bool(s->w, "valid", nh->valid);
	json_bool(s->w, "complete", nh->valid);
	json_uint(s->w, "igpMetric", bgp_nh_igp_metric(nh));
	json_uint(s->w, "pathCount", s->rib ? paths_using(s->rib, &nh->addr) : 0);
	if (nh->valid) {
		json_string(s->w, "resolvedPrefix", prefix_to_str(&nh->res.via, via, sizeof(via)));
		json_bool(s->w, "connected", nh->res.connected);
		json_array_open(s->w, "nexthops");
		for (unsigned i = 0; i < nh->res.nnh; i++) {
			json_object_open(s->w, NULL);
			json_string(s->w, "ip", ipaddr_to_str(&nh->res.nh[i].gw, gw, sizeof(gw)));
			json_string(s->w, "interfaceName",
				    kernel_ifname(bgp_fib_watch(), nh->res.nh[i].ifindex, ifname));
			json_object_close(s->w);
		}
		json_array_close(s->w);
	}
	json_uint(s->w, "changes", nh->changes);
	last_update(nh->since, when, sizeof(when));
	json_object_open(s->w, "lastUpdate");
	json_int(s->w, "epoch", nh->since);
	json_string(s->w, "string", when);
	json_object_close(s->w);
	json_object_close(s->w);
	return 0;
}

DEFCMD(show_bgp_nexthop, "show bgp nexthop [json]", SHOW_STR BGP_STR NEXTHOP_STR JSON_STR)
{
	struct bgp *bgp = bgp_get();
	struct nh_show s = { .vty = vty, .rib = bgp ? bgp->rib : NULL };
	struct bgp_fib_status st;
	struct json_writer w;

	bgp_fib_status(&st);
	if (cmd_has(args, "json")) {
		json_init(&w, &vty->out, true);
		s.w = &w;
		json_object_open(&w, NULL);
		json_bool(&w, "tracking", st.active);
		for (int family = AF_INET; family; family = family == AF_INET ? AF_INET6 : 0) {
			s.family = family;
			json_object_open(&w, family == AF_INET ? "ipv4" : "ipv6");
			bgp_nh_walk(nh_json, &s);
			json_object_close(&w);
		}
		json_object_close(&w);
		json_end(&w);
		return CMD_SUCCESS;
	}
	if (!st.active)
		vty_out(vty, "Next hops are not tracked (%s): every next hop counts as reachable\n",
			!st.enabled ? "bgpd runs with --no-fib" : "no bgp fib install");
	vty_out(vty, "Current BGP nexthop cache:\n");
	for (int family = AF_INET; family; family = family == AF_INET ? AF_INET6 : 0) {
		s.family = family;
		bgp_nh_walk(nh_text, &s);
	}
	return CMD_SUCCESS;
}

/* ---- show bgp fib ---- */

DEFCMD(show_bgp_fib, "show bgp fib [json]", SHOW_STR BGP_STR FIB_STR JSON_STR)
{
	struct kernel_watch *kw = bgp_fib_watch();
	struct bgp_fib_status st;
	struct json_writer w;

	bgp_fib_status(&st);
	if (cmd_has(args, "json")) {
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_bool(&w, "enabled", st.enabled);
		json_bool(&w, "installing", st.active);
		json_uint(&w, "table", st.table);
		json_bool(&w, "retain", st.retain);
		json_uint(&w, "ipv4Routes", st.routes[BGP_AF_IPV4_UNICAST]);
		json_uint(&w, "ipv6Routes", st.routes[BGP_AF_IPV6_UNICAST]);
		json_uint(&w, "installs", st.installs);
		json_uint(&w, "removals", st.removals);
		json_uint(&w, "refused", st.refused);
		json_uint(&w, "netlinkMessages", st.messages);
		json_uint(&w, "purgedAtStart", st.purged);
		json_object_open(&w, "gracefulRestart");
		json_uint(&w, "adoptedAtStart", st.gr_adopted);
		json_bool(&w, "selectionDeferred", st.gr_pending);
		json_uint(&w, "unchanged", st.gr_unchanged);
		json_uint(&w, "replaced", st.gr_replaced);
		json_uint(&w, "removed", st.gr_removed);
		json_object_close(&w);
		json_object_open(&w, "nexthopObjects");
		json_bool(&w, "used", st.nh_err == 0);
		if (st.enabled && st.nh_err) /* with --no-fib there is no installer to ask */
			json_string(&w, "reason", strerror(-st.nh_err));
		json_uint(&w, "objects", st.nh_objects);
		json_uint(&w, "routes", st.nh_routes);
		json_object_close(&w);
		json_uint(&w, "nexthopsTracked", bgp_nh_count());
		json_uint(&w, "kernelRoutesIpv4", kw ? kernel_watch_routes(kw, AF_INET) : 0);
		json_uint(&w, "kernelRoutesIpv6", kw ? kernel_watch_routes(kw, AF_INET6) : 0);
		json_uint(&w, "kernelResyncs", kw ? kernel_watch_resyncs(kw) : 0);
		json_object_close(&w);
		json_end(&w);
		return CMD_SUCCESS;
	}
	if (!st.enabled) {
		vty_out(vty, "FIB: off (bgpd runs with --no-fib)\n");
		return CMD_SUCCESS;
	}
	vty_out(vty, "FIB: %s, table %u%s\n", st.active ? "installing" : "not installing", st.table,
		st.retain ? ", routes retained at shutdown" : "");
	vty_out(vty, "Routes installed: %" PRIu64 " IPv4, %" PRIu64 " IPv6\n",
		st.routes[BGP_AF_IPV4_UNICAST], st.routes[BGP_AF_IPV6_UNICAST]);
	vty_out(vty,
		"Changes: %" PRIu64 " installs, %" PRIu64 " removals, %" PRIu64
		" refused by the kernel, in %" PRIu64 " netlink messages\n",
		st.installs, st.removals, st.refused, st.messages);
	if (st.nh_err == 0)
		vty_out(vty, "Nexthop objects: %zu, used by %zu routes\n", st.nh_objects,
			st.nh_routes);
	else
		vty_out(vty,
			"Nexthop objects: not used (%s); each route carries its own next hops\n",
			strerror(-st.nh_err));
	vty_out(vty, "Next hops tracked: %zu; kernel routes watched: %zu IPv4, %zu IPv6\n",
		bgp_nh_count(), kw ? kernel_watch_routes(kw, AF_INET) : 0,
		kw ? kernel_watch_routes(kw, AF_INET6) : 0);
	if (st.gr_adopted)
		vty_out(vty,
			"Graceful restart: %" PRIu64
			" routes of the earlier run adopted; %s%" PRIu64 " unchanged, %" PRIu64
			" replaced, %" PRIu64 " removed\n",
			st.gr_adopted, st.gr_pending ? "selection deferred, so far " : "",
			st.gr_unchanged, st.gr_replaced, st.gr_removed);
	return CMD_SUCCESS;
}

void bgp_show_fib_init(void)
{
	cmd_install(VIEW_NODE, &show_ip_route_cmd);
	cmd_install(VIEW_NODE, &show_ipv6_route_cmd);
	cmd_install(VIEW_NODE, &show_bgp_nexthop_cmd);
	cmd_install(VIEW_NODE, &show_bgp_fib_cmd);
}
