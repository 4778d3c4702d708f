/* SPDX-License-Identifier: ISC */
/*
 * Sockets: the listeners, accept() with the lookup of the configured peer, and the
 * non-blocking connect() with its socket options (TTL, update-source). Every option goes
 * through kernel/kernel.h; a failure is logged here with the option, the peer and the errno.
 */
#include "lib/compat.h"

#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/bgp_log.h"
#include "bgpd/bgp_network.h"
#include "bgpd/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/event.h"

#define BGP_MAX_LISTENERS 16
#define BGP_LISTEN_BACKLOG 128
#define BGP_ACCEPT_BATCH 16

struct bgp_listener {
	int fd;
	struct ev *ev;
	struct ipaddr addr;
	uint16_t port;
};

static struct bgp_listener listeners[BGP_MAX_LISTENERS];
static int nlisteners;
static uint16_t remote_port = BGP_PORT;

void bgp_network_set_remote_port(uint16_t port)
{
	remote_port = port ? port : BGP_PORT;
}

uint16_t bgp_network_remote_port(void)
{
	return remote_port;
}

uint16_t bgp_network_listen_port(int i)
{
	return i >= 0 && i < nlisteners ? listeners[i].port : 0;
}

/* ---- accept ---- */

/* Accept one connection; -1 when there is none left to accept. */
static int accept_one(int lfd)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	struct ipaddr remote;
	struct bgp_peer *peer;
	struct bgp *bgp;
	char buf[IPADDR_STRLEN];
	uint16_t port;
	int fd;

	fd = accept4(lfd, (struct sockaddr *)&ss, &sslen, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EINTR || errno == ECONNABORTED)
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			log_err("accept() on the listening socket failed: %s", strerror(errno));
		return -1;
	}
	if (ipaddr_from_sockaddr(&remote, &port, (struct sockaddr *)&ss) < 0) {
		close(fd);
		return 0;
	}
	ipaddr_unmap_v4(&remote);
	bgp = bgp_get();
	peer = bgp ? bgp_peer_lookup(bgp, &remote) : NULL;
	if (!peer) {
		log_info("connection from %s port %u rejected: not a configured neighbor",
			 ipaddr_to_str(&remote, buf, sizeof(buf)), port);
		close(fd);
		return 0;
	}
	bgp_session_accept(peer, fd);
	return 0;
}

static void accept_cb(int fd, short what, void *arg)
{
	int i;

	/* Bounded: a SYN flood cannot keep us in this callback. */
	for (i = 0; i < BGP_ACCEPT_BATCH; i++)
		if (accept_one(fd) < 0)
			break;
}

/* ---- listen ---- */

static int listen_one(struct event_base *base, const struct ipaddr *addr, uint16_t port)
{
	struct bgp_listener *l;
	char buf[IPADDR_STRLEN];
	struct ipaddr bound;
	uint16_t bport = port;
	int fd, r;

	if (nlisteners == BGP_MAX_LISTENERS) {
		log_err("too many listening addresses (at most %d)", BGP_MAX_LISTENERS);
		return -ENOSPC;
	}
	fd = socket(addr->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		log_err("cannot create a listening socket for %s: %s",
			ipaddr_to_str(addr, buf, sizeof(buf)), strerror(-r));
		return r;
	}
	r = kernel_sock_reuseaddr(fd);
	if (r == 0 && addr->family == AF_INET6)
		r = kernel_sock_v6only(fd);
	if (r < 0) {
		log_err("cannot set %s on the listener for %s: %s",
			addr->family == AF_INET6 ? "IPV6_V6ONLY" : "SO_REUSEADDR",
			ipaddr_to_str(addr, buf, sizeof(buf)), strerror(-r));
		close(fd);
		return r;
	}
	r = kernel_sock_bind(fd, addr, port);
	if (r < 0) {
		log_err("cannot listen on %s port %u: %s (another BGP daemon running? use -p "
			"PORT or -l ADDR)",
			ipaddr_to_str(addr, buf, sizeof(buf)), port, strerror(-r));
		close(fd);
		return r;
	}
	if (listen(fd, BGP_LISTEN_BACKLOG) < 0) {
		r = -errno;
		log_err("listen() on %s port %u failed: %s", ipaddr_to_str(addr, buf, sizeof(buf)),
			port, strerror(-r));
		close(fd);
		return r;
	}
	kernel_sock_names(fd, &bound, &bport, NULL, NULL);
	l = &listeners[nlisteners];
	l->fd = fd;
	l->addr = *addr;
	l->port = bport;
	l->ev = event_fd_new(base, fd, EV_READ_FLAG, accept_cb, NULL);
	if (!l->ev || event_add(l->ev) < 0) {
		event_free(l->ev);
		close(fd);
		return -ENOMEM;
	}
	nlisteners++;
	log_info("listening on %s port %u", ipaddr_to_str(addr, buf, sizeof(buf)), bport);
	return 0;
}

int bgp_network_listen(struct event_base *base, const char *addr, uint16_t port)
{
	struct ipaddr a;
	int opened = 0, r, last = -EADDRNOTAVAIL;

	if (addr) {
		if (ipaddr_from_str(&a, addr) < 0) {
			log_err("listen address %s is not an IPv4 or IPv6 address", addr);
			return -EINVAL;
		}
		r = listen_one(base, &a, port);
		return r < 0 ? r : 1;
	}
	memset(&a, 0, sizeof(a));
	a.family = AF_INET;
	r = listen_one(base, &a, port);
	if (r == 0)
		opened++;
	else
		last = r;
	memset(&a, 0, sizeof(a));
	a.family = AF_INET6;
	r = listen_one(base, &a, port);
	if (r == 0)
		opened++;
	else
		last = r;
	return opened ? opened : last;
}

void bgp_network_stop(void)
{
	int i;

	for (i = 0; i < nlisteners; i++) {
		event_free(listeners[i].ev);
		close(listeners[i].fd);
	}
	nlisteners = 0;
}

/* ---- connect ---- */

int bgp_conn_apply_ttl(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	int family = peer->conf.addr.family;
	int ttl, r;

	/* eBGP: 1 (directly connected) unless ebgp-multihop; iBGP: 255 (FRR's defaults). */
	if (bgp_peer_is_ebgp(peer))
		ttl = peer->conf.ebgp_multihop ? peer->conf.ebgp_multihop : 1;
	else
		ttl = 255;
	r = kernel_sock_ttl(c->fd, family, ttl);
	if (r < 0)
		bgp_peer_err(peer, "cannot set %s %d on fd %d: %s; connection closed",
			     kernel_sock_ttl_name(family), ttl, c->fd, strerror(-r));
	return r;
}

static int conn_bind_source(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	struct ipaddr src;
	char buf[IPADDR_STRLEN];
	int r;

	if (peer->conf.update_source.family) {
		src = peer->conf.update_source;
	} else if (peer->conf.update_source_ifname) {
		r = kernel_if_addr(peer->conf.update_source_ifname, peer->conf.addr.family, &src);
		if (r < 0) {
			bgp_peer_warn(peer, "update-source %s has no %s address: %s",
				      peer->conf.update_source_ifname,
				      peer->conf.addr.family == AF_INET ? "IPv4" : "IPv6",
				      strerror(-r));
			return r;
		}
	} else {
		return 0;
	}
	if (src.family != peer->conf.addr.family) {
		bgp_peer_warn(peer, "update-source %s is not of the neighbor's address family",
			      ipaddr_to_str(&src, buf, sizeof(buf)));
		return -EAFNOSUPPORT;
	}
	r = kernel_sock_bind(c->fd, &src, 0);
	if (r < 0)
		bgp_peer_warn(peer, "cannot bind to update-source %s (fd %d): %s",
			      ipaddr_to_str(&src, buf, sizeof(buf)), c->fd, strerror(-r));
	return r;
}

static void connect_cb(int fd, short what, void *arg)
{
	struct bgp_conn *c = arg;
	int err = kernel_sock_error(fd);

	bgp_conn_connect_cancel(c);
	if (err < 0) {
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, c->s->peer, "connect failed (fd %d): %s",
			       fd, strerror(-err));
		bgp_fsm_event(c, BGP_EV_TCP_FAILS);
		return;
	}
	bgp_conn_take_names(c);
	bgp_fsm_event(c, BGP_EV_TCP_CR_ACKED);
}

int bgp_conn_connect(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	struct sockaddr_storage ss;
	socklen_t sslen;
	int fd;

	fd = socket(peer->conf.addr.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		bgp_peer_err(peer, "cannot create a socket: %s", strerror(errno));
		return -1;
	}
	c->fd = fd;
	c->outgoing = true;
	if (bgp_conn_apply_ttl(c) < 0 || conn_bind_source(c) < 0) {
		bgp_conn_close(c);
		return -1;
	}
	sslen = ipaddr_to_sockaddr(&peer->conf.addr, remote_port, &ss);
	if (connect(fd, (struct sockaddr *)&ss, sslen) < 0 && errno != EINPROGRESS) {
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer, "connect failed (fd %d): %s", fd,
			       strerror(errno));
		bgp_conn_close(c);
		return -1;
	}
	/* Even an immediate success is reported through the watcher: FSM events are never
	 * nested inside the action that caused them. */
	c->connecting = true;
	c->connect_ev = event_fd_new(peer->bgp->base ? peer->bgp->base : bgp_event_base(), fd,
				     EV_WRITE_FLAG, connect_cb, c);
	if (!c->connect_ev || event_add(c->connect_ev) < 0) {
		bgp_conn_close(c);
		return -1;
	}
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer, "connecting to port %u (fd %d)",
		       remote_port, fd);
	return 0;
}

void bgp_conn_connect_cancel(struct bgp_conn *c)
{
	event_free(c->connect_ev);
	c->connect_ev = NULL;
	c->connecting = false;
}
