/* SPDX-License-Identifier: ISC */
/*
 * Logging to up to three targets (stderr, a file, syslog), each with its own level, plus an
 * in-memory ring of the last lines for `show logging`. A message is formatted once, and only
 * when some target (or the ring) wants it: log_would_log() is cheap enough to call first.
 *
 * Line format for stderr, the file and the ring (FRR's):
 *   2026/12/03 13:00:00.123 BGP: message
 * syslog gets the bare message; syslogd adds its own time stamp and the program name.
 */
#include "lib/compat.h"

#include <ctype.h>
#include <paths.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "lib/core_mtypes.h"
#include "lib/log.h"
#include "lib/log_file.h"

DEFINE_MTYPE(LOG, "Logging");

#define LOG_MSG_MAX 1024   /* longer messages are truncated (with a marker) */
#define LOG_RING_LINES 200 /* what `show logging` can replay */
#define LOG_RING_LINE_MAX 512

uint64_t debug_flags;

static const char *const log_level_names[] = {
	[LOG_LVL_EMERG] = "emergencies",  [LOG_LVL_ALERT] = "alerts",
	[LOG_LVL_CRIT] = "critical",	  [LOG_LVL_ERR] = "errors",
	[LOG_LVL_WARNING] = "warnings",	  [LOG_LVL_NOTICE] = "notifications",
	[LOG_LVL_INFO] = "informational", [LOG_LVL_DEBUG] = "debugging",
};

struct log_state {
	pthread_mutex_t lock;
	char progname[32];
	char proto[16]; /* "BGP" for bgpd: FRR's protocol tag in each line */
	int level[LOG_TARGET_MAX];
	int ring_level;
	/* The highest level any target or the ring accepts: one compare in log_would_log(). */
	int max_level;
	char *filename; /* MTYPE_LOG; NULL when the file target is unset */
	FILE *file;
	bool syslog_open;
	char ring[LOG_RING_LINES][LOG_RING_LINE_MAX];
	unsigned ring_next;  /* slot the next line goes to */
	unsigned ring_count; /* lines held (up to LOG_RING_LINES) */
};

/*
 * Before log_init() a program still gets warnings and worse on stderr (config errors at
 * start-up must be visible), and the ring keeps informational messages for `show logging`.
 */
static struct log_state log_state = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.progname = "skua",
	.proto = "SKUA",
	.level = { [LOG_TARGET_STDOUT] = LOG_LVL_WARNING,
		   [LOG_TARGET_FILE] = LOG_LVL_DISABLED,
		   [LOG_TARGET_SYSLOG] = LOG_LVL_DISABLED },
	.ring_level = LOG_LVL_INFO,
	.max_level = LOG_LVL_INFO,
};

int log_level_from_name(const char *name)
{
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < array_size(log_level_names); i++)
		if (strcmp(name, log_level_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *log_level_name(int level)
{
	if (level < 0 || (size_t)level >= array_size(log_level_names))
		return NULL;
	return log_level_names[level];
}

static void log_update_max(struct log_state *ls)
{
	int i, max = ls->ring_level;

	for (i = 0; i < LOG_TARGET_MAX; i++)
		max = MAX(max, ls->level[i]);
	__atomic_store_n(&ls->max_level, max, __ATOMIC_RELAXED);
}

void log_init(const char *progname)
{
	struct log_state *ls = &log_state;
	size_t i, n;

	pthread_mutex_lock(&ls->lock);
	snprintf(ls->progname, sizeof(ls->progname), "%s", progname ? progname : "skua");
	/* "bgpd" -> "BGP", "vtysh" -> "VTYSH": FRR tags each line with the protocol. */
	n = strlen(ls->progname);
	if (n > 1 && ls->progname[n - 1] == 'd')
		n--;
	n = MIN(n, sizeof(ls->proto) - 1);
	for (i = 0; i < n; i++)
		ls->proto[i] = (char)toupper((unsigned char)ls->progname[i]);
	ls->proto[n] = '\0';
	pthread_mutex_unlock(&ls->lock);
}

static int log_open_file(struct log_state *ls, const char *filename)
{
	FILE *f = log_file_open(filename); /* O_NOFOLLOW, regular files only: lib/log_file.h */

	if (!f)
		return -1;
	/* Line buffered: a crash must not eat the lines that explain it. */
	setvbuf(f, NULL, _IOLBF, 0);
	if (ls->file)
		fclose(ls->file);
	ls->file = f;
	return 0;
}

int log_set_target(enum log_target target, int level, const char *filename)
{
	struct log_state *ls = &log_state;
	int ret = 0;

	if ((unsigned)target >= LOG_TARGET_MAX || level < LOG_LVL_DISABLED ||
	    level > LOG_LVL_DEBUG) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ls->lock);
	switch (target) {
	case LOG_TARGET_FILE:
		if (level == LOG_LVL_DISABLED) {
			if (ls->file)
				fclose(ls->file);
			ls->file = NULL;
			XFREE(MTYPE_LOG, ls->filename);
		} else if (filename &&
			   (!ls->filename || strcmp(filename, ls->filename) != 0 || !ls->file)) {
			if (log_open_file(ls, filename) < 0) {
				ret = -1;
				break;
			}
			XFREE(MTYPE_LOG, ls->filename);
			ls->filename = XSTRDUP(MTYPE_LOG, filename);
		} else if (!filename && !ls->file) {
			errno = EINVAL; /* a file target needs a file name the first time */
			ret = -1;
			break;
		}
		break;
	case LOG_TARGET_SYSLOG:
		if (level != LOG_LVL_DISABLED && !ls->syslog_open) {
			openlog(ls->progname, LOG_PID | LOG_NDELAY, LOG_DAEMON);
			ls->syslog_open = true;
		} else if (level == LOG_LVL_DISABLED && ls->syslog_open) {
			closelog();
			ls->syslog_open = false;
		}
		break;
	default:
		break;
	}
	if (ret == 0) {
		ls->level[target] = level;
		log_update_max(ls);
	}
	pthread_mutex_unlock(&ls->lock);
	return ret;
}

int log_target_level(enum log_target target)
{
	if ((unsigned)target >= LOG_TARGET_MAX)
		return LOG_LVL_DISABLED;
	return log_state.level[target];
}

const char *log_target_filename(void)
{
	return log_state.filename;
}

int log_set_ring_level(int level)
{
	if (level < LOG_LVL_DISABLED || level > LOG_LVL_DEBUG)
		return -1;
	pthread_mutex_lock(&log_state.lock);
	log_state.ring_level = level;
	log_update_max(&log_state);
	pthread_mutex_unlock(&log_state.lock);
	return 0;
}

void log_reopen(void)
{
	struct log_state *ls = &log_state;
	int saved = errno;

	pthread_mutex_lock(&ls->lock);
	/* logrotate moved the file away: start a new one under the configured name. */
	if (ls->filename && ls->level[LOG_TARGET_FILE] != LOG_LVL_DISABLED &&
	    log_open_file(ls, ls->filename) < 0)
		fprintf(stderr,
			"%s: cannot reopen log file %s: %s; file logging stays on the old "
			"file\n",
			ls->progname, ls->filename, strerror(errno));
	pthread_mutex_unlock(&ls->lock);
	errno = saved;
}

void log_close(void)
{
	struct log_state *ls = &log_state;

	pthread_mutex_lock(&ls->lock);
	if (ls->file)
		fclose(ls->file);
	ls->file = NULL;
	XFREE(MTYPE_LOG, ls->filename);
	ls->level[LOG_TARGET_FILE] = LOG_LVL_DISABLED;
	if (ls->syslog_open)
		closelog();
	ls->syslog_open = false;
	ls->level[LOG_TARGET_SYSLOG] = LOG_LVL_DISABLED;
	log_update_max(ls);
	pthread_mutex_unlock(&ls->lock);
}

bool log_would_log(int level)
{
	return level <= __atomic_load_n(&log_state.max_level, __ATOMIC_RELAXED) &&
	       level >= LOG_LVL_EMERG;
}

/* Read under log_state.lock by log_timestamp(); atomic so show logging may read it too. */
static int ts_precision = LOG_TS_PRECISION_DEFAULT;

int log_set_timestamp_precision(int digits)
{
	if (digits < -1 || digits > 6)
		return -1;
	__atomic_store_n(&ts_precision, digits < 0 ? LOG_TS_PRECISION_DEFAULT : digits,
			 __ATOMIC_RELAXED);
	return 0;
}

int log_timestamp_precision(void)
{
	return __atomic_load_n(&ts_precision, __ATOMIC_RELAXED);
}

/* "2026/12/03 13:00:00.123" (as many fraction digits as the precision, none for 0) into buf
 * (at least 27 bytes). */
static size_t log_timestamp(char *buf, size_t size)
{
	static const long divisor[7] = { 1000000000, 100000000, 10000000, 1000000,
					 100000,     10000,	1000 };
	int digits = log_timestamp_precision();
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, size, "%Y/%m/%d %H:%M:%S", &tm);
	if (digits > 0)
		n += (size_t)snprintf(buf + n, size - n, ".%0*ld", digits,
				      ts.tv_nsec / divisor[digits]);
	return MIN(n, size - 1);
}

/* Append src at dst[pos], truncating to size; returns the new length. */
static size_t log_append(char *dst, size_t size, size_t pos, const char *src)
{
	size_t n = strlen(src);

	if (pos >= size)
		return pos;
	n = MIN(n, size - 1 - pos);
	memcpy(dst + pos, src, n);
	dst[pos + n] = '\0';
	return pos + n;
}

void vzlog(int level, const char *fmt, va_list ap)
{
	struct log_state *ls = &log_state;
	char msg[LOG_MSG_MAX];
	char line[LOG_MSG_MAX + 64];
	int saved = errno;
	int n;
	size_t hl;

	if (!log_would_log(level))
		return;
	errno = saved; /* %m in fmt must see the caller's errno */
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		snprintf(msg, sizeof(msg), "(unformattable log message: %s)", fmt);
	else if ((size_t)n >= sizeof(msg))
		memcpy(msg + sizeof(msg) - 5, "...", 4);

	pthread_mutex_lock(&ls->lock);
	hl = log_timestamp(line, sizeof(line));
	hl = log_append(line, sizeof(line), hl, " ");
	hl = log_append(line, sizeof(line), hl, ls->proto);
	hl = log_append(line, sizeof(line), hl, ": ");
	log_append(line, sizeof(line), hl, msg);

	if (level <= ls->level[LOG_TARGET_STDOUT])
		fprintf(stderr, "%s\n", line);
	if (ls->file && level <= ls->level[LOG_TARGET_FILE])
		fprintf(ls->file, "%s\n", line);
	if (ls->syslog_open && level <= ls->level[LOG_TARGET_SYSLOG])
		syslog(level, "%s", msg);
	if (level <= ls->ring_level) {
		log_append(ls->ring[ls->ring_next], LOG_RING_LINE_MAX, 0, line);
		ls->ring_next = (ls->ring_next + 1) % LOG_RING_LINES;
		if (ls->ring_count < LOG_RING_LINES)
			ls->ring_count++;
	}
	pthread_mutex_unlock(&ls->lock);
	errno = saved;
}

void zlog(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vzlog(level, fmt, ap);
	va_end(ap);
}

void log_ring_walk(log_ring_cb cb, void *arg)
{
	struct log_state *ls = &log_state;
	char(*copy)[LOG_RING_LINE_MAX];
	unsigned i, count, start;

	/* Copy out under the lock, call back without it: the callback may log. */
	pthread_mutex_lock(&ls->lock);
	count = ls->ring_count;
	start = (ls->ring_next + LOG_RING_LINES - count) % LOG_RING_LINES;
	copy = count ? XMALLOC(MTYPE_LOG, (size_t)count * LOG_RING_LINE_MAX) : NULL;
	for (i = 0; i < count; i++)
		memcpy(copy[i], ls->ring[(start + i) % LOG_RING_LINES], LOG_RING_LINE_MAX);
	pthread_mutex_unlock(&ls->lock);

	for (i = 0; i < count; i++)
		cb(copy[i], arg);
	XFREE(MTYPE_LOG, copy);
}

void log_ring_clear(void)
{
	pthread_mutex_lock(&log_state.lock);
	log_state.ring_count = 0;
	log_state.ring_next = 0;
	pthread_mutex_unlock(&log_state.lock);
}

bool log_syslog_reachable(void)
{
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM }; /* as glibc's syslog() tries */
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t i;
	int fd, r;

	memcpy(sun.sun_path, _PATH_LOG, sizeof(_PATH_LOG));
	for (i = 0; i < array_size(types); i++) {
		fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		r = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
		close(fd);
		if (r == 0)
			return true;
	}
	return false;
}
