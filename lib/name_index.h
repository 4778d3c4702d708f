/* SPDX-License-Identifier: ISC */
/*
 * A name-sorted array of objects, for the named policy objects (prefix lists, community and
 * AS path lists, route-maps): lookups are a binary search, walks come out in name order (what
 * show and the running configuration print) without sorting. The objects stay the caller's;
 * the index only holds pointers. Each object's name is the `char *` at name_off.
 */
#ifndef SKUA_NAME_INDEX_H
#define SKUA_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

struct name_index {
	void **v; /* sorted by name */
	uint32_t n, alloc;
	size_t name_off;     /* offsetof(struct thing, name) */
	struct mtype *mtype; /* what the pointer array is accounted as */
};

#define NAME_INDEX_INIT(type, member, mt)                                                        \
	{                                                                                        \
		.v = NULL, .n = 0, .alloc = 0, .name_off = offsetof(type, member), .mtype = (mt) \
	}

/* Position of name, or where it would go; *found says which. */
uint32_t name_index_search(const struct name_index *x, const char *name, bool *found);
void *name_index_find(const struct name_index *x, const char *name);
/* Insert item at the position name_index_search() gave for its name. */
void name_index_insert_at(struct name_index *x, uint32_t i, void *item);
void *name_index_remove_at(struct name_index *x, uint32_t i);
/* Drop the array (the objects are the caller's to free first). */
void name_index_clear(struct name_index *x);

#endif /* SKUA_NAME_INDEX_H */
