# SPDX-License-Identifier: ISC
"""Route-maps, community lists and AS path lists: the same routes and the same policy give
skua (dut) and FRR 8.4 (ref) the same result.

ExaBGP (inj) announces 64 routes (60 prefixes, 12 of them IPv6) with varied AS paths (AS_SETs
included), MEDs and communities (no-export and no-advertise included, some unsorted or
repeated) as four eBGP neighbours, the same to dut and ref.  Both run the same policy text:
inbound route-maps with every supported match (ip/ipv6 prefix-list, as-path, metric,
community [exact-match], standard and expanded lists) and set (local-preference and metric
N/+N/-N, weight, as-path prepend, ip next-hop, community / additive / none), on-match next and
goto, call, deny entries, implicit deny, lists that do not exist, a route-map that does not
exist, filter-list in; outbound, a filter-list and a route-map towards an eBGP sink and a
route-map towards an iBGP sink (FRR routers of their own, one pair per speaker).
The routes, policy and live changes are in rmap_cases.py; rmap_model.py computes what FRR's
semantics give, with what the lab found FRR to do where it is not obvious.

What is checked:
- FRR (ref and its sinks) against the designed outcome: every case decides what it claims;
- per case, dut's table equals ref's (accepted paths, next hop, AS path, origin, MED,
  LOCAL_PREF, weight, best, communities) and dut's sinks received what ref's sinks received;
  then the whole tables; the tag `set tag` gives, in the detail view (text and JSON);
- `show route-map NAME`, `show bgp community-list`, `show bgp as-path-access-list [json]` and
  the policy names in `show bgp neighbors X json` of dut against ref, on what both say
  (rmap_show.py); the rest of the texts' differences (format, counters, order) is written to
  <lab dir>/show-findings.txt, not asserted on;
- live changes made with vtysh on both (a set value, a deny entry, a community list entry, an
  AS path list entry, `no neighbor ... route-map in`, an outbound set, `no neighbor ...
  route-map out`): skua must apply each by itself; FRR is given `clear bgp * soft in|out`
  when it does not within a few seconds (both get it).  Then dut equals ref again.  What each
  needed is written to <lab dir>/live-changes.json.
"""

import json
import os
import time

import pytest

import rmap_cases as rc
import rmap_show
from rmap_tables import bgpd_vtysh, describe, differences, table
from skualab import rendered
from skualab.daemons import SkuaBgpd
from skualab.tables import steady

CONVERGE = 45
SKUA_ON_ITS_OWN = 10  # seconds skua gets to apply a live change by itself
FRR_ON_ITS_OWN = 4  # how long FRR (route-map delay-timer 1) is watched before a clear
INJ = [v4 for _, v4, _, _ in rc.SESSIONS.values()]
UPLINKS = [addr for s in rc.SINKS.values() for addr in s[3:5]]
SINK_ADDRS = [addr for s in rc.SINKS.values() for addr in s[1:3]]
# The designed tables are ref's and its sinks'; dut's side is compared with the same design.
SIDES = {"ref": ("ref", "sinkr", "isinkr"), "dut": ("dut", "sinkd", "isinkd")}
PAIRS = (("dut", "ref"), ("sinkd", "sinkr"), ("isinkd", "isinkr"))
STATE = rc.State()  # the policy in force; the live-change tests advance it


def tables(lab, routers=("dut", "ref", "sinkd", "sinkr", "isinkd", "isinkr")):
    return {name: table(lab[name]) for name in routers}


def model_mismatch(tabs, side):
    """Where one side's tables differ from the design (None: nowhere)."""
    bad = []
    for want, router in zip(STATE.tables().values(), SIDES[side]):
        got = tabs[router]
        bad += ["%s %s:\n    has      %s\n    designed %s" % (router, p, got.get(p),
                                                              want.get(p))
                for p in sorted(set(want) | set(got)) if got.get(p) != want.get(p)]
    return "\n".join(bad) or None


_settled = {}


def settled(lab):
    """The six tables once ref's side matches the design and dut's matches it or stops
    changing."""
    if "tabs" in _settled:
        return _settled["tabs"]
    if not isinstance(lab["dut"], SkuaBgpd):
        # FRR standing in for skua runs dut's config, without ref's timer: the same timer,
        # or each live change waits FRR's default 5 s there.
        bgpd_vtysh(lab["dut"], "configure terminal", "bgp route-map delay-timer 1")
    lab.expect("ref and its sinks hold the designed tables",
               lambda: tables(lab, SIDES["ref"]), lambda t: model_mismatch(t, "ref"),
               timeout=lab.budget("converge", CONVERGE), interval=2,
               needs={"ref": INJ, "sinkr": UPLINKS[:2], "isinkr": UPLINKS[2:]})
    # The injector sent everything to both at once: dut is taken once it matches the
    # design or stops changing (the comparisons then say where it differs).
    tabs = steady(lambda: tables(lab), lambda t: model_mismatch(t, "dut"),
                  lab.budget("dut-settle", 20))
    _settled["tabs"] = tabs
    return tabs


@pytest.mark.timeout(10)
def test_generated_configs_in_sync():
    """The configs on disk are what rmap_cases.py renders."""
    stale = rendered.stale(rc.HERE, rc.RENDERED)
    assert not stale, "stale: %s; run tests/lab/scenarios/policy_rmap/rmap_cases.py" % ", ".join(stale)


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    sessions = {"dut": INJ + SINK_ADDRS, "ref": INJ + SINK_ADDRS}
    for sink, (d, r) in rc.SINK_ROUTERS.items():
        sessions[d] = sessions[r] = list(rc.SINKS[sink][3:5])
    lab.wait_all_established(sessions, timeout=60)


@pytest.mark.timeout(120)
def test_reference_gives_the_designed_outcome(lab):
    tabs = settled(lab)
    bad = model_mismatch(tabs, "ref")
    assert bad is None, bad


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", rc.CASES)
def test_dut_accepts_what_frr_accepts(lab, case):
    tabs = settled(lab)
    diff = differences(tabs, [("dut", "ref")], rc.case_prefixes(case))
    assert not diff, "%s: skua's table differs from FRR's:\n%s" % (case, describe(diff))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", rc.CASES)
def test_dut_advertises_what_frr_advertises(lab, case):
    tabs = settled(lab)
    diff = differences(tabs, PAIRS[1:], rc.case_prefixes(case))
    assert not diff, "%s: skua's sinks got other routes than FRR's:\n%s" % (case,
                                                                            describe(diff))


@pytest.mark.timeout(120)
def test_whole_tables_equal(lab):
    """Nothing outside the cases differs either (paths, attributes, sinks)."""
    diff = differences(settled(lab), PAIRS)
    assert not diff, describe(diff)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("prefix,tag", [("203.0.113.224/29", 78), ("203.0.113.208/29", None)])
def test_tag_in_detail(lab, prefix, tag):
    """set tag: a's route carries the tag RM-A set (it is not sent: the sinks only see what
    match tag did), printed as FRR prints it, ", tag N" after the weight, and "tag" in JSON;
    an untagged route shows none."""
    settled(lab)
    cmd = "show bgp ipv4 unicast %s" % prefix
    lines = {r: [ln.strip() for ln in bgpd_vtysh(lab[r], cmd).splitlines()
                 if ln.strip().startswith("Origin ")] for r in ("dut", "ref")}
    assert lines["dut"] == lines["ref"] and len(lines["ref"]) == 1, lines
    assert (", tag %d," % tag in lines["ref"][0]) if tag else ", tag " not in lines["ref"][0]
    docs = {r: json.loads(bgpd_vtysh(lab[r], cmd + " json")) for r in ("dut", "ref")}
    assert [p.get("tag") for p in docs["dut"]["paths"]] == [tag], docs["dut"]
    assert [p.get("tag") for p in docs["ref"]["paths"]] == [tag], docs["ref"]


# --- show commands ------------------------------------------------------------------------

def note_difference(lab, cmd, dut, ref):
    """Raw differences between skua's and FRR's show texts go to <lab dir>/show-findings.txt
    (format, counters, order: see rmap_show.py); the tests assert on what both say."""
    diff = rmap_show.unified(cmd, dut, ref)
    if diff:
        with open(os.path.join(lab.dir, "show-findings.txt"), "a") as f:
            f.write(diff + "\n")


def show_both(lab, cmd, reduce):
    settled(lab)
    dut, ref = rmap_show.text(lab["dut"], cmd), rmap_show.text(lab["ref"], cmd)
    note_difference(lab, cmd, dut, ref)
    return reduce(dut), reduce(ref)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(rc.State().policy.maps))
def test_show_route_map_equal(lab, name):
    cmd = "show route-map %s" % name
    dut, ref = show_both(lab, cmd, rmap_show.route_map)
    assert len(ref) > 2, "FRR's bgpd said too little to %r: %s" % (cmd, ref)
    assert dut == ref, "%s:\nskua:\n%s\nFRR:\n%s" % (cmd, "\n".join(dut), "\n".join(ref))


@pytest.mark.timeout(60)
def test_show_community_lists_equal(lab):
    dut, ref = show_both(lab, "show bgp community-list", rmap_show.community_lists)
    assert len(ref) == sum(len(e) for _, e in rc.State().policy.clists.values()), ref
    assert dut == ref, "skua:\n%s\nFRR:\n%s" % ("\n".join(map(str, dut)),
                                               "\n".join(map(str, ref)))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show bgp as-path-access-list",
                                 "show bgp as-path-access-list AS-D-IN"])
def test_show_as_path_lists_equal(lab, cmd):
    dut, ref = show_both(lab, cmd, rmap_show.as_path_lists)
    assert ref, "FRR's bgpd said nothing to %r" % cmd
    assert dut == ref, "%s:\nskua %s\nFRR  %s" % (cmd, dut, ref)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show bgp as-path-access-list json",
                                 "show bgp as-path-access-list AS-OUT json"])
def test_show_as_path_lists_json_equal(lab, cmd):
    dut, ref = show_both(lab, cmd, rmap_show.as_path_lists_json)
    assert ref, "FRR's bgpd answered nothing to %r" % cmd
    assert dut == ref, "%s:\nskua %s\nFRR  %s" % (cmd, dut, ref)


POLICY_KEYS = ("routeMapForIncomingAdvertisements", "routeMapForOutgoingAdvertisements",
               "incomingUpdateAsPathFilterList", "outgoingUpdateAsPathFilterList")


def neighbor_policy(daemon, addr):
    doc = daemon.vtysh_json("show bgp neighbors %s json" % addr).get(addr, {})
    return {af: {k: v for k, v in info.items() if k in POLICY_KEYS}
            for af, info in doc.get("addressFamilyInfo", {}).items()}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("neighbor", list(rc.SESSIONS) + list(rc.SINKS))
def test_neighbor_policy_names_equal(lab, neighbor):
    settled(lab)
    addr = rc.neighbor_addr(neighbor, "ipv4")
    dut, ref = neighbor_policy(lab["dut"], addr), neighbor_policy(lab["ref"], addr)
    assert any(ref.values()), "FRR shows no policy for %s: %s" % (addr, ref)
    assert dut == ref, "%s:\nskua %s\nFRR  %s" % (addr, dut, ref)


# --- live changes -------------------------------------------------------------------------

def record(lab, entry):
    path = os.path.join(lab.dir, "live-changes.json")
    try:
        with open(path) as f:
            done = json.load(f)
    except (OSError, ValueError):
        done = []
    with open(path, "w") as f:
        json.dump(done + [entry], f, indent=1)


def wait_until(lab, routers, check, seconds):
    """(seconds it took, None) once check(tables of routers) says None; (None, what it last
    said) if that does not happen within `seconds`."""
    start = time.monotonic()
    while True:
        lab.check_alive()
        bad = check(tables(lab, routers))
        if bad is None:
            return round(time.monotonic() - start, 1), None
        if time.monotonic() - start > seconds:
            return None, bad
        time.sleep(0.5)


def designed(side, touched, only=None):
    """check(): None once the side's routers hold the designed rows for the touched (table
    index, prefix) pairs (of tables `only` if given)."""
    want = list(STATE.tables().values())

    def check(tabs):
        bad = ["%s %s:\n    has      %s\n    designed %s"
               % (SIDES[side][i], p, tabs[SIDES[side][i]].get(p), want[i].get(p))
               for i, p in sorted(touched) if (only is None or i in only)
               and tabs[SIDES[side][i]].get(p) != want[i].get(p)]
        return "\n".join(bad) or None
    return check


def reacted(before, touched, old):
    """check(): None once dut's side holds, for every touched pair where it held the old
    design, the new design or at least another row than before (a wrong one is then
    reported by the comparison with FRR, not as a missed change).  Where it held something
    else before, the tests above reported it: nothing to judge."""
    want = list(STATE.tables().values())
    judged = [(i, p) for i, p in sorted(touched)
              if before[SIDES["dut"][i]].get(p) == old[i].get(p)]

    def check(tabs):
        bad = ["%s %s: still %s" % (SIDES["dut"][i], p, before[SIDES["dut"][i]].get(p))
               for i, p in judged
               if tabs[SIDES["dut"][i]].get(p) != want[i].get(p)
               and tabs[SIDES["dut"][i]].get(p) == before[SIDES["dut"][i]].get(p)]
        return "\n".join(bad) or None
    return check


def new_differences(before, after):
    """{prefix: what differs} for the pairs of tables that agreed on it before."""
    new = {}
    for pair in PAIRS:
        old = differences(before, [pair])
        for p, d in differences(after, [pair]).items():
            if p not in old:
                new.setdefault(p, []).extend(d)
    return new


def touched_by(step):
    """Apply the step to the design: the (table index, prefix) pairs whose rows it changes,
    and the design before."""
    old = list(STATE.tables().values())
    STATE.apply(step)
    new = list(STATE.tables().values())
    return {(i, p) for i in range(len(old)) for p in set(old[i]) | set(new[i])
            if old[i].get(p) != new[i].get(p)}, old


@pytest.mark.timeout(150)
@pytest.mark.parametrize("step", rc.STEPS, ids=[s[0] for s in rc.STEPS])
def test_live_change(lab, step):
    """Apply one change on both; both must end where the design says, and equal."""
    name, lines, _ = step
    before = settled(lab)
    lab.require_established("dut", INJ)
    lab.require_established("ref", INJ)
    touched, old_design = touched_by(step)
    assert touched, "%s changes nothing by design: fix rmap_cases.STEPS" % name

    for router in ("dut", "ref"):
        bgpd_vtysh(lab[router], "configure terminal", *lines)
    dut_alone, dut_alone_bad = wait_until(lab, SIDES["dut"],
                                          reacted(before, touched, old_design), SKUA_ON_ITS_OWN)
    ref_alone, _ = wait_until(lab, SIDES["ref"], designed("ref", touched), FRR_ON_ITS_OWN)
    clears = []
    if ref_alone is None:
        # FRR did not re-apply on its own: first its table, then what it advertises; the
        # same command to both.
        for direction, tables_of in (("in", (0,)), ("out", (1, 2))):
            if designed("ref", touched, tables_of)(tables(lab, SIDES["ref"])):
                for router in ("dut", "ref"):
                    bgpd_vtysh(lab[router], "clear bgp * soft %s" % direction)
                clears.append("clear bgp * soft %s" % direction)
                wait_until(lab, SIDES["ref"], designed("ref", touched, tables_of), 10)
    ref_done, ref_bad = wait_until(lab, SIDES["ref"], designed("ref", touched), 10)
    record(lab, {"step": name, "lines": lines, "touched": sorted(touched),
                 "skua_on_its_own_s": dut_alone, "frr_on_its_own_s": ref_alone,
                 "frr_needed": clears, "frr_after_s": ref_done})
    assert ref_done is not None, "FRR did not reach the designed tables:\n%s" % ref_bad

    # Differences older than this step were reported by the tests above; a pair of tables
    # that agreed on a prefix before must agree after.  Bounded wait: FRR's stand-in for
    # skua has no kept Adj-RIB-In, its sessions with inj restart on a route refresh (see
    # rmap_cases.py) and take a moment to refill.
    deadline = time.monotonic() + 15
    while True:
        after = tables(lab)
        new = new_differences(before, after)
        if not new or time.monotonic() > deadline:
            break
        time.sleep(1)
    _settled["tabs"] = after
    assert not new, "%s: skua and FRR differ after the change:\n%s" % (name, describe(new))
    if isinstance(lab["dut"], SkuaBgpd):
        # skua's claim (FRR's stand-in does not make it): no clear needed, in or out.
        assert dut_alone is not None, (
            "%s: skua did not apply the change by itself within %ds:\n%s"
            % (name, SKUA_ON_ITS_OWN, dut_alone_bad))
