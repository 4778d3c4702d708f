/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists: the registry, the entries and the match (see lib/plist.h for the semantics).
 *
 * Each family keeps its lists in a name index (lib/name_index.h): lookups are a binary search,
 * and show and running-config walk them in name order without sorting. Entries live in one array
 * per list sorted by seq, tried in order: operators' lists are short (FRR switches to a trie
 * for long ones; ours can when a measurement asks for it).
 */
#include "lib/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/name_index.h"
#include "lib/plist.h"

DEFINE_MTYPE(PREFIX_LIST, "Prefix list");
DEFINE_MTYPE(PREFIX_LIST_ENTRY, "Prefix list entries");

static struct name_index registry_v4 = NAME_INDEX_INIT(struct prefix_list, name, MTYPE_PREFIX_LIST);
static struct name_index registry_v6 = NAME_INDEX_INIT(struct prefix_list, name, MTYPE_PREFIX_LIST);
static prefix_list_hook_fn change_hook;

static struct name_index *registry_of(int family)
{
	return family == AF_INET ? &registry_v4 : &registry_v6;
}

static void changed(const struct prefix_list *pl)
{
	if (change_hook)
		change_hook(pl->family, pl->name);
}

void prefix_list_set_change_hook(prefix_list_hook_fn fn)
{
	change_hook = fn;
}

struct prefix_list *prefix_list_lookup(int family, const char *name)
{
	return name_index_find(registry_of(family), name);
}

struct prefix_list *prefix_list_get(int family, const char *name)
{
	struct name_index *r = registry_of(family);
	struct prefix_list *pl;
	bool found;
	uint32_t i = name_index_search(r, name, &found);

	if (found)
		return r->v[i];
	pl = XCALLOC(MTYPE_PREFIX_LIST, sizeof(*pl));
	pl->family = family;
	pl->name = XSTRDUP(MTYPE_PREFIX_LIST, name);
	name_index_insert_at(r, i, pl);
	changed(pl);
	return pl;
}

static void prefix_list_free(struct prefix_list *pl)
{
	XFREE(MTYPE_PREFIX_LIST_ENTRY, pl->entries);
	XFREE(MTYPE_PREFIX_LIST, pl->description);
	XFREE(MTYPE_PREFIX_LIST, pl->name);
	XFREE(MTYPE_PREFIX_LIST, pl);
}

void prefix_list_delete(struct prefix_list *pl)
{
	struct name_index *r = registry_of(pl->family);
	int family = pl->family;
	char name[PREFIX_LIST_NAME_MAX + 1];
	bool found;
	uint32_t i = name_index_search(r, pl->name, &found);

	if (found && r->v[i] == pl)
		name_index_remove_at(r, i);
	snprintf(name, sizeof(name), "%s", pl->name);
	prefix_list_free(pl);
	if (change_hook)
		change_hook(family, name);
}

void prefix_list_set_description(struct prefix_list *pl, const char *text)
{
	XFREE(MTYPE_PREFIX_LIST, pl->description);
	if (text)
		pl->description = XSTRDUP(MTYPE_PREFIX_LIST, text);
}

/* Index of seq among the entries, or of where it would go. */
static uint32_t entry_search(const struct prefix_list *pl, uint32_t seq, bool *found)
{
	uint32_t lo = 0, hi = pl->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pl->entries[mid].seq == seq) {
			*found = true;
			return mid;
		}
		if (pl->entries[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

void prefix_list_entry_set(struct prefix_list *pl, const struct prefix_list_entry *e)
{
	bool found;
	uint32_t i = entry_search(pl, e->seq, &found);

	if (!found) {
		if (pl->count == pl->alloc) {
			pl->alloc = pl->alloc ? pl->alloc * 2 : 4;
			pl->entries = XREALLOC(MTYPE_PREFIX_LIST_ENTRY, pl->entries,
					       pl->alloc * sizeof(*pl->entries));
		}
		memmove(&pl->entries[i + 1], &pl->entries[i],
			(pl->count - i) * sizeof(*pl->entries));
		pl->count++;
	}
	pl->entries[i] = *e;
	pl->entries[i].hits = 0;
	if (!e->any)
		prefix_apply_mask(&pl->entries[i].p);
	changed(pl);
}

void prefix_list_entry_delete(struct prefix_list *pl, uint32_t seq)
{
	bool found;
	uint32_t i = entry_search(pl, seq, &found);

	if (!found)
		return;
	memmove(&pl->entries[i], &pl->entries[i + 1], (pl->count - i - 1) * sizeof(*pl->entries));
	pl->count--;
	changed(pl);
}

const struct prefix_list_entry *prefix_list_entry_find(const struct prefix_list *pl, uint32_t seq)
{
	bool found;
	uint32_t i = entry_search(pl, seq, &found);

	return found ? &pl->entries[i] : NULL;
}

uint32_t prefix_list_next_seq(const struct prefix_list *pl)
{
	uint64_t next;

	if (!pl || pl->count == 0)
		return PREFIX_LIST_SEQ_STEP;
	next = (uint64_t)pl->entries[pl->count - 1].seq + PREFIX_LIST_SEQ_STEP;
	return next > UINT32_MAX ? 0 : (uint32_t)next;
}

bool prefix_list_entry_matches(const struct prefix_list_entry *e, const struct prefix *p)
{
	unsigned lo, hi;

	if (e->any)
		return true;
	if (p->family != e->p.family || !prefix_contains(&e->p, p))
		return false;
	if (!e->ge && !e->le)
		return p->len == e->p.len;
	lo = e->ge ? e->ge : e->p.len;
	hi = e->le ? e->le : prefix_maxlen(p->family);
	return p->len >= lo && p->len <= hi;
}

enum prefix_list_action prefix_list_apply(struct prefix_list *pl, const struct prefix *p)
{
	if (!pl)
		return PREFIX_DENY;
	pl->applied++;
	if (pl->count == 0)
		return PREFIX_PERMIT;
	if (p->family != pl->family)
		return PREFIX_DENY;
	for (uint32_t i = 0; i < pl->count; i++) {
		struct prefix_list_entry *e = &pl->entries[i];

		if (prefix_list_entry_matches(e, p)) {
			e->hits++;
			return e->action;
		}
	}
	return PREFIX_DENY;
}

void prefix_list_walk(int family, prefix_list_walk_cb cb, void *arg)
{
	const struct name_index *r;

	if (family == 0) {
		prefix_list_walk(AF_INET, cb, arg);
		prefix_list_walk(AF_INET6, cb, arg);
		return;
	}
	/* A callback reads the registry; it must not change it. */
	r = registry_of(family);
	for (uint32_t i = 0; i < r->n; i++)
		cb(r->v[i], arg);
}

uint32_t prefix_list_count(int family)
{
	if (family == 0)
		return registry_v4.n + registry_v6.n;
	return registry_of(family)->n;
}

const char *prefix_list_action_str(enum prefix_list_action a)
{
	return a == PREFIX_PERMIT ? "permit" : "deny";
}

const char *prefix_list_entry_str(const struct prefix_list_entry *e, char *buf, size_t size)
{
	char pbuf[PREFIX_STRLEN];
	int n;

	if (e->any) {
		snprintf(buf, size, "%s any", prefix_list_action_str(e->action));
		return buf;
	}
	n = snprintf(buf, size, "%s %s", prefix_list_action_str(e->action),
		     prefix_to_str(&e->p, pbuf, sizeof(pbuf)));
	if (e->ge && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " ge %u", e->ge);
	if (e->le && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - n, " le %u", e->le);
	return buf;
}

static void registry_reset(struct name_index *r)
{
	for (uint32_t i = 0; i < r->n; i++)
		prefix_list_free(r->v[i]);
	name_index_clear(r);
}

void prefix_list_reset(void)
{
	registry_reset(&registry_v4);
	registry_reset(&registry_v6);
}
