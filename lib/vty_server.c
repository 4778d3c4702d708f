/* SPDX-License-Identifier: ISC */
/*
 * The vty server: a UNIX stream socket that vtysh connects to. Every connection is one vty
 * (starting in enable mode) and speaks the protocol of lib/vty.h:
 *   request: kind byte ('x' execute, '?' describe, 't' complete, 'p' prompt), line, NUL
 *   reply:   text, three NUL bytes, one status byte (enum cmd_result)
 * Requests are served in order. Input per request is bounded; output goes to a queue written
 * without blocking, and a connection whose queue is long stops being read until it drains,
 * so one slow reader of a big table neither blocks the daemon nor grows memory without bound.
 *
 * Sessions are capped (VTY_MAX_SESSIONS): every one holds a descriptor and buffers, and 317
 * connections of a member of the vty group once wrote 35 million lines. Past the cap a
 * connection gets one line saying so and is closed. A session idle for the exec-timeout (FRR's
 * default, 10 minutes) is closed: idle means no request arrived and none of its queued output
 * could be written meanwhile, so a client still draining a big table is never cut off.
 */
#include "lib/compat.h"

#include <grp.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "lib/command_private.h"
#include "lib/event.h"
#include "lib/listen_backoff.h"
#include "lib/log.h"
#include "lib/log_limit.h"
#include "lib/vty.h"

DEFINE_MTYPE(VTY_CONN, "vty connection");
DEFINE_MTYPE(VTY_BUF, "vty connection buffers");

#define VTY_GROUP "skuavty"
#define VTY_REQUEST_MAX (64 * 1024) /* one request: kind byte, line (the NUL not counted) */
#define VTY_OUT_HIGH (256 * 1024)   /* queued output above which requests wait */
#define VTY_OUT_KEEP (1024 * 1024)  /* buffers above this are released once drained */

struct vty_outq {
	char *buf;
	size_t len, off, cap;
};

struct vty_conn {
	struct vty *vty;
	int fd;
	struct ev *rev, *wev;
	struct ev *idle;   /* exec-timeout: re-armed on every request and on output progress */
	int unread;	   /* bytes of ours the client had not read when the timer was armed */
	int64_t active_ms; /* monotonic time of the last request or output progress */
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
	struct listen_backoff *backoff; /* descriptors exhausted: accept paused a while */
	struct vty_conn *conns;
	unsigned nconns;
	unsigned max_sessions;
	uint32_t idle_ms;	/* 0: sessions never time out */
	uint32_t evict_idle_ms; /* at the cap, idle this long: may make room (UINT32_MAX: never) */
} srv = { .fd = -1,
	  .max_sessions = VTY_MAX_SESSIONS,
	  .idle_ms = VTY_IDLE_TIMEOUT_MS,
	  .evict_idle_ms = VTY_EVICT_IDLE_MS };

void vty_server_set_limits(unsigned max_sessions, uint32_t idle_timeout_ms, uint32_t evict_idle_ms)
{
	struct vty_conn *c;

	srv.max_sessions = max_sessions ? max_sessions : VTY_MAX_SESSIONS;
	srv.idle_ms = idle_timeout_ms;
	srv.evict_idle_ms = evict_idle_ms ? evict_idle_ms : VTY_EVICT_IDLE_MS;
	/* the sessions open now get the new timeout from now on */
	for (c = srv.conns; c; c = c->next) {
		if (srv.idle_ms)
			event_timer_add(c->idle, srv.idle_ms, 0);
		else
			event_del(c->idle);
	}
}

uint32_t vty_server_idle_timeout(void)
{
	return srv.idle_ms;
}

unsigned vty_server_sessions(void)
{
	return srv.nconns;
}

/* Bytes written to the socket that the client has not read yet (-1: unknown). */
static int conn_unread(const struct vty_conn *c)
{
	int n;

	return ioctl(c->fd, SIOCOUTQ, &n) == 0 ? n : -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void conn_touch(struct vty_conn *c)
{
	c->active_ms = now_ms();
	if (!srv.idle_ms || !c->idle)
		return;
	c->unread = conn_unread(c);
	event_timer_add(c->idle, srv.idle_ms, 0);
}

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
	srv.nconns--;
	event_free(c->rev);
	event_free(c->wev);
	event_free(c->idle);
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
		conn_touch(c); /* draining output is not idle */
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
	conn_touch(c);
	conn_run(c);
}

static void conn_write_cb(int fd, short what, void *arg)
{
	conn_run(arg);
}

/* Who connected: the kernel's word, taken once at accept (the client cannot change it). */
static void vty_learn_peer(struct vty *vty, int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 && len == sizeof(cr)) {
		vty->cred_known = true;
		vty->uid = cr.uid;
		vty->gid = cr.gid;
		vty->pid = cr.pid;
	} else {
		log_warn("vty: cannot tell who is on client fd %d (SO_PEERCRED: %s); the session "
			 "may not change privileged settings",
			 fd, strerror(errno));
	}
}

static void conn_idle_cb(int fd, short what, void *arg)
{
	struct vty_conn *c = arg;

	/* The kernel wakes us to write only when most of the socket buffer has been read, so
	 * a slow reader may read for a while without our seeing it: ask the socket. */
	if (conn_unread(c) != c->unread) {
		conn_touch(c);
		return;
	}
	log_info("vty: session on fd %d idle for %u s (exec-timeout); closing it", c->fd,
		 srv.idle_ms / 1000);
	conn_close(c);
}

/* Past the cap: one line for whoever connected (it may be a script), then the door. */
static void refuse_session(int fd)
{
	char msg[128];
	int n = snprintf(msg, sizeof(msg), "%% too many vty sessions (%u); close some\n",
			 srv.max_sessions);

	/* As a reply (text, three NULs, CMD_CLOSE), so that vtysh prints it and stops. */
	memcpy(msg + n, "\0\0\0\7", 4);
	(void)send(fd, msg, (size_t)n + 4, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
	log_warn_limited("vty: connection refused on %s: too many vty sessions (%u); close "
			 "some",
			 srv.path, srv.max_sessions);
}

/*
 * At the cap, the session idle the longest (no request, no output progress, nothing half
 * received or queued, for at least evict_idle_ms) makes room for the newcomer: without it,
 * clients that connect and say nothing would shut every operator out until the idle timeout.
 * NULL when every session is busy or was active a moment ago.
 */
static struct vty_conn *eviction_victim(void)
{
	struct vty_conn *c, *victim = NULL;
	int64_t limit = now_ms() - srv.evict_idle_ms;

	if (srv.evict_idle_ms == UINT32_MAX)
		return NULL;
	for (c = srv.conns; c; c = c->next)
		if (!c->closing && c->inlen == 0 && outq_pending(&c->out) == 0 &&
		    c->active_ms <= limit && (!victim || c->active_ms < victim->active_ms))
			victim = c;
	return victim;
}

static void evict(struct vty_conn *c)
{
	static const char msg[] = "% vty session closed: too many sessions, and this one was "
				  "idle the longest\n";
	const char term[4] = { 0, 0, 0, CMD_CLOSE };

	/* As a reply, so that a vtysh at its prompt prints why and exits. */
	(void)send(c->fd, msg, sizeof(msg) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)send(c->fd, term, sizeof(term), MSG_NOSIGNAL | MSG_DONTWAIT);
	log_info_limited("vty: %u sessions open on %s: closing the one idle the longest (fd %d) "
			 "for a new one",
			 srv.nconns, srv.path, c->fd);
	conn_close(c);
}

static void conn_new(int fd)
{
	struct vty_conn *c;

	if (srv.nconns >= srv.max_sessions) {
		c = eviction_victim();
		if (!c) {
			refuse_session(fd);
			return;
		}
		evict(c);
	}
	c = XCALLOC(MTYPE_VTY_CONN, sizeof(*c));

	c->fd = fd;
	c->vty = vty_new(fd);
	c->vty->priv = c;
	vty_learn_peer(c->vty, fd);
	c->in = XMALLOC(MTYPE_VTY_BUF, VTY_REQUEST_MAX + 1);
	c->rev = event_fd_new(srv.base, fd, EV_READ_FLAG, conn_read_cb, c);
	c->wev = event_fd_new(srv.base, fd, EV_WRITE_FLAG, conn_write_cb, c);
	c->idle = event_timer_new(srv.base, conn_idle_cb, c);
	c->next = srv.conns;
	if (srv.conns)
		srv.conns->prev = c;
	srv.conns = c;
	srv.nconns++;
	if (!c->rev || !c->wev || !c->idle) {
		log_err("vty: cannot watch client fd %d (event loop refused); closing it", fd);
		conn_close(c);
		return;
	}
	conn_touch(c);
	conn_set_events(c);
}

static void accept_cb(int fd, short what, void *arg)
{
	for (;;) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (listen_backoff_wanted(errno))
				listen_backoff_pause(srv.backoff, errno);
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
	char name[sizeof(sun.sun_path) + 16];
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
	snprintf(name, sizeof(name), "vty socket %s", path);
	srv.backoff = srv.lev ? listen_backoff_new(base, srv.lev, name) : NULL;
	if (!srv.backoff || event_add(srv.lev) != 0) {
		log_err("vty: cannot watch the socket %s (event loop refused)", path);
		listen_backoff_free(srv.backoff);
		srv.backoff = NULL;
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
	listen_backoff_free(srv.backoff);
	srv.backoff = NULL;
	event_free(srv.lev);
	srv.lev = NULL;
	close(srv.fd);
	srv.fd = -1;
	unlink(srv.path);
	XFREE(MTYPE_VTY_CONN, srv.path);
	srv.base = NULL;
}
