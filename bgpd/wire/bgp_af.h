/* SPDX-License-Identifier: ISC */
/*
 * The address families skua speaks (unicast IPv4 and IPv6), their wire numbers (RFC 4760
 * AFI/SAFI) and their names in FRR's text and JSON output. Every layer counts families with
 * enum bgp_af; only the codec sees AFI/SAFI.
 */
#ifndef SKUA_BGP_AF_H
#define SKUA_BGP_AF_H

#include <stdint.h>
#include <sys/socket.h>

enum bgp_af {
	BGP_AF_IPV4_UNICAST = 0,
	BGP_AF_IPV6_UNICAST,
	BGP_AF_MAX,
};

#define BGP_AFI_IPV4 1 /* RFC 4760 AFI values */
#define BGP_AFI_IPV6 2
#define BGP_SAFI_UNICAST 1

static inline int bgp_af_family(enum bgp_af af)
{
	return af == BGP_AF_IPV4_UNICAST ? AF_INET : AF_INET6;
}

/* The AFI of a family (every family we speak is SAFI unicast). */
static inline uint16_t bgp_af_afi(enum bgp_af af)
{
	return af == BGP_AF_IPV6_UNICAST ? BGP_AFI_IPV6 : BGP_AFI_IPV4;
}

/* FRR's names: "ipv4Unicast" (JSON keys), "IPv4 Unicast" (text). */
const char *bgp_af_json_name(enum bgp_af af);
const char *bgp_af_text_name(enum bgp_af af);
/* AFI/SAFI from the wire to our enum; -1 when we do not handle the pair. */
int bgp_af_from_afi_safi(uint16_t afi, uint8_t safi);
void bgp_af_to_afi_safi(enum bgp_af af, uint16_t *afi, uint8_t *safi);

#endif /* SKUA_BGP_AF_H */
