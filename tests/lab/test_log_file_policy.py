# SPDX-License-Identifier: ISC
"""`log file PATH` may not be used to make bgpd write where its user could not.

bgpd opens the log file with its own privileges. A member of the vty group (the socket
admits it straight into enable mode) could name /etc/ld.so.preload, or any file, and have
bgpd create it and append to it. Now (lib/log_file.h, lib/system_cli.c):
  - only sessions of root or of bgpd's own user may change the log file from a vty;
  - from a vty the file must be in the log directory (--log-dir); only the configuration
    file (start-up, reload) may name another place, and bgpd reads it as its run user;
  - `..` components, symbolic links and non-regular files (a FIFO) are refused.

One bgpd, no namespace, run as root (skipped otherwise): its vty socket is opened to everyone
(chmod 0666) so that user nobody can play the vty group member, and vtysh is run as nobody
with setpriv.

Run: SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_log_file_policy.py
"""

import os
import shutil
import socket
import stat
import subprocess
import tempfile

import pytest

from skualab.daemons import Process, SkuaBgpd, tail, wait_for
from skualab.runuser import give_to_run_user

pytestmark = pytest.mark.timeout(90)

NOBODY = 65534


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bgpd:
    def __init__(self, workdir):
        self.workdir = workdir
        self.logdir = os.path.join(workdir, "logs")
        os.mkdir(self.logdir)
        self.outside = os.path.join(workdir, "outside.log")
        self.conf = os.path.join(workdir, "bgpd.conf")
        self.sock = os.path.join(workdir, "bgpd.vty")
        self.log = os.path.join(workdir, "bgpd.out")
        with open(self.conf, "w") as f:
            # at start-up, from the file: another directory is fine
            f.write("hostname logtest\nlog file %s informational\n" % self.outside)
        give_to_run_user(workdir, self.logdir)  # bgpd drops root for the user skua
        self.proc = Process("bgpd", [SkuaBgpd.bgpd_path(), "-f", self.conf, "--no-fib",
                                     "--vty-socket", self.sock, "-p", str(free_port()),
                                     "-l", "127.0.0.1", "--log-dir", self.logdir, "-i",
                                     os.path.join(workdir, "bgpd.pid")], self.log)
        wait_for("bgpd vty socket %s" % self.sock, self.ready, 20, [self.proc])
        os.chmod(workdir, 0o755)
        os.chmod(self.sock, 0o666)  # what the skuavty group gets, here for user nobody

    def ready(self):
        return os.path.exists(self.sock) and self.vtysh("-c", "show version").returncode == 0

    def vtysh(self, *args, user=None):
        pre = []
        if user is not None:
            pre = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, "--clear-groups",
                   "--"]
        env = dict(os.environ, HOME=self.workdir)
        return subprocess.run(pre + [SkuaBgpd.vtysh_path(), "--vty-socket", self.sock]
                              + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=20, check=False, env=env)

    def set_log_file(self, path, user=None):
        r = self.vtysh("-c", "configure terminal", "-c", "log file %s" % path, user=user)
        return r.stdout

    def running(self):
        return self.vtysh("-c", "show running-config").stdout


@pytest.fixture
def bgpd():
    if os.geteuid() != 0:
        pytest.skip("needs root (bgpd as root, vtysh as user nobody)")
    for b in (SkuaBgpd.bgpd_path(), SkuaBgpd.vtysh_path()):
        if not os.access(b, os.X_OK):
            why = "skua binary %s not built" % b
            if os.environ.get("SKUALAB_STRICT") == "1":
                pytest.fail("SKUALAB_STRICT=1 and " + why, pytrace=False)
            pytest.skip(why)
    workdir = tempfile.mkdtemp(prefix="skua-logf-")
    d = None
    try:
        d = Bgpd(workdir)
        yield d
    finally:
        if d:
            d.proc.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_startup_file_may_log_anywhere(bgpd):
    assert "log file %s informational" % bgpd.outside in bgpd.running()
    assert os.path.getsize(bgpd.outside) > 0, tail(bgpd.log)
    assert stat.S_IMODE(os.stat(bgpd.outside).st_mode) == 0o640


def test_vty_group_member_may_not_choose_the_file(bgpd):
    target = os.path.join(bgpd.workdir, "preload")
    for path in (target, os.path.join(bgpd.logdir, "member.log")):
        out = bgpd.set_log_file(path, user=NOBODY)
        assert "Only root or bgpd's own user may change the log file" in out, out
        assert "uid %d" % NOBODY in out, out
        assert not os.path.exists(path)
    out = bgpd.vtysh("-c", "configure terminal", "-c", "no log file", user=NOBODY).stdout
    assert "Only root or bgpd's own user" in out, out
    assert "log file %s" % bgpd.outside in bgpd.running()


def test_root_vty_stays_in_the_log_directory(bgpd):
    outside = os.path.join(bgpd.workdir, "evil.log")
    out = bgpd.set_log_file(outside)
    assert "not in the log directory %s" % bgpd.logdir in out, out
    assert not os.path.exists(outside)

    out = bgpd.set_log_file(os.path.join(bgpd.logdir, "..", "evil.log"))
    assert "`..` component" in out, out
    assert not os.path.exists(outside)

    target = os.path.join(bgpd.workdir, "target")
    with open(target, "w") as f:
        f.write("precious\n")
    link = os.path.join(bgpd.logdir, "link.log")
    os.symlink(target, link)
    out = bgpd.set_log_file(link)
    assert "symbolic link" in out, out
    with open(target) as f:
        assert f.read() == "precious\n"

    fifo = os.path.join(bgpd.logdir, "fifo.log")
    os.mkfifo(fifo)
    out = bgpd.set_log_file(fifo)
    assert "not a regular file" in out, out

    # a directory inside the log directory that leads outside through a link
    os.symlink(bgpd.workdir, os.path.join(bgpd.logdir, "up"))
    out = bgpd.set_log_file(os.path.join(bgpd.logdir, "up", "evil.log"))
    assert "not in the log directory" in out, out
    assert not os.path.exists(outside)

    # none of that changed the running file; a file in the directory is fine
    assert "log file %s informational" % bgpd.outside in bgpd.running()
    ok = os.path.join(bgpd.logdir, "bgpd.log")
    out = bgpd.set_log_file(ok)
    assert out.strip() == "", out
    assert "log file %s\n" % ok in bgpd.running()
    assert os.path.exists(ok) and stat.S_IMODE(os.stat(ok).st_mode) == 0o640
    bgpd.vtysh("-c", "show version")
    assert bgpd.proc.alive(), tail(bgpd.log)
