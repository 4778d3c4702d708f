"""One skua bgpd outside any network namespace, for tests of the daemon itself (its vty, its
log, its descriptors) rather than of a peering: it listens for BGP on a free port of
127.0.0.1 only, in a fresh directory that it owns (bgpd, started as root, drops to the user
skua), and is stopped by PID.

    with standalone_bgpd("skua-x-", CONFIG, extra=["--no-fib"]) as d:
        d.vtysh("-c", "show version")
"""

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile

import pytest

from .daemons import Process, SkuaBgpd, tail, wait_for
from .runuser import give_to_run_user

READY_TIMEOUT = 20  # seconds for bgpd to answer on its vty
VTYSH_TIMEOUT = 30  # seconds for one non-interactive vtysh


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def require_binaries():
    """Skip (fail under SKUALAB_STRICT=1) when skua's bgpd or vtysh is not built."""
    for b in (SkuaBgpd.bgpd_path(), SkuaBgpd.vtysh_path()):
        if not os.access(b, os.X_OK):
            why = ("skua binary %s not built (build it, or point SKUA_BUILDDIR at a build "
                   "directory)" % b)
            if os.environ.get("SKUALAB_STRICT") == "1":
                pytest.fail("SKUALAB_STRICT=1 and " + why, pytrace=False)
            pytest.skip(why)


class StandaloneBgpd:
    """bgpd on `config` (text, or a function of the work directory giving it) in `workdir`
    (a short path: UNIX socket names are at most 108 bytes), with its vtysh."""

    def __init__(self, workdir, config, extra=(), log_name="bgpd.log"):
        self.workdir = workdir
        self.conf = os.path.join(workdir, "bgpd.conf")
        self.sock = os.path.join(workdir, "bgpd.vty")
        self.log = os.path.join(workdir, log_name)
        with open(self.conf, "w") as f:
            f.write(config(workdir) if callable(config) else config)
        give_to_run_user(workdir, self.conf)
        self.port = free_port()
        self.proc = Process("bgpd", [SkuaBgpd.bgpd_path(), "-f", self.conf,
                                     "--vty-socket", self.sock, "-p", str(self.port),
                                     "-l", "127.0.0.1", "-i",
                                     os.path.join(workdir, "bgpd.pid")] + list(extra),
                            self.log)
        wait_for("bgpd vty socket %s" % self.sock, self.ready, READY_TIMEOUT, [self.proc])

    def ready(self):
        return os.path.exists(self.sock) and self.vtysh("-c", "show version").returncode == 0

    def vtysh(self, *args, stdin=None, user=None, stderr=subprocess.PIPE):
        """vtysh non-interactively (HOME: the work directory); user: run it as that uid
        (setpriv). Returns the CompletedProcess (text)."""
        pre = []
        if user is not None:
            pre = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, "--clear-groups", "--"]
        env = dict(os.environ, HOME=self.workdir)
        return subprocess.run(pre + [SkuaBgpd.vtysh_path(), "--vty-socket", self.sock]
                              + list(args), input=stdin, stdout=subprocess.PIPE,
                              stderr=stderr, text=True, timeout=VTYSH_TIMEOUT, env=env,
                              check=False)

    def log_tail(self, lines=30):
        return tail(self.log, lines)

    def stop(self):
        """SIGTERM (SIGKILL after a bound); returns the exit status."""
        self.proc.stop()
        return self.proc.returncode()


@contextlib.contextmanager
def standalone_bgpd(prefix, config, extra=(), log_name="bgpd.log", prepare=None):
    """A StandaloneBgpd in a fresh temporary directory, removed with it afterwards.
    prepare(workdir), if given, runs before bgpd starts; extra may be a function of the work
    directory too. The caller reads the exit status and the log from the object (d.status,
    d.final_log) after the block."""
    require_binaries()
    workdir = tempfile.mkdtemp(prefix=prefix)
    d = None
    try:
        if prepare:
            prepare(workdir)
        d = StandaloneBgpd(workdir, config, extra(workdir) if callable(extra) else extra,
                           log_name)
        yield d
    finally:
        if d:
            d.status = d.stop()
            d.final_log = tail(d.log, 200)
        shutil.rmtree(workdir, ignore_errors=True)
