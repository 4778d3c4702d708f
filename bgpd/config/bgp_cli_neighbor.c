/* SPDX-License-Identifier: ISC */
/*
 * Neighbors and peer-groups in `router bgp`: creating and deleting them (`neighbor PEER
 * remote-as`, `neighbor NAME peer-group`) and a neighbor's membership of a group.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_nb.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/yang.h"

/* The remote-as type of a neighbor or group node, NULL when it has none. */
static const char *remote_as_type(struct vty *vty, const char *base)
{
	const struct lyd_node *t = nb_cli_get(vty, "%s/neighbor-remote-as/remote-as-type", base);

	return t ? lyd_get_value(t) : NULL;
}

/* The peer-group a neighbor belongs to, NULL when none. */
static const char *member_group(struct vty *vty, const char *base)
{
	const struct lyd_node *g = nb_cli_get(vty, "%s/peer-group", base);

	return g ? lyd_get_value(g) : NULL;
}

DEFCMD(neighbor_remote_as, NEIGHBOR_CMD " remote-as <ASNUM|internal|external>",
       NEIGHBOR_STR "Specify a BGP neighbor\n"
		    "AS number\n"
		    "Internal BGP peer\n"
		    "External BGP peer\n")
{
	char peer[IPADDR_STRLEN], base[256], xpath[XPATH_MAX], asbuf[16];
	const char *grp;
	bool exists, group = bgp_cli_peer_is_group(args);

	if (group) {
		if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
			return CMD_WARNING_CONFIG_FAILED;
		exists = true;
	} else {
		if (bgp_cli_peer_arg(vty, args, peer, sizeof(peer)) < 0)
			return CMD_WARNING_CONFIG_FAILED;
		snprintf(base, sizeof(base), BGP_NEIGHBOR_XPATH, peer);
		exists = nb_cli_exists(vty, "%s", base);
		grp = exists ? member_group(vty, base) : NULL;
		if (grp) {
			char gbase[256];

			snprintf(gbase, sizeof(gbase), BGP_PEER_GROUP_XPATH, grp);
			if (remote_as_type(vty, gbase)) {
				/* FRR's words. */
				vty_out(vty, "%% Peer-group member cannot override remote-as of "
					     "peer-group\n");
				return CMD_WARNING_CONFIG_FAILED;
			}
		}
	}

	snprintf(xpath, sizeof(xpath), "%s/neighbor-remote-as/remote-as-type", base);
	if (cmd_has(args, "ASNUM")) {
		snprintf(asbuf, sizeof(asbuf), "%" PRIu64, cmd_arg_u64(args, "ASNUM", 0));
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, "as-specified");
		snprintf(xpath, sizeof(xpath), "%s/neighbor-remote-as/remote-as", base);
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, asbuf);
	} else {
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY,
				      cmd_has(args, "internal") ? "internal" : "external");
		snprintf(xpath, sizeof(xpath), "%s/neighbor-remote-as/remote-as", base);
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	}
	if (!exists) {
		/* FRR: a new peer is activated for IPv4 unicast if `bgp default ipv4-unicast`
		 * is on *now*; changing the default later leaves existing peers alone. */
		bool dflt = yang_dnode_get_bool(nb_cli_get(vty, BGP_XPATH), true,
						"default-ipv4-unicast");

		snprintf(xpath, sizeof(xpath), "%s/afi-safis/ipv4-unicast/enabled", base);
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, dflt ? "true" : "false");
	}
	return nb_cli_apply_changes(vty, NULL);
}

/* Enqueue the deletion of every `what` entry (neighbors, listen ranges) naming group. */
static void destroy_group_users(struct vty *vty, const char *what, const char *group)
{
	const struct lyd_node *bgp = nb_cli_get(vty, BGP_XPATH);
	struct ly_set *set = NULL;
	char xpath[XPATH_MAX];

	snprintf(xpath, sizeof(xpath), "%s[peer-group='%s']", what, group);
	if (bgp && lyd_find_xpath(bgp, xpath, &set) == LY_SUCCESS)
		for (uint32_t i = 0; i < set->count; i++) {
			char path[XPATH_MAX];

			nb_cli_enqueue_change(vty,
					      yang_dnode_path(set->dnodes[i], path, sizeof(path)),
					      NB_OP_DESTROY, NULL);
		}
	ly_set_free(set, NULL);
}

/* A group goes with its members and listen ranges (FRR's peer_group_delete). */
static void group_delete(struct vty *vty, const char *name)
{
	char xpath[XPATH_MAX];

	destroy_group_users(vty, "neighbors/neighbor", name);
	destroy_group_users(vty, "listen/range", name);
	snprintf(xpath, sizeof(xpath), BGP_PEER_GROUP_XPATH, name);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
}

DEFCMD(no_neighbor, "no " NEIGHBOR_CMD " [remote-as <ASNUM|internal|external>]",
       NO_STR NEIGHBOR_STR "Specify a BGP neighbor\n"
			   "AS number\n"
			   "Internal BGP peer\n"
			   "External BGP peer\n")
{
	char peer[IPADDR_STRLEN], xpath[XPATH_MAX], base[256];

	if (bgp_cli_peer_is_group(args)) {
		if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
			return CMD_WARNING_CONFIG_FAILED;
		if (cmd_has(args, "remote-as")) {
			/* FRR: only the group's AS goes (members need their own then). */
			snprintf(xpath, sizeof(xpath), "%s/neighbor-remote-as", base);
			nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		} else {
			group_delete(vty, cmd_arg(args, "peer"));
		}
		return nb_cli_apply_changes(vty, NULL);
	}
	if (bgp_cli_peer_arg(vty, args, peer, sizeof(peer)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	/* FRR: removing a neighbor that is not there is not an error. */
	snprintf(xpath, sizeof(xpath), BGP_NEIGHBOR_XPATH, peer);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

#define PEER_GROUP_STR "Member of the peer-group\n"

DEFCMD(neighbor_peer_group, "neighbor WORD$name peer-group",
       "Specify neighbor router\n"
       "Interface name or neighbor tag\n"
       "Configure peer-group\n")
{
	const char *name = cmd_arg(args, "name");
	char xpath[XPATH_MAX];
	struct ipaddr a;

	if (ipaddr_from_str(&a, name) == 0) {
		vty_out(vty, "%% A peer-group name cannot be an address: %s\n", name);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (!bgp_cli_name_ok(vty, name))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), BGP_PEER_GROUP_XPATH, name);
	if (nb_cli_exists(vty, "%s", xpath))
		return CMD_SUCCESS;
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	/* As for a neighbor: the group is activated for IPv4 unicast when the default says so
	 * now, and its members follow the group. */
	snprintf(xpath, sizeof(xpath), BGP_PEER_GROUP_XPATH "/afi-safis/ipv4-unicast/enabled",
		 name);
	nb_cli_enqueue_change(
		vty, xpath, NB_OP_MODIFY,
		yang_dnode_get_bool(nb_cli_get(vty, BGP_XPATH), true, "default-ipv4-unicast")
			? "true"
			: "false");
	return nb_cli_apply_changes(vty, NULL);
}

/* Its own definition, not a `[no]` form: FRR's help of the name differs. */
DEFCMD(no_neighbor_peer_group, "no neighbor WORD$name peer-group",
       NO_STR "Specify neighbor router\n"
	      "Neighbor tag\n"
	      "Configure peer-group\n")
{
	const char *name = cmd_arg(args, "name");
	char xpath[XPATH_MAX];

	if (!bgp_cli_name_ok(vty, name))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), BGP_PEER_GROUP_XPATH, name);
	if (!nb_cli_exists(vty, "%s", xpath)) {
		vty_out(vty, "%% Create the peer-group or interface first\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	group_delete(vty, name);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_member, NEIGHBOR_ADDR_CMD " peer-group WORD$group",
       NEIGHBOR_ADDR_STR PEER_GROUP_STR "Peer-group name\n")
{
	const char *group = cmd_arg(args, "group");
	char peer[IPADDR_STRLEN], base[256], gbase[256], xpath[XPATH_MAX];
	const char *cur, *own, *gtype;
	bool exists;

	if (bgp_cli_peer_arg(vty, args, peer, sizeof(peer)) < 0 || !bgp_cli_name_ok(vty, group))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(gbase, sizeof(gbase), BGP_PEER_GROUP_XPATH, group);
	if (!nb_cli_exists(vty, "%s", gbase)) {
		vty_out(vty, "%% Configure the peer-group first\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(base, sizeof(base), BGP_NEIGHBOR_XPATH, peer);
	exists = nb_cli_exists(vty, "%s", base);
	gtype = remote_as_type(vty, gbase);
	if (!exists && !gtype) {
		vty_out(vty, "%% Specify remote-as or peer-group remote AS first\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	cur = exists ? member_group(vty, base) : NULL;
	if (cur && strcmp(cur, group) == 0)
		return CMD_SUCCESS;
	if (cur) {
		vty_out(vty, "%% Peer is already a member of peer-group %s\n", cur);
		return CMD_WARNING_CONFIG_FAILED;
	}
	own = exists ? remote_as_type(vty, base) : NULL;
	if (own && gtype) {
		const struct lyd_node *gas =
			nb_cli_get(vty, "%s/neighbor-remote-as/remote-as", gbase);
		const struct lyd_node *pas =
			nb_cli_get(vty, "%s/neighbor-remote-as/remote-as", base);

		if (strcmp(own, gtype) != 0 || !gas != !pas ||
		    (gas && strcmp(lyd_get_value(gas), lyd_get_value(pas)) != 0)) {
			vty_out(vty, "%% Peer with AS %s cannot be in this peer-group\n",
				pas ? lyd_get_value(pas) : own);
			return CMD_WARNING_CONFIG_FAILED;
		}
		/* The same AS: the group's, as FRR prints it. */
		snprintf(xpath, sizeof(xpath), "%s/neighbor-remote-as", base);
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	}
	/* Activation follows the group (FRR binds the member to the group's families). */
	snprintf(xpath, sizeof(xpath), "%s/afi-safis/ipv4-unicast/enabled", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/afi-safis/ipv6-unicast/enabled", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/peer-group", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, group);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_neighbor_member, "no " NEIGHBOR_ADDR_CMD " peer-group [WORD$group]",
       NO_STR NEIGHBOR_ADDR_STR PEER_GROUP_STR "Peer-group name\n")
{
	const char *group = cmd_arg(args, "group");
	char peer[IPADDR_STRLEN], base[256];
	const char *cur;

	if (bgp_cli_peer_arg(vty, args, peer, sizeof(peer)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(base, sizeof(base), BGP_NEIGHBOR_XPATH, peer);
	if (!nb_cli_exists(vty, "%s", base)) {
		vty_out(vty, "%% Specify remote-as or peer-group commands first\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	cur = member_group(vty, base);
	if (!cur || (group && strcmp(cur, group) != 0)) {
		vty_out(vty, "%% Peer is not a member of this peer-group\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	/* FRR deletes the neighbor (peer_delete): it was configured through the group. */
	nb_cli_enqueue_change(vty, base, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void bgp_cli_neighbor_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&neighbor_remote_as_cmd,     &no_neighbor_cmd,	   &neighbor_peer_group_cmd,
		&no_neighbor_peer_group_cmd, &neighbor_member_cmd, &no_neighbor_member_cmd,
	};

	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
}
