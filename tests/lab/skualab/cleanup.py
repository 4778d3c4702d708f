# SPDX-License-Identifier: ISC
"""Everything the lab creates is registered here so it can be undone.

Teardown runs from three places: the pytest fixture finalizers (normal path), atexit (pytest
aborted, an exception escaped) and the SIGTERM/SIGHUP handlers, which turn the signal into a
KeyboardInterrupt so pytest and the CLI unwind through their finalizers first.  Only what this
process started is touched: processes by the PID (and process group, which each daemon gets
for itself) we recorded, namespaces by the names we created.
"""

import atexit
import os
import re
import signal
import subprocess
import threading
import time

# Namespace names are "sl<pid>-<n>-<name>": the pid keeps parallel runs apart and lets a later
# run recognise leftovers of a run that was SIGKILLed.
NETNS_PREFIX = "sl%d-" % os.getpid()
_STALE_RE = re.compile(r"^sl(\d+)-")

TERM_GRACE = 5.0  # seconds between SIGTERM and SIGKILL
NETNS_RUN_DIR = "/run/netns"
_lock = threading.RLock()
_processes = []  # skualab.daemons.Process objects, in start order
_namespaces = []  # names, in creation order


def register_process(proc):
    with _lock:
        _processes.append(proc)


def unregister_process(proc):
    with _lock:
        if proc in _processes:
            _processes.remove(proc)


def register_netns(name):
    with _lock:
        _namespaces.append(name)


def unregister_netns(name):
    with _lock:
        if name in _namespaces:
            _namespaces.remove(name)


def run_quiet(argv, timeout=10):
    """Run a short command; never raises; returns (rc, combined output)."""
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, check=False)
        return p.returncode, p.stdout.decode(errors="replace")
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)


def kill_group(pid, sig):
    """Signal the process group a daemon leads (we start each with setsid), else the pid."""
    try:
        os.killpg(pid, sig)
        return
    except ProcessLookupError:
        pass
    except PermissionError:
        pass
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def netns_pids(name):
    rc, out = run_quiet(["ip", "netns", "pids", name])
    if rc != 0:
        return []
    return [int(x) for x in out.split() if x.isdigit()]


def delete_netns(name, log=None):
    """Kill whatever still runs inside one of our namespaces, then delete it."""
    stray = netns_pids(name)
    for pid in stray:
        if log:
            log("killing stray pid %d left in namespace %s" % (pid, name))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 5
    while stray and netns_pids(name) and time.monotonic() < deadline:
        time.sleep(0.1)
    rc, out = run_quiet(["ip", "netns", "del", name])
    unregister_netns(name)
    if rc != 0 and log and "No such file" not in out:
        log("could not delete namespace %s: %s" % (name, out.strip()))


def cleanup_all(log=None):
    """Stop every registered process (newest first), then delete every namespace."""
    with _lock:
        procs = list(reversed(_processes))
        names = list(reversed(_namespaces))
    for p in procs:
        try:
            p.stop(grace=TERM_GRACE)
        except Exception as e:  # teardown must go on whatever happens
            if log:
                log("stopping %s: %s" % (p, e))
        unregister_process(p)
    for n in names:
        delete_netns(n, log)


def list_netns():
    """Names of the named network namespaces.  Read from /run/netns, where `ip netns add`
    mounts them: `ip netns list` also asks the kernel for each one's id and fails
    ("Peer netns reference is invalid") while another namespace is being destroyed."""
    try:
        return sorted(os.listdir(NETNS_RUN_DIR))
    except FileNotFoundError:
        return []


# Runs side by side (pytest-xdist's workers, two checkouts) each reap when a lab starts. What a
# run killed a moment ago left may be what another is looking at (the teardown scenario kills
# its own child and checks what it left): leftovers younger than this are left alone.
STALE_MIN_AGE = 60.0


def netns_age(name):
    """Seconds since the namespace was made (its /run/netns entry's time), 0 if unknown."""
    try:
        return time.time() - os.stat(os.path.join(NETNS_RUN_DIR, name)).st_mtime
    except OSError:
        return 0.0


def reap_stale(log=None, min_age=STALE_MIN_AGE):
    """Delete namespaces left by earlier runs whose process is gone (e.g. SIGKILLed), once
    they are min_age seconds old."""
    for name in list_netns():
        m = _STALE_RE.match(name)
        if not m:
            continue
        pid = int(m.group(1))
        if pid == os.getpid() or os.path.exists("/proc/%d" % pid):
            continue
        if min_age and netns_age(name) < min_age:
            continue
        if log:
            log("removing stale namespace %s (run %d is gone)" % (name, pid))
        delete_netns(name, log)


def _on_signal(signum, frame):
    # Unwind like Ctrl-C so finalizers run; atexit catches whatever is left.
    signal.signal(signum, signal.SIG_DFL)
    raise KeyboardInterrupt("received signal %d" % signum)


_installed = False


def install_handlers():
    global _installed
    if _installed:
        return
    _installed = True
    atexit.register(cleanup_all)
    if threading.current_thread() is threading.main_thread():
        for s in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, _on_signal)
        # A shell starting us in the background may have left SIGINT ignored, and Python
        # then keeps it ignored: Ctrl-C or `timeout -s INT` must still tear the lab down.
        signal.signal(signal.SIGINT, signal.default_int_handler)
