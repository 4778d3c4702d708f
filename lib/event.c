/* SPDX-License-Identifier: ISC */
/*
 * The event loop over libevent.
 *
 * Deferred tasks are zero-delay timers, at the same priority as everything else. libevent runs
 * one loop turn as: poll for I/O (activating fd events), activate expired timers, then run the
 * active callbacks in activation order. So a deferred task runs after the I/O that was ready in
 * the same turn, and a task that re-defers itself from its callback lands in the timer heap, not
 * in the active queue, and cannot run again before the next poll. Neither side starves the
 * other: fd callbacks keep being served while the RIB works through a table in batches, and a
 * peer socket that is always readable does not stall the RIB's batches either. (Two libevent
 * priorities would have done the first half only: libevent runs a lower priority queue only
 * when every higher one is empty, so a busy socket could postpone deferred work indefinitely.)
 */
#include "lib/compat.h"

#include <event2/event.h>
#include <inttypes.h>
#include <sys/random.h>
#include <time.h>

/*
 * libevent's own event_add() etc., reached through these wrappers: lib/event.h below renames
 * the names to ours (see the comment there).
 */
static int le_add(struct event *e, const struct timeval *tv)
{
	return event_add(e, tv);
}

static int le_del(struct event *e)
{
	return event_del(e);
}

static int le_pending(const struct event *e, short what)
{
	return event_pending(e, what, NULL);
}

#include "lib/core_mtypes.h"
#include "lib/event.h"
#include "lib/log.h"

DEFINE_MTYPE(EVENT, "Event");

enum ev_kind { EV_KIND_FD, EV_KIND_TIMER, EV_KIND_SIGNAL, EV_KIND_DEFER };

struct ev {
	struct event_base *base;
	enum ev_kind kind;
	uint64_t expire_ms; /* timers: when the armed timer is due (monotime_ms) */
	ev_cb cb;	    /* the owner's callback and argument: libevent calls ev_run() */
	void *arg;
	struct event_stat *stat; /* its name's accounting (never freed: see stat_of()) */
	/* libevent's struct event, sized at run time (event_get_struct_event_size()). */
	_Alignas(max_align_t) unsigned char le[];
};

static inline struct event *ev_le(const struct ev *ev)
{
	return (struct event *)ev->le;
}

struct event_base *event_loop_new(void)
{
	struct event_config *cfg = event_config_new();
	struct event_base *base;

	if (!cfg)
		return NULL;
	/* The default coarse clock has a 4 ms tick; BGP timers are seconds, tests are not. */
	event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
	base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (!base)
		log_err("event: cannot create the libevent loop (out of file descriptors?)");
	return base;
}

int event_loop_after_fork(struct event_base *base)
{
	if (event_reinit(base) < 0) {
		log_err("event: cannot reinitialise the libevent loop after fork()");
		return -1;
	}
	return 0;
}

void event_loop_free(struct event_base *base)
{
	if (base)
		event_base_free(base);
}

int event_loop_run(struct event_base *base)
{
	return event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY) < 0 ? -1 : 0;
}

int event_loop_once(struct event_base *base, bool block)
{
	return event_base_loop(base, EVLOOP_ONCE | (block ? 0 : EVLOOP_NONBLOCK)) < 0 ? -1 : 0;
}

void event_loop_exit(struct event_base *base)
{
	event_base_loopexit(base, NULL);
}

/* ---- accounting ------------------------------------------------------------------------ */

/*
 * One record per callback name, in a fixed table: a daemon has a few dozen callbacks, named
 * by string literals, so the records are never freed and a handle may point to its record
 * after the handle itself is gone (a callback that frees its own handle). Names past the
 * table's end share its last record.
 */
#define EVENT_STATS_MAX 256
static struct event_stat stats[EVENT_STATS_MAX];
static size_t nstats;
static uint64_t slow_us = EVENT_SLOW_MS * 1000ull;

static const unsigned kind_stat_type[] = {
	[EV_KIND_FD] = EVENT_STAT_READ,
	[EV_KIND_TIMER] = EVENT_STAT_TIMER,
	[EV_KIND_SIGNAL] = EVENT_STAT_SIGNAL,
	[EV_KIND_DEFER] = EVENT_STAT_DEFER,
};

static struct event_stat *stat_of(const char *name, enum ev_kind kind)
{
	struct event_stat *st = NULL;

	if (!name)
		name = "(unnamed)";
	for (size_t i = 0; i < nstats && !st; i++)
		if (stats[i].name == name || strcmp(stats[i].name, name) == 0)
			st = &stats[i];
	if (!st && nstats < EVENT_STATS_MAX - 1) {
		st = &stats[nstats++];
		st->name = name;
	}
	if (!st) {
		st = &stats[EVENT_STATS_MAX - 1];
		st->name = "(other callbacks)";
		nstats = EVENT_STATS_MAX;
	}
	st->types |= kind_stat_type[kind];
	st->handles++;
	return st;
}

static void slow_warn(struct event_stat *st, uint64_t us)
{
	uint64_t now = monotime_ms(), held = st->slow - 1 - st->slow_logged;

	if (st->last_log_ms && now - st->last_log_ms < EVENT_SLOW_LOG_INTERVAL_MS)
		return;
	st->last_log_ms = now;
	st->slow_logged = st->slow;
	log_warn("event: %s ran for %" PRIu64 " ms (over %" PRIu64 " ms): the daemon did nothing "
		 "else meanwhile, keepalives and the shell waited%s%" PRIu64 "%s; `show event cpu` "
		 "has its totals, please report it with them",
		 st->name, us / 1000, slow_us / 1000, held ? " (" : "", held,
		 held ? " slow runs not logged since the last warning)" : "");
}

/* What libevent calls for every handle: the owner's callback, timed. The callback may free
 * its handle, so nothing of it is read after the call. */
static void ev_run(evutil_socket_t fd, short what, void *p)
{
	struct ev *ev = p;
	struct event_stat *st = ev->stat;
	uint64_t t0 = monotime_us(), us;

	ev->cb(fd, what, ev->arg);
	us = monotime_us() - t0;
	st->calls++;
	st->total_us += us;
	if (us > st->max_us)
		st->max_us = us;
	if (us >= slow_us) {
		st->slow++;
		slow_warn(st, us);
	}
}

void event_stats_walk(event_stat_cb cb, void *arg)
{
	for (size_t i = 0; i < nstats; i++)
		cb(&stats[i], arg);
}

void event_stats_clear(void)
{
	for (size_t i = 0; i < nstats; i++) {
		struct event_stat *st = &stats[i];

		st->calls = st->total_us = st->max_us = st->slow = st->slow_logged = 0;
		st->last_log_ms = 0;
	}
}

void event_slow_threshold_set(uint32_t ms)
{
	slow_us = (ms ? ms : EVENT_SLOW_MS) * 1000ull;
}

/* ---- handles --------------------------------------------------------------------------- */

static struct ev *ev_new(struct event_base *base, enum ev_kind kind, int fd, short what, ev_cb cb,
			 void *arg, const char *name)
{
	struct ev *ev = XCALLOC(MTYPE_EVENT, sizeof(*ev) + event_get_struct_event_size());

	ev->base = base;
	ev->kind = kind;
	ev->cb = cb;
	ev->arg = arg;
	if (event_assign(ev_le(ev), base, fd, what, ev_run, ev) < 0) {
		log_err("event: libevent refused an event (fd/signal %d, flags %#x)", fd,
			(unsigned)what);
		XFREE(MTYPE_EVENT, ev);
		return NULL;
	}
	ev->stat = stat_of(name, kind);
	return ev;
}

struct ev *skua_event_fd_new(struct event_base *base, int fd, short what, ev_cb cb, void *arg,
			     const char *name)
{
	what &= EV_READ_FLAG | EV_WRITE_FLAG;
	return ev_new(base, EV_KIND_FD, fd, (short)(what | EV_PERSIST), cb, arg, name);
}

struct ev *skua_event_timer_new(struct event_base *base, ev_cb cb, void *arg, const char *name)
{
	return ev_new(base, EV_KIND_TIMER, -1, 0, cb, arg, name);
}

struct ev *skua_event_signal_new(struct event_base *base, int signum, ev_cb cb, void *arg,
				 const char *name)
{
	return ev_new(base, EV_KIND_SIGNAL, signum, EV_SIGNAL | EV_PERSIST, cb, arg, name);
}

struct ev *skua_event_defer_new(struct event_base *base, ev_cb cb, void *arg, const char *name)
{
	return ev_new(base, EV_KIND_DEFER, -1, 0, cb, arg, name);
}

/* xorshift64*: jitter needs spread, not secrecy. Seeded once per thread. */
static uint64_t event_random(void)
{
	static __thread uint64_t state;

	if (!state) {
		if (getrandom(&state, sizeof(state), GRND_NONBLOCK) != sizeof(state))
			state = monotime_ms() ^ (uint64_t)(uintptr_t)&state;
		if (!state)
			state = 0x9e3779b97f4a7c15ull;
	}
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dull;
}

uint32_t event_jitter(uint32_t msec, unsigned jitter_pct)
{
	uint64_t span;

	if (!jitter_pct || !msec)
		return msec;
	jitter_pct = MIN(jitter_pct, 100u);
	span = (uint64_t)msec * jitter_pct / 100; /* reduce by 0..span inclusive */
	return (uint32_t)(msec - event_random() % (span + 1));
}

int event_timer_add(struct ev *ev, uint32_t msec, unsigned jitter_pct)
{
	struct timeval tv;
	uint32_t delay;

	if (ev->kind != EV_KIND_TIMER) {
		errno = EINVAL;
		return -1;
	}
	delay = event_jitter(msec, jitter_pct);
	tv.tv_sec = delay / 1000;
	tv.tv_usec = (suseconds_t)(delay % 1000) * 1000;
	ev->expire_ms = monotime_ms() + delay;
	return le_add(ev_le(ev), &tv);
}

int64_t event_timer_remaining(const struct ev *ev)
{
	uint64_t now;

	if (ev->kind != EV_KIND_TIMER || !le_pending(ev_le(ev), EV_TIMEOUT))
		return -1;
	now = monotime_ms();
	return ev->expire_ms > now ? (int64_t)(ev->expire_ms - now) : 0;
}

int event_add(struct ev *ev)
{
	switch (ev->kind) {
	case EV_KIND_FD:
	case EV_KIND_SIGNAL:
		return le_add(ev_le(ev), NULL);
	case EV_KIND_DEFER:
		return event_defer(ev);
	case EV_KIND_TIMER:
		break;
	}
	errno = EINVAL; /* a timer needs its delay: event_timer_add() */
	return -1;
}

int event_defer(struct ev *ev)
{
	static const struct timeval zero;

	if (ev->kind != EV_KIND_DEFER) {
		errno = EINVAL;
		return -1;
	}
	/* Deferring twice before it ran is one run. */
	if (le_pending(ev_le(ev), EV_TIMEOUT))
		return 0;
	return le_add(ev_le(ev), &zero);
}

int event_del(struct ev *ev)
{
	return le_del(ev_le(ev));
}

bool event_pending(const struct ev *ev)
{
	return le_pending(ev_le(ev), EV_READ | EV_WRITE | EV_SIGNAL | EV_TIMEOUT) != 0;
}

void event_free(struct ev *ev)
{
	if (!ev)
		return;
	le_del(ev_le(ev));
	ev->stat->handles--;
	XFREE(MTYPE_EVENT, ev);
}

uint64_t monotime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

uint64_t monotime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int64_t wallclock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec;
}
