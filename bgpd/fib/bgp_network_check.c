/* SPDX-License-Identifier: ISC */
/*
 * bgp network import-check (on by default, as in FRR): a `network` statement is announced
 * only while the kernel has a route for exactly its prefix, and withdrawn when that route
 * goes. Meanwhile it stays in the table as FRR shows it there, not valid ("0.0.0.0
 * (inaccessible)", no '*'), so never best and never advertised. FRR asks zebra's RIB; skua reads
 * the kernel's main table as bgpd mirrors it (kernel/route_watch.c), which leaves out BGP's own
 * routes, so a statement never validates itself through the route it caused. `no bgp network
 * import-check` announces every statement. Without the kernel's routes (rtnetlink refused at
 * start-up) nothing passes the check, as in FRR without zebra.
 *
 * Applied as a whole, like redistribution: every statement with its outcome is computed from
 * the statements and the mirror, and the RIB is handed only the differences from what it has
 * now (a statement gone, new, or whose outcome changed).
 * Configuration changes apply at once; kernel changes on the next loop turn, once per turn.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/table.h"

/* The values of the sets below (a ptree skips NULL values): a statement that passes the
 * check, one that does not. */
static char passes, fails;

static struct {
	struct ev *ev;
	struct ptree *announced[BGP_AF_MAX]; /* statements handed to the RIB, with outcomes */
	bool no_view_logged;
} nc;

/* A kernel route: a statement for exactly its prefix passes the check. */
static int kernel_route(const struct prefix *p, uint8_t protocol, bool connected, uint32_t metric,
			void *arg)
{
	struct ptree *want = arg; /* every statement of the family, each failing so far */
	void **slot = ptree_lookup(want, p) ? ptree_get(want, p) : NULL;

	(void)protocol;
	(void)connected;
	(void)metric;
	if (slot)
		*slot = &passes;
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

/* A statement new to the RIB, or whose outcome changed. */
static int announce_changed(const struct prefix *p, void *value, void *arg)
{
	struct diff_ctx *c = arg;

	if (!c->other || ptree_lookup(c->other, p) != value)
		rib_network_set(c->bgp, c->af, p, value == &passes);
	return 0;
}

static void sync_af(struct bgp *bgp, enum bgp_af af)
{
	int family = bgp_af_family(af);
	struct ptree *want = ptree_new(family);
	struct kernel_watch *kw = bgp_fib_watch();
	struct diff_ctx d = { .bgp = bgp, .af = af };
	const struct bgp_network *n;
	bool any = false;

	TAILQ_FOREACH (n, &bgp->networks[af], entry) {
		*ptree_get(want, &n->prefix) = bgp->network_import_check ? &fails : &passes;
		any = true;
	}
	if (bgp->network_import_check && any) {
		if (kw)
			kernel_watch_walk(kw, family, kernel_route, want);
		else if (!nc.no_view_logged)
			log_warn(
				"bgp network import-check: the kernel's routes cannot be read (see "
				"the FIB messages at start-up): no network statement is announced; "
				"`no bgp network import-check` announces them regardless");
		nc.no_view_logged = !kw;
	}
	if (nc.announced[af]) {
		d.other = want;
		ptree_walk(nc.announced[af], withdraw_gone, &d);
	}
	d.other = nc.announced[af];
	ptree_walk(want, announce_changed, &d);
	ptree_free(nc.announced[af], NULL);
	nc.announced[af] = want;
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

void bgp_network_check_kernel_changed(void)
{
	struct bgp *bgp = bgp_fib_instance();

	if (!bgp || !bgp->network_import_check)
		return;
	if (!nc.ev)
		nc.ev = event_defer_new(bgp->base, sync_cb, NULL);
	if (nc.ev && !event_pending(nc.ev))
		event_defer(nc.ev);
}

bool bgp_network_check_announced(enum bgp_af af, const struct prefix *p)
{
	return (unsigned)af < BGP_AF_MAX && nc.announced[af] &&
	       ptree_lookup(nc.announced[af], p) == &passes;
}

void bgp_network_check_reset(void)
{
	/* The instance's RIB goes with its paths: only the record of them is ours. */
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_free(nc.announced[af], NULL);
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
