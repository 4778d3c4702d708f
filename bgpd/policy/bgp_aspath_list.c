/* SPDX-License-Identifier: ISC */
/*
 * AS path access lists (see bgpd/policy/bgp_aspath_list.h): a name-sorted array of lists, each an
 * array of entries sorted by seq holding the operator's text and its compiled form.
 */
#include "lib/compat.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/wire/bgp_attr.h"
#include "lib/name_index.h"
#include "lib/seq_array.h"

DEFINE_MTYPE(BGP_ASPATH_LIST, "AS path access list");

struct aspath_entry {
	uint32_t seq;
	bool permit;
	char *regex; /* as the operator wrote it */
	regex_t re;  /* compiled, `_` expanded */
	uint64_t hits;
};

struct aspath_list {
	char *name;
	struct seq_array e; /* struct aspath_entry, by seq */
};

static struct aspath_entry *entry_at(const struct aspath_list *l, uint32_t i)
{
	return seq_array_at(&l->e, sizeof(struct aspath_entry), i);
}

static struct name_index lists = NAME_INDEX_INIT(struct aspath_list, name, MTYPE_BGP_ASPATH_LIST);
static aspath_list_hook_fn change_hook;

void aspath_list_set_change_hook(aspath_list_hook_fn fn)
{
	change_hook = fn;
}

/* FRR's `_`: a separator of the AS path text, or either end of it. */
#define UNDERSCORE "(^|[,{}() ]|$)"

static char *expand(const char *regex)
{
	size_t n = 1;
	char *out, *o;

	for (const char *p = regex; *p; p++)
		n += *p == '_' ? sizeof(UNDERSCORE) - 1 : 1;
	o = out = XCALLOC(MTYPE_BGP_ASPATH_LIST, n);
	for (const char *p = regex; *p; p++) {
		if (*p == '_') {
			memcpy(o, UNDERSCORE, sizeof(UNDERSCORE) - 1);
			o += sizeof(UNDERSCORE) - 1;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

int bgp_regex_compile(regex_t *re, const char *regex, char *err, size_t errlen)
{
	char *x = expand(regex);
	int r = regcomp(re, x, REG_EXTENDED | REG_NOSUB);

	XFREE(MTYPE_BGP_ASPATH_LIST, x);
	if (r == 0)
		return 0;
	if (err && errlen) {
		char why[128];

		regerror(r, re, why, sizeof(why));
		snprintf(err, errlen, "Invalid regular expression %s: %s", regex, why);
	}
	return -1;
}

int aspath_regex_check(const char *regex, char *err, size_t errlen)
{
	regex_t re;

	if (bgp_regex_compile(&re, regex, err, errlen) < 0)
		return -1;
	regfree(&re);
	return 0;
}

struct aspath_list *aspath_list_lookup(const char *name)
{
	return name_index_find(&lists, name);
}

static void entry_free(struct aspath_entry *e)
{
	regfree(&e->re);
	XFREE(MTYPE_BGP_ASPATH_LIST, e->regex);
}

static void list_free(struct aspath_list *l)
{
	for (uint32_t i = 0; i < l->e.n; i++)
		entry_free(entry_at(l, i));
	XFREE(MTYPE_BGP_ASPATH_LIST, l->e.v);
	XFREE(MTYPE_BGP_ASPATH_LIST, l->name);
	XFREE(MTYPE_BGP_ASPATH_LIST, l);
}

static void changed(const char *name)
{
	if (change_hook)
		change_hook(name);
}

int aspath_list_entry_set(const char *name, uint32_t seq, bool permit, const char *regex)
{
	struct aspath_entry e = { .seq = seq, .permit = permit };
	struct aspath_list *l;
	bool found;
	uint32_t i;

	if (bgp_regex_compile(&e.re, regex, NULL, 0) < 0)
		return -1;
	e.regex = XSTRDUP(MTYPE_BGP_ASPATH_LIST, regex);
	i = name_index_search(&lists, name, &found);
	if (!found) {
		l = XCALLOC(MTYPE_BGP_ASPATH_LIST, sizeof(*l));
		l->name = XSTRDUP(MTYPE_BGP_ASPATH_LIST, name);
		name_index_insert_at(&lists, i, l);
	}
	l = lists.v[i];
	i = seq_array_search(&l->e, sizeof(e), seq, &found);
	if (found)
		entry_free(entry_at(l, i));
	else
		seq_array_open(&l->e, sizeof(e), i, MTYPE_BGP_ASPATH_LIST);
	*entry_at(l, i) = e;
	changed(name);
	return 0;
}

void aspath_list_delete(const char *name)
{
	bool found;
	uint32_t i = name_index_search(&lists, name, &found);

	if (!found)
		return;
	list_free(name_index_remove_at(&lists, i));
	changed(name);
}

void aspath_list_entry_delete(const char *name, uint32_t seq)
{
	struct aspath_list *l = aspath_list_lookup(name);
	bool found;
	uint32_t i;

	if (!l)
		return;
	i = seq_array_search(&l->e, sizeof(struct aspath_entry), seq, &found);
	if (!found)
		return;
	entry_free(entry_at(l, i));
	seq_array_close(&l->e, sizeof(struct aspath_entry), i);
	if (l->e.n == 0)
		aspath_list_delete(name); /* tells the hook */
	else
		changed(name);
}

bool aspath_list_permits(struct aspath_list *l, const struct bgp_aspath *path)
{
	char small[1024], *text = small;
	size_t need;
	bool permit = false;

	if (!l)
		return false;
	/* At most 11 characters per AS number (10 digits and a separator) plus brackets. */
	need = path ? (size_t)path->len / 4 * 11 + (size_t)path->len + 16 : 1;
	if (need > sizeof(small))
		text = XMALLOC(MTYPE_BGP_ASPATH_LIST, need);
	bgp_aspath_to_str(path, text, need > sizeof(small) ? need : sizeof(small));
	for (uint32_t i = 0; i < l->e.n; i++) {
		struct aspath_entry *e = entry_at(l, i);

		if (regexec(&e->re, text, 0, NULL, 0) == 0) {
			e->hits++;
			permit = e->permit;
			break;
		}
	}
	if (text != small)
		XFREE(MTYPE_BGP_ASPATH_LIST, text);
	return permit;
}

void aspath_list_walk(const char *only, aspath_list_entry_cb cb, void *arg)
{
	for (uint32_t i = 0; i < lists.n; i++) {
		const struct aspath_list *l = lists.v[i];

		if (only && strcmp(only, l->name) != 0)
			continue;
		for (uint32_t k = 0; k < l->e.n; k++) {
			const struct aspath_entry *e = entry_at(l, k);

			cb(l->name, e->seq, e->permit, e->regex, e->hits, arg);
		}
	}
}

void aspath_list_reset(void)
{
	for (uint32_t i = 0; i < lists.n; i++)
		list_free(lists.v[i]);
	name_index_clear(&lists);
}
