# SPDX-License-Identifier: ISC
"""Flapping peers: 100 dynamic neighbors coming and going, config reloads, one stable peer.

The stable feeder holds TABLE IPv6 /64s (CI 50,000; SKUALAB_FULL=1: 1,000,000), installed in
the kernel.  Once it is in and bgpd is idle, bgpd's VmRSS is the baseline.  Then
skualab/flapper.py plays FLAPPERS peers from 100 addresses of a listen range: each opens a
session, announces 10 /48s, stays 1-4 s, leaves (Cease or a bare close, by turns), comes back
0.5-2 s later, for FLAP_SECONDS (CI 40 s; full 600 s).  Every RELOAD seconds (CI 10 s; full
30 s) the test toggles a line of the config file (FLAP-IN's metric, the feeder's description)
and sends SIGHUP.
Pass condition: bgpd never dies (under the sanitizer build too: the lab fails a scenario whose
log holds a sanitizer report), the stable session never drops (connectionsDropped and
connectionsEstablished unchanged, the feeder still up), the flappers really flapped, every
reload was applied, and once they stop and bgpd is idle again its VmRSS is within 5% of the
baseline (at CI size, plus FIXED_KB; under ASan, the bytes of bgpd's own counters instead).
"""

import json
import os
import signal
import time

import pytest

from skualab import faults
from skualab.daemons import Process

TABLE = faults.size(50000, 1000000)
FLAPPERS = 100
FLAP_SECONDS = faults.size(40, 600)
RELOAD = faults.size(10, 30)
RSS_SLACK = 0.05
# What bgpd keeps after a burst that does not grow with time or with the table: the last
# reloads' configurations (commit history, for rollback), the next-hop cache (at most twice the
# next hops in use, plus 64), the RIB's slab chunks at their peak. About 1.5 MB at CI size,
# where the baseline is 12 MB; nothing next to a full table's, judged on the 5% alone.
FIXED_KB = faults.size(2048, 0)
# How long bgpd may stay busy once the flappers are gone: the sessions that were sent the
# table leave walks of it behind (their advertised bits are cleared prefix by prefix; one walk
# serves every session queued meanwhile, rib_cleanup_run). Before that batching, each session
# had a walk of its own: minutes at full size.
DRAIN = faults.size(120, 600)
FEEDER = "2001:db8:0:2::2"
FLAP_BASE = "2001:db8:0:3::100"
LOAD_BOUND = faults.size(120, 600)
FLAPPER = os.path.join(os.path.dirname(faults.__file__), "flapper.py")
STATE = {}


def stable(dut):
    n = dut.neighbor(FEEDER)[FEEDER]
    return n.get("bgpState"), n.get("connectionsEstablished"), n.get("connectionsDropped")


def mem_types(dut):
    """{type: (allocations, bytes)} from `show memory json`, and the allocator's view."""
    doc = dut.vtysh_json("show memory json")
    out = {t["name"]: (t["current"], t["bytes"]) for t in doc["types"]}
    out["(allocator)"] = (doc["systemAllocator"].get("usedOrdinaryBlocks"),
                          doc["systemAllocator"].get("freeOrdinaryBlocks"))
    return out


def toggle_config(path, n):
    """Edit the config file as an operator would: the metric and description alternate."""
    with open(path) as f:
        text = f.read()
    metric, desc = (" set metric 20", "stable feeder B") if n % 2 else (" set metric 10",
                                                                         "stable feeder A")
    for old, new in ((" set metric 10", metric), (" set metric 20", metric),
                     ("stable feeder A", desc), ("stable feeder B", desc)):
        text = text.replace(old, new)
    with open(path, "w") as f:
        f.write(text)
    return metric.strip(), desc


@pytest.mark.timeout(LOAD_BOUND + 120)
def test_stable_table_and_baseline(lab):
    dut = lab["dut"]
    faults.start_router_with(lab, "feeder", lambda t: t.replace("@COUNT@", str(TABLE))
                             .replace("@START@", "2001:db8:1000::"))
    lab.wait_established("dut", [FEEDER], timeout=60)
    lab.expect("the table is installed", lambda: (faults.fib_status(dut) or {}).get(
        "ipv6Routes"), TABLE, timeout=LOAD_BOUND)
    pid = faults.bgpd_pid(dut)
    faults.wait_quiet_cpu(pid, timeout=120)
    doc = dut.vtysh_json("show memory json")
    STATE.update(pid=pid, rss=faults.rss_kb(pid), stable=stable(dut), types=mem_types(dut),
                 mem=doc["totalCurrent"], bytes=doc["totalBytes"])
    assert STATE["stable"][0] == "Established", STATE["stable"]
    print("baseline with %d routes: VmRSS %d kB, %d allocations"
          % (TABLE, STATE["rss"], STATE["mem"]))


@pytest.mark.timeout(FLAP_SECONDS + 240)
def test_flapping_and_reloads(lab):
    assert STATE.get("pid"), "not checked: the table never loaded"
    dut, flap = lab["dut"], lab["flap"]
    batch = "".join("addr add 2001:db8:0:3::%x/64 dev to-dut nodad\n" % (0x100 + i)
                    for i in range(FLAPPERS))
    flap.netns.exec(["ip", "-batch", "-"], input=batch.encode())
    log = os.path.join(flap.rundir, "flapper.log")
    proc = Process("flap/flapper", flap.netns.exec_argv(
        ["/usr/bin/python3", FLAPPER, "--peer", "2001:db8:0:3::1", "--base", FLAP_BASE,
         "--count", str(FLAPPERS), "--seconds", str(FLAP_SECONDS)]), log)
    reloads, dynamic_seen = [], 0
    try:
        t0 = next_reload = time.monotonic()
        next_reload += RELOAD
        while proc.alive():
            lab.check_alive()
            assert lab["feeder"].procs[0].alive(), "the stable feeder's session ended"
            state = stable(dut)
            assert state == STATE["stable"], "the stable session moved: %s, was %s" % (
                state, STATE["stable"])
            peers = dut.summary("ipv6").get("peers", {})
            dynamic_seen = max(dynamic_seen, sum(1 for a in peers if a != FEEDER))
            if time.monotonic() >= next_reload:
                change = toggle_config(dut.config_path(), len(reloads) + 1)
                os.kill(STATE["pid"], signal.SIGHUP)
                reloads.append(change)
                next_reload += RELOAD
            assert time.monotonic() - t0 < FLAP_SECONDS + 60, "the flapper did not stop"
            time.sleep(1)
        assert proc.returncode() == 0, open(log).read()[-2000:]
    finally:
        proc.stop()
    with open(log) as f:
        report = json.loads(f.read().splitlines()[-1])
    STATE["flapped"] = report
    assert report["established"] >= FLAPPERS * 2, report
    assert min(report["per_peer"]) >= 1, "a flapper never got a session: %s" % report
    assert dynamic_seen > 0
    assert len(reloads) >= FLAP_SECONDS // RELOAD - 1
    metric, desc = reloads[-1]
    lab.expect("the last reload applied", lambda: dut.vtysh("show running-config"),
               lambda t: None if metric in t and desc in t else "not applied", timeout=30)
    print("%d flapping peers for %ds: %d sessions established, %d failed attempts, at most %d "
          "dynamic neighbors seen; %d reloads; stable session intact"
          % (FLAPPERS, FLAP_SECONDS, report["established"], report["failures"],
             dynamic_seen, len(reloads)))


@pytest.mark.timeout(DRAIN + 300)
def test_memory_back_to_baseline(lab):
    """Once the flappers are gone and bgpd is idle, its memory returns to the baseline within
    RSS_SLACK (plus FIXED_KB at CI size): VmRSS (bgpd gives freed heap back, lib/mem_trim.c, within seconds), or under
    ASan, whose quarantine keeps freed memory resident, the bytes bgpd's own counters hold
    (`show memory`: every allocation by type)."""
    assert STATE.get("flapped"), "not checked: the flapping step failed"
    dut, pid = lab["dut"], STATE["pid"]
    lab.expect("every dynamic neighbor gone", lambda: dut.summary("ipv6").get("peers", {}),
               lambda p: None if list(p) == [FEEDER] else "%d peers" % len(p), timeout=120)
    t0 = time.monotonic()
    faults.wait_quiet_cpu(pid, timeout=DRAIN)
    print("bgpd idle %.0f s after the last flapper left" % (time.monotonic() - t0))
    asan = faults.sanitized(pid)
    if asan:
        what, base, fixed = "bytes held (show memory)", STATE["bytes"], FIXED_KB * 1024
        measure = lambda: dut.vtysh_json("show memory json")["totalBytes"]  # noqa: E731
    else:
        what, base, fixed = "VmRSS kB", STATE["rss"], FIXED_KB
        measure = lambda: faults.rss_kb(pid)  # noqa: E731
    bound = base * (1 + RSS_SLACK) + fixed
    seen = []

    def settled():
        seen.append(measure())
        return None if seen[-1] <= bound else "%d" % seen[-1]

    try:
        lab.expect("%s back within %d%% (+%d) of the baseline %d" % (
            what, RSS_SLACK * 100, fixed, base), lambda: None, lambda _: settled(), timeout=30)
    finally:
        now = mem_types(dut)
        moved = {k: (STATE["types"].get(k), now.get(k)) for k in set(now) | set(STATE["types"])
                 if now.get(k) != STATE["types"].get(k)}
        print("memory types that moved (before, after): %s" % json.dumps(moved, sort_keys=True))
        print("after flapping: %s %s (baseline %d, %+.1f%%); VmRSS %d kB (baseline %d kB)"
              % (what, seen[-1] if seen else "?", base,
                 (seen[-1] / base - 1) * 100 if seen else 0, faults.rss_kb(pid), STATE["rss"]))
    assert stable(dut) == STATE["stable"]
