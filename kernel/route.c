/* SPDX-License-Identifier: ISC */
/*
 * Installing BGP routes in the Linux FIB (kernel/kernel_route.h).
 *
 * Changes are packed into one buffer and sent with one sendmsg() when it is full or flushed:
 * the kernel applies every message of a buffer within that call, so a full table costs about
 * a thousand system calls rather than a million. No acknowledgements are requested, so the
 * kernel answers only what it refuses; each refusal echoes the request, from which the prefix
 * is read back for the log (no per-message bookkeeping on our side).
 *
 * Replace rather than add-then-delete: RTM_NEWROUTE with NLM_F_CREATE | NLM_F_REPLACE swaps a
 * route (and its next hops) in one step, so forwarding never sees a gap. The metric is the
 * same for every route (20, as FRR's zebra), which keeps replace matching the installed route
 * whatever the path type.
 */
#include "lib/compat.h"

#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

#include "kernel/kernel.h"
#include "kernel/netlink.h"
#include "kernel/route_nhobj.h"
#include "kernel/route_private.h"
#include "lib/memory.h"

static DEFINE_MTYPE(KERNEL_FIB, "Kernel route installer");

/* A buffer stays below the default socket send buffer (wmem_default 212992): netlink refuses a
 * message larger than the sender's sndbuf. */
#define FIB_BUF_SIZE (128 * 1024)
/* Room for the kernel's refusals of a whole buffer (each echoes its request). */
#define FIB_RCVBUF (8 * 1024 * 1024)

struct kernel_fib {
	struct nl_sock nl;
	kernel_fib_err_cb err_cb;
	void *err_arg;
	uint8_t *buf;
	size_t len;	/* bytes queued */
	unsigned count; /* messages queued */
	uint64_t sent;	/* changes handed to the kernel */
	uint64_t refused;
	uint64_t sends;	       /* sendmsg() calls */
	struct nhobj_set *nho; /* nexthop objects; NULL: the kernel has none (nho_err says why) */
	int nho_err;
	uint32_t nho_metric; /* of the routes that refer to objects (the replaces') */
};

int kernel_fib_open(struct kernel_fib **out, kernel_fib_err_cb cb, void *arg)
{
	struct kernel_fib *kf = XCALLOC(MTYPE_KERNEL_FIB, sizeof(*kf));
	int ret = nl_open(&kf->nl, 0, FIB_RCVBUF, false);

	if (ret < 0) {
		XFREE(MTYPE_KERNEL_FIB, kf);
		return ret;
	}
	kf->buf = XMALLOC(MTYPE_KERNEL_FIB, FIB_BUF_SIZE);
	kf->nho_err = nhobj_open(&kf->nho);
	if (kf->nho) {
		/* The kernel deletes the objects of an interface that goes down, silently, and
		 * anyone may delete one: told of both, the installer stops handing them out
		 * (kernel_fib_flush() reads the notices first). */
		int group[] = { RTNLGRP_NEXTHOP, RTNLGRP_LINK };

		for (size_t i = 0; i < sizeof(group) / sizeof(group[0]) && ret == 0;
		     i++) /* ret is 0 here */
			ret = setsockopt(nl_fd(&kf->nl), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
					 &group[i], sizeof(group[i]));
		if (ret < 0) {
			kf->nho_err = -errno;
			nhobj_close(kf->nho);
			kf->nho = NULL;
		}
	}
	kf->err_cb = cb;
	kf->err_arg = arg;
	*out = kf;
	return 0;
}

void kernel_fib_close(struct kernel_fib *kf)
{
	if (!kf)
		return;
	nl_close(&kf->nl);
	nhobj_close(kf->nho);
	XFREE(MTYPE_KERNEL_FIB, kf->buf);
	XFREE(MTYPE_KERNEL_FIB, kf);
}

void kernel_fib_stats(const struct kernel_fib *kf, uint64_t *sent, uint64_t *refused,
		      uint64_t *messages)
{
	*sent = kf ? kf->sent : 0;
	*refused = kf ? kf->refused : 0;
	*messages = kf ? kf->sends : 0;
}

int kernel_fib_nexthop_objects(const struct kernel_fib *kf, size_t *objects, size_t *routes)
{
	nhobj_stats(kf ? kf->nho : NULL, objects, routes);
	if (!kf)
		return -ENODEV;
	return kf->nho ? 0 : kf->nho_err;
}

void kernel_fib_adopt(struct kernel_fib *kf, const struct kernel_route *r)
{
	if (kf->nho && r->nh_id && nhobj_adopt(kf->nho, kf, &r->dst, r->nh_id))
		kf->nho_metric = r->metric;
}

size_t kernel_fib_nexthops_prune(struct kernel_fib *kf)
{
	return kf->nho ? nhobj_prune(kf->nho, kf, AF_UNSPEC) : 0;
}

/* ---- refusals ---- */

static void refusal(struct kernel_fib *kf, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e;
	const struct nlattr *tb[RTA_MAX + 1];
	struct prefix dst;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return;
	e = mnl_nlmsg_get_payload(nlh);
	if (e->error == 0)
		return; /* an acknowledgement (none requested, but harmless) */
	kf->refused++;
	if (!kf->err_cb)
		return;
	/* The echoed request must lie within the error message. */
	if (e->msg.nlmsg_len > nlh->nlmsg_len - mnl_nlmsg_size(sizeof(int)) ||
	    (e->msg.nlmsg_type != RTM_NEWROUTE && e->msg.nlmsg_type != RTM_DELROUTE) ||
	    nl_route_parse(&e->msg, tb, &dst) < 0) {
		memset(&dst, 0, sizeof(dst));
		dst.family = AF_UNSPEC;
	}
	kf->err_cb(&dst, e->msg.nlmsg_type == RTM_DELROUTE || e->msg.nlmsg_type == RTM_DELNEXTHOP,
		   -e->error, kf->err_arg);
}

/* A nexthop object deleted by another than us (our own requests' notices carry our port),
 * or an interface down or gone, taking its objects with it. */
static void object_notice(struct kernel_fib *kf, const struct nlmsghdr *nlh)
{
	const struct nlattr *attr;

	if (!kf->nho)
		return;
	if ((nlh->nlmsg_type == RTM_NEWLINK || nlh->nlmsg_type == RTM_DELLINK) &&
	    nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(struct ifinfomsg))) {
		const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_type == RTM_DELLINK || !(ifi->ifi_flags & IFF_UP))
			nhobj_gone_dev(kf->nho, (uint32_t)ifi->ifi_index);
		return;
	}
	if (nlh->nlmsg_type != RTM_DELNEXTHOP || nlh->nlmsg_pid == kf->nl.portid ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct nhmsg)))
		return;
	mnl_attr_for_each(attr, nlh, sizeof(struct nhmsg))
	{
		if (mnl_attr_get_type(attr) == NHA_ID && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			nhobj_gone(kf->nho, mnl_attr_get_u32(attr));
	}
}

/* Read every refusal queued so far (the kernel queued them during sendmsg()), and the
 * notices of nexthop objects the kernel deleted. */
static int read_refusals(struct kernel_fib *kf)
{
	uint8_t buf[NL_RECV_SIZE];
	int fd = nl_fd(&kf->nl);

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		size_t left;

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* More refusals than the buffer holds: they are lost, count that.
				 */
				kf->refused++;
				continue;
			}
			return -errno;
		}
		left = (size_t)n;
		while (mnl_nlmsg_ok(nlh, (int)left)) {
			if (nlh->nlmsg_type == NLMSG_ERROR)
				refusal(kf, nlh);
			else
				object_notice(kf, nlh);
			nlh = mnl_nlmsg_next(nlh, (int *)&left);
		}
	}
}

int kernel_fib_flush(struct kernel_fib *kf)
{
	unsigned count;

	if (kf->nho) {
		/* Objects the kernel deleted since the last send: before this buffer goes. */
		read_refusals(kf);
		/* The objects routes no longer use go in this buffer too. */
		nhobj_settle(kf->nho, kf);
	}
	count = kf->count;

	if (!kf->len) {
		int ret = read_refusals(kf);

		return ret < 0 ? ret : 0;
	}
	if (mnl_socket_sendto(kf->nl.mnl, kf->buf, kf->len) < 0) {
		int err = -errno;

		kf->len = 0;
		kf->count = 0;
		return err;
	}
	kf->sends++;
	kf->sent += count;
	kf->len = 0;
	kf->count = 0;
	read_refusals(kf);
	return (int)count;
}

/* A new message at the end of the buffer, flushed first unless a whole page is left (a route
 * with KERNEL_NH_MAX next hops takes about 1.2 KiB). */
struct nlmsghdr *kernel_fib_msg_begin(struct kernel_fib *kf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	if (kf->len + MNL_SOCKET_BUFFER_SIZE > FIB_BUF_SIZE)
		kernel_fib_flush(kf);
	nlh = mnl_nlmsg_put_header(kf->buf + kf->len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++kf->nl.seq;
	return nlh;
}

void kernel_fib_msg_end(struct kernel_fib *kf, struct nlmsghdr *nlh)
{
	kf->len += NLMSG_ALIGN(nlh->nlmsg_len);
	kf->count++;
}

static struct rtmsg *route_header(struct nlmsghdr *nlh, const struct prefix *dst, uint32_t table,
				  uint32_t metric)
{
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = dst->family;
	rtm->rtm_dst_len = dst->len;
	rtm->rtm_table = table < 256 ? (uint8_t)table : RT_TABLE_UNSPEC;
	rtm->rtm_protocol = RTPROT_BGP_VALUE;
	rtm->rtm_type = RTN_UNICAST;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	mnl_attr_put(nlh, RTA_DST, family_addr_bytes(dst->family), dst->u.bytes);
	mnl_attr_put_u32(nlh, RTA_TABLE, table);
	mnl_attr_put_u32(nlh, RTA_PRIORITY, metric);
	return rtm;
}

static bool nh_usable(const struct kernel_nh *nh, int family)
{
	if (nh->gw.family && nh->gw.family != family)
		return false; /* IPv4 over an IPv6 next hop (RFC 8950) is not supported */
	return nh->gw.family || nh->ifindex;
}

int kernel_fib_replace(struct kernel_fib *kf, const struct kernel_route *r)
{
	int family = r->dst.family;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	uint32_t nh_id = 0;

	if (r->nnh == 0 || r->nnh > KERNEL_NH_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < r->nnh; i++)
		if (!nh_usable(&r->nh[i], family))
			return -EAFNOSUPPORT;
	if (kf->nho) {
		/* A new batch: first the notices of objects gone since the last one (one recv()
		 * per batch), so that no route of it refers to one. */
		if (!kf->len)
			read_refusals(kf);
		/* Queued first: the object must exist when the route comes. */
		nh_id = nhobj_get(kf->nho, kf, family, r->nh, r->nnh);
	}
	nlh = kernel_fib_msg_begin(kf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE);
	rtm = route_header(nlh, &r->dst, r->table, r->metric);
	if (nh_id) {
		mnl_attr_put_u32(nlh, RTA_NH_ID, nh_id);
		if (!r->nh[0].gw.family && r->nnh == 1)
			rtm->rtm_scope = RT_SCOPE_LINK;
	} else if (r->nnh == 1) {
		if (r->nh[0].gw.family)
			mnl_attr_put(nlh, RTA_GATEWAY, family_addr_bytes(family),
				     r->nh[0].gw.u.bytes);
		else
			rtm->rtm_scope = RT_SCOPE_LINK;
		if (r->nh[0].ifindex)
			mnl_attr_put_u32(nlh, RTA_OIF, r->nh[0].ifindex);
	} else {
		struct nlattr *mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);

		for (unsigned i = 0; i < r->nnh; i++) {
			struct rtnexthop *rtnh =
				(struct rtnexthop *)mnl_nlmsg_get_payload_tail(nlh);

			memset(rtnh, 0, sizeof(*rtnh));
			rtnh->rtnh_ifindex = (int)r->nh[i].ifindex;
			nlh->nlmsg_len += RTNH_ALIGN(sizeof(*rtnh));
			if (r->nh[i].gw.family)
				mnl_attr_put(nlh, RTA_GATEWAY, family_addr_bytes(family),
					     r->nh[i].gw.u.bytes);
			rtnh->rtnh_len =
				(unsigned short)((uint8_t *)mnl_nlmsg_get_payload_tail(nlh) -
						 (uint8_t *)rtnh);
		}
		mnl_attr_nest_end(nlh, mp);
	}
	kernel_fib_msg_end(kf, nlh);
	if (kf->nho) { /* after the route: its previous object may go now */
		nhobj_bind(kf->nho, kf, &r->dst, nh_id);
		kf->nho_metric = r->metric;
	}
	return 0;
}

int kernel_fib_delete(struct kernel_fib *kf, const struct prefix *dst, uint32_t table,
		      uint32_t metric)
{
	struct nlmsghdr *nlh = kernel_fib_msg_begin(kf, RTM_DELROUTE, 0);
	struct rtmsg *rtm = route_header(nlh, dst, table, metric);

	rtm->rtm_scope = RT_SCOPE_NOWHERE; /* any scope */
	kernel_fib_msg_end(kf, nlh);
	/* Only our route of dst refers to an object (another metric's is an earlier daemon's). */
	if (kf->nho && metric == kf->nho_metric)
		nhobj_bind(kf->nho, kf, dst, 0);
	return 0;
}

/* ---- leftovers of an earlier run ---- */

struct purge_ctx {
	uint32_t table;
	struct prefix *v;
	uint32_t *metric;
	size_t n, cap;
};

static int purge_collect(const struct nlmsghdr *nlh, void *data)
{
	struct purge_ctx *c = data;
	const struct nlattr *tb[RTA_MAX + 1];
	const struct rtmsg *rtm;
	struct prefix dst;
	uint32_t table;

	if (nlh->nlmsg_type != RTM_NEWROUTE || nl_route_parse(nlh, tb, &dst) < 0)
		return MNL_CB_OK;
	rtm = mnl_nlmsg_get_payload(nlh);
	table = tb[RTA_TABLE] ? mnl_attr_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (rtm->rtm_protocol != RTPROT_BGP_VALUE || table != c->table)
		return MNL_CB_OK;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->v = XREALLOC(MTYPE_KERNEL_FIB, c->v, c->cap * sizeof(*c->v));
		c->metric = XREALLOC(MTYPE_KERNEL_FIB, c->metric, c->cap * sizeof(*c->metric));
	}
	c->metric[c->n] = tb[RTA_PRIORITY] ? mnl_attr_get_u32(tb[RTA_PRIORITY]) : 0;
	c->v[c->n++] = dst;
	return MNL_CB_OK;
}

int kernel_fib_purge(struct kernel_fib *kf, uint32_t table, int family)
{
	struct purge_ctx c = { .table = table };
	struct nl_sock dump;
	int ret = nl_open(&dump, 0, FIB_RCVBUF, false);

	if (ret < 0)
		return ret;
	ret = nl_dump(&dump, RTM_GETROUTE, (uint8_t)family, purge_collect, &c);
	nl_close(&dump);
	if (ret == 0) {
		/* The dump comes in address order, the slowest for the kernel to delete in: the
		 * deletions go in random order instead (kernel/route_hold.c). */
		struct kernel_fib_hold *h = kernel_fib_hold_new();

		for (size_t i = 0; i < c.n; i++)
			kernel_fib_hold_add(h, kf, &c.v[i], table, c.metric[i]);
		kernel_fib_hold_release(h, kf, SIZE_MAX, NULL, NULL);
		kernel_fib_hold_free(h);
		/* What an earlier run left for this family's routes, none of which is left now
		 * (the other family's routes would go with their objects). */
		if (kf->nho)
			nhobj_prune(kf->nho, kf, family);
		ret = kernel_fib_flush(kf);
		if (ret >= 0)
			ret = (int)c.n;
	}
	XFREE(MTYPE_KERNEL_FIB, c.v);
	XFREE(MTYPE_KERNEL_FIB, c.metric);
	return ret;
}
