#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Forged ICMP errors against a TCP session protected by IP_MINTTL / IPV6_MINHOPCOUNT 255.

Runs as root inside the test VM (tests/kernel/vm-init.sh), or on any scratch machine: it only
touches the network namespaces it creates.  Topology (every name prefixed sk16-):

    b (peer) ---- a (session, min TTL 255) ---- r (router) ---- x (attacker)
    192.0.2.2/30  192.0.2.1/30 198.51.100.1/30  198.51.100.2/30   203.0.113.1/30  203.0.113.2/30
    2001:db8:0:1::2  ::1       2001:db8:1:1::1  ::2               2001:db8:1:2::1 ::2

b connects to a with TTL 255; a sends 100 bytes, b acknowledges them.  The attacker learns the
4-tuple and a's next sequence number from a capture on b's link (the best knowledge it could
have), then sends, at TTL 255 (254 when it reaches a), COUNT "fragmentation needed" (ICMPv6
"packet too big") and COUNT "port unreachable" errors quoting a's segment with an inner TTL of
255 and that in-window sequence number.  Printed: one JSON object per family with a's path MTU
(ip route get, ss -ti) and TcpExt counters before and after, and the error the socket holds.
Then the control: one such "fragmentation needed" from b itself, on the link at TTL 255, which
both kernels must obey (the patch drops only what arrives below the minimum).

The same file also runs the per-namespace roles (server, client, sniff, forge), started with
`ip netns exec NS python3 icmp_minttl.py ROLE ...`.
"""

import argparse
import json
import os
import re
import select
import socket
import subprocess
import sys
import time

NS = {"a": "sk16-a", "b": "sk16-b", "r": "sk16-r", "x": "sk16-x"}
ADDR = {
    4: {"a": "192.0.2.1", "b": "192.0.2.2", "x": "203.0.113.2"},
    6: {"a": "2001:db8:0:1::1", "b": "2001:db8:0:1::2", "x": "2001:db8:1:2::2"},
}
PORT = {4: 1794, 6: 1796}
PAYLOAD = 100
IP_MINTTL = 21  # linux/in.h; Python's socket module does not name it
IPV6_MINHOPCOUNT = 73  # linux/in6.h
IP_RECVERR = 11  # linux/in.h
IPV6_RECVERR = 25  # linux/in6.h
FORGED_MTU = {4: 1000, 6: 1400}
# The control: one "fragmentation needed" / "packet too big" from b, on the link, at TTL 255.
# Below the forged MTU (and at least 1280 for IPv6), so it shows whether it was accepted.
CONTROL_MTU = {4: 900, 6: 1300}
ROLE_TIMEOUT = 600  # no role process outlives this, whatever the parent does
# Bound for one step (a role starting, a segment arriving): importing scapy takes tens of
# seconds in a VM without KVM.
SLOW = 150


def sh(*cmd, check=True):
    """Run a command, return its stdout; on failure say which command and what it printed."""
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if check and res.returncode != 0:
        raise RuntimeError("%s failed (rc %d): %s" % (" ".join(cmd), res.returncode,
                                                       res.stderr.strip()))
    return res.stdout


def setup():
    teardown()
    for ns in NS.values():
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    links = [("a", "b", "192.0.2.1/30", "192.0.2.2/30", "2001:db8:0:1::1/64", "2001:db8:0:1::2/64"),
             ("a", "r", "198.51.100.1/30", "198.51.100.2/30", "2001:db8:1:1::1/64",
              "2001:db8:1:1::2/64"),
             ("r", "x", "203.0.113.1/30", "203.0.113.2/30", "2001:db8:1:2::1/64",
              "2001:db8:1:2::2/64")]
    for left, right, l4, r4, l6, r6 in links:
        lname, rname = "%s-%s" % (left, right), "%s-%s" % (right, left)
        sh("ip", "link", "add", lname, "netns", NS[left], "type", "veth", "peer", "name", rname,
           "netns", NS[right])
        for ns, name, a4, a6 in ((NS[left], lname, l4, l6), (NS[right], rname, r4, r6)):
            sh("ip", "-n", ns, "addr", "add", a4, "dev", name)
            sh("ip", "-n", ns, "addr", "add", a6, "dev", name, "nodad")
            sh("ip", "-n", ns, "link", "set", name, "up")
    sh("ip", "netns", "exec", NS["r"], "sysctl", "-qw", "net.ipv4.ip_forward=1",
       "net.ipv6.conf.all.forwarding=1")
    sh("ip", "-n", NS["a"], "route", "add", "203.0.113.0/30", "via", "198.51.100.2")
    sh("ip", "-n", NS["a"], "-6", "route", "add", "2001:db8:1:2::/64", "via", "2001:db8:1:1::2")
    sh("ip", "-n", NS["r"], "route", "add", "192.0.2.0/30", "via", "198.51.100.1")
    sh("ip", "-n", NS["r"], "-6", "route", "add", "2001:db8:0:1::/64", "via", "2001:db8:1:1::1")
    sh("ip", "-n", NS["x"], "route", "add", "default", "via", "203.0.113.1")
    sh("ip", "-n", NS["x"], "-6", "route", "add", "default", "via", "2001:db8:1:2::1")


def teardown():
    for ns in NS.values():
        sh("ip", "netns", "del", ns, check=False)


def counters():
    """a's TcpExt counters that matter here (per namespace)."""
    text = sh("ip", "netns", "exec", NS["a"], "cat", "/proc/net/netstat").splitlines()
    out = {}
    for names, values in zip(text[0::2], text[1::2]):
        if names.startswith("TcpExt:"):
            for k, v in zip(names.split()[1:], values.split()[1:]):
                if k in ("TCPMinTTLDrop", "OutOfWindowIcmps"):
                    out[k] = int(v)
    return out


def path_mtu(fam):
    """a's path MTU towards b: the route cache's (ip route get) and the socket's (ss -ti)."""
    route = sh("ip", "-n", NS["a"], "-%d" % fam, "route", "get", ADDR[fam]["b"])
    m = re.search(r"\bmtu (\d+)", route)
    ss = sh("ip", "netns", "exec", NS["a"], "ss", "-tniH", "-%d" % fam, "state", "established",
            "( sport = :%d )" % PORT[fam])
    p = re.search(r"\bpmtu:(\d+)", ss)
    return {"route_get": " ".join(route.split()), "route_mtu": int(m.group(1)) if m else None,
            "ss_pmtu": int(p.group(1)) if p else None}


def forge(ns, fam, seg, seq, count, mtu, kinds):
    """Run the forge role in namespace ns, then give the kernel a moment to process."""
    res = subprocess.run(role_cmd(ns, "forge", ns, fam, seg["sport"], seg["dport"], seq, count, mtu,
                                  kinds), capture_output=True, text=True, timeout=SLOW)
    if res.returncode != 0:
        raise RuntimeError("forging from %s failed: %s" % (NS[ns], res.stderr.strip()))
    time.sleep(1)


def wait_acked(fam):
    """Until b has acknowledged a's data (ss prints unacked:N only while N > 0): then
    snd_una == snd_nxt and the attacker's sequence number is the one in-window value."""
    deadline = time.time() + SLOW
    while time.time() < deadline:
        ss = sh("ip", "netns", "exec", NS["a"], "ss", "-tniH", "-%d" % fam, "state",
                "established", "( sport = :%d )" % PORT[fam])
        if ss.strip() and "unacked:" not in ss:
            return
        time.sleep(0.1)
    raise RuntimeError("a's data to b was not acknowledged within %d s" % SLOW)


def role_cmd(ns, *args):
    return ["ip", "netns", "exec", NS[ns], sys.executable, os.path.abspath(__file__)] + \
        [str(a) for a in args]


def read_line(proc, what, timeout=SLOW):
    """One line from a role process, bounded: fail with what we waited for."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline() if ready else ""
    if not line:
        raise RuntimeError("no %s within %d s (rc %s)" % (what, timeout, proc.poll()))
    return line.strip()


def run_family(fam, count):
    procs = []
    try:
        server = subprocess.Popen(role_cmd("a", "server", fam), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        procs.append(server)
        read_line(server, "listening from the server")
        sniff = subprocess.Popen(role_cmd("b", "sniff", fam), stdout=subprocess.PIPE, text=True)
        procs.append(sniff)
        read_line(sniff, "the sniffer's ready line")
        client = subprocess.Popen(role_cmd("b", "client", fam), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        procs.append(client)
        read_line(client, "the client's data")
        seg = json.loads(read_line(sniff, "a captured segment from a"))
        wait_acked(fam)
        before = {"mtu": path_mtu(fam), "counters": counters()}
        seq = (seg["seq"] + seg["len"]) % 2**32  # a's snd_nxt, the one in-window value when idle
        forge("x", fam, seg, seq, count, FORGED_MTU[fam], "mtu,unreach")
        server.stdin.write("status\n")
        server.stdin.flush()
        status = json.loads(read_line(server, "the server's socket status"))
        after = {"mtu": path_mtu(fam), "counters": counters()}
        # The control: the same error from the peer on the link must still be obeyed.
        forge("b", fam, seg, seq, 1, CONTROL_MTU[fam], "mtu")
        control = {"mtu": path_mtu(fam), "counters": counters()}
        return {"family": "IPv%d" % fam, "forged": {"mtu": count, "unreach": count},
                "forged_mtu": FORGED_MTU[fam], "seq": seq, "before": before, "after": after,
                "TCPMinTTLDrop": after["counters"]["TCPMinTTLDrop"] -
                before["counters"]["TCPMinTTLDrop"],
                "OutOfWindowIcmps": after["counters"]["OutOfWindowIcmps"] -
                before["counters"]["OutOfWindowIcmps"],
                "socket_error": status["so_error"], "tcpi_pmtu": status["pmtu"],
                "control": {"from": ADDR[fam]["b"], "mtu_sent": CONTROL_MTU[fam],
                            "ss_pmtu": control["mtu"]["ss_pmtu"],
                            "TCPMinTTLDrop": control["counters"]["TCPMinTTLDrop"] -
                            after["counters"]["TCPMinTTLDrop"]}}
    finally:
        for p in procs:  # only the processes this function started
            if p.poll() is None:
                p.kill()
            p.wait(timeout=10)


def main_scenario(args):
    if os.geteuid() != 0:
        sys.exit("icmp_minttl.py: needs root (it creates network namespaces); run it in the VM "
                 "via tests/kernel/run.sh or as root on a scratch machine")
    kernel = os.uname().release + " " + os.uname().version
    results = []
    try:
        setup()
        for fam in (4, 6):
            results.append(run_family(fam, args.count))
    finally:
        teardown()
    out = {"kernel": kernel, "results": results}
    print(json.dumps(out))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


# ---- roles, each inside one namespace ----

def tcp_info_pmtu(sock):
    # struct tcp_info: 8 bytes of u8 fields, then u32s; tcpi_pmtu is the 14th u32.
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return int.from_bytes(info[8 + 13 * 4:8 + 14 * 4], sys.byteorder)


def role_server(fam):
    af = socket.AF_INET if fam == 4 else socket.AF_INET6
    lsock = socket.socket(af, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == 4:
        lsock.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, 255)
        lsock.setsockopt(socket.IPPROTO_IP, IP_MINTTL, 255)
        # IP_RECVERR makes an accepted ICMP error a hard error (SO_ERROR), so it shows.
        lsock.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
    else:
        lsock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 255)
        lsock.setsockopt(socket.IPPROTO_IPV6, IPV6_MINHOPCOUNT, 255)
        lsock.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
    lsock.bind((ADDR[fam]["a"], PORT[fam]))
    lsock.listen(1)
    lsock.settimeout(ROLE_TIMEOUT)
    print("listening", flush=True)
    conn, _ = lsock.accept()
    conn.sendall(b"x" * PAYLOAD)
    ready, _, _ = select.select([sys.stdin], [], [], ROLE_TIMEOUT)
    if ready and sys.stdin.readline().strip() == "status":
        err = conn.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        print(json.dumps({"so_error": os.strerror(err) if err else None,
                          "pmtu": tcp_info_pmtu(conn)}), flush=True)
    select.select([sys.stdin], [], [], ROLE_TIMEOUT)


def role_client(fam):
    af = socket.AF_INET if fam == 4 else socket.AF_INET6
    sock = socket.socket(af, socket.SOCK_STREAM)
    if fam == 4:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, 255)
    else:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 255)
    sock.settimeout(SLOW)
    sock.connect((ADDR[fam]["a"], PORT[fam]))
    got = b""
    while len(got) < PAYLOAD:
        chunk = sock.recv(PAYLOAD - len(got))
        if not chunk:
            break
        got += chunk
    print("got %d" % len(got), flush=True)
    select.select([sys.stdin], [], [], ROLE_TIMEOUT)


def role_sniff(fam):
    """Print a's last data segment to b as JSON (b's link, as an on-path observer sees it)."""
    from scapy.all import IP, IPv6, TCP, conf, sniff
    ipl = IP if fam == 4 else IPv6

    def from_a(pkt):
        return pkt.haslayer(ipl) and pkt.haslayer(TCP) and pkt[ipl].src == ADDR[fam]["a"] and \
            len(pkt[TCP].payload) > 0
    # Open the capture socket before saying "ready", so the segment cannot pass unseen.
    sock = conf.L2listen(iface="b-a")
    print("ready", flush=True)
    got = sniff(opened_socket=sock, lfilter=from_a, count=1, timeout=SLOW)
    sock.close()
    if not got:
        sys.exit("sniff: no data segment from %s on b-a within %d s" % (ADDR[fam]["a"], SLOW))
    tcp = got[0][TCP]
    print(json.dumps({"sport": tcp.sport, "dport": tcp.dport, "seq": tcp.seq,
                      "len": len(tcp.payload)}), flush=True)


def role_forge(src, fam, sport, dport, seq, count, mtu_value, kinds):
    """COUNT errors of each kind in KINDS (mtu, unreach), from this namespace's address on
    the path (x, or b for the control), each quoting a's segment with inner TTL 255."""
    from scapy.all import ICMP, IP, IPv6, ICMPv6PacketTooBig, ICMPv6DestUnreach, TCP, send
    a, b, x = ADDR[fam]["a"], ADDR[fam]["b"], ADDR[fam][src]
    quoted = TCP(sport=sport, dport=dport, seq=seq, flags="A")
    if fam == 4:
        inner = IP(src=a, dst=b, ttl=255) / quoted
        mtu = IP(src=x, dst=a, ttl=255) / ICMP(type=3, code=4, nexthopmtu=mtu_value) / inner
        unreach = IP(src=x, dst=a, ttl=255) / ICMP(type=3, code=3) / inner
    else:
        inner = IPv6(src=a, dst=b, hlim=255) / quoted
        mtu = IPv6(src=x, dst=a, hlim=255) / ICMPv6PacketTooBig(mtu=mtu_value) / inner
        unreach = IPv6(src=x, dst=a, hlim=255) / ICMPv6DestUnreach(code=4) / inner
    for kind in kinds.split(","):
        send({"mtu": mtu, "unreach": unreach}[kind], count=count, verbose=False)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="role")
    sc = sub.add_parser("scenario")
    sc.add_argument("--count", type=int, default=5, help="forged errors of each kind")
    sc.add_argument("--out", help="also write the JSON result here")
    for name in ("server", "client", "sniff"):
        sub.add_parser(name).add_argument("fam", type=int, choices=(4, 6))
    fg = sub.add_parser("forge")
    fg.add_argument("src", choices=("b", "x"))
    for arg in ("fam", "sport", "dport", "seq", "count", "mtu"):
        fg.add_argument(arg, type=int)
    fg.add_argument("kinds")
    args = p.parse_args()
    if args.role in (None, "scenario"):
        if args.role is None:
            args = sc.parse_args([])
        main_scenario(args)
    elif args.role == "forge":
        role_forge(args.src, args.fam, args.sport, args.dport, args.seq, args.count, args.mtu,
                   args.kinds)
    else:
        {"server": role_server, "client": role_client, "sniff": role_sniff}[args.role](args.fam)


if __name__ == "__main__":
    main()
