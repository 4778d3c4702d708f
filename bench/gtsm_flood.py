#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""GTSM flood benchmark: a spoofed flood at a fixed rate against a BGP daemon with and without
GTSM (RFC 5082), reporting the daemon's CPU, the machine's softirq time, the kernel's counters
and whether the session survived.  skua and, as rivals, FRR and BIRD, in one invocation.

    peer (skua, AS 65002) --- dut (AS 65001) --- transit --- attacker
    192.0.2.2       192.0.2.1   198.51.100.1  .2  203.0.113.1  .2

bench/gtsm_flood/ is the scenario (tests/lab's skualab library builds it): the peer is
directly connected (`timers 3 9`, `ttl-security hops 1` on both ends in the GTSM runs); the
attacker is one router hop away and spoofs the peer's address (bench/gtsm_attack.py says
what it sends).  Each run: the session comes up; the DUT daemon's CPU and the softirq time are
measured over an idle window, then over a flood window of the same length; the peer watches
the session through the flood and one hold time after it.

Run as root with /usr/bin/python3 (scapy); --help lists the options, doc/benchmarks.md has
the figures and how to read them.  Only the lab's own
namespaces and processes are touched, and the Lab context manager removes them on every exit.
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "tests", "lab"))

from skualab import Lab  # noqa: E402
from skualab.daemons import FrrBgpd, SkuaBgpd  # noqa: E402

from benchlib import first_line, log  # noqa: E402
import gtsm_attack  # noqa: E402
import gtsm_report  # noqa: E402
import gtsm_watch  # noqa: E402

SCENARIO = os.path.join(HERE, "gtsm_flood")
DUT_ADDR, PEER_ADDR = "192.0.2.1", "192.0.2.2"
ATTACK_IF = "to-transit"  # where the flood enters the DUT
RUNS = {"skua-gtsm": ("skua", True), "skua-plain": ("skua", False),
        "frr-gtsm": ("frr", True), "frr-plain": ("frr", False),
        "bird-gtsm": ("bird", True), "bird-plain": ("bird", False)}
DEFAULT_RUNS = "skua-gtsm,skua-plain,frr-gtsm,bird-gtsm"


# --- starting the routers -------------------------------------------------------------------

def without_gtsm(text):
    """The scenario's configs with GTSM; the plain runs drop those lines (and nothing else)."""
    return "\n".join(line for line in text.splitlines()
                     if "ttl-security" not in line and "ttl security" not in line) + "\n"


def transform_for(kind, gtsm):
    def transform(text):
        if not gtsm:
            text = without_gtsm(text)
        if kind == "frr":
            # Its lab lines, and the NOTIFICATIONs in its log as skua and BIRD log them.
            text = FrrBgpd.add_lab_lines(text, FrrBgpd.LAB_LINES
                                         + (" bgp log-neighbor-changes",))
        return text
    return transform


def start_router(lab, name, transform):
    """Lab.start_router with a config transform (the same steps, which it cannot take)."""
    d = lab.daemons[name]
    log("starting %s (%s) in %s" % (name, d.kind, d.netns.name))
    d.procs = []
    d.start(transform=transform)
    lab.started.add(name)


def daemon_pid(daemon):
    """The BGP daemon's own process (FRR may run zebra beside bgpd)."""
    for p in daemon.procs:
        if p.name.endswith("/bgpd") or p.name.endswith("/bird"):
            return p.pid
    raise AssertionError("%s: no bgpd or bird process among %s" % (daemon.name, daemon.procs))


def dut_view(daemon):
    """The DUT's own view of the session, to compare before and after: state, how long up,
    connections dropped and why the last one went down (BIRD: the protocol's last error)."""
    t = time.monotonic()
    try:
        if daemon.kind == "bird":
            p = daemon.protocols().get("peer", {})
            return {"time": t, "state": p.get("bgp_state"), "since": p.get("since"),
                    "last_reset": p.get("last_error")}
        n = daemon.neighbor(PEER_ADDR).get(PEER_ADDR, {})
        return {"time": t, "state": n.get("bgpState"), "uptime_ms": n.get("bgpTimerUpMsec"),
                "dropped": n.get("connectionsDropped"), "last_reset": n.get("lastResetDueTo")}
    except Exception as e:
        return {"time": t, "state": "no answer: %s" % str(e).splitlines()[0][:200]}


def dut_verdict(before, after):
    """Survived: Established before and after, uptime unbroken (BIRD: same "since")."""
    ok = before.get("state") == "Established" and after.get("state") == "Established"
    if "since" in before:
        ok = ok and before["since"] == after.get("since")
    else:
        grown = (after.get("uptime_ms") or 0) - (before.get("uptime_ms") or 0)
        ok = ok and before.get("dropped") == after.get("dropped") and \
            grown >= (after["time"] - before["time"] - 2) * 1000  # 2 s of rounding slack
    return {"dut_before": before, "dut_after": after, "dut_survived": ok}


def log_offsets(daemon):
    """Where each of the daemon's logs ends now (what it logs later is the flood's)."""
    return {path: os.path.getsize(path) for path in daemon.logs() if os.path.exists(path)}


def desynchronised(offsets):
    """Lines the DUT logged since `offsets` saying the byte stream stopped being BGP (the
    forged data reached the daemon): skua, FRR and BIRD all say "not synchronized"."""
    found = []
    for path, offset in offsets.items():
        with open(path, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        found += [line.strip() for line in text.splitlines()
                  if "not synchronized" in line.lower()]
    return found


def versions():
    """First line of each daemon's --version, for the tables."""
    return {"skua": first_line([SkuaBgpd.bgpd_path(), "--version"]),
            "frr": first_line(["/usr/lib/frr/bgpd", "--version"]),
            "bird": first_line(["bird", "--version"])}


# --- one run -------------------------------------------------------------------------------

def bring_up(lab, kind, gtsm, args):
    """Start the DUT and the peer, wait for the session both ways and let it settle."""
    start_router(lab, "dut", transform_for(kind, gtsm))
    start_router(lab, "peer", transform_for("skua", gtsm))
    lab.wait_established("peer", [DUT_ADDR], timeout=args.setup_timeout)
    lab.wait_established("dut", [PEER_ADDR], timeout=args.setup_timeout)
    time.sleep(args.settle)  # the first UPDATEs and keepalives


def prepare_flood(lab, args, ports, res):
    """The attacker's streams at the requested rate; the data stream's sequence number is
    learned from the live session (gtsm_attack.py)."""
    flood = gtsm_attack.Flood(lab.namespaces["attacker"], DUT_ADDR, PEER_ADDR, args.ttl,
                              args.duration)
    if args.syn_share > 0:
        flood.add_syns(args.rate * args.syn_share)
    if args.syn_share < 1:
        learned = gtsm_attack.learn_sequence(lab, DUT_ADDR, PEER_ADDR, ports)
        seq = learned["seq"]
        if args.seq == "blind":
            seq = (seq + (1 << 31)) % gtsm_attack.SEQ_SPACE
        res["data_segments"] = dict(learned, seq_sent=seq, mode=args.seq)
        flood.add_data(args.rate * (1 - args.syn_share), ports, seq, learned["ack"])
    return flood


def flood_figures(cpu, flood, window, before, after):
    """CPU over the sending window, the DUT's counters, rates and the attack path's cost."""
    out = cpu.window(*window)
    out["counters"] = gtsm_watch.counters_delta(before, after)
    out["sent"] = flood.sent()
    out["sent_pps"] = flood.achieved_rate()
    arrived = out["counters"]["link"].get("rx_packets", 0)
    out["arrived_pct"] = round(100.0 * arrived / max(1, flood.sent()), 2)
    forge_cpu = out["forge_sched_s"]
    if len(forge_cpu) == len(flood.streams):  # every forge process was found
        out["attack_us_per_segment"] = round(1e6 * sum(forge_cpu.values())
                                             / max(1, flood.sent()), 2)
        out["attack_us_per_segment_stream"] = {
            k: round(1e6 * v / max(1, flood.results[k].get("sent", 0)), 2)
            for k, v in forge_cpu.items()}
    return out


def measure(args, run_name):
    """One run: idle window, flood window, the session watched through both and one hold
    time after.  Returns the figures (ok False and `skipped` when the DUT cannot run)."""
    kind, gtsm = RUNS[run_name]
    res = {"run": run_name, "dut": kind, "gtsm": gtsm, "ok": False}
    lab = Lab(SCENARIO, log=log)
    lab.topology.routers["dut"].kind = kind
    why = lab.missing()
    if why:
        res["skipped"] = why
        log("%s: skipped: %s" % (run_name, why))
        return res
    res["lab_dir"] = lab.dir
    res["loadavg_before"] = os.getloadavg()
    with lab:
        bring_up(lab, kind, gtsm, args)
        dut_ns = lab.namespaces["dut"]
        ports = gtsm_attack.session_ports(dut_ns, DUT_ADDR, PEER_ADDR)
        res["session_ports"] = {"dut": ports[0], "peer": ports[1]}
        dut_before = dut_view(lab["dut"])
        cpu = gtsm_watch.CpuSampler(daemon_pid(lab["dut"]), lab.namespaces["attacker"].name)
        watch = gtsm_watch.SessionWatch(lab["peer"], DUT_ADDR)
        cpu.start()
        watch.start()
        try:
            log("%s: idle window, %.0f s" % (run_name, args.duration))
            c0 = gtsm_watch.counters(dut_ns, ATTACK_IF)
            t_idle = time.monotonic()
            time.sleep(args.duration)
            t_idle_end = time.monotonic()
            c1 = gtsm_watch.counters(dut_ns, ATTACK_IF)

            flood = prepare_flood(lab, args, ports, res)
            log("%s: flood, %s pps for %.0f s"
                % (run_name, "%.0f" % args.rate if args.rate else "as many", args.duration))
            offsets = log_offsets(lab["dut"])
            reqs = gtsm_watch.RequestSocketWatch(dut_ns)
            c2 = gtsm_watch.counters(dut_ns, ATTACK_IF)
            reqs.start()
            cpu.expect_forges(len(flood.streams))
            res["forge"] = flood.run()
            res["request_sockets"] = reqs.stop()
            c3 = gtsm_watch.counters(dut_ns, ATTACK_IF)
            window = flood.window()
            if window is None:
                raise AssertionError("no forge stream reported: %s" % res["forge"])
            log("%s: flood sent %d segments; watching the session for %.0f s more"
                % (run_name, flood.sent(), args.after))
            time.sleep(args.after)
            t_end = time.monotonic()
        finally:
            cpu.stop()
            watch.stop()
        dut_after = dut_view(lab["dut"])
        dut_after["log_not_synchronized"] = desynchronised(offsets)[:3]

        res["idle"] = cpu.window(t_idle, t_idle_end)
        res["idle"]["counters"] = gtsm_watch.counters_delta(c0, c1)
        res["flood"] = flood_figures(cpu, flood, window, c2, c3)
        res["session"] = watch.verdict(window[0], t_end)
        res["session"].update(dut_verdict(dut_before, dut_after))
        res["loadavg_after"] = os.getloadavg()
        res["ok"] = True
    return res


# --- main ----------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=float, default=20000,
                   help="segments per second, both streams together (default 20000; 0: as "
                        "fast as forge.py goes, one process per stream)")
    p.add_argument("--duration", type=float, default=10,
                   help="seconds of flood, and of the idle window before it (default 10)")
    p.add_argument("--runs", default=DEFAULT_RUNS,
                   help="comma-separated, in order, from %s (default %s)"
                        % (", ".join(RUNS), DEFAULT_RUNS))
    p.add_argument("--repeat", type=int, default=1,
                   help="rounds over the runs; the ratios use the medians (default 1)")
    p.add_argument("--syn-share", type=float, default=0.5,
                   help="part of the rate that is SYNs to port 179, the rest data segments "
                        "on the session's ports (default 0.5)")
    p.add_argument("--seq", choices=("window", "blind"), default="window",
                   help="data segments in the DUT's receive window (learned from a capture) "
                        "or half the sequence space away (default window)")
    p.add_argument("--ttl", type=int, default=255,
                   help="TTL the attacker sends with; it arrives one less (default 255)")
    p.add_argument("--after", type=float, default=10,
                   help="seconds the session is watched after the flood (default 10: more "
                        "than the 9 s hold time)")
    p.add_argument("--settle", type=float, default=3,
                   help="seconds between Established and the idle window (default 3)")
    p.add_argument("--setup-timeout", type=float, default=60,
                   help="bound on the session coming up (default 60)")
    p.add_argument("--build-dir",
                   help="skua build directory (default $SKUA_BUILDDIR, else <repo>/build)")
    p.add_argument("--json", metavar="FILE", help="write every figure as JSON to FILE "
                                                  "('-' for stdout, then no table)")
    a = p.parse_args(argv)
    a.runs = [r.strip() for r in a.runs.split(",") if r.strip()]
    for r in a.runs:
        if r not in RUNS:
            p.error("unknown run %s (known: %s)" % (r, ", ".join(RUNS)))
    if a.rate < 0 or a.duration <= 0 or a.repeat < 1 or not 0 <= a.syn_share <= 1:
        p.error("--rate >= 0, --duration > 0, --repeat >= 1, 0 <= --syn-share <= 1")
    if not 1 <= a.ttl <= 255:
        p.error("--ttl must be 1..255")
    return a


def main(argv):
    args = parse_args(argv)
    if os.geteuid() != 0:
        log("must run as root (network namespaces, raw sockets)")
        return 2
    if args.build_dir:
        os.environ["SKUA_BUILDDIR"] = os.path.abspath(args.build_dir)
    # A stand-in would run FRR where the table says skua.
    os.environ.pop("SKUALAB_STANDIN", None)
    meta = {"command": " ".join([sys.executable, os.path.abspath(sys.argv[0])] + argv),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "kernel": os.uname().release,
            "cpus": os.cpu_count(), "versions": versions(), "rate": args.rate,
            "duration": args.duration, "syn_share": args.syn_share, "seq": args.seq,
            "ttl_sent": args.ttl, "skua_builddir": SkuaBgpd.builddir()}
    results, code = [], 0
    try:
        for rnd in range(1, args.repeat + 1):
            for name in args.runs:
                log("%s (round %d/%d) ..." % (name, rnd, args.repeat))
                try:
                    res = measure(args, name)
                except Exception as e:  # one failed run, the rest go on
                    res = {"run": name, "ok": False, "error": str(e)[:2000]}
                    log("%s: failed: %s" % (name, e))
                    code = 1
                res["round"] = rnd
                results.append(res)
                if res.get("ok"):
                    log(gtsm_report.one_line(res))
    except KeyboardInterrupt:
        log("interrupted; the lab was torn down")
        code = 130
    if code == 0 and not any(r.get("ok") for r in results):
        code = 1  # everything skipped: nothing was measured
    summary = gtsm_report.summarise(results, args.runs)
    doc = {"meta": meta, "summary": summary, "runs": results}
    if args.json:
        text = json.dumps(doc, indent=1, default=str)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as f:
                f.write(text + "\n")
            log("JSON: %s" % args.json)
    if args.json != "-":
        print(gtsm_report.markdown(doc))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
