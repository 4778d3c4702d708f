# SPDX-License-Identifier: ISC
"""Prompt reconnects (issue 13, must-show 5): after `clear ip bgp X` toward a passive BIRD,
skua is Established again in under 5 s, where it used to wait the whole ConnectRetryTime
("Next connect timer due in 113 seconds"): BIRD, still tearing down the old session, closes
skua's first attempt, and skua now retries after a back-off of 1 s instead of 120 s
(bgpd/session/bgp_reconnect.c). The same for a configuration change that resets the session
and for BIRD's own administrative restart (a Cease from the peer).

Each case is timed from the command to Established on both ends; the route exchange is checked
to come back too.
"""

import time

import pytest

BIRD = "192.0.2.2"
PROMPT = 5.0  # seconds: must-show 5
ROUNDS = 3


def dut_state(lab):
    return lab["dut"].peers().get(BIRD, {})


def bird_up(lab):
    p = lab["bird1"].protocols()["dut"]
    return p["state"] == "up" and p.get("bgp_state") == "Established"


def established_count(lab):
    return lab["dut"].neighbor(BIRD)[BIRD].get("connectionsEstablished", 0)


def time_back(lab, before, what):
    """Seconds until a new session is Established on both ends (connectionsEstablished grew),
    at most 30 s (the 120 s ConnectRetryTime would fail it, with the DUT's view)."""
    t0 = time.monotonic()
    deadline = t0 + 30
    while time.monotonic() < deadline:
        lab.check_alive()
        if established_count(lab) > before and dut_state(lab).get("state") == "Established" \
                and bird_up(lab):
            return time.monotonic() - t0
        time.sleep(0.2)
    text = lab["dut"].vtysh("show bgp neighbors %s" % BIRD)
    pytest.fail("%s: not Established again within 30 s; the DUT says:\n%s" % (what, text))


@pytest.mark.timeout(90)
def test_session_and_routes(lab):
    lab.wait_all_established({"dut": [BIRD], "bird1": ["192.0.2.1"]}, timeout=60)
    lab.expect("dut has BIRD's route", lambda: lab["dut"].routes("ipv4"),
               lambda t: None if "203.0.113.0/28" in t else "absent", timeout=20)


@pytest.mark.timeout(120)
def test_clear_reconnects_promptly(lab):
    lab.require_established("dut", [BIRD])
    took = []
    for _ in range(ROUNDS):
        before = established_count(lab)
        lab["dut"].vtysh("clear ip bgp %s" % BIRD)
        took.append(time_back(lab, before, "clear ip bgp"))
    print("clear ip bgp %s: Established again after %s s" % (BIRD, [round(t, 1) for t in took]))
    assert max(took) < PROMPT, "clear: back after %s s, expected under %s s" % (took, PROMPT)
    lab.expect("BIRD's route back after the clears", lambda: lab["dut"].routes("ipv4"),
               lambda t: None if "203.0.113.0/28" in t else "absent", timeout=10)


@pytest.mark.timeout(60)
def test_config_change_reconnects_promptly(lab):
    lab.require_established("dut", [BIRD])
    before = established_count(lab)
    # A change that needs a new session (FRR resets it too): the local AS seen by BIRD stays
    # the same after the second command.
    lab["dut"].vtysh("configure terminal", "router bgp 65001",
                     "neighbor %s update-source 192.0.2.1" % BIRD)
    took = time_back(lab, before, "update-source change")
    print("update-source change: Established again after %.1f s" % took)
    assert took < PROMPT, "configuration change: back after %.1f s" % took


@pytest.mark.timeout(60)
def test_peer_restart_reconnects_promptly(lab):
    lab.require_established("dut", [BIRD])
    before = established_count(lab)
    # BIRD restarts the protocol: a Cease/Administrative Reset to skua.
    lab["bird1"].birdc("restart dut")
    took = time_back(lab, before, "BIRD's restart")
    last = lab["dut"].neighbor(BIRD)[BIRD]
    print("BIRD restart: Established again after %.1f s (%s)"
          % (took, last.get("lastNotificationReason")))
    assert took < PROMPT, "peer's Cease: back after %.1f s" % took
