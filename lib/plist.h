/* SPDX-License-Identifier: ISC */
/*
 * Prefix lists (`ip prefix-list` / `ipv6 prefix-list`), FRR's semantics:
 *
 * - Entries are tried in sequence order; the first that matches decides (permit or deny).
 *   A prefix no entry matches is denied (the implicit deny at the end).
 * - An entry `P/L` without ge/le matches exactly P/L. `ge G` / `le M` turn it into a range:
 *   prefixes inside P/L whose length lies in [G or L, M or the family's maximum].
 *   `any` matches every prefix of the list's family.
 * - A list that exists but has no entry permits everything; a name that names no list
 *   denies everything (prefix_list_apply(NULL, ...)), as FRR 8.4 does for a neighbor's
 *   `prefix-list NAME in|out`; a route-map's match on a missing list matches nothing.
 *
 * The registry is keyed by (family, name). Lists are made and changed only by the
 * configuration (lib/plist_cli.c); users look them up by name whenever they apply one, so a
 * list created after its user still takes effect. Every change calls the change hook, which
 * bgpd uses to re-evaluate the routes a list filters.
 */
#ifndef SKUA_PLIST_H
#define SKUA_PLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/memory.h"
#include "lib/prefix.h"

DECLARE_MTYPE(PREFIX_LIST);
DECLARE_MTYPE(PREFIX_LIST_ENTRY);

#define PREFIX_LIST_NAME_MAX 128 /* FRR has no limit; ours keeps names printable on one line */
#define PREFIX_LIST_SEQ_STEP 5	 /* an entry without seq gets the highest + 5 (FRR 8.4) */

enum prefix_list_action {
	PREFIX_DENY = 0,
	PREFIX_PERMIT,
};

struct prefix_list_entry {
	uint32_t seq;
	enum prefix_list_action action;
	bool any;	 /* `any`: every prefix of the family */
	struct prefix p; /* unused with any */
	uint8_t ge, le;	 /* 0: not given */
	uint64_t hits;	 /* times this entry decided (show ... detail) */
};

struct prefix_list {
	int family; /* AF_INET (`ip prefix-list`) or AF_INET6 (`ipv6 prefix-list`) */
	char *name;
	char *description;		   /* NULL: none */
	struct prefix_list_entry *entries; /* sorted by seq */
	uint32_t count, alloc;
	uint64_t applied; /* times the list was applied (show ... summary) */
};

/* Find a list; NULL when the name names none. */
struct prefix_list *prefix_list_lookup(int family, const char *name);
/* Find or create. */
struct prefix_list *prefix_list_get(int family, const char *name);
/* Remove the list with all its entries. */
void prefix_list_delete(struct prefix_list *pl);
void prefix_list_set_description(struct prefix_list *pl, const char *text);

/* Add an entry, replacing the one with the same seq. */
void prefix_list_entry_set(struct prefix_list *pl, const struct prefix_list_entry *e);
/* Remove the entry with this seq (nothing if there is none). */
void prefix_list_entry_delete(struct prefix_list *pl, uint32_t seq);
const struct prefix_list_entry *prefix_list_entry_find(const struct prefix_list *pl, uint32_t seq);
/* The seq FRR 8.4 gives an entry written without one: the highest plus 5 (5 for an empty or
 * missing list). 0 if that would overflow. */
uint32_t prefix_list_next_seq(const struct prefix_list *pl);

/* Does this entry match p (which must be masked)? */
bool prefix_list_entry_matches(const struct prefix_list_entry *e, const struct prefix *p);
/* The list's verdict on p; an empty list permits, NULL (no such list) denies. */
enum prefix_list_action prefix_list_apply(struct prefix_list *pl, const struct prefix *p);

/* Every list of a family (0: both, IPv4 first), in name order. */
typedef void (*prefix_list_walk_cb)(struct prefix_list *pl, void *arg);
void prefix_list_walk(int family, prefix_list_walk_cb cb, void *arg);
uint32_t prefix_list_count(int family);

/* Told about every change to a list (creation, entries, deletion). */
typedef void (*prefix_list_hook_fn)(int family, const char *name);
void prefix_list_set_change_hook(prefix_list_hook_fn fn);

/* "permit" / "deny". */
const char *prefix_list_action_str(enum prefix_list_action a);
/* An entry as FRR prints it after "seq N ": "permit 10.0.0.0/8 ge 16 le 24", "deny any". */
const char *prefix_list_entry_str(const struct prefix_list_entry *e, char *buf, size_t size);

/* Free every list (shutdown). */
void prefix_list_reset(void);

#endif /* SKUA_PLIST_H */
