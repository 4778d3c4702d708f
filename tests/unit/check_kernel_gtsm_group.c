/* SPDX-License-Identifier: ISC */
/*
 * kernel/gtsm_group.c on the real kernel. Needs root (exit 77 = SKIP otherwise). Each test runs
 * in Check's forked child inside its own network namespace with a tun device "skua0"
 * (198.51.100.1/24, 2001:db8::1/64): crafted segments with a spoofed peer source, a chosen TTL /
 * hop limit and optionally a TCP-MD5 signature (right or wrong) go to the group from raw sockets;
 * the answers are routed into the tun, where the test reads them and nothing answers back.
 *
 * What is proved (doc/gtsm-kernel.md "The listener group"): a GTSM peer's segment below its
 * minimum is dropped by the sink's minimum, counted in TCPMinTTLDrop and in no TCPMD5* counter,
 * with no SYN-ACK and no request socket; at the minimum it is answered (MD5 still enforced);
 * non-GTSM and unknown sources work at any TTL; the handshake ACK below the minimum completes
 * nothing; syncookie and stray ACKs take the selector too; a failed update rolls back; updates
 * under a SYN storm never let one low-TTL SYN through; what a reuseport cBPF program can read; and
 * the kernel behaviour that rules out "one listener per minimum" (an index past the group falls
 * back to the hash; closing a member moves the last one into its place). The CPU cost per
 * spoofed SYN is its own case: CK_RUN_CASE=cost.
 */
#include "lib/compat.h"

#include <check.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel_security.h"
#include "tests/unit/kernel_test.h"

#define BGP_PORT 179
#define REPLY_MS                                                                        \
	1000 /* an answer comes within milliseconds; a missing one is awaited this long \
	      */
#define NO_REPLY_MS 500
#define KEY "skua-group-key"
#define OTHER_KEY "not-the-right-key"

static int tun_fd;
static uint16_t next_port = 20000;

static void lab(void)
{
	ktest_netns();
	tun_fd = ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
}

/* The lab's peers: .2 / ::2 hops 1 with a key, .3 / ::3 hops 2 / hops 6 with a key, .4 hops 1
 * without key, .9 / ::9 no GTSM with a key; .77 / ::77 are strangers. */
static const struct {
	const char *addr;
	int min;
	const char *key;
} lab_peers[] = {
	{ "198.51.100.2", 255, KEY }, { "198.51.100.3", 254, KEY }, { "198.51.100.4", 255, NULL },
	{ "198.51.100.9", 0, KEY },   { "2001:db8::2", 255, KEY },  { "2001:db8::3", 250, KEY },
	{ "2001:db8::9", 0, KEY },
};

/* The session layer's part: every keyed peer's key on the listener (of the families it carries). */
static void install_lab_keys(struct kernel_gtsm_group *g, int family, bool v6only)
{
	struct kernel_sec_err err;

	for (size_t i = 0; i < array_size(lab_peers); i++) {
		struct ipaddr p = ktest_ip(lab_peers[i].addr);

		if (!lab_peers[i].key || (family == AF_INET && p.family != AF_INET) ||
		    (v6only && p.family == AF_INET))
			continue;
		ck_assert_msg(kernel_md5_set(kernel_gtsm_group_fd(g), &p, lab_peers[i].key, &err) ==
				      0,
			      "%s", err.msg);
	}
}

static struct kernel_gtsm_group *open_lab_group(const char *listen, bool v6only)
{
	struct kernel_gtsm_peer peers[array_size(lab_peers)];
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	struct ipaddr a = ktest_ip(listen);
	int ret;

	for (size_t i = 0; i < array_size(lab_peers); i++)
		peers[i] = ktest_gtsm_peer(lab_peers[i].addr, lab_peers[i].min);
	ret = kernel_gtsm_group_open(&a, BGP_PORT, v6only, 128, peers, array_size(peers), &g, &err);
	ck_assert_msg(ret == 0, "%s", err.msg);
	install_lab_keys(g, a.family, v6only);
	return g;
}

static struct ktest_seg seg(const char *src, int ttl, uint8_t flags, const char *key)
{
	struct ktest_seg s;

	memset(&s, 0, sizeof(s));
	s.src = ktest_ip(src);
	s.dst = ktest_ip(s.src.family == AF_INET ? "198.51.100.1" : "2001:db8::1");
	s.sport = next_port++;
	s.dport = BGP_PORT;
	s.seq = 1000u * s.sport;
	s.flags = flags;
	s.ttl = ttl;
	s.md5_key = key;
	return s;
}

static const char *key_of(const char *src)
{
	for (size_t i = 0; i < array_size(lab_peers); i++)
		if (strcmp(lab_peers[i].addr, src) == 0)
			return lab_peers[i].key;
	return NULL;
}

enum sig { SIG_RIGHT, SIG_NONE, SIG_WRONG };

struct counters {
	uint64_t minttl, notfound, failure, unexpected;
};

static struct counters counters(void)
{
	struct counters c = {
		ktest_counter("TCPMinTTLDrop"),
		ktest_counter("TCPMD5NotFound"),
		ktest_counter("TCPMD5Failure"),
		ktest_counter("TCPMD5Unexpected"),
	};
	return c;
}

/* Send one SYN; was it answered (SYN-ACK on the tun)? */
static bool syn(const char *src, int ttl, enum sig sig, int *reply_ttl)
{
	struct ktest_seg s = seg(src, ttl, KT_SYN, sig == SIG_RIGHT ? key_of(src) : NULL);
	uint32_t seq;
	int rttl;
	bool got;

	s.md5_bogus = sig == SIG_WRONG;
	ktest_send(&s);
	got = ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, NO_REPLY_MS, &seq, &rttl);
	if (got && reply_ttl)
		*reply_ttl = rttl;
	return got;
}

/*
 * A GTSM peer's SYN below its minimum: no SYN-ACK, exactly one more TCPMinTTLDrop, no TCPMD5*
 * counter moved, no request socket from that source; then the control (TTL 255, right key)
 * from the same source is answered, so the silence came from the TTL.
 */
static void assert_dropped_before_md5(const char *src, int ttl, enum sig sig)
{
	struct ipaddr from = ktest_ip(src);
	struct counters before = counters(), after;
	int pending = ktest_syn_recv_count(&from);
	bool got = syn(src, ttl, sig, NULL);

	after = counters();
	ck_assert_msg(!got, "SYN from %s TTL %d (sig %d) was answered", src, ttl, sig);
	ck_assert_msg(after.minttl == before.minttl + 1, "%s TTL %d: TCPMinTTLDrop %llu -> %llu",
		      src, ttl, (unsigned long long)before.minttl,
		      (unsigned long long)after.minttl);
	ck_assert_msg(after.notfound == before.notfound && after.failure == before.failure &&
			      after.unexpected == before.unexpected,
		      "%s TTL %d sig %d reached TCP-MD5: NotFound %llu->%llu Failure %llu->%llu",
		      src, ttl, sig, (unsigned long long)before.notfound,
		      (unsigned long long)after.notfound, (unsigned long long)before.failure,
		      (unsigned long long)after.failure);
	ck_assert_int_eq(ktest_syn_recv_count(&from), pending); /* no request socket */
	ck_assert_msg(syn(src, 255, SIG_RIGHT, NULL), "control: TTL 255 from %s unanswered", src);
	ck_assert_int_eq(ktest_syn_recv_count(&from), pending + 1);
}

static void assert_answered(const char *src, int ttl)
{
	int rttl = -1;

	ck_assert_msg(syn(src, ttl, SIG_RIGHT, &rttl), "SYN from %s TTL %d not answered", src, ttl);
	ck_assert_int_eq(rttl, 255); /* RFC 5082 section 3: the listener answers with 255 */
}

/* Every signature variant below the minimum, the minimum itself, and MD5 still enforced. */
static void check_gtsm_peer(const char *src, int min)
{
	struct counters before;

	assert_dropped_before_md5(src, min - 1, SIG_RIGHT);
	assert_dropped_before_md5(src, min - 1, SIG_NONE);
	assert_dropped_before_md5(src, min - 1, SIG_WRONG);
	assert_dropped_before_md5(src, 1, SIG_WRONG);
	assert_answered(src, min);
	/* at the minimum the segment reaches the listener, whose keys are enforced: these two
	 * counters moving shows that the ones above could have */
	before = counters();
	ck_assert(!syn(src, 255, SIG_NONE, NULL));
	ck_assert(!syn(src, 255, SIG_WRONG, NULL));
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound"), before.notfound + 1);
	ck_assert_uint_eq(ktest_counter("TCPMD5Failure"), before.failure + 1);
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl);
}

static void check_group_sockets(const struct kernel_gtsm_group *g, bool dual)
{
	int fd = kernel_gtsm_group_fd(g), sink = kernel_gtsm_group_sink_fd(g);
	int af = dual ? AF_INET6 : AF_INET;

	ck_assert_int_eq(kernel_minttl_get(fd, af), 0);
	ck_assert_int_eq(kernel_ttl_get(fd, af), 255);
	ck_assert_int_eq(kernel_minttl_get(sink, af), 255);
	if (dual) /* v4-mapped peers are governed by IP_MINTTL */
		ck_assert_int_eq(kernel_minttl_get(sink, AF_INET), 255);
	ck_assert_int_eq(kernel_gtsm_filter_len(sink), 1);
	ck_assert_int_gt(kernel_gtsm_filter_len(fd), 1);
}

/* Dual-stack group, IPv4 sources. */
START_TEST(test_group_syn_v4)
{
	struct kernel_gtsm_group *g;
	struct counters before;

	lab();
	g = open_lab_group("::", false);
	check_group_sockets(g, true);
	check_gtsm_peer("198.51.100.2", 255);
	check_gtsm_peer("198.51.100.3", 254);
	assert_dropped_before_md5("198.51.100.4", 254, SIG_NONE); /* GTSM, no key */
	before = counters();
	assert_answered("198.51.100.4", 255);
	assert_answered("198.51.100.9", 1);  /* no GTSM, keyed */
	assert_answered("198.51.100.77", 1); /* stranger */
	assert_answered("198.51.100.77", 200);
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl);
	/* the sink never holds anything */
	ck_assert_int_eq(ktest_accept(kernel_gtsm_group_sink_fd(g), 0), -ETIMEDOUT);
	kernel_gtsm_group_close(g);
}
END_TEST

START_TEST(test_group_syn_v6)
{
	struct kernel_gtsm_group *g;

	lab();
	g = open_lab_group("::", false);
	check_gtsm_peer("2001:db8::2", 255);
	check_gtsm_peer("2001:db8::3", 250);
	assert_answered("2001:db8::9", 1);
	assert_answered("2001:db8::77", 1);
	kernel_gtsm_group_close(g);
}
END_TEST

/* AF_INET and V6ONLY groups: the families the socket carries, each with its own options. */
START_TEST(test_group_families)
{
	struct kernel_gtsm_group *g4, *g6;

	lab();
	g4 = open_lab_group("0.0.0.0", false);
	check_group_sockets(g4, false);
	g6 = open_lab_group("::", true);
	ck_assert_int_eq(kernel_minttl_get(kernel_gtsm_group_sink_fd(g6), AF_INET6), 255);
	check_gtsm_peer("198.51.100.2", 255);
	check_gtsm_peer("2001:db8::3", 250);
	assert_answered("198.51.100.77", 1);
	assert_answered("2001:db8::77", 1);
	kernel_gtsm_group_close(g4);
	kernel_gtsm_group_close(g6);
}
END_TEST

/* A group on a specific address, and port 0 (the kernel picks; the sink follows). */
START_TEST(test_group_specific_address_and_port0)
{
	struct kernel_gtsm_peer peers[] = { ktest_gtsm_peer("198.51.100.2", 255) };
	struct ipaddr a = ktest_ip("198.51.100.1");
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	struct counters before;
	struct ktest_seg s;
	uint32_t seq;
	int rttl;

	lab();
	ck_assert_msg(kernel_gtsm_group_open(&a, 0, false, 16, peers, 1, &g, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_ne(kernel_gtsm_group_port(g), 0);
	before = counters();
	s = seg("198.51.100.2", 254, KT_SYN, NULL);
	s.dport = kernel_gtsm_group_port(g);
	ktest_send(&s);
	ck_assert(!ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, NO_REPLY_MS, &seq,
				  &rttl));
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl + 1);
	s = seg("198.51.100.2", 255, KT_SYN, NULL);
	s.dport = kernel_gtsm_group_port(g);
	ktest_send(&s);
	ck_assert(ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, REPLY_MS, &seq, &rttl));
	kernel_gtsm_group_close(g);
}
END_TEST

/*
 * The handshake-completing ACK goes to the request socket, which the kernel never TTL-checks;
 * the listener's filter drops it below the peer's minimum, after its (right) signature. Then
 * the session layer's post-accept step: own minimum, filter copy gone.
 */
static void handshake(const char *src, int min)
{
	struct ktest_seg s = seg(src, 255, KT_SYN, key_of(src)), ack;
	struct kernel_sec_params params = { key_of(src), 256 - min, 0 };
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	struct counters before;
	uint32_t srv_seq;
	int rttl, child, lfd, af;

	lab();
	g = open_lab_group("::", false);
	lfd = kernel_gtsm_group_fd(g);
	ktest_send(&s);
	ck_assert(ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, REPLY_MS, &srv_seq,
				 &rttl));
	ack = s;
	ack.flags = KT_ACK;
	ack.seq = s.seq + 1;
	ack.ack = srv_seq + 1;
	ack.ttl = min - 1;
	before = counters();
	ktest_send(&ack);
	ck_assert_msg(ktest_accept(lfd, NO_REPLY_MS) == -ETIMEDOUT,
		      "a TTL %d ACK from %s completed the handshake", min - 1, src);
	/* it passed MD5 (right key) and died in the filter, which no counter records */
	ck_assert_uint_eq(ktest_counter("TCPMD5Failure"), before.failure);
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound"), before.notfound);
	ck_assert_int_eq(ktest_syn_recv_count(&s.src), 1); /* still pending */
	ack.ttl = min;
	ktest_send(&ack);
	child = ktest_accept(lfd, REPLY_MS);
	ck_assert_int_ge(child, 0);
	af = kernel_sec_traffic_family(child);
	/* inherited: the listener's TTL, minimum and filter */
	ck_assert_int_eq(kernel_minttl_get(child, af), 0);
	ck_assert_int_eq(kernel_ttl_get(child, af), 255);
	ck_assert_int_gt(kernel_gtsm_filter_len(child), 1);
	ck_assert_msg(kernel_gtsm_accepted(child, &s.src, &params, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(kernel_minttl_get(child, af), min);
	ck_assert_int_eq(kernel_gtsm_filter_len(child), 0);
	ck_assert_int_gt(kernel_gtsm_filter_len(lfd), 1);
	ktest_close_abort(child);
	kernel_gtsm_group_close(g);
}

START_TEST(test_handshake_ack_v4)
{
	handshake("198.51.100.2", 255);
}
END_TEST

START_TEST(test_handshake_ack_v6)
{
	handshake("2001:db8::3", 250);
}
END_TEST

/* A peer without GTSM accepted from the group: minimum 0 and the configured TTL, whatever the
 * listener had; a failing step is reported (fail closed). */
START_TEST(test_accepted_non_gtsm)
{
	struct kernel_sec_params params = { NULL, 0, 1 };
	struct kernel_sec_err err;
	struct ipaddr peer = ktest_ip("127.0.0.1");
	int lst, cli, child;

	lab();
	lst = ktest_listener("127.0.0.1", BGP_PORT, false);
	ck_assert_int_eq(kernel_minttl_set(lst, NULL, 255, NULL), 0); /* as during open */
	ck_assert_int_eq(kernel_ttl_set(lst, NULL, 255, NULL), 0);
	cli = ktest_socket(AF_INET, false);
	ck_assert_int_eq(kernel_ttl_set(cli, NULL, 255, NULL), 0);
	ck_assert_int_eq(ktest_connect(cli, "127.0.0.1", BGP_PORT, REPLY_MS), 0);
	child = ktest_accept(lst, REPLY_MS);
	ck_assert_int_ge(child, 0);
	ck_assert_int_eq(kernel_minttl_get(child, AF_INET), 255);
	ck_assert_msg(kernel_gtsm_accepted(child, &peer, &params, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(kernel_minttl_get(child, AF_INET), 0);
	ck_assert_int_eq(kernel_ttl_get(child, AF_INET), 1);
	params.gtsm_hops = 300;
	ck_assert_int_eq(kernel_gtsm_accepted(child, &peer, &params, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "ttl-security hops is 1 to 254"), "%s", err.msg);
	close(child);
	close(cli);
	close(lst);
}
END_TEST

/*
 * With syncookies always on there is no request socket: the ACK carrying the cookie is looked
 * up like a SYN, so it meets the selector, and below the minimum the sink drops it as a
 * TCPMinTTLDrop (the plain filter design could only drop it after MD5).
 */
START_TEST(test_syncookie_ack)
{
	struct ktest_seg s, ack;
	struct kernel_gtsm_group *g;
	struct counters before;
	uint32_t srv_seq;
	int rttl, child;

	lab();
	ktest_sysctl("/proc/sys/net/ipv4/tcp_syncookies", "2");
	g = open_lab_group("::", false);
	s = seg("198.51.100.2", 255, KT_SYN, KEY);
	ktest_send(&s);
	ck_assert(ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, REPLY_MS, &srv_seq,
				 &rttl));
	ck_assert_int_eq(ktest_syn_recv_count(&s.src), 0); /* a cookie, no request socket */
	ack = s;
	ack.flags = KT_ACK;
	ack.seq = s.seq + 1;
	ack.ack = srv_seq + 1;
	ack.ttl = 254;
	before = counters();
	ktest_send(&ack);
	ck_assert_int_eq(ktest_accept(kernel_gtsm_group_fd(g), NO_REPLY_MS), -ETIMEDOUT);
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl + 1);
	ck_assert_uint_eq(ktest_counter("TCPMD5Failure"), before.failure);
	ack.ttl = 255;
	ktest_send(&ack);
	child = ktest_accept(kernel_gtsm_group_fd(g), REPLY_MS);
	ck_assert_msg(child >= 0, "the TTL 255 cookie ACK completed nothing");
	ktest_close_abort(child);
	kernel_gtsm_group_close(g);
}
END_TEST

/* Updates take effect at once; the last GTSM peer gone leaves "ret #0" and no filter. */
START_TEST(test_group_update)
{
	struct kernel_gtsm_peer a[] = { ktest_gtsm_peer("198.51.100.2", 255) };
	struct kernel_gtsm_peer b[] = { ktest_gtsm_peer("198.51.100.2", 0),
					ktest_gtsm_peer("198.51.100.3", 250),
					ktest_gtsm_peer("2001:db8::2", 255) };
	struct ipaddr any = ktest_ip("::");
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	unsigned sel, filt, rules;

	lab();
	ck_assert_msg(kernel_gtsm_group_open(&any, BGP_PORT, false, 64, a, 1, &g, &err) == 0, "%s",
		      err.msg);
	install_lab_keys(g, AF_INET6, false);
	assert_dropped_before_md5("198.51.100.2", 254, SIG_NONE);
	assert_answered("198.51.100.3", 1);
	ck_assert_int_eq(kernel_gtsm_group_update(g, b, array_size(b), &err), 0);
	kernel_gtsm_group_stats(g, &sel, &filt, &rules);
	ck_assert_uint_eq(rules, 2);
	ck_assert_int_eq((int)filt, kernel_gtsm_filter_len(kernel_gtsm_group_fd(g)));
	ck_assert_int_eq((int)sel,
			 kernel_gtsm_selector_build(b, array_size(b),
						    KERNEL_GTSM_FILTER_V4 | KERNEL_GTSM_FILTER_V6,
						    NULL, NULL));
	assert_answered("198.51.100.2", 1);
	assert_dropped_before_md5("198.51.100.3", 249, SIG_NONE);
	assert_answered("198.51.100.3", 250);
	assert_dropped_before_md5("2001:db8::2", 254, SIG_NONE);
	/* a peer set that does not compile changes nothing */
	b[1] = b[2];
	ck_assert_int_eq(kernel_gtsm_group_update(g, b, array_size(b), &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "listed twice"), "%s", err.msg);
	assert_dropped_before_md5("198.51.100.3", 249, SIG_NONE);
	/* no GTSM peer left */
	ck_assert_int_eq(kernel_gtsm_group_update(g, NULL, 0, &err), 0);
	kernel_gtsm_group_stats(g, &sel, &filt, &rules);
	ck_assert_uint_eq(sel, 1);
	ck_assert_uint_eq(filt, 0);
	ck_assert_int_eq(kernel_gtsm_filter_len(kernel_gtsm_group_fd(g)), 0);
	for (int i = 0; i < 8; i++) /* all to the listener: none lost to the sink */
		assert_answered("198.51.100.3", 1 + i);
	kernel_gtsm_group_close(g);
}
END_TEST

/* A stray ACK (no connection, no request) below the minimum dies in the sink: no RST from us. At
 * the minimum the listener answers it with an RST, as any listener does. */
START_TEST(test_stray_ack)
{
	struct kernel_gtsm_group *g;
	struct counters before;
	struct ktest_seg s;
	uint32_t seq;
	int rttl;

	lab();
	g = open_lab_group("::", false);
	before = counters();
	s = seg("198.51.100.4", 254, KT_ACK, NULL); /* hops 1, no key */
	s.ack = 12345;
	ktest_send(&s);
	ck_assert(!ktest_tun_wait(tun_fd, &s.src, s.sport, KT_RST, NO_REPLY_MS, &seq, &rttl));
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl + 1);
	s.ttl = 255;
	ktest_send(&s);
	ck_assert(ktest_tun_wait(tun_fd, &s.src, s.sport, KT_RST, REPLY_MS, &seq, &rttl));
	ck_assert_uint_eq(seq, 12345);
	kernel_gtsm_group_close(g);
}
END_TEST

/*
 * Full-size programs, and an update whose filter swap fails: the listener's option memory holds
 * its TCP-MD5 keys and its filter, and a filter swap briefly needs the old and the new program.
 * With the memory full the update returns -ENOMEM, puts the old selector back, and the group
 * keeps enforcing the old rules (not broken); with room made, the same update goes through.
 */
START_TEST(test_update_rollback)
{
	struct kernel_gtsm_peer *a = ktest_v6_gtsm_peers(3886, 2),
				*b = ktest_v6_gtsm_peers(3886, 10002);
	struct ipaddr any = ktest_ip("::");
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	unsigned sel, filt, rules;
	struct counters before;
	int keys = 0, ret;
	char addr[64];

	lab();
	ck_assert_msg(kernel_gtsm_group_open(&any, BGP_PORT, true, 64, a, 3886, &g, &err) == 0,
		      "%s", err.msg);
	kernel_gtsm_group_stats(g, &sel, &filt, &rules);
	ck_assert_uint_eq(sel, 4096);
	ck_assert_uint_eq(filt, 4096);
	ck_assert_uint_eq(rules, 3886);
	for (;;) {
		struct ipaddr k;

		snprintf(addr, sizeof(addr), "2001:db8:1::%x", keys + 1);
		k = ktest_ip(addr);
		if (kernel_md5_set(kernel_gtsm_group_fd(g), &k, KEY, &err) < 0)
			break;
		keys++;
		ck_assert_int_lt(keys, 100000);
	}
	ck_assert_int_eq(err.code, -ENOMEM);
	ret = kernel_gtsm_group_update(g, b, 3886, &err);
	ck_assert_int_eq(ret, -ENOMEM);
	ck_assert_str_eq(err.option, "SO_ATTACH_FILTER");
	ck_assert_msg(strstr(err.msg, "net.core.optmem_max") && !strstr(err.msg, "broken"), "%s",
		      err.msg);
	/* the old rules, both programs: a's first peer still goes to the sink, b's is nobody's */
	before = counters();
	ck_assert(!syn("2001:db8::2", 254, SIG_NONE, NULL));
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl + 1);
	ck_assert(syn("2001:db8::2712", 1, SIG_NONE, NULL));
	kernel_gtsm_group_stats(g, &sel, &filt, &rules);
	ck_assert_uint_eq(filt, 4096);
	/* room for the swap: the update goes through and takes effect */
	for (int i = 0; i < 300; i++) {
		struct ipaddr k;

		snprintf(addr, sizeof(addr), "2001:db8:1::%x", keys - i);
		k = ktest_ip(addr);
		ck_assert_int_eq(kernel_md5_del(kernel_gtsm_group_fd(g), &k, NULL), 0);
	}
	ck_assert_msg(kernel_gtsm_group_update(g, b, 3886, &err) == 0, "%s", err.msg);
	ck_assert(syn("2001:db8::2", 1, SIG_NONE, NULL));
	before = counters();
	ck_assert(!syn("2001:db8::2712", 254, SIG_NONE, NULL));
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), before.minttl + 1);
	printf("INFO: %d TCP-MD5 keys fit on the listener next to a 4096-instruction filter; the "
	       "update went through with 300 fewer\n",
	       keys);
	free(a);
	free(b);
	kernel_gtsm_group_close(g);
}
END_TEST

/* A second group (or any listener) on the same port is refused instead of joining. */
START_TEST(test_group_port_taken)
{
	struct ipaddr any = ktest_ip("::"), any4 = ktest_ip("0.0.0.0");
	struct kernel_gtsm_group *g, *g2;
	struct kernel_sec_err err;
	int plain;

	lab();
	ck_assert_int_eq(kernel_gtsm_group_open(&any, BGP_PORT, false, 8, NULL, 0, &g, NULL), 0);
	ck_assert_int_eq(kernel_gtsm_group_open(&any, BGP_PORT, false, 8, NULL, 0, &g2, &err),
			 -EADDRINUSE);
	ck_assert_ptr_null(g2);
	ck_assert_msg(strstr(err.msg, "another socket listens on this address and port"), "%s",
		      err.msg);
	ck_assert_int_eq(kernel_gtsm_group_open(&any4, BGP_PORT, false, 8, NULL, 0, &g2, &err),
			 -EADDRINUSE);
	kernel_gtsm_group_close(g);
	plain = ktest_listener("0.0.0.0", BGP_PORT, false);
	ck_assert_int_eq(kernel_gtsm_group_open(&any4, BGP_PORT, false, 8, NULL, 0, &g2, &err),
			 -EADDRINUSE);
	close(plain);
	ck_assert_int_eq(kernel_gtsm_group_open(&any4, BGP_PORT, false, 8, NULL, 0, &g2, &err), 0);
	kernel_gtsm_group_close(g2);
}
END_TEST

/* ---- SYN storm during reconfiguration ---- */

#define STORM_BAD_BASE 20000 /* source ports of low-TTL SYNs that must never be answered */
#define STORM_GOOD_BASE 40000
#define STORM_PORTS 20000

/* GTSM in every configuration of the storm; their minimum varies, never below 250. */
static const char *const storm_always[] = { "198.51.100.2", "198.51.100.3", "2001:db8::2",
					    "2001:db8::3" };
/* Toggled between GTSM and none: their SYNs at TTL 255 must be answered throughout. */
static const char *const storm_toggled[] = { "198.51.100.5", "2001:db8::5" };

struct storm {
	atomic_bool stop;
	atomic_uint bad_sent, good_sent, bad_answered, good_answered, send_errors;
};

static void *storm_sender(void *arg)
{
	struct storm *st = arg;
	struct ktest_raw raw;
	unsigned i = 0;

	if (ktest_raw_open(&raw) < 0) {
		atomic_fetch_add(&st->send_errors, 1);
		return NULL;
	}
	while (!atomic_load(&st->stop)) {
		const char *src = storm_always[i % array_size(storm_always)];
		struct ktest_seg s;

		/* below 250, with and without a (right or bogus) signature */
		memset(&s, 0, sizeof(s));
		s.src = ktest_ip(src);
		s.dst = ktest_ip(s.src.family == AF_INET ? "198.51.100.1" : "2001:db8::1");
		s.sport = (uint16_t)(STORM_BAD_BASE + i % STORM_PORTS);
		s.dport = BGP_PORT;
		s.seq = i;
		s.flags = KT_SYN;
		s.ttl = 1 + (int)(i % 249);
		s.md5_key = i % 3 == 0 ? KEY : NULL;
		s.md5_bogus = i % 3 == 1;
		if (ktest_raw_send(&raw, &s) == 0)
			atomic_fetch_add(&st->bad_sent, 1);
		else
			atomic_fetch_add(&st->send_errors, 1);
		if (i % 8 == 0) { /* a control that must be answered: toggled peer at 255 */
			s.src = ktest_ip(storm_toggled[(i / 8) % array_size(storm_toggled)]);
			s.dst = ktest_ip(s.src.family == AF_INET ? "198.51.100.1" : "2001:db8::1");
			s.sport = (uint16_t)(STORM_GOOD_BASE + (i / 8) % STORM_PORTS);
			s.ttl = 255;
			s.md5_key = NULL;
			s.md5_bogus = false;
			if (ktest_raw_send(&raw, &s) == 0)
				atomic_fetch_add(&st->good_sent, 1);
		}
		i++;
		if (i % 64 == 0)
			usleep(200); /* leave the CPU to the updates now and then */
	}
	ktest_raw_close(&raw);
	return NULL;
}

static void *storm_reader(void *arg)
{
	struct storm *st = arg;
	uint8_t pkt[2048];

	for (;;) {
		struct pollfd pfd = { tun_fd, POLLIN, 0 };
		struct ktest_seg s;
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0) {
			if (atomic_load(&st->stop))
				return NULL;
			continue;
		}
		while ((n = read(tun_fd, pkt, sizeof(pkt))) > 0) {
			if (!ktest_seg_parse(pkt, (size_t)n, &s) || s.sport != BGP_PORT ||
			    s.flags != (KT_SYN | KT_ACK))
				continue;
			if (s.dport >= STORM_BAD_BASE && s.dport < STORM_BAD_BASE + STORM_PORTS)
				atomic_fetch_add(&st->bad_answered, 1);
			else if (s.dport >= STORM_GOOD_BASE)
				atomic_fetch_add(&st->good_answered, 1);
		}
	}
}

/* Configuration k of the storm: the always-GTSM peers at a minimum of 250..255, the toggled ones
 * on or off, and 0..1500 filler peers so that the programs change shape (blocks, sizes). */
static size_t storm_config(unsigned k, struct kernel_gtsm_peer *peers)
{
	size_t n = 0;
	unsigned filler = (k * 397) % 1500;

	for (size_t i = 0; i < array_size(storm_always); i++)
		peers[n++] = ktest_gtsm_peer(storm_always[i], 250 + (int)((k + i) % 6));
	for (size_t i = 0; i < array_size(storm_toggled); i++)
		peers[n++] = ktest_gtsm_peer(storm_toggled[i], (k + i) % 2 ? 255 : 0);
	for (unsigned i = 0; i < filler; i++) {
		char a[48];

		if (i % 2)
			snprintf(a, sizeof(a), "10.%u.%u.%u", i >> 16 & 255, i >> 8 & 255, i & 255);
		else
			snprintf(a, sizeof(a), "2001:db8:%x:1::%x", k % 5, i + 1);
		peers[n++] = ktest_gtsm_peer(a, 200 + (int)(i % 56));
	}
	return n;
}

/*
 * Hammer low-TTL SYNs from peers that are GTSM in every configuration while the group is
 * updated hundreds of times: not one may be answered, every one must be a TCPMinTTLDrop (so none
 * reached the listener's MD5 check or filter), no TCPMD5* counter may move; controls keep being
 * answered.
 */
START_TEST(test_storm_during_updates)
{
	static struct kernel_gtsm_peer peers[1600];
	struct kernel_gtsm_group *g;
	struct kernel_sec_err err;
	struct ipaddr any = ktest_ip("::");
	struct storm st;
	struct counters before, after;
	pthread_t sender, reader;
	unsigned updates = 0;
	size_t n;

	lab();
	memset(&st, 0, sizeof(st));
	n = storm_config(0, peers);
	ck_assert_msg(kernel_gtsm_group_open(&any, BGP_PORT, false, 1024, peers, n, &g, &err) == 0,
		      "%s", err.msg);
	for (size_t i = 0; i < array_size(storm_always); i++) {
		struct ipaddr p = ktest_ip(storm_always[i]);

		ck_assert_int_eq(kernel_md5_set(kernel_gtsm_group_fd(g), &p, KEY, NULL), 0);
	}
	before = counters();
	ck_assert_int_eq(pthread_create(&reader, NULL, storm_reader, &st), 0);
	ck_assert_int_eq(pthread_create(&sender, NULL, storm_sender, &st), 0);
	for (unsigned k = 1; k <= 400; k++) {
		n = storm_config(k, peers);
		ck_assert_msg(kernel_gtsm_group_update(g, peers, n, &err) == 0, "update %u: %s", k,
			      err.msg);
		updates++;
		usleep(2000);
	}
	atomic_store(&st.stop, true);
	pthread_join(sender, NULL);
	usleep(300 * 1000); /* the last answers */
	pthread_join(reader, NULL);
	after = counters();
	printf("INFO: storm: %u updates, %u low-TTL SYNs (0 may be answered: %u were), %u "
	       "controls (%u answered), TCPMinTTLDrop +%llu\n",
	       updates, atomic_load(&st.bad_sent), atomic_load(&st.bad_answered),
	       atomic_load(&st.good_sent), atomic_load(&st.good_answered),
	       (unsigned long long)(after.minttl - before.minttl));
	ck_assert_uint_eq(atomic_load(&st.send_errors), 0);
	ck_assert_uint_gt(atomic_load(&st.bad_sent), 10000);
	ck_assert_uint_eq(atomic_load(&st.bad_answered), 0);
	ck_assert_uint_eq(after.minttl - before.minttl, atomic_load(&st.bad_sent));
	ck_assert_uint_eq(after.notfound, before.notfound);
	ck_assert_uint_eq(after.failure, before.failure);
	ck_assert_uint_eq(after.unexpected, before.unexpected);
	ck_assert_uint_gt(atomic_load(&st.good_answered), atomic_load(&st.good_sent) * 9 / 10);
	kernel_gtsm_group_close(g);
}
END_TEST

/* ---- the kernel behaviour behind the design (doc/gtsm-kernel.md "Why not") ---- */

static void attach_const(int fd, uint32_t index)
{
	struct sock_filter ret = BPF_STMT(BPF_RET | BPF_K, index);
	struct sock_fprog prog = { 1, &ret };

	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof(prog)),
			 0);
}

static int reuseport_listener(void)
{
	int fd = ktest_socket(AF_INET, false), one = 1;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(BGP_PORT) };

	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)), 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(listen(fd, 64), 0);
	return fd;
}

/* Which of lst[0..n) gets a TTL-255 SYN from .9 (its request socket is pending there; the
 * SYN-ACK proves it came through). Returns the index, -1 if none. */
static int who_gets_syn(const int *lst, int n)
{
	struct ktest_seg s = seg("198.51.100.9", 255, KT_SYN, NULL), ack;
	struct pollfd pfd[4];
	uint32_t srv;
	int rttl;

	ck_assert_int_le(n, 4);
	ktest_send(&s);
	ck_assert(ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, REPLY_MS, &srv, &rttl));
	ack = s;
	ack.flags = KT_ACK;
	ack.seq = s.seq + 1;
	ack.ack = srv + 1;
	ktest_send(&ack);
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ lst[i], POLLIN, 0 };
	if (poll(pfd, (nfds_t)n, REPLY_MS) <= 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (pfd[i].revents & POLLIN) {
			int c = ktest_accept(lst[i], 0);

			ck_assert_int_ge(c, 0);
			ktest_close_abort(c);
			return i;
		}
	return -1;
}

/*
 * (1) The index a cBPF selector returns is a position in the group's array, in listen() order.
 * (2) Closing a member moves the last one into its place. (3) An index past the end is not a
 * drop: the kernel hashes the packet over all members, so in a group "one listener per minimum"
 * an index that is briefly stale lands SYNs on the listener without a minimum. This is why the
 * group has two fixed members.
 */
START_TEST(test_reuseport_index_semantics)
{
	int lst[3], moved[2];
	int hits[2] = { 0, 0 };

	lab();
	for (int i = 0; i < 3; i++)
		lst[i] = reuseport_listener();
	for (int i = 0; i < 3; i++) {
		attach_const(lst[0], (uint32_t)i);
		ck_assert_int_eq(who_gets_syn(lst, 3), i);
	}
	close(lst[1]);
	moved[0] = lst[0];
	moved[1] = lst[2];
	attach_const(moved[0], 1);
	ck_assert_int_eq(who_gets_syn(moved, 2), 1); /* the last one now sits at index 1 */
	attach_const(moved[0], 2);		     /* past the end: hashed over both */
	for (int i = 0; i < 24; i++) {
		int w = who_gets_syn(moved, 2);

		ck_assert_int_ge(w, 0);
		hits[w]++;
	}
	ck_assert_msg(hits[0] > 0 && hits[1] > 0, "an index past the end went to %d / %d", hits[0],
		      hits[1]);
	close(moved[0]);
	close(moved[1]);
}
END_TEST

/*
 * What a reuseport cBPF program sees: an absolute load at offset 0 fails for a SYN without
 * payload (the kernel advanced the data past the TCP header; a failed load ends the program with
 * 0), while SKF_NET_OFF loads read the IP header. Program A: "ldb [0]; ret #1" sends every SYN
 * to index 0 (had the data been at the TCP header, the load would succeed and all would go to 1).
 * Program B: "ldb [net+9]; sub #5; ret a" returns protocol 6 - 5 = 1.
 */
START_TEST(test_selector_offsets)
{
	struct sock_filter a[] = { BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
				   BPF_STMT(BPF_RET | BPF_K, 1) };
	struct sock_filter b[] = { BPF_STMT(BPF_LD | BPF_B | BPF_ABS, (uint32_t)(SKF_NET_OFF + 9)),
				   BPF_STMT(BPF_ALU | BPF_SUB | BPF_K, 5),
				   BPF_STMT(BPF_RET | BPF_A, 0) };
	struct sock_fprog pa = { array_size(a), a }, pb = { array_size(b), b };
	int lst[2];

	lab();
	lst[0] = reuseport_listener();
	lst[1] = reuseport_listener();
	ck_assert_int_eq(setsockopt(lst[0], SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &pa, sizeof(pa)),
			 0);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(who_gets_syn(lst, 2), 0);
	ck_assert_int_eq(setsockopt(lst[0], SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &pb, sizeof(pb)),
			 0);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(who_gets_syn(lst, 2), 1);
	close(lst[0]);
	close(lst[1]);
}
END_TEST

/* ---- cost per spoofed SYN ---- */

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Send n SYNs from src at ttl, signed as asked, from one open raw socket; the receive path
 * (loopback, ip_rcv, tcp_v4_rcv) runs in this thread's softirq. Returns CPU ns per SYN.
 */
static double send_cost(unsigned n, const char *src, int ttl, enum sig sig)
{
	struct ktest_seg s;
	struct ktest_raw raw;
	uint8_t pkt[2048];
	double t0;

	memset(&s, 0, sizeof(s));
	s.src = ktest_ip(src);
	s.dst = ktest_ip("198.51.100.1");
	s.dport = BGP_PORT;
	s.flags = KT_SYN;
	s.ttl = ttl;
	s.md5_key = sig == SIG_RIGHT ? KEY : NULL;
	s.md5_bogus = sig == SIG_WRONG;
	ck_assert_int_eq(ktest_raw_open(&raw), 0);
	t0 = thread_cpu_ns();
	for (unsigned i = 0; i < n; i++) {
		s.sport = (uint16_t)(10000 + i % 50000);
		s.seq = i;
		ck_assert_int_eq(ktest_raw_send(&raw, &s), 0);
	}
	t0 = (thread_cpu_ns() - t0) / n;
	ktest_raw_close(&raw);
	while (read(tun_fd, pkt, sizeof(pkt)) > 0) /* whatever was answered */
		;
	return t0;
}

enum cost_case { COST_GROUP, COST_GROUP_BIG, COST_PLAIN, COST_NONE, COST__MAX };

#define COST_BIG 4000 /* GTSM peers in the big group: 10.0.0.1..; the measured peer sorts last */

static struct kernel_gtsm_peer *big_peer_set(void)
{
	struct kernel_gtsm_peer *t = calloc(COST_BIG, sizeof(*t));

	ck_assert_ptr_nonnull(t);
	for (unsigned i = 0; i + 1 < COST_BIG; i++) {
		char a[32];

		snprintf(a, sizeof(a), "10.0.%u.%u", (i + 1) >> 8, (i + 1) & 255);
		t[i] = ktest_gtsm_peer(a, 255);
	}
	t[COST_BIG - 1] = ktest_gtsm_peer("198.51.100.2", 255);
	return t;
}

/*
 * Spoofed TTL-64 SYNs claiming a keyed hops-1 peer (bogus MD5 option, so a listener that gets
 * them computes a digest; and unsigned), into (a) the group, (b) a plain dual-stack listener
 * with the key and the GTSM filter (the design before the group), (c) nothing listening on
 * the port (the kernel's floor: lookup fails, an RST is sent). The counters are exact; the CPU
 * figures (best of 5 rounds, interleaved) are printed for doc/gtsm-kernel.md.
 */
START_TEST(test_cost_per_spoofed_syn)
{
	enum { N = 50000, ROUNDS = 5 };
	static const char *const name[] = { "group (sink, TCPMinTTLDrop)",
					    "group of 4000 GTSM peers, this one last",
					    "plain listener + key + filter", "no listener (RST)" };
	struct kernel_gtsm_peer peers[] = { ktest_gtsm_peer("198.51.100.2", 255) };
	struct kernel_gtsm_peer *big = big_peer_set();
	struct ipaddr any = ktest_ip("::"), p = ktest_ip("198.51.100.2");
	double best[COST__MAX][2];
	struct counters c0, c1;

	lab();
	for (int c = 0; c < COST__MAX; c++)
		best[c][0] = best[c][1] = 1e12;
	for (int r = 0; r < ROUNDS; r++) {
		for (int c = 0; c < COST__MAX; c++) {
			struct kernel_gtsm_group *g = NULL;
			int lst = -1;
			double t;

			if (c == COST_GROUP || c == COST_GROUP_BIG) {
				ck_assert_int_eq(kernel_gtsm_group_open(
							 &any, BGP_PORT, false, 64,
							 c == COST_GROUP ? peers : big,
							 c == COST_GROUP ? 1 : COST_BIG, &g, NULL),
						 0);
				ck_assert_int_eq(
					kernel_md5_set(kernel_gtsm_group_fd(g), &p, KEY, NULL), 0);
			} else if (c == COST_PLAIN) {
				lst = ktest_listener("::", BGP_PORT, false);
				ck_assert_int_eq(kernel_ttl_set(lst, NULL, 255, NULL), 0);
				ck_assert_int_eq(kernel_md5_set(lst, &p, KEY, NULL), 0);
				ck_assert_int_gt(kernel_gtsm_filter_attach(lst, peers, 1, NULL), 0);
			}
			c0 = counters();
			for (int v = 0; v < 2; v++) {
				t = send_cost(N, "198.51.100.2", 64, v ? SIG_NONE : SIG_WRONG);
				if (t < best[c][v])
					best[c][v] = t;
			}
			c1 = counters();
			/* exact: every SYN took the path the case is about */
			ck_assert_uint_eq(c1.minttl - c0.minttl, g ? 2 * N : 0);
			ck_assert_uint_eq(c1.failure - c0.failure, c == COST_PLAIN ? N : 0);
			ck_assert_uint_eq(c1.notfound - c0.notfound, c == COST_PLAIN ? N : 0);
			kernel_gtsm_group_close(g);
			if (lst >= 0)
				close(lst);
		}
	}
	for (int c = 0; c < COST__MAX; c++)
		printf("INFO: cost per spoofed SYN, %s: %.0f ns (bogus MD5 option), %.0f ns "
		       "(unsigned)\n",
		       name[c], best[c][0], best[c][1]);
	free(big);
}
END_TEST

static Suite *group_suite(void)
{
	Suite *s = suite_create("kernel_gtsm_group");
	TCase *tc = tcase_create("group");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_group_syn_v4);
	tcase_add_test(tc, test_group_syn_v6);
	tcase_add_test(tc, test_group_families);
	tcase_add_test(tc, test_group_specific_address_and_port0);
	tcase_add_test(tc, test_handshake_ack_v4);
	tcase_add_test(tc, test_handshake_ack_v6);
	tcase_add_test(tc, test_accepted_non_gtsm);
	tcase_add_test(tc, test_syncookie_ack);
	tcase_add_test(tc, test_group_update);
	tcase_add_test(tc, test_stray_ack);
	tcase_add_test(tc, test_update_rollback);
	tcase_add_test(tc, test_group_port_taken);
	tcase_add_test(tc, test_storm_during_updates);
	tcase_add_test(tc, test_reuseport_index_semantics);
	tcase_add_test(tc, test_selector_offsets);
	suite_add_tcase(s, tc);
	/* its own case, so that CK_RUN_CASE=cost runs it alone (under perf, for instance) */
	tc = tcase_create("cost");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cost_per_spoofed_syn);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_gtsm_group", group_suite());
}
