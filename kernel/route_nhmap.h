/* SPDX-License-Identifier: ISC */
/*
 * Which nexthop object each installed route refers to (private to kernel/): the installer
 * must know a route's previous object when the route changes or goes, to release it.
 * A compact open-addressing table per family, no allocation per route: 8 bytes a slot for
 * IPv4 (address, length, a 24-bit value), 20 for IPv6.
 */
#ifndef SKUA_KERNEL_ROUTE_NHMAP_H
#define SKUA_KERNEL_ROUTE_NHMAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/prefix.h"

#define NHMAP_VALUE_MAX 0xffffffu /* values are 1..NHMAP_VALUE_MAX; 0 means "none" */

struct nhmap;

struct nhmap *nhmap_new(int family);
void nhmap_free(struct nhmap *m);
/* Map p to value (1..NHMAP_VALUE_MAX); returns p's previous value, 0 when it had none. */
uint32_t nhmap_set(struct nhmap *m, const struct prefix *p, uint32_t value);
/* Forget p; returns its value, 0 when it had none. */
uint32_t nhmap_del(struct nhmap *m, const struct prefix *p);
uint32_t nhmap_get(const struct nhmap *m, const struct prefix *p);
/* Start fetching p's slot into the cache, for a nhmap_set() or nhmap_del() a little later:
 * each is one cache miss in a table of a million routes, and a few can overlap. */
void nhmap_prefetch(const struct nhmap *m, const struct prefix *p);
size_t nhmap_count(const struct nhmap *m);
size_t nhmap_memory(const struct nhmap *m);

#endif /* SKUA_KERNEL_ROUTE_NHMAP_H */
