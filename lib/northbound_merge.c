/* SPDX-License-Identifier: ISC */
/*
 * Three-way merge of configurations: what lets two `configure private` sessions edit at the
 * same time without one silently undoing the other, and a timed-out confirmed commit undo
 * only its own changes.
 *
 * The changes from `from` to `to` (libyang's diff, explicit nodes only: defaults follow from
 * the model) are reduced to their topmost changed nodes: "neighbor X created", "description
 * of neighbor Y replaced", "timers removed". The same is done for what happened to running
 * since `from`. Two changes conflict when one node is the other or lies inside it (editing a
 * neighbor another session deleted) and the two sides do not end up with the same content
 * there (the same edit made twice is no conflict). Without a conflict the changes are
 * replayed onto a copy of running: a created or replaced node is copied whole from `to`, a
 * deleted one is removed. The result is validated by the commit that follows, like any
 * candidate.
 */
#include "lib/compat.h"

#include "lib/memory.h"
#include "lib/northbound.h"
#include "lib/northbound_private.h"
#include "lib/yang.h"

static DEFINE_MTYPE(NB_MERGE, "Northbound merge");

#define MERGE_PATH_MAX 1024

enum merge_op { MERGE_SET, MERGE_DELETE };

struct merge_change {
	enum merge_op op;
	char *path; /* data path of the topmost changed node */
};

struct merge_list {
	struct merge_change *v;
	size_t n, cap;
};

static void list_add(struct merge_list *l, enum merge_op op, const struct lyd_node *d)
{
	char path[MERGE_PATH_MAX];

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = XREALLOC(MTYPE_NB_MERGE, l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].op = op;
	l->v[l->n].path = XSTRDUP(MTYPE_NB_MERGE, yang_dnode_path(d, path, sizeof(path)));
	l->n++;
}

static void list_free(struct merge_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		XFREE(MTYPE_NB_MERGE, l->v[i].path);
	XFREE(MTYPE_NB_MERGE, l->v);
	memset(l, 0, sizeof(*l));
}

/* The operation libyang's diff put on d itself ("none" and absent: look below). */
static const char *diff_op(const struct lyd_node *d)
{
	struct lyd_meta *m = lyd_find_meta(d->meta, NULL, "yang:operation");

	return m ? lyd_get_meta_value(m) : NULL;
}

static void collect(const struct lyd_node *diff, struct merge_list *l)
{
	for (const struct lyd_node *d = diff; d; d = d->next) {
		const char *op = diff_op(d);

		if (op && !strcmp(op, "delete"))
			list_add(l, MERGE_DELETE, d);
		else if (op && (!strcmp(op, "create") || !strcmp(op, "replace")))
			list_add(l, MERGE_SET, d);
		else
			collect(lyd_child(d), l);
	}
}

static int changes_between(const struct lyd_node *a, const struct lyd_node *b, struct merge_list *l,
			   struct nb_error *err)
{
	struct lyd_node *diff = NULL;

	ly_err_clean(yang_ctx(), NULL);
	if (lyd_diff_siblings(a, b, 0, &diff) != LY_SUCCESS) {
		nb_error_from_ly(err, "cannot compare two configurations");
		err->validation = false;
		return -1;
	}
	collect(diff, l);
	lyd_free_all(diff);
	return 0;
}

static struct lyd_node *find(const struct lyd_node *tree, const char *path)
{
	struct lyd_node *n = NULL;

	if (!tree)
		return NULL;
	if (lyd_find_path(tree, path, 0, &n) != LY_SUCCESS)
		n = NULL;
	ly_err_clean(yang_ctx(), NULL);
	return n;
}

/* Do the two trees hold the same thing at path (both without it counts as the same)? */
static bool same_at(const struct lyd_node *x, const struct lyd_node *y, const char *path)
{
	const struct lyd_node *a = find(x, path), *b = find(y, path);

	if (!a || !b)
		return !a && !b;
	return lyd_compare_single(a, b, LYD_COMPARE_FULL_RECURSION) == LY_SUCCESS;
}

static void conflict_error(const char *path, struct nb_error *err)
{
	char cmd[300];

	nb_path_command(path, cmd, sizeof(cmd));
	snprintf(err->msg, sizeof(err->msg),
		 "Commit refused: since this session's candidate was made, another commit "
		 "changed \"%s\" too; nothing was applied (\"show configuration running\" shows "
		 "it; \"discard\" starts again from it, \"commit force\" overwrites it)",
		 cmd);
	snprintf(err->xpath, sizeof(err->xpath), "%s", path);
	err->validation = false;
}

static void remove_node(struct lyd_node **tree, struct lyd_node *n)
{
	if (n == *tree)
		*tree = n->next;
	lyd_free_tree(n);
	if (*tree)
		*tree = lyd_first_sibling(*tree);
}

/* Copy the node at path in src (and what is below it) into *tree, replacing what is there. */
static int replay_set(struct lyd_node **tree, const struct lyd_node *src_tree, const char *path,
		      struct nb_error *err)
{
	const struct lyd_node *src = find(src_tree, path);
	struct lyd_node *parent = NULL, *dup = NULL, *old, *first = NULL;
	char ppath[MERGE_PATH_MAX];

	if (!src)
		return 0; /* cannot happen: the diff came from src_tree */
	if (lyd_parent(src)) {
		yang_dnode_path(lyd_parent(src), ppath, sizeof(ppath));
		parent = find(*tree, ppath);
		if (!parent) {
			if (lyd_new_path(*tree, yang_ctx(), ppath, NULL, LYD_NEW_PATH_UPDATE,
					 &first) != LY_SUCCESS)
				goto fail;
			if (!*tree)
				*tree = first;
			*tree = lyd_first_sibling(*tree);
			parent = find(*tree, ppath);
			if (!parent)
				goto fail;
		}
	}
	if ((old = find(*tree, path)) != NULL)
		remove_node(tree, old);
	if (lyd_dup_single(src, NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, &dup) != LY_SUCCESS)
		goto fail;
	if (parent ? lyd_insert_child(parent, dup) : lyd_insert_sibling(*tree, dup, tree)) {
		lyd_free_tree(dup);
		goto fail;
	}
	if (*tree)
		*tree = lyd_first_sibling(*tree);
	return 0;
fail:
	nb_error_from_ly(err, "cannot merge the change");
	err->validation = false;
	snprintf(err->xpath, sizeof(err->xpath), "%s", path);
	return -1;
}

int nb_merge_onto_running(const struct lyd_node *from, const struct lyd_node *to,
			  struct lyd_node **result, struct nb_error *err)
{
	struct merge_list mine = { 0 }, theirs = { 0 };
	struct lyd_node *tree = NULL;
	int ret = -1;

	*result = NULL;
	memset(err, 0, sizeof(*err));
	if (changes_between(from, to, &mine, err) < 0 ||
	    changes_between(from, nb_running(), &theirs, err) < 0)
		goto out;
	for (size_t i = 0; i < mine.n; i++)
		for (size_t j = 0; j < theirs.n; j++) {
			const char *a = mine.v[i].path, *b = theirs.v[j].path;
			const char *top = yang_path_covers(a, b)   ? a
					  : yang_path_covers(b, a) ? b
								   : NULL;

			if (top && !same_at(to, nb_running(), top)) {
				conflict_error(a, err);
				goto out;
			}
		}
	tree = nb_tree_dup(nb_running());
	for (size_t i = 0; i < mine.n; i++) {
		const char *path = mine.v[i].path;
		struct lyd_node *n;

		if (mine.v[i].op == MERGE_SET) {
			if (replay_set(&tree, to, path, err) < 0)
				goto out;
		} else if ((n = find(tree, path)) != NULL) {
			remove_node(&tree, n);
		}
	}
	*result = tree;
	tree = NULL;
	ret = 0;
out:
	lyd_free_all(tree);
	list_free(&mine);
	list_free(&theirs);
	return ret;
}

int nb_candidate_rebase(struct nb_candidate *c, const struct lyd_node *base, bool force,
			struct nb_error *err)
{
	struct lyd_node *merged;

	memset(err, 0, sizeof(*err));
	if (c->version == nb_running_version())
		return 0;
	if (force) {
		c->version = nb_running_version();
		return 0;
	}
	/* The comparison needs c as it will be (defaults in place, explicit defaults gone). */
	if (nb_tree_validate(&c->tree, err) < 0)
		return -1;
	if (nb_merge_onto_running(base, c->tree, &merged, err) < 0)
		return -1;
	lyd_free_all(c->tree);
	c->tree = merged;
	c->version = nb_running_version();
	return 0;
}
