#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The extended community scenario's data: routes, policy, sinks, the designed outcome,
configs.

One ExaBGP router (inj, AS 65010) announces the same routes, with extended communities
written as raw octets, to skua (dut) and to FRR 8.4 (ref), both AS 65000 and not peering with
each other.  Both run the same inbound route-map RM-IN (extended community lists standard,
expanded, numbered, missing; set extcommunity rt / soo / bandwidth [non-transitive] / none)
and advertise to two FRR sinks of their own on a LAN addressed the same on both sides:

    eb  AS 65101  .66  eBGP: transitive extended communities only (RFC 4360 6)
    ib  AS 65000  .70  iBGP: all of them

Run this file to regenerate the configs after editing; a test checks that the files on disk
are what it renders.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# tests/lab, also when this file is run by hand; the twins' addressing is skualab.twin's.
from skualab import twin  # noqa: E402
from skualab.twin import INJ_ADDR, INJ_AS, LOCAL_AS, SPEAKERS  # noqa: E402
SINKS = {"eb": (65101, "192.0.2.66"), "ib": (65000, "192.0.2.70")}


# --- extended communities as raw octets (ExaBGP's 0x form) -------------------------------

def rt(asn, n):
    return "0x0002%04x%08x" % (asn, n)


def soo(asn, n):
    return "0x0003%04x%08x" % (asn, n)


def rt_ip(addr, n):
    return "0x0102%s%04x" % ("".join("%02x" % int(o) for o in addr.split(".")), n)


def soo_ip(addr, n):
    return "0x0103%s%04x" % ("".join("%02x" % int(o) for o in addr.split(".")), n)


def rt_as4(asn, n):
    return "0x0202%08x%04x" % (asn, n)


def lb(asn, mbps, transitive=True):
    bits = struct.unpack("!I", struct.pack("!f", mbps * 125000.0))[0]
    return "0x%02x04%04x%08x" % (0x00 if transitive else 0x40, asn, bits)


def raw(type_, sub):
    return "0x%02x%02x000000000001" % (type_, sub)


POLICY = """\
bgp extcommunity-list standard ECL-STD permit soo 65010:2 rt 65010:1
bgp extcommunity-list expanded ECL-DENY permit ^RT:65010:66
bgp extcommunity-list 10 permit soo 192.0.2.11:3
bgp extcommunity-list 110 permit LB:65010:
bgp extcommunity-list expanded ECL-UNK permit UNK:3, 2$
bgp extcommunity-list expanded ECL-EMPTY permit ^$
bgp extcommunity-list standard ECL-ORDER deny rt 65010:40
bgp extcommunity-list standard ECL-ORDER permit rt 4200000000:41 rt 65010:41
!
route-map RM-IN permit 10
 match extcommunity ECL-STD
 set extcommunity rt 65010:1 65000:1
 set local-preference 110
exit
!
route-map RM-IN deny 20
 match extcommunity ECL-DENY
exit
!
route-map RM-IN permit 30
 match extcommunity 10
 set extcommunity bandwidth 100
 set local-preference 130
exit
!
route-map RM-IN permit 40
 match extcommunity 110
 set extcommunity bandwidth 200 non-transitive
 set local-preference 140
exit
!
route-map RM-IN permit 50
 match extcommunity ECL-UNK
 set extcommunity none
 set extcommunity soo 65000:5
 set local-preference 150
exit
!
route-map RM-IN permit 60
 match extcommunity ECL-EMPTY
 set extcommunity rt 65000:9 192.0.2.1:9
 set local-preference 160
exit
!
route-map RM-IN permit 65
 match extcommunity ECL-ORDER
 set local-preference 165
exit
!
route-map RM-IN permit 70
 match extcommunity NO-SUCH-LIST
 set local-preference 170
exit
!
route-map RM-IN permit 80
 set local-preference 180
exit
!
ip prefix-list PL-NM seq 5 permit 198.51.100.8/29
ip prefix-list PL-NM seq 10 permit 198.51.100.24/29
ip prefix-list PL-CU seq 5 permit 198.51.100.64/29
!
route-map RM-OUT-EB permit 10
 match ip address prefix-list PL-NM
 set extcommunity bandwidth num-multipaths
exit
!
route-map RM-OUT-EB permit 20
 match ip address prefix-list PL-CU
 set extcommunity bandwidth cumulative
exit
!
route-map RM-OUT-EB permit 30
exit
"""

# Each route: its case, prefix, extended communities as sent.
ROUTES = [
    {"case": "standard", "prefix": "198.51.100.0/29", "ext": [soo(65010, 2), rt(65010, 1)]},
    {"case": "standard", "prefix": "198.51.100.8/29", "ext": [rt(65010, 1)]},
    {"case": "expanded-deny", "prefix": "198.51.100.16/29", "ext": [rt(65010, 66)]},
    {"case": "bandwidth-replace", "prefix": "198.51.100.24/29",
     "ext": [soo_ip("192.0.2.11", 3), lb(65010, 5)]},
    {"case": "bandwidth-non-transitive", "prefix": "198.51.100.32/29",
     "ext": [rt_as4(4200000000, 5), lb(65010, 5)]},
    {"case": "none", "prefix": "198.51.100.40/29", "ext": [raw(3, 11), rt(65010, 7)]},
    {"case": "empty", "prefix": "198.51.100.48/29", "ext": []},
    {"case": "non-transitive", "prefix": "198.51.100.56/29",
     "ext": [raw(0x47, 1), lb(65010, 5, False), rt_ip("192.0.2.11", 8)]},
    {"case": "repeats", "prefix": "198.51.100.64/29",
     "ext": [rt(65010, 9), soo(65010, 1), rt(65010, 9)]},
    {"case": "order", "prefix": "198.51.100.72/29",
     "ext": [rt(65010, 41), rt_as4(4200000000, 41)]},
    {"case": "order", "prefix": "198.51.100.80/29",
     "ext": [rt(65010, 40), rt(65010, 41), rt_as4(4200000000, 41)]},
]
CASES = sorted({r["case"] for r in ROUTES})


def case_prefixes(case):
    return [r["prefix"] for r in ROUTES if r["case"] == case]


# The designed outcome, as FRR 8.4 shows it: prefix -> (LOCAL_PREF, extended communities of
# ref's table, of the eBGP sink, of the iBGP sink); None: not in the table.
LB5, LB100, LB200 = ("LB:65010:625000 (5.000 Mbps)", "LB:65000:12500000 (100.000 Mbps)",
                     "LB:65000:25000000 (200.000 Mbps)")
DESIGNED = {
    # Received sorted; the set's values appended after them, 65010:1 repeated (the sinks
    # sort them again and drop the repeat).
    "198.51.100.0/29": (110, "RT:65010:1 SoO:65010:2 RT:65000:1 RT:65010:1",
                        "RT:65000:1 RT:65010:1 SoO:65010:2", "RT:65000:1 RT:65010:1 "
                        "SoO:65010:2"),
    # RM-OUT-EB: num-multipaths gives the eBGP sink 1 Mbps (one path) of our AS; the
    # transitive bandwidth .24 carries is replaced.
    "198.51.100.8/29": (180, "RT:65010:1", "RT:65010:1 LB:65000:125000 (1.000 Mbps)",
                        "RT:65010:1"),
    "198.51.100.16/29": None,
    # The transitive bandwidth replaced where it stands, with our AS.
    "198.51.100.24/29": (130, LB100 + " SoO:192.0.2.11:3",
                         "LB:65000:125000 (1.000 Mbps) SoO:192.0.2.11:3",
                         LB100 + " SoO:192.0.2.11:3"),
    # A non-transitive one beside the transitive one: not sent to eBGP.
    "198.51.100.32/29": (140, LB5 + " RT:4200000000:5 " + LB200, LB5 + " RT:4200000000:5",
                         LB5 + " RT:4200000000:5 " + LB200),
    # FRR 8.4 shows the opaque 0x030b... after a route target as "UNK:3, 2" (the sub-type of
    # the value before): the expanded list matches that text.
    "198.51.100.40/29": (150, "SoO:65000:5", "SoO:65000:5", "SoO:65000:5"),
    "198.51.100.48/29": (160, "RT:65000:9 RT:192.0.2.1:9", "RT:65000:9 RT:192.0.2.1:9",
                         "RT:65000:9 RT:192.0.2.1:9"),
    # The expanded 110 matches a non-transitive bandwidth too; the set replaces it in place.
    "198.51.100.56/29": (140, "RT:192.0.2.11:8 " + LB200 + " UNK:71, 1", "RT:192.0.2.11:8",
                         "RT:192.0.2.11:8 " + LB200 + " UNK:71, 1"),
    "198.51.100.64/29": (180, "RT:65010:9 SoO:65010:1", "RT:65010:9 SoO:65010:1",
                         "RT:65010:9 SoO:65010:1"),
    "198.51.100.72/29": (165, "RT:65010:41 RT:4200000000:41", "RT:65010:41 RT:4200000000:41",
                         "RT:65010:41 RT:4200000000:41"),
    "198.51.100.80/29": (180, "RT:65010:40 RT:65010:41 RT:4200000000:41",
                         "RT:65010:40 RT:65010:41 RT:4200000000:41",
                         "RT:65010:40 RT:65010:41 RT:4200000000:41"),
}


# --- configs ------------------------------------------------------------------------------

def render_speaker(name):
    out = ["hostname %s" % name, "!",
           "! The policy: identical in dut/bgpd.conf and ref/bgpd.conf."]
    out += POLICY.rstrip("\n").split("\n") + ["!"]
    out += ["router bgp %d" % LOCAL_AS,
            " bgp router-id %s" % SPEAKERS[name],
            " ! FRR needs these in the lab (RFC 8212 and zebra's RIB); skua accepts them.",
            " no bgp ebgp-requires-policy",
            " no bgp network import-check",
            " no bgp default ipv4-unicast",
            " neighbor %s remote-as %d" % (INJ_ADDR, INJ_AS),
            " neighbor %s passive" % INJ_ADDR]
    for asn, addr in SINKS.values():
        out += [" neighbor %s remote-as %d" % (addr, asn),
                " neighbor %s timers connect 5" % addr]
    out += [" !", " address-family ipv4 unicast",
            "  neighbor %s activate" % INJ_ADDR,
            "  neighbor %s route-map RM-IN in" % INJ_ADDR]
    if name == "ref":
        # ExaBGP 4.2 drops the session when asked for a route refresh (see policy_plist).
        out.append("  neighbor %s soft-reconfiguration inbound" % INJ_ADDR)
    for asn, addr in SINKS.values():
        out.append("  neighbor %s activate" % addr)
        if asn != LOCAL_AS:
            out.append("  neighbor %s route-map RM-OUT-EB out" % addr)
        if asn == LOCAL_AS:
            # The iBGP sink then needs no route to the injector's next hop.
            out.append("  neighbor %s next-hop-self" % addr)
    out += [" exit-address-family", "exit", ""]
    return "\n".join(out)


def injector_routes():
    """(case, ExaBGP route) for each route of ROUTES."""
    for r in ROUTES:
        line = "route %s next-hop %s as-path [ %d ] origin igp" % (r["prefix"], INJ_ADDR, INJ_AS)
        if r["ext"]:
            line += " extended-community [ %s ]" % " ".join(r["ext"])
        yield r["case"], line


HERE = os.path.dirname(os.path.abspath(__file__))
RENDERED = twin.rendered_files(sys.modules[__name__], render_speaker, injector_routes)

if __name__ == "__main__":
    twin.write_rendered(sys.modules[__name__])
