/* SPDX-License-Identifier: ISC */
/*
 * IPv4/IPv6 addresses and prefixes: parse, print, mask, compare, contain.
 * All parsers take a NUL-terminated string and return 0 or -1; they never read past it.
 */
#ifndef SKUA_PREFIX_H
#define SKUA_PREFIX_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* An address of either family. family is AF_INET or AF_INET6 (0 = unset). */
struct ipaddr {
	uint8_t family;
	union {
		struct in_addr v4;
		struct in6_addr v6;
		uint8_t bytes[16];
	} u;
};

/* A prefix; host bits beyond len are always zero once prefix_apply_mask() ran. */
struct prefix {
	uint8_t family; /* AF_INET or AF_INET6 */
	uint8_t len;	/* 0..32 or 0..128 */
	union {
		struct in_addr v4;
		struct in6_addr v6;
		uint8_t bytes[16];
	} u;
};

#define IPADDR_STRLEN 46 /* INET6_ADDRSTRLEN */
#define PREFIX_STRLEN 50 /* address, '/', up to 3 digits, NUL */
#define SU_STRLEN 56	 /* [addr]:port */

static inline unsigned prefix_maxlen(int family)
{
	return family == AF_INET ? 32 : 128;
}

static inline size_t family_addr_bytes(int family)
{
	return family == AF_INET ? 4 : 16;
}

int ipaddr_from_str(struct ipaddr *a, const char *s);
const char *ipaddr_to_str(const struct ipaddr *a, char *buf, size_t size);
int ipaddr_cmp(const struct ipaddr *a, const struct ipaddr *b);
bool ipaddr_is_zero(const struct ipaddr *a);
/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes the IPv4 address; others unchanged. */
void ipaddr_unmap_v4(struct ipaddr *a);

/* "a.b.c.d/n" or "x::/n"; host bits set in the input are an error when strict is true. */
int prefix_from_str(struct prefix *p, const char *s, bool strict);
const char *prefix_to_str(const struct prefix *p, char *buf, size_t size);
void prefix_apply_mask(struct prefix *p);
/* Total order: family, then address bytes, then length (the tree's walk order). */
int prefix_cmp(const struct prefix *a, const struct prefix *b);
bool prefix_same(const struct prefix *a, const struct prefix *b);
/* Does outer contain inner (same family, outer->len <= inner->len, leading bits equal)? */
bool prefix_contains(const struct prefix *outer, const struct prefix *inner);
bool prefix_contains_addr(const struct prefix *p, const struct ipaddr *a);
void prefix_from_ipaddr(struct prefix *p, const struct ipaddr *a); /* host prefix /32 or /128 */
/* Bit n (0 = most significant) of the prefix address. */
static inline int prefix_bit(const uint8_t *bytes, unsigned n)
{
	return (bytes[n >> 3] >> (7 - (n & 7))) & 1;
}

/* sockaddr helpers: convert, print "addr" or "[addr]:port". */
socklen_t ipaddr_to_sockaddr(const struct ipaddr *a, uint16_t port, struct sockaddr_storage *ss);
int ipaddr_from_sockaddr(struct ipaddr *a, uint16_t *port, const struct sockaddr *sa);
/* "a.b.c.d:port" or "[x::y]:port" (SU_STRLEN bytes are always enough). */
const char *ipaddr_port_to_str(const struct ipaddr *a, uint16_t port, char *buf, size_t size);

#endif /* SKUA_PREFIX_H */
