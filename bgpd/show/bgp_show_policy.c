/* SPDX-License-Identifier: ISC */
/*
 * The show commands of the policy objects, in FRR 8.4's layout: `show bgp as-path-access-list`,
 * `show bgp community-list`, `show bgp large-community-list` and `show route-map`. They read
 * the objects of bgpd/policy/ (the configuration commands that make them are bgpd/config/'s).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/vty.h"

/* ---- show bgp as-path-access-list ------------------------------------------------------ */

struct asl_show_ctx {
	struct vty *vty;
	struct json_writer *w;
	const char *open; /* the list being printed */
};

/* FRR 8.4's forms: "AS path access list NAME" then "    permit REGEX" lines; JSON
 * {NAME: [{sequenceNumber, type, regExp}]}. */
static void asl_show_entry(const char *list, uint32_t seq, bool permit, const char *regex,
			   uint64_t hits, void *arg)
{
	struct asl_show_ctx *c = arg;

	(void)hits;
	if (!c->open || strcmp(c->open, list) != 0) {
		if (c->w) {
			if (c->open)
				json_array_close(c->w);
			json_array_open(c->w, list);
		} else {
			vty_out(c->vty, "AS path access list %s\n", list);
		}
		c->open = list;
	}
	if (c->w) {
		json_object_open(c->w, NULL);
		json_uint(c->w, "sequenceNumber", seq);
		json_string(c->w, "type", permit ? "permit" : "deny");
		json_string(c->w, "regExp", regex);
		json_object_close(c->w);
	} else {
		vty_out(c->vty, "    %s %s\n", permit ? "permit" : "deny", regex);
	}
}

DEFCMD(show_bgp_as_path_access_list, "show bgp as-path-access-list [WORD$name] [json]",
       SHOW_STR BGP_STR "List AS path access lists\n"
			"AS path access list name\n" JSON_STR)
{
	const char *name = cmd_arg(args, "name");
	struct json_writer w;
	struct asl_show_ctx c = { .vty = vty };

	if (name && !aspath_list_lookup(name)) {
		vty_out(vty,
			cmd_has(args, "json") ? "{}\n" : "%% Can't find AS path access list\n");
		return CMD_WARNING;
	}
	if (cmd_has(args, "json")) {
		c.w = &w;
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
	}
	aspath_list_walk(name, asl_show_entry, &c);
	if (c.w) {
		if (c.open)
			json_array_close(&w);
		json_object_close(&w);
		json_end(&w);
	}
	return CMD_SUCCESS;
}

/* ---- show bgp [large-]community-list ------------------------------------------------------ */

/* FRR 8.4's titles: "Named Community standard list N", "Large community (expanded) access list
 * 100", "Named extended community standard list S1"... */
static const char *clist_title(enum bgp_show_clist_kind kind, bool numbered)
{
	static const char *const titles[][2] = {
		/* [kind][numbered] */
		[BGP_SHOW_CLIST_COMM] = { "Named Community", "Community" },
		[BGP_SHOW_CLIST_LARGE] = { "Named large community", "Large community" },
		[BGP_SHOW_CLIST_EXT] = { "Named extended community", "Extended community" },
	};

	return titles[kind][numbered];
}

void bgp_show_clist_entry(const char *list, bool expanded, uint32_t seq, bool permit,
			  const char *text, uint64_t hits, void *arg)
{
	struct bgp_show_clist_ctx *c = arg;

	/* FRR 8.4's form: no sequence numbers, no hit counts. */
	(void)seq;
	(void)hits;
	if (!c->open || strcmp(c->open, list) != 0) {
		bool num = community_list_name_numbered(list);

		vty_out(c->vty, "%s %s list %s\n", clist_title(c->kind, num),
			!expanded ? "standard"
			: num	  ? "(expanded) access"
				  : "expanded",
			list);
		c->open = list;
	}
	vty_out(c->vty, "    %s %s\n", permit ? "permit" : "deny", text);
}

/* FRR 8.4 wants `detail` after a name; skua takes the name alone too. */
DEFCMD(show_bgp_community_list, "show bgp community-list [WORD$name [detail]]",
       SHOW_STR BGP_STR "List community-list\n"
			"Community list name\n"
			"Detailed information on community-list\n")
{
	struct bgp_show_clist_ctx c = { .vty = vty, .kind = BGP_SHOW_CLIST_COMM };
	const char *name = cmd_arg(args, "name");

	if (name && !community_list_lookup(name)) {
		vty_out(vty, "%% Can't find community-list\n");
		return CMD_WARNING;
	}
	community_list_walk(name, bgp_show_clist_entry, &c);
	return CMD_SUCCESS;
}

/* FRR 8.4 wants `detail` after a name; skua takes the name alone too. */
DEFCMD(show_bgp_lcommunity_list, "show bgp large-community-list [WORD$name [detail]]",
       SHOW_STR BGP_STR "List large-community list\n"
			"Large community list name\n"
			"Detailed information on large-community-list\n")
{
	struct bgp_show_clist_ctx c = { .vty = vty, .kind = BGP_SHOW_CLIST_LARGE };
	const char *name = cmd_arg(args, "name");

	if (name && !lcommunity_list_lookup(name)) {
		vty_out(vty, "%% Can't find large-community-list\n");
		return CMD_WARNING;
	}
	lcommunity_list_walk(name, bgp_show_clist_entry, &c);
	return CMD_SUCCESS;
}

/* ---- show route-map ----------------------------------------------------------------------- */

/* As `set origin` takes it. */
static const char *rmap_origin_word(enum bgp_origin o)
{
	return o == BGP_ORIGIN_EGP ? "egp" : o == BGP_ORIGIN_INCOMPLETE ? "incomplete" : "igp";
}

struct rmap_show_ctx {
	struct vty *vty;
	const char *open;
};

/* FRR's `peer` clause: the address, local or the interface name. */
static void rmap_show_match_peer(struct vty *vty, const struct rmap_entry *e)
{
	char buf[IPADDR_STRLEN];

	switch (e->match_peer) {
	case RMAP_PEER_NONE:
		break;
	case RMAP_PEER_ADDR:
		vty_out(vty, "    peer %s\n", ipaddr_to_str(&e->match_peer_addr, buf, sizeof(buf)));
		break;
	case RMAP_PEER_LOCAL:
		vty_out(vty, "    peer local\n");
		break;
	case RMAP_PEER_IFNAME:
		vty_out(vty, "    peer %s\n", e->match_peer_ifname);
		break;
	}
}

static void rmap_show_entry(const char *map, const struct rmap_entry *e, void *arg)
{
	struct rmap_show_ctx *c = arg;
	struct vty *vty = c->vty;
	char nh[INET6_ADDRSTRLEN];

	if (!c->open || strcmp(c->open, map) != 0) {
		vty_out(vty, "route-map: %s\n", map);
		c->open = map;
	}
	vty_out(vty, " %s, sequence %u Invoked %" PRIu64 "\n", e->permit ? "permit" : "deny",
		e->seq, e->hits);
	if (e->description)
		vty_out(vty, "  Description:\n    %s\n", e->description);
	vty_out(vty, "  Match clauses:\n");
	if (e->match_plist4)
		vty_out(vty, "    ip address prefix-list %s\n", e->match_plist4);
	if (e->match_nh_plist4)
		vty_out(vty, "    ip next-hop prefix-list %s\n", e->match_nh_plist4);
	if (e->match_nh6_set)
		vty_out(vty, "    ipv6 next-hop address %s\n",
			inet_ntop(AF_INET6, &e->match_nh6, nh, sizeof(nh)));
	if (e->match_plist6)
		vty_out(vty, "    ipv6 address prefix-list %s\n", e->match_plist6);
	if (e->match_aspath)
		vty_out(vty, "    as-path %s\n", e->match_aspath);
	if (e->match_metric_set)
		vty_out(vty, "    metric %u\n", e->match_metric);
	if (e->match_clist)
		vty_out(vty, "    community %s%s\n", e->match_clist,
			e->match_clist_exact ? " exact-match" : "");
	if (e->match_lclist)
		vty_out(vty, "    large-community %s%s\n", e->match_lclist,
			e->match_lclist_exact ? " exact-match" : "");
	bgp_show_eclist_match(vty, e);
	rmap_show_match_peer(vty, e);
	if (e->match_rpki != RPKI_NOT_USED)
		vty_out(vty, "    rpki %s\n", rpki_state_name(e->match_rpki));
	if (e->match_aspa != ASPA_NOT_USED)
		vty_out(vty, "    aspa %s\n", aspa_state_name(e->match_aspa));
	if (e->match_tag_set)
		vty_out(vty, "    tag %u\n", e->match_tag);
	vty_out(vty, "  Set clauses:\n");
	if (e->nexclude) {
		vty_out(vty, "    as-path exclude");
		for (uint32_t i = 0; i < e->nexclude; i++)
			vty_out(vty, " %u", e->exclude[i]);
		vty_out(vty, "\n");
	}
	if (e->nprepend) {
		vty_out(vty, "    as-path prepend");
		for (uint32_t i = 0; i < e->nprepend; i++)
			vty_out(vty, " %u", e->prepend[i]);
		vty_out(vty, "\n");
	}
	if (e->nexthop_set)
		vty_out(vty, "    ip next-hop %s\n",
			inet_ntop(AF_INET, &e->nexthop, nh, sizeof(nh)));
	if (e->nexthop6_set)
		vty_out(vty, "    ipv6 next-hop global %s\n",
			inet_ntop(AF_INET6, &e->nexthop6, nh, sizeof(nh)));
	if (e->lp_set)
		vty_out(vty, "    local-preference %s%u\n",
			e->lp_op == RMAP_ADD   ? "+"
			: e->lp_op == RMAP_SUB ? "-"
					       : "",
			e->lp);
	if (e->med_set)
		vty_out(vty, "    metric %s%u\n",
			e->med_op == RMAP_ADD	? "+"
			: e->med_op == RMAP_SUB ? "-"
						: "",
			e->med);
	if (e->weight_set)
		vty_out(vty, "    weight %u\n", e->weight);
	if (e->origin_set)
		vty_out(vty, "    origin %s\n", rmap_origin_word(e->origin));
	if (e->tag_set)
		vty_out(vty, "    tag %u\n", e->tag);
	if (e->comm_set) {
		vty_out(vty, "    community");
		if (e->comm_none)
			vty_out(vty, " none");
		for (uint32_t i = 0; i < e->ncomm; i++) {
			char cbuf[32];

			vty_out(vty, " %s", bgp_community_str(e->comm[i], cbuf, sizeof(cbuf)));
		}
		vty_out(vty, "%s\n", e->comm_additive ? " additive" : "");
	}
	if (e->comm_delete)
		vty_out(vty, "    comm-list %s delete\n", e->comm_delete);
	if (e->lcomm_set) {
		vty_out(vty, "    large-community");
		if (e->lcomm_none)
			vty_out(vty, " none");
		for (uint32_t i = 0; i < e->nlcomm; i++)
			vty_out(vty, " %u:%u:%u", e->lcomm[3 * i], e->lcomm[3 * i + 1],
				e->lcomm[3 * i + 2]);
		vty_out(vty, "%s\n", e->lcomm_additive ? " additive" : "");
	}
	if (e->lcomm_delete)
		vty_out(vty, "    large-comm-list %s delete\n", e->lcomm_delete);
	bgp_show_eclist_set(vty, e);
	vty_out(vty, "  Call clause:\n");
	if (e->call)
		vty_out(vty, "    Call %s\n", e->call);
	vty_out(vty, "  Action:\n");
	if (e->on_match == RMAP_NEXT)
		vty_out(vty, "    Continue to next entry\n");
	else if (e->on_match == RMAP_GOTO)
		vty_out(vty, "    Goto %u\n", e->goto_seq);
	else
		vty_out(vty, "    Exit routemap\n");
}

DEFCMD(show_route_map, "show route-map [WORD$name]",
       SHOW_STR "route-map information\n"
		"route-map name\n")
{
	struct rmap_show_ctx c = { .vty = vty };
	const char *name = cmd_arg(args, "name");

	if (name && !route_map_lookup(name)) {
		vty_out(vty, "%%route-map %s not found\n", name);
		return CMD_WARNING;
	}
	vty_out(vty, "BGP:\n");
	route_map_walk(name, rmap_show_entry, &c);
	return CMD_SUCCESS;
}

void bgp_show_policy_init(void)
{
	cmd_install(VIEW_NODE, &show_bgp_as_path_access_list_cmd);
	cmd_install(VIEW_NODE, &show_bgp_community_list_cmd);
	cmd_install(VIEW_NODE, &show_bgp_lcommunity_list_cmd);
	cmd_install(VIEW_NODE, &show_route_map_cmd);
	bgp_show_eclist_init();
}
