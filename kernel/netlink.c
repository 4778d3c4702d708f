/* SPDX-License-Identifier: ISC */
/*
 * rtnetlink plumbing shared by the route installer and the route watcher: socket set-up with
 * a large receive buffer, synchronous dumps, and the parsing of route messages that both need.
 * Every attribute is validated for type and length before use (mnl_attr_validate): a message
 * from the kernel is still input.
 */
#include "lib/compat.h"

#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/netlink.h"

int nl_open(struct nl_sock *s, unsigned groups, int rcvbuf, bool nonblock)
{
	int fd, one = 1;

	memset(s, 0, sizeof(*s));
	s->mnl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0));
	if (!s->mnl)
		return -errno;
	fd = mnl_socket_get_fd(s->mnl);
	/* Privileged: beyond rmem_max. Otherwise take what rmem_max allows. */
	if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* Errors carry the refused request: the installer reads the prefix back from it. */
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(s->mnl, groups, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(s->mnl);
		s->mnl = NULL;
		return err;
	}
	s->portid = mnl_socket_get_portid(s->mnl);
	s->seq = (uint32_t)getpid() ^ 0x5eed0000u;
	return 0;
}

void nl_close(struct nl_sock *s)
{
	if (s->mnl)
		mnl_socket_close(s->mnl);
	s->mnl = NULL;
}

int nl_fd(const struct nl_sock *s)
{
	return s->mnl ? mnl_socket_get_fd(s->mnl) : -1;
}

int nl_dump(struct nl_sock *s, uint16_t type, uint8_t family, mnl_cb_t cb, void *data)
{
	char buf[NL_RECV_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtgenmsg *g;
	uint32_t seq = ++s->seq;
	int ret;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = family;
	if (type == RTM_GETROUTE) {
		/* The kernel reads a struct rtmsg for route dumps; pad the request to its size. */
		struct rtmsg *rtm = (struct rtmsg *)g;

		nlh->nlmsg_len = mnl_nlmsg_size(sizeof(*rtm));
		memset(rtm, 0, sizeof(*rtm));
		rtm->rtm_family = family;
	} else if (type == RTM_GETNEXTHOP) {
		/* Likewise a struct nhmsg for nexthop dumps. */
		struct nhmsg *nhm = (struct nhmsg *)g;

		nlh->nlmsg_len = mnl_nlmsg_size(sizeof(*nhm));
		memset(nhm, 0, sizeof(*nhm));
		nhm->nh_family = family;
	}
	if (mnl_socket_sendto(s->mnl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s->mnl, buf, sizeof(buf));

		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, (size_t)n, seq, s->portid, cb, data);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
	}
}

bool nl_attr_addr(const struct nlattr *attr, int family, struct ipaddr *a)
{
	size_t len = family_addr_bytes(family);

	if (!attr || mnl_attr_get_payload_len(attr) < len)
		return false;
	memset(a, 0, sizeof(*a));
	a->family = (uint8_t)family;
	memcpy(a->u.bytes, mnl_attr_get_payload(attr), len);
	return true;
}

static int route_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, RTA_MAX) < 0)
		return MNL_CB_OK; /* newer than our headers: not ours to read */
	switch (type) {
	case RTA_TABLE:
	case RTA_OIF:
	case RTA_PRIORITY:
	case RTA_NH_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		break;
	case RTA_MULTIPATH:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		break;
	default:
		break;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

int nl_route_parse(const struct nlmsghdr *nlh, const struct nlattr **tb, struct prefix *dst)
{
	const struct rtmsg *rtm;
	struct ipaddr a;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*rtm)))
		return -EINVAL;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return -EINVAL;
	if (rtm->rtm_dst_len > prefix_maxlen(rtm->rtm_family))
		return -EINVAL;
	memset(tb, 0, (RTA_MAX + 1) * sizeof(*tb));
	if (mnl_attr_parse(nlh, sizeof(*rtm), route_attr_cb, tb) != MNL_CB_OK)
		return -EINVAL;
	memset(dst, 0, sizeof(*dst));
	dst->family = rtm->rtm_family;
	dst->len = rtm->rtm_dst_len;
	if (tb[RTA_DST]) {
		if (!nl_attr_addr(tb[RTA_DST], rtm->rtm_family, &a))
			return -EINVAL;
		memcpy(dst->u.bytes, a.u.bytes, family_addr_bytes(rtm->rtm_family));
	} else if (rtm->rtm_dst_len != 0) {
		return -EINVAL;
	}
	prefix_apply_mask(dst);
	return 0;
}

unsigned nl_route_nexthops(const struct nlmsghdr *nlh, const struct nlattr **tb, struct nl_nh *nh,
			   unsigned max)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	int family = rtm->rtm_family;
	const uint8_t *p;
	size_t left;
	unsigned n = 0;

	if (!max)
		return 0;
	if (!tb[RTA_MULTIPATH]) {
		memset(&nh[0], 0, sizeof(nh[0]));
		if (tb[RTA_GATEWAY])
			nl_attr_addr(tb[RTA_GATEWAY], family, &nh[0].gw);
		nh[0].ifindex = tb[RTA_OIF] ? mnl_attr_get_u32(tb[RTA_OIF]) : 0;
		nh[0].flags = (uint8_t)rtm->rtm_flags;
		return 1;
	}
	p = mnl_attr_get_payload(tb[RTA_MULTIPATH]);
	left = mnl_attr_get_payload_len(tb[RTA_MULTIPATH]);
	while (left >= sizeof(struct rtnexthop) && n < max) {
		const struct rtnexthop *rtnh = (const struct rtnexthop *)p;
		size_t len = rtnh->rtnh_len;
		const struct nlattr *a;

		if (len < sizeof(*rtnh) || len > left)
			break;
		memset(&nh[n], 0, sizeof(nh[n]));
		nh[n].ifindex = (uint32_t)rtnh->rtnh_ifindex;
		nh[n].flags = rtnh->rtnh_flags;
		/* The next hop's own attributes follow it, within rtnh_len. */
		for (a = (const struct nlattr *)(p + RTNH_ALIGN(sizeof(*rtnh)));
		     mnl_attr_ok(a, (int)((p + len) - (const uint8_t *)a)); a = mnl_attr_next(a))
			if (mnl_attr_get_type(a) == RTA_GATEWAY)
				nl_attr_addr(a, family, &nh[n].gw);
		n++;
		len = RTNH_ALIGN(len);
		if (len >= left)
			break;
		p += len;
		left -= len;
	}
	return n;
}
