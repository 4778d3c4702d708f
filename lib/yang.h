/* SPDX-License-Identifier: ISC */
/*
 * libyang glue: the one context skua uses, where modules are found, and small helpers to read
 * data nodes by relative XPath (what callbacks and printers need: "../keepalive",
 * "remote-address").
 *
 * Module search order: $SKUA_YANG_DIR, then the installed directory (YANG_MODULES_DIR, when it
 * exists), then the source tree (YANG_SRC_DIR), so an uninstalled build and its tests work, and
 * an operator can point at a patched model without rebuilding.
 */
#ifndef SKUA_YANG_H
#define SKUA_YANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libyang/libyang.h>

/* Create the context (idempotent). Returns 0 or -1 (message on stderr and in the log). */
int yang_init(void);
void yang_terminate(void);
struct ly_ctx *yang_ctx(void);

/* Load (and implement) a module by name from the search path above; NULL with a message in
 * err when it cannot be found or does not compile. */
const struct lys_module *yang_module_load(const char *name, char *err, size_t errlen);

/*
 * Relative lookups from a data node: fmt is an XPath (printf format) evaluated with dnode as
 * context ("../hold-time", "neighbor-remote-as/remote-as"); NULL or "" means dnode itself.
 * The first match is returned.
 */
const struct lyd_node *yang_dnode_get(const struct lyd_node *dnode, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool yang_dnode_exists(const struct lyd_node *dnode, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The canonical value of a leaf, or NULL when the node does not exist. */
const char *yang_dnode_get_string(const struct lyd_node *dnode, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Numeric/boolean values; dflt when the node does not exist. */
uint64_t yang_dnode_get_uint(const struct lyd_node *dnode, uint64_t dflt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool yang_dnode_get_bool(const struct lyd_node *dnode, bool dflt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A default node that validation added, not one the configuration set. */
bool yang_dnode_is_default(const struct lyd_node *dnode);
/* The data path ("/skua-bgp:bgp/neighbors/neighbor[remote-address='10.0.0.1']"). */
const char *yang_dnode_path(const struct lyd_node *dnode, char *buf, size_t size);
/* The nearest ancestor-or-self whose schema node is called name, or NULL. */
const struct lyd_node *yang_dnode_ancestor(const struct lyd_node *dnode, const char *name);

/* A data path without its predicates: the schema path libyang's lys_find_path() takes. */
void yang_path_strip_predicates(const char *path, char *buf, size_t size);
/* The value of the first predicate [name='value'] of a data path, or false. */
bool yang_path_key(const char *path, const char *name, char *buf, size_t size);

/* Is data path a the node of data path b or one of its ancestors ("/x:a/b[k='v']" covers
 * itself and "/x:a/b[k='v']/c", not "/x:a/bc")? */
bool yang_path_covers(const char *a, const char *b);

#endif /* SKUA_YANG_H */
