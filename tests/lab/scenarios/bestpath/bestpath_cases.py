#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The best-path route set: one prefix per tie-breaker, with the path that must win.

Four ExaBGP injectors on one LAN send the same routes to skua (dut) and to FRR (ref), both
AS 65000, which do not peer with each other.  Every case is built so that the rule it tests
decides, and so that the rules after it would pick another path (a wrong order shows).

    x1  AS 65010 eBGP  192.0.2.11  router-id 203.0.113.9
    x2  AS 65020 eBGP  192.0.2.12  router-id 203.0.113.2
    x3  AS 65000 iBGP  192.0.2.13  router-id 203.0.113.3
    x4  AS 65000 iBGP  192.0.2.14  router-id 203.0.113.3   (same id as x3, on purpose)

Decision order (RFC 4271 9.1.2.2, RFC 4456 9, and what every implementation adds):
highest LOCAL_PREF (eBGP-learned: ignored, 100) > locally originated > shortest AS_PATH
(an AS_SET counts 1) > lowest ORIGIN > lowest MED among paths from the same neighbouring AS
(missing = 0) > eBGP over iBGP > (IGP cost to next hop: all equal here, connected) > lowest
router ID (ORIGINATOR_ID when present) > shortest CLUSTER_LIST > lowest peer address.

Both need `bgp bestpath compare-routerid` for the router-ID step between eBGP paths (FRR's
and skua's default keeps the oldest eBGP path, RFC 5004, which depends on arrival order);
both configs have it.

Run this file to regenerate x1..x4/exabgp.conf after editing CASES; the test checks that the
files on disk are what this file renders.
"""

import os

LAN4, LAN6 = "192.0.2.0/25", "2001:db8:0:1::/64"
DUT4, REF4 = "192.0.2.1", "192.0.2.2"
INJECTORS = {  # name: (AS, IPv4, IPv6, router id)
    "x1": (65010, "192.0.2.11", "2001:db8:0:1::11", "203.0.113.9"),
    "x2": (65020, "192.0.2.12", "2001:db8:0:1::12", "203.0.113.2"),
    "x3": (65000, "192.0.2.13", "2001:db8:0:1::13", "203.0.113.3"),
    "x4": (65000, "192.0.2.14", "2001:db8:0:1::14", "203.0.113.3"),
}
LOCAL = "local"  # winner: the route dut/ref originate themselves (`network`)


def r(path, origin="igp", med=None, lp=None, extra="", nh=None):
    return {"path": path, "origin": origin, "med": med, "lp": lp, "extra": extra, "nh": nh}


# (prefix, rule, {injector: route}, winner)
CASES = [
    ("198.51.100.0/29", "local-pref",
     {"x1": r("65010"), "x3": r("65030 65031 65032", lp=200)}, "x3"),
    ("198.51.100.8/29", "local-pref-lower-loses",
     {"x1": r("65010 65011 65012"), "x3": r("65030", lp=50)}, "x1"),
    ("198.51.100.16/29", "local-pref-from-ebgp-ignored",
     {"x1": r("65010 65011", lp=500), "x2": r("65020")}, "x2"),
    ("198.51.100.24/29", "as-path-length",
     {"x1": r("65010 65011"), "x2": r("65020")}, "x2"),
    ("198.51.100.32/29", "as-set-counts-one",
     {"x1": r("65010 ( 65011 65012 65013 )"), "x2": r("65020 65021 65022")}, "x1"),
    ("198.51.100.40/29", "origin-igp-over-egp",
     {"x1": r("65010", origin="egp"), "x2": r("65020")}, "x2"),
    ("198.51.100.48/29", "origin-egp-over-incomplete",
     {"x1": r("65010", origin="egp"), "x2": r("65020", origin="incomplete")}, "x1"),
    ("198.51.100.56/29", "as-path-before-origin",
     {"x1": r("65010", origin="incomplete"), "x2": r("65020 65021")}, "x1"),
    ("198.51.100.64/29", "med-same-neighbour-as",
     {"x3": r("65010 65099", med=10, lp=100), "x1": r("65010 65099", med=50)}, "x3"),
    ("198.51.100.72/29", "med-missing-is-zero",
     {"x3": r("65010 65099", lp=100), "x1": r("65010 65099", med=5)}, "x3"),
    ("198.51.100.80/29", "med-not-compared-across-as",
     {"x1": r("65010", med=0), "x2": r("65020", med=100)}, "x2"),
    ("198.51.100.88/29", "origin-before-med",
     {"x3": r("65010 65099", med=100, lp=100), "x1": r("65010 65099", origin="egp", med=0)},
     "x3"),
    ("198.51.100.96/29", "ebgp-over-ibgp",
     {"x1": r("65010 65099"), "x3": r("65030 65099", lp=100)}, "x1"),
    ("198.51.100.104/29", "router-id-ebgp",
     {"x1": r("65010"), "x2": r("65020")}, "x2"),
    ("198.51.100.112/29", "originator-id-as-router-id",
     {"x3": r("65099", lp=100), "x4": r("65099", lp=100, extra="originator-id 203.0.113.1")},
     "x4"),
    ("198.51.100.120/29", "cluster-list-length",
     {"x3": r("65099", lp=100,
              extra="originator-id 203.0.113.50 cluster-list [ 203.0.113.60 203.0.113.61 ]"),
      "x4": r("65099", lp=100, extra="originator-id 203.0.113.50 cluster-list [ 203.0.113.60 ]")},
     "x4"),
    ("198.51.100.128/29", "peer-address",
     {"x3": r("65099", lp=100), "x4": r("65099", lp=100)}, "x3"),
    ("198.51.100.136/29", "locally-originated",
     {"x1": r("65010"), "x3": r("65030", lp=100)}, LOCAL),
    ("198.51.100.144/29", "origin-decides-among-three",
     {"x1": r("65010 65011"), "x2": r("65020", origin="egp"), "x3": r("65030", lp=100)}, "x3"),
    ("2001:db8:f000:1::/64", "v6-as-path-length",
     {"x1": r("65010 65011"), "x2": r("65020")}, "x2"),
    ("2001:db8:f000:2::/64", "v6-med-same-neighbour-as",
     {"x3": r("65010 65099", med=10, lp=100), "x1": r("65010 65099", med=50)}, "x3"),
    ("2001:db8:f000:3::/64", "v6-router-id-ebgp",
     {"x1": r("65010"), "x2": r("65020")}, "x2"),
    ("2001:db8:f000:4::/64", "v6-local-pref",
     {"x1": r("65010"), "x3": r("65030 65031", lp=200)}, "x3"),
]
LOCAL_NETWORKS = [p for p, _, _, w in CASES if w == LOCAL]

# The IGP metric to the next hop (FRR's step between eBGP-over-iBGP and the router ID): x3's
# and x4's next hops are off the LAN, resolved through kernel routes the test adds to dut's
# and ref's namespaces with the metrics it chooses (without them the paths are unusable).
# Left alone, x3 would win (same router id, lower peer address).
IGP_PREFIX = "198.51.100.152/29"
IGP_NEXTHOPS = {"x3": "203.0.113.103", "x4": "203.0.113.104"}
IGP_CASES = [
    (IGP_PREFIX, "igp-metric",
     {n: r("65099", lp=100, nh=IGP_NEXTHOPS[n]) for n in IGP_NEXTHOPS}, None),
]


def is_v6(prefix):
    return ":" in prefix


def frr_path(path):
    """The AS path as FRR prints it in JSON: an AS_SET as {a,b,c}."""
    if "(" not in path:
        return path
    seq, _, rest = path.partition("(")
    members = rest.replace(")", "").split()
    return (seq.strip() + " {" + ",".join(members) + "}").strip()


def winner_nexthop(prefix, winner):
    if winner == LOCAL:
        return LOCAL
    asn, v4, v6, _ = INJECTORS[winner]
    return v6 if is_v6(prefix) else v4


def render_exabgp(name):
    asn, v4, v6, rid = INJECTORS[name]
    routes = []
    for prefix, rule, paths, _ in CASES + IGP_CASES:
        if name not in paths:
            continue
        p = paths[name]
        line = "    route %s next-hop %s as-path [ %s ] origin %s" % (
            prefix, p["nh"] or (v6 if is_v6(prefix) else v4), p["path"], p["origin"])
        if p["med"] is not None:
            line += " med %d" % p["med"]
        if p["lp"] is not None:
            line += " local-preference %d" % p["lp"]
        if p["extra"]:
            line += " " + p["extra"]
        routes.append("    # %s\n%s;" % (rule, line))
    out = ["# Generated by bestpath_cases.py: edit CASES there and run it, not this file.", ""]
    for peer in (DUT4, REF4):
        out += ["neighbor %s {" % peer,
                "  description \"%s to %s\";" % (name, "dut" if peer == DUT4 else "ref"),
                "  router-id %s;" % rid,
                "  local-address %s;" % v4,
                "  local-as %d;" % asn,
                "  peer-as 65000;",
                "  hold-time 30;",
                "  family {", "    ipv4 unicast;", "    ipv6 unicast;", "  }",
                "  static {"] + routes + ["  }", "}", ""]
    return "\n".join(out)


def config_path(name):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name, "exabgp.conf")


if __name__ == "__main__":
    for n in INJECTORS:
        os.makedirs(os.path.dirname(config_path(n)), exist_ok=True)
        with open(config_path(n), "w") as f:
            f.write(render_exabgp(n))
        print("wrote", config_path(n))
