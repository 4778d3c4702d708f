/* SPDX-License-Identifier: ISC */
/*
 * Editing one entry of a skua-policy list whose entries are {seq, action, one text leaf}
 * (AS path access lists, community lists) from a command line, with FRR's rules: an entry
 * without seq gets the highest plus 5 and is not added twice; `no` removes the entry with that
 * seq or that text, and the list goes with its last entry; `no NAME` removes the list.
 */
#ifndef SKUA_BGP_POLICY_CLI_H
#define SKUA_BGP_POLICY_CLI_H

#include <stdbool.h>
#include <stdint.h>

struct vty;

struct policy_entry_edit {
	const char *kind;	/* for messages: "as-path access list", "community list" */
	const char *list_xpath; /* the list instance */
	const char *text_leaf;	/* "regex", "text" */
	const char *name;	/* the list's name, for messages */
	const char *action;	/* "permit" / "deny"; NULL: `no NAME` (the whole list) */
	const char *text;
	bool has_seq;
	uint64_t seq;
	/* A leaf of the list set along with a new entry ("type" = "standard"), or NULL. */
	const char *list_leaf, *list_value;
};

int policy_entry_edit(struct vty *vty, const struct policy_entry_edit *e, bool no);

#endif /* SKUA_BGP_POLICY_CLI_H */
