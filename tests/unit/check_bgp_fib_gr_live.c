/* SPDX-License-Identifier: ISC */
/*
 * A restarting bgpd's adoption of its earlier run's kernel routes (bgpd/fib/bgp_fib_gr.c)
 * against the real kernel. Needs root (exit 77 = SKIP otherwise); each test runs in Check's
 * forked child inside its own network namespace with a tun device "skua0" (198.51.100.1/24).
 * The earlier run's routes are made with ip(8); what is left is read back with ip(8) too.
 */
#include "lib/compat.h"

#include <check.h>
#include <net/if.h>

#include "bgpd/fib/bgp_fib.h"
#include "bgpd/fib/bgp_fib_gr.h"
#include "kernel/kernel.h"
#include "tests/unit/kernel_test.h"

static void lab(void)
{
	ktest_netns();
	ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
}

static void refused_cb(const struct prefix *dst, bool del, int err, void *arg)
{
	(void)dst;
	(void)del;
	(void)arg;
	ck_abort_msg("the kernel refused a change: %s", strerror(err));
}

/* A route as the forwarding side would want it: next hops via the gateways, on skua0. */
static struct kernel_route want(const char *dst, const char *gw1, const char *gw2)
{
	struct kernel_route r;
	uint32_t ifi = if_nametoindex("skua0");

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(prefix_from_str(&r.dst, dst, true), 0);
	r.table = KERNEL_TABLE_MAIN;
	r.metric = BGP_FIB_METRIC;
	r.nh[r.nnh].gw = ktest_ip(gw1);
	r.nh[r.nnh++].ifindex = ifi;
	if (gw2) {
		r.nh[r.nnh].gw = ktest_ip(gw2);
		r.nh[r.nnh++].ifindex = ifi;
	}
	return r;
}

START_TEST(test_adopt_compare_sweep)
{
	struct kernel_fib *kf;
	struct kernel_route r;
	struct fib_gr_stats st;
	uint64_t n[BGP_AF_MAX];
	char buf[4096];

	lab();
	/* The earlier run's routes, and some that are not its own. */
	ktest_sh("ip route add 192.0.2.0/26 via 198.51.100.2 proto bgp metric 20");
	ktest_sh("ip route add 192.0.2.64/26 proto bgp metric 20 "
		 "nexthop via 198.51.100.2 nexthop via 198.51.100.3");
	ktest_sh("ip route add 192.0.2.128/26 via 198.51.100.2 proto bgp metric 20");
	ktest_sh("ip route add 192.0.2.192/26 via 198.51.100.2 proto bgp metric 20");
	ktest_sh("ip route add 203.0.113.0/25 via 198.51.100.2 proto bgp metric 7");
	ktest_sh("ip route add 203.0.113.128/25 via 198.51.100.2 proto static");
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);

	ck_assert_int_eq(fib_gr_adopt(kf, KERNEL_TABLE_MAIN, n), 0);
	ck_assert_uint_eq(n[BGP_AF_IPV4_UNICAST], 4);
	ck_assert_uint_eq(n[BGP_AF_IPV6_UNICAST], 0);
	fib_gr_stats(&st);
	ck_assert_uint_eq(st.adopted, 4);
	ck_assert_uint_eq(st.foreign, 1); /* metric 7: not as bgpd installs it, removed */
	ktest_output("ip route show root 203.0.113.0/24", buf, sizeof(buf));
	ck_assert_str_eq(buf, "203.0.113.128/25 via 198.51.100.2 dev skua0 proto static \n");
	ck_assert(fib_gr_pending());

	/* Same next hops: nothing to write. Multipath in another order: still the same. */
	r = want("192.0.2.0/26", "198.51.100.2", NULL);
	ck_assert_int_eq(fib_gr_take(&r), FIB_GR_SAME);
	r = want("192.0.2.64/26", "198.51.100.3", "198.51.100.2");
	ck_assert_int_eq(fib_gr_take(&r), FIB_GR_SAME);
	/* Another next hop, or one more: replaced. */
	r = want("192.0.2.128/26", "198.51.100.3", NULL);
	ck_assert_int_eq(fib_gr_take(&r), FIB_GR_CHANGED);
	/* Taken once: the prefix is the RIB's from now on. Never adopted: installed as usual. */
	r = want("192.0.2.0/26", "198.51.100.2", NULL);
	ck_assert_int_eq(fib_gr_take(&r), FIB_GR_NONE);
	r = want("198.51.100.128/25", "198.51.100.2", NULL);
	ck_assert_int_eq(fib_gr_take(&r), FIB_GR_NONE);

	/* What nobody took goes; the rest stays untouched. */
	ck_assert_uint_eq(fib_gr_sweep(kf, KERNEL_TABLE_MAIN), 1);
	ck_assert(!fib_gr_pending());
	ktest_output("ip route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "192.0.2.0/26 via 198.51.100.2") &&
			      strstr(buf, "192.0.2.64/26") && strstr(buf, "192.0.2.128/26") &&
			      !strstr(buf, "192.0.2.192/26"),
		      "%s", buf);
	fib_gr_stats(&st);
	ck_assert_uint_eq(st.kept, 2);
	ck_assert_uint_eq(st.replaced, 1);
	ck_assert_uint_eq(st.removed, 1);
	kernel_fib_close(kf);
}
END_TEST

/* Nothing of an earlier run (a first start, a reboot): nothing adopted, nothing pending. */
START_TEST(test_cold_start_adopts_nothing)
{
	struct kernel_fib *kf;
	uint64_t n[BGP_AF_MAX];

	lab();
	ktest_sh("ip route add 203.0.113.0/24 via 198.51.100.2");
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	ck_assert_int_eq(fib_gr_adopt(kf, KERNEL_TABLE_MAIN, n), 0);
	ck_assert_uint_eq(n[BGP_AF_IPV4_UNICAST] + n[BGP_AF_IPV6_UNICAST], 0);
	fib_gr_reset();
	ck_assert(!fib_gr_pending());
	kernel_fib_close(kf);
}
END_TEST

static Suite *fib_gr_suite(void)
{
	Suite *s = suite_create("bgp_fib_gr_live");
	TCase *tc = tcase_create("adopt");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_adopt_compare_sweep);
	tcase_add_test(tc, test_cold_start_adopts_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_bgp_fib_gr_live", fib_gr_suite());
}
