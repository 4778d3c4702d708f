/* SPDX-License-Identifier: ISC */
/*
 * `show running-config` for skua-bgp: one printer per node, the inverse of the commands
 * (bgp_cli*.c).
 *
 * FRR's layout (bgpd/bgp_vty.c bgp_config_write(), checked against FRR 8.4's output):
 *
 *   router bgp ASN
 *    bgp router-id A.B.C.D
 *    bgp log-neighbor-changes
 *    no bgp ebgp-requires-policy
 *    no bgp default ipv4-unicast
 *    no bgp network import-check
 *    timers bgp K H
 *    neighbor X remote-as .. / local-as / description / shutdown / password / passive /
 *      ebgp-multihop / ttl-security hops / disable-connected-check / update-source /
 *      advertisement-interval / timers K H / timers connect N
 * (per neighbor: members of peer-groups first, by group name, then the others; by address
 *  within each, as FRR's peer list)
 *    !
 *    address-family ipv4 unicast
 *     network P [route-map NAME]     (sorted)
 *     aggregate-address P            (sorted, bgp_aggregate_cli.c)
 *     redistribute TYPE ...          (bgp_fib_cli.c)
 *     [no] neighbor X activate ...   (peer-groups, then neighbors in the order above)
 *     maximum-paths [ibgp] N         (bgp_fib_cli.c)
 *    exit-address-family
 *   exit
 *
 * The neighbor settings print in the model's order, which is FRR's. Address-family blocks
 * print only when they have something to say.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "lib/memory.h"
#include "lib/yang.h"

DEFINE_MTYPE(BGP_CONFIG_WRITE, "BGP running-config printer");

/* What names the neighbor or peer-group a node belongs to in commands: the address, or
 * the group's name. */
static const char *nbr_addr(const struct lyd_node *dnode)
{
	const char *a = NULL;

	for (const struct lyd_node *n = dnode; n && !a; n = lyd_parent(n)) {
		if (n->schema->nodetype != LYS_LIST)
			continue;
		if (!strcmp(n->schema->name, "neighbor"))
			a = yang_dnode_get_string(n, "remote-address");
		else if (!strcmp(n->schema->name, "peer-group"))
			a = yang_dnode_get_string(n, "name");
	}
	return a ? a : "?";
}

const char *bgp_print_nbr_addr(const struct lyd_node *dnode)
{
	return nbr_addr(dnode);
}

void bgp_print_instance(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, "router bgp %s\n", yang_dnode_get_string(dnode, "local-as"));
}

void bgp_print_router_id(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " bgp router-id %s\n", lyd_get_value(dnode));
}

void bgp_print_cluster_id(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " bgp cluster-id %s\n", lyd_get_value(dnode));
}

void bgp_print_default_ipv4(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "false") == 0)
		sbuf_puts(out, " no bgp default ipv4-unicast\n");
}

/* FRR prints these switches only where they differ from its (traditional) defaults. */
void bgp_print_log_neighbor_changes(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "true") == 0)
		sbuf_puts(out, " bgp log-neighbor-changes\n");
}

void bgp_print_ebgp_requires_policy(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "false") == 0)
		sbuf_puts(out, " no bgp ebgp-requires-policy\n");
}

void bgp_print_network_import_check(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "false") == 0)
		sbuf_puts(out, " no bgp network import-check\n");
}

void bgp_print_timers(struct sbuf *out, const struct lyd_node *dnode)
{
	uint64_t k = yang_dnode_get_uint(dnode, BGP_DEFAULT_KEEPALIVE, "keepalive");
	uint64_t h = yang_dnode_get_uint(dnode, BGP_DEFAULT_HOLDTIME, "hold-time");

	/* FRR prints the pair when it differs from the defaults. */
	if (k != BGP_DEFAULT_KEEPALIVE || h != BGP_DEFAULT_HOLDTIME)
		sbuf_printf(out, " timers bgp %" PRIu64 " %" PRIu64 "\n", k, h);
}

/* Addresses as FRR compares peers': IPv4 before IPv6, then numerically. */
static int addr_cmp_str(const char *a, const char *b)
{
	struct ipaddr x, y;

	if (!a || !b || ipaddr_from_str(&x, a) < 0 || ipaddr_from_str(&y, b) < 0)
		return strcmp(a ? a : "", b ? b : "");
	return ipaddr_cmp(&x, &y);
}

/* FRR's order of neighbors (its bgpd's peer list): the members of a peer-group first, by the
 * group's name, then the others; within a group, and among the others, by address. */
int bgp_print_neighbor_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	const char *ga = yang_dnode_get_string(a, "peer-group");
	const char *gb = yang_dnode_get_string(b, "peer-group");

	if (ga && !gb)
		return -1;
	if (!ga && gb)
		return 1;
	if (ga && gb && strcmp(ga, gb) != 0)
		return strcmp(ga, gb);
	return addr_cmp_str(yang_dnode_get_string(a, "remote-address"),
			    yang_dnode_get_string(b, "remote-address"));
}

void bgp_print_neighbor_remote_as(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *type = yang_dnode_get_string(dnode, "remote-as-type");
	const char *as = yang_dnode_get_string(dnode, "remote-as");

	if (!type)
		return;
	sbuf_printf(out, " neighbor %s remote-as %s\n", nbr_addr(dnode),
		    strcmp(type, "as-specified") != 0 ? type : (as ? as : "?"));
}

/* FRR: a group is declared before its settings; groups print before neighbors, by name. */
void bgp_print_peer_group(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s peer-group\n", nbr_addr(dnode));
}

int bgp_print_peer_group_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	const char *x = yang_dnode_get_string(a, "name"), *y = yang_dnode_get_string(b, "name");

	return strcmp(x ? x : "", y ? y : "");
}

/* A neighbor's first lines, as FRR: its own remote-as, then its peer-group. */
void bgp_print_neighbor_head(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *ras = yang_dnode_get(dnode, "neighbor-remote-as");
	const char *grp = yang_dnode_get_string(dnode, "peer-group");

	if (ras)
		bgp_print_neighbor_remote_as(out, ras);
	if (grp)
		sbuf_printf(out, " neighbor %s peer-group %s\n", nbr_addr(dnode), grp);
}

/* Listen ranges as FRR keeps them: IPv4 first, then by prefix. */
int bgp_print_range_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	const char *x = yang_dnode_get_string(a, "prefix"), *y = yang_dnode_get_string(b, "prefix");
	struct prefix px, py;

	if (!x || !y || prefix_from_str(&px, x, false) < 0 || prefix_from_str(&py, y, false) < 0)
		return strcmp(x ? x : "", y ? y : "");
	return prefix_cmp(&px, &py);
}

/* FRR prints these after the neighbors: the limit when not 100, then the ranges. */
void bgp_print_listen(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *lim = yang_dnode_get(dnode, "limit");
	struct ly_set *set = NULL;

	if (lim && !yang_dnode_is_default(lim))
		sbuf_printf(out, " bgp listen limit %s\n", lyd_get_value(lim));
	if (lyd_find_xpath(dnode, "range", &set) == LY_SUCCESS)
		for (uint32_t i = 0; i < set->count; i++)
			sbuf_printf(out, " bgp listen range %s peer-group %s\n",
				    yang_dnode_get_string(set->dnodes[i], "prefix"),
				    yang_dnode_get_string(set->dnodes[i], "peer-group"));
	ly_set_free(set, NULL);
}

void bgp_print_neighbor_local_as(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s local-as %s%s%s\n", nbr_addr(dnode),
		    yang_dnode_get_string(dnode, "as"),
		    yang_dnode_exists(dnode, "no-prepend") ? " no-prepend" : "",
		    yang_dnode_exists(dnode, "replace-as") ? " replace-as" : "");
}

void bgp_print_neighbor_local_role(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s local-role %s%s\n", nbr_addr(dnode),
		    yang_dnode_get_string(dnode, "role"),
		    yang_dnode_exists(dnode, "strict-mode") ? " strict-mode" : "");
}

void bgp_print_neighbor_description(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s description %s\n", nbr_addr(dnode), lyd_get_value(dnode));
}

void bgp_print_neighbor_shutdown(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *msg = yang_dnode_get_string(dnode, "../shutdown-message");

	if (msg)
		sbuf_printf(out, " neighbor %s shutdown message %s\n", nbr_addr(dnode), msg);
	else
		sbuf_printf(out, " neighbor %s shutdown\n", nbr_addr(dnode));
}

void bgp_print_neighbor_password(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s password %s\n", nbr_addr(dnode), lyd_get_value(dnode));
}

void bgp_print_neighbor_passive(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s passive\n", nbr_addr(dnode));
}

void bgp_print_neighbor_multihop(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s ebgp-multihop %s\n", nbr_addr(dnode), lyd_get_value(dnode));
}

void bgp_print_neighbor_ttl_security(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s ttl-security hops %s\n", nbr_addr(dnode),
		    lyd_get_value(dnode));
}

void bgp_print_neighbor_adv_interval(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s advertisement-interval %s\n", nbr_addr(dnode),
		    lyd_get_value(dnode));
}

void bgp_print_neighbor_connected_check(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, " neighbor %s disable-connected-check\n", nbr_addr(dnode));
}

void bgp_print_neighbor_update_source(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *src = yang_dnode_get_string(dnode, "ip");

	if (!src)
		src = yang_dnode_get_string(dnode, "interface");
	if (src)
		sbuf_printf(out, " neighbor %s update-source %s\n", nbr_addr(dnode), src);
}

void bgp_print_neighbor_timers(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *ct = yang_dnode_get(dnode, "connect-time");

	if (yang_dnode_exists(dnode, "keepalive"))
		sbuf_printf(out, " neighbor %s timers %s %s\n", nbr_addr(dnode),
			    yang_dnode_get_string(dnode, "keepalive"),
			    yang_dnode_get_string(dnode, "hold-time"));
	/* FRR prints `timers connect` whenever it was configured, even to 120. */
	if (ct && !yang_dnode_is_default(ct))
		sbuf_printf(out, " neighbor %s timers connect %s\n", nbr_addr(dnode),
			    lyd_get_value(ct));
	if (yang_dnode_exists(dnode, "send-hold-time"))
		sbuf_printf(out, " neighbor %s timers send-hold %s\n", nbr_addr(dnode),
			    yang_dnode_get_string(dnode, "send-hold-time"));
}

/* ---- address-family blocks ---------------------------------------------------------- */

static int network_cmp(const void *a, const void *b)
{
	const struct lyd_node *x = *(const struct lyd_node *const *)a;
	const struct lyd_node *y = *(const struct lyd_node *const *)b;
	const char *sx = yang_dnode_get_string(x, "prefix"),
		   *sy = yang_dnode_get_string(y, "prefix");
	struct prefix px, py;

	if (!sx || !sy || prefix_from_str(&px, sx, false) < 0 ||
	    prefix_from_str(&py, sy, false) < 0)
		return strcmp(sx ? sx : "", sy ? sy : "");
	return prefix_cmp(&px, &py);
}

static int neighbor_qcmp(const void *a, const void *b)
{
	return bgp_print_neighbor_cmp(*(const struct lyd_node *const *)a,
				      *(const struct lyd_node *const *)b);
}

static int group_qcmp(const void *a, const void *b)
{
	return bgp_print_peer_group_cmp(*(const struct lyd_node *const *)a,
					*(const struct lyd_node *const *)b);
}

/* The nodes matching xpath under dnode, sorted; *count set. Caller frees it
 * (MTYPE_BGP_CONFIG_WRITE). */
static const struct lyd_node **sorted(const struct lyd_node *dnode, const char *xpath,
				      int (*cmp)(const void *, const void *), uint32_t *count)
{
	const struct lyd_node **v = NULL;
	struct ly_set *set = NULL;

	*count = 0;
	if (lyd_find_xpath(dnode, xpath, &set) == LY_SUCCESS && set->count) {
		v = XCALLOC(MTYPE_BGP_CONFIG_WRITE, set->count * sizeof(*v));
		for (uint32_t i = 0; i < set->count; i++)
			v[i] = set->dnodes[i];
		*count = set->count;
		qsort(v, *count, sizeof(*v), cmp);
	}
	ly_set_free(set, NULL);
	return v;
}

/* neighbor X maximum-prefix N [THRESHOLD] [warning-only] [restart MINUTES], FRR's order; the
 * threshold only when it is not the default. */
static void maxpfx_line(struct sbuf *body, const struct lyd_node *nbr, const char *af,
			const char *addr)
{
	const struct lyd_node *m = yang_dnode_get(nbr, "afi-safis/%s/maximum-prefix", af);
	uint64_t thr;

	if (!m)
		return;
	sbuf_printf(body, "  neighbor %s maximum-prefix %s", addr, yang_dnode_get_string(m, "max"));
	thr = yang_dnode_get_uint(m, BGP_MAXPFX_THRESHOLD_DEFAULT, "threshold");
	if (thr != BGP_MAXPFX_THRESHOLD_DEFAULT)
		sbuf_printf(body, " %u", (unsigned)thr);
	if (yang_dnode_exists(m, "warning-only"))
		sbuf_puts(body, " warning-only");
	if (yang_dnode_exists(m, "restart"))
		sbuf_printf(body, " restart %s", yang_dnode_get_string(m, "restart"));
	sbuf_puts(body, "\n");
}

/* neighbor X default-originate [route-map NAME]. */
static void deforig_line(struct sbuf *body, const struct lyd_node *nbr, const char *af,
			 const char *addr)
{
	const struct lyd_node *d = yang_dnode_get(nbr, "afi-safis/%s/default-originate", af);

	if (!d)
		return;
	sbuf_printf(body, "  neighbor %s default-originate", addr);
	if (yang_dnode_exists(d, "route-map"))
		sbuf_printf(body, " route-map %s", yang_dnode_get_string(d, "route-map"));
	sbuf_puts(body, "\n");
}

/* FRR's lines for the kinds of community not sent (bits: those sent; NULL: all). */
static void send_community_write(struct sbuf *out, const char *addr, const char *bits)
{
	if (!bits)
		return;
	if (!strstr(bits, "standard") && !strstr(bits, "extended") && !strstr(bits, "large")) {
		sbuf_printf(out, "  no neighbor %s send-community all\n", addr);
		return;
	}
	if (!strstr(bits, "standard"))
		sbuf_printf(out, "  no neighbor %s send-community\n", addr);
	if (!strstr(bits, "extended"))
		sbuf_printf(out, "  no neighbor %s send-community extended\n", addr);
	if (!strstr(bits, "large"))
		sbuf_printf(out, "  no neighbor %s send-community large\n", addr);
}

/* Per neighbor (or group), in FRR's order: activation (only where it differs from `bgp
 * default ipv4-unicast` for IPv4, or from off for other families), route-reflector-client,
 * next-hop-self, send-community, default-originate, allowas-in, then the filters: prefix-list,
 * route-map, filter-list, in then out. */
static void af_neighbors(struct sbuf *body, const struct lyd_node **v, uint32_t n, const char *name,
			 bool dflt_on)
{
	for (uint32_t i = 0; i < n; i++) {
		static const char *const leaves[][2] = {
			{ "plist-import", "prefix-list" },
			{ "plist-export", "prefix-list" },
			{ "route-map-import", "route-map" },
			{ "route-map-export", "route-map" },
			{ "filter-list-import", "filter-list" },
			{ "filter-list-export", "filter-list" },
		};
		const struct lyd_node *en = yang_dnode_get(v[i], "afi-safis/%s/enabled", name);
		const char *addr = nbr_addr(v[i]), *nhs, *allowas, *rpa;

		if (en) {
			bool on = strcmp(lyd_get_value(en), "true") == 0;

			if (on && !dflt_on)
				sbuf_printf(body, "  neighbor %s activate\n", addr);
			else if (!on && dflt_on)
				sbuf_printf(body, "  no neighbor %s activate\n", addr);
		}
		if (yang_dnode_exists(v[i], "afi-safis/%s/route-reflector-client", name))
			sbuf_printf(body, "  neighbor %s route-reflector-client\n", addr);
		nhs = yang_dnode_get_string(v[i], "afi-safis/%s/next-hop-self", name);
		if (nhs)
			sbuf_printf(body, "  neighbor %s next-hop-self%s\n", addr,
				    strcmp(nhs, "force") == 0 ? " force" : "");
		rpa = yang_dnode_get_string(v[i], "afi-safis/%s/remove-private-as", name);
		if (rpa)
			sbuf_printf(body, "  neighbor %s remove-private-AS%s%s\n", addr,
				    strncmp(rpa, "all", 3) == 0 ? " all" : "",
				    strstr(rpa, "replace") ? " replace-AS" : "");
		send_community_write(
			body, addr,
			yang_dnode_get_string(v[i], "afi-safis/%s/send-community", name));
		deforig_line(body, v[i], name, addr);
		if (yang_dnode_exists(v[i], "afi-safis/%s/soft-reconfiguration-inbound", name))
			sbuf_printf(body, "  neighbor %s soft-reconfiguration inbound\n", addr);
		maxpfx_line(body, v[i], name, addr);
		allowas = yang_dnode_get_string(v[i], "afi-safis/%s/allowas-in", name);
		if (allowas && strcmp(allowas, "3") == 0)
			sbuf_printf(body, "  neighbor %s allowas-in\n", addr);
		else if (allowas)
			sbuf_printf(body, "  neighbor %s allowas-in %s\n", addr, allowas);
		for (size_t k = 0; k < array_size(leaves); k++) {
			const char *list = yang_dnode_get_string(
				v[i], "afi-safis/%s/filter-config/%s", name, leaves[k][0]);

			if (list)
				sbuf_printf(body, "  neighbor %s %s %s %s\n", addr, leaves[k][1],
					    list, k % 2 ? "out" : "in");
		}
	}
}

static void af_block(struct sbuf *out, const struct lyd_node *bgp, enum bgp_af af)
{
	const char *name = af == BGP_AF_IPV4_UNICAST ? "ipv4-unicast" : "ipv6-unicast";
	bool dflt_on =
		af == BGP_AF_IPV4_UNICAST && yang_dnode_get_bool(bgp, true, "default-ipv4-unicast");
	const struct lyd_node **v;
	struct sbuf body;
	uint32_t n;
	char xpath[64];

	sbuf_init(&body);
	snprintf(xpath, sizeof(xpath), "afi-safis/%s/network", name);
	v = sorted(bgp, xpath, network_cmp, &n);
	for (uint32_t i = 0; i < n; i++)
		sbuf_printf(&body, "  network %s%s%s\n", yang_dnode_get_string(v[i], "prefix"),
			    yang_dnode_exists(v[i], "route-map") ? " route-map " : "",
			    yang_dnode_exists(v[i], "route-map")
				    ? yang_dnode_get_string(v[i], "route-map")
				    : "");
	XFREE(MTYPE_BGP_CONFIG_WRITE, v);
	bgp_print_aggregates(&body, bgp, name);		 /* after the networks, as FRR */
	bgp_fib_af_write_redistribute(&body, bgp, name); /* after the aggregates, as FRR */

	/* Peer-groups first, then neighbors (FRR). */
	for (int pass = 0; pass < 2; pass++) {
		v = pass ? sorted(bgp, "neighbors/neighbor", neighbor_qcmp, &n)
			 : sorted(bgp, "peer-groups/peer-group", group_qcmp, &n);
		af_neighbors(&body, v, n, name, dflt_on);
		XFREE(MTYPE_BGP_CONFIG_WRITE, v);
	}
	bgp_fib_af_write_maxpaths(&body, bgp, name); /* after the neighbors, as FRR */

	if (body.len) {
		sbuf_printf(out, " !\n address-family %s unicast\n",
			    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6");
		sbuf_puts(out, body.buf);
		sbuf_puts(out, " exit-address-family\n");
	}
	sbuf_free(&body);
}

void bgp_print_instance_end(struct sbuf *out, const struct lyd_node *dnode)
{
	af_block(out, dnode, BGP_AF_IPV4_UNICAST);
	af_block(out, dnode, BGP_AF_IPV6_UNICAST);
	sbuf_puts(out, "exit\n");
}
