/* SPDX-License-Identifier: ISC */
/* The fake RTR cache of the client's tests (rtr_test.h). */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_private.h"
#include "lib/event.h"
#include "tests/unit/rtr_test.h"

struct event_base *rt_base;
struct rpki_db *rt_db;

void rt_setup(uint32_t ms_per_second)
{
	rtr_ms_per_second = ms_per_second;
	rt_base = event_loop_new();
	ck_assert_ptr_nonnull(rt_base);
	rt_db = rpki_db_new();
	rtr_init(rt_base, rt_db);
}

void rt_teardown(void)
{
	rtr_fini();
	rpki_db_free(rt_db);
	event_loop_free(rt_base);
	rt_db = NULL;
	rt_base = NULL;
}

void rt_pump(unsigned ms)
{
	uint64_t end = monotime_ms() + ms;

	do {
		event_loop_once(rt_base, false);
		usleep(500);
	} while (monotime_ms() < end);
}

bool rt_wait(bool (*cond)(void *), void *arg, unsigned timeout_ms)
{
	uint64_t end = monotime_ms() + timeout_ms;

	while (!cond(arg)) {
		if (monotime_ms() >= end)
			return false;
		event_loop_once(rt_base, false);
		usleep(500);
	}
	return true;
}

struct status_find {
	uint8_t pref;
	bool found;
	struct rtr_cache_status s;
};

static void status_cb(const struct rtr_cache_status *s, void *arg)
{
	struct status_find *f = arg;

	if (s->config.preference == f->pref) {
		f->s = *s;
		f->found = true;
	}
}

struct rtr_cache_status rt_status(uint8_t preference)
{
	struct status_find f = { .pref = preference };

	rtr_status_walk(status_cb, &f);
	ck_assert_msg(f.found, "no cache of preference %u", preference);
	f.s.config.host = NULL; /* only valid during the walk */
	return f.s;
}

struct state_want {
	uint8_t pref;
	enum rtr_state st;
};

static bool in_state(void *arg)
{
	struct state_want *w = arg;

	return rt_status(w->pref).state == w->st;
}

void rt_wait_state(uint8_t preference, enum rtr_state st, unsigned timeout_ms)
{
	struct state_want w = { preference, st };

	if (!rt_wait(in_state, &w, timeout_ms)) {
		struct rtr_cache_status s = rt_status(preference);

		ck_abort_msg("cache %u: state %s, wanted %s (last error: %s)", preference,
			     rtr_state_name(s.state), rtr_state_name(st), s.last_error);
	}
}

void rt_cache(uint8_t preference, const char *host, uint16_t port, const char *source,
	      const char *password)
{
	struct rtr_cache_config c = {
		.transport = RTR_TRANSPORT_TCP,
		.host = host,
		.port = port,
		.preference = preference,
		.source = source,
		.password = password,
	};
	char err[256] = "";

	ck_assert_msg(rtr_cache_set(&c, err, sizeof(err)) == 0, "rtr_cache_set: %s", err);
}

void rt_cache_tcp(uint8_t preference, uint16_t port)
{
	rt_cache(preference, "127.0.0.1", port, NULL, NULL);
}

void fc_listen(struct fake_cache *fc, uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	socklen_t len = sizeof(sin);
	int one = 1;

	memset(fc, 0, sizeof(*fc));
	fc->fd = -1;
	fc->version = 2;
	fc->session_id = 7;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fc->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fc->lfd, 0);
	setsockopt(fc->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ck_assert_msg(bind(fc->lfd, (struct sockaddr *)&sin, sizeof(sin)) == 0, "bind: %s",
		      strerror(errno));
	ck_assert_int_eq(listen(fc->lfd, 8), 0);
	ck_assert_int_eq(getsockname(fc->lfd, (struct sockaddr *)&sin, &len), 0);
	fc->port = ntohs(sin.sin_port);
}

void fc_listen_tls(struct fake_cache *fc, const char *cert, const char *key)
{
	fc_listen(fc, 0);
	fc->ctx = SSL_CTX_new(TLS_server_method());
	ck_assert_ptr_nonnull(fc->ctx);
	ck_assert_int_eq(SSL_CTX_use_certificate_chain_file(fc->ctx, cert), 1);
	ck_assert_int_eq(SSL_CTX_use_PrivateKey_file(fc->ctx, key, SSL_FILETYPE_PEM), 1);
}

void fc_drop(struct fake_cache *fc)
{
	if (fc->ssl) {
		SSL_free(fc->ssl);
		fc->ssl = NULL;
	}
	if (fc->fd >= 0)
		close(fc->fd);
	fc->fd = -1;
}

void fc_close(struct fake_cache *fc)
{
	fc_drop(fc);
	if (fc->lfd >= 0)
		close(fc->lfd);
	fc->lfd = -1;
	if (fc->ctx)
		SSL_CTX_free(fc->ctx);
	fc->ctx = NULL;
}

bool fc_accept(struct fake_cache *fc, unsigned timeout_ms)
{
	uint64_t end = monotime_ms() + timeout_ms;

	fc_drop(fc);
	while (fc->fd < 0) {
		fc->fd = accept4(fc->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fc->fd >= 0)
			break;
		if (monotime_ms() >= end)
			return false;
		event_loop_once(rt_base, false);
		usleep(500);
	}
	if (!fc->ctx)
		return true;
	fc->ssl = SSL_new(fc->ctx);
	SSL_set_fd(fc->ssl, fc->fd);
	for (;;) {
		int r = SSL_accept(fc->ssl), e;

		if (r == 1)
			return true;
		e = SSL_get_error(fc->ssl, r);
		if ((e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) ||
		    monotime_ms() >= end) {
			ERR_clear_error();
			fc_drop(fc);
			return false;
		}
		event_loop_once(rt_base, false);
		usleep(500);
	}
}

/* Non-blocking read of up to n bytes: >0, 0 at EOF, -1 when nothing is there yet. */
static int fc_read(struct fake_cache *fc, uint8_t *b, size_t n, bool peek)
{
	ssize_t r;

	if (fc->ssl) {
		r = peek ? SSL_peek(fc->ssl, b, (int)n) : SSL_read(fc->ssl, b, (int)n);
		if (r > 0)
			return (int)r;
		if (SSL_get_error(fc->ssl, (int)r) == SSL_ERROR_WANT_READ)
			return -1;
		ERR_clear_error();
		return 0;
	}
	r = recv(fc->fd, b, n, peek ? MSG_PEEK : 0);
	if (r < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? -1 : 0;
	return (int)r;
}

int fc_recv(struct fake_cache *fc, uint8_t *buf, size_t size, unsigned timeout_ms)
{
	uint64_t end = monotime_ms() + timeout_ms;
	size_t have = 0, want = RTR_PDU_HEADER_LEN;

	ck_assert_int_ge(fc->fd, 0);
	while (have < want) {
		int r = fc_read(fc, buf + have, want - have, false);

		if (r == 0)
			return 0;
		if (r > 0) {
			have += (size_t)r;
			if (have == RTR_PDU_HEADER_LEN && want == RTR_PDU_HEADER_LEN) {
				want = ((size_t)buf[4] << 24) | ((size_t)buf[5] << 16) |
				       ((size_t)buf[6] << 8) | buf[7];
				ck_assert_msg(want >= RTR_PDU_HEADER_LEN && want <= size,
					      "client sent a PDU of %zu bytes", want);
			}
			continue;
		}
		if (monotime_ms() >= end)
			return -1;
		event_loop_once(rt_base, false);
		usleep(500);
	}
	return (int)have;
}

void fc_expect(struct fake_cache *fc, uint8_t type, struct rtr_pdu *pdu, uint8_t *buf, size_t size)
{
	struct rtr_pdu_error err;
	int n = fc_recv(fc, buf, size, 3000);

	ck_assert_msg(n > 0, "no PDU from the client (%s)", n == 0 ? "EOF" : "timeout");
	ck_assert_msg(rtr_pdu_decode(buf, (size_t)n, pdu, &err) == 0, "client PDU malformed: %s",
		      err.why);
	ck_assert_msg(pdu->type == type, "client sent %s, expected %s",
		      rtr_pdu_type_name(pdu->type), rtr_pdu_type_name(type));
}

void fc_expect_eof(struct fake_cache *fc, unsigned timeout_ms)
{
	uint8_t buf[RTR_PDU_MAX];
	int n;

	do {
		n = fc_recv(fc, buf, sizeof(buf), timeout_ms);
	} while (n > 0);
	ck_assert_msg(n == 0, "the client did not close the connection");
	fc_drop(fc);
}

void fc_send_raw(struct fake_cache *fc, const uint8_t *b, size_t len)
{
	ck_assert_int_ge(fc->fd, 0);
	if (fc->ssl) {
		ck_assert_int_eq(SSL_write(fc->ssl, b, (int)len), (int)len);
		return;
	}
	ck_assert_int_eq(send(fc->fd, b, len, MSG_NOSIGNAL), (ssize_t)len);
}

void fc_send(struct fake_cache *fc, const struct rtr_pdu *pdu)
{
	static uint8_t b[RTR_PDU_MAX];
	int n = rtr_pdu_encode(pdu, b, sizeof(b));

	ck_assert_int_gt(n, 0);
	fc_send_raw(fc, b, (size_t)n);
}

void fc_cache_response(struct fake_cache *fc)
{
	struct rtr_pdu p = { .version = fc->version, .type = RTR_PDU_CACHE_RESPONSE };

	p.session_id = fc->session_id;
	fc_send(fc, &p);
}

void fc_end_of_data(struct fake_cache *fc, uint32_t serial, uint32_t refresh, uint32_t retry,
		    uint32_t expire)
{
	struct rtr_pdu p = { .version = fc->version, .type = RTR_PDU_END_OF_DATA };

	p.session_id = fc->session_id;
	p.u.eod.serial = serial;
	p.u.eod.refresh = refresh;
	p.u.eod.retry = retry;
	p.u.eod.expire = expire;
	fc_send(fc, &p);
}

void fc_notify(struct fake_cache *fc, uint32_t serial)
{
	struct rtr_pdu p = { .version = fc->version, .type = RTR_PDU_SERIAL_NOTIFY };

	p.session_id = fc->session_id;
	p.u.serial = serial;
	fc_send(fc, &p);
}

void fc_cache_reset(struct fake_cache *fc)
{
	struct rtr_pdu p = { .version = fc->version, .type = RTR_PDU_CACHE_RESET };

	fc_send(fc, &p);
}

size_t fc_build_prefix(uint8_t *b, uint8_t version, bool announce, const char *pfx, uint8_t max_len,
		       uint32_t asn)
{
	struct rtr_pdu p = { .version = version };
	struct prefix pr;
	int n;

	ck_assert_int_eq(prefix_from_str(&pr, pfx, false), 0);
	p.type = pr.family == AF_INET6 ? RTR_PDU_IPV6_PREFIX : RTR_PDU_IPV4_PREFIX;
	p.u.prefix.flags = announce ? RTR_FLAG_ANNOUNCE : 0;
	p.u.prefix.prefix_len = pr.len;
	p.u.prefix.max_len = max_len;
	memcpy(p.u.prefix.addr, pr.u.bytes, 16);
	p.u.prefix.asn = asn;
	n = rtr_pdu_encode(&p, b, 64);
	ck_assert_int_gt(n, 0);
	return (size_t)n;
}

void fc_prefix(struct fake_cache *fc, bool announce, const char *pfx, uint8_t max_len, uint32_t asn)
{
	uint8_t b[64];

	fc_send_raw(fc, b, fc_build_prefix(b, fc->version, announce, pfx, max_len, asn));
}

void fc_aspa(struct fake_cache *fc, bool announce, bool ipv6, uint32_t customer,
	     const uint32_t *providers, uint16_t n)
{
	struct rtr_pdu p = { .version = fc->version, .type = RTR_PDU_ASPA };
	uint8_t prov[4 * 16];

	ck_assert_uint_le(n, 16);
	for (uint16_t i = 0; i < n; i++) {
		prov[i * 4] = providers[i] >> 24;
		prov[i * 4 + 1] = (providers[i] >> 16) & 0xff;
		prov[i * 4 + 2] = (providers[i] >> 8) & 0xff;
		prov[i * 4 + 3] = providers[i] & 0xff;
	}
	p.u.aspa.flags = announce ? RTR_FLAG_ANNOUNCE : 0;
	p.u.aspa.afi_flags = ipv6 ? RTR_ASPA_AFI_IPV6 : 0;
	p.u.aspa.nproviders = n;
	p.u.aspa.customer = customer;
	p.u.aspa.providers = prov;
	fc_send(fc, &p);
}

struct vrp_find {
	struct rpki_vrp want;
	bool found;
};

static int vrp_cb(const struct rpki_vrp *v, void *arg)
{
	struct vrp_find *f = arg;

	if (prefix_same(&v->prefix, &f->want.prefix) && v->max_len == f->want.max_len &&
	    v->asn == f->want.asn)
		f->found = true;
	return 0;
}

bool rt_has_vrp(const char *pfx, uint8_t max_len, uint32_t asn)
{
	struct vrp_find f = { .want = { .max_len = max_len, .asn = asn } };

	ck_assert_int_eq(prefix_from_str(&f.want.prefix, pfx, false), 0);
	rpki_vrp_walk(rt_db, AF_UNSPEC, vrp_cb, &f);
	return f.found;
}

struct aspa_find {
	uint32_t customer;
	char out[256];
};

static int aspa_cb(uint32_t customer, const uint32_t *providers, size_t n, void *arg)
{
	struct aspa_find *f = arg;
	size_t len = 0;

	if (customer != f->customer)
		return 0;
	for (size_t i = 0; i < n && len < sizeof(f->out) - 12; i++)
		len += (size_t)snprintf(f->out + len, sizeof(f->out) - len, "%s%u", i ? "," : "",
					providers[i]);
	return 1;
}

const char *rt_aspa(uint32_t customer)
{
	static struct aspa_find f;

	memset(&f, 0, sizeof(f));
	f.customer = customer;
	rpki_aspa_walk(rt_db, aspa_cb, &f);
	return f.out;
}
