/* SPDX-License-Identifier: ISC */
/*
 * Community lists on the CLI and in the northbound (skua-policy's community-list):
 *
 *   bgp community-list <standard|expanded> NAME [seq N] <permit|deny> ...
 *   no bgp community-list <standard|expanded> NAME [[seq N] <permit|deny> ...]
 *   bgp large-community-list <standard|expanded> NAME [seq N] <permit|deny> ...
 *   no bgp large-community-list <standard|expanded> NAME [[seq N] <permit|deny> ...]
 *   bgp extcommunity-list <standard|expanded> NAME [seq N] <permit|deny> ...
 *   no bgp extcommunity-list <standard|expanded> NAME [[seq N] <permit|deny> ...]
 *   bgp [large-|ext]community-list (1-99)|(100-500) [seq N] <permit|deny> ...   (FRR's
 *     numbered forms: standard and expanded lists named by their number, printed without the
 *     type)
 *
 * (`show bgp [large-]community-list` is bgpd/show/bgp_show_policy.c's.)
 *
 * As in FRR: an entry without seq gets the highest seq plus 5 and the same entry is not added
 * twice; a list goes with its last entry; a standard entry's words must be communities and an
 * expanded entry's expression must compile (checked in VALIDATE, with the line of a file).
 * Printed after the prefix lists, in one block with the AS path lists, communities first,
 * then extended, then large (FRR's order):
 *
 *   bgp community-list standard NO-EXPORT-TAG seq 5 permit 65001:666
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_list_entry_cli.h"
#include "bgpd/policy/bgp_clist.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define CL_XPATH POLICY_XPATH "/community-list"
#define LCL_XPATH POLICY_XPATH "/large-community-list"
#define ECL_XPATH POLICY_XPATH "/extcommunity-list"
#define XPATH_MAX 512

enum cl_kind { CL_COMM, CL_LCOMM, CL_ECOMM };

/* The kind of a list node, from its schema name. */
static enum cl_kind kind_of(const struct lyd_node *list)
{
	if (strcmp(list->schema->name, "large-community-list") == 0)
		return CL_LCOMM;
	if (strcmp(list->schema->name, "extcommunity-list") == 0)
		return CL_ECOMM;
	return CL_COMM;
}

/* The policy layer's functions of each kind. */
static const struct cl_ops {
	const char *word;  /* "large-" in `bgp large-community-list` */
	const char *human; /* in messages */
	int (*check)(bool expanded, const char *text, char *err, size_t errlen);
	int (*set)(const char *name, bool expanded, uint32_t seq, bool permit, const char *text);
	void (*entry_delete)(const char *name, uint32_t seq);
	void (*list_delete)(const char *name);
	int (*canonical)(const char *text, char *out, size_t size); /* standard entries */
} cl_ops[] = {
	[CL_COMM] = { "", "community list", community_list_entry_check, community_list_entry_set,
		      community_list_entry_delete, community_list_delete,
		      community_list_canonical },
	[CL_LCOMM] = { "large-", "large community list", lcommunity_list_entry_check,
		       lcommunity_list_entry_set, lcommunity_list_entry_delete,
		       lcommunity_list_delete, lcommunity_list_canonical },
	[CL_ECOMM] = { "ext", "extended community list", ecommunity_list_entry_check,
		       ecommunity_list_entry_set, ecommunity_list_entry_delete,
		       ecommunity_list_delete, ecommunity_list_canonical },
};

static const struct cl_ops *ops_of(const struct lyd_node *list)
{
	return &cl_ops[kind_of(list)];
}

static bool is_expanded(const struct lyd_node *list)
{
	const char *type = yang_dnode_get_string(list, "type");

	return type && strcmp(type, "expanded") == 0;
}

/* ---- callbacks --------------------------------------------------------------------------- */

static int cl_entry_text_modify(struct nb_cb_args *args)
{
	const struct lyd_node *list = lyd_parent(lyd_parent(args->dnode));

	if (args->event == NB_EV_VALIDATE &&
	    ops_of(list)->check(is_expanded(list), lyd_get_value(args->dnode), args->errmsg,
				args->errmsg_len) < 0)
		return NB_ERR;
	return NB_OK;
}

/* The type of an existing list cannot change under its entries: FRR refuses it too. */
static int cl_type_modify(struct nb_cb_args *args)
{
	if (args->event == NB_EV_VALIDATE && args->old_dnode) {
		snprintf(args->errmsg, args->errmsg_len,
			 "%s %s is %s: remove it first to make it %s",
			 ops_of(lyd_parent(args->dnode))->human,
			 yang_dnode_get_string(lyd_parent(args->dnode), "name"),
			 lyd_get_value(args->old_dnode), lyd_get_value(args->dnode));
		return NB_ERR;
	}
	return NB_OK;
}

static void cl_entry_apply_finish(struct nb_cb_args *args)
{
	const struct lyd_node *list = lyd_parent(args->dnode);
	const char *action = yang_dnode_get_string(args->dnode, "action");
	const char *text = yang_dnode_get_string(args->dnode, "text");

	if (!action || !text)
		return;
	ops_of(list)->set(yang_dnode_get_string(list, "name"), is_expanded(list),
			  (uint32_t)yang_dnode_get_uint(args->dnode, 0, "seq"),
			  strcmp(action, "permit") == 0, text);
}

static int cl_entry_destroy(struct nb_cb_args *args)
{
	const struct lyd_node *list = lyd_parent(args->dnode);

	if (args->event == NB_EV_APPLY)
		ops_of(list)->entry_delete(yang_dnode_get_string(list, "name"),
					   (uint32_t)yang_dnode_get_uint(args->dnode, 0, "seq"));
	return NB_OK;
}

static int cl_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		ops_of(args->dnode)->list_delete(yang_dnode_get_string(args->dnode, "name"));
	return NB_OK;
}

/* ---- running-config ---------------------------------------------------------------------- */

/* FRR's order: numbered lists by number first, then named lists by name. */
static int cl_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	const char *na = yang_dnode_get_string(a, "name"), *nb = yang_dnode_get_string(b, "name");
	bool numa = community_list_name_numbered(na), numb = community_list_name_numbered(nb);

	if (numa != numb)
		return numa ? -1 : 1;
	if (numa && strlen(na) != strlen(nb))
		return strlen(na) < strlen(nb) ? -1 : 1;
	return strcmp(na, nb);
}

/* The first list of the block closes the prefix lists with "!" (FRR's layout); extended
 * community lists follow the community lists in the same block, large ones both. */
static void cl_show(struct sbuf *out, const struct lyd_node *dnode)
{
	enum cl_kind k = kind_of(dnode);
	bool plists = false;

	for (const struct lyd_node *s = lyd_first_sibling(dnode); s; s = s->next) {
		if (s->schema == dnode->schema) {
			if (s != dnode && cl_cmp(s, dnode) < 0)
				return;
		} else if (strcmp(s->schema->name, "prefix-list") == 0) {
			plists = true;
		} else if (k != CL_COMM && strcmp(s->schema->name, "community-list") == 0) {
			return;
		} else if (k == CL_LCOMM && strcmp(s->schema->name, "extcommunity-list") == 0) {
			return;
		}
	}
	if (plists)
		sbuf_puts(out, "!\n");
}

/*
 * FRR's numbered form, without the type word, only for a list it reads back as: a standard
 * list numbered 1-99 or an expanded one numbered 100-500 (cl_edit() derives the type from
 * the number). Any other name of digits (`bgp community-list expanded 9`, `standard 600`)
 * keeps its type word, or the printed configuration would be refused or change the type.
 */
static bool printed_numbered(const char *name, bool expanded)
{
	unsigned long n;

	if (!community_list_name_numbered(name) || name[0] == '0' || strlen(name) > 3)
		return false;
	n = strtoul(name, NULL, 10);
	return expanded ? n >= 100 && n <= 500 : n <= 99;
}

static void cl_entry_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *list = lyd_parent(dnode);
	const char *name = yang_dnode_get_string(list, "name");
	bool num = printed_numbered(name, is_expanded(list));

	sbuf_printf(out, "bgp %scommunity-list %s%s%s seq %" PRIu64 " %s %s\n", ops_of(list)->word,
		    num			? ""
		    : is_expanded(list) ? "expanded"
					: "standard",
		    num ? "" : " ", name, yang_dnode_get_uint(dnode, 0, "seq"),
		    yang_dnode_get_string(dnode, "action"), yang_dnode_get_string(dnode, "text"));
}

static int cl_entry_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	uint64_t sa = yang_dnode_get_uint(a, 0, "seq"), sb = yang_dnode_get_uint(b, 0, "seq");

	return sa < sb ? -1 : sa > sb;
}

static const struct nb_node_info cl_nb_nodes[] = {
	{
		.xpath = CL_XPATH,
		.cbs = { .destroy = cl_destroy, .cli_show = cl_show, .cli_cmp = cl_cmp },
	},
	{
		.xpath = CL_XPATH "/type",
		.cbs = { .modify = cl_type_modify },
	},
	{
		.xpath = CL_XPATH "/entry",
		.cbs = { .destroy = cl_entry_destroy,
			 .apply_finish = cl_entry_apply_finish,
			 .cli_show = cl_entry_show,
			 .cli_cmp = cl_entry_cmp },
	},
	{
		.xpath = CL_XPATH "/entry/text",
		.cbs = { .modify = cl_entry_text_modify },
	},
	{
		.xpath = LCL_XPATH,
		.cbs = { .destroy = cl_destroy, .cli_show = cl_show, .cli_cmp = cl_cmp },
	},
	{
		.xpath = LCL_XPATH "/type",
		.cbs = { .modify = cl_type_modify },
	},
	{
		.xpath = LCL_XPATH "/entry",
		.cbs = { .destroy = cl_entry_destroy,
			 .apply_finish = cl_entry_apply_finish,
			 .cli_show = cl_entry_show,
			 .cli_cmp = cl_entry_cmp },
	},
	{
		.xpath = LCL_XPATH "/entry/text",
		.cbs = { .modify = cl_entry_text_modify },
	},
	{
		.xpath = ECL_XPATH,
		.cbs = { .destroy = cl_destroy, .cli_show = cl_show, .cli_cmp = cl_cmp },
	},
	{
		.xpath = ECL_XPATH "/type",
		.cbs = { .modify = cl_type_modify },
	},
	{
		.xpath = ECL_XPATH "/entry",
		.cbs = { .destroy = cl_entry_destroy,
			 .apply_finish = cl_entry_apply_finish,
			 .cli_show = cl_entry_show,
			 .cli_cmp = cl_entry_cmp },
	},
	{
		.xpath = ECL_XPATH "/entry/text",
		.cbs = { .modify = cl_entry_text_modify },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info cl_nb_module = {
	.name = "skua-policy",
	.nodes = cl_nb_nodes,
};

/* ---- commands ---------------------------------------------------------------------------- */

static int cl_edit(struct vty *vty, const struct cmd_args *args, enum cl_kind k, bool no)
{
	static const char *const xpaths[] = { CL_XPATH, LCL_XPATH, ECL_XPATH };
	const struct cl_ops *ops = &cl_ops[k];
	const char *num = cmd_arg(args, "num");
	const char *name = num ? num : cmd_arg(args, "name");
	const char *type = !num ? cmd_arg(args, "type") : atoi(num) < 100 ? "standard" : "expanded";
	const struct lyd_node *list_node;
	char list[XPATH_MAX], canonical[1100];
	struct policy_entry_edit e = {
		.kind = ops->human,
		.list_xpath = list,
		.text_leaf = "text",
		.name = name,
		.action = cmd_arg(args, "action"),
		.text = cmd_arg(args, "LINE..."),
		.has_seq = cmd_has(args, "seq"),
		.seq = cmd_arg_u64(args, "seq", 0),
		.list_leaf = "type",
		.list_value = type,
	};

	if (strchr(name, '\'')) {
		vty_out(vty, "%% A community list name cannot contain a quote (')\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	/* FRR keeps (and prints) a standard large or extended community entry's values
	 * sorted. */
	if (ops->canonical && e.text && type && strcmp(type, "standard") == 0 &&
	    ops->canonical(e.text, canonical, sizeof(canonical)) == 0)
		e.text = canonical;
	snprintf(list, sizeof(list), "%s[name='%s']", xpaths[k], name);
	list_node = nb_cli_get(vty, "%s", list);
	if (list_node && type && strcmp(yang_dnode_get_string(list_node, "type"), type) != 0) {
		vty_out(vty, "%% %s %s is %s: remove it first to make it %s\n", e.kind, name,
			yang_dnode_get_string(list_node, "type"), type);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return policy_entry_edit(vty, &e, no);
}

#define CL_STR                                           \
	BGP_STR "Add a community list entry\n"           \
		"Add a standard community-list entry\n"  \
		"Add an expanded community-list entry\n" \
		"Community list name\n"
#define CL_ENTRY_HELP                   \
	"Sequence number of an entry\n" \
	"Sequence number\n"             \
	"Specify community to reject\n" \
	"Specify community to accept\n" \
	"Communities (AA:NN or well-known names), or a regular expression\n"

DEFCMD(bgp_community_list,
       "bgp community-list <standard|expanded>$type WORD$name [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       CL_STR CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_COMM, false);
}

DEFCMD(no_bgp_community_list,
       "no bgp community-list <standard|expanded>$type WORD$name [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR CL_STR CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_COMM, true);
}

#define NUM_HELP                             \
	"Community list number (standard)\n" \
	"Community list number (expanded)\n"

DEFCMD(bgp_community_list_num,
       "bgp community-list <(1-99)|(100-500)>$num [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       BGP_STR "Add a community list entry\n" NUM_HELP CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_COMM, false);
}

DEFCMD(no_bgp_community_list_num,
       "no bgp community-list <(1-99)|(100-500)>$num [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR BGP_STR "Add a community list entry\n" NUM_HELP CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_COMM, true);
}

DEFCMD(bgp_lcommunity_list_num,
       "bgp large-community-list <(1-99)|(100-500)>$num [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       BGP_STR "Add a large community list entry\n" NUM_HELP CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_LCOMM, false);
}

DEFCMD(no_bgp_lcommunity_list_num,
       "no bgp large-community-list <(1-99)|(100-500)>$num [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR BGP_STR "Add a large community list entry\n" NUM_HELP CL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_LCOMM, true);
}

#define LCL_STR                                                \
	BGP_STR "Add a large community list entry\n"           \
		"Add a standard large community-list entry\n"  \
		"Add an expanded large community-list entry\n" \
		"Large community list name\n"
#define LCL_ENTRY_HELP                        \
	"Sequence number of an entry\n"       \
	"Sequence number\n"                   \
	"Specify large community to reject\n" \
	"Specify large community to accept\n" \
	"Large communities (GLOBAL:LOCAL1:LOCAL2), or a regular expression\n"

DEFCMD(bgp_lcommunity_list,
       "bgp large-community-list <standard|expanded>$type WORD$name [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       LCL_STR LCL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_LCOMM, false);
}

DEFCMD(no_bgp_lcommunity_list,
       "no bgp large-community-list <standard|expanded>$type WORD$name [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR LCL_STR LCL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_LCOMM, true);
}

#define ECL_STR                                                   \
	BGP_STR "Add a extended community list entry\n"           \
		"Add a standard extended community-list entry\n"  \
		"Add an expanded extended community-list entry\n" \
		"Extended community list name\n"
#define ECL_ENTRY_HELP                  \
	"Sequence number of an entry\n" \
	"Sequence number\n"             \
	"Specify community to reject\n" \
	"Specify community to accept\n" \
	"Extended communities (rt|soo ASN:NN|A.B.C.D:NN), or a regular expression\n"

DEFCMD(bgp_ecommunity_list,
       "bgp extcommunity-list <standard|expanded>$type WORD$name [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       ECL_STR ECL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_ECOMM, false);
}

DEFCMD(no_bgp_ecommunity_list,
       "no bgp extcommunity-list <standard|expanded>$type WORD$name [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR ECL_STR ECL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_ECOMM, true);
}

DEFCMD(bgp_ecommunity_list_num,
       "bgp extcommunity-list <(1-99)|(100-500)>$num [seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...",
       BGP_STR "Add a extended community list entry\n" NUM_HELP ECL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_ECOMM, false);
}

DEFCMD(no_bgp_ecommunity_list_num,
       "no bgp extcommunity-list <(1-99)|(100-500)>$num [[seq (0-4294967295)$seq] "
       "<deny|permit>$action LINE...]",
       NO_STR BGP_STR "Add a extended community list entry\n" NUM_HELP ECL_ENTRY_HELP)
{
	return cl_edit(vty, args, CL_ECOMM, true);
}

void bgp_clist_cli_init(void)
{
	nb_module_register(&cl_nb_module);
	cmd_install(CONFIG_NODE, &bgp_community_list_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_community_list_cmd);
	cmd_install(CONFIG_NODE, &bgp_community_list_num_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_community_list_num_cmd);
	cmd_install(CONFIG_NODE, &bgp_lcommunity_list_num_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_lcommunity_list_num_cmd);
	cmd_install(CONFIG_NODE, &bgp_lcommunity_list_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_lcommunity_list_cmd);
	cmd_install(CONFIG_NODE, &bgp_ecommunity_list_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_ecommunity_list_cmd);
	cmd_install(CONFIG_NODE, &bgp_ecommunity_list_num_cmd);
	cmd_install(CONFIG_NODE, &no_bgp_ecommunity_list_num_cmd);
}
