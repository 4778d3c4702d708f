/* SPDX-License-Identifier: ISC */
/*
 * `show [ip] bgp [ipv4|ipv6 [unicast]] neighbors X prefix-counts [json]`, FRR 8.4's layout
 * (bgp_peer_counts()): the neighbor's accepted count, then a walk of the table counting its
 * paths by state. skua has no route flap dampening, so Damped and History stay 0; "PfxCt
 * counted" is every path not being removed (FRR's BGP_PATH_COUNTED), "Useable" every valid
 * one of those. Bare `show bgp neighbors X prefix-counts` is IPv6 unicast, as in FRR.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_decision.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/show/bgp_route_out.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_af.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/table.h"
#include "lib/vty.h"

enum pcount {
	PCOUNT_ADJ_IN,
	PCOUNT_DAMPED,
	PCOUNT_REMOVED,
	PCOUNT_HISTORY,
	PCOUNT_STALE,
	PCOUNT_VALID,
	PCOUNT_ALL,
	PCOUNT_COUNTED,
	PCOUNT_BPATH_SELECTED,
	PCOUNT_PFCNT, /* "Useable" */
	PCOUNT_MAX,
};

/* FRR's pcount_strs, in its order: the text labels and the JSON keys alike. */
static const char *const pcount_names[PCOUNT_MAX] = {
	"Adj-in",  "Damped",	    "Removed",
	"History", "Stale",	    "Valid",
	"All RIB", "PfxCt counted", "PfxCt Best Selected",
	"Useable",
};

struct pcount_walk {
	struct route_show s; /* for the path predicates the route views use */
	const struct rib_src *src;
	uint64_t count[PCOUNT_MAX];
};

static int pcount_cb(const struct prefix *p, void *value, void *arg)
{
	struct pcount_walk *w = arg;
	const struct bgp_dest *d = value;

	(void)p;
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path)) {
		bool removed, valid;

		if (path->src != w->src->id)
			continue;
		removed = route_path_removed(&w->s, path);
		valid = route_path_valid(&w->s, path);
		w->count[PCOUNT_ALL]++;
		w->count[PCOUNT_REMOVED] += removed;
		w->count[PCOUNT_STALE] += route_path_stale(&w->s, path);
		w->count[PCOUNT_VALID] += valid;
		w->count[PCOUNT_BPATH_SELECTED] += path == dest_best(d);
		if (!removed) {
			w->count[PCOUNT_COUNTED]++;
			w->count[PCOUNT_PFCNT] += valid;
		}
	}
	return 0;
}

static void pcount_text(struct vty *vty, const struct pcount_walk *w, const char *peer,
			enum bgp_af af)
{
	vty_out(vty, "Prefix counts for %s, %s\n", peer, bgp_af_text_name(af));
	vty_out(vty, "PfxCt: %u\n", w->src->accepted[af]);
	vty_out(vty, "\nCounts from RIB table walk:\n\n");
	for (int i = 0; i < PCOUNT_MAX; i++)
		vty_out(vty, "%20s: %-10" PRIu64 "\n", pcount_names[i], w->count[i]);
}

static void pcount_json(struct vty *vty, const struct pcount_walk *w, const char *peer,
			enum bgp_af af)
{
	struct json_writer j;

	json_init(&j, &vty->out, true);
	json_object_open(&j, NULL);
	json_string(&j, "prefixCountsFor", peer);
	json_string(&j, "multiProtocol", bgp_af_json_name(af));
	json_uint(&j, "pfxCounter", w->src->accepted[af]);
	json_object_open(&j, "ribTableWalkCounters");
	for (int i = 0; i < PCOUNT_MAX; i++)
		json_uint(&j, pcount_names[i], w->count[i]);
	json_object_close(&j);
	json_object_close(&j);
	json_end(&j);
}

static int show_prefix_counts(struct vty *vty, enum bgp_af af, const struct cmd_args *args)
{
	const char *peer = cmd_arg(args, "peer");
	bool json = cmd_has(args, "json");
	struct pcount_walk w;
	struct bgp *bgp = bgp_get();
	const struct ptree *adj_in;
	struct ipaddr a;

	memset(&w, 0, sizeof(w));
	if (!bgp || !bgp->rib) {
		vty_out(vty, json ? "{}\n" : "No BGP process is configured\n");
		return CMD_WARNING;
	}
	if (ipaddr_from_str(&a, peer) < 0) {
		vty_out(vty, "%% Malformed address: %s\n", peer);
		return CMD_WARNING;
	}
	ipaddr_unmap_v4(&a);
	w.s.bgp = bgp;
	w.s.rib = bgp->rib;
	w.s.af = af;
	w.src = route_neighbor_src(bgp->rib, &a);
	/* FRR's words, in text and in JSON. */
	if (!w.src || !w.src->af[af]) {
		vty_out(vty, json ? "{ \"warning\": \"No such neighbor or address family\" }\n"
				  : "%% No such neighbor or address family\n");
		return CMD_WARNING;
	}
	adj_in = rib_adj_in(w.src, af);
	w.count[PCOUNT_ADJ_IN] = adj_in ? ptree_count(adj_in) : 0;
	ptree_walk(bgp->rib->af[af].tree, pcount_cb, &w);
	(json ? pcount_json : pcount_text)(vty, &w, peer, af);
	return CMD_SUCCESS;
}

#define NBR_STR "Detailed information on TCP and BGP neighbor connections\n"
#define PEER_STR "Neighbor to display information about\n"
#define PCOUNT_STR "Display detailed prefix count information\n"
#define PCOUNT_TAIL " neighbors <A.B.C.D|X:X::X:X>$peer prefix-counts [json]"
#define PCOUNT_TAIL_STR NBR_STR PEER_STR PEER_STR PCOUNT_STR JSON_STR

DEFCMD(show_ip_bgp_pcount, "show ip bgp" PCOUNT_TAIL, SHOW_STR IP_STR BGP_STR PCOUNT_TAIL_STR)
{
	return show_prefix_counts(vty, BGP_AF_IPV4_UNICAST, args);
}

DEFCMD(show_bgp_af_pcount, "show bgp <ipv4|ipv6>$af [unicast]" PCOUNT_TAIL,
       SHOW_STR BGP_STR AF_STR AF_STR SAFI_STR PCOUNT_TAIL_STR)
{
	return show_prefix_counts(vty,
				  !strcmp(cmd_arg(args, "af"), "ipv4") ? BGP_AF_IPV4_UNICAST
								       : BGP_AF_IPV6_UNICAST,
				  args);
}

/* FRR's bare `show bgp` is IPv6 unicast: an IPv4-only neighbor has no such family there. */
DEFCMD(show_bgp_pcount, "show bgp" PCOUNT_TAIL, SHOW_STR BGP_STR PCOUNT_TAIL_STR)
{
	return show_prefix_counts(vty, BGP_AF_IPV6_UNICAST, args);
}

void bgp_show_prefix_counts_init(void)
{
	cmd_install(VIEW_NODE, &show_ip_bgp_pcount_cmd);
	cmd_install(VIEW_NODE, &show_bgp_af_pcount_cmd);
	cmd_install(VIEW_NODE, &show_bgp_pcount_cmd);
}
