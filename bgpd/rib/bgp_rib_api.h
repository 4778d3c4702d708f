/* SPDX-License-Identifier: ISC */
/*
 * The RIB as the layers above it use it (bgpd/instance/, config/, show/): creating it for an
 * instance, attaching peers, the configuration it follows, and the counters the show commands
 * print. What the session side calls is in bgpd/core/bgp_msg.h; the forwarding side's ops
 * table in bgpd/rib/bgp_rib.h.
 */
#ifndef SKUA_BGP_RIB_API_H
#define SKUA_BGP_RIB_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"

/* The RIB of bgp, which runs its deferred work on bgp->base (NULL: only rib_work_run() runs
 * it, in tests) and talks to sessions through sops (kept: it must outlive the RIB). */
struct bgp_rib *rib_new(struct bgp *bgp, const struct bgp_session_ops *sops);
void rib_free(struct bgp_rib *rib);
/* The instance is about to go (before its peers are deleted): the forwarding side removes the
 * kernel's routes in one step, or leaves them (bgp fib retain), rather than route by route. */
void rib_fib_instance(struct bgp_rib *rib, bool up);
/* Peer objects: created with the configured peer, gone with it (show counters live here). */
void rib_peer_attach(struct bgp_peer *peer);
void rib_peer_detach(struct bgp_peer *peer);

/* A best-path knob changed (bgp->bestpath): every prefix is decided again (bgp_decision.c). */
void bgp_bestpath_changed(struct bgp *bgp);

/* soft-reconfiguration inbound: re-run the inbound policy over the kept Adj-RIB-In (false:
 * nothing kept, ask the peer instead); keep it or drop it after the setting changed. */
bool rib_soft_reconfig_in(struct bgp_peer *peer, enum bgp_af af);
void rib_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af);
/* Keep or drop the peer's routes as received for af as its configuration now asks
 * (soft-reconfiguration inbound, or an inbound route-map with match rpki / match aspa). true:
 * it began keeping them and asked the peer to send them again (a ROUTE-REFRESH). */
bool rib_adj_in_update(struct bgp_peer *peer, enum bgp_af af);
/* Does the peer's session keep its routes as received for af now (for either reason)? */
bool rib_adj_in_kept(const struct bgp_peer *peer, enum bgp_af af);

/* Send the peer's table of af again (clear soft out, an outbound policy change): like a
 * ROUTE-REFRESH from it, but without BoRR/EoRR, as FRR. */
void rib_resend(struct bgp_peer *peer, enum bgp_af af);
/* Is the peer between its BoRR and its EoRR for af (enhanced route refresh)? */
bool rib_refresh_in_progress(const struct bgp_peer *peer, enum bgp_af af);

/* Configuration (network statements, activation changes while up). */
void rib_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
/* The same with the statement's attributes (its route-map's sets; NULL: the plain local ones)
 * and the outcome of `bgp network import-check` (import_ok false: in the table, not valid, as
 * FRR shows such a statement); a change of either re-decides the prefix. */
void rib_network_set(struct bgp *bgp, enum bgp_af af, const struct prefix *p, struct bgp_attr *attr,
		     bool import_ok);
void rib_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
/* aggregate-address P [OPTIONS]: originated while a more specific route is in the Loc-RIB
 * (bgp_rib_aggregate.c). Adding one that exists changes its options. */
struct rib_aggregate_opts {
	bool as_set;	   /* AS path and communities of the contributors, no ATOMIC_AGGREGATE */
	bool summary_only; /* the more specifics are not sent to any neighbor while it exists */
	bool match_med;	   /* matching-MED-only: exists only while the contributors' MEDs agree */
	bool origin_set;   /* origin igp|egp|incomplete: the aggregate's ORIGIN, not theirs */
	uint8_t origin;
	char rmap[BGP_RMAP_NAME_MAX];	      /* route-map NAME on the aggregate; "" = none */
	char suppress_map[BGP_RMAP_NAME_MAX]; /* suppress-map NAME: the more specifics it permits
					       * are sent to no neighbor; "" = none */
};
void rib_aggregate_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p,
		       const struct rib_aggregate_opts *opts);
void rib_aggregate_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
/* neighbor X default-originate [route-map NAME] changed for some neighbor, or a route-map
 * or list changed: what each session is sent as its default route is evaluated again. */
void rib_default_originate_changed(struct bgp *bgp);
/* Is the session of peer sent a default route in af by default-originate now (for show)? */
bool rib_peer_default_sent(const struct bgp_peer *peer, enum bgp_af af);
/* A route-map, prefix list or AS-path list changed: the aggregates with a route-map or a
 * suppress-map are recomputed, and their more specifics exported again. */
void rib_aggregate_policy_changed(struct bgp *bgp);

/* neighbor X maximum-prefix: compare what the session accepted in af with the limit now (a
 * changed configuration; UPDATEs are checked as they come). */
void rib_max_prefix_check(struct bgp_peer *peer, enum bgp_af af);

/* Counters for show commands. */
uint32_t rib_peer_accepted(const struct bgp_peer *peer, enum bgp_af af); /* pfxRcd */
uint32_t rib_peer_sent(const struct bgp_peer *peer, enum bgp_af af);	 /* pfxSnt */
uint64_t rib_table_version(const struct bgp *bgp);
/* End-of-RIB sent to / received from the peer's current session in af (FRR's "End-of-RIB send"
 * and "End-of-RIB received"). */
bool rib_peer_eor_sent(const struct bgp_peer *peer, enum bgp_af af);
bool rib_peer_eor_rcvd(const struct bgp_peer *peer, enum bgp_af af);
/* Graceful restart (bgp_rib_gr.c): seconds left on the restart timer of the peer's lost
 * session (until it is back) and on the stalepath timer of its routes kept stale (from the
 * loss until its End-of-RIBs); -1 when none runs. */
int64_t rib_peer_gr_restart_remaining(const struct bgp_peer *peer);
int64_t rib_peer_gr_stale_remaining(const struct bgp_peer *peer);
/* The table version of one address family (FRR shows one per table; rib_table_version() is the
 * sum over the families). */
uint64_t rib_af_table_version(const struct bgp *bgp, enum bgp_af af);
/* "RIB entries" of one address family: the prefixes in its table (FRR's route nodes), and
 * the bytes they take (the per-prefix entries only, as FRR counts them). 0 without a RIB. */
size_t rib_af_count(const struct bgp *bgp, enum bgp_af af);
size_t rib_af_memory(const struct bgp *bgp, enum bgp_af af);

#endif /* SKUA_BGP_RIB_API_H */
