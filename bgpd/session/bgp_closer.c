/* SPDX-License-Identifier: ISC */
/*
 * Lingering closes (see bgpd/session/bgp_closer.h): one small record per socket waiting for the
 * peer's FIN, with a read watcher and a timer, in a list that bgp_closer_flush() empties.
 */
#include "lib/compat.h"

#include <errno.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/core/bgp.h"
#include "bgpd/session/bgp_closer.h"
#include "lib/event.h"
#include "lib/memory.h"

DEFINE_MTYPE(BGP_CLOSER, "BGP lingering close");

struct closer {
	TAILQ_ENTRY(closer) entry;
	int fd;
	struct ev *read;
	struct ev *timer;
};

static TAILQ_HEAD(, closer) closers = TAILQ_HEAD_INITIALIZER(closers);
static unsigned closer_count;

/* Read what is there. True when the peer has closed its side (or the socket failed). */
static bool drain(int fd)
{
	char buf[4096];

	for (int i = 0; i < 16; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0)
			return true;
		if (n < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
	}
	return false; /* more data than 16 reads: wait for the rest */
}

static void closer_end(struct closer *c)
{
	TAILQ_REMOVE(&closers, c, entry);
	closer_count--;
	event_free(c->read);
	event_free(c->timer);
	close(c->fd);
	XFREE(MTYPE_BGP_CLOSER, c);
}

static void closer_readable(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	if (drain(((struct closer *)arg)->fd))
		closer_end(arg);
}

static void closer_timeout(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	closer_end(arg); /* the kernel finishes the connection on its own */
}

void bgp_closer_close(struct event_base *base, int fd)
{
	struct closer *c;

	if (fd < 0)
		return;
	shutdown(fd, SHUT_WR);
	if (drain(fd) || !base || closer_count >= BGP_CLOSER_MAX) {
		close(fd);
		return;
	}
	c = XCALLOC(MTYPE_BGP_CLOSER, sizeof(*c));
	c->fd = fd;
	c->read = event_fd_new(base, fd, EV_READ_FLAG, closer_readable, c);
	c->timer = event_timer_new(base, closer_timeout, c);
	if (!c->read || !c->timer || event_add(c->read) < 0 ||
	    event_timer_add(c->timer, BGP_CLOSER_LINGER_MS, 0) < 0) {
		event_free(c->read);
		event_free(c->timer);
		XFREE(MTYPE_BGP_CLOSER, c);
		close(fd);
		return;
	}
	TAILQ_INSERT_TAIL(&closers, c, entry);
	closer_count++;
}

void bgp_closer_flush(void)
{
	struct closer *c;

	while ((c = TAILQ_FIRST(&closers)))
		closer_end(c);
}
