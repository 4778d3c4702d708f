/* SPDX-License-Identifier: ISC */
/*
 * Message I/O of a connection: framing of the input with the codec's header check, and an
 * output queue.
 *
 * Input is bounded per loop turn (doc/architecture.md "Event loop": the session side is never
 * starved): at most BGP_READ_MAX_MSGS messages or BGP_READ_MAX_BYTES bytes per read event; then the
 * read watcher is switched off and a deferred task continues on the next turn, after timers and
 * other sockets had theirs. A peer flooding UPDATEs therefore cannot delay our KEEPALIVEs to it or
 * to anyone else, and cannot make our hold timers fire late.
 *
 * Output goes through a list of chunks; the RIB fills it up to BGP_OBUF_HIGH and is told
 * (rib_peer_writable) when it drained below BGP_OBUF_LOW. A peer that stops reading is
 * dropped by the SendHoldTimer (bgp_send_hold.c), which every write that makes progress
 * restarts.
 */
#include "lib/compat.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"

/* Room for a maximum (extended) message plus what usually follows it in the socket. */
#define BGP_IBUF_SIZE (2 * 65536)
#define BGP_OBUF_CHUNK 65536

static void read_cb(int fd, short what, void *arg);
static void write_cb(int fd, short what, void *arg);
static void resume_cb(int fd, short what, void *arg);

static struct event_base *conn_base(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;

	return peer->bgp->base;
}

int bgp_conn_io_start(struct bgp_conn *c)
{
	struct event_base *base = conn_base(c);
	uint64_t now = monotime_ms();

	if (c->fd < 0)
		return -1;
	c->isize = BGP_IBUF_SIZE;
	c->ibuf = XMALLOC(MTYPE_BGP_IBUF, c->isize);
	c->ilen = 0;
	c->itouched = 0;
	c->inq = 0;
	c->read_ev = event_fd_new(base, c->fd, EV_READ_FLAG, read_cb, c);
	c->write_ev = event_fd_new(base, c->fd, EV_WRITE_FLAG, write_cb, c);
	c->resume_ev = event_defer_new(base, resume_cb, c);
	if (!c->read_ev || !c->write_ev || !c->resume_ev || event_add(c->read_ev) < 0) {
		bgp_peer_err(c->s->peer, "cannot watch fd %d in the event loop", c->fd);
		bgp_conn_io_stop(c);
		return -1;
	}
	c->last_read_ms = c->last_write_ms = now;
	return 0;
}

static void obuf_clear(struct bgp_conn *c)
{
	struct bgp_obuf_chunk *ch;

	while ((ch = TAILQ_FIRST(&c->obuf))) {
		TAILQ_REMOVE(&c->obuf, ch, entry);
		XFREE(MTYPE_BGP_OBUF, ch);
	}
	c->oqueued = 0;
	c->omsgs = 0;
	bgp_conn_send_hold_stop(c);
}

void bgp_conn_io_stop(struct bgp_conn *c)
{
	event_free(c->read_ev);
	c->read_ev = NULL;
	event_free(c->write_ev);
	c->write_ev = NULL;
	event_free(c->resume_ev);
	c->resume_ev = NULL;
	XFREE(MTYPE_BGP_IBUF, c->ibuf);
	c->ilen = 0;
	c->isize = 0;
	c->itouched = 0;
	c->inq = 0;
	obuf_clear(c);
}

void bgp_conn_ibuf_release(struct bgp_conn *c)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	if (!c->ibuf || c->ilen || c->itouched <= page)
		return;
	/* The whole pages inside the buffer (its first may hold malloc's header or a
	 * neighbour's bytes, and the last too). */
	from = ((uintptr_t)c->ibuf + page - 1) & ~(page - 1);
	to = ((uintptr_t)c->ibuf + c->isize) & ~(page - 1);
	if (to > from && madvise((void *)from, to - from, MADV_DONTNEED) < 0)
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, c->s->peer,
			       "cannot give back the input buffer's pages: %s", strerror(errno));
	c->itouched = 0;
}

/* ---- output ---- */

static void count_sent(struct bgp_conn *c, const uint8_t *msg, size_t len)
{
	uint8_t type = len >= BGP_HEADER_LEN ? msg[BGP_HEADER_LEN - 1] : 0;

	if (type < BGP_MSG_COUNTERS)
		c->s->sent.count[type]++;
}

int bgp_conn_queue(struct bgp_conn *c, const uint8_t *msg, size_t len)
{
	struct bgp_obuf_chunk *last;

	if (c->fd < 0 || !c->write_ev)
		return -1;
	last = TAILQ_LAST(&c->obuf, bgp_obuf_list);
	if (!last || last->size - last->end < len) {
		size_t size = MAX((size_t)BGP_OBUF_CHUNK, len);

		last = XMALLOC(MTYPE_BGP_OBUF, sizeof(*last) + size);
		last->start = last->end = 0;
		last->size = size;
		last->nmsgs = 0;
		TAILQ_INSERT_TAIL(&c->obuf, last, entry);
	}
	memcpy(last->data + last->end, msg, len);
	last->end += len;
	last->nmsgs++;
	c->oqueued += len;
	c->omsgs++;
	count_sent(c, msg, len);
	bgp_conn_send_hold_queued(c);
	if (!event_pending(c->write_ev))
		event_add(c->write_ev);
	return 0;
}

void bgp_conn_write_now(struct bgp_conn *c, const uint8_t *msg, size_t len)
{
	ssize_t n;

	obuf_clear(c);
	if (c->write_ev)
		event_del(c->write_ev);
	if (c->fd < 0)
		return;
	do {
		n = send(c->fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n > 0) {
		c->last_write_ms = c->s->last_write_ms = monotime_ms();
		count_sent(c, msg, len);
	}
}

static void write_cb(int fd, short what, void *arg)
{
	struct bgp_conn *c = arg;
	struct bgp_session *s = c->s;
	struct bgp_obuf_chunk *ch;

	while ((ch = TAILQ_FIRST(&c->obuf))) {
		ssize_t n = send(fd, ch->data + ch->start, ch->end - ch->start, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			bgp_peer_info(s->peer, "write error on fd %d: %s", fd, strerror(errno));
			bgp_conn_set_down_reason(c, BGP_DOWN_SOCKET_ERROR);
			bgp_fsm_event(c, BGP_EV_TCP_FAILS);
			return;
		}
		c->last_write_ms = s->last_write_ms = monotime_ms();
		ch->start += (size_t)n;
		c->oqueued -= (size_t)n;
		bgp_conn_send_hold_progress(c);
		if (ch->start < ch->end)
			break; /* the socket buffer is full */
		c->omsgs -= ch->nmsgs;
		TAILQ_REMOVE(&c->obuf, ch, entry);
		XFREE(MTYPE_BGP_OBUF, ch);
	}
	if (TAILQ_EMPTY(&c->obuf))
		event_del(c->write_ev);
	if (s->write_blocked && c->oqueued < BGP_OBUF_LOW && s->established &&
	    bgp_conn_is_primary(c)) {
		s->write_blocked = false;
		rib_peer_writable(s->peer);
	}
}

/* ---- input ---- */

/* Complete messages left in the buffer (for InQ) after a bounded pass stopped early. */
static uint32_t count_complete(const struct bgp_conn *c)
{
	size_t off = 0;
	uint32_t n = 0;

	while (c->ilen - off >= BGP_HEADER_LEN) {
		size_t len = (size_t)c->ibuf[off + 16] << 8 | c->ibuf[off + 17];

		if (len < BGP_HEADER_LEN || c->ilen - off < len)
			break;
		off += len;
		n++;
	}
	return n;
}

/* UPDATEs peeked ahead at most, and the RIB's hint: see bgp_update_peek.c. */
#define PEEK_MSGS 64

/*
 * Read the prefixes of the complete UPDATEs from off on (up to BGP_PEEK_MAX a family, at most
 * PEEK_MSGS messages) and hand them to the RIB as a hint, so that their tree descents are
 * fetched together instead of two or three per UPDATE. Returns where the peek stopped: the
 * next one starts when the messages up to there have been handled.
 */
static size_t conn_peek(struct bgp_conn *c, size_t off)
{
	struct bgp_update_peek pk;
	unsigned msgs = 0;

	bgp_update_peek_start(&pk, c->nego.as4, c->nego.ebgp);
	while (msgs < PEEK_MSGS && c->ilen - off >= BGP_HEADER_LEN) {
		size_t len = (size_t)c->ibuf[off + 16] << 8 | c->ibuf[off + 17];
		bool room = true;

		if (len < BGP_HEADER_LEN || c->ilen - off < len)
			break; /* incomplete, or a bad header that the dispatch will report */
		if (c->ibuf[off + 18] == BGP_MSG_UPDATE) {
			room = bgp_update_peek(c->ibuf + off + BGP_HEADER_LEN, len - BGP_HEADER_LEN,
					       &pk);
			msgs++;
		}
		off += len;
		if (!room)
			break;
	}
	/* The stores' slots first: their loads complete while the tree's descents are walked. */
	bgp_update_peek_prefetch(&pk);
	rib_prefetch(c->s->peer, &pk);
	return off;
}

/*
 * Process complete messages, reading more as long as the budget lasts. Returns early (without
 * touching c) as soon as a message closed the connection.
 */
static void conn_input(struct bgp_conn *c)
{
	struct bgp_session *s = c->s;
	uint32_t gen = c->gen;
	unsigned msgs = 0;
	size_t bytes = 0;

	for (;;) {
		size_t off = 0, peeked = 0;
		ssize_t n;

		while (c->ilen - off >= BGP_HEADER_LEN) {
			struct bgp_header hdr;

			if (msgs >= BGP_READ_MAX_MSGS || bytes >= BGP_READ_MAX_BYTES) {
				/* Budget spent: yield to the loop, continue next turn. */
				memmove(c->ibuf, c->ibuf + off, c->ilen - off);
				c->ilen -= off;
				c->inq = count_complete(c);
				event_del(c->read_ev);
				event_defer(c->resume_ev);
				return;
			}
			if (bgp_header_decode(c->ibuf + off, c->ext_msg, &hdr, &c->err) < 0) {
				char text[128];

				bgp_peer_warn(s->peer, "bad message header: %s",
					      bgp_error_str(c->err.code, c->err.subcode, text,
							    sizeof(text)));
				bgp_fsm_event(c, BGP_EV_HEADER_ERR);
				return;
			}
			if (c->ilen - off < hdr.len)
				break;
			if (hdr.type == BGP_MSG_UPDATE && off >= peeked &&
			    c->state == BGP_ST_ESTABLISHED)
				peeked = conn_peek(c, off);
			msgs++;
			bytes += hdr.len;
			off += hdr.len;
			bgp_conn_dispatch(c, hdr.type, c->ibuf + off - hdr.len + BGP_HEADER_LEN,
					  hdr.len - BGP_HEADER_LEN);
			if (c->gen != gen)
				return; /* the message ended the connection */
		}
		if (off) {
			memmove(c->ibuf, c->ibuf + off, c->ilen - off);
			c->ilen -= off;
		}
		c->inq = 0;
		if (c->ilen == c->isize)
			break; /* cannot happen: a header check bounds every message */
		n = recv(c->fd, c->ibuf + c->ilen, c->isize - c->ilen, MSG_DONTWAIT);
		if (n > 0) {
			c->ilen += (size_t)n;
			if (c->ilen > c->itouched)
				c->itouched = c->ilen;
			c->last_read_ms = s->last_read_ms = monotime_ms();
			continue;
		}
		if (n == 0) {
			bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, s->peer,
				       "connection closed by the peer (fd %d)", c->fd);
			bgp_conn_set_down_reason(c, BGP_DOWN_CLOSED);
			bgp_fsm_event(c, BGP_EV_TCP_FAILS);
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		bgp_peer_info(s->peer, "read error on fd %d: %s", c->fd, strerror(errno));
		bgp_conn_set_down_reason(c, BGP_DOWN_SOCKET_ERROR);
		bgp_fsm_event(c, BGP_EV_TCP_FAILS);
		return;
	}
	if (!event_pending(c->read_ev))
		event_add(c->read_ev);
}

static void read_cb(int fd, short what, void *arg)
{
	conn_input(arg);
}

static void resume_cb(int fd, short what, void *arg)
{
	conn_input(arg);
}
