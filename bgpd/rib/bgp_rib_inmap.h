/* SPDX-License-Identifier: ISC */
/*
 * What an inbound route-map made of one UPDATE's attributes, kept while that UPDATE's prefixes
 * go into the RIB (bgp_rib_inmap.c).
 */
#ifndef SKUA_BGP_RIB_INMAP_H
#define SKUA_BGP_RIB_INMAP_H

#include <stdint.h>

struct bgp_attr;
struct rmap_entry;

#define RIB_INMAP_MEMO 4 /* deciding entries remembered per UPDATE and family */

struct rib_inmap_memo {
	uint32_t n;
	struct {
		const struct rmap_entry *entry;
		struct bgp_attr *attr; /* reference held */
	} m[RIB_INMAP_MEMO];
};

void rib_inmap_memo_init(struct rib_inmap_memo *memo);
/* The set stored for entry's prefixes (a new reference), or NULL when not made yet. */
struct bgp_attr *rib_inmap_memo_find(const struct rib_inmap_memo *memo,
				     const struct rmap_entry *entry);
/* Remember attr (a reference is taken) as what entry makes; nothing when the memo is full. */
void rib_inmap_memo_add(struct rib_inmap_memo *memo, const struct rmap_entry *entry,
			struct bgp_attr *attr);
void rib_inmap_memo_release(struct rib_inmap_memo *memo);

#endif /* SKUA_BGP_RIB_INMAP_H */
