/* SPDX-License-Identifier: ISC */
/*
 * Prefix tree: a path-compressed binary trie (PATRICIA with prefixes stored at any node).
 *
 * Every node holds a key (address bits, masked) and a length; its children continue with bit
 * `len` of the key being 0 or 1. A node is either *stored* (a prefix with a value slot) or *glue*
 * (a branch point that exists only because two stored prefixes diverge there). Invariants:
 *   - a glue node always has exactly two children (deleting under it splices it out);
 *   - hence a tree of N stored prefixes has at most N - 1 glue nodes.
 * A pre-order walk (node, then child 0, then child 1) visits prefixes in prefix_cmp() order:
 * a node's address is that of its whole block with the host bits clear, so it sorts before
 * every longer prefix inside the block, and child 0's block sorts before child 1's.
 *
 * Memory (a full table has about a million IPv4 prefixes, and the RIB keeps several trees):
 *   - nodes live in slabs: arrays of fixed-size objects, no malloc header per node;
 *   - nodes reference each other by 32-bit handles instead of 64-bit pointers;
 *   - stored and glue nodes come from separate slabs, so glue carries no value slot;
 *   - an IPv4 tree's keys are 4 bytes; an IPv6 node's 8 up to /64 (nearly every prefix of an
 *     internet table, and the glue above them), 16 only when longer: a slab has a size class
 *     for each, its chunks of one class each, in one chunk table (one handle space).
 * That makes an IPv4 stored node 24 bytes and a glue node 16, so even the worst case of N - 1
 * glue nodes stays under 40 bytes per prefix (check_table measures a million random prefixes);
 * an IPv6 one up to /64 32 and 20 (with a 16-byte key, 40 and 28).
 * Slab chunks start small (a per-peer tree of ten prefixes costs a few hundred bytes) and double
 * up to 4096 objects; a chunk whose last node goes is freed, so an emptied tree gives its
 * memory back.
 *
 * Inline values (ptree_new_inline()): the value is not a pointer in the node but an area of a
 * fixed size in it, so a table whose value is a per-prefix record (the RIB's struct bgp_dest)
 * stores the prefix once, and saves the pointer and the record's own allocation: 16 bytes per
 * IPv4 prefix, 24 per IPv6 prefix. Such a value exists from ptree_get_inline() until
 * ptree_delete(), zeroed when created; the walks visit every stored node. It starts right
 * after the header, 4-byte aligned (12 bytes after it, the key 4, 8 or 16 bytes before it):
 * aligning it to 8 would pad nodes by 4 bytes (a 20-byte value makes a 36-byte IPv4 node,
 * not 40, and IPv6 ones of 40 and 48).
 *
 * Handles: bit 31 says glue or stored; the rest is (chunk << 12 | index in chunk) + 1, so 0 is
 * the null handle; the chunk knows its objects' size and where their headers start. A handle
 * names a node's header; its key is right before it, of the size its length says (pt_nkey()). A
 * stored node never moves, which keeps the slot ptree_get() returns valid until that prefix is
 * deleted.
 */
#include "lib/compat.h"

#include <malloc.h>

#include "lib/core_mtypes.h"
#include "lib/table.h"

DEFINE_MTYPE(PTREE, "Prefix tree");
DEFINE_MTYPE(PTREE_SLAB, "Prefix tree nodes");
DEFINE_MTYPE(PTREE_DIR, "Prefix tree directory");

#define PT_NIL 0u
#define PT_GLUE 0x80000000u
#define PT_CHUNK_SHIFT 12
#define PT_CHUNK_MASK ((1u << PT_CHUNK_SHIFT) - 1)
#define PT_CHUNK_MAX (1u << PT_CHUNK_SHIFT) /* objects in a full-size chunk */
#define PT_CHUNK_MIN 16u		    /* objects in a tree's first chunk */
#define PT_MAX_CHUNKS (1u << (31 - PT_CHUNK_SHIFT))
#define PT_STACK (128 + 2) /* deepest possible path, IPv6 /0 to /128, plus one */
#define PT_DIR_BITS 16	   /* a directory entry per 16-bit block below the base */
#define PT_DIR_SIZE (1u << PT_DIR_BITS)
#define PT_DIR_BASE_MAX 32     /* IPv6: blocks of at most /48 (bytes 0..6 of a short key) */
#define PT_DIR_BUILD_AT 65536u /* default thresholds: see ptree_directory_thresholds() */
#define PT_DIR_DROP_BELOW 16384u
/* IPv6: its descents are longer (a /48 below its /19 block passes about twice the nodes of
 * an IPv4 /24 below its /16), so the directory pays from a smaller tree. */
#define PT_DIR_BUILD_AT_V6 16384u
#define PT_DIR_DROP_BELOW_V6 4096u
#define PT_FREED 0xffu /* len of a node on a slab's free list: no prefix is that long */

/*
 * A node's header. Its key comes before it: 4 bytes (IPv4), 8 (IPv6 up to /64: nearly every
 * prefix of an internet table, and the glue above them) or 16 (longer IPv6), by the length
 * (pt_ks()), which never changes while the node lives (a node converted between stored and
 * glue keeps it). A stored node's value (slot or inline area) follows the header, so what
 * the RIB reads before its value (the length, the spare bytes) sits at a fixed distance
 * whatever the key's size: [key][child 0, child 1][len][pad][value].
 */
struct pt_node {
	uint32_t child[2];
	uint8_t len;
	uint8_t pad[3]; /* zero; a stored node's inline value may use them (ptree_inline_spare()) */
};

/* Size classes of a slab: nodes with a short key and with a full one (IPv4 uses the first). */
#define PT_CLASSES 2

struct pt_chunk {
	uint8_t *mem;  /* NULL: this chunk slot is unused */
	uint8_t *base; /* the first object's header (mem + its class's key bytes) */
	uint32_t size; /* bytes of an object, its class's */
	uint32_t cap;  /* objects in mem */
	uint32_t used; /* objects handed out at least once (bump allocation) */
	uint32_t live; /* objects in use */
	uint32_t free; /* free list of returned objects: index + 1, 0 = empty */
	uint32_t prev; /* list of chunks with room: chunk + 1, 0 = none */
	uint32_t next;
	uint8_t cls; /* its size class */
	bool in_partial;
};

/* A size class: the chunks of one object size share the slab's chunk table (and so the
 * handle space), each class with its own list of chunks with room. */
struct pt_class {
	uint32_t obj_size;
	uint32_t hdr;	  /* key bytes before the header */
	uint32_t partial; /* first chunk with room: chunk + 1, 0 = none */
	uint32_t live_chunks;
};

struct pt_slab {
	struct pt_class cls[PT_CLASSES];
	uint32_t tag; /* PT_GLUE for the glue slab */
	struct pt_chunk *chunks;
	uint32_t nchunks; /* slots in chunks[] */
	size_t bytes;	  /* memory held by chunk arrays (as malloc reports it) */
};

struct ptree {
	int family;
	unsigned keylen;	/* 4 or 16 */
	unsigned maxlen;	/* 32 or 128 */
	unsigned short_max;	/* the longest prefix with a short key: 32 or 64 */
	uint8_t ks[PT_CLASSES]; /* a class's key bytes: 4, 4 or 8, 16 */
	size_t value_off;	/* from the header */
	size_t inline_size;	/* 0: the value slot is a pointer; else the value is inline */
	uint32_t root;
	size_t count;
	struct pt_slab stored, glue;
	/* The directory (NULL while the tree is small): dir[i] is the top node of block i, the
	 * topmost node whose block lies within the dir_len-bit block numbered i below dir_base
	 * (its bits dir_base_len to dir_len - 1), PT_NIL when the tree has none there. */
	uint32_t *dir;
	uint8_t dir_base[16];
	unsigned dir_base_len, dir_len;
	/* The family's base (IPv4 0.0.0.0/0, IPv6 2000::/3). An IPv6 directory's base is where
	 * the tree first forks, when that lies deeper within it (pt_dir_rebase()); dir_escapes
	 * counts the prefixes inserted since outside that base, which descend from the root. */
	uint8_t dir_home[16];
	unsigned dir_home_len;
	bool dir_adapt;
	size_t dir_escapes;
	size_t dir_build_at, dir_drop_below;
	/* The index of the stored nodes (NULL while the tree is small): see pt_ix_find(). */
	uint32_t *ix;
	uint32_t ix_size, ix_live, ix_tomb; /* slots; those holding a node, a tombstone */
	uint32_t ix_demand;  /* inserts that found the prefix stored, while there is no index */
	size_t where_missed; /* deletes given a note that did not serve: they descended */
};

/* ---- slab allocator ---- */

static void slab_partial_push(struct pt_slab *s, uint32_t c)
{
	struct pt_chunk *ch = &s->chunks[c];
	uint32_t *head = &s->cls[ch->cls].partial;

	ch->prev = 0;
	ch->next = *head;
	if (*head)
		s->chunks[*head - 1].prev = c + 1;
	*head = c + 1;
	ch->in_partial = true;
}

static void slab_partial_remove(struct pt_slab *s, uint32_t c)
{
	struct pt_chunk *ch = &s->chunks[c];

	if (ch->prev)
		s->chunks[ch->prev - 1].next = ch->next;
	else
		s->cls[ch->cls].partial = ch->next;
	if (ch->next)
		s->chunks[ch->next - 1].prev = ch->prev;
	ch->prev = ch->next = 0;
	ch->in_partial = false;
}

static uint32_t slab_chunk_new(struct pt_slab *s, unsigned cls)
{
	struct pt_class *k = &s->cls[cls];
	struct pt_chunk *ch;
	uint32_t c, n;

	for (c = 0; c < s->nchunks; c++)
		if (!s->chunks[c].mem)
			break;
	if (c == s->nchunks) {
		n = s->nchunks ? s->nchunks * 2 : 4;
		if (n > PT_MAX_CHUNKS) {
			/* 2^31 nodes: no full table comes near; a bug if it ever happens. */
			fprintf(stderr, "ptree: node handle space exhausted; aborting\n");
			abort();
		}
		s->chunks = XREALLOC(MTYPE_PTREE, s->chunks, n * sizeof(*s->chunks));
		memset(&s->chunks[s->nchunks], 0, (n - s->nchunks) * sizeof(*s->chunks));
		s->nchunks = n;
	}
	ch = &s->chunks[c];
	/* Small trees stay small: 16, 32, 64 ... objects, up to a full chunk. */
	ch->cap = k->live_chunks >= 8 ? PT_CHUNK_MAX
				      : MIN(PT_CHUNK_MIN << k->live_chunks, PT_CHUNK_MAX);
	ch->mem = XMALLOC(MTYPE_PTREE_SLAB, (size_t)ch->cap * k->obj_size);
	ch->base = ch->mem + k->hdr;
	ch->size = k->obj_size;
	ch->cls = (uint8_t)cls;
	ch->used = ch->live = ch->free = 0;
	s->bytes += malloc_usable_size(ch->mem);
	k->live_chunks++;
	slab_partial_push(s, c);
	return c;
}

/* An object of class cls (see pt_cls()); its handle. */
static uint32_t slab_alloc(struct pt_slab *s, unsigned cls)
{
	struct pt_chunk *ch;
	uint32_t c, off;

	c = s->cls[cls].partial ? s->cls[cls].partial - 1 : slab_chunk_new(s, cls);
	ch = &s->chunks[c];
	if (ch->free) {
		off = ch->free - 1;
		memcpy(&ch->free, ch->base + (size_t)off * ch->size, sizeof(ch->free));
	} else {
		off = ch->used++;
	}
	ch->live++;
	if (!ch->free && ch->used == ch->cap)
		slab_partial_remove(s, c);
	return s->tag | (((c << PT_CHUNK_SHIFT) | off) + 1);
}

static void slab_free(struct pt_slab *s, uint32_t ref)
{
	uint32_t raw = (ref & ~PT_GLUE) - 1;
	uint32_t c = raw >> PT_CHUNK_SHIFT, off = raw & PT_CHUNK_MASK;
	struct pt_chunk *ch = &s->chunks[c];

	ch->live--;
	if (ch->live == 0) {
		/* Last node gone: the chunk goes back to malloc. */
		if (ch->in_partial)
			slab_partial_remove(s, c);
		s->bytes -= malloc_usable_size(ch->mem);
		XFREE(MTYPE_PTREE_SLAB, ch->mem);
		ch->base = NULL;
		s->cls[ch->cls].live_chunks--;
		return;
	}
	/* Marked freed, for handles kept across changes (pt_node_live()); the free list's link
	 * then goes over child[0]. */
	((struct pt_node *)(ch->base + (size_t)off * ch->size))->len = PT_FREED;
	memcpy(ch->base + (size_t)off * ch->size, &ch->free, sizeof(ch->free));
	ch->free = off + 1;
	if (!ch->in_partial)
		slab_partial_push(s, c);
}

static void slab_release(struct pt_slab *s)
{
	uint32_t c;

	for (c = 0; c < s->nchunks; c++)
		XFREE(MTYPE_PTREE_SLAB, s->chunks[c].mem);
	XFREE(MTYPE_PTREE, s->chunks);
	s->nchunks = 0;
	for (unsigned k = 0; k < PT_CLASSES; k++)
		s->cls[k].partial = s->cls[k].live_chunks = 0;
	s->bytes = 0;
}

/* ---- nodes and keys ---- */

/* The header of ref's node. */
static inline struct pt_node *pt_node(const struct ptree *t, uint32_t ref)
{
	const struct pt_slab *s = (ref & PT_GLUE) ? &t->glue : &t->stored;
	uint32_t raw = (ref & ~PT_GLUE) - 1;
	const struct pt_chunk *ch = &s->chunks[raw >> PT_CHUNK_SHIFT];

	return (struct pt_node *)(ch->base + (size_t)(raw & PT_CHUNK_MASK) * ch->size);
}

/* The size class of a node of length len: 0 short key, 1 full key. */
static inline unsigned pt_cls(const struct ptree *t, unsigned len)
{
	return len > t->short_max;
}

/* Bytes of the key of a node of length len. */
static inline unsigned pt_ks(const struct ptree *t, unsigned len)
{
	return t->ks[pt_cls(t, len)];
}

/* ref's node's header, and in *key its key, where its object starts: for the descents, which
 * then need not work the key's size out from the length. */
static inline struct pt_node *pt_node_key(const struct ptree *t, uint32_t ref, const uint8_t **key)
{
	const struct pt_slab *s = (ref & PT_GLUE) ? &t->glue : &t->stored;
	uint32_t raw = (ref & ~PT_GLUE) - 1;
	const struct pt_chunk *ch = &s->chunks[raw >> PT_CHUNK_SHIFT];
	size_t at = (size_t)(raw & PT_CHUNK_MASK) * ch->size;

	*key = ch->mem + at;
	return (struct pt_node *)(ch->base + at);
}

/* Copy a key of ks bytes (4, 8 or 16) in fixed-size steps, which the compiler inlines. */
static inline void key_copy(uint8_t *dst, const uint8_t *src, unsigned ks)
{
	memcpy(dst, src, 4);
	if (ks > 4) {
		memcpy(dst + 4, src + 4, 4);
		if (ks > 8)
			memcpy(dst + 8, src + 8, 8);
	}
}

/* Node n's key (its length must be set): right before its header. */
static inline uint8_t *pt_nkey(const struct ptree *t, const struct pt_node *n)
{
	return (uint8_t *)(uintptr_t)n - pt_ks(t, n->len);
}

/* Where handle ref's node would be, or NULL when ref names no object a slab holds now (its
 * chunk gone, or never handed out): for handles kept across changes (struct ptree_where). */
static struct pt_node *pt_node_addr(const struct ptree *t, uint32_t ref)
{
	const struct pt_slab *s = (ref & PT_GLUE) ? &t->glue : &t->stored;
	uint32_t raw = (ref & ~PT_GLUE) - 1, c, off;

	if (!(ref & ~PT_GLUE))
		return NULL;
	c = raw >> PT_CHUNK_SHIFT;
	off = raw & PT_CHUNK_MASK;
	if (c >= s->nchunks || !s->chunks[c].mem || off >= s->chunks[c].used)
		return NULL;
	return (struct pt_node *)(s->chunks[c].base + (size_t)off * s->chunks[c].size);
}

/* ref's node if it is in use now (then it is in the tree), else NULL. */
static struct pt_node *pt_node_live(const struct ptree *t, uint32_t ref)
{
	struct pt_node *n = pt_node_addr(t, ref);

	return n && n->len != PT_FREED ? n : NULL;
}

static inline void **pt_value(const struct ptree *t, struct pt_node *n)
{
	return (void **)((uint8_t *)n + t->value_off);
}

/* The value of stored node n: what its slot holds, or its inline area. NULL = none yet. */
static inline void *pt_val(const struct ptree *t, struct pt_node *n)
{
	return t->inline_size ? (void *)pt_value(t, n) : *pt_value(t, n);
}

/* A new or converted stored node's value: NULL, or the inline area zeroed. */
static inline void pt_val_clear(const struct ptree *t, struct pt_node *n)
{
	if (t->inline_size)
		memset(pt_value(t, n), 0, t->inline_size);
	else
		*pt_value(t, n) = NULL;
}

/* Where the value slot starts after the header, 8-aligned in the object (which is, as are
 * both classes' sizes): IPv4 12 (a 4-byte key), IPv6 16 (8 + 12 + 4 and 16 + 12 + 4). */
static size_t pt_value_off(unsigned ks)
{
	return ((ks + sizeof(struct pt_node) + 7) & ~(size_t)7) - ks;
}

/* Where an inline value starts: right after the header, 4-aligned, whatever the key. */
#define PT_INLINE_OFF sizeof(struct pt_node)

static inline bool pt_is_glue(uint32_t ref)
{
	return (ref & PT_GLUE) != 0;
}

static inline unsigned pt_bit(const uint8_t *key, unsigned n)
{
	return (unsigned)prefix_bit(key, n);
}

static void key_mask(uint8_t *key, unsigned keylen, unsigned len)
{
	unsigned byte = len / 8, bits = len % 8;

	if (bits)
		key[byte++] &= (uint8_t)(0xff00u >> bits);
	if (byte < keylen)
		memset(key + byte, 0, keylen - byte);
}

static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Do the first len bits of a and b agree? Word at a time: this is the inner loop of every
 * lookup. */
static inline bool key_match(const uint8_t *a, const uint8_t *b, unsigned len)
{
	unsigned i = 0;

	for (; len >= 32; len -= 32, i += 4)
		if (load_be32(a + i) != load_be32(b + i))
			return false;
	return !len || ((load_be32(a + i) ^ load_be32(b + i)) >> (32 - len)) == 0;
}

/* Number of leading bits a and b share, at most max. */
static unsigned key_common(const uint8_t *a, const uint8_t *b, unsigned max)
{
	unsigned i, n;

	for (i = 0; i * 32 < max; i++) {
		uint32_t x = load_be32(a + 4 * i) ^ load_be32(b + 4 * i);

		if (x) {
			n = i * 32 + (unsigned)__builtin_clz(x);
			return MIN(n, max);
		}
	}
	return max;
}

/* The tree's form of p: its family and length checked, the key masked. */
static bool pt_key(const struct ptree *t, const struct prefix *p, uint8_t *key, unsigned *len)
{
	if (!t || p->family != t->family || p->len > t->maxlen)
		return false;
	memcpy(key, p->u.bytes, t->keylen);
	key_mask(key, t->keylen, p->len);
	*len = p->len;
	return true;
}

static void pt_to_prefix(const struct ptree *t, const struct pt_node *n, struct prefix *p)
{
	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)t->family;
	p->len = n->len;
	key_copy(p->u.bytes, pt_nkey(t, n), pt_ks(t, n->len));
}

/* ---- the directory: level compression of the top of a large tree ----
 *
 * A descent of a tree of a million prefixes passes about 25 nodes, a cache miss each; the
 * top ones are shared by every descent yet too many to stay cached. The directory skips
 * them: for the key of a prefix of at least dir_len bits within the base, dir[its bits
 * dir_base_len .. dir_len - 1] is the top node of its dir_len-bit block, where the descent
 * can start. The tree itself is unchanged (the directory only points into it), so walks,
 * order and shorter prefixes are as without it; a change that replaces a block's top node
 * takes the way from the root, as without a directory, and then sets the block's entry again.
 * Base: IPv4 0.0.0.0/0 (blocks are /16s), IPv6 2000::/3, where the global table lives
 * (blocks are /19s). 2^16 entries of 4 bytes: 256 KiB, built once the tree holds
 * dir_build_at prefixes and freed when it falls below dir_drop_below.
 * An IPv6 table can sit in a small part of 2000::/3 (one region's, or a table whose
 * prefixes were handed out densely): then a handful of /19 blocks hold it all, and a /48's
 * descent from its block still passes about 30 nodes. So an IPv6 directory's base is the
 * node where the tree first forks, when it lies within 2000::/3 (at most /32): blocks of 16
 * bits below the table's own common prefix. Prefixes outside that base descend from the
 * root as without a directory; when an eighth of the tree's count has been inserted there,
 * the directory is made again over the tree as it is then (a table fed in address order).
 */

/* The base of the directory about to be made (pt_dir_build()): see above. */
static void pt_dir_rebase(struct ptree *t)
{
	const struct pt_node *n = NULL;
	uint32_t ref = t->root;

	memcpy(t->dir_base, t->dir_home, sizeof(t->dir_base));
	t->dir_base_len = t->dir_home_len;
	t->dir_escapes = 0;
	/* Down past the nodes with one child (a default route, a lone covering prefix). */
	while (t->dir_adapt && ref) {
		n = pt_node(t, ref);
		if (n->child[0] && n->child[1])
			break;
		ref = n->child[0] ? n->child[0] : n->child[1];
	}
	if (n && n->len > t->dir_home_len &&
	    key_match(pt_nkey(t, n), t->dir_home, t->dir_home_len)) {
		memset(t->dir_base, 0, sizeof(t->dir_base));
		key_copy(t->dir_base, pt_nkey(t, n), pt_ks(t, n->len));
		t->dir_base_len = MIN((unsigned)n->len, PT_DIR_BASE_MAX);
	}
	t->dir_len = t->dir_base_len + PT_DIR_BITS;
}

/* Block number of (key, len) in t's directory; false when it has none for that prefix. */
static inline bool pt_dir_slot(const struct ptree *t, const uint8_t *key, unsigned len,
			       uint32_t *idx)
{
	unsigned b = t->dir_base_len, byte = b / 8;
	uint32_t w;

	if (!t->dir || len < t->dir_len || !key_match(key, t->dir_base, b))
		return false;
	/* Bits b .. b + 15: within the 3 bytes from b / 8 (the last may lie past the key). */
	w = (uint32_t)key[byte] << 16 | (uint32_t)key[byte + 1] << 8 |
	    (byte + 2 < t->keylen ? key[byte + 2] : 0u);
	*idx = (w >> (8 - b % 8)) & (PT_DIR_SIZE - 1);
	return true;
}

/* Set the entry of key's block (idx) from the tree: the first node with at least dir_len
 * bits on the way down along key, if it is in that block. */
static void pt_dir_fix(struct ptree *t, const uint8_t *key, uint32_t idx)
{
	uint32_t ref = t->root;

	while (ref) {
		const struct pt_node *n = pt_node(t, ref);

		if (!key_match(pt_nkey(t, n), key, MIN((unsigned)n->len, t->dir_len))) {
			ref = PT_NIL; /* the way to the block ends outside it: the block is empty */
			break;
		}
		if (n->len >= t->dir_len)
			break;
		ref = n->child[pt_bit(key, n->len)];
	}
	t->dir[idx] = ref;
}

static void pt_dir_free(struct ptree *t)
{
	XFREE(MTYPE_PTREE_DIR, t->dir);
}

/* Make the directory: every top node of a block within the base, by one pass over the top
 * of the tree (the walk stops at the first node of each block). */
static void pt_dir_build(struct ptree *t)
{
	uint32_t stack[PT_STACK], ref, idx;
	unsigned sp = 0;

	pt_dir_rebase(t);
	t->dir = XCALLOC(MTYPE_PTREE_DIR, PT_DIR_SIZE * sizeof(*t->dir));
	if (t->root)
		stack[sp++] = t->root;
	while (sp) {
		const struct pt_node *n = pt_node(t, ref = stack[--sp]);

		if (n->len >= t->dir_len) {
			if (pt_dir_slot(t, pt_nkey(t, n), n->len, &idx))
				t->dir[idx] = ref;
			continue;
		}
		if (n->child[1])
			stack[sp++] = n->child[1];
		if (n->child[0])
			stack[sp++] = n->child[0];
	}
}

/* ---- the index: exact lookups by hash, in front of the tree ----
 *
 * An exact lookup of a large tree still descends from its block, a cache miss per level; a
 * full table's withdrawals and second feeds are made of such lookups. The index finds a stored
 * prefix in two misses: its slot, then its node. Open addressing (linear probing) of 4-byte
 * slots: the stored node's handle in the low 24 bits and 8 bits of the key's hash above
 * them, so that a probe compares tags without reading the nodes of other prefixes (one slot
 * in 256 that is not the prefix costs a node read). 0 is an empty slot, PT_IX_TOMB one whose
 * prefix was deleted (a probe passes it; a rebuild clears them).
 *
 * Memory: at most 90% full. Made 85% full (4.7 bytes a prefix: a tree that asks for an
 * index mostly holds its table already), and when an insert would pass 90%, rebuilt 75%
 * full (5.3 bytes; growing by a fifth, not by a sixteenth, so that a growing table places
 * each prefix about 6 times over its growth, not 18); made smaller when a quarter full. A
 * probe of an 85%-full table passes about 4 slots on average when the prefix is there, 23
 * (92 bytes, adjacent) when it is not. A rebuild reads the stored slab in memory order
 * (the old table holds no keys) into the table reallocated in place, so the old and the new
 * one are never held together.
 * Built on demand: a tree of at least the directory's size (its thresholds) gets one once
 * dir_build_at / 16 inserts found their prefix already there (a second feed of the table,
 * re-announcements), since a first feed (every prefix new, the tree growing from empty)
 * would only pay for it: a probe and a placement per insert, and the rebuilds as it grows.
 * Dropped below the directory's drop threshold. Handles from 2^24 - 1 up (16 million stored
 * prefixes) do not fit a slot, and a tree that has one has no index.
 */
#define PT_IX_HANDLE_BITS 24
#define PT_IX_HANDLE_MASK ((1u << PT_IX_HANDLE_BITS) - 1)
#define PT_IX_TOMB 0xffffffffu /* tag 0xff, handle 2^24 - 1: no stored handle is that */
#define PT_IX_MIN 64u
#define PT_IX_MADE 85u	/* % full when made or made smaller */
#define PT_IX_GROWN 75u /* % full when grown */

static inline uint64_t pt_hash(const struct ptree *t, const uint8_t *key, unsigned len)
{
	uint64_t h = (uint64_t)load_be32(key) << 8 | len;

	/* A key up to /64 may be a node's short one: its bytes from 8 on are not read (they
	 * are zero in a masked key, so the hash is the same as when they are). */
	if (t->keylen == 16) {
		bool full = len > 64;

		h ^= ((uint64_t)load_be32(key + 4) << 32 | (full ? load_be32(key + 8) : 0)) *
		     0xc2b2ae3d27d4eb4full;
		if (full)
			h ^= (uint64_t)load_be32(key + 12) * 0x165667b19e3779f9ull;
	}
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

/* The slot where a probe for hash h starts (the top 32 bits scaled to the table's size,
 * which need not be a power of two), and the tag (bits below them) its slot carries. */
static inline uint32_t pt_ix_home(const struct ptree *t, uint64_t h)
{
	return (uint32_t)(((h >> 32) * t->ix_size) >> 32);
}

static inline uint32_t pt_ix_tag(uint64_t h)
{
	return (uint32_t)(h >> 8) & ~PT_IX_HANDLE_MASK;
}

/* The stored node of (key, len) by the index: its handle, PT_NIL when absent. */
static inline uint32_t pt_ix_find(const struct ptree *t, const uint8_t *key, unsigned len)
{
	uint64_t h = pt_hash(t, key, len);
	uint32_t i = pt_ix_home(t, h), tag = pt_ix_tag(h), s;

	while ((s = t->ix[i]) != 0) {
		if ((s & ~PT_IX_HANDLE_MASK) == tag && s != PT_IX_TOMB) {
			const struct pt_node *n = pt_node(t, s & PT_IX_HANDLE_MASK);

			if (n->len == len && !memcmp(pt_nkey(t, n), key, pt_ks(t, len)))
				return s & PT_IX_HANDLE_MASK;
		}
		if (++i == t->ix_size)
			i = 0;
	}
	return PT_NIL;
}

/* Put stored handle ref (not in the index) in a free slot of its probe. */
static void pt_ix_put(struct ptree *t, uint32_t ref, const uint8_t *key, unsigned len)
{
	uint64_t h = pt_hash(t, key, len);
	uint32_t i = pt_ix_home(t, h);

	while (t->ix[i] != 0 && t->ix[i] != PT_IX_TOMB)
		if (++i == t->ix_size)
			i = 0;
	if (t->ix[i] == PT_IX_TOMB)
		t->ix_tomb--;
	t->ix[i] = pt_ix_tag(h) | ref;
	t->ix_live++;
}

static void pt_ix_free(struct ptree *t)
{
	XFREE(MTYPE_PTREE_DIR, t->ix);
	t->ix_size = t->ix_live = t->ix_tomb = t->ix_demand = 0;
}

/* (Re)make the index from the stored slab, pct% full (every stored node is then in it).
 * False, with no index, when a handle does not fit a slot. */
static bool pt_ix_build(struct ptree *t, unsigned pct)
{
	const struct pt_slab *s = &t->stored;
	size_t size = MAX((size_t)PT_IX_MIN, t->count * 100 / pct + 1);

	if (size > UINT32_MAX / 2 || (size_t)s->nchunks << PT_CHUNK_SHIFT >= PT_IX_HANDLE_MASK) {
		pt_ix_free(t);
		return false;
	}
	t->ix_demand = 0;
	t->ix = XREALLOC(MTYPE_PTREE_DIR, t->ix, size * sizeof(*t->ix));
	memset(t->ix, 0, size * sizeof(*t->ix));
	t->ix_size = (uint32_t)size;
	t->ix_live = t->ix_tomb = 0;
	for (uint32_t c = 0; c < s->nchunks; c++) {
		const struct pt_chunk *ch = &s->chunks[c];

		for (uint32_t off = 0; ch->mem && off < ch->used; off++) {
			const struct pt_node *n =
				(const struct pt_node *)(ch->base + (size_t)off * ch->size);

			if (n->len != PT_FREED)
				pt_ix_put(t, ((c << PT_CHUNK_SHIFT) | off) + 1, pt_nkey(t, n),
					  n->len);
		}
	}
	return true;
}

/* A new stored node (key and length set), to be found by the index. */
static void pt_ix_insert(struct ptree *t, uint32_t ref, const struct pt_node *n)
{
	if (!t->ix)
		return;
	if (ref >= PT_IX_HANDLE_MASK) {
		pt_ix_free(t); /* too many nodes for a slot: no index, the tree answers alone */
		return;
	}
	/* More than 90% taken (tombstones count: a probe passes them): rebuilt, with ref. */
	if ((uint64_t)(t->ix_live + t->ix_tomb + 1) * 10 > (uint64_t)t->ix_size * 9) {
		pt_ix_build(t, PT_IX_GROWN);
		return;
	}
	pt_ix_put(t, ref, pt_nkey(t, n), n->len);
}

/* Stored node ref (still live, key and length intact) leaves the index. */
static void pt_ix_remove(struct ptree *t, uint32_t ref, const struct pt_node *n)
{
	uint64_t h;
	uint32_t i, j, s;

	if (!t->ix)
		return;
	h = pt_hash(t, pt_nkey(t, n), n->len);
	for (i = pt_ix_home(t, h); (s = t->ix[i]) != 0; i = i + 1 == t->ix_size ? 0 : i + 1) {
		if (s == PT_IX_TOMB || (s & PT_IX_HANDLE_MASK) != ref)
			continue;
		/* Before an empty slot no probe needs to pass it. */
		j = i + 1 == t->ix_size ? 0 : i + 1;
		if (t->ix[j] == 0) {
			t->ix[i] = 0;
		} else {
			t->ix[i] = PT_IX_TOMB;
			t->ix_tomb++;
		}
		t->ix_live--;
		return;
	}
}

/* Does t want an index now (large, asked for, and its handles fit a slot)? */
static bool pt_ix_wanted(const struct ptree *t)
{
	return !t->ix && t->count >= t->dir_build_at && t->ix_demand >= t->dir_build_at / 16 &&
	       (size_t)t->stored.nchunks << PT_CHUNK_SHIFT < PT_IX_HANDLE_MASK;
}

/* After a change of the count: the directory and the index made or dropped at their
 * thresholds, and the index made smaller when a quarter full. */
static void pt_sized(struct ptree *t)
{
	if (t->count < t->dir_drop_below) {
		if (t->dir)
			pt_dir_free(t);
		pt_ix_free(t);
		return;
	}
	if (t->dir && t->dir_escapes > t->count / 8) {
		/* Made again from the tree's common prefix as it is now. */
		pt_dir_free(t);
		pt_dir_build(t);
	}
	if (t->count >= t->dir_build_at && !t->dir)
		pt_dir_build(t);
	if (pt_ix_wanted(t))
		pt_ix_build(t, PT_IX_MADE);
	if (t->ix && t->ix_size > PT_IX_MIN && (uint64_t)t->ix_live * 4 < t->ix_size)
		pt_ix_build(t, PT_IX_MADE);
}

void ptree_directory_thresholds(struct ptree *t, size_t build_at, size_t drop_below)
{
	if (!t)
		return;
	t->dir_build_at = build_at;
	t->dir_drop_below = MIN(drop_below, build_at);
	pt_sized(t);
}

bool ptree_directory_base(const struct ptree *t, struct prefix *base)
{
	if (!t || !t->dir)
		return false;
	memset(base, 0, sizeof(*base));
	base->family = (uint8_t)t->family;
	base->len = (uint8_t)t->dir_base_len;
	memcpy(base->u.bytes, t->dir_base, t->keylen);
	return true;
}

/* ---- the tree ---- */

static struct ptree *pt_new(int family, size_t inline_size)
{
	struct ptree *t;

	if (family != AF_INET && family != AF_INET6)
		return NULL;
	t = XCALLOC(MTYPE_PTREE, sizeof(*t));
	t->family = family;
	t->keylen = (unsigned)family_addr_bytes(family);
	t->maxlen = prefix_maxlen(family);
	t->short_max = family == AF_INET6 ? 64 : 32;
	t->ks[0] = family == AF_INET6 ? 8 : 4;
	t->ks[1] = (uint8_t)t->keylen;
	/* Value slot 8-aligned after the header: IPv4 4 + 12 + 8 = 24 bytes, IPv6 8 + 16 + 8 =
	 * 32 and 16 + 16 + 8 = 40. An inline value of N bytes starts right after the header and
	 * is rounded up to 4 bytes (the next node's alignment): IPv4 16 + N, IPv6 20 + N and
	 * 28 + N. A glue node is its key and header: 16, 20 and 28 bytes. */
	t->inline_size = inline_size;
	t->value_off = inline_size ? PT_INLINE_OFF : pt_value_off(t->ks[1]);
	for (unsigned k = 0; k < PT_CLASSES; k++) {
		size_t v = inline_size ? (inline_size + 3) & ~(size_t)3 : sizeof(void *);

		t->stored.cls[k].hdr = t->glue.cls[k].hdr = t->ks[k];
		t->stored.cls[k].obj_size = (uint32_t)(t->ks[k] + t->value_off + v);
		t->glue.cls[k].obj_size = (uint32_t)(t->ks[k] + sizeof(struct pt_node));
	}
	t->stored.tag = 0;
	t->glue.tag = PT_GLUE;
	if (family == AF_INET6) {
		t->dir_home[0] = 0x20; /* 2000::/3 */
		t->dir_home_len = 3;
		t->dir_adapt = true;
	}
	pt_dir_rebase(t);
	t->dir_build_at = family == AF_INET6 ? PT_DIR_BUILD_AT_V6 : PT_DIR_BUILD_AT;
	t->dir_drop_below = family == AF_INET6 ? PT_DIR_DROP_BELOW_V6 : PT_DIR_DROP_BELOW;
	return t;
}

struct ptree *ptree_new(int family)
{
	return pt_new(family, 0);
}

struct ptree *ptree_new_inline(int family, size_t value_size)
{
	if (value_size == 0 || value_size > PT_INLINE_MAX)
		return NULL;
	return pt_new(family, value_size);
}

void ptree_inline_prefix(int family, const void *value, struct prefix *p)
{
	const struct pt_node *n = (const struct pt_node *)((uintptr_t)value - PT_INLINE_OFF);
	/* pt_ks() without the tree: a short key up to /64 in IPv6 */
	size_t ks = family == AF_INET6 ? (n->len <= 64 ? 8 : 16) : 4;

	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)family;
	p->len = n->len;
	key_copy(p->u.bytes, (const uint8_t *)n - ks, (unsigned)ks);
}

/* The layout table.h's ptree_inline_len() and ptree_inline_spare() read. */
_Static_assert(offsetof(struct pt_node, len) == PT_INLINE_OFF - PT_INLINE_LEN_AT &&
		       offsetof(struct pt_node, pad) == PT_INLINE_OFF - PT_INLINE_LEN_AT + 1 &&
		       sizeof(((struct pt_node *)0)->pad) == PT_INLINE_SPARE &&
		       sizeof(struct pt_node) == 12,
	       "the stored node's header as table.h reads it");

size_t ptree_entry_size(const struct ptree *t)
{
	return t ? t->stored.cls[PT_CLASSES - 1].obj_size : 0;
}

size_t ptree_entry_size_len(const struct ptree *t, unsigned len)
{
	return t ? t->stored.cls[pt_cls(t, len)].obj_size : 0;
}

void ptree_free(struct ptree *t, void (*free_value)(void *value))
{
	uint32_t stack[PT_STACK], ref;
	unsigned sp = 0;

	if (!t)
		return;
	if (free_value && t->root) {
		stack[sp++] = t->root;
		while (sp) {
			struct pt_node *n = pt_node(t, ref = stack[--sp]);

			if (!pt_is_glue(ref) && pt_val(t, n))
				free_value(pt_val(t, n));
			if (n->child[1])
				stack[sp++] = n->child[1];
			if (n->child[0])
				stack[sp++] = n->child[0];
		}
	}
	slab_release(&t->stored);
	slab_release(&t->glue);
	pt_dir_free(t);
	pt_ix_free(t);
	XFREE(MTYPE_PTREE, t);
}

/* Every stored node's value in slab order (a sequential read of the chunks, not a walk of
 * the tree): the objects handed out, less those on the free list (marked PT_FREED). */
static void pt_each_stored(const struct ptree *t, void (*fn)(void *value, void *arg), void *arg)
{
	const struct pt_slab *s = &t->stored;

	for (uint32_t c = 0; c < s->nchunks; c++) {
		const struct pt_chunk *ch = &s->chunks[c];

		for (uint32_t off = 0; ch->mem && off < ch->used; off++) {
			struct pt_node *n = (struct pt_node *)(ch->base + (size_t)off * ch->size);
			void *v;

			if (n->len == PT_FREED)
				continue;
			v = pt_val(t, n);
			if (v)
				fn(v, arg);
		}
	}
}

void ptree_clear(struct ptree *t, void (*release)(void *value, void *arg), void *arg)
{
	if (!t)
		return;
	if (release)
		pt_each_stored(t, release, arg);
	slab_release(&t->stored);
	slab_release(&t->glue);
	pt_dir_free(t);
	pt_ix_free(t);
	t->root = PT_NIL;
	t->count = 0;
}

static uint32_t pt_new_stored(struct ptree *t, const uint8_t *key, unsigned len)
{
	uint32_t ref = slab_alloc(&t->stored, pt_cls(t, len));
	struct pt_node *n = pt_node(t, ref);

	n->child[0] = n->child[1] = PT_NIL;
	n->len = (uint8_t)len;
	memset(n->pad, 0, sizeof(n->pad));
	key_copy(pt_nkey(t, n), key, pt_ks(t, len));
	pt_val_clear(t, n);
	t->count++;
	pt_ix_insert(t, ref, n);
	return ref;
}

/* Replace node ref (reached through *link) by a copy of the other kind, of the same size
 * class (the length stays); returns the copy. */
static uint32_t pt_convert(struct ptree *t, uint32_t *link, uint32_t ref)
{
	struct pt_slab *to = pt_is_glue(ref) ? &t->stored : &t->glue;
	struct pt_node *o = pt_node(t, ref), *n;
	uint32_t nref = slab_alloc(to, pt_cls(t, o->len));

	n = pt_node(t, nref);
	memcpy(n, o, sizeof(*n));
	key_copy(pt_nkey(t, n), pt_nkey(t, o), pt_ks(t, o->len));
	memset(n->pad, 0, sizeof(n->pad)); /* a value's spare bytes go with the value */
	if (!pt_is_glue(ref))
		pt_ix_remove(t, ref, o);
	if (!pt_is_glue(nref)) {
		pt_val_clear(t, n);
		pt_ix_insert(t, nref, n);
	}
	*link = nref;
	slab_free(pt_is_glue(ref) ? &t->glue : &t->stored, ref);
	return nref;
}

/* The stored node of (key, len) in the subtree at *link, made if absent (*created says so).
 * Only links at or below *link change. */
static struct pt_node *pt_get_below(struct ptree *t, uint32_t *link, const uint8_t *key,
				    unsigned len, bool *created)
{
	unsigned c;
	uint32_t ref, nref, gref;
	struct pt_node *n, *nn, *g;
	const uint8_t *nk;

	*created = false;
	for (ref = *link; ref; ref = *link) {
		n = pt_node_key(t, ref, &nk);
		if (n->len > len || !key_match(nk, key, n->len))
			break;
		if (n->len == len) {
			if (pt_is_glue(ref)) {
				ref = pt_convert(t, link, ref);
				t->count++;
				*created = true;
			}
			return pt_node(t, ref);
		}
		link = &n->child[pt_bit(key, n->len)];
	}
	*created = true;

	/* link points into a live node (or the root), which no allocation below moves. */
	nref = pt_new_stored(t, key, len);
	nn = pt_node(t, nref);
	if (!ref) {
		*link = nref;
		return nn;
	}
	n = pt_node(t, ref);
	c = key_common(pt_nkey(t, n), key, MIN((unsigned)n->len, len));
	if (c == len) {
		/* The new prefix covers n: it takes n's place, n hangs below it. */
		nn->child[pt_bit(pt_nkey(t, n), len)] = ref;
		*link = nref;
		return nn;
	}
	/* They diverge at bit c: a glue node there holds both. */
	gref = slab_alloc(&t->glue, pt_cls(t, c));
	g = pt_node(t, gref);
	g->len = (uint8_t)c;
	memset(g->pad, 0, sizeof(g->pad));
	key_copy(pt_nkey(t, g), key, pt_ks(t, c));
	key_mask(pt_nkey(t, g), pt_ks(t, c), c);
	g->child[pt_bit(key, c)] = nref;
	g->child[pt_bit(pt_nkey(t, n), c)] = ref;
	*link = gref;
	return nn;
}

/* pt_get() by the tree: from the directory's block, or from the root. */
static struct pt_node *pt_get_by_tree(struct ptree *t, const uint8_t *key, unsigned len,
				      bool *created)
{
	uint32_t idx, top;
	struct pt_node *n;

	if (pt_dir_slot(t, key, len, &idx)) {
		top = t->dir[idx];
		if (top) {
			n = pt_node(t, top);
			if (n->len == len && !pt_is_glue(top) && key_match(pt_nkey(t, n), key, len))
				return n;
			if (n->len < len && key_match(pt_nkey(t, n), key, n->len))
				/* Below the block's top: its entry stays as it is. */
				return pt_get_below(t, &n->child[pt_bit(key, n->len)], key, len,
						    created);
		}
		/* The block's top changes: the way from the root, then the entry again. */
		n = pt_get_below(t, &t->root, key, len, created);
		if (*created)
			pt_dir_fix(t, key, idx);
		return n;
	}
	n = pt_get_below(t, &t->root, key, len, created);
	if (*created) {
		/* Outside a base deeper than the family's: counted, to make it again. */
		if (t->dir && len >= t->dir_len && t->dir_base_len > t->dir_home_len)
			t->dir_escapes++;
		pt_sized(t);
	}
	return n;
}

/* The stored node of p, made if absent (*created says so). NULL: p does not fit the tree. */
static struct pt_node *pt_get(struct ptree *t, const struct prefix *p, bool *created)
{
	uint8_t key[16];
	unsigned len;
	uint32_t ref;
	struct pt_node *n;

	*created = false;
	if (!pt_key(t, p, key, &len))
		return NULL;
	/* Already stored (a second feed, a re-announcement): found in two misses. */
	if (t->ix && (ref = pt_ix_find(t, key, len)) != PT_NIL)
		return pt_node(t, ref);
	n = pt_get_by_tree(t, key, len, created);
	/* Without an index, a large tree counts the inserts that found their prefix. */
	if (n && !*created && t->dir && !t->ix) {
		t->ix_demand++;
		if (pt_ix_wanted(t))
			pt_ix_build(t, PT_IX_MADE);
	}
	return n;
}

void **ptree_get(struct ptree *t, const struct prefix *p)
{
	bool created;
	struct pt_node *n;

	if (!t || t->inline_size)
		return NULL; /* an inline tree's values are not pointers: ptree_get_inline() */
	n = pt_get(t, p, &created);
	return n ? pt_value(t, n) : NULL;
}

void *ptree_get_inline(struct ptree *t, const struct prefix *p, bool *created)
{
	struct pt_node *n;
	bool dummy;

	if (!created)
		created = &dummy;
	*created = false;
	if (!t || !t->inline_size)
		return NULL;
	n = pt_get(t, p, created);
	return n ? pt_val(t, n) : NULL;
}

/* The exact match's value, and with w (may be NULL) the nodes above it. Inlined into both
 * callers, so that ptree_lookup() keeps no notes and pays nothing for them. */
static inline void *pt_lookup(const struct ptree *t, const struct prefix *p, struct ptree_where *w)
{
	uint8_t key[16];
	unsigned len;
	uint32_t ref, idx, up[PTREE_WHERE_UP] = { PT_NIL };

	if (w)
		memset(w, 0, sizeof(*w));
	if (!pt_key(t, p, key, &len))
		return NULL;
	/* Without notes to take, the index answers (it holds every stored node). */
	if (!w && t->ix) {
		ref = pt_ix_find(t, key, len);
		return ref ? pt_val(t, pt_node(t, ref)) : NULL;
	}
	/* Within a block, p can only be at or below the block's top (whose own parent is then
	 * not known). */
	ref = pt_dir_slot(t, key, len, &idx) ? t->dir[idx] : t->root;
	while (ref) {
		const uint8_t *nk;
		struct pt_node *n = pt_node_key(t, ref, &nk);

		if (n->len > len || !key_match(nk, key, n->len))
			return NULL;
		if (n->len == len) {
			if (pt_is_glue(ref))
				return NULL;
			if (w)
				memcpy(w->up, up, sizeof(up));
			return pt_val(t, n);
		}
		if (w) {
			memmove(&up[1], &up[0], (PTREE_WHERE_UP - 1) * sizeof(up[0]));
			up[0] = ref;
		}
		ref = n->child[pt_bit(key, n->len)];
	}
	return NULL;
}

void *ptree_lookup(const struct ptree *t, const struct prefix *p)
{
	return pt_lookup(t, p, NULL);
}

void *ptree_lookup_where(const struct ptree *t, const struct prefix *p, struct ptree_where *w)
{
	return pt_lookup(t, p, w);
}

/*
 * pt_lookup() with notes of n prefixes at once: their descents interleaved, one level of each
 * per round, each next node fetched while the others step, as pt_prefetch_descents() does
 * ahead of a run of lookups; but the answers and notes are taken on the way, so that the
 * lookups need not walk the descents a second time.
 */
static void pt_lookup_where_group(const struct ptree *t, const struct prefix *p, size_t n,
				  void **val, struct ptree_where *w)
{
	uint32_t ref[PTREE_PREFETCH_MAX], up[PTREE_PREFETCH_MAX][PTREE_WHERE_UP];
	uint8_t key[PTREE_PREFETCH_MAX][16];
	unsigned len[PTREE_PREFETCH_MAX];
	size_t active;

	memset(up, 0, sizeof(up));
	for (size_t i = 0; i < n; i++) {
		uint32_t idx;

		val[i] = NULL;
		memset(&w[i], 0, sizeof(w[i]));
		if (!pt_key(t, &p[i], key[i], &len[i]))
			ref[i] = PT_NIL;
		else
			ref[i] = pt_dir_slot(t, key[i], len[i], &idx) ? t->dir[idx] : t->root;
	}
	do {
		active = 0;
		for (size_t i = 0; i < n; i++) {
			struct pt_node *node;
			const uint8_t *nk;

			if (!ref[i])
				continue;
			node = pt_node_key(t, ref[i], &nk);
			if (node->len >= len[i] || !key_match(nk, key[i], node->len)) {
				if (node->len == len[i] && !pt_is_glue(ref[i]) &&
				    key_match(nk, key[i], node->len)) {
					val[i] = pt_val(t, node);
					memcpy(w[i].up, up[i], sizeof(up[i]));
				}
				ref[i] = PT_NIL;
				continue;
			}
			memmove(&up[i][1], &up[i][0], (PTREE_WHERE_UP - 1) * sizeof(up[i][0]));
			up[i][0] = ref[i];
			ref[i] = node->child[pt_bit(key[i], node->len)];
			if (ref[i]) {
				__builtin_prefetch(pt_node(t, ref[i]));
				active++;
			}
		}
	} while (active);
}

void ptree_lookup_where_group(const struct ptree *t, const struct prefix *p, size_t n, void **val,
			      struct ptree_where *w)
{
	for (size_t i = 0; i < n; i += PTREE_PREFETCH_MAX) {
		size_t m = MIN(n - i, (size_t)PTREE_PREFETCH_MAX);

		if (t)
			pt_lookup_where_group(t, &p[i], m, &val[i], &w[i]);
		else
			for (size_t k = 0; k < m; k++) {
				val[i + k] = NULL;
				memset(&w[i + k], 0, sizeof(w[i + k]));
			}
	}
}

void ptree_lookup_group(const struct ptree *t, const struct prefix *p, size_t n, void **val)
{
	struct ptree_where w[PTREE_PREFETCH_MAX];

	for (size_t i = 0; i < n; i += PTREE_PREFETCH_MAX) {
		size_t m = MIN(n - i, (size_t)PTREE_PREFETCH_MAX);

		if (!t || !t->ix) {
			ptree_lookup_where_group(t, &p[i], m, &val[i], w);
			continue;
		}
		ptree_prefetch(t, &p[i], m);
		for (size_t k = 0; k < m; k++)
			val[i + k] = pt_lookup(t, &p[i + k], NULL);
	}
}

/* The longest stored prefix with a value covering (key, len) in the subtree at ref. */
static void *pt_match_from(const struct ptree *t, uint32_t ref, const uint8_t *key, unsigned len)
{
	void *best = NULL;

	while (ref) {
		const uint8_t *nk;
		struct pt_node *n = pt_node_key(t, ref, &nk);

		if (n->len > len || !key_match(nk, key, n->len))
			break;
		if (!pt_is_glue(ref) && pt_val(t, n))
			best = pt_val(t, n);
		if (n->len == len)
			break;
		ref = n->child[pt_bit(key, n->len)];
	}
	return best;
}

void *ptree_match_prefix(const struct ptree *t, const struct prefix *p)
{
	uint8_t key[16];
	unsigned len;
	uint32_t idx;
	void *best = NULL;

	if (!pt_key(t, p, key, &len))
		return NULL;
	/* Anything found within p's block is longer than what covers the block: only without
	 * it does the answer lie above the block. */
	if (pt_dir_slot(t, key, len, &idx))
		best = pt_match_from(t, t->dir[idx], key, len);
	return best ? best : pt_match_from(t, t->root, key, len);
}

void *ptree_match(const struct ptree *t, const struct ipaddr *a)
{
	struct prefix p;

	if (!t || a->family != t->family)
		return NULL;
	prefix_from_ipaddr(&p, a);
	return ptree_match_prefix(t, &p);
}

/* Outcome of pt_delete_below(). */
enum pt_del { PT_DEL_ABSENT, PT_DEL_DONE, PT_DEL_NEEDS_PARENT };

/*
 * Delete (key, len) from the subtree at *link; *val gets its value. pref is the node holding
 * link (PT_NIL for the root) and plink the link to pref, NULL when the caller cannot change
 * it: then a delete that would splice pref out changes nothing and says PT_DEL_NEEDS_PARENT.
 */
static enum pt_del pt_delete_below(struct ptree *t, uint32_t *link, uint32_t *plink, uint32_t pref,
				   const uint8_t *key, unsigned len, void **val)
{
	uint32_t ref, child, other;
	struct pt_node *n, *pn;

	for (ref = *link; ref; ref = *link) {
		const uint8_t *nk;

		n = pt_node_key(t, ref, &nk);
		if (n->len > len || !key_match(nk, key, n->len))
			return PT_DEL_ABSENT;
		if (n->len == len)
			break;
		plink = link;
		pref = ref;
		link = &n->child[pt_bit(key, n->len)];
	}
	if (!ref || pt_is_glue(ref))
		return PT_DEL_ABSENT;
	n = pt_node(t, ref);
	child = n->child[0] ? n->child[0] : n->child[1];
	if (!child && pt_is_glue(pref) && !plink)
		return PT_DEL_NEEDS_PARENT;
	*val = pt_val(t, n); /* inline: the address only, the area goes with the node */
	t->count--;
	if (n->child[0] && n->child[1]) {
		/* Still a branch point: it stays as glue. */
		pt_convert(t, link, ref);
		return PT_DEL_DONE;
	}
	*link = child;
	pt_ix_remove(t, ref, n);
	slab_free(&t->stored, ref);
	if (!child && pt_is_glue(pref)) {
		/* The parent glue is left with one child: it has no reason to exist. */
		pn = pt_node(t, pref);
		other = pn->child[0] ? pn->child[0] : pn->child[1];
		*plink = other;
		slab_free(&t->glue, pref);
	}
	return PT_DEL_DONE;
}

void *ptree_delete(struct ptree *t, const struct prefix *p)
{
	uint8_t key[16];
	unsigned len;
	uint32_t idx, top;
	struct pt_node *n;
	void *val = NULL;
	enum pt_del r;

	if (!pt_key(t, p, key, &len))
		return NULL;
	if (pt_dir_slot(t, key, len, &idx)) {
		top = t->dir[idx];
		if (!top)
			return NULL;
		n = pt_node(t, top);
		if (n->len > len || !key_match(pt_nkey(t, n), key, n->len))
			return NULL; /* p would be at or below the block's top */
		/* Below the top, unless the top itself would go (or be spliced out as glue). */
		r = n->len < len ? pt_delete_below(t, &n->child[pt_bit(key, n->len)], NULL, top,
						   key, len, &val)
				 : PT_DEL_NEEDS_PARENT;
		if (r == PT_DEL_NEEDS_PARENT) {
			r = pt_delete_below(t, &t->root, NULL, PT_NIL, key, len, &val);
			pt_dir_fix(t, key, idx);
		}
	} else {
		r = pt_delete_below(t, &t->root, NULL, PT_NIL, key, len, &val);
	}
	if (r == PT_DEL_DONE)
		pt_sized(t);
	return val;
}

/*
 * Delete stored node n from the lowest of the ancestors *w names that is still one: a node
 * in use whose prefix covers n's (whatever it was when noted: such a node is on the way to
 * n). From there, the descent of pt_delete_below() is a step or two; with the next such
 * ancestor's link to it, even a splice of that node needs no more. Most notes of a full
 * withdrawal are partly stale by the time of the delete: n's sibling went first and took
 * their glue parent with it, and the grandparent is n's parent now. False (nothing changed)
 * when none holds, or the delete would need the link to the topmost one.
 */
struct pt_where_use {
	uint32_t s1, s2; /* the lowest two noted nodes still above n (PT_NIL: none) */
	struct pt_node *n1, *n2;
	uint32_t *plink; /* the link to s1, when known */
};

/* The noted nodes a delete of n through *w starts from (pt_delete_where()). */
static void pt_where_use(const struct ptree *t, const struct pt_node *n,
			 const struct ptree_where *w, struct pt_where_use *u)
{
	const uint8_t *key = pt_nkey(t, n);
	unsigned len = n->len;

	memset(u, 0, sizeof(*u));
	for (unsigned i = 0; i < PTREE_WHERE_UP && !u->s2; i++) {
		struct pt_node *a = pt_node_live(t, w->up[i]);

		if (!a || a->len >= len || !key_match(pt_nkey(t, a), key, a->len))
			continue;
		if (!u->s1) {
			u->s1 = w->up[i];
			u->n1 = a;
		} else {
			u->s2 = w->up[i];
			u->n2 = a;
		}
	}
	if (!u->s1)
		return;
	if (u->n2 && u->n2->child[pt_bit(key, u->n2->len)] == u->s1)
		u->plink = &u->n2->child[pt_bit(key, u->n2->len)];
	else if (t->root == u->s1)
		u->plink = (uint32_t *)&t->root;
}

static bool pt_delete_where(struct ptree *t, struct pt_node *n, const struct ptree_where *w)
{
	uint32_t s1, *plink, idx, top;
	struct pt_node *n1, *n2;
	struct pt_where_use u;
	void *val = NULL;
	bool slot, safe;
	/* n's prefix, which goes with n (pt_delete_below() reads it only on the way down):
	 * copied when pt_dir_fix() needs it after the delete */
	uint8_t kept[16];
	const uint8_t *key = pt_nkey(t, n);
	unsigned len = n->len;

	pt_where_use(t, n, w, &u);
	if (!u.s1)
		return false;
	s1 = u.s1;
	n1 = u.n1;
	n2 = u.n2;
	plink = u.plink;
	/* The block's top stays when what may change (n, its parent, s1 when plink lets it go)
	 * lies below a node of the block that stays: s1, or s2 when s1 may be spliced out. */
	slot = pt_dir_slot(t, key, len, &idx);
	safe = !slot || (n1->len >= t->dir_len && (!plink || (n2 && n2->len >= t->dir_len)));
	top = slot ? t->dir[idx] : PT_NIL;
	if (!safe) {
		memset(kept, 0, sizeof(kept));
		key_copy(kept, key, pt_ks(t, len));
		key = kept;
	}
	if (pt_delete_below(t, &n1->child[pt_bit(key, n1->len)], plink, s1, key, len, &val) !=
	    PT_DEL_DONE)
		return false;
	/* Otherwise a top that went (freed, or converted to glue) is looked for again. */
	if (!safe && !pt_node_live(t, top))
		pt_dir_fix(t, key, idx);
	return true;
}

bool ptree_delete_inline(struct ptree *t, void *value, const struct ptree_where *w)
{
	struct pt_node *n;
	struct prefix p;

	if (!t || !t->inline_size || !value)
		return false;
	n = (struct pt_node *)((uint8_t *)value - t->value_off);
	if (w) {
		if (pt_delete_where(t, n, w)) {
			pt_sized(t);
			return true;
		}
		t->where_missed++;
	}
	pt_to_prefix(t, n, &p);
	return ptree_delete(t, &p) == value;
}

/*
 * pt_delete_where() fails when no noted node is still above n, or when n is a leaf right
 * under a glue s1 whose link it does not know (s1 must be spliced out): the delete then
 * descends. The same checks, without a change: they read the noted nodes, n and the link
 * below s1 (which the delete reads too).
 */
bool ptree_where_serves(const struct ptree *t, const void *value, const struct ptree_where *w)
{
	const struct pt_node *n;
	struct pt_where_use u;
	uint32_t below;

	if (!t || !t->inline_size || !value || !w)
		return false;
	n = (const struct pt_node *)((const uint8_t *)value - t->value_off);
	pt_where_use(t, n, w, &u);
	if (!u.s1)
		return false;
	if (u.plink || !pt_is_glue(u.s1) || n->child[0] || n->child[1])
		return true;
	below = u.n1->child[pt_bit(pt_nkey(t, n), u.n1->len)];
	return !below || pt_is_glue(below) || pt_node(t, below) != n;
}

void ptree_prefetch_where(const struct ptree *t, const struct ptree_where *w)
{
	const struct pt_node *n;

	if (!t || !w)
		return;
	for (unsigned i = 0; i < PTREE_WHERE_UP; i++)
		if ((n = pt_node_addr(t, w->up[i])))
			__builtin_prefetch(n);
}

/* First stored node with a value in the subtree at ref, in pre-order (= prefix_cmp order). */
static uint32_t pt_first_from(const struct ptree *t, uint32_t ref)
{
	uint32_t stack[PT_STACK];
	unsigned sp = 0;

	if (!ref)
		return PT_NIL;
	stack[sp++] = ref;
	while (sp) {
		struct pt_node *n = pt_node(t, ref = stack[--sp]);

		if (!pt_is_glue(ref) && pt_val(t, n))
			return ref;
		if (n->child[1])
			stack[sp++] = n->child[1];
		if (n->child[0])
			stack[sp++] = n->child[0];
	}
	return PT_NIL;
}

/* Does node n sort after (key, len)? Word compares: this runs at every level of a descent. */
static bool pt_after(const struct ptree *t, const struct pt_node *n, const uint8_t *key,
		     unsigned len)
{
	const uint8_t *nk = pt_nkey(t, n);
	unsigned ks = pt_ks(t, n->len);

	/* a short key's bytes past its end are zero */
	for (unsigned i = 0; i < t->keylen; i += 4) {
		uint32_t a = i < ks ? load_be32(nk + i) : 0, b = load_be32(key + i);

		if (a != b)
			return a > b;
	}
	return n->len > len;
}

/*
 * The subtrees that hold the stored prefixes strictly after (key, len), pushed on stack so
 * that popping them and walking each in pre-order (child 1 pushed before child 0) gives
 * prefix_cmp order. One descent along the key: at each node whose block holds the key, the
 * child block after the key's is wholly after it and waits on the stack; a node that sorts
 * after the key is pushed whole; one before it whose block does not hold the key ends the
 * descent. At most one entry per level, plus two at the end: within PT_STACK + 1.
 */
static unsigned pt_seek_after(const struct ptree *t, const uint8_t *key, unsigned len,
			      uint32_t *stack)
{
	unsigned sp = 0;

	for (uint32_t ref = t->root; ref;) {
		const struct pt_node *n = pt_node(t, ref);

		if (pt_after(t, n, key, len)) {
			stack[sp++] = ref;
			break;
		}
		if (!key_match(pt_nkey(t, n), key, n->len))
			break; /* n's whole block sorts before the key */
		if (n->len == len) {
			/* n is the key itself: everything below it comes after. */
			if (n->child[1])
				stack[sp++] = n->child[1];
			if (n->child[0])
				stack[sp++] = n->child[0];
			break;
		}
		/* n->len < len here (a longer n holding the key would sort after it). */
		if (pt_bit(key, n->len) == 0) {
			if (n->child[1])
				stack[sp++] = n->child[1];
			ref = n->child[0];
		} else {
			ref = n->child[1];
		}
	}
	return sp;
}

/* Pop subtrees off stack in pre-order until a stored node with a value: its handle, or PT_NIL
 * when the stack runs out. */
static uint32_t pt_pop_next(const struct ptree *t, uint32_t *stack, unsigned *sp)
{
	while (*sp) {
		uint32_t ref = stack[--*sp];
		const struct pt_node *n = pt_node(t, ref);

		if (n->child[1])
			stack[(*sp)++] = n->child[1];
		if (n->child[0])
			stack[(*sp)++] = n->child[0];
		if (!pt_is_glue(ref) && pt_val(t, (struct pt_node *)n))
			return ref;
	}
	return PT_NIL;
}

void *ptree_first(const struct ptree *t, struct prefix *p)
{
	uint32_t ref = t ? pt_first_from(t, t->root) : PT_NIL;
	struct pt_node *n;

	if (!ref)
		return NULL;
	n = pt_node(t, ref);
	pt_to_prefix(t, n, p);
	return pt_val(t, n);
}

void *ptree_next(const struct ptree *t, const struct prefix *after, struct prefix *p)
{
	void *v;

	return ptree_next_batch(t, after, &v, 1, p) ? v : NULL;
}

size_t ptree_next_batch(const struct ptree *t, const struct prefix *after, void **values,
			size_t max, struct prefix *last)
{
	uint32_t stack[PT_STACK + 2], ref, last_ref = PT_NIL;
	uint8_t key[16];
	unsigned len, sp = 0;
	size_t n = 0;

	if (!t || !t->root || max == 0)
		return 0;
	if (!after || after->family < t->family) {
		/* prefix_cmp orders by family first: a smaller family means "from the start". */
		stack[sp++] = t->root;
	} else {
		if (after->family != t->family || !pt_key(t, after, key, &len))
			return 0;
		sp = pt_seek_after(t, key, len, stack);
	}
	while (n < max && (ref = pt_pop_next(t, stack, &sp)) != PT_NIL) {
		values[n++] = pt_val(t, pt_node(t, ref));
		last_ref = ref;
	}
	if (last_ref)
		pt_to_prefix(t, pt_node(t, last_ref), last);
	return n;
}

int ptree_walk(const struct ptree *t, ptree_walk_cb cb, void *arg)
{
	uint32_t stack[PT_STACK], ref;
	unsigned sp = 0;
	struct prefix p;
	int ret;

	if (!t || !t->root)
		return 0;
	stack[sp++] = t->root;
	while (sp) {
		struct pt_node *n = pt_node(t, ref = stack[--sp]);

		if (!pt_is_glue(ref) && pt_val(t, n)) {
			pt_to_prefix(t, n, &p);
			ret = cb(&p, pt_val(t, n), arg);
			if (ret)
				return ret;
		}
		if (n->child[1])
			stack[sp++] = n->child[1];
		if (n->child[0])
			stack[sp++] = n->child[0];
	}
	return 0;
}

/* The descents of p[0 .. n - 1] (at most PTREE_PREFETCH_MAX), one level of each per round. */
static void pt_prefetch_descents(const struct ptree *t, const struct prefix *p, size_t n)
{
	uint32_t ref[PTREE_PREFETCH_MAX];
	uint8_t key[PTREE_PREFETCH_MAX][16];
	unsigned len[PTREE_PREFETCH_MAX];
	size_t active;

	unsigned common, shortest;

	if (!t || !t->root || n < 2)
		return;
	n = MIN(n, (size_t)PTREE_PREFETCH_MAX);
	for (size_t i = 0; i < n; i++) {
		uint32_t idx;

		if (!pt_key(t, &p[i], key[i], &len[i]))
			ref[i] = PT_NIL;
		else
			ref[i] = pt_dir_slot(t, key[i], len[i], &idx) ? t->dir[idx] : t->root;
	}
	/* Neighbours (a table in prefix order: all within a block of 256 of the shortest's
	 * length) share their descents, which the first brings into the cache: nothing to gain. */
	common = shortest = len[0];
	for (size_t i = 1; i < n; i++) {
		shortest = MIN(shortest, len[i]);
		common = MIN(common, key_common(key[0], key[i], t->maxlen));
	}
	if (common + 8 >= shortest)
		return;
	/* One level of every descent per round: the nodes asked for in a round are loaded while
	 * the other descents step, instead of one cache miss after the other. */
	do {
		active = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pt_node *node;

			if (!ref[i])
				continue;
			node = pt_node(t, ref[i]);
			if (node->len >= len[i] ||
			    !key_match(pt_nkey(t, node), key[i], node->len)) {
				if (node->len == len[i] && !pt_is_glue(ref[i]))
					__builtin_prefetch(pt_val(t, (struct pt_node *)node));
				ref[i] = PT_NIL;
				continue;
			}
			ref[i] = node->child[pt_bit(key[i], node->len)];
			if (ref[i]) {
				__builtin_prefetch(pt_node(t, ref[i]));
				active++;
			}
		}
	} while (active);
}

void ptree_prefetch_descents(const struct ptree *t, const struct prefix *p, size_t n)
{
	pt_prefetch_descents(t, p, n);
}

/*
 * With the index, in two passes: the probes' first slots, then the node each probe names
 * (its first slot with the prefix's tag) and its value. A prefix the index does not have
 * is about to be inserted (a lookup of it needs nothing more): its descent is fetched.
 */
void ptree_prefetch(const struct ptree *t, const struct prefix *p, size_t n)
{
	struct prefix absent[PTREE_PREFETCH_MAX];
	uint32_t home[PTREE_PREFETCH_MAX], tag[PTREE_PREFETCH_MAX];
	size_t nabsent = 0;

	if (!t || !t->ix || n < 2) {
		pt_prefetch_descents(t, p, n);
		return;
	}
	n = MIN(n, (size_t)PTREE_PREFETCH_MAX);
	for (size_t i = 0; i < n; i++) {
		uint8_t key[16];
		unsigned len;
		uint64_t h;

		if (!pt_key(t, &p[i], key, &len)) {
			tag[i] = PT_IX_TOMB; /* nothing to fetch */
			continue;
		}
		h = pt_hash(t, key, len);
		home[i] = pt_ix_home(t, h);
		tag[i] = pt_ix_tag(h);
		__builtin_prefetch(&t->ix[home[i]]);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t j = home[i], s;

		if (tag[i] == PT_IX_TOMB)
			continue;
		while ((s = t->ix[j]) != 0 &&
		       ((s & ~PT_IX_HANDLE_MASK) != tag[i] || s == PT_IX_TOMB))
			if (++j == t->ix_size)
				j = 0;
		if (s) {
			struct pt_node *node = pt_node(t, s & PT_IX_HANDLE_MASK);

			__builtin_prefetch(node);
			__builtin_prefetch((uint8_t *)node + t->value_off);
		} else {
			absent[nabsent++] = p[i];
		}
	}
	pt_prefetch_descents(t, absent, nabsent);
}

int ptree_walk_covering(const struct ptree *t, const struct prefix *p, ptree_walk_cb cb, void *arg)
{
	uint8_t key[16];
	unsigned len;
	uint32_t ref;
	struct prefix np;
	int ret;

	if (!pt_key(t, p, key, &len))
		return 0;
	/* The nodes on the way down are exactly the blocks that contain p, shortest first. */
	for (ref = t->root; ref;) {
		struct pt_node *n = pt_node(t, ref);

		if (n->len > len || !key_match(pt_nkey(t, n), key, n->len))
			break;
		if (!pt_is_glue(ref) && pt_val(t, n)) {
			pt_to_prefix(t, n, &np);
			ret = cb(&np, pt_val(t, n), arg);
			if (ret)
				return ret;
		}
		if (n->len == len)
			break;
		ref = n->child[pt_bit(key, n->len)];
	}
	return 0;
}

size_t ptree_count(const struct ptree *t)
{
	return t ? t->count : 0;
}

size_t ptree_memory(const struct ptree *t)
{
	if (!t)
		return 0;
	return malloc_usable_size((void *)t) + t->stored.bytes + t->glue.bytes +
	       (t->dir ? malloc_usable_size(t->dir) : 0) + (t->ix ? malloc_usable_size(t->ix) : 0) +
	       (size_t)(t->stored.nchunks + t->glue.nchunks) * sizeof(struct pt_chunk);
}

bool ptree_index_make(struct ptree *t)
{
	if (!t)
		return false;
	if (!t->ix && t->dir && t->count >= t->dir_build_at &&
	    (size_t)t->stored.nchunks << PT_CHUNK_SHIFT < PT_IX_HANDLE_MASK)
		pt_ix_build(t, PT_IX_MADE);
	return t->ix != NULL;
}

size_t ptree_index_slots(const struct ptree *t)
{
	return t && t->ix ? t->ix_size : 0;
}

size_t ptree_where_missed(const struct ptree *t)
{
	return t ? t->where_missed : 0;
}
