# SPDX-License-Identifier: ISC
"""The attacker's knowledge and tools for the gtsm_attack scenario.

The attacker is given the best knowledge possible: a capture of the real session (ports, the
sequence number the DUT expects next, the acknowledgement it last got).  It forges with
skualab.probes.forge; this module reads the captures (with their timestamps, which
probes.Capture.packets() drops) and drives the floods.
"""

import ipaddress
import json
import os

from skualab import probes

KEEPALIVE = 19  # bytes on the wire; an idle session carries nothing else


def ifname(lab, router, address):
    """The interface of `router` that holds `address` (links to the same neighbor get
    numbered names, to-peer, to-peer-1, ...: look them up rather than guess)."""
    want = ipaddress.ip_address(address)
    for name, addrs in lab.topology.routers[router].interfaces:
        if any(a.ip == want for a in addrs):
            return name
    raise AssertionError("%s has no interface with %s" % (router, address))


def segments(cap, src=None, dst=None):
    """TCP segments in a capture (running or stopped), oldest first, as dicts: time (the
    kernel's clock, comparable with time.time()), src, dst, sport, dport, seq, ack, flags,
    len (payload bytes from the IP length, so the snap length does not matter), ttl."""
    from scapy.layers.inet import IP, TCP
    from scapy.layers.inet6 import IPv6
    from scapy.utils import PcapReader
    out = []
    if not os.path.exists(cap.path) or os.path.getsize(cap.path) == 0:
        return out
    try:
        with PcapReader(cap.path) as reader:
            for frame in reader:
                if frame.haslayer(IP):
                    ip = frame[IP]
                    length = ip.len - 4 * ip.ihl
                    hops = ip.ttl
                elif frame.haslayer(IPv6):
                    ip = frame[IPv6]
                    length = ip.plen
                    hops = ip.hlim
                else:
                    continue
                if not ip.haslayer(TCP):
                    continue
                tcp = ip[TCP]
                seg = {"time": float(frame.time), "src": ip.src, "dst": ip.dst,
                       "sport": tcp.sport, "dport": tcp.dport, "seq": tcp.seq,
                       "ack": tcp.ack, "flags": str(tcp.flags),
                       "len": length - 4 * tcp.dataofs, "ttl": hops}
                if src and seg["src"] != src or dst and seg["dst"] != dst:
                    continue
                out.append(seg)
    except EOFError:
        pass  # tcpdump is still writing the last record: it is read next time
    return out


def wait_segment(lab, cap, src, dst, after=0.0, data=True, latest=False, timeout=15):
    """The first (or with `latest`, the last) segment src -> dst captured after `after`
    (time.time()); with `data`, only segments carrying payload (KEEPALIVEs).  Bounded: fails
    after `timeout` seconds when there is none."""
    def found():
        match = [seg for seg in segments(cap, src, dst)
                 if seg["time"] > after and (seg["len"] > 0 or not data)]
        return (match[-1] if latest else match[0]) if match else None
    return lab.expect("a segment %s -> %s in %s" % (src, dst, cap.path), found,
                      lambda s: None if s else "none yet", timeout=timeout, interval=0.2)


def learn(lab, cap, peer, dut, timeout=15):
    """What the attacker knows from the latest KEEPALIVE from the peer to the DUT: the
    4-tuple and the DUT's next expected sequence number and current acknowledgement."""
    seg = wait_segment(lab, cap, peer, dut, latest=True, timeout=timeout)
    return {"src": peer, "dst": dut, "sport": seg["sport"], "dport": seg["dport"],
            "rcv_nxt": (seg["seq"] + seg["len"]) & 0xFFFFFFFF, "ack": seg["ack"],
            "seen": seg["time"]}


def candidates(live, count):
    """The DUT's possible next sequence numbers: the one learned, then one per KEEPALIVE
    the peer may send before the forged segments arrive (forge's --seq-step)."""
    return [(live["rcv_nxt"] + KEEPALIVE * k) & 0xFFFFFFFF for k in range(count)]


def covered(lab, cap, live, count, sent_at):
    """Check that the forged sequence numbers included the exact one: the first segment the
    peer sent after the forgery (time `sent_at`) starts at the DUT's rcv_nxt as it was then.
    Returns that sequence number."""
    seg = wait_segment(lab, cap, live["src"], live["dst"], after=sent_at, timeout=15)
    assert seg["sport"] == live["sport"] and seg["dport"] == live["dport"], \
        "the session moved to another connection: %s" % seg
    assert seg["seq"] in candidates(live, count), (
        "the forged sequence numbers %s missed the DUT's rcv_nxt %d"
        % (candidates(live, count), seg["seq"]))
    return seg["seq"]


def forge_at(netns, live, count, ttl, flags, payload=0):
    """`count` segments into the learned connection at the candidate sequence numbers."""
    return probes.forge(netns, src=live["src"], dst=live["dst"], sport=live["sport"],
                        dport=live["dport"], ttl=ttl, flags=flags, count=count,
                        seq=live["rcv_nxt"], seq_step=KEEPALIVE, ack=live["ack"],
                        payload=payload)


def flood(netns, streams, rate, duration):
    """`streams` (dicts, see skualab/forge.py) taking turns at `rate` segments per second in
    total for `duration` seconds, from `netns`.  Returns forge.py's report."""
    return probes.forge(netns, timeout=duration + 30, streams=streams, rate=rate,
                        duration=duration)


def record(lab, key, value):
    """Keep a measured figure in <lab dir>/figures.json (for the operator documentation)
    and print it (pytest -s, or the captured output of a failing test)."""
    path = os.path.join(lab.dir, "figures.json")
    try:
        with open(path) as f:
            figures = json.load(f)
    except (OSError, ValueError):
        figures = {}
    figures[key] = value
    with open(path, "w") as f:
        json.dump(figures, f, indent=1, sort_keys=True)
    print("figure %s: %s" % (key, json.dumps(value, sort_keys=True)))
