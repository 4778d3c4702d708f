/* SPDX-License-Identifier: ISC */
/*
 * neighbor X maximum-prefix N [THRESHOLD] [warning-only|restart MINUTES], the session side.
 *
 * The RIB counts what it accepted from the session (pfxRcd, after the inbound policy, as FRR
 * counts) and calls session_max_prefix_exceeded() once the count goes past the limit. The
 * session is then stopped on the next loop turn, not from inside the RIB's UPDATE handling,
 * with a NOTIFICATION Cease / Maximum Number of Prefixes Reached whose data is the AFI (2
 * bytes), the SAFI (1) and the limit (4), as FRR sends it (RFC 4486 4). It stays Idle
 * ("Idle (PfxCt)") until `clear bgp X` or, with `restart`, until that many minutes passed.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/wire/bgp_error.h"
#include "lib/event.h"
#include "lib/log.h"

static void pfx_stop_cb(int fd, short what, void *arg)
{
	struct bgp_session *s = arg;

	(void)fd;
	(void)what;
	if (!s->pfx_overflow)
		return; /* cleared meanwhile */
	bgp_session_stop_data(s->peer, BGP_ERR_CEASE_MAX_PREFIX, s->pfx_data, sizeof(s->pfx_data),
			      BGP_DOWN_NOTIFY_SENT);
}

static void pfx_restart_cb(int fd, short what, void *arg)
{
	struct bgp_session *s = arg;

	(void)fd;
	(void)what;
	bgp_peer_info(s->peer, "maximum-prefix restart timer expired: restarting the session");
	s->pfx_overflow = false;
	bgp_session_kick(s->peer);
}

void bgp_max_prefix_session_init(struct bgp_session *s, struct event_base *base)
{
	s->pfx_stop_ev = event_defer_new(base, pfx_stop_cb, s);
	s->pfx_restart_ev = event_timer_new(base, pfx_restart_cb, s);
}

void session_max_prefix_exceeded(struct bgp_peer *peer, enum bgp_af af, uint32_t limit)
{
	struct bgp_session *s = peer->session;
	uint16_t restart = peer->conf.maxpfx[af].restart;
	uint16_t afi;
	uint8_t safi;

	if (!s || s->pfx_overflow)
		return;
	bgp_af_to_afi_safi(af, &afi, &safi);
	s->pfx_data[0] = (uint8_t)(afi >> 8);
	s->pfx_data[1] = (uint8_t)afi;
	s->pfx_data[2] = safi;
	s->pfx_data[3] = (uint8_t)(limit >> 24);
	s->pfx_data[4] = (uint8_t)(limit >> 16);
	s->pfx_data[5] = (uint8_t)(limit >> 8);
	s->pfx_data[6] = (uint8_t)limit;
	s->pfx_overflow = true;
	event_defer(s->pfx_stop_ev);
	if (restart) {
		event_timer_add(s->pfx_restart_ev, (uint32_t)restart * 60 * 1000, 0);
		bgp_peer_warn(peer,
			      "maximum-prefix %u exceeded in %s: session closed, restarting in %u "
			      "minute(s)",
			      limit, bgp_af_text_name(af), restart);
	} else {
		bgp_peer_warn(peer,
			      "maximum-prefix %u exceeded in %s: session closed until `clear bgp "
			      "%s` (or raise the limit, then clear)",
			      limit, bgp_af_text_name(af), peer->name);
	}
}

bool bgp_session_pfx_overflow(const struct bgp_peer *peer)
{
	return peer->session && peer->session->pfx_overflow;
}

int64_t bgp_session_pfx_restart_remaining(const struct bgp_peer *peer)
{
	return peer->session ? event_timer_remaining(peer->session->pfx_restart_ev) : -1;
}

void bgp_max_prefix_clear(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;

	if (!s || !s->pfx_overflow)
		return;
	s->pfx_overflow = false;
	event_del(s->pfx_restart_ev);
	bgp_session_kick(peer);
}
