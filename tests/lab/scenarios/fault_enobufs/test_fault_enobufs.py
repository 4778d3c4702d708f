# SPDX-License-Identifier: ISC
"""netlink ENOBUFS: a route storm overruns bgpd's route-watch socket while it installs a table.

The feeder sends TABLE IPv6 /64s (CI 100,000; SKUALAB_FULL=1: 1,000,000) that bgpd installs
into its namespace's kernel, and at the same moment skualab/route_storm.py, inside the same
namespace, adds and deletes IPv4 /32 routes in the main table as fast as the kernel takes them
(hundreds of thousands of changes a second) for STORM seconds.  Each change is a notification
to bgpd's monitor socket, which overruns (ENOBUFS).  Pass condition:
  - bgpd says so in its log and resynchronises (`show bgp fib json` kernelResyncs > 0);
  - it stays responsive during the storm (every `show bgp fib json` answered within
    RESPONSIVE seconds);
  - at the end the kernel's `proto bgp` routes equal the table announced and what bgpd says
    it installed, and bgpd's mirror of the kernel's own routes holds exactly the routes the
    main table holds (the storm's last state included): nothing lost for good.
"""

import json
import os
import time

import pytest

from skualab import faults
from skualab.daemons import Process

TABLE = faults.size(100000, 1000000)
STORM = faults.size(10, 30)  # seconds
RESPONSIVE = 5.0  # seconds: the longest a `show` may wait during the storm
START = "2001:db8:1000::"
PREFIX_LEN = 64
FEEDER = "2001:db8:0:2::2"
LOAD_BOUND = faults.size(120, 600)
STORM_TOOL = os.path.join(os.path.dirname(faults.__file__), "route_storm.py")
STATE = {}


def speaker_config(text):
    return text.replace("@COUNT@", str(TABLE)).replace("@START@", START)


def main_table_v4(netns):
    """The main table's IPv4 unicast routes that are not BGP's: what bgpd's mirror holds."""
    out = netns.exec(["ip", "-4", "route", "show", "table", "main", "type", "unicast"])
    return [ln for ln in out.splitlines() if ln and not ln[0].isspace()
            and " proto bgp " not in ln + " "]


@pytest.mark.timeout(LOAD_BOUND + STORM + 60)
def test_storm_during_install(lab):
    dut = lab["dut"]
    storm_log = os.path.join(dut.rundir, "storm.log")
    storm = Process("dut/storm", dut.netns.exec_argv(
        ["/usr/bin/python3", STORM_TOOL, "--seconds", str(STORM)]), storm_log)
    try:
        faults.start_router_with(lab, "feeder", speaker_config)
        t0 = time.monotonic()
        slowest, samples = 0.0, 0
        while storm.alive():
            lab.check_alive()
            t = time.monotonic()
            st = faults.fib_status(dut, timeout=RESPONSIVE * 4)
            took = time.monotonic() - t
            slowest = max(slowest, took)
            samples += 1
            assert st is not None and took <= RESPONSIVE, (
                "bgpd took %.1fs to answer `show bgp fib json` during the storm (at most "
                "%.0fs allowed)" % (took, RESPONSIVE))
            time.sleep(0.5)
        assert storm.returncode() == 0, "the storm failed: %s" % open(storm_log).read()
    finally:
        storm.stop()
    with open(storm_log) as f:
        report = json.loads(f.read().splitlines()[-1])
    STATE["storm"] = report
    print("storm: %d route changes in %ss (%d/s); bgpd answered %d queries, slowest %.2fs; "
          "%.1fs since the feeder started"
          % (report["changes"], report["seconds"], report["rate"], samples, slowest,
             time.monotonic() - t0))


@pytest.mark.timeout(LOAD_BOUND + 240)
def test_resynchronised_and_kernel_equals_bgp(lab):
    assert STATE.get("storm"), "not checked: the storm step failed"
    dut = lab["dut"]
    want = faults.announced(START, PREFIX_LEN, TABLE)
    lab.expect("bgpd installed the %d routes announced" % TABLE,
               lambda: (faults.fib_status(dut) or {}).get("ipv6Routes"),
               lambda n: None if n == TABLE else "%s installed" % n,
               timeout=LOAD_BOUND, interval=1)
    fib = faults.fib_status(dut)
    assert fib["kernelResyncs"] > 0, "no resynchronisation after ENOBUFS: %s" % fib

    def kernel_equals():
        return faults.set_diff("kernel", faults.kernel_bgp_prefixes(dut.netns, 6),
                               "announced", want)
    lab.expect("kernel == the table announced", kernel_equals, None, timeout=60, interval=5)
    diff = faults.set_diff("show ipv6 route json", faults.shown_installed(dut, 6, timeout=300),
                           "announced", want)
    assert diff is None, diff

    # The mirror of the kernel's own routes: the storm's leftovers (STATE's "left" /32s)
    # and the connected network, no more, no less.
    kernel_v4 = main_table_v4(dut.netns)
    assert len(kernel_v4) == 1 + STATE["storm"]["left"], kernel_v4
    lab.expect("bgpd's mirror holds the %d IPv4 routes of the main table" % len(kernel_v4),
               lambda: faults.fib_status(dut), {"kernelRoutesIpv4": len(kernel_v4)},
               timeout=30)
    lines = faults.log_lines(dut, "ENOBUFS")
    assert lines, "bgpd did not log the lost kernel notifications (ENOBUFS)"
    print("after the storm: %d resyncs, %d log lines like %r; kernel == BGP (%d routes); "
          "mirror == kernel (%d IPv4 routes)"
          % (fib["kernelResyncs"], len(lines), lines[0][-120:], TABLE, len(kernel_v4)))
