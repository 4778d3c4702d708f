/* SPDX-License-Identifier: ISC */
/*
 * bgpd's logging helpers: every message about a peer starts with the neighbor ("192.0.2.1: ...",
 * OpenBGPD's log_peer_warnx() idea), and debug messages test their flag before any formatting
 * (FRR bgp_debug, BIRD BGP_TRACE). The flags are bits of lib/log.h's debug_flags, switched by
 * `debug bgp neighbor-events|updates [in|out]|keepalives`.
 */
#ifndef SKUA_BGP_LOG_H
#define SKUA_BGP_LOG_H

#include <stdarg.h>

#include "lib/log.h"
#include "lib/log_limit.h"

struct bgp_peer;

/* bgpd's debug flags (bits of debug_flags; lib/ keeps the low byte for itself, and bit 16 is
 * bgpd/rtr's RTR_DEBUG, `debug rpki`, in bgpd/rtr/rtr.h). */
#define BGP_DEBUG_NEIGHBOR_EVENTS (UINT64_C(1) << 8)
#define BGP_DEBUG_UPDATES_IN (UINT64_C(1) << 9)
#define BGP_DEBUG_UPDATES_OUT (UINT64_C(1) << 10)
#define BGP_DEBUG_KEEPALIVES (UINT64_C(1) << 11)
#define BGP_DEBUG_UPDATES (BGP_DEBUG_UPDATES_IN | BGP_DEBUG_UPDATES_OUT)

/* "<peer>: <message>" at the given level (lib/log.h LOG_LVL_*). */
void bgp_peer_log(int level, const struct bgp_peer *peer, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void bgp_peer_vlog(int level, const struct bgp_peer *peer, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#define bgp_peer_err(peer, ...) bgp_peer_log(LOG_LVL_ERR, (peer), __VA_ARGS__)
#define bgp_peer_warn(peer, ...) bgp_peer_log(LOG_LVL_WARNING, (peer), __VA_ARGS__)
#define bgp_peer_notice(peer, ...) bgp_peer_log(LOG_LVL_NOTICE, (peer), __VA_ARGS__)
#define bgp_peer_info(peer, ...) bgp_peer_log(LOG_LVL_INFO, (peer), __VA_ARGS__)

/*
 * For what a peer can trigger at will (a malformed attribute in every UPDATE, connection after
 * connection): the call site's own limit (lib/log_limit.h: the first lines of each minute,
 * then a count), so that one peer cannot flood the log. Operators keep the first occurrence.
 */
void bgp_peer_log_limited(struct log_limit *ll, int level, const struct bgp_peer *peer,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define BGP_PEER_LOG_LIMITED(level, peer, ...)                                            \
	do {                                                                              \
		static struct log_limit bgp_log_limit_site_ =                             \
			LOG_LIMIT_INIT(LOG_LIMIT_INTERVAL_MS, LOG_LIMIT_BURST);           \
		bgp_peer_log_limited(&bgp_log_limit_site_, (level), (peer), __VA_ARGS__); \
	} while (0)

#define bgp_peer_err_limited(peer, ...) BGP_PEER_LOG_LIMITED(LOG_LVL_ERR, (peer), __VA_ARGS__)
#define bgp_peer_warn_limited(peer, ...) BGP_PEER_LOG_LIMITED(LOG_LVL_WARNING, (peer), __VA_ARGS__)
#define bgp_peer_info_limited(peer, ...) BGP_PEER_LOG_LIMITED(LOG_LVL_INFO, (peer), __VA_ARGS__)

/* Debug: nothing is formatted unless the flag is on. */
#define bgp_peer_debug(flag, peer, ...)                                   \
	do {                                                              \
		if (DEBUG_ON(flag))                                       \
			bgp_peer_log(LOG_LVL_DEBUG, (peer), __VA_ARGS__); \
	} while (0)

#endif /* SKUA_BGP_LOG_H */
