/* SPDX-License-Identifier: ISC */
/*
 * bgp network import-check (on by default, as in FRR): a `network` statement is announced
 * only while the kernel has a route for exactly its prefix, and withdrawn when that route
 * goes. Meanwhile it stays in the table as FRR shows it there, not valid ("0.0.0.0
 * (inaccessible)", no '*'), so never best and never advertised. FRR asks zebra's RIB; skua
 * reads the kernel's main table as bgpd mirrors it (kernel/route_watch.c), which leaves out
 * BGP's own routes, so a statement never validates itself through the route it caused.
 * `no bgp network import-check` announces every statement. A statement's route-map
 * (`network P route-map NAME`) sets its attributes or, denying, keeps it out of the table
 * altogether, as FRR's bgp_static_update(). Without the kernel's routes (rtnetlink refused at
 * start-up) nothing passes the check, as in FRR without zebra.
 *
 * Applied as a whole, like redistribution: the wanted set is computed from the statements
 * and the mirror, and the RIB is handed only the differences from what is announced now.
 * Configuration changes apply at once; kernel changes on the next loop turn, once per turn.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

static DEFINE_MTYPE(BGP_NETWORK_OUTCOME, "BGP network statement outcome");

/* What a statement puts in the RIB: its attributes (route-map applied) and whether it passes
 * the import check. */
struct outcome {
	struct bgp_attr *attr; /* a reference */
	bool ok;
};

static struct {
	struct ev *ev;
	struct ptree *announced[BGP_AF_MAX]; /* prefix -> struct outcome handed to the RIB */
	bool no_view_logged;
} nc;

struct statements_ctx {
	struct ptree *statements; /* prefix -> the family's struct bgp_network */
	struct ptree *passed;	  /* prefix -> struct bgp_network: the statements that pass */
};

/* A kernel route: a statement for exactly its prefix passes the check. */
static int kernel_route(const struct prefix *p, uint8_t protocol, bool connected, uint32_t metric,
			void *arg)
{
	struct statements_ctx *c = arg;
	void *n = ptree_lookup(c->statements, p);

	(void)protocol;
	(void)connected;
	(void)metric;
	if (n)
		*ptree_get(c->passed, p) = n;
	return 0;
}

/*
 * The attributes a statement originates with, as FRR's bgp_static_update(): origin IGP, MED 0,
 * weight 32768, then the statement's route-map, whose sets apply and whose deny (or absence:
 * a name that names no route-map denies, as in FRR) keeps the prefix out of the RIB. NULL:
 * denied. The caller owns the reference returned.
 */
static struct bgp_attr *statement_attr(enum bgp_af af, const struct bgp_network *n)
{
	struct bgp_attr tmpl, *attr = NULL;
	struct bgp_attr_extra ex;
	struct rmap_refs refs;

	rib_local_template(af, BGP_ORIGIN_IGP, 0, &tmpl, &ex);
	if (!n->rmap[0]) {
		attr = bgp_attr_intern(&tmpl);
	} else {
		if (route_map_apply(n->rmap, &n->prefix, &tmpl, &refs))
			attr = bgp_attr_intern(&tmpl);
		route_map_refs_release(&refs);
	}
	bgp_aspath_unref(tmpl.aspath);
	return attr;
}

struct want_ctx {
	enum bgp_af af;
	struct ptree *passed; /* the statements that pass the check */
	struct ptree *want;   /* prefix -> struct outcome */
};

static int statement_wanted(const struct prefix *p, void *value, void *arg)
{
	struct want_ctx *c = arg;
	struct bgp_attr *attr = statement_attr(c->af, value);
	struct outcome *o;

	if (!attr)
		return 0;
	o = XMALLOC(MTYPE_BGP_NETWORK_OUTCOME, sizeof(*o));
	o->attr = attr;
	o->ok = ptree_lookup(c->passed, p) != NULL;
	*ptree_get(c->want, p) = o;
	return 0;
}

struct diff_ctx {
	struct bgp *bgp;
	enum bgp_af af;
	struct ptree *other;
};

static int withdraw_gone(const struct prefix *p, void *value, void *arg)
{
	struct diff_ctx *c = arg;

	(void)value;
	if (!ptree_lookup(c->other, p))
		rib_network_del(c->bgp, c->af, p);
	return 0;
}

/* New, with other attributes than before (interned: the same set is the same pointer), or
 * with the other outcome of the check. */
static int announce_changed(const struct prefix *p, void *value, void *arg)
{
	struct diff_ctx *c = arg;
	const struct outcome *o = value, *was = c->other ? ptree_lookup(c->other, p) : NULL;

	if (!was || was->attr != o->attr || was->ok != o->ok)
		rib_network_set(c->bgp, c->af, p, o->attr, o->ok);
	return 0;
}

static void outcome_release(void *value)
{
	struct outcome *o = value;

	bgp_attr_unref(o->attr);
	XFREE(MTYPE_BGP_NETWORK_OUTCOME, o);
}

static void sync_af(struct bgp *bgp, enum bgp_af af)
{
	int family = bgp_af_family(af);
	struct statements_ctx c = { .statements = ptree_new(family), .passed = ptree_new(family) };
	struct want_ctx w = { .af = af, .passed = c.passed, .want = ptree_new(family) };
	struct kernel_watch *kw = bgp_fib_watch();
	struct diff_ctx d = { .bgp = bgp, .af = af };
	struct bgp_network *n;
	bool any = false;

	TAILQ_FOREACH (n, &bgp->networks[af], entry) {
		*ptree_get(c.statements, &n->prefix) = n;
		if (!bgp->network_import_check)
			*ptree_get(c.passed, &n->prefix) = n;
		any = true;
	}
	if (bgp->network_import_check && any) {
		if (kw)
			kernel_watch_walk(kw, family, kernel_route, &c);
		else if (!nc.no_view_logged)
			log_warn(
				"bgp network import-check: the kernel's routes cannot be read (see "
				"the FIB messages at start-up): no network statement is announced; "
				"`no bgp network import-check` announces them regardless");
		nc.no_view_logged = !kw;
	}
	ptree_walk(c.statements, statement_wanted, &w);
	if (nc.announced[af]) {
		d.other = w.want;
		ptree_walk(nc.announced[af], withdraw_gone, &d);
	}
	d.other = nc.announced[af];
	ptree_walk(w.want, announce_changed, &d);
	ptree_free(nc.announced[af], outcome_release);
	ptree_free(c.statements, NULL);
	ptree_free(c.passed, NULL);
	nc.announced[af] = w.want;
}

void bgp_network_check_sync(struct bgp *bgp)
{
	if (!bgp || !bgp->rib)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++)
		sync_af(bgp, af);
}

static void sync_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	bgp_network_check_sync(bgp_fib_instance());
}

static void sync_later(struct bgp *bgp)
{
	if (!nc.ev)
		nc.ev = event_defer_new(bgp->base, sync_cb, NULL);
	if (nc.ev && !event_pending(nc.ev))
		event_defer(nc.ev);
}

void bgp_network_check_kernel_changed(void)
{
	struct bgp *bgp = bgp_fib_instance();

	if (bgp && bgp->network_import_check)
		sync_later(bgp);
}

void bgp_network_check_policy_changed(void)
{
	struct bgp *bgp = bgp_fib_instance();
	const struct bgp_network *n;

	if (!bgp)
		return;
	for (int af = 0; af < BGP_AF_MAX; af++)
		TAILQ_FOREACH (n, &bgp->networks[af], entry)
			if (n->rmap[0]) {
				sync_later(bgp);
				return;
			}
}

bool bgp_network_check_announced(enum bgp_af af, const struct prefix *p)
{
	const struct outcome *o = (unsigned)af < BGP_AF_MAX && nc.announced[af]
					  ? ptree_lookup(nc.announced[af], p)
					  : NULL;

	return o && o->ok;
}

void bgp_network_check_reset(void)
{
	/* The instance's RIB goes with its paths: only the record of them is ours. */
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(nc.announced[af], outcome_release);
		nc.announced[af] = NULL;
	}
	nc.no_view_logged = false;
}

void bgp_network_check_stop(void)
{
	bgp_network_check_reset();
	event_free(nc.ev);
	nc.ev = NULL;
}
