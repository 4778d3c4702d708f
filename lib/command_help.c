/* SPDX-License-Identifier: ISC */
/*
 * `?` and TAB: what may come next on a line, from the same graph that executes it, so help
 * and completion never disagree with what the daemon accepts. Placeholders whose binding has
 * a value provider (FRR's variable completion: configured neighbors for $peer) also offer the
 * values they may take right now.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "lib/command_private.h"
#include "lib/sbuf.h"
#include "lib/vty.h"

#define VARNAME_MAX 32

/* A fixed table: registration allocates nothing, so it may happen before cmd_init() (a
 * constructor in the file that provides the values) and outlive cmd_terminate(). */
static struct {
	char varname[VARNAME_MAX];
	cmd_value_provider fn;
} providers[CMD_VALUE_PROVIDERS_MAX];

/* Values handed out by cmd_describe()/cmd_complete(): kept until the next call. */
struct str_pool {
	char **v;
	size_t n, cap;
};
static struct str_pool last_values;

int cmd_value_provider_set(const char *varname, cmd_value_provider fn)
{
	size_t i, free_slot = array_size(providers);

	if (!varname || !*varname || strlen(varname) >= VARNAME_MAX)
		return -1;
	for (i = 0; i < array_size(providers); i++) {
		if (strcmp(providers[i].varname, varname) == 0) {
			providers[i].fn = fn;
			if (!fn)
				providers[i].varname[0] = '\0';
			return 0;
		}
		if (!providers[i].varname[0] && free_slot == array_size(providers))
			free_slot = i;
	}
	if (!fn)
		return 0;
	if (free_slot == array_size(providers))
		return -1;
	snprintf(providers[free_slot].varname, VARNAME_MAX, "%s", varname);
	providers[free_slot].fn = fn;
	return 0;
}

static cmd_value_provider provider_of(const struct cmd_gnode *tok)
{
	if (!tok->varname || tok->type == CMD_TOK_KEYWORD)
		return NULL;
	for (size_t i = 0; i < array_size(providers); i++)
		if (providers[i].fn && strcmp(providers[i].varname, tok->varname) == 0)
			return providers[i].fn;
	return NULL;
}

static const char *pool_add(struct str_pool *p, const char *s, size_t n)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->v = XREALLOC(MTYPE_CMD_MATCH, p->v, p->cap * sizeof(*p->v));
	}
	p->v[p->n] = XSTRNDUP(MTYPE_CMD_MATCH, s, n);
	return p->v[p->n++];
}

static void pool_free(struct str_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		XFREE(MTYPE_CMD_MATCH, p->v[i]);
	XFREE(MTYPE_CMD_MATCH, p->v);
	p->n = p->cap = 0;
}

void cmd_help_terminate(void)
{
	pool_free(&last_values);
}

/*
 * FRR's shortcut: in a config node, "do <command>" is described and completed as the ENABLE
 * command it runs. Returns the part of the line after "do", or NULL.
 */
static const char *do_shortcut(const struct vty *vty, const char *line)
{
	struct cmd_words words;
	const char *rest = NULL;

	if (!cmd_node_is_config(vty->node))
		return NULL;
	cmd_words_split(&words, line);
	if (words.n >= 1 && strcmp(words.w[0], "do") == 0 && (words.n > 1 || words.trailing_space))
		rest = words.n > 1 ? line + words.off[1] : line + strlen(line);
	cmd_words_free(&words);
	return rest;
}

struct help_collect {
	struct vty *vty;
	const char *partial; /* the last word when it is being typed, else NULL */
	bool keywords_only;  /* TAB: keywords and provided values, no placeholders */
	struct cmd_help *v;
	int n, cap;
	struct str_pool values; /* strings made here (values, joined value lists) */
	/* Placeholders whose provider was asked already (the walk may report a token once per
	 * path that reaches it; a provider walks a list, once is enough). */
	const struct cmd_gnode **asked;
	size_t nasked, capasked;
};

/* True the first time tok is seen by this collection. */
static bool first_ask(struct help_collect *hc, const struct cmd_gnode *tok)
{
	for (size_t i = 0; i < hc->nasked; i++)
		if (hc->asked[i] == tok)
			return false;
	if (hc->nasked == hc->capasked) {
		hc->capasked = hc->capasked ? hc->capasked * 2 : 8;
		hc->asked = XREALLOC(MTYPE_CMD_MATCH, hc->asked, hc->capasked * sizeof(*hc->asked));
	}
	hc->asked[hc->nasked++] = tok;
	return true;
}

/* The entry for text, or NULL. */
static struct cmd_help *help_find(struct help_collect *hc, const char *text)
{
	for (int i = 0; i < hc->n; i++)
		if (strcmp(hc->v[i].token, text) == 0)
			return &hc->v[i];
	return NULL;
}

static struct cmd_help *help_add(struct help_collect *hc, const char *text, const char *help)
{
	if (hc->n == hc->cap) {
		hc->cap = hc->cap ? hc->cap * 2 : 16;
		hc->v = XREALLOC(MTYPE_CMD_MATCH, hc->v, (size_t)hc->cap * sizeof(*hc->v));
	}
	hc->v[hc->n] = (struct cmd_help){ .token = text, .help = help, .values = NULL };
	return &hc->v[hc->n++];
}

static bool is_address(const char *s)
{
	struct in6_addr a;

	return inet_pton(AF_INET, s, &a) == 1 || inet_pton(AF_INET6, s, &a) == 1;
}

struct values_walk {
	struct help_collect *hc;
	const struct cmd_gnode *tok;
	struct sbuf joined; /* `?`: the accepted values, space-separated */
};

static void value_cb(const char *value, void *arg)
{
	struct values_walk *vw = arg;
	struct help_collect *hc = vw->hc;

	/* One word the placeholder takes as it is, and that continues what is typed. */
	if (!value || !*value || strpbrk(value, " \t\r\n") ||
	    cmd_token_match(vw->tok, value) != CMD_MATCH_EXACT)
		return;
	/* WORD takes anything: an address a provider offers belongs under A.B.C.D or X:X::X:X
	 * (`neighbor <A.B.C.D|X:X::X:X|WORD>$peer` lists groups under WORD, not addresses). */
	if (vw->tok->type == CMD_TOK_WORD && is_address(value))
		return;
	if (hc->partial && strncmp(value, hc->partial, strlen(hc->partial)) != 0)
		return;
	if (hc->keywords_only) {
		if (!help_find(hc, value))
			help_add(hc, pool_add(&hc->values, value, strlen(value)), "");
		return;
	}
	if (vw->joined.len)
		sbuf_puts(&vw->joined, " ");
	sbuf_puts(&vw->joined, value);
}

/* Ask the token's provider; TAB gets entries, `?` a values line for entry. */
static void values_collect(struct help_collect *hc, const struct cmd_gnode *tok,
			   struct cmd_help *entry)
{
	cmd_value_provider fn = provider_of(tok);
	struct values_walk vw = { .hc = hc, .tok = tok };

	if (!fn || !first_ask(hc, tok))
		return;
	sbuf_init(&vw.joined);
	fn(hc->vty, value_cb, &vw);
	if (entry && vw.joined.len)
		entry->values = pool_add(&hc->values, vw.joined.buf, vw.joined.len);
	sbuf_free(&vw.joined);
}

static void help_collect_cb(const struct cmd_gnode *tok, void *arg)
{
	struct help_collect *hc = arg;
	struct cmd_help *entry;
	const char *text, *help;

	if (tok->type == CMD_TOK_END) {
		if (hc->partial || hc->keywords_only)
			return;
		text = "<cr>";
		help = "";
	} else {
		if (tok->hidden)
			return;
		if (hc->keywords_only && tok->type != CMD_TOK_KEYWORD) {
			values_collect(hc, tok, NULL);
			return;
		}
		if (hc->partial && cmd_token_match(tok, hc->partial) == CMD_MATCH_NONE)
			return;
		text = tok->text;
		help = tok->help ? tok->help : "";
	}
	entry = help_find(hc, text);
	if (entry) {
		/* The same placeholder on another path may be the one with a provider. */
		if (!entry->values && !hc->keywords_only && tok->type != CMD_TOK_END)
			values_collect(hc, tok, entry);
		return;
	}
	entry = help_add(hc, text, help);
	if (!hc->keywords_only && tok->type != CMD_TOK_END)
		values_collect(hc, tok, entry);
}

/* FRR's order: <cr> first, then by strcmp of the token text. */
static int help_cmp(const void *a, const void *b)
{
	const struct cmd_help *x = a, *y = b;
	bool xcr = strcmp(x->token, "<cr>") == 0, ycr = strcmp(y->token, "<cr>") == 0;

	if (xcr != ycr)
		return xcr ? -1 : 1;
	return strcmp(x->token, y->token);
}

/* Collect the candidates for the line; returns the count or -CMD_ERR_NO_MATCH. */
static int collect(struct vty *vty, const char *line, struct help_collect *hc)
{
	enum node_type node = vty->node;
	const char *rest = do_shortcut(vty, line);
	struct cmd_words words;
	int nwords, npaths;

	hc->vty = vty;
	if (rest) {
		node = ENABLE_NODE;
		line = rest;
	}
	cmd_words_split(&words, line);
	nwords = words.n;
	if (!words.trailing_space) {
		nwords--;
		hc->partial = words.w[nwords];
	}
	npaths = cmd_match_next(cmd_node_graph(node), &words, nwords, help_collect_cb, hc);
	hc->partial = NULL;
	cmd_words_free(&words);
	if (npaths == 0 || (hc->n == 0 && !hc->keywords_only))
		return -CMD_ERR_NO_MATCH;
	if (hc->n > 1)
		qsort(hc->v, (size_t)hc->n, sizeof(*hc->v), help_cmp);
	return hc->n;
}

static void collect_free(struct help_collect *hc)
{
	XFREE(MTYPE_CMD_MATCH, hc->v);
	XFREE(MTYPE_CMD_MATCH, hc->asked);
	pool_free(&hc->values);
}

/* The strings handed out stay until the next call: the collection's pool becomes the kept
 * one. */
static void keep_values(struct help_collect *hc)
{
	pool_free(&last_values);
	last_values = hc->values;
	memset(&hc->values, 0, sizeof(hc->values));
}

int cmd_describe(struct vty *vty, const char *line, struct cmd_help *out, int max)
{
	struct help_collect hc = { 0 };
	int n = collect(vty, line ? line : "", &hc);

	for (int i = 0; i < n && i < max; i++)
		out[i] = hc.v[i];
	keep_values(&hc);
	collect_free(&hc);
	return n;
}

int cmd_complete(struct vty *vty, const char *line, char **out, int max)
{
	struct help_collect hc = { .keywords_only = true };
	int n = collect(vty, line ? line : "", &hc);

	/* The texts live in the graph or the kept pool (const only by the type of cmd_help). */
	for (int i = 0; i < n && i < max; i++)
		out[i] = (char *)(uintptr_t)hc.v[i].token;
	keep_values(&hc);
	collect_free(&hc);
	return n;
}

#define VALUES_INDENT 5
#define VALUES_WIDTH 79

/* A placeholder's values under its help line, folded to the terminal's usual width. */
static void print_values(struct vty *vty, const char *values)
{
	size_t col = 0;

	while (*values) {
		size_t n = strcspn(values, " ");

		if (col && col + 1 + n > VALUES_WIDTH) {
			vty_out(vty, "\n");
			col = 0;
		}
		if (!col) {
			vty_out(vty, "%*s", VALUES_INDENT, "");
			col = VALUES_INDENT;
		} else {
			vty_out(vty, " ");
			col++;
		}
		vty_out(vty, "%.*s", (int)n, values);
		col += n;
		values += n;
		values += strspn(values, " ");
	}
	if (col)
		vty_out(vty, "\n");
}

int cmd_describe_print(struct vty *vty, const char *line)
{
	struct help_collect hc = { 0 };
	int n = collect(vty, line ? line : "", &hc), width = 0;

	if (n < 0) {
		collect_free(&hc);
		vty_out(vty, "%% There is no matched command.\n");
		return -n;
	}
	for (int i = 0; i < n; i++)
		width = MAX(width, (int)strlen(hc.v[i].token));
	for (int i = 0; i < n; i++) {
		if (hc.v[i].help[0])
			vty_out(vty, "  %-*s  %s\n", width, hc.v[i].token, hc.v[i].help);
		else
			vty_out(vty, "  %s\n", hc.v[i].token);
		if (hc.v[i].values)
			print_values(vty, hc.v[i].values);
	}
	collect_free(&hc);
	return CMD_SUCCESS;
}

int cmd_complete_print(struct vty *vty, const char *line)
{
	struct help_collect hc = { .keywords_only = true };
	int n = collect(vty, line ? line : "", &hc);

	if (n < 0) {
		collect_free(&hc);
		return -n;
	}
	for (int i = 0; i < n; i++)
		vty_out(vty, "%s\n", hc.v[i].token);
	collect_free(&hc);
	return CMD_SUCCESS;
}
