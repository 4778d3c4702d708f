/* SPDX-License-Identifier: ISC */
/*
 * The northbound: configuration as a YANG data tree (FRR's lib/northbound idea).
 *
 * Every configuration door (config file, vtysh) edits a *candidate* tree, a copy of *running*.
 * A commit validates the whole candidate with libyang (types, ranges, must, mandatory, when),
 * diffs it against running and hands the differences to callbacks registered per schema node,
 * in phases:
 *
 *   VALIDATE  every change; a callback may refuse (errmsg says why). Nothing is touched yet.
 *   PREPARE   every change; a callback may allocate what APPLY will need (args->resource).
 *             If one fails, ABORT runs for the changes already prepared, in reverse order.
 *   APPLY     every change; cannot fail. Then apply_finish of every node (and ancestor) that
 *             changed, once each.
 *
 * Changes come in schema order: a created subtree parent first, then its children; a deleted
 * subtree children first, but only the topmost node that has a destroy callback is told (its
 * destroy frees what is below it, e.g. a neighbor and all its settings).
 * If any step before APPLY fails, running and the daemon's objects stay exactly as they were.
 */
#ifndef SKUA_NORTHBOUND_H
#define SKUA_NORTHBOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libyang/libyang.h>

#include "lib/memory.h"
#include "lib/sbuf.h"

DECLARE_MTYPE(NB_CANDIDATE);
DECLARE_MTYPE(NB_TXN);

enum nb_operation {
	NB_OP_CREATE = 0, /* presence containers, list entries, leaves (type empty or not) */
	NB_OP_MODIFY,	  /* a leaf's value (creates it when absent) */
	NB_OP_DESTROY,	  /* removing a node that does not exist is not an error (FRR) */
};

enum nb_event {
	NB_EV_VALIDATE = 0,
	NB_EV_PREPARE,
	NB_EV_ABORT,
	NB_EV_APPLY,
};

const char *nb_operation_name(enum nb_operation op);
const char *nb_event_name(enum nb_event ev);

/* Callback results. */
#define NB_OK 0
#define NB_ERR (-1)

struct nb_cb_args {
	enum nb_event event;
	enum nb_operation op;
	/* create/modify: the node in the new (candidate) tree; destroy: in the old (running) tree;
	 * apply_finish: in the new tree. */
	const struct lyd_node *dnode;
	/* modify of an existing leaf: the node with the old value (running), else NULL. */
	const struct lyd_node *old_dnode;
	/* Per change: PREPARE may set it, APPLY takes it over, ABORT frees it. */
	void **resource;
	char *errmsg; /* VALIDATE/PREPARE failures: why, in operator language */
	size_t errmsg_len;
};

struct nb_callbacks {
	int (*create)(struct nb_cb_args *args);
	int (*modify)(struct nb_cb_args *args);
	int (*destroy)(struct nb_cb_args *args);
	/* After every APPLY of the commit, for each changed node (or changed descendant). */
	void (*apply_finish)(struct nb_cb_args *args);
	/* show running-config: print this node (and the end of its block after its children). */
	void (*cli_show)(struct sbuf *out, const struct lyd_node *dnode);
	void (*cli_show_end)(struct sbuf *out, const struct lyd_node *dnode);
	/* List entries print in this order (FRR prints peers and prefixes sorted). */
	int (*cli_cmp)(const struct lyd_node *a, const struct lyd_node *b);
};

struct nb_node_info {
	const char *xpath; /* schema path: "/skua-bgp:bgp/neighbors/neighbor/description" */
	struct nb_callbacks cbs;
	/* When this mandatory node is missing, say this (e.g. FRR's "Specify remote-as or
	 * peer-group commands first"). */
	const char *missing_msg;
	/* A leaf with a default: a value set explicitly to the default is normally not
	 * configuration (it is dropped before validation, so it neither prints nor shows in
	 * JSON, as FRR hides `timers bgp 60 180`). Set this where FRR prints what was set even
	 * when it equals the default (`neighbor X timers connect 120`). */
	bool keep_explicit_default;
};

struct nb_module_info {
	const char *name;		  /* the YANG module */
	const struct nb_node_info *nodes; /* ends with an entry whose xpath is NULL */
	/* Constraints over the whole candidate that the model cannot state (resource limits,
	 * such as how many GTSM rules a listener program holds): called once per validation
	 * in which this module changed, after the node callbacks, with the candidate tree.
	 * NB_OK, or NB_ERR with errmsg (operator language) and xpath (the node at fault, or
	 * ""). Optional. */
	int (*validate_tree)(const struct lyd_node *tree, char *errmsg, size_t errlen, char *xpath,
			     size_t xpathlen);
	/*
	 * The tree as written -> the effective tree (e.g. peer-group members filled in from
	 * their group, runtime entries such as dynamic neighbors added): called on a copy of
	 * every validated candidate before it is compared with the effective running tree, so
	 * the callbacks, validate_tree and the libyang constraints all see effective trees and
	 * the printers, history and files the tree as written. Edits tree in place (may add or
	 * remove nodes of its module); NB_OK, or NB_ERR with errmsg and xpath. Optional.
	 */
	int (*expand_tree)(struct lyd_node **tree, char *errmsg, size_t errlen, char *xpath,
			   size_t xpathlen);
};

/*
 * An error for the operator: msg is what went wrong in their words (no "% " prefix; the CLI
 * adds it), xpath the data node at fault when one is known. validation is true when the
 * configuration itself is at fault (libyang or a VALIDATE callback refused it), false when a
 * resource failed (PREPARE) or another session committed in between.
 */
struct nb_error {
	char msg[1024];
	char xpath[1024];
	bool validation;
	/* From libyang's parsers (JSON files): the line it reported (0: none); value_error: a
	 * data error (a value, a must, a missing node) that xpath pins better than that line,
	 * which libyang reports after reading on; duplicate: a node given twice. */
	unsigned line;
	bool value_error;
	bool duplicate;
};

/* Start-up/shutdown of the northbound (libyang context, running tree, module registry). */
void nb_init(void);
void nb_terminate(void);
/* Load a YANG module and attach its callbacks. A table entry naming no schema node is a bug:
 * the daemon aborts with the path. Modules print in registration order. A module may be
 * registered with several tables (callbacks living in several files); it prints where it
 * was first registered. */
void nb_module_register(const struct nb_module_info *info);
/* The registered modules, in registration (printing) order. */
int nb_module_count(void);
const struct lys_module *nb_module_get(int i);
/* The info registered for a schema node, or NULL. */
const struct nb_node_info *nb_node_info_of(const struct lysc_node *snode);
/* Every config leaf (not a list key) with neither a callback of its own nor an apply_finish
 * above it, one schema path per line: a setting nobody applies would be a silent no-op
 * (for tests). Returns the count. */
int nb_check_coverage(struct sbuf *missing);

/* The running configuration as written (NULL when empty): what prints and saves. */
const struct lyd_node *nb_running(void);
/*
 * Runtime input of an expand_tree changed (a dynamic neighbor came or went): expand running
 * again and hand the differences to the callbacks, as a commit would, without changing the
 * configuration as written, its version or the history. 0, or -1 with err (nothing applied).
 */
int nb_running_reexpand(struct nb_error *err);
/* Bumped by every successful commit that changed something. */
uint64_t nb_running_version(void);

/* Where a commit came from, for the history (`show configuration commits`). */
enum nb_source {
	NB_SRC_VTYSH = 0, /* a vtysh session: `configure terminal` command or `commit` */
	NB_SRC_FILE,	  /* the configuration file at start-up */
	NB_SRC_RELOAD,	  /* SIGHUP or `clear configuration reload` */
	NB_SRC_ROLLBACK,  /* `rollback configuration N`, or a confirmed commit timing out */
};
const char *nb_source_name(enum nb_source src);
/* Inside a callback: where the candidate being validated or committed came from (a
 * setting only the configuration file may make checks it). */
enum nb_source nb_commit_source(void);

#define NB_LABEL_MAX 32	  /* commit label WORD */
#define NB_COMMENT_MAX 80 /* commit comment LINE... (FRR's limit) */

struct nb_candidate;
/* A copy of running. */
struct nb_candidate *nb_candidate_new(void);
/* An empty tree (a file read from scratch: reload replaces, it does not merge), made
 * against the current running version. */
struct nb_candidate *nb_candidate_new_empty(void);
/* A copy of tree (a history entry, a saved configuration), against the current version. */
struct nb_candidate *nb_candidate_new_from(const struct lyd_node *tree);
/* A copy of c: same tree, same running version, same origin. */
struct nb_candidate *nb_candidate_copy(const struct nb_candidate *c);
void nb_candidate_free(struct nb_candidate *c);
const struct lyd_node *nb_candidate_tree(const struct nb_candidate *c);
/* The running version the candidate was made from (or rebased onto). */
uint64_t nb_candidate_version(const struct nb_candidate *c);
/* Recorded in the history when the candidate commits a change (default: vtysh, none).
 * label and comment may be NULL; they are cut to NB_LABEL_MAX / NB_COMMENT_MAX. */
void nb_candidate_set_origin(struct nb_candidate *c, enum nb_source src, const char *label,
			     const char *comment);
/* Edit the candidate. xpath is absolute. value: for MODIFY (and leaves of CREATE).
 * Returns 0, or -1 with err filled (type, range, pattern errors of the value, unknown path). */
int nb_candidate_edit(struct nb_candidate *c, enum nb_operation op, const char *xpath,
		      const char *value, struct nb_error *err);
/* libyang validation of the whole candidate, then the VALIDATE callbacks of its changes.
 * Changes nothing outside the candidate (validation adds default nodes to it). */
int nb_candidate_validate(struct nb_candidate *c, struct nb_error *err);
/* Validate, diff against running, run the callbacks; on success running becomes the
 * candidate's tree (and the candidate stays a copy of it). 0 when there was nothing to do. */
int nb_candidate_commit(struct nb_candidate *c, struct nb_error *err);
/* The same; *txid gets the transaction id recorded in the history (0: nothing changed). */
int nb_candidate_commit_id(struct nb_candidate *c, uint32_t *txid, struct nb_error *err);

/*
 * Three-way merge (lib/northbound_merge.c), for candidates that live longer than one command
 * (`configure private`): c was edited starting from base (a copy of running at the time);
 * if running moved on since, c's own changes (base -> c) are replayed onto the current
 * running, and c becomes that, made against the current version. A change of c conflicts
 * with one made to running since base when they touch the same node (or one lies inside the
 * other) with different results: then nothing changes, -1, and err names the setting.
 * force: no merge, c is taken as it is (what others committed since base is undone).
 * c must be valid (libyang) for the comparison; it is validated first.
 */
int nb_candidate_rebase(struct nb_candidate *c, const struct lyd_node *base, bool force,
			struct nb_error *err);
/*
 * The general form: the changes from `from` to `to`, replayed onto the current running;
 * *result gets the merged tree (the caller frees it). Used by the rebase above and by a
 * confirmed commit timing out (the commit's own changes undone, later ones kept).
 */
int nb_merge_onto_running(const struct lyd_node *from, const struct lyd_node *to,
			  struct lyd_node **result, struct nb_error *err);
/* The command a data path stands for, in operator words ("neighbor 10.0.0.1 description
 * LINE..."), from the model's "Maps to:" text. */
void nb_path_command(const char *dpath, char *buf, size_t size);

/*
 * The commit history: the last NB_HISTORY_MAX commits that changed something, each with the
 * whole configuration it produced, so `rollback configuration N` can restore it.
 * Transaction ids start at 1 and grow by one per recorded commit.
 */
#define NB_HISTORY_MAX 50
struct nb_transaction {
	uint32_t id;
	int64_t epoch; /* wall clock, seconds */
	enum nb_source source;
	unsigned changes; /* how many changes the commit applied */
	char label[NB_LABEL_MAX + 1];
	char comment[NB_COMMENT_MAX + 1];
};
/* Entries kept, and the i-th, oldest first (NULL when out of range). */
int nb_history_count(void);
const struct nb_transaction *nb_history_get(int i);
/* The configuration transaction id produced (a new tree: the caller frees it with
 * lyd_free_all; NULL with err filled when the id is unknown or no longer kept, or the
 * configuration was empty, then *empty is set). */
struct lyd_node *nb_history_config(uint32_t id, bool *empty, struct nb_error *err);
/* The id of the last recorded commit (0: none yet). */
uint32_t nb_history_last_id(void);
/* The changes a commit would make, in callback order (after validating): for tests and
 * `show` commands. cb gets the operation and the node's data path. */
typedef void (*nb_change_cb)(enum nb_operation op, const char *xpath, void *arg);
int nb_candidate_changes(struct nb_candidate *c, nb_change_cb cb, void *arg, struct nb_error *err);

/*
 * Configuration files (lib/config_file.c): a sequence of CLI commands in FRR syntax, run on a
 * file vty (walk-up on) into ONE candidate that starts empty (the file is the whole
 * configuration), committed once at the end: all or nothing; or a JSON file (libyang's
 * encoding of the models, nb_config_is_json()) parsed into that candidate. Errors go to
 * errors as "FILE:LINE: message\n" (the line after which the configuration went wrong), or
 * "FILE: message" when no line is to blame. nb_config_check_file(): the same up to and
 * including the VALIDATE callbacks (bgpd -C); nothing is applied. Both return 0 or -1.
 * nb_config_load_file() is recorded in the history as source "file".
 */
int nb_config_load_file(const char *path, struct sbuf *errors);
int nb_config_check_file(const char *path, struct sbuf *errors);
/*
 * Reload: the file read from scratch into an empty candidate (not merged into running),
 * validated as a whole, diffed against running; only the differences reach the callbacks,
 * so what the file did not change stays as it is (sessions included). A refused file changes
 * nothing. Recorded in the history as a reload; *txid (may be NULL) gets its id, 0 when the
 * file matched running. Returns 0 or -1 (errors as above).
 */
int nb_config_reload(const char *path, uint32_t *txid, struct sbuf *errors);
/* JSON (libyang's encoding of the models) rather than CLI text: a name ending in .json, or
 * an existing file whose first non-blank character is '{'. */
bool nb_config_is_json(const char *path);

/*
 * The startup configuration file, the one bgpd was started with (-f, or its default): what
 * SIGHUP and `clear configuration reload` read and `write memory` writes. Made absolute when
 * set (bgpd may chdir later); it need not exist yet.
 */
void nb_config_set_startup(const char *path);
const char *nb_config_startup(void); /* NULL when never set */
/* SIGHUP: reload the startup file; the outcome goes to the log ("FILE:LINE: reason"). */
void nb_config_sighup(void);

/*
 * `write memory` (lib/config_save.c): the running configuration into path, atomically: a
 * temporary file in the same directory, written and fsync()ed, the old file kept as
 * path.sav (hard link, or a copy where links fail), rename() over path, the directory
 * fsync()ed. CLI text, or JSON when path is a JSON file (nb_config_is_json). The file keeps
 * the old one's permissions (new: 0640). Returns 0, or -1 with the reason in err.
 */
int nb_config_save(const char *path, char *err, size_t errlen);
/* The text `write memory` writes: what `show running-config` prints between its header and
 * "end", framed as a file ("!" ... "end"), or the JSON. */
void nb_config_text(struct sbuf *out, bool json);

/*
 * Confirmed commits (lib/northbound_confirm.c): one pending at a time for the daemon. Arm
 * after a commit (before: running before it); unless nb_confirm_accept() comes within
 * minutes (times nb_confirm_unit_ms()), the commit's changes are undone (see the file).
 * Arming again while one is pending extends it and takes the new changes along.
 */
struct event_base;
/* The event loop the timer runs on (bgpd: bgp_event_base); without one, arming fails. */
void nb_set_event_loop(struct event_base *(*get)(void));
/* 60000, or $SKUA_CONFIRM_UNIT_MS (1..60000; for tests only). */
uint32_t nb_confirm_unit_ms(void);
int nb_confirm_arm(const struct lyd_node *before, uint32_t txid, unsigned minutes,
		   struct nb_error *err);
/* Is one pending: its transaction id and the milliseconds left (either may be NULL). */
bool nb_confirm_pending(uint32_t *txid, int64_t *remaining_ms);
void nb_confirm_accept(void);
/* Undo now (the timer's action; tests call it directly). 0, or -1 when even restoring the
 * previous configuration failed (logged). */
int nb_confirm_expire(void);

#endif /* SKUA_NORTHBOUND_H */
