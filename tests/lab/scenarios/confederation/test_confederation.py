# SPDX-License-Identifier: ISC
"""Confederation 65000 (RFC 5065): skua s1 (member AS 65001) beside FRR f2 (member AS 65002),
FRR o outside (AS 65100), which peers with s1 only.

- o's session with s1 comes up with remote-as 65000: s1's OPEN carries the identifier;
- o sees the confederation's routes with the identifier and no confederation segment;
- f2 sees o's route and s1's own with s1's member AS in a confederation segment, the next hop
  unchanged (o's own address), as from FRR;
- s1 keeps what f2 sends a member: the confederation segment, LOCAL_PREF and MED, the next hop.
skua refused `bgp confederation ...` before; every check here needs it.
"""

import pytest

S1, F2 = "192.0.2.1", "192.0.2.2"  # the link between the members
S1_O, O = "192.0.2.5", "192.0.2.6"  # s1's link with the outside
CONVERGE = 30


def route(daemon, prefix):
    """(path, next hops) of prefix's best path in `show bgp ipv4 unicast json`, or None."""
    for p in daemon.routes("ipv4").get(prefix, []):
        if p["best"]:
            return (p["path"], p["nexthops"])
    return None


def equals(want):
    return lambda got: None if got == want else "want %r" % (want,)


@pytest.mark.timeout(90)
def test_sessions_established(lab):
    lab.wait_all_established({"s1": [F2, O], "f2": [S1], "o": [S1_O]}, timeout=60)


@pytest.mark.timeout(60)
def test_outside_knows_the_identifier(lab):
    lab.expect("o's neighbor s1 is AS 65000", lambda: lab["o"].neighbor(S1_O).get(S1_O, {}),
               {"remoteAs": 65000, "bgpState": "Established"}, timeout=10)
    for prefix in ("198.51.100.0/25", "198.51.100.128/25"):
        lab.expect("o: %s from the confederation, no segment" % prefix,
                   lambda: route(lab["o"], prefix), equals(("65000", [S1_O])),
                   timeout=CONVERGE)


@pytest.mark.timeout(60)
def test_neighbors_as_frr_shows_them(lab):
    """The AS each side is known by: the identifier outside, the member AS inside; and FRR
    8.4's link words (checked on FRR: with a confederation every JSON link is a "confed"
    one, and a neighbor in another member AS has nbrCommonAdmin), on skua as on f2."""
    want = {
        ("s1", O): {"remoteAs": 65100, "localAs": 65000, "nbrConfedExternalLink": True},
        ("s1", F2): {"remoteAs": 65002, "localAs": 65001, "nbrConfedExternalLink": True,
                     "nbrCommonAdmin": True},
        ("f2", S1): {"remoteAs": 65001, "localAs": 65002, "nbrConfedExternalLink": True,
                     "nbrCommonAdmin": True},
    }
    for (router, addr), keys in want.items():
        lab.expect("%s: neighbor %s" % (router, addr),
                   lambda: lab[router].neighbor(addr).get(addr, {}), keys, timeout=10)
    first = {(r, a): lab[r].vtysh("show bgp neighbors %s" % a).splitlines()[0]
             for r, a in (("s1", O), ("s1", F2), ("f2", S1))}
    assert first == {
        ("s1", O): "BGP neighbor is %s, remote AS 65100, local AS 65000, external link" % O,
        ("s1", F2): "BGP neighbor is %s, remote AS 65002, local AS 65001, confed-external link"
        % F2,
        ("f2", S1): "BGP neighbor is %s, remote AS 65001, local AS 65002, confed-external link"
        % S1}, first


@pytest.mark.timeout(60)
def test_member_sees_the_confed_segment(lab):
    lab.expect("f2: o's route through s1", lambda: route(lab["f2"], "203.0.113.0/24"),
               equals(("(65001) 65100", [O])), timeout=CONVERGE)
    lab.expect("f2: s1's own route", lambda: route(lab["f2"], "198.51.100.128/25"),
               equals(("(65001)", [S1])), timeout=CONVERGE)


@pytest.mark.timeout(60)
def test_skua_keeps_what_a_member_sends(lab):
    def f2_route():
        doc = lab["s1"].vtysh_json("show bgp ipv4 unicast json")
        for p in doc.get("routes", {}).get("198.51.100.0/25", []):
            return {"path": p.get("path"), "locPrf": p.get("locPrf"),
                    "metric": p.get("metric"),
                    "nexthops": [n.get("ip") for n in p.get("nexthops", [])]}
        return None

    lab.expect("s1: f2's route as sent", f2_route,
               equals({"path": "(65002)", "locPrf": 250, "metric": 33, "nexthops": [F2]}),
               timeout=CONVERGE)


@pytest.mark.timeout(60)
def test_route_detail_as_frr_shows_it(lab):
    """A route from a confed-external neighbor reads as FRR 8.4 prints it: no `i` in the
    table, "pathFrom": "external", and ", confed-external" in the detail."""
    def detail(router, prefix):
        doc = lab[router].vtysh_json("show bgp ipv4 unicast json")
        path = (doc.get("routes", {}).get(prefix) or [{}])[0]
        text = lab[router].vtysh("show bgp ipv4 unicast %s" % prefix)
        status = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("Origin")]
        return {"pathFrom": path.get("pathFrom"),
                "status": status[0].split(", best")[0] if status else None}

    lab.expect("f2: o's route via s1", lambda: detail("f2", "203.0.113.0/24"),
               equals({"pathFrom": "external",
                       "status": "Origin IGP, metric 0, localpref 100, valid, confed-external"}),
               timeout=CONVERGE)
    lab.expect("s1: f2's route", lambda: detail("s1", "198.51.100.0/25"),
               equals({"pathFrom": "external",
                       "status": "Origin IGP, metric 33, localpref 250, valid, confed-external"}),
               timeout=CONVERGE)
