/* SPDX-License-Identifier: ISC */
/* Adj-RIB-Out: what each session is sent, driven by the change journal (see bgp_adj_out.c). */
#ifndef SKUA_BGP_ADJ_OUT_H
#define SKUA_BGP_ADJ_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/rib/bgp_rib.h"

/* "Advertised to" bitmap of a dest, by source id. */
bool bgp_dest_adv_test(const struct bgp_dest *dest, uint32_t id);
/* Clear the bit; returns whether it was set. */
bool bgp_dest_adv_clear(struct bgp_dest *dest, uint32_t id);
/* The dest is being freed: drop its bitmap, uncounting the bits still set (sessions being
 * cleaned up). */
void bgp_dest_adv_release(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest);

/* Free d if nothing needs it any more: no paths, no live journal entry, not advertised to a
 * session that is up. Returns whether it was freed. */
bool rib_dest_maybe_free(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *d);

void adj_out_init(struct bgp_rib *rib);
void adj_out_fini(struct bgp_rib *rib);
/* A session became Established: send it the whole table, then follow the journal. */
void adj_out_peer_up(struct bgp_rib *rib, struct rib_src *src);
/* Its output state goes (the cleanup walk takes care of its bits). */
void adj_out_peer_down(struct bgp_rib *rib, struct rib_src *src);
/* ROUTE-REFRESH (RFC 2918): send the whole AF again; demarcated: between BoRR and EoRR (RFC
 * 7313, once the first End-of-RIB has gone). */
void adj_out_refresh(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, bool demarcated);
/* What `to` is currently advertised for dest (the advertised-to bit is set and the best path
 * exports to it): the exported set (a new reference), else NULL. */
struct bgp_attr *adj_out_advertised(struct bgp_rib *rib, struct rib_src *to, enum bgp_af af,
				    const struct bgp_dest *dest);
/* Empty every session's export cache (its attribute references go): the table is gone. */
void adj_out_cache_clear_all(struct bgp_rib *rib);
/* Serve the sessions round robin, visiting at most budget dests; returns the number visited. */
size_t adj_out_run(struct bgp_rib *rib, size_t budget);
/* Some session can make progress now (not counting those waiting for room to write). */
bool adj_out_has_work(const struct bgp_rib *rib);
/* The lowest journal position some reader of af still needs (head when there is none). */
uint64_t adj_out_min_cursor(const struct bgp_rib *rib, enum bgp_af af);

/* Would `to` be sent nothing in af whatever the table holds, holding nothing there now (its
 * outbound route-map denies every route, no default-originate)? Then its walk and journal
 * reading are skipped (bgp_adj_out_walk.c). */
bool adj_out_sends_nothing(const struct rib_src *to, enum bgp_af af);

#endif /* SKUA_BGP_ADJ_OUT_H */
