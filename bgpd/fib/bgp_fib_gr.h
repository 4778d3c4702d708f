/* SPDX-License-Identifier: ISC */
/*
 * The restarting speaker's kernel routes (bgpd/fib/bgp_fib_gr.c), private to bgpd/fib/: the
 * routes of protocol bgp an earlier run left in the table, adopted rather than removed, kept
 * forwarding through the deferred selection, then compared with what the RIB decided so that
 * only the routes whose next hops changed are written, and the rest removed.
 */
#ifndef SKUA_BGP_FIB_GR_H
#define SKUA_BGP_FIB_GR_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "kernel/kernel.h"

/* Read the routes of protocol bgp in table and keep a fingerprint of each (its next hops);
 * routes bgpd would not install as they are (another metric) are removed at once. Returns
 * how many were adopted per family in adopted[]. 0 or -errno (nothing adopted then). */
int fib_gr_adopt(struct kernel_fib *kf, uint32_t table, uint64_t adopted[BGP_AF_MAX]);

enum fib_gr_match {
	FIB_GR_NONE,	/* not an adopted route: install it */
	FIB_GR_SAME,	/* adopted with these next hops: nothing to write */
	FIB_GR_CHANGED, /* adopted with other next hops: replace it */
};
/* The RIB wants r installed: is it an adopted route, and the same? Either way the prefix is
 * no longer adopted (it is the RIB's from now on). */
enum fib_gr_match fib_gr_take(const struct kernel_route *r);
/* Routes adopted and not taken yet. */
bool fib_gr_pending(void);
/* Remove the adopted routes the RIB did not take (after the deferred selection's walk).
 * Returns how many were removed. */
uint64_t fib_gr_sweep(struct kernel_fib *kf, uint32_t table);
/* Forget the adopted routes without touching the kernel (their table was purged). */
void fib_gr_reset(void);

/* What the restart cost the kernel (show bgp fib, the log). */
struct fib_gr_stats {
	uint64_t adopted, kept, replaced, removed;
	uint64_t foreign; /* not adopted (another metric, no next hop): removed at start-up */
};
void fib_gr_stats(struct fib_gr_stats *st);

#endif /* SKUA_BGP_FIB_GR_H */
