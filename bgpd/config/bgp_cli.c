/* SPDX-License-Identifier: ISC */
/*
 * bgpd's configuration commands (FRR syntax and messages): each one checks what only the CLI
 * knows (the neighbor must exist, host bits, which instance), then queues edits of the
 * skua-bgp model. Types, ranges and the relations between settings are the model's job, so
 * the config file, vtysh and any later door refuse the same things the same way.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define NEIGHBOR_CMD "neighbor <A.B.C.D|X:X::X:X|WORD>$peer"
#define NEIGHBOR_STR                \
	"Specify neighbor router\n" \
	"Neighbor address\n"        \
	"Neighbor IPv6 address\n"   \
	"Neighbor tag (peer-group name)\n"
#define NEIGHBOR_ADDR_CMD "neighbor <A.B.C.D|X:X::X:X>$peer"
#define NEIGHBOR_ADDR_STR           \
	"Specify neighbor router\n" \
	"Neighbor address\n"        \
	"Neighbor IPv6 address\n"
#define XPATH_MAX VTY_XPATH_LEN

/* ---- helpers --------------------------------------------------------------------------- */

/* The neighbor address in canonical form (the list key must match what is stored). */
static int peer_arg(struct vty *vty, const struct cmd_args *args, char *buf, size_t size)
{
	const char *s = cmd_arg(args, "peer");
	struct ipaddr a;

	if (!s || ipaddr_from_str(&a, s) < 0) {
		vty_out(vty, "%% Malformed address: %s\n", s ? s : "");
		return -1;
	}
	ipaddr_to_str(&a, buf, size);
	return 0;
}

/* Is the PEER argument a peer-group name? Not when it is, or looks like, an address (a
 * malformed one is reported as such). */
static bool peer_is_group(const struct cmd_args *args)
{
	const char *s = cmd_arg(args, "peer");

	return s && s[strspn(s, "0123456789.")] != '\0' && !strchr(s, ':');
}

static bool name_ok(struct vty *vty, const char *name)
{
	if (strchr(name, '\'')) {
		vty_out(vty, "%% A peer-group name cannot contain a quote (')\n");
		return false;
	}
	return true;
}

/*
 * The data path of the neighbor or peer-group PEER names, which must exist: FRR's
 * "Specify remote-as or peer-group commands first" for an address, "Create the peer-group
 * first" for a name.
 */
static int peer_base(struct vty *vty, const struct cmd_args *args, char *base, size_t size)
{
	char peer[IPADDR_STRLEN];

	if (peer_is_group(args)) {
		const char *name = cmd_arg(args, "peer");

		if (!name_ok(vty, name))
			return -1;
		snprintf(base, size, BGP_PEER_GROUP_XPATH, name);
		if (!nb_cli_exists(vty, "%s", base)) {
			vty_out(vty, "%% Create the peer-group or interface first\n");
			return -1;
		}
		return 0;
	}
	if (peer_arg(vty, args, peer, sizeof(peer)) < 0)
		return -1;
	snprintf(base, size, BGP_NEIGHBOR_XPATH, peer);
	if (!nb_cli_exists(vty, "%s", base)) {
		vty_out(vty, "%% Specify remote-as or peer-group commands first\n");
		return -1;
	}
	return 0;
}

/* Queue one edit of a neighbor's (or peer-group's) node and apply it. */
static int peer_edit(struct vty *vty, const struct cmd_args *args, const char *leaf,
		     enum nb_operation op, const char *value)
{
	char base[256], xpath[XPATH_MAX];

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/%s", base, leaf);
	nb_cli_enqueue_change(vty, xpath, op, value);
	return nb_cli_apply_changes(vty, NULL);
}

static const char *af_name_of_node(const struct vty *vty)
{
	return vty->node == BGP_IPV6_NODE ? "ipv6-unicast" : "ipv4-unicast";
}

/* ---- router bgp ------------------------------------------------------------------------ */

DEFCMD(router_bgp, "router bgp [ASNUM]",
       "Enable a routing process\n"
       "BGP information\n"
       "Autonomous system number\n")
{
	const struct lyd_node *bgp = nb_cli_get(vty, BGP_XPATH);

	if (cmd_has(args, "ASNUM")) {
		uint64_t asn = cmd_arg_u64(args, "ASNUM", 0);
		char asbuf[16];

		if (bgp) {
			if (yang_dnode_get_uint(bgp, 0, "local-as") != asn) {
				/* FRR's words; one instance per daemon. */
				vty_out(vty, "%% BGP is already running; AS is %s\n",
					yang_dnode_get_string(bgp, "local-as"));
				return CMD_WARNING_CONFIG_FAILED;
			}
		} else {
			int ret;

			snprintf(asbuf, sizeof(asbuf), "%" PRIu64, asn);
			nb_cli_enqueue_change(vty, BGP_XPATH, NB_OP_CREATE, NULL);
			nb_cli_enqueue_change(vty, BGP_XPATH "/local-as", NB_OP_MODIFY, asbuf);
			ret = nb_cli_apply_changes(vty, NULL);
			if (ret != CMD_SUCCESS)
				return ret;
		}
	} else if (!bgp) {
		vty_out(vty, "%% No BGP process is configured\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enter_node(vty, BGP_NODE, BGP_XPATH);
	return CMD_SUCCESS;
}

DEFCMD(no_router_bgp, "no router bgp [ASNUM]",
       NO_STR "Enable a routing process\n"
	      "BGP information\n"
	      "Autonomous system number\n")
{
	const struct lyd_node *bgp = nb_cli_get(vty, BGP_XPATH);

	if (!bgp) {
		vty_out(vty, cmd_has(args, "ASNUM") ? "%% Can't find BGP instance\n"
						    : "%% No BGP process is configured\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (cmd_has(args, "ASNUM") &&
	    yang_dnode_get_uint(bgp, 0, "local-as") != cmd_arg_u64(args, "ASNUM", 0)) {
		vty_out(vty, "%% Can't find BGP instance\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, BGP_XPATH, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/* ---- instance settings ------------------------------------------------------------- */

DEFCMD(bgp_router_id, "bgp router-id A.B.C.D",
       "BGP information\n"
       "Override configured router identifier\n"
       "Manually configured router identifier\n")
{
	nb_cli_enqueue_change(vty, "./router-id", NB_OP_MODIFY, cmd_arg(args, "A.B.C.D"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_router_id, "no bgp router-id [A.B.C.D]",
       NO_STR "BGP information\n"
	      "Override configured router identifier\n"
	      "Manually configured router identifier\n")
{
	const char *given = cmd_arg(args, "A.B.C.D");
	const struct lyd_node *cur = nb_cli_get(vty, BGP_XPATH "/router-id");
	struct in_addr a, b;

	if (given && cur && inet_pton(AF_INET, given, &a) == 1 &&
	    inet_pton(AF_INET, lyd_get_value(cur), &b) == 1 && a.s_addr != b.s_addr) {
		vty_out(vty, "%% BGP router-id doesn't match\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, "./router-id", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_timers, "timers bgp (0-65535)$keepalive (0-65535)$holdtime",
       "Adjust routing timers\n"
       "BGP timers\n"
       "Keepalive interval\n"
       "Holdtime\n")
{
	nb_cli_enqueue_change(vty, "./timers/keepalive", NB_OP_MODIFY, cmd_arg(args, "keepalive"));
	nb_cli_enqueue_change(vty, "./timers/hold-time", NB_OP_MODIFY, cmd_arg(args, "holdtime"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_timers, "no timers bgp [(0-65535) (0-65535)]",
       NO_STR "Adjust routing timers\n"
	      "BGP timers\n"
	      "Keepalive interval\n"
	      "Holdtime\n")
{
	nb_cli_enqueue_change(vty, "./timers/keepalive", NB_OP_DESTROY, NULL);
	nb_cli_enqueue_change(vty, "./timers/hold-time", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_default_ipv4, "bgp default ipv4-unicast",
       "BGP information\n"
       "Configure BGP defaults\n"
       "Activate ipv4-unicast for a peer by default\n")
{
	nb_cli_enqueue_change(vty, "./default-ipv4-unicast", NB_OP_MODIFY, "true");
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_default_ipv4, "no bgp default ipv4-unicast",
       NO_STR "BGP information\n"
	      "Configure BGP defaults\n"
	      "Activate ipv4-unicast for a peer by default\n")
{
	nb_cli_enqueue_change(vty, "./default-ipv4-unicast", NB_OP_MODIFY, "false");
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * Switches FRR writes into its saved configurations (bgp_vty.c prints each one where it
 * differs from the `frr defaults traditional` value): kept in the model with FRR's defaults
 * so an FRR configuration loads unchanged and prints back the same. What skua does with each
 * is in the model's descriptions (yang/skua-bgp.yang).
 */
DEFCMD(bgp_cluster_id, "bgp cluster-id A.B.C.D",
       BGP_STR "Configure Route-Reflector Cluster-id\n"
	       "Route-Reflector Cluster-id in IP address format\n")
{
	nb_cli_enqueue_change(vty, "./cluster-id", NB_OP_MODIFY, cmd_arg(args, "A.B.C.D"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_cluster_id, "no bgp cluster-id [A.B.C.D]",
       NO_STR BGP_STR "Configure Route-Reflector Cluster-id\n"
		      "Route-Reflector Cluster-id in IP address format\n")
{
	nb_cli_enqueue_change(vty, "./cluster-id", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

static int bgp_switch(struct vty *vty, const char *leaf, bool on)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, on ? "true" : "false");
	return nb_cli_apply_changes(vty, NULL);
}

#define LOG_NBR_STR         \
	"BGP information\n" \
	"Log neighbor up/down and reset reason\n"
#define EBGP_POLICY_STR     \
	"BGP information\n" \
	"Require in and out policy for eBGP peers (RFC8212)\n"
#define IMPORT_CHECK_STR        \
	"BGP information\n"     \
	"BGP network command\n" \
	"Check BGP network route exists in IGP\n"

DEFCMD(bgp_log_neighbor_changes, "bgp log-neighbor-changes", LOG_NBR_STR)
{
	return bgp_switch(vty, "log-neighbor-changes", true);
}

DEFCMD(no_bgp_log_neighbor_changes, "no bgp log-neighbor-changes", NO_STR LOG_NBR_STR)
{
	return bgp_switch(vty, "log-neighbor-changes", false);
}

DEFCMD(bgp_ebgp_requires_policy, "bgp ebgp-requires-policy", EBGP_POLICY_STR)
{
	return bgp_switch(vty, "ebgp-requires-policy", true);
}

DEFCMD(no_bgp_ebgp_requires_policy, "no bgp ebgp-requires-policy", NO_STR EBGP_POLICY_STR)
{
	return bgp_switch(vty, "ebgp-requires-policy", false);
}

DEFCMD(bgp_network_import_check, "bgp network import-check", IMPORT_CHECK_STR)
{
	return bgp_switch(vty, "network-import-check", true);
}

DEFCMD(no_bgp_network_import_check, "no bgp network import-check", NO_STR IMPORT_CHECK_STR)
{
	return bgp_switch(vty, "network-import-check", false);
}

/* ---- neighbors ------------------------------------------------------------------------ */

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
	bool exists, group = peer_is_group(args);

	if (group) {
		if (peer_base(vty, args, base, sizeof(base)) < 0)
			return CMD_WARNING_CONFIG_FAILED;
		exists = true;
	} else {
		if (peer_arg(vty, args, peer, sizeof(peer)) < 0)
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

	if (peer_is_group(args)) {
		if (peer_base(vty, args, base, sizeof(base)) < 0)
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
	if (peer_arg(vty, args, peer, sizeof(peer)) < 0)
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
	if (!name_ok(vty, name))
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

DEFCMD(no_neighbor_peer_group, "no neighbor WORD$name peer-group",
       NO_STR "Specify neighbor router\n"
	      "Neighbor tag\n"
	      "Configure peer-group\n")
{
	const char *name = cmd_arg(args, "name");
	char xpath[XPATH_MAX];

	if (!name_ok(vty, name))
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

	if (peer_arg(vty, args, peer, sizeof(peer)) < 0 || !name_ok(vty, group))
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

	if (peer_arg(vty, args, peer, sizeof(peer)) < 0)
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

/* ---- dynamic neighbors ---------------------------------------------------------------- */

#define LISTEN_STR                \
	"BGP specific commands\n" \
	"Configure BGP dynamic neighbors listen range\n"
#define LISTEN_RANGE_STR                                            \
	LISTEN_STR "Configure BGP dynamic neighbors listen range\n" \
		   "Neighbor address\n"                             \
		   "Neighbor IPv6 address\n"                        \
		   "Member of the peer-group\n"                     \
		   "Peer-group name\n"

static int listen_range_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	const char *s = cmd_arg(args, "range"), *group = cmd_arg(args, "group");
	char canon[PREFIX_STRLEN], xpath[XPATH_MAX];
	const struct lyd_node *cur;
	struct prefix p;

	if (!s || prefix_from_str(&p, s, false) < 0) {
		vty_out(vty, "%% Malformed listen range\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (!name_ok(vty, group))
		return CMD_WARNING_CONFIG_FAILED;
	prefix_apply_mask(&p); /* FRR masks the host bits */
	prefix_to_str(&p, canon, sizeof(canon));
	snprintf(xpath, sizeof(xpath), BGP_PEER_GROUP_XPATH, group);
	if (!nb_cli_exists(vty, "%s", xpath)) {
		vty_out(vty, "%% Configure the peer-group first\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(xpath, sizeof(xpath), BGP_XPATH "/listen/range[prefix='%s']", canon);
	cur = nb_cli_get(vty, "%s/peer-group", xpath);
	if (no) {
		if (!cur || strcmp(lyd_get_value(cur), group) != 0) {
			vty_out(vty, "%% Listen range not found in peer-group\n");
			return CMD_WARNING_CONFIG_FAILED;
		}
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	if (cur && strcmp(lyd_get_value(cur), group) != 0) {
		vty_out(vty, "%% Same listen range is attached to peer-group %s\n",
			lyd_get_value(cur));
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(xpath, sizeof(xpath), BGP_XPATH "/listen/range[prefix='%s']/peer-group", canon);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, group);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_listen_range, "bgp listen range <A.B.C.D/M|X:X::X:X/M>$range peer-group WORD$group",
       LISTEN_RANGE_STR)
{
	return listen_range_edit(vty, args, false);
}

DEFCMD(no_bgp_listen_range,
       "no bgp listen range <A.B.C.D/M|X:X::X:X/M>$range peer-group WORD$group",
       NO_STR LISTEN_RANGE_STR)
{
	return listen_range_edit(vty, args, true);
}

#define LISTEN_LIMIT_STR                                                           \
	LISTEN_STR "Maximum number of BGP Dynamic Neighbors that can be created\n" \
		   "Configure Dynamic Neighbors listen limit value\n"

DEFCMD(bgp_listen_limit, "bgp listen limit (1-5000)$limit", LISTEN_LIMIT_STR)
{
	nb_cli_enqueue_change(vty, "./listen/limit", NB_OP_MODIFY, cmd_arg(args, "limit"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_listen_limit, "no bgp listen limit [(1-5000)]", NO_STR LISTEN_LIMIT_STR)
{
	nb_cli_enqueue_change(vty, "./listen/limit", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_description, NEIGHBOR_CMD " description LINE...",
       NEIGHBOR_STR "Neighbor specific description\n"
		    "Up to 1024 characters describing this neighbor\n")
{
	return peer_edit(vty, args, "description", NB_OP_MODIFY, cmd_arg(args, "LINE..."));
}

DEFCMD(no_neighbor_description, "no " NEIGHBOR_CMD " description [LINE...]",
       NO_STR NEIGHBOR_STR "Neighbor specific description\n"
			   "Up to 1024 characters describing this neighbor\n")
{
	return peer_edit(vty, args, "description", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_shutdown, NEIGHBOR_CMD " shutdown",
       NEIGHBOR_STR "Administratively shut down this neighbor\n")
{
	return peer_edit(vty, args, "shutdown", NB_OP_CREATE, NULL);
}

DEFCMD(no_neighbor_shutdown, "no " NEIGHBOR_CMD " shutdown",
       NO_STR NEIGHBOR_STR "Administratively shut down this neighbor\n")
{
	return peer_edit(vty, args, "shutdown", NB_OP_DESTROY, NULL);
}

/* neighbor X local-as AS [no-prepend [replace-as]]: the whole statement replaces the last. */
static int local_as_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	char base[256], xpath[XPATH_MAX];
	size_t n;

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	n = (size_t)snprintf(xpath, sizeof(xpath), "%s/local-as", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	if (no)
		return nb_cli_apply_changes(vty, NULL);
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	snprintf(xpath + n, sizeof(xpath) - n, "/as");
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, "las"));
	if (cmd_has(args, "no-prepend")) {
		snprintf(xpath + n, sizeof(xpath) - n, "/no-prepend");
		nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	}
	if (cmd_has(args, "replace-as")) {
		snprintf(xpath + n, sizeof(xpath) - n, "/replace-as");
		nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	}
	return nb_cli_apply_changes(vty, NULL);
}

#define LOCAL_AS_HELP                                          \
	"Specify a local-as number\n"                          \
	"AS number used as local AS\n"                         \
	"Do not prepend local-as to updates from ebgp peers\n" \
	"Do not prepend local-as to updates from ibgp peers\n"

DEFCMD(neighbor_local_as, NEIGHBOR_CMD " local-as (1-4294967295)$las [no-prepend [replace-as]]",
       NEIGHBOR_STR LOCAL_AS_HELP)
{
	return local_as_edit(vty, args, false);
}

DEFCMD(no_neighbor_local_as,
       "no " NEIGHBOR_CMD " local-as [(1-4294967295)$las [no-prepend [replace-as]]]",
       NO_STR NEIGHBOR_STR LOCAL_AS_HELP)
{
	return local_as_edit(vty, args, true);
}

#define ADV_INTERVAL_HELP                                        \
	"Minimum interval between sending BGP routing updates\n" \
	"time in seconds\n"

DEFCMD(neighbor_adv_interval, NEIGHBOR_CMD " advertisement-interval (0-600)$secs",
       NEIGHBOR_STR ADV_INTERVAL_HELP)
{
	return peer_edit(vty, args, "advertisement-interval", NB_OP_MODIFY, cmd_arg(args, "secs"));
}

DEFCMD(no_neighbor_adv_interval, "no " NEIGHBOR_CMD " advertisement-interval [(0-600)$secs]",
       NO_STR NEIGHBOR_STR ADV_INTERVAL_HELP)
{
	return peer_edit(vty, args, "advertisement-interval", NB_OP_DESTROY, NULL);
}

#define CONNECTED_CHECK_HELP "one-hop away EBGP peer using loopback address\n"

DEFCMD(neighbor_connected_check, NEIGHBOR_CMD " disable-connected-check",
       NEIGHBOR_STR CONNECTED_CHECK_HELP)
{
	return peer_edit(vty, args, "disable-connected-check", NB_OP_CREATE, NULL);
}

DEFCMD(no_neighbor_connected_check, "no " NEIGHBOR_CMD " disable-connected-check",
       NO_STR NEIGHBOR_STR CONNECTED_CHECK_HELP)
{
	return peer_edit(vty, args, "disable-connected-check", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_passive, NEIGHBOR_CMD " passive",
       NEIGHBOR_STR "Don't send open messages to this neighbor\n")
{
	return peer_edit(vty, args, "passive", NB_OP_CREATE, NULL);
}

DEFCMD(no_neighbor_passive, "no " NEIGHBOR_CMD " passive",
       NO_STR NEIGHBOR_STR "Don't send open messages to this neighbor\n")
{
	return peer_edit(vty, args, "passive", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_password, NEIGHBOR_CMD " password WORD$key",
       NEIGHBOR_STR "Set a password\n"
		    "The password (TCP-MD5 key, 1 to 80 characters)\n")
{
	return peer_edit(vty, args, "password", NB_OP_MODIFY, cmd_arg(args, "key"));
}

DEFCMD(no_neighbor_password, "no " NEIGHBOR_CMD " password [WORD]",
       NO_STR NEIGHBOR_STR "Set a password\n"
			   "The password\n")
{
	return peer_edit(vty, args, "password", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_ebgp_multihop, NEIGHBOR_CMD " ebgp-multihop [(1-255)$ttl]",
       NEIGHBOR_STR "Allow EBGP neighbors not on directly connected networks\n"
		    "maximum hop count\n")
{
	const char *ttl = cmd_arg(args, "ttl");

	return peer_edit(vty, args, "ebgp-multihop", NB_OP_MODIFY, ttl ? ttl : "255");
}

DEFCMD(no_neighbor_ebgp_multihop, "no " NEIGHBOR_CMD " ebgp-multihop [(1-255)]",
       NO_STR NEIGHBOR_STR "Allow EBGP neighbors not on directly connected networks\n"
			   "maximum hop count\n")
{
	return peer_edit(vty, args, "ebgp-multihop", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_ttl_security, NEIGHBOR_CMD " ttl-security hops (1-254)$nhops",
       NEIGHBOR_STR "BGP ttl-security parameters\n"
		    "Specify the maximum number of hops to the BGP peer\n"
		    "Number of hops to BGP peer\n")
{
	return peer_edit(vty, args, "ttl-security", NB_OP_MODIFY, cmd_arg(args, "nhops"));
}

DEFCMD(no_neighbor_ttl_security, "no " NEIGHBOR_CMD " ttl-security hops [(1-254)]",
       NO_STR NEIGHBOR_STR "BGP ttl-security parameters\n"
			   "Specify the maximum number of hops to the BGP peer\n"
			   "Number of hops to BGP peer\n")
{
	return peer_edit(vty, args, "ttl-security", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_update_source, NEIGHBOR_CMD " update-source <A.B.C.D|X:X::X:X|WORD>$source",
       NEIGHBOR_STR "Source of routing updates\n"
		    "IPv4 address\n"
		    "IPv6 address\n"
		    "Interface name\n")
{
	char peer[256], base[300], xpath[XPATH_MAX], canon[IPADDR_STRLEN];
	const char *src = cmd_arg(args, "source");
	struct ipaddr a;
	bool is_addr;

	if (peer_base(vty, args, peer, sizeof(peer)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(base, sizeof(base), "%s/update-source", peer);
	/* An address binds the socket; anything else names an interface (FRR). */
	is_addr = ipaddr_from_str(&a, src) == 0;
	if (is_addr)
		ipaddr_to_str(&a, canon, sizeof(canon));
	snprintf(xpath, sizeof(xpath), "%s/%s", base, is_addr ? "interface" : "ip");
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/%s", base, is_addr ? "ip" : "interface");
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, is_addr ? canon : src);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_neighbor_update_source, "no " NEIGHBOR_CMD " update-source [<A.B.C.D|X:X::X:X|WORD>]",
       NO_STR NEIGHBOR_STR "Source of routing updates\n"
			   "IPv4 address\n"
			   "IPv6 address\n"
			   "Interface name\n")
{
	char base[256], xpath[XPATH_MAX];

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/update-source/ip", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/update-source/interface", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_timers, NEIGHBOR_CMD " timers (0-65535)$keepalive (0-65535)$holdtime",
       NEIGHBOR_STR "BGP per neighbor timers\n"
		    "Keepalive interval\n"
		    "Holdtime\n")
{
	char base[256], xpath[XPATH_MAX];

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/timers/keepalive", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, "keepalive"));
	snprintf(xpath, sizeof(xpath), "%s/timers/hold-time", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, "holdtime"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_neighbor_timers, "no " NEIGHBOR_CMD " timers [(0-65535) (0-65535)]",
       NO_STR NEIGHBOR_STR "BGP per neighbor timers\n"
			   "Keepalive interval\n"
			   "Holdtime\n")
{
	char base[256], xpath[XPATH_MAX];

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/timers/keepalive", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/timers/hold-time", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_timers_connect, NEIGHBOR_CMD " timers connect (1-65535)$seconds",
       NEIGHBOR_STR "BGP per neighbor timers\n"
		    "BGP connect timer\n"
		    "Connect timer\n")
{
	return peer_edit(vty, args, "timers/connect-time", NB_OP_MODIFY, cmd_arg(args, "seconds"));
}

DEFCMD(no_neighbor_timers_connect, "no " NEIGHBOR_CMD " timers connect [(1-65535)]",
       NO_STR NEIGHBOR_STR "BGP per neighbor timers\n"
			   "BGP connect timer\n"
			   "Connect timer\n")
{
	return peer_edit(vty, args, "timers/connect-time", NB_OP_DESTROY, NULL);
}

/* ---- address families ---------------------------------------------------------------- */

DEFCMD(address_family, "address-family <ipv4|ipv6> [unicast]",
       "Enter Address Family command mode\n"
       "Address Family\n"
       "Address Family\n"
       "Address Family modifier\n")
{
	if (cmd_has(args, "ipv6"))
		nb_cli_enter_node(vty, BGP_IPV6_NODE, BGP_AF_IPV6_XPATH);
	else
		nb_cli_enter_node(vty, BGP_IPV4_NODE, BGP_AF_IPV4_XPATH);
	return CMD_SUCCESS;
}

static bool is_ipv6_link_local(const struct prefix *p)
{
	return p->family == AF_INET6 && p->u.bytes[0] == 0xfe && (p->u.bytes[1] & 0xc0) == 0x80;
}

/* network P / no network P in the address family af_xpath. */
static int network_edit(struct vty *vty, const struct cmd_args *args, const char *af_xpath, bool no)
{
	const char *s = cmd_arg(args, "prefix");
	char canon[PREFIX_STRLEN], xpath[XPATH_MAX];
	struct prefix p, strict;

	if (!s || prefix_from_str(&p, s, false) < 0) {
		vty_out(vty, "%% Malformed prefix\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (prefix_from_str(&strict, s, true) < 0) {
		/* FRR's words (it masks silently; we refuse and say what was meant). */
		prefix_apply_mask(&p);
		vty_out(vty,
			"%% Inconsistent address and mask: %s has host bits set (did you mean "
			"%s?)\n",
			s, prefix_to_str(&p, canon, sizeof(canon)));
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (is_ipv6_link_local(&p)) {
		vty_out(vty, "%% Malformed prefix (link-local address)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	prefix_to_str(&p, canon, sizeof(canon));
	snprintf(xpath, sizeof(xpath), "%s/network[prefix='%s']", af_xpath, canon);
	if (no && !nb_cli_exists(vty, "%s", xpath)) {
		vty_out(vty, "%% Can't find static route specified\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_network4, "network A.B.C.D/M$prefix",
       "Specify a network to announce via BGP\n"
       "IPv4 prefix\n")
{
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, false);
}

DEFCMD(no_bgp_network4, "no network A.B.C.D/M$prefix",
       NO_STR "Specify a network to announce via BGP\n"
	      "IPv4 prefix\n")
{
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, true);
}

DEFCMD(bgp_network6, "network X:X::X:X/M$prefix",
       "Specify a network to announce via BGP\n"
       "IPv6 prefix\n")
{
	return network_edit(vty, args, BGP_AF_IPV6_XPATH, false);
}

DEFCMD(no_bgp_network6, "no network X:X::X:X/M$prefix",
       NO_STR "Specify a network to announce via BGP\n"
	      "IPv6 prefix\n")
{
	return network_edit(vty, args, BGP_AF_IPV6_XPATH, true);
}

static int activate_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool on)
{
	char leaf[64];

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/enabled", af);
	return peer_edit(vty, args, leaf, NB_OP_MODIFY, on ? "true" : "false");
}

DEFCMD(neighbor_activate, NEIGHBOR_CMD " activate",
       NEIGHBOR_STR "Enable the Address Family for this Neighbor\n")
{
	return activate_edit(vty, args, af_name_of_node(vty), true);
}

DEFCMD(no_neighbor_activate, "no " NEIGHBOR_CMD " activate",
       NO_STR NEIGHBOR_STR "Enable the Address Family for this Neighbor\n")
{
	return activate_edit(vty, args, af_name_of_node(vty), false);
}

/* neighbor X prefix-list|filter-list NAME <in|out>, in the address family of the node;
 * kind is "plist" or "filter-list" (the leaf names' stem). */
static int filter_edit(struct vty *vty, const struct cmd_args *args, const char *af,
		       const char *kind, bool no)
{
	const char *name = cmd_arg(args, "name");
	char leaf[96];

	if (name && strchr(name, '\'')) {
		vty_out(vty, "%% A list name cannot contain a quote (')\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(leaf, sizeof(leaf), "afi-safis/%s/filter-config/%s-%s", af, kind,
		 strcmp(cmd_arg(args, "dir"), "in") == 0 ? "import" : "export");
	return peer_edit(vty, args, leaf, no ? NB_OP_DESTROY : NB_OP_MODIFY, no ? NULL : name);
}

static int prefix_list_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	return filter_edit(vty, args, af, "plist", no);
}

static int filter_list_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	return filter_edit(vty, args, af, "filter-list", no);
}

static int route_map_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	return filter_edit(vty, args, af, "route-map", no);
}

#define PREFIX_LIST_HELP                         \
	"Filter updates to/from this neighbor\n" \
	"Name of a prefix list\n"                \
	"Filter incoming updates\n"              \
	"Filter outgoing updates\n"

DEFCMD(neighbor_prefix_list, NEIGHBOR_CMD " prefix-list WORD$name <in|out>$dir",
       NEIGHBOR_STR PREFIX_LIST_HELP)
{
	return prefix_list_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_prefix_list, "no " NEIGHBOR_CMD " prefix-list [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR PREFIX_LIST_HELP)
{
	return prefix_list_edit(vty, args, af_name_of_node(vty), true);
}

#define FILTER_LIST_HELP             \
	"Establish BGP filters\n"    \
	"AS path access-list name\n" \
	"Filter incoming routes\n"   \
	"Filter outgoing routes\n"

#define ROUTE_MAP_HELP                   \
	"Apply route map to neighbor\n"  \
	"Name of route map\n"            \
	"Apply map to incoming routes\n" \
	"Apply map to outbound routes\n"

static int rr_client_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	char leaf[96];

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/route-reflector-client", af);
	return peer_edit(vty, args, leaf, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
}

static int rpa_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	bool all = cmd_has(args, "all"), replace = cmd_has(args, "replace-AS");
	char leaf[96];

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/remove-private-as", af);
	if (no)
		return peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	return peer_edit(vty, args, leaf, NB_OP_MODIFY,
			 all ? (replace ? "all-replace-as" : "all")
			     : (replace ? "replace-as" : "remove"));
}

#define RPA_HELP                                    \
	"Remove private ASNs in outbound updates\n" \
	"Apply to all AS numbers\n"                 \
	"Replace private ASNs with our ASN in outbound updates\n"

DEFCMD(neighbor_rpa, NEIGHBOR_CMD " remove-private-AS [all] [replace-AS]", NEIGHBOR_STR RPA_HELP)
{
	return rpa_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_rpa, "no " NEIGHBOR_CMD " remove-private-AS [all] [replace-AS]",
       NO_STR NEIGHBOR_STR RPA_HELP)
{
	return rpa_edit(vty, args, af_name_of_node(vty), true);
}

/* neighbor X send-community [KIND] / no ...: FRR's kinds (no word: standard; both: standard
 * and extended), kept as the bits of those sent; all three sent is no leaf at all. */
static int send_comm_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	static const char *const names[] = { "standard", "extended", "large" };
	const char *kind = cmd_arg(args, "kind"), *cur;
	char base[256], leaf[96], bits[40] = "";
	unsigned sent = 7, which;

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(leaf, sizeof(leaf), "afi-safis/%s/send-community", af);
	cur = yang_dnode_get_string(nb_cli_get(vty, "%s", base), "%s", leaf);
	if (cur)
		for (unsigned i = 0; i < 3; i++)
			if (!strstr(cur, names[i]))
				sent &= ~(1u << i);
	which = !kind || strcmp(kind, "standard") == 0 ? 1
		: strcmp(kind, "extended") == 0	       ? 2
		: strcmp(kind, "large") == 0	       ? 4
		: strcmp(kind, "both") == 0	       ? 3
						       : 7;
	sent = no ? sent & ~which : sent | which;
	if (sent == 7)
		return peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	for (unsigned i = 0; i < 3; i++)
		if (sent & (1u << i))
			snprintf(bits + strlen(bits), sizeof(bits) - strlen(bits), "%s%s",
				 bits[0] ? " " : "", names[i]);
	return peer_edit(vty, args, leaf, NB_OP_MODIFY, bits);
}

#define SEND_COMM_HELP                                             \
	"Send Community attribute to this neighbor\n"              \
	"Send Standard and Extended Community attributes\n"        \
	"Send Standard, Large and Extended Community attributes\n" \
	"Send Extended Community attributes\n"                     \
	"Send Standard Community attributes\n"                     \
	"Send Large Community attributes\n"

DEFCMD(neighbor_send_comm, NEIGHBOR_CMD " send-community [<both|all|extended|standard|large>$kind]",
       NEIGHBOR_STR SEND_COMM_HELP)
{
	return send_comm_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_send_comm,
       "no " NEIGHBOR_CMD " send-community [<both|all|extended|standard|large>$kind]",
       NO_STR NEIGHBOR_STR SEND_COMM_HELP)
{
	return send_comm_edit(vty, args, af_name_of_node(vty), true);
}

static int soft_in_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	char leaf[96];

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/soft-reconfiguration-inbound", af);
	return peer_edit(vty, args, leaf, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
}

#define SOFT_IN_HELP                          \
	"Per neighbor soft reconfiguration\n" \
	"Allow inbound soft reconfiguration for this neighbor\n"

DEFCMD(neighbor_soft_in, NEIGHBOR_CMD " soft-reconfiguration inbound", NEIGHBOR_STR SOFT_IN_HELP)
{
	return soft_in_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_soft_in, "no " NEIGHBOR_CMD " soft-reconfiguration inbound",
       NO_STR NEIGHBOR_STR SOFT_IN_HELP)
{
	return soft_in_edit(vty, args, af_name_of_node(vty), true);
}

static int allowas_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	char leaf[96];
	const char *n = cmd_arg(args, "count");

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/allowas-in", af);
	if (no)
		return peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	return peer_edit(vty, args, leaf, NB_OP_MODIFY,
			 cmd_has(args, "origin") ? "origin"
			 : n			 ? n
						 : "3");
}

#define ALLOWAS_HELP                                \
	"Accept as-path with my AS present in it\n" \
	"Number of occurrences of AS number\n"      \
	"Only accept my AS in the as-path if the route was originated in my AS\n"

DEFCMD(neighbor_allowas, NEIGHBOR_CMD " allowas-in [<(1-10)$count|origin>]",
       NEIGHBOR_STR ALLOWAS_HELP)
{
	return allowas_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_allowas, "no " NEIGHBOR_CMD " allowas-in [<(1-10)$count|origin>]",
       NO_STR NEIGHBOR_STR ALLOWAS_HELP)
{
	return allowas_edit(vty, args, af_name_of_node(vty), true);
}

/* neighbor X maximum-prefix N [THRESHOLD] [warning-only|restart MINUTES]: the whole statement
 * replaces the previous one (FRR: a threshold, warning-only or restart left out goes back to
 * its default). */
static int maxpfx_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	char base[256], xpath[XPATH_MAX];
	const char *v;

	if (peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/afi-safis/%s/maximum-prefix", base, af);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	if (no)
		return nb_cli_apply_changes(vty, NULL);
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	snprintf(xpath, sizeof(xpath), "%s/afi-safis/%s/maximum-prefix/max", base, af);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, "max"));
	if ((v = cmd_arg(args, "threshold"))) {
		snprintf(xpath, sizeof(xpath), "%s/afi-safis/%s/maximum-prefix/threshold", base,
			 af);
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, v);
	}
	if (cmd_has(args, "warning-only")) {
		snprintf(xpath, sizeof(xpath), "%s/afi-safis/%s/maximum-prefix/warning-only", base,
			 af);
		nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	}
	if ((v = cmd_arg(args, "minutes"))) {
		snprintf(xpath, sizeof(xpath), "%s/afi-safis/%s/maximum-prefix/restart", base, af);
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, v);
	}
	return nb_cli_apply_changes(vty, NULL);
}

#define MAXPFX_HELP                                                \
	"Maximum number of prefix accept from this peer\n"         \
	"maximum no. of prefix limit\n"                            \
	"Threshold value (%) at which to generate a warning msg\n" \
	"Only give warning message when limit is exceeded\n"       \
	"Restart bgp connection after limit is exceeded\n"         \
	"Restart interval in minutes\n"

DEFCMD(neighbor_maxpfx,
       NEIGHBOR_CMD " maximum-prefix (1-4294967295)$max [(1-100)$threshold] "
		    "[<warning-only|restart (1-65535)$minutes>]",
       NEIGHBOR_STR MAXPFX_HELP)
{
	return maxpfx_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_maxpfx,
       "no " NEIGHBOR_CMD " maximum-prefix [(1-4294967295)$max [(1-100)$threshold] "
       "[<warning-only|restart (1-65535)$minutes>]]",
       NO_STR NEIGHBOR_STR MAXPFX_HELP)
{
	return maxpfx_edit(vty, args, af_name_of_node(vty), true);
}

static int nhs_edit(struct vty *vty, const struct cmd_args *args, const char *af, bool no)
{
	char leaf[96];

	snprintf(leaf, sizeof(leaf), "afi-safis/%s/next-hop-self", af);
	return peer_edit(vty, args, leaf, no ? NB_OP_DESTROY : NB_OP_MODIFY,
			 no			  ? NULL
			 : cmd_has(args, "force") ? "force"
						  : "self");
}

#define RR_CLIENT_HELP "Configure a neighbor as Route Reflector client\n"
#define NHS_HELP                                               \
	"Disable the next hop calculation for this neighbor\n" \
	"Set the next hop to self for reflected routes\n"

DEFCMD(neighbor_rr_client, NEIGHBOR_CMD " route-reflector-client", NEIGHBOR_STR RR_CLIENT_HELP)
{
	return rr_client_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_rr_client, "no " NEIGHBOR_CMD " route-reflector-client",
       NO_STR NEIGHBOR_STR RR_CLIENT_HELP)
{
	return rr_client_edit(vty, args, af_name_of_node(vty), true);
}

DEFCMD(neighbor_nhs, NEIGHBOR_CMD " next-hop-self [force]", NEIGHBOR_STR NHS_HELP)
{
	return nhs_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_nhs, "no " NEIGHBOR_CMD " next-hop-self [force]", NO_STR NEIGHBOR_STR NHS_HELP)
{
	return nhs_edit(vty, args, af_name_of_node(vty), true);
}

DEFCMD(neighbor_route_map, NEIGHBOR_CMD " route-map WORD$name <in|out>$dir",
       NEIGHBOR_STR ROUTE_MAP_HELP)
{
	return route_map_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_route_map, "no " NEIGHBOR_CMD " route-map [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR ROUTE_MAP_HELP)
{
	return route_map_edit(vty, args, af_name_of_node(vty), true);
}

DEFCMD(neighbor_filter_list, NEIGHBOR_CMD " filter-list WORD$name <in|out>$dir",
       NEIGHBOR_STR FILTER_LIST_HELP)
{
	return filter_list_edit(vty, args, af_name_of_node(vty), false);
}

DEFCMD(no_neighbor_filter_list, "no " NEIGHBOR_CMD " filter-list [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR FILTER_LIST_HELP)
{
	return filter_list_edit(vty, args, af_name_of_node(vty), true);
}

/*
 * Quagga wrote IPv4 unicast settings at the router level. Accepted, hidden, and printed back
 * in FRR's form inside `address-family ipv4 unicast`.
 */
static int quagga_activate(struct vty *vty, const struct cmd_args *args)
{
	return activate_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_no_activate(struct vty *vty, const struct cmd_args *args)
{
	return activate_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_network(struct vty *vty, const struct cmd_args *args)
{
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, false);
}

static int quagga_no_network(struct vty *vty, const struct cmd_args *args)
{
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, true);
}

static int quagga_prefix_list(struct vty *vty, const struct cmd_args *args)
{
	return prefix_list_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_prefix_list(struct vty *vty, const struct cmd_args *args)
{
	return prefix_list_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_filter_list(struct vty *vty, const struct cmd_args *args)
{
	return filter_list_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_filter_list(struct vty *vty, const struct cmd_args *args)
{
	return filter_list_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_route_map(struct vty *vty, const struct cmd_args *args)
{
	return route_map_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_route_map(struct vty *vty, const struct cmd_args *args)
{
	return route_map_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_rr_client(struct vty *vty, const struct cmd_args *args)
{
	return rr_client_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_rr_client(struct vty *vty, const struct cmd_args *args)
{
	return rr_client_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_nhs(struct vty *vty, const struct cmd_args *args)
{
	return nhs_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_nhs(struct vty *vty, const struct cmd_args *args)
{
	return nhs_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_soft_in(struct vty *vty, const struct cmd_args *args)
{
	return soft_in_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_soft_in(struct vty *vty, const struct cmd_args *args)
{
	return soft_in_edit(vty, args, "ipv4-unicast", true);
}

static int quagga_send_comm(struct vty *vty, const struct cmd_args *args)
{
	return send_comm_edit(vty, args, "ipv4-unicast", false);
}

static int quagga_no_send_comm(struct vty *vty, const struct cmd_args *args)
{
	return send_comm_edit(vty, args, "ipv4-unicast", true);
}

static const struct cmd_def quagga_defs[] = {
	{ NEIGHBOR_CMD " soft-reconfiguration inbound", NEIGHBOR_STR SOFT_IN_HELP, quagga_soft_in,
	  CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " soft-reconfiguration inbound", NO_STR NEIGHBOR_STR SOFT_IN_HELP,
	  quagga_no_soft_in, CMD_HIDDEN },
	{ NEIGHBOR_CMD " route-reflector-client", NEIGHBOR_STR RR_CLIENT_HELP, quagga_rr_client,
	  CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " route-reflector-client", NO_STR NEIGHBOR_STR RR_CLIENT_HELP,
	  quagga_no_rr_client, CMD_HIDDEN },
	{ NEIGHBOR_CMD " next-hop-self [force]", NEIGHBOR_STR NHS_HELP, quagga_nhs, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " next-hop-self [force]", NO_STR NEIGHBOR_STR NHS_HELP, quagga_no_nhs,
	  CMD_HIDDEN },
	{ NEIGHBOR_CMD " route-map WORD$name <in|out>$dir", NEIGHBOR_STR ROUTE_MAP_HELP,
	  quagga_route_map, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " route-map [WORD$name] <in|out>$dir",
	  NO_STR NEIGHBOR_STR ROUTE_MAP_HELP, quagga_no_route_map, CMD_HIDDEN },
	{ NEIGHBOR_CMD " filter-list WORD$name <in|out>$dir", NEIGHBOR_STR FILTER_LIST_HELP,
	  quagga_filter_list, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " filter-list [WORD$name] <in|out>$dir",
	  NO_STR NEIGHBOR_STR FILTER_LIST_HELP, quagga_no_filter_list, CMD_HIDDEN },
	{ NEIGHBOR_CMD " prefix-list WORD$name <in|out>$dir", NEIGHBOR_STR PREFIX_LIST_HELP,
	  quagga_prefix_list, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " prefix-list [WORD$name] <in|out>$dir",
	  NO_STR NEIGHBOR_STR PREFIX_LIST_HELP, quagga_no_prefix_list, CMD_HIDDEN },
	{ NEIGHBOR_CMD " send-community [<both|all|extended|standard|large>$kind]",
	  NEIGHBOR_STR SEND_COMM_HELP, quagga_send_comm, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " send-community [<both|all|extended|standard|large>$kind]",
	  NO_STR NEIGHBOR_STR SEND_COMM_HELP, quagga_no_send_comm, CMD_HIDDEN },
	{ NEIGHBOR_CMD " activate", NEIGHBOR_STR "Enable the Address Family for this Neighbor\n",
	  quagga_activate, CMD_HIDDEN },
	{ "no " NEIGHBOR_CMD " activate",
	  NO_STR NEIGHBOR_STR "Enable the Address Family for this Neighbor\n", quagga_no_activate,
	  CMD_HIDDEN },
	{ "network A.B.C.D/M$prefix", "Specify a network to announce via BGP\nIPv4 prefix\n",
	  quagga_network, CMD_HIDDEN },
	{ "no network A.B.C.D/M$prefix",
	  NO_STR "Specify a network to announce via BGP\nIPv4 prefix\n", quagga_no_network,
	  CMD_HIDDEN },
};

void bgp_cli_init(void)
{
	static const struct cmd_def *bgp_node_cmds[] = {
		&bgp_router_id_cmd,
		&no_bgp_router_id_cmd,
		&bgp_timers_cmd,
		&no_bgp_timers_cmd,
		&bgp_default_ipv4_cmd,
		&no_bgp_default_ipv4_cmd,
		&bgp_log_neighbor_changes_cmd,
		&no_bgp_log_neighbor_changes_cmd,
		&bgp_ebgp_requires_policy_cmd,
		&no_bgp_ebgp_requires_policy_cmd,
		&bgp_network_import_check_cmd,
		&no_bgp_network_import_check_cmd,
		&bgp_cluster_id_cmd,
		&no_bgp_cluster_id_cmd,
		&neighbor_remote_as_cmd,
		&no_neighbor_cmd,
		&neighbor_peer_group_cmd,
		&no_neighbor_peer_group_cmd,
		&neighbor_member_cmd,
		&no_neighbor_member_cmd,
		&bgp_listen_range_cmd,
		&no_bgp_listen_range_cmd,
		&bgp_listen_limit_cmd,
		&no_bgp_listen_limit_cmd,
		&neighbor_description_cmd,
		&no_neighbor_description_cmd,
		&neighbor_shutdown_cmd,
		&no_neighbor_shutdown_cmd,
		&neighbor_passive_cmd,
		&no_neighbor_passive_cmd,
		&neighbor_connected_check_cmd,
		&no_neighbor_connected_check_cmd,
		&neighbor_local_as_cmd,
		&no_neighbor_local_as_cmd,
		&neighbor_adv_interval_cmd,
		&no_neighbor_adv_interval_cmd,
		&neighbor_password_cmd,
		&no_neighbor_password_cmd,
		&neighbor_ebgp_multihop_cmd,
		&no_neighbor_ebgp_multihop_cmd,
		&neighbor_ttl_security_cmd,
		&no_neighbor_ttl_security_cmd,
		&neighbor_update_source_cmd,
		&no_neighbor_update_source_cmd,
		&neighbor_timers_cmd,
		&no_neighbor_timers_cmd,
		&neighbor_timers_connect_cmd,
		&no_neighbor_timers_connect_cmd,
		&address_family_cmd,
	};

	cmd_install(CONFIG_NODE, &router_bgp_cmd);
	cmd_install(CONFIG_NODE, &no_router_bgp_cmd);
	for (size_t i = 0; i < array_size(bgp_node_cmds); i++)
		cmd_install(BGP_NODE, bgp_node_cmds[i]);
	for (size_t i = 0; i < array_size(quagga_defs); i++)
		cmd_install(BGP_NODE, &quagga_defs[i]);

	cmd_install(BGP_IPV4_NODE, &bgp_network4_cmd);
	cmd_install(BGP_IPV4_NODE, &no_bgp_network4_cmd);
	cmd_install(BGP_IPV6_NODE, &bgp_network6_cmd);
	cmd_install(BGP_IPV6_NODE, &no_bgp_network6_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_activate_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_activate_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_activate_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_activate_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_prefix_list_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_prefix_list_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_prefix_list_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_prefix_list_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_filter_list_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_filter_list_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_filter_list_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_filter_list_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_rr_client_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_rr_client_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_rr_client_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_rr_client_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_rpa_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_rpa_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_rpa_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_rpa_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_send_comm_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_send_comm_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_send_comm_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_send_comm_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_soft_in_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_soft_in_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_soft_in_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_soft_in_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_allowas_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_allowas_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_allowas_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_allowas_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_maxpfx_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_maxpfx_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_maxpfx_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_maxpfx_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_nhs_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_nhs_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_nhs_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_nhs_cmd);
	cmd_install(BGP_IPV4_NODE, &neighbor_route_map_cmd);
	cmd_install(BGP_IPV4_NODE, &no_neighbor_route_map_cmd);
	cmd_install(BGP_IPV6_NODE, &neighbor_route_map_cmd);
	cmd_install(BGP_IPV6_NODE, &no_neighbor_route_map_cmd);
}
