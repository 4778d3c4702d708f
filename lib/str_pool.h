/* SPDX-License-Identifier: ISC */
/*
 * Interned strings: each distinct string stored once, packed into blocks without a malloc
 * header each, and handed out as a pointer that stays valid until the pool is freed. For
 * text that many records repeat and none changes: the command graph's token words and help
 * lines ("neighbor", "Specify a neighbor router" under hundreds of commands). Two interned
 * strings are equal exactly when their pointers are.
 */
#ifndef SKUA_STR_POOL_H
#define SKUA_STR_POOL_H

#include <stddef.h>

#include "lib/memory.h"

struct str_pool {
	struct mtype *mtype;  /* what the pool's memory is accounted as */
	char *block;	      /* the block being filled (its first word links the previous) */
	size_t used;	      /* bytes of it taken */
	const char **slots;   /* open addressing by hash: the interned strings */
	size_t nslots, count; /* nslots a power of two, at most 3/4 full */
};

#define STR_POOL_INIT(mt)     \
	{                     \
		.mtype = (mt) \
	}

/* The pool's copy of s[0..len) (len bytes, no NUL among them), NUL-terminated. */
const char *str_pool_intern(struct str_pool *p, const char *s, size_t len);
/* Distinct strings held. */
size_t str_pool_count(const struct str_pool *p);
/* Free every string of the pool (their pointers become invalid) and its table. */
void str_pool_free(struct str_pool *p);

#endif /* SKUA_STR_POOL_H */
