# SPDX-License-Identifier: ISC
"""Graceful restart, skua as the helper (RFC 4724 4.2): FRR 8.4, BIRD 2 and GoBGP 3 restart.

Each peer announces two prefixes to dut (skua), which advertises them to obs (FRR) and installs
them in its kernel. The peer then restarts gracefully, the way each does it:
- FRR: bgpd (restart mode, preserve-fw-state: the F bit) killed with SIGKILL and started again;
- BIRD: `birdc graceful restart`, then bird -R (graceful restart recovery);
- GoBGP: gobgpd killed with SIGKILL and started again with -r (the R bit).
While the peer is away, dut keeps its routes, marked stale (`S`, "stale": true), in its
kernel and towards obs. The restarted peer announces only the first prefix: once it has sent
End-of-RIB, dut has that one (no longer stale) and the second is gone, from dut, its kernel and
obs. Then RFC 8538 with FRR (test_notification_with_n_bit). Last, FRR with a restart time of
4 s stays away longer than that: dut flushes its routes.
"""

import os
import signal
import time

import pytest

from skualab import faults

FRR, BIRD, GOBGP, OBS = "192.0.2.2", "192.0.2.6", "192.0.2.10", "192.0.2.14"
PEERS = {"frr": FRR, "bird": BIRD, "gobgp": GOBGP}
# What each peer announces: (kept through the restart, gone after it).
ROUTES = {"frr": ("198.51.100.0/28", "198.51.100.16/28"),
          "bird": ("198.51.100.48/28", "198.51.100.64/28"),
          "gobgp": ("198.51.100.96/28", "198.51.100.112/28")}


def dut_paths(lab, prefix):
    """dut's paths for prefix: [{"peer", "stale", "valid"}], [] when it has none."""
    routes = lab["dut"].vtysh_json("show bgp ipv4 unicast json").get("routes", {})
    return [{"peer": p.get("peerId"), "stale": bool(p.get("stale")),
             "valid": bool(p.get("valid"))} for p in routes.get(prefix, [])]


def obs_has(lab, prefix):
    return prefix in lab["obs"].vtysh_json("show bgp ipv4 unicast json").get("routes", {})


def kernel(lab):
    return faults.kernel_bgp_prefixes(lab["dut"].netns, 4)


def state(lab, name):
    """Where dut, its kernel and obs stand on name's two prefixes."""
    kept, gone = ROUTES[name]
    k = kernel(lab)
    return {"kept": {"dut": dut_paths(lab, kept), "kernel": kept in k, "obs": obs_has(lab, kept)},
            "gone": {"dut": dut_paths(lab, gone), "kernel": gone in k, "obs": obs_has(lab, gone)}}


# FRR standing in for skua (SKUALAB_STANDIN=frr, which proves the restart tests against FRR
# 8.4's own helper: they pass) runs bgpd with -n: its kernel is not looked at then.
KERNEL = os.environ.get("SKUALAB_STANDIN") != "frr"


def everywhere(peer, stale):
    want = {"dut": [{"peer": peer, "stale": stale, "valid": True}], "obs": True}
    if KERNEL:
        want["kernel"] = True
    return want


NOWHERE = {"dut": [], "obs": False}
if KERNEL:
    NOWHERE["kernel"] = False


def session_state(lab, addr):
    return lab["dut"].peers().get(addr, {}).get("state")


def check_restart(lab, name, stop, start):
    """The restart of one peer, as the module docstring says."""
    peer = PEERS[name]
    lab.expect("%s's routes at dut, in its kernel and at obs" % name, lambda: state(lab, name),
               {"kept": everywhere(peer, False), "gone": everywhere(peer, False)}, timeout=45)
    stop()
    lab.expect("dut: the session with %s down" % name, lambda: session_state(lab, peer),
               lambda s: "still Established" if s == "Established" else None, timeout=20)
    # Kept, stale, while the peer is away: looked at several times over a few seconds.
    for _ in range(3):
        lab.expect("%s away: its routes kept, stale" % name, lambda: state(lab, name),
                   {"kept": everywhere(peer, True), "gone": everywhere(peer, True)}, timeout=5)
        time.sleep(1)
    text = lab["dut"].vtysh("show bgp ipv4 unicast")
    assert "S>" in text.replace(" ", ""), text
    # FRR's view of a peer away (captured from FRR 8.4 on the same state).
    gr = lab["dut"].vtysh_json("show bgp ipv4 neighbors %s graceful-restart json" % peer)[peer]
    assert gr["remoteGrMode"] == "NotApplicable" and gr["rBit"] is False, gr
    assert 0 <= gr["timers"]["restartTimerRemaining"] <= 20, gr
    nbr = lab["dut"].neighbor(peer)[peer]
    # FRR's "Active (NSF passive)"; between connection attempts only.
    assert nbr["bgpState"] != "Active" or nbr.get("bgpStateIs") == "passiveNSF", nbr["bgpState"]
    assert nbr["gracefulRestartInfo"]["timers"]["restartTimerRemaining"] <= 20, nbr
    detail = lab["dut"].vtysh("show bgp ipv4 unicast %s" % ROUTES[name][0])
    assert ", (stale)" in detail and "Time until Graceful Restart stale route deleted" in detail, \
        detail
    start()
    lab.expect("%s back: the re-announced route fresh, the other one gone" % name,
               lambda: state(lab, name),
               {"kept": everywhere(peer, False), "gone": NOWHERE}, timeout=45)
    gr = lab["dut"].vtysh_json("show bgp ipv4 neighbors %s graceful-restart json" % peer)[peer]
    assert gr["remoteGrMode"] == "Restart" and gr["localGrMode"] == "Helper*", gr
    assert gr["ipv4Unicast"]["endOfRibStatus"]["endOfRibRecv"] is True, gr
    text = lab["dut"].vtysh("show bgp neighbors %s" % peer)
    assert "    Graceful Restart Capability: advertised and received\n" in text, text


@pytest.mark.timeout(120)
def test_sessions(lab):
    lab.wait_all_established({"dut": [FRR, BIRD, GOBGP, OBS]}, timeout=60)
    lab["gobgp"].gobgp("global rib add %s -a ipv4" % ROUTES["gobgp"][1])


@pytest.mark.timeout(120)
def test_frr_restarts(lab):
    lab.require_established("dut", [FRR])
    check_restart(
        lab, "frr", lambda: faults.kill_router(lab, "frr", signal.SIGKILL),
        lambda: faults.start_router_with(
            lab, "frr", lambda t: t.replace("  network 198.51.100.16/28\n", "")))


@pytest.mark.timeout(120)
def test_bird_restarts(lab):
    lab.require_established("dut", [BIRD])

    def stop():
        lab["bird"].birdc("graceful restart")
        lab["bird"].procs[0].popen.wait(timeout=15)
        lab.stop_router("bird")

    def start():
        lab["bird"].extra_args = ("-R",)
        faults.start_router_with(
            lab, "bird", lambda t: t.replace("  route 198.51.100.64/28 blackhole; # GONE\n", ""))

    check_restart(lab, "bird", stop, start)


@pytest.mark.timeout(120)
def test_gobgp_restarts(lab):
    lab.require_established("dut", [GOBGP])

    def start():
        lab["gobgp"].extra_args = ("-r",)
        faults.start_router_with(lab, "gobgp", None)

    check_restart(lab, "gobgp", lambda: faults.kill_router(lab, "gobgp", signal.SIGKILL),
                  start)


@pytest.mark.timeout(120)
def test_notification_with_n_bit(lab):
    """RFC 8538 with FRR (both send the N bit). FRR's `clear bgp` without its default
    hard-administrative-reset sends Cease/Administrative Reset: dut keeps FRR's routes, stale.
    With it, FRR sends Cease/Hard Reset: dut drops them. dut's `neighbor shutdown` goes to FRR
    as a Hard Reset carrying Cease/Administrative Shutdown."""
    if not KERNEL:
        pytest.skip("reads skua's log lines")
    lab.require_established("dut", [FRR])
    kept = ROUTES["frr"][0]
    lab.expect("frr's route at dut", lambda: dut_paths(lab, kept),
               [{"peer": FRR, "stale": False, "valid": True}], timeout=30)
    lost = len(faults.log_lines(lab["dut"], "192.0.2.2: graceful restart: session lost"))
    lab["frr"].vtysh("configure terminal", "router bgp 65001", "no bgp hard-administrative-reset")
    lab["frr"].vtysh("clear bgp 192.0.2.1")
    lab.expect("dut: a soft NOTIFICATION with the N bit keeps frr's routes",
               lambda: len(faults.log_lines(lab["dut"],
                                            "192.0.2.2: graceful restart: session lost")),
               lambda n: None if n == lost + 1 else "%d losses kept, want %d" % (n, lost + 1),
               timeout=15)
    assert faults.log_lines(lab["dut"], "received NOTIFICATION 6/4 (Cease/Administrative Reset)")
    lab.wait_established("dut", [FRR], timeout=30)
    lab.expect("frr's route fresh again", lambda: dut_paths(lab, kept),
               [{"peer": FRR, "stale": False, "valid": True}], timeout=30)

    lab["frr"].vtysh("configure terminal", "router bgp 65001", "bgp hard-administrative-reset")
    lab["frr"].vtysh("clear bgp 192.0.2.1")
    lab.expect("dut: FRR's Hard Reset received",
               lambda: faults.log_lines(lab["dut"], "received NOTIFICATION 6/9"),
               lambda lines: None if lines else "none yet", timeout=15)
    assert len(faults.log_lines(lab["dut"], "192.0.2.2: graceful restart: session lost")) \
        == lost + 1, "a Hard Reset kept the routes"
    lab.wait_established("dut", [FRR], timeout=30)

    lab["dut"].vtysh("configure terminal", "router bgp 65000", "neighbor 192.0.2.2 shutdown")
    lab.expect("frr: our shutdown arrives as a Hard Reset",
               lambda: [ln.strip() for ln in lab["frr"].vtysh("show bgp neighbors 192.0.2.1")
                        .splitlines() if "Last reset" in ln or "Notification" in ln],
               lambda lines: None if "Notification received (Cease/Administrative Shutdown/Hard "
               "Reset)" in " ".join(lines)
               else "not yet", timeout=15)
    lab["dut"].vtysh("configure terminal", "router bgp 65000", "no neighbor 192.0.2.2 shutdown")
    lab.wait_established("dut", [FRR], timeout=30)


@pytest.mark.timeout(120)
def test_restart_longer_than_restart_time(lab):
    """FRR announces a restart time of 4 s and stays away 8 s: dut flushes at 4 s."""
    lab.require_established("dut", [FRR])
    faults.kill_router(lab, "frr", signal.SIGKILL)
    faults.start_router_with(
        lab, "frr", lambda t: t.replace("restart-time 20", "restart-time 4"))
    lab.wait_established("dut", [FRR], timeout=30)
    kept = ROUTES["frr"][0]
    lab.expect("frr's route back", lambda: state(lab, "frr")["kept"],
               everywhere(FRR, False), timeout=30)
    down_at = time.monotonic()
    faults.kill_router(lab, "frr", signal.SIGKILL)
    lab.expect("kept while within frr's restart time", lambda: dut_paths(lab, kept),
               [{"peer": FRR, "stale": True, "valid": True}], timeout=3)
    lab.expect("flushed once frr's restart time ran out", lambda: state(lab, "frr")["kept"],
               NOWHERE, timeout=15)
    assert time.monotonic() - down_at >= 3.5, "flushed before the restart time"
