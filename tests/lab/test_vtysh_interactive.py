# SPDX-License-Identifier: ISC
"""vtysh as an operator uses it, against the real bgpd (not the unit tests' cli_testd).

One bgpd per module, no namespace and no root needed: it listens for BGP on a free high port
on 127.0.0.1 (its neighbors stay Active: nobody answers) and serves its vty socket in a
temporary directory. Interactive tests run vtysh in a pseudo-terminal (the pty module) and
type as a person would: `?`, TAB, abbreviations, errors with their caret, mode changes and
prompts, `do`, history, Ctrl-Z, Ctrl-C. The non-interactive tests run `vtysh -c/-f/-E` and
pipes and check exit statuses.

Every wait is bounded; a failure shows the terminal transcript (escape sequences removed)
and the end of bgpd's log.

Run: SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_vtysh_interactive.py
"""

import codecs
import errno
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import termios
import time

import pytest

from skualab.daemons import SkuaBgpd
from skualab.standalone import standalone_bgpd

pytestmark = pytest.mark.timeout(120)

HOSTNAME = "r1"
ASN = 65001
NEIGHBORS4 = ["10.0.0.2", "10.0.0.3"]
NEIGHBOR6 = "2001:db8::2"
CONFIG = """\
! vtysh interactive tests
hostname {host}
router bgp {asn}
 bgp router-id 10.0.0.1
 neighbor 10.0.0.2 remote-as 65002
 neighbor 10.0.0.3 remote-as 65003
 neighbor {v6} remote-as 65004
 address-family ipv4 unicast
  network 192.0.2.0/24
 exit-address-family
""".format(host=HOSTNAME, asn=ASN, v6=NEIGHBOR6)

EXPECT_TIMEOUT = 10  # seconds for any one thing to show up on the terminal


@pytest.fixture(scope="module")
def bgpd():
    """One bgpd for the module (skualab/standalone.py)."""
    with standalone_bgpd("skua-vtysh-", CONFIG) as d:
        yield d
    # A sanitizer build reports leaks and undefined behaviour at exit: that is a failure.
    for bad in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        assert bad not in d.final_log, "bgpd's log reports %s:\n%s" % (bad, d.final_log)
    assert d.status == 0, "bgpd exited with status %s on SIGTERM; log:\n%s" % (
        d.status, d.final_log)


# ---- the terminal ------------------------------------------------------------------------------

_CSI = re.compile(r"\x1b\[([0-?]*)[ -/]*([@-~])")
_ESC_OTHER = re.compile(r"\x1b(?:[()][0-9A-Za-z]|[=>78])")


class Screen:
    """What a person would see: the bytes vtysh writes, rendered like a vt100 renders them
    (carriage return, cursor moves, erase to end of line), one string per line; lines are
    never wrapped and never scroll away, so the whole session stays searchable."""

    def __init__(self):
        self.lines = [[]]
        self.row = self.col = 0
        self.pending = ""  # an escape sequence cut off at the end of the last chunk
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def _put(self, ch):
        line = self.lines[self.row]
        if self.col < len(line):
            line[self.col] = ch
        else:
            line.extend(" " * (self.col - len(line)))
            line.append(ch)
        self.col += 1

    def _csi(self, args, final):
        n = int(args) if args.isdigit() else 1
        if final == "C":
            self.col += n
        elif final == "D":
            self.col = max(0, self.col - n)
        elif final == "A":
            self.row = max(0, self.row - n)
        elif final == "B":
            self._down(n)
        elif final == "K" and args in ("", "0"):
            del self.lines[self.row][self.col:]
        elif final == "J" and args in ("", "0"):
            del self.lines[self.row][self.col:]
            del self.lines[self.row + 1:]
        # anything else (attributes, modes) changes nothing a test reads

    def _down(self, n=1):
        self.row += n
        while len(self.lines) <= self.row:
            self.lines.append([])

    def feed(self, data):
        text = self.pending + self.decoder.decode(data)
        self.pending = ""
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                m = _CSI.match(text, i) or _ESC_OTHER.match(text, i)
                if not m:
                    if len(text) - i < 16:  # incomplete: wait for the rest
                        self.pending = text[i:]
                        return
                    i += 1  # not a sequence we know: drop the ESC
                    continue
                if m.re is _CSI:
                    self._csi(m.group(1), m.group(2))
                i = m.end()
                continue
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self._down()
            elif ch == "\b":
                self.col = max(0, self.col - 1)
            elif ch == "\t":
                self.col = (self.col // 8 + 1) * 8
            elif ch >= " ":
                self._put(ch)
            # NUL padding, bell and other controls show nothing
            i += 1

    def text(self):
        return "\n".join("".join(line) for line in self.lines)

    def row_offset(self):
        """Where the cursor's line starts, as an offset in text()."""
        return sum(len(line) + 1 for line in self.lines[:self.row])

    def cursor_offset(self):
        """Where the cursor is, as an offset in text()."""
        return self.row_offset() + min(self.col, len(self.lines[self.row]))


class Term:
    """vtysh in a pseudo-terminal (80x24, vt100), read and written like a keyboard user."""

    def __init__(self, bgpd, home=None):
        self.bgpd = bgpd
        self.screen = Screen()
        self.mark = 0  # expect() searches from here (an offset in the rendered text)
        self.exited = None
        env = {"PATH": "/usr/bin:/bin", "TERM": "vt100", "LANG": "C.UTF-8",
               "HOME": home or bgpd.workdir}
        argv = [SkuaBgpd.vtysh_path(), "--vty-socket", bgpd.sock]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: vtysh on the pty as its controlling terminal
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def text(self):
        return self.screen.text()

    def transcript(self):
        return ("--- terminal as rendered (80x24 vt100, no scrolling) ---\n%s\n"
                "--- end of terminal; bgpd log (last lines) ---\n%s"
                % (self.text(), self.bgpd.log_tail()))

    def _read(self, timeout):
        """Read what is there within timeout; False once the terminal is closed."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError as e:
            if e.errno == errno.EIO:  # vtysh exited and closed its side
                return False
            raise
        if not data:
            return False
        self.screen.feed(data)
        return True

    def _editing(self):
        # On Linux the master side reads the pair's termios: the line editor works with
        # ICANON off. A key sent before that is cooked by the tty (^D becomes a NUL).
        try:
            return not termios.tcgetattr(self.fd)[3] & termios.ICANON
        except termios.error:
            return False

    def send(self, keys, timeout=EXPECT_TIMEOUT):
        """Type keys once the line editor is reading them (as a person who waits for the
        prompt does)."""
        deadline = time.monotonic() + timeout
        while not self._editing():
            if time.monotonic() > deadline:
                raise AssertionError("vtysh's line editor never took the terminal (raw mode) "
                                     "within %ss\n%s" % (timeout, self.transcript()))
            self._read(0.01)
        while self._read(0) and select.select([self.fd], [], [], 0)[0]:
            pass  # take in everything already written
        # What the keys make appear starts at the cursor: a line erased and typed again
        # (Ctrl-U) must be searchable from there.
        self.mark = min(self.mark, self.screen.cursor_offset())
        os.write(self.fd, keys.encode())

    def _find(self, what, text):
        if isinstance(what, str):
            i = text.find(what, self.mark)
            return i + len(what) if i >= 0 else -1
        m = what.search(text, self.mark)
        return m.end() if m else -1

    def expect(self, what, timeout=EXPECT_TIMEOUT):
        """Wait until `what` (text or compiled regex) shows up after the mark; the mark moves
        past it. Returns the text between the old mark and the end of the match."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            end = self._find(what, text)
            if end >= 0:
                seen = text[self.mark:end]
                self.mark = end
                return seen
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.2)):
                raise AssertionError("never saw %r within %ss after offset %d\n%s"
                                     % (what if isinstance(what, str) else what.pattern,
                                        timeout, self.mark, self.transcript()))

    def expect_no(self, what, within=0.5):
        """Nothing matching `what` shows up after the mark within `within` s."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            self._read(0.05)
        assert self._find(what, self.text()) < 0, "unexpected %r\n%s" % (what,
                                                                          self.transcript())

    def command(self, line, prompt):
        """Type a line and Enter; wait for the next prompt; return the output in between."""
        self.send(line + "\r")
        self.expect(line + "\n")
        out = self.expect(prompt)
        return out[:-len(prompt)]

    def expect_line(self, full, timeout=EXPECT_TIMEOUT):
        """Wait until the line being edited reads `full` (prompt included): for edits that
        rewrite the line in place (history, completion)."""
        deadline = time.monotonic() + timeout
        while "".join(self.screen.lines[self.screen.row]) != full:
            if time.monotonic() > deadline or not self._read(0.05):
                raise AssertionError("the line never read %r\n%s" % (full, self.transcript()))
        self.mark = self.screen.row_offset() + len(full)

    def kill_line(self, timeout=EXPECT_TIMEOUT):
        """Ctrl-U: wait until the line holds only the prompt again."""
        self.send(KILL_LINE)
        deadline = time.monotonic() + timeout
        prompt_only = re.compile(r"^\S+[#>] $")
        while True:
            line = "".join(self.screen.lines[self.screen.row])
            if prompt_only.match(line) and self.screen.col == len(line):
                self.mark = min(self.mark, self.screen.cursor_offset())
                return
            if time.monotonic() > deadline or not self._read(0.05):
                raise AssertionError("Ctrl-U did not clear the line\n%s" % self.transcript())

    def describe(self, line, prompt):
        """Type line, then `?`: returns the help list; the line is given back after it."""
        self.send(line)
        self.expect(line)
        self.send("?")
        out = self.expect("\n" + prompt + line)
        return out[:-len(prompt + line)]

    def tab_list(self, line, prompt):
        """Type line, then TAB where several candidates are listed: returns the list."""
        self.send(line)
        self.expect(line)
        self.send("\t")
        out = self.expect("\n" + prompt + line)
        return out[:-len(prompt + line)]

    def wait_exit(self, timeout=EXPECT_TIMEOUT):
        deadline = time.monotonic() + timeout
        while self.exited is None:
            self._read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.exited = status
            elif time.monotonic() > deadline:
                raise AssertionError("vtysh did not exit within %ss\n%s" % (timeout,
                                                                            self.transcript()))
        drain_until = time.monotonic() + 2
        while self._read(0.05) and time.monotonic() < drain_until:
            pass  # what it wrote last (a sanitizer build reports at exit)
        for bad in ("Sanitizer", "runtime error:"):
            assert bad not in self.text(), "vtysh reports %s\n%s" % (bad, self.transcript())
        return os.waitstatus_to_exitcode(self.exited)

    def close(self):
        if self.exited is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.exited = -1
        os.close(self.fd)


@pytest.fixture
def term(bgpd):
    t = Term(bgpd)
    try:
        t.expect(HOSTNAME + "# ")
        yield t
    finally:
        t.close()


P_ENABLE = HOSTNAME + "# "
P_VIEW = HOSTNAME + "> "
P_CONFIG = HOSTNAME + "(config)# "
P_ROUTER = HOSTNAME + "(config-router)# "
P_AF = HOSTNAME + "(config-router-af)# "
P_RPKI = HOSTNAME + "(config-rpki)# "
KILL_LINE = "\x15"  # Ctrl-U
CTRL_Z = "\x1a"
CTRL_C = "\x03"
UP = "\x1b[A"


def caret_col(output, prefix):
    """The column of the caret on the line after the line that starts with prefix."""
    lines = output.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(prefix) and i + 1 < len(lines):
            return lines[i + 1].index("^") if "^" in lines[i + 1] else None
    return None


def running_config(bgpd):
    r = bgpd.vtysh("-c", "show running-config")
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


# ---- interactive ------------------------------------------------------------------------------


def test_prompts_follow_modes(term):
    """Prompts carry the config's hostname and follow every mode change."""
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("address-family ipv4 unicast", P_AF)
    term.command("exit-address-family", P_ROUTER)
    term.command("address-family ipv6 unicast", P_AF)
    term.command("exit", P_ROUTER)
    term.command("exit", P_CONFIG)
    term.command("exit", P_ENABLE)
    term.command("conf t", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("address-family ipv4", P_AF)
    term.command("end", P_ENABLE)
    term.command("disable", P_VIEW)
    term.command("enable", P_ENABLE)
    term.send("exit\r")
    assert term.wait_exit() == 0


def test_rpki_node_prompt_help_and_completion(term, bgpd):
    """The rpki node (FRR's config-rpki): entered with `rpki`, `?` and TAB know its words,
    exit goes back to config mode; nothing is configured by entering it."""
    term.command("configure terminal", P_CONFIG)
    term.command("rpki", P_RPKI)
    seen = term.describe("rpki ", P_RPKI)
    for kw in ("cache", "polling_period", "retry_interval", "expire_interval", "reset"):
        assert re.search(r"\n  %s +\S" % kw, seen), "%s missing\n%s" % (kw, term.transcript())
    term.kill_line()
    seen = term.describe("rpki cache ", P_RPKI)
    for kw in ("A.B.C.D", "X:X::X:X", "WORD", "tcp", "tls"):
        assert re.search(r"\n  %s +\S" % re.escape(kw), seen), term.transcript()
    term.kill_line()
    term.send("rpki pol\t")
    term.expect("rpki polling_period ")
    term.kill_line()
    term.command("exit", P_CONFIG)
    term.command("rpki", P_RPKI)
    term.command("end", P_ENABLE)
    assert "rpki" not in running_config(bgpd)


def test_hostname_changes_prompt(term, bgpd):
    term.command("configure terminal", P_CONFIG)
    try:
        term.command("hostname edge-7", "edge-7(config)# ")
        term.command("end", "edge-7# ")
    finally:
        term.kill_line()
        r = bgpd.vtysh("-c", "configure terminal", "-c", "hostname " + HOSTNAME, "-c", "end")
        assert r.returncode == 0, r.stdout + r.stderr
    term.command("show version", P_ENABLE)


def test_question_mark_lists_next_tokens(term):
    seen = term.describe("show ip bgp ", P_ENABLE)
    # the list, with help strings; the line comes back as typed, without the `?`
    assert re.search(r"\n  <cr>\n", seen), term.transcript()
    assert re.search(r"\n  summary +Summary of BGP neighbor status\n", seen), term.transcript()
    assert re.search(r"\n  neighbors +\S", seen), term.transcript()
    assert re.search(r"\n  json +JavaScript Object Notation\n", seen), term.transcript()
    assert "?" not in term.text(), term.transcript()
    # typing on completes the line that was kept: no `?` was inserted
    out = term.command("summary", P_ENABLE)
    assert "BGP router identifier 10.0.0.1, local AS number %d" % ASN in out, term.transcript()
    assert "Unknown command" not in out

    # right after a partial word: the words it may become
    seen = term.describe("show ip bgp su", P_ENABLE)
    assert re.search(r"\n  summary +Summary", seen) and "neighbors" not in seen, term.transcript()
    term.kill_line()

    # nothing fits
    seen = term.describe("show bogus ", P_ENABLE)
    assert "% There is no matched command." in seen, term.transcript()
    term.kill_line()


def test_question_mark_in_router_mode_lists_neighbors(term):
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    seen = term.describe("neighbor ", P_ROUTER)
    lines = seen.split("\n")
    i4 = next(i for i, line in enumerate(lines) if line.startswith("  A.B.C.D "))
    i6 = next(i for i, line in enumerate(lines) if line.startswith("  X:X::X:X "))
    # FRR's layout: the configured neighbors on an indented line under their placeholder
    assert lines[i4 + 1].split() == NEIGHBORS4, term.transcript()
    assert lines[i6 + 1].split() == [NEIGHBOR6], term.transcript()
    term.kill_line()
    seen = term.describe("neighbor 10.0.0.2 ", P_ROUTER)
    for kw in ("remote-as", "description", "shutdown", "passive", "timers", "update-source"):
        assert re.search(r"\n  %s +\S" % kw, seen), "%s missing\n%s" % (kw, term.transcript())
    term.kill_line()
    term.command("end", P_ENABLE)


def test_tab_completes_keywords(term):
    term.send("sh\t")
    term.expect("show ")
    term.send("ip b\t")
    term.expect("bgp ")
    term.send("summ\t")
    term.expect("summary ")
    term.send("\r")
    out = term.expect(P_ENABLE)
    assert "BGP router identifier 10.0.0.1" in out, term.transcript()

    # several candidates with nothing in common to add: listed, the line kept
    seen = term.tab_list("show ip bgp ", P_ENABLE)
    for word in ("neighbors", "summary", "json"):
        assert word in seen, "%s missing\n%s" % (word, term.transcript())
    term.kill_line()


def test_tab_completes_configured_neighbors(term, bgpd):
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    # a unique address completes, with a space after it
    term.send("neighbor 2\t")
    term.expect("neighbor %s " % NEIGHBOR6)
    term.kill_line()
    # several: listed
    seen = term.tab_list("neighbor 10.0.0.", P_ROUTER)
    assert seen.split() == NEIGHBORS4, term.transcript()
    term.kill_line()
    # a neighbor configured a moment ago is offered at once
    term.command("neighbor 10.0.0.77 remote-as 77", P_ROUTER)
    try:
        term.send("neighbor 10.0.0.7\t")
        term.expect("neighbor 10.0.0.77 ")
        term.send("desc\t")
        term.expect("description ")
        term.send("added by tab\r")
        term.expect(P_ROUTER)
        assert " neighbor 10.0.0.77 description added by tab\n" in running_config(bgpd)
        # the show side too, through `do`
        term.send("do show ip bgp neighbors 10.0.0.7\t")
        term.expect("neighbors 10.0.0.77 ")
        term.send("\r")
        out = term.expect(P_ROUTER)
        assert "BGP neighbor is 10.0.0.77" in out, term.transcript()
    finally:
        term.kill_line()
        term.command("no neighbor 10.0.0.77", P_ROUTER)
    term.send("neighbor 10.0.0.7\t")
    term.expect_no("10.0.0.77")
    term.kill_line()
    term.command("end", P_ENABLE)


def test_private_session_completes_its_own_neighbors(term, bgpd):
    """In `configure private`, the neighbors offered are those of the session's candidate."""
    term.command("configure private", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("neighbor 10.0.0.88 remote-as 88", P_ROUTER)
    term.command("no neighbor 10.0.0.3", P_ROUTER)
    running = running_config(bgpd)
    assert "10.0.0.88" not in running and " neighbor 10.0.0.3 " in running  # not committed
    term.send("neighbor 10.0.0.8\t")
    term.expect("neighbor 10.0.0.88 ")
    term.kill_line()
    seen = term.describe("neighbor ", P_ROUTER)
    lines = seen.split("\n")
    i4 = next(i for i, line in enumerate(lines) if line.startswith("  A.B.C.D "))
    assert sorted(lines[i4 + 1].split()) == ["10.0.0.2", "10.0.0.88"], term.transcript()
    term.kill_line()
    # another session sees running
    r = bgpd.vtysh("-c", "show ip bgp neighbors ?")
    assert "10.0.0.3" in r.stdout and "10.0.0.88" not in r.stdout, r.stdout
    out = term.command("end", P_ENABLE)
    assert "discarded" in out, term.transcript()
    running = running_config(bgpd)
    assert "10.0.0.88" not in running and " neighbor 10.0.0.3 " in running


def test_abbreviations(term, bgpd):
    out = term.command("sh ip b su", P_ENABLE)
    assert "IPv4 Unicast Summary" in out and "10.0.0.2" in out, term.transcript()
    term.command("conf t", P_CONFIG)
    term.command("ro b %d" % ASN, P_ROUTER)
    try:
        term.command("nei 10.0.0.3 desc abbreviated", P_ROUTER)
        assert " neighbor 10.0.0.3 description abbreviated\n" in running_config(bgpd)
    finally:
        term.command("no nei 10.0.0.3 desc", P_ROUTER)
    assert "abbreviated" not in running_config(bgpd)
    term.command("end", P_ENABLE)
    # too short to say which command: FRR's message, no caret
    out = term.command("e", P_ENABLE)
    assert out.strip() == "% Ambiguous command.", term.transcript()
    out = term.command("show", P_ENABLE)
    assert out.strip() == "% Command incomplete.", term.transcript()


def test_errors_have_a_caret(term):
    out = term.command("show ip bgp foo", P_ENABLE)
    assert "% Unknown command: show ip bgp foo" in out, term.transcript()
    assert caret_col(out, "% Unknown command:") == len("% Unknown command: show ip bgp "), \
        term.transcript()
    out = term.command("shwo version", P_ENABLE)
    assert caret_col(out, "% Unknown command:") == len("% Unknown command: "), term.transcript()

    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    out = term.command("neighbor 10.0.0.2 remote-ax 5", P_ROUTER)
    assert caret_col(out, "% Unknown command:") == len(
        "% Unknown command: neighbor 10.0.0.2 "), term.transcript()
    # A peer-group name may stand where the address goes (WORD), so a bad address is no
    # syntax error: the command says what is wrong with it.
    out = term.command("neighbor 10.0.0.256 remote-as 5", P_ROUTER)
    assert "% Malformed address: 10.0.0.256" in out, term.transcript()
    # the model refuses (a range it checks): a `%` message, the mode unchanged
    out = term.command("neighbor 10.0.0.2 timers 5 1", P_ROUTER)
    assert out.strip().startswith("%"), term.transcript()
    term.command("end", P_ENABLE)


def test_do_from_config_modes(term):
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("address-family ipv4 unicast", P_AF)
    out = term.command("do show ip bgp summary", P_AF)
    assert "BGP router identifier 10.0.0.1" in out, term.transcript()
    out = term.command("do sh run", P_AF)
    assert "router bgp %d" % ASN in out and "network 192.0.2.0/24" in out, term.transcript()
    # `?` after do describes the enable command
    seen = term.describe("do show ip bgp ", P_AF)
    assert "summary" in seen, term.transcript()
    term.kill_line()
    term.command("end", P_ENABLE)


def test_history_recalls_with_up_arrow(bgpd):
    home = tempfile.mkdtemp(prefix="skua-vtysh-home-")
    try:
        t = Term(bgpd, home=home)
        try:
            t.expect(P_ENABLE)
            t.command("show version", P_ENABLE)
            t.command("show ip bgp summary json", P_ENABLE)
            t.send(UP + UP)
            t.expect_line(P_ENABLE + "show version")
            t.send("\r")
            out = t.expect(P_ENABLE)
            assert "skua bgpd" in out, t.transcript()
            t.send("exit\r")
            assert t.wait_exit() == 0
        finally:
            t.close()
        # the history outlives the session ($HOME/.history_skua): exit, then show version
        t = Term(bgpd, home=home)
        try:
            t.expect(P_ENABLE)
            t.send(UP)
            t.expect_line(P_ENABLE + "exit")
            t.send(UP)
            t.expect_line(P_ENABLE + "show version")
            t.kill_line()
            t.send("exit\r")
            assert t.wait_exit() == 0
        finally:
            t.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_ctrl_z_ends_and_ctrl_c_drops_the_line(term, bgpd):
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("address-family ipv4 unicast", P_AF)
    # Ctrl-Z: straight to enable mode; what was typed is dropped, not run
    term.send("network 198.51.100.0/24")
    term.send(CTRL_Z)
    term.expect("^Z")
    term.expect(P_ENABLE)
    assert "198.51.100.0/24" not in running_config(bgpd)
    # Ctrl-C: the line is dropped, the session goes on
    term.send("garbage that is never run")
    term.send(CTRL_C)
    term.expect("^C")
    out = term.command("show version", P_ENABLE)
    assert "skua bgpd" in out and "Unknown command" not in out, term.transcript()
    term.send("exit\r")
    assert term.wait_exit() == 0


def test_eof_ends_the_session(term):
    term.send("\x04")  # Ctrl-D on an empty line
    assert term.wait_exit() == 0


# ---- non-interactive --------------------------------------------------------------------------


def test_c_chain_in_one_session(bgpd):
    r = bgpd.vtysh("-c", "configure terminal", "-c", "router bgp %d" % ASN,
                   "-c", "neighbor 10.0.0.50 remote-as 50", "-c", "end",
                   "-c", "show running-config")
    try:
        assert r.returncode == 0, r.stdout + r.stderr
        assert " neighbor 10.0.0.50 remote-as 50\n" in r.stdout
        assert r.stderr == ""
    finally:
        bgpd.vtysh("-c", "conf t", "-c", "router bgp %d" % ASN, "-c", "no neighbor 10.0.0.50")
    assert "10.0.0.50" not in running_config(bgpd)


def test_c_stops_at_the_first_failure(bgpd):
    r = bgpd.vtysh("-c", "show ip bgp foo", "-c", "show version")
    assert r.returncode == 1
    assert r.stdout == ("% Unknown command: show ip bgp foo\n"
                        + " " * len("% Unknown command: show ip bgp ") + "^\n")
    # a refused configuration fails too, and nothing after it runs
    r = bgpd.vtysh("-c", "conf t", "-c", "router bgp %d" % ASN,
                   "-c", "neighbor 10.0.0.2 timers 5 1", "-c", "neighbor 10.0.0.2 passive")
    assert r.returncode == 1, r.stdout
    assert r.stdout.startswith("%"), r.stdout
    assert "neighbor 10.0.0.2 passive" not in running_config(bgpd)
    # incomplete and ambiguous are failures
    assert bgpd.vtysh("-c", "show").returncode == 1
    assert bgpd.vtysh("-c", "e").returncode == 1


def test_c_question_mark_and_terminal_length(bgpd):
    r = bgpd.vtysh("-c", "show ip bgp ?")
    assert r.returncode == 0
    assert re.search(r"^  summary +Summary of BGP neighbor status$", r.stdout, re.M)
    # FRR scripts start with this; vtysh never pages, so it is accepted and does nothing
    r = bgpd.vtysh("-c", "terminal length 0", "-c", "show version")
    assert r.returncode == 0 and r.stdout.startswith("skua bgpd "), r.stdout + r.stderr


def test_echo(bgpd):
    r = bgpd.vtysh("-E", "-c", "conf t", "-c", "router bgp %d" % ASN, "-c", "end",
                   "-c", "show version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("%s# conf t\n%s(config)# router bgp %d\n"
                               "%s(config-router)# end\n%s# show version\nskua bgpd "
                               % (HOSTNAME, HOSTNAME, ASN, HOSTNAME, HOSTNAME)), r.stdout


def test_pipe(bgpd):
    r = bgpd.vtysh(stdin="show version\n! a comment\n\nshow ip bgp summary json\n")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("skua bgpd ")
    # every line runs; one failure makes the exit status 1
    r = bgpd.vtysh(stdin="show bogus\nshow version\n")
    assert r.returncode == 1
    assert "% Unknown command: show bogus\n" in r.stdout and "skua bgpd " in r.stdout
    r = bgpd.vtysh(stdin="conf t\nrouter bgp %d\n neighbor 10.0.0.2 ebgp-multihop 2\n"
                         " neighbor 10.0.0.2 ttl-security hops 2\nend\n" % ASN)
    try:
        assert r.returncode == 1, r.stdout
        assert "%" in r.stdout
    finally:
        bgpd.vtysh("-c", "conf t", "-c", "router bgp %d" % ASN,
                   "-c", "no neighbor 10.0.0.2 ebgp-multihop")


def test_file(bgpd):
    path = os.path.join(bgpd.workdir, "part.conf")
    with open(path, "w") as f:
        f.write("router bgp %d\n neighbor 10.0.0.60 remote-as 60\n"
                " neighbor 10.0.0.60 remote-az 60\n" % ASN)
    try:
        r = bgpd.vtysh("-f", path)
        assert r.returncode == 1
        prefix = "%s:3: " % path
        assert r.stderr == (prefix + "% Unknown command: neighbor 10.0.0.60 remote-az 60\n"
                            + " " * len(prefix + "% Unknown command: neighbor 10.0.0.60 ")
                            + "^\n"), r.stderr
        # the good lines were applied; vtysh left configuration mode behind it
        assert " neighbor 10.0.0.60 remote-as 60\n" in running_config(bgpd)
        with open(path, "w") as f:
            f.write("router bgp %d\n no neighbor 10.0.0.60\n" % ASN)
        r = bgpd.vtysh("-f", path)
        assert r.returncode == 0 and r.stderr == "", r.stderr
    finally:
        os.unlink(path)
    assert "10.0.0.60" not in running_config(bgpd)


def test_show_memory(bgpd):
    r = bgpd.vtysh("-c", "show memory")
    assert r.returncode == 0
    lines = r.stdout.split("\n")
    assert lines[0] == "Memory statistics for bgpd:"
    assert lines[1] == "System allocator statistics:"
    assert lines[2].startswith("  Total heap allocated:  ")
    assert "--- qmem bgpd ---" in lines
    peers = [ln for ln in lines if ln.startswith("BGP peer ") and ":" in ln]
    assert peers and int(peers[0].split(":")[1].split()[0]) >= 3, r.stdout

    r = bgpd.vtysh("-c", "show memory json")
    assert r.returncode == 0
    mem = json.loads(r.stdout)
    assert mem["daemon"] == "bgpd"
    assert "totalHeapAllocated" in mem["systemAllocator"]
    types = {t["name"]: t for t in mem["types"]}
    assert types["BGP peer"]["current"] >= 3
    assert all(t["current"] > 0 and t["bytes"] > 0 and t["total"] >= t["current"]
               for t in mem["types"])
    assert mem["totalCurrent"] == sum(t["current"] for t in mem["types"])


def test_show_logging(bgpd):
    r = bgpd.vtysh("-c", "show logging")
    assert r.returncode == 0
    lines = r.stdout.split("\n")
    assert lines[0] == "Logging configuration for bgpd:"
    assert lines[1] == "Syslog logging: disabled"
    assert lines[2].startswith("Stdout logging: level ")
    assert lines[3] == "File logging: disabled"
    assert "Recent log messages (oldest first):" in lines
    # bgpd's start-up message is in the ring
    assert re.search(r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{3} BGP: .*started", r.stdout, re.M), \
        r.stdout

    r = bgpd.vtysh("-c", "show logging json")
    assert r.returncode == 0
    log = json.loads(r.stdout)
    assert log["daemon"] == "bgpd"
    assert log["syslog"] == {"enabled": False}
    assert log["file"] == {"enabled": False}
    assert log["stdout"]["enabled"] is True
    assert any("started" in m for m in log["recentMessages"])


# ---- FRR's command-line habits (issue 14) -------------------------------------------------------

def run_vtysh_alone(*args):
    """vtysh with exactly these arguments (no --vty-socket added)."""
    return subprocess.run([SkuaBgpd.vtysh_path()] + list(args), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=EXPECT_TIMEOUT, check=False)


def test_version_option(bgpd):
    """`vtysh --version` prints skua's version, the one bgpd reports, without connecting."""
    r = run_vtysh_alone("--version")
    assert r.returncode == 0, r.stderr
    m = re.fullmatch(r"vtysh \(skua\) (\S+)\n", r.stdout)
    assert m, r.stdout
    b = subprocess.run([SkuaBgpd.bgpd_path(), "--version"], stdout=subprocess.PIPE, text=True,
                       timeout=EXPECT_TIMEOUT, check=False)
    assert b.stdout == "bgpd (skua) %s\n" % m.group(1)


def test_frr_vty_socket_spelling(bgpd):
    """FRR's `--vty_socket` works as `--vty-socket` (bgpd takes both spellings too)."""
    r = run_vtysh_alone("--vty_socket", bgpd.sock, "-c", "show running-config")
    assert r.returncode == 0, r.stderr
    assert "hostname %s\n" % HOSTNAME in r.stdout


def test_vty_socket_directory_named(bgpd):
    """FRR's --vty_socket takes the sockets' directory; given one, vtysh says what is wrong
    and which path to give instead, rather than a bare "Connection refused"."""
    directory = os.path.dirname(bgpd.sock)
    for spelling in ("--vty_socket", "--vty-socket"):
        r = run_vtysh_alone(spelling, directory, "-c", "show version")
        assert r.returncode == 1
        assert r.stderr == (
            "vtysh: %s is a directory: --vty-socket (or --vty_socket) names bgpd's socket "
            "itself, not its directory as in FRR; try --vty-socket %s/bgpd.vty\n"
            % (directory, directory)), r.stderr


# ---- output filters: show ... | include|exclude|begin|count REGEX (issue 14) --------------------

def test_filter_include_exclude_on_running_config(bgpd):
    full = running_config(bgpd).splitlines()
    r = bgpd.vtysh("-c", "show running-config | include ^ neighbor 10\\.0\\.0\\.[23] ")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [ln for ln in full
                                     if re.search(r"^ neighbor 10\.0\.0\.[23] ", ln)]
    assert len(r.stdout.splitlines()) >= 2
    r = bgpd.vtysh("-c", "sh run | ex neighbor")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [ln for ln in full if "neighbor" not in ln]


def test_filter_begin_and_count(bgpd):
    full = running_config(bgpd).splitlines()
    r = bgpd.vtysh("-c", "show running-config | begin ^router bgp")
    assert r.returncode == 0, r.stderr
    start = next(i for i, ln in enumerate(full) if ln.startswith("router bgp"))
    assert r.stdout.splitlines() == full[start:]
    r = bgpd.vtysh("-c", "show running-config | count remote-as")
    assert r.stdout == "Number of lines which match regexp = %d\n" % sum(
        "remote-as" in ln for ln in full)


def test_filter_on_other_show_commands(bgpd):
    """Any show command, `do show` from configuration mode included."""
    r = bgpd.vtysh("-c", "show ip bgp summary | include ^10\\.0\\.0\\.3 ")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("10.0.0.3 "), r.stdout
    r = bgpd.vtysh("-c", "configure terminal", "-c", "do show running-config | include ^hostname")
    assert r.stdout == "hostname %s\n" % HOSTNAME, r.stdout


def test_filter_errors_named(bgpd):
    r = bgpd.vtysh("-c", "show running-config | grep x")
    assert r.returncode == 1
    assert r.stdout.startswith("% Unknown output filter 'grep' after '|'"), r.stdout
    r = bgpd.vtysh("-c", "show running-config | include (")
    assert r.returncode == 1
    assert r.stdout.startswith("% Bad regular expression '(': "), r.stdout
    r = bgpd.vtysh("-c", "show running-config | include")
    assert r.returncode == 1
    assert r.stdout == "% '| include' needs a regular expression after it\n", r.stdout
    # a typo before the pipe still gets its caret, under the right word
    r = bgpd.vtysh("-c", "show running-confg | include x")
    assert r.returncode == 1
    assert r.stdout == ("% Unknown command: show running-confg\n"
                        + " " * len("% Unknown command: show ") + "^\n"), r.stdout


def test_pipe_in_a_value_is_not_a_filter(bgpd):
    """Outside show commands " | " is text: a description keeps it."""
    cmd = ["-c", "configure terminal", "-c", "router bgp %d" % ASN]
    try:
        r = bgpd.vtysh(*cmd, "-c", "neighbor 10.0.0.3 description uplink | backup")
        assert r.returncode == 0, r.stdout + r.stderr
        assert " neighbor 10.0.0.3 description uplink | backup\n" in running_config(bgpd)
    finally:
        bgpd.vtysh(*cmd, "-c", "no neighbor 10.0.0.3 description")


def test_filter_interactive(term, bgpd):
    out = term.command("show running-config | include ^hostname", P_ENABLE)
    assert out.strip() == "hostname %s" % HOSTNAME, term.transcript()


# ---- peer-group names in `?` and TAB after `neighbor` (issue 14) --------------------------------

def test_peer_groups_in_question_mark_and_tab(term, bgpd):
    term.command("configure terminal", P_CONFIG)
    term.command("router bgp %d" % ASN, P_ROUTER)
    term.command("neighbor TRANSIT peer-group", P_ROUTER)
    try:
        seen = term.describe("neighbor ", P_ROUTER)
        lines = seen.split("\n")
        iw = next(i for i, line in enumerate(lines) if line.startswith("  WORD "))
        i4 = next(i for i, line in enumerate(lines) if line.startswith("  A.B.C.D "))
        # the group under WORD, and only there; the addresses only under A.B.C.D
        assert lines[iw + 1].split() == ["TRANSIT"], term.transcript()
        assert lines[i4 + 1].split() == NEIGHBORS4, term.transcript()
        term.kill_line()
        # after `peer-group`, too (FRR lists the groups there)
        seen = term.describe("neighbor 10.0.0.3 peer-group ", P_ROUTER)
        lines = seen.split("\n")
        iw = next(i for i, line in enumerate(lines) if line.startswith("  WORD "))
        assert lines[iw + 1].split() == ["TRANSIT"], term.transcript()
        term.kill_line()
        # TAB completes the name, and the completed line configures the group
        term.send("neighbor TR\t")
        term.expect("neighbor TRANSIT ")
        term.send("remote-as 65010\r")
        term.expect(P_ROUTER)
        term.send("neighbor 10.0.0.3 peer-group T\t")
        term.expect("peer-group TRANSIT ")
        term.kill_line()
        assert " neighbor TRANSIT remote-as 65010\n" in running_config(bgpd)
    finally:
        term.kill_line()
        term.command("no neighbor TRANSIT peer-group", P_ROUTER)
    term.command("end", P_ENABLE)
    assert "TRANSIT" not in running_config(bgpd)


# ---- FRR statements skua lacks say so; typos keep the caret (issue 14) --------------------------

def test_unsupported_frr_statement_named(bgpd):
    cmd = ["-c", "configure terminal", "-c", "router bgp %d" % ASN]
    r = bgpd.vtysh(*cmd, "-c", "neighbor 10.0.0.2 bfd")
    assert r.returncode == 1
    assert r.stdout == ("% not supported by skua: neighbor PEER bfd (BFD: FRR's bfdd) (see "
                        "doc/northbound.md, \"FRR statements skua lacks\")\n"), r.stdout
    r = bgpd.vtysh(*cmd, "-c", "neighbor 10.0.0.2 bfdd")
    assert r.returncode == 1
    assert r.stdout == ("% Unknown command: neighbor 10.0.0.2 bfdd\n"
                        + " " * len("% Unknown command: neighbor 10.0.0.2 ") + "^\n"), r.stdout
    assert "bfd" not in running_config(bgpd)


# ---- log timestamp precision N (issue 14) ----------------------------------------------------

def test_log_timestamp_precision(bgpd):
    conf = ["-c", "configure terminal"]
    try:
        r = bgpd.vtysh(*conf, "-c", "log timestamp precision 6", "-c", "line vty", "-c", "end")
        assert r.returncode == 0, r.stdout + r.stderr
        assert "\nlog timestamp precision 6\n" in running_config(bgpd)
        out = bgpd.vtysh("-c", "show logging").stdout
        assert "Timestamp precision: 6\n" in out, out
        # `line vty` logged its note after the change: microseconds
        note = [ln for ln in out.splitlines() if "`line vty` ignored" in ln][-1]
        assert re.match(r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6} ", note), note
        r = bgpd.vtysh(*conf, "-c", "log timestamp precision 7")
        assert r.returncode == 1 and "% Unknown command" in r.stdout, r.stdout
    finally:
        bgpd.vtysh(*conf, "-c", "no log timestamp precision")
    assert "timestamp precision" not in running_config(bgpd)
    assert "Timestamp precision: 3\n" in bgpd.vtysh("-c", "show logging").stdout
