/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart on the session side: what our OPEN advertises for the neighbor's effective
 * mode (FRR's rules), and what the RIB is told was negotiated.
 *
 * FRR sends the Graceful Restart capability unless the neighbor's mode is disable; only in
 * restart mode does it list the families (so only then can the peer keep our routes), each with
 * the F bit of `bgp graceful-restart preserve-fw-state`. The N bit follows
 * `bgp graceful-restart notification`. The R bit (we have just restarted) is the restarting
 * side's to set.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_peer.h"
#include "bgpd/session/bgp_session.h"

void bgp_open_local_gr(const struct bgp_peer *peer, struct bgp_open_local *l)
{
	const struct bgp *bgp = peer->bgp;
	enum bgp_gr_mode mode = bgp_peer_gr_mode(peer);
	int af;

	if (mode == BGP_GR_DISABLE)
		return;
	l->gr = true;
	l->gr_notification = bgp->gr_notification;
	l->gr_time = bgp->gr_restart_time;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (mode != BGP_GR_RESTART || !l->af[af])
			continue;
		l->gr_af[af] = true;
		l->gr_fwd[af] = bgp->gr_preserve_fw_state;
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
