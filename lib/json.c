/* SPDX-License-Identifier: ISC */
/*
 * Streaming JSON writer. The layout matches json-c's as FRR prints it
 * (JSON_C_TO_STRING_PRETTY): two spaces per level, "key":value with no space after the colon,
 * empty containers as {} and []. Compact output has no whitespace at all.
 *
 * Strings are escaped per RFC 8259 7; invalid UTF-8 (a peer's shutdown message, a hostname
 * capability) becomes U+FFFD so that the document always parses.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <math.h>

#include "lib/json.h"
#include "lib/log.h"

void json_init(struct json_writer *w, struct sbuf *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
	w->first[0] = true;
}

static void json_indent(struct json_writer *w, int depth)
{
	static const char spaces[] = "                                ";
	int n = depth * 2;

	while (n > 0) {
		int k = MIN(n, (int)sizeof(spaces) - 1);

		sbuf_put(w->out, spaces, (size_t)k);
		n -= k;
	}
}

/* Length of the valid UTF-8 sequence at s (RFC 3629 4), or 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80
			       ? 4
			       : 0;
	}
	return 0;
}

/* Each check above stops at the first byte that fails, so a NUL ends a sequence safely. */
static void json_put_string(struct sbuf *out, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str, *run = s;
	char esc[8];
	size_t n;

	sbuf_put(out, "\"", 1);
	while (*s) {
		unsigned char c = *s;
		const char *rep = NULL;

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			s++;
			continue;
		}
		if (c >= 0x80) {
			n = utf8_seq_len(s);
			if (n) {
				s += n;
				continue;
			}
			rep = "\\ufffd";
		} else {
			switch (c) {
			case '"':
				rep = "\\\"";
				break;
			case '\\':
				rep = "\\\\";
				break;
			case '\n':
				rep = "\\n";
				break;
			case '\r':
				rep = "\\r";
				break;
			case '\t':
				rep = "\\t";
				break;
			case '\b':
				rep = "\\b";
				break;
			case '\f':
				rep = "\\f";
				break;
			default:
				memcpy(esc, "\\u00", 4);
				esc[4] = hex[c >> 4];
				esc[5] = hex[c & 15];
				esc[6] = '\0';
				rep = esc;
				break;
			}
		}
		sbuf_put(out, (const char *)run, (size_t)(s - run));
		sbuf_puts(out, rep);
		s++;
		run = s;
	}
	sbuf_put(out, (const char *)run, (size_t)(s - run));
	sbuf_put(out, "\"", 1);
}

/*
 * Everything a member needs before its value: the comma, the newline and indentation, the key.
 * Returns false while inside a container that was too deep (its contents are dropped).
 */
static bool json_member(struct json_writer *w, const char *key)
{
	if (w->skip)
		return false;
	if (!w->first[w->depth])
		sbuf_put(w->out, ",", 1);
	if (w->pretty && w->depth > 0) {
		sbuf_put(w->out, "\n", 1);
		json_indent(w, w->depth);
	}
	w->first[w->depth] = false;
	/* A key only inside an object; a missing one there becomes "" to keep the output valid. */
	if (w->depth > 0 && w->closer[w->depth] == '}') {
		json_put_string(w->out, key ? key : "");
		sbuf_put(w->out, ":", 1);
	}
	return true;
}

static void json_open(struct json_writer *w, const char *key, char c)
{
	if (w->skip) {
		w->skip++;
		return;
	}
	if (w->depth + 1 >= JSON_MAX_DEPTH) {
		/* A bug in a show command, not input: keep the document valid, say so once. */
		if (json_member(w, key))
			sbuf_puts(w->out, "null");
		w->skip = 1;
		log_err("json: nesting deeper than %d levels; the inner part is replaced by null",
			JSON_MAX_DEPTH - 1);
		return;
	}
	json_member(w, key);
	sbuf_put(w->out, &c, 1);
	w->depth++;
	w->first[w->depth] = true;
	w->closer[w->depth] = c == '{' ? '}' : ']';
}

/* Closes the innermost container with its own bracket, whichever close the caller called. */
static void json_close(struct json_writer *w)
{
	char c;

	if (w->skip) {
		w->skip--;
		return;
	}
	if (w->depth == 0)
		return; /* unbalanced close: ignore rather than corrupt the output */
	c = w->closer[w->depth];
	if (w->pretty && !w->first[w->depth]) {
		sbuf_put(w->out, "\n", 1);
		json_indent(w, w->depth - 1);
	}
	sbuf_put(w->out, &c, 1);
	w->depth--;
}

void json_object_open(struct json_writer *w, const char *key)
{
	json_open(w, key, '{');
}

void json_object_close(struct json_writer *w)
{
	json_close(w);
}

void json_array_open(struct json_writer *w, const char *key)
{
	json_open(w, key, '[');
}

void json_array_close(struct json_writer *w)
{
	json_close(w);
}

void json_string(struct json_writer *w, const char *key, const char *val)
{
	if (!json_member(w, key))
		return;
	if (val)
		json_put_string(w->out, val);
	else
		sbuf_puts(w->out, "null");
}

void json_stringf(struct json_writer *w, const char *key, const char *fmt, ...)
{
	struct sbuf tmp;
	va_list ap;

	if (w->skip)
		return;
	sbuf_init(&tmp);
	va_start(ap, fmt);
	sbuf_vprintf(&tmp, fmt, ap);
	va_end(ap);
	json_string(w, key, tmp.buf ? tmp.buf : "");
	sbuf_free(&tmp);
}

void json_int(struct json_writer *w, const char *key, int64_t val)
{
	if (json_member(w, key))
		sbuf_printf(w->out, "%" PRId64, val);
}

void json_uint(struct json_writer *w, const char *key, uint64_t val)
{
	if (json_member(w, key))
		sbuf_printf(w->out, "%" PRIu64, val);
}

void json_double(struct json_writer *w, const char *key, double val)
{
	char buf[40];

	if (!json_member(w, key))
		return;
	if (!isfinite(val)) {
		sbuf_puts(w->out, "null"); /* JSON has no NaN or infinity */
		return;
	}
	/* json-c's form (FRR's): 17 significant digits, ".0" on a whole number. */
	snprintf(buf, sizeof(buf), "%.17g", val);
	sbuf_puts(w->out, buf);
	if (!strpbrk(buf, ".eE"))
		sbuf_puts(w->out, ".0");
}

void json_bool(struct json_writer *w, const char *key, bool val)
{
	if (json_member(w, key))
		sbuf_puts(w->out, val ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
	if (json_member(w, key))
		sbuf_puts(w->out, "null");
}

void json_end(struct json_writer *w)
{
	/* Close what the caller left open, so that even a buggy caller emits valid JSON. */
	w->skip = 0;
	while (w->depth > 0)
		json_close(w);
	sbuf_put(w->out, "\n", 1);
}
