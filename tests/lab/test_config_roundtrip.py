# SPDX-License-Identifier: ISC
"""Round trip of every skua configuration in the tree (issue 4, must-show 2).

For each configuration file skua is meant to load:
  - tests/unit/conf/*.conf and *.json except the bad-* samples (the unit suite's good ones,
    base.conf and the reload samples),
  - the bgpd.conf of every router of kind "skua" in tests/lab/scenarios/*/topology.toml, and
    the configurations of router a in tests/lab/scenarios/frr_compat/cases/ (FRR's and skua's),
  - every configuration block in doc/*.md (a fenced block that starts with `hostname`,
    `router bgp`, or a `! .../bgpd.conf` comment),
it checks, with the real bgpd and vtysh:
  1. `bgpd -C -f FILE` accepts the file;
  2. bgpd started on it prints `show running-config` (text T1) and `show running-config json`
     (J1);
  3. T1 written to a file passes `bgpd -C`, and a second bgpd started on it prints T1 and J1
     again, byte for byte;
  4. J1 written to a .json file starts a third bgpd that prints T1 and J1 again.

No network namespace is needed: every bgpd listens on a free port on 127.0.0.1 (`-p`, `-l`)
and serves its vty on a socket in a temporary directory. Run as root, each bgpd is moreover
started in a private network namespace of its own (`unshare --net`, only `lo` up), so the
neighbors of the sample files (10.0.0.x, documentation addresses) are unreachable and no SYN
leaves the machine; the namespace goes away with the process. Processes are stopped by PID
(SIGTERM, SIGKILL after 5 s); bgpd must exit 0 on SIGTERM, and a sanitizer report in its log
fails the test. Every wait is bounded. A failure shows a unified diff of the texts or the JSON
paths that differ, and the end of each bgpd's log; the temporary directory is then kept.

Run: SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_config_roundtrip.py
"""

import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from skualab import pki
from skualab.daemons import SANITIZER_RE, DaemonError, Process, SkuaBgpd, tail, wait_for
from skualab.runuser import give_to_run_user
from skualab.standalone import free_port, require_binaries
from skualab.topology import Topology

pytestmark = pytest.mark.timeout(120)

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
UNIT_CONF = os.path.join(TOP, "tests", "unit", "conf")
SCENARIOS = os.path.join(HERE, "scenarios")
DOC = os.path.join(TOP, "doc")

# The unit samples' log file (tests/unit/check_config.c): make check, run as root, may leave it
# owned by root, where bgpd, run as the user skua, cannot write. Each run logs in its workdir.
UNIT_LOG = "/tmp/skua-unit-check-config.log"
READY_TIMEOUT = 20  # seconds for a bgpd to answer on its vty
RUN_TIMEOUT = 30  # seconds for one vtysh or bgpd -C


# ---- the configurations ------------------------------------------------------------------------

RUNDIR_TOKEN = "/tmp/skua-roundtrip-rundir"
# The RPKI scenarios name the lab's test PKI next to the run directories (skualab/pki.py).
PKI_TOKEN = RUNDIR_TOKEN + "/../pki/"


def scenario_text(path, scenario_dir, rundir_token=RUNDIR_TOKEN):
    """A scenario config with the lab's @TOKENS@ replaced as the lab replaces them."""
    with open(path) as f:
        text = f.read()
    return (text.replace("@RUNDIR@", rundir_token).replace("@SCENARIO@", scenario_dir)
            .replace("@LIBDIR@", os.path.join(HERE, "skualab")))


_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def doc_blocks():
    """(name, text) of the bgpd configuration blocks in doc/*.md."""
    out = []
    if not os.path.isdir(DOC):
        return out
    for name in sorted(os.listdir(DOC)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(DOC, name)) as f:
            md = f.read()
        for i, m in enumerate(_FENCE.finditer(md)):
            body = m.group(1)
            first = next((ln.strip() for ln in body.splitlines() if ln.strip()), "")
            if (first.startswith("hostname ") or first.startswith("router bgp ") or
                    (first.startswith("!") and first.endswith("bgpd.conf"))):
                line = md.count("\n", 0, m.start()) + 1
                out.append(("doc/%s:%d" % (name, line), body))
    return out


def configs():
    """[(id, path or None, text or None, suffix)]: a file to load as it is, or a text."""
    out = []
    for name in sorted(os.listdir(UNIT_CONF)):
        if name.startswith("bad-") or not (name.endswith(".conf") or name.endswith(".json")):
            continue
        out.append(("unit/" + name, os.path.join(UNIT_CONF, name), None, None))
    for scen in sorted(os.listdir(SCENARIOS)):
        sdir = os.path.join(SCENARIOS, scen)
        if not os.path.exists(os.path.join(sdir, "topology.toml")):
            continue
        for r in Topology(sdir).routers.values():
            path = os.path.join(r.config_dir, "bgpd.conf")
            if r.kind == "skua" and os.path.exists(path):
                out.append(("lab/%s/%s" % (scen, r.name), None, scenario_text(path, sdir),
                            ".conf"))
    cases = os.path.join(SCENARIOS, "frr_compat", "cases")
    if os.path.isdir(cases):
        for case in sorted(os.listdir(cases)):
            path = os.path.join(cases, case, "a.conf")
            if os.path.exists(path):
                out.append(("lab/frr_compat/cases/%s/a" % case, path, None, None))
    for name, text in doc_blocks():
        out.append((name, None, text, ".conf"))
    return out


CONFIGS = configs()


# ---- bgpd and vtysh -----------------------------------------------------------------------------

def isolated():
    return os.geteuid() == 0 and shutil.which("unshare") is not None


class Bgpd:
    """One bgpd on one file, stopped by PID."""

    def __init__(self, workdir, label, conf):
        self.sock = os.path.join(workdir, label + ".vty")
        self.log = os.path.join(workdir, label + ".log")
        self.conf = conf
        argv = [SkuaBgpd.bgpd_path(), "-f", conf, "--vty-socket", self.sock,
                "-p", str(free_port()), "-l", "127.0.0.1",
                "-i", os.path.join(workdir, label + ".pid")]
        if isolated():
            # A private network namespace with lo up; `exec` keeps the PID bgpd's.
            argv = ["unshare", "--net", "--", "sh", "-c",
                    'ip link set lo up && exec "$0" "$@"'] + argv
        self.proc = Process("bgpd-" + label, argv, self.log)
        wait_for("bgpd on %s answering on %s" % (conf, self.sock), self.ready, READY_TIMEOUT,
                 [self.proc])

    def vtysh(self, cmd):
        p = subprocess.run([SkuaBgpd.vtysh_path(), "--vty-socket", self.sock, "-c", cmd],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=RUN_TIMEOUT, check=False)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def ready(self):
        return os.path.exists(self.sock) and self.vtysh("show version")[0] == 0

    def show(self, cmd):
        rc, out, err = self.vtysh(cmd)
        assert rc == 0, "vtysh -c %r failed (exit %d) on bgpd of %s:\n%s%s\n--- log:\n%s" % (
            cmd, rc, self.conf, out, err, tail(self.log))
        return out

    def stop(self):
        """Stop; return why this bgpd is bad (exit status, sanitizer), or None."""
        self.proc.stop()
        problems = []
        rc = self.proc.returncode()
        if rc != 0:
            problems.append("bgpd on %s exited with status %s on SIGTERM" % (self.conf, rc))
        with open(self.log, errors="replace") as f:
            problems += [ln.rstrip() for ln in f if SANITIZER_RE.search(ln)]
        if problems:
            return "\n".join(problems) + "\n--- log:\n" + tail(self.log, 60)
        return None


def check_file(path):
    p = subprocess.run([SkuaBgpd.bgpd_path(), "-C", "-f", path], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT,
                       check=False)
    return p.returncode, p.stdout.decode(errors="replace")


def flat(doc, path=""):
    out = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.update(flat(v, "%s.%s" % (path, k) if path else k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.update(flat(v, "%s[%d]" % (path, i)))
    else:
        out[path] = doc
    return out


def compare(what, first, then, first_json, then_json):
    """None, or what differs between two printouts, readable."""
    msgs = []
    if first != then:
        msgs.append("%s: show running-config differs:\n%s" % (what, "\n".join(
            difflib.unified_diff(first.splitlines(), then.splitlines(), "first", "then",
                                 lineterm=""))))
    if first_json != then_json:
        try:
            a, b = flat(json.loads(first_json)), flat(json.loads(then_json))
            lines = ["  %s: %s -> %s" % (k, json.dumps(a.get(k, "<absent>")),
                                         json.dumps(b.get(k, "<absent>")))
                     for k in sorted(set(a) | set(b)) if a.get(k, "<absent>") !=
                     b.get(k, "<absent>")]
            detail = "\n".join(lines) or "(same values, different text:)\n" + "\n".join(
                difflib.unified_diff(first_json.splitlines(), then_json.splitlines(),
                                     "first", "then", lineterm=""))
        except ValueError as e:
            detail = "not JSON (%s):\n%s" % (e, then_json[:2000])
        msgs.append("%s: show running-config json differs:\n%s" % (what, detail))
    return "\n".join(msgs) or None


# ---- the test ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def binaries():
    require_binaries()


def test_every_kind_of_config_found():
    """The collection itself: nothing silently missing."""
    ids = [c[0] for c in CONFIGS]
    for must in ("unit/good-full.conf", "unit/good-json-full.json", "unit/good-frr.conf",
                 "lab/skua_pair/s1", "lab/frr_compat/a", "lab/frr_compat/cases/password/a"):
        assert must in ids, "%s not among the round-trip configs: %s" % (must, ids)
    assert any(i.startswith("doc/") for i in ids), "no configuration found in doc/*.md"


@pytest.mark.parametrize("cid,path,text,suffix", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_roundtrip(binaries, cid, path, text, suffix):
    workdir = tempfile.mkdtemp(prefix="skua-rt-")  # short: UNIX socket paths <= 108 bytes
    give_to_run_user(workdir)  # bgpd drops root for the user skua, and writes here
    running = []
    ok = False

    def start(label, conf):
        d = Bgpd(workdir, label, conf)
        running.append(d)
        return d

    def write(name, content):
        p = os.path.join(workdir, name)
        with open(p, "w") as f:
            f.write(content)
        return p

    try:
        if path is not None and cid.startswith("unit/"):
            with open(path) as f:
                text = f.read()
            path, suffix = None, os.path.splitext(path)[1]
        if text is not None and PKI_TOKEN in text:
            # bgpd checks that a ca-file, client-cert and client-key are readable PEM.
            text = text.replace(PKI_TOKEN, pki.make_pki(os.path.join(workdir, "pki")) + "/")
        if path is None:
            path = write("orig" + suffix, text.replace(UNIT_LOG,
                                                       os.path.join(workdir, "unit.log")))
        rc, out = check_file(path)
        assert rc == 0, "bgpd -C refuses %s (%s):\n%s" % (cid, path, out)

        try:
            first = start("orig", path)
        except DaemonError as e:
            # bgpd refuses to run a password or ttl-security it cannot enforce; without root
            # it cannot attach the listener's socket filter (CAP_NET_ADMIN).
            if os.geteuid() != 0 and "the kernel cannot enforce it" in str(e):
                why = ("%s: bgpd refuses its password/ttl-security without root (the kernel "
                       "check needs CAP_NET_ADMIN); run the test as root" % cid)
                if os.environ.get("SKUALAB_STRICT") == "1":
                    pytest.fail("SKUALAB_STRICT=1 and " + why, pytrace=False)
                ok = True
                pytest.skip(why)
            raise
        t1 = first.show("show running-config")
        j1 = first.show("show running-config json")
        json.loads(j1)  # valid JSON, or the test says so here

        text_file = write("printed.conf", t1)
        rc, out = check_file(text_file)
        assert rc == 0, ("bgpd -C refuses what bgpd printed for %s:\n%s\n--- printed:\n%s"
                         % (cid, out, t1))
        second = start("printed", text_file)
        diff = compare("%s, loaded from its own show running-config" % cid, t1,
                       second.show("show running-config"), j1,
                       second.show("show running-config json"))
        assert diff is None, diff

        third = start("json", write("printed.json", j1))
        diff = compare("%s, loaded from its own show running-config json" % cid, t1,
                       third.show("show running-config"), j1,
                       third.show("show running-config json"))
        assert diff is None, diff
        ok = True
    finally:
        problems = [p for p in (d.stop() for d in running) if p]
        if ok and not problems:
            shutil.rmtree(workdir, ignore_errors=True)
    assert not problems, "\n\n".join(problems) + "\n(files kept in %s)" % workdir
