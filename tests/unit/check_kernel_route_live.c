/* SPDX-License-Identifier: ISC */
/*
 * kernel/route.c and kernel/route_watch.c against the real kernel. Needs root (exit 77 = SKIP
 * otherwise). Each test runs in Check's forked child inside its own network namespace with a
 * tun device "skua0" (198.51.100.1/24, 2001:db8::1/64); routes are added with ip(8) as an
 * operator would, and what bgpd installs is read back with ip(8) too.
 */
#include "lib/compat.h"

#include <check.h>
#include <net/if.h>
#include <poll.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "tests/unit/kernel_test.h"

static int tun_fd;

static void lab(void)
{
	ktest_netns();
	tun_fd = ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
}

static void sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

/* What `cmd` prints, in buf. */
static const char *out_of(const char *cmd, char *buf, size_t size)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	pclose(f);
	return buf;
}

/* Read notifications until the mirror says it changed (at most 2 s). */
static void watch_settle(struct kernel_watch *w)
{
	struct pollfd pfd = { .fd = kernel_watch_fd(w), .events = POLLIN };

	for (int i = 0; i < 20; i++) {
		if (poll(&pfd, 1, 100) > 0 && kernel_watch_read(w) > 0)
			return;
	}
	ck_abort_msg("no notification from the kernel within 2 s");
}

static int resolve(struct kernel_watch *w, const char *addr, struct kernel_resolution *res)
{
	struct ipaddr a = ktest_ip(addr);

	return kernel_resolve(w, &a, res);
}

START_TEST(test_resolve_connected_gateway_and_default)
{
	struct kernel_watch *w;
	struct kernel_resolution res;
	char gw[IPADDR_STRLEN], via[PREFIX_STRLEN];

	lab();
	ck_assert_int_eq(kernel_watch_open(&w), 0);

	ck_assert_int_eq(resolve(w, "198.51.100.7", &res), 0);
	ck_assert(res.connected);
	ck_assert_uint_eq(res.nnh, 1);
	ck_assert_str_eq(ipaddr_to_str(&res.nh[0].gw, gw, sizeof(gw)), "198.51.100.7");
	ck_assert_uint_eq(res.nh[0].ifindex, if_nametoindex("skua0"));

	sh("ip route add 203.0.113.0/24 via 198.51.100.254");
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "203.0.113.9", &res), 0);
	ck_assert(!res.connected);
	ck_assert_str_eq(prefix_to_str(&res.via, via, sizeof(via)), "203.0.113.0/24");
	ck_assert_str_eq(ipaddr_to_str(&res.nh[0].gw, gw, sizeof(gw)), "198.51.100.254");

	/* The default route never resolves a next hop. */
	ck_assert_int_eq(resolve(w, "192.0.2.1", &res), -ENETUNREACH);
	sh("ip route add default via 198.51.100.254");
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "192.0.2.1", &res), -ENETUNREACH);

	/* IPv6 likewise. */
	sh("ip -6 route add 2001:db8:5::/48 via 2001:db8::fe");
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "2001:db8:5::1", &res), 0);
	ck_assert_str_eq(ipaddr_to_str(&res.nh[0].gw, gw, sizeof(gw)), "2001:db8::fe");
	kernel_watch_close(w);
}
END_TEST

START_TEST(test_carrier_loss_unresolves)
{
	struct kernel_watch *w;
	struct kernel_resolution res;

	lab();
	sh("ip route add 203.0.113.0/24 via 198.51.100.254");
	ck_assert_int_eq(kernel_watch_open(&w), 0);
	ck_assert_int_eq(resolve(w, "203.0.113.9", &res), 0);
	/* Closing the tun takes its carrier away: the routes stay (linkdown), unusable. */
	close(tun_fd);
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "203.0.113.9", &res), -ENETUNREACH);
	ck_assert_int_eq(resolve(w, "198.51.100.7", &res), -ENETUNREACH);
	kernel_watch_close(w);
}
END_TEST

static struct {
	char prefix[PREFIX_STRLEN];
	int err;
	unsigned n;
} refused;

static void refused_cb(const struct prefix *dst, bool del, int err, void *arg)
{
	(void)del;
	(void)arg;
	prefix_to_str(dst, refused.prefix, sizeof(refused.prefix));
	refused.err = err;
	refused.n++;
}

static struct kernel_route route(const char *dst, const char *gw1, const char *gw2)
{
	struct kernel_route r;

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(prefix_from_str(&r.dst, dst, true), 0);
	r.table = KERNEL_TABLE_MAIN;
	r.metric = 20;
	r.nh[r.nnh++].gw = ktest_ip(gw1);
	if (gw2)
		r.nh[r.nnh++].gw = ktest_ip(gw2);
	return r;
}

START_TEST(test_install_replace_refuse_purge)
{
	struct kernel_fib *kf;
	struct kernel_watch *w;
	struct kernel_route r;
	char buf[4096];

	lab();
	ck_assert_int_eq(kernel_watch_open(&w), 0);
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	r = route("192.0.2.0/25", "198.51.100.2", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	r = route("192.0.2.128/25", "198.51.100.2", "198.51.100.3");
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	r = route("2001:db8:1::/48", "2001:db8::2", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 3);
	ck_assert_uint_eq(refused.n, 0);

	out_of("ip -4 route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "192.0.2.0/25 via 198.51.100.2 dev skua0 metric 20"), "%s", buf);
	ck_assert_msg(strstr(buf, "nexthop via 198.51.100.2 dev skua0") &&
			      strstr(buf, "nexthop via 198.51.100.3 dev skua0"),
		      "%s", buf);
	out_of("ip -6 route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "2001:db8:1::/48 via 2001:db8::2 dev skua0 metric 20"), "%s",
		      buf);

	/* Replace swaps the route in place: one route, the new next hop. */
	r = route("192.0.2.0/25", "198.51.100.3", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	out_of("ip -4 route show 192.0.2.0/25", buf, sizeof(buf));
	ck_assert_str_eq(buf, "192.0.2.0/25 via 198.51.100.3 dev skua0 proto bgp metric 20 \n");

	/* A gateway the kernel cannot reach is refused, and the refusal names the prefix. */
	r = route("192.0.2.64/26", "203.0.113.1", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	kernel_fib_flush(kf);
	ck_assert_uint_eq(refused.n, 1);
	ck_assert_str_eq(refused.prefix, "192.0.2.64/26");
	ck_assert_int_eq(refused.err, ENETUNREACH);

	/* Our routes never reach the mirror (the socket filter drops them). */
	ck_assert_int_ge(kernel_watch_read(w), 0);
	ck_assert_uint_eq(kernel_watch_routes(w, AF_INET), 1); /* 198.51.100.0/24 only */

	/* Leftovers of an earlier run: all of ours go, the operator's stay. */
	sh("ip route add 203.0.113.0/24 via 198.51.100.254");
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET), 2);
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET6), 1);
	out_of("ip route show proto bgp; ip -6 route show proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	out_of("ip route show 203.0.113.0/24", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "via 198.51.100.254"), "%s", buf);
	kernel_fib_close(kf);
	kernel_watch_close(w);
}
END_TEST

START_TEST(test_other_table)
{
	struct kernel_fib *kf;
	struct kernel_route r;
	char buf[1024];

	lab();
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	r = route("192.0.2.0/24", "198.51.100.2", NULL);
	r.table = 100000; /* beyond the 8-bit rtm_table: RTA_TABLE carries it */
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	out_of("ip route show table 100000 proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "192.0.2.0/24 via 198.51.100.2 dev skua0 metric 20 \n");
	out_of("ip route show proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kernel_fib_delete(kf, &r.dst, 100000, 20), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	out_of("ip route show table 100000", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	kernel_fib_close(kf);
}
END_TEST

static Suite *route_live_suite(void)
{
	Suite *s = suite_create("kernel_route_live");
	TCase *tc = tcase_create("rtnetlink");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_resolve_connected_gateway_and_default);
	tcase_add_test(tc, test_carrier_loss_unresolves);
	tcase_add_test(tc, test_install_replace_refuse_purge);
	tcase_add_test(tc, test_other_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	ktest_require_privileges("check_kernel_route_live");
	sr = srunner_create(route_live_suite());
	/* each test unshares its network namespace: it must run in its own child */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
