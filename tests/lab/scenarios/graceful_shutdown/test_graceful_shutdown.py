# SPDX-License-Identifier: ISC
"""Graceful shutdown (RFC 8326) and the shutdown message (RFC 9003) against FRR 8.4 (issue 13,
must-show 3).

FRR has two paths to 203.0.113.0/28 and 203.0.113.16/28: from the DUT (AS path 65001) and
from `alt` (65003 65003 65003); it prefers the DUT's. Then, as an operator would:
  1. `bgp graceful-shutdown` on the DUT: FRR receives the DUT's routes again with the
     GRACEFUL_SHUTDOWN community, lowers their local preference to 0 (FRR does it by itself
     for eBGP routes) and moves both prefixes to alt, while the session with the DUT is still
     Established (nothing dropped); BIRD and GoBGP, with the receiving policies of
     doc/graceful-restart.md, give the DUT's routes local preference 0 (GoBGP: 1);
  2. `neighbor 192.0.2.2 shutdown message TEXT`: the session goes with a Cease/Administrative
     Shutdown carrying TEXT, which FRR's `show bgp neighbors` shows; the prefixes stay on alt;
  3. end of maintenance (`no neighbor ... shutdown`, `no bgp graceful-shutdown`): the session
     is back within seconds and FRR prefers the DUT's plain routes again;
  4. the other way round, FRR's own shutdown message shows in skua's neighbor JSON.
"""

import pytest

DUT, FRR, ALT = "192.0.2.1", "192.0.2.2", "192.0.2.6"
BIRD, GOBGP = "192.0.2.10", "192.0.2.14"
PREFIXES = ("203.0.113.0/28", "203.0.113.16/28")
MESSAGE = "maintenance window 42, back at 03:00 UTC"


def frr_paths(lab, prefix):
    return lab["frr"].vtysh_json("show bgp ipv4 unicast %s json" % prefix).get("paths", [])


def path_from(paths, peer):
    for p in paths:
        if p.get("peer", {}).get("peerId") == peer:
            return p
    return None


def frr_view(lab, want_best, gshut):
    """A check: at FRR both prefixes' best path is from want_best, and the DUT's path carries
    the community and local preference 0 (gshut) or neither."""
    def check():
        for prefix in PREFIXES:
            paths = frr_paths(lab, prefix)
            best = [p for p in paths if p.get("bestpath", {}).get("overall")]
            if not best or best[0].get("peer", {}).get("peerId") != want_best:
                return "%s: best path %s, expected the one from %s" % (
                    prefix, [(b.get("peer", {}).get("peerId"), b["aspath"]["string"])
                             for b in best], want_best)
            mine = path_from(paths, DUT)
            if mine is None:
                return "%s: no path from the DUT" % prefix
            comm = mine.get("community", {}).get("string", "")
            if gshut and ("graceful-shutdown" not in comm.split() or mine.get("locPrf") != 0):
                return "%s: DUT's path community %r, locPrf %s" % (
                    prefix, comm, mine.get("locPrf"))
            if not gshut and "graceful-shutdown" in comm.split():
                return "%s: DUT's path still has community %r" % (prefix, comm)
        return None
    return lambda: check()


def bird_view(lab, gshut):
    """BIRD's import filter: local preference 0 and the community (65535,0), or 100 and none."""
    def check():
        for prefix in PREFIXES:
            text = lab["bird1"].birdc("show route all %s" % prefix)
            lp = "BGP.local_pref: %d" % (0 if gshut else 100)
            if lp not in text or (("(65535,0)" in text) != gshut):
                return "%s at BIRD:\n%s" % (prefix, text)
        return None
    return check


def gobgp_view(lab, gshut):
    """GoBGP's import policy: LocalPref 1 with the community (GoBGP calls it planned-shut)."""
    def check():
        for prefix in PREFIXES:
            text = lab["gobgp1"].gobgp("global rib %s" % prefix, json_out=False)
            if prefix not in text or ("{LocalPref: 1}" in text) != gshut or \
                    ("planned-shut" in text) != gshut:
                return "%s at GoBGP:\n%s" % (prefix, text)
        return None
    return check


def dropped(lab):
    return lab["dut"].neighbor(FRR)[FRR].get("connectionsDropped", 0)


@pytest.mark.timeout(90)
def test_two_paths_dut_preferred(lab):
    lab.wait_all_established({"dut": [FRR, BIRD, GOBGP], "frr": [DUT, ALT]}, timeout=60)
    lab.expect("FRR prefers the DUT's shorter path",
               lambda: frr_view(lab, DUT, gshut=False)(), lambda r: r, timeout=30)
    lab.expect("BIRD has the DUT's routes, local preference 100", bird_view(lab, False),
               lambda r: r, timeout=30)
    lab.expect("GoBGP has the DUT's routes, no local preference set", gobgp_view(lab, False),
               lambda r: r, timeout=30)


@pytest.mark.timeout(60)
def test_graceful_shutdown_moves_traffic_before_the_session_goes(lab):
    lab.require_established("dut", [FRR])
    before = dropped(lab)
    lab["dut"].vtysh("configure terminal", "router bgp 65001", "bgp graceful-shutdown")
    assert "\n bgp graceful-shutdown\n" in lab["dut"].vtysh("show running-config")
    lab.expect("FRR moved to alt: the DUT's routes have graceful-shutdown, local preference 0",
               lambda: frr_view(lab, ALT, gshut=True)(), lambda r: r, timeout=20)
    lab.expect("BIRD's import filter: local preference 0", bird_view(lab, True), lambda r: r,
               timeout=20)
    lab.expect("GoBGP's import policy: local preference 1", gobgp_view(lab, True),
               lambda r: r, timeout=20)
    # ... and the session was never touched.
    assert dropped(lab) == before
    assert lab["dut"].peers()[FRR]["state"] == "Established"
    assert lab["frr"].peers()[DUT]["state"] == "Established"


@pytest.mark.timeout(60)
def test_shutdown_message_shown_by_frr(lab):
    lab.require_established("dut", [FRR])
    lab["dut"].vtysh("configure terminal", "router bgp 65001",
                     "neighbor %s shutdown message %s" % (FRR, MESSAGE))
    assert "\n neighbor %s shutdown message %s\n" % (FRR, MESSAGE) in \
        lab["dut"].vtysh("show running-config")
    n = lab.expect("FRR shows the shutdown communication", lambda: lab["frr"].neighbor(DUT),
                   {DUT: {"lastNotificationReason": "Cease/Administrative Shutdown",
                          "lastShutdownDescription": MESSAGE}}, timeout=20)
    print("FRR: %s, %r" % (n[DUT]["lastNotificationReason"], n[DUT]["lastShutdownDescription"]))
    # The traffic stays on alt: the DUT's paths go (FRR records the NOTIFICATION before its
    # work queue has removed them, and with RFC 8538 it is a Hard Reset: no stale paths kept),
    # nothing else moved.
    def dut_gone_alt_best():
        paths = [frr_paths(lab, prefix) for prefix in PREFIXES]
        return all(path_from(p, DUT) is None and path_from(p, ALT)["bestpath"]["overall"]
                   for p in paths)
    lab.expect("FRR removed the DUT's paths, alt stays best", dut_gone_alt_best,
               lambda ok: None if ok else "a DUT path is left, or alt is not best",
               timeout=10, interval=0.2)


@pytest.mark.timeout(60)
def test_end_of_maintenance(lab):
    lab["dut"].vtysh("configure terminal", "router bgp 65001", "no neighbor %s shutdown" % FRR,
                     "no bgp graceful-shutdown")
    lab.wait_established("dut", [FRR], timeout=15)
    lab.expect("FRR prefers the DUT's plain routes again",
               lambda: frr_view(lab, DUT, gshut=False)(), lambda r: r, timeout=20)
    lab.expect("BIRD: local preference 100 again", bird_view(lab, False), lambda r: r,
               timeout=20)
    lab.expect("GoBGP: the community gone", gobgp_view(lab, False), lambda r: r, timeout=20)


@pytest.mark.timeout(60)
def test_message_from_frr_shown_by_skua(lab):
    """The other way: FRR's shutdown communication in skua's show bgp neighbors json (FRR's
    key), and in skua's log."""
    lab.require_established("dut", [FRR])
    text = "FRR side maintenance"
    lab["frr"].vtysh("configure terminal", "router bgp 65002",
                     "neighbor %s shutdown message %s" % (DUT, text))
    lab.expect("skua shows FRR's shutdown communication", lambda: lab["dut"].neighbor(FRR),
               {FRR: {"lastNotificationReason": "Cease/Administrative Shutdown",
                      "lastShutdownDescription": text}}, timeout=20)
    lab["frr"].vtysh("configure terminal", "router bgp 65002",
                     "no neighbor %s shutdown" % DUT)
    lab.wait_established("dut", [FRR], timeout=20)
