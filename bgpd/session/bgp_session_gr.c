/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart on the session side: what our OPEN advertises for the neighbor's effective
 * mode (FRR's rules), and what the RIB is told was negotiated.
 *
 * FRR sends the Graceful Restart capability unless the neighbor's mode is disable; only in
 * restart mode does it list the families (so only then can the peer keep our routes), each with
 * the F bit of `bgp graceful-restart preserve-fw-state`. The N bit follows
 * `bgp graceful-restart notification`.
 *
 * The R and F bits say what is true, where FRR sets R for restart-time after every start and
 * F whenever preserve-fw-state is configured. R: bgpd restarted (it found and adopted its
 * earlier run's kernel routes, bgpd/fib/bgp_fib_gr.c) and its selection is still deferred.
 * F, per family, with preserve-fw-state: the routes the peer may hold from us still forward,
 * either adopted across bgpd's restart, or installed by this run and the peer already had a
 * session with it (a cold start, after a reboot, says 0 to the peers that knew the old run).
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_peer.h"
#include "bgpd/session/bgp_session.h"

static bool fwd_preserved(const struct bgp_peer *peer, enum bgp_af af)
{
	const struct bgp *bgp = peer->bgp;

	if (!bgp->gr_preserve_fw_state)
		return false;
	if (bgp->gr_fwd_preserved[af])
		return true;
	return bgp->gr_fib_forwarding && peer->session && peer->session->established_count > 0;
}

void bgp_open_local_gr(const struct bgp_peer *peer, struct bgp_open_local *l)
{
	const struct bgp *bgp = peer->bgp;
	enum bgp_gr_mode mode = bgp_peer_gr_mode(peer);
	int af;

	if (mode == BGP_GR_DISABLE)
		return;
	l->gr = true;
	l->gr_restart = bgp->gr_restarting;
	l->gr_notification = bgp->gr_notification;
	l->gr_time = bgp->gr_restart_time;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (mode != BGP_GR_RESTART || !l->af[af])
			continue;
		l->gr_af[af] = true;
		l->gr_fwd[af] = fwd_preserved(peer, af);
	}
	/* RFC 9494 only with GR; a stale time of 0 means no LLGR (bgp.h). */
	if (!bgp->llgr_stale_time)
		return;
	l->llgr = true;
	l->llgr_time = bgp->llgr_stale_time;
	for (af = 0; af < BGP_AF_MAX; af++) {
		l->llgr_af[af] = l->af[af];
		l->llgr_fwd[af] = bgp->gr_preserve_fw_state;
	}
}

void bgp_session_info_gr(struct bgp_session_info *info, const struct bgp_open_result *nego)
{
	const struct bgp_caps *r = &nego->remote;
	int af;

	info->gr = nego->gr;
	info->gr_notification = nego->gr_notification;
	info->llgr = nego->llgr;
	if (!nego->gr)
		return;
	info->gr_restarting = r->gr_restart;
	info->gr_time = r->gr_time;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!info->af[af])
			continue;
		info->gr_af[af] = r->gr_af[af];
		info->gr_fwd[af] = r->gr_fwd[af];
		if (!nego->llgr)
			continue;
		info->llgr_af[af] = r->llgr_af[af];
		info->llgr_fwd[af] = r->llgr_fwd[af];
		info->llgr_time[af] = r->llgr_time[af];
	}
}
