#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The prefix-list scenario's data: sessions, routes, the policy, the live changes, configs.

One ExaBGP router (inj) speaks as three eBGP neighbours, each to skua (dut) and to FRR (ref),
both AS 65000 and not peering with each other.  Each neighbour is filtered inbound by its own
list; dut and ref each advertise to their own sink (FRR, AS 65100) through an outbound list.
The two sink links use the same addresses, so the sinks' tables compare as they are.

    a  AS 65010  192.0.2.11  2001:db8:0:1::11  in: IN4 / IN6 (seq order, ranges, implicit deny)
    b  AS 65020  192.0.2.12  2001:db8:0:1::12  in: EMPTY4 / EMPTY6 (description only)
    c  AS 65030  192.0.2.13  2001:db8:0:1::13  in: NOSUCH4 / NOSUCH6 (name of no list)
    dut/ref -> sink   192.0.2.66, 2001:db8:0:2::2   out: OUT4 / OUT6 (auto seq, `any`)

Every route is eBGP; where a and b announce the same prefix their AS paths differ in length,
so the best path follows from which of them the inbound lists let in.  dut's and ref's
configs differ only in hostname, router ID and ref's `soft-reconfiguration inbound` towards
inj; the prefix lists and neighbour bindings are the same text.  FRR needs the kept
Adj-RIB-In because it negotiates enhanced route refresh (RFC 7313) and ExaBGP 4.2 drops the
session when it answers one (it wraps its BoRR marker in an UPDATE and fails to encode it),
so FRR's own re-evaluation (`clear bgp * soft in`, or a changed `neighbor ... prefix-list`)
would reset the session instead.  skua asks for plain route refreshes, which ExaBGP answers.

Run this file to regenerate the configs after editing; a test checks that the files on disk
are what it renders.
"""

import os
import sys

import plist_model

LAN4_LEN = 26
SINK_AS = 65100
UPLINK4, UPLINK6 = "192.0.2.65", "2001:db8:0:2::1"  # dut's and ref's end of their sink link
SINK4, SINK6 = "192.0.2.66", "2001:db8:0:2::2"
SPEAKERS = {"dut": "192.0.2.1", "ref": "192.0.2.2"}  # name: address on the LAN = router ID
SESSIONS = {  # name: (AS, IPv4, IPv6 next hop, router id)
    "a": (65010, "192.0.2.11", "2001:db8:0:1::11", "203.0.113.11"),
    "b": (65020, "192.0.2.12", "2001:db8:0:1::12", "203.0.113.12"),
    "c": (65030, "192.0.2.13", "2001:db8:0:1::13", "203.0.113.13"),
}

# The lists as written in both configs.  IN4's seq 40 comes first on purpose (the list is
# kept in seq order, and seq 5 shadows it); OUT4 has no seq numbers (5, then 12 -> 15).
POLICY = [
    "ip prefix-list IN4 description a's IPv4: seq order, le, ge, ge+le, exact, implicit deny",
    "ip prefix-list IN4 seq 40 permit 198.51.100.128/25 ge 27 le 28",
    "ip prefix-list IN4 seq 5 deny 198.51.100.128/25 ge 27 le 28",
    "ip prefix-list IN4 seq 10 permit 198.51.100.0/24 le 26",
    "ip prefix-list IN4 seq 15 permit 198.51.100.0/24 ge 30 le 32",
    "ip prefix-list IN4 seq 20 permit 203.0.113.0/24",
    "ip prefix-list IN4 seq 25 deny 203.0.113.0/25 ge 26",
    "ip prefix-list IN4 seq 30 permit 203.0.113.0/24 ge 25 le 29",
    "ip prefix-list EMPTY4 description no entry: permits everything",
    "ip prefix-list OUT4 deny 198.51.100.0/24 ge 31",
    "ip prefix-list OUT4 seq 12 deny 192.0.2.224/27 le 32",
    "ip prefix-list OUT4 permit any",
    "ipv6 prefix-list IN6 seq 10 permit 2001:db8:1000::/36 le 48",
    "ipv6 prefix-list IN6 seq 20 deny 2001:db8:2000::/36 ge 56 le 60",
    "ipv6 prefix-list IN6 seq 30 permit 2001:db8:2000::/36 ge 48",
    "ipv6 prefix-list IN6 seq 40 permit 2001:db8:3000::/48",
    "ipv6 prefix-list EMPTY6 description no entry: permits everything",
    "ipv6 prefix-list OUT6 seq 5 deny 2001:db8:1000::/36 ge 40 le 44",
    "ipv6 prefix-list OUT6 seq 10 permit 2001:db8::/32 le 56",
]

# (neighbour, afi, direction): list name
BINDINGS = {
    ("a", "ipv4", "in"): "IN4", ("a", "ipv6", "in"): "IN6",
    ("b", "ipv4", "in"): "EMPTY4", ("b", "ipv6", "in"): "EMPTY6",
    ("c", "ipv4", "in"): "NOSUCH4", ("c", "ipv6", "in"): "NOSUCH6",
    ("sink", "ipv4", "out"): "OUT4", ("sink", "ipv6", "out"): "OUT6",
}


def r(case, session, prefix, path=None, origin="igp", med=None):
    """One announcement; the AS path defaults to the session's AS alone."""
    return {"case": case, "session": session, "prefix": prefix,
            "path": path or str(SESSIONS[session][0]), "origin": origin, "med": med}


ROUTES = [
    # a, IN4 seq 10 (le 26 inside 198.51.100.0/24)
    r("in-le", "a", "198.51.100.0/24", med=10),
    r("in-le", "a", "198.51.100.0/25"),
    r("in-le", "a", "198.51.100.64/26", origin="egp"),
    r("in-le", "a", "198.51.100.128/25", path="65010 65011"),
    r("in-le", "a", "198.51.100.192/26", origin="incomplete"),
    # a, IN4 seq 15 (ge 30, written `le 32`)
    r("in-ge", "a", "198.51.100.4/30"),
    r("in-ge", "a", "198.51.100.2/31", med=0),
    r("in-ge", "a", "198.51.100.1/32"),
    r("in-ge", "a", "198.51.100.252/30"),
    # a, IN4 seq 5 deny decides before seq 40 permit of the same range
    r("in-seq-order", "a", "198.51.100.160/27"),
    r("in-seq-order", "a", "198.51.100.176/28"),
    # a, IN4 no entry matches
    r("in-implicit-deny", "a", "198.51.100.16/28"),
    r("in-implicit-deny", "a", "198.51.100.8/29"),
    r("in-implicit-deny", "a", "198.51.100.200/29"),
    r("in-implicit-deny", "a", "203.0.113.252/30"),
    r("in-implicit-deny", "a", "203.0.113.255/32"),
    # a, IN4 seq 20 (exact)
    r("in-exact", "a", "203.0.113.0/24", med=30),
    # a, IN4 seq 25 deny ge 26 before seq 30 permit ge 25 le 29
    r("in-deny-range", "a", "203.0.113.64/26"),
    r("in-deny-range", "a", "203.0.113.96/27"),
    r("in-ge-le", "a", "203.0.113.0/25"),
    r("in-ge-le", "a", "203.0.113.128/25"),
    r("in-ge-le", "a", "203.0.113.192/26"),
    r("in-ge-le", "a", "203.0.113.224/27", path="65010 65012 65013"),
    r("in-ge-le", "a", "203.0.113.240/28"),
    r("in-ge-le", "a", "203.0.113.248/29"),
    # b, the empty list; OUT4 seq 12 withholds 192.0.2.224/27 and longer from the sinks
    r("in-empty-list", "b", "192.0.2.128/26"),
    r("in-empty-list", "b", "192.0.2.192/27", med=7),
    r("in-empty-list", "b", "192.0.2.224/27"),
    r("in-empty-list", "b", "192.0.2.240/28"),
    r("in-empty-list", "b", "192.0.2.255/32"),
    # c, a list that does not exist
    r("in-missing-list", "c", "192.0.2.160/27"),
    r("in-missing-list", "c", "192.0.2.176/28"),
    # a and b announce the same prefix: b's longer path wins only where IN4 drops a's
    r("best-after-filter", "a", "198.51.100.32/27"),
    r("best-after-filter", "b", "198.51.100.32/27", path="65020 65021"),
    r("best-after-filter", "a", "198.51.100.96/27"),
    r("best-after-filter", "b", "198.51.100.96/27", path="65020 65021"),
    r("best-after-filter", "a", "198.51.100.64/27"),
    r("best-after-filter", "b", "198.51.100.64/27", path="65020 65021 65022"),
    r("best-after-filter", "a", "198.51.100.0/26"),
    r("best-after-filter", "b", "198.51.100.0/26", path="65020 65021"),
    # IPv6: a, IN6
    r("v6-in-le", "a", "2001:db8:1000::/36"),
    r("v6-in-le", "a", "2001:db8:1000::/40"),
    r("v6-in-le", "a", "2001:db8:1100::/44", med=5),
    r("v6-in-le", "a", "2001:db8:1100::/48"),
    r("v6-in-le", "a", "2001:db8:1000:100::/56"),
    r("v6-in-le", "a", "2001:db8:1000::/64"),
    r("v6-in-ge-le", "a", "2001:db8:2000::/36"),
    r("v6-in-ge-le", "a", "2001:db8:2000::/48", origin="egp"),
    r("v6-in-ge-le", "a", "2001:db8:2000:1000::/52"),
    r("v6-in-ge-le", "a", "2001:db8:2000::/56"),
    r("v6-in-ge-le", "a", "2001:db8:2000:10::/60"),
    r("v6-in-ge-le", "a", "2001:db8:2000:20::/64"),
    r("v6-in-exact", "a", "2001:db8:3000::/47"),
    r("v6-in-exact", "a", "2001:db8:3000::/48"),
    r("v6-in-exact", "a", "2001:db8:3000::/49"),
    r("v6-in-implicit-deny", "a", "2001:db8:4000::/48"),
    r("v6-in-empty-list", "b", "2001:db8:5000::/48"),
    r("v6-in-empty-list", "b", "2001:db8:5000:1::/64"),
    r("v6-in-missing-list", "c", "2001:db8:6000::/48"),
    r("v6-best-after-filter", "a", "2001:db8:1000:200::/56"),
    r("v6-best-after-filter", "b", "2001:db8:1000:200::/56", path="65020 65021"),
    r("v6-best-after-filter", "a", "2001:db8:1200::/48"),
    r("v6-best-after-filter", "b", "2001:db8:1200::/48", path="65020 65021"),
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


# --- the live changes, made on dut and ref alike ------------------------------------------

def bind_lines(neighbor, afi, direction, name, negate=False):
    """vtysh lines setting or removing one neighbour's list (as a `configure terminal`)."""
    addr = {"sink": SINK4 if afi == "ipv4" else SINK6}.get(neighbor)
    addr = addr or SESSIONS[neighbor][1]
    return ["router bgp 65000", "address-family %s unicast" % afi,
            "%sneighbor %s prefix-list %s %s" % ("no " if negate else "", addr, name, direction),
            "exit-address-family", "exit"]


# (step, [config lines], {binding: new name or None}): applied in this order.
STEPS = [
    ("add-deny-entries",
     ["ip prefix-list IN4 seq 8 deny 198.51.100.0/25 le 26",
      "ipv6 prefix-list OUT6 seq 7 deny 2001:db8:5000::/48"], {}),
    ("delete-entries",
     ["no ip prefix-list IN4 seq 25",
      "no ip prefix-list OUT4 deny 198.51.100.0/24 ge 31",
      "no ipv6 prefix-list IN6 seq 20 deny 2001:db8:2000::/36 ge 56 le 60"], {}),
    ("create-missing-list",
     ["ip prefix-list NOSUCH4 seq 5 permit 192.0.2.160/27"], {}),
    ("remove-bindings",
     bind_lines("a", "ipv4", "in", "IN4", negate=True)
     + bind_lines("sink", "ipv6", "out", "OUT6", negate=True),
     {("a", "ipv4", "in"): None, ("sink", "ipv6", "out"): None}),
    # Last, as it leaves OUT4 different where its auto seq differs: the entry written
    # without seq got the one before + 5 (12 -> 17 in FRR 8.4), so seq 16 goes before
    # `permit any` and withholds 203.0.113.128/25 and longer from the sinks.
    ("insert-before-auto-seq",
     ["ip prefix-list OUT4 seq 16 deny 203.0.113.128/25 le 32"], {}),
]


def is_list_command(line):
    """`[no] ip|ipv6 prefix-list ...` (as opposed to router bgp lines)."""
    words = line.split()
    if words[:1] == ["no"]:
        words = words[1:]
    return words[:1] in (["ip"], ["ipv6"]) and words[1:2] == ["prefix-list"]


class State:
    """The policy in force and the tables it should give."""

    def __init__(self):
        self.policy = plist_model.Policy(POLICY)
        self.bindings = dict(BINDINGS)

    def apply(self, step):
        _, lines, rebind = step
        for line in lines:
            if is_list_command(line):
                self.policy.command(line)
        self.bindings.update(rebind)

    def rib(self):
        """{prefix: {next hop: (AS path, best)}} dut and ref should hold."""
        out = {}
        for rt in ROUTES:
            afi = afi_of(rt["prefix"])
            name = self.bindings.get((rt["session"], afi, "in"))
            if self.policy.permits(afi, name, rt["prefix"]):
                out.setdefault(rt["prefix"], {})[nexthop(rt["session"], rt["prefix"])] = \
                    rt["path"]
        rib = {}
        for prefix, paths in out.items():
            lengths = sorted(len(p.split()) for p in paths.values())
            assert len(lengths) < 2 or lengths[0] < lengths[1], "tie at %s" % prefix
            best = min(paths, key=lambda nh: len(paths[nh].split()))
            rib[prefix] = {nh: (path, nh == best) for nh, path in paths.items()}
        return rib

    def sink(self):
        """{prefix: AS path} each sink should receive."""
        out = {}
        for prefix, paths in self.rib().items():
            afi = afi_of(prefix)
            if self.policy.permits(afi, self.bindings.get(("sink", afi, "out")), prefix):
                best = [path for path, is_best in paths.values() if is_best][0]
                out[prefix] = "65000 " + best
        return out


# --- configs ------------------------------------------------------------------------------

def render_speaker(name):
    """dut's or ref's bgpd.conf: the same text but for hostname, router ID and ref's kept
    Adj-RIB-In (see the top of this file)."""
    rid = SPEAKERS[name]
    out = ["hostname %s" % name, "!",
           "! The policy: identical in dut/bgpd.conf and ref/bgpd.conf."] + POLICY + [
        "!", "router bgp 65000",
        " bgp router-id %s" % rid,
        " ! FRR needs these in the lab (RFC 8212 and zebra's RIB); skua accepts them.",
        " no bgp ebgp-requires-policy",
        " no bgp network import-check",
        " no bgp default ipv4-unicast"]
    for s, (asn, v4, _, _) in SESSIONS.items():
        out += [" neighbor %s remote-as %d" % (v4, asn), " neighbor %s passive" % v4,
                # ExaBGP 4.2.21 resets the session when asked for a route refresh with
                # enhanced route refresh negotiated (a TypeError in its reactor); skua
                # advertises that capability only with graceful restart, so none here.
                " neighbor %s graceful-restart-disable" % v4]
    for addr in (SINK4, SINK6):
        out += [" neighbor %s remote-as %d" % (addr, SINK_AS),
                " neighbor %s timers connect 5" % addr]
    for afi in ("ipv4", "ipv6"):
        out += [" !", " address-family %s unicast" % afi]
        for s, (_, v4, _, _) in SESSIONS.items():
            out += ["  neighbor %s activate" % v4,
                    "  neighbor %s prefix-list %s in" % (v4, BINDINGS[(s, afi, "in")])]
            if name == "ref":
                out.append("  neighbor %s soft-reconfiguration inbound" % v4)
        sink = SINK4 if afi == "ipv4" else SINK6
        out += ["  neighbor %s activate" % sink,
                "  neighbor %s prefix-list %s out" % (sink, BINDINGS[("sink", afi, "out")]),
                " exit-address-family"]
    return "\n".join(out + ["exit", ""])


def render_sink(name):
    out = ["hostname %s" % name, "!", "router bgp %d" % SINK_AS,
           " bgp router-id %s" % SINK4,
           " no bgp ebgp-requires-policy",
           " no bgp default ipv4-unicast"]
    for addr in (UPLINK4, UPLINK6):
        out += [" neighbor %s remote-as 65000" % addr, " neighbor %s timers connect 5" % addr]
    out += [" !", " address-family ipv4 unicast", "  neighbor %s activate" % UPLINK4,
            " exit-address-family", " !", " address-family ipv6 unicast",
            "  neighbor %s activate" % UPLINK6, " exit-address-family", "exit", ""]
    return "\n".join(out)


def render_exabgp():
    out = ["# Generated by plist_cases.py: edit it and run it, not this file.", ""]
    for s, (asn, v4, v6, rid) in SESSIONS.items():
        routes = []
        for rt in ROUTES:
            if rt["session"] != s:
                continue
            line = "    route %s next-hop %s as-path [ %s ] origin %s" % (
                rt["prefix"], nexthop(s, rt["prefix"]), rt["path"], rt["origin"])
            if rt["med"] is not None:
                line += " med %d" % rt["med"]
            routes.append("    # %s\n%s;" % (rt["case"], line))
        for speaker, addr in SPEAKERS.items():
            out += ["neighbor %s {" % addr,
                    "  description \"%s to %s\";" % (s, speaker),
                    "  router-id %s;" % rid,
                    "  local-address %s;" % v4,
                    "  local-as %d;" % asn,
                    "  peer-as 65000;",
                    "  hold-time 30;",
                    "  capability {", "    route-refresh;", "  }",
                    "  family {", "    ipv4 unicast;", "    ipv6 unicast;", "  }",
                    "  static {"] + routes + ["  }", "}", ""]
    return "\n".join(out)


HERE = os.path.dirname(os.path.abspath(__file__))
RENDERED = {
    "dut/bgpd.conf": lambda: render_speaker("dut"),
    "ref/bgpd.conf": lambda: render_speaker("ref"),
    "sinkd/bgpd.conf": lambda: render_sink("sinkd"),
    "sinkr/bgpd.conf": lambda: render_sink("sinkr"),
    "inj/exabgp.conf": render_exabgp,
}


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, "..", ".."))  # tests/lab, for skualab
    from skualab import rendered
    rendered.write_all(HERE, RENDERED)
