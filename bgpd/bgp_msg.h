/* SPDX-License-Identifier: ISC */
/*
 * The typed boundary between the session side (FSM, sockets, codec framing) and the RIB side
 * (Adj-RIB-In, decision, Adj-RIB-Out), in the spirit of OpenBGPD's imsg: neither side touches
 * the other's structures, only these calls. Today both run in one thread on one loop; the
 * boundary keeps the door open to moving the RIB elsewhere.
 */
#ifndef SKUA_BGP_MSG_H
#define SKUA_BGP_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/bgp_attr.h"
#include "bgpd/bgpd.h"

struct bgp_update;

/* What the session negotiated, as the RIB needs it. Valid while the peer is Established. */
struct bgp_session_info {
	bool af[BGP_AF_MAX]; /* address families negotiated (both sides advertised MP) */
	struct bgp_codec_ctx codec;
	struct in_addr remote_id; /* BGP Identifier from the peer's OPEN */
	uint32_t remote_as;
	bool ebgp;
	bool route_refresh;	  /* peer supports ROUTE-REFRESH */
	struct ipaddr local_addr; /* our address on this session (next hop self) */
	struct ipaddr remote_addr;
	size_t max_msg_size; /* 4096, or 65535 with RFC 8654 */
};

/* ---- RIB side, called by the session side ---- */

struct bgp_rib *rib_new(struct bgp *bgp);
void rib_free(struct bgp_rib *rib);
/* The instance is about to go (before its peers are deleted): the forwarding side removes the
 * kernel's routes in one step, or leaves them (bgp fib retain), rather than route by route. */
void rib_fib_instance(struct bgp_rib *rib, bool up);
/* Peer objects: created with the configured peer, gone with it (show counters live here). */
void rib_peer_attach(struct bgp_peer *peer);
void rib_peer_detach(struct bgp_peer *peer);

void rib_peer_up(struct bgp_peer *peer, const struct bgp_session_info *info);
/* Withdraws every path learned from the peer and drops its Adj-RIB-Out state. */
void rib_peer_down(struct bgp_peer *peer);
/* Consumes upd (releases it). Must be cheap: heavy work is queued and done in bounded batches. */
void rib_update_received(struct bgp_peer *peer, struct bgp_update *upd);
void rib_route_refresh_received(struct bgp_peer *peer, enum bgp_af af);
/* soft-reconfiguration inbound: re-run the inbound policy over the kept Adj-RIB-In (false:
 * nothing kept, ask the peer instead); keep it or drop it after the setting changed. */
bool rib_soft_reconfig_in(struct bgp_peer *peer, enum bgp_af af);
void rib_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af);
/* The session's output queue has room again: continue sending updates. */
void rib_peer_writable(struct bgp_peer *peer);

/* Configuration (network statements, activation changes while up). */
void rib_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
void rib_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p);

/* neighbor X maximum-prefix: compare what the session accepted in af with the limit now (a
 * changed configuration; UPDATEs are checked as they come). */
void rib_max_prefix_check(struct bgp_peer *peer, enum bgp_af af);

/* Counters for show commands. */
uint32_t rib_peer_accepted(const struct bgp_peer *peer, enum bgp_af af); /* pfxRcd */
uint32_t rib_peer_sent(const struct bgp_peer *peer, enum bgp_af af);	 /* pfxSnt */
uint64_t rib_table_version(const struct bgp *bgp);
/* The table version of one address family (FRR shows one per table; rib_table_version() is the
 * sum over the families). */
uint64_t rib_af_table_version(const struct bgp *bgp, enum bgp_af af);
/* "RIB entries" of one address family: the prefixes in its table (FRR's route nodes), and
 * the bytes they take (the per-prefix entries only, as FRR counts them). 0 without a RIB. */
size_t rib_af_count(const struct bgp *bgp, enum bgp_af af);
size_t rib_af_memory(const struct bgp *bgp, enum bgp_af af);

/* ---- session side, called by the RIB side ---- */

/* Bytes that may be queued now without exceeding the peer's output high-water mark. */
size_t session_send_space(const struct bgp_peer *peer);
/* Queue one complete BGP message (header included). -1 when the peer is not Established. */
int session_send(struct bgp_peer *peer, const uint8_t *msg, size_t len);
/* More than `limit` prefixes accepted in af (maximum-prefix without warning-only): close the
 * session with Cease / Maximum Number of Prefixes Reached on the next loop turn and keep it
 * down (bgp_max_prefix.c). */
void session_max_prefix_exceeded(struct bgp_peer *peer, enum bgp_af af, uint32_t limit);
/* Ask the peer to resend (ROUTE-REFRESH), e.g. after an inbound policy change. */
int session_send_route_refresh(struct bgp_peer *peer, enum bgp_af af);

#endif /* SKUA_BGP_MSG_H */
