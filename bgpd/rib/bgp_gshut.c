/* SPDX-License-Identifier: ISC */
/*
 * RFC 8326 graceful shutdown, as FRR does it with `bgp graceful-shutdown`: every route we send
 * carries GRACEFUL_SHUTDOWN (65535:0), and towards iBGP a LOCAL_PREF of 0, applied after the
 * outbound route-map so that no policy undoes it. Switching it on or off re-sends every
 * neighbor's table (the outbound re-evaluation of bgp_policy_reeval.c, which also empties the
 * export caches that hold the unmarked sets).
 *
 * The receiving side is the operator's policy, as FRR documents it: a community list matching
 * graceful-shutdown and an inbound route-map setting local-preference 0 (doc/graceful-restart.md).
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_gshut.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/memory.h"

static DEFINE_MTYPE(BGP_GSHUT, "BGP graceful shutdown communities");

struct bgp_u32list *bgp_gshut_mark(const struct bgp *bgp, bool ebgp, struct bgp_attr *t)
{
	const struct bgp_u32list *old;
	struct bgp_u32list *l;
	uint32_t *v, n;

	if (!bgp || !bgp->graceful_shutdown)
		return NULL;
	if (!ebgp) {
		t->present |= ATTR_BIT(BGP_ATTR_LOCAL_PREF);
		t->local_pref = 0;
	}
	old = (t->present & ATTR_BIT(BGP_ATTR_COMMUNITIES)) ? t->communities : NULL;
	if (old && bgp_u32list_contains(old, BGP_COMM_GRACEFUL_SHUTDOWN))
		return NULL;
	n = old ? old->count : 0;
	v = XMALLOC(MTYPE_BGP_GSHUT, ((size_t)n + 1) * sizeof(*v));
	if (n)
		memcpy(v, old->val, (size_t)n * sizeof(*v));
	v[n] = BGP_COMM_GRACEFUL_SHUTDOWN;
	/* Sorted and without repeats, as FRR keeps a community set. */
	n = bgp_comm_sort_uniq(v, n + 1);
	l = bgp_u32list_intern(v, n);
	XFREE(MTYPE_BGP_GSHUT, v);
	t->communities = l;
	t->present |= ATTR_BIT(BGP_ATTR_COMMUNITIES);
	return l;
}

void bgp_graceful_shutdown_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		for (int af = 0; af < BGP_AF_MAX; af++)
			bgp_policy_changed(peer, (enum bgp_af)af, BGP_DIR_OUT);
}
