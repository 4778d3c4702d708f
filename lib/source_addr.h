/* SPDX-License-Identifier: ISC */
/*
 * The source address of a session with `update-source IFNAME`: which of the interface's
 * addresses can reach the peer. FRR takes the address sharing the longest prefix with the
 * peer; that alone picks 127.0.0.1 on `lo` for a peer in 10/8, and a connect from a loopback
 * address to anything else fails (EINVAL), so skua first sets aside what cannot work.
 */
#ifndef SKUA_SOURCE_ADDR_H
#define SKUA_SOURCE_ADDR_H

#include <stddef.h>

#include "lib/prefix.h"

/*
 * Choose among n candidate addresses (any families, in the interface's order) the source of a
 * session toward peer. A candidate is usable when it has the peer's family and is not a
 * loopback address (127/8, ::1) unless the peer is one. Among usable ones: the same scope as
 * the peer first (IPv6 link-local for a link-local peer, global otherwise), then the longest
 * prefix in common with the peer, then the first listed. 0 and *out set, or -EADDRNOTAVAIL.
 */
int source_addr_choose(const struct ipaddr *cands, size_t n, const struct ipaddr *peer,
		       struct ipaddr *out);

/* Is a an address of the host itself (127/8 or ::1), unusable toward anyone else? */
bool ipaddr_is_loopback(const struct ipaddr *a);

#endif /* SKUA_SOURCE_ADDR_H */
