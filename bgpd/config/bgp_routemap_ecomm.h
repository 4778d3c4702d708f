/* SPDX-License-Identifier: ISC */
/*
 * The extended community statements of a route-map entry (bgp_routemap_ecomm_cli.c), for
 * bgp_routemap_cli.c, which builds and prints whole entries.
 */
#ifndef SKUA_BGP_ROUTEMAP_ECOMM_H
#define SKUA_BGP_ROUTEMAP_ECOMM_H

#include <stdbool.h>

#include "lib/sbuf.h"
#include "lib/yang.h"

struct rmap_entry;
struct vty;

/* The entry's extended community statements from its node (e's other fields are set). */
void rmap_ecomm_from_dnode(struct rmap_entry *e, const struct lyd_node *dnode);
/* " match extcommunity NAME\n", and the set statements in FRR's order. */
void rmap_ecomm_show_match(struct sbuf *out, const struct lyd_node *dnode);
void rmap_ecomm_show_set(struct sbuf *out, const struct lyd_node *dnode);
/* Commands and VALIDATE callbacks; called by bgp_routemap_cli_init(). */
void bgp_routemap_ecomm_cli_init(void);

/* bgp_routemap_cli.c's: set (value, or NULL for an empty leaf) or remove a statement of the
 * entry the vty is in. */
int rmap_stmt_edit(struct vty *vty, const char *leaf, const char *value, bool no);

#endif /* SKUA_BGP_ROUTEMAP_ECOMM_H */
