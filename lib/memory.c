/* SPDX-License-Identifier: ISC */
/*
 * Per-type memory accounting. Each MTYPE is a statically defined counter block; it joins the
 * registry (a singly linked list in first-use order) the first time something is allocated
 * with it, so `show memory` lists only the types a daemon actually uses.
 *
 * Byte counts use malloc_usable_size(), which is what the allocator really holds for us,
 * so the totals match what a heap profiler would report (not what the callers asked for).
 */
#include "lib/compat.h"

#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

#include "lib/memory.h"

/*
 * Counters are updated with relaxed atomics: the daemon is single-threaded today, but the
 * design keeps the door open to a RIB thread, and a lost update would make the flap test lie.
 */
static struct mtype *mtype_head;
static struct mtype *mtype_tail;
static pthread_mutex_t mtype_lock = PTHREAD_MUTEX_INITIALIZER;

static void mtype_register(struct mtype *mt)
{
	pthread_mutex_lock(&mtype_lock);
	if (mt->next == NULL && mt != mtype_tail) {
		if (mtype_tail)
			__atomic_store_n(&mtype_tail->next, mt, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&mtype_head, mt, __ATOMIC_RELEASE);
		__atomic_store_n(&mtype_tail, mt, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mtype_lock);
}

static inline bool mtype_registered(const struct mtype *mt)
{
	/* Reading the link without the lock is fine: it only ever goes from unset to set. */
	return __atomic_load_n(&mt->next, __ATOMIC_ACQUIRE) != NULL ||
	       __atomic_load_n(&mtype_tail, __ATOMIC_ACQUIRE) == mt;
}

static void mem_account_alloc(struct mtype *mt, void *ptr)
{
	if (!mtype_registered(mt))
		mtype_register(mt);
	__atomic_add_fetch(&mt->allocated, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&mt->total, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&mt->bytes, malloc_usable_size(ptr), __ATOMIC_RELAXED);
}

static void mem_account_free(struct mtype *mt, size_t usable)
{
	__atomic_sub_fetch(&mt->allocated, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&mt->bytes, usable, __ATOMIC_RELAXED);
}

SKUA_NORETURN static void mem_oom(const struct mtype *mt, size_t size)
{
	char buf[256];
	int n;

	/*
	 * No zlog() here: logging may itself allocate. A plain write(2) to stderr always works;
	 * the process then aborts so that a core dump shows who asked.
	 */
	n = snprintf(buf, sizeof(buf),
		     "skua: out of memory allocating %zu bytes for %s; aborting (check ulimit -v "
		     "and the system's free memory)\n",
		     size, mt && mt->name ? mt->name : "(unknown type)");
	if (n > 0) {
		ssize_t SKUA_UNUSED r = write(STDERR_FILENO, buf, MIN((size_t)n, sizeof(buf) - 1));
	}
	abort();
}

void *mem_malloc(struct mtype *mt, size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		mem_oom(mt, size);
	mem_account_alloc(mt, p);
	return p;
}

void *mem_calloc(struct mtype *mt, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		mem_oom(mt, size);
	mem_account_alloc(mt, p);
	return p;
}

void *mem_realloc(struct mtype *mt, void *ptr, size_t size)
{
	size_t old;
	void *p;

	if (!ptr)
		return mem_malloc(mt, size);
	old = malloc_usable_size(ptr);
	p = realloc(ptr, size ? size : 1);
	if (!p)
		mem_oom(mt, size);
	/* Same allocation, new size: adjust bytes only. */
	__atomic_sub_fetch(&mt->bytes, old, __ATOMIC_RELAXED);
	__atomic_add_fetch(&mt->bytes, malloc_usable_size(p), __ATOMIC_RELAXED);
	return p;
}

char *mem_strdup(struct mtype *mt, const char *s)
{
	size_t len = strlen(s);
	char *p = mem_malloc(mt, len + 1);

	memcpy(p, s, len + 1);
	return p;
}

char *mem_strndup(struct mtype *mt, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = mem_malloc(mt, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void mem_free(struct mtype *mt, void *ptr)
{
	if (!ptr)
		return;
	mem_account_free(mt, malloc_usable_size(ptr));
	free(ptr);
}

void mem_walk(mem_walk_cb cb, void *arg)
{
	struct mtype *mt;

	/* Types are never unregistered, so the list can be walked without holding the lock. */
	for (mt = __atomic_load_n(&mtype_head, __ATOMIC_ACQUIRE); mt;
	     mt = __atomic_load_n(&mt->next, __ATOMIC_ACQUIRE))
		cb(mt, arg);
}

uint64_t mem_total_bytes(void)
{
	const struct mtype *mt;
	uint64_t sum = 0;

	for (mt = mtype_head; mt; mt = mt->next)
		sum += __atomic_load_n(&mt->bytes, __ATOMIC_RELAXED);
	return sum;
}

uint64_t mem_total_allocated(void)
{
	const struct mtype *mt;
	uint64_t sum = 0;

	for (mt = mtype_head; mt; mt = mt->next)
		sum += __atomic_load_n(&mt->allocated, __ATOMIC_RELAXED);
	return sum;
}
