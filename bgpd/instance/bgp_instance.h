/* SPDX-License-Identifier: ISC */
/*
 * The instance's lifecycle, as the configuration layer drives it: `router bgp` creates the
 * instance with its RIB, a neighbor statement creates a peer with its session half and its
 * RIB half, and a changed setting is routed to the side that must act (a session reset, a live
 * socket option, a RIB re-evaluation). The structures are bgpd/core/bgp.h's.
 */
#ifndef SKUA_BGP_INSTANCE_H
#define SKUA_BGP_INSTANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"

struct event_base;

/* Why the configuration of a peer changed: the session side decides what it needs to do. */
enum bgp_peer_change {
	BGP_PEER_CHG_REMOTE_AS,
	BGP_PEER_CHG_DESCRIPTION,
	BGP_PEER_CHG_SHUTDOWN,
	BGP_PEER_CHG_PASSIVE,
	BGP_PEER_CHG_TIMERS,
	BGP_PEER_CHG_CONNECT_RETRY,
	BGP_PEER_CHG_UPDATE_SOURCE,
	BGP_PEER_CHG_MULTIHOP,
	BGP_PEER_CHG_AF_ACTIVATION,
	BGP_PEER_CHG_PASSWORD,
	BGP_PEER_CHG_TTL_SECURITY,
	BGP_PEER_CHG_CONNECTED_CHECK,
	BGP_PEER_CHG_LOCAL_AS,
};

/* The running instance, or NULL before `router bgp`. For the layers on top (configuration,
 * show commands); the layers below are handed the instance they work for. */
struct bgp *bgp_get(void);

/* `router bgp asn`, run on base; NULL when another AS is running. */
struct bgp *bgp_create(uint32_t asn, struct event_base *base);
void bgp_delete(struct bgp *bgp); /* stops every session (Cease) and frees everything */

struct bgp_peer *bgp_peer_create(struct bgp *bgp, const struct ipaddr *addr);
void bgp_peer_delete(struct bgp_peer *peer); /* Cease to the peer, withdraw its routes, free */
void bgp_peer_config_changed(struct bgp_peer *peer, enum bgp_peer_change what);

void bgp_router_id_changed(struct bgp *bgp); /* reset sessions, as FRR does */
void bgp_timers_changed(struct bgp *bgp);    /* applies to new sessions */
void bgp_default_af_changed(struct bgp *bgp);
/* neighbor X maximum-prefix changed for af: the accepted count is checked against it at once
 * (FRR), and a session held down by the old limit may come up. */
void bgp_max_prefix_changed(struct bgp_peer *peer, enum bgp_af af);
int bgp_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
/* network P route-map NAME: the statement's route-map (NULL or "" = none), applied at once. */
int bgp_network_set_rmap(struct bgp *bgp, enum bgp_af af, const struct prefix *p, const char *rmap);
int bgp_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p);

/* Graceful stop (SIGTERM): Cease to every peer, then the caller exits the loop. */
void bgp_shutdown_all(struct bgp *bgp);

#endif /* SKUA_BGP_INSTANCE_H */
