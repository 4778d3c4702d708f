# SPDX-License-Identifier: ISC
"""Turn the peers' show output into dicts, and every kind into one normalised shape.

Normalised shapes used by scenario tests whatever the router kind:
  peers:  {"<neighbor address>": {"state": "Established", "pfxRcd": <int>, "up": <str>}}
  routes: {"<prefix>": [{"best": bool, "valid": bool, "path": "65001 65002",
                         "nexthops": ["192.0.2.1", ...]}]}
"""

import re

GOBGP_STATES = {0: "Unknown", 1: "Idle", 2: "Connect", 3: "Active", 4: "OpenSent",
                5: "OpenConfirm", 6: "Established"}


# --- BIRD (birdc text) -----------------------------------------------------------------

def _strip_birdc(text):
    lines = text.splitlines()
    if lines and lines[0].startswith("BIRD ") and lines[0].rstrip().endswith("ready."):
        lines = lines[1:]
    return lines


def parse_bird_protocols(text):
    """`show protocols all` -> {name: {"proto", "table", "state", "since", "info",
    "bgp_state", "neighbor_address", "neighbor_as", "channels": {name: {...,
    "imported", "exported", "preferred"}}}}."""
    protos = {}
    cur = chan = None
    for line in _strip_birdc(text):
        if not line.strip() or line.startswith("Name "):
            continue
        if not line[0].isspace():
            f = line.split(None, 5)
            cur = {"proto": f[1] if len(f) > 1 else "", "table": f[2] if len(f) > 2 else "",
                   "state": f[3] if len(f) > 3 else "", "channels": {}}
            # Since is "HH:MM:SS.mmm" or "YYYY-MM-DD HH:MM:SS" depending on timeformat.
            rest = f[4:] if len(f) > 4 else []
            rest = " ".join(rest)
            m = re.match(r"(\d{4}-\d\d-\d\d \S+|\S+)\s*(.*)$", rest)
            cur["since"] = m.group(1) if m else rest
            cur["info"] = m.group(2).strip() if m else ""
            protos[f[0]] = cur
            chan = None
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("Channel "):
            chan = {}
            cur["channels"][s.split()[1]] = chan
            continue
        if ":" not in s:
            continue
        key, _, val = s.partition(":")
        key, val = key.strip(), val.strip()
        if chan is not None:
            if key == "Routes":
                for num, what in re.findall(r"(\d+) (\w+)", val):
                    chan[what] = int(num)
            else:
                chan[key.lower().replace(" ", "_")] = val
        else:
            cur[key.lower().replace(" ", "_")] = val
    return protos


_BIRD_ROUTE = re.compile(r"^(\S+)?\s+(unicast|unreachable|blackhole|prohibited|multipath)"
                         r"\s+\[(\S+)[^\]]*\]\s*(\*)?")


def parse_bird_routes(text):
    """`show route all [table T]` -> {prefix: [{"proto", "best", "type", "via": [...],
    "as_path", "next_hop", "origin", "local_pref", "med"}]}."""
    routes = {}
    cur_prefix = None
    cur = None
    for line in _strip_birdc(text):
        if not line.strip() or line.startswith("Table "):
            continue
        if line.startswith("\t"):
            if cur is None:
                continue
            s = line.strip()
            m = re.match(r"via (\S+)", s)
            if m:
                cur["via"].append(m.group(1))
            elif s.startswith("BGP.") and ":" in s:
                key, _, val = s[4:].partition(":")
                cur[key.strip()] = val.strip()
            continue
        m = _BIRD_ROUTE.match(line)
        if not m:
            continue
        if m.group(1):
            cur_prefix = m.group(1)
        if cur_prefix is None:
            continue
        cur = {"proto": m.group(3), "best": bool(m.group(4)), "type": m.group(2), "via": []}
        routes.setdefault(cur_prefix, []).append(cur)
    return routes


def normalise_bird_peers(protos):
    out = {}
    for name, p in protos.items():
        if p.get("proto") != "BGP" or "neighbor_address" not in p:
            continue
        addr = p["neighbor_address"].split("%")[0]
        state = p.get("bgp_state") or p.get("info", "").split(" ")[0] or p.get("state")
        pfx = sum(c.get("imported", 0) for c in p["channels"].values())
        out[addr] = {"state": state, "pfxRcd": pfx, "up": p.get("since"), "name": name}
    return out


def normalise_bird_routes(routes):
    out = {}
    for prefix, paths in routes.items():
        lst = []
        for r in paths:
            if "as_path" not in r and r["type"] != "unicast":
                continue  # static/blackhole routes of BIRD itself are not BGP paths
            lst.append({"best": r["best"], "valid": r["type"] == "unicast",
                        "path": r.get("as_path", ""), "proto": r["proto"],
                        # BGP.next_hop lists global then link-local for IPv6 (RFC 2545)
                        "nexthops": r["next_hop"].split() if "next_hop" in r
                        else list(r["via"])})
        if lst:
            out[prefix] = lst
    return out


# --- FRR and skua (vtysh json) ----------------------------------------------------------

def normalise_frr_peers(summaries):
    """summaries: list of `show bgp <afi> unicast summary json` documents."""
    out = {}
    for doc in summaries:
        if not isinstance(doc, dict):
            continue
        # `show bgp ipv4 unicast summary json` is the inner object; `show ip bgp summary
        # json` wraps it in {"ipv4Unicast": ...}.  Accept both.
        inner = [doc] if "peers" in doc else [v for v in doc.values() if isinstance(v, dict)]
        for af in inner:
            for addr, p in af.get("peers", {}).items():
                e = out.setdefault(addr, {"state": p.get("state"), "pfxRcd": 0,
                                          "up": p.get("peerUptimeMsec")})
                if p.get("state") == "Established" or e["state"] != "Established":
                    e["state"] = p.get("state")
                if isinstance(p.get("pfxRcd"), int):
                    e["pfxRcd"] += p["pfxRcd"]
    return out


def normalise_frr_routes(doc):
    out = {}
    for prefix, paths in (doc or {}).get("routes", {}).items():
        lst = []
        for p in paths:
            lst.append({"best": bool(p.get("bestpath")), "valid": bool(p.get("valid")),
                        "path": p.get("path", ""), "peer": p.get("peerId"),
                        "nexthops": [n.get("ip") for n in p.get("nexthops", [])]})
        out[prefix] = lst
    return out


# --- GoBGP (gobgp -j) ------------------------------------------------------------------

def _gobgp_state(v):
    if isinstance(v, int):
        return GOBGP_STATES.get(v, str(v))
    v = str(v).lower()
    for name in GOBGP_STATES.values():
        if name.lower() == v or "session_state_" + name.lower() == v:
            return name
    return v


def normalise_gobgp_peers(doc):
    out = {}
    for n in doc or []:
        st = n.get("state", {})
        addr = st.get("neighbor_address") or n.get("conf", {}).get("neighbor_address")
        pfx = 0
        for af in n.get("afi_safis", []) or []:
            pfx += af.get("state", {}).get("accepted", 0) or 0
        up = n.get("timers", {}).get("state", {}).get("uptime", {}).get("seconds")
        out[addr] = {"state": _gobgp_state(st.get("session_state", 0)), "pfxRcd": pfx,
                     "up": up}
    return out


def _gobgp_path(attrs):
    asns = []
    for a in attrs:
        if a.get("type") == 2:
            for seg in a.get("as_paths", []):
                if seg.get("segment_type") == 1:  # AS_SET
                    asns.append("{%s}" % ",".join(str(x) for x in seg.get("asns", [])))
                else:
                    asns += [str(x) for x in seg.get("asns", [])]
    return " ".join(asns)


def normalise_gobgp_routes(doc):
    out = {}
    for prefix, paths in (doc or {}).items():
        lst = []
        for p in paths:
            attrs = p.get("attrs", [])
            nh = [a.get("nexthop") for a in attrs if a.get("type") in (3, 14)]
            lst.append({"best": bool(p.get("best")), "valid": True, "path": _gobgp_path(attrs),
                        "peer": p.get("neighbor-ip"), "nexthops": [x for x in nh if x]})
        out[prefix] = lst
    return out
