/* SPDX-License-Identifier: ISC */
/* Arrays of entries sorted by sequence number (see lib/seq_array.h). */
#include "lib/compat.h"

#include <string.h>

#include "lib/seq_array.h"

static uint32_t seq_of(const struct seq_array *a, size_t size, uint32_t i)
{
	uint32_t seq;

	memcpy(&seq, seq_array_at(a, size, i), sizeof(seq));
	return seq;
}

uint32_t seq_array_search(const struct seq_array *a, size_t size, uint32_t seq, bool *found)
{
	uint32_t lo = 0, hi = a->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, s = seq_of(a, size, mid);

		if (s == seq) {
			*found = true;
			return mid;
		}
		if (s < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

void *seq_array_open(struct seq_array *a, size_t size, uint32_t i, struct mtype *mt)
{
	if (a->n == a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 4;
		a->v = XREALLOC(mt, a->v, (size_t)a->alloc * size);
	}
	memmove(seq_array_at(a, size, i + 1), seq_array_at(a, size, i), (size_t)(a->n - i) * size);
	a->n++;
	return seq_array_at(a, size, i);
}

void seq_array_close(struct seq_array *a, size_t size, uint32_t i)
{
	memmove(seq_array_at(a, size, i), seq_array_at(a, size, i + 1),
		(size_t)(a->n - i - 1) * size);
	a->n--;
}
