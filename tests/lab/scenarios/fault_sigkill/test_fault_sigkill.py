# SPDX-License-Identifier: ISC
"""SIGKILL during a big table load, then restart: the kernel ends equal to BGP's best routes.

The feeder sends TABLE IPv6 /64s (CI 100,000; SKUALAB_FULL=1: 1,000,000) and skua installs
them into its namespace's main table.  Once a twentieth of them are in the kernel, bgpd gets
SIGKILL: no clean-up runs, its routes stay in the kernel and the feeder's session dies.  The
feeder comes back announcing all but the first tenth of the table (that slice was surely
installed by the killed run, and is now withdrawn), and bgpd is started again on the same
config.  After convergence the kernel's `proto bgp` routes equal the table announced (nothing
stale: no withdrawn prefix is left; nothing lost), and equal what bgpd says it installed.
"""

import ipaddress
import signal
import time

import pytest

from skualab import faults

TABLE = faults.size(100000, 1000000)
WITHDRAWN = TABLE // 10  # the first tenth, absent from the second announcement
START = "2001:db8:1000::"
PREFIX_LEN = 64
FEEDER = "2001:db8:0:2::2"
LOAD_BOUND = faults.size(120, 600)  # seconds for a whole table to be installed
STATE = {}


def speaker_config(first, count):
    start = ipaddress.IPv6Address(START) + (first << (128 - PREFIX_LEN))
    return lambda text: text.replace("@COUNT@", str(count)).replace("@START@", str(start))


def installed(lab):
    st = faults.fib_status(lab["dut"])
    return st.get("ipv6Routes", 0) if st else None


@pytest.mark.timeout(LOAD_BOUND + 60)
def test_kill_mid_load(lab):
    dut = lab["dut"]
    faults.start_router_with(lab, "feeder", speaker_config(0, TABLE))
    # No wait for the session: the table loads within a second at CI size; poll at once.
    t0 = time.monotonic()
    deadline = t0 + LOAD_BOUND
    seen = 0
    while time.monotonic() < deadline:
        lab.check_alive()
        seen = installed(lab) or seen
        if seen >= TABLE // 20:
            break
        time.sleep(0.05)
    assert seen >= TABLE // 20, "only %d of %d routes installed after %ds" % (
        seen, TABLE, LOAD_BOUND)
    pid = faults.bgpd_pid(dut)
    rss = faults.rss_kb(pid)
    faults.kill_router(lab, "dut", signal.SIGKILL)
    kernel = faults.kernel_bgp_prefixes(dut.netns, 6)
    slice_ = faults.announced(START, PREFIX_LEN, WITHDRAWN)
    STATE["killed"] = True
    print("SIGKILL after %.1fs with %d routes reported installed; %d proto bgp routes left "
          "in the kernel, %d of the slice to withdraw; bgpd VmRSS %d kB"
          % (time.monotonic() - t0, seen, len(kernel), len(kernel & slice_), rss))
    # The feeder's session died with bgpd; it exits by itself (status 3).
    lab.started.discard("feeder")
    lab["feeder"].procs[0].popen.wait(timeout=30)
    lab["feeder"].stop()
    assert kernel, "the killed bgpd left nothing in the kernel: nothing to prove"
    assert len(kernel) < TABLE, "bgpd was killed after the load, not during it"
    assert kernel < faults.announced(START, PREFIX_LEN, TABLE), (
        "the kernel held routes the feeder never sent before the restart")
    assert kernel & slice_, "no route of the slice to withdraw was installed before the kill"


@pytest.mark.timeout(LOAD_BOUND + 240)
def test_restart_converges_to_the_new_table(lab):
    assert STATE.get("killed"), "not checked: the kill step failed"
    dut = lab["dut"]
    want = faults.announced(START, PREFIX_LEN, TABLE, first=WITHDRAWN)
    t0 = time.monotonic()
    lab.start_router("dut")
    faults.start_router_with(lab, "feeder", speaker_config(WITHDRAWN, TABLE - WITHDRAWN))
    lab.wait_established("dut", [FEEDER], timeout=60)
    lab.expect("bgpd installed the %d routes announced" % len(want), lambda: installed(lab),
               lambda n: None if n == len(want) else "%s installed" % n,
               timeout=LOAD_BOUND, interval=1)
    took = time.monotonic() - t0
    pid = faults.bgpd_pid(dut)
    peer = dut.summary("ipv6")["peers"][FEEDER]
    assert peer["pfxRcd"] == len(want), peer

    def kernel_equals():
        return faults.set_diff("kernel", faults.kernel_bgp_prefixes(dut.netns, 6),
                               "announced", want)
    lab.expect("kernel == the table announced after the restart", kernel_equals, None,
               timeout=60, interval=5)
    shown = faults.shown_installed(dut, 6, timeout=300)
    diff = faults.set_diff("show ipv6 route json", shown, "announced", want)
    assert diff is None, diff
    fib = faults.fib_status(dut)
    print("restart to convergence: %.1fs; %d routes in kernel == BGP best == announced; "
          "%d purged at start; bgpd VmRSS %d kB, VmHWM %d kB"
          % (took, len(want), fib["purgedAtStart"], faults.rss_kb(pid),
             faults.proc_status(pid)["VmHWM"]))
    assert faults.log_lines(dut, "left by an earlier run"), (
        "bgpd did not log the removal of the killed run's routes")
