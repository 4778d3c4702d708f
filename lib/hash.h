/* SPDX-License-Identifier: ISC */
/*
 * Hash table of pointers with caller-supplied hash and equality (open addressing, grows by
 * doubling). Used to intern BGP attributes and AS paths, and for peer lookup by address.
 * The table never owns the stored items.
 */
#ifndef SKUA_HASH_H
#define SKUA_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hash;

typedef uint32_t (*hash_key_fn)(const void *item);
typedef bool (*hash_eq_fn)(const void *a, const void *b);

struct hash *hash_new(hash_key_fn key, hash_eq_fn eq, const char *name);
void hash_free(struct hash *h); /* items are not freed */

/* The stored item equal to item, or NULL. */
void *hash_lookup(const struct hash *h, const void *item);
/* Insert item (must not be present yet). */
void hash_insert(struct hash *h, void *item);
/* Remove the stored item equal to item; returns it or NULL. */
void *hash_remove(struct hash *h, const void *item);

typedef int (*hash_walk_cb)(void *item, void *arg);
/* Visit every item; a non-zero return stops the walk. The callback must not modify the table. */
int hash_walk(const struct hash *h, hash_walk_cb cb, void *arg);
size_t hash_count(const struct hash *h);
size_t hash_memory(const struct hash *h);

/* A good general hash over bytes (seeded at start-up against collision floods). */
uint32_t hash_bytes(const void *data, size_t len, uint32_t seed);
uint32_t hash_combine(uint32_t h, uint32_t v);

/* The name given to hash_new() (for `show memory`-style listings). */
const char *hash_name(const struct hash *h);
/* SipHash-c-d with a 16-byte key (hash_bytes() uses 1-3 with the process secret). */
uint64_t hash_siphash(const void *data, size_t len, const uint8_t key[16], unsigned crounds,
		      unsigned drounds);

#endif /* SKUA_HASH_H */
