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

static int line_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, "\n"), ny = strcspn(y, "\n");
	int c = memcmp(x, y, nx < ny ? nx : ny);

	return c ? c : (nx > ny) - (nx < ny);
}

void sbuf_sort_lines_from(struct sbuf *sb, size_t from)
{
	size_t n = 0, len, k = 0;
	const char **lines;
	char *copy;

	if (!sb->buf || from >= sb->len)
		return;
	len = sb->len - from;
	for (size_t i = from; i < sb->len; i++)
		n += sb->buf[i] == '\n';
	n += sb->buf[sb->len - 1] != '\n'; /* lines, not line ends */
	if (n < 2)
		return;
	copy = XMALLOC(MTYPE_SBUF, len + 1);
	memcpy(copy, sb->buf + from, len);
	copy[len] = '\0';
	lines = XMALLOC(MTYPE_SBUF, (n + 1) * sizeof(*lines));
	for (char *p = copy; *p;) {
		char *nl = strchr(p, '\n');

		lines[k++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	qsort(lines, k, sizeof(*lines), line_cmp);
	sb->len = from;
	sb->buf[from] = '\0';
	for (size_t i = 0; i < k; i++) {
		size_t l = strcspn(lines[i], "\n");

		sbuf_put(sb, lines[i], l);
		sbuf_put(sb, "\n", 1); /* an unterminated last line gets its end, not a neighbour */
	}
	XFREE(MTYPE_SBUF, lines);
	XFREE(MTYPE_SBUF, copy);
}
