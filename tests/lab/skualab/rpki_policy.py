# SPDX-License-Identifier: ISC
"""The route-maps the RPKI scenarios give the router under test, and what they make of each
validation state: rpki_frr_reference and rpki_changes judge skua (and FRR) by the same policy.

    RPKI-SEE  keeps every route, marked (local preference 10, community 65000:1)
    RPKI-IN   denies invalid, not found at local preference 90, valid at 200
    TO-SINK   passes RPKI-IN's routes on to the collector, not RPKI-SEE's
"""

# What RPKI-IN makes of each state at the collector: local preference, or None (denied).
OUTCOME = {"valid": 200, "notfound": 90, "invalid": None}

POLICY = """\
bgp community-list standard CL-SEE seq 5 permit 65000:1
!
route-map RPKI-SEE permit 10
 set local-preference 10
 set community 65000:1
exit
!
route-map RPKI-IN deny 10
 match rpki invalid
exit
route-map RPKI-IN permit 20
 match rpki notfound
 set local-preference 90
exit
route-map RPKI-IN permit 30
 match rpki valid
 set local-preference 200
exit
!
route-map TO-SINK deny 10
 match community CL-SEE
exit
route-map TO-SINK permit 20
exit
!
"""
