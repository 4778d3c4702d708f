/* SPDX-License-Identifier: ISC */
/* vtysh's history file without secrets, mode 0600 (vtysh/vtysh_history.h). */
#include "lib/compat.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vtysh/vtysh_history.h"

#define SECRET_WORD "password"
#define SECRET_MIN_ABBREV 4 /* "pass": shorter prefixes are not taken for the keyword */

bool vtysh_history_is_secret(const char *line)
{
	const char *p = line;

	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n >= SECRET_MIN_ABBREV && n <= strlen(SECRET_WORD) &&
		    strncmp(p, SECRET_WORD, n) == 0)
			return true;
		p += n;
	}
	return false;
}

void vtysh_history_load(History *hist, const char *path)
{
	History *all = history_init();
	HistEvent ev;
	int rc;

	if (!all)
		return;
	history(all, &ev, H_SETSIZE, INT32_MAX);
	if (history(all, &ev, H_LOAD, path) < 0) {
		history_end(all);
		return;
	}
	/* Oldest first (H_LAST), then towards the newest (H_PREV): the order is kept. */
	for (rc = history(all, &ev, H_LAST); rc >= 0; rc = history(all, &ev, H_PREV))
		if (!vtysh_history_is_secret(ev.str))
			history(hist, &ev, H_ENTER, ev.str);
	history_end(all);
}

int vtysh_history_save(History *hist, const char *path)
{
	HistEvent ev;
	FILE *fp;
	int fd, rc = 0;

	/* Not through a symbolic link someone planted in $HOME; readable by the user only. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0 || ftruncate(fd, 0) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (history(hist, &ev, H_SAVE_FP, fp) < 0)
		rc = -EIO;
	if (fclose(fp) != 0 && rc == 0)
		rc = -errno;
	return rc;
}
