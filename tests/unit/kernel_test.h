/* SPDX-License-Identifier: ISC */
/*
 * Helpers for the privileged kernel tests (check_kernel_sockopt, check_kernel_filter_live):
 * a fresh network namespace per test, a tun device that sinks and captures replies to spoofed
 * sources, crafted TCP segments from raw sockets, bounded waits. Every wait is bounded by
 * its timeout_ms; failures are Check assertions.
 */
#ifndef SKUA_TESTS_KERNEL_TEST_H
#define SKUA_TESTS_KERNEL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kernel_security.h"
#include "lib/prefix.h"

/* In main(): exit 77 (automake SKIP) with "SKIP: reason" unless this process is root and can
 * create a network namespace, attach a socket filter and open /dev/net/tun. */
void ktest_require_privileges(const char *prog);
/* The main() of a live kernel test program: skip without privileges (as above), then run s
 * with every test in its own forked child, since each unshares its network namespace.
 * Returns the exit status (EXIT_FAILURE when a test failed). */
struct Suite;
int ktest_run(const char *prog, struct Suite *s);

/* In a test (Check runs each one in a forked child, forced with CK_FORK): move this process
 * into a new network namespace and bring lo up with an ioctl. The namespace, with everything the
 * test created in it, disappears when the child exits, pass or fail. */
void ktest_netns(void);

struct ipaddr ktest_ip(const char *s);
/* Run a shell command (ip route, ip nexthop ...); a failure is a test failure. */
void ktest_sh(const char *cmd);
/* What a shell command prints, at most size - 1 bytes, in buf; returns buf. */
const char *ktest_output(const char *cmd, char *buf, size_t size);
/* Tun device in L3 mode (no packet info), up; returns its fd (non-blocking). */
int ktest_tun(const char *ifname);
void ktest_addr(const char *ifname, const char *addr, int plen);

/* Listening TCP socket on addr:port (family from addr; "::" with v6only false = dual-stack). */
int ktest_listener(const char *addr, uint16_t port, bool v6only);
/* A TCP socket of the family, not yet connected; v6only as above for AF_INET6. */
int ktest_socket(int family, bool v6only);
/* Non-blocking connect with a bound: 0 connected, -ETIMEDOUT, or -errno. fd stays open. */
int ktest_connect(int fd, const char *addr, uint16_t port, int timeout_ms);
/* accept() within timeout_ms: the new fd, or -ETIMEDOUT. */
int ktest_accept(int lfd, int timeout_ms);
/* Close a connection to a spoofed (tun) peer with an RST (SO_LINGER 0): a plain close() would
 * leave an orphan retransmitting its FIN to nobody for minutes, holding the tun device and
 * stalling the namespace's teardown when the test's process exits. */
void ktest_close_abort(int fd);
/* Is there something to read within timeout_ms? */
bool ktest_readable(int fd, int timeout_ms);
/* TcpExt counter of this namespace (asserts that it exists). */
uint64_t ktest_counter(const char *name);

/* A crafted TCP segment. */
struct ktest_seg {
	struct ipaddr src, dst;
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;	     /* TH_SYN, TH_ACK, ... */
	int ttl;	     /* TTL / hop limit on the wire */
	const char *md5_key; /* sign with this TCP-MD5 key (RFC 2385) */
	bool md5_bogus;	     /* carry an MD5 option whose digest no key produced */
};

#define KT_FIN 0x01
#define KT_SYN 0x02
#define KT_RST 0x04
#define KT_ACK 0x10

/*
 * Raw senders kept open, for loops and threads (no Check assertions: they return 0 or -errno).
 * IPPROTO_RAW sockets of both families: we write the whole IP header (spoofed source, chosen
 * TTL / hop limit) and the TCP checksum.
 */
struct ktest_raw {
	int fd4, fd6;
};
int ktest_raw_open(struct ktest_raw *r);
int ktest_raw_send(struct ktest_raw *r, const struct ktest_seg *s);
void ktest_raw_close(struct ktest_raw *r);

/* One segment through a fresh raw sender (asserts success). */
void ktest_send(const struct ktest_seg *s);

/* Parse an IP packet read from the tun (IPv4 or IPv6, TCP): fills out; false if it is not one. */
bool ktest_seg_parse(const uint8_t *pkt, size_t len, struct ktest_seg *out);

/* Request sockets (SYN_RECV in /proc/net/tcp and tcp6) whose remote address is from (NULL:
 * any) in this namespace. */
int ktest_syn_recv_count(const struct ipaddr *from);

/* Write a sysctl of this namespace, e.g. ("/proc/sys/net/ipv4/tcp_syncookies", "2"). */
void ktest_sysctl(const char *path, const char *value);

/* Wait on the tun for a segment addressed to (to, dport) with exactly these flags. Returns true
 * and its sequence number and TTL / hop limit, or false after timeout_ms. */
bool ktest_tun_wait(int tunfd, const struct ipaddr *to, uint16_t dport, uint8_t flags,
		    int timeout_ms, uint32_t *seq, int *ttl);

/* A GTSM peer entry for the filter/group builders: addr with minimum TTL min. */
struct kernel_gtsm_peer ktest_gtsm_peer(const char *addr, int min);
/* n peers 2001:db8::<first+i> with minimum 255, all in one /96 (3886 of them fill a 4096-insn
 * program); the caller frees the array with free(). */
struct kernel_gtsm_peer *ktest_v6_gtsm_peers(int n, int first);

#endif /* SKUA_TESTS_KERNEL_TEST_H */
