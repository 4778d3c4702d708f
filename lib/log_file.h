/* SPDX-License-Identifier: ISC */
/*
 * Where the log file may be, and how it is opened. bgpd used to run as root, so `log file
 * PATH` let whoever could configure it append to, or create, any file with root's power:
 * /etc/ld.so.preload, a file named after a peer-group that a dynamic-neighbor log line then
 * fills. bgpd now drops root before it reads its configuration (doc/service.md), and still:
 *  - from a vty (or a rollback), the file must be in the log directory (SKUA_LOGDIR, default
 *    /var/log/skua; `configure --with-logdir`, `bgpd --log-dir DIR`) or below it; only the
 *    configuration file (start-up, reload: the administrator's words) may name another place;
 *  - a name with a `..` component is refused everywhere, and so is a name that is, or ends
 *    in, something other than a regular file (a symbolic link, a FIFO, a device);
 *  - the file is opened with O_NOFOLLOW, O_CLOEXEC and O_APPEND, created 0640, and checked to
 *    be a regular file before the first byte is written (the check above is made at
 *    validation; the open is what counts when the file changed in between).
 * Who may change the log file from a vty at all is decided in lib/system_cli.c.
 */
#ifndef SKUA_LOG_FILE_H
#define SKUA_LOG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The log directory (bgpd --log-dir; relative: to the working directory now); NULL or ""
 * puts back the built-in one. */
void log_file_set_dir(const char *dir);
const char *log_file_dir(void);

/*
 * Is name acceptable as the log file? any_dir: the configuration file (start-up, reload),
 * which may name any directory. 0, or -1 with why and what to do in err. Touches nothing.
 */
int log_file_check_path(const char *name, bool any_dir, char *err, size_t errlen);

/* Open name for appending as described above. NULL with errno set (ELOOP: a symbolic link,
 * EINVAL: not a regular file, ENXIO: a FIFO nobody reads). */
FILE *log_file_open(const char *name);

#endif /* SKUA_LOG_FILE_H */
