/* SPDX-License-Identifier: ISC */
/*
 * Closing a BGP connection so that its last segments keep the session's protection.
 *
 * A connection we end sends its FIN (after the NOTIFICATION, if any) and then has to ACK the
 * peer's FIN. If the socket were closed right after shutdown(), the kernel would finish the
 * connection from a time-wait stub that remembers neither the TTL 255 of GTSM nor anything
 * else set on the socket: the final ACK would leave at the default TTL (64), a GTSM peer would
 * drop it and retransmit its FIN for seconds. So the socket stays open, its TTL and minimum
 * with it, until the peer's FIN arrives (end of file), for at most BGP_CLOSER_LINGER_MS; what
 * the peer still sends meanwhile is read and discarded (a close() with unread data would send
 * a RST, which may overtake the NOTIFICATION just written).
 */
#ifndef SKUA_BGP_CLOSER_H
#define SKUA_BGP_CLOSER_H

#include "lib/memory.h"

DECLARE_MTYPE(BGP_CLOSER);

#define BGP_CLOSER_LINGER_MS 5000 /* the peer's FIN normally follows within a round trip */
#define BGP_CLOSER_MAX 1024	  /* sockets lingering at once; beyond, closed at once */

struct event_base;

/* Take over fd: half-close it, drain it, close it once the peer has closed its side, watched
 * on base (NULL: closed at once). */
void bgp_closer_close(struct event_base *base, int fd);
/* Close every lingering socket now (shutdown, tests). */
void bgp_closer_flush(void);

#endif /* SKUA_BGP_CLOSER_H */
