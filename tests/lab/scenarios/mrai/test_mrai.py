# SPDX-License-Identifier: ISC
"""neighbor X advertisement-interval 20 (MRAI) towards sink: skua (dut) against FRR 8.4 (ref).

- the table goes to sink at once when the session comes up;
- a change right after an UPDATE waits: feeder adds 198.51.100.16/28 (more than 20 s after
  the table, so both send it at once); once sink has it from both, feeder adds
  198.51.100.32/28 and withdraws 198.51.100.16/28: dut and ref have the change at once,
  sink gets neither from either for a while (8 s of the 20 are looked at), then both,
  together, from both;
- show neighbors says 20 s (text and JSON) on both.
Nothing is asserted about exact times; the check is what sink holds while the interval runs.
"""

import time

import pytest

from skualab import tables
from skualab.tables import bgpd_vtysh

FEEDER, SINK, DUT, REF = "192.0.2.1", "192.0.2.4", "192.0.2.2", "192.0.2.3"
ROUTERS = ("dut", "ref")


def feeder_net(lab, prefix, no=False):
    bgpd_vtysh(lab["feeder"], "configure terminal", "router bgp 65010",
               "address-family ipv4 unicast", "%snetwork %s" % ("no " if no else "", prefix))


def at_sink(lab):
    """{dut|ref: sorted prefixes sink has from it}."""
    routes = tables.routes(lab["sink"])
    out = {"dut": [], "ref": []}
    for prefix, paths in routes.items():
        for p in paths:
            for r, addr in (("dut", DUT), ("ref", REF)):
                if p.get("peerId") == addr:
                    out[r].append(prefix)
    return {k: sorted(v) for k, v in out.items()}


def table(daemon):
    return tables.prefixes(daemon)


@pytest.mark.timeout(120)
def test_table_at_once(lab):
    lab.wait_all_established({"dut": [FEEDER, SINK], "ref": [FEEDER, SINK]}, timeout=60)
    lab.expect("sink has the table from both", lambda: at_sink(lab),
               {"dut": ["198.51.100.0/28"], "ref": ["198.51.100.0/28"]}, timeout=45)


@pytest.mark.timeout(180)
def test_changes_wait_for_the_interval(lab):
    # More than the interval after the table, a change goes at once from both (FRR's "case
    # I"), so both intervals start together, when sink gets .16.
    time.sleep(21)
    feeder_net(lab, "198.51.100.16/28")
    both = ["198.51.100.0/28", "198.51.100.16/28"]
    lab.expect("sink has .16 from both", lambda: at_sink(lab), {"dut": both, "ref": both},
               timeout=15)
    feeder_net(lab, "198.51.100.32/28")
    feeder_net(lab, "198.51.100.16/28", no=True)
    after = ["198.51.100.0/28", "198.51.100.32/28"]
    for r in ROUTERS:
        lab.expect("%s has the change" % r, lambda: table(lab[r]), after, timeout=10)
    t_end = time.monotonic() + 8
    while time.monotonic() < t_end:
        assert at_sink(lab) == {"dut": both, "ref": both}, "sent before the interval"
        time.sleep(1)
    lab.expect("sink has the change from both", lambda: at_sink(lab),
               {"dut": after, "ref": after}, timeout=60)


@pytest.mark.timeout(60)
def test_show(lab):
    for r in ROUTERS:
        nbr = lab[r].neighbor(SINK)[SINK]
        assert nbr["minBtwnAdvertisementRunsTimerMsecs"] == 20000, r
        assert "Minimum time between advertisement runs is 20 seconds" in \
            lab[r].vtysh("show bgp neighbors %s" % SINK), r
