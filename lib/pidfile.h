/* SPDX-License-Identifier: ISC */
/*
 * One daemon per pid file: the file is created, locked with flock(2) for the daemon's whole
 * life and holds its process id. The lock, not the file's existence, says a daemon is alive,
 * so a pid file left by a crash never stops a restart, and a second daemon started with the
 * same file is refused before it has done anything.
 */
#ifndef SKUA_PIDFILE_H
#define SKUA_PIDFILE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

struct pidfile {
	int fd; /* -1: none held */
	char path[PATH_MAX];
};

/*
 * Open and lock path, and write our pid into it. Returns 0, or -1 with a sentence in err: the
 * system error, or, when another process holds the lock, its pid as the file says.
 */
int pidfile_acquire(struct pidfile *pf, const char *path, char *err, size_t errlen);
/* Write the current pid again (after daemon(3) forked: the lock is inherited, the pid is not). */
int pidfile_rewrite(struct pidfile *pf);
/* Remove the file and drop the lock. Safe on a pidfile never acquired. */
void pidfile_release(struct pidfile *pf);

/*
 * Make the directory dir (not its parents) when it is missing: mode, owner and group as given
 * (-1 leaves one unchanged). An existing directory is left as it is. Returns 0 or -errno.
 */
int rundir_ensure(const char *dir, mode_t mode, uid_t uid, gid_t gid);

#endif /* SKUA_PIDFILE_H */
