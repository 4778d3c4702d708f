/* SPDX-License-Identifier: ISC */
/*
 * `show configuration ... changes`: what changed between two printed configurations, as
 * "+ line" / "- line", each under the block lines it belongs to ("router bgp 65001",
 * " address-family ipv6 unicast") so the change can be read without the whole file.
 *
 * The line diff is Myers' O((N+M)D) algorithm ("An O(ND) Difference Algorithm and Its
 * Variations", 1986). Separator lines ("!") are left out. Past NB_DIFF_MAX_D differing
 * lines the two texts are shown as all removed, all added: the exact edit script of two
 * unrelated configurations is not worth its memory.
 */
#include "lib/compat.h"

#include "lib/memory.h"
#include "lib/northbound_cli.h"

static DEFINE_MTYPE(NB_DIFF, "Configuration diff");

#define NB_DIFF_MAX_D 2000

struct line {
	const char *s;
	int len;
	int indent;
};

struct lines {
	struct line *v;
	int n, cap;
};

static void split(const char *text, struct lines *l)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		int indent = 0;

		while (indent < len && p[indent] == ' ')
			indent++;
		if (!(len - indent == 1 && p[indent] == '!')) {
			if (l->n == l->cap) {
				l->cap = l->cap ? l->cap * 2 : 64;
				l->v = XREALLOC(MTYPE_NB_DIFF, l->v,
						(size_t)l->cap * sizeof(*l->v));
			}
			l->v[l->n++] = (struct line){ p, len, indent };
		}
		p += nl ? len + 1 : len;
	}
}

static bool same(const struct line *a, const struct line *b)
{
	return a->len == b->len && memcmp(a->s, b->s, (size_t)a->len) == 0;
}

enum edit { ED_SAME, ED_DEL, ED_ADD };

struct script {
	enum edit *op;
	int *ia, *ib; /* line indexes in a and b */
	int n;
};

static void script_add(struct script *sc, enum edit op, int ia, int ib)
{
	sc->op[sc->n] = op;
	sc->ia[sc->n] = ia;
	sc->ib[sc->n] = ib;
	sc->n++;
}

/* Myers: the shortest edit script, built backwards from the saved frontiers. */
static bool myers(const struct lines *a, const struct lines *b, struct script *sc)
{
	int n = a->n, m = b->n, D = -1;
	int **trace = XCALLOC(MTYPE_NB_DIFF, (NB_DIFF_MAX_D + 1) * sizeof(*trace));
	int x, y;

	for (int d = 0; d <= n + m && d <= NB_DIFF_MAX_D && D < 0; d++) {
		int *cur = XCALLOC(MTYPE_NB_DIFF, (size_t)(2 * d + 1) * sizeof(int));
		const int *prev = d ? trace[d - 1] : NULL;

		trace[d] = cur;
		for (int k = -d; k <= d; k += 2) {
			if (d == 0)
				x = 0;
			else if (k == -d)
				x = prev[k + 1 + d - 1];
			else if (k == d)
				x = prev[k - 1 + d - 1] + 1;
			else
				x = prev[k - 1 + d - 1] < prev[k + 1 + d - 1]
					    ? prev[k + 1 + d - 1]
					    : prev[k - 1 + d - 1] + 1;
			y = x - k;
			while (x < n && y < m && same(&a->v[x], &b->v[y])) {
				x++;
				y++;
			}
			cur[k + d] = x;
			if (x >= n && y >= m) {
				D = d;
				break;
			}
		}
	}
	if (D >= 0) {
		x = n;
		y = m;
		for (int d = D; d > 0; d--) {
			const int *prev = trace[d - 1];
			int k = x - y;
			bool down =
				k == -d || (k != d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]);
			int pk = down ? k + 1 : k - 1, px = prev[pk + d - 1], py = px - pk;
			int xs = down ? px : px + 1;

			while (x > xs) {
				x--;
				y--;
				script_add(sc, ED_SAME, x, y);
			}
			if (down)
				script_add(sc, ED_ADD, -1, py);
			else
				script_add(sc, ED_DEL, px, -1);
			x = px;
			y = py;
		}
		while (x > 0) {
			x--;
			y--;
			script_add(sc, ED_SAME, x, y);
		}
		/* Built backwards. */
		for (int i = 0, j = sc->n - 1; i < j; i++, j--) {
			enum edit t = sc->op[i];
			int ta = sc->ia[i], tb = sc->ib[i];

			sc->op[i] = sc->op[j];
			sc->ia[i] = sc->ia[j];
			sc->ib[i] = sc->ib[j];
			sc->op[j] = t;
			sc->ia[j] = ta;
			sc->ib[j] = tb;
		}
	}
	for (int d = 0; d <= NB_DIFF_MAX_D; d++)
		XFREE(MTYPE_NB_DIFF, trace[d]);
	XFREE(MTYPE_NB_DIFF, trace);
	return D >= 0;
}

#define CTX_DEPTH 16

void nb_text_diff(struct sbuf *out, const char *from, const char *to)
{
	struct lines a = { 0 }, b = { 0 };
	struct script sc = { 0 };
	/* The enclosing block lines of the current position, by indentation, and whether
	 * they were printed already. */
	const struct line *ctx[CTX_DEPTH] = { 0 };
	bool printed[CTX_DEPTH] = { 0 };
	size_t cap;

	split(from, &a);
	split(to, &b);
	cap = (size_t)(a.n + b.n) + 1;
	sc.op = XCALLOC(MTYPE_NB_DIFF, cap * sizeof(*sc.op));
	sc.ia = XCALLOC(MTYPE_NB_DIFF, cap * sizeof(int));
	sc.ib = XCALLOC(MTYPE_NB_DIFF, cap * sizeof(int));
	if (!myers(&a, &b, &sc)) {
		sc.n = 0;
		for (int i = 0; i < a.n; i++)
			script_add(&sc, ED_DEL, i, -1);
		for (int i = 0; i < b.n; i++)
			script_add(&sc, ED_ADD, -1, i);
	}
	for (int i = 0; i < sc.n; i++) {
		const struct line *l = sc.op[i] == ED_ADD ? &b.v[sc.ib[i]] : &a.v[sc.ia[i]];
		int level = l->indent < CTX_DEPTH ? l->indent : CTX_DEPTH - 1;

		if (sc.op[i] != ED_SAME)
			for (int j = 0; j < level; j++)
				if (ctx[j] && !printed[j]) {
					sbuf_printf(out, "  %.*s\n", ctx[j]->len, ctx[j]->s);
					printed[j] = true;
				}
		if (sc.op[i] == ED_DEL)
			sbuf_printf(out, "- %.*s\n", l->len, l->s);
		else if (sc.op[i] == ED_ADD)
			sbuf_printf(out, "+ %.*s\n", l->len, l->s);
		/* This line now encloses what follows at deeper levels. */
		ctx[level] = l;
		printed[level] = sc.op[i] != ED_SAME;
		for (int j = level + 1; j < CTX_DEPTH; j++)
			ctx[j] = NULL;
	}
	XFREE(MTYPE_NB_DIFF, sc.op);
	XFREE(MTYPE_NB_DIFF, sc.ia);
	XFREE(MTYPE_NB_DIFF, sc.ib);
	XFREE(MTYPE_NB_DIFF, a.v);
	XFREE(MTYPE_NB_DIFF, b.v);
}
