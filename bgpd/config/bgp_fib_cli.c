/* SPDX-License-Identifier: ISC */
/*
 * Forwarding and redistribution settings: commands, northbound callbacks and running-config
 * printers.
 *
 *   router bgp ASN
 *    no bgp fib install         skua: install nothing, track no next hops (as bgpd --no-fib)
 *    bgp fib table (1-4294967295)   skua: the kernel table (default main, 254)
 *    bgp fib retain             skua: leave bgpd's routes in the kernel at shutdown
 *    address-family ipv4|ipv6 unicast
 *     maximum-paths (1-64)          FRR: eBGP multipath (default 64, FRR's MULTIPATH_NUM)
 *     maximum-paths ibgp (1-64)     FRR: iBGP multipath
 *
 * The three fib leaves are applied together (their container's apply_finish), so moving the
 * table and retaining in one commit is one change for bgpd/fib/bgp_fib.c.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define FIB_CMD_STR         \
	"BGP information\n" \
	"Routes installed in the kernel (skua; FRR leaves it to zebra)\n"
#define MAXPATHS_STR "Forward packets over multiple paths\n"
#define MAXPATHS_N_STR "Number of paths\n"

/* ---- northbound ---- */

void bgp_nb_fib_apply_finish(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();

	if (!bgp)
		return;
	bgp->fib_install = yang_dnode_get_bool(args->dnode, true, "install");
	bgp->fib_table = (uint32_t)yang_dnode_get_uint(args->dnode, BGP_FIB_TABLE_DEFAULT, "table");
	bgp->fib_retain = yang_dnode_get_bool(args->dnode, false, "retain");
	bgp_fib_config_changed(bgp);
}

static enum bgp_af af_of(const struct lyd_node *dnode)
{
	return yang_dnode_ancestor(dnode, "ipv6-unicast") ? BGP_AF_IPV6_UNICAST
							  : BGP_AF_IPV4_UNICAST;
}

static int maxpaths_set(struct nb_cb_args *args, bool ibgp, unsigned n)
{
	struct bgp *bgp = bgp_get();
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	af = af_of(args->dnode);
	bgp->maxpaths[af][ibgp] = (uint16_t)n;
	bgp_maxpaths_changed(bgp, af);
	return NB_OK;
}

int bgp_nb_maxpaths_modify(struct nb_cb_args *args)
{
	return maxpaths_set(args, false, (unsigned)strtoul(lyd_get_value(args->dnode), NULL, 10));
}

int bgp_nb_maxpaths_ibgp_modify(struct nb_cb_args *args)
{
	return maxpaths_set(args, true, (unsigned)strtoul(lyd_get_value(args->dnode), NULL, 10));
}

int bgp_nb_maxpaths_destroy(struct nb_cb_args *args)
{
	return maxpaths_set(args, false, BGP_MAXPATHS_DEFAULT);
}

int bgp_nb_maxpaths_ibgp_destroy(struct nb_cb_args *args)
{
	return maxpaths_set(args, true, BGP_MAXPATHS_DEFAULT);
}

static struct bgp_redist *redist_of(const struct lyd_node *dnode)
{
	const struct lyd_node *entry = yang_dnode_ancestor(dnode, "redistribute");
	const char *type = entry ? yang_dnode_get_string(entry, "type") : NULL;
	struct bgp *bgp = bgp_get();
	enum bgp_redist_type t = BGP_REDIST_KERNEL;

	if (!bgp || !type)
		return NULL;
	if (strcmp(type, "connected") == 0)
		t = BGP_REDIST_CONNECTED;
	else if (strcmp(type, "static") == 0)
		t = BGP_REDIST_STATIC;
	return &bgp->redist[af_of(dnode)][t];
}

static int redist_apply(struct nb_cb_args *args,
			void (*edit)(struct bgp_redist *r, const struct lyd_node *dnode))
{
	struct bgp_redist *r;

	if (args->event != NB_EV_APPLY || !(r = redist_of(args->dnode)))
		return NB_OK;
	edit(r, args->dnode);
	bgp_redist_changed(bgp_get());
	return NB_OK;
}

static void redist_on(struct bgp_redist *r, const struct lyd_node *dnode)
{
	(void)dnode;
	memset(r, 0, sizeof(*r));
	r->on = true;
}

static void redist_off(struct bgp_redist *r, const struct lyd_node *dnode)
{
	(void)dnode;
	memset(r, 0, sizeof(*r));
}

static void redist_metric(struct bgp_redist *r, const struct lyd_node *dnode)
{
	r->metric_set = true;
	r->metric = (uint32_t)strtoul(lyd_get_value(dnode), NULL, 10);
}

static void redist_no_metric(struct bgp_redist *r, const struct lyd_node *dnode)
{
	(void)dnode;
	r->metric_set = false;
	r->metric = 0;
}

static void redist_rmap(struct bgp_redist *r, const struct lyd_node *dnode)
{
	snprintf(r->rmap, sizeof(r->rmap), "%s", lyd_get_value(dnode));
}

static void redist_no_rmap(struct bgp_redist *r, const struct lyd_node *dnode)
{
	(void)dnode;
	r->rmap[0] = '\0';
}

int bgp_nb_redist_create(struct nb_cb_args *args)
{
	return redist_apply(args, redist_on);
}

int bgp_nb_redist_destroy(struct nb_cb_args *args)
{
	return redist_apply(args, redist_off);
}

int bgp_nb_redist_metric_modify(struct nb_cb_args *args)
{
	return redist_apply(args, redist_metric);
}

int bgp_nb_redist_metric_destroy(struct nb_cb_args *args)
{
	return redist_apply(args, redist_no_metric);
}

int bgp_nb_redist_rmap_modify(struct nb_cb_args *args)
{
	return redist_apply(args, redist_rmap);
}

int bgp_nb_redist_rmap_destroy(struct nb_cb_args *args)
{
	return redist_apply(args, redist_no_rmap);
}

/* ---- printers ---- */

void bgp_print_fib(struct sbuf *out, const struct lyd_node *dnode)
{
	uint64_t table = yang_dnode_get_uint(dnode, BGP_FIB_TABLE_DEFAULT, "table");

	if (!yang_dnode_get_bool(dnode, true, "install"))
		sbuf_puts(out, " no bgp fib install\n");
	if (table != BGP_FIB_TABLE_DEFAULT)
		sbuf_printf(out, " bgp fib table %" PRIu64 "\n", table);
	if (yang_dnode_get_bool(dnode, false, "retain"))
		sbuf_puts(out, " bgp fib retain\n");
}

void bgp_fib_af_write_redistribute(struct sbuf *body, const struct lyd_node *bgp,
				   const char *af_name)
{
	/* FRR's order: by type (kernel, connected, static). */
	static const char *const types[] = { "kernel", "connected", "static" };

	for (size_t i = 0; i < array_size(types); i++) {
		const struct lyd_node *e = yang_dnode_get(
			bgp, "afi-safis/%s/redistribute[type='%s']", af_name, types[i]);
		const char *metric, *rmap;

		if (!e)
			continue;
		metric = yang_dnode_get_string(e, "metric");
		rmap = yang_dnode_get_string(e, "route-map");
		sbuf_printf(body, "  redistribute %s%s%s%s%s\n", types[i], metric ? " metric " : "",
			    metric ? metric : "", rmap ? " route-map " : "", rmap ? rmap : "");
	}
}

void bgp_fib_af_write_maxpaths(struct sbuf *body, const struct lyd_node *bgp, const char *af_name)
{
	uint64_t ebgp = yang_dnode_get_uint(bgp, BGP_MAXPATHS_DEFAULT, "afi-safis/%s/maximum-paths",
					    af_name);
	uint64_t ibgp = yang_dnode_get_uint(bgp, BGP_MAXPATHS_DEFAULT,
					    "afi-safis/%s/maximum-paths-ibgp", af_name);

	if (ebgp != BGP_MAXPATHS_DEFAULT)
		sbuf_printf(body, "  maximum-paths %" PRIu64 "\n", ebgp);
	if (ibgp != BGP_MAXPATHS_DEFAULT)
		sbuf_printf(body, "  maximum-paths ibgp %" PRIu64 "\n", ibgp);
}

/* ---- commands ---- */

#define REDIST_STR                                                 \
	"Redistribute information from another routing protocol\n" \
	"Connected routes (directly attached subnet or host)\n"    \
	"Statically configured routes\n"                           \
	"Kernel routes (not installed via the zebra RIB)\n"
#define REDIST_OPT_STR                      \
	"Metric for redistributed routes\n" \
	"Default metric\n"                  \
	"Route map reference\n"             \
	"Pointer to route-map entries\n"

DEFCMD(bgp_redist,
       "[no] redistribute <connected|static|kernel>$type [{metric (0-4294967295)$metric|route-map "
       "RMAP_NAME$rmap}]",
       NO_STR REDIST_STR REDIST_OPT_STR)
{
	const char *type = cmd_arg(args, "type"), *metric = cmd_arg(args, "metric"),
		   *rmap = cmd_arg(args, "rmap");
	char xpath[128];

	snprintf(xpath, sizeof(xpath), "./redistribute[type='%s']", type);
	if (cmd_has(args, "no")) {
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	if (rmap && strlen(rmap) >= BGP_RMAP_NAME_MAX) {
		vty_out(vty, "%% route-map name too long (at most %d characters)\n",
			BGP_RMAP_NAME_MAX - 1);
		return CMD_WARNING_CONFIG_FAILED;
	}
	/* The whole statement replaces the previous one, as in FRR. */
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	snprintf(xpath, sizeof(xpath), "./redistribute[type='%s']/metric", type);
	nb_cli_enqueue_change(vty, xpath, metric ? NB_OP_MODIFY : NB_OP_DESTROY, metric);
	snprintf(xpath, sizeof(xpath), "./redistribute[type='%s']/route-map", type);
	nb_cli_enqueue_change(vty, xpath, rmap ? NB_OP_MODIFY : NB_OP_DESTROY, rmap);
	return nb_cli_apply_changes(vty, NULL);
}

static int fib_leaf(struct vty *vty, const char *leaf, enum nb_operation op, const char *value)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./fib/%s", leaf);
	nb_cli_enqueue_change(vty, xpath, op, value);
	return nb_cli_apply_changes(vty, NULL);
}

/* A switch of the fib container: on, or off by the negation. */
static int fib_switch(struct vty *vty, const struct cmd_args *args, const char *leaf)
{
	return fib_leaf(vty, leaf, NB_OP_MODIFY, cmd_has(args, "no") ? "false" : "true");
}

DEFCMD(bgp_fib_install, "[no] bgp fib install",
       NO_STR FIB_CMD_STR "Install the best routes (default)\n")
{
	return fib_switch(vty, args, "install");
}

DEFCMD(bgp_fib_table, "bgp fib table (1-4294967295)$table",
       FIB_CMD_STR "Kernel routing table to install into (default 254, main)\n"
		   "Table number (not 253, 255: default and local)\n")
{
	return fib_leaf(vty, "table", NB_OP_MODIFY, cmd_arg(args, "table"));
}

DEFCMD(no_bgp_fib_table, "no bgp fib table [(1-4294967295)]",
       NO_STR FIB_CMD_STR "Kernel routing table to install into (default 254, main)\n"
			  "Table number\n")
{
	return fib_leaf(vty, "table", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_fib_retain, "[no] bgp fib retain",
       NO_STR FIB_CMD_STR "Leave the installed routes in the kernel when bgpd stops\n")
{
	return fib_switch(vty, args, "retain");
}

static int maxpaths_edit(struct vty *vty, const char *leaf, const char *value)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, value ? NB_OP_MODIFY : NB_OP_DESTROY, value);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(bgp_maxpaths, "maximum-paths (1-64)$n", MAXPATHS_STR MAXPATHS_N_STR)
{
	return maxpaths_edit(vty, "maximum-paths", cmd_arg(args, "n"));
}

DEFCMD(no_bgp_maxpaths, "no maximum-paths [(1-64)]", NO_STR MAXPATHS_STR MAXPATHS_N_STR)
{
	return maxpaths_edit(vty, "maximum-paths", NULL);
}

DEFCMD(bgp_maxpaths_ibgp, "maximum-paths ibgp (1-64)$n",
       MAXPATHS_STR "iBGP-multipath\n" MAXPATHS_N_STR)
{
	return maxpaths_edit(vty, "maximum-paths-ibgp", cmd_arg(args, "n"));
}

DEFCMD(no_bgp_maxpaths_ibgp, "no maximum-paths ibgp [(1-64)]",
       NO_STR MAXPATHS_STR "iBGP-multipath\n" MAXPATHS_N_STR)
{
	return maxpaths_edit(vty, "maximum-paths-ibgp", NULL);
}

void bgp_fib_cli_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&bgp_fib_install_cmd,
		&bgp_fib_table_cmd,
		&no_bgp_fib_table_cmd,
		&bgp_fib_retain_cmd,
	};
	static const struct cmd_def *const af_cmds[] = {
		&bgp_redist_cmd,	&bgp_maxpaths_cmd,	   &no_bgp_maxpaths_cmd,
		&bgp_maxpaths_ibgp_cmd, &no_bgp_maxpaths_ibgp_cmd,
	};

	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
	bgp_cli_install(BGP_IPV4_NODE, af_cmds, array_size(af_cmds));
	bgp_cli_install(BGP_IPV6_NODE, af_cmds, array_size(af_cmds));
}
