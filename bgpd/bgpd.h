/* SPDX-License-Identifier: ISC */
/*
 * The BGP instance and its peers: the configuration the northbound fills in, and the lifecycle
 * functions it calls. Session state lives in struct bgp_session (bgpd/bgp_session.h, session
 * side) and per-peer RIB state in struct rib_peer (bgpd/bgp_rib.h, RIB side); each side owns
 * its half and frees it in one place.
 */
#ifndef SKUA_BGPD_H
#define SKUA_BGPD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "lib/memory.h"
#include "lib/prefix.h"

struct event_base;
struct hash;
struct bgp_session;
struct rib_peer;
struct bgp_rib;

/* Address families this speaker handles (unicast only for now). */
enum bgp_af {
	BGP_AF_IPV4_UNICAST = 0,
	BGP_AF_IPV6_UNICAST,
	BGP_AF_MAX,
};

#define BGP_AFI_IPV4 1 /* RFC 4760 AFI values */
#define BGP_AFI_IPV6 2
#define BGP_SAFI_UNICAST 1

static inline int bgp_af_family(enum bgp_af af)
{
	return af == BGP_AF_IPV4_UNICAST ? AF_INET : AF_INET6;
}

/* FRR's names: "ipv4Unicast" (JSON keys), "IPv4 Unicast" (text). */
const char *bgp_af_json_name(enum bgp_af af);
const char *bgp_af_text_name(enum bgp_af af);
/* AFI/SAFI from the wire to our enum; -1 when we do not handle the pair. */
int bgp_af_from_afi_safi(uint16_t afi, uint8_t safi);
void bgp_af_to_afi_safi(enum bgp_af af, uint16_t *afi, uint8_t *safi);

/* Defaults as FRR's "traditional" profile. */
#define BGP_DEFAULT_KEEPALIVE 60
#define BGP_DEFAULT_HOLDTIME 180
#define BGP_DEFAULT_CONNECT_RETRY 120
#define BGP_PORT 179

enum bgp_remote_as_type {
	BGP_REMOTE_AS_SPECIFIED = 0,
	BGP_REMOTE_AS_INTERNAL,
	BGP_REMOTE_AS_EXTERNAL,
};

/* The direction of a neighbor's policy. */
enum bgp_dir {
	BGP_DIR_IN = 0,
	BGP_DIR_OUT,
	BGP_DIR_MAX,
};

/* neighbor X remove-private-AS [all] [replace-AS], towards eBGP neighbors (FRR). */
enum bgp_rpa {
	BGP_RPA_OFF = 0,
	BGP_RPA_ONLY,	      /* an all-private path is emptied */
	BGP_RPA_ONLY_REPLACE, /* ... or its ASes replaced by ours */
	BGP_RPA_ALL,	      /* every private AS removed */
	BGP_RPA_ALL_REPLACE,  /* every private AS replaced by ours */
};

#define BGP_ALLOWAS_ORIGIN 0xFF
#define BGP_ALLOWAS_DEFAULT 3 /* `allowas-in` without a count, as FRR */

/* neighbor X next-hop-self [force] toward an iBGP neighbor. */
enum bgp_nhs {
	BGP_NHS_OFF = 0,
	BGP_NHS_SELF,  /* routes from eBGP (and our own, always) */
	BGP_NHS_FORCE, /* reflected iBGP routes too */
};

/* neighbor X maximum-prefix N [THRESHOLD] [warning-only|restart MINUTES] in one family (FRR):
 * more than max accepted prefixes (after the inbound policy, as FRR counts) closes the session
 * with Cease/Maximum Number of Prefixes Reached (RFC 4486) and keeps it down, or only logs. */
struct bgp_maxpfx {
	uint32_t max;	   /* 0 = not configured */
	uint8_t threshold; /* % of max at which a warning is logged once */
	bool warning_only;
	uint16_t restart; /* minutes before the session may come up again; 0 = `clear bgp` only */
};
#define BGP_MAXPFX_THRESHOLD_DEFAULT 75 /* FRR's */

/* Per-AF activation as configured: DEFAULT follows `bgp default ipv4-unicast` for IPv4
 * unicast and means "off" for the others. */
enum bgp_af_activation {
	BGP_AF_ACT_DEFAULT = 0,
	BGP_AF_ACT_ON,
	BGP_AF_ACT_OFF,
};

/* Strings in struct bgp_peer_config (description, password, update_source_ifname) are
 * allocated with this type by the northbound (defined in bgpd/bgp_nb_config.c); whatever is
 * left when a peer goes, bgp_peer_delete() frees. */
DECLARE_MTYPE(BGP_PEER_CONF);

/* What the northbound sets for one neighbor. */
struct bgp_peer_config {
	struct ipaddr addr;
	enum bgp_remote_as_type remote_as_type;
	uint32_t remote_as; /* when SPECIFIED */
	char *description;  /* MTYPE_BGP_PEER_CONF, NULL when unset */
	/* neighbor X local-as AS [no-prepend [replace-as]] (eBGP): 0 = none. */
	uint32_t local_as;
	bool local_as_no_prepend;
	bool local_as_replace;
	bool shutdown;
	bool passive;
	bool timers_configured; /* neighbor X timers K H */
	uint16_t keepalive;
	uint16_t holdtime;
	uint16_t connect_retry;	     /* neighbor X timers connect N, default 120 */
	struct ipaddr update_source; /* family 0 = none */
	char *update_source_ifname;  /* update-source by interface name, NULL = none */
	uint8_t ebgp_multihop;	   /* 0 = not configured; otherwise the TTL to send with (1-255) */
	char *password;		   /* TCP-MD5 key, NULL = none */
	uint8_t ttl_security_hops; /* GTSM hops, 0 = off */
	bool disable_connected_check; /* neighbor X disable-connected-check (bgp_connected.c) */
	uint16_t adv_interval;	      /* neighbor X advertisement-interval (MRAI), seconds; 0 */
	enum bgp_af_activation af_activation[BGP_AF_MAX];
	/* neighbor X prefix-list NAME <in|out> per family; NULL = none. A name that names no
	 * list denies everything, as in FRR (bgpd/bgp_policy.h). */
	char *plist[BGP_AF_MAX][BGP_DIR_MAX];
	/* neighbor X filter-list NAME <in|out> (an AS path access list); NULL = none. */
	char *aspath_list[BGP_AF_MAX][BGP_DIR_MAX];
	/* neighbor X route-map NAME <in|out>; NULL = none (a missing route-map denies). */
	char *rmap[BGP_AF_MAX][BGP_DIR_MAX];
	bool rr_client[BGP_AF_MAX]; /* neighbor X route-reflector-client */
	/* neighbor X allowas-in [(1-10)|origin]: our AS may appear this many times (0 = the
	 * default loop check); BGP_ALLOWAS_ORIGIN: only as the origin. */
	uint8_t allowas_in[BGP_AF_MAX];
	bool soft_reconfig[BGP_AF_MAX];		    /* neighbor X soft-reconfiguration inbound */
	enum bgp_rpa remove_private_as[BGP_AF_MAX]; /* neighbor X remove-private-AS ... */
	enum bgp_nhs nexthop_self[BGP_AF_MAX];	    /* neighbor X next-hop-self [force] */
	char *peer_group; /* neighbor X peer-group NAME (MTYPE_BGP_PEER_CONF); NULL: none */
	/* no neighbor X send-community ...: the kinds not sent (BGP_SEND_COMM_*); 0 = all. */
	uint8_t send_comm_off[BGP_AF_MAX];
	struct bgp_maxpfx maxpfx[BGP_AF_MAX]; /* neighbor X maximum-prefix ... */
};

#define BGP_SEND_COMM_STANDARD 0x1
#define BGP_SEND_COMM_EXTENDED 0x2
#define BGP_SEND_COMM_LARGE 0x4

/* Free the strings the northbound put into a peer's configuration (MTYPE_BGP_PEER_CONF). */
static inline void bgp_peer_config_strings_free(struct bgp_peer_config *c)
{
	XFREE(MTYPE_BGP_PEER_CONF, c->description);
	XFREE(MTYPE_BGP_PEER_CONF, c->password);
	XFREE(MTYPE_BGP_PEER_CONF, c->update_source_ifname);
	XFREE(MTYPE_BGP_PEER_CONF, c->peer_group);
	for (int af = 0; af < BGP_AF_MAX; af++)
		for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
			XFREE(MTYPE_BGP_PEER_CONF, c->plist[af][dir]);
			XFREE(MTYPE_BGP_PEER_CONF, c->aspath_list[af][dir]);
			XFREE(MTYPE_BGP_PEER_CONF, c->rmap[af][dir]);
		}
}
#define BGP_SEND_COMM_ALL 0x7

/* Why the configuration of a peer changed: the session side decides what it needs to do. */
enum bgp_peer_change {
	BGP_PEER_CHG_REMOTE_AS,
	BGP_PEER_CHG_DESCRIPTION,
	BGP_PEER_CHG_SHUTDOWN,
	BGP_PEER_CHG_PASSIVE,
	BGP_PEER_CHG_TIMERS,
	BGP_PEER_CHG_CONNECT_RETRY,
	BGP_PEER_CHG_UPDATE_SOURCE,
	BGP_PEER_CHG_MULTIHOP,
	BGP_PEER_CHG_AF_ACTIVATION,
	BGP_PEER_CHG_PASSWORD,
	BGP_PEER_CHG_TTL_SECURITY,
	BGP_PEER_CHG_CONNECTED_CHECK,
	BGP_PEER_CHG_LOCAL_AS,
};

struct bgp_peer {
	struct bgp *bgp;
	TAILQ_ENTRY(bgp_peer) entry;
	struct bgp_peer_config conf;
	uint32_t index;		     /* small dense number, reused after delete (RIB bitmaps) */
	char name[IPADDR_STRLEN];    /* the address as text, for log prefixes */
	struct bgp_session *session; /* session side, owned by bgp_session.c */
	struct rib_peer *rib;	     /* RIB side, owned by bgp_rib.c */
	uint8_t policy_pending[BGP_AF_MAX]; /* 1 << enum bgp_dir: re-evaluation due */
	bool dynamic; /* made by a listen range (bgpd/bgp_dynamic.h), gone with its session */
};

TAILQ_HEAD(bgp_peer_list, bgp_peer);

/* A `network` statement. */
struct bgp_network {
	TAILQ_ENTRY(bgp_network) entry;
	struct prefix prefix;
};
TAILQ_HEAD(bgp_network_list, bgp_network);

/* redistribute connected|static|kernel [metric N] [route-map NAME] (bgpd/bgp_redist.c). */
enum bgp_redist_type {
	BGP_REDIST_CONNECTED, /* networks on our links (the kernel's own interface routes) */
	BGP_REDIST_STATIC,    /* kernel routes of protocol static */
	BGP_REDIST_KERNEL,    /* every other kernel route that is not BGP's */
	BGP_REDIST_MAX,
};
#define BGP_RMAP_NAME_MAX 64
struct bgp_redist {
	bool on;
	bool metric_set;
	uint32_t metric;
	char rmap[BGP_RMAP_NAME_MAX]; /* "" = none */
};

/* The instance (`router bgp ASN`); skua runs one. */
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
	 * without a policy in a direction gets / gives no routes that way (bgpd/bgp_policy.h). */
	bool ebgp_requires_policy;
	/* The last "policy not properly setup" warning (monotime), 0 = none. */
	uint64_t ebgp_policy_warned_ms;
	/* [no] bgp network import-check; default true (FRR). Stored only: skua announces every
	 * `network` without looking for it in the kernel's table (FRR with the switch off). */
	bool network_import_check;
	/* bgp cluster-id A.B.C.D (RFC 4456); 0 = the router-id. */
	struct in_addr cluster_id;
	/* Forwarding (bgpd/bgp_fib.c): [no] bgp fib install, bgp fib table N, bgp fib retain. */
	bool fib_install;
	uint32_t fib_table;
	bool fib_retain;
	/* maximum-paths N / maximum-paths ibgp N per address family: [af][0] eBGP, [af][1] iBGP */
	uint16_t maxpaths[BGP_AF_MAX][2];
	struct bgp_redist redist[BGP_AF_MAX][BGP_REDIST_MAX];
	struct bgp_peer_list peers;
	struct hash *peer_hash; /* by address */
	uint32_t peer_count;
	struct bgp_network_list networks[BGP_AF_MAX];
	struct bgp_rib *rib;  /* RIB side, owned by bgp_rib.c */
	struct ev *policy_ev; /* re-evaluation after policy changes (bgpd/bgp_policy.c) */
	struct event_base *base;
	int64_t created_epoch;
};

#define BGP_FIB_TABLE_DEFAULT 254 /* main */
#define BGP_MAXPATHS_DEFAULT 64	  /* FRR's MULTIPATH_NUM */

/* The forwarding settings changed (bgpd/bgp_fib.c). */
void bgp_fib_config_changed(struct bgp *bgp);
void bgp_maxpaths_changed(struct bgp *bgp, enum bgp_af af);
/* What is redistributed, or a route-map it may use, changed: applied on the next loop turn. */
void bgp_redist_changed(struct bgp *bgp);

/* The running instance, or NULL before `router bgp`. */
struct bgp *bgp_get(void);
/* The event loop the daemon runs (set once at start-up; tests set their own). */
void bgp_set_event_base(struct event_base *base);
struct event_base *bgp_event_base(void);

struct bgp *bgp_create(uint32_t asn);
void bgp_delete(struct bgp *bgp); /* stops every session (Cease) and frees everything */

struct bgp_peer *bgp_peer_lookup(struct bgp *bgp, const struct ipaddr *addr);
struct bgp_peer *bgp_peer_create(struct bgp *bgp, const struct ipaddr *addr);
void bgp_peer_delete(struct bgp_peer *peer); /* Cease to the peer, withdraw its routes, free */
void bgp_peer_config_changed(struct bgp_peer *peer, enum bgp_peer_change what);
/* A neighbor's policy for af in direction dir changed (bgpd/bgp_policy.c): its routes are
 * re-evaluated on the next loop turn, once however many changes a commit made. */
void bgp_policy_changed(struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir);
/* `soft-reconfiguration inbound` changed for af: the RIB keeps the peer's routes as received
 * from now on (asking the peer to resend them) or drops its copy. */
void bgp_policy_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af);
/*
 * Can the running kernel (bgpd's start-up probe) enforce a neighbor's `password` (TCP-MD5) and
 * `ttl-security hops N` (GTSM, 0 = none) for a peer at addr? 0, or -1 with msg saying what is
 * missing and what to do. Meant for the northbound's VALIDATE, so that such a configuration is
 * refused rather than run unprotected; the session side also keeps a refused peer down.
 */
int bgp_peer_security_check(const struct ipaddr *addr, bool password, unsigned ttl_security_hops,
			    char *msg, size_t size);

/* One GTSM neighbor as the listeners' rules see it. */
struct bgp_gtsm_rule {
	struct ipaddr addr;
	unsigned hops; /* 1..254 */
	uint8_t plen;  /* 0: one neighbor; else addr/plen is a listen range */
	bool exempt;   /* a neighbor without GTSM inside a GTSM listen range (hops 0) */
};
/*
 * Do the listeners' GTSM programs hold these rules (one program per family, at most 4,096
 * classic BPF instructions each; doc/gtsm-kernel.md "Limits")? 0, or -1 with msg saying how
 * far over the limit it is and what to do. For the northbound's whole-tree validation, so
 * that a configuration the listener could not enforce is refused, not left stale.
 */
int bgp_gtsm_rules_check(const struct bgp_gtsm_rule *rules, size_t n, char *msg, size_t size);

/* Effective values (configured or inherited from the instance / defaults). */
bool bgp_peer_is_ebgp(const struct bgp_peer *peer); /* needs the remote AS (learned for external) */
uint32_t bgp_peer_remote_as_expected(const struct bgp_peer *peer); /* 0 = any (external/internal) */
bool bgp_peer_af_activated(const struct bgp_peer *peer, enum bgp_af af);
uint16_t bgp_peer_keepalive(const struct bgp_peer *peer);
uint16_t bgp_peer_holdtime(const struct bgp_peer *peer);

void bgp_router_id_changed(struct bgp *bgp); /* reset sessions, as FRR does */
void bgp_timers_changed(struct bgp *bgp);    /* applies to new sessions */
void bgp_default_af_changed(struct bgp *bgp);
/* neighbor X maximum-prefix changed for af: the accepted count is checked against it at once
 * (FRR), and a session held down by the old limit may come up. */
void bgp_max_prefix_changed(struct bgp_peer *peer, enum bgp_af af);
/* bgp ebgp-requires-policy switched: every eBGP neighbor's routes re-evaluated both ways. */
void bgp_ebgp_requires_policy_changed(struct bgp *bgp);
int bgp_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p);
int bgp_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p);

/* Graceful stop (SIGTERM): Cease to every peer, then the caller exits the loop. */
void bgp_shutdown_all(struct bgp *bgp);

#endif /* SKUA_BGPD_H */
