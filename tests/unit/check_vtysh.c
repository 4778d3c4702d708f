/* SPDX-License-Identifier: ISC */
/*
 * vtysh end to end: the test daemon (tests/unit/cli_testd) serves a socket in a temporary
 * directory; vtysh runs as a separate program with -c, -f, -b, piped stdin, and
 * interactively in a pseudo-terminal (`?`, TAB, Ctrl-Z, Ctrl-C, history).
 */
#include "lib/compat.h"

#include <check.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/event.h"
#include "lib/memory.h"
#include "lib/sbuf.h"

#if !defined(VTYSH_BIN) || !defined(CLI_TESTD_BIN)
#error "VTYSH_BIN and CLI_TESTD_BIN must name the programs under test"
#endif

static char dir[64], sock[96];
static pid_t daemon_pid = -1;

static bool can_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), rc;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock);
	rc = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
	close(fd);
	return rc == 0;
}

static void setup(void)
{
	uint64_t deadline;

	snprintf(dir, sizeof(dir), "/tmp/check_vtysh.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sock, sizeof(sock), "%s/bgpd.vty", dir);
	daemon_pid = fork();
	ck_assert_int_ge(daemon_pid, 0);
	if (daemon_pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM); /* a failed test does not leave it behind */
		execl(CLI_TESTD_BIN, "cli_testd", sock, "testd", (char *)NULL);
		_exit(127);
	}
	deadline = monotime_ms() + 15000;
	while (!can_connect()) {
		ck_assert_msg(monotime_ms() < deadline, "the test daemon did not come up");
		usleep(10000);
	}
}

static void teardown(void)
{
	int status;
	char path[256];

	kill(daemon_pid, SIGTERM);
	ck_assert_int_eq(waitpid(daemon_pid, &status, 0), daemon_pid);
	/* a clean exit: no crash, no leak report (sanitizer builds) */
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "test daemon ended badly (status 0x%x)", status);
	snprintf(path, sizeof(path), "%s/.history_skua", dir);
	unlink(path);
	for (int i = 0; i < 4; i++) {
		static const char *const names[] = { "in", "out", "err", "conf" };

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

static void read_file(const char *name, struct sbuf *sb)
{
	char path[256], buf[65536];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sbuf_reset(sb);
	sbuf_puts(sb, "");
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sbuf_put(sb, buf, n);
	fclose(fp);
}

/* Run vtysh with argv (NULL-terminated, after the program name) and stdin text; returns its
 * exit status, stdout and stderr in out and err. */
static int vtysh(const char *in, struct sbuf *out, struct sbuf *err, ...)
{
	const char *argv[32] = { "vtysh" };
	int argc = 1, status;
	va_list ap;
	pid_t pid;

	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, const char *)) != NULL)
		argc++;
	va_end(ap);
	write_file("in", in ? in : "");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char path[256];

		snprintf(path, sizeof(path), "%s/in", dir);
		dup2(open(path, O_RDONLY), 0);
		snprintf(path, sizeof(path), "%s/out", dir);
		dup2(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
		snprintf(path, sizeof(path), "%s/err", dir);
		dup2(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
		execv(VTYSH_BIN, (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	read_file("out", out);
	read_file("err", err);
	ck_assert_msg(WIFEXITED(status), "vtysh died (status 0x%x): %s", status, err->buf);
	return WEXITSTATUS(status);
}

#define SOCK "--vty-socket", sock

START_TEST(commands)
{
	struct sbuf out, err;

	sbuf_init(&out);
	sbuf_init(&err);
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show version", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "skua bgpd "));
	ck_assert_str_eq(err.buf, "");

	/* several -c in order, one session: config mode carries over */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "conf t", "-c", "router bgp 65001",
			       "-c", "neighbor 10.0.0.1 remote-as 65002", "-c", "end", "-c",
			       "show test log", NULL),
			 0);
	ck_assert_str_eq(out.buf, "router bgp 65001\n neighbor 10.0.0.1 remote-as 65002\n");

	/* a failure: its message, exit status 1, and nothing after it runs */
	ck_assert_int_eq(
		vtysh(NULL, &out, &err, SOCK, "-c", "show bogus", "-c", "show version", NULL), 1);
	ck_assert_str_eq(out.buf, "% Unknown command: show bogus\n"
				  "                        ^\n");
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "conf t", "-c", "router bgp 1", "-c",
			       "bgp refuse", NULL),
			 1);
	ck_assert_str_eq(out.buf, "% The test daemon refuses this setting.\n");
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show", NULL), 1);
	ck_assert_str_eq(out.buf, "% Command incomplete.\n");

	/* CMD_WARNING is not a failure */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "test warning", NULL), 0);
	ck_assert_str_eq(out.buf, "% this is only a warning\n");

	/* a -c ending in '?' lists the help */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show test ?", NULL), 0);
	ck_assert_str_eq(out.buf, "  log     What the config commands did\n"
				  "  output  Print a block of text\n");

	/* a big output arrives whole */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show test output 5000000", NULL), 0);
	ck_assert_uint_eq(out.len, 5000000);
	ck_assert(strncmp(out.buf + 64 * 70000, "line 0000070000 ", 16) == 0);

	/* -E: each command after the prompt it was typed at; `terminal length 0` is a no-op */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-E", "-c", "terminal length 0", "-c",
			       "conf t", "-c", "router bgp 65001", "-c", "end", "-c", "show ver",
			       NULL),
			 0);
	ck_assert_msg(strncmp(out.buf,
			      "testd# terminal length 0\n"
			      "testd# conf t\n"
			      "testd(config)# router bgp 65001\n"
			      "testd(config-router)# end\n"
			      "testd# show ver\n"
			      "skua bgpd ",
			      strlen("testd# terminal length 0\ntestd# conf t\n"
				     "testd(config)# router bgp 65001\n"
				     "testd(config-router)# end\ntestd# show ver\nskua bgpd ")) ==
			      0,
		      "unexpected -E output:\n%s", out.buf);
	ck_assert_str_eq(err.buf, "");
	/* the failing command is echoed before its error, nothing after it runs */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "--echo", "-c", "show bogus", "-c",
			       "show version", NULL),
			 1);
	ck_assert_str_eq(out.buf, "testd# show bogus\n"
				  "% Unknown command: show bogus\n"
				  "                        ^\n");

	/* exit at the top ends the session cleanly */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "exit", NULL), 0);
	sbuf_free(&out);
	sbuf_free(&err);
}
END_TEST

START_TEST(piped_stdin)
{
	struct sbuf out, err;

	sbuf_init(&out);
	sbuf_init(&err);
	ck_assert_int_eq(vtysh("show version\nconf t\nhostname r5\n\n! comment\ndo show test log\n",
			       &out, &err, SOCK, NULL),
			 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "skua bgpd "));
	ck_assert_ptr_nonnull(strstr(out.buf, "hostname r5\n"));
	/* failures are reported and counted, the rest still runs */
	ck_assert_int_eq(vtysh("bogus\nshow test log\n", &out, &err, SOCK, NULL), 1);
	ck_assert_ptr_nonnull(strstr(out.buf, "% Unknown command: bogus\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "hostname r5\n"));
	/* a refused setting counts as a failure too; -E echoes piped commands */
	ck_assert_int_eq(
		vtysh("conf t\nrouter bgp 1\nbgp refuse\nend\n", &out, &err, SOCK, "-E", NULL), 1);
	ck_assert_str_eq(out.buf, "r5# conf t\n" /* the hostname set above */
				  "r5(config)# router bgp 1\n"
				  "r5(config-router)# bgp refuse\n"
				  "% The test daemon refuses this setting.\n"
				  "r5(config-router)# end\n");
	ck_assert_int_eq(vtysh("terminal length 0\nshow version\n", &out, &err, SOCK, NULL), 0);
	sbuf_free(&out);
	sbuf_free(&err);
}
END_TEST

START_TEST(config_file)
{
	struct sbuf out, err, want;
	char conf[256];

	sbuf_init(&out);
	sbuf_init(&err);
	sbuf_init(&want);
	snprintf(conf, sizeof(conf), "%s/conf", dir);
	write_file("conf", "! skua test configuration\n"
			   "hostname edge1\n"
			   "router bgp 65001\n"
			   " neighbor 10.0.0.1 remote-as 65002\n"
			   " neighbor 10.0.0.2 remote-ass 65003\n"
			   " bgp refuse\n"
			   " address-family ipv4 unicast\n"
			   "  network 192.0.2.0/24\n"
			   " exit-address-family\n"
			   " neighbor 10.0.0.3 remote-as 65004\n"
			   " address-family ipv6\n"
			   "hostname edge2\n"
			   "end\n");
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-f", conf, NULL), 1);
	/* every failing line as FILE:LINE, continuation lines aligned under the message */
	sbuf_printf(&want,
		    "%s:5: %% Unknown command: neighbor 10.0.0.2 remote-ass 65003\n"
		    "%*s                                     ^\n"
		    "%s:6: %% The test daemon refuses this setting.\n",
		    conf, (int)strlen(conf) + 4, "", conf);
	ck_assert_str_eq(err.buf, want.buf);
	/* the good lines were applied, walk-up included ("hostname edge2" from the AF node) */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show test log", NULL), 0);
	ck_assert_str_eq(out.buf, "hostname edge1\n"
				  "router bgp 65001\n"
				  " neighbor 10.0.0.1 remote-as 65002\n"
				  " address-family ipv4 unicast\n"
				  "  network 192.0.2.0/24\n"
				  " neighbor 10.0.0.3 remote-as 65004\n"
				  " address-family ipv6 unicast\n"
				  "hostname edge2\n");
	/* vtysh left configuration mode behind it */
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "show version", NULL), 0);

	/* -b takes the saved configuration from --config */
	write_file("conf", "router bgp 7\n neighbor 10.9.9.9 remote-as 8\n");
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-b", "--config", conf, NULL), 0);
	ck_assert_str_eq(err.buf, "");
	ck_assert_int_eq(
		vtysh(NULL, &out, &err, SOCK, "-b", "--config", "/nonexistent/bgpd.conf", NULL), 1);
	ck_assert_str_eq(err.buf, "vtysh: cannot open /nonexistent/bgpd.conf: No such file or "
				  "directory (give the file with -f FILE or --config FILE)\n");
	sbuf_free(&out);
	sbuf_free(&err);
	sbuf_free(&want);
}
END_TEST

START_TEST(errors)
{
	struct sbuf out, err;

	sbuf_init(&out);
	sbuf_init(&err);
	ck_assert_int_eq(vtysh(NULL, &out, &err, "--vty-socket", "/nonexistent/bgpd.vty", "-c",
			       "show version", NULL),
			 1);
	ck_assert_str_eq(err.buf, "vtysh: cannot connect to bgpd at /nonexistent/bgpd.vty: No such "
				  "file or directory (is bgpd running? use --vty-socket PATH)\n");
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "-c", "x", "-f", "y", NULL), 2);
	ck_assert_int_eq(vtysh(NULL, &out, &err, SOCK, "stray", NULL), 2);
	ck_assert_int_eq(vtysh(NULL, &out, &err, "--help", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "--vty-socket PATH"));
	sbuf_free(&out);
	sbuf_free(&err);
}
END_TEST

/* ---- interactive, in a pseudo-terminal ------------------------------------------------------ */

struct term {
	int fd;
	pid_t pid;
	struct sbuf seen;
	size_t mark; /* expect() searches from here */
};

static void term_send(struct term *t, const char *s)
{
	ck_assert_int_eq(write(t->fd, s, strlen(s)), (ssize_t)strlen(s));
}

/* vtysh on the test daemon, in an 80x24 vt100 pseudo-terminal, HOME the test directory. */
static void term_start(struct term *t)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };

	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setenv("TERM", "vt100", 1);
		setenv("HOME", dir, 1);
		execl(VTYSH_BIN, "vtysh", "--vty-socket", sock, (char *)NULL);
		_exit(127);
	}
}

/* `exit` at the top: vtysh must end with status 0. */
static void term_exit(struct term *t)
{
	int status;

	term_send(t, "exit\r");
	ck_assert_int_eq(waitpid(t->pid, &status, 0), t->pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	close(t->fd);
}

/* Wait until text shows up after the mark; the mark moves past it. */
static void expect(struct term *t, const char *text)
{
	uint64_t deadline = monotime_ms() + 15000;

	for (;;) {
		struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
		const char *hit = t->seen.buf ? strstr(t->seen.buf + t->mark, text) : NULL;
		char buf[4096];
		ssize_t n;

		if (hit) {
			t->mark = (size_t)(hit - t->seen.buf) + strlen(text);
			return;
		}
		ck_assert_msg(monotime_ms() < deadline, "never saw '%s'; terminal shows:\n%s", text,
			      t->seen.buf ? t->seen.buf + t->mark : "");
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(t->fd, buf, sizeof(buf));
		if (n <= 0) {
			usleep(10000);
			continue;
		}
		/* keep the text searchable: drop the NUL padding vt100 asks for */
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				sbuf_put(&t->seen, &buf[i], 1);
	}
}

START_TEST(interactive)
{
	struct term t = { 0 };
	char hist[256];
	struct sbuf h;

	sbuf_init(&t.seen);
	sbuf_init(&h);
	term_start(&t);
	expect(&t, "testd# ");

	/* TAB completes a unique keyword and adds a space */
	term_send(&t, "show ver\t");
	expect(&t, "sion ");
	/* `?` lists what may follow and gives the line back unchanged */
	term_send(&t, "?");
	expect(&t, "<cr>");
	expect(&t, "testd# show version ");
	term_send(&t, "\r");
	expect(&t, "skua bgpd ");
	expect(&t, "testd# ");

	/* `?` right after a partial word lists its completions */
	term_send(&t, "show te?");
	expect(&t, "test  Test daemon");
	expect(&t, "testd# show te");
	/* TAB with several candidates and nothing in common to add lists them */
	term_send(&t, "st \t");
	expect(&t, "log");
	expect(&t, "output");
	term_send(&t, "l\t\r");
	expect(&t, "testd# ");

	/* the prompt follows the daemon's node; Ctrl-Z is `end` */
	term_send(&t, "conf t\r");
	expect(&t, "testd(config)# ");
	term_send(&t, "router bgp 65001\r");
	expect(&t, "testd(config-router)# ");
	term_send(&t, "neighbor 10.0.0.1 remote-as 1");
	term_send(&t, "\x1a");
	expect(&t, "testd# ");

	/* Ctrl-C drops the line */
	term_send(&t, "garbage");
	term_send(&t, "\x03");
	term_send(&t, "show test log\r");
	expect(&t, "router bgp 65001\r\n");
	expect(&t, "testd# ");

	/* errors show with their caret */
	term_send(&t, "show tst\r");
	expect(&t, "% Unknown command: show tst");
	expect(&t, "^");
	expect(&t, "testd# ");

	term_exit(&t);

	/* the history went to $HOME/.history_skua */
	snprintf(hist, sizeof(hist), "%s/.history_skua", dir);
	ck_assert_int_eq(access(hist, R_OK), 0);
	read_file(".history_skua", &h);
	ck_assert_ptr_nonnull(strstr(h.buf, "conf"));
	ck_assert_ptr_nonnull(strstr(h.buf, "router"));
	sbuf_free(&h);
	sbuf_free(&t.seen);
}
END_TEST

/*
 * Lines that set a password stay out of the history file, which is the user's alone (0600):
 * it used to keep `neighbor X password KEY` in clear, with the mode the umask gave. Lines an
 * older vtysh saved there with a key are dropped at the next save.
 */
START_TEST(history_without_secrets)
{
	struct term t = { 0 };
	char hist[256];
	struct stat st;
	struct sbuf h;

	sbuf_init(&t.seen);
	sbuf_init(&h);
	snprintf(hist, sizeof(hist), "%s/.history_skua", dir);
	/* libedit's format (strvis): what an older vtysh left, world-readable */
	write_file(".history_skua", "_HiStOrY_V2_\n"
				    "show\\040test\\040log\n"
				    "neighbor\\04010.0.0.9\\040password\\040oldk3y\n");
	ck_assert_int_eq(chmod(hist, 0644), 0);

	term_start(&t);
	expect(&t, "testd# ");
	term_send(&t, "conf t\r");
	expect(&t, "testd(config)# ");
	term_send(&t, "router bgp 65001\r");
	expect(&t, "testd(config-router)# ");
	term_send(&t, "neighbor 10.0.0.1 password s3cret\r");
	expect(&t, "testd(config-router)# ");
	/* an abbreviation the daemon accepts is the same command */
	term_send(&t, "neighbor 10.0.0.2 passw an0ther\r");
	expect(&t, "testd(config-router)# ");
	term_send(&t, "neighbor 10.0.0.1 remote-as 1\r");
	expect(&t, "testd(config-router)# ");
	term_send(&t, "end\r");
	expect(&t, "testd# ");
	/* the daemon did take both keys */
	term_send(&t, "show test log\r");
	expect(&t, "neighbor 10.0.0.2 password an0ther");
	expect(&t, "testd# ");
	term_exit(&t);

	ck_assert_int_eq(stat(hist, &st), 0);
	ck_assert_msg((st.st_mode & 0777) == 0600, "history file mode %04o",
		      (unsigned)(st.st_mode & 0777));
	read_file(".history_skua", &h);
	ck_assert_msg(!strstr(h.buf, "s3cret") && !strstr(h.buf, "an0ther") &&
			      !strstr(h.buf, "oldk3y"),
		      "a key in the history file:\n%s", h.buf);
	ck_assert_msg(strstr(h.buf, "remote-as") && strstr(h.buf, "router\\040bgp") &&
			      strstr(h.buf, "show\\040test\\040log"),
		      "the other lines are missing:\n%s", h.buf);
	sbuf_free(&h);
	sbuf_free(&t.seen);
}
END_TEST

static Suite *vtysh_suite(void)
{
	Suite *s = suite_create("vtysh");
	TCase *tc = tcase_create("end-to-end");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, commands);
	tcase_add_test(tc, piped_stdin);
	tcase_add_test(tc, config_file);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, interactive);
	tcase_add_test(tc, history_without_secrets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vtysh_suite());
	int failed;

	signal(SIGPIPE, SIG_IGN);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
