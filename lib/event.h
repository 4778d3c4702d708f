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
struct ev *event_fd_new(struct event_base *base, int fd, short what, ev_cb cb, void *arg);
/* A one-shot timer handle; arm it with event_timer_add(). */
struct ev *event_timer_new(struct event_base *base, ev_cb cb, void *arg);
/* Persistent signal watcher. */
struct ev *event_signal_new(struct event_base *base, int signum, ev_cb cb, void *arg);
/* A deferred task: event_defer() runs it once on the next loop turn, after pending I/O. */
struct ev *event_defer_new(struct event_base *base, ev_cb cb, void *arg);

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

/* Monotonic clock in milliseconds and wall-clock seconds (for "up for" and epoch fields). */
uint64_t monotime_ms(void);
int64_t wallclock_s(void);

#endif /* SKUA_EVENT_H */
