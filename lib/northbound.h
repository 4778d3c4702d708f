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
};

struct nb_module_info {
	const char *name;		  /* the YANG module */
	const struct nb_node_info *nodes; /* ends with an entry whose xpath is NULL */
};

/*
 * An error for the operator: msg is what went wrong in their words (no "% " prefix; the CLI
 * adds it), xpath the data node at fault when one is known. validation is true when the
 * configuration itself is at fault (libyang or a VALIDATE callback refused it), false when a
 * resource failed (PREPARE) or another session committed in between.
 */
struct nb_error {
	char msg[512];
	char xpath[1024];
	bool validation;
};

/* Start-up/shutdown of the northbound (libyang context, running tree, module registry). */
void nb_init(void);
void nb_terminate(void);
/* Load a YANG module and attach its callbacks. A table entry naming no schema node is a bug:
 * the daemon aborts with the path. Modules print in registration order. */
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

/* The running configuration (NULL when empty). */
const struct lyd_node *nb_running(void);
/* Bumped by every successful commit that changed something. */
uint64_t nb_running_version(void);

struct nb_candidate;
/* A copy of running. */
struct nb_candidate *nb_candidate_new(void);
void nb_candidate_free(struct nb_candidate *c);
const struct lyd_node *nb_candidate_tree(const struct nb_candidate *c);
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
/* The changes a commit would make, in callback order (after validating): for tests and
 * `show` commands. cb gets the operation and the node's data path. */
typedef void (*nb_change_cb)(enum nb_operation op, const char *xpath, void *arg);
int nb_candidate_changes(struct nb_candidate *c, nb_change_cb cb, void *arg, struct nb_error *err);

/*
 * Configuration files (lib/config_file.c): a sequence of CLI commands in FRR syntax, run on a
 * file vty (walk-up on) into ONE candidate, a copy of running (empty at start-up, so the file
 * is the configuration), committed once at the end: all or nothing. Errors go to errors as
 * "FILE:LINE: message\n" (the line after which the configuration went wrong), or
 * "FILE: message" when no line is to blame. nb_config_check_file(): the same up to and
 * including the VALIDATE callbacks (bgpd -C); nothing is applied. Both return 0 or -1.
 */
int nb_config_load_file(const char *path, struct sbuf *errors);
int nb_config_check_file(const char *path, struct sbuf *errors);

#endif /* SKUA_NORTHBOUND_H */
