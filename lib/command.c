/* SPDX-License-Identifier: ISC */
/*
 * The command engine: nodes, installation, execution with FRR's walk-up.
 * Grammar parsing is in command_lex.c, graphs in command_graph.c, matching in command_match.c,
 * `?` and TAB in command_help.c, the basic commands (exit, end, configure, do ...) in
 * command_basic.c and the daemon-wide show commands (memory, logging) in command_show.c.
 */
#include "lib/compat.h"

#include "lib/command_private.h"
#include "lib/vty.h"

DEFINE_MTYPE(CMD_ARGS, "Command arguments");

struct cmd_node_slot {
	struct cmd_node node;
	bool installed;
	bool defaults; /* exit/quit/end/do installed (config nodes) */
	struct cmd_graph *graph;
};

static struct cmd_node_slot cmd_nodes[NODE_TYPE_MAX];
static int (*config_enter_hook)(struct vty *vty);
static void (*config_leave_hook)(struct vty *vty);

#define UNKNOWN_PREFIX "% Unknown command: "

static struct cmd_node_slot *slot_get(enum node_type node)
{
	if ((int)node < 0 || node >= NODE_TYPE_MAX)
		return NULL;
	return &cmd_nodes[node];
}

const struct cmd_node *cmd_node_get(enum node_type node)
{
	struct cmd_node_slot *s = slot_get(node);

	return s && s->installed ? &s->node : NULL;
}

bool cmd_node_is_config(enum node_type node)
{
	const struct cmd_node *cn = cmd_node_get(node);

	return cn && cn->config;
}

void cmd_node_install(const struct cmd_node *node)
{
	struct cmd_node_slot *s = slot_get(node->node);

	if (!s) {
		fprintf(stderr, "skua: cmd_node_install: node %d out of range (a bug)\n",
			node->node);
		abort();
	}
	s->node = *node;
	s->installed = true;
	if (node->config && !s->defaults) {
		s->defaults = true;
		cmd_basic_install_config_node(node->node);
	}
}

/* The definition already installed with the same grammar, or NULL. */
static const struct cmd_def *def_installed(const struct cmd_graph *g, const struct cmd_def *def)
{
	for (size_t i = 0; i < g->ndefs; i++)
		if (g->defs[i] == def || strcmp(g->defs[i]->grammar, def->grammar) == 0)
			return g->defs[i];
	return NULL;
}

void cmd_install(enum node_type node, const struct cmd_def *def)
{
	struct cmd_node_slot *s = slot_get(node);
	struct cmd_gnode_list nodes = { 0 };
	const struct cmd_def *same;
	struct cmd_gnode *start;
	char err[1024];

	if (!s || !def || !def->grammar) {
		fprintf(stderr, "skua: cmd_install: bad node %d or definition (a bug)\n", node);
		abort();
	}
	if (!s->graph)
		s->graph = cmd_graph_new();
	same = def_installed(s->graph, def);
	if (same) {
		/* The same definition twice is harmless; two definitions of one grammar are a
		 * conflict: the first one stays. */
		if (same != def)
			fprintf(stderr,
				"skua: two definitions of command \"%s\" in node %d; the second is "
				"ignored\n",
				def->grammar, node);
		return;
	}
	if (cmd_grammar_parse(def, &nodes, &start, err, sizeof(err)) < 0) {
		fprintf(stderr, "skua: malformed command definition (a programming error): %s\n",
			err);
		abort();
	}
	cmd_graph_merge(s->graph, start, &nodes);
	if (s->graph->ndefs == s->graph->capdefs) {
		s->graph->capdefs = s->graph->capdefs ? s->graph->capdefs * 2 : 16;
		s->graph->defs = XREALLOC(MTYPE_CMD_GRAPH, s->graph->defs,
					  s->graph->capdefs * sizeof(*s->graph->defs));
	}
	s->graph->defs[s->graph->ndefs++] = def;
	/* FRR: what a user may do in VIEW mode, an enabled user may do too. */
	if (node == VIEW_NODE)
		cmd_install(ENABLE_NODE, def);
}

void cmd_init(void)
{
	static const struct cmd_node std_nodes[] = {
		{ VIEW_NODE, "view", "%s> ", VIEW_NODE, false, 0 },
		{ ENABLE_NODE, "enable", "%s# ", ENABLE_NODE, false, 0 },
		{ CONFIG_NODE, "config", "%s(config)# ", ENABLE_NODE, true, 0 },
		{ BGP_NODE, "bgp", "%s(config-router)# ", CONFIG_NODE, true, 1 },
		{ BGP_IPV4_NODE, "bgp-ipv4", "%s(config-router-af)# ", BGP_NODE, true, 2 },
		{ BGP_IPV6_NODE, "bgp-ipv6", "%s(config-router-af)# ", BGP_NODE, true, 2 },
		{ RMAP_NODE, "route-map", "%s(config-route-map)# ", CONFIG_NODE, true, 1 },
		{ RPKI_NODE, "rpki", "%s(config-rpki)# ", CONFIG_NODE, true, 1 },
	};

	for (size_t i = 0; i < array_size(std_nodes); i++)
		cmd_node_install(&std_nodes[i]);
	cmd_basic_init();
}

void cmd_terminate(void)
{
	for (size_t i = 0; i < array_size(cmd_nodes); i++) {
		cmd_graph_free(cmd_nodes[i].graph);
		memset(&cmd_nodes[i], 0, sizeof(cmd_nodes[i]));
	}
	config_enter_hook = NULL;
	config_leave_hook = NULL;
	cmd_help_terminate();
}

/* ---- nodes and configuration mode ------------------------------------------------------- */

void cmd_set_config_hooks(int (*enter)(struct vty *vty), void (*leave)(struct vty *vty))
{
	config_enter_hook = enter;
	config_leave_hook = leave;
}

int cmd_config_enter(struct vty *vty)
{
	if (config_enter_hook && config_enter_hook(vty) != 0)
		return -1;
	cmd_enter_node(vty, CONFIG_NODE);
	return 0;
}

void cmd_config_leave(struct vty *vty)
{
	if (cmd_node_is_config(vty->node) && config_leave_hook)
		config_leave_hook(vty);
}

void cmd_enter_node(struct vty *vty, enum node_type node)
{
	const struct cmd_node *cn = cmd_node_get(node);

	vty->node = node;
	vty->xpath_index = cn ? cn->xpath_depth : 0;
}

/* ---- arguments --------------------------------------------------------------------------- */

const char *cmd_arg(const struct cmd_args *args, const char *name)
{
	if (!args || !name)
		return NULL;
	/* Explicit $name bindings win over token texts: "hops (1-254)$hops" must give the
	 * number, not the keyword "hops" whose default name is its own text. */
	for (int i = 0; i < args->argc; i++)
		if (args->argv[i].name && args->argv[i].name != args->argv[i].token &&
		    strcmp(args->argv[i].name, name) == 0)
			return args->argv[i].text;
	for (int i = 0; i < args->argc; i++)
		if (args->argv[i].token && strcmp(args->argv[i].token, name) == 0)
			return args->argv[i].text;
	return NULL;
}

bool cmd_has(const struct cmd_args *args, const char *name)
{
	return cmd_arg(args, name) != NULL;
}

/* Decimal, or asdot "x.y" (x * 65536 + y) for AS numbers. */
uint64_t cmd_arg_u64(const struct cmd_args *args, const char *name, uint64_t dflt)
{
	const char *s = cmd_arg(args, name);
	unsigned long long hi, lo;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return dflt;
	errno = 0;
	hi = strtoull(s, &end, 10);
	if (errno || end == s)
		return dflt;
	if (*end == '\0')
		return hi;
	if (*end != '.' || hi > 0xffff || !end[1] || end[1] == '-' || end[1] == '+')
		return dflt;
	s = end + 1;
	lo = strtoull(s, &end, 10);
	if (errno || *end || lo > 0xffff)
		return dflt;
	return (hi << 16) | lo;
}

struct args_build {
	struct cmd_args args;
	struct cmd_arg *argv;
	char *line_text; /* LINE...: the remaining words joined by single spaces */
};

static void args_build(struct args_build *ab, const struct cmd_words *words,
		       const struct cmd_gnode **path)
{
	int argc = 0;

	memset(ab, 0, sizeof(*ab));
	ab->argv = XCALLOC(MTYPE_CMD_ARGS, ((size_t)words->n + 1) * sizeof(*ab->argv));
	for (int i = 0; i < words->n; i++) {
		const struct cmd_gnode *tok = path[i];
		struct cmd_arg *a = &ab->argv[argc++];

		a->name = tok->varname ? tok->varname : tok->text;
		a->token = tok->text;
		if (tok->type == CMD_TOK_LINE) {
			size_t len = 0;

			for (int j = i; j < words->n; j++)
				len += strlen(words->w[j]) + 1;
			ab->line_text = XCALLOC(MTYPE_CMD_ARGS, len + 1);
			for (int j = i; j < words->n; j++) {
				if (j > i)
					strcat(ab->line_text, " ");
				strcat(ab->line_text, words->w[j]);
			}
			a->text = ab->line_text;
			break;
		}
		a->text = tok->type == CMD_TOK_KEYWORD ? tok->text : words->w[i];
	}
	ab->args.argc = argc;
	ab->args.argv = ab->argv;
}

static void args_free(struct args_build *ab)
{
	XFREE(MTYPE_CMD_ARGS, ab->argv);
	XFREE(MTYPE_CMD_ARGS, ab->line_text);
}

/* ---- execution ---------------------------------------------------------------------------- */

const struct cmd_graph *cmd_node_graph(enum node_type node)
{
	struct cmd_node_slot *s = slot_get(node);

	return s ? s->graph : NULL;
}

static bool is_comment_or_blank(const struct cmd_words *words)
{
	return words->n == 0 || words->w[0][0] == '!' || words->w[0][0] == '#';
}

/* "% Unknown command: <line>" and, when a word can be named, a caret under it. */
static void print_unknown(struct vty *vty, const char *line, const struct cmd_words *words,
			  int fail_word)
{
	size_t lead = words->n ? words->off[0] : 0, end = strlen(line);
	size_t col;

	while (end > lead && (line[end - 1] == ' ' || line[end - 1] == '\t' ||
			      line[end - 1] == '\r' || line[end - 1] == '\n'))
		end--;
	vty_out(vty, "%s", UNKNOWN_PREFIX);
	for (size_t i = lead; i < end; i++)
		vty_out(vty, "%c", line[i] == '\t' ? ' ' : line[i]);
	vty_out(vty, "\n");
	if (fail_word < 0 || fail_word >= words->n)
		return;
	col = strlen(UNKNOWN_PREFIX) + words->off[fail_word] - lead;
	vty_out(vty, "%*s^\n", (int)col, "");
}

static int run_handler(struct vty *vty, const struct cmd_words *words,
		       const struct cmd_match_result *res)
{
	struct args_build ab;
	int ret;

	args_build(&ab, words, res->path);
	ret = res->end->def->handler(vty, &ab.args);
	args_free(&ab);
	return ret;
}

int cmd_execute(struct vty *vty, const char *line, bool walk_up)
{
	enum node_type onode = vty->node, node = vty->node;
	int oxpath = vty->xpath_index, fail_word = -1, ret;
	struct cmd_match_result res;
	struct cmd_words words;

	cmd_words_split(&words, line ? line : "");
	if (is_comment_or_blank(&words)) {
		cmd_words_free(&words);
		return CMD_SUCCESS;
	}
	for (;;) {
		const struct cmd_node *cn = cmd_node_get(node), *parent;

		cmd_match_line(cmd_node_graph(node), &words, &res);
		if (res.status != CMD_ERR_NO_MATCH)
			break;
		if (res.fail_word > fail_word)
			fail_word = res.fail_word;
		/* FRR: a config line that does not fit here may belong to an enclosing node. */
		if (!walk_up || !cn || !cn->config)
			break;
		parent = cmd_node_get(cn->parent);
		if (!parent || !parent->config || parent->node == node)
			break;
		node = parent->node;
	}

	switch (res.status) {
	case CMD_SUCCESS:
		if (node != onode)
			cmd_enter_node(vty, node);
		ret = run_handler(vty, &words, &res);
		if (node != onode && ret != CMD_SUCCESS && ret != CMD_WARNING) {
			vty->node = onode;
			vty->xpath_index = oxpath;
		}
		break;
	case CMD_ERR_AMBIGUOUS:
		vty_out(vty, "%% Ambiguous command.\n");
		ret = CMD_ERR_AMBIGUOUS;
		break;
	case CMD_ERR_INCOMPLETE:
		vty_out(vty, "%% Command incomplete.\n");
		ret = CMD_ERR_INCOMPLETE;
		break;
	default: {
		const struct cmd_unsupported *u = cmd_unsupported_find(onode, &words, walk_up);

		if (u)
			vty_out(vty, "%% not supported by skua: %s (see %s)\n", u->what, u->doc);
		else
			print_unknown(vty, line, &words, fail_word);
		ret = CMD_ERR_NO_MATCH;
		break;
	}
	}
	cmd_match_result_free(&res);
	cmd_words_free(&words);
	return ret;
}
