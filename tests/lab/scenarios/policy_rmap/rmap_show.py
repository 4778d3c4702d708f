# SPDX-License-Identifier: ISC
"""The policy show commands of skua and FRR 8.4, reduced to what both say.

The tests compare these reductions; where the texts differ beyond them (format, counters,
order), the difference is written down as a finding, not asserted on:

- `show route-map NAME`: FRR's map line carries `Invoked: N Optimization: ... Processed
  Change: ...`, every entry `Invoked N` (FRR counts a route once per evaluation, also on a
  soft reconfiguration: not comparable); FRR lists the set clauses in the order they were
  configured, so both are compared sorted within an entry.
- `show bgp community-list`: FRR 8.4 prints `Named Community standard|expanded list NAME`
  and `    permit VALUE` (no seq, no hit count, a standard entry's communities sorted).
- `show bgp as-path-access-list [json]`: FRR 8.4 prints `    permit REGEX` (no seq) and its
  JSON is {NAME: [{sequenceNumber, type, regExp}]}.
"""

import difflib
import json
import re

from rmap_tables import bgpd_vtysh

INVOKED_RE = re.compile(r"\s+Invoked:? \d+")
MAP_LINE_RE = re.compile(r"^(route-map: \S+).*")
CLIST_HEAD_RE = re.compile(r"^(?:Named )?Community (standard|expanded|\(expanded\) access) "
                           r"list (\S+)$")
ENTRY_RE = re.compile(r"^\s+(?:seq (\d+) )?(permit|deny)(?: (.*?))?(?: \(hit count: \d+\))?$")
ASLIST_HEAD_RE = re.compile(r"^AS path access list (\S+)$")


def text(daemon, cmd):
    return bgpd_vtysh(daemon, cmd, check=False)


def route_map(raw):
    """Lines without counters, set clauses sorted within each entry."""
    out, sets = [], []
    for line in raw.splitlines():
        line = MAP_LINE_RE.sub(r"\1", INVOKED_RE.sub("", line.rstrip()))
        if not line:
            continue
        if sets and line.startswith("    "):
            sets.append(line)
            continue
        if sets:
            out += [sets[0]] + sorted(sets[1:])
            sets = []
        if line == "  Set clauses:":
            sets = [line]
        else:
            out.append(line)
    return out + ([sets[0]] + sorted(sets[1:]) if sets else [])


def community_lists(raw):
    """[(name, standard|expanded, action, value)], a standard entry's communities sorted."""
    out, head = [], None
    for line in raw.splitlines():
        m = CLIST_HEAD_RE.match(line.rstrip())
        if m:
            head = (m.group(2), "standard" if m.group(1) == "standard" else "expanded")
            continue
        m = ENTRY_RE.match(line.rstrip())
        if m and head:
            value = m.group(3) or ""
            if head[1] == "standard":
                value = " ".join(sorted(value.split()))
            out.append(head + (m.group(2), value))
    return out


def as_path_lists(raw):
    """[(name, action, regex)]."""
    out, name = [], None
    for line in raw.splitlines():
        m = ASLIST_HEAD_RE.match(line.rstrip())
        if m:
            name = m.group(1)
            continue
        m = ENTRY_RE.match(line.rstrip())
        if m and name:
            out.append((name, m.group(2), m.group(3)))
    return out


def as_path_lists_json(raw):
    """{name: [(seq, type, regex)]} from FRR's list form or an {entries: [...]} object."""
    doc = json.loads(raw or "{}")
    out = {}
    for name, body in doc.items():
        entries = body.get("entries", []) if isinstance(body, dict) else body
        out[name] = [(e.get("sequenceNumber"), e.get("type"), e.get("regExp"))
                     for e in entries]
    return out


HITS_RE = re.compile(r" \(hit count: \d+\)|^\s*\"hitCount\":\d+,?\n", re.M)


def uncounted(raw):
    """The text without counters (they never compare), all else kept."""
    return HITS_RE.sub("", "\n".join(MAP_LINE_RE.sub(r"\1", INVOKED_RE.sub("", line))
                                     for line in raw.splitlines()) + "\n")


def unified(cmd, dut, ref):
    """The difference of the texts less their counters, for the findings file ('' when
    they are the same)."""
    dut, ref = uncounted(dut), uncounted(ref)
    if dut == ref:
        return ""
    return "".join(difflib.unified_diff(ref.splitlines(True), dut.splitlines(True),
                                        "FRR: " + cmd, "skua: " + cmd))
