/* SPDX-License-Identifier: ISC */
/*
 * Deferred best-path selection of the restarting speaker (RFC 4724 4.1), see bgp_rib_gr_defer.h.
 *
 * What is awaited: an End-of-RIB for every negotiated family from every configured neighbor
 * that is not shut down and has a family activated, as RFC 4724 4.1 asks ("from all its
 * peers"), except the sessions that told us they do not need it: a peer that did not
 * advertise Graceful Restart, and one that is restarting too (its R bit: it waits for ours).
 * A neighbor that never comes up is waited for until select-defer-time, the bound on the
 * whole wait.
 *
 * How deferral holds: rib_fib_sync() does nothing and the work turn runs neither the
 * forwarding walk nor the output (bgp_rib_work.c), so paths are stored and decided but the
 * kernel and the peers hear nothing. At the end one forwarding walk of the whole table hands
 * every prefix to the forwarding side, which writes only what differs from the routes it
 * adopted and then removes the adopted routes nobody re-learned; the output then sends each
 * session the table and End-of-RIB as after any session start.
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/core/bgp.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_gr_defer.h"
#include "lib/event.h"
#include "lib/log.h"

static void defer_end(struct bgp_rib *rib, const char *why)
{
	uint64_t ms = monotime_ms() - rib->gr_since_ms;

	rib->gr_deferring = false;
	rib->bgp->gr_restarting = false;
	if (rib->gr_timer)
		event_del(rib->gr_timer);
	log_notice("GR: best-path selection deferred %" PRIu64 ".%03" PRIu64 " s, done (%s): "
		   "installing the routes that changed and sending the table to the peers",
		   ms / 1000, ms % 1000, why);
	/* One walk of everything: the one asked for at attach, which waited, if there is one
	 * (asking again would walk, and write to the kernel, twice). */
	if (rib->fib.walk_on)
		rib->fib.walk_all = true;
	else
		rib_fib_revalidate(rib, true);
	rib_work_schedule(rib);
}

static void timer_cb(int fd, short what, void *arg)
{
	struct bgp_rib *rib = arg;

	(void)fd;
	(void)what;
	if (rib->gr_deferring)
		defer_end(rib, "select-defer-time expired before every peer's End-of-RIB");
}

/* Is an End-of-RIB still awaited from this neighbor? */
static bool awaited(const struct bgp_peer *peer)
{
	const struct rib_src *src = peer->rib ? peer->rib->cur : NULL;
	bool active = false;

	for (int af = 0; af < BGP_AF_MAX; af++)
		active = active || bgp_peer_af_activated(peer, af);
	if (peer->conf.shutdown || !active)
		return false;
	if (!src || !src->up)
		return true; /* not up yet: wait for it (select-defer-time bounds the wait) */
	if (!src->gr_capable || src->gr_peer_restarting)
		return false;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (src->af[af] && !src->eor_rcvd[af])
			return true;
	return false;
}

void rib_gr_defer_check(struct bgp_rib *rib)
{
	const struct bgp_peer *peer;

	if (!rib || !rib->gr_deferring)
		return;
	TAILQ_FOREACH (peer, &rib->bgp->peers, entry)
		if (awaited(peer))
			return;
	defer_end(rib, "End-of-RIB received from every peer");
}

void rib_gr_defer_begin(struct bgp_rib *rib, uint32_t seconds)
{
	if (rib->gr_deferring)
		return;
	if (!rib->gr_timer && rib->bgp->base)
		rib->gr_timer = event_timer_new(rib->bgp->base, timer_cb, rib);
	rib->gr_deferring = true;
	rib->gr_since_ms = monotime_ms();
	rib->bgp->gr_restarting = true;
	if (rib->gr_timer)
		event_timer_add(rib->gr_timer, seconds * 1000u, 0);
	log_notice("GR: restarting: best-path selection deferred until every peer has sent "
		   "End-of-RIB, at most select-defer-time (%" PRIu32 " s); forwarding continues "
		   "through the routes of the earlier run",
		   seconds);
	/* With no neighbor to wait for there is nothing to defer. */
	rib_gr_defer_check(rib);
}

bool rib_gr_deferring(const struct bgp_rib *rib)
{
	return rib->gr_deferring;
}

void rib_gr_defer_fini(struct bgp_rib *rib)
{
	event_free(rib->gr_timer);
	rib->gr_timer = NULL;
}
