/* SPDX-License-Identifier: ISC */
/*
 * Re-evaluating routes after a policy change (see bgpd/bgp_policy.h): marks per peer, family
 * and direction, acted on once per loop turn by a deferred task, so that a commit changing
 * twenty entries of a list sends one ROUTE-REFRESH, not twenty.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/bgp_log.h"
#include "bgpd/bgp_msg.h"
#include "bgpd/bgp_clist.h"
#include "bgpd/bgp_policy.h"
#include "bgpd/bgp_routemap.h"
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
		bgp->policy_ev =
			event_defer_new(bgp->base ? bgp->base : bgp_event_base(), policy_run, bgp);
	if (bgp->policy_ev)
		event_defer(bgp->policy_ev);
}

static void reevaluate(struct bgp_peer *peer, enum bgp_af af, uint8_t pending)
{
	if (pending & (1u << BGP_DIR_IN)) {
		/* With soft-reconfiguration inbound the kept routes go through the new policy
		 * here; otherwise the peer sends its routes again (when it cannot,
		 * session_send_route_refresh() says so in the log). */
		if (rib_soft_reconfig_in(peer, af))
			bgp_peer_info(peer,
				      "inbound policy for %s changed: re-applied to the kept "
				      "routes (soft-reconfiguration inbound)",
				      bgp_af_text_name(af));
		else if (session_send_route_refresh(peer, af) == 0)
			bgp_peer_info(peer,
				      "inbound policy for %s changed: asked for a route refresh",
				      bgp_af_text_name(af));
	}
	if (pending & (1u << BGP_DIR_OUT)) {
		bgp_peer_info(peer, "outbound policy for %s changed: re-sending the table",
			      bgp_af_text_name(af));
		rib_route_refresh_received(peer, af);
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
static void rmap_users_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++)
				if (peer->conf.rmap[af][dir])
					bgp_policy_changed(peer, (enum bgp_af)af,
							   (enum bgp_dir)dir);
	bgp_redist_changed(bgp); /* redistribute ... route-map NAME */
}

/* A prefix list changed: every neighbor naming it, in the family of the list. */
static void plist_changed(int family, const char *name)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;

	if (!bgp)
		return;
	rmap_users_changed(bgp);
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

/* An AS path access list changed: every neighbor naming it in a filter-list. */
static void aspath_changed(const char *name)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;

	if (!bgp)
		return;
	rmap_users_changed(bgp);
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
				const char *n = peer->conf.aspath_list[af][dir];

				if (n && strcmp(n, name) == 0)
					bgp_policy_changed(peer, (enum bgp_af)af,
							   (enum bgp_dir)dir);
			}
}

/* A route-map changed: every neighbor naming it (the route-maps calling it are not followed,
 * as for the lists). */
static void rmap_changed(const char *name)
{
	struct bgp *bgp = bgp_get();

	if (bgp)
		rmap_users_changed(bgp);
	(void)name;
}

void bgp_policy_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af)
{
	rib_soft_reconfig_changed(peer, af);
}

void bgp_policy_init(void)
{
	prefix_list_set_change_hook(plist_changed);
	aspath_list_set_change_hook(aspath_changed);
	route_map_set_change_hook(rmap_changed);
	community_list_set_change_hook(rmap_changed); /* only route-maps use them */
}

void bgp_policy_fini(struct bgp *bgp)
{
	event_free(bgp->policy_ev);
	bgp->policy_ev = NULL;
}
