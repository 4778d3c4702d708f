# SPDX-License-Identifier: ISC
"""vtysh clients disconnecting mid-output: bgpd stays healthy.

The feeder loads TABLE IPv6 /64s (CI 100,000; SKUALAB_FULL=1: 1,000,000).  Then, ROUNDS times,
a client asks for `show bgp ipv6 unicast` (the whole table, as text) on bgpd's vty socket,
reads the first 64 KiB of the answer and closes its socket.  After each round: bgpd's CPU
returns to idle within a bound, and a fresh vtysh answers `show bgp ipv6 unicast summary json`
within ANSWER seconds.  After the last round: no vty connection or buffer is left in bgpd's
memory counters (`show memory json`), its VmRSS is back within RSS_SLACK of the baseline taken
after one complete answer of the same command (the allocator keeps what it once used: that
much is not a leak; not judged under AddressSanitizer, whose quarantine keeps freed memory),
and the feeder's session never dropped.
"""

import time

import pytest

from skualab import faults, vty_client

TABLE = faults.size(100000, 1000000)
ROUNDS = 20
ANSWER = 2.0  # seconds
RSS_SLACK = 0.10  # of the baseline
READ = 64 * 1024
FEEDER = "2001:db8:0:2::2"
SHOW = "show bgp ipv6 unicast"
LOAD_BOUND = faults.size(120, 600)
STATE = {}


def vty_memory(dut):
    """{type name: (current allocations, bytes)} of the vty types in `show memory json`."""
    doc = dut.vtysh_json("show memory json")
    return {t["name"]: (t["current"], t["bytes"]) for t in doc["types"]
            if t["name"].startswith("vty")}


def timed_answer(dut):
    t = time.monotonic()
    text, status = vty_client.execute(dut.sock, "show bgp ipv6 unicast summary json",
                                      timeout=30)
    took = time.monotonic() - t
    assert status == 0 and FEEDER in text, (status, text[:300])
    return took


@pytest.mark.timeout(LOAD_BOUND + 120)
def test_table_loaded_and_baseline(lab):
    dut = lab["dut"]
    faults.start_router_with(lab, "feeder", lambda t: t.replace("@COUNT@", str(TABLE))
                             .replace("@START@", "2001:db8:1000::"))
    lab.wait_established("dut", [FEEDER], timeout=60)
    lab.expect("dut holds the table", lambda: dut.summary("ipv6")["peers"][FEEDER]["pfxRcd"],
               TABLE, timeout=LOAD_BOUND)
    pid = faults.bgpd_pid(dut)
    faults.wait_quiet_cpu(pid, timeout=60)
    # One complete answer first: what it costs once, the allocator keeps for the next.
    t = time.monotonic()
    text, status = vty_client.execute(dut.sock, SHOW, timeout=300)
    full_answer = time.monotonic() - t
    assert status == 0 and text.count("\n") > TABLE, text[-300:]
    faults.wait_quiet_cpu(pid, timeout=60)
    STATE.update(pid=pid, rss=faults.rss_kb(pid), vty=vty_memory(dut),
                 dropped=dut.neighbor(FEEDER)[FEEDER].get("connectionsDropped", 0))
    print("table of %d; one complete `%s`: %.1fs, %d bytes; baseline VmRSS %d kB, VmHWM %d kB"
          % (TABLE, SHOW, full_answer, len(text), STATE["rss"],
             faults.proc_status(pid)["VmHWM"]))


@pytest.mark.timeout(ROUNDS * 90 + 60)
def test_clients_hang_up_mid_output(lab):
    assert STATE.get("pid"), "not checked: the table never loaded"
    dut, pid = lab["dut"], STATE["pid"]
    slowest, rss = 0.0, []
    for i in range(ROUNDS):
        with vty_client.connect(dut.sock, timeout=300) as s:
            vty_client.request(s, SHOW)
            got = vty_client.read_some(s, READ)
            assert len(got) >= READ, "round %d: the answer ended after %d bytes" % (i, len(got))
        # Closed with most of the answer unread.
        faults.wait_quiet_cpu(pid, timeout=60)
        took = timed_answer(dut)
        slowest = max(slowest, took)
        assert took <= ANSWER, "round %d: a fresh vty took %.1fs to answer" % (i, took)
        rss.append(faults.rss_kb(pid))
    lab.check_alive()
    left = vty_memory(dut)
    assert left == STATE["vty"], ("vty memory after %d aborted outputs %s, before %s"
                                  % (ROUNDS, left, STATE["vty"]))
    dropped = dut.neighbor(FEEDER)[FEEDER].get("connectionsDropped", 0)
    assert dropped == STATE["dropped"], "the feeder's session dropped during the test"
    base = STATE["rss"]
    print("%d clients hung up after %d KiB of `%s`; slowest fresh answer %.2fs; VmRSS "
          "baseline %d kB, after each round %s kB"
          % (ROUNDS, READ // 1024, SHOW, slowest, base, rss))
    if faults.sanitized(pid):
        return  # ASan's quarantine keeps freed memory: the memory counters above judge
    assert rss[-1] <= base * (1 + RSS_SLACK), (
        "VmRSS %d kB after %d rounds, baseline %d kB (more than %d%% above)"
        % (rss[-1], ROUNDS, base, RSS_SLACK * 100))
