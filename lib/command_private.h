/* SPDX-License-Identifier: ISC */
/*
 * The command engine's insides, shared by lib/command*.c and lib/vty*.c only (not an API for
 * other areas).
 *
 * Every node of the CLI owns one token graph. A grammar string becomes a subgraph between the
 * node's START and the command's END: one graph node per token, FORK/JOIN pairs for <a|b>,
 * [opt] (a FORK->JOIN shortcut) and {a|b} (a JOIN->FORK back edge; a path may use each token
 * once, which gives "any order, once each"). Commands that begin with the same tokens share
 * those graph nodes, so matching "show ..." walks one "show" node, not one per command.
 */
#ifndef SKUA_COMMAND_PRIVATE_H
#define SKUA_COMMAND_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/command.h"
#include "lib/memory.h"

DECLARE_MTYPE(CMD_TOKEN); /* lib/command_graph.c: graph nodes and their edges */
DECLARE_MTYPE(CMD_TEXT);  /* lib/command_graph.c: the nodes' words and help lines, interned */
DECLARE_MTYPE(CMD_GRAPH); /* lib/command_graph.c: per-node graphs and their bookkeeping */
DECLARE_MTYPE(CMD_MATCH); /* lib/command_match.c: words of a line and match paths */
DECLARE_MTYPE(CMD_ARGS);  /* lib/command.c: handler arguments */
DECLARE_MTYPE(VTY);	  /* lib/vty.c: struct vty */
DECLARE_MTYPE(VTY_CONN);  /* lib/vty_server.c: connections and the socket path */
DECLARE_MTYPE(VTY_BUF);	  /* lib/vty_server.c: connection input and output buffers */

enum cmd_tok_type {
	/* structure: match no word */
	CMD_TOK_START = 0,
	CMD_TOK_END,
	CMD_TOK_FORK,
	CMD_TOK_JOIN,
	/* tokens: each matches one word, LINE all remaining words */
	CMD_TOK_KEYWORD,
	CMD_TOK_WORD,
	CMD_TOK_LINE,
	CMD_TOK_IPV4,
	CMD_TOK_IPV4_PREFIX,
	CMD_TOK_IPV6,
	CMD_TOK_IPV6_PREFIX,
	CMD_TOK_RANGE,
	CMD_TOK_ASNUM,
};

static inline bool cmd_tok_is_token(int type)
{
	return type >= CMD_TOK_KEYWORD;
}

struct cmd_gnode {
	enum cmd_tok_type type;
	bool hidden; /* belongs to a CMD_HIDDEN command: not listed by ? and TAB */
	/* Strings of the graphs' pool (cmd_intern()): equal when their pointers are. */
	const char *text;    /* as written in the grammar: "remote-as", "A.B.C.D", "(1-254)" */
	const char *help;    /* one help line, or NULL for structure nodes */
	const char *varname; /* the $name binding, or NULL */
	uint64_t min, max;   /* CMD_TOK_RANGE bounds */
	const struct cmd_def *def; /* CMD_TOK_END: the command */
	struct cmd_gnode **next;
	unsigned nnext, capnext;
};

/* A growable list of graph nodes (ownership list of a graph or of a parse in progress). */
struct cmd_gnode_list {
	struct cmd_gnode **v;
	size_t n, cap;
};

struct cmd_graph {
	struct cmd_gnode *start;
	struct cmd_gnode_list nodes; /* every node the graph owns (the graph has cycles) */
	const struct cmd_def **defs; /* installed commands, to refuse duplicates */
	size_t ndefs, capdefs;
};

/* lib/command_graph.c */
struct cmd_gnode *cmd_gnode_new(struct cmd_gnode_list *owner, enum cmd_tok_type type);
/* s[0..len) as a string of the pool every graph node's strings come from: one copy of each
 * distinct word and help line however many commands repeat it, freed with the last node. */
const char *cmd_intern(const char *s, size_t len);
void cmd_gnode_link(struct cmd_gnode *from, struct cmd_gnode *to);
void cmd_gnode_list_free(struct cmd_gnode_list *list); /* frees the nodes too */
struct cmd_graph *cmd_graph_new(void);
void cmd_graph_free(struct cmd_graph *g);
/* Move a parsed command (its START and node list) into g, sharing equal leading tokens. */
void cmd_graph_merge(struct cmd_graph *g, struct cmd_gnode *start, struct cmd_gnode_list *nodes);

/* lib/command_lex.c: parse def->grammar/help into a subgraph START ... END.
 * Returns 0, or -1 with a message in err (a programming error in the definition). */
int cmd_grammar_parse(const struct cmd_def *def, struct cmd_gnode_list *nodes,
		      struct cmd_gnode **start, char *err, size_t errlen);

/* lib/command_match.c */
enum cmd_match_level {
	CMD_MATCH_NONE = 0,
	CMD_MATCH_PARTIAL, /* a keyword prefix, or text that may become a valid value */
	CMD_MATCH_EXACT,
};
enum cmd_match_level cmd_token_match(const struct cmd_gnode *tok, const char *word);

/* A line split into words; off[i] is where word i starts in the line. */
struct cmd_words {
	char *buf;
	char **w;
	size_t *off;
	int n;
	bool trailing_space; /* the line ends in white space (or is empty): no partial last word */
};
void cmd_words_split(struct cmd_words *words, const char *line);
void cmd_words_free(struct cmd_words *words);
/* lib/command_unsupported.c: the entry a line that matched nothing in node falls under. */
const struct cmd_unsupported *cmd_unsupported_find(enum node_type node,
						   const struct cmd_words *words, bool walk_up);

struct cmd_match_result {
	int status;		       /* CMD_SUCCESS, CMD_ERR_NO_MATCH/AMBIGUOUS/INCOMPLETE */
	const struct cmd_gnode *end;   /* CMD_SUCCESS: the command's END node */
	const struct cmd_gnode **path; /* CMD_SUCCESS: the token that took each word */
	int fail_word;		       /* CMD_ERR_NO_MATCH: first word that no path accepted */
};
void cmd_match_line(const struct cmd_graph *g, const struct cmd_words *words,
		    struct cmd_match_result *res);
void cmd_match_result_free(struct cmd_match_result *res);

/* Every token that may follow the first nwords words (END stands for <cr>); a token may be
 * reported several times. Returns the number of paths that accepted the nwords words. */
typedef void (*cmd_next_cb)(const struct cmd_gnode *tok, void *arg);
int cmd_match_next(const struct cmd_graph *g, const struct cmd_words *words, int nwords,
		   cmd_next_cb cb, void *arg);

/* lib/command.c: the graph of a node (NULL when nothing is installed there) */
const struct cmd_graph *cmd_node_graph(enum node_type node);
/* lib/command.c: configuration mode (runs the northbound's hooks). */
int cmd_config_enter(struct vty *vty);	/* 0, or -1 when the hook refused */
void cmd_config_leave(struct vty *vty); /* call before leaving a config node for good */

/* lib/command_help.c: frees the values kept for the last cmd_describe()/cmd_complete(). */
void cmd_help_terminate(void);

/* lib/command_basic.c */
void cmd_basic_init(void);
void cmd_basic_install_config_node(enum node_type node);

/* lib/command_show.c: show memory, show logging (installed by cmd_basic_init()). */
void cmd_show_init(void);
/* The name the daemon runs under ("bgpd"), for the headings FRR prints. */
const char *cmd_daemon_name(void);

/* lib/command_event.c: show event cpu, clear event cpu (installed by cmd_basic_init()). */
void cmd_event_init(void);

#endif /* SKUA_COMMAND_PRIVATE_H */
