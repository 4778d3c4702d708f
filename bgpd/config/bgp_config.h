/* SPDX-License-Identifier: ISC */
/* bgpd's configuration layer: one call at start-up. */
#ifndef SKUA_BGP_CONFIG_H
#define SKUA_BGP_CONFIG_H

/*
 * Register the skua-system, skua-bgp and skua-policy models with their callbacks and printers,
 * install the system and bgpd configuration commands and `show running-config [json]` / `write
 * terminal`. Call after cmd_init() and nb_init(); then nb_config_load_file() (lib/northbound.h).
 */
void bgp_config_init(void);
/* The event loop the instance will run on, once the daemon has one (after it went to the
 * background): `router bgp` creates the instance on it. Until then (bgpd -C) an instance is
 * created without a loop, to be checked, never run. */
struct event_base;
void bgp_config_set_event_base(struct event_base *base);
struct event_base *bgp_config_event_base(void);
/* The policy objects' commands and model tables, called by bgp_config_init(): `bgp as-path
 * access-list` (bgp_aspath_list_cli.c), `route-map` and its mode (bgp_routemap_cli.c),
 * `bgp [large-]community-list` (bgp_clist_cli.c). Their show commands are bgpd/show/'s. */
void bgp_aspath_list_cli_init(void);
void bgp_routemap_cli_init(void);
void bgp_clist_cli_init(void);
/* The rpki node (bgp_rpki_cli.c): skua-rpki's callbacks and printer, the configuration
 * commands; the RTR manager (bgpd/rtr/rtr.h) is told. */
void bgp_rpki_cli_init(void);

#endif /* SKUA_BGP_CONFIG_H */
