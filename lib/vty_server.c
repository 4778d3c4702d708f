/* SPDX-License-Identifier: ISC */
/*
 * The vty server: a UNIX stream socket that vtysh connects to. Every connection is one vty
 * (starting in enable mode) and speaks the protocol of lib/vty.h:
 *   request: kind byte ('x' execute, '?' describe, 't' complete, 'p' prompt), line, NUL
 *   reply:   text, three NUL bytes, one status byte (enum cmd_result)
 * Requests are served in order. Input per request is bounded; output goes to a queue written
 * without blocking, and a connection whose queue is long stops being read until it drains,
 * so one slow reader of a big table neither blocks the daemon nor grows memory without bound.
 */
#include "lib/compat.h"

#include <grp.h>
#include <inttypes.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/command_private.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/vty.h"

DEFINE_MTYPE(VTY_CONN, "vty connection");
DEFINE_MTYPE(VTY_BUF, "vty connection buffers");

#define VTY_GROUP "skuavty"
#define VTY_REQUEST_MAX (64 * 1024) /* one request: kind byte, line (the NUL not counted) */
#define VTY_OUT_HIGH (256 * 1024)   /* queued output above which requests wait */
#define VTY_OUT_KEEP (1024 * 1024)  /* buffers above this are released once drained */
#define VTY_ACCEPT_PAUSE_MS 1000    /* out of descriptors: stop accepting for this long */

struct vty_outq {
	char *buf;
	size_t len, off, cap;
};

struct vty_conn {
	struct vty *vty;
	int fd;
	struct ev *rev, *wev;
	bool reading, writing;
	char *in; /* VTY_REQUEST_MAX + 1 bytes: a full request and its NUL */
	size_t inlen;
	struct vty_outq out;
	bool closing; /* close once the queued output is written */
	struct vty_conn *prev, *next;
};

static struct {
	struct event_base *base;
	int fd;
	char *path;
	struct ev *lev;
	struct ev *resume_ev; /* accepting again after running out of descriptors */
	uint64_t refused;     /* accept() failures for want of descriptors, since logged */
	struct vty_conn *conns;
} srv = { .fd = -1 };

static void outq_put(struct vty_outq *q, const char *data, size_t n)
{
	if (!n)
		return;
	if (q->len + n > q->cap) {
		size_t cap = q->cap ? q->cap : 4096;

		while (cap < q->len + n)
			cap *= 2;
		q->buf = XREALLOC(MTYPE_VTY_BUF, q->buf, cap);
		q->cap = cap;
	}
	memcpy(q->buf + q->len, data, n);
	q->len += n;
}

static size_t outq_pending(const struct vty_outq *q)
{
	return q->len - q->off;
}

static void conn_close(struct vty_conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		srv.conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	event_free(c->rev);
	event_free(c->wev);
	close(c->fd);
	vty_free(c->vty);
	XFREE(MTYPE_VTY_BUF, c->in);
	XFREE(MTYPE_VTY_BUF, c->out.buf);
	XFREE(MTYPE_VTY_CONN, c);
}

static void conn_reply(struct vty_conn *c, int status)
{
	struct vty *vty = c->vty;
	const char term[4] = { 0, 0, 0, (char)status };

	outq_put(&c->out, vty->out.buf ? vty->out.buf : "", vty->out.len);
	outq_put(&c->out, term, sizeof(term));
	if (vty->out.cap > VTY_OUT_KEEP)
		sbuf_free(&vty->out);
	else
		sbuf_reset(&vty->out);
}

static void conn_request(struct vty_conn *c, const char *req, size_t len)
{
	struct vty *vty = c->vty;
	const char *line = len ? req + 1 : "";
	char prompt[256];
	int status;

	sbuf_reset(&vty->out);
	switch (len ? req[0] : '\0') {
	case 'x':
		/* FRR's interactive vtys walk up to enclosing config nodes too. */
		status = cmd_execute(vty, line, true);
		break;
	case '?':
		status = cmd_describe_print(vty, line);
		break;
	case 't':
		status = cmd_complete_print(vty, line);
		break;
	case 'p':
		vty_out(vty, "%s", vty_prompt(vty, prompt, sizeof(prompt)));
		status = CMD_SUCCESS;
		break;
	default:
		vty_out(vty,
			"%% Bad request: unknown kind byte 0x%02x (expected 'x', '?', 't' or 'p'; "
			"is this vtysh from another version?)\n",
			len ? (unsigned char)req[0] : 0);
		status = CMD_ERR_NO_MATCH;
		break;
	}
	conn_reply(c, status);
	if (status == CMD_CLOSE)
		c->closing = true;
}

static bool conn_has_request(const struct vty_conn *c)
{
	return memchr(c->in, '\0', c->inlen) != NULL;
}

/* Serve the complete requests in the input buffer while the output queue has room. */
static void conn_take_requests(struct vty_conn *c)
{
	while (!c->closing && outq_pending(&c->out) < VTY_OUT_HIGH) {
		char *nul = memchr(c->in, '\0', c->inlen);
		size_t len;

		if (!nul) {
			if (c->inlen > VTY_REQUEST_MAX) {
				vty_out(c->vty,
					"%% Command line too long (more than %d bytes); closing "
					"the "
					"session.\n",
					VTY_REQUEST_MAX);
				conn_reply(c, CMD_ERR_NO_MATCH);
				c->closing = true;
				c->inlen = 0;
			}
			return;
		}
		len = (size_t)(nul - c->in);
		conn_request(c, c->in, len);
		c->inlen -= len + 1;
		memmove(c->in, nul + 1, c->inlen);
	}
}

/* Write what the socket takes now. Returns -1 when the connection was closed (and freed). */
static int conn_flush(struct vty_conn *c)
{
	while (outq_pending(&c->out)) {
		ssize_t n = send(c->fd, c->out.buf + c->out.off, outq_pending(&c->out),
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno != EPIPE && errno != ECONNRESET)
				log_warn("vty: write to client fd %d failed: %s; closing it", c->fd,
					 strerror(errno));
			conn_close(c);
			return -1;
		}
		c->out.off += (size_t)n;
	}
	c->out.len = c->out.off = 0;
	if (c->out.cap > VTY_OUT_KEEP) {
		XFREE(MTYPE_VTY_BUF, c->out.buf);
		c->out.cap = 0;
	}
	if (c->closing) {
		conn_close(c);
		return -1;
	}
	return 0;
}

static void conn_set_events(struct vty_conn *c)
{
	bool want_write = outq_pending(&c->out) > 0;
	bool want_read =
		!c->closing && outq_pending(&c->out) < VTY_OUT_HIGH && c->inlen <= VTY_REQUEST_MAX;

	if (want_write != c->writing) {
		if (want_write)
			event_add(c->wev);
		else
			event_del(c->wev);
		c->writing = want_write;
	}
	if (want_read != c->reading) {
		if (want_read)
			event_add(c->rev);
		else
			event_del(c->rev);
		c->reading = want_read;
	}
}

static void conn_run(struct vty_conn *c)
{
	for (;;) {
		conn_take_requests(c);
		if (conn_flush(c) < 0)
			return;
		if (c->closing || outq_pending(&c->out) >= VTY_OUT_HIGH || !conn_has_request(c))
			break;
	}
	conn_set_events(c);
}

static void conn_read_cb(int fd, short what, void *arg)
{
	struct vty_conn *c = arg;
	ssize_t n;

	if (c->inlen > VTY_REQUEST_MAX) { /* full: wait until requests are served */
		conn_set_events(c);
		return;
	}
	n = read(fd, c->in + c->inlen, VTY_REQUEST_MAX + 1 - c->inlen);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		if (n < 0 && errno != ECONNRESET)
			log_warn("vty: read from client fd %d failed: %s; closing it", fd,
				 strerror(errno));
		conn_close(c);
		return;
	}
	c->inlen += (size_t)n;
	conn_run(c);
}

static void conn_write_cb(int fd, short what, void *arg)
{
	conn_run(arg);
}

static void conn_new(int fd)
{
	struct vty_conn *c = XCALLOC(MTYPE_VTY_CONN, sizeof(*c));

	c->fd = fd;
	c->vty = vty_new(fd);
	c->vty->priv = c;
	c->in = XMALLOC(MTYPE_VTY_BUF, VTY_REQUEST_MAX + 1);
	c->rev = event_fd_new(srv.base, fd, EV_READ_FLAG, conn_read_cb, c);
	c->wev = event_fd_new(srv.base, fd, EV_WRITE_FLAG, conn_write_cb, c);
	c->next = srv.conns;
	if (srv.conns)
		srv.conns->prev = c;
	srv.conns = c;
	if (!c->rev || !c->wev) {
		log_err("vty: cannot watch client fd %d (event loop refused); closing it", fd);
		conn_close(c);
		return;
	}
	conn_set_events(c);
}

static void accept_resume_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	event_add(srv.lev);
}

/*
 * accept() failed for want of descriptors or memory: the connection stays queued and the
 * listening socket readable, so a watcher left armed would call back at once, every loop turn,
 * logging each time (a thousand idle clients past the descriptor limit wrote gigabytes of log a
 * minute). Stop watching for a while instead, and say so once per pause.
 */
static void accept_pause(int err)
{
	srv.refused++;
	if (!srv.resume_ev)
		srv.resume_ev = event_timer_new(srv.base, accept_resume_cb, NULL);
	if (!srv.resume_ev)
		return; /* cannot pause: at least the log says why below, once */
	if (event_pending(srv.resume_ev))
		return;
	event_del(srv.lev);
	event_timer_add(srv.resume_ev, VTY_ACCEPT_PAUSE_MS, 0);
	log_err("vty: cannot accept connections on %s: %s; not accepting for %d ms (%" PRIu64
		" refusal%s so far; too many vty clients, or raise the descriptor limit)",
		srv.path, strerror(err), VTY_ACCEPT_PAUSE_MS, srv.refused,
		srv.refused == 1 ? "" : "s");
}

static void accept_cb(int fd, short what, void *arg)
{
	for (;;) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				accept_pause(errno);
			else if (errno != EAGAIN && errno != EWOULDBLOCK)
				log_err("vty: accept on %s failed: %s", srv.path, strerror(errno));
			return;
		}
		conn_new(cfd);
	}
}

/* A socket file left by a daemon that died is replaced; a live one or any other file is not. */
static int clear_stale(const char *path, const struct sockaddr_un *sun)
{
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		log_err("vty: %s exists and is not a socket; not replacing it (remove it or use "
			"another path)",
			path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect(fd, (const struct sockaddr *)sun, sizeof(*sun));
	close(fd);
	if (rc == 0) {
		log_err("vty: another process is listening on %s (is bgpd already running?)", path);
		return -EADDRINUSE;
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		rc = -errno;
		log_err("vty: cannot remove the stale socket %s: %s", path, strerror(errno));
		return rc;
	}
	return 0;
}

int vty_server_start(struct event_base *base, const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct group *gr;
	mode_t omask;
	int fd, rc;

	if (srv.fd >= 0) {
		log_err("vty: server already listening on %s", srv.path);
		return -EALREADY;
	}
	if (!path || strlen(path) >= sizeof(sun.sun_path)) {
		log_err("vty: socket path %s is too long (at most %zu bytes); use a shorter one",
			path ? path : "(null)", sizeof(sun.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	rc = clear_stale(path, &sun);
	if (rc < 0)
		return rc;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		log_err("vty: socket(AF_UNIX) failed: %s", strerror(errno));
		return rc;
	}
	omask = umask(0117); /* born 0660: no window with wider permissions */
	rc = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	umask(omask);
	if (rc != 0) {
		rc = -errno;
		log_err("vty: cannot bind %s: %s (does the directory exist and is it writable?)",
			path, strerror(errno));
		close(fd);
		return rc;
	}
	if (chmod(path, 0660) != 0)
		log_warn("vty: chmod 0660 %s failed: %s", path, strerror(errno));
	gr = getgrnam(VTY_GROUP);
	if (gr && chown(path, (uid_t)-1, gr->gr_gid) != 0)
		log_warn("vty: cannot give %s to group %s: %s (members cannot use vtysh)", path,
			 VTY_GROUP, strerror(errno));
	if (listen(fd, 32) != 0) {
		rc = -errno;
		log_err("vty: listen on %s failed: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return rc;
	}
	srv.lev = event_fd_new(base, fd, EV_READ_FLAG, accept_cb, NULL);
	if (!srv.lev || event_add(srv.lev) != 0) {
		log_err("vty: cannot watch the socket %s (event loop refused)", path);
		event_free(srv.lev);
		srv.lev = NULL;
		close(fd);
		unlink(path);
		return -EIO;
	}
	srv.base = base;
	srv.fd = fd;
	srv.path = XSTRDUP(MTYPE_VTY_CONN, path);
	return 0;
}

void vty_server_stop(void)
{
	while (srv.conns)
		conn_close(srv.conns);
	if (srv.fd < 0)
		return;
	event_free(srv.lev);
	event_free(srv.resume_ev);
	srv.lev = srv.resume_ev = NULL;
	srv.refused = 0;
	close(srv.fd);
	srv.fd = -1;
	unlink(srv.path);
	XFREE(MTYPE_VTY_CONN, srv.path);
	srv.base = NULL;
}
