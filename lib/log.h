/* SPDX-License-Identifier: ISC */
/*
 * Logging: targets (stderr/stdout, file, syslog), each with its own level, and per-subsystem
 * debug flags that are tested before any formatting work is done (FRR bgp_debug, BIRD BGP_TRACE).
 * Peer messages go through the bgpd helpers (bgpd/core/bgp_log.h) that prefix the neighbor.
 */
#ifndef SKUA_LOG_H
#define SKUA_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* syslog(3) priorities, with FRR's CLI names. */
enum log_level {
	LOG_LVL_EMERG = 0,   /* emergencies */
	LOG_LVL_ALERT = 1,   /* alerts */
	LOG_LVL_CRIT = 2,    /* critical */
	LOG_LVL_ERR = 3,     /* errors */
	LOG_LVL_WARNING = 4, /* warnings */
	LOG_LVL_NOTICE = 5,  /* notifications */
	LOG_LVL_INFO = 6,    /* informational */
	LOG_LVL_DEBUG = 7,   /* debugging */
	LOG_LVL_DISABLED = -1,
};

enum log_target {
	LOG_TARGET_STDOUT = 0, /* `log stdout`: stderr when bgpd runs in the foreground */
	LOG_TARGET_FILE,
	LOG_TARGET_SYSLOG,
	LOG_TARGET_MAX,
};

/* FRR's level keywords ("debugging", "informational", ...) <-> enum. -1 / NULL when unknown. */
int log_level_from_name(const char *name);
const char *log_level_name(int level);

void log_init(const char *progname);
/* Set or disable one target; file targets reopen on log_reopen() (SIGHUP / logrotate). */
int log_set_target(enum log_target target, int level, const char *filename);
int log_target_level(enum log_target target);
const char *log_target_filename(void);
void log_reopen(void);
void log_close(void);
/* Digits of the seconds' fraction in timestamps, 0..6 (`log timestamp precision N`); -1: the
 * default, LOG_TS_PRECISION_DEFAULT (milliseconds). Returns -1 when digits is out of range. */
#define LOG_TS_PRECISION_DEFAULT 3
int log_set_timestamp_precision(int digits);
int log_timestamp_precision(void);
/* True when a syslog daemon listens on /dev/log: syslog(3) drops messages silently otherwise. */
bool log_syslog_reachable(void);

void zlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vzlog(int level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#define log_err(...) zlog(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn(...) zlog(LOG_LVL_WARNING, __VA_ARGS__)
#define log_notice(...) zlog(LOG_LVL_NOTICE, __VA_ARGS__)
#define log_info(...) zlog(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...) zlog(LOG_LVL_DEBUG, __VA_ARGS__)

/* True when a message at this level would reach at least one target. */
bool log_would_log(int level);

/*
 * Debug flags: one bit per subsystem. Test with DEBUG_ON() before formatting anything.
 * bgpd defines its own (neighbor-events, updates, keepalives, fsm, ...).
 */
extern uint64_t debug_flags;
#define DEBUG_ON(flag) ((debug_flags & (flag)) != 0)

/* The last messages logged, for `show logging` (a small ring in memory). */
typedef void (*log_ring_cb)(const char *line, void *arg);
void log_ring_walk(log_ring_cb cb, void *arg);
/* The ring keeps messages up to this level (default informational); -1 if level is invalid. */
int log_set_ring_level(int level);
void log_ring_clear(void);

#endif /* SKUA_LOG_H */
