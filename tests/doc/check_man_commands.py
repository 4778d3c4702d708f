#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""
Every command of the built bgpd is in its manual page, and every statement a page lists is a
command bgpd has; likewise the options of bgpd and vtysh (their --help) in skua-bgpd(8) and
skua-vtysh(1).

The commands come from the daemon itself: bgpd runs on a private vty socket with an empty
configuration (no routes installed, BGP on an ephemeral port of 127.0.0.1) and `list` is asked
in each mode through vtysh. The commands of the configuration modes belong in
skua-bgpd.conf(5), except the ones that only make sense interactively (commit, show, do...),
which belong in skua-vtysh(1) with the commands of view and enable mode.

A page documents a statement in an `.It` line of a list, its keywords marked with `Ic` or
`Cm`, its arguments with `Ar`, `[no]` written `Oo Ic no Oc`. A command is documented when one
such line has the command's first keyword first, its mandatory keywords in order, every keyword
of the command (optional ones and alternatives too), and `no` when the command has a no form.

Usage: check_man_commands.py [--bgpd BIN] [--vtysh BIN] [--man-dir DIR]
(defaults: ./bgpd/bgpd and ./vtysh/vtysh of the build directory, $srcdir/doc/man).
Exits 0 when everything is documented, 1 with the list of what is not.
"""
import argparse
import os
import pwd
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

# How to reach each configuration mode from enable mode, and the mode's name in messages.
CONFIG_MODES = [
    ("config", []),
    ("router", ["router bgp 64512"]),
    ("address-family ipv4", ["router bgp 64512", "address-family ipv4 unicast"]),
    ("address-family ipv6", ["router bgp 64512", "address-family ipv6 unicast"]),
    ("route-map", ["route-map DOC-CHECK permit 10"]),
    ("rpki", ["rpki"]),
]
# Commands of the configuration modes that a configuration file has no use for: they move
# between modes, run other commands or manage the candidate. skua-vtysh(1) documents them.
INTERACTIVE = {"commit", "discard", "do", "end", "exit", "list", "quit", "show", "update"}

PLACEHOLDER = re.compile(r"^(A\.B\.C\.D(/M)?|X:X::X:X(/M)?|[A-Z][A-Z0-9_]*(\.\.\.)?)$")
MACROS = {"Ic", "Cm", "Ar", "Op", "Oo", "Oc", "Ns", "Pf", "No", "Fl", "Li", "Ql", "Pq", "Po",
          "Pc", "Dq", "Do", "Dc", "Sy", "Em", "Va", "Xo", "Xc", "Aq", "Bq", "Brq", "Bro", "Brc",
          "Sq", "Qq", "Dv", "Pa", "Ev", "Xr"}
KEYWORD_MACROS = {"Ic", "Cm"}
DELIMITERS = {"|", "(", ")", "[", "]", ",", ".", ";", ":", "\\&"}


class Command:
    """One grammar: its mandatory keywords in order, all its keywords, whether it has `no`."""

    def __init__(self, grammar):
        self.grammar = grammar
        toks = re.findall(r"[<>\[\]{}|]|[^\s<>\[\]{}|]+", grammar)
        self.no = False
        if toks[:3] == ["[", "no", "]"]:
            self.no, toks = True, toks[3:]
        elif toks[:1] == ["no"]:
            self.no, toks = True, toks[1:]
        self.mandatory, self.keywords, depth = [], set(), 0
        for t in toks:
            if t in "<[{":
                depth += 1
            elif t in ">]}":
                depth -= 1
            elif t != "|":
                word = t.split("$", 1)[0]
                if not word or word.startswith("(") or PLACEHOLDER.match(word):
                    continue
                self.keywords.add(word)
                if depth == 0:
                    self.mandatory.append(word)

    def documented_by(self, item):
        kw = item.statement
        if not self.mandatory or not kw or kw[0] != self.mandatory[0]:
            return False
        if self.no and not item.no:
            return False
        if not self.keywords <= set(kw):
            return False
        it = iter(kw)
        return all(m in it for m in self.mandatory)  # a subsequence, in order

    def names(self, item):
        """The item names this command's statement (the reverse check: no stale entries)."""
        kw = item.statement
        it = iter(kw)
        return bool(kw) and kw[0] == self.mandatory[0] and all(m in it for m in self.mandatory)


class Item:
    def __init__(self, path, lineno, line):
        self.where = f"{path}:{lineno}"
        self.text = line.strip()
        self.keywords, mode = [], None
        try:
            words = shlex.split(line[3:], posix=True)
        except ValueError:
            words = line[3:].split()
        for w in words:
            if w in MACROS:
                mode = w
            elif mode in KEYWORD_MACROS and w not in DELIMITERS:
                self.keywords.append(w)
        # `Oo Ic no Oc` in front: the statement has a no form
        self.no = self.keywords[:1] == ["no"]
        self.statement = self.keywords[1:] if self.no else self.keywords


def page_items(path):
    """The `.It` lines that name a statement (keywords marked Ic or Cm)."""
    items = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith(".It "):
                item = Item(path, n, line)
                if item.keywords:
                    items.append(item)
    return items


OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def help_options(binary):
    """(options in the first column of `binary --help`, every option the text mentions)."""
    r = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=20)
    listed = set()
    for line in r.stdout.splitlines():
        m = re.match(r"^\s+(-.*?)(?:\s{2,}|$)", line)  # the first column
        if m:
            listed.update(OPTION.findall(m.group(1)))
    return listed, set(OPTION.findall(r.stdout))


def page_options(path):
    """The options an `.It Fl ...` line of the page describes ("Fl -vty-socket" is --vty-socket)."""
    opts = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(".It Fl "):
                words, take = line.split()[1:], False
                for w in words:
                    if w in MACROS:
                        take = w == "Fl"
                    elif take and w not in DELIMITERS:
                        opts.add("-" + w)
    return opts


def check_options(binary, page):
    listed, mentioned = help_options(binary)
    documented = page_options(page)
    name = os.path.basename(page)
    out = [f"{name}: option {o} of {binary} --help has no .It Fl line"
           for o in sorted(listed - documented)]
    out += [f"{name}: option {o} is not an option of {binary} (--help)"
            for o in sorted(documented - mentioned)]
    return out


def vtysh_list(vtysh, sock, path):
    args = [vtysh, "--vty-socket", sock]
    if path is not None:
        args += ["-c", "configure terminal"]
        for cmd in path:
            args += ["-c", cmd]
    args += ["-c", "list"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=20)
    if r.returncode != 0:
        sys.exit(f"check_man_commands: {' '.join(args)} failed ({r.returncode}): {r.stdout}"
                 f"{r.stderr}")
    return [ln.strip() for ln in r.stdout.splitlines() if ln.startswith("  ")]


def daemon_commands(bgpd, vtysh):
    """{mode: [grammar]} from a private bgpd; the daemon is stopped before returning."""
    with tempfile.TemporaryDirectory(prefix="skua-man-") as tmp:
        conf, sock = os.path.join(tmp, "bgpd.conf"), os.path.join(tmp, "bgpd.vty")
        open(conf, "w").close()
        log = open(os.path.join(tmp, "bgpd.log"), "w+")
        # -u: stay whoever runs the test (root would otherwise become skua, who cannot read
        # this private directory).
        me = pwd.getpwuid(os.geteuid()).pw_name
        proc = subprocess.Popen([bgpd, "-f", conf, "--vty-socket", sock, "-i",
                                 os.path.join(tmp, "bgpd.pid"), "-u", me, "--no-fib", "-l",
                                 "127.0.0.1", "-p", "0"], stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 15
            while subprocess.run([vtysh, "--vty-socket", sock, "-c", "show version"],
                                 capture_output=True, timeout=10).returncode != 0:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    sys.exit(f"check_man_commands: {bgpd} does not answer on {sock}:\n"
                             f"{log.read()}")
                time.sleep(0.1)
            modes = {"enable": vtysh_list(vtysh, sock, None)}
            for name, path in CONFIG_MODES:
                modes[name] = vtysh_list(vtysh, sock, path)
            return modes
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


def main():
    srcdir = os.environ.get("srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bgpd", default="./bgpd/bgpd")
    ap.add_argument("--vtysh", default="./vtysh/vtysh")
    ap.add_argument("--man-dir", default=os.path.join(srcdir, "doc", "man"))
    o = ap.parse_args()

    conf_page = os.path.join(o.man_dir, "skua-bgpd.conf.5")
    vtysh_page = os.path.join(o.man_dir, "skua-vtysh.1")
    pages = {conf_page: page_items(conf_page), vtysh_page: page_items(vtysh_page)}

    modes = daemon_commands(o.bgpd, o.vtysh)
    wanted = {}  # (page, grammar) -> mode
    for mode, grammars in modes.items():
        for g in grammars:
            first = Command(g).mandatory[0] if Command(g).mandatory else ""
            page = vtysh_page if mode == "enable" or first in INTERACTIVE else conf_page
            wanted.setdefault((page, g), mode)

    missing = []
    for (page, g), mode in sorted(wanted.items()):
        cmd = Command(g)
        if not any(cmd.documented_by(item) for item in pages[page]):
            missing.append(f"{os.path.basename(page)}: {mode} mode: {g}")

    stale = []
    for page, items in pages.items():
        cmds = [Command(g) for (p, g) in wanted if p == page]
        for item in items:
            if not any(c.mandatory and c.names(item) for c in cmds):
                stale.append(f"{item.where}: names no command of bgpd: {item.text}")

    stale += check_options(o.bgpd, os.path.join(o.man_dir, "skua-bgpd.8"))
    stale += check_options(o.vtysh, vtysh_page)

    total = len(wanted)
    if missing or stale:
        for m in missing:
            print(f"not documented: {m}")
        for s in stale:
            print(s)
        print(f"check_man_commands: {len(missing)} of {total} commands undocumented, "
              f"{len(stale)} page entries or options wrong: add an .It line with the "
              f"command's keywords marked Ic (see the top of this script)")
        return 1
    print(f"check_man_commands: all {total} commands of bgpd are in the manual pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
