/* SPDX-License-Identifier: ISC */
/*
 * kernel_conn_nexthops() (kernel/conn_nexthops.c) against the real kernel: the next hops FRR
 * 8.4 shows for a connection, from the interface that holds its local address. Needs root
 * (exit 77 = SKIP otherwise); each test runs in Check's forked child inside its own network
 * namespace with three tun devices, the kernel adding no link-local address of its own:
 *   skua0  192.0.2.1/24, 2001:db8::1/64, fe80::1/64    both families, global and link-local
 *   skua1  203.0.113.1/24, fe80::2/64                   IPv4 and a link-local only
 *   skua2  2001:db8:2::1/64                             IPv6 only
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "tests/unit/kernel_test.h"

/* A link-local address (ktest_addr() checks delivery, which a link-local one needs a scope
 * for): with ip(8), as an operator would. */
static void link_local(const char *ifname, const char *addr)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "ip -6 addr add %s/64 dev %s nodad", addr, ifname);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

static void lab(void)
{
	ktest_netns();
	ktest_sysctl("/proc/sys/net/ipv6/conf/default/addr_gen_mode", "1"); /* no automatic LL */
	ktest_tun("skua0");
	ktest_addr("skua0", "192.0.2.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
	link_local("skua0", "fe80::1");
	ktest_tun("skua1");
	ktest_addr("skua1", "203.0.113.1", 24);
	link_local("skua1", "fe80::2");
	ktest_tun("skua2");
	ktest_addr("skua2", "2001:db8:2::1", 64);
}

/* The next hops from local to remote, as "V4 GLOBAL LOCAL shared|not". */
static const char *nexthops(const char *local, const char *remote, int want_rc)
{
	static char out[200];
	struct ipaddr l = ktest_ip(local), r = ktest_ip(remote);
	struct kernel_conn_nexthops nh;
	char v4[INET_ADDRSTRLEN], g[INET6_ADDRSTRLEN], ll[INET6_ADDRSTRLEN];

	ck_assert_int_eq(kernel_conn_nexthops(&l, &r, &nh), want_rc);
	snprintf(out, sizeof(out), "%s %s %s %s", inet_ntop(AF_INET, &nh.v4, v4, sizeof(v4)),
		 inet_ntop(AF_INET6, &nh.v6_global, g, sizeof(g)),
		 inet_ntop(AF_INET6, &nh.v6_local, ll, sizeof(ll)),
		 nh.shared_network ? "shared" : "not");
	return out;
}

START_TEST(test_ipv4_connection)
{
	lab();
	/* The interface's global IPv6 address and its link-local one. */
	ck_assert_str_eq(nexthops("192.0.2.1", "192.0.2.2", 0),
			 "192.0.2.1 2001:db8::1 fe80::1 shared");
	/* A peer on no connected subnet (multihop): the same next hops, not shared. */
	ck_assert_str_eq(nexthops("192.0.2.1", "198.51.100.9", 0),
			 "192.0.2.1 2001:db8::1 fe80::1 not");
	/* No global IPv6 address: the link-local one is both (FRR). */
	ck_assert_str_eq(nexthops("203.0.113.1", "203.0.113.2", 0),
			 "203.0.113.1 fe80::2 fe80::2 shared");
}
END_TEST

START_TEST(test_ipv6_connection)
{
	lab();
	/* A global local address: it, and the link-local one when the peer is connected. */
	ck_assert_str_eq(nexthops("2001:db8::1", "2001:db8::2", 0),
			 "192.0.2.1 2001:db8::1 fe80::1 shared");
	ck_assert_str_eq(nexthops("2001:db8::1", "2001:db8:9::9", 0),
			 "192.0.2.1 2001:db8::1 :: not");
	/* A link-local local address: the interface's global one beside it; always shared. */
	ck_assert_str_eq(nexthops("fe80::1", "fe80::9", 0), "192.0.2.1 2001:db8::1 fe80::1 shared");
	/* ... alone when the interface has no global one. */
	ck_assert_str_eq(nexthops("fe80::2", "fe80::9", 0), "203.0.113.1 fe80::2 :: shared");
	/* No IPv4 address on the interface: 0.0.0.0 (show puts the router-id there, as FRR). */
	ck_assert_str_eq(nexthops("2001:db8:2::1", "2001:db8:2::2", 0),
			 "0.0.0.0 2001:db8:2::1 :: shared");
}
END_TEST

START_TEST(test_no_interface)
{
	struct ipaddr l = ktest_ip("192.0.2.1"), r = ktest_ip("2001:db8::2");
	struct kernel_conn_nexthops nh;

	lab();
	/* A local address no interface holds (the connection just went): nothing known. */
	ck_assert_str_eq(nexthops("192.0.2.77", "192.0.2.2", -ENOENT), "192.0.2.77 :: :: not");
	ck_assert_int_eq(kernel_conn_nexthops(&l, &r, &nh), -EAFNOSUPPORT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel_conn_nexthops");
	TCase *tc = tcase_create("live");

	tcase_add_test(tc, test_ipv4_connection);
	tcase_add_test(tc, test_ipv6_connection);
	tcase_add_test(tc, test_no_interface);
	suite_add_tcase(s, tc);
	return ktest_run("check_kernel_conn_nexthops", s);
}
