# SPDX-License-Identifier: ISC
"""bgp network import-check: skua (dut) against FRR 8.4 with zebra (ref).

Both have `network 198.51.100.0/24` with the check on (the default).  peer counts what each
announces: nothing while the kernel lacks the route, the network once a route for exactly
that prefix is there (a longer or shorter one does not count), nothing again when it goes;
`no bgp network import-check` announces it regardless.  skua used to announce it from the
start, whatever the kernel had.

While the check fails, FRR keeps the statement in its table, not valid: the row has no `*`,
the detail reads "0.0.0.0 (inaccessible)" and "invalid", "no best path", "Not advertised to
any peer", JSON "valid": false and "accessible": false.  skua shows the same (it used to leave
the prefix out of the table, "% Network not in table").
"""

import json
import re

import pytest

from skualab.tables import bgpd_configure, bgpd_vtysh

NETWORK = "198.51.100.0/24"
ROUTERS = ("dut", "ref")
SESSION = {"dut": "192.0.2.1", "ref": "192.0.2.5"}


def received(lab):
    """Prefixes peer has from dut and from ref."""
    peers = lab["peer"].summary("ipv4").get("peers", {})
    return {r: peers.get(SESSION[r], {}).get("pfxRcd") for r in ROUTERS}


def both(n):
    return {r: n for r in ROUTERS}


def route(lab, op, prefix):
    for r in ROUTERS:
        lab.namespaces[r].exec(["ip", "route", op, "blackhole", prefix])


@pytest.mark.timeout(120)
def test_not_announced_without_the_kernel_route(lab):
    lab.wait_established("peer", list(SESSION.values()), timeout=60)
    lab.expect("nothing announced", lambda: received(lab), both(0), timeout=20)
    # Routes that cover or lie inside the network are not the network's own.
    route(lab, "add", "198.51.100.0/23")
    route(lab, "add", "198.51.100.0/25")
    try:
        lab.expect("still nothing", lambda: received(lab), both(0), timeout=5)
    finally:
        route(lab, "del", "198.51.100.0/23")
        route(lab, "del", "198.51.100.0/25")


def shown(lab, router, cmd):
    """The text with what differs between dut and ref by design made alike: router ID, peer
    address, times."""
    out = bgpd_vtysh(lab[router], cmd)
    out = out.replace(SESSION[router], "ROUTER-ID").replace(PEER[router], "PEER")
    return re.sub(r"(Last update: ).*", r"\1#", out)


PEER = {"dut": "192.0.2.2", "ref": "192.0.2.6"}
TABLE_ROW = "   198.51.100.0/24  0.0.0.0                  0         32768 i\n"
DETAIL_WITHOUT = """\
BGP routing table entry for 198.51.100.0/24, version 0
Paths: (1 available, no best path)
  Not advertised to any peer
  Local
    0.0.0.0 (inaccessible) from 0.0.0.0 (ROUTER-ID)
      Origin IGP, metric 0, weight 32768, invalid, sourced, local
      Last update: #
"""


@pytest.mark.timeout(60)
def test_shown_not_valid_without_the_kernel_route(lab):
    """Without its kernel route the statement is in the table, not valid, on both."""
    lab.wait_established("peer", list(SESSION.values()), timeout=60)
    for r in ROUTERS:
        assert TABLE_ROW in shown(lab, r, "show ip bgp"), (r, shown(lab, r, "show ip bgp"))
        assert "Displayed  1 routes and 1 total paths" in shown(lab, r, "show ip bgp"), r
        assert shown(lab, r, "show ip bgp " + NETWORK) == DETAIL_WITHOUT, r
        path = json.loads(bgpd_vtysh(lab[r], "show ip bgp %s json" % NETWORK))["paths"][0]
        assert path["valid"] is False and path["nexthops"][0]["accessible"] is False, (r, path)
        assert "metric" not in path["nexthops"][0], (r, path)
        row = json.loads(bgpd_vtysh(lab[r], "show ip bgp json"))["routes"][NETWORK][0]
        assert "valid" not in row and "bestpath" not in row, (r, row)
    assert shown(lab, "dut", "show ip bgp") == shown(lab, "ref", "show ip bgp")


@pytest.mark.timeout(90)
def test_announced_while_the_route_is_there(lab):
    route(lab, "add", NETWORK)
    lab.expect("announced", lambda: received(lab), both(1), timeout=30)
    for r in ROUTERS:  # valid now, as on ref
        detail = shown(lab, r, "show ip bgp " + NETWORK)
        assert "    0.0.0.0 from 0.0.0.0 (ROUTER-ID)\n" in detail, (r, detail)
        assert ", valid, sourced, local, best (First path received)\n" in detail, (r, detail)
    assert shown(lab, "dut", "show ip bgp " + NETWORK) == \
        shown(lab, "ref", "show ip bgp " + NETWORK)
    route(lab, "del", NETWORK)
    lab.expect("withdrawn", lambda: received(lab), both(0), timeout=30)


@pytest.mark.timeout(90)
def test_no_import_check_announces_regardless(lab):
    bgpd_configure(lab, ROUTERS, "router bgp 65000", "no bgp network import-check")
    lab.expect("announced regardless", lambda: received(lab), both(1), timeout=30)
    assert " no bgp network import-check\n" in lab["dut"].vtysh("show running-config")
    bgpd_configure(lab, ROUTERS, "router bgp 65000", "bgp network import-check")
    lab.expect("withdrawn again", lambda: received(lab), both(0), timeout=30)
