#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The large community scenario's data: routes, policy, sinks, the designed outcome, configs.

One ExaBGP router (inj, AS 65010) announces the same routes to skua (dut) and to FRR 8.4
(ref), both AS 65000 and not peering with each other.  Both run the same policy text: an
inbound route-map RM-IN (large community lists standard / expanded / exact-match, set
large-community replace / additive / none, set large-comm-list and comm-list delete) and,
towards the first eBGP sink, an outbound route-map OUT-E1.  Each speaker advertises to five
FRR sinks of its own on a LAN addressed the same on both sides, so the sinks compare as they
are:

    e1  AS 65101  .66  eBGP, all communities sent (the default), route-map OUT-E1 out
    e2  AS 65102  .67  eBGP, no neighbor X send-community            (standard not sent)
    e3  AS 65103  .68  eBGP, no neighbor X send-community large + extended
    e4  AS 65104  .69  eBGP, no neighbor X send-community all
    ib  AS 65000  .70  iBGP, all sent

The well-known communities decide who receives what (RFC 1997, RFC 7999): no-export and
local-AS reach ib only, no-advertise nobody.

Run this file to regenerate the configs after editing; a test checks that the files on disk
are what it renders.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# tests/lab, also when this file is run by hand; the twins' addressing is skualab.twin's.
from skualab import twin  # noqa: E402
from skualab.twin import INJ_ADDR, INJ_AS, LOCAL_AS, SPEAKERS  # noqa: E402
# sink: (AS, address, send-community lines for the speaker's address family block)
SINKS = {
    "e1": (65101, "192.0.2.66", []),
    "e2": (65102, "192.0.2.67", ["no neighbor %s send-community"]),
    "e3": (65103, "192.0.2.68", ["no neighbor %s send-community large",
                                 "no neighbor %s send-community extended"]),
    "e4": (65104, "192.0.2.69", ["no neighbor %s send-community all"]),
    "ib": (65000, "192.0.2.70", []),
}


POLICY = """\
ip prefix-list PL-STD seq 5 permit 198.51.100.0/28 le 29
ip prefix-list PL-AND seq 5 permit 198.51.100.24/29
ip prefix-list PL-AND seq 10 permit 198.51.100.32/29
ip prefix-list PL-EXACT seq 5 permit 198.51.100.40/29
ip prefix-list PL-EXACT seq 10 permit 198.51.100.48/29
ip prefix-list PL-EXACT seq 15 permit 198.51.100.56/29
ip prefix-list PL-EXP seq 5 permit 198.51.100.64/28 le 29
ip prefix-list PL-EXP-ANY seq 5 permit 198.51.100.80/28 le 29
ip prefix-list PL-SET seq 5 permit 198.51.100.96/29
ip prefix-list PL-ADD seq 5 permit 198.51.100.104/29
ip prefix-list PL-NONE seq 5 permit 198.51.100.112/29
ip prefix-list PL-LDEL seq 5 permit 198.51.100.120/29
ip prefix-list PL-LDEL-STD seq 5 permit 198.51.100.128/29
ip prefix-list PL-CDEL seq 5 permit 198.51.100.136/29
ip prefix-list PL-CDEL-EXP seq 5 permit 198.51.100.144/29
ip prefix-list PL-BIG seq 5 permit 198.51.100.152/29
ip prefix-list PL-BOTH seq 5 permit 198.51.100.168/29
ip prefix-list PL-BH seq 5 permit 198.51.100.216/29
ip prefix-list PL-NUM-LS seq 5 permit 198.51.100.224/29
ip prefix-list PL-NUM-LE seq 5 permit 198.51.100.232/29
ip prefix-list PL-NUM-CS seq 5 permit 198.51.100.240/29
ip prefix-list PL-NUM-CE seq 5 permit 198.51.100.248/29
ip prefix-list PL-IN-NOEXP seq 5 permit 203.0.113.40/29
ip prefix-list PL-OUT-ADD seq 5 permit 203.0.113.8/29
ip prefix-list PL-OUT-NOEXP seq 5 permit 203.0.113.32/29
!
bgp community-list standard CL-DEL seq 5 permit 65010:100
bgp community-list expanded CL-DEL-EXP seq 5 permit ^65010:2[0-9][0-9]$
bgp community-list 20 seq 5 permit 65010:62
bgp community-list 120 seq 5 permit ^65010:63$
bgp large-community-list 10 seq 5 permit 65010:60:2 65010:60:1
bgp large-community-list 110 seq 5 permit ^65010:61:
bgp large-community-list standard LC-STD seq 5 permit 65010:1:1
bgp large-community-list standard LC-STD seq 10 deny 65010:1:2
bgp large-community-list standard LC-AND seq 5 permit 65010:2:1 65010:2:2
bgp large-community-list standard LC-EXACT seq 5 permit 65010:3:2 65010:3:1
bgp large-community-list expanded LC-EXP seq 5 permit ^65010:4:[0-9]+$
bgp large-community-list expanded LC-EXP-ANY seq 5 permit .*
bgp large-community-list expanded LC-DEL seq 5 permit ^65010:9:
bgp large-community-list standard LC-DEL-STD seq 5 deny 65010:8:1
bgp large-community-list standard LC-DEL-STD seq 10 permit 65010:8:1 65010:8:2
bgp large-community-list standard LC-BIG seq 5 permit 4294967295:4294967295:4294967295
bgp large-community-list standard LC-OUT-DENY seq 5 permit 65010:30:1
!
route-map RM-IN permit 10
 match ip address prefix-list PL-STD
 match large-community LC-STD
 set local-preference 110
route-map RM-IN permit 20
 match ip address prefix-list PL-AND
 match large-community LC-AND
 set local-preference 120
route-map RM-IN permit 30
 match ip address prefix-list PL-EXACT
 match large-community LC-EXACT exact-match
 set local-preference 130
route-map RM-IN permit 40
 match ip address prefix-list PL-EXP
 match large-community LC-EXP
 set local-preference 140
route-map RM-IN permit 50
 match ip address prefix-list PL-EXP-ANY
 match large-community LC-EXP-ANY
 set local-preference 150
route-map RM-IN permit 60
 match ip address prefix-list PL-SET
 set large-community 65000:1:2 65000:1:1
route-map RM-IN permit 70
 match ip address prefix-list PL-ADD
 set large-community 65010:6:6 65000:2:1 additive
route-map RM-IN permit 80
 match ip address prefix-list PL-NONE
 set large-community none
route-map RM-IN permit 90
 match ip address prefix-list PL-LDEL
 set large-comm-list LC-DEL delete
route-map RM-IN permit 100
 match ip address prefix-list PL-LDEL-STD
 set large-comm-list LC-DEL-STD delete
route-map RM-IN permit 110
 match ip address prefix-list PL-CDEL
 set comm-list CL-DEL delete
route-map RM-IN permit 120
 match ip address prefix-list PL-CDEL-EXP
 set comm-list CL-DEL-EXP delete
route-map RM-IN permit 130
 match ip address prefix-list PL-BIG
 match large-community LC-BIG
 set local-preference 160
route-map RM-IN permit 140
 match ip address prefix-list PL-BOTH
 set community 65000:3 additive
 set large-community 65000:3:3 additive
route-map RM-IN permit 150
 description BLACKHOLE set by policy: FRR adds NO_EXPORT after the inbound map
 match ip address prefix-list PL-BH
 set community blackhole additive
route-map RM-IN permit 160
 match ip address prefix-list PL-NUM-LS
 match large-community 10
 set local-preference 170
route-map RM-IN permit 170
 match ip address prefix-list PL-NUM-LE
 match large-community 110
 set local-preference 171
route-map RM-IN permit 180
 match ip address prefix-list PL-NUM-CS
 match community 20
 set local-preference 172
route-map RM-IN permit 190
 match ip address prefix-list PL-NUM-CE
 match community 120
 set local-preference 173
route-map RM-IN permit 200
 match ip address prefix-list PL-IN-NOEXP
 set community no-export additive
route-map RM-IN permit 1000
 description everything else as received
!
route-map OUT-E1 deny 10
 match large-community LC-OUT-DENY
route-map OUT-E1 permit 20
 match ip address prefix-list PL-OUT-ADD
 set large-community 65000:30:2 additive
route-map OUT-E1 permit 30
 description judged on the stored route: e1 still gets it
 match ip address prefix-list PL-OUT-NOEXP
 set community no-export additive
route-map OUT-E1 permit 1000
"""


def r(case, prefix, lc="", comms="", ext=""):
    """One announcement from inj: large communities, communities and extended communities
    in the order sent (duplicates kept)."""
    return {"case": case, "prefix": prefix, "lc": lc.split(), "comms": comms.split(),
            "ext": ext.split()}


ROUTES = [
    r("match-standard", "198.51.100.0/29", lc="65010:1:1 7:7:7"),
    r("match-standard", "198.51.100.8/29", lc="65010:1:2"),
    r("match-standard", "198.51.100.16/29", comms="65010:1"),
    r("match-all-values", "198.51.100.24/29", lc="65010:2:2 65010:2:1"),
    r("match-all-values", "198.51.100.32/29", lc="65010:2:1"),
    r("match-exact", "198.51.100.40/29", lc="65010:3:1 65010:3:2"),
    r("match-exact", "198.51.100.48/29", lc="65010:3:1 65010:3:2 65010:3:3"),
    r("match-exact", "198.51.100.56/29", lc="65010:3:2 65010:3:1 65010:3:2"),
    r("match-expanded", "198.51.100.64/29", lc="65010:4:17"),
    r("match-expanded", "198.51.100.72/29", lc="65010:4:17 65010:5:1"),
    r("match-without-large", "198.51.100.80/29", comms="65010:1"),
    r("match-without-large", "198.51.100.88/29", lc="1:2:3"),
    r("set-replace", "198.51.100.96/29", lc="65010:1:5", comms="65010:5"),
    r("set-additive", "198.51.100.104/29", lc="65010:6:6 1:1:1"),
    r("set-none", "198.51.100.112/29", lc="65010:7:7", comms="65010:7"),
    r("large-comm-list-delete", "198.51.100.120/29", lc="65010:9:1 65010:10:1 65010:9:2"),
    r("large-comm-list-delete", "198.51.100.128/29", lc="65010:8:3 65010:8:2 65010:8:1"),
    r("comm-list-delete", "198.51.100.136/29", comms="65010:300 65010:100 65010:200"),
    r("comm-list-delete", "198.51.100.144/29", comms="65010:100 65010:250 65010:2000"),
    r("four-octet-values", "198.51.100.152/29",
      lc="4294967295:4294967295:4294967295 0:0:0"),
    r("sorted-on-receipt", "198.51.100.160/29",
      lc="65010:20:3 65010:20:1 4200000000:1:1 65010:20:2 65010:20:1"),
    r("set-both-kinds", "198.51.100.168/29", lc="65010:21:1", comms="65010:21"),
    r("well-known", "198.51.100.176/29", comms="no-export 65010:40", lc="65010:40:1"),
    r("well-known", "198.51.100.184/29", comms="no-advertise"),
    r("well-known", "198.51.100.192/29", comms="local-AS 65010:41"),
    r("well-known", "198.51.100.200/29", comms="blackhole 65010:42"),
    r("well-known", "198.51.100.208/29", comms="65010:43 no-peer"),
    r("blackhole-by-policy", "198.51.100.216/29", comms="65010:44"),
    r("numbered-lists", "198.51.100.224/29", lc="65010:60:1 65010:60:2"),
    r("numbered-lists", "198.51.100.232/29", lc="65010:61:5"),
    r("numbered-lists", "198.51.100.240/29", comms="65010:62"),
    r("numbered-lists", "198.51.100.248/29", comms="65010:63"),
    r("send-community", "203.0.113.0/29", comms="65010:50", lc="65010:50:1",
      ext="target:65010:50"),
    r("send-community", "203.0.113.8/29", comms="65010:51", lc="65010:51:1",
      ext="target:65010:51 origin:65010:52"),
    r("send-community", "203.0.113.16/29", ext="target:65010:53"),
    r("outbound-map", "203.0.113.24/29", lc="65010:30:1 65010:30:2"),
    r("no-export-by-policy", "203.0.113.32/29", comms="65010:70"),
    r("no-export-by-policy", "203.0.113.40/29", comms="65010:71"),
]
CASES = sorted({rt["case"] for rt in ROUTES}, key=[rt["case"] for rt in ROUTES].index)


def case_prefixes(case):
    return sorted({rt["prefix"] for rt in ROUTES if rt["case"] == case})


# --- what the design says, checked on FRR's side ----------------------------------------
# (prefix: local-preference ref stores, None = none) for the match cases.
DESIGNED_LP = {
    "198.51.100.0/29": 110, "198.51.100.8/29": None, "198.51.100.16/29": None,
    "198.51.100.24/29": 120, "198.51.100.32/29": None,
    "198.51.100.40/29": 130, "198.51.100.48/29": None, "198.51.100.56/29": 130,
    "198.51.100.64/29": 140, "198.51.100.72/29": None,
    # FRR 8.4: an expanded list sees a route without large communities as the empty text.
    "198.51.100.80/29": 150, "198.51.100.88/29": 150,
    "198.51.100.152/29": 160,
    "198.51.100.224/29": 170, "198.51.100.232/29": 171,
    "198.51.100.240/29": 172, "198.51.100.248/29": 173,
}
# prefix: large communities ref stores
DESIGNED_LC = {
    "198.51.100.96/29": "65000:1:1 65000:1:2",
    "198.51.100.104/29": "1:1:1 65000:2:1 65010:6:6",
    "198.51.100.112/29": "",
    "198.51.100.120/29": "65010:10:1",
    "198.51.100.128/29": "65010:8:1 65010:8:3",
    "198.51.100.160/29": "65010:20:1 65010:20:2 65010:20:3 4200000000:1:1",
    "198.51.100.168/29": "65000:3:3 65010:21:1",
}
# prefix: communities ref stores (FRR's text)
DESIGNED_COMM = {
    "198.51.100.112/29": "65010:7",
    "198.51.100.136/29": "65010:200 65010:300",
    "198.51.100.144/29": "65010:100 65010:2000",
    "198.51.100.168/29": "65000:3 65010:21",
    # RFC 7999 3.2 as FRR 8.4 does it: NO_EXPORT added to an eBGP route tagged BLACKHOLE.
    "198.51.100.200/29": "65010:42 blackhole no-export",
    "198.51.100.216/29": "65010:44 blackhole no-export",
}
# prefix: the sinks that receive it (of e1 e2 e3 e4 ib)
ALL_SINKS = set(SINKS)
DESIGNED_RECEIVERS = {
    "198.51.100.176/29": {"ib"},
    "198.51.100.184/29": set(),
    "198.51.100.192/29": {"ib"},
    "198.51.100.200/29": {"ib"},
    "198.51.100.216/29": {"ib"},
    "198.51.100.208/29": ALL_SINKS,
    "203.0.113.24/29": ALL_SINKS - {"e1"},
    # NO_EXPORT set by the outbound map does not stop that export; set inbound, it does.
    "203.0.113.32/29": ALL_SINKS,
    "203.0.113.40/29": {"ib"},
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
    for asn, addr, _ in SINKS.values():
        out += [" neighbor %s remote-as %d" % (addr, asn),
                " neighbor %s timers connect 5" % addr]
    out += [" !", " address-family ipv4 unicast",
            "  neighbor %s activate" % INJ_ADDR,
            "  neighbor %s route-map RM-IN in" % INJ_ADDR]
    if name == "ref":
        # ExaBGP 4.2 drops the session when asked for a route refresh (see policy_plist).
        out.append("  neighbor %s soft-reconfiguration inbound" % INJ_ADDR)
    for sink, (_, addr, lines) in SINKS.items():
        out.append("  neighbor %s activate" % addr)
        out += ["  " + line % addr for line in lines]
        if sink == "e1":
            out.append("  neighbor %s route-map OUT-E1 out" % addr)
    out += [" exit-address-family", "exit", ""]
    return "\n".join(out)


# The well-known communities by number: ExaBGP 4.2 knows only some of the names.
WELL_KNOWN = {"no-export": "65535:65281", "no-advertise": "65535:65282",
              "local-AS": "65535:65283", "no-peer": "65535:65284", "blackhole": "65535:666"}


def injector_routes():
    """(case, ExaBGP route) for each route of ROUTES."""
    for rt in ROUTES:
        line = "route %s next-hop %s as-path [ %d ] origin igp" % (rt["prefix"], INJ_ADDR,
                                                                   INJ_AS)
        if rt["comms"]:
            line += " community [ %s ]" % " ".join(WELL_KNOWN.get(c, c) for c in rt["comms"])
        if rt["lc"]:
            line += " large-community [ %s ]" % " ".join(rt["lc"])
        if rt["ext"]:
            line += " extended-community [ %s ]" % " ".join(rt["ext"])
        yield rt["case"], line


HERE = os.path.dirname(os.path.abspath(__file__))
RENDERED = twin.rendered_files(sys.modules[__name__], render_speaker, injector_routes)

if __name__ == "__main__":
    twin.write_rendered(sys.modules[__name__])
