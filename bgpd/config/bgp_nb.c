/* SPDX-License-Identifier: ISC */
/*
 * skua-bgp schema paths -> callbacks and printers (FRR's ripd/rip_nb.c pattern): the rows of
 * the instance, written out here (those of neighbors and peer-groups are made from their
 * settings in bgp_nb_neighbor.c), and bgp_config_init().
 *
 * Grouping: settings that only make sense together are applied once per commit by the
 * apply_finish of their container (global timers, a neighbor's remote-as, timers and
 * update-source), so the session side never sees half of `timers 10 30`.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/session/bgp_dynamic.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/system_cli.h"

static const struct nb_node_info bgp_nb_nodes[] = {
	{
		.xpath = BGP_XPATH,
		.cbs = { .create = bgp_nb_instance_create,
			 .destroy = bgp_nb_instance_destroy,
			 .apply_finish = bgp_nb_instance_apply_finish,
			 .cli_show = bgp_print_instance,
			 .cli_show_end = bgp_print_instance_end },
	},
	{
		.xpath = BGP_XPATH "/local-as",
		.cbs = { .modify = bgp_nb_local_as_modify },
		.missing_msg = "No BGP process is configured (router bgp ASN first)",
	},
	{
		.xpath = BGP_XPATH "/router-id",
		.cbs = { .modify = bgp_nb_router_id_modify,
			 .destroy = bgp_nb_router_id_destroy,
			 .cli_show = bgp_print_router_id },
	},
	{
		.xpath = BGP_XPATH "/log-neighbor-changes",
		.cbs = { .modify = bgp_nb_log_neighbor_changes_modify,
			 .cli_show = bgp_print_log_neighbor_changes },
	},
	{
		.xpath = BGP_XPATH "/always-compare-med",
		.cbs = { .modify = bgp_nb_always_compare_med_modify,
			 .cli_show = bgp_print_always_compare_med },
	},
	{
		.xpath = BGP_XPATH "/ebgp-requires-policy",
		.cbs = { .modify = bgp_nb_ebgp_requires_policy_modify,
			 .cli_show = bgp_print_ebgp_requires_policy },
	},
	{
		.xpath = BGP_XPATH "/default-ipv4-unicast",
		.cbs = { .modify = bgp_nb_default_ipv4_modify, .cli_show = bgp_print_default_ipv4 },
	},
	{
		.xpath = BGP_XPATH "/network-import-check",
		.cbs = { .modify = bgp_nb_network_import_check_modify,
			 .cli_show = bgp_print_network_import_check },
	},
	{
		.xpath = BGP_XPATH "/cluster-id",
		.cbs = { .modify = bgp_nb_cluster_id_modify,
			 .destroy = bgp_nb_cluster_id_destroy,
			 .cli_show = bgp_print_cluster_id },
	},
	{
		.xpath = BGP_XPATH "/deterministic-med",
		.cbs = { .modify = bgp_nb_deterministic_med_modify,
			 .cli_show = bgp_print_deterministic_med },
	},
	{
		.xpath = BGP_XPATH "/graceful-shutdown",
		.cbs = { .modify = bgp_nb_graceful_shutdown_modify,
			 .cli_show = bgp_print_graceful_shutdown },
	},
	{
		.xpath = BGP_XPATH "/bestpath",
		.cbs = { .apply_finish = bgp_nb_bestpath_apply_finish,
			 .cli_show = bgp_print_bestpath },
	},
	{
		.xpath = BGP_XPATH "/fib",
		.cbs = { .apply_finish = bgp_nb_fib_apply_finish, .cli_show = bgp_print_fib },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/maximum-paths",
		.cbs = { .modify = bgp_nb_maxpaths_modify, .destroy = bgp_nb_maxpaths_destroy },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/maximum-paths-ibgp",
		.cbs = { .modify = bgp_nb_maxpaths_ibgp_modify,
			 .destroy = bgp_nb_maxpaths_ibgp_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/maximum-paths",
		.cbs = { .modify = bgp_nb_maxpaths_modify, .destroy = bgp_nb_maxpaths_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/maximum-paths-ibgp",
		.cbs = { .modify = bgp_nb_maxpaths_ibgp_modify,
			 .destroy = bgp_nb_maxpaths_ibgp_destroy },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/redistribute",
		.cbs = { .create = bgp_nb_redist_create, .destroy = bgp_nb_redist_destroy },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/redistribute/metric",
		.cbs = { .modify = bgp_nb_redist_metric_modify,
			 .destroy = bgp_nb_redist_metric_destroy },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/redistribute/route-map",
		.cbs = { .modify = bgp_nb_redist_rmap_modify,
			 .destroy = bgp_nb_redist_rmap_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/redistribute",
		.cbs = { .create = bgp_nb_redist_create, .destroy = bgp_nb_redist_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/redistribute/metric",
		.cbs = { .modify = bgp_nb_redist_metric_modify,
			 .destroy = bgp_nb_redist_metric_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/redistribute/route-map",
		.cbs = { .modify = bgp_nb_redist_rmap_modify,
			 .destroy = bgp_nb_redist_rmap_destroy },
	},
	{
		.xpath = BGP_XPATH "/timers",
		.cbs = { .apply_finish = bgp_nb_timers_apply_finish, .cli_show = bgp_print_timers },
	},
	{
		.xpath = BGP_XPATH "/listen",
		.cbs = { .cli_show = bgp_print_listen },
	},
	{
		.xpath = BGP_XPATH "/listen/range",
		.cbs = { .cli_cmp = bgp_print_range_cmp },
	},
	{
		/* Printed by the instance's cli_show_end, inside the address-family blocks. */
		.xpath = BGP_AF_IPV4_XPATH "/network",
		.cbs = { .create = bgp_nb_network_create, .destroy = bgp_nb_network_destroy },
	},
	{
		.xpath = BGP_AF_IPV4_XPATH "/network/route-map",
		.cbs = { .modify = bgp_nb_network_rmap_modify,
			 .destroy = bgp_nb_network_rmap_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/network",
		.cbs = { .create = bgp_nb_network_create, .destroy = bgp_nb_network_destroy },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/network/route-map",
		.cbs = { .modify = bgp_nb_network_rmap_modify,
			 .destroy = bgp_nb_network_rmap_destroy },
	},
	{
		/* Printed inside the address-family blocks too (bgp_aggregate_cli.c). */
		.xpath = BGP_AF_IPV4_XPATH "/aggregate-address",
		.cbs = { .destroy = bgp_nb_aggregate_destroy,
			 .apply_finish = bgp_nb_aggregate_apply_finish },
	},
	{
		.xpath = BGP_AF_IPV6_XPATH "/aggregate-address",
		.cbs = { .destroy = bgp_nb_aggregate_destroy,
			 .apply_finish = bgp_nb_aggregate_apply_finish },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info bgp_nb_module = {
	.name = "skua-bgp",
	.nodes = bgp_nb_nodes,
	.validate_tree = bgp_nb_validate_tree,
	.expand_tree = bgp_nb_expand_tree,
};

static struct event_base *config_base;

void bgp_config_set_event_base(struct event_base *base)
{
	config_base = base;
}

struct event_base *bgp_config_event_base(void)
{
	return config_base;
}

/* The session side's dynamic neighbors came or went: expand running again. */
static int dynamic_apply(char *why, size_t whylen)
{
	struct nb_error err;

	if (nb_running_reexpand(&err) == 0)
		return 0;
	snprintf(why, whylen, "%s", err.msg);
	return -1;
}

void bgp_config_init(void)
{
	nb_init();
	nb_set_event_loop(bgp_config_event_base); /* the timer of `commit confirmed` */
	nb_cli_init();
	system_cli_init(); /* first: it prints first */
	nb_module_register(&bgp_nb_module);
	bgp_nb_neighbor_register();
	plist_cli_init(); /* policy prints after router bgp, as in FRR */
	bgp_clist_cli_init();
	bgp_aspath_list_cli_init();
	bgp_routemap_cli_init();
	bgp_rpki_cli_init(); /* after the route-maps: FRR prints the rpki block last */
	bgp_cli_init();
	bgp_fib_cli_init();
	bgp_gr_cli_init();
	bgp_gshut_cli_init();
	bgp_bestpath_cli_init();
	bgp_aggregate_cli_init();
	bgp_llgr_cli_init();
	bgp_cli_unsupported_init();
	bgp_dynamic_set_apply(dynamic_apply);
}
