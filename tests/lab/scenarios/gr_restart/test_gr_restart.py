# SPDX-License-Identifier: ISC
"""skua restarting gracefully, with FRR 8.4, BIRD 2 and GoBGP 3 as its peers (issue 13, Must
show 1, the restarting side).

skua (dut, `bgp graceful-restart`) learns a network from each peer and installs it; src
probes an address behind each peer through dut (skualab/icmp_probes.py), so every probe
crosses a route dut learned by BGP.  dut gets SIGKILL (a crash), later SIGTERM (a clean
stop), and comes back a few seconds later on the same config each time:
  - the probes lose nothing, before, during or after (dut's kernel keeps the routes and the
    restarted bgpd adopts them instead of removing them), and dut's kernel sees no route
    change at all;
  - meanwhile each peer keeps skua's route (FRR and GoBGP mark it stale), as the Graceful
    Restart capability skua advertised asks;
  - skua's OPEN after a restart carries the R and F bits (FRR shows them), not before;
  - the routes refer to skua's nexthop objects, which the restarted bgpd adopts with them:
    the same objects after the restart as before, none added or left over;
  - after the resync skua's route at FRR is fresh again and was replaced in place: FRR's
    path keeps its table version, nothing moved.
"""

import json
import os
import signal
import time

import pytest

from skualab import faults
from skualab.daemons import Process

DUT_NET = "203.0.113.0/30"
# peer: (dut's address on the link, the peer's network, the address pinged in it)
PEERS = {
    "frr": ("192.0.2.2", "198.51.100.16/28", "198.51.100.17"),
    "bird": ("192.0.2.6", "198.51.100.48/28", "198.51.100.49"),
    "gobgp": ("192.0.2.10", "198.51.100.80/28", "198.51.100.81"),
}
DOWN = 4  # seconds skua stays dead
PROBE_INTERVAL = 0.05
EVENTS_TOOL = os.path.join(os.path.dirname(faults.__file__), "route_events.py")
PROBE_TOOL = os.path.join(os.path.dirname(faults.__file__), "icmp_probes.py")
STATE = {}


def kernel_bgp(dut):
    out = dut.netns.exec(["ip", "-4", "route", "show", "proto", "bgp"])
    return sorted(ln for ln in out.splitlines() if ln.strip())


def nexthop_objects(dut):
    """skua's nexthop objects in dut's kernel (`ip nexthop`, protocol bgp)."""
    out = dut.netns.exec(["ip", "nexthop", "show", "proto", "186"])
    return sorted(ln.strip() for ln in out.splitlines() if ln.strip())


def frr_path(lab):
    doc = lab["frr"].vtysh_json("show bgp ipv4 unicast %s json" % DUT_NET)
    paths = doc.get("paths") or []
    return paths[0] if paths else None


def probe_argv(seconds):
    argv = ["/usr/bin/python3", PROBE_TOOL, "--seconds", str(seconds), "--interval",
            str(PROBE_INTERVAL)]
    for _, _, addr in PEERS.values():
        argv += ["--dst", addr]
    return argv


def probe(lab, seconds):
    """None when every probe of a short stream was answered, else the report."""
    out = lab["src"].netns.exec(probe_argv(seconds), timeout=seconds + 10)
    report = json.loads(out.splitlines()[-1])
    return None if all(r["received"] == r["sent"] for r in report.values()) else report


def frr_gr(lab):
    """What FRR knows of skua's Graceful Restart: its neighbor JSON's GR parts."""
    n = lab["frr"].vtysh_json("show bgp neighbors 192.0.2.1 json").get("192.0.2.1", {})
    return {k: v for k, v in n.items() if "raceful" in k or k in ("neighborCapabilities",)}


def holds_dut_net(lab, peer):
    return DUT_NET in lab[peer].routes("ipv4")


@pytest.mark.timeout(120)
def test_converged_and_forwarding(lab):
    dut = lab["dut"]
    lab.wait_established("dut", [a for a, _, _ in PEERS.values()], timeout=60)
    lab.expect("dut installed every peer's network", lambda: kernel_bgp(dut),
               lambda lines: None if len(lines) == 3 else lines, timeout=30)
    for peer in PEERS:
        lab.expect("%s has skua's network" % peer, lambda: holds_dut_net(lab, peer),
                   True, timeout=30)
    lab.expect("src reaches every peer's network through dut", lambda: probe(lab, 1), None,
               timeout=20)
    # FRR negotiated Graceful Restart with skua and takes it for a restarting speaker.
    gr = frr_gr(lab)["gracefulRestartInfo"]
    assert gr["remoteGrMode"] == "Restart" and gr["rBit"] is False, gr
    assert gr["ipv4Unicast"]["fBit"] is False, gr  # a cold start preserved nothing
    STATE["frr_path"] = frr_path(lab)
    STATE["kernel"] = kernel_bgp(dut)
    STATE["ok"] = True


@pytest.mark.timeout(180)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_restart_loses_no_probe(lab, sig):
    """SIGKILL: a crash. SIGTERM: a clean stop in graceful-restart mode, which leaves the
    kernel's routes and tells the peers nothing that would make them drop ours."""
    assert STATE.get("ok"), "not checked: the first step failed"
    STATE["restarted"] = False
    dut, src = lab["dut"], lab["src"]
    window = DOWN + 13
    probes_log = os.path.join(src.rundir, "probes.log")
    probes = Process("src/probes", src.netns.exec_argv(probe_argv(window)), probes_log)
    events_log = os.path.join(dut.rundir, "route-events.log")
    events = Process("dut/route-events", dut.netns.exec_argv(
        ["/usr/bin/python3", "-u", EVENTS_TOOL]), events_log)
    try:
        time.sleep(1)
        objects = nexthop_objects(dut)
        assert objects and all("nhid " in ln for ln in kernel_bgp(dut)), (objects,
                                                                         kernel_bgp(dut))
        base = len(faults.log_lines(dut))
        faults.kill_router(lab, "dut", sig)
        t_kill = time.monotonic()
        time.sleep(1)
        for peer in PEERS:
            assert holds_dut_net(lab, peer), "%s dropped skua's route at its restart" % peer
        stale = frr_path(lab)
        assert stale and stale.get("stale"), "FRR does not hold skua's route as stale: %s" % stale
        gobgp = lab["gobgp"].gobgp("global rib -a ipv4 %s" % DUT_NET, json_out=True)
        assert gobgp[DUT_NET][0].get("stale"), "GoBGP does not hold it as stale: %s" % gobgp
        time.sleep(max(0, DOWN - (time.monotonic() - t_kill)))
        assert kernel_bgp(dut) == STATE["kernel"], "the kernel lost routes with bgpd"
        lab.start_router("dut")
        lab.wait_established("dut", [a for a, _, _ in PEERS.values()], timeout=30)
        lab.expect("skua's deferred selection is done",
                   lambda: [ln for ln in faults.log_lines(dut)[base:]
                            if "graceful restart done" in ln],
                   lambda lines: None if lines else "not yet", timeout=40)
        took = time.monotonic() - t_kill
        gr = frr_gr(lab)["gracefulRestartInfo"]
        print("restart after %s: deferred selection done %.1fs after the signal"
              % (sig.name, took))
        assert gr["rBit"] is True, "FRR did not see the R bit: %s" % gr
        assert gr["ipv4Unicast"]["fBit"] is True, "FRR did not see the F bit: %s" % gr
        STATE["log"] = faults.log_lines(dut)[base:]
        assert took < window - 2, "the restart took longer than the probes run"
        probes.popen.wait(timeout=window + 10)
    finally:
        probes.stop()
        events.popen.send_signal(signal.SIGTERM)
        events.popen.wait(timeout=10)
        events.stop()
    lines = [ln for ln in open(probes_log).read().splitlines() if ln.startswith("{")]
    assert lines, "the probes reported nothing: %s" % open(probes_log).read()[-500:]
    report = json.loads(lines[-1])
    for peer, (_, _, addr) in PEERS.items():
        r = report[addr]
        print("probes through skua to %s's network: %d sent, %d answered"
              % (peer, r["sent"], r["received"]))
        assert r["sent"] >= window / PROBE_INTERVAL * 0.9, r
        assert r["received"] == r["sent"], "%s: %d of %d probes lost: %s" % (
            peer, r["sent"] - r["received"], r["sent"], r["lost"])
    counts = [ln for ln in open(events_log).read().splitlines() if ln.startswith("{")]
    print("kernel route changes in dut from the kill to the end:", counts)
    assert counts and '"new": 0, "del": 0' in counts[-1], counts
    # The restarted bgpd adopted the routes' nexthop objects too: the same, none added.
    assert nexthop_objects(dut) == objects, (objects, nexthop_objects(dut))
    STATE["restarted"] = True


def test_peers_resynced_and_nothing_moved(lab):
    assert STATE.get("restarted"), "not checked: the restart failed"
    for peer in PEERS:
        lab.expect("%s has skua's network" % peer, lambda: holds_dut_net(lab, peer), True,
                   timeout=30)
    lab.expect("FRR's path from skua is fresh", lambda: frr_path(lab),
               lambda p: None if p and not p.get("stale") else p, timeout=30)
    # FRR replaced its stale path by the same one in place: no new selection (its path's
    # table version is the one of before the restarts), so nothing moved downstream.
    before, after = STATE["frr_path"], frr_path(lab)
    assert after["version"] == before["version"], (before, after)
