# SPDX-License-Identifier: ISC
"""Forged TCP segments for the GTSM tests and benchmarks: an attacker that spoofs a BGP peer.

Run inside the attacker's namespace (the lab does it through probes.forge()). One stream:

    forge.py --src 192.0.2.2 --dst 192.0.2.1 --dport 179 --ttl 254 --flags S --count 100

or several streams taking turns (a flood mixing SYNs, RSTs and data):

    forge.py --rate 4000 --duration 7 \\
        --stream '{"src": "192.0.2.2", "dst": "192.0.2.1", "flags": "S", "ttl": 255}' \\
        --stream '{"src": "192.0.2.2", "dst": "192.0.2.1", "sport": 179, "dport": 40001,
                   "flags": "R", "seq": 123456}'

Stream keys (the single-stream options say the same): src, dst, sport (40000), dport (179),
flags (letters of "FSRPAU", default "S"), seq (1000), seq_step (added per segment, 0), ack
(0), window (65535), payload (bytes of zeros, 0), ttl (TTL or hop limit as sent, 255),
vary_sport (a new source port per segment over 4096 values: the default for SYNs, each is a
new connection attempt).

Segments are packed with struct and sent through a raw socket with the IP header included
(IPv4 IP_HDRINCL, IPv6 IPPROTO_RAW): nothing to build first, so a flood starts at once.
--rate paces the total; a sender that fell behind skips slots rather than bursting (a burst
could overflow a queue on the way). Prints one JSON line:
{"sent": N, "per_stream": [...], "seconds": S}.
"""

import argparse
import ipaddress
import json
import socket
import struct
import sys
import time

FLAG_BITS = {"F": 0x01, "S": 0x02, "R": 0x04, "P": 0x08, "A": 0x10, "U": 0x20}
SPORTS = 4096	  # source ports a SYN stream walks over
DISTINCT_MAX = 20000  # distinct segments per stream (seq_step streams); then they repeat


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def segment(stream, sport, seq):
    """One IP packet (header included) carrying the stream's TCP segment."""
    src = ipaddress.ip_address(stream["src"])
    dst = ipaddress.ip_address(stream["dst"])
    flags = sum(FLAG_BITS[c] for c in stream.get("flags", "S"))
    payload = b"\0" * stream.get("payload", 0)
    tcp = struct.pack("!HHIIBBHHH", sport, stream.get("dport", 179), seq & 0xFFFFFFFF,
                      stream.get("ack", 0) & 0xFFFFFFFF, 5 << 4, flags,
                      stream.get("window", 65535), 0, 0) + payload
    ttl = stream.get("ttl", 255)
    if src.version == 4:
        pseudo = src.packed + dst.packed + struct.pack("!BBH", 0, socket.IPPROTO_TCP, len(tcp))
        tcp = tcp[:16] + struct.pack("!H", checksum(pseudo + tcp)) + tcp[18:]
        # With IP_HDRINCL the kernel fills in the IPv4 checksum and, when 0, the ID.
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0, ttl,
                         socket.IPPROTO_TCP, 0, src.packed, dst.packed)
    else:
        pseudo = src.packed + dst.packed + struct.pack("!IxxxB", len(tcp), socket.IPPROTO_TCP)
        tcp = tcp[:16] + struct.pack("!H", checksum(pseudo + tcp)) + tcp[18:]
        ip = struct.pack("!IHBB16s16s", 6 << 28, len(tcp), socket.IPPROTO_TCP, ttl,
                         src.packed, dst.packed)
    return ip + tcp


def check_stream(s):
    for key in ("src", "dst"):
        if key not in s:
            raise ValueError("stream %s: %s missing" % (json.dumps(s), key))
    if ipaddress.ip_address(s["src"]).version != ipaddress.ip_address(s["dst"]).version:
        raise ValueError("stream %s: src and dst of different families" % json.dumps(s))
    if not 1 <= s.get("ttl", 255) <= 255:
        raise ValueError("stream %s: ttl must be 1..255" % json.dumps(s))
    if set(s.get("flags", "S")) - set(FLAG_BITS):
        raise ValueError("stream %s: flags are letters of FSRPAU" % json.dumps(s))


def prepare(stream, count):
    """(socket, destination, [packets]) for one stream; count bounds the distinct segments
    (0: as many as the stream varies over)."""
    flags = stream.get("flags", "S")
    vary = stream.get("vary_sport", "S" in flags and "A" not in flags)
    sport, seq, step = stream.get("sport", 40000), stream.get("seq", 1000), stream.get(
        "seq_step", 0)
    n = SPORTS if vary else (DISTINCT_MAX if step else 1)
    if count:
        n = min(n, count)
    packets = [segment(stream, (sport + i) % 65536 if vary else sport, seq + i * step)
               for i in range(max(1, n))]
    if ipaddress.ip_address(stream["dst"]).version == 4:
        sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        return sock, (stream["dst"], 0), packets
    sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
    return sock, (stream["dst"], 0, 0, 0), packets


def send(streams, count, rate, duration):
    """Send until count segments (0: no bound) or duration seconds (0: no bound)."""
    sent = [0] * len(streams)
    start = time.monotonic()
    deadline = start + duration if duration else None
    total = 0
    while (not count or total < count) and (deadline is None or time.monotonic() < deadline):
        if rate:
            ahead = start + total / rate - time.monotonic()
            if ahead > 0.001:
                time.sleep(ahead)
                continue
            if ahead < -0.05:
                start -= ahead + 0.05  # descheduled: skip the missed slots
        i = total % len(streams)
        sock, dest, packets = streams[i]
        try:
            sock.sendto(packets[sent[i] % len(packets)], dest)
        except BlockingIOError:
            continue
        sent[i] += 1
        total += 1
    return {"sent": total, "per_stream": sent, "seconds": round(time.monotonic() - start, 3)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stream", action="append", default=[], help="a stream, JSON object")
    ap.add_argument("--src", help="forged source address (the peer's): one stream")
    ap.add_argument("--dst")
    ap.add_argument("--sport", type=int)
    ap.add_argument("--vary-sport", action="store_true", default=None)
    ap.add_argument("--dport", type=int)
    ap.add_argument("--ttl", type=int, help="TTL or hop limit as sent")
    ap.add_argument("--flags")
    ap.add_argument("--seq", type=int)
    ap.add_argument("--seq-step", type=int)
    ap.add_argument("--ack", type=int)
    ap.add_argument("--window", type=int)
    ap.add_argument("--payload", type=int)
    ap.add_argument("--count", type=int, default=0, help="segments in total")
    ap.add_argument("--rate", type=float, default=0, help="segments per second; 0 = at once")
    ap.add_argument("--duration", type=float, default=0, help="seconds, instead of --count")
    args = ap.parse_args()

    streams = [json.loads(s) for s in args.stream]
    if args.src:
        one = {k: v for k, v in vars(args).items()
               if v is not None and k not in ("stream", "count", "rate", "duration")}
        streams.append(one)
    if not streams:
        ap.error("give --src/--dst (one stream) or --stream")
    if not args.count and not args.duration:
        args.count = 1
    try:
        for s in streams:
            check_stream(s)
    except ValueError as e:
        ap.error(str(e))
    per_stream = -(-args.count // len(streams)) if args.count else 0
    prepared = [prepare(s, per_stream) for s in streams]
    print(json.dumps(send(prepared, args.count, args.rate, args.duration)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
