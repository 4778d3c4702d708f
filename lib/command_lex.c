/* SPDX-License-Identifier: ISC */
/*
 * Grammar strings -> token subgraphs (see lib/command.h for the token language).
 *
 *   seq  := item+                   item := atom ['$' name]
 *   atom := TOKEN | '<' alts '>' | '[' alts ']' | '{' alts '}'
 *   alts := seq ('|' seq)*
 *
 * Help lines are handed to the tokens in the order they are written. Anything malformed is a
 * programming error: the caller prints the message (with a caret under the spot) and aborts.
 */
#include "lib/compat.h"

#include <ctype.h>
#include <inttypes.h>

#include "lib/command_private.h"

struct cmd_parser {
	const char *s;
	size_t pos;
	struct cmd_gnode_list *nodes;
	const char *help; /* the help lines not handed out yet */
	bool hidden;
	int depth;
	bool failed;
	size_t err_pos;
	char msg[160];
};

struct cmd_frag {
	struct cmd_gnode *in, *out;
};

static void SKUA_PRINTF(2, 3) parse_fail(struct cmd_parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	p->err_pos = p->pos;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
}

static bool is_special(char c)
{
	return c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '|' ||
	       c == '$' || c == '(' || c == ')';
}

static void skip_space(struct cmd_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n')
		p->pos++;
}

/* Give the next help line to a token; a missing line is an error in the definition. */
static const char *take_help(struct cmd_parser *p, const char *text)
{
	const char *nl, *h;

	if (!p->help || !*p->help) {
		parse_fail(p, "no help line left for token '%s' (one line per token)", text);
		return NULL;
	}
	nl = strchr(p->help, '\n');
	if (nl) {
		h = cmd_intern(p->help, (size_t)(nl - p->help));
		p->help = nl + 1;
	} else {
		h = cmd_intern(p->help, strlen(p->help));
		p->help += strlen(p->help);
	}
	return h;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (!isdigit((unsigned char)s[i]))
			return false;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* "(lo-hi)" with both bounds unsigned 64-bit decimals and lo <= hi. */
static bool parse_range(const char *t, uint64_t *lo, uint64_t *hi)
{
	size_t len = strlen(t);
	const char *dash;

	if (len < 5 || t[0] != '(' || t[len - 1] != ')')
		return false;
	dash = strchr(t + 1, '-');
	if (!dash)
		return false;
	if (!parse_u64(t + 1, (size_t)(dash - t - 1), lo))
		return false;
	if (!parse_u64(dash + 1, (size_t)(t + len - 1 - dash - 1), hi))
		return false;
	return *lo <= *hi;
}

static bool placeholder_chars_ok(const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)t[i]) && !isdigit((unsigned char)t[i]) && t[i] != '_' &&
		    t[i] != '-')
			return false;
	return true;
}

static enum cmd_tok_type classify(struct cmd_parser *p, const char *t, uint64_t *lo, uint64_t *hi)
{
	size_t len = strlen(t);

	if (!strcmp(t, "A.B.C.D"))
		return CMD_TOK_IPV4;
	if (!strcmp(t, "A.B.C.D/M"))
		return CMD_TOK_IPV4_PREFIX;
	if (!strcmp(t, "X:X::X:X"))
		return CMD_TOK_IPV6;
	if (!strcmp(t, "X:X::X:X/M"))
		return CMD_TOK_IPV6_PREFIX;
	if (!strcmp(t, "ASNUM"))
		return CMD_TOK_ASNUM;
	if (t[0] == '(') {
		if (!parse_range(t, lo, hi))
			parse_fail(p, "bad range '%s' (want (lo-hi), unsigned decimals, lo <= hi)",
				   t);
		return CMD_TOK_RANGE;
	}
	if (isupper((unsigned char)t[0])) {
		if (len > 3 && !strcmp(t + len - 3, "...") && placeholder_chars_ok(t, len - 3))
			return CMD_TOK_LINE;
		if (!placeholder_chars_ok(t, len))
			parse_fail(p, "'%s': a placeholder is all upper case (WORD, NAME, LINE...)",
				   t);
		return CMD_TOK_WORD;
	}
	return CMD_TOK_KEYWORD;
}

static void parse_alts(struct cmd_parser *p, char closer, struct cmd_frag *f);

static void parse_token(struct cmd_parser *p, struct cmd_frag *f)
{
	size_t start = p->pos;
	struct cmd_gnode *gn;
	enum cmd_tok_type type;
	uint64_t lo = 0, hi = 0;
	char *text;

	if (p->s[p->pos] == '(') {
		const char *close = strchr(p->s + p->pos, ')');

		if (!close) {
			parse_fail(p, "range without ')'");
			return;
		}
		p->pos = (size_t)(close - p->s) + 1;
	} else {
		while (p->s[p->pos] && !is_special(p->s[p->pos]) &&
		       !isspace((unsigned char)p->s[p->pos]))
			p->pos++;
	}
	if (p->pos == start) {
		parse_fail(p, "unexpected '%c'", p->s[p->pos] ? p->s[p->pos] : '?');
		return;
	}
	text = XSTRNDUP(MTYPE_CMD_TOKEN, p->s + start, p->pos - start);
	p->pos = start; /* report errors at the token */
	type = classify(p, text, &lo, &hi);
	p->pos = start + strlen(text);
	if (p->failed) {
		XFREE(MTYPE_CMD_TOKEN, text);
		return;
	}
	gn = cmd_gnode_new(p->nodes, type);
	gn->text = cmd_intern(text, strlen(text));
	XFREE(MTYPE_CMD_TOKEN, text);
	gn->min = lo;
	gn->max = hi;
	gn->hidden = p->hidden;
	gn->help = take_help(p, gn->text);
	f->in = f->out = gn;
}

static void parse_binding(struct cmd_parser *p, size_t first_node)
{
	size_t start;
	char *name;

	p->pos++; /* '$' */
	start = p->pos;
	while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_' || p->s[p->pos] == '-')
		p->pos++;
	if (p->pos == start) {
		parse_fail(p, "'$' must be followed by a name");
		return;
	}
	name = XSTRNDUP(MTYPE_CMD_TOKEN, p->s + start, p->pos - start);
	/* The name binds every token of the atom that has no name of its own. */
	for (size_t i = first_node; i < p->nodes->n; i++) {
		struct cmd_gnode *gn = p->nodes->v[i];

		if (cmd_tok_is_token(gn->type) && !gn->varname)
			gn->varname = cmd_intern(name, strlen(name));
	}
	XFREE(MTYPE_CMD_TOKEN, name);
}

static void parse_item(struct cmd_parser *p, struct cmd_frag *f)
{
	size_t first_node = p->nodes->n;
	char c = p->s[p->pos];

	if (c == '<' || c == '[' || c == '{') {
		char closer = c == '<' ? '>' : c == '[' ? ']' : '}';
		struct cmd_gnode *fork, *join;
		size_t open = p->pos;

		if (++p->depth > 16) {
			parse_fail(p, "groups nested too deep");
			return;
		}
		p->pos++;
		fork = cmd_gnode_new(p->nodes, CMD_TOK_FORK);
		join = cmd_gnode_new(p->nodes, CMD_TOK_JOIN);
		f->in = fork;
		f->out = join;
		parse_alts(p, closer, f);
		if (p->failed)
			return;
		if (p->s[p->pos] != closer) {
			p->pos = open;
			parse_fail(p, "'%c' without its '%c'", c, closer);
			return;
		}
		p->pos++;
		p->depth--;
		if (c == '[')
			cmd_gnode_link(fork, join); /* optional: the empty way through */
		else if (c == '{')
			cmd_gnode_link(join, fork); /* once more, with another alternative */
		f->in = fork;
		f->out = join;
	} else {
		parse_token(p, f);
	}
	if (!p->failed && p->s[p->pos] == '$')
		parse_binding(p, first_node);
}

/* A sequence up to '|', the closer or the end; it may not be empty. */
static void parse_seq(struct cmd_parser *p, char closer, struct cmd_frag *f)
{
	struct cmd_frag item = { NULL, NULL };

	f->in = f->out = NULL;
	for (;;) {
		skip_space(p);
		if (p->failed || !p->s[p->pos] || p->s[p->pos] == '|' || p->s[p->pos] == closer)
			break;
		if (p->s[p->pos] == '>' || p->s[p->pos] == ']' || p->s[p->pos] == '}' ||
		    p->s[p->pos] == ')') {
			parse_fail(p, "unbalanced '%c'", p->s[p->pos]);
			return;
		}
		parse_item(p, &item);
		if (p->failed)
			return;
		if (!f->in)
			f->in = item.in;
		else
			cmd_gnode_link(f->out, item.in);
		f->out = item.out;
	}
	if (!p->failed && !f->in)
		parse_fail(p, "empty alternative or group");
}

/* The alternatives of a group: f->in is the group's FORK, f->out its JOIN. */
static void parse_alts(struct cmd_parser *p, char closer, struct cmd_frag *f)
{
	for (;;) {
		struct cmd_frag alt = { NULL, NULL };

		parse_seq(p, closer, &alt);
		if (p->failed)
			return;
		cmd_gnode_link(f->in, alt.in);
		cmd_gnode_link(alt.out, f->out);
		if (p->s[p->pos] != '|')
			return;
		p->pos++;
	}
}

/* LINE... takes the rest of the line, so no token may be reachable after it. */
static bool line_is_last(const struct cmd_gnode *gn, const struct cmd_gnode **seen, size_t *nseen,
			 size_t max)
{
	for (unsigned i = 0; i < gn->nnext; i++) {
		const struct cmd_gnode *s = gn->next[i];
		bool visited = false;

		if (cmd_tok_is_token(s->type))
			return false;
		for (size_t k = 0; k < *nseen; k++)
			visited = visited || seen[k] == s;
		if (visited || *nseen == max)
			continue;
		seen[(*nseen)++] = s;
		if (!line_is_last(s, seen, nseen, max))
			return false;
	}
	return true;
}

int cmd_grammar_parse(const struct cmd_def *def, struct cmd_gnode_list *nodes,
		      struct cmd_gnode **startp, char *err, size_t errlen)
{
	struct cmd_parser p = {
		.s = def->grammar ? def->grammar : "",
		.nodes = nodes,
		.help = def->help,
		.hidden = (def->flags & CMD_HIDDEN) != 0,
	};
	struct cmd_gnode *start, *end;
	struct cmd_frag body;

	start = cmd_gnode_new(nodes, CMD_TOK_START);
	parse_seq(&p, '\0', &body);
	if (!p.failed && p.s[p.pos])
		parse_fail(&p, "unbalanced '%c'", p.s[p.pos]);
	if (!p.failed && p.help && *p.help) {
		p.pos = strlen(p.s);
		parse_fail(&p, "more help lines than tokens (left over: \"%.40s\")", p.help);
	}
	if (!p.failed && !def->handler)
		parse_fail(&p, "no handler");
	if (!p.failed) {
		end = cmd_gnode_new(nodes, CMD_TOK_END);
		end->def = def;
		cmd_gnode_link(start, body.in);
		cmd_gnode_link(body.out, end);
		for (size_t i = 0; i < nodes->n && !p.failed; i++) {
			const struct cmd_gnode *seen[64];
			size_t nseen = 0;

			if (nodes->v[i]->type == CMD_TOK_LINE &&
			    !line_is_last(nodes->v[i], seen, &nseen, array_size(seen))) {
				p.pos = 0;
				parse_fail(&p, "'%s' must be the last token", nodes->v[i]->text);
			}
		}
	}
	if (p.failed) {
		snprintf(err, errlen, "%s\n  \"%s\"\n   %*s^", p.msg, p.s, (int)p.err_pos, "");
		return -1;
	}
	*startp = start;
	return 0;
}
