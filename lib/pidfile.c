/* SPDX-License-Identifier: ISC */
/*
 * Pid file and run directory: see pidfile.h. The pid file is opened O_NOFOLLOW so that a
 * symbolic link planted in a shared directory cannot redirect the truncating write.
 */
#include "lib/compat.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pidfile.h"

/* The pid another daemon wrote into the file we could not lock; 0 if unreadable. */
static long pidfile_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return pid > 0 && (*end == '\n' || *end == '\0') ? pid : 0;
}

int pidfile_rewrite(struct pidfile *pf)
{
	char buf[32];
	int n;

	if (pf->fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(pf->fd, 0) < 0 || pwrite(pf->fd, buf, (size_t)n, 0) != n)
		return -1;
	return 0;
}

int pidfile_acquire(struct pidfile *pf, const char *path, char *err, size_t errlen)
{
	long holder;
	int fd;

	pf->fd = -1;
	pf->path[0] = '\0';
	if (strlen(path) >= sizeof(pf->path)) {
		snprintf(err, errlen, "pid file %s: path too long", path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open pid file %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		holder = pidfile_holder(fd);
		if (holder)
			snprintf(err, errlen,
				 "pid file %s is locked by process %ld, which runs with it: stop "
				 "that "
				 "one first, or give this one its own pid file (-i FILE)",
				 path, holder);
		else
			snprintf(err, errlen, "pid file %s is locked: %s", path,
				 errno == EWOULDBLOCK ? "another daemon runs with it"
						      : strerror(errno));
		close(fd);
		return -1;
	}
	pf->fd = fd; /* kept open: the lock lives as long as the descriptor */
	memcpy(pf->path, path, strlen(path) + 1);
	if (pidfile_rewrite(pf) < 0) {
		snprintf(err, errlen, "cannot write pid file %s: %s", path, strerror(errno));
		pidfile_release(pf);
		return -1;
	}
	return 0;
}

void pidfile_release(struct pidfile *pf)
{
	if (pf->fd < 0)
		return;
	/* Unlink first: once the lock is gone, a new daemon may already have recreated it. */
	unlink(pf->path);
	close(pf->fd);
	pf->fd = -1;
}

int rundir_ensure(const char *dir, mode_t mode, uid_t uid, gid_t gid)
{
	struct stat st;

	if (mkdir(dir, mode) < 0) {
		if (errno != EEXIST)
			return -errno;
		if (stat(dir, &st) < 0)
			return -errno;
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	}
	/* mkdir(2) applies the umask: set the mode we meant, then the owner. */
	if (chmod(dir, mode) < 0 ||
	    ((uid != (uid_t)-1 || gid != (gid_t)-1) && chown(dir, uid, gid) < 0))
		return -errno;
	return 0;
}
