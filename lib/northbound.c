/* SPDX-License-Identifier: ISC */
/*
 * The northbound core: running and candidate trees, commits in phases, and the translation of
 * libyang's errors into operator language.
 *
 * A commit is a transaction: the diff between running and the validated candidate becomes an
 * ordered list of changes (struct nb_change). VALIDATE and PREPARE may refuse; only when every
 * change passed both does APPLY run, and only then does the candidate become running.
 */
#include "lib/compat.h"

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/yang.h"

DEFINE_MTYPE(NB_CANDIDATE, "Northbound candidate");
DEFINE_MTYPE(NB_TXN, "Northbound transaction");

#define NB_MAX_MODULES 8

static struct {
	bool initialized;
	struct lyd_node *running;
	uint64_t version;
	const struct nb_module_info *modules[NB_MAX_MODULES];
	const struct lys_module *lys[NB_MAX_MODULES];
	int nmodules;
} nb;

struct nb_candidate {
	struct lyd_node *tree;
	uint64_t version; /* running's version this copy was made from */
};

/* One change of a transaction. */
struct nb_change {
	enum nb_operation op;
	const struct nb_node_info *info;  /* NULL: a node nobody registered (no callback) */
	const struct lyd_node *dnode;	  /* new tree (create/modify), old tree (destroy) */
	const struct lyd_node *old_dnode; /* modify: the old value's node */
	/* The parent in the new tree (where apply_finish of a destroy starts). */
	const struct lyd_node *new_parent;
	void *resource;
	bool prepared;
};

struct nb_txn {
	struct nb_change *v;
	size_t n, cap;
	struct lyd_node *diff;
};

const char *nb_operation_name(enum nb_operation op)
{
	switch (op) {
	case NB_OP_CREATE:
		return "create";
	case NB_OP_MODIFY:
		return "modify";
	case NB_OP_DESTROY:
		return "destroy";
	}
	return "?";
}

const char *nb_event_name(enum nb_event ev)
{
	switch (ev) {
	case NB_EV_VALIDATE:
		return "validate";
	case NB_EV_PREPARE:
		return "prepare";
	case NB_EV_ABORT:
		return "abort";
	case NB_EV_APPLY:
		return "apply";
	}
	return "?";
}

/* ---- start-up ------------------------------------------------------------------------- */

void nb_init(void)
{
	if (nb.initialized)
		return;
	if (yang_init() < 0) {
		fprintf(stderr, "skua: the northbound cannot start without libyang; exiting\n");
		exit(1);
	}
	nb.initialized = true;
}

void nb_terminate(void)
{
	if (!nb.initialized)
		return;
	lyd_free_all(nb.running);
	memset(&nb, 0, sizeof(nb));
	yang_terminate();
}

void nb_module_register(const struct nb_module_info *info)
{
	const struct lys_module *mod;
	char err[1024];

	nb_init();
	for (int i = 0; i < nb.nmodules; i++)
		if (nb.modules[i] == info)
			return;
	if (nb.nmodules == NB_MAX_MODULES) {
		fprintf(stderr, "skua: too many northbound modules (a bug)\n");
		abort();
	}
	mod = yang_module_load(info->name, err, sizeof(err));
	if (!mod) {
		/* An installation problem, not a bug: say where we looked and stop. */
		fprintf(stderr, "skua: cannot load the configuration model: %s\n", err);
		exit(1);
	}
	for (const struct nb_node_info *ni = info->nodes; ni && ni->xpath; ni++) {
		const struct lysc_node *snode = lys_find_path(yang_ctx(), NULL, ni->xpath, 0);

		if (!snode) {
			fprintf(stderr,
				"skua: northbound table of %s names %s, which is not in the model "
				"(a bug)\n",
				info->name, ni->xpath);
			abort();
		}
		/* libyang leaves priv to its users; FRR hangs its nb_node there too. */
		((struct lysc_node *)(uintptr_t)snode)->priv = (void *)(uintptr_t)ni;
	}
	nb.modules[nb.nmodules] = info;
	nb.lys[nb.nmodules] = mod;
	nb.nmodules++;
}

int nb_module_count(void)
{
	return nb.nmodules;
}

const struct lys_module *nb_module_get(int i)
{
	return i >= 0 && i < nb.nmodules ? nb.lys[i] : NULL;
}

const struct nb_node_info *nb_node_info_of(const struct lysc_node *snode)
{
	return snode ? snode->priv : NULL;
}

int nb_check_coverage(struct sbuf *missing)
{
	int count = 0;

	for (int i = 0; i < nb.nmodules; i++) {
		const struct lysc_node *top =
			nb.lys[i]->compiled ? nb.lys[i]->compiled->data : NULL;
		const struct lysc_node *elem;

		for (const struct lysc_node *t = top; t; t = t->next) {
			LYSC_TREE_DFS_BEGIN(t, elem)
			{
				bool covered = false;

				if ((elem->nodetype & LYS_LEAF) && (elem->flags & LYS_CONFIG_W) &&
				    !lysc_is_key(elem)) {
					const struct nb_node_info *ni = nb_node_info_of(elem);

					/* Its own callback, or an ancestor's apply_finish (which
					 * runs for changes below it). */
					covered = ni && (ni->cbs.create || ni->cbs.modify ||
							 ni->cbs.destroy || ni->cbs.apply_finish);
					for (const struct lysc_node *a = elem->parent;
					     a && !covered; a = a->parent)
						covered = nb_node_info_of(a) &&
							  nb_node_info_of(a)->cbs.apply_finish;
					if (!covered) {
						char path[512];

						lysc_path(elem, LYSC_PATH_DATA, path, sizeof(path));
						sbuf_printf(missing, "%s\n", path);
						count++;
					}
				}
				LYSC_TREE_DFS_END(t, elem);
			}
		}
	}
	return count;
}

const struct lyd_node *nb_running(void)
{
	return nb.running;
}

uint64_t nb_running_version(void)
{
	return nb.version;
}

/* ---- operator messages ---------------------------------------------------------------- */

/*
 * The command a schema node maps to, from the model: every description says "Maps to: CMD."
 * (the first sentence). Nodes without one borrow their nearest ancestor's.
 */
static void node_command(const struct lysc_node *snode, char *buf, size_t size)
{
	buf[0] = '\0';
	for (const struct lysc_node *s = snode; s; s = s->parent) {
		const char *d = s->dsc ? strstr(s->dsc, "Maps to: ") : NULL;
		size_t len = 0;

		if (!d)
			continue;
		d += strlen("Maps to: ");
		/* Up to the end of the sentence: a '.' that ends a word; "LINE..." keeps its dots
		 * and may end the sentence itself. */
		while (d[len] && d[len] != '\n') {
			bool end_word =
				d[len + 1] == ' ' || d[len + 1] == '\n' || d[len + 1] == '\0';

			if (!strncmp(d + len, "...", 3)) {
				len += 3;
				if (d[len] == ' ' || d[len] == '\n' || d[len] == '\0')
					break;
				continue;
			}
			if (d[len] == '.' && end_word)
				break;
			len++;
		}
		snprintf(buf, size, "%.*s", (int)len, d);
		return;
	}
}

/* "neighbor PEER timers ..." with the neighbor's address from the data path. */
static void command_with_keys(const char *cmd, const char *dpath, char *buf, size_t size)
{
	char peer[64];
	const char *p = strstr(cmd, "PEER");

	if (p && dpath && yang_path_key(dpath, "remote-address", peer, sizeof(peer)))
		snprintf(buf, size, "%.*s%s%s", (int)(p - cmd), cmd, peer, p + 4);
	else
		snprintf(buf, size, "%s", cmd);
}

/* libyang puts 'Data location "..."' or 'Schema location "..."' in the error's path. */
static void ly_error_path(const char *lypath, char *buf, size_t size)
{
	const char *p = NULL, *end;

	buf[0] = '\0';
	if (!lypath)
		return;
	if ((p = strstr(lypath, "ata location \"")) != NULL)
		p += strlen("ata location \"");
	else if ((p = strstr(lypath, "chema location \"")) != NULL)
		p += strlen("chema location \"");
	else if (lypath[0] == '/')
		p = lypath;
	if (!p)
		return;
	end = strchr(p, '"');
	snprintf(buf, size, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
}

/* The text between the first pair of double quotes of a libyang message. */
static void quoted(const char *msg, char *buf, size_t size)
{
	const char *a = strchr(msg, '"'), *b = a ? strchr(a + 1, '"') : NULL;

	if (a && b)
		snprintf(buf, size, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(buf, size, "?");
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * Turn libyang's first stored error into an operator message. Messages written in the model
 * (error-message of a range, length, pattern or must) are already operator language and pass
 * through; libyang's generic texts get the command they concern.
 */
static void nb_error_from_ly(struct nb_error *err, const char *fallback)
{
	const struct ly_err_item *e = ly_err_first(yang_ctx());
	const struct lysc_node *snode = NULL;
	const struct nb_node_info *ni;
	char spath[1024], cmd[256], cmdk[300], val[128];
	const char *msg;

	err->validation = true;
	if (!e || !e->msg) {
		snprintf(err->msg, sizeof(err->msg), "%s", fallback);
		err->xpath[0] = '\0';
		ly_err_clean(yang_ctx(), NULL);
		return;
	}
	msg = e->msg;
	ly_error_path(e->path, err->xpath, sizeof(err->xpath));
	yang_path_strip_predicates(err->xpath, spath, sizeof(spath));
	if (spath[0])
		snode = lys_find_path(yang_ctx(), NULL, spath, 0);
	node_command(snode, cmd, sizeof(cmd));
	command_with_keys(cmd[0] ? cmd : err->xpath, err->xpath, cmdk, sizeof(cmdk));
	ni = nb_node_info_of(snode);

	if (starts_with(msg, "Mandatory node \"")) {
		if (ni && ni->missing_msg)
			snprintf(err->msg, sizeof(err->msg), "%s", ni->missing_msg);
		else
			snprintf(err->msg, sizeof(err->msg),
				 "Incomplete configuration: %s is required", cmdk);
	} else if (starts_with(msg, "Value \"") && strstr(msg, "min/max bounds")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg), "Value %s is out of range for \"%s\"", val,
			 cmdk);
	} else if (starts_with(msg, "Invalid ") || starts_with(msg, "Unsatisfied ")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg), "Invalid value \"%s\" for \"%s\"", val, cmdk);
	} else if (starts_with(msg, "When condition")) {
		snprintf(err->msg, sizeof(err->msg), "\"%s\" is not allowed in this configuration",
			 cmdk);
	} else if (starts_with(msg, "Must condition")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg), "\"%s\" conflicts with the configuration (%s)",
			 cmdk, val);
	} else if (starts_with(msg, "Duplicate instance") || starts_with(msg, "Not found node") ||
		   starts_with(msg, "Unexpected") || strstr(msg, "already exists")) {
		snprintf(err->msg, sizeof(err->msg), "%.200s (%.300s)", msg, err->xpath);
	} else {
		/* The model's own error-message. */
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	ly_err_clean(yang_ctx(), NULL);
}

/* ---- candidates and edits --------------------------------------------------------------- */

static struct lyd_node *tree_dup(const struct lyd_node *tree)
{
	struct lyd_node *dup = NULL;

	/* WITH_FLAGS: default nodes stay default, so a copy diffs as equal to its source. */
	if (tree && lyd_dup_siblings(tree, NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, &dup) !=
			    LY_SUCCESS) {
		fprintf(stderr, "skua: cannot copy the configuration tree (out of memory?)\n");
		abort();
	}
	return dup;
}

struct nb_candidate *nb_candidate_new(void)
{
	struct nb_candidate *c = XCALLOC(MTYPE_NB_CANDIDATE, sizeof(*c));

	nb_init();
	c->tree = tree_dup(nb.running);
	c->version = nb.version;
	return c;
}

void nb_candidate_free(struct nb_candidate *c)
{
	if (!c)
		return;
	lyd_free_all(c->tree);
	XFREE(MTYPE_NB_CANDIDATE, c);
}

const struct lyd_node *nb_candidate_tree(const struct nb_candidate *c)
{
	return c ? c->tree : NULL;
}

int nb_candidate_edit(struct nb_candidate *c, enum nb_operation op, const char *xpath,
		      const char *value, struct nb_error *err)
{
	struct lyd_node *node = NULL, *first = NULL;
	LY_ERR r;

	ly_err_clean(yang_ctx(), NULL);
	switch (op) {
	case NB_OP_CREATE:
	case NB_OP_MODIFY:
		/* UPDATE: an existing leaf takes the new value; an existing entry is kept. */
		r = lyd_new_path(c->tree, yang_ctx(), xpath, value, LYD_NEW_PATH_UPDATE, &first);
		if (r != LY_SUCCESS) {
			nb_error_from_ly(err, "invalid edit");
			if (!err->xpath[0])
				snprintf(err->xpath, sizeof(err->xpath), "%s", xpath);
			return -1;
		}
		if (!c->tree)
			c->tree = first;
		if (c->tree)
			c->tree = lyd_first_sibling(c->tree);
		return 0;
	case NB_OP_DESTROY:
		if (!c->tree)
			return 0;
		r = lyd_find_path(c->tree, xpath, 0, &node);
		if (r == LY_ENOTFOUND || r == LY_EINCOMPLETE) {
			ly_err_clean(yang_ctx(), NULL);
			return 0; /* FRR: removing what is not there is fine */
		}
		if (r != LY_SUCCESS) {
			nb_error_from_ly(err, "invalid path");
			snprintf(err->xpath, sizeof(err->xpath), "%s", xpath);
			return -1;
		}
		if (node == c->tree)
			c->tree = node->next;
		lyd_free_tree(node);
		if (c->tree)
			c->tree = lyd_first_sibling(c->tree);
		return 0;
	}
	return -1;
}

static int validate_yang(struct nb_candidate *c, struct nb_error *err)
{
	ly_err_clean(yang_ctx(), NULL);
	if (lyd_validate_all(&c->tree, yang_ctx(), LYD_VALIDATE_NO_STATE, NULL) != LY_SUCCESS) {
		nb_error_from_ly(err, "the configuration is not valid");
		return -1;
	}
	return 0;
}

/* ---- transactions -------------------------------------------------------------------- */

enum diff_op { DIFF_NONE, DIFF_CREATE, DIFF_DELETE, DIFF_REPLACE };

static enum diff_op diff_op_of(const struct lyd_node *d, enum diff_op inherited)
{
	struct lyd_meta *m = lyd_find_meta(d->meta, NULL, "yang:operation");
	const char *v = m ? lyd_get_meta_value(m) : NULL;

	if (!v)
		return inherited;
	if (!strcmp(v, "create"))
		return DIFF_CREATE;
	if (!strcmp(v, "delete"))
		return DIFF_DELETE;
	if (!strcmp(v, "replace"))
		return DIFF_REPLACE;
	return DIFF_NONE;
}

/* The node of siblings that the diff node d stands for (lists by key, others by schema). */
static const struct lyd_node *match_in(const struct lyd_node *siblings, const struct lyd_node *d)
{
	struct lyd_node *m = NULL;

	if (!siblings)
		return NULL;
	if (d->schema->nodetype & (LYS_LIST | LYS_LEAFLIST))
		lyd_find_sibling_first(siblings, d, &m);
	else
		lyd_find_sibling_val(siblings, d->schema, NULL, 0, &m);
	return m;
}

static void txn_add(struct nb_txn *t, enum nb_operation op, const struct lyd_node *dnode,
		    const struct lyd_node *old_dnode, const struct lyd_node *new_parent)
{
	struct nb_change *ch;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->v = XREALLOC(MTYPE_NB_TXN, t->v, t->cap * sizeof(*t->v));
	}
	ch = &t->v[t->n++];
	memset(ch, 0, sizeof(*ch));
	ch->op = op;
	ch->info = nb_node_info_of(dnode->schema);
	ch->dnode = dnode;
	ch->old_dnode = old_dnode;
	ch->new_parent = new_parent;
}

static void txn_walk(struct nb_txn *t, const struct lyd_node *diff, const struct lyd_node *new_sib,
		     const struct lyd_node *old_sib, const struct lyd_node *new_parent,
		     enum diff_op inherited)
{
	for (const struct lyd_node *d = diff; d; d = d->next) {
		enum diff_op op = diff_op_of(d, inherited);
		const struct lyd_node *nn = op == DIFF_DELETE ? NULL : match_in(new_sib, d);
		const struct lyd_node *on = op == DIFF_CREATE ? NULL : match_in(old_sib, d);
		const struct nb_node_info *ni = nb_node_info_of(d->schema);

		/* List keys are part of their entry's create/destroy. */
		if (lysc_is_key(d->schema))
			continue;
		switch (op) {
		case DIFF_CREATE:
			if (!nn)
				break;
			/* Parents before children. */
			txn_add(t, NB_OP_CREATE, nn, NULL, new_parent);
			txn_walk(t, lyd_child(d), lyd_child(nn), NULL, nn, DIFF_CREATE);
			break;
		case DIFF_DELETE:
			if (!on)
				break;
			/* The topmost node with a destroy callback takes its subtree with it;
			 * otherwise its children are told, children before parents. */
			if (!(ni && ni->cbs.destroy))
				txn_walk(t, lyd_child(d), NULL, lyd_child(on), new_parent,
					 DIFF_DELETE);
			txn_add(t, NB_OP_DESTROY, on, NULL, new_parent);
			break;
		case DIFF_REPLACE:
			if (nn)
				txn_add(t, NB_OP_MODIFY, nn, on, new_parent);
			break;
		case DIFF_NONE:
			if (nn || on)
				txn_walk(t, lyd_child(d), nn ? lyd_child(nn) : NULL,
					 on ? lyd_child(on) : NULL, nn, DIFF_NONE);
			break;
		}
	}
}

static void txn_free(struct nb_txn *t)
{
	XFREE(MTYPE_NB_TXN, t->v);
	lyd_free_all(t->diff);
	memset(t, 0, sizeof(*t));
}

static int txn_build(struct nb_txn *t, const struct nb_candidate *c, struct nb_error *err)
{
	memset(t, 0, sizeof(*t));
	ly_err_clean(yang_ctx(), NULL);
	if (lyd_diff_siblings(nb.running, c->tree, LYD_DIFF_DEFAULTS, &t->diff) != LY_SUCCESS) {
		nb_error_from_ly(err,
				 "cannot compare the candidate with the running configuration");
		err->validation = false;
		return -1;
	}
	txn_walk(t, t->diff, c->tree, nb.running, NULL, DIFF_NONE);
	return 0;
}

static int (*change_cb(const struct nb_change *ch))(struct nb_cb_args *)
{
	if (!ch->info)
		return NULL;
	switch (ch->op) {
	case NB_OP_CREATE:
		/* Leaves have modify callbacks, except type empty ones (create/destroy). */
		return ch->info->cbs.create ? ch->info->cbs.create : ch->info->cbs.modify;
	case NB_OP_MODIFY:
		return ch->info->cbs.modify;
	case NB_OP_DESTROY:
		return ch->info->cbs.destroy;
	}
	return NULL;
}

static int change_call(struct nb_change *ch, enum nb_event ev, char *errmsg, size_t errlen)
{
	int (*cb)(struct nb_cb_args *) = change_cb(ch);
	struct nb_cb_args args = {
		.event = ev,
		.op = ch->op,
		.dnode = ch->dnode,
		.old_dnode = ch->old_dnode,
		.resource = &ch->resource,
		.errmsg = errmsg,
		.errmsg_len = errlen,
	};

	if (!cb)
		return NB_OK;
	return cb(&args);
}

static void change_error(const struct nb_change *ch, const char *cbmsg, enum nb_event ev,
			 struct nb_error *err)
{
	char cmd[256], cmdk[300];

	yang_dnode_path(ch->dnode, err->xpath, sizeof(err->xpath));
	if (cbmsg[0]) {
		snprintf(err->msg, sizeof(err->msg), "%s", cbmsg);
	} else {
		node_command(ch->dnode->schema, cmd, sizeof(cmd));
		command_with_keys(cmd[0] ? cmd : err->xpath, err->xpath, cmdk, sizeof(cmdk));
		snprintf(err->msg, sizeof(err->msg), "\"%s\" was refused (%s of %s failed)", cmdk,
			 nb_event_name(ev), nb_operation_name(ch->op));
	}
	err->validation = ev == NB_EV_VALIDATE;
}

static int txn_validate(struct nb_txn *t, struct nb_error *err)
{
	char msg[512];

	for (size_t i = 0; i < t->n; i++) {
		msg[0] = '\0';
		if (change_call(&t->v[i], NB_EV_VALIDATE, msg, sizeof(msg)) != NB_OK) {
			change_error(&t->v[i], msg, NB_EV_VALIDATE, err);
			return -1;
		}
	}
	return 0;
}

static int txn_prepare(struct nb_txn *t, struct nb_error *err)
{
	char msg[512];

	for (size_t i = 0; i < t->n; i++) {
		msg[0] = '\0';
		if (change_call(&t->v[i], NB_EV_PREPARE, msg, sizeof(msg)) != NB_OK) {
			change_error(&t->v[i], msg, NB_EV_PREPARE, err);
			/* Undo what was prepared, newest first. */
			for (size_t j = i; j-- > 0;)
				if (t->v[j].prepared)
					change_call(&t->v[j], NB_EV_ABORT, msg, sizeof(msg));
			return -1;
		}
		t->v[i].prepared = true;
	}
	return 0;
}

static void txn_apply(struct nb_txn *t)
{
	struct ly_set *finish = NULL;
	char msg[512];

	for (size_t i = 0; i < t->n; i++) {
		msg[0] = '\0';
		if (change_call(&t->v[i], NB_EV_APPLY, msg, sizeof(msg)) != NB_OK) {
			char path[1024];

			/* APPLY cannot fail by contract; a callback that does is a bug. */
			log_err("northbound: apply of %s %s failed (a bug): %s",
				nb_operation_name(t->v[i].op),
				yang_dnode_path(t->v[i].dnode, path, sizeof(path)), msg);
		}
	}

	/* apply_finish: each changed node and its ancestors, once each, first-changed first.
	 * A destroyed node's own apply_finish is skipped (it is gone); its ancestors' run. */
	ly_set_new(&finish);
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_change *ch = &t->v[i];
		const struct lyd_node *n = ch->op == NB_OP_DESTROY ? ch->new_parent : ch->dnode;

		for (; n; n = lyd_parent(n)) {
			const struct nb_node_info *ni = nb_node_info_of(n->schema);

			if (ni && ni->cbs.apply_finish)
				ly_set_add(finish, (void *)(uintptr_t)n, 0, NULL);
		}
	}
	for (uint32_t i = 0; i < finish->count; i++) {
		const struct lyd_node *n = finish->dnodes[i];
		struct nb_cb_args args = {
			.event = NB_EV_APPLY,
			.op = NB_OP_MODIFY,
			.dnode = n,
			.errmsg = msg,
			.errmsg_len = sizeof(msg),
		};

		nb_node_info_of(n->schema)->cbs.apply_finish(&args);
	}
	ly_set_free(finish, NULL);
}

int nb_candidate_validate(struct nb_candidate *c, struct nb_error *err)
{
	struct nb_txn t;
	int ret;

	if (validate_yang(c, err) < 0)
		return -1;
	if (txn_build(&t, c, err) < 0)
		return -1;
	ret = txn_validate(&t, err);
	txn_free(&t);
	return ret;
}

int nb_candidate_changes(struct nb_candidate *c, nb_change_cb cb, void *arg, struct nb_error *err)
{
	struct nb_txn t;
	char path[1024];

	if (validate_yang(c, err) < 0 || txn_build(&t, c, err) < 0)
		return -1;
	for (size_t i = 0; i < t.n; i++)
		cb(t.v[i].op, yang_dnode_path(t.v[i].dnode, path, sizeof(path)), arg);
	txn_free(&t);
	return 0;
}

int nb_candidate_commit(struct nb_candidate *c, struct nb_error *err)
{
	struct nb_txn t;
	bool changed;

	if (c->version != nb.version) {
		snprintf(err->msg, sizeof(err->msg),
			 "The running configuration changed since this edit began (another session "
			 "committed); nothing was applied, please retry");
		err->xpath[0] = '\0';
		err->validation = false;
		return -1;
	}
	if (validate_yang(c, err) < 0)
		return -1;
	if (txn_build(&t, c, err) < 0)
		return -1;
	if (txn_validate(&t, err) < 0 || txn_prepare(&t, err) < 0) {
		txn_free(&t);
		return -1;
	}
	txn_apply(&t);
	changed = t.n > 0;
	txn_free(&t); /* the destroy dnodes pointed into the old running tree: free it after */

	lyd_free_all(nb.running);
	nb.running = c->tree;
	c->tree = tree_dup(nb.running);
	if (changed)
		nb.version++;
	c->version = nb.version;
	return 0;
}
