/* SPDX-License-Identifier: ISC */
/*
 * bgp_blaster: a minimal, fast BGP-4 speaker for benchmarks and lab tests, built on skua's
 * wire codec. One session per process, actively connected or accepted. As an injector it
 * sends N IPv4 or IPv6 prefixes as fast as the socket takes them (or at a set rate), then
 * End-of-RIB (RFC 4724 2), and keeps the session up. As a sink it decodes every UPDATE and
 * counts the prefixes it holds (announced and not withdrawn since, each prefix once), and
 * reports when the count reaches an expected number. Both roles can be combined. Everything
 * is bounded by --timeout. Machine-readable output: one JSON object per line on stdout; text
 * for people on stderr. Run with --help for the options and exit codes.
 *
 * Not a BGP implementation to route with: no RIB, no policy, no reconnection after the
 * session was established, ROUTE-REFRESH requests ignored.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench/blaster.h"
#include "bench/blaster_shape.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_open.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/memory.h"
#include "lib/prefix.h"

DEFINE_MTYPE(BLASTER_BUF, "bgp_blaster buffers");

enum blaster_exit {
	EXIT_GOAL = 0,	    /* every goal met */
	EXIT_USAGE = 1,	    /* bad command line */
	EXIT_SESSION = 2,   /* NOTIFICATION, closed, hold timer expired, OPEN refused */
	EXIT_TIMEOUT = 3,   /* --timeout reached before the goals */
	EXIT_SYSTEM = 4,    /* a system call failed (socket, bind, listen...) */
	EXIT_INTERRUPT = 5, /* SIGINT/SIGTERM before the goals */
};

#define RBUF_SIZE (1u << 20)
#define WBUF_SIZE (1u << 20)
#define RETRY_INTERVAL 0.25 /* s between connection attempts before Established */

struct opts {
	struct ipaddr peer;   /* --connect */
	struct ipaddr listen; /* --listen */
	bool active, passive;
	struct ipaddr bind; /* --bind (active mode source) */
	bool has_bind;
	uint16_t port;
	uint32_t local_as, peer_as;
	struct in_addr router_id;
	bool has_router_id;
	uint16_t holdtime;
	int keepalive;	     /* -1 = holdtime / 3 */
	bool af[BGP_AF_MAX]; /* MP capabilities advertised */
	bool ext_message;
	/* injector */
	uint64_t inject;
	enum bgp_af inject_af;
	struct prefix start;
	bool has_start;
	unsigned plen;
	bool random_order;
	uint64_t seed;
	uint64_t per_set;     /* prefixes per attribute set, 0 = one set for all */
	char as_path[512];    /* ASes after ours */
	uint32_t path_len;    /* up to this many transit ASes per set */
	uint32_t communities; /* up to this many communities per set */
	struct in_addr nh4;
	struct in6_addr nh6;
	bool has_nh4, has_nh6;
	uint64_t rate; /* prefixes per second, 0 = as fast as the socket takes them */
	bool no_eor;
	bool send_on_signal; /* --send-on-signal: the table waits for SIGUSR2 */
	bool shape_internet; /* --shape internet: lengths, sets, paths as in full tables */
	/* sink */
	uint64_t expect;
	bool raw_count;
	bool until_eor;
	/* common */
	double timeout;
	double linger;	 /* after the goals: <0 until timeout or signal */
	double progress; /* JSON progress lines every N s, 0 = none */
	bool quiet;
	const char *name; /* "name" field of every JSON line */
};

enum state { ST_IDLE, ST_CONNECT, ST_OPENSENT, ST_OPENCONFIRM, ST_ESTABLISHED };

struct blaster {
	struct opts o;
	enum state st;
	int fd, lfd;
	double t_start, deadline, next_retry;
	/* I/O */
	uint8_t *rbuf, *wbuf;
	size_t rlen, wlen, woff;
	bool ext_msg;
	/* session */
	struct bgp_open_local local;
	struct bgp_open_result res;
	struct bgp_codec_ctx ctx;
	double last_rx, next_ka, hold;
	struct in_addr router_id;
	struct ipaddr local_addr;
	double t_established;
	/* injector */
	uint64_t sent;	      /* prefixes handed to the send buffer */
	uint64_t perm_mul;    /* random order: index -> index * mul mod n (mul coprime to n) */
	uint64_t set_cur;     /* attribute set in use */
	struct bgp_attr attr; /* its template (aspath referenced) */
	bool attr_valid;
	bool eor_queued;
	bool sent_all;	    /* every prefix and the EoR written to the socket */
	struct shape shape; /* with --shape internet */
	/* Explicit withdrawal of the whole table on SIGUSR1, once it has been sent. */
	bool withdrawing, withdrawn_all;
	uint64_t wd_sent;
	uint64_t wd_first_pos, wd_end_pos; /* UINT64_MAX until queued */
	double t_first_withdraw, t_last_withdraw;
	/* Positions in the byte stream sent (bytes ever queued / written), so that the times
	 * are those at which the socket took the bytes, not at which they were built. */
	uint64_t queued_total, written_total;
	uint64_t first_update_pos; /* UINT64_MAX until the first UPDATE is queued */
	uint64_t table_end_pos;	   /* UINT64_MAX until the End-of-RIB is queued */
	uint64_t out_updates, out_bytes;
	double t_first_update, t_last_update, t_rate0;
	/* sink */
	struct pset set;
	uint64_t count; /* prefixes held */
	uint64_t announced, withdrawn, in_updates, in_bytes;
	uint64_t taw; /* UPDATEs treated as withdraw (RFC 7606) */
	bool eor[BGP_AF_MAX];
	double t_first_rx_update, t_last_prefix, t_eor, t_reached;
	bool reached;
	uint64_t emptied; /* times the count fell back to 0 after reaching --expect */
	/* end */
	bool goals_met;
	double t_goals;
	double next_progress;
	int exit_code;
	bool done;
};

static volatile sig_atomic_t got_signal, got_withdraw, got_send;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* SIGUSR1: withdraw everything injected, explicitly, once the table has been sent. */
static void on_withdraw_signal(int sig)
{
	(void)sig;
	got_withdraw = 1;
}

/* SIGUSR2, with --send-on-signal: send the table now (the session may be up already). */
static void on_send_signal(int sig)
{
	(void)sig;
	got_send = 1;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ======================================================================================
 * Output
 * ====================================================================================== */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* {"event":EVENT,"name":NAME,"t":NOW, then the caller's fields */
static void json_begin(struct blaster *b, const char *event)
{
	printf("{\"event\":\"%s\",\"name\":", event);
	json_str(stdout, b->o.name);
	printf(",\"pid\":%d,\"t\":%.6f", (int)getpid(), now_mono());
}

static void json_end(void)
{
	printf("}\n");
	fflush(stdout);
}

static void json_time(const char *key, double t)
{
	if (t > 0)
		printf(",\"%s\":%.6f", key, t);
	else
		printf(",\"%s\":null", key);
}

static void say(struct blaster *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct blaster *b, const char *fmt, ...)
{
	va_list ap;

	if (b->o.quiet)
		return;
	fprintf(stderr, "bgp_blaster[%s]: ", b->o.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void report_counts(struct blaster *b)
{
	printf(",\"state\":\"%s\"", b->st == ST_ESTABLISHED ? "established" : "not-established");
	printf(",\"sent\":%" PRIu64 ",\"out_updates\":%" PRIu64 ",\"out_bytes\":%" PRIu64, b->sent,
	       b->out_updates, b->out_bytes);
	printf(",\"count\":%" PRIu64 ",\"announced\":%" PRIu64 ",\"withdrawn\":%" PRIu64
	       ",\"in_updates\":%" PRIu64 ",\"in_bytes\":%" PRIu64,
	       b->count, b->announced, b->withdrawn, b->in_updates, b->in_bytes);
	printf(",\"treat_as_withdraw\":%" PRIu64, b->taw);
}

/* The final line: everything a harness needs, whatever the outcome. */
static void report_final(struct blaster *b, const char *why)
{
	json_begin(b, "result");
	printf(",\"exit\":%d,\"why\":", b->exit_code);
	json_str(stdout, why);
	report_counts(b);
	printf(",\"inject\":%" PRIu64 ",\"expect\":%" PRIu64 ",\"reached\":%s", b->o.inject,
	       b->o.expect, b->reached ? "true" : "false");
	printf(",\"sent_all\":%s", b->sent_all ? "true" : "false");
	json_time("t_start", b->t_start);
	json_time("t_established", b->t_established);
	json_time("t_first_update", b->t_first_update);
	json_time("t_last_update", b->t_last_update);
	json_time("t_first_rx_update", b->t_first_rx_update);
	json_time("t_last_prefix", b->t_last_prefix);
	json_time("t_reached", b->t_reached);
	json_time("t_eor", b->t_eor);
	if (b->t_first_update > 0 && b->t_last_update > 0)
		printf(",\"send_seconds\":%.6f", b->t_last_update - b->t_first_update);
	if (b->t_first_rx_update > 0 && b->t_last_prefix > 0)
		printf(",\"receive_seconds\":%.6f", b->t_last_prefix - b->t_first_rx_update);
	json_end();
}

static void finish(struct blaster *b, int code, const char *why)
{
	if (b->done)
		return;
	b->exit_code = code;
	b->done = true;
	if (code == EXIT_GOAL)
		say(b, "done: %s", why);
	else
		say(b, "stopping (exit %d): %s", code, why);
	report_final(b, why);
}

/* ======================================================================================
 * Socket and framing
 * ====================================================================================== */

static socklen_t sockaddr_of(const struct ipaddr *a, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		sin->sin_addr = a->u.v4;
		return sizeof(*sin);
	}
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	sin6->sin6_addr = a->u.v6;
	return sizeof(*sin6);
}

static void conn_close(struct blaster *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
	b->rlen = b->wlen = b->woff = 0;
	b->written_total = b->queued_total; /* what was queued is gone with the connection */
	b->st = ST_IDLE;
}

/* Move the unsent bytes to the front of the send buffer. */
static void compact(struct blaster *b)
{
	if (!b->woff)
		return;
	memmove(b->wbuf, b->wbuf + b->woff, b->wlen - b->woff);
	b->wlen -= b->woff;
	b->woff = 0;
}

/* Queue bytes for sending; the buffer always keeps room for control messages. */
static void queue(struct blaster *b, const void *data, size_t len)
{
	compact(b);
	if (b->wlen + len > WBUF_SIZE)
		return; /* cannot happen: the generator leaves a message's worth free */
	memcpy(b->wbuf + b->wlen, data, len);
	b->wlen += len;
	b->queued_total += len;
}

static void send_notification(struct blaster *b, uint8_t code, uint8_t subcode)
{
	uint8_t msg[64];
	size_t n = bgp_notify_encode(msg, sizeof(msg), code, subcode, NULL, 0);

	/* Best effort, blocking for at most a moment: the session ends anyway. */
	if (b->fd >= 0 && n) {
		struct pollfd pfd = { .fd = b->fd, .events = POLLOUT };

		if (poll(&pfd, 1, 200) > 0 && write(b->fd, msg, n) < 0)
			say(b, "could not send the NOTIFICATION: %s", strerror(errno));
	}
}

static void send_error_notification(struct blaster *b, const struct bgp_error *err)
{
	uint8_t msg[4096];
	size_t n = bgp_notify_encode_error(msg, sizeof(msg), err);

	if (b->fd >= 0 && n && write(b->fd, msg, n) < 0)
		say(b, "could not send the NOTIFICATION: %s", strerror(errno));
}

static int flush_out(struct blaster *b)
{
	while (b->woff < b->wlen) {
		/* Stamped before the call that hands the first UPDATE to the kernel. */
		double t = now_mono();
		ssize_t n = write(b->fd, b->wbuf + b->woff, b->wlen - b->woff);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return 0;
			return -1;
		}
		b->woff += (size_t)n;
		b->written_total += (uint64_t)n;
		if (b->t_first_update == 0 && b->written_total > b->first_update_pos)
			b->t_first_update = t;
		if (b->t_first_withdraw == 0 && b->written_total > b->wd_first_pos)
			b->t_first_withdraw = t;
	}
	if (b->withdrawing && !b->withdrawn_all && b->written_total >= b->wd_end_pos) {
		b->withdrawn_all = true;
		b->t_last_withdraw = now_mono();
		say(b, "withdrew %" PRIu64 " prefixes in %.3f s", b->wd_sent,
		    b->t_last_withdraw - b->t_first_withdraw);
		json_begin(b, "withdrawn");
		printf(",\"withdrawn_sent\":%" PRIu64, b->wd_sent);
		json_time("t_first_withdraw", b->t_first_withdraw);
		json_time("t_last_withdraw", b->t_last_withdraw);
		json_end();
	}
	if (!b->sent_all && b->written_total >= b->table_end_pos) {
		b->sent_all = true;
		b->t_last_update = now_mono();
		say(b,
		    "sent %" PRIu64 " prefixes in %" PRIu64 " UPDATEs (%" PRIu64 " bytes), "
		    "End-of-RIB included, in %.3f s",
		    b->sent, b->out_updates, b->out_bytes, b->t_last_update - b->t_first_update);
		json_begin(b, "sent");
		report_counts(b);
		json_time("t_first_update", b->t_first_update);
		json_time("t_last_update", b->t_last_update);
		json_end();
	}
	if (b->woff == b->wlen)
		b->woff = b->wlen = 0;
	return 0;
}

/* ======================================================================================
 * Injector: prefix generation and UPDATE packing
 * ====================================================================================== */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void setup_order(struct blaster *b)
{
	uint64_t n = b->o.inject, m;

	if (!b->o.random_order || n < 2) {
		b->perm_mul = 1;
		return;
	}
	/* A multiplier near n times the golden ratio, coprime to n: i -> i * m mod n is then
	 * a permutation that scatters neighbours across the range; the seed shifts it. */
	m = (uint64_t)((double)n * 0.6180339887) + (b->o.seed % n);
	m %= n;
	if (m < 2)
		m = 2;
	while (gcd64(m, n) != 1)
		m++;
	b->perm_mul = m;
}

/* Which prefix of the range goes out i-th. */
static void nth_prefix(const struct blaster *b, uint64_t i, struct prefix *p)
{
	uint64_t idx =
		b->o.random_order
			? (uint64_t)(((unsigned __int128)i * b->perm_mul + b->o.seed) % b->o.inject)
			: i;
	unsigned plen = b->o.plen;

	if (b->o.shape_internet) {
		shape_prefix(&b->shape, idx, p);
		return;
	}
	*p = b->o.start;
	p->len = (uint8_t)plen;
	if (p->family == AF_INET) {
		uint32_t base = ntohl(p->u.v4.s_addr);

		p->u.v4.s_addr = htonl(base + (uint32_t)(idx << (32 - plen)));
		return;
	}
	/* IPv6: add idx << (128 - plen) to the 128-bit start address. */
	unsigned __int128 a = 0, add;

	for (int k = 0; k < 16; k++)
		a = a << 8 | p->u.bytes[k];
	add = (unsigned __int128)idx << (128 - plen);
	a += add;
	for (int k = 15; k >= 0; k--) {
		p->u.bytes[k] = (uint8_t)a;
		a >>= 8;
	}
}

/* The range must hold inject prefixes of length plen from the start address on. */
static int check_range(const struct opts *o, char *why, size_t size)
{
	unsigned maxlen = o->start.family == AF_INET ? 32 : 128;
	unsigned __int128 a = 0, room;
	int nbytes = o->start.family == AF_INET ? 4 : 16;

	if (o->plen < 1 || o->plen > maxlen) {
		snprintf(why, size, "--plen must be between 1 and %u", maxlen);
		return -1;
	}
	for (int k = 0; k < nbytes; k++)
		a = a << 8 | o->start.u.bytes[k];
	/* Prefixes left from the start address to the top of the address space. */
	if (o->start.family == AF_INET)
		room = ((((unsigned __int128)1 << 32) - a) >> (32 - o->plen));
	else
		room = ((~(unsigned __int128)0 - a) >> (128 - o->plen)) + 1;
	if ((unsigned __int128)o->inject > room) {
		snprintf(why, size,
			 "%" PRIu64 " prefixes of length %u do not fit between the "
			 "start address and the end of the address space",
			 o->inject, o->plen);
		return -1;
	}
	return 0;
}

static void attr_release(struct blaster *b)
{
	if (!b->attr_valid)
		return;
	bgp_aspath_unref(b->attr.aspath);
	bgp_u32list_unref(b->attr.communities);
	bgp_attr_extra_unref(b->attr.extra);
	b->attr.extra = NULL;
	b->attr_valid = false;
}

/* A deterministic hash of (set, k) for the per-set variations. */
static uint32_t set_hash(uint64_t set, uint32_t k)
{
	uint64_t x = set * 0x9e3779b97f4a7c15ull + k * 0xbf58476d1ce4e5b9ull + 1;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 29;
	return (uint32_t)x;
}

/*
 * Attribute set `set`: ORIGIN IGP; AS_PATH = [our AS on eBGP] + --as-path + with several sets
 * 0..--path-len transit ASes and an origin AS of the set's own; 0..--communities
 * communities; NEXT_HOP (IPv4) or the MP_REACH_NLRI next hop (IPv6). Transit and origin ASes
 * are private-use (RFC 6996) from ranges the peers must not use themselves, or a receiver
 * rightly drops the route as a loop: transit 64512-64911, origin 4200000000-4289999999
 * (65512-65533 without 4-octet AS); communities ours:N.
 */
static int make_attr(struct blaster *b, uint64_t set)
{
	uint32_t comm[64];
	char path[1024];
	size_t n = 0;

	attr_release(b);
	memset(&b->attr, 0, sizeof(b->attr));
	path[0] = '\0';
	if (b->ctx.ebgp)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%" PRIu32 " ", b->o.local_as);
	if (b->o.as_path[0])
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%s ", b->o.as_path);
	if (b->o.shape_internet) {
		/* The path's length counts our own AS on eBGP: 1 is ours alone. */
		unsigned len = shape_path_len(b->o.seed, set), ours = b->ctx.ebgp ? 1 : 0;

		for (uint32_t k = 0; k + ours + 1 < len && n < sizeof(path) - 16; k++)
			n += (size_t)snprintf(path + n, sizeof(path) - n, "%" PRIu32 " ",
					      64512u + set_hash(set, k + 1) % 400u);
		if (len > ours)
			n += (size_t)snprintf(path + n, sizeof(path) - n, "%" PRIu32,
					      b->ctx.as4 ? 4200000000u + (uint32_t)(set % 90000000u)
							 : 64512u + 1000u + (uint32_t)(set % 22u));
	} else if (b->o.per_set) {
		uint32_t hops = b->o.path_len ? set_hash(set, 0) % (b->o.path_len + 1) : 0;

		for (uint32_t k = 0; k < hops && n < sizeof(path) - 16; k++)
			n += (size_t)snprintf(path + n, sizeof(path) - n, "%" PRIu32 " ",
					      64512u + set_hash(set, k + 1) % 400u);
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%" PRIu32,
				      b->ctx.as4 ? 4200000000u + (uint32_t)(set % 90000000u)
						 : 64512u + 1000u + (uint32_t)(set % 22u));
	}
	while (n && n <= sizeof(path) && path[n - 1] == ' ')
		path[--n] = '\0';
	b->attr.aspath = bgp_aspath_from_str(path);
	if (!b->attr.aspath) {
		say(b, "cannot build the AS path \"%s\"", path);
		return -1;
	}
	b->attr.present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH);
	b->attr.origin = BGP_ORIGIN_IGP;
	if (b->o.communities) {
		uint32_t cnt = set_hash(set, 100) % (b->o.communities + 1);

		for (uint32_t k = 0; k < cnt; k++)
			comm[k] =
				(b->o.local_as & 0xffff) << 16 | (set_hash(set, 101 + k) & 0xffff);
		if (cnt) {
			b->attr.communities = bgp_u32list_intern(comm, cnt);
			b->attr.present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
		}
	}
	if (b->o.inject_af == BGP_AF_IPV4_UNICAST) {
		b->attr.present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
		b->attr.nexthop = b->o.nh4;
	} else {
		struct bgp_attr_extra ex;

		bgp_attr_set_mp_nh(&b->attr, &ex, 16, &b->o.nh6, NULL);
		/* The template outlives ex: it holds an interned copy (released with it). */
		if (b->attr.extra == &ex)
			b->attr.extra = bgp_attr_extra_intern(&ex);
	}
	b->attr_valid = true;
	b->set_cur = set;
	return 0;
}

static uint64_t set_of(const struct blaster *b, uint64_t i)
{
	if (b->o.shape_internet)
		return shape_set_of(b->o.seed, i);
	return b->o.per_set ? i / b->o.per_set : 0;
}

/* Fill the send buffer with UPDATEs while it has room for a whole message. */
static int generate(struct blaster *b, double now)
{
	size_t max = b->ext_msg ? BGP_MAX_EXT_MSG_LEN : BGP_MAX_MSG_LEN;
	struct bgp_update_builder ub;
	struct prefix p;
	uint64_t limit = b->o.inject;

	if (b->eor_queued)
		return 0;
	if (b->o.rate) {
		if (b->t_rate0 == 0)
			b->t_rate0 = now;
		limit = MIN(limit, (uint64_t)((now - b->t_rate0) * (double)b->o.rate) + 1);
	}
	while (b->sent < limit) {
		uint64_t set = set_of(b, b->sent);
		size_t len;

		if (WBUF_SIZE - b->wlen < max + 64)
			compact(b);
		if (WBUF_SIZE - b->wlen < max + 64)
			break;
		if ((!b->attr_valid || set != b->set_cur) && make_attr(b, set) < 0)
			return -1;
		if (bgp_ub_begin_announce(&ub, b->wbuf + b->wlen, max, &b->ctx, b->o.inject_af,
					  &b->attr) < 0) {
			say(b, "the attributes do not fit in one UPDATE");
			return -1;
		}
		while (b->sent < limit && set_of(b, b->sent) == set) {
			nth_prefix(b, b->sent, &p);
			if (bgp_ub_add(&ub, &p) != 0)
				break;
			b->sent++;
		}
		len = bgp_ub_finish(&ub);
		if (!len) {
			say(b, "internal error: an UPDATE with no prefix");
			return -1;
		}
		if (b->out_updates == 0)
			b->first_update_pos = b->queued_total;
		b->wlen += len;
		b->queued_total += len;
		b->out_updates++;
		b->out_bytes += len;
	}
	if (b->sent == b->o.inject && !b->eor_queued) {
		uint8_t eor[64];
		size_t n;

		if (!b->o.no_eor) {
			n = bgp_update_end_of_rib(eor, sizeof(eor), b->o.inject_af);
			queue(b, eor, n);
			b->out_bytes += n;
		}
		b->eor_queued = true;
		b->table_end_pos = b->queued_total;
		attr_release(b);
	}
	return 0;
}

/* Withdraw every prefix injected, in the order they were sent, as many per UPDATE as fit. */
static int generate_withdraw(struct blaster *b)
{
	size_t max = b->ext_msg ? BGP_MAX_EXT_MSG_LEN : BGP_MAX_MSG_LEN;
	struct bgp_update_builder ub;
	struct prefix p;

	while (b->wd_sent < b->o.inject) {
		size_t len;

		if (WBUF_SIZE - b->wlen < max + 64)
			compact(b);
		if (WBUF_SIZE - b->wlen < max + 64)
			return 0;
		if (bgp_ub_begin_withdraw(&ub, b->wbuf + b->wlen, max, &b->ctx, b->o.inject_af) <
		    0) {
			say(b, "cannot begin a withdrawal UPDATE");
			return -1;
		}
		while (b->wd_sent < b->o.inject) {
			nth_prefix(b, b->wd_sent, &p);
			if (bgp_ub_add(&ub, &p) != 0)
				break;
			b->wd_sent++;
		}
		len = bgp_ub_finish(&ub);
		if (!len) {
			say(b, "internal error: a withdrawal UPDATE with no prefix");
			return -1;
		}
		if (b->wd_first_pos == UINT64_MAX)
			b->wd_first_pos = b->queued_total;
		b->wlen += len;
		b->queued_total += len;
		b->out_updates++;
		b->out_bytes += len;
	}
	if (b->wd_end_pos == UINT64_MAX)
		b->wd_end_pos = b->queued_total;
	return 0;
}

/* ======================================================================================
 * Receiving
 * ====================================================================================== */

static void count_update(struct blaster *b, struct bgp_update *u, double now)
{
	struct prefix p;
	uint64_t before = b->count;

	for (int af = 0; af < BGP_AF_MAX; af++) {
		if (u->end_of_rib[af] && !b->eor[af]) {
			b->eor[af] = true;
			b->t_eor = now;
			say(b,
			    "End-of-RIB received for %s (holding %" PRIu64
			    " prefixes, UPDATE %" PRIu64 ")",
			    af == BGP_AF_IPV4_UNICAST ? "IPv4 unicast" : "IPv6 unicast", b->count,
			    b->in_updates);
		}
		while (bgp_nlri_next(&u->withdrawn[af], af, &p)) {
			b->withdrawn++;
			if (b->o.raw_count ? b->count > 0 : pset_del(&b->set, &p))
				b->count--;
		}
		if (u->treat_as_withdraw && u->has_announced[af] && b->taw++ == 0)
			say(b,
			    "UPDATE treated as withdraw (RFC 7606): %s; its prefixes count as "
			    "withdrawn",
			    u->reason ? u->reason : "malformed attribute");
		while (bgp_nlri_next(&u->announced[af], af, &p)) {
			if (u->treat_as_withdraw) {
				b->withdrawn++;
				if (b->o.raw_count ? b->count > 0 : pset_del(&b->set, &p))
					b->count--;
				continue;
			}
			b->announced++;
			if (b->o.raw_count || pset_add(&b->set, &p))
				b->count++;
		}
	}
	if (b->count != before) {
		if (b->t_first_rx_update == 0)
			b->t_first_rx_update = now;
		b->t_last_prefix = now;
	}
	if (b->reached && b->count == 0) {
		/* The table went away (withdrawn, or its source lost): say when, and watch for
		 * the next one, which reports "reached" again. */
		b->emptied++;
		b->reached = false;
		say(b, "holding no prefix any more (time %" PRIu64 ")", b->emptied);
		json_begin(b, "emptied");
		report_counts(b);
		json_time("t_last_prefix", b->t_last_prefix);
		json_end();
	}
	if (b->o.expect && !b->reached && b->count >= b->o.expect) {
		b->reached = true;
		b->t_reached = now;
		say(b, "holding the %" PRIu64 " expected prefixes, %.3f s after the first UPDATE",
		    b->count, now - b->t_first_rx_update);
		json_begin(b, "reached");
		report_counts(b);
		json_time("t_first_rx_update", b->t_first_rx_update);
		json_time("t_last_prefix", b->t_last_prefix);
		json_end();
	}
}

static void handle_update(struct blaster *b, const uint8_t *body, size_t len, double now)
{
	struct bgp_update u, sub;
	struct bgp_error err;

	memset(&err, 0, sizeof(err));
	if (bgp_update_decode(&u, body, len, &b->ctx, &err) < 0) {
		say(b, "malformed UPDATE from the peer: %s", err.reason ? err.reason : "?");
		send_error_notification(b, &err);
		finish(b, EXIT_SESSION, "malformed UPDATE received");
		return;
	}
	b->in_updates++;
	if (bgp_update_take_mp4(&u, &sub)) {
		count_update(b, &sub, now);
		bgp_update_release(&sub);
	}
	count_update(b, &u, now);
	bgp_update_release(&u);
}

static void established(struct blaster *b, double now)
{
	b->st = ST_ESTABLISHED;
	b->t_established = now;
	b->ctx.as4 = b->res.as4;
	b->ctx.ebgp = b->res.ebgp;
	b->ctx.local_as = b->o.local_as;
	b->ctx.peer_as = b->res.remote_as;
	b->ctx.extended_message = b->res.ext_message;
	b->ext_msg = b->res.ext_message;
	say(b, "session established with AS %" PRIu32 " (%s, hold time %u s)", b->res.remote_as,
	    b->res.ebgp ? "eBGP" : "iBGP", b->res.holdtime);
	json_begin(b, "established");
	printf(",\"remote_as\":%" PRIu32 ",\"hold\":%u,\"as4\":%s,\"ext_message\":%s",
	       b->res.remote_as, b->res.holdtime, b->res.as4 ? "true" : "false",
	       b->res.ext_message ? "true" : "false");
	json_end();
	if (b->o.inject) {
		if (b->o.inject_af == BGP_AF_IPV4_UNICAST && !b->o.has_nh4) {
			if (b->local_addr.family != AF_INET) {
				finish(b, EXIT_USAGE,
				       "IPv4 prefixes over an IPv6 session need "
				       "--next-hop");
				return;
			}
			b->o.nh4 = b->local_addr.u.v4;
		}
		if (b->o.inject_af == BGP_AF_IPV6_UNICAST && !b->o.has_nh6) {
			if (b->local_addr.family != AF_INET6) {
				finish(b, EXIT_USAGE,
				       "IPv6 prefixes over an IPv4 session need "
				       "--next-hop6");
				return;
			}
			b->o.nh6 = b->local_addr.u.v6;
		}
		if (!b->res.af[b->o.inject_af])
			say(b, "warning: the peer did not negotiate the family we inject");
	}
}

static void handle_open(struct blaster *b, const uint8_t *body, size_t len, double now)
{
	struct bgp_error err;
	uint8_t ka[BGP_KEEPALIVE_LEN];

	memset(&err, 0, sizeof(err));
	if (b->st != ST_OPENSENT) {
		send_notification(b, 5, 0); /* Finite State Machine Error */
		finish(b, EXIT_SESSION, "unexpected OPEN");
		return;
	}
	if (bgp_open_receive(body, len, &b->local, &b->res, &err) < 0) {
		say(b, "OPEN refused: %s", err.reason ? err.reason : "?");
		send_error_notification(b, &err);
		finish(b, EXIT_SESSION, "OPEN refused");
		return;
	}
	b->hold = b->res.holdtime;
	if (b->o.keepalive >= 0 && b->hold > 0)
		b->next_ka = now + b->o.keepalive;
	else
		b->next_ka = b->hold > 0 ? now + b->res.keepalive : 0;
	queue(b, ka, bgp_keepalive_encode(ka, sizeof(ka)));
	b->st = ST_OPENCONFIRM;
}

static bool goals_update(struct blaster *b, double now);

/* Parse every complete message in the read buffer. */
static void process_input(struct blaster *b, double now)
{
	size_t off = 0;

	while (!b->done && b->rlen - off >= BGP_HEADER_LEN) {
		struct bgp_header h;
		struct bgp_error err;
		const uint8_t *body;
		size_t blen;

		memset(&err, 0, sizeof(err));
		if (bgp_header_decode(b->rbuf + off, b->ext_msg, &h, &err) < 0) {
			send_error_notification(b, &err);
			finish(b, EXIT_SESSION, "bad message header from the peer");
			return;
		}
		if (b->rlen - off < h.len)
			break;
		body = b->rbuf + off + BGP_HEADER_LEN;
		blen = h.len - BGP_HEADER_LEN;
		b->in_bytes += h.len;
		b->last_rx = now;
		switch (h.type) {
		case BGP_MSG_OPEN:
			handle_open(b, body, blen, now);
			break;
		case BGP_MSG_KEEPALIVE:
			if (b->st == ST_OPENCONFIRM)
				established(b, now);
			break;
		case BGP_MSG_UPDATE:
			/* One read can hold a quarter of a table: stamp each UPDATE itself. */
			now = now_mono();
			if (b->st != ST_ESTABLISHED) {
				send_notification(b, 5, 0);
				finish(b, EXIT_SESSION,
				       "UPDATE before the session was established");
				return;
			}
			handle_update(b, body, blen, now);
			break;
		case BGP_MSG_NOTIFICATION: {
			struct bgp_notify n;
			char text[600], why[700];

			if (bgp_notify_decode(&n, body, blen) < 0)
				memset(&n, 0, sizeof(n));
			bgp_notify_str(&n, text, sizeof(text));
			snprintf(why, sizeof(why), "NOTIFICATION received: %s", text);
			say(b, "%s", why);
			/* Before Established a Cease (collision, not configured yet) is retried. */
			if (b->st != ST_ESTABLISHED && n.code == 6) {
				conn_close(b);
				b->next_retry = now + 1.0;
				return;
			}
			/* After the goals a Cease is an orderly end (the sink is done, or the peer
			 * is being stopped); anything else means the session failed. */
			if (b->goals_met && n.code == 6) {
				finish(b, EXIT_GOAL, why);
				return;
			}
			finish(b, EXIT_SESSION, why);
			return;
		}
		default:
			break; /* ROUTE-REFRESH: ignored */
		}
		off += h.len;
		/* Goals are judged message by message: a NOTIFICATION queued behind the last
		 * prefix must not turn a met goal into a failure. */
		if (goals_update(b, now))
			break;
	}
	if (off) {
		memmove(b->rbuf, b->rbuf + off, b->rlen - off);
		b->rlen -= off;
	}
}

/* 0 read something or nothing yet, -1 closed or failed (b->done may be set). */
static int read_input(struct blaster *b, double now)
{
	for (int rounds = 0; rounds < 64 && !b->done; rounds++) {
		ssize_t n = read(b->fd, b->rbuf + b->rlen, RBUF_SIZE - b->rlen);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return 0;
			say(b, "read: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			return -1;
		b->rlen += (size_t)n;
		process_input(b, now);
		if (b->fd < 0)
			return 0; /* closed for a retry */
	}
	return 0;
}

/* ======================================================================================
 * Connection set-up
 * ====================================================================================== */

static void send_open(struct blaster *b)
{
	uint8_t msg[512];
	size_t n;

	b->local.id = b->o.has_router_id ? b->o.router_id : b->router_id;
	n = bgp_open_encode(msg, sizeof(msg), &b->local);
	queue(b, msg, n);
	b->st = ST_OPENSENT;
}

static void connected(struct blaster *b, double now)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int one = 1;

	if (getsockname(b->fd, (struct sockaddr *)&ss, &sl) == 0) {
		memset(&b->local_addr, 0, sizeof(b->local_addr));
		if (ss.ss_family == AF_INET) {
			b->local_addr.family = AF_INET;
			b->local_addr.u.v4 = ((struct sockaddr_in *)&ss)->sin_addr;
			b->router_id = b->local_addr.u.v4;
		} else {
			b->local_addr.family = AF_INET6;
			b->local_addr.u.v6 = ((struct sockaddr_in6 *)&ss)->sin6_addr;
			inet_pton(AF_INET, "192.0.2.254", &b->router_id);
		}
	}
	setsockopt(b->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	b->last_rx = now;
	say(b, "TCP connection up");
	send_open(b);
}

static int start_connect(struct blaster *b, double now)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	fd = socket(b->o.peer.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		say(b, "socket: %s", strerror(errno));
		finish(b, EXIT_SYSTEM, "socket() failed");
		return -1;
	}
	if (b->o.has_bind) {
		int one = 1;

		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		sl = sockaddr_of(&b->o.bind, 0, &ss);
		if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
			say(b, "bind to the --bind address: %s", strerror(errno));
			close(fd);
			finish(b, EXIT_SYSTEM, "bind() failed");
			return -1;
		}
	}
	sl = sockaddr_of(&b->o.peer, b->o.port, &ss);
	b->fd = fd;
	if (connect(fd, (struct sockaddr *)&ss, sl) == 0) {
		connected(b, now);
		return 0;
	}
	if (errno != EINPROGRESS) {
		conn_close(b);
		b->next_retry = now + RETRY_INTERVAL;
		return 0;
	}
	b->st = ST_CONNECT;
	return 0;
}

static int start_listen(struct blaster *b)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_of(&b->o.listen, b->o.port, &ss);
	int one = 1;

	b->lfd = socket(b->o.listen.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (b->lfd < 0) {
		say(b, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(b->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(b->lfd, (struct sockaddr *)&ss, sl) < 0 || listen(b->lfd, 4) < 0) {
		say(b, "cannot listen on port %u: %s", b->o.port, strerror(errno));
		return -1;
	}
	return 0;
}

static void accept_one(struct blaster *b, double now)
{
	int fd = accept4(b->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (b->fd >= 0) {
		close(fd); /* one session at a time */
		return;
	}
	b->fd = fd;
	connected(b, now);
}

/* ======================================================================================
 * Main loop
 * ====================================================================================== */

static bool goals_met(const struct blaster *b)
{
	if (b->st != ST_ESTABLISHED)
		return false;
	if (b->o.inject && !b->sent_all)
		return false;
	if (b->o.expect && !b->reached)
		return false;
	if (b->o.until_eor) {
		for (int af = 0; af < BGP_AF_MAX; af++)
			if (b->res.af[af] && !b->eor[af])
				return false;
	}
	return true;
}

/* Note the goals being met; true when the run is over (no lingering). */
static bool goals_update(struct blaster *b, double now)
{
	if (!b->goals_met && goals_met(b)) {
		b->goals_met = true;
		b->t_goals = now;
		json_begin(b, "goals");
		report_counts(b);
		json_end();
	}
	if (b->goals_met && b->o.linger >= 0 && now >= b->t_goals + b->o.linger) {
		send_notification(b, 6, 2); /* Cease/Administrative Shutdown */
		finish(b, EXIT_GOAL, "goals met");
		return true;
	}
	return b->done;
}

static void progress_line(struct blaster *b)
{
	json_begin(b, "progress");
	report_counts(b);
	json_end();
}

static void timers(struct blaster *b, double now)
{
	if (b->st >= ST_OPENSENT && b->hold > 0 && now - b->last_rx > b->hold) {
		send_notification(b, 4, 0); /* Hold Timer Expired */
		finish(b, EXIT_SESSION, "hold timer expired");
		return;
	}
	if (b->st >= ST_OPENSENT && b->st < ST_ESTABLISHED && b->hold == 0 &&
	    now - b->last_rx > 240) {
		/* RFC 4271 8: a large hold time while waiting for the OPEN. */
		finish(b, EXIT_SESSION, "no OPEN from the peer");
		return;
	}
	if (b->st >= ST_OPENCONFIRM && b->next_ka > 0 && now >= b->next_ka) {
		uint8_t ka[BGP_KEEPALIVE_LEN];

		queue(b, ka, bgp_keepalive_encode(ka, sizeof(ka)));
		b->next_ka = now + (b->o.keepalive >= 0 ? b->o.keepalive : b->res.keepalive);
	}
	if (b->o.progress > 0 && now >= b->next_progress) {
		progress_line(b);
		b->next_progress = now + b->o.progress;
	}
}

static int poll_timeout_ms(const struct blaster *b, double now)
{
	double t = b->deadline;

	if (b->next_ka > 0 && b->st >= ST_OPENCONFIRM)
		t = MIN(t, b->next_ka);
	if (b->hold > 0 && b->st >= ST_OPENSENT)
		t = MIN(t, b->last_rx + b->hold + 0.001);
	if (b->st == ST_IDLE && b->o.active)
		t = MIN(t, b->next_retry);
	if (b->o.progress > 0)
		t = MIN(t, b->next_progress);
	if (b->goals_met && b->o.linger >= 0)
		t = MIN(t, b->t_goals + b->o.linger);
	if (b->o.rate && b->st == ST_ESTABLISHED && !b->eor_queued)
		t = MIN(t, now + 0.01);
	t -= now;
	if (t <= 0)
		return 0;
	return t > 3600 ? 3600000 : (int)(t * 1000) + 1;
}

static void run(struct blaster *b)
{
	while (!b->done) {
		double now = now_mono();
		struct pollfd pfd[2];
		nfds_t n = 0;
		int ret;

		if (got_signal) {
			if (b->st == ST_ESTABLISHED)
				send_notification(b, 6, 2); /* Cease/Administrative Shutdown */
			finish(b, b->goals_met ? EXIT_GOAL : EXIT_INTERRUPT, "signal received");
			break;
		}
		if (now >= b->deadline) {
			if (b->goals_met) {
				send_notification(b, 6, 2);
				finish(b, EXIT_GOAL, "goals met, run time over");
			} else {
				finish(b, EXIT_TIMEOUT, "timeout before the goals were met");
			}
			break;
		}
		timers(b, now);
		if (b->done)
			break;
		if (b->st == ST_IDLE && b->o.active && now >= b->next_retry &&
		    start_connect(b, now) < 0)
			break;
		if (b->st == ST_ESTABLISHED && b->o.inject && !b->eor_queued &&
		    (!b->o.send_on_signal || got_send) && generate(b, now) < 0) {
			finish(b, EXIT_SYSTEM, "cannot build UPDATEs");
			break;
		}
		if (got_withdraw && b->o.inject && b->sent_all && !b->withdrawing) {
			say(b, "SIGUSR1: withdrawing the %" PRIu64 " prefixes", b->o.inject);
			b->withdrawing = true;
		}
		if (b->withdrawing && b->st == ST_ESTABLISHED && b->wd_end_pos == UINT64_MAX &&
		    generate_withdraw(b) < 0) {
			finish(b, EXIT_SYSTEM, "cannot build withdrawal UPDATEs");
			break;
		}
		if (goals_update(b, now))
			break;

		if (b->lfd >= 0 && b->fd < 0) {
			pfd[n].fd = b->lfd;
			pfd[n].events = POLLIN;
			n++;
		}
		if (b->fd >= 0) {
			pfd[n].fd = b->fd;
			pfd[n].events = POLLIN;
			if (b->st == ST_CONNECT || b->woff < b->wlen)
				pfd[n].events |= POLLOUT;
			n++;
		}
		ret = poll(pfd, n, poll_timeout_ms(b, now));
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			finish(b, EXIT_SYSTEM, "poll() failed");
			break;
		}
		now = now_mono();
		for (nfds_t i = 0; i < n && !b->done; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == b->lfd) {
				accept_one(b, now);
				continue;
			}
			if (b->st == ST_CONNECT) {
				int e = 0;
				socklen_t el = sizeof(e);

				getsockopt(b->fd, SOL_SOCKET, SO_ERROR, &e, &el);
				if (e) {
					conn_close(b);
					b->next_retry = now + RETRY_INTERVAL;
					continue;
				}
				connected(b, now);
			}
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    read_input(b, now) < 0 && !b->done) {
				if (b->st == ST_ESTABLISHED) {
					finish(b, EXIT_SESSION, "the peer closed the session");
					break;
				}
				say(b, "connection closed before Established, retrying");
				conn_close(b);
				b->next_retry = now + RETRY_INTERVAL;
				continue;
			}
			if (b->fd >= 0 && b->woff < b->wlen && flush_out(b) < 0 && !b->done) {
				if (b->st == ST_ESTABLISHED) {
					finish(b, EXIT_SESSION, "write failed: the peer closed");
					break;
				}
				conn_close(b);
				b->next_retry = now + RETRY_INTERVAL;
			}
		}
		/* Writes need no POLLOUT round trip when the socket has room. */
		if (!b->done && b->fd >= 0 && b->woff < b->wlen && flush_out(b) < 0 &&
		    b->st == ST_ESTABLISHED)
			finish(b, EXIT_SESSION, "write failed: the peer closed");
	}
}

/* ======================================================================================
 * Command line
 * ====================================================================================== */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bgp_blaster (--connect ADDR | --listen ADDR) --local-as ASN [options]\n"
		"A minimal BGP-4 speaker: injects prefixes and/or counts the prefixes it "
		"receives.\n"
		"\n"
		"Session:\n"
		"  --connect ADDR        connect to ADDR (retried every 0.25 s until Established)\n"
		"  --listen ADDR         accept one session on ADDR (use :: or 0.0.0.0 for any)\n"
		"  --port N              TCP port to connect to or listen on (179)\n"
		"  --bind ADDR           source address when connecting\n"
		"  --local-as ASN        our AS (required)\n"
		"  --peer-as ASN         the peer's AS; 0 accepts any (0)\n"
		"  --router-id A.B.C.D   BGP Identifier (default: our IPv4 address, or "
		"192.0.2.254)\n"
		"  --hold-time S         hold time we offer, 0 or 3..65535 (90)\n"
		"  --keepalive S         keepalive interval (hold time / 3)\n"
		"  --family F            MP capabilities: ipv4, ipv6 or both (ipv4)\n"
		"  --ext-message         advertise extended messages (RFC 8654)\n"
		"\n"
		"Injector (sends UPDATEs once Established):\n"
		"  --inject N            prefixes to announce (0)\n"
		"  --inject-family F     ipv4 or ipv6 (ipv4)\n"
		"  --start PREFIX        first prefix of the range; its length is ignored beyond "
		"the\n"
		"                        address (16.0.0.0/4 for IPv4, 2001:db8::/32 for IPv6)\n"
		"  --plen N              length of the prefixes sent (24 for IPv4, 48 for IPv6)\n"
		"                        prefix i is START + i << (MAXLEN - N); the range must "
		"fit\n"
		"  --order O             sequential, or random: a deterministic permutation of the "
		"same\n"
		"                        range (i -> i * m + seed mod N) (sequential)\n"
		"  --seed N              seed of the random order (1)\n"
		"  --per-set N           prefixes per attribute set: consecutive groups of N share "
		"an\n"
		"                        AS path that ends in an AS of their own; 0 = one set (0)\n"
		"  --as-path \"A B ..\"    ASes after ours (on eBGP our AS is prepended) ()\n"
		"  --path-len N          with --per-set: 0..N transit ASes per set, chosen by a "
		"hash of\n"
		"                        the set (0); transit ASes are 64512-64911 and origin "
		"ASes\n"
		"                        4200000000 and up (65512-65533 on 2-octet sessions): "
		"peers\n"
		"                        must use other ASes, or they see loops\n"
		"  --communities N       with --per-set: 0..N communities per set, likewise (0; "
		"10 with\n"
		"                        --shape internet)\n"
		"  --next-hop A.B.C.D    IPv4 next hop (default: our address on the session)\n"
		"  --next-hop6 X::Y      IPv6 next hop (default: our address on an IPv6 session)\n"
		"  --rate N              at most N prefixes per second (0 = as fast as the socket "
		"takes)\n"
		"  --no-eor              do not send End-of-RIB after the last prefix\n"
		"  --send-on-signal      establish the session, then wait for SIGUSR2 to send\n"
		"  --shape S             uniform (the above) or internet: the prefix lengths of "
		"today's\n"
		"                        full tables (IPv4 in 1.0.0.0-126.255.255.255, IPv6 in "
		"2400::/6),\n"
		"                        2-3 prefixes per set, AS paths of 1-10 ASes (mean 4.5), "
		"0..10\n"
		"                        communities; --start, --plen, --per-set and --path-len "
		"do not\n"
		"                        apply; deterministic by --seed (uniform)\n"
		"  SIGUSR1               once the table is sent: withdraw all of it (explicit "
		"withdrawals;\n"
		"                        a \"withdrawn\" line says when the socket took them)\n"
		"\n"
		"Sink (always counts what it receives):\n"
		"  --expect N            goal: hold N prefixes (each counted once; withdrawals "
		"subtract)\n"
		"  --raw-count           count announcements minus withdrawals, without the prefix "
		"set\n"
		"  --until-eor           goal: End-of-RIB received for every negotiated family\n"
		"\n"
		"Run:\n"
		"  --timeout S           global bound on the run time, required > 0 (300)\n"
		"  --linger S            stay up S seconds once the goals are met, then exit 0; -1 "
		"=\n"
		"                        until the timeout or a signal, both then exit 0 "
		"(injector\n"
		"                        default -1, otherwise 0)\n"
		"  --progress S          a JSON progress line every S seconds (0 = none)\n"
		"  --name NAME           \"name\" field of the JSON lines (blaster)\n"
		"  --quiet               no text on stderr\n"
		"  --help                this text\n"
		"\n"
		"Goals: every prefix sent and End-of-RIB written (--inject), N prefixes held "
		"(--expect),\n"
		"End-of-RIB received (--until-eor); with none of them, the session being "
		"Established.\n"
		"\n"
		"Output: JSON lines on stdout, events \"established\", \"sent\", \"reached\", "
		"\"goals\",\n"
		"\"withdrawn\", \"emptied\" (the sink's count fell to 0 after --expect; the next "
		"table\n"
		"reports \"reached\" again), "
		"\"progress\" and a final \"result\" with counters and CLOCK_MONOTONIC timestamps\n"
		"(t_first_update: the socket took the first UPDATE; t_last_prefix: the last change "
		"of the\n"
		"count; t_reached: the count reached --expect).\n"
		"\n"
		"Exit codes: 0 goals met; 1 usage; 2 session failed (NOTIFICATION, closed, hold "
		"timer,\n"
		"OPEN refused); 3 timeout before the goals; 4 system error; 5 signal before the "
		"goals.\n");
}

static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	if (!s || !*s || *s == '-')
		return -1;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || end == s ? -1 : 0;
}

static int bad(const char *opt, const char *val)
{
	fprintf(stderr, "bgp_blaster: invalid value '%s' for %s (see --help)\n", val, opt);
	return -1;
}

enum {
	OPT_CONNECT = 256,
	OPT_LISTEN,
	OPT_PORT,
	OPT_BIND,
	OPT_LOCAL_AS,
	OPT_PEER_AS,
	OPT_ROUTER_ID,
	OPT_HOLD,
	OPT_KEEPALIVE,
	OPT_FAMILY,
	OPT_EXT_MSG,
	OPT_INJECT,
	OPT_INJECT_FAMILY,
	OPT_START,
	OPT_PLEN,
	OPT_ORDER,
	OPT_SEED,
	OPT_PER_SET,
	OPT_AS_PATH,
	OPT_NH,
	OPT_NH6,
	OPT_PATH_LEN,
	OPT_COMMUNITIES,
	OPT_RATE,
	OPT_NO_EOR,
	OPT_SEND_ON_SIGNAL,
	OPT_SHAPE,
	OPT_EXPECT,
	OPT_RAW,
	OPT_UNTIL_EOR,
	OPT_TIMEOUT,
	OPT_LINGER,
	OPT_PROGRESS,
	OPT_NAME,
	OPT_QUIET,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "connect", required_argument, NULL, OPT_CONNECT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "local-as", required_argument, NULL, OPT_LOCAL_AS },
	{ "peer-as", required_argument, NULL, OPT_PEER_AS },
	{ "router-id", required_argument, NULL, OPT_ROUTER_ID },
	{ "hold-time", required_argument, NULL, OPT_HOLD },
	{ "keepalive", required_argument, NULL, OPT_KEEPALIVE },
	{ "family", required_argument, NULL, OPT_FAMILY },
	{ "ext-message", no_argument, NULL, OPT_EXT_MSG },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "inject-family", required_argument, NULL, OPT_INJECT_FAMILY },
	{ "start", required_argument, NULL, OPT_START },
	{ "plen", required_argument, NULL, OPT_PLEN },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "per-set", required_argument, NULL, OPT_PER_SET },
	{ "as-path", required_argument, NULL, OPT_AS_PATH },
	{ "path-len", required_argument, NULL, OPT_PATH_LEN },
	{ "communities", required_argument, NULL, OPT_COMMUNITIES },
	{ "next-hop", required_argument, NULL, OPT_NH },
	{ "next-hop6", required_argument, NULL, OPT_NH6 },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "no-eor", no_argument, NULL, OPT_NO_EOR },
	{ "send-on-signal", no_argument, NULL, OPT_SEND_ON_SIGNAL },
	{ "shape", required_argument, NULL, OPT_SHAPE },
	{ "expect", required_argument, NULL, OPT_EXPECT },
	{ "raw-count", no_argument, NULL, OPT_RAW },
	{ "until-eor", no_argument, NULL, OPT_UNTIL_EOR },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "linger", required_argument, NULL, OPT_LINGER },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, 1 for --help, -1 on a usage error (message printed). */
static int parse_args(struct opts *o, int argc, char **argv)
{
	bool linger_set = false, plen_set = false, communities_set = false;
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->port = 179;
	o->holdtime = 90;
	o->keepalive = -1;
	o->af[BGP_AF_IPV4_UNICAST] = true;
	o->inject_af = BGP_AF_IPV4_UNICAST;
	o->seed = 1;
	o->timeout = 300;
	o->name = "blaster";

	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		const char *a = optarg;

		switch (c) {
		case OPT_CONNECT:
			if (ipaddr_from_str(&o->peer, a) < 0)
				return bad("--connect", a);
			o->active = true;
			break;
		case OPT_LISTEN:
			if (ipaddr_from_str(&o->listen, a) < 0)
				return bad("--listen", a);
			o->passive = true;
			break;
		case OPT_PORT:
			if (parse_u64(a, 65535, &v) < 0 || v == 0)
				return bad("--port", a);
			o->port = (uint16_t)v;
			break;
		case OPT_BIND:
			if (ipaddr_from_str(&o->bind, a) < 0)
				return bad("--bind", a);
			o->has_bind = true;
			break;
		case OPT_LOCAL_AS:
			if (parse_u64(a, UINT32_MAX, &v) < 0 || v == 0)
				return bad("--local-as", a);
			o->local_as = (uint32_t)v;
			break;
		case OPT_PEER_AS:
			if (parse_u64(a, UINT32_MAX, &v) < 0)
				return bad("--peer-as", a);
			o->peer_as = (uint32_t)v;
			break;
		case OPT_ROUTER_ID:
			if (inet_pton(AF_INET, a, &o->router_id) != 1 || o->router_id.s_addr == 0)
				return bad("--router-id", a);
			o->has_router_id = true;
			break;
		case OPT_HOLD:
			if (parse_u64(a, 65535, &v) < 0 || v == 1 || v == 2)
				return bad("--hold-time", a);
			o->holdtime = (uint16_t)v;
			break;
		case OPT_KEEPALIVE:
			if (parse_u64(a, 21845, &v) < 0 || v == 0)
				return bad("--keepalive", a);
			o->keepalive = (int)v;
			break;
		case OPT_FAMILY:
			o->af[BGP_AF_IPV4_UNICAST] = !strcmp(a, "ipv4") || !strcmp(a, "both");
			o->af[BGP_AF_IPV6_UNICAST] = !strcmp(a, "ipv6") || !strcmp(a, "both");
			if (!o->af[0] && !o->af[1])
				return bad("--family", a);
			break;
		case OPT_EXT_MSG:
			o->ext_message = true;
			break;
		case OPT_INJECT:
			if (parse_u64(a, UINT32_MAX, &v) < 0)
				return bad("--inject", a);
			o->inject = v;
			break;
		case OPT_INJECT_FAMILY:
			if (!strcmp(a, "ipv4"))
				o->inject_af = BGP_AF_IPV4_UNICAST;
			else if (!strcmp(a, "ipv6"))
				o->inject_af = BGP_AF_IPV6_UNICAST;
			else
				return bad("--inject-family", a);
			break;
		case OPT_START:
			if (prefix_from_str(&o->start, a, false) < 0)
				return bad("--start", a);
			prefix_apply_mask(&o->start);
			o->has_start = true;
			break;
		case OPT_PLEN:
			if (parse_u64(a, 128, &v) < 0 || v == 0)
				return bad("--plen", a);
			o->plen = (unsigned)v;
			plen_set = true;
			break;
		case OPT_ORDER:
			if (!strcmp(a, "random"))
				o->random_order = true;
			else if (strcmp(a, "sequential") != 0)
				return bad("--order", a);
			break;
		case OPT_SEED:
			if (parse_u64(a, UINT64_MAX, &o->seed) < 0)
				return bad("--seed", a);
			break;
		case OPT_PER_SET:
			if (parse_u64(a, UINT32_MAX, &o->per_set) < 0)
				return bad("--per-set", a);
			break;
		case OPT_AS_PATH:
			if (strlen(a) >= sizeof(o->as_path) ||
			    strspn(a, "0123456789 ") != strlen(a))
				return bad("--as-path", a);
			snprintf(o->as_path, sizeof(o->as_path), "%s", a);
			break;
		case OPT_PATH_LEN:
			if (parse_u64(a, 32, &v) < 0)
				return bad("--path-len", a);
			o->path_len = (uint32_t)v;
			break;
		case OPT_COMMUNITIES:
			if (parse_u64(a, 64, &v) < 0)
				return bad("--communities", a);
			o->communities = (uint32_t)v;
			communities_set = true;
			break;
		case OPT_NH:
			if (inet_pton(AF_INET, a, &o->nh4) != 1)
				return bad("--next-hop", a);
			o->has_nh4 = true;
			break;
		case OPT_NH6:
			if (inet_pton(AF_INET6, a, &o->nh6) != 1)
				return bad("--next-hop6", a);
			o->has_nh6 = true;
			break;
		case OPT_RATE:
			if (parse_u64(a, UINT32_MAX, &o->rate) < 0)
				return bad("--rate", a);
			break;
		case OPT_NO_EOR:
			o->no_eor = true;
			break;
		case OPT_SEND_ON_SIGNAL:
			o->send_on_signal = true;
			break;
		case OPT_SHAPE:
			if (!strcmp(a, "internet"))
				o->shape_internet = true;
			else if (strcmp(a, "uniform") != 0)
				return bad("--shape", a);
			break;
		case OPT_EXPECT:
			if (parse_u64(a, UINT32_MAX, &o->expect) < 0)
				return bad("--expect", a);
			break;
		case OPT_RAW:
			o->raw_count = true;
			break;
		case OPT_UNTIL_EOR:
			o->until_eor = true;
			break;
		case OPT_TIMEOUT:
			if (parse_double(a, &o->timeout) < 0 || o->timeout <= 0 ||
			    o->timeout > 86400)
				return bad("--timeout", a);
			break;
		case OPT_LINGER:
			if (parse_double(a, &o->linger) < 0 || o->linger > 86400)
				return bad("--linger", a);
			linger_set = true;
			break;
		case OPT_PROGRESS:
			if (parse_double(a, &o->progress) < 0 || o->progress < 0)
				return bad("--progress", a);
			break;
		case OPT_NAME:
			o->name = a;
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case 'h':
		case OPT_HELP:
			usage(stdout);
			return 1;
		default:
			fprintf(stderr, "bgp_blaster: see --help\n");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bgp_blaster: unexpected argument '%s' (see --help)\n",
			argv[optind]);
		return -1;
	}
	if (o->active == o->passive) {
		fprintf(stderr, "bgp_blaster: give exactly one of --connect and --listen\n");
		return -1;
	}
	if (!o->local_as) {
		fprintf(stderr, "bgp_blaster: --local-as is required\n");
		return -1;
	}
	if (!linger_set)
		o->linger = o->inject ? -1 : 0;
	if (!o->has_start) {
		const char *def =
			o->inject_af == BGP_AF_IPV4_UNICAST ? "16.0.0.0/4" : "2001:db8::/32";

		prefix_from_str(&o->start, def, true);
	}
	if (o->start.family != bgp_af_family(o->inject_af)) {
		fprintf(stderr, "bgp_blaster: --start is not of the --inject-family\n");
		return -1;
	}
	if (!plen_set)
		o->plen = o->inject_af == BGP_AF_IPV4_UNICAST ? 24 : 48;
	if (o->shape_internet && !communities_set)
		o->communities = 10;
	if (o->inject) {
		char why[200];

		if (!o->shape_internet && check_range(o, why, sizeof(why)) < 0) {
			fprintf(stderr, "bgp_blaster: %s\n", why);
			return -1;
		}
		if (!o->af[o->inject_af]) {
			fprintf(stderr, "bgp_blaster: --inject-family is not in --family\n");
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct blaster *b = XCALLOC(MTYPE_BLASTER_BUF, sizeof(*b));
	struct sigaction sa;
	int ret, code;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_args(&b->o, argc, argv);
	if (ret != 0) {
		XFREE(MTYPE_BLASTER_BUF, b);
		return ret > 0 ? EXIT_GOAL : EXIT_USAGE;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_withdraw_signal;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_send_signal;
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	b->fd = b->lfd = -1;
	b->rbuf = XMALLOC(MTYPE_BLASTER_BUF, RBUF_SIZE);
	b->wbuf = XMALLOC(MTYPE_BLASTER_BUF, WBUF_SIZE);
	b->t_start = now_mono();
	b->first_update_pos = UINT64_MAX;
	b->table_end_pos = UINT64_MAX;
	b->wd_first_pos = b->wd_end_pos = UINT64_MAX;
	b->deadline = b->t_start + b->o.timeout;
	b->next_progress = b->t_start + b->o.progress;
	b->local.asn = b->o.local_as;
	b->local.holdtime = b->o.holdtime;
	memcpy(b->local.af, b->o.af, sizeof(b->local.af));
	b->local.route_refresh = true;
	b->local.ext_message = b->o.ext_message;
	b->local.remote_as_type = BGP_REMOTE_AS_SPECIFIED;
	b->local.remote_as = b->o.peer_as;
	if (!b->o.raw_count)
		pset_init(&b->set, b->o.expect ? b->o.expect : 1024);
	setup_order(b);
	if (b->o.shape_internet && b->o.inject) {
		char why[200];

		if (shape_init(&b->shape, bgp_af_family(b->o.inject_af), b->o.inject, b->o.seed,
			       why, sizeof(why)) < 0) {
			fprintf(stderr, "bgp_blaster: --shape internet: %s\n", why);
			finish(b, EXIT_USAGE, "the shaped table does not fit");
		}
	}

	if (!b->done && b->o.passive && start_listen(b) < 0)
		finish(b, EXIT_SYSTEM, "cannot listen");
	if (!b->done)
		run(b);

	code = b->exit_code;
	if (b->fd >= 0)
		close(b->fd);
	if (b->lfd >= 0)
		close(b->lfd);
	attr_release(b);
	if (!b->o.raw_count)
		pset_free(&b->set);
	XFREE(MTYPE_BLASTER_BUF, b->rbuf);
	XFREE(MTYPE_BLASTER_BUF, b->wbuf);
	XFREE(MTYPE_BLASTER_BUF, b);
	return code;
}
