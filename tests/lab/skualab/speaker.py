#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""A raw BGP-4 speaker for loading big tables fast (written for skua's lab, stdlib only).

It connects to one peer, negotiates (RFC 4271 OPEN, RFC 4760 multiprotocol and RFC 6793
four-octet AS capabilities), then writes pre-packed UPDATEs as fast as the peer reads them,
sends End-of-RIB (RFC 4724 section 2), and stays up sending KEEPALIVEs until SIGTERM, when it
sends a Cease/Administrative Shutdown NOTIFICATION (RFC 4486).  Everything it receives is
read and counted, never interpreted beyond the header.  Progress goes to a status JSON file.

Config (TOML):
    local_as = 65002
    router_id = "192.0.2.9"
    peer = "2001:db8:0:2::1"
    local_address = "2001:db8:0:2::2"      # optional
    hold_time = 90
    connect_timeout = 60                   # seconds to keep retrying the connection
    graceful_restart = 120                 # optional: advertise Graceful Restart (RFC 4724 3)
                                           # with this restart time and the announced
                                           # families, so that a restarting peer awaits our
                                           # End-of-RIB
    stop_reading = false                   # optional: once Established, never read again (a
                                           # stuck peer, for RFC 9687's send hold timer); the
                                           # KEEPALIVEs still go out
    rcvbuf = 4096                          # optional: SO_RCVBUF set before connecting, so a
                                           # peer's output stalls after a few kilobytes
    [[announce]]
    afi = "ipv6"                           # or "ipv4"
    count = 200000
    start = "2001:db8:1000::"              # first prefix; must stay in documentation space
    prefix_len = 56
    nexthop = "2001:db8:0:2::2"
    as_path = [65002]
    med_group = 1000                       # optional: MED changes every N prefixes, so the
                                           # table has count/N distinct attribute sets
    [refresh]                              # optional: enhanced route refresh (RFC 7313)
    omit = ["203.0.113.80/28"]             # left out of every refresh answer, never withdrawn

With [refresh], the OPEN also carries the route refresh (RFC 2918) and enhanced route refresh
capabilities, and a ROUTE-REFRESH for a family is answered with BoRR, the family's UPDATEs
without the omitted prefixes, and EoRR: a route the peer must drop at the EoRR although no
WITHDRAW came.  ROUTE-REFRESH messages received are counted by subtype, and the order of what
is received (U UPDATE, R request, B BoRR, E EoRR) is kept, the first 200.
"""

import argparse
import ipaddress
import json
import os
import signal
import socket
import struct
import sys
import threading
import time
import tomllib

MARKER = b"\xff" * 16
OPEN, UPDATE, NOTIFICATION, KEEPALIVE, ROUTE_REFRESH = 1, 2, 3, 4, 5
RR_REQUEST, RR_BORR, RR_EORR = 0, 1, 2
MAX_MSG = 4096
AS_TRANS = 23456
DOC_NETS = [ipaddress.ip_network(n) for n in
            ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32")]
AFI = {"ipv4": 1, "ipv6": 2}


def msg(mtype, body=b""):
    return MARKER + struct.pack("!HB", 19 + len(body), mtype) + body


def attr(flags, code, value):
    if len(value) > 255:
        return struct.pack("!BBH", flags | 0x10, code, len(value)) + value
    return struct.pack("!BBB", flags, code, len(value)) + value


def encode_prefix(net):
    nbytes = (net.prefixlen + 7) // 8
    return bytes([net.prefixlen]) + net.network_address.packed[:nbytes]


def prefixes(spec):
    """The announced networks, each checked to lie inside documentation space."""
    first = ipaddress.ip_network("%s/%d" % (spec["start"], spec["prefix_len"]))
    count = int(spec["count"])
    step = 1 << (first.max_prefixlen - first.prefixlen)
    last = ipaddress.ip_network("%s/%d" % (first.network_address + step * (count - 1),
                                           first.prefixlen))
    for n in (first, last):
        if not any(n.version == d.version and n.subnet_of(d) for d in DOC_NETS):
            sys.exit("speaker: %s is outside documentation space; choose start/count inside "
                     "192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 or 2001:db8::/32" % n)
    base = int(first.network_address)
    cls = ipaddress.IPv4Network if first.version == 4 else ipaddress.IPv6Network
    for i in range(count):
        yield cls((base + i * step, first.prefixlen))


def pack_updates(spec, as4, omit=()):
    """All UPDATE messages for one [[announce]] block, as a list of bytes (without the
    networks in omit)."""
    afi = spec.get("afi", "ipv4")
    as_path = [int(a) for a in spec.get("as_path", [])]
    if as4:
        path = struct.pack("!BB", 2, len(as_path)) + b"".join(struct.pack("!I", a)
                                                               for a in as_path)
    else:
        path = struct.pack("!BB", 2, len(as_path)) + b"".join(
            struct.pack("!H", a if a < 65536 else AS_TRANS) for a in as_path)
    nh = ipaddress.ip_address(spec["nexthop"])
    group = int(spec.get("med_group", 0)) or None
    nets = [encode_prefix(n) for n in prefixes(spec) if n not in omit]
    out = []
    i = 0
    while i < len(nets):
        med = (i // group) if group else None
        common = attr(0x40, 1, b"\x00") + attr(0x40, 2, path)
        if med is not None:
            common += attr(0x80, 4, struct.pack("!I", med))
        if afi == "ipv4":
            attrs = common + attr(0x40, 3, nh.packed)
            room = MAX_MSG - 19 - 4 - len(attrs)
        else:
            room = MAX_MSG - 19 - 4 - len(common) - 4 - 5 - len(nh.packed)
        chunk, used = [], 0
        end = len(nets) if group is None else min(len(nets), (i // group + 1) * group)
        while i < end and used + len(nets[i]) <= room:
            chunk.append(nets[i])
            used += len(nets[i])
            i += 1
        nlri = b"".join(chunk)
        if afi == "ipv4":
            body = struct.pack("!HH", 0, len(attrs)) + attrs + nlri
        else:
            mp = struct.pack("!HBB", AFI[afi], 1, len(nh.packed)) + nh.packed + b"\x00" + nlri
            attrs = common + attr(0x80, 14, mp)
            body = struct.pack("!HH", 0, len(attrs)) + attrs
        out.append(msg(UPDATE, body))
    return out, len(nets)


def end_of_rib(afi):
    if afi == "ipv4":
        return msg(UPDATE, struct.pack("!HH", 0, 0))
    a = attr(0x80, 15, struct.pack("!HB", AFI[afi], 1))
    return msg(UPDATE, struct.pack("!HH", 0, len(a)) + a)


class Speaker:
    def __init__(self, cfg, status_path):
        self.cfg = cfg
        self.status_path = status_path
        self.lock = threading.Lock()
        self.status = {"state": "Idle", "sent_prefixes": 0, "sent_updates": 0, "done": False,
                       "received_messages": 0, "received_updates": 0, "error": None}
        self.sock = None
        self.stop = threading.Event()
        self.refresh = cfg.get("refresh")
        if self.refresh is not None:
            self.status.update(received_refresh={"request": 0, "borr": 0, "eorr": 0},
                               refresh_answered=0, received_order="")

    def log(self, text):
        print("%s speaker: %s" % (time.strftime("%H:%M:%S"), text), flush=True)

    def save(self, **kw):
        self.status.update(kw)
        tmp = "%s.%d.tmp" % (self.status_path, threading.get_ident())
        with open(tmp, "w") as f:
            json.dump(self.status, f)
        os.replace(tmp, self.status_path)

    def fail(self, text, code=2):
        self.log(text)
        self.save(state="Failed", error=text)
        os._exit(code)

    def connect(self):
        peer = self.cfg["peer"]
        fam = socket.AF_INET6 if ":" in peer else socket.AF_INET
        deadline = time.monotonic() + float(self.cfg.get("connect_timeout", 60))
        while True:
            s = socket.socket(fam, socket.SOCK_STREAM)
            if self.cfg.get("rcvbuf"):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, int(self.cfg["rcvbuf"]))
            if self.cfg.get("local_address"):
                s.bind((self.cfg["local_address"], 0))
            s.settimeout(5)
            try:
                s.connect((peer, int(self.cfg.get("port", 179))))
                s.settimeout(None)
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return s
            except OSError as e:
                s.close()
                if time.monotonic() > deadline:
                    self.fail("cannot connect to %s: %s" % (peer, e))
                time.sleep(1)

    def send(self, data):
        with self.lock:
            self.sock.sendall(data)

    def recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    def recv_msg(self):
        hdr = self.recv_exact(19)
        if hdr is None:
            return None, None
        length, mtype = struct.unpack("!HB", hdr[16:19])
        if hdr[:16] != MARKER or length < 19 or length > 65535:
            self.fail("peer sent a malformed header %s" % hdr.hex())
        body = self.recv_exact(length - 19) if length > 19 else b""
        if body is None:
            return None, None
        return mtype, body

    def open_msg(self):
        my_as = int(self.cfg["local_as"])
        caps = b""
        families = sorted({a.get("afi", "ipv4") for a in self.cfg.get("announce", [])})
        for fam in self.cfg.get("families", families or ["ipv4"]):
            caps += struct.pack("!BBHBB", 1, 4, AFI[fam], 0, 1)  # RFC 4760 MP capability
        caps += struct.pack("!BBI", 65, 4, my_as)  # RFC 6793 four-octet AS
        if "graceful_restart" in self.cfg:
            fams = self.cfg.get("families", families or ["ipv4"])
            gr = struct.pack("!H", int(self.cfg["graceful_restart"]) & 0x0FFF)
            gr += b"".join(struct.pack("!HBB", AFI[f], 1, 0) for f in fams)
            caps += struct.pack("!BB", 64, len(gr)) + gr  # RFC 4724 3, no flags set
        if self.refresh is not None:
            caps += struct.pack("!BB", 2, 0) + struct.pack("!BB", 70, 0)  # RFC 2918, 7313
        opt = struct.pack("!BB", 2, len(caps)) + caps
        return msg(OPEN, struct.pack("!BHH4sB", 4, my_as if my_as < 65536 else AS_TRANS,
                                     int(self.cfg.get("hold_time", 90)),
                                     ipaddress.IPv4Address(self.cfg["router_id"]).packed,
                                     len(opt)) + opt)

    def reader(self):
        while not self.stop.is_set():
            try:
                mtype, body = self.recv_msg()
            except OSError as e:
                if self.stop.is_set():
                    return
                self.fail("read error: %s" % e, 3)
            if mtype is None:
                if self.stop.is_set():
                    return
                self.fail("peer closed the connection", 3)
            self.status["received_messages"] += 1
            if mtype == UPDATE:
                self.status["received_updates"] += 1
                self.note_order("U")
            elif mtype == ROUTE_REFRESH and self.refresh is not None and len(body) >= 4:
                self.refresh_received(body)
            elif mtype == NOTIFICATION:
                code, sub = (body[0], body[1]) if len(body) >= 2 else (0, 0)
                self.fail("peer sent NOTIFICATION %d/%d %s" % (code, sub, body[2:].hex()), 4)

    def note_order(self, c):
        if self.refresh is not None and len(self.status["received_order"]) < 200:
            self.status["received_order"] += c

    def refresh_received(self, body):
        afi, subtype, _safi = struct.unpack("!HBB", body[:4])  # RFC 7313 3
        name = {RR_REQUEST: "request", RR_BORR: "borr", RR_EORR: "eorr"}.get(subtype)
        if name is None:
            return
        self.status["received_refresh"][name] += 1
        self.note_order({RR_REQUEST: "R", RR_BORR: "B", RR_EORR: "E"}[subtype])
        if subtype != RR_REQUEST:
            return
        fam = {v: k for k, v in AFI.items()}.get(afi)
        omit = {ipaddress.ip_network(n) for n in self.refresh.get("omit", [])}
        msgs = [m for spec in self.cfg.get("announce", []) if spec.get("afi", "ipv4") == fam
                for m in pack_updates(spec, True, omit)[0]]
        borr, eorr = (msg(ROUTE_REFRESH, struct.pack("!HBB", afi, sub, 1))
                      for sub in (RR_BORR, RR_EORR))
        self.send(borr + b"".join(msgs) + eorr)
        self.status["refresh_answered"] += 1
        self.log("answered a ROUTE-REFRESH for AFI %d: BoRR, %d UPDATEs, EoRR" % (afi, len(msgs)))
        self.save()

    def keepalives(self, interval):
        while not self.stop.wait(interval):
            try:
                self.send(msg(KEEPALIVE))
            except OSError as e:
                self.log("cannot send a KEEPALIVE: %s" % e)
                self.save(send_error=str(e))
                return

    def run(self):
        as4 = True
        t0 = time.monotonic()
        packed = []
        total = 0
        for spec in self.cfg.get("announce", []):
            msgs, n = pack_updates(spec, as4)
            packed.append((spec.get("afi", "ipv4"), msgs, n))
            total += n
        self.log("packed %d prefixes into %d UPDATEs in %.1fs"
                 % (total, sum(len(m) for _, m, _ in packed), time.monotonic() - t0))
        self.save(state="Connect", total_prefixes=total)
        self.sock = self.connect()
        self.send(self.open_msg())
        self.save(state="OpenSent")
        mtype, body = self.recv_msg()
        if mtype != OPEN:
            self.fail("expected OPEN, got message type %s %s" % (mtype, (body or b"")[:8].hex()))
        peer_hold = struct.unpack("!H", body[3:5])[0]
        hold = min(peer_hold, int(self.cfg.get("hold_time", 90)))
        self.send(msg(KEEPALIVE))
        mtype, body = self.recv_msg()
        if mtype != KEEPALIVE:
            self.fail("expected KEEPALIVE, got message type %s" % mtype)
        self.save(state="Established", hold_time=hold)
        self.log("established with %s, hold time %d" % (self.cfg["peer"], hold))
        if self.cfg.get("stop_reading"):
            self.log("not reading from %s any more (stop_reading)" % self.cfg["peer"])
            self.save(reading=False)
        else:
            threading.Thread(target=self.reader, daemon=True).start()
        if hold:
            threading.Thread(target=self.keepalives, args=(max(1, hold // 3),),
                             daemon=True).start()
        t0 = time.monotonic()
        last_save = 0
        for afi, msgs, n in packed:
            per_prefix = n / max(1, len(msgs))
            for i in range(0, len(msgs), 32):
                batch = msgs[i:i + 32]
                self.send(b"".join(batch))
                self.status["sent_updates"] += len(batch)
                self.status["sent_prefixes"] = min(total, int(self.status["sent_prefixes"] +
                                                              per_prefix * len(batch)))
                if time.monotonic() - last_save > 0.5:
                    last_save = time.monotonic()
                    self.save()
        # One End-of-RIB per family, after every block of it: a restarting peer takes the
        # first one as the end of our table (RFC 4724 4.1).
        for afi in sorted({afi for afi, _, _ in packed}):
            self.send(end_of_rib(afi))
        elapsed = time.monotonic() - t0
        self.save(done=True, sent_prefixes=total, send_seconds=round(elapsed, 2))
        self.log("sent %d prefixes in %.1fs, End-of-RIB sent" % (total, elapsed))
        while not self.stop.wait(1):
            self.save()

    def shutdown(self, signum, frame):
        self.stop.set()
        try:
            # Only when no UPDATE is half written (the handler may interrupt a sendall).
            if self.sock is not None and self.lock.acquire(blocking=False):
                self.sock.sendall(msg(NOTIFICATION, bytes([6, 2])))
            if self.sock is not None:
                self.sock.close()
        except OSError:
            pass
        self.log("stopped by signal %d" % signum)
        self.save(state="Stopped")
        os._exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--status", required=True)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    sp = Speaker(cfg, args.status)
    signal.signal(signal.SIGTERM, sp.shutdown)
    signal.signal(signal.SIGINT, sp.shutdown)
    sp.run()


if __name__ == "__main__":
    main()
