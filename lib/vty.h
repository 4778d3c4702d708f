/* SPDX-License-Identifier: ISC */
/*
 * A vty: one CLI session (a vtysh connection on the UNIX socket, or the config-file reader).
 * Handlers print with vty_out(); config handlers edit the candidate through the northbound
 * (lib/northbound.h) using the vty's xpath context stack.
 *
 * Wire protocol on the UNIX socket (see doc/architecture.md):
 *   request: one byte kind ('x' execute, '?' describe, 't' complete, 'p' prompt) + line + NUL
 *   reply:   text, then three NUL bytes and one status byte (enum cmd_result)
 */
#ifndef SKUA_VTY_H
#define SKUA_VTY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/command.h"
#include "lib/sbuf.h"

struct event_base;
struct nb_candidate;

/* Where bgpd listens and vtysh connects unless told otherwise (--vty-socket). */
#define VTY_DEFAULT_SOCKET "/run/skua/bgpd.vty"

#define VTY_XPATH_DEPTH 8
#define VTY_XPATH_LEN 1024

struct vty {
	int fd; /* -1 for the config-file reader and tests */
	enum node_type node;
	struct sbuf out; /* output of the current command */
	/* Northbound context: the xpath of each node entered (router bgp, address-family ...). */
	char xpath[VTY_XPATH_DEPTH][VTY_XPATH_LEN];
	int xpath_index;
	/* Config session: edits queued by the current command, applied on its success. */
	struct nb_candidate *candidate;
	bool config_locked; /* this vty holds the configuration (configure terminal) */
	/* Where the input comes from, for error messages: "bgpd.conf:12". */
	const char *source_name;
	unsigned source_line;
	void *priv; /* owner's data (vty server connection) */
	/* Who is at the other end of the socket (SO_PEERCRED when the server accepted it);
	 * cred_known false for the config-file reader, tests, or when the kernel would not say. */
	bool cred_known;
	uid_t uid;
	gid_t gid;
	pid_t pid;
};

/* May this vty change what only bgpd's owner may (the log file)? The config-file reader
 * (fd -1) may; a socket session only as uid 0 or bgpd's own uid. */
bool vty_is_privileged(const struct vty *vty);

/* Append formatted text to the command's output. */
int vty_out(struct vty *vty, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A vty in ENABLE_NODE; fd is recorded, not owned. vty_free() leaves configuration mode
 * (the config hooks of lib/command.h) when the vty is still in a config node. */
struct vty *vty_new(int fd);
void vty_free(struct vty *vty);

/*
 * Listen on a UNIX socket path (mode 0660, group skuavty when that group exists; a stale
 * socket left by a dead daemon is replaced, a live one or another kind of file is not);
 * every accepted connection gets its own vty, starting in ENABLE_NODE. Execute requests walk
 * up to enclosing config nodes as FRR's vtys do. A request longer than 64 KiB gets an error
 * reply and the connection is closed. Returns 0 or a negative errno (logged).
 */
int vty_server_start(struct event_base *base, const char *path);
void vty_server_stop(void);

/* At most this many sessions at once. The next connection takes the place of the session idle
 * the longest, if one has been idle VTY_EVICT_IDLE_MS; else it is told so and closed. */
#define VTY_MAX_SESSIONS 64
#define VTY_EVICT_IDLE_MS 1000
/* A session with no request and no output progress for this long is closed (FRR's
 * exec-timeout default, 10 minutes). */
#define VTY_IDLE_TIMEOUT_MS (10 * 60 * 1000)

/* Change the cap (0: the default), the idle timeout (0: never) and how long a session must
 * have been idle to make room for a new one at the cap (0: the default; UINT32_MAX: never);
 * applies to open sessions too. */
void vty_server_set_limits(unsigned max_sessions, uint32_t idle_timeout_ms, uint32_t evict_idle_ms);
uint32_t vty_server_idle_timeout(void);
unsigned vty_server_sessions(void);

/* The hostname used in prompts (`hostname` command). */
void vty_set_hostname(const char *name);
const char *vty_get_hostname(void);
/* The prompt for vty->node, e.g. "r1(config-router)# ". */
const char *vty_prompt(struct vty *vty, char *buf, size_t size);

#endif /* SKUA_VTY_H */
