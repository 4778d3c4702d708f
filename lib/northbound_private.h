/* SPDX-License-Identifier: ISC */
/*
 * The northbound's insides, shared by lib/northbound*.c only (not an API for other areas).
 */
#ifndef SKUA_NORTHBOUND_PRIVATE_H
#define SKUA_NORTHBOUND_PRIVATE_H

#include "lib/northbound.h"

struct nb_candidate {
	struct lyd_node *tree;
	uint64_t version; /* running's version this copy was made from */
	enum nb_source source;
	char label[NB_LABEL_MAX + 1];
	char comment[NB_COMMENT_MAX + 1];
};

/* A copy keeping default flags (a copy diffs as equal to its source); aborts on ENOMEM. */
struct lyd_node *nb_tree_dup(const struct lyd_node *tree);
/* Explicit defaults dropped, then libyang's validation of the whole tree (which adds the
 * default nodes). 0, or -1 with err in operator language. */
int nb_tree_validate(struct lyd_node **tree, struct nb_error *err);
/* libyang's first stored error as an operator message (fallback when there is none). */
void nb_error_from_ly(struct nb_error *err, const char *fallback);

/* lib/config_json.c: a whole file (at most 64 MiB) as a NUL-terminated string
 * (MTYPE_SBUF), or NULL with "FILE: why" in errors. */
char *nb_file_read(const char *path, size_t *len, struct sbuf *errors);
/* Parse JSON text into *tree (not validated); -1 with "FILE:LINE: message" in errors. */
int nb_json_parse(const char *path, const char *text, struct lyd_node **tree, struct sbuf *errors);
/* The line of the JSON text where the data path's node is written (its deepest part that
 * can be found), 0 when not even its first step is there. duplicate: the second occurrence
 * of the last step. */
unsigned nb_json_line_of_path(const char *text, const char *dpath, bool duplicate);

/* nb_candidate_edit(); *created: the topmost node the edit created (NULL when it created
 * none: an existing leaf changed, or a removal). */
int nb_candidate_edit_created(struct nb_candidate *c, enum nb_operation op, const char *xpath,
			      const char *value, struct lyd_node **created, struct nb_error *err);

/* nb_terminate(): drop what the confirm timer and the vty config sessions hold (trees of
 * the libyang context about to go). */
void nb_confirm_terminate(void);
void nb_cli_sessions_terminate(void);

#endif /* SKUA_NORTHBOUND_PRIVATE_H */
