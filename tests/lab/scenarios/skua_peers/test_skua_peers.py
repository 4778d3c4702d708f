# SPDX-License-Identifier: ISC
"""skua (AS 65000) with FRR, BIRD and GoBGP, each as an eBGP and an iBGP peer, one session over
IPv4 (ipv4 unicast) and one over IPv6 (ipv6 unicast) per peer.

  - every session Established on both ends;
  - skua's `network` statements seen at every peer;
  - every peer's routes in skua's `show bgp ipv4|ipv6 unicast json`, FRR keys and values;
  - eBGP peers learn each other's routes through skua (AS path "65000 <origin AS>");
  - a peer that stops takes its routes out of skua's table.
"""

import pytest

DUT_V4, DUT_V6 = "198.51.100.0/28", "2001:db8:100::/48"
# name: (AS, v4 prefix, v6 prefix)
PEERS = {
    "frr_e": (65001, "198.51.100.16/28", "2001:db8:101::/48"),
    "frr_i": (65000, "198.51.100.32/28", "2001:db8:102::/48"),
    "bird_e": (65002, "198.51.100.48/28", "2001:db8:103::/48"),
    "bird_i": (65000, "198.51.100.64/28", "2001:db8:104::/48"),
    "gobgp_e": (65003, "198.51.100.80/28", "2001:db8:105::/48"),
    "gobgp_i": (65000, "198.51.100.96/28", "2001:db8:106::/48"),
}
EBGP = [n for n, (asn, _, _) in PEERS.items() if asn != 65000]
CONVERGE = 45  # seconds, shared by the route tests (see Lab.budget)


def peer_addrs(lab, name):
    return lab.addr("dut", name, 4), lab.addr("dut", name, 6)


def dut_addrs(lab, name):
    return lab.addr(name, "dut", 4), lab.addr(name, "dut", 6)


def best_path_check(prefix, path, nexthop=None):
    def check(table):
        paths = table.get(prefix)
        if not paths:
            return "%s absent" % prefix
        best = [p for p in paths if p["best"]]
        if not best:
            return "%s: no best path among %s" % (prefix, paths)
        if best[0]["path"] != path:
            return "%s: best AS path %r, expected %r" % (prefix, best[0]["path"], path)
        if nexthop and nexthop not in best[0]["nexthops"]:
            return "%s: next hops %s, expected %s" % (prefix, best[0]["nexthops"], nexthop)
        return None
    return check


@pytest.mark.timeout(150)
def test_all_sessions_established(lab):
    addrs = [a for n in PEERS for a in peer_addrs(lab, n)]
    lab.wait_established("dut", addrs, timeout=60)


@pytest.mark.parametrize("peer", list(PEERS))
def test_sessions_established_at_peer(lab, peer):
    lab.require_established("dut", peer_addrs(lab, peer))
    lab.wait_established(peer, list(dut_addrs(lab, peer)), timeout=lab.budget("peers", 30))


@pytest.mark.parametrize("peer", list(PEERS))
def test_dut_networks_seen_at_peer(lab, peer):
    asn = PEERS[peer][0]
    path = "" if asn == 65000 else "65000"
    v4, v6 = dut_addrs(lab, peer)
    p4, p6 = peer_addrs(lab, peer)
    d = lab[peer]
    lab.expect("%s has skua's IPv4 network" % peer, lambda: d.routes("ipv4"),
               best_path_check(DUT_V4, path, v4), timeout=lab.budget("routes", CONVERGE),
               needs={"dut": [p4]})
    lab.expect("%s has skua's IPv6 network" % peer, lambda: d.routes("ipv6"),
               best_path_check(DUT_V6, path), timeout=lab.budget("routes", CONVERGE),
               needs={"dut": [p6]})


@pytest.mark.parametrize("peer", list(PEERS))
def test_peer_routes_in_dut_json(lab, peer):
    asn, p4, p6 = PEERS[peer]
    path = "" if asn == 65000 else str(asn)
    v4, v6 = peer_addrs(lab, peer)
    dut = lab["dut"]
    lab.expect("skua's show bgp ipv4 unicast json has %s from %s" % (p4, peer),
               lambda: dut.vtysh_json("show bgp ipv4 unicast json"),
               {"routes": {p4: [{"valid": True, "bestpath": True, "path": path,
                                 "nexthops": [{"ip": v4}]}]}},
               timeout=lab.budget("routes", CONVERGE), needs={"dut": [v4]})
    # On a directly connected IPv6 session the peer may add its link-local address as a
    # second next hop (RFC 2545 section 3); the global one must be there.
    lab.expect("skua's show bgp ipv6 unicast json has %s from %s" % (p6, peer),
               lambda: dut.vtysh_json("show bgp ipv6 unicast json"),
               {"routes": {p6: [{"valid": True, "bestpath": True, "path": path,
                                 "nexthops": [{"ip": v6}]}]}},
               timeout=lab.budget("routes", CONVERGE), needs={"dut": [v6]})


def test_dut_summary_counts(lab):
    """pfxRcd per peer in skua's summary: one prefix per session."""
    want4 = {"peers": {peer_addrs(lab, n)[0]: {"state": "Established", "pfxRcd": 1}
                       for n in PEERS}}
    want6 = {"peers": {peer_addrs(lab, n)[1]: {"state": "Established", "pfxRcd": 1}
                       for n in PEERS}}
    lab.expect("skua ipv4 summary", lambda: lab["dut"].summary("ipv4"), want4,
               timeout=lab.budget("routes", CONVERGE), needs={"dut": list(want4["peers"])})
    lab.expect("skua ipv6 summary", lambda: lab["dut"].summary("ipv6"), want6,
               timeout=lab.budget("routes", CONVERGE), needs={"dut": list(want6["peers"])})


@pytest.mark.parametrize("peer", EBGP)
def test_ebgp_transit_through_dut(lab, peer):
    """Each eBGP peer learns the other eBGP peers' routes from skua, next hop rewritten to
    skua's address on the shared link (RFC 4271 5.1.3)."""
    d = lab[peer]
    v4, _ = dut_addrs(lab, peer)
    for other in EBGP:
        if other == peer:
            continue
        asn, p4, p6 = PEERS[other]
        sessions = {"dut": list(peer_addrs(lab, peer)) + list(peer_addrs(lab, other))}
        lab.expect("%s learns %s's %s via skua" % (peer, other, p4), lambda: d.routes("ipv4"),
                   best_path_check(p4, "65000 %d" % asn, v4),
                   timeout=lab.budget("routes", CONVERGE), needs=sessions)
        lab.expect("%s learns %s's %s via skua" % (peer, other, p6), lambda: d.routes("ipv6"),
                   best_path_check(p6, "65000 %d" % asn),
                   timeout=lab.budget("routes", CONVERGE), needs=sessions)


@pytest.mark.parametrize("peer", list(PEERS))
def test_withdraw_when_peer_stops(lab, peer):
    """Runs last: stops the peers one by one."""
    asn, p4, p6 = PEERS[peer]
    v4, v6 = peer_addrs(lab, peer)
    dut = lab["dut"]

    def gone(table_v4_v6):
        t4, t6 = table_v4_v6
        there = [p for p, t in ((p4, t4), (p6, t6)) if p in t]
        return ("still in skua's table: %s" % there) if there else None
    # First the routes must be there, or their absence afterwards would prove nothing.
    lab.expect("%s's routes in skua before it stops" % peer,
               lambda: (dut.routes("ipv4"), dut.routes("ipv6")),
               lambda t: None if gone(t) else "%s or %s absent" % (p4, p6),
               timeout=lab.budget("routes", CONVERGE), needs={"dut": [v4, v6]})
    lab.stop_router(peer)
    lab.expect("%s's routes withdrawn from skua" % peer,
               lambda: (dut.routes("ipv4"), dut.routes("ipv6")), gone, timeout=30)
    lab.expect("skua sees %s down" % peer, dut.peers,
               lambda p: None if all(p.get(a, {}).get("state") != "Established"
                                     for a in (v4, v6)) else "sessions still Established",
               timeout=10)
