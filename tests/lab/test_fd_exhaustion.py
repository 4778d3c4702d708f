# SPDX-License-Identifier: ISC
"""A bgpd at its descriptor limit must not spin: a connection it cannot accept (EMFILE) used to
leave its listener readable, so the loop called accept() again at once, for ever (299 CPU
ticks in 3 s and a million log lines for one TCP connect). Now the listener pauses a second
at a time and says so once.

One bgpd, no namespace: BGP on a free port of 127.0.0.1 and its vty socket in a temporary
directory. The test lowers the running bgpd's RLIMIT_NOFILE (prlimit) until no descriptor is
left, connects to the BGP port or the vty socket as an outsider would, and reads the CPU time
bgpd used (/proc/PID/stat utime + stime) and the lines it logged over 3 s. With the limit put
back, the waiting connection is served.

Run: SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_fd_exhaustion.py
"""

import os
import resource
import socket
import time

import pytest

from skualab.daemons import tail
from skualab.runuser import set_nofile
from skualab.standalone import standalone_bgpd

pytestmark = pytest.mark.timeout(90)

CONFIG = """\
hostname fdtest
router bgp 65001
 bgp router-id 192.0.2.1
 neighbor 192.0.2.2 remote-as 65002
"""

WATCH_S = 3.0
MAX_TICKS = 30  # clock ticks (normally 1/100 s) in WATCH_S: 10 % of a CPU
MAX_LOG_LINES = 5


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)


def lowest_free_fd(pid):
    used = {int(n) for n in os.listdir("/proc/%d/fd" % pid)}
    n = 0
    while n in used:
        n += 1
    return n


def log_lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


@pytest.fixture
def bgpd():
    with standalone_bgpd("skua-fd-", CONFIG, extra=["--no-fib"]) as d:
        yield d


def starve(d):
    """Lower bgpd's soft RLIMIT_NOFILE so that its next descriptor fails; returns the old
    limits."""
    pid = d.proc.pid
    old = resource.getrlimit(resource.RLIMIT_NOFILE)  # bgpd's: inherited from us
    # bgpd may still be closing the session of the readiness check: wait until the lowest
    # free descriptor stays put (bounded), so that no descriptor below the limit frees up.
    for _ in range(100):
        n = lowest_free_fd(pid)
        set_nofile(pid, (n, old[1]))
        time.sleep(0.05)
        if lowest_free_fd(pid) == n:
            return old
    pytest.fail("bgpd's descriptors did not settle in 5 s")


def watch(d, what):
    """CPU ticks and log lines of bgpd over WATCH_S, asserted small."""
    pid = d.proc.pid
    ticks, lines = cpu_ticks(pid), log_lines(d.log)
    time.sleep(WATCH_S)
    ticks, lines = cpu_ticks(pid) - ticks, log_lines(d.log) - lines
    print("%s: %d CPU ticks, %d log lines in %.0f s" % (what, ticks, lines, WATCH_S))
    assert d.proc.alive(), "bgpd died:\n" + tail(d.log)
    assert ticks <= MAX_TICKS, ("%s at the descriptor limit cost bgpd %d CPU ticks in %.0f s "
                                "(a spinning listener?); log:\n%s"
                                % (what, ticks, WATCH_S, tail(d.log, 10)))
    assert lines <= MAX_LOG_LINES, ("%s at the descriptor limit logged %d lines in %.0f s; "
                                    "log:\n%s" % (what, lines, WATCH_S, tail(d.log, 10)))
    with open(d.log, errors="replace") as f:
        text = f.read()
    assert "Too many open files" in text and "not accepting for" in text, \
        "the pause is not logged:\n" + tail(d.log, 10)


def test_bgp_listener_at_fd_limit(bgpd):
    old = starve(bgpd)
    try:
        c = socket.create_connection(("127.0.0.1", bgpd.port), timeout=5)
        watch(bgpd, "one TCP connect to the BGP port")
    finally:
        set_nofile(bgpd.proc.pid, old)
    # Descriptors are back: within the pause the connection is accepted, found to come from
    # no configured neighbor, and closed.
    c.settimeout(10)
    try:
        assert c.recv(1) == b""
    except ConnectionResetError:
        pass
    finally:
        c.close()
    assert "not a configured neighbor" in open(bgpd.log, errors="replace").read()


def test_vty_socket_at_fd_limit(bgpd):
    old = starve(bgpd)
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect(bgpd.sock)
        watch(bgpd, "one connect to the vty socket")
    finally:
        set_nofile(bgpd.proc.pid, old)
    # The waiting session is served once a descriptor is free (the pause is 1 s).
    c.settimeout(10)
    c.sendall(b"pshow version\0")
    reply = b""
    while not reply.endswith(b"\0\0\0\0") and len(reply) < 4096:
        chunk = c.recv(4096)
        if not chunk:
            break
        reply += chunk
    c.close()
    assert reply.startswith(b"fdtest# "), reply
    assert bgpd.vtysh("-c", "show version").returncode == 0
