# SPDX-License-Identifier: ISC
"""Reading the routers' tables for the route-map scenario, in the shape rmap_cases.row()
gives the designed outcome: {prefix: sorted [(peer, next hop, AS path, origin, MED,
LOCAL_PREF, weight, best, communities)]}.

`show bgp ipv4|ipv6 unicast json` has every attribute but the communities, which only the
per-prefix `show bgp ... PREFIX json` gives: those are asked in one vtysh run per router.
"""

import json

from skualab.daemons import FrrBgpd
from skualab.netns import run


def bgpd_vtysh(daemon, *cmds, check=True):
    """vtysh to bgpd alone: FRR's vtysh would also send configuration commands to zebra,
    which has no route-maps (a `no ...` zebra refuses stops vtysh before bgpd sees it)."""
    if isinstance(daemon, FrrBgpd):
        argv = ["vtysh", "--vty_socket", daemon.sockdir, "-d", "bgpd"]
        for c in cmds:
            argv += ["-c", c]
    else:
        argv = daemon.vtysh_argv(cmds)
    return run(argv, timeout=30, check=check)


def json_docs(text):
    """The JSON documents of several commands' output, one after the other."""
    dec, docs, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return docs
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)


def global_nexthops(path):
    return " ".join(n.get("ip") for n in path.get("nexthops", [])
                    if n.get("ip") and not n["ip"].lower().startswith("fe80"))


def communities(daemon, afi, prefixes):
    """{(prefix, peer): community text} from the per-prefix detail."""
    if not prefixes:
        return {}
    cmds = ["show bgp %s unicast %s json" % (afi, p) for p in prefixes]
    try:
        docs = json_docs(bgpd_vtysh(daemon, *cmds))
    except ValueError:
        docs = []
    if len(docs) != len(cmds):  # something else in the output: one at a time
        docs = [json.loads(bgpd_vtysh(daemon, c) or "{}") for c in cmds]
    out = {}
    for prefix, doc in zip(prefixes, docs):
        for path in doc.get("paths", []):
            peer = path.get("peer", {}).get("peerId", "")
            out[(prefix, peer)] = path.get("community", {}).get("string", "")
    return out


def table(daemon):
    out = {}
    for afi in ("ipv4", "ipv6"):
        routes = daemon.vtysh_json("show bgp %s unicast json" % afi).get("routes") or {}
        comms = communities(daemon, afi, sorted(routes))
        for prefix, paths in routes.items():
            out[prefix] = sorted(
                (p.get("peerId", ""), global_nexthops(p), p.get("path", ""),
                 p.get("origin", ""), str(p.get("metric", "-")), str(p.get("locPrf", "-")),
                 str(p.get("weight", "-")), bool(p.get("bestpath")),
                 comms.get((prefix, p.get("peerId", "")), "?"))
                for p in paths)
    return out


def describe(diff):
    return "\n".join("%s:\n    %s" % (p, "\n    ".join(d)) for p, d in sorted(diff.items()))


def differences(tabs, pairs, prefixes=None):
    """{prefix: what differs} between the tables of each pair of routers."""
    out = {}
    for a, b in pairs:
        keys = prefixes if prefixes is not None else set(tabs[a]) | set(tabs[b])
        for p in sorted(keys):
            if tabs[a].get(p) != tabs[b].get(p):
                out.setdefault(p, []).append("%s %s\n    %s %s" % (a, tabs[a].get(p), b,
                                                                   tabs[b].get(p)))
    return out
