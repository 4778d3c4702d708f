# SPDX-License-Identifier: ISC
"""A small model of FRR's prefix lists, fed the very command lines dut and ref are given.

It gives the designed outcome the reference (FRR) is first checked against, so that the
comparison of skua with FRR rests on cases that decide what they claim.  Semantics modelled
(FRR 8.4, lib/plist.c and bgpd's filters, read to learn, not copied):

- entries are tried in seq order and the first match decides; no match = deny;
- `P/L` alone matches exactly P/L; `ge G` / `le M` match the prefixes inside P/L whose length
  is in [G or L, M or the family's maximum]; `any` matches every prefix of the family;
- a list without entries (description only) permits everything;
- a neighbor naming a list that does not exist: FRR_MISSING_LIST_PERMITS (see below);
- an entry without seq gets the highest seq + 5 (5 in an empty list; FRR 8.4's northbound
  CLI: 5, 12 -> 17), and is not added when an identical entry (action, prefix, ge, le)
  already exists.
"""

import ipaddress

# FRR 8.4 bgpd: prefix_list_apply() on a name that names no list answers deny, so a
# `neighbor X prefix-list NOSUCH in|out` filters everything out.
FRR_MISSING_LIST_PERMITS = False


class Entry:
    def __init__(self, action, net, ge=0, le=0):
        self.action = action  # "permit" | "deny"
        self.net = net  # ip_network, None for `any`
        self.ge, self.le = ge, le

    def key(self):
        return (self.action, str(self.net), self.ge, self.le)

    def matches(self, prefix):
        if self.net is None:
            return True
        if prefix.version != self.net.version or not prefix.subnet_of(self.net):
            return False
        if not self.ge and not self.le:
            return prefix.prefixlen == self.net.prefixlen
        low = self.ge or self.net.prefixlen
        high = self.le or prefix.max_prefixlen
        return low <= prefix.prefixlen <= high


class PrefixList:
    def __init__(self):
        self.entries = {}  # seq: Entry
        self.description = None

    def verdict(self, prefix):
        if not self.entries:
            return True
        for seq in sorted(self.entries):
            if self.entries[seq].matches(prefix):
                return self.entries[seq].action == "permit"
        return False


class Policy:
    """The prefix lists of one router: {(afi, name): PrefixList}, afi "ipv4" | "ipv6"."""

    def __init__(self, lines=()):
        self.lists = {}
        for line in lines:
            self.command(line)

    def permits(self, afi, name, prefix):
        """Verdict of the list a neighbor names (None: no list configured)."""
        if name is None:
            return True
        pl = self.lists.get((afi, name))
        if pl is None:
            return FRR_MISSING_LIST_PERMITS
        return pl.verdict(ipaddress.ip_network(prefix))

    def command(self, line):
        """One `[no] ip|ipv6 prefix-list ...` configuration line."""
        words = line.split()
        negate = words[0] == "no"
        if negate:
            words = words[1:]
        if words[1] != "prefix-list" or words[0] not in ("ip", "ipv6"):
            raise ValueError("not a prefix-list command: %r" % line)
        afi = "ipv4" if words[0] == "ip" else "ipv6"
        key, rest = (afi, words[2]), words[3:]
        if rest and rest[0] == "description":
            if negate:
                pl = self.lists.get(key)
                if pl:
                    pl.description = None
                    if not pl.entries:
                        del self.lists[key]
            else:
                self.lists.setdefault(key, PrefixList()).description = " ".join(rest[1:])
            return
        seq = None
        if rest[:1] == ["seq"]:
            seq, rest = int(rest[1]), rest[2:]
        if negate:
            self._remove(key, seq, rest)
        else:
            self._add(key, seq, rest)

    def _entry(self, words):
        action, what, opts = words[0], words[1], words[2:]
        if what == "any":
            return Entry(action, None)
        net = ipaddress.ip_network(what, strict=False)
        ge = le = 0
        for name, value in zip(opts[::2], opts[1::2]):
            if name == "ge":
                ge = int(value)
            elif name == "le":
                le = int(value)
        return Entry(action, net, ge, le)

    def _add(self, key, seq, words):
        pl = self.lists.setdefault(key, PrefixList())
        entry = self._entry(words)
        if seq is None:
            if any(e.key() == entry.key() for e in pl.entries.values()):
                return
            seq = max(pl.entries) + 5 if pl.entries else 5
        pl.entries[seq] = entry

    def _remove(self, key, seq, words):
        pl = self.lists.get(key)
        if pl is None:
            return
        if seq is None and not words:
            del self.lists[key]
            return
        if seq is None:
            entry = self._entry(words)
            seq = next((s for s, e in pl.entries.items() if e.key() == entry.key()), None)
        pl.entries.pop(seq, None)
        if not pl.entries and pl.description is None:
            del self.lists[key]
