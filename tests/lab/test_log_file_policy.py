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
import stat
import subprocess

import pytest

from skualab.daemons import tail
from skualab.runuser import give_to_run_user
from skualab.standalone import standalone_bgpd

pytestmark = pytest.mark.timeout(90)

NOBODY = 65534


class LogPolicy:
    """The standalone bgpd with a log directory of its own (--log-dir) and, from its
    configuration file, a log file outside it; its vty socket is opened to everyone."""

    def __init__(self, d):
        self.d = d
        self.workdir, self.log, self.sock, self.proc = d.workdir, d.log, d.sock, d.proc
        self.logdir = os.path.join(d.workdir, "logs")
        self.outside = os.path.join(d.workdir, "outside.log")

    def vtysh(self, *args, user=None):
        return self.d.vtysh(*args, user=user, stderr=subprocess.STDOUT)

    def set_log_file(self, path, user=None):
        r = self.vtysh("-c", "configure terminal", "-c", "log file %s" % path, user=user)
        return r.stdout

    def running(self):
        return self.vtysh("-c", "show running-config").stdout


def make_logdir(workdir):
    os.mkdir(os.path.join(workdir, "logs"))
    give_to_run_user(os.path.join(workdir, "logs"))  # bgpd drops root for the user skua


@pytest.fixture
def bgpd():
    if os.geteuid() != 0:
        pytest.skip("needs root (bgpd as root, vtysh as user nobody)")
    # at start-up, from the file: another directory is fine
    config = lambda w: "hostname logtest\nlog file %s informational\n" % (  # noqa: E731
        os.path.join(w, "outside.log"))
    extra = lambda w: ["--no-fib", "--log-dir", os.path.join(w, "logs")]  # noqa: E731
    with standalone_bgpd("skua-logf-", config, extra, log_name="bgpd.out",
                         prepare=make_logdir) as d:
        os.chmod(d.workdir, 0o755)
        os.chmod(d.sock, 0o666)  # what the skuavty group gets, here for user nobody
        yield LogPolicy(d)


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
