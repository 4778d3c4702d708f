# SPDX-License-Identifier: ISC
"""Enhanced route refresh (RFC 7313) both ways.

- spk (the raw speaker) announces four /28s and answers a ROUTE-REFRESH with BoRR, the table
  without 203.0.113.80/28, and EoRR: after `clear bgp 192.0.2.6 soft in` on dut, that route,
  never withdrawn, is gone from dut and withdrawn from frr; the other three stay.
- frr (FRR 8.4) negotiates the capability with dut; `clear bgp 192.0.2.2 soft in` on dut gets
  BoRR, the table, EoRR from frr (two more ROUTE-REFRESH messages counted than the request)
  and frr's route stays; `clear bgp 192.0.2.1 soft in` on frr gets the same from dut: frr counts
  BoRR and EoRR, and keeps dut's routes, which it would drop at the EoRR if dut had not sent
  them again.
"""

import pytest

FRR, SPK, DUT_TO_FRR = "192.0.2.2", "192.0.2.6", "192.0.2.1"
SPK_NETS = ["203.0.113.64/28", "203.0.113.80/28", "203.0.113.96/28", "203.0.113.112/28"]
OMITTED = "203.0.113.80/28"
KEPT = [n for n in SPK_NETS if n != OMITTED]
FRR_NET, DUT_NET = "198.51.100.0/25", "198.51.100.128/25"


def table(daemon):
    return sorted(daemon.vtysh_json("show bgp ipv4 unicast json").get("routes") or {})


def has_all(wanted, absent=()):
    def check(t):
        missing = [n for n in wanted if n not in t]
        extra = [n for n in absent if n in t]
        if missing or extra:
            return "missing %s, unexpected %s in %s" % (missing, extra, t)
        return None
    return check


def stats(daemon, addr):
    return daemon.neighbor(addr)[addr].get("messageStats", {})


@pytest.mark.timeout(120)
def test_established(lab):
    lab.wait_all_established({"dut": [FRR, SPK], "frr": [DUT_TO_FRR]}, timeout=60)
    lab.expect("dut: every route", lambda: table(lab["dut"]),
               has_all(SPK_NETS + [FRR_NET, DUT_NET]), timeout=30)
    lab.expect("frr: every route", lambda: table(lab["frr"]),
               has_all(SPK_NETS + [FRR_NET, DUT_NET]), timeout=30)


def test_capability_negotiated(lab):
    lab.require_established("dut", [FRR, SPK])
    for daemon, addr in (("dut", FRR), ("frr", DUT_TO_FRR), ("dut", SPK)):
        caps = lab[daemon].neighbor(addr)[addr]["neighborCapabilities"]
        assert caps.get("enhancedRouteRefresh") == "advertisedAndReceived", (daemon, caps)


@pytest.mark.timeout(60)
def test_route_not_reannounced_goes(lab):
    dut, frr = lab["dut"], lab["frr"]
    lab.require_established("dut", [FRR, SPK])
    out = dut.vtysh("clear bgp %s soft in" % SPK)
    assert out.strip() == "", out
    lab.expect("spk answered the refresh", lambda: lab["spk"].status().get("refresh_answered"),
               1, timeout=10)
    lab.expect("dut: %s gone at the EoRR, the rest kept" % OMITTED, lambda: table(dut),
               has_all(KEPT, [OMITTED]), timeout=10)
    lab.expect("frr: %s withdrawn by dut" % OMITTED, lambda: table(frr),
               has_all(KEPT, [OMITTED]), timeout=10)
    # The same session: the route went at the EoRR, not with a reset.
    nbr = dut.neighbor(SPK)[SPK]
    assert nbr["bgpState"] == "Established" and nbr.get("connectionsEstablished") == 1, nbr


@pytest.mark.timeout(60)
def test_dut_asks_frr(lab):
    dut = lab["dut"]
    lab.require_established("dut", [FRR])
    before = stats(dut, FRR)
    assert dut.vtysh("clear bgp %s soft in" % FRR).strip() == ""
    # Our request, then frr's BoRR and EoRR.
    lab.expect("dut sent a ROUTE-REFRESH", lambda: stats(dut, FRR).get("routeRefreshSent"),
               before.get("routeRefreshSent", 0) + 1, timeout=10)
    lab.expect("dut received BoRR and EoRR from frr",
               lambda: stats(dut, FRR).get("routeRefreshRecv"),
               before.get("routeRefreshRecv", 0) + 2, timeout=10)
    lab.expect("dut: frr's route kept", lambda: table(dut), has_all([FRR_NET]), timeout=5)


@pytest.mark.timeout(60)
def test_frr_asks_dut(lab):
    frr = lab["frr"]
    lab.require_established("frr", [DUT_TO_FRR])
    before = stats(frr, DUT_TO_FRR)
    assert frr.vtysh("clear bgp %s soft in" % DUT_TO_FRR).strip() == ""
    lab.expect("frr received BoRR and EoRR from dut",
               lambda: stats(frr, DUT_TO_FRR).get("routeRefreshRecv"),
               before.get("routeRefreshRecv", 0) + 2, timeout=10)
    # FRR drops at the EoRR what was not sent again: dut sent its whole table.
    lab.expect("frr: dut's routes kept", lambda: table(frr), has_all(KEPT + [DUT_NET]),
               timeout=5)
