/* SPDX-License-Identifier: ISC */
/*
 * Prefix -> nexthop object, for the routes bgpd installed (kernel/route_nhmap.h).
 *
 * Linear probing over slots of [address][length][value, 3 bytes little-endian]; a slot whose
 * value is 0 is free. Removal shifts the following run back (no tombstones), so a table that
 * fills and empties with a session's routes does not degrade. Grows at 3/4 full and halves
 * below 1/8, so the memory goes with the routes. The hash is multiply-shift with odd
 * multipliers drawn per process (from lib/hash.c's secret): a few cycles a key, where a keyed
 * SipHash per lookup, per growth and per shifted slot cost bgpd a tenth of a second over a
 * million routes, and still not predictable by whoever chooses the prefixes.
 */
#include "lib/compat.h"

#include "kernel/route_nhmap.h"
#include "lib/hash.h"
#include "lib/memory.h"

static DEFINE_MTYPE(KERNEL_NHMAP, "Kernel route -> nexthop object");

#define NHMAP_MIN_CAP 64

struct nhmap {
	uint8_t *slot;
	size_t cap; /* power of two: 2^bits */
	unsigned bits;
	uint64_t mult[3]; /* odd */
	size_t count;
	unsigned keylen;   /* address bytes + 1 (the length) */
	unsigned slotsize; /* keylen + 3 */
};

static void key_of(const struct nhmap *m, const struct prefix *p, uint8_t *key)
{
	memcpy(key, p->u.bytes, m->keylen - 1);
	key[m->keylen - 1] = p->len;
}

static uint32_t slot_value(const struct nhmap *m, const uint8_t *s)
{
	s += m->keylen;
	return (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16;
}

static void slot_put(const struct nhmap *m, uint8_t *s, const uint8_t *key, uint32_t value)
{
	memcpy(s, key, m->keylen);
	s[m->keylen] = (uint8_t)value;
	s[m->keylen + 1] = (uint8_t)(value >> 8);
	s[m->keylen + 2] = (uint8_t)(value >> 16);
}

static size_t home(const struct nhmap *m, const uint8_t *key)
{
	uint64_t a = 0, b = 0, h;

	if (m->keylen == 5) { /* IPv4: address and length in one word */
		memcpy(&a, key, 5);
		h = a * m->mult[0];
	} else {
		memcpy(&a, key, 8);
		memcpy(&b, key + 8, 8);
		h = (a * m->mult[0]) ^ (b * m->mult[1]) ^ ((uint64_t)key[16] * m->mult[2]);
		h ^= h >> 29;
		h *= m->mult[0];
	}
	return (size_t)(h >> (64 - m->bits));
}

static uint8_t *at(const struct nhmap *m, size_t i)
{
	return m->slot + i * m->slotsize;
}

static void resize(struct nhmap *m, size_t cap)
{
	uint8_t *old = m->slot;
	size_t oldcap = m->cap;

	m->slot = XCALLOC(MTYPE_KERNEL_NHMAP, cap * m->slotsize);
	m->cap = cap;
	for (m->bits = 0; ((size_t)1 << m->bits) < cap; m->bits++)
		;
	for (size_t i = 0; i < oldcap; i++) {
		const uint8_t *s = old + i * m->slotsize;
		size_t j;

		if (!slot_value(m, s))
			continue;
		for (j = home(m, s); slot_value(m, at(m, j)); j = (j + 1) & (m->cap - 1))
			;
		memcpy(at(m, j), s, m->slotsize);
	}
	XFREE(MTYPE_KERNEL_NHMAP, old);
}

struct nhmap *nhmap_new(int family)
{
	struct nhmap *m = XCALLOC(MTYPE_KERNEL_NHMAP, sizeof(*m));

	m->keylen = (unsigned)family_addr_bytes(family) + 1;
	for (unsigned i = 0; i < 3; i++)
		m->mult[i] = ((uint64_t)hash_bytes("nhmap", 5, 2 * i) << 32 |
			      hash_bytes("nhmap", 5, 2 * i + 1)) |
			     1;
	m->slotsize = m->keylen + 3;
	resize(m, NHMAP_MIN_CAP);
	return m;
}

void nhmap_free(struct nhmap *m)
{
	if (!m)
		return;
	XFREE(MTYPE_KERNEL_NHMAP, m->slot);
	XFREE(MTYPE_KERNEL_NHMAP, m);
}

/* The slot holding key, or the free slot ending its probe run. */
static size_t find(const struct nhmap *m, const uint8_t *key)
{
	size_t i = home(m, key);

	while (slot_value(m, at(m, i)) && memcmp(at(m, i), key, m->keylen) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void nhmap_prefetch(const struct nhmap *m, const struct prefix *p)
{
	uint8_t key[17];

	key_of(m, p, key);
	__builtin_prefetch(at(m, home(m, key)), 1);
}

uint32_t nhmap_get(const struct nhmap *m, const struct prefix *p)
{
	uint8_t key[17];

	key_of(m, p, key);
	return slot_value(m, at(m, find(m, key)));
}

uint32_t nhmap_set(struct nhmap *m, const struct prefix *p, uint32_t value)
{
	uint8_t key[17];
	size_t i;
	uint32_t old;

	if (!value || value > NHMAP_VALUE_MAX)
		return nhmap_del(m, p);
	if ((m->count + 1) * 4 > m->cap * 3)
		resize(m, m->cap * 2);
	key_of(m, p, key);
	i = find(m, key);
	old = slot_value(m, at(m, i));
	if (!old)
		m->count++;
	slot_put(m, at(m, i), key, value);
	return old;
}

uint32_t nhmap_del(struct nhmap *m, const struct prefix *p)
{
	uint8_t key[17];
	size_t i, j;
	uint32_t old;

	key_of(m, p, key);
	i = find(m, key);
	old = slot_value(m, at(m, i));
	if (!old)
		return 0;
	/* Backward shift: move up every later slot of the run that may live at i. */
	for (j = (i + 1) & (m->cap - 1); slot_value(m, at(m, j)); j = (j + 1) & (m->cap - 1)) {
		size_t h = home(m, at(m, j));

		/* j's home lies cyclically in (i, j]: it stays. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		memcpy(at(m, i), at(m, j), m->slotsize);
		i = j;
	}
	memset(at(m, i), 0, m->slotsize);
	m->count--;
	if (m->cap > NHMAP_MIN_CAP && m->count * 8 < m->cap)
		resize(m, m->cap / 2);
	return old;
}

size_t nhmap_count(const struct nhmap *m)
{
	return m->count;
}

size_t nhmap_memory(const struct nhmap *m)
{
	return sizeof(*m) + m->cap * m->slotsize;
}
