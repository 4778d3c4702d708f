# SPDX-License-Identifier: ISC
"""Peer-groups and dynamic neighbors (issue 5), skua as the DUT against FRR 8.4.

A. Members of EDGE (m1, m2) take the group's password and ttl-security hops 1: their
   sessions come up with TCP-MD5 and GTSM on the sockets (show JSON "gtsm", ss's md5keys),
   and carry the DUT's routes.
B. A change to the group's outbound policy reaches every member: a prefix-list out, then a
   route-map out, change what both receive; removing them restores it.
C. Dynamic neighbors: d1 (IPv4 and IPv6) and d2 connect into 203.0.113.0/24 and
   2001:db8:11::/64; each becomes a neighbor of DYN with its MD5 and GTSM, listed with "*"
   and counted as dynamic; routes flow both ways.  dbad, in the range with a wrong key, never
   gets a SYN-ACK (TCPMD5Failure counts its SYNs).  Forged SYNs from an address in the range:
   arriving with TTL 254 they are TCPMinTTLDrop (the range's GTSM prefix rule, before MD5);
   with 255 they pass GTSM and fail MD5 (TCPMD5NotFound); no request socket either way.
D. bgp listen limit: lowered to the number of dynamic neighbors, a dynamic neighbor whose
   session ends is deleted and its reconnection refused; raised again, it comes back.
E. no neighbor X peer-group G deletes the member (FRR); the other member stays up.
F. `show bgp peer-group [NAME] [json]` as FRR 8.4 prints it.
"""

import time

import pytest

from skualab import probes
from skualab.netns import run

M = {"m1": "192.0.2.2", "m2": "192.0.2.6"}
D = {"d1": "203.0.113.2", "d1v6": "2001:db8:11::2", "d2": "203.0.113.6"}
DUT_FOR = {"m1": "192.0.2.1", "m2": "192.0.2.5", "d1": "203.0.113.1", "d2": "203.0.113.5"}
DUT_ROUTES = ["198.51.100.128/26", "198.51.100.192/26"]
GTSM1 = {"enabled": True, "hops": 1, "minTtlConfigured": 255, "minTtlSocket": 255,
         "sendTtlSocket": 255}


def holds(cond, what):
    """A checker for lab.expect(): None when cond(got) holds, else what went wrong."""
    return lambda got: None if cond(got) else "%s: %r" % (what, got)


def neighbor(daemon, addr):
    return daemon.neighbor(addr).get(addr, {})


def dut_cfg(lab, *cmds):
    lab["dut"].vtysh("configure terminal", "router bgp 65000", *cmds)


def md5_on_socket(lab, router, addr):
    """ss (as root) lists the keys of an established BGP socket to addr: md5keys:..."""
    out = lab.namespaces[router].exec(["ss", "-Htnie", "state", "established",
                                       "dst", "[%s]" % addr if ":" in addr else addr])
    return "md5keys:" in out or "md5" in out


@pytest.mark.timeout(120)
def test_members_up_with_group_md5_and_gtsm(lab):
    dut = lab["dut"]
    lab.wait_all_established({"dut": list(M.values()), "m1": [DUT_FOR["m1"]],
                              "m2": [DUT_FOR["m2"]]}, timeout=60)
    for name, a in M.items():
        n = lab.expect("dut: %s is a member of EDGE with its GTSM" % a,
                       lambda a=a: neighbor(dut, a),
                       {"peerGroup": "EDGE", "gtsm": GTSM1})
        assert "Member of peer-group EDGE" in dut.vtysh("show bgp neighbors %s" % a)
        assert md5_on_socket(lab, "dut", a), "no TCP-MD5 key on the DUT's socket to %s" % a
        lab.expect("%s has the DUT's routes" % name, lambda r=name: sorted(lab[r].routes()),
                   holds(lambda got: all(p in got for p in DUT_ROUTES), "missing"))
        assert n["gtsm"]["hops"] == 1


@pytest.mark.timeout(120)
def test_group_policy_change_reaches_every_member(lab):
    lab.require_established("dut", list(M.values()))
    dut_cfg(lab, "address-family ipv4 unicast", "neighbor EDGE prefix-list ONLY-A out")
    for r in M:
        lab.expect("%s gets only 198.51.100.128/26" % r, lambda r=r: sorted(lab[r].routes()),
                   ["198.51.100.128/26"])
    dut_cfg(lab, "address-family ipv4 unicast", "no neighbor EDGE prefix-list ONLY-A out",
            "neighbor EDGE route-map MED77 out")
    for r in M:
        lab.expect("%s gets both routes with MED 77" % r,
                   lambda r=r: lab[r].vtysh_json("show bgp ipv4 unicast json")["routes"],
                   {p: [{"metric": 77}] for p in DUT_ROUTES})
    dut_cfg(lab, "address-family ipv4 unicast", "no neighbor EDGE route-map MED77 out")
    for r in M:
        lab.expect("%s gets both routes without MED" % r,
                   lambda r=r: [x.get("metric") for p in DUT_ROUTES for x in
                                lab[r].vtysh_json("show bgp ipv4 unicast json")["routes"]
                                .get(p, [{"metric": -1}])],
                   holds(lambda got: got in ([None, None], [0, 0]), "MED set"))


@pytest.mark.timeout(150)
def test_dynamic_neighbors_from_ranges(lab):
    dut = lab["dut"]
    lab.wait_all_established({"dut": list(D.values()), "d1": [DUT_FOR["d1"], "2001:db8:11::1"],
                              "d2": [DUT_FOR["d2"]]}, timeout=60)
    summary = dut.vtysh_json("show bgp ipv4 unicast summary json")
    assert summary["dynamicPeers"] == 3, summary  # d1 over IPv6 has IPv4 too
    assert summary["peers"][D["d1"]].get("dynamicPeer") is True
    text = dut.vtysh("show bgp ipv4 unicast summary")
    assert "*203.0.113.2" in text and "* - dynamic neighbor" in text, text
    assert "3 dynamic neighbor(s), limit 100" in text, text
    for a in D.values():
        lab.expect("dut: dynamic %s in DYN with GTSM" % a, lambda a=a: neighbor(dut, a),
                   {"peerGroup": "DYN", "dynamicPeer": True, "gtsm": GTSM1})
        assert md5_on_socket(lab, "dut", a), "no TCP-MD5 key on the DUT's socket to %s" % a
    lab.expect("dut has d1's routes", lambda: dut.routes(), holds(lambda got: "203.0.113.160/28" in got, "missing"))
    lab.expect("dut has d1's IPv6 route", lambda: dut.routes("ipv6"),
               holds(lambda got: "2001:db8:d1::/48" in got, "missing"))
    lab.expect("d1 has the DUT's routes", lambda: lab["d1"].routes(),
               holds(lambda got: all(p in got for p in DUT_ROUTES), "missing"))
    # The running configuration does not list them.
    assert "203.0.113.2" not in dut.vtysh("show running-config")


@pytest.mark.timeout(60)
def test_show_peer_group(lab):
    """`show bgp peer-group [NAME] [json]` in FRR 8.4's layout: type, families, listen
    ranges, members with their state (dynamic ones marked)."""
    dut = lab["dut"]
    got = dut.vtysh_json("show bgp peer-group json")
    assert got["EDGE"] == {"remoteAs": 0, "type": "external",
                           "addressFamiliesConfigured": ["IPv4 Unicast"],
                           "members": {M["m1"]: {"status": "Established"},
                                       M["m2"]: {"status": "Established"}}}, got["EDGE"]
    dyn = got["DYN"]
    assert dyn["addressFamiliesConfigured"] == ["IPv4 Unicast", "IPv6 Unicast"], dyn
    assert dyn["dynamicRanges"] == {"IPv4": {"count": 1, "ranges": ["203.0.113.0/24"]},
                                    "IPv6": {"count": 1, "ranges": ["2001:db8:11::/64"]}}, dyn
    assert dyn["members"] == {a: {"status": "Established", "dynamic": True}
                              for a in D.values()}, dyn
    assert list(dut.vtysh_json("show bgp peer-group EDGE json")) == ["EDGE"]
    text = dut.vtysh("show bgp peer-group DYN")
    for line in ("BGP peer-group DYN, remote AS 0", "  Peer-group type is external",
                 "  Configured address-families: IPv4 Unicast; IPv6 Unicast;",
                 "  1 IPv6 listen range(s)", "    2001:db8:11::/64",
                 "    %s (dynamic) Established " % D["d1"]):
        assert line + "\n" in text, text
    nope = run(dut.vtysh_argv(["show bgp peer-group NOPE"]), check=False)
    assert "% No such peer-group" in nope, nope


@pytest.mark.timeout(90)
def test_wrong_key_and_forged_syns_from_range(lab):
    dut = lab["dut"]
    ns = lab.namespaces["dut"]
    before = probes.tcpext(ns)
    time.sleep(8)  # dbad retries every 5 s
    after = probes.tcpext(ns)
    assert "203.0.113.10" not in dut.peers(), dut.peers()
    assert after["TCPMD5Failure"] > before["TCPMD5Failure"], probes.counter_delta(before, after)
    assert lab["dbad"].peers()["203.0.113.9"]["state"] != "Established"

    for ttl, counter in ((254, "TCPMinTTLDrop"), (255, "TCPMD5NotFound")):
        before = probes.tcpext(ns)
        sent = probes.forge(lab.namespaces["atk"], src="203.0.113.50", dst="203.0.113.1",
                            ttl=ttl, flags="S", count=20)["sent"]
        time.sleep(1)
        after = probes.tcpext(ns)
        delta = probes.counter_delta(before, after)
        assert delta[counter] >= sent, (ttl, delta)
        other = "TCPMD5NotFound" if counter == "TCPMinTTLDrop" else "TCPMinTTLDrop"
        assert delta[other] == 0, (ttl, delta)
        assert not [s for s in probes.request_sockets(ns) if "203.0.113.50" in s]
    assert "203.0.113.50" not in dut.peers()


@pytest.mark.timeout(150)
def test_listen_limit_refuses_next(lab):
    dut = lab["dut"]
    lab.require_established("dut", list(D.values()))
    dut_cfg(lab, "bgp listen limit 2")
    lab["d2"].vtysh("clear bgp *")
    lab.expect("d2's dynamic neighbor deleted", lambda: dut.peers(),
               holds(lambda got: D["d2"] not in got, "there"), timeout=30)
    time.sleep(12)  # two connect-retry periods of d2: each attempt is refused
    assert D["d2"] not in dut.peers(), dut.peers()
    assert any("bgp listen limit" in open(p, errors="replace").read()
               for p in dut.logs()), "no refusal logged"
    dut_cfg(lab, "no bgp listen limit")
    lab.wait_established("dut", [D["d2"]], timeout=40)
    assert "3 dynamic neighbor(s), limit 100" in dut.vtysh("show bgp ipv4 unicast summary")


@pytest.mark.timeout(90)
def test_leaving_the_group_deletes_the_member(lab):
    dut = lab["dut"]
    lab.require_established("dut", list(M.values()))
    dut_cfg(lab, "no neighbor 192.0.2.6 peer-group EDGE")
    lab.expect("m2 deleted", lambda: dut.peers(), holds(lambda got: M["m2"] not in got, "there"))
    assert "192.0.2.6" not in dut.vtysh("show running-config")
    lab.expect("m2 down", lambda: lab["m2"].peers()[DUT_FOR["m2"]]["state"],
               holds(lambda s: s != "Established", "up"))
    assert dut.peers()[M["m1"]]["state"] == "Established"
