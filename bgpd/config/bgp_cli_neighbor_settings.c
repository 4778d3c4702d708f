/* SPDX-License-Identifier: ISC */
/*
 * `neighbor PEER <setting>` in `router bgp`: the session settings a neighbor and a peer-group
 * both take (PEER is an address or a group's name; the group's settings reach its members
 * through the effective tree, bgp_peer_group.c).
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_private.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"

DEFCMD(neighbor_description, NEIGHBOR_CMD " description LINE...",
       NEIGHBOR_STR "Neighbor specific description\n"
		    "Up to 1024 characters describing this neighbor\n")
{
	return bgp_cli_peer_edit(vty, args, "description", NB_OP_MODIFY, cmd_arg(args, "LINE..."));
}

DEFCMD(no_neighbor_description, "no " NEIGHBOR_CMD " description [LINE...]",
       NO_STR NEIGHBOR_STR "Neighbor specific description\n"
			   "Up to 1024 characters describing this neighbor\n")
{
	return bgp_cli_peer_edit(vty, args, "description", NB_OP_DESTROY, NULL);
}

/* neighbor X shutdown [message TEXT] (FRR): the whole statement replaces the last, so a plain
 * shutdown drops an earlier message; the no form removes both. */
static int shutdown_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	char base[256], xpath[XPATH_MAX];
	const char *msg = no ? NULL : cmd_arg(args, "LINE...");

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/shutdown-message", base);
	nb_cli_enqueue_change(vty, xpath, msg ? NB_OP_MODIFY : NB_OP_DESTROY, msg);
	snprintf(xpath, sizeof(xpath), "%s/shutdown", base);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_shutdown, NEIGHBOR_CMD " shutdown [message LINE...]",
       NEIGHBOR_STR "Administratively shut down this neighbor\n"
		    "Add a shutdown message (RFC 8203)\n"
		    "Shutdown message\n")
{
	return shutdown_edit(vty, args, false);
}

DEFCMD(no_neighbor_shutdown, "no " NEIGHBOR_CMD " shutdown [message LINE...]",
       NO_STR NEIGHBOR_STR "Administratively shut down this neighbor\n"
			   "Add a shutdown message (RFC 8203)\n"
			   "Shutdown message\n")
{
	return shutdown_edit(vty, args, true);
}

/* One leaf of a statement kept as a container: a value from the argument `arg`, or an empty
 * leaf created when the keyword `flag` was typed. */
struct stmt_leaf {
	const char *leaf;
	const char *arg;  /* NULL: a flag */
	const char *flag; /* when arg is NULL */
};

/* Statements such as local-as and local-role: the whole statement replaces the last one, so
 * the container is destroyed and, unless `no`, created again with the leaves typed. */
static int peer_stmt_replace(struct vty *vty, const struct cmd_args *args, const char *container,
			     const struct stmt_leaf *leaves, size_t nleaves, bool no)
{
	char base[256], xpath[XPATH_MAX];
	size_t n;

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	n = (size_t)snprintf(xpath, sizeof(xpath), "%s/%s", base, container);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	if (no)
		return nb_cli_apply_changes(vty, NULL);
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	for (size_t i = 0; i < nleaves; i++) {
		const struct stmt_leaf *l = &leaves[i];

		if (!l->arg && !cmd_has(args, l->flag))
			continue;
		snprintf(xpath + n, sizeof(xpath) - n, "/%s", l->leaf);
		if (l->arg)
			nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, l->arg));
		else
			nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	}
	return nb_cli_apply_changes(vty, NULL);
}

/* neighbor X local-as AS [no-prepend [replace-as]] */
static int local_as_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	static const struct stmt_leaf leaves[] = {
		{ "as", "las", NULL },
		{ "no-prepend", NULL, "no-prepend" },
		{ "replace-as", NULL, "replace-as" },
	};

	return peer_stmt_replace(vty, args, "local-as", leaves, array_size(leaves), no);
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

/* neighbor X local-role ROLE [strict-mode] */
static int local_role_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	static const struct stmt_leaf leaves[] = {
		{ "role", "role", NULL },
		{ "strict-mode", NULL, "strict-mode" },
	};

	return peer_stmt_replace(vty, args, "local-role", leaves, array_size(leaves), no);
}

/* FRR 8.4's help (bgpd/bgp_vty.c). */
#define LOCAL_ROLE_HELP            \
	"Set session role\n"       \
	"Providing transit\n"      \
	"Route server\n"           \
	"RS client\n"              \
	"Using transit\n"          \
	"Public/private peering\n" \
	"Use additional restriction on peer\n"
#define LOCAL_ROLES "<provider|rs-server|rs-client|customer|peer>$role"

DEFCMD(neighbor_local_role, NEIGHBOR_CMD " local-role " LOCAL_ROLES " [strict-mode]",
       NEIGHBOR_STR LOCAL_ROLE_HELP)
{
	return local_role_edit(vty, args, false);
}

DEFCMD(no_neighbor_local_role, "no " NEIGHBOR_CMD " local-role [" LOCAL_ROLES " [strict-mode]]",
       NO_STR NEIGHBOR_STR LOCAL_ROLE_HELP)
{
	return local_role_edit(vty, args, true);
}

#define ADV_INTERVAL_HELP                                        \
	"Minimum interval between sending BGP routing updates\n" \
	"time in seconds\n"

DEFCMD(neighbor_adv_interval, NEIGHBOR_CMD " advertisement-interval (0-600)$secs",
       NEIGHBOR_STR ADV_INTERVAL_HELP)
{
	return bgp_cli_peer_edit(vty, args, "advertisement-interval", NB_OP_MODIFY,
				 cmd_arg(args, "secs"));
}

DEFCMD(no_neighbor_adv_interval, "no " NEIGHBOR_CMD " advertisement-interval [(0-600)$secs]",
       NO_STR NEIGHBOR_STR ADV_INTERVAL_HELP)
{
	return bgp_cli_peer_edit(vty, args, "advertisement-interval", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_connected_check, "[no] " NEIGHBOR_CMD " disable-connected-check",
       NO_STR NEIGHBOR_STR "one-hop away EBGP peer using loopback address\n")
{
	return bgp_cli_peer_flag(vty, args, "disable-connected-check");
}

DEFCMD(neighbor_passive, "[no] " NEIGHBOR_CMD " passive",
       NO_STR NEIGHBOR_STR "Don't send open messages to this neighbor\n")
{
	return bgp_cli_peer_flag(vty, args, "passive");
}

DEFCMD(neighbor_password, NEIGHBOR_CMD " password WORD$key",
       NEIGHBOR_STR "Set a password\n"
		    "The password (TCP-MD5 key, 1 to 80 characters)\n")
{
	return bgp_cli_peer_edit(vty, args, "password", NB_OP_MODIFY, cmd_arg(args, "key"));
}

DEFCMD(no_neighbor_password, "no " NEIGHBOR_CMD " password [WORD]",
       NO_STR NEIGHBOR_STR "Set a password\n"
			   "The password\n")
{
	return bgp_cli_peer_edit(vty, args, "password", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_ebgp_multihop, "[no] " NEIGHBOR_CMD " ebgp-multihop [(1-255)$ttl]",
       NO_STR NEIGHBOR_STR "Allow EBGP neighbors not on directly connected networks\n"
			   "maximum hop count\n")
{
	const char *ttl = cmd_arg(args, "ttl");

	if (cmd_has(args, "no"))
		return bgp_cli_peer_edit(vty, args, "ebgp-multihop", NB_OP_DESTROY, NULL);
	return bgp_cli_peer_edit(vty, args, "ebgp-multihop", NB_OP_MODIFY, ttl ? ttl : "255");
}

DEFCMD(neighbor_ttl_security, NEIGHBOR_CMD " ttl-security hops (1-254)$nhops",
       NEIGHBOR_STR "BGP ttl-security parameters\n"
		    "Specify the maximum number of hops to the BGP peer\n"
		    "Number of hops to BGP peer\n")
{
	return bgp_cli_peer_edit(vty, args, "ttl-security", NB_OP_MODIFY, cmd_arg(args, "nhops"));
}

DEFCMD(no_neighbor_ttl_security, "no " NEIGHBOR_CMD " ttl-security hops [(1-254)]",
       NO_STR NEIGHBOR_STR "BGP ttl-security parameters\n"
			   "Specify the maximum number of hops to the BGP peer\n"
			   "Number of hops to BGP peer\n")
{
	return bgp_cli_peer_edit(vty, args, "ttl-security", NB_OP_DESTROY, NULL);
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

	if (bgp_cli_peer_base(vty, args, peer, sizeof(peer)) < 0)
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

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/update-source/ip", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	snprintf(xpath, sizeof(xpath), "%s/update-source/interface", base);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/* neighbor X timers K H: both, or (no) neither. */
static int timers_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	char base[256], xpath[XPATH_MAX];

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/timers/keepalive", base);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_MODIFY,
			      no ? NULL : cmd_arg(args, "keepalive"));
	snprintf(xpath, sizeof(xpath), "%s/timers/hold-time", base);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_MODIFY,
			      no ? NULL : cmd_arg(args, "holdtime"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(neighbor_timers, NEIGHBOR_CMD " timers (0-65535)$keepalive (0-65535)$holdtime",
       NEIGHBOR_STR "BGP per neighbor timers\n"
		    "Keepalive interval\n"
		    "Holdtime\n")
{
	return timers_edit(vty, args, false);
}

DEFCMD(no_neighbor_timers, "no " NEIGHBOR_CMD " timers [(0-65535) (0-65535)]",
       NO_STR NEIGHBOR_STR "BGP per neighbor timers\n"
			   "Keepalive interval\n"
			   "Holdtime\n")
{
	return timers_edit(vty, args, true);
}

DEFCMD(neighbor_timers_connect, NEIGHBOR_CMD " timers connect (1-65535)$seconds",
       NEIGHBOR_STR "BGP per neighbor timers\n"
		    "BGP connect timer\n"
		    "Connect timer\n")
{
	return bgp_cli_peer_edit(vty, args, "timers/connect-time", NB_OP_MODIFY,
				 cmd_arg(args, "seconds"));
}

DEFCMD(no_neighbor_timers_connect, "no " NEIGHBOR_CMD " timers connect [(1-65535)]",
       NO_STR NEIGHBOR_STR "BGP per neighbor timers\n"
			   "BGP connect timer\n"
			   "Connect timer\n")
{
	return bgp_cli_peer_edit(vty, args, "timers/connect-time", NB_OP_DESTROY, NULL);
}

/* RFC 9687; BIRD's `send hold time`, FRR has no command for it. */
DEFCMD(neighbor_timers_send_hold, NEIGHBOR_CMD " timers send-hold (1-65535)$seconds",
       NEIGHBOR_STR "BGP per neighbor timers\n"
		    "Send hold timer (RFC 9687): drop a peer that reads nothing of ours\n"
		    "Send hold time in seconds (default: the greater of 480 and twice the hold "
		    "time)\n")
{
	return bgp_cli_peer_edit(vty, args, "timers/send-hold-time", NB_OP_MODIFY,
				 cmd_arg(args, "seconds"));
}

DEFCMD(no_neighbor_timers_send_hold, "no " NEIGHBOR_CMD " timers send-hold [(1-65535)]",
       NO_STR NEIGHBOR_STR "BGP per neighbor timers\n"
			   "Send hold timer (RFC 9687): drop a peer that reads nothing of ours\n"
			   "Send hold time in seconds\n")
{
	return bgp_cli_peer_edit(vty, args, "timers/send-hold-time", NB_OP_DESTROY, NULL);
}

void bgp_cli_neighbor_settings_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&neighbor_description_cmd,     &no_neighbor_description_cmd,
		&neighbor_shutdown_cmd,	       &neighbor_passive_cmd,
		&neighbor_connected_check_cmd, &neighbor_local_as_cmd,
		&no_neighbor_local_as_cmd,     &neighbor_local_role_cmd,
		&no_neighbor_local_role_cmd,   &neighbor_adv_interval_cmd,
		&no_neighbor_adv_interval_cmd, &neighbor_password_cmd,
		&no_neighbor_password_cmd,     &neighbor_ebgp_multihop_cmd,
		&neighbor_ttl_security_cmd,    &no_neighbor_ttl_security_cmd,
		&neighbor_update_source_cmd,   &no_neighbor_update_source_cmd,
		&neighbor_timers_cmd,	       &no_neighbor_timers_cmd,
		&neighbor_timers_connect_cmd,  &no_neighbor_timers_connect_cmd,
	};
	/* Issue 13: the shutdown message's no form, the send hold timer. */
	static const struct cmd_def *const ops_cmds[] = {
		&no_neighbor_shutdown_cmd,
		&neighbor_timers_send_hold_cmd,
		&no_neighbor_timers_send_hold_cmd,
	};

	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
	bgp_cli_install(BGP_NODE, ops_cmds, array_size(ops_cmds));
}
