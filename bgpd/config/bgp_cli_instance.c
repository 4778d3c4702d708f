/* SPDX-License-Identifier: ISC */
/*
 * `router bgp` and the commands of its block that configure the instance itself: router-id,
 * timers, the switches FRR writes, dynamic neighbors' listen ranges and limit.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_nb.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/yang.h"

/* `no router bgp [ASNUM]`: FRR's words when there is no instance, or another one. */
static int router_bgp_delete(struct vty *vty, const struct cmd_args *args,
			     const struct lyd_node *bgp)
{
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

DEFCMD(router_bgp, "[no] router bgp [ASNUM]",
       NO_STR "Enable a routing process\n"
	      "BGP information\n"
	      "Autonomous system number\n")
{
	const struct lyd_node *bgp = nb_cli_get(vty, BGP_XPATH);

	if (cmd_has(args, "no"))
		return router_bgp_delete(vty, args, bgp);
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

/* A boolean of the instance: on, or off by the negation. */
static int bgp_switch(struct vty *vty, const struct cmd_args *args, const char *leaf)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_has(args, "no") ? "false" : "true");
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_default_ipv4, "[no] bgp default ipv4-unicast",
       NO_STR "BGP information\n"
	      "Configure BGP defaults\n"
	      "Activate ipv4-unicast for a peer by default\n")
{
	return bgp_switch(vty, args, "default-ipv4-unicast");
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

DEFCMD(bgp_log_neighbor_changes, "[no] bgp log-neighbor-changes",
       NO_STR BGP_STR "Log neighbor up/down and reset reason\n")
{
	return bgp_switch(vty, args, "log-neighbor-changes");
}

DEFCMD(bgp_ebgp_requires_policy, "[no] bgp ebgp-requires-policy",
       NO_STR BGP_STR "Require in and out policy for eBGP peers (RFC8212)\n")
{
	return bgp_switch(vty, args, "ebgp-requires-policy");
}

DEFCMD(bgp_network_import_check, "[no] bgp network import-check",
       NO_STR BGP_STR "BGP network command\n"
		      "Check BGP network route exists in IGP\n")
{
	return bgp_switch(vty, args, "network-import-check");
}

/* ---- dynamic neighbors ---------------------------------------------------------------- */

#define LISTEN_STR                \
	"BGP specific commands\n" \
	"Configure BGP dynamic neighbors listen range\n"

DEFCMD(bgp_listen_range, "[no] bgp listen range <A.B.C.D/M|X:X::X:X/M>$range peer-group WORD$group",
       NO_STR LISTEN_STR "Configure BGP dynamic neighbors listen range\n"
			 "Neighbor address\n"
			 "Neighbor IPv6 address\n"
			 "Member of the peer-group\n"
			 "Peer-group name\n")
{
	const char *s = cmd_arg(args, "range"), *group = cmd_arg(args, "group");
	char canon[PREFIX_STRLEN], xpath[XPATH_MAX];
	const struct lyd_node *cur;
	struct prefix p;

	if (!s || prefix_from_str(&p, s, false) < 0) {
		vty_out(vty, "%% Malformed listen range\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (!bgp_cli_name_ok(vty, group))
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
	if (cmd_has(args, "no")) {
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

void bgp_cli_instance_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&bgp_router_id_cmd,
		&no_bgp_router_id_cmd,
		&bgp_timers_cmd,
		&no_bgp_timers_cmd,
		&bgp_default_ipv4_cmd,
		&bgp_log_neighbor_changes_cmd,
		&bgp_ebgp_requires_policy_cmd,
		&bgp_network_import_check_cmd,
		&bgp_cluster_id_cmd,
		&no_bgp_cluster_id_cmd,
		&bgp_listen_range_cmd,
		&bgp_listen_limit_cmd,
		&no_bgp_listen_limit_cmd,
	};

	cmd_install(CONFIG_NODE, &router_bgp_cmd);
	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
}
