#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The kernel alone: how long Linux takes to install and remove N IPv4 /24 routes depending on
the order they come in. No daemon: this script sends the route changes itself, over rtnetlink,
the way skua's kernel/route.c does (about 1,000 RTM_NEWROUTE with NLM_F_CREATE | NLM_F_REPLACE,
or RTM_DELROUTE, per sendmsg(), no acknowledgements asked, protocol bgp, metric 20), in a fresh
namespace of its own, and times every sendmsg(): the kernel applies a whole buffer inside the
call, so the time of each call is the kernel's time for those routes.

Orders: asc (address order: bgpd's prefix tree, the kernel's own dump), desc, random (a fixed
seed), bitrev (the route index with its bits reversed), chunkN (address order in blocks of N,
random inside each block: what holding back only N deletions at a time would give).

Why (doc/performance.md, "Kernel FIB"): the kernel's IPv4 FIB is an LC-trie whose nodes double
and halve with their fill; a table removed in address order leaves a dense block that the trie
rebuilds again and again from 262,144 routes left. The table is the one fib_install.py
installs (/24s from 16.0.0.0), in a namespace only this script uses.

  sudo /usr/bin/python3 bench/fib_order.py                      # 1,000,000 routes, every order
  sudo /usr/bin/python3 bench/fib_order.py --routes 200000 --remove asc,random --repeat 3
"""

import argparse
import json
import os
import random
import resource
import socket
import statistics
import struct
import subprocess
import sys
import time

import benchlib as bl

RTM_NEWROUTE, RTM_DELROUTE = 24, 25
NLM_F_REQUEST, NLM_F_REPLACE, NLM_F_CREATE = 0x1, 0x100, 0x400
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY, RTA_TABLE, RTA_NH_ID = 1, 4, 5, 6, 15, 30
RTM_NEWNEXTHOP, NHA_ID, NHA_OIF, NHA_GATEWAY = 104, 1, 5, 6
RTMGRP_IPV4_ROUTE, SO_ATTACH_FILTER = 0x40, 26
NH_ID = 1000  # the one nexthop object of --nexthop object
RTPROT_BGP, RT_TABLE_MAIN, RTN_UNICAST = 186, 254, 1
RT_SCOPE_UNIVERSE, RT_SCOPE_NOWHERE = 0, 255
FIRST = 0x10000000  # 16.0.0.0
GATEWAY = "192.0.2.1"
ORDERS = ("asc", "desc", "random", "bitrev")


def attr(kind, data):
    size = 4 + len(data)
    return struct.pack("=HH", size, kind) + data + b"\0" * (-size % 4)


def message(kind, flags, key, gw=None, oif=0, nh_id=0):
    scope = RT_SCOPE_UNIVERSE if kind == RTM_NEWROUTE else RT_SCOPE_NOWHERE
    rtm = struct.pack("=BBBBBBBBI", socket.AF_INET, 24, 0, 0, RT_TABLE_MAIN, RTPROT_BGP, scope,
                      RTN_UNICAST, 0)
    body = rtm + attr(RTA_DST, struct.pack(">I", key)) + \
        attr(RTA_TABLE, struct.pack("=I", RT_TABLE_MAIN)) + attr(RTA_PRIORITY, struct.pack("=I", 20))
    if nh_id:
        body += attr(RTA_NH_ID, struct.pack("=I", nh_id))
    elif gw:
        body += attr(RTA_GATEWAY, gw) + attr(RTA_OIF, struct.pack("=I", oif))
    return struct.pack("=IHHII", 16 + len(body), kind, NLM_F_REQUEST | flags, 0, 0) + body


def nexthop_object(sock, nh_id, gw, oif):
    """Create the nexthop object nh_id (gateway gw on oif) and wait for the kernel's answer."""
    nhm = struct.pack("=BBBBI", socket.AF_INET, RT_SCOPE_UNIVERSE, RTPROT_BGP, 0, 0)
    body = nhm + attr(NHA_ID, struct.pack("=I", nh_id)) + attr(NHA_GATEWAY, gw) + \
        attr(NHA_OIF, struct.pack("=I", oif))
    sock.send(struct.pack("=IHHII", 16 + len(body), RTM_NEWNEXTHOP,
                          NLM_F_REQUEST | NLM_F_CREATE | 0x4, 1, 0) + body)  # 0x4: NLM_F_ACK
    data = sock.recv(65536)
    err = struct.unpack_from("=i", data, 16)[0]
    if err:
        raise OSError(-err, "RTM_NEWNEXTHOP: %s" % os.strerror(-err))


def route_listener():
    """A socket in the route notification group whose filter drops every message, as skua's
    route watcher drops BGP routes' echoes: the kernel still builds each notification."""
    import ctypes
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    sock.bind((0, RTMGRP_IPV4_ROUTE))
    drop_all = ctypes.create_string_buffer(struct.pack("=HBBI", 0x06, 0, 0, 0))  # ret #0
    prog = struct.pack("=H6xQ", 1, ctypes.addressof(drop_all))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, prog)
    return sock, drop_all


def ordered(keys, order, seed):
    keys = list(keys)
    if order == "asc":
        return keys
    if order == "desc":
        return keys[::-1]
    if order == "random":
        random.Random(seed).shuffle(keys)
        return keys
    if order == "bitrev":
        bits = max(1, (len(keys) - 1).bit_length())
        return sorted(keys, key=lambda k: int(format((k - FIRST) >> 8, "0%db" % bits)[::-1], 2))
    if order.startswith("chunk") and order[5:].isdigit() and int(order[5:]) > 0:
        size, rnd, out = int(order[5:]), random.Random(seed), []
        for i in range(0, len(keys), size):
            block = keys[i:i + size]
            rnd.shuffle(block)
            out += block
        return out
    raise ValueError("unknown order %r" % order)


def phase(sock, msgs, batch):
    """Send msgs in buffers of batch; the kernel's time for each buffer, CPU of this process."""
    t0, r0 = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
    calls, refused = [], 0
    for i in range(0, len(msgs), batch):
        buf = b"".join(msgs[i:i + batch])
        s0, t = os.times().system, time.monotonic()
        sock.send(buf)
        calls.append((i + len(msgs[i:i + batch]), time.monotonic() - t, os.times().system - s0))
        while True:  # refusals only (no acknowledgements asked)
            try:
                data = sock.recv(1 << 20, socket.MSG_DONTWAIT)
            except BlockingIOError:
                break
            off = 0
            while off + 20 <= len(data):
                size, kind = struct.unpack_from("=IH", data, off)
                if size < 16:
                    break
                refused += kind == 2 and struct.unpack_from("=i", data, off + 16)[0] != 0
                off += (size + 3) & ~3
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    total = time.monotonic() - t0
    spent = sum(c[1] for c in calls)
    # Where the time went: the kernel's time to get through each tenth of the routes.
    tenths, acc, mark = [], 0.0, len(msgs) / 10
    for done, d, _ in calls:
        acc += d
        while len(tenths) < 10 and done >= mark * (len(tenths) + 1):
            tenths.append(round(acc, 3))
    worst = max(calls, key=lambda c: c[1]) if calls else (0, 0.0, 0.0)
    # Voluntary context switches: the kernel slept inside the calls (fib_trie's
    # synchronize_rcu() after freeing big nodes); involuntary: other work took the CPU.
    return {"seconds": round(total, 3), "kernel_s": round(spent, 3),
            "sys_s": round(r1.ru_stime - r0.ru_stime, 2),
            "user_s": round(r1.ru_utime - r0.ru_utime, 2),
            "sleeps": r1.ru_nvcsw - r0.ru_nvcsw, "preempted": r1.ru_nivcsw - r0.ru_nivcsw,
            "tenths_s": tenths, "worst_call_s": round(worst[1], 3),
            "worst_call_sys_s": round(worst[2], 2),
            "worst_call_after": worst[0], "left_at_worst": len(msgs) - worst[0],
            "refused": refused}


def trie_leaves():
    with open("/proc/net/fib_triestat") as f:
        text = f.read()
    main = text.split("Main:", 1)[1]
    return int(main.split("Leaves:", 1)[1].split()[0])


def child(a):
    """Inside the namespace: install, then remove, print one JSON line."""
    oif = socket.if_nametoindex("to-gw")
    gw = socket.inet_aton(GATEWAY)
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.bind((0, 0))
    listener = route_listener() if a.listener == "filtered" else None
    nh_id = 0
    if a.nexthop == "object":
        nexthop_object(sock, NH_ID, gw, oif)
        nh_id = NH_ID
    keys = [FIRST + (i << 8) for i in range(a.routes)]
    before = trie_leaves()
    adds = [message(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, k, gw, oif, nh_id)
            for k in ordered(keys, a.install, 1)]
    inst = phase(sock, adds, a.batch)
    del adds
    full = trie_leaves()
    dels = [message(RTM_DELROUTE, 0, k) for k in ordered(keys, a.child_remove, 2)]
    rem = phase(sock, dels, a.batch)
    after = trie_leaves()
    print(json.dumps({"install": inst, "removal": rem, "leaves": [before, full, after]}))
    del listener
    return 0 if full - before == a.routes and after == before else 1


def one_run(a, order, i):
    tag = "fo%d" % os.getpid()
    dut, _ = bl.setup_netns(tag, [("gw", GATEWAY, "192.0.2.2")])
    try:
        cmd = ["ip", "netns", "exec", dut, sys.executable, os.path.abspath(__file__), "--child",
               "--routes", str(a.routes), "--install", a.install, "--child-remove", order,
               "--batch", str(a.batch), "--nexthop", a.nexthop, "--listener", a.listener]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True)
        bl.CLEAN.procs.append(p)
        try:
            out, _ = p.communicate(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            raise bl.BenchError("run %d (%s) took over %d s" % (i, order, a.timeout))
        finally:
            bl.CLEAN.release(p)
        if p.returncode != 0 or not out.strip():
            raise bl.BenchError("run %d (%s): the routes did not all go in and out (%s)"
                                % (i, order, out.strip()))
        return json.loads(out)
    finally:
        bl.teardown_netns([dut, tag + "-gw"])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--routes", type=int, default=1000000, help="IPv4 /24 routes (default 1000000)")
    p.add_argument("--install", default="asc", help="order of the install (default asc)")
    p.add_argument("--remove", default=",".join(ORDERS),
                   help="comma-separated removal orders (default %s)" % ",".join(ORDERS))
    p.add_argument("--batch", type=int, default=1000, help="route changes per sendmsg (1000)")
    p.add_argument("--repeat", type=int, default=1, help="runs per order (median reported)")
    p.add_argument("--timeout", type=int, default=600, help="bound on one run in seconds")
    p.add_argument("--nexthop", choices=("per-route", "object"), default="per-route",
                   help="each route its own next hop (RTA_GATEWAY, RTA_OIF) or all referring "
                   "to one nexthop object (RTA_NH_ID)")
    p.add_argument("--listener", choices=("none", "filtered"), default="none",
                   help="filtered: a socket in the IPv4 route group dropping every message by "
                   "its filter (as skua's route watcher drops BGP routes)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--child-remove", default="asc", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return child(a)
    if os.geteuid() != 0:
        bl.log("must run as root (network namespaces)")
        return 2
    orders = [o for o in a.remove.split(",") if o]
    for o in orders + [a.install]:
        ordered([FIRST], o, 0)  # an unknown order fails here, before any namespace exists

    def body(_workdir):
        rows = []
        for order in orders:
            runs = []
            for i in range(1, a.repeat + 1):
                bl.log("%d routes, install %s, removal %s, run %d/%d, load average %.2f"
                       % (a.routes, a.install, order, i, a.repeat, os.getloadavg()[0]))
                r = one_run(a, order, i)
                bl.log("  install %.2f s (kernel %.2f, sys %.2f, %d sleeps), removal %.2f s "
                       "(kernel %.2f, sys %.2f, %d sleeps), slowest call %.3f s (sys %.2f) "
                       "with %d routes left"
                       % (r["install"]["seconds"], r["install"]["kernel_s"],
                          r["install"]["sys_s"], r["install"]["sleeps"],
                          r["removal"]["seconds"], r["removal"]["kernel_s"],
                          r["removal"]["sys_s"], r["removal"]["sleeps"],
                          r["removal"]["worst_call_s"], r["removal"]["worst_call_sys_s"],
                          r["removal"]["left_at_worst"]))
                runs.append(r)
            med = lambda ph, k: statistics.median(r[ph][k] for r in runs)  # noqa: E731
            mid = sorted(runs, key=lambda r: r["removal"]["kernel_s"])[len(runs) // 2]
            rows.append((order, med("install", "kernel_s"), med("install", "sys_s"),
                         med("removal", "kernel_s"), med("removal", "sys_s"),
                         med("removal", "sleeps"), mid["removal"]["tenths_s"],
                         mid["removal"]["worst_call_s"], mid["removal"]["worst_call_sys_s"],
                         mid["removal"]["left_at_worst"]))
        print("| removal order | install: kernel s (sys) | removal: kernel s (sys) | "
              "removal sleeps | removal: kernel s after each tenth | slowest call s (sys) | "
              "routes left then |")
        print("|---|---:|---:|---:|---|---:|---:|")
        for order, ins, ins_sys, rem, rem_sys, sleeps, tenths, worst, wsys, left in rows:
            print("| %s | %.2f (%.2f) | %.2f (%.2f) | %d | %s | %.3f (%.2f) | %d |"
                  % (order, ins, ins_sys, rem, rem_sys, sleeps,
                     " ".join("%.2f" % t for t in tenths), worst, wsys, left))
        return 0

    return bl.run_guarded("/tmp/skua-fib-order-", False, body)


if __name__ == "__main__":
    sys.exit(main())
