# SPDX-License-Identifier: ISC
"""Extended communities end to end: the same routes and the same route-map give skua (dut)
and FRR 8.4 (ref) the same result, and their sinks receive the same.

ExaBGP (inj) announces 11 IPv4 routes with extended communities as raw octets (route targets
and sites of origin of the three forms, link bandwidth transitive and not, kinds FRR does not
name, unsorted and repeated) to dut and ref.  Both run the same inbound route-map
(ecomm_cases.py): `match extcommunity` over standard, expanded, numbered and missing lists (a
route without extended communities included), `set extcommunity rt|soo` (appended, repeats
kept), `set extcommunity bandwidth N [non-transitive]`, `set extcommunity none`.  Each
advertises to an eBGP sink (transitive values only, RFC 4360 6) and an iBGP one.

What is checked:
- FRR (ref and its sinks) against the designed outcome (ecomm_cases.DESIGNED): every case
  decides what it claims;
- per case, dut's table equals ref's (AS path, LOCAL_PREF, best, extended communities as
  `show bgp ipv4 unicast PREFIX json` gives them), and each of dut's sinks holds what ref's
  twin holds;
- the running-config lines of the feature, dut against ref.
"""

import pytest

import ecomm_cases as ec
from skualab import rendered
from skualab import tables as bgp_tables
from skualab.tables import bgpd_vtysh, describe, steady

CONVERGE = 45
SINK_ADDRS = [addr for _, addr in ec.SINKS.values()]
SPEAKERS = ("dut", "ref")
SINK_ROUTERS = {side: [ec.sink_router(s, side) for s in ec.SINKS] for side in SPEAKERS}
ALL_ROUTERS = SPEAKERS + tuple(SINK_ROUTERS["dut"]) + tuple(SINK_ROUTERS["ref"])


def table(daemon):
    """{prefix: sorted rows (AS path, LOCAL_PREF, best, extended communities)}."""
    return bgp_tables.detail_table(daemon, lambda p: (
        p.get("aspath", {}).get("string", ""), str(p.get("locPrf", "-")),
        bool(p.get("bestpath", {}).get("overall")),
        p.get("extendedCommunity", {}).get("string", "")))


def tables(lab):
    return {name: table(lab[name]) for name in ALL_ROUTERS}


def design_mismatch(tabs):
    """Where ref's side differs from the designed outcome (None: nowhere)."""
    bad = []
    where = {"ref": 1, ec.sink_router("eb", "ref"): 2, ec.sink_router("ib", "ref"): 3}
    for prefix, want in ec.DESIGNED.items():
        for router, k in where.items():
            rows = tabs[router].get(prefix)
            if want is None:
                if rows:
                    bad.append("%s holds %s, designed to be denied" % (router, prefix))
                continue
            got = [row[3] for row in rows or []]
            if got != [want[k]]:
                bad.append("%s %s: extended communities %s, designed %r"
                           % (router, prefix, got, want[k]))
            if k != 2 and [row[1] for row in rows or []] != [str(want[0])]:
                bad.append("%s %s: LOCAL_PREF %s, designed %s"
                           % (router, prefix, [row[1] for row in rows or []], want[0]))
    return "\n".join(bad) or None


_settled = {}


def pairs():
    return [("dut", "ref")] + list(zip(SINK_ROUTERS["dut"], SINK_ROUTERS["ref"]))


def differences(tabs, prefixes=None, which=None):
    return bgp_tables.differences(tabs, which or pairs(), prefixes)


def settled(lab):
    if "tabs" in _settled:
        return _settled["tabs"]
    lab.expect("ref and its sinks hold the designed tables", lambda: tables(lab),
               design_mismatch, timeout=lab.budget("converge", CONVERGE), interval=2,
               needs={"ref": [ec.INJ_ADDR]})
    # dut got everything at the same time: taken once it equals ref or stops changing.
    tabs = steady(lambda: tables(lab), differences, lab.budget("dut-settle", 20))
    _settled["tabs"] = tabs
    return tabs


@pytest.mark.timeout(10)
def test_generated_configs_in_sync():
    stale = rendered.stale(ec.HERE, ec.RENDERED)
    assert not stale, "stale: %s; run tests/lab/scenarios/policy_ecomm/ecomm_cases.py" % (
        ", ".join(stale))


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    sessions = {"dut": [ec.INJ_ADDR] + SINK_ADDRS, "ref": [ec.INJ_ADDR] + SINK_ADDRS}
    for side in SPEAKERS:
        for r in SINK_ROUTERS[side]:
            sessions[r] = [ec.UPLINK]
    lab.wait_all_established(sessions, timeout=60)


@pytest.mark.timeout(120)
def test_reference_gives_the_designed_outcome(lab):
    bad = design_mismatch(settled(lab))
    assert bad is None, bad


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", ec.CASES)
def test_dut_table_equals_frr(lab, case):
    diff = differences(settled(lab), ec.case_prefixes(case), [("dut", "ref")])
    assert not diff, "%s: skua's table differs from FRR's:\n%s" % (case, describe(diff))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", ec.CASES)
def test_dut_sinks_receive_what_frr_sinks_receive(lab, case):
    diff = differences(settled(lab), ec.case_prefixes(case), pairs()[1:])
    assert not diff, "%s: skua's sinks got other routes than FRR's:\n%s" % (case,
                                                                            describe(diff))


@pytest.mark.timeout(120)
def test_whole_tables_equal(lab):
    diff = differences(settled(lab))
    assert not diff, describe(diff)


def feature_lines(daemon):
    return [line.rstrip() for line in bgpd_vtysh(daemon, "show running-config").splitlines()
            if "extcommunity" in line]


@pytest.mark.timeout(60)
def test_running_config_lines_equal(lab):
    """The lines of the feature as FRR writes them back: standard entries sorted, kinds in
    lower case, numbered lists first; the route-maps' set values as typed."""
    settled(lab)
    dut, ref = feature_lines(lab["dut"]), feature_lines(lab["ref"])
    assert len(ref) > 10, ref
    assert dut == ref, "skua:\n%s\nFRR:\n%s" % ("\n".join(dut), "\n".join(ref))
