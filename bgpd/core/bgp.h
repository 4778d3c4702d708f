/* SPDX-License-Identifier: ISC */
/*
 * The instance (`router bgp ASN`) as every layer reads it: its settings, its peers
 * (bgpd/core/bgp_peer.h) and `network` statements, and the handle of its RIB. Data only:
 * creating and deleting the instance and telling the layers of a change is
 * bgpd/instance/bgp_instance.h's.
 */
#ifndef SKUA_BGP_H
#define SKUA_BGP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "bgpd/core/bgp_peer.h"
#include "bgpd/wire/bgp_af.h"
#include "lib/prefix.h"

struct event_base;
struct hash;
struct bgp_rib;
struct ev;

#define BGP_RMAP_NAME_MAX 64

/* A `network` statement. */
struct bgp_network {
	TAILQ_ENTRY(bgp_network) entry;
	struct prefix prefix;
	char rmap[BGP_RMAP_NAME_MAX]; /* network P route-map NAME; "" = none */
};
TAILQ_HEAD(bgp_network_list, bgp_network);

/* redistribute connected|static|kernel [metric N] [route-map NAME] (bgpd/fib/bgp_redist.c). */
enum bgp_redist_type {
	BGP_REDIST_CONNECTED, /* networks on our links (the kernel's own interface routes) */
	BGP_REDIST_STATIC,    /* kernel routes of protocol static */
	BGP_REDIST_KERNEL,    /* every other kernel route that is not BGP's */
	BGP_REDIST_MAX,
};
struct bgp_redist {
	bool on;
	bool metric_set;
	uint32_t metric;
	char rmap[BGP_RMAP_NAME_MAX]; /* "" = none */
};

/* The instance; skua runs one. */
/*
 * The best-path knobs, FRR 8.4's flags of the same names; all false is FRR's `frr defaults
 * traditional` (deterministic-med included: FRR 8.4 prints `bgp deterministic-med` when on).
 */
struct bgp_bestpath {
	bool deterministic_med;	   /* bgp deterministic-med: MED within neighbor-AS groups first */
	bool always_compare_med;   /* bgp always-compare-med: MED whatever the neighbor AS */
	bool med_confed;	   /* bgp bestpath med confed */
	bool med_missing_as_worst; /* bgp bestpath med missing-as-worst: no MED = 4294967295 */
	bool compare_routerid;	   /* bgp bestpath compare-routerid: no "oldest eBGP path" rule */
	bool aspath_ignore;	   /* bgp bestpath as-path ignore: AS path length not compared */
	bool aspath_confed;	   /* bgp bestpath as-path confed: confed segments count */
	bool multipath_relax;	   /* bgp bestpath as-path multipath-relax: any AS path of the
				    * same length may be a multipath */
};

struct bgp {
	uint32_t asn;
	struct in_addr router_id;  /* effective */
	bool router_id_configured; /* bgp router-id given; otherwise chosen from local addresses */
	uint16_t keepalive;	   /* timers bgp K H */
	uint16_t holdtime;
	bool default_ipv4_unicast; /* [no] bgp default ipv4-unicast; default true */
	/* [no] bgp log-neighbor-changes; default false (FRR's traditional defaults). */
	bool log_neighbor_changes;
	/* [no] bgp ebgp-requires-policy; default true (RFC 8212, FRR >= 7.4): an eBGP neighbor
	 * without a policy in a direction gets / gives no routes that way
	 * (bgpd/rib/bgp_peer_filter.h). */
	bool ebgp_requires_policy;
	/* The last "policy not properly setup" warning (monotime), 0 = none. */
	uint64_t ebgp_policy_warned_ms;
	/* [no] bgp network import-check; default true (FRR): a `network` is announced only
	 * while the kernel has a route for exactly its prefix (bgpd/fib/bgp_network_check.c). */
	bool network_import_check;
	/* How the decision compares paths (bgpd/rib/bgp_decision.c), FRR 8.4's knobs. */
	struct bgp_bestpath bestpath;
	/* bgp cluster-id A.B.C.D (RFC 4456); 0 = the router-id. */
	struct in_addr cluster_id;
	/* Forwarding (bgpd/fib/bgp_fib.c): [no] bgp fib install, bgp fib table N, bgp fib retain.
	 */
	bool fib_install;
	uint32_t fib_table;
	bool fib_retain;
	/* maximum-paths N / maximum-paths ibgp N per address family: [af][0] eBGP, [af][1] iBGP */
	uint16_t maxpaths[BGP_AF_MAX][2];
	struct bgp_redist redist[BGP_AF_MAX][BGP_REDIST_MAX];
	/* Graceful restart (RFC 4724), FRR's global commands: `bgp graceful-restart` (RESTART),
	 * `bgp graceful-restart-disable` (DISABLE), neither (HELPER, the default: peers' routes
	 * are kept across their restarts, ours are not announced as preserved). A neighbor's own
	 * mode (bgp_peer_config.gr_mode) overrides it; bgp_peer_gr_mode() gives the effective one.
	 */
	enum bgp_gr_mode gr_mode;
	uint16_t gr_restart_time;      /* bgp graceful-restart restart-time (0-4095 s) */
	uint32_t gr_stalepath_time;    /* ... stalepath-time: a helper's limit on stale routes */
	uint32_t gr_select_defer_time; /* ... select-defer-time: the restarting side's wait */
	bool gr_preserve_fw_state;     /* ... preserve-fw-state: the F bit in our capability */
	bool gr_notification;	       /* ... notification (RFC 8538 N bit); FRR's default: on */
	/* bgp long-lived-graceful-restart stale-time N (RFC 9494); 0 = no LLGR capability. */
	uint32_t llgr_stale_time;
	/* bgp graceful-shutdown (RFC 8326): GRACEFUL_SHUTDOWN and local preference 0 on what we
	 * send, as FRR. */
	bool graceful_shutdown;
	/* The restarting speaker (bgpd/fib/bgp_fib_gr.c, bgpd/rib/bgp_rib_gr_defer.c): bgpd
	 * restarted in `bgp graceful-restart` mode and adopted the routes an earlier run left in
	 * the kernel; true until its deferred selection is done: the R bit of our OPENs. */
	bool gr_restarting;
	/* Routes of the family were found and kept in the kernel across the restart, the FIB
	 * installs, and preserve-fw-state is set: the F bit for the family (RFC 4724 3). */
	bool gr_fwd_preserved[BGP_AF_MAX];
	/* The FIB installs bgpd's routes (bgpd/fib): they outlive a session's loss. */
	bool gr_fib_forwarding;
	struct bgp_peer_list peers;
	struct hash *peer_hash; /* by address (bgp_peer_table_new()) */
	uint32_t peer_count;
	struct bgp_network_list networks[BGP_AF_MAX];
	struct bgp_rib *rib; /* RIB side, owned by bgpd/rib/bgp_rib.c */
	struct ev
		*policy_ev; /* re-evaluation after policy changes (bgpd/rib/bgp_policy_reeval.c) */
	struct event_base *base; /* the loop every layer schedules the instance's work on */
	int64_t created_epoch;
};

#define BGP_FIB_TABLE_DEFAULT 254 /* main */
/* FRR's graceful-restart defaults (bgpd.h BGP_DEFAULT_*). */
#define BGP_GR_RESTART_TIME_DEFAULT 120
#define BGP_GR_STALEPATH_TIME_DEFAULT 360
#define BGP_GR_SELECT_DEFER_TIME_DEFAULT 360
#define BGP_MAXPATHS_DEFAULT 64 /* FRR's MULTIPATH_NUM */

/* The peers of an instance by address: the table for bgp->peer_hash, and a lookup in it
 * (IPv4-mapped IPv6 addresses find the IPv4 peer). */
struct hash *bgp_peer_table_new(void);
struct bgp_peer *bgp_peer_lookup(struct bgp *bgp, const struct ipaddr *addr);

#endif /* SKUA_BGP_H */
