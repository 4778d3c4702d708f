/* SPDX-License-Identifier: ISC */
/*
 * Start-up probe of the security features of the running kernel, so that a configuration that
 * needs a missing one is refused with a reason instead of running unprotected (fail closed).
 * Each probe does the real operation on a throw-away socket, in the caller's network namespace
 * and with the caller's privileges, and undoes it. Dummy keys use documentation addresses.
 */
#include "lib/compat.h"

#include <linux/filter.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel_sec_private.h"

#define PROBE_KEY "skua-kernel-probe"

static const struct {
	const char *what;
	const char *consequence;
} cap_text[KERNEL_CAP__MAX] = {
	[KERNEL_CAP_MD5_V4] = { "TCP-MD5 for IPv4 peers (TCP_MD5SIG)",
				"a neighbor password cannot be enforced on IPv4 sessions" },
	[KERNEL_CAP_MD5_V6] = { "TCP-MD5 for IPv6 peers (TCP_MD5SIG)",
				"a neighbor password cannot be enforced on IPv6 sessions" },
	[KERNEL_CAP_MD5_V4MAPPED] = { "TCP-MD5 for IPv4 peers on dual-stack IPv6 sockets "
				      "(TCP_MD5SIG, v4-mapped)",
				      "passwords of IPv4 peers need an IPv4 (or V6ONLY) listener" },
	[KERNEL_CAP_MD5_PREFIX] = { "TCP-MD5 prefix keys (TCP_MD5SIG_EXT, Linux >= 4.14)",
				    "a listen range (dynamic neighbors) cannot have a password" },
	[KERNEL_CAP_MINTTL_V4] = { "a minimum TTL for IPv4 (IP_MINTTL)",
				   "ttl-security cannot be enforced on IPv4 sessions" },
	[KERNEL_CAP_MINTTL_DUAL] = { "IP_MINTTL on dual-stack IPv6 sockets",
				     "ttl-security of IPv4 peers needs an IPv4 listener" },
	[KERNEL_CAP_MINHOPCOUNT] = { "a minimum hop limit for IPv6 (IPV6_MINHOPCOUNT)",
				     "ttl-security cannot be enforced on IPv6 sessions" },
	[KERNEL_CAP_SOCKET_FILTER] = { "socket filters on the listener (SO_ATTACH_FILTER)",
				       "the listener cannot drop a GTSM peer's low-TTL SYN and "
				       "handshake ACK (attaching needs CAP_NET_ADMIN)" },
};

const char *kernel_cap_name(enum kernel_cap c)
{
	return (unsigned)c < KERNEL_CAP__MAX ? cap_text[c].what : "(unknown)";
}

static void result(struct kernel_caps *caps, enum kernel_cap c, int err)
{
	caps->cap[c].ok = err == 0;
	caps->cap[c].err = err;
}

/* A TCP socket; v6only < 0 leaves IPV6_V6ONLY alone. Returns fd or -errno. */
static int probe_socket(int family, int v6only)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);

	if (fd < 0)
		return -errno;
	if (family == AF_INET6 && v6only >= 0 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only)) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

static int probe_md5(int family, int v6only, const char *peer_str)
{
	struct ipaddr peer;
	int fd, ret;

	if (ipaddr_from_str(&peer, peer_str) < 0)
		return -EINVAL;
	fd = probe_socket(family, v6only);
	if (fd < 0)
		return fd;
	ret = kernel_md5_set(fd, &peer, PROBE_KEY, NULL);
	if (ret == 0)
		ret = kernel_md5_del(fd, &peer, NULL);
	close(fd);
	return ret;
}

static int probe_md5_prefix(void)
{
	struct prefix p;
	int fd, ret;

	if (prefix_from_str(&p, "192.0.2.0/24", true) < 0)
		return -EINVAL;
	fd = probe_socket(AF_INET, -1);
	if (fd < 0)
		return fd;
	ret = kernel_md5_set_prefix(fd, &p, PROBE_KEY, NULL);
	if (ret == 0)
		ret = kernel_md5_del_prefix(fd, &p, NULL);
	close(fd);
	return ret;
}

/* Set the option to 255, read it back, clear it. A value that does not stick is -EPROTO. */
static int probe_min(int family, int v6only, int level, int name)
{
	int fd = probe_socket(family, v6only);
	int val = 255, ret = 0;
	socklen_t len = sizeof(val);

	if (fd < 0)
		return fd;
	if (setsockopt(fd, level, name, &val, sizeof(val)) < 0) {
		ret = -errno;
	} else {
		val = 0;
		if (getsockopt(fd, level, name, &val, &len) < 0)
			ret = -errno;
		else if (val != 255)
			ret = -EPROTO;
		val = 0;
		if (ret == 0 && setsockopt(fd, level, name, &val, sizeof(val)) < 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

/*
 * The GTSM program itself (both families) on a listener bound to loopback. If the loopback
 * address is unusable (interface down in a fresh namespace) the attach is tried on the unbound
 * socket: the kernel's permission and memory checks do not depend on the socket state.
 */
static int probe_filter(void)
{
	struct kernel_gtsm_peer peers[2];
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	int fd, ret, family = AF_INET6;

	memset(peers, 0, sizeof(peers));
	if (ipaddr_from_str(&peers[0].addr, "192.0.2.1") < 0 ||
	    ipaddr_from_str(&peers[1].addr, "2001:db8::1") < 0)
		return -EINVAL;
	peers[0].min_ttl = peers[1].min_ttl = 255;
	fd = probe_socket(AF_INET6, 0);
	if (fd == -EAFNOSUPPORT) {
		family = AF_INET;
		fd = probe_socket(AF_INET, -1);
	}
	if (fd < 0)
		return fd;
	if (family == AF_INET6) {
		memset(&sin6, 0, sizeof(sin6));
		sin6.sin6_family = AF_INET6;
		sin6.sin6_addr = in6addr_loopback;
		if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) == 0)
			(void)listen(fd, 1);
	} else {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0)
			(void)listen(fd, 1);
	}
	ret = kernel_gtsm_filter_attach(fd, peers, array_size(peers), NULL);
	if (ret > 0)
		ret = kernel_gtsm_filter_len(fd) == ret ? 0 : -EPROTO;
	if (ret == 0)
		ret = kernel_gtsm_filter_detach(fd, NULL);
	close(fd);
	return ret;
}

void kernel_caps_probe(struct kernel_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	result(caps, KERNEL_CAP_MD5_V4, probe_md5(AF_INET, -1, "192.0.2.1"));
	result(caps, KERNEL_CAP_MD5_V6, probe_md5(AF_INET6, 1, "2001:db8::1"));
	result(caps, KERNEL_CAP_MD5_V4MAPPED, probe_md5(AF_INET6, 0, "192.0.2.1"));
	result(caps, KERNEL_CAP_MD5_PREFIX, probe_md5_prefix());
	result(caps, KERNEL_CAP_MINTTL_V4, probe_min(AF_INET, -1, IPPROTO_IP, IP_MINTTL));
	result(caps, KERNEL_CAP_MINTTL_DUAL, probe_min(AF_INET6, 0, IPPROTO_IP, IP_MINTTL));
	result(caps, KERNEL_CAP_MINHOPCOUNT,
	       probe_min(AF_INET6, 1, IPPROTO_IPV6, IPV6_MINHOPCOUNT));
	result(caps, KERNEL_CAP_SOCKET_FILTER, probe_filter());
}

int kernel_caps_format(const struct kernel_caps *caps, unsigned required, char *buf, size_t size)
{
	size_t used = 0;
	int missing = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned c = 0; c < KERNEL_CAP__MAX; c++) {
		int err;
		int n;

		if (!(required & KERNEL_CAP_BIT(c)) || caps->cap[c].ok)
			continue;
		missing++;
		err = caps->cap[c].err ? caps->cap[c].err : -EOPNOTSUPP;
		if (used >= size)
			continue;
		n = snprintf(buf + used, size - used, "this kernel lacks %s (%s: %s): %s\n",
			     cap_text[c].what, ksec_errname(err), strerror(-err),
			     cap_text[c].consequence);
		if (n < 0)
			continue;
		used = (size_t)n >= size - used ? size : used + (size_t)n;
	}
	return missing;
}
