/* SPDX-License-Identifier: ISC */
/*
 * Prefix tree (path-compressed binary trie), one per address family. It maps prefixes to opaque
 * values: exact match, longest match, and an ordered walk that can be resumed after any change
 * (ptree_next()), which is how the RIB does bounded work per loop turn.
 *
 * Built for full tables: nodes come from a slab (no per-node malloc header), an IPv4 tree keeps
 * 4-byte keys, an IPv6 tree 8-byte keys for nodes up to /64, and a tree of N prefixes holds at
 * most 2N-1 nodes. Budget: <= 48 bytes per stored
 * IPv4 prefix including glue nodes (check_table measures it).
 */
#ifndef SKUA_TABLE_H
#define SKUA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/prefix.h"

struct ptree;

struct ptree *ptree_new(int family);
/* Frees the tree; free_value (may be NULL) is called for every stored value. */
void ptree_free(struct ptree *t, void (*free_value)(void *value));

/*
 * Find or create the node for p and return the address of its value slot (NULL before first use).
 * The caller stores its value there. Setting it back to NULL is not a delete: use ptree_delete().
 * NULL when p is of another family than the tree (or its length is out of range). The slot stays
 * at the same address until that prefix is deleted; host bits in p are ignored (masked).
 */
void **ptree_get(struct ptree *t, const struct prefix *p);

/*
 * A tree whose values live in its nodes: value_size bytes (at most PT_INLINE_MAX) after each
 * stored prefix, instead of a pointer to a record allocated apart. For a record per prefix
 * (the RIB's route nodes) this stores the prefix once and saves a pointer and an allocation.
 * In such a tree:
 *   - ptree_get_inline() finds or creates p's value, zeroed when created (*created, may be
 *     NULL, says which); it stays at the same address until ptree_delete(p); ptree_get()
 *     returns NULL;
 *   - the value of a stored prefix is its area, never NULL: every stored prefix is visited;
 *   - ptree_delete() frees the area with the node (its answer says whether p was there, and
 *     must not be read through); ptree_free()'s free_value releases what the value holds,
 *     not the value;
 *   - ptree_inline_prefix() gives a value's prefix back from the value alone;
 *   - the value is 4-byte aligned (it starts right after the node's 12-byte header: an
 *     8-aligned value would cost a node 4 bytes of padding), so a value type with 8-byte
 *     members must be declared packed (as struct bgp_dest is), and its members' addresses
 *     not taken.
 */
#define PT_INLINE_MAX 256
struct ptree *ptree_new_inline(int family, size_t value_size);
void *ptree_get_inline(struct ptree *t, const struct prefix *p, bool *created);
void ptree_inline_prefix(int family, const void *value, struct prefix *p);
/*
 * Inline, for the hot paths of the RIB: a stored node is the key (4 bytes; IPv6 8 up to /64,
 * else 16), a 12-byte header (two 4-byte child handles, the length byte, 3 bytes of padding),
 * then the value, so the header's last 4 bytes sit right before the value in both families
 * (lib/table.c checks the layout). family is kept for callers; the distances do not use it.
 */
#define PT_INLINE_LEN_AT 4 /* bytes before the value */
/* The prefix length alone, without copying the address. */
static inline unsigned ptree_inline_len(int family, const void *value)
{
	(void)family;
	return ((const uint8_t *)value)[-PT_INLINE_LEN_AT];
}
/* PT_INLINE_SPARE bytes of value's node that the tree does not use (its header's padding),
 * zeroed when the value is created, for small fields of the value's owner: a byte moved there
 * is a byte less in every node. They go with the node. */
#define PT_INLINE_SPARE 3
static inline uint8_t *ptree_inline_spare(int family, const void *value)
{
	(void)family;
	return (uint8_t *)(uintptr_t)value - (PT_INLINE_LEN_AT - 1);
}
/* Bytes of one stored prefix's node (with its value slot or inline value): the largest, that
 * of a prefix with a full-size key; and that of a prefix of length len. */
size_t ptree_entry_size(const struct ptree *t);
size_t ptree_entry_size_len(const struct ptree *t, unsigned len);
void *ptree_lookup(const struct ptree *t, const struct prefix *p);	 /* exact */
void *ptree_match(const struct ptree *t, const struct ipaddr *a);	 /* longest match */
void *ptree_match_prefix(const struct ptree *t, const struct prefix *p); /* longest covering */
/* Empty t at once, as if every stored prefix were deleted, and keep it for new inserts: the
 * slabs' chunks, the directory and the index go back to malloc without a delete per prefix.
 * release (may be NULL) is called first with each stored value, in no particular order, for
 * what the value holds (an inline value itself goes with its node); it must not change t. */
void ptree_clear(struct ptree *t, void (*release)(void *value, void *arg), void *arg);
/* Remove p; returns the value it held (NULL if absent). Glue nodes are reclaimed. */
void *ptree_delete(struct ptree *t, const struct prefix *p);

/*
 * A delete without a second descent, for an inline tree's prefix looked up now and deleted
 * later (the RIB frees a withdrawn prefix's record once the withdrawal was sent on). The
 * lookup notes where it found the prefix: the nodes above it, up to three (handles, 12
 * bytes, kept by the caller only meanwhile). The delete starts from the lowest of them that
 * is still above the prefix, a step or two instead of a descent; other changes in between
 * may have taken them all (then it descends as ptree_delete()). The note is never trusted,
 * only checked, so any note (even another prefix's) is safe.
 */
#define PTREE_WHERE_UP 3
struct ptree_where {
	uint32_t up[PTREE_WHERE_UP]; /* parent, grandparent, ...: node handles, 0: not known */
};
/* ptree_lookup() that also fills *w (zeroed when p is absent; the nodes above the root, or
 * above where the descent started, are not known). */
void *ptree_lookup_where(const struct ptree *t, const struct prefix *p, struct ptree_where *w);
/* ptree_lookup_where() of p[0 .. n - 1] into val[i] and w[i], their descents interleaved so
 * that their cache misses overlap (the descents are walked once: no ptree_prefetch*() is
 * needed before). For a received UPDATE's withdrawals, far apart in the tree. */
void ptree_lookup_where_group(const struct ptree *t, const struct prefix *p, size_t n, void **val,
			      struct ptree_where *w);
/* ptree_lookup() of p[0 .. n - 1] into val[i]: with an index, its slots then the nodes they
 * name fetched for the group at once (two overlapped misses a prefix, no descent), else
 * ptree_lookup_where_group()'s interleaved descents (without notes to keep). */
void ptree_lookup_group(const struct ptree *t, const struct prefix *p, size_t n, void **val);
/* Delete the prefix whose inline value is value (from ptree_get_inline(), still stored),
 * using *w when it still holds (w may be NULL). False when value is not in an inline tree. */
bool ptree_delete_inline(struct ptree *t, void *value, const struct ptree_where *w);
/* Would ptree_delete_inline(t, value, w) delete through *w, without a descent? (Reads the
 * nodes *w names: after ptree_prefetch_where(), to fetch the others' descents ahead.) */
bool ptree_where_serves(const struct ptree *t, const void *value, const struct ptree_where *w);
/* How many ptree_delete_inline() calls given a note descended all the same (for tests). */
size_t ptree_where_missed(const struct ptree *t);
/* A hint, like ptree_prefetch(): bring into the cache the nodes *w names. */
void ptree_prefetch_where(const struct ptree *t, const struct ptree_where *w);

/*
 * Ordered iteration (prefix_cmp order). ptree_first() gives the first stored prefix; ptree_next()
 * the first stored prefix strictly after *after, whether or not *after is still in the tree, so a
 * walk survives inserts and deletes between steps. Both fill *p and return the value, or NULL
 * at the end.
 */
void *ptree_first(const struct ptree *t, struct prefix *p);
void *ptree_next(const struct ptree *t, const struct prefix *after, struct prefix *p);
/* Up to max values of the stored prefixes strictly after *after (NULL: from the start), in
 * order, into values[]; *last is set to the last one's prefix (the cursor for the next call).
 * One descent for the whole batch instead of one per prefix: for walks that resume across
 * loop turns and change the tree between batches (the values stay valid only until then).
 * Returns how many (0 at the end). */
size_t ptree_next_batch(const struct ptree *t, const struct prefix *after, void **values,
			size_t max, struct prefix *last);

/* A hint, which changes nothing: bring into the cache the nodes on the way to each of the
 * first PTREE_PREFETCH_MAX of the n prefixes, and their values, with the descents interleaved
 * so that their cache misses overlap. For a run of lookups or deletes of prefixes far apart in
 * the tree (a received UPDATE's withdrawals in a shuffled order); prefixes that are neighbours
 * (in prefix order, all within 256 of each other) share their descents and are skipped. */
#define PTREE_PREFETCH_MAX 32
void ptree_prefetch(const struct ptree *t, const struct prefix *p, size_t n);
/* The same for the tree's own descents, which a large tree's exact lookups skip (they go by
 * an index of the stored prefixes): before ptree_lookup_where() and ptree_delete(). */
void ptree_prefetch_descents(const struct ptree *t, const struct prefix *p, size_t n);

typedef int (*ptree_walk_cb)(const struct prefix *p, void *value, void *arg);
/* Walk in order; a callback returning non-zero stops the walk and that value is returned.
 * The callback must not change the tree (use ptree_next() for that). */
int ptree_walk(const struct ptree *t, ptree_walk_cb cb, void *arg);
/* Visit the stored prefixes that contain p (equal to it or shorter, and covering it), shortest
 * first: the descent along p's bits, O(depth) (RPKI origin validation needs every covering
 * VRP, not only the longest). Stops and returns a callback's non-zero value, like ptree_walk();
 * the callback must not change the tree. 0 when p is of another family. */
int ptree_walk_covering(const struct ptree *t, const struct prefix *p, ptree_walk_cb cb, void *arg);

/*
 * A prefix whose value slot is still NULL (created by ptree_get() but not yet filled) is
 * skipped by ptree_match*(), ptree_first()/ptree_next() and ptree_walk(), since NULL is their
 * "nothing" answer; ptree_count() counts it.
 */
size_t ptree_count(const struct ptree *t); /* stored prefixes */
/*
 * A large tree keeps a directory of its /16 blocks (IPv4; IPv6: the 16-bit blocks below where
 * the tree first forks within 2000::/3, the /19s at most) so that a lookup, insert or delete
 * of a prefix at least that long starts its descent at the block instead of the root; it
 * changes no answer, and costs 256 KiB. Such a tree, once
 * build_at / 16 of its inserts found their prefix stored (a second feed), also keeps an
 * index of its stored prefixes by hash (4.7 bytes a prefix when made), by which ptree_lookup()
 * and ptree_get*() of a stored prefix find it in two cache misses instead of a descent. It is made
 * once the tree holds build_at prefixes and dropped when it falls below drop_below (at most
 * build_at); by default 65,536 and 16,384 (IPv6: 16,384 and 4,096). Tests set them low to
 * exercise it on small trees.
 */
void ptree_directory_thresholds(struct ptree *t, size_t build_at, size_t drop_below);
/* The block the directory's 16-bit blocks lie below, into *base; false when t has no
 * directory (for tests). */
bool ptree_directory_base(const struct ptree *t, struct prefix *base);
size_t ptree_memory(const struct ptree *t); /* bytes held by nodes and slabs */
/* Make the index now rather than on demand, when the tree is of the directory's size and has
 * none: for a burst of lookups of stored prefixes (a table's withdrawal), which the index
 * answers without descents. It is made as a second feed makes it (4.7 bytes a prefix) and
 * dropped as that one is. True when the tree has an index. */
bool ptree_index_make(struct ptree *t);
/* Slots of the index, 0 while there is none (for tests and memory accounting). */
size_t ptree_index_slots(const struct ptree *t);

#endif /* SKUA_TABLE_H */
