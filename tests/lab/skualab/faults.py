# SPDX-License-Identifier: ISC
"""What the fault scenarios (tests/lab/scenarios/fault_*) share: their size (CI or full),
a process's resources from /proc, the kernel's BGP routes against skua's, and restarting a
router with a changed config.

Sizes: every fault scenario has a CI size cheap enough for `scripts/test-all.sh`, and the
size the fault is specified at, run by hand with SKUALAB_FULL=1 (see tests/lab/README.md).
"""

import ipaddress
import os
import time

from .netns import CommandError


def full():
    """SKUALAB_FULL=1: run the fault scenarios at their specified size."""
    return os.environ.get("SKUALAB_FULL") == "1"


def size(ci, full_size):
    return full_size if full() else ci


# ---- a process from /proc ----------------------------------------------------------------

def proc_status(pid):
    """/proc/PID/status as {key: value}, the kB figures (VmRSS, VmHWM...) as ints."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            value = value.strip()
            if value.endswith(" kB"):
                value = int(value[:-3])
            out[key] = value
    return out


def rss_kb(pid):
    return proc_status(pid)["VmRSS"]


def fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def nofile_limit(pid):
    """The soft RLIMIT_NOFILE of a process (from /proc/PID/limits)."""
    with open("/proc/%d/limits" % pid) as f:
        for line in f:
            if line.startswith("Max open files"):
                soft = line.split()[3]
                return None if soft == "unlimited" else int(soft)
    return None


def sanitized(pid):
    """True when the process runs AddressSanitizer: its quarantine holds freed memory (up to
    256 MB by default), so VmRSS says nothing about leaks there."""
    with open("/proc/%d/maps" % pid) as f:
        return any("libasan" in line for line in f)


def bgpd_pid(daemon):
    """The pid of a skua router's bgpd (ip netns exec execs it: the lab's process is it)."""
    if getattr(daemon, "strace_path", None):
        return daemon.bgpd_pid()
    return daemon.procs[0].pid


def log_lines(daemon, pattern=None):
    """Lines of a router's daemon log(s) (containing `pattern`, when given)."""
    lines = []
    for path in daemon.logs():
        try:
            with open(path, errors="replace") as f:
                lines += [ln.rstrip("\n") for ln in f if pattern is None or pattern in ln]
        except OSError:
            pass
    return lines


def kill_router(lab, name, sig):
    """Send `sig` to a router's daemon (one process: skua, the speaker) and reap it; the lab
    no longer counts it as started.  Returns the pid signalled."""
    d = lab[name]
    p = d.procs[0]
    os.kill(p.pid, sig)
    try:
        p.popen.wait(timeout=15)
    finally:
        d.stop()  # reaps, and stops anything left in its process group
        lab.started.discard(name)
    return p.pid


def start_router_with(lab, name, transform):
    """Start a router with its scenario config passed through transform(text)."""
    d = lab[name]
    lab.log("starting %s (%s) in %s, config transformed" % (name, d.kind, d.netns.name))
    d.procs = []
    d.start(transform=transform)
    lab.started.add(name)


# ---- the kernel's BGP routes against skua's --------------------------------------------------

def announced(start, prefix_len, count, first=0):
    """The set of prefixes a speaker [[announce]] block sends (start, prefix_len, count),
    from index `first` on, as `ip` and skua print them."""
    net = ipaddress.ip_network("%s/%d" % (start, prefix_len))
    step = 1 << (net.max_prefixlen - prefix_len)
    base = int(net.network_address)
    cls = ipaddress.IPv6Address if net.version == 6 else ipaddress.IPv4Address
    return {"%s/%d" % (cls(base + i * step), prefix_len) for i in range(first, count)}


def kernel_bgp_prefixes(netns, version, table=254, timeout=120):
    """The destinations of the `proto bgp` routes in a namespace's table (text output: the
    JSON of a million routes costs `ip` several times as long)."""
    out = netns.exec(["ip", "-%d" % version, "route", "show", "table", str(table), "proto",
                      "bgp"], timeout=timeout)
    host = "/32" if version == 4 else "/128"
    found = set()
    for line in out.splitlines():
        if not line or line[0].isspace():
            continue  # a multipath route's "nexthop" lines
        dst = line.split(None, 1)[0]
        found.add(dst if "/" in dst else dst + host)
    return found


def shown_installed(daemon, version, timeout=120):
    """What skua says it installed: the prefixes of `show ip|ipv6 route json`."""
    cmd = "show %s route json" % ("ip" if version == 4 else "ipv6")
    return set(daemon.vtysh_json(cmd, timeout=timeout))


def set_diff(name_a, a, name_b, b, sample=5):
    """None when equal, else a sentence with counts and a few examples each way."""
    if a == b:
        return None
    only_a, only_b = sorted(a - b), sorted(b - a)
    return ("%s has %d, %s has %d; only in %s: %d %s; only in %s: %d %s"
            % (name_a, len(a), name_b, len(b), name_a, len(only_a), only_a[:sample], name_b,
               len(only_b), only_b[:sample]))


def fib_status(daemon, timeout=10):
    """`show bgp fib json`, or None when bgpd does not answer in time (busy)."""
    try:
        return daemon.vtysh_json("show bgp fib json", timeout=timeout)
    except CommandError:
        return None


def wait_quiet_cpu(pid, busy_below=0.05, window=1.0, timeout=60):
    """Wait until a process uses less than `busy_below` of a CPU over `window` seconds;
    returns that share (raises AssertionError after `timeout`)."""
    from .probes import cpu_seconds
    deadline = time.monotonic() + timeout
    while True:
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(window)
        share = (cpu_seconds(pid) - c0) / (time.monotonic() - t0)
        if share < busy_below:
            return share
        if time.monotonic() > deadline:
            raise AssertionError("pid %d still uses %.0f%% of a CPU after %ds"
                                 % (pid, share * 100, timeout))
