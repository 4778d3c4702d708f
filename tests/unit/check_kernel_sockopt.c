/* SPDX-License-Identifier: ISC */
/*
 * kernel/md5sig.c, kernel/ttl.c, kernel/caps.c and the counters against the real kernel. Needs
 * root (exit 77 = SKIP otherwise). Each test runs in Check's forked child (forced, whatever
 * CK_FORK says) and first moves into its own network namespace (ktest_netns), so counters start
 * at zero, port 179 is free, and nothing survives the test.
 */
#include "lib/compat.h"

#include <check.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/kernel_security.h"
#include "tests/unit/kernel_test.h"

#define KEY "skua-test-password"
#define BGP_PORT 179
#define NO_REPLY_MS 1500 /* a dropped SYN: the client's first retransmission comes after 1 s */

static bool send_byte(int fd)
{
	char c = 'x';

	return send(fd, &c, 1, MSG_NOSIGNAL) == 1;
}

/* The byte sent on `from` arrives on `to` within timeout_ms. */
static bool delivered(int to, int timeout_ms)
{
	char c;

	return ktest_readable(to, timeout_ms) && recv(to, &c, 1, 0) == 1;
}

/* A connected pair through a listener: *client and *server (the accepted socket). */
static void pair(int lst, int family, bool v6only, const char *addr, int *client, int *server)
{
	*client = ktest_socket(family, v6only);
	ck_assert_int_eq(ktest_connect(*client, addr, BGP_PORT, 2000), 0);
	*server = ktest_accept(lst, 2000);
	ck_assert_int_ge(*server, 0);
}

/* ---- TTL and minimum TTL ---- */

START_TEST(test_ttl_readback)
{
	int v4, v6, dual, ret;

	ktest_netns();
	v4 = ktest_socket(AF_INET, false);
	ck_assert_int_eq(kernel_ttl_get(v4, AF_INET), 64); /* the namespace default */
	ck_assert_int_eq(kernel_ttl_set(v4, NULL, 255, NULL), 0);
	ck_assert_int_eq(kernel_ttl_get(v4, AF_INET), 255);
	ck_assert_int_eq(kernel_minttl_set(v4, NULL, 200, NULL), 0);
	ck_assert_int_eq(kernel_minttl_get(v4, AF_INET), 200);
	ck_assert_int_eq(kernel_minttl_set(v4, NULL, 0, NULL), 0);
	ck_assert_int_eq(kernel_minttl_get(v4, AF_INET), 0);
	/* IPv6 options do not exist on an AF_INET socket (6.18 says EOPNOTSUPP) */
	ret = kernel_ttl_get(v4, AF_INET6);
	ck_assert_msg(ret == -EOPNOTSUPP || ret == -ENOPROTOOPT, "%d", ret);

	v6 = ktest_socket(AF_INET6, true);
	ck_assert_int_eq(kernel_ttl_set(v6, NULL, 200, NULL), 0);
	ck_assert_int_eq(kernel_ttl_get(v6, AF_INET6), 200);
	ck_assert_int_eq(kernel_ttl_get(v6, AF_INET), 64); /* V6ONLY: IPv4 options untouched */
	ck_assert_int_eq(kernel_minttl_set(v6, NULL, 255, NULL), 0);
	ck_assert_int_eq(kernel_minttl_get(v6, AF_INET6), 255);
	ck_assert_int_eq(kernel_minttl_get(v6, AF_INET), 0);

	dual = ktest_socket(AF_INET6, false);
	ck_assert_int_eq(kernel_ttl_set(dual, NULL, 255, NULL), 0);
	ck_assert_int_eq(kernel_ttl_get(dual, AF_INET6), 255);
	ck_assert_int_eq(kernel_ttl_get(dual, AF_INET), 255); /* both families written */
	ck_assert_int_eq(kernel_minttl_set(dual, NULL, 254, NULL), 0);
	ck_assert_int_eq(kernel_minttl_get(dual, AF_INET6), 254);
	ck_assert_int_eq(kernel_minttl_get(dual, AF_INET), 254);
	close(v4);
	close(v6);
	close(dual);
}
END_TEST

START_TEST(test_gtsm_set_clear)
{
	static const struct {
		int family;
		bool v6only;
		int af[2];
	} kinds[] = {
		{ AF_INET, false, { AF_INET, AF_INET } },
		{ AF_INET6, true, { AF_INET6, AF_INET6 } },
		{ AF_INET6, false, { AF_INET, AF_INET6 } },
	};
	struct ipaddr peer = ktest_ip("192.0.2.1");

	ktest_netns();
	for (unsigned k = 0; k < array_size(kinds); k++) {
		int fd = ktest_socket(kinds[k].family, kinds[k].v6only);

		ck_assert_int_eq(kernel_gtsm_set(fd, &peer, 1, NULL), 0);
		for (int i = 0; i < 2; i++) {
			ck_assert_int_eq(kernel_ttl_get(fd, kinds[k].af[i]), 255);
			ck_assert_int_eq(kernel_minttl_get(fd, kinds[k].af[i]), 255);
		}
		ck_assert_int_eq(kernel_gtsm_set(fd, &peer, 3, NULL), 0); /* live change */
		for (int i = 0; i < 2; i++)
			ck_assert_int_eq(kernel_minttl_get(fd, kinds[k].af[i]), 253);
		ck_assert_int_eq(kernel_gtsm_clear(fd, &peer, 0, NULL), 0);
		for (int i = 0; i < 2; i++) {
			ck_assert_int_eq(kernel_minttl_get(fd, kinds[k].af[i]), 0);
			ck_assert_int_eq(kernel_ttl_get(fd, kinds[k].af[i]), 255); /* left */
		}
		ck_assert_int_eq(kernel_gtsm_clear(fd, &peer, 1, NULL), 0);
		for (int i = 0; i < 2; i++)
			ck_assert_int_eq(kernel_ttl_get(fd, kinds[k].af[i]), 1);
		close(fd);
	}
}
END_TEST

/* GTSM on an accepted socket really drops: a low-TTL segment is counted and not delivered; the
 * retransmission at TTL 255 is. */
static void minttl_enforced(const char *addr, int family, bool v6only, const char *listen)
{
	struct ipaddr peer = ktest_ip(addr);
	uint64_t drops;
	int lst, c, s;

	ktest_netns();
	lst = ktest_listener(listen, BGP_PORT, v6only);
	pair(lst, family, v6only, addr, &c, &s);
	ck_assert_int_eq(kernel_gtsm_set(s, &peer, 1, NULL), 0);
	ck_assert_int_eq(kernel_ttl_set(c, &peer, 254, NULL), 0); /* one hop too far */
	drops = ktest_counter("TCPMinTTLDrop");
	ck_assert(send_byte(c));
	ck_assert_msg(!delivered(s, 600), "a TTL 254 segment passed a minimum of 255");
	ck_assert_uint_gt(ktest_counter("TCPMinTTLDrop"), drops);
	ck_assert_int_eq(kernel_ttl_set(c, &peer, 255, NULL), 0);
	ck_assert_msg(delivered(s, 3000), "the TTL 255 retransmission was not delivered");
	close(c);
	close(s);
	close(lst);
}

START_TEST(test_minttl_enforced_v4)
{
	minttl_enforced("127.0.0.1", AF_INET, false, "127.0.0.1");
}
END_TEST

START_TEST(test_minttl_enforced_v6)
{
	minttl_enforced("::1", AF_INET6, true, "::1");
}
END_TEST

/* IPv4 peer on a dual-stack AF_INET6 socket: our setters cover it... */
START_TEST(test_minttl_enforced_mapped)
{
	minttl_enforced("127.0.0.1", AF_INET6, false, "::");
}
END_TEST

/* ...because Linux governs v4-mapped traffic with the IPv4 options only (the reason ttl.c
 * writes both families): IPV6_MINHOPCOUNT / IPV6_UNICAST_HOPS alone do nothing for it. */
START_TEST(test_mapped_needs_ipv4_options)
{
	int lst, c, s, val = 255;

	ktest_netns();
	/* receiving side: dual-stack accepted socket with only IPV6_MINHOPCOUNT */
	lst = ktest_listener("::", BGP_PORT, false);
	pair(lst, AF_INET, false, "127.0.0.1", &c, &s);
	ck_assert_int_eq(kernel_sec_traffic_family(s), AF_INET);
	ck_assert_int_eq(setsockopt(s, IPPROTO_IPV6, IPV6_MINHOPCOUNT, &val, sizeof(val)), 0);
	ck_assert(send_byte(c)); /* TTL 64 */
	ck_assert_msg(delivered(s, 1000), "IPV6_MINHOPCOUNT applied to a v4-mapped peer");
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), 0);
	close(c);
	close(s);
	close(lst);

	/* sending side: dual-stack client with only IPV6_UNICAST_HOPS 255 to an IPv4 server
	 * whose accepted socket requires 255 */
	lst = ktest_listener("127.0.0.1", BGP_PORT, false);
	pair(lst, AF_INET6, false, "127.0.0.1", &c, &s);
	ck_assert_int_eq(kernel_sec_traffic_family(c), AF_INET);
	ck_assert_int_eq(kernel_sec_traffic_family(s), AF_INET);
	ck_assert_int_eq(kernel_minttl_set(s, NULL, 255, NULL), 0);
	ck_assert_int_eq(setsockopt(c, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &val, sizeof(val)), 0);
	ck_assert(send_byte(c));
	ck_assert_msg(!delivered(s, 600), "IPV6_UNICAST_HOPS set the TTL of a v4-mapped peer");
	ck_assert_uint_gt(ktest_counter("TCPMinTTLDrop"), 0);
	/* kernel_ttl_set writes IP_TTL too: the retransmission gets through */
	ck_assert_int_eq(kernel_ttl_set(c, NULL, 255, NULL), 0);
	ck_assert(delivered(s, 3000));
	close(c);
	close(s);
	close(lst);
}
END_TEST

/* ---- TCP-MD5 ---- */

START_TEST(test_md5_install)
{
	struct ipaddr p4 = ktest_ip("192.0.2.1"), p6 = ktest_ip("2001:db8::1");
	struct ipaddr mapped = ktest_ip("::ffff:192.0.2.1");
	struct kernel_sec_err err;
	struct tcp_md5sig md5;
	socklen_t len = sizeof(md5);
	char key80[81];
	struct prefix pfx;
	int v4, v6, dual;

	ktest_netns();
	memset(key80, 'k', 80);
	key80[80] = '\0';
	v4 = ktest_socket(AF_INET, false);
	v6 = ktest_socket(AF_INET6, true);
	dual = ktest_socket(AF_INET6, false);

	ck_assert_int_eq(kernel_md5_set(v4, &p4, KEY, &err), 0);
	ck_assert_int_eq(kernel_md5_set(v4, &p4, key80, &err), 0);   /* replace, 80 bytes */
	ck_assert_int_eq(kernel_md5_set(v4, &mapped, KEY, &err), 0); /* same peer, unmapped */
	ck_assert_int_eq(kernel_md5_del(v4, &p4, &err), 0);
	ck_assert_int_eq(kernel_md5_del(v4, &p4, &err), -ENOENT);
	ck_assert_int_eq(kernel_md5_set(v4, &p6, KEY, &err), -EAFNOSUPPORT);

	ck_assert_int_eq(kernel_md5_set(v6, &p6, KEY, &err), 0);
	ck_assert_int_eq(kernel_md5_del(v6, &p6, &err), 0);
	ck_assert_int_eq(kernel_md5_set(dual, &p4, KEY, &err), 0); /* as ::ffff:192.0.2.1 */
	ck_assert_int_eq(kernel_md5_set(dual, &p6, KEY, &err), 0);
	ck_assert_int_eq(kernel_md5_del(dual, &mapped, &err), 0);
	ck_assert_int_eq(kernel_md5_del(dual, &p6, &err), 0);

	/* prefix keys; host bits are cleared so the deletion finds the key */
	ck_assert_int_eq(prefix_from_str(&pfx, "192.0.2.7/24", false), 0);
	ck_assert_int_eq(kernel_md5_set_prefix(v4, &pfx, KEY, &err), 0);
	ck_assert_int_eq(prefix_from_str(&pfx, "192.0.2.0/24", true), 0);
	ck_assert_int_eq(kernel_md5_del_prefix(v4, &pfx, &err), 0);
	ck_assert_int_eq(kernel_md5_set_prefix(dual, &pfx, KEY, &err), 0); /* v4 on dual */
	ck_assert_int_eq(kernel_md5_del_prefix(dual, &pfx, &err), 0);
	ck_assert_int_eq(prefix_from_str(&pfx, "2001:db8::/32", true), 0);
	ck_assert_int_eq(kernel_md5_set_prefix(v6, &pfx, KEY, &err), 0);
	ck_assert_int_eq(kernel_md5_del_prefix(v6, &pfx, &err), 0);
	ck_assert_int_eq(kernel_md5_set_prefix(v4, &pfx, KEY, &err), -EAFNOSUPPORT);

	/* keys cannot be read back on Linux (what kernel_security.h documents) */
	memset(&md5, 0, sizeof(md5));
	ck_assert_int_eq(getsockopt(v4, IPPROTO_TCP, TCP_MD5SIG, &md5, &len), -1);
	ck_assert_int_eq(errno, ENOPROTOOPT);
	close(v4);
	close(v6);
	close(dual);
}
END_TEST

/* Handshakes against a keyed listener: match, mismatch, unsigned, and signed to no key, each
 * seen in its TcpExt counter. */
static void md5_handshakes(const char *addr, int family, bool v6only, const char *listen)
{
	struct ipaddr peer = ktest_ip(addr);
	uint64_t before;
	int lst, c, s;

	ktest_netns();
	lst = ktest_listener(listen, BGP_PORT, v6only);
	ck_assert_int_eq(kernel_md5_set(lst, &peer, KEY, NULL), 0);

	c = ktest_socket(family, v6only);
	ck_assert_int_eq(kernel_md5_set(c, &peer, KEY, NULL), 0);
	ck_assert_int_eq(ktest_connect(c, addr, BGP_PORT, 2000), 0);
	s = ktest_accept(lst, 2000);
	ck_assert_int_ge(s, 0);
	ck_assert(send_byte(c));
	ck_assert(delivered(s, 2000));
	close(c);
	close(s);
	ck_assert_uint_eq(ktest_counter("TCPMD5Failure"), 0);

	before = ktest_counter("TCPMD5Failure");
	c = ktest_socket(family, v6only);
	ck_assert_int_eq(kernel_md5_set(c, &peer, "not-the-password", NULL), 0);
	ck_assert_int_eq(ktest_connect(c, addr, BGP_PORT, NO_REPLY_MS), -ETIMEDOUT);
	ck_assert_uint_gt(ktest_counter("TCPMD5Failure"), before);
	close(c);

	before = ktest_counter("TCPMD5NotFound");
	c = ktest_socket(family, v6only);
	ck_assert_int_eq(ktest_connect(c, addr, BGP_PORT, NO_REPLY_MS), -ETIMEDOUT);
	ck_assert_uint_gt(ktest_counter("TCPMD5NotFound"), before);
	close(c);

	/* the listener's key removed: a signed SYN is now unexpected, an unsigned one welcome */
	ck_assert_int_eq(kernel_md5_del(lst, &peer, NULL), 0);
	before = ktest_counter("TCPMD5Unexpected");
	c = ktest_socket(family, v6only);
	ck_assert_int_eq(kernel_md5_set(c, &peer, KEY, NULL), 0);
	ck_assert_int_eq(ktest_connect(c, addr, BGP_PORT, NO_REPLY_MS), -ETIMEDOUT);
	ck_assert_uint_gt(ktest_counter("TCPMD5Unexpected"), before);
	close(c);
	c = ktest_socket(family, v6only);
	ck_assert_int_eq(ktest_connect(c, addr, BGP_PORT, 2000), 0);
	close(c);
	close(lst);
}

START_TEST(test_md5_handshake_v4)
{
	md5_handshakes("127.0.0.1", AF_INET, false, "127.0.0.1");
}
END_TEST

START_TEST(test_md5_handshake_v6)
{
	md5_handshakes("::1", AF_INET6, true, "::1");
}
END_TEST

/* Dual-stack listener and dual-stack client, IPv4 peer: keys as ::ffff:127.0.0.1. */
START_TEST(test_md5_handshake_mapped)
{
	md5_handshakes("127.0.0.1", AF_INET6, false, "::");
}
END_TEST

/* A plain IPv4 client against the dual-stack listener's v4-mapped key. */
START_TEST(test_md5_handshake_mapped_listener)
{
	struct ipaddr peer = ktest_ip("127.0.0.1");
	uint64_t before;
	int lst, c, s;

	ktest_netns();
	lst = ktest_listener("::", BGP_PORT, false);
	ck_assert_int_eq(kernel_md5_set(lst, &peer, KEY, NULL), 0);
	c = ktest_socket(AF_INET, false);
	ck_assert_int_eq(kernel_md5_set(c, &peer, KEY, NULL), 0);
	ck_assert_int_eq(ktest_connect(c, "127.0.0.1", BGP_PORT, 2000), 0);
	s = ktest_accept(lst, 2000);
	ck_assert_int_ge(s, 0);
	close(s);
	close(c);
	before = ktest_counter("TCPMD5Failure");
	c = ktest_socket(AF_INET, false);
	ck_assert_int_eq(kernel_md5_set(c, &peer, "wrong", NULL), 0);
	ck_assert_int_eq(ktest_connect(c, "127.0.0.1", BGP_PORT, NO_REPLY_MS), -ETIMEDOUT);
	ck_assert_uint_gt(ktest_counter("TCPMD5Failure"), before);
	close(c);
	close(lst);
}
END_TEST

/* A prefix key on the listener covers a client of that prefix. */
START_TEST(test_md5_prefix_handshake)
{
	static const struct {
		const char *prefix, *addr;
		int family;
	} cases[] = { { "127.0.0.0/8", "127.0.0.1", AF_INET }, { "::/64", "::1", AF_INET6 } };

	ktest_netns();
	for (unsigned i = 0; i < array_size(cases); i++) {
		struct ipaddr peer = ktest_ip(cases[i].addr);
		uint64_t before;
		struct prefix p;
		int lst, c, s;

		ck_assert_int_eq(prefix_from_str(&p, cases[i].prefix, true), 0);
		lst = ktest_listener(cases[i].addr, BGP_PORT, true);
		ck_assert_int_eq(kernel_md5_set_prefix(lst, &p, KEY, NULL), 0);
		c = ktest_socket(cases[i].family, true);
		ck_assert_int_eq(kernel_md5_set(c, &peer, KEY, NULL), 0);
		ck_assert_int_eq(ktest_connect(c, cases[i].addr, BGP_PORT, 2000), 0);
		s = ktest_accept(lst, 2000);
		ck_assert_int_ge(s, 0);
		close(s);
		close(c);
		before = ktest_counter("TCPMD5NotFound");
		c = ktest_socket(cases[i].family, true);
		ck_assert_int_eq(ktest_connect(c, cases[i].addr, BGP_PORT, NO_REPLY_MS),
				 -ETIMEDOUT);
		ck_assert_uint_gt(ktest_counter("TCPMD5NotFound"), before);
		close(c);
		/* an exact key beside the prefix key wins for its address (longest match) */
		ck_assert_int_eq(kernel_md5_set(lst, &peer, "exact-key", NULL), 0);
		c = ktest_socket(cases[i].family, true);
		ck_assert_int_eq(kernel_md5_set(c, &peer, KEY, NULL), 0);
		ck_assert_int_eq(ktest_connect(c, cases[i].addr, BGP_PORT, NO_REPLY_MS),
				 -ETIMEDOUT);
		close(c);
		c = ktest_socket(cases[i].family, true);
		ck_assert_int_eq(kernel_md5_set(c, &peer, "exact-key", NULL), 0);
		ck_assert_int_eq(ktest_connect(c, cases[i].addr, BGP_PORT, 2000), 0);
		close(c);
		close(lst);
	}
}
END_TEST

/* ---- the whole sequence ---- */

START_TEST(test_apply_sequence)
{
	struct kernel_sec_params gtsm = { KEY, 1, 0 }, multihop = { NULL, 0, 2 };
	struct ipaddr peer = ktest_ip("127.0.0.1");
	struct kernel_sec_err err;
	int lst, c, s, fd;

	ktest_netns();
	/* the listener: every peer's key and TTL 255 (kernel_security.h, doc/architecture.md) */
	lst = ktest_listener("127.0.0.1", BGP_PORT, false);
	ck_assert_int_eq(kernel_md5_set(lst, &peer, KEY, &err), 0);
	ck_assert_int_eq(kernel_ttl_set(lst, NULL, 255, &err), 0);
	/* active side before connect() */
	c = ktest_socket(AF_INET, false);
	ck_assert_msg(kernel_sec_apply(c, &peer, &gtsm, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(kernel_ttl_get(c, AF_INET), 255);
	ck_assert_int_eq(kernel_minttl_get(c, AF_INET), 255);
	ck_assert_int_eq(ktest_connect(c, "127.0.0.1", BGP_PORT, 2000), 0);
	/* passive side right after accept() */
	s = ktest_accept(lst, 2000);
	ck_assert_int_ge(s, 0);
	ck_assert_msg(kernel_sec_apply(s, &peer, &gtsm, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(kernel_minttl_get(s, kernel_sec_traffic_family(s)), 255);
	ck_assert(send_byte(c));
	ck_assert(delivered(s, 2000));
	ck_assert(send_byte(s));
	ck_assert(delivered(c, 2000));
	/* live change of hops on the established socket: no reset, traffic continues */
	ck_assert_int_eq(kernel_gtsm_set(s, &peer, 2, &err), 0);
	ck_assert_int_eq(kernel_minttl_get(s, AF_INET), 254);
	ck_assert(send_byte(c));
	ck_assert(delivered(s, 2000));
	ck_assert_uint_eq(ktest_counter("TCPMinTTLDrop"), 0);
	ck_assert_uint_eq(ktest_counter("TCPMD5NotFound") + ktest_counter("TCPMD5Failure"), 0);
	close(c);
	close(s);
	close(lst);

	/* GTSM off with a sending TTL (ebgp-multihop 2) */
	fd = ktest_socket(AF_INET, false);
	ck_assert_int_eq(kernel_sec_apply(fd, &peer, &multihop, &err), 0);
	ck_assert_int_eq(kernel_ttl_get(fd, AF_INET), 2);
	ck_assert_int_eq(kernel_minttl_get(fd, AF_INET), 0);
	close(fd);
}
END_TEST

/* Stops at the first failing step: later steps never ran (so nothing half-applied hides it). */
START_TEST(test_apply_fail_closed)
{
	struct ipaddr peer = ktest_ip("192.0.2.1");
	struct kernel_sec_params p = { NULL, 1, 0 };
	struct kernel_sec_err err;
	char key81[82];
	int fd;

	ktest_netns();
	memset(key81, 'k', 81);
	key81[81] = '\0';

	fd = ktest_socket(AF_INET, false);
	p.md5_key = key81;
	ck_assert_int_eq(kernel_sec_apply(fd, &peer, &p, &err), -EINVAL);
	ck_assert_str_eq(err.option, "TCP_MD5SIG");
	ck_assert_int_eq(kernel_ttl_get(fd, AF_INET), 64);
	ck_assert_int_eq(kernel_minttl_get(fd, AF_INET), 0);
	p.md5_key = "";
	ck_assert_int_eq(kernel_sec_apply(fd, &peer, &p, &err), -EINVAL);
	ck_assert_int_eq(kernel_ttl_get(fd, AF_INET), 64);
	close(fd);

	/* a UDP socket has no TCP-MD5: the MD5 step fails, TTL untouched */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	p.md5_key = KEY;
	ck_assert_int_eq(kernel_sec_apply(fd, &peer, &p, &err), -ENOPROTOOPT);
	ck_assert_str_eq(err.option, "TCP_MD5SIG");
	ck_assert_msg(strstr(err.msg, "peer 192.0.2.1") && strstr(err.msg, "ENOPROTOOPT") &&
			      strstr(err.msg, "CONFIG_TCP_MD5SIG"),
		      "%s", err.msg);
	ck_assert_int_eq(kernel_ttl_get(fd, AF_INET), 64);
	close(fd);

	/* the minimum step fails after the key went in: the caller must close */
	fd = ktest_socket(AF_INET, false);
	p.gtsm_hops = 255;
	ck_assert_int_eq(kernel_sec_apply(fd, &peer, &p, &err), -EINVAL);
	ck_assert_str_eq(err.option, "IP_MINTTL");
	close(fd);
}
END_TEST

/* ---- probe and counters ---- */

START_TEST(test_caps_probe)
{
	struct kernel_caps caps;
	char buf[2048];

	ktest_netns();
	kernel_caps_probe(&caps);
	for (unsigned c = 0; c < KERNEL_CAP__MAX; c++)
		ck_assert_msg(caps.cap[c].ok && caps.cap[c].err == 0, "%s: %d", kernel_cap_name(c),
			      caps.cap[c].err);
	ck_assert_int_eq(kernel_caps_format(&caps, ~0u, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* Drop CAP_NET_ADMIN from this (forked) test process only: the filter probe reports EPERM on
 * this kernel (LAB-NOTES), the rest needs no privilege. */
START_TEST(test_caps_probe_without_net_admin)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	struct kernel_caps caps;
	char buf[2048];

	ktest_netns();
	memset(data, 0, sizeof(data));
	ck_assert_int_eq(syscall(SYS_capget, &hdr, data), 0);
	data[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
	ck_assert_int_eq(syscall(SYS_capset, &hdr, data), 0);
	kernel_caps_probe(&caps);
	ck_assert(!caps.cap[KERNEL_CAP_SOCKET_FILTER].ok);
	ck_assert_int_eq(caps.cap[KERNEL_CAP_SOCKET_FILTER].err, -EPERM);
	ck_assert(caps.cap[KERNEL_CAP_MD5_V4].ok);
	ck_assert(caps.cap[KERNEL_CAP_MINHOPCOUNT].ok);
	ck_assert_int_eq(kernel_caps_format(&caps, ~0u, buf, sizeof(buf)), 1);
	ck_assert_msg(strstr(buf, "SO_ATTACH_FILTER") && strstr(buf, "EPERM"), "%s", buf);
	printf("without CAP_NET_ADMIN: %s", buf);
}
END_TEST

START_TEST(test_counters_fresh_netns)
{
	struct kernel_gtsm_counters c;

	ktest_netns();
	ck_assert_int_eq(kernel_gtsm_counters_read(&c), 0);
	for (unsigned i = 0; i < KERNEL_CNT__MAX; i++) {
		ck_assert(c.present[i]);
		ck_assert_uint_eq(c.value[i], 0);
	}
}
END_TEST

static Suite *sockopt_suite(void)
{
	Suite *s = suite_create("kernel_sockopt");
	TCase *ttl = tcase_create("ttl");
	TCase *md5 = tcase_create("md5");
	TCase *seq = tcase_create("sequence");

	tcase_set_timeout(ttl, 30);
	tcase_set_timeout(md5, 30);
	tcase_set_timeout(seq, 30);
	tcase_add_test(ttl, test_ttl_readback);
	tcase_add_test(ttl, test_gtsm_set_clear);
	tcase_add_test(ttl, test_minttl_enforced_v4);
	tcase_add_test(ttl, test_minttl_enforced_v6);
	tcase_add_test(ttl, test_minttl_enforced_mapped);
	tcase_add_test(ttl, test_mapped_needs_ipv4_options);
	tcase_add_test(md5, test_md5_install);
	tcase_add_test(md5, test_md5_handshake_v4);
	tcase_add_test(md5, test_md5_handshake_v6);
	tcase_add_test(md5, test_md5_handshake_mapped);
	tcase_add_test(md5, test_md5_handshake_mapped_listener);
	tcase_add_test(md5, test_md5_prefix_handshake);
	tcase_add_test(seq, test_apply_sequence);
	tcase_add_test(seq, test_apply_fail_closed);
	tcase_add_test(seq, test_caps_probe);
	tcase_add_test(seq, test_caps_probe_without_net_admin);
	tcase_add_test(seq, test_counters_fresh_netns);
	suite_add_tcase(s, ttl);
	suite_add_tcase(s, md5);
	suite_add_tcase(s, seq);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_sockopt", sockopt_suite());
}
