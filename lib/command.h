/* SPDX-License-Identifier: ISC */
/*
 * The command engine. Commands are declared as grammar strings with help text (FRR's DEFPY
 * idea) and installed into nodes; nodes and their prompts are data. The engine matches a line
 * token by token with exact and unique-prefix matching ("sh ip b su"), answers `?` (describe)
 * and TAB (complete), and walks up to parent nodes for config-file input as FRR does.
 *
 * Grammar tokens:
 *   keyword        literal word, matched exactly or by unique prefix
 *   WORD           any word                  LINE...   the rest of the line (must be last)
 *   A.B.C.D        IPv4 address              A.B.C.D/M IPv4 prefix
 *   X:X::X:X       IPv6 address              X:X::X:X/M IPv6 prefix
 *   (1-65535)      integer range (up to 64 bits, unsigned)
 *   ASNUM          AS number: 1-4294967295 (plain) or asdot "1.10"
 *   <a|b|c>        exactly one of the alternatives (each may be a token sequence)
 *   [a]            optional; [a|b] optional alternatives;  {a|b} any of them, any order, once each
 *   $name          suffix binding the matched text to a name: "(1-254)$hops",
 *                  "<A.B.C.D|X:X::X:X>$peer"
 *
 * Help: one line per token that needs help, in order, separated by '\n' (keywords and
 * placeholders; punctuation takes none). A `no` form taking the same words as the command
 * is the same definition with a leading "[no]" (the handler tests cmd_has(args, "no"); `?`
 * and TAB list it as they would two definitions); one taking other words is a definition
 * of its own.
 * Too few or too many help lines make the definition malformed. Commands of a node that begin
 * with the same tokens (same text, help and binding) share them in the node's token graph.
 */
#ifndef SKUA_COMMAND_H
#define SKUA_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vty;

/* Help strings many commands share (FRR's wording, lib/command.h). */
#define SHOW_STR "Show running system information\n"
#define NO_STR "Negate a command or set its defaults\n"
#define IP_STR "IP information\n"
#define IPV6_STR "IPv6 information\n"
#define JSON_STR "JavaScript Object Notation\n"

/* Nodes: the modes of the CLI. Prompts are printf formats taking the hostname. */
enum node_type {
	VIEW_NODE = 0, /* r1> */
	ENABLE_NODE,   /* r1# */
	CONFIG_NODE,   /* r1(config)# */
	BGP_NODE,      /* r1(config-router)# */
	BGP_IPV4_NODE, /* r1(config-router-af)# */
	BGP_IPV6_NODE, /* r1(config-router-af)# */
	RMAP_NODE,     /* r1(config-route-map)# */
	RPKI_NODE,     /* r1(config-rpki)# */
	VTY_NODE,      /* r1(config-line)#: FRR's `line vty`, accepted and ignored */
	NODE_TYPE_MAX,
};

struct cmd_node {
	enum node_type node;
	const char *name;      /* for messages and tests: "config", "bgp", "bgp-ipv4" */
	const char *prompt;    /* "%s(config-router)# " */
	enum node_type parent; /* `exit` goes here; walk-up order for config input */
	bool config;	       /* a configuration node (edits the candidate) */
	int xpath_depth;       /* vty->xpath_index while in this node (CONFIG 0, BGP 1, AF 2);
				* leaving a node by exit/end resets xpath_index to the target's */
};

/* Return codes of handlers and of cmd_execute(). */
enum cmd_result {
	CMD_SUCCESS = 0,
	CMD_WARNING = 1,	       /* done, with a warning printed */
	CMD_ERR_NO_MATCH = 2,	       /* % Unknown command */
	CMD_ERR_AMBIGUOUS = 3,	       /* % Ambiguous command */
	CMD_ERR_INCOMPLETE = 4,	       /* % Command incomplete */
	CMD_WARNING_CONFIG_FAILED = 5, /* config refused; message printed by the handler */
	CMD_ERR_NOTHING_TODO = 6,
	CMD_CLOSE = 7, /* end the vty session (exit/quit at the top) */
};

/* What a handler receives: the words of the line, each bound to its grammar token. */
struct cmd_arg {
	const char *name;  /* the $name binding, or the token text ("A.B.C.D", "remote-as") */
	const char *text;  /* the matched text; keywords are expanded to the full keyword */
	const char *token; /* the grammar token that took it: "A.B.C.D", "(1-254)", "remote-as" */
};

struct cmd_args {
	int argc;
	const struct cmd_arg *argv;
};

/* The text bound to name (a $name or a token such as "A.B.C.D" or a keyword), or NULL.
 * $name bindings are searched first, then token texts. LINE... binds the remaining words
 * joined by single spaces. */
const char *cmd_arg(const struct cmd_args *args, const char *name);
bool cmd_has(const struct cmd_args *args, const char *name);
/* Parse a bound numeric argument (already range-checked by the matcher); asdot "x.y" gives
 * x * 65536 + y. dflt when absent or not a number. */
uint64_t cmd_arg_u64(const struct cmd_args *args, const char *name, uint64_t dflt);

typedef int (*cmd_handler)(struct vty *vty, const struct cmd_args *args);

#define CMD_HIDDEN 0x01 /* accepted but not listed by ? and TAB (deprecated aliases) */

struct cmd_def {
	const char *grammar;
	const char *help;
	cmd_handler handler;
	unsigned flags;
};

/* Declare a command: DEFCMD(name, "grammar", "help\nhelp\n") { ... return CMD_SUCCESS; } */
#define DEFCMD(fname, grammar_str, help_str)                                \
	static int fname(struct vty *vty, const struct cmd_args *args);     \
	static const struct cmd_def fname##_cmd = { .grammar = grammar_str, \
						    .help = help_str,       \
						    .handler = fname };     \
	static int fname(struct vty *vty, const struct cmd_args *args)

void cmd_init(void);
void cmd_terminate(void);
void cmd_node_install(const struct cmd_node *node);
const struct cmd_node *cmd_node_get(enum node_type node);
bool cmd_node_is_config(enum node_type node);
/* Move the vty to node and set vty->xpath_index to the node's xpath_depth (handlers that enter
 * a node, e.g. `router bgp`, call this and then fill vty->xpath[depth - 1]). */
void cmd_enter_node(struct vty *vty, enum node_type node);
/*
 * Optional hooks for the northbound. enter runs on `configure terminal` and may refuse (print
 * why with vty_out and return non-zero: the command then fails with
 * CMD_WARNING_CONFIG_FAILED). leave runs when the vty leaves configuration mode: exit from
 * CONFIG, end, Ctrl-Z, or the session closing while in a config node.
 */
void cmd_set_config_hooks(int (*enter)(struct vty *vty), void (*leave)(struct vty *vty));
/* Parses the grammar once; a malformed grammar aborts at start-up with its text (a bug).
 * Installing into VIEW_NODE installs into ENABLE_NODE too (FRR). Installing a config node
 * with cmd_node_install() also installs exit, quit, end and `do LINE...` into it. */
void cmd_install(enum node_type node, const struct cmd_def *def);

/*
 * A statement another implementation (FRR) has and this program does not. A line that
 * matches no command but begins with words (after an optional "no"; "*" stands for any one
 * word) of an entry of its node, or of a node the walk-up tries, is refused with
 * "% not supported by skua: WHAT (see DOC)" instead of "% Unknown command".
 */
struct cmd_unsupported {
	enum node_type node;
	const char *words; /* "neighbor * bfd" */
	const char *what;  /* "neighbor PEER bfd (BFD)" */
	const char *doc;   /* "doc/northbound.md, FRR statements skua lacks" */
};
/* Register a table (kept, not copied); 0, or -1 when the engine's table of tables is full. */
int cmd_unsupported_register(const struct cmd_unsupported *table, size_t n);

/*
 * Execute one line in vty->node. Output and error messages go to the vty (FRR wording:
 * "% Unknown command: ...", "% Ambiguous command.", "% Command incomplete." with a caret line
 * under the offending token where one can be named). walk_up: try parent nodes when the line
 * does not match here (config files); on success the vty's node follows the walk.
 */
int cmd_execute(struct vty *vty, const char *line, bool walk_up);

/*
 * Values a placeholder can take right now (FRR's variable completion), e.g. the configured
 * neighbors for "<A.B.C.D|X:X::X:X>$peer". A provider is registered for a $name binding and
 * calls add() once per value; `?` lists the values under the placeholder's help line and TAB
 * completes them like keywords. Values the placeholder would not accept (an IPv6 address
 * under A.B.C.D) and values that do not begin with the partial word are left out.
 */
typedef void (*cmd_value_add)(const char *value, void *ctx);
typedef void (*cmd_value_provider)(struct vty *vty, cmd_value_add add, void *ctx);
#define CMD_VALUE_PROVIDERS_MAX 16
/* Set (fn NULL: remove) the provider of a binding name; a later call replaces an earlier
 * one. Needs no allocation, so it works before cmd_init() (a constructor) and survives
 * cmd_terminate(). Returns 0, or -1 when the table is full or varname is empty. */
int cmd_value_provider_set(const char *varname, cmd_value_provider fn);

/* `?`: the possible next tokens (or completions of the partial last word) with help. */
struct cmd_help {
	const char *token; /* "remote-as", "A.B.C.D", "<cr>" */
	const char *help;
	const char *values; /* a placeholder's current values ("10.0.0.1 10.0.0.2"), or NULL */
};
/* Fills up to max entries, sorted as FRR's vtysh prints them (<cr> first, then by token text);
 * returns the total count (which may exceed max), or -CMD_ERR_NO_MATCH (negative) when no
 * command fits the line. The strings belong to the engine: tokens and help are valid until
 * cmd_terminate(), values until the next cmd_describe()/cmd_complete() call. */
int cmd_describe(struct vty *vty, const char *line, struct cmd_help *out, int max);
/* TAB: keyword completions of the last (partial) word, or every next keyword after a space,
 * plus the current values of placeholders that have a provider; returns the total count (0
 * when only other placeholders may follow), or -CMD_ERR_NO_MATCH. The strings belong to the
 * engine (values: until the next cmd_describe()/cmd_complete() call): do not free them. */
int cmd_complete(struct vty *vty, const char *line, char **out, int max);
/* The same, printed into vty->out: FRR's layout "  remote-as  Specify a BGP neighbor" with a
 * placeholder's values on an indented line under it (or "% There is no matched command."),
 * resp. one completion per line. Return CMD_SUCCESS or the CMD_ERR_* code. */
int cmd_describe_print(struct vty *vty, const char *line);
int cmd_complete_print(struct vty *vty, const char *line);

#endif /* SKUA_COMMAND_H */
