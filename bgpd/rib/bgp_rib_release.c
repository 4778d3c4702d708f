/* SPDX-License-Identifier: ISC */
/*
 * Memory after a large release (issue 15: back within 5% of the empty daemon's once a full
 * table is withdrawn). The RIB's slabs and the interning pools return their chunks to malloc
 * when they empty (bgp_slab.c, bgp_ipool in bgp_attr_intern.c), but two things keep the
 * process's resident memory at its peak even then:
 *   - each session's export cache (bgp_adj_out.c) holds up to 1024 input and 1024 exported
 *     attribute sets: with the table gone they are the last users of the interning pools,
 *     whose chunks they pin. When no prefix is left in any family, the caches are emptied.
 *   - glibc returns freed heap memory to the system only from the top of the heap, and only
 *     when the top is free: a million freed 64 KiB chunks below one live allocation stay
 *     resident. malloc_trim(0) gives back every free page in the heap (madvise). It walks the
 *     heap's free chunks, a few milliseconds after a full table, so it runs once per large
 *     release, when the work that released goes idle, not per freed object.
 */
#include "lib/compat.h"

#include <malloc.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib_release.h"
#include "lib/table.h"

static size_t rib_objects(const struct bgp_rib *rib)
{
	size_t n = rib->path_slab.in_use;

	for (int af = 0; af < BGP_AF_MAX; af++)
		n += rib->af[af].dest_slab.in_use;
	return n;
}

static bool rib_table_empty(const struct bgp_rib *rib)
{
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (ptree_count(rib->af[af].tree))
			return false;
	return true;
}

void rib_release_note(struct bgp_rib *rib)
{
	size_t n = rib_objects(rib);

	if (n > rib->release_mark)
		rib->release_mark = n;
}

void rib_release_idle(struct bgp_rib *rib)
{
	size_t n = rib_objects(rib);

	if (rib->release_mark < n + RIB_RELEASE_OBJECTS) {
		rib->release_mark = MAX(rib->release_mark, n);
		return;
	}
	if (rib_table_empty(rib))
		adj_out_cache_clear_all(rib);
#ifdef __GLIBC__
	malloc_trim(0);
#endif
	rib->release_mark = n;
	rib->release_count++;
}
