/* SPDX-License-Identifier: ISC */
/*
 * Community lists (see bgpd/bgp_clist.h): a name-sorted array of lists, each an array of
 * entries sorted by seq; a standard entry keeps its communities parsed and sorted, an
 * expanded one its compiled expression.
 */
#include "lib/compat.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/bgp_aspath_list.h"
#include "bgpd/bgp_clist.h"
#include "bgpd/bgp_community.h"
#include "lib/name_index.h"
#include "lib/seq_array.h"

DEFINE_MTYPE(BGP_CLIST, "Community list");

struct clist_entry {
	uint32_t seq;
	bool permit;
	char *text;
	uint32_t *comm; /* standard: sorted */
	uint32_t ncomm;
	bool any;   /* standard `internet` alone */
	regex_t re; /* expanded */
	uint64_t hits;
};

struct community_list {
	char *name;
	bool expanded;
	struct seq_array e; /* struct clist_entry, by seq */
};

static struct clist_entry *entry_at(const struct community_list *l, uint32_t i)
{
	return seq_array_at(&l->e, sizeof(struct clist_entry), i);
}

static struct name_index lists = NAME_INDEX_INIT(struct community_list, name, MTYPE_BGP_CLIST);
static community_list_hook_fn change_hook;

void community_list_set_change_hook(community_list_hook_fn fn)
{
	change_hook = fn;
}

static void changed(const char *name)
{
	if (change_hook)
		change_hook(name);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse a standard entry's words into e (sorted communities). */
static int parse_standard(struct clist_entry *e, const char *text, char *err, size_t errlen)
{
	char *copy = XSTRDUP(MTYPE_BGP_CLIST, text), *save = NULL;
	uint32_t n = 0;

	for (const char *p = text; *p; p++)
		n += *p == ' ';
	e->comm = XCALLOC(MTYPE_BGP_CLIST, (n + 1) * sizeof(*e->comm));
	e->ncomm = 0;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint32_t c;

		if (bgp_community_from_str(w, &c) < 0) {
			if (err && errlen)
				snprintf(err, errlen, "Malformed community-list value: %s", w);
			XFREE(MTYPE_BGP_CLIST, copy);
			XFREE(MTYPE_BGP_CLIST, e->comm);
			return -1;
		}
		e->comm[e->ncomm++] = c;
	}
	XFREE(MTYPE_BGP_CLIST, copy);
	qsort(e->comm, e->ncomm, sizeof(*e->comm), u32_cmp);
	/* `internet` (0) alone matches every route, as in FRR. */
	e->any = e->ncomm == 1 && e->comm[0] == 0;
	return 0;
}

static int entry_init(struct clist_entry *e, bool expanded, const char *text, char *err,
		      size_t errlen)
{
	if (expanded)
		return bgp_regex_compile(&e->re, text, err, errlen);
	return parse_standard(e, text, err, errlen);
}

static void entry_free(struct clist_entry *e, bool expanded)
{
	if (expanded)
		regfree(&e->re);
	XFREE(MTYPE_BGP_CLIST, e->comm);
	XFREE(MTYPE_BGP_CLIST, e->text);
}

int community_list_entry_check(bool expanded, const char *text, char *err, size_t errlen)
{
	struct clist_entry e;

	memset(&e, 0, sizeof(e));
	if (entry_init(&e, expanded, text, err, errlen) < 0)
		return -1;
	entry_free(&e, expanded);
	return 0;
}

struct community_list *community_list_lookup(const char *name)
{
	return name_index_find(&lists, name);
}

static void list_free(struct community_list *l)
{
	for (uint32_t i = 0; i < l->e.n; i++)
		entry_free(entry_at(l, i), l->expanded);
	XFREE(MTYPE_BGP_CLIST, l->e.v);
	XFREE(MTYPE_BGP_CLIST, l->name);
	XFREE(MTYPE_BGP_CLIST, l);
}

int community_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			     const char *text)
{
	struct clist_entry e = { .seq = seq, .permit = permit };
	struct community_list *l;
	bool found;
	uint32_t i = name_index_search(&lists, name, &found);

	if (found && ((struct community_list *)lists.v[i])->expanded != expanded)
		return -1;
	if (entry_init(&e, expanded, text, NULL, 0) < 0)
		return -1;
	e.text = XSTRDUP(MTYPE_BGP_CLIST, text);
	if (!found) {
		l = XCALLOC(MTYPE_BGP_CLIST, sizeof(*l));
		l->name = XSTRDUP(MTYPE_BGP_CLIST, name);
		l->expanded = expanded;
		name_index_insert_at(&lists, i, l);
	}
	l = lists.v[i];
	i = seq_array_search(&l->e, sizeof(e), seq, &found);
	if (found)
		entry_free(entry_at(l, i), l->expanded);
	else
		seq_array_open(&l->e, sizeof(e), i, MTYPE_BGP_CLIST);
	*entry_at(l, i) = e;
	changed(name);
	return 0;
}

void community_list_delete(const char *name)
{
	bool found;
	uint32_t i = name_index_search(&lists, name, &found);

	if (!found)
		return;
	list_free(name_index_remove_at(&lists, i));
	changed(name);
}

void community_list_entry_delete(const char *name, uint32_t seq)
{
	struct community_list *l = community_list_lookup(name);
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
		community_list_delete(name);
	else
		changed(name);
}

/* Does the route's set (sorted copy) hold every community of the entry (exact: only them)? */
static bool standard_matches(const struct clist_entry *e, const uint32_t *sorted, uint32_t n,
			     bool exact)
{
	uint32_t i = 0, k = 0;

	if (e->any && !exact)
		return true;
	if (exact && n != e->ncomm)
		return false;
	while (k < e->ncomm) {
		while (i < n && sorted[i] < e->comm[k])
			i++;
		if (i == n || sorted[i] != e->comm[k])
			return false;
		k++;
	}
	return true;
}

bool community_list_permits(struct community_list *l, const struct bgp_u32list *comms, bool exact)
{
	uint32_t n = comms ? comms->count : 0, *sorted = NULL;
	char small[1024], *text = small;
	bool permit = false;

	if (!l)
		return false;
	if (l->expanded) {
		size_t need = (size_t)n * 24 + 1;

		if (need > sizeof(small))
			text = XMALLOC(MTYPE_BGP_CLIST, need);
		text[0] = '\0';
		if (comms)
			bgp_u32list_community_str(comms, text,
						  need > sizeof(small) ? need : sizeof(small));
	} else if (n) {
		sorted = XMALLOC(MTYPE_BGP_CLIST, n * sizeof(*sorted));
		memcpy(sorted, comms->val, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), u32_cmp);
	}
	for (uint32_t i = 0; i < l->e.n; i++) {
		struct clist_entry *e = entry_at(l, i);
		bool m = l->expanded ? regexec(&e->re, text, 0, NULL, 0) == 0
				     : standard_matches(e, sorted, n, exact);

		if (m) {
			e->hits++;
			permit = e->permit;
			break;
		}
	}
	if (text != small)
		XFREE(MTYPE_BGP_CLIST, text);
	XFREE(MTYPE_BGP_CLIST, sorted);
	return permit;
}

void community_list_walk(const char *only, community_list_entry_cb cb, void *arg)
{
	for (uint32_t i = 0; i < lists.n; i++) {
		const struct community_list *l = lists.v[i];

		if (only && strcmp(only, l->name) != 0)
			continue;
		for (uint32_t k = 0; k < l->e.n; k++) {
			const struct clist_entry *e = entry_at(l, k);

			cb(l->name, l->expanded, e->seq, e->permit, e->text, e->hits, arg);
		}
	}
}

void community_list_reset(void)
{
	for (uint32_t i = 0; i < lists.n; i++)
		list_free(lists.v[i]);
	name_index_clear(&lists);
}
