/* SPDX-License-Identifier: ISC */
/*
 * Reading back the routes bgpd installed (kernel/kernel_route.h, kernel_fib_dump()): a
 * restarting bgpd adopts the routes of protocol bgp an earlier run left in its table and
 * compares each with what it would install, so that only the routes whose next hops changed
 * are written again (bgpd/fib/bgp_fib_gr.c).
 */
#include "lib/compat.h"

#include <linux/rtnetlink.h>

#include "kernel/kernel.h"
#include "kernel/netlink.h"

/* A 1M-route dump arrives faster than it is read: room for a burst of answers. */
#define DUMP_RCVBUF (8 * 1024 * 1024)

struct dump_ctx {
	uint32_t table;
	kernel_fib_dump_cb cb;
	void *arg;
	int stop; /* the callback's non-zero return */
};

/* The next hops of a route message: RTA_MULTIPATH's, or the single RTA_GATEWAY / RTA_OIF. */
static unsigned parse_nexthops(const struct nlattr **tb, int family, struct kernel_nh *nh)
{
	unsigned n = 0;

	if (!tb[RTA_MULTIPATH]) {
		memset(&nh[0], 0, sizeof(nh[0]));
		if (tb[RTA_GATEWAY])
			nl_attr_addr(tb[RTA_GATEWAY], family, &nh[0].gw);
		nh[0].ifindex = tb[RTA_OIF] ? mnl_attr_get_u32(tb[RTA_OIF]) : 0;
		return nh[0].gw.family || nh[0].ifindex ? 1 : 0;
	}
	const uint8_t *p = mnl_attr_get_payload(tb[RTA_MULTIPATH]);
	size_t left = mnl_attr_get_payload_len(tb[RTA_MULTIPATH]);

	while (left >= sizeof(struct rtnexthop) && n < KERNEL_NH_MAX) {
		const struct rtnexthop *rtnh = (const struct rtnexthop *)p;
		size_t len = rtnh->rtnh_len;
		const struct nlattr *a;

		if (len < sizeof(*rtnh) || len > left)
			break;
		memset(&nh[n], 0, sizeof(nh[n]));
		nh[n].ifindex = (uint32_t)rtnh->rtnh_ifindex;
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

static int dump_one(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *c = data;
	const struct nlattr *tb[RTA_MAX + 1];
	const struct rtmsg *rtm;
	struct kernel_route r;
	uint32_t table;

	if (c->stop || nlh->nlmsg_type != RTM_NEWROUTE || nl_route_parse(nlh, tb, &r.dst) < 0)
		return MNL_CB_OK;
	rtm = mnl_nlmsg_get_payload(nlh);
	table = tb[RTA_TABLE] ? mnl_attr_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (rtm->rtm_protocol != RTPROT_BGP_VALUE || table != c->table)
		return MNL_CB_OK;
	r.table = table;
	r.metric = tb[RTA_PRIORITY] ? mnl_attr_get_u32(tb[RTA_PRIORITY]) : 0;
	r.nnh = parse_nexthops(tb, r.dst.family, r.nh);
	c->stop = c->cb(&r, c->arg);
	return MNL_CB_OK;
}

int kernel_fib_dump(uint32_t table, int family, kernel_fib_dump_cb cb, void *arg)
{
	struct dump_ctx c = { .table = table, .cb = cb, .arg = arg };
	struct nl_sock dump;
	int ret = nl_open(&dump, 0, DUMP_RCVBUF, false);

	if (ret < 0)
		return ret;
	ret = nl_dump(&dump, RTM_GETROUTE, (uint8_t)family, dump_one, &c);
	nl_close(&dump);
	return ret;
}
