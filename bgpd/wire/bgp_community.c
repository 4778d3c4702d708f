/* SPDX-License-Identifier: ISC */
/*
 * Interned 32-bit lists (communities, cluster lists) and large community lists, with their
 * text forms. Cluster lists are kept in received order; communities arrive sorted and without
 * repeats (bgp_attr.c, as FRR).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <errno.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_vstore.h"
#include "lib/hash.h"
#include "lib/log.h"

DEFINE_MTYPE(BGP_U32LIST, "BGP community/cluster list");
DEFINE_MTYPE(BGP_LCOMMLIST, "BGP large community list");
DEFINE_MTYPE(BGP_ECOMMLIST, "BGP extended community list");

/* Longest list a 65535-byte attribute can carry. */
#define U32LIST_MAX (65535 / 4)
/* The 32-bit lists' hash seed (bgp_u32list_hash() and the interning agree on it). */
#define U32LIST_SEED 0x636f6d6du

/*
 * Each list type: a store of slabs with 4-byte index slots (bgp_vstore.c) for lists up to
 * BGP_VSTORE_MAX_SIZE bytes, malloc and lib/hash.c for the rare longer ones. A full table has
 * hundreds of thousands of distinct community lists of a few entries: one malloc each would
 * add a 16-byte header, lib/hash.c a 12-byte slot.
 */
struct list_table {
	struct bgp_vstore store;
	struct hash *large;
};

static struct list_table u32list_table;
static struct list_table lcomm_table;
static struct list_table ecomm_table;

/* Lookup keys, filled in place (see bgp_aspath.c for why). */
static _Alignas(struct bgp_u32list) uint8_t
	u32_key_buf[sizeof(struct bgp_u32list) + U32LIST_MAX * 4];
static _Alignas(struct bgp_lcommlist) uint8_t
	lc_key_buf[sizeof(struct bgp_lcommlist) + U32LIST_MAX * 4];
static _Alignas(struct bgp_ecommlist) uint8_t
	ec_key_buf[sizeof(struct bgp_ecommlist) + U32LIST_MAX * 4];

static uint32_t list_key(const void *item)
{
	/* Both list types start with refcnt, hash, count. */
	return ((const struct bgp_u32list *)item)->hash;
}

static bool u32list_eq(const void *a, const void *b)
{
	const struct bgp_u32list *la = a, *lb = b;

	return la->count == lb->count && memcmp(la->val, lb->val, (size_t)la->count * 4) == 0;
}

static bool lcomm_eq(const void *a, const void *b)
{
	const struct bgp_lcommlist *la = a, *lb = b;

	return la->count == lb->count && memcmp(la->val, lb->val, (size_t)la->count * 12) == 0;
}

static bool ecomm_eq(const void *a, const void *b)
{
	const struct bgp_ecommlist *la = a, *lb = b;

	return la->count == lb->count && memcmp(la->val, lb->val, (size_t)la->count * 8) == 0;
}

/*
 * The list types are (refcnt, hash, count, val[]): one interning routine serves them, with
 * `words` values per entry (1 for communities and cluster lists, 2 for extended communities,
 * 3 for large communities).
 */
_Static_assert(offsetof(struct bgp_u32list, val) == offsetof(struct bgp_lcommlist, val) &&
		       offsetof(struct bgp_u32list, count) == offsetof(struct bgp_lcommlist, count),
	       "community list layouts must match");
_Static_assert(offsetof(struct bgp_u32list, val) == offsetof(struct bgp_ecommlist, val) &&
		       offsetof(struct bgp_u32list, count) == offsetof(struct bgp_ecommlist, count),
	       "extended community list layout must match");

struct list_kind {
	struct list_table *table;
	hash_eq_fn eq;
	const char *name;
	struct mtype *mtype;
	struct bgp_u32list *key; /* the lookup key buffer */
	unsigned words;
	uint32_t seed;
};

static size_t list_obj_size(size_t bytes)
{
	return sizeof(struct bgp_u32list) + bytes;
}

static struct bgp_u32list *list_intern(const struct list_kind *k, const uint32_t *val,
				       uint32_t count)
{
	size_t bytes = (size_t)count * 4 * k->words;
	bool large = list_obj_size(bytes) > BGP_VSTORE_MAX_SIZE;
	struct list_table *t = k->table;
	struct bgp_u32list *l;

	if (count > U32LIST_MAX / k->words)
		return NULL;
	if (!t->store.mt)
		bgp_vstore_init(&t->store, k->mtype, MTYPE_BGP_VSTORE_INDEX, k->eq);
	if (count && val != k->key->val)
		memmove(k->key->val, val, bytes);
	k->key->count = count;
	k->key->hash = hash_bytes(k->key->val, bytes, k->seed);
	if (large)
		l = t->large ? hash_lookup(t->large, k->key) : NULL;
	else
		l = bgp_vstore_lookup(&t->store, k->key, k->key->hash);
	if (l) {
		l->refcnt++;
		return l;
	}
	if (large) {
		if (!t->large)
			t->large = hash_new(list_key, k->eq, k->name);
		l = XMALLOC(k->mtype, list_obj_size(bytes));
	} else {
		l = bgp_vstore_add(&t->store, k->key->hash, list_obj_size(bytes));
	}
	l->refcnt = 1;
	l->hash = k->key->hash;
	l->count = count;
	if (count)
		memcpy(l->val, k->key->val, bytes);
	if (large)
		hash_insert(t->large, l);
	return l;
}

struct bgp_u32list *bgp_u32list_intern(const uint32_t *val, uint32_t count)
{
	static const struct list_kind kind = {
		.table = &u32list_table,
		.eq = u32list_eq,
		.name = "BGP community lists",
		.mtype = MTYPE_BGP_U32LIST,
		.key = (struct bgp_u32list *)u32_key_buf,
		.words = 1,
		.seed = U32LIST_SEED,
	};

	return list_intern(&kind, val, count);
}

uint32_t bgp_u32list_hash(const uint32_t *val, uint32_t count)
{
	return hash_bytes(val, (size_t)count * 4, U32LIST_SEED);
}

void bgp_u32list_prefetch(uint32_t hv, uint32_t count)
{
	if (count <= U32LIST_MAX && list_obj_size((size_t)count * 4) <= BGP_VSTORE_MAX_SIZE)
		bgp_vstore_prefetch(&u32list_table.store, hv);
}

/* Lists of up to this many are sorted by insertion (one pass when already in order): glibc's
 * qsort() is a merge sort through a comparator pointer, 1.9% of a shaped feed's profile when
 * every UPDATE's few communities went through it. */
#define SMALL_SORT_MAX 32

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

uint32_t bgp_u32list_set(uint32_t *val, uint32_t n)
{
	uint32_t k = 0;

	if (n > SMALL_SORT_MAX) {
		qsort(val, n, sizeof(*val), u32_cmp);
	} else {
		for (uint32_t i = 1; i < n; i++) {
			uint32_t x = val[i], j = i;

			for (; j > 0 && val[j - 1] > x; j--)
				val[j] = val[j - 1];
			val[j] = x;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (!k || val[k - 1] != val[i])
			val[k++] = val[i];
	return k;
}

/* The key buffer, for the attribute parser to fill without a copy. */
uint32_t *bgp_u32list_key_vals(void)
{
	return ((struct bgp_u32list *)u32_key_buf)->val;
}

uint32_t *bgp_lcommlist_key_vals(void)
{
	return ((struct bgp_lcommlist *)lc_key_buf)->val;
}

uint32_t *bgp_ecommlist_key_vals(void)
{
	return ((struct bgp_ecommlist *)ec_key_buf)->val;
}

struct bgp_u32list *bgp_u32list_ref(struct bgp_u32list *l)
{
	if (l)
		l->refcnt++;
	return l;
}

/* words: 32-bit values per entry, as in struct list_kind. */
static void list_unref(struct list_table *t, unsigned words, const char *name,
		       struct bgp_u32list *l)
{
	if (!l)
		return;
	if (l->refcnt == 0) {
		log_err("BUG: %s: reference count underflow; please report", name);
		return;
	}
	if (--l->refcnt)
		return;
	if (list_obj_size((size_t)l->count * 4 * words) > BGP_VSTORE_MAX_SIZE) {
		hash_remove(t->large, l);
		XFREE(t->store.mt, l);
		return;
	}
	bgp_vstore_del(&t->store, l);
}

void bgp_u32list_unref(struct bgp_u32list *l)
{
	list_unref(&u32list_table, 1, "community list", l);
}

void bgp_u32list_prefetch_release(const struct bgp_u32list *l)
{
	if (l && l->refcnt == 1 && list_obj_size((size_t)l->count * 4) <= BGP_VSTORE_MAX_SIZE)
		bgp_vstore_prefetch(&u32list_table.store, l->hash);
}

struct bgp_lcommlist *bgp_lcommlist_intern(const uint32_t *val, uint32_t count)
{
	static const struct list_kind kind = {
		.table = &lcomm_table,
		.eq = lcomm_eq,
		.name = "BGP large community lists",
		.mtype = MTYPE_BGP_LCOMMLIST,
		.key = (struct bgp_u32list *)lc_key_buf,
		.words = 3,
		.seed = 0x6c636f6du,
	};

	return (struct bgp_lcommlist *)list_intern(&kind, val, count);
}

void bgp_lcommlist_unref(struct bgp_lcommlist *l)
{
	list_unref(&lcomm_table, 3, "large community list", (struct bgp_u32list *)l);
}

struct bgp_ecommlist *bgp_ecommlist_intern(const uint32_t *val, uint32_t count)
{
	static const struct list_kind kind = {
		.table = &ecomm_table,
		.eq = ecomm_eq,
		.name = "BGP extended community lists",
		.mtype = MTYPE_BGP_ECOMMLIST,
		.key = (struct bgp_u32list *)ec_key_buf,
		.words = 2,
		.seed = 0x65636f6du,
	};

	return (struct bgp_ecommlist *)list_intern(&kind, val, count);
}

struct bgp_ecommlist *bgp_ecommlist_ref(struct bgp_ecommlist *l)
{
	if (l)
		l->refcnt++;
	return l;
}

void bgp_ecommlist_unref(struct bgp_ecommlist *l)
{
	list_unref(&ecomm_table, 2, "extended community list", (struct bgp_u32list *)l);
}

static size_t list_table_count(const struct list_table *t)
{
	bgp_attr_release_pending(); /* queued sets hold lists */
	return t->store.live + (t->large ? hash_count(t->large) : 0);
}

size_t bgp_ecommlist_count(void)
{
	return list_table_count(&ecomm_table);
}

size_t bgp_u32list_count(void)
{
	return list_table_count(&u32list_table);
}

size_t bgp_lcommlist_count(void)
{
	return list_table_count(&lcomm_table);
}

static void list_table_finish(struct list_table *t, const char *name)
{
	size_t left = list_table_count(t);

	if (left)
		log_warn("%s: %zu still referenced at exit (a leak)", name, left);
	hash_free(t->large);
	t->large = NULL;
	/* Slabs of leaked lists stay: freeing them would turn the leak into a use after free. */
	bgp_vstore_fini(&t->store);
}

void bgp_community_trim(void)
{
	bgp_attr_release_pending();
	bgp_vstore_trim(&u32list_table.store);
	bgp_vstore_trim(&lcomm_table.store);
	bgp_vstore_trim(&ecomm_table.store);
}

void bgp_community_finish(void)
{
	list_table_finish(&u32list_table, "BGP community lists");
	list_table_finish(&lcomm_table, "BGP large community lists");
	list_table_finish(&ecomm_table, "BGP extended community lists");
}

bool bgp_u32list_contains(const struct bgp_u32list *l, uint32_t v)
{
	uint32_t i;

	if (!l)
		return false;
	for (i = 0; i < l->count; i++)
		if (l->val[i] == v)
			return true;
	return false;
}

/* ---- text ---- */

static const struct {
	uint32_t val;
	const char *name;
} well_known[] = {
	{ 0, "internet" },
	{ BGP_COMM_GRACEFUL_SHUTDOWN, "graceful-shutdown" },
	{ BGP_COMM_ACCEPT_OWN, "accept-own" },
	{ 0xFFFF0002u, "route-filter-translated-v4" },
	{ 0xFFFF0003u, "route-filter-v4" },
	{ 0xFFFF0004u, "route-filter-translated-v6" },
	{ 0xFFFF0005u, "route-filter-v6" },
	{ BGP_COMM_LLGR_STALE, "llgr-stale" },
	{ BGP_COMM_NO_LLGR, "no-llgr" },
	{ 0xFFFF0008u, "accept-own-nexthop" },
	{ BGP_COMM_BLACKHOLE, "blackhole" },
	{ BGP_COMM_NO_EXPORT, "no-export" },
	{ BGP_COMM_NO_ADVERTISE, "no-advertise" },
	{ BGP_COMM_NO_EXPORT_SUBCONFED, "local-AS" },
	{ BGP_COMM_NO_PEER, "no-peer" },
};

const char *bgp_community_str(uint32_t comm, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < array_size(well_known); i++)
		if (well_known[i].val == comm) {
			snprintf(buf, size, "%s", well_known[i].name);
			return buf;
		}
	snprintf(buf, size, "%u:%u", comm >> 16, comm & 0xffff);
	return buf;
}

int bgp_community_from_str(const char *s, uint32_t *comm)
{
	unsigned long hi, lo;
	char *end;
	size_t i;

	for (i = 0; i < array_size(well_known); i++)
		if (strcmp(s, well_known[i].name) == 0) {
			*comm = well_known[i].val;
			return 0;
		}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	hi = strtoul(s, &end, 10);
	if (errno)
		return -1;
	if (*end == '\0') {
		if (hi > UINT32_MAX)
			return -1;
		*comm = (uint32_t)hi;
		return 0;
	}
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return -1;
	lo = strtoul(end + 1, &end, 10);
	if (errno || *end || hi > 0xffff || lo > 0xffff)
		return -1;
	*comm = (uint32_t)(hi << 16 | lo);
	return 0;
}

/* Append with a separating space; tracks the length even past size (for truncation). */
static void put_word(char *buf, size_t size, size_t *o, const char *w)
{
	int n = snprintf(buf + MIN(*o, size - 1), size - MIN(*o, size - 1), "%s%s", *o ? " " : "",
			 w);

	*o += (size_t)n;
}

int bgp_u32list_community_str(const struct bgp_u32list *l, char *buf, size_t size)
{
	char w[32];
	size_t o = 0;
	uint32_t i;

	if (!size)
		return -1;
	buf[0] = '\0';
	for (i = 0; l && i < l->count; i++)
		put_word(buf, size, &o, bgp_community_str(l->val[i], w, sizeof(w)));
	return o >= size ? -1 : (int)o;
}

int bgp_u32list_addr_str(const struct bgp_u32list *l, char *buf, size_t size)
{
	char w[INET_ADDRSTRLEN];
	struct in_addr a;
	size_t o = 0;
	uint32_t i;

	if (!size)
		return -1;
	buf[0] = '\0';
	for (i = 0; l && i < l->count; i++) {
		a.s_addr = htonl(l->val[i]);
		inet_ntop(AF_INET, &a, w, sizeof(w));
		put_word(buf, size, &o, w);
	}
	return o >= size ? -1 : (int)o;
}

int bgp_lcommlist_str(const struct bgp_lcommlist *l, char *buf, size_t size)
{
	char w[40];
	size_t o = 0;
	uint32_t i;

	if (!size)
		return -1;
	buf[0] = '\0';
	for (i = 0; l && i < l->count; i++) {
		snprintf(w, sizeof(w), "%u:%u:%u", l->val[3 * i], l->val[3 * i + 1],
			 l->val[3 * i + 2]);
		put_word(buf, size, &o, w);
	}
	return o >= size ? -1 : (int)o;
}

int bgp_lcommunity_from_str(const char *s, uint32_t v[3])
{
	const char *p = s;

	for (int i = 0; i < 3; i++) {
		unsigned long long n;
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		n = strtoull(p, &end, 10);
		if (errno || n > UINT32_MAX || *end != (i < 2 ? ':' : '\0'))
			return -1;
		v[i] = (uint32_t)n;
		p = end + (i < 2);
	}
	return 0;
}

/* Triples compare word by word: the order of FRR's byte comparison of the wire form. */
static int u96_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

uint32_t bgp_comm_sort_uniq(uint32_t *v, uint32_t n)
{
	uint32_t k = 0;

	qsort(v, n, sizeof(*v), u32_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

uint32_t bgp_lcomm_sort_uniq(uint32_t *v, uint32_t n)
{
	uint32_t k = 0;

	qsort(v, n, 3 * sizeof(*v), u96_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (!k || u96_cmp(&v[3 * (k - 1)], &v[3 * i]) != 0) {
			memmove(&v[3 * k], &v[3 * i], 3 * sizeof(*v));
			k++;
		}
	return k;
}

const char *bgp_send_community_name(bool standard, bool extended, bool large, bool text)
{
	if (!standard && !extended && !large)
		return NULL;
	/* FRR 8.4's two views differ (the lab's policy_lcomm compared them): the JSON names
	 * only standard and extended, the text names large before extended. */
	if (!text)
		return standard && extended ? "extendedAndStandard"
		       : extended	    ? "extended"
					    : "standard";
	if (standard && extended && large)
		return "all";
	return large ? "large" : extended ? "extended" : "standard";
}
