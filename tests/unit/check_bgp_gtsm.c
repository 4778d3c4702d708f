/* SPDX-License-Identifier: ISC */
/*
 * GTSM (RFC 5082) and TCP-MD5 (RFC 2385) on bgpd's sockets, end to end through the real kernel
 * layer and the real kernel, against a scripted speaker on loopback:
 *
 * - the order of the options on every socket (active, accepted, listening, colliding), recorded
 *   below the kernel layer: the test links with -Wl,--wrap for setsockopt, connect, listen,
 *   accept4 and recv, so every call of kernel/libkernelsec.la and bgpd is seen, in order, with
 *   its value, and can be made to fail (the fail-closed hook);
 * - hitless live changes (enable, change, remove) on the Established and the colliding socket,
 *   read back from the kernel, with the new minimum proven by a dropped low-TTL segment;
 * - a password change resets the session, and a key mismatch never establishes;
 * - the listener: a GTSM peer's low-TTL handshake never completes, other sources still do,
 *   and connections queued before a key or rule was in force are closed unread;
 * - refusal of settings the kernel cannot enforce (a probe result with IP_MINTTL missing);
 * - the show commands, text and JSON.
 *
 * Every test runs in Check's forked child in its own network namespace (counters start at 0,
 * nothing leaks between tests); they need root (CAP_NET_ADMIN for the listener's filters) and
 * are skipped (exit 77) without it.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "kernel/kernel.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/vty.h"
#include "tests/unit/kernel_test.h"
#include "tests/unit/session_test.h"

#ifndef IPV6_MINHOPCOUNT
#define IPV6_MINHOPCOUNT 73
#endif

#define REMOTE_AS 65002
#define REMOTE_ID "192.0.2.1" /* lower than ST_LOCAL_ID: our outgoing connection wins */
#define KEY "s3cret-key"

/* ---- the recorder: socket calls seen below the kernel layer (-Wl,--wrap=...) ---- */

enum op_kind { OP_SETSOCKOPT, OP_CONNECT, OP_LISTEN, OP_ACCEPT, OP_ACCEPTED, OP_RECV };

struct op {
	enum op_kind kind;
	int fd;
	int level, name, val;
	bool failed;
};

#define MAX_OPS 16384
static struct op ops[MAX_OPS];
static size_t nops;

/* Fault injection: setsockopt(level, name) fails with err, count times (-1: every time). */
static struct {
	int level, name, err, count;
} inject = { -1, -1, 0, 0 };

int __real_setsockopt(int fd, int level, int name, const void *val, socklen_t len);
int __wrap_setsockopt(int fd, int level, int name, const void *val, socklen_t len);
int __real_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __real_listen(int fd, int backlog);
int __wrap_listen(int fd, int backlog);
int __real_accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags);
int __wrap_accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags);
ssize_t __real_recv(int fd, void *buf, size_t len, int flags);
ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags);

static struct op *record(enum op_kind kind, int fd)
{
	struct op *o;

	if (nops == MAX_OPS)
		return NULL;
	o = &ops[nops++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->fd = fd;
	return o;
}

int __wrap_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct op *o = record(OP_SETSOCKOPT, fd);

	if (o) {
		o->level = level;
		o->name = name;
		if (level == IPPROTO_TCP && name == TCP_MD5SIG)
			o->val = ((const struct tcp_md5sig *)val)->tcpm_keylen;
		else if (len == sizeof(int))
			o->val = *(const int *)val;
	}
	if (inject.count != 0 && level == inject.level && name == inject.name) {
		if (inject.count > 0)
			inject.count--;
		if (o)
			o->failed = true;
		errno = inject.err;
		return -1;
	}
	return __real_setsockopt(fd, level, name, val, len);
}

int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	record(OP_CONNECT, fd);
	return __real_connect(fd, sa, len);
}

int __wrap_listen(int fd, int backlog)
{
	record(OP_LISTEN, fd);
	return __real_listen(fd, backlog);
}

int __wrap_accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags)
{
	int r = __real_accept4(fd, sa, len, flags);
	int saved = errno;

	record(OP_ACCEPT, fd);
	if (r >= 0)
		record(OP_ACCEPTED, r);
	errno = saved;
	return r;
}

ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags)
{
	record(OP_RECV, fd);
	return __real_recv(fd, buf, len, flags);
}

static void ops_clear(void)
{
	nops = 0;
}

static void inject_fail(int level, int name, int err, int count)
{
	inject.level = level;
	inject.name = name;
	inject.err = err;
	inject.count = count;
}

static void inject_none(void)
{
	inject.count = 0;
}

/* A setsockopt as a token; NULL for options the tests do not follow. */
static const char *opt_token(const struct op *o, char *buf, size_t size)
{
	const char *name;

	if (o->level == IPPROTO_TCP && o->name == TCP_MD5SIG)
		name = o->val ? "MD5" : "MD5-";
	else if (o->level == IPPROTO_IP && o->name == IP_TTL)
		name = "TTL=";
	else if (o->level == IPPROTO_IP && o->name == IP_MINTTL)
		name = "MINTTL=";
	else if (o->level == IPPROTO_IPV6 && o->name == IPV6_UNICAST_HOPS)
		name = "HOPS=";
	else if (o->level == IPPROTO_IPV6 && o->name == IPV6_MINHOPCOUNT)
		name = "MINHOPS=";
	else if (o->level == SOL_SOCKET && o->name == SO_ATTACH_FILTER)
		name = "FILTER";
	else if (o->level == SOL_SOCKET && o->name == SO_DETACH_FILTER)
		name = "DETACH";
	else if (o->level == SOL_SOCKET && o->name == SO_ATTACH_REUSEPORT_CBPF)
		name = "SELECTOR";
	else
		return NULL;
	if (name[strlen(name) - 1] == '=')
		snprintf(buf, size, "%s%d%s", name, o->val, o->failed ? "!" : "");
	else
		snprintf(buf, size, "%s%s", name, o->failed ? "!" : "");
	return buf;
}

/* What happened to fd since ops_clear(), e.g. "MD5 TTL=255 MINTTL=255 connect". */
static const char *hist(int fd)
{
	static char out[2048];
	size_t used = 0;
	bool last_recv = false;

	out[0] = '\0';
	for (size_t i = 0; i < nops && used < sizeof(out) - 32; i++) {
		const struct op *o = &ops[i];
		char buf[32];
		const char *t = NULL;

		if (o->fd != fd)
			continue;
		switch (o->kind) {
		case OP_SETSOCKOPT:
			t = opt_token(o, buf, sizeof(buf));
			break;
		case OP_CONNECT:
			t = "connect";
			break;
		case OP_LISTEN:
			t = "listen";
			break;
		case OP_ACCEPT:
			t = "accept";
			break;
		case OP_ACCEPTED:
			t = "accepted";
			break;
		case OP_RECV:
			t = last_recv ? NULL : "recv";
			break;
		}
		last_recv = o->kind == OP_RECV;
		if (!t || (o->kind == OP_ACCEPT && used >= 7 && !strcmp(out + used - 6, "accept")))
			continue;
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", used ? " " : "",
					 t);
	}
	return out;
}

/* The fd of the latest accept4() that returned a connection. */
static int last_accepted(void)
{
	for (size_t i = nops; i-- > 0;)
		if (ops[i].kind == OP_ACCEPTED)
			return ops[i].fd;
	return -1;
}

/* The fd the first setsockopt(level, name) after ops_clear() went to. */
static int first_fd_with(int level, int name)
{
	for (size_t i = 0; i < nops; i++)
		if (ops[i].kind == OP_SETSOCKOPT && ops[i].level == level && ops[i].name == name)
			return ops[i].fd;
	return -1;
}

/* ---- the speaker ---- */

static struct vty *vty;

static struct ipaddr ip(const char *s)
{
	return ktest_ip(s);
}

static void spk_opts(int fd, const char *peer, const char *key, int ttl)
{
	struct ipaddr a = ip(peer);

	if (key)
		ck_assert_int_eq(kernel_md5_set(fd, &a, key, NULL), 0);
	if (ttl)
		ck_assert_int_eq(kernel_ttl_set(fd, &a, ttl, NULL), 0);
}

/* A listening speaker on addr (127.0.0.1 or ::1); key for the peer address bgpd uses. */
static int spk_listen(const char *addr, const char *key, int ttl, uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct ipaddr a = ip(addr);
	int fd = socket(a.family, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;

	ck_assert_int_ge(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	spk_opts(fd, addr, key, ttl);
	len = ipaddr_to_sockaddr(&a, 0, &ss);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&ss, len), 0);
	ck_assert_int_eq(listen(fd, 8), 0);
	len = sizeof(ss);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&ss, &len), 0);
	ck_assert_int_eq(ipaddr_from_sockaddr(&a, port, (struct sockaddr *)&ss), 0);
	return fd;
}

struct wait_fd {
	int fd;
	short events;
};

static bool fd_ready(void *arg)
{
	struct wait_fd *w = arg;
	struct pollfd p = { .fd = w->fd, .events = w->events };

	return poll(&p, 1, 0) == 1;
}

/* Connect from src to dst:port with a key and TTL, pumping our loop: the fd once connected,
 * -1 if the handshake did not complete within ms. */
static int spk_connect(const char *src, const char *dst, uint16_t port, const char *key, int ttl,
		       int ms)
{
	struct sockaddr_storage ss;
	struct ipaddr s = ip(src), d = ip(dst);
	struct wait_fd w;
	socklen_t len;
	int fd = socket(d.family, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;

	ck_assert_int_ge(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	spk_opts(fd, dst, key, ttl);
	len = ipaddr_to_sockaddr(&s, 0, &ss);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&ss, len), 0);
	len = ipaddr_to_sockaddr(&d, port, &ss);
	ck_assert(connect(fd, (struct sockaddr *)&ss, len) == 0 || errno == EINPROGRESS);
	w.fd = fd;
	w.events = POLLOUT;
	if (!st_pump_until(fd_ready, &w, ms) || kernel_sock_error(fd) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Nothing (no byte, no EOF) arrives on fd within ms. */
static bool spk_silent(int fd, int ms)
{
	struct wait_fd w = { fd, POLLIN };

	return !st_pump_until(fd_ready, &w, ms);
}

/* The peer closes on us: EOF (or a reset) before any message. */
static bool spk_closed(int fd, int ms)
{
	return st_recv(fd, NULL, 0, NULL, ms) == 0;
}

/* ---- bgpd side ---- */

static void setup(void)
{
	ktest_netns();
	st_setup();
	cmd_init();
	bgp_show_neighbor_init();
	vty = vty_new(-1);
	log_ring_clear();
	inject_none();
	ops_clear();
}

static void teardown(void)
{
	inject_none();
	vty_free(vty);
	cmd_terminate();
	st_teardown();
	bgp_security_set_caps(NULL);
}

static void our_listener(const char *addr)
{
	ck_assert_int_eq(bgp_network_listen(st_base, addr, 0), 1);
}

static struct bgp_peer *peer_new(const char *addr, uint32_t as, bool passive, const char *password,
				 unsigned hops)
{
	struct bgp_peer *peer = st_peer(addr, as, passive);

	/* As the northbound does: the field, then the change. */
	if (password) {
		peer->conf.password = XSTRDUP(MTYPE_BGP_PEER_CONF, password);
		bgp_peer_config_changed(peer, BGP_PEER_CHG_PASSWORD);
	}
	if (hops) {
		peer->conf.ttl_security_hops = (uint8_t)hops;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_TTL_SECURITY);
	}
	return peer;
}

static void set_hops(struct bgp_peer *peer, unsigned hops)
{
	peer->conf.ttl_security_hops = (uint8_t)hops;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_TTL_SECURITY);
}

static void set_password(struct bgp_peer *peer, const char *password)
{
	XFREE(MTYPE_BGP_PEER_CONF, peer->conf.password);
	if (password)
		peer->conf.password = XSTRDUP(MTYPE_BGP_PEER_CONF, password);
	bgp_peer_config_changed(peer, BGP_PEER_CHG_PASSWORD);
}

static struct bgp_conn *primary(struct bgp_peer *peer)
{
	return bgp_session_primary(peer);
}

static struct bgp_conn *second(struct bgp_peer *peer)
{
	return &peer->session->conn[!peer->session->primary];
}

static int sock_min(int fd, int af)
{
	return kernel_minttl_get(fd, af);
}

static int sock_ttl(int fd, int af)
{
	return kernel_ttl_get(fd, af);
}

/* Our outgoing connection to the speaker's listener, through to Established. */
static int establish_out(struct bgp_peer *peer, int lfd, uint32_t as)
{
	int fd = st_accept(lfd, 3000);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, as, 180, REMOTE_ID);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 4); /* our KEEPALIVE: nothing left */
	return fd;
}

static const char *run(const char *line)
{
	int r;

	sbuf_reset(&vty->out);
	r = cmd_execute(vty, line, false);
	ck_assert_msg(r == CMD_SUCCESS || r == CMD_WARNING, "%s: %d", line, r);
	return vty->out.buf ? vty->out.buf : "";
}

/* ---- order of the options on every socket ---- */

/* Active socket: MD5 key, TTL 255, minimum 255, and only then connect(). */
START_TEST(test_active_order_v4)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", KEY, 255, &port);
	struct bgp_peer *peer;
	int fd, rfd;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, KEY, 1);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = primary(peer)->fd;
	ck_assert_str_eq(hist(fd), "MD5 TTL=255 MINTTL=255 connect");
	rfd = establish_out(peer, lfd, REMOTE_AS);
	ck_assert_int_eq(sock_min(primary(peer)->fd, AF_INET), 255);
	ck_assert_int_eq(sock_ttl(primary(peer)->fd, AF_INET), 255);
	close(rfd);
	close(lfd);
}
END_TEST

/* The same for IPv6: IPV6_UNICAST_HOPS and IPV6_MINHOPCOUNT really set (Quagga never did). */
START_TEST(test_active_order_v6)
{
	uint16_t port;
	int lfd = spk_listen("::1", KEY, 255, &port);
	struct bgp_peer *peer;
	int fd, rfd;

	bgp_network_set_remote_port(port);
	peer = peer_new("::1", REMOTE_AS, false, KEY, 1);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = primary(peer)->fd;
	ck_assert_str_eq(hist(fd), "MD5 HOPS=255 MINHOPS=255 connect");
	rfd = establish_out(peer, lfd, REMOTE_AS);
	ck_assert_int_eq(sock_min(primary(peer)->fd, AF_INET6), 255);
	ck_assert_int_eq(sock_ttl(primary(peer)->fd, AF_INET6), 255);
	close(rfd);
	close(lfd);
}
END_TEST

/* Accepted socket: the whole sequence, then the inherited listener filter dropped, all before
 * the first recv(). */
START_TEST(test_accepted_order)
{
	struct bgp_peer *peer;
	int fd, afd;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, KEY, 1);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ops_clear();
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), KEY, 255, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1); /* our OPEN */
	afd = last_accepted();
	ck_assert_int_ge(afd, 0);
	ck_assert_str_eq(hist(afd), "accepted MD5 TTL=255 MINTTL=255 DETACH");
	st_send_open(fd, REMOTE_AS, 180, REMOTE_ID);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	ck_assert_str_eq(hist(afd), "accepted MD5 TTL=255 MINTTL=255 DETACH recv");
	ck_assert_int_eq(sock_min(afd, AF_INET), 255);
	ck_assert_int_eq(kernel_gtsm_filter_len(afd), 0);
	close(fd);
}
END_TEST

/* A peer without GTSM accepted on the protected listener: its plain TTL, minimum 0 explicitly
 * (nothing inherited survives), filter dropped. */
START_TEST(test_accepted_plain_peer)
{
	struct bgp_peer *peer;
	int fd, afd;

	peer_new("127.0.0.2", REMOTE_AS, true, NULL, 1);
	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, NULL, 0);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ops_clear();
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), NULL, 0, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1);
	afd = last_accepted();
	ck_assert_str_eq(hist(afd), "accepted TTL=1 MINTTL=0 DETACH");
	close(fd);
}
END_TEST

/* Listening socket: TTL 255 (and the temporary minimum 255 until the sink has joined), the
 * GTSM filter, listen, the selector, minimum 0, then every peer's key before the first accept
 * (which empties what queued before the keys). Rebuilt on changes. */
START_TEST(test_listener_order)
{
	struct bgp_peer *peer;
	int lfd;

	peer = peer_new("127.0.0.1", REMOTE_AS, true, KEY, 1);
	ops_clear();
	our_listener("127.0.0.1");
	lfd = first_fd_with(SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF);
	ck_assert_int_ge(lfd, 0);
	ck_assert_str_eq(hist(lfd),
			 "TTL=255 MINTTL=255 FILTER listen SELECTOR MINTTL=0 MD5 accept");
	ck_assert_int_eq(sock_ttl(lfd, AF_INET), 255);
	ck_assert_int_eq(sock_min(lfd, AF_INET), 0);
	ck_assert_int_gt(kernel_gtsm_filter_len(lfd), 0);
	ck_assert_uint_eq(bgp_network_gtsm_cover(peer), BGP_LISTENER_COVER_YES);

	/* GTSM off: new selector, filter gone; password off: key gone. */
	ops_clear();
	set_hops(peer, 0);
	ck_assert_str_eq(hist(lfd), "SELECTOR DETACH");
	ck_assert_int_eq(kernel_gtsm_filter_len(lfd), 0);
	ck_assert_uint_eq(bgp_network_gtsm_cover(peer), BGP_LISTENER_COVER_NA);
	ops_clear();
	set_password(peer, NULL);
	ck_assert_str_eq(hist(lfd), "MD5- accept");
	/* A second GTSM peer: rules for both. */
	ops_clear();
	set_hops(peer, 2);
	peer_new("127.0.0.2", REMOTE_AS, true, NULL, 1);
	ck_assert_str_eq(hist(lfd), "SELECTOR FILTER accept SELECTOR FILTER accept");
	{
		struct bgp_listener_info li;

		ck_assert_int_eq(bgp_network_listener_info(0, &li), 0);
		ck_assert(li.group);
		ck_assert_uint_eq(li.rules, 2);
		ck_assert_uint_gt(li.filter_len, 0);
	}
}
END_TEST

/* The colliding connection gets the same sequence, and a live change reaches both sockets. */
START_TEST(test_collision_socket_and_live_change)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", KEY, 255, &port);
	struct bgp_peer *peer;
	int rfd, cfd, afd;

	bgp_network_set_remote_port(port);
	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, false, KEY, 1);
	rfd = establish_out(peer, lfd, REMOTE_AS);
	ops_clear();
	cfd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), KEY, 255, 2000);
	ck_assert_int_ge(cfd, 0);
	ck_assert_int_eq(st_recv(cfd, NULL, 0, NULL, 2000), 1); /* our OPEN on the second one */
	afd = last_accepted();
	ck_assert_int_eq(second(peer)->fd, afd);
	ck_assert_uint_eq(second(peer)->state, BGP_ST_OPENSENT);
	ck_assert_str_eq(hist(afd), "accepted MD5 TTL=255 MINTTL=255 DETACH");

	ops_clear();
	set_hops(peer, 2);
	ck_assert_str_eq(hist(primary(peer)->fd), "TTL=255 MINTTL=254");
	ck_assert_str_eq(hist(afd), "TTL=255 MINTTL=254");
	ck_assert_int_eq(sock_min(primary(peer)->fd, AF_INET), 254);
	ck_assert_int_eq(sock_min(afd, AF_INET), 254);
	ops_clear();
	set_hops(peer, 0);
	ck_assert_str_eq(hist(primary(peer)->fd), "MINTTL=0 TTL=1");
	ck_assert_str_eq(hist(afd), "MINTTL=0 TTL=1");
	ck_assert_int_eq(sock_ttl(afd, AF_INET), 1);
	/* Nothing was reset. */
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	ck_assert_uint_eq(second(peer)->state, BGP_ST_OPENSENT);
	ck_assert_uint_eq(peer->session->established_count, 1);
	ck_assert_uint_eq(rib_calls.down, 0);
	ck_assert(spk_silent(rfd, 200));
	close(cfd);
	close(rfd);
	close(lfd);
}
END_TEST

/* ---- hitless changes ---- */

static unsigned keepalives_rcvd(struct bgp_peer *peer)
{
	return peer->session->rcvd.count[4];
}

struct ka_wait {
	struct bgp_peer *peer;
	unsigned n;
};

static bool ka_reached(void *arg)
{
	struct ka_wait *w = arg;

	return keepalives_rcvd(w->peer) >= w->n;
}

/* Enable on a live eBGP session, prove the minimum holds, change it, remove it: one session. */
START_TEST(test_hitless_enable_change_remove)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", NULL, 0, &port);
	struct bgp_peer *peer;
	struct ka_wait w;
	int rfd, fd;
	unsigned ka;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, NULL, 0);
	rfd = establish_out(peer, lfd, REMOTE_AS);
	fd = primary(peer)->fd;
	ck_assert_int_eq(sock_ttl(fd, AF_INET), 1);
	ck_assert_int_eq(sock_min(fd, AF_INET), 0);

	set_hops(peer, 1);
	ck_assert_int_eq(primary(peer)->fd, fd);
	ck_assert_int_eq(sock_ttl(fd, AF_INET), 255);
	ck_assert_int_eq(sock_min(fd, AF_INET), 255);
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), 0);

	/* The speaker still sends with TTL 64: its KEEPALIVE is dropped by the kernel... */
	ka = keepalives_rcvd(peer);
	st_send_keepalive(rfd);
	st_pump(400);
	ck_assert_uint_eq(keepalives_rcvd(peer), ka);
	ck_assert_uint_gt(ktest_counter("TCPMinTTLDrop"), 0);
	/* ... and once it sends with 255 (the other end enabled GTSM) the retransmission gets
	 * through: the session never dropped. */
	ck_assert_int_eq(kernel_ttl_set(rfd, NULL, 255, NULL), 0);
	w.peer = peer;
	w.n = ka + 1;
	ck_assert(st_pump_until(ka_reached, &w, 5000));

	set_hops(peer, 3);
	ck_assert_int_eq(sock_min(fd, AF_INET), 253);
	ck_assert_int_eq(sock_ttl(fd, AF_INET), 255);
	set_hops(peer, 0);
	ck_assert_int_eq(sock_min(fd, AF_INET), 0);
	ck_assert_int_eq(sock_ttl(fd, AF_INET), 1); /* eBGP, directly connected */

	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	ck_assert_int_eq(primary(peer)->fd, fd);
	ck_assert_uint_eq(peer->session->established_count, 1);
	ck_assert_uint_eq(peer->session->dropped_count, 0);
	ck_assert_uint_eq(rib_calls.down, 0);
	ck_assert(spk_silent(rfd, 200)); /* no NOTIFICATION */
	close(rfd);
	close(lfd);
}
END_TEST

/* iBGP may use GTSM too; removing it restores TTL 255, not 1. */
START_TEST(test_ibgp_gtsm)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", NULL, 255, &port);
	struct bgp_peer *peer;
	const char *out;
	int rfd, fd;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", ST_LOCAL_AS, false, NULL, 2);
	rfd = establish_out(peer, lfd, ST_LOCAL_AS);
	fd = primary(peer)->fd;
	ck_assert_int_eq(sock_min(fd, AF_INET), 254);
	out = run("show bgp neighbors 127.0.0.1");
	st_text_has(out, "  Internal BGP neighbor may be up to 2 hops away.\n"
			 "  TTL security (GTSM): hops 2, minimum TTL 254; on the socket minimum "
			 "TTL 254, sending TTL 255\n");
	st_json_has(run("show bgp neighbors 127.0.0.1 json"),
		    "\"internalBgpNbrMaxHopsAway\":2,\"gtsm\":{\"enabled\":true,\"hops\":2,"
		    "\"minTtlConfigured\":254,\"minTtlSocket\":254,\"sendTtlSocket\":255,");
	set_hops(peer, 0);
	ck_assert_int_eq(sock_min(fd, AF_INET), 0);
	ck_assert_int_eq(sock_ttl(fd, AF_INET), 255);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	close(rfd);
	close(lfd);
}
END_TEST

/* ---- TCP-MD5 ---- */

/* A password change resets the session (Cease/Other Configuration Change, reason shown); the
 * new key does not match the speaker's old one: no connection, TCPMD5Failure counts; once the
 * speaker has the new key, it establishes. */
START_TEST(test_password_change_resets)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", "one", 0, &port);
	struct bgp_peer *peer;
	uint8_t body[8];
	size_t len;
	int rfd;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, "one", 0);
	rfd = establish_out(peer, lfd, REMOTE_AS);
	set_password(peer, "two");
	ck_assert_int_eq(st_expect(rfd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_CONFIG_CHANGE);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_PASSWORD_CHANGE);
	close(rfd);
	st_text_has(run("show bgp neighbors 127.0.0.1"),
		    "  Last reset 00:00:00,  Password changed (TCP-MD5 is checked on every "
		    "segment: a new key needs a new connection)\n");
	st_json_has(run("show bgp neighbors 127.0.0.1 json"), "\"lastResetCode\":37");

	/* Mismatch: our SYNs are signed with "two", the speaker expects "one". */
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	ck_assert_int_lt(st_accept(lfd, 1500), 0);
	ck_assert_uint_gt(ktest_counter("TCPMD5Failure"), 0);
	/* The speaker changes too: the next SYN (retransmitted) gets through. */
	spk_opts(lfd, "127.0.0.1", "two", 0);
	rfd = st_accept(lfd, 5000);
	ck_assert_int_ge(rfd, 0);
	close(rfd);
	close(lfd);
}
END_TEST

/* A speaker without a key never gets in: its SYN is dropped (TCPMD5NotFound). */
START_TEST(test_md5_missing_key_never_establishes)
{
	struct bgp_peer *peer;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, KEY, 0);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ck_assert_int_lt(
		spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), NULL, 0, 1500),
		0);
	ck_assert_uint_gt(ktest_counter("TCPMD5NotFound"), 0);
	ck_assert_int_lt(
		spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), "wrong", 0, 1500),
		0);
	ck_assert_uint_gt(ktest_counter("TCPMD5Failure"), 0);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ACTIVE);
}
END_TEST

/* ---- the listener ---- */

/* A GTSM peer's handshake at TTL 64 never completes (the listener group drops its SYN before
 * MD5 work: TCPMinTTLDrop), at 255 it does; another source at TTL 64 still connects. */
START_TEST(test_listener_drops_low_ttl_handshake)
{
	struct bgp_peer *peer;
	int fd;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, KEY, 1);
	peer_new("127.0.0.2", REMOTE_AS, true, NULL, 0);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ck_assert_int_lt(
		spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), KEY, 64, 1500),
		0);
	ck_assert_uint_gt(ktest_counter("TCPMinTTLDrop"), 0);
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound"), 0);
	ck_assert_uint_eq(ktest_counter("TCPMD5Failure"), 0);
	fd = spk_connect("127.0.0.2", "127.0.0.1", bgp_network_listen_port(0), NULL, 64, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1); /* our OPEN */
	close(fd);
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), KEY, 255, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1);
	close(fd);
}
END_TEST

/* A connection that queued before the peer's GTSM rule existed is closed unread. */
START_TEST(test_queued_before_rule_closed)
{
	struct bgp_peer *peer;
	int fd;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, NULL, 0);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	/* Handshake at TTL 64 completes in the kernel; bgpd has not accepted it yet. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	{
		struct sockaddr_storage ss;
		struct ipaddr a = ip("127.0.0.1");
		socklen_t len = ipaddr_to_sockaddr(&a, bgp_network_listen_port(0), &ss);

		ck_assert_int_eq(connect(fd, (struct sockaddr *)&ss, len), 0);
	}
	set_hops(peer, 1);
	ck_assert(spk_closed(fd, 2000));
	ck_assert(st_logged("127.0.0.1", "closed unread", NULL));
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ACTIVE);
	close(fd);
}
END_TEST

/* ---- fail closed ---- */

/* IP_MINTTL refused on the active socket: closed before connect(), logged with option, peer
 * and errno; the speaker sees nothing. */
START_TEST(test_fail_closed_active)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", NULL, 0, &port);
	struct bgp_peer *peer;
	int fd;

	bgp_network_set_remote_port(port);
	inject_fail(IPPROTO_IP, IP_MINTTL, EPERM, -1);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, NULL, 1);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	fd = first_fd_with(IPPROTO_IP, IP_TTL);
	ck_assert_int_ge(fd, 0);
	ck_assert_str_eq(hist(fd), "TTL=255 MINTTL=255!");
	ck_assert_int_eq(primary(peer)->fd, -1);
	ck_assert(st_logged("127.0.0.1: outgoing connection: socket", "closed before connect()",
			    "IP_MINTTL 255 for peer 127.0.0.1: Operation not permitted (EPERM)"));
	ck_assert_int_lt(st_accept(lfd, 300), 0);
	close(lfd);
}
END_TEST

/* TCP_MD5SIG refused: nothing else is set, no connect(). */
START_TEST(test_fail_closed_active_md5)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", KEY, 0, &port);
	struct bgp_peer *peer;
	int fd;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, KEY, 0);
	ops_clear();
	inject_fail(IPPROTO_TCP, TCP_MD5SIG, ENOMEM, -1);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	fd = first_fd_with(IPPROTO_TCP, TCP_MD5SIG);
	ck_assert_str_eq(hist(fd), "MD5!");
	ck_assert(st_logged("TCP_MD5SIG install key (10 bytes) for peer 127.0.0.1", "ENOMEM",
			    "optmem_max"));
	ck_assert_int_lt(st_accept(lfd, 300), 0);
	close(lfd);
}
END_TEST

/* Refused on the accepted socket: closed before a byte is read, no OPEN sent. */
START_TEST(test_fail_closed_accepted)
{
	struct bgp_peer *peer;
	int fd, afd;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, NULL, 1);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	ops_clear();
	inject_fail(IPPROTO_IP, IP_MINTTL, EPERM, 1);
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), NULL, 255, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert(spk_closed(fd, 2000));
	afd = last_accepted();
	ck_assert_str_eq(hist(afd), "accepted TTL=255 MINTTL=255!");
	ck_assert(st_logged("incoming connection: socket", "closed before reading from it",
			    "IP_MINTTL 255 for peer 127.0.0.1: Operation not permitted (EPERM)"));
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ACTIVE);
	close(fd);
}
END_TEST

/* Refused during a live change: that connection is closed. */
START_TEST(test_fail_closed_live_change)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", NULL, 0, &port);
	struct bgp_peer *peer;
	int rfd;

	bgp_network_set_remote_port(port);
	peer = peer_new("127.0.0.1", REMOTE_AS, false, NULL, 0);
	rfd = establish_out(peer, lfd, REMOTE_AS);
	inject_fail(IPPROTO_IP, IP_MINTTL, EINVAL, 1);
	set_hops(peer, 1);
	ck_assert_uint_ne(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_SOCKET_ERROR);
	ck_assert(spk_closed(rfd, 2000));
	ck_assert(st_logged("ttl-security change on the Established connection",
			    "connection closed",
			    "IP_MINTTL 255 for peer 127.0.0.1: Invalid argument (EINVAL)"));
	close(rfd);
	close(lfd);
}
END_TEST

/* The listener could not take the peer's key: its incoming connections are refused (their
 * handshake was not authenticated) until the key is in place. */
START_TEST(test_fail_closed_listener_key)
{
	struct bgp_peer *peer;
	const char *out;
	int fd;

	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, true, NULL, 0);
	inject_fail(IPPROTO_TCP, TCP_MD5SIG, ENOMEM, 1);
	set_password(peer, KEY);
	ck_assert(peer->session->listener_md5_failed);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000)); /* restarted by the password change */
	ck_assert(st_logged("127.0.0.1:", "TCP_MD5SIG install key",
			    "incoming connections from this "
			    "neighbor are refused"));
	out = run("show bgp neighbors 127.0.0.1");
	st_text_has(out, "  TCP-MD5 at the listener: key missing, incoming connections refused\n");
	st_json_has(run("show bgp neighbors 127.0.0.1 json"), "\"md5ListenerKey\":false");
	/* Without the listener's key the kernel lets an unsigned handshake through... */
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), NULL, 0, 2000);
	ck_assert_int_ge(fd, 0);
	/* ... and bgpd refuses it unread. */
	ck_assert(spk_closed(fd, 2000));
	ck_assert(st_logged("incoming connection", "refused: the listener lacks its TCP-MD5 key",
			    NULL));
	close(fd);
	set_password(peer, KEY);
	ck_assert(!peer->session->listener_md5_failed);
	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	fd = spk_connect("127.0.0.1", "127.0.0.1", bgp_network_listen_port(0), KEY, 0, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1);
	close(fd);
}
END_TEST

/* ---- capability refusal ---- */

START_TEST(test_capability_refused)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", NULL, 0, &port);
	struct kernel_caps caps;
	struct bgp_peer *peer;
	struct ipaddr a = ip("192.0.2.7");
	struct sbuf why;
	char msg[1200];

	bgp_network_set_remote_port(port);
	memset(&caps, 0, sizeof(caps));
	for (int c = 0; c < KERNEL_CAP__MAX; c++)
		caps.cap[c].ok = true;
	caps.cap[KERNEL_CAP_MINTTL_V4].ok = false;
	caps.cap[KERNEL_CAP_MINTTL_V4].err = -ENOPROTOOPT;
	bgp_security_set_caps(&caps);

	ck_assert_int_eq(bgp_peer_security_check(&a, true, 0, msg, sizeof(msg)), 0);
	ck_assert_int_eq(bgp_peer_security_check(&a, false, 1, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "this kernel lacks a minimum TTL for IPv4 (IP_MINTTL) (ENOPROTOOPT: "
			      "Protocol not available): ttl-security cannot be enforced on IPv4 "
			      "sessions; remove the setting or run bgpd where the kernel supports "
			      "it");
	a = ip("2001:db8::7");
	ck_assert_int_eq(bgp_peer_security_check(&a, true, 1, msg, sizeof(msg)), 0);

	peer = peer_new("127.0.0.1", REMOTE_AS, false, NULL, 1);
	st_pump(300);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	ck_assert_int_lt(st_accept(lfd, 200), 0);
	ck_assert(
		st_logged("127.0.0.1: session held down: this kernel lacks a minimum TTL for IPv4",
			  NULL, NULL));
	sbuf_init(&why);
	ck_assert_int_eq(bgp_security_check_all(bgp_get(), &why), -1);
	ck_assert_ptr_nonnull(strstr(why.buf, "neighbor 127.0.0.1 (ttl-security) refused: this "
					      "kernel lacks a minimum TTL for IPv4 (IP_MINTTL)"));
	sbuf_free(&why);
	st_text_has(run("show bgp neighbors 127.0.0.1"), "  Held down: this kernel cannot enforce");
	st_text_has(run("show bgp gtsm"), "(held down: kernel)");

	/* Without ttl-security the session runs. */
	set_hops(peer, 0);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	close(lfd);
}
END_TEST

/* ---- show ---- */

START_TEST(test_show_text_and_json)
{
	uint16_t port;
	int lfd = spk_listen("127.0.0.1", KEY, 255, &port);
	struct bgp_peer *peer;
	const char *out;
	int rfd;

	bgp_network_set_remote_port(port);
	our_listener("127.0.0.1");
	peer = peer_new("127.0.0.1", REMOTE_AS, false, KEY, 1);
	peer_new("127.0.0.2", REMOTE_AS, true, NULL, 0);
	rfd = establish_out(peer, lfd, REMOTE_AS);

	out = run("show bgp neighbors 127.0.0.1");
	st_text_has(out, "  External BGP neighbor may be up to 1 hops away.\n"
			 "  TTL security (GTSM): hops 1, minimum TTL 255; on the socket minimum "
			 "TTL 255, sending TTL 255\n"
			 "  GTSM at the listener: handshake TTL-checked\n"
			 "  Kernel counters (this namespace): TCPMinTTLDrop 0, TCPMD5NotFound 0, "
			 "TCPMD5Unexpected 0, TCPMD5Failure 0\n");
	st_text_has(out, "Peer Authentication Enabled\n");
	out = run("show bgp neighbors 127.0.0.2");
	st_text_has(out, "  External BGP neighbor may be up to 1 hops away.\n"
			 "  TTL security (GTSM): off; no socket\n"
			 "  Kernel counters");

	out = run("show bgp neighbors 127.0.0.1 json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "\"externalBgpNbrMaxHopsAway\":1,\"gtsm\":{\"enabled\":true,\"hops\":1,"
			 "\"minTtlConfigured\":255,\"minTtlSocket\":255,\"sendTtlSocket\":255,"
			 "\"listenerProtected\":true},\"md5ListenerKey\":true,"
			 "\"kernelCounters\":{\"tcpMinTtlDrop\":0,\"tcpMd5NotFound\":0,"
			 "\"tcpMd5Unexpected\":0,\"tcpMd5Failure\":0}");
	st_json_has(out, "\"authenticationEnabled\":1");

	out = run("show bgp gtsm");
	st_text_has(out, "Listener 127.0.0.1:");
	st_text_has(out, ": GTSM group, 1 GTSM rules (selector ");
	st_text_has(out, "Neighbor         Hops  MinTTL Socket SendTTL MD5 Listener State\n"
			 "127.0.0.1           1     255    255     255 yes yes      Established\n"
			 "127.0.0.2           -       -      -       - no  -        Active\n"
			 "Kernel counters (this namespace): TCPMinTTLDrop 0, TCPMD5NotFound 0, "
			 "TCPMD5Unexpected 0, TCPMD5Failure 0\n");
	out = run("show bgp gtsm json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "\"listeners\":[{\"address\":\"127.0.0.1\",\"port\":");
	st_json_has(out, "\"gtsmGroup\":true,\"gtsmRules\":1,");
	st_json_has(out, "\"neighbors\":{\"127.0.0.1\":{\"hops\":1,\"minTtlConfigured\":255,"
			 "\"minTtlSocket\":255,\"sendTtlSocket\":255,\"md5\":true,"
			 "\"listenerProtected\":true,\"state\":\"Established\"},"
			 "\"127.0.0.2\":{\"hops\":0,\"minTtlConfigured\":0,\"md5\":false,"
			 "\"listenerProtected\":false,\"state\":\"Active\"}}");
	st_json_has(out, "\"kernelCounters\":{\"tcpMinTtlDrop\":0,");
	close(rfd);
	close(lfd);
}
END_TEST

/* The capacity check the northbound runs on the whole candidate (bgp_nb_validate_tree()):
 * the figures of doc/gtsm-kernel.md "Limits" hold, one more is refused with the count. */
START_TEST(test_rules_capacity)
{
	static struct bgp_gtsm_rule rules[4100];
	char msg[512];

	/* 313 IPv6 neighbors, each in its own /96: the guaranteed capacity in any mix. */
	for (int i = 0; i < 314; i++) {
		char a[64];

		snprintf(a, sizeof(a), "2001:db8:%x:%x::1", i / 16, i % 16 + 1);
		ck_assert_int_eq(ipaddr_from_str(&rules[i].addr, a), 0);
		rules[i].hops = 1 + (unsigned)(i % 200);
	}
	ck_assert_int_eq(bgp_gtsm_rules_check(rules, 313, msg, sizeof(msg)), 0);
	ck_assert_int_eq(bgp_gtsm_rules_check(rules, 314, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "314 IPv6 neighbors"));
	ck_assert_ptr_nonnull(strstr(msg, "doc/gtsm.md"));

	/* 4,005 IPv4 neighbors sharing one hops value fit; 4,006 do not. */
	for (int i = 0; i < 4006; i++) {
		char a[32];

		snprintf(a, sizeof(a), "10.%d.%d.%d", i / 65536, (i / 256) % 256, i % 256 + 0);
		ck_assert_int_eq(ipaddr_from_str(&rules[i].addr, a), 0);
		rules[i].hops = 1;
	}
	ck_assert_int_eq(bgp_gtsm_rules_check(rules, 4005, msg, sizeof(msg)), 0);
	ck_assert_int_eq(bgp_gtsm_rules_check(rules, 4006, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "4006 IPv4 neighbors"));
	ck_assert_int_eq(bgp_gtsm_rules_check(rules, 0, msg, sizeof(msg)), 0);
}
END_TEST

static Suite *gtsm_suite(void)
{
	Suite *s = suite_create("bgp_gtsm");
	TCase *order = tcase_create("order");
	TCase *live = tcase_create("live");
	TCase *md5 = tcase_create("md5");
	TCase *listener = tcase_create("listener");
	TCase *closed = tcase_create("fail_closed");
	TCase *show = tcase_create("show");
	TCase *all[] = { order, live, md5, listener, closed, show };

	for (size_t i = 0; i < array_size(all); i++) {
		tcase_add_checked_fixture(all[i], setup, teardown);
		tcase_set_timeout(all[i], 30);
		suite_add_tcase(s, all[i]);
	}
	tcase_add_test(order, test_active_order_v4);
	tcase_add_test(order, test_active_order_v6);
	tcase_add_test(order, test_accepted_order);
	tcase_add_test(order, test_accepted_plain_peer);
	tcase_add_test(order, test_listener_order);
	tcase_add_test(order, test_collision_socket_and_live_change);
	tcase_add_test(live, test_hitless_enable_change_remove);
	tcase_add_test(live, test_ibgp_gtsm);
	tcase_add_test(md5, test_password_change_resets);
	tcase_add_test(md5, test_md5_missing_key_never_establishes);
	tcase_add_test(listener, test_listener_drops_low_ttl_handshake);
	tcase_add_test(listener, test_queued_before_rule_closed);
	tcase_add_test(closed, test_fail_closed_active);
	tcase_add_test(closed, test_fail_closed_active_md5);
	tcase_add_test(closed, test_fail_closed_accepted);
	tcase_add_test(closed, test_fail_closed_live_change);
	tcase_add_test(closed, test_fail_closed_listener_key);
	tcase_add_test(closed, test_capability_refused);
	tcase_add_test(show, test_show_text_and_json);
	tcase_add_test(show, test_rules_capacity);
	return s;
}

int main(void)
{
	return ktest_run("check_bgp_gtsm", gtsm_suite());
}
