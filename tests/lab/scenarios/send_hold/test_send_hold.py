# SPDX-License-Identifier: ISC
"""RFC 9687 send hold timer (issue 13, must-show 4): a peer that stops reading is dropped.

The feeder gives the DUT a table of 100,000 IPv6 prefixes. Then `stuck` (the raw speaker with
`stop_reading`) establishes, reads the DUT's OPEN and KEEPALIVE and never calls recv again,
while it keeps sending KEEPALIVEs (hold time 9 s), so the DUT's hold timer never fires. The
DUT has the whole table to send it and `neighbor ... timers send-hold 10`:
  - the session is dropped with Send Hold Timer Expired, 10 s after the output stalled
    (no sooner than 9 s after Established, no later than 20 s);
  - bgpd's VmRSS, sampled every 0.2 s from before the stuck peer came until after the drop,
    stays within 8 MiB of its value before (its output queue is bounded; the kernel's socket
    buffers are not bgpd's memory);
  - the feeder's session is untouched.
"""

import time

import pytest

from skualab import faults
from skualab.daemons import FrrBgpd

FEEDER, STUCK = "2001:db8:0:2::2", "2001:db8:0:3::2"
TABLE = 100000
SEND_HOLD = 10
RSS_BOUND_KB = 8 * 1024
STATE = {}


@pytest.mark.timeout(120)
def test_table_loaded(lab):
    lab.wait_established("dut", [FEEDER], timeout=60)
    lab.expect("the DUT holds the feeder's table",
               lambda: lab["dut"].summary("ipv6")["peers"][FEEDER],
               lambda p: None if p.get("pfxRcd") == TABLE else "pfxRcd %s" % p.get("pfxRcd"),
               timeout=90)


@pytest.mark.timeout(90)
def test_stuck_peer_dropped_with_bounded_memory(lab):
    lab.require_established("dut", [FEEDER])
    dut = lab["dut"]
    if isinstance(dut, FrrBgpd):
        pytest.skip("FRR 8.4 (standing in) has no send hold timer")
    pid = faults.bgpd_pid(dut)
    time.sleep(1)  # the table's work done: a quiet baseline
    base = faults.rss_kb(pid)
    samples = []
    lab.start_router("stuck")
    t_up = t_drop = None
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        lab.check_alive()
        samples.append(faults.rss_kb(pid))
        n = dut.neighbor(STUCK).get(STUCK, {})
        if t_up is None and n.get("connectionsEstablished", 0) >= 1:
            t_up = time.monotonic()
        if t_up is not None and n.get("connectionsDropped", 0) >= 1:
            t_drop = time.monotonic()
            break
        time.sleep(0.2)
    samples.append(faults.rss_kb(pid))
    STATE.update(base=base, samples=samples)
    assert t_up is not None, "the stuck speaker never established: %s" % lab["stuck"].status()
    assert t_drop is not None, ("not dropped %d s after Established; the DUT says:\n%s"
                                % (40, dut.vtysh("show bgp neighbors %s" % STUCK)))
    n = dut.neighbor(STUCK)[STUCK]
    took = t_drop - t_up
    print("stuck peer dropped %.1f s after Established (%s, %s); VmRSS %d kB before, "
          "at most %d kB meanwhile (+%d kB), %d samples"
          % (took, n.get("lastNotificationReason"), n.get("lastResetDueTo"), base,
             max(samples), max(samples) - base, len(samples)))
    assert n.get("lastNotificationReason") == "Send Hold Timer Expired", n
    assert SEND_HOLD - 1 <= took <= 2 * SEND_HOLD, "dropped after %.1f s" % took
    assert max(samples) - base <= RSS_BOUND_KB, (
        "VmRSS grew by %d kB while the peer did not read (bound %d kB): %s"
        % (max(samples) - base, RSS_BOUND_KB, samples))
    assert faults.log_lines(dut, "send hold timer expired"), "no log line for the drop"


@pytest.mark.timeout(30)
def test_feeder_untouched(lab):
    p = lab["dut"].neighbor(FEEDER)[FEEDER]
    assert p.get("bgpState") == "Established" and p.get("connectionsDropped", 0) == 0, p
    assert lab["dut"].summary("ipv6")["peers"][FEEDER]["pfxRcd"] == TABLE
