/* SPDX-License-Identifier: ISC */
/*
 * The kernel's own routes and interfaces, mirrored for next-hop resolution
 * (kernel/kernel_route.h): the unicast routes of the main table that are not BGP's, per prefix
 * and metric, and every interface's name and state.
 *
 * Kept current from rtnetlink notifications (RTMGRP_LINK, RTMGRP_IPV4_ROUTE,
 * RTMGRP_IPV6_ROUTE). A classic BPF filter on the socket drops route notifications of protocol
 * bgp in the kernel: those are our own installs (a full table would otherwise come back to us
 * as a million messages) or another BGP daemon's, and BGP never resolves through BGP here. If
 * the kernel still drops notifications (ENOBUFS), the mirror is rebuilt from a dump on a new
 * socket (watch_reopen() says why a new one): it can be late, never wrong for long.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

#include "kernel/kernel.h"
#include "kernel/netlink.h"
#include "lib/hash.h"
#include "lib/memory.h"
#include "lib/table.h"

static DEFINE_MTYPE(KERNEL_WATCH, "Kernel route mirror");

#define WATCH_RCVBUF (4 * 1024 * 1024)

/* One route of a prefix (a prefix can have several, one per metric). */
struct kw_route {
	struct kw_route *next;
	uint32_t metric;
	uint8_t protocol;
	unsigned nnh;
	struct nl_nh nh[];
};

struct kw_entry {
	struct prefix p;
	struct kw_route *routes; /* lowest metric first */
};

struct kw_link {
	uint32_t ifindex;
	unsigned flags;
	char name[IF_NAMESIZE];
};

struct kernel_watch {
	struct nl_sock mon;
	struct ptree *t4, *t6;
	struct hash *links;
	uint64_t resyncs;
	bool changed;
	bool lost; /* notifications were dropped: what the socket still holds is meaningless */
};

static struct ptree *tree_of(const struct kernel_watch *w, int family)
{
	return family == AF_INET ? w->t4 : w->t6;
}

/* ---- interfaces ---- */

static uint32_t link_key(const void *item)
{
	return ((const struct kw_link *)item)->ifindex * 2654435761u;
}

static bool link_eq(const void *a, const void *b)
{
	return ((const struct kw_link *)a)->ifindex == ((const struct kw_link *)b)->ifindex;
}

static struct kw_link *link_find(const struct kernel_watch *w, uint32_t ifindex)
{
	struct kw_link key = { .ifindex = ifindex };

	return hash_lookup(w->links, &key);
}

static int link_msg(struct kernel_watch *w, const struct nlmsghdr *nlh)
{
	const struct ifinfomsg *ifi;
	struct nlattr *attr;
	struct kw_link *l;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifi)))
		return MNL_CB_OK;
	ifi = mnl_nlmsg_get_payload(nlh);
	if (ifi->ifi_index <= 0)
		return MNL_CB_OK;
	l = link_find(w, (uint32_t)ifi->ifi_index);
	if (nlh->nlmsg_type == RTM_DELLINK) {
		if (l) {
			hash_remove(w->links, l);
			XFREE(MTYPE_KERNEL_WATCH, l);
			w->changed = true;
		}
		return MNL_CB_OK;
	}
	if (!l) {
		l = XCALLOC(MTYPE_KERNEL_WATCH, sizeof(*l));
		l->ifindex = (uint32_t)ifi->ifi_index;
		hash_insert(w->links, l);
		w->changed = true;
	}
	if (l->flags != ifi->ifi_flags)
		w->changed = true;
	l->flags = ifi->ifi_flags;
	mnl_attr_for_each(attr, nlh, sizeof(*ifi))
	{
		if (mnl_attr_get_type(attr) == IFLA_IFNAME &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(l->name, sizeof(l->name), "%s", mnl_attr_get_str(attr));
	}
	return MNL_CB_OK;
}

bool kernel_if_running(const struct kernel_watch *w, uint32_t ifindex)
{
	const struct kw_link *l = link_find(w, ifindex);

	return l && (l->flags & IFF_UP) && (l->flags & IFF_RUNNING);
}

const char *kernel_ifname(const struct kernel_watch *w, uint32_t ifindex, char buf[IF_NAMESIZE])
{
	const struct kw_link *l = w ? link_find(w, ifindex) : NULL;

	if (l && l->name[0])
		snprintf(buf, IF_NAMESIZE, "%s", l->name);
	else
		snprintf(buf, IF_NAMESIZE, "?%u", ifindex);
	return buf;
}

/* ---- routes ---- */

static void entry_free(void *value)
{
	struct kw_entry *e = value;

	while (e && e->routes) {
		struct kw_route *r = e->routes;

		e->routes = r->next;
		XFREE(MTYPE_KERNEL_WATCH, r);
	}
	XFREE(MTYPE_KERNEL_WATCH, e);
}

/*
 * Unicast routes, and the routes that discard (blackhole, unreachable, prohibit): those are
 * how operators anchor a `network` statement (bgp network import-check counts them, as zebra
 * does) and are redistributed as zebra does; with no next hop, none resolves through them.
 */
static bool route_type_mirrored(uint8_t type)
{
	return type == RTN_UNICAST || type == RTN_BLACKHOLE || type == RTN_UNREACHABLE ||
	       type == RTN_PROHIBIT;
}

static bool nh_same(const struct nl_nh *a, const struct nl_nh *b)
{
	return a->ifindex == b->ifindex && a->gw.family == b->gw.family &&
	       (!a->gw.family || ipaddr_cmp(&a->gw, &b->gw) == 0);
}

static void route_unlink(struct kw_entry *e, uint32_t metric)
{
	for (struct kw_route **pp = &e->routes; *pp; pp = &(*pp)->next)
		if ((*pp)->metric == metric) {
			struct kw_route *r = *pp;

			*pp = r->next;
			XFREE(MTYPE_KERNEL_WATCH, r);
			return;
		}
}

static void route_insert(struct kw_entry *e, struct kw_route *r)
{
	struct kw_route **pp = &e->routes;

	while (*pp && (*pp)->metric <= r->metric)
		pp = &(*pp)->next;
	r->next = *pp;
	*pp = r;
}

static struct kw_route *route_find(struct kw_entry *e, uint32_t metric)
{
	for (struct kw_route *r = e ? e->routes : NULL; r; r = r->next)
		if (r->metric == metric)
			return r;
	return NULL;
}

static int route_msg(struct kernel_watch *w, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[RTA_MAX + 1];
	struct nl_nh nh[KERNEL_NH_MAX];
	const struct rtmsg *rtm;
	struct kw_entry *e;
	struct kw_route *old, *r;
	struct prefix dst;
	uint32_t table, metric;
	unsigned n;

	if (nl_route_parse(nlh, tb, &dst) < 0)
		return MNL_CB_OK;
	rtm = mnl_nlmsg_get_payload(nlh);
	table = tb[RTA_TABLE] ? mnl_attr_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (table != RT_TABLE_MAIN || rtm->rtm_protocol == RTPROT_BGP_VALUE ||
	    !route_type_mirrored(rtm->rtm_type) || rtm->rtm_tos != 0 ||
	    (rtm->rtm_flags & RTM_F_CLONED))
		return MNL_CB_OK;
	metric = tb[RTA_PRIORITY] ? mnl_attr_get_u32(tb[RTA_PRIORITY]) : 0;
	/* A route that discards has no next hop: nothing resolves through it. */
	n = rtm->rtm_type == RTN_UNICAST ? nl_route_nexthops(nlh, tb, nh, KERNEL_NH_MAX) : 0;
	e = ptree_lookup(tree_of(w, dst.family), &dst);
	old = route_find(e, metric);

	if (nlh->nlmsg_type == RTM_DELROUTE) {
		if (!old)
			return MNL_CB_OK;
		/* IPv6 announces the removal of one next hop of a multipath route on its own. */
		if (old->nnh > 1 && n == 1 && !(rtm->rtm_flags & RTM_F_CLONED)) {
			for (unsigned i = 0; i < old->nnh; i++)
				if (nh_same(&old->nh[i], &nh[0])) {
					memmove(&old->nh[i], &old->nh[i + 1],
						(old->nnh - i - 1) * sizeof(nh[0]));
					old->nnh--;
					w->changed = true;
					return MNL_CB_OK;
				}
		}
		route_unlink(e, metric);
		if (!e->routes)
			entry_free(ptree_delete(tree_of(w, dst.family), &dst));
		w->changed = true;
		return MNL_CB_OK;
	}
	if (old && (nlh->nlmsg_flags & NLM_F_APPEND)) {
		/* IPv6 next hops appended to a route: keep the ones we know. */
		unsigned total = old->nnh;

		for (unsigned i = 0; i < n; i++) {
			bool known = false;

			for (unsigned j = 0; j < old->nnh; j++)
				known = known || nh_same(&old->nh[j], &nh[i]);
			if (!known && total < KERNEL_NH_MAX)
				total++;
		}
		if (total == old->nnh)
			return MNL_CB_OK;
		r = XCALLOC(MTYPE_KERNEL_WATCH, sizeof(*r) + total * sizeof(r->nh[0]));
		*r = *old;
		memcpy(r->nh, old->nh, old->nnh * sizeof(nh[0]));
		for (unsigned i = 0; i < n && r->nnh < total; i++) {
			bool known = false;

			for (unsigned j = 0; j < r->nnh; j++)
				known = known || nh_same(&r->nh[j], &nh[i]);
			if (!known)
				r->nh[r->nnh++] = nh[i];
		}
	} else {
		r = XCALLOC(MTYPE_KERNEL_WATCH, sizeof(*r) + n * sizeof(r->nh[0]));
		r->metric = metric;
		r->nnh = n;
		memcpy(r->nh, nh, n * sizeof(nh[0]));
	}
	r->protocol = rtm->rtm_protocol;
	if (!e) {
		e = XCALLOC(MTYPE_KERNEL_WATCH, sizeof(*e));
		e->p = dst;
		*ptree_get(tree_of(w, dst.family), &dst) = e;
	}
	if (old)
		route_unlink(e, metric);
	route_insert(e, r);
	w->changed = true;
	return MNL_CB_OK;
}

static int watch_msg(const struct nlmsghdr *nlh, void *data)
{
	struct kernel_watch *w = data;

	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		return link_msg(w, nlh);
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		return route_msg(w, nlh);
	default:
		return MNL_CB_OK;
	}
}

/* ---- set-up, reading, resynchronisation ---- */

static int link_free_cb(void *item, void *arg)
{
	(void)arg;
	XFREE(MTYPE_KERNEL_WATCH, item);
	return 0;
}

static void mirror_clear(struct kernel_watch *w)
{
	ptree_free(w->t4, entry_free);
	ptree_free(w->t6, entry_free);
	if (w->links) {
		hash_walk(w->links, link_free_cb, NULL);
		hash_free(w->links);
	}
	w->t4 = ptree_new(AF_INET);
	w->t6 = ptree_new(AF_INET6);
	w->links = hash_new(link_key, link_eq, "Kernel interfaces");
}

/* Read the whole state (links first: routes are judged by their interfaces). */
static int mirror_load(struct kernel_watch *w)
{
	struct nl_sock dump;
	int ret = nl_open(&dump, 0, WATCH_RCVBUF, false);

	if (ret < 0)
		return ret;
	mirror_clear(w);
	ret = nl_dump(&dump, RTM_GETLINK, AF_UNSPEC, watch_msg, w);
	if (ret == 0)
		ret = nl_dump(&dump, RTM_GETROUTE, AF_INET, watch_msg, w);
	if (ret == 0)
		ret = nl_dump(&dump, RTM_GETROUTE, AF_INET6, watch_msg, w);
	nl_close(&dump);
	w->changed = true;
	return ret;
}

/* Drop route notifications of protocol bgp before they are queued to the socket. */
static int attach_bgp_filter(int fd)
{
	/* nlmsg_type is in host order: its low byte is at offset 4 on little endian, 5 on big. */
	uint32_t type_lo = htons(1) == 1 ? 5 : 4;
	uint32_t proto_off = (uint32_t)(NLMSG_HDRLEN + offsetof(struct rtmsg, rtm_protocol));
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, type_lo),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RTM_NEWROUTE, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RTM_DELROUTE, 0, 3),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, proto_off),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RTPROT_BGP_VALUE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),
	};
	struct sock_fprog prog = { .len = array_size(code), .filter = code };

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0)
		return -errno;
	return 0;
}

/* The monitor socket: subscribed to link and route changes, bgp's own routes filtered out. */
static int monitor_open(struct nl_sock *mon)
{
	int ret = nl_open(mon, RTMGRP_LINK | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE, WATCH_RCVBUF,
			  true);

	if (ret == 0) {
		ret = attach_bgp_filter(nl_fd(mon));
		if (ret < 0)
			nl_close(mon);
	}
	return ret;
}

int kernel_watch_open(struct kernel_watch **out)
{
	struct kernel_watch *w = XCALLOC(MTYPE_KERNEL_WATCH, sizeof(*w));
	int ret = monitor_open(&w->mon);

	/* Subscribed first, dumped second: a change in between arrives as a notification. */
	if (ret == 0)
		ret = mirror_load(w);
	if (ret < 0) {
		kernel_watch_close(w);
		return ret;
	}
	*out = w;
	return 0;
}

void kernel_watch_close(struct kernel_watch *w)
{
	if (!w)
		return;
	nl_close(&w->mon);
	ptree_free(w->t4, entry_free);
	ptree_free(w->t6, entry_free);
	if (w->links) {
		hash_walk(w->links, link_free_cb, NULL);
		hash_free(w->links);
	}
	XFREE(MTYPE_KERNEL_WATCH, w);
}

int kernel_watch_fd(const struct kernel_watch *w)
{
	return nl_fd(&w->mon);
}

/*
 * After ENOBUFS: a new monitor socket, subscribed before the dump as at start-up, in place of
 * the one that overran. Why not drain the old one and dump: an overrun marks a netlink socket
 * congested, and the kernel then drops every notification for it, without a second ENOBUFS,
 * until a recv() finds its queue empty (net/netlink/af_netlink.c: netlink_overrun() reports
 * once, netlink_broadcast_deliver() refuses while congested, netlink_rcv_wake() clears it). A
 * drain that stops short of empty, as a bounded one can with thousands queued, leaves the
 * mirror deaf for good; the fault_enobufs lab caught it holding 38 routes for the kernel's 17.
 * A new socket starts empty and uncongested, and the old queue goes with the old socket. The
 * new socket is opened before the old one is closed, so its descriptor differs: the caller
 * sees kernel_watch_fd() change and watches the new one.
 */
static int watch_reopen(struct kernel_watch *w)
{
	struct nl_sock mon;
	int ret = monitor_open(&mon);

	if (ret < 0)
		return ret;
	ret = mirror_load(w);
	if (ret < 0) {
		nl_close(&mon);
		return ret;
	}
	nl_close(&w->mon);
	w->mon = mon;
	return 0;
}

int kernel_watch_read(struct kernel_watch *w)
{
	uint8_t buf[NL_RECV_SIZE];
	int fd = nl_fd(&w->mon);

	for (int i = 0; i < 256; i++) { /* bounded: the loop serves others too */
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EINTR)
				continue;
			if (errno != ENOBUFS)
				return -errno;
			w->lost = true;
			break;
		}
		/* Notifications (no sequence or port to check); while lost, read only to keep
		 * the old socket from staying readable until the new one is in place. */
		if (!w->lost)
			mnl_cb_run(buf, (size_t)n, 0, 0, watch_msg, w);
	}
	if (w->lost) {
		/* Failing (no descriptor, no memory), it stays lost and is tried again on the
		 * next call; the mirror is as stale as the error says. */
		int ret = watch_reopen(w);

		if (ret < 0)
			return ret;
		w->lost = false;
		w->resyncs++;
	}
	if (!w->changed)
		return 0;
	w->changed = false;
	return 1;
}

uint64_t kernel_watch_resyncs(const struct kernel_watch *w)
{
	return w->resyncs;
}

size_t kernel_watch_routes(const struct kernel_watch *w, int family)
{
	return ptree_count(tree_of(w, family));
}

/* ---- resolution ---- */

/* A network on one of our links: the kernel's own route for an interface address. */
static bool route_connected(const struct kw_route *r)
{
	return r->protocol == RTPROT_KERNEL && r->nnh == 1 && !r->nh[0].gw.family;
}

static bool nh_up(const struct kernel_watch *w, const struct nl_nh *nh)
{
	if (nh->flags & (RTNH_F_DEAD | RTNH_F_LINKDOWN))
		return false;
	return !nh->ifindex || kernel_if_running(w, nh->ifindex);
}

/* The first route of e (lowest metric) with a usable next hop, its usable next hops in res. */
static bool entry_resolves(const struct kernel_watch *w, const struct kw_entry *e,
			   const struct ipaddr *addr, struct kernel_resolution *res)
{
	for (const struct kw_route *r = e->routes; r; r = r->next) {
		unsigned n = 0;

		for (unsigned i = 0; i < r->nnh && n < KERNEL_NH_MAX; i++) {
			if (!nh_up(w, &r->nh[i]))
				continue;
			res->nh[n] = (struct kernel_nh){ .gw = r->nh[i].gw,
							 .ifindex = r->nh[i].ifindex };
			/* On the link: the address itself is the gateway. */
			if (!res->nh[n].gw.family)
				res->nh[n].gw = *addr;
			n++;
		}
		if (!n)
			continue;
		res->nnh = n;
		res->via = e->p;
		res->protocol = r->protocol;
		res->metric = r->metric;
		res->connected = route_connected(r);
		return true;
	}
	return false;
}

int kernel_resolve(const struct kernel_watch *w, const struct ipaddr *addr,
		   struct kernel_resolution *res)
{
	struct ptree *t;
	struct prefix p;

	memset(res, 0, sizeof(*res));
	if (!w || (addr->family != AF_INET && addr->family != AF_INET6))
		return -ENETUNREACH;
	t = tree_of(w, addr->family);
	prefix_from_ipaddr(&p, addr);
	for (;;) {
		const struct kw_entry *e = ptree_match_prefix(t, &p);

		/* Never through the default route (FRR's default, `ip nht resolve-via-default`
		 * off): a next hop nobody routes explicitly is not reachable. */
		if (!e || e->p.len == 0)
			return -ENETUNREACH;
		if (entry_resolves(w, e, addr, res))
			return 0;
		p.len = (uint8_t)(e->p.len - 1);
		prefix_apply_mask(&p);
	}
}

struct walk_ctx {
	const struct kernel_watch *w;
	kernel_route_cb cb;
	void *arg;
};

static int walk_one(const struct prefix *p, void *value, void *arg)
{
	const struct kw_entry *e = value;
	const struct kw_route *r = e->routes;
	struct walk_ctx *c = arg;
	bool connected;

	if (!r)
		return 0;
	/* The network of an interface that is down or without carrier is not offered: zebra drops
	 * an interface's networks then. Other routes stay while the kernel has them (the kernel
	 * keeps them, flagged linkdown, and so does zebra). */
	connected = route_connected(r);
	if (connected && !nh_up(c->w, &r->nh[0]))
		return 0;
	return c->cb(p, r->protocol, connected, r->metric, c->arg);
}

int kernel_watch_walk(const struct kernel_watch *w, int family, kernel_route_cb cb, void *arg)
{
	struct walk_ctx c = { w, cb, arg };

	return ptree_walk(tree_of(w, family), walk_one, &c);
}
