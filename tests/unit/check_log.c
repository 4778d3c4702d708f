/* SPDX-License-Identifier: ISC */
/* lib/log.c: level names, targets and levels, line format, reopen, the ring, debug flags. */
#include "lib/compat.h"

#include <check.h>
#include <fcntl.h>
#include <regex.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"

static char tmpdir[64];

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_log.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	log_init("testd");
	/* Keep the terminal quiet unless a test asks for stderr. */
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
}

static void teardown(void)
{
	char cmd[128];

	log_close();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Whole file into buf (NUL-terminated); returns its length. */
static size_t slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

START_TEST(test_level_names)
{
	static const char *const names[] = { "emergencies",   "alerts",	  "critical",
					     "errors",	      "warnings", "notifications",
					     "informational", "debugging" };

	for (int i = 0; i < 8; i++) {
		ck_assert_str_eq(log_level_name(i), names[i]);
		ck_assert_int_eq(log_level_from_name(names[i]), i);
	}
	ck_assert_int_eq(log_level_from_name("debug"), -1);
	ck_assert_int_eq(log_level_from_name(""), -1);
	ck_assert_int_eq(log_level_from_name(NULL), -1);
	ck_assert_int_eq(log_level_from_name("Debugging"), -1);
	ck_assert_ptr_null(log_level_name(8));
	ck_assert_ptr_null(log_level_name(-1));
	ck_assert_int_eq(LOG_LVL_DEBUG, 7);
	ck_assert_int_eq(LOG_LVL_EMERG, 0);
}
END_TEST

START_TEST(test_file_target_format)
{
	char path[128], buf[8192];
	regex_t re;
	int rc;

	snprintf(path, sizeof(path), "%s/skua.log", tmpdir);
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_INFO, path), 0);
	ck_assert_int_eq(log_target_level(LOG_TARGET_FILE), LOG_LVL_INFO);
	ck_assert_str_eq(log_target_filename(), path);

	log_info("hello %d", 42);
	log_debug("not at informational");
	log_err("an error: %s", "boom");
	slurp(path, buf, sizeof(buf));
	ck_assert_int_eq(count_lines(buf), 2);
	ck_assert_ptr_null(strstr(buf, "not at informational"));

	rc = regcomp(
		&re,
		"^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} TEST: hello 42\n"
		"[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} TEST: an error: "
		"boom\n$",
		REG_EXTENDED);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(regexec(&re, buf, 0, NULL, 0) == 0, "unexpected log file content: [%s]", buf);
	regfree(&re);

	/* raising the level to debugging lets debug through */
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, NULL), 0);
	log_debug("now visible");
	slurp(path, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "TEST: now visible\n"));

	/* disabling stops writes and forgets the file */
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DISABLED, NULL), 0);
	ck_assert_ptr_null(log_target_filename());
	log_err("after disable");
	slurp(path, buf, sizeof(buf));
	ck_assert_ptr_null(strstr(buf, "after disable"));
}
END_TEST

START_TEST(test_file_errors)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/no/such/dir/x.log", tmpdir);
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_INFO, path), -1);
	ck_assert_int_eq(log_target_level(LOG_TARGET_FILE), LOG_LVL_DISABLED);
	/* a file target needs a name the first time */
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_INFO, NULL), -1);
	ck_assert_int_eq(log_set_target(LOG_TARGET_STDOUT, 9, NULL), -1);
	ck_assert_int_eq(log_set_target(LOG_TARGET_MAX, LOG_LVL_INFO, NULL), -1);
}
END_TEST

START_TEST(test_reopen)
{
	char path[128], moved[128], buf[4096];

	snprintf(path, sizeof(path), "%s/rot.log", tmpdir);
	snprintf(moved, sizeof(moved), "%s/rot.log.1", tmpdir);
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, path), 0);
	log_notice("before rotation");
	ck_assert_int_eq(rename(path, moved), 0);
	log_notice("still the old file");
	log_reopen();
	log_notice("after rotation");

	slurp(moved, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "before rotation"));
	ck_assert_ptr_nonnull(strstr(buf, "still the old file"));
	ck_assert_ptr_null(strstr(buf, "after rotation"));
	slurp(path, buf, sizeof(buf));
	ck_assert_int_eq(count_lines(buf), 1);
	ck_assert_ptr_nonnull(strstr(buf, "after rotation"));
}
END_TEST

START_TEST(test_stderr_target)
{
	char path[128], buf[4096];
	int fd, saved;

	snprintf(path, sizeof(path), "%s/stderr.txt", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	saved = dup(STDERR_FILENO);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);

	ck_assert_int_eq(log_set_target(LOG_TARGET_STDOUT, LOG_LVL_WARNING, NULL), 0);
	log_warn("to stderr");
	log_notice("filtered out");
	fflush(stderr);

	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	slurp(path, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, " TEST: to stderr\n"));
	ck_assert_ptr_null(strstr(buf, "filtered out"));
	ck_assert_int_eq(count_lines(buf), 1);
}
END_TEST

struct ring_state {
	int n;
	char first[512], last[512];
};

static void ring_cb(const char *line, void *arg)
{
	struct ring_state *rs = arg;

	if (rs->n++ == 0)
		snprintf(rs->first, sizeof(rs->first), "%s", line);
	snprintf(rs->last, sizeof(rs->last), "%s", line);
}

START_TEST(test_ring)
{
	struct ring_state rs = { 0 };

	log_ring_clear();
	log_ring_walk(ring_cb, &rs);
	ck_assert_int_eq(rs.n, 0);

	for (int i = 0; i < 250; i++)
		log_info("ring message %d", i);
	log_debug("debug is not kept by default");
	log_ring_walk(ring_cb, &rs);
	ck_assert_int_eq(rs.n, 200);
	ck_assert_msg(strstr(rs.first, "TEST: ring message 50") != NULL, "first: %s", rs.first);
	ck_assert_msg(strstr(rs.last, "TEST: ring message 249") != NULL, "last: %s", rs.last);

	/* the ring level is adjustable */
	ck_assert_int_eq(log_set_ring_level(LOG_LVL_DEBUG), 0);
	log_debug("debug kept now");
	memset(&rs, 0, sizeof(rs));
	log_ring_walk(ring_cb, &rs);
	ck_assert_ptr_nonnull(strstr(rs.last, "debug kept now"));
	ck_assert_int_eq(log_set_ring_level(42), -1);
}
END_TEST

/* The newest ring line matches the extended regular expression re. */
static void last_line_matches(const char *re)
{
	struct ring_state rs = { 0 };
	regex_t rx;

	log_ring_walk(ring_cb, &rs);
	ck_assert_int_eq(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_msg(regexec(&rx, rs.last, 0, NULL, 0) == 0, "'%s' does not match %s", rs.last,
		      re);
	regfree(&rx);
}

/* `log timestamp precision N`: N digits of the seconds' fraction, none for 0. */
START_TEST(test_timestamp_precision)
{
	ck_assert_int_eq(log_timestamp_precision(), LOG_TS_PRECISION_DEFAULT);
	log_info("default");
	last_line_matches("^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} "
			  "TEST: default$");
	ck_assert_int_eq(log_set_timestamp_precision(6), 0);
	log_info("micro");
	last_line_matches(" [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6} TEST: micro$");
	ck_assert_int_eq(log_set_timestamp_precision(1), 0);
	log_info("tenths");
	last_line_matches(" [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9] TEST: tenths$");
	ck_assert_int_eq(log_set_timestamp_precision(0), 0);
	log_info("seconds");
	last_line_matches(" [0-9]{2}:[0-9]{2}:[0-9]{2} TEST: seconds$");
	/* out of range: refused, unchanged; -1 is the default again */
	ck_assert_int_eq(log_set_timestamp_precision(7), -1);
	ck_assert_int_eq(log_set_timestamp_precision(-2), -1);
	ck_assert_int_eq(log_timestamp_precision(), 0);
	ck_assert_int_eq(log_set_timestamp_precision(-1), 0);
	ck_assert_int_eq(log_timestamp_precision(), LOG_TS_PRECISION_DEFAULT);
}
END_TEST

START_TEST(test_would_log_and_debug_flags)
{
	char path[128];

	log_set_ring_level(LOG_LVL_DISABLED);
	ck_assert(!log_would_log(LOG_LVL_EMERG));
	ck_assert(!log_would_log(LOG_LVL_DEBUG));
	snprintf(path, sizeof(path), "%s/w.log", tmpdir);
	log_set_target(LOG_TARGET_FILE, LOG_LVL_NOTICE, path);
	ck_assert(log_would_log(LOG_LVL_NOTICE));
	ck_assert(log_would_log(LOG_LVL_ERR));
	ck_assert(!log_would_log(LOG_LVL_INFO));
	ck_assert(!log_would_log(LOG_LVL_DISABLED));
	log_set_target(LOG_TARGET_SYSLOG, LOG_LVL_DEBUG, NULL);
	ck_assert_int_eq(log_target_level(LOG_TARGET_SYSLOG), LOG_LVL_DEBUG);
	ck_assert(log_would_log(LOG_LVL_DEBUG));
	log_set_target(LOG_TARGET_SYSLOG, LOG_LVL_DISABLED, NULL);
	ck_assert(!log_would_log(LOG_LVL_DEBUG));

	debug_flags = 0;
	ck_assert(!DEBUG_ON(1u << 3));
	debug_flags |= 1u << 3;
	ck_assert(DEBUG_ON(1u << 3));
	ck_assert(!DEBUG_ON(1u << 4));
	debug_flags = 0;
}
END_TEST

START_TEST(test_long_message_and_errno)
{
	char path[128], *big, *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/long.log", tmpdir);
	log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, path);
	big = malloc(5000);
	memset(big, 'x', 4999);
	big[4999] = '\0';
	errno = EAGAIN;
	log_info("%s", big);
	ck_assert_int_eq(errno, EAGAIN);
	errno = ENOENT;
	log_info("errno says %m");
	buf = malloc(16384);
	len = slurp(path, buf, 16384);
	ck_assert_uint_lt(len, 2000); /* truncated, not 5000 bytes */
	ck_assert_ptr_nonnull(strstr(buf, "xxx...\n"));
	ck_assert_ptr_nonnull(strstr(buf, "errno says No such file or directory\n"));
	free(big);
	free(buf);
}
END_TEST

/* The file target is opened with O_NOFOLLOW, regular files only, 0640 (lib/log_file.h): a
 * link or a FIFO swapped in after validation is not written through. */
START_TEST(test_file_open_refuses_links_and_fifos)
{
	char target[160], link[160], fifo[160], file[160];
	struct stat st;
	mode_t old = umask(022);

	snprintf(target, sizeof(target), "%s/target", tmpdir);
	snprintf(link, sizeof(link), "%s/link.log", tmpdir);
	snprintf(fifo, sizeof(fifo), "%s/fifo.log", tmpdir);
	snprintf(file, sizeof(file), "%s/bgpd.log", tmpdir);
	ck_assert_int_eq(close(open(target, O_CREAT | O_WRONLY, 0600)), 0);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);

	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, link), -1);
	ck_assert_int_eq(errno, ELOOP);
	/* does not wait for a reader */
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, fifo), -1);
	ck_assert(errno == EINVAL || errno == ENXIO); /* ENXIO: no reader, O_NONBLOCK */
	ck_assert_int_eq(log_set_target(LOG_TARGET_FILE, LOG_LVL_DEBUG, file), 0);
	log_warn("into the file");
	ck_assert_int_eq(stat(file, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0640);
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	umask(old);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_level_names);
	tcase_add_test(tc, test_file_target_format);
	tcase_add_test(tc, test_file_errors);
	tcase_add_test(tc, test_reopen);
	tcase_add_test(tc, test_stderr_target);
	tcase_add_test(tc, test_ring);
	tcase_add_test(tc, test_timestamp_precision);
	tcase_add_test(tc, test_would_log_and_debug_flags);
	tcase_add_test(tc, test_long_message_and_errno);
	tcase_add_test(tc, test_file_open_refuses_links_and_fifos);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
