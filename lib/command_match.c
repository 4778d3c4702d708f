/* SPDX-License-Identifier: ISC */
/*
 * Matching a line against a node's token graph.
 *
 * A depth-first walk follows every path of the graph that accepts the words one by one.
 * Keywords accept a prefix (partial) or the whole keyword (exact); typed tokens accept only a
 * complete valid value when a line is executed, and also a value still being typed when the
 * last word of a `?` is examined. Among the paths that take every word and reach a command's
 * end, the best wins, compared word by word from the left (FRR's rule):
 *     exact keyword > partial keyword > typed token (A.B.C.D, (1-10), ...) > WORD / LINE...
 * Two different commands that tie are ambiguous.
 */
#include "lib/compat.h"

#include <ctype.h>
#include <netinet/in.h>

#include "lib/command_private.h"
#include "lib/prefix.h"

DEFINE_MTYPE(CMD_MATCH, "Command match");

/* ---- words ---------------------------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void cmd_words_split(struct cmd_words *words, const char *line)
{
	size_t len = strlen(line), cap = 8;
	char *p;

	memset(words, 0, sizeof(*words));
	words->buf = XSTRDUP(MTYPE_CMD_MATCH, line);
	words->w = XMALLOC(MTYPE_CMD_MATCH, cap * sizeof(*words->w));
	words->off = XMALLOC(MTYPE_CMD_MATCH, cap * sizeof(*words->off));
	words->trailing_space = len == 0 || is_blank(line[len - 1]);
	p = words->buf;
	for (;;) {
		while (*p && is_blank(*p))
			p++;
		if (!*p)
			break;
		if ((size_t)words->n == cap) {
			cap *= 2;
			words->w = XREALLOC(MTYPE_CMD_MATCH, words->w, cap * sizeof(*words->w));
			words->off =
				XREALLOC(MTYPE_CMD_MATCH, words->off, cap * sizeof(*words->off));
		}
		words->w[words->n] = p;
		words->off[words->n] = (size_t)(p - words->buf);
		words->n++;
		while (*p && !is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

void cmd_words_free(struct cmd_words *words)
{
	XFREE(MTYPE_CMD_MATCH, words->buf);
	XFREE(MTYPE_CMD_MATCH, words->w);
	XFREE(MTYPE_CMD_MATCH, words->off);
	words->n = 0;
}

/* ---- one token against one word --------------------------------------------------------- */

/* Decimal digits only, no sign, no overflow. */
static bool word_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0)
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

/*
 * Dotted quad syntax: returns EXACT for four octets 0..255, PARTIAL for the beginning of one
 * ("10.0.", "192.168"), NONE otherwise. The library parser has the last word on EXACT.
 */
static enum cmd_match_level v4_syntax(const char *s, size_t n)
{
	unsigned dots = 0, digits = 0, octet = 0;

	if (n == 0)
		return CMD_MATCH_NONE;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (digits == 0 || ++dots > 3)
				return CMD_MATCH_NONE;
			digits = octet = 0;
		} else if (isdigit((unsigned char)s[i])) {
			octet = octet * 10 + (unsigned)(s[i] - '0');
			if (++digits > 3 || octet > 255)
				return CMD_MATCH_NONE;
		} else {
			return CMD_MATCH_NONE;
		}
	}
	return dots == 3 && digits > 0 ? CMD_MATCH_EXACT : CMD_MATCH_PARTIAL;
}

static enum cmd_match_level match_ipv4(const char *w)
{
	enum cmd_match_level lvl = v4_syntax(w, strlen(w));
	struct ipaddr a;

	if (lvl == CMD_MATCH_EXACT && (ipaddr_from_str(&a, w) != 0 || a.family != AF_INET))
		return CMD_MATCH_NONE;
	return lvl;
}

/*
 * Could the text still become an IPv6 address? Hex groups of at most four digits, at most
 * eight of them and one "::", and a dotted quad only as the tail after a colon.
 */
static bool v6_syntax(const char *s, size_t n)
{
	unsigned groups = 0, glen = 0, dcolons = 0;
	const char *dot = memchr(s, '.', n), *lastcolon = NULL;

	if (n == 0 || n > INET6_ADDRSTRLEN - 1)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ':')
			lastcolon = s + i;
	if (dot) {
		if (!lastcolon || lastcolon > dot)
			return false;
		if (v4_syntax(lastcolon + 1, (size_t)(s + n - lastcolon - 1)) == CMD_MATCH_NONE)
			return false;
		n = (size_t)(lastcolon - s) + 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ':') {
			if (i + 1 < n && s[i + 1] == ':') {
				if (++dcolons > 1 || (i + 2 < n && s[i + 2] == ':'))
					return false;
			}
			if (glen)
				groups++;
			glen = 0;
		} else if (isxdigit((unsigned char)s[i])) {
			if (++glen > 4)
				return false;
		} else {
			return false;
		}
	}
	return groups + (glen ? 1 : 0) <= 8;
}

static enum cmd_match_level match_ipv6(const char *w)
{
	struct ipaddr a;

	if (!v6_syntax(w, strlen(w)))
		return CMD_MATCH_NONE;
	if (ipaddr_from_str(&a, w) == 0 && a.family == AF_INET6)
		return CMD_MATCH_EXACT;
	return CMD_MATCH_PARTIAL;
}

/* "addr/len": the prefix length is 1-3 digits not above maxlen. */
static enum cmd_match_level match_prefix(const char *w, int family)
{
	const char *slash = strchr(w, '/');
	size_t alen = slash ? (size_t)(slash - w) : strlen(w);
	unsigned maxlen = family == AF_INET ? 32 : 128;
	char addr[INET6_ADDRSTRLEN];
	enum cmd_match_level al;
	struct prefix p;
	uint64_t len;

	if (alen == 0 || alen >= sizeof(addr))
		return CMD_MATCH_NONE;
	memcpy(addr, w, alen);
	addr[alen] = '\0';
	al = family == AF_INET ? match_ipv4(addr) : match_ipv6(addr);
	if (al == CMD_MATCH_NONE)
		return CMD_MATCH_NONE;
	if (!slash)
		return CMD_MATCH_PARTIAL;
	if (al != CMD_MATCH_EXACT)
		return CMD_MATCH_NONE;
	if (slash[1] == '\0')
		return CMD_MATCH_PARTIAL;
	if (strlen(slash + 1) > 3 || !word_u64(slash + 1, strlen(slash + 1), &len) || len > maxlen)
		return CMD_MATCH_NONE;
	if (prefix_from_str(&p, w, false) != 0 || p.family != family)
		return CMD_MATCH_NONE;
	return CMD_MATCH_EXACT;
}

/* In range: EXACT. Below it but more digits could get there ("1" for (5-15)): PARTIAL. */
static enum cmd_match_level match_range(const struct cmd_gnode *tok, const char *w)
{
	uint64_t v, lo, hi;

	if (!word_u64(w, strlen(w), &v))
		return CMD_MATCH_NONE;
	if (v >= tok->min && v <= tok->max)
		return CMD_MATCH_EXACT;
	if (v == 0 || v > tok->max)
		return CMD_MATCH_NONE;
	lo = hi = v;
	for (int k = 0; k < 20; k++) {
		if (lo > UINT64_MAX / 10)
			break;
		lo *= 10;
		hi = hi > (UINT64_MAX - 9) / 10 ? UINT64_MAX : hi * 10 + 9;
		if (lo > tok->max)
			break;
		if (hi >= tok->min)
			return CMD_MATCH_PARTIAL;
	}
	return CMD_MATCH_NONE;
}

/* AS number: plain 1..4294967295, or asdot "x.y" with x, y in 0..65535 (RFC 5396). */
static enum cmd_match_level match_asnum(const char *w)
{
	const char *dot = strchr(w, '.');
	uint64_t hi, lo;

	if (!dot) {
		if (!word_u64(w, strlen(w), &lo) || lo == 0 || lo > UINT32_MAX)
			return CMD_MATCH_NONE;
		return CMD_MATCH_EXACT;
	}
	if (!word_u64(w, (size_t)(dot - w), &hi) || hi > UINT16_MAX)
		return CMD_MATCH_NONE;
	if (dot[1] == '\0')
		return CMD_MATCH_PARTIAL;
	if (!word_u64(dot + 1, strlen(dot + 1), &lo) || lo > UINT16_MAX || (hi == 0 && lo == 0))
		return CMD_MATCH_NONE;
	return CMD_MATCH_EXACT;
}

enum cmd_match_level cmd_token_match(const struct cmd_gnode *tok, const char *w)
{
	size_t n;

	switch (tok->type) {
	case CMD_TOK_KEYWORD:
		n = strlen(w);
		if (n == 0 || strncmp(tok->text, w, n) != 0)
			return CMD_MATCH_NONE;
		return tok->text[n] ? CMD_MATCH_PARTIAL : CMD_MATCH_EXACT;
	case CMD_TOK_WORD:
	case CMD_TOK_LINE:
		return CMD_MATCH_EXACT;
	case CMD_TOK_IPV4:
		return match_ipv4(w);
	case CMD_TOK_IPV4_PREFIX:
		return match_prefix(w, AF_INET);
	case CMD_TOK_IPV6:
		return match_ipv6(w);
	case CMD_TOK_IPV6_PREFIX:
		return match_prefix(w, AF_INET6);
	case CMD_TOK_RANGE:
		return match_range(tok, w);
	case CMD_TOK_ASNUM:
		return match_asnum(w);
	default:
		return CMD_MATCH_NONE;
	}
}

/* ---- walking the graph ------------------------------------------------------------------ */

struct match_walk {
	const struct cmd_words *words;
	int n;			       /* words to take */
	const struct cmd_gnode **path; /* path[i]: the token that took word i */
	/* FORK/JOIN nodes passed since the last word was taken: stops empty loops */
	const struct cmd_gnode **eps;
	size_t neps, capeps, epsbase;
	int reached; /* most words any path took */
	bool incomplete;
	/* executing */
	const struct cmd_gnode *best;
	const struct cmd_gnode **bestpath;
	bool tie;
	/* listing what may come next */
	cmd_next_cb cb;
	void *cbarg;
	int npaths;
	bool listing, survey;  /* survey: the first pass, finding the best keyword vector */
	char *kwvec, *bestvec; /* per word: 0 a keyword abbreviation, 1 anything else */
	bool have_best;
};

/* How well a word was taken, for ranking complete matches. */
static int word_score(const struct cmd_gnode *tok, const char *w)
{
	switch (tok->type) {
	case CMD_TOK_KEYWORD:
		return strcmp(tok->text, w) == 0 ? 4 : 3;
	case CMD_TOK_WORD:
	case CMD_TOK_LINE:
		return 1;
	default:
		return 2;
	}
}

static int path_cmp(const struct match_walk *mw, const struct cmd_gnode **a,
		    const struct cmd_gnode **b)
{
	for (int i = 0; i < mw->n; i++) {
		int sa = word_score(a[i], mw->words->w[i]), sb = word_score(b[i], mw->words->w[i]);

		if (sa != sb)
			return sa > sb ? 1 : -1;
	}
	return 0;
}

static void record_end(struct match_walk *mw, const struct cmd_gnode *end)
{
	int c;

	if (!mw->best) {
		mw->best = end;
		memcpy(mw->bestpath, mw->path, (size_t)mw->n * sizeof(*mw->path));
		return;
	}
	c = path_cmp(mw, mw->path, mw->bestpath);
	if (c > 0) {
		mw->best = end;
		mw->tie = false;
		memcpy(mw->bestpath, mw->path, (size_t)mw->n * sizeof(*mw->path));
	} else if (c == 0 && end != mw->best) {
		mw->tie = true;
	}
}

static bool on_path(const struct match_walk *mw, const struct cmd_gnode *tok, int upto)
{
	for (int i = 0; i < upto; i++)
		if (mw->path[i] == tok)
			return true;
	return false;
}

static bool eps_seen(const struct match_walk *mw, const struct cmd_gnode *gn)
{
	for (size_t i = mw->epsbase; i < mw->neps; i++)
		if (mw->eps[i] == gn)
			return true;
	return false;
}

static void eps_push(struct match_walk *mw, const struct cmd_gnode *gn)
{
	if (mw->neps == mw->capeps) {
		mw->capeps = mw->capeps ? mw->capeps * 2 : 16;
		mw->eps = XREALLOC(MTYPE_CMD_MATCH, mw->eps, mw->capeps * sizeof(*mw->eps));
	}
	mw->eps[mw->neps++] = gn;
}

static void walk(struct match_walk *mw, const struct cmd_gnode *g, int i);

/*
 * Listing what may follow: where one path took a word as the whole keyword and another only
 * as an abbreviation, the abbreviation loses (FRR: "arg ipv4 1.2.?" does not list what
 * "arg ipv4m" would take). Paths are ranked by their per-word vectors (1 = exact keyword or
 * not a keyword, 0 = abbreviation), left to right; only the best vector is listed.
 */
static void kw_vector(const struct match_walk *mw, char *vec)
{
	for (int i = 0; i < mw->n; i++)
		vec[i] = !(mw->path[i]->type == CMD_TOK_KEYWORD &&
			   strcmp(mw->path[i]->text, mw->words->w[i]) != 0);
}

/* At a frontier: false when this path is not to be listed. */
static bool frontier_keep(struct match_walk *mw)
{
	kw_vector(mw, mw->kwvec);
	if (mw->survey) {
		if (!mw->have_best || memcmp(mw->kwvec, mw->bestvec, (size_t)mw->n) > 0) {
			memcpy(mw->bestvec, mw->kwvec, (size_t)mw->n);
			mw->have_best = true;
		}
		return false;
	}
	return memcmp(mw->kwvec, mw->bestvec, (size_t)mw->n) == 0;
}

/* tok took the words up to j: go on from it with a fresh empty-loop guard. */
static void took(struct match_walk *mw, const struct cmd_gnode *tok, int j)
{
	size_t base = mw->epsbase;

	if (j > mw->reached)
		mw->reached = j;
	if (mw->listing && j == mw->n) {
		if (!frontier_keep(mw))
			return;
		mw->npaths++;
		if (tok->type == CMD_TOK_LINE && !tok->hidden)
			mw->cb(tok, mw->cbarg); /* LINE... takes more words */
	}
	mw->epsbase = mw->neps;
	walk(mw, tok, j);
	mw->neps = mw->epsbase;
	mw->epsbase = base;
}

static void walk(struct match_walk *mw, const struct cmd_gnode *g, int i)
{
	for (unsigned k = 0; k < g->nnext; k++) {
		const struct cmd_gnode *s = g->next[k];
		enum cmd_match_level lvl;

		if (s->type == CMD_TOK_END) {
			if (i < mw->n)
				continue;
			if (mw->cb)
				mw->cb(s, mw->cbarg);
			else
				record_end(mw, s);
			continue;
		}
		if (s->type == CMD_TOK_FORK || s->type == CMD_TOK_JOIN) {
			if (eps_seen(mw, s))
				continue;
			eps_push(mw, s);
			walk(mw, s, i);
			mw->neps--;
			continue;
		}
		if (!cmd_tok_is_token(s->type) || on_path(mw, s, i))
			continue;
		if (i == mw->n) {
			mw->incomplete = true;
			if (mw->cb && !s->hidden)
				mw->cb(s, mw->cbarg);
			continue;
		}
		if (s->type == CMD_TOK_LINE) {
			for (int j = i; j < mw->n; j++)
				mw->path[j] = s;
			took(mw, s, mw->n);
			continue;
		}
		lvl = cmd_token_match(s, mw->words->w[i]);
		if (lvl == CMD_MATCH_NONE ||
		    (lvl == CMD_MATCH_PARTIAL && s->type != CMD_TOK_KEYWORD))
			continue;
		mw->path[i] = s;
		took(mw, s, i + 1);
	}
}

static void walk_init(struct match_walk *mw, const struct cmd_words *words, int n)
{
	memset(mw, 0, sizeof(*mw));
	mw->words = words;
	mw->n = n;
	mw->path = XCALLOC(MTYPE_CMD_MATCH, ((size_t)n + 1) * sizeof(*mw->path));
}

void cmd_match_line(const struct cmd_graph *g, const struct cmd_words *words,
		    struct cmd_match_result *res)
{
	struct match_walk mw;

	memset(res, 0, sizeof(*res));
	res->fail_word = -1;
	walk_init(&mw, words, words->n);
	mw.bestpath = XCALLOC(MTYPE_CMD_MATCH, ((size_t)words->n + 1) * sizeof(*mw.bestpath));
	if (g)
		walk(&mw, g->start, 0);
	if (mw.best) {
		res->status = mw.tie ? CMD_ERR_AMBIGUOUS : CMD_SUCCESS;
		res->end = mw.best;
		res->path = mw.bestpath;
		mw.bestpath = NULL;
	} else if (mw.incomplete) {
		res->status = CMD_ERR_INCOMPLETE;
	} else {
		res->status = CMD_ERR_NO_MATCH;
		if (mw.reached < words->n)
			res->fail_word = mw.reached;
	}
	XFREE(MTYPE_CMD_MATCH, mw.bestpath);
	XFREE(MTYPE_CMD_MATCH, mw.path);
	XFREE(MTYPE_CMD_MATCH, mw.eps);
}

void cmd_match_result_free(struct cmd_match_result *res)
{
	XFREE(MTYPE_CMD_MATCH, res->path);
	res->end = NULL;
}

int cmd_match_next(const struct cmd_graph *g, const struct cmd_words *words, int nwords,
		   cmd_next_cb cb, void *arg)
{
	struct match_walk mw;
	int npaths;

	if (!g)
		return 0;
	walk_init(&mw, words, nwords);
	mw.cb = cb;
	mw.cbarg = arg;
	mw.listing = true;
	mw.kwvec = XCALLOC(MTYPE_CMD_MATCH, (size_t)nwords + 1);
	mw.bestvec = XCALLOC(MTYPE_CMD_MATCH, (size_t)nwords + 1);
	if (nwords == 0) {
		mw.npaths = 1;
	} else {
		mw.survey = true;
		walk(&mw, g->start, 0);
		mw.survey = false;
	}
	if (nwords == 0 || mw.have_best)
		walk(&mw, g->start, 0);
	npaths = mw.npaths;
	XFREE(MTYPE_CMD_MATCH, mw.kwvec);
	XFREE(MTYPE_CMD_MATCH, mw.bestvec);
	XFREE(MTYPE_CMD_MATCH, mw.path);
	XFREE(MTYPE_CMD_MATCH, mw.eps);
	return npaths;
}
