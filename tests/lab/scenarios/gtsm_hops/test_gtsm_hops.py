# SPDX-License-Identifier: ISC
"""GTSM hop counts (RFC 5082): what `ttl-security hops N` lets through, judged by the kernel.

    far (FRR, AS 65002) --- rt --- dut (skua, AS 65001) --- near (skua, AS 65003)
                            |       |
                   atk_via_rt       atk_direct

rt forwards (one TTL / hop limit off); static routes let far and the DUT reach each other's
link addresses through it.  Sessions over IPv4 and over IPv6 with far and with near.  The
forgers spoof far's or near's address with skualab.probes.forge; the TTL they send is the one
that must ARRIVE at the DUT plus the forwarding hops on the way (atk_via_rt: +1), and a
capture on the DUT checks that it arrived so.  far and near do not answer the DUT's SYN-ACKs
to the handshakes forged in their names (kit.quiet_peer): their RSTs would be counted too.
Everything is counted in the DUT's namespace:
TcpExt TCPMinTTLDrop (a segment below a socket's minimum), TCPACKSkippedSeq (an out-of-window
ACK that got past the minimum to TCP), the SYN-RECV request sockets, and the capture.

A. A peer two hops away.  Both ends start with `ttl-security hops 1` (minimum 255): far's
   segments arrive with 254, the DUT drops each of far's SYNs in TCPMinTTLDrop and answers
   none, and the session does not come up, over one connect-retry period and more.  FRR 8.4
   takes the setting on a peer that is not directly connected and keeps trying.  Changed to
   hops 2 on both ends from vtysh, both sessions come up, minimum 254 on the sockets.
B. The boundary at 256-N, for the DUT's neighbor at hops 2 and 10 (far, forged from behind rt)
   and 1 (near, forged on a direct link): a SYN spoofing the neighbor that arrives with 255-N
   is dropped (TCPMinTTLDrop + exactly the number sent, no SYN-ACK, no request socket); at
   256-N it is answered (SYN-ACK with TTL 255, sent to the real peer; a request socket) and
   nothing is counted.  An ACK forged into the Established session's ports (learned from a
   capture, sequence number half the space away) at 255-N is counted (the socket's own
   minimum); at 256-N it reaches TCP's sequence check (TCPACKSkippedSeq) and is not counted.
C. Live changes on the Established sessions with near, both ends skua: from no GTSM, near
   enables hops 1, then the DUT; hops 1 -> 3 -> 1 on each end; the DUT removes it, then near.
   The order keeps the DUT's minimum at or below what near sends (255 with GTSM, 1 without),
   so the DUT never drops near's segments and its TCPMinTTLDrop counts the forged ones only.
   After every step both ends read back the expected minimum on the socket
   (gtsm.minTtlSocket), the forged ACKs show the DUT's kernel enforces exactly that minimum,
   and the connection is the one from the start (same ports, connectionsEstablished and
   connectionsDropped unchanged, bgpTimerUpMsec growing); at the end KEEPALIVEs flow both ways.
   near's hold time is 30 s: while only one end has GTSM, one direction is dropped and TCP's
   backed-off retransmission must land within the hold time.
"""

import time

import pytest

from skualab import probes
from skualab.probes import Capture

import gtsm_hops_kit as kit

FAR = {4: "192.0.2.1", 6: "2001:db8:0:1::1"}  # far, as the DUT names it
DUT_FOR_FAR = {4: "192.0.2.6", 6: "2001:db8:0:2::2"}  # the DUT, as far names it
NEAR = {4: "192.0.2.10", 6: "2001:db8:0:3::2"}
DUT_FOR_NEAR = {4: "192.0.2.9", 6: "2001:db8:0:3::1"}
AS = {"dut": 65001, "far": 65002, "near": 65003}
OBSERVE = 8  # seconds without a session at hops 1: more than a connect-retry period (5 s)
STABLE = 3  # seconds a session must have lasted (one KEEPALIVE interval)
K = kit.SEGMENTS


@pytest.fixture(scope="module", autouse=True)
def quiet_peers(lab):
    for router in ("far", "near"):
        kit.quiet_peer(lab.namespaces[router])
    yield
    print("SYN-ACKs to forged ports dropped: far %d, near %d" % (
        kit.quieted(lab.namespaces["far"]), kit.quieted(lab.namespaces["near"])))


def hops(lab, router, addrs, n, old=None):
    kit.set_hops(lab[router], AS[router], list(addrs), n, old)


# --- A. a peer two hops away ------------------------------------------------------------------

@pytest.mark.timeout(90)
def test_hops_1_two_hops_away_never_establishes(lab):
    dut, far = lab["dut"], lab["far"]
    for a in FAR.values():
        lab.expect("dut: %s configured with hops 1" % a, lambda: kit.neighbor(dut, a),
                   {"gtsm": {"enabled": True, "hops": 1, "minTtlConfigured": 255}})
    counters = kit.Counters(lab.namespaces["dut"])
    start = time.monotonic()
    with Capture(lab, "dut", "to-rt", "tcp port 179", name="hops1") as cap:
        while True:
            up = [a for a, p in dut.peers().items()
                  if a in FAR.values() and p["state"] == "Established"]
            up += [a for a, p in far.peers().items() if p["state"] == "Established"]
            assert not up, "Established with hops 1 across rt: %s" % up
            syns = [s for s in kit.segments(cap)
                    if s["src"] in FAR.values() and s["flags"] == "S"]
            families = {4 if s["src"] == FAR[4] else 6 for s in syns}
            if time.monotonic() - start >= OBSERVE and families == {4, 6}:
                break
            assert time.monotonic() - start < 40, "far's SYNs not seen: %s" % syns
            lab.check_alive()
            time.sleep(1)
    segs = kit.segments(cap)
    syns = [s for s in segs if s["src"] in FAR.values() and s["flags"] == "S"]
    assert {s["ttl"] for s in syns} == {254}, "far's SYNs arrive with %s" % syns
    answered = [s for s in segs if s["src"] in DUT_FOR_FAR.values() and s["flags"] == "SA"]
    assert not answered, "the DUT answered far's TTL 254 SYNs: %s" % answered
    dropped = counters.delta("TCPMinTTLDrop")
    assert dropped >= len(syns), ("TCPMinTTLDrop +%d, fewer than far's %d SYNs"
                                  % (dropped, len(syns)))
    for a in FAR.values():
        assert kit.neighbor(dut, a)["connectionsEstablished"] == 0
    print("hops 1 across rt: %d of far's SYNs at TTL 254 in %.0f s, TCPMinTTLDrop +%d"
          % (len(syns), time.monotonic() - start, dropped))


@pytest.mark.timeout(90)
def test_hops_2_on_both_ends_establishes(lab):
    """Both ends to hops 2: the sessions come up and stay.  FRR 8.4 sometimes closes the
    first connection a few milliseconds after Established, without a NOTIFICATION (its log:
    "peer transfer" from the accepted connection, "Deleting stub connection", then
    TCP_fatal_error; its own connect attempt from the hops 1 period was still pending), and
    the next attempt stays: the test waits for a session that has lasted."""
    hops(lab, "far", DUT_FOR_FAR.values(), 2)
    hops(lab, "dut", FAR.values(), 2)
    lab.wait_established("dut", list(FAR.values()), timeout=40)
    lab.expect("far's sessions up for %d s" % STABLE,
               lambda: [probes.established_uptime(lab["dut"], a) for a in FAR.values()],
               lambda up: None if all(u is not None and u >= STABLE for u in up) else up,
               timeout=40)
    lab.wait_established("far", list(DUT_FOR_FAR.values()), timeout=10)
    kit.expect_gtsm(lab, "dut", FAR.values(), 2)
    print("hops 2: connections established with far: %s" % [
        kit.neighbor(lab["dut"], a)["connectionsEstablished"] for a in FAR.values()])


# --- B. the boundary at 256-N -------------------------------------------------------------

def syn_ports(port_base, v, answered):
    """Source ports of one batch of forged SYNs (distinct per batch: request sockets stay)."""
    first = port_base + (0 if v == 4 else 200) + (100 if answered else 0)
    assert kit.FORGED_PORTS[0] <= first and first + K - 1 <= kit.FORGED_PORTS[1]
    return range(first, first + K)


def check_syns(lab, attacker, peer, dut_addr, low, at, port_base, v):
    """K SYNs spoofing `peer` arriving at `low` are dropped, each counted, no request socket;
    K arriving at `at` leave K request sockets and are not counted."""
    ns = lab.namespaces["dut"]
    c = kit.Counters(ns)
    kit.forge_arriving(lab, attacker, low, src=peer, dst=dut_addr, flags="S",
                       sport=syn_ports(port_base, v, False).start, count=K)
    kit.wait_count(lab, c, "TCPMinTTLDrop", K, "IPv%d SYNs at TTL %d" % (v, low))
    c = kit.Counters(ns)
    kit.forge_arriving(lab, attacker, at, src=peer, dst=dut_addr, flags="S",
                       sport=syn_ports(port_base, v, True).start, count=K)
    want = set(syn_ports(port_base, v, True))
    lab.expect("IPv%d SYNs at TTL %d leave request sockets" % (v, at),
               lambda: kit.syn_recv_ports(ns, peer) & want,
               lambda got: None if got == want else "pending: %s" % sorted(got),
               timeout=10, interval=0.2)
    assert c.delta("TCPMinTTLDrop") == 0, "SYNs at TTL %d counted" % at
    stray = kit.syn_recv_ports(ns, peer) & set(syn_ports(port_base, v, False))
    assert not stray, "SYNs at TTL %d left request sockets %s" % (low, stray)


def check_capture(segs, peer, dut_addr, session, low, at, port_base, v):
    """What the DUT's interfaces saw: the forged segments arrived with exactly the TTL meant,
    SYN-ACKs (TTL 255) answered the SYNs at `at` and none those at `low`."""
    for ttl, answered in ((low, False), (at, True)):
        ports = syn_ports(port_base, v, answered)
        syns = [s for s in segs if s["src"] == peer and s["flags"] == "S"
                and s["sport"] in ports]
        assert len(syns) == K and {s["ttl"] for s in syns} == {ttl}, (
            "forged IPv%d SYNs meant to arrive with TTL %d: %s" % (v, ttl, syns))
        synacks = [s for s in segs if s["src"] == dut_addr and s["dst"] == peer
                   and s["flags"] == "SA" and s["dport"] in ports]
        if answered:
            assert {s["dport"] for s in synacks} == set(ports), synacks
            assert {s["ttl"] for s in synacks} == {255}, "SYN-ACK TTL: %s" % synacks
        else:
            assert not synacks, "SYN-ACKs to SYNs at TTL %d: %s" % (ttl, synacks)
    acks = [x for x in segs if x["src"] == peer and x["sport"] == session["sport"]
            and x["dport"] == session["dport"] and x["seq"] == session["seq"]]
    assert sorted(x["ttl"] for x in acks) == [low] * K + [at] * K, (
        "forged IPv%d ACKs as they arrived: %s" % (v, acks))


def check_boundary(lab, attacker, peers, dut_addrs, n, port_base):
    """Forged SYNs and ACKs spoofing `peers` from `attacker` at 255-N and 256-N arriving, over
    IPv4 and IPv6 (the DUT's neighbor is at hops N and Established)."""
    low, at = kit.minimum(n) - 1, kit.minimum(n)
    # The session alone with each peer: a connection that lost BGP's collision resolution
    # and is still closing would send segments (its peer's RST, at the peer's default TTL)
    # that the minimum drops and the counts below would take for forged ones.
    ns = lab.namespaces["dut"]
    for a in peers.values():
        lab.expect("one connection with %s" % a, lambda a=a: kit.connections_with(ns, a),
                   lambda c: None if len(c) == 1 else "connections %s" % sorted(c),
                   timeout=30, interval=0.5)
    total = kit.Counters(lab.namespaces["dut"])
    with Capture(lab, "dut", "any", "tcp port 179", name="boundary-%d" % n) as cap:
        for v in (4, 6):
            check_syns(lab, attacker, peers[v], dut_addrs[v], low, at, port_base, v)
        sessions = {v: kit.learn_session(lab, cap, dut_addrs[v], peers[v]) for v in (4, 6)}
        for s in sessions.values():
            n_json = kit.neighbor(lab["dut"], s["src"])
            assert (s["sport"], s["dport"]) == (n_json["portForeign"], n_json["portLocal"])
        kit.check_session_minimum(lab, attacker, list(sessions.values()), at)
    # Two families, K SYNs and K ACKs each below the minimum: nothing else was dropped.
    forged = {(peers[v], s) for v in (4, 6) for s in syn_ports(port_base, v, False)}
    forged |= {(s["src"], s["sport"]) for s in sessions.values()}
    assert total.delta("TCPMinTTLDrop") == 4 * K, (
        "TCPMinTTLDrop over the whole check" + kit.unforged_below(
            cap, at, lambda x: x["ttl"] == low and (x["src"], x["sport"]) in forged))
    segs = kit.segments(cap)
    for v in (4, 6):
        check_capture(segs, peers[v], dut_addrs[v], sessions[v], low, at, port_base, v)
    lab.require_established("dut", list(peers.values()))
    for a in peers.values():
        assert kit.neighbor(lab["dut"], a)["bgpState"] == "Established"


@pytest.mark.timeout(90)
@pytest.mark.parametrize("n", [2, 10])
def test_boundary_far(lab, n):
    """far is two hops away; the DUT's side alone goes to hops 10 (far still sends 255,
    arriving 254, above 246)."""
    lab.require_established("dut", list(FAR.values()))
    hops(lab, "dut", FAR.values(), n)
    kit.expect_gtsm(lab, "dut", FAR.values(), n)
    check_boundary(lab, "atk_via_rt", FAR, DUT_FOR_FAR, n, 41000 + 1000 * n)


# --- C. live changes on an Established session ------------------------------------------

STEPS = [  # (end changed, its new hops: 0 removes GTSM)
    (None, None),
    ("near", 1),
    ("dut", 1),
    ("dut", 3),
    ("near", 3),
    ("near", 1),
    ("dut", 1),
    ("dut", 0),
    ("near", 0),
]
STEP_IDS = ["0-start"] + ["%d-%s-%s" % (i, end, "hops%d" % h if h else "off")
                         for i, (end, h) in enumerate(STEPS) if end]
LIVE = {"hops": {"dut": 0, "near": 0}}  # each end's ttl-security as the steps left it
SESSIONS = {"dut": NEAR, "near": DUT_FOR_NEAR}  # each end's neighbors
IDENTITY = ("connectionsEstablished", "connectionsDropped", "portLocal", "portForeign")


def check_same_connection(lab):
    for router, addrs in SESSIONS.items():
        for a in addrs.values():
            n = kit.neighbor(lab[router], a)
            assert n.get("bgpState") == "Established", "%s: %s is %s" % (
                router, a, n.get("bgpState"))
            now = {k: n.get(k) for k in IDENTITY}
            assert now == LIVE["identity"][router, a], (
                "%s: the session with %s is not the same connection: %s, was %s"
                % (router, a, now, LIVE["identity"][router, a]))
            assert n["bgpTimerUpMsec"] >= LIVE["up"][router, a], "uptime went back"
            LIVE["up"][router, a] = n["bgpTimerUpMsec"]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("step", range(len(STEPS)), ids=STEP_IDS)
def test_live_change(lab, step):
    end, new = STEPS[step]
    if step == 0:
        lab.wait_established("dut", list(NEAR.values()), timeout=30)
        lab.wait_established("near", list(DUT_FOR_NEAR.values()), timeout=10)
        LIVE["identity"], LIVE["up"], LIVE["start"] = {}, {}, {}
        for router, addrs in SESSIONS.items():
            for a in addrs.values():
                n = kit.neighbor(lab[router], a)
                LIVE["identity"][router, a] = {k: n.get(k) for k in IDENTITY}
                LIVE["up"][router, a] = LIVE["start"][router, a] = n["bgpTimerUpMsec"]
        with Capture(lab, "dut", "to-near", "tcp port 179", name="near-session") as cap:
            LIVE["sessions"] = [kit.learn_session(lab, cap, DUT_FOR_NEAR[v], NEAR[v])
                                for v in (4, 6)]
    else:
        # A failed step leaves LIVE["hops"] true to the configuration: the next ones still
        # check what they apply.
        assert "sessions" in LIVE, "not run: the start step failed"
        addrs = SESSIONS[end].values()
        hops(lab, end, addrs, new, old=LIVE["hops"][end])
        LIVE["hops"][end] = new
    for router in SESSIONS:
        kit.expect_gtsm(lab, router, SESSIONS[router].values(), LIVE["hops"][router])
    check_same_connection(lab)
    kit.check_session_minimum(lab, "atk_direct", LIVE["sessions"],
                              kit.minimum(LIVE["hops"]["dut"]))
    check_same_connection(lab)


@pytest.mark.timeout(90)
def test_live_changes_left_the_session_working(lab):
    """After the last change KEEPALIVEs still flow both ways on the same connection."""
    assert "sessions" in LIVE, "not run: the start step failed"
    assert LIVE["hops"] == {"dut": 0, "near": 0}, "GTSM still on: %s" % LIVE["hops"]
    before = {(r, a): kit.neighbor(lab[r], a)["messageStats"]["keepalivesRecv"]
              for r, addrs in SESSIONS.items() for a in addrs.values()}
    for (router, a), count in before.items():
        lab.expect("%s receives KEEPALIVEs from %s" % (router, a),
                   lambda: kit.neighbor(lab[router], a)["messageStats"]["keepalivesRecv"],
                   lambda now: None if now > count else "still %d" % now, timeout=30)
    check_same_connection(lab)
    for key, up in LIVE["up"].items():
        assert up > LIVE["start"][key], "%s %s: uptime did not grow" % key


# --- B again: the boundary at hops 1, on the directly connected peer ---------------------

@pytest.mark.timeout(90)
def test_boundary_near_hops_1(lab):
    """near enables hops 1 first (it then sends 255), then the DUT (minimum 255)."""
    lab.require_established("dut", list(NEAR.values()))
    hops(lab, "near", DUT_FOR_NEAR.values(), 1)
    hops(lab, "dut", NEAR.values(), 1)
    kit.expect_gtsm(lab, "near", DUT_FOR_NEAR.values(), 1)
    kit.expect_gtsm(lab, "dut", NEAR.values(), 1)
    check_boundary(lab, "atk_direct", NEAR, DUT_FOR_NEAR, 1, 45000)
