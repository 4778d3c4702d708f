/* SPDX-License-Identifier: ISC */
/*
 * The sink's prefix set (see blaster.h). A full table is a million entries: 24-byte slots at
 * a load of at most one half, about 48 MiB, and one or two cache misses per operation.
 */
#include "lib/compat.h"

#include <string.h>

#include "bench/blaster.h"
#include "lib/memory.h"

DEFINE_MTYPE(BLASTER_PSET, "bgp_blaster prefix set");

static void key_of(const struct prefix *p, struct pset_slot *k)
{
	memcpy(&k->hi, p->u.bytes, 8);
	memcpy(&k->lo, p->u.bytes + 8, 8);
	if (p->family == AF_INET)
		k->lo = 0; /* only 4 bytes are meaningful */
	k->meta = 1u << 16 | (uint32_t)p->family << 8 | p->len;
}

/* splitmix64's finaliser: sequential /24s must not land in neighbouring slots. */
static size_t key_hash(const struct pset_slot *k)
{
	uint64_t x = k->hi ^ (k->lo * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)k->meta << 40);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (size_t)x;
}

static bool key_eq(const struct pset_slot *a, const struct pset_slot *b)
{
	return a->meta == b->meta && a->hi == b->hi && a->lo == b->lo;
}

static void alloc_slots(struct pset *s, size_t cap)
{
	s->slot = XCALLOC(MTYPE_BLASTER_PSET, cap * sizeof(*s->slot));
	s->mask = cap - 1;
	s->count = 0;
}

void pset_init(struct pset *s, size_t expected)
{
	size_t cap = 1024;

	while (cap < expected * 2)
		cap <<= 1;
	alloc_slots(s, cap);
}

void pset_free(struct pset *s)
{
	XFREE(MTYPE_BLASTER_PSET, s->slot);
	s->mask = 0;
	s->count = 0;
}

static bool insert_key(struct pset *s, const struct pset_slot *k)
{
	size_t i = key_hash(k) & s->mask;

	while (s->slot[i].meta) {
		if (key_eq(&s->slot[i], k))
			return false;
		i = (i + 1) & s->mask;
	}
	s->slot[i] = *k;
	s->count++;
	return true;
}

static void grow(struct pset *s)
{
	struct pset_slot *old = s->slot;
	size_t cap = (s->mask + 1) * 2, i;

	alloc_slots(s, cap);
	for (i = 0; i < cap / 2; i++)
		if (old[i].meta)
			insert_key(s, &old[i]);
	XFREE(MTYPE_BLASTER_PSET, old);
}

bool pset_add(struct pset *s, const struct prefix *p)
{
	struct pset_slot k;

	if ((s->count + 1) * 2 > s->mask + 1)
		grow(s);
	key_of(p, &k);
	return insert_key(s, &k);
}

bool pset_del(struct pset *s, const struct prefix *p)
{
	struct pset_slot k;
	size_t i, j, home;

	key_of(p, &k);
	i = key_hash(&k) & s->mask;
	while (s->slot[i].meta && !key_eq(&s->slot[i], &k))
		i = (i + 1) & s->mask;
	if (!s->slot[i].meta)
		return false;
	/* Backward shift: move up every later entry of the run whose home slot is not in the
	 * cyclic range (i, j], so that lookups never meet a hole before their key. */
	j = i;
	for (;;) {
		s->slot[i].meta = 0;
		for (;;) {
			j = (j + 1) & s->mask;
			if (!s->slot[j].meta) {
				s->count--;
				return true;
			}
			home = key_hash(&s->slot[j]) & s->mask;
			if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
				continue;
			break;
		}
		s->slot[i] = s->slot[j];
		i = j;
	}
}
