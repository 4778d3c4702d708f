# SPDX-License-Identifier: ISC
"""skua's show output line by line as FRR 8.4 prints it on the same state (issue 14, item 4).

dut (AS 65000, router-id 192.0.2.1) originates 198.51.100.0/28 and learns 203.0.113.0/26 (MED
20, community 65001:100, large community 65001:1:2) and 203.0.113.64/26 from p (FRR, AS 65001)
over IPv4 only. The expected texts below are what FRR 8.4.4's bgpd printed as dut in this very
scenario (SKUALAB_STANDIN=frr runs it and must pass: that proves the texts are FRR's). Only
what differs between any two runs is masked before the comparison: counters of messages,
memory, times and the peer's table version.

What drifted before: the summary's title and router-identifier line, the route table's
legend ("u unsorted"), column header and five-character status prefix, "Displayed  N routes"
and the detail view's "Advertised to non peer-group peers:"; in `show bgp neighbors X`, the
IPv6 next hops of an IPv4 session (`::` where FRR shows the interface's), "BGP connection:",
route refresh's codes, "N accepted, M sent prefixes" and a blank line after the counters.
"""

import difflib
import os
import re

import pytest

from skualab.netns import run

P = "192.0.2.2"
SETTLE = 30  # seconds for p's two routes to reach dut

SUMMARY_BODY = """\
BGP router identifier 192.0.2.1, local AS number 65000 vrf-id 0
BGP table version 3
RIB entries #, using # of memory
Peers 1, using # of memory

Neighbor        V         AS   MsgRcvd   MsgSent   TblVer  InQ OutQ  Up/Down State/PfxRcd   PfxSnt Desc
192.0.2.2       4      65001         #         #        #    0    0 ########            2        # N/A

Total number of neighbors 1
"""

SUMMARY_WIDE = SUMMARY_BODY.replace(
    "V         AS   MsgRcvd", "V         AS    LocalAS   MsgRcvd").replace(
    "4      65001         #", "4      65001      65000         #")

# `show bgp summary` and `show ip bgp summary` title each family; `show bgp ipv4 unicast
# summary` names one and prints no title.
SUMMARY_TITLED = "\nIPv4 Unicast Summary (VRF default):\n" + SUMMARY_BODY

TABLE = """\
BGP table version is 3, local router ID is 192.0.2.1, vrf id 0
Default local pref 100, local AS 65000
Status codes:  s suppressed, d damped, h history, * valid, > best, = multipath,
               i internal, r RIB-failure, S Stale, R Removed
Nexthop codes: @NNN nexthop's vrf id, < announce-nh-self
Origin codes:  i - IGP, e - EGP, ? - incomplete
RPKI validation codes: V valid, I invalid, N Not found

   Network          Next Hop            Metric LocPrf Weight Path
*> 198.51.100.0/28  0.0.0.0                  0         32768 i
*> 203.0.113.0/26   192.0.2.2               20             0 65001 i
*> 203.0.113.64/26  192.0.2.2                0             0 65001 i

Displayed  3 routes and 3 total paths
"""

LOCAL_DETAIL = """\
BGP routing table entry for 198.51.100.0/28, version 1
Paths: (1 available, best #1, table default)
  Advertised to non peer-group peers:
  192.0.2.2
  Local
    0.0.0.0 from 0.0.0.0 (192.0.2.1)
      Origin IGP, metric 0, weight 32768, valid, sourced, local, best (First path received)
      Last update: #
"""

# The paths' lines of p's route (FRR also advertises it back to p, skua does not send a route
# to the peer it came from: the "Advertised to" lines differ by design and are not compared).
LEARNED_DETAIL_PATH = """\
  65001
    192.0.2.2 from 192.0.2.2 (192.0.2.2)
      Origin IGP, metric 20, valid, external, best (First path received)
      Community: 65001:100
      Extended Community: RT:65001:7 SoO:65001:3 LB:65001:12500000 (100.000 Mbps) RT:192.0.2.2:9
      Large Community: 65001:1:2
      Last update: #
"""

# The summary row: message counters, the peer's table version, the time up and the prefixes
# sent (see LEARNED_DETAIL_PATH) change from run to run; every other column is compared,
# widths included.
ROW = re.compile(r"^(192\.0\.2\.2 +4 +65001 +(?:65000 +)?)(\d+)( +)(\d+)( +)(\d+)( +0 +0 )(\S+)( +2 +)(\d+)( N/A)$")
MASKS = [(re.compile(r"^(RIB entries )\d+(, using ).*( of memory)$"), r"\1#\2#\3"),
         (re.compile(r"^(Peers \d+, using ).*( of memory)$"), r"\1#\2"),
         (re.compile(r"^(      Last update: ).*$"), r"\1#")]


def hashes(m):
    return "#" * len(m)


def normalize(text):
    out = []
    for line in text.split("\n"):
        m = ROW.match(line)
        if m:
            g = list(m.groups())
            for i in (1, 3, 5, 7, 9):
                g[i] = hashes(g[i])
            line = "".join(g)
        for rx, rep in MASKS:
            line = rx.sub(rep, line)
        out.append(line)
    return "\n".join(out)


def same(cmd, got, want):
    got = normalize(got)
    assert got == want, "%s differs from FRR 8.4's output:\n%s" % (cmd, "\n".join(
        difflib.unified_diff(want.split("\n"), got.split("\n"), "FRR 8.4", "dut", lineterm="")))


@pytest.fixture(scope="module")
def dut(lab):
    lab.wait_established("dut", [P], timeout=60)
    lab.expect("dut has p's two routes", lambda: sorted(lab["dut"].routes()),
               ["198.51.100.0/28", "203.0.113.0/26", "203.0.113.64/26"], timeout=SETTLE)
    return lab["dut"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("cmd,want", [("show bgp summary", SUMMARY_TITLED),
                                      ("show ip bgp summary", SUMMARY_TITLED),
                                      ("show bgp ipv4 unicast summary", SUMMARY_BODY),
                                      ("show bgp ipv4 unicast summary wide", SUMMARY_WIDE),
                                      ("show ip bgp summary wide", "\nIPv4 Unicast Summary "
                                       "(VRF default):\n" + SUMMARY_WIDE)],
                         ids=["bgp", "ip-bgp", "bgp-ipv4-unicast", "wide", "ip-bgp-wide"])
def test_summary(dut, cmd, want):
    same(cmd, dut.vtysh(cmd), want)


@pytest.mark.timeout(60)
def test_summary_wide_json(dut):
    """FRR's `wide` JSON is the plain summary's, localAs included."""
    got = dut.vtysh_json("show bgp ipv4 unicast summary wide json")
    assert got["peers"][P]["localAs"] == 65000 and got["peers"][P]["remoteAs"] == 65001, got
    assert got.keys() == dut.vtysh_json("show bgp ipv4 unicast summary json").keys()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show ip bgp", "show bgp ipv4 unicast", "show bgp ipv4"])
def test_route_table(dut, cmd):
    same(cmd, dut.vtysh(cmd), TABLE)


@pytest.mark.timeout(60)
def test_route_detail(dut):
    same("show bgp ipv4 unicast 198.51.100.0/28",
         dut.vtysh("show bgp ipv4 unicast 198.51.100.0/28"), LOCAL_DETAIL)
    got = normalize(dut.vtysh("show ip bgp 203.0.113.0/26"))
    assert got.startswith("BGP routing table entry for 203.0.113.0/26, version 3\n"
                          "Paths: (1 available, best #1, table default)\n"), got
    assert got.endswith("\n" + LEARNED_DETAIL_PATH), got


# ---- filtered tables and the other spellings of the table (issue 14, item 3) ----

HEADER = TABLE[:TABLE.index("*> ")]
ROWS = {"198.51.100.0/28": "*> 198.51.100.0/28  0.0.0.0                  0         32768 i\n",
        "203.0.113.0/26": "*> 203.0.113.0/26   192.0.2.2               20             0 65001 i\n",
        "203.0.113.64/26": "*> 203.0.113.64/26  192.0.2.2                0             0 65001 i\n"}

# What FRR 8.4 shows for each filter: the rows of the matching routes, then "Displayed  N
# routes and 3 total paths" (every path of the table counts in the total, shown or not);
# nothing at all when no route matches. FRR 8.4 takes one community at a time.
FILTERS = {
    "regexp ^65001$": ["203.0.113.0/26", "203.0.113.64/26"],
    "regexp _65001_": ["203.0.113.0/26", "203.0.113.64/26"],
    "regexp ^$": ["198.51.100.0/28"],
    "community 65001:100": ["203.0.113.0/26"],
    "community 65001:100 exact-match": ["203.0.113.0/26"],
    "community 65001:200": [],
    "community": ["203.0.113.0/26"],
    "large-community 65001:1:2": ["203.0.113.0/26"],
    "large-community 65001:1:2 exact-match": ["203.0.113.0/26"],
    "large-community 65001:1:3": [],
    "large-community": ["203.0.113.0/26"],
    "203.0.113.0/24 longer-prefixes": ["203.0.113.0/26", "203.0.113.64/26"],
    "203.0.113.64/26 longer-prefixes": ["203.0.113.64/26"],
    "198.51.100.0/24 longer-prefixes": ["198.51.100.0/28"],
    "192.0.2.0/24 longer-prefixes": [],
}
# FRR's keys of a route table in JSON, in its order.
TABLE_KEYS = ["vrfId", "vrfName", "tableVersion", "routerId", "defaultLocPrf", "localAS", "routes"]


def filtered(prefixes):
    if not prefixes:
        return ""
    return (HEADER + "".join(ROWS[p] for p in prefixes)
            + "\nDisplayed  %d routes and 3 total paths\n" % len(prefixes))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("family", ["show ip bgp", "show bgp ipv4 unicast", "show ip bgp ipv4 unicast"])
@pytest.mark.parametrize("what", sorted(FILTERS))
def test_filtered_table(dut, family, what):
    cmd = "%s %s" % (family, what)
    same(cmd, dut.vtysh(cmd), filtered(FILTERS[what]))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("what", sorted(FILTERS))
def test_filtered_table_json(dut, what):
    """The same routes, under FRR's keys, as the whole table shows them."""
    whole = dut.vtysh_json("show ip bgp json")
    got = dut.vtysh_json("show ip bgp %s json" % what)
    assert [k for k in TABLE_KEYS if k in got] == TABLE_KEYS, got
    assert got["routes"] == {p: whole["routes"][p] for p in FILTERS[what]}, got


@pytest.mark.timeout(60)
def test_table_spellings(dut):
    """`show ip bgp ipv4 unicast` is the IPv4 table; bare `show bgp` is FRR's IPv6 one."""
    same("show ip bgp ipv4 unicast", dut.vtysh("show ip bgp ipv4 unicast"), TABLE)
    assert dut.vtysh("show bgp") == "No BGP prefixes displayed, 0 exist\n"
    assert dut.vtysh_json("show bgp json")["routes"] == {}
    assert dut.vtysh_json("show ip bgp ipv4 unicast json")["routes"].keys() == ROWS.keys()
    # FRR 8.4's keys in its order; skua adds only newer FRR's totalRoutes and totalPaths.
    for cmd in ("show bgp json", "show ip bgp ipv4 unicast json"):
        got = dut.vtysh_json(cmd)
        assert [k for k in got if k not in ("totalRoutes", "totalPaths")] == TABLE_KEYS, got
    assert dut.vtysh_json("show ip bgp ipv4 unicast json")["routes"] == \
        dut.vtysh_json("show ip bgp json")["routes"]


@pytest.mark.timeout(60)
@pytest.mark.skipif(os.environ.get("SKUALAB_STANDIN") == "frr", reason="skua's own messages")
@pytest.mark.parametrize("what,says", [
    ("regexp (65001", "% Invalid regular expression (65001: "),
    ("community 65001:x", "% Community malformed: 65001:x (write AA:NN or a well-known name)"),
    ("large-community 1:2", "% Large community malformed: 1:2 (write GLOBAL:LOCAL1:LOCAL2)"),
    ("community 65001:100 65001:200", "% One community at a time (FRR's syntax)"),
])
def test_filter_errors(dut, what, says):
    """A filter that cannot be used is refused with what is wrong and what to write."""
    out = run(dut.vtysh_argv(["show ip bgp " + what]), check=False)
    assert says in out, out


PREFIX_COUNTS = """\
Prefix counts for 192.0.2.2, IPv4 Unicast
PfxCt: 2

Counts from RIB table walk:

              Adj-in: 0         
              Damped: 0         
             Removed: 0         
             History: 0         
               Stale: 0         
               Valid: 2         
             All RIB: 2         
       PfxCt counted: 2         
 PfxCt Best Selected: 2         
             Useable: 2         
"""

PREFIX_COUNTS_JSON = {
    "prefixCountsFor": P, "multiProtocol": "ipv4Unicast", "pfxCounter": 2,
    "ribTableWalkCounters": {"Adj-in": 0, "Damped": 0, "Removed": 0, "History": 0, "Stale": 0,
                             "Valid": 2, "All RIB": 2, "PfxCt counted": 2,
                             "PfxCt Best Selected": 2, "Useable": 2}}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("family", ["show ip bgp", "show bgp ipv4 unicast", "show bgp ipv4"])
def test_prefix_counts(dut, family):
    """p's two paths, counted by state as FRR 8.4 counts them, text and JSON."""
    cmd = "%s neighbors %s prefix-counts" % (family, P)
    same(cmd, dut.vtysh(cmd), PREFIX_COUNTS)
    assert dut.vtysh_json(cmd + " json") == PREFIX_COUNTS_JSON


@pytest.mark.timeout(60)
def test_prefix_counts_bare_is_ipv6(dut):
    """Bare `show bgp` is FRR's IPv6 unicast: p has no such family."""
    out = run(dut.vtysh_argv(["show bgp neighbors %s prefix-counts" % P]), check=False)
    assert "% No such neighbor or address family" in out, out
    assert dut.vtysh_json("show bgp neighbors %s prefix-counts json" % P) == {
        "warning": "No such neighbor or address family"}


DETAIL = HEADER + """\
  Local
    0.0.0.0 from 0.0.0.0 (192.0.2.1)
      Origin IGP, metric 0, weight 32768, valid, sourced, local, best (First path received)
      Last update: #
""" + LEARNED_DETAIL_PATH + """\
  65001
    192.0.2.2 from 192.0.2.2 (192.0.2.2)
      Origin IGP, metric 0, valid, external, best (First path received)
      Last update: #

Displayed  3 routes and 3 total paths
"""


def nexthop(ip):
    return [{"ip": ip, "afi": "ipv4", "metric": 0, "accessible": True, "used": True}]


def learned(version, metric, extra=None):
    path = {"aspath": {"string": "65001", "segments": [{"type": "as-sequence", "list": [65001]}],
                       "length": 1},
            "origin": "IGP", "metric": metric, "valid": True, "version": version,
            "bestpath": {"overall": True, "selectionReason": "First path received"}}
    path.update(extra or {})
    path.update({"nexthops": nexthop(P),
                 "peer": {"peerId": P, "routerId": P, "type": "external"}})
    return path


# FRR 8.4's `show ip bgp detail json` on this state, without what FRR's hostname capability
# adds ("hostname"), the times ("lastUpdate") and the advertisedTo of p's routes (FRR sends
# them back to p, skua does not).
DETAIL_JSON_ROUTES = {
    "198.51.100.0/28": [
        {"prefix": "198.51.100.0/28", "version": 1, "advertisedTo": {P: {}}},
        {"aspath": {"string": "Local", "segments": [], "length": 0}, "origin": "IGP",
         "metric": 0, "weight": 32768, "valid": True, "version": 1, "sourced": True,
         "local": True, "bestpath": {"overall": True, "selectionReason": "First path received"},
         "nexthops": nexthop("0.0.0.0"), "peer": {"peerId": "0.0.0.0", "routerId": "192.0.2.1"}}],
    "203.0.113.0/26": [
        {"prefix": "203.0.113.0/26", "version": 3},
        learned(3, 20, {"community": {"string": "65001:100", "list": ["65001:100"]},
                        "extendedCommunity": {"string": "RT:65001:7 SoO:65001:3 LB:65001:12500000 "
                                                        "(100.000 Mbps) RT:192.0.2.2:9"},
                        "largeCommunity": {"string": "65001:1:2", "list": ["65001:1:2"]}})],
    "203.0.113.64/26": [{"prefix": "203.0.113.64/26", "version": 2}, learned(2, 0)],
}


def without(o, keys):
    if isinstance(o, dict):
        return {k: without(v, keys) for k, v in o.items() if k not in keys}
    if isinstance(o, list):
        return [without(x, keys) for x in o]
    return o


@pytest.mark.timeout(60)
def test_detail(dut):
    """`show ip bgp detail`: every path in the detail layout under the table header, as FRR
    8.4 prints it (no entry header per route), text line by line and JSON. (FRR 8.4 takes
    `detail` after `show ip bgp` and `show bgp` only; skua also after a family.)"""
    cmd = "show ip bgp detail"
    same(cmd, dut.vtysh(cmd), DETAIL)
    got = dut.vtysh_json(cmd + " json")
    assert [k for k in TABLE_KEYS if k in got] == TABLE_KEYS, got
    routes = without(got["routes"], ("hostname", "lastUpdate"))
    for p in ("203.0.113.0/26", "203.0.113.64/26"):
        routes[p][0].pop("advertisedTo", None)
    assert routes == DETAIL_JSON_ROUTES, routes
    assert dut.vtysh("show bgp detail") == ""  # FRR's IPv6 table, empty here: nothing
    if os.environ.get("SKUALAB_STANDIN") != "frr":
        same("show bgp ipv4 unicast detail", dut.vtysh("show bgp ipv4 unicast detail"), DETAIL)


STATISTICS = """\
BGP IPv4 Unicast RIB statistics (VRF default)
Total Advertisements          :            3
Total Prefixes                :            3
Average prefix length         :        26.67
Unaggregateable prefixes      :            3
Maximum aggregateable prefixes:            0
BGP Aggregate advertisements  :            0
Address space advertised      :          144
                  % announced :         0.00
                /8 equivalent :         0.00
               /24 equivalent :         0.56

Advertisements with paths     :            3
Longest AS-Path (hops)        :            1
Average AS-Path length (hops) :         0.67
Largest AS-Path (bytes)       :            6
Average AS-Path size (bytes)  :         4.00
Highest public ASN            :            0
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show ip bgp statistics", "show bgp ipv4 statistics",
                                 "show bgp ipv4 unicast statistics"])
def test_statistics(dut, cmd):
    """FRR 8.4's RIB statistics of the IPv4 table: counts, averages, address space (text)."""
    same(cmd, dut.vtysh(cmd), STATISTICS)


STATISTICS_JSON = {"ipv4Unicast": [{
    "instance": "VRF default", "totalAdvertisements": 3, "totalPrefixes": 3,
    "averagePrefixLength": 80 / 3, "unaggregateablePrefixes": 3,
    "maximumAggregateablePrefixes": 0, "bgpAggregateAdvertisements": 0,
    "addressSpaceAdvertised": 144.0, "%announced": 144 * 100 / 2 ** 32,
    "/8equivalent": 144 / 2 ** 24, "/24equivalent": 0.5625, "advertisementsWithPaths": 3,
    "longestAsPath": 1, "averageAsPathLengthHops": 2 / 3, "largestAsPath": 6,
    "averageAsPathSizeBytes": 4.0, "highestPublicAsn": 0,
    "prefixLength": [{"26": 2}, {"28": 1}]}]}


@pytest.mark.timeout(60)
def test_statistics_json(dut):
    """FRR 8.4's keys and values (what FRR printed on this state), in its order."""
    got = dut.vtysh_json("show bgp ipv4 unicast statistics json")
    assert list(got) == ["ipv4Unicast"], got
    assert list(got["ipv4Unicast"][0]) == list(STATISTICS_JSON["ipv4Unicast"][0]), got
    for k, v in STATISTICS_JSON["ipv4Unicast"][0].items():
        assert got["ipv4Unicast"][0][k] == (pytest.approx(v) if isinstance(v, float) else v), k


# ---- show bgp neighbors X (issue 14, item 4) ----

# FRR 8.4's `show bgp neighbors 192.0.2.2` on this state, line by line. {ll} is dut's link-local
# address on the link (random: read from the namespace); # marks what changes from run to run
# (times, message counters, ports, descriptors).
NEIGHBOR = """\
BGP neighbor is 192.0.2.2, remote AS 65001, local AS 65000, external link
  Local Role: undefined
  Remote Role: customer
  BGP version 4, remote router ID 192.0.2.2, local router ID 192.0.2.1
  BGP state = Established, up for #
  Last read #, Last write #
  Hold time is 180 seconds, keepalive interval is 60 seconds
  Configured hold time is 180 seconds, keepalive interval is 60 seconds
  Neighbor capabilities:
    4 Byte AS: advertised and received
    Extended Message: advertised and received
    Role: received
    Route refresh: advertised and received(old & new)
    Enhanced Route Refresh: advertised and received
    Address Family IPv4 Unicast: advertised and received
    Graceful Restart Capability: advertised and received
      Remote Restart timer is 120 seconds
      Address families by peer:
        none
  Graceful restart information:
    End-of-RIB send: IPv4 Unicast
    End-of-RIB received: IPv4 Unicast
    Local GR Mode: Helper*
    Remote GR Mode: Helper
    R bit: True
    N bit: True
    Timers:
      Configured Restart Time(sec): 120
      Received Restart Time(sec): 120
    IPv4 Unicast:
      F bit: False
      End-of-RIB sent: Yes
      End-of-RIB sent after update: #
      End-of-RIB received: Yes
      Timers:
        Configured Stale Path Time(sec): 360
  Message statistics:
    Inq depth is 0
    Outq depth is 0
                         Sent       Rcvd
    Opens:                  1          1
    Notifications:          0          0
    Updates:       #
    Keepalives:    #
    Route Refresh:          0          0
    Capability:             0          0
    Total:         #
  Minimum time between advertisement runs is 0 seconds

 For address family: IPv4 Unicast
  Community attribute sent to this neighbor(all)
  2 accepted prefixes

  Connections established 1; dropped 0
  Last reset #
  External BGP neighbor may be up to 1 hops away.
Local host: 192.0.2.1, Local port: #
Foreign host: 192.0.2.2, Foreign port: 179
Nexthop: 192.0.2.1
Nexthop global: 2001:db8:1::1
Nexthop local: {ll}
BGP connection: shared network
BGP Connect Retry Timer in Seconds: 5
Read thread: on  Write thread: #


"""

# Lines one side prints and the other does not, left out of the comparison:
# - FRR's, for features skua does not have: the hostname capability, AddPath and long-lived
#   graceful restart capabilities, conditional advertisement, update groups.
# - skua's: its GTSM state and the kernel's counters.
NEIGHBOR_ONE_SIDED = re.compile(
    r"^(Hostname: |  Configured conditional advertisements "
    r"|    AddPath:$|      IPv4 Unicast: RX |    Long-lived Graceful Restart: "
    r"|    Hostname Capability: "
    r"|  Update group |  Packet Queue length "
    r"|  TTL security \(GTSM\): |  Kernel counters \(this namespace\): )")
NEIGHBOR_MASKS = [
    (re.compile(r"^(  BGP state = Established, up for ).*$"), r"\1#"),
    (re.compile(r"^(  Last read ).*(, Last write ).*$"), r"\1#\2#"),
    (re.compile(r"^(      End-of-RIB sent after update: ).*$"), r"\1#"),
    (re.compile(r"^(    (?:Updates|Keepalives|Total): +).*$"), lambda m: m.group(1)[:19] + "#"),
    # FRR records a reset ("Waiting for peer OPEN") when its two connections collide at start.
    (re.compile(r"^(  Last reset ).*$"), r"\1#"),
    (re.compile(r"^(Local host: 192\.0\.2\.1, Local port: )\d+$"), r"\1#"),
    (re.compile(r"^(Read thread: on  Write thread: ).*$"), r"\1#"),
]


def neighbor_lines(text):
    out = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        # "Address families by peer:" belongs to LLGR when no "none" follows (GR's has it).
        if line == "      Address families by peer:" and nxt != "        none":
            continue
        if NEIGHBOR_ONE_SIDED.match(line):
            continue
        for rx, rep in NEIGHBOR_MASKS:
            line = rx.sub(rep, line)
        out.append(line)
    return "\n".join(out)


def link_local(node):
    out = node.netns.exec(["ip", "-6", "-o", "addr", "show", "dev", "to-p", "scope", "link"])
    return re.search(r"inet6 (fe80::[0-9a-f:]+)/64", out).group(1)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show bgp neighbors 192.0.2.2", "show ip bgp neighbors 192.0.2.2"])
def test_neighbor(dut, cmd):
    """Every line FRR 8.4 prints for the IPv4 session, in its order. The IPv6 next hops are
    those of the link's interface, global and link-local, as FRR takes them (skua printed
    `::` for both), and the network is shared; route refresh names the codes p sent; the roles
    (RFC 9234) are ours (none) and p's from its Role capability."""
    want = NEIGHBOR.replace("{ll}", link_local(dut))
    same(cmd, neighbor_lines(dut.vtysh(cmd)), want)


# FRR 8.4's keys that skua has no counterpart for (see NEIGHBOR_ONE_SIDED), and skua's own.
NEIGHBOR_JSON_FRR_ONLY = {"hostname", "bgpInUpdateElapsedTimeMsecs",
                          "extendedOptionalParametersLength",
                          "bgpTimerConfiguredConditionalAdvertisementsSec",
                          "lastResetTimerMsecs", "lastResetDueTo", "lastResetCode"}
NEIGHBOR_JSON_SKUA_ONLY = {"lastReset", "gtsm", "kernelCounters"}
# The rest: FRR 8.4's keys in its order.
NEIGHBOR_JSON_KEYS = [
    "remoteAs", "localAs", "nbrExternalLink", "localRole", "remoteRole", "bgpVersion", "remoteRouterId", "localRouterId",
    "bgpState", "bgpTimerUpMsec", "bgpTimerUpString", "bgpTimerUpEstablishedEpoch",
    "bgpTimerLastRead", "bgpTimerLastWrite", "bgpTimerConfiguredHoldTimeMsecs",
    "bgpTimerConfiguredKeepAliveIntervalMsecs", "bgpTimerHoldTimeMsecs",
    "bgpTimerKeepAliveIntervalMsecs", "neighborCapabilities", "gracefulRestartInfo",
    "messageStats", "minBtwnAdvertisementRunsTimerMsecs", "addressFamilyInfo",
    "connectionsEstablished", "connectionsDropped", "externalBgpNbrMaxHopsAway", "hostLocal",
    "portLocal", "hostForeign", "portForeign", "nexthop", "nexthopGlobal", "nexthopLocal",
    "bgpConnection", "connectRetryTimer", "readThread", "writeThread"]


@pytest.mark.timeout(60)
def test_neighbor_json(dut):
    """FRR's keys in FRR's order; the connection's next hops and route refresh as FRR says."""
    got = dut.vtysh_json("show bgp neighbors 192.0.2.2 json")[P]
    keys = [k for k in got if k not in NEIGHBOR_JSON_FRR_ONLY | NEIGHBOR_JSON_SKUA_ONLY]
    assert keys == NEIGHBOR_JSON_KEYS, keys
    assert {k: got[k] for k in ("nexthop", "nexthopGlobal", "nexthopLocal", "bgpConnection")} == {
        "nexthop": "192.0.2.1", "nexthopGlobal": "2001:db8:1::1", "nexthopLocal": link_local(dut),
        "bgpConnection": "sharedNetwork"}, got
    assert got["neighborCapabilities"]["routeRefresh"] == "advertisedAndReceivedOldNew", got
    assert (got["localRole"], got["remoteRole"]) == ("undefined", "customer"), got
    assert got["neighborCapabilities"]["role"] == "received", got
