/* SPDX-License-Identifier: ISC */
/*
 * FRR 8.4 bgpd statements skua does not implement, so that a migrating operator reads
 * "% not supported by skua: WHAT (see doc/northbound.md ...)" rather than "% Unknown
 * command", which reads like a typo (lib/command.h, struct cmd_unsupported). Only lines that
 * match no command reach this table: once skua implements a statement, its command matches
 * first and the entry goes. The list is what doc/northbound.md "FRR statements skua lacks"
 * lists, and it is the same words: keep them together.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_nb.h"
#include "lib/command.h"

#define DOC "doc/northbound.md, \"FRR statements skua lacks\""

static const struct cmd_unsupported bgp_unsupported[] = {
	/* other address families and VRFs */
	{ BGP_NODE, "address-family ipv4 multicast", "address-family ipv4 multicast", DOC },
	{ BGP_NODE, "address-family ipv6 multicast", "address-family ipv6 multicast", DOC },
	{ BGP_NODE, "address-family ipv4 vpn", "address-family ipv4 vpn (L3VPN)", DOC },
	{ BGP_NODE, "address-family ipv6 vpn", "address-family ipv6 vpn (L3VPN)", DOC },
	{ BGP_NODE, "address-family ipv4 labeled-unicast", "address-family ipv4 labeled-unicast",
	  DOC },
	{ BGP_NODE, "address-family ipv6 labeled-unicast", "address-family ipv6 labeled-unicast",
	  DOC },
	{ BGP_NODE, "address-family ipv4 flowspec", "address-family ipv4 flowspec", DOC },
	{ BGP_NODE, "address-family ipv6 flowspec", "address-family ipv6 flowspec", DOC },
	{ BGP_NODE, "address-family l2vpn", "address-family l2vpn evpn (EVPN)", DOC },
	{ BGP_NODE, "bmp", "bmp (BGP Monitoring Protocol)", DOC },
	/* neighbor options */
	{ BGP_NODE, "neighbor * bfd", "neighbor PEER bfd (BFD: FRR's bfdd)", DOC },
	{ BGP_NODE, "neighbor * capability extended-nexthop",
	  "neighbor PEER capability extended-nexthop (RFC 8950)", DOC },
	{ BGP_NODE, "neighbor * capability dynamic", "neighbor PEER capability dynamic", DOC },
	{ BGP_NODE, "neighbor * dont-capability-negotiate",
	  "neighbor PEER dont-capability-negotiate", DOC },
	{ BGP_NODE, "neighbor * solo", "neighbor PEER solo", DOC },
	{ BGP_NODE, "neighbor * interface", "neighbor PEER interface IFNAME", DOC },
	/* per address family */
	{ BGP_IPV4_NODE, "neighbor * as-override", "neighbor PEER as-override", DOC },
	{ BGP_IPV6_NODE, "neighbor * as-override", "neighbor PEER as-override", DOC },
	{ BGP_IPV4_NODE, "neighbor * attribute-unchanged", "neighbor PEER attribute-unchanged",
	  DOC },
	{ BGP_IPV6_NODE, "neighbor * attribute-unchanged", "neighbor PEER attribute-unchanged",
	  DOC },
	{ BGP_IPV4_NODE, "neighbor * addpath-tx-all-paths",
	  "neighbor PEER addpath-tx-all-paths (ADD-PATH)", DOC },
	{ BGP_IPV6_NODE, "neighbor * addpath-tx-all-paths",
	  "neighbor PEER addpath-tx-all-paths (ADD-PATH)", DOC },
	{ BGP_IPV4_NODE, "neighbor * addpath-tx-bestpath-per-AS",
	  "neighbor PEER addpath-tx-bestpath-per-AS (ADD-PATH)", DOC },
	{ BGP_IPV6_NODE, "neighbor * addpath-tx-bestpath-per-AS",
	  "neighbor PEER addpath-tx-bestpath-per-AS (ADD-PATH)", DOC },
	{ BGP_IPV4_NODE, "neighbor * route-server-client", "neighbor PEER route-server-client",
	  DOC },
	{ BGP_IPV6_NODE, "neighbor * route-server-client", "neighbor PEER route-server-client",
	  DOC },
	{ BGP_IPV4_NODE, "network * backdoor", "network PREFIX backdoor", DOC },
	{ BGP_IPV6_NODE, "network * backdoor", "network PREFIX backdoor", DOC },
	{ BGP_IPV4_NODE, "network * label-index", "network PREFIX label-index (BGP-LU)", DOC },
	{ BGP_IPV6_NODE, "network * label-index", "network PREFIX label-index (BGP-LU)", DOC },
	{ BGP_IPV4_NODE, "table-map", "table-map ROUTE-MAP", DOC },
	{ BGP_IPV6_NODE, "table-map", "table-map ROUTE-MAP", DOC },
	{ BGP_IPV4_NODE, "import vrf", "import vrf (VRF route leaking)", DOC },
	{ BGP_IPV6_NODE, "import vrf", "import vrf (VRF route leaking)", DOC },
	/* instance */
	{ BGP_NODE, "coalesce-time", "coalesce-time", DOC },
	{ BGP_NODE, "bgp bestpath as-path multipath-relax as-set",
	  "bgp bestpath as-path multipath-relax as-set (an AS_SET of the multipaths)", DOC },
	{ CONFIG_NODE, "bgp route-map delay-timer",
	  "bgp route-map delay-timer (skua applies route-map changes at once)", DOC },
	/* route-maps: FRR 8.4 has it in zebra's maps (`ip protocol ... route-map`), its bgpd
	 * not at all; skua has no zebra */
	{ RMAP_NODE, "match source-protocol",
	  "match source-protocol (zebra's; FRR 8.4's bgpd has no such clause)", DOC },
};

void bgp_cli_unsupported_init(void)
{
	if (cmd_unsupported_register(bgp_unsupported, array_size(bgp_unsupported)) < 0)
		fprintf(stderr, "bgpd: no room to register the unsupported FRR statements (a "
				"bug: raise UNSUPPORTED_TABLES_MAX)\n");
}
