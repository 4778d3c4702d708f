/* SPDX-License-Identifier: ISC */
/*
 * VRPs: the per-family prefix trees, route origin validation (RFC 6811 2), and the walks for
 * show commands.
 */
#include "lib/compat.h"

#include <malloc.h>

#include "bgpd/rpki/rpki_db_int.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_codec.h"

static size_t set_size(uint16_t cap)
{
	return sizeof(struct vrp_set) + (size_t)cap * sizeof(struct vrp_ent);
}

/* Index of (max_len, asn) in set, or where it would go (*found false). */
static uint16_t set_search(const struct vrp_set *s, uint8_t max_len, uint32_t asn, bool *found)
{
	uint16_t lo = 0, hi = s ? s->n : 0;

	while (lo < hi) {
		uint16_t mid = (uint16_t)((lo + hi) / 2);
		const struct vrp_ent *e = &s->e[mid];

		if (e->max_len < max_len || (e->max_len == max_len && e->asn < asn))
			lo = (uint16_t)(mid + 1);
		else
			hi = mid;
	}
	*found = s && lo < s->n && s->e[lo].max_len == max_len && s->e[lo].asn == asn;
	return lo;
}

static bool vrp_well_formed(const struct rpki_vrp *v)
{
	unsigned maxlen;

	if (v->prefix.family != AF_INET && v->prefix.family != AF_INET6)
		return false;
	maxlen = prefix_maxlen(v->prefix.family);
	return v->prefix.len <= maxlen && v->max_len <= maxlen && v->max_len >= v->prefix.len;
}

bool vrp_held(const struct rpki_db *db, const struct rpki_vrp *vrp, int source)
{
	const struct vrp_set *s;
	bool found;
	uint16_t i;

	if (!vrp_well_formed(vrp))
		return false;
	s = ptree_lookup(vrp_tree(db, vrp->prefix.family), &vrp->prefix);
	i = set_search(s, vrp->max_len, vrp->asn, &found);
	return found && (s->e[i].sources & (1u << source));
}

static void set_account(struct rpki_db *db, struct vrp_set *s, bool add)
{
	size_t b = malloc_usable_size(s);

	if (add)
		db->vrp_bytes += b;
	else
		db->vrp_bytes -= b;
}

void vrp_set_source(struct rpki_db *db, const struct rpki_vrp *vrp, int source, bool add,
		    struct rpki_changes *ch)
{
	struct ptree *t = vrp_tree(db, vrp->prefix.family);
	int fi = vrp_fam_idx(vrp->prefix.family);
	uint32_t bit = 1u << source;
	struct vrp_set *s;
	void **slot;
	bool found;
	uint16_t i;

	if (!vrp_well_formed(vrp))
		return;
	if (!add) {
		s = ptree_lookup(t, &vrp->prefix);
		i = set_search(s, vrp->max_len, vrp->asn, &found);
		if (!found || !(s->e[i].sources & bit))
			return;
		s->e[i].sources &= ~bit;
		db->src_vrp[source][fi]--;
		if (s->e[i].sources)
			return; /* another source still holds it: nothing visible changed */
		memmove(&s->e[i], &s->e[i + 1], (size_t)(s->n - i - 1) * sizeof(s->e[0]));
		s->n--;
		db->vrp_count[fi]--;
		rpki_changes_note(ch, &vrp->prefix);
		if (s->n == 0) {
			ptree_delete(t, &vrp->prefix);
			set_account(db, s, false);
			XFREE(MTYPE_RPKI_VRP, s);
		} else if (s->n * 4 <= s->cap && s->cap > 4) {
			set_account(db, s, false);
			s->cap = (uint16_t)(s->cap / 2);
			s = XREALLOC(MTYPE_RPKI_VRP, s, set_size(s->cap));
			set_account(db, s, true);
			*ptree_get(t, &vrp->prefix) = s;
		}
		return;
	}
	slot = ptree_get(t, &vrp->prefix);
	s = *slot;
	i = set_search(s, vrp->max_len, vrp->asn, &found);
	if (found) {
		if (!(s->e[i].sources & bit)) {
			s->e[i].sources |= bit;
			db->src_vrp[source][fi]++;
		}
		return;
	}
	if (!s || s->n == s->cap) {
		/* One VRP per prefix is the common case: start with exactly one slot. The
		 * count is 16 bits: a prefix has at most (129 - len) max lengths times the
		 * ASes; 65535 on one prefix would be an attack, refused here. */
		uint16_t cap = s ? (uint16_t)MIN((unsigned)s->cap * 2, UINT16_MAX) : 1;

		if (s && s->n == UINT16_MAX)
			return;
		if (s)
			set_account(db, s, false);
		s = XREALLOC(MTYPE_RPKI_VRP, s, set_size(cap));
		if (!*slot)
			s->n = 0;
		s->cap = cap;
		set_account(db, s, true);
		*slot = s;
	}
	memmove(&s->e[i + 1], &s->e[i], (size_t)(s->n - i) * sizeof(s->e[0]));
	s->e[i] = (struct vrp_ent){ .asn = vrp->asn, .sources = bit, .max_len = vrp->max_len };
	s->n++;
	db->src_vrp[source][fi]++;
	db->vrp_count[fi]++;
	rpki_changes_note(ch, &vrp->prefix);
}

struct source_walk {
	int source;
	vrp_source_cb cb;
	void *arg;
};

static int source_walk_cb(const struct prefix *p, void *value, void *arg)
{
	struct source_walk *w = arg;
	const struct vrp_set *s = value;
	struct rpki_vrp v = { .prefix = *p };

	for (uint16_t i = 0; i < s->n; i++) {
		if (!(s->e[i].sources & (1u << w->source)))
			continue;
		v.max_len = s->e[i].max_len;
		v.asn = s->e[i].asn;
		w->cb(&v, w->arg);
	}
	return 0;
}

void vrp_source_walk(const struct rpki_db *db, int source, vrp_source_cb cb, void *arg)
{
	struct source_walk w = { source, cb, arg };

	ptree_walk(db->vrp4, source_walk_cb, &w);
	ptree_walk(db->vrp6, source_walk_cb, &w);
}

/* Dropping a source changes the trees, which a walk may not do: collect, then apply. */
struct vrp_list {
	struct rpki_vrp *v;
	size_t n, cap;
};

static void collect_cb(const struct rpki_vrp *vrp, void *arg)
{
	struct vrp_list *l = arg;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = XREALLOC(MTYPE_RPKI_DB, l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = *vrp;
}

void vrp_drop_source(struct rpki_db *db, int source, struct rpki_changes *ch)
{
	struct vrp_list l = { 0 };

	if (!db->src_vrp[source][0] && !db->src_vrp[source][1])
		return;
	vrp_source_walk(db, source, collect_cb, &l);
	for (size_t i = 0; i < l.n; i++)
		vrp_set_source(db, &l.v[i], source, false, ch);
	XFREE(MTYPE_RPKI_DB, l.v);
}

static void set_free(void *v)
{
	XFREE(MTYPE_RPKI_VRP, v);
}

void vrp_free_all(struct rpki_db *db)
{
	ptree_free(db->vrp4, set_free);
	ptree_free(db->vrp6, set_free);
	db->vrp4 = db->vrp6 = NULL;
	db->vrp_bytes = 0;
}

/* ---- origin validation ---- */

struct rov {
	uint32_t origin;
	bool origin_known;
	uint8_t len;
	bool covered, matched;
};

static int rov_cb(const struct prefix *p, void *value, void *arg)
{
	const struct vrp_set *s = value;
	struct rov *r = arg;

	(void)p;
	r->covered = true;
	if (!r->origin_known)
		return 0;
	for (uint16_t i = 0; i < s->n; i++) {
		/* RFC 6811 2: matched when the origin is the VRP's AS and the route is no longer
		 * than max_len. AS 0 (RFC 6483 4) is never an origin: it only covers. */
		if (s->e[i].asn != 0 && s->e[i].asn == r->origin && r->len <= s->e[i].max_len) {
			r->matched = true;
			return 1;
		}
	}
	return 0;
}

enum rpki_state rpki_validate_origin(const struct rpki_db *db, const struct prefix *p,
				     uint32_t origin, bool origin_known)
{
	struct rov r = { .origin = origin, .origin_known = origin_known, .len = p->len };

	if (!rpki_db_active(db))
		return RPKI_NOT_USED;
	ptree_walk_covering(vrp_tree(db, p->family), p, rov_cb, &r);
	if (r.matched)
		return RPKI_VALID;
	return r.covered ? RPKI_INVALID : RPKI_NOTFOUND;
}

/*
 * The origin AS (RFC 6811 2): the rightmost AS when the final segment is an AS_SEQUENCE; the
 * speaker's own AS when the path is empty or ends in a confederation segment (the route was
 * originated inside our AS or confederation); NONE when it ends in an AS_SET. Read here rather
 * than with bgp_aspath_origin_as(), whose 0 cannot tell these apart, nor NONE from a path that
 * really ends in AS 0 (RFC 7607 makes that path malformed; it must still match no VRP, AS 0
 * ones included).
 */
static bool aspath_origin(const struct bgp_aspath *a, uint32_t local_as, uint32_t *origin)
{
	size_t i, last = SIZE_MAX;
	uint8_t type;

	if (a)
		for (i = 0; i + 2 <= a->len; i += 2 + (size_t)a->data[i + 1] * 4)
			last = i;
	if (last == SIZE_MAX) {
		*origin = local_as;
		return local_as != 0;
	}
	type = a->data[last];
	if (type == AS_SEG_CONFED_SEQUENCE || type == AS_SEG_CONFED_SET) {
		*origin = local_as;
		return local_as != 0;
	}
	if (type != AS_SEG_SEQUENCE || !a->data[last + 1])
		return false;
	*origin = bgp_get_u32(a->data + last + 2 + (size_t)(a->data[last + 1] - 1) * 4);
	return *origin != 0;
}

enum rpki_state rpki_validate(const struct rpki_db *db, const struct prefix *p,
			      const struct bgp_aspath *aspath)
{
	uint32_t origin = 0;
	bool known = db && aspath_origin(aspath, db->local_as, &origin);

	return rpki_validate_origin(db, p, origin, known);
}

/* ---- walks ---- */

struct vrp_walk {
	rpki_vrp_cb cb;
	void *arg;
};

static int vrp_walk_cb(const struct prefix *p, void *value, void *arg)
{
	const struct vrp_set *s = value;
	struct vrp_walk *w = arg;
	struct rpki_vrp v = { .prefix = *p };
	int ret;

	for (uint16_t i = 0; i < s->n; i++) {
		v.max_len = s->e[i].max_len;
		v.asn = s->e[i].asn;
		ret = w->cb(&v, w->arg);
		if (ret)
			return ret;
	}
	return 0;
}

int rpki_vrp_walk(const struct rpki_db *db, int family, rpki_vrp_cb cb, void *arg)
{
	struct vrp_walk w = { cb, arg };
	int ret = 0;

	if (family == AF_INET || family == AF_UNSPEC)
		ret = ptree_walk(db->vrp4, vrp_walk_cb, &w);
	if (!ret && (family == AF_INET6 || family == AF_UNSPEC))
		ret = ptree_walk(db->vrp6, vrp_walk_cb, &w);
	return ret;
}

int rpki_vrp_walk_covering(const struct rpki_db *db, const struct prefix *p, rpki_vrp_cb cb,
			   void *arg)
{
	struct vrp_walk w = { cb, arg };

	return ptree_walk_covering(vrp_tree(db, p->family), p, vrp_walk_cb, &w);
}

size_t rpki_vrp_count(const struct rpki_db *db, int family)
{
	if (family == AF_UNSPEC)
		return db->vrp_count[0] + db->vrp_count[1];
	return db->vrp_count[vrp_fam_idx(family)];
}
