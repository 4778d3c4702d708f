# SPDX-License-Identifier: ISC
"""Starting, querying and stopping the BGP speakers, one class per kind.

Every daemon runs in the foreground inside its router's namespace (`ip netns exec` execs, so
the PID we hold is the daemon's), in its own process group, with stdout and stderr appended
to <rundir>/<daemon>.log.
"""

import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import time

from . import cleanup, parsers, runuser, timescale
from .netns import CommandError, run

FRR_DIR = "/usr/lib/frr"
RPKI_NODE_RE = re.compile(r"^rpki\s*$", re.M)
SANITIZER_RE = re.compile(r"ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer")


class DaemonError(Exception):
    pass


def tail(path, lines=40):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            data = f.read().decode(errors="replace")
    except OSError as e:
        return "(cannot read %s: %s)" % (path, e)
    return "\n".join(data.splitlines()[-lines:])


class Process:
    """One started process, stopped by PID (its own process group), never by name."""

    def __init__(self, name, argv, log_path, env=None, cwd=None):
        self.name = name
        self.argv = argv
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.log.write(("=== %s: %s\n" % (time.strftime("%H:%M:%S"), " ".join(argv))).encode())
        self.log.flush()
        self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log,
                                      stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                      start_new_session=True)
        self.pid = self.popen.pid
        cleanup.register_process(self)

    def __repr__(self):
        return "%s(pid %d)" % (self.name, self.pid)

    def alive(self):
        return self.popen.poll() is None

    def returncode(self):
        return self.popen.poll()

    def stop(self, grace=cleanup.TERM_GRACE):
        """SIGTERM, wait up to `grace` s, then SIGKILL; the whole group either way."""
        if self.popen.poll() is None:
            cleanup.kill_group(self.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        # Helpers the daemon spawned (ExaBGP processes) share its group: make sure.
        cleanup.kill_group(self.pid, signal.SIGKILL)
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        cleanup.unregister_process(self)
        if not self.log.closed:
            self.log.close()


def wait_for(what, predicate, timeout, procs=(), interval=0.1):
    """Bounded wait (stretched by SKUALAB_TIME_SCALE); fails early with the log when one
    of `procs` exits."""
    timeout = timescale.seconds(timeout)
    deadline = time.monotonic() + timeout
    while True:
        for p in procs:
            if not p.alive():
                raise DaemonError("%s exited with status %s while waiting for %s; log %s:\n%s"
                                  % (p, p.returncode(), what, p.log_path, tail(p.log_path)))
        if predicate():
            return
        if time.monotonic() > deadline:
            logs = "".join("\n--- %s:\n%s" % (p.log_path, tail(p.log_path)) for p in procs)
            raise DaemonError("%s: not ready after %ds%s" % (what, timeout, logs))
        time.sleep(interval)


def which(path_or_name):
    if os.path.isabs(path_or_name):
        return path_or_name if os.access(path_or_name, os.X_OK) else None
    return shutil.which(path_or_name, path="/usr/sbin:/usr/bin:/sbin:/bin")


class Daemon:
    """Base class: a router's BGP speaker.  Subclasses define start() and the queries."""

    kind = None
    config_name = None  # file expected in the scenario's router directory
    binaries = ()  # what must be installed, checked before the lab starts

    def __init__(self, router, netns, rundir, lab):
        self.router = router
        self.netns = netns
        self.rundir = rundir
        self.lab = lab
        self.procs = []

    @property
    def name(self):
        return self.router.name

    @classmethod
    def missing(cls, lab):
        """A sentence saying what is missing to run this kind, or None."""
        for b in cls.binaries:
            if not which(b):
                return "%s not found (install it: scripts/install-deps.sh)" % b
        return None

    # Options added to the daemon's command line at its next start (a test restarting it
    # another way, e.g. bird -R or gobgpd -r for a graceful restart); only Bird and GoBgp.
    extra_args = ()

    def config_path(self):
        return os.path.join(self.rundir, self.config_name)

    def remove_stale(self, *names):
        """Sockets and pid files of an earlier run of this router: waiting for a socket to
        appear must not be fooled by the previous one."""
        for n in names:
            try:
                os.unlink(os.path.join(self.rundir, n))
            except FileNotFoundError:
                pass

    def install_config(self, transform=None):
        """Copy the scenario's config into the run directory, substituting @TOKENS@."""
        src = os.path.join(self.router.config_dir, self.config_name)
        try:
            with open(src) as f:
                text = f.read()
        except FileNotFoundError:
            raise DaemonError("router %s (%s): missing config %s" % (self.name, self.kind, src))
        text = (text.replace("@RUNDIR@", self.rundir)
                .replace("@SCENARIO@", self.lab.topology.dir)
                .replace("@LIBDIR@", os.path.dirname(os.path.abspath(__file__))))
        if transform:
            text = transform(text)
        text = timescale.stretch_hold_times(text)
        dst = self.config_path()
        with open(dst, "w") as f:
            f.write(text)
        os.chmod(dst, 0o644)
        return dst

    def spawn(self, label, argv, env=None):
        log = os.path.join(self.rundir, label + ".log")
        p = Process("%s/%s" % (self.name, label), self.netns.exec_argv(argv), log, env=env,
                    cwd=self.rundir)
        self.procs.append(p)
        return p

    def logs(self):
        return [p.log_path for p in self.procs]

    def check_alive(self):
        for p in self.procs:
            if not p.alive():
                raise DaemonError("%s exited with status %s; log %s:\n%s"
                                  % (p, p.returncode(), p.log_path, tail(p.log_path)))

    def stop(self):
        for p in reversed(self.procs):
            p.stop()

    # Uniform queries, see parsers.py for the shapes.
    def peers(self):
        raise NotImplementedError("%s routers cannot be queried for peers" % self.kind)

    def routes(self, afi="ipv4"):
        raise NotImplementedError("%s routers cannot be queried for routes" % self.kind)


class VtyshDaemon(Daemon):
    """FRR and skua share the JSON show commands (FRR 8.4 key names)."""

    def vtysh_argv(self, cmds):
        raise NotImplementedError

    def vtysh(self, *cmds, timeout=30):
        """Run show commands; returns their text output."""
        return run(self.vtysh_argv(cmds), timeout=timeout)

    def vtysh_json(self, cmd, timeout=30):
        out = self.vtysh(cmd, timeout=timeout)
        try:
            return json.loads(out)
        except ValueError as e:
            raise DaemonError("%s: %r did not answer valid JSON (%s): %s"
                              % (self.name, cmd, e, out[:500]))

    def peers(self):
        return parsers.normalise_frr_peers([
            self.vtysh_json("show bgp ipv4 unicast summary json"),
            self.vtysh_json("show bgp ipv6 unicast summary json")])

    def routes(self, afi="ipv4"):
        return parsers.normalise_frr_routes(self.vtysh_json("show bgp %s unicast json" % afi))

    def summary(self, afi="ipv4"):
        return self.vtysh_json("show bgp %s unicast summary json" % afi)

    def neighbor(self, addr):
        return self.vtysh_json("show ip bgp neighbors %s json" % addr)


class FrrBgpd(VtyshDaemon):
    """FRR 8.4 bgpd, by default with a zebra beside it.

    Without zebra (-Z) FRR 8.4 has no interface information: an IPv6 UPDATE whose next hop
    carries a link-local address (what BIRD sends on a directly connected session) is taken
    as malformed and the session is reset with "Invalid network field".  With zebra both
    daemons run as user frr (zebra has no -S and insists on the frrvty group); the run
    directory is handed to frr for its sockets.  bgpd gets -n: nothing is installed in the
    namespace's kernel table.  `zebra = false` in topology.toml selects the -Z mode.
    """

    kind = "frr"
    config_name = "bgpd.conf"
    binaries = (FRR_DIR + "/bgpd", FRR_DIR + "/zebra", "vtysh")

    # Lines a config needs to behave in the lab without zebra's RIB and without policy.
    LAB_LINES = (" no bgp ebgp-requires-policy", " no bgp network import-check")

    @classmethod
    def missing(cls, lab):
        m = super().missing(lab)
        if m:
            return m
        try:
            pwd.getpwnam("frr")
        except KeyError:
            return "user frr does not exist (the frr package creates it)"
        return None

    @staticmethod
    def add_lab_lines(text, lines=LAB_LINES):
        """After each `router bgp N` line, add `lines` (skua configs run by FRR)."""
        out = []
        for line in text.splitlines():
            out.append(line)
            if line.strip().startswith("router bgp "):
                out.extend(lines)
        return "\n".join(out) + "\n"

    @staticmethod
    def modules(conf):
        """bgpd modules the config needs: `-M rpki` (package frr-rpki-rtrlib) for an `rpki`
        node, which FRR's bgpd refuses to parse without it."""
        with open(conf) as f:
            return ["-M", "rpki"] if RPKI_NODE_RE.search(f.read()) else []

    def start(self, transform=None):
        conf = self.install_config(transform)
        self.remove_stale("bgpd.vty", "zebra.vty", "zserv.api", "bgpd.pid", "zebra.pid")
        self.sockdir = self.rundir
        use_zebra = self.router.options.get("zebra", True)
        common = ["--vty_socket", self.rundir, "-P", "0", "--log", "stdout",
                  "--log-level", "informational"]
        if use_zebra:
            zconf = os.path.join(self.rundir, "zebra.conf")
            open(zconf, "w").close()
            os.chmod(zconf, 0o644)
            zsock = os.path.join(self.rundir, "zserv.api")
            frr = pwd.getpwnam("frr")
            os.chown(self.rundir, frr.pw_uid, frr.pw_gid)
            z = self.spawn("zebra", [FRR_DIR + "/zebra", "-f", zconf, "-u", "frr", "-g", "frr",
                                     "-i", os.path.join(self.rundir, "zebra.pid"),
                                     "-z", zsock] + common)
            wait_for("%s zebra socket" % self.name, lambda: os.path.exists(zsock), 15, [z])
            self.spawn("bgpd", [FRR_DIR + "/bgpd", "-f", conf, "-n", "-u", "frr", "-g", "frr",
                                    "-i", os.path.join(self.rundir, "bgpd.pid"),
                                    "-z", zsock] + self.modules(conf) + common)
        else:
            self.spawn("bgpd", [FRR_DIR + "/bgpd", "-f", conf, "-Z", "-S",
                                    "-i", os.path.join(self.rundir, "bgpd.pid")]
                       + self.modules(conf) + common)
        vty = os.path.join(self.rundir, "bgpd.vty")
        wait_for("%s bgpd vty socket" % self.name, lambda: os.path.exists(vty), 15, self.procs)

    def vtysh_argv(self, cmds):
        argv = ["vtysh", "--vty_socket", self.sockdir]
        for c in cmds:
            argv += ["-c", c]
        return argv


class SkuaBgpd(VtyshDaemon):
    """skua's bgpd from the build directory (SKUA_BUILDDIR, default <repo>/build)."""

    kind = "skua"
    config_name = "bgpd.conf"

    @classmethod
    def builddir(cls):
        here = os.path.dirname(os.path.abspath(__file__))
        repo = os.path.abspath(os.path.join(here, "..", "..", ".."))
        return os.path.abspath(os.environ.get("SKUA_BUILDDIR", os.path.join(repo, "build")))

    @classmethod
    def bgpd_path(cls):
        return os.path.join(cls.builddir(), "bgpd", "bgpd")

    @classmethod
    def vtysh_path(cls):
        return os.path.join(cls.builddir(), "vtysh", "vtysh")

    @classmethod
    def missing(cls, lab):
        for b in (cls.bgpd_path(), cls.vtysh_path()):
            if not os.access(b, os.X_OK):
                return ("skua binary %s not built (run scripts/build.sh, or point SKUA_BUILDDIR "
                        "at a build directory)" % b)
        return runuser.missing_run_user()

    def start(self, transform=None):
        conf = self.install_config(transform)
        # bgpd drops root for the user skua: the router's directory and its configuration are
        # that user's (write memory, the pid file and the vty socket's removal at exit).
        runuser.give_to_run_user(self.rundir, conf)
        self.sock = os.path.join(self.rundir, "bgpd.vty")
        self.remove_stale("bgpd.vty", "bgpd.pid")
        # Never -d (daemonize): the lab holds the foreground process's PID.
        # `fib = false` in topology.toml: bgpd --no-fib (nothing installed, next hops not
        # tracked); by default bgpd installs its routes in the router's namespace.
        extra = [] if self.router.options.get("fib", True) else ["--no-fib"]
        self.spawn("bgpd", self.strace_argv() + [
            self.bgpd_path(), "-f", conf, "--vty-socket", self.sock,
            "-i", os.path.join(self.rundir, "bgpd.pid")] + extra)
        wait_for("%s bgpd vty socket %s" % (self.name, self.sock),
                 lambda: os.path.exists(self.sock), 15, self.procs)

    # `strace = true`: the calls traced.  recvfrom is recv(): it shows that an accepted
    # socket is secured before it is first read.
    STRACE_CALLS = "socket,setsockopt,connect,listen,accept,accept4,close,recvfrom"

    def strace_argv(self):
        """topology.toml `strace = true`: run bgpd under strace, its trace of the socket calls
        in <rundir>/strace.txt (self.strace_path).  `strace = ["-e", "inject=..."]` adds those
        arguments (fault injection).  The Process the lab holds is then strace's: stopping it
        signals the whole group, bgpd included; bgpd_pid() is bgpd's own pid."""
        opt = self.router.options.get("strace", False)
        if not opt:
            return []
        extra = [] if opt is True else [str(a) for a in opt]
        self.strace_path = os.path.join(self.rundir, "strace.txt")
        return (["strace", "-f", "-o", self.strace_path, "-e", "trace=" + self.STRACE_CALLS]
                + extra + ["--"])

    def bgpd_pid(self):
        """bgpd's pid from its pid file (under strace, procs[0].pid is strace's)."""
        with open(os.path.join(self.rundir, "bgpd.pid")) as f:
            return int(f.read().split()[0])

    def sanitizer_reports(self):
        """Lines where ASan/UBSan/LSan spoke in this bgpd's log (a sanitizer build)."""
        found = []
        for path in self.logs():
            try:
                with open(path, errors="replace") as f:
                    found += ["%s: %s" % (path, line.rstrip()) for line in f
                              if SANITIZER_RE.search(line)]
            except OSError:
                pass
        return found

    def vtysh_argv(self, cmds):
        argv = [self.vtysh_path(), "--vty-socket", self.sock]
        for c in cmds:
            argv += ["-c", c]
        return argv


class StandinBgpd(FrrBgpd):
    """A `skua` router run by FRR: proves a scenario before skua's bgpd can run it.

    FRR gets the lab lines and nothing else: skua's decision has FRR's defaults (between eBGP
    paths the selected one stays, RFC 5004, unless `bgp bestpath compare-routerid`)."""

    kind = "skua"
    STANDIN_LINES = FrrBgpd.LAB_LINES

    def start(self, transform=None):
        super().start(transform=lambda text: self.keep_adj_rib_in_for_rpki(
            self.add_lab_lines(text, self.STANDIN_LINES)))

    @staticmethod
    def keep_adj_rib_in_for_rpki(text):
        """skua keeps the Adj-RIB-In of a neighbor whose inbound route-map matches on RPKI
        or ASPA state, to re-run the policy when VRPs change; FRR does that only with
        `soft-reconfiguration inbound`: say it for those neighbors."""
        maps, current = set(), None
        for line in text.splitlines():
            m = re.match(r"route-map (\S+) (permit|deny) ", line)
            if m:
                current = m.group(1)
            elif re.match(r"\s+match (rpki|aspa) ", line) and current:
                maps.add(current)
            elif not line.startswith(" "):
                current = None
        out = []
        for line in text.splitlines():
            out.append(line)
            m = re.match(r"(\s+)neighbor (\S+) route-map (\S+) in\s*$", line)
            if m and m.group(3) in maps:
                out.append("%sneighbor %s soft-reconfiguration inbound" % (m.group(1),
                                                                           m.group(2)))
        return "\n".join(out) + "\n"


class Bird(Daemon):
    kind = "bird"
    config_name = "bird.conf"
    binaries = ("bird", "birdc")

    def start(self, transform=None):
        conf = self.install_config(transform)
        self.sock = os.path.join(self.rundir, "bird.ctl")
        self.remove_stale("bird.ctl", "bird.pid")
        self.spawn("bird", ["bird", "-f", "-c", conf, "-s", self.sock,
                            "-P", os.path.join(self.rundir, "bird.pid")]
                   + list(self.extra_args))
        wait_for("%s bird control socket" % self.name, lambda: os.path.exists(self.sock), 15,
                 self.procs)

    def birdc(self, cmd, timeout=30):
        return run(["birdc", "-s", self.sock] + cmd.split(), timeout=timeout)

    def protocols(self):
        return parsers.parse_bird_protocols(self.birdc("show protocols all"))

    def peers(self):
        return parsers.normalise_bird_peers(self.protocols())

    def routes(self, afi="ipv4"):
        table = "master4" if afi == "ipv4" else "master6"
        return parsers.normalise_bird_routes(
            parsers.parse_bird_routes(self.birdc("show route all table %s" % table)))


class GoBgp(Daemon):
    """gobgpd with its gRPC API on the namespace's own loopback (port from topology.toml,
    default 50051: every namespace has its own 127.0.0.1).  Routes to announce are
    `gobgp global rib` argument lines in the router's gobgp.routes file."""

    kind = "gobgp"
    config_name = "gobgpd.toml"
    binaries = ("gobgpd", "gobgp")

    def start(self, transform=None):
        conf = self.install_config(transform)
        self.port = int(self.router.options.get("api_port", 50051))
        self.spawn("gobgpd", ["gobgpd", "-f", conf, "-t", "toml", "-p", "--pprof-disable",
                              "--api-hosts", "127.0.0.1:%d" % self.port]
                   + list(self.extra_args))

        def api_up():
            try:
                self.gobgp("global")
                return True
            except CommandError:
                return False
        wait_for("%s gobgp API on 127.0.0.1:%d" % (self.name, self.port), api_up, 20,
                 self.procs, interval=0.3)
        routes = os.path.join(self.router.config_dir, "gobgp.routes")
        if os.path.exists(routes):
            with open(routes) as f:
                for line in f:
                    line = line.split("#")[0].strip()
                    if line:
                        self.gobgp(["global", "rib"] + shlex.split(line))

    def gobgp(self, args, json_out=False, timeout=30):
        """args: a string split on blanks, or a list."""
        if isinstance(args, str):
            args = args.split()
        argv = ["gobgp", "-u", "127.0.0.1", "-p", str(self.port)] + list(args)
        if json_out:
            argv.append("-j")
        out = self.netns.exec(argv, timeout=timeout)
        if json_out:
            try:
                return json.loads(out) if out.strip() else None
            except ValueError as e:
                raise DaemonError("%s: gobgp %s: invalid JSON (%s): %s"
                                  % (self.name, args, e, out[:300]))
        return out

    def peers(self):
        return parsers.normalise_gobgp_peers(self.gobgp("neighbor", json_out=True))

    def routes(self, afi="ipv4"):
        return parsers.normalise_gobgp_routes(self.gobgp("global rib -a %s" % afi,
                                                         json_out=True))


class ExaBgp(Daemon):
    """ExaBGP 4 in the foreground, logging to stdout, without its CLI pipes, and dropping
    privileges to the exabgp user once started (it never listens: it connects out)."""

    kind = "exabgp"
    config_name = "exabgp.conf"
    binaries = ("exabgp",)

    ENV = {"exabgp_daemon_daemonize": "false", "exabgp_log_destination": "stdout",
           "exabgp_api_cli": "false", "exabgp_daemon_pid": "", "exabgp_tcp_bind": "",
           "exabgp_daemon_user": "exabgp", "exabgp_daemon_drop": "true",
           "exabgp_log_routes": "true"}

    @classmethod
    def missing(cls, lab):
        m = super().missing(lab)
        if m:
            return m
        try:
            pwd.getpwnam("exabgp")
        except KeyError:
            return "user exabgp does not exist (the exabgp package creates it)"
        return None

    def start(self, transform=None):
        conf = self.install_config(transform)
        env = dict(os.environ)
        env.update(self.ENV)
        env.update({k: str(v) for k, v in self.router.options.get("env", {}).items()})
        os.chmod(self.rundir, 0o755)
        self.spawn("exabgp", ["exabgp", conf], env=env)
        # Nothing to poll: give it a moment to parse its configuration and fail loudly.
        time.sleep(0.5)
        self.check_alive()


class Speaker(Daemon):
    """skualab/speaker.py: a raw BGP speaker sending pre-packed UPDATEs (big tables)."""

    kind = "speaker"
    config_name = "speaker.toml"
    binaries = ("/usr/bin/python3",)

    def start(self, transform=None):
        conf = self.install_config(transform)
        self.status_path = os.path.join(self.rundir, "status.json")
        self.remove_stale("status.json")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "speaker.py")
        self.spawn("speaker", ["/usr/bin/python3", "-u", script, "--config", conf,
                               "--status", self.status_path])
        time.sleep(0.2)
        self.check_alive()

    def status(self):
        try:
            with open(self.status_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}


class Host(Daemon):
    """A namespace with addresses and no BGP speaker (a place to run probes from)."""

    kind = "host"

    def start(self, transform=None):
        pass


def daemon_class(kind):
    if kind == "skua" and os.environ.get("SKUALAB_STANDIN") == "frr":
        return StandinBgpd
    from .stayrtr import FakeRtr, StayRtr  # they build on Daemon
    return {"skua": SkuaBgpd, "frr": FrrBgpd, "bird": Bird, "gobgp": GoBgp, "exabgp": ExaBgp,
            "speaker": Speaker, "host": Host, "stayrtr": StayRtr, "rtrfake": FakeRtr}[kind]
