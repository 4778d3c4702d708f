/* SPDX-License-Identifier: ISC */
/*
 * libyang glue: one context, a deterministic module search path and data-node readers.
 */
#include "lib/compat.h"

#include <glob.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/yang.h"

#ifndef YANG_MODULES_DIR
#define YANG_MODULES_DIR "/usr/share/skua/yang"
#endif
#ifndef YANG_SRC_DIR
#define YANG_SRC_DIR "yang"
#endif

static struct ly_ctx *yang_context;

static bool is_dir(const char *path)
{
	struct stat st;

	return path && *path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The search path, in priority order; entries that are unset or missing are skipped. */
static int yang_search_dirs(const char *dirs[3])
{
	const char *cand[3] = { getenv("SKUA_YANG_DIR"), YANG_MODULES_DIR, YANG_SRC_DIR };
	int n = 0;

	for (int i = 0; i < 3; i++)
		if (is_dir(cand[i]))
			dirs[n++] = cand[i];
	return n;
}

int yang_init(void)
{
	const char *dirs[3];
	int n;

	if (yang_context)
		return 0;
	/* Errors are stored, not printed: the northbound turns them into operator messages. */
	ly_log_options(LY_LOSTORE);
	if (ly_ctx_new(NULL, LY_CTX_DISABLE_SEARCHDIR_CWD, &yang_context) != LY_SUCCESS) {
		fprintf(stderr, "skua: cannot create the libyang context\n");
		yang_context = NULL;
		return -1;
	}
	n = yang_search_dirs(dirs);
	for (int i = 0; i < n; i++)
		ly_ctx_set_searchdir(yang_context, dirs[i]);
	return 0;
}

void yang_terminate(void)
{
	if (!yang_context)
		return;
	ly_ctx_destroy(yang_context);
	yang_context = NULL;
}

struct ly_ctx *yang_ctx(void)
{
	return yang_context;
}

/* "<dir>/<name>.yang", else the newest "<dir>/<name>@REVISION.yang". */
static bool module_file_in(const char *dir, const char *name, char *buf, size_t size)
{
	char pattern[PATH_MAX];
	glob_t g;
	bool found = false;

	snprintf(buf, size, "%s/%s.yang", dir, name);
	if (access(buf, R_OK) == 0)
		return true;
	snprintf(pattern, sizeof(pattern), "%s/%s@*.yang", dir, name);
	if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		/* glob() sorts, and revisions are dates: the last one is the newest. */
		snprintf(buf, size, "%s", g.gl_pathv[g.gl_pathc - 1]);
		found = true;
	}
	globfree(&g);
	return found;
}

const struct lys_module *yang_module_load(const char *name, char *err, size_t errlen)
{
	const struct lys_module *mod;
	struct lys_module *parsed = NULL;
	const char *dirs[3];
	char file[PATH_MAX];
	int n;

	if (!yang_context && yang_init() < 0) {
		snprintf(err, errlen, "no libyang context");
		return NULL;
	}
	mod = ly_ctx_get_module_implemented(yang_context, name);
	if (mod)
		return mod;
	n = yang_search_dirs(dirs);
	for (int i = 0; i < n; i++) {
		if (!module_file_in(dirs[i], name, file, sizeof(file)))
			continue;
		ly_err_clean(yang_context, NULL);
		if (lys_parse_path(yang_context, file, LYS_IN_YANG, &parsed) != LY_SUCCESS) {
			const struct ly_err_item *e = ly_err_last(yang_context);

			snprintf(err, errlen, "%s: %s", file,
				 e && e->msg ? e->msg : "does not compile");
			ly_err_clean(yang_context, NULL);
			return NULL;
		}
		return parsed;
	}
	snprintf(err, errlen,
		 "YANG module %s not found (searched $SKUA_YANG_DIR, %s, %s; set SKUA_YANG_DIR "
		 "to the directory holding %s.yang)",
		 name, YANG_MODULES_DIR, YANG_SRC_DIR, name);
	return NULL;
}

static const struct lyd_node *dnode_vget(const struct lyd_node *dnode, const char *fmt, va_list ap)
{
	const struct lyd_node *found = NULL;
	struct ly_set *set = NULL;
	char xpath[1024];

	if (!dnode)
		return NULL;
	if (!fmt || !*fmt)
		return dnode;
	vsnprintf(xpath, sizeof(xpath), fmt, ap);
	if (lyd_find_xpath(dnode, xpath, &set) == LY_SUCCESS && set->count > 0)
		found = set->dnodes[0];
	ly_set_free(set, NULL);
	return found;
}

const struct lyd_node *yang_dnode_get(const struct lyd_node *dnode, const char *fmt, ...)
{
	const struct lyd_node *n;
	va_list ap;

	va_start(ap, fmt);
	n = dnode_vget(dnode, fmt, ap);
	va_end(ap);
	return n;
}

bool yang_dnode_exists(const struct lyd_node *dnode, const char *fmt, ...)
{
	const struct lyd_node *n;
	va_list ap;

	va_start(ap, fmt);
	n = dnode_vget(dnode, fmt, ap);
	va_end(ap);
	return n != NULL;
}

const char *yang_dnode_get_string(const struct lyd_node *dnode, const char *fmt, ...)
{
	const struct lyd_node *n;
	va_list ap;

	va_start(ap, fmt);
	n = dnode_vget(dnode, fmt, ap);
	va_end(ap);
	if (!n || !(n->schema->nodetype & LYD_NODE_TERM))
		return NULL;
	return lyd_get_value(n);
}

uint64_t yang_dnode_get_uint(const struct lyd_node *dnode, uint64_t dflt, const char *fmt, ...)
{
	const struct lyd_node *n;
	const char *v;
	va_list ap;

	va_start(ap, fmt);
	n = dnode_vget(dnode, fmt, ap);
	va_end(ap);
	if (!n || !(n->schema->nodetype & LYD_NODE_TERM) || !(v = lyd_get_value(n)))
		return dflt;
	/* The value was validated against its integer type: it parses. */
	return strtoull(v, NULL, 10);
}

bool yang_dnode_get_bool(const struct lyd_node *dnode, bool dflt, const char *fmt, ...)
{
	const struct lyd_node *n;
	const char *v;
	va_list ap;

	va_start(ap, fmt);
	n = dnode_vget(dnode, fmt, ap);
	va_end(ap);
	if (!n || !(n->schema->nodetype & LYD_NODE_TERM) || !(v = lyd_get_value(n)))
		return dflt;
	return strcmp(v, "true") == 0;
}

bool yang_dnode_is_default(const struct lyd_node *dnode)
{
	return dnode && (dnode->flags & LYD_DEFAULT);
}

const char *yang_dnode_path(const struct lyd_node *dnode, char *buf, size_t size)
{
	if (!size)
		return buf;
	buf[0] = '\0';
	if (dnode && !lyd_path(dnode, LYD_PATH_STD, buf, size))
		buf[0] = '\0';
	return buf;
}

const struct lyd_node *yang_dnode_ancestor(const struct lyd_node *dnode, const char *name)
{
	for (const struct lyd_node *n = dnode; n; n = lyd_parent(n))
		if (n->schema && strcmp(n->schema->name, name) == 0)
			return n;
	return NULL;
}

void yang_path_strip_predicates(const char *path, char *buf, size_t size)
{
	size_t o = 0;
	int depth = 0;
	char quote = 0;

	if (!size)
		return;
	for (const char *p = path; *p && o + 1 < size; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			continue;
		}
		if (depth && (*p == '\'' || *p == '"')) {
			quote = *p;
			continue;
		}
		if (*p == '[') {
			depth++;
			continue;
		}
		if (*p == ']') {
			if (depth)
				depth--;
			continue;
		}
		if (!depth)
			buf[o++] = *p;
	}
	buf[o] = '\0';
}

bool yang_path_key(const char *path, const char *name, char *buf, size_t size)
{
	size_t nlen = strlen(name);
	const char *p = path;

	while ((p = strchr(p, '[')) != NULL) {
		p++;
		if (strncmp(p, name, nlen) == 0 && p[nlen] == '=' &&
		    (p[nlen + 1] == '\'' || p[nlen + 1] == '"')) {
			char quote = p[nlen + 1];
			const char *v = p + nlen + 2, *end = strchr(v, quote);

			if (!end)
				return false;
			snprintf(buf, size, "%.*s", (int)(end - v), v);
			return true;
		}
	}
	return false;
}

bool yang_path_covers(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/' || b[n] == '[');
}
