#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Write the generated seeds of tests/fuzz/corpus/ (the hand-made ones are files in the tree).

Usage: tests/fuzz/make_seeds.py [CORPUS_DIR]      (default: tests/fuzz/corpus next to this file)

Deterministic: the same files every run, so the seeds in the tree can be checked against this
script (`git status` after running it shows no change). Each seed is named after what it
exercises; the input format of each target is described at the top of tests/fuzz/fuzz_NAME.c.

Extended messages (RFC 8654, up to 65,535 bytes) get seeds well over 4,096 bytes: long AS
paths, thousands of communities, large MP_REACH/MP_UNREACH, one message of exactly 65,535
bytes; the fuzzers must run with -max_len=65535 to keep inputs that size.
"""
import ipaddress
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# ---- BGP encoding ------------------------------------------------------------------------

ORIGIN, AS_PATH, NEXT_HOP, MED, LOCAL_PREF = 1, 2, 3, 4, 5
COMMUNITIES, ORIGINATOR_ID, CLUSTER_LIST = 8, 9, 10
MP_REACH, MP_UNREACH, EXT_COMMUNITIES, AS4_PATH, LARGE_COMMUNITIES = 14, 15, 16, 17, 32
OPTIONAL, TRANSITIVE, EXTLEN = 0x80, 0x40, 0x10


def u8(v):
    return struct.pack("!B", v)


def u16(v):
    return struct.pack("!H", v)


def u32(v):
    return struct.pack("!I", v)


def attr(flags, code, value):
    """A path attribute; the extended-length flag when the value needs it."""
    if len(value) > 255 or flags & EXTLEN:
        return u8(flags | EXTLEN) + u8(code) + u16(len(value)) + value
    return u8(flags) + u8(code) + u8(len(value)) + value


def origin(v=0):
    return attr(TRANSITIVE, ORIGIN, u8(v))


def as_path(asns, as4=True, code=AS_PATH, seg_type=2):
    """AS_SEQUENCE segments of at most 255 ASes."""
    out = b""
    for i in range(0, len(asns), 255):
        seg = asns[i:i + 255]
        out += u8(seg_type) + u8(len(seg)) + b"".join(u32(a) if as4 else u16(a) for a in seg)
    flags = TRANSITIVE | (OPTIONAL if code == AS4_PATH else 0)
    return attr(flags, code, out)


def next_hop(addr):
    return attr(TRANSITIVE, NEXT_HOP, ipaddress.IPv4Address(addr).packed)


def med(v):
    return attr(OPTIONAL, MED, u32(v))


def local_pref(v):
    return attr(TRANSITIVE, LOCAL_PREF, u32(v))


def communities(values):
    return attr(OPTIONAL | TRANSITIVE, COMMUNITIES, b"".join(u32(v) for v in values))


def large_communities(triples):
    return attr(OPTIONAL | TRANSITIVE, LARGE_COMMUNITIES,
                b"".join(u32(a) + u32(b) + u32(c) for a, b, c in triples))


def ext_communities(values):
    return attr(OPTIONAL | TRANSITIVE, EXT_COMMUNITIES, b"".join(v for v in values))


def prefix(text):
    net = ipaddress.ip_network(text)
    nbytes = (net.prefixlen + 7) // 8
    return u8(net.prefixlen) + net.network_address.packed[:nbytes]


def prefixes(texts):
    return b"".join(prefix(t) for t in texts)


def v4_range(base, count, plen):
    """count consecutive /plen networks from base."""
    start = int(ipaddress.IPv4Address(base))
    step = 1 << (32 - plen)
    return ["%s/%d" % (ipaddress.IPv4Address((start + i * step) & 0xFFFFFFFF), plen)
            for i in range(count)]


def v6_range(base, count, plen):
    start = int(ipaddress.IPv6Address(base))
    step = 1 << (128 - plen)
    return ["%s/%d" % (ipaddress.IPv6Address(start + i * step), plen) for i in range(count)]


def mp_reach_v6(nlri, nh="2001:db8::2", ll=None):
    hop = ipaddress.IPv6Address(nh).packed + (ipaddress.IPv6Address(ll).packed if ll else b"")
    return attr(OPTIONAL, MP_REACH, u16(2) + u8(1) + u8(len(hop)) + hop + u8(0) + nlri)


def mp_unreach_v6(nlri):
    return attr(OPTIONAL, MP_UNREACH, u16(2) + u8(1) + nlri)


def update_body(withdrawn=b"", attrs=b"", nlri=b""):
    return u16(len(withdrawn)) + withdrawn + u16(len(attrs)) + attrs + nlri


def msg(mtype, body):
    return b"\xff" * 16 + u16(19 + len(body)) + u8(mtype) + body


def keepalive():
    return msg(4, b"")


def open_msg(asn, hold=180, rid="198.51.100.2", ext=True, as4=True, v6=True):
    caps = b"\x01\x04\x00\x01\x00\x01" + b"\x02\x00"
    if v6:
        caps += b"\x01\x04\x00\x02\x00\x01"
    if as4:
        caps += b"\x41\x04" + u32(asn)
    if ext:
        caps += b"\x06\x00"
    params = b"".join(u8(2) + u8(2 + c[1]) + c[:2 + c[1]] for c in split_caps(caps))
    my_as = 23456 if asn > 65535 else asn
    return msg(1, u8(4) + u16(my_as) + u16(hold) + ipaddress.IPv4Address(rid).packed +
               u8(len(params)) + params)


def split_caps(caps):
    out, i = [], 0
    while i < len(caps):
        n = caps[i + 1]
        out.append(caps[i:i + 2 + n])
        i += 2 + n
    return out


# ---- the targets' seeds ------------------------------------------------------------------

def ebgp_attrs(first_as=65002, nh="192.0.2.2"):
    return origin() + as_path([first_as, 64512]) + next_hop(nh)


def seeds_update():
    """fuzz_update: flags (bit 0 as4, bit 1 eBGP, bit 2 extended), then an UPDATE body."""
    ext = 1 | 2 | 4
    s = {}
    # 2,040 ASes in 8 segments: an 8 KiB AS_PATH.
    path = [65002] + [64512 + (i % 1000) for i in range(2039)]
    s["ext_long_aspath"] = u8(ext) + update_body(
        attrs=origin() + as_path(path) + next_hop("192.0.2.2"),
        nlri=prefixes(["198.51.100.0/24"]))
    # The same path on a 2-octet session with AS4_PATH (RFC 6793 merge of long paths).
    s["ext_long_as4path"] = u8(2 | 4) + update_body(
        attrs=origin() + as_path([65002] + [23456] * 1200, as4=False) +
        as_path([65002] + [4200000000 + i for i in range(1199)], code=AS4_PATH) +
        next_hop("192.0.2.2"),
        nlri=prefixes(["198.51.100.0/24"]))
    # 3,000 communities, 1,000 large communities, 500 extended communities: ~30 KiB.
    s["ext_many_communities"] = u8(ext) + update_body(
        attrs=ebgp_attrs() + med(10) +
        communities([(65002 << 16) | i for i in range(3000)]) +
        ext_communities([b"\x00\x02" + u16(65002) + u32(i) for i in range(500)]) +
        large_communities([(65002, i, i * 7) for i in range(1000)]),
        nlri=prefixes(["203.0.113.0/24"]))
    # Every kind of extended community skua names (RT and SoO of the three forms, link
    # bandwidth transitive and not), an unknown one, out of order and repeated.
    s["ext_communities_kinds"] = u8(1 | 2) + update_body(
        attrs=ebgp_attrs() + ext_communities([
            b"\x40\x04" + u16(65002) + struct.pack("!f", 12500000.0),
            b"\x00\x03" + u16(65002) + u32(1),
            b"\x01\x02" + ipaddress.IPv4Address("192.0.2.1").packed + u16(7),
            b"\x02\x02" + u32(4200000000) + u16(9),
            b"\x00\x04" + u16(65002) + struct.pack("!f", 3.2e9),
            b"\x06\x00" + b"\x00" * 6,
            b"\x00\x03" + u16(65002) + u32(1)]),
        nlri=prefixes(["198.51.100.0/24"]))
    # MP_REACH with 6,000 IPv6 /48s and a link-local next hop: ~42 KiB.
    s["ext_big_mp_reach_v6"] = u8(ext) + update_body(
        attrs=origin() + as_path([65002]) +
        mp_reach_v6(prefixes(v6_range("2001:db8::", 6000, 48)), ll="fe80::2"))
    # MP_UNREACH of 7,000 IPv6 /48s.
    s["ext_big_mp_unreach_v6"] = u8(ext) + update_body(
        attrs=mp_unreach_v6(prefixes(v6_range("2001:db8::", 7000, 48))))
    # 12,000 IPv4 /24s in the NLRI field and 2,000 withdrawn /32s.
    s["ext_many_v4_nlri"] = u8(ext) + update_body(
        withdrawn=prefixes(v4_range("203.0.113.0", 2000, 32)),
        attrs=ebgp_attrs(),
        nlri=prefixes(v4_range("10.0.0.0", 12000, 24)))
    # Exactly 65,535 bytes as a message: 65,516 bytes of body.
    attrs = ebgp_attrs()
    room = 65535 - 19 - 4 - len(attrs)
    n32 = next(n for n in range(room // 5, 0, -1) if (room - 5 * n) % 4 == 0)  # /32: 5 bytes
    nlri = prefixes(v4_range("10.0.0.0", n32, 32))
    nlri += prefixes(v4_range("172.16.0.0", (room - len(nlri)) // 4, 24))  # /24: 4 bytes
    body = update_body(attrs=attrs, nlri=nlri)
    assert len(body) == 65516, len(body)
    s["ext_max_65535"] = u8(ext) + body
    # Over 4,096 bytes without the capability: refused.
    s["ext_not_negotiated"] = u8(1 | 2) + update_body(
        attrs=ebgp_attrs(), nlri=prefixes(v4_range("10.0.0.0", 1500, 24)))
    # iBGP with route reflection attributes, long cluster list, extended-length small attrs.
    s["ext_ibgp_rr_long"] = u8(1 | 4) + update_body(
        attrs=attr(TRANSITIVE | EXTLEN, ORIGIN, u8(0)) + as_path([]) + next_hop("192.0.2.9") +
        local_pref(200) + attr(OPTIONAL, ORIGINATOR_ID, ipaddress.IPv4Address("192.0.2.9").packed) +
        attr(OPTIONAL, CLUSTER_LIST, b"".join(u32(0xc0000200 + i) for i in range(1500))),
        nlri=prefixes(["198.51.100.0/25"]))
    return s


def establish_flags(established=True, ext=True, ibgp=False, ipv6=False):
    return u8((1 if established else 0) | (2 if ext else 0) | (4 if ibgp else 0) |
              (8 if ipv6 else 0))


def seeds_framing():
    """fuzz_framing: flags, chunk count and sizes (1 + b*b each), then the byte stream."""
    s = {}
    # 6 KiB: 1,000 prefixes and 500 communities (the RIB looks for BLACKHOLE among the
    # communities once per prefix: many of both make an input slow).
    big = msg(2, update_body(attrs=ebgp_attrs() + communities(list(range(500))),
                             nlri=prefixes(v4_range("10.0.0.0", 1000, 24))))
    small = msg(2, update_body(attrs=ebgp_attrs(), nlri=prefixes(["198.51.100.0/24"])))
    wd = msg(2, update_body(withdrawn=prefixes(["198.51.100.0/24"])))
    rr = msg(5, u16(1) + u8(0) + u8(1))
    # Established with extended messages: a 24 KiB UPDATE split at odd places, then small ones.
    s["ext_split"] = establish_flags() + u8(3) + bytes([2, 40, 200]) + \
        keepalive() + big + small + keepalive() + rr + wd
    # Many messages in one write (the per-turn budget of 64 messages defers the rest).
    s["many_small"] = establish_flags() + u8(0) + (small + wd) * 80 + keepalive()
    # Byte by byte.
    s["byte_by_byte"] = establish_flags() + u8(1) + u8(0) + small + keepalive() + wd
    # Extended message without the capability: a header error (length).
    s["ext_not_negotiated"] = establish_flags(ext=False) + u8(2) + bytes([30, 60]) + big
    # The whole handshake in the stream, then an UPDATE over 4 KiB.
    s["handshake_in_stream"] = establish_flags(established=False) + u8(2) + bytes([3, 90]) + \
        open_msg(65002) + keepalive() + big + keepalive()
    # A bad marker, a length under 19, an unknown type.
    s["bad_marker"] = establish_flags() + u8(0) + keepalive() + b"\xfe" + keepalive()[1:]
    s["short_length"] = establish_flags() + u8(0) + b"\xff" * 16 + u16(18) + u8(4)
    s["bad_type"] = establish_flags() + u8(0) + msg(9, b"abc")
    s["keepalive_with_body"] = establish_flags() + u8(0) + msg(4, b"\x00")
    # IPv6 neighbor, iBGP, exactly one maximum-size message.
    attrs = origin() + as_path([]) + local_pref(100)
    # The input holds 3 bytes before the message: a message of at most 65,532 bytes.
    count = (65532 - 19 - 4 - len(attrs) - 25) // 7
    body = update_body(attrs=attrs + mp_reach_v6(prefixes(v6_range("2001:db8::", count, 48))))
    s["ipv6_max_message"] = establish_flags(ibgp=True, ipv6=True) + u8(1) + u8(255) + \
        msg(2, body)
    return s


# fuzz_fsm opcodes (see the top of fuzz_fsm.c).
OP_CONNECT, OP_OPEN, OP_KEEPALIVE, OP_UPDATE, OP_NOTIFY, OP_RR, OP_ANY, OP_RAW = range(8)
OP_HOLD, OP_KA_TIMER, OP_RETRY, OP_IDLE, OP_CLOSE, OP_ADMIN, OP_CONF, OP_RUN = range(8, 16)
SECOND = 0x10


def fsm_open(conn=0, asn=65002, hold=180, rid=0xc6336402, caps=0x1f, peer_as=True):
    return u8(OP_OPEN | conn | (0x20 if peer_as else 0)) + u32(asn) + u16(hold) + u32(rid) + \
        u8(caps)


def fsm_update(body, conn=0):
    return u8(OP_UPDATE | conn) + u16(len(body)) + body


def seeds_fsm():
    """fuzz_fsm: a configuration byte, then operations."""
    s = {}
    upd = update_body(attrs=ebgp_attrs(), nlri=prefixes(["198.51.100.0/24", "203.0.113.0/24"]))
    up = fsm_open() + u8(OP_KEEPALIVE)
    s["establish_update_timers"] = u8(0) + up + fsm_update(upd) + u8(OP_KA_TIMER) + \
        u8(OP_RR) + u16(1) + u8(0) + u8(0) + u8(OP_HOLD) + u8(OP_IDLE) + u8(OP_CONNECT) + \
        fsm_open() + u8(OP_KEEPALIVE)
    s["collision"] = u8(0) + fsm_open() + u8(OP_CONNECT | SECOND) + \
        fsm_open(SECOND) + u8(OP_KEEPALIVE) + u8(OP_KEEPALIVE | SECOND) + u8(OP_RUN)
    s["collision_established"] = u8(1) + up + u8(OP_CONNECT | SECOND) + \
        fsm_open(SECOND, asn=65001) + u8(OP_KEEPALIVE | SECOND)
    s["notify_each_state"] = u8(0) + u8(OP_NOTIFY) + b"\x06\x02\x00" + u8(OP_IDLE) + \
        u8(OP_CONNECT) + fsm_open() + u8(OP_NOTIFY) + b"\x02\x01\x00" + u8(OP_IDLE) + \
        u8(OP_CONNECT) + up + u8(OP_NOTIFY) + b"\x06\x02\x05" + b"\x04bye!"
    s["bad_open"] = u8(0) + fsm_open(hold=2) + u8(OP_IDLE) + u8(OP_CONNECT) + \
        fsm_open(peer_as=False, asn=65099) + u8(OP_IDLE) + u8(OP_CONNECT) + \
        fsm_open(caps=0)
    s["admin"] = u8(0) + up + u8(OP_ADMIN | 0x20) + u8(OP_IDLE) + u8(OP_CONNECT) + up + \
        u8(OP_ADMIN | 0x40) + u8(OP_CONNECT) + u8(OP_ADMIN | 0x60) + u8(OP_CONNECT) + up + \
        u8(OP_ADMIN) + u8(OP_ADMIN | 0x80)
    s["config_changes"] = u8(4 | (3 << 5)) + up + u8(OP_CONF) + u8(OP_CONF | 0x20) + \
        u8(OP_KA_TIMER) + u8(OP_CONF | 0x60) + u8(OP_CONF | 0x80) + u8(OP_CONNECT) + up + \
        u8(OP_CONF | 0xa0)
    s["ipv6_ibgp_localas"] = u8(1 | 8 | 16) + fsm_open(asn=65001) + u8(OP_KEEPALIVE) + \
        fsm_update(update_body(attrs=origin() + as_path([]) + local_pref(100) +
                               mp_reach_v6(prefixes(["2001:db8:1::/48"])))) + \
        u8(OP_RR) + u16(2) + u8(1) + u8(0)
    s["remote_close"] = u8(3) + up + u8(OP_CLOSE) + u8(OP_IDLE) + u8(OP_CONNECT) + \
        fsm_open(asn=4200000002) + u8(OP_RETRY) + u8(OP_CLOSE)
    s["raw_and_any"] = u8(0) + u8(OP_RAW) + u16(19) + keepalive() + u8(OP_ANY) + u8(7) + \
        u16(2) + b"xy" + u8(OP_CONNECT) + up + u8(OP_ANY) + u8(5) + u16(4) + b"\x00\x01\x01\x01"
    return s


def rib_record(peer, body, flap=False, refresh=False):
    return u8(peer | (0x40 if flap else 0) | (0x80 if refresh else 0)) + u16(len(body)) + body


def seeds_rib():
    """fuzz_rib: 3 option bytes, then records (neighbor, length, UPDATE body)."""
    s = {}
    rich = origin() + as_path([65002, 64512, 65535, 4200000000]) + next_hop("192.0.2.2") + \
        med(0) + communities([65002 << 16 | 100, 65002 << 16 | 200, 0xFFFFFF01]) + \
        large_communities([(65002, 1, 1), (65002, 7, 7)]) + \
        ext_communities([b"\x00\x02" + u16(65002) + u32(7)])
    v4 = prefixes(["198.51.100.0/24", "198.51.100.128/25", "203.0.113.0/24", "10.1.0.0/16"])
    v6 = mp_reach_v6(prefixes(["2001:db8:1::/48", "2001:db8:2::/64"]), nh="2001:db8::2",
                     ll="fe80::2")
    ibgp = origin(2) + as_path([64999]) + next_hop("192.0.2.10") + local_pref(150) + \
        attr(OPTIONAL, ORIGINATOR_ID, ipaddress.IPv4Address("192.0.2.77").packed) + \
        attr(OPTIONAL, CLUSTER_LIST, u32(0xc0000201))
    e2 = origin(1) + as_path([65003, 64512]) + next_hop("192.0.2.6") + med(5)
    announce = rib_record(0, update_body(attrs=rich, nlri=v4)) + \
        rib_record(0, update_body(attrs=origin() + as_path([65002]) + v6)) + \
        rib_record(1, update_body(attrs=e2, nlri=v4)) + \
        rib_record(2, update_body(attrs=ibgp, nlri=v4)) + \
        rib_record(3, update_body(attrs=origin() + as_path([]) + local_pref(100) +
                                  mp_reach_v6(prefixes(["2001:db8:1::/48"]), nh="2001:db8::4")))
    withdraw = rib_record(0, update_body(withdrawn=prefixes(["198.51.100.0/24"]))) + \
        rib_record(0, update_body(attrs=mp_unreach_v6(prefixes(["2001:db8:1::/48"]))))
    s["plain"] = bytes([0, 0, 0]) + announce + withdraw
    s["policy_in_out"] = bytes([1 | (1 << 2) | 0x10 | 0x20, 0x20, 0x10 | 0x40]) + announce + \
        withdraw
    s["policy_replace"] = bytes([2 | (2 << 2), 0, 0x20 | 0x80]) + announce
    s["missing_maps"] = bytes([3 | (3 << 2), 0, 0x30 | 0xc0]) + announce
    s["rr_nhs_rpa"] = bytes([0x40 | 0x80, 1 | (3 << 1) | 0x08, 0x04 | 0x08]) + announce + \
        rib_record(3, b"", flap=True) + withdraw
    s["as2_allowas_maxpfx"] = bytes([0, 0x08 | 0x10 | 0x80, 0x01 | 0x02]) + \
        rib_record(0, update_body(attrs=origin() + as_path([65002, 65001], as4=False) +
                                  next_hop("192.0.2.2"), nlri=v4)) + \
        rib_record(0, b"", refresh=True)
    s["send_comm_off_multipath"] = bytes([0, 0x40, 0x04]) + announce + \
        rib_record(1, update_body(attrs=origin() + as_path([65003, 64512, 65535, 4200000000]) +
                                  next_hop("192.0.2.6") + med(0), nlri=v4))
    # Extended messages in and out (towards 192.0.2.6): 1,200 prefixes, and long attributes
    # on two (large tables only slow the fuzzer down: every input prints them).
    s["ext_long_attributes"] = bytes([0, 0, 0]) + rib_record(0, update_body(
        attrs=ebgp_attrs(), nlri=prefixes(v4_range("10.0.0.0", 1200, 24)))) + \
        rib_record(0, update_body(
            attrs=origin() + as_path([65002] + [64512] * 500) + next_hop("192.0.2.2") +
            communities(list(range(2000))), nlri=prefixes(v4_range("10.0.0.0", 2, 24))))
    return s


CONF = os.path.join(TOP, "tests", "unit", "conf")


def conf_files(ext):
    return sorted(f for f in os.listdir(CONF) if f.endswith(ext))


def read_conf(name):
    with open(os.path.join(CONF, name), "rb") as f:
        return f.read()


def seeds_config():
    """fuzz_config: a configuration text, optionally NUL and a second text reloaded after it.
    Every sample of tests/unit/conf (good and bad), and pairs of good ones as reload diffs."""
    s = {}
    for name in conf_files(".conf"):
        s[name[:-5]] = read_conf(name)
    s["reload-a-then-b"] = read_conf("reload-a.conf") + b"\0" + read_conf("reload-b.conf")
    s["reload-b-then-a"] = read_conf("reload-b.conf") + b"\0" + read_conf("reload-a.conf")
    s["reload-full-then-minimal"] = read_conf("good-full.conf") + b"\0" + \
        read_conf("good-minimal.conf")
    s["reload-peer-group-then-options"] = read_conf("good-peer-group.conf") + b"\0" + \
        read_conf("good-neighbor-options.conf")
    s["reload-route-map-then-full"] = read_conf("good-route-map.conf") + b"\0" + \
        read_conf("good-full.conf")
    return s


def seeds_json():
    """fuzz_json: a JSON configuration. Every JSON sample of tests/unit/conf."""
    return {name[:-5]: read_conf(name) for name in conf_files(".json")}


SHOWS = [
    "show ip bgp summary json", "show bgp summary failed", "show bgp ipv6 unicast summary json",
    "show bgp neighbors json", "show ip bgp neighbors 192.0.2.2", "show bgp peer-group json",
    "show ip bgp json", "show ip bgp 198.51.100.0/24 json", "show bgp ipv6 unicast json",
    "show bgp gtsm json", "show bgp nexthop json", "show bgp fib json", "show ip route bgp json",
    "show bgp as-path-access-list json", "show bgp community-list", "show route-map",
    "show ip prefix-list json", "show ipv6 prefix-list detail", "show running-config",
    "show running-config json", "show configuration running json",
    "show configuration commits json", "show memory json", "show logging json",
    "show debugging bgp", "show version", "show startup-config",
]


def vty_config(conf_name):
    """A sample of tests/unit/conf typed in configuration mode, then looked at."""
    lines = [l for l in read_conf(conf_name).decode().splitlines() if l.strip() and
             not l.startswith("!")]
    return "\n".join(["xconfigure terminal"] + ["x" + l for l in lines] + ["xend"] +
                      ["x" + c for c in SHOWS]).encode() + b"\n"


def seeds_vty():
    """fuzz_vty: request lines (kind byte x ? t p, then the line)."""
    s = {}
    s["shows_empty"] = "\n".join("x" + c for c in SHOWS).encode()
    for name in ["good-full.conf", "good-route-map.conf", "good-peer-group.conf",
                 "good-ipv6.conf", "good-community-list.conf", "good-aspath-list.conf",
                 "good-neighbor-options.conf", "good-fib.conf"]:
        s["config_" + name[5:-5]] = vty_config(name)
    s["describe_complete"] = "\n".join([
        "?", "?show ", "?show ip bgp ", "tsh", "tshow ip b", "tshow bgp n", "p",
        "xconfigure terminal", "p", "?", "?router ", "trou", "xrouter bgp 65001", "p",
        "xneighbor 192.0.2.2 remote-as 65002", "xneighbor 2001:db8::2 remote-as internal",
        "?neighbor ", "tneighbor 1", "tneighbor 192.0.2.2 r", "?neighbor 192.0.2.2 ",
        "?address-family ", "xaddress-family ipv4 unicast", "p",
        "?neighbor 192.0.2.2 route-map ", "tneighbor 192.0.2.2 route-map RM ",
        "xneighbor 192.0.2.2 route-map RM in", "xexit-address-family", "xexit",
        "?route-map RM ", "xroute-map RM permit 10", "p", "?set ", "?match ",
        "tset comm", "xset community 65001:1 additive", "xexit", "?ip prefix-list ",
        "xip prefix-list PL seq 5 permit 198.51.100.0/24 le 32", "xend", "p",
        "?clear bgp ", "xshow running-config", "?debug bgp ", "tdebug bgp upd",
        "xbogus command", "xshow ip bgp 999.1.1.1", "xshow ip bgp neighbors",
        "xrouter bgp 65001", "xconfigure terminal", "xrouter bgp 65002", "xexit", "xexit",
        "xexit",
    ]).encode()
    s["sessions_transactions"] = "\n".join([
        "xconfigure private", "xhostname fuzz", "xcommit check", "xshow configuration "
        "candidate changes", "xcommit", "xend", "xconfigure exclusive", "xrouter bgp 65001",
        "xbgp router-id 192.0.2.1", "xneighbor 192.0.2.2 remote-as 65002", "xcommit",
        "xdiscard", "xend", "xshow configuration commits json", "xrollback configuration 1",
        "xconfigure terminal", "xno router bgp 65001", "xdo show running-config", "xend",
        "xclear bgp *", "xclear ip bgp 192.0.2.2 soft in",
    ]).encode()
    s["files_and_logs"] = "\n".join([
        "xconfigure terminal", "xlog file /var/log/skua-fuzz.log debugging", "xlog syslog",
        "xlog stdout informational", "xhostname r1", "xend", "xwrite memory", "xwrite file",
        "xcopy running-config startup-config", "xshow startup-config",
        "xclear configuration reload", "xshow logging json", "xwrite terminal",
        "xdebug bgp neighbor-events", "xdebug bgp updates in", "xdebug bgp keepalives",
        "xshow debugging", "xterminal length 10", "xterminal no length", "xdisable", "p",
        "xenable", "xquit", "p",
    ]).encode()
    return s


# ---- RTR (RFC 6810, RFC 8210, draft-ietf-sidrops-8210bis-10) --------------------------------


def rtr(version, ptype, field, body=b""):
    return u8(version) + u8(ptype) + u16(field) + u32(8 + len(body)) + body


def rtr_v4(version, pfx, maxlen, asn, announce=True):
    net = ipaddress.ip_network(pfx)
    return rtr(version, 4, 0, u8(int(announce)) + u8(net.prefixlen) + u8(maxlen) + u8(0)
               + net.network_address.packed + u32(asn))


def rtr_v6(version, pfx, maxlen, asn, announce=True):
    net = ipaddress.ip_network(pfx)
    return rtr(version, 6, 0, u8(int(announce)) + u8(net.prefixlen) + u8(maxlen) + u8(0)
               + net.network_address.packed + u32(asn))


def rtr_eod(version, session, serial):
    timers = u32(3600) + u32(600) + u32(7200) if version else b""
    return rtr(version, 7, session, u32(serial) + timers)


def rtr_aspa(customer, providers, ipv6=False, announce=True):
    return rtr(2, 11, 0, u8(int(announce)) + u8(int(ipv6)) + u16(len(providers)) + u32(customer)
               + b"".join(u32(p) for p in providers))


def seeds_rtr_pdu():
    """Streams as caches send them: StayRTR 0.5.1's answers at each version, serial updates,
    a Cache Reset, Error Reports, Router Keys, and the malformed PDUs of check_rtr."""
    out = {}
    for v in (0, 1, 2):
        s = rtr(v, 3, 7) + rtr_v6(v, "2001:db8::/32", 48, 64501) + rtr_v4(v, "198.51.100.0/24", 24, 64500)
        if v == 2:
            s += rtr_aspa(64500, [64501, 64502]) + rtr_aspa(64500, [64503], ipv6=True)
            s += rtr_aspa(64510, [64511], ipv6=True)
        out["stayrtr-v%d" % v] = s + rtr_eod(v, 7, 0)
    base = out["stayrtr-v2"]
    out["serial-update"] = (base + rtr(2, 0, 7, u32(1)) + rtr(2, 3, 7)
                            + rtr_v4(2, "198.51.100.0/24", 24, 64500, announce=False)
                            + rtr_v4(2, "203.0.113.0/25", 25, 64502)
                            + rtr_aspa(64500, [], ipv6=True, announce=False)
                            + rtr_aspa(64500, [64504, 64501]) + rtr_eod(2, 7, 1))
    # What StayRTR 0.5.1 sent for a changed ASPA: the new record, then the old one withdrawn.
    out["stayrtr-aspa-delta"] = (base + rtr(2, 0, 7, u32(1)) + rtr(2, 3, 7)
                                 + rtr_v4(2, "203.0.113.0/24", 24, 64502)
                                 + rtr_aspa(64500, [64501, 64509])
                                 + rtr_v6(2, "2001:db8::/32", 48, 64501, announce=False)
                                 + rtr_aspa(64500, [64501, 64502], announce=False)
                                 + rtr_aspa(64500, [64503], ipv6=True, announce=False)
                                 + rtr_eod(2, 7, 1))
    out["cache-reset"] = base + rtr(2, 8, 0) + rtr(2, 3, 7) + rtr_v4(2, "192.0.2.0/24", 32, 64496) + rtr_eod(2, 7, 2)
    out["error-report"] = rtr(2, 10, 4, u32(8) + rtr(3, 2, 0) + u32(21) + b"Bad protocol version\0")
    out["router-key"] = (rtr(1, 3, 1) + rtr(1, 9, 0x100, bytes(range(20)) + u32(64500) + b"\x30\x59" + bytes(89))
                         + rtr_eod(1, 1, 5))
    out["duplicate"] = base + rtr(2, 3, 7) + rtr_v4(2, "198.51.100.0/24", 24, 64500) + rtr_eod(2, 7, 1)
    out["withdraw-unknown"] = base + rtr(2, 3, 7) + rtr_aspa(65000, [], announce=False) + rtr_eod(2, 7, 1)
    out["aspa-self"] = rtr(2, 3, 7) + rtr_aspa(64500, [64500]) + rtr_eod(2, 7, 1)
    out["aspa-count"] = rtr(2, 3, 7) + rtr(2, 11, 0, u8(1) + u8(0) + u16(2) + u32(64500) + u32(64501)) + rtr_eod(2, 7, 1)
    out["short-length"] = rtr(2, 3, 7) + rtr_v4(2, "192.0.2.0/24", 24, 1)[:7] + b"\x04"
    out["aspa-large"] = rtr(2, 3, 7) + rtr_aspa(64500, list(range(65536, 65536 + 4000))) + rtr_eod(2, 7, 1)
    return out


def seeds_rtr_session():
    """The same streams with a chunk-size byte: whole reads, and byte by byte for the short."""
    out = {}
    for name, data in seeds_rtr_pdu().items():
        out[name] = b"\xff" + data
        if len(data) < 400:
            out[name + "-bytewise"] = b"\x00" + data
    return out


TARGETS = {
    "update": seeds_update,
    "framing": seeds_framing,
    "fsm": seeds_fsm,
    "rib": seeds_rib,
    "config": seeds_config,
    "json": seeds_json,
    "vty": seeds_vty,
    "rtr_pdu": seeds_rtr_pdu,
    "rtr_session": seeds_rtr_session,
}


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    for target, gen in TARGETS.items():
        d = os.path.join(corpus, target)
        os.makedirs(d, exist_ok=True)
        for name, data in sorted(gen().items()):
            assert len(data) <= 65535, (target, name, len(data))  # -max_len=65535
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
            print("%s/%s: %d bytes" % (target, name, len(data)))


if __name__ == "__main__":
    main()
