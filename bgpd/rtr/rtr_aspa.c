/* SPDX-License-Identifier: ISC */
/* Per-AFI ASPA records of one cache, merged per customer for the store (rtr_aspa.h). */
#include "lib/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/rtr/rtr_aspa.h"
#include "bgpd/rtr/rtr_pdu.h"

static void rec_free(struct rtr_aspa_rec *r)
{
	for (int i = 0; i < 2; i++) {
		XFREE(MTYPE_RTR_CACHE, r->prov[i]);
		r->n[i] = 0;
		r->has[i] = false;
	}
}

static void rec_copy(struct rtr_aspa_rec *dst, const struct rtr_aspa_rec *src)
{
	*dst = *src;
	for (int i = 0; i < 2; i++) {
		dst->prov[i] = NULL;
		if (src->n[i]) {
			dst->prov[i] = XMALLOC(MTYPE_RTR_CACHE, src->n[i] * sizeof(uint32_t));
			memcpy(dst->prov[i], src->prov[i], src->n[i] * sizeof(uint32_t));
		}
	}
}

static void recs_free(struct rtr_aspa_rec *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rec_free(&recs[i]);
	XFREE(MTYPE_RTR_CACHE, recs);
}

void rtr_aspa_init(struct rtr_aspa_table *t)
{
	memset(t, 0, sizeof(*t));
}

static void touched_free(struct rtr_aspa_table *t)
{
	for (size_t i = 0; i < t->ntouched; i++)
		if (t->touched[i].existed)
			rec_free(&t->touched[i].before);
	XFREE(MTYPE_RTR_CACHE, t->touched);
	t->ntouched = t->touched_cap = 0;
}

void rtr_aspa_clear(struct rtr_aspa_table *t)
{
	recs_free(t->recs, t->n);
	t->recs = NULL;
	t->n = t->cap = 0;
}

void rtr_aspa_fini(struct rtr_aspa_table *t)
{
	if (t->in_txn)
		rtr_aspa_abort(t);
	rtr_aspa_clear(t);
}

size_t rtr_aspa_customers(const struct rtr_aspa_table *t)
{
	return t->n;
}

/* Index of customer, or where it would go (*found false). */
static size_t find(const struct rtr_aspa_rec *recs, size_t n, uint32_t customer, bool *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid].customer < customer)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && recs[lo].customer == customer;
	return lo;
}

static struct rtr_aspa_rec *insert(struct rtr_aspa_table *t, size_t at, uint32_t customer)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->recs = XREALLOC(MTYPE_RTR_CACHE, t->recs, t->cap * sizeof(*t->recs));
	}
	memmove(&t->recs[at + 1], &t->recs[at], (t->n - at) * sizeof(*t->recs));
	t->n++;
	memset(&t->recs[at], 0, sizeof(*t->recs));
	t->recs[at].customer = customer;
	return &t->recs[at];
}

static void remove_at(struct rtr_aspa_table *t, size_t at)
{
	rec_free(&t->recs[at]);
	memmove(&t->recs[at], &t->recs[at + 1], (t->n - at - 1) * sizeof(*t->recs));
	t->n--;
}

void rtr_aspa_begin(struct rtr_aspa_table *t, bool reset)
{
	if (t->in_txn)
		rtr_aspa_abort(t);
	t->in_txn = true;
	t->reset = reset;
	if (reset) {
		t->saved = t->recs;
		t->nsaved = t->n;
		t->recs = NULL;
		t->n = t->cap = 0;
	}
}

/* Remember customer as it was before this transaction, the first time it is touched. */
static void touch(struct rtr_aspa_table *t, uint32_t customer)
{
	struct rtr_aspa_touch *to;
	bool found;
	size_t at;

	if (t->reset)
		return; /* the saved table is the snapshot */
	for (size_t i = 0; i < t->ntouched; i++)
		if (t->touched[i].customer == customer)
			return;
	if (t->ntouched == t->touched_cap) {
		t->touched_cap = t->touched_cap ? t->touched_cap * 2 : 16;
		t->touched =
			XREALLOC(MTYPE_RTR_CACHE, t->touched, t->touched_cap * sizeof(*t->touched));
	}
	to = &t->touched[t->ntouched++];
	memset(to, 0, sizeof(*to));
	to->customer = customer;
	at = find(t->recs, t->n, customer, &found);
	to->existed = found;
	if (found)
		rec_copy(&to->before, &t->recs[at]);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The PDU's providers, sorted and without duplicates, into a new array (NULL when none). */
static uint32_t *pdu_providers(const struct rtr_pdu *pdu, uint16_t *n)
{
	uint32_t *v;
	uint16_t m = 0;

	*n = 0;
	if (!pdu->u.aspa.nproviders)
		return NULL;
	v = XMALLOC(MTYPE_RTR_CACHE, pdu->u.aspa.nproviders * sizeof(uint32_t));
	for (uint16_t i = 0; i < pdu->u.aspa.nproviders; i++)
		v[i] = rtr_pdu_aspa_provider(pdu, i);
	qsort(v, pdu->u.aspa.nproviders, sizeof(uint32_t), cmp_u32);
	for (uint16_t i = 0; i < pdu->u.aspa.nproviders; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	*n = m;
	return v;
}

static bool same_set(const uint32_t *a, uint16_t na, const uint32_t *b, uint16_t nb)
{
	return na == nb && (na == 0 || !memcmp(a, b, na * sizeof(uint32_t)));
}

/* This transaction's snapshot of customer, NULL when it has not touched it. */
static const struct rtr_aspa_touch *snapshot(const struct rtr_aspa_table *t, uint32_t customer)
{
	for (size_t i = 0; i < t->ntouched; i++)
		if (t->touched[i].customer == customer)
			return &t->touched[i];
	return NULL;
}

/*
 * A withdrawal of (customer, AFI). Draft -10: withdrawing a record that does not exist or does
 * not match is an error. StayRTR 0.5.1 sends a changed record as "announce the new one, then
 * withdraw the old one" (a diff of whole records), so a withdrawal that matches what the
 * record was before this transaction, after an announcement in it replaced the record, has
 * nothing left to do. A withdrawal without providers (later drafts) matches any record.
 */
static int withdraw(struct rtr_aspa_table *t, const struct rtr_pdu *pdu, int afi)
{
	uint32_t customer = pdu->u.aspa.customer;
	const struct rtr_aspa_touch *snap;
	struct rtr_aspa_rec *r;
	uint32_t *prov;
	uint16_t n;
	bool found, matches;
	size_t at;

	at = find(t->recs, t->n, customer, &found);
	if (!found || !t->recs[at].has[afi])
		return RTR_ERR_WITHDRAWAL_UNKNOWN;
	r = &t->recs[at];
	prov = pdu_providers(pdu, &n);
	matches = n == 0 || same_set(prov, n, r->prov[afi], r->n[afi]);
	if (!matches) {
		snap = snapshot(t, customer);
		if (snap && snap->existed && snap->before.has[afi] &&
		    same_set(prov, n, snap->before.prov[afi], snap->before.n[afi])) {
			XFREE(MTYPE_RTR_CACHE, prov);
			return 0; /* the old record, already replaced */
		}
		XFREE(MTYPE_RTR_CACHE, prov);
		return RTR_ERR_WITHDRAWAL_UNKNOWN;
	}
	XFREE(MTYPE_RTR_CACHE, prov);
	touch(t, customer);
	r = &t->recs[at];
	XFREE(MTYPE_RTR_CACHE, r->prov[afi]);
	r->n[afi] = 0;
	r->has[afi] = false;
	if (!r->has[0] && !r->has[1])
		remove_at(t, at);
	return 0;
}

int rtr_aspa_apply(struct rtr_aspa_table *t, const struct rtr_pdu *pdu)
{
	uint32_t customer = pdu->u.aspa.customer;
	int afi = (pdu->u.aspa.afi_flags & RTR_ASPA_AFI_IPV6) ? 1 : 0;
	struct rtr_aspa_rec *r;
	bool found;
	size_t at;

	if (!(pdu->u.aspa.flags & RTR_FLAG_ANNOUNCE))
		return withdraw(t, pdu, afi);
	at = find(t->recs, t->n, customer, &found);
	/* ASPA profile: AS 0 is no customer, and no AS is its own provider. */
	if (customer == 0)
		return RTR_ERR_CORRUPT_DATA;
	for (uint16_t i = 0; i < pdu->u.aspa.nproviders; i++)
		if (rtr_pdu_aspa_provider(pdu, i) == customer)
			return RTR_ERR_ASPA_PROVIDER_LIST;
	/* draft -10: an announcement replaces the record of this customer and AFI. */
	touch(t, customer);
	r = found ? &t->recs[at] : insert(t, at, customer);
	XFREE(MTYPE_RTR_CACHE, r->prov[afi]);
	r->n[afi] = 0;
	r->has[afi] = true;
	r->prov[afi] = pdu_providers(pdu, &r->n[afi]);
	return 0;
}

/* The union of both families' providers into out (room for n[0] + n[1]); returns the count. */
static size_t merged(const struct rtr_aspa_rec *r, uint32_t *out)
{
	size_t i = 0, j = 0, n = 0;

	while (i < r->n[0] || j < r->n[1]) {
		uint32_t v;

		if (j >= r->n[1] || (i < r->n[0] && r->prov[0][i] <= r->prov[1][j]))
			v = r->prov[0][i++];
		else
			v = r->prov[1][j++];
		if (n == 0 || out[n - 1] != v)
			out[n++] = v;
	}
	return n;
}

/* Announce r's union; same says whether before held exactly that already (then nothing). */
static int announce(struct rpki_txn *txn, const struct rtr_aspa_rec *r,
		    const struct rtr_aspa_rec *before)
{
	uint32_t *now =
		XMALLOC(MTYPE_RTR_CACHE, ((size_t)r->n[0] + r->n[1] + 1) * sizeof(uint32_t));
	size_t nnow = merged(r, now);
	int ret = 0;

	if (before) {
		uint32_t *old = XMALLOC(MTYPE_RTR_CACHE, ((size_t)before->n[0] + before->n[1] + 1) *
								 sizeof(uint32_t));
		size_t nold = merged(before, old);
		bool same = nold == nnow && !memcmp(old, now, nnow * sizeof(uint32_t));

		XFREE(MTYPE_RTR_CACHE, old);
		if (same) {
			XFREE(MTYPE_RTR_CACHE, now);
			return 0;
		}
	}
	ret = rpki_txn_aspa(txn, r->customer, now, nnow, true);
	XFREE(MTYPE_RTR_CACHE, now);
	return ret;
}

static void end_txn(struct rtr_aspa_table *t)
{
	touched_free(t);
	recs_free(t->saved, t->nsaved);
	t->saved = NULL;
	t->nsaved = 0;
	t->in_txn = t->reset = false;
}

int rtr_aspa_commit(struct rtr_aspa_table *t, struct rpki_txn *txn)
{
	int ret = 0;

	if (!t->in_txn)
		return 0;
	if (t->reset) {
		/* The store's reset transaction withdraws whatever is not announced again. */
		for (size_t i = 0; i < t->n && !ret; i++)
			ret = announce(txn, &t->recs[i], NULL);
	} else {
		for (size_t i = 0; i < t->ntouched && !ret; i++) {
			struct rtr_aspa_touch *to = &t->touched[i];
			bool found;
			size_t at = find(t->recs, t->n, to->customer, &found);

			if (found)
				ret = announce(txn, &t->recs[at], to->existed ? &to->before : NULL);
			else if (to->existed)
				ret = rpki_txn_aspa(txn, to->customer, NULL, 0, false);
		}
	}
	if (ret) {
		rtr_aspa_abort(t);
		return ret;
	}
	end_txn(t);
	return 0;
}

void rtr_aspa_abort(struct rtr_aspa_table *t)
{
	if (!t->in_txn)
		return;
	if (t->reset) {
		rtr_aspa_clear(t);
		t->recs = t->saved;
		t->n = t->cap = t->nsaved;
		t->saved = NULL;
		t->nsaved = 0;
	} else {
		/* Put every touched customer back as it was, newest touch last is fine: each
		 * customer has one snapshot. */
		for (size_t i = 0; i < t->ntouched; i++) {
			struct rtr_aspa_touch *to = &t->touched[i];
			bool found;
			size_t at = find(t->recs, t->n, to->customer, &found);

			if (found)
				remove_at(t, at);
			if (to->existed) {
				at = find(t->recs, t->n, to->customer, &found);
				*insert(t, at, to->customer) = to->before;
				to->existed = false; /* ownership moved back to the table */
			}
		}
	}
	end_txn(t);
}
