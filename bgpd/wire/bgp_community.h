/* SPDX-License-Identifier: ISC */
/*
 * Communities (RFC 1997) and large communities (RFC 8092): the text forms FRR prints and
 * parses. The lists themselves are struct bgp_u32list / struct bgp_lcommlist (bgp_attr.h),
 * interned like AS paths.
 */
#ifndef SKUA_BGP_COMMUNITY_H
#define SKUA_BGP_COMMUNITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_attr.h"

/* Well-known communities (RFC 1997, RFC 3765, RFC 7999, RFC 8326, RFC 7611, RFC 9494). */
#define BGP_COMM_GRACEFUL_SHUTDOWN 0xFFFF0000u
#define BGP_COMM_ACCEPT_OWN 0xFFFF0001u
#define BGP_COMM_LLGR_STALE 0xFFFF0006u
#define BGP_COMM_NO_LLGR 0xFFFF0007u
#define BGP_COMM_BLACKHOLE 0xFFFF029Au
#define BGP_COMM_NO_EXPORT 0xFFFFFF01u
#define BGP_COMM_NO_ADVERTISE 0xFFFFFF02u
#define BGP_COMM_NO_EXPORT_SUBCONFED 0xFFFFFF03u /* "local-AS" in FRR */
#define BGP_COMM_NO_PEER 0xFFFFFF04u

/* One community: "65001:100", or its well-known name ("no-export"). Returns buf. */
const char *bgp_community_str(uint32_t comm, char *buf, size_t size);
/* Parse "AA:NN" (each 0-65535), a plain number, or a well-known name; 0 or -1. */
int bgp_community_from_str(const char *s, uint32_t *comm);
/* A list, space separated as FRR prints it; -1 when truncated, else the length. */
int bgp_u32list_community_str(const struct bgp_u32list *l, char *buf, size_t size);
/* A cluster list as dotted quads, space separated. */
int bgp_u32list_addr_str(const struct bgp_u32list *l, char *buf, size_t size);
/* Large communities "1:2:3 4:5:6". */
int bgp_lcommlist_str(const struct bgp_lcommlist *l, char *buf, size_t size);
/* Parse one large community "GLOBAL:LOCAL1:LOCAL2" (each 0-4294967295) into v[3]; 0 or -1. */
int bgp_lcommunity_from_str(const char *s, uint32_t v[3]);

/* FRR's name for the kinds of community sent to a neighbor (`show bgp neighbors`): JSON
 * commAttriSentToNbr ("extendedAndStandard", "extended", "standard") or the text's word
 * ("all", "large", "extended", "standard"); NULL when none is sent. */
const char *bgp_send_community_name(bool standard, bool extended, bool large, bool text);

/* Sets as FRR keeps them: sorted, without repeats (in place; returns the new count).
 * Large communities: n triples, ordered by global, then local1, then local2. */
uint32_t bgp_comm_sort_uniq(uint32_t *v, uint32_t n);
uint32_t bgp_lcomm_sort_uniq(uint32_t *v, uint32_t n);

bool bgp_u32list_contains(const struct bgp_u32list *l, uint32_t v);

#endif /* SKUA_BGP_COMMUNITY_H */
