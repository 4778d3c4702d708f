/* SPDX-License-Identifier: ISC */
/* Completion of configured neighbor addresses for `?` and TAB (lib/command.h providers). */
#ifndef SKUA_BGP_CLI_COMPLETE_H
#define SKUA_BGP_CLI_COMPLETE_H

#include "lib/command.h"

/* The provider registered for $peer (at program start): every configured neighbor's
 * address, in configuration order. Exposed for tests. */
void bgp_cli_complete_peers(struct vty *vty, cmd_value_add add, void *ctx);

#endif /* SKUA_BGP_CLI_COMPLETE_H */
