/* SPDX-License-Identifier: ISC */
/*
 * The route show output interface (OpenBGPD bgpctl's struct output idea): the commands in
 * bgp_show_route.c walk the table and call one renderer, text (bgp_route_text.c) or JSON
 * (bgp_route_json.c). Renderers write as they go into the vty's output: nothing is built in
 * memory first, whatever the table size. Layouts and key names are FRR's.
 */
#ifndef SKUA_BGP_ROUTE_OUT_H
#define SKUA_BGP_ROUTE_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rpki/rpki.h"
#include "lib/json.h"
#include "lib/prefix.h"
#include "lib/sbuf.h"

struct vty;

struct route_out;
struct rpki_db;
struct route_show;

/* `show bgp ... regexp|community|large-community|longer-prefixes` (bgp_show_route_filter.c):
 * which prefixes and paths a table view shows. The paths left out still count in "total
 * paths", as in FRR 8.4. */
struct route_filter {
	const struct prefix *within; /* only prefixes inside it (longer-prefixes); NULL: all */
	/* Only the paths it accepts; NULL: all. */
	bool (*path_ok)(const struct route_filter *f, const struct bgp_path *path);
};

struct route_show {
	const struct route_out *out;
	struct vty *vty;
	struct bgp *bgp;
	struct bgp_rib *rib;
	enum bgp_af af;
	uint64_t routes; /* prefixes shown */
	uint64_t paths;	 /* paths shown */
	bool header_done;
	struct json_writer json;
	/* `neighbors X routes`: only the paths learned from this source (NULL = all). */
	const struct rib_src *only;
	/* The RPKI store while validation is in use (a cache is configured): the V/I/N codes
	 * and validation states are shown; NULL otherwise, and nothing RPKI is printed, as
	 * FRR without its rpki module. States are computed here, on demand. */
	const struct rpki_db *rpki;
	/* `... rpki valid|invalid|notfound`: only the paths in that state (NOT_USED: all), of
	 * the prefix being walked (cur). */
	enum rpki_state only_rpki;
	const struct prefix *cur;
	/* `neighbors X received-routes`: the adv_* printers show the routes as received (JSON
	 * "receivedRoutes", FRR's key, instead of "advertisedRoutes"). */
	bool received;
	/* A filtered table view (NULL: none). */
	const struct route_filter *filter;
	/* `show ... detail`: each route of the table with its paths in the detail layout. */
	bool detail;
};

struct route_out {
	void (*table_begin)(struct route_show *s);
	void (*table_route)(struct route_show *s, const struct bgp_dest *d, const struct prefix *p);
	void (*table_end)(struct route_show *s);
	void (*detail)(struct route_show *s, const struct bgp_dest *d, const struct prefix *p);
	void (*not_found)(struct route_show *s);
	void (*no_instance)(struct route_show *s);
	/* `neighbors X advertised-routes`: header, one row per route with the exported set,
	 * footer (FRR's show_adj_route()). */
	void (*adv_begin)(struct route_show *s);
	void (*adv_route)(struct route_show *s, const struct prefix *p,
			  const struct bgp_attr *attr);
	void (*adv_end)(struct route_show *s);
	/* A refusal ("Inbound soft reconfiguration not enabled"): "% msg" in text, a "warning"
	 * key in JSON (FRR's peer_adj_routes()). */
	void (*warning)(struct route_show *s, const char *msg);
};

extern const struct route_out route_out_text;
extern const struct route_out route_out_json;

/* The table of af through filter (NULL: the whole table), text or JSON. */
int route_show_table(struct vty *vty, enum bgp_af af, bool json, const struct route_filter *filter);
/* The whole table of af, every route in the detail layout (FRR 8.4's `show ip bgp detail`). */
int route_show_table_detail(struct vty *vty, enum bgp_af af, bool json);
void bgp_show_route_filter_init(void);
/* The source of the neighbor at addr: its current session, else the one whose paths are being
 * removed; NULL when none. */
struct rib_src *route_neighbor_src(const struct bgp_rib *rib, const struct ipaddr *addr);
void bgp_show_prefix_counts_init(void);
void bgp_show_statistics_init(void);

/* ---- what both renderers need (bgp_show_route.c) ---- */

/* FRR's bgp_origin_str / bgp_origin_long_str. */
const char *route_origin_char(uint8_t origin);
const char *route_origin_long(uint8_t origin);

struct rib_src;
const struct rib_src *route_path_src(const struct route_show *s, const struct bgp_path *path);
/* The path is shown (not filtered out by s->only, nor by s->only_rpki for s->cur). */
bool route_path_shown(const struct route_show *s, const struct bgp_path *path);
bool route_path_valid(const struct route_show *s, const struct bgp_path *path);
/* FRR's BGP_PATH_STALE ('S', "stale"): kept by graceful restart while its peer restarts, or
 * not re-announced since an enhanced route refresh began. */
bool route_path_stale(const struct route_show *s, const struct bgp_path *path);
/* FRR's BGP_PATH_REMOVED ('R', "removed"): its session is gone and the path is being removed. */
bool route_path_removed(const struct route_show *s, const struct bgp_path *path);
/* Learned over iBGP (FRR's 'i' status and pathFrom "internal"). */
bool route_path_internal(const struct route_show *s, const struct bgp_path *path);

/* Is the next hop shown an IPv6 one: an IPv6 route's, or an IPv4 route's whose attributes
 * carry no NEXT_HOP but an IPv6 next hop (FRR's BGP_ATTR_NEXTHOP_AFI_IP6: FRR's aggregates
 * are made so, and show "::")? */
bool route_nh_ipv6(const struct route_show *s, const struct bgp_attr *attr);
/* The next hop as FRR prints it in the table: IPv4 NEXT_HOP, or the IPv6 global next hop
 * (the link-local one when both were received). */
const char *route_nexthop_str(const struct route_show *s, const struct bgp_attr *attr, char *buf,
			      size_t size);
/* The peer address ("10.0.0.2"); "(unspec)" for local routes when local_unspec. */
const char *route_peer_str(const struct rib_src *src, bool local_unspec, char *buf, size_t size);

/* Texts of any length, appended to sb (reset first): AS path as FRR prints it ("65002 65003
 * {65010,65011}", confederation segments in () and []), communities ("65000:1 no-export"),
 * large communities ("65000:1:2"). */
void route_aspath_str(const struct bgp_aspath *p, struct sbuf *sb);
void route_community_str(const struct bgp_u32list *l, struct sbuf *sb);
void route_lcommunity_str(const struct bgp_lcommlist *l, struct sbuf *sb);
/* Extended communities as FRR 8.4 shows them: "RT:65000:100 SoO:65000:1". */
void route_ecommunity_str(const struct bgp_ecommlist *l, struct sbuf *sb);
/* One community as FRR prints it: a well-known name ("no-export"; in JSON lists "noExport")
 * or "AS:value". */
const char *route_community_one(uint32_t c, bool json, char *buf, size_t size);

/* AS path segments for JSON: calls cb for each segment with FRR's type name. */
typedef void (*route_seg_cb)(const char *type, const uint32_t *as, unsigned count, void *arg);
void route_aspath_segments(const struct bgp_aspath *p, route_seg_cb cb, void *arg);

/* The route origin validation state of a path to p (RPKI_NOT_USED when s->rpki is NULL).
 * A path with an empty AS_PATH (ours, or from an iBGP neighbor) is originated by our AS, as
 * FRR validates it. */
enum rpki_state route_rpki_state(const struct route_show *s, const struct prefix *p,
				 const struct bgp_path *path);
/* FRR's words ("valid", "invalid", "not found") and its table code ('V', 'I', 'N', ' '). */
const char *route_rpki_state_str(enum rpki_state st);
char route_rpki_code(enum rpki_state st);
/* The ASPA verification state of a path: ASPA_NOT_USED unless s->rpki is set and the path
 * came from a neighbor with a local-role, whose role says which procedure applies. */
enum aspa_state route_aspa_state(const struct route_show *s, const struct bgp_path *path);

/* The position (1-based) of the best path among dest's paths, 0 if none. */
unsigned route_best_index(const struct bgp_dest *d);
unsigned route_path_count(const struct bgp_dest *d);

#endif /* SKUA_BGP_ROUTE_OUT_H */
