/* SPDX-License-Identifier: ISC */
/* A name-sorted array of objects (see lib/name_index.h). */
#include "lib/compat.h"

#include <string.h>

#include "lib/name_index.h"

static const char *name_of(const struct name_index *x, const void *item)
{
	return *(char *const *)((const char *)item + x->name_off);
}

uint32_t name_index_search(const struct name_index *x, const char *name, bool *found)
{
	uint32_t lo = 0, hi = x->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name_of(x, x->v[mid]), name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

void *name_index_find(const struct name_index *x, const char *name)
{
	bool found;
	uint32_t i = name_index_search(x, name, &found);

	return found ? x->v[i] : NULL;
}

void name_index_insert_at(struct name_index *x, uint32_t i, void *item)
{
	if (x->n == x->alloc) {
		x->alloc = x->alloc ? x->alloc * 2 : 8;
		x->v = XREALLOC(x->mtype, x->v, x->alloc * sizeof(*x->v));
	}
	memmove(&x->v[i + 1], &x->v[i], (x->n - i) * sizeof(*x->v));
	x->v[i] = item;
	x->n++;
}

void *name_index_remove_at(struct name_index *x, uint32_t i)
{
	void *item = x->v[i];

	memmove(&x->v[i], &x->v[i + 1], (x->n - i - 1) * sizeof(*x->v));
	x->n--;
	return item;
}

void name_index_clear(struct name_index *x)
{
	XFREE(x->mtype, x->v);
	x->n = x->alloc = 0;
}
