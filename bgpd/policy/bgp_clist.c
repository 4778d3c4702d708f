/* SPDX-License-Identifier: ISC */
/*
 * Community lists, large and extended community lists (see bgpd/policy/bgp_clist.h): per kind,
 * a name-sorted array of lists, each an array of entries sorted by seq; a standard entry keeps
 * its values parsed, sorted and without repeats (a value is one word for communities, two for
 * extended communities, three for large communities), an expanded one its compiled
 * expression.
 */
#include "lib/compat.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_community.h"
#include "bgpd/wire/bgp_ecommunity.h"
#include "lib/name_index.h"
#include "lib/seq_array.h"

DEFINE_MTYPE(BGP_CLIST, "Community list");

struct clist_entry {
	uint32_t seq;
	bool permit;
	char *text;
	uint32_t *val; /* standard: sorted values, width words each */
	uint32_t nval;
	bool any;   /* standard `internet` alone (communities only) */
	regex_t re; /* expanded */
	uint64_t hits;
};

/* The three kinds of list, each in a namespace of its own (as in FRR). */
enum clist_kind {
	CLIST_COMM,
	CLIST_LCOMM,
	CLIST_ECOMM,
	CLIST_KINDS,
};

struct community_list {
	char *name;
	bool expanded;
	enum clist_kind kind;
	struct seq_array e; /* struct clist_entry, by seq */
};

static struct name_index lists[CLIST_KINDS] = {
	NAME_INDEX_INIT(struct community_list, name, MTYPE_BGP_CLIST),
	NAME_INDEX_INIT(struct community_list, name, MTYPE_BGP_CLIST),
	NAME_INDEX_INIT(struct community_list, name, MTYPE_BGP_CLIST),
};
static community_list_hook_fn change_hook;

/* Words per value. */
static inline uint32_t width(enum clist_kind k)
{
	return k == CLIST_LCOMM ? 3 : k == CLIST_ECOMM ? 2 : 1;
}

static struct clist_entry *entry_at(const struct community_list *l, uint32_t i)
{
	return seq_array_at(&l->e, sizeof(struct clist_entry), i);
}

void community_list_set_change_hook(community_list_hook_fn fn)
{
	change_hook = fn;
}

static void changed(const char *name)
{
	if (change_hook)
		change_hook(name);
}

static int value_cmp(const uint32_t *a, const uint32_t *b, uint32_t w)
{
	for (uint32_t i = 0; i < w; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static uint32_t sort_uniq(uint32_t *v, uint32_t n, enum clist_kind k)
{
	switch (k) {
	case CLIST_LCOMM:
		return bgp_lcomm_sort_uniq(v, n);
	case CLIST_ECOMM:
		return bgp_ecomm_sort_uniq(v, n);
	default:
		return bgp_comm_sort_uniq(v, n);
	}
}

static const char *const kind_prefix[CLIST_KINDS] = { "", "large-", "ext" };

/* One word of a standard entry into v. An extended community is two words, its kind then its
 * value ("rt 65000:100"): *pending holds the kind between them. */
static int parse_word(enum clist_kind k, const char *s, uint8_t *pending, uint32_t *v, bool *done)
{
	*done = true;
	if (k == CLIST_LCOMM)
		return bgp_lcommunity_from_str(s, v);
	if (k == CLIST_COMM)
		return bgp_community_from_str(s, v);
	if (!*pending) {
		/* FRR takes the kind in any case ("RT 1:1") and writes it in lower case. */
		if (strcasecmp(s, "rt") == 0)
			*pending = BGP_ECOMM_SUB_RT;
		else if (strcasecmp(s, "soo") == 0)
			*pending = BGP_ECOMM_SUB_SOO;
		else
			return -1;
		*done = false;
		return 0;
	}
	if (bgp_ecomm_from_str(s, *pending, v) < 0)
		return -1;
	*pending = 0;
	return 0;
}

/* Parse a standard entry's words into e (sorted values). */
static int parse_standard(struct clist_entry *e, enum clist_kind k, const char *text, char *err,
			  size_t errlen)
{
	char *copy = XSTRDUP(MTYPE_BGP_CLIST, text), *save = NULL, *s;
	uint32_t n = 1, w = width(k);
	uint8_t pending = 0;

	for (const char *p = text; *p; p++)
		n += *p == ' ';
	e->val = XCALLOC(MTYPE_BGP_CLIST, (size_t)n * w * sizeof(*e->val));
	e->nval = 0;
	for (s = strtok_r(copy, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		bool done;

		if (parse_word(k, s, &pending, &e->val[e->nval * w], &done) < 0)
			break;
		if (done)
			e->nval++;
	}
	if (s || pending || !e->nval) {
		if (err && errlen)
			snprintf(err, errlen, "Malformed %scommunity-list value: %s",
				 kind_prefix[k], s ? s : text);
		XFREE(MTYPE_BGP_CLIST, copy);
		XFREE(MTYPE_BGP_CLIST, e->val);
		return -1;
	}
	XFREE(MTYPE_BGP_CLIST, copy);
	e->nval = sort_uniq(e->val, e->nval, k);
	/* `internet` (0) alone matches every route, as in FRR. */
	e->any = k == CLIST_COMM && e->nval == 1 && e->val[0] == 0;
	return 0;
}

static int entry_init(struct clist_entry *e, enum clist_kind k, bool expanded, const char *text,
		      char *err, size_t errlen)
{
	if (expanded)
		return bgp_regex_compile(&e->re, text, err, errlen);
	return parse_standard(e, k, text, err, errlen);
}

static void entry_free(struct clist_entry *e, bool expanded)
{
	if (expanded)
		regfree(&e->re);
	XFREE(MTYPE_BGP_CLIST, e->val);
	XFREE(MTYPE_BGP_CLIST, e->text);
}

static int entry_check(enum clist_kind k, bool expanded, const char *text, char *err, size_t errlen)
{
	struct clist_entry e;

	memset(&e, 0, sizeof(e));
	if (entry_init(&e, k, expanded, text, err, errlen) < 0)
		return -1;
	entry_free(&e, expanded);
	return 0;
}

static void list_free(struct community_list *l)
{
	for (uint32_t i = 0; i < l->e.n; i++)
		entry_free(entry_at(l, i), l->expanded);
	XFREE(MTYPE_BGP_CLIST, l->e.v);
	XFREE(MTYPE_BGP_CLIST, l->name);
	XFREE(MTYPE_BGP_CLIST, l);
}

static int entry_set(enum clist_kind k, const char *name, bool expanded, uint32_t seq, bool permit,
		     const char *text)
{
	struct name_index *idx = &lists[k];
	struct clist_entry e = { .seq = seq, .permit = permit };
	struct community_list *l;
	bool found;
	uint32_t i = name_index_search(idx, name, &found);

	if (found && ((struct community_list *)idx->v[i])->expanded != expanded)
		return -1;
	if (entry_init(&e, k, expanded, text, NULL, 0) < 0)
		return -1;
	e.text = XSTRDUP(MTYPE_BGP_CLIST, text);
	if (!found) {
		l = XCALLOC(MTYPE_BGP_CLIST, sizeof(*l));
		l->name = XSTRDUP(MTYPE_BGP_CLIST, name);
		l->expanded = expanded;
		l->kind = k;
		name_index_insert_at(idx, i, l);
	}
	l = idx->v[i];
	i = seq_array_search(&l->e, sizeof(e), seq, &found);
	if (found)
		entry_free(entry_at(l, i), l->expanded);
	else
		seq_array_open(&l->e, sizeof(e), i, MTYPE_BGP_CLIST);
	*entry_at(l, i) = e;
	changed(name);
	return 0;
}

static void list_delete(enum clist_kind k, const char *name)
{
	bool found;
	uint32_t i = name_index_search(&lists[k], name, &found);

	if (!found)
		return;
	list_free(name_index_remove_at(&lists[k], i));
	changed(name);
}

static void entry_delete(enum clist_kind k, const char *name, uint32_t seq)
{
	struct community_list *l = name_index_find(&lists[k], name);
	bool found;
	uint32_t i;

	if (!l)
		return;
	i = seq_array_search(&l->e, sizeof(struct clist_entry), seq, &found);
	if (!found)
		return;
	entry_free(entry_at(l, i), l->expanded);
	seq_array_close(&l->e, sizeof(struct clist_entry), i);
	if (l->e.n == 0)
		list_delete(k, name);
	else
		changed(name);
}

/* Does the route's sorted set hold every value of the entry (exact: only them)? */
static bool standard_matches(const struct clist_entry *e, uint32_t w, const uint32_t *sorted,
			     uint32_t n, bool exact)
{
	uint32_t i = 0, k = 0;

	if (e->any && !exact)
		return true;
	if (exact && n != e->nval)
		return false;
	while (k < e->nval) {
		const uint32_t *want = &e->val[k * w];

		while (i < n && value_cmp(&sorted[i * w], want, w) < 0)
			i++;
		if (i == n || value_cmp(&sorted[i * w], want, w) != 0)
			return false;
		k++;
	}
	return true;
}

/*
 * An extended community entry as FRR 8.4 matches it (ecommunity_match()): its values, in
 * their order, among the route's in the route's order. A received list is sorted, so this is
 * "carries them all"; one a route-map appended to is taken as it stands.
 */
static bool ecomm_standard_matches(const struct clist_entry *e, const uint32_t *vals, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n && k < e->nval; i++)
		if (value_cmp(&vals[2 * i], &e->val[2 * k], 2) == 0)
			k++;
	return k == e->nval;
}

/* The first entry matching the route's values (n of them) or their text decides. */
static bool list_permits(struct community_list *l, const uint32_t *vals, uint32_t n,
			 const char *text, bool exact)
{
	uint32_t w = width(l->kind), *sorted = NULL;
	bool permit = false;

	if (!l->expanded && n && l->kind != CLIST_ECOMM) {
		sorted = XMALLOC(MTYPE_BGP_CLIST, (size_t)n * w * sizeof(*sorted));
		memcpy(sorted, vals, (size_t)n * w * sizeof(*sorted));
		n = sort_uniq(sorted, n, l->kind);
	}
	for (uint32_t i = 0; i < l->e.n; i++) {
		struct clist_entry *e = entry_at(l, i);
		bool m = l->expanded		  ? regexec(&e->re, text, 0, NULL, 0) == 0
			 : l->kind == CLIST_ECOMM ? ecomm_standard_matches(e, vals, n)
						  : standard_matches(e, w, sorted, n, exact);

		if (m) {
			e->hits++;
			permit = e->permit;
			break;
		}
	}
	XFREE(MTYPE_BGP_CLIST, sorted);
	return permit;
}

/* Does the list take value v (width words) out of a route: its first matching entry permits?
 * (Community and large community lists: FRR 8.4 has no extended community deletion.) */
static bool strips_value(const struct community_list *l, const uint32_t *v)
{
	uint32_t w = width(l->kind);
	char text[40];

	if (l->kind == CLIST_LCOMM)
		snprintf(text, sizeof(text), "%u:%u:%u", v[0], v[1], v[2]);
	else
		bgp_community_str(v[0], text, sizeof(text));
	for (uint32_t i = 0; i < l->e.n; i++) {
		const struct clist_entry *e = entry_at(l, i);
		bool m = false;

		if (l->expanded) {
			m = regexec(&e->re, text, 0, NULL, 0) == 0;
		} else {
			m = e->any;
			for (uint32_t k = 0; !m && k < e->nval; k++)
				m = value_cmp(&e->val[k * w], v, w) == 0;
		}
		if (m)
			return e->permit;
	}
	return false;
}

/* The values (n of them) the list does not strip, in *out (to free); how many. */
static uint32_t strip(const struct community_list *l, const uint32_t *v, uint32_t n, uint32_t **out)
{
	uint32_t w = width(l->kind), k = 0;

	*out = XMALLOC(MTYPE_BGP_CLIST, ((size_t)n + 1) * w * sizeof(**out));
	for (uint32_t i = 0; i < n; i++)
		if (!strips_value(l, &v[i * w]))
			memcpy(&(*out)[k++ * w], &v[i * w], w * sizeof(**out));
	return k;
}

bool community_list_name_numbered(const char *name)
{
	return name[0] && strspn(name, "0123456789") == strlen(name);
}

static void walk_list(const struct community_list *l, community_list_entry_cb cb, void *arg)
{
	for (uint32_t k = 0; k < l->e.n; k++) {
		const struct clist_entry *e = entry_at(l, k);

		cb(l->name, l->expanded, e->seq, e->permit, e->text, e->hits, arg);
	}
}

static void walk(enum clist_kind k, const char *only, community_list_entry_cb cb, void *arg)
{
	const struct name_index *idx = &lists[k];

	/* Numbers are 1-500 (the CLI's ranges): one pass per length keeps them in order. */
	for (size_t len = 1; len <= 3; len++)
		for (uint32_t i = 0; i < idx->n; i++) {
			const struct community_list *l = idx->v[i];

			if (community_list_name_numbered(l->name) && strlen(l->name) == len &&
			    (!only || strcmp(only, l->name) == 0))
				walk_list(l, cb, arg);
		}
	for (uint32_t i = 0; i < idx->n; i++) {
		const struct community_list *l = idx->v[i];

		if ((!community_list_name_numbered(l->name) || strlen(l->name) > 3) &&
		    (!only || strcmp(only, l->name) == 0))
			walk_list(l, cb, arg);
	}
}

void community_list_reset(void)
{
	for (int k = 0; k < CLIST_KINDS; k++) {
		for (uint32_t i = 0; i < lists[k].n; i++)
			list_free(lists[k].v[i]);
		name_index_clear(&lists[k]);
	}
}

/* ---- communities ---- */

int community_list_entry_check(bool expanded, const char *text, char *err, size_t errlen)
{
	return entry_check(CLIST_COMM, expanded, text, err, errlen);
}

struct community_list *community_list_lookup(const char *name)
{
	return name_index_find(&lists[0], name);
}

int community_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			     const char *text)
{
	return entry_set(CLIST_COMM, name, expanded, seq, permit, text);
}

void community_list_delete(const char *name)
{
	list_delete(CLIST_COMM, name);
}

void community_list_entry_delete(const char *name, uint32_t seq)
{
	entry_delete(CLIST_COMM, name, seq);
}

/* The text of a set, as `show` prints it and an expanded list's regular expressions see. */
typedef void (*set_str_fn)(const void *set, char *buf, size_t size);

static void communities_str(const void *set, char *buf, size_t size)
{
	bgp_u32list_community_str(set, buf, size);
}

static void lcommunities_str(const void *set, char *buf, size_t size)
{
	bgp_lcommlist_str(set, buf, size);
}

/* Does l permit the n values of set? An expanded list matches their text (at most
 * text_per_value bytes each); a route without any is the empty text (FRR 8.4: `.*` matches it,
 * as the lab's policy_lcomm found). */
static bool permits_set(struct community_list *l, const uint32_t *vals, uint32_t n, const void *set,
			set_str_fn str, size_t text_per_value, bool exact)
{
	char small[1024], *text = small;
	size_t size = sizeof(small);
	bool permit;

	if (!l)
		return false;
	text[0] = '\0';
	if (l->expanded && n) {
		if ((size_t)n * text_per_value + 1 > size) {
			size = (size_t)n * text_per_value + 1;
			text = XMALLOC(MTYPE_BGP_CLIST, size);
		}
		str(set, text, size);
	}
	permit = list_permits(l, n ? vals : NULL, n, text, exact);
	if (text != small)
		XFREE(MTYPE_BGP_CLIST, text);
	return permit;
}

bool community_list_permits(struct community_list *l, const struct bgp_u32list *comms, bool exact)
{
	uint32_t n = comms ? comms->count : 0;

	return permits_set(l, n ? comms->val : NULL, n, comms, communities_str, 24, exact);
}

struct bgp_u32list *community_list_strip(struct community_list *l, const struct bgp_u32list *c)
{
	struct bgp_u32list *r;
	uint32_t *v, n;

	if (!c || !c->count)
		return NULL;
	if (!l)
		return bgp_u32list_ref((struct bgp_u32list *)c);
	n = strip(l, c->val, c->count, &v);
	r = n ? bgp_u32list_intern(v, n) : NULL;
	XFREE(MTYPE_BGP_CLIST, v);
	return r;
}

void community_list_walk(const char *only, community_list_entry_cb cb, void *arg)
{
	walk(CLIST_COMM, only, cb, arg);
}

/* ---- large communities ---- */

int lcommunity_list_entry_check(bool expanded, const char *text, char *err, size_t errlen)
{
	return entry_check(CLIST_LCOMM, expanded, text, err, errlen);
}

struct community_list *lcommunity_list_lookup(const char *name)
{
	return name_index_find(&lists[1], name);
}

int lcommunity_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			      const char *text)
{
	return entry_set(CLIST_LCOMM, name, expanded, seq, permit, text);
}

void lcommunity_list_delete(const char *name)
{
	list_delete(CLIST_LCOMM, name);
}

void lcommunity_list_entry_delete(const char *name, uint32_t seq)
{
	entry_delete(CLIST_LCOMM, name, seq);
}

bool lcommunity_list_permits(struct community_list *l, const struct bgp_lcommlist *lc, bool exact)
{
	uint32_t n = lc ? lc->count : 0;

	return permits_set(l, n ? lc->val : NULL, n, lc, lcommunities_str, 34, exact);
}

struct bgp_lcommlist *lcommunity_list_strip(struct community_list *l,
					    const struct bgp_lcommlist *lc)
{
	struct bgp_lcommlist *r;
	uint32_t *v, n;

	if (!lc || !lc->count)
		return NULL;
	if (!l)
		return bgp_lcommlist_intern(lc->val, lc->count); /* a new reference */
	n = strip(l, lc->val, lc->count, &v);
	r = n ? bgp_lcommlist_intern(v, n) : NULL;
	XFREE(MTYPE_BGP_CLIST, v);
	return r;
}

int community_list_canonical(const char *text, char *out, size_t size)
{
	struct clist_entry e;
	size_t o = 0;
	char one[32];

	memset(&e, 0, sizeof(e));
	if (!size || parse_standard(&e, CLIST_COMM, text, NULL, 0) < 0)
		return -1;
	if (e.any || !e.nval) {
		entry_free(&e, false);
		return -1; /* `internet` and the like: as written */
	}
	out[0] = '\0';
	for (uint32_t i = 0; i < e.nval && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i ? " " : "",
				      bgp_community_str(e.val[i], one, sizeof(one)));
	entry_free(&e, false);
	return o < size ? 0 : -1;
}

int lcommunity_list_canonical(const char *text, char *out, size_t size)
{
	struct clist_entry e;
	size_t o = 0;

	memset(&e, 0, sizeof(e));
	if (!size || parse_standard(&e, CLIST_LCOMM, text, NULL, 0) < 0)
		return -1;
	out[0] = '\0';
	for (uint32_t i = 0; i < e.nval && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%u:%u:%u", i ? " " : "", e.val[3 * i],
				      e.val[3 * i + 1], e.val[3 * i + 2]);
	entry_free(&e, false);
	return o < size ? 0 : -1;
}

void lcommunity_list_walk(const char *only, community_list_entry_cb cb, void *arg)
{
	walk(CLIST_LCOMM, only, cb, arg);
}

/* ---- extended communities ---- */

int ecommunity_list_entry_check(bool expanded, const char *text, char *err, size_t errlen)
{
	return entry_check(CLIST_ECOMM, expanded, text, err, errlen);
}

struct community_list *ecommunity_list_lookup(const char *name)
{
	return name_index_find(&lists[CLIST_ECOMM], name);
}

int ecommunity_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			      const char *text)
{
	return entry_set(CLIST_ECOMM, name, expanded, seq, permit, text);
}

void ecommunity_list_delete(const char *name)
{
	list_delete(CLIST_ECOMM, name);
}

void ecommunity_list_entry_delete(const char *name, uint32_t seq)
{
	entry_delete(CLIST_ECOMM, name, seq);
}

static void ecommunities_str(const void *set, char *buf, size_t size)
{
	bgp_ecommlist_str(set, buf, size);
}

/* Longest text of one value and a space: "LB:65535:18446744073709551615 (147573952589.676
 * Gbps)" is 53 characters. */
#define ECOMM_TEXT_MAX 64

bool ecommunity_list_permits(struct community_list *l, const struct bgp_ecommlist *ec)
{
	uint32_t n = ec ? ec->count : 0;

	return permits_set(l, n ? ec->val : NULL, n, ec, ecommunities_str, ECOMM_TEXT_MAX, false);
}

int ecommunity_list_canonical(const char *text, char *out, size_t size)
{
	struct clist_entry e;
	size_t o = 0;

	memset(&e, 0, sizeof(e));
	if (!size || parse_standard(&e, CLIST_ECOMM, text, NULL, 0) < 0)
		return -1;
	out[0] = '\0';
	for (uint32_t i = 0; i < e.nval && o < size; i++) {
		char one[48];

		bgp_ecomm_value_str(&e.val[2 * i], one, sizeof(one));
		o += (size_t)snprintf(
			out + o, size - o, "%s%s %s", i ? " " : "",
			bgp_ecomm_subtype(&e.val[2 * i]) == BGP_ECOMM_SUB_RT ? "rt" : "soo", one);
	}
	entry_free(&e, false);
	return o < size ? 0 : -1;
}

void ecommunity_list_walk(const char *only, community_list_entry_cb cb, void *arg)
{
	walk(CLIST_ECOMM, only, cb, arg);
}
