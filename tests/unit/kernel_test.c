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
#include <openssl/evp.h>
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

int ktest_run(const char *prog, Suite *s)
{
	SRunner *sr;
	int failed;

	ktest_require_privileges(prog);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
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

void ktest_sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

const char *ktest_output(const char *cmd, char *buf, size_t size)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	pclose(f);
	return buf;
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

void ktest_close_abort(int fd)
{
	struct linger lg = { 1, 0 };

	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)), 0);
	close(fd);
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

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/*
 * The TCP pseudo-header as TCP-MD5 (RFC 2385 section 2.0) and the checksum use it: IPv4
 * src, dst, zero, protocol, 16-bit length; IPv6 (RFC 8200 section 8.1) src, dst, 32-bit length,
 * three zero bytes, next header. Returns its length.
 */
static size_t pseudo_header(const struct ktest_seg *s, size_t tcplen, uint8_t *ph)
{
	if (s->src.family == AF_INET) {
		memcpy(ph, &s->src.u.v4, 4);
		memcpy(ph + 4, &s->dst.u.v4, 4);
		ph[8] = 0;
		ph[9] = IPPROTO_TCP;
		ph[10] = (uint8_t)(tcplen >> 8);
		ph[11] = (uint8_t)tcplen;
		return 12;
	}
	memcpy(ph, &s->src.u.v6, 16);
	memcpy(ph + 16, &s->dst.u.v6, 16);
	put32(ph + 32, (uint32_t)tcplen);
	put32(ph + 36, IPPROTO_TCP);
	return 40;
}

/*
 * RFC 2385 section 2.0: MD5 over the pseudo-header, the TCP header without options and with a
 * zero checksum, the data (none here) and the key.
 */
static void md5_digest(const struct ktest_seg *s, const uint8_t *th, size_t tcplen, uint8_t *out)
{
	uint8_t ph[40], hdr[20];
	size_t phlen = pseudo_header(s, tcplen, ph);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned outlen = 0;

	memcpy(hdr, th, 20);
	hdr[16] = hdr[17] = 0;
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_md5(), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, ph, phlen) != 1 || EVP_DigestUpdate(ctx, hdr, 20) != 1 ||
	    EVP_DigestUpdate(ctx, s->md5_key, strlen(s->md5_key)) != 1 ||
	    EVP_DigestFinal_ex(ctx, out, &outlen) != 1 || outlen != 16)
		memset(out, 0, 16); /* the kernel will reject it: the test then fails visibly */
	EVP_MD_CTX_free(ctx);
}

/* TCP header (+ MD5 option) into th; returns its length (20 or 40). Checksum left zero. */
static size_t tcp_header(uint8_t *th, const struct ktest_seg *s)
{
	bool md5 = s->md5_key || s->md5_bogus;
	size_t len = md5 ? 40 : 20;

	memset(th, 0, len);
	th[0] = (uint8_t)(s->sport >> 8);
	th[1] = (uint8_t)s->sport;
	th[2] = (uint8_t)(s->dport >> 8);
	th[3] = (uint8_t)s->dport;
	put32(th + 4, s->seq);
	put32(th + 8, s->ack);
	th[12] = (uint8_t)((len / 4) << 4);
	th[13] = s->flags;
	th[14] = 0xff; /* window 65535 */
	th[15] = 0xff;
	if (md5) {
		th[20] = 1; /* NOP, NOP, kind 19 length 18 (RFC 2385 section 3.0) */
		th[21] = 1;
		th[22] = 19;
		th[23] = 18;
		if (s->md5_key)
			md5_digest(s, th, len, th + 24);
		else
			memset(th + 24, 0x5a, 16); /* a digest no key produces, in practice */
	}
	return len;
}

/* The whole IP packet; returns its length. */
static size_t build_packet(const struct ktest_seg *s, uint8_t *pkt)
{
	size_t iplen = s->src.family == AF_INET ? 20 : 40;
	size_t tcplen = tcp_header(pkt + iplen, s);
	uint8_t ph[40];
	uint16_t sum;

	sum = csum_fold(
		csum_add(csum_add(0, ph, pseudo_header(s, tcplen, ph)), pkt + iplen, tcplen));
	pkt[iplen + 16] = (uint8_t)(sum >> 8);
	pkt[iplen + 17] = (uint8_t)sum;
	memset(pkt, 0, iplen);
	if (s->src.family == AF_INET) {
		pkt[0] = 0x45;
		pkt[2] = (uint8_t)((iplen + tcplen) >> 8);
		pkt[3] = (uint8_t)(iplen + tcplen);
		pkt[8] = (uint8_t)s->ttl;
		pkt[9] = IPPROTO_TCP;
		memcpy(&pkt[12], &s->src.u.v4, 4);
		memcpy(&pkt[16], &s->dst.u.v4, 4);
	} else {
		pkt[0] = 0x60;
		pkt[4] = (uint8_t)(tcplen >> 8);
		pkt[5] = (uint8_t)tcplen;
		pkt[6] = IPPROTO_TCP;
		pkt[7] = (uint8_t)s->ttl;
		memcpy(&pkt[8], &s->src.u.v6, 16);
		memcpy(&pkt[24], &s->dst.u.v6, 16);
	}
	return iplen + tcplen;
}

int ktest_raw_open(struct ktest_raw *r)
{
	/* IPPROTO_RAW implies IP_HDRINCL / IPV6_HDRINCL: our header, TTL and source go out as
	 * written, whatever addresses the host owns. */
	r->fd4 = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	r->fd6 = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (r->fd4 < 0 || r->fd6 < 0) {
		int ret = -errno;

		ktest_raw_close(r);
		return ret;
	}
	return 0;
}

void ktest_raw_close(struct ktest_raw *r)
{
	if (r->fd4 >= 0)
		close(r->fd4);
	if (r->fd6 >= 0)
		close(r->fd6);
	r->fd4 = r->fd6 = -1;
}

int ktest_raw_send(struct ktest_raw *r, const struct ktest_seg *s)
{
	struct sockaddr_storage to;
	socklen_t tolen;
	uint8_t pkt[80];
	size_t len;

	if (s->src.family != s->dst.family)
		return -EINVAL;
	len = build_packet(s, pkt);
	tolen = ipaddr_to_sockaddr(&s->dst, 0, &to);
	if (sendto(s->src.family == AF_INET ? r->fd4 : r->fd6, pkt, len, 0, (struct sockaddr *)&to,
		   tolen) != (ssize_t)len)
		return -errno;
	return 0;
}

void ktest_send(const struct ktest_seg *s)
{
	struct ktest_raw r;
	int ret = ktest_raw_open(&r);

	ck_assert_msg(ret == 0, "raw socket: %s", strerror(-ret));
	ret = ktest_raw_send(&r, s);
	ck_assert_msg(ret == 0, "raw send: %s", strerror(-ret));
	ktest_raw_close(&r);
}

bool ktest_seg_parse(const uint8_t *pkt, size_t len, struct ktest_seg *out)
{
	const uint8_t *th;

	memset(out, 0, sizeof(*out));
	if (len < 1)
		return false;
	if ((pkt[0] >> 4) == 4) {
		size_t ihl = (size_t)(pkt[0] & 0xf) * 4;

		if (ihl < 20 || len < ihl + 20 || pkt[9] != IPPROTO_TCP)
			return false;
		out->src.family = out->dst.family = AF_INET;
		memcpy(&out->src.u.v4, &pkt[12], 4);
		memcpy(&out->dst.u.v4, &pkt[16], 4);
		out->ttl = pkt[8];
		th = pkt + ihl;
	} else if ((pkt[0] >> 4) == 6) {
		if (len < 40 + 20 || pkt[6] != IPPROTO_TCP)
			return false;
		out->src.family = out->dst.family = AF_INET6;
		memcpy(&out->src.u.v6, &pkt[8], 16);
		memcpy(&out->dst.u.v6, &pkt[24], 16);
		out->ttl = pkt[7];
		th = pkt + 40;
	} else {
		return false;
	}
	out->sport = (uint16_t)(th[0] << 8 | th[1]);
	out->dport = (uint16_t)(th[2] << 8 | th[3]);
	out->seq = (uint32_t)th[4] << 24 | (uint32_t)th[5] << 16 | (uint32_t)th[6] << 8 | th[7];
	out->ack = (uint32_t)th[8] << 24 | (uint32_t)th[9] << 16 | (uint32_t)th[10] << 8 | th[11];
	out->flags = th[13] & 0x3f;
	return true;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool ktest_tun_wait(int tunfd, const struct ipaddr *to, uint16_t dport, uint8_t flags,
		    int timeout_ms, uint32_t *seq, int *ttl)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint8_t pkt[2048];
	struct ktest_seg s;

	for (;;) {
		int64_t left = deadline - now_ms();
		struct pollfd pfd = { tunfd, POLLIN, 0 };
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return false;
		while ((n = read(tunfd, pkt, sizeof(pkt))) > 0)
			if (ktest_seg_parse(pkt, (size_t)n, &s) && ipaddr_cmp(&s.dst, to) == 0 &&
			    s.dport == dport && s.flags == flags) {
				*seq = s.seq;
				*ttl = s.ttl;
				return true;
			}
	}
}

/* One address of /proc/net/tcp{,6}: 8 or 32 hex digits, each 32-bit word in host order. */
static bool proc_addr(const char *hex, int family, struct ipaddr *a)
{
	unsigned words = family == AF_INET ? 1 : 4;

	memset(a, 0, sizeof(*a));
	a->family = family;
	for (unsigned i = 0; i < words; i++) {
		char w[9];
		uint32_t v;

		memcpy(w, hex + 8 * i, 8);
		w[8] = '\0';
		if (sscanf(w, "%8x", &v) != 1)
			return false;
		memcpy(&a->u.bytes[4 * i], &v, 4);
	}
	ipaddr_unmap_v4(a);
	return true;
}

int ktest_syn_recv_count(const struct ipaddr *from)
{
	static const char *const files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	int count = 0;

	for (unsigned f = 0; f < 2; f++) {
		FILE *fp = fopen(files[f], "r");
		char line[512], rem[40];
		unsigned st;

		ck_assert_msg(fp, "%s: %s", files[f], strerror(errno));
		if (!fgets(line, sizeof(line), fp)) { /* the header */
			fclose(fp);
			continue;
		}
		while (fgets(line, sizeof(line), fp)) {
			struct ipaddr a;

			/* "  sl  local_address rem_address   st ..." */
			if (sscanf(line, "%*s %*s %39[0-9A-Fa-f]:%*x %x", rem, &st) != 2)
				continue;
			if (st != 3 /* TCP_SYN_RECV */ ||
			    !proc_addr(rem, f == 0 ? AF_INET : AF_INET6, &a))
				continue;
			if (!from || ipaddr_cmp(&a, from) == 0)
				count++;
		}
		fclose(fp);
	}
	return count;
}

void ktest_sysctl(const char *path, const char *value)
{
	FILE *fp = fopen(path, "w");

	ck_assert_msg(fp, "%s: %s", path, strerror(errno));
	ck_assert_int_ge(fputs(value, fp), 0);
	ck_assert_int_eq(fclose(fp), 0);
}

struct kernel_gtsm_peer ktest_gtsm_peer(const char *addr, int min)
{
	struct kernel_gtsm_peer p;

	memset(&p, 0, sizeof(p));
	p.addr = ktest_ip(addr);
	p.min_ttl = (uint8_t)min;
	return p;
}

struct kernel_gtsm_peer *ktest_v6_gtsm_peers(int n, int first)
{
	struct kernel_gtsm_peer *t = calloc((size_t)n, sizeof(*t));
	char a[64];

	ck_assert_ptr_nonnull(t);
	for (int i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "2001:db8::%x:%x", (first + i) >> 16, (first + i) & 0xffff);
		t[i] = ktest_gtsm_peer(a, 255);
	}
	return t;
}
