/* SPDX-License-Identifier: ISC */
/*
 * Error reports and socket introspection shared by kernel/libkernelsec.la. The library never
 * logs (kernel/kernel_security.h): it writes a complete sentence into the caller's
 * struct kernel_sec_err and returns the negative errno.
 */
#include "lib/compat.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include "kernel/kernel_sec_private.h"

int ksec_sock_info(int fd, struct ksec_sock *info)
{
	int domain = 0, v6only = 0;
	socklen_t len = sizeof(domain);

	memset(info, 0, sizeof(*info));
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return -errno;
	info->domain = domain;
	if (domain == AF_INET) {
		info->v4 = true;
		return 0;
	}
	if (domain != AF_INET6)
		return -EAFNOSUPPORT;
	len = sizeof(v6only);
	if (getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &len) < 0)
		return -errno;
	info->v6 = true;
	info->v4 = !v6only;
	return 0;
}

const char *ksec_peer_str(const struct ipaddr *peer, char *buf, size_t size)
{
	char addr[IPADDR_STRLEN];

	if (!peer)
		snprintf(buf, size, "listener");
	else
		snprintf(buf, size, "peer %s", ipaddr_to_str(peer, addr, sizeof(addr)));
	return buf;
}

const char *ksec_errname(int code)
{
	const char *name = strerrorname_np(code < 0 ? -code : code);

	return name ? name : "E?";
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *ksec_hint(const char *option, int code)
{
	if (code > 0)
		code = -code;
	switch (code) {
	case -ENOMEM:
		return "the socket's option memory (shared by TCP-MD5 keys and socket filters) is "
		       "exhausted: raise net.core.optmem_max";
	case -EPERM:
		if (strcmp(option, "SO_ATTACH_FILTER") == 0)
			return "attaching a socket filter needs CAP_NET_ADMIN on this kernel: run "
			       "bgpd with that capability";
		return "bgpd lacks the privilege for this option";
	case -ENOPROTOOPT:
		if (starts_with(option, "TCP_MD5SIG"))
			return "no TCP-MD5 in this kernel (CONFIG_TCP_MD5SIG): remove the "
			       "password or run a kernel with it";
		if (strcmp(option, "IP_MINTTL") == 0 || strcmp(option, "IPV6_MINHOPCOUNT") == 0)
			return "this kernel cannot enforce a minimum TTL: remove ttl-security "
			       "or run Linux >= 2.6.35";
		return NULL;
	case -EBADF:
	case -ENOTSOCK:
		return "the descriptor is not an open socket (internal error)";
	case -ENOENT:
		if (starts_with(option, "TCP_MD5SIG"))
			return "no key was installed for this address";
		return NULL;
	default:
		return NULL;
	}
}

int ksec_fail(struct kernel_sec_err *err, int code, const char *option, const char *subject,
	      const char *hint, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!hint)
		hint = ksec_hint(option, code);
	err->code = code;
	err->option = option;
	snprintf(err->msg, sizeof(err->msg), "%s %s for %s: %s (%s)%s%s", option, what, subject,
		 strerror(-code), ksec_errname(code), hint ? "; " : "", hint ? hint : "");
	return code;
}
