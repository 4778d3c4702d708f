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

size_t mem_trim_check(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();

	if (mi.fordblks < MEM_TRIM_MIN_FREE || mi.fordblks < mi.arena / 4)
		return 0;
	malloc_trim(0);
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
