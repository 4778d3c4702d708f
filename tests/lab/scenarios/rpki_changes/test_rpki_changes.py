# SPDX-License-Identifier: ISC
"""RPKI changes in flight (issue 12, "Must show" 3), skua (dut) fed by two StayRTR caches:

- a VRP change at the preferred cache (one removed, three added) flips exactly the four
  affected routes (not found -> valid, invalid -> valid, valid -> not found, not found ->
  invalid) within the polling period, and the collector receives UPDATEs for exactly those
  four prefixes, each once (captured on dut's link to it); the reverse change flips them back;
- the preferred cache killed: dut fails over to the second (its extra VRP makes one route
  valid), says so in `show rpki cache-connection json`;
- every cache gone: the data is kept until the expire interval of the cache's End of Data
  (600 s, RFC 8210's minimum: checked for 10 s in CI), then dropped (SKUALAB_FULL=1): every
  route not found (never invalid), the invalid one sent to the collector again with the
  not-found local preference.

The times measured are written to <lab dir>/rpki-changes.json.
"""

import json
import os
import time

import pytest

import rpki_changes_cases as rc
from skualab import bgp_updates, rendered, rpki_show
from skualab.daemons import FrrBgpd
from skualab.probes import Capture

CONVERGE = 45
# A change reaches dut at StayRTR's next read of its file (1 s) and the Serial Notify it then
# sends, at the latest at the next poll; then the routes are revalidated.
FLIP_BOUND = rc.POLLING_PERIOD + 1 + 3
TIMES = {}
MEASURED = {}


def record(lab, key, value):
    MEASURED[key] = round(value, 2)
    with open(os.path.join(lab.dir, "rpki-changes.json"), "w") as f:
        json.dump(MEASURED, f, indent=1)


def states(lab):
    out = {}
    for r, (prefix, _) in rc.ROUTES.items():
        out[r] = rpki_show.path_states(lab["dut"], prefix).get(rc.SESSIONS["see"][1])
    return out


def sink_view(lab):
    out = {}
    for afi in ("ipv4", "ipv6"):
        out.update(rpki_show.best_local_prefs(lab["sink"], afi))
    return out


def wait_states(lab, name, timeout, interval=0.5):
    want = rc.STATES[name]
    return lab.expect("dut's states are %r" % name, lambda: states(lab),
                      lambda got: None if got == want else "designed %s" % want,
                      timeout=timeout, interval=interval,
                      needs={"dut": [rc.SESSIONS["see"][1], rc.SESSIONS["pol"][1]]})


def wait_sink(lab, name, timeout):
    """The sink's table once it follows dut's policy; the waits share one budget (a dut that
    never re-runs its policy costs it once, not once per test)."""
    want = rc.sink_view(rc.STATES[name])
    return lab.expect("the sink holds what RPKI-IN accepts under %r" % name,
                      lambda: sink_view(lab),
                      lambda got: None if got == want else "designed %s" % want,
                      timeout=min(timeout, lab.budget("sink", 40, minimum=5)), interval=0.5,
                      needs={"dut": list(rc.SINK[:2])})


@pytest.mark.timeout(30)
def test_files_are_current():
    assert rendered.stale(rc.HERE, rc.RENDERED) == [], "run rpki_changes_cases.py"


@pytest.mark.timeout(90)
def test_sessions(lab):
    lab.wait_all_established({"dut": [s[1] for s in rc.SESSIONS.values()]
                              + list(rc.SINK[:2])}, timeout=CONVERGE)


@pytest.mark.timeout(90)
def test_base_set_from_the_preferred_cache(lab):
    wait_states(lab, "base", CONVERGE)
    wait_sink(lab, "base", 20)
    conn = rpki_show.cache_connection(lab["dut"])
    assert conn["connectedGroup"] == 1, conn


def change_and_capture(lab, vrps, before, after):
    """Serve `vrps` at cache1; the states must go from `before` to `after` within FLIP_BOUND
    and the sink must receive UPDATEs for exactly the prefixes that flipped."""
    wait_states(lab, before, 20)
    # The test before waited for the sink; if it was not right, go on with the change
    # (what it does is this test's subject) and say so with the failure.
    was, want_before = sink_view(lab), rc.sink_view(rc.STATES[before])
    sink_before = "" if was == want_before else (
        "\n(and before the change the sink held %s, designed %s)" % (was, want_before))
    cap = Capture(lab, "dut", "to-sink", "tcp port 179", name="sink-%s" % after,
                  snaplen=65535).start()
    try:
        t0 = time.monotonic()
        lab["cache1"].set_vrps(vrps)
        wait_states(lab, after, FLIP_BOUND)
        elapsed = time.monotonic() - t0
        try:
            wait_sink(lab, after, 10)
        except AssertionError as e:
            raise AssertionError(str(e) + sink_before)
        time.sleep(2)  # anything more dut would send
    finally:
        cap.stop()
    record(lab, "flip to %s, s" % after, elapsed)
    pkts = cap.packets()
    ups = []
    for src, dst in ((rc.SINK[2], rc.SINK[0]), (rc.SINK[3], rc.SINK[1])):
        ups += bgp_updates.updates(bgp_updates.tcp_stream(pkts, src, dst))
    last, count = bgp_updates.changes(ups)
    want = {}
    for r, state in rc.STATES[after].items():
        if state != rc.STATES[before][r]:
            lp = rc.OUTCOME[state]
            want[rc.ROUTES[r][0]] = "withdrawn" if lp is None else lp
    extra = {p: a for p, a in last.items() if p not in want}
    if isinstance(lab["dut"], FrrBgpd):
        # FRR sends the affected routes twice and re-sends some unaffected ones unchanged
        # after a VRP change (seen in this lab): allowed for the stand-in only, and only when
        # nothing about the unaffected ones changed.
        unchanged = rc.sink_view(rc.STATES[after])
        assert all(unchanged.get(p) == a for p, a in extra.items()), extra
        last = {p: a for p, a in last.items() if p in want}
        count = {}
    assert last == want, "UPDATEs to the sink: %s, designed %s" % (last, want)
    assert all(n == 1 for n in count.values()), "prefixes sent more than once: %s" % count


@pytest.mark.timeout(90)
def test_vrp_change_flips_exactly_the_affected_routes(lab):
    change_and_capture(lab, rc.CHANGED, "base", "changed")


@pytest.mark.timeout(90)
def test_vrp_change_back_flips_them_back(lab):
    change_and_capture(lab, rc.BASE, "changed", "base")


@pytest.mark.timeout(90)
def test_failover_to_the_second_cache(lab):
    lab["cache1"].set_vrps(rc.BASE)  # whatever the tests before left
    wait_states(lab, "base", 20)
    t0 = time.monotonic()
    lab.stop_router("cache1")
    wait_states(lab, "backup", CONVERGE)
    record(lab, "failover, s", time.monotonic() - t0)
    conn = rpki_show.cache_connection(lab["dut"])
    states = {c["preference"]: c["state"] for c in conn["connections"]}
    assert states[2] == "connected" and states[1] != "connected", conn
    if not isinstance(lab["dut"], FrrBgpd):
        # FRR 8.4 keeps saying "Connected to group 1" (seen in this lab); skua names the
        # group in use.
        assert conn["connectedGroup"] == 2, conn
    wait_sink(lab, "backup", 10)


@pytest.mark.timeout(60)
def test_every_cache_gone_data_kept_until_expiry(lab):
    """The data outlives the connections: nothing changes while the expire interval runs."""
    held = lab.expect("dut holds data", lambda: states(lab),
                      lambda got: None if got != rc.STATES["none"] else "nothing", timeout=20)
    for cache in ("cache1", "cache2"):  # whichever the tests before left running
        if cache in lab.started:
            lab.stop_router(cache)
    TIMES["every cache gone"] = time.monotonic()
    TIMES["held"] = held
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        assert states(lab) == held, "data dropped before the expire interval"
        time.sleep(1)
    conn = rpki_show.cache_connection(lab["dut"])
    assert all(c["state"] != "connected" for c in conn["connections"]), conn


@pytest.mark.timeout(rc.EXPIRE + 120)
def test_data_expires_to_notfound(lab):
    """At the expire interval (600 s, counted from the last End of Data) the data is dropped:
    every route not found, never invalid, and the collector gets the invalid route back with
    the not-found local preference.  Ten minutes: SKUALAB_FULL=1 only."""
    if os.environ.get("SKUALAB_FULL") != "1":
        pytest.skip("the expiry itself takes %d s (RFC 8210's minimum expire interval): "
                    "run with SKUALAB_FULL=1" % rc.EXPIRE)
    gone = TIMES.get("every cache gone")
    assert gone, "test_every_cache_gone_data_kept_until_expiry did not run"

    def expired(got):
        if got == rc.STATES["none"]:
            return None
        return "still kept" if got == TIMES["held"] else "neither kept nor expired"
    lab.expect("data expired", lambda: states(lab), expired,
               timeout=rc.EXPIRE + 30 - (time.monotonic() - gone), interval=1)
    elapsed = time.monotonic() - gone
    record(lab, "expiry after the last cache went, s", elapsed)
    assert elapsed >= rc.EXPIRE - rc.POLLING_PERIOD - 1, (
        "dropped after %.1f s: before the expire interval (%d s)" % (elapsed, rc.EXPIRE))
    wait_sink(lab, "none", 10)
