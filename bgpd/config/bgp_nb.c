/* SPDX-License-Identifier: ISC */
/*
 * skua-bgp schema paths -> callbacks and printers (FRR's ripd/rip_nb.c pattern), and
 * bgp_config_init().
 *
 * Grouping: settings that only make sense together are applied once per commit by the
 * apply_finish of their container (global timers, a neighbor's remote-as, timers and
 * update-source), so the session side never sees half of `timers 10 30`.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_config.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "lib/northbound_cli.h"
#include "lib/plist_cli.h"
#include "lib/system_cli.h"

#define NBR BGP_XPATH "/neighbors/neighbor"
#define PG BGP_XPATH "/peer-groups/peer-group"

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
	/* Peer-groups: no callbacks of their own. Their settings reach the members through the
	 * expanded tree (bgp_peer_group.c) and the listen ranges through the instance's
	 * apply_finish; here they only print, with the neighbor printers. */
	{
		.xpath = PG,
		.cbs = { .cli_show = bgp_print_peer_group, .cli_cmp = bgp_print_peer_group_cmp },
	},
	{ .xpath = PG "/neighbor-remote-as", .cbs = { .cli_show = bgp_print_neighbor_remote_as } },
	{ .xpath = PG "/description", .cbs = { .cli_show = bgp_print_neighbor_description } },
	{ .xpath = PG "/shutdown", .cbs = { .cli_show = bgp_print_neighbor_shutdown } },
	{ .xpath = PG "/password", .cbs = { .cli_show = bgp_print_neighbor_password } },
	{ .xpath = PG "/passive", .cbs = { .cli_show = bgp_print_neighbor_passive } },
	{ .xpath = PG "/ebgp-multihop", .cbs = { .cli_show = bgp_print_neighbor_multihop } },
	{ .xpath = PG "/ttl-security", .cbs = { .cli_show = bgp_print_neighbor_ttl_security } },
	{ .xpath = PG "/local-as", .cbs = { .cli_show = bgp_print_neighbor_local_as } },
	{ .xpath = PG "/disable-connected-check",
	  .cbs = { .cli_show = bgp_print_neighbor_connected_check } },
	{ .xpath = PG "/advertisement-interval",
	  .cbs = { .cli_show = bgp_print_neighbor_adv_interval } },
	{ .xpath = PG "/update-source", .cbs = { .cli_show = bgp_print_neighbor_update_source } },
	{ .xpath = PG "/timers", .cbs = { .cli_show = bgp_print_neighbor_timers } },
	{ .xpath = PG "/timers/connect-time", .keep_explicit_default = true },
	{
		.xpath = NBR,
		.cbs = { .create = bgp_nb_neighbor_create,
			 .destroy = bgp_nb_neighbor_destroy,
			 .cli_show = bgp_print_neighbor_head,
			 .cli_cmp = bgp_print_neighbor_cmp },
	},
	{
		.xpath = NBR "/peer-group",
		.cbs = { .modify = bgp_nb_neighbor_peer_group_modify,
			 .destroy = bgp_nb_neighbor_peer_group_destroy },
	},
	{
		/* Printed by the neighbor's head line (before its peer-group). */
		.xpath = NBR "/neighbor-remote-as",
		.cbs = { .apply_finish = bgp_nb_neighbor_remote_as_apply_finish },
	},
	{
		.xpath = NBR "/neighbor-remote-as/remote-as-type",
		.missing_msg = "Specify remote-as or peer-group commands first",
	},
	{
		.xpath = NBR "/neighbor-remote-as/remote-as",
		.missing_msg = "Specify the neighbor's AS number: neighbor PEER remote-as ASNUM",
	},
	{
		.xpath = NBR "/description",
		.cbs = { .modify = bgp_nb_neighbor_description_modify,
			 .destroy = bgp_nb_neighbor_description_destroy,
			 .cli_show = bgp_print_neighbor_description },
	},
	{
		.xpath = NBR "/shutdown",
		.cbs = { .create = bgp_nb_neighbor_shutdown_create,
			 .destroy = bgp_nb_neighbor_shutdown_destroy,
			 .cli_show = bgp_print_neighbor_shutdown },
	},
	{
		.xpath = NBR "/local-as",
		.cbs = { .create = bgp_nb_neighbor_local_as_create,
			 .destroy = bgp_nb_neighbor_local_as_destroy,
			 .apply_finish = bgp_nb_neighbor_local_as_apply_finish,
			 .cli_show = bgp_print_neighbor_local_as },
	},
	{
		.xpath = NBR "/password",
		.cbs = { .modify = bgp_nb_neighbor_password_modify,
			 .destroy = bgp_nb_neighbor_password_destroy,
			 .cli_show = bgp_print_neighbor_password },
	},
	{
		.xpath = NBR "/passive",
		.cbs = { .create = bgp_nb_neighbor_passive_create,
			 .destroy = bgp_nb_neighbor_passive_destroy,
			 .cli_show = bgp_print_neighbor_passive },
	},
	{
		.xpath = NBR "/ebgp-multihop",
		.cbs = { .modify = bgp_nb_neighbor_multihop_modify,
			 .destroy = bgp_nb_neighbor_multihop_destroy,
			 .cli_show = bgp_print_neighbor_multihop },
	},
	{
		.xpath = NBR "/ttl-security",
		.cbs = { .modify = bgp_nb_neighbor_ttl_security_modify,
			 .destroy = bgp_nb_neighbor_ttl_security_destroy,
			 .cli_show = bgp_print_neighbor_ttl_security },
	},
	{
		.xpath = NBR "/disable-connected-check",
		.cbs = { .create = bgp_nb_neighbor_connected_check_create,
			 .destroy = bgp_nb_neighbor_connected_check_destroy,
			 .cli_show = bgp_print_neighbor_connected_check },
	},
	{
		.xpath = NBR "/update-source",
		.cbs = { .destroy = bgp_nb_neighbor_update_source_destroy,
			 .apply_finish = bgp_nb_neighbor_update_source_apply_finish,
			 .cli_show = bgp_print_neighbor_update_source },
	},
	{
		.xpath = NBR "/advertisement-interval",
		.cbs = { .modify = bgp_nb_neighbor_adv_interval_modify,
			 .destroy = bgp_nb_neighbor_adv_interval_destroy,
			 .cli_show = bgp_print_neighbor_adv_interval },
	},
	{
		.xpath = NBR "/timers",
		.cbs = { .apply_finish = bgp_nb_neighbor_timers_apply_finish,
			 .cli_show = bgp_print_neighbor_timers },
	},
	{
		/* FRR prints `timers connect 120` when it was configured, default or not. */
		.xpath = NBR "/timers/connect-time",
		.keep_explicit_default = true,
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/enabled",
		.cbs = { .modify = bgp_nb_neighbor_af_enabled_modify,
			 .destroy = bgp_nb_neighbor_af_enabled_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/enabled",
		.cbs = { .modify = bgp_nb_neighbor_af_enabled_modify,
			 .destroy = bgp_nb_neighbor_af_enabled_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/route-reflector-client",
		.cbs = { .create = bgp_nb_neighbor_rr_client_create,
			 .destroy = bgp_nb_neighbor_rr_client_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/soft-reconfiguration-inbound",
		.cbs = { .create = bgp_nb_neighbor_soft_in_create,
			 .destroy = bgp_nb_neighbor_soft_in_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/remove-private-as",
		.cbs = { .modify = bgp_nb_neighbor_rpa_modify,
			 .destroy = bgp_nb_neighbor_rpa_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/send-community",
		.cbs = { .modify = bgp_nb_neighbor_send_comm_modify,
			 .destroy = bgp_nb_neighbor_send_comm_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/maximum-prefix",
		.cbs = { .create = bgp_nb_neighbor_maxpfx_create,
			 .destroy = bgp_nb_neighbor_maxpfx_destroy,
			 .apply_finish = bgp_nb_neighbor_maxpfx_apply_finish },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/allowas-in",
		.cbs = { .modify = bgp_nb_neighbor_allowas_modify,
			 .destroy = bgp_nb_neighbor_allowas_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/next-hop-self",
		.cbs = { .modify = bgp_nb_neighbor_nhs_modify,
			 .destroy = bgp_nb_neighbor_nhs_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/plist-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/filter-list-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/route-map-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/plist-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/filter-list-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv4-unicast/filter-config/route-map-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/route-reflector-client",
		.cbs = { .create = bgp_nb_neighbor_rr_client_create,
			 .destroy = bgp_nb_neighbor_rr_client_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/soft-reconfiguration-inbound",
		.cbs = { .create = bgp_nb_neighbor_soft_in_create,
			 .destroy = bgp_nb_neighbor_soft_in_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/remove-private-as",
		.cbs = { .modify = bgp_nb_neighbor_rpa_modify,
			 .destroy = bgp_nb_neighbor_rpa_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/send-community",
		.cbs = { .modify = bgp_nb_neighbor_send_comm_modify,
			 .destroy = bgp_nb_neighbor_send_comm_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/maximum-prefix",
		.cbs = { .create = bgp_nb_neighbor_maxpfx_create,
			 .destroy = bgp_nb_neighbor_maxpfx_destroy,
			 .apply_finish = bgp_nb_neighbor_maxpfx_apply_finish },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/allowas-in",
		.cbs = { .modify = bgp_nb_neighbor_allowas_modify,
			 .destroy = bgp_nb_neighbor_allowas_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/next-hop-self",
		.cbs = { .modify = bgp_nb_neighbor_nhs_modify,
			 .destroy = bgp_nb_neighbor_nhs_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/plist-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/filter-list-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/route-map-import",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/plist-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/filter-list-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
	},
	{
		.xpath = NBR "/afi-safis/ipv6-unicast/filter-config/route-map-export",
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,
			 .destroy = bgp_nb_neighbor_plist_destroy },
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
		.xpath = BGP_AF_IPV6_XPATH "/network",
		.cbs = { .create = bgp_nb_network_create, .destroy = bgp_nb_network_destroy },
	},
	{ .xpath = NULL },
};

const struct nb_module_info bgp_nb_module = {
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
	plist_cli_init(); /* policy prints after router bgp, as in FRR */
	bgp_clist_cli_init();
	bgp_aspath_list_cli_init();
	bgp_routemap_cli_init();
	bgp_cli_init();
	bgp_fib_cli_init();
	bgp_dynamic_set_apply(dynamic_apply);
}
