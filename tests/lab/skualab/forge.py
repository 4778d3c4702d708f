# SPDX-License-Identifier: ISC
"""Forged TCP segments for the GTSM tests: an attacker that spoofs a BGP peer.

Run inside the attacker's namespace (the lab does it through probes.forge()):

    forge.py --src 192.0.2.2 --dst 192.0.2.1 --dport 179 --ttl 254 --flags S --count 100

Segments are built by scapy once and sent through a raw socket with the IP header included
(IPv4 IP_HDRINCL, IPv6 IPPROTO_RAW), paced to --rate per second: scapy's own send() manages a
few thousand packets a second, the flood benchmark needs tens of thousands.  The source port
of SYNs walks upward from --sport so every SYN is a new connection attempt.  Prints one JSON
line: {"sent": N, "seconds": S}.
"""

import argparse
import ipaddress
import json
import socket
import sys
import time

from scapy.layers.inet import IP, TCP
from scapy.layers.inet6 import IPv6


def build(args, i):
    src = ipaddress.ip_address(args.src)
    sport = args.sport + (i % 20000 if args.vary_sport else 0)
    tcp = TCP(sport=sport, dport=args.dport, flags=args.flags, seq=(args.seq + i * args.seq_step)
              & 0xFFFFFFFF, ack=args.ack, window=args.window)
    payload = b"\x00" * args.payload
    if src.version == 4:
        return bytes(IP(src=args.src, dst=args.dst, ttl=args.ttl) / tcp / payload)
    return bytes(IPv6(src=args.src, dst=args.dst, hlim=args.ttl) / tcp / payload)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", required=True, help="forged source address (the peer's)")
    ap.add_argument("--dst", required=True)
    ap.add_argument("--sport", type=int, default=40000)
    ap.add_argument("--vary-sport", action="store_true",
                    help="a new source port per segment (default for SYNs)")
    ap.add_argument("--dport", type=int, default=179)
    ap.add_argument("--ttl", type=int, required=True, help="TTL or hop limit as sent")
    ap.add_argument("--flags", default="S", help="TCP flags, scapy letters: S, R, A, PA, ...")
    ap.add_argument("--seq", type=int, default=1000)
    ap.add_argument("--seq-step", type=int, default=0, help="added to seq per segment")
    ap.add_argument("--ack", type=int, default=0)
    ap.add_argument("--window", type=int, default=65535)
    ap.add_argument("--payload", type=int, default=0, help="bytes of zeros after the header")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--rate", type=float, default=0, help="segments per second; 0 = at once")
    ap.add_argument("--duration", type=float, default=0,
                    help="send for this many seconds instead of --count segments")
    args = ap.parse_args()
    if not 1 <= args.ttl <= 255:
        ap.error("--ttl must be 1..255")
    if args.flags == "S":
        args.vary_sport = True

    version = ipaddress.ip_address(args.src).version
    if version == 4:
        sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        dest = (args.dst, 0)
    else:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
        dest = (args.dst, 0, 0, 0)
    # Pre-build a bounded set of distinct packets; a long flood cycles through them.
    distinct = min(args.count if not args.duration else 20000, 20000) or 1
    packets = [build(args, i) for i in range(distinct)]

    start = time.monotonic()
    deadline = start + args.duration if args.duration else None
    sent = 0
    while True:
        if deadline is not None:
            if time.monotonic() >= deadline:
                break
        elif sent >= args.count:
            break
        if args.rate:
            due = start + sent / args.rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        try:
            sock.sendto(packets[sent % distinct], dest)
        except BlockingIOError:
            continue
        sent += 1
    print(json.dumps({"sent": sent, "seconds": round(time.monotonic() - start, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
