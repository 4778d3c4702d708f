#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Many flapping BGP peers in one process (stdlib only; the wire helpers of speaker.py).

Peer i connects from `base + i` (addresses the lab put on the link) to the router, opens an
IPv6 unicast session (AS `first_as + i`), announces `prefixes` /48s of its own from
2001:db8:2000::/36 (documentation space), stays up `up` seconds (random within the range,
reading and ignoring what it receives), then goes away, by turns with a Cease NOTIFICATION and
by simply closing the connection, waits `down` seconds and starts again, until `--seconds`
have passed.  One thread per peer.  Prints a JSON report on stdout: sessions established,
connection failures, per-peer counts.
"""

import argparse
import ipaddress
import json
import os
import random
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speaker import (KEEPALIVE, NOTIFICATION, OPEN, UPDATE, attr, encode_prefix,  # noqa: E402
                     msg)

PREFIX_BASE = ipaddress.IPv6Network("2001:db8:2000::/48")


def open_msg(my_as, router_id):
    caps = struct.pack("!BBHBB", 1, 4, 2, 0, 1) + struct.pack("!BBI", 65, 4, my_as)
    opt = struct.pack("!BB", 2, len(caps)) + caps
    return msg(OPEN, struct.pack("!BHH4sB", 4, my_as if my_as < 65536 else 23456, 30,
                                 router_id.packed, len(opt)) + opt)


def update_msg(my_as, nexthop, nets):
    path = struct.pack("!BB", 2, 1) + struct.pack("!I", my_as)
    mp = (struct.pack("!HBB", 2, 1, 16) + nexthop.packed + b"\x00"
          + b"".join(encode_prefix(n) for n in nets))
    attrs = attr(0x40, 1, b"\x00") + attr(0x40, 2, path) + attr(0x80, 14, mp)
    return msg(UPDATE, struct.pack("!HH", 0, len(attrs)) + attrs)


def recv_msg(sock):
    hdr = b""
    while len(hdr) < 19:
        chunk = sock.recv(19 - len(hdr))
        if not chunk:
            return None
        hdr += chunk
    length, mtype = struct.unpack("!HB", hdr[16:19])
    body = b""
    while len(body) < length - 19:
        chunk = sock.recv(length - 19 - len(body))
        if not chunk:
            return None
        body += chunk
    return mtype


class Peer(threading.Thread):
    def __init__(self, i, args, stop):
        super().__init__(daemon=True)
        self.i, self.args, self.stop = i, args, stop
        self.addr = ipaddress.IPv6Address(args.base) + i
        self.my_as = args.first_as + i
        self.rid = ipaddress.IPv4Address("192.0.2.0") + (i % 250) + 1
        first = int(PREFIX_BASE.network_address) + ((i * args.prefixes) << 80)
        self.nets = [ipaddress.IPv6Network((first + (k << 80), 48))
                     for k in range(args.prefixes)]
        self.rng = random.Random(i)
        self.established = self.failures = 0

    def session(self):
        s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        try:
            s.settimeout(5)
            s.bind((str(self.addr), 0))
            s.connect((self.args.peer, 179))
            s.sendall(open_msg(self.my_as, self.rid))
            if recv_msg(s) != OPEN:
                raise OSError("no OPEN")
            s.sendall(msg(KEEPALIVE))
            while True:
                t = recv_msg(s)
                if t is None or t == NOTIFICATION:
                    raise OSError("closed during the handshake")
                if t == KEEPALIVE:
                    break
            self.established += 1
            s.sendall(update_msg(self.my_as, self.addr, self.nets))
            end = time.monotonic() + self.rng.uniform(*self.args.up)
            while time.monotonic() < end and not self.stop.is_set():
                s.settimeout(max(0.1, end - time.monotonic()))
                try:
                    if recv_msg(s) is None:
                        raise OSError("closed by the router")
                except socket.timeout:
                    pass
            if self.established % 2:
                s.sendall(msg(NOTIFICATION, bytes([6, 2])))
        finally:
            s.close()

    def run(self):
        while not self.stop.is_set():
            try:
                self.session()
            except OSError:
                self.failures += 1
            self.stop.wait(self.rng.uniform(*self.args.down))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, help="the router's address")
    ap.add_argument("--base", required=True, help="address of peer 0; peer i uses base + i")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--first-as", type=int, default=64600)
    ap.add_argument("--prefixes", type=int, default=10)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--up", type=float, nargs=2, default=(1.0, 4.0))
    ap.add_argument("--down", type=float, nargs=2, default=(0.5, 2.0))
    args = ap.parse_args()
    if args.count * args.prefixes > 4096:
        sys.exit("flapper: at most 4096 /48s fit in 2001:db8:2000::/36")
    stop = threading.Event()
    peers = [Peer(i, args, stop) for i in range(args.count)]
    for p in peers:
        p.start()
    time.sleep(args.seconds)
    stop.set()
    for p in peers:
        p.join(timeout=10)
    print(json.dumps({"established": sum(p.established for p in peers),
                      "failures": sum(p.failures for p in peers),
                      "per_peer": [p.established for p in peers]}))


if __name__ == "__main__":
    main()
