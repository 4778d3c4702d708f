/* SPDX-License-Identifier: ISC */
/*
 * bgpd's northbound: the skua-bgp schema paths and their callbacks (bgp_nb_config.c: the
 * model -> struct bgp / struct bgp_peer), running-config printers (bgp_config_write.c) and
 * the configuration commands (bgp_cli*.c: commands -> edits of the model).
 */
#ifndef SKUA_BGP_NB_H
#define SKUA_BGP_NB_H

#include "lib/memory.h"
#include "lib/northbound.h"
#include "lib/sbuf.h"

/* MTYPE_BGP_PEER_CONF (bgpd/core/bgp.h) is defined in bgp_nb_config.c: the callbacks allocate
 * and free the strings of struct bgp_peer_config, also when a peer or the instance goes. */
DECLARE_MTYPE(BGP_CONFIG_WRITE); /* scratch of the running-config printer */

#define BGP_XPATH "/skua-bgp:bgp"
#define BGP_NEIGHBOR_XPATH BGP_XPATH "/neighbors/neighbor[remote-address='%s']"
#define BGP_PEER_GROUP_XPATH BGP_XPATH "/peer-groups/peer-group[name='%s']"
#define BGP_AF_IPV4_XPATH BGP_XPATH "/afi-safis/ipv4-unicast"
#define BGP_AF_IPV6_XPATH BGP_XPATH "/afi-safis/ipv6-unicast"

/* bgp_nb_config.c */
int bgp_nb_instance_create(struct nb_cb_args *args);
int bgp_nb_instance_destroy(struct nb_cb_args *args);
void bgp_nb_instance_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_peer_group_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_peer_group_destroy(struct nb_cb_args *args);
int bgp_nb_local_as_modify(struct nb_cb_args *args);
int bgp_nb_router_id_modify(struct nb_cb_args *args);
int bgp_nb_router_id_destroy(struct nb_cb_args *args);
int bgp_nb_default_ipv4_modify(struct nb_cb_args *args);
int bgp_nb_log_neighbor_changes_modify(struct nb_cb_args *args);
int bgp_nb_ebgp_requires_policy_modify(struct nb_cb_args *args);
int bgp_nb_network_import_check_modify(struct nb_cb_args *args);
void bgp_nb_timers_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_create(struct nb_cb_args *args);
int bgp_nb_neighbor_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_remote_as_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_description_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_description_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_shutdown_message_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_shutdown_message_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_shutdown_create(struct nb_cb_args *args);
int bgp_nb_neighbor_shutdown_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_password_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_password_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_passive_create(struct nb_cb_args *args);
int bgp_nb_neighbor_passive_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_multihop_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_multihop_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_ttl_security_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_ttl_security_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_update_source_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_update_source_apply_finish(struct nb_cb_args *args);
void bgp_nb_neighbor_timers_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_af_enabled_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_af_enabled_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_plist_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_rr_client_create(struct nb_cb_args *args);
int bgp_nb_neighbor_rr_client_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_nhs_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_allowas_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_rpa_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_rpa_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_send_comm_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_send_comm_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_soft_in_create(struct nb_cb_args *args);
int bgp_nb_neighbor_soft_in_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_allowas_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_maxpfx_create(struct nb_cb_args *args);
int bgp_nb_neighbor_connected_check_create(struct nb_cb_args *args);
int bgp_nb_neighbor_adv_interval_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_adv_interval_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_local_as_create(struct nb_cb_args *args);
int bgp_nb_neighbor_local_as_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_local_as_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_connected_check_destroy(struct nb_cb_args *args);
int bgp_nb_neighbor_local_role_create(struct nb_cb_args *args);
int bgp_nb_neighbor_local_role_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_local_role_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_maxpfx_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_maxpfx_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_deforig_create(struct nb_cb_args *args);
int bgp_nb_neighbor_deforig_destroy(struct nb_cb_args *args);
void bgp_nb_neighbor_deforig_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_nhs_destroy(struct nb_cb_args *args);
/* Forwarding settings (bgpd/config/bgp_fib_cli.c). */
void bgp_nb_fib_apply_finish(struct nb_cb_args *args);
int bgp_nb_maxpaths_modify(struct nb_cb_args *args);
int bgp_nb_maxpaths_ibgp_modify(struct nb_cb_args *args);
int bgp_nb_maxpaths_destroy(struct nb_cb_args *args);
int bgp_nb_maxpaths_ibgp_destroy(struct nb_cb_args *args);
int bgp_nb_redist_create(struct nb_cb_args *args);
int bgp_nb_redist_destroy(struct nb_cb_args *args);
int bgp_nb_redist_metric_modify(struct nb_cb_args *args);
int bgp_nb_redist_metric_destroy(struct nb_cb_args *args);
int bgp_nb_redist_rmap_modify(struct nb_cb_args *args);
int bgp_nb_redist_rmap_destroy(struct nb_cb_args *args);
void bgp_print_fib(struct sbuf *out, const struct lyd_node *dnode);
/* An address family's redistribute lines (FRR prints them before the neighbors' lines) and
 * maximum-paths lines (after them). */
void bgp_fib_af_write_redistribute(struct sbuf *body, const struct lyd_node *bgp,
				   const char *af_name);
void bgp_fib_af_write_maxpaths(struct sbuf *body, const struct lyd_node *bgp, const char *af_name);
void bgp_fib_cli_init(void);

/* The best-path knobs (bgpd/config/bgp_bestpath_cli.c). */
int bgp_nb_always_compare_med_modify(struct nb_cb_args *args);
int bgp_nb_deterministic_med_modify(struct nb_cb_args *args);
void bgp_nb_bestpath_apply_finish(struct nb_cb_args *args);
void bgp_print_always_compare_med(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_deterministic_med(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_bestpath(struct sbuf *out, const struct lyd_node *dnode);
void bgp_bestpath_cli_init(void);

/* Confederations (bgpd/config/bgp_confed_cli.c). */
void bgp_nb_confed_apply_finish(struct nb_cb_args *args);
void bgp_print_confed(struct sbuf *out, const struct lyd_node *dnode);
void bgp_confed_cli_init(void);

/* RFC 8326 graceful shutdown (bgpd/config/bgp_gshut_cli.c). */
int bgp_nb_graceful_shutdown_modify(struct nb_cb_args *args);
void bgp_print_graceful_shutdown(struct sbuf *out, const struct lyd_node *dnode);
void bgp_gshut_cli_init(void);

int bgp_nb_cluster_id_modify(struct nb_cb_args *args);
int bgp_nb_cluster_id_destroy(struct nb_cb_args *args);
int bgp_nb_validate_tree(const struct lyd_node *tree, char *errmsg, size_t errlen, char *xpath,
			 size_t xpathlen);
int bgp_nb_neighbor_plist_destroy(struct nb_cb_args *args);
int bgp_nb_network_create(struct nb_cb_args *args);
int bgp_nb_network_destroy(struct nb_cb_args *args);
int bgp_nb_network_rmap_modify(struct nb_cb_args *args);
int bgp_nb_network_rmap_destroy(struct nb_cb_args *args);
/* aggregate-address (bgp_aggregate_cli.c) */
int bgp_nb_aggregate_destroy(struct nb_cb_args *args);
void bgp_nb_aggregate_apply_finish(struct nb_cb_args *args);
void bgp_print_aggregates(struct sbuf *out, const struct lyd_node *bgp, const char *af_name);
void bgp_aggregate_cli_init(void);

/* bgp_nb_neighbor.c: the rows of neighbors and peer-groups, made from the neighbor settings
 * (each declared once) and registered as a second table of skua-bgp, after the first. */
void bgp_nb_neighbor_register(void);

/* bgp_peer_group.c: the effective tree (peer-group members filled in, dynamic neighbors
 * added); the northbound's expand_tree hook. */
int bgp_nb_expand_tree(struct lyd_node **tree, char *errmsg, size_t errlen, char *xpath,
		       size_t xpathlen);

/* bgp_config_write.c */
void bgp_print_peer_group(struct sbuf *out, const struct lyd_node *dnode);
int bgp_print_peer_group_cmp(const struct lyd_node *a, const struct lyd_node *b);
void bgp_print_neighbor_head(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_listen(struct sbuf *out, const struct lyd_node *dnode);
int bgp_print_range_cmp(const struct lyd_node *a, const struct lyd_node *b);
void bgp_print_instance(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_instance_end(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_router_id(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_cluster_id(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_default_ipv4(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_log_neighbor_changes(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_ebgp_requires_policy(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_network_import_check(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_timers(struct sbuf *out, const struct lyd_node *dnode);
int bgp_print_neighbor_cmp(const struct lyd_node *a, const struct lyd_node *b);
void bgp_print_neighbor_remote_as(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_description(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_shutdown(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_password(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_passive(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_multihop(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_ttl_security(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_update_source(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_timers(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_adv_interval(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_local_as(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_connected_check(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_local_role(struct sbuf *out, const struct lyd_node *dnode);

/* bgp_gr_cli.c: graceful restart's commands, callbacks and printers (its own table). */
void bgp_nb_gr_apply_finish(struct nb_cb_args *args);
int bgp_nb_neighbor_gr_modify(struct nb_cb_args *args);
int bgp_nb_neighbor_gr_destroy(struct nb_cb_args *args);
void bgp_print_gr(struct sbuf *out, const struct lyd_node *dnode);
void bgp_print_neighbor_gr(struct sbuf *out, const struct lyd_node *dnode);
void bgp_gr_cli_init(void);
/* bgp_llgr_cli.c: bgp long-lived-graceful-restart stale-time (its own table). */
void bgp_llgr_cli_init(void);
/* bgp_cli_unsupported.c: FRR statements skua lacks, refused as "not supported by skua". */
void bgp_cli_unsupported_init(void);

/* For the files of one concern: the peer of a neighbor's node in APPLY (bgp_nb_config.c;
 * NULL, logged, when the instance lacks it), and the neighbor's address or group's name a
 * node belongs to, as commands name it (bgp_config_write.c). */
struct bgp_peer *bgp_nb_peer_apply(const struct lyd_node *dnode);
const char *bgp_print_nbr_addr(const struct lyd_node *dnode);

/* bgp_cli.c: install the commands of CONFIG_NODE (router bgp), BGP_NODE and the AF nodes
 * (bgp_cli_instance.c, bgp_cli_neighbor*.c, bgp_cli_af.c). */
void bgp_cli_init(void);

#endif /* SKUA_BGP_NB_H */
