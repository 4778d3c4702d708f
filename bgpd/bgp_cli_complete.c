/* SPDX-License-Identifier: ISC */
/*
 * Completion of configured neighbors: wherever a command binds a neighbor address as $peer
 * (`neighbor X ...` in the router node, `show ip bgp neighbors X`), `?` lists the configured
 * addresses under the placeholder and TAB completes them (FRR's behaviour).
 *
 * The provider registers itself when the program starts (a constructor), so linking this
 * file into bgpd is all it takes: the engine's table needs no allocation and outlives
 * cmd_init()/cmd_terminate().
 */
#include "lib/compat.h"

#include "bgpd/bgp_cli_complete.h"
#include "bgpd/bgpd.h"
#include "lib/command.h"

/* The binding the neighbor commands use for the address ("<A.B.C.D|X:X::X:X>$peer"). */
#define PEER_VARNAME "peer"

void bgp_cli_complete_peers(struct vty *vty, cmd_value_add add, void *ctx)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;

	(void)vty;
	if (!bgp)
		return;
	/* The engine keeps only what the placeholder accepts: IPv4 under A.B.C.D, IPv6 under
	 * X:X::X:X. */
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		add(peer->name, ctx);
}

__attribute__((constructor)) static void bgp_cli_complete_register(void)
{
	if (cmd_value_provider_set(PEER_VARNAME, bgp_cli_complete_peers) < 0)
		fprintf(stderr, "bgpd: no room to register neighbor completion (a bug: raise "
				"CMD_VALUE_PROVIDERS_MAX)\n");
}
