/* SPDX-License-Identifier: ISC */
/*
 * What bgpd's configuration commands share (the command files of this folder only): the
 * PEER argument of the neighbor commands, the builders of the edits they queue, and the
 * installation of a node's commands from a table.
 *
 * The commands (FRR syntax and messages) check what only the CLI knows (the neighbor must
 * exist, host bits, which instance), then queue edits of the skua-bgp model. Types, ranges and
 * the relations between settings are the model's job, so the config file, vtysh and any later
 * door refuse the same things the same way.
 */
#ifndef SKUA_BGP_CLI_PRIVATE_H
#define SKUA_BGP_CLI_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "bgpd/config/bgp_cli_help.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/vty.h"

/* PEER: a neighbor's address or a peer-group's name. */
#define NEIGHBOR_CMD "neighbor <A.B.C.D|X:X::X:X|WORD>$peer"
#define NEIGHBOR_STR                \
	"Specify neighbor router\n" \
	"Neighbor address\n"        \
	"Neighbor IPv6 address\n"   \
	"Neighbor tag (peer-group name)\n"
/* Where only a neighbor makes sense (peer-group membership). */
#define NEIGHBOR_ADDR_CMD "neighbor <A.B.C.D|X:X::X:X>$peer"
#define NEIGHBOR_ADDR_STR           \
	"Specify neighbor router\n" \
	"Neighbor address\n"        \
	"Neighbor IPv6 address\n"
#define XPATH_MAX VTY_XPATH_LEN

/* The neighbor address of $peer in canonical form (list keys must match what is stored); -1
 * with the message printed when it is not an address. */
int bgp_cli_peer_arg(struct vty *vty, const struct cmd_args *args, char *buf, size_t size);
/* Is $peer a peer-group name? Not when it is, or looks like, an address (a malformed one is
 * reported as such). */
bool bgp_cli_peer_is_group(const struct cmd_args *args);
/* A peer-group name the edits can quote; false with the message printed. */
bool bgp_cli_name_ok(struct vty *vty, const char *name);
/* The data path of the neighbor or peer-group $peer names, which must exist (FRR's messages
 * otherwise); -1 when it does not. */
int bgp_cli_peer_base(struct vty *vty, const struct cmd_args *args, char *base, size_t size);
/* Queue one edit of leaf (a path below the neighbor or peer-group) and apply it. */
int bgp_cli_peer_edit(struct vty *vty, const struct cmd_args *args, const char *leaf,
		      enum nb_operation op, const char *value);
/* `[no] neighbor PEER <flag>`: the empty leaf is set, or removed by the negation. */
int bgp_cli_peer_flag(struct vty *vty, const struct cmd_args *args, const char *leaf);

/* Install a node's commands from its table, in the table's order. */
void bgp_cli_install(enum node_type node, const struct cmd_def *const *defs, size_t n);

/* The commands of one concern each, called by bgp_cli_init(). */
void bgp_cli_instance_init(void);	   /* router bgp and the instance's settings */
void bgp_cli_neighbor_init(void);	   /* neighbors and peer-groups: which exist, membership */
void bgp_cli_neighbor_settings_init(void); /* what a neighbor or peer-group is set to */
void bgp_cli_af_init(void);		   /* address-family and what is configured in one */

#endif /* SKUA_BGP_CLI_PRIVATE_H */
