/* SPDX-License-Identifier: ISC */
/*
 * Memory accounting by type (FRR's MTYPE idea). Every allocation names its type so that
 * `show memory` can say who holds what, and a test can flap a session and compare counters.
 * Allocation failure aborts with a message: a routing daemon that cannot allocate cannot
 * continue safely, and checking every call site would hide real errors in noise.
 */
#ifndef SKUA_MEMORY_H
#define SKUA_MEMORY_H

#include <stddef.h>
#include <stdint.h>

struct mtype {
	const char *name;
	uint64_t allocated; /* live allocations */
	uint64_t bytes;	    /* live bytes, as malloc_usable_size() reports them */
	uint64_t total;	    /* allocations ever made */
	struct mtype *next; /* registry link, set on first use */
};

/* Declare in a header, define in exactly one .c file. */
#define DECLARE_MTYPE(n) extern struct mtype MTYPE_##n[1]
#define DEFINE_MTYPE(n, desc) struct mtype MTYPE_##n[1] = { { .name = desc } }

void *mem_malloc(struct mtype *mt, size_t size);
void *mem_calloc(struct mtype *mt, size_t size);
void *mem_realloc(struct mtype *mt, void *ptr, size_t size);
char *mem_strdup(struct mtype *mt, const char *s);
char *mem_strndup(struct mtype *mt, const char *s, size_t n);
void mem_free(struct mtype *mt, void *ptr);

#define XMALLOC(mt, sz) mem_malloc((mt), (sz))
#define XCALLOC(mt, sz) mem_calloc((mt), (sz))
#define XREALLOC(mt, p, sz) mem_realloc((mt), (p), (sz))
#define XSTRDUP(mt, s) mem_strdup((mt), (s))
#define XSTRNDUP(mt, s, n) mem_strndup((mt), (s), (n))
/* Frees and sets the pointer to NULL, so a second free is harmless and a use is obvious. */
#define XFREE(mt, p)                 \
	do {                         \
		mem_free((mt), (p)); \
		(p) = NULL;          \
	} while (0)

/* Walk every type that has ever been used, in registration order. */
typedef void (*mem_walk_cb)(const struct mtype *mt, void *arg);
void mem_walk(mem_walk_cb cb, void *arg);

/* Totals over all types (for `show memory` and tests). */
uint64_t mem_total_bytes(void);
uint64_t mem_total_allocated(void);

#endif /* SKUA_MEMORY_H */
