#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Count the kernel's route changes in a namespace (stdlib only): what a restart costs the FIB.

Runs inside the namespace it watches, joined to the rtnetlink route groups (IPv4 and IPv6),
and counts every RTM_NEWROUTE and RTM_DELROUTE notification of protocol bgp (186) until
SIGTERM; the count is what the kernel did, whoever asked.  Its receive buffer is forced large
(SO_RCVBUFFORCE: run as root) so that a million changes in a burst are not dropped; if the
kernel drops some anyway (ENOBUFS) the report says so, and the count is then a lower bound
the caller must not trust.

Prints "ready" on stdout once subscribed, then on SIGTERM one JSON line
{"new": N, "del": N, "overflows": N, "samples_new": [...], "samples_del": [...]}
with a few of the prefixes seen, for the failure message.
"""

import ipaddress
import json
import signal
import socket
import struct
import sys

RTM_NEWROUTE, RTM_DELROUTE = 24, 25
RTMGRP_IPV4_ROUTE, RTMGRP_IPV6_ROUTE = 0x40, 0x400
RTA_DST = 1
RTPROT_BGP = 186
SO_RCVBUFFORCE = 33
RCVBUF = 1 << 30
SAMPLES = 5


def main():
    counts = {"new": 0, "del": 0, "overflows": 0, "samples_new": [], "samples_del": []}
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RCVBUF)
    sock.bind((0, RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE))

    def report(signum, frame):
        print(json.dumps(counts), flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, report)
    print("ready", flush=True)
    while True:
        try:
            data = sock.recv(1 << 20)
        except OSError as e:
            if e.errno == 105:  # ENOBUFS: notifications lost
                counts["overflows"] += 1
                continue
            raise
        off = 0
        while off + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, off)
            if length < 16 or off + length > len(data):
                break
            if kind in (RTM_NEWROUTE, RTM_DELROUTE) and length >= 16 + 12:
                family, dst_len, _, _, _, proto = struct.unpack_from("=BBBBBB", data, off + 16)
                if proto == RTPROT_BGP:
                    key = "new" if kind == RTM_NEWROUTE else "del"
                    counts[key] += 1
                    if len(counts["samples_" + key]) < SAMPLES:
                        counts["samples_" + key].append(prefix(data, off, length, family,
                                                               dst_len))
            off += (length + 3) & ~3


def prefix(data, off, length, family, dst_len):
    """The destination of a route message, as text (for the report only)."""
    a = off + 16 + 12
    while a + 4 <= off + length:
        alen, atype = struct.unpack_from("=HH", data, a)
        if alen < 4:
            break
        if atype == RTA_DST:
            raw = data[a + 4:a + alen]
            addr = (ipaddress.IPv4Address(raw[:4]) if family == socket.AF_INET
                    else ipaddress.IPv6Address(raw[:16]))
            return "%s/%d" % (addr, dst_len)
        a += (alen + 3) & ~3
    return "?"


if __name__ == "__main__":
    main()
