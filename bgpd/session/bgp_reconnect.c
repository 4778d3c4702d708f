/* SPDX-License-Identifier: ISC */
/*
 * How soon a peer is tried again. RFC 4271 retries a failed connection on the
 * ConnectRetryTimer (120 s by default), which is right for a peer that keeps failing and far
 * too slow for one that was reset on purpose: after `clear bgp X`, a configuration change or a
 * peer's administrative Cease, the peer (a passive BIRD, say) often refuses the very first
 * attempt because it is still tearing the old session down, and the operator then waited two
 * minutes ("Next connect timer due in 113 seconds") where FRR is back in about two seconds.
 *
 * So a failed attempt is retried after a back-off instead: 1 s, doubling on each further
 * failure up to the ConnectRetryTime (RFC 4271 8.1.1 DampPeerOscillations, our policy). A
 * prompt start (a reset by the operator or the configuration, a Cease that says the peer was
 * reset or reconfigured, a session that reached Established) starts the back-off again at
 * 1 s; a peer that keeps refusing reaches the full ConnectRetryTime after seven attempts. The
 * IdleHoldTimer after a session's loss keeps its own back-off (bgp_session_state_changed()),
 * except after such a Cease ending an Established session, which is no sign of an unstable
 * peer.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_session.h"
#include "lib/event.h"

static uint32_t connect_retry_ms(const struct bgp_session *s)
{
	uint32_t secs = s->peer->conf.connect_retry ? s->peer->conf.connect_retry
						    : BGP_DEFAULT_CONNECT_RETRY;

	return secs * 1000;
}

void bgp_session_retry_prompt(struct bgp_session *s)
{
	s->retry_backoff_ms = BGP_RETRY_PROMPT_MS;
}

void bgp_session_connect_retry_after_failure(struct bgp_session *s)
{
	uint32_t full = connect_retry_ms(s);
	uint32_t ms = MIN(s->retry_backoff_ms ? s->retry_backoff_ms : full, full);

	/* RFC 4271 10: jittered down by up to a quarter, so that peers do not retry in step. */
	event_timer_add(s->connect_retry_timer, ms, 25);
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, s->peer,
		       "connection attempt failed, next one in %u ms or less", ms);
	s->retry_backoff_ms = MIN(ms * 2, full);
}

bool bgp_cease_is_prompt(uint8_t code, uint8_t subcode)
{
	if (code != BGP_ERR_CEASE)
		return false;
	switch (subcode) {
	case BGP_ERR_CEASE_ADMIN_SHUTDOWN:
	case BGP_ERR_CEASE_PEER_DECONFIGURED:
	case BGP_ERR_CEASE_ADMIN_RESET:
	case BGP_ERR_CEASE_CONFIG_CHANGE:
	case BGP_ERR_CEASE_HARD_RESET:
		return true;
	default:
		/* Maximum prefixes, connection rejected, out of resources, collision: the
		 * peer has a reason to refuse us, so the usual back-off applies. */
		return false;
	}
}
