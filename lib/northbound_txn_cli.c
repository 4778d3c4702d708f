/* SPDX-License-Identifier: ISC */
/*
 * Configuration sessions and transactions on the CLI (FRR's northbound_cli.c command set):
 *
 *   configure terminal      every command is its own commit (FRR's classic mode; unchanged)
 *   configure private       edits go to a private candidate; nothing applies until `commit`,
 *                           and leaving configuration mode without it applies nothing
 *   configure exclusive     the same, and no other session may configure meanwhile
 *   commit [{force|confirmed (1-60)|label WORD}] [comment LINE...]
 *   commit check, discard, update
 *   show configuration <running|candidate> [json|changes]
 *   show configuration <commits|transaction> [N [json|changes]]
 *   rollback configuration N
 *
 * Two private sessions never corrupt running: a commit replays the session's own changes
 * onto the current running (a three-way merge, lib/northbound_merge.c) and refuses when
 * another commit changed the same settings since the session's candidate was made.
 * Commands run one at a time in the daemon's single event loop, so commits never interleave.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <time.h>

#include "lib/command.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/northbound_private.h"
#include "lib/vty.h"
#include "lib/yang.h"

DEFINE_MTYPE(NB_CLI_SESSION, "Northbound CLI sessions");

enum session_kind { SESS_TERMINAL, SESS_PRIVATE, SESS_EXCLUSIVE };

struct session {
	struct vty *vty;
	enum session_kind kind;
	/* Private sessions: running when the candidate (vty->candidate) was made, or last
	 * committed or updated; the base of the three-way merge at commit. */
	struct lyd_node *base;
	struct session *next;
};

static struct session *sessions;

static struct session *session_of(const struct vty *vty)
{
	for (struct session *s = sessions; s; s = s->next)
		if (s->vty == vty)
			return s;
	return NULL;
}

static const struct session *exclusive_holder(void)
{
	for (const struct session *s = sessions; s; s = s->next)
		if (s->kind == SESS_EXCLUSIVE)
			return s;
	return NULL;
}

bool nb_cli_locked_by_other(const struct vty *vty)
{
	const struct session *x = exclusive_holder();

	return x && x->vty != vty;
}

bool nb_cli_session_private(const struct vty *vty)
{
	const struct session *s = session_of(vty);

	return s && s->kind != SESS_TERMINAL;
}

static struct session *session_add(struct vty *vty, enum session_kind kind)
{
	struct session *s = XCALLOC(MTYPE_NB_CLI_SESSION, sizeof(*s));

	s->vty = vty;
	s->kind = kind;
	s->next = sessions;
	sessions = s;
	if (kind != SESS_TERMINAL) {
		vty->candidate = nb_candidate_new();
		s->base = nb_tree_dup(nb_running());
		vty->config_locked = kind == SESS_EXCLUSIVE;
	}
	return s;
}

static void session_free(struct session *s)
{
	for (struct session **pp = &sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	if (s->kind != SESS_TERMINAL) {
		nb_candidate_free(s->vty->candidate);
		s->vty->candidate = NULL;
		s->vty->config_locked = false;
		lyd_free_all(s->base);
	}
	XFREE(MTYPE_NB_CLI_SESSION, s);
}

void nb_cli_sessions_terminate(void)
{
	while (sessions)
		session_free(sessions);
}

/* Does the private candidate hold anything not committed? */
static bool session_dirty(const struct session *s)
{
	struct lyd_node *diff = NULL;
	bool dirty;

	if (s->kind == SESS_TERMINAL || !s->vty->candidate)
		return false;
	if (lyd_diff_siblings(s->base, nb_candidate_tree(s->vty->candidate), 0, &diff) !=
	    LY_SUCCESS) {
		ly_err_clean(yang_ctx(), NULL);
		return true;
	}
	dirty = diff != NULL;
	lyd_free_all(diff);
	return dirty;
}

/* ---- entering and leaving configuration mode ------------------------------------------- */

static int config_enter_hook(struct vty *vty)
{
	if (nb_cli_locked_by_other(vty)) {
		vty_out(vty, "%% Configuration is locked by another VTY (configure exclusive)\n");
		return -1;
	}
	if (!session_of(vty))
		session_add(vty, SESS_TERMINAL);
	return 0;
}

static void config_leave_hook(struct vty *vty)
{
	struct session *s = session_of(vty);

	if (!s)
		return;
	if (session_dirty(s))
		vty_out(vty, "%% Uncommitted changes were discarded\n");
	session_free(s);
}

static int enter_private(struct vty *vty, enum session_kind kind)
{
	struct session *s = session_of(vty);

	/* A session exists from `configure` until leaving configuration mode (also while a
	 * `do` runs this from inside it). */
	if (s || cmd_node_is_config(vty->node)) {
		vty_out(vty, "%% Already in configuration mode\n");
		return CMD_WARNING;
	}
	if (nb_cli_locked_by_other(vty)) {
		vty_out(vty, "%% Configuration is locked by another VTY (configure exclusive)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (kind == SESS_EXCLUSIVE)
		for (const struct session *o = sessions; o; o = o->next)
			if (o->vty != vty) {
				vty_out(vty, "%% Another VTY is in configuration mode; configure "
					     "exclusive needs to be the only one\n");
				return CMD_WARNING_CONFIG_FAILED;
			}
	session_add(vty, kind);
	cmd_enter_node(vty, CONFIG_NODE);
	vty_out(vty, "Warning: uncommitted changes will be discarded on exit.\n\n");
	return CMD_SUCCESS;
}

DEFCMD(config_private, "configure private",
       "Enter configuration mode\n"
       "Configure using a private candidate configuration (applied by commit)\n")
{
	return enter_private(vty, SESS_PRIVATE);
}

DEFCMD(config_exclusive, "configure exclusive",
       "Enter configuration mode\n"
       "Configure exclusively from this terminal (a private candidate; others locked out)\n")
{
	return enter_private(vty, SESS_EXCLUSIVE);
}

/* ---- commit ---------------------------------------------------------------------------- */

static int commit(struct vty *vty, bool force, unsigned minutes, const char *label,
		  const char *comment)
{
	struct session *s = session_of(vty);
	struct nb_candidate *c = vty->candidate;
	struct lyd_node *before = NULL;
	struct nb_error err;
	uint32_t txid = 0, pending_id;
	bool was_pending = nb_confirm_pending(&pending_id, NULL);

	if (nb_cli_locked_by_other(vty)) {
		vty_out(vty, "%% Configuration is locked by another VTY (configure exclusive)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (comment && strlen(comment) > NB_COMMENT_MAX) {
		vty_out(vty, "%% The comment is longer than %d characters\n", NB_COMMENT_MAX);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (label && strlen(label) > NB_LABEL_MAX) {
		vty_out(vty, "%% The label is longer than %d characters\n", NB_LABEL_MAX);
		return CMD_WARNING_CONFIG_FAILED;
	}
	/* configure terminal: everything is committed already; commit only confirms. */
	if (s && s->kind != SESS_TERMINAL && c) {
		if (nb_candidate_rebase(c, s->base, force, &err) < 0) {
			vty_out(vty, "%% %s\n", err.msg);
			return CMD_WARNING_CONFIG_FAILED;
		}
		/* Rebased (or force): the candidate now stands on the current running. */
		lyd_free_all(s->base);
		s->base = nb_tree_dup(nb_running());
		if (minutes)
			before = nb_tree_dup(nb_running());
		nb_candidate_set_origin(c, NB_SRC_VTYSH, label, comment);
		if (nb_candidate_commit_id(c, &txid, &err) < 0) {
			char peer[64];

			/* A commit holds many commands: say which neighbor the error is about. */
			if (yang_path_key(err.xpath, "remote-address", peer, sizeof(peer)) &&
			    !strstr(err.msg, peer))
				vty_out(vty, "%% %s (neighbor %s)\n", err.msg, peer);
			else
				vty_out(vty, "%% %s\n", err.msg);
			vty_out(vty, "%% Nothing was committed; the candidate is kept (fix it, or "
				     "\"discard\")\n");
			lyd_free_all(before);
			return CMD_WARNING_CONFIG_FAILED;
		}
		lyd_free_all(s->base);
		s->base = nb_tree_dup(nb_running());
	}
	if (txid)
		vty_out(vty, "%% Configuration committed successfully (Transaction ID #%u).\n",
			txid);
	else if (!was_pending)
		vty_out(vty, "%% No configuration changes to commit.\n");

	if (minutes && (txid || was_pending)) {
		if (nb_confirm_arm(before, txid ? txid : pending_id, minutes, &err) < 0) {
			/* The commit stands; say it is not protected. */
			vty_out(vty, "%% %s: the commit is NOT protected by a timeout\n", err.msg);
			lyd_free_all(before);
			return CMD_WARNING;
		}
		vty_out(vty,
			was_pending ? "%% Resetting confirmed-commit timeout to %u minute(s)\n"
				    : "%% The commit reverts in %u minute(s) unless confirmed with "
				      "\"commit\"\n",
			minutes);
	} else if (!minutes && was_pending) {
		nb_confirm_accept();
		vty_out(vty, "%% Commit complete.\n");
	}
	lyd_free_all(before);
	return CMD_SUCCESS;
}

DEFCMD(config_commit,
       "commit [{force$force|confirmed (1-60)$minutes|label WORD$label}] [comment LINE...]",
       "Commit changes into the running configuration\n"
       "Force commit even if the candidate is outdated (overwrites what others committed "
       "since)\n"
       "Rollback this commit unless there is a confirming commit\n"
       "Timeout in minutes for the commit to be confirmed\n"
       "Label this commit in the history\n"
       "A word naming the commit\n"
       "Assign a comment to this commit\n"
       "Comment for this commit (Max 80 characters)\n")
{
	return commit(vty, cmd_has(args, "force"), (unsigned)cmd_arg_u64(args, "minutes", 0),
		      cmd_arg(args, "label"), cmd_arg(args, "LINE..."));
}

DEFCMD(config_commit_check, "commit check",
       "Commit changes into the running configuration\n"
       "Check if the configuration changes are valid\n")
{
	struct nb_candidate *c;
	struct nb_error err;
	int ret;

	if (!vty->candidate) {
		vty_out(vty, "%% Nothing to check: every command was committed already\n");
		return CMD_SUCCESS;
	}
	c = nb_candidate_copy(vty->candidate);
	memset(&err, 0, sizeof(err));
	ret = nb_candidate_validate(c, &err);
	nb_candidate_free(c);
	if (ret < 0) {
		vty_out(vty, "%% Failed to validate candidate configuration: %s\n", err.msg);
		return CMD_WARNING;
	}
	vty_out(vty, "%% Candidate configuration validated successfully.\n");
	return CMD_SUCCESS;
}

DEFCMD(config_discard, "discard", "Discard changes in the candidate configuration\n")
{
	struct session *s = session_of(vty);

	if (!s || s->kind == SESS_TERMINAL)
		return CMD_SUCCESS; /* nothing pending */
	nb_candidate_free(vty->candidate);
	vty->candidate = nb_candidate_new();
	lyd_free_all(s->base);
	s->base = nb_tree_dup(nb_running());
	return CMD_SUCCESS;
}

DEFCMD(config_update, "update", "Update candidate configuration\n")
{
	struct session *s = session_of(vty);
	struct nb_error err;

	if (!s || s->kind == SESS_TERMINAL ||
	    nb_candidate_version(vty->candidate) == nb_running_version()) {
		vty_out(vty, "%% Update is not necessary.\n");
		return CMD_SUCCESS;
	}
	if (nb_candidate_rebase(vty->candidate, s->base, false, &err) < 0) {
		vty_out(vty, "%% %s\n", err.msg);
		return CMD_WARNING;
	}
	lyd_free_all(s->base);
	s->base = nb_tree_dup(nb_running());
	vty_out(vty, "%% Candidate configuration updated successfully.\n");
	return CMD_SUCCESS;
}

/* ---- show configuration ----------------------------------------------------------------- */

static void print_json_tree(struct vty *vty, const struct lyd_node *tree)
{
	char *s = NULL;

	if (tree &&
	    lyd_print_mem(&s, tree, LYD_JSON, LYD_PRINT_WITHSIBLINGS | LYD_PRINT_WD_EXPLICIT) ==
		    LY_SUCCESS &&
	    s)
		vty_out(vty, "%s", s);
	else
		vty_out(vty, "{\n}\n");
	free(s); /* libyang's */
	ly_err_clean(yang_ctx(), NULL);
}

/* How the configuration tree would print (defaults filled in, as after a commit). */
static void print_tree(struct vty *vty, const struct lyd_node *tree, bool json)
{
	struct lyd_node *copy = nb_tree_dup(tree);
	struct nb_error err;

	(void)nb_tree_validate(&copy, &err); /* only for its defaults: errors show at commit */
	ly_err_clean(yang_ctx(), NULL);
	if (json)
		print_json_tree(vty, copy);
	else
		nb_cli_show_config(&vty->out, copy);
	lyd_free_all(copy);
}

static void print_changes(struct vty *vty, const struct lyd_node *from, const struct lyd_node *to)
{
	struct lyd_node *a = nb_tree_dup(from), *b = nb_tree_dup(to);
	struct sbuf ta, tb;
	struct nb_error err;

	(void)nb_tree_validate(&a, &err);
	(void)nb_tree_validate(&b, &err);
	ly_err_clean(yang_ctx(), NULL);
	sbuf_init(&ta);
	sbuf_init(&tb);
	nb_cli_show_config_body(&ta, a);
	nb_cli_show_config_body(&tb, b);
	nb_text_diff(&vty->out, ta.buf ? ta.buf : "", tb.buf ? tb.buf : "");
	sbuf_free(&ta);
	sbuf_free(&tb);
	lyd_free_all(a);
	lyd_free_all(b);
}

DEFCMD(show_config_running, "show configuration running [json]",
       "Show running system information\n"
       "Configuration information\n"
       "Running configuration\n"
       "The configuration data tree as JSON (RFC 7951)\n")
{
	if (cmd_has(args, "json"))
		print_json_tree(vty, nb_running());
	else
		nb_cli_show_config(&vty->out, nb_running());
	return CMD_SUCCESS;
}

DEFCMD(show_config_candidate, "show configuration candidate [<json|changes>]",
       "Show running system information\n"
       "Configuration information\n"
       "Candidate configuration (this session's; running outside configure private)\n"
       "The configuration data tree as JSON (RFC 7951)\n"
       "Show changes applied in the candidate configuration\n")
{
	const struct lyd_node *tree =
		vty->candidate ? nb_candidate_tree(vty->candidate) : nb_running();

	if (cmd_has(args, "changes"))
		print_changes(vty, nb_running(), tree);
	else
		print_tree(vty, tree, cmd_has(args, "json"));
	return CMD_SUCCESS;
}

static void format_time(int64_t epoch, char *buf, size_t size)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
	else
		snprintf(buf, size, "%" PRId64, epoch);
}

static void list_transactions(struct vty *vty, bool json)
{
	uint32_t pending_id;
	int64_t left;
	bool pending = nb_confirm_pending(&pending_id, &left);
	char date[32];

	if (json) {
		struct json_writer w;

		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_array_open(&w, "transactions");
		for (int i = nb_history_count() - 1; i >= 0; i--) {
			const struct nb_transaction *t = nb_history_get(i);

			format_time(t->epoch, date, sizeof(date));
			json_object_open(&w, NULL);
			json_uint(&w, "id", t->id);
			json_string(&w, "source", nb_source_name(t->source));
			json_string(&w, "date", date);
			json_int(&w, "epoch", t->epoch);
			json_uint(&w, "changes", t->changes);
			json_string(&w, "label", t->label);
			json_string(&w, "comment", t->comment);
			json_object_close(&w);
		}
		json_array_close(&w);
		if (pending) {
			json_object_open(&w, "confirmedCommit");
			json_uint(&w, "id", pending_id);
			json_int(&w, "remainingMs", left);
			json_object_close(&w);
		}
		json_object_close(&w);
		json_end(&w);
		return;
	}
	if (pending)
		vty_out(vty,
			"Confirmed commit #%u pending: reverts in %" PRId64 ":%02" PRId64
			" unless confirmed with \"commit\".\n\n",
			pending_id, left / 60000, (left / 1000) % 60);
	if (nb_history_count() == 0) {
		vty_out(vty, "No configuration transactions to display.\n");
		return;
	}
	vty_out(vty, "%-14s  %-8s  %-19s  %7s  %s\n", "Transaction ID", "Source", "Date", "Changes",
		"Comment");
	vty_out(vty, "--------------  --------  -------------------  -------  -------\n");
	for (int i = nb_history_count() - 1; i >= 0; i--) {
		const struct nb_transaction *t = nb_history_get(i);

		format_time(t->epoch, date, sizeof(date));
		vty_out(vty, "%14u  %-8s  %-19s  %7u  %s%s%s%s\n", t->id, nb_source_name(t->source),
			date, t->changes, t->label[0] ? "[" : "", t->label, t->label[0] ? "] " : "",
			t->comment);
	}
}

static int show_transaction(struct vty *vty, uint32_t id, bool json, bool changes)
{
	struct lyd_node *tree, *prev = NULL;
	struct nb_error err;
	bool empty, prev_empty = false;

	tree = nb_history_config(id, &empty, &err);
	if (!tree && !empty) {
		vty_out(vty, "%% %s.\n", err.msg);
		return CMD_WARNING;
	}
	if (changes) {
		if (id > 1) {
			prev = nb_history_config(id - 1, &prev_empty, &err);
			if (!prev && !prev_empty)
				vty_out(vty,
					"%% Transaction %u is no longer kept: changes from an "
					"empty configuration\n",
					id - 1);
		}
		print_changes(vty, prev, tree);
	} else {
		print_tree(vty, tree, json);
	}
	lyd_free_all(prev);
	lyd_free_all(tree);
	return CMD_SUCCESS;
}

DEFCMD(show_config_transaction,
       "show configuration transaction [(1-4294967295)$id [<json|changes>]]",
       "Show running system information\n"
       "Configuration information\n"
       "Configuration transaction\n"
       "Transaction ID\n"
       "The configuration data tree as JSON (RFC 7951)\n"
       "Show changes compared to the previous transaction\n")
{
	if (!cmd_has(args, "id")) {
		list_transactions(vty, false);
		return CMD_SUCCESS;
	}
	return show_transaction(vty, (uint32_t)cmd_arg_u64(args, "id", 0), cmd_has(args, "json"),
				cmd_has(args, "changes"));
}

DEFCMD(show_config_commits, "show configuration commits [json]",
       "Show running system information\n"
       "Configuration information\n"
       "The last commits (same as show configuration transaction)\n"
       "The configuration data tree as JSON (RFC 7951)\n")
{
	list_transactions(vty, cmd_has(args, "json"));
	return CMD_SUCCESS;
}

DEFCMD(rollback_config, "rollback configuration (1-4294967295)$id",
       "Rollback to a previous state\n"
       "Running configuration\n"
       "Transaction ID\n")
{
	uint32_t id = (uint32_t)cmd_arg_u64(args, "id", 0), txid;
	struct nb_candidate *c;
	struct lyd_node *tree;
	char comment[NB_COMMENT_MAX + 1];
	struct nb_error err;
	bool empty;
	int ret;

	if (nb_cli_locked_by_other(vty)) {
		vty_out(vty, "%% Configuration is locked by another VTY (configure exclusive)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	tree = nb_history_config(id, &empty, &err);
	if (!tree && !empty) {
		vty_out(vty, "%% %s.\n", err.msg);
		return CMD_WARNING;
	}
	c = nb_candidate_new_from(tree);
	lyd_free_all(tree);
	snprintf(comment, sizeof(comment), "Rollback to transaction %u", id);
	nb_candidate_set_origin(c, NB_SRC_ROLLBACK, NULL, comment);
	ret = nb_candidate_commit_id(c, &txid, &err);
	nb_candidate_free(c);
	if (ret < 0) {
		vty_out(vty, "%% Rollback failed: %s\n", err.msg);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (!txid) {
		vty_out(vty, "%% Aborting - no configuration changes detected.\n");
		return CMD_WARNING;
	}
	vty_out(vty, "%% Configuration was successfully rolled back (Transaction ID #%u).\n", txid);
	return CMD_SUCCESS;
}

void nb_txn_cli_init(void)
{
	static const struct cmd_def *const config_cmds[] = {
		&config_commit_cmd,	      &config_commit_check_cmd, &config_discard_cmd,
		&config_update_cmd,	      &show_config_running_cmd, &show_config_candidate_cmd,
		&show_config_transaction_cmd, &show_config_commits_cmd,
	};

	cmd_set_config_hooks(config_enter_hook, config_leave_hook);
	cmd_install(ENABLE_NODE, &config_private_cmd);
	cmd_install(ENABLE_NODE, &config_exclusive_cmd);
	cmd_install(ENABLE_NODE, &show_config_running_cmd);
	cmd_install(ENABLE_NODE, &show_config_candidate_cmd);
	cmd_install(ENABLE_NODE, &show_config_transaction_cmd);
	cmd_install(ENABLE_NODE, &show_config_commits_cmd);
	cmd_install(ENABLE_NODE, &rollback_config_cmd);
	for (int node = 0; node < NODE_TYPE_MAX; node++) {
		if (!cmd_node_is_config((enum node_type)node))
			continue;
		for (size_t i = 0; i < array_size(config_cmds); i++)
			cmd_install((enum node_type)node, config_cmds[i]);
	}
}
