/* SPDX-License-Identifier: ISC */
/*
 * Route-map statements on the neighbor and the tag (bgp_routemap_peer_tag_cli.c), kept apart
 * from bgp_routemap_cli.c, which calls these to read and print them:
 *
 *    match peer A.B.C.D|X:X::X:X|local|IFNAME | match tag (1-4294967295)
 *    set tag (1-4294967295)
 */
#ifndef SKUA_BGP_ROUTEMAP_PEER_TAG_H
#define SKUA_BGP_ROUTEMAP_PEER_TAG_H

#include <stdbool.h>

struct lyd_node;
struct rmap_entry;
struct sbuf;
struct vty;

/* The statements' leaves of an entry node into e. */
void rmap_peer_tag_from_dnode(struct rmap_entry *e, const struct lyd_node *dnode);
/* Their lines, where FRR 8.4 prints them among the others: match peer after match
 * large-community, match tag after the other matches, set tag between set origin and set weight. */
void rmap_match_peer_show(struct sbuf *out, const struct lyd_node *dnode);
void rmap_match_tag_show(struct sbuf *out, const struct lyd_node *dnode);
void rmap_set_tag_show(struct sbuf *out, const struct lyd_node *dnode);
/* Installs the commands in the route-map node. */
void bgp_routemap_peer_tag_cli_init(void);

/* bgp_routemap_cli.c's edit of one statement leaf of the entry being configured (value NULL
 * with no: remove it). */
int rmap_stmt_edit(struct vty *vty, const char *leaf, const char *value, bool no);

#endif /* SKUA_BGP_ROUTEMAP_PEER_TAG_H */
