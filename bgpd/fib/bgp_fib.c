/* SPDX-License-Identifier: ISC */
/*
 * bgpd's best routes in the Linux FIB.
 *
 * The RIB calls install() when a prefix's forwarding set changes (bgpd/rib/bgp_rib_fib.c); each
 * next hop of the set is resolved through the kernel's own routes (bgpd/fib/bgp_nexthop.c) into
 * gateways and interfaces, and the route is queued as one replace (or a delete) into the
 * installer's buffer (kernel/route.c). The buffer goes to the kernel when it is full or, at
 * the latest, on the next loop turn: a full table is written in about a thousand system calls
 * while the RIB's bounded work keeps the sessions served. Removals are the exception: they are
 * held while more keep coming and then sent in random order (kernel/route_hold.c), because the
 * kernel's IPv4 trie deletes a block of routes in address order, the order the RIB walks a lost
 * session's table in, about twice as slowly as the same routes spread. A route installed while
 * its deletion is held goes at once, and the held deletion is dropped at release.
 *
 * Routes carry protocol bgp in the configured table (`bgp fib table N`, default main) and
 * metric 20, as FRR's. Routes of protocol bgp found in that table when bgpd starts using it
 * are an earlier run's (a crash, or `bgp fib retain`): they are removed then, as FRR's zebra
 * does without a graceful-restart time. A clean shutdown removes bgpd's routes unless
 * `bgp fib retain` is configured.
 *
 * Graceful restart (`bgp graceful-restart`, the restarting speaker): the earlier run's routes
 * found at start-up are adopted instead (bgp_fib_gr.c) and that finding is what tells bgpd it
 * restarted: the RIB defers its selection (bgpd/rib/bgp_rib_gr_defer.c) while they keep forwarding,
 * then its first walk hands every prefix over, only those whose next hops differ are written,
 * and the adopted routes not handed over are removed when the walk is done. A clean shutdown
 * in that mode leaves the routes in the kernel for the next start, as `bgp fib retain`.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/fib/bgp_fib_gr.h"
#include "bgpd/rib/bgp_rib_gr_defer.h"
#include "lib/event.h"
#include "lib/log.h"

#define FIB_REFUSALS_LOGGED 10	/* per flush; the rest are counted */
#define FIB_RESYNC_LOG_MS 60000 /* lost kernel notifications: one message a minute at most */
/* Deletions are held while more keep coming (a session loss removes its table over several
 * loop turns) and then released in random order (kernel/route_hold.c says why), at most this
 * long after the first was held, and this many per loop turn (about 60 ms of the kernel's
 * time), so that sessions are served while a full table goes. */
#define FIB_HOLD_MAX_MS 2000
#define FIB_RELEASE_PER_TURN 32768

static struct {
	struct event_base *base;
	struct bgp *bgp; /* the instance served: its RIB is up (instance_hook()) */
	bool enabled;	 /* not --no-fib */
	bool active;	 /* attached to the RIB, installing */
	struct kernel_fib *kf;
	struct kernel_fib_hold *hold; /* deletions not yet handed to kf */
	uint64_t hold_since_ms;	      /* monotime_ms() when the oldest held one came */
	bool held_new;		      /* deletions came since the last flush_cb() */
	bool reinstalled;	      /* routes went in while deletions were held */
	struct kernel_watch *kw;
	struct ev *watch_ev;
	struct ev *flush_ev;
	struct ev *attach_ev; /* attach_later() */
	uint32_t table;	      /* where routes go now (0: none chosen yet) */
	bool retain;
	bool started; /* a table was used since bgpd started: later ones hold no earlier run */
	uint64_t routes[BGP_AF_MAX];
	uint64_t installs, removals, purged;
	unsigned refusals_logged;
	uint64_t resyncs_logged; /* kernel_watch_resyncs() when last logged */
	uint64_t resync_log_ms;	 /* monotime_ms() of that message, 0 = never */
} fib;

/* ---- talking to the kernel ---- */

static void refused_cb(const struct prefix *dst, bool del, int err, void *arg)
{
	char p[PREFIX_STRLEN];

	(void)arg;
	/* Removing what is already gone (a route someone else deleted) is not a problem. */
	if (del && (err == ESRCH || err == ENOENT))
		return;
	if (fib.refusals_logged++ >= FIB_REFUSALS_LOGGED)
		return;
	if (dst->family == AF_UNSPEC)
		snprintf(p, sizeof(p), "a route");
	else
		prefix_to_str(dst, p, sizeof(p));
	log_warn("FIB: the kernel refused to %s %s in table %u: %s%s", del ? "remove" : "install",
		 p, fib.table, strerror(err),
		 err == EPERM ? " (bgpd needs CAP_NET_ADMIN, or run it with --no-fib)" : "");
}

/* Hand what kf has queued to the kernel, and log what it refused. */
static void send_queued(void)
{
	uint64_t before_refused, after_refused, sent, msgs;
	int ret;

	if (!fib.kf)
		return;
	kernel_fib_stats(fib.kf, &sent, &before_refused, &msgs);
	fib.refusals_logged = 0;
	ret = kernel_fib_flush(fib.kf);
	if (ret < 0)
		log_err("FIB: cannot send route changes to the kernel: %s; routes may be stale "
			"until the next change",
			strerror(-ret));
	kernel_fib_stats(fib.kf, &sent, &after_refused, &msgs);
	if (fib.refusals_logged > FIB_REFUSALS_LOGGED)
		log_warn("FIB: %u more changes refused by the kernel (not logged one by one)",
			 fib.refusals_logged - FIB_REFUSALS_LOGGED);
}

/*
 * A held deletion of a prefix the RIB has installed again since: the new route went to the
 * kernel at once, and the deletion must not remove it. Asked only when routes went in while
 * deletions were held (a lost session whose prefixes have no other path asks nothing).
 */
static bool wanted_again(const struct prefix *p, void *arg)
{
	struct bgp_rib *rib = fib.bgp ? fib.bgp->rib : NULL;

	(void)arg;
	if (!fib.reinstalled || !fib.active || !rib)
		return false;
	return rib_fib_installed(
		rib, p->family == AF_INET ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST, p);
}

static void release(size_t max)
{
	kernel_fib_hold_release(fib.hold, fib.kf, max, wanted_again, NULL);
	if (!kernel_fib_hold_count(fib.hold))
		fib.reinstalled = false;
}

/* Everything now, held deletions included (before a purge, a table change, a stop). */
static void flush_now(void)
{
	if (fib.kf && kernel_fib_hold_count(fib.hold))
		release(SIZE_MAX);
	fib.held_new = false;
	send_queued();
}

/*
 * Once per loop turn with changes. Held deletions wait while the turn before brought more (the
 * RIB's bounded work alternates with this event) and for at most FIB_HOLD_MAX_MS; then they go
 * FIB_RELEASE_PER_TURN a turn, drawn at random, the event coming back until none is left.
 */
static void flush_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (kernel_fib_hold_count(fib.hold)) {
		bool coming = fib.held_new &&
			      monotime_ms() - fib.hold_since_ms < (uint64_t)FIB_HOLD_MAX_MS;

		fib.held_new = false;
		if (!coming)
			release(FIB_RELEASE_PER_TURN);
		if (kernel_fib_hold_count(fib.hold))
			event_defer(fib.flush_ev);
	}
	send_queued();
}

static void flush_schedule(void)
{
	if (fib.flush_ev && !event_pending(fib.flush_ev))
		event_defer(fib.flush_ev);
}

/* Remove p from the kernel: held, sent later with the other deletions of the moment. */
static void delete_later(const struct prefix *p)
{
	if (!kernel_fib_hold_count(fib.hold))
		fib.hold_since_ms = monotime_ms();
	kernel_fib_hold_add(fib.hold, fib.kf, p, fib.table, BGP_FIB_METRIC);
	fib.held_new = true;
	flush_schedule();
}

/* Remove our routes of both families from table; returns how many. */
static uint64_t purge(uint32_t table, const char *why)
{
	uint64_t total = 0;

	flush_now();
	for (int family = AF_INET; family; family = family == AF_INET ? AF_INET6 : 0) {
		int n = kernel_fib_purge(fib.kf, table, family);

		if (n < 0) {
			log_warn(
				"FIB: cannot list or remove %s routes of protocol bgp in table %u: "
				"%s",
				family == AF_INET ? "IPv4" : "IPv6", table, strerror(-n));
			continue;
		}
		total += (uint64_t)n;
	}
	if (total)
		log_notice("FIB: removed %" PRIu64 " route%s of protocol bgp from table %u (%s)",
			   total, total == 1 ? "" : "s", table, why);
	fib.purged += total;
	return total;
}

/* ---- what the RIB calls ---- */

static bool nh_add(struct kernel_route *r, const struct kernel_nh *nh)
{
	for (unsigned i = 0; i < r->nnh; i++)
		if (r->nh[i].ifindex == nh->ifindex && ipaddr_cmp(&r->nh[i].gw, &nh->gw) == 0)
			return true;
	if (r->nnh == KERNEL_NH_MAX)
		return false;
	r->nh[r->nnh++] = *nh;
	return true;
}

static bool fib_install(void *arg, enum bgp_af af, const struct prefix *p, bool ebgp,
			const struct rib_fib_set *set, bool installed)
{
	struct kernel_route r;
	int ret;

	(void)ebgp;
	if (!fib.kf || !fib.table)
		return false;
	memset(&r, 0, sizeof(r));
	r.dst = *p;
	r.table = fib.table;
	r.metric = BGP_FIB_METRIC;
	for (unsigned i = 0; i < set->n; i++) {
		const struct bgp_nh *nh = bgp_nh_get(arg, &set->nh[i]);

		for (unsigned j = 0; nh->valid && j < nh->res.nnh; j++)
			nh_add(&r, &nh->res.nh[j]);
	}
	if (r.nnh && !installed) {
		switch (fib_gr_take(&r)) {
		case FIB_GR_SAME: /* the earlier run's route is what we want: leave it */
			fib.routes[af]++;
			if (kernel_fib_hold_count(fib.hold))
				fib.reinstalled = true;
			return true;
		case FIB_GR_CHANGED:
		case FIB_GR_NONE:
			break;
		}
	}
	ret = r.nnh ? kernel_fib_replace(fib.kf, &r) : -ENETUNREACH;
	if (ret == 0) {
		if (!installed)
			fib.routes[af]++;
		fib.installs++;
		/* A deletion of p may be held: it will ask wanted_again() (the RIB) first. */
		if (kernel_fib_hold_count(fib.hold))
			fib.reinstalled = true;
		flush_schedule();
		return true;
	}
	if (ret != -ENETUNREACH) {
		char buf[PREFIX_STRLEN];

		log_warn("FIB: %s cannot be installed: %s (not supported for its next hops)",
			 prefix_to_str(p, buf, sizeof(buf)), strerror(-ret));
	}
	if (installed) {
		delete_later(p);
		fib.routes[af]--;
		fib.removals++;
	}
	return false;
}

/* arg: the RIB attached (attach() gives it), whose paths use the next hops it asks about. */
static bool nexthop_valid(void *arg, const struct ipaddr *nh)
{
	return bgp_nh_get(arg, nh)->valid;
}

static uint32_t nexthop_metric(void *arg, const struct ipaddr *addr)
{
	return bgp_nh_igp_metric(bgp_nh_get(arg, addr));
}

static bool nexthop_changed(void *arg, const struct ipaddr *nh)
{
	(void)arg;
	return bgp_nh_changed(nh);
}

static void walk_begin(void *arg)
{
	(void)arg;
	bgp_nh_walk_begin();
}

static void walk_done(void *arg, bool all)
{
	bgp_nh_walk_done(all);
	flush_now();
	/* The first whole walk after a restart's deferred selection handed over every prefix
	 * the RIB wants: what is left of the earlier run is gone from the network. */
	if (all && fib.kf && fib_gr_pending() && arg && !rib_gr_deferring(arg))
		fib_gr_sweep(fib.kf, fib.table);
}

const struct rib_fib_ops bgp_fib_ops = {
	.nexthop_valid = nexthop_valid,
	.nexthop_changed = nexthop_changed,
	.nexthop_metric = nexthop_metric,
	.install = fib_install,
	.walk_begin = walk_begin,
	.walk_done = walk_done,
};

/* ---- the kernel's notifications ---- */

/*
 * The kernel dropped notifications for us (the watch socket's buffer overran: ENOBUFS, a route
 * storm from another process or our own load) and the watcher read its routes again. Said at
 * once the first time, then at most once a minute with the count, so a sustained storm does
 * not flood the log.
 */
static void report_resyncs(void)
{
	uint64_t n = kernel_watch_resyncs(fib.kw), now = monotime_ms();

	if (n == fib.resyncs_logged)
		return;
	if (fib.resync_log_ms && now - fib.resync_log_ms < FIB_RESYNC_LOG_MS)
		return;
	log_warn("FIB: the kernel dropped route notifications to bgpd (netlink ENOBUFS: its "
		 "receive buffer overran, %" PRIu64 " time%s since the last message); bgpd read "
		 "the kernel's routes again and re-checks its next hops. If this repeats, look "
		 "for a process changing routes in bulk",
		 n - fib.resyncs_logged, n - fib.resyncs_logged == 1 ? "" : "s");
	fib.resyncs_logged = n;
	fib.resync_log_ms = now;
}

static void watch_cb(int fd, short what, void *arg)
{
	struct bgp *bgp = fib.bgp;
	int ret;

	(void)what;
	(void)arg;
	ret = kernel_watch_read(fib.kw);
	if (kernel_watch_fd(fib.kw) != fd) {
		/* A resynchronisation replaced the socket (kernel_watch_read()): watch the new
		 * one. libevent allows freeing an event inside its own callback. */
		event_free(fib.watch_ev);
		fib.watch_ev = event_fd_new(fib.base, kernel_watch_fd(fib.kw), EV_READ_FLAG,
					    watch_cb, NULL);
		event_add(fib.watch_ev);
	}
	if (ret < 0) {
		log_err("FIB: reading the kernel's route changes failed: %s; next hops may be "
			"judged on stale routes",
			strerror(-ret));
		return;
	}
	report_resyncs();
	if (ret > 0) {
		bgp_nh_kernel_changed(bgp && fib.active ? bgp->rib : NULL);
		bgp_redist_kernel_changed();
		bgp_network_check_kernel_changed();
	}
}

/* ---- life cycle ---- */

struct kernel_watch *bgp_fib_watch(void)
{
	return fib.kw;
}

/*
 * bgpd restarted gracefully when, at start-up in restarting mode, it finds the routes of an
 * earlier run in its table: it adopts them and defers its selection. Nothing found (a first
 * start, a reboot, --no-fib) is a cold start: nothing to preserve, nothing to defer.
 */
static bool adopt(struct bgp *bgp, uint32_t table)
{
	uint64_t n[BGP_AF_MAX];
	struct fib_gr_stats st;
	int ret = fib_gr_adopt(fib.kf, table, n);

	if (ret < 0) {
		log_warn("FIB: cannot read the routes of protocol bgp left in table %u: %s; "
			 "removing them and starting cold (no graceful restart)",
			 table, strerror(-ret));
		return false;
	}
	fib_gr_stats(&st);
	if (st.foreign)
		log_notice("FIB: removed %" PRIu64
			   " route%s of protocol bgp from table %u that bgpd "
			   "would not install as they were (another metric, or no next hop)",
			   st.foreign, st.foreign == 1 ? "" : "s", table);
	for (int af = 0; af < BGP_AF_MAX; af++)
		bgp->gr_fwd_preserved[af] = n[af] && bgp->gr_preserve_fw_state;
	if (!n[0] && !n[1]) {
		fib_gr_reset();
		return true;
	}
	log_notice("FIB: graceful restart: kept %" PRIu64 " IPv4 and %" PRIu64 " IPv6 routes of "
		   "an earlier run in table %u; they forward until the deferred selection",
		   n[0], n[1], table);
	rib_gr_defer_begin(bgp->rib, bgp->gr_select_defer_time);
	return true;
}

static void table_use(struct bgp *bgp, uint32_t table)
{
	bool first = !fib.started;

	if (fib.table == table)
		return;
	fib.started = true;
	/* Always: retained routes in a table no longer ours would never be updated again. */
	if (fib.table) {
		fib_gr_reset();
		purge(fib.table, "the routes moved to another table");
	}
	fib.table = table;
	if (first && bgp && bgp->rib && bgp->gr_mode == BGP_GR_RESTART && adopt(bgp, table))
		return;
	purge(table, "left by an earlier run");
}

/* Graceful restart mode keeps the routes at a clean stop, for the next start to adopt. */
static bool keep_at_stop(const struct bgp *bgp)
{
	return fib.retain || (bgp && bgp->gr_mode == BGP_GR_RESTART);
}

static void attach(struct bgp *bgp, struct bgp_rib *rib)
{
	if (fib.active || !fib.kf || !rib)
		return;
	fib.retain = bgp->fib_retain;
	table_use(bgp, bgp->fib_table);
	fib.active = true;
	fib.routes[0] = fib.routes[1] = 0;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		rib_fib_maxpaths_set(rib, af, false, bgp->maxpaths[af][0]);
		rib_fib_maxpaths_set(rib, af, true, bgp->maxpaths[af][1]);
	}
	rib_fib_attach(rib, &bgp_fib_ops, rib);
	bgp->gr_fib_forwarding = true;
	log_info("FIB: installing best routes in table %u", fib.table);
}

/* Stop installing. keep: leave the routes in the kernel (bgp fib retain, at stop only). */
static void detach(struct bgp_rib *rib, const char *why, bool keep)
{
	if (fib.attach_ev)
		event_del(fib.attach_ev);
	if (!fib.active)
		return;
	flush_now(); /* held deletions, while the RIB can still say which are wanted again */
	fib.active = false;
	if (rib) {
		rib_fib_detach(rib);
		rib->bgp->gr_fib_forwarding = false;
		memset(rib->bgp->gr_fwd_preserved, 0, sizeof(rib->bgp->gr_fwd_preserved));
	}
	flush_now();
	if (!keep) {
		fib_gr_reset(); /* purged with the rest */
		purge(fib.table, why);
	}
	fib.routes[0] = fib.routes[1] = 0;
	bgp_nh_reset();
}

/*
 * Attach on the next loop turn, not where the instance is created: `router bgp` comes first in
 * a commit and `bgp fib table N` after it, and attaching at once would flush table 254 as an
 * earlier run's before knowing the table is another.
 */
static void attach_cb(int fd, short what, void *arg)
{
	struct bgp *bgp = fib.bgp;

	(void)fd;
	(void)what;
	(void)arg;
	if (bgp && bgp->rib && fib.enabled && bgp->fib_install)
		attach(bgp, bgp->rib);
}

static void attach_later(void)
{
	if (!fib.enabled)
		return;
	if (!fib.attach_ev)
		fib.attach_ev = event_defer_new(fib.base, attach_cb, NULL);
	if (fib.attach_ev && !event_pending(fib.attach_ev))
		event_defer(fib.attach_ev);
}

void bgp_fib_config_changed(struct bgp *bgp)
{
	if (!fib.enabled || !bgp)
		return;
	fib.retain = bgp->fib_retain;
	if (!bgp->fib_install) {
		detach(bgp->rib, "bgp fib install turned off", false);
		return;
	}
	if (!fib.active) {
		attach_later();
		return;
	}
	if (bgp->fib_table != fib.table) {
		table_use(bgp, bgp->fib_table);
		fib.routes[0] = fib.routes[1] = 0;
		rib_fib_detach(bgp->rib);
		rib_fib_attach(bgp->rib, &bgp_fib_ops, bgp->rib);
	}
}

void bgp_maxpaths_changed(struct bgp *bgp, enum bgp_af af)
{
	if (!bgp || !bgp->rib)
		return;
	rib_fib_maxpaths_set(bgp->rib, af, false, bgp->maxpaths[af][0]);
	rib_fib_maxpaths_set(bgp->rib, af, true, bgp->maxpaths[af][1]);
}

/* The RIB of an instance was created or is about to go (rib_fib_set_instance_hook()). */
static void instance_hook(struct bgp *bgp, struct bgp_rib *rib, bool up)
{
	if (up) {
		fib.bgp = bgp;
		attach_later();
	} else {
		detach(rib, "router bgp removed", false);
		bgp_redist_reset();
		bgp_network_check_reset();
		fib.bgp = NULL;
	}
}

struct bgp *bgp_fib_instance(void)
{
	return fib.bgp;
}

void bgp_fib_start(struct event_base *base, bool install)
{
	int ret;

	fib.base = base;
	fib.enabled = install;
	rib_fib_set_instance_hook(instance_hook);
	/* The kernel's routes are read either way: redistribution needs them too. */
	ret = kernel_watch_open(&fib.kw);
	if (ret < 0) {
		log_err("FIB: cannot read the kernel's routes (rtnetlink): %s; %s", strerror(-ret),
			install ? "running as with --no-fib, nothing can be redistributed"
				: "nothing can be redistributed");
		fib.enabled = false;
		return;
	}
	fib.watch_ev = event_fd_new(base, kernel_watch_fd(fib.kw), EV_READ_FLAG, watch_cb, NULL);
	event_add(fib.watch_ev);
	if (!install) {
		log_notice("FIB: --no-fib: routes are not installed and next hops are not tracked "
			   "(every next hop counts as reachable)");
		return;
	}
	ret = kernel_fib_open(&fib.kf, refused_cb, NULL);
	if (ret < 0) {
		log_err("FIB: cannot open the kernel's routing interface (rtnetlink): %s; running "
			"as with --no-fib",
			strerror(-ret));
		fib.enabled = false;
		return;
	}
	fib.hold = kernel_fib_hold_new();
	fib.flush_ev = event_defer_new(base, flush_cb, NULL);
	{
		size_t objects, routes;

		ret = kernel_fib_nexthop_objects(fib.kf, &objects, &routes);
		if (ret < 0)
			log_notice("FIB: the kernel has no nexthop objects (%s; Linux 5.3 or later "
				   "has them): every route carries its own next hops, which costs "
				   "the kernel more per route",
				   strerror(-ret));
		else
			log_info("FIB: routes refer to nexthop objects (%zu found from an earlier "
				 "run)",
				 objects);
	}
	log_info("FIB: watching %zu IPv4 and %zu IPv6 kernel routes for next-hop resolution",
		 kernel_watch_routes(fib.kw, AF_INET), kernel_watch_routes(fib.kw, AF_INET6));
}

void bgp_fib_stop(void)
{
	struct bgp *bgp = fib.bgp;

	bool keep = keep_at_stop(bgp);

	if (fib.active && keep)
		log_notice("FIB: %s: bgpd's routes stay in table %u",
			   fib.retain ? "bgp fib retain" : "graceful restart", fib.table);
	detach(bgp ? bgp->rib : NULL, "bgpd stopped", keep);
	flush_now(); /* held deletions of a detached RIB are still owed to the kernel */
	fib_gr_reset();
	event_free(fib.watch_ev);
	event_free(fib.flush_ev);
	event_free(fib.attach_ev);
	fib.watch_ev = fib.flush_ev = fib.attach_ev = NULL;
	kernel_fib_close(fib.kf);
	kernel_fib_hold_free(fib.hold);
	kernel_watch_close(fib.kw);
	fib.kf = NULL;
	fib.hold = NULL;
	fib.kw = NULL;
	bgp_nh_reset();
	bgp_redist_stop();
	bgp_network_check_stop();
}

void bgp_fib_status(struct bgp_fib_status *st)
{
	uint64_t sent, refused, msgs;

	memset(st, 0, sizeof(*st));
	st->enabled = fib.enabled;
	st->active = fib.active;
	st->retain = fib.retain;
	st->table = fib.table;
	for (int af = 0; af < BGP_AF_MAX; af++)
		st->routes[af] = fib.routes[af];
	kernel_fib_stats(fib.kf, &sent, &refused, &msgs);
	st->installs = fib.installs;
	st->removals = fib.removals;
	st->refused = refused;
	st->messages = msgs;
	st->purged = fib.purged;
	{
		struct fib_gr_stats gs;

		fib_gr_stats(&gs);
		st->gr_adopted = gs.adopted;
		st->gr_unchanged = gs.kept;
		st->gr_replaced = gs.replaced;
		st->gr_removed = gs.removed;
		st->gr_pending = fib_gr_pending();
	}
	st->nh_err = kernel_fib_nexthop_objects(fib.kf, &st->nh_objects, &st->nh_routes);
}
