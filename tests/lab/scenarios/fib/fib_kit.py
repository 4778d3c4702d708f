# SPDX-License-Identifier: ISC
"""Reading a FIB three ways, for the fib scenarios: what the kernel holds, what skua says it
installed, and what skua's BGP table says it should have installed.

Every view is {prefix: frozenset((gateway, interface))}, prefixes normalised by ipaddress.
"""

import ipaddress
import json

BGP_METRIC = 20  # what skua (and FRR's zebra) install BGP routes with


def norm(prefix):
    return str(ipaddress.ip_network(prefix))


def kernel_routes(netns, version, table):
    """The kernel's `proto bgp` routes of `table` in a namespace, and those of them whose
    metric is not BGP's (a wrong metric is a failure of its own)."""
    out = netns.exec(["ip", "-j", "-%d" % version, "route", "show", "table", str(table),
                      "proto", "bgp"])
    routes, wrong_metric = {}, []
    for r in json.loads(out or "[]"):
        hops = r.get("nexthops") or [r]
        routes[norm(r["dst"])] = frozenset((h.get("gateway"), h.get("dev")) for h in hops)
        if r.get("metric") != BGP_METRIC:
            wrong_metric.append((r["dst"], r.get("metric")))
    return routes, wrong_metric


def shown_routes(daemon, version):
    """skua's `show ip route json` / `show ipv6 route json`."""
    data = daemon.vtysh_json("show %s route json" % ("ip" if version == 4 else "ipv6"))
    return {norm(p): frozenset((h["ip"], h["interfaceName"]) for h in rs[0]["nexthops"])
            for p, rs in data.items()}


def global_nexthop(path):
    """A path's next hop address as the FIB uses it (the global one for IPv6)."""
    for h in path.get("nexthops", []):
        if h.get("scope", "global") == "global":
            return h["ip"]
    return None


def _tie(path):
    """What must be equal to the best path for a path to be multipath (FRR's rules without
    multipath-relax): peer type, AS path, origin, local preference, MED, weight."""
    return (path.get("pathFrom"), path.get("path"), path.get("origin"),
            path.get("locPrf", 100), path.get("metric", 0), path.get("weight", 0))


def model_fib(bgp_json, resolve, maxpaths=64):
    """The FIB that bgpd's own table calls for: per prefix with a valid best path, the best
    path's next hop and those of the valid paths tied with it (up to maxpaths distinct next
    hops), each resolved by the test's knowledge of the topology (`resolve(ip)` ->
    (gateway, interface) or None).  Returns (fib, problems)."""
    fib, problems = {}, []
    for prefix, paths in bgp_json.get("routes", {}).items():
        best = [p for p in paths if p.get("bestpath")]
        if not best or not best[0].get("valid"):
            continue
        best = best[0]
        hops = [global_nexthop(best)]
        for p in paths:
            if (p is not best and p.get("valid") and _tie(p) == _tie(best)
                    and global_nexthop(p) not in hops and len(hops) < maxpaths):
                hops.append(global_nexthop(p))
        resolved = set()
        for ip in hops:
            via = resolve(ip)
            if via is None:
                problems.append("%s: next hop %s is valid in bgpd but the topology cannot "
                                "reach it" % (prefix, ip))
            else:
                resolved.add(via)
        fib[norm(prefix)] = frozenset(resolved)
    return fib, problems


def frr_multipath_set(frr_json, prefix):
    """FRR's forwarding set for a prefix: the next hops of its best and multipath paths."""
    paths = frr_json.get("routes", {}).get(prefix, [])
    return frozenset(global_nexthop(p) for p in paths
                     if p.get("valid") and (p.get("bestpath") or p.get("multipath")))


def diff(views):
    """None when every view ({name: fib}) is the same, else a description of the
    differences against the first view."""
    names = list(views)
    ref_name, ref = names[0], views[names[0]]
    lines = []
    for name in names[1:]:
        other = views[name]
        for p in sorted(set(ref) | set(other)):
            if ref.get(p) != other.get(p):
                lines.append("%s: %s %s, %s %s" % (p, ref_name, _fmt(ref.get(p)), name,
                                                   _fmt(other.get(p))))
    return "\n".join(lines) or None


def _fmt(hops):
    if hops is None:
        return "absent"
    return "[" + ", ".join("%s dev %s" % h for h in sorted(hops, key=str)) + "]"


NHOBJ_FIRST, NHOBJ_COUNT = 186 << 20, 1 << 20  # skua's nexthop object ids (kernel/route_nhobj.h)


def nexthop_objects_problems(netns, tables=(254,)):
    """What is wrong with skua's nexthop objects in a namespace (None when nothing): every
    `proto bgp` route of `tables` must refer to an object of protocol bgp in skua's range
    whose next hops (a group's members') are the route's own, and every such object must be
    used by a route or a group (deleted after the last one)."""
    objs = {o["id"]: o for o in json.loads(netns.exec(["ip", "-j", "nexthop", "show"]) or "[]")
            if o.get("protocol") == "bgp" and
            NHOBJ_FIRST <= o["id"] < NHOBJ_FIRST + NHOBJ_COUNT}
    used, problems = set(), []

    def hops_of(o):
        if "group" in o:
            return frozenset((objs.get(m["id"], {}).get("gateway"),
                              objs.get(m["id"], {}).get("dev")) for m in o["group"])
        return frozenset([(o.get("gateway"), o.get("dev"))])

    for o in objs.values():
        for m in o.get("group", []):
            used.add(m["id"])
            if m["id"] not in objs:
                problems.append("group %d has a member %d that is not skua's" % (o["id"], m["id"]))
    for table in tables:
        for version in (4, 6):
            out = netns.exec(["ip", "-j", "-%d" % version, "route", "show", "table", str(table),
                              "proto", "bgp"])
            for r in json.loads(out or "[]"):
                nhid = r.get("nhid")
                if nhid not in objs:
                    problems.append("route %s refers to no object of skua's (nhid %s)"
                                    % (r["dst"], nhid))
                    continue
                used.add(nhid)
                hops = frozenset((h.get("gateway"), h.get("dev"))
                                 for h in (r.get("nexthops") or [r]))
                if hops_of(objs[nhid]) != hops:
                    problems.append("route %s: object %d is %s, the route %s"
                                    % (r["dst"], nhid, _fmt(hops_of(objs[nhid])), _fmt(hops)))
    for oid in sorted(set(objs) - used):
        problems.append("object %d (%s) is used by no route" % (oid, _fmt(hops_of(objs[oid]))))
    return "\n".join(problems) or None


def nexthop_object_count(netns):
    """skua's nexthop objects in a namespace."""
    return len([o for o in json.loads(netns.exec(["ip", "-j", "nexthop", "show"]) or "[]")
                if o.get("protocol") == "bgp"])
