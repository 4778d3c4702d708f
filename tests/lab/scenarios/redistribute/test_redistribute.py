# SPDX-License-Identifier: ISC
"""`redistribute connected` and `redistribute kernel route-map`: skua brings the kernel's routes
into BGP as FRR (with zebra) does.

Two copies of one set-up: a source router (AS 65001) with a stub network towards a host, two
kernel routes through that host (`ip route add`, protocol boot: FRR's "kernel" routes), and an
eBGP sink (FRR, AS 65009). Copy A's source (sa) is skua, copy B's (fa) is FRR 8.4 with zebra,
on the same configuration text. What is shown:
  - the sinks receive the same routes with the same attributes (origin incomplete, MED, AS
    path, next hop) in both families: the networks of both links, the kernel route the
    route-map permits (MED 50 set by it), not the one it denies, no IPv6 link-local network;
  - a kernel route added at run time is announced, and withdrawn when deleted, by both;
  - when the stub link loses carrier (the host's end goes down), both withdraw its network
    (and keep the kernel route through it, which the kernel keeps), and announce it again
    when it comes back;
  - skua's `redistribute static` brings in routes of protocol static (skua only: FRR means its
    staticd's routes by that word);
  - the configuration prints back as written.
"""

import pytest

CONVERGE = 60
COPIES = {"sa": "ka", "fa": "kb"}  # source -> its sink
HOSTS = {"sa": "ha", "fa": "hb"}
SOURCE_V4 = "192.0.2.1"
SOURCE_V6 = "2001:db8:0:1::1"


def table(lab, sink, family):
    """What `sink` holds: {prefix: (origin, med, aspath, nexthop)} for every route."""
    d = lab[sink].vtysh_json("show bgp %s unicast json" % family)
    out = {}
    for pfx, paths in d.get("routes", {}).items():
        best = [p for p in paths if p.get("bestpath")] or paths
        p = best[0]
        nh = [n.get("ip") for n in p.get("nexthops", []) if n.get("scope") != "link-local"]
        out[pfx] = (p.get("origin"), p.get("metric"), p.get("path"), nh[:1])
    return out


def expect_table(lab, sink, family, want, what):
    def check(got):
        return None if got == want else "expected %s\n got %s" % (sorted(want.items()),
                                                                   sorted(got.items()))
    lab.expect("%s: %s (%s)" % (sink, what, family), lambda: table(lab, sink, family), check,
               timeout=lab.budget("routes", CONVERGE))


def v4(extra=(), gone=()):
    """The IPv4 table a sink should hold."""
    t = {"192.0.2.0/30": ("incomplete", 0, "65001", [SOURCE_V4]),
         "198.51.100.0/26": ("incomplete", 0, "65001", [SOURCE_V4]),
         "203.0.113.0/25": ("incomplete", 50, "65001", [SOURCE_V4])}
    for p in extra:
        t[p] = ("incomplete", 50, "65001", [SOURCE_V4])
    return {p: v for p, v in t.items() if p not in gone}


def v6(gone=()):
    t = {"2001:db8:0:1::/64": ("incomplete", 0, "65001", [SOURCE_V6]),
         "2001:db8:10::/64": ("incomplete", 0, "65001", [SOURCE_V6])}
    return {p: v for p, v in t.items() if p not in gone}


def sh(lab, router, *argv):
    lab.namespaces[router].exec(list(argv))


@pytest.mark.timeout(150)
def test_sessions(lab):
    lab.wait_all_established({"ka": [SOURCE_V4, SOURCE_V6], "kb": [SOURCE_V4, SOURCE_V6]},
                             timeout=90)


@pytest.mark.timeout(200)
@pytest.mark.parametrize("source", sorted(COPIES))
def test_initial_tables(lab, source):
    """The networks of both links and the permitted kernel route; FRR's sink (kb) is held to
    the same expectation as skua's (ka), so any difference between the two fails one."""
    sink = COPIES[source]
    expect_table(lab, sink, "ipv4", v4(), "connected + kernel via route-map")
    expect_table(lab, sink, "ipv6", v6(), "connected")


@pytest.mark.timeout(200)
def test_same_tables(lab):
    """Field by field, both sinks hold the same."""
    for family in ("ipv4", "ipv6"):
        lab.expect("ka and kb agree (%s)" % family,
                   lambda: (table(lab, "ka", family), table(lab, "kb", family)),
                   lambda t: None if t[0] == t[1] else "skua's sink %s\n FRR's sink %s" % t,
                   timeout=lab.budget("routes", CONVERGE))


@pytest.mark.timeout(240)
def test_kernel_route_added_and_removed(lab):
    for source in COPIES:
        sh(lab, source, "ip", "route", "add", "203.0.113.128/26", "via", "198.51.100.2")
        sh(lab, source, "ip", "route", "add", "203.0.113.192/27", "via", "198.51.100.2")
    for source, sink in COPIES.items():
        # The /27 is longer than the prefix list's le 26: denied.
        expect_table(lab, sink, "ipv4", v4(extra=["203.0.113.128/26"]), "kernel route added")
    for source in COPIES:
        sh(lab, source, "ip", "route", "del", "203.0.113.128/26")
        sh(lab, source, "ip", "route", "del", "203.0.113.192/27")
    for source, sink in COPIES.items():
        expect_table(lab, sink, "ipv4", v4(), "kernel route removed")


@pytest.mark.timeout(240)
def test_carrier_loss(lab):
    """The host's end goes down: the stub network goes; the kernel route through it stays
    (the kernel keeps it, flagged linkdown, and so does zebra)."""
    for source, host in HOSTS.items():
        sh(lab, host, "ip", "link", "set", "to-%s" % source, "down")
    for source, sink in COPIES.items():
        expect_table(lab, sink, "ipv4", v4(gone=["198.51.100.0/26"]),
                     "stub link without carrier")
        expect_table(lab, sink, "ipv6", v6(gone=["2001:db8:10::/64"]),
                     "stub link without carrier")
    for source, host in HOSTS.items():
        sh(lab, host, "ip", "link", "set", "to-%s" % source, "up")
    for source, sink in COPIES.items():
        expect_table(lab, sink, "ipv4", v4(), "stub link back")
        expect_table(lab, sink, "ipv6", v6(), "stub link back")


@pytest.mark.timeout(200)
def test_redistribute_static_skua(lab):
    """Protocol-static kernel routes with `redistribute static metric 7` (skua's meaning)."""
    sh(lab, "sa", "ip", "route", "add", "198.51.100.128/27", "via", "198.51.100.2", "proto",
       "static")
    try:
        lab["sa"].vtysh("configure terminal", "router bgp 65001", "address-family ipv4 unicast",
                        "redistribute static metric 7")
        want = dict(v4(), **{"198.51.100.128/27": ("incomplete", 7, "65001", [SOURCE_V4])})
        expect_table(lab, "ka", "ipv4", want, "redistribute static")
        lab["sa"].vtysh("configure terminal", "router bgp 65001", "address-family ipv4 unicast",
                        "no redistribute static")
        expect_table(lab, "ka", "ipv4", v4(), "no redistribute static")
    finally:
        sh(lab, "sa", "ip", "route", "del", "198.51.100.128/27")


@pytest.mark.timeout(60)
def test_running_config(lab):
    text = lab["sa"].vtysh("show running-config")
    for line in ("  redistribute kernel route-map FROM-KERNEL", "  redistribute connected"):
        assert line + "\n" in text, text
    # FRR's order: kernel before connected, as written.
    assert text.index("redistribute kernel") < text.index("redistribute connected"), text
