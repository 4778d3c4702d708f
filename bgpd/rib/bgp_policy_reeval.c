/* SPDX-License-Identifier: ISC */
/*
 * Re-evaluating routes after a policy change (bgpd/rib/bgp_policy_reeval.h): marks per peer,
 * family and direction, acted on once per loop turn by a deferred task, so that a commit
 * changing twenty entries of a list sends one ROUTE-REFRESH, not twenty.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/rib/bgp_rib.h"
#include "lib/event.h"
#include "lib/log.h"

static void policy_run(int fd, short what, void *arg);

void bgp_policy_changed(struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir)
{
	struct bgp *bgp = peer->bgp;

	if (!bgp || (unsigned)af >= BGP_AF_MAX)
		return;
	peer->policy_pending[af] |= (uint8_t)(1u << dir);
	if (!bgp->policy_ev)
		bgp->policy_ev = event_defer_new(bgp->base, policy_run, bgp);
	if (bgp->policy_ev)
		event_defer(bgp->policy_ev);
}

static void reevaluate(struct bgp_peer *peer, enum bgp_af af, uint8_t pending)
{
	if (pending & (1u << BGP_DIR_IN)) {
		/* With soft-reconfiguration inbound the kept routes go through the new policy
		 * here; otherwise the peer sends its routes again (when it cannot,
		 * the session side says so in the log). A route-map that now matches on the
		 * RPKI state needs the routes kept: the refresh fills the new copy. */
		if (rib_adj_in_update(peer, af))
			bgp_peer_info(peer,
				      "inbound route-map for %s matches on RPKI state: keeping the "
				      "routes as received, asked for a route refresh",
				      bgp_af_text_name(af));
		else if (rib_soft_reconfig_in(peer, af))
			bgp_peer_info(peer,
				      "inbound policy for %s changed: re-applied to the kept "
				      "routes (soft-reconfiguration inbound)",
				      bgp_af_text_name(af));
		else if (rib_sops(peer)->send_route_refresh(peer, af) == 0)
			bgp_peer_info(peer,
				      "inbound policy for %s changed: asked for a route refresh",
				      bgp_af_text_name(af));
	}
	if (pending & (1u << BGP_DIR_OUT)) {
		bgp_peer_info(peer, "outbound policy for %s changed: re-sending the table",
			      bgp_af_text_name(af));
		rib_resend(peer, af);
	}
}

static void policy_run(int fd, short what, void *arg)
{
	struct bgp *bgp = arg;
	struct bgp_peer *peer;

	(void)fd;
	(void)what;
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		for (int af = 0; af < BGP_AF_MAX; af++) {
			uint8_t pending = peer->policy_pending[af];

			peer->policy_pending[af] = 0;
			if (pending)
				reevaluate(peer, (enum bgp_af)af, pending);
		}
	}
}

/* Every neighbor with a route-map in af/dir: a list or route-map it may use changed. The
 * route-maps are not followed to the lists they name; re-evaluating a few more is cheap. */
void bgp_policy_rmap_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++)
				if (peer->conf.rmap[af][dir])
					bgp_policy_changed(peer, (enum bgp_af)af,
							   (enum bgp_dir)dir);
}

void bgp_policy_plist_changed(struct bgp *bgp, int family, const char *name)
{
	struct bgp_peer *peer;

	bgp_policy_rmap_changed(bgp);
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		for (int af = 0; af < BGP_AF_MAX; af++) {
			if (bgp_af_family((enum bgp_af)af) != family)
				continue;
			for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
				const char *n = peer->conf.plist[af][dir];

				if (n && strcmp(n, name) == 0)
					bgp_policy_changed(peer, (enum bgp_af)af,
							   (enum bgp_dir)dir);
			}
		}
	}
}

void bgp_policy_aspath_changed(struct bgp *bgp, const char *name)
{
	struct bgp_peer *peer;

	bgp_policy_rmap_changed(bgp);
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
				const char *n = peer->conf.aspath_list[af][dir];

				if (n && strcmp(n, name) == 0)
					bgp_policy_changed(peer, (enum bgp_af)af,
							   (enum bgp_dir)dir);
			}
}

void bgp_ebgp_requires_policy_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (!bgp_peer_is_ebgp(peer))
			continue;
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++)
				bgp_policy_changed(peer, (enum bgp_af)af, (enum bgp_dir)dir);
	}
}

void bgp_policy_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af)
{
	rib_soft_reconfig_changed(peer, af);
}

void bgp_policy_fini(struct bgp *bgp)
{
	event_free(bgp->policy_ev);
	bgp->policy_ev = NULL;
}
