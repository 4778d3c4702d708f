/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists on the CLI: `ip prefix-list` / `ipv6 prefix-list` configuration commands
 * (lib/plist_cli.c), their northbound callbacks and running-config printers
 * (lib/plist_nb.c), and `show ip|ipv6 prefix-list ...` (lib/plist_show.c).
 */
#ifndef SKUA_PLIST_CLI_H
#define SKUA_PLIST_CLI_H

#include "lib/northbound.h"

#define POLICY_XPATH "/skua-policy:policy"
#define PLIST_XPATH POLICY_XPATH "/prefix-list"

/* The northbound table for skua-policy's prefix lists. */
extern const struct nb_module_info plist_nb_module;

/* Register the callbacks and install the commands (configuration and show). */
void plist_cli_init(void);
void plist_show_init(void);

#endif /* SKUA_PLIST_CLI_H */
