# SPDX-License-Identifier: ISC
"""skua's GTSM (RFC 5082) + TCP-MD5 (RFC 2385) against real peers.

Topology (skua `dut` is AS 65000; bgpd runs under strace, topology key `strace = true`):

    frr_g   --- dut  (192.0.2.0/30, 2001:db8:0:1::/64)  FRR, hops 1 + password, v4 and v6
    bird_g  --- dut  (192.0.2.4/30, 2001:db8:0:2::/64)  BIRD, ttl security + password, v4, v6
    frr_md5 --- dut  three links: .8/30 wrong key, .12/30 no key on FRR, .16/30 no key on skua
    transit --- dut  (192.0.2.20/30)  FRR, no GTSM, no key; forwards for far
    far --- transit  (192.0.2.24/30)  FRR, eBGP multihop 2 (two hops from dut), no GTSM
    dut_fi  --- dut  (192.0.2.28/30)  a second skua, GTSM + password; started by the test

skua is passive towards frr_g over IPv4, bird_g over IPv6, transit, far and dut_fi, and active
towards the others, so both its SYN-ACK and its SYN are seen on GTSM sessions.

1. GTSM + MD5 with FRR and BIRD: every session Established, one prefix each way per session,
   skua's gtsm JSON (socket minimum 255, sending TTL 255, listener protected) and FRR's own
   neighbor JSON; a capture while the four sessions are reset shows every segment skua's
   sockets send (SYN, SYN-ACK, data, FIN, ACK) at TTL / hop limit 255.  Set aside, because
   the kernel sends them at 64 from its control socket: RSTs, and the ACK of the peer's FIN
   when skua closed first (TIME_WAIT; see gtsm_segments.py).
2. MD5 mismatches never establish, on either side, and each is counted in the DUT's namespace
   under its own name: over a window, TCPMD5Failure grows by exactly the number of SYNs of the
   wrong-key peer, TCPMD5NotFound by those of the unsigned peer, TCPMD5Unexpected by those of
   the signed peer skua has no key for.
3. A direct peer without GTSM and a multihop peer arriving at TTL 1 still connect in, to
   skua's listener (skua is passive towards them), while the listener group carries the GTSM
   rules of the GTSM peers.
4. strace of the DUT (tested last, test 5 adds to the trace): per socket, TCP_MD5SIG before
   TTL 255 before the minimum, before connect() on active sockets and before the first recv()
   on accepted ones; listeners have TTL 255, a temporary minimum 255 and the filter before
   listen(), and every peer's key before they accept anything; beside each, a sink.
5. Fail closed: dut_fi runs once under plain strace (control: Established; the trace gives the
   number of the setsockopt that sets IP_MINTTL), then with strace failing that call with
   EPERM on every attempt: each socket is closed before connect(), the log says why, and the
   session never comes up.
"""

import os
import time

import pytest

import gtsm_segments
import gtsm_strace
from skualab.probes import Capture, counter_delta, flags, tcpext, ttl

DUT_V4, DUT_V6 = "198.51.100.0/28", "2001:db8:100::/48"
# GTSM + MD5 sessions: dut's neighbor address -> (peer router, address of dut it uses, AF,
# the prefix the peer announces)
GTSM = {
    "192.0.2.2": ("frr_g", "192.0.2.1", "ipv4", "198.51.100.16/28"),
    "2001:db8:0:1::2": ("frr_g", "2001:db8:0:1::1", "ipv6", "2001:db8:101::/48"),
    "192.0.2.6": ("bird_g", "192.0.2.5", "ipv4", "198.51.100.32/28"),
    "2001:db8:0:2::2": ("bird_g", "2001:db8:0:2::1", "ipv6", "2001:db8:102::/48"),
}
PASSIVE_GTSM = ["192.0.2.2", "2001:db8:0:2::2"]  # skua only listens: it sends the SYN-ACK
ACTIVE_GTSM = ["2001:db8:0:1::2", "192.0.2.6"]
TRANSIT, FAR, FI = "192.0.2.22", "192.0.2.26", "192.0.2.30"
# The MD5 mismatches: case -> (dut's neighbor, frr_md5's neighbor, counter that must grow)
MD5_CASES = {
    "wrong_key": ("192.0.2.10", "192.0.2.9", "TCPMD5Failure"),
    "no_key_at_peer": ("192.0.2.14", "192.0.2.13", "TCPMD5NotFound"),
    "no_key_at_skua": ("192.0.2.18", "192.0.2.17", "TCPMD5Unexpected"),
}
CONVERGE = 45  # seconds, shared by the route tests (Lab.budget)


def neighbor(lab, router, addr):
    return lab[router].neighbor(addr).get(addr, {})


def reestablished(lab, addrs, before, timeout):
    """Wait until skua has brought every session of `addrs` up again (connectionsEstablished
    above `before`, the counts taken before the reset)."""
    def check(seen):
        late = ["%s %s" % (a, n.get("bgpState")) for a, n in seen.items()
                if n.get("bgpState") != "Established"
                or n.get("connectionsEstablished", 0) <= before[a]]
        return ("not back yet: %s" % ", ".join(late)) if late else None
    lab.expect("sessions %s re-established" % ", ".join(addrs),
               lambda: {a: neighbor(lab, "dut", a) for a in addrs}, check, timeout=timeout)


def connections(lab, addrs):
    return {a: neighbor(lab, "dut", a).get("connectionsEstablished", 0) for a in addrs}


# --- 1. GTSM + MD5 with FRR and BIRD -----------------------------------------------------

@pytest.mark.timeout(90)
def test_sessions_established(lab):
    lab.wait_all_established({"dut": list(GTSM) + [TRANSIT, FAR],
                              "frr_g": ["192.0.2.1", "2001:db8:0:1::1"],
                              "bird_g": ["192.0.2.5", "2001:db8:0:2::1"],
                              "transit": ["192.0.2.21"], "far": ["192.0.2.21"]}, timeout=60)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("addr", list(GTSM))
def test_dut_gtsm_json(lab, addr):
    want = {addr: {"bgpState": "Established", "authenticationEnabled": 1,
                   "externalBgpNbrMaxHopsAway": 1,
                   "gtsm": {"enabled": True, "hops": 1, "minTtlConfigured": 255,
                            "minTtlSocket": 255, "sendTtlSocket": 255,
                            "listenerProtected": True}}}
    lab.expect("skua's gtsm block for %s" % addr, lambda: lab["dut"].neighbor(addr), want,
               timeout=10, needs={"dut": [addr]})


@pytest.mark.timeout(30)
@pytest.mark.parametrize("addr", ["192.0.2.1", "2001:db8:0:1::1"])
def test_frr_neighbor_json(lab, addr):
    """FRR's own view of its GTSM + MD5 sessions with skua."""
    want = {addr: {"bgpState": "Established", "authenticationEnabled": 1,
                   "externalBgpNbrMaxHopsAway": 1, "remoteAs": 65000}}
    lab.expect("FRR's show bgp neighbors json for %s" % addr,
               lambda: lab["frr_g"].vtysh_json("show bgp neighbors json"), want, timeout=10,
               needs={"frr_g": [addr]})


def has_route(prefix, path):
    def check(table):
        if prefix not in table:
            return "%s absent" % prefix
        paths = [p["path"] for p in table[prefix]]
        return None if path in paths else "%s: AS paths %s, expected %r" % (prefix, paths, path)
    return check


@pytest.mark.timeout(60)
@pytest.mark.parametrize("addr", list(GTSM))
def test_routes_both_ways(lab, addr):
    peer, _, afi, prefix = GTSM[addr]
    peer_as = "65001" if peer == "frr_g" else "65002"
    mine = DUT_V4 if afi == "ipv4" else DUT_V6
    lab.expect("skua has %s from %s" % (prefix, peer), lambda: lab["dut"].routes(afi),
               has_route(prefix, peer_as), timeout=lab.budget("routes", CONVERGE),
               needs={"dut": [addr]})
    lab.expect("%s has skua's %s" % (peer, mine), lambda: lab[peer].routes(afi),
               has_route(mine, "65000"), timeout=lab.budget("routes", CONVERGE),
               needs={"dut": [addr]})


@pytest.mark.timeout(90)
def test_every_segment_from_skua_at_255(lab):
    """Reset the four GTSM sessions from skua's side while capturing on its two links: skua
    sends FIN, the peers reconnect, skua answers the passive ones with a SYN-ACK and opens
    the active ones with a SYN.  Every segment skua sends must leave at 255."""
    lab.require_established("dut", list(GTSM))
    mine = {dut_addr for _, dut_addr, _, _ in GTSM.values()}
    before = connections(lab, GTSM)
    with Capture(lab, "dut", "to-frr_g", name="gtsm-frr") as c_frr, \
            Capture(lab, "dut", "to-bird_g", name="gtsm-bird") as c_bird:
        lab["dut"].vtysh(*["clear bgp %s" % a for a in GTSM])
        reestablished(lab, list(GTSM), before, timeout=45)
        time.sleep(1)  # keepalives and updates of the new sessions
    sent = gtsm_segments.sort_sent(c_frr.packets() + c_bird.packets(), mine)
    # RSTs leave from the kernel's control socket at TTL 64 (gtsm_segments explains); every
    # other segment, the ACK of the peer's FIN after skua closed first included, comes from
    # bgpd's sockets.
    low = [gtsm_segments.describe(p) for p in sent["socket"] if ttl(p) != 255]
    assert not low, "segments from skua's sockets below 255 (%d of %d):\n%s" % (
        len(low), len(sent["socket"]), "\n".join(low[:20]))
    kinds = {(":" in p.src, flags(p)) for p in sent["socket"]}
    for v6 in (False, True):
        assert (v6, "SA") in kinds, "no SYN-ACK from skua over IPv%d captured" % (6 if v6 else 4)
        assert (v6, "S") in kinds, "no SYN from skua over IPv%d captured" % (6 if v6 else 4)
    assert any("F" in flags(p) for p in sent["socket"]), "no FIN from skua captured"
    print("skua sent %d segments at 255 (%d SYN-ACK, %d final ACK after its FIN); left aside: "
          "%d RST" % (len(sent["socket"]), sum(1 for p in sent["socket"] if flags(p) == "SA"),
                      len(sent["final_ack"]), len(sent["rst"])))


# --- 2. MD5 mismatches ----------------------------------------------------------------------

def syn_times(cap):
    """(capture time, source) of every SYN in a capture so far."""
    from scapy.utils import rdpcap
    if not os.path.exists(cap.path) or not os.path.getsize(cap.path):
        return []
    out = []
    for p in rdpcap(cap.path):
        layer = p.getlayer("IP") or p.getlayer("IPv6")
        if layer is not None and flags(layer) == "S":
            out.append((float(p.time), layer.src))
    return out


@pytest.mark.timeout(90)
def test_md5_mismatches_counted_per_peer(lab):
    """frr_md5 keeps sending SYNs (connect every 5 s, retransmissions in between) that skua's
    kernel drops: over a window, each counter grows by exactly the number of SYNs its peer
    sent (captured on skua's side), so each mismatch is counted where it should be."""
    netns = lab.namespaces["dut"]
    peers = {dut_nbr: counter for dut_nbr, _, counter in MD5_CASES.values()}
    bpf = "tcp dst port 179 and (%s)" % " or ".join("src host %s" % a for a in peers)
    margin = 0.05  # seconds: a SYN this close to a counter reading could fall either side
    for attempt in range(5):
        with Capture(lab, "dut", "any", bpf, name="md5-%d" % attempt) as cap:
            t0 = time.time()
            start = tcpext(netns)
            t1 = time.time()
            lab.expect("two SYNs from each mismatched peer", lambda: syn_times(cap),
                       lambda syns: None if all(
                           sum(1 for t, a in syns if a == p and t > t1) >= 2 for p in peers)
                       else "waiting: %s" % syns, timeout=30)
            t2 = time.time()
            end = tcpext(netns)
            t3 = time.time()
        syns = syn_times(cap)
        if any(t0 - margin < t < t1 + margin or t2 - margin < t < t3 + margin
               for t, _ in syns):
            continue  # a SYN raced a reading: measure again
        delta = counter_delta(start, end)
        for addr, counter in peers.items():
            sent = sum(1 for t, a in syns if a == addr and t1 < t < t2)
            assert delta[counter] == sent, "%s: %s grew by %d, %s sent %d SYNs (%s)" % (
                addr, counter, delta[counter], addr, sent, delta)
        print("TcpExt deltas %s for SYNs %s" % (delta, [a for _, a in syns]))
        return
    pytest.fail("every window had a SYN at a counter reading; SYN times %s" % syns)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", list(MD5_CASES))
def test_md5_mismatch_never_establishes(lab, case):
    """Never up on either side since the lab started (its SYNs were dropped above)."""
    dut_nbr, frr_nbr, _ = MD5_CASES[case]
    for router, addr in (("dut", dut_nbr), ("frr_md5", frr_nbr)):
        n = neighbor(lab, router, addr)
        assert n.get("bgpState") not in (None, "Established", "OpenSent", "OpenConfirm"), n
        assert n.get("connectionsEstablished") == 0 and \
            n.get("messageStats", {}).get("opensRecv") == 0, "%s %s: %s" % (router, addr, n)


# --- 3. Peers without GTSM get in; the listener carries the GTSM rules ------------------------

@pytest.mark.timeout(30)
def test_listener_group_has_gtsm_rules(lab):
    gtsm_nbr = {"hops": 1, "minTtlConfigured": 255, "md5": True, "listenerProtected": True}
    plain = {"hops": 0, "md5": False, "listenerProtected": False, "state": "Established"}
    want = {"listeners": [
        {"address": "0.0.0.0", "port": 179, "open": True, "gtsmGroup": True, "gtsmRules": 3,
         "stale": False},
        {"address": "::", "port": 179, "open": True, "gtsmGroup": True, "gtsmRules": 2,
         "stale": False}],
        "neighbors": dict({a: gtsm_nbr for a in list(GTSM) + [FI]},
                          **{TRANSIT: plain, FAR: plain})}
    lab.expect("show bgp gtsm json", lambda: lab["dut"].vtysh_json("show bgp gtsm json"),
               want, timeout=15, needs={"dut": [TRANSIT, FAR]})


@pytest.mark.timeout(60)
def test_plain_and_multihop_peers_connect_in(lab):
    """Reset both from skua's side (passive: it waits) while capturing on the transit link:
    their SYNs arrive at TTL 1 (far's left at 2 and crossed transit), skua's listener answers
    and the sessions come back on connections skua accepted (local port 179)."""
    lab.require_established("dut", [TRANSIT, FAR])
    before = connections(lab, [TRANSIT, FAR])
    with Capture(lab, "dut", "to-transit", name="plain") as cap:
        lab["dut"].vtysh("clear bgp %s" % TRANSIT, "clear bgp %s" % FAR)
        reestablished(lab, [TRANSIT, FAR], before, timeout=45)
    pkts = cap.packets()
    for addr in (TRANSIT, FAR):
        syns = [ttl(p) for p in pkts if p.src == addr and flags(p) == "S"]
        assert syns and set(syns) == {1}, "%s's SYNs at TTL %s, expected 1" % (addr, syns)
        assert any(p.src == "192.0.2.21" and p.dst == addr and flags(p) == "SA" for p in pkts), \
            "skua did not answer %s's SYN" % addr
        assert not any(p.src == "192.0.2.21" and p.dst == addr and flags(p) == "S"
                       for p in pkts), "skua (passive) sent a SYN to %s" % addr
        n = neighbor(lab, "dut", addr)
        assert n.get("portLocal") == 179, "%s: not an accepted connection: %s" % (addr, n)
        assert n.get("gtsm", {}).get("enabled") is False, n.get("gtsm")
    assert neighbor(lab, "dut", FAR).get("externalBgpNbrMaxHopsAway") == 2
    assert neighbor(lab, "dut", FAR).get("gtsm", {}).get("sendTtlSocket") == 2


# --- 5. Fail closed (before the strace checks of the DUT: it adds an accepted socket) -------

FI_DUT = "192.0.2.29"
FI_REASON = ("closed before connect(): IP_MINTTL 255 for peer %s: Operation not permitted "
             "(EPERM)" % FI_DUT)


def last_run_log(path):
    """The part of a log written by the daemon's last start (the lab writes a === header)."""
    with open(path, errors="replace") as f:
        return f.read().rsplit("\n=== ", 1)[-1]


@pytest.mark.timeout(90)
def test_fail_closed_when_minttl_fails(lab):
    fi = lab["dut_fi"]
    options = lab.topology.routers["dut_fi"].options
    # Control run under plain strace: the session comes up, and the trace numbers the
    # setsockopt() calls so that the next run can fail exactly the IP_MINTTL ones.
    options["strace"] = True
    before = connections(lab, [FI])[FI]
    lab.start_router("dut_fi")
    lab.wait_established("dut_fi", [FI_DUT], timeout=30)
    lab.stop_router("dut_fi")
    active = [s for s in gtsm_strace.read(fi.strace_path)
              if s.origin == "socket" and s.peer == FI_DUT]
    assert active, "control run: no connect() to %s in %s" % (FI_DUT, fi.strace_path)
    first = active[0]
    assert first.before("connect") == ["MD5 %s" % FI_DUT, "TTL=255", "MINTTL=255"], first
    minttl = first.setsockopt_numbers[2]
    per_attempt = len(first.before("connect"))  # setsockopt() calls per connection attempt
    assert connections(lab, [FI])[FI] > before, "control run: dut never saw dut_fi up"

    # Faulty run: strace fails the IP_MINTTL call of the first attempt and of every later one.
    options["strace"] = ["-e", "inject=setsockopt:error=EPERM:when=%d+%d"
                         % (minttl, per_attempt)]
    before = connections(lab, [FI])[FI]
    states = set()
    log = os.path.join(fi.rundir, "bgpd.log")

    def look():
        states.add(neighbor(lab, "dut_fi", FI_DUT).get("bgpState"))
        return last_run_log(log).count(FI_REASON)
    try:
        lab.start_router("dut_fi")
        lab.expect("dut_fi logs two refused attempts", look,
                   lambda n: None if n >= 2 else "%d so far" % n, timeout=30)
    finally:
        lab.stop_router("dut_fi")
        options["strace"] = True
    assert "Established" not in states, states
    assert connections(lab, [FI])[FI] == before, "dut saw dut_fi come up"
    traced = gtsm_strace.read(fi.strace_path)
    # BGP's sockets only: the injection goes on failing every few setsockopt() calls, so it
    # also hits the rtnetlink sockets bgpd opens to remove its routes as it stops.
    failed = [s for s in traced
              if s.is_tcp() and any(e.endswith("INJECTED") for e in s.events)]
    assert len(failed) >= 2, "fewer than two failed attempts traced: %s" % failed
    for s in failed:
        # Closed at once: nothing between the failed option and close(), no connect().
        assert s.events == ["MD5 %s" % FI_DUT, "TTL=255", "MINTTL=255 -> EPERM INJECTED",
                            "close"], s
    assert not [s for s in traced if s.peer == FI_DUT], "a connect() to %s happened" % FI_DUT


# --- 4. The order of the socket options, from the DUT's strace --------------------------------

def dut_sockets(lab):
    return [s for s in gtsm_strace.read(lab["dut"].strace_path) if s.is_tcp()]


def gtsm_sequence(addr):
    """Key, sending TTL 255, minimum 255: the order doc/gtsm-session.md gives."""
    if ":" in addr:
        return ["MD5 %s" % addr, "HOPS=255", "MINHOPS=255"]
    return ["MD5 %s" % addr, "TTL=255", "MINTTL=255"]


@pytest.mark.timeout(30)
def test_strace_traces_bgpd(lab):
    """The lab holds strace's pid; bgpd_pid() is bgpd's, traced by it, and the trace is
    bgpd's."""
    dut = lab["dut"]
    pid, tracer = dut.bgpd_pid(), dut.procs[0].pid
    assert pid != tracer
    with open("/proc/%d/status" % pid) as f:
        status = dict(line.split(":", 1) for line in f if ":" in line)
    assert int(status["TracerPid"]) == tracer, status["TracerPid"]
    with open(dut.strace_path) as f:
        pids = {line.split()[0] for line in f if line[:1].isdigit()}
    assert pids == {str(pid)}, pids


@pytest.mark.timeout(30)
def test_strace_active_sockets(lab):
    """MD5 key, TTL 255, minimum 255, then connect(): nothing else, in that order (IPv6:
    V6ONLY first).  Without GTSM: the key (if any) and the plain TTL, no minimum."""
    socks = [s for s in dut_sockets(lab) if s.origin == "socket" and s.peer]
    for addr in ACTIVE_GTSM:
        mine = [s for s in socks if s.peer == addr]
        assert mine, "no connect() to %s traced" % addr
        want = (["V6ONLY=1"] if ":" in addr else []) + gtsm_sequence(addr)
        for s in mine:
            assert s.before("connect") == want, s
    plain = {"192.0.2.10": ["MD5 192.0.2.10", "TTL=1"],
             "192.0.2.14": ["MD5 192.0.2.14", "TTL=1"], "192.0.2.18": ["TTL=1"]}
    for addr, want in plain.items():
        mine = [s for s in socks if s.peer == addr]
        assert mine and all(s.before("connect") == want for s in mine), mine
    passive = PASSIVE_GTSM + [TRANSIT, FAR, FI]
    assert not [s for s in socks if s.peer in passive], "skua connected to a passive peer"


@pytest.mark.timeout(30)
def test_strace_accepted_sockets(lab):
    """accept4(), then key, TTL, minimum and the detach of the listener's filter copy, all
    before the first recv() of the connection."""
    socks = [s for s in dut_sockets(lab) if s.origin == "accept"]
    want = {a: gtsm_sequence(a) + ["DETACH"] for a in PASSIVE_GTSM}
    want[TRANSIT] = ["TTL=1", "MINTTL=0", "DETACH"]  # no GTSM: minimum 0 set explicitly
    want[FAR] = ["TTL=2", "MINTTL=0", "DETACH"]
    for addr, seq in want.items():
        read = [s for s in socks if s.peer == addr and s.before("recv") is not None]
        assert read, "no accepted connection from %s was read" % addr
        for s in read:
            assert s.before("recv") == ["accept"] + seq, s
    for s in socks:  # any other accepted GTSM peer (dut_fi, collisions) as well
        if s.peer in list(GTSM) + [FI] and s.before("recv") is not None:
            assert s.before("recv") == ["accept"] + gtsm_sequence(s.peer) + ["DETACH"], s


@pytest.mark.timeout(30)
def test_strace_listeners(lab):
    """Each accepting listener has TTL 255, a temporary minimum 255 and the GTSM filter
    before listen(), the selector after, then minimum 0 and every peer's key before its first
    accept(); beside it a sink with minimum 255 that never accepts."""
    socks = [s for s in dut_sockets(lab) if s.origin == "socket"]
    keyed = {"inet": [a for a in GTSM if ":" not in a] + ["192.0.2.10", "192.0.2.14", FI],
             "inet6": [a for a in GTSM if ":" in a]}
    for family, ttl_opt, min_opt in (("inet", "TTL", "MINTTL"), ("inet6", "HOPS", "MINHOPS")):
        listeners = [s for s in socks if s.family == family and s.accepted]
        assert len(listeners) == 1, "%s: accepting listeners %s" % (family, listeners)
        listener = listeners[0]
        pre = listener.before("listen")
        assert "%s=255" % ttl_opt in pre and "%s=255" % min_opt in pre, listener
        assert any(e.startswith("FILTER") for e in pre), listener
        if family == "inet6":
            assert "V6ONLY=1" in pre, listener
        post = listener.events[len(pre):]
        assert post[1].startswith("SELECTOR") and post[2] == "%s=0" % min_opt, listener
        first_accept = listener.events.index(next(e for e in listener.events
                                                  if e.startswith("accept")))
        keys = [e for e in listener.events[:first_accept] if e.startswith("MD5")]
        assert sorted(keys) == sorted("MD5 %s" % a for a in keyed[family]), listener
        sinks = [s for s in socks if s.family == family and "listen" in s.events and
                 not s.accepted and "%s=255" % min_opt in s.events and
                 "FILTER len=1" in s.events and "REUSEPORT=1" in s.events]
        assert len(sinks) == 1, "%s: sinks %s" % (family, sinks)
