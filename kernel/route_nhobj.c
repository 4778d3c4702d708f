/* SPDX-License-Identifier: ISC */
/*
 * Nexthop objects for bgpd's routes (kernel/route_nhobj.h).
 *
 * Why: a route that carries its own gateway and interface makes the kernel build a next hop
 * for it (fib_nh_init(), with a per-CPU route cache) and, the next hop being the same as
 * another route's, throw it away again (fib_create_info() shares the fib_info only after
 * building it). A route that names a nexthop object (RTA_NH_ID) skips both: a full table's
 * install costs the kernel about a quarter less system time (doc/performance.md, "Install
 * (round 2)"). FRR's zebra does the same.
 *
 * What: one object per distinct next hop (gateway and interface) and one group per distinct
 * list of them (ECMP), ids NHOBJ_ID_BASE + index, protocol bgp. An object is created (queued
 * before the route that first needs it) when a route needs it, and deleted (queued after the
 * route that last used it) when no route or group refers to it any more: the kernel would
 * otherwise delete the routes still using an object we delete. Which object each route uses
 * is kept per prefix (kernel/route_nhmap.c), so a change or a removal releases the right one.
 *
 * Restart: at open, the objects of protocol bgp in our range an earlier run left are read
 * back; routes adopted across a graceful restart count as references to them, and those no
 * route was adopted with are deleted by nhobj_prune() (after the start-up purge, or once the
 * restart's sweep is done). A kernel without nexthop objects fails the probe: the caller then
 * writes every route with its own next hops, as before.
 */
#include "lib/compat.h"

#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "kernel/netlink.h"
#include "kernel/route_nhmap.h"
#include "kernel/route_nhobj.h"
#include "kernel/route_private.h"
#include "lib/hash.h"
#include "lib/memory.h"

static DEFINE_MTYPE(KERNEL_NHOBJ, "Kernel nexthop objects");

#define NHOBJ_RCVBUF (1024 * 1024)
/* Bindings of routes to objects applied together, their map slots fetched in advance. */
#define NHOBJ_PENDING 32

struct nhobj {
	uint32_t index; /* id - NHOBJ_ID_BASE */
	uint32_t refs;	/* routes using it, and groups having it as a member */
	uint8_t family; /* of the gateway (of the route when none); AF_UNSPEC for a group */
	bool loaded;	/* found at open: deleted by nhobj_prune() unless a route was adopted */
	bool hashed;	/* in by_nh (two objects of an earlier run may have the same next hops) */
	unsigned nnh;
	struct kernel_nh *nh; /* its next hops, the key: for a group, its members' in order */
	uint32_t *member;     /* a group (nnh > 1): its members' indexes */
};

struct nhobj_set {
	struct nhobj **obj; /* by index */
	uint32_t cap;	    /* obj[] entries allocated */
	uint32_t *free;	    /* indexes freed, reused last first */
	uint32_t nfree, freecap;
	uint32_t next; /* indexes at and above are unused */
	size_t count;
	struct hash *by_nh;
	struct nhobj *last;   /* the last one got: a table's routes come in runs of one next hop */
	struct nhmap *map[2]; /* IPv4, IPv6 routes -> index + 1 */
	struct {
		struct prefix p;
		uint32_t id;
	} pending[NHOBJ_PENDING]; /* nhobj_bind()s not applied yet, in order */
	unsigned npending;
	bool settling;
};

/* ---- the key: a list of next hops ---- */

static uint32_t nh_hash(const void *item)
{
	const struct nhobj *o = item;
	uint32_t h = hash_combine(o->nnh, o->family);

	for (unsigned i = 0; i < o->nnh; i++) {
		const struct kernel_nh *nh = &o->nh[i];

		h = hash_combine(h, nh->ifindex);
		h = hash_combine(h, nh->gw.family);
		if (nh->gw.family)
			h = hash_combine(
				h, hash_bytes(nh->gw.u.bytes, family_addr_bytes(nh->gw.family), 0));
	}
	return h;
}

static bool nh_same(const struct kernel_nh *a, const struct kernel_nh *b)
{
	return a->ifindex == b->ifindex && a->gw.family == b->gw.family &&
	       (!a->gw.family ||
		memcmp(a->gw.u.bytes, b->gw.u.bytes, family_addr_bytes(a->gw.family)) == 0);
}

static bool nh_eq(const void *a, const void *b)
{
	const struct nhobj *x = a, *y = b;

	if (x->nnh != y->nnh || x->family != y->family)
		return false;
	for (unsigned i = 0; i < x->nnh; i++)
		if (!nh_same(&x->nh[i], &y->nh[i]))
			return false;
	return true;
}

static struct nhmap *map_of(struct nhobj_set *s, int family)
{
	return s->map[family == AF_INET ? 0 : 1];
}

/* ---- the table of objects ---- */

/* A free index, or UINT32_MAX when all NHOBJ_ID_COUNT are in use. */
static uint32_t index_take(struct nhobj_set *s)
{
	if (s->nfree)
		return s->free[--s->nfree];
	while (s->next < NHOBJ_ID_COUNT && s->next < s->cap && s->obj[s->next])
		s->next++; /* skip those an earlier run's objects hold */
	if (s->next >= NHOBJ_ID_COUNT)
		return UINT32_MAX;
	return s->next++;
}

static void index_give(struct nhobj_set *s, uint32_t index)
{
	if (s->nfree == s->freecap) {
		s->freecap = s->freecap ? s->freecap * 2 : 64;
		s->free = XREALLOC(MTYPE_KERNEL_NHOBJ, s->free, s->freecap * sizeof(*s->free));
	}
	s->free[s->nfree++] = index;
}

static struct nhobj *obj_add(struct nhobj_set *s, uint32_t index, int family,
			     const struct kernel_nh *nh, unsigned nnh)
{
	struct nhobj *o = XCALLOC(MTYPE_KERNEL_NHOBJ, sizeof(*o));

	if (index >= s->cap) {
		uint32_t cap = s->cap ? s->cap : 64;

		while (cap <= index)
			cap *= 2;
		s->obj = XREALLOC(MTYPE_KERNEL_NHOBJ, s->obj, cap * sizeof(*s->obj));
		memset(s->obj + s->cap, 0, (cap - s->cap) * sizeof(*s->obj));
		s->cap = cap;
	}
	o->index = index;
	o->family = (uint8_t)family;
	o->nnh = nnh;
	o->nh = XMALLOC(MTYPE_KERNEL_NHOBJ, nnh * sizeof(*nh));
	memcpy(o->nh, nh, nnh * sizeof(*nh));
	s->obj[index] = o;
	s->count++;
	if (!hash_lookup(s->by_nh, o)) {
		hash_insert(s->by_nh, o);
		o->hashed = true;
	}
	return o;
}

static void obj_free(struct nhobj *o)
{
	XFREE(MTYPE_KERNEL_NHOBJ, o->nh);
	XFREE(MTYPE_KERNEL_NHOBJ, o->member);
	XFREE(MTYPE_KERNEL_NHOBJ, o);
}

static void queue_new_single(struct kernel_fib *kf, const struct nhobj *o)
{
	struct nlmsghdr *nlh =
		kernel_fib_msg_begin(kf, RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_REPLACE);
	struct nhmsg *nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));

	nhm->nh_family = o->family;
	nhm->nh_protocol = RTPROT_BGP_VALUE;
	mnl_attr_put_u32(nlh, NHA_ID, NHOBJ_ID_BASE + o->index);
	if (o->nh[0].gw.family)
		mnl_attr_put(nlh, NHA_GATEWAY, family_addr_bytes(o->nh[0].gw.family),
			     o->nh[0].gw.u.bytes);
	mnl_attr_put_u32(nlh, NHA_OIF, o->nh[0].ifindex);
	kernel_fib_msg_end(kf, nlh);
}

static void queue_new_group(struct kernel_fib *kf, const struct nhobj *o)
{
	struct nlmsghdr *nlh =
		kernel_fib_msg_begin(kf, RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_REPLACE);
	struct nhmsg *nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));
	struct nexthop_grp grp[KERNEL_NH_MAX];

	nhm->nh_family = AF_UNSPEC;
	nhm->nh_protocol = RTPROT_BGP_VALUE;
	mnl_attr_put_u32(nlh, NHA_ID, NHOBJ_ID_BASE + o->index);
	memset(grp, 0, sizeof(grp));
	for (unsigned i = 0; i < o->nnh; i++)
		grp[i].id = NHOBJ_ID_BASE + o->member[i];
	mnl_attr_put(nlh, NHA_GROUP, o->nnh * sizeof(grp[0]), grp);
	kernel_fib_msg_end(kf, nlh);
}

static void queue_del(struct kernel_fib *kf, uint32_t index)
{
	struct nlmsghdr *nlh = kernel_fib_msg_begin(kf, RTM_DELNEXTHOP, 0);
	struct nhmsg *nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));

	nhm->nh_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NHA_ID, NHOBJ_ID_BASE + index);
	kernel_fib_msg_end(kf, nlh);
}

/* One reference fewer; the last one gone, the object goes (a group first, then members). */
static void release(struct nhobj_set *s, struct kernel_fib *kf, struct nhobj *o)
{
	if (--o->refs)
		return;
	queue_del(kf, o->index);
	if (o->hashed)
		hash_remove(s->by_nh, o);
	if (s->last == o)
		s->last = NULL;
	s->obj[o->index] = NULL;
	s->count--;
	index_give(s, o->index);
	for (unsigned i = 0; o->member && i < o->nnh; i++)
		release(s, kf, s->obj[o->member[i]]);
	obj_free(o);
}

static struct nhobj *get(struct nhobj_set *s, struct kernel_fib *kf, int family,
			 const struct kernel_nh *nh, unsigned nnh)
{
	struct nhobj key = { .family = (uint8_t)(nnh > 1 ? AF_UNSPEC : family),
			     .nnh = nnh,
			     .nh = (struct kernel_nh *)nh };
	struct nhobj *o = s->last && nh_eq(s->last, &key) ? s->last : hash_lookup(s->by_nh, &key);
	uint32_t member[KERNEL_NH_MAX];
	uint32_t index;

	if (o) {
		o->refs++;
		s->last = o;
		return o;
	}
	if (nnh == 1 && !nh[0].ifindex)
		return NULL; /* the kernel wants an interface for every object */
	for (unsigned i = 0; nnh > 1 && i < nnh; i++) {
		struct nhobj *m = get(s, kf, nh[i].gw.family ? nh[i].gw.family : family, &nh[i], 1);

		if (!m) {
			while (i--)
				release(s, kf, s->obj[member[i]]);
			return NULL;
		}
		member[i] = m->index;
	}
	index = index_take(s);
	if (index == UINT32_MAX) {
		for (unsigned i = 0; nnh > 1 && i < nnh; i++)
			release(s, kf, s->obj[member[i]]);
		return NULL;
	}
	o = obj_add(s, index, key.family, nh, nnh);
	o->refs = 1;
	if (nnh > 1) {
		o->member = XMALLOC(MTYPE_KERNEL_NHOBJ, nnh * sizeof(*o->member));
		memcpy(o->member, member, nnh * sizeof(*member));
		queue_new_group(kf, o);
	} else {
		queue_new_single(kf, o);
	}
	return o;
}

uint32_t nhobj_get(struct nhobj_set *s, struct kernel_fib *kf, int family,
		   const struct kernel_nh *nh, unsigned nnh)
{
	struct nhobj *o;

	if (!nnh || nnh > KERNEL_NH_MAX)
		return 0;
	o = get(s, kf, family, nh, nnh);
	return o ? NHOBJ_ID_BASE + o->index : 0;
}

static struct nhobj *by_id(const struct nhobj_set *s, uint32_t id)
{
	uint32_t index = id - NHOBJ_ID_BASE;

	if (id < NHOBJ_ID_BASE || index >= NHOBJ_ID_COUNT || index >= s->cap)
		return NULL;
	return s->obj[index];
}

static void apply(struct nhobj_set *s, struct kernel_fib *kf, const struct prefix *p, uint32_t id)
{
	struct nhmap *m = map_of(s, p->family);
	struct nhobj *o = id ? by_id(s, id) : NULL;
	uint32_t old = o ? nhmap_set(m, p, o->index + 1) : nhmap_del(m, p);

	if (old && s->obj[old - 1])
		release(s, kf, s->obj[old - 1]);
}

void nhobj_gone(struct nhobj_set *s, uint32_t id)
{
	struct nhobj *o = by_id(s, id);

	/* Still counted for the routes that referred to it (the RIB removes or replaces them as
	 * their next hop fails); their release deletes an id the kernel no longer has, which is
	 * harmless, and frees the index only then. */
	if (!o)
		return;
	if (o->hashed)
		hash_remove(s->by_nh, o);
	o->hashed = false;
	if (s->last == o)
		s->last = NULL;
	/* The kernel took it out of the groups it was in: they no longer are what they say. */
	for (uint32_t i = 0; o->nnh == 1 && i < s->cap; i++) {
		struct nhobj *g = s->obj[i];

		for (unsigned j = 0; g && g->member && j < g->nnh; j++)
			if (g->member[j] == o->index) {
				nhobj_gone(s, NHOBJ_ID_BASE + g->index);
				break;
			}
	}
}

void nhobj_gone_dev(struct nhobj_set *s, uint32_t ifindex)
{
	for (uint32_t i = 0; i < s->cap; i++) {
		const struct nhobj *o = s->obj[i];

		if (o && o->nnh == 1 && o->nh[0].ifindex == ifindex)
			nhobj_gone(s, NHOBJ_ID_BASE + i);
	}
}

void nhobj_settle(struct nhobj_set *s, struct kernel_fib *kf)
{
	/* A release queues a deletion, which may send the buffer, which settles: not again. */
	if (s->settling)
		return;
	s->settling = true;
	for (unsigned i = 0; i < s->npending; i++)
		apply(s, kf, &s->pending[i].p, s->pending[i].id);
	s->npending = 0;
	s->settling = false;
}

void nhobj_bind(struct nhobj_set *s, struct kernel_fib *kf, const struct prefix *p, uint32_t id)
{
	if (s->npending == NHOBJ_PENDING)
		nhobj_settle(s, kf);
	if (s->settling) { /* only through a release's send: nothing can be pending then */
		apply(s, kf, p, id);
		return;
	}
	nhmap_prefetch(map_of(s, p->family), p);
	s->pending[s->npending].p = *p;
	s->pending[s->npending].id = id;
	s->npending++;
}

bool nhobj_adopt(struct nhobj_set *s, struct kernel_fib *kf, const struct prefix *p, uint32_t id)
{
	struct nhobj *o = by_id(s, id);

	if (!o)
		return false;
	nhobj_settle(s, kf);
	o->refs++; /* the route's, which nhobj_bind() hands to it */
	nhobj_bind(s, kf, p, id);
	return true;
}

/* The family of the routes an object serves (a group: its members'). */
static int obj_family(const struct nhobj_set *s, const struct nhobj *o)
{
	return o->member ? s->obj[o->member[0]]->family : o->family;
}

size_t nhobj_prune(struct nhobj_set *s, struct kernel_fib *kf, int family)
{
	size_t n = 0;

	nhobj_settle(s, kf);
	/* Groups first: deleting one releases its members. */
	for (int groups = 1; groups >= 0; groups--)
		for (uint32_t i = 0; i < s->cap; i++) {
			struct nhobj *o = s->obj[i];

			if (!o || !o->loaded || (o->nnh > 1) != groups ||
			    (family != AF_UNSPEC && obj_family(s, o) != family))
				continue;
			o->loaded = false;
			if (o->refs)
				continue;
			o->refs = 1;
			release(s, kf, o);
			n++;
		}
	return n;
}

void nhobj_stats(const struct nhobj_set *s, size_t *objects, size_t *routes)
{
	*objects = s ? s->count : 0;
	*routes = s ? nhmap_count(s->map[0]) + nhmap_count(s->map[1]) : 0;
}

/* ---- reading back an earlier run's objects ---- */

struct load_group {
	uint32_t index;
	unsigned n;
	uint32_t member[KERNEL_NH_MAX];
};

struct load_ctx {
	struct nhobj_set *s;
	struct load_group *group;
	size_t ngroup, capgroup;
};

static int nh_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, NHA_MAX) < 0)
		return MNL_CB_OK;
	if ((type == NHA_ID || type == NHA_OIF) && mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int load_one(const struct nlmsghdr *nlh, void *data)
{
	struct load_ctx *c = data;
	const struct nlattr *tb[NHA_MAX + 1] = { 0 };
	const struct nhmsg *nhm;
	struct kernel_nh nh;
	uint32_t id, index;

	if (nlh->nlmsg_type != RTM_NEWNEXTHOP || nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*nhm)))
		return MNL_CB_OK;
	nhm = mnl_nlmsg_get_payload(nlh);
	if (nhm->nh_protocol != RTPROT_BGP_VALUE ||
	    mnl_attr_parse(nlh, sizeof(*nhm), nh_attr_cb, tb) != MNL_CB_OK || !tb[NHA_ID])
		return MNL_CB_OK;
	id = mnl_attr_get_u32(tb[NHA_ID]);
	index = id - NHOBJ_ID_BASE;
	if (id < NHOBJ_ID_BASE || index >= NHOBJ_ID_COUNT || tb[NHA_BLACKHOLE] || tb[NHA_FDB])
		return MNL_CB_OK; /* not one of ours */
	if (tb[NHA_GROUP]) {
		const struct nexthop_grp *g = mnl_attr_get_payload(tb[NHA_GROUP]);
		size_t n = mnl_attr_get_payload_len(tb[NHA_GROUP]) / sizeof(*g);
		struct load_group *lg;

		if (n < 2 || n > KERNEL_NH_MAX)
			return MNL_CB_OK;
		if (c->ngroup == c->capgroup) {
			c->capgroup = c->capgroup ? c->capgroup * 2 : 16;
			c->group = XREALLOC(MTYPE_KERNEL_NHOBJ, c->group,
					    c->capgroup * sizeof(*c->group));
		}
		lg = &c->group[c->ngroup++];
		lg->index = index;
		lg->n = (unsigned)n;
		for (size_t i = 0; i < n; i++) {
			uint32_t mid; /* the array is not aligned for us: copy */

			memcpy(&mid, (const uint8_t *)g + i * sizeof(*g), sizeof(mid));
			lg->member[i] = mid - NHOBJ_ID_BASE;
		}
		return MNL_CB_OK;
	}
	memset(&nh, 0, sizeof(nh));
	if (!tb[NHA_OIF] || (nhm->nh_family != AF_INET && nhm->nh_family != AF_INET6))
		return MNL_CB_OK;
	nh.ifindex = mnl_attr_get_u32(tb[NHA_OIF]);
	if (tb[NHA_GATEWAY] && !nl_attr_addr(tb[NHA_GATEWAY], nhm->nh_family, &nh.gw))
		return MNL_CB_OK;
	if (index < c->s->cap && c->s->obj[index])
		return MNL_CB_OK; /* listed twice */
	obj_add(c->s, index, nhm->nh_family, &nh, 1)->loaded = true;
	return MNL_CB_OK;
}

/* The groups, once every single object is known: their members' next hops are their key. */
static void load_groups(struct load_ctx *c)
{
	struct nhobj_set *s = c->s;

	for (size_t g = 0; g < c->ngroup; g++) {
		const struct load_group *lg = &c->group[g];
		struct kernel_nh nh[KERNEL_NH_MAX];
		struct nhobj *o;
		bool whole = lg->index >= s->cap || !s->obj[lg->index];

		for (unsigned i = 0; whole && i < lg->n; i++) {
			const struct nhobj *m =
				lg->member[i] < NHOBJ_ID_COUNT && lg->member[i] < s->cap
					? s->obj[lg->member[i]]
					: NULL;

			if (!m || m->nnh != 1)
				whole = false;
			else
				nh[i] = m->nh[0];
		}
		if (!whole)
			continue; /* a member is not ours: the group is left alone */
		o = obj_add(s, lg->index, AF_UNSPEC, nh, lg->n);
		o->loaded = true;
		o->member = XMALLOC(MTYPE_KERNEL_NHOBJ, lg->n * sizeof(*o->member));
		memcpy(o->member, lg->member, lg->n * sizeof(*o->member));
		for (unsigned i = 0; i < lg->n; i++)
			s->obj[lg->member[i]]->refs++;
	}
}

int nhobj_open(struct nhobj_set **out)
{
	struct nhobj_set *s = XCALLOC(MTYPE_KERNEL_NHOBJ, sizeof(*s));
	struct load_ctx c = { .s = s };
	struct nl_sock dump;
	int ret;

	s->by_nh = hash_new(nh_hash, nh_eq, "kernel nexthop objects");
	s->map[0] = nhmap_new(AF_INET);
	s->map[1] = nhmap_new(AF_INET6);
	ret = nl_open(&dump, 0, NHOBJ_RCVBUF, false);
	if (ret == 0) {
		/* The probe: a kernel without nexthop objects refuses the dump. */
		ret = nl_dump(&dump, RTM_GETNEXTHOP, AF_UNSPEC, load_one, &c);
		nl_close(&dump);
	}
	if (ret == 0)
		load_groups(&c);
	XFREE(MTYPE_KERNEL_NHOBJ, c.group);
	if (ret < 0) {
		nhobj_close(s);
		return ret;
	}
	*out = s;
	return 0;
}

void nhobj_close(struct nhobj_set *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->cap; i++)
		if (s->obj[i])
			obj_free(s->obj[i]);
	hash_free(s->by_nh);
	nhmap_free(s->map[0]);
	nhmap_free(s->map[1]);
	XFREE(MTYPE_KERNEL_NHOBJ, s->obj);
	XFREE(MTYPE_KERNEL_NHOBJ, s->free);
	XFREE(MTYPE_KERNEL_NHOBJ, s);
}
