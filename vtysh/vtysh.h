/* SPDX-License-Identifier: ISC */
/*
 * vtysh: a thin client of bgpd's vty socket. The daemon executes, describes (`?`) and
 * completes (TAB); vtysh edits lines, keeps history and runs batches (-c, -f, -b, stdin).
 */
#ifndef SKUA_VTYSH_H
#define SKUA_VTYSH_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/memory.h"
#include "lib/sbuf.h"

DECLARE_MTYPE(VTYSH); /* vtysh/vtysh_client.c: lines and replies */

struct vtysh_client {
	int fd;
	const char *path;
};

/* Connect to the daemon's socket. 0, or -errno (nothing printed). */
int vtysh_connect(struct vtysh_client *c, const char *path);
void vtysh_disconnect(struct vtysh_client *c);
/* Print "vtysh: cannot connect to bgpd at PATH: why (hint)" to stderr. */
void vtysh_connect_error(const char *path, int err);

/*
 * One request (kind 'x', '?', 't' or 'p'; see lib/vty.h) and its reply. The reply text is
 * written to out as it arrives when out is not NULL, else appended to text. Returns the
 * status byte (enum cmd_result), or -errno when the connection failed (-EPIPE: the daemon
 * closed it).
 */
int vtysh_request(struct vtysh_client *c, char kind, const char *line, FILE *out,
		  struct sbuf *text);

/*
 * Execute one command line ('x'), its output to out. A show command may end in an output
 * filter, `| include|exclude|begin|count REGEX` (vtysh/vtysh_filter.c): the daemon gets the
 * command without it, and the reply is filtered here. Returns as vtysh_request(); a bad
 * filter is reported on out and returns CMD_WARNING_CONFIG_FAILED, the daemon not asked.
 */
int vtysh_execute(struct vtysh_client *c, const char *line, FILE *out);

/* Did the command succeed (CMD_SUCCESS or CMD_WARNING)? */
bool vtysh_status_ok(int status);

/* The interactive shell (libedit). Returns the exit status. */
int vtysh_interactive(struct vtysh_client *c);

#endif /* SKUA_VTYSH_H */
