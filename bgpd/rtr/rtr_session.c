/* SPDX-License-Identifier: ISC */
/*
 * One cache's RTR session on the event loop (RFC 8210, RFC 6810, draft-ietf-sidrops-8210bis).
 *
 *   IDLE --start--> RESOLVING (names only, evdns) --> CONNECTING (non-blocking connect, source
 *   bind and TCP-MD5 key first) --> [TLS_HANDSHAKE] --> SYNCING (Reset Query, or Serial Query
 *   when we hold a serial) --End of Data--> ESTABLISHED --refresh timer / Serial Notify-->
 *   SYNCING ...; any failure --> ERROR, retried after the retry interval.
 *
 * Data. A Cache Response opens one store transaction (a reset transaction after a Reset
 * Query), every prefix or ASPA PDU goes into it, End of Data commits it: the store never
 * sees half a response. A malformed or inconsistent PDU (RFC 8210 5.6: a duplicate
 * announcement, a withdrawal of what we do not hold) aborts the transaction, is answered with
 * an Error Report carrying the PDU, and closes the connection.
 *
 * Versions (RFC 8210 7). The first connection speaks version 2; an Error Report "Unsupported
 * Protocol Version" makes us reconnect at once at the version the report carried (or one
 * lower), and a cache that answers our query at a lower version is followed down. Once the
 * cache has answered, any other version is "Unexpected Protocol Version".
 *
 * Timers. Refresh, retry and expire come from the cache's End of Data (version 1+, bounded
 * by RFC 8210 6), else from the configuration. The expire timer runs from every End of Data,
 * connected or not: when it fires, the cache's data leaves the store.
 *
 * Waits. connect(), the TLS handshake and each PDU owed between our query and its End of
 * Data are bounded by RTR_RESPONSE_TIMEOUT; a cache silent that long is closed and counts as
 * failed (retry, failover), whatever state it was in.
 *
 * Our choices where the RFCs leave room: an End of Data interval out of RFC 8210 6's range
 * is clamped into it (and logged) rather than refused; No Data Available and every other
 * Error Report from the cache end the connection, retried after the retry interval; Router
 * Key PDUs are accepted and ignored (no BGPsec).
 */
#include "lib/compat.h"

#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/util.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_pdu.h"
#include "bgpd/rtr/rtr_private.h"
#include "bgpd/rtr/rtr_tls.h"
#include "kernel/kernel_security.h"
#include "lib/event.h"
#include "lib/log.h"

uint32_t rtr_ms_per_second = 1000;

#define RTR_PDUS_PER_TURN 4096	   /* PDUs decoded before yielding to the loop */
#define RTR_ERROR_FLUSH_MS 1000	   /* how long an Error Report may take to leave */
#define RTR_READ_HIGH_WATER 262144 /* bound what one connection may buffer */

/*
 * How long (protocol seconds, so scaled by rtr_ms_per_second) the cache may keep us waiting:
 * for connect(), for the TLS handshake, and for each PDU it owes us between our query and its
 * End of Data. Every PDU received restarts the wait, so a long but moving transfer is never
 * cut; only silence is. rtrlib likewise bounds each PDU's receive and treats the expiry as a
 * transport error. 30 s is far above what a cache serving from memory needs to start or
 * continue an answer, and far below the retry and expire intervals it stands in for.
 */
#define RTR_RESPONSE_TIMEOUT 30

/* RFC 8210 6: the ranges of the End of Data intervals. */
#define REFRESH_MIN 1
#define REFRESH_MAX 86400
#define RETRY_MIN 1
#define RETRY_MAX 7200
#define EXPIRE_MIN 600
#define EXPIRE_MAX 172800

static void connect_begin(struct rtr_cache *c);
static void send_query(struct rtr_cache *c);
static void input_process(struct rtr_cache *c);

static uint32_t ms(uint32_t seconds)
{
	uint64_t v = (uint64_t)seconds * rtr_ms_per_second;

	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void cache_log(struct rtr_cache *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cache_log(struct rtr_cache *c, int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_limited(&c->log_limit, level, "rpki: cache %s port %u (preference %u): %s", c->cfg.host,
		    c->cfg.port, c->cfg.preference, msg);
}

/* `debug rpki`: one PDU received ("rcvd") or sent ("sent"), decoded or as far as it goes. */
static void pdu_debug(struct rtr_cache *c, const char *dir, const uint8_t *b, size_t len)
{
	struct rtr_pdu_error err;
	struct rtr_pdu p;
	char line[400];

	if (!DEBUG_ON(RTR_DEBUG) || !log_would_log(LOG_LVL_DEBUG))
		return;
	if (rtr_pdu_decode(b, len, &p, &err) == 0)
		rtr_pdu_describe(&p, line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%s v%u len %zu: malformed (%s)",
			 rtr_pdu_type_name(len >= 2 ? b[1] : 255), len ? b[0] : 0, len, err.why);
	log_limited(&c->debug_limit, LOG_LVL_DEBUG, "rpki: cache %s port %u (preference %u): %s %s",
		    c->cfg.host, c->cfg.port, c->cfg.preference, dir, line);
}

static void set_error(struct rtr_cache *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_error(struct rtr_cache *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->last_error, sizeof(c->last_error), fmt, ap);
	va_end(ap);
}

static void set_state(struct rtr_cache *c, enum rtr_state st)
{
	if (c->state == st)
		return;
	cache_log(c, st == RTR_STATE_ERROR ? LOG_LVL_WARNING : LOG_LVL_INFO, "%s -> %s%s%s",
		  rtr_state_name(c->state), rtr_state_name(st), st == RTR_STATE_ERROR ? ": " : "",
		  st == RTR_STATE_ERROR ? c->last_error : "");
	c->state = st;
	c->state_since = wallclock_s();
}

/* ---- the store side ---- */

static void txn_abort(struct rtr_cache *c)
{
	if (c->txn) {
		rpki_txn_abort(c->txn);
		c->txn = NULL;
	}
	rtr_aspa_abort(&c->aspa);
	c->in_response = false;
}

/* Remove everything this cache put in the store; the next sync must be a reset. */
static void data_drop(struct rtr_cache *c)
{
	txn_abort(c);
	if (c->source >= 0)
		rpki_source_drop(c->db, c->source);
	c->source = -1;
	rtr_aspa_clear(&c->aspa);
	c->have_serial = false;
	event_del(c->expire_timer);
}

static void expire_cb(int fd, short what, void *arg)
{
	struct rtr_cache *c = arg;

	(void)fd;
	(void)what;
	cache_log(
		c, LOG_LVL_WARNING,
		"no End of Data for the expire interval (%u s): its data is dropped from the store",
		c->expire);
	data_drop(c);
	c->data_expired = true;
	rtr_mgr_changed();
}

/* ---- the connection ---- */

static void conn_close(struct rtr_cache *c)
{
	txn_abort(c);
	if (c->dns_req) {
		struct evdns_getaddrinfo_request *req = c->dns_req;

		c->dns_req = NULL; /* the callback sees EVUTIL_EAI_CANCEL and returns */
		evdns_getaddrinfo_cancel(req);
	}
	event_free(c->connect_ev);
	c->connect_ev = NULL;
	if (c->bev) {
		bufferevent_free(c->bev); /* closes the fd (BEV_OPT_CLOSE_ON_FREE) */
		c->bev = NULL;
		c->fd = -1;
	}
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	event_del(c->refresh_timer);
	event_del(c->close_timer);
	event_del(c->input_ev);
	c->closing = false;
	c->synced = false;
	c->query_pending = false;
	c->version_agreed = false;
	c->tls_peer[0] = c->tls_version[0] = '\0';
}

static void connect_addr(struct rtr_cache *c);

/* The connection failed (last_error says why): close it, retry after the retry interval; a
 * connect() that failed goes on with the host's next address first. */
static void conn_fail(struct rtr_cache *c)
{
	bool next_addr = c->state == RTR_STATE_CONNECTING && !c->bev && c->addr_idx + 1 < c->naddrs;

	conn_close(c);
	if (next_addr && c->running) {
		cache_log(c, LOG_LVL_INFO, "%s: trying the next address", c->last_error);
		c->addr_idx++;
		connect_addr(c);
		return;
	}
	c->failed = true;
	set_state(c, RTR_STATE_ERROR);
	if (c->running)
		event_timer_add(c->retry_timer, ms(c->retry), 0);
	rtr_mgr_changed();
}

static void retry_cb(int fd, short what, void *arg)
{
	struct rtr_cache *c = arg;

	(void)fd;
	(void)what;
	if (c->running && !c->bev && !c->connect_ev && !c->dns_req)
		connect_begin(c);
}

static void send_bytes(struct rtr_cache *c, const uint8_t *b, size_t len)
{
	pdu_debug(c, "sent", b, len);
	bufferevent_write(c->bev, b, len);
	c->pdus_tx++;
}

/*
 * We refuse what the cache sent: abort the transaction (the store stays as it was), send an
 * Error Report with the PDU and why, and close once it has left (RFC 8210 12).
 */
static void protocol_error(struct rtr_cache *c, uint16_t code, const uint8_t *pdu, size_t len,
			   const char *why)
{
	uint8_t er[RTR_ERROR_REPORT_MAX];
	size_t n;

	txn_abort(c);
	/* Unexpected Protocol Version does not exist in version 0. */
	if (code == RTR_ERR_UNEXPECTED_VERSION && c->version == 0)
		code = RTR_ERR_UNSUPPORTED_VERSION;
	set_error(c, "sent Error Report %s (%u): %s", rtr_error_code_name(code), code, why);
	cache_log(c, LOG_LVL_WARNING, "%s", c->last_error);
	n = rtr_pdu_error_report(er, c->version, code, pdu, len, why);
	send_bytes(c, er, n);
	c->errors_tx++;
	c->closing = true;
	bufferevent_disable(c->bev, EV_READ);
	event_timer_add(c->close_timer, RTR_ERROR_FLUSH_MS, 0);
}

/* Start (or restart) the wait for the cache: connect(), the handshake, the next PDU owed. */
static void response_wait(struct rtr_cache *c)
{
	event_timer_add(c->close_timer, ms(RTR_RESPONSE_TIMEOUT), 0);
}

/*
 * One timer bounds every wait of a connection: the Error Report flush, connect(), the TLS
 * handshake, and the answer to a query. A cache that stops answering is not told why (an
 * Error Report has no code for it, and a cache that does not read would not see it): the
 * connection is closed and treated as any failure, so the manager fails over.
 */
static void close_cb(int fd, short what, void *arg)
{
	struct rtr_cache *c = arg;

	(void)fd;
	(void)what;
	if (!c->closing) {
		if (c->state == RTR_STATE_CONNECTING)
			set_error(c, "connect to %s port %u timed out after %u s", c->cfg.host,
				  c->cfg.port, RTR_RESPONSE_TIMEOUT);
		else if (c->state == RTR_STATE_TLS_HANDSHAKE)
			set_error(c, "TLS handshake timed out after %u s", RTR_RESPONSE_TIMEOUT);
		else if (c->in_response)
			set_error(c,
				  "response timed out: no PDU for %u s before End of Data "
				  "(the partial data was discarded)",
				  RTR_RESPONSE_TIMEOUT);
		else
			set_error(c, "response timed out: no answer to our %s Query for %u s",
				  c->query_was_reset ? "Reset" : "Serial", RTR_RESPONSE_TIMEOUT);
	}
	/* conn_fail() logs the state change to error with last_error. */
	conn_fail(c);
}

static void write_cb(struct bufferevent *bev, void *arg)
{
	struct rtr_cache *c = arg;

	if (c->closing && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		conn_fail(c);
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct rtr_cache *c = arg;

	if (what & BEV_EVENT_CONNECTED) {
		/* The TLS handshake finished and the certificate was verified. */
		event_del(c->close_timer);
		c->tls->peer(bev, c->tls_peer, sizeof(c->tls_peer), c->tls_version,
			     sizeof(c->tls_version));
		cache_log(c, LOG_LVL_INFO, "TLS %s, certificate of %s verified", c->tls_version,
			  c->tls_peer);
		send_query(c);
		return;
	}
	if (c->closing) {
		conn_fail(c);
		return;
	}
	if (c->state == RTR_STATE_TLS_HANDSHAKE && (what & (BEV_EVENT_ERROR | BEV_EVENT_EOF))) {
		char why[200];

		c->tls->failure(bev, why, sizeof(why));
		set_error(c, "TLS handshake failed: %s", why);
	} else if (what & BEV_EVENT_EOF) {
		set_error(c, "the cache closed the connection");
	} else if (what & BEV_EVENT_ERROR) {
		int e = EVUTIL_SOCKET_ERROR();

		set_error(c, "connection error: %s", e ? strerror(e) : "unknown");
	} else {
		return;
	}
	conn_fail(c);
}

static void read_cb(struct bufferevent *bev, void *arg)
{
	(void)bev;
	input_process(arg);
}

static void input_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	input_process(arg);
}

/* The transport is up (TCP connected, or TLS verified next): start the protocol. */
static void conn_ready(struct rtr_cache *c, struct bufferevent *bev, bool tls)
{
	c->bev = bev;
	c->fd = -1; /* the bufferevent owns it */
	c->connects++;
	bufferevent_setcb(bev, read_cb, write_cb, event_cb, c);
	bufferevent_setwatermark(bev, EV_READ, 0, RTR_READ_HIGH_WATER);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	c->version = c->version_try;
	if (tls) {
		set_state(c, RTR_STATE_TLS_HANDSHAKE);
		response_wait(c);
		return;
	}
	send_query(c);
}

static void connected(struct rtr_cache *c)
{
	struct bufferevent *bev;
	char why[200];
	int fd = c->fd;

	event_free(c->connect_ev);
	c->connect_ev = NULL;
	event_del(c->close_timer);
	if (c->cfg.transport == RTR_TRANSPORT_TLS) {
		bev = c->tls->bev_new(c->base, c->ssl_ctx, fd, &c->cfg, why, sizeof(why));
		if (!bev) {
			set_error(c, "TLS: %s", why);
			conn_fail(c);
			return;
		}
		conn_ready(c, bev, true);
		return;
	}
	bev = bufferevent_socket_new(c->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		set_error(c, "cannot create a bufferevent (out of memory?)");
		conn_fail(c);
		return;
	}
	conn_ready(c, bev, false);
}

static void connect_cb(int fd, short what, void *arg)
{
	struct rtr_cache *c = arg;
	socklen_t len = sizeof(int);
	int err = 0;

	(void)what;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err) {
		set_error(c, "connect to %s port %u failed: %s", c->cfg.host, c->cfg.port,
			  strerror(err));
		conn_fail(c);
		return;
	}
	connected(c);
}

static void connect_addr(struct rtr_cache *c)
{
	struct sockaddr_storage ss;
	struct kernel_sec_err kerr;
	socklen_t slen;
	int fd;

	c->peer = c->addrs[c->addr_idx];
	set_state(c, RTR_STATE_CONNECTING);
	fd = socket(c->peer.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		set_error(c, "socket: %s", strerror(errno));
		conn_fail(c);
		return;
	}
	c->fd = fd;
	if (c->cfg.source) {
		struct ipaddr src;

		if (ipaddr_from_str(&src, c->cfg.source) < 0 || src.family != c->peer.family) {
			set_error(c, "source %s is not an address of the cache's family",
				  c->cfg.source);
			conn_fail(c);
			return;
		}
		slen = ipaddr_to_sockaddr(&src, 0, &ss);
		if (bind(fd, (struct sockaddr *)&ss, slen) < 0) {
			set_error(c, "cannot bind source %s: %s (is it a local address?)",
				  c->cfg.source, strerror(errno));
			conn_fail(c);
			return;
		}
	}
	/* Fail closed (kernel_security.h): no key, no connection. */
	if (c->cfg.password && kernel_md5_set(fd, &c->peer, c->cfg.password, &kerr) < 0) {
		set_error(c, "TCP-MD5: %s", kerr.msg);
		conn_fail(c);
		return;
	}
	slen = ipaddr_to_sockaddr(&c->peer, c->cfg.port, &ss);
	if (connect(fd, (struct sockaddr *)&ss, slen) == 0) {
		connected(c);
		return;
	}
	if (errno != EINPROGRESS) {
		set_error(c, "connect to %s port %u failed: %s", c->cfg.host, c->cfg.port,
			  strerror(errno));
		conn_fail(c);
		return;
	}
	c->connect_ev = event_fd_new(c->base, fd, EV_WRITE_FLAG, connect_cb, c);
	if (!c->connect_ev || event_add(c->connect_ev) < 0) {
		set_error(c, "cannot watch the connecting socket");
		conn_fail(c);
		return;
	}
	response_wait(c);
}

static void dns_cb(int result, struct evutil_addrinfo *res, void *arg)
{
	struct rtr_cache *c = arg;

	if (result == EVUTIL_EAI_CANCEL)
		return; /* the cache may be gone: conn_close() cancelled us */
	c->dns_req = NULL;
	if (result != 0 || !res) {
		set_error(c, "cannot resolve %s: %s", c->cfg.host, evutil_gai_strerror(result));
		if (res)
			evutil_freeaddrinfo(res);
		conn_fail(c);
		return;
	}
	c->naddrs = 0;
	c->addr_idx = 0;
	for (struct evutil_addrinfo *ai = res; ai && c->naddrs < RTR_ADDRS_MAX; ai = ai->ai_next)
		if (ipaddr_from_sockaddr(&c->addrs[c->naddrs], NULL, ai->ai_addr) == 0)
			c->naddrs++;
	evutil_freeaddrinfo(res);
	if (c->naddrs == 0) {
		set_error(c, "%s resolved to no IPv4 or IPv6 address", c->cfg.host);
		conn_fail(c);
		return;
	}
	connect_addr(c);
}

static void connect_begin(struct rtr_cache *c)
{
	struct evutil_addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct evdns_getaddrinfo_request *req;

	event_del(c->retry_timer);
	c->addr_idx = 0;
	if (ipaddr_from_str(&c->addrs[0], c->cfg.host) == 0) {
		c->naddrs = 1;
		connect_addr(c);
		return;
	}
	set_state(c, RTR_STATE_RESOLVING);
	req = evdns_getaddrinfo(rtr_dns_base(c->base), c->cfg.host, NULL, &hints, dns_cb, c);
	if (req)
		c->dns_req = req; /* else the callback has run already */
}

/* ---- the protocol ---- */

static void send_query(struct rtr_cache *c)
{
	struct rtr_pdu q = { .version = c->version };
	uint8_t b[16];
	int n;

	if (c->have_serial) {
		q.type = RTR_PDU_SERIAL_QUERY;
		q.session_id = c->session_id;
		q.u.serial = c->serial;
	} else {
		q.type = RTR_PDU_RESET_QUERY;
	}
	n = rtr_pdu_encode(&q, b, sizeof(b));
	send_bytes(c, b, (size_t)n);
	c->query_pending = true;
	c->query_was_reset = !c->have_serial;
	set_state(c, RTR_STATE_SYNCING);
	response_wait(c);
}

static void refresh_cb(int fd, short what, void *arg)
{
	struct rtr_cache *c = arg;

	(void)fd;
	(void)what;
	if (c->bev && !c->closing && c->state == RTR_STATE_ESTABLISHED)
		send_query(c);
}

static uint32_t clamp(struct rtr_cache *c, const char *name, uint32_t v, uint32_t lo, uint32_t hi)
{
	if (v >= lo && v <= hi)
		return v;
	cache_log(c, LOG_LVL_WARNING,
		  "End of Data %s interval %u out of RFC 8210 6's %u..%u: using %u", name, v, lo,
		  hi, v < lo ? lo : hi);
	return v < lo ? lo : hi;
}

/* Map the store's verdict on one record to the Error Report it calls for. */
static uint16_t store_error_code(int ret)
{
	switch (ret) {
	case -EEXIST:
		return RTR_ERR_DUPLICATE_ANNOUNCEMENT;
	case -ENOENT:
		return RTR_ERR_WITHDRAWAL_UNKNOWN;
	case -EINVAL:
		return RTR_ERR_CORRUPT_DATA;
	default:
		return RTR_ERR_INTERNAL;
	}
}

static int on_cache_response(struct rtr_cache *c, const struct rtr_pdu *p, const uint8_t *b,
			     size_t len)
{
	char name[RTR_HOST_MAX + 16];

	if (!c->query_pending || c->in_response) {
		protocol_error(c, RTR_ERR_CORRUPT_DATA, b, len, "Cache Response without a query");
		return -1;
	}
	/* RFC 8210 5.1: a new session id means our data is stale: flush it and start over. */
	if (!c->query_was_reset && p->session_id != c->session_id) {
		cache_log(c, LOG_LVL_NOTICE,
			  "session id changed (%u -> %u): data flushed, resetting", c->session_id,
			  p->session_id);
		data_drop(c);
		conn_close(c);
		connect_begin(c);
		return -1;
	}
	if (c->source < 0) {
		snprintf(name, sizeof(name), "%s %u", c->cfg.host, c->cfg.port);
		c->source = rpki_source_add(c->db, name);
		if (c->source < 0) {
			c->source = -1;
			protocol_error(c, RTR_ERR_INTERNAL, NULL, 0,
				       "the router cannot take data from one more cache");
			return -1;
		}
	}
	c->query_pending = false;
	c->in_response = true;
	c->txn = rpki_txn_begin(c->db, c->source, c->query_was_reset);
	rtr_aspa_begin(&c->aspa, c->query_was_reset);
	c->session_id = p->session_id;
	return 0;
}

static int on_prefix(struct rtr_cache *c, const struct rtr_pdu *p, const uint8_t *b, size_t len)
{
	struct rpki_vrp vrp;
	int ret;

	memset(&vrp, 0, sizeof(vrp));
	vrp.prefix.family = p->type == RTR_PDU_IPV6_PREFIX ? AF_INET6 : AF_INET;
	vrp.prefix.len = p->u.prefix.prefix_len;
	memcpy(&vrp.prefix.u, p->u.prefix.addr, p->type == RTR_PDU_IPV6_PREFIX ? 16 : 4);
	prefix_apply_mask(&vrp.prefix); /* host bits a cache left set mean nothing */
	vrp.max_len = p->u.prefix.max_len;
	vrp.asn = p->u.prefix.asn;
	ret = rpki_txn_vrp(c->txn, &vrp, p->u.prefix.flags & RTR_FLAG_ANNOUNCE);
	if (ret < 0) {
		uint16_t code = store_error_code(ret);

		protocol_error(c, code, b, len,
			       code == RTR_ERR_DUPLICATE_ANNOUNCEMENT ? "prefix already announced"
			       : code == RTR_ERR_WITHDRAWAL_UNKNOWN
				       ? "withdrawal of a prefix never announced"
				       : "prefix rejected");
		return -1;
	}
	return 0;
}

static int on_end_of_data(struct rtr_cache *c, const struct rtr_pdu *p, const uint8_t *b,
			  size_t len)
{
	int ret;

	if (p->session_id != c->session_id) {
		protocol_error(c, RTR_ERR_CORRUPT_DATA, b, len,
			       "End of Data with another session id than its Cache Response");
		return -1;
	}
	ret = rtr_aspa_commit(&c->aspa, c->txn);
	if (ret < 0) {
		protocol_error(c, store_error_code(ret), b, len,
			       "ASPA records rejected by the store");
		return -1;
	}
	rpki_txn_commit(c->txn);
	c->txn = NULL;
	c->in_response = false;
	c->serial = p->u.eod.serial;
	c->have_serial = true;
	if (p->version > 0) {
		c->refresh = clamp(c, "refresh", p->u.eod.refresh, REFRESH_MIN, REFRESH_MAX);
		c->retry = clamp(c, "retry", p->u.eod.retry, RETRY_MIN, RETRY_MAX);
		c->expire = clamp(c, "expire", p->u.eod.expire, EXPIRE_MIN, EXPIRE_MAX);
		c->eod_timers = true;
	}
	c->synced = true;
	c->failed = false;
	c->data_expired = false;
	c->last_sync = wallclock_s();
	event_del(c->close_timer); /* nothing owed until our next query */
	event_timer_add(c->expire_timer, ms(c->expire), 0);
	event_timer_add(c->refresh_timer, ms(c->refresh), 0);
	set_state(c, RTR_STATE_ESTABLISHED);
	rtr_mgr_changed();
	return 0;
}

/* Printable text of an Error Report (NULs and control bytes become '.'). */
static void er_text(const struct rtr_pdu *p, char *out, size_t size)
{
	size_t n = 0;

	for (uint32_t i = 0; i < p->u.error.text_len && n + 1 < size; i++) {
		unsigned char ch = (unsigned char)p->u.error.text[i];

		if (ch == '\0' && i + 1 == p->u.error.text_len)
			break; /* StayRTR's terminating NUL */
		out[n++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '.';
	}
	out[n] = '\0';
}

static int on_error_report(struct rtr_cache *c, const struct rtr_pdu *p)
{
	uint16_t code = p->u.error.code;
	char text[160];

	er_text(p, text, sizeof(text));
	c->errors_rx++;
	set_error(c, "cache sent Error Report %s (%u)%s%s", rtr_error_code_name(code), code,
		  text[0] ? ": " : "", text);
	cache_log(c, LOG_LVL_WARNING, "%s", c->last_error);
	if (code == RTR_ERR_UNSUPPORTED_VERSION && c->version > 0 && !c->version_agreed) {
		/* RFC 8210 7: try again at the cache's version, or one lower. */
		uint8_t v = p->version < c->version ? p->version : (uint8_t)(c->version - 1);

		cache_log(c, LOG_LVL_NOTICE, "version %u refused: reconnecting with version %u",
			  c->version, v);
		c->version_try = v;
		c->have_serial = false; /* a session id belongs to its version */
		conn_close(c);
		connect_begin(c);
		return -1;
	}
	/* Never answer an Error Report with one (RFC 8210 12). */
	conn_fail(c);
	return -1;
}

/* Version rules of RFC 8210 7, for every PDU but an Error Report. */
static int check_version(struct rtr_cache *c, const struct rtr_pdu *p, const uint8_t *b, size_t len)
{
	if (c->version_agreed) {
		if (p->version == c->version)
			return 0;
		protocol_error(c, RTR_ERR_UNEXPECTED_VERSION, b, len,
			       "PDU version differs from the session's");
		return -1;
	}
	if (p->version > c->version) {
		protocol_error(c, RTR_ERR_UNEXPECTED_VERSION, b, len,
			       "PDU version above the one we asked for");
		return -1;
	}
	if (p->version < c->version) {
		cache_log(c, LOG_LVL_NOTICE, "the cache answers with version %u: following it down",
			  p->version);
		c->version = c->version_try = p->version;
	}
	c->version_agreed = true;
	return 0;
}

/* One whole PDU. 0 to go on reading, -1 when the connection is closing or closed. */
static int on_pdu(struct rtr_cache *c, const uint8_t *b, size_t len)
{
	struct rtr_pdu_error err;
	struct rtr_pdu p;

	c->pdus_rx++;
	pdu_debug(c, "rcvd", b, len);
	/* Progress: the wait for the next PDU starts again (a Serial Notify is no answer). */
	if ((c->query_pending || c->in_response) && b[1] != RTR_PDU_SERIAL_NOTIFY)
		response_wait(c);
	if (rtr_pdu_decode(b, len, &p, &err) < 0) {
		if (len >= 2 && b[1] == RTR_PDU_ERROR_REPORT) {
			set_error(c, "malformed Error Report from the cache: %s", err.why);
			c->errors_rx++;
			conn_fail(c);
			return -1;
		}
		protocol_error(c, err.code, b, len, err.why);
		return -1;
	}
	if (p.type == RTR_PDU_ERROR_REPORT)
		return on_error_report(c, &p);
	if (check_version(c, &p, b, len) < 0)
		return -1;
	switch (p.type) {
	case RTR_PDU_SERIAL_NOTIFY:
		/* RFC 8210 5.2: a hint; asked for when idle, ignored while a query runs. */
		if (c->state == RTR_STATE_ESTABLISHED && !c->query_pending && !c->in_response &&
		    (p.session_id != c->session_id || p.u.serial != c->serial))
			send_query(c);
		return 0;
	case RTR_PDU_CACHE_RESPONSE:
		return on_cache_response(c, &p, b, len);
	case RTR_PDU_IPV4_PREFIX:
	case RTR_PDU_IPV6_PREFIX:
	case RTR_PDU_ROUTER_KEY:
	case RTR_PDU_ASPA:
		if (!c->in_response) {
			protocol_error(c, RTR_ERR_CORRUPT_DATA, b, len,
				       "data PDU outside a Cache Response");
			return -1;
		}
		if (p.type == RTR_PDU_ASPA) {
			int code = rtr_aspa_apply(&c->aspa, &p);

			if (code) {
				protocol_error(c, (uint16_t)code, b, len,
					       code == RTR_ERR_WITHDRAWAL_UNKNOWN
						       ? "withdrawal of an ASPA never announced"
						       : "ASPA record malformed");
				return -1;
			}
			return 0;
		}
		if (p.type == RTR_PDU_ROUTER_KEY)
			return 0; /* no BGPsec: accepted, not kept */
		return on_prefix(c, &p, b, len);
	case RTR_PDU_END_OF_DATA:
		if (!c->in_response) {
			protocol_error(c, RTR_ERR_CORRUPT_DATA, b, len,
				       "End of Data outside a Cache Response");
			return -1;
		}
		return on_end_of_data(c, &p, b, len);
	case RTR_PDU_CACHE_RESET:
		/* RFC 8210 5.9: no incremental update possible; our data stays until the reset
		 * transaction replaces it. */
		if (!c->query_pending || c->in_response) {
			protocol_error(c, RTR_ERR_CORRUPT_DATA, b, len,
				       "Cache Reset without a query");
			return -1;
		}
		cache_log(c, LOG_LVL_INFO, "Cache Reset: sending a Reset Query");
		c->have_serial = false;
		send_query(c);
		return 0;
	default:
		/* Serial Query, Reset Query: a cache never sends them. */
		protocol_error(c, RTR_ERR_UNSUPPORTED_PDU_TYPE, b, len,
			       "a router does not accept this PDU type");
		return -1;
	}
}

static void input_process(struct rtr_cache *c)
{
	for (int n = 0; n < RTR_PDUS_PER_TURN; n++) {
		struct evbuffer *in;
		struct rtr_pdu_error err;
		uint32_t plen;
		uint8_t *b;
		size_t avail;
		int r;

		if (!c->bev || c->closing)
			return;
		in = bufferevent_get_input(c->bev);
		avail = evbuffer_get_length(in);
		if (avail < RTR_PDU_HEADER_LEN)
			return;
		b = evbuffer_pullup(in, RTR_PDU_HEADER_LEN);
		r = rtr_pdu_frame(b, avail, &plen, &err);
		if (r < 0) {
			c->pdus_rx++;
			pdu_debug(c, "rcvd", b, RTR_PDU_HEADER_LEN);
			protocol_error(c, err.code, b, RTR_PDU_HEADER_LEN, err.why);
			return;
		}
		if (avail < plen) {
			/* Let the buffer hold the whole PDU before the high-water mark stops us. */
			if (plen > RTR_READ_HIGH_WATER)
				bufferevent_setwatermark(c->bev, EV_READ, 0, plen);
			return;
		}
		b = evbuffer_pullup(in, plen);
		if (on_pdu(c, b, plen) < 0)
			return;
		if (c->bev)
			evbuffer_drain(bufferevent_get_input(c->bev), plen);
	}
	event_defer(c->input_ev); /* bounded work per loop turn */
}

/* ---- the manager's handle ---- */

/* One resolver for every cache, made on first use (most configurations name no host). */
static struct evdns_base *dns;
static struct event_base *dns_loop;

struct evdns_base *rtr_dns_base(struct event_base *base)
{
	if (!dns) {
		dns = evdns_base_new(base, EVDNS_BASE_INITIALIZE_NAMESERVERS |
						   EVDNS_BASE_DISABLE_WHEN_INACTIVE);
		dns_loop = base;
	}
	return dns;
}

/* After every cache is gone (their lookups cancelled by conn_close()). A cancelled lookup is
 * finished, and its memory freed, by a callback libevent defers to the next loop turn; at
 * shutdown the loop has stopped, so one non-blocking turn runs them before the resolver goes
 * (without it each lookup under way at exit leaked its request). */
void rtr_dns_free(void)
{
	if (!dns)
		return;
	event_base_loop(dns_loop, EVLOOP_NONBLOCK);
	evdns_base_free(dns, 0);
	dns = NULL;
	dns_loop = NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? XSTRDUP(MTYPE_RTR_CACHE, s) : NULL;
}

struct rtr_cache *rtr_session_new(struct event_base *base, struct rpki_db *db,
				  const struct rtr_cache_config *cfg, const struct rtr_timers *t)
{
	struct rtr_cache *c = XCALLOC(MTYPE_RTR_CACHE, sizeof(*c));

	c->cfg.transport = cfg->transport;
	c->cfg.host = XSTRDUP(MTYPE_RTR_CACHE, cfg->host);
	c->cfg.port = cfg->port;
	c->cfg.preference = cfg->preference;
	c->cfg.source = dup_or_null(cfg->source);
	c->cfg.password = dup_or_null(cfg->password);
	c->cfg.ca_file = dup_or_null(cfg->ca_file);
	c->cfg.client_cert = dup_or_null(cfg->client_cert);
	c->cfg.client_key = dup_or_null(cfg->client_key);
	c->base = base;
	c->db = db;
	c->source = -1;
	c->fd = -1;
	c->state = RTR_STATE_IDLE;
	c->state_since = wallclock_s();
	c->version_try = RTR_VERSION_MAX;
	c->refresh = t->polling_period;
	c->retry = t->retry_interval;
	c->expire = t->expire_interval;
	c->retry_timer = event_timer_new(base, retry_cb, c);
	c->refresh_timer = event_timer_new(base, refresh_cb, c);
	c->expire_timer = event_timer_new(base, expire_cb, c);
	c->close_timer = event_timer_new(base, close_cb, c);
	c->input_ev = event_defer_new(base, input_cb, c);
	c->log_limit = (struct log_limit)LOG_LIMIT_INIT(LOG_LIMIT_INTERVAL_MS, 30);
	c->debug_limit = (struct log_limit)LOG_LIMIT_INIT(1000, RTR_DEBUG_BURST);
	rtr_aspa_init(&c->aspa);
	return c;
}

void rtr_session_free(struct rtr_cache *c)
{
	if (!c)
		return;
	rtr_session_stop(c, true);
	rtr_aspa_fini(&c->aspa);
	event_free(c->retry_timer);
	event_free(c->refresh_timer);
	event_free(c->expire_timer);
	event_free(c->close_timer);
	event_free(c->input_ev);
	if (c->ssl_ctx)
		c->tls->ctx_free(c->ssl_ctx);
	XFREE(MTYPE_RTR_CACHE, c->cfg.host);
	XFREE(MTYPE_RTR_CACHE, c->cfg.source);
	XFREE(MTYPE_RTR_CACHE, c->cfg.password);
	XFREE(MTYPE_RTR_CACHE, c->cfg.ca_file);
	XFREE(MTYPE_RTR_CACHE, c->cfg.client_cert);
	XFREE(MTYPE_RTR_CACHE, c->cfg.client_key);
	XFREE(MTYPE_RTR_CACHE, c);
}

void rtr_session_start(struct rtr_cache *c)
{
	if (c->running)
		return;
	c->running = true;
	c->failed = false;
	if (c->cfg.transport == RTR_TRANSPORT_TLS && !c->ssl_ctx) {
		char why[200];

		c->tls = rtr_tls(why, sizeof(why));
		c->ssl_ctx = c->tls ? c->tls->ctx_new(&c->cfg, why, sizeof(why)) : NULL;
		if (!c->ssl_ctx) {
			set_error(c, "TLS: %s", why);
			conn_fail(c);
			return;
		}
	}
	connect_begin(c);
}

void rtr_session_stop(struct rtr_cache *c, bool drop)
{
	c->running = false;
	conn_close(c);
	event_del(c->retry_timer);
	if (drop)
		data_drop(c);
	set_state(c, RTR_STATE_IDLE);
}

void rtr_session_attach_fd(struct rtr_cache *c, int fd)
{
	conn_close(c);
	c->running = true;
	c->fd = fd;
	set_state(c, RTR_STATE_CONNECTING);
	connected(c);
}

void rtr_session_reset(struct rtr_cache *c)
{
	conn_close(c);
	c->have_serial = false;
	c->version_try = RTR_VERSION_MAX;
	if (c->running)
		connect_begin(c);
}

void rtr_session_timers(struct rtr_cache *c, const struct rtr_timers *t)
{
	if (c->eod_timers && c->version > 0)
		return; /* the cache's own intervals rule */
	c->refresh = t->polling_period;
	c->retry = t->retry_interval;
	c->expire = t->expire_interval;
}

void rtr_session_status(const struct rtr_cache *c, struct rtr_cache_status *s)
{
	memset(s, 0, sizeof(*s));
	s->config.transport = c->cfg.transport;
	s->config.host = c->cfg.host;
	s->config.port = c->cfg.port;
	s->config.preference = c->cfg.preference;
	s->config.source = c->cfg.source;
	s->config.password = c->cfg.password;
	s->config.ca_file = c->cfg.ca_file;
	s->config.client_cert = c->cfg.client_cert;
	s->config.client_key = c->cfg.client_key;
	s->state = c->state;
	s->data_expired = c->data_expired;
	s->version = c->version_agreed || c->have_serial ? c->version : c->version_try;
	s->session_id = c->session_id;
	s->serial = c->serial;
	s->have_serial = c->have_serial;
	s->refresh = c->refresh;
	s->retry = c->retry;
	s->expire = c->expire;
	s->last_sync = c->last_sync;
	s->state_since = c->state_since;
	if (c->source >= 0) {
		s->vrps_v4 = rpki_source_vrp_count(c->db, c->source, AF_INET);
		s->vrps_v6 = rpki_source_vrp_count(c->db, c->source, AF_INET6);
		s->aspas = rpki_source_aspa_count(c->db, c->source);
	}
	s->pdus_rx = c->pdus_rx;
	s->pdus_tx = c->pdus_tx;
	s->errors_rx = c->errors_rx;
	s->errors_tx = c->errors_tx;
	s->connects = c->connects;
	snprintf(s->last_error, sizeof(s->last_error), "%s", c->last_error);
	snprintf(s->tls_peer, sizeof(s->tls_peer), "%s", c->tls_peer);
	snprintf(s->tls_version, sizeof(s->tls_version), "%s", c->tls_version);
}
