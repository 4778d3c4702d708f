/* SPDX-License-Identifier: ISC */
/*
 * The commands every CLI has: moving between modes (FRR lib/command.c behaviour: `exit` one
 * level up or out of the session at the top, `end` straight to enable mode, `do` runs an
 * enable-mode command from a config node), `list` and `show version`. The other show commands
 * every daemon has (memory, logging) are in command_show.c.
 */
#include "lib/compat.h"

#include "lib/command_private.h"
#include "lib/vty.h"

DEFINE_MTYPE(CMD_LIST, "Command list (list)");

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

DEFCMD(cmd_exit, "exit", "Exit the current mode (at the top: end the session)\n")
{
	const struct cmd_node *cn = cmd_node_get(vty->node), *parent;

	if (!cn || !cn->config)
		return CMD_CLOSE;
	parent = cmd_node_get(cn->parent);
	if (!parent || !parent->config) {
		cmd_config_leave(vty);
		cmd_enter_node(vty, parent ? parent->node : ENABLE_NODE);
	} else {
		cmd_enter_node(vty, parent->node);
	}
	return CMD_SUCCESS;
}

DEFCMD(cmd_quit, "quit", "Exit the current mode (at the top: end the session)\n")
{
	return cmd_exit(vty, args);
}

DEFCMD(cmd_end, "end", "Leave configuration mode for enable mode\n")
{
	if (cmd_node_is_config(vty->node)) {
		cmd_config_leave(vty);
		cmd_enter_node(vty, ENABLE_NODE);
	}
	return CMD_SUCCESS;
}

DEFCMD(cmd_configure, "configure [terminal]",
       "Enter configuration mode\n"
       "Configure from this terminal\n")
{
	if (cmd_config_enter(vty) != 0)
		return CMD_WARNING_CONFIG_FAILED;
	return CMD_SUCCESS;
}

DEFCMD(cmd_enable, "enable", "Turn on privileged (enable) mode\n")
{
	cmd_enter_node(vty, ENABLE_NODE);
	return CMD_SUCCESS;
}

DEFCMD(cmd_disable, "disable", "Turn off privileged mode (back to view mode)\n")
{
	cmd_enter_node(vty, VIEW_NODE);
	return CMD_SUCCESS;
}

/* The command runs in enable mode; the vty comes back to where it was, as in FRR. */
DEFCMD(cmd_do, "do LINE...",
       "Run an enable-mode command from configuration mode\n"
       "The enable-mode command\n")
{
	enum node_type onode = vty->node;
	int oxpath = vty->xpath_index, ret;

	vty->node = ENABLE_NODE;
	ret = cmd_execute(vty, cmd_arg(args, "LINE..."), false);
	vty->node = onode;
	vty->xpath_index = oxpath;
	return ret;
}

DEFCMD(cmd_exit_af, "exit-address-family", "Leave address-family mode\n")
{
	cmd_enter_node(vty, BGP_NODE);
	return CMD_SUCCESS;
}

DEFCMD(cmd_show_version, "show version",
       "Show running system information\n"
       "Version of this skua\n")
{
	vty_out(vty, "skua bgpd %s\n", PACKAGE_VERSION);
	vty_out(vty, "Copyright (c) 2026 The skua authors.\n");
	vty_out(vty, "Free software under the ISC licence (see the LICENSE file).\n");
	return CMD_SUCCESS;
}

static int grammar_cmp(const void *a, const void *b)
{
	const struct cmd_def *const *x = a, *const *y = b;

	return strcmp((*x)->grammar, (*y)->grammar);
}

/*
 * FRR's `list`: every command of the current mode, one grammar per line, sorted; hidden
 * (deprecated) ones are left out as `?` leaves them out. Also what tests/doc/ reads to check
 * that the manual pages name every configuration statement.
 */
DEFCMD(cmd_list, "list", "Print command list\n")
{
	const struct cmd_graph *g = cmd_node_graph(vty->node);
	const struct cmd_def **defs;
	size_t i;

	if (!g || !g->ndefs)
		return CMD_SUCCESS;
	defs = XMALLOC(MTYPE_CMD_LIST, g->ndefs * sizeof(*defs));
	memcpy(defs, g->defs, g->ndefs * sizeof(*defs));
	qsort(defs, g->ndefs, sizeof(*defs), grammar_cmp);
	for (i = 0; i < g->ndefs; i++)
		if (!(defs[i]->flags & CMD_HIDDEN))
			vty_out(vty, "  %s\n", defs[i]->grammar);
	XFREE(MTYPE_CMD_LIST, defs);
	return CMD_SUCCESS;
}

void cmd_basic_install_config_node(enum node_type node)
{
	cmd_install(node, &cmd_list_cmd);
	cmd_install(node, &cmd_exit_cmd);
	cmd_install(node, &cmd_quit_cmd);
	cmd_install(node, &cmd_end_cmd);
	cmd_install(node, &cmd_do_cmd);
}

void cmd_basic_init(void)
{
	/* VIEW commands are installed into ENABLE too (cmd_install). */
	cmd_install(VIEW_NODE, &cmd_exit_cmd);
	cmd_install(VIEW_NODE, &cmd_quit_cmd);
	cmd_install(VIEW_NODE, &cmd_list_cmd);
	cmd_install(VIEW_NODE, &cmd_show_version_cmd);
	cmd_install(VIEW_NODE, &cmd_enable_cmd);
	cmd_install(ENABLE_NODE, &cmd_end_cmd);
	cmd_install(ENABLE_NODE, &cmd_configure_cmd);
	cmd_install(ENABLE_NODE, &cmd_disable_cmd);
	cmd_install(BGP_IPV4_NODE, &cmd_exit_af_cmd);
	cmd_install(BGP_IPV6_NODE, &cmd_exit_af_cmd);
	cmd_show_init();
	cmd_event_init();
}
