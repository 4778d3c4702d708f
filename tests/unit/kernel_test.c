/* SPDX-License-Identifier: ISC */
/* Helpers for the privileged kernel tests: see tests/unit/kernel_test.h. */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel_security.h"
#include "tests/unit/kernel_test.h"

/* <linux/ipv6.h> clashes with <netinet/in.h>; this is its struct in6_ifreq (ABI). */
struct kt_in6_ifreq {
	struct in6_addr addr;
	uint32_t prefixlen;
	int ifindex;
};

static const char *privilege_problem(void)
{
	struct sock_filter accept_all = BPF_STMT(BPF_RET | BPF_K, 0xffffffffu);
	struct sock_fprog prog = { 1, &accept_all };
	struct ifreq ifr;
	pid_t pid;
	int status, fd;

	if (geteuid() != 0)
		return "not running as root";
	pid = fork();
	if (pid < 0)
		return "fork failed";
	if (pid == 0) {
		if (unshare(CLONE_NEWNET) < 0)
			_exit(2);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0)
			_exit(3);
		if (socket(AF_INET, SOCK_RAW, IPPROTO_RAW) < 0)
			_exit(4);
		fd = open("/dev/net/tun", O_RDWR);
		memset(&ifr, 0, sizeof(ifr));
		ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "ktprobe0");
		if (fd < 0 || ioctl(fd, TUNSETIFF, &ifr) < 0)
			_exit(5);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return "the privilege probe crashed";
	switch (WEXITSTATUS(status)) {
	case 0:
		return NULL;
	case 2:
		return "cannot create a network namespace (needs CAP_SYS_ADMIN)";
	case 3:
		return "cannot attach a socket filter (needs CAP_NET_ADMIN)";
	case 4:
		return "cannot open a raw socket (needs CAP_NET_RAW)";
	case 5:
		return "cannot create a tun device (/dev/net/tun)";
	default:
		return "the privilege probe failed";
	}
}

void ktest_require_privileges(const char *prog)
{
	const char *why = privilege_problem();

	if (why) {
		printf("SKIP: %s: %s; these tests need the real kernel as root\n", prog, why);
		exit(77);
	}
}

static void if_up(const char *ifname)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ck_assert_msg(ioctl(fd, SIOCGIFFLAGS, &ifr) == 0, "SIOCGIFFLAGS %s: %s", ifname,
		      strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	ck_assert_msg(ioctl(fd, SIOCSIFFLAGS, &ifr) == 0, "SIOCSIFFLAGS %s: %s", ifname,
		      strerror(errno));
	close(fd);
}

void ktest_netns(void)
{
	ck_assert_msg(unshare(CLONE_NEWNET) == 0, "unshare(CLONE_NEWNET): %s", strerror(errno));
	if_up("lo");
}

struct ipaddr ktest_ip(const char *s)
{
	struct ipaddr a;

	ck_assert_msg(ipaddr_from_str(&a, s) == 0, "bad test address %s", s);
	return a;
}

int ktest_tun(const char *ifname)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "/dev/net/tun: %s", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ck_assert_msg(ioctl(fd, TUNSETIFF, &ifr) == 0, "TUNSETIFF: %s", strerror(errno));
	if_up(ifname);
	return fd;
}

/* A datagram to the address comes back through the local table. */
static bool delivered_locally(const struct ipaddr *a)
{
	struct sockaddr_storage ss;
	socklen_t len = ipaddr_to_sockaddr(a, 0, &ss);
	int rx = socket(a->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int tx = socket(a->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok = false;
	char c = 'x';

	ck_assert(rx >= 0 && tx >= 0);
	if (bind(rx, (struct sockaddr *)&ss, len) == 0 &&
	    getsockname(rx, (struct sockaddr *)&ss, &len) == 0 &&
	    sendto(tx, &c, 1, 0, (struct sockaddr *)&ss, len) == 1)
		ok = ktest_readable(rx, 50);
	close(rx);
	close(tx);
	return ok;
}

/*
 * IPv6 finishes adding an address in a work queue (addrconf_dad_work, even without DAD on a
 * NOARP device): until then a packet to it is routed out of the device instead of being
 * delivered. Wait (at most 2 s) until it is really local.
 */
static void wait_local(const struct ipaddr *a, const char *addr)
{
	for (int i = 0; i < 40; i++) {
		if (delivered_locally(a))
			return;
		usleep(10000);
	}
	ck_abort_msg("%s never became a local address", addr);
}

void ktest_addr(const char *ifname, const char *addr, int plen)
{
	struct ipaddr a = ktest_ip(addr);

	if (a.family == AF_INET) {
		struct ifreq ifr;
		struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		ck_assert_int_ge(fd, 0);
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		sin->sin_family = AF_INET;
		sin->sin_addr = a.u.v4;
		ck_assert_msg(ioctl(fd, SIOCSIFADDR, &ifr) == 0, "SIOCSIFADDR %s: %s", addr,
			      strerror(errno));
		sin->sin_addr.s_addr = plen ? htonl(0xffffffffu << (32 - plen)) : 0;
		ck_assert_msg(ioctl(fd, SIOCSIFNETMASK, &ifr) == 0, "SIOCSIFNETMASK: %s",
			      strerror(errno));
		close(fd);
	} else {
		struct kt_in6_ifreq req;
		int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		ck_assert_int_ge(fd, 0);
		memset(&req, 0, sizeof(req));
		req.addr = a.u.v6;
		req.prefixlen = (uint32_t)plen;
		req.ifindex = (int)if_nametoindex(ifname);
		ck_assert_int_gt(req.ifindex, 0);
		ck_assert_msg(ioctl(fd, SIOCSIFADDR, &req) == 0, "SIOCSIFADDR %s: %s", addr,
			      strerror(errno));
		close(fd);
	}
	wait_local(&a, addr);
}

static socklen_t sockaddr_of(const char *addr, uint16_t port, struct sockaddr_storage *ss)
{
	struct ipaddr a = ktest_ip(addr);

	return ipaddr_to_sockaddr(&a, port, ss);
}

int ktest_socket(int family, bool v6only)
{
	int one = 1, v6 = v6only ? 1 : 0;
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);

	ck_assert_msg(fd >= 0, "socket: %s", strerror(errno));
	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
	if (family == AF_INET6)
		ck_assert_int_eq(setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof(v6)), 0);
	return fd;
}

int ktest_listener(const char *addr, uint16_t port, bool v6only)
{
	struct sockaddr_storage ss;
	socklen_t len = sockaddr_of(addr, port, &ss);
	int fd = ktest_socket(ss.ss_family, v6only);

	ck_assert_msg(bind(fd, (struct sockaddr *)&ss, len) == 0, "bind %s: %s", addr,
		      strerror(errno));
	ck_assert_int_eq(listen(fd, 64), 0);
	return fd;
}

int ktest_connect(int fd, const char *addr, uint16_t port, int timeout_ms)
{
	struct sockaddr_storage ss;
	socklen_t len = sockaddr_of(addr, port, &ss);
	struct pollfd pfd = { fd, POLLOUT, 0 };
	int flags = fcntl(fd, F_GETFL), soerr = 0, ret;
	socklen_t slen = sizeof(soerr);

	/* A v4 address on an AF_INET6 socket goes as ::ffff:a.b.c.d. */
	if (ss.ss_family == AF_INET) {
		int domain = 0;
		socklen_t dlen = sizeof(domain);

		getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen);
		if (domain == AF_INET6) {
			char mapped[IPADDR_STRLEN + 8];

			snprintf(mapped, sizeof(mapped), "::ffff:%s", addr);
			len = sockaddr_of(mapped, port, &ss);
		}
	}
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	ret = connect(fd, (struct sockaddr *)&ss, len);
	if (ret < 0 && errno != EINPROGRESS) {
		ret = -errno;
		fcntl(fd, F_SETFL, flags);
		return ret;
	}
	if (ret < 0) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret == 0) {
			fcntl(fd, F_SETFL, flags);
			return -ETIMEDOUT;
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &slen);
	}
	fcntl(fd, F_SETFL, flags);
	return -soerr;
}

int ktest_accept(int lfd, int timeout_ms)
{
	struct pollfd pfd = { lfd, POLLIN, 0 };
	int fd;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return -ETIMEDOUT;
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

bool ktest_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { fd, POLLIN, 0 };

	return poll(&pfd, 1, timeout_ms) == 1;
}

uint64_t ktest_counter(const char *name)
{
	uint64_t v = 0;
	int ret = kernel_netstat_read("TcpExt", name, &v);

	ck_assert_msg(ret == 0, "TcpExt %s: %d", name, ret);
	return v;
}

/* ---- crafted segments ---- */

static uint32_t csum_add(uint32_t sum, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)(p[len - 1] << 8);
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void tcp_header(uint8_t *th, const struct ktest_seg *s)
{
	memset(th, 0, 20);
	th[0] = (uint8_t)(s->sport >> 8);
	th[1] = (uint8_t)s->sport;
	th[2] = (uint8_t)(s->dport >> 8);
	th[3] = (uint8_t)s->dport;
	for (int i = 0; i < 4; i++) {
		th[4 + i] = (uint8_t)(s->seq >> (24 - 8 * i));
		th[8 + i] = (uint8_t)(s->ack >> (24 - 8 * i));
	}
	th[12] = 5 << 4; /* 20-byte header, no options */
	th[13] = s->flags;
	th[14] = 0xff; /* window 65535 */
	th[15] = 0xff;
}

static void send_v4(const struct ktest_seg *s)
{
	uint8_t pkt[40], pseudo[12];
	struct sockaddr_in to;
	uint16_t sum;
	int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);

	ck_assert_msg(fd >= 0, "raw socket: %s", strerror(errno));
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 0x45;
	pkt[2] = 0;
	pkt[3] = sizeof(pkt);
	pkt[8] = (uint8_t)s->ttl;
	pkt[9] = IPPROTO_TCP;
	memcpy(&pkt[12], &s->src.u.v4, 4);
	memcpy(&pkt[16], &s->dst.u.v4, 4);
	tcp_header(&pkt[20], s);
	memcpy(pseudo, &s->src.u.v4, 4);
	memcpy(pseudo + 4, &s->dst.u.v4, 4);
	pseudo[8] = 0;
	pseudo[9] = IPPROTO_TCP;
	pseudo[10] = 0;
	pseudo[11] = 20;
	sum = csum_fold(csum_add(csum_add(0, pseudo, sizeof(pseudo)), &pkt[20], 20));
	pkt[36] = (uint8_t)(sum >> 8);
	pkt[37] = (uint8_t)sum;
	memset(&to, 0, sizeof(to));
	to.sin_family = AF_INET;
	to.sin_addr = s->dst.u.v4;
	/* IPPROTO_RAW implies IP_HDRINCL: our header, TTL and source go out as written. */
	ck_assert_msg(sendto(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&to, sizeof(to)) ==
			      (ssize_t)sizeof(pkt),
		      "raw send: %s", strerror(errno));
	close(fd);
}

static void send_v6(const struct ktest_seg *s)
{
	uint8_t th[20];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct sockaddr_in6 from, to;
	struct iovec iov = { th, sizeof(th) };
	struct msghdr msg;
	struct cmsghdr *cm;
	int one = 1, offset = 16, hops = s->ttl;
	int fd = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_TCP);

	ck_assert_msg(fd >= 0, "raw socket: %s", strerror(errno));
	ck_assert_int_eq(setsockopt(fd, IPPROTO_IPV6, IPV6_CHECKSUM, &offset, sizeof(offset)), 0);
	ck_assert_int_eq(setsockopt(fd, IPPROTO_IPV6, IPV6_FREEBIND, &one, sizeof(one)), 0);
	memset(&from, 0, sizeof(from));
	from.sin6_family = AF_INET6;
	from.sin6_addr = s->src.u.v6;
	ck_assert_msg(bind(fd, (struct sockaddr *)&from, sizeof(from)) == 0, "bind spoofed: %s",
		      strerror(errno));
	tcp_header(th, s);
	memset(&to, 0, sizeof(to));
	to.sin6_family = AF_INET6;
	to.sin6_addr = s->dst.u.v6;
	memset(&msg, 0, sizeof(msg));
	memset(&control, 0, sizeof(control));
	msg.msg_name = &to;
	msg.msg_namelen = sizeof(to);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control.buf;
	msg.msg_controllen = sizeof(control.buf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = IPPROTO_IPV6;
	cm->cmsg_type = IPV6_HOPLIMIT; /* this packet's hop limit */
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &hops, sizeof(hops));
	ck_assert_msg(sendmsg(fd, &msg, 0) == (ssize_t)sizeof(th), "raw send: %s", strerror(errno));
	close(fd);
}

void ktest_send(const struct ktest_seg *s)
{
	ck_assert_int_eq(s->src.family, s->dst.family);
	if (s->src.family == AF_INET)
		send_v4(s);
	else
		send_v6(s);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Does pkt (an IP packet from the tun) match; fill seq and ttl. */
static bool seg_match(const uint8_t *pkt, size_t len, const struct ipaddr *to, uint16_t dport,
		      uint8_t flags, uint32_t *seq, int *ttl)
{
	const uint8_t *th;

	if (len < 1)
		return false;
	if (to->family == AF_INET) {
		size_t ihl = (size_t)(pkt[0] & 0xf) * 4;

		if ((pkt[0] >> 4) != 4 || len < ihl + 20 || pkt[9] != IPPROTO_TCP ||
		    memcmp(&pkt[16], &to->u.v4, 4) != 0)
			return false;
		th = pkt + ihl;
		*ttl = pkt[8];
	} else {
		if ((pkt[0] >> 4) != 6 || len < 40 + 20 || pkt[6] != IPPROTO_TCP ||
		    memcmp(&pkt[24], &to->u.v6, 16) != 0)
			return false;
		th = pkt + 40;
		*ttl = pkt[7];
	}
	if ((uint16_t)(th[2] << 8 | th[3]) != dport || (th[13] & 0x3f) != flags)
		return false;
	*seq = (uint32_t)th[4] << 24 | (uint32_t)th[5] << 16 | (uint32_t)th[6] << 8 | th[7];
	return true;
}

bool ktest_tun_wait(int tunfd, const struct ipaddr *to, uint16_t dport, uint8_t flags,
		    int timeout_ms, uint32_t *seq, int *ttl)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint8_t pkt[2048];

	for (;;) {
		int64_t left = deadline - now_ms();
		struct pollfd pfd = { tunfd, POLLIN, 0 };
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return false;
		while ((n = read(tunfd, pkt, sizeof(pkt))) > 0)
			if (seg_match(pkt, (size_t)n, to, dport, flags, seq, ttl))
				return true;
	}
}
