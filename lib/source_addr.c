/* SPDX-License-Identifier: ISC */
/* The source address of a session among an interface's addresses (lib/source_addr.h). */
#include "lib/compat.h"

#include <errno.h>
#include <string.h>

#include "lib/source_addr.h"

bool ipaddr_is_loopback(const struct ipaddr *a)
{
	if (a->family == AF_INET)
		return a->u.bytes[0] == 127;
	return a->family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&a->u.v6);
}

static bool is_linklocal(const struct ipaddr *a)
{
	return a->family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&a->u.v6);
}

/* Leading bits a and b have in common (both of one family). */
static unsigned common_bits(const struct ipaddr *a, const struct ipaddr *b)
{
	unsigned n = prefix_maxlen(a->family), i;

	for (i = 0; i < n; i++)
		if (prefix_bit(a->u.bytes, i) != prefix_bit(b->u.bytes, i))
			break;
	return i;
}

/* Higher is better; -1: unusable toward peer. Scope outweighs any number of common bits. */
static int score(const struct ipaddr *c, const struct ipaddr *peer)
{
	if (c->family != peer->family)
		return -1;
	if (ipaddr_is_loopback(c) && !ipaddr_is_loopback(peer))
		return -1;
	return (is_linklocal(c) == is_linklocal(peer) ? 256 : 0) + (int)common_bits(c, peer);
}

int source_addr_choose(const struct ipaddr *cands, size_t n, const struct ipaddr *peer,
		       struct ipaddr *out)
{
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		int s = score(&cands[i], peer);

		if (s > best) {
			best = s;
			*out = cands[i];
		}
	}
	return best < 0 ? -EADDRNOTAVAIL : 0;
}
