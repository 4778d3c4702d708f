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

/* Read notifications until the mirror says it changed (at most 2 s). The socket is asked for
 * on every turn: a resynchronisation replaces it. */
static void watch_settle(struct kernel_watch *w)
{
	for (int i = 0; i < 20; i++) {
		struct pollfd pfd = { .fd = kernel_watch_fd(w), .events = POLLIN };

		if (poll(&pfd, 1, 100) > 0 && kernel_watch_read(w) > 0)
			return;
	}
	ck_abort_msg("no notification from the kernel within 2 s");
}

/* Read notifications until the mirror holds want IPv6 routes (at most 5 s). */
static void watch_until_v6_routes(struct kernel_watch *w, size_t want)
{
	for (int i = 0; i < 50 && kernel_watch_routes(w, AF_INET6) != want; i++) {
		struct pollfd pfd = { .fd = kernel_watch_fd(w), .events = POLLIN };

		if (poll(&pfd, 1, 100) > 0)
			ck_assert_int_ge(kernel_watch_read(w), 0);
	}
	ck_assert_uint_eq(kernel_watch_routes(w, AF_INET6), want);
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

	ktest_sh("ip route add 203.0.113.0/24 via 198.51.100.254");
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "203.0.113.9", &res), 0);
	ck_assert(!res.connected);
	ck_assert_str_eq(prefix_to_str(&res.via, via, sizeof(via)), "203.0.113.0/24");
	ck_assert_str_eq(ipaddr_to_str(&res.nh[0].gw, gw, sizeof(gw)), "198.51.100.254");

	/* The default route never resolves a next hop. */
	ck_assert_int_eq(resolve(w, "192.0.2.1", &res), -ENETUNREACH);
	ktest_sh("ip route add default via 198.51.100.254");
	watch_settle(w);
	ck_assert_int_eq(resolve(w, "192.0.2.1", &res), -ENETUNREACH);

	/* IPv6 likewise. */
	ktest_sh("ip -6 route add 2001:db8:5::/48 via 2001:db8::fe");
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
	ktest_sh("ip route add 203.0.113.0/24 via 198.51.100.254");
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

/*
 * An overrun, then changes while the kernel still holds the overrun's backlog. 20,000 routes
 * added unread overflow the watch socket (ENOBUFS); 1,000 of them deleted right after the
 * first read must still reach the mirror. A socket drained short of empty after an overrun
 * stays congested and the kernel drops those deletions without a word, so the mirror would
 * keep 20,000 for good.
 */
START_TEST(test_overrun_resynchronises_and_keeps_listening)
{
	struct kernel_watch *w;
	size_t base;

	lab();
	ck_assert_int_eq(kernel_watch_open(&w), 0);
	base = kernel_watch_routes(w, AF_INET6);
	ktest_sh("awk 'BEGIN { for (i = 0; i < 20000; i++) printf \"route add "
		 "2001:db8:100::%x/128 via 2001:db8::2\\n\", i }' | ip -batch -");
	ck_assert_int_eq(kernel_watch_read(w), 1);
	ck_assert_uint_eq(kernel_watch_resyncs(w), 1);
	ck_assert_uint_eq(kernel_watch_routes(w, AF_INET6), base + 20000);

	ktest_sh("awk 'BEGIN { for (i = 0; i < 1000; i++) printf \"route del "
		 "2001:db8:100::%x/128\\n\", i }' | ip -batch -");
	watch_until_v6_routes(w, base + 19000);
	ck_assert_uint_eq(kernel_watch_resyncs(w), 1);

	/* And it keeps listening: one more route, one more notification. */
	ktest_sh("ip route add 2001:db8:200::/48 via 2001:db8::2");
	watch_until_v6_routes(w, base + 19001);
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

	ktest_output("ip -4 route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "192.0.2.0/25 via 198.51.100.2 dev skua0 metric 20"), "%s", buf);
	ck_assert_msg(strstr(buf, "nexthop via 198.51.100.2 dev skua0") &&
			      strstr(buf, "nexthop via 198.51.100.3 dev skua0"),
		      "%s", buf);
	ktest_output("ip -6 route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "2001:db8:1::/48 via 2001:db8::2 dev skua0 metric 20"), "%s",
		      buf);

	/* Replace swaps the route in place: one route, the new next hop. */
	r = route("192.0.2.0/25", "198.51.100.3", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	ktest_output("ip -4 route show 192.0.2.0/25", buf, sizeof(buf));
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
	ktest_sh("ip route add 203.0.113.0/24 via 198.51.100.254");
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET), 2);
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET6), 1);
	ktest_output("ip route show proto bgp; ip -6 route show proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ktest_output("ip route show 203.0.113.0/24", buf, sizeof(buf));
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
	ktest_output("ip route show table 100000 proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "192.0.2.0/24 via 198.51.100.2 dev skua0 metric 20 \n");
	ktest_output("ip route show proto bgp", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kernel_fib_delete(kf, &r.dst, 100000, 20), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	ktest_output("ip route show table 100000", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	kernel_fib_close(kf);
}
END_TEST

/* What kernel_fib_dump() reads back, keyed by prefix text: "gw%ifindex,gw%ifindex metric". */
static struct {
	char line[8][160];
	unsigned n;
} dumped;

static int dump_cb(const struct kernel_route *r, void *arg)
{
	char p[PREFIX_STRLEN], gw[IPADDR_STRLEN];
	size_t off;

	(void)arg;
	ck_assert_uint_lt(dumped.n, 8);
	off = (size_t)snprintf(dumped.line[dumped.n], sizeof(dumped.line[0]), "%s ",
			       prefix_to_str(&r->dst, p, sizeof(p)));
	for (unsigned i = 0; i < r->nnh; i++)
		off += (size_t)snprintf(
			dumped.line[dumped.n] + off, sizeof(dumped.line[0]) - off, "%s%s%%%u",
			i ? "," : "",
			r->nh[i].gw.family ? ipaddr_to_str(&r->nh[i].gw, gw, sizeof(gw)) : "-",
			r->nh[i].ifindex);
	snprintf(dumped.line[dumped.n] + off, sizeof(dumped.line[0]) - off, " %u", r->metric);
	dumped.n++;
	return 0;
}

static bool dumped_has(const char *want)
{
	for (unsigned i = 0; i < dumped.n; i++)
		if (strcmp(dumped.line[i], want) == 0)
			return true;
	return false;
}

/* A restarting bgpd reads its earlier run's routes back (graceful restart): ours only, in our
 * table only, with their next hops, multipath ones included, and their metric. */
START_TEST(test_dump_reads_our_routes_back)
{
	struct kernel_fib *kf;
	struct kernel_route r;
	unsigned ifi;
	char want[160];

	lab();
	ifi = if_nametoindex("skua0");
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	r = route("192.0.2.0/25", "198.51.100.2", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	r = route("192.0.2.128/25", "198.51.100.3", "198.51.100.2");
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	r = route("2001:db8:1::/48", "2001:db8::2", NULL);
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	r = route("2001:db8:2::/48", "2001:db8::2", "2001:db8::3");
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), 4);
	ktest_sh("ip route add 203.0.113.0/24 via 198.51.100.254"); /* not ours */
	ktest_sh("ip route add 203.0.113.0/25 via 198.51.100.254 proto bgp table 100"); /* not our
											 * table
											 */
	ktest_sh("ip route add 198.51.100.128/25 via 198.51.100.254 proto bgp metric 7");

	memset(&dumped, 0, sizeof(dumped));
	ck_assert_int_eq(kernel_fib_dump(KERNEL_TABLE_MAIN, AF_INET, dump_cb, NULL), 0);
	ck_assert_uint_eq(dumped.n, 3);
	snprintf(want, sizeof(want), "192.0.2.0/25 198.51.100.2%%%u 20", ifi);
	ck_assert_msg(dumped_has(want), "%s not in %s / %s / %s", want, dumped.line[0],
		      dumped.line[1], dumped.line[2]);
	snprintf(want, sizeof(want), "192.0.2.128/25 198.51.100.3%%%u,198.51.100.2%%%u 20", ifi,
		 ifi);
	ck_assert_msg(dumped_has(want), "%s not in %s / %s / %s", want, dumped.line[0],
		      dumped.line[1], dumped.line[2]);
	snprintf(want, sizeof(want), "198.51.100.128/25 198.51.100.254%%%u 7", ifi);
	ck_assert_msg(dumped_has(want), "%s missing", want);

	memset(&dumped, 0, sizeof(dumped));
	ck_assert_int_eq(kernel_fib_dump(KERNEL_TABLE_MAIN, AF_INET6, dump_cb, NULL), 0);
	ck_assert_uint_eq(dumped.n, 2);
	snprintf(want, sizeof(want), "2001:db8:1::/48 2001:db8::2%%%u 20", ifi);
	ck_assert_msg(dumped_has(want), "%s not in %s / %s", want, dumped.line[0], dumped.line[1]);
	ck_assert_msg(strstr(dumped.line[0], "2001:db8:2::/48") ||
			      strstr(dumped.line[1], "2001:db8:2::/48"),
		      "no multipath IPv6 route");
	for (unsigned i = 0; i < dumped.n; i++)
		if (strstr(dumped.line[i], "2001:db8:2::/48"))
			ck_assert_msg(strstr(dumped.line[i], "2001:db8::2%") &&
					      strstr(dumped.line[i], "2001:db8::3%"),
				      "%s", dumped.line[i]);

	memset(&dumped, 0, sizeof(dumped));
	ck_assert_int_eq(kernel_fib_dump(100, AF_INET, dump_cb, NULL), 0);
	ck_assert_uint_eq(dumped.n, 1);
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
	tcase_add_test(tc, test_overrun_resynchronises_and_keeps_listening);
	tcase_add_test(tc, test_install_replace_refuse_purge);
	tcase_add_test(tc, test_other_table);
	tcase_add_test(tc, test_dump_reads_our_routes_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_route_live", route_live_suite());
}
