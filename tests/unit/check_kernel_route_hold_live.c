/* SPDX-License-Identifier: ISC */
/*
 * kernel/route_hold.c against the real kernel: deletions held back reach the kernel only when
 * released, at most as many as asked, each once, drawn across the whole held set rather than
 * in the order they came, those of routes wanted again are dropped, and a held set of another
 * table goes before a new one starts. Needs
 * root (exit 77 = SKIP otherwise); each test runs in Check's forked child inside its own network
 * namespace with a tun device "skua0" (198.51.100.1/24, 2001:db8::1/64).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "kernel/kernel.h"
#include "tests/unit/kernel_test.h"

#define HOSTS 256 /* 203.0.113.0/32 .. 203.0.113.255/32 */
#define NETS 64	  /* 2001:db8:1:0::/64 .. 2001:db8:1:3f::/64 */

static void lab(void)
{
	ktest_netns();
	ktest_tun("skua0");
	ktest_addr("skua0", "198.51.100.1", 24);
	ktest_addr("skua0", "2001:db8::1", 64);
}

static struct prefix host(unsigned i)
{
	struct prefix p = { .family = AF_INET, .len = 32 };

	p.u.v4.s_addr = htonl(0xcb007100u | i); /* 203.0.113.i */
	return p;
}

static struct prefix net6(unsigned i)
{
	struct prefix p = { .family = AF_INET6, .len = 64 };

	inet_pton(AF_INET6, "2001:db8:1::", &p.u.v6);
	p.u.bytes[6] = (uint8_t)(i >> 8);
	p.u.bytes[7] = (uint8_t)i;
	return p;
}

static void install(struct kernel_fib *kf, const struct prefix *p, uint32_t table)
{
	struct kernel_route r = { .dst = *p, .table = table, .metric = 20, .nnh = 1 };

	r.nh[0].gw = ktest_ip(p->family == AF_INET ? "198.51.100.2" : "2001:db8::2");
	ck_assert_int_eq(kernel_fib_replace(kf, &r), 0);
}

/* What the kernel holds of ours: counts per family, and which of the hosts are there. */
static struct {
	unsigned v4, v6;
	bool host[HOSTS];
} seen;

static int seen_cb(const struct kernel_route *r, void *arg)
{
	(void)arg;
	if (r->dst.family == AF_INET6) {
		seen.v6++;
		return 0;
	}
	seen.v4++;
	if (r->dst.len == 32 && (ntohl(r->dst.u.v4.s_addr) & 0xffffff00u) == 0xcb007100u)
		seen.host[ntohl(r->dst.u.v4.s_addr) & 0xff] = true;
	return 0;
}

static void read_back(uint32_t table)
{
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(kernel_fib_dump(table, AF_INET, seen_cb, NULL), 0);
	ck_assert_int_eq(kernel_fib_dump(table, AF_INET6, seen_cb, NULL), 0);
}

START_TEST(test_release_bounded_once_each_spread)
{
	struct kernel_fib *kf;
	struct kernel_fib_hold *h = kernel_fib_hold_new();
	unsigned low_gone = 0, high_gone = 0;

	lab();
	ck_assert_int_eq(kernel_fib_open(&kf, NULL, NULL), 0);
	for (unsigned i = 0; i < HOSTS; i++) {
		struct prefix p = host(i);

		install(kf, &p, KERNEL_TABLE_MAIN);
	}
	for (unsigned i = 0; i < NETS; i++) {
		struct prefix p = net6(i);

		install(kf, &p, KERNEL_TABLE_MAIN);
	}
	ck_assert_int_eq(kernel_fib_flush(kf), HOSTS + NETS);

	/* Held in address order, as a session loss hands them over: nothing reaches the kernel. */
	for (unsigned i = 0; i < HOSTS; i++) {
		struct prefix p = host(i);

		kernel_fib_hold_add(h, kf, &p, KERNEL_TABLE_MAIN, 20);
	}
	for (unsigned i = 0; i < NETS; i++) {
		struct prefix p = net6(i);

		kernel_fib_hold_add(h, kf, &p, KERNEL_TABLE_MAIN, 20);
	}
	ck_assert_uint_eq(kernel_fib_hold_count(h), HOSTS + NETS);
	ck_assert_int_eq(kernel_fib_flush(kf), 0);
	read_back(KERNEL_TABLE_MAIN);
	ck_assert_uint_eq(seen.v4, HOSTS);
	ck_assert_uint_eq(seen.v6, NETS);

	/* A quarter of the hosts, no more, drawn from all of them: neither the first quarter that
	 * came nor the last (both orders leave the kernel's trie a dense block, the slow case). */
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, HOSTS / 4, NULL, NULL), HOSTS / 4);
	ck_assert_int_eq(kernel_fib_flush(kf), HOSTS / 4);
	ck_assert_uint_eq(kernel_fib_hold_count(h), HOSTS - HOSTS / 4 + NETS);
	read_back(KERNEL_TABLE_MAIN);
	ck_assert_uint_eq(seen.v4, HOSTS - HOSTS / 4);
	ck_assert_uint_eq(seen.v6, NETS);
	for (unsigned i = 0; i < HOSTS / 4; i++) {
		low_gone += !seen.host[i];
		high_gone += !seen.host[HOSTS - 1 - i];
	}
	ck_assert_msg(low_gone >= 4 && high_gone >= 4, /* random: 16 of each, on average */
		      "the first release took %u of the first quarter and %u of the last", low_gone,
		      high_gone);

	/* The rest: every held deletion once (a second one would be refused: ESRCH). */
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL),
			  HOSTS - HOSTS / 4 + NETS);
	ck_assert_uint_eq(kernel_fib_hold_count(h), 0);
	ck_assert_int_eq(kernel_fib_flush(kf), HOSTS - HOSTS / 4 + NETS);
	{
		uint64_t sent, refused, msgs;

		kernel_fib_stats(kf, &sent, &refused, &msgs);
		ck_assert_uint_eq(refused, 0);
	}
	read_back(KERNEL_TABLE_MAIN);
	ck_assert_uint_eq(seen.v4, 0);
	ck_assert_uint_eq(seen.v6, 0);
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL), 0);

	kernel_fib_hold_free(h);
	kernel_fib_close(kf);
}
END_TEST

/* Deletions for another table (bgp fib table N changed) send the held ones first. */
START_TEST(test_other_table_releases_held)
{
	struct kernel_fib *kf;
	struct kernel_fib_hold *h = kernel_fib_hold_new();
	struct prefix a = host(1), b = host(2);

	lab();
	ck_assert_int_eq(kernel_fib_open(&kf, NULL, NULL), 0);
	install(kf, &a, KERNEL_TABLE_MAIN);
	install(kf, &b, 100);
	ck_assert_int_eq(kernel_fib_flush(kf), 2);

	kernel_fib_hold_add(h, kf, &a, KERNEL_TABLE_MAIN, 20);
	kernel_fib_hold_add(h, kf, &b, 100, 20);
	ck_assert_uint_eq(kernel_fib_hold_count(h), 1);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	read_back(KERNEL_TABLE_MAIN);
	ck_assert_uint_eq(seen.v4, 0);
	read_back(100);
	ck_assert_uint_eq(seen.v4, 1);

	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL), 1);
	ck_assert_int_eq(kernel_fib_flush(kf), 1);
	read_back(100);
	ck_assert_uint_eq(seen.v4, 0);
	kernel_fib_hold_free(h);
	kernel_fib_close(kf);
}
END_TEST

/* The deletion of a route installed again since it was held is dropped, not sent. */
static bool keep_host2(const struct prefix *dst, void *arg)
{
	const struct prefix want = host(2);

	(*(unsigned *)arg)++;
	return prefix_cmp(dst, &want) == 0;
}

START_TEST(test_wanted_again_not_deleted)
{
	struct kernel_fib *kf;
	struct kernel_fib_hold *h = kernel_fib_hold_new();
	unsigned asked = 0;

	lab();
	ck_assert_int_eq(kernel_fib_open(&kf, NULL, NULL), 0);
	for (unsigned i = 1; i <= 3; i++) {
		struct prefix p = host(i);

		install(kf, &p, KERNEL_TABLE_MAIN);
		kernel_fib_hold_add(h, kf, &p, KERNEL_TABLE_MAIN, 20);
	}
	ck_assert_int_eq(kernel_fib_flush(kf), 3);
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, SIZE_MAX, keep_host2, &asked), 3);
	ck_assert_uint_eq(asked, 3);
	ck_assert_int_eq(kernel_fib_flush(kf), 2);
	read_back(KERNEL_TABLE_MAIN);
	ck_assert_uint_eq(seen.v4, 1);
	ck_assert(seen.host[2]);
	kernel_fib_hold_free(h);
	kernel_fib_close(kf);
}
END_TEST

/* Many held, across the blocks the hold keeps them in: counts stay exact, each goes once. */
START_TEST(test_many_across_blocks)
{
	struct kernel_fib *kf;
	struct kernel_fib_hold *h = kernel_fib_hold_new();
	const size_t many = 3 * 4096 + 5; /* IPv4 addresses: 4096 to a block */
	uint64_t sent, refused, msgs;

	lab();
	ck_assert_int_eq(kernel_fib_open(&kf, NULL, NULL), 0);
	for (size_t i = 0; i < many; i++) {
		struct prefix p = host((unsigned)(i % HOSTS));

		p.len = (uint8_t)(24 + i % 9); /* /24 to /32: one vector per length */
		p.u.v4.s_addr &= htonl(0xffffffffu << (32 - p.len));
		kernel_fib_hold_add(h, kf, &p, KERNEL_TABLE_MAIN, 20);
	}
	for (size_t i = 0; i < 1000; i++) {
		struct prefix p = net6((unsigned)i);

		kernel_fib_hold_add(h, kf, &p, KERNEL_TABLE_MAIN, 20);
	}
	ck_assert_uint_eq(kernel_fib_hold_count(h), many + 1000);
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, 5000, NULL, NULL), 5000);
	ck_assert_uint_eq(kernel_fib_hold_count(h), many + 1000 - 5000);
	ck_assert_uint_eq(kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL), many + 1000 - 5000);
	ck_assert_uint_eq(kernel_fib_hold_count(h), 0);
	kernel_fib_flush(kf);
	/* None of them was installed: the kernel refused every one, so it saw every one. */
	kernel_fib_stats(kf, &sent, &refused, &msgs);
	ck_assert_uint_eq(sent, many + 1000);
	ck_assert_uint_eq(refused, many + 1000);
	/* Emptied, it holds again from nothing. */
	kernel_fib_hold_add(h, kf, &(struct prefix){ .family = AF_INET, .len = 8 },
			    KERNEL_TABLE_MAIN, 20);
	ck_assert_uint_eq(kernel_fib_hold_count(h), 1);
	kernel_fib_hold_free(h);
	kernel_fib_close(kf);
}
END_TEST

static Suite *route_hold_suite(void)
{
	Suite *s = suite_create("kernel_route_hold_live");
	TCase *tc = tcase_create("rtnetlink");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_release_bounded_once_each_spread);
	tcase_add_test(tc, test_other_table_releases_held);
	tcase_add_test(tc, test_many_across_blocks);
	tcase_add_test(tc, test_wanted_again_not_deleted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ktest_run("check_kernel_route_hold_live", route_hold_suite());
}
