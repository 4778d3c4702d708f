# SPDX-License-Identifier: ISC
"""Prefix lists: the same routes and the same lists give skua (dut) and FRR 8.4 (ref) the
same result.

ExaBGP (inj) announces 63 routes (57 prefixes, 23 of them IPv6) as three eBGP neighbours,
the same to dut and ref; each filters them inbound through the same `ip|ipv6 prefix-list`
text (seq order, permit and deny, ge, le, ge+le, exact, `any`, implicit deny, a list with
only a description, a name that names no list) and advertises the result to its own FRR
sink through an outbound list.
The route set, lists and live changes are in plist_cases.py; plist_model.py computes what
FRR's semantics give.

What is checked:
- FRR first against the designed outcome (the cases decide what they claim);
- per case, dut's table equals ref's (accepted set, every path: peer, next hop, AS path,
  origin, MED, best) and dut's sink received what ref's sink received; then the whole tables;
- `show ip|ipv6 prefix-list [summary|detail|NAME PREFIX [longer|first-match]|seq N] [json]`
  of dut against ref's bgpd, counters put aside (hit counts, FRR's refcount) and FRR 8.4's
  `range entries` (always 0) and `Prefix-list with the last deletion/insertion` line;
- live changes made with vtysh on both (add deny entries, delete entries, create the
  missing list, remove `neighbor ... prefix-list`, insert an entry between an explicit seq
  and one numbered automatically): skua re-evaluates on its own
  (ROUTE-REFRESH inbound, re-send outbound); FRR 8.4 does so for outbound lists and for
  `neighbor ... prefix-list` changes, not when an inbound list's entries change: there both
  get `clear bgp * soft in`.  Then dut equals ref again.  What each needed is written to
  <lab dir>/live-changes.json.
"""

import json
import os
import re
import time

import pytest

import plist_cases as pc
from skualab import rendered
from skualab import tables as bgp_tables
from skualab.daemons import SkuaBgpd
from skualab.tables import bgpd_configure, bgpd_vtysh, describe, steady

CONVERGE = 45
SKUA_ON_ITS_OWN = 10  # seconds skua gets to apply a live change by itself
FRR_ON_ITS_OWN = 4  # how long FRR is watched before it is told `clear bgp * soft in`
ROUTERS = ("dut", "ref", "sinkd", "sinkr")
INJ = [v4 for _, v4, _, _ in pc.SESSIONS.values()]
STATE = pc.State()  # the policy in force; the live-change tests advance it


FIELDS = ("peer", "nexthops", "aspath", "origin", "med", "best")


def table(daemon):
    """{prefix: sorted [(peer, next hops, AS path, origin, MED, best)]}, both families."""
    return bgp_tables.table(daemon, FIELDS)


def rib_view(tab):
    """As State.rib(): {prefix: {next hop: (AS path, best)}}."""
    return {prefix: {nh: (path, best) for _, nh, path, _, _, best in paths}
            for prefix, paths in tab.items()}


def sink_view(tab):
    """As State.sink(): {prefix: AS path of the best path}."""
    return {prefix: path for prefix, paths in tab.items()
            for _, _, path, _, _, best in paths if best}


def tables(lab):
    return {name: table(lab[name]) for name in ROUTERS}


def model_mismatch(tabs, speaker, sink, prefixes=None):
    """Where speaker's table or its sink's differ from the model (None: nowhere)."""
    want_rib, want_sink = STATE.rib(), STATE.sink()
    rib, got_sink = rib_view(tabs[speaker]), sink_view(tabs[sink])
    keys = prefixes if prefixes is not None else set(want_rib) | set(rib) | set(want_sink) \
        | set(got_sink)
    bad = ["%s %s: has %s, designed %s" % (speaker, p, rib.get(p), want_rib.get(p))
           for p in sorted(keys) if rib.get(p) != want_rib.get(p)]
    bad += ["%s %s: received %s, designed %s" % (sink, p, got_sink.get(p), want_sink.get(p))
            for p in sorted(keys) if got_sink.get(p) != want_sink.get(p)]
    return "\n".join(bad) or None


PAIRS = (("dut", "ref"), ("sinkd", "sinkr"))


def differences(tabs, prefixes=None, pairs=PAIRS):
    """{prefix: what differs} between dut and ref, and between their sinks."""
    return bgp_tables.differences(tabs, pairs, prefixes, sep=" / ")


_settled = {}


def settled(lab):
    """The four tables once ref matches the design and dut matches it or stops changing."""
    if "tabs" in _settled:
        return _settled["tabs"]
    lab.expect("ref and sinkr hold the designed tables", lambda: tables(lab),
               lambda t: model_mismatch(t, "ref", "sinkr"),
               timeout=lab.budget("converge", CONVERGE), interval=2,
               needs={"ref": INJ, "sinkr": [pc.UPLINK4]})
    # The injector sent everything to both at once: dut is taken once it matches the
    # design or stops changing (the comparisons then say where it differs).
    tabs = steady(lambda: tables(lab), lambda t: model_mismatch(t, "dut", "sinkd"),
                  lab.budget("dut-settle", 20))
    _settled["tabs"] = tabs
    return tabs


@pytest.mark.timeout(10)
def test_generated_configs_in_sync():
    """The configs on disk are what plist_cases.py renders."""
    stale = rendered.stale(pc.HERE, pc.RENDERED)
    assert not stale, "stale: %s; run tests/lab/scenarios/policy_plist/plist_cases.py" % ", ".join(stale)


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    lab.wait_all_established({
        "dut": INJ + [pc.SINK4, pc.SINK6], "ref": INJ + [pc.SINK4, pc.SINK6],
        "sinkd": [pc.UPLINK4, pc.UPLINK6], "sinkr": [pc.UPLINK4, pc.UPLINK6]}, timeout=60)


@pytest.mark.timeout(120)
def test_reference_gives_the_designed_outcome(lab):
    tabs = settled(lab)
    assert model_mismatch(tabs, "ref", "sinkr") is None


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", pc.CASES)
def test_dut_accepts_what_frr_accepts(lab, case):
    tabs = settled(lab)
    diff = differences(tabs, pc.case_prefixes(case), [("dut", "ref")])
    assert not diff, "%s: skua's table differs from FRR's:\n%s" % (case, describe(diff))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", pc.CASES)
def test_dut_advertises_what_frr_advertises(lab, case):
    tabs = settled(lab)
    diff = differences(tabs, pc.case_prefixes(case), [("sinkd", "sinkr")])
    assert not diff, "%s: skua's sink got other routes than FRR's:\n%s" % (case, describe(diff))


@pytest.mark.timeout(120)
def test_whole_tables_equal(lab):
    """Nothing outside the cases differs either (paths, attributes, sinks)."""
    diff = differences(settled(lab))
    assert not diff, describe(diff)


# --- show commands ------------------------------------------------------------------------

def plist_json(daemon, cmd):
    """{list name: object} of bgpd's answer, without the counters: hit counts (skua's plain
    output has them, FRR's only in detail) and FRR's referenceCount."""
    doc = json.loads(bgpd_vtysh(daemon, cmd) or "{}")
    lists = doc.get("BGP", {})
    for pl in lists.values():
        for e in pl.get("entries", []):
            e.pop("hitCount", None)
            e.pop("referenceCount", None)
        # FRR 8.4 counts no range entries (always 0); skua counts the entries with ge/le.
        pl.pop("rangeEntries", None)
    return lists


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", [
    "show ip prefix-list json", "show ipv6 prefix-list json",
    "show ip prefix-list summary json", "show ipv6 prefix-list detail json",
    "show ip prefix-list IN4 json"])
def test_prefix_list_json_equal(lab, cmd):
    settled(lab)
    dut, ref = plist_json(lab["dut"], cmd), plist_json(lab["ref"], cmd)
    assert ref, "FRR's bgpd answered no list to %r" % cmd
    assert dut == ref, "%s:\nskua %s\nFRR  %s" % (cmd, json.dumps(dut, sort_keys=True),
                                                  json.dumps(ref, sort_keys=True))


HITS_RE = re.compile(r" \(hit count: \d+(, refcount: \d+)?\)")
RANGE_RE = re.compile(r"range entries: \d+")


def plist_text(daemon, cmd):
    """bgpd's text, less what cannot or need not match: hit counts (FRR: also refcount, and
    none after `longer`), FRR's `Prefix-list with the last deletion/insertion` line, and the
    range entry count (FRR 8.4 always prints 0)."""
    text = bgpd_vtysh(daemon, cmd, check=False)
    lines = [RANGE_RE.sub("range entries: N", HITS_RE.sub("", line.rstrip()))
             for line in text.splitlines()]
    return [line for line in lines if line
            and not line.startswith("Prefix-list with the last deletion/insertion")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", [
    "show ip prefix-list", "show ipv6 prefix-list", "show ip prefix-list IN4",
    "show ip prefix-list summary", "show ipv6 prefix-list detail",
    "show ip prefix-list summary EMPTY4", "show ip prefix-list IN4 seq 15",
    "show ip prefix-list IN4 198.51.100.0/24", "show ip prefix-list IN4 198.51.100.0/24 longer",
    "show ipv6 prefix-list IN6 2001:db8:2000::/36 longer",
    "show ip prefix-list IN4 198.51.100.128/25 first-match",
    "show ipv6 prefix-list IN6 2001:db8:3000::/48 first-match",
    "show ip prefix-list NOSUCH4"])
def test_prefix_list_text_equal(lab, cmd):
    settled(lab)
    dut, ref = plist_text(lab["dut"], cmd), plist_text(lab["ref"], cmd)
    assert ref, "FRR's bgpd said nothing to %r" % cmd
    assert dut == ref, "%s:\nskua:\n%s\nFRR:\n%s" % (cmd, "\n".join(dut), "\n".join(ref))


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


def wait_for_model(lab, speaker, sink, prefixes, seconds):
    """(seconds it took, None) once speaker and its sink match the model on `prefixes`;
    (None, the mismatch) if they do not within `seconds`."""
    start = time.monotonic()
    while True:
        lab.check_alive()
        tabs = {speaker: table(lab[speaker]), sink: table(lab[sink])}
        bad = model_mismatch(tabs, speaker, sink, prefixes)
        if bad is None:
            return round(time.monotonic() - start, 1), None
        if time.monotonic() - start > seconds:
            return None, bad
        time.sleep(0.5)


@pytest.mark.timeout(150)
@pytest.mark.parametrize("step", pc.STEPS, ids=[s[0] for s in pc.STEPS])
def test_live_change(lab, step):
    """Apply one change on both; both must end where the model says, and equal."""
    name, lines, _ = step
    before = settled(lab)
    lab.require_established("dut", INJ)
    lab.require_established("ref", INJ)
    old_rib, old_sink = STATE.rib(), STATE.sink()
    STATE.apply(step)
    new_rib, new_sink = STATE.rib(), STATE.sink()
    touched = {p for p in set(old_rib) | set(new_rib) | set(old_sink) | set(new_sink)
               if old_rib.get(p) != new_rib.get(p) or old_sink.get(p) != new_sink.get(p)}
    assert touched, "%s changes nothing by design: fix plist_cases.STEPS" % name

    bgpd_configure(lab, ("dut", "ref"), *lines)
    dut_alone, dut_alone_bad = wait_for_model(lab, "dut", "sinkd", touched, SKUA_ON_ITS_OWN)
    ref_alone, _ = wait_for_model(lab, "ref", "sinkr", touched, FRR_ON_ITS_OWN)
    cleared = ref_alone is None
    if cleared:
        # FRR does not re-filter on its own: the same command on both.
        for router in ("dut", "ref"):
            bgpd_vtysh(lab[router], "clear bgp * soft in")
    ref_done, ref_bad = wait_for_model(lab, "ref", "sinkr", touched, 20)
    dut_done = dut_alone
    if cleared:
        dut_done, _ = wait_for_model(lab, "dut", "sinkd", touched, 10)
    record(lab, {"step": name, "lines": lines, "touched": sorted(touched),
                 "skua_on_its_own_s": dut_alone, "frr_on_its_own_s": ref_alone,
                 "clear_soft_in": cleared, "frr_after_s": ref_done, "skua_after_s": dut_done})

    assert ref_done is not None, "FRR did not reach the designed tables:\n%s" % ref_bad
    # Divergences older than this step and outside what it touches were reported before.
    # Bounded wait: FRR's stand-in for skua has no kept Adj-RIB-In, its sessions with inj
    # restart on `clear bgp * soft in` (see plist_cases.py) and take a moment to refill.
    old = set(differences(before)) - touched
    deadline = time.monotonic() + 10
    while True:
        after = tables(lab)
        new = {p: d for p, d in differences(after).items() if p not in old}
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
