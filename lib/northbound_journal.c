/* SPDX-License-Identifier: ISC */
/*
 * Undo records of candidate edits. Nodes are named by their data path, not held by pointer:
 * a later edit of the same command may have freed and the undo of it re-created a node, so
 * a pointer kept from before could dangle. The cost is one path lookup per edit, paid only
 * where a candidate outlives the command (file loads); vty commands edit a copy instead.
 */
#include "lib/compat.h"

#include "lib/northbound_journal.h"
#include "lib/northbound_private.h"
#include "lib/yang.h"

static DEFINE_MTYPE(NB_JOURNAL, "Northbound undo journal");

enum undo_kind {
	UNDO_REMOVE,  /* the edit created this subtree: free it */
	UNDO_VALUE,   /* the edit changed this leaf: put the old value back */
	UNDO_REINSERT /* the edit removed this subtree: insert the saved copy again */
};

struct nb_journal_entry {
	enum undo_kind kind;
	char *path;	       /* REMOVE/VALUE: the node; REINSERT: its parent, NULL at the top */
	char *old_value;       /* VALUE */
	char *next_path;       /* REINSERT: the sibling it stood before, NULL when it was last */
	struct lyd_node *copy; /* REINSERT, owned here */
};

static char *node_path(const struct lyd_node *n)
{
	char *p = lyd_path(n, LYD_PATH_STD, NULL, 0);
	char *own = p ? XSTRDUP(MTYPE_NB_JOURNAL, p) : NULL;

	free(p);
	return own;
}

static struct nb_journal_entry *journal_add(struct nb_journal *j, enum undo_kind kind)
{
	struct nb_journal_entry *e;

	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 8;
		j->v = XREALLOC(MTYPE_NB_JOURNAL, j->v, (size_t)j->cap * sizeof(*j->v));
	}
	e = &j->v[j->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

static void entry_free(struct nb_journal_entry *e)
{
	XFREE(MTYPE_NB_JOURNAL, e->path);
	XFREE(MTYPE_NB_JOURNAL, e->old_value);
	XFREE(MTYPE_NB_JOURNAL, e->next_path);
	lyd_free_tree(e->copy);
	e->copy = NULL;
}

static struct lyd_node *find(const struct nb_candidate *c, const char *path)
{
	struct lyd_node *n = NULL;

	if (!c->tree || !path || lyd_find_path(c->tree, path, 0, &n) != LY_SUCCESS)
		n = NULL;
	ly_err_clean(yang_ctx(), NULL);
	return n;
}

/* Record what taking back the edit about to be made needs; *existing: its target before. */
static void record_before(struct nb_candidate *c, enum nb_operation op, const char *xpath,
			  struct nb_journal *j, struct lyd_node **existing)
{
	struct lyd_node *n = find(c, xpath);
	struct nb_journal_entry *e;

	*existing = n;
	if (!n)
		return;
	if (op == NB_OP_DESTROY) {
		e = journal_add(j, UNDO_REINSERT);
		if (lyd_dup_single(n, NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, &e->copy) !=
		    LY_SUCCESS) {
			j->n--; /* out of memory: this edit cannot be taken back */
			return;
		}
		e->path = lyd_parent(n) ? node_path(lyd_parent(n)) : NULL;
		e->next_path = n->next ? node_path(n->next) : NULL;
	} else if (n->schema && (n->schema->nodetype & LYD_NODE_TERM) &&
		   !(n->schema->nodetype == LYS_LEAFLIST)) {
		e = journal_add(j, UNDO_VALUE);
		e->path = node_path(n);
		e->old_value = XSTRDUP(MTYPE_NB_JOURNAL, lyd_get_value(n) ? lyd_get_value(n) : "");
	}
	/* An existing entry or container that CREATE/MODIFY leaves as it is: nothing to undo. */
}

int nb_candidate_edit_journaled(struct nb_candidate *c, enum nb_operation op, const char *xpath,
				const char *value, struct nb_journal *j, struct nb_error *err)
{
	struct lyd_node *existing, *created = NULL;
	int mark = j->n;

	record_before(c, op, xpath, j, &existing);
	if (nb_candidate_edit_created(c, op, xpath, value, &created, err) < 0) {
		while (j->n > mark)
			entry_free(&j->v[--j->n]); /* nothing of it was made */
		return -1;
	}
	if (op != NB_OP_DESTROY && !existing && created) {
		struct nb_journal_entry *e = journal_add(j, UNDO_REMOVE);

		e->path = node_path(created);
	}
	return 0;
}

static void tree_unlink_free(struct nb_candidate *c, struct lyd_node *n)
{
	if (n == c->tree)
		c->tree = n->next;
	lyd_free_tree(n);
	if (c->tree)
		c->tree = lyd_first_sibling(c->tree);
}

/*
 * Put a saved subtree back. Only a user-ordered list or leaf-list keeps the place it had
 * (libyang refuses lyd_insert_before() for any other node, and sorts those itself).
 */
static LY_ERR reinsert(struct nb_candidate *c, struct lyd_node *parent, struct lyd_node *next,
		       struct lyd_node *copy)
{
	if (next && lysc_is_userordered(copy->schema))
		return lyd_insert_before(next, copy);
	if (parent)
		return lyd_insert_child(parent, copy);
	return lyd_insert_sibling(c->tree, copy, NULL);
}

static void undo_one(struct nb_candidate *c, struct nb_journal_entry *e)
{
	struct lyd_node *n, *parent, *next;

	switch (e->kind) {
	case UNDO_REMOVE:
		n = find(c, e->path);
		if (n)
			tree_unlink_free(c, n);
		break;
	case UNDO_VALUE:
		n = find(c, e->path);
		if (n)
			lyd_change_term(n, e->old_value);
		break;
	case UNDO_REINSERT:
		next = find(c, e->next_path);
		parent = e->path ? find(c, e->path) : NULL;
		if (e->path && !parent)
			break; /* its parent went too and was not restored: nothing to attach to */
		if (reinsert(c, parent, next, e->copy) != LY_SUCCESS)
			break; /* not attached: entry_free() frees the copy */
		if (!e->path)
			c->tree = lyd_first_sibling(e->copy);
		e->copy = NULL; /* the tree owns it now */
		break;
	}
	ly_err_clean(yang_ctx(), NULL);
}

void nb_journal_undo(struct nb_candidate *c, struct nb_journal *j)
{
	while (j->n > 0) {
		struct nb_journal_entry *e = &j->v[--j->n];

		undo_one(c, e);
		entry_free(e);
	}
	nb_journal_clear(j);
}

void nb_journal_clear(struct nb_journal *j)
{
	while (j->n > 0)
		entry_free(&j->v[--j->n]);
	XFREE(MTYPE_NB_JOURNAL, j->v);
	j->cap = 0;
}
