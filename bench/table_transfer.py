#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Table transfer benchmark: skua against BIRD 2, FRR and GoBGP.

One IPv4 table (1,000,000 prefixes by default) goes from an injector through the device under
test (DUT) to a sink, over eBGP on both sides:

    injector (AS 65001)  --veth 192.0.2.0/24--  DUT (AS 65000)  --veth 198.51.100.0/24--  sink (AS 65002)
    ns <tag>-inj  192.0.2.1         192.0.2.2 ns <tag>-dut 198.51.100.2        198.51.100.1 ns <tag>-sink

Injector and sink are bench/bgp_blaster. For each DUT the script writes its configuration,
starts it, connects the sink, then the injector, and measures:
  - transfer time: from the injector handing its first UPDATE to the kernel to the sink
    holding every prefix (both CLOCK_MONOTONIC, from bgp_blaster's JSON lines);
  - the DUT's peak memory, VmHWM of its process at the end, and VmRSS sampled over time;
  - the DUT's CPU time (user + system, all threads).
Results: a table on stdout with ratios against BIRD, and JSON + Markdown files.

Run as root with /usr/bin/python3; see bench/README.md. Only the namespaces and processes this
script creates are touched; all of them are removed on exit, error or signal.
"""

import argparse
import io
import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

INJ_ADDR, DUT_INJ_ADDR = "192.0.2.1", "192.0.2.2"
SINK_ADDR, DUT_SINK_ADDR = "198.51.100.1", "198.51.100.2"
INJ_AS, DUT_AS, SINK_AS = 65001, 65000, 65002
DUT_ROUTER_ID = "192.0.2.2"
FRR_DIR = "/usr/lib/frr"


def log(msg):
    print("table_transfer: %s" % msg, file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


class Stop(BaseException):
    """Raised by the signal handler so that `finally` blocks clean up."""


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


def setup_netns(tag):
    inj, dut, sink = tag + "-inj", tag + "-dut", tag + "-sink"
    for ns in (inj, dut, sink):
        run(["ip", "netns", "add", ns])
        CLEAN.netns.append(ns)
        run(["ip", "link", "set", "lo", "up"], ns=ns)
    run(["ip", "link", "add", "name", "eth0", "netns", inj, "type", "veth", "peer", "name",
         "to-inj", "netns", dut])
    run(["ip", "link", "add", "name", "eth0", "netns", sink, "type", "veth", "peer", "name",
         "to-sink", "netns", dut])
    for ns, dev, addr in ((inj, "eth0", INJ_ADDR + "/24"), (dut, "to-inj", DUT_INJ_ADDR + "/24"),
                          (dut, "to-sink", DUT_SINK_ADDR + "/24"),
                          (sink, "eth0", SINK_ADDR + "/24")):
        run(["ip", "addr", "add", addr, "dev", dev], ns=ns)
        run(["ip", "link", "set", dev, "up"], ns=ns)
    # Links up before a daemon starts (BIRD only peers over an interface that is up).
    deadline = time.monotonic() + 10
    links = ((inj, "eth0"), (dut, "to-inj"), (dut, "to-sink"), (sink, "eth0"))
    while not all("state UP" in run(["ip", "-o", "link", "show", "dev", dev], ns=ns,
                                    capture=True) for ns, dev in links):
        if time.monotonic() > deadline:
            raise BenchError("the veth links do not come up")
        time.sleep(0.1)
    return inj, dut, sink


# ---------------------------------------------------------------------------------------------
# DUTs
# ---------------------------------------------------------------------------------------------

class Dut:
    name = "?"

    def __init__(self, args, rundir):
        self.args = args
        self.rundir = rundir

    def binary(self):
        raise NotImplementedError

    def missing(self):
        b = self.binary()
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            return "%s not found or not executable" % b
        return None

    def version(self):
        return "?"

    def argv(self):
        raise NotImplementedError

    def write(self, fname, text):
        path = os.path.join(self.rundir, fname)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path


def first_line(argv):
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=10)
        lines = [l for l in r.stdout.splitlines() if l.strip()]
        return lines[0].strip() if lines else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


FRR_STYLE = """hostname dut
router bgp {dut_as}
 bgp router-id {rid}
{extra} neighbor {inj} remote-as {inj_as}
 neighbor {sink} remote-as {sink_as}
 address-family ipv4 unicast
  neighbor {inj} activate
  neighbor {sink} activate
 exit-address-family
exit
"""


def frr_style_config(extra=""):
    return FRR_STYLE.format(dut_as=DUT_AS, rid=DUT_ROUTER_ID, inj=INJ_ADDR, inj_as=INJ_AS,
                            sink=SINK_ADDR, sink_as=SINK_AS, extra=extra)


class Skua(Dut):
    name = "skua"

    def binary(self):
        return self.args.skua_bgpd

    def version(self):
        return first_line([self.binary(), "--version"])

    def argv(self):
        # RFC 8212: skua, like FRR, exchanges no eBGP routes without policy by default.
        # --no-fib: skua's bgpd installs its best routes in the kernel by default; here, as
        # FRR without zebra and BIRD without a kernel protocol, it does BGP work only
        # (bench/fib_install.py measures the FIB).
        conf = self.write("bgpd.conf", frr_style_config(" no bgp ebgp-requires-policy\n"))
        return [self.binary(), "-f", conf, "--vty-socket", os.path.join(self.rundir, "bgpd.vty"),
                "--no-fib"]


class Frr(Dut):
    name = "frr"

    def binary(self):
        return FRR_DIR + "/bgpd"

    def version(self):
        v = first_line([self.binary(), "--version"])
        return v.replace("bgpd version ", "FRR ")

    def argv(self):
        # RFC 8212: FRR exchanges no eBGP routes without policy unless told not to.
        conf = self.write("bgpd.conf", frr_style_config(" no bgp ebgp-requires-policy\n"
                                                        " no bgp network import-check\n"))
        return [self.binary(), "-f", conf, "-Z", "-S", "-i", os.path.join(self.rundir, "bgpd.pid"),
                "--vty_socket", self.rundir, "-P", "0", "--log", "stdout",
                "--log-level", "warnings"]


class Bird(Dut):
    name = "bird"

    def binary(self):
        return shutil.which("bird") or "/usr/sbin/bird"

    def version(self):
        return first_line([self.binary(), "--version"])

    def argv(self):
        conf = self.write("bird.conf", """router id {rid};
log stderr {{ warning, error, fatal, bug }};
protocol device {{ }}
protocol bgp inj {{
  local {dinj} as {dut_as};
  neighbor {inj} as {inj_as};
  ipv4 {{ import all; export all; }};
}}
protocol bgp sink {{
  local {dsink} as {dut_as};
  neighbor {sink} as {sink_as};
  ipv4 {{ import all; export all; }};
}}
""".format(rid=DUT_ROUTER_ID, dinj=DUT_INJ_ADDR, dut_as=DUT_AS, inj=INJ_ADDR, inj_as=INJ_AS,
           dsink=DUT_SINK_ADDR, sink=SINK_ADDR, sink_as=SINK_AS))
        return [self.binary(), "-f", "-c", conf, "-s", os.path.join(self.rundir, "bird.ctl"),
                "-P", os.path.join(self.rundir, "bird.pid")]


class GoBgp(Dut):
    name = "gobgp"

    def binary(self):
        return shutil.which("gobgpd") or "/usr/bin/gobgpd"

    def version(self):
        return first_line([self.binary(), "--version"]).replace("gobgpd version", "GoBGP")

    def argv(self):
        neigh = ""
        for addr, asn in ((INJ_ADDR, INJ_AS), (SINK_ADDR, SINK_AS)):
            neigh += """
[[neighbors]]
  [neighbors.config]
    neighbor-address = "{addr}"
    peer-as = {asn}
  [[neighbors.afi-safis]]
    [neighbors.afi-safis.config]
      afi-safi-name = "ipv4-unicast"
""".format(addr=addr, asn=asn)
        conf = self.write("gobgpd.toml", """[global.config]
  as = {dut_as}
  router-id = "{rid}"
  port = 179

[global.apply-policy.config]
  default-import-policy = "accept-route"
  default-export-policy = "accept-route"
{neigh}""".format(dut_as=DUT_AS, rid=DUT_ROUTER_ID, neigh=neigh))
        return [self.binary(), "-f", conf, "-t", "toml", "--pprof-disable", "-l", "warn", "-p",
                "--api-hosts", "127.0.0.1:50051"]


DUTS = {"skua": Skua, "bird": Bird, "frr": Frr, "gobgp": GoBgp}


# ---------------------------------------------------------------------------------------------
# One measurement
# ---------------------------------------------------------------------------------------------

def proc_status(pid):
    """VmRSS and VmHWM in KiB, or None when the process is gone."""
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0])
    except OSError:
        return None
    return out


def proc_cpu(pid):
    """User + system CPU seconds of every thread of pid."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Sampler(threading.Thread):
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


def wait_table(args, sink_rd, inj_rd):
    """The sink's "reached" (or "result") event; None on a stall or the timeout. A stall:
    the injector has sent everything and the sink's count has not moved for --stall s."""
    deadline = time.monotonic() + args.timeout + 10
    last_count, last_change = None, time.monotonic()
    while time.monotonic() < deadline:
        ev = sink_rd.wait_for(("reached", "result", "progress"), min(deadline,
                                                                   time.monotonic() + 1))
        now = time.monotonic()
        if ev and ev["event"] in ("reached", "result", "eof"):
            return ev
        if ev and ev.get("count") != last_count:
            last_count, last_change = ev.get("count"), now
        sent_all = any(e.get("event") == "sent" for e in inj_rd.all)
        if sent_all and now - last_change > args.stall:
            return {"event": "stalled", "count": last_count,
                    "why": "no progress for %.0f s after the injector sent everything"
                           % args.stall}
    return None


def wait_listening(ns, port, deadline, proc):
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError("the DUT exited (status %d) before listening" % proc.returncode)
        out = run(["ss", "-Hltn", "sport = :%d" % port], ns=ns, capture=True, check=False)
        if out and out.strip():
            return
        time.sleep(0.1)
    raise BenchError("the DUT does not listen on port %d" % port)


def blaster_argv(args, role):
    common = [args.blaster, "--timeout", str(args.timeout), "--hold-time", "90", "--quiet"]
    if role == "sink":
        return common + ["--name", "sink", "--connect", DUT_SINK_ADDR, "--bind", SINK_ADDR,
                         "--local-as", str(SINK_AS), "--peer-as", str(DUT_AS),
                         "--expect", str(args.prefixes), "--linger", "0", "--progress", "1"]
    return common + ["--name", "injector", "--connect", DUT_INJ_ADDR, "--bind", INJ_ADDR,
                     "--local-as", str(INJ_AS), "--peer-as", str(DUT_AS),
                     "--inject", str(args.prefixes), "--per-set", str(args.per_set),
                     "--order", args.order, "--path-len", str(args.path_len),
                     "--communities", str(args.communities), "--linger", "-1"]


def measure(args, dut, nss, workdir, run_no):
    """One transfer through dut. Returns a result dict (ok False with `error` on failure)."""
    inj_ns, dut_ns, sink_ns = nss
    rundir = os.path.join(workdir, "%s-%d" % (dut.name, run_no))
    os.makedirs(rundir)
    os.chmod(rundir, 0o755)
    dut.rundir = rundir
    res = {"dut": dut.name, "run": run_no, "prefixes": args.prefixes, "ok": False,
           "loadavg_before": os.getloadavg()[0]}
    procs = []
    sampler = None
    try:
        d = spawn(dut.argv(), dut_ns, os.path.join(rundir, "dut.log"))
        procs.append(d)
        t_start = time.monotonic()
        wait_listening(dut_ns, 179, t_start + 30, d)

        sink = spawn(blaster_argv(args, "sink"), sink_ns, os.path.join(rundir, "sink.log"),
                     stdout=subprocess.PIPE)
        procs.append(sink)
        sink_rd = JsonReader(_text(sink), "sink")
        sink_rd.start()
        ev = sink_rd.wait_for(("established", "result"), time.monotonic() + 60)
        if not ev or ev["event"] != "established":
            raise BenchError("the sink session did not come up: %s" % (ev,))

        sampler = Sampler(d.pid, time.monotonic(), args.sample_interval)
        sampler.start()
        inj = spawn(blaster_argv(args, "injector"), inj_ns, os.path.join(rundir, "inj.log"),
                    stdout=subprocess.PIPE)
        procs.append(inj)
        inj_rd = JsonReader(_text(inj), "injector")
        inj_rd.start()

        ev = wait_table(args, sink_rd, inj_rd)
        t_done = time.monotonic()
        if d.poll() is not None:
            raise BenchError("the DUT exited (status %d) during the transfer" % d.returncode)
        st = proc_status(d.pid) or {}
        res["vmhwm_kib"] = st.get("VmHWM")
        res["vmrss_end_kib"] = st.get("VmRSS")
        res["cpu_s"] = proc_cpu(d.pid)
        if not ev or ev["event"] != "reached":
            last = sink_rd.all[-1] if sink_rd.all else {}
            raise BenchError("the sink did not receive the table: %s (holding %s)" % (
                ev.get("why") if ev else "no answer",
                ev.get("count") if ev and "count" in ev else last.get("count")))
        first = None
        for e in inj_rd.all + [inj_rd.wait_for(("sent",), time.monotonic() + 5) or {}]:
            if e.get("t_first_update"):
                first = e["t_first_update"]
                break
        if first is None:
            raise BenchError("the injector reported no first UPDATE time")
        res["transfer_s"] = round(ev["t_last_prefix"] - first, 3)
        res["sink_first_rx_s"] = round(ev["t_first_rx_update"] - first, 3)
        res["sink_updates"] = ev["in_updates"]
        res["sink_bytes"] = ev["in_bytes"]
        res["ok"] = True
        # The DUT may still be busy (re-sending, releasing): note the memory a moment later.
        time.sleep(args.settle)
        st = proc_status(d.pid) or {}
        res["vmhwm_kib"] = max(res["vmhwm_kib"] or 0, st.get("VmHWM") or 0)
        res["wall_s"] = round(t_done - t_start, 3)
        res["loadavg_after"] = os.getloadavg()[0]
    except BenchError as e:
        res["error"] = str(e)
        log("%s run %d: %s (logs in %s)" % (dut.name, run_no, e, rundir))
    finally:
        if sampler:
            sampler.halt.set()
            sampler.join(2)
            res["rss_samples"] = downsample(sampler.samples, 240)
            if sampler.samples:
                res["vmrss_peak_sampled_kib"] = max(s[1] for s in sampler.samples)
        for p in reversed(procs):
            CLEAN.stop_proc(p)
            if p in CLEAN.procs:
                CLEAN.procs.remove(p)
    return res


def downsample(samples, most):
    """At most `most` (time, KiB) samples, evenly spaced, the peak always kept."""
    if len(samples) <= most:
        return samples
    step = len(samples) / float(most)
    keep = {int(i * step) for i in range(most)}
    keep.add(max(range(len(samples)), key=lambda i: samples[i][1]))
    keep.add(len(samples) - 1)
    return [samples[i] for i in sorted(keep)]


def _text(proc):
    """A text-mode reader over a Popen's binary stdout."""
    return io.TextIOWrapper(proc.stdout, encoding="utf-8", errors="replace")


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def mib(kib):
    return None if kib is None else kib / 1024.0


def summarise(results, order):
    summary = {}
    for name in order:
        runs = [r for r in results if r["dut"] == name and r["ok"]]
        failed = [r for r in results if r["dut"] == name and not r["ok"]]
        s = {"runs": len(runs), "failed": len(failed)}
        if runs:
            s["transfer_s"] = round(statistics.median(r["transfer_s"] for r in runs), 3)
            s["transfer_all_s"] = [r["transfer_s"] for r in runs]
            s["vmhwm_mib"] = round(statistics.median(mib(r["vmhwm_kib"]) for r in runs), 1)
            cpus = [r["cpu_s"] for r in runs if r.get("cpu_s") is not None]
            s["cpu_s"] = round(statistics.median(cpus), 2) if cpus else None
        if failed:
            s["errors"] = [r.get("error") for r in failed]
        summary[name] = s
    base = summary.get("bird", {})
    for name, s in summary.items():
        if base.get("runs") and s.get("runs"):
            s["time_vs_bird"] = round(s["transfer_s"] / base["transfer_s"], 2)
            s["mem_vs_bird"] = round(s["vmhwm_mib"] / base["vmhwm_mib"], 2)
    return summary


def table(summary, versions, skipped):
    rows = ["| DUT | version | transfer time (s) | VmHWM (MiB) | CPU (s) | time vs BIRD "
            "| memory vs BIRD | runs |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, s in summary.items():
        if not s["runs"]:
            rows.append("| %s | %s | %s | | | | | 0/%d |" % (
                name, versions.get(name, "?"), "failed" if s["failed"] else "not run",
                s["failed"]))
            continue
        rows.append("| %s | %s | %.2f | %.0f | %s | %s | %s | %d/%d |" % (
            name, versions.get(name, "?"), s["transfer_s"], s["vmhwm_mib"],
            "%.1f" % s["cpu_s"] if s.get("cpu_s") is not None else "?",
            "%.2f" % s["time_vs_bird"] if "time_vs_bird" in s else "-",
            "%.2f" % s["mem_vs_bird"] if "mem_vs_bird" in s else "-",
            s["runs"], s["runs"] + s["failed"]))
    for name, why in skipped.items():
        rows.append("| %s | skipped: %s | | | | | | |" % (name, why))
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Table transfer benchmark: injector -> DUT -> sink over eBGP, for skua, "
                    "BIRD, FRR and GoBGP. Root; creates and removes its own namespaces.")
    p.add_argument("--prefixes", type=int, default=1000000,
                   help="IPv4 /24 prefixes in the table (default 1000000)")
    p.add_argument("--quick", action="store_true", help="100000 prefixes")
    p.add_argument("--duts", default="skua,bird,frr,gobgp",
                   help="comma-separated DUTs, in order (default skua,bird,frr,gobgp)")
    p.add_argument("--repeat", type=int, default=1, help="runs per DUT (median reported)")
    p.add_argument("--build-dir", default=os.path.join(TOP, "build"),
                   help="skua build directory (default <repo>/build)")
    p.add_argument("--skua-bgpd", help="skua's bgpd (default BUILD_DIR/bgpd/bgpd)")
    p.add_argument("--blaster", help="bgp_blaster (default BUILD_DIR/bench/bgp_blaster)")
    p.add_argument("--per-set", type=int, default=100,
                   help="prefixes per attribute set sent by the injector (default 100)")
    p.add_argument("--path-len", type=int, default=0,
                   help="0..N extra transit ASes per attribute set (default 0)")
    p.add_argument("--communities", type=int, default=0,
                   help="0..N communities per attribute set (default 0)")
    p.add_argument("--order", choices=("sequential", "random"), default="sequential",
                   help="order in which the injector sends the prefixes")
    p.add_argument("--timeout", type=float, default=900,
                   help="bound on one transfer in seconds (default 900: GoBGP needs 4-5 "
                        "minutes for a million prefixes here)")
    p.add_argument("--stall", type=float, default=60,
                   help="give up on a run when the sink's count has not moved for this many "
                        "seconds after the injector sent everything (default 60)")
    p.add_argument("--settle", type=float, default=1.0,
                   help="seconds to wait after the transfer before the last VmHWM reading")
    p.add_argument("--sample-interval", type=float, default=0.25,
                   help="VmRSS sampling interval in seconds (default 0.25)")
    p.add_argument("--out-dir", default=os.path.join(HERE, "results"),
                   help="where the JSON and Markdown results go (default bench/results)")
    p.add_argument("--keep-logs", action="store_true",
                   help="keep the daemons' configurations and logs (path printed)")
    a = p.parse_args(argv)
    if a.quick:
        a.prefixes = 100000
    if a.prefixes < 1 or a.prefixes > 1 << 20:
        p.error("--prefixes must be between 1 and 1048576 (/24s of 16.0.0.0/4)")
    if a.repeat < 1 or a.timeout <= 0:
        p.error("--repeat and --timeout must be positive")
    a.skua_bgpd = a.skua_bgpd or os.path.join(a.build_dir, "bgpd", "bgpd")
    a.blaster = a.blaster or os.path.join(a.build_dir, "bench", "bgp_blaster")
    a.duts = [d.strip() for d in a.duts.split(",") if d.strip()]
    for d in a.duts:
        if d not in DUTS:
            p.error("unknown DUT %s (known: %s)" % (d, ", ".join(DUTS)))
    return a


def on_signal(sig, frame):
    raise Stop("signal %d" % sig)


def main(argv):
    args = parse_args(argv)
    if os.geteuid() != 0:
        log("must run as root (network namespaces)")
        return 2
    if not os.access(args.blaster, os.X_OK):
        log("bgp_blaster not found at %s (build it: make bench/bgp_blaster, or --blaster)"
            % args.blaster)
        return 2
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)

    workdir = tempfile.mkdtemp(prefix="skua-tt-")
    os.chmod(workdir, 0o755)
    tag = "tt%d" % os.getpid()
    results, versions, skipped = [], {}, {}
    code = 0
    try:
        duts = []
        for name in args.duts:
            d = DUTS[name](args, workdir)
            why = d.missing()
            if why:
                log("skipping %s: %s" % (name, why))
                skipped[name] = why
                continue
            versions[name] = d.version()
            duts.append(d)
        nss = setup_netns(tag)
        log("%d prefixes, %d per attribute set (0..%d transit ASes, 0..%d communities), "
            "%s order; logs in %s" % (args.prefixes, args.per_set, args.path_len,
                                      args.communities, args.order, workdir))
        for r in range(1, args.repeat + 1):
            for d in duts:
                log("%s (%s), run %d/%d ..." % (d.name, versions[d.name], r, args.repeat))
                res = measure(args, d, nss, workdir, r)
                results.append(res)
                if res["ok"]:
                    log("  %.2f s, VmHWM %.0f MiB, CPU %.1f s" % (
                        res["transfer_s"], mib(res["vmhwm_kib"]), res["cpu_s"] or 0))
                else:
                    code = 1
    except Stop as e:
        log("stopped by %s" % e)
        code = 130
    except BenchError as e:
        log(str(e))
        code = 2
    finally:
        CLEAN.all()
        if not args.keep_logs:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log("logs kept in %s" % workdir)

    if not results:
        return code or 1
    summary = summarise(results, [d for d in args.duts if d not in skipped])
    md = table(summary, versions, skipped)
    print(md)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    os.makedirs(args.out_dir, exist_ok=True)
    base = os.path.join(args.out_dir, "table_transfer-%d-%s" % (args.prefixes, stamp))
    meta = {
        "command": " ".join([sys.executable] + [os.path.abspath(sys.argv[0])] + argv),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "prefixes": args.prefixes, "per_set": args.per_set, "order": args.order,
        "path_len": args.path_len, "communities": args.communities,
        "repeat": args.repeat, "kernel": os.uname().release, "cpus": os.cpu_count(),
        "versions": versions, "skipped": skipped,
    }
    with open(base + ".json", "w") as f:
        json.dump({"meta": meta, "summary": summary, "runs": results}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("Table transfer, %d IPv4 prefixes, %d per attribute set, %s (%s)\n\n%s\n\n"
                "Command: `%s`\n" % (args.prefixes, args.per_set, meta["date"],
                                     meta["kernel"], md, meta["command"]))
    log("results: %s.json, %s.md" % (base, base))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
