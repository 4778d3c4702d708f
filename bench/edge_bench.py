#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Edge scenarios of issue 15: skua against BIRD 2 and FRR 8.4 (GoBGP on request), one
invocation, ratios to BIRD.

Every scenario feeds an internet-shaped table (bgp_blaster --shape internet: today's prefix
lengths, 2-3 prefixes per attribute set, AS paths of mean 4.5, 0-10 communities) through the
device under test (DUT) to a collector, over eBGP:

    feeder   AS 65001  ns <tag>-inj   192.0.2.1     2001:db8:1::1 --+
    feeder 2 AS 65003  ns <tag>-inj2  203.0.113.1   2001:db8:3::1 --+-- DUT AS 65000, ns <tag>-dut
    collector AS 65002 ns <tag>-sink  198.51.100.1  2001:db8:2::1 --+   (.2 / ::2 on each link)
    watcher  AS 65004  ns <tag>-sink  198.51.100.3  2001:db8:2::3 --+

Scenarios (--scenarios, default all):
  v4          IPv4 table (1,000,000): convergence, CPU, peak RSS; then the feeder withdraws
              everything (explicit withdrawals, SIGUSR1): time from its first withdrawal to
              the collector holding 0, the DUT's CPU meanwhile, its VmRSS afterwards against
              the empty daemon's before the first session; then the table again and the
              feeder closes its session: time from the close to the collector holding 0.
  v6          the same with an IPv6 table (200,000), sessions over IPv6.
  two-feeders the IPv4 table from the feeder, then the same prefixes from feeder 2 with one AS
              more in every path (so it loses every prefix: nothing to re-send): the second
              feed's time (until the DUT reports them all received, polled through its shell)
              and CPU against the first's, and what the collector received meanwhile (should
              be nothing); then the first feeder closes its session and every prefix fails
              over to feeder 2: the time until the collector has received every new path.
  route-map   the IPv4 transfer with an inbound route-map on the feeder (a prefix-list match
              and a community set; BIRD: the same as an import filter); its ratio to the
              unfiltered transfer of the v4 scenario when both ran (time and CPU).
Liveness, in every scenario: the watcher holds a session with hold time 3 s (the DUT sends it
nothing) and reports at the end whether its hold timer expired or it received a NOTIFICATION;
the DUT's shell (skua's vtysh "show bgp summary", FRR's vtysh, BIRD's birdc "show protocols")
is run every 0.5 s and the longest answer is reported (process start-up included).

Run as root with /usr/bin/python3; see bench/README.md. Only the namespaces and processes this
script creates are touched; all of them are removed on exit, error or signal.
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

import benchlib
from benchlib import BenchError, CLEAN, log

DUT_AS, INJ_AS, SINK_AS, INJ2_AS, WATCH_AS = 65000, 65001, 65002, 65003, 65004
ADDR = {  # peer: (IPv4, the DUT's IPv4 on its link, IPv6, the DUT's IPv6)
    "inj": ("192.0.2.1", "192.0.2.2", "2001:db8:1::1", "2001:db8:1::2"),
    "sink": ("198.51.100.1", "198.51.100.2", "2001:db8:2::1", "2001:db8:2::2"),
    "inj2": ("203.0.113.1", "203.0.113.2", "2001:db8:3::1", "2001:db8:3::2"),
    "watch": ("198.51.100.3", "198.51.100.2", "2001:db8:2::3", "2001:db8:2::2"),
}
PEER_AS = {"inj": INJ_AS, "sink": SINK_AS, "inj2": INJ2_AS, "watch": WATCH_AS}
ROUTER_ID = "192.0.2.2"
SCENARIOS = ("v4", "v6", "two-feeders", "route-map")
# The phases --profile can record (each a key of the results).
PHASES = ("transfer", "withdraw", "transfer_again", "session_drop", "second_feed", "failover")
# The DUT sends these peers nothing: the watcher tests liveness, not transfer; feeder 2's
# phase measures the best-path competition, not a table sent to a new peer (the first feeder
# is sent nothing either: it is the source of every route).
SENT_NOTHING = ("watch", "inj2")
# The second feeder's paths carry this AS in front of the shape's, so that they are one AS
# longer than the first feeder's (same prefixes, same shape) and lose every best-path contest.
LONGER_PATH_AS = "64999"


def peer_addr(peer, family):
    a = ADDR[peer]
    return a[0] if family == 4 else a[2]


def dut_addr(peer, family):
    a = ADDR[peer]
    return a[1] if family == 4 else a[3]


# ---------------------------------------------------------------------------------------------
# DUT configurations: the same policy in each daemon's language.
# ---------------------------------------------------------------------------------------------

# The inbound route-map: a prefix-list that denies what a full table must not hold (longer
# than /24 or /48, loopback, multicast and reserved) and permits the rest, then a community.
# Nothing of the shaped table is denied: the filtered run delivers the same table.
RMAP_PLIST = {4: ["deny 0.0.0.0/0 ge 25", "deny 127.0.0.0/8 le 32", "deny 224.0.0.0/3 le 32",
                  "permit 0.0.0.0/0 le 24"],
              6: ["deny ::/0 ge 49", "deny ::1/128", "deny ff00::/8 le 128",
                  "permit ::/0 le 48"]}
BIRD_RMAP_FILTER = {
    4: "if net ~ [ 0.0.0.0/0{25,32}, 127.0.0.0/8+, 224.0.0.0/3+ ] then reject;",
    6: "if net ~ [ ::/0{49,128}, ::1/128, ff00::/8+ ] then reject;"}


def frr_style_config(family, rmap, frr):
    """skua's and FRR's bgpd.conf: the four peers over `family`, SENT_NOTHING sent nothing,
    with rmap the inbound route-map on the feeder."""
    af = "ipv4" if family == 4 else "ipv6"
    ip = "ip" if family == 4 else "ipv6"
    text = "hostname dut\n"
    if rmap:
        text += "".join("%s prefix-list EDGE-IN seq %d %s\n" % (ip, 5 * (k + 1), e)
                        for k, e in enumerate(RMAP_PLIST[family]))
        text += ("route-map EDGE-IN permit 10\n match %s address prefix-list EDGE-IN\n"
                 " set community 65000:100 additive\nexit\n" % ip)
    text += "route-map NOTHING deny 10\nexit\n"
    text += "router bgp %d\n bgp router-id %s\n no bgp ebgp-requires-policy\n" % (
        DUT_AS, ROUTER_ID)
    if frr:
        text += " no bgp network import-check\n"
    peers = ("inj", "inj2", "sink", "watch")
    text += "".join(" neighbor %s remote-as %d\n" % (peer_addr(p, family), PEER_AS[p])
                    for p in peers)
    text += " address-family %s unicast\n" % af
    for p in peers:
        text += "  neighbor %s activate\n" % peer_addr(p, family)
    for p in SENT_NOTHING:
        text += "  neighbor %s route-map NOTHING out\n" % peer_addr(p, family)
    if rmap:
        text += "  neighbor %s route-map EDGE-IN in\n" % peer_addr("inj", family)
    return text + " exit-address-family\nexit\n"


def bird_config(family, rmap):
    ch = "ipv4" if family == 4 else "ipv6"
    text = "router id %s;\nlog stderr { warning, error, fatal, bug };\nprotocol device { }\n" % (
        ROUTER_ID)
    if rmap:
        text += "filter edge_in {\n  %s\n  bgp_community.add((65000,100));\n  accept;\n}\n" % (
            BIRD_RMAP_FILTER[family])
    for p in ("inj", "inj2", "sink", "watch"):
        imp = "filter edge_in" if rmap and p == "inj" else "all"
        exp = "none" if p in SENT_NOTHING else "all"
        text += ("protocol bgp %s {\n  local %s as %d;\n  neighbor %s as %d;\n"
                 "  %s { import %s; export %s; };\n}\n"
                 % (p, dut_addr(p, family), DUT_AS, peer_addr(p, family), PEER_AS[p], ch, imp,
                    exp))
    return text


class Skua(benchlib.SkuaBinary):
    def start(self, ns, family, rmap):
        # --no-fib: BGP work only, as FRR without zebra and BIRD without a kernel protocol.
        conf = self.write("bgpd.conf", frr_style_config(family, rmap, False))
        argv = self.bgpd_argv(conf, "--no-fib")
        self.sock = self.vty
        return self.spawn(argv, ns, "dut")

    def vtysh(self):
        """The vtysh built with this bgpd, or the build directory's (a --skua-baseline copied
        out of its build has none beside it)."""
        beside = os.path.join(os.path.dirname(os.path.dirname(self.bgpd())), "vtysh", "vtysh")
        if os.access(beside, os.X_OK):
            return beside
        return os.path.join(self.args.build_dir, "vtysh", "vtysh")

    def shell_argv(self):
        return [self.vtysh(), "--vty-socket", self.sock, "-c", "show bgp summary"]

    def memory_argv(self):
        """The daemon's own account of its memory, kept with the logs (--keep-logs)."""
        return [self.vtysh(), "--vty-socket", self.sock, "-c", "show memory"]

    def event_cpu_argv(self):
        """The event loop's accounting (`show event cpu json`: a build before 2026-12-07 has
        none): which callback ran longest, the first suspect for a slow shell answer."""
        return [self.vtysh(), "--vty-socket", self.sock, "-c", "show event cpu json"]

    def received(self, peer, family):
        return summary_pfx_rcd([self.vtysh(), "--vty-socket", self.sock], peer, family)


class Frr(benchlib.FrrBinary):
    def start(self, ns, family, rmap):
        conf = self.write("bgpd.conf", frr_style_config(family, rmap, True))
        return self.spawn([self.binaries()[0], "-f", conf, "-Z", "-S", "-i",
                           os.path.join(self.rundir, "bgpd.pid"), "--vty_socket", self.rundir,
                           "-P", "0", "--log", "stdout", "--log-level", "warnings"], ns, "dut")

    def vtysh(self):
        return [shutil.which("vtysh") or "/usr/bin/vtysh", "--vty_socket", self.rundir, "-d",
                "bgpd"]

    def shell_argv(self):
        return self.vtysh() + ["-c", "show bgp summary"]

    def received(self, peer, family):
        return summary_pfx_rcd(self.vtysh(), peer, family)


class Bird(benchlib.BirdBinary):
    def start(self, ns, family, rmap):
        conf = self.write("bird.conf", bird_config(family, rmap))
        self.sock = os.path.join(self.rundir, "bird.ctl")
        return self.spawn([self.binaries()[0], "-f", "-c", conf, "-s", self.sock, "-P",
                           os.path.join(self.rundir, "bird.pid")], ns, "dut")

    def birdc(self):
        return [shutil.which("birdc") or "/usr/sbin/birdc", "-s", self.sock]

    def shell_argv(self):
        return self.birdc() + ["show", "protocols"]

    def received(self, peer, family):
        """Routes imported from the protocol of that peer ("Routes: N imported, ...")."""
        name = [p for p in ADDR if peer_addr(p, family) == peer][0]
        out = shell_output(self.birdc() + ["show", "protocols", "all", name])
        m = re.search(r"Routes:\s+(\d+) imported", out or "")
        return int(m.group(1)) if m else None


GOBGP_RMAP_PREFIXES = {4: [("0.0.0.0/0", "25..32"), ("127.0.0.0/8", "8..32"),
                           ("224.0.0.0/3", "3..32")],
                       6: [("::/0", "49..128"), ("::1/128", "128..128"),
                           ("ff00::/8", "8..128")]}


def gobgp_config(family, rmap):
    """gobgpd.toml: the four peers over `family`; a global export policy that rejects what goes
    to SENT_NOTHING (in an export policy a neighbor set matches the destination; its entries
    are prefixes, so host lengths: a bare IPv6 address would cover the collector); with rmap a
    global import policy (GoBGP has per-neighbour policies only in route-server mode, and only
    the feeder sends routes in that scenario)."""
    afi = "ipv4-unicast" if family == 4 else "ipv6-unicast"
    text = ('[global.config]\n  as = %d\n  router-id = "%s"\n  port = 179\n\n'
            '[global.apply-policy.config]\n  export-policy-list = ["send-nothing"]\n'
            '  default-export-policy = "accept-route"\n  default-import-policy = "accept-route"\n'
            % (DUT_AS, ROUTER_ID))
    if rmap:
        text += '  import-policy-list = ["edge-in"]\n'
    for p in ("inj", "inj2", "sink", "watch"):
        text += ('\n[[neighbors]]\n  [neighbors.config]\n    neighbor-address = "%s"\n'
                 '    peer-as = %d\n  [[neighbors.afi-safis]]\n'
                 '    [neighbors.afi-safis.config]\n      afi-safi-name = "%s"\n'
                 % (peer_addr(p, family), PEER_AS[p], afi))
    text += ('\n[[defined-sets.neighbor-sets]]\n  neighbor-set-name = "sent-nothing"\n'
             '  neighbor-info-list = [%s]\n'
             % ", ".join('"%s/%d"' % (peer_addr(p, family), 32 if family == 4 else 128)
                         for p in SENT_NOTHING))
    text += ('\n[[policy-definitions]]\n  name = "send-nothing"\n'
             '  [[policy-definitions.statements]]\n    name = "to-sent-nothing"\n'
             '    [policy-definitions.statements.conditions.match-neighbor-set]\n'
             '      neighbor-set = "sent-nothing"\n'
             '    [policy-definitions.statements.actions]\n'
             '      route-disposition = "reject-route"\n')
    if rmap:
        text += '\n[[defined-sets.prefix-sets]]\n  prefix-set-name = "not-in-a-table"\n'
        for prefix, lens in GOBGP_RMAP_PREFIXES[family]:
            text += ('  [[defined-sets.prefix-sets.prefix-list]]\n    ip-prefix = "%s"\n'
                     '    masklength-range = "%s"\n' % (prefix, lens))
        text += ('\n[[policy-definitions]]\n  name = "edge-in"\n'
                 '  [[policy-definitions.statements]]\n    name = "deny"\n'
                 '    [policy-definitions.statements.conditions.match-prefix-set]\n'
                 '      prefix-set = "not-in-a-table"\n      match-set-options = "any"\n'
                 '    [policy-definitions.statements.actions]\n'
                 '      route-disposition = "reject-route"\n'
                 '  [[policy-definitions.statements]]\n    name = "tag"\n'
                 '    [policy-definitions.statements.actions]\n'
                 '      route-disposition = "accept-route"\n'
                 '      [policy-definitions.statements.actions.bgp-actions.set-community]\n'
                 '        options = "add"\n'
                 '        [policy-definitions.statements.actions.bgp-actions.set-community'
                 '.set-community-method]\n          communities-list = ["65000:100"]\n')
    return text


class GoBgp(benchlib.Dut):
    """GoBGP, opt-in (not in the default --duts): it sends one prefix per UPDATE and needs
    minutes per phase for a million prefixes here (table_transfer.py measures it)."""

    name = "gobgp"

    def binaries(self):
        return [shutil.which("gobgpd") or "/usr/bin/gobgpd",
                shutil.which("gobgp") or "/usr/bin/gobgp"]

    def version(self):
        return benchlib.first_line([self.binaries()[0], "--version"]).replace(
            "gobgpd version", "GoBGP")

    def start(self, ns, family, rmap):
        conf = self.write("gobgpd.toml", gobgp_config(family, rmap))
        self.ns = ns
        return self.spawn([self.binaries()[0], "-f", conf, "-t", "toml", "--pprof-disable", "-l",
                           "warn", "-p", "--api-hosts", "127.0.0.1:50051"], ns, "dut")

    def cli(self):
        # The API listens on the DUT namespace's loopback: the CLI runs in that namespace.
        return ["ip", "netns", "exec", self.ns, self.binaries()[1], "-u", "127.0.0.1", "-p",
                "50051"]

    def shell_argv(self):
        return self.cli() + ["neighbor"]

    def received(self, peer, family):
        out = shell_output(self.cli() + ["neighbor", peer, "-j"])
        try:
            data = json.loads(out or "")
        except ValueError:
            return None
        for afs in data.get("afi_safis") or []:
            st = (afs.get("state") or {})
            if "accepted" in st or "received" in st:
                return st.get("accepted", st.get("received"))
        return None


def slowest_callback(dut, res):
    """The DUT's longest single callback over the whole run, and its name (cb_max_ms,
    cb_max_name), from its event loop's accounting, when it has one."""
    if not hasattr(dut, "event_cpu_argv"):
        return
    out = shell_output(dut.event_cpu_argv())
    try:
        stats = json.loads(out) if out else None
    except ValueError:
        stats = None
    if not stats:
        return
    name, st = max(stats.items(), key=lambda kv: kv[1].get("maxWallUsec", 0))
    res["cb_max_ms"] = round(st.get("maxWallUsec", 0) / 1000.0, 1)
    res["cb_max_name"] = name


def shell_output(argv):
    """What a shell command prints, or None when it fails or takes more than 10 s."""
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout if r.returncode == 0 else None


def summary_pfx_rcd(shell, peer, family):
    """pfxRcd of peer in `show bgp <family> unicast summary json` (skua and FRR), or None."""
    out = shell_output(shell + ["-c", "show bgp %s unicast summary json"
                                % ("ipv4" if family == 4 else "ipv6")])
    try:
        data = json.loads(out or "")
    except ValueError:
        return None
    peers = data.get("peers") or next((v.get("peers") for v in data.values()
                                       if isinstance(v, dict) and "peers" in v), {})
    return (peers.get(peer) or {}).get("pfxRcd")


DUTS = {"skua": Skua, "skua-base": benchlib.skua_baseline(Skua), "bird": Bird, "frr": Frr,
        "gobgp": GoBgp}


# ---------------------------------------------------------------------------------------------
# Liveness: the DUT's shell, sampled
# ---------------------------------------------------------------------------------------------

class ShellProbe(threading.Thread):
    """The DUT's shell command every `interval` s: each answer's latency, and the failures."""

    def __init__(self, argv, interval):
        super().__init__(daemon=True)
        self.argv, self.interval = argv, interval
        self.latencies, self.failures, self.started = [], [], []
        self.halt = threading.Event()

    def slowest_phase(self, spans):
        """The phase (of PhaseProfile's spans) in which the slowest answer was asked,
        "between phases" when in none."""
        if not self.latencies:
            return None
        t0 = self.started[self.latencies.index(max(self.latencies))]
        for key, start, end in spans:
            if start <= t0 and (end is None or t0 <= end):
                return key
        return "between phases"

    def run(self):
        while not self.halt.is_set():
            t0 = time.monotonic()
            try:
                r = subprocess.run(self.argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True, timeout=10)
                if r.returncode != 0:
                    self.failures.append("exit %d: %s" % (r.returncode, r.stderr.strip()[:200]))
            except (OSError, subprocess.TimeoutExpired) as e:
                self.failures.append(str(e)[:200])
            dt = time.monotonic() - t0
            self.latencies.append(dt)
            self.started.append(t0)
            self.halt.wait(max(0.0, self.interval - dt))

    def stop(self):
        self.halt.set()
        self.join(15)


# ---------------------------------------------------------------------------------------------
# One scenario through one DUT
# ---------------------------------------------------------------------------------------------

class Blaster:
    """A bgp_blaster in a namespace with its JSON events."""

    def __init__(self, args, rundir, ns, peer, family, rest, label):
        # The process lives through every phase of the scenario, each bounded by --timeout.
        argv = benchlib.blaster_argv(args.blaster, 4 * args.timeout + 60, label,
                                     dut_addr(peer, family), peer_addr(peer, family),
                                     PEER_AS[peer], DUT_AS, rest)
        if peer == "watch":
            argv[argv.index("--hold-time") + 1] = "3"
        # Each speaker its own BGP Identifier, also on IPv6 sessions (bgp_blaster's default
        # there is one address for all, and GoBGP sends nothing to a peer whose Identifier is
        # that of the route's source).
        argv += ["--router-id", ADDR[peer][0]]
        if family == 6:
            argv += ["--family", "ipv6"]
        self.proc = benchlib.spawn(argv, ns, os.path.join(rundir, label + ".log"),
                                   stdout=subprocess.PIPE)
        self.events = benchlib.JsonReader(benchlib.text_stdout(self.proc), label)
        self.events.start()
        self.label = label

    def wait(self, kind, timeout, what):
        ev = self.events.wait_for((kind, "result"), time.monotonic() + timeout)
        if not ev or ev["event"] != kind:
            raise BenchError("%s: %s did not come (%s)" % (self.label, what, ev))
        return ev

    def result(self, grace=10):
        """Stop it (SIGTERM) and return its final "result" event."""
        CLEAN.release(self.proc, grace)
        self.events.join(5)
        res = [e for e in self.events.all if e.get("event") == "result"]
        return res[-1] if res else {}


def feeder_args(args, family, n, extra=()):
    return (["--inject", str(n), "--shape", "internet", "--seed", str(args.seed),
             "--inject-family", "ipv4" if family == 4 else "ipv6", "--linger", "-1"]
            + list(extra))


def cpu(pid):
    c = benchlib.cpu_of([pid])
    if c is None:
        raise BenchError("the DUT exited")
    return c[0] + c[1]


def rss_kib(pid):
    st = benchlib.proc_status(pid)
    if st is None:
        raise BenchError("the DUT exited")
    return st


def settled_status(args, pid, bound=15.0):
    """/proc status of pid once its VmRSS has stopped moving: `--settle` s, then until two
    readings 0.5 s apart are within 64 KiB, at most `bound` s more. The collector holding
    nothing is not the end of the DUT's work: it frees the emptied routes after sending them,
    and gives the heap back once that is idle, later on a loaded machine."""
    time.sleep(args.settle)
    last = rss_kib(pid)
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = rss_kib(pid)
        if abs(now["VmRSS"] - last["VmRSS"]) <= 64:
            return now
        last = now
    return last


def keep_memory_report(dut, rundir, name, pid=None):
    """`show memory` into rundir/name, for the DUTs that have one (skua), and the kernel's
    view beside it (name with .smaps: each mapping's resident and anonymous KiB), which says
    where resident memory sits that `show memory` does not count (heap pages kept by a
    fragment, code faulted in)."""
    if hasattr(dut, "memory_argv"):
        with open(os.path.join(rundir, name), "w") as f:
            f.write(shell_output(dut.memory_argv()) or "(no answer)\n")
    if pid is not None:
        try:
            with open("/proc/%d/smaps" % pid) as src, \
                    open(os.path.join(rundir, name.replace(".txt", ".smaps")), "w") as f:
                f.write(src.read())
        except OSError:
            pass


class PhaseProfile:
    """`perf record -g` attached to the DUT for one phase named in --profile (transfer,
    withdraw, transfer_again, session_drop, second_feed, failover), so that a phase's profile
    holds that phase alone: doc/performance.md reads them per phase. The data goes to
    <out-dir>/perf-<scenario>-<dut>-<run>-<phase>.data; `perf report -i` reads it."""

    ATTACH_S = 0.5  # perf prints nothing once attached: give it this long before the phase

    def __init__(self, args, key, pid, res):
        self.proc = None
        # Every phase's span, profiled or not: the shell probe's slowest answer is told by
        # the phase it fell in (shell_max_phase).
        self.span = [key, time.monotonic(), None]
        res.setdefault("phase_spans", []).append(self.span)
        # And the DUT's VmHWM at each phase's end (vmhwm_phases_kib): which phase set the
        # peak.
        self.key, self.pid, self.res = key, pid, res
        if key not in args.profile:
            return
        os.makedirs(args.out_dir, exist_ok=True)
        self.path = os.path.join(args.out_dir, "perf-%s-%s-%d-%s.data"
                                 % (res["scenario"], res["dut"], res["run"], key))
        self.logf = open(self.path + ".log", "wb")
        self.proc = subprocess.Popen(["perf", "record", "-g", "-F", "1999", "-p", str(pid),
                                      "-o", self.path], stdin=subprocess.DEVNULL,
                                     stdout=self.logf, stderr=self.logf)
        CLEAN.procs.append(self.proc)
        time.sleep(self.ATTACH_S)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.span[2] = time.monotonic()
        st = rss_kib(self.pid)
        if st:
            self.res.setdefault("vmhwm_phases_kib", {})[self.key] = st["VmHWM"]
        if not self.proc:
            return False
        self.proc.send_signal(signal.SIGINT)  # perf writes its data and exits
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            log("perf did not stop within 60 s: %s may be incomplete" % self.path)
        CLEAN.release(self.proc)
        self.logf.close()
        log("profile of this phase: perf report -i %s" % self.path)
        return False


def feed(args, res, key, d, feeder, sink, n, gated=False):
    """Wait for the collector to hold the table the feeder sends; record its time and CPU.
    gated: the feeder (--send-on-signal) holds its table until told, once c0 is read."""
    c0 = cpu(d.pid)
    if gated:
        os.kill(feeder.proc.pid, signal.SIGUSR2)
    ev = sink.wait("reached", args.timeout, "the table (%d prefixes)" % n)
    first = benchlib.first_update_time(feeder.events)
    res[key + "_s"] = round(ev["t_last_prefix"] - first, 3)
    res[key + "_cpu_s"] = round(cpu(d.pid) - c0, 2)


def drain(args, res, key, d, sink, t0, c0):
    """Wait for the collector to hold nothing; the time from t0, the DUT's CPU from c0."""
    ev = sink.wait("emptied", args.timeout, "an empty collector")
    res[key + "_s"] = round(ev["t_last_prefix"] - t0, 3)
    res[key + "_cpu_s"] = round(cpu(d.pid) - c0, 2)


def announced(sink):
    return max([e.get("announced", 0) for e in sink.events.all] + [0])


def wait_announced(args, sink, target, what):
    """The collector's first progress line with at least `target` announcements."""
    deadline = time.monotonic() + args.timeout
    while True:
        ev = sink.events.wait_for(("progress",), deadline)
        if not ev or ev["event"] != "progress":
            raise BenchError("the collector did not get %s: %s" % (what, ev))
        if ev["announced"] >= target:
            return ev


def two_feeders(args, res, dut, d, nss, rundir, family, n, inj, sink):
    """The losing second feed, then the failover to it (see the module's docstring)."""
    before = announced(sink)
    with PhaseProfile(args, "second_feed", d.pid, res):
        inj2 = second_feed(args, res, dut, d, nss, rundir, family, n)
    time.sleep(args.settle)
    before_failover = announced(sink)
    res["second_feed_resent"] = before_failover - before
    with PhaseProfile(args, "failover", d.pid, res):
        c0, t0 = cpu(d.pid), time.monotonic()
        inj.result()  # the first feeder closes its session: every prefix fails over
        ev = wait_announced(args, sink, before_failover + n, "every failed-over path")
        res["failover_s"] = round(ev["t"] - t0, 3)
        res["failover_cpu_s"] = round(cpu(d.pid) - c0, 2)
    inj2.result()


def second_feed(args, res, dut, d, nss, rundir, family, n):
    """The second feeder's table, every path losing: its time and the DUT's CPU. Returns
    the feeder, still connected, for the failover."""
    c0 = cpu(d.pid)
    inj2 = Blaster(args, rundir, nss["inj2"], "inj2", family,
                   feeder_args(args, family, n, ["--as-path", LONGER_PATH_AS]), "feeder2")
    deadline = time.monotonic() + args.timeout
    while True:
        # Polled, not sampled: the answer's own latency counts, so the time is an upper bound.
        got = dut.received(peer_addr("inj2", family), family)
        now = time.monotonic()
        if got is not None and got >= n:
            break
        if now > deadline or d.poll() is not None:
            raise BenchError("the DUT did not report the second feed's %d prefixes (last "
                             "answer %s)" % (n, got))
        time.sleep(0.1)
    first = benchlib.first_update_time(inj2.events)
    res["second_feed_s"] = round(now - first, 3)
    res["second_feed_cpu_s"] = round(cpu(d.pid) - c0, 2)
    res["second_vs_first"] = round(res["second_feed_s"] / res["transfer_s"], 2)
    res["second_vs_first_cpu"] = round(res["second_feed_cpu_s"]
                                       / max(res["transfer_cpu_s"], 0.01), 2)
    return inj2


def measure(args, scenario, dut, nss, workdir, run_no):
    family = 6 if scenario == "v6" else 4
    n = args.prefixes6 if family == 6 else args.prefixes
    rundir = dut.new_run(os.path.join(workdir, scenario), run_no)
    res = {"scenario": scenario, "dut": dut.name, "run": run_no, "prefixes": n,
           "family": family, "ok": False, "loadavg_before": os.getloadavg()[0]}
    probe = watch = None
    try:
        d = dut.start(nss["dut"], family, scenario == "route-map")
        benchlib.wait_listening(nss["dut"], 179, time.monotonic() + 30, d)
        sink = Blaster(args, rundir, nss["sink"], "sink", family,
                       ["--expect", str(n), "--linger", "-1", "--progress", "0.05"], "sink")
        watch = Blaster(args, rundir, nss["sink"], "watch", family, ["--linger", "-1"],
                        "watch")
        sink.wait("established", 60, "the collector's session")
        watch.wait("established", 60, "the watcher's session")
        probe = ShellProbe(dut.shell_argv(), 0.5)
        probe.start()
        # The empty daemon: configured, every session up (the feeder's too, holding its table
        # until SIGUSR2) and its shell answering, no route yet: what the table's memory must
        # go back to, with the same sessions as after the withdrawal.
        inj = Blaster(args, rundir, nss["inj"], "inj", family,
                      feeder_args(args, family, n, ["--send-on-signal"]), "feeder")
        inj.wait("established", 60, "the feeder's session")
        empty = settled_status(args, d.pid)
        keep_memory_report(dut, rundir, "memory-empty.txt", d.pid)
        res["rss_empty_kib"], res["anon_empty_kib"] = empty["VmRSS"], empty.get("RssAnon")
        with PhaseProfile(args, "transfer", d.pid, res):
            feed(args, res, "transfer", d, inj, sink, n, gated=True)
        res["vmhwm_kib"] = res["vmhwm_feed_kib"] = rss_kib(d.pid)["VmHWM"]
        time.sleep(args.settle)
        res["rss_loaded_kib"] = rss_kib(d.pid)["VmRSS"]
        keep_memory_report(dut, rundir, "memory-loaded.txt", d.pid)
        if scenario in ("v4", "v6"):
            with PhaseProfile(args, "withdraw", d.pid, res):
                c0 = cpu(d.pid)
                os.kill(inj.proc.pid, signal.SIGUSR1)
                ev = inj.wait("withdrawn", args.timeout, "the explicit withdrawal")
                drain(args, res, "withdraw", d, sink, ev["t_first_withdraw"], c0)
                after = settled_status(args, d.pid)
                # What the withdrawal cost in all: the DUT frees the emptied routes after it
                # has sent their withdrawals, and gives the heap back once idle.
                res["withdraw_cpu_idle_s"] = round(cpu(d.pid) - c0, 2)
            keep_memory_report(dut, rundir, "memory-after-withdrawal.txt", d.pid)
            res["rss_after_withdraw_kib"] = after["VmRSS"]
            res["rss_after_vs_empty"] = round(res["rss_after_withdraw_kib"]
                                              / float(res["rss_empty_kib"]), 3)
            # VmRSS also counts the code pages the transfer faulted in (file-backed, shared
            # with the page cache); the anonymous part is the daemon's own memory.
            if after.get("RssAnon") and res.get("anon_empty_kib"):
                res["anon_after_withdraw_kib"] = after["RssAnon"]
                res["anon_after_vs_empty"] = round(after["RssAnon"]
                                                   / float(res["anon_empty_kib"]), 3)
            inj.result()
            with PhaseProfile(args, "transfer_again", d.pid, res):
                inj = Blaster(args, rundir, nss["inj"], "inj", family,
                              feeder_args(args, family, n), "feeder-again")
                feed(args, res, "transfer_again", d, inj, sink, n)
            time.sleep(args.settle)
            with PhaseProfile(args, "session_drop", d.pid, res):
                c0, t0 = cpu(d.pid), time.monotonic()
                inj.result()  # SIGTERM: Cease, then the feeder closes the connection
                drain(args, res, "session_drop", d, sink, t0, c0)
        if scenario == "two-feeders":
            two_feeders(args, res, dut, d, nss, rundir, family, n, inj, sink)
        res["vmhwm_kib"] = max(res["vmhwm_kib"], rss_kib(d.pid)["VmHWM"])
        res["cpu_total_s"] = round(cpu(d.pid), 2)
        slowest_callback(dut, res)
        res["ok"] = True
    except BenchError as e:
        res["error"] = str(e)
        log("%s %s run %d: %s (logs in %s)" % (scenario, dut.name, run_no, e, rundir))
    finally:
        if probe:
            probe.stop()
            res["shell_max_ms"] = round(1000 * max(probe.latencies), 1) \
                if probe.latencies else None
            res["shell_samples"] = len(probe.latencies)
            res["shell_max_phase"] = probe.slowest_phase(res.get("phase_spans", []))
            res.pop("phase_spans", None)
            res["shell_failures"] = probe.failures[:5]
            res["shell_failed"] = len(probe.failures)
        if watch:
            r = watch.result()
            res["hold_ok"] = r.get("exit") == 0
            res["watch_why"] = r.get("why")
            if not res["hold_ok"] and res["ok"]:
                log("%s %s: the hold-time-3 session failed: %s" % (scenario, dut.name,
                                                                    res["watch_why"]))
        for p in reversed(list(CLEAN.procs)):
            CLEAN.release(p)
    return res


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

# Per scenario: the figures summarised (medians), each with its column title and whether it
# gets a ratio to BIRD.
FIGURES = {
    "v4": [("transfer_s", "convergence (s)", True), ("transfer_cpu_s", "CPU (s)", True),
           ("vmhwm_mib", "peak RSS (MiB)", True), ("withdraw_s", "full withdrawal (s)", True),
           ("withdraw_cpu_s", "its CPU (s)", True),
           ("withdraw_cpu_idle_s", "its CPU until idle (s)", True),
           ("session_drop_s", "session drop (s)", True),
           ("rss_after_vs_empty", "RSS after / empty", False),
           ("anon_after_vs_empty", "anon RSS after / empty", False)],
    "two-feeders": [("transfer_s", "first feed (s)", True),
                    ("transfer_cpu_s", "its CPU (s)", True),
                    ("second_feed_s", "second feed (s, polled)", True),
                    ("second_feed_cpu_s", "its CPU (s)", True),
                    ("second_vs_first", "second / first", False),
                    ("second_vs_first_cpu", "CPU second / first", False),
                    ("second_feed_resent", "re-sent meanwhile", False),
                    ("failover_s", "failover (s)", True),
                    ("failover_cpu_s", "its CPU (s)", True)],
    "route-map": [("transfer_s", "convergence (s)", True), ("transfer_cpu_s", "CPU (s)", True),
                  ("vmhwm_mib", "peak RSS (MiB)", True),
                  ("vs_unfiltered", "time vs unfiltered v4", False),
                  ("cpu_vs_unfiltered", "CPU vs unfiltered v4", False)],
}
FIGURES["v6"] = FIGURES["v4"]


def summarise(results, scenarios, order):
    summary = {}
    for sc in scenarios:
        rows = {}
        for name in order:
            runs = [r for r in results if r["scenario"] == sc and r["dut"] == name and r["ok"]]
            failed = [r for r in results if r["scenario"] == sc and r["dut"] == name
                      and not r["ok"]]
            s = {"runs": len(runs), "failed": len(failed)}
            for r in runs:
                r["vmhwm_mib"] = round(r["vmhwm_kib"] / 1024.0, 1)
            for key, _, _ in FIGURES[sc]:
                vals = [r[key] for r in runs if r.get(key) is not None]
                if vals:
                    s[key] = round(statistics.median(vals), 3)
            lat = [r["shell_max_ms"] for r in results if r["scenario"] == sc
                   and r["dut"] == name and r.get("shell_max_ms") is not None]
            s["shell_max_ms"] = max(lat) if lat else None
            s["shell_failed"] = sum(r.get("shell_failed", 0) for r in results
                                    if r["scenario"] == sc and r["dut"] == name)
            held = [r["hold_ok"] for r in runs + failed if "hold_ok" in r]
            s["hold_ok"] = all(held) if held else None
            if failed:
                s["errors"] = [r.get("error") for r in failed]
            rows[name] = s
        summary[sc] = rows
    if "route-map" in summary and "v4" in summary:
        for name, s in summary["route-map"].items():
            v4 = summary["v4"].get(name, {})
            for key, ratio in (("transfer_s", "vs_unfiltered"),
                               ("transfer_cpu_s", "cpu_vs_unfiltered")):
                if v4.get(key) and s.get(key):
                    s[ratio] = round(s[key] / v4[key], 2)
    for sc, rows in summary.items():
        bird = rows.get("bird", {})
        for s in rows.values():
            for key, _, ratio in FIGURES[sc]:
                if ratio and bird.get(key) and s.get(key) is not None:
                    s[key + "_vs_bird"] = round(s[key] / bird[key], 2)
    return summary


def fmt(v):
    return "-" if v is None else ("%.2f" % v if isinstance(v, float) else str(v))


def tables(summary, versions, skipped, args):
    out = []
    for sc, rows in summary.items():
        n = args.prefixes6 if sc == "v6" else args.prefixes
        out.append("### %s (%d %s prefixes, internet-shaped)\n" % (
            sc, n, "IPv6" if sc == "v6" else "IPv4"))
        head = ["DUT"]
        for key, title, ratio in FIGURES[sc]:
            head += [title] + (["vs BIRD"] if ratio else [])
        head += ["hold-3s session", "shell max (ms; 10 s = no answer)", "runs"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|---|" + "---:|" * (len(head) - 1))
        for name, s in rows.items():
            cells = ["%s (%s)" % (name, versions.get(name, "?"))]
            for key, _, ratio in FIGURES[sc]:
                cells.append(fmt(s.get(key)))
                if ratio:
                    cells.append(fmt(s.get(key + "_vs_bird")))
            shell = fmt(s.get("shell_max_ms"))
            if s["shell_failed"]:
                shell += " (%d failed or timed out)" % s["shell_failed"]
            cells += ["-" if s["hold_ok"] is None else ("kept" if s["hold_ok"] else "LOST"),
                      shell, "%d/%d" % (s["runs"], s["runs"] + s["failed"])]
            out.append("| " + " | ".join(cells) + " |")
        for name, why in skipped.items():
            out.append("| %s | skipped: %s |" % (name, why))
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Issue 15's edge scenarios (full withdrawal, IPv6, two feeders, inbound "
                    "route-map, liveness) for skua, BIRD and FRR in one invocation. Root; "
                    "creates and removes its own namespaces.")
    benchlib.add_table_args(p, "skua,bird,frr", "IPv4 prefixes (default 1000000)",
                            "20,000 IPv4 and 5,000 IPv6 prefixes (a smoke run)",
                            "unused: the shaped table has 2-3 prefixes per set")
    p.add_argument("--prefixes6", type=int, default=200000,
                   help="IPv6 prefixes of the v6 scenario (default 200000)")
    p.add_argument("--scenarios", default=",".join(SCENARIOS),
                   help="comma-separated, among %s (default all)" % ", ".join(SCENARIOS))
    p.add_argument("--seed", type=int, default=1, help="the shaped table's seed (default 1)")
    p.add_argument("--timeout", type=float, default=300,
                   help="bound on each phase in seconds (default 300)")
    p.add_argument("--settle", type=float, default=1.0,
                   help="seconds between phases, and before each VmRSS reading (default 1)")
    p.add_argument("--report", metavar="JSON",
                   help="print the tables of an earlier run's results file and exit (no run, "
                        "no root needed)")
    p.add_argument("--profile", default="", metavar="PHASES",
                   help="comma-separated phases to record with perf on the DUT (%s): "
                        "perf-*.data in the output directory; CPU figures of such a run "
                        "include perf's own sampling cost" % ", ".join(PHASES))
    benchlib.add_output_args(p)
    a = p.parse_args(argv)
    given = {x.split("=")[0] for x in argv}
    benchlib.check_table_args(p, a, DUTS)
    if a.quick:
        a.prefixes = a.prefixes if "--prefixes" in given else 20000
        a.prefixes6 = a.prefixes6 if "--prefixes6" in given else 5000
    a.profile = [x.strip() for x in a.profile.split(",") if x.strip()]
    for x in a.profile:
        if x not in PHASES:
            p.error("unknown phase %s (known: %s)" % (x, ", ".join(PHASES)))
    if a.profile and not shutil.which("perf"):
        p.error("--profile needs perf (Debian: linux-perf)")
    a.scenarios = [s.strip() for s in a.scenarios.split(",") if s.strip()]
    for s in a.scenarios:
        if s not in SCENARIOS:
            p.error("unknown scenario %s (known: %s)" % (s, ", ".join(SCENARIOS)))
    if a.repeat < 1 or a.timeout <= 0 or a.prefixes6 < 1:
        p.error("--repeat, --timeout and --prefixes6 must be positive")
    return a


def setup(tag):
    peers = [(p, ADDR[p][0], ADDR[p][1]) for p in ("inj", "sink", "inj2")]
    dut_ns, names = benchlib.setup_netns(tag, peers)
    nss = dict(zip(("inj", "sink", "inj2"), names), dut=dut_ns)
    # The watcher shares the collector's link; IPv6 on every link, without duplicate address
    # detection so that the addresses are usable at once.
    benchlib.run(["ip", "addr", "add", ADDR["watch"][0] + "/24", "dev", "eth0"], ns=nss["sink"])
    for p in ("inj", "sink", "inj2"):
        benchlib.run(["ip", "-6", "addr", "add", ADDR[p][2] + "/64", "dev", "eth0", "nodad"],
                     ns=nss[p])
        benchlib.run(["ip", "-6", "addr", "add", ADDR[p][3] + "/64", "dev", "to-" + p,
                      "nodad"], ns=dut_ns)
    benchlib.run(["ip", "-6", "addr", "add", ADDR["watch"][2] + "/64", "dev", "eth0", "nodad"],
                 ns=nss["sink"])
    return nss


def report(path):
    """The tables of a results file, with this version's summary (columns added since
    included when the runs have their figures)."""
    with open(path) as f:
        data = json.load(f)
    meta = data["meta"]
    args = argparse.Namespace(prefixes=meta["prefixes"], prefixes6=meta["prefixes6"])
    order = [n for n in dict.fromkeys(r["dut"] for r in data["runs"])]
    summary = summarise(data["runs"], meta["scenarios"], order)
    print(tables(summary, meta["versions"], meta["skipped"], args))
    print("Command: `%s` (%s, load average at the end %s)" % (
        meta["command"], meta["date"], ", ".join("%.1f" % x for x in meta.get("loadavg_end",
                                                                               []))))
    return 0


def main(argv):
    args = parse_args(argv)
    if args.report:
        return report(args.report)
    code = benchlib.preflight(args)
    if code:
        return code
    duts, versions, skipped = benchlib.pick_duts(args, DUTS)
    results = []

    def body(workdir):
        nss = setup("eb%d" % os.getpid())
        log("scenarios %s; %d IPv4 / %d IPv6 prefixes; logs in %s" % (
            ",".join(args.scenarios), args.prefixes, args.prefixes6, workdir))
        code = 0
        for sc in args.scenarios:
            for r in range(1, args.repeat + 1):
                for d in duts:
                    log("%s: %s (%s), run %d/%d ..." % (sc, d.name, versions[d.name], r,
                                                         args.repeat))
                    res = measure(args, sc, d, nss, workdir, r)
                    results.append(res)
                    if not res["ok"]:
                        code = 1
                    else:
                        log("  " + ", ".join("%s %s" % (k, res[k]) for k in (
                            "transfer_s", "transfer_cpu_s", "withdraw_s", "session_drop_s",
                            "second_feed_s", "failover_s", "shell_max_ms", "cb_max_ms", "cb_max_name",
                            "hold_ok")
                            if k in res))
        return code

    code = benchlib.run_guarded("skua-eb-", args.keep_logs, body)
    if not results:
        return code or 1
    summary = summarise(results, args.scenarios, [d for d in args.duts if d not in skipped])
    md = tables(summary, versions, skipped, args)
    print(md)
    meta = benchlib.run_meta(argv, {"prefixes": args.prefixes, "prefixes6": args.prefixes6,
                                    "scenarios": args.scenarios, "seed": args.seed,
                                    "repeat": args.repeat, "shape": "internet"},
                             versions, skipped)
    meta["loadavg_end"] = os.getloadavg()
    benchlib.write_results(args.out_dir, "edge_bench", args.prefixes, meta, summary, results,
                           "Edge scenarios (issue 15), %s (%s)" % (meta["date"],
                                                                   meta["kernel"]), md)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
