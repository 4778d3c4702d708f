/* SPDX-License-Identifier: ISC */
/*
 * bgpd's operational commands: every show, clear and debug command. They read the views the
 * layers below expose (sessions, RIB tables, the forwarding layer, policy objects, the
 * configuration tree) and render them in FRR's text layout or with FRR's JSON keys. Each init
 * installs one family of commands (after cmd_init()); bgp_show_init() installs them all.
 */
#ifndef SKUA_BGP_SHOW_H
#define SKUA_BGP_SHOW_H

void bgp_show_init(void);

/* show [ip] bgp [ipv4|ipv6 [unicast]] [PREFIX|ADDR] [json], neighbors' route views. */
void bgp_show_route_init(void);
/* show bgp summary|neighbors [json], show bgp gtsm [json]. */
void bgp_show_neighbor_init(void);
void bgp_show_gtsm_init(void); /* installed by bgp_show_neighbor_init() */
void bgp_show_gr_init(void);   /* likewise: show bgp neighbors ... graceful-restart */
/* show bgp peer-group [NAME] [json] (reads the configuration tree). */
void bgp_show_peer_group_init(void);
/* show ip|ipv6 route [json], show bgp nexthop [json], show bgp fib [json]. */
void bgp_show_fib_init(void);
/* show bgp as-path-access-list, show bgp [large-]community-list, show route-map. */
void bgp_show_policy_init(void);
/* show bgp extcommunity-list; installed by bgp_show_policy_init(). The extended community
 * lines of a route-map entry, for show route-map. */
void bgp_show_eclist_init(void);
/* show bgp [large-|ext]community-list: a list walk's callback printing one entry in FRR
 * 8.4's layout, the list's title line before its first (bgp_show_policy.c). */
enum bgp_show_clist_kind { BGP_SHOW_CLIST_COMM, BGP_SHOW_CLIST_LARGE, BGP_SHOW_CLIST_EXT };
struct bgp_show_clist_ctx {
	struct vty *vty;
	const char *open; /* the list whose title is printed */
	enum bgp_show_clist_kind kind;
};
void bgp_show_clist_entry(const char *list, bool expanded, uint32_t seq, bool permit,
			  const char *text, uint64_t hits, void *arg);
struct rmap_entry;
struct vty;
void bgp_show_eclist_match(struct vty *vty, const struct rmap_entry *e);
void bgp_show_eclist_set(struct vty *vty, const struct rmap_entry *e);
/* show rpki prefix-table|prefix|as-number|aspa-table|cache-connection|cache-server [json],
 * rpki reset|start|stop (bgp_show_rpki.c). */
void bgp_show_rpki_init(void);
/* clear [ip] bgp ... [soft [in|out]|in|out] (enable node). */
void bgp_clear_init(void);
/* debug bgp neighbor-events|updates [in|out]|keepalives, show debugging bgp. */
void bgp_debug_init(void);

#endif /* SKUA_BGP_SHOW_H */
