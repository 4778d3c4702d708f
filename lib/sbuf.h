/* SPDX-License-Identifier: ISC */
/* A growable text buffer: what show commands write into before it goes to the vty. */
#ifndef SKUA_SBUF_H
#define SKUA_SBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "lib/memory.h"

DECLARE_MTYPE(SBUF); /* defined in lib/sbuf.c; sbuf_steal() hands out this type */

struct sbuf {
	char *buf;  /* always NUL-terminated when non-NULL */
	size_t len; /* bytes used, excluding the NUL */
	size_t cap;
};

void sbuf_init(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
void sbuf_put(struct sbuf *sb, const char *s, size_t n);
void sbuf_puts(struct sbuf *sb, const char *s);
void sbuf_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Sort the lines written since offset from in byte order, each then ending in '\n', as FRR's
 * vtysh prints the lines inside some blocks (a route-map entry's). */
void sbuf_sort_lines_from(struct sbuf *sb, size_t from);
/* Take ownership of the text (caller frees with MTYPE_SBUF); the sbuf is left empty. */
char *sbuf_steal(struct sbuf *sb);

#endif /* SKUA_SBUF_H */
