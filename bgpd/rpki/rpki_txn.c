/* SPDX-License-Identifier: ISC */
/*
 * Transactions: one source's changes, checked one by one against what the source holds and
 * what the transaction did so far, applied together at commit (RFC 8210 5.6: a cache that
 * announces what it already announced, or withdraws what it never did, is in error).
 *
 * The transaction records, per VRP and per ASPA customer, the state the source should end in;
 * commit compares that with the store and changes only what differs, so a reset that announces
 * the same data again changes nothing and wakes no watcher.
 */
#include "lib/compat.h"

#include <errno.h>

#include "bgpd/rpki/rpki_db_int.h"
#include "lib/hash.h"

#define TXN_BLOCK 4096 /* VRP operations per block: blocks never move, the hash points in */

struct txn_vrp {
	struct rpki_vrp v; /* masked prefix, zeroed padding: compared field by field */
	bool present;	   /* the state the source ends in */
};

struct txn_aspa {
	uint32_t customer;
	bool present;
	uint32_t n;
	uint32_t *prov; /* sorted, unique */
};

struct rpki_txn {
	struct rpki_db *db;
	int source;
	uint32_t gen; /* the source's generation at begin (rpki_source_clear/drop bump it) */
	bool reset;
	struct hash *vrps, *aspas;
	struct txn_vrp **blocks; /* the operations, in arrival order */
	size_t nblocks, nvrp;
};

static uint32_t vrp_key(const void *item)
{
	const struct rpki_vrp *v = &((const struct txn_vrp *)item)->v;
	uint32_t h = hash_bytes(v->prefix.u.bytes, family_addr_bytes(v->prefix.family), 0);

	h = hash_combine(h, (uint32_t)v->prefix.family << 16 | (uint32_t)v->prefix.len << 8 |
				    v->max_len);
	return hash_combine(h, v->asn);
}

static bool vrp_same(const struct rpki_vrp *a, const struct rpki_vrp *b)
{
	return a->prefix.family == b->prefix.family && a->prefix.len == b->prefix.len &&
	       a->max_len == b->max_len && a->asn == b->asn &&
	       memcmp(a->prefix.u.bytes, b->prefix.u.bytes, family_addr_bytes(a->prefix.family)) ==
		       0;
}

static bool vrp_eq(const void *a, const void *b)
{
	return vrp_same(&((const struct txn_vrp *)a)->v, &((const struct txn_vrp *)b)->v);
}

static uint32_t aspa_key(const void *item)
{
	return hash_combine(0x5a5a, ((const struct txn_aspa *)item)->customer);
}

static bool aspa_eq(const void *a, const void *b)
{
	return ((const struct txn_aspa *)a)->customer == ((const struct txn_aspa *)b)->customer;
}

struct rpki_txn *rpki_txn_begin(struct rpki_db *db, int source, bool reset)
{
	struct rpki_txn *txn;

	if (!db || source < 0 || source >= RPKI_SOURCE_MAX || !(db->sources_used & (1u << source)))
		return NULL;
	txn = XCALLOC(MTYPE_RPKI_DB, sizeof(*txn));
	txn->db = db;
	txn->source = source;
	txn->gen = db->source_gen[source];
	txn->reset = reset;
	txn->vrps = hash_new(vrp_key, vrp_eq, "RPKI transaction VRPs");
	txn->aspas = hash_new(aspa_key, aspa_eq, "RPKI transaction ASPAs");
	return txn;
}

static struct txn_vrp *txn_vrp_new(struct rpki_txn *txn)
{
	size_t b = txn->nvrp / TXN_BLOCK;

	if (b == txn->nblocks) {
		txn->blocks = XREALLOC(MTYPE_RPKI_DB, txn->blocks, (b + 1) * sizeof(*txn->blocks));
		txn->blocks[b] = XMALLOC(MTYPE_RPKI_DB, TXN_BLOCK * sizeof(struct txn_vrp));
		txn->nblocks++;
	}
	return &txn->blocks[b][txn->nvrp++ % TXN_BLOCK];
}

int rpki_txn_vrp(struct rpki_txn *txn, const struct rpki_vrp *vrp, bool announce)
{
	struct txn_vrp key, *op;
	unsigned maxlen;
	bool held;

	if (vrp->prefix.family != AF_INET && vrp->prefix.family != AF_INET6)
		return -EINVAL;
	maxlen = prefix_maxlen(vrp->prefix.family);
	if (vrp->prefix.len > maxlen || vrp->max_len > maxlen || vrp->max_len < vrp->prefix.len)
		return -EINVAL;
	memset(&key, 0, sizeof(key));
	key.v.prefix.family = vrp->prefix.family;
	key.v.prefix.len = vrp->prefix.len;
	memcpy(key.v.prefix.u.bytes, vrp->prefix.u.bytes, family_addr_bytes(vrp->prefix.family));
	prefix_apply_mask(&key.v.prefix);
	key.v.max_len = vrp->max_len;
	key.v.asn = vrp->asn;

	op = hash_lookup(txn->vrps, &key);
	/* What the source holds at this point of the transaction (a reset starts empty). */
	held = op ? op->present : !txn->reset && vrp_held(txn->db, &key.v, txn->source);
	if (announce && held)
		return -EEXIST;
	if (!announce && !held)
		return -ENOENT;
	if (!op) {
		op = txn_vrp_new(txn);
		*op = key;
		hash_insert(txn->vrps, op);
	}
	op->present = announce;
	return 0;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int rpki_txn_aspa(struct rpki_txn *txn, uint32_t customer_as, const uint32_t *providers,
		  size_t nproviders, bool announce)
{
	struct txn_aspa key = { .customer = customer_as }, *op;
	const uint32_t *cur;
	uint32_t ncur, *prov = NULL;
	size_t n = 0;
	bool held;

	if (customer_as == 0)
		return -EINVAL;
	if (announce) {
		if (nproviders > RPKI_ASPA_PROVIDERS_MAX || (nproviders && !providers))
			return -EINVAL;
		if (nproviders) {
			prov = XMALLOC(MTYPE_RPKI_DB, nproviders * sizeof(*prov));
			memcpy(prov, providers, nproviders * sizeof(*prov));
			qsort(prov, nproviders, sizeof(*prov), u32_cmp);
		}
		for (size_t i = 0; i < nproviders; i++) {
			/* An AS is not its own provider: such a record is malformed. */
			if (prov[i] == customer_as) {
				XFREE(MTYPE_RPKI_DB, prov);
				return -EINVAL;
			}
			if (!n || prov[n - 1] != prov[i])
				prov[n++] = prov[i];
		}
	}
	op = hash_lookup(txn->aspas, &key);
	held = op ? op->present
		  : !txn->reset && aspa_source_get(txn->db, customer_as, txn->source, &cur, &ncur);
	/* An announcement replaces the source's record (RTR has no per-provider withdrawal);
	 * two in one transaction are a duplicate, a withdrawal of nothing an error. */
	if ((announce && op && op->present) || (!announce && !held)) {
		XFREE(MTYPE_RPKI_DB, prov);
		return announce ? -EEXIST : -ENOENT;
	}
	if (!op) {
		op = XCALLOC(MTYPE_RPKI_DB, sizeof(*op));
		op->customer = customer_as;
		hash_insert(txn->aspas, op);
	}
	XFREE(MTYPE_RPKI_DB, op->prov);
	op->present = announce;
	op->prov = prov;
	op->n = (uint32_t)n;
	return 0;
}

/* ---- commit ---- */

struct reset_scan {
	struct rpki_txn *txn;
	struct rpki_vrp *gone;
	size_t ngone, cap;
};

/* A reset: what the source holds and the transaction did not announce again goes. */
static void reset_scan_cb(const struct rpki_vrp *vrp, void *arg)
{
	struct reset_scan *rs = arg;
	struct txn_vrp key, *op;

	memset(&key, 0, sizeof(key));
	key.v = *vrp;
	op = hash_lookup(rs->txn->vrps, &key);
	if (op && op->present)
		return;
	if (rs->ngone == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->gone = XREALLOC(MTYPE_RPKI_DB, rs->gone, rs->cap * sizeof(*rs->gone));
	}
	rs->gone[rs->ngone++] = *vrp;
}

static size_t commit_vrps(struct rpki_txn *txn, struct rpki_changes *ch)
{
	struct rpki_db *db = txn->db;
	size_t changed = 0, i;

	if (txn->reset) {
		struct reset_scan rs = { .txn = txn };

		vrp_source_walk(db, txn->source, reset_scan_cb, &rs);
		for (i = 0; i < rs.ngone; i++)
			vrp_set_source(db, &rs.gone[i], txn->source, false, ch);
		changed += rs.ngone;
		XFREE(MTYPE_RPKI_DB, rs.gone);
	}
	for (i = 0; i < txn->nvrp; i++) {
		struct txn_vrp *op = &txn->blocks[i / TXN_BLOCK][i % TXN_BLOCK];

		if (vrp_held(db, &op->v, txn->source) == op->present)
			continue; /* announced and withdrawn again, or a reset's unchanged VRP */
		vrp_set_source(db, &op->v, txn->source, op->present, ch);
		changed++;
	}
	return changed;
}

struct aspa_commit {
	struct rpki_txn *txn;
	struct rpki_changes *ch;
	size_t changed;
};

static int aspa_commit_cb(void *item, void *arg)
{
	struct txn_aspa *op = item;
	struct aspa_commit *ac = arg;
	struct rpki_txn *txn = ac->txn;
	const uint32_t *cur;
	uint32_t ncur;
	bool held = aspa_source_get(txn->db, op->customer, txn->source, &cur, &ncur);

	if (held == op->present &&
	    (!held || (ncur == op->n && (!ncur || !memcmp(cur, op->prov, ncur * sizeof(*cur))))))
		return 0;
	aspa_set_source(txn->db, op->customer, txn->source, op->prov, op->n, op->present, ac->ch);
	ac->changed++;
	return 0;
}

static size_t commit_aspas(struct rpki_txn *txn, struct rpki_changes *ch)
{
	struct rpki_db *db = txn->db;
	struct aspa_commit ac = { txn, ch, 0 };

	if (txn->reset) {
		/* Records of the source the reset did not announce again go. Removal shifts the
		 * array: index only moves on when the record at i stays. */
		size_t i = 0;

		while (i < db->naspa) {
			struct aspa_rec *r = db->aspa[i];
			struct txn_aspa key = { .customer = r->customer }, *op;

			op = hash_lookup(txn->aspas, &key);
			if ((r->sources & (1u << txn->source)) && !(op && op->present)) {
				aspa_set_source(db, r->customer, txn->source, NULL, 0, false, ch);
				ac.changed++;
				if (i < db->naspa && db->aspa[i] != r)
					continue;
			}
			i++;
		}
	}
	hash_walk(txn->aspas, aspa_commit_cb, &ac);
	return ac.changed;
}

static int aspa_op_free(void *item, void *arg)
{
	struct txn_aspa *op = item;

	(void)arg;
	XFREE(MTYPE_RPKI_DB, op->prov);
	XFREE(MTYPE_RPKI_DB, op);
	return 0;
}

static void txn_free(struct rpki_txn *txn)
{
	hash_walk(txn->aspas, aspa_op_free, NULL);
	hash_free(txn->aspas);
	hash_free(txn->vrps);
	for (size_t b = 0; b < txn->nblocks; b++)
		XFREE(MTYPE_RPKI_DB, txn->blocks[b]);
	XFREE(MTYPE_RPKI_DB, txn->blocks);
	XFREE(MTYPE_RPKI_DB, txn);
}

size_t rpki_txn_commit(struct rpki_txn *txn)
{
	struct rpki_changes ch = { 0 };
	size_t changed;

	if (!txn)
		return 0;
	/* The source was cleared or dropped (its id maybe given again) while the transaction
	 * was open: what it collected belongs to data that is gone. */
	if (txn->gen != txn->db->source_gen[txn->source] ||
	    !(txn->db->sources_used & (1u << txn->source))) {
		txn_free(txn);
		return 0;
	}
	changed = commit_vrps(txn, &ch) + commit_aspas(txn, &ch);
	rpki_changes_notify(txn->db, &ch);
	txn_free(txn);
	return changed;
}

void rpki_txn_abort(struct rpki_txn *txn)
{
	if (txn)
		txn_free(txn);
}
