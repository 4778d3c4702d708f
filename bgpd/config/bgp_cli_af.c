/* SPDX-License-Identifier: ISC */
/*
 * `address-family ipv4|ipv6 [unicast]` and what is configured in one: the networks to
 * announce, and the per-family `neighbor PEER ...` settings (activation, policy, route
 * reflection, limits). The family is the node's; Quagga wrote IPv4 unicast settings at the
 * router level, which is accepted (hidden) and printed back in FRR's form.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/config/bgp_netmask.h"
#include "bgpd/core/bgp.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/yang.h"

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

/* The path below a neighbor of its setting leaf in the node's family (IPv4 unicast at the
 * router level). */
static void af_leaf(const struct vty *vty, char *buf, size_t size, const char *leaf)
{
	snprintf(buf, size, "afi-safis/%s/%s",
		 vty->node == BGP_IPV6_NODE ? "ipv6-unicast" : "ipv4-unicast", leaf);
}

static bool is_ipv6_link_local(const struct prefix *p)
{
	return p->family == AF_INET6 && p->u.bytes[0] == 0xfe && (p->u.bytes[1] & 0xc0) == 0x80;
}

/* [no] network P [route-map NAME] in the address family af_xpath (P: s, A.B.C.D/M or
 * X:X::X:X/M). */
static int network_edit(struct vty *vty, const struct cmd_args *args, const char *af_xpath,
			const char *s)
{
	const char *rmap = cmd_arg(args, "rmap");
	char canon[PREFIX_STRLEN], xpath[XPATH_MAX], leaf[XPATH_MAX + 16];
	bool no = cmd_has(args, "no");
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
	if (rmap && strlen(rmap) >= BGP_RMAP_NAME_MAX) {
		vty_out(vty, "%% Route-map name %s is too long (at most %d characters)\n", rmap,
			BGP_RMAP_NAME_MAX - 1);
		return CMD_WARNING_CONFIG_FAILED;
	}
	prefix_to_str(&p, canon, sizeof(canon));
	snprintf(xpath, sizeof(xpath), "%s/network[prefix='%s']", af_xpath, canon);
	if (no && !nb_cli_exists(vty, "%s", xpath)) {
		vty_out(vty, "%% Can't find static route specified\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (no) {
		/* FRR: `no network P route-map NAME` removes the statement, whatever the name. */
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	/* As FRR's bgp_static_set(): a line replaces the statement's route-map, so `network P`
	 * after `network P route-map NAME` removes it. */
	snprintf(leaf, sizeof(leaf), "%s/route-map", xpath);
	nb_cli_enqueue_change(vty, leaf, rmap ? NB_OP_MODIFY : NB_OP_DESTROY, rmap);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_network4, "[no] network A.B.C.D/M$prefix [route-map RMAP_NAME$rmap]",
       NO_STR "Specify a network to announce via BGP\n"
	      "IPv4 prefix\n"
	      "Route-map to modify the attributes\n"
	      "Name of the route map\n")
{
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, cmd_arg(args, "prefix"));
}

/* FRR's older spellings: address and mask, or the address's class length. */
DEFCMD(bgp_network4_mask,
       "[no] network A.B.C.D$addr [mask A.B.C.D$mask] [route-map RMAP_NAME$rmap]",
       NO_STR "Specify a network to announce via BGP\n"
	      "Network number\n"
	      "Network mask\n"
	      "Network mask\n"
	      "Route-map to modify the attributes\n"
	      "Name of the route map\n")
{
	char prefix[PREFIX_STRLEN], err[160];

	if (bgp_netmask_prefix(cmd_arg(args, "addr"), cmd_arg(args, "mask"), prefix, sizeof(prefix),
			       err, sizeof(err)) < 0) {
		vty_out(vty, "%% %s\n", err);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return network_edit(vty, args, BGP_AF_IPV4_XPATH, prefix);
}

DEFCMD(bgp_network6, "[no] network X:X::X:X/M$prefix [route-map RMAP_NAME$rmap]",
       NO_STR "Specify a network to announce via BGP\n"
	      "IPv6 prefix\n"
	      "Route-map to modify the attributes\n"
	      "Name of the route map\n")
{
	return network_edit(vty, args, BGP_AF_IPV6_XPATH, cmd_arg(args, "prefix"));
}

DEFCMD(neighbor_activate, "[no] " NEIGHBOR_CMD " activate",
       NO_STR NEIGHBOR_STR "Enable the Address Family for this Neighbor\n")
{
	char leaf[64];

	af_leaf(vty, leaf, sizeof(leaf), "enabled");
	return bgp_cli_peer_edit(vty, args, leaf, NB_OP_MODIFY,
				 cmd_has(args, "no") ? "false" : "true");
}

/* neighbor X prefix-list|filter-list|route-map NAME <in|out>; kind is the leaf names' stem
 * ("plist", "filter-list", "route-map"). */
static int filter_edit(struct vty *vty, const struct cmd_args *args, const char *kind, bool no)
{
	const char *name = cmd_arg(args, "name");
	char stem[64], leaf[96];

	if (name && strchr(name, '\'')) {
		vty_out(vty, "%% A list name cannot contain a quote (')\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(stem, sizeof(stem), "filter-config/%s-%s", kind,
		 strcmp(cmd_arg(args, "dir"), "in") == 0 ? "import" : "export");
	af_leaf(vty, leaf, sizeof(leaf), stem);
	return bgp_cli_peer_edit(vty, args, leaf, no ? NB_OP_DESTROY : NB_OP_MODIFY,
				 no ? NULL : name);
}

#define PREFIX_LIST_HELP                         \
	"Filter updates to/from this neighbor\n" \
	"Name of a prefix list\n"                \
	"Filter incoming updates\n"              \
	"Filter outgoing updates\n"

DEFCMD(neighbor_prefix_list, NEIGHBOR_CMD " prefix-list WORD$name <in|out>$dir",
       NEIGHBOR_STR PREFIX_LIST_HELP)
{
	return filter_edit(vty, args, "plist", false);
}

DEFCMD(no_neighbor_prefix_list, "no " NEIGHBOR_CMD " prefix-list [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR PREFIX_LIST_HELP)
{
	return filter_edit(vty, args, "plist", true);
}

#define FILTER_LIST_HELP             \
	"Establish BGP filters\n"    \
	"AS path access-list name\n" \
	"Filter incoming routes\n"   \
	"Filter outgoing routes\n"

DEFCMD(neighbor_filter_list, NEIGHBOR_CMD " filter-list WORD$name <in|out>$dir",
       NEIGHBOR_STR FILTER_LIST_HELP)
{
	return filter_edit(vty, args, "filter-list", false);
}

DEFCMD(no_neighbor_filter_list, "no " NEIGHBOR_CMD " filter-list [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR FILTER_LIST_HELP)
{
	return filter_edit(vty, args, "filter-list", true);
}

#define ROUTE_MAP_HELP                   \
	"Apply route map to neighbor\n"  \
	"Name of route map\n"            \
	"Apply map to incoming routes\n" \
	"Apply map to outbound routes\n"

DEFCMD(neighbor_route_map, NEIGHBOR_CMD " route-map WORD$name <in|out>$dir",
       NEIGHBOR_STR ROUTE_MAP_HELP)
{
	return filter_edit(vty, args, "route-map", false);
}

DEFCMD(no_neighbor_route_map, "no " NEIGHBOR_CMD " route-map [WORD$name] <in|out>$dir",
       NO_STR NEIGHBOR_STR ROUTE_MAP_HELP)
{
	return filter_edit(vty, args, "route-map", true);
}

DEFCMD(neighbor_rr_client, "[no] " NEIGHBOR_CMD " route-reflector-client",
       NO_STR NEIGHBOR_STR "Configure a neighbor as Route Reflector client\n")
{
	char leaf[96];

	af_leaf(vty, leaf, sizeof(leaf), "route-reflector-client");
	return bgp_cli_peer_flag(vty, args, leaf);
}

DEFCMD(neighbor_rpa, "[no] " NEIGHBOR_CMD " remove-private-AS [all] [replace-AS]",
       NO_STR NEIGHBOR_STR "Remove private ASNs in outbound updates\n"
			   "Apply to all AS numbers\n"
			   "Replace private ASNs with our ASN in outbound updates\n")
{
	bool all = cmd_has(args, "all"), replace = cmd_has(args, "replace-AS");
	char leaf[96];

	af_leaf(vty, leaf, sizeof(leaf), "remove-private-as");
	if (cmd_has(args, "no"))
		return bgp_cli_peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	return bgp_cli_peer_edit(vty, args, leaf, NB_OP_MODIFY,
				 all ? (replace ? "all-replace-as" : "all")
				     : (replace ? "replace-as" : "remove"));
}

/* neighbor X send-community [KIND] / no ...: FRR's kinds (no word: standard; both: standard
 * and extended), kept as the bits of those sent; all three sent is no leaf at all. */
DEFCMD(neighbor_send_comm,
       "[no] " NEIGHBOR_CMD " send-community [<both|all|extended|standard|large>$kind]",
       NO_STR NEIGHBOR_STR "Send Community attribute to this neighbor\n"
			   "Send Standard and Extended Community attributes\n"
			   "Send Standard, Large and Extended Community attributes\n"
			   "Send Extended Community attributes\n"
			   "Send Standard Community attributes\n"
			   "Send Large Community attributes\n")
{
	static const char *const names[] = { "standard", "extended", "large" };
	const char *kind = cmd_arg(args, "kind"), *cur;
	char base[256], leaf[96], bits[40] = "";
	unsigned sent = 7, which;

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	af_leaf(vty, leaf, sizeof(leaf), "send-community");
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
	sent = cmd_has(args, "no") ? sent & ~which : sent | which;
	if (sent == 7)
		return bgp_cli_peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	for (unsigned i = 0; i < 3; i++)
		if (sent & (1u << i))
			snprintf(bits + strlen(bits), sizeof(bits) - strlen(bits), "%s%s",
				 bits[0] ? " " : "", names[i]);
	return bgp_cli_peer_edit(vty, args, leaf, NB_OP_MODIFY, bits);
}

DEFCMD(neighbor_soft_in, "[no] " NEIGHBOR_CMD " soft-reconfiguration inbound",
       NO_STR NEIGHBOR_STR "Per neighbor soft reconfiguration\n"
			   "Allow inbound soft reconfiguration for this neighbor\n")
{
	char leaf[96];

	af_leaf(vty, leaf, sizeof(leaf), "soft-reconfiguration-inbound");
	return bgp_cli_peer_flag(vty, args, leaf);
}

DEFCMD(neighbor_allowas, "[no] " NEIGHBOR_CMD " allowas-in [<(1-10)$count|origin>]",
       NO_STR NEIGHBOR_STR "Accept as-path with my AS present in it\n"
			   "Number of occurrences of AS number\n"
			   "Only accept my AS in the as-path if the route was originated in my "
			   "AS\n")
{
	const char *n = cmd_arg(args, "count");
	char leaf[96];

	af_leaf(vty, leaf, sizeof(leaf), "allowas-in");
	if (cmd_has(args, "no"))
		return bgp_cli_peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	return bgp_cli_peer_edit(vty, args, leaf, NB_OP_MODIFY,
				 cmd_has(args, "origin") ? "origin"
				 : n			 ? n
							 : "3");
}

/* neighbor X maximum-prefix N [THRESHOLD] [warning-only|restart MINUTES]: the whole statement
 * replaces the previous one (FRR: a threshold, warning-only or restart left out goes back to
 * its default). */
static int maxpfx_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	char base[256], leaf[96], mp[XPATH_MAX], xpath[XPATH_MAX + 16];
	const char *v;

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	af_leaf(vty, leaf, sizeof(leaf), "maximum-prefix");
	snprintf(mp, sizeof(mp), "%s/%s", base, leaf);
	nb_cli_enqueue_change(vty, mp, NB_OP_DESTROY, NULL);
	if (no)
		return nb_cli_apply_changes(vty, NULL);
	nb_cli_enqueue_change(vty, mp, NB_OP_CREATE, NULL);
	snprintf(xpath, sizeof(xpath), "%s/max", mp);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, cmd_arg(args, "max"));
	if ((v = cmd_arg(args, "threshold"))) {
		snprintf(xpath, sizeof(xpath), "%s/threshold", mp);
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, v);
	}
	if (cmd_has(args, "warning-only")) {
		snprintf(xpath, sizeof(xpath), "%s/warning-only", mp);
		nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	}
	if ((v = cmd_arg(args, "minutes"))) {
		snprintf(xpath, sizeof(xpath), "%s/restart", mp);
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
	return maxpfx_edit(vty, args, false);
}

DEFCMD(no_neighbor_maxpfx,
       "no " NEIGHBOR_CMD " maximum-prefix [(1-4294967295)$max [(1-100)$threshold] "
       "[<warning-only|restart (1-65535)$minutes>]]",
       NO_STR NEIGHBOR_STR MAXPFX_HELP)
{
	return maxpfx_edit(vty, args, true);
}

DEFCMD(neighbor_nhs, "[no] " NEIGHBOR_CMD " next-hop-self [force]",
       NO_STR NEIGHBOR_STR "Disable the next hop calculation for this neighbor\n"
			   "Set the next hop to self for reflected routes\n")
{
	char leaf[96];

	af_leaf(vty, leaf, sizeof(leaf), "next-hop-self");
	if (cmd_has(args, "no"))
		return bgp_cli_peer_edit(vty, args, leaf, NB_OP_DESTROY, NULL);
	return bgp_cli_peer_edit(vty, args, leaf, NB_OP_MODIFY,
				 cmd_has(args, "force") ? "force" : "self");
}

void bgp_cli_af_init(void)
{
	static const struct cmd_def *const af_cmds[] = {
		&neighbor_activate_cmd,
		&neighbor_prefix_list_cmd,
		&no_neighbor_prefix_list_cmd,
		&neighbor_filter_list_cmd,
		&no_neighbor_filter_list_cmd,
		&neighbor_rr_client_cmd,
		&neighbor_rpa_cmd,
		&neighbor_send_comm_cmd,
		&neighbor_soft_in_cmd,
		&neighbor_allowas_cmd,
		&neighbor_maxpfx_cmd,
		&no_neighbor_maxpfx_cmd,
		&neighbor_nhs_cmd,
		&neighbor_route_map_cmd,
		&no_neighbor_route_map_cmd,
	};
	/* The IPv4 unicast commands Quagga wrote at the router level: the same definitions,
	 * hidden there (af_leaf() of BGP_NODE is IPv4 unicast). */
	static const struct cmd_def *const quagga_forms[] = {
		&neighbor_soft_in_cmd,
		&neighbor_rr_client_cmd,
		&neighbor_nhs_cmd,
		&neighbor_route_map_cmd,
		&no_neighbor_route_map_cmd,
		&neighbor_filter_list_cmd,
		&no_neighbor_filter_list_cmd,
		&neighbor_prefix_list_cmd,
		&no_neighbor_prefix_list_cmd,
		&neighbor_send_comm_cmd,
		&neighbor_activate_cmd,
		&bgp_network4_cmd,
		&bgp_network4_mask_cmd,
	};
	static struct cmd_def quagga_hidden[array_size(quagga_forms)];

	cmd_install(BGP_NODE, &address_family_cmd);
	for (size_t i = 0; i < array_size(quagga_forms); i++) {
		quagga_hidden[i] = *quagga_forms[i];
		quagga_hidden[i].flags |= CMD_HIDDEN;
		cmd_install(BGP_NODE, &quagga_hidden[i]);
	}
	cmd_install(BGP_IPV4_NODE, &bgp_network4_cmd);
	cmd_install(BGP_IPV4_NODE, &bgp_network4_mask_cmd);
	bgp_cli_install(BGP_IPV4_NODE, af_cmds, array_size(af_cmds));
	cmd_install(BGP_IPV6_NODE, &bgp_network6_cmd);
	bgp_cli_install(BGP_IPV6_NODE, af_cmds, array_size(af_cmds));
}
