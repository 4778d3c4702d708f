# SPDX-License-Identifier: ISC
"""Tools of the gtsm_hops scenario: ttl-security from vtysh, the DUT's TcpExt counters, forged
segments with the TTL they must ARRIVE with, pending handshakes, and captures read as dicts.

Everything the kernel decides is judged from the DUT's namespace: its TcpExt counters
(TCPMinTTLDrop for the minimum TTL, TCPACKSkippedSeq for an out-of-window ACK that passed it),
its SYN-RECV request sockets and a capture on all its interfaces.
"""

import os

from skualab import probes
from skualab.probes import Capture

# Forwarding hops between each forger and the DUT: each takes one off the TTL / hop limit.
PATH_HOPS = {"atk_direct": 0, "atk_via_rt": 1}
SEGMENTS = 4  # forged segments per batch
FORGED_PORTS = (41000, 59999)  # the source ports of every forged handshake
QUIET_RULES = """
table inet skualab_gtsm_hops {
    chain input {
        type filter hook input priority filter; policy accept;
        tcp sport 179 tcp dport %d-%d tcp flags & (syn | ack) == syn | ack counter drop
    }
}
""" % FORGED_PORTS


def quiet_peer(netns):
    """The real peer must not answer the DUT's SYN-ACKs to the SYNs forged in its name.  Its
    kernel would send a RST with TTL 64, below any minimum, that the DUT counts in
    TCPMinTTLDrop when it no longer finds the handshake it belonged to (seen once in a full
    run: 17 drops where 16 segments were forged), and the counts would no longer be the
    forged segments alone.  So the peer's own connections take ports outside the forged
    ones, and SYN-ACKs to the forged ports are dropped on arrival."""
    netns.exec(["sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=20000 %d"
                % (FORGED_PORTS[0] - 1)])
    netns.exec(["nft", "-f", "-"], input=QUIET_RULES.encode())


def quieted(netns):
    """SYN-ACKs the peer's rule dropped so far."""
    out = netns.exec(["nft", "list", "table", "inet", "skualab_gtsm_hops"])
    for line in out.splitlines():
        if "counter packets" in line:
            return int(line.split("counter packets")[1].split()[0])
    return 0


def minimum(hops):
    """RFC 5082 / FRR convention: `hops N` accepts TTL 256-N and above."""
    return 256 - hops if hops else 0


def set_hops(daemon, asn, addrs, hops, old=None):
    """`neighbor X ttl-security hops N` on every address, live from vtysh; hops 0 removes
    the `old` setting (the `no` form wants the hop count)."""
    if hops:
        cmds = ["neighbor %s ttl-security hops %d" % (a, hops) for a in addrs]
    else:
        cmds = ["no neighbor %s ttl-security hops %d" % (a, old) for a in addrs]
    daemon.vtysh("configure terminal", "router bgp %d" % asn, *cmds)


def neighbor(daemon, addr):
    return daemon.neighbor(addr).get(addr, {})


def gtsm_expected(hops):
    """What `show bgp neighbors X json` must say under "gtsm" on an Established session."""
    return {"enabled": bool(hops), "hops": hops or 0, "minTtlConfigured": minimum(hops),
            "minTtlSocket": minimum(hops), "sendTtlSocket": 255 if hops else 1}


def expect_gtsm(lab, router, addrs, hops):
    for a in addrs:
        lab.expect("%s: neighbor %s gtsm with hops %s" % (router, a, hops),
                   lambda: neighbor(lab[router], a),
                   {"bgpState": "Established", "gtsm": gtsm_expected(hops)},
                   timeout=10, interval=0.3)


class Counters:
    """The DUT namespace's TcpExt counters since a starting point."""

    def __init__(self, netns):
        self.netns = netns
        self.base = probes.tcpext(netns)

    def delta(self, name):
        return probes.tcpext(self.netns)[name] - self.base[name]


def wait_count(lab, counters, name, want, what, timeout=10, explain=None):
    """Wait until `name` grew by `want`, then insist it is exactly `want`; `explain()` adds
    what a capture saw to the message when it is not."""
    got = lab.expect(what, lambda: counters.delta(name),
                     lambda d: None if d >= want else "%s +%d so far, want +%d"
                     % (name, d, want), timeout=timeout, interval=0.2)
    assert got == want, "%s: %s grew by %d, expected exactly %d%s" % (
        what, name, got, want, explain() if explain else "")


def unforged_below(cap, minimum, forged):
    """For a count that came out too high: the captured segments that arrived below
    `minimum` and are not among the `forged(segment)` ones, i.e. real traffic the kernel
    dropped (which peer sent it, and with which flags, says why)."""
    low = [s for s in segments(cap) if s["ttl"] < minimum and not forged(s)]
    return "; unforged segments below %d: %s" % (minimum, low[:10] or "none captured")


def forge_arriving(lab, attacker, arriving, **segment):
    """probes.forge from `attacker`, sent with the TTL that arrives at the DUT as `arriving`."""
    sent = arriving + PATH_HOPS[attacker]
    assert 1 <= sent <= 255, "%s cannot make TTL %d arrive (it would have to send %d)" % (
        attacker, arriving, sent)
    report = probes.forge(lab.namespaces[attacker], ttl=sent, **segment)
    assert report["sent"] == segment.get("count", 1), report
    return report


def syn_recv_ports(netns, peer):
    """Source ports of the pending handshakes (SYN-RECV) on port 179 from `peer`."""
    ports = set()
    for line in probes.request_sockets(netns):
        remote = line.split()[-1]
        host, port = remote.rsplit(":", 1)
        if host.strip("[]") == peer:
            ports.add(int(port))
    return ports


def connections_with(netns, peer):
    """The DUT's TCP connections on port 179 with `peer` that still exchange segments, as
    (local port, remote port): not TIME-WAIT, and not SYN-RECV (the handshakes the checks
    forge in the peer's name wait there on purpose)."""
    out = netns.exec(["ss", "-Htna"])
    conns = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 5 or f[0] in ("LISTEN", "TIME-WAIT", "SYN-RECV"):
            continue
        lport = int(f[3].rsplit(":", 1)[1])
        host, rport = f[4].rsplit(":", 1)
        if host.strip("[]") == peer and 179 in (lport, int(rport)):
            conns.add((lport, int(rport)))
    return conns


def segments(cap):
    """Every TCP segment of a capture (running or stopped) as a dict: src, dst, sport, dport,
    flags, seq, ack, ttl (TTL or hop limit as captured, i.e. as it arrived or left)."""
    from scapy.layers.inet import IP, TCP
    from scapy.layers.inet6 import IPv6
    from scapy.utils import PcapReader
    out = []
    if not os.path.exists(cap.path) or os.path.getsize(cap.path) == 0:
        return out
    try:
        with PcapReader(cap.path) as reader:
            for frame in reader:
                ip = frame[IP] if frame.haslayer(IP) else (
                    frame[IPv6] if frame.haslayer(IPv6) else None)
                if ip is None or not ip.haslayer(TCP):
                    continue
                tcp = ip[TCP]
                out.append({"src": ip.src, "dst": ip.dst, "sport": tcp.sport,
                            "dport": tcp.dport, "flags": str(tcp.flags), "seq": tcp.seq,
                            "ack": tcp.ack, "ttl": probes.ttl(ip)})
    except EOFError:
        pass  # tcpdump is writing the last record; it is there next time
    return out


def learn_session(lab, cap, dut_addr, peer):
    """What an on-path attacker learns from one segment of the DUT's session with `peer`:
    the 4-tuple and a sequence number half the sequence space away from what the DUT
    expects next (an ACK there is out of window for certain, whatever the window)."""
    def seen():
        segs = segments(cap)
        # A connection that closes in the capture (FIN or RST either way) is not the
        # session: BGP's collision resolution can still be closing the loser's when a check
        # begins, and its segments would name the wrong ports.
        closing = {frozenset(((x["src"], x["sport"]), (x["dst"], x["dport"]))) for x in segs
                   if "F" in x["flags"] or "R" in x["flags"]}
        for s in segs:
            if s["src"] == dut_addr and s["dst"] == peer and "A" in s["flags"] \
                    and "S" not in s["flags"] and 179 in (s["sport"], s["dport"]) \
                    and frozenset(((s["src"], s["sport"]), (s["dst"], s["dport"]))) \
                    not in closing:
                return s
        return None
    s = lab.expect("a segment of the DUT's session with %s in the capture" % peer, seen,
                   lambda s: None if s else "none yet", timeout=15, interval=0.3)
    return {"src": peer, "dst": dut_addr, "sport": s["dport"], "dport": s["sport"],
            "seq": (s["ack"] + 0x80000000) & 0xFFFFFFFF, "ack": s["seq"]}


def check_session_minimum(lab, attacker, sessions, dut_min):
    """Prove the minimum the kernel enforces on the DUT's Established sockets: SEGMENTS
    forged out-of-window ACKs per session one below `dut_min` are each counted in
    TCPMinTTLDrop; at `dut_min` (TTL 1 when there is no minimum) they are not, and they
    reach TCP's sequence check instead: the DUT answers the first with a duplicate ACK and
    rate-limits the others (TCPACKSkippedSeq, 500 ms per socket), nothing else happens to the
    session.  Returns the arriving TTLs used, {"dropped": ttl or None, "passed": ttl}."""
    ns = lab.namespaces["dut"]
    n = len(sessions)
    low = dut_min - 1 if dut_min > 1 else None
    if low:
        seqs = {s["seq"] for s in sessions}
        with Capture(lab, "dut", "any", "tcp port 179", name="minimum-%d" % dut_min) as cap:
            c = Counters(ns)
            for s in sessions:
                forge_arriving(lab, attacker, low, flags="A", count=SEGMENTS, **s)
            wait_count(lab, c, "TCPMinTTLDrop", SEGMENTS * n,
                       "ACKs at TTL %d into sessions with minimum %d" % (low, dut_min),
                       explain=lambda: unforged_below(cap, dut_min,
                                                      lambda x: x["seq"] in seqs))
        assert c.delta("TCPACKSkippedSeq") == 0, "a dropped ACK reached TCP"
    at = max(dut_min, 1)
    c = Counters(ns)
    for s in sessions:
        forge_arriving(lab, attacker, at, flags="A", count=SEGMENTS, **s)
    skipped = lab.expect("ACKs at TTL %d reach TCP's sequence check (minimum %d)"
                         % (at, dut_min), lambda: c.delta("TCPACKSkippedSeq"),
                         lambda d: None if d >= (SEGMENTS - 1) * n else "+%d so far" % d,
                         timeout=10, interval=0.2)
    assert skipped <= SEGMENTS * n, "TCPACKSkippedSeq +%d for %d ACKs" % (skipped,
                                                                          SEGMENTS * n)
    dropped = c.delta("TCPMinTTLDrop")
    assert dropped == 0, ("ACKs at TTL %d, the minimum %d, counted in TCPMinTTLDrop (+%d)"
                          % (at, dut_min, dropped))
    return {"dropped": low, "passed": at}
