# SPDX-License-Identifier: ISC
"""Reading the routers' tables for the route-map scenario, in the shape rmap_cases.row()
gives the designed outcome: {prefix: sorted [(peer, next hop, AS path, origin, MED,
LOCAL_PREF, weight, best, communities)]}.

`show bgp ipv4|ipv6 unicast json` has every attribute but the communities, which only the
per-prefix `show bgp ... PREFIX json` gives: those are asked in one vtysh run per router.
The readers and comparisons are skualab.tables'; bgpd_vtysh, describe and differences are
imported from here by test_policy_rmap.py and rmap_show.py.
"""

from skualab import tables
from skualab.tables import bgpd_vtysh, describe, differences

__all__ = ["FIELDS", "bgpd_vtysh", "communities", "describe", "differences", "table"]

FIELDS = ("peer", "nexthops", "aspath", "origin", "med", "localpref", "weight", "best")


def communities(daemon, afi, prefixes):
    """{(prefix, peer): community text} from the per-prefix detail."""
    out = {}
    for prefix, doc in zip(prefixes, tables.detail_docs(daemon, afi, prefixes)):
        for path in doc.get("paths", []):
            peer = path.get("peer", {}).get("peerId", "")
            out[(prefix, peer)] = path.get("community", {}).get("string", "")
    return out


def table(daemon):
    out = {}
    for afi in tables.AFIS:
        routes = tables.routes(daemon, afi)
        comms = communities(daemon, afi, sorted(routes))
        out.update(tables.rows(routes, lambda prefix, p: tables.path_row(p, FIELDS) + (
            comms.get((prefix, p.get("peerId", "")), "?"),)))
    return out
