# SPDX-License-Identifier: ISC
"""Best-path equivalence between skua (dut) and FRR (ref), one test per tie-breaker.

The route set and the expected winners are in bestpath_cases.py.  FRR is first checked
against the expected winners (that proves the cases decide what they claim), then skua is
compared with FRR prefix by prefix: best path = (next hop, AS path) from each one's
`show bgp ipv4|ipv6 unicast json`.
"""

import os

import pytest

import bestpath_cases as bc

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
