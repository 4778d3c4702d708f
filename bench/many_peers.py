#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Many-peer benchmark (issue 15): skua against BIRD 2 and FRR, in one invocation.

Two cases, each run on a freshly started DUT (AS 65000):

  fan-out   one feeder (bgp_blaster --inject N) and C collectors (bgp_blaster --expect N), for
            each C of --collectors (default 1 and 20): every collector receives the same table.
            An extra collector should cost the DUT its socket writes, not per-prefix work: the
            C/1 ratio of CPU and time is printed per DUT.
  mesh      P peers (default 50) each announcing M prefixes of its own (default 20,000) and
            expecting the (P - 1) x M of the others: all sent to all.

    feeder AS 65001  198.51.100.1 --veth-- 198.51.100.2  DUT  192.0.2.254 --veth-- 192.0.2.1..K
    ns <tag>-feed                              ns <tag>-dut             ns <tag>-peers (AS 65100+k)

Collectors and mesh peers share one namespace and one veth, one address each (192.0.2.k/24,
k = 1..K, AS 65100 + k). Measured per run:
  - time: from the first UPDATE an injector handed to the kernel to the last peer holding
    everything it expects (bgp_blaster's CLOCK_MONOTONIC timestamps), and to the first one;
  - CPU: user + system seconds of the DUT from the moment the injectors start (the session
    set-up before it is left out). The firm figure: the C sinks are C processes on the same
    cores as the DUT, so with many collectors the time measures the machine as much as the DUT;
  - memory: the DUT's VmHWM at the end, VmRSS sampled over the run (in the JSON).

Run as root with /usr/bin/python3 (bench/README.md, "Many peers"). Only the namespaces and
processes this script creates are touched; all of them are removed on exit, error or signal.
"""

import argparse
import ipaddress
import os
import statistics
import subprocess
import sys
import time

import benchlib
from benchlib import BenchError, CLEAN, log

FEED_ADDR, DUT_FEED_ADDR = "198.51.100.1", "198.51.100.2"
DUT_PEERS_ADDR = "192.0.2.254"
FEED_AS, DUT_AS, PEER_AS_BASE = 65001, 65000, 65100
DUT_ROUTER_ID = DUT_PEERS_ADDR
MAX_PEERS = 200  # 192.0.2.1 .. 192.0.2.200
TABLE_START = ipaddress.IPv4Address("16.0.0.0")


def peer_addr(k):
    return "192.0.2.%d" % k


class Neighbor:
    """One of the DUT's neighbours: address, AS, the DUT's address towards it, a name."""

    def __init__(self, addr, asn, dut_addr, name):
        self.addr, self.asn, self.dut_addr, self.name = addr, asn, dut_addr, name


def feeder():
    return Neighbor(FEED_ADDR, FEED_AS, DUT_FEED_ADDR, "feed")


def peers(count):
    return [Neighbor(peer_addr(k), PEER_AS_BASE + k, DUT_PEERS_ADDR, "p%d" % k)
            for k in range(1, count + 1)]


# ---------------------------------------------------------------------------------------------
# DUTs: start(ns, neighbors) with eBGP to every neighbour, everything accepted and exported.
# ---------------------------------------------------------------------------------------------

def frr_style(neighbors, extra):
    return benchlib.frr_bgpd_config(DUT_AS, DUT_ROUTER_ID, [(n.addr, n.asn) for n in neighbors],
                                    extra)


class Skua(benchlib.SkuaBinary):
    def start(self, ns, neighbors):
        # As in table_transfer.py: no RFC 8212 default deny, no kernel FIB.
        conf = self.write("bgpd.conf", frr_style(neighbors, " no bgp ebgp-requires-policy\n"))
        return self.spawn(self.bgpd_argv(conf, "--no-fib"), ns, "dut")


class Frr(benchlib.FrrBinary):
    def start(self, ns, neighbors):
        # Passive: the peers always connect. FRR 8.4 connecting out to 50 peers while they
        # connect in dropped some sessions after they came up ("Neighbor failed in
        # xfer_conn"), and the mesh run failed.
        text = frr_style(neighbors, " no bgp ebgp-requires-policy\n"
                                    " no bgp network import-check\n")
        text = text.replace(" address-family ipv4 unicast\n", "".join(
            " neighbor %s passive\n" % n.addr for n in neighbors)
            + " address-family ipv4 unicast\n", 1)
        conf = self.write("bgpd.conf", text)
        return self.spawn([self.binaries()[0], "-f", conf, "-Z", "-S", "-i",
                           os.path.join(self.rundir, "bgpd.pid"), "--vty_socket", self.rundir,
                           "-P", "0", "--log", "stdout", "--log-level", "warnings"], ns, "dut")


class Bird(benchlib.BirdBinary):
    def start(self, ns, neighbors):
        everything = "import all; export all;"
        conf = self.write("bird.conf", benchlib.bird_config(DUT_ROUTER_ID, [
            (n.name, n.dut_addr, DUT_AS, n.addr, n.asn, everything) for n in neighbors]))
        return self.spawn([self.binaries()[0], "-f", "-c", conf, "-s",
                           os.path.join(self.rundir, "bird.ctl"), "-P",
                           os.path.join(self.rundir, "bird.pid")], ns, "dut")


DUTS = {"skua": Skua, "skua-base": benchlib.skua_baseline(Skua), "bird": Bird, "frr": Frr}


# ---------------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------------

class Case:
    """What one run sets up: the DUT's neighbours and each blaster's role options."""

    def __init__(self, label, kind, neighbors, roles):
        self.label, self.kind, self.neighbors, self.roles = label, kind, neighbors, roles


def inject_opts(args, count, start):
    return ["--inject", str(count), "--start", "%s/24" % start, "--per-set", str(args.per_set),
            "--path-len", str(args.path_len), "--communities", str(args.communities)]


def expect_opts(args, count):
    return (["--expect", str(count), "--progress", "1"]
            + (["--raw-count"] if args.raw_count else []))


def fanout_case(args, collectors):
    """The feeder injects the table and stays; each collector expects all of it, and stays
    too: one that left early would have the DUT clean up after it while the others are still
    being served."""
    cols = peers(collectors)
    roles = [(feeder(), inject_opts(args, args.prefixes, TABLE_START) + ["--linger", "-1"])]
    roles += [(n, expect_opts(args, args.prefixes) + ["--linger", "-1"]) for n in cols]
    return Case("fanout-%d" % collectors, "fanout", [feeder()] + cols, roles)


def mesh_case(args):
    """Peer k announces M prefixes from 16.0.0.0 + (k - 1) x M /24s and expects the others'.
    Every peer lingers: one that left would take its routes from the others."""
    ps = peers(args.mesh_peers)
    m = args.mesh_prefixes
    roles = [(n, inject_opts(args, m, TABLE_START + k * m * 256)
              + expect_opts(args, (len(ps) - 1) * m) + ["--linger", "-1"])
             for k, n in enumerate(ps)]
    return Case("mesh-%dx%d" % (args.mesh_peers, m), "mesh", ps, roles)


def cases(args):
    out = [fanout_case(args, c) for c in args.collectors]
    if args.mesh_peers:
        out.append(mesh_case(args))
    return out


# ---------------------------------------------------------------------------------------------
# One measurement
# ---------------------------------------------------------------------------------------------

def last_event(reader, kinds):
    for ev in reversed(reader.all):
        if ev.get("event") in kinds:
            return ev
    return None


def wait_all(readers, deadline, what):
    """Every reader's first event of `what` (a tuple of kinds), or BenchError naming who
    is missing; a reader's end (eof, result) before it is an error too."""
    while True:
        missing = [r.name for r in readers if not last_event(r, what)]
        if not missing:
            return [last_event(r, what) for r in readers]
        ended = [r.name for r in readers if r.name in missing and last_event(r, ("eof",
                                                                                  "result"))]
        if ended:
            raise BenchError("%s ended before %s" % (", ".join(ended[:5]), "/".join(what)))
        if time.monotonic() > deadline:
            raise BenchError("no %s from %d peers (%s...) in time"
                             % ("/".join(what), len(missing), ", ".join(missing[:5])))
        time.sleep(0.1)


def wait_tables(args, sinks, injectors):
    """Every sink's "reached" event. Fails on the timeout, on a sink that ends first, and on a
    stall: every injector has sent everything and no sink's count has moved for --stall s."""
    deadline = time.monotonic() + args.timeout
    counts, last_change = None, time.monotonic()
    while True:
        done = [last_event(r, ("reached",)) for r in sinks]
        if all(done):
            return done
        ended = [r for r, d in zip(sinks, done) if not d and last_event(r, ("result", "eof"))]
        if ended:
            why = (last_event(ended[0], ("result",)) or {}).get("why", "no result line")
            raise BenchError("%s ended without the table (%s: %s)" % (
                ", ".join(r.name for r in ended[:5]), ended[0].name, why))
        now = time.monotonic()
        now_counts = [(last_event(r, ("progress",)) or {}).get("count") for r in sinks]
        if now_counts != counts:
            counts, last_change = now_counts, now
        sent_all = all(last_event(r, ("sent",)) for r in injectors)
        if sent_all and now - last_change > args.stall:
            raise BenchError("no progress for %.0f s after the injectors sent everything "
                             "(counts %s)" % (args.stall, sorted(c or 0 for c in counts)[:5]))
        if now > deadline:
            raise BenchError("timeout: the sinks hold %s" % sorted(c or 0 for c in now_counts))
        time.sleep(0.1)


def blaster(args, n, opts):
    return benchlib.blaster_argv(args.blaster, args.timeout + 60, n.name, n.dut_addr, n.addr,
                                 n.asn, DUT_AS, opts)


def start_blasters(args, roles, ns_of, rundir):
    readers = []
    for n, opts in roles:
        p = benchlib.spawn(blaster(args, n, opts), ns_of(n), os.path.join(rundir, n.name + ".log"),
                           stdout=subprocess.PIPE)
        r = benchlib.JsonReader(benchlib.text_stdout(p), n.name)
        r.proc = p
        r.start()
        readers.append(r)
    return readers


def measure(args, dut, case, nss, workdir, run_no):
    """One run of case through dut: a result dict (ok False with `error` on failure)."""
    dut_ns, feed_ns, peers_ns = nss
    rundir = dut.new_run(os.path.join(workdir, case.label), run_no)
    res = {"dut": dut.name, "case": case.label, "kind": case.kind, "run": run_no, "ok": False,
           "peers": len(case.neighbors), "loadavg_before": os.getloadavg()[0]}
    readers, sampler = [], None
    ns_of = (lambda n: feed_ns if n.addr == FEED_ADDR else peers_ns)
    try:
        d = dut.start(dut_ns, case.neighbors)
        benchlib.wait_listening(dut_ns, 179, time.monotonic() + 30, d)
        injecting = [(n, o) for n, o in case.roles if "--inject" in o]
        only_sinks = [(n, o) for n, o in case.roles if "--inject" not in o]
        # Fan-out: the collectors are up before the table comes. Mesh: every peer at once,
        # the CPU counted from there.
        readers = start_blasters(args, only_sinks, ns_of, rundir)
        wait_all(readers, time.monotonic() + 60, ("established",))
        cpu0 = benchlib.proc_cpu(d.pid)
        sampler = benchlib.RssSampler(d.pid, time.monotonic(), args.sample_interval)
        sampler.start()
        inj = start_blasters(args, injecting, ns_of, rundir)
        readers += inj
        sinks = [r for r, (n, o) in zip(readers, only_sinks + injecting) if "--expect" in o]
        reached = wait_tables(args, sinks, inj)
        if d.poll() is not None:
            raise BenchError("the DUT exited (status %d) during the run" % d.returncode)
        res["cpu_s"] = round(benchlib.proc_cpu(d.pid) - cpu0, 2)  # before anyone leaves
        first = min(benchlib.first_update_time(r) for r in inj)
        last_prefix = [ev["t_last_prefix"] for ev in reached]
        res["time_s"] = round(max(last_prefix) - first, 4)
        res["first_peer_s"] = round(min(last_prefix) - first, 4)
        res["sink_updates"] = sum(ev.get("in_updates", 0) for ev in reached)
        res["established_spread_s"] = round(
            max(last_event(r, ("established",))["t"] for r in readers)
            - min(last_event(r, ("established",))["t"] for r in readers), 3)
        time.sleep(args.settle)  # the DUT may still be releasing: its peak a moment later
        st = benchlib.proc_status(d.pid) or {}
        res["vmhwm_kib"] = st.get("VmHWM")
        res["vmrss_end_kib"] = st.get("VmRSS")
        res["loadavg_after"] = os.getloadavg()[0]
        res["ok"] = True
    except BenchError as e:
        res["error"] = str(e)
        log("%s %s run %d: %s (logs in %s)" % (dut.name, case.label, run_no, e, rundir))
    finally:
        if sampler:
            sampler.halt.set()
            sampler.join(2)
            res["rss_samples"] = benchlib.downsample(sampler.samples, 240)
        for r in readers:
            CLEAN.release(r.proc, grace=2.0)
        for p in dut.procs:
            CLEAN.release(p)
    return res


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def summarise(results, order):
    """Per DUT and case: medians of time, CPU and VmHWM; ratios to BIRD on the same case; per
    DUT, each fan-out's time and CPU over the single-collector run's."""
    summary = {}
    for name in order:
        per_case = {}
        for case in dict.fromkeys(r["case"] for r in results if r["dut"] == name):
            runs = [r for r in results if r["dut"] == name and r["case"] == case and r["ok"]]
            failed = [r for r in results if r["dut"] == name and r["case"] == case
                      and not r["ok"]]
            s = {"runs": len(runs), "failed": len(failed)}
            if runs:
                for key in ("time_s", "first_peer_s", "cpu_s"):
                    s[key] = round(statistics.median(r[key] for r in runs), 4)
                s["time_all_s"] = [r["time_s"] for r in runs]
                s["vmhwm_mib"] = round(statistics.median(benchlib.mib(r["vmhwm_kib"])
                                                         for r in runs), 1)
            if failed:
                s["errors"] = [r.get("error") for r in failed]
            per_case[case] = s
        summary[name] = per_case
    for name, per_case in summary.items():
        single = per_case.get("fanout-1", {})
        for case, s in per_case.items():
            base = summary.get("bird", {}).get(case, {})
            if base.get("runs") and s.get("runs"):
                for key in ("time_s", "cpu_s", "vmhwm_mib"):
                    s[key + "_vs_bird"] = round(s[key] / base[key], 2) if base[key] else None
            if case.startswith("fanout-") and single.get("runs") and s.get("runs"):
                for key in ("time_s", "cpu_s"):
                    s[key + "_vs_1"] = round(s[key] / single[key], 2) if single[key] else None
    return summary


def cell(s, key, fmt):
    return fmt % s[key] if s.get(key) is not None else "-"


def table(summary, versions, skipped):
    rows = ["| DUT | case | time (s) | first peer (s) | CPU (s) | VmHWM (MiB) | time vs BIRD "
            "| CPU vs BIRD | memory vs BIRD | time vs 1 collector | CPU vs 1 collector | runs |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, per_case in summary.items():
        label = "%s (%s)" % (name, versions.get(name, "?"))
        for case, s in per_case.items():
            if not s["runs"]:
                rows.append("| %s | %s | failed | | | | | | | | | 0/%d |"
                            % (label, case, s["failed"]))
                continue
            rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d/%d |" % (
                label, case, cell(s, "time_s", "%.2f"), cell(s, "first_peer_s", "%.2f"),
                cell(s, "cpu_s", "%.2f"), cell(s, "vmhwm_mib", "%.0f"),
                cell(s, "time_s_vs_bird", "%.2f"), cell(s, "cpu_s_vs_bird", "%.2f"),
                cell(s, "vmhwm_mib_vs_bird", "%.2f"), cell(s, "time_s_vs_1", "%.2f"),
                cell(s, "cpu_s_vs_1", "%.2f"), s["runs"], s["runs"] + s["failed"]))
    for name, why in skipped.items():
        rows.append("| %s | skipped: %s | | | | | | | | | | |" % (name, why))
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Many-peer benchmark: one feeder to C collectors, and a P-peer mesh, "
                    "through skua, BIRD and FRR. Root; creates and removes its own namespaces.")
    benchlib.add_table_args(p, "skua,bird,frr",
                            "IPv4 /24 prefixes of the fan-out table (default 1000000)",
                            "100,000 prefixes fanned out, a mesh of 2,000 per peer",
                            "prefixes per attribute set sent by the injectors (default 100)")
    p.add_argument("--collectors", default="1,20",
                   help="comma-separated collector counts of the fan-out runs (default 1,20; "
                        "an empty list runs none)")
    p.add_argument("--mesh-peers", type=int, default=50,
                   help="peers of the mesh run, 0 for none (default 50)")
    p.add_argument("--mesh-prefixes", type=int, default=None,
                   help="prefixes each mesh peer announces (default 20000, 2000 with --quick)")
    p.add_argument("--path-len", type=int, default=0,
                   help="0..N extra transit ASes per attribute set (default 0)")
    p.add_argument("--communities", type=int, default=0,
                   help="0..N communities per attribute set (default 0)")
    p.add_argument("--raw-count", action="store_true",
                   help="sinks count announcements minus withdrawals without the prefix set "
                        "(cheaper for them; a DUT sending a prefix twice then looks done early)")
    p.add_argument("--timeout", type=float, default=600,
                   help="bound on one run in seconds (default 600)")
    p.add_argument("--stall", type=float, default=60,
                   help="give up on a run when no sink's count has moved for this many seconds "
                        "after the injectors sent everything (default 60)")
    p.add_argument("--settle", type=float, default=1.0,
                   help="seconds to wait after the run before reading VmHWM (default 1)")
    p.add_argument("--sample-interval", type=float, default=0.25,
                   help="VmRSS sampling interval in seconds (default 0.25)")
    benchlib.add_output_args(p)
    a = p.parse_args(argv)
    benchlib.check_table_args(p, a, DUTS)
    try:
        a.collectors = [int(c) for c in a.collectors.split(",") if c.strip()]
    except ValueError:
        p.error("--collectors takes comma-separated numbers")
    if a.mesh_prefixes is None:
        a.mesh_prefixes = 2000 if a.quick else 20000
    if any(c < 1 or c > MAX_PEERS for c in a.collectors) or not 0 <= a.mesh_peers <= MAX_PEERS:
        p.error("collector and mesh peer counts go from 1 to %d" % MAX_PEERS)
    if a.mesh_peers == 1:
        p.error("a mesh needs at least 2 peers")
    if a.mesh_peers and (a.mesh_prefixes < 1 or a.mesh_peers * a.mesh_prefixes > 1 << 20):
        p.error("--mesh-peers x --mesh-prefixes must be between 1 and 1048576 "
                "(/24s of 16.0.0.0/4)")
    if not a.collectors and not a.mesh_peers:
        p.error("nothing to run: no collectors and no mesh")
    if a.repeat < 1 or a.timeout <= 0:
        p.error("--repeat and --timeout must be positive")
    return a


def setup(tag, npeers):
    """The DUT's namespace, the feeder's, and one for every collector or mesh peer: addresses
    192.0.2.1..npeers on its eth0, the DUT at 192.0.2.254."""
    dut_ns, (feed_ns, peers_ns) = benchlib.setup_netns(tag, (
        ("feed", FEED_ADDR, DUT_FEED_ADDR), ("peers", peer_addr(1), DUT_PEERS_ADDR)))
    for k in range(2, npeers + 1):
        benchlib.run(["ip", "addr", "add", peer_addr(k) + "/24", "dev", "eth0"], ns=peers_ns)
    return dut_ns, feed_ns, peers_ns


def main(argv):
    args = parse_args(argv)
    todo = cases(args)

    def runs(duts, versions, workdir, results):
        nss = setup("mp%d" % os.getpid(), max([args.mesh_peers] + args.collectors))
        log("fan-out of %d prefixes to %s collectors, mesh of %d x %d, %d per attribute set; "
            "logs in %s" % (args.prefixes, "/".join(map(str, args.collectors)) or "no",
                            args.mesh_peers, args.mesh_prefixes, args.per_set, workdir))
        code = 0
        for r in range(1, args.repeat + 1):
            for d in duts:
                for case in todo:
                    log("%s (%s) %s, run %d/%d ..." % (d.name, versions[d.name], case.label, r,
                                                       args.repeat))
                    res = measure(args, d, case, nss, workdir, r)
                    results.append(res)
                    if res["ok"]:
                        log("  %.2f s (first peer %.2f s), CPU %.2f s, VmHWM %.0f MiB" % (
                            res["time_s"], res["first_peer_s"], res["cpu_s"],
                            benchlib.mib(res["vmhwm_kib"])))
                    else:
                        code = 1
        return code

    report = benchlib.Report(
        summarise=summarise, table=table, stem="many_peers",
        settings={"prefixes": args.prefixes, "collectors": args.collectors,
                  "mesh_peers": args.mesh_peers, "mesh_prefixes": args.mesh_prefixes,
                  "per_set": args.per_set, "path_len": args.path_len,
                  "communities": args.communities, "raw_count": args.raw_count,
                  "repeat": args.repeat},
        heading=lambda meta: "Many peers: %d prefixes to %s collectors, mesh %d x %d, %s (%s)"
                             % (args.prefixes, "/".join(map(str, args.collectors)) or "no",
                                args.mesh_peers, args.mesh_prefixes, meta["date"],
                                meta["kernel"]))
    return benchlib.drive(args, argv, DUTS, "skua-mp-", runs, report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
