# SPDX-License-Identifier: ISC
"""A model of FRR 8.4's routing policy, fed the very command lines dut and ref are given:
prefix lists, AS path access lists, community lists and route-maps, with their evaluation.

It gives the designed outcome the reference (FRR) is checked against first, so that the
comparison of skua with FRR rests on cases that decide what they claim.  Where FRR's
behaviour is not what one would guess, a constant below says what the lab found it to be
(FRR 8.4.4 observed, its sources read to learn, nothing copied).
"""

import ipaddress
import re

# --- what the lab found FRR 8.4 to do where it is not obvious ------------------------------

# A permit entry with `on-match next|goto` that matched, then no later entry matching:
# FRR's route_map_apply() turns its result to deny at every entry that does not match, so
# the route is denied when an entry was tried and did not match after the permit; reaching
# the end with nothing more tried (goto past the last entry, on-match next on the last
# entry) keeps the permit.  The same with the optimization off.
NOMATCH_AFTER_CONTINUE_DENIES = True
# `call NAME` naming no route-map: FRR skips the call (the entry's result stands).
MISSING_CALL_DENIES = False
# `set local-preference +N|-N` on a route without LOCAL_PREF (eBGP-learned, inbound): FRR
# starts from 0, not from the default 100.
LP_ARITH_BASE = 0
# Towards an iBGP peer FRR gives a route without LOCAL_PREF the default 100 before the
# outbound route-map: `set local-preference +7` there sends 107.
IBGP_DEFAULT_LP_BEFORE_OUT_MAP = True
# Towards an eBGP peer FRR drops a received MED before the outbound route-map, but only its
# flag: `match metric` still compares the old value (a route with MED 7 matches `match metric
# 7` and is sent without MED); a `set metric` of the map is sent.
EBGP_MED_FLAG_DROPPED_BEFORE_OUT_MAP = True
# `match ip|ipv6 address prefix-list` naming a list without entries (a description only)
# matches nothing in FRR 8.4's route-maps, although the same list as a neighbour's
# prefix-list permits everything (policy_plist).  An effect of FRR's route-map optimization
# (on by default), which finds the candidate entries through the lists' prefixes: with `no
# route-map NAME optimization` the same entry matches every route, IPv4 and IPv6.
EMPTY_PREFIX_LIST_MATCHES = False
# `match peer A.B.C.D` in an outbound route-map matches no neighbor, neither the one the route
# goes to nor the one it came from: FRR 8.4 runs outbound maps for an update group, with the
# group's stand-in peer, which has no address (observed; bgp_updgrp.c read to learn).
# `match peer local` and `match peer IFNAME` never match in a numbered neighbor's maps.
OUT_MAP_PEER_MATCHES = False
# Not modelled: FRR 8.4 refuses `match metric 0` (its YANG range starts at 1), so the
# scenario's policy has none.

DEFAULT_LP = 100

WELL_KNOWN = {
    "internet": 0x00000000, "graceful-shutdown": 0xFFFF0000, "accept-own": 0xFFFF0001,
    "blackhole": 0xFFFF029A, "no-export": 0xFFFFFF01, "no-advertise": 0xFFFFFF02,
    "local-AS": 0xFFFFFF03, "no-peer": 0xFFFFFF04,
}
NAME_OF = {v: k for k, v in WELL_KNOWN.items()}
NO_EXPORT, NO_ADVERTISE, LOCAL_AS = WELL_KNOWN["no-export"], WELL_KNOWN["no-advertise"], \
    WELL_KNOWN["local-AS"]


def community(word):
    if word in WELL_KNOWN:
        return WELL_KNOWN[word]
    if ":" in word:
        hi, lo = word.split(":")
        return int(hi) << 16 | int(lo)
    return int(word)


def community_text(values):
    """FRR's text of a community attribute, values in the order stored."""
    return " ".join(NAME_OF.get(v, "%d:%d" % (v >> 16, v & 0xFFFF)) for v in values)


def stored_communities(values):
    """FRR stores a received COMMUNITIES attribute sorted, without duplicates."""
    return tuple(sorted(set(values)))


def aspath_length(path):
    """RFC 4271 9.1.2.2 a): an AS_SET counts as one."""
    return sum(1 for w in re.findall(r"\{[^}]*\}|\S+", path))


def aspath_exclude(path, asns):
    """FRR's set as-path exclude: every occurrence leaves, in sequences and sets alike; a set
    left empty goes (segments are not merged, which the text form does not show)."""
    out = []
    for w in re.findall(r"\{[^}]*\}|\S+", path):
        if w.startswith("{"):
            kept = [a for a in w[1:-1].split(",") if a not in asns]
            if kept:
                out.append("{%s}" % ",".join(kept))
        elif w not in asns:
            out.append(w)
    return " ".join(out)


# FRR's `_` in AS path and community expressions.
UNDERSCORE = "(^|[,{}() ]|$)"


def compile_regex(text):
    return re.compile(text.replace("_", UNDERSCORE))


# --- prefix lists --------------------------------------------------------------------------

class PlEntry:
    def __init__(self, action, net, ge=0, le=0):
        self.action, self.net, self.ge, self.le = action, net, ge, le

    def matches(self, prefix):
        if self.net is None:
            return True
        if prefix.version != self.net.version or not prefix.subnet_of(self.net):
            return False
        if not self.ge and not self.le:
            return prefix.prefixlen == self.net.prefixlen
        return (self.ge or self.net.prefixlen) <= prefix.prefixlen <= \
            (self.le or prefix.max_prefixlen)


def plist_permits(entries, prefix):
    """First match in seq order decides; no entry (description only) permits."""
    if not entries:
        return True
    for seq in sorted(entries):
        if entries[seq].matches(prefix):
            return entries[seq].action == "permit"
    return False


# --- route-maps ----------------------------------------------------------------------------

class RmEntry:
    def __init__(self, action):
        self.action = action
        self.matches = {}  # kind: argument words
        self.sets = {}  # kind: argument words
        self.call = None
        self.on_match = ("exit", None)


class Attrs:
    """A path's attributes as FRR keeps them (communities sorted, no duplicates)."""

    def __init__(self, path, origin="igp", med=None, lp=None, weight=0, nexthop=None,
                 comms=()):
        self.path, self.origin, self.med, self.lp = path, origin, med, lp
        self.weight, self.nexthop, self.comms = weight, nexthop, tuple(comms)
        self.med_value = med or 0  # what `match metric` compares (see above)
        self.tag = 0  # set tag: local, never sent, kept from the inbound to the outbound map

    def copy(self):
        a = Attrs(self.path, self.origin, self.med, self.lp, self.weight, self.nexthop,
                  self.comms)
        a.med_value, a.tag = self.med_value, self.tag
        return a

    def drop_med(self):
        """The MED no longer sent; FRR keeps the value `match metric` sees."""
        self.med = None

    def row(self):
        return {"path": self.path, "origin": self.origin, "metric": self.med,
                "locPrf": self.lp, "weight": self.weight, "nexthop": self.nexthop,
                "community": community_text(self.comms)}


def arith(current, word):
    """FRR's route_value_adjust(): N, +N (saturating), -N (floored at 0)."""
    if word.startswith("+"):
        return min(current + int(word[1:]), 0xFFFFFFFF)
    if word.startswith("-"):
        return max(current - int(word[1:]), 0)
    return int(word)


class Policy:
    """The policy objects of one router, built from configuration lines."""

    def __init__(self, lines=()):
        self.plists = {}  # (afi, name): {seq: PlEntry}
        self.aslists = {}  # name: {seq: (action, regex)}
        self.clists = {}  # name: (expanded, {seq: (action, values or regex)})
        self.maps = {}  # name: {seq: RmEntry}
        self.ctx = None  # (map, seq) after a `route-map` line
        for line in lines:
            self.command(line)

    # --- configuration --------------------------------------------------------------------

    def command(self, line):
        words = line.split()
        if not words or words[0] in ("!", "exit"):
            self.ctx = None
            return
        negate = words[0] == "no"
        body = words[1:] if negate else words
        if self.ctx and body[0] in ("match", "set", "call", "on-match", "description"):
            self._entry_command(negate, body)
            return
        self.ctx = None
        if body[0] == "route-map":
            self._route_map(negate, body[1:])
        elif body[0] in ("ip", "ipv6") and body[1] == "prefix-list":
            self._prefix_list(negate, "ipv4" if body[0] == "ip" else "ipv6", body[2:])
        elif body[:3] == ["bgp", "as-path", "access-list"]:
            self._as_list(negate, body[3:])
        elif body[:2] == ["bgp", "community-list"]:
            self._community_list(negate, body[2:])
        else:
            raise ValueError("not a policy command: %r" % line)

    def _route_map(self, negate, words):
        name = words[0]
        if negate:
            if len(words) == 1:
                self.maps.pop(name, None)
            else:
                self.maps.get(name, {}).pop(int(words[2]), None)
                if not self.maps.get(name):
                    self.maps.pop(name, None)
            return
        seq = int(words[2])
        entries = self.maps.setdefault(name, {})
        if seq not in entries or entries[seq].action != words[1]:
            entries[seq] = RmEntry(words[1])
        self.ctx = (name, seq)

    def _entry_command(self, negate, words):
        e = self.maps[self.ctx[0]][self.ctx[1]]
        if words[0] == "description":
            return
        if words[0] == "call":
            e.call = None if negate else words[1]
        elif words[0] == "on-match":
            e.on_match = ("exit", None) if negate else \
                ("next", None) if words[1] == "next" else ("goto", int(words[2]))
        else:
            table = e.matches if words[0] == "match" else e.sets
            kind, args = self._split_kind(words[1:])
            if negate:
                table.pop(kind, None)
            else:
                table[kind] = args

    KINDS = ("ip address prefix-list", "ipv6 address prefix-list", "as-path prepend",
             "ip next-hop prefix-list", "ipv6 next-hop address",
             "as-path exclude",
             "ip next-hop", "local-preference", "as-path", "metric", "community", "weight",
             "origin", "peer", "tag")

    def _split_kind(self, words):
        text = " ".join(words)
        for kind in self.KINDS:
            if text == kind or text.startswith(kind + " "):
                return kind, text[len(kind):].split()
        raise ValueError("unknown route-map clause %r" % text)

    def _prefix_list(self, negate, afi, words):
        name, rest = words[0], words[1:]
        key = (afi, name)
        if rest[:1] == ["description"]:
            if not negate:
                self.plists.setdefault(key, {})
            return
        seq = None
        if rest[:1] == ["seq"]:
            seq, rest = int(rest[1]), rest[2:]
        entries = self.plists.setdefault(key, {})
        if negate:
            entries.pop(seq, None)
            return
        action, what, opts = rest[0], rest[1], rest[2:]
        net = None if what == "any" else ipaddress.ip_network(what, strict=False)
        opt = dict(zip(opts[::2], (int(v) for v in opts[1::2])))
        if seq is None:
            seq = max(entries) + 5 if entries else 5
        entries[seq] = PlEntry(action, net, opt.get("ge", 0), opt.get("le", 0))

    def _seq_and_rest(self, entries, rest):
        if rest[:1] == ["seq"]:
            return int(rest[1]), rest[2:]
        return (max(entries) + 5 if entries else 5), rest

    def _as_list(self, negate, words):
        name, rest = words[0], words[1:]
        entries = self.aslists.setdefault(name, {})
        seq, rest = self._seq_and_rest(entries, rest)
        if negate:
            entries.pop(seq, None)
        else:
            entries[seq] = (rest[0], compile_regex(" ".join(rest[1:])))
        if not entries:
            del self.aslists[name]

    def _community_list(self, negate, words):
        kind, name, rest = words[0], words[1], words[2:]
        expanded = kind == "expanded"
        entries = self.clists.setdefault(name, (expanded, {}))[1]
        seq, rest = self._seq_and_rest(entries, rest)
        if negate:
            entries.pop(seq, None)
        elif expanded:
            entries[seq] = (rest[0], compile_regex(" ".join(rest[1:])))
        else:
            entries[seq] = (rest[0], stored_communities(community(w) for w in rest[1:]))
        if not entries:
            del self.clists[name]

    # --- evaluation -----------------------------------------------------------------------

    def prefix_list_matches(self, afi, name, prefix):
        entries = self.plists.get((afi, name))
        if entries is None or prefix.version != (4 if afi == "ipv4" else 6):
            return False
        if not entries:
            return EMPTY_PREFIX_LIST_MATCHES
        return plist_permits(entries, prefix)

    def nexthop_list_matches(self, name, prefix, nexthop):
        """match ip next-hop prefix-list: IPv4 routes only; the list's plain verdict on the
        next hop as a /32, so a list without entries permits it (no route-map optimization
        here, unlike EMPTY_PREFIX_LIST_MATCHES)."""
        entries = self.plists.get(("ipv4", name))
        if entries is None or prefix.version != 4:
            return False
        return not entries or plist_permits(entries, ipaddress.ip_network(nexthop + "/32"))

    def as_list_permits(self, name, path):
        """FRR's as_list_apply(): first matching entry decides; no list or no match: deny."""
        entries = self.aslists.get(name)
        for seq in sorted(entries or {}):
            action, regex = entries[seq]
            if regex.search(path):
                return action == "permit"
        return False

    def community_list_matches(self, name, comms, exact):
        """FRR's community_list_match() / community_list_exact_match()."""
        if name not in self.clists:
            return False
        expanded, entries = self.clists[name]
        for seq in sorted(entries):
            action, what = entries[seq]
            if expanded:
                hit = bool(what.search(community_text(comms)))
            elif WELL_KNOWN["internet"] in what:
                hit = True
            elif exact:
                hit = tuple(comms) == what
            else:
                hit = bool(comms) and set(what) <= set(comms)
            if hit:
                return action == "permit"
        return False

    def entry_matches(self, e, prefix, a, peer=None):
        """peer: the neighbor whose map runs (its address; "" for a neighbor's map that is
        given none, see OUT_MAP_PEER_MATCHES), None in a map of our own routes."""
        for kind, args in e.matches.items():
            if kind == "ip address prefix-list":
                ok = self.prefix_list_matches("ipv4", args[0], prefix)
            elif kind == "ipv6 address prefix-list":
                ok = self.prefix_list_matches("ipv6", args[0], prefix)
            elif kind == "ip next-hop prefix-list":
                ok = self.nexthop_list_matches(args[0], prefix, a.nexthop)
            elif kind == "ipv6 next-hop address":
                ok = prefix.version == 6 and \
                    ipaddress.ip_address(a.nexthop) == ipaddress.ip_address(args[0])
            elif kind == "as-path":
                ok = args[0] in self.aslists and self.as_list_permits(args[0], a.path)
            elif kind == "metric":
                ok = a.med_value == int(args[0])
            elif kind == "community":
                ok = self.community_list_matches(args[0], a.comms, args[1:] == ["exact-match"])
            elif kind == "peer":
                if args[0] == "local":
                    ok = peer is None
                else:
                    try:
                        ok = bool(peer) and \
                            ipaddress.ip_address(args[0]) == ipaddress.ip_address(peer)
                    except ValueError:  # an interface name: no numbered neighbor is one
                        ok = False
            elif kind == "tag":
                ok = a.tag == int(args[0])
            else:
                raise ValueError(kind)
            if not ok:
                return False
        return True

    @staticmethod
    def apply_sets(e, prefix, a):
        # skua runs an entry's exclude before its prepend (FRR's printed order); FRR runs them
        # in the order they were configured, so the policy writes them in that order.
        if "as-path exclude" in e.sets:
            a.path = aspath_exclude(a.path, e.sets["as-path exclude"])
        for kind, args in e.sets.items():
            if kind == "local-preference":
                a.lp = arith(LP_ARITH_BASE if a.lp is None else a.lp, args[0])
            elif kind == "metric":
                a.med = a.med_value = arith(a.med or 0, args[0])
            elif kind == "weight":
                a.weight = int(args[0])
            elif kind == "origin":
                a.origin = args[0]
            elif kind == "tag":
                a.tag = int(args[0])
            elif kind == "as-path prepend":
                a.path = " ".join(args + [a.path])
            elif kind == "ip next-hop":
                if prefix.version == 4:
                    a.nexthop = args[0]
            elif kind == "community":
                if args == ["none"]:
                    a.comms = ()
                elif args[-1] == "additive":
                    a.comms = stored_communities(list(a.comms) + [community(w)
                                                                  for w in args[:-1]])
                else:
                    a.comms = stored_communities(community(w) for w in args)

    def route_map(self, name, prefix, attrs, depth=0, peer=None):
        """(permitted, attributes after the set clauses) for the map `name`; peer: the
        neighbor whose map it is (`match peer`)."""
        entries = self.maps.get(name)
        a = attrs.copy()
        if not entries or depth > 10:
            return False, a
        seqs = sorted(entries)
        result, i = False, 0  # falling off the end: permit only after a permit entry
        while i < len(seqs):
            e = entries[seqs[i]]
            if not self.entry_matches(e, prefix, a, peer):
                if NOMATCH_AFTER_CONTINUE_DENIES:
                    result = False
                i += 1
                continue
            if e.action == "deny":
                return False, a
            result = True
            self.apply_sets(e, prefix, a)
            if e.call:
                if e.call in self.maps:
                    ok, a = self.route_map(e.call, prefix, a, depth + 1, peer)
                    if not ok:
                        return False, a
                elif MISSING_CALL_DENIES:
                    return False, a
            how, target = e.on_match
            if how == "exit":
                return True, a
            if how == "next":
                i += 1
                continue
            i = next((k for k, s in enumerate(seqs) if s >= target and k > i), len(seqs))
        return result, a
