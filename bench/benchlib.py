# SPDX-License-Identifier: ISC
"""The plumbing the bench/ scripts share (table_transfer.py, fib_install.py, gtsm_flood.py).

What it offers:
  - log(): a line on stderr prefixed by the running script's name;
  - BenchError (a run or the set-up failed: reported, the script goes on or exits 2), Stop
    and install_signal_handlers() (SIGINT/SIGTERM/SIGHUP unwind through `finally`);
  - CLEAN, the record of every process and namespace a script started: only those are
    stopped and deleted (CLEAN.release() for one process, CLEAN.all() on exit); run() and
    spawn() for commands inside a namespace;
  - setup_netns() / teardown_netns(): a DUT namespace joined by a veth pair to each of its
    neighbours' namespaces, addresses up, links waited for;
  - the DUTs' common half: Dut (run directory, configuration files, its processes), the
    binaries and versions of skua's bgpd, BIRD 2 and FRR 8.4 (SkuaBinary, BirdBinary,
    FrrBinary), and the configurations both benchmarks give them (frr_bgpd_config,
    bird_config); each script adds how it starts them;
  - bgp_blaster: blaster_argv(), JsonReader (its JSON lines) and first_update_time();
    wait_listening() for a DUT's port 179;
  - /proc accounting: proc_status() (VmRSS, VmHWM), proc_cpu() and cpu_of() (CPU time),
    RssSampler (VmRSS over a run), mib();
  - options: add_table_args(), add_output_args(), check_table_args();
  - driving and results: drive() with a Report, a benchmark's whole course, built on
    preflight() (root, bgp_blaster), pick_duts(), run_guarded() (work directory, signals,
    cleanup, exit status), run_meta() and write_results()
    (bench/results/<stem>-<prefixes>-<date>.{json,md});
    split_runs() and downsample() for the summaries.

Everything here is for scripts run as root with /usr/bin/python3 from bench/; it touches
only what it records in CLEAN.
"""

import collections
import io
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
FRR_DIR = "/usr/lib/frr"


def log(msg):
    """msg on stderr, after the name of the script that runs (table_transfer: ...)."""
    prog = os.path.splitext(os.path.basename(sys.argv[0]))[0] or "bench"
    print("%s: %s" % (prog, msg), file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


class Stop(BaseException):
    """Raised by the signal handler so that `finally` blocks clean up."""


def on_signal(sig, frame):
    raise Stop("signal %d" % sig)


def install_signal_handlers():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)


# ---------------------------------------------------------------------------------------------
# Processes and namespaces: everything started is recorded and only that is stopped.
# ---------------------------------------------------------------------------------------------

class Cleanup:
    def __init__(self):
        self.procs = []
        self.netns = []

    def stop_proc(self, p, grace=5.0):
        if p.poll() is not None:
            return
        try:
            p.terminate()
            p.wait(grace)
        except subprocess.TimeoutExpired:
            p.kill()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                log("pid %d did not die" % p.pid)
        except ProcessLookupError:
            pass

    def release(self, p, grace=5.0):
        """Stop p (SIGTERM, SIGKILL after `grace` s) and forget it."""
        self.stop_proc(p, grace)
        if p in self.procs:
            self.procs.remove(p)

    def stop_all_procs(self):
        for p in reversed(self.procs):
            self.stop_proc(p)
        self.procs = []

    def all(self):
        self.stop_all_procs()
        for ns in reversed(self.netns):
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
        self.netns = []


CLEAN = Cleanup()


def run(argv, check=True, ns=None, capture=False, timeout=30):
    if ns:
        argv = ["ip", "netns", "exec", ns] + argv
    r = subprocess.run(argv, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise BenchError("%s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr.strip()))
    return r.stdout if capture else r.returncode


def spawn(argv, ns, logpath, stdout=None):
    """Start argv in namespace ns. `ip netns exec` execs the command: the PID is the daemon's."""
    logf = open(logpath, "ab")
    p = subprocess.Popen(["ip", "netns", "exec", ns] + argv, stdin=subprocess.DEVNULL,
                         stdout=stdout if stdout is not None else logf, stderr=logf,
                         start_new_session=True)
    logf.close()
    CLEAN.procs.append(p)
    return p


def setup_netns(tag, peers):
    """Namespace <tag>-dut and, for each (name, addr, dut_addr) of peers, namespace <tag>-name
    joined to it by a veth pair: eth0 with addr/24 there, to-<name> with dut_addr/24 in the
    DUT. Returns the DUT's namespace and the peers' in their order, once every link is up
    (BIRD only peers over an interface that is up)."""
    dut = tag + "-dut"
    names = [tag + "-" + name for name, _, _ in peers]
    for ns in [names[0], dut] + names[1:]:
        run(["ip", "netns", "add", ns])
        CLEAN.netns.append(ns)
        run(["ip", "link", "set", "lo", "up"], ns=ns)
    links = []
    for ns, (name, addr, dut_addr) in zip(names, peers):
        run(["ip", "link", "add", "name", "eth0", "netns", ns, "type", "veth", "peer", "name",
             "to-" + name, "netns", dut])
        links += [(ns, "eth0", addr), (dut, "to-" + name, dut_addr)]
    for ns, dev, addr in links:
        run(["ip", "addr", "add", addr + "/24", "dev", dev], ns=ns)
        run(["ip", "link", "set", dev, "up"], ns=ns)
    deadline = time.monotonic() + 10
    while not all("state UP" in run(["ip", "-o", "link", "show", "dev", dev], ns=ns,
                                    capture=True) for ns, dev, _ in links):
        if time.monotonic() > deadline:
            raise BenchError("the veth links do not come up")
        time.sleep(0.1)
    return dut, names


def teardown_netns(nss):
    for ns in nss:
        run(["ip", "netns", "del", ns], check=False)
        if ns in CLEAN.netns:
            CLEAN.netns.remove(ns)


# ---------------------------------------------------------------------------------------------
# DUTs: what both benchmarks do the same way; each script's subclasses start them.
# ---------------------------------------------------------------------------------------------

def first_line(argv):
    """The first non-empty line argv prints (a --version), or "?"."""
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=10)
        lines = [line for line in r.stdout.splitlines() if line.strip()]
        return lines[0].strip() if lines else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


class Dut:
    """A device under test: its binaries, a run directory (set per run), its processes."""

    name = "?"

    def __init__(self, args):
        self.args = args
        self.rundir = None
        self.procs = []

    def binaries(self):
        raise NotImplementedError

    def missing(self):
        """Why the DUT cannot run (a binary missing), or None."""
        for b in self.binaries():
            if not (os.path.isfile(b) and os.access(b, os.X_OK)):
                return "%s not found or not executable" % b
        return None

    def version(self):
        return "?"

    def new_run(self, workdir, run_no):
        """A fresh run directory, workdir/<name>-<run_no>, readable by daemons that drop
        privileges; the processes of the previous run are forgotten."""
        self.rundir = os.path.join(workdir, "%s-%d" % (self.name, run_no))
        os.makedirs(self.rundir)
        os.chmod(self.rundir, 0o755)
        self.procs = []
        return self.rundir

    def write(self, fname, text):
        path = os.path.join(self.rundir, fname)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path

    def spawn(self, argv, ns, label):
        """argv in namespace ns, logging to <rundir>/<label>.log."""
        p = spawn(argv, ns, os.path.join(self.rundir, label + ".log"))
        self.procs.append(p)
        return p

    def pids(self):
        return [p.pid for p in self.procs]


class SkuaBinary(Dut):
    name = "skua"

    def bgpd(self):
        return self.args.skua_bgpd

    def binaries(self):
        return [self.bgpd()]

    def version(self):
        return first_line([self.bgpd(), "--version"])

    def bgpd_argv(self, conf, *extra):
        """bgpd on conf with its vty socket (self.vty) and a pid file of its own in the run
        directory: the default /run/skua/bgpd.pid is locked by any other bgpd on the machine,
        a benchmark's or a test's, and bgpd would refuse to start."""
        self.vty = os.path.join(self.rundir, "bgpd.vty")
        return [self.bgpd(), "-f", conf, "--vty-socket", self.vty,
                "-i", os.path.join(self.rundir, "bgpd.pid")] + list(extra)


def skua_baseline(skua_class):
    """skua_class run from --skua-baseline as the DUT "skua-base": another build of skua (a
    change's before, say) measured in the same invocation as the one under test."""
    class SkuaBase(skua_class):
        name = "skua-base"

        def bgpd(self):
            return self.args.skua_baseline

        def version(self):
            return "%s (%s)" % (first_line([self.bgpd(), "--version"]), self.bgpd())
    return SkuaBase


class BirdBinary(Dut):
    name = "bird"

    def binaries(self):
        return [shutil.which("bird") or "/usr/sbin/bird"]

    def version(self):
        return first_line([self.binaries()[0], "--version"])


class FrrBinary(Dut):
    name = "frr"

    def binaries(self):
        return [FRR_DIR + "/bgpd"]

    def version(self):
        return first_line([FRR_DIR + "/bgpd", "--version"]).replace("bgpd version ", "FRR ")


def frr_bgpd_config(local_as, router_id, neighbors, extra=""):
    """An FRR-style bgpd.conf (skua and FRR read the same): eBGP to each (address, AS) of
    neighbors, IPv4 unicast activated; `extra` lines go before the first neighbor."""
    lines = ["hostname dut", "router bgp %d" % local_as, " bgp router-id %s" % router_id]
    text = "\n".join(lines) + "\n" + extra
    text += "".join(" neighbor %s remote-as %d\n" % (addr, asn) for addr, asn in neighbors)
    text += " address-family ipv4 unicast\n"
    text += "".join("  neighbor %s activate\n" % addr for addr, _ in neighbors)
    return text + " exit-address-family\nexit\n"


def bird_config(router_id, protocols, kernel=False):
    """A BIRD 2 configuration: each (name, local address, local AS, neighbor, AS, ipv4
    channel) of protocols is a BGP protocol; with kernel, a kernel protocol exporting every
    route with its defaults (scan time 60 s, routes removed at shutdown)."""
    text = ("router id %s;\nlog stderr { warning, error, fatal, bug };\nprotocol device { }\n"
            % router_id)
    if kernel:
        text += "protocol kernel {\n  ipv4 { export all; };\n}\n"
    for name, local, local_as, addr, asn, channel in protocols:
        text += ("protocol bgp %s {\n  local %s as %d;\n  neighbor %s as %d;\n  ipv4 { %s };\n}\n"
                 % (name, local, local_as, addr, asn, channel))
    return text


# ---------------------------------------------------------------------------------------------
# bgp_blaster and the DUT's socket
# ---------------------------------------------------------------------------------------------

def blaster_argv(blaster, timeout, name, connect, bind, local_as, peer_as, rest):
    """bgp_blaster as `name`, connecting from bind to connect; rest: its role's options."""
    return [blaster, "--timeout", str(timeout), "--hold-time", "90", "--quiet", "--name", name,
            "--connect", connect, "--bind", bind, "--local-as", str(local_as), "--peer-as",
            str(peer_as)] + rest


def text_stdout(proc):
    """A text-mode reader over a Popen's binary stdout."""
    return io.TextIOWrapper(proc.stdout, encoding="utf-8", errors="replace")


class JsonReader(threading.Thread):
    """bgp_blaster's stdout, one JSON object a line, into a queue."""

    def __init__(self, stream, name):
        super().__init__(daemon=True)
        self.stream, self.name = stream, name
        self.events = queue.Queue()
        self.all = []

    def run(self):
        for line in self.stream:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            self.all.append(ev)
            self.events.put(ev)
        self.events.put({"event": "eof"})

    def wait_for(self, kinds, deadline):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                ev = self.events.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            if ev["event"] in kinds or ev["event"] == "eof":
                return ev


def first_update_time(inj_rd):
    """When the injector handed its first UPDATE to the kernel (CLOCK_MONOTONIC), from its
    events so far or its "sent" event within 5 s."""
    for e in inj_rd.all + [inj_rd.wait_for(("sent",), time.monotonic() + 5) or {}]:
        if e.get("t_first_update"):
            return e["t_first_update"]
    raise BenchError("the injector reported no first UPDATE time")


def wait_listening(ns, port, deadline, proc):
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError("the DUT exited (status %d) before listening" % proc.returncode)
        out = run(["ss", "-Hltn", "sport = :%d" % port], ns=ns, capture=True, check=False)
        if out and out.strip():
            return
        time.sleep(0.1)
    raise BenchError("the DUT does not listen on port %d" % port)


# ---------------------------------------------------------------------------------------------
# Process accounting from /proc
# ---------------------------------------------------------------------------------------------

def proc_status(pid):
    """VmRSS, VmHWM, RssAnon and RssFile in KiB, or None when the process is gone."""
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                    out[k] = int(v.split()[0])
    except OSError:
        return None
    return out


def _cpu_ticks(pid):
    """(user, system) clock ticks of every thread of pid, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]), int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def proc_cpu(pid):
    """User + system CPU seconds of every thread of pid."""
    t = _cpu_ticks(pid)
    return None if t is None else (t[0] + t[1]) / os.sysconf("SC_CLK_TCK")


def cpu_of(pids):
    """(user, system) CPU seconds of every thread of the processes, or None if one is gone.
    The kernel's work on routes sent over netlink is system time of the sender."""
    user = system = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        t = _cpu_ticks(pid)
        if t is None:
            return None
        user += t[0] / tick
        system += t[1] / tick
    return user, system


class RssSampler(threading.Thread):
    """VmRSS of pid every `interval` s as (seconds since t0, KiB) in .samples, until .halt is
    set or the process is gone."""

    def __init__(self, pid, t0, interval):
        super().__init__(daemon=True)
        self.pid, self.t0, self.interval = pid, t0, interval
        self.samples = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            st = proc_status(self.pid)
            if st is None:
                break
            self.samples.append((round(time.monotonic() - self.t0, 3), st.get("VmRSS", 0)))
            self.halt.wait(self.interval)


def mib(kib):
    return None if kib is None else kib / 1024.0


# ---------------------------------------------------------------------------------------------
# Driving and results
# ---------------------------------------------------------------------------------------------

def downsample(samples, most):
    """At most `most` (time, value) samples, evenly spaced, the peak always kept."""
    if len(samples) <= most:
        return samples
    step = len(samples) / float(most)
    keep = {int(i * step) for i in range(most)}
    keep.add(max(range(len(samples)), key=lambda i: samples[i][1]))
    keep.add(len(samples) - 1)
    return [samples[i] for i in sorted(keep)]


def add_table_args(p, duts, prefixes_help, quick_help, per_set_help):
    """The options both table benchmarks open with: the table, the DUTs, the binaries."""
    p.add_argument("--prefixes", type=int, default=1000000, help=prefixes_help)
    p.add_argument("--quick", action="store_true", help=quick_help)
    p.add_argument("--duts", default=duts,
                   help="comma-separated DUTs, in order (default %s)" % duts)
    p.add_argument("--repeat", type=int, default=1, help="runs per DUT (median reported)")
    p.add_argument("--build-dir", default=os.path.join(TOP, "build"),
                   help="skua build directory (default <repo>/build)")
    p.add_argument("--skua-bgpd", help="skua's bgpd (default BUILD_DIR/bgpd/bgpd)")
    p.add_argument("--skua-baseline", metavar="BGPD",
                   help="another skua bgpd, run as the DUT skua-base in the same invocation "
                        "(a change's before and after: --duts skua-base,skua)")
    p.add_argument("--blaster", help="bgp_blaster (default BUILD_DIR/bench/bgp_blaster)")
    p.add_argument("--per-set", type=int, default=100, help=per_set_help)


def add_output_args(p):
    """The options both table benchmarks close with: where results and logs go."""
    p.add_argument("--out-dir", default=os.path.join(HERE, "results"),
                   help="where the JSON and Markdown results go (default bench/results)")
    p.add_argument("--keep-logs", action="store_true",
                   help="keep the daemons' configurations and logs (path printed)")


def check_table_args(p, a, classes):
    """add_table_args' options checked and completed: --quick, the table's size, the
    binaries' default paths, the DUT list (names of classes)."""
    if a.quick:
        a.prefixes = 100000
    if a.prefixes < 1 or a.prefixes > 1 << 20:
        p.error("--prefixes must be between 1 and 1048576 (/24s of 16.0.0.0/4)")
    a.skua_bgpd = a.skua_bgpd or os.path.join(a.build_dir, "bgpd", "bgpd")
    a.blaster = a.blaster or os.path.join(a.build_dir, "bench", "bgp_blaster")
    a.duts = [d.strip() for d in a.duts.split(",") if d.strip()]
    for d in a.duts:
        if d not in classes:
            p.error("unknown DUT %s (known: %s)" % (d, ", ".join(classes)))
    if "skua-base" in a.duts and not a.skua_baseline:
        p.error("the DUT skua-base needs --skua-baseline BGPD")


def preflight(args):
    """0, or the exit status 2 after saying why the script cannot run (not root, no
    bgp_blaster)."""
    if os.geteuid() != 0:
        log("must run as root (network namespaces)")
        return 2
    if not os.access(args.blaster, os.X_OK):
        log("bgp_blaster not found at %s (build it: make bench/bgp_blaster, or --blaster)"
            % args.blaster)
        return 2
    return 0


def run_guarded(workdir_prefix, keep_logs, body):
    """body(workdir) in a fresh work directory, with SIGINT/SIGTERM/SIGHUP unwinding it; then
    every recorded process and namespace removed, and the directory unless keep_logs.
    Returns body's exit status, 130 when a signal stopped it, 2 after a BenchError."""
    install_signal_handlers()
    workdir = tempfile.mkdtemp(prefix=workdir_prefix)
    os.chmod(workdir, 0o755)
    try:
        return body(workdir)
    except Stop as e:
        log("stopped by %s" % e)
        return 130
    except BenchError as e:
        log(str(e))
        return 2
    finally:
        CLEAN.all()
        if not keep_logs:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log("logs kept in %s" % workdir)


def pick_duts(args, classes):
    """The DUTs of args.duts that can run, their versions, and why the others are skipped."""
    duts, versions, skipped = [], {}, {}
    for name in args.duts:
        d = classes[name](args)
        why = d.missing()
        if why:
            log("skipping %s: %s" % (name, why))
            skipped[name] = why
            continue
        versions[name] = d.version()
        duts.append(d)
    return duts, versions, skipped


Report = collections.namedtuple("Report", "summarise table stem settings heading")
Report.__doc__ = """How drive() reports a benchmark: summarise(results, DUT names) -> summary,
table(summary, versions, skipped) -> Markdown, the results files' stem, the settings that go
into "meta", heading(meta) -> the Markdown file's first line."""


def split_runs(results, name):
    """DUT name's measured runs and its failed ones."""
    return ([r for r in results if r["dut"] == name and r["ok"]],
            [r for r in results if r["dut"] == name and not r["ok"]])


def drive(args, argv, classes, workdir_prefix, runs, report):
    """A table benchmark from its parsed options to its results: preflight(), pick_duts(),
    runs(duts, versions, workdir, results) under run_guarded() (it appends one result dict a
    run and returns 0, or 1 when a run failed), then, if anything was measured, the report:
    report.summarise(results, dut names) and report.table(summary, versions, skipped) (printed
    and written) as the Report says.  Returns the exit status."""
    code = preflight(args)
    if code:
        return code
    duts, versions, skipped = pick_duts(args, classes)
    results = []
    code = run_guarded(workdir_prefix, args.keep_logs,
                       lambda workdir: runs(duts, versions, workdir, results))
    if not results:
        return code or 1
    summary = report.summarise(results, [d for d in args.duts if d not in skipped])
    md = report.table(summary, versions, skipped)
    print(md)
    meta = run_meta(argv, report.settings, versions, skipped)
    write_results(args.out_dir, report.stem, args.prefixes, meta, summary, results,
                  report.heading(meta), md)
    return code


def run_meta(argv, settings, versions, skipped):
    """The JSON's "meta": the command, the date, the script's settings, the machine."""
    meta = {"command": " ".join([sys.executable] + [os.path.abspath(sys.argv[0])] + argv),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %z")}
    meta.update(settings)
    meta.update({"kernel": os.uname().release, "cpus": os.cpu_count(), "versions": versions,
                 "skipped": skipped})
    return meta


def write_results(out_dir, stem, prefixes, meta, summary, results, heading, md):
    """<out_dir>/<stem>-<prefixes>-<date>.json (meta, summary, every run) and .md (heading,
    the table md, the command)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, "%s-%d-%s" % (stem, prefixes, stamp))
    with open(base + ".json", "w") as f:
        json.dump({"meta": meta, "summary": summary, "runs": results}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("%s\n\n%s\n\nCommand: `%s`\n" % (heading, md, meta["command"]))
    log("results: %s.json, %s.md" % (base, base))
    return base
