/* SPDX-License-Identifier: ISC */
/*
 * The show commands every daemon has (lib/command_show.c, lib/command_event.c): show memory,
 * show logging and show event cpu in text and JSON, and `terminal length` accepted as a no-op.
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/vty.h"

DEFINE_MTYPE(TEST_WIDGET, "Test widgets");

static struct vty *vty;
static char logdir[64], logfile[96];

static void setup(void)
{
	cmd_init();
	vty = vty_new(-1);
	snprintf(logdir, sizeof(logdir), "/tmp/check_command_show.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(logdir));
	snprintf(logfile, sizeof(logfile), "%s/test.log", logdir);
}

static void teardown(void)
{
	vty_free(vty);
	cmd_terminate();
	log_close();
	log_ring_clear();
	unlink(logfile);
	rmdir(logdir);
}

static const char *run(const char *line, int want)
{
	sbuf_reset(&vty->out);
	sbuf_puts(&vty->out, "");
	ck_assert_int_eq(cmd_execute(vty, line, false), want);
	return vty->out.buf;
}

START_TEST(show_memory_text)
{
	void *w[3];
	const char *o;
	char line[128];

	for (int i = 0; i < 3; i++)
		w[i] = XMALLOC(MTYPE_TEST_WIDGET, 100);
	o = run("show memory", CMD_SUCCESS);
	/* FRR's layout: heading, the allocator's statistics, then one line per type in use */
	ck_assert_msg(strncmp(o,
			      "Memory statistics for check_command_show:\n"
			      "System allocator statistics:\n"
			      "  Total heap allocated:  ",
			      strlen("Memory statistics for check_command_show:\n"
				     "System allocator statistics:\n"
				     "  Total heap allocated:  ")) == 0,
		      "unexpected start:\n%s", o);
	ck_assert_ptr_nonnull(strstr(o, "\n  Holding blocks:        "));
	ck_assert_ptr_nonnull(strstr(o, "\n(see system documentation for 'mallinfo' for meaning)\n"
					"--- qmem check_command_show ---\n"
					"Type                          : Current#      Bytes     "
					"Total#\n"));
	snprintf(line, sizeof(line),
		 "\nTest widgets                  :        3 %10llu          3\n",
		 (unsigned long long)MTYPE_TEST_WIDGET->bytes);
	ck_assert_msg(strstr(o, line), "no '%s' in:\n%s", line + 1, o);
	/* the engine's own types are in use while it runs */
	ck_assert_ptr_nonnull(strstr(o, "\nCommand token "));
	ck_assert_ptr_nonnull(strstr(o, "\nTotal: "));

	/* a type with nothing allocated is not listed */
	for (int i = 0; i < 3; i++)
		XFREE(MTYPE_TEST_WIDGET, w[i]);
	o = run("show memory", CMD_SUCCESS);
	ck_assert_ptr_null(strstr(o, "Test widgets"));
	ck_assert_uint_eq(MTYPE_TEST_WIDGET->total, 3);

	/* abbreviations as usual */
	o = run("sh mem", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(o, "--- qmem check_command_show ---\n"));
}
END_TEST

START_TEST(show_memory_json)
{
	void *w = XMALLOC(MTYPE_TEST_WIDGET, 300), *w2 = XMALLOC(MTYPE_TEST_WIDGET, 10);
	const char *o;
	char want[256];

	XFREE(MTYPE_TEST_WIDGET, w2);
	o = run("show memory json", CMD_SUCCESS);
	ck_assert_msg(strncmp(o,
			      "{\n  \"daemon\":\"check_command_show\",\n"
			      "  \"systemAllocator\":{\n    \"totalHeapAllocated\":",
			      60) == 0,
		      "unexpected start:\n%s", o);
	ck_assert_ptr_nonnull(strstr(o, "\"holdingBlocks\":"));
	snprintf(want, sizeof(want),
		 "{\n      \"name\":\"Test widgets\",\n      \"current\":1,\n"
		 "      \"bytes\":%llu,\n      \"total\":2\n    }",
		 (unsigned long long)MTYPE_TEST_WIDGET->bytes);
	ck_assert_msg(strstr(o, want), "no\n%s\nin:\n%s", want, o);
	ck_assert_ptr_nonnull(strstr(o, "\"name\":\"Command token\""));
	ck_assert_ptr_nonnull(strstr(o, "\n  \"totalCurrent\":"));
	ck_assert_ptr_nonnull(strstr(o, "\n  \"totalBytes\":"));
	ck_assert_str_eq(o + strlen(o) - 3, "\n}\n");
	XFREE(MTYPE_TEST_WIDGET, w);
}
END_TEST

START_TEST(show_logging_text)
{
	const char *o;
	char want[512];

	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_INFO, logfile), 0);
	ck_assert_int_eq(log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL), 0);
	log_ring_clear();
	o = run("show logging", CMD_SUCCESS);
	snprintf(want, sizeof(want),
		 "Logging configuration for check_command_show:\n"
		 "Syslog logging: disabled\n"
		 "Stdout logging: disabled\n"
		 "File logging: level informational, filename %s\n"
		 "Record priority: disabled\n"
		 "Timestamp precision: 3\n"
		 "\n"
		 "Recent log messages (oldest first):\n"
		 "(none)\n",
		 logfile);
	ck_assert_str_eq(o, want);

	/* the ring: in order, with FRR's line format */
	log_info("first message for the ring");
	log_warn("second message, peer %s", "192.0.2.1");
	log_debug("not kept: below the ring's level");
	ck_assert_int_eq(log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DEBUG, NULL), 0);
	o = run("show logging", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(o, "Stdout logging: level debugging\n"));
	o = strstr(o, "Recent log messages (oldest first):\n");
	ck_assert_ptr_nonnull(o);
	o += strlen("Recent log messages (oldest first):\n");
	/* "2026/12/03 13:00:00.123 SKUA: first message for the ring" */
	ck_assert_msg(strlen(o) > 24 && o[4] == '/' && o[10] == ' ' && o[19] == '.', "%s", o);
	ck_assert_ptr_nonnull(strstr(o, ": first message for the ring\n"));
	ck_assert_ptr_nonnull(strstr(o, ": second message, peer 192.0.2.1\n"));
	ck_assert(strstr(o, "first message") < strstr(o, "second message"));
	ck_assert_ptr_null(strstr(o, "not kept"));
}
END_TEST

START_TEST(show_logging_json)
{
	const char *o;
	char want[512];

	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_NOTICE, logfile), 0);
	ck_assert_int_eq(log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL), 0);
	log_ring_clear();
	log_notice("a \"quoted\" message");
	o = run("show logging json", CMD_SUCCESS);
	snprintf(want, sizeof(want),
		 "{\n"
		 "  \"daemon\":\"check_command_show\",\n"
		 "  \"syslog\":{\n"
		 "    \"enabled\":false\n"
		 "  },\n"
		 "  \"stdout\":{\n"
		 "    \"enabled\":false\n"
		 "  },\n"
		 "  \"file\":{\n"
		 "    \"enabled\":true,\n"
		 "    \"level\":\"notifications\",\n"
		 "    \"filename\":\"%s\"\n"
		 "  },\n"
		 "  \"recordPriority\":false,\n"
		 "  \"timestampPrecision\":3,\n"
		 "  \"recentMessages\":[\n"
		 "    \"",
		 logfile);
	ck_assert_msg(strncmp(o, want, strlen(want)) == 0, "want:\n%s\ngot:\n%s", want, o);
	ck_assert_ptr_nonnull(strstr(o, ": a \\\"quoted\\\" message\"\n  ]\n}\n"));
}
END_TEST

START_TEST(terminal_length)
{
	ck_assert_str_eq(run("terminal length 0", CMD_SUCCESS), "");
	ck_assert_str_eq(run("terminal length 512", CMD_SUCCESS), "");
	ck_assert_str_eq(run("terminal no length", CMD_SUCCESS), "");
	ck_assert_str_eq(run("term len 0", CMD_SUCCESS), "");
	run("terminal length 513", CMD_ERR_NO_MATCH);
	/* in view mode too */
	run("disable", CMD_SUCCESS);
	ck_assert_str_eq(run("terminal length 0", CMD_SUCCESS), "");
	ck_assert_ptr_nonnull(strstr(run("show memory", CMD_SUCCESS), "--- qmem "));
}
END_TEST

/* ---- show event cpu ---- */

static struct event_base *ev_base;
static int show_cb_runs;

static void show_test_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (++show_cb_runs == 2)
		event_loop_exit(ev_base);
	else
		event_defer(*(struct ev **)arg);
}

START_TEST(show_event_cpu)
{
	struct ev *d;
	const char *o, *row;
	unsigned handles;
	unsigned long ms, us, calls, avg, max, slow;
	char type[8], name[64];

	ev_base = event_loop_new();
	ck_assert_ptr_nonnull(ev_base);
	d = event_defer_new(ev_base, show_test_cb, &d);
	ck_assert_int_eq(event_defer(d), 0);
	ck_assert_int_eq(event_loop_run(ev_base), 0);
	ck_assert_int_eq(show_cb_runs, 2);

	o = run("show event cpu", CMD_SUCCESS);
	ck_assert_msg(strstr(o, "Event statistics for check_command_show"), "%s", o);
	ck_assert_msg(strstr(o, "Handles   Runtime(ms)   Invoked Avg uSec Max uSecs Wall_Warn "
				"Type  Event\n"),
		      "%s", o);
	/* one handle, two runs, no slow run, a deferred task ("E"), then its name */
	row = strstr(o, "E  show_test_cb\n");
	ck_assert_msg(row, "no row for show_test_cb in:\n%s", o);
	while (row > o && row[-1] != '\n')
		row--;
	ck_assert_int_eq(sscanf(row, "%u %lu.%lu %lu %lu %lu %lu %7s %63s", &handles, &ms, &us,
				&calls, &avg, &max, &slow, type, name),
			 9);
	ck_assert_uint_eq(handles, 1);
	ck_assert_uint_eq(calls, 2);
	ck_assert_uint_eq(slow, 0);
	ck_assert_uint_le(avg, max);
	ck_assert_str_eq(type, "E");
	ck_assert_str_eq(name, "show_test_cb");
	ck_assert_msg(strncmp(row, "      1 ", 8) == 0 && strstr(o, "\nTotal "),
		      "columns not aligned to the heading:\n%s", o);
	ck_assert_str_eq(run("show thread cpu", CMD_SUCCESS), o); /* FRR 8's name */

	o = run("show event cpu json", CMD_SUCCESS);
	ck_assert_msg(strstr(o, "\"show_test_cb\":{\n    \"handles\":1,\n    \"totalCalls\":2,"),
		      "%s", o);
	ck_assert_ptr_nonnull(strstr(o, "\"type\":\"E\""));

	ck_assert_str_eq(run("clear event cpu", CMD_SUCCESS), "Event statistics cleared.\n");
	o = run("show event cpu json", CMD_SUCCESS);
	ck_assert_msg(strstr(o, "\"show_test_cb\":{\n    \"handles\":1,\n    \"totalCalls\":0,"),
		      "%s", o);
	run("disable", CMD_SUCCESS);
	run("clear event cpu", CMD_ERR_NO_MATCH); /* an enable-mode command */
	ck_assert_ptr_nonnull(strstr(run("show event cpu", CMD_SUCCESS), "show_test_cb"));

	event_free(d);
	event_loop_free(ev_base);
}
END_TEST

static Suite *show_suite(void)
{
	Suite *s = suite_create("command_show");
	TCase *tc = tcase_create("show");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, show_memory_text);
	tcase_add_test(tc, show_memory_json);
	tcase_add_test(tc, show_logging_text);
	tcase_add_test(tc, show_logging_json);
	tcase_add_test(tc, terminal_length);
	tcase_add_test(tc, show_event_cpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(show_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
