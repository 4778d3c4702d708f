/* SPDX-License-Identifier: ISC */
/*
 * bgp_blaster internals shared by its files: the set of prefixes a sink currently holds, so
 * that "received" means announced and not withdrawn since, counting each prefix once however
 * often it is re-announced (implicit withdraw, RFC 4271 3.1).
 */
#ifndef SKUA_BENCH_BLASTER_H
#define SKUA_BENCH_BLASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/prefix.h"

/* Open addressing with linear probing and backward-shift deletion (no tombstones, so a table
 * churned by announce/withdraw cycles keeps its probe lengths). */
struct pset_slot {
	uint64_t hi, lo; /* address bytes 0-7 and 8-15 */
	uint32_t meta;	 /* 0 = empty; else 1 << 16 | family << 8 | length */
};

struct pset {
	struct pset_slot *slot;
	size_t mask; /* capacity - 1 (a power of two) */
	size_t count;
};

/* Sized for about `expected` prefixes; grows as needed (allocation failure aborts). */
void pset_init(struct pset *s, size_t expected);
void pset_free(struct pset *s);
/* true when the prefix was not in the set (it is now). */
bool pset_add(struct pset *s, const struct prefix *p);
/* true when the prefix was in the set (it is not any more). */
bool pset_del(struct pset *s, const struct prefix *p);

#endif /* SKUA_BENCH_BLASTER_H */
