# SPDX-License-Identifier: ISC
"""bgpd as a service (issue 11): one instance per namespace, unprivileged after start-up,
logging that never disappears, a configuration that must be a file.

    s1 (skua, AS 65001) ---- s2 (skua, AS 65002)

s1 runs as the lab starts every skua bgpd: as root, with its own pid file, dropping to the
user skua.  The tests then start other bgpds next to it and check that they stop before they
touch anything of s1's: its kernel routes, its session, its log file.
"""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from skualab.daemons import SkuaBgpd
from skualab.runuser import RUN_USER, give_to_run_user, run_user

# Capability numbers (linux/capability.h): what bgpd keeps after dropping root.
CAP_NET_BIND_SERVICE = 10
CAP_NET_ADMIN = 12
KEPT = (1 << CAP_NET_BIND_SERVICE) | (1 << CAP_NET_ADMIN)
S2_NETS = ("198.51.100.16/28", "198.51.100.32/28")
START_TIMEOUT = 20


def proc_status(pid):
    """/proc/PID/status as {key: value}."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k] = v.strip()
    return out


def kernel_bgp_routes(lab, router):
    out = lab[router].netns.exec(["ip", "-j", "-4", "route", "show", "proto", "bgp"])
    return sorted(json.dumps(r, sort_keys=True) for r in json.loads(out or "[]"))


def session_state(lab):
    """What would change if s1's session with s2 had been disturbed."""
    n1 = lab["s1"].neighbor("192.0.2.2")["192.0.2.2"]
    n2 = lab["s2"].neighbor("192.0.2.1")["192.0.2.1"]
    # Not the up-since epoch: derived from the uptime, it moves by a second between queries.
    return {"s1 state": n1.get("bgpState"),
            "s1 established": n1.get("connectionsEstablished"),
            "s1 dropped": n1.get("connectionsDropped"),
            "s2 established": n2.get("connectionsEstablished"),
            "s2 dropped": n2.get("connectionsDropped")}


def file_size(path):
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return None


def run_second(lab, argv, timeout=START_TIMEOUT):
    """Another bgpd in s1's namespace: it must exit on its own, soon."""
    try:
        return subprocess.run(lab["s1"].netns.exec_argv(argv), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("the second bgpd did not exit within %ds" % timeout)


@pytest.fixture(scope="module")
def settled(lab):
    """s1 and s2 Established, s2's routes in s1's kernel table."""
    lab.wait_all_established({"s1": ["192.0.2.2"], "s2": ["192.0.2.1"]}, timeout=60)
    lab.expect("s2's routes in s1's kernel table",
               lambda: " ".join(kernel_bgp_routes(lab, "s1")),
               lambda text: ["missing %s" % n for n in S2_NETS if '"dst": "%s"' % n not in text],
               timeout=30)
    return lab


@pytest.mark.timeout(120)
def test_runs_as_the_run_user_with_two_capabilities(settled):
    """ps and /proc/PID/status: bgpd runs as skua, holding CAP_NET_BIND_SERVICE and
    CAP_NET_ADMIN only, and cannot gain more (no_new_privs)."""
    ids = run_user()
    if ids is None:
        pytest.skip("not root, or no user %s: bgpd keeps the caller's identity" % RUN_USER)
    pid = settled["s1"].bgpd_pid()
    user = subprocess.run(["ps", "-o", "user=", "-p", str(pid)], stdout=subprocess.PIPE,
                          text=True, check=True).stdout.strip()
    st = proc_status(pid)
    print("ps -o user= -p %d: %s" % (pid, user))
    print("\n".join("%s:\t%s" % (k, st[k]) for k in
                    ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
                     "NoNewPrivs")))
    assert user == RUN_USER
    assert st["Uid"].split() == [str(ids[0])] * 4, st["Uid"]
    assert st["Gid"].split() == [str(ids[1])] * 4, st["Gid"]
    assert int(st["CapEff"], 16) == KEPT, st["CapEff"]
    assert int(st["CapPrm"], 16) == KEPT, st["CapPrm"]
    assert int(st["CapInh"], 16) == 0 and int(st["CapAmb"], 16) == 0
    assert st["NoNewPrivs"] == "1"


@pytest.mark.timeout(120)
def test_second_bgpd_in_the_namespace_exits_and_leaves_the_first_alone(settled):
    """Same namespace, its own pid file and vty socket, s1's configuration plus a `log file`
    naming s1's own log: it cannot listen on port 179, says so and exits non-zero, before it
    has read the kernel's routes, dialled s2 or opened that log file."""
    s1 = settled["s1"]
    s1_log = s1.logs()[0]  # where s1's bgpd writes (its stderr)
    before = (kernel_bgp_routes(settled, "s1"), session_state(settled), file_size(s1_log))
    assert before[1]["s1 state"] == "Established"
    other = tempfile.mkdtemp(prefix="skua-2nd-")
    try:
        give_to_run_user(other)
        conf = os.path.join(other, "bgpd.conf")
        with open(s1.config_path()) as f, open(conf, "w") as g:
            g.write("log file %s informational\n" % s1_log + f.read())
        r = run_second(settled, [SkuaBgpd.bgpd_path(), "-f", conf,
                                 "-i", os.path.join(other, "bgpd.pid"),
                                 "--vty-socket", os.path.join(other, "bgpd.vty")])
        print("second bgpd: exit %d\n%s" % (r.returncode, r.stdout))
        assert r.returncode != 0
        assert "cannot listen for BGP on every address port 179" in r.stdout
        assert "another BGP speaker" in r.stdout
        assert not os.path.exists(os.path.join(other, "bgpd.vty"))
        assert not os.path.exists(os.path.join(other, "bgpd.pid"))
    finally:
        shutil.rmtree(other, ignore_errors=True)
    time.sleep(2)  # anything the second one had set in motion would show by now
    after = (kernel_bgp_routes(settled, "s1"), session_state(settled), file_size(s1_log))
    assert after[0] == before[0], "s1's kernel routes changed"
    assert after[1] == before[1], "s1's session was disturbed"
    assert after[2] == before[2], "something wrote into s1's log file"
    settled.check_alive()


@pytest.mark.timeout(120)
def test_second_bgpd_with_the_same_pid_file_exits(settled):
    s1 = settled["s1"]
    pid = s1.bgpd_pid()
    before = session_state(settled)
    r = run_second(settled, [SkuaBgpd.bgpd_path(), "-f", s1.config_path(), "-i",
                             os.path.join(s1.rundir, "bgpd.pid"), "--vty-socket",
                             os.path.join(s1.rundir, "other.vty")])
    print("second bgpd: exit %d\n%s" % (r.returncode, r.stdout))
    assert r.returncode != 0
    assert "is locked by process %d" % pid in r.stdout
    assert s1.bgpd_pid() == pid, "the pid file was rewritten"
    assert session_state(settled) == before
    settled.check_alive()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv", [["-C", "-f", "/"], ["-f", "/", "-i", "/nonexistent/x.pid"]],
                         ids=["check", "start"])
def test_configuration_must_be_a_file(argv):
    r = subprocess.run([SkuaBgpd.bgpd_path()] + argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=30, check=False)
    assert r.returncode == 1, r.stdout
    assert "/: not a regular file" in r.stdout


@pytest.mark.timeout(60)
def test_unknown_user_is_refused_before_anything(settled):
    r = run_second(settled, [SkuaBgpd.bgpd_path(), "-u", "skua-no-such-user", "-f",
                             settled["s1"].config_path(), "-i", "/nonexistent/x.pid"])
    assert r.returncode == 1, r.stdout
    assert "no user 'skua-no-such-user'" in r.stdout


def wait_file(path, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(path) as f:
                text = f.read()
            if text.strip():
                return text
        except OSError:
            pass
        time.sleep(0.2)
    return None


# In a private mount namespace: an empty /var/log with a skua/ directory of the run user's,
# and /dev/log made a non-socket (journald's or rsyslog's, if the host has one).
NO_SYSLOG_SH = """set -e
mount --make-rprivate /
mount -t tmpfs -o mode=0755 tmpfs /var/log
mkdir -m 0750 /var/log/skua
chown "$SKUA_RUN_USER" /var/log/skua
if [ -e /dev/log ]; then mount --bind /dev/null /dev/log; fi
ip link set lo up
exec "$0" "$@"
"""


@pytest.mark.timeout(90)
def test_daemon_without_syslog_logs_to_a_file():
    """bgpd -d where no syslog daemon listens: its log goes to /var/log/skua/bgpd.log, whose
    first line says so; nothing is lost."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare (a private mount and network namespace)")
    work = tempfile.mkdtemp(prefix="skua-d-")
    pid = None
    try:
        give_to_run_user(work)
        conf = os.path.join(work, "bgpd.conf")
        with open(conf, "w") as f:
            f.write("router bgp 65001\n bgp router-id 192.0.2.1\nexit\n")
        pidfile, sock = os.path.join(work, "bgpd.pid"), os.path.join(work, "bgpd.vty")
        env = dict(os.environ, SKUA_RUN_USER=RUN_USER if run_user() else "root")
        r = subprocess.run(["unshare", "--mount", "--net", "--", "sh", "-c", NO_SYSLOG_SH,
                            SkuaBgpd.bgpd_path(), "-d", "-f", conf, "-i", pidfile,
                            "--vty-socket", sock, "-p", "0", "-l", "127.0.0.1"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=30, env=env, check=False)
        assert r.returncode == 0, r.stdout
        # The parent exits once the child is ready: the pid file names the running daemon
        # now (what a service manager reads when the parent exits), not the parent.
        with open(pidfile) as f:
            pid = int(f.read().split()[0])
        assert os.path.exists("/proc/%d" % pid), "pid file names %d, which is gone" % pid
        v = subprocess.run([SkuaBgpd.vtysh_path(), "--vty-socket", sock, "-c", "show version"],
                           stdout=subprocess.PIPE, text=True, timeout=30, check=False)
        assert v.returncode == 0
        log = "/proc/%d/root/var/log/skua/bgpd.log" % pid
        text = wait_file(log, START_TIMEOUT) or ""
        print(text)
        first = text.splitlines()[0] if text else ""
        assert "no syslog daemon listens on /dev/log: logging to /var/log/skua/bgpd.log" in first
        assert "bgpd (skua" in text and "started" in text
    finally:
        if pid:
            try:
                os.kill(pid, signal.SIGTERM)
                deadline = time.monotonic() + 10
                while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
                    time.sleep(0.1)
                if os.path.exists("/proc/%d" % pid):
                    os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.timeout(150)
def test_live_password_and_gtsm_work_unprivileged(settled):
    """After the drop, a TCP-MD5 key and a GTSM rule added from vtysh reach the listener
    (key, socket filter: CAP_NET_ADMIN) and the session comes back up, secured, both ways."""
    for router, peer in (("s1", "192.0.2.2"), ("s2", "192.0.2.1")):
        settled[router].vtysh("configure terminal", "router bgp",
                              "neighbor %s password svc-secret" % peer,
                              "neighbor %s ttl-security hops 1" % peer, "end")
    settled.wait_all_established({"s1": ["192.0.2.2"], "s2": ["192.0.2.1"]}, timeout=90)
    out = settled["s1"].vtysh("show bgp neighbors 192.0.2.2")
    assert "TTL security (GTSM): hops 1, minimum TTL 255; on the socket minimum TTL 255" in out
    assert "GTSM at the listener: handshake TTL-checked" in out, out
    assert "TCP-MD5 at the listener: key missing" not in out, out
    settled.check_alive()
