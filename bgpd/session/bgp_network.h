/* SPDX-License-Identifier: ISC */
/*
 * Listening sockets (port 179 by default, `-p PORT` and `-l ADDR` for labs) and the matching
 * of accepted connections to configured peers. Outgoing connections are in the session side
 * (bgp_conn_connect(), declared in bgp_session.h).
 */
#ifndef SKUA_BGP_NETWORK_H
#define SKUA_BGP_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/memory.h"
#include "lib/prefix.h"

struct event_base;
struct bgp_peer;

DECLARE_MTYPE(BGP_LISTENER_RULES); /* the GTSM rules in force on a listener */

/*
 * Listen on addr (NULL: the IPv4 and IPv6 wildcards, IPv6 with IPV6_V6ONLY) and port (0 picks
 * a free port; see bgp_network_listen_port()). Returns the number of sockets opened, or a
 * negative errno (the reason is logged) when one could not be: the port is taken (another BGP
 * speaker in this network namespace), the address is not ours... Only an IPv6 wildcard on a
 * host without IPv6 is skipped.
 */
int bgp_network_listen(struct event_base *base, const char *addr, uint16_t port);
/*
 * Would bgp_network_listen(addr, port) find the port free? 0 or a negative errno
 * (-EADDRINUSE: another BGP speaker listens in this network namespace). bgpd asks at start-up,
 * before it touches the kernel's routes or reads its configuration; it listens only once the
 * configuration's keys and GTSM rules can be installed on the listener before listen().
 */
int bgp_network_port_free(const char *addr, uint16_t port);
/* The port the i-th listener is bound to, 0 if there is none. */
uint16_t bgp_network_listen_port(int i);
void bgp_network_stop(void);

/*
 * The listeners follow the configuration (bgpd/instance/ calls these after the change is in
 * peer->conf): the peer's TCP-MD5 key is installed on (or removed from) every listener; the
 * GTSM rules of every listener are rebuilt from the configured peers. Connections of the peer
 * that were already queued in the accept queue are closed unread (their handshake predates
 * the key or rule). A failure is logged and the peer's incoming connections are refused until
 * it is repaired (fail closed); its outgoing ones are protected by their own sockets.
 */
void bgp_network_peer_password(struct bgp_peer *peer);
void bgp_network_peer_gtsm(struct bgp_peer *peer);
/* The peer goes: its key leaves the listeners, and its GTSM rule. */
void bgp_network_peer_delete(struct bgp_peer *peer);
/* The listen ranges (bgp_dynamic.h) changed from old: their TCP-MD5 prefix keys and GTSM
 * prefix rules on every listener follow. */
struct bgp_listen_range;
void bgp_network_ranges_changed(const struct bgp_listen_range *old, size_t nold);

/* Is the handshake of this peer TTL-checked on every listener that can receive it? */
enum bgp_listener_cover {
	BGP_LISTENER_COVER_NA,	/* no ttl-security on this peer */
	BGP_LISTENER_COVER_YES, /* every listener of its family has a rule this strict */
	BGP_LISTENER_COVER_NO,	/* a listener lacks the rule: incoming connections refused */
};
enum bgp_listener_cover bgp_network_gtsm_cover(const struct bgp_peer *peer);

/* The instance whose peers the listeners match connections to (the instance layer sets it
 * when it creates the instance, clears it when it deletes it). */
struct bgp;
void bgp_network_set_instance(struct bgp *bgp);

/* The i-th listener, for `show bgp gtsm`; -1 when there is none. */
struct bgp_listener_info {
	struct ipaddr addr;
	uint16_t port;
	bool open;			   /* false: it failed to reopen after an error */
	bool group;			   /* a GTSM listener group; false: a plain socket */
	bool stale;			   /* its last rule update failed; older rules in force */
	unsigned rules;			   /* GTSM peers in its programs */
	unsigned selector_len, filter_len; /* instructions */
};
int bgp_network_listener_info(int i, struct bgp_listener_info *info);

/* The port outgoing connections go to (179; tests and labs on one host use others). */
void bgp_network_set_remote_port(uint16_t port);

#endif /* SKUA_BGP_NETWORK_H */
