# SPDX-License-Identifier: ISC
"""neighbor X update-source lo: skua (dut) against FRR 8.4 (ref), toward a passive peer.

lo lists 127.0.0.1 before the router's routable 192.0.2.10x/32.  skua used to take the first
address: its connect from 127.0.0.1 failed (EINVAL) at every retry, logged only when
debugging, and the session stayed Active.  Now both come up from the loopback's routable
address, as peer (passive, which knows only that address) proves by accepting them.  A source
that cannot work is logged without debugging.
"""

import re

import pytest

from skualab.tables import bgpd_configure

PEER = "192.0.2.110"
ROUTERS = ("dut", "ref")
SOURCE = {"dut": "192.0.2.100", "ref": "192.0.2.101"}


def view(daemon):
    nbr = daemon.neighbor(PEER).get(PEER, {})
    peer = daemon.summary("ipv4").get("peers", {}).get(PEER, {})
    return {"bgpState": nbr.get("bgpState"), "hostLocal": nbr.get("hostLocal"),
            "pfxRcd": peer.get("pfxRcd")}


@pytest.mark.timeout(90)
def test_established_from_the_loopbacks_routable_address(lab):
    for r in ROUTERS:
        lab.expect("%s up from %s" % (r, SOURCE[r]), lambda: view(lab[r]),
                   {"bgpState": "Established", "hostLocal": SOURCE[r], "pfxRcd": 1},
                   timeout=45)
    out = lab["peer"].vtysh_json("show bgp neighbors json")
    for r in ROUTERS:
        assert out[SOURCE[r]]["bgpState"] == "Established", r
    assert " neighbor %s update-source lo\n" % PEER in lab["dut"].vtysh("show running-config")


def log_of(daemon):
    return "".join(open(path, errors="replace").read() for path in daemon.logs())


@pytest.mark.timeout(90)
def test_unusable_source_is_logged(lab):
    """A source address that cannot reach the peer: the failed connect is in the log at the
    default level, with the address and the reason, and the session stays down."""
    bgpd_configure(lab, ["dut"], "router bgp 65000",
                   "neighbor %s update-source 127.0.0.1" % PEER)
    lab.expect("dut down", lambda: view(lab["dut"])["bgpState"],
               lambda v: None if v in ("Active", "Connect", "Idle") else v, timeout=30)
    pattern = re.compile(r"%s.*connect failed \(fd \d+\) from 127\.0\.0\.1: Invalid argument"
                         % re.escape(PEER))
    lab.expect("dut logs the failed connect",
               lambda: bool(pattern.search(log_of(lab["dut"]))), True, timeout=30)
    # Back to lo: up again from the routable address.
    bgpd_configure(lab, ["dut"], "router bgp 65000", "neighbor %s update-source lo" % PEER)
    lab.expect("dut up again", lambda: view(lab["dut"]),
               {"bgpState": "Established", "hostLocal": SOURCE["dut"]}, timeout=45)
