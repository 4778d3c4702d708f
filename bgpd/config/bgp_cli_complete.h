/* SPDX-License-Identifier: ISC */
/* Completion of configured neighbors and peer-groups for `?` and TAB (lib/command.h
 * providers). */
#ifndef SKUA_BGP_CLI_COMPLETE_H
#define SKUA_BGP_CLI_COMPLETE_H

#include "lib/command.h"

/* The provider registered for $peer (at program start): the address of every neighbor the
 * vty's session sees (running's peers in configuration order, or the private candidate's
 * neighbors in a `configure private|exclusive` session). Exposed for tests. */
void bgp_cli_complete_peers(struct vty *vty, cmd_value_add add, void *ctx);
/* The provider registered for $group: the name of every peer-group the session sees. */
void bgp_cli_complete_groups(struct vty *vty, cmd_value_add add, void *ctx);

#endif /* SKUA_BGP_CLI_COMPLETE_H */
