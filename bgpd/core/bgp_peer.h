/* SPDX-License-Identifier: ISC */
/*
 * A configured neighbor as every layer reads it: what the northbound set (struct
 * bgp_peer_config), the handles of its session half (session/) and RIB half (rib/), and the
 * effective values of settings a neighbor inherits from the instance. Data only: creating,
 * deleting and changing peers is bgpd/instance/bgp_instance.h's.
 */
#ifndef SKUA_BGP_PEER_H
#define SKUA_BGP_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_open.h"
#include "lib/memory.h"
#include "lib/prefix.h"

struct bgp;
struct bgp_session;
struct rib_peer;

/* Defaults as FRR's "traditional" profile. */
#define BGP_DEFAULT_KEEPALIVE 60
#define BGP_DEFAULT_HOLDTIME 180
#define BGP_DEFAULT_CONNECT_RETRY 120
#define BGP_PORT 179

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

/* Strings in struct bgp_peer_config (description, password, update_source_ifname...) are
 * allocated with this type by the northbound (defined in bgpd/config/bgp_nb_config.c);
 * whatever is left when a peer goes, bgp_peer_delete() frees. */
DECLARE_MTYPE(BGP_PEER_CONF);

/* neighbor X local-role (RFC 9234 4.2): our role on the session towards the neighbor. The
 * values are the BGP Role capability's plus one (Provider is 0 on the wire), so that 0 is
 * "none configured". ASPA verification takes its procedure from it (bgpd/rib/bgp_rib_rpki.h,
 * bgp_role_aspa_dir()). */
enum bgp_role {
	BGP_ROLE_NONE = 0,
	BGP_ROLE_PROVIDER,  /* the neighbor is our customer */
	BGP_ROLE_RS_SERVER, /* we are a route server, the neighbor its client */
	BGP_ROLE_RS_CLIENT, /* the neighbor is a route server */
	BGP_ROLE_CUSTOMER,  /* the neighbor is our provider */
	BGP_ROLE_PEER,	    /* lateral peers */
};

/* Graceful restart mode (RFC 4724), FRR's: of the instance (never INHERIT) and of a neighbor
 * (`neighbor X graceful-restart|graceful-restart-helper|graceful-restart-disable`, INHERIT when
 * none is given). */
enum bgp_gr_mode {
	BGP_GR_INHERIT = 0, /* a neighbor without its own mode: the instance's */
	BGP_GR_HELPER,	    /* keep the peer's routes across its restart; ours are not preserved */
	BGP_GR_RESTART,	    /* helper, and we advertise that we preserve our own state */
	BGP_GR_DISABLE,	    /* no Graceful Restart capability at all */
};

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
	char *shutdown_message; /* neighbor X shutdown message TEXT (RFC 9003), NULL = none */
	bool passive;
	enum bgp_gr_mode gr_mode; /* neighbor X graceful-restart...; INHERIT = the instance's */
	enum bgp_role local_role; /* neighbor X local-role ..., NONE = not configured */
	bool local_role_strict;	  /* ... strict-mode (kept for the Role capability) */
	bool timers_configured;	  /* neighbor X timers K H */
	uint16_t keepalive;
	uint16_t holdtime;
	uint16_t connect_retry;	     /* neighbor X timers connect N, default 120 */
	uint16_t send_hold_time;     /* neighbor X timers send-hold N (RFC 9687); 0 = the default */
	struct ipaddr update_source; /* family 0 = none */
	char *update_source_ifname;  /* update-source by interface name, NULL = none */
	uint8_t ebgp_multihop;	   /* 0 = not configured; otherwise the TTL to send with (1-255) */
	char *password;		   /* TCP-MD5 key, NULL = none */
	uint8_t ttl_security_hops; /* GTSM hops, 0 = off */
	bool disable_connected_check; /* neighbor X disable-connected-check (bgp_connected.c) */
	uint16_t adv_interval;	      /* neighbor X advertisement-interval (MRAI), seconds; 0 */
	enum bgp_af_activation af_activation[BGP_AF_MAX];
	/* neighbor X prefix-list NAME <in|out> per family; NULL = none. A name that names no
	 * list denies everything, as in FRR (bgpd/rib/bgp_peer_filter.h). */
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
	/* neighbor X default-originate [route-map NAME] (bgpd/rib/bgp_rib_deforig.c); the name
	 * (MTYPE_BGP_PEER_CONF) NULL = unconditional. */
	bool default_originate[BGP_AF_MAX];
	char *default_rmap[BGP_AF_MAX];
};

#define BGP_SEND_COMM_STANDARD 0x1
#define BGP_SEND_COMM_EXTENDED 0x2
#define BGP_SEND_COMM_LARGE 0x4
#define BGP_SEND_COMM_ALL 0x7

/* Free the strings the northbound put into a peer's configuration (MTYPE_BGP_PEER_CONF). */
static inline void bgp_peer_config_strings_free(struct bgp_peer_config *c)
{
	XFREE(MTYPE_BGP_PEER_CONF, c->description);
	XFREE(MTYPE_BGP_PEER_CONF, c->shutdown_message);
	XFREE(MTYPE_BGP_PEER_CONF, c->password);
	XFREE(MTYPE_BGP_PEER_CONF, c->update_source_ifname);
	XFREE(MTYPE_BGP_PEER_CONF, c->peer_group);
	for (int af = 0; af < BGP_AF_MAX; af++) {
		XFREE(MTYPE_BGP_PEER_CONF, c->default_rmap[af]);
		for (int dir = 0; dir < BGP_DIR_MAX; dir++) {
			XFREE(MTYPE_BGP_PEER_CONF, c->plist[af][dir]);
			XFREE(MTYPE_BGP_PEER_CONF, c->aspath_list[af][dir]);
			XFREE(MTYPE_BGP_PEER_CONF, c->rmap[af][dir]);
		}
	}
}

struct bgp_peer {
	struct bgp *bgp;
	TAILQ_ENTRY(bgp_peer) entry;
	struct bgp_peer_config conf;
	uint32_t index;		     /* small dense number, reused after delete (RIB bitmaps) */
	char name[IPADDR_STRLEN];    /* the address as text, for log prefixes */
	struct bgp_session *session; /* session side, owned by bgpd/session/bgp_session.c */
	struct rib_peer *rib;	     /* RIB side, owned by bgpd/rib/bgp_rib.c */
	/* The AS of the peer's last OPEN (set by the session side): what `remote-as external`
	 * and `internal` resolve to. 0 before the first OPEN. */
	uint32_t learned_as;
	uint8_t policy_pending[BGP_AF_MAX]; /* 1 << enum bgp_dir: re-evaluation due */
	bool dynamic; /* made by a listen range (bgpd/session/bgp_dynamic.h), gone with its session
		       */
};

TAILQ_HEAD(bgp_peer_list, bgp_peer);

/* Effective values (configured or inherited from the instance / defaults). */
bool bgp_peer_is_ebgp(const struct bgp_peer *peer); /* needs the remote AS (learned for external) */
/* In a member AS of our confederation other than ours (FRR's BGP_PEER_CONFED): not eBGP. */
bool bgp_peer_is_confed(const struct bgp_peer *peer);
/* The AS the neighbor knows us by (our OPEN, FRR's peer->local_as): `neighbor X local-as`, else
 * our confederation's identifier when the neighbor is outside it, else our AS. */
uint32_t bgp_peer_local_as(const struct bgp_peer *peer);
uint32_t bgp_peer_remote_as_expected(const struct bgp_peer *peer); /* 0 = any (external/internal) */
bool bgp_peer_af_activated(const struct bgp_peer *peer, enum bgp_af af);
uint16_t bgp_peer_keepalive(const struct bgp_peer *peer);
uint16_t bgp_peer_holdtime(const struct bgp_peer *peer);
enum bgp_gr_mode bgp_peer_gr_mode(const struct bgp_peer *peer); /* never INHERIT */

#endif /* SKUA_BGP_PEER_H */
