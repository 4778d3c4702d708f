# SPDX-License-Identifier: ISC
"""Reading FRR-style routers' BGP tables for the scenarios that compare skua (dut) with
FRR 8.4 (ref), and talking to their bgpd alone.

A scenario's table is {prefix: sorted [row of each path]}, the row a tuple of the fields it
compares; two routers' tables are then compared prefix by prefix (differences, describe).
- `show bgp ipv4|ipv6 unicast json` gives every path's attributes but the communities:
  rows() / table() with the fields named in PATH_FIELDS;
- the per-prefix `show bgp AFI unicast PREFIX json` has the communities (and other keys:
  `peer.peerId`, `aspath.string`, `bestpath.overall`): detail_docs() asks for all prefixes
  in one vtysh run, detail_table() builds a table from them.
steady() takes dut's tables once they match or stop changing, after ref's converged.
bgpd_vtysh() and bgpd_configure() talk to bgpd alone, skua's or FRR's (see bgpd_argv()).
"""

import json
import time

from .daemons import FrrBgpd
from .netns import run

AFIS = ("ipv4", "ipv6")


def bgpd_argv(daemon, cmds):
    """vtysh's argv for `cmds` to the bgpd of a skua or FRR router alone: FRR's vtysh would
    also send configuration commands to zebra, which has no policy (a `no ...` zebra refuses
    stops vtysh before bgpd sees it)."""
    if isinstance(daemon, FrrBgpd):
        argv = ["vtysh", "--vty_socket", daemon.sockdir, "-d", "bgpd"]
        for c in cmds:
            argv += ["-c", c]
        return argv
    return daemon.vtysh_argv(cmds)


def bgpd_vtysh(daemon, *cmds, check=True):
    """Run `cmds` in one vtysh to bgpd alone; their text output.  check=False: a failing
    command's output is returned instead of raising CommandError."""
    return run(bgpd_argv(daemon, cmds), timeout=30, check=check)


def bgpd_configure(lab, routers, *lines):
    """`configure terminal` then `lines` on the bgpd of each of `routers`, in that order."""
    for r in routers:
        bgpd_vtysh(lab[r], "configure terminal", *lines)


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


def routes(daemon, afi="ipv4"):
    """{prefix: [path]} of `show bgp AFI unicast json` (an empty table: {})."""
    return daemon.vtysh_json("show bgp %s unicast json" % afi).get("routes") or {}


def prefixes(daemon, afi="ipv4"):
    """The sorted prefixes of `show bgp AFI unicast json`."""
    return sorted(routes(daemon, afi))


def global_nexthops(path):
    """A path's next hop addresses but the link-local ones, in the order shown."""
    return [n.get("ip") for n in path.get("nexthops", [])
            if n.get("ip") and not n["ip"].lower().startswith("fe80")]


# One path of `show bgp ipv4|ipv6 unicast json` (FRR 8.4's keys), field by field as the
# scenarios compare it: absent numbers are "-" as in FRR's text.
PATH_FIELDS = {
    "peer": lambda p: p.get("peerId", ""),
    "nexthops": lambda p: " ".join(global_nexthops(p)),
    "aspath": lambda p: p.get("path", ""),
    "origin": lambda p: p.get("origin", ""),
    "med": lambda p: str(p.get("metric", "-")),
    "localpref": lambda p: str(p.get("locPrf", "-")),
    "weight": lambda p: str(p.get("weight", "-")),
    "best": lambda p: bool(p.get("bestpath")),
}


def path_row(path, fields):
    """The tuple of the PATH_FIELDS named in `fields`, in that order."""
    return tuple(PATH_FIELDS[f](path) for f in fields)


def rows(paths_by_prefix, row):
    """{prefix: sorted [row(prefix, path) for each path]} of a routes() object."""
    return {prefix: sorted(row(prefix, p) for p in paths)
            for prefix, paths in paths_by_prefix.items()}


def table(daemon, fields, afis=AFIS):
    """{prefix: sorted [path_row(path, fields)]} over the address families `afis`."""
    out = {}
    for afi in afis:
        out.update(rows(routes(daemon, afi), lambda _, p: path_row(p, fields)))
    return out


def detail_docs(daemon, afi, prefix_list):
    """[`show bgp AFI unicast PREFIX json` for each of prefix_list], asked in one vtysh run;
    one run a prefix when that output holds anything but those documents."""
    if not prefix_list:
        return []
    cmds = ["show bgp %s unicast %s json" % (afi, p) for p in prefix_list]
    try:
        docs = json_docs(bgpd_vtysh(daemon, *cmds))
    except ValueError:
        docs = []
    if len(docs) != len(cmds):
        docs = [json.loads(bgpd_vtysh(daemon, c) or "{}") for c in cmds]
    return docs


def detail_table(daemon, row, afi="ipv4"):
    """{prefix: sorted [row(path)]} from the per-prefix detail of every prefix in the table."""
    keys = prefixes(daemon, afi)
    return {prefix: sorted(row(p) for p in doc.get("paths", []))
            for prefix, doc in zip(keys, detail_docs(daemon, afi, keys))}


def differences(tabs, pairs, only=None, sep="\n    "):
    """{prefix: ["a ROWS<sep>b ROWS" for each pair (a, b) whose tables differ there]} over
    the prefixes `only` (None: every prefix of either table); tabs is {router: table}."""
    out = {}
    for a, b in pairs:
        keys = only if only is not None else set(tabs[a]) | set(tabs[b])
        for p in sorted(keys):
            if tabs[a].get(p) != tabs[b].get(p):
                out.setdefault(p, []).append("%s %s%s%s %s" % (a, tabs[a].get(p), sep, b,
                                                               tabs[b].get(p)))
    return out


def describe(diff):
    """differences() as text: each prefix, then what differs there, indented."""
    return "\n".join("%s:\n    %s" % (p, "\n    ".join(d)) for p, d in sorted(diff.items()))


def steady(read, mismatch, seconds, interval=2):
    """read() until mismatch(reading) is falsy, or the reading equals the one before (it
    stopped changing), or `seconds` have passed; the last reading.  For dut, fed at the same
    time as ref once ref holds the designed tables: where dut still differs, the comparisons
    then say so (a wait here would only delay them)."""
    deadline = time.monotonic() + seconds
    prev, now = None, read()
    while mismatch(now) and now != prev and time.monotonic() < deadline:
        time.sleep(interval)
        prev, now = now, read()
    return now
