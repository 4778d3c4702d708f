# SPDX-License-Identifier: ISC
"""Unit tests of the lab library itself (no root, no daemons): subset matching, retries, the
parsers on captured real output (tests/lab/fixtures/, from BIRD 2.0.12, FRR 8.4.4 and GoBGP
3.10 in this lab), topology validation, and the raw speaker's UPDATE packing (decoded with
scapy, an independent BGP implementation)."""

import ipaddress
import json
import os
import sys
import textwrap

import pytest

from skualab import json_cmp, run_and_expect
from skualab import parsers, rendered, tables
from skualab.daemons import FrrBgpd, StandinBgpd
from skualab.topology import Topology, TopologyError

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def fixture_text(name):
    with open(os.path.join(FIX, name)) as f:
        return f.read()


def fixture_json(name):
    return json.loads(fixture_text(name))


# --- json_cmp ------------------------------------------------------------------------------

def test_json_cmp_subset_and_mismatch_paths():
    actual = {"peers": {"192.0.2.2": {"state": "Established", "pfxRcd": 3, "x": 1}}, "as": 1}
    assert json_cmp(actual, {"peers": {"192.0.2.2": {"state": "Established"}}}) is None
    diff = json_cmp(actual, {"peers": {"192.0.2.2": {"state": "Active", "pfxRcd": 3}}})
    assert diff and "peers.192.0.2.2.state: expected 'Active', got 'Established'" in str(diff)
    diff = json_cmp(actual, {"peers": {"192.0.2.9": {}}})
    assert "peers.192.0.2.9: missing" in str(diff)


def test_json_cmp_none_means_absent():
    assert json_cmp({"a": 1}, {"b": None}) is None
    assert "expected absent" in str(json_cmp({"a": 1, "b": 2}, {"b": None}))


def test_json_cmp_lists_match_distinct_elements_in_any_order():
    actual = [{"ip": "192.0.2.1", "used": True}, {"ip": "fe80::1"}]
    assert json_cmp(actual, [{"ip": "fe80::1"}, {"ip": "192.0.2.1"}]) is None
    # two expected elements cannot both match the same actual element
    assert json_cmp([{"ip": "a"}], [{"ip": "a"}, {"ip": "a"}]) is not None
    assert json_cmp(actual, [{"ip": "192.0.2.1"}], exact=True) is not None


def test_json_cmp_types_are_strict_for_booleans():
    assert json_cmp({"valid": 1}, {"valid": True}) is not None
    assert json_cmp({"n": 1.0}, {"n": 1}) is None
    assert json_cmp({"n": "1"}, {"n": 1}) is not None


# --- run_and_expect ----------------------------------------------------------------------

def test_run_and_expect_retries_until_match():
    calls = []

    def func():
        calls.append(1)
        return {"state": "Established" if len(calls) >= 3 else "Active"}
    ok, result, diff = run_and_expect(func, {"state": "Established"}, count=5, wait=0)
    assert ok and diff is None and len(calls) == 3


def test_run_and_expect_gives_up_with_the_last_mismatch():
    ok, result, diff = run_and_expect(lambda: {"state": "Idle"}, {"state": "Established"},
                                      count=3, wait=0)
    assert not ok and result == {"state": "Idle"} and "expected 'Established'" in str(diff)


def test_run_and_expect_counts_exceptions_and_runs_check():
    def boom():
        raise RuntimeError("socket not there yet")
    ok, _, diff = run_and_expect(boom, {}, count=2, wait=0)
    assert not ok and "socket not there yet" in diff

    def dead():
        raise AssertionError("daemon died")
    with pytest.raises(AssertionError, match="daemon died"):
        run_and_expect(lambda: {}, {}, count=2, wait=0, check=dead)


# --- parsers on captured output --------------------------------------------------------------

def test_bird_protocols():
    p = parsers.parse_bird_protocols(fixture_text("bird_protocols.txt"))
    assert p["frr1_v4"]["proto"] == "BGP" and p["frr1_v4"]["state"] == "up"
    assert p["frr1_v4"]["bgp_state"] == "Established"
    assert p["frr1_v4"]["since"] == "2026-12-03 13:31:49"
    assert p["frr1_v6"]["neighbor_address"] == "2001:db8:0:1::1"
    assert p["gobgp1"]["channels"]["ipv4"]["imported"] == 2
    peers = parsers.normalise_bird_peers(p)
    assert set(peers) == {"192.0.2.1", "2001:db8:0:1::1", "192.0.2.10"}
    assert all(v["state"] == "Established" for v in peers.values())


def test_bird_routes_with_two_paths_and_ipv6_next_hops():
    r4 = parsers.normalise_bird_routes(parsers.parse_bird_routes(
        fixture_text("bird_routes4.txt")))
    paths = r4["198.51.100.0/28"]
    assert [(p["best"], p["path"], p["nexthops"]) for p in paths] == [
        (True, "65001", ["192.0.2.1"]), (False, "65003", ["192.0.2.10"])]
    assert "198.51.100.16/28" not in r4  # BIRD's own static blackhole is not a BGP path
    r6 = parsers.normalise_bird_routes(parsers.parse_bird_routes(
        fixture_text("bird_routes6.txt")))
    assert r6["2001:db8:103::/48"][0]["path"] == "65001 65003"
    assert r6["2001:db8:100::/48"][0]["nexthops"][0] == "2001:db8:0:1::1"
    assert r6["2001:db8:100::/48"][0]["nexthops"][1].startswith("fe80::")


def test_frr_summary_and_routes():
    peers = parsers.normalise_frr_peers([fixture_json("frr_summary4.json"),
                                         fixture_json("frr_summary6.json")])
    assert peers["192.0.2.2"]["state"] == "Established"
    assert peers["2001:db8:0:1::2"]["state"] == "Established"
    # GoBGP sent its own 198.51.100.32/28, and 198.51.100.0/28 and BIRD's 198.51.100.16/28
    # over its direct session with BIRD in that capture.
    assert peers["192.0.2.6"]["pfxRcd"] == 3
    wrapped = parsers.normalise_frr_peers([{"ipv4Unicast": fixture_json("frr_summary4.json")}])
    assert wrapped["192.0.2.2"] == peers["192.0.2.2"]
    routes = parsers.normalise_frr_routes(fixture_json("frr_routes4.json"))
    best = [p for p in routes["198.51.100.16/28"] if p["best"]]
    assert best and best[0]["path"] == "65002" and best[0]["nexthops"] == ["192.0.2.2"]


def test_gobgp_neighbors_and_rib():
    peers = parsers.normalise_gobgp_peers(fixture_json("gobgp_neighbor.json"))
    assert peers["192.0.2.5"]["state"] == "Established"
    assert peers["192.0.2.9"]["pfxRcd"] == 2
    rib = parsers.normalise_gobgp_routes(fixture_json("gobgp_rib4.json"))
    best = [p for p in rib["198.51.100.16/28"] if p["best"]][0]
    assert best["path"] == "65002" and best["nexthops"] == ["192.0.2.9"]
    assert parsers._gobgp_state("SESSION_STATE_ESTABLISHED") == "Established"


# --- topology ------------------------------------------------------------------------------

def write_topology(tmp_path, text):
    (tmp_path / "topology.toml").write_text(textwrap.dedent(text))
    return Topology(str(tmp_path))


def test_topology_links_lans_and_addresses(tmp_path):
    t = write_topology(tmp_path, """
        [routers.a]
        kind = "frr"
        [routers.b]
        kind = "bird"
        [routers.c]
        kind = "host"
        [[links]]
        a = ["192.0.2.1/30", "2001:db8::1/64"]
        b = ["192.0.2.2/30", "2001:db8::2/64"]
        [[links]]
        name = "lan"
        a = "198.51.100.1/24"
        b = "198.51.100.2/24"
        c = "198.51.100.3/24"
        """)
    assert t.links[0].ifnames == {"a": "to-b", "b": "to-a"} and not t.links[0].is_lan
    assert t.links[1].is_lan and t.links[1].ifnames["c"] == "lan"
    assert t.peer_address("a", "b", 6) == "2001:db8::2"
    assert t.peer_address("c", "a", 4) == "198.51.100.1"
    with pytest.raises(TopologyError):
        t.peer_address("c", "b", 6)


@pytest.mark.parametrize("addr", ["10.0.0.1/24", "192.0.3.1/24", "2001:db9::1/64",
                                  "192.0.2.1/16", "not-an-address"])
def test_topology_refuses_anything_but_documentation_space(tmp_path, addr):
    with pytest.raises(TopologyError):
        write_topology(tmp_path, """
            [routers.a]
            kind = "frr"
            [routers.b]
            kind = "frr"
            [[links]]
            a = ["%s"]
            b = ["192.0.2.2/30"]
            """ % addr)


@pytest.mark.parametrize("name,kind", [("Upper", "frr"), ("waytoolongname1", "frr"),
                                       ("ok", "quagga")])
def test_topology_refuses_bad_names_and_kinds(tmp_path, name, kind):
    with pytest.raises(TopologyError):
        write_topology(tmp_path, '[routers.%s]\nkind = "%s"\n' % (name, kind))


# --- FRR configs used as stand-ins ----------------------------------------------------------

def test_lab_lines_follow_every_router_bgp():
    text = "hostname x\nrouter bgp 65000\n neighbor 192.0.2.2 remote-as 65001\n"
    out = FrrBgpd.add_lab_lines(text).splitlines()
    assert out[2] == " no bgp ebgp-requires-policy" and out[3] == " no bgp network import-check"
    # skua's decision has FRR's defaults: the stand-in needs no best-path knob.
    out = FrrBgpd.add_lab_lines(text, StandinBgpd.STANDIN_LINES).splitlines()
    assert not [ln for ln in out if "bestpath" in ln or "med" in ln.split()], out


# --- raw speaker ---------------------------------------------------------------------------

def decode_prefixes(msgs):
    bgp = pytest.importorskip("scapy.contrib.bgp")
    out = []
    for raw in msgs:
        hdr = bgp.BGPHeader(raw)
        assert hdr.type == 2 and hdr.len == len(raw) <= 4096
        upd = hdr[bgp.BGPUpdate]
        out += [n.prefix for n in upd.nlri]
        for a in upd.path_attr:
            if a.type_code == 14:
                out += [n.prefix for n in a.attribute.nlri]
    return out


@pytest.mark.parametrize("spec", [
    {"afi": "ipv6", "count": 3000, "start": "2001:db8:1000::", "prefix_len": 56,
     "nexthop": "2001:db8:0:2::2", "as_path": [65002], "med_group": 1000},
    {"afi": "ipv4", "count": 256, "start": "198.51.100.0", "prefix_len": 32,
     "nexthop": "192.0.2.2", "as_path": [65002, 65003]},
])
def test_speaker_updates_decode_to_every_prefix(spec):
    from skualab import speaker
    msgs, n = speaker.pack_updates(spec, as4=True)
    prefixes = decode_prefixes(msgs)
    assert n == spec["count"] == len(prefixes) == len(set(prefixes))
    first = ipaddress.ip_network("%s/%d" % (spec["start"], spec["prefix_len"]))
    assert prefixes[0] == str(first)
    if spec.get("med_group"):  # one attribute set per group: no UPDATE spans two groups
        assert len(msgs) >= spec["count"] // spec["med_group"]


def test_speaker_refuses_space_outside_documentation_ranges():
    from skualab import speaker
    with pytest.raises(SystemExit):
        speaker.pack_updates({"afi": "ipv4", "count": 300, "start": "198.51.100.0",
                              "prefix_len": 32, "nexthop": "192.0.2.2", "as_path": [1]}, True)


# --- sanitizer reports in skua's logs --------------------------------------------------------

def test_sanitizer_reports_are_found_in_skua_logs(tmp_path):
    from types import SimpleNamespace
    from skualab.daemons import SkuaBgpd
    log = tmp_path / "bgpd.log"
    log.write_text("2026/12/03 BGP: listening on :: port 179\n"
                   "==42==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020\n"
                   "bgpd/session/bgp_fsm.c:120:5: runtime error: signed integer overflow\n"
                   "SUMMARY: AddressSanitizer: heap-use-after-free bgpd/session/bgp_fsm.c:120\n")
    d = SkuaBgpd.__new__(SkuaBgpd)
    d.procs = [SimpleNamespace(log_path=str(log))]
    found = d.sanitizer_reports()
    assert len(found) == 3 and "heap-use-after-free" in found[0]
    log.write_text("2026/12/03 BGP: all fine, runtime of 3 s\n")
    assert d.sanitizer_reports() == []


# --- tables: the scenarios' BGP table readers -----------------------------------------------

class FakeVtysh:
    """A router whose vtysh is a Python script: `show bgp AFI unicast json` answers a captured
    FRR 8.4 table; every other command is appended to `log` (if given), and a per-prefix
    `show bgp ... PREFIX json` answers {"prefix": PREFIX, "paths": [...]}, after a stray line
    when `noise` is set and there are several commands (a vtysh warning between them)."""

    SCRIPT = textwrap.dedent("""\
        import json, sys
        log, noise, cmds = sys.argv[1], sys.argv[2] == "1", sys.argv[4::2]
        for c in cmds:
            if log:
                with open(log, "a") as f:
                    f.write(c + "\\n")
            w = c.split()
            if len(w) == 6 and w[:2] == ["show", "bgp"] and w[-1] == "json":
                if noise and len(cmds) > 1:
                    print("% Unknown command")
                print(json.dumps({"prefix": w[4], "paths": [
                    {"peer": {"peerId": "192.0.2.9"}, "community": {"string": "65000:" + w[4]}},
                    {"peer": {"peerId": "192.0.2.8"}}]}, indent=2))
        """)

    def __init__(self, log="", noise=False):
        self.log, self.noise = str(log), noise

    def vtysh_argv(self, cmds):
        argv = [sys.executable, "-c", self.SCRIPT, self.log, "1" if self.noise else "0"]
        for c in cmds:
            argv += ["-c", c]
        return argv

    def vtysh_json(self, cmd):
        return {"show bgp ipv4 unicast json": fixture_json("frr_routes4.json"),
                "show bgp ipv6 unicast json": fixture_json("frr_routes6.json")}[cmd]


def test_tables_bgpd_argv_names_bgpd_alone_on_frr():
    frr = FrrBgpd.__new__(FrrBgpd)
    frr.sockdir = "/run/x"
    assert tables.bgpd_argv(frr, ["conf t", "router bgp 1"]) == [
        "vtysh", "--vty_socket", "/run/x", "-d", "bgpd", "-c", "conf t", "-c", "router bgp 1"]
    other = FakeVtysh()
    assert tables.bgpd_argv(other, ["show x"]) == other.vtysh_argv(["show x"])


def test_tables_bgpd_configure_runs_each_router_in_order(tmp_path):
    lab = {"a": FakeVtysh(tmp_path / "a"), "b": FakeVtysh(tmp_path / "b")}
    tables.bgpd_configure(lab, ("b", "a"), "router bgp 65000", "no neighbor 192.0.2.1 x")
    for r in ("a", "b"):
        assert (tmp_path / r).read_text().splitlines() == [
            "configure terminal", "router bgp 65000", "no neighbor 192.0.2.1 x"]


def test_tables_json_docs_one_after_the_other():
    assert tables.json_docs('{"a": 1}\n{"b": [2]}  \n\n{}\n') == [{"a": 1}, {"b": [2]}, {}]
    assert tables.json_docs("  \n") == []
    with pytest.raises(ValueError):
        tables.json_docs('{"a": 1}\n% Unknown command\n')


def test_tables_table_rows_from_captured_frr_tables():
    tab = tables.table(FakeVtysh(), ("peer", "nexthops", "aspath", "origin", "med", "best"))
    assert tab["198.51.100.16/28"] == [("192.0.2.2", "192.0.2.2", "65002", "IGP", "-", True),
                                       ("192.0.2.6", "192.0.2.6", "65003 65002", "IGP", "-",
                                        False)]
    assert tab["198.51.100.0/28"][0] == ("(unspec)", "0.0.0.0", "", "IGP", "0", True)
    # IPv6: the link-local next hop is left out
    assert tab["2001:db8:102::/48"] == [("2001:db8:0:1::2", "2001:db8:0:1::2", "65002", "IGP",
                                         "-", True)]
    assert len(tab) == 6
    v4 = tables.table(FakeVtysh(), ("localpref", "weight"), afis=("ipv4",))
    assert sorted(v4) == tables.prefixes(FakeVtysh())
    assert v4["198.51.100.0/28"] == [("-", "0"), ("-", "32768")]
    path = fixture_json("frr_routes6.json")["routes"]["2001:db8:102::/48"][0]
    assert tables.global_nexthops(path) == ["2001:db8:0:1::2"]


def test_tables_rows_get_the_prefix():
    got = tables.rows({"p1": [{"x": 2}, {"x": 1}]}, lambda prefix, p: (prefix, p["x"]))
    assert got == {"p1": [("p1", 1), ("p1", 2)]}


@pytest.mark.parametrize("noise", [False, True])
def test_tables_detail_docs_in_one_run_or_one_by_one(tmp_path, noise):
    log = tmp_path / "log"
    want = ["198.51.100.0/28", "198.51.100.16/28"]
    docs = tables.detail_docs(FakeVtysh(log, noise), "ipv4", want)
    assert [d["prefix"] for d in docs] == want
    # one run with both commands; with noise, then one run each
    assert len(log.read_text().splitlines()) == (4 if noise else 2)
    assert tables.detail_docs(FakeVtysh(log), "ipv4", []) == []


def test_tables_detail_table_over_every_prefix():
    tab = tables.detail_table(FakeVtysh(), lambda p: (p["peer"]["peerId"],
                                                      p.get("community", {}).get("string", "")))
    assert sorted(tab) == tables.prefixes(FakeVtysh())
    assert tab["198.51.100.32/28"] == [("192.0.2.8", ""), ("192.0.2.9", "65000:198.51.100.32/28")]


def test_tables_differences_and_describe():
    tabs = {"dut": {"p1": [1], "p2": [2]}, "ref": {"p1": [1], "p2": [3], "p3": [4]},
            "sd": {}, "sr": {"p2": [5]}}
    diff = tables.differences(tabs, [("dut", "ref"), ("sd", "sr")])
    assert diff == {"p2": ["dut [2]\n    ref [3]", "sd None\n    sr [5]"],
                    "p3": ["dut None\n    ref [4]"]}
    assert tables.differences(tabs, [("dut", "ref")], ["p1", "p2"], sep=" / ") == {
        "p2": ["dut [2] / ref [3]"]}
    assert tables.differences(tabs, [("dut", "ref")], ["p1"]) == {}
    assert tables.describe({"p3": ["x"], "p2": ["a", "b"]}) == "p2:\n    a\n    b\np3:\n    x"


def test_tables_steady_stops_on_match_on_no_change_and_on_time():
    def reader(seq):
        it = iter(seq)
        return lambda: next(it)
    assert tables.steady(reader([3, 2, 0, 9]), bool, 60, interval=0) == 0
    assert tables.steady(reader([3, 2, 2, 9]), bool, 60, interval=0) == 2
    assert tables.steady(reader([3, 9]), bool, 0, interval=0) == 3


def test_rendered_write_all_and_stale(tmp_path, capsys):
    files = {"a/bgpd.conf": lambda: "router bgp 1\n", "b.conf": lambda: "x\n"}
    assert rendered.stale(str(tmp_path), files) == ["a/bgpd.conf", "b.conf"]  # missing
    rendered.write_all(str(tmp_path), files)
    assert "wrote" in capsys.readouterr().out
    assert rendered.stale(str(tmp_path), files) == []
    (tmp_path / "b.conf").write_text("y\n")
    assert rendered.stale(str(tmp_path), files) == ["b.conf"]


def test_time_scale_parse_default_and_refusals():
    from skualab import timescale
    assert timescale.parse(None) == 1.0 and timescale.parse("") == 1.0
    assert timescale.parse("10") == 10.0 and timescale.parse("2.5") == 2.5
    for bad in ("fast", "0.5", "0", "-3", "101", "nan", "inf"):
        with pytest.raises(ValueError, match="SKUALAB_TIME_SCALE"):
            timescale.parse(bad)


def test_time_scale_stretches_hold_times_only():
    from skualab import timescale
    conf = textwrap.dedent("""\
        router bgp 65001
         timers bgp 10 30
         neighbor 192.0.2.2 timers 3 9
         neighbor 2001:db8::2 timers 3 0
         neighbor 192.0.2.2 timers connect 5
         neighbor 192.0.2.6 timers 3 9000
        """)
    assert timescale.stretch_hold_times(conf, 1) == conf
    assert timescale.stretch_hold_times(conf, 10) == textwrap.dedent("""\
        router bgp 65001
         timers bgp 10 300
         neighbor 192.0.2.2 timers 3 90
         neighbor 2001:db8::2 timers 3 0
         neighbor 192.0.2.2 timers connect 5
         neighbor 192.0.2.6 timers 3 65535
        """)
    assert "timers 3 23" in timescale.stretch_hold_times(" neighbor 192.0.2.2 timers 3 9", 2.5)


def test_time_scale_stretches_the_per_test_timeout(pytester_like_run):
    """conftest's marker, scaled, is the one pytest-timeout obeys: a test bounded at 1 s
    that sleeps 2 s passes with SKUALAB_TIME_SCALE=4 and fails without it."""
    unscaled = pytester_like_run(scale=None)
    assert unscaled.returncode == 1 and b"Timeout" in unscaled.stdout, unscaled.stdout
    scaled = pytester_like_run(scale="4")
    assert scaled.returncode == 0 and b"1 passed" in scaled.stdout, scaled.stdout


@pytest.fixture
def pytester_like_run(tmp_path):
    """Runs a one-test file with this lab's conftest in a fresh pytest process."""
    import shutil
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copy(os.path.join(here, "conftest.py"), str(tmp_path / "conftest.py"))
    (tmp_path / "test_sleep.py").write_text(textwrap.dedent("""\
        import time
        import pytest

        @pytest.mark.timeout(1)
        def test_sleeps_two_seconds():
            time.sleep(2)
        """))

    def run(scale):
        env = dict(os.environ, PYTHONPATH=here)
        env.pop("SKUALAB_TIME_SCALE", None)
        if scale is not None:
            env["SKUALAB_TIME_SCALE"] = scale
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               str(tmp_path / "test_sleep.py")], cwd=str(tmp_path), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return run


def test_time_scale_budget_counts_elapsed_time_at_the_scale(monkeypatch):
    from skualab import Lab
    monkeypatch.setenv("SKUALAB_TIME_SCALE", "10")
    lab = Lab.__new__(Lab)
    lab._budgets = {"sessions": __import__("time").monotonic() - 100}
    # 100 s of real time is 10 s of the 60 s budget at scale 10.
    assert 49 < lab.budget("sessions", 60) <= 50
