/* SPDX-License-Identifier: ISC */
/*
 * kernel/route_nhobj.c against the real kernel: routes installed with nexthop objects, the
 * objects' life (created with the first route, shared, deleted after the last), a restart
 * that adopts an earlier run's routes and objects, and the purge. Needs root (exit 77 = SKIP
 * otherwise); each test in Check's forked child inside its own network namespace, with a tun
 * "skua0" (198.51.100.1/24, 2001:db8::1/64). The kernel's side is read with ip(8), as an
 * operator would.
 */
#include "lib/compat.h"

#include <check.h>
#include <net/if.h>

#include "kernel/kernel.h"
#include "tests/unit/kernel_test.h"

#define ID_BASE (186u << 20) /* kernel/route_nhobj.h: our ids */

static uint32_t skua0;

static void lab(void)
{
	ktest_netns();
	ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
	skua0 = if_nametoindex("skua0");
}

/* Lines of `cmd`'s output. */
static unsigned lines_of(const char *cmd)
{
	char buf[16384];
	unsigned n = 0;

	ktest_output(cmd, buf, sizeof(buf));
	for (const char *p = buf; *p; p++)
		n += *p == '\n';
	return n;
}

static unsigned refusals;

static void refused_cb(const struct prefix *dst, bool del, int err, void *arg)
{
	char p[PREFIX_STRLEN];

	(void)arg;
	if (del && (err == ESRCH || err == ENOENT))
		return; /* already gone: bgpd does not count these either */
	fprintf(stderr, "refused: %s %s: %s\n", del ? "delete" : "install",
		prefix_to_str(dst, p, sizeof(p)), strerror(err));
	refusals++;
}

/* A route as bgpd's FIB layer makes them: gateways resolved to an interface. */
static struct kernel_route route(const char *dst, const char *gw1, const char *gw2)
{
	struct kernel_route r;

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(prefix_from_str(&r.dst, dst, true), 0);
	r.table = KERNEL_TABLE_MAIN;
	r.metric = 20;
	r.nh[r.nnh].ifindex = skua0;
	r.nh[r.nnh++].gw = ktest_ip(gw1);
	if (gw2) {
		r.nh[r.nnh].ifindex = skua0;
		r.nh[r.nnh++].gw = ktest_ip(gw2);
	}
	return r;
}

static void put(struct kernel_fib *kf, const char *dst, const char *gw1, const char *gw2)
{
	struct kernel_route r = route(dst, gw1, gw2);

	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
}

static void del(struct kernel_fib *kf, const char *dst)
{
	struct prefix p;

	ck_assert_int_eq(prefix_from_str(&p, dst, true), 0);
	ck_assert_int_eq(kernel_fib_delete(kf, &p, KERNEL_TABLE_MAIN, 20), 0);
}

static void objects_are(struct kernel_fib *kf, size_t objects, size_t routes)
{
	size_t o, r;

	ck_assert_int_eq(kernel_fib_nexthop_objects(kf, &o, &r), 0);
	ck_assert_uint_eq(o, objects);
	ck_assert_uint_eq(r, routes);
	ck_assert_uint_eq(lines_of("ip nexthop show proto 186"), objects);
}

/* Delete the NULL-terminated list of routes, then close: nothing refused on the way, and no
 * object of ours left, since each goes with the last route using it. */
static void del_all_and_close(struct kernel_fib *kf, const char *const *dsts)
{
	for (; *dsts; dsts++)
		del(kf, *dsts);
	kernel_fib_flush(kf);
	ck_assert_uint_eq(refusals, 0);
	objects_are(kf, 0, 0);
	kernel_fib_close(kf);
}

/* A lab and a FIB handle on it, with no refusal counted yet. */
static struct kernel_fib *fib_in_lab(void)
{
	struct kernel_fib *kf;

	lab();
	refusals = 0;
	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	return kf;
}

/* The two routes most tests start from, installed: 192.0.2.0/26 via .2, and ecmp_dst over .2
 * and .3, which makes three objects (.2, .3 and their group) for two routes. */
static void put_single_and_ecmp(struct kernel_fib *kf, const char *ecmp_dst)
{
	put(kf, "192.0.2.0/26", "198.51.100.2", NULL);
	put(kf, ecmp_dst, "198.51.100.2", "198.51.100.3");
	kernel_fib_flush(kf);
	ck_assert_uint_eq(refusals, 0);
	objects_are(kf, 3, 2);
}

START_TEST(test_routes_share_objects_until_the_last_goes)
{
	struct kernel_fib *kf = fib_in_lab();
	char buf[8192], want[128];

	put(kf, "192.0.2.0/26", "198.51.100.2", NULL);
	put(kf, "192.0.2.64/26", "198.51.100.2", NULL);
	put(kf, "192.0.2.128/26", "198.51.100.2", "198.51.100.3");
	put(kf, "2001:db8:1::/48", "2001:db8::2", NULL);
	ck_assert_int_gt(kernel_fib_flush(kf), 0);
	ck_assert_uint_eq(refusals, 0);
	/* .2, .3, the group of both, 2001:db8::2 */
	objects_are(kf, 4, 4);
	ktest_output("ip -4 route show proto bgp", buf, sizeof(buf));
	snprintf(want, sizeof(want), "192.0.2.0/26 nhid %u via 198.51.100.2 dev skua0", ID_BASE);
	ck_assert_msg(strstr(buf, want), "%s", buf);
	snprintf(want, sizeof(want), "192.0.2.64/26 nhid %u via 198.51.100.2 dev skua0", ID_BASE);
	ck_assert_msg(strstr(buf, want), "%s", buf);
	snprintf(want, sizeof(want), "id %u group %u/%u proto bgp", ID_BASE + 2, ID_BASE,
		 ID_BASE + 1);
	ck_assert_msg(strstr(ktest_output("ip nexthop show", buf, sizeof(buf)), want), "%s", buf);
	ck_assert_msg(strstr(ktest_output("ip -6 route show proto bgp", buf, sizeof(buf)),
			     "2001:db8:1::/48 nhid"),
		      "%s", buf);

	/* The group's route moves to .3 alone: the group goes, .3 stays (its route's). */
	put(kf, "192.0.2.128/26", "198.51.100.3", NULL);
	kernel_fib_flush(kf);
	objects_are(kf, 3, 4);
	/* .2 goes with the last of its two routes, not before. */
	del(kf, "192.0.2.0/26");
	kernel_fib_flush(kf);
	objects_are(kf, 3, 3);
	del_all_and_close(kf, (const char *const[]){ "192.0.2.64/26", "192.0.2.128/26",
						     "2001:db8:1::/48", NULL });
	ck_assert_uint_eq(lines_of("ip route show proto bgp"), 0);
}
END_TEST

START_TEST(test_without_an_interface_the_route_keeps_its_own)
{
	struct kernel_fib *kf = fib_in_lab();
	struct kernel_route r;
	char buf[4096];

	r = route("192.0.2.0/24", "198.51.100.2", NULL);
	r.nh[0].ifindex = 0; /* the kernel wants an interface for an object */
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
	kernel_fib_flush(kf);
	ck_assert_uint_eq(refusals, 0);
	objects_are(kf, 0, 0);
	ktest_output("ip -4 route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "192.0.2.0/24 via 198.51.100.2 dev skua0") &&
			      !strstr(buf, "nhid"),
		      "%s", buf);
	kernel_fib_close(kf);
}
END_TEST

START_TEST(test_interface_down_and_up)
{
	struct kernel_fib *kf = fib_in_lab();
	char buf[4096];

	put_single_and_ecmp(kf, "192.0.2.64/26");
	/* Down: the kernel deletes the objects on skua0, and their routes, by itself. */
	ktest_sh("ip link set skua0 down");
	ck_assert_uint_eq(lines_of("ip nexthop show proto 186"), 0);
	ck_assert_uint_eq(lines_of("ip route show proto bgp"), 0);
	ktest_sh("ip link set skua0 up");
	/* The routes come back (the RIB re-installs them when their next hops are valid again):
	 * with new objects, not the ids the kernel deleted. */
	put_single_and_ecmp(kf, "192.0.2.64/26");
	ktest_output("ip route show proto bgp", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "192.0.2.0/26 nhid") && strstr(buf, "192.0.2.64/26 nhid"), "%s",
		      buf);
	del_all_and_close(kf, (const char *const[]){ "192.0.2.0/26", "192.0.2.64/26", NULL });
}
END_TEST

static struct kernel_fib *adopting;

static int adopt_cb(const struct kernel_route *r, void *arg)
{
	(void)arg;
	kernel_fib_adopt(adopting, r);
	return 0;
}

START_TEST(test_restart_adopts_routes_and_prunes_the_rest)
{
	struct kernel_fib *kf = fib_in_lab();
	char cmd[256];

	put_single_and_ecmp(kf, "192.0.2.128/26");
	kernel_fib_close(kf); /* a stop that keeps the routes (graceful restart) */
	/* An object of an earlier run that no route uses any more. */
	snprintf(cmd, sizeof(cmd), "ip nexthop add id %u via 198.51.100.9 dev skua0 proto bgp",
		 ID_BASE + 77);
	ktest_sh(cmd);

	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	adopting = kf;
	ck_assert_int_eq(kernel_fib_dump(KERNEL_TABLE_MAIN, AF_INET, adopt_cb, NULL), 0);
	ck_assert_uint_eq(kernel_fib_nexthops_prune(kf), 1);
	kernel_fib_flush(kf);
	objects_are(kf, 3, 2);
	/* A new route with the same next hop shares the adopted object: no new one. */
	put(kf, "192.0.2.64/26", "198.51.100.2", NULL);
	kernel_fib_flush(kf);
	objects_are(kf, 3, 3);
	/* The adopted routes go: their objects with them (the earlier run's group too). */
	del_all_and_close(kf, (const char *const[]){ "192.0.2.128/26", "192.0.2.0/26",
						     "192.0.2.64/26", NULL });
}
END_TEST

START_TEST(test_purge_removes_routes_and_objects)
{
	struct kernel_fib *kf = fib_in_lab();

	put_single_and_ecmp(kf, "192.0.2.128/26");
	put(kf, "2001:db8:1::/48", "2001:db8::2", NULL);
	kernel_fib_flush(kf);
	kernel_fib_close(kf); /* an earlier run that crashed */

	ck_assert_int_eq(kernel_fib_open(&kf, refused_cb, NULL), 0);
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET), 2);
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET6), 1);
	ck_assert_uint_eq(refusals, 0);
	ck_assert_uint_eq(lines_of("ip route show proto bgp; ip -6 route show proto bgp"), 0);
	objects_are(kf, 0, 0);

	/* And a purge of what this run installed (a stop without retain). */
	put(kf, "192.0.2.0/26", "198.51.100.2", NULL);
	kernel_fib_flush(kf);
	objects_are(kf, 1, 1);
	ck_assert_int_eq(kernel_fib_purge(kf, KERNEL_TABLE_MAIN, AF_INET), 1);
	objects_are(kf, 0, 0);
	kernel_fib_close(kf);
}
END_TEST

static Suite *nhobj_live_suite(void)
{
	Suite *s = suite_create("kernel_nhobj_live");
	TCase *tc = tcase_create("nexthop objects");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_routes_share_objects_until_the_last_goes);
	tcase_add_test(tc, test_without_an_interface_the_route_keeps_its_own);
	tcase_add_test(tc, test_restart_adopts_routes_and_prunes_the_rest);
	tcase_add_test(tc, test_interface_down_and_up);
	tcase_add_test(tc, test_purge_removes_routes_and_objects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_nhobj_live", nhobj_live_suite());
}
