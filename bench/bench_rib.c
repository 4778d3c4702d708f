/* SPDX-License-Identifier: ISC */
/*
 * Benchmark (not a test): N IPv4 prefixes learned from one eBGP peer and advertised to
 * another, through the real codec and RIB alone (no session library: the RIB is handed the
 * fake session side of tests/unit/rib_fake.c, whose send() decodes and counts every UPDATE).
 *
 *   bench/bench_rib [prefixes (1000000)] [prefixes per attribute set (10)]
 *
 *   bench/bench_rib [prefixes] [prefixes per attribute set] uniform
 *     the first model (every set its own 3-AS path, no communities), for comparisons
 *
 *   bench/bench_rib [prefixes] [prefixes per attribute set] [internet|uniform] ipv6
 *     the same over IPv6 sessions: /64s from 2001:db8::/64 upwards, MP_REACH_NLRI with a
 *     global next hop (issue 15 measures both families)
 *
 *   bench/bench_rib [prefixes] [per set] [internet|uniform] [ipv4|ipv6] shaped
 *     the prefixes of edge_bench's internet-shaped table (bench/blaster_shape.c: its
 *     lengths, where they lie, the order they are sent in) instead of consecutive /24s or
 *     /64s: the tree's descents as the daemon's, counted by callgrind
 *
 * The attribute model (default, "internet"), after what a full IPv4 table from one transit
 * peer looks like (about 1M prefixes, 3 prefixes per distinct attribute set, 100k distinct
 * AS paths, communities on a fifth of the sets):
 *   - S = ceil(N / k) attribute sets; prefixes are consecutive /24s, k per set.
 *   - P = min(S, max(1, N / 10)) distinct AS paths: the peer's AS 65002 then 1 to 7 more
 *     (length 2..8, mean about 4.4), a tenth of them 4-octet ASNs. Set g uses path g mod P.
 *   - MED g / P on every set: sets that share an AS path differ by MED, so the S sets are
 *     all distinct (at k = 3: 333,334 sets over 100,000 paths).
 *   - ORIGIN mostly IGP, 1 in 8 INCOMPLETE.
 *   - About 2 sets in 11 carry COMMUNITIES (60,600 at k = 3): one of max(1, S / 16) lists of
 *     1..6 communities (20,834 lists at k = 3).
 * Everything is derived from g by a fixed hash, so runs are repeatable.
 *
 * The input UPDATEs are built before the clock starts (as a peer would have them on the wire)
 * and freed before memory is measured. Time is given as wall time and as the process's CPU
 * time (the steadier one on a shared machine). The feed alternates like the event loop would: a few
 * received UPDATEs, then one turn of the RIB's deferred work. Reported: time, process heap
 * bytes per prefix (mallinfo2: everything malloc holds, slabs, trees, interned attributes,
 * hash tables), resident memory, and the RIB's own counters.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>
#include <malloc.h>
#include <time.h>

#include "bench/blaster_shape.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/memory.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define MSGS_PER_TURN 16

static double clock_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* CPU time of the process: steadier than wall time on a loaded machine. */
static double cpu_s(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static long proc_status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			v = strtol(line + strlen(key), NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

struct mt_sum {
	const char *name;
	uint64_t bytes;
	uint64_t allocs;
};

static void mt_cb(const struct mtype *mt, void *arg)
{
	struct mt_sum *s = arg;

	for (; s->name; s++)
		if (!strcmp(s->name, mt->name)) {
			s->bytes = mt->bytes;
			s->allocs = mt->allocated;
		}
}

static size_t n = 1000000;
static size_t per_attr = 10;
static bool uniform; /* the first model: see the top of the file */
static enum bgp_af af = BGP_AF_IPV4_UNICAST;
static bool shaped; /* edge_bench's table shape: see the top of the file */
static struct shape shape;

/* A fixed 32-bit mix (splitmix-style finaliser): the "random" choices of the model. */
static uint32_t mix(uint32_t x, uint32_t salt)
{
	x ^= salt * 0x9e3779b9u;
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* AS path number p of the model in text form. */
static void model_aspath(uint32_t p, char *buf, size_t size)
{
	/* Lengths 2..8 after the peer's AS: 1 more AS 10%, 2 25%, 3 28%, 4 18%, 5 10%, 6 6%,
	 * 7 3%. */
	static const uint8_t cum[] = { 10, 35, 63, 81, 91, 97, 100 };
	uint32_t r = mix(p, 1) % 100, extra = 1;
	size_t o;

	while (r >= cum[extra - 1])
		extra++;
	o = (size_t)snprintf(buf, size, "65002");
	for (uint32_t i = 0; i < extra && o < size; i++) {
		uint32_t h = mix(p, 2 + i), asn;

		/* Distinct paths: the last AS (the origin) encodes p, the others are transit ASes
		 * from a smaller pool. A tenth are 4-octet. */
		if (i + 1 == extra)
			asn = (h % 10 == 0 ? 4200000000u : 100000u) + p;
		else
			asn = 1000 + h % 20000;
		o += (size_t)snprintf(buf + o, size - o, " %u", asn);
	}
}

/* The feeder's address, its next hop. */
static const char *feeder_nh(void)
{
	return af == BGP_AF_IPV6_UNICAST ? "2001:db8::2" : "10.0.0.2";
}

/* Prefix i of the feed: /24s from 1.0.0.0, or /64s from 2001:db8::/64. */
static void feed_prefix(struct prefix *p, size_t i)
{
	if (shaped) {
		shape_prefix(&shape, i, p);
		return;
	}
	memset(p, 0, sizeof(*p));
	if (af == BGP_AF_IPV6_UNICAST) {
		p->family = AF_INET6;
		p->len = 64;
		p->u.bytes[0] = 0x20;
		p->u.bytes[1] = 0x01;
		p->u.bytes[2] = 0x0d;
		p->u.bytes[3] = 0xb8;
		for (int b = 0; b < 4; b++)
			p->u.bytes[7 - b] = (uint8_t)(i >> (8 * b));
		return;
	}
	p->family = AF_INET;
	p->len = 24;
	p->u.v4.s_addr = htonl((UINT32_C(1) << 24) + (uint32_t)i * 256);
}

/* Fill template t for attribute set g (of nsets) under the current model. */
static void model_set(struct bgp_attr *t, uint32_t g, uint32_t nsets)
{
	uint32_t npaths = (uint32_t)MIN((size_t)nsets, MAX((size_t)1, n / 10));
	char path[128];

	if (uniform) {
		snprintf(path, sizeof(path), "65002 %u %u", 1000 + g % 50000, 100000 + g / 50000);
		tmpl_init(t, path, feeder_nh(), BGP_ORIGIN_IGP);
		t->present |= ATTR_BIT(BGP_ATTR_MED);
		t->med = g % 7;
		return;
	}
	model_aspath(g % npaths, path, sizeof(path));
	tmpl_init(t, path, feeder_nh(),
		  mix(g, 20) % 8 == 0 ? BGP_ORIGIN_INCOMPLETE : BGP_ORIGIN_IGP);
	t->present |= ATTR_BIT(BGP_ATTR_MED);
	t->med = g / npaths;
	if (mix(g, 21) % 11 < 2) {
		uint32_t nlists = MAX(1u, nsets / 16), l = mix(g, 22) % nlists;
		uint32_t vals[6], cnt = 1 + mix(l, 23) % 6;

		for (uint32_t i = 0; i < cnt; i++)
			vals[i] = (65002u << 16) | (mix(l, 24 + i) % 4000);
		t->communities = bgp_u32list_intern(vals, cnt);
		t->present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	}
}

/* Runs inside a Check test (no fork) because the fakes assert with Check. */
START_TEST(bench)
{
	struct bgp *bgp;
	struct fake_peer *e1, *e2;
	uint8_t *in, *pos;
	size_t in_cap, in_len = 0, nmsgs = 0, heap0, heap1;
	double t0, t1, t2, c0, c2;
	long rss0, rss1;
	struct prefix *p;
	struct mt_sum sums[] = {
		{ "BGP paths" },
		{ "BGP change journal" },
		{ "Prefix tree nodes" },
		{ "Prefix tree" },
		{ "BGP attribute set" },
		{ "BGP attribute extras" },
		{ "BGP attribute index" },
		{ "BGP AS path" },
		{ "BGP community/cluster list" },
		{ "Hash table index" },
		{ "BGP AS path/community index" },
		{ "BGP Adj-RIB-Out" },
		{ "BGP RIB" },
		{ "BGP advertised-to bitmaps" },
		{ NULL },
	};

	rss0 = proc_status_kb("VmRSS:");
	heap0 = heap_used();
	bgp = fake_bgp_new(65001, "10.0.0.1");
	if (af == BGP_AF_IPV6_UNICAST) {
		e1 = fake_peer_new(bgp, "2001:db8::2", 65002, "2001:db8::1", "2.2.2.2");
		e2 = fake_peer_new(bgp, "2001:db8:1::2", 65003, "2001:db8:1::1", "3.3.3.3");
	} else {
		e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
		e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	}
	e2->keep = false; /* decode and count, do not store */
	fake_peer_up(e1);
	fake_peer_up(e2);
	fake_run(bgp, 1000);

	/* The feed: one UPDATE per attribute set (see the model above), feed_prefix() order. */
	p = calloc(per_attr, sizeof(*p));
	in_cap = (n / per_attr + 1) * (96 + 4 * per_attr) + 4096;
	in = malloc(in_cap);
	for (size_t i = 0; i < n; i += per_attr) {
		size_t g = i / per_attr, k = MIN(per_attr, n - i), done = 0;
		struct bgp_codec_ctx ctx = e1->info.codec;
		struct bgp_update_builder ub;
		struct bgp_attr t;

		model_set(&t, (uint32_t)g, (uint32_t)((n + per_attr - 1) / per_attr));
		for (size_t j = 0; j < k; j++)
			feed_prefix(&p[j], i + j);
		ctx.local_as = 65002;
		ctx.peer_as = 65001;
		while (done < k) {
			size_t len;

			if (in_len + 4096 + 2 > in_cap) {
				in_cap *= 2;
				in = realloc(in, in_cap);
			}
			bgp_ub_begin_announce(&ub, in + in_len + 2, 4096, &ctx, af, &t);
			while (done < k && bgp_ub_add(&ub, &p[done]) == 0)
				done++;
			len = bgp_ub_finish(&ub);
			in[in_len] = (uint8_t)(len >> 8);
			in[in_len + 1] = (uint8_t)len;
			in_len += 2 + len;
			nmsgs++;
		}
		bgp_u32list_unref(t.communities);
		tmpl_release(&t);
	}
	free(p);

	/* Go: decode + RIB + export to e2 (encode, decode, count), as the loop would run it. */
	t0 = now_s();
	c0 = cpu_s();
	pos = in;
	for (size_t m = 0; m < nmsgs; m++) {
		size_t len = (size_t)pos[0] << 8 | pos[1];

		ck_assert_msg(fake_deliver(e1, pos + 2 + 19, len - 19) == 0,
			      "decode error in message %zu", m);
		pos += 2 + len;
		if (m % MSGS_PER_TURN == MSGS_PER_TURN - 1)
			fake_run(bgp, 1);
	}
	t1 = now_s();
	fake_run(bgp, 100000000);
	t2 = now_s();
	c2 = cpu_s();
	free(in);
	malloc_trim(0);

	heap1 = heap_used();
	rss1 = proc_status_kb("VmRSS:");
	mem_walk(mt_cb, sums);

	printf("bench_rib: %zu %s%s prefixes from one eBGP peer to another, %zu per attribute set "
	       "(%s model), %zu UPDATEs in\n",
	       n, shaped ? "internet-shaped " : "", af == BGP_AF_IPV6_UNICAST ? "IPv6" : "IPv4",
	       per_attr, uniform ? "uniform" : "internet", nmsgs);
	printf("  interned: %zu attribute sets, %zu AS paths, %zu lists (the RIB's and the export "
	       "cache's)\n",
	       bgp_attr_count(), bgp_attr_aspath_count(), bgp_attr_list_count());
	printf("  time: %.3f s end to end (%.3f s receiving, %.3f s draining output); %.0f "
	       "prefixes/s; CPU %.3f s\n",
	       t2 - t0, t1 - t0, t2 - t1, (double)n / (t2 - t0), c2 - c0);
	printf("  sent to e2: %" PRIu64 " prefixes in %" PRIu64 " UPDATEs (%" PRIu64
	       " bytes), End-of-RIB %" PRIu64 "\n",
	       e2->pfx_announced, e2->msgs_announce, e2->bytes, e2->eor[af]);
	printf("  RIB: accepted %u, sent %u, table version %" PRIu64 ", dests %zu, journal %" PRIu64
	       " entries\n",
	       rib_peer_accepted(&e1->peer, af), rib_peer_sent(&e2->peer, af),
	       rib_table_version(bgp), ptree_count(bgp->rib->af[af].tree),
	       bgp->rib->af[af].journal.head - bgp->rib->af[af].journal.tail);
	printf("  sizes: struct bgp_dest %zu (inline in its %zu-byte tree node), struct bgp_path "
	       "%zu, "
	       "struct bgp_attr %zu, struct bgp_attr_extra %zu (%zu interned)\n",
	       sizeof(struct bgp_dest), ptree_entry_size(bgp->rib->af[af].tree),
	       sizeof(struct bgp_path), sizeof(struct bgp_attr), sizeof(struct bgp_attr_extra),
	       bgp_attr_extra_count());
	printf("  heap: %.1f bytes/prefix (mallinfo2 in use: %zu -> %zu bytes)\n",
	       (double)(heap1 - heap0) / (double)n, heap0, heap1);
	printf("  RSS:  %.1f bytes/prefix (VmRSS %ld -> %ld kB, peak VmHWM %ld kB)\n",
	       (double)(rss1 - rss0) * 1024.0 / (double)n, rss0, rss1, proc_status_kb("VmHWM:"));
	printf("  by type (bytes/prefix):");
	for (struct mt_sum *s = sums; s->name; s++)
		if (s->bytes)
			printf(" %s %.1f;", s->name, (double)s->bytes / (double)n);
	printf("\n  ptree_memory %.1f bytes/prefix; RIB (dests+paths+tree+journal) %.1f "
	       "bytes/prefix;"
	       " %zu attribute sets\n",
	       (double)ptree_memory(bgp->rib->af[af].tree) / (double)n,
	       (double)rib_memory(bgp->rib) / (double)n, bgp_attr_count());

	c0 = cpu_s();
	fake_peer_down(e1);
	fake_run(bgp, 100000000);
	c2 = cpu_s();
	printf("  after e1 down: e2 withdrawn %" PRIu64 " in %" PRIu64 " UPDATEs, dests left %zu\n",
	       e2->pfx_withdrawn, e2->msgs_withdraw, ptree_count(bgp->rib->af[af].tree));
	/* What the withdrawal gave back (the full table's heap above heap0 = 100 %). */
	printf("  heap after e1 down: %.1f bytes/prefix, %.1f %% of the full table's (CPU of the "
	       "withdrawal %.3f s)\n",
	       ((double)heap_used() - (double)heap0) / (double)n,
	       100.0 * ((double)heap_used() - (double)heap0) / (double)(heap1 - heap0), c2 - c0);
	fake_peer_down(e2);
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_bgp_free(bgp);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("bench_rib");
	TCase *tc = tcase_create("bench");
	SRunner *sr;
	int failed;

	n = argc > 1 ? strtoul(argv[1], NULL, 10) : n;
	per_attr = argc > 2 ? strtoul(argv[2], NULL, 10) : per_attr;
	uniform = argc > 3 && !strcmp(argv[3], "uniform");
	if (argc > 4 && !strcmp(argv[4], "ipv6"))
		af = BGP_AF_IPV6_UNICAST;
	shaped = argc > 5 && !strcmp(argv[5], "shaped");
	if (n == 0 || per_attr == 0 || n > (1u << 24) ||
	    (argc > 3 && !uniform && strcmp(argv[3], "internet")) ||
	    (argc > 4 && af != BGP_AF_IPV6_UNICAST && strcmp(argv[4], "ipv4")) ||
	    (argc > 5 && !shaped)) {
		fprintf(stderr, "usage: bench_rib [prefixes (1..16777216)] [prefixes per attribute "
				"set] [internet|uniform] [ipv4|ipv6] [shaped]\n");
		return 2;
	}
	if (shaped) {
		char why[160];

		if (shape_init(&shape, af == BGP_AF_IPV6_UNICAST ? AF_INET6 : AF_INET, n, 1, why,
			       sizeof(why)) < 0) {
			fprintf(stderr, "bench_rib: %s\n", why);
			return 2;
		}
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
