# SPDX-License-Identifier: ISC
"""The RPKI pieces of the lab library on their own (no root, no daemons): RTR PDUs built and
parsed, the fake cache's recipes and TCP-MD5 structure, rtrclient's and FRR's outputs parsed,
UPDATEs decoded, StayRTR's file, and the stand-in's Adj-RIB-In lines."""

import ipaddress
import struct

import pytest

from skualab import bgp_updates, fake_rtr, rpki_show, rtrclient, stayrtr
from skualab import rtr_pdu as P
from skualab.daemons import StandinBgpd


def test_pdus_round_trip():
    v4 = P.prefix(1, "198.51.100.0/24", 26, 64500)
    v6 = P.prefix(2, "2001:db8:100::/40", 48, 64501, announce=False)
    eod = P.end_of_data(1, 7, 42, 5, 6, 600)
    err = P.error_report(1, P.DUPLICATE_ANNOUNCEMENT, v4, "again")
    pdus, rest = P.parse_all(v4 + v6 + eod + err + P.cache_reset(0))
    assert rest == b""
    assert [p["type"] for p in pdus] == ["ipv4-prefix", "ipv6-prefix", "end-of-data",
                                         "error-report", "cache-reset"]
    assert (pdus[0]["prefix"], pdus[0]["max_length"], pdus[0]["asn"], pdus[0]["announce"]) == (
        "198.51.100.0/24", 26, 64500, True)
    assert (pdus[1]["prefix"], pdus[1]["announce"], pdus[1]["version"]) == (
        "2001:db8:100::/40", False, 2)
    assert (pdus[2]["serial"], pdus[2]["refresh"], pdus[2]["retry"], pdus[2]["expire"]) == (
        42, 5, 6, 600)
    assert (pdus[3]["code"], pdus[3]["encapsulated"], pdus[3]["text"]) == (7, v4.hex(), "again")
    assert len(P.end_of_data(0, 7, 1)) == 12 and len(v4) == 20 and len(v6) == 32


def test_parse_never_reads_past_its_input():
    v4 = P.prefix(1, "198.51.100.0/24", 24, 64500)
    for cut in range(len(v4)):
        assert P.parse(v4[:cut]) == (None, 0)
    bad = bytearray(v4)
    bad[4:8] = struct.pack("!I", 4)
    pdu, used = P.parse(bytes(bad))
    assert pdu["type"] == "corrupt" and used == len(bad)
    short_aspa = P.header(2, P.ASPA, 0, 10) + b"\x01\x03"
    assert "malformed" in P.parse(short_aspa)[0]


def test_aspa_pdu_as_stayrtr_writes_it():
    pdu = P.aspa(2, 64500, [65010, 65020])
    assert len(pdu) == 16 + 8
    p = P.parse(pdu)[0]
    assert (p["customer"], p["providers"], p["afi_flags"]) == (64500, [65010, 65020], 3)


def test_fake_cache_recipes():
    v4 = ["prefix", "198.51.100.0/24", 24, 64500, True]
    assert fake_rtr.build(v4, 2)[0] == 2
    assert fake_rtr.build(["truncate", v4, 12], 1) == P.prefix(1, "198.51.100.0/24", 24,
                                                                64500)[:12]
    assert P.HEADER.unpack_from(fake_rtr.build(["length", v4, 9], 1))[3] == 9
    padded = fake_rtr.build(["pad", v4, 4], 1)
    assert len(padded) == 24 and P.HEADER.unpack_from(padded)[3] == 24
    assert fake_rtr.build(["version", v4, 0], 1)[0] == 0
    assert fake_rtr.build(["type", v4, 99], 1)[1] == 99
    assert fake_rtr.build(["header", 99, 0, 8], 1) == P.header(1, 99, 0, 8)
    with pytest.raises(ValueError):
        fake_rtr.build(["nonsense", v4], 1)


def test_md5sig_is_linux_struct_tcp_md5sig():
    sig = fake_rtr.md5sig("192.0.2.3", "lab-md5-key")
    assert len(sig) == 128 + 8 + 80
    assert sig[4:8] == ipaddress.IPv4Address("192.0.2.3").packed
    assert struct.unpack_from("=H", sig, 130)[0] == len("lab-md5-key")
    assert sig[136:136 + 11] == b"lab-md5-key"
    sig6 = fake_rtr.md5sig("2001:db8::3", "k")
    assert sig6[8:24] == ipaddress.IPv6Address("2001:db8::3").packed
    with pytest.raises(ValueError):
        fake_rtr.md5sig("192.0.2.3", "x" * 81)


def test_rtrclient_export_parsed():
    text = "Sync done\n198.51.100.0/24-24 AS 64500\n2001:db8:1::/48-48 AS 64500\n\n"
    assert rtrclient.parse_export(text) == [("198.51.100.0/24", 24, 64500),
                                            ("2001:db8:1::/48", 48, 64500)]
    with pytest.raises(ValueError):
        rtrclient.parse_export("198.51.100.0/24-24 AS 64500\n")


FRR_TABLE = """\
RPKI validation codes: V valid, I invalid, N Not found

   Network          Next Hop            Metric LocPrf Weight Path
N*  192.0.2.128/25   192.0.2.11                     10      0 65010 64504 i
N*>                  192.0.2.12                     90      0 65020 64504 i
V*> 198.51.100.128/25
                    192.0.2.12                    200      0 65020 64500 i
I*> 2001:db8:100::/49
                    2001:db8:0:1::11
                                                   10      0 65010 64500 i

Displayed  3 routes and 4 total paths
"""


def test_validation_codes_parsed():
    assert rpki_show.parse_codes(FRR_TABLE) == {
        "192.0.2.128/25": ["notfound", "notfound"], "198.51.100.128/25": ["valid"],
        "2001:db8:100::/49": ["invalid"]}


def bgp_message(kind, body):
    return b"\xff" * 16 + struct.pack("!HB", 19 + len(body), kind) + body


def test_updates_decoded():
    withdrawn = bytes([24, 203, 0, 113])
    attrs = (bytes([0x40, 1, 1, 0]) + bytes([0x40, 5, 4]) + struct.pack("!I", 90))
    nlri = bytes([25, 198, 51, 100, 128])
    u4 = struct.pack("!H", len(withdrawn)) + withdrawn + struct.pack("!H", len(attrs)) + attrs
    u4 += nlri
    nh = ipaddress.IPv6Address("2001:db8:0:1::11").packed
    mp = struct.pack("!HBB", 2, 1, 16) + nh + b"\0" + bytes([48]) + bytes.fromhex("20010db80300")
    unreach = struct.pack("!HB", 2, 1) + bytes([48]) + bytes.fromhex("20010db80200")
    a6 = (bytes([0x80, 14, len(mp)]) + mp + bytes([0x80, 15, len(unreach)]) + unreach)
    u6 = struct.pack("!H", 0) + struct.pack("!H", len(a6)) + a6
    stream = bgp_message(4, b"") + bgp_message(2, u4) + bgp_message(2, u6)
    ups = bgp_updates.updates(stream)
    assert ups[0] == {"announce": ["198.51.100.128/25"], "withdraw": ["203.0.113.0/24"],
                      "local_pref": 90}
    assert ups[1]["announce"] == ["2001:db8:300::/48"]
    assert ups[1]["withdraw"] == ["2001:db8:200::/48"]
    last, count = bgp_updates.changes(ups)
    assert last["203.0.113.0/24"] == "withdrawn" and last["198.51.100.128/25"] == 90
    with pytest.raises(ValueError):
        bgp_updates.updates(stream[:-3])


def test_stayrtr_file_uses_its_field_names():
    doc = stayrtr.vrp_file([("198.51.100.0/24", 24, 64500)], [(64500, [65010], "both")])
    assert doc["roas"] == [{"prefix": "198.51.100.0/24", "maxLength": 24, "asn": 64500,
                            "ta": "lab"}]
    pa = doc["provider_authorizations"]
    assert pa["ipv4"] == pa["ipv6"] == [{"customer_asid": 64500, "providers": [65010]}]


def test_standin_keeps_adj_rib_in_where_skua_does():
    conf = ("route-map R permit 10\n match rpki invalid\nexit\n"
            "route-map A deny 5\n match aspa invalid\nexit\n"
            "route-map P permit 10\n set local-preference 5\nexit\n"
            "router bgp 65000\n address-family ipv4 unicast\n"
            "  neighbor 192.0.2.1 route-map R in\n  neighbor 192.0.2.2 route-map P in\n"
            "  neighbor 192.0.2.3 route-map A in\n  neighbor 192.0.2.4 route-map R out\n"
            " exit-address-family\nexit\n")
    out = StandinBgpd.keep_adj_rib_in_for_rpki(conf)
    soft = [line.split()[1] for line in out.splitlines() if "soft-reconfiguration" in line]
    assert soft == ["192.0.2.1", "192.0.2.3"]
