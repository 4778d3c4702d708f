/* SPDX-License-Identifier: ISC */
/*
 * The undo journal of one command's edits on a candidate that outlives the command (a file
 * load's single candidate): when an edit fails half-way, the edits before it are taken back,
 * so a refused line leaves nothing of itself for the lines after it to trip over.
 */
#ifndef SKUA_LIB_NORTHBOUND_JOURNAL_H
#define SKUA_LIB_NORTHBOUND_JOURNAL_H

#include "lib/northbound.h"

struct nb_journal_entry;

struct nb_journal {
	struct nb_journal_entry *v;
	int n, cap;
};

/* nb_candidate_edit(), recording in j how to take it back. */
int nb_candidate_edit_journaled(struct nb_candidate *c, enum nb_operation op, const char *xpath,
				const char *value, struct nb_journal *j, struct nb_error *err);
/* Take back every recorded edit, newest first, and empty the journal. */
void nb_journal_undo(struct nb_candidate *c, struct nb_journal *j);
/* Forget the recorded edits (they stay). */
void nb_journal_clear(struct nb_journal *j);

#endif
