/* SPDX-License-Identifier: ISC */
/*
 * AS path access lists (`bgp as-path access-list NAME [seq N] <permit|deny> REGEX`), FRR's
 * semantics: entries are tried in sequence order and the first whose regular expression
 * matches the AS path, written as FRR writes it ("65001 65002 {65010,65011}"), decides; no
 * match denies. The regular expressions are POSIX extended ones (regcomp(3)) with FRR's `_`,
 * which matches a separator or either end: the start, the end, a space, a comma, a brace or
 * a parenthesis (`_65001_` finds AS 65001 anywhere, never 165001).
 *
 * `neighbor X filter-list NAME in|out` applies one; a name that names no list denies
 * everything, as in FRR (as_list_apply() of no list). Every change calls the change hook
 * (bgpd/rib/bgp_policy_reeval.c re-evaluates).
 */
#ifndef SKUA_BGP_ASPATH_LIST_H
#define SKUA_BGP_ASPATH_LIST_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

DECLARE_MTYPE(BGP_ASPATH_LIST);

struct bgp_aspath;
struct aspath_list;

/* regcomp(3) of a BGP regular expression: POSIX extended, FRR's `_` expanded, no
 * subexpression reports (what AS path and expanded community lists use). 0, or -1 with
 * "Invalid regular expression R: why" in err (may be NULL). */
int bgp_regex_compile(regex_t *re, const char *regex, char *err, size_t errlen);

/* Compile regex (FRR's `_` included); 0, or -1 with why in err (for the northbound's
 * VALIDATE: a list never holds an expression that does not compile). */
int aspath_regex_check(const char *regex, char *err, size_t errlen);

struct aspath_list *aspath_list_lookup(const char *name);
/* Add or replace entry seq (the expression must have passed aspath_regex_check()).
 * Creates the list. -1 if it does not compile after all. */
int aspath_list_entry_set(const char *name, uint32_t seq, bool permit, const char *regex);
/* Remove entry seq; the list goes with its last entry (FRR). */
void aspath_list_entry_delete(const char *name, uint32_t seq);
void aspath_list_delete(const char *name);

/* The verdict on an AS path: true = permit. A NULL list (no such list) denies. */
bool aspath_list_permits(struct aspath_list *l, const struct bgp_aspath *path);

/* Walk for show: every list in name order, every entry in seq order. */
typedef void (*aspath_list_entry_cb)(const char *list, uint32_t seq, bool permit, const char *regex,
				     uint64_t hits, void *arg);
void aspath_list_walk(const char *only, aspath_list_entry_cb cb, void *arg);

typedef void (*aspath_list_hook_fn)(const char *name);
void aspath_list_set_change_hook(aspath_list_hook_fn fn);

/* Free everything (shutdown, tests). */
void aspath_list_reset(void);

#endif /* SKUA_BGP_ASPATH_LIST_H */
