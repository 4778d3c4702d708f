/* SPDX-License-Identifier: ISC */
/*
 * Harness of the session-side fuzz targets (fuzz_framing, fuzz_fsm): the real instance, session
 * side and RIB on the null kernel, one passive neighbor at a time, and its connections as
 * socketpairs handed to the session as accepted ones, so that an input drives the FSM and the
 * message reader exactly as bytes from a peer would, without a network. Timers are fired by the
 * harness (re-armed to expire at once) instead of waiting for them.
 *
 * Everything bgpd writes to a connection is read back and checked: whole messages with the
 * marker, a length within the limit and a known type; OPENs and NOTIFICATIONs decode. A
 * violation abort()s (our own output must always be acceptable to a peer).
 */
#ifndef SKUA_FUZZ_SESSION_H
#define SKUA_FUZZ_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/session/bgp_session.h"

#define FZ_LOCAL_AS 65001
#define FZ_MAX_CONNS 4 /* our ends of the connections of one input */

/* The neighbor's configuration. */
struct fz_peer_opts {
	bool ipv6;	   /* at 2001:db8::2 rather than 192.0.2.2 */
	uint8_t as_kind;   /* 0: eBGP 65002, 1: iBGP, 2: eBGP 4200000002, 3: remote-as external */
	uint16_t holdtime; /* with timers_configured */
	bool timers;	   /* neighbor X timers 30 holdtime */
	uint32_t local_as; /* neighbor X local-as, 0 = none */
};

/* Once: log off the terminal, the loop, instance AS 65001 router-id 192.0.2.1. */
void fz_session_init(void);
struct event_base *fz_base(void);

/* The neighbor, passive, brought to Active. */
struct bgp_peer *fz_peer_new(const struct fz_peer_opts *o);
/* The peer address's AS for OPENs (what the neighbor is configured with). */
uint32_t fz_peer_as(const struct fz_peer_opts *o);
/* A new connection from the neighbor: our end's slot (0..FZ_MAX_CONNS-1), -1 when none left. */
int fz_connect(struct bgp_peer *peer);
/* Write to our end of a connection, running the loop while the socket is full; false when the
 * connection is gone (bgpd closed it or it was never there). */
bool fz_send(int slot, const void *buf, size_t len);
/* Close our end: bgpd sees the peer's FIN. */
void fz_close(int slot);
bool fz_open_slot(int slot);
/* Run the loop until bgpd has read what was sent (bounded), and check what it wrote. */
void fz_pump(void);
/* End the input: delete the neighbor, close every connection and lingering close. */
void fz_peer_delete(struct bgp_peer *peer);

/* Messages: a header and body into buf (at least 19 + len bytes); its length. */
size_t fz_msg(uint8_t *buf, uint8_t type, const uint8_t *body, size_t len);
/* An OPEN from the neighbor. caps bits: FZ_CAP_*. buf holds 128 bytes. */
#define FZ_CAP_MP4 0x01
#define FZ_CAP_MP6 0x02
#define FZ_CAP_RR 0x04
#define FZ_CAP_AS4 0x08
#define FZ_CAP_EXT 0x10
size_t fz_open(uint8_t *buf, uint32_t asn, uint16_t hold, uint32_t id, unsigned caps);

/* Fire a timer now when it is running (fake clock); true if it was. */
bool fz_fire(struct ev *timer);

#endif /* SKUA_FUZZ_SESSION_H */
