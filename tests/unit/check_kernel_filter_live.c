/* SPDX-License-Identifier: ISC */
/*
 * kernel/gtsm_filter.c on real listeners. Needs root (exit 77 = SKIP otherwise). Each test runs
 * in Check's forked child inside its own network namespace with a tun device "skua0"
 * (198.51.100.1/24, 2001:db8::1/64). Crafted segments with a spoofed peer source and a chosen
 * TTL / hop limit go to the listener from raw sockets; the listener's replies are routed to the
 * peer's subnet, i.e. into the tun, where the test reads them (and nothing answers them, so no
 * RST disturbs the handshake). A SYN-ACK seen there means the SYN passed.
 */
#include "lib/compat.h"

#include <check.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel_security.h"
#include "tests/unit/kernel_test.h"

#define BGP_PORT 179
#define REPLY_MS 1000	 /* a SYN-ACK on loopback-speed paths comes within milliseconds */
#define NO_REPLY_MS 1000 /* and a dropped SYN is never answered: wait this long to say so */

static int tun_fd;
static uint16_t next_port = 40000;

/* The namespace, the tun and a listener with TTL 255 (doc/architecture.md: the listener sends 255).
 */
static int lab(const char *listen, bool v6only)
{
	int lst;

	ktest_netns();
	tun_fd = ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
	lst = ktest_listener(listen, BGP_PORT, v6only);
	ck_assert_int_eq(kernel_ttl_set(lst, NULL, 255, NULL), 0);
	return lst;
}

static struct ktest_seg seg_from(const char *src, int ttl, uint8_t flags)
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
	return s;
}

/* Send a SYN; did a SYN-ACK come back? reply_ttl (optional) gets its TTL / hop limit. */
static bool syn_answered(const char *src, int ttl, int *reply_ttl)
{
	struct ktest_seg s = seg_from(src, ttl, KT_SYN);
	uint32_t seq;
	int rttl;
	bool got;

	ktest_send(&s);
	got = ktest_tun_wait(tun_fd, &s.src, s.sport, KT_SYN | KT_ACK, REPLY_MS, &seq, &rttl);
	if (got && reply_ttl)
		*reply_ttl = rttl;
	return got;
}

/*
 * The SYN got no answer, and (control) the same source at TTL 255 does get one right after:
 * the silence came from the TTL, not from a path that was not ready.
 */
static bool syn_dropped(const char *src, int ttl)
{
	if (syn_answered(src, ttl, NULL))
		return false;
	ck_assert_msg(syn_answered(src, 255, NULL),
		      "control: a TTL 255 SYN from %s got no answer either", src);
	return true;
}

static int attach_lab_peers(int lst)
{
	struct kernel_gtsm_peer peers[] = {
		ktest_gtsm_peer("198.51.100.2", 255), /* hops 1 */
		ktest_gtsm_peer("198.51.100.3", 254), /* hops 2 */
		ktest_gtsm_peer("198.51.100.9", 0),   /* no GTSM */
		ktest_gtsm_peer("2001:db8::2", 255),  /* hops 1 */
		ktest_gtsm_peer("2001:db8::3", 250),  /* hops 6 */
		ktest_gtsm_peer("2001:db8::9", 0),    /* no GTSM */
	};
	struct kernel_sec_err err;
	int len = kernel_gtsm_filter_attach(lst, peers, array_size(peers), &err);

	ck_assert_msg(len > 0, "%s", err.msg);
	ck_assert_int_eq(kernel_gtsm_filter_len(lst), len);
	return len;
}

struct syn_case {
	const char *src;
	int ttl;
	bool answered;
};

static void run_cases(const struct syn_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rttl = -1;
		bool got = cases[i].answered ? syn_answered(cases[i].src, cases[i].ttl, &rttl)
					     : !syn_dropped(cases[i].src, cases[i].ttl);

		ck_assert_msg(got == cases[i].answered, "SYN from %s with TTL %d: %s", cases[i].src,
			      cases[i].ttl, got ? "answered" : "not answered");
		/* RFC 5082 section 3: the listener's replies leave with 255 */
		if (cases[i].answered)
			ck_assert_int_eq(rttl, 255);
	}
}

/* Dual-stack listener, IPv4 sources. */
START_TEST(test_filter_syn_v4)
{
	static const struct syn_case cases[] = {
		{ "198.51.100.2", 254, false }, { "198.51.100.2", 1, false },
		{ "198.51.100.2", 255, true },	{ "198.51.100.3", 253, false },
		{ "198.51.100.3", 254, true },	{ "198.51.100.9", 1, true }, /* no GTSM */
		{ "198.51.100.77", 1, true },				     /* unknown */
	};
	int lst = lab("::", false);

	attach_lab_peers(lst);
	run_cases(cases, array_size(cases));
	/* the filter's drops are not GTSM minimum drops: TCPMinTTLDrop does not see them */
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), 0);
	close(lst);
}
END_TEST

START_TEST(test_filter_syn_v6)
{
	static const struct syn_case cases[] = {
		{ "2001:db8::2", 254, false }, { "2001:db8::2", 255, true },
		{ "2001:db8::3", 249, false }, { "2001:db8::3", 250, true },
		{ "2001:db8::9", 1, true },    { "2001:db8::77", 1, true },
	};
	int lst = lab("::", false);

	attach_lab_peers(lst);
	run_cases(cases, array_size(cases));
	close(lst);
}
END_TEST

/* The gap the filter closes: without it, the kernel answers a GTSM peer's SYN of any TTL. */
START_TEST(test_no_filter_gap)
{
	int lst = lab("::", false);

	ck_assert(syn_answered("198.51.100.2", 1, NULL));
	ck_assert(syn_answered("2001:db8::2", 1, NULL));
	close(lst);
}
END_TEST

/*
 * The handshake-completing ACK goes to the request socket, which the kernel never TTL-checks
 * (LAB-NOTES); the listener's filter sees it. A low-TTL ACK creates no connection, the
 * TTL 255 ACK does. Without the filter (filtered false) the low-TTL ACK completes it.
 */
static void handshake_ack(const char *src, bool filtered)
{
	struct ktest_seg syn = seg_from(src, 255, KT_SYN), ack;
	struct ipaddr remote;
	uint32_t srv_seq;
	int lst = lab("::", false), rttl, child, listener_len = 0;

	if (filtered)
		listener_len = attach_lab_peers(lst);
	ktest_send(&syn);
	ck_assert(ktest_tun_wait(tun_fd, &syn.src, syn.sport, KT_SYN | KT_ACK, REPLY_MS, &srv_seq,
				 &rttl));
	ack = syn;
	ack.flags = KT_ACK;
	ack.seq = syn.seq + 1;
	ack.ack = srv_seq + 1;
	ack.ttl = 254;
	ktest_send(&ack);
	child = ktest_accept(lst, NO_REPLY_MS);
	if (!filtered) {
		ck_assert_msg(child >= 0,
			      "without the filter a TTL 254 ACK completes the handshake");
		ktest_close_abort(child);
		close(lst);
		return;
	}
	ck_assert_msg(child == -ETIMEDOUT, "a TTL 254 ACK from a hops-1 peer completed it");
	ack.ttl = 255;
	ktest_send(&ack);
	child = ktest_accept(lst, REPLY_MS);
	ck_assert_int_ge(child, 0);
	{
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);

		ck_assert_int_eq(getpeername(child, (struct sockaddr *)&ss, &len), 0);
		ck_assert_int_eq(ipaddr_from_sockaddr(&remote, NULL, (struct sockaddr *)&ss), 0);
		ipaddr_unmap_v4(&remote);
		ck_assert_int_eq(ipaddr_cmp(&remote, &syn.src), 0);
	}
	/* the accepted socket inherits the listener's program; the session layer detaches it
	 * once IP_MINTTL is on (kernel_security.h) */
	ck_assert_int_eq(kernel_gtsm_filter_len(child), listener_len);
	ck_assert_int_eq(kernel_gtsm_filter_detach(child, NULL), 0);
	ck_assert_int_eq(kernel_gtsm_filter_len(child), 0);
	ck_assert_int_eq(kernel_gtsm_filter_len(lst), listener_len);
	ktest_close_abort(child);
	close(lst);
}

START_TEST(test_handshake_ack_v4)
{
	handshake_ack("198.51.100.2", true);
}
END_TEST

START_TEST(test_handshake_ack_v6)
{
	handshake_ack("2001:db8::2", true);
}
END_TEST

START_TEST(test_handshake_ack_unfiltered)
{
	handshake_ack("198.51.100.2", false);
}
END_TEST

/* Replacing the program takes effect at once; no GTSM peer left = detached; detach is
 * idempotent. */
START_TEST(test_filter_replace)
{
	struct kernel_gtsm_peer a[] = { ktest_gtsm_peer("198.51.100.2", 255) };
	struct kernel_gtsm_peer b[] = { ktest_gtsm_peer("198.51.100.2", 0),
					ktest_gtsm_peer("198.51.100.3", 255) };
	int lst = lab("::", false), len_a, len_b;

	len_a = kernel_gtsm_filter_attach(lst, a, array_size(a), NULL);
	ck_assert_int_gt(len_a, 0);
	ck_assert(syn_dropped("198.51.100.2", 254));
	ck_assert(syn_answered("198.51.100.3", 1, NULL));
	len_b = kernel_gtsm_filter_attach(lst, b, array_size(b), NULL);
	ck_assert_int_gt(len_b, 0);
	ck_assert_int_eq(kernel_gtsm_filter_len(lst), len_b);
	ck_assert(syn_answered("198.51.100.2", 254, NULL));
	ck_assert(syn_dropped("198.51.100.3", 254));
	b[1].min_ttl = 0;
	ck_assert_int_eq(kernel_gtsm_filter_attach(lst, b, array_size(b), NULL), 0);
	ck_assert_int_eq(kernel_gtsm_filter_len(lst), 0);
	ck_assert(syn_answered("198.51.100.3", 1, NULL));
	ck_assert_int_eq(kernel_gtsm_filter_detach(lst, NULL), 0);
	close(lst);
}
END_TEST

/* On Linux the listener's MD5 check runs before its socket filter: a spoofed unsigned SYN of a
 * keyed GTSM peer is counted in TCPMD5NotFound although the filter would drop it. */
START_TEST(test_md5_before_filter)
{
	struct ipaddr peer = ktest_ip("198.51.100.2");
	int lst = lab("::", false);
	uint64_t before;

	ck_assert_int_eq(kernel_md5_set(lst, &peer, "skua-test-password", NULL), 0);
	attach_lab_peers(lst);
	before = ktest_counter("TCPMD5NotFound");
	ck_assert(!syn_answered("198.51.100.2", 254, NULL));
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound"), before + 1);
	ck_assert(!syn_answered("198.51.100.2", 255, NULL)); /* unsigned: MD5 drops it */
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound"), before + 2);
	ck_assert(syn_answered("198.51.100.9", 1, NULL)); /* no key, no GTSM */
	close(lst);
}
END_TEST

/* An AF_INET listener gets only the IPv4 rules, a V6ONLY one only the IPv6 rules. */
START_TEST(test_listener_families)
{
	struct kernel_gtsm_peer peers[] = { ktest_gtsm_peer("198.51.100.2", 255),
					    ktest_gtsm_peer("2001:db8::2", 255) };
	int lst = lab("0.0.0.0", false), v6;

	ck_assert_int_eq(kernel_gtsm_filter_attach(lst, peers, 2, NULL),
			 kernel_gtsm_filter_build(peers, 2, KERNEL_GTSM_FILTER_V4, NULL, NULL));
	ck_assert(syn_dropped("198.51.100.2", 254));
	ck_assert(syn_answered("198.51.100.2", 255, NULL));
	v6 = ktest_listener("::", BGP_PORT, true);
	ck_assert_int_eq(kernel_gtsm_filter_attach(v6, peers, 2, NULL),
			 kernel_gtsm_filter_build(peers, 2, KERNEL_GTSM_FILTER_V6, NULL, NULL));
	ck_assert(syn_dropped("2001:db8::2", 254));
	ck_assert(syn_answered("2001:db8::2", 255, NULL));
	close(v6);
	close(lst);
}
END_TEST

/*
 * Full-size programs (4096 instructions) attach, and replace each other, on a real listener
 * whose TCP-MD5 keys share the same option memory (net.core.optmem_max). The figures are
 * printed for doc/gtsm-kernel.md.
 */
START_TEST(test_full_size_live)
{
	struct kernel_gtsm_peer *a = ktest_v6_gtsm_peers(3886, 2),
				*b = ktest_v6_gtsm_peers(3886, 10002);
	struct kernel_sec_err err;
	struct ipaddr key_peer;
	int lst = lab("::", false), keys = 0, ret;
	char addr[64];

	ck_assert_int_eq(kernel_gtsm_filter_attach(lst, a, 3886, &err), 4096);
	ck_assert(syn_dropped("2001:db8::2", 254)); /* a[0] */
	ck_assert(syn_answered("2001:db8::2", 255, NULL));
	ck_assert(syn_answered("2001:db8::3:0", 1, NULL)); /* not in a */
	ret = kernel_gtsm_filter_attach(lst, b, 3886, &err);
	ck_assert_msg(ret == 4096, "replacing a full program: %s", err.msg);
	ck_assert(syn_answered("2001:db8::2", 1, NULL));
	ck_assert(syn_dropped("2001:db8::0:2712", 254)); /* b[0] = 10002 */

	/* how many MD5 keys fit next to a full program, and does a replacement still fit? */
	for (;;) {
		snprintf(addr, sizeof(addr), "2001:db8:1::%x:%x", keys >> 16, keys & 0xffff);
		key_peer = ktest_ip(addr);
		if (kernel_md5_set(lst, &key_peer, "skua-test-password", &err) < 0)
			break;
		keys++;
		ck_assert_int_lt(keys, 100000);
	}
	ck_assert_int_eq(err.code, -ENOMEM);
	ck_assert_msg(strstr(err.msg, "net.core.optmem_max"), "%s", err.msg);
	printf("INFO: optmem: %d TCP-MD5 keys fit next to a 4096-instruction filter\n", keys);
	ret = kernel_gtsm_filter_attach(lst, a, 3886, &err);
	ck_assert_int_eq(ret, -ENOMEM); /* old and new program are charged during the swap */
	ck_assert_msg(strstr(err.msg, "SO_ATTACH_FILTER attach (0 IPv4 + 3886 IPv6 GTSM peers, "
				      "4096 instructions) for listener [::]:179") &&
			      strstr(err.msg, "net.core.optmem_max"),
		      "%s", err.msg);
	/* the failed replacement left the old program in place: still enforcing */
	ck_assert_int_eq(kernel_gtsm_filter_len(lst), 4096);
	ck_assert(syn_dropped("2001:db8::0:2712", 254));
	/* headroom for a swap: how many keys must go */
	{
		int removed = 0;

		while (kernel_gtsm_filter_attach(lst, a, 3886, NULL) == -ENOMEM) {
			snprintf(addr, sizeof(addr), "2001:db8:1::%x:%x", (keys - 1) >> 16,
				 (keys - 1) & 0xffff);
			key_peer = ktest_ip(addr);
			ck_assert_int_eq(kernel_md5_del(lst, &key_peer, NULL), 0);
			keys--;
			removed++;
		}
		printf("INFO: optmem: a full replacement fits with %d keys (%d fewer)\n", keys,
		       removed);
	}
	free(a);
	free(b);
	close(lst);
}
END_TEST

static Suite *filter_live_suite(void)
{
	Suite *s = suite_create("kernel_gtsm_filter_live");
	TCase *tc = tcase_create("listener");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_filter_syn_v4);
	tcase_add_test(tc, test_filter_syn_v6);
	tcase_add_test(tc, test_no_filter_gap);
	tcase_add_test(tc, test_handshake_ack_v4);
	tcase_add_test(tc, test_handshake_ack_v6);
	tcase_add_test(tc, test_handshake_ack_unfiltered);
	tcase_add_test(tc, test_filter_replace);
	tcase_add_test(tc, test_md5_before_filter);
	tcase_add_test(tc, test_listener_families);
	tcase_add_test(tc, test_full_size_live);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_filter_live", filter_live_suite());
}
