# SPDX-License-Identifier: ISC
"""The FRR corpus (issue 14, must-show 1): operators' FRR 8.4 configurations load unchanged
into skua, print back as FRR prints them, and move the same routes.

tests/corpus/frr/*.conf are edge configurations written as operators write them (README.md
there says what each one represents). For each:

 1. FRR 8.4 accepts it: FRR's vtysh -C (the whole file, vtysh's own lines included) and FRR's
    bgpd -C (which also applies it: refusals such as a local-as equal to the AS show only
    there) have nothing to say. Neither needs a running FRR or touches /etc/frr.
 2. skua's bgpd -C accepts it unchanged.
 3. In the lab (tests/lab/scenarios/frr_corpus, one set of namespaces for the whole corpus),
    the configuration runs on dut under FRR, then under skua, between a GoBGP feeder and a
    GoBGP collector at the addresses the configuration names (tests/corpus/frr/peers.toml).
    The feeder sends the same table each time (tests/corpus/frr/feeder.routes); what the
    collector receives (prefix, AS path, origin, MED, communities, extended and large
    communities, next hop) must be the same with FRR and with skua, and so must dut's own table (prefix, AS
    path, next hops, best). The routers' `show running-config` must be the same statement for
    statement, leaving out only what FRR varies by itself or prints for its other daemons: the
    `frr version` line, vtysh's header lines, zebra's forwarding lines.

A configuration that uses a statement skua does not have yet is in PENDING with the first
line skua refuses: its -C check must refuse exactly there, and its lab runs are skipped. When
skua gains the statement, the check fails until the entry goes (a strict expectation).

Cost: the -C checks take about 5 s for the whole corpus; the lab about 6 s per configuration
and router kind, about 200 s in all: under CI=true only CI_SUBSET runs in the lab (about 70 s),
SKUA_CORPUS=all runs everything.

Run: sudo SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_frr_corpus.py
"""

import copy
import difflib
import glob
import json
import os
import socket
import subprocess
import time
import tomllib

import pytest

from skualab import Lab
from skualab.jsoncmp import side_by_side
from skualab.daemons import FRR_DIR, FrrBgpd, GoBgp, SkuaBgpd, daemon_class

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.abspath(os.path.join(HERE, "..", "corpus", "frr"))
SCENARIO = os.path.join(HERE, "scenarios", "frr_corpus")

pytestmark = pytest.mark.timeout(120)

ESTABLISH = 30  # seconds for the feeder's and the collector's sessions with dut
SETTLE = 20  # seconds for the collector's and dut's views to stop changing
QUIET = 3  # seconds a view must stay the same to count as settled

# Configurations with statements skua lacks today: the first line skua's bgpd -C refuses.
# Each names the helper branch of issue 14 that brings the statement.
PENDING = {}

# FRR statements that only FRR's vtysh takes (FRR's bgpd logs them as unknown).
VTYSH_ONLY = ("service integrated-vtysh-config",)

# Printout lines that are not the configuration's: vtysh's header and its own
# `service integrated-vtysh-config` (from FRR's vtysh.conf, printed whatever the file says),
# zebra's forwarding lines (the lab runs zebra beside FRR's bgpd), bgpd -n's `bgp no-rib`, and
# `frr defaults traditional`: skua has that profile only and prints no profile line
# (lib/system_cli.c), as it prints no `frr version` line.
NOT_COMPARED = ("Building configuration...", "Current configuration:",
                "service integrated-vtysh-config", "ip forwarding", "no ip forwarding",
                "ipv6 forwarding", "no ipv6 forwarding", "bgp no-rib",
                "frr defaults traditional")

# Where skua's printout drifts from FRR 8.4's today (found by this corpus, 2026-12-07). The
# running-config test of these configurations is expected to fail (strictly: once skua prints
# them as FRR does, the mark must go).
PRINT_DRIFTS = {}

# Where the routes differ today: expected to fail, strictly.
ROUTE_DRIFTS = {
    "12-confederation-member": ["FRR 8.4 as dut sends the GoBGP collector (a member AS of the "
                                "confederation) nothing within the settle time, even with "
                                "policies both ways, where skua sends it the table; not "
                                "understood yet"],
    "07-route-reflector": ["FRR reflects an iBGP route without MED with MED 0; skua without "
                           "MED"],
}

DUT_ADDRESS = {"192.0.2.2": "192.0.2.1", "2001:db8:0:1::2": "2001:db8:0:1::1",
               "192.0.2.6": "192.0.2.5", "2001:db8:0:2::2": "2001:db8:0:2::1"}


def corpus_names():
    return sorted(os.path.basename(p)[:-len(".conf")]
                  for p in glob.glob(os.path.join(CORPUS, "*.conf")))


def conf_path(name):
    return os.path.join(CORPUS, name + ".conf")


def peers_of(name):
    with open(os.path.join(CORPUS, "peers.toml"), "rb") as f:
        return tomllib.load(f)[name]


def run(argv, timeout=30):
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout, check=False)
    return p.returncode, p.stdout.decode(errors="replace")


# ---- the corpus itself -----------------------------------------------------------------------

def test_corpus_is_complete():
    """At least 20 configurations, each with its peers in peers.toml and a line in README.md;
    only documentation prefixes and documentation or private AS numbers as addresses."""
    names = corpus_names()
    assert len(names) >= 20, "the corpus has %d configurations, issue 14 asks for 20" % len(names)
    with open(os.path.join(CORPUS, "peers.toml"), "rb") as f:
        peers = tomllib.load(f)
    with open(os.path.join(CORPUS, "README.md")) as f:
        readme = f.read()
    assert sorted(peers) == names, "peers.toml and the *.conf files differ"
    undocumented = [n for n in names if "`%s.conf`" % n not in readme]
    assert not undocumented, "README.md does not describe %s" % undocumented
    for n in names:
        for role in ("feeder", "collector"):
            for a in peers[n][role]["addresses"]:
                assert a in DUT_ADDRESS, "%s: %s address %s is not one the lab has" % (
                    n, role, a)


@pytest.mark.parametrize("name", corpus_names())
def test_frr_accepts(name):
    """FRR 8.4's vtysh -C and bgpd -C take the configuration as it is."""
    if not os.access(FRR_DIR + "/bgpd", os.X_OK):
        pytest.skip("FRR's bgpd (%s/bgpd) is not installed" % FRR_DIR)
    rc, out = run(["vtysh", "-C", "-f", conf_path(name)])
    assert rc == 0 and not out.strip(), "FRR's vtysh -C refuses %s:\n%s" % (name, out)
    argv = [FRR_DIR + "/bgpd", "-C", "-Z", "-S", "-f", conf_path(name)]
    rc, out = run(argv)
    # FRR's bgpd -C exits 0 whatever it read: what it refused, it logs.
    bad = [ln for ln in out.splitlines()
           if ("No such command" in ln and not any(v in ln for v in VTYSH_ONLY))
           or "Config Failed" in ln or ln.startswith("%")]
    assert rc == 0 and not bad, "FRR's bgpd -C refuses %s:\n%s" % (name, "\n".join(bad))


@pytest.mark.parametrize("name", corpus_names())
def test_skua_accepts(name):
    """skua's bgpd -C takes the configuration unchanged (or, while PENDING, refuses it first
    at the statement it lacks, with the line number)."""
    if not os.access(SkuaBgpd.bgpd_path(), os.X_OK):
        pytest.skip("no bgpd in %s (build first)" % SkuaBgpd.builddir())
    rc, out = run([SkuaBgpd.bgpd_path(), "-C", "-f", conf_path(name)])
    if name not in PENDING:
        assert rc == 0, "skua's bgpd -C refuses %s, which FRR takes:\n%s" % (name, out)
        return
    with open(conf_path(name)) as f:
        lineno = [i + 1 for i, ln in enumerate(f) if ln.strip() == PENDING[name]][0]
    first = [ln for ln in out.splitlines() if ln.startswith("bgpd: %s:" % conf_path(name))]
    assert rc != 0, ("skua now takes %s: take it out of PENDING (its lab runs then count)"
                     % name)
    assert first and first[0].startswith("bgpd: %s:%d: " % (conf_path(name), lineno)), (
        "skua should first refuse %s at line %d (%s); said:\n%s"
        % (name, lineno, PENDING[name], out))


# ---- the lab ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lab(request):
    """The frr_corpus namespaces and links, once for the whole corpus."""
    lab = Lab(SCENARIO)
    why = lab.missing()
    if not why and not os.access(FRR_DIR + "/bgpd", os.X_OK):
        why = "FRR's bgpd (%s/bgpd) is not installed" % FRR_DIR
    if not why:
        why = FrrBgpd.missing(lab)
    if why:
        if os.environ.get("SKUALAB_STRICT") == "1":
            pytest.fail("SKUALAB_STRICT=1 and " + why, pytrace=False)
        pytest.skip(why)
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


def gobgp_conf(name, role):
    """gobgpd's TOML for the feeder or the collector of configuration `name`."""
    p = peers_of(name)[role]
    own = p["addresses"][0]
    router_id = own if ":" not in own else ("192.0.2.2" if role == "feeder" else "192.0.2.6")
    out = ["[global.config]", "  as = %d" % p["as"], '  router-id = "%s"' % router_id]
    if "confederation" in p:
        ident, members = p["confederation"]
        out += ["[global.confederation.config]", "  enabled = true",
                "  identifier = %d" % ident,
                "  member-as-list = [%s]" % ", ".join(str(m) for m in members)]
    for addr in p["addresses"]:
        out += ["[[neighbors]]", "  [neighbors.config]",
                '    neighbor-address = "%s"' % DUT_ADDRESS[addr],
                "    peer-as = %d" % p["dut_as"]]
        if addr in p.get("passwords", {}):
            out.append('    auth-password = "%s"' % p["passwords"][addr])
        out += ["  [neighbors.timers.config]", "    connect-retry = 1"]
        if p.get("ttl_security"):
            out += ["  [neighbors.ttl-security.config]", "    enabled = true",
                    "    ttl-min = 255"]
        out += ["  [[neighbors.afi-safis]]", "    [neighbors.afi-safis.config]",
                '      afi-safi-name = "%s"' % ("ipv6-unicast" if ":" in addr
                                                else "ipv4-unicast")]
    return "\n".join(out) + "\n"


class Run:
    """dut (as `kind`), the feeder and the collector started fresh for one configuration."""

    def __init__(self, lab, name, kind):
        self.lab, self.name, self.kind = lab, name, kind
        self.keys = {}
        self.ok = False
        texts = {"dut": open(conf_path(name)).read(), "feeder": gobgp_conf(name, "feeder"),
                 "collector": gobgp_conf(name, "collector")}
        classes = {"dut": FrrBgpd if kind == "frr" else daemon_class("skua"),
                   "feeder": GoBgp, "collector": GoBgp}
        for role in ("dut", "feeder", "collector"):
            key = "%s.%s.%s" % (role, name, kind)
            # Short run directories: UNIX socket paths are limited to 108 bytes.
            rundir = os.path.join(lab.dir, "%s-%s-%s" % (role[:3], name[:2], kind))
            srcdir = os.path.join(rundir, "src")
            os.makedirs(srcdir, exist_ok=True)
            os.chmod(rundir, 0o755)
            router = copy.copy(lab.topology.routers[role])
            router.config_dir = srcdir
            cls = classes[role]
            with open(os.path.join(srcdir, cls.config_name), "w") as f:
                f.write(texts[role])
            if role == "feeder":
                with open(os.path.join(CORPUS, "feeder.routes")) as f:
                    routes = [ln for ln in f if ln.strip() and not ln.startswith("#")]
                with open(os.path.join(srcdir, "gobgp.routes"), "w") as f:
                    f.writelines("add " + ln for ln in routes)
            lab.daemons[key] = cls(router, lab.namespaces[role], rundir, lab)
            self.keys[role] = key

    def __getitem__(self, role):
        return self.lab.daemons[self.keys[role]]

    def start(self):
        for role in ("dut", "collector", "feeder"):
            self.lab.daemons[self.keys[role]].start()
            self.lab.started.add(self.keys[role])

    def stop(self):
        for role in ("feeder", "collector", "dut"):
            self.lab.daemons[self.keys[role]].stop()
            self.lab.started.discard(self.keys[role])
        if self.ok:  # a failed run's logs stay for the report
            for key in self.keys.values():
                del self.lab.daemons[key]

    def wait(self):
        """Every session up, then views that stay the same for QUIET seconds."""
        p = peers_of(self.name)
        sessions = {self.keys["feeder"]: [DUT_ADDRESS[a] for a in p["feeder"]["addresses"]],
                    self.keys["collector"]: [DUT_ADDRESS[a]
                                             for a in p["collector"]["addresses"]]}
        self.lab.wait_all_established(sessions, timeout=ESTABLISH)
        deadline = time.monotonic() + SETTLE
        last, since = self.view(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.5)
            self.lab.check_alive()
            cur = self.view()
            if cur != last:
                last, since = cur, time.monotonic()
            elif time.monotonic() - since >= QUIET:
                return cur
        raise AssertionError("%s under %s: the views kept changing for %ds:\n%s" % (
            self.name, self.kind, SETTLE, json.dumps(last, indent=1, sort_keys=True)[:3000]))

    def view(self):
        """What the collector received and what dut holds, as plain data."""
        p = peers_of(self.name)["collector"]
        out = {"collector": {}, "dut": {}}
        for addr in p["addresses"]:
            afi = "ipv6" if ":" in addr else "ipv4"
            doc = self["collector"].gobgp("neighbor %s adj-in -a %s" % (DUT_ADDRESS[addr], afi),
                                          json_out=True)
            out["collector"][addr] = collector_routes(doc)
        for afi in ("ipv4", "ipv6"):
            out["dut"][afi] = dut_routes(self["dut"].vtysh_json("show bgp %s unicast json"
                                                                % afi))
        return out


def collector_routes(doc):
    """{prefix: attributes} of a gobgp adj-in JSON answer."""
    out = {}
    if isinstance(doc, dict):
        paths = [p for lst in doc.values() for p in lst]
    else:
        paths = doc or []
    for p in paths:
        prefix = (p.get("nlri") or {}).get("prefix") or p.get("prefix")
        v = {"aspath": [], "origin": None, "med": None, "communities": [],
             "ext_communities": [], "large_communities": [], "nexthop": None}
        for a in p.get("attrs", []):
            t = a.get("type")
            if t == 1:
                v["origin"] = a.get("value")
            elif t == 2:
                v["aspath"] = [[s.get("type", s.get("segment_type")), s.get("asns")]
                               for s in a.get("as_paths", [])]
            elif t in (3, 14):
                v["nexthop"] = a.get("nexthop") or v["nexthop"]
            elif t == 4:
                v["med"] = a.get("metric")
            elif t == 8:
                v["communities"] = sorted(a.get("communities", []))
            elif t == 16:
                v["ext_communities"] = sorted(json.dumps(x, sort_keys=True)
                                              for x in a.get("value", []))
            elif t == 32:
                v["large_communities"] = sorted(json.dumps(x, sort_keys=True)
                                                for x in a.get("value", []))
        out[prefix] = v
    return out


def dut_routes(doc):
    """{prefix: [paths]} of `show bgp AFI unicast json`: AS path, validity, best, next hops."""
    out = {}
    for prefix, paths in (doc or {}).get("routes", {}).items():
        lst = [{"path": p.get("path", ""), "valid": bool(p.get("valid")),
                "best": bool(p.get("bestpath")),
                "nexthops": sorted(n.get("ip") for n in p.get("nexthops", [])
                                   if n.get("scope", "global") == "global")} for p in paths]
        out[prefix] = sorted(lst, key=lambda x: json.dumps(x, sort_keys=True))
    return out


# Objects FRR prints in the order they were created (prefix-lists, route-maps) or hashed
# (as-path and community lists): the order of whole objects is not the configuration's.
POLICY_OBJECTS = ("ip prefix-list ", "ipv6 prefix-list ", "bgp as-path access-list ",
                  "bgp community-list ", "bgp large-community-list ",
                  "bgp extcommunity-list ", "route-map ")


def printed_config(text):
    """A printout's statements, without what NOT_COMPARED and the `frr version` line name and
    without zebra's `hostname` (the machine's name), the policy objects in name order (each
    object's own lines as printed)."""
    lines = [ln.rstrip() for ln in text.splitlines()
             if ln.strip() and ln.strip() not in NOT_COMPARED
             and not ln.startswith("frr version ")
             and ln.strip() != "hostname " + socket.gethostname()]
    units, objects = [], []  # units: [lines]; objects: [(key, order, [lines])]
    i = 0
    while i < len(lines):
        ln = lines[i]
        kind = next((k for k in POLICY_OBJECTS if ln.startswith(k)), None)
        if kind is None:
            units.append([ln])
            i += 1
            continue
        j = i + 1
        if kind == "route-map ":  # its match/set lines up to `exit`
            while j < len(lines) and lines[j - 1] != "exit":
                j += 1
        name = ln[len(kind):].split()[0]
        objects.append(((kind, name), len(objects), lines[i:j]))
        units.append(None)  # where the policy objects are printed
        i = j
    objects.sort(key=lambda o: (o[0], o[1]))
    out, placed = [], False
    for u in units:
        if u is not None:
            if u != ["!"] or not out or out[-1] != "!":
                out.extend(u)
        elif not placed:
            placed = True
            for o in objects:
                out.extend(o[2])
    return out




RESULTS = {}  # (name, kind) -> {"view": ..., "printout": ...}


# The whole corpus takes about 200 s in the lab; CI runs these (about 70 s: filtering, MD5 and
# GTSM over IPv4 and IPv6, communities, MED and prepends, local-as) unless SKUA_CORPUS=all.
CI_SUBSET = ("01-isp-edge-full-table", "02-isp-edge-dual-stack",
             "04-transit-customer-communities", "14-enterprise-dual-homed",
             "15-ipv6-only-edge", "21-as-migration-edge")


def lab_corpus():
    names = corpus_names()
    if os.environ.get("CI") == "true" and os.environ.get("SKUA_CORPUS") != "all":
        names = [n for n in names if n in CI_SUBSET]
    return names


def lab_names(drifts):
    out = []
    for n in lab_corpus():
        if n in PENDING:
            marks = [pytest.mark.skip(reason="PENDING: %s" % PENDING[n])]
        elif n in drifts:
            marks = [pytest.mark.xfail(reason="; ".join(drifts[n]), strict=True)]
        else:
            marks = []
        out.append(pytest.param(n, marks=marks, id=n))
    return out


def result(lab, name, kind):
    """The run of `name` under `kind`, made once and kept for the tests that compare."""
    if (name, kind) not in RESULTS:
        r = Run(lab, name, kind)
        try:
            r.start()
            try:
                view = r.wait()
            except AssertionError as e:
                raise AssertionError("%s\n%s" % (e, lab.log_tails(25)))
            RESULTS[(name, kind)] = {"view": view,
                                     "printout": r["dut"].vtysh("show running-config")}
            # kept beside the logs: what was compared, for whoever reads a failure
            with open(os.path.join(lab.dir, "%s-%s.json" % (name, kind)), "w") as f:
                json.dump(RESULTS[(name, kind)], f, indent=1, sort_keys=True)
            r.ok = True
        finally:
            r.stop()
    return RESULTS[(name, kind)]


@pytest.mark.parametrize("name", lab_names(ROUTE_DRIFTS))
def test_same_routes(lab, name):
    """The same table in: the collector receives the same routes (prefix, AS path, origin,
    MED, communities, next hop) and dut holds the same table, under FRR and under skua."""
    frr = result(lab, name, "frr")
    skua = result(lab, name, "skua")
    assert frr["view"]["collector"] or frr["view"]["dut"]["ipv4"] or \
        frr["view"]["dut"]["ipv6"], "%s under FRR: no route anywhere, nothing compared" % name
    diff = side_by_side(frr["view"], skua["view"])
    assert not diff, "%s: the routes differ between FRR and skua:\n%s" % (name, diff)


@pytest.mark.parametrize("name", lab_names(PRINT_DRIFTS))
def test_same_running_config(lab, name):
    """skua's show running-config is FRR's, statement for statement."""
    want = printed_config(result(lab, name, "frr")["printout"])
    got = printed_config(result(lab, name, "skua")["printout"])
    assert want == got, "%s: skua does not print the configuration as FRR does:\n%s" % (
        name, "\n".join(difflib.unified_diff(want, got, "FRR", "skua", lineterm="")))
