# SPDX-License-Identifier: ISC
"""A flood of forged TCP segments from several streams at once, for the CPU measurement.

    flood.py --rate 4000 --duration 7 --stream '{"src": "192.0.2.2", "dst": "192.0.2.1",
        "flags": "S", "sport": 42000}' --stream '{... "flags": "R", "seq": 123, ...}'

skualab's forge.py builds every distinct segment with scapy first, about a millisecond each,
which delays a flood of thousands by seconds; here segments are packed with struct (stdlib
only, starts at once).  Streams take turns, paced to --rate segments per second in total
(a sender that fell behind skips slots instead of bursting).  A SYN stream walks its source
port over 4096 values (a new connection attempt each time).  Stream keys: src, dst, sport,
dport (179), flags (letters of "FSRPAU"), seq, ack, payload (bytes of zeros), ttl (255).
Prints one JSON line: {"sent": N, "per_stream": [...], "seconds": S}.
"""

import argparse
import ipaddress
import json
import socket
import struct
import sys
import time

FLAG_BITS = {"F": 0x01, "S": 0x02, "R": 0x04, "P": 0x08, "A": 0x10, "U": 0x20}
SYN_PORTS = 4096


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def segment(stream, sport):
    """One IP packet (IPv4 or IPv6 header included) carrying the stream's TCP segment."""
    src = ipaddress.ip_address(stream["src"])
    dst = ipaddress.ip_address(stream["dst"])
    flags = sum(FLAG_BITS[c] for c in stream.get("flags", "S"))
    payload = b"\0" * stream.get("payload", 0)
    tcp = struct.pack("!HHIIBBHHH", sport, stream.get("dport", 179),
                      stream.get("seq", 1000) & 0xFFFFFFFF, stream.get("ack", 0) & 0xFFFFFFFF,
                      5 << 4, flags, 65535, 0, 0) + payload
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


def prepare(stream):
    """(socket, destination, [packets]) for one stream."""
    sport = stream.get("sport", 40000)
    if "S" in stream.get("flags", "S") and "A" not in stream.get("flags", "S"):
        packets = [segment(stream, sport + i) for i in range(SYN_PORTS)]
    else:
        packets = [segment(stream, sport)]
    if ipaddress.ip_address(stream["dst"]).version == 4:
        sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        return sock, (stream["dst"], 0), packets
    sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
    return sock, (stream["dst"], 0, 0, 0), packets


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stream", action="append", required=True, help="JSON object")
    ap.add_argument("--rate", type=float, required=True, help="segments per second, total")
    ap.add_argument("--duration", type=float, required=True, help="seconds")
    args = ap.parse_args()
    streams = [prepare(json.loads(s)) for s in args.stream]
    sent = [0] * len(streams)
    start = time.monotonic()
    deadline = start + args.duration
    total = 0
    while True:
        now = time.monotonic()
        if now >= deadline:
            break
        ahead = start + total / args.rate - now
        if ahead > 0.001:
            time.sleep(ahead)
            continue
        if ahead < -0.05:
            # Descheduled: skip the missed slots rather than catch up in one burst, which
            # could overflow a backlog queue on the way and lose segments.
            start -= ahead + 0.05
        i = total % len(streams)
        sock, dest, packets = streams[i]
        try:
            sock.sendto(packets[sent[i] % len(packets)], dest)
        except BlockingIOError:
            continue
        sent[i] += 1
        total += 1
    print(json.dumps({"sent": total, "per_stream": sent,
                      "seconds": round(time.monotonic() - start, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
