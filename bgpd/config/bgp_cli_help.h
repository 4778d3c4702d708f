/* SPDX-License-Identifier: ISC */
/*
 * Help strings bgpd's commands share, FRR's wording (the generic ones are in lib/command.h).
 */
#ifndef SKUA_BGP_CLI_HELP_H
#define SKUA_BGP_CLI_HELP_H

#include "lib/command.h"

#define BGP_STR "BGP information\n"
#define AF_STR "Address Family\n"
#define SAFI_STR "Address Family modifier\n"

#endif /* SKUA_BGP_CLI_HELP_H */
