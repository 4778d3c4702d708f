/* SPDX-License-Identifier: ISC */
/*
 * The "internet" table shape of bgp_blaster (see blaster_shape.h).
 *
 * Prefix lengths, in prefixes per 100,000. Approximate figures, rounded from the prefix-length
 * distributions of the global tables published by Geoff Huston's BGP reports
 * (https://bgp.potaroo.net, AS131072's view, 2024): the order of the lengths is the published
 * one, the shares vary by a point or two with the vantage point and the year.
 *   IPv4 (about 1,000,000 prefixes): /24 60%, then /22, /23, /20, /21, /19, /16, /18, /17, a
 *   few hundred per 100,000 shorter than /16, nothing longer than /24.
 *   IPv6 (about 200,000 prefixes): /48 47%, then /32, /44, /40, /36, /29, /46, /47, /33 ...,
 *   nothing longer than /48.
 * Attribute sets: 2 or 3 prefixes each (mean 2.5; full tables have about 1 set per 2.5
 * prefixes); AS-path length 1 to 10, mean 4.5 (the published mean is 4.3 to 4.6).
 *
 * Where the prefixes are: each length from its own count of consecutive prefixes, all from
 * the same base, so that shorter ones cover longer ones as aggregates do: IPv4 within
 * 1.0.0.0-126.255.255.255 (no private-use or documentation block of the test links is
 * involved: those are 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), IPv6 within 2400::/6
 * (clear of 2001:db8::/32, the test links'). These are BGP data exchanged between the
 * benchmark's own namespaces; no daemon installs them in a kernel.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench/blaster_shape.h"

struct len_share {
	uint8_t len;
	uint32_t per_100k;
};

static const struct len_share v4_shares[] = {
	{ 24, 59580 }, { 22, 12500 }, { 23, 11000 }, { 20, 5200 }, { 21, 5000 }, { 19, 2800 },
	{ 16, 1450 },  { 18, 1200 },  { 17, 850 },   { 15, 200 },  { 14, 110 },	 { 13, 60 },
	{ 12, 30 },    { 11, 12 },    { 10, 5 },     { 8, 2 },	   { 9, 1 },
};

static const struct len_share v6_shares[] = {
	{ 48, 47000 }, { 32, 13000 }, { 44, 8500 }, { 40, 7000 }, { 36, 4000 },
	{ 29, 3000 },  { 46, 2500 },  { 47, 2000 }, { 33, 2000 }, { 34, 1600 },
	{ 45, 1500 },  { 42, 1400 },  { 38, 1000 }, { 35, 1000 }, { 30, 800 },
	{ 28, 700 },   { 31, 600 },   { 41, 500 },  { 43, 500 },  { 39, 400 },
	{ 37, 400 },   { 26, 200 },   { 27, 200 },  { 24, 100 },  { 25, 100 },
};

/* Path lengths 1..10, in sets per 100: mean 4.51. */
static const uint8_t path_len_per_100[10] = { 2, 8, 20, 25, 20, 12, 7, 3, 2, 1 };

#define V4_BASE 0x01000000u /* 1.0.0.0 */
#define V4_RANGE_SLASH8 126 /* 1.0.0.0 - 126.255.255.255 */
#define V6_BASE_TOP 0x24u   /* 2400::/6: first byte 0x24 */
#define V6_RANGE_LEN 6

static uint64_t mix(uint64_t seed, uint64_t x, uint64_t salt)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ull ^ (x + salt * 0xbf58476d1ce4e5b9ull);

	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* How many prefixes of length len the shape's address range holds. */
static unsigned __int128 room_for(int family, unsigned len)
{
	if (family == AF_INET)
		return (unsigned __int128)V4_RANGE_SLASH8 << (len - 8);
	return (unsigned __int128)1 << (len - V6_RANGE_LEN);
}

int shape_init(struct shape *s, int family, uint64_t n, uint64_t seed, char *why, size_t size)
{
	const struct len_share *sh = family == AF_INET ? v4_shares : v6_shares;
	size_t nsh = family == AF_INET ? array_size(v4_shares) : array_size(v6_shares);
	uint64_t given = 0, count;

	memset(s, 0, sizeof(*s));
	s->family = family;
	s->n = n;
	s->seed = seed;
	/* Each length gets its share rounded down; the most common one takes the rest. */
	for (size_t k = 0; k < nsh; k++) {
		count = k ? n * sh[k].per_100k / 100000 : 0;
		s->len[k] = sh[k].len;
		s->first[k + 1] = count; /* counts for now, offsets below */
		given += count;
	}
	s->first[1] = n - given;
	s->nlens = (unsigned)nsh;
	for (unsigned k = 0; k < s->nlens; k++) {
		count = s->first[k + 1];
		if ((unsigned __int128)count > room_for(family, s->len[k])) {
			snprintf(why, size,
				 "%" PRIu64 " prefixes of length /%u do not fit in the shape's "
				 "range (%s): use fewer prefixes",
				 count, s->len[k],
				 family == AF_INET ? "1.0.0.0-126.255.255.255" : "2400::/6");
			return -1;
		}
		s->first[k + 1] = s->first[k] + count;
	}
	/* idx -> slot: i * mul + seed mod n with mul coprime to n, near n / golden ratio, so
	 * that neighbouring indexes (one UPDATE) get lengths and addresses far apart. */
	s->mul = 1;
	if (n > 2) {
		s->mul = (uint64_t)((double)n * 0.6180339887) % n;
		if (s->mul < 2)
			s->mul = 2;
		while (gcd(s->mul, n) != 1)
			s->mul++;
	}
	return 0;
}

void shape_prefix(const struct shape *s, uint64_t idx, struct prefix *p)
{
	uint64_t slot = (uint64_t)(((unsigned __int128)idx * s->mul + s->seed) % s->n), j;
	unsigned k = 0, len;

	while (k + 1 < s->nlens && slot >= s->first[k + 1])
		k++;
	len = s->len[k];
	j = slot - s->first[k];
	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)s->family;
	p->len = (uint8_t)len;
	if (s->family == AF_INET) {
		p->u.v4.s_addr = htonl(V4_BASE + (uint32_t)(j << (32 - len)));
		return;
	}
	/* 2400::/6 + j << (128 - len); len <= 48, so only the top 64 bits move. */
	uint64_t top = (uint64_t)V6_BASE_TOP << 56 | j << (64 - len);

	for (int b = 0; b < 8; b++)
		p->u.bytes[b] = (uint8_t)(top >> (56 - 8 * b));
}

uint64_t shape_set_of(uint64_t seed, uint64_t i)
{
	uint64_t block = i / 5;
	unsigned split = 2 + (unsigned)(mix(seed, block, 1) & 1); /* 2+3 or 3+2 */

	return 2 * block + (i % 5 >= split ? 1 : 0);
}

unsigned shape_path_len(uint64_t seed, uint64_t set)
{
	unsigned r = (unsigned)(mix(seed, set, 2) % 100), acc = 0;

	for (unsigned k = 0; k < 10; k++) {
		acc += path_len_per_100[k];
		if (r < acc)
			return k + 1;
	}
	return 10;
}
