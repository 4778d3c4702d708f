/* SPDX-License-Identifier: ISC */
/*
 * Memory after a large release (issue 15: back within 5% of the empty daemon's once a full
 * table is withdrawn). The RIB's slabs and the interning pools return their chunks to malloc
 * when they empty (bgp_slab.c, bgp_vstore.c), but two things keep the
 * process's resident memory at its peak even then:
 *   - each session's export cache (bgp_adj_out.c) holds up to 1024 input and 1024 exported
 *     attribute sets: with the table gone they are the last users of the interning pools,
 *     whose chunks they pin. When no prefix is left in any family, the caches are emptied.
 *   - glibc returns freed heap memory to the system only from the top of the heap, and only
 *     when the top is free: a million freed 64 KiB chunks below one live allocation stay
 *     resident. malloc_trim(0) gives back every free page in the heap (madvise). The daemon's
 *     5 s timer (lib/mem_trim.c) does it too, but only when a quarter of the heap is free and
 *     more than at its last trim as it last saw it: the RIB knows when a large release has
 *     ended and trims at once (not mem_trim_check(), whose mark would be stale when the heap
 *     was reused between its ticks, as in bench_withdraw). It walks the
 *     heap's free chunks (tens of milliseconds after a full table, 15 madvise calls), so it
 *     runs when the work that released goes idle, not per freed object: once when the table
 *     is gone, and while it shrinks, each time half of it went (RIB_RELEASE_OBJECTS at least).
 */
#include "lib/compat.h"

#include <malloc.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib_release.h"
#include "bgpd/wire/bgp_attr.h"
#include "lib/table.h"

static size_t rib_objects(const struct bgp_rib *rib)
{
	size_t n = rib->path_slab.in_use;

	for (int af = 0; af < BGP_AF_MAX; af++)
		n += ptree_count(rib->af[af].tree); /* the dests live in the tree's nodes */
	return n;
}

void rib_release_note(struct bgp_rib *rib)
{
	size_t n = rib_objects(rib);

	rib->release_mark = MAX(rib->release_mark, n);
	rib->release_peak = MAX(rib->release_peak, n);
}

static void release(struct bgp_rib *rib)
{
	/* The sessions' input buffers too: a feed touched every page of its sender's. */
	if (rib->sops && rib->sops->release_idle)
		for (uint32_t id = 1; id < rib->src_cap; id++)
			if (rib->src[id] && rib->src[id]->peer)
				rib->sops->release_idle(rib->src[id]->peer);
#ifdef __GLIBC__
	malloc_trim(0);
#endif
	rib->release_count++;
}

void rib_release_idle(struct bgp_rib *rib)
{
	size_t n = rib_objects(rib);

	if (n == 0) {
		/* No dest and no path left in any family: the table is gone: once, however slowly
		 * it went (withdrawals arriving over seconds make the work go idle many times on
		 * the way). */
		if (rib->release_peak >= RIB_RELEASE_OBJECTS) {
			adj_out_cache_clear_all(rib);
			/* The stores keep an empty chunk per size class for the next object: with
			 * the table gone that is a few hundred KiB nothing will use soon. */
			bgp_attr_trim();
			/* An empty journal keeps its first chunk (32 KiB) and its chunk tables for
			 * the next change; with the table gone there may be none for a long time.
			 */
			for (int af = 0; af < BGP_AF_MAX; af++)
				if (rib->af[af].journal.tail == rib->af[af].journal.head)
					rib_journal_free(rib, (enum bgp_af)af);
			release(rib);
		}
		rib->release_peak = rib->release_mark = 0;
		return;
	}
	/* Part of it went: when half of what was held at the last release went, so a table
	 * shrinking in many steps costs a few trims (log2 of its size), not one per step. */
	if (rib->release_mark >= n + RIB_RELEASE_OBJECTS && n <= rib->release_mark / 2) {
		release(rib);
		rib->release_mark = n;
	}
}
