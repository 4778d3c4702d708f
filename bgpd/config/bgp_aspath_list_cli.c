/* SPDX-License-Identifier: ISC */
/*
 * AS path access lists on the CLI and in the northbound (skua-policy's as-path-list):
 *
 *   bgp as-path access-list NAME [seq N] <permit|deny> REGEX
 *   no bgp as-path access-list NAME [seq N] <permit|deny> REGEX
 *   no bgp as-path access-list NAME
 *
 * (`show bgp as-path-access-list` is bgpd/show/bgp_show_policy.c's.)
 *
 * As in FRR: an entry without seq gets the highest seq plus 5, and the same entry is not
 * added twice; `no` with the entry's text removes it, a list goes with its last entry. The
 * expression is compiled in VALIDATE, so a list never holds one that does not compile and a
 * file with a bad one is refused with its line. Printed after the prefix lists:
 *
 *   bgp as-path access-list CUST seq 5 permit ^65010_
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_list_entry_cli.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define ASL_XPATH POLICY_XPATH "/as-path-list"
#define XPATH_MAX 512

/* ---- callbacks --------------------------------------------------------------------------- */

static int asl_entry_regex_modify(struct nb_cb_args *args)
{
	if (args->event == NB_EV_VALIDATE &&
	    aspath_regex_check(lyd_get_value(args->dnode), args->errmsg, args->errmsg_len) < 0)
		return NB_ERR;
	return NB_OK;
}

static void asl_entry_apply_finish(struct nb_cb_args *args)
{
	const struct lyd_node *list = lyd_parent(args->dnode);
	const char *action = yang_dnode_get_string(args->dnode, "action");
	const char *regex = yang_dnode_get_string(args->dnode, "regex");

	if (!regex || !action)
		return;
	/* Compiled in VALIDATE already: it cannot fail here. */
	aspath_list_entry_set(yang_dnode_get_string(list, "name"),
			      (uint32_t)yang_dnode_get_uint(args->dnode, 0, "seq"),
			      strcmp(action, "permit") == 0, regex);
}

static int asl_entry_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		aspath_list_entry_delete(yang_dnode_get_string(lyd_parent(args->dnode), "name"),
					 (uint32_t)yang_dnode_get_uint(args->dnode, 0, "seq"));
	return NB_OK;
}

static int asl_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		aspath_list_delete(yang_dnode_get_string(args->dnode, "name"));
	return NB_OK;
}

/* ---- running-config ----------------------------------------------------------------------- */

/* FRR closes the prefix lists with "!" before the community and AS path lists: the first
 * AS path list prints it when prefix lists came before and no community list did. */
static void asl_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *name = yang_dnode_get_string(dnode, "name");
	bool plists = false;

	for (const struct lyd_node *s = lyd_first_sibling(dnode); s; s = s->next) {
		if (s->schema == dnode->schema) {
			if (s != dnode && strcmp(yang_dnode_get_string(s, "name"), name) < 0)
				return; /* not the first AS path list */
		} else if (strcmp(s->schema->name, "community-list") == 0 ||
			   strcmp(s->schema->name, "extcommunity-list") == 0 ||
			   strcmp(s->schema->name, "large-community-list") == 0) {
			return; /* the community lists opened the block */
		} else if (strcmp(s->schema->name, "prefix-list") == 0) {
			plists = true;
		}
	}
	if (plists)
		sbuf_puts(out, "!\n");
}

static int asl_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	return strcmp(yang_dnode_get_string(a, "name"), yang_dnode_get_string(b, "name"));
}

static void asl_entry_show(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, "bgp as-path access-list %s seq %" PRIu64 " %s %s\n",
		    yang_dnode_get_string(lyd_parent(dnode), "name"),
		    yang_dnode_get_uint(dnode, 0, "seq"), yang_dnode_get_string(dnode, "action"),
		    yang_dnode_get_string(dnode, "regex"));
}

static int asl_entry_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	uint64_t sa = yang_dnode_get_uint(a, 0, "seq"), sb = yang_dnode_get_uint(b, 0, "seq");

	return sa < sb ? -1 : sa > sb;
}

static const struct nb_node_info asl_nb_nodes[] = {
	{
		.xpath = ASL_XPATH,
		.cbs = { .destroy = asl_destroy, .cli_show = asl_show, .cli_cmp = asl_cmp },
	},
	{
		.xpath = ASL_XPATH "/entry",
		.cbs = { .destroy = asl_entry_destroy,
			 .apply_finish = asl_entry_apply_finish,
			 .cli_show = asl_entry_show,
			 .cli_cmp = asl_entry_cmp },
	},
	{
		.xpath = ASL_XPATH "/entry/regex",
		.cbs = { .modify = asl_entry_regex_modify },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info asl_nb_module = {
	.name = "skua-policy",
	.nodes = asl_nb_nodes,
};

/* ---- commands ---------------------------------------------------------------------------- */

/* The entry of list `list` (a node of the tree this vty edits) saying action + regex. */
static int asl_entry_edit(struct vty *vty, const struct cmd_args *args, bool no)
{
	const char *name = cmd_arg(args, "name");
	char list[XPATH_MAX];
	struct policy_entry_edit e = {
		.kind = "as-path access list",
		.list_xpath = list,
		.text_leaf = "regex",
		.name = name,
		.action = cmd_arg(args, "action"),
		.text = cmd_arg(args, "LINE..."),
		.has_seq = cmd_has(args, "seq"),
		.seq = cmd_arg_u64(args, "seq", 0),
	};

	if (strchr(name, '\'')) {
		vty_out(vty, "%% An AS path access list name cannot contain a quote (')\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	snprintf(list, sizeof(list), ASL_XPATH "[name='%s']", name);
	return policy_entry_edit(vty, &e, no);
}

#define ASL_STR                                       \
	BGP_STR "BGP autonomous system path filter\n" \
		"Specify an access list name\n"       \
		"Regular expression access list name\n"
#define ASL_ENTRY_HELP                  \
	"Sequence number of an entry\n" \
	"Sequence number\n"             \
	"Specify packets to reject\n"   \
	"Specify packets to forward\n"  \
	"A regular-expression (1234567890_^|[,{}() ]$*+.?-\\) to match the BGP AS paths\n"

DEFCMD(bgp_as_path_access_list,
       "[no] bgp as-path access-list WORD$name [seq (0-4294967295)$seq] <deny|permit>$action "
       "LINE...",
       NO_STR ASL_STR ASL_ENTRY_HELP)
{
	return asl_entry_edit(vty, args, cmd_has(args, "no"));
}

DEFCMD(no_bgp_as_path_access_list_all, "no bgp as-path access-list WORD$name", NO_STR ASL_STR)
{
	return asl_entry_edit(vty, args, true);
}

void bgp_aspath_list_cli_init(void)
{
	nb_module_register(&asl_nb_module);
	cmd_install(CONFIG_NODE, &bgp_as_path_access_list_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_as_path_access_list_all_cmd);
}
