/* SPDX-License-Identifier: ISC */
/* Address families: names and wire numbers (bgpd/wire/bgp_af.h). */
#include "lib/compat.h"

#include "bgpd/wire/bgp_af.h"

const char *bgp_af_json_name(enum bgp_af af)
{
	switch (af) {
	case BGP_AF_IPV4_UNICAST:
		return "ipv4Unicast";
	case BGP_AF_IPV6_UNICAST:
		return "ipv6Unicast";
	default:
		return "unknown";
	}
}

const char *bgp_af_text_name(enum bgp_af af)
{
	switch (af) {
	case BGP_AF_IPV4_UNICAST:
		return "IPv4 Unicast";
	case BGP_AF_IPV6_UNICAST:
		return "IPv6 Unicast";
	default:
		return "Unknown";
	}
}

int bgp_af_from_afi_safi(uint16_t afi, uint8_t safi)
{
	if (safi != BGP_SAFI_UNICAST)
		return -1;
	if (afi == BGP_AFI_IPV4)
		return BGP_AF_IPV4_UNICAST;
	if (afi == BGP_AFI_IPV6)
		return BGP_AF_IPV6_UNICAST;
	return -1;
}

void bgp_af_to_afi_safi(enum bgp_af af, uint16_t *afi, uint8_t *safi)
{
	*afi = bgp_af_afi(af);
	*safi = BGP_SAFI_UNICAST;
}
