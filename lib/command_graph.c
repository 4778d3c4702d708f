/* SPDX-License-Identifier: ISC */
/* Token graphs of the CLI nodes: allocation, edges, ownership and merging of commands. */
#include "lib/compat.h"

#include "lib/command_private.h"
#include "lib/str_pool.h"

DEFINE_MTYPE(CMD_TOKEN, "Command token");
DEFINE_MTYPE(CMD_GRAPH, "Command graph");
DEFINE_MTYPE(CMD_TEXT, "Command text");

/*
 * The nodes' strings. A daemon's commands repeat the same words and help lines hundreds of
 * times (each of ~4,500 nodes had its own three copies, most of the idle daemon's command
 * memory); the pool keeps one of each. It lives as long as any node does.
 */
static struct str_pool strings = STR_POOL_INIT(MTYPE_CMD_TEXT);
static size_t live_nodes;

const char *cmd_intern(const char *s, size_t len)
{
	return str_pool_intern(&strings, s, len);
}

static void gnode_list_add(struct cmd_gnode_list *list, struct cmd_gnode *gn)
{
	if (list->n == list->cap) {
		list->cap = list->cap ? list->cap * 2 : 16;
		list->v = XREALLOC(MTYPE_CMD_GRAPH, list->v, list->cap * sizeof(*list->v));
	}
	list->v[list->n++] = gn;
}

struct cmd_gnode *cmd_gnode_new(struct cmd_gnode_list *owner, enum cmd_tok_type type)
{
	struct cmd_gnode *gn = XCALLOC(MTYPE_CMD_TOKEN, sizeof(*gn));

	gn->type = type;
	live_nodes++;
	gnode_list_add(owner, gn);
	return gn;
}

void cmd_gnode_link(struct cmd_gnode *from, struct cmd_gnode *to)
{
	if (from->nnext == from->capnext) {
		from->capnext = from->capnext ? from->capnext * 2 : 2;
		from->next =
			XREALLOC(MTYPE_CMD_TOKEN, from->next, from->capnext * sizeof(*from->next));
	}
	from->next[from->nnext++] = to;
}

static void gnode_free(struct cmd_gnode *gn)
{
	XFREE(MTYPE_CMD_TOKEN, gn->next);
	XFREE(MTYPE_CMD_TOKEN, gn);
	if (--live_nodes == 0)
		str_pool_free(&strings);
}

void cmd_gnode_list_free(struct cmd_gnode_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		gnode_free(list->v[i]);
	XFREE(MTYPE_CMD_GRAPH, list->v);
	list->n = list->cap = 0;
}

struct cmd_graph *cmd_graph_new(void)
{
	struct cmd_graph *g = XCALLOC(MTYPE_CMD_GRAPH, sizeof(*g));

	g->start = cmd_gnode_new(&g->nodes, CMD_TOK_START);
	return g;
}

void cmd_graph_free(struct cmd_graph *g)
{
	if (!g)
		return;
	cmd_gnode_list_free(&g->nodes);
	XFREE(MTYPE_CMD_GRAPH, g->defs);
	XFREE(MTYPE_CMD_GRAPH, g);
}

/* Two tokens can share one graph node when nothing a user or a handler sees differs. */
static bool gnode_same_token(const struct cmd_gnode *a, const struct cmd_gnode *b)
{
	return a->type == b->type && a->hidden == b->hidden && a->min == b->min &&
	       a->max == b->max && a->text == b->text && a->help == b->help &&
	       a->varname == b->varname; /* interned */
}

static bool gnode_in(struct cmd_gnode *const *v, size_t n, const struct cmd_gnode *gn)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == gn)
			return true;
	return false;
}

/*
 * Only the leading run of plain tokens is shared: in a freshly parsed command, a token reached
 * by a single edge from a token (or START) has no other way in, so folding it into an equal
 * existing node changes no other path. Forks, joins and loops are never folded.
 */
void cmd_graph_merge(struct cmd_graph *g, struct cmd_gnode *start, struct cmd_gnode_list *nodes)
{
	struct cmd_gnode *cur = g->start, *ncur = start;
	struct cmd_gnode **dropped = NULL;
	size_t ndropped = 0, capdropped = 0;

	for (;;) {
		struct cmd_gnode *snew, *same = NULL;

		if (ncur->nnext != 1)
			break;
		snew = ncur->next[0];
		if (!cmd_tok_is_token(snew->type))
			break;
		for (unsigned i = 0; i < cur->nnext && !same; i++)
			if (cmd_tok_is_token(cur->next[i]->type) &&
			    gnode_same_token(cur->next[i], snew))
				same = cur->next[i];
		if (!same)
			break;
		if (ndropped == capdropped) {
			capdropped = capdropped ? capdropped * 2 : 8;
			dropped = XREALLOC(MTYPE_CMD_GRAPH, dropped, capdropped * sizeof(*dropped));
		}
		dropped[ndropped++] = ncur;
		cur = same;
		ncur = snew;
	}
	for (unsigned i = 0; i < ncur->nnext; i++)
		cmd_gnode_link(cur, ncur->next[i]);
	if (ndropped == capdropped) {
		capdropped = capdropped ? capdropped + 1 : 1;
		dropped = XREALLOC(MTYPE_CMD_GRAPH, dropped, capdropped * sizeof(*dropped));
	}
	dropped[ndropped++] = ncur;

	for (size_t i = 0; i < nodes->n; i++) {
		if (gnode_in(dropped, ndropped, nodes->v[i]))
			gnode_free(nodes->v[i]);
		else
			gnode_list_add(&g->nodes, nodes->v[i]);
	}
	XFREE(MTYPE_CMD_GRAPH, nodes->v);
	nodes->n = nodes->cap = 0;
	XFREE(MTYPE_CMD_GRAPH, dropped);
}
