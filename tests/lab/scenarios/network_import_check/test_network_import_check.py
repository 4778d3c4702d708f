# SPDX-License-Identifier: ISC
"""bgp network import-check: skua (dut) against FRR 8.4 with zebra (ref).

Both have `network 198.51.100.0/24` with the check on (the default).  peer counts what each
announces: nothing while the kernel lacks the route, the network once a route for exactly
that prefix is there (a longer or shorter one does not count), nothing again when it goes;
`no bgp network import-check` announces it regardless.  skua used to announce it from the
start, whatever the kernel had.
"""

import pytest

from skualab.tables import bgpd_configure

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


@pytest.mark.timeout(90)
def test_announced_while_the_route_is_there(lab):
    route(lab, "add", NETWORK)
    lab.expect("announced", lambda: received(lab), both(1), timeout=30)
    route(lab, "del", NETWORK)
    lab.expect("withdrawn", lambda: received(lab), both(0), timeout=30)


@pytest.mark.timeout(90)
def test_no_import_check_announces_regardless(lab):
    bgpd_configure(lab, ROUTERS, "router bgp 65000", "no bgp network import-check")
    lab.expect("announced regardless", lambda: received(lab), both(1), timeout=30)
    assert " no bgp network import-check\n" in lab["dut"].vtysh("show running-config")
    bgpd_configure(lab, ROUTERS, "router bgp 65000", "bgp network import-check")
    lab.expect("withdrawn again", lambda: received(lab), both(0), timeout=30)
