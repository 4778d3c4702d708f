# SPDX-License-Identifier: ISC
"""Reading bgpd's strace (skualab's `strace = true`): one record per socket, from the call that
made it (socket() or accept4()) to its close(), with what was done to it in order.

Events are short strings: "MD5 192.0.2.2" (TCP_MD5SIG / TCP_MD5SIG_EXT, with the key's
address), "TTL=255" (IP_TTL), "MINTTL=255" (IP_MINTTL), "HOPS=255" (IPV6_UNICAST_HOPS),
"MINHOPS=255" (IPV6_MINHOPCOUNT), "V6ONLY=1", "REUSEADDR=1", "REUSEPORT=1", "FILTER len=N"
(SO_ATTACH_FILTER), "SELECTOR len=N" (SO_ATTACH_REUSEPORT_CBPF), "DETACH" (SO_DETACH_FILTER),
"listen", "connect 192.0.2.6", "accept" (first event of an accepted socket), "accept PEER" (on
the listener), "recv", "close"; a failed call is suffixed " -> EPERM", and
" INJECTED" when strace made it fail.
"""

import ipaddress
import re

LINE_RE = re.compile(r"^(?P<pid>\d+) +(?P<call>\w+)\((?P<args>.*)\) += (?P<ret>-?\d+|\?)"
                     r"(?: (?P<err>E[A-Z0-9]+))?[^\n]*?(?P<injected>\(INJECTED\))?$")
UNFINISHED_RE = re.compile(r"^(?P<pid>\d+) +(?P<head>.*) <unfinished \.\.\.>$")
RESUMED_RE = re.compile(r"^(?P<pid>\d+) +<\.\.\. \w+ resumed>(?P<tail>.*)$")
INET_RE = re.compile(r'inet_addr\("([0-9.]+)"\)|inet_pton\(AF_INET6, "([0-9a-f:.]+)"')
INT_ARG_RE = re.compile(r"\[(-?\d+)\]")
LEN_RE = re.compile(r"len=(\d+)")
OPTION_NAMES = {"IP_TTL": "TTL", "IP_MINTTL": "MINTTL", "IPV6_UNICAST_HOPS": "HOPS",
                "IPV6_MINHOPCOUNT": "MINHOPS", "IPV6_V6ONLY": "V6ONLY",
                "SO_REUSEADDR": "REUSEADDR", "SO_REUSEPORT": "REUSEPORT"}


class Socket:
    """One socket's life: how it was made, its peer (connect / accept), its events."""

    def __init__(self, fd, origin, family, peer=None, listener=None):
        self.fd = fd
        self.origin = origin  # "socket" or "accept"
        self.family = family  # "inet", "inet6", "unix", "netlink", ...
        self.peer = peer  # the address connected to or accepted from
        self.listener = listener  # for accepted sockets: the listening Socket
        self.events = []
        self.setsockopt_numbers = {}  # event index -> the call's number among all setsockopts
        self.accepted = []  # for listeners: peers of the connections accepted on it

    def __repr__(self):
        return "Socket(fd %d, %s %s, peer %s: %s)" % (self.fd, self.origin, self.family,
                                                       self.peer, self.events)

    def is_tcp(self):
        return self.family in ("inet", "inet6")

    def before(self, event_prefix):
        """Events up to (not including) the first one starting with event_prefix, or None
        when there is no such event."""
        for i, e in enumerate(self.events):
            if e.startswith(event_prefix):
                return self.events[:i]
        return None


def unescape(text):
    """strace's C string (octal escapes, \\n and the like) to bytes."""
    return text.encode("latin-1").decode("unicode_escape").encode("latin-1")


def md5_address(args):
    """The peer address of a struct tcp_md5sig printed by strace (its first bytes)."""
    m = re.search(r'"((?:[^"\\]|\\.)*)"', args)
    if not m:
        return "?"
    raw = unescape(m.group(1))
    family = int.from_bytes(raw[0:2], "little")
    if family == 2 and len(raw) >= 8:
        return str(ipaddress.IPv4Address(raw[4:8]))
    if family == 10 and len(raw) >= 24:
        addr = ipaddress.IPv6Address(raw[8:24])
        return str(addr.ipv4_mapped or addr)
    return "?"


def sockaddr_ip(args):
    m = INET_RE.search(args)
    if not m:
        return None
    addr = ipaddress.ip_address(m.group(1) or m.group(2))
    if addr.version == 6 and addr.ipv4_mapped:
        addr = addr.ipv4_mapped
    return str(addr)


def setsockopt_event(args):
    parts = [p.strip() for p in args.split(",", 3)]
    name = parts[2]
    if name in ("TCP_MD5SIG", "TCP_MD5SIG_EXT"):
        return "MD5 " + md5_address(parts[3])
    if name == "SO_ATTACH_FILTER":
        return "FILTER len=" + LEN_RE.search(parts[3]).group(1)
    if name == "SO_ATTACH_REUSEPORT_CBPF":
        return "SELECTOR len=" + LEN_RE.search(parts[3]).group(1)
    if name == "SO_DETACH_FILTER":
        return "DETACH"
    value = INT_ARG_RE.search(parts[3])
    return "%s=%s" % (OPTION_NAMES.get(name, name), value.group(1) if value else "?")


def join_unfinished(lines):
    """strace -f splits a call interrupted by another tracee's; put the halves together."""
    pending, out = {}, []
    for line in lines:
        line = line.rstrip("\n")
        m = UNFINISHED_RE.match(line)
        if m:
            pending[m.group("pid")] = m.group("head")
            continue
        m = RESUMED_RE.match(line)
        if m and m.group("pid") in pending:
            line = "%s %s%s" % (m.group("pid"), pending.pop(m.group("pid")), m.group("tail"))
        out.append(line)
    return out


def parse(text):
    """All sockets of the trace, in the order they were made."""
    sockets = []
    setsockopts = 0  # strace's inject=setsockopt:when=N counts the calls this way (per tracee)
    live = {}  # (pid, fd) -> Socket; bgpd is one process, but strace -f prefixes pids
    for line in join_unfinished(text.splitlines()):
        m = LINE_RE.match(line)
        if not m or m.group("ret") == "?":
            continue
        pid, call, args = m.group("pid"), m.group("call"), m.group("args")
        ret = int(m.group("ret"))
        failed = " -> %s" % m.group("err") if ret < 0 else ""
        if m.group("injected"):
            failed += " INJECTED"
        if call == "socket":
            if ret >= 0:
                family = args.split(",")[0].replace("AF_", "").lower()
                s = Socket(ret, "socket", family)
                live[(pid, ret)] = s
                sockets.append(s)
            continue
        fd = int(args.split(",")[0].strip())
        s = live.get((pid, fd))
        if call == "setsockopt":
            setsockopts += 1
        if call in ("accept", "accept4"):
            if ret >= 0 and s is not None:
                peer = sockaddr_ip(args)
                child = Socket(ret, "accept", s.family, peer=peer, listener=s)
                child.events.append("accept")
                live[(pid, ret)] = child
                sockets.append(child)
                s.accepted.append(peer)
                s.events.append("accept %s" % peer)
            continue
        if s is None:
            continue  # an fd this trace did not see made (stdin, a file, ...)
        if call == "close":
            s.events.append("close")
            del live[(pid, fd)]
        elif call == "setsockopt":
            s.setsockopt_numbers[len(s.events)] = setsockopts
            s.events.append(setsockopt_event(args) + failed)
        elif call == "connect":
            s.peer = sockaddr_ip(args) or s.peer
            s.events.append("connect %s%s" % (s.peer, failed))
        elif call == "listen":
            s.events.append("listen" + failed)
        elif call == "recvfrom":
            s.events.append("recv")
    return sockets


def read(path):
    with open(path, errors="replace") as f:
        return parse(f.read())

