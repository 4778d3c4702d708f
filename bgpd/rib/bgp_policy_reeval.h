/* SPDX-License-Identifier: ISC */
/*
 * Re-evaluation after a policy change. A changed neighbor statement, or a change to a list or
 * route-map some neighbor names, marks (peer, family, direction); once per loop turn the marks
 * are acted on: in -> the kept Adj-RIB-In (soft-reconfiguration inbound) goes through the new
 * policy, or the peer is asked for a ROUTE-REFRESH (RFC 2918); out -> the session's
 * Adj-RIB-Out is walked again, sending what the policy now permits and withdrawing what it now
 * denies. A peer without the route refresh capability keeps its routes filtered by the old
 * inbound policy until the session restarts (logged), as FRR without soft-reconfiguration.
 */
#ifndef SKUA_BGP_POLICY_REEVAL_H
#define SKUA_BGP_POLICY_REEVAL_H

#include "bgpd/core/bgp.h"

/* A neighbor's policy for af in direction dir changed: its routes are re-evaluated on the
 * next loop turn, once however many changes a commit made. */
void bgp_policy_changed(struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir);
/* `soft-reconfiguration inbound` changed for af: the RIB keeps the peer's routes as received
 * from now on (asking the peer to resend them) or drops its copy. */
void bgp_policy_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af);
/* bgp ebgp-requires-policy switched: every eBGP neighbor's routes re-evaluated both ways. */
void bgp_ebgp_requires_policy_changed(struct bgp *bgp);

/* A named object changed (the instance layer watches lib/plist.h and bgpd/policy/ for it):
 * every neighbor naming a prefix list (of family) / an AS path access list called name, and
 * every neighbor with a route-map (route-maps are not followed to the lists they name:
 * re-evaluating a few more is cheap). */
void bgp_policy_plist_changed(struct bgp *bgp, int family, const char *name);
void bgp_policy_aspath_changed(struct bgp *bgp, const char *name);
void bgp_policy_rmap_changed(struct bgp *bgp);

/* Drop the instance's pending re-evaluation (bgp_delete()). */
void bgp_policy_fini(struct bgp *bgp);

#endif /* SKUA_BGP_POLICY_REEVAL_H */
