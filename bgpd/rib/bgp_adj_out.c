/* SPDX-License-Identifier: ISC */
/*
 * Adj-RIB-Out, without per-prefix per-peer objects.
 *
 * State
 *   - Every dest carries a bitmap of the sessions it is currently advertised to (bit = source
 *     id: inline for ids 1..63 in a pointer-sized field, an allocated bitmap beyond). That is
 *     the whole Adj-RIB-Out: what a session was sent is the best path run through the export
 *     rules, which are deterministic, so it is recomputed rather than stored. Withdrawals go
 *     exactly to the sessions whose bit is set; pfxSnt is the number of bits a session has.
 *   - The RIB appends a dest to its address family's change journal when the best path or
 *     its attributes change (rib_journal_mark()). An entry is a dest pointer (8 bytes, no
 *     prefix copy). A dest is not appended again while every reader still has its latest
 *     entry ahead (journal.passed), so a prefix that changes often while peers are slow costs
 *     one entry; readers skip entries that are not a dest's latest.
 *
 * A session's life
 *   - Up: it walks the table in prefix order (resumable: its cursor is the last prefix
 *     visited, and ptree_next_batch() survives deletions), remembering the journal position at
 *     which it started. Dests whose latest entry is at or after that position are skipped by
 *     the walk: the journal brings them. After the walk it reads the journal from that
 *     position, and sends End-of-RIB (RFC 4724 2) once it has caught up with the journal head
 *     as of the end of the walk, so EoR follows the whole initial table.
 *   - ROUTE-REFRESH restarts the walk from the session's journal cursor. With enhanced route
 *     refresh (RFC 7313) the walk goes between a BoRR, sent at once, and an EoRR, sent when the
 *     session has caught up with the journal as of the walk's end (as End-of-RIB is), so the
 *     peer can drop what the walk did not bring.
 *   - Down: its output state goes at once; its bits are cleared by the same bounded walk that
 *     removes its paths (bgp_rib_work.c). Its id is not reused before that walk ends.
 *
 * Output
 *   - The attribute set sent is computed from the best path when sending (AS prepended and
 *     next hop self towards eBGP, LOCAL_PREF and MED rules, see export_tmpl_make()) and
 *     encoded at once, not interned (export_wire()). A small per-session cache maps (stored
 *     set, kind of source) to the encoded bytes, so the work is per distinct attribute set,
 *     not per prefix. `show ... advertised-routes` gets the same set interned (export_attr()).
 *   - A batch of up to RIB_BATCH dests is grouped by exported attributes (their bytes) and
 *     each group goes into as few UPDATEs as the message size allows (bgp_ub_*);
 *     withdrawals are grouped likewise and sent first. Grouping a whole batch packs better than
 *     grouping only consecutive prefixes: attribute sets are scattered over prefix order. The
 *     last message stays open for the next batch while the walk or the journal goes on (so a
 *     table with one attribute set goes out in ceil(N / per-message) UPDATEs); it is finished
 *     before any message with other attributes, and when the session has caught up.
 *   - Update groups: sessions that would be sent the same bytes and stand at the same journal
 *     position share a batch: one decision and one encoding, copies of the messages for the
 *     others (share_begin() below, bgp_update_group.c).
 *   - Backpressure: a batch stops growing once its estimated size reaches the room
 *     the session's send_space() reported; messages are handed over while there is room (see
 *     hand_over()), the rest waits in a per-session pending buffer, and nothing more is
 *     computed for that session until rib_peer_writable().
 *   - Journal entries are trimmed once every reader is past them. A dest left without paths
 *     is freed when no live entry points to it and no session that is up still has its bit
 *     (that session has yet to be sent the withdrawal).
 *   - A session whose cursor lags more than max(RIB_JOURNAL_LAG_MIN, 2 x table size) entries
 *     (a stalled peer while the table churns) restarts with a walk from the head: what it
 *     missed is the current table plus the path-less dests that still carry its bit, so the
 *     journal stays bounded by the table size.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib_aggregate.h"
#include "bgpd/rib/bgp_rib_deforig.h"
#include "bgpd/rib/bgp_rib_drain.h"
#include "bgpd/rib/bgp_gshut.h"
#include "bgpd/rib/bgp_peer_filter.h"
#include "bgpd/rib/bgp_update_group.h"
#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"
#include "lib/hash.h"
#include "lib/log.h"
#include "lib/log_limit.h"
#include "lib/table.h"

_Static_assert(sizeof(uintptr_t) == 8, "the inline advertised-to bitmap needs 64-bit pointers");

#define ADJ_CACHE_SIZE 1024 /* per session, power of two */
/* Bytes of an entry's encoded attributes kept in the cache's one block of slots; longer ones
 * (long AS paths, many communities) get a buffer of their own. An internet-shaped export (an
 * AS path of 4-5, up to 10 communities) is 40-100 bytes. */
#define ADJ_CACHE_SLOT 96
#define ADJ_HASH_SIZE 4096 /* groups of one batch, power of two, >= 2 * RIB_BATCH */
#define ADJ_NIL UINT32_MAX

/* ---- the advertised-to bitmap ---- */

struct adv_map {
	uint32_t nwords;
	uint64_t w[];
};

static inline bool adv_spilled(const struct bgp_dest *d)
{
	return d->adv & 1;
}

static inline struct adv_map *adv_map_of(const struct bgp_dest *d)
{
	return (struct adv_map *)(d->adv & ~(uintptr_t)1);
}

bool bgp_dest_adv_test(const struct bgp_dest *d, uint32_t id)
{
	const struct adv_map *m;

	if (!adv_spilled(d))
		return id > 0 && id < 64 && ((d->adv >> id) & 1);
	m = adv_map_of(d);
	return id / 64 < m->nwords && ((m->w[id / 64] >> (id % 64)) & 1);
}

static void adv_set(struct bgp_dest *d, uint32_t id)
{
	struct adv_map *m;
	uint32_t w = id / 64;

	if (!adv_spilled(d) && id < 64) {
		d->adv |= (uintptr_t)1 << id;
		return;
	}
	if (!adv_spilled(d)) {
		uint32_t n = MAX(w + 1, 2u);

		m = XCALLOC(MTYPE_BGP_ADV_BITMAP, sizeof(*m) + n * sizeof(uint64_t));
		m->nwords = n;
		m->w[0] = d->adv; /* bit 0 (the tag) is clear inline */
		d->adv = (uintptr_t)m | 1;
	}
	m = adv_map_of(d);
	if (w >= m->nwords) {
		uint32_t n = MAX(w + 1, m->nwords * 2);

		m = XREALLOC(MTYPE_BGP_ADV_BITMAP, m, sizeof(*m) + n * sizeof(uint64_t));
		memset(m->w + m->nwords, 0, (n - m->nwords) * sizeof(uint64_t));
		m->nwords = n;
		d->adv = (uintptr_t)m | 1;
	}
	m->w[w] |= UINT64_C(1) << (id % 64);
}

/*
 * The sessions of an update group (ids 1..63) as one mask: while d's bitmap is inline their
 * bits are one word, so a batch shared by many sessions reads and writes each dest's bits
 * once for all of them rather than once per session (doc/performance.md, "Many collectors:
 * group-level state (round 3)"). Callers check adv_spilled() first.
 */
static inline uint64_t adv_inline_bits(const struct bgp_dest *d, uint64_t mask)
{
	return d->adv & mask;
}

/* Set (want) or clear the bits of mask in d's inline bitmap; returns the bits that changed. */
static inline uint64_t adv_inline_assign(struct bgp_dest *d, uint64_t mask, bool want)
{
	uint64_t had = d->adv & mask;

	if (want) {
		d->adv |= mask;
		return mask & ~had;
	}
	d->adv &= ~mask;
	return had;
}

bool bgp_dest_adv_clear(struct bgp_dest *d, uint32_t id)
{
	struct adv_map *m;

	if (!bgp_dest_adv_test(d, id))
		return false;
	if (!adv_spilled(d)) {
		d->adv &= ~((uintptr_t)1 << id);
		return true;
	}
	m = adv_map_of(d);
	m->w[id / 64] &= ~(UINT64_C(1) << (id % 64));
	for (uint32_t i = 0; i < m->nwords; i++)
		if (m->w[i])
			return true;
	XFREE(MTYPE_BGP_ADV_BITMAP, m);
	d->adv = 0;
	return true;
}

void bgp_dest_adv_release(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d)
{
	uint32_t nbits;

	if (d->adv == 0)
		return;
	nbits = adv_spilled(d) ? adv_map_of(d)->nwords * 64 : 64;
	for (uint32_t id = 1; id < nbits; id++) {
		struct rib_src *src;

		if (!bgp_dest_adv_test(d, id))
			continue;
		src = rib_src_get(rib, id);
		if (src && src->sent[af])
			src->sent[af]--;
	}
	if (adv_spilled(d)) {
		struct adv_map *m = adv_map_of(d);

		XFREE(MTYPE_BGP_ADV_BITMAP, m);
	}
	d->adv = 0;
}

/* ---- the journal ---- */

static inline struct bgp_dest **jslot(const struct rib_journal *j, uint64_t pos)
{
	uint64_t i = pos - j->base;

	return &j->chunk[i / RIB_JCHUNK][i % RIB_JCHUNK];
}

/* The note kept for position pos (rib_journal_note_where()), or NULL. */
static inline const struct ptree_where *jwhere(const struct rib_journal *j, uint64_t pos)
{
	uint64_t i = pos - j->base;
	const struct ptree_where *w = j->where[i / RIB_JCHUNK];

	return w && w[i % RIB_JCHUNK].up[0] ? &w[i % RIB_JCHUNK] : NULL;
}

/* Free the notes of journal chunk c (a chunk that goes, or is used again from the start). */
static void jwhere_free(struct rib_journal *j, uint32_t c)
{
	if (!j->where[c])
		return;
	XFREE(MTYPE_BGP_JOURNAL, j->where[c]);
	j->nwhere--;
}

/* Position of dest's latest journal entry if it is live, else 0 (positions start at 1). */
static uint64_t journal_latest(const struct rib_journal *j, const struct bgp_dest *d)
{
	uint64_t dist = (uint32_t)((uint32_t)j->head - d->version);
	uint64_t at;

	if (dist == 0 || dist > j->head - j->tail)
		return 0;
	at = j->head - dist;
	/* The pointer comparison makes the 32-bit version unambiguous. */
	return *jslot(j, at) == d ? at : 0;
}

/* Is dest's latest journal entry live and at or after pos? */
static bool journal_has_since(const struct rib_journal *j, const struct bgp_dest *d, uint64_t pos)
{
	uint64_t at = journal_latest(j, d);

	return at && at >= pos;
}

void rib_journal_note_where(struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
			    const struct ptree_where *w)
{
	struct rib_journal *j = &rib->af[af].journal;
	uint64_t at, i;
	uint32_t c;

	/* A draining table's trim deletes nothing: no note would serve (bgp_rib_drain.c). */
	if (rib->af[af].draining || !w->up[0])
		return;
	at = journal_latest(j, dest);
	if (!at)
		return;
	i = at - j->base;
	c = (uint32_t)(i / RIB_JCHUNK);
	if (!j->where[c]) {
		j->where[c] = XCALLOC(MTYPE_BGP_JOURNAL, RIB_JCHUNK * sizeof(struct ptree_where));
		j->nwhere++;
	}
	j->where[c][i % RIB_JCHUNK] = *w;
}

void rib_journal_mark(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest)
{
	struct rib_journal *j = &rib->af[af].journal;

	/* Every reader still has dest's latest entry ahead: it will see the new state there. */
	if (journal_has_since(j, dest, j->passed))
		return;
	if (j->head - j->base == (uint64_t)j->nchunk * RIB_JCHUNK) {
		if (j->nchunk == j->cap) {
			uint32_t cap = j->cap ? j->cap * 2 : 16;

			j->chunk = XREALLOC(MTYPE_BGP_JOURNAL, j->chunk, cap * sizeof(*j->chunk));
			j->where = XREALLOC(MTYPE_BGP_JOURNAL, j->where, cap * sizeof(*j->where));
			memset(&j->where[j->cap], 0, (cap - j->cap) * sizeof(*j->where));
			j->cap = cap;
		}
		j->chunk[j->nchunk++] =
			XMALLOC(MTYPE_BGP_JOURNAL, RIB_JCHUNK * sizeof(struct bgp_dest *));
	}
	*jslot(j, j->head) = dest;
	dest->version = (uint32_t)j->head;
	j->head++;
	rib_work_schedule(rib);
}

/* w: where the withdrawal found d, NULL if not known (the tree then descends to it). */
static void dest_free(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d,
		      const struct ptree_where *w)
{
	/* d is its tree node's inline value: what it holds goes first, then the node. */
	bgp_dest_adv_release(rib, af, d);
	if (!ptree_delete_inline(rib->af[af].tree, d, w))
		log_err("RIB: route node for a prefix was not in its table (internal error)");
}

/* Is d advertised to a session that is up (one that still has to be sent a withdrawal)? */
static bool adv_to_live_session(const struct bgp_rib *rib, const struct bgp_dest *d)
{
	uint32_t nbits;

	if (d->adv == 0)
		return false;
	nbits = adv_spilled(d) ? adv_map_of(d)->nwords * 64 : 64;
	for (uint32_t id = 1; id < nbits; id++) {
		const struct rib_src *src;

		if (!bgp_dest_adv_test(d, id))
			continue;
		src = rib_src_get(rib, id);
		if (src && src->up)
			return true;
	}
	return false;
}

static bool dest_maybe_free(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d,
			    const struct ptree_where *w)
{
	const struct rib_journal *j = &rib->af[af].journal;

	/* Nobody needs a dest without paths once no journal entry points to it and no live
	 * session has it (a reader that restarted its walk withdraws it from there). */
	if (dest_has_paths(d) || journal_has_since(j, d, j->tail) || adv_to_live_session(rib, d))
		return false;
	if (bgp_dest_plen(d, af) == 0 && rib_deforig_keeps(rib, af))
		return false; /* a session's default-originate is exported from it */
	dest_free(rib, af, d, w);
	return true;
}

bool rib_dest_maybe_free(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d)
{
	return dest_maybe_free(rib, af, d, NULL);
}

/* Readers that lag this far behind the head restart with a walk of the table, so the
 * journal stays bounded by the table size whatever a stalled session does. */
static uint64_t lag_max(const struct bgp_rib *rib, enum bgp_af af)
{
	return MAX((uint64_t)RIB_JOURNAL_LAG_MIN, 2 * (uint64_t)ptree_count(rib->af[af].tree));
}

static void journal_check_lag(struct bgp_rib *rib, enum bgp_af af)
{
	struct rib_journal *j = &rib->af[af].journal;
	uint64_t max = lag_max(rib, af);

	if (j->head - j->tail <= max)
		return;
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *src = rib->src[id];
		struct rib_out_af *out;

		if (!src || src->out[af].mode == RIB_OUT_OFF)
			continue;
		out = &src->out[af];
		if (j->head - out->cursor <= max)
			continue;
		/* Everything it missed is in the table now: current routes, and prefixes without
		 * paths that stay until every session that had them was sent a withdrawal. */
		out->mode = RIB_OUT_WALK;
		out->walk_started = false;
		out->cursor = j->head;
		j->passed = MAX(j->passed, j->head);
		if (DEBUG_ON(BGP_DEBUG_UPDATES_OUT))
			log_debug("%s: output lags %" PRIu64 " changes behind: walking the table "
				  "again",
				  src->name, max);
	}
}

/* Trimming frees the dests the journal was the last to need, in journal order: after a
 * table's withdrawal, prefixes far apart in the tree. A dest emptied by a withdrawal is
 * deleted from where that withdrawal found it (the nodes above it, noted with its entry), a
 * step or two; the others by a descent, a cache miss per level. Ahead of the trim, in steps of
 * TRIM_AHEAD entries: the dests three steps ahead are fetched, the noted nodes of the
 * path-less ones two steps ahead, and for the next step the tree descents of those whose
 * note will not serve (ptree_where_serves(): in a full withdrawal about a quarter, their
 * noted nodes taken by their neighbours' deletes), so that those descents overlap. */
#define TRIM_AHEAD 16

/* d, at journal position k, is to be freed by the trim (if nothing changes meanwhile). */
static bool trim_frees(const struct bgp_dest *d, uint64_t k)
{
	return d->version == (uint32_t)k && !dest_has_paths(d);
}

/* Returns the entries of the next step (bit k - pos) whose note will not serve: their delete
 * descends at once, rather than checking the note again. */
static uint32_t trim_prefetch(struct bgp_rib *rib, enum bgp_af af, uint64_t pos, uint64_t limit)
{
	const struct rib_journal *j = &rib->af[af].journal;
	struct ptree *tree = rib->af[af].tree;
	struct prefix p[TRIM_AHEAD];
	uint32_t stale = 0;
	size_t n = 0;

	for (uint64_t k = pos + 2 * TRIM_AHEAD; k < MIN(limit, pos + 3 * TRIM_AHEAD); k++)
		__builtin_prefetch(*jslot(j, k));
	for (uint64_t k = pos + TRIM_AHEAD; k < MIN(limit, pos + 2 * TRIM_AHEAD); k++) {
		const struct ptree_where *w = jwhere(j, k);

		if (w && trim_frees(*jslot(j, k), k))
			ptree_prefetch_where(tree, w);
	}
	for (uint64_t k = pos; k < MIN(limit, pos + TRIM_AHEAD); k++) {
		const struct bgp_dest *d = *jslot(j, k);

		if (trim_frees(d, k) && !ptree_where_serves(tree, d, jwhere(j, k))) {
			bgp_dest_prefix(d, af, &p[n++]);
			stale |= 1u << (k - pos);
		}
	}
	ptree_prefetch_descents(tree, p, n);
	return stale;
}

size_t rib_journal_trim(struct bgp_rib *rib, enum bgp_af af, size_t max)
{
	struct rib_journal *j = &rib->af[af].journal;
	uint64_t limit;
	uint32_t stale = 0;
	size_t n = 0;
	bool drains;

	journal_check_lag(rib, af);
	limit = adj_out_min_cursor(rib, af);
	/* A burst: its emptied dests stay in the tree, reclaimed in bulk (bgp_rib_drain.c). */
	drains = j->tail < limit && rib_drain_defers(rib, af, limit - j->tail);
	while (j->tail < limit && n < max) {
		uint64_t pos = j->tail++;

		if (!drains) {
			struct bgp_dest *d;

			if (n % TRIM_AHEAD == 0)
				stale = trim_prefetch(rib, af, pos, limit);
			d = *jslot(j, pos);
			/* Its latest entry, every reader past it: free it if it has no paths. A
			 * note found stale ahead is not tried again: the deletes between take
			 * noted nodes and seldom make one (and a delete without a note is always
			 * right). */
			if (d->version == (uint32_t)pos)
				dest_maybe_free(rib, af, d,
						(stale >> (n % TRIM_AHEAD)) & 1 ? NULL
										: jwhere(j, pos));
		}
		n++;
		if (j->tail - j->base == RIB_JCHUNK) {
			XFREE(MTYPE_BGP_JOURNAL, j->chunk[0]);
			jwhere_free(j, 0);
			memmove(j->chunk, j->chunk + 1, (j->nchunk - 1) * sizeof(*j->chunk));
			memmove(j->where, j->where + 1, (j->nchunk - 1) * sizeof(*j->where));
			j->where[j->nchunk - 1] = NULL;
			j->nchunk--;
			j->base += RIB_JCHUNK;
		}
	}
	if (j->tail == j->head && j->base != j->head) {
		/* Empty: start over at the beginning of the first chunk, free the others. */
		while (j->nchunk > 1) {
			j->nchunk--;
			XFREE(MTYPE_BGP_JOURNAL, j->chunk[j->nchunk]);
			jwhere_free(j, j->nchunk);
		}
		if (j->nchunk)
			jwhere_free(j, 0); /* its positions begin again: no note may outlive them */
		j->base = j->head;
	}
	if (j->tail == j->head)
		rib_drain_reclaim(rib, af);
	return n;
}

void rib_journal_free(struct bgp_rib *rib, enum bgp_af af)
{
	struct rib_journal *j = &rib->af[af].journal;

	while (j->nchunk) {
		j->nchunk--;
		XFREE(MTYPE_BGP_JOURNAL, j->chunk[j->nchunk]);
		jwhere_free(j, j->nchunk);
	}
	XFREE(MTYPE_BGP_JOURNAL, j->chunk);
	XFREE(MTYPE_BGP_JOURNAL, j->where);
	j->cap = 0;
	j->base = j->tail = j->head;
}

uint64_t adj_out_min_cursor(const struct bgp_rib *rib, enum bgp_af af)
{
	uint64_t min = rib->af[af].journal.head;

	for (uint32_t id = 1; id < rib->src_cap; id++) {
		const struct rib_src *src = rib->src[id];

		if (src && src->out[af].mode != RIB_OUT_OFF)
			min = MIN(min, src->out[af].cursor);
	}
	return min;
}

/* ---- what a session is sent ---- */

struct adj_out_cache_ent {
	struct bgp_attr *in; /* stored set (reference held) */
	uint8_t *wire;	     /* its exported attributes as encoded (export_wire()): its slot */
	uint32_t wire_len;   /* 0 = cannot be sent */
	uint32_t wire_cap;   /* > 0: wire is a buffer of its own, that long (not the slot) */
	uint32_t hash;	     /* of the bytes */
	uint32_t kind;
};

/*
 * The encoded bytes of the entries live in one block of fixed slots, allocated when the
 * first is stored, rather than in a thousand small buffers. Small buffers freed together
 * when the table goes would leave the last few of each size in glibc's per-thread cache,
 * scattered over the heap the table had grown, each keeping a page resident that
 * malloc_trim() cannot give back (doc/performance.md, "Memory after the withdrawal: what
 * the heap keeps (round 5)"). Pages of the block that no slot has used are not resident.
 */
struct adj_out_cache {
	struct adj_out_cache_ent e[ADJ_CACHE_SIZE];
	uint8_t *slots; /* ADJ_CACHE_SIZE * ADJ_CACHE_SLOT bytes, or NULL */
};

/* Drop e's own buffer, if it has one (its slot needs no freeing). */
static void cache_ent_drop_wire(struct adj_out_cache_ent *e)
{
	if (e->wire_cap)
		XFREE(MTYPE_BGP_ADJ_OUT, e->wire);
	e->wire = NULL;
	e->wire_cap = 0;
}

/* Every entry's bytes and the block of slots (the entries' sets stay referenced). */
static void cache_drop_wires(struct adj_out_cache *c)
{
	for (size_t i = 0; i < ADJ_CACHE_SIZE; i++) {
		cache_ent_drop_wire(&c->e[i]);
		c->e[i].wire_len = 0;
	}
	XFREE(MTYPE_BGP_ADJ_OUT, c->slots);
}

/* Forget every exported set (the policy that made them changed). */
static void cache_clear(struct rib_src *src)
{
	if (!src->cache)
		return;
	for (size_t i = 0; i < ADJ_CACHE_SIZE; i++) {
		bgp_attr_unref(src->cache->e[i].in);
		src->cache->e[i].in = NULL;
		src->cache->e[i].wire_len = 0;
	}
}

static void cache_free(struct rib_src *src)
{
	cache_clear(src);
	if (src->cache)
		cache_drop_wires(src->cache);
	XFREE(MTYPE_BGP_ADJ_OUT, src->cache);
}

void adj_out_cache_clear_all(struct bgp_rib *rib)
{
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *src = rib->src[id];

		if (!src || !src->cache)
			continue;
		cache_clear(src);
		/* The table has gone (bgp_rib_release.c): the encoded bytes too, up to 96 KiB of
		 * slots per session; cache_store() allocates them again. */
		cache_drop_wires(src->cache);
	}
}

/* RFC 1997 and the iBGP rules: may `to` be sent a path that came from `from`? */
/* Is this iBGP session a route reflector client of ours in af? */
static bool rr_client(const struct rib_src *s, enum bgp_af af)
{
	return s->peer && s->peer->conf.rr_client[af];
}

/* A path learned over iBGP, going to an iBGP session: reflected (RFC 4456). Confed-external
 * sessions are no iBGP ones here (RFC 5065 5). */
static bool reflected(const struct rib_src *to, const struct rib_src *from)
{
	return !from->local && !from->ebgp && !from->confed && !to->ebgp && !to->confed;
}

static bool export_permitted(const struct rib_src *to, const struct rib_src *from, enum bgp_af af,
			     const struct bgp_attr *attr)
{
	/* Never back to the peer it came from (FRR: "Do not send back route to sender"). */
	if (from == to || (from->rp && from->rp == to->rp))
		return false;
	/* RFC 4271 9.2: routes learned over iBGP are not sent to iBGP peers, except by a route
	 * reflector (RFC 4456 6): a client's routes to every iBGP peer, the others' to the
	 * clients. */
	if (reflected(to, from) && !rr_client(from, af) && !rr_client(to, af))
		return false;
	if (attr->communities) {
		for (uint32_t i = 0; i < attr->communities->count; i++) {
			uint32_t c = attr->communities->val[i];

			/* RFC 1997: NO_ADVERTISE to no peer; NO_EXPORT not outside the
			 * confederation, NO_EXPORT_SUBCONFED not outside our member AS. */
			if (c == BGP_COMM_NO_ADVERTISE)
				return false;
			if (to->confed && c == BGP_COMM_NO_EXPORT_SUBCONFED)
				return false;
			/* RFC 9494 4.5: long-lived stale routes only to LLGR sessions. */
			if (c == BGP_COMM_LLGR_STALE && !to->llgr)
				return false;
			if (to->ebgp &&
			    (c == BGP_COMM_NO_EXPORT || c == BGP_COMM_NO_EXPORT_SUBCONFED))
				return false;
		}
	}
	/* RFC 4456 8: not back to the router that originated it into the AS. */
	if (!to->ebgp && (attr->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID)) &&
	    bgp_attr_ex(attr)->originator_id.s_addr == to->remote_id.s_addr)
		return false;
	return true;
}

/* The session's outbound prefix list (neighbor X prefix-list NAME out). Applied before the
 * attribute cache below, which is per attribute set: this decision is per prefix. */
static bool export_policy_permits(const struct rib_src *to, enum bgp_af af,
				  const struct bgp_dest *dest)
{
	struct prefix p;

	if (!to->peer->conf.plist[af][BGP_DIR_OUT])
		return true;
	bgp_dest_prefix(dest, af, &p);
	return bgp_peer_plist_permits(to->peer, af, BGP_DIR_OUT, &p);
}

/* Our address on the session as the next hop for af; false when there is none we can use.
 * ex: the template's own extras block (bgp_attr_set_mp_nh()). */
static bool nexthop_self(const struct rib_src *to, enum bgp_af af, struct bgp_attr *t,
			 struct bgp_attr_extra *ex)
{
	struct ipaddr a = to->local_addr;
	struct in6_addr g;

	if (af == BGP_AF_IPV4_UNICAST) {
		ipaddr_unmap_v4(&a);
		if (a.family != AF_INET)
			return false; /* would need RFC 8950 */
		t->nexthop = a.u.v4;
		t->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
		return true;
	}
	if (a.family == AF_INET) {
		/* An IPv6 route over an IPv4 session: the IPv4-mapped address, as FRR. */
		memset(&g, 0, sizeof(g));
		g.s6_addr[10] = 0xff;
		g.s6_addr[11] = 0xff;
		memcpy(&g.s6_addr[12], &a.u.v4, 4);
	} else if (a.family == AF_INET6) {
		g = a.u.v6;
	} else {
		return false;
	}
	bgp_attr_set_mp_nh(t, ex, 16, &g, NULL);
	return true;
}

/*
 * The attribute set `to` is sent for a path of `from` (a new reference), NULL when it cannot
 * be sent (no usable next hop).
 *   eBGP: our AS prepended (RFC 4271 5.1.2), next hop = our address on the session (5.1.3),
 *         no LOCAL_PREF (5.1.5), no MED unless we originated the route (5.1.4: a received MED
 *         is not passed on to other neighboring ASes), no ORIGINATOR_ID / CLUSTER_LIST
 *         (RFC 4456, non-transitive iBGP attributes).
 *   iBGP: LOCAL_PREF always (default 100), next hop unchanged for learned routes (FRR's
 *         default, no next-hop-self) and our address for our own routes; MED kept.
 *   Both: in graceful shutdown the GRACEFUL_SHUTDOWN community, and LOCAL_PREF 0 towards iBGP
 *         (RFC 8326, bgp_gshut.c).
 *   Weight is ours and never sent.
 */
static void no_nexthop(struct rib_src *to, enum bgp_af af)
{
	char buf[IPADDR_STRLEN];

	if (to->nh_warned[af])
		return;
	to->nh_warned[af] = true;
	log_warn("%s: no %s address of ours on this session (local address %s) to use as next "
		 "hop: %s routes that need next hop self are not sent (RFC 8950 next hops are not "
		 "supported)",
		 to->name, af == BGP_AF_IPV4_UNICAST ? "IPv4" : "IPv6",
		 ipaddr_to_str(&to->local_addr, buf, sizeof(buf)),
		 af == BGP_AF_IPV4_UNICAST ? "IPv4" : "IPv6");
}

/* The cluster id of this reflector: bgp cluster-id, else the router id (RFC 4456 7). */
static uint32_t cluster_id(const struct bgp *bgp)
{
	return ntohl(bgp->cluster_id.s_addr ? bgp->cluster_id.s_addr : bgp->router_id.s_addr);
}

/*
 * RFC 4456 8: a reflected path gets an ORIGINATOR_ID (the BGP Identifier of the session it
 * came from, unless it has one) and our cluster id in front of its CLUSTER_LIST. Returns the
 * new cluster list reference the template now points to (the caller drops it after
 * interning).
 */
static struct bgp_u32list *reflect_attrs(struct bgp_rib *rib, const struct rib_src *from,
					 struct bgp_attr *t, struct bgp_attr_extra *ex)
{
	const struct bgp_u32list *old;
	struct bgp_u32list *l;
	uint32_t n, *v;

	bgp_attr_own_extras(t, ex);
	if (!(t->present & ATTR_BIT(BGP_ATTR_ORIGINATOR_ID))) {
		ex->originator_id = from->remote_id;
		t->present |= ATTR_BIT(BGP_ATTR_ORIGINATOR_ID);
	}
	old = (t->present & ATTR_BIT(BGP_ATTR_CLUSTER_LIST)) ? ex->cluster_list : NULL;
	n = old ? old->count : 0;
	v = XMALLOC(MTYPE_BGP_ADJ_OUT, ((size_t)n + 1) * sizeof(*v));
	v[0] = cluster_id(rib->bgp);
	if (n)
		memcpy(v + 1, old->val, n * sizeof(*v));
	l = bgp_u32list_intern(v, n + 1);
	XFREE(MTYPE_BGP_ADJ_OUT, v);
	ex->cluster_list = l;
	t->present |= ATTR_BIT(BGP_ATTR_CLUSTER_LIST);
	return l;
}

/*
 * neighbor X remove-private-AS [all] [replace-AS] towards an eBGP neighbor, before our own AS
 * is prepended (FRR): without `all` only an all-private path is touched; the neighbor's own AS
 * is never removed. A new path reference, or NULL when nothing is to change.
 */
static struct bgp_aspath *strip_private(const struct bgp_rib *rib, const struct rib_src *to,
					enum bgp_af af, const struct bgp_aspath *path)
{
	enum bgp_rpa rpa = to->peer ? to->peer->conf.remove_private_as[af] : BGP_RPA_OFF;
	bool all_private = bgp_aspath_all_private(path);
	bool replace = rpa == BGP_RPA_ONLY_REPLACE || rpa == BGP_RPA_ALL_REPLACE;

	if (rpa == BGP_RPA_OFF ||
	    (!all_private && rpa != BGP_RPA_ALL && rpa != BGP_RPA_ALL_REPLACE))
		return NULL;
	if (all_private && !replace)
		return bgp_aspath_strip_private(path, 0, 0); /* empty */
	return bgp_aspath_strip_private(path, to->remote_as, replace ? rib->bgp->asn : 0);
}

/*
 * no neighbor X send-community [standard|extended|large|all]: the kinds of community the
 * neighbor is not sent, taken out last, after the outbound route-map (FRR leaves them out
 * when it encodes). The well-known communities were honoured on the stored set before.
 */
static void withhold_communities(uint8_t off, struct bgp_attr *t, struct bgp_attr_extra *ex)
{
	if (off & BGP_SEND_COMM_STANDARD) {
		t->communities = NULL;
		t->present &= ~ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
	if (off & BGP_SEND_COMM_LARGE)
		t->present &= ~ATTR_BIT(BGP_ATTR_LARGE_COMMUNITIES);
	if (off & BGP_SEND_COMM_EXTENDED)
		t->present &= ~ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
	if (!t->extra || !(off & (BGP_SEND_COMM_LARGE | BGP_SEND_COMM_EXTENDED)))
		return;
	bgp_attr_own_extras(t, ex);
	if (off & BGP_SEND_COMM_LARGE)
		ex->lcommunities = NULL;
	if (off & BGP_SEND_COMM_EXTENDED)
		ex->ecommunities = NULL;
}

/* Room for the common exported AS path without interning it (bgp_aspath_prepend_scratch());
 * longer ones take the interned way. */
#define EXPORT_PATH_SCRATCH 1024

/*
 * The exported set of one (session, stored set), as a template: not interned, so that it can
 * be encoded at once and forgotten (export_wire()) or interned where a shared copy is wanted
 * (export_attr_make()). It holds the references it made (released by export_tmpl_release())
 * and the AS path with our AS prepended in its own buffer when that fits.
 */
struct export_tmpl {
	struct bgp_attr t;
	struct bgp_attr_extra ex; /* t's own extras when they differ from in's */
	struct bgp_aspath *prepended, *stripped, *unconfed;
	struct bgp_u32list *clusters, *gshut;
	struct bgp_ecommlist *transitive;
	bool scratch_ok; /* may prepend into scratch[] (false: interned paths only) */
	union {
		struct bgp_aspath path;
		uint8_t bytes[EXPORT_PATH_SCRATCH];
	} scratch[2];
};

static void export_tmpl_release(struct export_tmpl *x)
{
	if (x->gshut)
		bgp_u32list_unref(x->gshut);
	bgp_ecommlist_unref(x->transitive);
	bgp_aspath_unref(x->prepended);
	bgp_aspath_unref(x->stripped);
	bgp_aspath_unref(x->unconfed);
	if (x->clusters)
		bgp_u32list_unref(x->clusters);
}

/* Our AS (or confederation identifier) in front of the path towards eBGP (RFC 4271 5.1.2);
 * with `neighbor X local-as L`, L in front of it, or instead of it with replace-as (FRR). In
 * x's scratch buffers, or a new reference held in x->prepended when it does not fit them or
 * x->scratch_ok is false. */
static struct bgp_aspath *export_prepend(const struct bgp_rib *rib, const struct rib_src *to,
					 const struct bgp_aspath *path, struct export_tmpl *x)
{
	const struct bgp_peer_config *c = to->peer ? &to->peer->conf : NULL;
	uint32_t asn = bgp_outside_as(rib->bgp); /* RFC 5065 6.1 c: the identifier */
	uint32_t first = c && c->local_as && c->local_as_replace ? c->local_as : asn;
	bool twice = c && c->local_as && !c->local_as_replace;
	struct bgp_aspath *one, *out, *ours;

	one = x->scratch_ok ? bgp_aspath_prepend_scratch(&x->scratch[0], sizeof(x->scratch[0]),
							 path, first)
			    : NULL;
	out = one && twice ? bgp_aspath_prepend_scratch(&x->scratch[1], sizeof(x->scratch[1]), one,
							c->local_as)
			   : one;
	if (out)
		return out;
	/* Too long for the buffers (or a shared copy wanted): the interned way. */
	if (!twice)
		return x->prepended = bgp_aspath_prepend((struct bgp_aspath *)path, first);
	ours = bgp_aspath_prepend((struct bgp_aspath *)path, asn);
	x->prepended = bgp_aspath_prepend(ours, c->local_as);
	bgp_aspath_unref(ours);
	return x->prepended;
}

/* The exported form of in for `to` into x (release x with export_tmpl_release() whatever the
 * answer); false when it cannot be sent (no next hop). kept: what an outbound route-map set
 * that the export rules must leave alone (NULL: none). scratch: the AS path may be made in x
 * rather than interned (for encoding only). */
static bool export_tmpl_make(struct bgp_rib *rib, struct rib_src *to, const struct rib_src *from,
			     enum bgp_af af, const struct bgp_attr *in,
			     const struct rmap_refs *kept, bool scratch, struct export_tmpl *x)
{
	bool keep_med = kept && kept->med_set;
	bool keep_nh = kept && (af == BGP_AF_IPV4_UNICAST ? kept->nexthop_set : kept->nexthop6_set);
	struct bgp_attr *t = &x->t;
	struct bgp_attr_extra *ex = &x->ex;

	x->prepended = x->stripped = x->unconfed = NULL;
	x->clusters = x->gshut = NULL;
	x->transitive = NULL;
	x->scratch_ok = scratch;
	*t = *in;
	t->present &= ~(ATTR_BIT(BGP_ATTR_MP_REACH_NLRI) | ATTR_BIT(BGP_ATTR_MP_UNREACH_NLRI));
	if (af == BGP_AF_IPV4_UNICAST) {
		bgp_attr_set_mp_nh(t, ex, 0, NULL, NULL);
	} else {
		t->present &= ~ATTR_BIT(BGP_ATTR_NEXT_HOP);
		t->nexthop.s_addr = 0;
		/* The link-local next hop is only meaningful on the link it came from. */
		bgp_attr_set_mp_nh(t, ex, 16, bgp_attr_mp_nh_global(in), NULL);
	}
	bgp_attr_set_weight(t, ex, 0); /* ours alone */
	if (to->ebgp) {
		/* The route-map's next hop, or ours. (IPv6: the global one was taken from in.) */
		if (!keep_nh && !nexthop_self(to, af, t, ex)) {
			no_nexthop(to, af);
			return false;
		}
		if (keep_nh && af == BGP_AF_IPV4_UNICAST)
			t->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
		x->stripped = strip_private(rib, to, af, in->aspath);
		/* RFC 5065 6.1 c: no confederation segments outside it. */
		x->unconfed = bgp_aspath_strip_confed(x->stripped ? x->stripped : in->aspath);
		t->aspath = export_prepend(rib, to,
					   x->unconfed	 ? x->unconfed
					   : x->stripped ? x->stripped
							 : in->aspath,
					   x);
		t->present |= ATTR_BIT(BGP_ATTR_AS_PATH);
		t->present &= ~(ATTR_BIT(BGP_ATTR_LOCAL_PREF) | ATTR_BIT(BGP_ATTR_ORIGINATOR_ID) |
				ATTR_BIT(BGP_ATTR_CLUSTER_LIST));
		t->local_pref = 0;
		if (t->extra) {
			/* A copy without them: bgp_attr_intern() finds or makes the block. */
			bgp_attr_own_extras(t, ex);
			ex->originator_id.s_addr = 0;
			ex->cluster_list = NULL;
			/* RFC 4360 6: non-transitive extended communities stay in the AS. */
			x->transitive = bgp_ecommlist_transitive(ex->ecommunities);
			ex->ecommunities = x->transitive;
			if (!x->transitive)
				t->present &= ~ATTR_BIT(BGP_ATTR_EXT_COMMUNITIES);
		}
		/* RFC 4271 5.1.4: another AS's MED is not passed on; one set by the outbound
		 * route-map is ours to send (FRR). */
		if (!from->local && !keep_med) {
			t->present &= ~ATTR_BIT(BGP_ATTR_MED);
			t->med = 0;
		}
	} else {
		enum bgp_nhs nhs = to->peer ? to->peer->conf.nexthop_self[af] : BGP_NHS_OFF;
		bool self =
			from->local || (nhs == BGP_NHS_SELF && from->ebgp) || nhs == BGP_NHS_FORCE;

		if (!(t->present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))) {
			t->present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
			t->local_pref = BGP_DEFAULT_LOCAL_PREF;
		}
		if (self && !keep_nh && !nexthop_self(to, af, t, ex)) {
			no_nexthop(to, af);
			return false;
		}
		/* RFC 5065 6.1 b: our member AS in an AS_CONFED_SEQUENCE, the rest as iBGP
		 * (LOCAL_PREF, MED and next hop kept). */
		if (to->confed) {
			x->prepended = bgp_aspath_prepend_confed(in->aspath, rib->bgp->asn);
			t->aspath = x->prepended;
			t->present |= ATTR_BIT(BGP_ATTR_AS_PATH);
		}
		if (reflected(to, from))
			x->clusters = reflect_attrs(rib, from, t, ex);
	}
	/* RFC 8326: after the route-map (nothing undoes it), before send-community. */
	x->gshut = bgp_gshut_mark(rib->bgp, to->ebgp, t);
	if (to->peer && to->peer->conf.send_comm_off[af])
		withhold_communities(to->peer->conf.send_comm_off[af], t, ex);
	return true;
}

/* The exported set of in as an interned set (a new reference), NULL when it cannot be sent:
 * for what must be kept or shown (`show ... advertised-routes`, the route-map's input). */
static struct bgp_attr *export_attr_make(struct bgp_rib *rib, struct rib_src *to,
					 const struct rib_src *from, enum bgp_af af,
					 const struct bgp_attr *in, const struct rmap_refs *kept)
{
	struct export_tmpl x;
	struct bgp_attr *out = NULL;

	/* Interned paths only (bgp_aspath_prepend()): this is also the reference the encoded
	 * output is checked against (tests/unit/check_bgp_export_wire.c). */
	if (export_tmpl_make(rib, to, from, af, in, kept, false, &x))
		out = bgp_attr_intern(&x.t);
	export_tmpl_release(&x);
	return out;
}

/* The best path and its multipaths (FRR's bgp_path_info_mpath_count() + 1). */
static uint32_t export_paths(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest)
{
	uint32_t n = 0;

	for (const struct bgp_path *p = dest_paths(dest); p; p = path_next(p))
		n += p != dest_best(dest) && rib_path_multipath(rib, af, dest, p);
	return n + 1;
}

/*
 * Through the session's outbound route-map: its decision depends on the prefix (match ip
 * address prefix-list), so it is made per prefix, past the per-attribute cache. The
 * filter-list still judges the stored path first, as in FRR. The set the map made (a new
 * reference; the export rules go on from it, leaving what *refs says the map set), or NULL.
 */
static struct bgp_attr *export_mapped(struct bgp_rib *rib, struct rib_src *to,
				      const struct rib_src *from, enum bgp_af af,
				      const struct bgp_dest *dest, const struct bgp_attr *stored,
				      struct rmap_refs *refs)
{
	struct bgp_attr t = *stored, *mapped;
	const struct rmap_ctx *ctx;
	struct rmap_ctx cbuf;
	struct prefix p;

	if (!bgp_peer_aspath_permits(to->peer, af, BGP_DIR_OUT, stored->aspath))
		return NULL;
	bgp_dest_prefix(dest, af, &p);
	/* Towards iBGP the default LOCAL_PREF is there before the map runs (FRR: +N counts
	 * from 100 then). */
	if (!to->ebgp && !(t.present & ATTR_BIT(BGP_ATTR_LOCAL_PREF))) {
		t.present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
		t.local_pref = BGP_DEFAULT_LOCAL_PREF;
	}
	/* match rpki / match aspa judge the route as it came from its source; set
	 * extcommunity bandwidth num-multipaths counts the paths of the best one. match peer has
	 * no neighbor here: FRR 8.4 runs outbound maps for an update group's stand-in peer, which
	 * has no address, so no address matches; nor does `local` (a neighbor's map). */
	ctx = rib_rmap_ctx(from, &cbuf);
	if (!ctx)
		memset(&cbuf, 0, sizeof(cbuf)); /* our own route */
	cbuf.export_paths = export_paths(rib, af, dest);
	cbuf.peer = NULL;
	if (!route_map_apply_ctx(to->peer->conf.rmap[af][BGP_DIR_OUT], &p, &t, refs, &cbuf)) {
		route_map_refs_release(refs);
		return NULL;
	}
	mapped = bgp_attr_intern(&t);
	route_map_refs_release(refs);
	return mapped;
}

static inline uint32_t cache_index(const void *p, uint32_t kind)
{
	uint64_t h = ((uintptr_t)p >> 4) ^ ((uint64_t)kind << 40);

	h *= UINT64_C(0x9E3779B97F4A7C15);
	return (uint32_t)(h >> 32) & (ADJ_CACHE_SIZE - 1);
}

/* How dest is exported to `to`, decided before any attribute is made. */
enum export_how {
	EXPORT_NOTHING, /* nothing (or a withdrawal) */
	EXPORT_DEFORIG, /* neighbor X default-originate's route */
	EXPORT_MAPPED,	/* the best path through the outbound route-map */
	EXPORT_PLAIN,	/* the best path through the export rules alone: per attribute set */
};

static enum export_how export_decide(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af,
				     const struct bgp_dest *dest, const struct rib_src **fromp)
{
	const struct bgp_path *best = dest_best(dest);
	const struct rib_src *from;

	/* neighbor X default-originate: its route in place of the table's, past every outbound
	 * policy, as FRR sends it (bgp_rib_deforig.c). MED 0 stays towards eBGP. */
	if (to->deforig[af] && bgp_dest_plen(dest, af) == 0)
		return EXPORT_DEFORIG;
	if (!best)
		return EXPORT_NOTHING;
	/* aggregate-address ... summary-only holds its more specifics back. */
	if (rib->aggr[af] && rib_aggr_suppressed(rib, af, dest))
		return EXPORT_NOTHING;
	from = rib_src_get(rib, best->src);
	/* A best path of a session that went down is being removed: send nothing for it. One that
	 * graceful restart (or LLGR) keeps is still advertised (RFC 4724 4.2). */
	if (!from || !rib_src_usable(from) || !export_permitted(to, from, af, path_attr(best)))
		return EXPORT_NOTHING;
	if (to->peer &&
	    bgp_peer_policy_missing(to->peer, to->ebgp || to->confed, af, BGP_DIR_OUT)) {
		rib_policy_missing_warn(rib, to, af, BGP_DIR_OUT); /* RFC 8212 */
		return EXPORT_NOTHING;
	}
	if (to->peer && !export_policy_permits(to, af, dest))
		return EXPORT_NOTHING;
	*fromp = from;
	if (to->peer && to->peer->conf.rmap[af][BGP_DIR_OUT])
		return EXPORT_MAPPED;
	return EXPORT_PLAIN;
}

/* Exported sets of our own default route keep their MED 0 towards eBGP. */
static const struct rmap_refs deforig_kept = { .med_set = true };

/* What `to` should have for dest as an interned set (a new reference), NULL for nothing:
 * for `show ... advertised-routes`. The output itself sends export_wire()'s bytes, made by
 * the same rules (export_tmpl_make()). */
static struct bgp_attr *export_attr(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af,
				    const struct bgp_dest *dest)
{
	const struct rib_src *from = NULL;
	const struct bgp_attr *in;
	struct bgp_attr *mapped, *out;
	struct rmap_refs refs;

	switch (export_decide(rib, to, af, dest, &from)) {
	case EXPORT_NOTHING:
		return NULL;
	case EXPORT_DEFORIG:
		return export_attr_make(rib, to, &rib->local, af, to->deforig[af], &deforig_kept);
	case EXPORT_MAPPED:
		mapped = export_mapped(rib, to, from, af, dest, path_attr(dest_best(dest)), &refs);
		out = mapped ? export_attr_make(rib, to, from, af, mapped, &refs) : NULL;
		bgp_attr_unref(mapped);
		return out;
	case EXPORT_PLAIN:
		in = path_attr(dest_best(dest));
		if (to->peer && !bgp_peer_aspath_permits(to->peer, af, BGP_DIR_OUT, in->aspath))
			return NULL;
		return export_attr_make(rib, to, from, af, in, NULL);
	}
	return NULL;
}

/* For `show ... neighbors X advertised-routes`: what `to` is sent for dest, recomputed from the
 * advertised-to bit and the export function (no per-session copy is kept). */
struct bgp_attr *adj_out_advertised(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af,
				    const struct bgp_dest *dest)
{
	if (!to->up || !to->cache || !bgp_dest_adv_test(dest, to->id))
		return NULL;
	return export_attr(rib, to, af, dest);
}

/* Stands for attributes that cannot be encoded for this session at all (larger than a
 * message): bgp_ub_begin_announce_wire() refuses it (a next hop length no family has), and
 * the output withdraws the prefixes instead, as for a set too large for the message. */
static const uint8_t wire_too_large[] = { 0xff };

/* One session's exported attributes, encoded: len 0 = nothing to send (withdraw). */
struct export_wire {
	const uint8_t *wire;
	uint32_t len;
	uint32_t hash;
};

/* The encoding of one template for `to`: in the shared scratch buffer, valid until the next
 * call (batch_add() copies what it keeps). */
static struct export_wire export_encode(const struct rib_src *to, enum bgp_af af,
					const struct bgp_attr *t)
{
	static uint8_t scratch[BGP_MAX_EXT_MSG_LEN];
	struct export_wire w = { .wire = wire_too_large, .len = sizeof(wire_too_large) };
	int len = bgp_update_attrs_encode(scratch, MIN(sizeof(scratch), to->max_msg), t, &to->codec,
					  af);

	if (len > 0) {
		w.wire = scratch;
		w.len = (uint32_t)len;
	}
	w.hash = hash_bytes(w.wire, w.len, 0x65787074u);
	return w;
}

/* The template of in for `to`, encoded (len 0 when it cannot be sent). */
static struct export_wire export_make_wire(struct bgp_rib *rib, struct rib_src *to,
					   const struct rib_src *from, enum bgp_af af,
					   const struct bgp_attr *in, const struct rmap_refs *kept)
{
	struct export_wire w = { 0 };
	struct export_tmpl x;

	if (export_tmpl_make(rib, to, from, af, in, kept, true, &x))
		w = export_encode(to, af, &x.t);
	export_tmpl_release(&x);
	return w;
}

/* Keep w in cache entry e of c: in e's slot, or in a buffer of e's own when longer. */
static void cache_store(struct adj_out_cache *c, struct adj_out_cache_ent *e,
			const struct export_wire *w)
{
	if (w->len <= ADJ_CACHE_SLOT) {
		cache_ent_drop_wire(e);
		if (!c->slots)
			c->slots = XMALLOC(MTYPE_BGP_ADJ_OUT, ADJ_CACHE_SIZE * ADJ_CACHE_SLOT);
		e->wire = c->slots + (size_t)(e - c->e) * ADJ_CACHE_SLOT;
	} else if (w->len > e->wire_cap) {
		cache_ent_drop_wire(e);
		e->wire = XMALLOC(MTYPE_BGP_ADJ_OUT, w->len);
		e->wire_cap = w->len;
	}
	if (w->len)
		memcpy(e->wire, w->wire, w->len);
	e->wire_len = w->len;
	e->hash = w->hash;
}

/*
 * What `to` should be sent for dest: the exported attributes encoded for its session (len 0:
 * nothing), valid until the next call. The exported set is not interned: it is made from the
 * stored set and encoded at once (interning it cost two hash lookups, two slab objects and
 * their removal per set sent). A small per-session cache maps (stored set, kind of source)
 * to the bytes, so the work is per distinct attribute set, not per prefix.
 */
static struct export_wire export_wire(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af,
				      const struct bgp_dest *dest)
{
	struct export_wire w = { 0 };
	const struct rib_src *from = NULL;
	const struct bgp_attr *in;
	struct adj_out_cache_ent *e;
	struct bgp_attr *mapped;
	struct rmap_refs refs;
	uint32_t kind;

	switch (export_decide(rib, to, af, dest, &from)) {
	case EXPORT_NOTHING:
		return w;
	case EXPORT_DEFORIG:
		return export_make_wire(rib, to, &rib->local, af, to->deforig[af], &deforig_kept);
	case EXPORT_MAPPED:
		mapped = export_mapped(rib, to, from, af, dest, path_attr(dest_best(dest)), &refs);
		if (mapped)
			w = export_make_wire(rib, to, from, af, mapped, &refs);
		bgp_attr_unref(mapped);
		return w;
	case EXPORT_PLAIN:
		break;
	}
	in = path_attr(dest_best(dest));
	kind = (uint32_t)af * 4 + (from->local ? 0 : from->ebgp ? 1 : from->confed ? 3 : 2);
	/* A reflected set carries the ORIGINATOR_ID of the session it came from when it had
	 * none: the same stored set exports differently per source then. */
	if (reflected(to, from))
		kind |= (from->id + 1) << 8;
	e = &to->cache->e[cache_index(in, kind)];
	if (e->in != in || e->kind != kind) {
		/* The filter-list decides on the stored set's AS path: per attribute set, so it
		 * is cached with the exported set (the cache is emptied when policy changes). */
		bool as_ok =
			!to->peer || bgp_peer_aspath_permits(to->peer, af, BGP_DIR_OUT, in->aspath);

		if (as_ok)
			w = export_make_wire(rib, to, from, af, in, NULL);
		bgp_attr_unref(e->in);
		e->in = bgp_attr_ref((struct bgp_attr *)in);
		e->kind = kind;
		cache_store(to->cache, e, &w);
	}
	w.wire = e->wire;
	w.len = e->wire_len;
	w.hash = e->hash;
	return w;
}

/* ---- batches ---- */

struct adj_out_item {
	struct bgp_dest *dest;
	uint32_t group;
	uint32_t next; /* next item of the same group */
};

/* The prefixes sent with the same bytes of attributes (wire_len 0: withdrawals). */
struct adj_out_group {
	uint32_t wire_off; /* in the batch's wire[] */
	uint32_t wire_len;
	uint32_t hash;
	uint32_t head;
	uint32_t tail;
	uint32_t slot; /* in hslot[] */
};

/* A dest the leader of a shared batch decided on (update groups, see share_begin()). */
struct adj_out_visit {
	struct bgp_dest *dest;
	const struct rib_src *from; /* source of its best path, NULL = none */
	bool adv_before;	    /* the leader's advertised-to bit before the decision */
	bool want;		    /* and after it (before sending): announced or not */
};

struct adj_out_batch {
	uint32_t nitem;
	uint32_t ngroup;
	struct adj_out_item item[RIB_BATCH];
	struct adj_out_group group[RIB_BATCH];
	uint32_t hslot[ADJ_HASH_SIZE]; /* group index + 1, 0 = free */
	uint8_t *wire;		       /* the groups' encoded attributes, end to end */
	size_t wire_len;
	size_t wire_cap;
	/* Sharing the batch with sessions of the leader's update group: the dests decided, the
	 * sessions that follow, the leader's messages as sent. */
	uint32_t nvisit;
	struct adj_out_visit visit[RIB_BATCH];
	/* A walking session's dests for this batch, in prefix order (ptree_next_batch()). */
	void *walk[RIB_BATCH];
	uint32_t nfol;
	uint32_t fol_cap;
	struct rib_src **fol;
	uint64_t fol_inline; /* the followers with ids 1..63, as bits (adv_inline_bits()) */
	uint32_t fol_wide;   /* and how many have ids of 64 and up */
	uint8_t *tee;
	size_t tee_len;
	size_t tee_cap;
};

void adj_out_init(struct bgp_rib *rib)
{
	rib->batch = XCALLOC(MTYPE_BGP_ADJ_OUT, sizeof(*rib->batch));
}

void adj_out_fini(struct bgp_rib *rib)
{
	if (rib->batch) {
		XFREE(MTYPE_BGP_ADJ_OUT, rib->batch->fol);
		XFREE(MTYPE_BGP_ADJ_OUT, rib->batch->tee);
		XFREE(MTYPE_BGP_ADJ_OUT, rib->batch->wire);
	}
	XFREE(MTYPE_BGP_ADJ_OUT, rib->batch);
}

static const uint8_t *group_wire(const struct adj_out_batch *b, const struct adj_out_group *g)
{
	return g->wire_len ? b->wire + g->wire_off : NULL;
}

/*
 * Add dest to the batch with the attributes w (len 0: withdraw); returns an estimate of the
 * bytes it adds. Groups are keyed by the bytes, so two stored sets that export alike share
 * the messages, as their interned exported set did.
 */
static size_t batch_add(struct adj_out_batch *b, enum bgp_af af, struct bgp_dest *d,
			const struct export_wire *w)
{
	uint32_t idx = b->nitem++;
	uint32_t h = (uint32_t)((w->hash * UINT64_C(0x9E3779B97F4A7C15)) >> 40);
	size_t est = 1 + ((size_t)bgp_dest_plen(d, af) + 7) / 8;
	struct adj_out_group *g;

	b->item[idx].dest = d;
	b->item[idx].next = ADJ_NIL;
	for (h &= ADJ_HASH_SIZE - 1; b->hslot[h]; h = (h + 1) & (ADJ_HASH_SIZE - 1)) {
		g = &b->group[b->hslot[h] - 1];
		if (g->hash == w->hash && g->wire_len == w->len &&
		    (!w->len || !memcmp(b->wire + g->wire_off, w->wire, w->len))) {
			b->item[g->tail].next = idx;
			b->item[idx].group = b->hslot[h] - 1;
			g->tail = idx;
			return est;
		}
	}
	if (b->wire_len + w->len > b->wire_cap) {
		b->wire_cap = MAX(b->wire_cap * 2, b->wire_len + w->len + 4096);
		b->wire = XREALLOC(MTYPE_BGP_ADJ_OUT, b->wire, b->wire_cap);
	}
	g = &b->group[b->ngroup];
	g->wire_off = (uint32_t)b->wire_len;
	g->wire_len = w->len;
	g->hash = w->hash;
	if (w->len)
		memcpy(b->wire + b->wire_len, w->wire, w->len);
	b->wire_len += w->len;
	g->head = g->tail = idx;
	g->slot = h;
	b->item[idx].group = b->ngroup;
	b->hslot[h] = ++b->ngroup;
	/* A new UPDATE: header, lengths and the attributes. */
	return est + 64;
}

static void batch_reset(struct bgp_rib *rib, enum bgp_af af, struct adj_out_batch *b)
{
	/* While the table drains, its dead dests go in bulk (bgp_rib_drain.c): no test each. */
	for (uint32_t i = 0; i < b->nitem && !rib->af[af].draining; i++)
		if (!b->group[b->item[i].group].wire_len && !dest_has_paths(b->item[i].dest))
			/* Withdrawn from this session: maybe the last one that had it. */
			rib_dest_maybe_free(rib, af, b->item[i].dest);
	for (uint32_t g = 0; g < b->ngroup; g++)
		b->hslot[b->group[g].slot] = 0;
	b->nitem = 0;
	b->ngroup = 0;
	b->wire_len = 0;
}

/* Decide what `to` gets for dest and queue it in the batch; returns the estimated bytes. */
static size_t collect(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af, struct bgp_dest *d,
		      struct adj_out_batch *b)
{
	struct export_wire w = export_wire(rib, to, af, d);

	if (w.len) {
		if (!bgp_dest_adv_test(d, to->id)) {
			adv_set(d, to->id);
			to->sent[af]++;
		}
		return batch_add(b, af, d, &w);
	}
	if (bgp_dest_adv_clear(d, to->id)) {
		to->sent[af]--;
		return batch_add(b, af, d, &w);
	}
	return 0;
}

/* ---- sending ---- */

static size_t msg_len(const uint8_t *msg)
{
	return (size_t)msg[16] << 8 | msg[17];
}

static bool pend_empty(const struct rib_src *to)
{
	return to->pend_off == to->pend_len;
}

static void pend_free(struct rib_src *to)
{
	XFREE(MTYPE_BGP_ADJ_OUT, to->pend);
	to->pend_len = to->pend_off = to->pend_cap = 0;
}

/*
 * Handing messages to the session. Its send_space() says how much room is left below the
 * session's high-water mark; the session marks itself blocked once its queue reaches the mark
 * and calls rib_peer_writable() when it has drained. So we hand over messages while there is
 * any room at all (the last one may go past the mark by less than one message: that is what
 * makes the session block and call us back) and stop at zero. What a batch produced beyond
 * that waits here.
 */
static void hand_over(struct rib_src *to, const uint8_t *msg, size_t len, size_t *space)
{
	/* -1 means the session is going down; rib_peer_down() follows. */
	rib_sops(to->peer)->send(to->peer, msg, len);
	*space = len >= *space ? 0 : *space - len;
}

/* Hand queued messages to the session while there is room; true when none is left. */
static bool pend_flush(struct rib_src *to, size_t *space)
{
	while (!pend_empty(to)) {
		const uint8_t *msg = to->pend + to->pend_off;
		size_t len = msg_len(msg);

		if (*space == 0)
			return false;
		hand_over(to, msg, len, space);
		to->pend_off += len;
	}
	pend_free(to);
	return true;
}

/* A copy of a shared batch's message, for the sessions that follow its leader. */
static void tee_add(struct adj_out_batch *b, const uint8_t *msg, size_t len)
{
	if (b->tee_len + len > b->tee_cap) {
		size_t ncap = MAX(b->tee_cap * 2, b->tee_len + len);

		b->tee = XREALLOC(MTYPE_BGP_ADJ_OUT, b->tee, ncap);
		b->tee_cap = ncap;
	}
	memcpy(b->tee + b->tee_len, msg, len);
	b->tee_len += len;
}

static void emit(struct rib_src *to, const uint8_t *msg, size_t len, size_t *space)
{
	if (to->tee)
		tee_add(to->tee, msg, len);
	if (pend_empty(to) && *space > 0) {
		hand_over(to, msg, len, space);
		return;
	}
	if (to->pend_len + len > to->pend_cap) {
		size_t ncap = MAX(to->pend_cap * 2, to->pend_len + len);

		to->pend = XREALLOC(MTYPE_BGP_ADJ_OUT, to->pend, ncap);
		to->pend_cap = ncap;
	}
	memcpy(to->pend + to->pend_len, msg, len);
	to->pend_len += len;
}

/* wire NULL: withdrawals. */
static int ub_begin(struct rib_src *to, enum bgp_af af, const uint8_t *wire, size_t wire_len)
{
	if (wire)
		return bgp_ub_begin_announce_wire(&to->oub, to->obuf, to->max_msg, &to->codec, af,
						  wire, wire_len);
	return bgp_ub_begin_withdraw(&to->oub, to->obuf, to->max_msg, &to->codec, af);
}

/* Is the open message one for these attributes (wire NULL: withdrawals) of af? */
static bool open_is(const struct rib_src *to, enum bgp_af af, const uint8_t *wire, size_t wire_len)
{
	return to->open && to->oaf == af && to->owire_len == (wire ? wire_len : 0) &&
	       (!wire || !memcmp(to->owire, wire, wire_len));
}

/* Finish and send the message being filled, if any. */
static void open_flush(struct rib_src *to, size_t *space)
{
	size_t len;

	if (!to->open)
		return;
	len = bgp_ub_finish(&to->oub);
	if (len)
		emit(to, to->obuf, len, space);
	to->owire_len = 0;
	to->open = false;
}

/* Start a message for these attributes (NULL = withdrawals); false when they cannot be
 * encoded at all. The session keeps a copy of them: the next batch's group with the same
 * bytes goes on in this message. */
static bool open_begin(struct rib_src *to, enum bgp_af af, const uint8_t *wire, size_t wire_len)
{
	if (ub_begin(to, af, wire, wire_len) < 0)
		return false;
	to->open = true;
	to->oaf = af;
	to->owire_len = 0;
	if (wire) {
		if (wire_len > to->owire_cap) {
			to->owire_cap = wire_len;
			to->owire = XREALLOC(MTYPE_BGP_ADJ_OUT, to->owire, wire_len);
		}
		memcpy(to->owire, wire, wire_len);
		to->owire_len = wire_len;
	}
	return true;
}

/*
 * Add the items of one group (wire NULL = withdrawals) to the session's output. Messages are
 * filled to the brim: the last one stays open for the next group with the same attributes
 * (possibly in the next batch) and is finished as soon as anything else has to be sent.
 */
static void emit_group(struct rib_src *to, enum bgp_af af, struct adj_out_batch *b,
		       const uint8_t *wire, size_t wire_len, uint32_t first, size_t *space)
{
	struct prefix p;

	if (to->open && !open_is(to, af, wire, wire_len))
		open_flush(to, space);
	if (!to->open && !open_begin(to, af, wire, wire_len)) {
		if (!wire) {
			log_err("%s: cannot build a withdrawal UPDATE (internal error)", to->name);
			return;
		}
		/* An attribute set too large for one message: the prefixes cannot be sent. Make
		 * sure the peer does not keep an older version of them. */
		log_warn_limited(
			"%s: attribute set too large for a %zu-byte UPDATE; %s routes withdrawn "
			"instead (enable extended messages on both sides to send them)",
			to->name, to->max_msg, af == BGP_AF_IPV4_UNICAST ? "IPv4" : "IPv6");
		for (uint32_t i = first; i != ADJ_NIL; i = b->item[i].next)
			if (bgp_dest_adv_clear(b->item[i].dest, to->id))
				to->sent[af]--;
		emit_group(to, af, b, NULL, 0, first, space);
		return;
	}
	for (uint32_t i = first; i != ADJ_NIL; i = b->item[i].next) {
		size_t len;
		int r;

		bgp_dest_prefix(b->item[i].dest, af, &p);
		r = bgp_ub_add(&to->oub, &p);
		if (r == 0)
			continue;
		if (r != -1) {
			log_err("%s: prefix refused by the UPDATE builder (internal error)",
				to->name);
			continue;
		}
		/* Full: send it and go on in a new one. */
		len = bgp_ub_finish(&to->oub);
		if (len)
			emit(to, to->obuf, len, space);
		if (ub_begin(to, af, wire, wire_len) < 0 || bgp_ub_add(&to->oub, &p) < 0) {
			log_err("%s: prefix does not fit an empty UPDATE (internal error)",
				to->name);
			to->owire_len = 0;
			to->open = false;
			return;
		}
	}
}

/*
 * Send a batch: first the group that continues the open message, then withdrawals, then one
 * run per exported attribute set. Each dest is in one group only, and a message is finished
 * before one with other attributes starts, so the peer sees every prefix's changes in order.
 */
static void batch_emit(struct rib_src *to, enum bgp_af af, struct adj_out_batch *b, size_t *space)
{
	uint32_t cont = ADJ_NIL;

	if (to->open && to->oaf == af && to->owire_len) {
		for (uint32_t g = 0; g < b->ngroup; g++) {
			const struct adj_out_group *grp = &b->group[g];

			if (grp->wire_len && open_is(to, af, group_wire(b, grp), grp->wire_len)) {
				cont = g;
				emit_group(to, af, b, group_wire(b, grp), grp->wire_len, grp->head,
					   space);
				break;
			}
		}
	}
	for (uint32_t g = 0; g < b->ngroup; g++)
		if (g != cont && !b->group[g].wire_len)
			emit_group(to, af, b, NULL, 0, b->group[g].head, space);
	for (uint32_t g = 0; g < b->ngroup; g++)
		if (g != cont && b->group[g].wire_len)
			emit_group(to, af, b, group_wire(b, &b->group[g]), b->group[g].wire_len,
				   b->group[g].head, space);
}

static void send_eor(struct rib_src *to, enum bgp_af af, size_t *space)
{
	uint8_t buf[64];
	size_t len;

	open_flush(to, space);
	len = bgp_update_end_of_rib(buf, sizeof(buf), af);
	if (len)
		emit(to, buf, len, space);
	to->out[af].eor_sent = true;
	if (DEBUG_ON(BGP_DEBUG_UPDATES_OUT))
		log_debug("%s: send End-of-RIB for %s", to->name,
			  af == BGP_AF_IPV4_UNICAST ? "IPv4 Unicast" : "IPv6 Unicast");
}

/* RFC 7313 4: the beginning or the end of a route refresh of af (subtype BoRR / EoRR). */
static void send_refresh_mark(struct rib_src *to, enum bgp_af af, uint8_t subtype, size_t *space)
{
	uint8_t buf[BGP_ROUTE_REFRESH_LEN];
	size_t len;

	open_flush(to, space);
	len = bgp_route_refresh_encode(buf, sizeof(buf), af, subtype);
	if (len)
		emit(to, buf, len, space);
	if (DEBUG_ON(BGP_DEBUG_UPDATES_OUT))
		log_debug("%s: send %s for %s", to->name, subtype == BGP_RR_BORR ? "BoRR" : "EoRR",
			  bgp_af_text_name(af));
}

/*
 * neighbor X advertisement-interval N (MRAI, RFC 4271 9.2.1.1), as FRR: once a session has
 * its table, the changes for it wait until N seconds have passed since the last UPDATE it was
 * sent, and then go out together (the journal keeps one entry per changed prefix, so what
 * changed several times meanwhile goes once, as it is then). Withdrawals wait too. The table
 * sent when the session comes up (or after a refresh) is not held. Milliseconds to wait, 0
 * when it may send now.
 */
static uint64_t mrai_wait_ms(const struct rib_src *to)
{
	uint64_t ivl = to->peer ? (uint64_t)to->peer->conf.adv_interval * 1000 : 0;
	uint64_t now;

	if (!ivl || !to->mrai_last_ms)
		return 0;
	now = monotime_ms();
	return now - to->mrai_last_ms >= ivl ? 0 : to->mrai_last_ms + ivl - now;
}

static void mrai_cb(int fd, short what, void *arg)
{
	struct bgp_rib *rib = arg;

	(void)fd;
	(void)what;
	rib_work_schedule(rib);
}

/* A session held by its MRAI with changes waiting: wake the output when the time comes. */
static void mrai_arm(struct bgp_rib *rib, struct rib_src *to, uint64_t wait)
{
	struct event_base *base = rib->bgp->base;

	if (!to->mrai_ev && base)
		to->mrai_ev = event_timer_new(base, mrai_cb, rib);
	if (to->mrai_ev && !event_pending(to->mrai_ev))
		event_timer_add(to->mrai_ev, (uint32_t)MIN(wait, (uint64_t)UINT32_MAX), 0);
}

/* held: changes wait for the MRAI (set when the answer is false because of it). */
static bool af_has_work_now(const struct bgp_rib *rib, const struct rib_src *to, enum bgp_af af,
			    bool *held)
{
	const struct rib_out_af *out = &to->out[af];

	switch (out->mode) {
	case RIB_OUT_OFF:
		return false;
	case RIB_OUT_WALK:
		return true;
	case RIB_OUT_JOURNAL:
		if (!out->eor_sent || out->eorr_wait)
			return true;
		if (out->cursor >= rib->af[af].journal.head)
			return false;
		if (mrai_wait_ms(to)) {
			*held = true;
			return false;
		}
		return true;
	}
	return false;
}

static bool af_has_work(const struct bgp_rib *rib, const struct rib_src *to, enum bgp_af af)
{
	bool held = false;

	return af_has_work_now(rib, to, af, &held);
}

static bool src_has_work(const struct bgp_rib *rib, const struct rib_src *to)
{
	if (!to->up || to->blocked || to->local)
		return false;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (af_has_work(rib, to, af))
			return true;
	return false;
}

bool adj_out_has_work(const struct bgp_rib *rib)
{
	for (uint32_t id = 1; id < rib->src_cap; id++)
		if (rib->src[id] && src_has_work(rib, rib->src[id]))
			return true;
	return false;
}

/*
 * Update groups: one decision and one encoding for every session of a group.
 *
 * A session about to read the journal (the leader) looks for the sessions that would be sent
 * the same bytes (bgp_update_group.c) and stand where it stands: the same journal position,
 * their initial table and any refresh done, no message open, nothing pending, room to write.
 * Those follow it through the batch: the leader records each dest it decides on, with its
 * advertised-to bit before, and sends its messages as usual, finishing the last one so that
 * the batch's output is whole messages; a copy goes to every follower, whose bits and journal
 * position are set to the leader's. A follower is dropped from the batch, and reads it itself
 * later, when the batch holds a route from it or from the leader (never sent back to its
 * source) or when its bit for a dest the leader withdraws or skips differs from the leader's
 * (one would withdraw, the other not). A follower that cannot take the bytes keeps them
 * pending as after any batch and stops following until it has caught up; a leader or follower
 * that refreshes, walks, changes policy or goes down no longer matches. Nothing is kept
 * between batches.
 */
static void share_reset(struct adj_out_batch *b)
{
	b->nvisit = 0;
	b->nfol = 0;
	b->tee_len = 0;
}

static void fol_add(struct adj_out_batch *b, struct rib_src *s)
{
	if (b->nfol == b->fol_cap) {
		b->fol_cap = b->fol_cap ? b->fol_cap * 2 : 16;
		b->fol = XREALLOC(MTYPE_BGP_ADJ_OUT, b->fol, b->fol_cap * sizeof(*b->fol));
	}
	b->fol[b->nfol++] = s;
}

/* Where a session must stand to lead or follow a shared batch of af read from pos. */
static bool share_ready(const struct rib_src *s, enum bgp_af af, uint64_t pos)
{
	const struct rib_out_af *out = &s->out[af];

	return s->cache && out->mode == RIB_OUT_JOURNAL && out->cursor == pos && out->eor_sent &&
	       !out->eorr_wait && !s->open && pend_empty(s) && !s->tee;
}

/* The followers of `to` for a batch of af from its cursor; the number found. */
static uint32_t share_begin(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af)
{
	struct adj_out_batch *b = rib->batch;
	uint64_t pos = to->out[af].cursor;

	share_reset(b);
	if (!share_ready(to, af, pos))
		return 0;
	for (uint32_t id = 1; id < rib->src_cap; id++) {
		struct rib_src *s = rib->src[id];

		if (s && !s->blocked && share_ready(s, af, pos) &&
		    update_group_same_output(to, s, af) && rib->sops->send_space(s->peer) > 0)
			fol_add(b, s);
	}
	return b->nfol;
}

/* Before the leader decides on d: what the followers need to check and copy. */
static void share_note(struct bgp_rib *rib, const struct rib_src *to, struct adj_out_batch *b,
		       struct bgp_dest *d)
{
	const struct bgp_path *best = dest_best(d);
	struct adj_out_visit *v = &b->visit[b->nvisit++];

	v->dest = d;
	v->from = best ? rib_src_get(rib, best->src) : NULL;
	v->adv_before = bgp_dest_adv_test(d, to->id);
}

/* Would f make exactly the leader's decisions on this batch? Dest by dest, for the cases
 * share_check() cannot settle for all followers at once. */
static bool share_follows(const struct rib_src *to, const struct rib_src *f,
			  const struct adj_out_batch *b)
{
	for (uint32_t i = 0; i < b->nvisit; i++) {
		const struct adj_out_visit *v = &b->visit[i];

		if (!update_group_route_shareable(v->from, to, f))
			return false;
		/* Nothing announced: the leader withdrew iff its bit was set; so must f's be. */
		if (!v->want && bgp_dest_adv_test(v->dest, f->id) != v->adv_before)
			return false;
	}
	return true;
}

/* The distinct sources of a batch's routes: a follower is checked against each once. */
#define SHARE_FROM_MAX 8

/* false when there are too many to keep. */
static bool from_add(const struct rib_src **from, uint32_t *nfrom, const struct rib_src *s)
{
	for (uint32_t i = 0; i < *nfrom; i++)
		if (from[i] == s)
			return true;
	if (*nfrom == SHARE_FROM_MAX)
		return false;
	from[(*nfrom)++] = s;
	return true;
}

static bool from_shareable(const struct rib_src *const *from, uint32_t nfrom,
			   const struct rib_src *to, const struct rib_src *f)
{
	for (uint32_t i = 0; i < nfrom; i++)
		if (!update_group_route_shareable(from[i], to, f))
			return false;
	return true;
}

static uint64_t fol_inline_mask(const struct adj_out_batch *b)
{
	uint64_t m = 0;

	for (uint32_t k = 0; k < b->nfol; k++)
		if (b->fol[k]->id < 64)
			m |= UINT64_C(1) << b->fol[k]->id;
	return m;
}

/*
 * Keep the followers that make the leader's decisions; the number kept. The per-dest part is
 * done once for all of them: the leader's bit after its decision, the sources of the batch's
 * routes (a follower is then checked against each distinct one), and, where the leader
 * announced nothing, the inline followers' bits against the leader's before, in one word.
 * Only a follower with id 64 or more, a dest with a spilled bitmap that the leader announced
 * nothing for, or a batch with many sources, is checked dest by dest (share_follows()).
 */
static uint32_t share_check(const struct rib_src *to, struct adj_out_batch *b)
{
	const struct rib_src *from[SHARE_FROM_MAX];
	uint32_t nfrom = 0, n = 0;
	uint64_t inl = fol_inline_mask(b), bad = 0;
	bool many_from = false, spilled_quiet = false;

	for (uint32_t i = 0; i < b->nvisit; i++) {
		struct adj_out_visit *v = &b->visit[i];

		v->want = bgp_dest_adv_test(v->dest, to->id);
		if (v->from && !many_from && !from_add(from, &nfrom, v->from))
			many_from = true;
		if (v->want)
			continue;
		if (adv_spilled(v->dest))
			spilled_quiet = true;
		else
			bad |= adv_inline_bits(v->dest, inl) ^ (v->adv_before ? inl : 0);
	}
	for (uint32_t k = 0; k < b->nfol; k++) {
		struct rib_src *f = b->fol[k];
		bool follows;

		if (many_from || spilled_quiet || f->id >= 64)
			follows = share_follows(to, f, b);
		else
			follows = !((bad >> f->id) & 1) && from_shareable(from, nfrom, to, f);
		if (follows)
			b->fol[n++] = f;
	}
	b->nfol = n;
	b->fol_inline = fol_inline_mask(b);
	b->fol_wide = n - (uint32_t)__builtin_popcountll(b->fol_inline);
	return n;
}

/* One follower's bit for d made the leader's (want), its count kept. */
static void share_assign(struct rib_src *f, enum bgp_af af, struct bgp_dest *d, bool want)
{
	if (want && !bgp_dest_adv_test(d, f->id)) {
		adv_set(d, f->id);
		f->sent[af]++;
	} else if (!want && bgp_dest_adv_clear(d, f->id)) {
		f->sent[af]--;
	}
}

/* Every follower's bit for d made the leader's (want). The inline followers' bits go in one
 * word; when that changes all of them, as it does for a new or a withdrawn prefix, their
 * counts are settled once per batch (*all, share_apply()). */
static void share_assign_all(struct bgp_rib *rib, enum bgp_af af, const struct adj_out_batch *b,
			     struct bgp_dest *d, bool want, uint32_t *all)
{
	uint64_t inl = b->fol_inline;
	bool one_by_one = true;

	if (inl && !adv_spilled(d)) {
		uint64_t changed = adv_inline_assign(d, inl, want);

		one_by_one = false;
		if (changed == inl)
			(*all)++;
		for (; changed && changed != inl; changed &= changed - 1) {
			struct rib_src *f = rib_src_get(rib, (uint32_t)__builtin_ctzll(changed));

			if (want)
				f->sent[af]++;
			else
				f->sent[af]--;
		}
	}
	if (!one_by_one && !b->fol_wide)
		return;
	for (uint32_t k = 0; k < b->nfol; k++)
		if (b->fol[k]->id >= 64 || one_by_one)
			share_assign(b->fol[k], af, d, want);
}

/* The leader has sent the batch (into b->tee as well): each follower gets the same bits, the
 * same journal position and a copy of the messages. */
static void share_apply(struct bgp_rib *rib, const struct rib_src *to, enum bgp_af af,
			struct adj_out_batch *b)
{
	uint32_t all_set = 0, all_cleared = 0;

	for (uint32_t i = 0; i < b->nvisit; i++) {
		struct bgp_dest *d = b->visit[i].dest;
		/* Read again: sending may have withdrawn what could not be encoded. */
		bool want = bgp_dest_adv_test(d, to->id);

		share_assign_all(rib, af, b, d, want, want ? &all_set : &all_cleared);
	}
	for (uint32_t k = 0; k < b->nfol; k++) {
		struct rib_src *f = b->fol[k];
		size_t space = rib->sops->send_space(f->peer);

		if (f->id < 64) {
			f->sent[af] += all_set;
			f->sent[af] -= all_cleared;
		}
		f->out[af].cursor = to->out[af].cursor;
		for (size_t off = 0; off < b->tee_len;) {
			size_t len = msg_len(b->tee + off);

			emit(f, b->tee + off, len, &space);
			off += len;
		}
		if (!pend_empty(f))
			f->blocked = true;
	}
	if (b->nfol)
		rib->out_shared++;
}

/* One batch for one AF of one session: visits at most limit dests. Always makes progress
 * (visits a dest, ends the walk or sends End-of-RIB). Returns the dests visited. */
static size_t run_batch(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af, size_t limit,
			size_t *space)
{
	struct adj_out_batch *b = rib->batch;
	struct rib_out_af *out = &to->out[af];
	struct rib_journal *j = &rib->af[af].journal;
	size_t visited = 0, est = 0;
	bool sharing = false;

	if (out->mode == RIB_OUT_WALK) {
		struct prefix last;
		size_t n = 0;

		/* The batch's dests from one descent of the tree, not one per dest (in a mesh
		 * every session walks a growing table: doc/performance.md, "Many collectors:
		 * group-level state (round 3)"). They stay valid while the batch is decided:
		 * dests are freed in batch_reset(), after. A session sent nothing whatever the
		 * table holds: the walk ends at once. */
		if (out->walk_started || !adj_out_sends_nothing(to, af))
			n = ptree_next_batch(rib->af[af].tree,
					     out->walk_started ? &out->walk_last : NULL, b->walk,
					     MIN(limit, (size_t)RIB_BATCH), &last);
		out->walk_started = true;
		while (visited < n) {
			struct bgp_dest *d = b->walk[visited++];

			if (!journal_has_since(j, d, out->cursor))
				est += collect(rib, to, af, d, b);
			if (est >= *space)
				break;
		}
		if (visited == n && n)
			out->walk_last = last;
		else if (visited)
			bgp_dest_prefix(b->walk[visited - 1], af, &out->walk_last);
		/* Fewer than asked for, all visited: the table has no more. */
		if (visited == n && n < MIN(limit, (size_t)RIB_BATCH)) {
			out->mode = RIB_OUT_JOURNAL;
			if (!out->eor_sent)
				out->eor_pos = j->head;
			if (out->eorr_wait)
				out->eorr_pos = j->head;
		}
	} else if (adj_out_sends_nothing(to, af)) {
		/* Nothing in the journal is for it: read past it all at once. */
		out->cursor = j->head;
		if (out->cursor > j->passed)
			j->passed = out->cursor;
	} else {
		sharing = share_begin(rib, to, af) > 0;
		while (out->cursor < j->head && visited < limit && est < *space) {
			uint64_t pos = out->cursor++;
			struct bgp_dest *d = *jslot(j, pos);

			visited++;
			if (d->version != (uint32_t)pos)
				continue; /* it has a later entry */
			if (sharing)
				share_note(rib, to, b, d);
			est += collect(rib, to, af, d, b);
		}
		if (out->cursor > j->passed)
			j->passed = out->cursor;
		sharing = sharing && share_check(to, b) > 0;
	}
	if (b->nitem && to->peer && to->peer->conf.adv_interval)
		to->mrai_last_ms = monotime_ms(); /* an UPDATE goes out now (MRAI) */
	if (sharing) {
		/* Whole messages only: the followers get them as they are. */
		to->tee = b;
		batch_emit(to, af, b, space);
		open_flush(to, space);
		to->tee = NULL;
		share_apply(rib, to, af, b);
	} else {
		batch_emit(to, af, b, space);
	}
	share_reset(b);
	batch_reset(rib, af, b);
	if (out->mode == RIB_OUT_JOURNAL && out->cursor >= j->head) {
		/* Caught up: nothing more to pack with, send what is there. */
		open_flush(to, space);
		if (!out->eor_sent && out->cursor >= out->eor_pos)
			send_eor(to, af, space);
		if (out->eorr_wait && out->cursor >= out->eorr_pos) {
			send_refresh_mark(to, af, BGP_RR_EORR, space);
			out->eorr_wait = false;
		}
	}
	return visited;
}

/* Serve one session: at most limit dests. */
static size_t run_session(struct bgp_rib *rib, struct rib_src *to, size_t limit)
{
	size_t visited = 0;
	size_t space;

	if (!to->peer)
		return 0;
	space = rib->sops->send_space(to->peer);
	if (!pend_flush(to, &space)) {
		to->blocked = true;
		return 0;
	}
	for (int af = 0; af < BGP_AF_MAX && visited < limit; af++) {
		while (visited < limit && af_has_work(rib, to, af)) {
			if (space == 0 || !pend_empty(to)) {
				to->blocked = true;
				return visited;
			}
			visited += run_batch(rib, to, af, limit - visited, &space);
		}
	}
	if (!pend_empty(to))
		to->blocked = true;
	return visited;
}

size_t adj_out_run(struct bgp_rib *rib, size_t budget)
{
	size_t visited = 0;
	bool progress = true;

	/* Round robin, one batch per session per round, until the budget is used. */
	while (visited < budget && progress) {
		uint32_t n = rib->src_cap;

		progress = false;
		for (uint32_t i = 0; i < n && visited < budget; i++) {
			uint32_t id = (rib->rr_next + i) % n;
			struct rib_src *src = rib->src[id];

			if (!src || !src_has_work(rib, src)) {
				uint64_t wait = src ? mrai_wait_ms(src) : 0;
				bool held = false;

				for (int af = 0; wait && af < BGP_AF_MAX; af++)
					af_has_work_now(rib, src, (enum bgp_af)af, &held);
				if (held && src->up && !src->local)
					mrai_arm(rib, src, wait);
				continue;
			}
			visited += run_session(rib, src, MIN(budget - visited, (size_t)RIB_BATCH));
			progress = true;
		}
		rib->rr_next = (rib->rr_next + 1) % n;
	}
	return visited;
}

/* ---- session events ---- */

void adj_out_peer_up(struct bgp_rib *rib, struct rib_src *src)
{
	src->cache = XCALLOC(MTYPE_BGP_ADJ_OUT, sizeof(*src->cache));
	src->obuf = XMALLOC(MTYPE_BGP_ADJ_OUT, src->max_msg);
	src->open = false;
	src->blocked = false;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		struct rib_out_af *out = &src->out[af];
		struct rib_journal *j = &rib->af[af].journal;

		memset(out, 0, sizeof(*out));
		if (!src->af[af])
			continue;
		out->mode = RIB_OUT_WALK;
		out->cursor = j->head;
		/* Entries before head are behind this reader: a dest changing again must be
		 * appended anew for it. */
		if (j->head > j->passed)
			j->passed = j->head;
	}
	rib_work_schedule(rib);
}

void adj_out_peer_down(struct bgp_rib *rib, struct rib_src *src)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		src->out[af].mode = RIB_OUT_OFF;
	cache_free(src);
	pend_free(src);
	XFREE(MTYPE_BGP_ADJ_OUT, src->owire);
	src->owire_len = src->owire_cap = 0;
	src->open = false;
	XFREE(MTYPE_BGP_ADJ_OUT, src->obuf);
	src->blocked = false;
	event_free(src->mrai_ev);
	src->mrai_ev = NULL;
	src->mrai_last_ms = 0;
	(void)rib;
}

void adj_out_refresh(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, bool demarcated)
{
	struct rib_out_af *out = &src->out[af];

	if (out->mode == RIB_OUT_OFF)
		return;
	/* Before the first End-of-RIB the peer is still receiving the initial table, which
	 * that End-of-RIB ends: no BoRR then (FRR likewise). A refresh asked again before our
	 * EoRR keeps the round open: one BoRR, one EoRR after the last walk. */
	if (demarcated && out->eor_sent && !out->eorr_wait) {
		size_t space = rib->sops->send_space(src->peer);

		send_refresh_mark(src, af, BGP_RR_BORR, &space);
		out->eorr_wait = true;
	}
	out->eorr_pos = UINT64_MAX; /* set when this walk ends */
	/* Walk again; the journal is read on from where this session stood, so nothing that
	 * changed meanwhile is lost (the walk skips what the journal will bring). What the
	 * session's policy made of each attribute set is computed afresh. */
	cache_clear(src);
	out->mode = RIB_OUT_WALK;
	out->walk_started = false;
	rib_work_schedule(rib);
}
