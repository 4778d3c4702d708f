# SPDX-License-Identifier: ISC
"""Enhanced route refresh (RFC 7313) both ways.

- spk (the raw speaker) announces four /28s and answers a ROUTE-REFRESH with BoRR, the table
  without 203.0.113.80/28, and EoRR: after `clear bgp 192.0.2.6 soft in` on dut, that route,
  never withdrawn, is gone from dut and withdrawn from frr; the other three stay.
- bird (BIRD 2) asks dut (`birdc reload in dut`): dut answers with BoRR, its table, EoRR, and
  BIRD keeps every route; dut asks bird likewise and keeps bird's route.
- exa (ExaBGP 4.2, which breaks on enhanced refresh) gets no such capability from dut with
  `graceful-restart-disable`, and a plain refresh leaves its session up.
- frr (FRR 8.4) negotiates the capability with dut; `clear bgp 192.0.2.2 soft in` on dut gets
  BoRR, the table, EoRR from frr (two more ROUTE-REFRESH messages counted than the request)
  and frr's route stays; `clear bgp 192.0.2.1 soft in` on frr gets the same from dut: frr counts
  BoRR and EoRR, and the capture of dut's side shows BoRR, the whole table, then EoRR.
"""

import time

import pytest

from skualab import bgp_updates
from skualab.probes import Capture

FRR, SPK, DUT_TO_FRR, BIRD = "192.0.2.2", "192.0.2.6", "192.0.2.1", "192.0.2.10"
SPK_NETS = ["203.0.113.64/28", "203.0.113.80/28", "203.0.113.96/28", "203.0.113.112/28"]
OMITTED = "203.0.113.80/28"
KEPT = [n for n in SPK_NETS if n != OMITTED]
FRR_NET, DUT_NET, BIRD_NET = "198.51.100.0/25", "198.51.100.128/25", "203.0.113.0/28"
EXA_NET = "203.0.113.16/28"


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
    lab.wait_all_established({"dut": [FRR, SPK, BIRD], "frr": [DUT_TO_FRR]}, timeout=60)
    every = SPK_NETS + [FRR_NET, DUT_NET, BIRD_NET]
    lab.expect("dut: every route", lambda: table(lab["dut"]), has_all(every), timeout=30)
    lab.expect("frr: every route", lambda: table(lab["frr"]), has_all(every), timeout=30)
    lab.expect("bird: every route from dut", lambda: sorted(lab["bird"].routes()),
               has_all([n for n in every if n != BIRD_NET]), timeout=30)


def test_capability_negotiated(lab):
    lab.require_established("dut", [FRR, SPK])
    for daemon, addr in (("dut", FRR), ("frr", DUT_TO_FRR), ("dut", SPK), ("dut", BIRD)):
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
    cap = Capture(lab, "dut", "to-frr", "tcp port 179", name="refresh", snaplen=65535).start()
    try:
        assert frr.vtysh("clear bgp %s soft in" % DUT_TO_FRR).strip() == ""
        lab.expect("frr received BoRR and EoRR from dut",
                   lambda: stats(frr, DUT_TO_FRR).get("routeRefreshRecv"),
                   before.get("routeRefreshRecv", 0) + 2, timeout=10)
    finally:
        cap.stop()
    # On the wire: BoRR, then the whole table, then EoRR (KEEPALIVEs may come between).
    sent = [m for m in bgp_updates.messages(bgp_updates.tcp_stream(cap.packets(), DUT_TO_FRR,
                                                                   FRR)) if m[0] != 4]
    kinds = [m[1] if m[0] == "ROUTE-REFRESH" else m[0] for m in sent]
    assert kinds[0] == "BoRR" and kinds[-1] == "EoRR" and kinds.count("BoRR") == 1 and \
        kinds.count("EoRR") == 1, kinds
    announced = sorted(p for m in sent if m[0] == "UPDATE" for p in m[1]["announce"])
    # Everything dut's table has for frr: spk's, bird's, exa's and dut's own (not frr's).
    assert announced == sorted(KEPT + [DUT_NET, BIRD_NET, EXA_NET]), announced
    lab.expect("frr: dut's routes kept", lambda: table(frr),
               has_all(KEPT + [DUT_NET, BIRD_NET, EXA_NET]), timeout=5)


@pytest.mark.timeout(60)
def test_bird_asks_dut(lab):
    dut, bird = lab["dut"], lab["bird"]
    lab.require_established("dut", [BIRD])
    before = stats(dut, BIRD)
    have = sorted(bird.routes())
    bird.birdc("reload in dut")
    lab.expect("dut received bird's request and sent BoRR and EoRR",
               lambda: [stats(dut, BIRD).get("routeRefreshRecv"),
                        stats(dut, BIRD).get("routeRefreshSent")],
               [before.get("routeRefreshRecv", 0) + 1, before.get("routeRefreshSent", 0) + 2],
               timeout=10)
    # Interoperability: BIRD takes the BoRR/EoRR pair and keeps every route. (Whether dut's
    # EoRR follows its table is checked on the wire in test_frr_asks_dut: BIRD prunes after
    # the whole read, so an early EoRR would not show here.)
    time.sleep(1)
    assert sorted(bird.routes()) == have


@pytest.mark.timeout(60)
def test_dut_asks_bird(lab):
    dut = lab["dut"]
    lab.require_established("dut", [BIRD])
    before = stats(dut, BIRD)
    assert dut.vtysh("clear bgp %s soft in" % BIRD).strip() == ""
    lab.expect("dut received BoRR and EoRR from bird",
               lambda: stats(dut, BIRD).get("routeRefreshRecv"),
               before.get("routeRefreshRecv", 0) + 2, timeout=10)
    lab.expect("dut: bird's route kept", lambda: table(dut), has_all([BIRD_NET]), timeout=5)


@pytest.mark.timeout(60)
def test_exabgp_plain_refresh_without_gr(lab):
    """ExaBGP 4.2 resets the session when asked for a refresh with enhanced route refresh
    negotiated; `neighbor X graceful-restart-disable` keeps skua from advertising it (it goes
    only with the GR capability), so a plain refresh is asked and answered, no reset."""
    dut, exa = lab["dut"], "192.0.2.14"
    lab.wait_established("dut", [exa], timeout=30)
    lab.expect("dut: exa's route", lambda: table(dut), has_all([EXA_NET]), timeout=10)
    nbr = dut.neighbor(exa)[exa]
    assert nbr["neighborCapabilities"].get("enhancedRouteRefresh") == "received", nbr
    before = nbr.get("connectionsEstablished")
    assert dut.vtysh("clear bgp %s soft in" % exa).strip() == ""
    lab.expect("dut: the refresh answered (exa's UPDATE again)",
               lambda: stats(dut, exa).get("updatesRecv"),
               lambda n: None if n > nbr["messageStats"]["updatesRecv"] else n, timeout=10)
    time.sleep(1)
    nbr = dut.neighbor(exa)[exa]
    assert nbr["bgpState"] == "Established" and nbr.get("connectionsEstablished") == before, nbr
    assert EXA_NET in table(dut)
