# SPDX-License-Identifier: ISC
"""What bench/gtsm_flood.py watches while a run goes on: CPU time (the DUT daemon's and the
machine's softirq) sampled in the background so that any window can be cut out afterwards,
the legitimate peer's view of the session, the DUT's request sockets, and the DUT
namespace's counters (TcpExt, Tcp, the interface the flood arrives on).

Every sampler is a daemon thread with a bounded stop; a query that fails or hangs (the
machine is saturated by the flood) is recorded as such, never retried without bound.
"""

import bisect
import json
import os
import threading
import time

from skualab import probes
from skualab.netns import CommandError


def schedstat_seconds(pid):
    """Run time of every live thread of pid in seconds (/proc/PID/task/*/schedstat, in ns):
    finer than the 10 ms ticks of /proc/PID/stat, which a quiet daemon barely moves."""
    total = 0
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return None
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that exited meanwhile
    return total / 1e9


def machine_busy_seconds():
    """Non-idle CPU time of the whole machine (every CPU), for the load it was under."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / ticks


def forge_processes(netns_name):
    """{pid: stream} of the forge.py processes running in a namespace ("syn" for the SYN
    stream, "data" for the other): found by their command line and network namespace."""
    try:
        target = os.stat("/run/netns/" + netns_name).st_ino
    except OSError:
        return {}
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            if not any(a.endswith(b"forge.py") for a in argv):
                continue
            if os.stat("/proc/%s/ns/net" % pid).st_ino != target:
                continue
        except OSError:
            continue
        flags = argv[argv.index(b"--flags") + 1] if b"--flags" in argv else b"S"
        found[int(pid)] = "syn" if flags == b"S" else "data"
    return found


class CpuSampler(threading.Thread):
    """Every `interval`: (time, DUT daemon CPU from /proc/PID/stat, its run time from
    schedstat, machine softirq, machine busy, {forge stream: run time}).

    The forge processes' run time is the attack's cost on this machine as precisely as it
    can be had: a segment sent into a veth is received, forwarded by the transit namespace
    and received by the DUT (a SYN-ACK sent, the peer's RST processed...) in the softirq
    that runs on the sender's own system call, which the kernel accounts to the sender
    (no CONFIG_IRQ_TIME_ACCOUNTING here).  What ksoftirqd takes over is not in it."""

    def __init__(self, pid, forge_netns=None, interval=0.1):
        super().__init__(daemon=True)
        self.pid = pid
        self.forge_netns = forge_netns
        self.interval = interval
        self.samples = []
        self.halt = threading.Event()
        self.forge_wanted = 0  # how many forge processes to look for (set around a flood)
        self.forge_pids = {}
        self.forge_seen = {}  # stream -> last run time seen (kept after the process exits)

    def expect_forges(self, count):
        self.forge_pids, self.forge_seen = {}, {}
        self.forge_wanted = count

    def _forge_times(self):
        if self.forge_netns and len(self.forge_pids) < self.forge_wanted:
            self.forge_pids.update(forge_processes(self.forge_netns))
        for pid, stream in self.forge_pids.items():
            t = schedstat_seconds(pid)
            if t is not None:
                self.forge_seen[stream] = t
        return dict(self.forge_seen)

    def sample(self):
        try:
            ticks = probes.cpu_seconds(self.pid)
        except OSError:
            ticks = None
        return (time.monotonic(), ticks, schedstat_seconds(self.pid),
                probes.softirq_seconds(), machine_busy_seconds(), self._forge_times())

    def run(self):
        while not self.halt.is_set():
            self.samples.append(self.sample())
            self.halt.wait(self.interval)

    def stop(self):
        self.halt.set()
        self.join(5)
        self.samples.append(self.sample())

    def window(self, start, end):
        """CPU spent in [start, end]: the last sample at or before start to the first at or
        after end (the window grows by at most one interval at each side)."""
        times = [s[0] for s in self.samples]
        i = max(0, bisect.bisect_right(times, start) - 1)
        j = min(len(times) - 1, bisect.bisect_left(times, end))
        a, b = self.samples[i], self.samples[j]

        def diff(k):
            return None if a[k] is None or b[k] is None else round(b[k] - a[k], 4)
        forge = {k: round(v - a[5].get(k, 0.0), 4) for k, v in b[5].items()}
        return {"seconds": round(b[0] - a[0], 3), "daemon_cpu_s": diff(1),
                "daemon_sched_s": diff(2), "softirq_s": diff(3), "machine_busy_s": diff(4),
                "forge_sched_s": forge}


class SessionWatch(threading.Thread):
    """The legitimate peer's view of its session with the DUT (skua's neighbor JSON): state,
    uptime and connections dropped, every `interval`.  The peer is asked, not the DUT, so
    that the watching costs the DUT daemon nothing."""

    def __init__(self, peer, addr, interval=0.5):
        super().__init__(daemon=True)
        self.peer, self.addr, self.interval = peer, addr, interval
        # (time, state, uptime ms, connectionsDropped, lastResetDueTo); state None and the
        # error in the last field when the peer did not answer in time
        self.samples = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            t = time.monotonic()
            try:
                n = self.peer.vtysh_json("show ip bgp neighbors %s json" % self.addr,
                                         timeout=10).get(self.addr, {})
                self.samples.append((t, n.get("bgpState"), n.get("bgpTimerUpMsec"),
                                     n.get("connectionsDropped"), n.get("lastResetDueTo")))
            except Exception as e:  # a saturated machine: unknown, not down
                self.samples.append((t, None, None, None, str(e).splitlines()[0][:120]))
            self.halt.wait(self.interval)

    def stop(self):
        self.halt.set()
        self.join(15)

    def verdict(self, start, end):
        """Did the session stay Established with its uptime unbroken over [start, end]?"""
        inside = [s for s in self.samples if start <= s[0] <= end]
        before = [s for s in self.samples if s[0] < start and s[1] is not None]
        ref = before[-1] if before else (inside[0] if inside else None)
        out = {"samples": len(inside), "survived": False,
               "unanswered": sum(1 for s in inside if s[1] is None)}
        inside = [s for s in inside if s[1] is not None]
        if ref is None or ref[1] is None or not inside:
            out["why"] = "no answered sample of the peer's view"
            return out
        down = [s for s in inside if s[1] != "Established"]
        resets = [s for s in inside if ref[3] is not None and s[3] is not None
                  and s[3] > ref[3]]
        # Uptime is unbroken when it grows with the clock (2 s of slack for sampling).
        broken = [s for s in inside if s[2] is not None and ref[2] is not None
                  and s[2] < ref[2] + (s[0] - ref[0]) * 1000 - 2000]
        out["down_samples"] = len(down)
        out["dropped"] = (inside[-1][3] - ref[3]) if inside[-1][3] is not None \
            and ref[3] is not None else None
        out["state_at_end"] = inside[-1][1]
        if down:
            out["first_down_s"] = round(down[0][0] - start, 2)
            out["down_state"] = down[0][1]
        last_reset = (resets or broken or [None])[0]
        if last_reset and last_reset[4]:
            out["last_reset"] = last_reset[4]
        elif down and inside[-1][4]:
            out["last_reset"] = inside[-1][4]
        out["survived"] = not down and not resets and not broken
        if not out["survived"]:
            out["uptime_at_end_s"] = (inside[-1][2] / 1000.0) if inside[-1][2] else None
        return out


class RequestSocketWatch(threading.Thread):
    """How many request sockets (SYN-RECV on port 179) the DUT holds, every `interval`."""

    def __init__(self, netns, interval=0.5):
        super().__init__(daemon=True)
        self.netns, self.interval = netns, interval
        self.counts = []
        self.errors = 0
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            try:
                self.counts.append(len(probes.request_sockets(self.netns)))
            except CommandError:
                self.errors += 1
            self.halt.wait(self.interval)

    def stop(self):
        self.halt.set()
        self.join(20)
        return {"max": max(self.counts) if self.counts else None,
                "mean": round(sum(self.counts) / len(self.counts), 1) if self.counts else None,
                "samples": len(self.counts), "failed_samples": self.errors}


def tcp_snmp(netns):
    """The namespace's Tcp counters (/proc/net/snmp): segments in and out, resets..."""
    text = netns.exec(["cat", "/proc/net/snmp"])
    lines = [line.split() for line in text.splitlines() if line.startswith("Tcp:")]
    if len(lines) != 2:
        raise AssertionError("%s: no Tcp lines in /proc/net/snmp" % netns.name)
    return {k: int(v) for k, v in zip(lines[0][1:], lines[1][1:])}


def link_stats(netns, ifname):
    """rx/tx packets and drops of one interface inside a namespace."""
    doc = json.loads(netns.exec(["ip", "-s", "-j", "link", "show", "dev", ifname]))[0]
    st = doc.get("stats64") or doc.get("stats") or {}
    return {"rx_packets": st["rx"]["packets"], "rx_dropped": st["rx"]["dropped"],
            "tx_packets": st["tx"]["packets"], "tx_dropped": st["tx"]["dropped"]}


def counters(netns, ifname):
    """One snapshot of everything counted in the DUT's namespace."""
    return {"tcpext": probes.tcpext(netns), "tcp": tcp_snmp(netns),
            "link": link_stats(netns, ifname), "time": time.monotonic()}


def counters_delta(before, after):
    """Changes between two snapshots; counters that did not move are left out."""
    out = {}
    for group in ("tcpext", "tcp", "link"):
        d = {k: after[group].get(k, 0) - v for k, v in before[group].items()
             if k in after[group] and after[group][k] != v}
        # CurrEstab is a gauge, not a counter; keep it only as the value at the end.
        d.pop("CurrEstab", None)
        out[group] = d
    out["seconds"] = round(after["time"] - before["time"], 3)
    return out
