# SPDX-License-Identifier: ISC
"""The kernel FIB over a bgpd's life: another table, stale routes, retain, --no-fib.

    src (FRR, AS 65010) -- lan -- d100  (skua: bgp fib table 100, bgp fib retain)
                              +-- nofib (skua: bgpd --no-fib, topology key fib = false)

1. --no-fib: nofib learns and selects src's routes, and no table of its namespace holds a
   `proto bgp` route; `show bgp fib` says off, next hops are not tracked.
2. Before d100 starts, the test plants routes in its namespace: `proto bgp` ones in table 100
   (one for a prefix bgpd will install, with a wrong gateway, and two it will not), a
   `proto static` one in table 100 and a `proto bgp` one in the main table.  Once d100 is up,
   table 100 holds exactly its best routes (the planted bgp ones gone or replaced), the static
   route is untouched; the main table, which d100 does not use, keeps its route and gets
   nothing from d100, and purgedAtStart counts exactly the planted table-100 routes.
3. `bgp fib retain`: d100 stops, its routes stay in table 100.  While it is down src withdraws
   a prefix per family; the restarted d100 flushes what it left and installs the current best
   routes: the withdrawn prefixes do not survive the restart.
4. `no bgp fib retain` and `bgp fib table 101` live: the routes move, table 100 is emptied.
5. `no bgp fib install` live empties table 101, `bgp fib install` fills it again.
6. A clean shutdown without retain removes them from table 101, and their nexthop objects.
Throughout, the routes refer to skua's nexthop objects, none of which is left unused.

skua only: the FRR stand-in (SKUALAB_STANDIN=frr) installs nothing.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fib_kit as kit  # noqa: E402

SRC4, SRC6 = ("192.0.2.11", "lan"), ("2001:db8:0:1::11", "lan")
ROUTES = {4: {"198.51.100.0/28": {SRC4}, "198.51.100.16/28": {SRC4},
              "198.51.100.32/28": {SRC4}},
          6: {"2001:db8:100::/48": {SRC6}, "2001:db8:101::/48": {SRC6}}}
WITHDRAWN = {4: "198.51.100.32/28", 6: "2001:db8:101::/48"}
AFI = {4: "ipv4", 6: "ipv6"}
SRC = {"ipv4": "192.0.2.11", "ipv6": "2001:db8:0:1::11"}
# Planted in d100's namespace before it starts: (ip arguments, what bgpd must do with it).
STALE = [
    (["-4", "route", "add", "198.51.100.0/28", "via", "192.0.2.3", "dev", "lan", "proto",
      "bgp", "metric", "20", "table", "100"], "replaced"),
    (["-4", "route", "add", "198.51.100.128/28", "via", "192.0.2.11", "dev", "lan", "proto",
      "bgp", "metric", "20", "table", "100"], "removed"),
    (["-6", "route", "add", "2001:db8:900::/48", "via", "2001:db8:0:1::11", "dev", "lan",
      "proto", "bgp", "metric", "20", "table", "100"], "removed"),
]
OTHERS = [  # must stay: not BGP's, or not in bgpd's table
    (4, "100", "static", ["-4", "route", "add", "198.51.100.144/28", "via", "192.0.2.11",
                          "dev", "lan", "proto", "static", "table", "100"]),
    (4, "254", "bgp", ["-4", "route", "add", "198.51.100.160/28", "via", "192.0.2.11", "dev",
                       "lan", "proto", "bgp", "metric", "20"]),
]


def lan(ip):
    return (ip, "lan")


def designed(version, without=()):
    return {kit.norm(p): frozenset(h) for p, h in ROUTES[version].items() if p not in without}


def table_is(lab, router, version, table, want, show=True):
    """Checker: the kernel's proto bgp routes of `table` are `want` (and, with show, equal to
    the router's `show ip route json` and to the FIB its BGP table calls for)."""
    def check():
        kernel, wrong = kit.kernel_routes(lab.namespaces[router], version, table)
        views = {"designed": want, "kernel": kernel}
        if show:
            views["show route"] = kit.shown_routes(lab[router], version)
            views["bgp table"] = kit.model_fib(lab[router].vtysh_json(
                "show bgp %s unicast json" % AFI[version]), lan)[0]
        msg = kit.diff(views)
        return msg or (wrong and "metrics: %s" % wrong) or None
    return check


def expect_table(lab, router, version, table, want, what, show=True, timeout=40):
    lab.expect("%s IPv%d table %s %s" % (router, version, table, what),
               table_is(lab, router, version, table, want, show), lambda r: r,
               timeout=timeout)


def other_routes_present(lab, tables=("100", "254")):
    missing = []
    for version, table, proto, args in OTHERS:
        if table not in tables:
            continue
        out = lab.namespaces["d100"].ip("-%d" % version, "route", "show", "table", table,
                                        "proto", proto)
        if args[3] not in out:
            missing.append("%s (table %s, proto %s)" % (args[3], table, proto))
    return missing


@pytest.mark.timeout(90)
def test_nofib_installs_nothing(lab):
    nofib = lab["nofib"]
    lab.wait_established("nofib", list(SRC.values()), timeout=60)
    for version in (4, 6):
        lab.expect("nofib selects src's IPv%d routes" % version,
                   lambda: nofib.vtysh_json("show bgp %s unicast json" % AFI[version]),
                   {"routes": {p: [{"valid": True, "bestpath": True}]
                               for p in ROUTES[version]}}, timeout=30)
        out = lab.namespaces["nofib"].ip("-%d" % version, "route", "show", "table", "all",
                                         "proto", "bgp")
        assert out.strip() == "", out
        assert nofib.vtysh_json("show %s route json"
                                % ("ip" if version == 4 else "ipv6")) == {}
    st = nofib.vtysh_json("show bgp fib json")
    assert not st["enabled"] and not st["installing"], st
    assert st["installs"] == 0 and st["netlinkMessages"] == 0, st
    assert nofib.vtysh_json("show bgp nexthop json")["tracking"] is False


@pytest.mark.timeout(120)
def test_stale_routes_flushed_at_start(lab):
    ns = lab.namespaces["d100"]
    for args, _ in STALE:
        ns.ip(*args)
    for _, _, _, args in OTHERS:
        ns.ip(*args)
    before, _ = kit.kernel_routes(ns, 4, 100)
    assert kit.norm("198.51.100.128/28") in before, before  # planted, before bgpd runs
    lab.start_router("d100")
    lab.wait_established("d100", list(SRC.values()), timeout=60)
    for version in (4, 6):
        expect_table(lab, "d100", version, 100, designed(version), "after start")
    assert other_routes_present(lab, ["100"]) == []
    st = lab["d100"].vtysh_json("show bgp fib json")
    assert st["table"] == 100 and st["retain"] and st["installing"], st


@pytest.mark.timeout(30)
def test_main_table_untouched(lab):
    """bgpd configured for table 100 neither installs into nor flushes the main table."""
    ns = lab.namespaces["d100"]
    assert other_routes_present(lab, ["254"]) == []
    st = lab["d100"].vtysh_json("show bgp fib json")
    assert st["purgedAtStart"] == len(STALE), st
    main, _ = kit.kernel_routes(ns, 4, 254)
    assert set(main) == {kit.norm("198.51.100.160/28")}, main
    main6, _ = kit.kernel_routes(ns, 6, 254)
    assert main6 == {}, main6


@pytest.mark.timeout(150)
def test_retain_across_restart(lab):
    ns = lab.namespaces["d100"]
    lab.stop_router("d100")
    for version in (4, 6):
        kernel, _ = kit.kernel_routes(ns, version, 100)
        assert kernel == designed(version), "retained IPv%d routes: %s" % (version, kernel)
    # While d100 is down, src withdraws one prefix per family.
    for version in (4, 6):
        lab["src"].vtysh("configure terminal", "router bgp 65010",
                         "address-family %s unicast" % AFI[version],
                         "no network %s" % WITHDRAWN[version])
    lab.start_router("d100")
    lab.wait_established("d100", list(SRC.values()), timeout=60)
    for version in (4, 6):
        expect_table(lab, "d100", version, 100, designed(version, [WITHDRAWN[version]]),
                     "after a restart")
    st = lab["d100"].vtysh_json("show bgp fib json")
    assert st["purgedAtStart"] == len(ROUTES[4]) + len(ROUTES[6]), st
    assert other_routes_present(lab, ["100"]) == []
    # The earlier run's nexthop objects: those still wanted reused, none left unused.
    assert kit.nexthop_objects_problems(ns, [100]) is None, kit.nexthop_objects_problems(ns,
                                                                                      [100])


@pytest.mark.timeout(90)
def test_table_moved_live(lab):
    lab["d100"].vtysh("configure terminal", "router bgp 65000", "no bgp fib retain",
                      "bgp fib table 101")
    for version in (4, 6):
        want = designed(version, [WITHDRAWN[version]])
        expect_table(lab, "d100", version, 101, want, "after the move")
        expect_table(lab, "d100", version, 100, {}, "after the move", show=False)
    st = lab["d100"].vtysh_json("show bgp fib json")
    assert st["table"] == 101 and not st["retain"], st
    ns = lab.namespaces["d100"]
    assert kit.nexthop_objects_problems(ns, [100, 101]) is None, \
        kit.nexthop_objects_problems(ns, [100, 101])
    assert other_routes_present(lab, ["100"]) == []


@pytest.mark.timeout(90)
def test_fib_install_switched_live(lab):
    """`no bgp fib install` (the config statement for --no-fib) empties the table and stops
    tracking next hops; `bgp fib install` puts the routes back."""
    d100 = lab["d100"]
    d100.vtysh("configure terminal", "router bgp 65000", "no bgp fib install")
    for version in (4, 6):
        expect_table(lab, "d100", version, 101, {}, "after no bgp fib install", show=False)
    st = d100.vtysh_json("show bgp fib json")
    assert st["enabled"] and not st["installing"], st
    assert d100.vtysh_json("show bgp nexthop json")["tracking"] is False
    d100.vtysh("configure terminal", "router bgp 65000", "bgp fib install")
    for version in (4, 6):
        expect_table(lab, "d100", version, 101, designed(version, [WITHDRAWN[version]]),
                     "after bgp fib install")


@pytest.mark.timeout(60)
def test_clean_shutdown_removes_routes(lab):
    ns = lab.namespaces["d100"]
    before, _ = kit.kernel_routes(ns, 4, 101)
    assert before, "nothing installed in table 101 before the shutdown"
    lab.stop_router("d100")
    for version in (4, 6):
        kernel, _ = kit.kernel_routes(ns, version, 101)
        assert kernel == {}, kernel
    assert other_routes_present(lab, ["100"]) == []
    assert kit.nexthop_object_count(ns) == 0, ns.exec(["ip", "nexthop", "show"])
