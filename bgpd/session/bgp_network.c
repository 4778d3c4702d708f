/* SPDX-License-Identifier: ISC */
/*
 * Sockets: the listeners, accept() with the lookup of the configured peer, and the
 * non-blocking connect(). Every option goes through kernel/kernel.h; a failure is logged here
 * with the option, the peer and the errno, and the socket is closed (bgp_security.h).
 *
 * The listeners apply GTSM (RFC 5082) to the handshake itself, which every other BGP daemon
 * leaves open: a listening socket has no per-peer minimum TTL, so a GTSM peer's SYN and the ACK
 * that completes the handshake would otherwise be accepted at any TTL. Each listener is a GTSM
 * listener group (kernel/kernel_security.h): an SO_REUSEPORT pair whose reuseport selector sends
 * a GTSM peer's segment below its minimum to a sink socket with minimum 255, where the kernel
 * drops it as TCPMinTTLDrop before any TCP-MD5 work, plus a socket filter on the accepting
 * listener for the handshake ACK. Peers without GTSM, multihop peers and unknown sources are not
 * affected. The rules are rebuilt whenever the set of GTSM peers changes.
 *
 * Each listener also carries TTL 255 (so that a GTSM peer accepts our SYN-ACK) and the TCP-MD5
 * key of every peer with a password. Whenever a key or a GTSM rule is added, the connections
 * already waiting in the accept queue may have completed their handshake before it was in
 * force: those of the peer concerned are closed unread (listener_flush()).
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/event.h"
#include "lib/listen_backoff.h"
#include "lib/log_limit.h"

DEFINE_MTYPE(BGP_LISTENER_RULES, "BGP listener GTSM rules");

#define BGP_MAX_LISTENERS 16
#define BGP_LISTEN_BACKLOG 128
#define BGP_ACCEPT_BATCH 16
/* A flush accepts at most this many queued connections (the backlog, with margin). */
#define BGP_FLUSH_MAX (4 * BGP_LISTEN_BACKLOG)

struct bgp_listener {
	int fd;				 /* the accepting socket; -1: gone (a reopen failed) */
	struct kernel_gtsm_group *group; /* NULL: a plain socket, no GTSM at the listener */
	struct ev *ev;
	struct listen_backoff *backoff; /* descriptors exhausted: accept paused a while */
	struct ipaddr addr;		/* as asked (wildcard or -l ADDR) */
	uint16_t port;			/* as bound */
	char name[SU_STRLEN];
	/* The GTSM rules in force on the group (the last successful update), sorted by address. */
	struct kernel_gtsm_peer *rules;
	size_t nrules;
	bool stale; /* the last update failed: the rules lag behind the configuration */
};

static struct bgp_listener listeners[BGP_MAX_LISTENERS];
static int nlisteners;
static uint16_t remote_port = BGP_PORT;
static struct event_base *listen_base;
/* The instance whose peers the listeners serve (bgp_network_set_instance()), NULL: none. */
static struct bgp *listen_bgp;
/* A dynamic neighbor is being made inside accept(): its key and rule are the range's, which
 * were in force for every queued connection, so the listeners are not flushed (which would
 * also re-enter accept()). */
static bool making_dynamic;

static void listeners_rules_update(const struct bgp_peer *skip);

void bgp_network_set_remote_port(uint16_t port)
{
	remote_port = port ? port : BGP_PORT;
}

uint16_t bgp_network_listen_port(int i)
{
	return i >= 0 && i < nlisteners ? listeners[i].port : 0;
}

/* ---- GTSM rules ---- */

static int rule_cmp(const void *a, const void *b)
{
	const struct kernel_gtsm_peer *x = a, *y = b;
	int c = ipaddr_cmp(&x->addr, &y->addr);

	return c ? c : (int)x->plen - (int)y->plen;
}

static bool in_gtsm_range(const struct ipaddr *addr)
{
	const struct bgp_listen_range *r;
	size_t n = bgp_dynamic_ranges(&r);

	for (size_t i = 0; i < n; i++)
		if (r[i].ttl_security_hops && prefix_contains_addr(&r[i].prefix, addr))
			return true;
	return false;
}

/*
 * The listeners' GTSM rules (but skip's), sorted: one per GTSM peer, one per listen range
 * whose peer-group has ttl-security (a prefix rule), and an exemption for a configured peer
 * without GTSM inside such a range (it must not inherit the range's minimum). *out NULL when
 * there are none.
 */
static size_t collect_rules(const struct bgp_peer *skip, struct kernel_gtsm_peer **out)
{
	const struct bgp *bgp = listen_bgp;
	const struct bgp_listen_range *ranges;
	size_t nranges = bgp_dynamic_ranges(&ranges);
	const struct bgp_peer *peer;
	size_t n = 0;

	*out = NULL;
	if (!bgp)
		return 0;
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		if (peer != skip &&
		    (peer->conf.ttl_security_hops || (nranges && in_gtsm_range(&peer->conf.addr))))
			n++;
	for (size_t i = 0; i < nranges; i++)
		n += ranges[i].ttl_security_hops != 0;
	if (!n)
		return 0;
	*out = XCALLOC(MTYPE_BGP_LISTENER_RULES, n * sizeof(**out));
	n = 0;
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (peer == skip)
			continue;
		if (peer->conf.ttl_security_hops) {
			(*out)[n].addr = peer->conf.addr;
			(*out)[n].min_ttl = (uint8_t)bgp_peer_min_ttl(peer);
			n++;
		} else if (nranges && in_gtsm_range(&peer->conf.addr)) {
			(*out)[n].addr = peer->conf.addr;
			(*out)[n].exempt = true;
			n++;
		}
	}
	for (size_t i = 0; i < nranges; i++) {
		if (!ranges[i].ttl_security_hops)
			continue;
		memset(&(*out)[n].addr, 0, sizeof((*out)[n].addr));
		(*out)[n].addr.family = ranges[i].prefix.family;
		memcpy((*out)[n].addr.u.bytes, ranges[i].prefix.u.bytes,
		       ranges[i].prefix.family == AF_INET ? 4 : 16);
		(*out)[n].plen = ranges[i].prefix.len;
		(*out)[n].min_ttl = (uint8_t)kernel_gtsm_min_for_hops(ranges[i].ttl_security_hops);
		n++;
	}
	qsort(*out, n, sizeof(**out), rule_cmp);
	return n;
}

/* Does the listener carry a rule for this GTSM peer at least as strict as its minimum? */
static bool listener_covers(const struct bgp_listener *l, const struct bgp_peer *peer)
{
	struct kernel_gtsm_peer key, *r;

	if (!l->group || !l->nrules)
		return false;
	memset(&key, 0, sizeof(key));
	key.addr = peer->conf.addr;
	r = bsearch(&key, l->rules, l->nrules, sizeof(key), rule_cmp);
	return r && r->min_ttl >= bgp_peer_min_ttl(peer);
}

/* The listener receives this peer's connections (IPv6 listeners are IPV6_V6ONLY). */
static bool listener_serves(const struct bgp_listener *l, const struct bgp_peer *peer)
{
	return l->fd >= 0 && l->addr.family == peer->conf.addr.family;
}

enum bgp_listener_cover bgp_network_gtsm_cover(const struct bgp_peer *peer)
{
	int i;

	if (!peer->conf.ttl_security_hops)
		return BGP_LISTENER_COVER_NA;
	for (i = 0; i < nlisteners; i++)
		if (listener_serves(&listeners[i], peer) && !listener_covers(&listeners[i], peer))
			return BGP_LISTENER_COVER_NO;
	return BGP_LISTENER_COVER_YES;
}

/* ---- accept ---- */

/* Why this peer's connection arriving on l must not be used, or NULL (fail closed). */
static const char *listener_refuses(const struct bgp_listener *l, const struct bgp_peer *peer)
{
	if (peer->conf.password && peer->conf.password[0] && peer->session &&
	    peer->session->listener_md5_failed)
		return "the listener lacks its TCP-MD5 key (see the earlier error), so the "
		       "handshake was not authenticated";
	if (peer->conf.ttl_security_hops && !listener_covers(l, peer))
		return "the listener's GTSM rules do not cover it (see the earlier error), so the "
		       "handshake was not TTL-checked";
	return NULL;
}

/*
 * Accept one connection; -1 when there is none left to accept. reject_all / reject: close the
 * connection (of that peer) unread, because it may have been established before the listener's
 * key or rule for it was in force.
 */
static int accept_one(struct bgp_listener *l, bool reject_all, const struct bgp_peer *reject)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	struct ipaddr remote;
	struct bgp_peer *peer;
	const char *why;
	struct bgp *bgp;
	char buf[IPADDR_STRLEN];
	uint16_t port;
	int fd;

	fd = accept4(l->fd, (struct sockaddr *)&ss, &sslen, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EINTR || errno == ECONNABORTED)
			return 0;
		if (listen_backoff_wanted(errno))
			listen_backoff_pause(l->backoff, errno);
		else if (errno != EAGAIN && errno != EWOULDBLOCK)
			log_err("accept() on %s failed: %s", l->name, strerror(errno));
		return -1;
	}
	if (ipaddr_from_sockaddr(&remote, &port, (struct sockaddr *)&ss) < 0) {
		close(fd);
		return 0;
	}
	ipaddr_unmap_v4(&remote);
	bgp = listen_bgp;
	peer = bgp ? bgp_peer_lookup(bgp, &remote) : NULL;
	if (!peer && bgp && !reject_all) {
		/* A listen range's peer: the range's prefix key and GTSM rule checked the
		 * handshake; the new peer's socket gets the same below. */
		making_dynamic = true;
		peer = bgp_dynamic_accept(bgp, &remote, port);
		making_dynamic = false;
	}
	if (!peer) {
		log_info_limited("connection from %s port %u rejected: not a configured neighbor",
				 ipaddr_to_str(&remote, buf, sizeof(buf)), port);
		close(fd);
		return 0;
	}
	if (reject_all || peer == reject) {
		bgp_peer_info_limited(
			peer,
			"incoming connection (port %u) closed unread: it was queued on "
			"%s before the listener's key or GTSM rule for it was in force",
			port, l->name);
		close(fd);
		return 0;
	}
	why = listener_refuses(l, peer);
	if (why) {
		bgp_peer_warn_limited(peer, "incoming connection (port %u) refused: %s", port, why);
		close(fd);
		return 0;
	}
	/* Before a byte is read: MD5 key, TTL, minimum, and the listener's filter dropped. */
	if (bgp_sock_secure_accepted(peer, fd) < 0) {
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
		if (accept_one(arg, false, NULL) < 0)
			break;
}

/* Empty the accept queue: connections of reject (all, with reject_all) are closed unread, the
 * others are handled as usual. */
static void listener_flush(struct bgp_listener *l, bool reject_all, const struct bgp_peer *reject)
{
	int i;

	if (l->fd < 0 || making_dynamic)
		return;
	for (i = 0; i < BGP_FLUSH_MAX; i++)
		if (accept_one(l, reject_all, reject) < 0)
			break;
}

/* ---- TCP-MD5 keys on the listeners ---- */

static int listener_key(struct bgp_listener *l, struct bgp_peer *peer, bool install)
{
	struct kernel_sec_err err;
	int r;

	if (!listener_serves(l, peer))
		return 0;
	memset(&err, 0, sizeof(err));
	r = install ? kernel_md5_set(l->fd, &peer->conf.addr, peer->conf.password, &err)
		    : kernel_md5_del(l->fd, &peer->conf.addr, &err);
	if (!install && r == -ENOENT)
		return 0;
	if (r < 0)
		bgp_peer_err(peer, "%s: %s%s", l->name, err.msg,
			     install ? "; incoming connections from this neighbor are refused "
				       "until the key is in place"
				     : "");
	return r;
}

/* Install (or remove) the peer's key on every listener; note whether one lacks it. */
static void peer_keys_apply(struct bgp_peer *peer, bool install)
{
	int i, failed = 0;

	for (i = 0; i < nlisteners; i++)
		if (listener_key(&listeners[i], peer, install) < 0)
			failed++;
	if (peer->session)
		peer->session->listener_md5_failed = install && failed;
}

void bgp_network_peer_password(struct bgp_peer *peer)
{
	bool pw = peer->conf.password && peer->conf.password[0];
	int i;

	peer_keys_apply(peer, pw);
	/* A connection queued before the new key was installed was never checked with it. */
	for (i = 0; i < nlisteners; i++)
		listener_flush(&listeners[i], false, peer);
}

/* ---- listen ranges (dynamic neighbors): prefix keys ---- */

static bool range_served(const struct bgp_listener *l, const struct bgp_listen_range *r)
{
	return l->fd >= 0 && l->addr.family == r->prefix.family && r->password;
}

/* Remove the keys of the old ranges and install those of the current ones on l. */
static void range_keys(struct bgp_listener *l, const struct bgp_listen_range *old, size_t nold,
		       bool install)
{
	const struct bgp_listen_range *r;
	size_t n = bgp_dynamic_ranges(&r);
	struct kernel_sec_err err;
	char p[PREFIX_STRLEN];

	for (size_t i = 0; i < nold; i++) {
		if (!range_served(l, &old[i]))
			continue;
		memset(&err, 0, sizeof(err));
		if (kernel_md5_del_prefix(l->fd, &old[i].prefix, &err) < 0 && err.code != -ENOENT)
			log_warn("%s: listen range %s: %s", l->name,
				 prefix_to_str(&old[i].prefix, p, sizeof(p)), err.msg);
	}
	for (size_t i = 0; install && i < n; i++) {
		if (!range_served(l, &r[i]))
			continue;
		memset(&err, 0, sizeof(err));
		if (kernel_md5_set_prefix(l->fd, &r[i].prefix, r[i].password, &err) < 0)
			log_err("%s: listen range %s (peer-group %s): %s; connections from the "
				"range "
				"are not authenticated at the handshake",
				l->name, prefix_to_str(&r[i].prefix, p, sizeof(p)), r[i].group,
				err.msg);
	}
}

void bgp_network_ranges_changed(const struct bgp_listen_range *old, size_t nold)
{
	int i;

	for (i = 0; i < nlisteners; i++)
		range_keys(&listeners[i], old, nold, true);
	listeners_rules_update(NULL);
	/* Connections queued before the new keys and rules were never checked with them. */
	for (i = 0; i < nlisteners; i++)
		listener_flush(&listeners[i], true, NULL);
}

/* ---- listeners ---- */

static void listener_close(struct bgp_listener *l)
{
	listen_backoff_free(l->backoff);
	l->backoff = NULL;
	event_free(l->ev);
	l->ev = NULL;
	if (l->group)
		kernel_gtsm_group_close(l->group);
	else if (l->fd >= 0)
		close(l->fd);
	l->group = NULL;
	l->fd = -1;
	XFREE(MTYPE_BGP_LISTENER_RULES, l->rules);
	l->nrules = 0;
	l->stale = false;
}

/* A plain listener (the group is unavailable): TTL 255, V6ONLY, bound and listening. */
static int plain_open(struct bgp_listener *l, const struct ipaddr *addr, uint16_t port)
{
	struct kernel_sec_err err;
	char buf[IPADDR_STRLEN];
	struct ipaddr bound;
	int fd, r;

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
	/* RFC 5082 section 3: the SYN-ACK to a GTSM peer must leave with TTL 255 too. */
	memset(&err, 0, sizeof(err));
	r = kernel_ttl_set(fd, NULL, KERNEL_GTSM_TTL, &err);
	if (r < 0) {
		log_err("listener for %s: %s", ipaddr_to_str(addr, buf, sizeof(buf)), err.msg);
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
	l->fd = fd;
	l->port = port;
	kernel_sock_names(fd, &bound, &l->port, NULL, NULL);
	return 0;
}

/* Open l on addr:port: the GTSM group, else (no CAP_NET_ADMIN...) a plain socket. */
static int listener_open(struct bgp_listener *l, const struct ipaddr *addr, uint16_t port)
{
	struct kernel_gtsm_peer *rules;
	struct kernel_sec_err err;
	struct bgp_peer *peer;
	char buf[IPADDR_STRLEN];
	char what[SU_STRLEN + 16];
	size_t n = collect_rules(NULL, &rules);
	int r;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->addr = *addr;
	memset(&err, 0, sizeof(err));
	r = kernel_gtsm_group_open(addr, port, true, BGP_LISTEN_BACKLOG, rules, n, &l->group, &err);
	if (r == 0) {
		l->fd = kernel_gtsm_group_fd(l->group);
		l->port = kernel_gtsm_group_port(l->group);
		l->rules = rules;
		l->nrules = n;
	} else {
		XFREE(MTYPE_BGP_LISTENER_RULES, rules);
		if (r == -EADDRINUSE || r == -EADDRNOTAVAIL || r == -EAFNOSUPPORT) {
			log_err("cannot listen on %s port %u: %s",
				ipaddr_to_str(addr, buf, sizeof(buf)), port, err.msg);
			return r;
		}
		/* Fail closed per peer: GTSM peers are refused on this listener, and new
		 * ttl-security configuration is refused (bgp_peer_security_check()). */
		log_warn("cannot open the GTSM listener group on %s port %u: %s; listening on a "
			 "plain socket, ttl-security is refused",
			 ipaddr_to_str(addr, buf, sizeof(buf)), port, err.msg);
		bgp_security_set_listener_problem(err.msg);
		r = plain_open(l, addr, port);
		if (r < 0)
			return r;
	}
	ipaddr_port_to_str(addr, l->port, l->name, sizeof(l->name));
	if (listen_bgp)
		TAILQ_FOREACH (peer, &listen_bgp->peers, entry)
			if (peer->conf.password && peer->conf.password[0] &&
			    listener_key(l, peer, true) < 0 && peer->session)
				peer->session->listener_md5_failed = true;
	range_keys(l, NULL, 0, true);
	l->ev = event_fd_new(listen_base, l->fd, EV_READ_FLAG, accept_cb, l);
	snprintf(what, sizeof(what), "BGP listener %s", l->name);
	l->backoff = l->ev ? listen_backoff_new(listen_base, l->ev, what) : NULL;
	if (!l->backoff || event_add(l->ev) < 0) {
		listener_close(l);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Replace the GTSM rules of every group listener (skip: a peer being deleted). A failed update
 * leaves the previous rules in force (the kernel layer swaps nothing or puts the old programs
 * back); peers the old rules do not cover are refused at accept until an update succeeds. A
 * group the kernel layer reports broken (-EIO) is closed and opened again.
 */
static void listeners_rules_update(const struct bgp_peer *skip)
{
	struct kernel_gtsm_peer *rules;
	size_t n = collect_rules(skip, &rules);
	int i;

	for (i = 0; i < nlisteners; i++) {
		struct bgp_listener *l = &listeners[i];
		struct kernel_sec_err err;
		int r;

		if (!l->group)
			continue;
		memset(&err, 0, sizeof(err));
		r = kernel_gtsm_group_update(l->group, rules, n, &err);
		if (r == 0) {
			XFREE(MTYPE_BGP_LISTENER_RULES, l->rules);
			l->rules = n ? XCALLOC(MTYPE_BGP_LISTENER_RULES, n * sizeof(*rules)) : NULL;
			if (n)
				memcpy(l->rules, rules, n * sizeof(*rules));
			l->nrules = n;
			l->stale = false;
			continue;
		}
		l->stale = true;
		log_err("%s: GTSM rules not updated (%zu GTSM peers), the previous ones stay in "
			"force: %s",
			l->name, n, err.msg);
		/* Is the group still whole? Re-applying the rules in force tells (-EIO: broken). */
		if (r != -EIO)
			r = kernel_gtsm_group_update(l->group, l->rules, l->nrules, NULL);
		if (r == -EIO) {
			struct ipaddr addr = l->addr;
			uint16_t port = l->port;

			log_err("%s: the listener group is broken, opening it again", l->name);
			listener_close(l);
			if (listener_open(l, &addr, port) == 0)
				listener_flush(l, true, NULL);
		}
	}
	XFREE(MTYPE_BGP_LISTENER_RULES, rules);
}

void bgp_network_peer_gtsm(struct bgp_peer *peer)
{
	int i;

	listeners_rules_update(NULL);
	/* Connections of this peer queued before its (stricter) rule: not TTL-checked. */
	if (peer->conf.ttl_security_hops)
		for (i = 0; i < nlisteners; i++)
			listener_flush(&listeners[i], false, peer);
}

void bgp_network_peer_delete(struct bgp_peer *peer)
{
	if (peer->conf.password && peer->conf.password[0])
		peer_keys_apply(peer, false);
	if (peer->conf.ttl_security_hops)
		listeners_rules_update(peer);
}

void bgp_network_set_instance(struct bgp *bgp)
{
	listen_bgp = bgp;
}

static int listen_one(struct event_base *base, const struct ipaddr *addr, uint16_t port)
{
	struct bgp_listener *l;
	int r;

	if (nlisteners == BGP_MAX_LISTENERS) {
		log_err("too many listening addresses (at most %d)", BGP_MAX_LISTENERS);
		return -ENOSPC;
	}
	listen_base = base;
	l = &listeners[nlisteners];
	r = listener_open(l, addr, port);
	if (r < 0)
		return r;
	nlisteners++;
	/* Anything that completed its handshake before the keys were installed goes unread. */
	listener_flush(l, true, NULL);
	log_info("listening on %s%s", l->name,
		 l->group ? " (GTSM listener group)" : " (plain socket, no GTSM at the listener)");
	return 0;
}

/* An IPv6 wildcard on a host without IPv6 is skipped, not an error. */
static bool ipv6_absent(const struct ipaddr *a, int r)
{
	return a->family == AF_INET6 && (r == -EAFNOSUPPORT || r == -EADDRNOTAVAIL);
}

/* Each address bgp_network_listen(addr) opens (one, or the two wildcards): 1, 2, or -EINVAL. */
static int listen_addrs(const char *addr, struct ipaddr out[2])
{
	if (addr) {
		if (ipaddr_from_str(&out[0], addr) < 0) {
			log_err("listen address %s is not an IPv4 or IPv6 address", addr);
			return -EINVAL;
		}
		return 1;
	}
	memset(out, 0, 2 * sizeof(*out));
	out[0].family = AF_INET;
	out[1].family = AF_INET6;
	return 2;
}

int bgp_network_port_free(const char *addr, uint16_t port)
{
	struct ipaddr a[2];
	int i, n = listen_addrs(addr, a), r;

	for (i = 0; i < n; i++) {
		r = port ? kernel_port_probe(&a[i], port) : 0;
		if (r < 0 && !(!addr && ipv6_absent(&a[i], r)))
			return r;
	}
	return n < 0 ? n : 0;
}

int bgp_network_listen(struct event_base *base, const char *addr, uint16_t port)
{
	struct ipaddr a[2];
	int i, n = listen_addrs(addr, a), opened = 0, r;

	for (i = 0; i < n; i++) {
		r = listen_one(base, &a[i], port);
		if (r == 0)
			opened++;
		else if (addr || !ipv6_absent(&a[i], r))
			return r; /* the port is taken, or worse: not a half-working daemon */
	}
	return n < 0 ? n : opened;
}

void bgp_network_stop(void)
{
	int i;

	for (i = 0; i < nlisteners; i++)
		listener_close(&listeners[i]);
	nlisteners = 0;
	bgp_security_set_listener_problem(NULL);
}

int bgp_network_listener_info(int i, struct bgp_listener_info *info)
{
	const struct bgp_listener *l;

	if (i < 0 || i >= nlisteners)
		return -1;
	l = &listeners[i];
	memset(info, 0, sizeof(*info));
	info->addr = l->addr;
	info->port = l->port;
	info->open = l->fd >= 0;
	info->group = l->group != NULL;
	info->stale = l->stale;
	/* The rules of the listener's own family (the group compiles only those). */
	if (l->group)
		kernel_gtsm_group_stats(l->group, &info->selector_len, &info->filter_len,
					&info->rules);
	return 0;
}

/* ---- connect ---- */

static int conn_bind_source(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	struct ipaddr src;
	char buf[IPADDR_STRLEN];
	int r;

	if (peer->conf.update_source.family) {
		src = peer->conf.update_source;
	} else if (peer->conf.update_source_ifname) {
		r = kernel_if_addr(peer->conf.update_source_ifname, &peer->conf.addr, &src);
		if (r < 0) {
			const char *why = strerror(-r);

			if (r == -EADDRNOTAVAIL)
				why = "only loopback addresses, which reach only this host";
			else if (r == -ENOENT)
				why = peer->conf.addr.family == AF_INET ? "no IPv4 address"
									: "no IPv6 address";
			/* Rate limited: it comes back at every connect retry until fixed. */
			bgp_peer_warn_limited(peer,
					      "update-source %s: %s; give the interface an address "
					      "or name one",
					      peer->conf.update_source_ifname, why);
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

/*
 * A failed connect is visible without debugging: a session that stays Active for ever with no
 * word in the log is a riddle. What this host got wrong (a source address that cannot reach
 * the peer: EINVAL, EADDRNOTAVAIL...) is a warning; a peer that is down or unreachable is
 * information. Both rate limited, since they come back at every connect retry.
 */
static void connect_failed_log(const struct bgp_peer *peer, int fd, int err)
{
	char src[IPADDR_STRLEN] = "";
	struct ipaddr local;
	uint16_t lport;

	switch (err) {
	case ECONNREFUSED:
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ECONNRESET:
		bgp_peer_info_limited(peer, "connect failed (fd %d): %s", fd, strerror(err));
		break;
	default:
		if (kernel_sock_names(fd, &local, &lport, NULL, NULL) == 0)
			ipaddr_to_str(&local, src, sizeof(src));
		bgp_peer_warn_limited(peer,
				      "connect failed (fd %d) from %s: %s; check update-source and "
				      "the routes toward the neighbor",
				      fd, src[0] ? src : "an unbound socket", strerror(err));
		break;
	}
}

static void connect_cb(int fd, short what, void *arg)
{
	struct bgp_conn *c = arg;
	int err = kernel_sock_error(fd);

	bgp_conn_connect_cancel(c);
	if (err < 0) {
		connect_failed_log(c->s->peer, fd, -err);
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
	int fd, r;

	fd = socket(peer->conf.addr.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		bgp_peer_err(peer, "cannot create a socket: %s", strerror(errno));
		return -1;
	}
	c->fd = fd;
	c->outgoing = true;
	/* An IPv6 session carries IPv6 only, so that only the IPv6 options govern it. */
	r = peer->conf.addr.family == AF_INET6 ? kernel_sock_v6only(fd) : 0;
	if (r < 0) {
		bgp_peer_err(peer, "cannot set IPV6_V6ONLY on the outgoing socket (fd %d): %s", fd,
			     strerror(-r));
		bgp_conn_abort(c);
		bgp_conn_close(c);
		return -1;
	}
	/* MD5 key, TTL, minimum (bgp_security.h), then bind, then connect(). */
	if (bgp_conn_secure(c) < 0) {
		bgp_conn_abort(c); /* fail closed: never connected, never read */
		bgp_conn_close(c);
		return -1;
	}
	if (conn_bind_source(c) < 0) {
		bgp_conn_close(c);
		return -1;
	}
	sslen = ipaddr_to_sockaddr(&peer->conf.addr, remote_port, &ss);
	if (connect(fd, (struct sockaddr *)&ss, sslen) < 0 && errno != EINPROGRESS) {
		connect_failed_log(peer, fd, errno);
		bgp_conn_close(c);
		return -1;
	}
	/* Even an immediate success is reported through the watcher: FSM events are never
	 * nested inside the action that caused them. */
	c->connecting = true;
	c->connect_ev = event_fd_new(peer->bgp->base, fd, EV_WRITE_FLAG, connect_cb, c);
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
