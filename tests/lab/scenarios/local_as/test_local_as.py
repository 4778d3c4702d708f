# SPDX-License-Identifier: ISC
"""neighbor X local-as AS [no-prepend [replace-as]]: skua (dut) against FRR 8.4 (ref).

up expects AS 64999 from dut and ref (`local-as 64999`), down AS 64998 (`local-as 64998
no-prepend replace-as`): the sessions come up only if the OPENs carry those ASes.  Then, the
same on dut and ref, checked against the design first:
- up's route in dut/ref: 64999 prepended ("64999 65010"); down's: as received ("65020");
- what up receives for down's route: "64999 65000 65020" (local-as in front of ours);
- what down receives for up's route: "64998 64999 65010" (replace-as: instead of ours);
- show neighbors JSON: localAs, localAsNoPrepend, localAsReplaceAs; summary localAs.
"""

import pytest

UP, DOWN, DUT, REF = "192.0.2.1", "192.0.2.4", "192.0.2.2", "192.0.2.3"
ROUTERS = ("dut", "ref")


def paths(daemon, prefix):
    """{peer address: AS path} of prefix in daemon's table."""
    doc = daemon.vtysh_json("show bgp ipv4 unicast %s json" % prefix)
    return {p.get("peer", {}).get("peerId"): p.get("aspath", {}).get("string")
            for p in doc.get("paths", [])}


def table_paths(daemon, prefix):
    routes = daemon.vtysh_json("show bgp ipv4 unicast json").get("routes", {})
    return sorted(p.get("path") for p in routes.get(prefix, []))


@pytest.mark.timeout(120)
def test_sessions_up_with_the_local_as_in_open(lab):
    lab.wait_all_established({"dut": [UP, DOWN], "ref": [UP, DOWN], "up": [DUT, REF],
                              "down": [DUT, REF]}, timeout=60)


@pytest.mark.timeout(120)
def test_received_routes_prepended_unless_no_prepend(lab):
    for r in ("ref", "dut"):
        lab.expect("%s: up's route with 64999 prepended" % r,
                   lambda: table_paths(lab[r], "198.51.100.0/28"), ["64999 65010"], timeout=45,
                   needs={r: [UP, DOWN]})
        lab.expect("%s: down's route as received" % r,
                   lambda: table_paths(lab[r], "203.0.113.0/28"), ["65020"], timeout=45)


@pytest.mark.timeout(120)
def test_sent_routes(lab):
    lab.expect("up: down's route from dut and ref", lambda: paths(lab["up"], "203.0.113.0/28"),
               {DUT: "64999 65000 65020", REF: "64999 65000 65020"}, timeout=45)
    lab.expect("down: up's route from dut and ref",
               lambda: paths(lab["down"], "198.51.100.0/28"),
               {DUT: "64998 64999 65010", REF: "64998 64999 65010"}, timeout=45)


@pytest.mark.timeout(60)
def test_show(lab):
    for r in ROUTERS:
        up = lab[r].neighbor(UP)[UP]
        down = lab[r].neighbor(DOWN)[DOWN]
        assert up["localAs"] == 64999 and "localAsNoPrepend" not in up, (r, up)
        assert down["localAs"] == 64998 and down.get("localAsNoPrepend") is True and \
            down.get("localAsReplaceAs") is True, (r, down)
        peers = lab[r].summary("ipv4")["peers"]
        assert peers[UP]["localAs"] == 64999 and peers[DOWN]["localAs"] == 64998, r
        text = lab[r].vtysh("show bgp neighbors %s" % DOWN)
        assert "remote AS 65020, local AS 64998 no-prepend replace-as, external link" in text, r
