/* SPDX-License-Identifier: ISC */
/*
 * Listening sockets (port 179 by default, `-p PORT` and `-l ADDR` for labs) and the matching
 * of accepted connections to configured peers. Outgoing connections are in the session side
 * (bgp_conn_connect(), declared in bgp_session.h).
 */
#ifndef SKUA_BGP_NETWORK_H
#define SKUA_BGP_NETWORK_H

#include <stdint.h>

struct event_base;

/*
 * Listen on addr (NULL: the IPv4 and IPv6 wildcards, IPv6 with IPV6_V6ONLY) and port (0 picks
 * a free port; see bgp_network_listen_port()). Returns the number of sockets opened, or a
 * negative errno when none could be (the reason is logged).
 */
int bgp_network_listen(struct event_base *base, const char *addr, uint16_t port);
/* The port the i-th listener is bound to, 0 if there is none. */
uint16_t bgp_network_listen_port(int i);
void bgp_network_stop(void);

/* The port outgoing connections go to (179; tests and labs on one host use others). */
void bgp_network_set_remote_port(uint16_t port);
uint16_t bgp_network_remote_port(void);

#endif /* SKUA_BGP_NETWORK_H */
