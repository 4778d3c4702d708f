/* SPDX-License-Identifier: ISC */
/*
 * Dynamic neighbors (`bgp listen range PREFIX peer-group NAME`, `bgp listen limit N`, FRR's
 * semantics): a connection from an address in a range that is no configured neighbor becomes
 * a neighbor of the range's group for as long as its session lives.
 *
 * A dynamic neighbor is not configuration: this file keeps the list (address, group), and the
 * skua-bgp expansion (bgp_peer_group.c) turns each entry into a neighbor of the *effective*
 * tree with the group's settings. Adding or removing one re-expands the running configuration
 * (the configuration layer registers how: bgp_dynamic_set_apply()), so the peer is created,
 * configured, changed with its group and deleted by the same northbound callbacks as a
 * configured member. The ranges with their group's password and ttl-security are also kept
 * here, for the listeners: a TCP-MD5 prefix key and a GTSM prefix rule per range
 * (bgp_network.c), so the handshake of a dynamic neighbor is protected like a configured one's.
 */
#ifndef SKUA_BGP_DYNAMIC_H
#define SKUA_BGP_DYNAMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"
#include "lib/prefix.h"

struct bgp;
struct bgp_peer;

DECLARE_MTYPE(BGP_DYNAMIC); /* the list and the ranges (their passwords) */

#define BGP_LISTEN_LIMIT_DEFAULT 100 /* FRR's */
#define BGP_PEER_GROUP_NAME_MAX 64

/* A range as the listeners need it: the group's password and ttl-security hops. */
struct bgp_listen_range {
	struct prefix prefix;
	char group[BGP_PEER_GROUP_NAME_MAX + 1];
	char *password; /* MTYPE_BGP_DYNAMIC; NULL: none */
	uint8_t ttl_security_hops;
};

/* Re-expand the running configuration after the list changed: 0, or -1 with why. */
typedef int (*bgp_dynamic_apply_fn)(char *why, size_t whylen);
void bgp_dynamic_set_apply(bgp_dynamic_apply_fn fn);

/* The northbound (APPLY): the listen ranges of the effective configuration with their
 * groups' security (ranges and their passwords are MTYPE_BGP_DYNAMIC, taken over) and the
 * limit; the listeners are told when a key or rule changed. No ranges: none left. */
void bgp_dynamic_set_ranges(struct bgp_listen_range *ranges, size_t n, unsigned limit);

/* The instance is gone (its peers with it): forget every dynamic neighbor. */
void bgp_dynamic_reset(void);

/* Every dynamic neighbor, in the order they came. */
void bgp_dynamic_foreach(void (*cb)(const struct ipaddr *addr, const char *group, void *arg),
			 void *arg);
/* Is addr a dynamic neighbor; its group (may be NULL). */
bool bgp_dynamic_lookup(const struct ipaddr *addr, const char **group);
/* The neighbor was destroyed (range or group removed, or the session ended): forget it. */
void bgp_dynamic_forget(const struct ipaddr *addr);

/*
 * accept() of a connection from addr that is no configured neighbor: the dynamic neighbor
 * made for it (its session started, ready for bgp_session_accept()), or NULL when no range
 * covers addr, the limit is reached, or the configuration refused it (logged).
 */
struct bgp_peer *bgp_dynamic_accept(struct bgp *bgp, const struct ipaddr *addr, uint16_t port);
/* The session of a dynamic neighbor ended: it is deleted on the next loop turn. */
void bgp_dynamic_session_ended(struct bgp_peer *peer);

/* For the listeners and show commands. */
size_t bgp_dynamic_ranges(const struct bgp_listen_range **ranges);
unsigned bgp_dynamic_limit(void);
/* The longest range covering addr, or NULL. */
const struct bgp_listen_range *bgp_dynamic_range_match(const struct ipaddr *addr);

#endif /* SKUA_BGP_DYNAMIC_H */
