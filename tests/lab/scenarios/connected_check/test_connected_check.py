# SPDX-License-Identifier: ISC
"""neighbor X disable-connected-check: skua (dut) against FRR 8.4 (ref).

dut and ref name peer by its loopback (192.0.2.110, reached over a static route) as a
single-hop eBGP neighbor (TTL 1).  Without the knob neither opens a connection: the session
stays Active and the last reset says "Waiting for NHT" (FRR's words; FRR asks zebra, skua
looks at the connected networks).  With it both connect, still with TTL 1 (read back from
dut's socket), and get peer's route.  Removing it again resets the session ("Multihop config
change") and it stays down.
"""

import time

import pytest

from skualab.tables import bgpd_configure

PEER = "192.0.2.110"
ROUTERS = ("dut", "ref")


def set_knob(lab, on):
    """`[no] neighbor PEER disable-connected-check` on dut and ref."""
    bgpd_configure(lab, ROUTERS, "router bgp 65000", "%sneighbor %s disable-connected-check"
                   % ("" if on else "no ", PEER))


def view(daemon):
    nbr = daemon.neighbor(PEER).get(PEER, {})
    peer = daemon.summary("ipv4").get("peers", {}).get(PEER, {})
    return {"bgpState": nbr.get("bgpState"), "lastResetDueTo": nbr.get("lastResetDueTo"),
            "lastResetCode": nbr.get("lastResetCode"), "pfxRcd": peer.get("pfxRcd")}


def expect_same(lab, what, want):
    for r in ("ref", "dut"):
        lab.expect("%s: %s" % (what, r), lambda: view(lab[r]), want, timeout=45)


@pytest.mark.timeout(120)
def test_without_the_knob_no_connection(lab):
    expect_same(lab, "waiting", {"bgpState": "Active", "lastResetDueTo": "Waiting for NHT",
                                 "lastResetCode": 27})
    # peer is passive and saw no connection attempt from either (a few connect retries).
    time.sleep(12)
    for r in ROUTERS:
        assert view(lab[r])["bgpState"] == "Active", r
    out = lab["peer"].vtysh_json("show bgp neighbors json")
    for addr in ("192.0.2.100", "192.0.2.101"):
        assert out[addr].get("connectionsEstablished", 0) == 0, addr
        assert out[addr].get("bgpState") == "Active", addr


@pytest.mark.timeout(120)
def test_with_the_knob_connected_with_ttl_1(lab):
    set_knob(lab, True)
    expect_same(lab, "up", {"bgpState": "Established", "pfxRcd": 1})
    nbr = lab["dut"].neighbor(PEER)[PEER]
    if "gtsm" in nbr:  # skua's socket read back (not under SKUALAB_STANDIN=frr)
        assert nbr["gtsm"]["sendTtlSocket"] == 1 and nbr["gtsm"]["enabled"] is False
    for r in ROUTERS:
        assert " neighbor %s disable-connected-check\n" % PEER in \
            lab[r].vtysh("show running-config"), r


@pytest.mark.timeout(120)
def test_knob_removed_session_reset(lab):
    set_knob(lab, False)
    expect_same(lab, "reset", {"bgpState": "Active", "pfxRcd": 0})
    lab.expect("ref: last reset", lambda: view(lab["ref"])["lastResetDueTo"],
               lambda v: None if v in ("Multihop config change", "Waiting for NHT") else v,
               timeout=30)
