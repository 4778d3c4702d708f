/* SPDX-License-Identifier: ISC */
/*
 * bgpd's configuration commands: the helpers the files of each concern share
 * (bgp_cli_private.h), and bgp_cli_init().
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_nb.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"

int bgp_cli_peer_arg(struct vty *vty, const struct cmd_args *args, char *buf, size_t size)
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

bool bgp_cli_peer_is_group(const struct cmd_args *args)
{
	const char *s = cmd_arg(args, "peer");

	return s && s[strspn(s, "0123456789.")] != '\0' && !strchr(s, ':');
}

bool bgp_cli_name_ok(struct vty *vty, const char *name)
{
	if (strchr(name, '\'')) {
		vty_out(vty, "%% A peer-group name cannot contain a quote (')\n");
		return false;
	}
	return true;
}

/* FRR's "Specify remote-as or peer-group commands first" for an address, "Create the
 * peer-group first" for a name. */
int bgp_cli_peer_base(struct vty *vty, const struct cmd_args *args, char *base, size_t size)
{
	char peer[IPADDR_STRLEN];

	if (bgp_cli_peer_is_group(args)) {
		const char *name = cmd_arg(args, "peer");

		if (!bgp_cli_name_ok(vty, name))
			return -1;
		snprintf(base, size, BGP_PEER_GROUP_XPATH, name);
		if (!nb_cli_exists(vty, "%s", base)) {
			vty_out(vty, "%% Create the peer-group or interface first\n");
			return -1;
		}
		return 0;
	}
	if (bgp_cli_peer_arg(vty, args, peer, sizeof(peer)) < 0)
		return -1;
	snprintf(base, size, BGP_NEIGHBOR_XPATH, peer);
	if (!nb_cli_exists(vty, "%s", base)) {
		vty_out(vty, "%% Specify remote-as or peer-group commands first\n");
		return -1;
	}
	return 0;
}

int bgp_cli_peer_edit(struct vty *vty, const struct cmd_args *args, const char *leaf,
		      enum nb_operation op, const char *value)
{
	char base[256], xpath[XPATH_MAX];

	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "%s/%s", base, leaf);
	nb_cli_enqueue_change(vty, xpath, op, value);
	return nb_cli_apply_changes(vty, NULL);
}

int bgp_cli_peer_flag(struct vty *vty, const struct cmd_args *args, const char *leaf)
{
	return bgp_cli_peer_edit(vty, args, leaf,
				 cmd_has(args, "no") ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
}

void bgp_cli_install(enum node_type node, const struct cmd_def *const *defs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cmd_install(node, defs[i]);
}

/* The order is that of `router bgp`'s block: the instance, its neighbors, its families. */
void bgp_cli_init(void)
{
	bgp_cli_instance_init();
	bgp_cli_neighbor_init();
	bgp_cli_neighbor_settings_init();
	bgp_cli_af_init();
}
