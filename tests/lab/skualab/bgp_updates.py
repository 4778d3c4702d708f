# SPDX-License-Identifier: ISC
"""The UPDATEs one speaker sent another, from a capture (probes.Capture with a snap length
that keeps whole segments): which prefixes each one announced and withdrew.

Only what the tests look at is decoded: IPv4 NLRI and withdrawn routes, MP_REACH_NLRI and
MP_UNREACH_NLRI for IPv6 unicast, and LOCAL_PREF.  No ADD-PATH.  The parser stops at the end
of its input; a message cut short by the capture is reported, not guessed at.
"""

import ipaddress
import struct

MARKER = b"\xff" * 16


def tcp_stream(packets, src, dst):
    """Payload bytes src sent dst over TCP port 179, in sequence order, each byte once."""
    from scapy.layers.inet import TCP
    segs = {}
    for p in packets:
        if not p.haslayer(TCP) or p.src != src or p.dst != dst:
            continue
        data = bytes(p[TCP].payload)
        if data:
            segs.setdefault(p[TCP].seq, data)
    out, nxt = b"", None
    for seq in sorted(segs):
        data = segs[seq]
        if nxt is not None and seq < nxt:
            data = data[nxt - seq:]  # a retransmission overlapping what we have
        out += data
        nxt = seq + len(segs[seq])
    return out


def _prefixes(buf, afi_len):
    out, i = [], 0
    while i < len(buf):
        plen = buf[i]
        n = (plen + 7) // 8
        if i + 1 + n > len(buf):
            raise ValueError("NLRI cut short")
        addr = buf[i + 1:i + 1 + n].ljust(afi_len, b"\0")
        ip = ipaddress.IPv4Address(addr) if afi_len == 4 else ipaddress.IPv6Address(addr)
        out.append("%s/%d" % (ip, plen))
        i += 1 + n
    return out


def _update(body):
    u = {"announce": [], "withdraw": [], "local_pref": None}
    (wlen,) = struct.unpack_from("!H", body, 0)
    u["withdraw"] += _prefixes(body[2:2 + wlen], 4)
    (alen,) = struct.unpack_from("!H", body, 2 + wlen)
    attrs = body[4 + wlen:4 + wlen + alen]
    u["announce"] += _prefixes(body[4 + wlen + alen:], 4)
    i = 0
    while i < len(attrs):
        flags, code = attrs[i], attrs[i + 1]
        if flags & 0x10:
            (length,) = struct.unpack_from("!H", attrs, i + 2)
            i += 4
        else:
            length = attrs[i + 2]
            i += 3
        val = attrs[i:i + length]
        i += length
        if code == 5:
            (u["local_pref"],) = struct.unpack("!I", val)
        elif code == 14:  # MP_REACH_NLRI: AFI, SAFI, next hop, reserved, NLRI
            afi, safi, nhlen = struct.unpack_from("!HBB", val)
            if (afi, safi) == (2, 1):
                u["announce"] += _prefixes(val[4 + nhlen + 1:], 16)
        elif code == 15:
            afi, safi = struct.unpack_from("!HB", val)
            if (afi, safi) == (2, 1):
                u["withdraw"] += _prefixes(val[3:], 16)
    return u


def updates(stream):
    """[{"announce": [...], "withdraw": [...], "local_pref": N}] of every UPDATE in a BGP byte
    stream (other messages skipped)."""
    out, i = [], 0
    while i + 19 <= len(stream):
        if stream[i:i + 16] != MARKER:
            raise ValueError("no BGP marker at byte %d of the stream" % i)
        (length,) = struct.unpack_from("!H", stream, i + 16)
        if length < 19 or i + length > len(stream):
            raise ValueError("BGP message at byte %d cut short (%d bytes announced)"
                             % (i, length))
        if stream[i + 18] == 2:
            out.append(_update(stream[i + 19:i + length]))
        i += length
    return out


def messages(stream):
    """Every message of a BGP byte stream in order, as ("UPDATE", {announce, withdraw, ...}),
    ("ROUTE-REFRESH", "request" | "BoRR" | "EoRR"), or (type number, None) for the others."""
    out, i = [], 0
    while i + 19 <= len(stream):
        if stream[i:i + 16] != MARKER:
            raise ValueError("no BGP marker at byte %d of the stream" % i)
        (length,) = struct.unpack_from("!H", stream, i + 16)
        if length < 19 or i + length > len(stream):
            raise ValueError("BGP message at byte %d cut short (%d bytes announced)"
                             % (i, length))
        mtype, body = stream[i + 18], stream[i + 19:i + length]
        if mtype == 2:
            out.append(("UPDATE", _update(body)))
        elif mtype == 5 and len(body) >= 4:  # RFC 7313 3: AFI, subtype, SAFI
            out.append(("ROUTE-REFRESH", {0: "request", 1: "BoRR", 2: "EoRR"}.get(
                body[2], "subtype %d" % body[2])))
        else:
            out.append((mtype, None))
        i += length
    return out


def changes(ups):
    """The prefixes touched by a list of UPDATEs: {prefix: last action} where the action is
    the LOCAL_PREF announced or "withdrawn", and the number of times each was sent."""
    last, count = {}, {}
    for u in ups:
        for p in u["announce"]:
            last[p] = u["local_pref"]
            count[p] = count.get(p, 0) + 1
        for p in u["withdraw"]:
            last[p] = "withdrawn"
            count[p] = count.get(p, 0) + 1
    return last, count
