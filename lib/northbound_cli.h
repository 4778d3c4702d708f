/* SPDX-License-Identifier: ISC */
/*
 * Configuration commands on top of the northbound (FRR's nb_cli_* pattern):
 *
 *   DEFCMD(bgp_router_id, "bgp router-id A.B.C.D", ...)
 *   {
 *           nb_cli_enqueue_change(vty, "./router-id", NB_OP_MODIFY, cmd_arg(args, "A.B.C.D"));
 *           return nb_cli_apply_changes(vty, NULL);
 *   }
 *
 * A handler only queues edits; nb_cli_apply_changes() applies them. Where they go depends on
 * the vty:
 *   - vty->candidate set: a configuration file being loaded (committed once at the end,
 *     lib/config_file.c), or a `configure private|exclusive` session (committed by `commit`,
 *     lib/northbound_txn_cli.c; a command's edits go in all together or not at all);
 *   - otherwise (vtysh, `configure terminal`): into a fresh copy of running that is committed
 *     at once: each command is its own transaction, and a refused command changes nothing.
 * Relative paths ("./x") are relative to the xpath of the node the vty is in (vty->xpath,
 * pushed by nb_cli_enter_node()).
 */
#ifndef SKUA_NORTHBOUND_CLI_H
#define SKUA_NORTHBOUND_CLI_H

#include <stdbool.h>

#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/sbuf.h"

struct vty;

/* Edits one command may queue (a handful in practice). */
#define NB_CLI_MAX_CHANGES 16

void nb_cli_enqueue_change(struct vty *vty, const char *xpath, enum nb_operation op,
			   const char *value);
/* Apply the queued edits; xpath_base_fmt (printf, may be NULL) replaces the node's xpath as the
 * base of relative paths. Prints "% <message>" and returns CMD_WARNING_CONFIG_FAILED when the
 * edit or the commit is refused; CMD_SUCCESS otherwise. */
int nb_cli_apply_changes(struct vty *vty, const char *xpath_base_fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Drop queued edits (a handler that gives up after queueing). */
void nb_cli_discard_changes(struct vty *vty);

/* Told the absolute xpath of every edit a command applies (lib/config_file.c uses it to know
 * which lines of a file touched which nodes). NULL to stop. */
typedef void (*nb_cli_edit_observer)(const char *xpath, void *arg);
void nb_cli_set_edit_observer(nb_cli_edit_observer cb, void *arg);

/* Enter a config node whose context is xpath (`router bgp`, `address-family`). */
void nb_cli_enter_node(struct vty *vty, enum node_type node, const char *xpath);
/* The tree this vty's commands edit: the file's candidate, or running. */
const struct lyd_node *nb_cli_config_tree(const struct vty *vty);
/* Lookups in that tree by absolute xpath (printf). */
const struct lyd_node *nb_cli_get(const struct vty *vty, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool nb_cli_exists(const struct vty *vty, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print a tree the way `show running-config` does (FRR layout, "Building configuration..."
 * through "end"), walking the per-node printers of every registered module in order. */
void nb_cli_show_config(struct sbuf *out, const struct lyd_node *tree);
/* Only the configuration lines (no header, no "end"): what the printers produce. */
void nb_cli_show_config_body(struct sbuf *out, const struct lyd_node *tree);

/* Install `show running-config [json]` and `write terminal` (ENABLE node), the session and
 * transaction commands (nb_txn_cli_init) and the startup-file commands
 * (nb_config_save_cli_init). Call after every config node is installed (the transaction
 * commands go into each). */
void nb_cli_init(void);

/* lib/northbound_txn_cli.c: configure private|exclusive, commit ..., discard, update,
 * show configuration ..., rollback configuration N; the config mode enter/leave hooks. */
void nb_txn_cli_init(void);
/* This vty edits a private candidate (configure private|exclusive). */
bool nb_cli_session_private(const struct vty *vty);
/* Another vty holds `configure exclusive`. */
bool nb_cli_locked_by_other(const struct vty *vty);

/* lib/config_save.c: write [memory|file], copy running-config startup-config,
 * show startup-config, clear configuration reload. */
void nb_config_save_cli_init(void);

/* lib/northbound_diff.c: the lines that differ between two printed configurations, as
 * "- old" / "+ new" under the block lines that enclose them ("  router bgp 1"). */
void nb_text_diff(struct sbuf *out, const char *from, const char *to);

#endif /* SKUA_NORTHBOUND_CLI_H */
