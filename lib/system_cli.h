/* SPDX-License-Identifier: ISC */
/*
 * Daemon-wide configuration (YANG module skua-system): `hostname`, `log file|syslog|stdout`.
 * Commands, northbound callbacks and running-config printers in one small place.
 */
#ifndef SKUA_SYSTEM_CLI_H
#define SKUA_SYSTEM_CLI_H

/* Register the skua-system module (it prints first in show running-config) and install its
 * commands into CONFIG_NODE. Needs cmd_init() and nb_init() first. */
void system_cli_init(void);

#endif /* SKUA_SYSTEM_CLI_H */
