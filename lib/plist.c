/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists: the registry, the entries and the match (see lib/plist.h for the semantics).
 *
 * Each family keeps its lists in an array sorted by name: lookups are a binary search, and
 * show and running-config walk them in name order without sorting. Entries live in one array
 * per list sorted by seq, tried in order: operators' lists are short (FRR switches to a trie
 * for long ones; ours can when a measurement asks for it).
 */
#include "lib/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plist.h"

DEFINE_MTYPE(PREFIX_LIST, "Prefix list");
DEFINE_MTYPE(PREFIX_LIST_ENTRY, "Prefix list entries");

struct plist_registry {
	struct prefix_list **lists; /* sorted by name */
	uint32_t count, alloc;
};

static struct plist_registry registry_v4, registry_v6;
static prefix_list_hook_fn change_hook;

static struct plist_registry *registry_of(int family)
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

/* Index of name in the registry, or of where it would go (*found tells which). */
static uint32_t registry_search(const struct plist_registry *r, const char *name, bool *found)
{
	uint32_t lo = 0, hi = r->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(r->lists[mid]->name, name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

struct prefix_list *prefix_list_lookup(int family, const char *name)
{
	struct plist_registry *r = registry_of(family);
	bool found;
	uint32_t i = registry_search(r, name, &found);

	return found ? r->lists[i] : NULL;
}

struct prefix_list *prefix_list_get(int family, const char *name)
{
	struct plist_registry *r = registry_of(family);
	struct prefix_list *pl;
	bool found;
	uint32_t i = registry_search(r, name, &found);

	if (found)
		return r->lists[i];
	if (r->count == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 8;
		r->lists = XREALLOC(MTYPE_PREFIX_LIST, r->lists, r->alloc * sizeof(*r->lists));
	}
	memmove(&r->lists[i + 1], &r->lists[i], (r->count - i) * sizeof(*r->lists));
	pl = XCALLOC(MTYPE_PREFIX_LIST, sizeof(*pl));
	pl->family = family;
	pl->name = XSTRDUP(MTYPE_PREFIX_LIST, name);
	r->lists[i] = pl;
	r->count++;
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
	struct plist_registry *r = registry_of(pl->family);
	int family = pl->family;
	char name[PREFIX_LIST_NAME_MAX + 1];
	bool found;
	uint32_t i = registry_search(r, pl->name, &found);

	if (found && r->lists[i] == pl) {
		memmove(&r->lists[i], &r->lists[i + 1], (r->count - i - 1) * sizeof(*r->lists));
		r->count--;
	}
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
	next = (uint64_t)pl->entries[pl->count - 1].seq / PREFIX_LIST_SEQ_STEP *
		       PREFIX_LIST_SEQ_STEP +
	       PREFIX_LIST_SEQ_STEP;
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
		return PREFIX_PERMIT;
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
	const struct plist_registry *r;

	if (family == 0) {
		prefix_list_walk(AF_INET, cb, arg);
		prefix_list_walk(AF_INET6, cb, arg);
		return;
	}
	/* A callback reads the registry; it must not change it. */
	r = registry_of(family);
	for (uint32_t i = 0; i < r->count; i++)
		cb(r->lists[i], arg);
}

uint32_t prefix_list_count(int family)
{
	if (family == 0)
		return registry_v4.count + registry_v6.count;
	return registry_of(family)->count;
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

static void registry_reset(struct plist_registry *r)
{
	for (uint32_t i = 0; i < r->count; i++)
		prefix_list_free(r->lists[i]);
	XFREE(MTYPE_PREFIX_LIST, r->lists);
	memset(r, 0, sizeof(*r));
}

void prefix_list_reset(void)
{
	registry_reset(&registry_v4);
	registry_reset(&registry_v6);
}
