/* SPDX-License-Identifier: ISC */
/*
 * The typed boundary between the session side (bgpd/session/: FSM, sockets, message framing)
 * and the RIB side (bgpd/rib/: Adj-RIB-In, decision, Adj-RIB-Out), in the spirit of OpenBGPD's
 * imsg: neither side includes the other's headers or touches its structures, only what is
 * declared here crosses.
 *
 *   session -> RIB: the rib_*() calls below (a peer came up or went down, an UPDATE, a
 *                   ROUTE-REFRESH or its BoRR/EoRR arrived, the output queue drained),
 *                   implemented by rib/.
 *   RIB -> session: struct bgp_session_ops, handed to rib_new() by whoever creates the RIB
 *                   (bgpd/instance/ with the session side's table, a test or a benchmark with
 *                   its own), so the RIB library links without the session library.
 *
 * Ownership: struct bgp_session_info is the session's, copied by the RIB at rib_peer_up();
 * an UPDATE handed over with rib_update_received() is the RIB's from then on (it releases it);
 * a message given to bgp_session_ops.send() is copied into the session's output queue before
 * the call returns. Today both sides run in one thread on one loop; the boundary keeps the
 * door open to moving the RIB elsewhere.
 */
#ifndef SKUA_BGP_MSG_H
#define SKUA_BGP_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/wire/bgp_attr.h"

struct bgp_update;
struct bgp_update_peek;

/* What the session negotiated, as the RIB needs it. Valid while the peer is Established. */
struct bgp_session_info {
	bool af[BGP_AF_MAX]; /* address families negotiated (both sides advertised MP) */
	struct bgp_codec_ctx codec;
	struct in_addr remote_id; /* BGP Identifier from the peer's OPEN */
	uint32_t remote_as;
	bool ebgp;		  /* outside our confederation */
	bool confed;		  /* another member AS of it (RFC 5065): attributes as over iBGP */
	bool route_refresh;	  /* peer supports ROUTE-REFRESH */
	bool enhanced_rr;	  /* both advertised enhanced route refresh (RFC 7313) */
	struct ipaddr local_addr; /* our address on this session (next hop self) */
	struct ipaddr remote_addr;
	size_t max_msg_size; /* 4096, or 65535 with RFC 8654 */
	/* Graceful restart (RFC 4724) as negotiated: both sides sent the capability, so we are the
	 * peer's helper when this session goes down. gr_af: the families the peer listed (their
	 * routes are kept across its restart); gr_fwd: those it says kept their forwarding state
	 * (in the OPEN after a restart, the families whose stale routes stay until End-of-RIB). */
	bool gr;
	bool gr_notification; /* both sent the N bit (RFC 8538): NOTIFICATIONs keep GR */
	bool gr_restarting;   /* the peer's R bit: it has just restarted */
	uint16_t gr_time;     /* the peer's restart time, seconds */
	bool gr_af[BGP_AF_MAX];
	bool gr_fwd[BGP_AF_MAX];
	/* Long-lived graceful restart (RFC 9494), negotiated, and the peer's per-family values. */
	bool llgr;
	bool llgr_af[BGP_AF_MAX];
	bool llgr_fwd[BGP_AF_MAX];
	uint32_t llgr_time[BGP_AF_MAX];
};

/* ---- the RIB side, called by the session side (implemented by bgpd/rib/) ---- */

void rib_peer_up(struct bgp_peer *peer, const struct bgp_session_info *info);
/* Withdraws every path learned from the peer and drops its Adj-RIB-Out state (routes kept
 * stale by graceful restart from an earlier loss go too). */
void rib_peer_down(struct bgp_peer *peer);
/* The session was lost in a way graceful restart covers (RFC 4724 4.2: TCP loss, hold timer;
 * RFC 8538: a NOTIFICATION other than Hard Reset with both N bits): when GR was negotiated,
 * the peer's routes of the families its capability listed stay, stale, until it is back and
 * sends End-of-RIB or a timer runs out (bgpd/rib/bgp_rib_gr.h); otherwise as rib_peer_down(). */
void rib_peer_down_graceful(struct bgp_peer *peer);
/* The peer is shut down or reset by the operator: routes kept stale from an earlier loss go. */
void rib_peer_gr_flush(struct bgp_peer *peer);
/* Consumes upd (releases it). Must be cheap: heavy work is queued and done in bounded batches. */
void rib_update_received(struct bgp_peer *peer, struct bgp_update *upd);
/* A hint before UPDATEs are handed over: these prefixes (bgp_update_peek()) come next, so
 * the RIB may bring their entries into the cache together. Changes nothing. */
void rib_prefetch(struct bgp_peer *peer, const struct bgp_update_peek *pk);
/* The peer asked for af again (ROUTE-REFRESH): the table is resent, between BoRR and EoRR
 * when enhanced route refresh was negotiated (RFC 7313 4). */
void rib_route_refresh_received(struct bgp_peer *peer, enum bgp_af af);
/* The peer's BoRR / EoRR for af (RFC 7313 4): its routes of af not re-announced between them
 * are removed at the EoRR. Only called when enhanced route refresh was negotiated. */
void rib_refresh_begin_received(struct bgp_peer *peer, enum bgp_af af);
void rib_refresh_end_received(struct bgp_peer *peer, enum bgp_af af);
/* The session's output queue has room again: continue sending updates. */
void rib_peer_writable(struct bgp_peer *peer);

/* ---- the session side, as the RIB calls it (implemented by bgpd/session/) ---- */

struct bgp_session_ops {
	/* Bytes that may be queued now without exceeding the peer's output high-water mark. */
	size_t (*send_space)(const struct bgp_peer *peer);
	/* Queue one complete BGP message (header included). -1 when the peer is not
	 * Established. */
	int (*send)(struct bgp_peer *peer, const uint8_t *msg, size_t len);
	/* More than `limit` prefixes accepted in af (maximum-prefix without warning-only):
	 * close the session with Cease / Maximum Number of Prefixes Reached on the next loop
	 * turn and keep it down. */
	void (*max_prefix_exceeded)(struct bgp_peer *peer, enum bgp_af af, uint32_t limit);
	/* Ask the peer to resend (ROUTE-REFRESH), e.g. after an inbound policy change; -1 when
	 * it cannot (logged). */
	int (*send_route_refresh)(struct bgp_peer *peer, enum bgp_af af);
	/* May be NULL. Give back memory the session holds and does not use now (its input
	 * buffer's pages when it holds no data): the RIB calls it after a large release. */
	void (*release_idle)(struct bgp_peer *peer);
};

#endif /* SKUA_BGP_MSG_H */
