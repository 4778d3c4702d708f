/* SPDX-License-Identifier: ISC */
/* lib/memory.c: per-type counters, the registry, totals, and abort on allocation failure. */
#include "lib/compat.h"

#include <check.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include "lib/mem_trim.h"
#include "lib/mem_trim.h"
#include "lib/memory.h"

DEFINE_MTYPE(TEST_A, "Test A");
DEFINE_MTYPE(TEST_B, "Test B");
DEFINE_MTYPE(TEST_UNUSED, "Test never used");
DEFINE_MTYPE(TEST_C, "Test C (walk order)");
DEFINE_MTYPE(TEST_D, "Test D (walk order)");

#ifdef __SANITIZE_ADDRESS__
/* Let a huge malloc() return NULL under ASan too, so that our own OOM path is what runs. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

START_TEST(test_counters)
{
	uint64_t a0 = MTYPE_TEST_A->allocated, b0 = MTYPE_TEST_A->bytes;
	uint64_t t0 = MTYPE_TEST_A->total;
	char *p = XMALLOC(MTYPE_TEST_A, 100);
	uint8_t *z;

	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0 + 1);
	ck_assert_uint_eq(MTYPE_TEST_A->total, t0 + 1);
	ck_assert_uint_eq(MTYPE_TEST_A->bytes, b0 + malloc_usable_size(p));
	ck_assert_uint_ge(MTYPE_TEST_A->bytes - b0, 100);

	z = XCALLOC(MTYPE_TEST_A, 64);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(z[i], 0);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0 + 2);

	/* realloc: same allocation count, bytes follow the new size */
	p = XREALLOC(MTYPE_TEST_A, p, 10000);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0 + 2);
	ck_assert_uint_eq(MTYPE_TEST_A->total, t0 + 2);
	ck_assert_uint_eq(MTYPE_TEST_A->bytes, b0 + malloc_usable_size(p) + malloc_usable_size(z));

	XFREE(MTYPE_TEST_A, p);
	ck_assert_ptr_null(p);
	XFREE(MTYPE_TEST_A, z);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0);
	ck_assert_uint_eq(MTYPE_TEST_A->bytes, b0);
	ck_assert_uint_eq(MTYPE_TEST_A->total, t0 + 2);

	/* a second XFREE of the NULLed pointer is harmless */
	XFREE(MTYPE_TEST_A, p);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0);

	/* realloc of NULL is an allocation */
	p = XREALLOC(MTYPE_TEST_A, NULL, 10);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0 + 1);
	XFREE(MTYPE_TEST_A, p);
}
END_TEST

START_TEST(test_strdup)
{
	char *s = XSTRDUP(MTYPE_TEST_B, "hello");
	char *t = XSTRNDUP(MTYPE_TEST_B, "hello world", 5);
	char *u = XSTRNDUP(MTYPE_TEST_B, "hi", 50);
	uint64_t before = MTYPE_TEST_B->allocated;

	ck_assert_str_eq(s, "hello");
	ck_assert_str_eq(t, "hello");
	ck_assert_str_eq(u, "hi");
	XFREE(MTYPE_TEST_B, s);
	XFREE(MTYPE_TEST_B, t);
	XFREE(MTYPE_TEST_B, u);
	ck_assert_uint_eq(MTYPE_TEST_B->allocated, before - 3);
}
END_TEST

struct walk_state {
	int seen_a, seen_b, seen_unused;
	int pos_a, pos_b, n;
	uint64_t bytes, allocated;
};

static void walk_cb(const struct mtype *mt, void *arg)
{
	struct walk_state *ws = arg;

	ws->n++;
	ws->bytes += mt->bytes;
	ws->allocated += mt->allocated;
	if (mt == MTYPE_TEST_C) {
		ws->seen_a++;
		ws->pos_a = ws->n;
	} else if (mt == MTYPE_TEST_D) {
		ws->seen_b++;
		ws->pos_b = ws->n;
	} else if (mt == MTYPE_TEST_UNUSED) {
		ws->seen_unused++;
	}
}

START_TEST(test_walk_and_totals)
{
	struct walk_state ws = { 0 };
	void *pa, *pb, *pb2;

	/* Registered on first use, in that order: D before C (used only here). */
	pb = XMALLOC(MTYPE_TEST_D, 10);
	pa = XMALLOC(MTYPE_TEST_C, 20);
	pb2 = XMALLOC(MTYPE_TEST_D, 30);
	mem_walk(walk_cb, &ws);
	ck_assert_int_eq(ws.seen_a, 1);
	ck_assert_int_eq(ws.seen_b, 1);
	ck_assert_int_eq(ws.seen_unused, 0);
	ck_assert_int_lt(ws.pos_b, ws.pos_a);
	ck_assert_uint_eq(ws.bytes, mem_total_bytes());
	ck_assert_uint_eq(ws.allocated, mem_total_allocated());
	ck_assert_uint_ge(mem_total_allocated(), 3);

	XFREE(MTYPE_TEST_C, pa);
	XFREE(MTYPE_TEST_D, pb);
	XFREE(MTYPE_TEST_D, pb2);
	ck_assert_uint_eq(MTYPE_TEST_C->allocated, 0);
	ck_assert_uint_eq(MTYPE_TEST_D->allocated, 0);
	ck_assert_uint_eq(MTYPE_TEST_C->bytes, 0);
	/* still registered after its count went back to zero */
	memset(&ws, 0, sizeof(ws));
	mem_walk(walk_cb, &ws);
	ck_assert_int_eq(ws.seen_a, 1);
	ck_assert_int_eq(ws.seen_b, 1);
}
END_TEST

/* Many allocations of varying sizes and lifetimes: the counters come back exactly. */
START_TEST(test_churn)
{
	enum { N = 5000 };
	static void *ptrs[N];
	uint64_t a0 = MTYPE_TEST_A->allocated, b0 = MTYPE_TEST_A->bytes;
	uint32_t x = 12345;

	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < N; i++) {
			x = x * 1103515245u + 12345u;
			if (ptrs[i] && (x & 1))
				XFREE(MTYPE_TEST_A, ptrs[i]);
			else if (ptrs[i])
				ptrs[i] = XREALLOC(MTYPE_TEST_A, ptrs[i], (x >> 8) % 4000);
			else
				ptrs[i] = XMALLOC(MTYPE_TEST_A, (x >> 8) % 300);
		}
	}
	for (int i = 0; i < N; i++)
		XFREE(MTYPE_TEST_A, ptrs[i]);
	ck_assert_uint_eq(MTYPE_TEST_A->allocated, a0);
	ck_assert_uint_eq(MTYPE_TEST_A->bytes, b0);
}
END_TEST

START_TEST(test_oom_aborts)
{
	/* More than any address space can hold: must abort, never return NULL. */
	volatile size_t huge = SIZE_MAX / 2;
	void *p = XMALLOC(MTYPE_TEST_A, huge);

	ck_abort_msg("XMALLOC returned %p for an impossible size", p);
}
END_TEST

START_TEST(test_zero_size)
{
	void *p = XMALLOC(MTYPE_TEST_A, 0);

	ck_assert_ptr_nonnull(p);
	XFREE(MTYPE_TEST_A, p);
}
END_TEST

/* Resident set size of this process, in kB (/proc/self/statm). */
static long rss_kb(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld %ld", &size, &resident), 2);
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* 64 MiB in small blocks, all freed but the last (which pins the top of the heap, so glibc's
 * own top trim cannot help): the check finds the heap mostly free and gives it back. */
START_TEST(test_trim_returns_freed_heap)
{
	enum { N = 64 * 1024, SZ = 1000 };
	char **blocks;
	long before, after;
	size_t seen;

#if defined(__SANITIZE_ADDRESS__)
	return; /* ASan has its own allocator: glibc's heap stays empty */
#endif
	mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024); /* keep glibc from trimming by itself */
	blocks = malloc(N * sizeof(*blocks));
	ck_assert_ptr_nonnull(blocks);
	for (int i = 0; i < N; i++) {
		blocks[i] = malloc(SZ);
		ck_assert_ptr_nonnull(blocks[i]);
		memset(blocks[i], 1, SZ);
	}
	ck_assert_uint_eq(mem_trim_check(), 0); /* all in use: nothing to do */
	for (int i = 0; i < N - 1; i++)
		free(blocks[i]);
	before = rss_kb();
	seen = mem_trim_check();
	after = rss_kb();
	ck_assert_msg(seen >= (size_t)(N - 1) * SZ, "free bytes seen: %zu", seen);
	ck_assert_msg(before - after > 48 * 1024, "RSS %ld kB -> %ld kB", before, after);
	/* Given back, the pages still count as free: no second pass until more is freed. */
	ck_assert_uint_eq(mem_trim_check(), 0);
	free(blocks[N - 1]);
	free(blocks);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("memory");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_counters);
	tcase_add_test(tc, test_strdup);
	tcase_add_test(tc, test_walk_and_totals);
	tcase_add_test(tc, test_churn);
	tcase_add_test(tc, test_zero_size);
	tcase_add_test_raise_signal(tc, test_oom_aborts, SIGABRT);
	tcase_add_test(tc, test_trim_returns_freed_heap);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
