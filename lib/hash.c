/* SPDX-License-Identifier: ISC */
/*
 * Hash table of pointers: open addressing with linear probing and backward-shift deletion.
 *
 * Why open addressing rather than chaining: the tables hold interned attributes and AS paths
 * (hundreds of thousands of entries in a full table). Chaining costs a node per entry (or an
 * intrusive link the caller would have to embed) and a cache miss per hop; here an entry costs
 * one pointer plus its cached 32-bit hash, and a probe walks adjacent memory. Backward-shift
 * deletion leaves no tombstones, so a table that churns (attributes come and go with every
 * UPDATE) never degrades and never needs a cleanup rehash.
 *
 * The cached hash lets a probe skip the caller's equality function for almost every
 * non-matching slot, and makes growth a pure move (no rehashing of items).
 *
 * Slot = Fibonacci hashing of the caller's hash (multiply, keep the top bits), so that a weak
 * caller hash (say, one that is always a multiple of 8) still spreads over the table.
 */
#include "lib/compat.h"

#include <pthread.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "lib/core_mtypes.h"
#include "lib/hash.h"

DEFINE_MTYPE(HASH, "Hash table");
DEFINE_MTYPE(HASH_INDEX, "Hash table index");

#define HASH_MIN_BITS 3 /* 8 slots */

struct hash {
	hash_key_fn key;
	hash_eq_fn eq;
	const char *name;
	void **items;	  /* NULL = empty slot */
	uint32_t *hashes; /* the caller's hash of items[i] */
	uint32_t size;	  /* 0 before the first insert, else 1 << bits */
	unsigned bits;
	size_t count;
};

struct hash *hash_new(hash_key_fn key, hash_eq_fn eq, const char *name)
{
	struct hash *h = XCALLOC(MTYPE_HASH, sizeof(*h));

	h->key = key;
	h->eq = eq;
	h->name = name;
	return h;
}

void hash_free(struct hash *h)
{
	if (!h)
		return;
	XFREE(MTYPE_HASH_INDEX, h->items);
	XFREE(MTYPE_HASH_INDEX, h->hashes);
	XFREE(MTYPE_HASH, h);
}

static inline uint32_t hash_slot(const struct hash *h, uint32_t hv)
{
	return (uint32_t)(hv * 0x9e3779b9u) >> (32 - h->bits);
}

static void hash_resize(struct hash *h, unsigned bits)
{
	void **old_items = h->items;
	uint32_t *old_hashes = h->hashes;
	uint32_t old_size = h->size, i, j, mask;

	h->bits = bits;
	h->size = 1u << bits;
	h->items = XCALLOC(MTYPE_HASH_INDEX, (size_t)h->size * sizeof(*h->items));
	h->hashes = XMALLOC(MTYPE_HASH_INDEX, (size_t)h->size * sizeof(*h->hashes));
	mask = h->size - 1;
	for (i = 0; i < old_size; i++) {
		if (!old_items[i])
			continue;
		for (j = hash_slot(h, old_hashes[i]); h->items[j]; j = (j + 1) & mask)
			;
		h->items[j] = old_items[i];
		h->hashes[j] = old_hashes[i];
	}
	XFREE(MTYPE_HASH_INDEX, old_items);
	XFREE(MTYPE_HASH_INDEX, old_hashes);
}

/* Slot holding an item equal to item, or -1. */
static int64_t hash_find(const struct hash *h, const void *item, uint32_t hv)
{
	uint32_t i, mask;

	if (!h->size)
		return -1;
	mask = h->size - 1;
	for (i = hash_slot(h, hv); h->items[i]; i = (i + 1) & mask)
		if (h->hashes[i] == hv && h->eq(h->items[i], item))
			return i;
	return -1;
}

void *hash_lookup(const struct hash *h, const void *item)
{
	int64_t i = hash_find(h, item, h->key(item));

	return i < 0 ? NULL : h->items[i];
}

void hash_insert(struct hash *h, void *item)
{
	uint32_t hv, i, mask;

	if (!item)
		return; /* NULL marks an empty slot and cannot be stored */
	hv = h->key(item);
	/* Grow at 3/4 load: linear probing stays short below that. */
	if (!h->size)
		hash_resize(h, HASH_MIN_BITS);
	else if ((h->count + 1) * 4 > (size_t)h->size * 3)
		hash_resize(h, h->bits + 1);
	mask = h->size - 1;
	for (i = hash_slot(h, hv); h->items[i]; i = (i + 1) & mask)
		;
	h->items[i] = item;
	h->hashes[i] = hv;
	h->count++;
}

void *hash_remove(struct hash *h, const void *item)
{
	uint32_t i, j, home, mask;
	int64_t found = hash_find(h, item, h->key(item));
	void *ret;

	if (found < 0)
		return NULL;
	i = (uint32_t)found;
	ret = h->items[i];
	mask = h->size - 1;
	/*
	 * Backward shift: pull later members of the probe run into the hole, unless their home
	 * slot lies cyclically in (hole, j], in which case moving them would hide them.
	 */
	for (j = (i + 1) & mask; h->items[j]; j = (j + 1) & mask) {
		home = hash_slot(h, h->hashes[j]);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			h->items[i] = h->items[j];
			h->hashes[i] = h->hashes[j];
			i = j;
		}
	}
	h->items[i] = NULL;
	h->count--;
	/* Shrink at 1/8 load, so that a table that held a full table gives the memory back. */
	if (h->bits > HASH_MIN_BITS && h->count * 8 < h->size)
		hash_resize(h, h->bits - 1);
	return ret;
}

int hash_walk(const struct hash *h, hash_walk_cb cb, void *arg)
{
	uint32_t i;
	int ret;

	for (i = 0; i < h->size; i++) {
		if (!h->items[i])
			continue;
		ret = cb(h->items[i], arg);
		if (ret)
			return ret;
	}
	return 0;
}

size_t hash_count(const struct hash *h)
{
	return h->count;
}

size_t hash_memory(const struct hash *h)
{
	return sizeof(*h) + (size_t)h->size * (sizeof(*h->items) + sizeof(*h->hashes));
}

const char *hash_name(const struct hash *h)
{
	return h->name;
}

/* ---- SipHash (Aumasson & Bernstein), written from the paper ---- */

static inline uint64_t rotl64(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

#define SIPROUND                     \
	do {                         \
		v0 += v1;            \
		v1 = rotl64(v1, 13); \
		v1 ^= v0;            \
		v0 = rotl64(v0, 32); \
		v2 += v3;            \
		v3 = rotl64(v3, 16); \
		v3 ^= v2;            \
		v0 += v3;            \
		v3 = rotl64(v3, 21); \
		v3 ^= v0;            \
		v2 += v1;            \
		v1 = rotl64(v1, 17); \
		v1 ^= v2;            \
		v2 = rotl64(v2, 32); \
	} while (0)

uint64_t hash_siphash(const void *data, size_t len, const uint8_t key[16], unsigned crounds,
		      unsigned drounds)
{
	const uint8_t *p = data, *end = p + (len & ~(size_t)7);
	uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
	uint64_t v0 = k0 ^ 0x736f6d6570736575ull;
	uint64_t v1 = k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ull;
	uint64_t v3 = k1 ^ 0x7465646279746573ull;
	uint64_t m, b;
	unsigned r;
	size_t left;

	for (; p < end; p += 8) {
		m = load_le64(p);
		v3 ^= m;
		for (r = 0; r < crounds; r++)
			SIPROUND;
		v0 ^= m;
	}
	/* Last block: the remaining 0..7 bytes, and the length in the top byte. */
	b = (uint64_t)len << 56;
	left = len & 7;
	while (left--)
		b |= (uint64_t)p[left] << (8 * left);
	v3 ^= b;
	for (r = 0; r < crounds; r++)
		SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	for (r = 0; r < drounds; r++)
		SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

static uint8_t hash_secret[16];
static pthread_once_t hash_secret_once = PTHREAD_ONCE_INIT;

static void hash_secret_init(void)
{
	struct timespec ts;
	uint64_t x;
	size_t i;

	if (getrandom(hash_secret, sizeof(hash_secret), GRND_NONBLOCK) == sizeof(hash_secret))
		return;
	/*
	 * Entropy pool not ready (very early boot): fall back to something an attacker cannot
	 * easily predict across restarts. Still a far better key than a constant.
	 */
	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^ (uint64_t)getpid() << 16 ^
	    (uint64_t)(uintptr_t)&ts;
	for (i = 0; i < sizeof(hash_secret); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		hash_secret[i] = (uint8_t)(x >> 24);
	}
}

/*
 * SipHash-1-3 keyed with a process-wide random secret mixed with the caller's seed: as fast as
 * a plain hash on short keys, and an AS path or community list sent by a peer cannot be
 * crafted to collide (the secret differs per process).
 */
uint32_t hash_bytes(const void *data, size_t len, uint32_t seed)
{
	uint8_t key[16];
	uint64_t h;

	pthread_once(&hash_secret_once, hash_secret_init);
	memcpy(key, hash_secret, sizeof(key));
	key[0] ^= (uint8_t)seed;
	key[1] ^= (uint8_t)(seed >> 8);
	key[2] ^= (uint8_t)(seed >> 16);
	key[3] ^= (uint8_t)(seed >> 24);
	h = hash_siphash(data, len, key, 1, 3);
	return (uint32_t)(h ^ (h >> 32));
}

/* Mix v into h (MurmurHash3's block step); order matters, as for a sequence of fields. */
uint32_t hash_combine(uint32_t h, uint32_t v)
{
	v *= 0xcc9e2d51u;
	v = (v << 15) | (v >> 17);
	v *= 0x1b873593u;
	h ^= v;
	h = (h << 13) | (h >> 19);
	return h * 5 + 0xe6546b64u;
}
