# SPDX-License-Identifier: ISC
"""Disk full during `write memory`: a clear error, and the old file byte for byte.

bgpd runs with its config file on a 64 KiB tmpfs mounted in a mount namespace of its own
(`unshare --mount`: the file system disappears with the process, nothing to clean up on the
host); the test reaches it through /proc/PID/root.  A first `write memory` with room to spare
works (the file system is fit for the job); the test then changes the running configuration,
fills the file system and writes again.  Pass condition: vtysh reports the failure (non-zero
exit, a message naming the file and "No space left on device"), the config file is
byte-identical to what the first write left, no temporary file is left behind, bgpd keeps
running, and once space is freed `write memory` works again.
"""

import os
import subprocess

import pytest

from skualab import faults, runuser
from skualab.daemons import wait_for

TINY = "64k"
PEER = "192.0.2.2"


def start_on_tiny_fs(lab):
    """Start dut's bgpd with its config on a tmpfs of its own; returns the config's path as
    bgpd sees it."""
    dut = lab["dut"]
    conf = dut.install_config()
    tiny = os.path.join(dut.rundir, "tiny")
    os.makedirs(tiny, exist_ok=True)
    dut.sock = os.path.join(dut.rundir, "bgpd.vty")
    dut.remove_stale("bgpd.vty", "bgpd.pid")
    # bgpd drops root for the user skua: the rundir and the tiny file system are its own.
    runuser.give_to_run_user(dut.rundir, tiny, conf)
    ids = runuser.run_user()
    owner = ",uid=%d,gid=%d" % ids if ids else ""
    wrapper = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
               'mount -t tmpfs -o size=%s,mode=0755%s skua-faults "$0" && '
               'cp -p "$1" "$0"/bgpd.conf && shift && exec "$@"' % (TINY, owner), tiny, conf]
    dut.procs = []
    dut.spawn("bgpd", wrapper + [dut.bgpd_path(), "-f", os.path.join(tiny, "bgpd.conf"),
                                 "--vty-socket", dut.sock, "--no-fib",
                                 "-i", os.path.join(dut.rundir, "bgpd.pid")])
    lab.started.add("dut")
    wait_for("dut bgpd vty socket", lambda: os.path.exists(dut.sock), 15, dut.procs)
    return os.path.join(tiny, "bgpd.conf")


def vtysh(dut, *cmds):
    p = subprocess.run(dut.vtysh_argv(cmds), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=30)
    return p.returncode, p.stdout.decode(errors="replace")


def describe(dut, words):
    rc, out = vtysh(dut, "configure terminal", "router bgp 65000",
                    "neighbor %s description %s" % (PEER, words))
    assert rc == 0, out


@pytest.mark.timeout(120)
def test_write_memory_on_a_full_file_system(lab):
    dut = lab["dut"]
    path = start_on_tiny_fs(lab)
    pid = faults.bgpd_pid(dut)
    seen = "/proc/%d/root%s" % (pid, path)  # the file as bgpd's mount namespace has it
    fsdir = os.path.dirname(seen)
    st = os.statvfs(fsdir)
    assert st.f_blocks * st.f_frsize <= 64 * 1024, "not the tiny file system: %s" % (st,)

    describe(dut, "second words")
    rc, out = vtysh(dut, "write memory")
    assert rc == 0 and "[OK]" in out, out
    with open(seen, "rb") as f:
        before = f.read()
    assert b"second words" in before

    describe(dut, "third words, never saved")
    filler = os.path.join(fsdir, "filler")
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as e:
            assert e.errno == 28, e  # ENOSPC
    rc, out = vtysh(dut, "write memory")
    print("write memory on a full file system: exit %d: %s" % (rc, out.strip()))
    assert rc != 0, "vtysh exited 0 although the write failed: %s" % out
    assert "No space left on device" in out and path.rsplit("/", 1)[0] in out, out
    with open(seen, "rb") as f:
        assert f.read() == before, "the config file changed although the write failed"
    left = [n for n in os.listdir(fsdir) if n not in ("bgpd.conf", "bgpd.conf.sav", "filler")]
    assert not left, "files left behind by the failed write: %s" % left
    lab.check_alive()
    rc, out = vtysh(dut, "show running-config")
    assert rc == 0 and "third words, never saved" in out, out

    os.unlink(filler)
    rc, out = vtysh(dut, "write memory")
    assert rc == 0 and "[OK]" in out, out
    with open(seen, "rb") as f:
        assert b"third words, never saved" in f.read()
