# SPDX-License-Identifier: ISC
"""Long-lived graceful restart (RFC 9494), skua as the helper of FRR 8.4 and BIRD 2.

rfrr (FRR) announces 198.51.100.0/25 and 203.0.113.0/25, rbird (BIRD) 198.51.100.128/25, both
with GR (restart time 3 s) and LLGR (stale time 12 s). sfrr announces 203.0.113.0/25 too, with
a longer AS path: while rfrr's path is fresh it wins. Both restarting peers are killed
(SIGKILL: the sessions are lost without a NOTIFICATION) and never come back:

- within the restart time their routes stay as they were (graceful restart);
- past it (past every GR timer) they stay, long-lived stale: the LLGR_STALE community on them
  in dut's table and on what dut sends to the LLGR receivers sfrr (FRR) and sbird (BIRD);
  splain (no LLGR) has them withdrawn; 203.0.113.0/25 moves to sfrr's fresh path, longer AS
  path and all (depreferred);
- once the peers' stale time has run out they are gone everywhere.

Then dut itself is killed: with its capabilities (`bgp graceful-restart`, restart time 2 s,
`bgp long-lived-graceful-restart stale-time 60`) sfrr keeps dut's own network long-lived stale
once the restart time is over, where splain (GR only) drops it.
"""

import signal
import time

import pytest

from skualab import faults
from skualab.netns import CommandError

RFRR, RBIRD, SFRR, SBIRD, SPLAIN = "192.0.2.2", "192.0.2.6", "192.0.2.10", "192.0.2.14", \
    "192.0.2.18"
P_FRR, P_BIRD, P_ALT = "198.51.100.0/25", "198.51.100.128/25", "203.0.113.0/25"
P_DUT = "203.0.113.128/25"
GR_TIME, LLGR_TIME = 3, 12


def route(daemon, prefix):
    """The paths of `show bgp ipv4 unicast PREFIX json` ([] when none)."""
    return daemon.vtysh_json("show bgp ipv4 unicast %s json" % prefix).get("paths") or []


def communities(path):
    return (path.get("community") or {}).get("string", "")


def best(paths):
    for p in paths:
        if (p.get("bestpath") or {}).get("overall"):
            return p
    return None


def bird_route(bird, prefix):
    """birdc's `show route PREFIX all` text ('' when BIRD has no such route)."""
    try:
        out = bird.birdc("show route %s all" % prefix)
    except CommandError as e:
        if "Network not found" in str(e):
            return ""
        raise
    return out if prefix in out else ""


@pytest.mark.timeout(120)
def test_established(lab):
    lab.wait_all_established({"dut": [RFRR, RBIRD, SFRR, SBIRD, SPLAIN]}, timeout=60)
    for r in ("sfrr", "splain"):
        lab.expect("%s: every route" % r,
                   lambda r=r: sorted(lab[r].vtysh_json("show bgp ipv4 unicast json")
                                      .get("routes") or {}),
                   lambda t: None if all(p in t for p in (P_FRR, P_BIRD, P_ALT)) else t,
                   timeout=30)
    lab.expect("sbird: both restarting peers' routes",
               lambda: [p for p in (P_FRR, P_BIRD) if bird_route(lab["sbird"], p)],
               [P_FRR, P_BIRD], timeout=30)
    # The fresh path of rfrr wins 203.0.113.0/25 over sfrr's longer one.
    lab.expect("dut: rfrr's path best for %s" % P_ALT,
               lambda: (best(route(lab["dut"], P_ALT)) or {}).get("peer", {}).get("peerId"),
               RFRR, timeout=10)
    # FRR sees dut's LLGR capability (and sends its own).
    caps = lab["sfrr"].neighbor("192.0.2.9")["192.0.2.9"]["neighborCapabilities"]
    assert caps.get("longLivedGracefulRestart") == "advertisedAndReceived", caps


@pytest.mark.timeout(90)
def test_kept_long_lived_stale_past_gr_then_flushed(lab):
    dut, sfrr, sbird, splain = lab["dut"], lab["sfrr"], lab["sbird"], lab["splain"]
    lab.require_established("dut", [RFRR, RBIRD, SFRR, SBIRD, SPLAIN])
    t0 = time.monotonic()
    faults.kill_router(lab, "rfrr", signal.SIGKILL)
    faults.kill_router(lab, "rbird", signal.SIGKILL)

    # Within the restart time: graceful restart keeps them as they were.
    paths = route(dut, P_FRR)
    if time.monotonic() - t0 < GR_TIME - 1:
        assert paths and "llgr-stale" not in communities(paths[0]), paths

    # Past GR's timers: long-lived stale.
    def stale(prefix):
        """Long-lived stale: LLGR_STALE added, and shown stale (FRR's 'S', "stale": true)."""
        ps = route(dut, prefix)
        return bool(ps) and "llgr-stale" in communities(ps[0]) and ps[0].get("stale") is True
    lab.expect("dut: both routes long-lived stale", lambda: [stale(P_FRR), stale(P_BIRD)],
               [True, True], timeout=GR_TIME + 10, interval=0.5)
    took = time.monotonic() - t0
    assert took >= GR_TIME - 0.5, "long-lived stale after %.1f s, before the restart time" % took

    # Depreferred: sfrr's fresh path (three more ASes) wins 203.0.113.0/25 now.
    b = best(route(dut, P_ALT))
    assert b and b["peer"]["peerId"] == SFRR, b
    assert b["bestpath"].get("selectionReason") == "Long-lived stale", b["bestpath"]
    # To the LLGR receivers with the community; withdrawn from the other.
    lab.expect("sfrr: LLGR_STALE on what dut sends",
               lambda: ["llgr-stale" in communities((route(sfrr, p) or [{}])[0])
                        for p in (P_FRR, P_BIRD)], [True, True], timeout=10, interval=0.5)
    lab.expect("sbird: LLGR_STALE (65535,6) on what dut sends",
               lambda: ["(65535,6)" in bird_route(sbird, p) for p in (P_FRR, P_BIRD)],
               [True, True], timeout=10, interval=0.5)
    lab.expect("splain: withdrawn (no LLGR)",
               lambda: sorted(splain.vtysh_json("show bgp ipv4 unicast json").get("routes")
                              or {}), [P_ALT], timeout=10, interval=0.5)
    # Still there well past the restart time and the stalepath time's share of it.
    assert time.monotonic() - t0 < GR_TIME + LLGR_TIME - 2
    assert stale(P_FRR) and stale(P_BIRD)

    # The peers' stale time runs out: gone everywhere.
    lab.expect("dut: gone after the stale time", lambda: [bool(route(dut, P_FRR)),
                                                          bool(route(dut, P_BIRD))],
               [False, False], timeout=GR_TIME + LLGR_TIME + 10, interval=0.5)
    took = time.monotonic() - t0
    assert took >= GR_TIME + LLGR_TIME - 1, "flushed after %.1f s" % took
    lab.expect("sfrr and sbird: withdrawn",
               lambda: [bool(route(sfrr, P_FRR)), bool(bird_route(sbird, P_BIRD))],
               [False, False], timeout=10, interval=0.5)


@pytest.mark.timeout(60)
def test_peers_keep_ours_long_lived(lab):
    sfrr, splain = lab["sfrr"], lab["splain"]
    lab.expect("sfrr and splain have dut's network",
               lambda: [bool(route(sfrr, P_DUT)), bool(route(splain, P_DUT))], [True, True],
               timeout=10)
    faults.kill_router(lab, "dut", signal.SIGKILL)
    lab.expect("splain: dut's network gone past the restart time (no LLGR)",
               lambda: bool(route(splain, P_DUT)), False, timeout=15, interval=0.5)
    lab.expect("sfrr: dut's network long-lived stale",
               lambda: "llgr-stale" in communities((route(sfrr, P_DUT) or [{}])[0]), True,
               timeout=5, interval=0.5)
