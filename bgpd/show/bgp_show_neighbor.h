/* SPDX-License-Identifier: ISC */
/*
 * `show bgp summary` and `show bgp neighbors`: the commands (bgp_show_neighbor.c) collect a
 * view of each peer once (bgp_show_collect.c); a renderer turns views into text
 * (bgp_show_text.c, FRR's layout) or JSON (bgp_show_json.c, FRR's key names). The renderers
 * sit behind one interface (OpenBGPD's bgpctl `struct output`), so neither format is woven
 * through the other.
 */
#ifndef SKUA_BGP_SHOW_NEIGHBOR_H
#define SKUA_BGP_SHOW_NEIGHBOR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/json.h"

struct vty;

/* Text of a counter set: "TCPMinTTLDrop 0, TCPMD5NotFound 0, ..." (absent ones left out). */
void bgp_counters_text(const struct kernel_gtsm_counters *c, char *buf, size_t size);
/* JSON keys of the counters: "tcpMinTtlDrop", "tcpMd5NotFound", ... */
void bgp_counters_json(struct json_writer *w, const char *key,
		       const struct kernel_gtsm_counters *c);

/* ---- views (bgp_show_collect.c) ---- */

#define BGP_UPTIME_LEN 25

enum bgp_link_type {
	BGP_LINK_INTERNAL,
	BGP_LINK_EXTERNAL,
	BGP_LINK_UNSPECIFIED,
};

struct bgp_af_view {
	bool activated;	 /* configured for the peer: shown in this AF's summary */
	bool advertised; /* in our OPEN of the last session */
	bool received;	 /* in the peer's OPEN of the last session */
	bool negotiated; /* Established and in use */
	uint32_t accepted;
	uint32_t sent;
	/* RFC 8212: eBGP without a policy that way, so nothing flows: FRR's "(Policy)" */
	bool policy_missing[BGP_DIR_MAX];
	uint64_t table_version;
	/* The routes as received are kept without soft-reconfiguration inbound: the inbound
	 * route-map matches rpki or aspa (skua's, doc/policy.md; FRR has no such line). */
	bool kept_for_validation;
	/* neighbor X default-originate: the default route is sent now (FRR's "default sent") */
	bool default_sent;
};

/* Capability state: advertised by us, received from the peer. */
struct bgp_cap_view {
	bool adv;
	bool rcv;
};

/* Graceful restart (bgp_show_gr.c): what the OPENs said, the modes, the helper's timers. */
struct bgp_gr_view {
	bool adv, rcv;		   /* the capability on the Established session */
	uint16_t rcvd_time;	   /* the peer's restart time (kept while the peer is away) */
	bool rcvd_af[BGP_AF_MAX];  /* families the peer listed ("Address families by peer") */
	bool rcvd_fwd[BGP_AF_MAX]; /* ... with the F bit ("preserved") */
	const char *local_mode;	   /* "Helper", "Restart", "Disable" */
	bool local_inherited;	   /* the instance's mode (FRR's '*') */
	bool local_restart;	   /* restart mode: the selection deferral time is shown */
	const char *remote_mode;   /* ... or "NotApplicable" */
	bool r_bit, n_bit;
	uint16_t conf_restart_time;
	uint32_t stalepath_time, select_defer_time;
	int64_t restart_remaining, stale_remaining; /* seconds, -1 = not running */
	bool eor_sent[BGP_AF_MAX], eor_rcvd[BGP_AF_MAX];
};

struct bgp_peer_view {
	const struct bgp_peer *peer;
	const char *name;
	bool ipv6;
	const char *desc;
	const char *peer_group; /* neighbor X peer-group NAME, or NULL */
	bool dynamic;		/* made by a listen range (FRR marks it with '*') */
	uint32_t remote_as;
	uint32_t local_as;
	enum bgp_link_type link;
	/* Confederations (FRR 8.4's words): one is configured (its links are "confed-" ones in
	 * JSON, internal ones in text too), and the neighbor is in another member AS
	 * ("confed-external link", nbrCommonAdmin). */
	bool confed;
	bool confed_member;
	bool admin_down;
	bool passive;
	bool pfx_overflow;	/* held down by maximum-prefix: "Idle (PfxCt)" */
	int64_t pfx_restart_ms; /* its restart timer, -1 = none */
	enum bgp_fsm_state state;
	bool established;
	struct in_addr remote_id;
	struct in_addr local_id;

	bool up_never;	/* never Established */
	uint64_t up_ms; /* since the last change to/from Established */
	int64_t up_epoch;
	char up_str[BGP_UPTIME_LEN];
	bool read_never, write_never;
	uint64_t last_read_ms, last_write_ms; /* elapsed */
	char last_read_str[BGP_UPTIME_LEN], last_write_str[BGP_UPTIME_LEN];

	uint16_t holdtime, keepalive;		/* negotiated (configured while not up) */
	uint16_t conf_holdtime, conf_keepalive; /* configured (or the instance's) */

	bool show_caps; /* Established: capabilities are meaningful */
	struct bgp_cap_view as4, ext_msg, route_refresh, enhanced_rr;
	struct bgp_cap_view role; /* RFC 9234: received only (skua sends none) */
	bool rr_old, rr_new; /* the peer sent route refresh code 128, code 2 (FRR shows which) */
	/* RFC 9234 roles as FRR 8.4 names them ("undefined" when none): ours from `neighbor X
	 * local-role`, the peer's from the Role capability of its OPEN on the session up. */
	const char *local_role, *remote_role;
	struct bgp_af_view af[BGP_AF_MAX];
	struct bgp_gr_view gr;

	struct bgp_msg_counters sent, rcvd;
	uint32_t total_sent, total_rcvd;
	uint32_t inq, outq;

	uint32_t established_count, dropped_count;
	enum bgp_down_reason last_reset;
	uint64_t last_reset_ms; /* elapsed */
	char last_reset_str[BGP_UPTIME_LEN];
	bool notify_shown; /* last reset was a NOTIFICATION: code/subcode below */
	bool notify_sent;
	uint8_t notify_code, notify_subcode; /* inside a Hard Reset: the original's */
	bool notify_hard_reset;
	char notify_text[96]; /* "Cease/Administrative Reset" */
	/* The shutdown communication of a received Cease (RFC 9003), "" when none. */
	char shutdown_msg[BGP_SHUTDOWN_MSG_MAX + 1];

	int max_hops; /* FRR's "may be up to N hops away": ttl-security hops, else the TTL */

	/* GTSM (RFC 5082) and TCP-MD5 (RFC 2385): configured, and read back from the kernel. */
	int gtsm_hops;	   /* ttl-security hops, 0 = off */
	int min_ttl_conf;  /* 256 - hops, 0 = off */
	int min_ttl_sock;  /* IP_MINTTL / IPV6_MINHOPCOUNT of the connection's socket, -1: none */
	int send_ttl_sock; /* IP_TTL / IPV6_UNICAST_HOPS of the same socket, -1: none */
	enum bgp_listener_cover listener_cover; /* handshake TTL-checked at the listeners */
	bool md5_listener_missing;		/* a listener lacks the key: incoming refused */
	bool sec_refused;			/* the kernel cannot enforce the settings */
	/* This network namespace's TcpExt, read once per command (not by bgp_peer_view_fill()). */
	struct kernel_gtsm_counters counters;
	bool have_counters;
	bool have_conn;
	char local_host[IPADDR_STRLEN], remote_host[IPADDR_STRLEN];
	uint16_t local_port, remote_port;
	char nexthop[IPADDR_STRLEN], nexthop_global[IPADDR_STRLEN], nexthop_local[IPADDR_STRLEN];
	bool shared_network; /* the peer is on a subnet of one of our interfaces */
	uint16_t connect_retry;
	int64_t next_connect_ms; /* -1 when not running */
	int64_t next_start_ms;	 /* IdleHoldTimer, -1 when not running */
	bool password;
	char update_source[IPADDR_STRLEN + 16]; /* "" when none */
	bool read_on, write_on;
	int fd;
};

struct bgp_summary_view {
	enum bgp_af af;
	struct in_addr router_id;
	uint32_t asn;
	uint64_t table_version;
	size_t rib_count;
	size_t rib_memory;
	uint32_t peer_count;
	size_t peer_memory;
	int neighbor_width; /* width of the Neighbor column (text) */
	unsigned failed, displayed, total;
	unsigned dynamic, dynamic_limit; /* dynamic neighbors among total; bgp listen limit */
};

void bgp_peer_view_fill(struct bgp_peer_view *v, const struct bgp_peer *peer);
void bgp_gr_view_fill(struct bgp_gr_view *g, const struct bgp_peer *peer, bool established);
/* The graceful restart parts of `show bgp neighbors` (bgp_show_gr.c): the capability's lines
 * (inside the capabilities) and the "Graceful restart information" block. */
void bgp_show_gr_caps_text(struct vty *vty, const struct bgp_peer_view *pv);
void bgp_show_gr_info_text(struct vty *vty, const struct bgp_peer_view *pv);
void bgp_show_gr_caps_json(struct json_writer *w, const struct bgp_peer_view *pv);
void bgp_show_gr_info_json(struct json_writer *w, const struct bgp_peer_view *pv);
void bgp_summary_view_fill(struct bgp_summary_view *sv, const struct bgp *bgp, enum bgp_af af);
/* FRR's peer_uptime(): "hh:mm:ss", "XdYYhZZm", "WWwDdHHh", "YYyWWwDd". */
void bgp_uptime_str(uint64_t elapsed_ms, char *buf, size_t size);
/* FRR's mtype_memstr(): "0 bytes", "2048 bytes", "110 KiB", "500 MiB". */
const char *bgp_memstr(char *buf, size_t size, size_t bytes);
/* A description cut to at most size characters at a word boundary, as FRR does. */
void bgp_desc_stripped(const char *desc, size_t size, char *buf, size_t bufsize);

/* ---- renderers (bgp_show_text.c, bgp_show_json.c) ---- */

/* `show bgp summary established|failed`: which peers a summary lists. A peer has "failed" in a
 * family when it is not Established or the family was not negotiated (FRR's definition). */
enum bgp_summary_filter {
	BGP_SUMMARY_ALL = 0,
	BGP_SUMMARY_ESTABLISHED,
	BGP_SUMMARY_FAILED, /* rows show counts and the last reset instead of the usual columns */
};

struct bgp_show_ctx {
	struct vty *vty;
	struct json_writer json;
	bool titled;	 /* several address families: one titled block each */
	unsigned blocks; /* address family blocks written so far */
	enum bgp_summary_filter filter;
	bool wide; /* `summary wide`: the local AS beside the remote one (FRR's LocalAS) */
};

/* The summary_* callbacks get a bgp_summary_view whose `displayed` counts the peers the filter
 * lets through (summary_af_begin is called before the first of them). */

enum bgp_show_end {
	BGP_SHOW_END_OK,
	BGP_SHOW_END_NO_PEERS,	  /* no neighbor in any displayed family */
	BGP_SHOW_END_NO_INSTANCE, /* no `router bgp` */
	BGP_SHOW_END_NOT_FOUND,	  /* the neighbor asked for does not exist */
};

struct bgp_show_output {
	void (*summary_begin)(struct bgp_show_ctx *ctx);
	void (*summary_af_begin)(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv);
	void (*summary_peer)(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv,
			     const struct bgp_peer_view *pv);
	void (*summary_af_end)(struct bgp_show_ctx *ctx, const struct bgp_summary_view *sv);
	void (*summary_end)(struct bgp_show_ctx *ctx, enum bgp_show_end end);

	void (*neighbors_begin)(struct bgp_show_ctx *ctx);
	void (*neighbor)(struct bgp_show_ctx *ctx, const struct bgp_peer_view *pv);
	void (*neighbors_end)(struct bgp_show_ctx *ctx, enum bgp_show_end end);
};

extern const struct bgp_show_output bgp_show_text;
extern const struct bgp_show_output bgp_show_json;

#endif /* SKUA_BGP_SHOW_NEIGHBOR_H */
