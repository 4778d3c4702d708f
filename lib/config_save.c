/* SPDX-License-Identifier: ISC */
/*
 * The startup configuration from the CLI: `write memory` (= `write file` = `write` =
 * `copy running-config startup-config`), `show startup-config`, `clear configuration
 * reload`.
 *
 * Saving is atomic (FRR's lib/command.c does the same dance): the new text goes to a
 * temporary file in the same directory (so rename() cannot cross file systems), is
 * fsync()ed, the old file is kept as FILE.sav, the temporary file is renamed over FILE and
 * the directory is fsync()ed so the rename survives a crash. At every moment FILE is either
 * the complete old configuration or the complete new one.
 */
#include "lib/compat.h"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define CONF_BACKUP_EXT ".sav" /* FRR's */
#define CONF_NEW_MODE 0640     /* readable by the daemon's group, not by others (passwords) */

void nb_config_text(struct sbuf *out, bool json)
{
	char *s = NULL;

	if (!json) {
		sbuf_puts(out, "!\n");
		nb_cli_show_config_body(out, nb_running());
		sbuf_puts(out, "end\n");
		return;
	}
	if (nb_running() &&
	    lyd_print_mem(&s, nb_running(), LYD_JSON,
			  LYD_PRINT_WITHSIBLINGS | LYD_PRINT_WD_EXPLICIT) == LY_SUCCESS &&
	    s) {
		sbuf_puts(out, s);
		free(s); /* libyang's */
	} else {
		ly_err_clean(yang_ctx(), NULL);
		sbuf_puts(out, "{\n}\n");
	}
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Copy src to dst (the .sav backup where a hard link is not possible). */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[8192];
	int in, out, ret = -1;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)n) < 0)
			goto out;
	if (n == 0 && fsync(out) == 0)
		ret = 0;
out:
	if (close(out) < 0)
		ret = -1;
	close(in);
	return ret;
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* Best effort: some file systems refuse fsync on a directory (EINVAL). */
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int nb_config_save(const char *path, char *err, size_t errlen)
{
	char dirbuf[PATH_MAX], basebuf[PATH_MAX], tmp[PATH_MAX + 16], sav[PATH_MAX + 8];
	const char *dir, *base;
	struct stat st;
	struct sbuf text;
	mode_t mode = CONF_NEW_MODE;
	bool exists;
	int fd;

	if (strlen(path) >= PATH_MAX - 1) {
		snprintf(err, errlen, "configuration file name too long: %s", path);
		return -1;
	}
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	snprintf(basebuf, sizeof(basebuf), "%s", path);
	dir = dirname(dirbuf);
	base = basename(basebuf);
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file; not overwritten", path);
		return -1;
	}
	/* The file holds TCP-MD5 passwords: whatever mode an existing file had, the new one
	 * (and the backup) is at most readable by its group. The owner and group stay. */
	if (exists) {
		mode = (st.st_mode & 0040) | 0600;
		if (st.st_mode & 0037)
			log_notice("write memory: %s was mode %04o; saved it as %04o (it holds "
				   "passwords: no write for the group, nothing for others)",
				   path, (unsigned)(st.st_mode & 07777), (unsigned)mode);
	}

	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "Can't open configuration file %s: %s", tmp, strerror(errno));
		return -1;
	}
	sbuf_init(&text);
	nb_config_text(&text, nb_config_is_json(path));
	if (fchmod(fd, mode) < 0 ||
	    (exists && geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) < 0) ||
	    write_all(fd, text.buf ? text.buf : "", text.len) < 0 || fsync(fd) < 0) {
		snprintf(err, errlen, "Failed to write configuration file %s: %s", tmp,
			 strerror(errno));
		sbuf_free(&text);
		close(fd);
		unlink(tmp);
		return -1;
	}
	sbuf_free(&text);
	if (close(fd) < 0) {
		snprintf(err, errlen, "Failed to write configuration file %s: %s", tmp,
			 strerror(errno));
		unlink(tmp);
		return -1;
	}

	/* The previous configuration, kept as FILE.sav (FRR's CONF_BACKUP_EXT). */
	if (exists) {
		snprintf(sav, sizeof(sav), "%s" CONF_BACKUP_EXT, path);
		if (unlink(sav) < 0 && errno != ENOENT) {
			snprintf(err, errlen, "Can't unlink backup configuration file %s: %s", sav,
				 strerror(errno));
			unlink(tmp);
			return -1;
		}
		if (link(path, sav) < 0 && copy_file(path, sav, mode) < 0) {
			snprintf(err, errlen, "Can't backup old configuration file %s: %s", sav,
				 strerror(errno));
			unlink(tmp);
			return -1;
		}
		/* The backup is the old file itself (a hard link): it keeps the old mode
		 * unless told otherwise, and holds the same passwords. A file we may not
		 * chmod (another owner's) is copied instead. */
		if (chmod(sav, mode) < 0 && (unlink(sav) < 0 || copy_file(path, sav, mode) < 0)) {
			snprintf(err, errlen,
				 "Can't restrict the backup configuration file %s to mode %04o: %s",
				 sav, (unsigned)mode, strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "Can't save configuration file %s: %s", path,
			 strerror(errno));
		unlink(tmp);
		return -1;
	}
	fsync_dir(dir);
	return 0;
}

/* ---- commands ------------------------------------------------------------------------- */

static int write_memory(struct vty *vty)
{
	const char *path = nb_config_startup();
	char err[PATH_MAX + 256];
	uint32_t pending;

	vty_out(vty, "Building Configuration...\n");
	/* Saving a commit that may still be rolled back would bring it back at the next
	 * start. */
	/* Nothing saved is a failure (vtysh exits 1), not a warning: a script that saves the
	 * configuration must be able to tell that it did not happen. */
	if (nb_confirm_pending(&pending, NULL)) {
		vty_out(vty,
			"%% Confirmed commit #%u is pending: confirm it with \"commit\" (or let it "
			"roll back) before saving\n",
			pending);
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (!path) {
		vty_out(vty, "%% There is no startup configuration file to write to\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (nb_config_save(path, err, sizeof(err)) < 0) {
		/* nb_config_save() fails before its rename: the file is the old one. */
		vty_out(vty, "%% %s\n%% The configuration was not saved; %s is unchanged\n", err,
			path);
		return CMD_WARNING_CONFIG_FAILED;
	}
	vty_out(vty, "Configuration saved to %s\n[OK]\n", path);
	return CMD_SUCCESS;
}

DEFCMD(config_write, "write [<memory|file>]",
       "Write running configuration to memory, network, or terminal\n"
       "Write configuration to the startup file (same as write file)\n"
       "Write configuration to the startup file (same as write memory)\n")
{
	return write_memory(vty);
}

DEFCMD(copy_runningconf_startupconf, "copy running-config startup-config",
       "Copy configuration\n"
       "Copy running config to... \n"
       "Copy running config to startup config (same as write file/memory)\n")
{
	return write_memory(vty);
}

DEFCMD(show_startup_config, "show startup-config",
       "Show running system information\n"
       "Contents of startup configuration\n")
{
	const char *path = nb_config_startup();
	char buf[4096];
	size_t n;
	FILE *f;

	if (!path) {
		vty_out(vty, "%% There is no startup configuration file\n");
		return CMD_WARNING;
	}
	f = fopen(path, "r");
	if (!f) {
		vty_out(vty, "%% Can't open configuration file %s: %s\n", path, strerror(errno));
		return CMD_WARNING;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_put(&vty->out, buf, n);
	fclose(f);
	return CMD_SUCCESS;
}

DEFCMD(clear_config_reload, "clear configuration reload",
       "Reset functions\n"
       "Configuration\n"
       "Read the startup configuration file again; apply only what changed\n")
{
	const char *path = nb_config_startup();
	struct sbuf errors;
	uint32_t txid;
	int ret = CMD_SUCCESS;

	if (!path) {
		vty_out(vty, "%% There is no startup configuration file to reload\n");
		return CMD_WARNING;
	}
	if (nb_cli_locked_by_other(vty)) {
		vty_out(vty, "%% Configuration is locked by another VTY (configure exclusive)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	sbuf_init(&errors);
	if (nb_config_reload(path, &txid, &errors) < 0) {
		const char *p = errors.buf ? errors.buf : "";

		while (*p) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);

			vty_out(vty, "%% %.*s\n", n, p);
			p += nl ? n + 1 : n;
		}
		vty_out(vty, "%% Reload refused; the running configuration was not changed\n");
		ret = CMD_WARNING_CONFIG_FAILED;
	} else if (txid) {
		vty_out(vty, "%% Configuration reloaded from %s (Transaction ID #%u)\n", path,
			txid);
	} else {
		vty_out(vty, "%% Configuration reloaded from %s: no changes\n", path);
	}
	sbuf_free(&errors);
	return ret;
}

void nb_config_save_cli_init(void)
{
	cmd_install(ENABLE_NODE, &config_write_cmd);
	cmd_install(ENABLE_NODE, &copy_runningconf_startupconf_cmd);
	cmd_install(ENABLE_NODE, &show_startup_config_cmd);
	cmd_install(ENABLE_NODE, &clear_config_reload_cmd);
}
