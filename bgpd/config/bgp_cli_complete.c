/* SPDX-License-Identifier: ISC */
/*
 * Completion of configured neighbors: wherever a command binds a neighbor address as $peer
 * (`neighbor X ...` in the router node, `show ip bgp neighbors X`), `?` lists the configured
 * addresses under the placeholder and TAB completes them (FRR's behaviour). Where $peer may
 * also be a peer-group's name (`neighbor <A.B.C.D|X:X::X:X|WORD>$peer`), the configured
 * peer-groups are offered too, under WORD: the engine keeps each value under the placeholders
 * that accept it, and addresses only under the address placeholders.
 *
 * "Configured" is what the operator's session sees: the running instance's peers, or, in a
 * `configure private|exclusive` session, the neighbors of its private candidate (one just
 * added and not yet committed is offered, one deleted is not).
 *
 * The provider registers itself when the program starts (a constructor), so linking this
 * file into bgpd is all it takes: the engine's table needs no allocation and outlives
 * cmd_init()/cmd_terminate().
 */
#include "lib/compat.h"

#include <libyang/libyang.h>

#include "bgpd/config/bgp_cli_complete.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/yang.h"

/* The binding the neighbor commands use for the address ("<A.B.C.D|X:X::X:X>$peer"). */
#define PEER_VARNAME "peer"
/* The binding of a peer-group's name after `peer-group` ("neighbor X peer-group WORD$group",
 * "bgp listen range P peer-group WORD$group"). */
#define GROUP_VARNAME "group"

/* The neighbors of a configuration tree (skua-bgp: bgp/neighbors/neighbor[remote-address]). */
static void tree_peers(const struct lyd_node *tree, cmd_value_add add, void *ctx)
{
	struct lyd_node *nbrs = NULL, *n;

	if (!tree)
		return;
	if (lyd_find_path(tree, BGP_XPATH "/neighbors", 0, &nbrs) != LY_SUCCESS || !nbrs) {
		ly_err_clean(yang_ctx(), NULL);
		return;
	}
	for (n = lyd_child(nbrs); n; n = n->next) {
		const char *addr;

		if (strcmp(LYD_NAME(n), "neighbor") != 0)
			continue;
		addr = yang_dnode_get_string(n, "remote-address");
		if (addr)
			add(addr, ctx);
	}
}

/* The peer-groups of a configuration tree, in configuration order. */
static void tree_peer_groups(const struct lyd_node *tree, cmd_value_add add, void *ctx)
{
	struct lyd_node *groups = NULL, *g;

	if (!tree)
		return;
	if (lyd_find_path(tree, BGP_XPATH "/peer-groups", 0, &groups) != LY_SUCCESS || !groups) {
		ly_err_clean(yang_ctx(), NULL);
		return;
	}
	for (g = lyd_child(groups); g; g = g->next) {
		const char *name;

		if (strcmp(LYD_NAME(g), "peer-group") != 0)
			continue;
		name = yang_dnode_get_string(g, "name");
		if (name)
			add(name, ctx);
	}
}

void bgp_cli_complete_peers(struct vty *vty, cmd_value_add add, void *ctx)
{
	struct bgp *bgp;
	struct bgp_peer *peer;

	if (vty && nb_cli_session_private(vty)) {
		tree_peers(nb_cli_config_tree(vty), add, ctx);
		tree_peer_groups(nb_cli_config_tree(vty), add, ctx);
		return;
	}
	/* Peer-groups exist only as configuration: running's. */
	tree_peer_groups(nb_running(), add, ctx);
	bgp = bgp_get();
	if (!bgp)
		return;
	/* The engine keeps only what the placeholder accepts: IPv4 under A.B.C.D, IPv6 under
	 * X:X::X:X. */
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		add(peer->name, ctx);
}

void bgp_cli_complete_groups(struct vty *vty, cmd_value_add add, void *ctx)
{
	tree_peer_groups(vty && nb_cli_session_private(vty) ? nb_cli_config_tree(vty)
							    : nb_running(),
			 add, ctx);
}

__attribute__((constructor)) static void bgp_cli_complete_register(void)
{
	if (cmd_value_provider_set(PEER_VARNAME, bgp_cli_complete_peers) < 0 ||
	    cmd_value_provider_set(GROUP_VARNAME, bgp_cli_complete_groups) < 0)
		fprintf(stderr, "bgpd: no room to register neighbor completion (a bug: raise "
				"CMD_VALUE_PROVIDERS_MAX)\n");
}
