/* SPDX-License-Identifier: ISC */
/*
 * The event loop: a thin layer over libevent. fd events, one-shot timers (optionally with jitter,
 * as RFC 4271 10 asks for ConnectRetry/Keepalive), signals, and deferred "run on the next turn"
 * tasks for bounded work (the RIB processes a batch, then yields so keepalives are never starved).
 *
 * Handles are owned by the caller: event_free() (or event_cancel() for a reusable handle).
 */
#ifndef SKUA_EVENT_H
#define SKUA_EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct event_base;
struct ev; /* opaque handle for one fd/timer/signal/deferred event */

/*
 * libevent itself exports event_add, event_del, event_pending and event_free with other
 * signatures. Same-named functions of ours would clash at compile time and, worse, interpose
 * libevent's own internal calls at link time. So the linker symbols are skua_event_*; callers
 * keep writing event_add(). A file that uses libevent directly must include <event2/event.h>
 * BEFORE this header (and then reaches libevent's functions only through other names).
 */
#define event_add skua_event_add
#define event_del skua_event_del
#define event_pending skua_event_pending
#define event_free skua_event_free
/*
 * The constructors take the callback's name from the call (#cb) for the loop's accounting
 * (`show event cpu`, the slow-callback warning): callers write event_timer_new(base, cb, arg).
 */
#define event_fd_new(base, fd, what, cb, arg) skua_event_fd_new(base, fd, what, cb, arg, #cb)
#define event_timer_new(base, cb, arg) skua_event_timer_new(base, cb, arg, #cb)
#define event_signal_new(base, signum, cb, arg) skua_event_signal_new(base, signum, cb, arg, #cb)
#define event_defer_new(base, cb, arg) skua_event_defer_new(base, cb, arg, #cb)

typedef void (*ev_cb)(int fd, short what, void *arg);

#define EV_READ_FLAG 0x02  /* same bits as libevent EV_READ */
#define EV_WRITE_FLAG 0x04 /* libevent EV_WRITE */

struct event_base *event_loop_new(void);
/* Free every handle of the loop (event_free()) before the loop itself. */
void event_loop_free(struct event_base *base);
/* In the child after fork() (daemon(3)): the kernel state libevent keeps (epoll, the signal
 * pipe) is recreated for this process. */
int event_loop_after_fork(struct event_base *base);
/* Run until event_loop_exit(). Returns 0 on a clean exit, -1 on a libevent error. */
int event_loop_run(struct event_base *base);
/* Run one iteration without blocking (tests). */
int event_loop_once(struct event_base *base, bool block);
void event_loop_exit(struct event_base *base);

/*
 * Persistent fd watcher (re-armed after each callback until event_del()/event_free()).
 * The *_new() functions do not arm: call event_add() (fd, signal), event_timer_add() (timer)
 * or event_defer() (deferred task). All return NULL only when libevent refuses the event.
 */
struct ev *skua_event_fd_new(struct event_base *base, int fd, short what, ev_cb cb, void *arg,
			     const char *name);
/* A one-shot timer handle; arm it with event_timer_add(). */
struct ev *skua_event_timer_new(struct event_base *base, ev_cb cb, void *arg, const char *name);
/* Persistent signal watcher. */
struct ev *skua_event_signal_new(struct event_base *base, int signum, ev_cb cb, void *arg,
				 const char *name);
/* A deferred task: event_defer() runs it once on the next loop turn, after pending I/O. */
struct ev *skua_event_defer_new(struct event_base *base, ev_cb cb, void *arg, const char *name);

/* Arm a timer for msec milliseconds. jitter_pct reduces the delay by a random 0..pct %
 * (RFC 4271 10: jitter by a factor in 0.75..1.0 means jitter_pct = 25). Re-arming replaces. */
int event_timer_add(struct ev *ev, uint32_t msec, unsigned jitter_pct);
/* Milliseconds until the timer fires, or -1 when not pending. */
int64_t event_timer_remaining(const struct ev *ev);
int event_add(struct ev *ev); /* arm an fd/signal watcher */
int event_defer(struct ev *ev);
int event_del(struct ev *ev); /* disarm, keep the handle */
bool event_pending(const struct ev *ev);
void event_free(struct ev *ev); /* disarm and free; NULL is fine */

/* The delay event_timer_add() would use: msec reduced by a random 0..jitter_pct % (at most
 * 100). Exposed for callers that compute their own deadlines, and for tests. */
uint32_t event_jitter(uint32_t msec, unsigned jitter_pct);

/*
 * Accounting of the loop's callbacks, per callback name, for `show event cpu` (FRR's command,
 * which FRR 8 called `show thread cpu`): how often each ran, for how long in all, its longest
 * run. The loop does nothing else while a callback runs: a session's keepalive and the shell's
 * answer wait behind it, so a run of EVENT_SLOW_MS or more is logged as a warning (at most one
 * line per callback name a minute; the lines held back are counted in the next). Wall-clock
 * time, read from the monotonic clock around each call.
 */
#define EVENT_SLOW_MS 100
#define EVENT_SLOW_LOG_INTERVAL_MS 60000
enum event_stat_type {
	EVENT_STAT_READ = 1 << 0,  /* an fd watcher (read or write) */
	EVENT_STAT_TIMER = 1 << 1, /* a timer */
	EVENT_STAT_SIGNAL = 1 << 2,
	EVENT_STAT_DEFER = 1 << 3, /* a deferred task */
};
struct event_stat {
	const char *name; /* the callback's name in the source */
	unsigned types;	  /* enum event_stat_type bits of the handles created under this name */
	uint32_t handles; /* handles of this name that exist now */
	uint64_t calls;
	uint64_t total_us; /* wall-clock time in the callback */
	uint64_t max_us;
	uint64_t slow;	      /* runs of EVENT_SLOW_MS or more */
	uint64_t slow_logged; /* ... of which were logged */
	uint64_t last_log_ms; /* monotime_ms() of the last warning, 0: none */
};
typedef void (*event_stat_cb)(const struct event_stat *st, void *arg);
/* Visit every callback name seen so far, in the order first seen. */
void event_stats_walk(event_stat_cb cb, void *arg);
/* Zero the counters (`clear event cpu`); the handles stay counted. */
void event_stats_clear(void);
/* Set the slow-callback threshold in milliseconds (tests; 0 restores EVENT_SLOW_MS). */
void event_slow_threshold_set(uint32_t ms);

/* Monotonic clock in microseconds (the loop's accounting). */
uint64_t monotime_us(void);
/* Monotonic clock in milliseconds and wall-clock seconds (for "up for" and epoch fields). */
uint64_t monotime_ms(void);
int64_t wallclock_s(void);

#endif /* SKUA_EVENT_H */
