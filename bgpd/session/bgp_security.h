/* SPDX-License-Identifier: ISC */
/*
 * TCP-MD5 (RFC 2385) and GTSM (RFC 5082) on a peer's connection sockets: what the
 * configuration asks of the kernel, the start-up probe that refuses what the kernel cannot do,
 * the socket sequence of doc/architecture.md ("MD5 key, then TTL 255, then the minimum") on active
 * and accepted sockets, and live (hitless) GTSM changes. The listening sockets are bgp_network.c's.
 *
 * Everything goes through kernel/kernel.h (kernel/kernel_security.h); bgpd never calls a socket
 * option itself. FAIL CLOSED: whenever a step fails, the socket is closed and the reason logged
 * with the option, the peer and the errno; a connection never goes on half protected.
 */
#ifndef SKUA_BGP_SECURITY_H
#define SKUA_BGP_SECURITY_H

#include <stdbool.h>
#include <stddef.h>

#include "bgpd/core/bgp.h"
#include "kernel/kernel.h"
#include "lib/sbuf.h"

struct bgp_conn;

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

/* Probe the running kernel (bgp_main, before the configuration file is read). */
void bgp_security_probe(void);
/* Tests: the probe's result to use (NULL: none, i.e. nothing is refused). */
void bgp_security_set_caps(const struct kernel_caps *caps);
/* bgp_network.c: a listener that cannot carry the GTSM listener group (reason), or NULL when
 * every listener can. New ttl-security configuration is refused while there is one. */
void bgp_security_set_listener_problem(const char *reason);

/* What a neighbor's settings need from the kernel: a KERNEL_CAP_BIT() mask. */
unsigned bgp_security_required(int family, bool password, unsigned ttl_security_hops);
/* Every configured peer against the probe: 0, or -1 with one line per refused neighbor in why
 * (start-up: a configuration file that needs a missing kernel option stops bgpd). */
int bgp_security_check_all(const struct bgp *bgp, struct sbuf *why);

/* The sending TTL without GTSM: eBGP 1 (or ebgp-multihop N), iBGP 255, as FRR. */
int bgp_peer_plain_ttl(const struct bgp_peer *peer);
/* The minimum accepted TTL the configuration asks for: 256 - hops, or 0 without GTSM. */
int bgp_peer_min_ttl(const struct bgp_peer *peer);
void bgp_peer_sec_params(const struct bgp_peer *peer, struct kernel_sec_params *params);

/* The active socket, before bind and connect(): MD5 key, TTL, minimum. <0: logged, the
 * caller closes the socket and does not connect. */
int bgp_conn_secure(struct bgp_conn *c);
/* An accepted socket, before a byte is read: the same, then the inherited listener filter is
 * dropped (kernel_gtsm_accepted()). <0: logged, the caller closes fd. */
int bgp_sock_secure_accepted(struct bgp_peer *peer, int fd);

/*
 * Live changes, on every open socket of the peer (the Established connection and a colliding
 * or still connecting one), without a reset: ttl-security enabled or changed = TTL 255, then
 * the new minimum; removed = minimum 0, then the plain TTL. A socket that refuses is closed
 * (its connection fails as on a TCP error).
 */
void bgp_session_gtsm_live(struct bgp_peer *peer);
/* ebgp-multihop changed: the new plain TTL on the open sockets (GTSM peers keep 255). */
void bgp_session_ttl_live(struct bgp_peer *peer);

#endif /* SKUA_BGP_SECURITY_H */
