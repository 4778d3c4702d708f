/* SPDX-License-Identifier: ISC */
/*
 * The prefixes of one UPDATE share their attributes, and a neighbor's inbound route-map whose
 * deciding entry is one permit entry (route_map_decide_one()) gives every prefix it decides the
 * same result: the set clauses (`set community ... additive`: a new community list, sorted and
 * interned) and the interning of the set are done once per entry and UPDATE, not per prefix.
 * Which entry decides is still asked per prefix (prefix-lists). The memo lives for one family
 * of one UPDATE (rib_update_received()), so no policy change can happen under it.
 */
#include "lib/compat.h"

#include "bgpd/rib/bgp_rib_inmap.h"
#include "bgpd/wire/bgp_attr.h"

void rib_inmap_memo_init(struct rib_inmap_memo *memo)
{
	memo->n = 0;
}

struct bgp_attr *rib_inmap_memo_find(const struct rib_inmap_memo *memo,
				     const struct rmap_entry *entry)
{
	for (uint32_t i = 0; i < memo->n; i++)
		if (memo->m[i].entry == entry)
			return bgp_attr_ref(memo->m[i].attr);
	return NULL;
}

void rib_inmap_memo_add(struct rib_inmap_memo *memo, const struct rmap_entry *entry,
			struct bgp_attr *attr)
{
	if (memo->n == RIB_INMAP_MEMO)
		return;
	memo->m[memo->n].entry = entry;
	memo->m[memo->n].attr = bgp_attr_ref(attr);
	memo->n++;
}

void rib_inmap_memo_release(struct rib_inmap_memo *memo)
{
	for (uint32_t i = 0; i < memo->n; i++)
		bgp_attr_unref(memo->m[i].attr);
	memo->n = 0;
}
