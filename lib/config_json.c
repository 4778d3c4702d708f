/* SPDX-License-Identifier: ISC */
/*
 * JSON configuration files: libyang's JSON encoding of the models (RFC 7951), what
 * `show running-config json` prints. libyang parses and type-checks; errors are turned into
 * "FILE:LINE: message".
 *
 * Line numbers: libyang gives one for what it finds while parsing, but for a bad value it
 * has already read on to the next token, and whole-tree validation (a must, a duplicate, a
 * missing mandatory node) knows only the data path. So both are pinned by looking the data
 * path up in the text: each step of the path is a member name ("neighbors"), a list entry is
 * found by its key member ("remote-address": "10.0.0.1"). What is not found that way keeps
 * libyang's line (syntax errors, unknown members).
 */
#include "lib/compat.h"

#include <ctype.h>

#include "lib/memory.h"
#include "lib/northbound.h"
#include "lib/northbound_private.h"
#include "lib/yang.h"

#define JSON_MAX_SIZE (64u << 20) /* a configuration, not a RIB dump */

static bool has_json_extension(const char *path)
{
	size_t n = strlen(path);

	return n >= 5 && !strcasecmp(path + n - 5, ".json");
}

bool nb_config_is_json(const char *path)
{
	FILE *f;
	int c;

	if (has_json_extension(path))
		return true;
	f = fopen(path, "r");
	if (!f)
		return false;
	/* A CLI file never starts with '{' (no command does); JSON always does. */
	while ((c = getc(f)) != EOF && isspace(c))
		;
	fclose(f);
	return c == '{';
}

char *nb_file_read(const char *path, size_t *len, struct sbuf *errors)
{
	FILE *f = fopen(path, "r");
	struct sbuf sb;
	char buf[8192];
	size_t n;

	if (!f) {
		sbuf_printf(errors, "%s: cannot open the configuration file: %s\n", path,
			    strerror(errno));
		return NULL;
	}
	sbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (sb.len + n > JSON_MAX_SIZE) {
			sbuf_printf(errors, "%s: the file is larger than %u MiB; not loaded\n",
				    path, JSON_MAX_SIZE >> 20);
			sbuf_free(&sb);
			fclose(f);
			return NULL;
		}
		sbuf_put(&sb, buf, n);
	}
	if (ferror(f)) {
		sbuf_printf(errors, "%s: cannot read the configuration file: %s\n", path,
			    strerror(errno));
		sbuf_free(&sb);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = sb.len;
	return sb.buf ? sbuf_steal(&sb) : XSTRDUP(MTYPE_SBUF, "");
}

/* ---- data path -> line ---------------------------------------------------------------- */

static unsigned line_of(const char *text, const char *pos)
{
	unsigned line = 1;

	for (const char *p = text; p < pos; p++)
		if (*p == '\n')
			line++;
	return line;
}

static const char *skip_space(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

/* The next member called name (`"name":` or `"module:name":`) at or after from; NULL. */
static const char *find_member(const char *from, const char *name, size_t nlen)
{
	for (const char *p = from; (p = strstr(p, name)) != NULL; p++) {
		const char *after = p + nlen;

		if (p == from || (p[-1] != '"' && p[-1] != ':'))
			continue;
		if (p[-1] == ':') {
			/* "module:name": the module part must start right after a quote. */
			const char *q = p - 1;

			while (q > from && (isalnum((unsigned char)q[-1]) || q[-1] == '-' ||
					    q[-1] == '_' || q[-1] == '.'))
				q--;
			if (q == from || q[-1] != '"')
				continue;
		}
		if (*after != '"')
			continue;
		after = skip_space(after + 1);
		if (*after == ':')
			return p;
	}
	return NULL;
}

/* After a member name at p: does its value equal val (a string or a bare number)? */
static bool member_value_is(const char *p, const char *val)
{
	size_t n = strlen(val);

	p = strchr(p, ':');
	if (!p)
		return false;
	p = skip_space(p + 1);
	if (*p == '"')
		return strncmp(p + 1, val, n) == 0 && p[1 + n] == '"';
	return strncmp(p, val, n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '.';
}

/*
 * Walk the data path through the text. Returns the position of the deepest step found
 * (NULL: not even the first). nth: for the last step, skip that many earlier occurrences
 * (a duplicate is the second one).
 */
static const char *locate(const char *text, const char *dpath, int nth)
{
	const char *pos = text, *found = NULL, *p = dpath;

	while (*p == '/') {
		char name[128], key[128], val[256];
		const char *step = ++p, *colon, *m;
		size_t nlen;
		bool last;

		while (*p && *p != '/' && *p != '[')
			p++;
		nlen = (size_t)(p - step);
		colon = memchr(step, ':', nlen);
		if (colon) {
			nlen -= (size_t)(colon + 1 - step);
			step = colon + 1;
		}
		if (nlen == 0 || nlen >= sizeof(name))
			return found;
		memcpy(name, step, nlen);
		name[nlen] = '\0';
		/* Predicates of this step: skip to the end of them to see if it is the last. */
		{
			const char *q = p;

			while (*q == '[') {
				const char *e = strchr(q, ']');

				if (!e)
					return found;
				q = e + 1;
			}
			last = *q == '\0';
		}
		m = find_member(pos, name, nlen);
		/* A duplicate leaf is the next member of that name; a duplicate list entry the
		 * next entry with the same key (below). */
		for (int i = 0; m && last && *p != '[' && i < nth; i++)
			m = find_member(m + 1, name, nlen);
		if (!m)
			return found;
		pos = found = m;
		/* [key='value']: the entry whose key member has that value. */
		while (*p == '[') {
			const char *eq = strchr(p, '='), *end;
			char quote;
			size_t klen, vlen;

			if (!eq)
				return found;
			klen = (size_t)(eq - p - 1);
			quote = eq[1];
			end = strchr(eq + 2, quote);
			if (!end || klen >= sizeof(key))
				return found;
			vlen = (size_t)(end - eq - 2);
			if (vlen >= sizeof(val))
				return found;
			memcpy(key, p + 1, klen);
			key[klen] = '\0';
			memcpy(val, eq + 2, vlen);
			val[vlen] = '\0';
			for (int i = last ? nth : 0; i >= 0; i--) {
				for (m = find_member(pos, key, klen); m && !member_value_is(m, val);
				     m = find_member(m + 1, key, klen))
					;
				if (!m)
					return found;
				if (i)
					pos = m + 1;
			}
			pos = found = m;
			p = end + 2; /* past quote and ']' */
		}
	}
	return found;
}

unsigned nb_json_line_of_path(const char *text, const char *dpath, bool duplicate)
{
	const char *pos;

	if (!text || !dpath || dpath[0] != '/')
		return 0;
	pos = locate(text, dpath, duplicate ? 1 : 0);
	return pos ? line_of(text, pos) : 0;
}

/* ---- parsing -------------------------------------------------------------------------- */

int nb_json_parse(const char *path, const char *text, struct lyd_node **tree, struct sbuf *errors)
{
	struct nb_error err;
	unsigned line;

	*tree = NULL;
	ly_err_clean(yang_ctx(), NULL);
	/* PARSE_ONLY: the whole-tree validation is the commit's (with its operator messages);
	 * STRICT: a member the model does not know is an error, not silently dropped. */
	if (lyd_parse_data_mem(yang_ctx(), text, LYD_JSON,
			       LYD_PARSE_ONLY | LYD_PARSE_NO_STATE | LYD_PARSE_STRICT, 0,
			       tree) == LY_SUCCESS)
		return 0;
	lyd_free_all(*tree);
	*tree = NULL;
	memset(&err, 0, sizeof(err));
	nb_error_from_ly(&err, "not a valid JSON configuration");
	line = err.line;
	/* A bad value: libyang's line is the token after it; the path names the leaf. */
	if (err.value_error && err.xpath[0]) {
		unsigned l = nb_json_line_of_path(text, err.xpath, false);

		if (l)
			line = l;
	}
	if (line)
		sbuf_printf(errors, "%s:%u: %s\n", path, line, err.msg);
	else
		sbuf_printf(errors, "%s: %s\n", path, err.msg);
	return -1;
}
