# SPDX-License-Identifier: ISC
"""RFC 8212 (`bgp ebgp-requires-policy`, on by default): skua (dut) against FRR 8.4 (ref).

dut and ref have the same neighbors and config: feeder (eBGP, announces 198.51.100.0/28 and
198.51.100.16/28), sink (eBGP, receives only) and ibgp (iBGP, announces 198.51.100.32/28);
each originates 203.0.113.0/28.  With no policy at all, an eBGP neighbor's routes are
discarded and it is sent nothing, while iBGP flows; an inbound route-map on feeder lets its
routes in (sink still gets nothing); an outbound prefix-list on sink sends it everything.
At every step dut's table, what sink and ibgp received from dut, the summary's
`State/PfxRcd`/`PfxSnt` columns (FRR's "(Policy)"), `peerState` and the neighbor JSON's
`inboundEbgpRequiresPolicy`/`outboundEbgpRequiresPolicy` equal ref's, and both are checked
against the designed outcome first.  Both logs carry FRR's warning.
"""

import pytest

from skualab.tables import bgpd_configure, prefixes

FEEDER, SINK, IBGP = "192.0.2.1", "192.0.2.4", "192.0.2.5"
DUT, REF = "192.0.2.2", "192.0.2.3"
FEEDER_NETS = ["198.51.100.0/28", "198.51.100.16/28"]
IBGP_NET = "198.51.100.32/28"
OWN_NET = "203.0.113.0/28"
WARNING = "EBGP inbound/outbound policy not properly setup"
CONVERGE = 30


def received_from(daemon, neighbor):
    """What `daemon` (sink or ibgp) holds from `neighbor`: its summary's pfxRcd."""
    peer = daemon.summary("ipv4").get("peers", {}).get(neighbor, {})
    return peer.get("pfxRcd") if peer.get("state") == "Established" else None


def summary_columns(daemon, neighbor):
    """The text summary row of `neighbor` from State/PfxRcd on (PfxRcd, PfxSnt, Desc)."""
    for line in daemon.vtysh("show bgp ipv4 unicast summary").splitlines():
        if line.startswith(neighbor + " "):
            return line.split()[9:]
    return None


def policy_view(daemon):
    """Per neighbor: summary columns, peerState, the two requires-policy neighbor keys."""
    peers = daemon.summary("ipv4").get("peers", {})
    out = {}
    for n in (FEEDER, SINK, IBGP):
        af = daemon.neighbor(n).get(n, {}).get("addressFamilyInfo", {}).get("ipv4Unicast", {})
        out[n] = (tuple(summary_columns(daemon, n) or ()), peers.get(n, {}).get("peerState"),
                  af.get("inboundEbgpRequiresPolicy"), af.get("outboundEbgpRequiresPolicy"))
    return out


def state(lab):
    """Everything compared between dut and ref, keyed by router."""
    out = {}
    for r, addr in (("dut", DUT), ("ref", REF)):
        out[r] = {"table": prefixes(lab[r]), "sink": received_from(lab["sink"], addr),
                  "ibgp": received_from(lab["ibgp"], addr), "view": policy_view(lab[r])}
    return out


def expect_step(lab, what, table, sink, ibgp, view):
    """ref first against the design, then dut against ref (both bounded waits)."""
    def check(router):
        def f():
            s = state(lab)[router]
            want = {"table": sorted(table), "sink": sink, "ibgp": ibgp}
            bad = ["%s: %r != %r" % (k, s[k], v) for k, v in want.items() if s[k] != v]
            for n, (rcd_snt, peer_state, inb, outb) in view.items():
                got = s["view"][n]
                if got[1:] != (peer_state, inb, outb) or got[0][:2] != rcd_snt:
                    bad.append("%s: %r, want %r" % (n, got, (rcd_snt, peer_state, inb, outb)))
            return "; ".join(bad) or None
        return f

    lab.expect("%s: ref (FRR) as designed" % what, lambda: 0,
               lambda _: check("ref")(), timeout=CONVERGE)
    lab.expect("%s: dut as designed" % what, lambda: 0, lambda _: check("dut")(),
               timeout=CONVERGE)
    s = state(lab)
    assert s["dut"] == s["ref"]


IN_MSG = "Inbound updates discarded due to missing policy"
OUT_MSG = "Outbound updates discarded due to missing policy"


def configure_ipv4(lab, line):
    """`line` in dut's and ref's ipv4 unicast, their three sessions up first."""
    for r in ("dut", "ref"):
        lab.require_established(r, [FEEDER, SINK, IBGP])
    bgpd_configure(lab, ("dut", "ref"), "router bgp 65000", "address-family ipv4 unicast", line)


@pytest.mark.timeout(120)
def test_sessions_established(lab):
    lab.wait_all_established({"dut": [FEEDER, SINK, IBGP], "ref": [FEEDER, SINK, IBGP]},
                             timeout=60)


@pytest.mark.timeout(120)
def test_no_policy_nothing_flows_over_ebgp(lab):
    for r in ("dut", "ref"):
        lab.require_established(r, [FEEDER, SINK, IBGP])
    # ibgp's route is in (iBGP needs no policy); feeder's are not; sink gets nothing; ibgp
    # gets our own network only (feeder's routes were never accepted).
    expect_step(lab, "no policy", [IBGP_NET, OWN_NET], sink=0, ibgp=1, view={
        FEEDER: (("(Policy)", "(Policy)"), "Policy", IN_MSG, OUT_MSG),
        SINK: (("(Policy)", "(Policy)"), "Policy", IN_MSG, OUT_MSG),
        IBGP: (("1", "1"), "OK", None, None)})


@pytest.mark.timeout(60)
def test_warning_logged(lab):
    for r in ("dut", "ref"):
        logs = "".join(open(p, errors="replace").read() for p in lab[r].logs())
        assert WARNING in logs, "%s: no RFC 8212 warning in %s" % (r, lab[r].logs())


@pytest.mark.timeout(120)
def test_inbound_route_map_lets_feeder_in(lab):
    configure_ipv4(lab, "neighbor %s route-map FROM-FEEDER in" % FEEDER)
    # feeder's routes in; still nothing to sink or back to feeder; ibgp gets them.
    expect_step(lab, "route-map in on feeder", FEEDER_NETS + [IBGP_NET, OWN_NET], sink=0,
                ibgp=3, view={
                    FEEDER: (("2", "(Policy)"), "Policy", None, OUT_MSG),
                    SINK: (("(Policy)", "(Policy)"), "Policy", IN_MSG, OUT_MSG),
                    IBGP: (("1", "3"), "OK", None, None)})


@pytest.mark.timeout(120)
def test_outbound_prefix_list_feeds_sink(lab):
    configure_ipv4(lab, "neighbor %s prefix-list TO-SINK out" % SINK)
    expect_step(lab, "prefix-list out on sink", FEEDER_NETS + [IBGP_NET, OWN_NET], sink=4,
                ibgp=3, view={
                    FEEDER: (("2", "(Policy)"), "Policy", None, OUT_MSG),
                    SINK: (("(Policy)", "4"), "Policy", IN_MSG, None),
                    IBGP: (("1", "3"), "OK", None, None)})
