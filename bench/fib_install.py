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
import json
import os
import pwd
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import table_transfer as tt

INJ_ADDR, DUT_ADDR = "192.0.2.1", "192.0.2.2"
INJ_AS, DUT_AS = 65001, 65000
FRR_DIR = "/usr/lib/frr"
SO_RCVBUFFORCE = 33
FIRST_PREFIX = "16.0.0.0/24"  # what the injector sends first (bgp_blaster's default start)


def log(msg):
    print("fib_install: %s" % msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# DUTs: each starts its processes in the DUT namespace and names the one whose namespace the
# FIB is read through.
# ---------------------------------------------------------------------------------------------

class Dut:
    name = "?"
    proto = "?"  # the protocol its routes carry in the kernel

    def __init__(self, args):
        self.args = args
        self.rundir = None
        self.procs = []

    def binaries(self):
        raise NotImplementedError

    def missing(self):
        for b in self.binaries():
            if not (os.path.isfile(b) and os.access(b, os.X_OK)):
                return "%s not found or not executable" % b
        return None

    def write(self, fname, text):
        path = os.path.join(self.rundir, fname)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path

    def spawn(self, argv, ns, label):
        p = tt.spawn(argv, ns, os.path.join(self.rundir, label + ".log"))
        self.procs.append(p)
        return p

    def start(self, ns):
        raise NotImplementedError

    def pids(self):
        return [p.pid for p in self.procs]


class Skua(Dut):
    name = "skua"
    proto = "bgp"

    def binaries(self):
        return [self.args.skua_bgpd]

    def version(self):
        return tt.first_line([self.args.skua_bgpd, "--version"])

    def start(self, ns):
        conf = self.write("bgpd.conf", """hostname dut
router bgp {das}
 bgp router-id {dut}
 neighbor {inj} remote-as {ias}
 address-family ipv4 unicast
  neighbor {inj} activate
 exit-address-family
exit
""".format(das=DUT_AS, dut=DUT_ADDR, inj=INJ_ADDR, ias=INJ_AS))
        self.spawn([self.args.skua_bgpd, "-f", conf, "--vty-socket",
                    os.path.join(self.rundir, "bgpd.vty")], ns, "bgpd")


class Bird(Dut):
    name = "bird"
    proto = "bird"

    def binaries(self):
        return [shutil.which("bird") or "/usr/sbin/bird"]

    def version(self):
        return tt.first_line([self.binaries()[0], "--version"])

    def start(self, ns):
        # The kernel protocol with its defaults (scan time 60 s, routes removed at shutdown)
        # exporting every route; BIRD's default kernel metric.
        conf = self.write("bird.conf", """router id {dut};
log stderr {{ warning, error, fatal, bug }};
protocol device {{ }}
protocol kernel {{
  ipv4 {{ export all; }};
}}
protocol bgp inj {{
  local {dut} as {das};
  neighbor {inj} as {ias};
  ipv4 {{ import all; export none; }};
}}
""".format(dut=DUT_ADDR, das=DUT_AS, inj=INJ_ADDR, ias=INJ_AS))
        self.spawn([self.binaries()[0], "-f", "-c", conf, "-s",
                    os.path.join(self.rundir, "bird.ctl"), "-P",
                    os.path.join(self.rundir, "bird.pid")], ns, "bird")


class Frr(Dut):
    """bgpd and zebra, as FRR runs them: zebra installs, bgpd talks to zebra."""

    name = "frr"
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

    def version(self):
        return tt.first_line([FRR_DIR + "/bgpd", "--version"]).replace("bgpd version ", "FRR ")

    def start(self, ns):
        frr = pwd.getpwnam("frr")
        os.chown(self.rundir, frr.pw_uid, frr.pw_gid)
        zconf = self.write("zebra.conf", "hostname dut\n")
        bconf = self.write("bgpd.conf", """hostname dut
router bgp {das}
 bgp router-id {dut}
 no bgp ebgp-requires-policy
 neighbor {inj} remote-as {ias}
 address-family ipv4 unicast
  neighbor {inj} activate
 exit-address-family
exit
""".format(das=DUT_AS, dut=DUT_ADDR, inj=INJ_ADDR, ias=INJ_AS))
        zsock = os.path.join(self.rundir, "zserv.api")
        common = ["-u", "frr", "-g", "frr", "--vty_socket", self.rundir, "-P", "0",
                  "--log", "stdout", "--log-level", "warnings"]
        z = self.spawn([FRR_DIR + "/zebra", "-f", zconf, "-z", zsock, "-s",
                        str(self.args.zebra_nl_buf), "-i",
                        os.path.join(self.rundir, "zebra.pid")] + common, ns, "zebra")
        deadline = time.monotonic() + 20
        while not os.path.exists(zsock):
            if z.poll() is not None or time.monotonic() > deadline:
                raise tt.BenchError("zebra did not open its socket %s" % zsock)
            time.sleep(0.1)
        self.spawn([FRR_DIR + "/bgpd", "-f", bconf, "-z", zsock, "-i",
                    os.path.join(self.rundir, "bgpd.pid")] + common, ns, "bgpd")


DUTS = {"skua": Skua, "bird": Bird, "frr": Frr}


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


def cpu_of(pids):
    """(user, system) CPU seconds of every thread of the processes, or None if one is gone.
    The kernel's work on routes sent over netlink is system time of the sender."""
    user = system = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        user += int(fields[11]) / tick
        system += int(fields[12]) / tick
    return user, system


def cpu_delta(a, b, res, key):
    """CPU between two cpu_of() readings into res[key] (total), key_user, key_system."""
    if a is None or b is None:
        raise tt.BenchError("a DUT process is gone")
    res[key] = round(b[0] + b[1] - a[0] - a[1], 2)
    res[key.replace("_s", "_user_s")] = round(b[0] - a[0], 2)
    res[key.replace("_s", "_system_s")] = round(b[1] - a[1], 2)


def hwm_of(pids):
    out = {}
    for pid in pids:
        st = tt.proc_status(pid) or {}
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
                raise tt.BenchError("setns: %s" % os.strerror(ctypes.get_errno()))
            try:
                self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                          socket.NETLINK_ROUTE)
            finally:
                if libc.setns(home, self.CLONE_NEWNET) != 0:
                    raise tt.BenchError("setns back: %s" % os.strerror(ctypes.get_errno()))
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
                raise tt.BenchError("the DUT's namespace is gone (%s)" % what)
            samples.append((round(now - t0, 3), n))
            if goal(n):
                return last_change or now
            if now - quiet_since > args.stall:
                raise tt.BenchError("%s: no route change for %.0f s (count %d)"
                                    % (what, args.stall, n))
        for p in procs:
            if p.poll() is not None:
                raise tt.BenchError("a DUT process exited (status %d) during %s"
                                    % (p.returncode, what))
        if now > deadline:
            raise tt.BenchError("%s: not done after %.0f s" % (what, args.timeout))


def route_check(dut, ns):
    """One installed route, read back: the right gateway and protocol."""
    out = tt.run(["ip", "-4", "route", "show", FIRST_PREFIX], ns=ns, capture=True)
    if ("via %s" % INJ_ADDR) not in out or ("proto %s" % dut.proto) not in out:
        raise tt.BenchError("%s in the kernel is not what %s should install: %r"
                            % (FIRST_PREFIX, dut.name, out.strip()))
    return out.strip()


def injector_argv(args):
    return [args.blaster, "--timeout", str(args.timeout * 2 + 60), "--hold-time", "90",
            "--quiet", "--name", "injector", "--connect", DUT_ADDR, "--bind", INJ_ADDR,
            "--local-as", str(INJ_AS), "--peer-as", str(DUT_AS), "--inject",
            str(args.prefixes), "--per-set", str(args.per_set), "--linger", "-1"]


def measure(args, dut, nss, workdir, run_no):
    inj_ns, dut_ns = nss
    dut.rundir = os.path.join(workdir, "%s-%d" % (dut.name, run_no))
    os.makedirs(dut.rundir)
    os.chmod(dut.rundir, 0o755)
    dut.procs = []
    res = {"dut": dut.name, "run": run_no, "prefixes": args.prefixes, "ok": False,
           "loadavg_before": list(os.getloadavg()), "cpu_pressure_before": cpu_pressure()}
    inj = watch = None
    try:
        dut.start(dut_ns)
        t_start = time.monotonic()
        tt.wait_listening(dut_ns, 179, t_start + 30, dut.procs[-1])
        pid0 = dut.procs[0].pid  # any process inside the DUT namespace
        base = fib_prefixes(pid0)
        watch = RouteWatch(pid0)
        pids = dut.pids()
        res["fib_before"] = base

        inj = tt.spawn(injector_argv(args), inj_ns, os.path.join(dut.rundir, "inj.log"),
                       stdout=subprocess.PIPE)
        inj_rd = tt.JsonReader(tt._text(inj), "injector")
        inj_rd.start()
        ev = inj_rd.wait_for(("established", "result"), time.monotonic() + 60)
        if not ev or ev["event"] != "established":
            raise tt.BenchError("the injector's session did not come up: %s" % (ev,))
        cpu0 = cpu_of(pids)
        samples = []
        t_inst = wait_fib(args, pid0, watch, lambda n: n - base >= args.prefixes, dut.procs,
                          "install", samples, time.monotonic())
        cpu1 = cpu_of(pids)
        first = None
        for e in inj_rd.all + [inj_rd.wait_for(("sent",), time.monotonic() + 5) or {}]:
            if e.get("t_first_update"):
                first = e["t_first_update"]
                break
        if first is None:
            raise tt.BenchError("the injector reported no first UPDATE time")
        res["install_s"] = round(t_inst - first, 3)
        cpu_delta(cpu0, cpu1, res, "cpu_install_s")
        res["route"] = route_check(dut, dut_ns)
        res["install_samples"] = tt.downsample(samples, 200)
        res["loadavg_installed"] = list(os.getloadavg())
        res["cpu_pressure_installed"] = cpu_pressure()

        # Let the DUT finish what follows an install (BIRD's and FRR's own bookkeeping)
        # before the removal starts, so that its CPU is counted in one phase only.
        time.sleep(args.settle)
        watch.drain(0)
        cpu2 = cpu_of(pids)
        cpu_delta(cpu1, cpu2, res, "cpu_after_install_s")
        samples = []
        t_stop = time.monotonic()
        tt.CLEAN.stop_proc(inj)
        t_rm = wait_fib(args, pid0, watch, lambda n: n <= base, dut.procs, "removal", samples,
                        t_stop)
        cpu3 = cpu_of(pids)
        res["removal_s"] = round(t_rm - t_stop, 3)
        cpu_delta(cpu2, cpu3, res, "cpu_removal_s")
        res["removal_samples"] = tt.downsample(samples, 200)
        hwm = hwm_of(pids)
        res["vmhwm_kib_each"] = {"%s/%d" % (dut.name, i): hwm[p] for i, p in enumerate(pids)}
        res["vmhwm_kib"] = sum(v or 0 for v in hwm.values())
        res["sampled_notifications"] = watch.messages
        res["notification_overruns"] = watch.overruns
        res["loadavg_after"] = list(os.getloadavg())
        res["cpu_pressure_after"] = cpu_pressure()
        res["ok"] = True
    except tt.BenchError as e:
        res["error"] = str(e)
        log("%s run %d: %s (logs in %s)" % (dut.name, run_no, e, dut.rundir))
    finally:
        if watch:
            watch.close()
        for p in ([inj] if inj else []) + list(reversed(dut.procs)):
            tt.CLEAN.stop_proc(p, grace=args.grace)
            if p in tt.CLEAN.procs:
                tt.CLEAN.procs.remove(p)
        # Whatever a DUT left behind (a failed run, a slow shutdown) must not count in the
        # next DUT's baseline: the table goes with the namespace, rebuilt per run.
    return res


def setup_netns(tag):
    inj, dut = tag + "-inj", tag + "-dut"
    for ns in (inj, dut):
        tt.run(["ip", "netns", "add", ns])
        tt.CLEAN.netns.append(ns)
        tt.run(["ip", "link", "set", "lo", "up"], ns=ns)
    tt.run(["ip", "link", "add", "name", "eth0", "netns", inj, "type", "veth", "peer", "name",
            "to-inj", "netns", dut])
    for ns, dev, addr in ((inj, "eth0", INJ_ADDR), (dut, "to-inj", DUT_ADDR)):
        tt.run(["ip", "addr", "add", addr + "/24", "dev", dev], ns=ns)
        tt.run(["ip", "link", "set", dev, "up"], ns=ns)
    deadline = time.monotonic() + 10
    while not all("state UP" in tt.run(["ip", "-o", "link", "show", "dev", dev], ns=ns,
                                       capture=True)
                  for ns, dev in ((inj, "eth0"), (dut, "to-inj"))):
        if time.monotonic() > deadline:
            raise tt.BenchError("the veth link does not come up")
        time.sleep(0.1)
    return inj, dut


def teardown_netns(nss):
    for ns in nss:
        tt.run(["ip", "netns", "del", ns], check=False)
        if ns in tt.CLEAN.netns:
            tt.CLEAN.netns.remove(ns)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

KEYS = ("install_s", "removal_s", "cpu_install_s", "cpu_removal_s")
SPLIT = ("cpu_install_user_s", "cpu_install_system_s", "cpu_removal_user_s",
         "cpu_removal_system_s")


def summarise(results, order):
    summary = {}
    for name in order:
        runs = [r for r in results if r["dut"] == name and r["ok"]]
        failed = [r for r in results if r["dut"] == name and not r["ok"]]
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
    p.add_argument("--prefixes", type=int, default=1000000,
                   help="IPv4 /24 routes (default 1000000)")
    p.add_argument("--quick", action="store_true", help="100000 routes")
    p.add_argument("--duts", default="skua,bird,frr",
                   help="comma-separated DUTs, in order (default skua,bird,frr)")
    p.add_argument("--repeat", type=int, default=1, help="runs per DUT (median reported)")
    p.add_argument("--build-dir", default=os.path.join(tt.TOP, "build"),
                   help="skua build directory (default <repo>/build)")
    p.add_argument("--skua-bgpd", help="skua's bgpd (default BUILD_DIR/bgpd/bgpd)")
    p.add_argument("--blaster", help="bgp_blaster (default BUILD_DIR/bench/bgp_blaster)")
    p.add_argument("--per-set", type=int, default=100,
                   help="prefixes per attribute set (default 100)")
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
    p.add_argument("--out-dir", default=os.path.join(tt.HERE, "results"),
                   help="where the JSON and Markdown results go (default bench/results)")
    p.add_argument("--keep-logs", action="store_true",
                   help="keep the daemons' configurations and logs (path printed)")
    a = p.parse_args(argv)
    if a.quick:
        a.prefixes = 100000
    if a.prefixes < 1 or a.prefixes > 1 << 20:
        p.error("--prefixes must be between 1 and 1048576 (/24s of 16.0.0.0/4)")
    if a.repeat < 1 or a.timeout <= 0 or a.quiet <= 0:
        p.error("--repeat, --timeout and --quiet must be positive")
    a.skua_bgpd = a.skua_bgpd or os.path.join(a.build_dir, "bgpd", "bgpd")
    a.blaster = a.blaster or os.path.join(a.build_dir, "bench", "bgp_blaster")
    a.duts = [d.strip() for d in a.duts.split(",") if d.strip()]
    for d in a.duts:
        if d not in DUTS:
            p.error("unknown DUT %s (known: %s)" % (d, ", ".join(DUTS)))
    return a


def main(argv):
    args = parse_args(argv)
    if os.geteuid() != 0:
        log("must run as root (network namespaces)")
        return 2
    if not os.access(args.blaster, os.X_OK):
        log("bgp_blaster not found at %s (make bench/bgp_blaster, or --blaster)" % args.blaster)
        return 2
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, tt.on_signal)

    workdir = tempfile.mkdtemp(prefix="skua-fib-")
    os.chmod(workdir, 0o755)
    tag = "fi%d" % os.getpid()
    results, versions, skipped = [], {}, {}
    code = 0
    try:
        duts = []
        for name in args.duts:
            d = DUTS[name](args)
            why = d.missing()
            if why:
                log("skipping %s: %s" % (name, why))
                skipped[name] = why
                continue
            versions[name] = d.version()
            duts.append(d)
        log("%d routes, %d per attribute set; logs in %s" % (args.prefixes, args.per_set,
                                                             workdir))
        for r in range(1, args.repeat + 1):
            for d in duts:
                # A fresh pair of namespaces per run: every DUT starts from an empty FIB.
                nss = setup_netns("%s-%d%s" % (tag, r, d.name[0]))
                log("%s (%s), run %d/%d, load average %.2f ..." % (
                    d.name, versions[d.name], r, args.repeat, os.getloadavg()[0]))
                try:
                    res = measure(args, d, nss, workdir, r)
                finally:
                    teardown_netns(nss)
                results.append(res)
                if res["ok"]:
                    log("  install %.2f s (CPU %.1f s), removal %.2f s (CPU %.1f s), "
                        "VmHWM %.0f MiB" % (res["install_s"], res["cpu_install_s"],
                                            res["removal_s"], res["cpu_removal_s"],
                                            res["vmhwm_kib"] / 1024))
                else:
                    code = 1
    except tt.Stop as e:
        log("stopped by %s" % e)
        code = 130
    except tt.BenchError as e:
        log(str(e))
        code = 2
    finally:
        tt.CLEAN.all()
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
    base = os.path.join(args.out_dir, "fib_install-%d-%s" % (args.prefixes, stamp))
    meta = {
        "command": " ".join([sys.executable] + [os.path.abspath(sys.argv[0])] + argv),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "prefixes": args.prefixes, "per_set": args.per_set, "repeat": args.repeat,
        "quiet_s": args.quiet, "zebra_nl_buf": args.zebra_nl_buf,
        "kernel": os.uname().release, "cpus": os.cpu_count(),
        "versions": versions, "skipped": skipped,
    }
    with open(base + ".json", "w") as f:
        json.dump({"meta": meta, "summary": summary, "runs": results}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("FIB install and removal, %d IPv4 routes, %d per attribute set, %s (%s, %d "
                "CPUs)\n\n%s\n\nCommand: `%s`\n" % (args.prefixes, args.per_set, meta["date"],
                                                   meta["kernel"], meta["cpus"], md,
                                                   meta["command"]))
    log("results: %s.json, %s.md" % (base, base))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
