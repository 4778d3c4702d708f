/* SPDX-License-Identifier: ISC */
/*
 * What the targets that link the session side must not do outside the process, stopped at
 * link time (tests/fuzz/build.sh links them with -Wl,--wrap=connect,--wrap=log_set_target):
 *  - connect(): a non-passive neighbor's session would open a TCP connection to its
 *    configured address (the targets' sessions run over socketpairs they create); refused
 *    with ENETUNREACH, as an unreachable peer would be;
 *  - log targets: `log syslog` would write to the machine's syslog and `log stdout` flood the
 *    fuzzer's output; `log file PATH` would create or append to any file the input names.
 *    stdout and syslog stay off; a file goes to fuzz_sandbox_dir() whatever its name.
 */
#include "lib/compat.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "lib/log.h"
#include "tests/fuzz/fuzz_sandbox.h"

int __real_log_set_target(enum log_target target, int level, const char *filename);
int __wrap_log_set_target(enum log_target target, int level, const char *filename);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);

static char sandbox[64];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void sandbox_remove(void)
{
	nftw(sandbox, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_sandbox_dir(void)
{
	if (!sandbox[0]) {
		snprintf(sandbox, sizeof(sandbox), "/tmp/skua-fuzz-sandbox-XXXXXX");
		if (!mkdtemp(sandbox)) {
			fprintf(stderr, "fuzz: cannot create the sandbox directory %s: %s\n",
				sandbox, strerror(errno));
			abort();
		}
		atexit(sandbox_remove); /* libFuzzer exits at the end of a run (not on a crash) */
	}
	return sandbox;
}

int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	(void)fd;
	(void)sa;
	(void)len;
	errno = ENETUNREACH;
	return -1;
}

int __wrap_log_set_target(enum log_target target, int level, const char *filename)
{
	char path[128];

	switch (target) {
	case LOG_TARGET_FILE:
		if (level == LOG_LVL_DISABLED || !filename)
			return __real_log_set_target(target, level, filename);
		snprintf(path, sizeof(path), "%s/log", fuzz_sandbox_dir());
		return __real_log_set_target(target, level, path);
	case LOG_TARGET_STDOUT:
	case LOG_TARGET_SYSLOG:
		return __real_log_set_target(target, LOG_LVL_DISABLED, NULL);
	default:
		return __real_log_set_target(target, level, filename);
	}
}
