/* SPDX-License-Identifier: ISC */
/*
 * Kernel-side security layer for BGP sockets on Linux: TCP-MD5 keys (RFC 2385), GTSM (RFC 5082)
 * socket options, a classic BPF filter that applies GTSM on the shared listening socket, the
 * namespace's TcpExt counters and a start-up probe of what the running kernel supports.
 * Self-contained (kernel/libkernelsec.la) so the session layer can adopt it; see
 * doc/gtsm-kernel.md for the BPF program layout, limits and capabilities.
 *
 * Conventions
 * - Every function returns 0 (or a documented non-negative value) on success and a negative
 *   errno on failure. Nothing here logs: on failure, functions that take a
 *   struct kernel_sec_err fill it (when the pointer is not NULL) with the failing option, and a
 *   message naming the option, the peer address and strerror, plus what to do where the errno
 *   has a known cause. The caller logs it with its own peer context.
 * - Addresses are struct ipaddr (lib/prefix.h). An IPv4-mapped IPv6 address is treated as the
 *   IPv4 address. On an AF_INET6 socket, an IPv4 peer is addressed as ::ffff:a.b.c.d.
 * - Socket families are read from the socket itself (SO_DOMAIN, IPV6_V6ONLY): an AF_INET6
 *   socket without IPV6_V6ONLY carries IPv4 traffic too, and Linux governs that traffic with the
 *   IPv4 options (IP_TTL, IP_MINTTL), not IPV6_UNICAST_HOPS / IPV6_MINHOPCOUNT (verified by
 *   tests/unit/check_kernel_sockopt.c), so on such sockets both option sets are written.
 *
 * FAIL CLOSED: when any function that protects a peer's socket (kernel_sec_apply,
 * kernel_gtsm_set, kernel_md5_set, ...) fails, the socket is in an unknown, possibly unprotected
 * state. The caller MUST close it (and, for an active connection, retry later) and log
 * err->msg; it must never continue with the socket.
 */
#ifndef SKUA_KERNEL_SECURITY_H
#define SKUA_KERNEL_SECURITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"
#include "lib/prefix.h"

DECLARE_MTYPE(KERNEL_GTSM_FILTER); /* gtsm_filter.c: BPF programs and sorted rule copies */
DECLARE_MTYPE(KERNEL_NETSTAT);	   /* netstat.c: the /proc/net/netstat read buffer */
DECLARE_MTYPE(KERNEL_GTSM_GROUP);  /* gtsm_group.c: struct kernel_gtsm_group */

/* ---- Error reports ------------------------------------------------------------------------ */

#define KERNEL_SEC_ERRLEN 320

struct kernel_sec_err {
	int code;	    /* the negative errno the function returned */
	const char *option; /* static name of the failing step: "TCP_MD5SIG", "IP_MINTTL", ... */
	char msg[KERNEL_SEC_ERRLEN];
};

/* ---- TCP-MD5 (md5sig.c) ------------------------------------------------------------------- */

#define KERNEL_MD5_KEY_MAXLEN 80 /* TCP_MD5SIG_MAXKEYLEN; RFC 2385 asks for at least 80 */

/*
 * Install (or replace) the key for one peer address on fd (a listener or a connection socket):
 * TCP_MD5SIG. key is a NUL-terminated password of 1..80 bytes (-EINVAL otherwise). An IPv4
 * peer on an AF_INET6 socket is installed as ::ffff:a.b.c.d; an IPv6 peer on an AF_INET socket
 * is -EAFNOSUPPORT.
 *
 * Linux cannot read keys back (getsockopt(TCP_MD5SIG) fails with ENOPROTOOPT). To verify, the
 * caller can (a) rely on the handshake: with a key installed the kernel signs every segment to
 * that peer and drops unsigned or wrongly signed ones (TcpExt TCPMD5NotFound / TCPMD5Failure,
 * kernel_gtsm_counters_read()), or (b) dump the socket with sock_diag (INET_DIAG_MD5SIG, needs
 * CAP_NET_ADMIN; as root `ss -tni` prints "md5keys:192.0.2.1/32=<key>"). A password change
 * needs a new connection: the kernel checks every segment, so the established session stalls as
 * soon as the two ends disagree.
 */
int kernel_md5_set(int fd, const struct ipaddr *peer, const char *key, struct kernel_sec_err *err);
/* Remove the peer's key; -ENOENT when there was none. */
int kernel_md5_del(int fd, const struct ipaddr *peer, struct kernel_sec_err *err);
/*
 * A key for every address in a prefix (dynamic neighbors, "bgp listen range"): TCP_MD5SIG_EXT
 * with TCP_MD5SIG_FLAG_PREFIX (Linux >= 4.14). An exact-address key takes precedence over a
 * prefix key for the same peer (the kernel picks the longest match).
 */
int kernel_md5_set_prefix(int fd, const struct prefix *p, const char *key,
			  struct kernel_sec_err *err);
int kernel_md5_del_prefix(int fd, const struct prefix *p, struct kernel_sec_err *err);

/* ---- TTL / GTSM socket options (ttl.c) ---------------------------------------------------- */

#define KERNEL_GTSM_TTL 255 /* RFC 5082 section 3: every GTSM packet leaves with TTL 255 */

/* The minimum accepted TTL for `ttl-security hops N` (N 1..254): 256 - N; -EINVAL otherwise. */
int kernel_gtsm_min_for_hops(int hops);

/*
 * peer (may be NULL for a listener) only names the peer in err->msg. Setters write every
 * option the socket's traffic is governed by: IPv4 socket IP_*; IPv6 V6ONLY socket IPV6_*;
 * IPv6 dual-stack socket both (IPv4 first).
 */
/* Sending TTL / hop limit, 1..255 (IP_TTL, IPV6_UNICAST_HOPS). */
int kernel_ttl_set(int fd, const struct ipaddr *peer, int ttl, struct kernel_sec_err *err);
/* Minimum accepted TTL / hop limit, 0..255, 0 = off (IP_MINTTL, IPV6_MINHOPCOUNT). */
int kernel_minttl_set(int fd, const struct ipaddr *peer, int minttl, struct kernel_sec_err *err);
/* Read back one option family's value: af AF_INET reads IP_TTL / IP_MINTTL, AF_INET6 reads
 * IPV6_UNICAST_HOPS / IPV6_MINHOPCOUNT. Returns the value (>= 0) or -errno. */
int kernel_ttl_get(int fd, int af);
int kernel_minttl_get(int fd, int af);
/* Which option family governs a connected socket's traffic: AF_INET for an AF_INET socket and
 * for an AF_INET6 socket whose peer is IPv4-mapped, AF_INET6 otherwise; -errno on failure.
 * Use it to pick the af for kernel_ttl_get()/kernel_minttl_get() in show commands. */
int kernel_sec_traffic_family(int fd);

/* GTSM for `hops N` on a live or new socket: TTL 255, then minimum 256-N. No reset needed. */
int kernel_gtsm_set(int fd, const struct ipaddr *peer, int hops, struct kernel_sec_err *err);
/* GTSM off: minimum 0, then the sending TTL to ttl (1..255; 0 leaves it as it is). */
int kernel_gtsm_clear(int fd, const struct ipaddr *peer, int ttl, struct kernel_sec_err *err);

struct kernel_sec_params {
	const char *md5_key; /* NULL: no key (an empty string is an error, not "no key") */
	int gtsm_hops;	     /* 1..254; 0: GTSM off */
	int ttl;	     /* GTSM off only: sending TTL 1..255 (ebgp-multihop), 0: leave it */
};

/*
 * The whole sequence for a BGP socket (active before connect(), accepted right after accept()),
 * in the order doc/architecture.md sets: MD5 key (if any), then TTL 255, then the minimum TTL (or,
 * with GTSM off, the configured sending TTL). Stops at the first failure and returns it: the caller
 * MUST then close the socket (FAIL CLOSED above).
 */
int kernel_sec_apply(int fd, const struct ipaddr *peer, const struct kernel_sec_params *params,
		     struct kernel_sec_err *err);

/* ---- GTSM on the listening socket: classic BPF filter (gtsm_filter.c) -------------------- */

/*
 * A listener has no per-peer minimum TTL, so the SYN and the handshake-completing ACK of a GTSM
 * peer are not TTL-checked by the kernel. This filter drops, on the listener, every segment whose
 * source is a GTSM peer and whose TTL / hop limit is below that peer's minimum; everything else
 * (peers without GTSM, multihop peers, unknown sources) is accepted. Accepted sockets inherit
 * the filter as it was at accept() time: once the session layer has applied IP_MINTTL to the
 * accepted socket it should call kernel_gtsm_filter_detach() on it, or a later live change of a
 * peer's GTSM setting would not reach that connection's copy.
 *
 * Order on Linux (tcp_v4_rcv / tcp_v6_rcv): the listener's own min TTL (none), then the MD5
 * check, then this filter. On a plain listener a spoofed SYN claiming an MD5 peer is therefore
 * still checked for its signature (TCPMD5NotFound/Failure count it) before the filter drops it;
 * the GTSM listener group below drops it before MD5 and keeps this filter for the handshake ACK.
 * The filter's own drops are counted nowhere in TcpExt.
 *
 * Attaching needs CAP_NET_ADMIN on this kernel (EPERM otherwise, even for root without it).
 * The program (and, while it is replaced, the old one too) is charged against the socket's
 * option memory together with its TCP-MD5 keys: ENOMEM means net.core.optmem_max is too small.
 */
struct kernel_gtsm_peer {
	struct ipaddr addr;
	uint8_t min_ttl; /* 256 - hops; 0: no GTSM for this peer (no rule) */
	/* 0: addr is one peer. Otherwise addr/plen is a prefix (`bgp listen range`): a rule for
	 * every address in it, checked after every exact rule, longest prefix first, so an
	 * exact rule always wins. */
	uint8_t plen;
	/* An exact address (plen 0, min_ttl 0) that a prefix rule covers but that must pass
	 * at any TTL (a configured neighbor without GTSM inside a GTSM range). */
	bool exempt;
};

#define KERNEL_GTSM_FILTER_V4 0x1u /* the socket receives IPv4 (AF_INET, or dual-stack) */
#define KERNEL_GTSM_FILTER_V6 0x2u /* the socket receives IPv6 */

struct sock_filter; /* <linux/filter.h> */

struct kernel_gtsm_prog {
	struct sock_filter *insns; /* MTYPE_KERNEL_GTSM_FILTER, owned by the prog */
	unsigned len;		   /* instructions, <= 4096 (BPF_MAXINSNS) */
	unsigned rules_v4;	   /* GTSM peers in the program, per family */
	unsigned rules_v6;
};

/*
 * Compile the rules for the families in `families` (peers of other families and peers with
 * min_ttl 0 are left out). prog NULL: only count. Returns the number of instructions, -E2BIG
 * when the program would exceed 4096 instructions, -EINVAL for a peer address listed twice or of
 * no family. Capacity (doc/gtsm-kernel.md "Limits"): 4,005 IPv4 peers, or 3,886 IPv6 peers
 * sharing their first 96 bits, when they share one minimum; at least 313 peers in any mix.
 */
int kernel_gtsm_filter_build(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
			     struct kernel_gtsm_prog *prog, struct kernel_sec_err *err);
void kernel_gtsm_prog_free(struct kernel_gtsm_prog *prog);

/*
 * Build for what the listener receives and attach (SO_ATTACH_FILTER), replacing any filter
 * atomically (the kernel swaps the program; no segment sees "no filter"). With no GTSM peer the
 * filter is detached instead. Returns the number of instructions attached (0 when detached).
 */
int kernel_gtsm_filter_attach(int fd, const struct kernel_gtsm_peer *peers, size_t n,
			      struct kernel_sec_err *err);
/* Remove the filter (SO_DETACH_FILTER); a socket without one is not an error. */
int kernel_gtsm_filter_detach(int fd, struct kernel_sec_err *err);
/* Instructions in the socket's filter (SO_GET_FILTER), 0 if none, -errno. */
int kernel_gtsm_filter_len(int fd);

/* ---- GTSM listener group: SO_REUSEPORT listener + sink (gtsm_group.c) ------------------- */

/*
 * The filter above runs after the listener's TCP-MD5 check, so a spoofed low-TTL SYN claiming a
 * keyed peer still costs MD5 work (TCPMD5NotFound / TCPMD5Failure). The group moves the GTSM
 * decision in front of MD5: two SO_REUSEPORT listeners on one address and port,
 *
 *   index 0  the listener: TTL 255, no minimum, the GTSM filter above, every peer's MD5 key
 *            (the caller installs them on kernel_gtsm_group_fd()); bgpd accepts here only;
 *   index 1  the sink: IP_MINTTL / IPV6_MINHOPCOUNT 255 (both on a dual-stack socket), a
 *            drop-everything filter, no keys, never accepts anything;
 *
 * and a classic BPF reuseport selector (SO_ATTACH_REUSEPORT_CBPF), compiled from the GTSM peers,
 * that sends a GTSM peer's segment below its minimum to the sink and everything else to the
 * listener. The kernel picks the socket at lookup, before tcp_v4_rcv / tcp_v6_rcv checks the
 * chosen socket's own minimum, which comes before MD5: such a SYN (or stray ACK, or syncookie
 * ACK) is dropped as a TCPMinTTLDrop with no MD5 work, no SYN-ACK, no request socket. A sink
 * minimum of 255 drops all it gets because the selector only sends it segments below a minimum,
 * i.e. TTL <= 254. The group never changes its membership after kernel_gtsm_group_open(), so
 * the indexes never move; an update is one atomic program swap. doc/gtsm-kernel.md has the
 * design, why not one listener per minimum, and the proofs.
 *
 * The handshake-completing ACK of a request goes to the request's listener without a minimum
 * check (LAB-NOTES); the listener's GTSM filter drops it when it is below the peer's minimum.
 *
 * Needs CAP_NET_ADMIN (the filters). A group failing in the middle of an update is marked
 * broken (every later call returns -EIO): FAIL CLOSED, the caller must close it and open a new
 * one.
 */
struct kernel_gtsm_group;

#define KERNEL_GTSM_GROUP_LISTENER 0u /* reuseport index of the accepting listener */
#define KERNEL_GTSM_GROUP_SINK 1u     /* reuseport index of the sink */

/*
 * Build the selector for the families in `families`: returns KERNEL_GTSM_GROUP_SINK for a GTSM
 * peer's packet below its minimum, KERNEL_GTSM_GROUP_LISTENER for every other packet (the
 * socket filter's program with these two return values, same layout, size and limits). With no
 * GTSM peer it is the single instruction "ret #0". Same returns and errors as
 * kernel_gtsm_filter_build().
 */
int kernel_gtsm_selector_build(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
			       struct kernel_gtsm_prog *prog, struct kernel_sec_err *err);

/*
 * Open a group on addr:port (addr :: or a specific address; an AF_INET6 address with v6only
 * false is dual-stack, v6only true carries IPv6 only; v6only is ignored for IPv4). port 0 picks
 * one (kernel_gtsm_group_port()). backlog is the listener's listen() backlog. peers (may be
 * empty) are the initial GTSM rules, as for kernel_gtsm_filter_attach().
 *
 * Sequence (no instant without protection): a plain bind probe refuses a port somebody already
 * listens on (-EADDRINUSE; SO_REUSEPORT would otherwise join a second daemon's group silently);
 * the listener is configured (SO_REUSEADDR, SO_REUSEPORT, TTL 255, the GTSM filter, and a
 * temporary minimum of 255), bound, listening, then gets the selector; the sink is created and
 * joins at index 1; only then the listener's minimum drops to 0. Both sockets are non-blocking
 * and close-on-exec. Returns 0 and *out, or -errno with err filled and nothing left open.
 */
int kernel_gtsm_group_open(const struct ipaddr *addr, uint16_t port, bool v6only, int backlog,
			   const struct kernel_gtsm_peer *peers, size_t n,
			   struct kernel_gtsm_group **out, struct kernel_sec_err *err);

/*
 * Replace the GTSM rules (the whole peer set, as for kernel_gtsm_filter_attach()). Both programs
 * are built first (a build error changes nothing), then the selector is swapped (atomic in the
 * kernel; a tightened peer's low-TTL SYNs go to the sink from that instant), then the listener's
 * filter. If the filter swap fails, the old selector is put back and the group is as before
 * (-errno); if that fails too, the group is broken (see above).
 */
int kernel_gtsm_group_update(struct kernel_gtsm_group *g, const struct kernel_gtsm_peer *peers,
			     size_t n, struct kernel_sec_err *err);

/* Close the listener first (the sink, alone at index 0, then gets and drops everything), then
 * the sink. NULL is a no-op. */
void kernel_gtsm_group_close(struct kernel_gtsm_group *g);

/* The listener: accept() on it, watch it for readability, install every peer's MD5 key on it. */
int kernel_gtsm_group_fd(const struct kernel_gtsm_group *g);
/* The sink (tests, show commands); never accept() on it. */
int kernel_gtsm_group_sink_fd(const struct kernel_gtsm_group *g);
uint16_t kernel_gtsm_group_port(const struct kernel_gtsm_group *g);
/* Instructions of the current selector and filter (0: no filter); GTSM rules in them. */
void kernel_gtsm_group_stats(const struct kernel_gtsm_group *g, unsigned *selector_len,
			     unsigned *filter_len, unsigned *rules);

/*
 * Right after accept() on kernel_gtsm_group_fd() (or any listener carrying the GTSM filter): an
 * accepted socket inherits the listener's TTL 255, minimum (0, or 255 if it completed during
 * kernel_gtsm_group_open()), the GTSM filter as it was, and the peer's MD5 key. This does
 * kernel_sec_apply(), then sets the minimum explicitly (the peer's 256 - hops, or 0 without
 * GTSM, so no inherited value survives), then detaches the inherited filter, in that order so
 * that the segment never goes without either. params->ttl: the sending TTL for a peer without
 * GTSM (0 keeps the inherited 255). FAIL CLOSED: on error the caller closes fd.
 */
int kernel_gtsm_accepted(int fd, const struct ipaddr *peer, const struct kernel_sec_params *params,
			 struct kernel_sec_err *err);

/* ---- TcpExt counters (netstat.c) ---------------------------------------------------------- */

/*
 * Look up counter `name` of section `section` ("TcpExt") in text in the format of
 * /proc/net/netstat (pairs of "Section: names..." / "Section: values..." lines). text need not
 * be NUL-terminated; the parser never reads past len. 0 and *value on success; -ENOENT if the
 * section or name is absent; -EINVAL if the pair that holds it is malformed (no value line,
 * different counts, a value that is not a decimal number); -ERANGE beyond 64 bits.
 */
int kernel_netstat_parse(const char *text, size_t len, const char *section, const char *name,
			 uint64_t *value);
/* The same on /proc/net/netstat of the caller's network namespace. */
int kernel_netstat_read(const char *section, const char *name, uint64_t *value);

enum kernel_gtsm_counter {
	KERNEL_CNT_MIN_TTL_DROP,   /* TCPMinTTLDrop: below IP_MINTTL / IPV6_MINHOPCOUNT */
	KERNEL_CNT_MD5_NOT_FOUND,  /* TCPMD5NotFound: unsigned segment, key expected */
	KERNEL_CNT_MD5_UNEXPECTED, /* TCPMD5Unexpected: signed segment, no key */
	KERNEL_CNT_MD5_FAILURE,	   /* TCPMD5Failure: wrong digest */
	KERNEL_CNT__MAX
};

struct kernel_gtsm_counters {
	uint64_t value[KERNEL_CNT__MAX];
	bool present[KERNEL_CNT__MAX]; /* false when this kernel has no such counter */
};

const char *kernel_gtsm_counter_name(enum kernel_gtsm_counter c); /* "TCPMinTTLDrop" */
/* Fill from text; 0 if at least one counter was found, -ENOENT if none, -EINVAL malformed. */
int kernel_gtsm_counters_parse(const char *text, size_t len, struct kernel_gtsm_counters *c);
int kernel_gtsm_counters_read(struct kernel_gtsm_counters *c);

/* ---- Start-up probe (caps.c) -------------------------------------------------------------- */

enum kernel_cap {
	KERNEL_CAP_MD5_V4,	  /* TCP_MD5SIG, IPv4 peer on an AF_INET socket */
	KERNEL_CAP_MD5_V6,	  /* TCP_MD5SIG, IPv6 peer on an AF_INET6 socket */
	KERNEL_CAP_MD5_V4MAPPED,  /* TCP_MD5SIG, IPv4 peer on a dual-stack AF_INET6 socket */
	KERNEL_CAP_MD5_PREFIX,	  /* TCP_MD5SIG_EXT with TCP_MD5SIG_FLAG_PREFIX */
	KERNEL_CAP_MINTTL_V4,	  /* IP_MINTTL on AF_INET */
	KERNEL_CAP_MINTTL_DUAL,	  /* IP_MINTTL on a dual-stack AF_INET6 socket (v4-mapped peers) */
	KERNEL_CAP_MINHOPCOUNT,	  /* IPV6_MINHOPCOUNT */
	KERNEL_CAP_SOCKET_FILTER, /* SO_ATTACH_FILTER of the GTSM program on a listener */
	KERNEL_CAP__MAX
};

struct kernel_cap_result {
	bool ok;
	int err; /* 0, or the negative errno the probe saw */
};

struct kernel_caps {
	struct kernel_cap_result cap[KERNEL_CAP__MAX];
};

#define KERNEL_CAP_BIT(c) (1u << (c))

/* Probe the running kernel in the caller's namespace and with the caller's privileges. Uses
 * documentation addresses (192.0.2.1, 2001:db8::1) for dummy keys and removes them. */
void kernel_caps_probe(struct kernel_caps *caps);
const char *kernel_cap_name(enum kernel_cap c);
/*
 * For every capability in `required` (KERNEL_CAP_BIT() mask) that the probe found missing,
 * append "this kernel lacks <what> (<ERRNO>: <strerror>): <consequence>\n" to buf (always
 * NUL-terminated when size > 0, truncated if short). Returns how many required capabilities
 * are missing: a non-zero result means the configuration that needs them must be refused.
 */
int kernel_caps_format(const struct kernel_caps *caps, unsigned required, char *buf, size_t size);

#endif /* SKUA_KERNEL_SECURITY_H */
