# SPDX-License-Identifier: ISC
"""1,000 vty connections opened and left idle: bgpd keeps serving a fresh vtysh.

bgpd's descriptor limit is lowered to NOFILE (prlimit) so that the 1,000 connections are more
than it could hold: production limits (systemd's soft 1,024) are of that order too.  The test
connects CONNECTIONS sockets to the vty socket (non-blocking: a connect the kernel refuses
because bgpd's backlog is full counts as refused) and sends nothing.  Pass condition, whatever
bgpd's policy (no cap; or a session cap with an idle timeout):
  - a fresh vtysh gets its answer within ANSWER seconds while they are open;
  - bgpd's descriptors stay below its limit (so its BGP sockets still open);
  - its log grows by at most LOG_LINES lines (no line per refused connection or per loop);
  - it is not spinning (CPU share below BUSY once the connections are made);
    (this and the log bound, and recovery once the clients leave, are also a test of their
    own that holds today: running out of descriptors must never spin or flood the log);
  - every connection was either refused, closed by bgpd, or answers a request: none hangs
    (accepted by the kernel and never served);
  - VmRSS grows by less than RSS_PER_CONN per connection, and once the clients close, the vty
    memory counters and bgpd's descriptor count are back to where they were.
"""

import os
import resource
import select
import socket
import subprocess
import time

import pytest

from skualab import faults
from skualab.probes import cpu_seconds
from skualab.runuser import set_nofile

CONNECTIONS = 1000
NOFILE = 512
ANSWER = 2.0
LOG_LINES = 20
BUSY = 0.2
RSS_PER_CONN = 32  # kB
SETTLE = 3.0  # seconds for bgpd to act on the connections (accept, refuse, close)
RECOVER = 10  # seconds for a fresh vtysh to be answered once the idle clients are gone


def vty_memory(dut):
    doc = dut.vtysh_json("show memory json")
    # Counts, not bytes: the counters record usable sizes, which vary with the allocator.
    return {t["name"]: t["current"] for t in doc["types"] if t["name"].startswith("vty")}


def fresh_answer(dut):
    """Seconds a new vtysh took to answer, or None when it got no answer in time."""
    t = time.monotonic()
    try:
        p = subprocess.run(dut.vtysh_argv(["show bgp summary json"]), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=ANSWER * 5)
    except subprocess.TimeoutExpired:
        return None
    took = time.monotonic() - t
    return took if p.returncode == 0 and b"192.0.2.2" in p.stdout else None


def open_idle(path, n, patience=0.1, bound=60):
    """n connections to path, each retried for `patience` seconds while the backlog is full
    (bgpd accepts between loop turns), all within `bound`; after ten refusals in a row the
    rest get one try each.  Returns (open sockets, refused count)."""
    socks, refused, in_a_row = [], 0, 0
    deadline = time.monotonic() + bound
    for _ in range(n):
        give_up = min(deadline, time.monotonic() + (patience if in_a_row < 10 else 0))
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
            try:
                s.connect(path)
                socks.append(s)
                in_a_row = 0
                break
            except (BlockingIOError, ConnectionRefusedError, OSError):
                s.close()
                if time.monotonic() >= give_up:
                    refused += 1
                    in_a_row += 1
                    break
                time.sleep(0.002)
    return socks, refused


def classify(socks, timeout=10):
    """For each open socket: closed by bgpd (EOF or reset), served (answers a request), or
    hanging.  Returns (closed, served, hanging) counts."""
    closed, pending = 0, []
    for s in socks:
        try:
            if s.recv(1, socket.MSG_PEEK) == b"":
                closed += 1
                continue
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
            continue
        try:
            s.send(b"xshow version\0")
            pending.append(s)
        except OSError:
            closed += 1
    served, got = 0, {s: b"" for s in pending}
    deadline = time.monotonic() + timeout
    while got and time.monotonic() < deadline:
        ready, _, _ = select.select(list(got), [], [], 0.5)
        for s in ready:
            try:
                chunk = s.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                closed += 1
                del got[s]
            elif (got[s] + chunk)[-4:-1] == b"\0\0\0":
                served += 1
                del got[s]
            else:
                got[s] += chunk
    return closed, served, len(got)


@pytest.fixture(scope="module")
def idle_run(lab):
    """Open the connections, measure, close them, measure again: the figures both tests
    judge (one run: it takes half a minute)."""
    dut = lab["dut"]
    pid = faults.bgpd_pid(dut)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < CONNECTIONS + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, CONNECTIONS * 2), hard))
    set_nofile(pid, (NOFILE, NOFILE))
    assert faults.nofile_limit(pid) == NOFILE
    r = {"base_fds": faults.fd_count(pid), "base_rss": faults.rss_kb(pid),
         "base_vty": vty_memory(dut)}
    base_log = len(faults.log_lines(dut))
    t_open = time.monotonic()
    socks, r["refused"] = open_idle(dut.sock, CONNECTIONS)
    try:
        time.sleep(SETTLE)
        r["fds"], r["rss"] = faults.fd_count(pid), faults.rss_kb(pid)
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(2)
        r["busy"] = (cpu_seconds(pid) - c0) / (time.monotonic() - t0)
        r["answer"] = fresh_answer(dut)
        r["closed"], r["served"], r["hanging"] = classify(socks)
        r["seconds"] = time.monotonic() - t_open
        r["log"] = len(faults.log_lines(dut)) - base_log
    finally:
        for s in socks:
            s.close()
    lab.check_alive()
    t = time.monotonic()
    r["answer_after"] = None
    while r["answer_after"] is None and time.monotonic() - t < RECOVER:
        r["answer_after"] = fresh_answer(dut)
    r["recovered"] = time.monotonic() - t
    lab.expect("bgpd's descriptors back to %d" % r["base_fds"], lambda: faults.fd_count(pid),
               lambda n: None if n <= r["base_fds"] + 1 else "%d descriptors" % n, timeout=30)
    r["vty_after"] = vty_memory(dut)
    print("%d connections in %.0fs: %d refused at connect, %d closed by bgpd, %d served, %d "
          "hanging; bgpd fds %d (limit %d, %d before), CPU %.0f%%, VmRSS %d -> %d kB, "
          "log +%d lines, fresh vtysh %s; after the clients closed: answered in %.1fs"
          % (CONNECTIONS, r["seconds"], r["refused"], r["closed"], r["served"], r["hanging"],
             r["fds"], NOFILE, r["base_fds"], r["busy"] * 100, r["base_rss"], r["rss"],
             r["log"], "%.2fs" % r["answer"] if r["answer"] is not None else "no answer",
             r["recovered"]))
    return r


@pytest.mark.timeout(180)
def test_out_of_descriptors_no_spin_no_flood(idle_run):
    """Whatever the policy, running out of descriptors costs no CPU and no log flood (at most
    one line a second), bgpd serves the clients it has, and answers again once they leave."""
    r = idle_run
    assert r["busy"] < BUSY, "bgpd uses %.0f%% of a CPU with idle clients" % (r["busy"] * 100)
    assert r["log"] <= LOG_LINES + r["seconds"], "bgpd logged %d lines in %.0fs" % (
        r["log"], r["seconds"])
    assert r["served"] > 0 or r["closed"] > 0, "no connection was served or closed"
    assert r["answer_after"] is not None, (
        "no fresh vtysh answered within %ds of the clients closing" % RECOVER)
    assert r["vty_after"] == r["base_vty"], (r["vty_after"], r["base_vty"])


@pytest.mark.timeout(180)
def test_thousand_idle_vty_connections(idle_run):
    r = idle_run
    assert r["answer"] is not None and r["answer"] <= ANSWER, (
        "a fresh vtysh got no answer within %ss" % ANSWER)
    assert r["fds"] < NOFILE, "bgpd holds %d descriptors, its limit is %d" % (r["fds"], NOFILE)
    assert r["busy"] < BUSY, "bgpd uses %.0f%% of a CPU with idle clients" % (r["busy"] * 100)
    assert r["log"] <= LOG_LINES, "bgpd logged %d lines" % r["log"]
    assert r["hanging"] == 0, "%d connections accepted by the kernel and never served" % (
        r["hanging"])
    assert r["rss"] - r["base_rss"] < RSS_PER_CONN * CONNECTIONS, "VmRSS grew by %d kB" % (
        r["rss"] - r["base_rss"])
