/* SPDX-License-Identifier: ISC */
/*
 * bgp_blaster's "internet" table shape (--shape internet): which prefix goes out i-th, how
 * many prefixes share an attribute set and how long each set's AS path is, so that a
 * synthetic table has the proportions of today's full tables rather than a million /24s in
 * sets of 100. Everything is a pure function of (table size, seed, index): the same command
 * line sends the same table, and a second feeder with the same seed sends the same prefixes.
 */
#ifndef SKUA_BENCH_BLASTER_SHAPE_H
#define SKUA_BENCH_BLASTER_SHAPE_H

#include <stdint.h>

#include "lib/prefix.h"

#define SHAPE_MAX_LENS 32

/* The prefix lengths of one family and, for each, where its prefixes start in the table. */
struct shape {
	int family;
	uint64_t n;    /* prefixes in the table */
	uint64_t seed; /* mixes the lengths across the table and the per-set variations */
	uint64_t mul;  /* index -> slot permutation multiplier, coprime to n */
	unsigned nlens;
	uint8_t len[SHAPE_MAX_LENS];
	uint64_t first[SHAPE_MAX_LENS + 1]; /* slots of len[k]: first[k] .. first[k+1] - 1 */
};

/* Shape of n prefixes of family (AF_INET or AF_INET6) for seed. 0, or -1 with why filled
 * when the table does not fit the address range the shape uses. */
int shape_init(struct shape *s, int family, uint64_t n, uint64_t seed, char *why, size_t size);
/* The idx-th prefix of the table, 0 <= idx < n; all n are distinct. */
void shape_prefix(const struct shape *s, uint64_t idx, struct prefix *p);
/* The attribute set of the i-th prefix sent: consecutive prefixes, 2 or 3 per set. */
uint64_t shape_set_of(uint64_t seed, uint64_t i);
/* AS-path length (ASes, the sender's own included) of attribute set `set`: 1 to 10. */
unsigned shape_path_len(uint64_t seed, uint64_t set);

#endif /* SKUA_BENCH_BLASTER_SHAPE_H */
