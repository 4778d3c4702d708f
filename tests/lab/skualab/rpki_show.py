# SPDX-License-Identifier: ISC
"""Reading RPKI state from a router's show commands (FRR 8.4's forms, which skua keeps):
`show rpki prefix-table json`, the V/I/N codes of `show bgp AFI unicast`, the
`rpkiValidationState` of `show bgp AFI unicast PREFIX json`, `show rpki cache-connection`."""

import ipaddress
import re

# "V*> 198.51.100.0/24  ..." or "N*                   192.0.2.12 ..." (another path of the
# prefix above) or "V*> 198.51.100.128/25" alone (the rest wraps to the next line).
CODE_LINE = re.compile(r"^([VIN])([ *>=sdhirSR]{2})\s*(\S+/\d+)?")
STATE_NAMES = {"V": "valid", "I": "invalid", "N": "notfound"}


def afi_of(prefix):
    return "ipv6" if ":" in prefix else "ipv4"


def parse_codes(text):
    """{prefix: [state per path, in the order shown]} from `show bgp AFI unicast` text."""
    out = {}
    current = None
    for line in text.splitlines():
        m = CODE_LINE.match(line)
        if not m:
            continue
        if m.group(3):
            current = m.group(3)
        if current:
            out.setdefault(current, []).append(STATE_NAMES[m.group(1)])
    return out


def codes(daemon, afi, extra=""):
    """parse_codes() of `show bgp AFI unicast [extra]` (extra: "rpki invalid"...)."""
    return parse_codes(daemon.vtysh(("show bgp %s unicast %s" % (afi, extra)).strip()))


def path_states(daemon, prefix, raw=False):
    """{peer address: rpkiValidationState} of every path to prefix (None: no state).  FRR
    writes "valid", "invalid", "not found"; unless raw, the last becomes "notfound", the word
    its commands take."""
    doc = daemon.vtysh_json("show bgp %s unicast %s json" % (afi_of(prefix), prefix))
    out = {}
    for p in doc.get("paths", []):
        peer = (p.get("peer") or {}).get("peerId") or p.get("peerId")
        state = p.get("rpkiValidationState")
        out[peer] = state if raw or state is None else state.replace("not found", "notfound")
    return out


def prefix_table(daemon, cmd="show rpki prefix-table json"):
    """Sorted [(prefix/len, max length, asn)] of a `show rpki prefix-table json`-shaped answer
    (also `show rpki prefix P json`)."""
    doc = daemon.vtysh_json(cmd)
    return sorted(("%s/%d" % (v["prefix"], v["prefixLenMin"]), v["prefixLenMax"], v["asn"])
                  for v in doc.get("prefixes", []))


def normal_vrps(vrps):
    """VRPs as prefix_table() gives them (prefix written as the router prints it)."""
    return sorted((str(ipaddress.ip_network(p)), m, a) for p, m, a in vrps)


def best_local_prefs(daemon, afi):
    """{prefix: LOCAL_PREF of the best path} of a collector's table."""
    doc = daemon.vtysh_json("show bgp %s unicast json" % afi)
    out = {}
    for prefix, paths in (doc.get("routes") or {}).items():
        for p in paths:
            if p.get("bestpath"):
                out[prefix] = p.get("locPrf", 100)
    return out


def cache_connection(daemon):
    """`show rpki cache-connection json`; with no cache connected FRR and skua answer with an
    error (skua: {"error": ...}): "connections" is then an empty list."""
    try:
        doc = daemon.vtysh_json("show rpki cache-connection json")
    except Exception:  # noqa: B902 - CommandError or invalid JSON: nothing connected
        doc = {}
    doc.setdefault("connections", [])
    return doc


def cache_servers(daemon):
    """{preference: entry} of `show rpki cache-server json`: FRR's keys (mode, host, port,
    preference), and in skua's the state, counts and lastError."""
    doc = daemon.vtysh_json("show rpki cache-server json")
    return {s["preference"]: s for s in doc.get("servers", [])}
