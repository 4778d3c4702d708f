#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The route-map scenario's data: sessions, routes, the policy, the live changes, configs.

One ExaBGP router (inj) speaks as four eBGP neighbours, each to skua (dut) and to FRR (ref),
both AS 65000 and not peering with each other.  Each neighbour meets its own inbound policy;
dut and ref each advertise to two sinks of their own through outbound policy: an eBGP one
(FRR, AS 65100) and an iBGP one (FRR, AS 65000).  dut's and ref's sink links use the same
addresses, so the sinks' tables compare as they are.

    a  AS 65010  .11  in: route-map RM-A (one entry per match and set statement)
    b  AS 65020  .12  in: route-map RM-B (on-match next / goto, call, deny entries)
    c  AS 65030  .13  in: route-map NOSUCH-MAP (names no route-map: FRR denies everything)
    d  AS 65040  .14  in: filter-list AS-D-IN, then route-map RM-D (lists that do not exist,
                      an empty prefix list, a catch-all entry)
    sink   AS 65100  192.0.2.66 2001:db8:0:2::2  out: filter-list AS-OUT, route-map OUT-E
    isink  AS 65000  192.0.2.74 2001:db8:0:3::2  out: route-map OUT-I

The policy text is the same in dut's and ref's configs; they differ in hostname, router ID,
ref's `soft-reconfiguration inbound` towards inj (FRR negotiates enhanced route refresh and
ExaBGP 4.2 drops the session when asked for one, see policy_plist) and ref's `bgp route-map
delay-timer 1` (FRR re-applies a changed route-map after this delay, 5 s by default; skua has
no such timer and no such command).

Run this file to regenerate the configs after editing; a test checks that the files on disk
are what it renders.
"""

import ipaddress
import os
import sys

import rmap_model as rm

LOCAL_AS = 65000
SPEAKERS = {"dut": "192.0.2.1", "ref": "192.0.2.2"}  # name: address on the LAN = router ID
SESSIONS = {  # name: (AS, IPv4, IPv6 next hop, router id)
    "a": (65010, "192.0.2.11", "2001:db8:0:1::11", "203.0.113.11"),
    "b": (65020, "192.0.2.12", "2001:db8:0:1::12", "203.0.113.12"),
    "c": (65030, "192.0.2.13", "2001:db8:0:1::13", "203.0.113.13"),
    "d": (65040, "192.0.2.14", "2001:db8:0:1::14", "203.0.113.14"),
}
# name: (AS, its IPv4 and IPv6 addresses, dut's/ref's IPv4 and IPv6 addresses on the link)
SINKS = {
    "sink": (65100, "192.0.2.66", "2001:db8:0:2::2", "192.0.2.65", "2001:db8:0:2::1"),
    "isink": (65000, "192.0.2.74", "2001:db8:0:3::2", "192.0.2.73", "2001:db8:0:3::1"),
}
SINK_ROUTERS = {"sink": ("sinkd", "sinkr"), "isink": ("isinkd", "isinkr")}

# The policy as written in both configs.  Sub-lines of a route-map start with a space.
POLICY = """\
ip prefix-list PL-A-DENY seq 5 permit 198.51.100.0/29
ip prefix-list PL-A-DENY seq 10 permit 198.51.100.208/29
ip prefix-list PL-A-LP seq 5 permit 198.51.100.8/29
ip prefix-list PL-A-LP seq 10 permit 198.51.100.200/29
ip prefix-list PL-A-AND seq 5 permit 198.51.100.16/28 le 29
ip prefix-list PL-A-MED-ADD seq 5 permit 198.51.100.32/29
ip prefix-list PL-A-COMM-SET seq 5 permit 198.51.100.40/29
ip prefix-list PL-A-COMM-ADD seq 5 permit 198.51.100.48/29
ip prefix-list PL-A-COMM-NONE seq 5 permit 198.51.100.56/29
ip prefix-list PL-A-NOCOMM seq 5 permit 198.51.100.176/28 le 29
ip prefix-list PL-A-ORIGIN seq 5 permit 198.51.100.240/28 le 29
ip prefix-list PL-A-EXCLUDE seq 5 permit 198.51.100.192/29 le 30
ip prefix-list PL-A-PEER seq 5 permit 203.0.113.208/28 le 29
ip prefix-list PL-A-TAG seq 5 permit 203.0.113.224/28 le 29
ipv6 prefix-list PL6-A-LP seq 5 permit 2001:db8:101::/48
ipv6 prefix-list PL6-A-COMM seq 5 permit 2001:db8:102::/48
ip prefix-list PL-B-NEXT seq 5 permit 203.0.113.0/28
ip prefix-list PL-B-NEXT seq 10 permit 203.0.113.16/28
ip prefix-list PL-B-NEXT seq 15 permit 203.0.113.32/28
ip prefix-list PL-B-GOTO seq 5 permit 203.0.113.48/28
ip prefix-list PL-B-GOTO seq 10 permit 203.0.113.64/28
ip prefix-list PL-B-GOTO-END seq 5 permit 203.0.113.80/28
ip prefix-list PL-B-CALL seq 5 permit 203.0.113.96/27 le 28
ip prefix-list PL-B-CALL seq 10 permit 203.0.113.128/27 le 28
ip prefix-list PL-B-CALL-MISSING seq 5 permit 203.0.113.160/28
ip prefix-list PL-B-CALL-NEXT seq 5 permit 203.0.113.176/28
ip prefix-list PL-B-BEST seq 5 permit 198.51.100.200/29
ip prefix-list PL-B-BEST seq 10 permit 198.51.100.208/29
ipv6 prefix-list PL6-B seq 5 permit 2001:db8:201::/47 le 48
ip prefix-list PL-EMPTY description no entry: permits every IPv4 prefix
ip prefix-list PL-NH-A seq 5 permit 192.0.2.11/32
ip prefix-list PL-NH-D seq 5 permit 192.0.2.0/28 le 32
ip prefix-list PL-NH-D seq 10 deny 192.0.2.0/24 le 32
ip prefix-list PL-OUT-PREPEND seq 5 permit 198.51.100.8/29
ip prefix-list PL-OUT-PREPEND seq 10 permit 198.51.100.64/29
ipv6 prefix-list PL6-OUT-PREPEND seq 5 permit 2001:db8:101::/48
ip prefix-list PL-OUT-NH seq 5 permit 198.51.100.72/29
ip prefix-list PL-OUT-LP seq 5 permit 198.51.100.8/29
ip prefix-list PL-OUT-LP seq 10 permit 198.51.100.80/29
ipv6 prefix-list PL6-OUT-LP seq 5 permit 2001:db8:102::/48
ip prefix-list PL-OUT-DEFLP seq 5 permit 192.0.2.144/28
ip prefix-list PL-OUT-ORIGIN seq 5 permit 198.51.100.248/29
!
bgp as-path access-list AS-END-65011 seq 5 permit _65011$
bgp as-path access-list AS-SET-65013 seq 5 permit _65013_
bgp as-path access-list AS-D-IN seq 10 deny _65041_
bgp as-path access-list AS-D-IN seq 20 permit ^65040$
bgp as-path access-list AS-D-IN seq 30 permit _65043$
bgp as-path access-list AS-OUT seq 5 deny _65021_
bgp as-path access-list AS-OUT seq 10 permit .*
bgp as-path access-list AS-PREPENDED seq 5 permit ^65099 65098_
!
bgp community-list standard CL-STD seq 5 permit 65010:100
bgp community-list standard CL-STD seq 10 deny 65010:101
bgp community-list standard CL-EXACT seq 5 permit 65010:201 65010:200
bgp community-list expanded CL-EXP seq 5 permit ^65010:3[0-9][0-9]_
bgp community-list standard CL-WK seq 5 permit no-export
bgp community-list standard CL-AND seq 5 permit 65010:600
bgp community-list expanded CL-NONE seq 5 permit ^$
bgp community-list standard CL-B20 seq 5 permit 65020:20
bgp community-list standard CL-B30 seq 5 permit 65020:30
bgp community-list standard CL-B60 seq 5 permit 65020:60
bgp community-list standard CL-SUB-DENY seq 5 permit 65020:81
bgp community-list standard CL-SUB-PERMIT seq 5 permit 65020:82
bgp community-list standard CL-SUB-NEXT seq 5 permit 65020:83
bgp community-list standard CL-OUT-DENY seq 5 permit 65010:100
bgp community-list standard CL-OUT-I-DENY seq 5 permit 65000:60
!
route-map RM-A deny 5
 description an explicit deny entry
 match ip address prefix-list PL-A-DENY
route-map RM-A permit 10
 match ip address prefix-list PL-A-LP
 set local-preference 200
route-map RM-A permit 12
 match ipv6 address prefix-list PL6-A-LP
 set local-preference 210
 set ip next-hop 192.0.2.50
route-map RM-A permit 15
 description two match statements: both must hold
 match ip address prefix-list PL-A-AND
 match community CL-AND
 set ip next-hop 192.0.2.50
 set metric -100
route-map RM-A permit 17
 description +7 on a route without MED
 match ip address prefix-list PL-A-MED-ADD
 set metric +7
route-map RM-A permit 20
 match ip address prefix-list PL-A-COMM-SET
 set community 65000:2 65000:1 no-export
route-map RM-A permit 25
 match ip address prefix-list PL-A-COMM-ADD
 set community 65000:3 65010:100 additive
route-map RM-A permit 30
 match ip address prefix-list PL-A-COMM-NONE
 set community none
route-map RM-A permit 35
 match ipv6 address prefix-list PL6-A-COMM
 set community 65000:6 additive
route-map RM-A permit 40
 match as-path AS-END-65011
 set weight 100
route-map RM-A permit 45
 match as-path AS-SET-65013
 set metric 13
route-map RM-A permit 50
 match metric 50
 set local-preference +10
route-map RM-A permit 52
 match metric 60
 set local-preference -10
route-map RM-A permit 60
 match community CL-STD
 set metric +5
route-map RM-A permit 62
 match community CL-EXACT exact-match
 set weight 7
route-map RM-A permit 64
 match community CL-EXP
 set as-path prepend 65099 65098
route-map RM-A permit 66
 match community CL-WK
 set local-preference 66
route-map RM-A permit 68
 match ip address prefix-list PL-A-NOCOMM
 match community CL-NONE
 set local-preference 68
route-map RM-A permit 70
 match ip address prefix-list PL-A-ORIGIN
 set origin incomplete
route-map RM-A permit 72
 description exclude, then prepend: the prepended 65010 stays
 match ip address prefix-list PL-A-EXCLUDE
 set as-path exclude 65010 65015
 set as-path prepend 65010
route-map RM-A permit 74
 description match peer: another neighbor's address
 match ip address prefix-list PL-A-PEER
 match peer 192.0.2.14
 set local-preference 74
route-map RM-A permit 75
 match ip address prefix-list PL-A-PEER
 match peer 192.0.2.11
 set local-preference 75
route-map RM-A permit 76
 description never in a neighbor's map: local, an interface name
 match peer local
 set local-preference 76
route-map RM-A permit 77
 match peer lo
 set local-preference 77
route-map RM-A permit 78
 description a tag the outbound maps match
 match ip address prefix-list PL-A-TAG
 set tag 78
!
route-map RM-B permit 10
 description lp 150, then the entries below still apply
 match ip address prefix-list PL-B-NEXT
 set local-preference 150
 on-match next
route-map RM-B permit 20
 match community CL-B20
 set metric 20
route-map RM-B deny 30
 match community CL-B30
route-map RM-B permit 40
 description weight 40, then on at 60: 50 is skipped
 match ip address prefix-list PL-B-GOTO
 set weight 40
 on-match goto 60
route-map RM-B deny 50
 match ip address prefix-list PL-B-GOTO
route-map RM-B permit 60
 match community CL-B60
 set community 65000:60 additive
route-map RM-B permit 70
 match ip address prefix-list PL-B-GOTO-END
 set weight 70
 on-match goto 900
route-map RM-B permit 80
 description the called map's set clauses come after this entry's
 match ip address prefix-list PL-B-CALL
 set metric 80
 call RM-SUB
route-map RM-B permit 90
 match ip address prefix-list PL-B-CALL-MISSING
 set metric 90
 call NOSUCH-SUB
route-map RM-B permit 100
 match ip address prefix-list PL-B-CALL-NEXT
 call RM-SUB
 on-match next
route-map RM-B permit 110
 match ip address prefix-list PL-B-CALL-NEXT
 set weight 110
route-map RM-B permit 120
 match ipv6 address prefix-list PL6-B
 set local-preference 120
 on-match next
route-map RM-B permit 130
 match community CL-B20
 set metric 130
route-map RM-B permit 140
 match ip address prefix-list PL-B-BEST
!
route-map RM-SUB deny 10
 match community CL-SUB-DENY
route-map RM-SUB permit 20
 match community CL-SUB-PERMIT
 set metric +1
 set local-preference 182
route-map RM-SUB permit 30
 match community CL-SUB-NEXT
 set weight 83
 on-match next
!
route-map RM-D permit 2
 description a's IPv6 next hop: none of d's routes
 match ipv6 next-hop address 2001:db8:0:1::11
 set local-preference 2
route-map RM-D permit 3
 match ipv6 next-hop address 2001:db8:0:1::14
 set community 65000:3 additive
 on-match goto 50
route-map RM-D permit 4
 match ip next-hop prefix-list NOSUCH-NH-PL
 set local-preference 4
route-map RM-D permit 5
 description a's next hop: none of d's routes
 match ip next-hop prefix-list PL-NH-A
 set local-preference 5
route-map RM-D permit 6
 description a list without entries permits every IPv4 next hop (not so for the prefix)
 match ip next-hop prefix-list PL-EMPTY
 set community 65000:6 additive
 on-match goto 7
route-map RM-D permit 7
 description past 40: FRR's empty PL-EMPTY matches there once reached by a continue
 match ip next-hop prefix-list PL-NH-D
 set community 65000:7 additive
 on-match goto 50
route-map RM-D permit 10
 match ip address prefix-list NOSUCH-PL
 set local-preference 10
route-map RM-D permit 20
 match as-path NOSUCH-AS
 set local-preference 20
route-map RM-D permit 30
 match community NOSUCH-CL
 set local-preference 30
route-map RM-D permit 35
 match ipv6 address prefix-list NOSUCH-PL6
 set local-preference 35
route-map RM-D permit 40
 match ip address prefix-list PL-EMPTY
 set metric 40
route-map RM-D permit 50
 set weight 50
!
route-map OUT-E deny 10
 description nothing tagged 65010:100 leaves towards the eBGP sink
 match community CL-OUT-DENY
route-map OUT-E permit 20
 match ip address prefix-list PL-OUT-PREPEND
 set as-path prepend 65000 65000
 set metric 77
route-map OUT-E permit 25
 match ipv6 address prefix-list PL6-OUT-PREPEND
 set as-path prepend 65000
 set metric 78
route-map OUT-E permit 30
 match ip address prefix-list PL-OUT-NH
 set ip next-hop 192.0.2.67
route-map OUT-E permit 40
 match metric 7
 set community 65000:7 additive
route-map OUT-E permit 50
 match as-path AS-PREPENDED
 set community none
route-map OUT-E permit 55
 match tag 78
 set metric 55
route-map OUT-E permit 60
 set community 65000:500 additive
!
route-map OUT-I permit 10
 match ip address prefix-list PL-OUT-LP
 set local-preference +7
route-map OUT-I permit 20
 match ipv6 address prefix-list PL6-OUT-LP
 set local-preference 120
route-map OUT-I deny 30
 match community CL-OUT-I-DENY
route-map OUT-I permit 40
 match as-path AS-END-65011
 set ip next-hop 192.0.2.52
 set metric +4
route-map OUT-I permit 45
 match ip address prefix-list PL-OUT-ORIGIN
 set origin egp
route-map OUT-I permit 50
 match ip address prefix-list PL-OUT-DEFLP
 set local-preference +7
route-map OUT-I permit 55
 description match peer in an outbound map: neither the sender (FRR 8.4) ...
 match peer 192.0.2.11
 set metric 55
route-map OUT-I permit 56
 description ... nor the receiver matches
 match peer 192.0.2.74
 match tag 78
 set metric 56
route-map OUT-I permit 60
""".splitlines()

# (neighbour, afi): {binding: name}.  Neighbours: the inj sessions and the two sinks.
BINDINGS = {}
for _afi in ("ipv4", "ipv6"):
    BINDINGS[("a", _afi)] = {"route-map in": "RM-A"}
    BINDINGS[("b", _afi)] = {"route-map in": "RM-B"}
    BINDINGS[("c", _afi)] = {"route-map in": "NOSUCH-MAP"}
    BINDINGS[("d", _afi)] = {"filter-list in": "AS-D-IN", "route-map in": "RM-D"}
    BINDINGS[("sink", _afi)] = {"filter-list out": "AS-OUT", "route-map out": "OUT-E"}
    BINDINGS[("isink", _afi)] = {"route-map out": "OUT-I"}


def r(case, session, prefix, path=None, origin="igp", med=None, comms=""):
    """One announcement; the AS path defaults to the session's AS alone.  `comms`: the
    communities in the order sent (duplicates kept), `{a,b}` in a path is an AS_SET."""
    return {"case": case, "session": session, "prefix": prefix,
            "path": path or str(SESSIONS[session][0]), "origin": origin, "med": med,
            "comms": comms.split()}


ROUTES = [
    # a, RM-A: one entry per match and set statement
    r("deny-entry", "a", "198.51.100.0/29", comms="65010:100"),
    r("set-local-preference", "a", "198.51.100.8/29", med=5),
    r("two-matches", "a", "198.51.100.16/29", med=30, comms="65010:600"),
    r("two-matches", "a", "198.51.100.24/29", med=30),
    r("set-metric-relative", "a", "198.51.100.32/29"),
    r("set-community", "a", "198.51.100.40/29", comms="65010:100"),
    r("set-community-additive", "a", "198.51.100.48/29", comms="65010:101 65010:100"),
    r("set-community-none", "a", "198.51.100.56/29", comms="no-advertise 65010:100"),
    r("match-as-path", "a", "198.51.100.64/29", path="65010 65012 65011"),
    r("match-as-path-set", "a", "198.51.100.72/29", path="65010 {65012,65013}"),
    r("set-local-preference-relative", "a", "198.51.100.80/29", med=50),
    r("set-local-preference-relative", "a", "198.51.100.88/29", med=60),
    r("match-community", "a", "198.51.100.96/29", med=20, comms="65010:100"),
    r("match-community", "a", "198.51.100.104/29", comms="65010:101"),
    r("match-community-exact", "a", "198.51.100.112/29", comms="65010:201 65010:200"),
    r("match-community-exact", "a", "198.51.100.128/29", comms="65010:200 65010:201 65010:202"),
    r("community-duplicates", "a", "198.51.100.120/29", comms="65010:200 65010:201 65010:200"),
    r("match-community-expanded", "a", "198.51.100.136/29", comms="65010:350"),
    r("community-order", "a", "198.51.100.144/29", comms="65010:400 65010:300"),
    r("community-well-known", "a", "198.51.100.152/29", comms="no-export 65010:700"),
    r("community-well-known", "a", "198.51.100.232/29", comms="no-advertise 65010:100"),
    r("implicit-deny", "a", "198.51.100.160/29", comms="65010:999"),
    r("implicit-deny", "a", "198.51.100.168/29", path="65010 65019"),
    r("match-no-community", "a", "198.51.100.176/29"),
    r("match-no-community", "a", "198.51.100.184/29", comms="65010:1"),
    r("set-origin", "a", "198.51.100.240/29", origin="egp"),
    r("set-origin", "a", "198.51.100.248/29"),
    r("set-as-path-exclude", "a", "198.51.100.192/30", path="65010 65015 65016 65015"),
    r("set-as-path-exclude", "a", "198.51.100.196/30", path="65010 {65015,65017}"),
    r("match-peer", "a", "203.0.113.208/29"),
    r("match-peer", "a", "203.0.113.216/29", comms="65010:999"),
    r("set-tag", "a", "203.0.113.224/29"),
    r("set-tag", "a", "203.0.113.232/29", med=5),
    r("v6-match-set", "a", "2001:db8:101::/48"),
    r("v6-match-set", "a", "2001:db8:102::/48", comms="65010:101 65010:100"),
    r("v6-match-set", "a", "2001:db8:103::/48", path="65010 65012 65011"),
    r("v6-match-set", "a", "2001:db8:104::/48", comms="65010:200 65010:201"),
    r("v6-match-set", "a", "2001:db8:105::/48"),
    r("v6-match-set", "a", "2001:db8:106::/48", med=50),
    # b, RM-B: control flow
    r("on-match-next", "b", "203.0.113.0/28", comms="65020:20"),
    r("on-match-next", "b", "203.0.113.16/28", comms="65020:30"),
    r("next-falls-off-the-end", "b", "203.0.113.32/28"),
    r("on-match-goto", "b", "203.0.113.48/28", comms="65020:60"),
    r("goto-falls-off-the-end", "b", "203.0.113.64/28"),
    r("on-match-goto", "b", "203.0.113.80/28"),
    r("call", "b", "203.0.113.96/28", comms="65020:82"),
    r("call", "b", "203.0.113.112/28", comms="65020:81"),
    r("call", "b", "203.0.113.128/28"),
    r("call-next-falls-off", "b", "203.0.113.144/28", comms="65020:83"),
    r("call-missing-map", "b", "203.0.113.160/28"),
    r("call", "b", "203.0.113.176/28", comms="65020:82"),
    r("implicit-deny", "b", "203.0.113.192/28"),
    r("v6-on-match-next", "b", "2001:db8:201::/48", comms="65020:20"),
    r("v6-on-match-next", "b", "2001:db8:202::/48"),
    r("v6-on-match-next", "b", "2001:db8:203::/48", comms="65020:99"),
    # c: a route-map that does not exist
    r("missing-route-map", "c", "192.0.2.128/28"),
    r("missing-route-map", "c", "2001:db8:301::/48"),
    # d: filter-list, then RM-D (missing lists, the empty prefix list, the catch-all)
    r("filter-list-in", "d", "192.0.2.144/28"),
    r("filter-list-in", "d", "192.0.2.160/28", path="65040 65041"),
    r("filter-list-in", "d", "192.0.2.176/28", path="65040 {65041,65045}"),
    r("filter-list-in", "d", "192.0.2.192/28", path="65040 65043"),
    r("filter-list-in", "d", "192.0.2.208/28", path="65040 65044"),
    r("v6-filter-list-in", "d", "2001:db8:401::/48"),
    r("v6-filter-list-in", "d", "2001:db8:402::/48", path="65040 65041"),
    # the same prefix from two neighbours: the policy decides the best path
    r("best-path", "a", "198.51.100.200/29", path="65010 65012 65014"),
    r("best-path", "b", "198.51.100.200/29"),
    r("best-path", "a", "198.51.100.208/29"),
    r("best-path", "b", "198.51.100.208/29", path="65020 65021 65022"),
    r("best-path", "a", "198.51.100.216/29", path="65010 65012 65011"),
    r("best-path", "d", "198.51.100.216/29"),
    r("best-path", "a", "198.51.100.224/29", comms="65010:350"),
    r("best-path", "d", "198.51.100.224/29", path="65040 65043"),
]
CASES = sorted({rt["case"] for rt in ROUTES}, key=[rt["case"] for rt in ROUTES].index)


def is_v6(prefix):
    return ":" in prefix


def afi_of(prefix):
    return "ipv6" if is_v6(prefix) else "ipv4"


def case_prefixes(case):
    return sorted({rt["prefix"] for rt in ROUTES if rt["case"] == case})


def nexthop(session, prefix):
    _, v4, v6, _ = SESSIONS[session]
    return v6 if is_v6(prefix) else v4


def neighbor_addr(neighbor, afi):
    if neighbor in SINKS:
        return SINKS[neighbor][1 if afi == "ipv4" else 2]
    return SESSIONS[neighbor][1]


# --- the live changes, made on dut and ref alike ------------------------------------------

def bind_lines(neighbor, afi, binding, name, negate=False):
    """vtysh lines setting or removing one neighbour's filter-list or route-map."""
    kind, direction = binding.split()
    return ["router bgp %d" % LOCAL_AS, "address-family %s unicast" % afi,
            "%sneighbor %s %s %s %s" % ("no " if negate else "", neighbor_addr(neighbor, afi),
                                        kind, name, direction),
            "exit-address-family", "exit"]


# (step, [config lines], {(neighbour, afi, binding): new name or None}): in this order.
STEPS = [
    ("change-set-value",
     ["route-map RM-A permit 10", "set local-preference 250", "exit"], {}),
    ("add-deny-entry",
     ["route-map RM-B deny 5", "match community CL-B20", "exit"], {}),
    ("add-community-list-entry",
     ["bgp community-list standard CL-STD seq 3 permit 65010:999"], {}),
    ("remove-neighbor-route-map",
     bind_lines("d", "ipv4", "route-map in", "RM-D", negate=True)
     + bind_lines("d", "ipv6", "route-map in", "RM-D", negate=True),
     {("d", "ipv4", "route-map in"): None, ("d", "ipv6", "route-map in"): None}),
    ("add-as-path-list-entry",
     ["bgp as-path access-list AS-D-IN seq 25 permit _65044$"], {}),
    ("change-outbound-set",
     ["route-map OUT-E permit 60", "set community 65000:501 additive", "exit"], {}),
    ("remove-outbound-route-map",
     bind_lines("isink", "ipv4", "route-map out", "OUT-I", negate=True),
     {("isink", "ipv4", "route-map out"): None}),
]


# --- the designed outcome ------------------------------------------------------------------

ORIGIN_TEXT = {"igp": "IGP", "egp": "EGP", "incomplete": "incomplete"}
ORIGIN_RANK = {"igp": 0, "egp": 1, "incomplete": 2}


def row(peer, a, best):
    """One path as the tests compare them: peer, next hop, AS path, origin, MED, LOCAL_PREF,
    weight, best, communities."""
    return (peer, a.nexthop, a.path, ORIGIN_TEXT[a.origin],
            "-" if a.med is None else str(a.med), "-" if a.lp is None else str(a.lp),
            str(a.weight), bool(best), rm.community_text(a.comms))


class State:
    """The policy in force and the tables it should give."""

    def __init__(self):
        self.policy = rm.Policy(POLICY)
        self.bindings = {k: dict(v) for k, v in BINDINGS.items()}

    def apply(self, step):
        _, lines, rebind = step
        in_router = False
        for line in lines:
            words = line.split()
            if words[:2] == ["router", "bgp"]:
                in_router = True
            elif words == ["exit"] and in_router:
                in_router = False
            elif not in_router:
                self.policy.command(line)
        for (neighbor, afi, binding), name in rebind.items():
            if name is None:
                self.bindings[(neighbor, afi)].pop(binding, None)
            else:
                self.bindings[(neighbor, afi)][binding] = name

    def accepted(self):
        """{prefix: [(session, Attrs)]} after the inbound policy."""
        out = {}
        for rt in ROUTES:
            prefix = ipaddress.ip_network(rt["prefix"])
            b = self.bindings[(rt["session"], afi_of(rt["prefix"]))]
            a = rm.Attrs(rt["path"], rt["origin"], rt["med"], None, 0,
                         nexthop(rt["session"], rt["prefix"]),
                         rm.stored_communities(rm.community(w) for w in rt["comms"]))
            flist = b.get("filter-list in")
            if flist and not self.policy.as_list_permits(flist, a.path):
                continue
            if "route-map in" in b:
                ok, a = self.policy.route_map(b["route-map in"], prefix, a,
                                              peer=SESSIONS[rt["session"]][1])
                if not ok:
                    continue
            out.setdefault(rt["prefix"], []).append((rt["session"], a))
        return out

    @staticmethod
    def best(paths):
        def key(p):
            a = p[1]
            return (-a.weight, -(rm.DEFAULT_LP if a.lp is None else a.lp),
                    rm.aspath_length(a.path), ORIGIN_RANK[a.origin])
        ranked = sorted(paths, key=key)
        assert len(ranked) < 2 or key(ranked[0]) != key(ranked[1]), \
            "tie between %s: the design must decide before the router ID" % paths
        return ranked[0]

    def rib(self):
        """{prefix: sorted rows} dut and ref should hold."""
        out = {}
        for prefix, paths in self.accepted().items():
            best = self.best(paths)
            out[prefix] = sorted(row(SESSIONS[s][1], a, p is best) for p in paths
                                 for s, a in [p])
        return out

    def export(self, sink, prefix, a):
        """What `sink` receives for the best path's attributes a, as FRR sends it."""
        asn, _, _, up4, up6 = SINKS[sink]
        ebgp = asn != LOCAL_AS
        if rm.NO_ADVERTISE in a.comms:
            return None
        if ebgp and (rm.NO_EXPORT in a.comms or rm.LOCAL_AS in a.comms):
            return None
        b = self.bindings[(sink, afi_of(prefix))]
        if "filter-list out" in b and not self.policy.as_list_permits(b["filter-list out"],
                                                                       a.path):
            return None
        t = a.copy()
        t.weight = 0
        if ebgp and rm.EBGP_MED_FLAG_DROPPED_BEFORE_OUT_MAP:
            t.drop_med()
        if not ebgp and rm.IBGP_DEFAULT_LP_BEFORE_OUT_MAP and t.lp is None:
            t.lp = rm.DEFAULT_LP
        if "route-map out" in b:
            receiver = neighbor_addr(sink, afi_of(prefix)) if rm.OUT_MAP_PEER_MATCHES else ""
            ok, t = self.policy.route_map(b["route-map out"], ipaddress.ip_network(prefix), t,
                                          peer=receiver)
            if not ok:
                return None
        if ebgp:
            t.path = "%d %s" % (LOCAL_AS, t.path)
            t.lp = None
            if t.nexthop == a.nexthop:  # not set by the map: our address
                t.nexthop = up6 if is_v6(prefix) else up4
            if not rm.EBGP_MED_FLAG_DROPPED_BEFORE_OUT_MAP and t.med == a.med:
                t.drop_med()
        elif t.lp is None:
            t.lp = rm.DEFAULT_LP
        return row(up6 if is_v6(prefix) else up4, t, True)

    def sink(self, sink):
        """{prefix: [row]} the sink should hold."""
        out = {}
        for prefix, paths in self.accepted().items():
            got = self.export(sink, prefix, self.best(paths)[1])
            if got:
                out[prefix] = [got]
        return out

    def tables(self):
        """{router: table} for ref and its two sinks."""
        return {"ref": self.rib(), "sinkr": self.sink("sink"), "isinkr": self.sink("isink")}


# --- configs ------------------------------------------------------------------------------

def render_speaker(name):
    """dut's or ref's bgpd.conf: the same text but for hostname, router ID and ref's two
    FRR-only lines (see the top of this file)."""
    out = ["hostname %s" % name, "!",
           "! The policy: identical in dut/bgpd.conf and ref/bgpd.conf."] + POLICY + ["!"]
    if name == "ref":
        out += ["! FRR only: re-apply a changed route-map after 1 s instead of 5.",
                "bgp route-map delay-timer 1", "!"]
    out += ["router bgp %d" % LOCAL_AS,
            " bgp router-id %s" % SPEAKERS[name],
            " ! FRR needs these in the lab (RFC 8212 and zebra's RIB); skua accepts them.",
            " no bgp ebgp-requires-policy",
            " no bgp network import-check",
            " no bgp default ipv4-unicast"]
    for asn, v4, _, _ in SESSIONS.values():
        out += [" neighbor %s remote-as %d" % (v4, asn), " neighbor %s passive" % v4,
                # ExaBGP 4.2.21 resets the session when asked for a route refresh with
                # enhanced route refresh negotiated (a TypeError in its reactor); skua
                # advertises that capability only with graceful restart, so none here.
                " neighbor %s graceful-restart-disable" % v4]
    for asn, v4, v6, _, _ in SINKS.values():
        for addr in (v4, v6):
            out += [" neighbor %s remote-as %d" % (addr, asn),
                    " neighbor %s timers connect 5" % addr]
    for afi in ("ipv4", "ipv6"):
        out += [" !", " address-family %s unicast" % afi]
        for neighbor in list(SESSIONS) + list(SINKS):
            addr = neighbor_addr(neighbor, afi)
            out.append("  neighbor %s activate" % addr)
            for binding, value in sorted(BINDINGS[(neighbor, afi)].items()):
                kind, direction = binding.split()
                out.append("  neighbor %s %s %s %s" % (addr, kind, value, direction))
            if name == "ref" and neighbor in SESSIONS:
                out.append("  neighbor %s soft-reconfiguration inbound" % addr)
        out.append(" exit-address-family")
    return "\n".join(out + ["exit", ""])


def render_sink(sink, name):
    asn, v4, _, up4, up6 = SINKS[sink]
    out = ["hostname %s" % name, "!", "router bgp %d" % asn,
           " bgp router-id %s" % v4,
           " no bgp ebgp-requires-policy",
           " no bgp default ipv4-unicast"]
    for addr in (up4, up6):
        out += [" neighbor %s remote-as %d" % (addr, LOCAL_AS),
                " neighbor %s timers connect 5" % addr]
    out += [" !", " address-family ipv4 unicast", "  neighbor %s activate" % up4,
            " exit-address-family", " !", " address-family ipv6 unicast",
            "  neighbor %s activate" % up6, " exit-address-family", "exit", ""]
    return "\n".join(out)


def exabgp_path(path):
    """`65040 {65041,65045}` -> `65040 ( 65041 65045 )` (ExaBGP's AS_SET)."""
    return path.replace("{", "( ").replace("}", " )").replace(",", " ")


def render_exabgp():
    out = ["# Generated by rmap_cases.py: edit it and run it, not this file.", ""]
    for s, (asn, v4, v6, rid) in SESSIONS.items():
        routes = []
        for rt in ROUTES:
            if rt["session"] != s:
                continue
            line = "    route %s next-hop %s as-path [ %s ] origin %s" % (
                rt["prefix"], nexthop(s, rt["prefix"]), exabgp_path(rt["path"]),
                rt["origin"])
            if rt["med"] is not None:
                line += " med %d" % rt["med"]
            if rt["comms"]:
                line += " community [ %s ]" % " ".join(rt["comms"])
            routes.append("    # %s\n%s;" % (rt["case"], line))
        for speaker, addr in SPEAKERS.items():
            out += ["neighbor %s {" % addr,
                    "  description \"%s to %s\";" % (s, speaker),
                    "  router-id %s;" % rid,
                    "  local-address %s;" % v4,
                    "  local-as %d;" % asn,
                    "  peer-as %d;" % LOCAL_AS,
                    "  hold-time 30;",
                    "  capability {", "    route-refresh;", "  }",
                    "  family {", "    ipv4 unicast;", "    ipv6 unicast;", "  }",
                    "  static {"] + routes + ["  }", "}", ""]
    return "\n".join(out)


HERE = os.path.dirname(os.path.abspath(__file__))
RENDERED = {
    "dut/bgpd.conf": lambda: render_speaker("dut"),
    "ref/bgpd.conf": lambda: render_speaker("ref"),
    "sinkd/bgpd.conf": lambda: render_sink("sink", "sinkd"),
    "sinkr/bgpd.conf": lambda: render_sink("sink", "sinkr"),
    "isinkd/bgpd.conf": lambda: render_sink("isink", "isinkd"),
    "isinkr/bgpd.conf": lambda: render_sink("isink", "isinkr"),
    "inj/exabgp.conf": render_exabgp,
}


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, "..", ".."))  # tests/lab, for skualab
    from skualab import rendered
    rendered.write_all(HERE, RENDERED)
