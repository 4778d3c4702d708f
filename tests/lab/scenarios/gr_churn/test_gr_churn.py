# SPDX-License-Identifier: ISC
"""What skua's own graceful restart costs the kernel (issue 13, Must show 2).

skua runs in `bgp graceful-restart` mode and installs TABLE IPv6 /64s from a feeder (the raw
speaker with the Graceful Restart capability; CI 50,000, SKUALAB_FULL=1: 1,000,000).  Then,
twice, bgpd gets SIGKILL with the table in the kernel and is started again on the same
config, the feeder coming back with:
  1. the same table: the kernel must see no route change at all from the kill to
     convergence (not one delete and one add per route, as a cold start costs);
  2. the first WITHDRAWN prefixes gone and the next CHANGED ones with another next hop: the
     kernel must see exactly WITHDRAWN deletions and CHANGED replacements, nothing else.
A listener in the namespace (skualab/route_events.py) counts every route notification of
protocol bgp from just before the kill until the kernel holds the new table; meanwhile
forwarding never loses the routes (they are adopted, not removed and added back).
"""

import ipaddress
import json
import os
import signal
import time

import pytest

from skualab import faults
from skualab.daemons import Process

TABLE = faults.size(50000, 1000000)
WITHDRAWN = TABLE // 100
CHANGED = TABLE // 50
START = "2001:db8:1000::"
PREFIX_LEN = 64
FEEDER = "2001:db8:0:2::2"
NH = "2001:db8:0:2::2"
NH_OTHER = "2001:db8:0:2::3"  # on the link: resolves like the feeder's own address
LOAD_BOUND = faults.size(120, 900)
EVENTS_TOOL = os.path.join(os.path.dirname(faults.__file__), "route_events.py")
STATE = {}


def block(first, count, nexthop):
    start = ipaddress.IPv6Address(START) + (first << (128 - PREFIX_LEN))
    return ("[[announce]]\nafi = \"ipv6\"\ncount = %d\nstart = \"%s\"\nprefix_len = %d\n"
            "nexthop = \"%s\"\nas_path = [65002]\nmed_group = 100\n"
            % (count, start, PREFIX_LEN, nexthop))


def feeder_with(blocks):
    return lambda text: text.replace("@ANNOUNCE@", "\n".join(blocks))


def installed(lab):
    st = faults.fib_status(lab["dut"])
    return st.get("ipv6Routes", 0) if st else None


def kernel_routes(netns):
    """prefix -> next hop of the namespace's `proto bgp` IPv6 routes (text: fast at 1M)."""
    out = netns.exec(["ip", "-6", "route", "show", "table", "254", "proto", "bgp"],
                     timeout=300)
    routes = {}
    for line in out.splitlines():
        f = line.split()
        if f and not line[0].isspace():
            routes[f[0]] = f[f.index("via") + 1] if "via" in f else None
    return routes


def expected(slices):
    """prefix -> next hop for [(first, count, nexthop)]."""
    want = {}
    for first, count, nh in slices:
        for p in faults.announced(START, PREFIX_LEN, first + count, first=first):
            want[p] = nh
    return want


class Events:
    """The route-change listener in the DUT's namespace, from start() to stop()."""

    def __init__(self, dut, tag):
        self.log = os.path.join(dut.rundir, "route-events-%s.log" % tag)
        self.proc = Process("dut/route-events", dut.netns.exec_argv(
            ["/usr/bin/python3", "-u", EVENTS_TOOL]), self.log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "ready" not in open(self.log).read():
            assert self.proc.alive(), open(self.log).read()
            time.sleep(0.05)
        assert "ready" in open(self.log).read(), "the route listener did not start"

    def stop(self):
        time.sleep(1)  # the last notifications reach the listener
        self.proc.popen.send_signal(signal.SIGTERM)
        self.proc.popen.wait(timeout=30)
        self.proc.stop()
        lines = [ln for ln in open(self.log).read().splitlines() if ln.startswith("{")]
        assert lines, "the route listener reported nothing: %s" % open(self.log).read()
        return json.loads(lines[-1])


def restart(lab, slices, tag):
    """SIGKILL bgpd, start it again and the feeder with slices; the kernel's changes from the
    kill to convergence, the seconds it took and what bgpd logged meanwhile."""
    dut = lab["dut"]
    before = kernel_routes(dut.netns)
    base = len(faults.log_lines(dut))

    def new_log(pattern):
        return [ln for ln in faults.log_lines(dut)[base:] if pattern in ln]
    events = Events(dut, tag)
    try:
        faults.kill_router(lab, "dut", signal.SIGKILL)
        t0 = time.monotonic()
        assert kernel_routes(dut.netns) == before, "SIGKILL changed the kernel's routes"
        # The feeder's session died with bgpd; it exits by itself (status 3).
        lab.started.discard("feeder")
        lab["feeder"].procs[0].popen.wait(timeout=30)
        lab["feeder"].stop()
        lab.start_router("dut")
        faults.start_router_with(lab, "feeder", feeder_with(
            [block(first, count, nh) for first, count, nh in slices]))
        lab.wait_established("dut", [FEEDER], timeout=60)
        want = expected(slices)
        lab.expect("bgpd installed the %d routes announced" % len(want),
                   lambda: installed(lab), lambda n: None if n == len(want) else "%s" % n,
                   timeout=LOAD_BOUND, interval=1)

        def kernel_differs(got):
            wrong = {p: (got.get(p), nh) for p, nh in want.items() if got.get(p) != nh}
            extra = set(got) - set(want)
            if not wrong and not extra:
                return None
            return "kernel != table: %d wrong (%s), %d extra (%s)" % (
                len(wrong), list(wrong.items())[:5], len(extra), sorted(extra)[:5])
        lab.expect("the kernel holds the new table", lambda: kernel_routes(dut.netns),
                   kernel_differs, timeout=LOAD_BOUND, interval=2)
        took = time.monotonic() - t0
    finally:
        counts = events.stop()
    assert counts["overflows"] == 0, "the listener lost notifications: %s" % counts
    return counts, took, new_log


@pytest.mark.timeout(LOAD_BOUND + 60)
def test_load(lab):
    dut = lab["dut"]
    faults.start_router_with(lab, "feeder", feeder_with([block(0, TABLE, NH)]))
    lab.wait_established("dut", [FEEDER], timeout=60)
    lab.expect("bgpd installed the %d routes" % TABLE, lambda: installed(lab),
               lambda n: None if n == TABLE else "%s installed" % n,
               timeout=LOAD_BOUND, interval=1)
    assert len(kernel_routes(dut.netns)) == TABLE
    STATE["loaded"] = True


@pytest.mark.timeout(2 * LOAD_BOUND + 120)
def test_restart_with_nothing_changed_costs_the_kernel_nothing(lab):
    assert STATE.get("loaded"), "not checked: the load failed"
    counts, took, log = restart(lab, [(0, TABLE, NH)], "same")
    print("restart, same table of %d: %d route changes in the kernel (%d new, %d deleted) "
          "from SIGKILL to convergence in %.1fs" % (TABLE, counts["new"] + counts["del"],
                                                  counts["new"], counts["del"], took))
    assert counts["new"] == 0 and counts["del"] == 0, counts
    assert log("kept %d IPv4 and %d IPv6 routes" % (0, TABLE)), "bgpd did not adopt the table"
    assert not log("left by an earlier run"), "bgpd purged the table"
    assert log("%d unchanged, 0 replaced, 0 removed" % TABLE), log("graceful restart done")
    gr = faults.fib_status(lab["dut"])["gracefulRestart"]
    assert gr == {"adoptedAtStart": TABLE, "selectionDeferred": False, "unchanged": TABLE,
                  "replaced": 0, "removed": 0}, gr
    STATE["same"] = True


@pytest.mark.timeout(2 * LOAD_BOUND + 120)
def test_restart_with_changes_moves_only_them(lab):
    assert STATE.get("same"), "not checked: the first restart failed"
    slices = [(WITHDRAWN, CHANGED, NH_OTHER),
              (WITHDRAWN + CHANGED, TABLE - WITHDRAWN - CHANGED, NH)]
    counts, took, log = restart(lab, slices, "changed")
    print("restart, %d withdrawn and %d with a new next hop out of %d: %d new, %d deleted "
          "route notifications from SIGKILL to convergence in %.1fs"
          % (WITHDRAWN, CHANGED, TABLE, counts["new"], counts["del"], took))
    assert counts["del"] == WITHDRAWN, counts
    assert counts["new"] == CHANGED, counts
    assert log("%d unchanged, %d replaced, %d removed" % (
        TABLE - WITHDRAWN - CHANGED, CHANGED, WITHDRAWN)), log("graceful restart done")
    gr = faults.fib_status(lab["dut"])["gracefulRestart"]
    assert gr == {"adoptedAtStart": TABLE, "selectionDeferred": False,
                  "unchanged": TABLE - WITHDRAWN - CHANGED, "replaced": CHANGED,
                  "removed": WITHDRAWN}, gr
