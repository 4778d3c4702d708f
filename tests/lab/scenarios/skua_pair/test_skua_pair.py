# SPDX-License-Identifier: ISC
"""skua peering with skua: s1 (AS 65001) -eBGP- s2 (AS 65002) -iBGP- s3 (AS 65002).

Sessions over IPv4 carry ipv4 unicast, sessions over IPv6 carry ipv6 unicast.  s2 names its
peers with `remote-as external` / `remote-as internal`, s1 and s3 with numbers.
"""

import pytest

NETS = {"s1": ("198.51.100.0/28", "2001:db8:100::/48"),
        "s2": ("198.51.100.16/28", "2001:db8:101::/48"),
        "s3": ("198.51.100.32/28", "2001:db8:102::/48")}
AS = {"s1": 65001, "s2": 65002, "s3": 65002}
SESSIONS = [("s1", "s2"), ("s2", "s1"), ("s2", "s3"), ("s3", "s2")]
CONVERGE = 45


def both(lab, router, peer):
    """`peer`'s IPv4 and IPv6 addresses as `router` names them."""
    return [lab.addr(router, peer, 4), lab.addr(router, peer, 6)]


def expected_route(path, nexthop):
    return [{"valid": True, "bestpath": True, "path": path, "nexthops": [{"ip": nexthop}]}]


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    want = {}
    for router, peer in SESSIONS:
        want.setdefault(router, []).extend(both(lab, router, peer))
    lab.wait_all_established(want, timeout=60)


@pytest.mark.parametrize("router,peer", SESSIONS)
def test_neighbor_json(lab, router, peer):
    """`show ip bgp neighbors X json` with FRR's keys: AS numbers, link type, state."""
    addr = lab.addr(router, peer, 4)
    link = "nbrExternalLink" if AS[router] != AS[peer] else "nbrInternalLink"
    lab.expect("%s: neighbor %s json" % (router, addr), lambda: lab[router].neighbor(addr),
               {addr: {"remoteAs": AS[peer], "localAs": AS[router], link: True,
                       "bgpState": "Established"}}, timeout=lab.budget("neighbor", 20),
               needs={router: [addr]})


@pytest.mark.parametrize("router,peer", SESSIONS)
def test_routes_from_peer(lab, router, peer):
    """`router` has `peer`'s networks, from the peer's address on their link."""
    p4, p6 = NETS[peer]
    path = str(AS[peer]) if AS[router] != AS[peer] else ""
    d = lab[router]
    lab.expect("%s: %s from %s" % (router, p4, peer),
               lambda: d.vtysh_json("show bgp ipv4 unicast json"),
               {"routes": {p4: expected_route(path, lab.addr(router, peer, 4))}},
               timeout=lab.budget("routes", CONVERGE), needs={router: both(lab, router, peer)})
    lab.expect("%s: %s from %s" % (router, p6, peer),
               lambda: d.vtysh_json("show bgp ipv6 unicast json"),
               {"routes": {p6: expected_route(path, lab.addr(router, peer, 6))}},
               timeout=lab.budget("routes", CONVERGE), needs={router: both(lab, router, peer)})


def test_ibgp_route_passed_on_over_ebgp(lab):
    """s3's networks reach s1 through s2 with s2's AS prepended and s2 as next hop."""
    p4, p6 = NETS["s3"]
    needs = {"s1": both(lab, "s1", "s2"), "s2": both(lab, "s2", "s3")}
    lab.expect("s1: %s via s2" % p4, lambda: lab["s1"].vtysh_json("show bgp ipv4 unicast json"),
               {"routes": {p4: expected_route("65002", lab.addr("s1", "s2", 4))}},
               timeout=lab.budget("routes", CONVERGE), needs=needs)
    lab.expect("s1: %s via s2" % p6, lambda: lab["s1"].vtysh_json("show bgp ipv6 unicast json"),
               {"routes": {p6: expected_route("65002", lab.addr("s1", "s2", 6))}},
               timeout=lab.budget("routes", CONVERGE), needs=needs)


def test_ebgp_route_passed_on_over_ibgp(lab):
    """s1's networks reach s3 through s2 with the AS path unchanged (iBGP does not prepend).
    The next hop stays s1's address (RFC 4271 5.1.3), which s3 cannot reach: only presence
    and path are checked."""
    p4, p6 = NETS["s1"]
    needs = {"s3": both(lab, "s3", "s2"), "s2": both(lab, "s2", "s1")}
    for afi, p in (("ipv4", p4), ("ipv6", p6)):
        lab.expect("s3: %s via s2" % p, lambda: lab["s3"].routes(afi),
                   lambda t: None if p in t and any(x["path"] == "65001" for x in t[p])
                   else "%s absent or with another path: %s" % (p, t.get(p)),
                   timeout=lab.budget("routes", CONVERGE), needs=needs)


def test_summary_text_output(lab):
    """The plain-text summary answers and names every neighbor (operators read it)."""
    lab.require_established("s2", ["192.0.2.1", "192.0.2.6"])
    out = lab["s2"].vtysh("show ip bgp summary")
    for addr in ("192.0.2.1", "192.0.2.6"):
        assert addr in out, "show ip bgp summary on s2 does not list %s:\n%s" % (addr, out)


def test_event_cpu_counts_the_sessions_work(lab):
    """`show event cpu` (FRR's command) names the callbacks that did s2's work, with their
    calls and times; `clear event cpu` zeroes them (an operator's look for a busy daemon)."""
    lab.require_established("s2", ["192.0.2.1", "192.0.2.6"])
    d = lab["s2"]
    stats = d.vtysh_json("show event cpu json")
    for name in ("read_cb", "rib_work_cb", "keepalive_timer_cb"):
        assert name in stats, "s2: no %s in show event cpu json: %s" % (name, sorted(stats))
    read = stats["read_cb"]
    assert read["handles"] >= 4, "s2 has four sessions, each read by read_cb: %s" % read
    assert read["totalCalls"] > 0 and read["totalWallUsec"] > 0, read
    assert read["maxWallUsec"] >= read["averageWallUsec"], read
    assert read["type"] == "R", read
    text = d.vtysh("show event cpu")
    assert text.startswith("Event statistics for bgpd"), text[:200]
    assert any(line.split()[-1] == "rib_work_cb" for line in text.splitlines()[3:]), text
    d.vtysh("clear event cpu")
    after = d.vtysh_json("show event cpu json")
    assert after["read_cb"]["totalCalls"] < read["totalCalls"], (read, after["read_cb"])
    assert after["read_cb"]["handles"] == read["handles"], (read, after["read_cb"])


def test_withdraw_when_s1_stops(lab):
    p4, p6 = NETS["s1"]

    def tables(r):
        return lambda: (lab[r].routes("ipv4"), lab[r].routes("ipv6"))
    # Present first, or their absence afterwards would prove nothing.
    for r in ("s2", "s3"):
        lab.expect("%s: s1's routes present before s1 stops" % r, tables(r),
                   lambda t: None if p4 in t[0] and p6 in t[1] else "absent",
                   timeout=lab.budget("routes", CONVERGE),
                   needs={"s2": both(lab, "s2", "s1"), "s3": both(lab, "s3", "s2")})
    lab.stop_router("s1")
    for r in ("s2", "s3"):
        lab.expect("%s: s1's routes withdrawn" % r, tables(r),
                   lambda t: ("still there: %s" % [p for p in (p4, p6) if p in t[0] or p in t[1]]
                              if p4 in t[0] or p6 in t[1] else None), timeout=30)
