/* SPDX-License-Identifier: ISC */
/*
 * IPv4/IPv6 addresses and prefixes. The parsers are strict on purpose: they read operator input
 * and configuration, where "10.0.0.1/24" meaning 10.0.0.0/24 silently would hide a typo.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "lib/prefix.h"

/* Longest textual address we accept ("ffff:...:255.255.255.255" is 45 characters). */
#define ADDR_TEXT_MAX (INET6_ADDRSTRLEN - 1)

static int addr_parse(uint8_t *family, uint8_t *bytes, const char *s, size_t len)
{
	char buf[INET6_ADDRSTRLEN];

	if (len == 0 || len > ADDR_TEXT_MAX)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* inet_pton() rejects empty fields, leading zeros in IPv4 octets and any trailing byte. */
	if (memchr(buf, ':', len)) {
		if (inet_pton(AF_INET6, buf, bytes) != 1)
			return -1;
		*family = AF_INET6;
	} else {
		if (inet_pton(AF_INET, buf, bytes) != 1)
			return -1;
		*family = AF_INET;
	}
	return 0;
}

int ipaddr_from_str(struct ipaddr *a, const char *s)
{
	struct ipaddr tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (!s || addr_parse(&tmp.family, tmp.u.bytes, s, strnlen(s, ADDR_TEXT_MAX + 1)) < 0)
		return -1;
	*a = tmp;
	return 0;
}

const char *ipaddr_to_str(const struct ipaddr *a, char *buf, size_t size)
{
	char tmp[INET6_ADDRSTRLEN];

	if ((a->family != AF_INET && a->family != AF_INET6) ||
	    !inet_ntop(a->family, a->u.bytes, tmp, sizeof(tmp)))
		snprintf(tmp, sizeof(tmp), "(unset)");
	if (size)
		snprintf(buf, size, "%s", tmp);
	return buf;
}

int ipaddr_cmp(const struct ipaddr *a, const struct ipaddr *b)
{
	int c;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->family != AF_INET && a->family != AF_INET6)
		return 0;
	c = memcmp(a->u.bytes, b->u.bytes, family_addr_bytes(a->family));
	return c < 0 ? -1 : c > 0;
}

bool ipaddr_is_zero(const struct ipaddr *a)
{
	size_t i, n;

	if (a->family != AF_INET && a->family != AF_INET6)
		return true;
	n = family_addr_bytes(a->family);
	for (i = 0; i < n; i++)
		if (a->u.bytes[i])
			return false;
	return true;
}

void ipaddr_unmap_v4(struct ipaddr *a)
{
	struct in_addr v4;

	if (a->family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&a->u.v6))
		return;
	memcpy(&v4, &a->u.bytes[12], 4);
	memset(&a->u, 0, sizeof(a->u));
	a->u.v4 = v4;
	a->family = AF_INET;
}

/* Decimal prefix length: 1-3 digits, no sign, no spaces, no leading zero ("08"). */
static int parse_len(const char *s, unsigned max, uint8_t *len)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (i >= 3 || s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (i == 0 || (i > 1 && s[0] == '0') || v > max)
		return -1;
	*len = (uint8_t)v;
	return 0;
}

int prefix_from_str(struct prefix *p, const char *s, bool strict)
{
	struct prefix tmp, masked;
	const char *slash;
	size_t alen;

	if (!s)
		return -1;
	memset(&tmp, 0, sizeof(tmp));
	slash = strchr(s, '/');
	if (!slash)
		return -1;
	alen = (size_t)(slash - s);
	if (addr_parse(&tmp.family, tmp.u.bytes, s, alen) < 0)
		return -1;
	if (parse_len(slash + 1, prefix_maxlen(tmp.family), &tmp.len) < 0)
		return -1;
	if (strict) {
		masked = tmp;
		prefix_apply_mask(&masked);
		if (memcmp(masked.u.bytes, tmp.u.bytes, sizeof(tmp.u.bytes)) != 0)
			return -1;
	}
	*p = tmp;
	return 0;
}

const char *prefix_to_str(const struct prefix *p, char *buf, size_t size)
{
	char tmp[INET6_ADDRSTRLEN];

	if ((p->family != AF_INET && p->family != AF_INET6) ||
	    !inet_ntop(p->family, p->u.bytes, tmp, sizeof(tmp))) {
		if (size)
			snprintf(buf, size, "(unset)");
		return buf;
	}
	if (size)
		snprintf(buf, size, "%s/%u", tmp, p->len);
	return buf;
}

void prefix_apply_mask(struct prefix *p)
{
	unsigned max = p->family == AF_INET ? 32 : p->family == AF_INET6 ? 128 : 0;
	unsigned len = MIN(p->len, max);
	unsigned byte = len / 8, bits = len % 8;

	if (bits) {
		p->u.bytes[byte] &= (uint8_t)(0xff00u >> bits);
		byte++;
	}
	/* Clear the rest of the union too, so that memcmp() over 16 bytes is meaningful. */
	if (byte < sizeof(p->u.bytes))
		memset(&p->u.bytes[byte], 0, sizeof(p->u.bytes) - byte);
}

int prefix_cmp(const struct prefix *a, const struct prefix *b)
{
	int c;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	c = memcmp(a->u.bytes, b->u.bytes, family_addr_bytes(a->family));
	if (c)
		return c < 0 ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return 0;
}

bool prefix_same(const struct prefix *a, const struct prefix *b)
{
	return prefix_cmp(a, b) == 0;
}

/* Do the first len bits of a and b agree? */
static bool bits_match(const uint8_t *a, const uint8_t *b, unsigned len)
{
	unsigned bytes = len / 8, bits = len % 8;

	if (bytes && memcmp(a, b, bytes) != 0)
		return false;
	if (bits && ((a[bytes] ^ b[bytes]) & (uint8_t)(0xff00u >> bits)))
		return false;
	return true;
}

bool prefix_contains(const struct prefix *outer, const struct prefix *inner)
{
	if (outer->family != inner->family || outer->len > inner->len ||
	    outer->len > prefix_maxlen(outer->family))
		return false;
	return bits_match(outer->u.bytes, inner->u.bytes, outer->len);
}

bool prefix_contains_addr(const struct prefix *p, const struct ipaddr *a)
{
	if (p->family != a->family || p->len > prefix_maxlen(p->family))
		return false;
	return bits_match(p->u.bytes, a->u.bytes, p->len);
}

void prefix_from_ipaddr(struct prefix *p, const struct ipaddr *a)
{
	memset(p, 0, sizeof(*p));
	p->family = a->family;
	p->len = (uint8_t)prefix_maxlen(a->family);
	memcpy(p->u.bytes, a->u.bytes, family_addr_bytes(a->family));
}

socklen_t ipaddr_to_sockaddr(const struct ipaddr *a, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		sin->sin_addr = a->u.v4;
		return sizeof(*sin);
	}
	if (a->family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		sin6->sin6_addr = a->u.v6;
		return sizeof(*sin6);
	}
	return 0;
}

int ipaddr_from_sockaddr(struct ipaddr *a, uint16_t *port, const struct sockaddr *sa)
{
	memset(a, 0, sizeof(*a));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;

		a->family = AF_INET;
		a->u.v4 = sin->sin_addr;
		if (port)
			*port = ntohs(sin->sin_port);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;

		a->family = AF_INET6;
		a->u.v6 = sin6->sin6_addr;
		if (port)
			*port = ntohs(sin6->sin6_port);
		return 0;
	}
	return -1;
}

const char *ipaddr_port_to_str(const struct ipaddr *a, uint16_t port, char *buf, size_t size)
{
	char tmp[IPADDR_STRLEN];

	ipaddr_to_str(a, tmp, sizeof(tmp));
	if (!size)
		return buf;
	if (a->family == AF_INET6)
		snprintf(buf, size, "[%s]:%u", tmp, port);
	else
		snprintf(buf, size, "%s:%u", tmp, port);
	return buf;
}
