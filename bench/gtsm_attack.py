# SPDX-License-Identifier: ISC
"""The attacker of bench/gtsm_flood.py: it spoofs the legitimate peer's address from one
router hop away, with skualab's forge.py, at a fixed rate for a fixed time.

Two streams, run side by side:
  - SYNs to port 179 from the peer's address, a new source port each (1024 upwards, below
    the ephemeral range, so none of them is the live session's four-tuple);
  - data segments (PSH+ACK, 1,000 bytes of zeros) on the live session's four-tuple, whose
    ports are read with `ss` in the DUT's namespace.  With --seq window (the default) the
    sequence number is the DUT's next expected byte, read from a short capture of the
    session's keepalives just before the flood: an attacker who can guess the window.  The
    segments all carry that same sequence number; the peer's keepalives sent meanwhile move
    the DUT's window on by 19 bytes each, and a 1,000-byte segment still overlaps new data
    for about 50 of them, so the DUT accepts the bytes beyond what it already has.  With
    --seq blind the sequence number is half the sequence space away: a blind attacker's
    segment, out of window, which the kernel answers with an ACK (Linux does not rate-limit
    those answers for segments carrying data) and never gives to the daemon.
Both leave with TTL 255 (the most an attacker controls) and arrive with 254 after the
transit router: below GTSM's minimum for a directly connected peer.
"""

import threading
import time

from scapy.layers.inet import TCP

from skualab import probes

SYN_SPORT = 1024
PAYLOAD = 1000
SEQ_SPACE = 1 << 32


def session_ports(netns, dut_addr, peer_addr):
    """(DUT port, peer port) of the established session, from `ss` in the DUT namespace."""
    out = netns.exec(["ss", "-Htn", "state", "established", "dst", peer_addr])
    for line in out.splitlines():
        cols = line.split()
        if len(cols) < 4:
            continue
        local, remote = cols[-2], cols[-1]
        laddr, _, lport = local.rpartition(":")
        raddr, _, rport = remote.rpartition(":")
        if laddr == dut_addr and raddr == peer_addr and "179" in (lport, rport):
            return int(lport), int(rport)
    raise AssertionError("no established session %s <-> %s in %s:\n%s"
                         % (dut_addr, peer_addr, netns.name, out))


def _payload_len(pkt):
    return pkt.len - pkt.ihl * 4 - pkt[TCP].dataofs * 4


def learn_sequence(lab, dut_addr, peer_addr, ports, seconds=3.5, tries=3):
    """The DUT's next expected sequence number from the peer, and an acknowledgement number
    the DUT takes, from the last segment of the session seen in a short capture.  A segment
    from the peer gives them as seq + length and its ack; one from the DUT as its ack and
    seq + length.  Returns {"seq", "ack", "age_s"} or raises after `tries` captures."""
    dut_port, peer_port = ports
    bpf = "tcp and host %s and host %s and port %d and port %d" % (
        dut_addr, peer_addr, dut_port, peer_port)
    for attempt in range(tries):
        cap = probes.Capture(lab, "dut", "to-peer", bpf, name="learn-seq-%d" % attempt)
        with cap:
            time.sleep(seconds)
        pkts = [p for p in cap.packets() if p.haslayer(TCP)]
        if not pkts:
            continue
        p = pkts[-1]
        length = _payload_len(p) + (1 if "S" in str(p[TCP].flags) else 0)
        if p.src == peer_addr:
            return {"seq": (p[TCP].seq + length) % SEQ_SPACE, "ack": p[TCP].ack,
                    "from": "peer"}
        return {"seq": p[TCP].ack, "ack": (p[TCP].seq + length) % SEQ_SPACE, "from": "dut"}
    raise AssertionError("no segment of the session %s:%d <-> %s:%d in %d captures of %.1f s"
                         % (dut_addr, dut_port, peer_addr, peer_port, tries, seconds))


class Flood:
    """The two forge.py streams in threads.  `results` holds, per stream, forge's report and
    when it returned (monotonic); the sending window is [end - seconds, end]."""

    def __init__(self, netns, dut_addr, peer_addr, ttl, duration):
        self.netns = netns
        self.dut_addr, self.peer_addr = dut_addr, peer_addr
        self.ttl, self.duration = ttl, duration
        self.streams = []
        self.results = {}

    def add_syns(self, rate):
        self.streams.append(("syn", dict(flags="S", sport=SYN_SPORT, dport=179, rate=rate)))

    def add_data(self, rate, ports, seq, ack):
        dut_port, peer_port = ports
        self.streams.append(("data", dict(flags="PA", sport=peer_port, dport=dut_port,
                                          seq=seq, ack=ack, payload=PAYLOAD, rate=rate)))

    def _run(self, name, opts):
        try:
            rep = probes.forge(self.netns, timeout=self.duration + 120, src=self.peer_addr,
                               dst=self.dut_addr, ttl=self.ttl, duration=self.duration, **opts)
            end = time.monotonic()
            self.results[name] = dict(rep, end=end, start=end - rep["seconds"])
        except Exception as e:  # reported with the run, the other stream goes on
            self.results[name] = {"error": str(e).splitlines()[0][:300]}

    def run(self):
        """Start every stream, wait for all (bounded by forge's own timeout)."""
        threads = [threading.Thread(target=self._run, args=s, daemon=True)
                   for s in self.streams]
        for t in threads:
            t.start()
        for t in threads:
            t.join(self.duration + 150)
        return self.results

    def window(self):
        """The span during which at least one stream was sending: (start, end) or None."""
        ok = [r for r in self.results.values() if "end" in r]
        if not ok:
            return None
        return min(r["start"] for r in ok), max(r["end"] for r in ok)

    def achieved_rate(self):
        """Segments per second actually sent: each stream's count over its own sending time,
        summed (the streams start within a second of each other, see window())."""
        return round(sum(r["sent"] / r["seconds"] for r in self.results.values()
                         if r.get("seconds")))

    def sent(self):
        return sum(r.get("sent", 0) for r in self.results.values())
