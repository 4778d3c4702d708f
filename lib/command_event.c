/* SPDX-License-Identifier: ISC */
/*
 * The event loop's accounting at the shell, FRR's commands (lib/event.h has the counters):
 *   show event cpu [json]   per callback name: handles, total time, calls, average, longest,
 *                           runs over the slow threshold, and the kinds of handle
 *   show thread cpu [json]  the same, under FRR 8's name (Debian 12's FRR), so habits carry
 *   clear event cpu         zero the counters (clear thread cpu too)
 * Wall-clock time only: the loop reads the monotonic clock around each callback, which costs
 * two vDSO reads, where a per-callback CPU clock would cost two system calls.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "lib/command_private.h"
#include "lib/event.h"
#include "lib/json.h"
#include "lib/vty.h"

/* FRR's type letters: R read, T timer, E event (a deferred task); S for a signal. */
static const char *type_letters(unsigned types, char *buf)
{
	char *p = buf;

	if (types & EVENT_STAT_READ)
		*p++ = 'R';
	if (types & EVENT_STAT_TIMER)
		*p++ = 'T';
	if (types & EVENT_STAT_DEFER)
		*p++ = 'E';
	if (types & EVENT_STAT_SIGNAL)
		*p++ = 'S';
	*p = '\0';
	return buf;
}

struct event_show {
	struct vty *vty;
	struct json_writer *jw; /* NULL: text */
	uint64_t calls, total_us;
};

static void stat_text(struct vty *vty, const struct event_stat *st)
{
	char types[8];

	vty_out(vty,
		"%7" PRIu32 " %9" PRIu64 ".%03" PRIu64 " %9" PRIu64 " %8" PRIu64 " %9" PRIu64
		" %9" PRIu64 " %4s  %s\n",
		st->handles, st->total_us / 1000, st->total_us % 1000, st->calls,
		st->calls ? st->total_us / st->calls : 0, st->max_us, st->slow,
		type_letters(st->types, types), st->name);
}

static void stat_json(struct json_writer *jw, const struct event_stat *st)
{
	char types[8];

	json_object_open(jw, st->name);
	json_uint(jw, "handles", st->handles);
	json_uint(jw, "totalCalls", st->calls);
	json_uint(jw, "totalWallUsec", st->total_us);
	json_uint(jw, "averageWallUsec", st->calls ? st->total_us / st->calls : 0);
	json_uint(jw, "maxWallUsec", st->max_us);
	json_uint(jw, "wallWarnings", st->slow);
	json_string(jw, "type", type_letters(st->types, types));
	json_object_close(jw);
}

/* One callback name: skipped when it never ran and has no handle (a name of the past). */
static void stat_row(const struct event_stat *st, void *arg)
{
	struct event_show *es = arg;

	if (!st->calls && !st->handles)
		return;
	es->calls += st->calls;
	es->total_us += st->total_us;
	if (es->jw)
		stat_json(es->jw, st);
	else
		stat_text(es->vty, st);
}

static void show_event_stats(struct vty *vty, bool json)
{
	struct json_writer jw;
	struct event_show es = { .vty = vty, .jw = json ? &jw : NULL };

	if (json) {
		json_init(&jw, &vty->out, true);
		json_object_open(&jw, NULL);
		event_stats_walk(stat_row, &es);
		json_object_close(&jw);
		json_end(&jw);
		return;
	}
	vty_out(vty, "Event statistics for %s (wall-clock; a warning at %u ms):\n\n",
		cmd_daemon_name(), EVENT_SLOW_MS);
	vty_out(vty, "Handles   Runtime(ms)   Invoked Avg uSec Max uSecs Wall_Warn Type  Event\n");
	event_stats_walk(stat_row, &es);
	vty_out(vty, "Total %11" PRIu64 ".%03" PRIu64 " %9" PRIu64 "\n", es.total_us / 1000,
		es.total_us % 1000, es.calls);
}

DEFCMD(show_event_cpu, "show event cpu [json]",
       SHOW_STR "The event loop\n"
		"Time spent in each callback\n" JSON_STR)
{
	show_event_stats(vty, cmd_has(args, "json"));
	return CMD_SUCCESS;
}

DEFCMD(show_thread_cpu, "show thread cpu [json]",
       SHOW_STR "The event loop (FRR 8's name for it)\n"
		"Time spent in each callback\n" JSON_STR)
{
	show_event_stats(vty, cmd_has(args, "json"));
	return CMD_SUCCESS;
}

DEFCMD(clear_event_cpu, "clear <event|thread>$which cpu",
       "Reset functions\n"
       "The event loop\n"
       "The event loop (FRR 8's name for it)\n"
       "Time spent in each callback\n")
{
	(void)args;
	event_stats_clear();
	vty_out(vty, "Event statistics cleared.\n");
	return CMD_SUCCESS;
}

void cmd_event_init(void)
{
	/* VIEW commands are installed into ENABLE too (cmd_install). */
	cmd_install(VIEW_NODE, &show_event_cpu_cmd);
	cmd_install(VIEW_NODE, &show_thread_cpu_cmd);
	cmd_install(ENABLE_NODE, &clear_event_cpu_cmd);
}
