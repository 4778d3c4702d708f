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
import os
import shutil
import statistics
import subprocess
import sys
import time

import benchlib
from benchlib import BenchError, CLEAN, log

INJ_ADDR, DUT_INJ_ADDR = "192.0.2.1", "192.0.2.2"
SINK_ADDR, DUT_SINK_ADDR = "198.51.100.1", "198.51.100.2"
INJ_AS, DUT_AS, SINK_AS = 65001, 65000, 65002
DUT_ROUTER_ID = "192.0.2.2"


# ---------------------------------------------------------------------------------------------
# DUTs: one process each, started by start(ns), configured for both peers.
# ---------------------------------------------------------------------------------------------

def frr_style_config(extra=""):
    return benchlib.frr_bgpd_config(DUT_AS, DUT_ROUTER_ID,
                                    ((INJ_ADDR, INJ_AS), (SINK_ADDR, SINK_AS)), extra)


class Skua(benchlib.SkuaBinary):
    def start(self, ns):
        # RFC 8212: skua, like FRR, exchanges no eBGP routes without policy by default.
        # --no-fib: skua's bgpd installs its best routes in the kernel by default; here, as
        # FRR without zebra and BIRD without a kernel protocol, it does BGP work only
        # (bench/fib_install.py measures the FIB).
        conf = self.write("bgpd.conf", frr_style_config(" no bgp ebgp-requires-policy\n"))
        return self.spawn(self.bgpd_argv(conf, "--no-fib"), ns, "dut")


class Frr(benchlib.FrrBinary):
    def start(self, ns):
        # RFC 8212: FRR exchanges no eBGP routes without policy unless told not to.
        conf = self.write("bgpd.conf", frr_style_config(" no bgp ebgp-requires-policy\n"
                                                        " no bgp network import-check\n"))
        return self.spawn([self.binaries()[0], "-f", conf, "-Z", "-S", "-i",
                           os.path.join(self.rundir, "bgpd.pid"), "--vty_socket", self.rundir,
                           "-P", "0", "--log", "stdout", "--log-level", "warnings"], ns, "dut")


class Bird(benchlib.BirdBinary):
    def start(self, ns):
        everything = "import all; export all;"
        conf = self.write("bird.conf", benchlib.bird_config(DUT_ROUTER_ID, (
            ("inj", DUT_INJ_ADDR, DUT_AS, INJ_ADDR, INJ_AS, everything),
            ("sink", DUT_SINK_ADDR, DUT_AS, SINK_ADDR, SINK_AS, everything))))
        return self.spawn([self.binaries()[0], "-f", "-c", conf, "-s",
                           os.path.join(self.rundir, "bird.ctl"), "-P",
                           os.path.join(self.rundir, "bird.pid")], ns, "dut")


class GoBgp(benchlib.Dut):
    name = "gobgp"

    def binaries(self):
        return [shutil.which("gobgpd") or "/usr/bin/gobgpd"]

    def version(self):
        return benchlib.first_line([self.binaries()[0], "--version"]).replace(
            "gobgpd version", "GoBGP")

    def start(self, ns):
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
        return self.spawn([self.binaries()[0], "-f", conf, "-t", "toml", "--pprof-disable", "-l",
                           "warn", "-p", "--api-hosts", "127.0.0.1:50051"], ns, "dut")


DUTS = {"skua": Skua, "skua-base": benchlib.skua_baseline(Skua), "bird": Bird, "frr": Frr,
        "gobgp": GoBgp}


# ---------------------------------------------------------------------------------------------
# One measurement
# ---------------------------------------------------------------------------------------------

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


def blaster_argv(args, role):
    if role == "sink":
        return benchlib.blaster_argv(args.blaster, args.timeout, "sink", DUT_SINK_ADDR, SINK_ADDR,
                                     SINK_AS, DUT_AS, ["--expect", str(args.prefixes),
                                                       "--linger", "0", "--progress", "1"])
    return benchlib.blaster_argv(args.blaster, args.timeout, "injector", DUT_INJ_ADDR, INJ_ADDR,
                                 INJ_AS, DUT_AS, [
                                     "--inject", str(args.prefixes), "--per-set",
                                     str(args.per_set), "--order", args.order, "--path-len",
                                     str(args.path_len), "--communities", str(args.communities),
                                     "--linger", "-1"])


def measure(args, dut, nss, workdir, run_no):
    """One transfer through dut. Returns a result dict (ok False with `error` on failure)."""
    inj_ns, dut_ns, sink_ns = nss
    rundir = dut.new_run(workdir, run_no)
    res = {"dut": dut.name, "run": run_no, "prefixes": args.prefixes, "ok": False,
           "loadavg_before": os.getloadavg()[0]}
    procs = []
    sampler = None
    try:
        d = dut.start(dut_ns)
        procs.append(d)
        t_start = time.monotonic()
        benchlib.wait_listening(dut_ns, 179, t_start + 30, d)

        sink = benchlib.spawn(blaster_argv(args, "sink"), sink_ns,
                              os.path.join(rundir, "sink.log"), stdout=subprocess.PIPE)
        procs.append(sink)
        sink_rd = benchlib.JsonReader(benchlib.text_stdout(sink), "sink")
        sink_rd.start()
        ev = sink_rd.wait_for(("established", "result"), time.monotonic() + 60)
        if not ev or ev["event"] != "established":
            raise BenchError("the sink session did not come up: %s" % (ev,))

        sampler = benchlib.RssSampler(d.pid, time.monotonic(), args.sample_interval)
        sampler.start()
        inj = benchlib.spawn(blaster_argv(args, "injector"), inj_ns,
                             os.path.join(rundir, "inj.log"), stdout=subprocess.PIPE)
        procs.append(inj)
        inj_rd = benchlib.JsonReader(benchlib.text_stdout(inj), "injector")
        inj_rd.start()

        ev = wait_table(args, sink_rd, inj_rd)
        t_done = time.monotonic()
        if d.poll() is not None:
            raise BenchError("the DUT exited (status %d) during the transfer" % d.returncode)
        st = benchlib.proc_status(d.pid) or {}
        res["vmhwm_kib"] = st.get("VmHWM")
        res["vmrss_end_kib"] = st.get("VmRSS")
        res["cpu_s"] = benchlib.proc_cpu(d.pid)
        if not ev or ev["event"] != "reached":
            last = sink_rd.all[-1] if sink_rd.all else {}
            raise BenchError("the sink did not receive the table: %s (holding %s)" % (
                ev.get("why") if ev else "no answer",
                ev.get("count") if ev and "count" in ev else last.get("count")))
        first = benchlib.first_update_time(inj_rd)
        res["transfer_s"] = round(ev["t_last_prefix"] - first, 3)
        res["sink_first_rx_s"] = round(ev["t_first_rx_update"] - first, 3)
        res["sink_updates"] = ev["in_updates"]
        res["sink_bytes"] = ev["in_bytes"]
        res["ok"] = True
        # The DUT may still be busy (re-sending, releasing): note the memory a moment later.
        time.sleep(args.settle)
        st = benchlib.proc_status(d.pid) or {}
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
            res["rss_samples"] = benchlib.downsample(sampler.samples, 240)
            if sampler.samples:
                res["vmrss_peak_sampled_kib"] = max(s[1] for s in sampler.samples)
        for p in reversed(procs):
            CLEAN.release(p)
    return res


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def summarise(results, order):
    summary = {}
    for name in order:
        runs, failed = benchlib.split_runs(results, name)
        s = {"runs": len(runs), "failed": len(failed)}
        if runs:
            s["transfer_s"] = round(statistics.median(r["transfer_s"] for r in runs), 3)
            s["transfer_all_s"] = [r["transfer_s"] for r in runs]
            s["vmhwm_mib"] = round(statistics.median(benchlib.mib(r["vmhwm_kib"])
                                                     for r in runs), 1)
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
    benchlib.add_table_args(p, "skua,bird,frr,gobgp",
                            "IPv4 /24 prefixes in the table (default 1000000)", "100000 prefixes",
                            "prefixes per attribute set sent by the injector (default 100)")
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
    benchlib.add_output_args(p)
    a = p.parse_args(argv)
    benchlib.check_table_args(p, a, DUTS)
    if a.repeat < 1 or a.timeout <= 0:
        p.error("--repeat and --timeout must be positive")
    return a


def main(argv):
    args = parse_args(argv)

    def runs(duts, versions, workdir, results):
        dut_ns, (inj_ns, sink_ns) = benchlib.setup_netns("tt%d" % os.getpid(), (
            ("inj", INJ_ADDR, DUT_INJ_ADDR), ("sink", SINK_ADDR, DUT_SINK_ADDR)))
        log("%d prefixes, %d per attribute set (0..%d transit ASes, 0..%d communities), "
            "%s order; logs in %s" % (args.prefixes, args.per_set, args.path_len,
                                      args.communities, args.order, workdir))
        code = 0
        for r in range(1, args.repeat + 1):
            for d in duts:
                log("%s (%s), run %d/%d ..." % (d.name, versions[d.name], r, args.repeat))
                res = measure(args, d, (inj_ns, dut_ns, sink_ns), workdir, r)
                results.append(res)
                if res["ok"]:
                    log("  %.2f s, VmHWM %.0f MiB, CPU %.1f s" % (
                        res["transfer_s"], benchlib.mib(res["vmhwm_kib"]), res["cpu_s"] or 0))
                else:
                    code = 1
        return code

    report = benchlib.Report(
        summarise=summarise, table=table, stem="table_transfer",
        settings={"prefixes": args.prefixes, "per_set": args.per_set, "order": args.order,
                  "path_len": args.path_len, "communities": args.communities,
                  "repeat": args.repeat},
        heading=lambda meta: "Table transfer, %d IPv4 prefixes, %d per attribute set, %s (%s)"
                             % (args.prefixes, args.per_set, meta["date"], meta["kernel"]))
    return benchlib.drive(args, argv, DUTS, "skua-tt-", runs, report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
