/* SPDX-License-Identifier: ISC */
/*
 * lib/event.c: timers fire in order and on time, jitter stays in bounds, deferred tasks run
 * once on the next turn after I/O and neither starve nor are starved by fd events, signals
 * arrive through the loop, handles can be freed from their own callback.
 */
#include "lib/compat.h"

#include <check.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "lib/core_mtypes.h"
#include "lib/event.h"
#include "lib/log.h"

static struct event_base *base;

static void setup(void)
{
	base = event_loop_new();
	ck_assert_ptr_nonnull(base);
}

static void teardown(void)
{
	event_loop_free(base);
}

/* ---- timers ---- */

struct fired {
	int order[16];
	uint64_t at[16];
	int n;
};

static struct fired fired;

static void timer_cb(int fd, short what, void *arg)
{
	int id = (int)(intptr_t)arg;

	fired.order[fired.n] = id;
	fired.at[fired.n] = monotime_ms();
	fired.n++;
	if (fired.n == 5)
		event_loop_exit(base);
}

START_TEST(test_timers_in_order)
{
	static const uint32_t delays[5] = { 50, 10, 40, 20, 30 };
	struct ev *t[5];
	uint64_t start = monotime_ms();

	memset(&fired, 0, sizeof(fired));
	for (int i = 0; i < 5; i++) {
		t[i] = event_timer_new(base, timer_cb, (void *)(intptr_t)i);
		ck_assert_ptr_nonnull(t[i]);
		ck_assert(!event_pending(t[i]));
		ck_assert_int_eq(event_timer_remaining(t[i]), -1);
		ck_assert_int_eq(event_timer_add(t[i], delays[i], 0), 0);
		ck_assert(event_pending(t[i]));
	}
	ck_assert_int_eq(event_loop_run(base), 0);
	ck_assert_int_eq(fired.n, 5);
	/* 10, 20, 30, 40, 50 ms: ids 1, 3, 4, 2, 0 */
	ck_assert_int_eq(fired.order[0], 1);
	ck_assert_int_eq(fired.order[1], 3);
	ck_assert_int_eq(fired.order[2], 4);
	ck_assert_int_eq(fired.order[3], 2);
	ck_assert_int_eq(fired.order[4], 0);
	for (int i = 0; i < 5; i++) {
		uint64_t want = delays[fired.order[i]];

		ck_assert_uint_ge(fired.at[i] - start, want); /* never early */
		ck_assert_uint_lt(fired.at[i] - start, want + 500);
	}
	for (int i = 0; i < 5; i++) {
		ck_assert(!event_pending(t[i])); /* one-shot */
		event_free(t[i]);
	}
}
END_TEST

START_TEST(test_timer_remaining_rearm_del)
{
	struct ev *t = event_timer_new(base, timer_cb, NULL);
	int64_t r;

	memset(&fired, 0, sizeof(fired));
	ck_assert_int_eq(event_timer_add(t, 10000, 0), 0);
	r = event_timer_remaining(t);
	ck_assert_int_le(r, 10000);
	ck_assert_int_gt(r, 9000);
	/* re-arming replaces the deadline */
	ck_assert_int_eq(event_timer_add(t, 2000, 0), 0);
	r = event_timer_remaining(t);
	ck_assert_int_le(r, 2000);
	ck_assert_int_gt(r, 1000);
	ck_assert_int_eq(event_del(t), 0);
	ck_assert(!event_pending(t));
	ck_assert_int_eq(event_timer_remaining(t), -1);
	/* a timer is not armed by event_add() (it needs a delay) */
	ck_assert_int_eq(event_add(t), -1);
	/* deleted: the loop has nothing to run */
	ck_assert_int_eq(event_loop_once(base, false), 0);
	ck_assert_int_eq(fired.n, 0);
	/* zero delay fires on the next turn */
	ck_assert_int_eq(event_timer_add(t, 0, 0), 0);
	ck_assert_int_eq(event_loop_once(base, true), 0);
	ck_assert_int_eq(fired.n, 1);
	event_free(t);
	event_free(NULL);
}
END_TEST

START_TEST(test_jitter_bounds)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	struct ev *t = event_timer_new(base, timer_cb, NULL);

	/* RFC 4271 10: jitter 25 % means a delay in 0.75..1.0 of the value */
	for (int i = 0; i < 20000; i++) {
		uint32_t d = event_jitter(1000, 25);

		ck_assert_uint_ge(d, 750);
		ck_assert_uint_le(d, 1000);
		lo = MIN(lo, d);
		hi = MAX(hi, d);
	}
	/* the whole range is used, not a constant */
	ck_assert_uint_lt(lo, 760);
	ck_assert_uint_gt(hi, 990);
	ck_assert_uint_eq(event_jitter(1000, 0), 1000);
	ck_assert_uint_eq(event_jitter(0, 25), 0);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_le(event_jitter(1000, 250), 1000); /* > 100 % is capped */

	/* and a jittered timer's deadline lies in the range too */
	for (int i = 0; i < 50; i++) {
		int64_t r;

		ck_assert_int_eq(event_timer_add(t, 60000, 25), 0);
		r = event_timer_remaining(t);
		ck_assert_int_le(r, 60000);
		ck_assert_int_ge(r, 45000 - 100);
	}
	event_free(t);
}
END_TEST

/* ---- deferred tasks ---- */

static int defer_runs;

static void defer_cb(int fd, short what, void *arg)
{
	defer_runs++;
}

START_TEST(test_defer_once)
{
	struct ev *d = event_defer_new(base, defer_cb, NULL);

	defer_runs = 0;
	ck_assert_int_eq(event_defer(d), 0);
	ck_assert_int_eq(event_defer(d), 0); /* twice before it ran: one run */
	ck_assert(event_pending(d));
	ck_assert_int_eq(defer_runs, 0); /* not synchronous */
	ck_assert_int_eq(event_loop_once(base, false), 0);
	ck_assert_int_eq(defer_runs, 1);
	ck_assert(!event_pending(d));
	ck_assert_int_eq(event_loop_once(base, false), 0);
	ck_assert_int_eq(defer_runs, 1);
	/* event_add() on a deferred handle defers it */
	ck_assert_int_eq(event_add(d), 0);
	ck_assert_int_eq(event_loop_once(base, false), 0);
	ck_assert_int_eq(defer_runs, 2);
	/* cancelled before its turn: never runs */
	event_defer(d);
	event_del(d);
	ck_assert_int_eq(event_loop_once(base, false), 0);
	ck_assert_int_eq(defer_runs, 2);
	event_free(d);
}
END_TEST

struct starve {
	struct ev *defer;
	int defer_runs;
	int fd_runs;
	int defer_runs_at_first_fd;
	int pipefd[2];
	bool drain;
};

static void starve_defer_cb(int fd, short what, void *arg)
{
	struct starve *st = arg;

	st->defer_runs++;
	if (st->defer_runs < 1000)
		event_defer(st->defer); /* a batch job that always has more to do */
	else
		event_loop_exit(base);
}

static void starve_fd_cb(int fd, short what, void *arg)
{
	struct starve *st = arg;
	char c;

	if (st->fd_runs++ == 0)
		st->defer_runs_at_first_fd = st->defer_runs;
	if (st->drain && read(fd, &c, 1) != 1)
		ck_abort_msg("read from the pipe failed");
}

/* A task that re-defers itself forever must not keep fd events from being served. */
START_TEST(test_defer_does_not_starve_io)
{
	struct starve st = { 0 };
	struct ev *r;

	ck_assert_int_eq(pipe(st.pipefd), 0);
	st.defer = event_defer_new(base, starve_defer_cb, &st);
	r = event_fd_new(base, st.pipefd[0], EV_READ_FLAG, starve_fd_cb, &st);
	ck_assert_int_eq(event_add(r), 0);
	ck_assert_int_eq(event_defer(st.defer), 0);
	/* let the deferred job spin for a few turns, then make the fd readable */
	for (int i = 0; i < 5; i++)
		event_loop_once(base, false);
	ck_assert_int_eq(st.defer_runs, 5);
	ck_assert_int_eq(st.fd_runs, 0);
	ck_assert_int_eq(write(st.pipefd[1], "x", 1), 1);
	st.drain = true;
	event_loop_once(base, false);
	ck_assert_int_eq(st.fd_runs, 1); /* served on the very next turn */
	/* and in that turn the I/O ran before the deferred task */
	ck_assert_int_eq(st.defer_runs_at_first_fd, 5);
	ck_assert_int_eq(st.defer_runs, 6);
	event_free(r);
	event_free(st.defer);
	close(st.pipefd[0]);
	close(st.pipefd[1]);
}
END_TEST

/* The converse: an fd that is always readable must not keep deferred work from running. */
START_TEST(test_busy_io_does_not_starve_defer)
{
	struct starve st = { 0 };
	struct ev *r;

	ck_assert_int_eq(pipe(st.pipefd), 0);
	ck_assert_int_eq(write(st.pipefd[1], "x", 1), 1); /* never drained: always readable */
	st.defer = event_defer_new(base, starve_defer_cb, &st);
	r = event_fd_new(base, st.pipefd[0], EV_READ_FLAG, starve_fd_cb, &st);
	ck_assert_int_eq(event_add(r), 0);
	ck_assert_int_eq(event_defer(st.defer), 0);
	ck_assert_int_eq(event_loop_run(base), 0); /* exits after 1000 deferred runs */
	ck_assert_int_eq(st.defer_runs, 1000);
	/* one fd callback per turn, one deferred run per turn: they alternate */
	ck_assert_int_ge(st.fd_runs, 999);
	ck_assert_int_le(st.fd_runs, 1001);
	event_free(r);
	event_free(st.defer);
	close(st.pipefd[0]);
	close(st.pipefd[1]);
}
END_TEST

/* ---- fd watchers ---- */

static int write_runs;

static void write_cb(int fd, short what, void *arg)
{
	struct ev **self = arg;

	ck_assert(what & EV_WRITE_FLAG);
	if (++write_runs == 3) {
		event_free(*self); /* freeing itself from its own callback is allowed */
		*self = NULL;
		event_loop_exit(base);
	}
}

START_TEST(test_fd_persistent_and_self_free)
{
	int fds[2];
	struct ev *w;
	uint64_t before = MTYPE_EVENT->allocated;

	ck_assert_int_eq(pipe(fds), 0);
	write_runs = 0;
	w = event_fd_new(base, fds[1], EV_WRITE_FLAG, write_cb, &w);
	ck_assert(!event_pending(w)); /* not armed until event_add() */
	ck_assert_int_eq(event_add(w), 0);
	ck_assert(event_pending(w));
	ck_assert_int_eq(event_loop_run(base), 0);
	ck_assert_int_eq(write_runs, 3); /* persistent: re-armed after each callback */
	ck_assert_ptr_null(w);
	ck_assert_uint_eq(MTYPE_EVENT->allocated, before);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* ---- signals ---- */

static int sig_runs, sig_seen;

static void sig_cb(int signum, short what, void *arg)
{
	sig_runs++;
	sig_seen = signum;
}

START_TEST(test_signal)
{
	struct ev *s = event_signal_new(base, SIGUSR1, sig_cb, NULL);

	sig_runs = 0;
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(event_add(s), 0);
	ck_assert_int_eq(raise(SIGUSR1), 0);
	for (int i = 0; i < 10 && !sig_runs; i++)
		event_loop_once(base, false);
	ck_assert_int_eq(sig_runs, 1);
	ck_assert_int_eq(sig_seen, SIGUSR1);
	/* persistent: a second signal is delivered too */
	ck_assert_int_eq(raise(SIGUSR1), 0);
	for (int i = 0; i < 10 && sig_runs < 2; i++)
		event_loop_once(base, false);
	ck_assert_int_eq(sig_runs, 2);
	event_free(s);
}
END_TEST

START_TEST(test_clocks)
{
	uint64_t a = monotime_ms(), b;
	int64_t now = (int64_t)time(NULL);

	usleep(20000);
	b = monotime_ms();
	ck_assert_uint_ge(b - a, 19);
	ck_assert_uint_lt(b - a, 1000);
	ck_assert_int_le(llabs(wallclock_s() - now), 2);
}
END_TEST

/* ---- accounting (show event cpu) and the slow-callback warning ---- */

struct stat_find {
	const char *name;
	const struct event_stat *found;
};

static void stat_find_cb(const struct event_stat *st, void *arg)
{
	struct stat_find *f = arg;

	if (strcmp(st->name, f->name) == 0)
		f->found = st;
}

static const struct event_stat *stat_named(const char *name)
{
	struct stat_find f = { .name = name };

	event_stats_walk(stat_find_cb, &f);
	return f.found;
}

struct ring_match {
	const char *needle;
	int n;
};

static void ring_match_cb(const char *line, void *arg)
{
	struct ring_match *m = arg;

	if (strstr(line, m->needle))
		m->n++;
}

static int ring_count(const char *needle)
{
	struct ring_match m = { .needle = needle };

	log_ring_walk(ring_match_cb, &m);
	return m.n;
}

static int slow_runs;

static void slow_timer_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	slow_runs++;
	usleep(40 * 1000);
	event_loop_exit(base);
}

START_TEST(test_slow_callback_counted_and_logged_once)
{
	struct ev *t = event_timer_new(base, slow_timer_cb, NULL);
	const struct event_stat *st = stat_named("slow_timer_cb");

	log_init("check_event");
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	log_set_ring_level(LOG_LVL_INFO);
	log_ring_clear();
	event_slow_threshold_set(30);
	ck_assert_ptr_nonnull(st); /* named from the call, counted from its creation */
	ck_assert_uint_eq(st->handles, 1);
	ck_assert(st->types & EVENT_STAT_TIMER);
	ck_assert_uint_eq(st->calls, 0);

	for (int round = 1; round <= 2; round++) {
		ck_assert_int_eq(event_timer_add(t, 1, 0), 0);
		ck_assert_int_eq(event_loop_run(base), 0);
		ck_assert_int_eq(slow_runs, round);
		ck_assert_uint_eq(st->calls, (unsigned)round);
		ck_assert_uint_eq(st->slow, (unsigned)round);
		ck_assert_uint_ge(st->max_us, 40000);
		ck_assert_uint_ge(st->total_us, 40000u * (unsigned)round);
	}
	/* One warning line for two slow runs within the minute: a stall must not flood the log. */
	ck_assert_int_eq(ring_count("event: slow_timer_cb ran for"), 1);

	event_stats_clear();
	ck_assert_uint_eq(st->calls, 0);
	ck_assert_uint_eq(st->max_us, 0);
	ck_assert_uint_eq(st->slow, 0);
	ck_assert_uint_eq(st->handles, 1); /* the handle still exists */
	/* After a clear the next slow run is logged again, at once. */
	ck_assert_int_eq(event_timer_add(t, 1, 0), 0);
	ck_assert_int_eq(event_loop_run(base), 0);
	ck_assert_int_eq(ring_count("event: slow_timer_cb ran for"), 2);

	event_free(t);
	ck_assert_uint_eq(st->handles, 0);
	event_slow_threshold_set(0);
}
END_TEST

START_TEST(test_self_freeing_callback_counted)
{
	int fds[2];
	struct ev *w;
	const struct event_stat *st;
	uint64_t calls;

	ck_assert_int_eq(pipe(fds), 0);
	write_runs = 0;
	w = event_fd_new(base, fds[1], EV_WRITE_FLAG, write_cb, &w);
	st = stat_named("write_cb");
	ck_assert_ptr_nonnull(st);
	calls = st->calls;
	ck_assert(st->types & EVENT_STAT_READ);
	ck_assert_int_eq(event_add(w), 0);
	ck_assert_int_eq(event_loop_run(base), 0);
	ck_assert_ptr_null(w); /* freed by its own third run, which is still counted */
	ck_assert_uint_eq(st->calls, calls + 3);
	ck_assert_uint_eq(st->handles, 0);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("event");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_timers_in_order);
	tcase_add_test(tc, test_timer_remaining_rearm_del);
	tcase_add_test(tc, test_jitter_bounds);
	tcase_add_test(tc, test_defer_once);
	tcase_add_test(tc, test_defer_does_not_starve_io);
	tcase_add_test(tc, test_busy_io_does_not_starve_defer);
	tcase_add_test(tc, test_fd_persistent_and_self_free);
	tcase_add_test(tc, test_signal);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_slow_callback_counted_and_logged_once);
	tcase_add_test(tc, test_self_freeing_callback_counted);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
