/* SPDX-License-Identifier: ISC */
/*
 * lib/pidfile.c and lib/privs.c: one daemon per pid file, the run directory, and the drop
 * from root to the run user with exactly the capabilities asked for. The privilege tests need
 * root and the user skua (scripts/install-deps.sh); Check runs each test in its own process,
 * so a test that drops root takes only its own process down with it.
 */
#include "lib/compat.h"

#include <check.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pidfile.h"
#include "lib/privs.h"

static char tmpdir[64];

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_daemon.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static long file_pid(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ck_assert_int_gt(n, 0);
	return strtol(buf, NULL, 10);
}

START_TEST(pidfile_lock_refuses_a_second_holder)
{
	struct pidfile a, b;
	char path[128], err[512];

	snprintf(path, sizeof(path), "%s/bgpd.pid", tmpdir);
	ck_assert_int_eq(pidfile_acquire(&a, path, err, sizeof(err)), 0);
	ck_assert_int_eq(file_pid(path), getpid());
	/* flock locks belong to the open file: a second open in this process conflicts too. */
	ck_assert_int_eq(pidfile_acquire(&b, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "is locked by process") != NULL, "%s", err);
	ck_assert_int_eq(b.fd, -1);
	ck_assert_int_eq(file_pid(path), getpid()); /* the loser did not truncate it */
	pidfile_release(&a);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(pidfile_acquire(&b, path, err, sizeof(err)), 0);
	pidfile_release(&b);
	pidfile_release(&b); /* twice is harmless */
}
END_TEST

START_TEST(pidfile_left_by_a_crash_is_taken_over)
{
	struct pidfile a;
	char path[128], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bgpd.pid", tmpdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("999999999 and some garbage that is longer than a pid\n", f);
	fclose(f);
	ck_assert_int_eq(pidfile_acquire(&a, path, err, sizeof(err)), 0);
	ck_assert_int_eq(file_pid(path), getpid());
	pidfile_release(&a);
}
END_TEST

START_TEST(pidfile_refuses_a_symlink)
{
	struct pidfile a;
	char path[128], target[128], err[512];

	snprintf(target, sizeof(target), "%s/victim", tmpdir);
	snprintf(path, sizeof(path), "%s/bgpd.pid", tmpdir);
	ck_assert_int_eq(close(open(target, O_CREAT | O_WRONLY, 0600)), 0);
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(pidfile_acquire(&a, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot open pid file") != NULL, "%s", err);
}
END_TEST

START_TEST(rundir_made_with_its_mode_and_kept_when_there)
{
	char dir[128];
	struct stat st;
	mode_t old = umask(077);

	snprintf(dir, sizeof(dir), "%s/run", tmpdir);
	ck_assert_int_eq(rundir_ensure(dir, 0755, (uid_t)-1, (gid_t)-1), 0);
	umask(old);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0755); /* not the umask's 0700 */
	ck_assert_int_eq(chmod(dir, 0700), 0);
	ck_assert_int_eq(rundir_ensure(dir, 0755, (uid_t)-1, (gid_t)-1), 0);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0700); /* an existing one is left alone */
	snprintf(dir, sizeof(dir), "%s/run/x/y", tmpdir);
	ck_assert_int_eq(rundir_ensure(dir, 0755, (uid_t)-1, (gid_t)-1), -ENOENT);
}
END_TEST

START_TEST(resolve_unknown_user_says_how_to_fix)
{
	struct privs p;
	char err[512];

	ck_assert_int_eq(privs_resolve(&p, "skua-no-such-user", NULL, true, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "no user 'skua-no-such-user'") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "-u USER") != NULL, "%s", err);
}
END_TEST

static bool can_drop(void)
{
	return geteuid() == 0 && getpwnam("skua") != NULL;
}

START_TEST(drop_keeps_exactly_the_capabilities_asked)
{
	static const cap_value_t keep[] = { CAP_NET_BIND_SERVICE, CAP_NET_ADMIN };
	struct privs p;
	char err[512], text[128];
	cap_flag_value_t v;
	cap_t caps;

	if (!can_drop())
		return; /* needs root and the user skua */
	ck_assert_int_eq(privs_resolve(&p, "skua", NULL, false, err, sizeof(err)), 0);
	ck_assert(p.drop);
	ck_assert_int_eq(privs_drop(&p, keep, 2, err, sizeof(err)), 0);
	ck_assert_int_eq(getuid(), p.uid);
	ck_assert_int_eq(geteuid(), p.uid);
	ck_assert_int_eq(getgid(), p.gid);
	ck_assert_int_eq(getgroups(0, NULL), 1);
	ck_assert_int_eq(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 1);
	caps = cap_get_proc();
	ck_assert_ptr_nonnull(caps);
	for (cap_value_t c = 0; c <= CAP_LAST_CAP; c++) {
		bool wanted = c == CAP_NET_BIND_SERVICE || c == CAP_NET_ADMIN;

		ck_assert_int_eq(cap_get_flag(caps, c, CAP_EFFECTIVE, &v), 0);
		ck_assert_msg((v == CAP_SET) == wanted, "capability %d effective: %d", c, v);
		ck_assert_int_eq(cap_get_flag(caps, c, CAP_PERMITTED, &v), 0);
		ck_assert_msg((v == CAP_SET) == wanted, "capability %d permitted: %d", c, v);
	}
	cap_free(caps);
	ck_assert_int_ne(setuid(0), 0); /* root is gone for good */
	ck_assert_str_eq(privs_caps_text(text, sizeof(text)),
			 "cap_net_bind_service,cap_net_admin=ep");
}
END_TEST

START_TEST(drop_without_root_is_refused_when_asked_explicitly)
{
	struct privs p;
	char err[512];

	if (!can_drop())
		return;
	/* Become skua first (as a process started by an ordinary user would be). */
	ck_assert_int_eq(privs_resolve(&p, "skua", NULL, false, err, sizeof(err)), 0);
	ck_assert_int_eq(privs_drop(&p, NULL, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(privs_resolve(&p, "root", NULL, true, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not started as root") != NULL, "%s", err);
	/* Not explicit: stay who we are, nothing to drop. */
	ck_assert_int_eq(privs_resolve(&p, "skua-no-such-user", NULL, false, err, sizeof(err)), 0);
	ck_assert(!p.drop);
}
END_TEST

static Suite *daemon_suite(void)
{
	Suite *s = suite_create("daemon");
	TCase *tc = tcase_create("pidfile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, pidfile_lock_refuses_a_second_holder);
	tcase_add_test(tc, pidfile_left_by_a_crash_is_taken_over);
	tcase_add_test(tc, pidfile_refuses_a_symlink);
	tcase_add_test(tc, rundir_made_with_its_mode_and_kept_when_there);
	suite_add_tcase(s, tc);
	tc = tcase_create("privs");
	tcase_add_test(tc, resolve_unknown_user_says_how_to_fix);
	tcase_add_test(tc, drop_keeps_exactly_the_capabilities_asked);
	tcase_add_test(tc, drop_without_root_is_refused_when_asked_explicitly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(daemon_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
