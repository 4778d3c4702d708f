# SPDX-License-Identifier: ISC
"""GTSM under attack: an off-link attacker spoofing skua's directly connected peer.

    peer (FRR) ==3 links== dut (skua) --- rt (forwards) --- atk (the attacker)

peer and dut hold three pairs of sessions (IPv4 and IPv6), one pair per link: with
`ttl-security hops 1` on both ends ("gtsm"), with nothing ("plain"), and with GTSM plus a
TCP-MD5 password ("keyed").  Keepalives every 3 s (`timers 3 9`).  atk sits one router hop
behind dut and forges the peer's addresses; whatever it sends at TTL 255 reaches dut at 254.
It is given the best knowledge an attacker can have: ports and live sequence numbers read
from a capture of the real session on the dut-peer link.

1. Spoofed SYNs to port 179 claiming the GTSM peer get no SYN-ACK, leave no request socket,
   and each one counts in dut's TCPMinTTLDrop (IPv4 and IPv6).
2. Forged RSTs and data segments at the exact sequence numbers of the established GTSM
   sessions do nothing: the sessions stay up (uptime unbroken on both ends) and every forged
   segment counts in TCPMinTTLDrop.
3. A flood of such segments (SYN, RST, ACK+data; thousands a second) costs bgpd no CPU: its
   CPU time during the flood is that of an idle window of the same length (+0.1 s slack).
5. Against GTSM + TCP-MD5, the forged unsigned segments (SYNs and segments into the
   connection) move only TCPMinTTLDrop: the kernel drops them on TTL before any MD5 work.
   The same unsigned segments sent on-link at TTL 255 do reach the MD5 check (control).
4. The same attacks without GTSM (the "plain" sessions) succeed, which is what GTSM prevents:
   spoofed SYNs get SYN-ACKs and request sockets (the real peer resets them, pulled into the
   attack); an in-window RST tears the session down; in-window garbage makes bgpd reset it
   with a NOTIFICATION.  These tests pass when the attack works; they run last because they
   break sessions.

Numbers measured go to <lab dir>/figures.json (and are printed; run pytest with -s).
"""

import math
import threading
import time

import pytest

from skualab import probes, timescale
import session_log
import spoofing

# (dut's address, peer's address) per session kind and IP version, as in topology.toml.
SESSIONS = {
    "gtsm": {4: ("192.0.2.1", "192.0.2.2"), 6: ("2001:db8:0:1::1", "2001:db8:0:1::2")},
    "plain": {4: ("192.0.2.5", "192.0.2.6"), 6: ("2001:db8:0:2::1", "2001:db8:0:2::2")},
    "keyed": {4: ("192.0.2.9", "192.0.2.10"), 6: ("2001:db8:0:3::1", "2001:db8:0:3::2")},
}
SENT_TTL = 255  # what the attacker sends; rt takes one off
SYNS = 50  # spoofed SYNs per family and test
# Sequence numbers tried per forged kind: the learned one, then one per keepalive (every 3 s)
# the peer may send in the 15 s the attacker takes from the capture to its forged segments;
# SKUALAB_TIME_SCALE stretches that time (the attack, not what it must achieve).
GUESSES = 1 + math.ceil(5 * timescale.factor())
CPU_WINDOW = 4.0  # seconds
CPU_SLACK = 0.1  # seconds of bgpd CPU the flood window may exceed the idle one by
FLOOD_RATE = 4000  # segments per second, over four streams


def dut_addr(kind, v):
    return SESSIONS[kind][v][0]


def peer_addr(kind, v):
    return SESSIONS[kind][v][1]


def ns(lab, router):
    return lab.namespaces[router]


def all_sessions(kinds=("gtsm", "plain", "keyed")):
    """{router: [neighbor addresses]} for the given kinds, both ends."""
    out = {"dut": [], "peer": []}
    for kind in kinds:
        for v in (4, 6):
            out["dut"].append(peer_addr(kind, v))
            out["peer"].append(dut_addr(kind, v))
    return out


def one_end(daemon, neighbor):
    """(when, uptime, connectionsDropped) of one end: the uptime as the daemon reports it
    (None when not Established) and time.monotonic() right after reading it."""
    n = daemon.neighbor(neighbor).get(neighbor, {})
    when = time.monotonic()
    up = n.get("bgpTimerUpMsec", 0) / 1000.0 if n.get("bgpState") == "Established" else None
    return when, up, n.get("connectionsDropped")


def uptimes(lab, kind):
    """Each end of the `kind` sessions: {label: (when, uptime, dropped)} (one_end).  Every
    reading keeps its own time: one vtysh call can take seconds on a slow machine, so a
    single time for all four would make a later reading look like a restarted session."""
    out = {}
    for v in (4, 6):
        out["dut v%d" % v] = one_end(lab["dut"], peer_addr(kind, v))
        out["peer v%d" % v] = one_end(lab["peer"], dut_addr(kind, v))
    return out


def assert_unbroken(before, after):
    """Every session was up at both readings of uptimes(), never dropped in between, and its
    uptime grew with the clock (both daemons report whole seconds, and a reading is taken
    somewhere inside its vtysh call: 2 s of slack)."""
    for label, (when0, up0, dropped0) in before.items():
        when1, up1, dropped1 = after[label]
        elapsed = when1 - when0
        assert up0 is not None and up1 is not None, "%s: not Established: %s -> %s" % (
            label, before, after)
        assert dropped1 == dropped0, "%s: connectionsDropped %s -> %s" % (label, dropped0,
                                                                           dropped1)
        assert up1 >= up0 + elapsed - 2, (
            "%s: uptime %.1f s then %.1f s, %.1f s later: the session restarted"
            % (label, up0, up1, elapsed))


def bgpd_pid(lab, router):
    """The pid of the router's bgpd itself (`ip netns exec` execs it; FRR also has zebra)."""
    for proc in lab[router].procs:
        with open("/proc/%d/comm" % proc.pid) as f:
            if f.read().strip() == "bgpd":
                return proc.pid
    raise AssertionError("%s: no bgpd among %s" % (router, lab[router].procs))


def wait_up(lab, kinds, timeout=None):
    """Both ends of the `kind` sessions Established.  By default within one budget shared by
    the scenario's tests: when skua cannot bring them up, the first test waits 60 s and the
    others fail in seconds."""
    if timeout is None:
        timeout = lab.budget("sessions", 60)
    lab.wait_all_established(all_sessions(kinds), timeout=timeout)


@pytest.mark.timeout(90)
def test_sessions_established(lab):
    """All six sessions come up, and dut reports GTSM where it is configured."""
    wait_up(lab, ("gtsm", "plain", "keyed"))
    gtsm = lab["dut"].vtysh_json("show bgp gtsm json")["neighbors"]
    for kind, hops, md5 in (("gtsm", 1, False), ("plain", 0, False), ("keyed", 1, True)):
        for v in (4, 6):
            want = {"hops": hops, "md5": md5, "state": "Established",
                    "minTtlSocket": 255 if hops else 0, "listenerProtected": hops > 0}
            got = {k: gtsm[peer_addr(kind, v)].get(k) for k in want}
            assert got == want, "%s: %s" % (peer_addr(kind, v), got)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("v", [4, 6])
def test_gtsm_spoofed_syns_dropped_before_listener(lab, v):
    """Point 1: spoofed SYNs claiming the GTSM peer, arriving at 254: captured arriving on
    dut's link to rt, no answer on its link to the peer, no request socket, all counted."""
    wait_up(lab, ["gtsm"])
    dut, peer = dut_addr("gtsm", v), peer_addr("gtsm", v)
    before = probes.tcpext(ns(lab, "dut"))
    with probes.Capture(lab, "dut", "to-rt", "tcp", name="syn-gtsm-v%d-in" % v) as cin, \
            probes.Capture(lab, "dut", spoofing.ifname(lab, "dut", dut), "tcp port 179",
                           name="syn-gtsm-v%d-out" % v) as cout:
        report = probes.forge(ns(lab, "atk"), src=peer, dst=dut, ttl=SENT_TTL, flags="S",
                              count=SYNS, sport=41000)
        # A SYN-ACK would leave at once; half a second is plenty for it to be captured.
        time.sleep(timescale.seconds(0.5))
        pending = probes.request_sockets(ns(lab, "dut"))
    after = probes.tcpext(ns(lab, "dut"))
    delta = probes.counter_delta(before, after, probes.GTSM_COUNTERS + ("EmbryonicRsts",))
    arrived = [s for s in spoofing.segments(cin, peer, dut) if s["flags"] == "S"]
    answers = [s for s in spoofing.segments(cout, dut, peer) + spoofing.segments(cin, dut, peer)
               if s["sport"] == 179 and 41000 <= s["dport"] < 41000 + SYNS]
    spoofing.record(lab, "syn_gtsm_v%d" % v, {
        "sent": report["sent"], "arrived": len(arrived),
        "arrival_ttls": sorted({s["ttl"] for s in arrived}), "syn_acks": len(answers),
        "request_sockets": len(pending), "delta": delta})
    assert report["sent"] == SYNS
    assert len(arrived) == SYNS and {s["ttl"] for s in arrived} == {254}, \
        "the forged SYNs did not reach dut at TTL 254: %s" % arrived[:3]
    assert answers == [], "dut answered spoofed SYNs: %s" % answers[:3]
    assert pending == [], "request sockets on dut: %s" % pending
    assert delta == {"TCPMinTTLDrop": SYNS, "TCPMD5NotFound": 0, "TCPMD5Unexpected": 0,
                     "TCPMD5Failure": 0, "EmbryonicRsts": 0}


@pytest.mark.timeout(60)
def test_gtsm_forged_rst_and_data_leave_session_up(lab):
    """Point 2: RSTs and garbage data at the exact sequence numbers, both families."""
    wait_up(lab, ["gtsm"])
    link = spoofing.ifname(lab, "dut", dut_addr("gtsm", 4))
    before_up = uptimes(lab, "gtsm")
    with probes.Capture(lab, "dut", link, "tcp port 179", name="est-gtsm") as cap:
        live = {v: spoofing.learn(lab, cap, peer_addr("gtsm", v), dut_addr("gtsm", v))
                for v in (4, 6)}
        before = probes.tcpext(ns(lab, "dut"))
        sent = 0
        for v in (4, 6):
            sent += spoofing.forge_at(ns(lab, "atk"), live[v], GUESSES, SENT_TTL, "R")["sent"]
            sent += spoofing.forge_at(ns(lab, "atk"), live[v], GUESSES, SENT_TTL, "PA",
                                      payload=spoofing.KEEPALIVE)["sent"]
        forged_at = time.time()
        after = probes.tcpext(ns(lab, "dut"))
        exact = {v: spoofing.covered(lab, cap, live[v], GUESSES, forged_at) for v in (4, 6)}
    # The next keepalive was exchanged after the forgery: the sessions are still working.
    after_up = uptimes(lab, "gtsm")
    delta = probes.counter_delta(before, after)
    spoofing.record(lab, "established_gtsm", {
        "forged": sent, "delta": delta, "uptime_before": before_up,
        "uptime_after": after_up,
        "exact_seq_included": {str(v): exact[v] for v in exact}})
    assert sent == 2 * 2 * GUESSES
    assert delta == {"TCPMinTTLDrop": sent, "TCPMD5NotFound": 0, "TCPMD5Unexpected": 0,
                     "TCPMD5Failure": 0}
    assert_unbroken(before_up, after_up)


@pytest.mark.timeout(90)
def test_gtsm_flood_costs_bgpd_no_cpu(lab):
    """Point 3: bgpd's CPU time over an idle window and over a flood window of one length."""
    wait_up(lab, ["gtsm"])
    pid = bgpd_pid(lab, "dut")
    before_up = uptimes(lab, "gtsm")

    cpu0, irq0 = probes.cpu_seconds(pid), probes.softirq_seconds()
    time.sleep(CPU_WINDOW)
    idle = probes.cpu_seconds(pid) - cpu0
    idle_irq = probes.softirq_seconds() - irq0

    link = spoofing.ifname(lab, "dut", dut_addr("gtsm", 4))
    with probes.Capture(lab, "dut", link, "tcp port 179", name="flood-learn") as cap:
        live = {v: spoofing.learn(lab, cap, peer_addr("gtsm", v), dut_addr("gtsm", v))
                for v in (4, 6)}
    streams = [
        {"src": peer_addr("gtsm", 4), "dst": dut_addr("gtsm", 4), "flags": "S",
         "sport": 42000},
        {"src": peer_addr("gtsm", 6), "dst": dut_addr("gtsm", 6), "flags": "S",
         "sport": 42000},
        {"src": live[4]["src"], "dst": live[4]["dst"], "sport": live[4]["sport"],
         "dport": live[4]["dport"], "flags": "R", "seq": live[4]["rcv_nxt"]},
        {"src": live[6]["src"], "dst": live[6]["dst"], "sport": live[6]["sport"],
         "dport": live[6]["dport"], "flags": "PA", "seq": live[6]["rcv_nxt"],
         "ack": live[6]["ack"], "payload": spoofing.KEEPALIVE},
    ]
    before = probes.tcpext(ns(lab, "dut"))
    result = {}
    runner = threading.Thread(target=lambda: result.update(report=spoofing.flood(
        ns(lab, "atk"), streams, rate=FLOOD_RATE, duration=CPU_WINDOW + 2)))
    runner.start()
    try:
        # Measure inside the flood: from its first drops on, plus half a second.
        lab.expect("the flood reaches dut", lambda: probes.tcpext(ns(lab, "dut")),
                   lambda c: None if c["TCPMinTTLDrop"] > before["TCPMinTTLDrop"]
                   else "no drop yet", timeout=10, interval=0.1)
        time.sleep(0.5)
        cpu1, irq1 = probes.cpu_seconds(pid), probes.softirq_seconds()
        time.sleep(CPU_WINDOW)
        flood_cpu = probes.cpu_seconds(pid) - cpu1
        flood_irq = probes.softirq_seconds() - irq1
    finally:
        runner.join(timeout=CPU_WINDOW + timescale.seconds(30))
    assert "report" in result, "the flood did not run to its end"
    after = probes.tcpext(ns(lab, "dut"))
    after_up = uptimes(lab, "gtsm")
    sent, seconds = result["report"]["sent"], result["report"]["seconds"]
    delta = probes.counter_delta(before, after)
    spoofing.record(lab, "flood", {
        "window_s": CPU_WINDOW, "bgpd_cpu_since_start_s": probes.cpu_seconds(pid),
        "bgpd_cpu_idle_s": round(idle, 3),
        "bgpd_cpu_flood_s": round(flood_cpu, 3), "softirq_machine_idle_s": round(idle_irq, 3),
        "softirq_machine_flood_s": round(flood_irq, 3), "forged": sent, "flood_s": seconds,
        "rate_per_s": round(sent / seconds), "delta": delta,
        "per_stream": result["report"]["per_stream"]})
    assert flood_cpu <= idle + CPU_SLACK, (
        "bgpd used %.2f s of CPU during the flood, %.2f s idle" % (flood_cpu, idle))
    assert delta == {"TCPMinTTLDrop": sent, "TCPMD5NotFound": 0, "TCPMD5Unexpected": 0,
                     "TCPMD5Failure": 0}
    assert_unbroken(before_up, after_up)


@pytest.mark.timeout(60)
def test_gtsm_md5_off_link_spoof_dropped_before_md5(lab):
    """Point 5: unsigned forged segments against GTSM + TCP-MD5 die on TTL, before MD5."""
    wait_up(lab, ["keyed"])
    link = spoofing.ifname(lab, "dut", dut_addr("keyed", 4))
    before_up = uptimes(lab, "keyed")
    with probes.Capture(lab, "dut", link, "tcp port 179", name="est-keyed") as cap:
        live = {v: spoofing.learn(lab, cap, peer_addr("keyed", v), dut_addr("keyed", v))
                for v in (4, 6)}
        before = probes.tcpext(ns(lab, "dut"))
        sent = 0
        for v in (4, 6):
            sent += probes.forge(ns(lab, "atk"), src=peer_addr("keyed", v),
                                 dst=dut_addr("keyed", v), ttl=SENT_TTL, flags="S",
                                 count=SYNS, sport=43000)["sent"]
            sent += spoofing.forge_at(ns(lab, "atk"), live[v], GUESSES, SENT_TTL, "R")["sent"]
            sent += spoofing.forge_at(ns(lab, "atk"), live[v], GUESSES, SENT_TTL, "PA",
                                      payload=spoofing.KEEPALIVE)["sent"]
        forged_at = time.time()
        after = probes.tcpext(ns(lab, "dut"))
        for v in (4, 6):
            spoofing.covered(lab, cap, live[v], GUESSES, forged_at)
    after_up = uptimes(lab, "keyed")
    delta = probes.counter_delta(before, after)

    # Control: the same unsigned segments sent on-link at 255 reach the MD5 check (the
    # counters that stayed still above could have moved).
    control_before = probes.tcpext(ns(lab, "dut"))
    control = 0
    for v in (4, 6):
        control += probes.forge(ns(lab, "peer"), src=peer_addr("keyed", v),
                                dst=dut_addr("keyed", v), ttl=255, flags="S", count=1,
                                sport=43500)["sent"]
        control += spoofing.forge_at(ns(lab, "peer"), live[v], 1, 255, "PA",
                                     payload=spoofing.KEEPALIVE)["sent"]
    control_delta = probes.counter_delta(control_before, probes.tcpext(ns(lab, "dut")))
    spoofing.record(lab, "md5_gtsm", {"forged": sent, "delta": delta,
                                      "control_on_link": control,
                                      "control_delta": control_delta})
    assert sent == 2 * (SYNS + 2 * GUESSES)
    assert delta == {"TCPMinTTLDrop": sent, "TCPMD5NotFound": 0, "TCPMD5Unexpected": 0,
                     "TCPMD5Failure": 0}
    assert control_delta == {"TCPMinTTLDrop": 0, "TCPMD5NotFound": control,
                             "TCPMD5Unexpected": 0, "TCPMD5Failure": 0}
    assert_unbroken(before_up, after_up)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("v", [4, 6])
def test_without_gtsm_spoofed_syns_get_syn_acks(lab, v):
    """Point 4: the same spoofed SYNs claiming the unprotected peer are answered.  Each
    makes a request socket and a SYN-ACK to the real peer, whose kernel resets it: the
    request sockets are gone quickly, so they are counted by the kernel's EmbryonicRsts
    (a request socket reset by its peer) rather than by a look at the socket table."""
    wait_up(lab, ["plain"])
    dut, peer = dut_addr("plain", v), peer_addr("plain", v)
    before = probes.tcpext(ns(lab, "dut"))
    with probes.Capture(lab, "dut", spoofing.ifname(lab, "dut", dut), "tcp port 179",
                        name="syn-plain-v%d" % v) as cap:
        report = probes.forge(ns(lab, "atk"), src=peer, dst=dut, ttl=SENT_TTL, flags="S",
                              count=SYNS, sport=44000)
        pending = probes.request_sockets(ns(lab, "dut"))
        time.sleep(timescale.seconds(0.5))  # the real peer's RSTs arrive
    after = probes.tcpext(ns(lab, "dut"))
    delta = probes.counter_delta(before, after, probes.GTSM_COUNTERS + ("EmbryonicRsts",))
    ours = range(44000, 44000 + SYNS)
    answers = [s for s in spoofing.segments(cap, dut, peer)
               if s["flags"] == "SA" and s["sport"] == 179 and s["dport"] in ours]
    resets = [s for s in spoofing.segments(cap, peer, dut)
              if "R" in s["flags"] and s["dport"] == 179 and s["sport"] in ours]
    spoofing.record(lab, "syn_plain_v%d" % v, {
        "sent": report["sent"], "syn_acks": len(answers),
        "syn_ack_ttls": sorted({s["ttl"] for s in answers}),
        "resets_from_real_peer": len(resets), "request_sockets_seen": len(pending),
        "delta": delta})
    assert report["sent"] == SYNS
    assert len(answers) >= SYNS, "only %d SYN-ACKs for %d spoofed SYNs" % (len(answers), SYNS)
    assert delta["EmbryonicRsts"] == SYNS and delta["TCPMinTTLDrop"] == 0, delta


def plain_neighbor(lab, v):
    return lab["dut"].neighbor(peer_addr("plain", v))[peer_addr("plain", v)]


def attack_plain(lab, flags, payload):
    """Forge `flags` segments into both plain sessions at the exact sequence numbers; wait
    until dut drops each session.  Returns {v: (dut's neighbor JSON before the attack, the
    same after the drop, and the first line dut logged about the session's end after the
    attack)}.  The reason is taken from the log: by the time the JSON is read, the
    reconnection that follows may have replaced its last reset reason (session_log.py)."""
    wait_up(lab, ["plain"], timeout=45)
    link = spoofing.ifname(lab, "dut", dut_addr("plain", 4))
    with probes.Capture(lab, "dut", link, "tcp port 179", name="plain-%s" % flags) as cap:
        live = {v: spoofing.learn(lab, cap, peer_addr("plain", v), dut_addr("plain", v))
                for v in (4, 6)}
        was = {v: plain_neighbor(lab, v) for v in (4, 6)}
        mark = session_log.LogMark(lab["dut"])
        before = probes.tcpext(ns(lab, "dut"))
        for v in (4, 6):
            spoofing.forge_at(ns(lab, "atk"), live[v], GUESSES, SENT_TTL, flags,
                              payload=payload)
        after = probes.tcpext(ns(lab, "dut"))
    out = {}
    for v in (4, 6):
        assert was[v]["bgpState"] == "Established", was[v]
        down = lab.expect(
            "dut drops the unprotected IPv%d session" % v, lambda: plain_neighbor(lab, v),
            lambda n: None if n["connectionsDropped"] > was[v]["connectionsDropped"]
            else "still up", timeout=15, interval=0.5)
        reason = lab.expect(
            "dut logs why the unprotected IPv%d session ended" % v,
            lambda: mark.first_down(peer_addr("plain", v)),
            lambda line: None if line else "nothing logged yet", timeout=5, interval=0.2)
        out[v] = (was[v], down, reason)
    assert probes.counter_delta(before, after)["TCPMinTTLDrop"] == 0
    return out


@pytest.mark.timeout(90)
def test_without_gtsm_in_window_rst_resets_session(lab):
    """Point 4: an RST at the exact sequence number tears the unprotected session down:
    dut's socket is reset under bgpd ("Socket Error"), no NOTIFICATION is exchanged."""
    result = attack_plain(lab, "R", 0)
    spoofing.record(lab, "rst_plain", {str(v): {
        "bgpState": down.get("bgpState"), "lastResetDueTo": down.get("lastResetDueTo"),
        "connectionsDropped": down["connectionsDropped"] - was["connectionsDropped"],
        "notificationsSent": down["messageStats"]["notificationsSent"]
        - was["messageStats"]["notificationsSent"], "logged": reason}
        for v, (was, down, reason) in result.items()})
    for v, (was, down, reason) in result.items():
        # The socket error is the first end logged: no NOTIFICATION went out before it.
        assert "read error on fd" in reason and "Connection reset by peer" in reason, reason
    # The next test needs the sessions back; how long that takes is worth knowing.
    t = time.monotonic()
    wait_up(lab, ["plain"], timeout=45)
    spoofing.record(lab, "rst_plain_recovery_s", round(time.monotonic() - t, 1))


@pytest.mark.timeout(90)
def test_without_gtsm_in_window_data_makes_bgpd_reset_session(lab):
    """Point 4: garbage at the exact sequence number is read by bgpd as a BGP message with
    a bad marker: it sends a NOTIFICATION and resets the unprotected session."""
    result = attack_plain(lab, "PA", spoofing.KEEPALIVE)
    spoofing.record(lab, "data_plain", {str(v): {
        "lastResetDueTo": down.get("lastResetDueTo"),
        "lastErrorCodeSubcode": down.get("lastErrorCodeSubcode"),
        "lastNotificationReason": down.get("lastNotificationReason"),
        "notificationsSent": down["messageStats"]["notificationsSent"]
        - was["messageStats"]["notificationsSent"], "logged": reason}
        for v, (was, down, reason) in result.items()})
    for v, (was, down, reason) in result.items():
        # The first end logged is dut's own NOTIFICATION: RFC 4271 6.1, Message Header
        # Error, Connection Not Synchronized (the forged bytes have no all-ones marker).
        assert "sending NOTIFICATION 1/1 (Message Header Error/Connection Not Synchronized)" \
            in reason, reason
        assert down["messageStats"]["notificationsSent"] > \
            was["messageStats"]["notificationsSent"], down
