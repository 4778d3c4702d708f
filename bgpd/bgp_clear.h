/* SPDX-License-Identifier: ISC */
/*
 * `clear [ip] bgp [<ipv4|ipv6> [unicast]] <*|PEER> [soft [in|out]|in|out]` (bgp_clear.c): the
 * operator's reset of a session (hard: NOTIFICATION Cease / Administrative Reset, RFC 4486) or
 * the soft variants, which keep the session: `in` asks the peer to send its routes again
 * (ROUTE-REFRESH, RFC 2918), `out` sends ours again.
 */
#ifndef SKUA_BGP_CLEAR_H
#define SKUA_BGP_CLEAR_H

/* Install the commands in the enable node (after cmd_init()). */
void bgp_clear_init(void);

#endif /* SKUA_BGP_CLEAR_H */
