/* SPDX-License-Identifier: ISC */
/*
 * See mem_trim.h. malloc_trim(0) walks the heap and releases every free page (madvise), not
 * only the top: its cost is a pass over the free chunks, paid only when there is much to gain.
 */
#include "lib/compat.h"

#include <malloc.h>

#include "lib/event.h"
#include "lib/log.h"
#include "lib/mem_trim.h"

static struct ev *trim_ev;
/*
 * Free bytes at the last trim. Pages given back still count as free in glibc's statistics, so
 * only what was freed since is worth another pass; the mark follows the free space down as
 * the heap is reused.
 */
static size_t trimmed_free;

size_t mem_trim_check(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();

	trimmed_free = MIN(trimmed_free, mi.fordblks);
	if (mi.fordblks - trimmed_free < MEM_TRIM_MIN_FREE || mi.fordblks < mi.arena / 4)
		return 0;
	malloc_trim(0);
	trimmed_free = mi.fordblks;
	log_debug("memory: %zu of %zu heap bytes were free: returned to the system", mi.fordblks,
		  mi.arena);
	return mi.fordblks;
#else
	return 0;
#endif
}

static void trim_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	mem_trim_check();
	event_timer_add(trim_ev, MEM_TRIM_INTERVAL_MS, 10);
}

void mem_trim_start(struct event_base *base)
{
	if (trim_ev)
		return;
	trim_ev = event_timer_new(base, trim_cb, NULL);
	if (trim_ev)
		event_timer_add(trim_ev, MEM_TRIM_INTERVAL_MS, 10);
}

void mem_trim_stop(void)
{
	event_free(trim_ev);
	trim_ev = NULL;
}
