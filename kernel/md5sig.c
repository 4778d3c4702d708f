/* SPDX-License-Identifier: ISC */
/*
 * TCP-MD5 signature keys (RFC 2385) on Linux sockets: one key per peer address (TCP_MD5SIG) or
 * per prefix (TCP_MD5SIG_EXT + TCP_MD5SIG_FLAG_PREFIX, for dynamic neighbors). Keys never appear
 * in error messages, only their length.
 */
#include "lib/compat.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "kernel/kernel_sec_private.h"

/*
 * The key's address in the socket's own family. Linux files an IPv4 key on an AF_INET6 socket
 * from an IPv4-mapped address (tcp_v6_parse_md5_keys) and refuses a sockaddr_in there (EINVAL).
 */
static int md5_sockaddr(const struct ksec_sock *sock, const struct ipaddr *peer,
			struct sockaddr_storage *ss)
{
	struct ipaddr a = *peer;

	memset(ss, 0, sizeof(*ss));
	ipaddr_unmap_v4(&a);
	if (sock->domain == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		if (a.family != AF_INET)
			return -EAFNOSUPPORT;
		sin->sin_family = AF_INET;
		sin->sin_addr = a.u.v4;
		return 0;
	}
	if (a.family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = a.u.v6;
		return 0;
	}
	if (a.family == AF_INET) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr.s6_addr[10] = 0xff;
		sin6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&sin6->sin6_addr.s6_addr[12], &a.u.v4, 4);
		return 0;
	}
	return -EAFNOSUPPORT;
}

/* One setsockopt. plen < 0: exact address (TCP_MD5SIG), else a prefix (TCP_MD5SIG_EXT). */
static int md5_op(int fd, const struct ipaddr *addr, int plen, const char *key, const char *subject,
		  struct kernel_sec_err *err)
{
	const char *option = plen < 0 ? "TCP_MD5SIG" : "TCP_MD5SIG_EXT";
	size_t keylen = key ? strlen(key) : 0;
	struct tcp_md5sig md5;
	struct ksec_sock sock;
	char what[48];
	int ret;

	if (key)
		snprintf(what, sizeof(what), "install key (%zu bytes)", keylen);
	else
		snprintf(what, sizeof(what), "remove key");
	if (key && (keylen < 1 || keylen > KERNEL_MD5_KEY_MAXLEN))
		return ksec_fail(err, -EINVAL, option, subject,
				 "a TCP-MD5 password has 1 to 80 characters", "%s", what);
	if (!addr)
		return ksec_fail(err, -EINVAL, option, subject, "a key needs a peer address", "%s",
				 what);
	ret = ksec_sock_info(fd, &sock);
	if (ret < 0)
		return ksec_fail(err, ret, option, subject, NULL, "%s", what);
	memset(&md5, 0, sizeof(md5));
	ret = md5_sockaddr(&sock, addr, &md5.tcpm_addr);
	if (ret < 0)
		return ksec_fail(err, ret, option, subject, "an IPv6 peer needs an AF_INET6 socket",
				 "%s", what);
	if (plen >= 0) {
		md5.tcpm_flags = TCP_MD5SIG_FLAG_PREFIX;
		md5.tcpm_prefixlen = (uint8_t)plen;
	}
	md5.tcpm_keylen = (uint16_t)keylen;
	if (keylen)
		memcpy(md5.tcpm_key, key, keylen);
	ret = setsockopt(fd, IPPROTO_TCP, plen < 0 ? TCP_MD5SIG : TCP_MD5SIG_EXT, &md5,
			 sizeof(md5));
	ret = ret < 0 ? -errno : 0;
	/* The key must not linger on the stack of a long-running daemon. */
	explicit_bzero(md5.tcpm_key, sizeof(md5.tcpm_key));
	if (ret < 0)
		return ksec_fail(err, ret, option, subject, NULL, "%s", what);
	return 0;
}

int kernel_md5_set(int fd, const struct ipaddr *peer, const char *key, struct kernel_sec_err *err)
{
	char buf[KSEC_SUBJECT_LEN];

	ksec_peer_str(peer, buf, sizeof(buf));
	if (!key)
		return ksec_fail(err, -EINVAL, "TCP_MD5SIG", buf,
				 "a TCP-MD5 password has 1 to 80 characters", "install key (none)");
	return md5_op(fd, peer, -1, key, buf, err);
}

int kernel_md5_del(int fd, const struct ipaddr *peer, struct kernel_sec_err *err)
{
	char buf[KSEC_SUBJECT_LEN];

	return md5_op(fd, peer, -1, NULL, ksec_peer_str(peer, buf, sizeof(buf)), err);
}

/*
 * A prefix key: the kernel matches it under its mask but deletes by exact address, so host bits
 * are cleared here. For an IPv4 prefix on an AF_INET6 socket the length stays the IPv4 length
 * (0..32): that is what tcp_v6_parse_md5_keys expects with a v4-mapped address.
 */
static int md5_prefix(int fd, const struct prefix *p, const char *key, struct kernel_sec_err *err)
{
	char pbuf[PREFIX_STRLEN], buf[PREFIX_STRLEN + 8];
	struct prefix masked = *p;
	struct ipaddr addr;

	snprintf(buf, sizeof(buf), "prefix %s", prefix_to_str(p, pbuf, sizeof(pbuf)));
	if ((p->family != AF_INET && p->family != AF_INET6) || p->len > prefix_maxlen(p->family))
		return ksec_fail(err, -EINVAL, "TCP_MD5SIG_EXT", buf, "not a valid prefix", "%s",
				 key ? "install key" : "remove key");
	prefix_apply_mask(&masked);
	/* ::ffff:a.b.c.d/n is the IPv4 prefix a.b.c.d/(n-96); once masked, a v4-mapped address
	 * implies n >= 96 (the ffff sits in bits 80..95). */
	if (masked.family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&masked.u.v6))
		masked.len -= 96;
	memset(&addr, 0, sizeof(addr));
	addr.family = masked.family;
	memcpy(addr.u.bytes, masked.u.bytes, family_addr_bytes(masked.family));
	return md5_op(fd, &addr, masked.len, key, buf, err);
}

int kernel_md5_set_prefix(int fd, const struct prefix *p, const char *key,
			  struct kernel_sec_err *err)
{
	if (!key) {
		char pbuf[PREFIX_STRLEN], buf[PREFIX_STRLEN + 8];

		snprintf(buf, sizeof(buf), "prefix %s", prefix_to_str(p, pbuf, sizeof(pbuf)));
		return ksec_fail(err, -EINVAL, "TCP_MD5SIG_EXT", buf,
				 "a TCP-MD5 password has 1 to 80 characters", "install key (none)");
	}
	return md5_prefix(fd, p, key, err);
}

int kernel_md5_del_prefix(int fd, const struct prefix *p, struct kernel_sec_err *err)
{
	return md5_prefix(fd, p, NULL, err);
}
