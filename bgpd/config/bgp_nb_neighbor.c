/* SPDX-License-Identifier: ISC */
/*
 * The skua-bgp rows of neighbors and peer-groups: each neighbor setting is declared once, and
 * its rows of the northbound table are made from that declaration at start-up.
 *
 * A neighbor and a peer-group take the same settings (the model's neighbor-settings
 * grouping). The neighbor's row applies a setting and prints it; the peer-group's only prints
 * it, because a group's settings reach its members through the effective tree
 * (bgp_peer_group.c), where the neighbors' rows apply them. A per-family setting has a row
 * in IPv4 unicast and one in IPv6 unicast, and none for groups: it prints in the instance's
 * address-family blocks (bgp_print_instance_end), groups included.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_nb.h"

#define NBR BGP_XPATH "/neighbors/neighbor"
#define PG BGP_XPATH "/peer-groups/peer-group"

struct neighbor_setting {
	const char *path;	 /* below the neighbor, or below afi-safis/FAMILY when per_af */
	struct nb_callbacks cbs; /* the neighbor's row */
	const char *missing_msg;
	bool keep_explicit_default;
	bool per_af;
	/* The neighbor's head line prints it, before its peer-group (FRR's order): the
	 * printer serves peer-groups only. */
	bool printed_by_head;
};

static const struct neighbor_setting settings[] = {
	{
		.path = "peer-group", /* a neighbor's only: membership */
		.cbs = { .modify = bgp_nb_neighbor_peer_group_modify,
			 .destroy = bgp_nb_neighbor_peer_group_destroy },
	},
	{
		.path = "neighbor-remote-as",
		.cbs = { .apply_finish = bgp_nb_neighbor_remote_as_apply_finish,
			 .cli_show = bgp_print_neighbor_remote_as },
		.printed_by_head = true,
	},
	{
		.path = "neighbor-remote-as/remote-as-type",
		.missing_msg = "Specify remote-as or peer-group commands first",
	},
	{
		.path = "neighbor-remote-as/remote-as",
		.missing_msg = "Specify the neighbor's AS number: neighbor PEER remote-as ASNUM",
	},
	{
		.path = "local-as",
		.cbs = { .create = bgp_nb_neighbor_local_as_create,
			 .destroy = bgp_nb_neighbor_local_as_destroy,
			 .apply_finish = bgp_nb_neighbor_local_as_apply_finish,
			 .cli_show = bgp_print_neighbor_local_as },
	},
	{
		.path = "description",
		.cbs = { .modify = bgp_nb_neighbor_description_modify,
			 .destroy = bgp_nb_neighbor_description_destroy,
			 .cli_show = bgp_print_neighbor_description },
	},
	{
		/* Printed by `shutdown`'s row; applied before it (the model's order). */
		.path = "shutdown-message",
		.cbs = { .modify = bgp_nb_neighbor_shutdown_message_modify,
			 .destroy = bgp_nb_neighbor_shutdown_message_destroy },
	},
	{
		.path = "shutdown",
		.cbs = { .create = bgp_nb_neighbor_shutdown_create,
			 .destroy = bgp_nb_neighbor_shutdown_destroy,
			 .cli_show = bgp_print_neighbor_shutdown },
	},
	{
		.path = "password",
		.cbs = { .modify = bgp_nb_neighbor_password_modify,
			 .destroy = bgp_nb_neighbor_password_destroy,
			 .cli_show = bgp_print_neighbor_password },
	},
	{
		.path = "passive",
		.cbs = { .create = bgp_nb_neighbor_passive_create,
			 .destroy = bgp_nb_neighbor_passive_destroy,
			 .cli_show = bgp_print_neighbor_passive },
	},
	{
		.path = "local-role",
		.cbs = { .create = bgp_nb_neighbor_local_role_create,
			 .destroy = bgp_nb_neighbor_local_role_destroy,
			 .apply_finish = bgp_nb_neighbor_local_role_apply_finish,
			 .cli_show = bgp_print_neighbor_local_role },
	},
	{
		.path = "ebgp-multihop",
		.cbs = { .modify = bgp_nb_neighbor_multihop_modify,
			 .destroy = bgp_nb_neighbor_multihop_destroy,
			 .cli_show = bgp_print_neighbor_multihop },
	},
	{
		.path = "ttl-security",
		.cbs = { .modify = bgp_nb_neighbor_ttl_security_modify,
			 .destroy = bgp_nb_neighbor_ttl_security_destroy,
			 .cli_show = bgp_print_neighbor_ttl_security },
	},
	{
		.path = "disable-connected-check",
		.cbs = { .create = bgp_nb_neighbor_connected_check_create,
			 .destroy = bgp_nb_neighbor_connected_check_destroy,
			 .cli_show = bgp_print_neighbor_connected_check },
	},
	{
		.path = "update-source",
		.cbs = { .destroy = bgp_nb_neighbor_update_source_destroy,
			 .apply_finish = bgp_nb_neighbor_update_source_apply_finish,
			 .cli_show = bgp_print_neighbor_update_source },
	},
	{
		.path = "advertisement-interval",
		.cbs = { .modify = bgp_nb_neighbor_adv_interval_modify,
			 .destroy = bgp_nb_neighbor_adv_interval_destroy,
			 .cli_show = bgp_print_neighbor_adv_interval },
	},
	{
		.path = "timers",
		.cbs = { .apply_finish = bgp_nb_neighbor_timers_apply_finish,
			 .cli_show = bgp_print_neighbor_timers },
	},
	{
		/* FRR prints `timers connect 120` when it was configured, default or not. */
		.path = "timers/connect-time",
		.keep_explicit_default = true,
	},
	{
		.path = "graceful-restart",
		.cbs = { .modify = bgp_nb_neighbor_gr_modify,
			 .destroy = bgp_nb_neighbor_gr_destroy,
			 .cli_show = bgp_print_neighbor_gr },
	},
	{
		.path = "enabled",
		.cbs = { .modify = bgp_nb_neighbor_af_enabled_modify,
			 .destroy = bgp_nb_neighbor_af_enabled_destroy },
		.per_af = true,
	},
	{
		.path = "route-reflector-client",
		.cbs = { .create = bgp_nb_neighbor_rr_client_create,
			 .destroy = bgp_nb_neighbor_rr_client_destroy },
		.per_af = true,
	},
	{
		.path = "soft-reconfiguration-inbound",
		.cbs = { .create = bgp_nb_neighbor_soft_in_create,
			 .destroy = bgp_nb_neighbor_soft_in_destroy },
		.per_af = true,
	},
	{
		.path = "remove-private-as",
		.cbs = { .modify = bgp_nb_neighbor_rpa_modify,
			 .destroy = bgp_nb_neighbor_rpa_destroy },
		.per_af = true,
	},
	{
		.path = "send-community",
		.cbs = { .modify = bgp_nb_neighbor_send_comm_modify,
			 .destroy = bgp_nb_neighbor_send_comm_destroy },
		.per_af = true,
	},
	{
		.path = "maximum-prefix",
		.cbs = { .create = bgp_nb_neighbor_maxpfx_create,
			 .destroy = bgp_nb_neighbor_maxpfx_destroy,
			 .apply_finish = bgp_nb_neighbor_maxpfx_apply_finish },
		.per_af = true,
	},
	{
		.path = "default-originate",
		.cbs = { .create = bgp_nb_neighbor_deforig_create,
			 .destroy = bgp_nb_neighbor_deforig_destroy,
			 .apply_finish = bgp_nb_neighbor_deforig_apply_finish },
		.per_af = true,
	},
	{
		.path = "allowas-in",
		.cbs = { .modify = bgp_nb_neighbor_allowas_modify,
			 .destroy = bgp_nb_neighbor_allowas_destroy },
		.per_af = true,
	},
	{
		.path = "next-hop-self",
		.cbs = { .modify = bgp_nb_neighbor_nhs_modify,
			 .destroy = bgp_nb_neighbor_nhs_destroy },
		.per_af = true,
	},
#define FILTER(leaf)                                                 \
	{                                                            \
		.path = "filter-config/" leaf,                       \
		.cbs = { .modify = bgp_nb_neighbor_plist_modify,     \
			 .destroy = bgp_nb_neighbor_plist_destroy }, \
		.per_af = true,                                      \
	}
	FILTER("plist-import"),
	FILTER("plist-export"),
	FILTER("filter-list-import"),
	FILTER("filter-list-export"),
	FILTER("route-map-import"),
	FILTER("route-map-export"),
#undef FILTER
};

/* The lists' own rows: a group prints its declaration, a neighbor its head lines. A group
 * has no callbacks: its settings reach the members through the effective tree, its listen
 * ranges the instance through the instance's apply_finish. */
static const struct nb_node_info list_rows[] = {
	{
		.xpath = PG,
		.cbs = { .cli_show = bgp_print_peer_group, .cli_cmp = bgp_print_peer_group_cmp },
	},
	{
		.xpath = NBR,
		.cbs = { .create = bgp_nb_neighbor_create,
			 .destroy = bgp_nb_neighbor_destroy,
			 .cli_show = bgp_print_neighbor_head,
			 .cli_cmp = bgp_print_neighbor_cmp },
	},
};

/* At most two rows a setting (neighbor and group, or the two families), and the end. Static:
 * the northbound keeps pointers to the rows until nb_terminate(). */
#define ROWS_MAX (array_size(list_rows) + 2 * array_size(settings))
static struct nb_node_info rows[ROWS_MAX + 1];
static char row_xpaths[ROWS_MAX][128];

static const struct nb_module_info bgp_nb_neighbor_module = {
	.name = "skua-bgp",
	.nodes = rows,
};

/* A new row for prefix/path, empty but for its xpath. */
static struct nb_node_info *row_new(size_t *n, const char *prefix, const char *path)
{
	char *xpath = row_xpaths[*n];

	if ((size_t)snprintf(xpath, sizeof(row_xpaths[0]), "%s/%s", prefix, path) >=
	    sizeof(row_xpaths[0])) {
		fprintf(stderr, "skua: neighbor setting path too long: %s/%s (a bug)\n", prefix,
			path);
		abort();
	}
	rows[*n] = (struct nb_node_info){ .xpath = xpath };
	return &rows[(*n)++];
}

static void neighbor_row(struct nb_node_info *r, const struct neighbor_setting *s)
{
	r->cbs = s->cbs;
	r->missing_msg = s->missing_msg;
	r->keep_explicit_default = s->keep_explicit_default;
	if (s->printed_by_head)
		r->cbs.cli_show = NULL;
}

void bgp_nb_neighbor_register(void)
{
	size_t n = array_size(list_rows);

	memcpy(rows, list_rows, sizeof(list_rows));
	for (size_t i = 0; i < array_size(settings); i++) {
		const struct neighbor_setting *s = &settings[i];
		struct nb_node_info *g;

		if (s->per_af) {
			neighbor_row(row_new(&n, NBR "/afi-safis/ipv4-unicast", s->path), s);
			neighbor_row(row_new(&n, NBR "/afi-safis/ipv6-unicast", s->path), s);
			continue;
		}
		neighbor_row(row_new(&n, NBR, s->path), s);
		/* A group's row where it has something to print (or a default to keep): not for
		 * what only a neighbor has (membership, messages for its missing AS). */
		if (!s->cbs.cli_show && !s->keep_explicit_default)
			continue;
		g = row_new(&n, PG, s->path);
		g->cbs.cli_show = s->cbs.cli_show;
		g->keep_explicit_default = s->keep_explicit_default;
	}
	rows[n] = (struct nb_node_info){ .xpath = NULL };
	nb_module_register(&bgp_nb_neighbor_module);
}
