# SPDX-License-Identifier: ISC
"""Harness self-test: FRR <-> BIRD and FRR <-> GoBGP, eBGP over IPv4 and IPv6.

No skua here: this proves the lab itself (namespaces, links, each daemon kind, the query
helpers and parsers, withdrawal on stop) so a failing skua scenario points at skua.
"""

import pytest

FRR_V4 = "198.51.100.0/28"
FRR_V6 = "2001:db8:100::/48"
BIRD_V4 = "198.51.100.16/28"
BIRD_V6 = "2001:db8:102::/48"
GOBGP_V4 = "198.51.100.32/28"
GOBGP_V6 = "2001:db8:103::/48"


def present(routes, prefix, path=None, nexthop=None):
    """Checker: `prefix` has a best path (with this AS path / next hop, if given)."""
    def check(table):
        paths = table.get(prefix)
        if not paths:
            return "%s absent" % prefix
        best = [p for p in paths if p["best"]]
        if not best:
            return "%s has no best path: %s" % (prefix, paths)
        if path is not None and best[0]["path"] != path:
            return "%s best path %r, expected %r" % (prefix, best[0]["path"], path)
        if nexthop is not None and nexthop not in best[0]["nexthops"]:
            return "%s next hops %s, expected %s" % (prefix, best[0]["nexthops"], nexthop)
        return None
    return check


def all_of(*checks):
    def check(table):
        msgs = [m for m in (c(table) for c in checks) if m]
        return "; ".join(msgs) or None
    return check


def absent(*prefixes):
    def check(table):
        there = [p for p in prefixes if p in table]
        return ("still present: %s" % ", ".join(there)) if there else None
    return check


@pytest.mark.timeout(120)
def test_sessions_established(lab):
    lab.wait_all_established({
        "frr1": ["192.0.2.2", "2001:db8:0:1::2", "192.0.2.6", "2001:db8:0:2::2"],
        "bird1": ["192.0.2.1", "2001:db8:0:1::1"],
        "gobgp1": ["192.0.2.5", "2001:db8:0:2::1"]}, timeout=60)


def test_frr_summary_json_keys(lab):
    """The FRR JSON keys skua must reproduce, checked with json_cmp subset matching.
    Each peer announces one prefix per family (what comes back through frr1 carries 65001
    and is dropped by frr1 as a loop, so it is not counted)."""
    lab.expect("frr1 ipv4 summary", lambda: lab["frr1"].summary("ipv4"),
               {"peers": {"192.0.2.2": {"state": "Established", "pfxRcd": 1,
                                        "remoteAs": 65002, "connectionsDropped": 0},
                          "192.0.2.6": {"state": "Established", "pfxRcd": 1,
                                        "remoteAs": 65003}}}, timeout=30)
    lab.expect("frr1 ipv6 summary", lambda: lab["frr1"].summary("ipv6"),
               {"peers": {"2001:db8:0:1::2": {"state": "Established", "pfxRcd": 1},
                          "2001:db8:0:2::2": {"state": "Established", "pfxRcd": 1}}},
               timeout=30)


def test_routes_at_frr(lab):
    frr = lab["frr1"]
    lab.expect("frr1 ipv4 routes", lambda: frr.routes("ipv4"),
               all_of(present(frr, BIRD_V4, "65002", "192.0.2.2"),
                      present(frr, GOBGP_V4, "65003", "192.0.2.6"),
                      present(frr, FRR_V4, "")))
    lab.expect("frr1 ipv6 routes", lambda: frr.routes("ipv6"),
               all_of(present(frr, BIRD_V6, "65002"), present(frr, GOBGP_V6, "65003"),
                      present(frr, FRR_V6, "")))
    # The raw FRR document, subset-matched the way scenario tests check skua.
    lab.expect("frr1 raw ipv4 json", lambda: frr.vtysh_json("show bgp ipv4 unicast json"),
               {"routes": {BIRD_V4: [{"valid": True, "bestpath": True, "path": "65002",
                                      "nexthops": [{"ip": "192.0.2.2"}]}]}})


def test_routes_at_bird(lab):
    bird = lab["bird1"]
    lab.expect("bird1 ipv4 routes", lambda: bird.routes("ipv4"),
               all_of(present(bird, FRR_V4, "65001", "192.0.2.1"),
                      present(bird, GOBGP_V4, "65001 65003", "192.0.2.1")))
    lab.expect("bird1 ipv6 routes", lambda: bird.routes("ipv6"),
               all_of(present(bird, FRR_V6, "65001"), present(bird, GOBGP_V6, "65001 65003")))


def test_routes_at_gobgp(lab):
    gobgp = lab["gobgp1"]
    lab.expect("gobgp1 ipv4 routes", lambda: gobgp.routes("ipv4"),
               all_of(present(gobgp, FRR_V4, "65001", "192.0.2.5"),
                      present(gobgp, BIRD_V4, "65001 65002", "192.0.2.5")))
    lab.expect("gobgp1 ipv6 routes", lambda: gobgp.routes("ipv6"),
               all_of(present(gobgp, FRR_V6, "65001"),
                      present(gobgp, BIRD_V6, "65001 65002")))


def test_withdraw_when_bird_stops(lab):
    frr, gobgp = lab["frr1"], lab["gobgp1"]
    # Present first, or their absence afterwards would prove nothing.
    lab.expect("BIRD's routes at frr1 and gobgp1 before BIRD stops",
               lambda: (frr.routes("ipv4"), gobgp.routes("ipv4")),
               lambda t: None if BIRD_V4 in t[0] and BIRD_V4 in t[1] else "absent", timeout=20)
    lab.stop_router("bird1")
    lab.expect("BIRD's routes gone from frr1", lambda: frr.routes("ipv4"), absent(BIRD_V4),
               timeout=20)
    lab.expect("BIRD's routes gone from frr1 (v6)", lambda: frr.routes("ipv6"),
               absent(BIRD_V6), timeout=20)
    lab.expect("BIRD's routes gone from gobgp1", lambda: gobgp.routes("ipv4"),
               absent(BIRD_V4), timeout=20)
    lab.expect("frr1 sees the BIRD session down", frr.peers,
               lambda p: None if p["192.0.2.2"]["state"] != "Established" else "still up",
               timeout=20)
    # What does not depend on BIRD is still there.
    lab.expect("frr1 keeps GoBGP's routes", lambda: frr.routes("ipv4"),
               present(frr, GOBGP_V4, "65003"), timeout=5)
