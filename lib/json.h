/* SPDX-License-Identifier: ISC */
/*
 * A streaming JSON writer (no DOM): show commands emit keys and values in order and the writer
 * handles commas, escaping and nesting. Output is always one valid document when every open is
 * closed. Keys follow FRR's names (camelCase) so that FRR tooling and our tests read both.
 */
#ifndef SKUA_JSON_H
#define SKUA_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/sbuf.h"

#define JSON_MAX_DEPTH 32

struct json_writer {
	struct sbuf *out;
	int depth;
	bool first[JSON_MAX_DEPTH];  /* no member written yet at this depth */
	bool pretty;		     /* indent like FRR's json_object_to_json_string_ext(PRETTY) */
	char closer[JSON_MAX_DEPTH]; /* '}' or ']' for each open container (json_end closes them) */
	int skip;		     /* containers opened beyond JSON_MAX_DEPTH (dropped) */
};

void json_init(struct json_writer *w, struct sbuf *out, bool pretty);

/* key is NULL inside arrays and for the top-level value. */
void json_object_open(struct json_writer *w, const char *key);
void json_object_close(struct json_writer *w);
void json_array_open(struct json_writer *w, const char *key);
void json_array_close(struct json_writer *w);
void json_string(struct json_writer *w, const char *key, const char *val); /* NULL -> null */
void json_stringf(struct json_writer *w, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void json_int(struct json_writer *w, const char *key, int64_t val);
void json_uint(struct json_writer *w, const char *key, uint64_t val);
/* A number with a fraction, as FRR's json-c writes it ("26.666666666666668", "144.0"). */
void json_double(struct json_writer *w, const char *key, double val);
void json_bool(struct json_writer *w, const char *key, bool val);
void json_null(struct json_writer *w, const char *key);
/* Finish: adds the trailing newline. */
void json_end(struct json_writer *w);

#endif /* SKUA_JSON_H */
