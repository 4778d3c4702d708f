/* SPDX-License-Identifier: ISC */
/* lib/log_limit.c: the first lines pass, the rest are counted and reported by the next one. */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/log_limit.h"

struct ring_count {
	int lines;	/* every line in the ring */
	int matching;	/* lines holding needle */
	int suppressed; /* "similar messages suppressed" lines */
	char last[512]; /* the last "suppressed" line */
	const char *needle;
};

static void count_cb(const char *line, void *arg)
{
	struct ring_count *rc = arg;

	rc->lines++;
	if (rc->needle && strstr(line, rc->needle))
		rc->matching++;
	if (strstr(line, "similar messages suppressed")) {
		rc->suppressed++;
		snprintf(rc->last, sizeof(rc->last), "%s", line);
	}
}

static struct ring_count ring_count(const char *needle)
{
	struct ring_count rc = { .needle = needle };

	log_ring_walk(count_cb, &rc);
	return rc;
}

static void setup(void)
{
	log_init("testd");
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	log_set_ring_level(LOG_LVL_INFO);
	log_ring_clear();
}

static void teardown(void)
{
	log_ring_clear();
	log_close();
}

/* A flood through one call site: the first LOG_LIMIT_BURST lines, nothing more. */
static void offend(int i)
{
	log_warn_limited("malformed thing number %d", i);
}

START_TEST(test_call_site_flood)
{
	struct ring_count rc;

	for (int i = 0; i < 20000; i++)
		offend(i);
	rc = ring_count("malformed thing number");
	ck_assert_int_eq(rc.matching, LOG_LIMIT_BURST);
	ck_assert_int_eq(rc.lines, LOG_LIMIT_BURST);
	/* the first occurrence is the one kept */
	rc = ring_count("malformed thing number 0");
	ck_assert_int_eq(rc.matching, 1);
	/* another call site is not hidden by the first one's flood */
	log_warn_limited("a different complaint");
	rc = ring_count("a different complaint");
	ck_assert_int_eq(rc.matching, 1);
}
END_TEST

START_TEST(test_window_reports_suppressed)
{
	struct log_limit ll = LOG_LIMIT_INIT(100, 3);
	struct ring_count rc;

	for (int i = 0; i < 50; i++)
		log_limited(&ll, LOG_LVL_WARNING, "burst line %d", i);
	rc = ring_count("burst line");
	ck_assert_int_eq(rc.matching, 3);
	ck_assert_int_eq(rc.suppressed, 0);
	usleep(150 * 1000); /* the window ends */
	log_limited(&ll, LOG_LVL_WARNING, "burst line after the window");
	rc = ring_count("burst line");
	ck_assert_int_eq(rc.matching, 4);
	ck_assert_int_eq(rc.suppressed, 1);
	ck_assert_msg(strstr(rc.last, "47 similar messages suppressed"), "got: %s", rc.last);
	/* the count restarted: the next line of the new window says nothing more */
	log_limited(&ll, LOG_LVL_WARNING, "burst line again");
	rc = ring_count(NULL);
	ck_assert_int_eq(rc.suppressed, 1);
}
END_TEST

START_TEST(test_unwanted_level_costs_no_token)
{
	struct log_limit ll = LOG_LIMIT_INIT(60000, 2);
	struct ring_count rc;

	/* debugging goes nowhere here: those lines must not use up the burst */
	for (int i = 0; i < 10; i++)
		log_limited(&ll, LOG_LVL_DEBUG, "debug %d", i);
	log_limited(&ll, LOG_LVL_WARNING, "wanted one");
	log_limited(&ll, LOG_LVL_WARNING, "wanted two");
	log_limited(&ll, LOG_LVL_WARNING, "wanted three");
	rc = ring_count("wanted");
	ck_assert_int_eq(rc.matching, 2);
	ck_assert_int_eq(ring_count("debug").matching, 0);
}
END_TEST

START_TEST(test_allow_counts)
{
	struct log_limit ll = LOG_LIMIT_INIT(60000, 1);
	uint64_t dropped = 99;

	ck_assert(log_limit_allow(&ll, &dropped));
	ck_assert_uint_eq(dropped, 0);
	for (int i = 0; i < 5; i++)
		ck_assert(!log_limit_allow(&ll, &dropped));
	ck_assert_uint_eq(ll.suppressed, 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("log_limit");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_call_site_flood);
	tcase_add_test(tc, test_window_reports_suppressed);
	tcase_add_test(tc, test_unwanted_level_costs_no_token);
	tcase_add_test(tc, test_allow_counts);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
