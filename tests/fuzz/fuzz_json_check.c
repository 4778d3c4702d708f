/* SPDX-License-Identifier: ISC */
/*
 * A strict JSON syntax check (RFC 8259): the show commands' JSON must parse whatever the
 * routes they print carry (attributes from the wire, names from the configuration). A
 * recursive descent over the text; nesting is bounded so that a deep document cannot
 * exhaust the stack.
 */
#include "lib/compat.h"

#include <ctype.h>

#include "tests/fuzz/fuzz_json_check.h"

#define MAX_DEPTH 256

static const char *value(const char *p, int depth);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20) /* a control character, or the end of the text */
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *digits(const char *p)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

static const char *number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = digits(p)))
		return NULL;
	if (*p == '.' && !(p = digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = digits(p);
	}
	return p;
}

static const char *container(const char *p, char close, bool object, int depth)
{
	if (depth > MAX_DEPTH)
		return NULL;
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			if (!(p = string(ws(p))))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = value(p, depth + 1)))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *value(const char *p, int depth)
{
	p = ws(p);
	switch (*p) {
	case '{':
		return container(p, '}', true, depth);
	case '[':
		return container(p, ']', false, depth);
	case '"':
		return string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return number(p);
	}
}

bool fuzz_json_valid(const char *text)
{
	const char *end = value(text, 0);

	return end && *ws(end) == '\0';
}
