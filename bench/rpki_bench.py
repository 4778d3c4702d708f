#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""RPKI benchmark: skua against FRR 8.4 + rtrlib and BIRD 2 on the same data (issue 12).

    injector (AS 65001) --192.0.2.0/24-- DUT (AS 65000) --198.51.100.0/24-- sink (AS 65002)
                                          |
                                   203.0.113.0/24
                                          |
                                 StayRTR 203.0.113.1:8282

One StayRTR serves VRPS (500,000 by default) to every DUT in turn. For each DUT, two runs:

  off: the DUT without RPKI (an inbound route-map that permits everything), the table
       transfer of table_transfer.py (1,000,000 /24s, 100 per attribute set) timed;
  on:  the DUT with one RTR cache and an inbound policy that rejects RPKI-invalid routes
       (skua and FRR: `match rpki invalid` deny; BIRD: roa_check() in the import filter,
       `import table on` so that a ROA change re-runs it);
       1. load: from the DUT's start to it holding every VRP (skua: `show rpki cache-server
          json`; FRR: rtrlib's "Sync successful, received N Prefix PDUs"; BIRD: `show route
          table r4 count`), and VmRSS then minus VmRSS of the off run's DUT idle after start;
       2. the same table transfer, with validation: time, and the ratio to the off run;
       3. revalidation: 1% of the VRPs (the first 5,000 table prefixes') get another origin AS
          at the cache, which makes those 5,000 routes invalid; time from StayRTR logging the
          new serial to the sink having lost all 5,000 (the sink's progress lines every
          50 ms), and how many announcements the sink got meanwhile (none are needed).

The VRPs cover the first VRPS table prefixes exactly (/24, maxLength 24) with bgp_blaster's
origin AS of their attribute set (4200000000 + set): those routes are valid, the rest not
found; none is invalid before the change, so the sink expects the whole table in both runs.
Results: a table on stdout with ratios to BIRD, JSON and Markdown in bench/results/.

Run as root with /usr/bin/python3 from the top of the tree; see bench/README.md.
"""

import argparse
import ipaddress
import json
import os
import re
import statistics
import subprocess
import sys
import time

import benchlib
import table_transfer as tt
from benchlib import BenchError, CLEAN, log

CACHE_ADDR, DUT_CACHE_ADDR, CACHE_PORT = "203.0.113.1", "203.0.113.2", 8282
ORIGIN_BASE = 4200000000  # bgp_blaster's origin AS of attribute set 0 (4-octet sessions)
TABLE_START = int(ipaddress.IPv4Address("16.0.0.0"))


def table_prefix(i):
    """bgp_blaster's i-th /24 (sequential order)."""
    return "%s/24" % ipaddress.IPv4Address(TABLE_START + (i << 8))


def vrp_json(count, per_set, changed=0):
    """StayRTR's file: the first `count` table prefixes with their origin AS; the first
    `changed` with the next set's origin instead (invalid)."""
    roas = []
    for i in range(count):
        asn = ORIGIN_BASE + i // per_set + (1 if i < changed else 0)
        roas.append({"prefix": table_prefix(i), "maxLength": 24, "asn": asn, "ta": "bench"})
    return {"metadata": {"counts": count, "generated": int(time.time())}, "roas": roas}


# ---------------------------------------------------------------------------------------------
# The cache
# ---------------------------------------------------------------------------------------------

class Cache:
    """StayRTR in its namespace, rereading its file every second."""

    def __init__(self, ns, workdir):
        self.ns = ns
        self.path = os.path.join(workdir, "vrps.json")
        self.log_path = os.path.join(workdir, "stayrtr.log")
        self.proc = None

    def write(self, data):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.chmod(tmp, 0o644)
        os.replace(tmp, self.path)

    def serials(self):
        try:
            with open(self.log_path) as f:
                return f.read().count("new serial")
        except OSError:
            return 0

    def serve(self, data, timeout=120):
        """Serve data; returns the CLOCK_MONOTONIC time StayRTR logged its new serial."""
        before = self.serials()
        self.write(data)
        if self.proc is None:
            self.proc = benchlib.spawn(
                ["/usr/bin/stayrtr", "-bind", "%s:%d" % (CACHE_ADDR, CACHE_PORT), "-cache",
                 self.path, "-checktime=false", "-metrics.addr", "", "-refresh", "1",
                 "-rtr.refresh", "3600", "-rtr.retry", "5", "-rtr.expire", "7200",
                 "-log.verbose=false"], self.ns, self.log_path)
        deadline = time.monotonic() + timeout
        while self.serials() <= before:
            if self.proc.poll() is not None:
                raise BenchError("StayRTR exited (%d); see %s" % (self.proc.returncode,
                                                                 self.log_path))
            if time.monotonic() > deadline:
                raise BenchError("StayRTR did not take the new file within %d s" % timeout)
            time.sleep(0.02)
        return time.monotonic()


# ---------------------------------------------------------------------------------------------
# DUTs: configuration with and without validation, and how each says it holds the VRPs
# ---------------------------------------------------------------------------------------------

def frr_style(validate, extra_router="", extra_af=""):
    rpki = ("rpki\n rpki polling_period 3600\n rpki cache %s %d preference 1\nexit\n"
            % (CACHE_ADDR, CACHE_PORT)) if validate else ""
    rmap = ("route-map IN deny 10\n match rpki invalid\nexit\n" if validate else "")
    rmap += "route-map IN permit 20\nexit\n"
    return ("hostname dut\n%s%srouter bgp %d\n bgp router-id %s\n no bgp ebgp-requires-policy\n"
            "%s neighbor %s remote-as %d\n neighbor %s remote-as %d\n"
            " address-family ipv4 unicast\n  neighbor %s activate\n"
            "  neighbor %s route-map IN in\n%s  neighbor %s activate\n exit-address-family\n"
            "exit\n" % (rpki, rmap, tt.DUT_AS, tt.DUT_ROUTER_ID, extra_router, tt.INJ_ADDR,
                        tt.INJ_AS, tt.SINK_ADDR, tt.SINK_AS, tt.INJ_ADDR, tt.INJ_ADDR,
                        extra_af, tt.SINK_ADDR))


class Skua(benchlib.SkuaBinary):
    def start(self, ns, validate):
        conf = self.write("bgpd.conf", frr_style(validate))
        return self.spawn(self.bgpd_argv(conf, "--no-fib"), ns, "dut")

    def vrps_held(self, ns):
        vtysh = os.path.join(os.path.dirname(os.path.dirname(self.bgpd())), "vtysh", "vtysh")
        out = benchlib.run([vtysh, "--vty-socket", self.vty, "-c",
                            "show rpki cache-server json"], capture=True, check=False)
        try:
            return sum(s.get("ipv4PrefixCount", 0) + s.get("ipv6PrefixCount", 0)
                       for s in json.loads(out).get("servers", []))
        except ValueError:
            return 0


SYNC_RE = re.compile(r"Sync successful, received (\d+) Prefix PDUs")


class Frr(benchlib.FrrBinary):
    def start(self, ns, validate):
        # FRR revalidates after a VRP change from the stored Adj-RIB-In only.
        conf = self.write("bgpd.conf", frr_style(
            validate, " no bgp network import-check\n",
            "  neighbor %s soft-reconfiguration inbound\n" % tt.INJ_ADDR))
        self.log_path = os.path.join(self.rundir, "dut.log")
        return self.spawn([self.binaries()[0], "-f", conf, "-Z", "-S", "-i",
                           os.path.join(self.rundir, "bgpd.pid"), "--vty_socket", self.rundir,
                           "-P", "0", "--log", "stdout", "--log-level", "warnings"]
                          + (["-M", "rpki"] if validate else []), ns, "dut")

    def vrps_held(self, ns):
        # rtrlib writes its log on stderr, in the DUT's log: the count of its first sync.
        with open(self.log_path, errors="replace") as f:
            m = SYNC_RE.findall(f.read())
        return int(m[0]) if m else 0


COUNT_RE = re.compile(r"(\d+) of (\d+) routes for (\d+) networks in table r4")


class Bird(benchlib.BirdBinary):
    def start(self, ns, validate):
        self.sock = os.path.join(self.rundir, "bird.ctl")
        text = ("router id %s;\nlog stderr { warning, error, fatal, bug };\nprotocol device { }\n"
                % tt.DUT_ROUTER_ID)
        if validate:
            text += ("roa4 table r4;\nroa6 table r6;\n"
                     "protocol rpki cache1 {\n  roa4 { table r4; };\n  roa6 { table r6; };\n"
                     "  remote %s port %d;\n  retry keep 5;\n  refresh keep 3600;\n"
                     "  expire keep 7200;\n}\n"
                     "filter rpki_in {\n  if roa_check(r4, net, bgp_path.last) = ROA_INVALID "
                     "then reject;\n  accept;\n}\n" % (CACHE_ADDR, CACHE_PORT))
        imp = "import filter rpki_in" if validate else "import all"
        text += ("protocol bgp inj {\n  local %s as %d;\n  neighbor %s as %d;\n"
                 "  ipv4 { import table on; %s; export none; };\n}\n"
                 "protocol bgp sink {\n  local %s as %d;\n  neighbor %s as %d;\n"
                 "  ipv4 { import none; export all; };\n}\n"
                 % (tt.DUT_INJ_ADDR, tt.DUT_AS, tt.INJ_ADDR, tt.INJ_AS, imp, tt.DUT_SINK_ADDR,
                    tt.DUT_AS, tt.SINK_ADDR, tt.SINK_AS))
        conf = self.write("bird.conf", text)
        return self.spawn([self.binaries()[0], "-f", "-c", conf, "-s", self.sock, "-P",
                           os.path.join(self.rundir, "bird.pid")], ns, "dut")

    def vrps_held(self, ns):
        out = benchlib.run(["birdc", "-s", self.sock, "show", "route", "table", "r4", "count"],
                           capture=True, check=False)
        m = COUNT_RE.search(out or "")
        return int(m.group(1)) if m else 0


DUTS = {"skua": Skua, "frr": Frr, "bird": Bird}


# ---------------------------------------------------------------------------------------------
# One DUT: the off run, then the on run with load, transfer and revalidation
# ---------------------------------------------------------------------------------------------

def sink_argv(args):
    return benchlib.blaster_argv(args.blaster, args.timeout, "sink", tt.DUT_SINK_ADDR,
                                 tt.SINK_ADDR, tt.SINK_AS, tt.DUT_AS,
                                 ["--expect", str(args.prefixes), "--linger", "-1",
                                  "--progress", "0.05"])


def transfer(args, nss, rundir, d, res):
    """The table through the running DUT d; returns the sink's reader (kept running)."""
    inj_ns, dut_ns, sink_ns, _ = nss
    sink = benchlib.spawn(sink_argv(args), sink_ns, os.path.join(rundir, "sink.log"),
                          stdout=subprocess.PIPE)
    sink_rd = benchlib.JsonReader(benchlib.text_stdout(sink), "sink")
    sink_rd.start()
    ev = sink_rd.wait_for(("established", "result"), time.monotonic() + 60)
    if not ev or ev["event"] != "established":
        raise BenchError("the sink session did not come up: %s" % (ev,))
    inj = benchlib.spawn(tt.blaster_argv(args, "injector"), inj_ns,
                         os.path.join(rundir, "inj.log"), stdout=subprocess.PIPE)
    inj_rd = benchlib.JsonReader(benchlib.text_stdout(inj), "injector")
    inj_rd.start()
    ev = tt.wait_table(args, sink_rd, inj_rd)
    if d.poll() is not None:
        raise BenchError("the DUT exited (status %d) during the transfer" % d.returncode)
    if not ev or ev["event"] != "reached":
        raise BenchError("the sink did not receive the table: %s" % (ev,))
    res["transfer_s"] = round(ev["t_last_prefix"] - benchlib.first_update_time(inj_rd), 3)
    res["cpu_s"] = benchlib.proc_cpu(d.pid)
    return sink_rd


def wait_vrps(dut, ns, d, want, t0, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if d.poll() is not None:
            raise BenchError("the DUT exited (status %d) while loading VRPs" % d.returncode)
        if dut.vrps_held(ns) >= want:
            return time.monotonic() - t0
        time.sleep(0.1)
    raise BenchError("the DUT holds %d of %d VRPs after %d s" % (dut.vrps_held(ns), want,
                                                                 timeout))


def revalidate(args, cache, sink_rd, changed):
    """Serve the changed VRPs; time until the sink has lost `changed` prefixes."""
    base = sink_rd.all[-1] if sink_rd.all else {}
    w0, a0 = base.get("withdrawn", 0), base.get("announced", 0)
    t_cache = cache.serve(vrp_json(args.vrps, args.per_set, changed))
    deadline = time.monotonic() + args.reval_timeout
    while time.monotonic() < deadline:
        ev = sink_rd.wait_for(("progress", "result"), time.monotonic() + 1)
        if ev and ev["event"] in ("result", "eof"):
            raise BenchError("the sink ended during the revalidation: %s" % (ev,))
        if ev and ev.get("withdrawn", 0) - w0 >= changed:
            return {"revalidation_s": round(ev["t"] - t_cache, 3),
                    "withdrawn": ev["withdrawn"] - w0,
                    "announced_meanwhile": ev.get("announced", 0) - a0}
    raise BenchError("revalidation: the sink lost %s of the %d newly invalid prefixes within "
                     "%d s" % ((sink_rd.all[-1] if sink_rd.all else {}).get("withdrawn", 0)
                               - w0, changed, args.reval_timeout))


def measure(args, dut, nss, cache, workdir):
    inj_ns, dut_ns, sink_ns, _ = nss
    res = {"dut": dut.name, "ok": False}
    for mode in ("off", "on"):
        rundir = dut.new_run(workdir, 1 if mode == "off" else 2)
        if mode == "on":
            cache.serve(vrp_json(args.vrps, args.per_set))  # the unchanged set, again
        r = res[mode] = {}
        try:
            t0 = time.monotonic()
            d = dut.start(dut_ns, mode == "on")
            benchlib.wait_listening(dut_ns, 179, t0 + 30, d)
            if mode == "off":
                time.sleep(1)
                r["idle_rss_kib"] = (benchlib.proc_status(d.pid) or {}).get("VmRSS")
            else:
                r["load_s"] = round(wait_vrps(dut, dut_ns, d, args.vrps, t0, args.timeout), 3)
                time.sleep(1)  # what the load leaves allocated
                r["loaded_rss_kib"] = (benchlib.proc_status(d.pid) or {}).get("VmRSS")
                idle = res["off"].get("idle_rss_kib")
                if idle and r["loaded_rss_kib"]:
                    r["rss_delta_mib"] = round((r["loaded_rss_kib"] - idle) / 1024.0, 1)
            sink_rd = transfer(args, nss, rundir, d, r)
            if mode == "on":
                r.update(revalidate(args, cache, sink_rd, args.changed))
            r["vmhwm_kib"] = (benchlib.proc_status(d.pid) or {}).get("VmHWM")
        except BenchError as e:
            r["error"] = str(e)
            log("%s (%s): %s (logs in %s)" % (dut.name, mode, e, rundir))
            break
        finally:
            for p in list(reversed(CLEAN.procs)):
                if p is not cache.proc:
                    CLEAN.release(p)
    res["ok"] = "error" not in res.get("off", {}) and "error" not in res.get("on", {"error": 1})
    if res.get("on", {}).get("transfer_s") and res["off"].get("transfer_s"):
        res["on_vs_off"] = round(res["on"]["transfer_s"] / res["off"]["transfer_s"], 2)
    return res


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

KEYS = (("load_s", "on"), ("rss_delta_mib", "on"), ("transfer_s", "off"), ("transfer_s", "on"),
        ("revalidation_s", "on"))


def summarise(results, order):
    """Medians per DUT; a run that failed part-way still gives the phases it finished."""
    summary = {}
    for name in order:
        runs = [r for r in results if r["dut"] == name]
        failed = [r for r in runs if not r["ok"]]
        s = {"runs": len(runs) - len(failed), "failed": len(failed)}
        for key, mode in KEYS:
            vals = [r[mode][key] for r in runs if r.get(mode, {}).get(key) is not None]
            if vals:
                s["%s_%s" % (key, mode)] = round(statistics.median(vals), 3)
        ratios = [r["on_vs_off"] for r in runs if "on_vs_off" in r]
        if ratios:
            s["on_vs_off"] = round(statistics.median(ratios), 2)
        resent = [r["on"]["announced_meanwhile"] for r in runs
                  if "announced_meanwhile" in r.get("on", {})]
        if resent:
            s["announced_meanwhile"] = max(resent)
        if failed:
            s["errors"] = [r.get("on", {}).get("error") or r.get("off", {}).get("error")
                           for r in failed]
        summary[name] = s
    bird = summary.get("bird", {})
    for s in summary.values():
        for key, mode in KEYS:
            k = "%s_%s" % (key, mode)
            if s.get(k) and bird.get(k):
                s[k + "_vs_bird"] = round(s[k] / bird[k], 2)
    return summary


def table(summary, versions, skipped):
    def cell(s, k, fmt):
        v = s.get(k)
        return "-" if v is None else fmt % v

    def ratio(s, k):
        return cell(s, k + "_vs_bird", "%.2f")
    rows = ["| DUT | version | VRP load (s) | vs BIRD | RSS for the VRPs (MiB) | vs BIRD "
            "| transfer off (s) | transfer on (s) | on/off | revalidation of 1% (s) | vs BIRD "
            "| re-sent meanwhile |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, s in summary.items():
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, versions.get(name, "?"), cell(s, "load_s_on", "%.2f"), ratio(s, "load_s_on"),
            cell(s, "rss_delta_mib_on", "%.1f"), ratio(s, "rss_delta_mib_on"),
            cell(s, "transfer_s_off", "%.2f"), cell(s, "transfer_s_on", "%.2f"),
            cell(s, "on_vs_off", "%.2f"), cell(s, "revalidation_s_on", "%.2f"),
            ratio(s, "revalidation_s_on"), cell(s, "announced_meanwhile", "%d")))
        for e in s.get("errors", []):
            rows.append("| %s | failed: %s |||||||||| |" % (name, e))
    for name, why in skipped.items():
        rows.append("| %s | skipped: %s |||||||||| |" % (name, why))
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="RPKI benchmark: VRP load, table transfer with validation on and off, "
                    "revalidation after a 1%% VRP change; skua, FRR + rtrlib, BIRD 2. Root; "
                    "creates and removes its own namespaces.")
    benchlib.add_table_args(p, "bird,frr,skua",
                            "IPv4 /24 prefixes in the table (default 1000000)",
                            "100,000 prefixes and 50,000 VRPs",
                            "prefixes per attribute set sent by the injector (default 100)")
    p.add_argument("--vrps", type=int, default=500000,
                   help="VRPs at the cache, one per table prefix from the first (default "
                        "500000)")
    p.add_argument("--change", type=float, default=1.0,
                   help="percentage of the VRPs whose origin AS changes (default 1)")
    p.add_argument("--timeout", type=float, default=900, help="bound on each phase, seconds")
    p.add_argument("--reval-timeout", type=float, default=120,
                   help="bound on the revalidation after the change, seconds (default 120)")
    p.add_argument("--stall", type=float, default=60,
                   help="give up a transfer when the sink's count is still for this long")
    benchlib.add_output_args(p)
    a = p.parse_args(argv)
    benchlib.check_table_args(p, a, DUTS)
    if a.quick:
        a.vrps = min(a.vrps, 50000)
    a.order, a.path_len, a.communities = "sequential", 0, 0  # what the VRPs are made for
    if not 0 < a.vrps <= a.prefixes:
        p.error("--vrps must be between 1 and --prefixes")
    a.changed = max(1, int(a.vrps * a.change / 100))
    return a


def main(argv):
    args = parse_args(argv)
    if not os.access("/usr/bin/stayrtr", os.X_OK):
        log("StayRTR not found at /usr/bin/stayrtr (Debian package stayrtr)")
        return 2

    def runs(duts, versions, workdir, results):
        dut_ns, (inj_ns, sink_ns, cache_ns) = benchlib.setup_netns("rb%d" % os.getpid(), (
            ("inj", tt.INJ_ADDR, tt.DUT_INJ_ADDR), ("sink", tt.SINK_ADDR, tt.DUT_SINK_ADDR),
            ("cache", CACHE_ADDR, DUT_CACHE_ADDR)))
        cache = Cache(cache_ns, workdir)
        log("%d VRPs, %d prefixes, %d VRPs changed; logs in %s"
            % (args.vrps, args.prefixes, args.changed, workdir))
        t = time.monotonic()
        cache.serve(vrp_json(args.vrps, args.per_set))
        log("StayRTR serves them after %.1f s" % (time.monotonic() - t))
        code = 0
        for d in duts:
            log("%s (%s) ..." % (d.name, versions[d.name]))
            res = measure(args, d, (inj_ns, dut_ns, sink_ns, cache_ns), cache, workdir)
            results.append(res)
            log("  %s" % json.dumps({k: v for k, v in res.items() if k != "dut"}))
            code |= 0 if res["ok"] else 1
        return code

    report = benchlib.Report(
        summarise=summarise, table=table, stem="rpki_bench",
        settings={"prefixes": args.prefixes, "vrps": args.vrps, "changed": args.changed,
                  "per_set": args.per_set},
        heading=lambda meta: "RPKI: %d VRPs, %d-prefix table, %d VRPs changed (%s, %s)"
                             % (args.vrps, args.prefixes, args.changed, meta["date"],
                                meta["kernel"]))
    return benchlib.drive(args, argv, DUTS, "skua-rpki-", runs, report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
