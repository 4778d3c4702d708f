#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""A stream of ICMP echo probes (stdlib only, root: a raw socket), for watching a data plane
through an event: the machine has no ping, and one process probing several destinations at
the same rhythm gives comparable counts.

Sends one echo request to every --dst each --interval seconds for --seconds, then waits a
second for the last replies, and prints one JSON line
{dst: {"sent": N, "received": N, "lost": [sequence numbers...]}} (lost: the first 50).
SIGTERM ends the stream early and still reports.
"""

import argparse
import json
import os
import select
import signal
import socket
import struct
import time

ECHO_REQUEST, ECHO_REPLY = 8, 0


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def echo(ident, seq):
    payload = struct.pack("!d", time.time()) + b"skualab-probe"
    head = struct.pack("!BBHHH", ECHO_REQUEST, 0, 0, ident, seq)
    return struct.pack("!BBHHH", ECHO_REQUEST, 0, checksum(head + payload), ident,
                       seq) + payload


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dst", action="append", required=True)
    ap.add_argument("--interval", type=float, default=0.05)
    ap.add_argument("--seconds", type=float, required=True)
    args = ap.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    ident = os.getpid() & 0xFFFF
    sent = {d: set() for d in args.dst}
    got = {d: set() for d in args.dst}
    stop = []
    signal.signal(signal.SIGTERM, lambda s, f: stop.append(s))

    def read(until):
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([sock], [], [], left)
            if not r:
                return
            data, (addr, _) = sock.recvfrom(2048)
            ihl = (data[0] & 0x0F) * 4
            if len(data) < ihl + 8:
                continue
            kind, _, _, rid, seq = struct.unpack_from("!BBHHH", data, ihl)
            if kind == ECHO_REPLY and rid == ident and addr in got:
                got[addr].add(seq)

    seq = 0
    t0 = time.monotonic()
    while not stop and time.monotonic() - t0 < args.seconds:
        for d in args.dst:
            try:
                sock.sendto(echo(ident, seq & 0xFFFF), (d, 0))
                sent[d].add(seq & 0xFFFF)
            except OSError:
                sent[d].add(seq & 0xFFFF)  # no route: counted as sent and lost
        seq += 1
        read(t0 + seq * args.interval)
    read(time.monotonic() + 1.0)
    print(json.dumps({d: {"sent": len(sent[d]), "received": len(got[d] & sent[d]),
                          "lost": sorted(sent[d] - got[d])[:50]} for d in args.dst}),
          flush=True)


if __name__ == "__main__":
    main()
