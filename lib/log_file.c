/* SPDX-License-Identifier: ISC */
/* The log file's directory and its safe opening (lib/log_file.h). */
#include "lib/compat.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log_file.h"

#ifndef SKUA_LOGDIR
#define SKUA_LOGDIR "/var/log/skua"
#endif

static char log_dir[PATH_MAX] = SKUA_LOGDIR;

void log_file_set_dir(const char *dir)
{
	char cwd[PATH_MAX];
	size_t nc, nd;

	if (!dir || !*dir)
		dir = SKUA_LOGDIR;
	/* Relative to where bgpd was started: `-d` changes to / later. */
	if (dir[0] != '/' && getcwd(cwd, sizeof(cwd))) {
		nc = strlen(cwd);
		nd = strlen(dir);
		if (nc + 1 + nd < sizeof(log_dir)) {
			memcpy(log_dir, cwd, nc);
			log_dir[nc] = '/';
			memcpy(log_dir + nc + 1, dir, nd + 1);
			return;
		}
	}
	snprintf(log_dir, sizeof(log_dir), "%s", dir);
}

const char *log_file_dir(void)
{
	return log_dir;
}

static bool has_dotdot(const char *name)
{
	const char *p = name;

	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += n;
		p += strspn(p, "/");
	}
	return false;
}

/* Is the directory dir (resolved) the log directory or below it? */
static int check_inside(const char *name, const char *dir, char *err, size_t errlen)
{
	char real_dir[PATH_MAX], real_log[PATH_MAX];
	size_t n;

	if (!realpath(log_dir, real_log)) {
		snprintf(err, errlen,
			 "can't open logfile %s: the log directory %s: %s (create it, or start "
			 "bgpd with --log-dir DIR)",
			 name, log_dir, strerror(errno));
		return -1;
	}
	if (!realpath(dir, real_dir)) {
		snprintf(err, errlen, "can't open logfile %s: %s (directory %s)", name,
			 strerror(errno), dir);
		return -1;
	}
	n = strlen(real_log);
	if (strcmp(real_dir, real_log) == 0 ||
	    (strncmp(real_dir, real_log, n) == 0 && (real_log[n - 1] == '/' || real_dir[n] == '/')))
		return 0;
	snprintf(err, errlen,
		 "can't open logfile %s: not in the log directory %s (a log file set from a vty "
		 "or a reload must be there; name a file in %s, or set it in the configuration "
		 "file and restart bgpd)",
		 name, log_dir, log_dir);
	return -1;
}

int log_file_check_path(const char *name, bool any_dir, char *err, size_t errlen)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (name[0] != '/') {
		snprintf(err, errlen, "can't open logfile %s: give an absolute path", name);
		return -1;
	}
	if (has_dotdot(name)) {
		snprintf(err, errlen,
			 "can't open logfile %s: the name has a `..` component; give the path "
			 "without it",
			 name);
		return -1;
	}
	if (strlen(name) >= sizeof(dir)) {
		snprintf(err, errlen, "can't open logfile %.64s...: name too long", name);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", name);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (!slash[1] && slash != dir) {
		snprintf(err, errlen, "can't open logfile %s: that is a directory; name a file",
			 name);
		return -1;
	}
	if (!any_dir && check_inside(name, dir, err, errlen) < 0)
		return -1;
	if (lstat(name, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen,
				 "can't open logfile %s: it is a symbolic link; name the file "
				 "itself",
				 name);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen,
				 "can't open logfile %s: not a regular file; name a regular file",
				 name);
			return -1;
		}
		if (access(name, W_OK) == 0)
			return 0;
		snprintf(err, errlen, "can't open logfile %s: %s", name, strerror(errno));
		return -1;
	}
	if (access(dir, W_OK | X_OK) == 0)
		return 0;
	snprintf(err, errlen, "can't open logfile %s: %s (directory %s)", name, strerror(errno),
		 dir);
	return -1;
}

FILE *log_file_open(const char *name)
{
	struct stat st;
	FILE *f;
	int fd, flags;

	/* O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader. */
	fd = open(name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0640);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	f = fdopen(fd, "a");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}
