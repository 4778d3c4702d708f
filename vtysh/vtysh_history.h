/* SPDX-License-Identifier: ISC */
/*
 * The shell's history file (~/.history_skua) without secrets. A line that sets a password
 * (`neighbor X password KEY`, its `no` form, any abbreviation of the keyword) never enters
 * the history: not the file, where it would outlive the session, and not the in-memory list
 * either, since the file is written from it. Replacing the key by stars instead would leave a
 * line that, recalled and run, sets the key to the stars.
 *
 * vtysh has no copy of the command tree, so the rule is a word rule: a word that is a prefix
 * of "password" of at least 4 letters (every abbreviation the daemon can accept; `passive` is
 * not one) makes the line secret. A false positive only costs a history entry.
 *
 * The file is written 0600 through O_NOFOLLOW, and lines an older vtysh saved with secrets are
 * dropped when the file is loaded, so the next save removes them.
 */
#ifndef SKUA_VTYSH_HISTORY_H
#define SKUA_VTYSH_HISTORY_H

#include <histedit.h>
#include <stdbool.h>

/* Does the line carry a secret (and so stay out of the history)? */
bool vtysh_history_is_secret(const char *line);

/* Load path into hist, without its secret lines. Missing or unreadable: nothing loaded. */
void vtysh_history_load(History *hist, const char *path);

/* Write hist to path, mode 0600 (an existing file is chmod-ed). 0, or -errno. */
int vtysh_history_save(History *hist, const char *path);

#endif /* SKUA_VTYSH_HISTORY_H */
