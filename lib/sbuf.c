/* SPDX-License-Identifier: ISC */
/* Growable NUL-terminated text buffer (show output, JSON). */
#include "lib/compat.h"

#include "lib/core_mtypes.h"
#include "lib/sbuf.h"

DEFINE_MTYPE(SBUF, "Text buffer");

#define SBUF_MIN_CAP 256

void sbuf_init(struct sbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sbuf_free(struct sbuf *sb)
{
	XFREE(MTYPE_SBUF, sb->buf);
	sb->len = 0;
	sb->cap = 0;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* Make room for n more bytes plus the NUL. Doubling keeps appends amortised O(1). */
static void sbuf_reserve(struct sbuf *sb, size_t n)
{
	size_t need = sb->len + n + 1, cap;

	if (need < sb->len) /* overflow: no sane caller gets here */
		abort();
	if (need <= sb->cap)
		return;
	cap = sb->cap ? sb->cap : SBUF_MIN_CAP;
	while (cap < need)
		cap = cap * 2 > cap ? cap * 2 : need;
	sb->buf = XREALLOC(MTYPE_SBUF, sb->buf, cap);
	sb->cap = cap;
}

void sbuf_put(struct sbuf *sb, const char *s, size_t n)
{
	sbuf_reserve(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_puts(struct sbuf *sb, const char *s)
{
	sbuf_put(sb, s, strlen(s));
}

void sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	/* Try in the room we have; on overflow grow to the exact size and format again. */
	sbuf_reserve(sb, 0);
	va_copy(aq, ap);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, aq);
	va_end(aq);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->cap - sb->len) {
		sbuf_reserve(sb, (size_t)n);
		va_copy(aq, ap);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, aq);
		va_end(aq);
	}
	sb->len += (size_t)n;
}

void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *sbuf_steal(struct sbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = XSTRDUP(MTYPE_SBUF, "");
	sbuf_init(sb);
	return s;
}
