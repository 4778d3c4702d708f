# SPDX-License-Identifier: ISC
"""Route reflection (RFC 4456): skua as the reflector converges the AS like FRR 8.4 does.

One lab holds two copies of the same iBGP topology (rr_model.py): one reflector, three
clients, two non-clients, all AS 65000 on one LAN, each announcing its own prefix.  In copy A
the reflector (ra) is skua, in copy B (rb) it is FRR; every other router is FRR in both.

What is shown:
  - every router's table is what RFC 4456 asks for (rr_model.expected_table): a client's
    route reaches everyone, a non-client's only the clients (the two non-clients never see
    each other's), and a reflected route keeps its next hop and carries ORIGINATOR_ID = the
    announcing router and CLUSTER_LIST = [the configured cluster id];
  - every router of copy A shows the same routes as its twin in copy B, field by field in
    `show bgp ipv4 unicast PREFIX json` (next hop, originatorId, clusterList, path, origin,
    local preference, best path, the peer it was learnt from), the reflectors included
    (their view, and to whom each prefix was advertised);
  - after client c2 withdraws its prefix, both copies converge to the same tables again.
"""

import pytest

import rr_model as m

CONVERGE = 60


def best_path(router, pfx, lab):
    """The fields of `router`'s best path to `pfx` that the two copies must agree on, plus
    who the prefix was advertised to; None when `router` has no path to it."""
    d = lab[router].vtysh_json("show bgp ipv4 unicast %s json" % pfx)
    best = [p for p in d.get("paths", []) if p.get("bestpath", {}).get("overall")]
    if not best:
        return None
    p = best[0]
    peer = p.get("peer", {}).get("peerId")
    return {"nexthop": [n.get("ip") for n in p.get("nexthops", [])],
            "originatorId": p.get("originatorId"),
            "clusterList": p.get("clusterList", {}).get("list"),
            # Not aspath.string: FRR writes "Local" for an empty path there, skua "".
            "aspath": (p.get("aspath", {}).get("segments"), p.get("aspath", {}).get("length")),
            "origin": p.get("origin"),
            "locPrf": p.get("locPrf"),
            "metric": p.get("metric"),
            "valid": p.get("valid"),
            "peerId": peer,
            "peerRouterId": p.get("peer", {}).get("routerId"),
            "paths": len(d.get("paths", [])),
            # FRR lists the peer a route came from too when that peer shares an update
            # group with the peers it goes to (its Adj-RIB-Out is per group), though it
            # sends nothing back; skua does not.  The peer itself is left out here.
            "advertisedTo": sorted(a for a in d.get("advertisedTo", {}) if a != peer)}


def view(lab, copy, role):
    """`role`'s table in `copy`: {prefix: best_path fields} for every prefix it has."""
    router = m.router(copy, role)
    prefixes = sorted(lab[router].vtysh_json("show bgp ipv4 unicast json")
                      .get("routes", {}))
    return {p: best_path(router, p, lab) for p in prefixes}


def as_expected(table):
    """The part of a view that expected_table() predicts."""
    return {p: (v["nexthop"][0] if v and v["nexthop"] else None,
                v and v["originatorId"], v and v["clusterList"]) for p, v in table.items()}


def rfc_checker(role, gone=()):
    want = {p: v for p, v in m.expected_table(role).items() if p not in gone}

    def check(table):
        got = as_expected(table)
        if got == want:
            return None
        return "expected %s\n got %s" % (sorted(want.items()), sorted(got.items()))
    return check


def needs(lab, copy, role):
    return {m.router(copy, role): [m.addr(p) for p in m.peers_of(role)]}


def test_configs_on_disk_are_rendered():
    for copy in m.COPIES:
        for role in m.ROLES:
            with open(m.config_path(copy, role)) as f:
                assert f.read() == m.render(copy, role), \
                    "%s is stale: run rr_model.py" % m.config_path(copy, role)


@pytest.mark.timeout(150)
def test_sessions_established(lab):
    lab.wait_all_established({m.router(c, r): [m.addr(p) for p in m.peers_of(r)]
                              for c in m.COPIES for r in m.ROLES}, timeout=120)


@pytest.mark.timeout(150)
@pytest.mark.parametrize("copy", sorted(m.COPIES))
@pytest.mark.parametrize("role", list(m.ROLES))
def test_table_follows_rfc4456(lab, copy, role):
    lab.expect("%s: routes by RFC 4456" % m.router(copy, role), lambda: view(lab, copy, role),
               rfc_checker(role), timeout=lab.budget("converge", CONVERGE),
               needs=needs(lab, copy, role))


@pytest.mark.timeout(150)
def test_nonclient_route_reaches_clients_only(lab):
    """Spelled out: n1's prefix is at every client and absent at n2, in both copies (and
    the reverse for n2's); the reflector did not advertise it to the other non-client."""
    for copy in m.COPIES:
        for src, other in (("n1", "n2"), ("n2", "n1")):
            pfx = m.prefix(src)
            for c in m.CLIENTS:
                got = best_path(m.router(copy, c), pfx, lab)
                assert got and got["nexthop"] == [m.addr(src)], \
                    "%s lacks %s's %s: %s" % (m.router(copy, c), src, pfx, got)
            assert best_path(m.router(copy, other), pfx, lab) is None, \
                "%s got the other non-client's %s" % (m.router(copy, other), pfx)
            adv = best_path(m.router(copy, "rr"), pfx, lab)["advertisedTo"]
            assert m.addr(other) not in adv and m.addr(src) not in adv, \
                "%s advertised %s to a non-client: %s" % (m.router(copy, "rr"), pfx, adv)


def compare_copies(lab, role):
    """Wait until `role`'s view in copy A equals its twin's in copy B."""
    def check(views):
        a, b = views
        if a == b:
            return None
        diff = {p: {"A": a.get(p), "B": b.get(p)} for p in sorted(set(a) | set(b))
                if a.get(p) != b.get(p)}
        return "copy A (skua reflector) and copy B (FRR reflector) differ: %s" % diff
    lab.expect("%s: copy A equals copy B" % role,
               lambda: (view(lab, "a", role), view(lab, "b", role)), check,
               timeout=lab.budget("compare", 30))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("role", list(m.ROLES))
def test_copies_agree(lab, role):
    compare_copies(lab, role)


@pytest.mark.timeout(180)
def test_client_withdraw_converges_alike(lab):
    """c2 stops announcing its prefix: it goes everywhere in both copies, and they agree."""
    gone = m.prefix("c2")
    for copy in m.COPIES:  # present first, or its absence would prove nothing
        lab.expect("%s has %s" % (m.router(copy, "n1"), gone),
                   lambda: view(lab, copy, "n1"), lambda t: None if gone in t else "absent",
                   timeout=30)
    for copy in m.COPIES:
        lab[m.router(copy, "c2")].vtysh("configure terminal", "router bgp %d" % m.AS,
                                        "address-family ipv4 unicast",
                                        "no network %s" % gone)
    for copy in m.COPIES:
        for role in m.ROLES:
            lab.expect("%s: routes after the withdrawal" % m.router(copy, role),
                       lambda: view(lab, copy, role), rfc_checker(role, gone=(gone,)),
                       timeout=lab.budget("withdraw", CONVERGE))
    for role in m.ROLES:
        compare_copies(lab, role)
