# SPDX-License-Identifier: ISC
"""A running scenario: namespaces, links, daemons, and bounded expectations on them."""

import itertools
import json
import os
import sys
import time

from . import cleanup, timescale
from .daemons import DaemonError, daemon_class, tail
from .jsoncmp import run_and_expect
from .netns import Netns, bridge, veth
from .topology import Topology

_counter = itertools.count(1)
SOCKET_PATH_MAX = 100  # sun_path is 108 bytes; keep a margin for the longest socket name


def base_logdir():
    """Where every lab of this process keeps its configs, sockets and logs."""
    given = os.environ.get("SKUALAB_LOGDIR")
    if not given:
        return "/tmp/skualab-%d" % os.getpid()
    # Under pytest-xdist each worker numbers its labs from 1: keep them apart.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return os.path.join(given, worker) if worker else given


def _stderr(msg):
    sys.stderr.write("skualab: %s\n" % msg)
    sys.stderr.flush()


class Lab:
    def __init__(self, scenario_dir, log=_stderr):
        self.topology = Topology(scenario_dir)
        self.log = log
        n = next(_counter)
        self.nsprefix = "%s%d-" % (cleanup.NETNS_PREFIX, n)
        self.dir = os.path.join(base_logdir(), "%s-%d" % (self.topology.name, n))
        self.namespaces = {}
        self.daemons = {}
        self.started = set()
        self.up = False
        self._budgets = {}
        self._established = {}  # router -> {peer address: bool} from wait_established()

    # --- setup / teardown ---------------------------------------------------------------

    def missing(self):
        """Why this lab cannot run here (not root, a binary missing), or None."""
        if os.geteuid() != 0:
            return "the lab needs root (network namespaces); run it with sudo"
        seen = set()
        for r in self.topology.routers.values():
            cls = daemon_class(r.kind)
            if cls in seen:
                continue
            seen.add(cls)
            why = cls.missing(self)
            if why:
                return "router %s (%s): %s" % (r.name, r.kind, why)
        return None

    def start(self):
        """Build every namespace and link, then start the autostart routers in file order."""
        cleanup.install_handlers()
        cleanup.reap_stale(self.log)
        os.makedirs(self.dir, mode=0o755, exist_ok=True)
        os.chmod(self.dir, 0o755)
        longest = os.path.join(self.dir, "x" * 12, "zserv.api")
        if len(longest) > SOCKET_PATH_MAX:
            raise DaemonError("run directory %s is too long for UNIX socket paths; set "
                              "SKUALAB_LOGDIR to a shorter directory" % self.dir)
        self.up = True
        try:
            self._build()
        except BaseException:
            # Never leave a half-built lab behind, whoever called start().
            self.teardown()
            raise
        return self

    def _build(self):
        for r in self.topology.routers.values():
            ns = Netns(self.nsprefix + r.name)
            ns.create()
            self.namespaces[r.name] = ns
        for link in self.topology.links:
            if link.is_lan:
                sw = Netns(self.nsprefix + link.name)
                sw.create()
                self.namespaces["@" + link.name] = sw
                bridge(sw, "br0",
                       [(self.namespaces[m], link.ifnames[m]) for m in link.members])
            else:
                (a, b) = list(link.members)
                veth(self.namespaces[a], link.ifnames[a], self.namespaces[b], link.ifnames[b])
        for r in self.topology.routers.values():
            ns = self.namespaces[r.name]
            for ifname, addrs in r.interfaces:
                for a in addrs:
                    ns.add_address(ifname, a)
                ns.ip("link", "set", ifname, "up")
            for a in r.loopback:
                ns.add_address("lo", a)
            if r.forwarding:
                ns.set_forwarding()
        for r in self.topology.routers.values():
            for dest, gateway in r.routes:
                self.namespaces[r.name].ip("-%d" % dest.version, "route", "add", str(dest),
                                           "via", str(gateway))
        for r in self.topology.routers.values():
            ns = self.namespaces[r.name]
            rundir = os.path.join(self.dir, r.name)
            os.makedirs(rundir, mode=0o755, exist_ok=True)
            self.daemons[r.name] = daemon_class(r.kind)(r, ns, rundir, self)
        for r in self.topology.routers.values():
            if r.autostart:
                self.start_router(r.name)

    def start_router(self, name):
        d = self.daemons[name]
        self.log("starting %s (%s) in %s" % (name, d.kind, d.netns.name))
        d.procs = []
        d.start()
        self.started.add(name)

    def stop_router(self, name):
        """Stop one router's daemons (SIGTERM, then SIGKILL after a bound)."""
        self.log("stopping %s" % name)
        self.daemons[name].stop()
        self.started.discard(name)

    def teardown(self):
        if not self.up:
            return
        self.up = False
        for name in reversed(list(self.daemons)):
            try:
                self.daemons[name].stop()
            except Exception as e:
                self.log("stopping %s: %s" % (name, e))
        for ns in reversed(list(self.namespaces.values())):
            ns.delete(self.log)

    def sanitizer_reports(self):
        """What AddressSanitizer/UBSan/LeakSanitizer reported in skua's logs (after
        teardown, LeakSanitizer's exit report included)."""
        found = []
        for d in self.daemons.values():
            if hasattr(d, "sanitizer_reports"):
                found += d.sanitizer_reports()
        return found

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.teardown()

    # --- access ---------------------------------------------------------------------------

    def __getitem__(self, name):
        return self.daemons[name]

    def addr(self, router, peer, version=4):
        """Address of `peer` on its link with `router` (what router's config names)."""
        return self.topology.peer_address(router, peer, version)

    def check_alive(self):
        """Raise DaemonError (with the log tail) if a started router's daemon died."""
        for name in self.started:
            self.daemons[name].check_alive()

    def log_files(self):
        out = []
        for d in self.daemons.values():
            out += d.logs()
        return out

    def log_tails(self, lines=30):
        parts = ["lab directory: %s" % self.dir]
        for path in self.log_files():
            parts.append("--- %s (last %d lines)\n%s" % (path, lines, tail(path, lines)))
        return "\n".join(parts)

    # --- expectations ---------------------------------------------------------------------

    def expect(self, what, func, expected, timeout=30, interval=1.0, needs=None):
        """Retry func() until it matches `expected` (JSON subset or checker callable), at most
        `timeout` seconds; fail fast if a daemon dies.  Returns the matching result.

        needs={router: [peer addresses]}: fail at once, without waiting, when an earlier
        wait_established() found one of those sessions down (see require_established)."""
        for router, addrs in (needs or {}).items():
            self.require_established(router, addrs)
        timeout = timescale.seconds(timeout)
        count = max(1, int(timeout / interval))
        ok, result, diff = run_and_expect(func, expected, count=count, wait=interval,
                                          check=self.check_alive)
        if ok:
            return result
        text = json.dumps(result, indent=1, sort_keys=True, default=str)
        if len(text) > 3000:
            text = text[:3000] + "\n... (truncated)"
        raise AssertionError("%s: still not true after %ds\nmismatch:\n%s\nlast value:\n%s"
                             % (what, timeout, diff, text))

    def wait_established(self, router, peers, timeout=60):
        """Wait until `router` reports every address in `peers` Established.  What it saw
        last is remembered for require_established()."""
        return self._wait_established(router, peers, timescale.seconds(timeout))

    def _wait_established(self, router, peers, timeout):
        """wait_established() with `timeout` already scaled."""
        want = {p: {"state": "Established"} for p in peers}
        count = max(1, int(timeout))
        ok, result, diff = run_and_expect(self.daemons[router].peers, want, count=count,
                                          wait=1.0, check=self.check_alive)
        seen = self._established.setdefault(router, {})
        for p in peers:
            seen[p] = bool(result and result.get(p, {}).get("state") == "Established")
        if not ok:
            raise AssertionError("%s: sessions with %s not all Established after %ds:\n%s\n"
                                 "peers: %s" % (router, ", ".join(peers), timeout, diff,
                                                json.dumps(result, sort_keys=True)))
        return result

    def wait_all_established(self, sessions, timeout=60):
        """wait_established() for {router: [peers]} within one shared `timeout`; every
        router's sessions are looked at and remembered even when an earlier one fails."""
        deadline = time.monotonic() + timescale.seconds(timeout)
        errors = []
        for router, peers in sessions.items():
            try:
                self._wait_established(router, peers,
                                       timeout=max(2, deadline - time.monotonic()))
            except AssertionError as e:
                errors.append(str(e))
        if errors:
            raise AssertionError("\n".join(errors))

    def require_established(self, router, peers):
        """Fail at once if an earlier wait_established() saw one of these sessions down: the
        tests that depend on a session then cost nothing instead of each waiting its full
        time.  Sessions never waited for are not judged here."""
        down = [p for p in peers if self._established.get(router, {}).get(p) is False]
        if down:
            raise AssertionError("not checked: %s's sessions with %s were not Established "
                                 "(see the sessions test)" % (router, ", ".join(down)))

    def budget(self, key, seconds, minimum=2):
        """A time budget shared by several tests: the first call starts it, later calls get
        what is left (at least `minimum`).  When the thing being waited for is broken, the
        first test waits and the others fail quickly instead of each waiting in full.
        In unscaled seconds, like every timeout handed to the lab's waits, which stretch it
        by SKUALAB_TIME_SCALE (skualab/timescale.py): elapsed time counts 1/scale."""
        start = self._budgets.setdefault(key, time.monotonic())
        return max(minimum, seconds - (time.monotonic() - start) / timescale.factor())
