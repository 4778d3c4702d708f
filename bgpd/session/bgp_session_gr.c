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
 *
 * How a lost session ends (RFC 4724 4.2, RFC 8538 4): a TCP loss or an expired hold timer
 * keeps the peer's routes when GR was negotiated; any other NOTIFICATION, sent or received,
 * keeps them only when both sent the N bit and it was not a Hard Reset. The Hard Reset is sent
 * as FRR 8.4 sends it (bgp_notify_send_hard_reset()): for a Cease because of maximum-prefix,
 * an administrative shutdown or reset (FRR's default `bgp hard-administrative-reset`) or a
 * deleted neighbor, wrapping the original code, subcode and data.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_peer.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/wire/bgp_error.h"

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

/* The Cease subcodes FRR turns into a Hard Reset once the N bit is exchanged. */
static bool cease_is_hard(uint8_t subcode)
{
	switch (subcode) {
	case BGP_ERR_CEASE_MAX_PREFIX:
	case BGP_ERR_CEASE_ADMIN_SHUTDOWN:
	case BGP_ERR_CEASE_PEER_DECONFIGURED:
	case BGP_ERR_CEASE_ADMIN_RESET:
	case BGP_ERR_CEASE_HARD_RESET:
		return true;
	}
	return false;
}

bool bgp_session_notify_hard_reset(bool n_bit, const struct bgp_error *err, struct bgp_error *out)
{
	uint8_t data[BGP_ERROR_DATA_MAX];
	size_t len;

	if (!n_bit || err->code != BGP_ERR_CEASE || !cease_is_hard(err->subcode) ||
	    err->subcode == BGP_ERR_CEASE_HARD_RESET)
		return false;
	/* RFC 8538 3: the data is the original code, subcode and data (cut to what fits). */
	data[0] = err->code;
	data[1] = err->subcode;
	len = MIN((size_t)err->data_len, sizeof(data) - 2);
	memcpy(data + 2, err->data, len);
	bgp_error_set(out, BGP_ERR_CEASE, BGP_ERR_CEASE_HARD_RESET, data, len + 2, err->reason);
	return true;
}

bool bgp_session_gr_covers(const struct bgp_session *s, enum bgp_down_reason why)
{
	const struct bgp_error *n = &s->last_notify;

	if (!s->info.gr)
		return false;
	switch (why) {
	case BGP_DOWN_CLOSED:
	case BGP_DOWN_SOCKET_ERROR:
	case BGP_DOWN_HOLD_EXPIRED:
		return true;
	default:
		break;
	}
	if (!s->have_last_notify)
		return true; /* lost without a NOTIFICATION */
	/* RFC 4724 4.2 covers the hold timer's expiry, whatever the N bit. */
	if (why == BGP_DOWN_NOTIFY_SENT && s->last_notify_sent && n->code == BGP_ERR_HOLD_TIMER)
		return true;
	return s->info.gr_notification &&
	       !(n->code == BGP_ERR_CEASE && n->subcode == BGP_ERR_CEASE_HARD_RESET);
}

bool bgp_session_stop_flushes(uint8_t cease_subcode)
{
	return cease_is_hard(cease_subcode);
}
