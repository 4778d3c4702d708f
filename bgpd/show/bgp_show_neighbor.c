/* SPDX-License-Identifier: ISC */
/*
 * The commands `show [ip] bgp [ipv4|ipv6 [unicast]] summary [json]` and
 * `show [ip] bgp [ipv4|ipv6 [unicast]] neighbors [PEER] [json]`: argument handling and the walk
 * over peers; the output is the renderer's (bgp_show_text.c, bgp_show_json.c).
 *
 * Which address families a summary shows follows FRR: `show ip bgp summary` and
 * `show bgp ipv4 summary` show every SAFI of the family with a title per block, `show bgp
 * summary` every family, and `show bgp ipv4 unicast summary` one block without a title (and,
 * in JSON, without the "ipv4Unicast" wrapper). A family is shown only when some neighbor has
 * it activated, and lists only those neighbors. `established` lists only the neighbors whose
 * session is up in the family, `failed` the others, with FRR's failure columns (EstdCnt, DropCnt,
 * ResetTime, Reason).
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "lib/command.h"
#include "lib/vty.h"

#define SUMMARY_STR "Summary of BGP neighbor status\n"
#define NEIGHBORS_STR "Detailed information on TCP and BGP neighbor connections\n"
#define PEER_STR "Neighbor to display information about\n"
#define ESTABLISHED_STR "Show only sessions in Established state\n"
#define FAILED_STR "Show only sessions not in Established state\n"
#define WIDE_STR "Also the local AS of each session (LocalAS)\n"

#define AF_ALL (-1)

/* A peer "failed" in a family when it is not Established there (FRR's bgp_has_peer_failed()). */
static bool peer_failed(const struct bgp_peer_view *pv, int af)
{
	return !pv->established || !pv->af[af].negotiated;
}

static bool summary_shows(const struct bgp_peer_view *pv, int af, enum bgp_summary_filter f)
{
	switch (f) {
	case BGP_SUMMARY_ESTABLISHED:
		return !peer_failed(pv, af);
	case BGP_SUMMARY_FAILED:
		return peer_failed(pv, af);
	case BGP_SUMMARY_ALL:
		break;
	}
	return true;
}

static int show_summary(struct vty *vty, int af_only, bool titled, enum bgp_summary_filter filter,
			const struct cmd_args *args)
{
	bool use_json = cmd_has(args, "json");
	const struct bgp_show_output *out = use_json ? &bgp_show_json : &bgp_show_text;
	struct bgp_show_ctx ctx = {
		.vty = vty, .titled = titled, .filter = filter, .wide = cmd_has(args, "wide")
	};
	struct bgp *bgp = bgp_get();
	bool any = false;
	int af;

	out->summary_begin(&ctx);
	if (!bgp) {
		out->summary_end(&ctx, BGP_SHOW_END_NO_INSTANCE);
		return CMD_WARNING;
	}
	for (af = 0; af < BGP_AF_MAX; af++) {
		struct bgp_summary_view sv;
		const struct bgp_peer *peer;
		struct bgp_peer_view pv;

		if (af_only != AF_ALL && af != af_only)
			continue;
		bgp_summary_view_fill(&sv, bgp, af);
		if (!sv.total)
			continue;
		any = true;
		/* Views are filled twice when filtering: the count comes before the rows. */
		if (filter != BGP_SUMMARY_ALL) {
			sv.displayed = 0;
			TAILQ_FOREACH (peer, &bgp->peers, entry) {
				if (!bgp_peer_af_activated(peer, af))
					continue;
				bgp_peer_view_fill(&pv, peer);
				if (summary_shows(&pv, af, filter))
					sv.displayed++;
			}
		}
		out->summary_af_begin(&ctx, &sv);
		TAILQ_FOREACH (peer, &bgp->peers, entry) {
			if (!bgp_peer_af_activated(peer, af))
				continue;
			bgp_peer_view_fill(&pv, peer);
			if (summary_shows(&pv, af, filter))
				out->summary_peer(&ctx, &sv, &pv);
		}
		out->summary_af_end(&ctx, &sv);
	}
	out->summary_end(&ctx, any ? BGP_SHOW_END_OK : BGP_SHOW_END_NO_PEERS);
	return CMD_SUCCESS;
}

/* Does the neighbor belong in a listing of af_only (AF_ALL: every neighbor, activated or not)? */
static bool peer_listed_for(const struct bgp_peer *peer, int af_only)
{
	return af_only == AF_ALL || bgp_peer_af_activated(peer, af_only);
}

static int show_neighbors(struct vty *vty, int af_only, const char *addr, bool use_json)
{
	const struct bgp_show_output *out = use_json ? &bgp_show_json : &bgp_show_text;
	struct bgp_show_ctx ctx = { .vty = vty };
	struct bgp *bgp = bgp_get();
	const struct bgp_peer *peer;
	struct bgp_peer_view pv;
	struct kernel_gtsm_counters counters;
	bool have_counters, any = false;

	/* Namespace-wide: one read of /proc/net/netstat for the whole command. */
	have_counters = kernel_gtsm_counters_read(&counters) == 0;
	out->neighbors_begin(&ctx);
	if (!bgp) {
		out->neighbors_end(&ctx, BGP_SHOW_END_NO_INSTANCE);
		return CMD_WARNING;
	}
	if (addr) {
		struct ipaddr a;

		if (ipaddr_from_str(&a, addr) < 0 || !(peer = bgp_peer_lookup(bgp, &a)) ||
		    !peer_listed_for(peer, af_only)) {
			out->neighbors_end(&ctx, BGP_SHOW_END_NOT_FOUND);
			return CMD_WARNING;
		}
		bgp_peer_view_fill(&pv, peer);
		pv.counters = counters;
		pv.have_counters = have_counters;
		out->neighbor(&ctx, &pv);
		out->neighbors_end(&ctx, BGP_SHOW_END_OK);
		return CMD_SUCCESS;
	}
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (!peer_listed_for(peer, af_only))
			continue;
		bgp_peer_view_fill(&pv, peer);
		pv.counters = counters;
		pv.have_counters = have_counters;
		out->neighbor(&ctx, &pv);
		any = true;
	}
	out->neighbors_end(&ctx, any ? BGP_SHOW_END_OK : BGP_SHOW_END_NO_PEERS);
	return CMD_SUCCESS;
}

static int arg_af(const struct cmd_args *args)
{
	if (cmd_has(args, "ipv4"))
		return BGP_AF_IPV4_UNICAST;
	if (cmd_has(args, "ipv6"))
		return BGP_AF_IPV6_UNICAST;
	return AF_ALL;
}

static enum bgp_summary_filter arg_filter(const struct cmd_args *args)
{
	if (cmd_has(args, "established"))
		return BGP_SUMMARY_ESTABLISHED;
	if (cmd_has(args, "failed"))
		return BGP_SUMMARY_FAILED;
	return BGP_SUMMARY_ALL;
}

DEFCMD(show_ip_bgp_summary, "show ip bgp summary [established|failed] [wide] [json]",
       SHOW_STR IP_STR BGP_STR SUMMARY_STR ESTABLISHED_STR FAILED_STR WIDE_STR JSON_STR)
{
	return show_summary(vty, BGP_AF_IPV4_UNICAST, true, arg_filter(args), args);
}

DEFCMD(show_bgp_summary, "show bgp summary [established|failed] [wide] [json]",
       SHOW_STR BGP_STR SUMMARY_STR ESTABLISHED_STR FAILED_STR WIDE_STR JSON_STR)
{
	return show_summary(vty, AF_ALL, true, arg_filter(args), args);
}

DEFCMD(show_bgp_af_summary,
       "show bgp <ipv4|ipv6> [unicast] summary [established|failed] [wide] [json]",
       SHOW_STR BGP_STR AF_STR AF_STR SAFI_STR SUMMARY_STR ESTABLISHED_STR FAILED_STR WIDE_STR
	       JSON_STR)
{
	/* With the SAFI given, FRR prints one untitled block. */
	return show_summary(vty, arg_af(args), !cmd_has(args, "unicast"), arg_filter(args), args);
}

DEFCMD(show_ip_bgp_neighbors, "show ip bgp neighbors [<A.B.C.D|X:X::X:X>$peer] [json]",
       SHOW_STR IP_STR BGP_STR NEIGHBORS_STR PEER_STR PEER_STR JSON_STR)
{
	return show_neighbors(vty, AF_ALL, cmd_arg(args, "peer"), cmd_has(args, "json"));
}

DEFCMD(show_bgp_neighbors, "show bgp neighbors [<A.B.C.D|X:X::X:X>$peer] [json]",
       SHOW_STR BGP_STR NEIGHBORS_STR PEER_STR PEER_STR JSON_STR)
{
	return show_neighbors(vty, AF_ALL, cmd_arg(args, "peer"), cmd_has(args, "json"));
}

DEFCMD(show_bgp_af_neighbors,
       "show bgp <ipv4|ipv6> [unicast] neighbors [<A.B.C.D|X:X::X:X>$peer] [json]",
       SHOW_STR BGP_STR AF_STR AF_STR SAFI_STR NEIGHBORS_STR PEER_STR PEER_STR JSON_STR)
{
	return show_neighbors(vty, arg_af(args), cmd_arg(args, "peer"), cmd_has(args, "json"));
}

void bgp_show_neighbor_init(void)
{
	static const struct cmd_def *const cmds[] = {
		&show_ip_bgp_summary_cmd,   &show_bgp_summary_cmd,   &show_bgp_af_summary_cmd,
		&show_ip_bgp_neighbors_cmd, &show_bgp_neighbors_cmd, &show_bgp_af_neighbors_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(VIEW_NODE, cmds[i]);
	bgp_show_gtsm_init();
	bgp_show_gr_init();
}
