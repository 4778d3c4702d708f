# SPDX-License-Identifier: ISC
"""Large communities, send-community and the well-known communities: the same routes and the
same policy give skua (dut) and FRR 8.4 (ref) the same result.

ExaBGP (inj) announces 38 IPv4 routes with large communities (unsorted, repeated, 4-octet
values), communities (no-export, no-advertise, local-AS, blackhole, no-peer included) and
extended communities to dut and ref.  Both run the same policy (lcomm_cases.py): an inbound
route-map with `match large-community` over standard, expanded, exact-match and numbered lists
(a route without large communities included), `match community` over numbered lists,
`set large-community` replace / additive / none, `set large-comm-list NAME delete`,
`set comm-list NAME delete`; an outbound route-map towards the first eBGP sink (deny on a
large community, an additive set); and four eBGP sinks plus an iBGP one with different
`send-community` settings.

What is checked:
- FRR (ref and its sinks) against the designed outcome (lcomm_cases.DESIGNED_*): every case
  decides what it claims;
- per case, dut's table equals ref's (peer, AS path, LOCAL_PREF, best, communities, large
  communities), and each of dut's sinks holds what ref's twin holds (extended communities
  included: what send-community let through);
- `show bgp [large-]community-list [NAME detail]` texts, what `show bgp neighbors X [json]`
  says is sent to each sink, and the running-config lines of the features, dut against ref;
- a live `no neighbor X send-community large` and its undo through vtysh on both: skua
  applies it by itself; FRR is given `clear bgp X soft out` if it has not within a few
  seconds.
"""

import pytest

import lcomm_cases as lc
from skualab.tables import bgpd_configure, bgpd_vtysh
from skualab.twin import SIDES, Twin, TwinTests, sink_router

CONVERGE = 45
SKUA_ON_ITS_OWN = 10
FRR_ON_ITS_OWN = 4
PREFIXES = sorted({rt["prefix"] for rt in lc.ROUTES})


def row(path):
    """What is compared of a path: peer, AS path, LOCAL_PREF, best, communities, large
    communities, extended communities."""
    return (path.get("peer", {}).get("peerId", ""), path.get("aspath", {}).get("string", ""),
            str(path.get("locPrf", "-")), bool(path.get("bestpath", {}).get("overall")),
            path.get("community", {}).get("string", ""),
            path.get("largeCommunity", {}).get("string", ""),
            path.get("extendedCommunity", {}).get("string", ""))


def sink_name(router):
    return router[:-1]


def design_mismatch(tabs):
    """Where ref's side differs from the designed outcome (None: nowhere)."""
    bad = []
    ref = tabs["ref"]
    if sorted(ref) != PREFIXES:
        bad.append("ref holds %s, designed %s" % (sorted(ref), PREFIXES))
    for prefix, lp in lc.DESIGNED_LP.items():
        got = [row[2] for row in ref.get(prefix, [])]
        if got != [str(lp) if lp else "-"]:
            bad.append("ref %s: LOCAL_PREF %s, designed %s" % (prefix, got, lp))
    for prefix, want in lc.DESIGNED_LC.items():
        got = [row[5] for row in ref.get(prefix, [])]
        if got != [want]:
            bad.append("ref %s: large communities %s, designed %r" % (prefix, got, want))
    for prefix, want in lc.DESIGNED_COMM.items():
        got = [row[4] for row in ref.get(prefix, [])]
        if got != [want]:
            bad.append("ref %s: communities %s, designed %r" % (prefix, got, want))
    for prefix, want in lc.DESIGNED_RECEIVERS.items():
        got = {sink_name(r) for r in TWIN.sink_routers["ref"] if prefix in tabs[r]}
        if got != want:
            bad.append("%s reached %s, designed %s" % (prefix, sorted(got), sorted(want)))
    # send-community: what each eBGP sink got of 203.0.113.0/29 (comms, large, extended)
    kinds = {"e1": (True, True, True), "e2": (False, True, True),
             "e3": (True, False, False), "e4": (False, False, False),
             "ib": (True, True, True)}
    for sink, want in kinds.items():
        rows = tabs[sink_router(sink, "ref")].get("203.0.113.0/29", [])
        got = tuple(bool(rows and rows[0][k]) for k in (4, 5, 6))
        if got != want:
            bad.append("%s: 203.0.113.0/29 carries (comm, large, ext) %s, designed %s"
                       % (sink_router(sink, "ref"), got, want))
    return "\n".join(bad) or None


TWIN = Twin(lc, row, design_mismatch, CONVERGE)


class TestTwin(TwinTests):
    twin = TWIN


# --- show and running-config ----------------------------------------------------------------

def show_lines(daemon, cmd):
    return [line.rstrip() for line in bgpd_vtysh(daemon, cmd, check=False).splitlines()
            if line.strip()]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cmd", ["show bgp large-community-list",
                                 "show bgp community-list",
                                 "show bgp community-list 120 detail",
                                 "show bgp large-community-list 10 detail",
                                 "show bgp large-community-list 110 detail",
                                 "show bgp large-community-list LC-STD detail",
                                 "show bgp large-community-list LC-EXP detail",
                                 "show bgp large-community-list NO-SUCH-LIST detail"])
def test_show_large_community_list_equal(lab, cmd):
    TWIN.settled(lab)
    dut, ref = show_lines(lab["dut"], cmd), show_lines(lab["ref"], cmd)
    assert ref, "FRR's bgpd said nothing to %r" % cmd
    assert dut == ref, "%s:\nskua:\n%s\nFRR:\n%s" % (cmd, "\n".join(dut), "\n".join(ref))


# What FRR 8.4 says it sends to each sink (commAttriSentToNbr; text "(...)"), by design.
# (FRR's JSON leaves large communities out of it: e2 sends extended and large.)
SENT_KINDS = {"e1": "extendedAndStandard", "e2": "extended", "e3": "standard", "e4": None,
              "ib": "extendedAndStandard"}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("sink", list(lc.SINKS))
def test_show_neighbor_send_community_equal(lab, sink):
    TWIN.settled(lab)
    addr = lc.SINKS[sink][1]

    def kind(daemon):
        doc = daemon.vtysh_json("show bgp neighbors %s json" % addr)
        return (doc.get(addr, {}).get("addressFamilyInfo", {}).get("ipv4Unicast", {})
                .get("commAttriSentToNbr"))

    def lines(daemon):
        return [line.strip() for line in
                bgpd_vtysh(daemon, "show bgp neighbors %s" % addr).splitlines()
                if "Community attribute" in line]

    assert kind(lab["ref"]) == SENT_KINDS[sink], "FRR: %s" % kind(lab["ref"])
    assert kind(lab["dut"]) == kind(lab["ref"])
    assert lines(lab["dut"]) == lines(lab["ref"])


FEATURE_WORDS = ("send-community", "large-community", "large-comm-list", "comm-list",
                 "community-list", "match community")


def feature_lines(daemon):
    return [line.rstrip() for line in bgpd_vtysh(daemon, "show running-config").splitlines()
            if any(w in line for w in FEATURE_WORDS)]


@pytest.mark.timeout(60)
def test_running_config_lines_equal(lab):
    """The lines of these features as FRR writes them back (send-community: only the `no`
    forms, FRR's defaults being all three kinds; standard large community entries sorted;
    numbered lists first, without their type)."""
    TWIN.settled(lab)
    dut, ref = feature_lines(lab["dut"]), feature_lines(lab["ref"])
    assert any("send-community" in line for line in ref), ref
    # In FRR's order, but for the route-maps' own order (FRR: as created; skua: by name).
    top = [line for line in dut if not line.startswith(" ")], \
        [line for line in ref if not line.startswith(" ")]
    assert top[0] == top[1], "skua:\n%s\nFRR:\n%s" % ("\n".join(dut), "\n".join(ref))
    assert sorted(dut) == sorted(ref), "skua:\n%s\nFRR:\n%s" % ("\n".join(dut),
                                                                "\n".join(ref))


# --- a live change ----------------------------------------------------------------------------

def sink_rows(lab, side, prefix="203.0.113.0/29"):
    return TWIN.table(lab[sink_router("e1", side)]).get(prefix)


def live_change(lab, lines, check, what):
    """Apply the lines on dut and ref; dut must get there by itself, ref may get a soft
    clear towards e1."""
    TWIN.settled(lab)
    e1 = lc.SINKS["e1"][1]
    bgpd_configure(lab, SIDES, *lines)
    lab.expect("skua applied %s by itself" % what, lambda: sink_rows(lab, "dut"), check,
               timeout=SKUA_ON_ITS_OWN, interval=1)
    try:
        lab.expect("FRR applied " + what, lambda: sink_rows(lab, "ref"), check,
                   timeout=FRR_ON_ITS_OWN, interval=1)
    except AssertionError:
        bgpd_vtysh(lab["ref"], "clear bgp ipv4 unicast %s soft out" % e1)
        lab.expect("FRR applied %s after a soft clear" % what, lambda: sink_rows(lab, "ref"),
                   check, timeout=20, interval=1)
    assert sink_rows(lab, "dut") == sink_rows(lab, "ref")


def carries(large):
    def check(rows):
        if not rows:
            return "no route"
        return None if bool(rows[0][5]) == large and rows[0][4] else "rows %s" % rows
    return check


@pytest.mark.timeout(120)
def test_live_send_community(lab):
    af = ["router bgp %d" % lc.LOCAL_AS, "address-family ipv4 unicast"]
    e1 = lc.SINKS["e1"][1]
    live_change(lab, af + ["no neighbor %s send-community large" % e1],
                carries(False), "no send-community large")
    live_change(lab, af + ["neighbor %s send-community large" % e1],
                carries(True), "send-community large")
    # Back to the default: nothing printed for e1.
    assert not [line for line in feature_lines(lab["dut"]) if e1 in line]
