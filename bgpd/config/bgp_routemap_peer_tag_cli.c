/* SPDX-License-Identifier: ISC */
/*
 * `match peer`, `match tag` and `set tag` in route-maps, FRR 8.4's syntax (see
 * bgp_routemap_peer_tag.h; what they mean: bgpd/policy/bgp_routemap.h). FRR's zebra-only
 * `match source-protocol` is not here: bgp_cli_unsupported.c says why.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/config/bgp_routemap_peer_tag.h"
#include "bgpd/policy/bgp_routemap.h"
#include "lib/command.h"
#include "lib/sbuf.h"
#include "lib/vty.h"
#include "lib/yang.h"

void rmap_peer_tag_from_dnode(struct rmap_entry *e, const struct lyd_node *dnode)
{
	const char *peer = yang_dnode_get_string(dnode, "match/peer");

	if (peer && strcmp(peer, "local") == 0) {
		e->match_peer = RMAP_PEER_LOCAL;
	} else if (peer && ipaddr_from_str(&e->match_peer_addr, peer) == 0) {
		e->match_peer = RMAP_PEER_ADDR;
	} else if (peer) {
		e->match_peer = RMAP_PEER_IFNAME;
		e->match_peer_ifname = XSTRDUP(MTYPE_BGP_ROUTEMAP, peer);
	}
	e->match_tag_set = yang_dnode_exists(dnode, "match/tag");
	e->match_tag = (uint32_t)yang_dnode_get_uint(dnode, 0, "match/tag");
	e->tag_set = yang_dnode_exists(dnode, "set/tag");
	e->tag = (uint32_t)yang_dnode_get_uint(dnode, 0, "set/tag");
}

static void leaf_line(struct sbuf *out, const struct lyd_node *dnode, const char *leaf,
		      const char *cmd)
{
	const char *v = yang_dnode_get_string(dnode, "%s", leaf);

	if (v)
		sbuf_printf(out, " %s %s\n", cmd, v);
}

void rmap_match_peer_show(struct sbuf *out, const struct lyd_node *dnode)
{
	leaf_line(out, dnode, "match/peer", "match peer");
}

void rmap_match_tag_show(struct sbuf *out, const struct lyd_node *dnode)
{
	leaf_line(out, dnode, "match/tag", "match tag");
}

void rmap_set_tag_show(struct sbuf *out, const struct lyd_node *dnode)
{
	leaf_line(out, dnode, "set/tag", "set tag");
}

#define MATCH_STR "Match values from routing table\n"
#define SET_STR "Set values in destination routing protocol\n"
#define PEER_HELP "Match peer address\n"
#define TAG_MATCH_HELP         \
	"Match tag of route\n" \
	"Tag value\n"
#define TAG_SET_HELP                       \
	"Tag value for routing protocol\n" \
	"Tag value\n"

DEFCMD(match_peer_v4, "match peer A.B.C.D$addr", MATCH_STR PEER_HELP "IP address of peer\n")
{
	return rmap_stmt_edit(vty, "match/peer", cmd_arg(args, "addr"), false);
}

DEFCMD(match_peer_v6, "match peer X:X::X:X$addr", MATCH_STR PEER_HELP "IPv6 address of peer\n")
{
	return rmap_stmt_edit(vty, "match/peer", cmd_arg(args, "addr"), false);
}

DEFCMD(match_peer_local, "match peer local", MATCH_STR PEER_HELP "Static or Redistributed routes\n")
{
	return rmap_stmt_edit(vty, "match/peer", "local", false);
}

DEFCMD(match_peer_ifname, "match peer WORD$ifname", MATCH_STR PEER_HELP "Interface name of peer\n")
{
	return rmap_stmt_edit(vty, "match/peer", cmd_arg(args, "ifname"), false);
}

/* FRR takes any of the forms after `no match peer`, or none. */
DEFCMD(no_match_peer, "no match peer [WORD]",
       NO_STR MATCH_STR PEER_HELP "IP address, IPv6 address, local or interface name of peer\n")
{
	return rmap_stmt_edit(vty, "match/peer", NULL, true);
}

DEFCMD(match_tag, "match tag (0-4294967295)$tag", MATCH_STR TAG_MATCH_HELP)
{
	return rmap_stmt_edit(vty, "match/tag", cmd_arg(args, "tag"), false);
}

DEFCMD(no_match_tag, "no match tag [(1-4294967295)]", NO_STR MATCH_STR TAG_MATCH_HELP)
{
	return rmap_stmt_edit(vty, "match/tag", NULL, true);
}

DEFCMD(set_tag, "set tag (0-4294967295)$tag", SET_STR TAG_SET_HELP)
{
	return rmap_stmt_edit(vty, "set/tag", cmd_arg(args, "tag"), false);
}

DEFCMD(no_set_tag, "no set tag [(1-4294967295)]", NO_STR SET_STR TAG_SET_HELP)
{
	return rmap_stmt_edit(vty, "set/tag", NULL, true);
}

void bgp_routemap_peer_tag_cli_init(void)
{
	static const struct cmd_def *cmds[] = {
		&match_peer_v4_cmd,	&match_peer_v6_cmd, &match_peer_local_cmd,
		&match_peer_ifname_cmd, &no_match_peer_cmd, &match_tag_cmd,
		&no_match_tag_cmd,	&set_tag_cmd,	    &no_set_tag_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(RMAP_NODE, cmds[i]);
}
