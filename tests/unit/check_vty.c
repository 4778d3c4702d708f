/* SPDX-License-Identifier: ISC */
/*
 * The vty server, talked to over its UNIX socket by a client in the same process: the event
 * loop runs while the test waits for a reply. Protocol, sessions and nodes, big outputs, two
 * clients at once, pipelined requests, the input limit, stale and foreign socket files.
 */
#include "lib/compat.h"

#include <check.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/command_private.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/vty.h"

DEFCMD(big_output, "big (0-100000000)$bytes", "Big output\nHow many bytes\n")
{
	uint64_t n = cmd_arg_u64(args, "bytes", 0);

	/* 64-byte numbered lines, so order and completeness can be checked */
	for (uint64_t i = 0; i + 64 <= n; i += 64)
		vty_out(vty, "line %010llu %047d\n", (unsigned long long)(i / 64), 0);
	return CMD_SUCCESS;
}

DEFCMD(router_bgp, "router bgp ASNUM", "Routing process\nBGP\nAS number\n")
{
	cmd_enter_node(vty, BGP_NODE);
	return CMD_SUCCESS;
}

DEFCMD(nbr, "neighbor A.B.C.D remote-as ASNUM", "Neighbor\nAddress\nRemote AS\nAS number\n")
{
	return CMD_SUCCESS;
}

static struct event_base *base;
static char dir[64], path[96];

static void setup(void)
{
	cmd_init();
	cmd_install(ENABLE_NODE, &big_output_cmd);
	cmd_install(CONFIG_NODE, &router_bgp_cmd);
	cmd_install(BGP_NODE, &nbr_cmd);
	vty_set_hostname("srv");
	base = event_loop_new();
	snprintf(dir, sizeof(dir), "/tmp/check_vty.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bgpd.vty", dir);
}

static void teardown(void)
{
	vty_server_stop();
	event_loop_free(base);
	cmd_terminate();
	vty_set_hostname(NULL);
	unlink(path);
	rmdir(dir);
	ck_assert_uint_eq(MTYPE_VTY->allocated, 0);
	ck_assert_uint_eq(MTYPE_VTY_CONN->allocated, 0);
	ck_assert_uint_eq(MTYPE_VTY_BUF->allocated, 0);
}

/* ---- a client --------------------------------------------------------------------------- */

struct client {
	int fd;
	char pend[65536]; /* bytes received beyond the last reply */
	size_t plen;
	bool eof;
};

static void client_open(struct client *c)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(c->fd, 0);
	ck_assert_int_eq(connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
}

static void client_close(struct client *c)
{
	close(c->fd);
	c->fd = -1;
}

static void client_send_raw(struct client *c, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			event_loop_once(base, false); /* let the server read */
			continue;
		}
		ck_assert_int_gt(n, 0);
		buf += n;
		len -= (size_t)n;
	}
}

/* Send until the peer stops taking it; returns the bytes sent. */
static size_t client_send_some(struct client *c, const char *buf, size_t len)
{
	size_t sent = 0;

	while (sent < len) {
		ssize_t n = send(c->fd, buf + sent, len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			event_loop_once(base, false);
			continue;
		}
		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	return sent;
}

static void client_send(struct client *c, char kind, const char *line)
{
	size_t len = strlen(line);
	char *req = malloc(len + 2);

	req[0] = kind;
	memcpy(req + 1, line, len + 1);
	client_send_raw(c, req, len + 2);
	free(req);
}

/* Run the loop until one reply is complete. The status, or -1 on EOF, -2 after 20 s. */
static int client_reply(struct client *c, struct sbuf *text)
{
	uint64_t deadline = monotime_ms() + 20000;
	int nuls = 0;

	sbuf_reset(text);
	for (;;) {
		size_t run = 0;

		/* (no ck_assert per byte: each one is a message to the Check parent) */
		for (size_t i = 0; i < c->plen; i++) {
			if (nuls == 3) {
				int status = (unsigned char)c->pend[i];

				memmove(c->pend, c->pend + i + 1, c->plen - i - 1);
				c->plen -= i + 1;
				return status;
			}
			if (c->pend[i] == '\0') {
				sbuf_put(text, c->pend + i - run, run);
				run = 0;
				nuls++;
			} else {
				if (nuls)
					ck_abort_msg("NUL inside the reply text");
				run++;
			}
		}
		sbuf_put(text, c->pend + c->plen - run, run);
		c->plen = 0;
		for (;;) {
			struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
			ssize_t n;

			event_loop_once(base, false);
			if (poll(&pfd, 1, 1) <= 0) {
				if (monotime_ms() > deadline)
					return -2;
				continue;
			}
			n = recv(c->fd, c->pend, sizeof(c->pend), MSG_DONTWAIT);
			/* a hang-up with our unread input pending shows as a reset */
			if (n == 0 || (n < 0 && errno == ECONNRESET)) {
				c->eof = true;
				return -1;
			}
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			ck_assert_int_gt(n, 0);
			c->plen = (size_t)n;
			break;
		}
	}
}

static int ask(struct client *c, char kind, const char *line, struct sbuf *text)
{
	client_send(c, kind, line);
	return client_reply(c, text);
}

/* ---- tests ---------------------------------------------------------------------------------- */

START_TEST(socket_file)
{
	struct stat st;

	ck_assert_int_eq(vty_server_start(base, path), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 0777, 0660);
	/* one server at a time */
	ck_assert_int_eq(vty_server_start(base, path), -EALREADY);
	vty_server_stop();
	ck_assert_int_eq(lstat(path, &st), -1); /* removed on stop */
	ck_assert_int_eq(errno, ENOENT);
	/* paths that do not fit sun_path */
	ck_assert_int_eq(vty_server_start(base,
					  "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
					  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
					  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.vty"),
			 -ENAMETOOLONG);
	/* a directory that does not exist */
	ck_assert_int_lt(vty_server_start(base, "/nonexistent-dir-skua/bgpd.vty"), 0);
}
END_TEST

static void count_line(const char *line, void *arg)
{
	(void)line;
	(*(int *)arg)++;
}

/*
 * The socket goes to group skuavty when the group exists, so that its members can use vtysh.
 * A host without the group is normal (a developer's machine, the lab): the socket keeps the
 * group it was born with and nothing is logged. The system's groups are not changed here, so
 * the branch taken is the one this machine offers; both are checked.
 */
START_TEST(socket_group)
{
	struct group *gr = getgrnam("skuavty");
	gid_t born_gid = gr ? gr->gr_gid : (gid_t)-1; /* gr is overwritten by the next call */
	struct stat st, dst;
	int lines = 0;

	ck_assert_int_eq(stat(dir, &dst), 0);
	log_ring_clear();
	ck_assert_int_eq(log_set_ring_level(LOG_LVL_DEBUG), 0);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	log_ring_walk(count_line, &lines);
	if (born_gid == (gid_t)-1) {
		/* no such group: the group a new file gets here (setgid directory or ours) */
		ck_assert_uint_eq(st.st_gid, (dst.st_mode & S_ISGID) ? dst.st_gid : getegid());
		ck_assert_int_eq(lines, 0);
	} else if (st.st_gid == born_gid) {
		ck_assert_int_eq(lines, 0);
	} else {
		/* not root and not a member: chown refused, and said so */
		ck_assert_uint_ne(geteuid(), 0);
		ck_assert_int_ge(lines, 1);
	}
	ck_assert_uint_eq(st.st_mode & 0777, 0660);
	log_set_ring_level(LOG_LVL_INFO);
	log_ring_clear();
}
END_TEST

START_TEST(stale_live_foreign)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;
	FILE *fp;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	/* A socket file nobody listens on (a dead daemon's): replaced. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	close(fd);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	vty_server_stop();

	/* A live listener: refused, and its socket is left alone. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	ck_assert_int_eq(listen(fd, 1), 0);
	ck_assert_int_eq(vty_server_start(base, path), -EADDRINUSE);
	ck_assert_int_eq(access(path, F_OK), 0);
	close(fd);
	unlink(path);

	/* Not a socket: never removed. */
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("precious\n", fp);
	fclose(fp);
	ck_assert_int_eq(vty_server_start(base, path), -EEXIST);
	ck_assert_int_eq(access(path, F_OK), 0);
	unlink(path);
}
END_TEST

START_TEST(protocol)
{
	struct client c;
	struct sbuf t;

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);

	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	ck_assert_int_eq(ask(&c, 'x', "show version", &t), CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(t.buf, "skua bgpd "));
	ck_assert_int_eq(ask(&c, 'x', "sh vers", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'x', "bogus word", &t), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(t.buf, "% Unknown command: bogus word\n"
				"                   ^\n");
	ck_assert_int_eq(ask(&c, 'x', "configure", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv(config)# ");

	/* describe and complete */
	ck_assert_int_eq(ask(&c, '?', "router ", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "  bgp  BGP\n");
	ck_assert_int_eq(ask(&c, '?', "xyz", &t), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(t.buf, "% There is no matched command.\n");
	ck_assert_int_eq(ask(&c, 't', "e", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "end\nexit\n");
	ck_assert_int_eq(ask(&c, 't', "ro", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "router\n");

	/* The session's node persists; execute requests walk up as FRR's vtys do. */
	ck_assert_int_eq(ask(&c, 'x', "router bgp 65001", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv(config-router)# ");
	ck_assert_int_eq(ask(&c, 'x', "neighbor 1.2.3.4 remote-as 1", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'x', "router bgp 2", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'x', "neighbor 1.2.3.4 remote-as x", &t), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(ask(&c, 'x', "do show version", &t), CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(t.buf, "skua bgpd "));
	ck_assert_int_eq(ask(&c, 'x', "end", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");

	/* A request kind nobody knows: an error, the session goes on. */
	ck_assert_int_eq(ask(&c, 'z', "whatever", &t), CMD_ERR_NO_MATCH);
	ck_assert_ptr_nonnull(strstr(t.buf, "Bad request"));
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);

	/* exit at the top: the reply, then the connection closes. */
	ck_assert_int_eq(ask(&c, 'x', "exit", &t), CMD_CLOSE);
	ck_assert_str_eq(t.buf, "");
	ck_assert_int_eq(client_reply(&c, &t), -1);
	ck_assert(c.eof);
	client_close(&c);
	sbuf_free(&t);
}
END_TEST

static void check_big(const struct sbuf *t, uint64_t bytes)
{
	ck_assert_uint_eq(t->len, bytes);
	for (uint64_t i = 0; i < bytes / 64; i += 997) {
		char want[32];

		snprintf(want, sizeof(want), "line %010llu ", (unsigned long long)i);
		ck_assert_msg(memcmp(t->buf + i * 64, want, strlen(want)) == 0, "line %llu wrong",
			      (unsigned long long)i);
	}
	ck_assert_int_eq(t->buf[bytes - 1], '\n');
}

START_TEST(large_output)
{
	const uint64_t bytes = 8 * 1024 * 1024; /* 8 MiB */
	struct client c;
	struct sbuf t;
	char line[64];

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);
	snprintf(line, sizeof(line), "big %llu", (unsigned long long)bytes);
	ck_assert_int_eq(ask(&c, 'x', line, &t), CMD_SUCCESS);
	check_big(&t, bytes);
	/* the session is fine afterwards */
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	client_close(&c);
	sbuf_free(&t);
}
END_TEST

START_TEST(two_clients)
{
	const uint64_t bytes = 4 * 1024 * 1024;
	struct client a, b;
	struct sbuf t;
	char line[64];

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&a);
	client_open(&b);
	/* Each connection is its own session. */
	ck_assert_int_eq(ask(&a, 'x', "conf t", &t), CMD_SUCCESS);
	ck_assert_int_eq(ask(&b, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	ck_assert_int_eq(ask(&a, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv(config)# ");

	/* A asks for a big table and does not read it yet; B is served meanwhile. */
	snprintf(line, sizeof(line), "do big %llu", (unsigned long long)bytes);
	client_send(&a, 'x', line);
	for (int i = 0; i < 20; i++)
		event_loop_once(base, false);
	ck_assert_int_eq(ask(&b, 'x', "show version", &t), CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(t.buf, "skua bgpd "));
	ck_assert_int_eq(ask(&b, '?', "show v", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "  version  Version of this skua\n");
	/* Now A reads all of it, intact. */
	ck_assert_int_eq(client_reply(&a, &t), CMD_SUCCESS);
	check_big(&t, bytes);
	ck_assert_int_eq(ask(&a, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv(config)# ");

	/* B goes away in config mode; A is unaffected. */
	ck_assert_int_eq(ask(&b, 'x', "configure terminal", &t), CMD_SUCCESS);
	client_close(&b);
	ck_assert_int_eq(ask(&a, 'x', "end", &t), CMD_SUCCESS);
	client_close(&a);
	for (int i = 0; i < 10; i++)
		event_loop_once(base, false);
	sbuf_free(&t);
}
END_TEST

START_TEST(pipelined)
{
	/* four requests in one write; sizeof counts the final NUL */
	static const char reqs[] = "p\0"
				   "xconfigure terminal\0"
				   "p\0"
				   "xend";
	struct client c;
	struct sbuf t;

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);
	client_send_raw(&c, reqs, sizeof(reqs));
	ck_assert_int_eq(client_reply(&c, &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	ck_assert_int_eq(client_reply(&c, &t), CMD_SUCCESS); /* configure terminal */
	ck_assert_int_eq(client_reply(&c, &t), CMD_SUCCESS); /* p */
	ck_assert_str_eq(t.buf, "srv(config)# ");
	ck_assert_int_eq(client_reply(&c, &t), CMD_SUCCESS); /* end */
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	client_close(&c);
	sbuf_free(&t);
}
END_TEST

START_TEST(input_limit)
{
	const size_t len = 70 * 1024;
	char *junk = malloc(len);
	struct client c;
	struct sbuf t;

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	/* A request just under the limit is served. */
	client_open(&c);
	memset(junk, 'a', len);
	junk[0] = 'x';
	junk[64 * 1024 - 1] = '\0'; /* kind + 65534 bytes: fits */
	client_send_raw(&c, junk, 64 * 1024);
	ck_assert_int_eq(client_reply(&c, &t), CMD_ERR_NO_MATCH);
	ck_assert(strncmp(t.buf, "% Unknown command: aaa", 22) == 0);
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);

	/* Past the limit without an end: an error reply, then the connection closes. */
	memset(junk, 'a', len);
	junk[0] = 'x';
	/* the server hangs up after 64 KiB + 1, so the rest may not go out */
	ck_assert_uint_gt(client_send_some(&c, junk, len), 64 * 1024);
	ck_assert_int_eq(client_reply(&c, &t), CMD_ERR_NO_MATCH);
	ck_assert_ptr_nonnull(strstr(t.buf, "too long"));
	ck_assert_int_eq(client_reply(&c, &t), -1);
	client_close(&c);

	/* The server still serves others. */
	client_open(&c);
	ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	client_close(&c);
	free(junk);
	sbuf_free(&t);
}
END_TEST

START_TEST(stop_closes_sessions)
{
	struct client c;
	struct sbuf t;

	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);
	ck_assert_int_eq(ask(&c, 'x', "configure terminal", &t), CMD_SUCCESS);
	vty_server_stop();
	ck_assert_int_eq(client_reply(&c, &t), -1); /* EOF */
	client_close(&c);
	ck_assert_int_eq(access(path, F_OK), -1);
	sbuf_free(&t);
}
END_TEST

/* Run the loop for ms milliseconds (the server's timers fire meanwhile). */
static void pump(int ms)
{
	uint64_t until = monotime_ms() + (uint64_t)ms;

	while (monotime_ms() < until) {
		event_loop_once(base, false);
		usleep(1000);
	}
}

/* The 65th session is told why and closed (no session idle long enough to make room); a
 * freed slot is usable again. */
START_TEST(session_cap)
{
	struct client c[VTY_MAX_SESSIONS + 1];
	struct sbuf t;

	sbuf_init(&t);
	vty_server_set_limits(0, VTY_IDLE_TIMEOUT_MS, UINT32_MAX);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	for (int i = 0; i < VTY_MAX_SESSIONS; i++) {
		client_open(&c[i]);
		ck_assert_int_eq(ask(&c[i], 'p', "", &t), CMD_SUCCESS);
	}
	ck_assert_uint_eq(vty_server_sessions(), VTY_MAX_SESSIONS);
	client_open(&c[VTY_MAX_SESSIONS]);
	ck_assert_int_eq(ask(&c[VTY_MAX_SESSIONS], 'p', "", &t), CMD_CLOSE);
	ck_assert_str_eq(t.buf, "% too many vty sessions (64); close some\n");
	ck_assert_int_eq(client_reply(&c[VTY_MAX_SESSIONS], &t), -1);
	client_close(&c[VTY_MAX_SESSIONS]);
	ck_assert_uint_eq(vty_server_sessions(), VTY_MAX_SESSIONS);

	/* one leaves: the next one is served */
	client_close(&c[0]);
	pump(50);
	client_open(&c[0]);
	ck_assert_int_eq(ask(&c[0], 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	for (int i = 0; i < VTY_MAX_SESSIONS; i++)
		client_close(&c[i]);
	sbuf_free(&t);
	vty_server_set_limits(0, VTY_IDLE_TIMEOUT_MS, 0);
}
END_TEST

/* At the cap, a newcomer takes the place of the session idle the longest, which is told why;
 * sessions active a moment ago are kept. */
START_TEST(session_cap_evicts_the_longest_idle)
{
	struct client c[VTY_MAX_SESSIONS + 1];
	struct sbuf t;

	sbuf_init(&t);
	vty_server_set_limits(0, VTY_IDLE_TIMEOUT_MS, 200);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	for (int i = 0; i < VTY_MAX_SESSIONS; i++) {
		client_open(&c[i]);
		ck_assert_int_eq(ask(&c[i], 'p', "", &t), CMD_SUCCESS);
	}
	pump(300);
	/* every session but c[5] is active again: c[5] is the one idle the longest */
	for (int i = 0; i < VTY_MAX_SESSIONS; i++)
		if (i != 5)
			ck_assert_int_eq(ask(&c[i], 'p', "", &t), CMD_SUCCESS);
	client_open(&c[VTY_MAX_SESSIONS]);
	ck_assert_int_eq(ask(&c[VTY_MAX_SESSIONS], 'p', "", &t), CMD_SUCCESS);
	ck_assert_str_eq(t.buf, "srv# ");
	ck_assert_uint_eq(vty_server_sessions(), VTY_MAX_SESSIONS);
	ck_assert_int_eq(client_reply(&c[5], &t), CMD_CLOSE);
	ck_assert_str_eq(
		t.buf,
		"% vty session closed: too many sessions, and this one was idle the longest\n");
	/* the others were active less than 200 ms ago: a second newcomer is refused */
	client_close(&c[5]);
	client_open(&c[5]);
	ck_assert_int_eq(ask(&c[5], 'p', "", &t), CMD_CLOSE);
	ck_assert_str_eq(t.buf, "% too many vty sessions (64); close some\n");
	ck_assert_uint_eq(vty_server_sessions(), VTY_MAX_SESSIONS);
	for (int i = 0; i <= VTY_MAX_SESSIONS; i++)
		client_close(&c[i]);
	sbuf_free(&t);
	vty_server_set_limits(0, VTY_IDLE_TIMEOUT_MS, 0);
}
END_TEST

/* exec-timeout: a session with no request for the timeout is closed; requests keep it. */
START_TEST(idle_timeout)
{
	struct client c;
	struct sbuf t;

	ck_assert_uint_eq(vty_server_idle_timeout(), 10 * 60 * 1000); /* FRR's default */
	vty_server_set_limits(0, 300, 0);
	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);
	ck_assert_int_eq(ask(&c, 'x', "configure terminal", &t), CMD_SUCCESS);
	for (int i = 0; i < 4; i++) { /* 4 x 200 ms: busy, never idle for 300 ms */
		pump(200);
		ck_assert_int_eq(ask(&c, 'p', "", &t), CMD_SUCCESS);
	}
	ck_assert_uint_eq(vty_server_sessions(), 1);
	/* idle: closed within two timeouts (the one that sees the last reply read, and one) */
	pump(1000);
	ck_assert_uint_eq(vty_server_sessions(), 0);
	ck_assert_int_eq(client_reply(&c, &t), -1); /* closed */
	client_close(&c);
	/* the configuration lock went with it: a new session can configure */
	client_open(&c);
	ck_assert_int_eq(ask(&c, 'x', "configure terminal", &t), CMD_SUCCESS);
	client_close(&c);
	sbuf_free(&t);
}
END_TEST

/* A client reading a big table slowly is not idle while the output moves. */
START_TEST(idle_timeout_spares_draining)
{
	const uint64_t bytes = 2 * 1024 * 1024;
	struct client c;
	struct sbuf t;
	char line[64];
	size_t got = 0;
	uint64_t started, deadline;
	int nuls = 0;

	vty_server_set_limits(0, 300, 0);
	sbuf_init(&t);
	ck_assert_int_eq(vty_server_start(base, path), 0);
	client_open(&c);
	snprintf(line, sizeof(line), "big %llu", (unsigned long long)bytes);
	client_send(&c, 'x', line);
	started = monotime_ms();
	deadline = started + 30000;
	/* 32 KiB every 100 ms: the whole reply takes several idle timeouts */
	while (nuls < 4) {
		char buf[32 * 1024];
		ssize_t n;

		ck_assert_msg(monotime_ms() < deadline, "the table did not arrive");
		pump(100);
		n = recv(c.fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		ck_assert_msg(n > 0, "closed after %zu bytes", got);
		for (ssize_t i = 0; i < n; i++)
			nuls = buf[i] == '\0' || nuls == 3 ? nuls + 1 : 0;
		got += (size_t)n;
	}
	ck_assert_uint_eq(got, bytes + 4);
	ck_assert_uint_gt(monotime_ms() - started, 3 * 300);
	/* and once it is all read, the idle session goes */
	pump(1000);
	ck_assert_uint_eq(vty_server_sessions(), 0);
	client_close(&c);
	sbuf_free(&t);
}
END_TEST

static Suite *vty_suite(void)
{
	Suite *s = suite_create("vty");
	TCase *tc = tcase_create("server");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, socket_file);
	tcase_add_test(tc, socket_group);
	tcase_add_test(tc, stale_live_foreign);
	tcase_add_test(tc, protocol);
	tcase_add_test(tc, large_output);
	tcase_add_test(tc, two_clients);
	tcase_add_test(tc, pipelined);
	tcase_add_test(tc, input_limit);
	tcase_add_test(tc, stop_closes_sessions);
	tcase_add_test(tc, session_cap);
	tcase_add_test(tc, session_cap_evicts_the_longest_idle);
	tcase_add_test(tc, idle_timeout);
	tcase_add_test(tc, idle_timeout_spares_draining);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vty_suite());
	int failed;

	signal(SIGPIPE, SIG_IGN);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
