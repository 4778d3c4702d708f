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
- `show bgp extcommunity-list [NAME detail]`, the clauses of `show route-map` and the
  running-config lines of the feature, dut against ref.
"""

import pytest

import ecomm_cases as ec
from skualab.tables import bgpd_vtysh
from skualab.twin import Twin, TwinTests, sink_router


def row(path):
    """What is compared of a path: AS path, LOCAL_PREF, best, extended communities."""
    return (path.get("aspath", {}).get("string", ""), str(path.get("locPrf", "-")),
            bool(path.get("bestpath", {}).get("overall")),
            path.get("extendedCommunity", {}).get("string", ""))


def design_mismatch(tabs):
    """Where ref's side differs from the designed outcome (None: nowhere)."""
    bad = []
    where = {"ref": 1, sink_router("eb", "ref"): 2, sink_router("ib", "ref"): 3}
    for prefix, want in ec.DESIGNED.items():
        for router, k in where.items():
            rows = tabs[router].get(prefix)
            if want is None:
                if rows:
                    bad.append("%s holds %s, designed to be denied" % (router, prefix))
                continue
            got = [r[3] for r in rows or []]
            if got != [want[k]]:
                bad.append("%s %s: extended communities %s, designed %r"
                           % (router, prefix, got, want[k]))
            if k != 2 and [r[1] for r in rows or []] != [str(want[0])]:
                bad.append("%s %s: LOCAL_PREF %s, designed %s"
                           % (router, prefix, [r[1] for r in rows or []], want[0]))
    return "\n".join(bad) or None


TWIN = Twin(ec, row, design_mismatch)


class TestTwin(TwinTests):
    twin = TWIN


def feature_lines(daemon):
    return [line.rstrip() for line in bgpd_vtysh(daemon, "show running-config").splitlines()
            if "extcommunity" in line]


@pytest.mark.timeout(60)
def test_running_config_lines_equal(lab):
    """The lines of the feature as FRR writes them back: standard entries sorted, kinds in
    lower case, numbered lists first; the route-maps' set values as typed."""
    TWIN.settled(lab)
    dut, ref = feature_lines(lab["dut"]), feature_lines(lab["ref"])
    assert len(ref) > 10, ref
    assert dut == ref, "skua:\n%s\nFRR:\n%s" % ("\n".join(dut), "\n".join(ref))


def show_lines(daemon, cmd):
    return [line.rstrip() for line in bgpd_vtysh(daemon, cmd, check=False).splitlines()
            if line.strip()]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show bgp extcommunity-list",
                                 "show bgp extcommunity-list 10 detail",
                                 "show bgp extcommunity-list 110 detail",
                                 "show bgp extcommunity-list ECL-ORDER detail",
                                 "show bgp extcommunity-list ECL-UNK detail",
                                 "show bgp extcommunity-list NO-SUCH-LIST detail"])
def test_show_extcommunity_list_equal(lab, cmd):
    TWIN.settled(lab)
    dut, ref = show_lines(lab["dut"], cmd), show_lines(lab["ref"], cmd)
    assert ref, "FRR's bgpd said nothing to %r" % cmd
    assert dut == ref, "%s:\nskua:\n%s\nFRR:\n%s" % (cmd, "\n".join(dut), "\n".join(ref))


@pytest.mark.timeout(60)
def test_show_route_map_clauses_equal(lab):
    """The extended community clauses of `show route-map RM-IN` (FRR lists them in the order
    they were configured, which is the printed order here)."""
    TWIN.settled(lab)

    def clauses(daemon):
        return [line.strip() for line in show_lines(daemon, "show route-map RM-IN")
                if "extcommunity" in line]

    dut, ref = clauses(lab["dut"]), clauses(lab["ref"])
    assert len(ref) >= 8, ref
    assert dut == ref, "skua:\n%s\nFRR:\n%s" % ("\n".join(dut), "\n".join(ref))
