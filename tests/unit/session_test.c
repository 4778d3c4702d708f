/* SPDX-License-Identifier: ISC */
/* Harness of the session side's tests: see session_test.h. */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"
#include "lib/log.h"
#include "tests/unit/session_test.h"

struct rib_calls rib_calls;

/* Defined by the configuration layer in the daemon (bgpd/config/bgp_nb_config.c). */
DEFINE_MTYPE(BGP_PEER_CONF, "BGP peer configuration strings");
struct event_base *st_base;

/* ---- doubles of the RIB side (bgpd/core/bgp_msg.h, bgpd/rib/bgp_rib_api.h) ---- */

struct bgp_rib *rib_new(struct bgp *bgp, const struct bgp_session_ops *sops)
{
	(void)sops;
	return NULL;
}

void rib_free(struct bgp_rib *rib)
{
}

/* No RIB: nothing watches the RPKI store (bgpd/rib/bgp_rib_rpki.h). */
void rib_rpki_watch(struct bgp_rib *rib, bool on)
{
	(void)rib;
	(void)on;
}

void bgp_redist_changed(struct bgp *bgp)
{
	(void)bgp;
}

/* neighbor X default-originate: the RIB's (check_bgp_deforig). */
void rib_default_originate_changed(struct bgp *bgp)
{
	(void)bgp;
}

/* aggregate-address ... route-map|suppress-map: the RIB's (check_bgp_aggregate). */
void rib_aggregate_policy_changed(struct bgp *bgp)
{
	(void)bgp;
}

/* network P route-map NAME is run again by the forwarding side (check_bgp_network_rmap). */
void bgp_network_check_policy_changed(void)
{
}

/* What passes bgp network import-check is the forwarding side's (check_bgp_nexthop). */
void bgp_network_check_sync(struct bgp *bgp)
{
	(void)bgp;
	rib_calls.net_sync++;
}

/* The RIB's re-evaluation after policy changes (bgpd/rib/bgp_policy_reeval.h). */
void bgp_policy_changed(struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir)
{
	(void)peer;
	(void)af;
	(void)dir;
}

void bgp_policy_plist_changed(struct bgp *bgp, int family, const char *name)
{
	(void)bgp;
	(void)family;
	(void)name;
}

void bgp_policy_aspath_changed(struct bgp *bgp, const char *name)
{
	(void)bgp;
	(void)name;
}

void bgp_policy_rmap_changed(struct bgp *bgp)
{
	(void)bgp;
}

void bgp_policy_fini(struct bgp *bgp)
{
	(void)bgp;
}

void rib_fib_instance(struct bgp_rib *rib, bool up)
{
	(void)rib;
	(void)up;
}

void rib_peer_attach(struct bgp_peer *peer)
{
	rib_calls.attach++;
}

void rib_peer_detach(struct bgp_peer *peer)
{
	rib_calls.detach++;
}

void rib_peer_up(struct bgp_peer *peer, const struct bgp_session_info *info)
{
	rib_calls.up++;
	rib_calls.last_info = *info;
}

void rib_peer_down(struct bgp_peer *peer)
{
	rib_calls.down++;
}

void rib_peer_down_graceful(struct bgp_peer *peer)
{
	rib_calls.down_graceful++;
}

void rib_peer_gr_flush(struct bgp_peer *peer)
{
	rib_calls.gr_flush++;
}

void rib_update_received(struct bgp_peer *peer, struct bgp_update *upd)
{
	rib_calls.updates++;
	rib_calls.last_update_announced_ipv4 = upd->has_announced[BGP_AF_IPV4_UNICAST];
	bgp_update_release(upd);
}

void rib_prefetch(struct bgp_peer *peer, const struct bgp_update_peek *pk)
{
	if (rib_calls.prefetches < array_size(rib_calls.updates_at_prefetch))
		rib_calls.updates_at_prefetch[rib_calls.prefetches] = rib_calls.updates;
	rib_calls.prefetches++;
	for (int af = 0; af < BGP_AF_MAX; af++)
		rib_calls.prefetched += pk->n[af];
}

void rib_route_refresh_received(struct bgp_peer *peer, enum bgp_af af)
{
	rib_calls.refresh++;
}

/* Our own resend (clear soft out): counted with the peer's requests, the same work. */
void rib_resend(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
	rib_calls.refresh++;
}

void rib_refresh_begin_received(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
	rib_calls.borr++;
}

void rib_refresh_end_received(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
	rib_calls.eorr++;
}

void rib_max_prefix_check(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
}

bool rib_soft_reconfig_in(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	if (!(rib_calls.kept_af_mask & (1u << af)))
		return false; /* nothing kept: the session side asks the peer */
	rib_calls.soft_in++;
	return true;
}

bool rib_adj_in_kept(const struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	return (rib_calls.kept_af_mask & (1u << af)) != 0;
}

void rib_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
}

void rib_peer_writable(struct bgp_peer *peer)
{
	rib_calls.writable++;
}

void rib_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	rib_calls.net_add++;
}

void rib_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	rib_calls.net_del++;
}

uint32_t rib_peer_accepted(const struct bgp_peer *peer, enum bgp_af af)
{
	return 0;
}

uint32_t rib_peer_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	return 0;
}

/* The double's default-originate: sent when unconditional, not sent with a route-map (the
 * RIB's own evaluation is check_bgp_deforig's). */
bool rib_peer_default_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	return peer->conf.default_originate[af] && !peer->conf.default_rmap[af];
}

/* Graceful restart's RIB side: no End-of-RIB, no timer. */
bool rib_peer_eor_sent(const struct bgp_peer *peer, enum bgp_af af)
{
	return false;
}

bool rib_peer_eor_rcvd(const struct bgp_peer *peer, enum bgp_af af)
{
	return false;
}

int64_t rib_peer_gr_restart_remaining(const struct bgp_peer *peer)
{
	return -1;
}

int64_t rib_peer_gr_stale_remaining(const struct bgp_peer *peer)
{
	return -1;
}

uint64_t rib_table_version(const struct bgp *bgp)
{
	return 0;
}

uint64_t rib_af_table_version(const struct bgp *bgp, enum bgp_af af)
{
	return 0;
}

size_t rib_af_count(const struct bgp *bgp, enum bgp_af af)
{
	return 0;
}

size_t rib_af_memory(const struct bgp *bgp, enum bgp_af af)
{
	return 0;
}

/* ---- set-up ---- */

void st_setup(void)
{
	struct bgp *bgp;

	memset(&rib_calls, 0, sizeof(rib_calls));
	st_base = event_loop_new();
	ck_assert_ptr_nonnull(st_base);
	bgp = bgp_create(ST_LOCAL_AS, st_base);
	ck_assert_ptr_nonnull(bgp);
	bgp->router_id_configured = true;
	inet_pton(AF_INET, ST_LOCAL_ID, &bgp->router_id);
	/* As the lab's configs (`no bgp ebgp-requires-policy`): the session tests exchange
	 * eBGP routes without policy; check_bgp_show turns RFC 8212 on where it tests it. */
	bgp->ebgp_requires_policy = false;
}

void st_teardown(void)
{
	bgp_delete(bgp_get());
	bgp_network_stop();
	event_loop_free(st_base);
	st_base = NULL;
}

struct bgp_peer *st_peer(const char *addr, uint32_t remote_as, bool passive)
{
	struct ipaddr a;
	struct bgp_peer *peer;

	ck_assert_int_eq(ipaddr_from_str(&a, addr), 0);
	peer = bgp_peer_create(bgp_get(), &a);
	ck_assert_ptr_nonnull(peer);
	peer->conf.remote_as = remote_as;
	peer->conf.passive = passive;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_REMOTE_AS);
	return peer;
}

bool st_pump_until(bool (*cond)(void *arg), void *arg, int ms)
{
	uint64_t end = monotime_ms() + (uint64_t)ms;

	do {
		event_loop_once(st_base, false);
		if (cond && cond(arg))
			return true;
		usleep(200);
	} while (monotime_ms() < end);
	return cond ? cond(arg) : true;
}

void st_pump(int ms)
{
	st_pump_until(NULL, NULL, ms);
}

struct state_wait {
	struct bgp_peer *peer;
	enum bgp_fsm_state st;
};

static bool state_reached(void *arg)
{
	struct state_wait *w = arg;

	return bgp_session_state(w->peer) == w->st;
}

bool st_state_is(struct bgp_peer *peer, enum bgp_fsm_state st, int ms)
{
	struct state_wait w = { peer, st };

	return st_pump_until(state_reached, &w, ms);
}

/* ---- the remote speaker ---- */

int st_listen(uint16_t *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;

	ck_assert_int_ge(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(listen(fd, 8), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

int st_accept(int lfd, int ms)
{
	uint64_t end = monotime_ms() + (uint64_t)ms;

	do {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);

		if (fd >= 0)
			return fd;
		event_loop_once(st_base, false);
		usleep(200);
	} while (monotime_ms() < end);
	return -1;
}

int st_connect(const char *src, uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	ck_assert_int_ge(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	inet_pton(AF_INET, src, &sin.sin_addr);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	sin.sin_port = htons(port);
	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	return fd;
}

static size_t put_header(uint8_t *buf, uint16_t len, uint8_t type)
{
	memset(buf, 0xff, 16);
	buf[16] = (uint8_t)(len >> 8);
	buf[17] = (uint8_t)len;
	buf[18] = type;
	return 19;
}

/* An OPEN with MP IPv4 unicast, route refresh and 4-octet AS capabilities. */
size_t st_open_msg(uint8_t *buf, uint32_t asn, uint16_t hold, const char *id)
{
	static const uint8_t mp[] = { 2, 6, 1, 4, 0, 1, 0, 1 };
	static const uint8_t rr[] = { 2, 2, 2, 0 };
	struct in_addr a;
	size_t n = 19;
	uint16_t my_as = asn > 65535 ? 23456 : (uint16_t)asn;

	inet_pton(AF_INET, id, &a);
	buf[n++] = 4;
	buf[n++] = (uint8_t)(my_as >> 8);
	buf[n++] = (uint8_t)my_as;
	buf[n++] = (uint8_t)(hold >> 8);
	buf[n++] = (uint8_t)hold;
	memcpy(buf + n, &a, 4);
	n += 4;
	buf[n++] = sizeof(mp) + sizeof(rr) + 8; /* optional parameters length */
	memcpy(buf + n, mp, sizeof(mp));
	n += sizeof(mp);
	memcpy(buf + n, rr, sizeof(rr));
	n += sizeof(rr);
	buf[n++] = 2;
	buf[n++] = 6;
	buf[n++] = 65;
	buf[n++] = 4;
	buf[n++] = (uint8_t)(asn >> 24);
	buf[n++] = (uint8_t)(asn >> 16);
	buf[n++] = (uint8_t)(asn >> 8);
	buf[n++] = (uint8_t)asn;
	put_header(buf, (uint16_t)n, 1);
	return n;
}

void st_send(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			event_loop_once(st_base, false);
			continue;
		}
		ck_assert_int_gt(n, 0);
		p += n;
		len -= (size_t)n;
	}
}

void st_send_open(int fd, uint32_t asn, uint16_t hold, const char *id)
{
	uint8_t buf[128];

	st_send(fd, buf, st_open_msg(buf, asn, hold, id));
}

void st_send_keepalive(int fd)
{
	uint8_t buf[19];

	st_send(fd, buf, put_header(buf, 19, 4));
}

void st_send_notify(int fd, uint8_t code, uint8_t subcode)
{
	uint8_t buf[21];

	put_header(buf, 21, 3);
	buf[19] = code;
	buf[20] = subcode;
	st_send(fd, buf, 21);
}

/* Read exactly n bytes, pumping our loop while waiting. 1, 0 on EOF, -1 on timeout. */
static int read_full(int fd, uint8_t *buf, size_t n, uint64_t end)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = recv(fd, buf + got, n - got, MSG_DONTWAIT);

		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0 || (r < 0 && errno == ECONNRESET))
			return 0;
		if (monotime_ms() > end)
			return -1;
		event_loop_once(st_base, false);
		usleep(200);
	}
	return 1;
}

int st_recv(int fd, uint8_t *body, size_t size, size_t *len, int ms)
{
	uint64_t end = monotime_ms() + (uint64_t)ms;
	uint8_t hdr[19], tmp[65536];
	size_t blen;
	int r = read_full(fd, hdr, sizeof(hdr), end);

	if (r <= 0)
		return r;
	blen = (size_t)(hdr[16] << 8 | hdr[17]);
	ck_assert_uint_ge(blen, 19);
	blen -= 19;
	r = read_full(fd, tmp, blen, end);
	if (r <= 0)
		return r;
	if (body)
		memcpy(body, tmp, MIN(blen, size));
	if (len)
		*len = blen;
	return hdr[18];
}

int st_expect(int fd, int type, uint8_t *body, size_t size, size_t *len, int ms)
{
	uint64_t end = monotime_ms() + (uint64_t)ms;

	for (;;) {
		int left = (int)(end > monotime_ms() ? end - monotime_ms() : 0);
		int t = st_recv(fd, body, size, len, left);

		if (t <= 0 || t == type)
			return t;
	}
}

int st_establish_outgoing(struct bgp_peer *peer, int lfd, uint32_t remote_as, const char *id)
{
	int fd;

	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(st_expect(fd, 1, NULL, 0, NULL, 2000), 1);
	st_send_open(fd, remote_as, 180, id);
	st_send_keepalive(fd);
	ck_assert(st_state_is(peer, BGP_ST_ESTABLISHED, 2000));
	return fd;
}

/* ---- a strict JSON checker: exactly one value, nothing after it ---- */

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *js_value(const char *p);

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (!*p || !strchr("\"\\/bfnrtu", *p))
				return NULL;
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_container(const char *p, char close, bool object)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(js_ws(p));
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p)
{
	p = js_ws(p);
	if (*p == '{')
		return js_container(p, '}', true);
	if (*p == '[')
		return js_container(p, ']', false);
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
		return p;
	}
	return NULL;
}

bool st_json_valid(const char *s)
{
	const char *end = js_value(s);

	return end && *js_ws(end) == '\0';
}

/* The document without whitespace outside strings, to look for "key":value pairs. */
char *st_json_compact(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	bool in_str = false;

	for (; *s; s++) {
		if (in_str) {
			*o++ = *s;
			if (*s == '\\' && s[1])
				*o++ = *++s;
			else if (*s == '"')
				in_str = false;
		} else if (*s == '"') {
			in_str = true;
			*o++ = *s;
		} else if (!isspace((unsigned char)*s)) {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

void st_json_has(const char *doc, const char *needle)
{
	char *c = st_json_compact(doc);

	ck_assert_msg(strstr(c, needle), "missing %s in %s", needle, c);
	free(c);
}

void st_text_has(const char *doc, const char *needle)
{
	ck_assert_msg(strstr(doc, needle), "missing [%s] in:\n%s", needle, doc);
}

struct log_find {
	const char *needles[4];
	bool found;
};

static void log_match(const char *line, void *arg)
{
	struct log_find *f = arg;

	for (int i = 0; i < 4 && f->needles[i]; i++)
		if (!strstr(line, f->needles[i]))
			return;
	f->found = true;
}

bool st_logged(const char *a, const char *b, const char *c)
{
	struct log_find f = { { a, b, c, NULL }, false };

	log_ring_walk(log_match, &f);
	return f.found;
}
