/* SPDX-License-Identifier: ISC */
/*
 * ASPA records (customer AS -> the ASes it attests as its providers), one per customer with
 * each source's provider set and their union, and AS path verification against them
 * (draft-ietf-sidrops-aspa-verification: the hop check, upstream and downstream).
 */
#include "lib/compat.h"

#include <malloc.h>

#include "bgpd/rpki/rpki_db_int.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_codec.h"

/* ---- records ---- */

static size_t rec_index(const struct rpki_db *db, uint32_t customer, bool *found)
{
	size_t lo = 0, hi = db->naspa;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (db->aspa[mid]->customer < customer)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < db->naspa && db->aspa[lo]->customer == customer;
	return lo;
}

const struct aspa_rec *aspa_find(const struct rpki_db *db, uint32_t customer)
{
	bool found;
	size_t i = rec_index(db, customer, &found);

	return found ? db->aspa[i] : NULL;
}

static struct aspa_src *rec_src(const struct aspa_rec *r, int source)
{
	for (uint32_t i = 0; i < r->nsrc; i++)
		if (r->src[i].source == (uint32_t)source)
			return &r->src[i];
	return NULL;
}

bool aspa_source_get(const struct rpki_db *db, uint32_t customer, int source, const uint32_t **prov,
		     uint32_t *n)
{
	const struct aspa_rec *r = aspa_find(db, customer);
	const struct aspa_src *s = r ? rec_src(r, source) : NULL;

	*n = s ? s->n : 0;
	*prov = s ? s->prov : NULL;
	return s != NULL;
}

static void *acct_alloc(struct rpki_db *db, void *old, size_t size)
{
	void *p;

	if (old)
		db->aspa_bytes -= malloc_usable_size(old);
	if (!size) {
		XFREE(MTYPE_RPKI_ASPA, old);
		return NULL;
	}
	p = XREALLOC(MTYPE_RPKI_ASPA, old, size);
	db->aspa_bytes += malloc_usable_size(p);
	return p;
}

/* The union of every source's set, sorted: what verification reads. true when it changed. */
static bool rec_union(struct rpki_db *db, struct aspa_rec *r)
{
	size_t total = 0, n = 0, i, k;
	uint32_t *u;
	bool changed;

	for (i = 0; i < r->nsrc; i++)
		total += r->src[i].n;
	u = total ? XMALLOC(MTYPE_RPKI_ASPA, total * sizeof(*u)) : NULL;
	for (i = 0; i < r->nsrc; i++) {
		for (k = 0; k < r->src[i].n; k++) {
			/* insertion into a sorted, de-duplicated array: sets are small */
			uint32_t v = r->src[i].prov[k];
			size_t lo = 0, hi = n;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (u[mid] < v)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < n && u[lo] == v)
				continue;
			memmove(&u[lo + 1], &u[lo], (n - lo) * sizeof(*u));
			u[lo] = v;
			n++;
		}
	}
	changed = n != r->nunion || (n && memcmp(u, r->uni, n * sizeof(*u)) != 0);
	if (changed) {
		r->uni = acct_alloc(db, r->uni, n * sizeof(*u));
		if (n)
			memcpy(r->uni, u, n * sizeof(*u));
		r->nunion = (uint32_t)n;
	}
	XFREE(MTYPE_RPKI_ASPA, u);
	return changed;
}

static void rec_free(struct rpki_db *db, struct aspa_rec *r)
{
	for (uint32_t i = 0; i < r->nsrc; i++)
		acct_alloc(db, r->src[i].prov, 0);
	acct_alloc(db, r->src, 0);
	acct_alloc(db, r->uni, 0);
	acct_alloc(db, r, 0);
}

void aspa_set_source(struct rpki_db *db, uint32_t customer, int source, const uint32_t *prov,
		     uint32_t n, bool present, struct rpki_changes *ch)
{
	bool found, existed;
	size_t i = rec_index(db, customer, &found);
	struct aspa_rec *r = found ? db->aspa[i] : NULL;
	struct aspa_src *s = r ? rec_src(r, source) : NULL;
	uint32_t bit = 1u << source;

	if (!present) {
		if (!s)
			return;
		acct_alloc(db, s->prov, 0);
		*s = r->src[--r->nsrc];
		r->src = acct_alloc(db, r->src, r->nsrc * sizeof(*r->src));
		r->sources &= ~bit;
		db->src_aspa[source]--;
		if (!r->nsrc) {
			rec_free(db, r);
			memmove(&db->aspa[i], &db->aspa[i + 1], (db->naspa - i - 1) * sizeof(r));
			db->naspa--;
			ch->aspa = true;
		} else if (rec_union(db, r)) {
			ch->aspa = true;
		}
		return;
	}
	existed = r != NULL;
	if (!r) {
		if (db->naspa == db->aspa_cap) {
			db->aspa_cap = db->aspa_cap ? db->aspa_cap * 2 : 64;
			db->aspa = XREALLOC(MTYPE_RPKI_ASPA, db->aspa,
					    db->aspa_cap * sizeof(*db->aspa));
		}
		r = acct_alloc(db, NULL, sizeof(*r));
		memset(r, 0, sizeof(*r));
		r->customer = customer;
		memmove(&db->aspa[i + 1], &db->aspa[i], (db->naspa - i) * sizeof(r));
		db->aspa[i] = r;
		db->naspa++;
	}
	if (!s) {
		r->src = acct_alloc(db, r->src, (r->nsrc + 1) * sizeof(*r->src));
		s = &r->src[r->nsrc++];
		s->source = (uint32_t)source;
		s->n = 0;
		s->prov = NULL;
		r->sources |= bit;
		db->src_aspa[source]++;
	}
	s->prov = acct_alloc(db, s->prov, n * sizeof(*prov));
	if (n)
		memcpy(s->prov, prov, n * sizeof(*prov));
	s->n = n;
	/* A new customer changes verification even with no providers (its hops are now
	 * attested); an existing one only if the union moved. */
	if (rec_union(db, r) || !existed)
		ch->aspa = true;
}

void aspa_drop_source(struct rpki_db *db, int source, struct rpki_changes *ch)
{
	size_t i = 0;

	while (i < db->naspa && db->src_aspa[source]) {
		struct aspa_rec *r = db->aspa[i];

		if (r->sources & (1u << source)) {
			aspa_set_source(db, r->customer, source, NULL, 0, false, ch);
			if (i < db->naspa && db->aspa[i] != r)
				continue; /* r went: the next record moved into slot i */
		}
		i++;
	}
}

void aspa_free_all(struct rpki_db *db)
{
	for (size_t i = 0; i < db->naspa; i++)
		rec_free(db, db->aspa[i]);
	XFREE(MTYPE_RPKI_ASPA, db->aspa);
	db->naspa = db->aspa_cap = 0;
}

int rpki_aspa_walk(const struct rpki_db *db, rpki_aspa_cb cb, void *arg)
{
	int ret;

	for (size_t i = 0; i < db->naspa; i++) {
		ret = cb(db->aspa[i]->customer, db->aspa[i]->uni, db->aspa[i]->nunion, arg);
		if (ret)
			return ret;
	}
	return 0;
}

size_t rpki_aspa_count(const struct rpki_db *db)
{
	return db->naspa;
}

/* ---- verification ---- */

enum hop {
	HOP_PROVIDER,	  /* "Provider+": the customer attests the other AS as a provider */
	HOP_NOT_PROVIDER, /* "Not Provider+": it has an ASPA, and the other AS is not in it */
	HOP_NO_ATTEST,	  /* "No Attestation": it has no ASPA */
};

/* hop(a, b): is b a provider of a, by a's ASPA (the union over sources)? */
static enum hop hop(const struct rpki_db *db, uint32_t a, uint32_t b)
{
	const struct aspa_rec *r = aspa_find(db, a);
	size_t lo = 0, hi;

	if (!r)
		return HOP_NO_ATTEST;
	hi = r->nunion;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->uni[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nunion && r->uni[lo] == b ? HOP_PROVIDER : HOP_NOT_PROVIDER;
}

#define ASPA_PATH_MAX (BGP_ASPATH_MAX_DATA / 4)

/*
 * The path as the procedures see it: the ASes of the SEQUENCE segments with prepends
 * collapsed, as[0] the neighbor's (most recently added) and as[n-1] the origin. Leading
 * confederation segments are our own confederation's, not hops between ASes with ASPAs: they
 * are skipped. false when the path holds an AS_SET (a set's order is unknown: no hop can be
 * checked).
 */
static bool path_flatten(const struct bgp_aspath *a, uint32_t *as, size_t *n)
{
	size_t i, k;

	*n = 0;
	if (!a)
		return true;
	for (i = 0; i + 2 <= a->len; i += 2 + (size_t)a->data[i + 1] * 4) {
		uint8_t type = a->data[i];

		if (type == AS_SEG_CONFED_SEQUENCE || type == AS_SEG_CONFED_SET)
			continue;
		if (type != AS_SEG_SEQUENCE)
			return false;
		for (k = 0; k < a->data[i + 1]; k++) {
			uint32_t v = bgp_get_u32(a->data + i + 2 + k * 4);

			if (*n && as[*n - 1] == v)
				continue; /* prepending: one hop */
			if (*n < ASPA_PATH_MAX)
				as[(*n)++] = v;
		}
	}
	return true;
}

enum aspa_state rpki_aspa_verify(const struct rpki_db *db, const struct bgp_aspath *aspath,
				 uint32_t neighbor_as, enum aspa_dir dir)
{
	uint32_t seq[ASPA_PATH_MAX];
	size_t n, i, max_up, min_up, max_down, min_down;

/* The draft numbers the path from the origin: AS(1) is the origin, AS(N) the neighbor. */
#define AS(x) seq[n - (x)]

	if (!rpki_db_active(db) || dir == ASPA_DIR_NONE)
		return ASPA_NOT_USED;
	if (!path_flatten(aspath, seq, &n))
		return ASPA_INVALID;
	/* An eBGP route always carries its sender's AS: an empty path cannot be verified. */
	if (n == 0)
		return ASPA_INVALID;
	/* The neighbor must be the most recently added AS (0: not checked, the caller's
	 * neighbor is a transparent route server that does not add its own). */
	if (neighbor_as && AS(n) != neighbor_as)
		return ASPA_INVALID;

	/* Up-ramp from the origin: AS(i+1) a provider of AS(i) for i = 1, 2, ...
	 * max_up stops at the first hop proven wrong, min_up at the first not proven right. */
	max_up = min_up = n;
	for (i = 1; i < n; i++) {
		enum hop h = hop(db, AS(i), AS(i + 1));

		if (h != HOP_PROVIDER && min_up == n)
			min_up = i;
		if (h == HOP_NOT_PROVIDER) {
			max_up = i;
			break;
		}
	}
	if (dir == ASPA_DIR_UPSTREAM) {
		/* From a customer or a peer: the whole path must be an up-ramp. */
		if (max_up < n)
			return ASPA_INVALID;
		return min_up < n ? ASPA_UNKNOWN : ASPA_VALID;
	}

	/* From a provider: an up-ramp from the origin, then a down-ramp to the neighbor. (The
	 * draft's -17 text says it with u_min / v_max and K / L: u_min = max_up + 1,
	 * v_max = N - max_down, K = min_up, L = N - min_down + 1.)
	 * The down-ramp, from the neighbor: AS(j-1) a provider of AS(j) for j = N, N-1, ... */
	if (n <= 2)
		return ASPA_VALID;
	max_down = min_down = n;
	for (i = n; i > 1; i--) {
		enum hop h = hop(db, AS(i), AS(i - 1));

		if (h != HOP_PROVIDER && min_down == n)
			min_down = n - i + 1;
		if (h == HOP_NOT_PROVIDER) {
			max_down = n - i + 1;
			break;
		}
	}
	if (max_up + max_down < n)
		return ASPA_INVALID;
	return min_up + min_down < n ? ASPA_UNKNOWN : ASPA_VALID;
#undef AS
}
