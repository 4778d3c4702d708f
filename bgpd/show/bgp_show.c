/* SPDX-License-Identifier: ISC */
/* Every operational command of bgpd (bgpd/show/bgp_show.h). */
#include "lib/compat.h"

#include "bgpd/show/bgp_show.h"

void bgp_show_init(void)
{
	bgp_show_route_init();
	bgp_show_neighbor_init();
	bgp_debug_init();
	bgp_clear_init();
	bgp_show_fib_init();
	bgp_show_peer_group_init();
	bgp_show_policy_init();
	bgp_show_rpki_init();
}
