/* SPDX-License-Identifier: ISC */
/*
 * Community lists (`bgp community-list standard|expanded NAME [seq N] <permit|deny> ...`),
 * FRR's semantics:
 *
 * - standard: an entry lists communities ("65001:100", well-known names, `internet`); it
 *   matches a route whose COMMUNITIES include every one of them (`internet` alone matches
 *   any route). With `exact-match` (route-map `match community NAME exact-match`) the route's
 *   communities must be exactly the entry's.
 * - expanded: an entry holds a POSIX extended regular expression matched against the
 *   route's communities written as FRR writes them ("65001:100 no-export"); `_` as in AS
 *   path lists.
 * - Entries are tried in sequence order; the first that matches decides; no match denies.
 *   A route-map naming a list that does not exist matches nothing.
 *
 * Large community lists (`bgp large-community-list standard|expanded NAME ...`, RFC 8092) are
 * the same in their own namespace: standard entries list "GLOBAL:LOCAL1:LOCAL2" values (no
 * well-known names, no `internet`); expanded ones match "1:2:3 4:5:6", and the empty text for
 * a route without large communities (so `.*` matches it, as in FRR 8.4).
 *
 * Extended community lists (`bgp extcommunity-list standard|expanded NAME ...`, RFC 4360) too:
 * standard entries list "rt|soo VALUE" pairs (VALUE "ASN:NN" or "A.B.C.D:NN"), kept sorted;
 * a route matches when it carries the entry's values in the entry's order (FRR 8.4's
 * ecommunity_match(): for a received list, sorted, that is carrying them all). Expanded ones
 * match FRR's display text ("RT:65000:100 SoO:65000:1"), the empty text for none; no
 * `exact-match`. `set extcomm-list NAME delete` judges each value alone, except that an
 * expanded entry looks at the whole list's text (FRR 8.4), and leaves the rest sorted.
 *
 * `set comm-list NAME delete` / `set large-comm-list NAME delete` take each value of the route
 * on its own through the list: the first entry that matches it (standard: lists it; expanded:
 * its text matches) decides, and a permit removes it.
 */
#ifndef SKUA_BGP_CLIST_H
#define SKUA_BGP_CLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

DECLARE_MTYPE(BGP_CLIST);

struct bgp_ecommlist;
struct bgp_lcommlist;
struct bgp_u32list;
struct community_list;

/* Check an entry's text before it is configured: standard, every word a community; expanded,
 * an expression that compiles. 0, or -1 with why in err. */
int community_list_entry_check(bool expanded, const char *text, char *err, size_t errlen);

struct community_list *community_list_lookup(const char *name);
/* Add or replace entry seq (text as checked above); the list is created with its type.
 * -1 if the text does not parse after all, or the list exists with the other type. */
int community_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			     const char *text);
void community_list_entry_delete(const char *name, uint32_t seq);
void community_list_delete(const char *name);

/* Does the list permit a route with these communities (NULL: none)? exact: `exact-match`. */
bool community_list_permits(struct community_list *l, const struct bgp_u32list *comms, bool exact);

typedef void (*community_list_entry_cb)(const char *list, bool expanded, uint32_t seq, bool permit,
					const char *text, uint64_t hits, void *arg);
void community_list_walk(const char *only, community_list_entry_cb cb, void *arg);

/* The route's communities less those the list permits: a new reference, NULL when none is
 * left. */
struct bgp_u32list *community_list_strip(struct community_list *l, const struct bgp_u32list *c);

/* The same for large community lists. */
int lcommunity_list_entry_check(bool expanded, const char *text, char *err, size_t errlen);
struct community_list *lcommunity_list_lookup(const char *name);
int lcommunity_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			      const char *text);
void lcommunity_list_entry_delete(const char *name, uint32_t seq);
void lcommunity_list_delete(const char *name);
bool lcommunity_list_permits(struct community_list *l, const struct bgp_lcommlist *lc, bool exact);
void lcommunity_list_walk(const char *only, community_list_entry_cb cb, void *arg);
/* The text FRR keeps of a standard community entry: its values sorted, without repeats, by
 * their well-known names ("65535:666" -> "blackhole"); -1 (out untouched) when a word is not
 * a community or the entry matches any. */
int community_list_canonical(const char *text, char *out, size_t size);
/* The text FRR keeps of a standard large community entry: its values sorted and without
 * repeats ("2:2:2 1:1:1 2:2:2" -> "1:1:1 2:2:2"). -1 when a word is not a large community
 * (out is then untouched). */
int lcommunity_list_canonical(const char *text, char *out, size_t size);
struct bgp_lcommlist *lcommunity_list_strip(struct community_list *l,
					    const struct bgp_lcommlist *lc);

/* The same for extended community lists. canonical: FRR's text of a standard entry, values
 * sorted and without repeats, kinds in lower case ("soo 65000:1 RT 65000:100" ->
 * "rt 65000:100 soo 65000:1"). */
int ecommunity_list_entry_check(bool expanded, const char *text, char *err, size_t errlen);
struct community_list *ecommunity_list_lookup(const char *name);
int ecommunity_list_entry_set(const char *name, bool expanded, uint32_t seq, bool permit,
			      const char *text);
void ecommunity_list_entry_delete(const char *name, uint32_t seq);
void ecommunity_list_delete(const char *name);
bool ecommunity_list_permits(struct community_list *l, const struct bgp_ecommlist *ec);
void ecommunity_list_walk(const char *only, community_list_entry_cb cb, void *arg);
int ecommunity_list_canonical(const char *text, char *out, size_t size);

/* One hook for every kind of list (only route-maps use them). */
typedef void (*community_list_hook_fn)(const char *name);
void community_list_set_change_hook(community_list_hook_fn fn);

/* Is the list named by a number (FRR's numbered lists: (1-99) standard, (100-500) expanded)?
 * They print without their type, and before the named ones, by number. */
bool community_list_name_numbered(const char *name);

void community_list_reset(void); /* every kind */

#endif /* SKUA_BGP_CLIST_H */
