/* SPDX-License-Identifier: ISC */
/*
 * OPEN (RFC 4271 4.2, 6.2) with optional parameters (RFC 9072 extended length) and
 * capabilities (RFC 5492): multiprotocol (RFC 4760), route refresh (RFC 2918, and the
 * pre-standard code 128), 4-octet AS (RFC 6793), extended message (RFC 8654), enhanced route
 * refresh (RFC 7313), graceful restart (RFC 4724 with RFC 8538's N bit) and long-lived
 * graceful restart (RFC 9494). Unknown capabilities are ignored.
 *
 * Use: bgp_open_encode() builds ours; on receipt bgp_open_decode() checks the syntax and
 * bgp_open_check() the semantics against our configuration and negotiates the session
 * (bgp_open_receive() does both). Every error fills the NOTIFICATION to send.
 */
#ifndef SKUA_BGP_OPEN_H
#define SKUA_BGP_OPEN_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_error.h"

#define BGP_VERSION 4
#define BGP_AS_TRANS 23456 /* RFC 6793 */

/* Optional parameter types. */
#define BGP_OPEN_OPT_CAPABILITIES 2
#define BGP_OPEN_OPT_EXTENDED 255 /* RFC 9072: the "Non-Ext OP Type" marker */

/* Capability codes (IANA). */
enum bgp_cap_code {
	BGP_CAP_MP = 1,
	BGP_CAP_ROUTE_REFRESH = 2,
	BGP_CAP_EXT_MESSAGE = 6,
	BGP_CAP_ROLE = 9, /* BGP Role (RFC 9234 4.1) */
	BGP_CAP_GRACEFUL_RESTART = 64,
	BGP_CAP_AS4 = 65,
	BGP_CAP_ADDPATH = 69,
	BGP_CAP_ENHANCED_RR = 70,
	BGP_CAP_LLGR = 71,
	BGP_CAP_ROUTE_REFRESH_OLD = 128, /* pre-RFC 2918 Cisco code, still sent by some */
};

/* The capabilities one side advertised. */
struct bgp_caps {
	bool present; /* at least one Capabilities optional parameter */
	bool mp_any;  /* at least one MP capability, even for families we do not handle */
	bool mp[BGP_AF_MAX];
	bool as4;
	uint32_t as4_asn;
	bool route_refresh;	/* code 2 */
	bool route_refresh_old; /* code 128 */
	bool enhanced_rr;
	bool ext_message;
	/* Graceful Restart (RFC 4724 3): the flags and restart time, then per family whether it
	 * was listed (its state is preserved across a restart) and its Forwarding State bit. */
	bool gr;
	bool gr_restart;      /* R bit: the sender has restarted */
	bool gr_notification; /* N bit (RFC 8538 2): NOTIFICATIONs are covered by GR */
	uint16_t gr_time;     /* restart time, seconds (12 bits) */
	bool gr_af[BGP_AF_MAX];
	bool gr_fwd[BGP_AF_MAX];
	/* Long-lived Graceful Restart (RFC 9494 3): per family listed, F bit, stale time. */
	bool llgr;
	bool llgr_af[BGP_AF_MAX];
	bool llgr_fwd[BGP_AF_MAX];
	uint32_t llgr_time[BGP_AF_MAX]; /* seconds (24 bits) */
	/* BGP Role (RFC 9234 4.1): the sender's role, 0 provider, 1 route server, 2 route server
	 * client, 3 customer, 4 peer. Shown only ("Remote Role", as FRR): skua sends none and
	 * checks none. A length other than 1 or an unknown value is ignored (unknown). */
	bool role;
	uint8_t role_value;
	uint16_t unknown; /* capabilities ignored (unknown code, or MP for another family) */
};

/* A decoded OPEN. */
struct bgp_open {
	uint8_t version;
	uint16_t my_as; /* the 2-octet field (AS_TRANS from a 4-octet AS speaker) */
	uint16_t holdtime;
	struct in_addr id;
	uint32_t asn; /* the peer's AS: the AS4 capability's value when present, else my_as */
	bool ext_opt_params; /* RFC 9072 encoding was used */
	struct bgp_caps caps;
};

/* The peer AS a neighbor statement accepts (remote-as ASNUM|internal|external). */
enum bgp_remote_as_type {
	BGP_REMOTE_AS_SPECIFIED = 0,
	BGP_REMOTE_AS_INTERNAL,
	BGP_REMOTE_AS_EXTERNAL,
};

/* Our side: what we advertise and what we accept. */
struct bgp_open_local {
	uint32_t asn;
	struct in_addr id;
	uint16_t holdtime;   /* 0 = no keepalives; otherwise at least 3 */
	bool af[BGP_AF_MAX]; /* families we advertise (MP capability each) */
	bool route_refresh;  /* advertise route refresh (codes 2 and 128) */
	bool enhanced_rr;    /* advertise enhanced route refresh (RFC 7313) */
	bool ext_message;    /* advertise extended messages (RFC 8654) */
	/* Graceful Restart capability: sent when gr is set (FRR: unless graceful-restart-disable),
	 * with the R and N bits and the restart time; the families of gr_af are listed (FRR lists
	 * them only in restart mode), each with its F bit. */
	bool gr;
	bool gr_restart;
	bool gr_notification;
	uint16_t gr_time; /* 0-4095 */
	bool gr_af[BGP_AF_MAX];
	bool gr_fwd[BGP_AF_MAX];
	/* Long-lived Graceful Restart capability: sent when llgr is set, listing the families of
	 * llgr_af with their F bit and llgr_time (0-16777215 s). */
	bool llgr;
	bool llgr_af[BGP_AF_MAX];
	bool llgr_fwd[BGP_AF_MAX];
	uint32_t llgr_time;
	/* Which peer AS we accept (RFC 4271 6.2 Bad Peer AS): SPECIFIED = remote_as exactly
	 * (remote_as 0 = any AS), INTERNAL = our own AS, EXTERNAL = any other AS. */
	enum bgp_remote_as_type remote_as_type;
	/* The peer is in another member AS of our confederation (RFC 5065): not external. */
	bool confed;
	uint32_t remote_as;
	bool force_ext_opt_params; /* RFC 9072 encoding even when not needed (tests, interop) */
};

/* What both sides agreed on. */
struct bgp_open_result {
	bool af[BGP_AF_MAX]; /* advertised by both (a peer without MP capabilities: IPv4 unicast) */
	bool as4;	     /* both sent the 4-octet AS capability (we always do) */
	bool route_refresh;  /* the peer supports ROUTE-REFRESH (code 2 or 128) */
	bool enhanced_rr;    /* both advertised enhanced route refresh */
	bool ext_message;    /* both advertised extended messages: 65535-byte messages */
	bool gr;	     /* both advertised Graceful Restart: we help the peer restart */
	bool gr_notification; /* both set the N bit (RFC 8538): NOTIFICATIONs keep GR */
	bool llgr;	      /* both advertised Long-lived Graceful Restart */
	uint16_t holdtime;    /* min(ours, theirs); 0 = no hold timer and no keepalives */
	uint16_t keepalive;   /* holdtime / 3 (the session may configure less) */
	uint32_t remote_as;
	struct in_addr remote_id;
	bool ebgp;		/* another AS, outside our confederation */
	bool confed;		/* another member AS of our confederation (local->confed) */
	struct bgp_caps remote; /* as the peer sent them (show bgp neighbors) */
};

/* Our OPEN, header included, into buf; returns the length or 0 when it does not fit. */
size_t bgp_open_encode(uint8_t *buf, size_t size, const struct bgp_open_local *local);

/*
 * Decode an OPEN body (after the header). Syntax errors only: version, parameter and
 * capability lengths, unsupported optional parameters. 0 or -1 with err:
 *   version != 4                      -> 2/1, data = 2-byte version we support (4)
 *   parameter/capability overrun      -> 2/0 Unspecific
 *   optional parameter type not 2     -> 2/4 Unsupported Optional Parameter
 *   known capability of wrong length  -> 2/0 Unspecific
 *   (Graceful Restart shorter than 2 bytes; as FRR, a trailing partial family entry of GR or
 *   LLGR is ignored)
 */
int bgp_open_decode(struct bgp_open *open, const uint8_t *body, size_t len, struct bgp_error *err);

/*
 * RFC 4271 6.2 checks of a decoded OPEN against our configuration, then negotiation.
 *   peer AS 0, not the configured AS, AS4 mismatch with My AS  -> 2/2 Bad Peer AS, data = the
 *        My AS field (2 bytes), or the AS4 capability's AS (4 bytes) when that was sent
 *   hold time 1 or 2                  -> 2/6 Unacceptable Hold Time, data = the hold time
 *   BGP Identifier 0, or equal to ours on iBGP (RFC 6286 2.2) -> 2/3, data = the identifier
 *   no address family in common       -> 2/7 Unsupported Capability, data = our MP capabilities
 */
int bgp_open_check(const struct bgp_open *open, const struct bgp_open_local *local,
		   struct bgp_open_result *res, struct bgp_error *err);

/* decode + check. */
int bgp_open_receive(const uint8_t *body, size_t len, const struct bgp_open_local *local,
		     struct bgp_open_result *res, struct bgp_error *err);

/* FRR-style capability names for logs and show: "multiprotocol", "4-octet AS", ... */
const char *bgp_cap_name(uint8_t code);

#endif /* SKUA_BGP_OPEN_H */
