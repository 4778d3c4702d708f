# SPDX-License-Identifier: ISC
"""Best-path equivalence between skua (dut) and FRR (ref), one test per tie-breaker.

The route set and the expected winners are in bestpath_cases.py.  FRR is first checked
against the expected winners (that proves the cases decide what they claim), then skua is
compared with FRR prefix by prefix: best path = (next hop, AS path) from each one's
`show bgp ipv4|ipv6 unicast json`, and the reason each gives for it (`selectionReason` of
`show bgp AFI unicast PREFIX json`, the "best (...)" of the text).  Then the best-path knobs
are switched on both at run time, and the IGP metric to the next hop is made to decide.
"""

import os
import re

import pytest

import bestpath_cases as bc
from skualab.tables import bgpd_configure

CONVERGE = 60
INJECTORS = list(bc.INJECTORS)


def best_paths(daemon):
    """{prefix: (next hop or "local", AS path)} of the best paths, {prefix: path count}."""
    best, count = {}, {}
    for afi in ("ipv4", "ipv6"):
        for prefix, paths in daemon.routes(afi).items():
            count[prefix] = len(paths)
            for p in paths:
                if not p["best"]:
                    continue
                hops = [h for h in p["nexthops"] if h]
                local = p["path"] == "" and (not hops or hops[0] in ("0.0.0.0", "::"))
                best[prefix] = (bc.LOCAL if local else hops[0], p["path"])
    return best, count


def all_paths_in(daemon):
    """Checker: every case prefix has all its paths (so the choice is final)."""
    def check(_):
        best, count = best_paths(daemon)
        missing = []
        for prefix, rule, paths, winner in bc.CASES:
            want = len(paths) + (1 if winner == bc.LOCAL else 0)
            if count.get(prefix, 0) < want or prefix not in best:
                missing.append("%s (%s): %d/%d paths%s" % (
                    prefix, rule, count.get(prefix, 0), want,
                    "" if prefix in best else ", no best"))
        return "; ".join(missing) or None
    return check


def converged(lab, name):
    d = lab[name]
    lab.expect("%s received every path of every case" % name, lambda: None, all_paths_in(d),
               timeout=lab.budget("converge-" + name, CONVERGE), interval=2,
               needs={name: [bc.INJECTORS[n][1] for n in INJECTORS]})
    return best_paths(d)[0]


def test_generated_configs_in_sync():
    """x1..x4/exabgp.conf are exactly what bestpath_cases.py renders."""
    for name in INJECTORS:
        with open(bc.config_path(name)) as f:
            assert f.read() == bc.render_exabgp(name), (
                "%s is stale: run tests/lab/scenarios/bestpath/bestpath_cases.py"
                % bc.config_path(name))


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    addrs = [bc.INJECTORS[n][1] for n in INJECTORS]
    lab.wait_all_established({"ref": addrs, "dut": addrs}, timeout=60)


@pytest.mark.timeout(120)
def test_reference_picks_the_designed_winners(lab):
    best = converged(lab, "ref")
    wrong = []
    for prefix, rule, _, winner in bc.CASES:
        want = bc.winner_nexthop(prefix, winner)
        got = best.get(prefix, ("absent", ""))[0]
        if got != want:
            wrong.append("%s %s: FRR chose %s, the case expects %s (%s)"
                         % (prefix, rule, got, want, winner))
    assert not wrong, ("the case table does not decide what it claims:\n" + "\n".join(wrong)
                       + "\nref log: " + os.path.join(lab.dir, "ref"))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("prefix,rule,paths,winner", bc.CASES, ids=[c[1] for c in bc.CASES])
def test_dut_best_path_equals_frr(lab, prefix, rule, paths, winner):
    ref = converged(lab, "ref")
    dut = converged(lab, "dut")
    assert dut.get(prefix) == ref.get(prefix), (
        "%s (%s): skua's best path %s, FRR's %s (designed winner %s)"
        % (prefix, rule, dut.get(prefix), ref.get(prefix), winner))


def test_whole_table_equal(lab):
    """Nothing beyond the cases differs either (no extra or missing prefixes)."""
    ref = converged(lab, "ref")
    dut = converged(lab, "dut")
    diff = sorted(p for p in set(ref) | set(dut) if ref.get(p) != dut.get(p))
    assert not diff, "\n".join("%s: skua %s, FRR %s" % (p, dut.get(p), ref.get(p))
                               for p in diff)


def best_and_reason(daemon, prefix):
    """(next hop, selectionReason) of prefix's best path, or None without one."""
    afi = "ipv6" if bc.is_v6(prefix) else "ipv4"
    doc = daemon.vtysh_json("show bgp %s unicast %s json" % (afi, prefix))
    for p in doc.get("paths", []):
        b = p.get("bestpath") or {}
        if b.get("overall"):
            hops = [h.get("ip") for h in p.get("nexthops", []) if h.get("ip")]
            local = p.get("aspath", {}).get("string", "") in ("", "Local") and \
                (not hops or hops[0] in ("0.0.0.0", "::"))
            return (bc.LOCAL if local else hops[0], b.get("selectionReason"))
    return None


def both_best(lab, prefix):
    return {r: best_and_reason(lab[r], prefix) for r in ("dut", "ref")}


def equals(want):
    """A checker for lab.expect: exactly want (None and tuples compared as they are)."""
    return lambda got: None if got == want else "want %r" % (want,)


@pytest.mark.timeout(120)
def test_selection_reason_equals_frr(lab):
    """skua names the rule that decided as FRR does, case by case."""
    converged(lab, "ref")
    converged(lab, "dut")
    wrong = []
    for prefix, rule, _, winner in bc.CASES:
        got = both_best(lab, prefix)
        if got["dut"] != got["ref"]:
            wrong.append("%s (%s): skua %s, FRR %s" % (prefix, rule, got["dut"], got["ref"]))
    assert not wrong, "\n".join(wrong)


# (command, case prefix, winner once on, FRR's reason then): each knob turns a case around.
KNOBS = [
    ("bgp always-compare-med", "198.51.100.80/29", "x1", "MED"),
    ("bgp bestpath med missing-as-worst", "198.51.100.72/29", "x1", "MED"),
    ("bgp bestpath as-path ignore", "198.51.100.32/29", "x2", "Router ID"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command,prefix,winner,reason", KNOBS, ids=[k[0] for k in KNOBS])
def test_knob_switched_like_frr(lab, command, prefix, winner, reason):
    """The knob takes effect at once on both (FRR re-runs every best path too), and `no`
    gives the designed winner back."""
    converged(lab, "ref")
    converged(lab, "dut")
    designed = [w for p, _, _, w in bc.CASES if p == prefix][0]
    before = both_best(lab, prefix)
    assert before["dut"][0] == before["ref"][0] == bc.winner_nexthop(prefix, designed), before
    on = (bc.winner_nexthop(prefix, winner), reason)
    bgpd_configure(lab, ("dut", "ref"), "router bgp 65000", command)
    try:
        lab.expect("%s: %s wins on both" % (command, winner), lambda: both_best(lab, prefix),
                   equals({"dut": on, "ref": on}), timeout=30)
    finally:
        bgpd_configure(lab, ("dut", "ref"), "router bgp 65000", "no " + command)
    lab.expect("no %s: the designed winner again" % command,
               lambda: {r: v and v[0] for r, v in both_best(lab, prefix).items()},
               equals({r: bc.winner_nexthop(prefix, designed) for r in ("dut", "ref")}),
               timeout=30)


def igp_routes(lab, op, metrics, check=True):
    """Kernel routes to x3's and x4's off-LAN next hops in dut's and ref's namespaces
    (check=False: for the clean-up, where some may not have been added)."""
    for r in ("dut", "ref"):
        for name, metric in metrics.items():
            lab.namespaces[r].exec(["ip", "route", op, bc.IGP_NEXTHOPS[name] + "/32", "via",
                                    bc.INJECTORS[name][1], "metric", str(metric)],
                                   check=check)


IGP_METRIC_RE = re.compile(r"^\s+(\S+) valid \[IGP metric (\d+)\]", re.M)


def igp_metrics(daemon):
    """{next hop: IGP metric} of the valid next hops of `show bgp nexthop` (FRR 8.4 has no
    JSON form of it)."""
    return dict(IGP_METRIC_RE.findall(daemon.vtysh("show bgp nexthop")))


def same_igp_metrics(lab, want):
    """Checker: dut shows the IGP metric of every next hop as ref does (a connected one: 0),
    and those of x3's and x4's next hops are `want` ({injector: metric})."""
    def check(_):
        dut, ref = igp_metrics(lab["dut"]), igp_metrics(lab["ref"])
        mine = {bc.IGP_NEXTHOPS[n]: str(m) for n, m in want.items()}
        if dut != ref or any(dut.get(a) != m for a, m in mine.items()):
            return "dut %s, ref %s, want %s" % (dut, ref, mine)
        return None
    return check


@pytest.mark.timeout(120)
def test_igp_metric_decides_like_frr(lab):
    """Two iBGP paths equal up to the IGP metric: the next hop whose kernel route has the
    lower metric wins on both; a better route to the other's next hop (only the metric
    changes) turns it around.  skua ignored the
    metric and kept x3 (lower peer address)."""
    converged(lab, "ref")
    converged(lab, "dut")
    nh = bc.IGP_NEXTHOPS
    metrics = {"x3": 20, "x4": 10}
    igp_routes(lab, "add", metrics)
    try:
        want = (nh["x4"], "IGP Metric")
        lab.expect("x4 wins on metric", lambda: both_best(lab, bc.IGP_PREFIX),
                   equals({"dut": want, "ref": want}), timeout=30)
        lab.expect("the same IGP metrics shown", lambda: None,
                   same_igp_metrics(lab, {"x3": 20, "x4": 10}), timeout=10)
        # A second route to x3's next hop, lower metric: the same gateway, only the metric
        # of the resolution changes.
        igp_routes(lab, "add", {"x3": 5})
        want = (nh["x3"], "IGP Metric")
        lab.expect("x3 wins on metric", lambda: both_best(lab, bc.IGP_PREFIX),
                   equals({"dut": want, "ref": want}), timeout=30)
        lab.expect("the same IGP metrics shown", lambda: None,
                   same_igp_metrics(lab, {"x3": 5, "x4": 10}), timeout=10)
    finally:
        igp_routes(lab, "del", metrics, check=False)
        igp_routes(lab, "del", {"x3": 5}, check=False)
    lab.expect("no next hop resolves", lambda: both_best(lab, bc.IGP_PREFIX),
               equals({"dut": None, "ref": None}), timeout=30)
