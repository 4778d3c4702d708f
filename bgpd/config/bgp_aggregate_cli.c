/* SPDX-License-Identifier: ISC */
/*
 * aggregate-address (FRR's command) in `address-family ipv4|ipv6 unicast`: the commands, their
 * northbound callbacks and their running-config lines. What the RIB does with an aggregate is
 * in bgpd/rib/bgp_rib_aggregate.c.
 *
 *   aggregate-address P [{as-set|summary-only|route-map NAME|origin igp|egp|incomplete|
 *                         matching-MED-only|suppress-map NAME}]
 *       (P: A.B.C.D/M or X:X::X:X/M) originate the prefix while a more specific route exists
 *       (ATOMIC_AGGREGATE and AGGREGATOR set, as FRR 8.4); as-set: the contributors' AS paths
 *       in an AS_SET and their communities, no ATOMIC_AGGREGATE; summary-only: send no more
 *       specific to any neighbor meanwhile; the other options: bgpd/rib/bgp_rib_aggregate.c.
 *       The options in any order, as FRR's parser takes them; printed in FRR's order.
 *
 * A line replaces the aggregate's options, as FRR's does (`aggregate-address P` after
 * `aggregate-address P summary-only` drops summary-only); `no aggregate-address P [...]` removes
 * the aggregate whatever options follow.
 *
 * As FRR, host bits are cleared rather than refused, a host prefix (/32, /128) is refused as
 * aggregating nothing, and the lines follow the `network` lines in prefix order.
 */
#include "lib/compat.h"

#include <string.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/config/bgp_netmask.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/command.h"
#include "lib/log.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/sbuf.h"
#include "lib/vty.h"
#include "lib/yang.h"

/* The aggregate of the list entry agg to the RIB: added (or its options changed), or removed.
 * The options are read whole from the new tree once every leaf of the commit is applied (the
 * entry's apply_finish), so the RIB never sees a part of them. */
static void aggregate_change(const struct lyd_node *agg, bool add)
{
	struct bgp *bgp = bgp_get();
	struct rib_aggregate_opts opts = { 0 };
	enum bgp_af af;
	const char *s;
	struct prefix p;

	if (!bgp)
		return;
	s = yang_dnode_get_string(agg, "prefix");
	if (!s || prefix_from_str(&p, s, false) < 0)
		return;
	af = yang_dnode_ancestor(agg, "ipv6-unicast") ? BGP_AF_IPV6_UNICAST : BGP_AF_IPV4_UNICAST;
	if (!add) {
		rib_aggregate_del(bgp, af, &p);
		return;
	}
	opts.as_set = yang_dnode_exists(agg, "as-set");
	opts.summary_only = yang_dnode_exists(agg, "summary-only");
	opts.match_med = yang_dnode_exists(agg, "matching-MED-only");
	if (yang_dnode_exists(agg, "route-map"))
		snprintf(opts.rmap, sizeof(opts.rmap), "%s",
			 yang_dnode_get_string(agg, "route-map"));
	if (yang_dnode_exists(agg, "suppress-map"))
		snprintf(opts.suppress_map, sizeof(opts.suppress_map), "%s",
			 yang_dnode_get_string(agg, "suppress-map"));
	s = yang_dnode_exists(agg, "origin") ? yang_dnode_get_string(agg, "origin") : NULL;
	if (s) {
		opts.origin_set = true;
		opts.origin = strcmp(s, "egp") == 0	     ? BGP_ORIGIN_EGP
			      : strcmp(s, "incomplete") == 0 ? BGP_ORIGIN_INCOMPLETE
							     : BGP_ORIGIN_IGP;
	}
	rib_aggregate_add(bgp, af, &p, &opts);
}

void bgp_nb_aggregate_apply_finish(struct nb_cb_args *args)
{
	aggregate_change(args->dnode, true);
}

int bgp_nb_aggregate_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		aggregate_change(args->dnode, false);
	return NB_OK;
}

static int aggregate_cmp(const void *a, const void *b)
{
	const char *sx = yang_dnode_get_string(*(const struct lyd_node *const *)a, "prefix");
	const char *sy = yang_dnode_get_string(*(const struct lyd_node *const *)b, "prefix");
	struct prefix px, py;

	if (!sx || !sy || prefix_from_str(&px, sx, false) < 0 ||
	    prefix_from_str(&py, sy, false) < 0)
		return strcmp(sx ? sx : "", sy ? sy : "");
	return prefix_cmp(&px, &py);
}

/* One line, the options in FRR 8.4's order (bgp_config_write_network()). */
static void print_aggregate(struct sbuf *out, const struct lyd_node *agg)
{
	sbuf_printf(out, "  aggregate-address %s", yang_dnode_get_string(agg, "prefix"));
	if (yang_dnode_exists(agg, "as-set"))
		sbuf_puts(out, " as-set");
	if (yang_dnode_exists(agg, "summary-only"))
		sbuf_puts(out, " summary-only");
	if (yang_dnode_exists(agg, "route-map"))
		sbuf_printf(out, " route-map %s", yang_dnode_get_string(agg, "route-map"));
	if (yang_dnode_exists(agg, "origin"))
		sbuf_printf(out, " origin %s", yang_dnode_get_string(agg, "origin"));
	if (yang_dnode_exists(agg, "matching-MED-only"))
		sbuf_puts(out, " matching-MED-only");
	if (yang_dnode_exists(agg, "suppress-map"))
		sbuf_printf(out, " suppress-map %s", yang_dnode_get_string(agg, "suppress-map"));
	sbuf_puts(out, "\n");
}

void bgp_print_aggregates(struct sbuf *out, const struct lyd_node *bgp, const char *af_name)
{
	const struct lyd_node **v = NULL;
	struct ly_set *set = NULL;
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "afi-safis/%s/aggregate-address", af_name);
	if (lyd_find_xpath(bgp, xpath, &set) != LY_SUCCESS || !set->count) {
		ly_set_free(set, NULL);
		return;
	}
	v = XCALLOC(MTYPE_BGP_CONFIG_WRITE, set->count * sizeof(*v));
	for (uint32_t i = 0; i < set->count; i++)
		v[i] = set->dnodes[i];
	qsort(v, set->count, sizeof(*v), aggregate_cmp);
	for (uint32_t i = 0; i < set->count; i++)
		print_aggregate(out, v[i]);
	XFREE(MTYPE_BGP_CONFIG_WRITE, v);
	ly_set_free(set, NULL);
}

/* [no] aggregate-address P [OPTIONS] in the address family af_xpath (P: s). */
static int aggregate_edit(struct vty *vty, const struct cmd_args *args, const char *af_xpath,
			  const char *s)
{
	/* The empty leaves, and the valued ones with the argument that carries each. */
	static const char *const flags[] = { "as-set", "summary-only", "matching-MED-only" };
	static const struct {
		const char *leaf, *arg;
	} valued[] = { { "route-map", "rmap" },
		       { "suppress-map", "smap" },
		       { "origin", "origin" } };
	char canon[PREFIX_STRLEN], xpath[XPATH_MAX], leaf[XPATH_MAX + 16];
	bool no = cmd_has(args, "no");
	struct prefix p;

	if (!s || prefix_from_str(&p, s, false) < 0) {
		vty_out(vty, "%% Malformed prefix\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	/* FRR clears the host bits without a word; so do we, and print the cleared form. */
	prefix_apply_mask(&p);
	if (p.len == (p.family == AF_INET ? 32 : 128)) {
		vty_out(vty,
			"%% Specified prefix: %s will not result in any useful aggregation, "
			"disallowing\n",
			s);
		return CMD_WARNING_CONFIG_FAILED;
	}
	prefix_to_str(&p, canon, sizeof(canon));
	snprintf(xpath, sizeof(xpath), "%s/aggregate-address[prefix='%s']", af_xpath, canon);
	if (no && !nb_cli_exists(vty, "%s", xpath)) {
		vty_out(vty, "%% There is no aggregate-address configuration.\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	if (no) {
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	for (size_t i = 0; i < array_size(valued); i++) {
		const char *v = cmd_arg(args, valued[i].arg);

		if (v && strlen(v) >= BGP_RMAP_NAME_MAX) {
			vty_out(vty, "%% Route-map name %s is too long (at most %d characters)\n",
				v, BGP_RMAP_NAME_MAX - 1);
			return CMD_WARNING_CONFIG_FAILED;
		}
	}
	nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
	for (size_t i = 0; i < array_size(flags); i++) {
		snprintf(leaf, sizeof(leaf), "%s/%s", xpath, flags[i]);
		nb_cli_enqueue_change(vty, leaf,
				      cmd_has(args, flags[i]) ? NB_OP_CREATE : NB_OP_DESTROY, NULL);
	}
	for (size_t i = 0; i < array_size(valued); i++) {
		const char *v = cmd_arg(args, valued[i].arg);

		snprintf(leaf, sizeof(leaf), "%s/%s", xpath, valued[i].leaf);
		nb_cli_enqueue_change(vty, leaf, v ? NB_OP_MODIFY : NB_OP_DESTROY, v);
	}
	return nb_cli_apply_changes(vty, NULL);
}

/* FRR 8.4's options, in any order, each at most once. */
#define AGGREGATE_OPTIONS                                                                    \
	"[{as-set|summary-only|route-map RMAP_NAME$rmap|origin <egp|igp|incomplete>$origin|" \
	"matching-MED-only|suppress-map RMAP_NAME$smap}]"
#define AGGREGATE_OPTIONS_HELP                         \
	"Generate AS set path information\n"           \
	"Filter more specific routes from updates\n"   \
	"Apply route map to aggregate network\n"       \
	"Route map name\n"                             \
	"BGP origin code\n"                            \
	"Remote EGP\n"                                 \
	"Local IGP\n"                                  \
	"Unknown heritage\n"                           \
	"Only aggregate routes with matching MED\n"    \
	"Suppress the selected more specific routes\n" \
	"Route map with the route selectors\n"

DEFCMD(bgp_aggregate4, "[no] aggregate-address A.B.C.D/M$prefix " AGGREGATE_OPTIONS,
       NO_STR "Configure BGP aggregate entries\n"
	      "Aggregate prefix\n" AGGREGATE_OPTIONS_HELP)
{
	return aggregate_edit(vty, args, BGP_AF_IPV4_XPATH, cmd_arg(args, "prefix"));
}

/* FRR's address-and-mask spelling. */
DEFCMD(bgp_aggregate4_mask, "[no] aggregate-address A.B.C.D$addr A.B.C.D$mask " AGGREGATE_OPTIONS,
       NO_STR "Configure BGP aggregate entries\n"
	      "Aggregate address\n"
	      "Aggregate mask\n" AGGREGATE_OPTIONS_HELP)
{
	char prefix[PREFIX_STRLEN], err[160];

	if (bgp_netmask_prefix(cmd_arg(args, "addr"), cmd_arg(args, "mask"), prefix, sizeof(prefix),
			       err, sizeof(err)) < 0) {
		vty_out(vty, "%% %s\n", err);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return aggregate_edit(vty, args, BGP_AF_IPV4_XPATH, prefix);
}

DEFCMD(bgp_aggregate6, "[no] aggregate-address X:X::X:X/M$prefix " AGGREGATE_OPTIONS,
       NO_STR "Configure BGP aggregate entries\n"
	      "Aggregate prefix\n" AGGREGATE_OPTIONS_HELP)
{
	return aggregate_edit(vty, args, BGP_AF_IPV6_XPATH, cmd_arg(args, "prefix"));
}

void bgp_aggregate_cli_init(void)
{
	cmd_install(BGP_IPV4_NODE, &bgp_aggregate4_cmd);
	cmd_install(BGP_IPV4_NODE, &bgp_aggregate4_mask_cmd);
	cmd_install(BGP_IPV6_NODE, &bgp_aggregate6_cmd);
}
