/* SPDX-License-Identifier: ISC */
/*
 * Sending TTL and minimum accepted TTL (RFC 5082, GTSM) on Linux sockets, and the whole
 * per-socket sequence "MD5 key, TTL 255, minimum" (doc/architecture.md "GTSM and TCP-MD5 on every
 * socket").
 *
 * On an AF_INET6 socket that is not IPV6_V6ONLY, IPv4 peers arrive as ::ffff:a.b.c.d and Linux
 * runs them through the IPv4 code (tcp_v4_rcv, ip_queue_xmit): IP_TTL and IP_MINTTL govern them
 * and IPV6_UNICAST_HOPS / IPV6_MINHOPCOUNT have no effect on that traffic. Both option sets are
 * accepted on such a socket (ipv6_setsockopt hands SOL_IP to ip_setsockopt), so we write both.
 */
#include "lib/compat.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include "kernel/kernel_sec_private.h"

struct opt {
	int level, name;
	const char *text;
};

static const struct opt opt_ttl4 = { IPPROTO_IP, IP_TTL, "IP_TTL" };
static const struct opt opt_ttl6 = { IPPROTO_IPV6, IPV6_UNICAST_HOPS, "IPV6_UNICAST_HOPS" };
static const struct opt opt_min4 = { IPPROTO_IP, IP_MINTTL, "IP_MINTTL" };
static const struct opt opt_min6 = { IPPROTO_IPV6, IPV6_MINHOPCOUNT, "IPV6_MINHOPCOUNT" };

static int set_opt(int fd, const struct opt *o, int val, const char *peer,
		   struct kernel_sec_err *err)
{
	if (setsockopt(fd, o->level, o->name, &val, sizeof(val)) < 0)
		return ksec_fail(err, -errno, o->text, peer, NULL, "%d", val);
	return 0;
}

static int get_opt(int fd, const struct opt *o)
{
	int val = 0;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, o->level, o->name, &val, &len) < 0)
		return -errno;
	return val;
}

/* Write v4 then v6 option where the socket carries that traffic. */
static int set_pair(int fd, const struct opt *o4, const struct opt *o6, int val,
		    const struct ipaddr *peer, struct kernel_sec_err *err)
{
	char buf[KSEC_SUBJECT_LEN];
	struct ksec_sock sock;
	int ret;

	ksec_peer_str(peer, buf, sizeof(buf));
	ret = ksec_sock_info(fd, &sock);
	if (ret < 0)
		return ksec_fail(err, ret, o4->text, buf, NULL, "%d (socket family)", val);
	if (sock.v4) {
		ret = set_opt(fd, o4, val, buf, err);
		if (ret < 0)
			return ret;
	}
	if (sock.v6)
		return set_opt(fd, o6, val, buf, err);
	return 0;
}

int kernel_gtsm_min_for_hops(int hops)
{
	if (hops < 1 || hops > 254)
		return -EINVAL;
	return 256 - hops; /* hops 1 = directly connected = TTL 255 only */
}

int kernel_ttl_set(int fd, const struct ipaddr *peer, int ttl, struct kernel_sec_err *err)
{
	if (ttl < 1 || ttl > 255) {
		char buf[KSEC_SUBJECT_LEN];

		return ksec_fail(err, -EINVAL, "IP_TTL", ksec_peer_str(peer, buf, sizeof(buf)),
				 "the TTL is 1 to 255", "%d", ttl);
	}
	return set_pair(fd, &opt_ttl4, &opt_ttl6, ttl, peer, err);
}

int kernel_minttl_set(int fd, const struct ipaddr *peer, int minttl, struct kernel_sec_err *err)
{
	if (minttl < 0 || minttl > 255) {
		char buf[KSEC_SUBJECT_LEN];

		return ksec_fail(err, -EINVAL, "IP_MINTTL", ksec_peer_str(peer, buf, sizeof(buf)),
				 "the minimum TTL is 0 (off) to 255", "%d", minttl);
	}
	return set_pair(fd, &opt_min4, &opt_min6, minttl, peer, err);
}

int kernel_ttl_get(int fd, int af)
{
	if (af != AF_INET && af != AF_INET6)
		return -EAFNOSUPPORT;
	return get_opt(fd, af == AF_INET ? &opt_ttl4 : &opt_ttl6);
}

int kernel_minttl_get(int fd, int af)
{
	if (af != AF_INET && af != AF_INET6)
		return -EAFNOSUPPORT;
	return get_opt(fd, af == AF_INET ? &opt_min4 : &opt_min6);
}

int kernel_sec_traffic_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct ksec_sock sock;
	int ret = ksec_sock_info(fd, &sock);

	if (ret < 0)
		return ret;
	if (sock.domain == AF_INET)
		return AF_INET;
	if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	if (ss.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)&ss)->sin6_addr))
		return AF_INET;
	return AF_INET6;
}

/*
 * TTL 255 first, then the minimum: our own segments already carry 255 when the minimum starts
 * to apply, so a peer that enabled GTSM first keeps accepting us during a live change.
 */
int kernel_gtsm_set(int fd, const struct ipaddr *peer, int hops, struct kernel_sec_err *err)
{
	int min = kernel_gtsm_min_for_hops(hops);
	int ret;

	if (min < 0) {
		char buf[KSEC_SUBJECT_LEN];

		return ksec_fail(err, -EINVAL, "IP_MINTTL", ksec_peer_str(peer, buf, sizeof(buf)),
				 "ttl-security hops is 1 to 254", "(hops %d)", hops);
	}
	ret = kernel_ttl_set(fd, peer, KERNEL_GTSM_TTL, err);
	if (ret < 0)
		return ret;
	return kernel_minttl_set(fd, peer, min, err);
}

int kernel_gtsm_clear(int fd, const struct ipaddr *peer, int ttl, struct kernel_sec_err *err)
{
	int ret = kernel_minttl_set(fd, peer, 0, err);

	if (ret < 0 || ttl == 0)
		return ret;
	return kernel_ttl_set(fd, peer, ttl, err);
}

int kernel_sec_apply(int fd, const struct ipaddr *peer, const struct kernel_sec_params *params,
		     struct kernel_sec_err *err)
{
	int ret;

	if (!params) {
		char buf[KSEC_SUBJECT_LEN];

		return ksec_fail(err, -EINVAL, "IP_TTL", ksec_peer_str(peer, buf, sizeof(buf)),
				 "internal error", "(no parameters)");
	}
	/* doc/architecture.md: MD5 key, then TTL 255, then the minimum; stop at the first failure.
	 */
	if (params->md5_key) {
		ret = kernel_md5_set(fd, peer, params->md5_key, err);
		if (ret < 0)
			return ret;
	}
	if (params->gtsm_hops)
		return kernel_gtsm_set(fd, peer, params->gtsm_hops, err);
	if (params->ttl)
		return kernel_ttl_set(fd, peer, params->ttl, err);
	return 0;
}
