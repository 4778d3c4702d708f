/* SPDX-License-Identifier: ISC */
/* The decision process (RFC 4271 9.1): which path of a prefix is best, and why. */
#ifndef SKUA_BGP_DECISION_H
#define SKUA_BGP_DECISION_H

#include <stdbool.h>

#include "bgpd/rib/bgp_rib.h"

/* The tie-breaker that decided, FRR's enum bgp_path_selection_reason. */
enum bgp_sel_reason {
	BGP_SEL_NONE = 0,   /* "Nothing to Select" */
	BGP_SEL_FIRST,	    /* "First path received": the only valid path */
	BGP_SEL_LLGR_STALE, /* one of them is long-lived stale (RFC 9494 4.3) */
	BGP_SEL_WEIGHT,
	BGP_SEL_LOCAL_PREF,
	BGP_SEL_LOCAL_ROUTE,
	BGP_SEL_AS_PATH,
	BGP_SEL_ORIGIN,
	BGP_SEL_MED,
	BGP_SEL_PEER_TYPE,  /* eBGP over iBGP */
	BGP_SEL_IGP_METRIC, /* lower metric of the kernel route to the next hop */
	BGP_SEL_CONFED,	    /* confed-external over internal (RFC 5065) */
	BGP_SEL_OLDER,	    /* the eBGP path already selected (RFC 5004) */
	BGP_SEL_ROUTER_ID,
	BGP_SEL_CLUSTER_LEN,
	BGP_SEL_NEIGHBOR_IP,
	BGP_SEL_DEFAULT, /* "Nothing left to compare" */
	BGP_SEL_MAX,
};

/* FRR's text for selectionReason ("Local Pref", "AS Path", ...). */
const char *bgp_sel_reason_str(enum bgp_sel_reason r);

/* What the decision needs to know about a path. */
struct bgp_cand {
	const struct bgp_attr *attr;
	const struct rib_src *src;
	uint32_t igp_metric; /* of the route that resolves the next hop (when rib is NULL) */
	bool selected;	     /* the best path before this decision */
	/* Set: the IGP metric is asked of rib's forwarding side for path, only when the rules
	 * before it tie (a lookup per comparison that gets that far, not per candidate). */
	const struct bgp_rib *rib;
	const struct bgp_path *path;
};

/*
 * Compare two valid candidates under the knobs cfg (NULL = FRR's defaults): < 0 when a is
 * better, > 0 when b is better, 0 when nothing tells them apart (only possible for two paths
 * of the same source). *why says which tie-breaker decided.
 */
int bgp_decision_cmp(const struct bgp_bestpath *cfg, const struct bgp_cand *a,
		     const struct bgp_cand *b, enum bgp_sel_reason *why);

/* A path as the decision sees it (not marked selected). */
void bgp_decision_cand(const struct bgp_rib *rib, const struct bgp_path *p, struct bgp_cand *c);

/* Is the path eligible at all (rule 0: its session is up, its next hop usable)? */
bool bgp_path_valid(const struct bgp_rib *rib, const struct bgp_path *path);

/*
 * Select the best path of dest: moves it to the head of the list, sets its PATH_F_BEST (no path
 * has it when none is valid) and records why it won. With `bgp deterministic-med` the result
 * does not depend on the order of the list.
 */
void bgp_decision_run(struct bgp_rib *rib, struct bgp_dest *dest);

/* Why dest's best path won (against the best of the others) when it was last selected, for
 * the show commands. */
enum bgp_sel_reason bgp_decision_reason(const struct bgp_rib *rib, const struct bgp_dest *dest);

#endif /* SKUA_BGP_DECISION_H */
