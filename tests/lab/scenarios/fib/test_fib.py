# SPDX-License-Identifier: ISC
"""skua's best routes in the kernel FIB of its namespace (issue 5, must-show 3).

    e1, e2 (FRR, AS 65010) -- lan -- dut (skua, AS 65000) -- ib (FRR, iBGP)
    ref (FRR, AS 65000)    -- lan        |
                                         +-- rt (host): static routes to ib's next hops

After every step, three views of the DUT's FIB must be equal to each other and to the table
this file designs for the step: `ip route show table 254 proto bgp` (and `ip -6`) in the
DUT's namespace (every route with metric 20), skua's `show ip|ipv6 route json`, and the FIB
that skua's own BGP table calls for (`show bgp ipv4|ipv6 unicast json`: the best path and the
valid paths tied with it, their next hops resolved by this file's knowledge of the topology).

1. Initial load: eBGP from e1 and e2 (same AS, same attributes) gives two-next-hop routes;
   iBGP from ib, next hop 203.0.113.1 / 2001:db8:ff::1, gives routes through rt's address
   on to-rt (the static route that resolves the next hop), and wins 198.51.100.16/28 and
   2001:db8:101::/48 on local preference 200.  FRR (ref, same feeds) marks the same paths
   multipath as the DUT installs (the DUT's set is read from its kernel: what forwards).
2. `maximum-paths 1` set live: one next hop per route, the best path's; removed: two again.
3. Withdrawals from e1 (an ECMP route loses a member, an e1-only route goes) and from ib.
4. rt takes its end of the link down: the DUT's to-rt loses carrier, ib's next hops become
   unreachable: their routes leave the FIB and show invalid, the local-preference-200
   prefixes fall back to the e1/e2 multipath route.  The link comes back: they return.
   Every route refers to one of skua's nexthop objects (`ip nexthop`): one per next hop,
   one group per ECMP set, each used by a route (kernel/route_nhobj.c).
5. The sessions with e1 and e2 go (`neighbor ... shutdown` on the DUT), as a lost session:
   their routes leave the kernel (removals are held while they come and then sent, in
   random order: bgpd/fib/bgp_fib.c), `show bgp fib` counts what the kernel holds, ib's
   routes stay, and so do only their nexthop objects.  The sessions come back: so do the
   routes.

skua only: the FRR stand-in (SKUALAB_STANDIN=frr) runs bgpd with -n and installs nothing.
"""

import ipaddress

import pytest

import fib_kit as kit

E1, E2 = ("192.0.2.11", "lan"), ("192.0.2.12", "lan")
E1_6, E2_6 = ("2001:db8:0:1::11", "lan"), ("2001:db8:0:1::12", "lan")
RT, RT_6 = ("192.0.2.70", "to-rt"), ("2001:db8:0:3::2", "to-rt")  # via the static routes

INITIAL = {
    4: {"198.51.100.0/28": {E1, E2}, "198.51.100.16/28": {RT}, "198.51.100.32/28": {E1, E2},
        "198.51.100.48/28": {E1}, "198.51.100.64/28": {E2}, "203.0.113.64/28": {RT},
        "203.0.113.80/28": {RT}},
    6: {"2001:db8:100::/48": {E1_6, E2_6}, "2001:db8:101::/48": {RT_6},
        "2001:db8:102::/48": {E1_6}, "2001:db8:200::/48": {RT_6}},
}
# Prefixes that only e1 and e2 announce: FRR (ref) sees the same paths for them.
SHARED = {4: ["198.51.100.0/28", "198.51.100.32/28", "198.51.100.48/28", "198.51.100.64/28"],
          6: ["2001:db8:100::/48", "2001:db8:102::/48"]}
WITHDRAWN_E1 = {4: ["198.51.100.32/28", "198.51.100.48/28"], 6: ["2001:db8:100::/48"]}
WITHDRAWN_IB = {4: ["203.0.113.80/28"], 6: []}
AFTER_WITHDRAWALS = {
    4: {"198.51.100.0/28": {E1, E2}, "198.51.100.16/28": {RT}, "198.51.100.32/28": {E2},
        "198.51.100.64/28": {E2}, "203.0.113.64/28": {RT}},
    6: {"2001:db8:100::/48": {E2_6}, "2001:db8:101::/48": {RT_6},
        "2001:db8:102::/48": {E1_6}, "2001:db8:200::/48": {RT_6}},
}
NEXTHOP_LOST = {
    4: {"198.51.100.0/28": {E1, E2}, "198.51.100.16/28": {E1, E2}, "198.51.100.32/28": {E2},
        "198.51.100.64/28": {E2}},
    6: {"2001:db8:100::/48": {E2_6}, "2001:db8:101::/48": {E1_6, E2_6},
        "2001:db8:102::/48": {E1_6}},
}
SESSIONS_LOST = {  # e1 and e2 gone: ib's routes only
    4: {"198.51.100.16/28": {RT}, "203.0.113.64/28": {RT}},
    6: {"2001:db8:101::/48": {RT_6}, "2001:db8:200::/48": {RT_6}},
}
IB_NEXTHOP = {4: "203.0.113.1", 6: "2001:db8:ff::1"}
AFI = {4: "ipv4", 6: "ipv6"}
SESSIONS = {"dut": ["192.0.2.11", "192.0.2.12", "192.0.2.66", "2001:db8:0:1::11",
                    "2001:db8:0:1::12", "2001:db8:0:2::2"],
            "ref": ["192.0.2.11", "192.0.2.12", "2001:db8:0:1::11", "2001:db8:0:1::12"]}
NEEDS = {"dut": SESSIONS["dut"]}


def resolve(ip):
    """How the DUT reaches a next hop, by design of the topology."""
    a = ipaddress.ip_address(ip)
    for net, via in (("192.0.2.0/26", (ip, "lan")), ("2001:db8:0:1::/64", (ip, "lan")),
                     ("203.0.113.0/28", RT), ("2001:db8:ff::/64", RT_6)):
        if a in ipaddress.ip_network(net):
            return via
    return None


def designed(table):
    return {kit.norm(p): frozenset(h) for p, h in table.items()}


def fib_matches(lab, version, table, maxpaths=64):
    """A lab.expect checker: the kernel, skua's show, skua's BGP table and `table` agree."""
    dut = lab["dut"]

    def check():
        kernel, wrong_metric = kit.kernel_routes(lab.namespaces["dut"], version, 254)
        model, problems = kit.model_fib(dut.vtysh_json("show bgp %s unicast json"
                                                       % AFI[version]), resolve, maxpaths)
        views = {"designed": designed(table), "kernel": kernel,
                 "show route": kit.shown_routes(dut, version), "bgp table": model}
        msg = kit.diff(views)
        extra = problems + ["metric %s on %s" % (m, p) for p, m in wrong_metric]
        if msg or extra:
            return "\n".join(([msg] if msg else []) + extra)
        return None
    return check


def expect_fib(lab, version, table, what, maxpaths=64, timeout=40):
    lab.expect("IPv%d FIB %s" % (version, what), fib_matches(lab, version, table, maxpaths),
               lambda r: r, timeout=timeout, needs=NEEDS)


def configure(daemon, *lines):
    daemon.vtysh("configure terminal", *lines)


@pytest.mark.timeout(120)
def test_sessions(lab):
    lab.wait_all_established(SESSIONS, timeout=90)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("version", [4, 6])
def test_initial_load(lab, version):
    expect_fib(lab, version, INITIAL[version], "after the initial load")
    st = lab["dut"].vtysh_json("show bgp fib json")
    assert st["enabled"] and st["installing"] and st["table"] == 254, st
    assert st["ipv%dRoutes" % version] == len(INITIAL[version]), st
    assert st["refused"] == 0, st


@pytest.mark.timeout(30)
def test_routes_refer_to_nexthop_objects(lab):
    """Every route refers to one of skua's nexthop objects, one per next hop and one group
    per ECMP set: e1, e2, rt and the group {e1, e2}, per family."""
    ns = lab.namespaces["dut"]
    assert kit.nexthop_objects_problems(ns) is None, kit.nexthop_objects_problems(ns)
    assert kit.nexthop_object_count(ns) == 8, ns.exec(["ip", "nexthop", "show"])
    st = lab["dut"].vtysh_json("show bgp fib json")
    assert st["nexthopObjects"] == {"used": True, "objects": 8,
                                    "routes": st["ipv4Routes"] + st["ipv6Routes"]}, st
    text = lab["dut"].vtysh("show bgp fib")
    assert "Nexthop objects: 8, used by %d routes" % (st["ipv4Routes"] + st["ipv6Routes"]) \
        in text, text


def expect_same_as_frr(lab, version, what):
    """FRR's best + multipath paths on the same feeds = the DUT's installed next hops, for
    every prefix only e1 and e2 announce (absent from both when withdrawn)."""
    def compare():
        ref = lab["ref"].vtysh_json("show bgp %s unicast json" % AFI[version])
        kernel, _ = kit.kernel_routes(lab.namespaces["dut"], version, 254)
        bad = []
        for p in SHARED[version]:
            frr = kit.frr_multipath_set(ref, p)
            dut = frozenset(gw for gw, _ in kernel.get(kit.norm(p), ()))
            if frr != dut:
                bad.append("%s: FRR %s, DUT's kernel %s" % (p, sorted(frr), sorted(dut)))
        return "\n".join(bad) or None
    lab.expect("IPv%d multipath sets equal to FRR's %s" % (version, what), compare,
               lambda r: r, timeout=40, needs=NEEDS)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("version", [4, 6])
def test_ecmp_same_as_frr(lab, version):
    # Not vacuous: the designed table has these prefixes, two of them with two next hops.
    assert all(p in INITIAL[version] for p in SHARED[version])
    expect_same_as_frr(lab, version, "after the initial load")


@pytest.mark.timeout(120)
def test_maximum_paths_live(lab):
    """maximum-paths 1 from vtysh: every route has its best path's next hop only; and back."""
    af = ("address-family ipv4 unicast", "maximum-paths 1", "exit-address-family",
          "address-family ipv6 unicast", "maximum-paths 1", "exit-address-family")
    configure(lab["dut"], "router bgp 65000", *af)
    configure(lab["ref"], "router bgp 65000", *af)
    for version in (4, 6):
        routes = lab["dut"].vtysh_json("show bgp %s unicast json" % AFI[version])["routes"]
        single = {}
        for p, hops in INITIAL[version].items():
            best = [x for x in routes[p] if x.get("bestpath")]
            single[p] = {resolve(kit.global_nexthop(best[0]))} if len(hops) > 1 else hops
        expect_fib(lab, version, single, "with maximum-paths 1", maxpaths=1)

        def frr_single():
            ref = lab["ref"].vtysh_json("show bgp %s unicast json" % AFI[version])
            sizes = {p: len(kit.frr_multipath_set(ref, p)) for p in SHARED[version]}
            return None if set(sizes.values()) == {1} else "FRR's sets: %s" % sizes
        lab.expect("FRR with maximum-paths 1", frr_single, lambda r: r, timeout=30)
    no_af = [x.replace("maximum-paths 1", "no maximum-paths") for x in af]
    configure(lab["dut"], "router bgp 65000", *no_af)
    configure(lab["ref"], "router bgp 65000", *no_af)
    for version in (4, 6):
        expect_fib(lab, version, INITIAL[version], "after no maximum-paths")


@pytest.mark.timeout(120)
def test_withdrawals(lab):
    for version in (4, 6):
        lines = ["no network %s" % p for p in WITHDRAWN_E1[version]]
        configure(lab["e1"], "router bgp 65010", "address-family %s unicast" % AFI[version],
                  *lines)
        lines = ["no network %s" % p for p in WITHDRAWN_IB[version]]
        if lines:
            configure(lab["ib"], "router bgp 65000",
                      "address-family %s unicast" % AFI[version], *lines)
    for version in (4, 6):
        expect_fib(lab, version, AFTER_WITHDRAWALS[version], "after withdrawals")
    for version in (4, 6):
        expect_same_as_frr(lab, version, "after withdrawals")


def nexthop_state(lab, version):
    """skua's `show bgp nexthop json` entry for ib's next hop ({} when not tracked)."""
    data = lab["dut"].vtysh_json("show bgp nexthop json")
    return data.get(AFI[version], {}).get(IB_NEXTHOP[version]) or {}


@pytest.mark.timeout(150)
def test_nexthop_failure(lab):
    """rt's end of the link goes down: the DUT's to-rt has no carrier, ib's next hops are
    unreachable; then it comes back."""
    rt = lab.namespaces["rt"]
    for version in (4, 6):
        assert nexthop_state(lab, version).get("valid"), nexthop_state(lab, version)
    rt.ip("link", "set", "to-dut", "down")
    try:
        link = lab.namespaces["dut"].ip("link", "show", "to-rt")
        assert "NO-CARRIER" in link, link
        for version in (4, 6):
            expect_fib(lab, version, NEXTHOP_LOST[version], "after the next hop's link died")
            nh = nexthop_state(lab, version)
            assert nh and nh.get("valid") is False, nh
            routes = lab["dut"].vtysh_json("show bgp %s unicast json" % AFI[version])["routes"]
            ib_paths = [(p, x) for p, paths in routes.items() for x in paths
                        if kit.global_nexthop(x) == IB_NEXTHOP[version]]
            assert ib_paths, "ib's paths are gone from the BGP table: %s" % routes
            assert not [p for p, x in ib_paths if x.get("valid") or x.get("bestpath")], \
                ib_paths
        # The sessions with ib run over their own link and stay up all along.
        lab.wait_established("dut", ["192.0.2.66", "2001:db8:0:2::2"], timeout=5)
    finally:
        rt.ip("link", "set", "to-dut", "up")
    for version in (4, 6):
        expect_fib(lab, version, AFTER_WITHDRAWALS[version], "after the link came back")
        assert nexthop_state(lab, version).get("valid"), nexthop_state(lab, version)


E_PEERS = ["192.0.2.11", "192.0.2.12", "2001:db8:0:1::11", "2001:db8:0:1::12"]


def fib_counts(lab):
    """(routes the kernel holds, routes `show bgp fib json` counts) per family."""
    st = lab["dut"].vtysh_json("show bgp fib json")
    out = {}
    for version in (4, 6):
        kernel, _ = kit.kernel_routes(lab.namespaces["dut"], version, 254)
        out[version] = (len(kernel), st.get("ipv%dRoutes" % version))
    return out


@pytest.mark.timeout(150)
def test_session_loss(lab):
    """e1's and e2's sessions go: their routes leave the kernel, none left behind."""
    configure(lab["dut"], "router bgp 65000", *["neighbor %s shutdown" % a for a in E_PEERS])
    try:
        for version in (4, 6):
            lab.expect("IPv%d FIB after e1 and e2 went" % version,
                       fib_matches(lab, version, SESSIONS_LOST[version]), lambda r: r,
                       timeout=40)
        want = {v: (len(SESSIONS_LOST[v]), len(SESSIONS_LOST[v])) for v in (4, 6)}
        lab.expect("show bgp fib counting what the kernel holds", lambda: fib_counts(lab),
                   lambda r: None if r == want else "kernel, show bgp fib: %s, want %s"
                   % (r, want), timeout=10)
        # e1's and e2's nexthop objects went with their last routes: rt's are left.
        ns = lab.namespaces["dut"]
        lab.expect("nexthop objects used by the routes left", lambda: (
            kit.nexthop_objects_problems(ns), kit.nexthop_object_count(ns)),
            lambda r: None if r == (None, 2) else "problems, objects: %s" % (r,), timeout=10)
        lab.expect("show bgp fib counting rt's 2 nexthop objects and their routes",
                   lambda: lab["dut"].vtysh_json("show bgp fib json")["nexthopObjects"],
                   {"used": True, "objects": 2,
                    "routes": len(SESSIONS_LOST[4]) + len(SESSIONS_LOST[6])}, timeout=10)
    finally:
        configure(lab["dut"], "router bgp 65000",
                  *["no neighbor %s shutdown" % a for a in E_PEERS])
    lab.wait_established("dut", SESSIONS["dut"], timeout=60)
    for version in (4, 6):
        expect_fib(lab, version, AFTER_WITHDRAWALS[version], "after e1 and e2 came back")
