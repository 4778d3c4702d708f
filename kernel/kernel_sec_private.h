/* SPDX-License-Identifier: ISC */
/* Internals shared by the files of kernel/libkernelsec.la; not for callers. */
#ifndef SKUA_KERNEL_SEC_PRIVATE_H
#define SKUA_KERNEL_SEC_PRIVATE_H

#include <stdbool.h>

#include "kernel/kernel_security.h"
#include "lib/compat.h"

/* glibc may lack it while <linux/in6.h> conflicts with <netinet/in.h>: the value is ABI. */
#ifndef IPV6_MINHOPCOUNT
#define IPV6_MINHOPCOUNT 73
#endif

/* What traffic a socket carries, from SO_DOMAIN and IPV6_V6ONLY. */
struct ksec_sock {
	int domain; /* AF_INET or AF_INET6 */
	bool v4;    /* IPv4 traffic (AF_INET, or AF_INET6 without IPV6_V6ONLY) */
	bool v6;    /* IPv6 traffic */
};

int ksec_sock_info(int fd, struct ksec_sock *info);

/* Who an error is about: "peer 192.0.2.1", or "listener" for NULL. */
#define KSEC_SUBJECT_LEN (IPADDR_STRLEN + 16)
const char *ksec_peer_str(const struct ipaddr *peer, char *buf, size_t size);

/*
 * Fill err (if not NULL): code, option and "<option> <what> for <subject>: <strerror>
 * (<ERRNAME>)[; <hint>]"; subject is "peer 192.0.2.1", "prefix 192.0.2.0/24", "listener
 * [::]:179"; what is printf-formatted. Returns code so that callers can `return ksec_fail(...)`.
 */
int ksec_fail(struct kernel_sec_err *err, int code, const char *option, const char *subject,
	      const char *hint, const char *fmt, ...) SKUA_PRINTF(6, 7);

/* The hint for an errno that has a known cause for socket options, or NULL. */
const char *ksec_hint(const char *option, int code);

/*
 * The GTSM program compiler behind kernel_gtsm_filter_build() (pass 0xffffffff, fail 0) and
 * kernel_gtsm_selector_build() (pass = listener index, fail = sink index): a packet from a GTSM
 * peer below its minimum returns fail, every other packet pass. option names the socket option in
 * error messages. Same return values and errors as kernel_gtsm_filter_build().
 */
int ksec_gtsm_compile(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
		      uint32_t pass, uint32_t fail, const char *option,
		      struct kernel_gtsm_prog *prog, struct kernel_sec_err *err);

/* "listener [::]:179" from getsockname (or "listener" when the socket has no name yet). */
#define KSEC_LISTENER_LEN (SU_STRLEN + 16)
const char *ksec_listener_str(int fd, char *buf, size_t size);

/* "EPERM"-style name of an errno (positive or negative), "E?" when unknown. */
const char *ksec_errname(int code);

#endif /* SKUA_KERNEL_SEC_PRIVATE_H */
