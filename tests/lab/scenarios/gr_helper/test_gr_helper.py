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
obs. Last, FRR with a restart time of 4 s stays away longer than that: dut flushes its routes.
"""

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


def everywhere(peer, stale):
    return {"dut": [{"peer": peer, "stale": stale, "valid": True}], "kernel": True, "obs": True}


NOWHERE = {"dut": [], "kernel": False, "obs": False}


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
    assert "S>" in text.replace(" ", "") or "S*>" in text.replace(" ", ""), text
    start()
    lab.expect("%s back: the re-announced route fresh, the other one gone" % name,
               lambda: state(lab, name),
               {"kept": everywhere(peer, False), "gone": NOWHERE}, timeout=45)


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
