#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""A route storm for the lab (stdlib only): add and delete IPv4 /32 routes as fast as the
kernel takes them, over rtnetlink, inside the namespace it runs in.

Every add and every delete is a notification to each rtnetlink listener of RTMGRP_IPV4_ROUTE
(bgpd's route watcher among them): tens of thousands a second, enough to overrun a
listener's receive buffer (ENOBUFS) while it is busy.  Routes are unicast on `lo`, protocol
static, in documentation space (`--prefix`, default 203.0.113.0/24: up to 256 /32s).
Requests are packed many to a sendmsg() and no acknowledgement is asked for.

When the time is up the storm leaves a known state: exactly `--leave` of its /32s (the
first ones of the prefix) in the table, so a listener's mirror can be checked against it.
Prints a JSON report {"changes", "seconds", "rate", "left"} on stdout.
"""

import argparse
import ipaddress
import json
import socket
import struct
import sys
import time

RTM_NEWROUTE, RTM_DELROUTE = 24, 25
NLM_F_REQUEST, NLM_F_CREATE, NLM_F_REPLACE = 0x1, 0x400, 0x100
RTA_DST, RTA_OIF, RTA_TABLE = 1, 4, 15
RTPROT_STATIC, RT_SCOPE_LINK, RTN_UNICAST = 4, 253, 1
DOC_V4 = [ipaddress.ip_network(n) for n in ("192.0.2.0/24", "198.51.100.0/24",
                                            "203.0.113.0/24")]


def rta(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def route_msg(kind, seq, addr, table, oif):
    flags = NLM_F_REQUEST | (NLM_F_CREATE | NLM_F_REPLACE if kind == RTM_NEWROUTE else 0)
    rtm = struct.pack("=BBBBBBBBI", socket.AF_INET, 32, 0, 0, table if table < 256 else 0,
                      RTPROT_STATIC, RT_SCOPE_LINK, RTN_UNICAST, 0)
    attrs = rta(RTA_DST, addr.packed) + rta(RTA_TABLE, struct.pack("=I", table))
    if kind == RTM_NEWROUTE:
        attrs += rta(RTA_OIF, struct.pack("=I", oif))
    body = rtm + attrs
    return struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body


def drain(sock):
    """Throw away the kernel's refusals (deleting a route already gone, and so on)."""
    while True:
        try:
            sock.recv(65536, socket.MSG_DONTWAIT)
        except (BlockingIOError, OSError):
            return


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--prefix", default="203.0.113.0/24")
    ap.add_argument("--table", type=int, default=254)
    ap.add_argument("--batch", type=int, default=128, help="/32s added then deleted per send")
    ap.add_argument("--leave", type=int, default=16)
    args = ap.parse_args()
    net = ipaddress.ip_network(args.prefix)
    if net.version != 4 or not any(net.subnet_of(d) for d in DOC_V4):
        sys.exit("route_storm: %s is not IPv4 documentation space" % net)
    hosts = list(net)[:max(args.batch, args.leave)]
    if len(hosts) < args.leave:
        sys.exit("route_storm: %s has fewer than %d addresses" % (net, args.leave))
    oif = socket.if_nametoindex("lo")
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    sock.bind((0, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    batch = hosts[:args.batch]
    adds = b"".join(route_msg(RTM_NEWROUTE, i, a, args.table, oif) for i, a in enumerate(batch))
    dels = b"".join(route_msg(RTM_DELROUTE, i, a, args.table, oif) for i, a in enumerate(batch))
    changes, t0 = 0, time.monotonic()
    end = t0 + args.seconds
    while time.monotonic() < end:
        sock.send(adds)
        sock.send(dels)
        changes += 2 * len(batch)
        drain(sock)
    elapsed = time.monotonic() - t0
    # The known final state: the first `leave` /32s present, the others absent.
    sock.send(b"".join(route_msg(RTM_NEWROUTE, 0, a, args.table, oif)
                       for a in hosts[:args.leave]))
    drain(sock)
    print(json.dumps({"changes": changes, "seconds": round(elapsed, 2),
                      "rate": int(changes / elapsed) if elapsed else 0, "left": args.leave}))


if __name__ == "__main__":
    main()
