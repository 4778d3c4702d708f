/* SPDX-License-Identifier: ISC */
/*
 * Giving freed memory back to the system. glibc keeps what a process frees for its next
 * allocations and returns only the top of the heap: after a burst (peers flapping, a full
 * table withdrawn) a daemon can hold megabytes it no longer uses, scattered below live
 * blocks, for the rest of its life. A timer looks at the allocator's free space now and then
 * and, when a good part of the heap is free, asks glibc to return those pages (malloc_trim).
 */
#ifndef SKUA_MEM_TRIM_H
#define SKUA_MEM_TRIM_H

#include <stdbool.h>
#include <stddef.h>

struct event_base;

#define MEM_TRIM_INTERVAL_MS 5000
#define MEM_TRIM_MIN_FREE (4u << 20) /* and at least a quarter of the heap */

void mem_trim_start(struct event_base *base);
void mem_trim_stop(void);
/* Trim now if that much more of the heap is free than at the last trim; returns the free
 * bytes seen when it trimmed, 0 when there was too little to bother (or the allocator is not
 * glibc's). */
size_t mem_trim_check(void);

#endif /* SKUA_MEM_TRIM_H */
