/* SPDX-License-Identifier: ISC */
/*
 * `show bgp peer-group [NAME] [json]`, FRR 8.4's layout and keys (checked against its output):
 *
 *   BGP peer-group G, remote AS 65002
 *     Peer-group type is external
 *     Configured address-families: IPv4 Unicast; IPv6 Unicast;
 *     1 IPv4 listen range(s)
 *       203.0.113.0/24
 *     Peer-group members:
 *       192.0.2.2  Established
 *       203.0.113.9 (dynamic) Established
 *
 * A group is configuration only (bgpd/config/bgp_peer_group.c expands it into its members), so the
 * group's side comes from the configuration as written and the members' states from the
 * peers, dynamic ones included.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/northbound.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define PEER_GROUP_STR "Detailed information on BGP peer groups\n"

struct group_view {
	const char *name;
	const char *type;   /* "internal", "external" or NULL (no remote-as) */
	bool has_as;	    /* a remote-as is configured */
	uint32_t remote_as; /* 0 for `remote-as external`, as FRR prints it */
	bool af[BGP_AF_MAX];
	const struct lyd_node *ranges[2][64]; /* per family (IPv4, IPv6) */
	unsigned nranges[2];
};

static void group_view(const struct bgp *bgp, const struct lyd_node *g, struct group_view *v)
{
	const char *rtype = yang_dnode_get_string(g, "neighbor-remote-as/remote-as-type");
	const struct lyd_node *root = yang_dnode_ancestor(g, "bgp");
	struct ly_set *set = NULL;

	memset(v, 0, sizeof(*v));
	v->name = yang_dnode_get_string(g, "name");
	v->has_as = rtype != NULL;
	if (rtype && strcmp(rtype, "internal") == 0) {
		v->type = "internal";
		v->remote_as = bgp->asn;
	} else if (rtype && strcmp(rtype, "external") == 0) {
		v->type = "external";
	} else if (rtype) {
		v->remote_as = (uint32_t)yang_dnode_get_uint(g, 0, "neighbor-remote-as/remote-as");
		v->type = v->remote_as == bgp->asn ? "internal" : "external";
	}
	v->af[BGP_AF_IPV4_UNICAST] =
		yang_dnode_get_bool(g, bgp->default_ipv4_unicast, "afi-safis/ipv4-unicast/enabled");
	v->af[BGP_AF_IPV6_UNICAST] =
		yang_dnode_get_bool(g, false, "afi-safis/ipv6-unicast/enabled");
	if (root && lyd_find_xpath(root, "listen/range", &set) == LY_SUCCESS) {
		for (uint32_t i = 0; i < set->count; i++) {
			const char *pg = yang_dnode_get_string(set->dnodes[i], "peer-group");
			const char *pfx = yang_dnode_get_string(set->dnodes[i], "prefix");
			int fam = pfx && strchr(pfx, ':') ? 1 : 0;

			if (pg && v->name && strcmp(pg, v->name) == 0 && v->nranges[fam] < 64)
				v->ranges[fam][v->nranges[fam]++] = set->dnodes[i];
		}
	}
	ly_set_free(set, NULL);
}

static bool member_of(const struct bgp_peer *peer, const char *group)
{
	return peer->conf.peer_group && strcmp(peer->conf.peer_group, group) == 0;
}

static const char *const af_names[BGP_AF_MAX] = { "IPv4 Unicast", "IPv6 Unicast" };
static const char *const fam_names[2] = { "IPv4", "IPv6" };

static void group_text(struct vty *vty, const struct bgp *bgp, const struct group_view *v)
{
	const struct bgp_peer *peer;
	bool any = false;

	vty_out(vty, "\nBGP peer-group %s", v->name);
	if (v->has_as)
		vty_out(vty, ", remote AS %u", v->remote_as);
	vty_out(vty, "\n");
	if (v->type)
		vty_out(vty, "  Peer-group type is %s\n", v->type);
	vty_out(vty, "  Configured address-families:");
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (v->af[af])
			vty_out(vty, " %s;", af_names[af]);
	vty_out(vty, "\n");
	for (int f = 0; f < 2; f++) {
		if (!v->nranges[f])
			continue;
		vty_out(vty, "  %u %s listen range(s)\n", v->nranges[f], fam_names[f]);
		for (unsigned i = 0; i < v->nranges[f]; i++)
			vty_out(vty, "    %s\n", yang_dnode_get_string(v->ranges[f][i], "prefix"));
	}
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		struct bgp_peer_view pv;

		if (!member_of(peer, v->name))
			continue;
		if (!any)
			vty_out(vty, "  Peer-group members:\n");
		any = true;
		bgp_peer_view_fill(&pv, peer);
		vty_out(vty, "    %s %s %s \n", pv.name, peer->dynamic ? "(dynamic)" : "",
			bgp_fsm_state_str(pv.state));
	}
}

static void group_json(struct json_writer *w, const struct bgp *bgp, const struct group_view *v)
{
	const struct bgp_peer *peer;
	bool any = false;

	json_object_open(w, v->name);
	if (v->has_as)
		json_uint(w, "remoteAs", v->remote_as);
	if (v->type)
		json_string(w, "type", v->type);
	json_array_open(w, "addressFamiliesConfigured");
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (v->af[af])
			json_string(w, NULL, af_names[af]);
	json_array_close(w);
	if (v->nranges[0] || v->nranges[1]) {
		json_object_open(w, "dynamicRanges");
		for (int f = 0; f < 2; f++) {
			if (!v->nranges[f])
				continue;
			json_object_open(w, fam_names[f]);
			json_uint(w, "count", v->nranges[f]);
			json_array_open(w, "ranges");
			for (unsigned i = 0; i < v->nranges[f]; i++)
				json_string(w, NULL,
					    yang_dnode_get_string(v->ranges[f][i], "prefix"));
			json_array_close(w);
			json_object_close(w);
		}
		json_object_close(w);
	}
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		struct bgp_peer_view pv;

		if (!member_of(peer, v->name))
			continue;
		if (!any)
			json_object_open(w, "members");
		any = true;
		bgp_peer_view_fill(&pv, peer);
		json_object_open(w, pv.name);
		json_string(w, "status", bgp_fsm_state_str(pv.state));
		if (peer->dynamic)
			json_bool(w, "dynamic", true);
		json_object_close(w);
	}
	if (any)
		json_object_close(w);
	json_object_close(w);
}

DEFCMD(show_bgp_peer_group, "show bgp peer-group [WORD$name] [json]",
       SHOW_STR BGP_STR PEER_GROUP_STR "Peer-group name\n" JSON_STR)
{
	const char *only = cmd_arg(args, "name");
	bool json = cmd_has(args, "json");
	const struct lyd_node *running = nb_running();
	struct bgp *bgp = bgp_get();
	struct ly_set *set = NULL;
	struct json_writer w;
	unsigned shown = 0;

	if (json) {
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
	}
	if (bgp && running &&
	    lyd_find_xpath(running, BGP_XPATH "/peer-groups/peer-group", &set) == LY_SUCCESS) {
		for (uint32_t i = 0; i < set->count; i++) {
			struct group_view v;

			group_view(bgp, set->dnodes[i], &v);
			if (!v.name || (only && strcmp(only, v.name) != 0))
				continue;
			shown++;
			if (json)
				group_json(&w, bgp, &v);
			else
				group_text(vty, bgp, &v);
		}
	}
	ly_set_free(set, NULL);
	if (json) {
		json_object_close(&w);
		json_end(&w);
	} else if (only && !shown) {
		vty_out(vty, "%% No such peer-group\n");
		return CMD_WARNING;
	}
	return CMD_SUCCESS;
}

void bgp_show_peer_group_init(void)
{
	cmd_install(VIEW_NODE, &show_bgp_peer_group_cmd);
}
