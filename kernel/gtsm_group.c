/* SPDX-License-Identifier: ISC */
/*
 * GTSM listener group (kernel/kernel_security.h, doc/gtsm-kernel.md "The listener group"): an
 * SO_REUSEPORT listener at index 0 and a sink with a minimum TTL / hop limit of 255 at index 1,
 * and a classic BPF reuseport selector that sends a GTSM peer's segment below its minimum
 * (RFC 5082 section 3, "Dangerous" packets MAY be dropped) to the sink. Linux selects the
 * socket during the listener lookup and then, in tcp_v4_rcv / tcp_v6_rcv, checks the selected
 * socket's minimum before its TCP-MD5 keys: the sink drops such a segment as TCPMinTTLDrop with
 * no MD5 work, no SYN-ACK and no request socket.
 *
 * The selector reads the IP header through SKF_NET_OFF: the kernel runs it with the skb's data
 * advanced past the TCP header (run_bpf_filter in net/core/sock_reuseport.c), and negative
 * SKF_NET_OFF loads are relative to the network header wherever the data points. An index the
 * group does not have makes the kernel fall back to its hash, i.e. to any member: the group
 * never changes its two members after open, so the selector's 0 and 1 always exist.
 */
#include "lib/compat.h"

#include <linux/filter.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel_sec_private.h"

DEFINE_MTYPE(KERNEL_GTSM_GROUP, "GTSM listener group");

#define SINK_BACKLOG 1
#define SINK_MIN 255 /* every segment the selector sends here has TTL <= 254 */

struct kernel_gtsm_group {
	int fd;	  /* index 0: the listener */
	int sink; /* index 1 */
	struct ipaddr addr;
	uint16_t port;
	unsigned families; /* KERNEL_GTSM_FILTER_V4 / _V6 */
	bool broken;
	struct kernel_gtsm_prog selector; /* what is attached now (kept to roll back) */
	unsigned filter_len;		  /* instructions of the listener's filter, 0: none */
	unsigned rules;
};

int kernel_gtsm_selector_build(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
			       struct kernel_gtsm_prog *prog, struct kernel_sec_err *err)
{
	struct kernel_gtsm_prog local;
	struct kernel_gtsm_prog *p = prog ? prog : &local;
	int ret = ksec_gtsm_compile(peers, n, families, KERNEL_GTSM_GROUP_LISTENER,
				    KERNEL_GTSM_GROUP_SINK, "SO_ATTACH_REUSEPORT_CBPF", p, err);

	if (ret >= 0 && p->rules_v4 + p->rules_v6 == 0) {
		/* No GTSM peer: everything to the listener. Never detach the selector instead: the
		 * kernel would then hash SYNs over both members and the sink would drop half. */
		p->insns[0] =
			(struct sock_filter)BPF_STMT(BPF_RET | BPF_K, KERNEL_GTSM_GROUP_LISTENER);
		p->len = 1;
		ret = 1;
	}
	if (!prog)
		kernel_gtsm_prog_free(&local);
	return ret;
}

static int set_int(int fd, int level, int name, int val)
{
	return setsockopt(fd, level, name, &val, sizeof(val)) < 0 ? -errno : 0;
}

static int attach_prog(int fd, int option, const struct sock_filter *insns, unsigned len)
{
	struct sock_fprog fprog = { (unsigned short)len, (struct sock_filter *)insns };

	return setsockopt(fd, SOL_SOCKET, option, &fprog, sizeof(fprog)) < 0 ? -errno : 0;
}

static const char *group_str(const struct kernel_gtsm_group *g, uint16_t port, char *buf,
			     size_t size)
{
	char a[SU_STRLEN];

	snprintf(buf, size, "listener group %s", ipaddr_port_to_str(&g->addr, port, a, sizeof(a)));
	return buf;
}

/* A TCP socket of the group's family with SO_REUSEADDR (and SO_REUSEPORT), V6ONLY as asked. */
static int group_socket(const struct kernel_gtsm_group *g, bool v6only, bool reuseport,
			const char *subj, struct kernel_sec_err *err)
{
	int fd = socket(g->addr.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
	int ret;

	if (fd < 0)
		return ksec_fail(err, -errno, "socket", subj, NULL, "create");
	ret = set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	if (ret == 0 && reuseport)
		ret = set_int(fd, SOL_SOCKET, SO_REUSEPORT, 1);
	if (ret < 0) {
		close(fd);
		return ksec_fail(err, ret, reuseport ? "SO_REUSEPORT" : "SO_REUSEADDR", subj, NULL,
				 "set");
	}
	if (g->addr.family == AF_INET6) {
		ret = set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, v6only ? 1 : 0);
		if (ret < 0) {
			close(fd);
			return ksec_fail(err, ret, "IPV6_V6ONLY", subj, NULL, "%d", v6only);
		}
	}
	return fd;
}

static int group_bind(const struct kernel_gtsm_group *g, int fd, uint16_t port, const char *what,
		      const char *subj, struct kernel_sec_err *err)
{
	struct sockaddr_storage ss;
	socklen_t len = ipaddr_to_sockaddr(&g->addr, port, &ss);

	if (bind(fd, (struct sockaddr *)&ss, len) < 0) {
		int ret = -errno;

		return ksec_fail(err, ret, "bind", subj,
				 ret == -EADDRINUSE ? "another socket listens on this address and "
						      "port (another BGP daemon?)"
						    : NULL,
				 "%s", what);
	}
	return 0;
}

/*
 * Without SO_REUSEPORT, binding where somebody listens fails: that is the only way to tell,
 * because with SO_REUSEPORT our sockets would silently join a group another process of the same
 * user (a second bgpd) already runs, and swap its selector or be swapped.
 */
static int probe_port_free(const struct kernel_gtsm_group *g, bool v6only, const char *subj,
			   struct kernel_sec_err *err)
{
	int fd, ret;

	if (g->port == 0)
		return 0;
	fd = group_socket(g, v6only, false, subj, err);
	if (fd < 0)
		return fd;
	ret = group_bind(g, fd, g->port, "probe (is the port free?)", subj, err);
	close(fd);
	return ret;
}

/* The accepting listener, bound and listening with the selector attached; minimum still 255. */
static int open_listener(struct kernel_gtsm_group *g, bool v6only, int backlog,
			 const struct kernel_gtsm_prog *filter, char *subj, size_t subjsize,
			 struct kernel_sec_err *err)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct ipaddr bound;
	int ret;

	g->fd = group_socket(g, v6only, true, subj, err);
	if (g->fd < 0)
		return g->fd;
	ret = kernel_ttl_set(g->fd, NULL, KERNEL_GTSM_TTL, err);
	/* Closed to everything below 255 until the sink has joined (kernel_gtsm_group_open). */
	if (ret == 0)
		ret = kernel_minttl_set(g->fd, NULL, SINK_MIN, err);
	if (ret < 0)
		return ret;
	if (filter->rules_v4 + filter->rules_v6 > 0) {
		ret = attach_prog(g->fd, SO_ATTACH_FILTER, filter->insns, filter->len);
		if (ret < 0)
			return ksec_fail(err, ret, "SO_ATTACH_FILTER", subj, NULL,
					 "attach (%u instructions) to the listener", filter->len);
		g->filter_len = filter->len;
	}
	ret = group_bind(g, g->fd, g->port, "listener", subj, err);
	if (ret < 0)
		return ret;
	/* port 0: the sink must bind to the port the kernel picked */
	if (getsockname(g->fd, (struct sockaddr *)&ss, &len) < 0)
		return ksec_fail(err, -errno, "getsockname", subj, NULL, "listener");
	if (ipaddr_from_sockaddr(&bound, &g->port, (struct sockaddr *)&ss) < 0)
		return ksec_fail(err, -EAFNOSUPPORT, "getsockname", subj, NULL, "listener");
	group_str(g, g->port, subj, subjsize);
	if (listen(g->fd, backlog) < 0)
		return ksec_fail(err, -errno, "listen", subj, NULL, "listener (backlog %d)",
				 backlog);
	/* The group now has one member: an index 1 falls back to it (minimum 255 still). */
	ret = attach_prog(g->fd, SO_ATTACH_REUSEPORT_CBPF, g->selector.insns, g->selector.len);
	if (ret < 0)
		return ksec_fail(err, ret, "SO_ATTACH_REUSEPORT_CBPF", subj, NULL,
				 "attach (%u instructions)", g->selector.len);
	return 0;
}

/* The sink: minimum 255, a filter that drops everything, joins the group at index 1. */
static int open_sink(struct kernel_gtsm_group *g, bool v6only, const char *subj,
		     struct kernel_sec_err *err)
{
	static const struct sock_filter drop_all = BPF_STMT(BPF_RET | BPF_K, 0);
	int ret;

	g->sink = group_socket(g, v6only, true, subj, err);
	if (g->sink < 0)
		return g->sink;
	ret = kernel_minttl_set(g->sink, NULL, SINK_MIN, err);
	if (ret < 0)
		return ret;
	/* Belt and braces: the minimum already drops all it can receive, before MD5. */
	ret = attach_prog(g->sink, SO_ATTACH_FILTER, &drop_all, 1);
	if (ret < 0)
		return ksec_fail(err, ret, "SO_ATTACH_FILTER", subj, NULL, "attach to the sink");
	ret = group_bind(g, g->sink, g->port, "sink", subj, err);
	if (ret < 0)
		return ret;
	if (listen(g->sink, SINK_BACKLOG) < 0)
		return ksec_fail(err, -errno, "listen", subj, NULL, "sink");
	return 0;
}

static void group_free(struct kernel_gtsm_group *g)
{
	/* Listener first: the sink, left alone at index 0, then takes and drops everything. */
	if (g->fd >= 0)
		close(g->fd);
	if (g->sink >= 0)
		close(g->sink);
	kernel_gtsm_prog_free(&g->selector);
	XFREE(MTYPE_KERNEL_GTSM_GROUP, g);
}

int kernel_gtsm_group_open(const struct ipaddr *addr, uint16_t port, bool v6only, int backlog,
			   const struct kernel_gtsm_peer *peers, size_t n,
			   struct kernel_gtsm_group **out, struct kernel_sec_err *err)
{
	char subj[SU_STRLEN + 24];
	struct kernel_gtsm_prog filter;
	struct kernel_gtsm_group *g;
	int ret;

	*out = NULL;
	if (!addr || (addr->family != AF_INET && addr->family != AF_INET6) || backlog < 1)
		return ksec_fail(err, -EINVAL, "listen", "listener group", NULL,
				 "open (address family %d, backlog %d)", addr ? addr->family : -1,
				 backlog);
	g = XCALLOC(MTYPE_KERNEL_GTSM_GROUP, sizeof(*g));
	g->fd = g->sink = -1;
	g->addr = *addr;
	g->port = port;
	if (addr->family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&addr->u.v6))
		ipaddr_unmap_v4(&g->addr);
	if (g->addr.family == AF_INET)
		g->families = KERNEL_GTSM_FILTER_V4;
	else
		g->families = KERNEL_GTSM_FILTER_V6 | (v6only ? 0 : KERNEL_GTSM_FILTER_V4);
	group_str(g, port, subj, sizeof(subj));

	/* Programs first: a peer set that does not compile opens nothing. */
	ret = kernel_gtsm_selector_build(peers, n, g->families, &g->selector, err);
	if (ret < 0)
		goto fail;
	ret = kernel_gtsm_filter_build(peers, n, g->families, &filter, err);
	if (ret < 0)
		goto fail;
	g->rules = filter.rules_v4 + filter.rules_v6;

	ret = probe_port_free(g, v6only, subj, err);
	if (ret == 0)
		ret = open_listener(g, v6only, backlog, &filter, subj, sizeof(subj), err);
	kernel_gtsm_prog_free(&filter);
	if (ret == 0)
		ret = open_sink(g, v6only, subj, err);
	/* Both members in place: the selector's indexes exist, the listener opens up. */
	if (ret == 0)
		ret = kernel_minttl_set(g->fd, NULL, 0, err);
	if (ret < 0)
		goto fail;
	*out = g;
	return 0;
fail:
	group_free(g);
	return ret;
}

int kernel_gtsm_group_update(struct kernel_gtsm_group *g, const struct kernel_gtsm_peer *peers,
			     size_t n, struct kernel_sec_err *err)
{
	char subj[SU_STRLEN + 24];
	struct kernel_gtsm_prog sel, filter;
	unsigned rules;
	int ret;

	group_str(g, g->port, subj, sizeof(subj));
	if (g->broken)
		return ksec_fail(err, -EIO, "SO_ATTACH_REUSEPORT_CBPF", subj,
				 "a previous update failed half-way: close the group and open it "
				 "again",
				 "update");
	ret = kernel_gtsm_selector_build(peers, n, g->families, &sel, err);
	if (ret < 0)
		return ret;
	ret = kernel_gtsm_filter_build(peers, n, g->families, &filter, err);
	if (ret < 0) {
		kernel_gtsm_prog_free(&sel);
		return ret;
	}
	rules = filter.rules_v4 + filter.rules_v6;

	/*
	 * Selector first: from this instant a tightened peer's low-TTL SYN goes to the sink, and
	 * a loosened one's meets the old filter for microseconds (a lost SYN, retried; never an
	 * accepted one). The kernel swaps the group's program under its lock (reuseport_attach_
	 * prog): every lookup runs either the old or the new program.
	 */
	ret = attach_prog(g->fd, SO_ATTACH_REUSEPORT_CBPF, sel.insns, sel.len);
	if (ret < 0) {
		ksec_fail(err, ret, "SO_ATTACH_REUSEPORT_CBPF", subj, NULL,
			  "attach (%u instructions, %u GTSM peers)", sel.len, rules);
		goto out;
	}
	if (rules > 0)
		ret = attach_prog(g->fd, SO_ATTACH_FILTER, filter.insns, filter.len);
	else if (setsockopt(g->fd, SOL_SOCKET, SO_DETACH_FILTER, &(int){ 0 }, sizeof(int)) < 0 &&
		 errno != ENOENT)
		ret = -errno;
	if (ret < 0) {
		int back;

		ksec_fail(err, ret, rules ? "SO_ATTACH_FILTER" : "SO_DETACH_FILTER", subj, NULL,
			  "listener filter (%u instructions, %u GTSM peers)", filter.len, rules);
		/* The old filter is still in force: put the old selector back with it. */
		back = attach_prog(g->fd, SO_ATTACH_REUSEPORT_CBPF, g->selector.insns,
				   g->selector.len);
		if (back < 0) {
			g->broken = true;
			if (err) {
				size_t used = strlen(err->msg);

				snprintf(err->msg + used, sizeof(err->msg) - used,
					 "; restoring the selector failed too (%s): close and "
					 "reopen the group",
					 ksec_errname(back));
			}
		}
		goto out;
	}
	kernel_gtsm_prog_free(&g->selector);
	g->selector = sel;
	memset(&sel, 0, sizeof(sel));
	g->filter_len = rules ? filter.len : 0;
	g->rules = rules;
out:
	kernel_gtsm_prog_free(&sel);
	kernel_gtsm_prog_free(&filter);
	return ret;
}

void kernel_gtsm_group_close(struct kernel_gtsm_group *g)
{
	if (g)
		group_free(g);
}

int kernel_gtsm_group_fd(const struct kernel_gtsm_group *g)
{
	return g->fd;
}

int kernel_gtsm_group_sink_fd(const struct kernel_gtsm_group *g)
{
	return g->sink;
}

uint16_t kernel_gtsm_group_port(const struct kernel_gtsm_group *g)
{
	return g->port;
}

void kernel_gtsm_group_stats(const struct kernel_gtsm_group *g, unsigned *selector_len,
			     unsigned *filter_len, unsigned *rules)
{
	if (selector_len)
		*selector_len = g->selector.len;
	if (filter_len)
		*filter_len = g->filter_len;
	if (rules)
		*rules = g->rules;
}

int kernel_gtsm_accepted(int fd, const struct ipaddr *peer, const struct kernel_sec_params *params,
			 struct kernel_sec_err *err)
{
	int ret = kernel_sec_apply(fd, peer, params, err);

	if (ret < 0)
		return ret;
	/* kernel_sec_apply() set 256 - hops for a GTSM peer; without GTSM nothing inherited may
	 * stay (a connection completed while the group opened carries 255). */
	if (params->gtsm_hops == 0) {
		ret = kernel_minttl_set(fd, peer, 0, err);
		if (ret < 0)
			return ret;
	}
	/* Only now, with the socket's own minimum in force, drop the listener's filter copy. */
	return kernel_gtsm_filter_detach(fd, err);
}
