/* SPDX-License-Identifier: ISC */
/*
 * Arrays of entries kept sorted by a uint32_t sequence number, the first member of each entry
 * (the entries of AS path and community lists): find the slot of a seq, open a slot, close
 * one. The caller owns the array and what its entries point to.
 */
#ifndef SKUA_SEQ_ARRAY_H
#define SKUA_SEQ_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

struct seq_array {
	void *v; /* n entries of `size` bytes, sorted by their first uint32_t */
	uint32_t n, alloc;
};

/* Index of seq, or of where it would go (*found says which). */
uint32_t seq_array_search(const struct seq_array *a, size_t size, uint32_t seq, bool *found);
/* Open slot i (the array grows by doubling, accounted as mt); returns it, uninitialised. */
void *seq_array_open(struct seq_array *a, size_t size, uint32_t i, struct mtype *mt);
/* Close slot i (its entry's own resources are the caller's to release first). */
void seq_array_close(struct seq_array *a, size_t size, uint32_t i);
static inline void *seq_array_at(const struct seq_array *a, size_t size, uint32_t i)
{
	return (char *)a->v + (size_t)i * size;
}

#endif /* SKUA_SEQ_ARRAY_H */
