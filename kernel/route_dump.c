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

/* The next hops of a route message; a route with neither gateway nor interface has none. */
static unsigned dump_nexthops(const struct nlmsghdr *nlh, const struct nlattr **tb,
			      struct kernel_nh *out)
{
	struct nl_nh nh[KERNEL_NH_MAX];
	unsigned n = nl_route_nexthops(nlh, tb, nh, KERNEL_NH_MAX);

	if (n == 1 && !nh[0].gw.family && !nh[0].ifindex)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		out[i].gw = nh[i].gw;
		out[i].ifindex = nh[i].ifindex;
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
	r.nnh = dump_nexthops(nlh, tb, r.nh);
	r.nh_id = tb[RTA_NH_ID] ? mnl_attr_get_u32(tb[RTA_NH_ID]) : 0;
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
