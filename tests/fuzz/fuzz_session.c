/* SPDX-License-Identifier: ISC */
/* Harness of the session-side fuzz targets: see fuzz_session.h. */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_closer.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_open.h"
#include "lib/event.h"
#include "lib/log.h"
#include "tests/fuzz/fuzz_session.h"

/* Defined by the configuration layer in the daemon (bgpd/config/bgp_nb_config.c), which
 * these targets do not link. */
DEFINE_MTYPE(BGP_PEER_CONF, "BGP peer configuration strings");

/* Our end of one connection and what bgpd wrote to it, not yet a whole message. */
struct fz_conn {
	int fd; /* -1: free */
	bool eof;
	size_t len;
	uint8_t buf[2 * 65536];
};

static struct event_base *base;
static struct bgp *bgp;
static struct fz_conn conns[FZ_MAX_CONNS];

struct event_base *fz_base(void)
{
	return base;
}

void fz_session_init(void)
{
	if (base)
		return;
	signal(SIGPIPE, SIG_IGN);
	log_init("bgpd");
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	/* Every debug message formatted (into the ring): its printing is reached too. */
	log_set_ring_level(LOG_LVL_DEBUG);
	debug_flags = UINT64_MAX;
	base = event_loop_new();
	bgp = base ? bgp_create(FZ_LOCAL_AS, base) : NULL;
	if (!base || !bgp)
		abort();
	bgp->router_id_configured = true;
	inet_pton(AF_INET, "192.0.2.1", &bgp->router_id);
	bgp->ebgp_requires_policy = false; /* routes flow without policy */
	for (int i = 0; i < FZ_MAX_CONNS; i++)
		conns[i].fd = -1;
}

uint32_t fz_peer_as(const struct fz_peer_opts *o)
{
	switch (o->as_kind & 3) {
	case 1:
		return FZ_LOCAL_AS;
	case 2:
		return 4200000002u;
	default:
		return 65002;
	}
}

/* Has bgpd unread input on any connection, or a read it deferred to the next turn? */
static bool bgpd_busy(void)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		struct bgp_session *s = peer->session;

		for (int i = 0; s && i < 2; i++) {
			const struct bgp_conn *c = &s->conn[i];
			int n = 0;

			if (c->fd < 0)
				continue;
			if (c->resume_ev && event_pending(c->resume_ev))
				return true;
			if (c->read_ev && event_pending(c->read_ev) &&
			    ioctl(c->fd, FIONREAD, &n) == 0 && n > 0)
				return true;
		}
	}
	return false;
}

/* One message bgpd sent: it must be acceptable to any peer. */
static void check_sent(const uint8_t *m, size_t len)
{
	struct bgp_header h;
	struct bgp_error err;
	struct bgp_open open;
	struct bgp_notify n;

	if (bgp_header_decode(m, true, &h, &err) < 0 || h.len != len)
		abort();
	switch (h.type) {
	case BGP_MSG_OPEN:
		if (len > BGP_MAX_MSG_LEN || bgp_open_decode(&open, m + 19, len - 19, &err) < 0)
			abort();
		break;
	case BGP_MSG_NOTIFICATION:
		if (bgp_notify_decode(&n, m + 19, len - 19) < 0)
			abort();
		break;
	case BGP_MSG_KEEPALIVE:
		if (len != BGP_HEADER_LEN)
			abort();
		break;
	default:
		break;
	}
}

static void drain(struct fz_conn *fc)
{
	for (;;) {
		ssize_t n;
		size_t off = 0;

		if (fc->fd < 0 || fc->eof)
			return;
		n = recv(fc->fd, fc->buf + fc->len, sizeof(fc->buf) - fc->len, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			fc->eof = true; /* bgpd closed it (a partial message left is its bug) */
			if (fc->len)
				abort();
			return;
		}
		if (n < 0)
			return;
		fc->len += (size_t)n;
		while (fc->len - off >= BGP_HEADER_LEN) {
			size_t mlen = (size_t)fc->buf[off + 16] << 8 | fc->buf[off + 17];

			if (mlen < BGP_HEADER_LEN)
				abort();
			if (fc->len - off < mlen)
				break;
			check_sent(fc->buf + off, mlen);
			off += mlen;
		}
		memmove(fc->buf, fc->buf + off, fc->len - off);
		fc->len -= off;
	}
}

static void pump_once(void)
{
	event_loop_once(base, false);
	for (int i = 0; i < FZ_MAX_CONNS; i++)
		drain(&conns[i]);
}

void fz_pump(void)
{
	int quiet = 0;

	for (int i = 0; i < 64 && quiet < 2; i++) {
		pump_once();
		quiet = bgpd_busy() ? 0 : quiet + 1;
	}
}

bool fz_fire(struct ev *timer)
{
	if (!timer || event_timer_remaining(timer) < 0)
		return false;
	event_timer_add(timer, 0, 0);
	fz_pump();
	return true;
}

struct bgp_peer *fz_peer_new(const struct fz_peer_opts *o)
{
	struct bgp_peer *peer;
	struct ipaddr a;

	ipaddr_from_str(&a, o->ipv6 ? "2001:db8::2" : "192.0.2.2");
	peer = bgp_peer_create(bgp, &a);
	if (!peer)
		abort();	   /* the previous input's neighbor was not deleted */
	peer->conf.passive = true; /* never connect: the harness brings the connections */
	peer->conf.remote_as = fz_peer_as(o);
	if ((o->as_kind & 3) == 3)
		peer->conf.remote_as_type = BGP_REMOTE_AS_EXTERNAL;
	if (o->timers) {
		peer->conf.timers_configured = true;
		peer->conf.keepalive = 30;
		peer->conf.holdtime = o->holdtime;
	}
	if (peer->conf.remote_as != FZ_LOCAL_AS)
		peer->conf.local_as = o->local_as;
	if (o->ipv6)
		peer->conf.af_activation[BGP_AF_IPV6_UNICAST] = BGP_AF_ACT_ON;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_REMOTE_AS);
	fz_pump();
	if (bgp_session_state(peer) != BGP_ST_ACTIVE)
		abort(); /* the harness's set-up is wrong */
	return peer;
}

int fz_connect(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	int sv[2], slot;

	for (slot = 0; slot < FZ_MAX_CONNS && conns[slot].fd >= 0; slot++)
		;
	if (slot == FZ_MAX_CONNS || !s)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	conns[slot].fd = sv[0];
	conns[slot].eof = false;
	conns[slot].len = 0;
	bgp_session_accept(peer, sv[1]);
	/* The null kernel knows no addresses: give the connection those of a TCP one. */
	for (int i = 0; i < 2; i++) {
		struct bgp_conn *c = &s->conn[i];

		if (c->fd != sv[1])
			continue;
		c->remote = peer->conf.addr;
		ipaddr_from_str(&c->local,
				peer->conf.addr.family == AF_INET ? "192.0.2.1" : "2001:db8::1");
		c->lport = 179;
		c->rport = (uint16_t)(40000 + slot);
		s->local = c->local;
		s->remote = c->remote;
		s->lport = c->lport;
		s->rport = c->rport;
		s->have_addrs = true;
	}
	fz_pump();
	return slot;
}

bool fz_open_slot(int slot)
{
	return slot >= 0 && slot < FZ_MAX_CONNS && conns[slot].fd >= 0 && !conns[slot].eof;
}

bool fz_send(int slot, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	unsigned stalls = 0;

	if (!fz_open_slot(slot))
		return false;
	while (len) {
		ssize_t n = send(conns[slot].fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR) && ++stalls < 256) {
			pump_once(); /* bgpd reads on its next turn */
			continue;
		}
		return false; /* closed by bgpd, or it stopped reading */
	}
	return true;
}

void fz_close(int slot)
{
	if (slot < 0 || slot >= FZ_MAX_CONNS || conns[slot].fd < 0)
		return;
	drain(&conns[slot]);
	close(conns[slot].fd);
	conns[slot].fd = -1;
	fz_pump();
}

void fz_peer_delete(struct bgp_peer *peer)
{
	bgp_peer_delete(peer);
	fz_pump();
	for (int i = 0; i < FZ_MAX_CONNS; i++) {
		if (conns[i].fd < 0)
			continue;
		drain(&conns[i]);
		close(conns[i].fd);
		conns[i].fd = -1;
	}
	bgp_closer_flush();
	fz_pump(); /* the RIB's work after the neighbor went */
}

size_t fz_msg(uint8_t *buf, uint8_t type, const uint8_t *body, size_t len)
{
	memset(buf, 0xff, 16);
	buf[16] = (uint8_t)((len + BGP_HEADER_LEN) >> 8);
	buf[17] = (uint8_t)(len + BGP_HEADER_LEN);
	buf[18] = type;
	if (len)
		memmove(buf + BGP_HEADER_LEN, body, len);
	return len + BGP_HEADER_LEN;
}

static size_t put_cap(uint8_t *p, uint8_t code, const uint8_t *val, uint8_t len)
{
	p[0] = 2; /* optional parameter: capabilities */
	p[1] = (uint8_t)(len + 2);
	p[2] = code;
	p[3] = len;
	if (len)
		memcpy(p + 4, val, len);
	return (size_t)len + 4;
}

size_t fz_open(uint8_t *buf, uint32_t asn, uint16_t hold, uint32_t id, unsigned caps)
{
	static const uint8_t mp4[] = { 0, 1, 0, 1 }, mp6[] = { 0, 2, 0, 1 };
	uint8_t body[96], as4[4];
	uint16_t my_as = asn > 65535 ? 23456 : (uint16_t)asn;
	size_t n = 10;

	body[0] = 4;
	body[1] = (uint8_t)(my_as >> 8);
	body[2] = (uint8_t)my_as;
	body[3] = (uint8_t)(hold >> 8);
	body[4] = (uint8_t)hold;
	id = htonl(id);
	memcpy(body + 5, &id, 4);
	if (caps & FZ_CAP_MP4)
		n += put_cap(body + n, 1, mp4, 4);
	if (caps & FZ_CAP_MP6)
		n += put_cap(body + n, 1, mp6, 4);
	if (caps & FZ_CAP_RR)
		n += put_cap(body + n, 2, NULL, 0);
	if (caps & FZ_CAP_AS4) {
		as4[0] = (uint8_t)(asn >> 24);
		as4[1] = (uint8_t)(asn >> 16);
		as4[2] = (uint8_t)(asn >> 8);
		as4[3] = (uint8_t)asn;
		n += put_cap(body + n, 65, as4, 4);
	}
	if (caps & FZ_CAP_EXT)
		n += put_cap(body + n, 6, NULL, 0);
	body[9] = (uint8_t)(n - 10);
	return fz_msg(buf, BGP_MSG_OPEN, body, n);
}
