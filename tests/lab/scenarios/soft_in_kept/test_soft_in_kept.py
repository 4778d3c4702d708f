# SPDX-License-Identifier: ISC
"""`clear bgp X soft in` for a neighbor whose routes skua keeps because its inbound route-map
matches rpki (doc/policy.md), without soft-reconfiguration inbound.

The peer (FRR 8.4) sends an OPEN without capabilities (`dont-capability-negotiate`), so it
cannot be sent a ROUTE-REFRESH: before skua asked its RIB, the command refused with FRR's "has
neither refresh capability, nor inbound soft reconfig" although every route was kept.  Now the
kept routes go through the policy again, the session stays up and nothing is sent; the kept
routes are listed by `received-routes`, and `show bgp neighbors` says why they are kept.
"""

import pytest

PEER = "192.0.2.2"
NETS = ("198.51.100.0/24", "203.0.113.0/24")


@pytest.mark.timeout(120)
def test_established(lab):
    lab.wait_all_established({"dut": [PEER], "peer": ["192.0.2.1"]}, timeout=60)


def test_received_routes_kept(lab):
    dut = lab["dut"]
    lab.expect("dut: both routes accepted", lambda: dut.routes("ipv4"),
               lambda t: None if all(p in t for p in NETS) else "missing: %s" % sorted(t),
               timeout=lab.budget("routes", 45), needs={"dut": [PEER]})
    got = lab.expect("dut: received-routes lists them",
                     lambda: dut.vtysh_json("show bgp ipv4 unicast neighbors %s "
                                            "received-routes json" % PEER),
                     {"totalPrefixCounter": 2}, timeout=10)
    assert sorted(got.get("receivedRoutes", {})) == sorted(NETS), got


def test_neighbor_says_why(lab):
    dut = lab["dut"]
    lab.require_established("dut", [PEER])
    nbr = dut.neighbor(PEER)[PEER]
    caps = nbr.get("neighborCapabilities", {})
    assert caps.get("routeRefresh") in (None, "advertised"), caps  # not received
    af = nbr["addressFamilyInfo"]["ipv4Unicast"]
    assert af.get("inboundRoutesKeptForValidation") is True, af
    assert "inboundSoftConfigPermit" not in af, af
    text = dut.vtysh("show bgp neighbors %s" % PEER)
    assert ("  Inbound routes kept as received (inbound route-map matches rpki or aspa)\n"
            in text), text


def test_clear_soft_in_reruns_kept_routes(lab):
    dut = lab["dut"]
    lab.require_established("dut", [PEER])
    before = dut.neighbor(PEER)[PEER]
    out = dut.vtysh("clear bgp %s soft in" % PEER)
    assert out.strip() == "", "clear bgp %s soft in answered:\n%s" % (PEER, out)
    out = dut.vtysh("clear ip bgp * in")
    assert out.strip() == "", "clear ip bgp * in answered:\n%s" % out
    after = dut.neighbor(PEER)[PEER]
    assert after["bgpState"] == "Established", after["bgpState"]
    # The same session (no reset), and the routes still there after the re-run.
    assert after.get("connectionsEstablished") == before.get("connectionsEstablished"), after
    sent = after.get("messageStats", {})
    assert sent.get("routeRefreshSent", 0) == before.get("messageStats", {}).get(
        "routeRefreshSent", 0), sent
    lab.expect("dut: routes still accepted", lambda: dut.routes("ipv4"),
               lambda t: None if all(p in t for p in NETS) else "missing: %s" % sorted(t),
               timeout=10)
