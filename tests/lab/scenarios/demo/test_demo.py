# SPDX-License-Identifier: ISC
"""The README's demo lab (scripts/lab-demo.sh) works: three skua routers in a triangle, every
router has every network, its neighbours' over the direct session (AS path of length 1), and
every session runs under GTSM (minimum TTL 255 read back from the socket, listener protected)
and TCP-MD5."""

import pytest

AS = {"r1": 65001, "r2": 65002, "r3": 65003}
NETS = {"r1": ("198.51.100.0/28", "2001:db8:100::/48"),
        "r2": ("198.51.100.16/28", "2001:db8:200::/48"),
        "r3": ("198.51.100.32/28", "2001:db8:300::/48")}


@pytest.mark.timeout(150)
@pytest.mark.parametrize("router", list(AS))
def test_sessions_established(lab, router):
    peers = [lab.addr(router, p, v) for p in AS if p != router for v in (4, 6)]
    lab.wait_established(router, peers, timeout=lab.budget("sessions", 60))


@pytest.mark.parametrize("router", list(AS))
def test_every_network_with_direct_path(lab, router):
    sessions = {router: [lab.addr(router, p, v) for p in AS if p != router for v in (4, 6)]}
    for other in AS:
        for afi, prefix in zip(("ipv4", "ipv6"), NETS[other]):
            path = "" if other == router else str(AS[other])

            def check(table, prefix=prefix, path=path):
                best = [p for p in table.get(prefix, []) if p["best"]]
                if not best:
                    return "%s: no best path (%s)" % (prefix, table.get(prefix))
                if best[0]["path"] != path:
                    return "%s: best path %r, expected %r" % (prefix, best[0]["path"], path)
                return None
            lab.expect("%s: %s" % (router, prefix), lambda: lab[router].routes(afi), check,
                       timeout=lab.budget("routes", 45), needs=sessions)


@pytest.mark.parametrize("router", list(AS))
def test_sessions_protected(lab, router):
    """`show bgp gtsm json`: every neighbor at hops 1 with TTL 255 both ways on its socket, an
    MD5 key, the listener's handshake check in force; the kernel dropped nothing."""
    peers = [lab.addr(router, p, v) for p in AS if p != router for v in (4, 6)]
    want = {"neighbors": {a: {"hops": 1, "minTtlConfigured": 255, "minTtlSocket": 255,
                              "sendTtlSocket": 255, "md5": True, "listenerProtected": True,
                              "state": "Established"} for a in peers},
            "kernelCounters": {"tcpMd5Failure": 0, "tcpMd5NotFound": 0}}
    lab.expect("%s: show bgp gtsm" % router, lambda: lab[router].vtysh_json("show bgp gtsm json"),
               want, timeout=lab.budget("gtsm", 30), needs={router: peers})
