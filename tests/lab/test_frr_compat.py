# SPDX-License-Identifier: ISC
"""FRR compatibility (issue 4, must-show 4): a configuration FRR 8.4 accepts loads unchanged into
skua's bgpd and gives the same sessions.

Scenario tests/lab/scenarios/frr_compat: router a (the one under test) between b (FRR, AS 65002,
eBGP) and c (FRR, AS 65001, iBGP), IPv4 and IPv6 on both links. For every case (a text F for a,
and the matching configs of b and c in cases/<case>/, the first case in a/, b/, c/):

 1. FRR accepts F: FRR's own bgpd -C has nothing to say about it, and FRR running F on a prints
    (vtysh `show running-config`) F's `router bgp` block line for line and F's other lines.
    Sessions and prefixes come up as designed; every router's view is recorded (JSON).
 2. skua runs on a with the SAME text F, and then with what FRR printed in step 1 (what an
    operator pastes). Each time: skua's bgpd -C accepts it; b and c (the same FRR configs as in
    step 1) see the same sessions and the same routes from a, compared through FRR's JSON; a's
    own view (sessions, neighbor details, routes) is the same as FRR's was, compared through
    the JSON both print with FRR's keys; and skua prints the `router bgp` block exactly as FRR
    did.

From FRR's printout only the lines of FRR's other daemons are taken out before skua gets it
(zebra's `[no] ip|ipv6 forwarding`, and `bgp no-rib`, which FRR prints because the lab starts
its bgpd with -n): skua has no zebra and never installs routes. Everything else FRR printed,
including the `Building configuration...` header, `frr version`, `frr defaults traditional`,
vtysh's `service integrated-vtysh-config` and zebra's `hostname` line, goes to skua unchanged.

Every daemon runs fresh for every run (new run directory, logs kept there): a session that
stayed up from an earlier run proves nothing. Waits are bounded; a mismatch lists each
differing JSON path with both values.

SKUALAB_STANDIN=frr runs the "skua" side with FRR's bgpd: the test then compares FRR with FRR
and must pass, which proves the test itself.

Run: sudo SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_frr_compat.py -v
"""

import copy
import difflib
import json
import os
import subprocess
import time

import pytest

from skualab import Lab
from skualab.jsoncmp import side_by_side
from skualab.daemons import FRR_DIR, FrrBgpd, SkuaBgpd, StandinBgpd, daemon_class, tail
from skualab.topology import Topology

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "scenarios", "frr_compat")
SCENARIOS = os.path.join(HERE, "scenarios")

pytestmark = pytest.mark.timeout(240)

ESTABLISH = 60  # seconds for the sessions of one run
CONVERGE = 30  # seconds for the designed prefixes, once the sessions are up
SETTLE = 20  # seconds for the views to stop changing

# Lines FRR's vtysh prints that belong to FRR daemons skua does not replace: zebra's (the lab
# runs zebra beside FRR's bgpd) and bgpd's `-n` command-line option.
FOREIGN_LINES = ("no ip forwarding", "ip forwarding", "no ipv6 forwarding", "ipv6 forwarding",
                 "bgp no-rib")

# Lines of FRR's printout that FRR's vtysh consumes and FRR's bgpd does not take (skua takes
# them); only the stand-in (FRR's bgpd as "skua") is spared them.
VTYSH_LINES = ("Building configuration...", "Current configuration:",
               "service integrated-vtysh-config")

# What is compared of `show ip bgp neighbors X json`, FRR's keys (skua prints the same).
NEIGHBOR_KEYS = ("bgpState", "remoteAs", "localAs", "nbrDesc", "nbrExternalLink",
                 "nbrInternalLink", "remoteRouterId", "localRouterId", "bgpTimerHoldTimeMsecs",
                 "bgpTimerKeepAliveIntervalMsecs", "bgpTimerConfiguredHoldTimeMsecs",
                 "bgpTimerConfiguredKeepAliveIntervalMsecs", "externalBgpNbrMaxHopsAway",
                 "internalBgpNbrMaxHopsAway")

A4_B, A6_B = "192.0.2.1", "2001:db8:0:1::1"  # a's addresses on its link with b
A4_C, A6_C = "192.0.2.5", "2001:db8:0:2::1"  # ... with c
B4, B6 = "192.0.2.2", "2001:db8:0:1::2"
C4, C6 = "192.0.2.6", "2001:db8:0:2::2"

# When skua cannot sign (TCP-MD5) or set and check the TTL (GTSM) of its sessions, set this to
# the reason, and the password and ttl_security cases are expected to fail (strict: once they
# pass, pytest reports it and the mark must go). None: bgpd/session/bgp_security.c does both.
SECURITY_XFAIL = None


class Case:
    """One configuration for a and its designed outcome.

    sessions: {router: [peer addresses that must be Established]}
    prefixes: {router: {"ipv4"|"ipv6": [prefixes it must have]}}
    details: {router: {"ipv4"|"ipv6": [prefixes]}} whose attributes (`show bgp ... PREFIX json`:
             AS path, origin, MED, local preference, ATOMIC_AGGREGATE, AGGREGATOR) are compared
    peer_checks: {router: {peer address: {neighbor JSON subset}}} designed details
    """

    def __init__(self, name, directory, sessions, prefixes, peer_checks=None, xfail=None,
                 details=None):
        self.name = name
        self.dir = directory
        self.sessions = sessions
        self.prefixes = prefixes
        self.peer_checks = peer_checks or {}
        self.xfail = xfail
        self.details = details or {}

    def conf(self, router):
        """The config text of router a, b or c for this case."""
        if self.dir is None:
            path = os.path.join(SCENARIO, router, "bgpd.conf")
        else:
            path = os.path.join(SCENARIO, "cases", self.dir, router + ".conf")
        with open(path) as f:
            return f.read()

    def __repr__(self):
        return self.name


def hold(seconds, keepalive):
    return {"bgpTimerHoldTimeMsecs": seconds * 1000,
            "bgpTimerKeepAliveIntervalMsecs": keepalive * 1000}


CASES = [
    # eBGP and iBGP, IPv4 and IPv6, descriptions, global and per-neighbor timers, timers
    # connect, remote-as as a number, `internal` and `external`, FRR's lines.
    Case("ebgp_ibgp", None,
         sessions={"a": [B4, B6, C4, C6], "b": [A4_B, A6_B], "c": [A4_C, A6_C]},
         prefixes={
             "a": {"ipv4": ["198.51.100.0/28", "198.51.100.128/28", "198.51.100.16/28",
                            "198.51.100.32/28"],
                   "ipv6": ["2001:db8:100::/48", "2001:db8:101::/48", "2001:db8:102::/48"]},
             "b": {"ipv4": ["198.51.100.0/28", "198.51.100.128/28", "198.51.100.32/28"],
                   "ipv6": ["2001:db8:100::/48", "2001:db8:102::/48"]},
             "c": {"ipv4": ["198.51.100.0/28", "198.51.100.128/28", "198.51.100.16/28"],
                   "ipv6": ["2001:db8:100::/48", "2001:db8:101::/48"]}},
         # a offers hold times 15 (neighbor timers 5 15), 60 (timers bgp 20 60) and 30
         # (neighbor timers 10 30); b and c (180) take the smaller one and a third of it.
         peer_checks={"b": {A4_B: hold(15, 5), A6_B: hold(60, 20)},
                      "c": {A4_C: hold(60, 20), A6_C: hold(30, 10)},
                      "a": {B4: {"nbrDesc": "b over IPv4 (eBGP)"}}}),
    # aggregate-address, IPv4 and IPv6: present while a more specific route is (a's own, b's,
    # c's), absent without one (203.0.113.0/24); what b (eBGP) and c (iBGP) receive carries
    # ATOMIC_AGGREGATE and AGGREGATOR as FRR sends them; the IPv6 one is summary-only: b gets
    # the aggregate and not a's 2001:db8:100::/48 (the snapshot would show it). The IPv4 one is
    # as-set: c gets the path {65002} without ATOMIC_AGGREGATE, and b, whose AS is in the
    # set, drops it (its table is compared too).
    # With `network P route-map NAME`: TAG's sets (MED, communities) reach b and c, and the
    # as-set aggregate carries the contributor's communities; DROP denies, so 198.51.100.96/28
    # is nowhere (the snapshots would show it). The other options (IPv6, seen by b; in FRR's
    # printed order, which check_config's unit tests take in any order): matching-MED-only
    # with MEDs 0 and 20 (no aggregate, nothing held back: 300::/40) and with equal MEDs
    # (700::/40, summary-only); route-map AGG's sets and origin incomplete (400::/40);
    # suppress-map SUP holding back 500::/48 only; route-map DROP denying the aggregate,
    # which then holds nothing back (600::/48).
    # default-originate: to c (iBGP) and to b over IPv6 unconditionally; to b over IPv4 with
    # route-map DEFCOND, which matches b's own 198.51.100.16/28 and sets a community and MED
    # 30; a's neighbor view says it is sent.
    Case("aggregate", "aggregate",
         sessions={"a": [B4, B6, C4], "b": [A4_B, A6_B], "c": [A4_C]},
         prefixes={
             "a": {"ipv4": ["198.51.100.0/24", "198.51.100.0/28", "198.51.100.16/28",
                            "198.51.100.32/28", "198.51.100.64/28"],
                   "ipv6": ["2001:db8:100::/40", "2001:db8:100::/48", "2001:db8:101::/48",
                            "2001:db8:200::/48", "2001:db8:300::/48", "2001:db8:301::/48",
                            "2001:db8:400::/40", "2001:db8:400::/48", "2001:db8:500::/40",
                            "2001:db8:500::/48", "2001:db8:501::/48", "2001:db8:600::/48",
                            "2001:db8:700::/40", "2001:db8:700::/48", "2001:db8:701::/48"]},
             "b": {"ipv4": ["0.0.0.0/0", "198.51.100.0/28", "198.51.100.32/28",
                            "198.51.100.64/28"],
                   "ipv6": ["::/0", "2001:db8:100::/40", "2001:db8:200::/48", "2001:db8:300::/48",
                            "2001:db8:301::/48", "2001:db8:400::/40", "2001:db8:500::/40",
                            "2001:db8:501::/48", "2001:db8:600::/48", "2001:db8:700::/40"]},
             "c": {"ipv4": ["0.0.0.0/0", "198.51.100.0/24", "198.51.100.0/28",
                            "198.51.100.16/28", "198.51.100.64/28"]}},
         details={"b": {"ipv4": ["0.0.0.0/0", "198.51.100.0/24", "198.51.100.64/28"],
                        "ipv6": ["::/0", "2001:db8:100::/40", "2001:db8:200::/48",
                                 "2001:db8:400::/40", "2001:db8:500::/40",
                                 "2001:db8:700::/40"]},
                  "c": {"ipv4": ["0.0.0.0/0", "198.51.100.0/24", "198.51.100.64/28"]}},
         peer_checks={"a": {B4: {"addressFamilyInfo": {"ipv4Unicast": {"defaultSent": True}}},
                            C4: {"addressFamilyInfo": {"ipv4Unicast": {"defaultSent": True}}},
                            B6: {"addressFamilyInfo": {"ipv6Unicast": {"defaultSent": True}}}}}),
    # passive, ebgp-multihop, update-source, shutdown, `bgp default ipv4-unicast` left on.
    Case("options", "options",
         sessions={"a": [B4, B6, C4], "b": [A4_B, A6_B], "c": [A4_C]},
         prefixes={
             "a": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28", "198.51.100.32/28"],
                   "ipv6": ["2001:db8:100::/48", "2001:db8:101::/48"]},
             "b": {"ipv4": ["198.51.100.0/28", "198.51.100.32/28"],
                   "ipv6": ["2001:db8:100::/48"]},
             "c": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28"]}},
         # a is passive towards b over IPv4: b's connection (to port 179) is the session.
         peer_checks={"b": {A4_B: {"portForeign": 179}},
                      "c": {A4_C: {"hostForeign": A4_C}},
                      "a": {B6: {"externalBgpNbrMaxHopsAway": 2},
                            "203.0.113.9": {"bgpState": "Idle"}}}),
    Case("password", "password",
         sessions={"a": [B4, B6, C4], "b": [A4_B, A6_B], "c": [A4_C]},
         prefixes={"a": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28", "198.51.100.32/28"],
                         "ipv6": ["2001:db8:100::/48", "2001:db8:101::/48"]},
                   "b": {"ipv4": ["198.51.100.0/28", "198.51.100.32/28"],
                         "ipv6": ["2001:db8:100::/48"]},
                   "c": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28"]}},
         xfail=SECURITY_XFAIL),
    Case("ttl_security", "ttl_security",
         sessions={"a": [B4, B6, C4], "b": [A4_B, A6_B], "c": [A4_C]},
         prefixes={"a": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28", "198.51.100.32/28"],
                         "ipv6": ["2001:db8:100::/48", "2001:db8:101::/48"]},
                   "b": {"ipv4": ["198.51.100.0/28", "198.51.100.32/28"],
                         "ipv6": ["2001:db8:100::/48"]},
                   "c": {"ipv4": ["198.51.100.0/28", "198.51.100.16/28"]}},
         peer_checks={"a": {B4: {"externalBgpNbrMaxHopsAway": 1},
                            C4: {"internalBgpNbrMaxHopsAway": 1}}},
         xfail=SECURITY_XFAIL),
]

RESULTS = {}  # case name -> {"snapshot": ..., "printout": FRR's show running-config}


def standin():
    return os.environ.get("SKUALAB_STANDIN") == "frr"


def case_param(case, *extra):
    marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
    return pytest.param(case, *extra, marks=marks, id="-".join((case.name,) + extra))


# ---- the lab ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lab(request):
    """The frr_compat namespaces and links; the daemons are started by each run."""
    lab = Lab(SCENARIO)
    why = lab.missing()
    if not why and not os.access(FRR_DIR + "/bgpd", os.X_OK):
        why = "FRR's bgpd (%s/bgpd) is not installed" % FRR_DIR
    if why:
        if os.environ.get("SKUALAB_STRICT") == "1":
            pytest.fail("SKUALAB_STRICT=1 and " + why, pytrace=False)
        pytest.skip(why)
    for r in lab.topology.routers.values():
        r.autostart = False
    request.module._skualab = lab

    def finish():
        lab.teardown()
        reports = lab.sanitizer_reports()
        if reports:
            pytest.fail("sanitizer reports in skua's logs:\n" + "\n".join(reports[:20]),
                        pytrace=False)
    request.addfinalizer(finish)
    lab.start()
    return lab


class Run:
    """a, b and c started fresh for one case, a as `kind` on `text`."""

    def __init__(self, lab, case, label, a_cls, a_text):
        self.lab = lab
        self.case = case
        self.label = label
        self.names = {}
        self.ok = False
        specs = [("a", a_cls, a_text), ("b", FrrBgpd, case.conf("b")),
                 ("c", FrrBgpd, case.conf("c"))]
        for role, cls, text in specs:
            key = "%s.%s.%s" % (role, case.name, label)
            # Short run directories: UNIX socket paths are limited to 108 bytes.
            rundir = os.path.join(lab.dir, "%s-%s-%s" % (role, case.name[:6], label[:5]))
            srcdir = os.path.join(rundir, "src")
            os.makedirs(srcdir, exist_ok=True)
            os.chmod(rundir, 0o755)
            with open(os.path.join(srcdir, "bgpd.conf"), "w") as f:
                f.write(text)
            router = copy.copy(lab.topology.routers[role])
            router.config_dir = srcdir
            lab.daemons[key] = cls(router, lab.namespaces[role], rundir, lab)
            self.names[role] = key

    def __getitem__(self, role):
        return self.lab.daemons[self.names[role]]

    def start(self):
        for role in ("a", "b", "c"):  # a first: it listens before its peers connect
            key = self.names[role]
            self.lab.log("starting %s (%s)" % (key, type(self.lab.daemons[key]).__name__))
            self.lab.daemons[key].start()
            self.lab.started.add(key)

    def stop(self):
        for role in ("c", "b", "a"):
            key = self.names[role]
            self.lab.daemons[key].stop()
            self.lab.started.discard(key)
        if self.ok:  # keep a failed run's logs in the failure report
            for key in self.names.values():
                del self.lab.daemons[key]

    def logs(self, lines=25):
        out = []
        for role in ("a", "b", "c"):
            for path in self[role].logs():
                out.append("--- %s (last %d lines)\n%s" % (path, lines, tail(path, lines)))
        return "\n".join(out)

    def wait(self):
        """Designed sessions, then designed prefixes, then a settled snapshot."""
        case = self.case
        sessions = {self.names[r]: peers for r, peers in case.sessions.items()}
        self.lab.wait_all_established(sessions, timeout=ESTABLISH)
        for role, afis in case.prefixes.items():
            for afi, prefixes in afis.items():
                d = self[role]
                self.lab.expect("%s (%s run) has %s" % (role, self.label, ", ".join(prefixes)),
                                lambda d=d, afi=afi: d.routes(afi),
                                lambda t, want=prefixes: (
                                    None if all(p in t for p in want) else
                                    "missing %s" % [p for p in want if p not in t]),
                                timeout=CONVERGE)
        for role, peers in case.peer_checks.items():
            for addr, want in peers.items():
                d = self[role]
                self.lab.expect("%s's neighbor %s (%s run)" % (role, addr, self.label),
                                lambda d=d, addr=addr: d.neighbor(addr).get(addr, {}),
                                want, timeout=CONVERGE)
        return self.settled()

    def settled(self):
        """Snapshots one second apart until two are equal (bounded)."""
        last = self.snapshot()
        deadline = time.monotonic() + SETTLE
        while time.monotonic() < deadline:
            time.sleep(1)
            self.lab.check_alive()
            cur = self.snapshot()
            if cur == last:
                return cur
            last = cur
        raise AssertionError("%s run of %s: the routers' views kept changing for %ds:\n%s"
                             % (self.label, self.case.name, SETTLE,
                                json.dumps(last, indent=1, sort_keys=True)[:3000]))

    def snapshot(self):
        """What a, b and c say, reduced to what must not depend on a's implementation."""
        snap = {}
        for role in ("a", "b", "c"):
            d = self[role]
            view = {"peers": {}, "routes": {}, "neighbors": {}}
            # a's pfxSnt is left out: FRR also sends an eBGP peer's own routes back to it
            # (the peer drops them, AS loop; FRR's sender-as-path-loop-detection is off by
            # default), skua does not. What the peers received is compared instead: their
            # pfxRcd and their routes.
            keys = ("state", "remoteAs", "pfxRcd") + (("pfxSnt",) if role != "a" else ())
            for afi in ("ipv4", "ipv6"):
                for addr, p in d.summary(afi).get("peers", {}).items():
                    view["peers"].setdefault(addr, {})[afi] = {k: p.get(k) for k in keys}
                view["routes"][afi] = routes_view(d.vtysh_json("show bgp %s unicast json"
                                                               % afi), full=role != "a")
            for addr in view["peers"]:
                n = d.neighbor(addr).get(addr, {})
                view["neighbors"][addr] = {k: n.get(k) for k in NEIGHBOR_KEYS}
            for afi, prefixes in self.case.details.get(role, {}).items():
                for prefix in prefixes:
                    view.setdefault("details", {})[prefix] = route_details(
                        d.vtysh_json("show bgp %s unicast %s json" % (afi, prefix)))
            snap[role] = view
        return snap


def routes_view(doc, full):
    """{prefix: [paths]} with what a route carries: AS path, validity, best, global next
    hops; at b and c (FRR both times: what a sent) also origin, MED and local preference."""
    out = {}
    for prefix, paths in (doc or {}).get("routes", {}).items():
        lst = []
        for p in paths:
            nh = sorted(n.get("ip") for n in p.get("nexthops", [])
                        if n.get("scope", "global") == "global")
            v = {"path": p.get("path", ""), "valid": bool(p.get("valid")),
                 "best": bool(p.get("bestpath")), "nexthops": nh}
            if full:
                v.update({"origin": p.get("origin"), "metric": p.get("metric"),
                          "locPrf": p.get("locPrf"), "peerId": p.get("peerId")})
            lst.append(v)
        out[prefix] = sorted(lst, key=lambda x: json.dumps(x, sort_keys=True))
    return out


# What `show bgp AFI unicast PREFIX json` says of each path that must not depend on the sender.
DETAIL_KEYS = ("origin", "metric", "locPrf", "atomicAggregate", "aggregatorAs", "aggregatorId")


def route_details(doc):
    """[paths] of one prefix: AS path, communities and DETAIL_KEYS (None when absent)."""
    out = []
    for p in (doc or {}).get("paths", []):
        v = {k: p.get(k) for k in DETAIL_KEYS}
        v["path"] = (p.get("aspath") or {}).get("string")
        v["community"] = (p.get("community") or {}).get("string")
        v["largeCommunity"] = (p.get("largeCommunity") or {}).get("string")
        out.append(v)
    return sorted(out, key=lambda x: json.dumps(x, sort_keys=True))


# ---- text helpers ----------------------------------------------------------------------------

def bgp_block(text):
    """The lines from `router bgp` to its `exit`, right-stripped."""
    lines = [ln.rstrip() for ln in text.splitlines()]
    for i, ln in enumerate(lines):
        if ln.startswith("router bgp "):
            for j in range(i + 1, len(lines)):
                if lines[j] == "exit":
                    return lines[i:j + 1]
            return lines[i:]
    return []


def top_lines(text):
    """Statements outside `router bgp` (comments, `!` and `end` left out)."""
    block = set(bgp_block(text))
    return [ln.rstrip() for ln in text.splitlines()
            if ln.strip() and not ln.lstrip().startswith("!") and ln.rstrip() not in block
            and ln.strip() != "end"]


def without_standin_lines(lines):
    if not standin():
        return lines
    extra = {x.rstrip() for x in StandinBgpd.STANDIN_LINES + FrrBgpd.LAB_LINES}
    return [ln for ln in lines if ln not in extra]


def bgpd_part(printout):
    """FRR's printout without the lines of FRR's other daemons (see the module docstring)."""
    return "".join(ln + "\n" for ln in printout.splitlines() if ln.strip() not in FOREIGN_LINES)


def text_diff(want, got, a="FRR", b="skua"):
    return "\n".join(difflib.unified_diff(want, got, a, b, lineterm=""))




def check_config(kind, path):
    """The daemon's own check of a file: (accepted, what it said)."""
    if kind == "frr":
        argv = [FRR_DIR + "/bgpd", "-C", "-f", path, "-Z", "-S"]
        with open(path) as f:
            if any(ln.strip() == "rpki" for ln in f):
                argv += ["-M", "rpki"]  # FRR's rpki node is its module's (frr-rpki-rtrlib)
    else:
        argv = [SkuaBgpd.bgpd_path(), "-C", "-f", path]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30, check=False)
    out = p.stdout.decode(errors="replace")
    if kind == "frr":
        # FRR's -C exits 0 whatever it read; what it did not take, it logs.
        bad = [ln for ln in out.splitlines()
               if "No such command" in ln or "Error" in ln or ln.startswith("%")]
        return not bad and p.returncode == 0, out
    return p.returncode == 0, out


def write_tmp(lab, name, text):
    path = os.path.join(lab.dir, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


def a_class():
    """What runs as "skua" on a (FRR's bgpd under SKUALAB_STANDIN=frr)."""
    return daemon_class("skua")


# ---- the tests -------------------------------------------------------------------------------

@pytest.mark.parametrize("case", [case_param(c) for c in CASES])
def test_frr_accepts(lab, case):
    """FRR 8.4 accepts F, runs it, prints it back, and the sessions come up as designed."""
    text = case.conf("a")
    ok, out = check_config("frr", write_tmp(lab, "%s-frr-check.conf" % case.name, text))
    assert ok, "FRR's bgpd -C does not take %s's config for a:\n%s" % (case.name, out)

    run = Run(lab, case, "frr", FrrBgpd, text)
    try:
        run.start()
        printout = run["a"].vtysh("show running-config")
        want, got = bgp_block(text), bgp_block(printout)
        assert want == got, ("FRR did not print F's router bgp block back unchanged (F is "
                             "meant to be in FRR's own form):\n" + text_diff(want, got, "F",
                                                                             "FRR"))
        missing = [ln for ln in top_lines(text) if ln not in printout.splitlines()]
        assert not missing, "FRR's printout lacks F's lines %s:\n%s" % (missing, printout)
        try:
            snap = run.wait()
        except AssertionError as e:
            raise AssertionError("%s\n%s" % (e, run.logs()))
        RESULTS[case.name] = {"snapshot": snap, "printout": printout}
        run.ok = True
    finally:
        run.stop()


@pytest.mark.parametrize("case,source", [case_param(c, s) for c in CASES
                                         for s in ("same-text", "frr-printout")])
def test_skua_same_sessions(lab, case, source):
    """skua on a with F (or FRR's printout of F): same sessions, same routes, same text."""
    ref = RESULTS.get(case.name)
    if ref is None:
        pytest.fail("not checked: FRR's own run of %s did not run or failed (test_frr_accepts)"
                    % case.name, pytrace=False)
    text = case.conf("a") if source == "same-text" else bgpd_part(ref["printout"])
    if standin():
        # FRR's bgpd leaves these to FRR's vtysh (it logs them as unknown): not its input.
        text = "".join(ln + "\n" for ln in text.splitlines() if ln.strip() not in VTYSH_LINES)
    kind = "frr" if standin() else "skua"
    ok, out = check_config(kind, write_tmp(lab, "%s-%s.conf" % (case.name, source), text))
    assert ok, "%s's bgpd -C refuses the %s of %s:\n%s\n--- the text:\n%s" % (
        kind, source, case.name, out, text)

    run = Run(lab, case, source, a_class(), text)
    try:
        run.start()
        try:
            snap = run.wait()
        except AssertionError as e:
            raise AssertionError("%s\n%s" % (e, run.logs()))
        printout = run["a"].vtysh("show running-config")
        diff = side_by_side(ref["snapshot"], snap)
        assert not diff, ("%s (%s): the routers' views differ between FRR and skua on a:\n%s"
                          % (case.name, source, diff))
        want = without_standin_lines(bgp_block(ref["printout"]))
        got = without_standin_lines(bgp_block(printout))
        assert want == got, ("%s (%s): skua does not print the router bgp block as FRR "
                             "does:\n%s" % (case.name, source, text_diff(want, got)))
        run.ok = True
    finally:
        run.stop()


# ---- every FRR configuration of the lab ------------------------------------------------------

# FRR configs of the lab that use statements skua does not have, with the line skua refuses.
UNSUPPORTED = {
    # FRR batches route-map changes behind a timer; skua applies them on the next loop turn.
    "policy_rmap/ref": "bgp route-map delay-timer 1",
    # The peer plays a speaker without route refresh, which skua cannot pretend to be.
    "soft_in_kept/peer": "neighbor 192.0.2.1 dont-capability-negotiate",
}


def frr_lab_configs():
    out = []
    for name in sorted(os.listdir(SCENARIOS)):
        topo_path = os.path.join(SCENARIOS, name, "topology.toml")
        if not os.path.exists(topo_path):
            continue
        for r in Topology(os.path.join(SCENARIOS, name)).routers.values():
            path = os.path.join(r.config_dir, "bgpd.conf")
            if r.kind == "frr" and os.path.exists(path):
                out.append(("%s/%s" % (name, r.name), path))
    for case in sorted(os.listdir(os.path.join(SCENARIO, "cases"))):
        for role in ("b", "c"):
            out.append(("frr_compat/cases/%s/%s" % (case, role),
                        os.path.join(SCENARIO, "cases", case, role + ".conf")))
    return out


@pytest.mark.parametrize("name,path", frr_lab_configs(), ids=[n for n, _ in frr_lab_configs()])
def test_frr_lab_config_loads_into_skua(name, path):
    """Every FRR config the lab runs (peers' configs) is also a skua config, or skua refuses
    it at the one statement it lacks, with the line number."""
    if not os.access(SkuaBgpd.bgpd_path(), os.X_OK) or not os.access(FRR_DIR + "/bgpd",
                                                                    os.X_OK):
        pytest.skip("needs skua's bgpd (%s) and FRR's" % SkuaBgpd.bgpd_path())
    ok, out = check_config("frr", path)
    assert ok, "FRR itself does not take %s:\n%s" % (path, out)
    ok, out = check_config("skua", path)
    if name in UNSUPPORTED:
        with open(path) as f:
            lineno = [i + 1 for i, ln in enumerate(f) if ln.strip() == UNSUPPORTED[name]][0]
        # a statement skua knows FRR has is named as such, otherwise the line is unknown
        refused = ["%s:%d: Unknown command: %s" % (path, lineno, UNSUPPORTED[name]),
                   "%s:%d: not supported by skua: " % (path, lineno)]
        assert not ok and any(r in out for r in refused), \
            "skua should refuse %s at line %d (%s), said:\n%s" % (
                path, lineno, UNSUPPORTED[name], out)
    else:
        assert ok, "skua's bgpd -C refuses %s, which FRR takes:\n%s" % (path, out)
