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

#include <time.h>

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/northbound_private.h"
#include "lib/yang.h"

DEFINE_MTYPE(NB_CANDIDATE, "Northbound candidate");
DEFINE_MTYPE(NB_TXN, "Northbound transaction");
static DEFINE_MTYPE(NB_HISTORY, "Northbound commit history");

#define NB_MAX_MODULES 8

/* One kept commit: what `show configuration commits` lists and `rollback` restores. The
 * configuration is kept in libyang's compact binary form (LYB), not as a tree: fifty copies
 * of a large configuration as trees would cost more than the daemon's RIB. */
struct nb_hist_entry {
	struct nb_transaction info;
	char *lyb; /* MTYPE_NB_HISTORY; NULL when the configuration was empty */
	size_t lyb_len;
};

static struct {
	bool initialized;
	struct lyd_node *running;
	/* running after every module's expand_tree: what the callbacks last saw. */
	struct lyd_node *running_eff;
	uint64_t version;
	const struct nb_module_info *modules[NB_MAX_MODULES];
	const struct lys_module *lys[NB_MAX_MODULES];
	int nmodules;
	/* History: a ring of the last NB_HISTORY_MAX commits, hist_first the oldest. */
	struct nb_hist_entry hist[NB_HISTORY_MAX];
	int hist_first, hist_count;
	uint32_t last_txid;
} nb;

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

const char *nb_source_name(enum nb_source src)
{
	switch (src) {
	case NB_SRC_VTYSH:
		return "vtysh";
	case NB_SRC_FILE:
		return "file";
	case NB_SRC_RELOAD:
		return "reload";
	case NB_SRC_ROLLBACK:
		return "rollback";
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

static void history_clear(void)
{
	for (int i = 0; i < NB_HISTORY_MAX; i++)
		XFREE(MTYPE_NB_HISTORY, nb.hist[i].lyb);
	nb.hist_first = nb.hist_count = 0;
}

void nb_terminate(void)
{
	if (!nb.initialized)
		return;
	nb_cli_sessions_terminate();
	nb_confirm_terminate();
	history_clear();
	lyd_free_all(nb.running_eff);
	nb.running_eff = NULL;
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
	/* Another table for a module already registered (one module, callbacks in several
	 * files): its place in the printing order is the first registration's. */
	for (int i = 0; i < nb.nmodules; i++)
		if (nb.lys[i] == mod)
			return;
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

void nb_path_command(const char *dpath, char *buf, size_t size)
{
	const struct lysc_node *snode = NULL;
	char spath[1024], cmd[256];

	yang_path_strip_predicates(dpath, spath, sizeof(spath));
	if (spath[0])
		snode = lys_find_path(yang_ctx(), NULL, spath, 0);
	ly_err_clean(yang_ctx(), NULL);
	node_command(snode, cmd, sizeof(cmd));
	command_with_keys(cmd[0] ? cmd : dpath, dpath, buf, size);
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

/* A list entry in the CLI's words: its name and key values ("neighbor 10.0.0.2"). */
static bool list_entry_words(const char *dpath, char *buf, size_t size)
{
	const char *last = NULL, *p;
	char quote = 0;
	size_t n = 0;

	/* The last step starts at the last '/' outside a predicate (a prefix key holds '/'). */
	for (p = dpath; *p; p++) {
		if (quote)
			quote = *p == quote ? 0 : quote;
		else if (*p == '\'' || *p == '"')
			quote = *p;
		else if (*p == '/')
			last = p;
	}
	if (!last || !strchr(last, '[') || !size)
		return false;
	for (p = last + 1; *p && *p != '[' && n + 1 < size; p++)
		buf[n++] = *p;
	buf[n] = '\0';
	while ((p = strchr(p, '=')) != NULL && (p[1] == '\'' || p[1] == '"')) {
		const char *end = strchr(p + 2, p[1]);

		if (!end)
			break;
		if (n + 1 < size)
			n += (size_t)snprintf(buf + n, size - n, " %.*s", (int)(end - p - 2),
					      p + 2);
		p = end;
	}
	return true;
}

/*
 * Turn libyang's first stored error into an operator message. Messages written in the model
 * (error-message of a range, length, pattern or must) are already operator language and pass
 * through; libyang's generic texts get the command they concern.
 */
void nb_error_from_ly(struct nb_error *err, const char *fallback)
{
	const struct ly_err_item *e = ly_err_first(yang_ctx());
	const struct lysc_node *snode = NULL;
	const struct nb_node_info *ni;
	char spath[1024], cmd[256], cmdk[300], val[128];
	const char *msg, *p;

	err->validation = true;
	if (!e || !e->msg) {
		snprintf(err->msg, sizeof(err->msg), "%s", fallback);
		err->xpath[0] = '\0';
		ly_err_clean(yang_ctx(), NULL);
		return;
	}
	msg = e->msg;
	ly_error_path(e->path, err->xpath, sizeof(err->xpath));
	err->line = 0;
	/* "..., line number 4." or "Line number 1." */
	if (e->path && (p = strstr(e->path, "ine number ")) != NULL)
		err->line = (unsigned)strtoul(p + strlen("ine number "), NULL, 10);
	/* A data error (a value, a must, a missing node): the path pins it better than the
	 * line, which libyang reports after reading on. */
	err->value_error = e->vecode == LYVE_DATA;
	err->duplicate = false;
	yang_path_strip_predicates(err->xpath, spath, sizeof(spath));
	if (spath[0])
		snode = lys_find_path(yang_ctx(), NULL, spath, 0);
	node_command(snode, cmd, sizeof(cmd));
	command_with_keys(cmd[0] ? cmd : err->xpath, err->xpath, cmdk, sizeof(cmdk));
	ni = nb_node_info_of(snode);

	if (e->vecode == LYVE_SYNTAX || e->vecode == LYVE_SYNTAX_JSON) {
		/* Only files reach libyang's parsers. A quoted piece of the input stops at its
		 * first line. */
		const char *nl = strchr(msg, '\n'), *rest = nl ? strstr(nl, "\", ") : NULL;

		if (strstr(msg, "character sequence \"\","))
			snprintf(err->msg, sizeof(err->msg),
				 "JSON syntax error: the file ends too early (truncated?)");
		else if (nl)
			snprintf(err->msg, sizeof(err->msg), "JSON syntax error: %.*s...%s",
				 (int)(nl - msg), msg, rest ? rest : "\"");
		else
			snprintf(err->msg, sizeof(err->msg), "JSON syntax error: %s", msg);
	} else if (starts_with(msg, "No module named \"")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg),
			 "Unknown configuration module \"%s\" (not a model of this bgpd)", val);
	} else if (starts_with(msg, "Node \"") && strstr(msg, "not found as a child")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg), "Unknown setting \"%s\" in \"%s\"", val, cmdk);
	} else if (starts_with(msg, "Node \"") && strstr(msg, "not found")) {
		quoted(msg, val, sizeof(val));
		snprintf(err->msg, sizeof(err->msg), "Unknown setting \"%s\"", val);
	} else if (starts_with(msg, "Mandatory node \"")) {
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
	} else if (starts_with(msg, "Duplicate instance")) {
		err->duplicate = true;
		if (snode && snode->nodetype == LYS_LIST &&
		    list_entry_words(err->xpath, val, sizeof(val)))
			snprintf(err->msg, sizeof(err->msg), "%s is given twice", val);
		else
			snprintf(err->msg, sizeof(err->msg), "\"%s\" is given twice", cmdk);
	} else if (starts_with(msg, "Not found node") || starts_with(msg, "Unexpected") ||
		   strstr(msg, "already exists")) {
		snprintf(err->msg, sizeof(err->msg), "%.200s (%.300s)", msg, err->xpath);
	} else {
		/* The model's own error-message. */
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	/* Messages quote the input; it goes to terminals and logs. */
	for (char *c = err->msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	ly_err_clean(yang_ctx(), NULL);
}

/* ---- candidates and edits --------------------------------------------------------------- */

struct lyd_node *nb_tree_dup(const struct lyd_node *tree)
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

struct nb_candidate *nb_candidate_new_from(const struct lyd_node *tree)
{
	struct nb_candidate *c = XCALLOC(MTYPE_NB_CANDIDATE, sizeof(*c));

	nb_init();
	c->tree = nb_tree_dup(tree);
	c->version = nb.version;
	c->source = NB_SRC_VTYSH;
	return c;
}

struct nb_candidate *nb_candidate_new(void)
{
	return nb_candidate_new_from(nb.running);
}

struct nb_candidate *nb_candidate_new_empty(void)
{
	return nb_candidate_new_from(NULL);
}

struct nb_candidate *nb_candidate_copy(const struct nb_candidate *c)
{
	struct nb_candidate *copy = XCALLOC(MTYPE_NB_CANDIDATE, sizeof(*copy));

	*copy = *c;
	copy->tree = nb_tree_dup(c->tree);
	return copy;
}

uint64_t nb_candidate_version(const struct nb_candidate *c)
{
	return c->version;
}

void nb_candidate_set_origin(struct nb_candidate *c, enum nb_source src, const char *label,
			     const char *comment)
{
	c->source = src;
	snprintf(c->label, sizeof(c->label), "%s", label ? label : "");
	snprintf(c->comment, sizeof(c->comment), "%s", comment ? comment : "");
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
	struct lyd_node *created;

	return nb_candidate_edit_created(c, op, xpath, value, &created, err);
}

int nb_candidate_edit_created(struct nb_candidate *c, enum nb_operation op, const char *xpath,
			      const char *value, struct lyd_node **created, struct nb_error *err)
{
	struct lyd_node *node = NULL, *first = NULL;
	LY_ERR r;

	*created = NULL;
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
		*created = first;
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

/*
 * A leaf set explicitly to its default value is the default: drop it, validation puts the
 * default back. Otherwise `timers bgp 60 180` would be configuration that FRR's printout
 * hides, and the text and JSON forms of one configuration would load into different trees.
 */
static void normalize_defaults(struct lyd_node **tree)
{
	struct ly_set *drop = NULL;
	struct lyd_node *elem;

	if (!*tree || ly_set_new(&drop) != LY_SUCCESS)
		return;
	for (struct lyd_node *top = *tree; top; top = top->next) {
		LYD_TREE_DFS_BEGIN(top, elem)
		{
			const struct lysc_node_leaf *sl =
				(const struct lysc_node_leaf *)elem->schema;
			const struct nb_node_info *ni = nb_node_info_of(elem->schema);

			if (sl && sl->nodetype == LYS_LEAF && sl->dflt &&
			    !(elem->flags & LYD_DEFAULT) && !(ni && ni->keep_explicit_default) &&
			    !strcmp(lyd_get_value(elem),
				    lyd_value_get_canonical(yang_ctx(), sl->dflt)))
				ly_set_add(drop, elem, 1, NULL);
			LYD_TREE_DFS_END(top, elem);
		}
	}
	for (uint32_t i = 0; i < drop->count; i++)
		lyd_free_tree(drop->dnodes[i]); /* leaves: never a top-level node */
	ly_set_free(drop, NULL);
}

/*
 * libyang names only the schema node of a missing mandatory node ("Schema location
 * /.../neighbor/neighbor-remote-as/remote-as-type"). Find the entry that lacks it: the
 * instances of the nearest list (or presence container) above, the first without the node.
 */
static bool missing_instance(const struct lyd_node *tree, char *xpath, size_t size)
{
	const struct lysc_node *snode, *anc;
	struct ly_set *set = NULL;
	char apath[1024], rel[1024], path[1024];
	size_t alen;
	bool found = false;

	if (!tree || !xpath[0] || strchr(xpath, '['))
		return false;
	snode = lys_find_path(yang_ctx(), NULL, xpath, 0);
	for (anc = snode ? snode->parent : NULL; anc; anc = anc->parent)
		if (anc->nodetype == LYS_LIST ||
		    (anc->nodetype == LYS_CONTAINER && (anc->flags & LYS_PRESENCE)))
			break;
	if (!anc)
		return false;
	lysc_path(anc, LYSC_PATH_DATA, apath, sizeof(apath));
	alen = strlen(apath);
	if (strncmp(xpath, apath, alen) != 0 || xpath[alen] != '/')
		return false;
	snprintf(rel, sizeof(rel), "%s", xpath + alen + 1);
	if (lyd_find_xpath(tree, apath, &set) == LY_SUCCESS)
		for (uint32_t i = 0; i < set->count && !found; i++)
			if (!yang_dnode_exists(set->dnodes[i], "%s", rel)) {
				snprintf(xpath, size, "%s",
					 yang_dnode_path(set->dnodes[i], path, sizeof(path)));
				found = true;
			}
	ly_set_free(set, NULL);
	return found;
}

/* qsort has no context argument; sorting does not nest. */
static int (*sort_cmp_fn)(const struct lyd_node *a, const struct lyd_node *b);

static int path_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	char pa[1024], pb[1024];

	return strcmp(yang_dnode_path(a, pa, sizeof(pa)), yang_dnode_path(b, pb, sizeof(pb)));
}

static int sort_cmp(const void *a, const void *b)
{
	return sort_cmp_fn(*(struct lyd_node *const *)a, *(struct lyd_node *const *)b);
}

/*
 * Entries of a list in a stable order (the printer's, else by key): libyang keeps them in
 * the order they were created, so the same configuration read from differently ordered
 * files would print different JSON and keep different history entries.
 */
static void sort_lists(struct lyd_node *parent)
{
	struct lyd_node *n = lyd_child(parent);

	while (n) {
		const struct nb_node_info *ni = nb_node_info_of(n->schema);
		struct lyd_node *m, **v;
		size_t cnt = 0, i = 0;

		if (!(n->schema->nodetype & LYS_LIST)) {
			sort_lists(n);
			n = n->next;
			continue;
		}
		for (m = n; m && m->schema == n->schema; m = m->next)
			cnt++;
		v = XCALLOC(MTYPE_NB_TXN, cnt * sizeof(*v));
		for (m = n; m && m->schema == n->schema; m = m->next)
			v[i++] = m;
		sort_cmp_fn = ni && ni->cbs.cli_cmp ? ni->cbs.cli_cmp : path_cmp;
		qsort(v, cnt, sizeof(*v), sort_cmp);
		for (i = 0; i < cnt; i++)
			lyd_unlink_tree(v[i]);
		for (i = 0; i < cnt; i++) {
			lyd_insert_child(parent, v[i]);
			sort_lists(v[i]);
		}
		n = v[cnt - 1]->next;
		XFREE(MTYPE_NB_TXN, v);
	}
}

int nb_tree_validate(struct lyd_node **tree, struct nb_error *err)
{
	ly_err_clean(yang_ctx(), NULL);
	normalize_defaults(tree);
	if (lyd_validate_all(tree, yang_ctx(), LYD_VALIDATE_NO_STATE, NULL) != LY_SUCCESS) {
		nb_error_from_ly(err, "the configuration is not valid");
		missing_instance(*tree, err->xpath, sizeof(err->xpath));
		return -1;
	}
	for (struct lyd_node *top = *tree; top; top = top->next)
		sort_lists(top);
	return 0;
}

static int validate_yang(struct nb_candidate *c, struct nb_error *err)
{
	return nb_tree_validate(&c->tree, err);
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

/* The changes from the effective tree old_eff to new_eff. */
static int txn_build(struct nb_txn *t, const struct lyd_node *old_eff,
		     const struct lyd_node *new_eff, struct nb_error *err)
{
	memset(t, 0, sizeof(*t));
	ly_err_clean(yang_ctx(), NULL);
	if (lyd_diff_siblings(old_eff, new_eff, LYD_DIFF_DEFAULTS, &t->diff) != LY_SUCCESS) {
		nb_error_from_ly(err,
				 "cannot compare the candidate with the running configuration");
		err->validation = false;
		return -1;
	}
	txn_walk(t, t->diff, new_eff, old_eff, NULL, DIFF_NONE);
	return 0;
}

/* Does the tree as written differ (a change that the expansion hides, e.g. a member setting
 * what its group already gives it, is still a change of the configuration)? */
static bool trees_differ(const struct lyd_node *a, const struct lyd_node *b)
{
	struct lyd_node *diff = NULL;
	bool differ;

	if (lyd_diff_siblings(a, b, LYD_DIFF_DEFAULTS, &diff) != LY_SUCCESS) {
		ly_err_clean(yang_ctx(), NULL);
		return true;
	}
	differ = diff != NULL;
	lyd_free_all(diff);
	return differ;
}

/*
 * The effective tree of a validated tree as written: a copy through every module's
 * expand_tree, validated again, so the model's constraints hold on what the callbacks see
 * (a member's own ebgp-multihop against its group's ttl-security). *eff NULL for an empty tree.
 */
static int expand(const struct lyd_node *written, struct lyd_node **eff, struct nb_error *err)
{
	char msg[sizeof(err->msg)];
	bool expanded = false;

	*eff = nb_tree_dup(written);
	for (int m = 0; m < nb.nmodules; m++) {
		const struct nb_module_info *info = nb.modules[m];

		if (!info->expand_tree)
			continue;
		expanded = true;
		msg[0] = err->xpath[0] = '\0';
		if (info->expand_tree(eff, msg, sizeof(msg), err->xpath, sizeof(err->xpath)) !=
		    NB_OK) {
			snprintf(err->msg, sizeof(err->msg), "%s",
				 msg[0] ? msg : "the configuration was refused");
			err->validation = true;
			lyd_free_all(*eff);
			*eff = NULL;
			return -1;
		}
	}
	if (expanded && *eff && nb_tree_validate(eff, err) < 0) {
		lyd_free_all(*eff);
		*eff = NULL;
		return -1;
	}
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

/* Did the transaction change anything of module m? */
static bool txn_touches(const struct nb_txn *t, const struct lys_module *m)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].dnode->schema->module == m)
			return true;
	return false;
}

static int txn_validate(struct nb_txn *t, const struct lyd_node *tree, struct nb_error *err)
{
	char msg[sizeof(err->msg)];

	for (size_t i = 0; i < t->n; i++) {
		msg[0] = '\0';
		if (change_call(&t->v[i], NB_EV_VALIDATE, msg, sizeof(msg)) != NB_OK) {
			change_error(&t->v[i], msg, NB_EV_VALIDATE, err);
			return -1;
		}
	}
	for (int m = 0; m < nb.nmodules; m++) {
		const struct nb_module_info *info = nb.modules[m];

		if (!info->validate_tree || !txn_touches(t, nb.lys[m]))
			continue;
		msg[0] = err->xpath[0] = '\0';
		if (info->validate_tree(tree, msg, sizeof(msg), err->xpath, sizeof(err->xpath)) !=
		    NB_OK) {
			snprintf(err->msg, sizeof(err->msg), "%s",
				 msg[0] ? msg : "the configuration was refused");
			err->validation = true;
			return -1;
		}
	}
	return 0;
}

static int txn_prepare(struct nb_txn *t, struct nb_error *err)
{
	char msg[sizeof(err->msg)];

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

/* The origin of the candidate being validated or committed (nb_commit_source()). */
static enum nb_source cur_source = NB_SRC_VTYSH;

enum nb_source nb_commit_source(void)
{
	return cur_source;
}

int nb_candidate_validate(struct nb_candidate *c, struct nb_error *err)
{
	struct lyd_node *eff;
	struct nb_txn t;
	int ret;

	cur_source = c->source;
	if (validate_yang(c, err) < 0 || expand(c->tree, &eff, err) < 0)
		return -1;
	if (txn_build(&t, nb.running_eff, eff, err) < 0) {
		lyd_free_all(eff);
		return -1;
	}
	ret = txn_validate(&t, eff, err);
	txn_free(&t);
	lyd_free_all(eff);
	return ret;
}

int nb_candidate_changes(struct nb_candidate *c, nb_change_cb cb, void *arg, struct nb_error *err)
{
	struct lyd_node *eff;
	struct nb_txn t;
	char path[1024];

	if (validate_yang(c, err) < 0 || expand(c->tree, &eff, err) < 0)
		return -1;
	if (txn_build(&t, nb.running_eff, eff, err) < 0) {
		lyd_free_all(eff);
		return -1;
	}
	for (size_t i = 0; i < t.n; i++)
		cb(t.v[i].op, yang_dnode_path(t.v[i].dnode, path, sizeof(path)), arg);
	txn_free(&t);
	lyd_free_all(eff);
	return 0;
}

/* ---- history ------------------------------------------------------------------------ */

static void history_record(const struct nb_candidate *c, unsigned changes)
{
	struct nb_hist_entry *h;
	struct ly_out *out = NULL;
	char *buf = NULL;

	if (nb.hist_count == NB_HISTORY_MAX) {
		h = &nb.hist[nb.hist_first];
		nb.hist_first = (nb.hist_first + 1) % NB_HISTORY_MAX;
	} else {
		h = &nb.hist[(nb.hist_first + nb.hist_count) % NB_HISTORY_MAX];
		nb.hist_count++;
	}
	XFREE(MTYPE_NB_HISTORY, h->lyb);
	h->lyb_len = 0;
	memset(&h->info, 0, sizeof(h->info));
	h->info.id = ++nb.last_txid;
	h->info.epoch = (int64_t)time(NULL);
	h->info.source = c->source;
	h->info.changes = changes;
	snprintf(h->info.label, sizeof(h->info.label), "%s", c->label);
	snprintf(h->info.comment, sizeof(h->info.comment), "%s", c->comment);
	if (!nb.running)
		return;
	if (ly_out_new_memory(&buf, 0, &out) != LY_SUCCESS ||
	    lyd_print_all(out, nb.running, LYD_LYB, LYD_PRINT_WD_EXPLICIT) != LY_SUCCESS) {
		/* Only memory can fail here; the entry stays, without a configuration to
		 * restore (rollback then says so). */
		log_err("northbound: cannot keep transaction %u in the history", h->info.id);
		ly_out_free(out, NULL, 1);
		ly_err_clean(yang_ctx(), NULL);
		return;
	}
	h->lyb_len = ly_out_printed(out);
	h->lyb = XMALLOC(MTYPE_NB_HISTORY, h->lyb_len ? h->lyb_len : 1);
	memcpy(h->lyb, buf, h->lyb_len);
	ly_out_free(out, NULL, 1);
}

int nb_history_count(void)
{
	return nb.hist_count;
}

const struct nb_transaction *nb_history_get(int i)
{
	if (i < 0 || i >= nb.hist_count)
		return NULL;
	return &nb.hist[(nb.hist_first + i) % NB_HISTORY_MAX].info;
}

uint32_t nb_history_last_id(void)
{
	return nb.last_txid;
}

struct lyd_node *nb_history_config(uint32_t id, bool *empty, struct nb_error *err)
{
	const struct nb_hist_entry *h = NULL;
	struct lyd_node *tree = NULL;
	struct ly_in *in = NULL;

	*empty = false;
	for (int i = 0; i < nb.hist_count; i++)
		if (nb.hist[(nb.hist_first + i) % NB_HISTORY_MAX].info.id == id)
			h = &nb.hist[(nb.hist_first + i) % NB_HISTORY_MAX];
	memset(err, 0, sizeof(*err));
	if (!h) {
		snprintf(err->msg, sizeof(err->msg), "Transaction %u does not exist", id);
		return NULL;
	}
	if (!h->lyb) {
		*empty = true;
		snprintf(err->msg, sizeof(err->msg), "Transaction %u left an empty configuration",
			 id);
		return NULL;
	}
	ly_err_clean(yang_ctx(), NULL);
	if (ly_in_new_memory(h->lyb, &in) != LY_SUCCESS ||
	    lyd_parse_data(yang_ctx(), NULL, in, LYD_LYB, LYD_PARSE_ONLY | LYD_PARSE_STRICT, 0,
			   &tree) != LY_SUCCESS) {
		nb_error_from_ly(err, "the configuration of this transaction cannot be read");
		lyd_free_all(tree);
		tree = NULL;
	}
	ly_in_free(in, 0);
	return tree;
}

/* ---- commit ------------------------------------------------------------------------- */

int nb_candidate_commit(struct nb_candidate *c, struct nb_error *err)
{
	uint32_t txid;

	return nb_candidate_commit_id(c, &txid, err);
}

/*
 * Apply the effective tree eff against the effective running tree: the transaction's
 * callbacks in their phases, then eff becomes the effective running tree (taken over; freed
 * on failure). *changes: how many changes the callbacks saw.
 */
static int txn_run_effective(struct lyd_node *eff, unsigned *changes, struct nb_error *err)
{
	struct nb_txn t;

	if (txn_build(&t, nb.running_eff, eff, err) < 0) {
		lyd_free_all(eff);
		return -1;
	}
	if (txn_validate(&t, eff, err) < 0 || txn_prepare(&t, err) < 0) {
		txn_free(&t);
		lyd_free_all(eff);
		return -1;
	}
	txn_apply(&t);
	*changes = (unsigned)t.n;
	txn_free(&t); /* the destroy dnodes pointed into the old trees: free them after */
	lyd_free_all(nb.running_eff);
	nb.running_eff = eff;
	return 0;
}

int nb_candidate_commit_id(struct nb_candidate *c, uint32_t *txid, struct nb_error *err)
{
	struct lyd_node *eff;
	unsigned changes;
	bool changed;

	if (c->version != nb.version) {
		snprintf(err->msg, sizeof(err->msg),
			 "The running configuration changed since this edit began (another session "
			 "committed); nothing was applied, please retry");
		err->xpath[0] = '\0';
		err->validation = false;
		return -1;
	}
	cur_source = c->source;
	if (validate_yang(c, err) < 0 || expand(c->tree, &eff, err) < 0)
		return -1;
	if (txn_run_effective(eff, &changes, err) < 0)
		return -1;
	changed = changes > 0 || trees_differ(nb.running, c->tree);
	if (changed && !changes)
		changes = 1; /* only the tree as written changed */

	lyd_free_all(nb.running);
	nb.running = c->tree;
	c->tree = nb_tree_dup(nb.running);
	*txid = 0;
	if (changed) {
		nb.version++;
		history_record(c, changes);
		*txid = nb.last_txid;
	}
	c->version = nb.version;
	return 0;
}

int nb_running_reexpand(struct nb_error *err)
{
	struct lyd_node *eff;
	unsigned changes;

	memset(err, 0, sizeof(*err));
	if (expand(nb.running, &eff, err) < 0)
		return -1;
	return txn_run_effective(eff, &changes, err);
}
