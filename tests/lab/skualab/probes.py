# SPDX-License-Identifier: ISC
"""Looking at the kernel from a test: TcpExt counters, captures, request sockets, CPU time,
and forged segments (forge.py), each inside one of the lab's namespaces."""

import json
import os
import time

from . import timescale
from .daemons import Process

FORGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forge.py")
GTSM_COUNTERS = ("TCPMinTTLDrop", "TCPMD5NotFound", "TCPMD5Unexpected", "TCPMD5Failure")


def tcpext(netns):
    """The namespace's TcpExt counters ({name: int}) from /proc/net/netstat read inside it."""
    text = netns.exec(["cat", "/proc/net/netstat"])
    lines = [line.split() for line in text.splitlines() if line.startswith("TcpExt:")]
    if len(lines) != 2:
        raise AssertionError("%s: no TcpExt lines in /proc/net/netstat:\n%s" % (netns.name, text))
    return {k: int(v) for k, v in zip(lines[0][1:], lines[1][1:])}


def counter_delta(before, after, names=GTSM_COUNTERS):
    return {n: after.get(n, 0) - before.get(n, 0) for n in names}


def request_sockets(netns, port=179):
    """Connections in SYN-RECV on the local BGP port: one per handshake the kernel answered."""
    out = netns.exec(["ss", "-Htn", "state", "syn-recv", "sport", "= :%d" % port])
    return [line for line in out.splitlines() if line.strip()]


def cpu_seconds(pid):
    """User + system CPU time of a process so far, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def softirq_seconds():
    """Time all CPUs spent in softirq so far (the whole machine: namespaces share CPUs)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[7]) / os.sysconf("SC_CLK_TCK")


def forge(netns, timeout=120, **options):
    """Send forged segments from `netns` (see forge.py for the options, given as keywords:
    src=, dst=, ttl=, flags=, count=, rate=, seq=, seq_step=, ack=, payload=, sport=,
    duration=; or streams=[{...}, ...] for several streams taking turns).
    Returns forge.py's report {"sent", "per_stream", "seconds"}.  `timeout` bounds the
    whole run, stretched by SKUALAB_TIME_SCALE."""
    argv = ["/usr/bin/python3", FORGE]
    for s in options.pop("streams", []):
        argv += ["--stream", json.dumps(s)]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            argv += [flag, str(value)]
    return json.loads(netns.exec(argv, timeout=timescale.seconds(timeout))
                      .strip().splitlines()[-1])


class Capture:
    """tcpdump inside a namespace, written to a pcap and read back with scapy.

        with Capture(lab, "dut", "to-peer", "tcp port 179") as cap:
            ...
        for pkt in cap.packets(): ...
    """

    def __init__(self, lab, router, ifname, bpf="tcp port 179", name=None, snaplen=200):
        self.snaplen = snaplen
        self.netns = lab.namespaces[router]
        self.ifname = ifname
        self.bpf = bpf
        self.path = os.path.join(lab.dir, router, "%s.pcap" % (name or ifname))
        self.proc = None
        self.log = self.path + ".log"

    def start(self):
        # -U with -w writes each packet as it comes: SIGTERM (Process.stop) loses nothing.
        argv = self.netns.exec_argv(["tcpdump", "-i", self.ifname, "-n", "-U",
                                     "-s", str(self.snaplen), "--immediate-mode",
                                     "-w", self.path, self.bpf])
        # The log is appended to: a capture of the same name earlier in this lab wrote its
        # own "listening on"; only what this tcpdump writes counts.
        start = os.path.getsize(self.log) if os.path.exists(self.log) else 0
        self.proc = Process("tcpdump/%s" % self.ifname, argv, self.log)
        deadline = time.monotonic() + timescale.seconds(10)
        while time.monotonic() < deadline and self.proc.alive():
            with open(self.log) as f:
                f.seek(start)
                if "listening on" in f.read():
                    return self
            time.sleep(0.05)
        self.proc.stop()
        with open(self.log) as f:
            raise AssertionError("tcpdump on %s in %s did not start:\n%s"
                                 % (self.ifname, self.netns.name, f.read()))

    def stop(self):
        if self.proc:
            # packets in flight on the veth reach the file
            time.sleep(timescale.seconds(0.3))
            self.proc.stop()
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def packets(self):
        """Every captured packet as a scapy object (IP or IPv6 layer first)."""
        from scapy.utils import rdpcap
        from scapy.layers.inet import IP
        from scapy.layers.inet6 import IPv6
        out = []
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return out
        for p in rdpcap(self.path):
            for layer in (IP, IPv6):
                if p.haslayer(layer):
                    out.append(p[layer])
                    break
        return out


def ttl(pkt):
    """TTL (IPv4) or hop limit (IPv6) of a scapy packet."""
    return pkt.ttl if hasattr(pkt, "ttl") else pkt.hlim


def flags(pkt):
    from scapy.layers.inet import TCP
    return str(pkt[TCP].flags) if pkt.haslayer(TCP) else ""


def established_uptime(daemon, addr):
    """Seconds a skua/FRR neighbor has been Established (its JSON bgpTimerUpMsec), or None."""
    n = daemon.neighbor(addr).get(addr, {})
    if n.get("bgpState") != "Established":
        return None
    return n.get("bgpTimerUpMsec", 0) / 1000.0
