/* SPDX-License-Identifier: ISC */
/* Route show commands: `show ip bgp`, `show bgp ipv4|ipv6 unicast` [prefix] [json]. */
#ifndef SKUA_BGP_SHOW_ROUTE_H
#define SKUA_BGP_SHOW_ROUTE_H

/* Install the commands (the daemon's main calls this once, after cmd_init()). */
void bgp_show_route_init(void);

#endif /* SKUA_BGP_SHOW_ROUTE_H */
