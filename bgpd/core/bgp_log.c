/* SPDX-License-Identifier: ISC */
/* Peer-prefixed logging (bgpd/core/bgp_log.h). */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_log.h"

void bgp_peer_vlog(int level, const struct bgp_peer *peer, const char *fmt, va_list ap)
{
	char msg[1024];

	if (!log_would_log(level))
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	zlog(level, "%s: %s", peer ? peer->name : "(no peer)", msg);
}

void bgp_peer_log_limited(struct log_limit *ll, int level, const struct bgp_peer *peer,
			  const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!log_would_log(level))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_limited(ll, level, "%s: %s", peer ? peer->name : "(no peer)", msg);
}

void bgp_peer_log(int level, const struct bgp_peer *peer, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bgp_peer_vlog(level, peer, fmt, ap);
	va_end(ap);
}
