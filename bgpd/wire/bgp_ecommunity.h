/* SPDX-License-Identifier: ISC */
/*
 * Extended communities (RFC 4360, RFC 5668, the link bandwidth of
 * draft-ietf-idr-link-bandwidth): the text forms FRR 8.4 prints, the transitive filter for
 * eBGP, and the values route-maps build. A list is a struct bgp_ecommlist (bgp_attr.h),
 * interned like the other community lists; each value is two host-order words, octets 0-3
 * then 4-7, so octet 0 (the type) is the top byte of the first word.
 */
#ifndef SKUA_BGP_ECOMMUNITY_H
#define SKUA_BGP_ECOMMUNITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/wire/bgp_attr.h"

/* The type octet's high bits and the types and sub-types skua knows (RFC 4360 3, RFC 5668,
 * RFC 7153). */
#define BGP_ECOMM_TYPE_NON_TRANSITIVE 0x40
#define BGP_ECOMM_TYPE_AS2 0x00
#define BGP_ECOMM_TYPE_IP 0x01
#define BGP_ECOMM_TYPE_AS4 0x02
#define BGP_ECOMM_SUB_RT 0x02
#define BGP_ECOMM_SUB_SOO 0x03
#define BGP_ECOMM_SUB_LB 0x04

static inline uint8_t bgp_ecomm_type(const uint32_t v[2])
{
	return (uint8_t)(v[0] >> 24);
}

static inline uint8_t bgp_ecomm_subtype(const uint32_t v[2])
{
	return (uint8_t)(v[0] >> 16);
}

/* RFC 4360 2: the T bit clear means transitive across ASes. */
static inline bool bgp_ecomm_transitive(const uint32_t v[2])
{
	return !(bgp_ecomm_type(v) & BGP_ECOMM_TYPE_NON_TRANSITIVE);
}

/* One value as FRR 8.4 shows it: "RT:65000:100", "SoO:192.0.2.1:7",
 * "LB:65000:12500000 (100.000 Mbps)", "ET:8", "UNK:128, 1" for the kinds it does not name.
 * Returns the length snprintf() reports. In a list the text of an unnamed opaque or EVPN value
 * depends on the value before it (bgp_ecommlist_str()). */
int bgp_ecomm_str(const uint32_t v[2], char *buf, size_t size);
/* The same for the values of a list in turn: *sub starts at 0 and carries FRR's sub-type
 * from one value to the next. */
int bgp_ecomm_str_in_list(const uint32_t v[2], uint8_t *sub, char *buf, size_t size);
/* A list, space separated (FRR's "Extended Community:" line; an unnamed opaque or EVPN
 * value shows the sub-type of the value before it, as FRR 8.4 does); -1 when truncated. */
int bgp_ecommlist_str(const struct bgp_ecommlist *l, char *buf, size_t size);

/* One route target or site of origin (subtype BGP_ECOMM_SUB_RT or _SOO) in FRR's forms:
 * "ASN:NN" (ASN up to 65535: 2-octet AS form with NN up to 4294967295; above: 4-octet AS form,
 * NN up to 65535) or "A.B.C.D:NN" (NN up to 65535). 0, or -1 when s is none of them. */
int bgp_ecomm_from_str(const char *s, uint8_t subtype, uint32_t v[2]);
/* The value of a route target or site of origin without its kind ("65000:100",
 * "192.0.2.1:7"), as FRR writes it in configuration; other kinds as bgp_ecomm_str(). */
int bgp_ecomm_value_str(const uint32_t v[2], char *buf, size_t size);
/* A link bandwidth value: AS (AS_TRANS above 65535, as FRR) and bytes per second as an IEEE
 * single; non-transitive sets the T bit. */
void bgp_ecomm_lb(uint32_t as, uint32_t bytes_per_sec, bool transitive, uint32_t v[2]);

/* As FRR keeps a received list: sorted in wire order, without repeats (n values of two words,
 * in place; returns the new count). */
uint32_t bgp_ecomm_sort_uniq(uint32_t *v, uint32_t n);

/* What an eBGP peer is sent (RFC 4360 6, FRR): l without its non-transitive values. A new
 * reference (l itself when all are transitive); NULL when none is left or l is NULL. */
struct bgp_ecommlist *bgp_ecommlist_transitive(struct bgp_ecommlist *l);

#endif /* SKUA_BGP_ECOMMUNITY_H */
