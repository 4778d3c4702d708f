/* SPDX-License-Identifier: ISC */
/*
 * Rate limits for log lines an outsider can trigger at will: a peer sending malformed UPDATEs,
 * a client storm against a listener. Without one, each offending input costs a line, and a
 * peer that sends 20,000 of them fills the disk and buries everything else.
 *
 * A limit lets through the first `burst` lines of each window of `interval_ms` and counts the
 * rest; the next line let through is preceded by one line "N similar messages suppressed", so
 * the first occurrence is always visible and nothing is dropped without a trace. A count
 * whose site never logs again is not reported (there is no timer: a limit costs no event).
 *
 * One limit per call site (LOG_LIMITED declares a static one), so a flood of one kind does not
 * hide a first message of another kind. Not thread-safe: the daemon logs these from its loop.
 */
#ifndef SKUA_LOG_LIMIT_H
#define SKUA_LOG_LIMIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* The defaults of LOG_LIMITED: 10 lines a minute per call site. */
#define LOG_LIMIT_INTERVAL_MS 60000
#define LOG_LIMIT_BURST 10

struct log_limit {
	uint32_t interval_ms;
	uint32_t burst;
	uint64_t window_start; /* monotime_ms() at the start of the current window */
	uint32_t passed;       /* lines let through in the current window */
	uint64_t suppressed;   /* lines dropped since the last one let through */
	bool started;
};

#define LOG_LIMIT_INIT(interval_ms_, burst_)                     \
	{                                                        \
		.interval_ms = (interval_ms_), .burst = (burst_) \
	}

/*
 * Count one line: true when it may be logged. *suppressed (may be NULL) gets the number of
 * lines dropped since the previous one let through (0 when none), and the count restarts.
 */
bool log_limit_allow(struct log_limit *ll, uint64_t *suppressed);

/* Log through a limit (lib/log.h levels); the "suppressed" line has the same level. */
void log_limited(struct log_limit *ll, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vlog_limited(struct log_limit *ll, int level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Log through this call site's own limit (LOG_LIMIT_BURST lines per LOG_LIMIT_INTERVAL_MS). */
#define LOG_LIMITED(level, ...)                                                 \
	do {                                                                    \
		static struct log_limit log_limit_site_ =                       \
			LOG_LIMIT_INIT(LOG_LIMIT_INTERVAL_MS, LOG_LIMIT_BURST); \
		log_limited(&log_limit_site_, (level), __VA_ARGS__);            \
	} while (0)

#define log_err_limited(...) LOG_LIMITED(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn_limited(...) LOG_LIMITED(LOG_LVL_WARNING, __VA_ARGS__)
#define log_notice_limited(...) LOG_LIMITED(LOG_LVL_NOTICE, __VA_ARGS__)
#define log_info_limited(...) LOG_LIMITED(LOG_LVL_INFO, __VA_ARGS__)

#endif /* SKUA_LOG_LIMIT_H */
