/* SPDX-License-Identifier: ISC */
/*
 * Benchmark (not a test): the withdrawal path of the RIB against its announcement path, in
 * one process, so both see the same machine load. N prefixes from one eBGP peer (e1) are
 * passed to another (e2) through the real codec and RIB (the session side replaced by the
 * doubles of tests/unit/rib_fake.c, whose send() decodes and counts every UPDATE). Phases:
 *
 *   announce   e1 sends the table; e2 is sent it                       (the reference)
 *   withdraw   e1 withdraws every prefix in UPDATEs (WITHDRAWN ROUTES or MP_UNREACH, as many
 *              per message as 4096 bytes hold); e2 is sent the withdrawals
 *   announce   again (the table back, from the freed slabs and caches)
 *   drop       e1's session goes down; e2 is sent the withdrawals
 *
 *   bench/bench_withdraw [prefixes (1000000)] [ipv4|ipv6] [prefixes per attribute set (3)]
 *
 * Per phase: wall time and process CPU time (the steadier one on a shared machine), the CPU
 * ratio to the first announcement, what e2 was sent (prefixes per UPDATE: are withdrawals
 * packed?), and after each withdrawing phase the memory left: heap in use (mallinfo2), the
 * RIB's own memory types, VmRSS against the empty RIB's. The input UPDATEs are built before
 * the clock starts, as a peer would have them on the wire.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>
#include <malloc.h>
#include <time.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/memory.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define MSGS_PER_TURN 16 /* received UPDATEs between two turns of the RIB's work, as the loop */
#define MSG_MAX 4096

static size_t n = 1000000;
static size_t per_attr = 3;
static enum bgp_af af = BGP_AF_IPV4_UNICAST;

static double clock_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static long vmrss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6)) {
			v = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* Prefix i of the table: consecutive /24s from 1.0.0.0, or /64s from 2001:db8::/32. */
static void table_prefix(size_t i, struct prefix *p)
{
	memset(p, 0, sizeof(*p));
	if (af == BGP_AF_IPV4_UNICAST) {
		p->family = AF_INET;
		p->len = 24;
		p->u.v4.s_addr = htonl((UINT32_C(1) << 24) + (uint32_t)i * 256);
		return;
	}
	p->family = AF_INET6;
	p->len = 64;
	p->u.bytes[0] = 0x20;
	p->u.bytes[1] = 0x01;
	p->u.bytes[2] = 0x0d;
	p->u.bytes[3] = 0xb8;
	p->u.bytes[4] = (uint8_t)(i >> 24);
	p->u.bytes[5] = (uint8_t)(i >> 16);
	p->u.bytes[6] = (uint8_t)(i >> 8);
	p->u.bytes[7] = (uint8_t)i;
}

/* A feed: UPDATE bodies, each preceded by its length in two bytes. */
struct feed {
	uint8_t *buf;
	size_t len, cap, msgs;
};

static uint8_t *feed_room(struct feed *f)
{
	if (f->len + MSG_MAX + 2 > f->cap) {
		f->cap = f->cap ? f->cap * 2 : 1 << 20;
		f->buf = realloc(f->buf, f->cap);
		ck_assert_ptr_nonnull(f->buf);
	}
	return f->buf + f->len + 2;
}

static void feed_commit(struct feed *f, size_t len)
{
	f->buf[f->len] = (uint8_t)(len >> 8);
	f->buf[f->len + 1] = (uint8_t)len;
	f->len += 2 + len;
	f->msgs++;
}

static struct bgp_codec_ctx e1_ctx(const struct fake_peer *e1)
{
	struct bgp_codec_ctx ctx = e1->info.codec;

	ctx.local_as = 65002;
	ctx.peer_as = 65001;
	return ctx;
}

/* The announcements: one attribute set per per_attr consecutive prefixes, each set its own
 * AS path (65002 X Y) and MED, so the export side has as many groups as the input. */
static void feed_announce(struct feed *f, const struct fake_peer *e1)
{
	struct bgp_codec_ctx ctx = e1_ctx(e1);

	for (size_t i = 0; i < n; i += per_attr) {
		size_t g = i / per_attr, k = MIN(per_attr, n - i), done = 0;
		char path[64];
		struct bgp_attr t;

		snprintf(path, sizeof(path), "65002 %zu %zu", 1000 + g % 50000, 100000 + g / 50000);
		tmpl_init(&t, path, af == BGP_AF_IPV4_UNICAST ? "10.0.0.2" : "2001:db8:ffff::2",
			  BGP_ORIGIN_IGP);
		t.present |= ATTR_BIT(BGP_ATTR_MED);
		t.med = (uint32_t)(g % 7);
		while (done < k) {
			struct bgp_update_builder ub;
			struct prefix p;

			bgp_ub_begin_announce(&ub, feed_room(f), MSG_MAX, &ctx, af, &t);
			for (; done < k; done++) {
				table_prefix(i + done, &p);
				if (bgp_ub_add(&ub, &p) != 0)
					break;
			}
			feed_commit(f, bgp_ub_finish(&ub));
		}
		tmpl_release(&t);
	}
}

/* The withdrawals: every prefix, as many per UPDATE as fit. */
static void feed_withdraw(struct feed *f, const struct fake_peer *e1)
{
	struct bgp_codec_ctx ctx = e1_ctx(e1);
	size_t i = 0;

	while (i < n) {
		struct bgp_update_builder ub;
		struct prefix p;

		bgp_ub_begin_withdraw(&ub, feed_room(f), MSG_MAX, &ctx, af);
		for (; i < n; i++) {
			table_prefix(i, &p);
			if (bgp_ub_add(&ub, &p) != 0)
				break;
		}
		feed_commit(f, bgp_ub_finish(&ub));
	}
}

/* Deliver a feed as the loop would (a few UPDATEs, then a turn of the RIB's work), then run
 * the work to its end. */
static void feed_run(struct bgp *bgp, struct fake_peer *e1, const struct feed *f)
{
	const uint8_t *pos = f->buf;

	for (size_t m = 0; m < f->msgs; m++) {
		size_t len = (size_t)pos[0] << 8 | pos[1];

		ck_assert_msg(fake_deliver(e1, pos + 2 + 19, len - 19) == 0,
			      "decode error in message %zu", m);
		pos += 2 + len;
		if (m % MSGS_PER_TURN == MSGS_PER_TURN - 1)
			fake_run(bgp, 1);
	}
	fake_run(bgp, 100000000);
}

struct phase {
	const char *name;
	double wall, cpu;
	uint64_t e2_msgs, e2_pfx;
};

static struct phase phase_begin(const char *name, const struct fake_peer *e2, bool withdrawals)
{
	struct phase ph = { .name = name };

	ph.e2_msgs = withdrawals ? e2->msgs_withdraw : e2->msgs_announce;
	ph.e2_pfx = withdrawals ? e2->pfx_withdrawn : e2->pfx_announced;
	ph.wall = clock_s(CLOCK_MONOTONIC);
	ph.cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	return ph;
}

static void phase_end(struct phase *ph, const struct fake_peer *e2, bool withdrawals,
		      double ref_cpu)
{
	ph->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - ph->cpu;
	ph->wall = clock_s(CLOCK_MONOTONIC) - ph->wall;
	ph->e2_msgs = (withdrawals ? e2->msgs_withdraw : e2->msgs_announce) - ph->e2_msgs;
	ph->e2_pfx = (withdrawals ? e2->pfx_withdrawn : e2->pfx_announced) - ph->e2_pfx;
	printf("  %-10s wall %.3f s, CPU %.3f s (%.2fx the first announcement); e2 sent %" PRIu64
	       " %s in %" PRIu64 " UPDATEs (%.0f per UPDATE)\n",
	       ph->name, ph->wall, ph->cpu, ref_cpu > 0 ? ph->cpu / ref_cpu : 1.0, ph->e2_pfx,
	       withdrawals ? "withdrawals" : "prefixes", ph->e2_msgs,
	       ph->e2_msgs ? (double)ph->e2_pfx / (double)ph->e2_msgs : 0.0);
}

/* The memory types still holding more than 1 MiB: what a withdrawal leaves behind. */
static void mt_big_cb(const struct mtype *mt, void *arg)
{
	(void)arg;
	if (mt->bytes > 1048576)
		printf(" %s %.1f MiB;", mt->name, (double)mt->bytes / 1048576.0);
}

static void memory_report(const char *when, const struct bgp *bgp, size_t heap0, long rss0)
{
	size_t heap = heap_used();
	long rss = vmrss_kb();

	printf("  memory %s: dests %zu, RIB types %" PRIu64 " bytes in %" PRIu64
	       " allocations, heap %+.1f MiB, VmRSS %ld kB (%+.1f%% of the empty RIB's %ld kB)\n",
	       when, ptree_count(bgp->rib->af[af].tree), rib_mem_bytes(), rib_mem_allocs(),
	       ((double)heap - (double)heap0) / 1048576.0, rss,
	       100.0 * (double)(rss - rss0) / (double)rss0, rss0);
	printf("    interned: %zu attribute sets, %zu AS paths, %zu lists; types over 1 MiB:",
	       bgp_attr_count(), bgp_attr_aspath_count(), bgp_attr_list_count());
	mem_walk(mt_big_cb, NULL);
	printf("\n");
}

/* Runs inside a Check test (no fork) because the fakes assert with Check. */
START_TEST(bench)
{
	struct bgp *bgp = fake_bgp_new(65001, "10.0.0.1");
	struct fake_peer *e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	struct fake_peer *e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	struct feed ann = { 0 }, wd = { 0 };
	struct phase a1, w, a2, d;
	size_t heap0;
	long rss0;

	e2->keep = false; /* decode and count, do not store */
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_run(bgp, 1000);
	feed_announce(&ann, e1);
	feed_withdraw(&wd, e1);
	/* The empty RIB's memory, with the feeds already built (they are not the RIB's). */
	malloc_trim(0);
	heap0 = heap_used();
	rss0 = vmrss_kb();

	printf("bench_withdraw: %zu %s prefixes from one eBGP peer to another, %zu per attribute "
	       "set; in: %zu announcing UPDATEs, %zu withdrawing UPDATEs\n",
	       n, af == BGP_AF_IPV4_UNICAST ? "IPv4" : "IPv6", per_attr, ann.msgs, wd.msgs);

	a1 = phase_begin("announce", e2, false);
	feed_run(bgp, e1, &ann);
	phase_end(&a1, e2, false, 0);
	ck_assert_uint_eq(a1.e2_pfx, n);
	memory_report("with the table", bgp, heap0, rss0);

	w = phase_begin("withdraw", e2, true);
	feed_run(bgp, e1, &wd);
	phase_end(&w, e2, true, a1.cpu);
	ck_assert_uint_eq(w.e2_pfx, n);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[af].tree), 0);
	memory_report("after the withdrawals", bgp, heap0, rss0);

	a2 = phase_begin("announce", e2, false);
	feed_run(bgp, e1, &ann);
	phase_end(&a2, e2, false, a1.cpu);
	ck_assert_uint_eq(a2.e2_pfx, n);

	d = phase_begin("drop", e2, true);
	fake_peer_down(e1);
	fake_run(bgp, 100000000);
	phase_end(&d, e2, true, a1.cpu);
	ck_assert_uint_eq(d.e2_pfx, n);
	ck_assert_uint_eq(ptree_count(bgp->rib->af[af].tree), 0);
	memory_report("after the drop", bgp, heap0, rss0);

	free(ann.buf);
	free(wd.buf);
	fake_peer_down(e2);
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_bgp_free(bgp);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("bench_withdraw");
	TCase *tc = tcase_create("bench");
	SRunner *sr;
	int failed;

	n = argc > 1 ? strtoul(argv[1], NULL, 10) : n;
	if (argc > 2 && !strcmp(argv[2], "ipv6"))
		af = BGP_AF_IPV6_UNICAST;
	per_attr = argc > 3 ? strtoul(argv[3], NULL, 10) : per_attr;
	if (n == 0 || per_attr == 0 || n > (1u << 24) ||
	    (argc > 2 && strcmp(argv[2], "ipv4") && strcmp(argv[2], "ipv6"))) {
		fprintf(stderr, "usage: bench_withdraw [prefixes (1..16777216)] [ipv4|ipv6] "
				"[prefixes per attribute set]\n");
		return 2;
	}
	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, bench);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	if (failed)
		srunner_print(sr, CK_NORMAL);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
