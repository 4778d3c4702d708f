#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Kernel FIB install benchmark: skua against BIRD 2 and FRR 8.4 (with zebra).

A table of IPv4 routes (1,000,000 by default) reaches the device under test (DUT) over eBGP
and the DUT installs every route into the kernel FIB of its own network namespace:

    injector (AS 65001)  --veth 192.0.2.0/24--  DUT (AS 65000)
    ns <tag>-inj  192.0.2.1                      192.0.2.2  ns <tag>-dut

The injector is bench/bgp_blaster, with the same table as bench/table_transfer.py (/24s from
16.0.0.0 upwards, 100 prefixes per attribute set, next hop 192.0.2.1).  Those prefixes are
not documentation space: they exist only in the DUT's namespace, which this script creates
and deletes; nothing is ever added to the root namespace.  For each DUT it measures:
  - install time: from the injector handing its first UPDATE to the kernel to the last change
    of the DUT namespace's IPv4 table, once that table holds every route;
  - removal time: from the injector's stop (Cease, then the TCP connection closes) to the last
    change of the table, once it is back to the routes it had before the injection.
  "Last change": the last IPv4 route notification (RTMGRP_IPV4_ROUTE), among one route in
  256 (RouteWatch), that a netlink socket opened inside the namespace received.  "Holds every
  route": the main table's "Prefixes" count in /proc/PID/net/fib_triestat of a process inside
  the namespace, read only after the table has been quiet for a second (the kernel walks the
  whole trie for each reading, 0.1-0.2 s at a million routes: polling it would compete with
  the DUT for the CPUs);
  - the DUT's CPU time (user + system, every thread; FRR: bgpd + zebra) in each phase, and
    its peak memory (VmHWM; FRR: the sum of both processes, each also in the JSON).
The DUTs: skua's bgpd (installing, the default), BIRD 2 with a kernel protocol exporting
everything, FRR 8.4 with bgpd and zebra as FRR ships them (zebra -s 90000000, the netlink
buffer of FRR's default `daemons` file).

Run as root with /usr/bin/python3; see bench/README.md.  Every process and namespace this
script creates is removed on exit, error or signal, and nothing else is touched.
"""

import argparse
import ctypes
import errno
import os
import pwd
import select
import socket
import statistics
import struct
import subprocess
import sys
import time

import benchlib
from benchlib import BenchError, CLEAN, log

INJ_ADDR, DUT_ADDR = "192.0.2.1", "192.0.2.2"
INJ_AS, DUT_AS = 65001, 65000
FRR_DIR = benchlib.FRR_DIR
SO_RCVBUFFORCE = 33
FIRST_PREFIX = "16.0.0.0/24"  # what the injector sends first (bgp_blaster's default start)


# ---------------------------------------------------------------------------------------------
# DUTs: each starts its processes in the DUT namespace (start(ns)); the first one's namespace
# is the one the FIB is read through.  `proto`: the protocol its routes carry in the kernel.
# ---------------------------------------------------------------------------------------------

def bgpd_config(extra=""):
    return benchlib.frr_bgpd_config(DUT_AS, DUT_ADDR, ((INJ_ADDR, INJ_AS),), extra)


class Skua(benchlib.SkuaBinary):
    proto = "bgp"

    def start(self, ns):
        # RFC 8212: skua, like FRR, takes no eBGP routes without policy by default.
        conf = self.write("bgpd.conf", bgpd_config(" no bgp ebgp-requires-policy\n"))
        self.spawn(self.bgpd_argv(conf), ns, "bgpd")


class Bird(benchlib.BirdBinary):
    proto = "bird"

    def start(self, ns):
        # The kernel protocol with its defaults (scan time 60 s, routes removed at shutdown)
        # exporting every route; BIRD's default kernel metric.
        conf = self.write("bird.conf", benchlib.bird_config(DUT_ADDR, (
            ("inj", DUT_ADDR, DUT_AS, INJ_ADDR, INJ_AS, "import all; export none;"),),
            kernel=True))
        self.spawn([self.binaries()[0], "-f", "-c", conf, "-s",
                    os.path.join(self.rundir, "bird.ctl"), "-P",
                    os.path.join(self.rundir, "bird.pid")], ns, "bird")


class Frr(benchlib.FrrBinary):
    """bgpd and zebra, as FRR runs them: zebra installs, bgpd talks to zebra."""

    proto = "bgp"

    def binaries(self):
        return [FRR_DIR + "/bgpd", FRR_DIR + "/zebra"]

    def missing(self):
        m = super().missing()
        if m:
            return m
        try:
            pwd.getpwnam("frr")
        except KeyError:
            return "user frr does not exist (the frr package creates it)"
        return None

    def start(self, ns):
        frr = pwd.getpwnam("frr")
        os.chown(self.rundir, frr.pw_uid, frr.pw_gid)
        zconf = self.write("zebra.conf", "hostname dut\n")
        bconf = self.write("bgpd.conf", bgpd_config(" no bgp ebgp-requires-policy\n"))
        zsock = os.path.join(self.rundir, "zserv.api")
        common = ["-u", "frr", "-g", "frr", "--vty_socket", self.rundir, "-P", "0",
                  "--log", "stdout", "--log-level", "warnings"]
        z = self.spawn([FRR_DIR + "/zebra", "-f", zconf, "-z", zsock, "-s",
                        str(self.args.zebra_nl_buf), "-i",
                        os.path.join(self.rundir, "zebra.pid")] + common, ns, "zebra")
        deadline = time.monotonic() + 20
        while not os.path.exists(zsock):
            if z.poll() is not None or time.monotonic() > deadline:
                raise BenchError("zebra did not open its socket %s" % zsock)
            time.sleep(0.1)
        self.spawn([FRR_DIR + "/bgpd", "-f", bconf, "-z", zsock, "-i",
                    os.path.join(self.rundir, "bgpd.pid")] + common, ns, "bgpd")


DUTS = {"skua": Skua, "skua-base": benchlib.skua_baseline(Skua), "bird": Bird, "frr": Frr}


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------

def fib_prefixes(pid):
    """Prefixes of the main table in the namespace of process pid (None if it is gone).
    Without policy routing the kernel keeps main and local in one trie: this counts both;
    only differences are used."""
    try:
        with open("/proc/%d/net/fib_triestat" % pid) as f:
            in_main = False
            for line in f:
                if line.startswith("Main:"):
                    in_main = True
                elif in_main and line.strip().startswith("Prefixes:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_pressure():
    """The machine's CPU pressure (PSI "some", 10 s average, %): the share of time some
    runnable task waited for a CPU.  A better sign of contention than the load average."""
    try:
        with open("/proc/pressure/cpu") as f:
            return float(f.readline().split()[1].split("=")[1])
    except (OSError, IndexError, ValueError):
        return None


def cpu_delta(a, b, res, key):
    """CPU between two cpu_of() readings into res[key] (total), key_user, key_system."""
    if a is None or b is None:
        raise BenchError("a DUT process is gone")
    res[key] = round(b[0] + b[1] - a[0] - a[1], 2)
    res[key.replace("_s", "_user_s")] = round(b[0] - a[0], 2)
    res[key.replace("_s", "_system_s")] = round(b[1] - a[1], 2)


def hwm_of(pids):
    out = {}
    for pid in pids:
        st = benchlib.proc_status(pid) or {}
        out[pid] = st.get("VmHWM")
    return out


class RouteWatch:
    """When did the DUT namespace's IPv4 table last change?  A netlink socket inside the
    namespace, subscribed to the route notifications (RTMGRP_IPV4_ROUTE), with a socket
    filter that lets through only the routes whose third octet is 0: one /24 in 256 of the
    injected table (16.0.0.0 + i * 256), spread over all of it.  Reading every notification
    would cost this script several CPU seconds per million routes, taken from the DUT on a
    2-CPU machine; a sample of 1 in 256 costs nothing and dates the last change to within the
    time the DUT takes for a few hundred routes.  A lost batch (ENOBUFS) counts as activity.
    The socket is opened inside the namespace through setns(2), then the thread returns."""

    RTMGRP_IPV4_ROUTE = 0x40
    CLONE_NEWNET = 0x40000000
    SO_ATTACH_FILTER = 26
    # The kernel's IPv4 route messages: nlmsghdr (16) rtmsg (12) RTA_TABLE (8) RTA_DST (type
    # at offset 38, address at 40).  Pass when the attribute is RTA_DST (1) and the address's
    # third byte is 0.
    FILTER = [(0x30, 0, 0, 38), (0x15, 0, 3, 1), (0x30, 0, 0, 42), (0x15, 0, 1, 0),
              (0x06, 0, 0, 0xffff), (0x06, 0, 0, 0)]

    def __init__(self, pid):
        libc = ctypes.CDLL(None, use_errno=True)
        home = os.open("/proc/self/ns/net", os.O_RDONLY)
        there = os.open("/proc/%d/ns/net" % pid, os.O_RDONLY)
        try:
            if libc.setns(there, self.CLONE_NEWNET) != 0:
                raise BenchError("setns: %s" % os.strerror(ctypes.get_errno()))
            try:
                self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                          socket.NETLINK_ROUTE)
            finally:
                if libc.setns(home, self.CLONE_NEWNET) != 0:
                    raise BenchError("setns back: %s" % os.strerror(ctypes.get_errno()))
        finally:
            os.close(home)
            os.close(there)
        code = b"".join(struct.pack("=HBBI", *insn) for insn in self.FILTER)
        self._code = ctypes.create_string_buffer(code)  # must outlive the setsockopt
        prog = struct.pack("=HxxxxxxQ", len(self.FILTER), ctypes.addressof(self._code))
        self.sock.setsockopt(socket.SOL_SOCKET, self.SO_ATTACH_FILTER, prog)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
        self.sock.bind((0, self.RTMGRP_IPV4_ROUTE))
        self.sock.setblocking(False)
        self.messages = self.overruns = 0

    def drain(self, wait):
        """Wait up to `wait` s for notifications, read all there are; returns the monotonic
        time of the last one read, or None."""
        last = None
        ready, _, _ = select.select([self.sock], [], [], wait)
        while ready:
            try:
                data = self.sock.recv(1 << 20)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno != errno.ENOBUFS:
                    raise
                self.overruns += 1
            else:
                self.messages += 1
            last = time.monotonic()
        return last

    def close(self):
        self.sock.close()


def wait_fib(args, pid, watch, goal, procs, what, samples, t0):
    """Wait until the kernel's table has stopped changing for --quiet s and its count meets
    `goal`; returns the monotonic time of its last change.  The count is read only when the
    table is quiet: the kernel walks the whole trie for each reading (some 0.1-0.2 s at a
    million routes), which would otherwise compete with the DUT for the CPUs.  Fails on the
    timeout, when a DUT process exits, or after --stall s without any change."""
    deadline = time.monotonic() + args.timeout
    last_change = t_check = None
    while True:
        t = watch.drain(min(args.quiet, 0.25))
        now = time.monotonic()
        if t is not None:
            last_change = t
            continue
        quiet_since = last_change or t0
        if now - quiet_since >= args.quiet and (t_check is None or t_check < quiet_since
                                                 or now - t_check >= args.quiet * 4):
            n = fib_prefixes(pid)
            t_check = time.monotonic()
            if n is None:
                raise BenchError("the DUT's namespace is gone (%s)" % what)
            samples.append((round(now - t0, 3), n))
            if goal(n):
                return last_change or now
            if now - quiet_since > args.stall:
                raise BenchError("%s: no route change for %.0f s (count %d)"
                                    % (what, args.stall, n))
        for p in procs:
            if p.poll() is not None:
                raise BenchError("a DUT process exited (status %d) during %s"
                                    % (p.returncode, what))
        if now > deadline:
            raise BenchError("%s: not done after %.0f s" % (what, args.timeout))


def route_check(dut, ns):
    """One installed route, read back: the right gateway and protocol."""
    out = benchlib.run(["ip", "-4", "route", "show", FIRST_PREFIX], ns=ns, capture=True)
    if ("via %s" % INJ_ADDR) not in out or ("proto %s" % dut.proto) not in out:
        raise BenchError("%s in the kernel is not what %s should install: %r"
                            % (FIRST_PREFIX, dut.name, out.strip()))
    return out.strip()


def injector_argv(args):
    return benchlib.blaster_argv(args.blaster, args.timeout * 2 + 60, "injector", DUT_ADDR,
                                 INJ_ADDR, INJ_AS, DUT_AS, [
                                     "--inject", str(args.prefixes), "--per-set",
                                     str(args.per_set), "--linger", "-1"])


def measure(args, dut, nss, workdir, run_no):
    inj_ns, dut_ns = nss
    dut.new_run(workdir, run_no)
    res = {"dut": dut.name, "run": run_no, "prefixes": args.prefixes, "ok": False,
           "loadavg_before": list(os.getloadavg()), "cpu_pressure_before": cpu_pressure()}
    inj = watch = None
    try:
        dut.start(dut_ns)
        t_start = time.monotonic()
        benchlib.wait_listening(dut_ns, 179, t_start + 30, dut.procs[-1])
        pid0 = dut.procs[0].pid  # any process inside the DUT namespace
        base = fib_prefixes(pid0)
        watch = RouteWatch(pid0)
        pids = dut.pids()
        res["fib_before"] = base

        inj = benchlib.spawn(injector_argv(args), inj_ns, os.path.join(dut.rundir, "inj.log"),
                             stdout=subprocess.PIPE)
        inj_rd = benchlib.JsonReader(benchlib.text_stdout(inj), "injector")
        inj_rd.start()
        ev = inj_rd.wait_for(("established", "result"), time.monotonic() + 60)
        if not ev or ev["event"] != "established":
            raise BenchError("the injector's session did not come up: %s" % (ev,))
        cpu0 = benchlib.cpu_of(pids)
        samples = []
        t_inst = wait_fib(args, pid0, watch, lambda n: n - base >= args.prefixes, dut.procs,
                          "install", samples, time.monotonic())
        cpu1 = benchlib.cpu_of(pids)
        first = benchlib.first_update_time(inj_rd)
        res["install_s"] = round(t_inst - first, 3)
        cpu_delta(cpu0, cpu1, res, "cpu_install_s")
        res["route"] = route_check(dut, dut_ns)
        res["install_samples"] = benchlib.downsample(samples, 200)
        res["loadavg_installed"] = list(os.getloadavg())
        res["cpu_pressure_installed"] = cpu_pressure()

        # Let the DUT finish what follows an install (BIRD's and FRR's own bookkeeping)
        # before the removal starts, so that its CPU is counted in one phase only.
        time.sleep(args.settle)
        watch.drain(0)
        cpu2 = benchlib.cpu_of(pids)
        cpu_delta(cpu1, cpu2, res, "cpu_after_install_s")
        samples = []
        t_stop = time.monotonic()
        CLEAN.stop_proc(inj)
        t_rm = wait_fib(args, pid0, watch, lambda n: n <= base, dut.procs, "removal", samples,
                        t_stop)
        cpu3 = benchlib.cpu_of(pids)
        res["removal_s"] = round(t_rm - t_stop, 3)
        cpu_delta(cpu2, cpu3, res, "cpu_removal_s")
        res["removal_samples"] = benchlib.downsample(samples, 200)
        hwm = hwm_of(pids)
        res["vmhwm_kib_each"] = {"%s/%d" % (dut.name, i): hwm[p] for i, p in enumerate(pids)}
        res["vmhwm_kib"] = sum(v or 0 for v in hwm.values())
        res["sampled_notifications"] = watch.messages
        res["notification_overruns"] = watch.overruns
        res["loadavg_after"] = list(os.getloadavg())
        res["cpu_pressure_after"] = cpu_pressure()
        res["ok"] = True
    except BenchError as e:
        res["error"] = str(e)
        log("%s run %d: %s (logs in %s)" % (dut.name, run_no, e, dut.rundir))
    finally:
        if watch:
            watch.close()
        for p in ([inj] if inj else []) + list(reversed(dut.procs)):
            CLEAN.release(p, grace=args.grace)
        # Whatever a DUT left behind (a failed run, a slow shutdown) must not count in the
        # next DUT's baseline: the table goes with the namespace, rebuilt per run.
    return res


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

KEYS = ("install_s", "removal_s", "cpu_install_s", "cpu_removal_s")
SPLIT = ("cpu_install_user_s", "cpu_install_system_s", "cpu_removal_user_s",
         "cpu_removal_system_s")


def summarise(results, order):
    summary = {}
    for name in order:
        runs, failed = benchlib.split_runs(results, name)
        s = {"runs": len(runs), "failed": len(failed)}
        for k in KEYS + SPLIT:
            if runs:
                s[k] = round(statistics.median(r[k] for r in runs), 3)
        if runs:
            s["vmhwm_mib"] = round(statistics.median(r["vmhwm_kib"] for r in runs) / 1024, 1)
            s["loadavg"] = [round(r["loadavg_before"][0], 2) for r in runs]
            s["cpu_pressure"] = [r.get("cpu_pressure_before") for r in runs]
        if failed:
            s["errors"] = [r.get("error") for r in failed]
        summary[name] = s
    skua = summary.get("skua", {})
    for other in ("bird", "frr"):
        o = summary.get(other, {})
        if skua.get("runs") and o.get("runs"):
            skua["vs_" + other] = {k: round(skua[k] / o[k], 2) if o[k] else None
                                   for k in KEYS + ("vmhwm_mib",)}
    return summary


def table(summary, versions, skipped):
    rows = ["| DUT | version | install (s) | removal (s) | CPU install (s) user+sys "
            "| CPU removal (s) user+sys | VmHWM (MiB) | load avg (1 min) / CPU pressure "
            "(%) before each run | runs |",
            "|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for name, s in summary.items():
        if not s["runs"]:
            rows.append("| %s | %s | failed | | | | | | 0/%d |" % (
                name, versions.get(name, "?"), s["failed"]))
            continue
        rows.append("| %s | %s | %.2f | %.2f | %.1f (%.1f+%.1f) | %.1f (%.1f+%.1f) | %.0f | %s "
                    "| %d/%d |" % (
                        name, versions.get(name, "?"), s["install_s"], s["removal_s"],
                        s["cpu_install_s"], s["cpu_install_user_s"], s["cpu_install_system_s"],
                        s["cpu_removal_s"], s["cpu_removal_user_s"], s["cpu_removal_system_s"],
                        s["vmhwm_mib"],
                        ", ".join("%.2f / %s" % (x, "?" if p is None else "%.0f" % p)
                                  for x, p in zip(s["loadavg"], s["cpu_pressure"])),
                        s["runs"], s["runs"] + s["failed"]))
    for name, why in skipped.items():
        rows.append("| %s | skipped: %s | | | | | | | |" % (name, why))
    skua = summary.get("skua", {})
    ratios = [(o, skua["vs_" + o]) for o in ("bird", "frr") if "vs_" + o in skua]
    if ratios:
        rows += ["", "| ratio | install | removal | CPU install | CPU removal | VmHWM |",
                 "|---|---:|---:|---:|---:|---:|"]
        for o, r in ratios:
            rows.append("| skua / %s | %s |" % (o, " | ".join(
                "%.2f" % r[k] if r[k] is not None else "-"
                for k in KEYS + ("vmhwm_mib",))))
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Kernel FIB install benchmark: an IPv4 table over eBGP into skua, BIRD "
                    "and FRR (zebra), each installing into its namespace's kernel FIB. Root; "
                    "creates and removes its own namespaces.")
    benchlib.add_table_args(p, "skua,bird,frr", "IPv4 /24 routes (default 1000000)",
                            "100000 routes", "prefixes per attribute set (default 100)")
    p.add_argument("--zebra-nl-buf", type=int, default=90000000,
                   help="zebra's -s (netlink receive buffer), default 90000000 as in FRR's "
                        "daemons file")
    p.add_argument("--quiet", type=float, default=1.0,
                   help="a phase is checked for completion once the kernel's table has not "
                        "changed for this many seconds (default 1)")
    p.add_argument("--timeout", type=float, default=600,
                   help="bound on each phase (install, removal) in seconds (default 600)")
    p.add_argument("--stall", type=float, default=120,
                   help="give up when the FIB count has not moved for this long (default 120)")
    p.add_argument("--settle", type=float, default=3.0,
                   help="seconds between the end of the install and the removal (default 3)")
    p.add_argument("--grace", type=float, default=30.0,
                   help="seconds a DUT gets to exit after SIGTERM before SIGKILL (default 30)")
    benchlib.add_output_args(p)
    a = p.parse_args(argv)
    benchlib.check_table_args(p, a, DUTS)
    if a.repeat < 1 or a.timeout <= 0 or a.quiet <= 0:
        p.error("--repeat, --timeout and --quiet must be positive")
    return a


def main(argv):
    args = parse_args(argv)

    def runs(duts, versions, workdir, results):
        tag = "fi%d" % os.getpid()
        log("%d routes, %d per attribute set; logs in %s" % (args.prefixes, args.per_set,
                                                             workdir))
        code = 0
        for r in range(1, args.repeat + 1):
            for d in duts:
                # A fresh pair of namespaces per run: every DUT starts from an empty FIB.
                dut_ns, (inj_ns,) = benchlib.setup_netns("%s-%d%s" % (tag, r, d.name[0]),
                                                         (("inj", INJ_ADDR, DUT_ADDR),))
                log("%s (%s), run %d/%d, load average %.2f ..." % (
                    d.name, versions[d.name], r, args.repeat, os.getloadavg()[0]))
                try:
                    res = measure(args, d, (inj_ns, dut_ns), workdir, r)
                finally:
                    benchlib.teardown_netns((inj_ns, dut_ns))
                results.append(res)
                if res["ok"]:
                    log("  install %.2f s (CPU %.1f s), removal %.2f s (CPU %.1f s), "
                        "VmHWM %.0f MiB" % (res["install_s"], res["cpu_install_s"],
                                            res["removal_s"], res["cpu_removal_s"],
                                            res["vmhwm_kib"] / 1024))
                else:
                    code = 1
        return code

    report = benchlib.Report(
        summarise=summarise, table=table, stem="fib_install",
        settings={"prefixes": args.prefixes, "per_set": args.per_set, "repeat": args.repeat,
                  "quiet_s": args.quiet, "zebra_nl_buf": args.zebra_nl_buf},
        heading=lambda meta: "FIB install and removal, %d IPv4 routes, %d per attribute set, "
                             "%s (%s, %d CPUs)" % (args.prefixes, args.per_set, meta["date"],
                                                   meta["kernel"], meta["cpus"]))
    return benchlib.drive(args, argv, DUTS, "skua-fib-", runs, report)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
