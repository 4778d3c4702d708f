/* SPDX-License-Identifier: ISC */
/* A strict JSON syntax check for the fuzz targets' show output (tests/fuzz/fuzz_json_check.c). */
#ifndef SKUA_FUZZ_JSON_CHECK_H
#define SKUA_FUZZ_JSON_CHECK_H

#include <stdbool.h>

/* Exactly one JSON value (RFC 8259 syntax), nothing but white space after it. */
bool fuzz_json_valid(const char *text);

#endif /* SKUA_FUZZ_JSON_CHECK_H */
