# SPDX-License-Identifier: ISC
"""The Debian package, built and installed as an operator would, without touching this host.

Once per run, the package is built from what `make dist` ships (so anything the package
installs that the release tarball lacks fails here): `make distdir` in SKUA_BUILDDIR, then
`dpkg-buildpackage -us -uc -b` with DEB_BUILD_OPTIONS="nocheck parallel=2" (the unit tests ran
already). SKUA_DEB=/path/skua_*.deb uses a package built earlier instead.

Then:
  - lintian finds no error and no warning in the .deb and the .changes;
  - the package is installed into a copy-on-write view of / (an overlay whose upper layer is a
    tmpfs, in private mount and network namespaces held by one process; chroot into it), so
    the host's /usr, /etc and /var never change: postinst creates the accounts and gives
    /etc/skua and /var/log/skua their owners; the binaries sit where FRR's and OpenBGPD's do
    not; `systemd-analyze verify` accepts the installed unit (skipped without systemd);
  - bgpd is started as systemd would start it (systemd is not PID 1 here): the installed
    unit's RuntimeDirectory is made, ExecStartPre then ExecStart run with its User, Group,
    SupplementaryGroups, ambient and bounding capabilities, NoNewPrivileges and UMask (by
    setpriv), and MemoryDenyWriteExecute (the kernel's PR_SET_MDWE); it must run as user
    skua and listen on port 179 without root;
  - skua-vtysh queries it (as root, and as an unprivileged member of skuavty), a change and
    `write memory` land in /etc/skua/bgpd.conf (still skua's, 0640), a bad file is refused by
    ExecStartPre, ExecReload after an edit of the file applies the edit, logrotate rotates the
    log and bgpd writes to the new file, SIGTERM stops it (exit 0, pid file gone);
  - dpkg --purge removes the package, /etc/skua and /var/log/skua.

Every command has a timeout; the namespaces die with their holder process, which a finalizer
kills by PID (SIGTERM, then SIGKILL), after bgpd.

Run: SKUA_BUILDDIR=build /usr/bin/python3 -m pytest tests/lab/test_package.py (as root).
"""

import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import time

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
UNIT = "/lib/systemd/system/skua-bgpd.service"
# What the package must never ship: the names FRR and OpenBGPD install.
FOREIGN = ["/usr/sbin/bgpd", "/usr/bin/vtysh", "/usr/share/man/man8/bgpd.8.gz",
           "/usr/share/man/man5/bgpd.conf.5.gz"]


def strict():
    return os.environ.get("SKUALAB_STRICT") == "1"


def skip_or_fail(reason):
    if strict():
        pytest.fail("SKUALAB_STRICT=1 and " + reason, pytrace=False)
    pytest.skip(reason)


def run(argv, timeout, check=True, **kw):
    """Run argv (bounded); on failure with check, fail the test with its output."""
    if "input" not in kw:
        kw["stdin"] = subprocess.DEVNULL
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        pytest.fail("%s: no answer within %ds: %s" % (shlex.join(argv), timeout, e.output))
    if check and r.returncode != 0:
        pytest.fail("%s exited %d:\n%s" % (shlex.join(argv), r.returncode, r.stdout[-4000:]))
    return r


def stop_pid(proc, grace=5.0):
    """SIGTERM, then SIGKILL after grace seconds, the process we started (by its PID)."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=grace)


# ---------------------------------------------------------------------------------------------
# Building the package, once per run


@pytest.fixture(scope="session")
def package(tmp_path_factory):
    if os.geteuid() != 0:
        skip_or_fail("the package test needs root (dpkg, overlay mounts, chroot)")
    given = os.environ.get("SKUA_DEB")
    if given:
        if not os.path.isfile(given):
            pytest.fail("SKUA_DEB=%s: no such file" % given)
        changes = [os.path.join(os.path.dirname(given), f)
                   for f in os.listdir(os.path.dirname(given) or ".") if f.endswith(".changes")]
        return {"deb": os.path.abspath(given), "changes": changes[:1]}

    for tool, pkg in (("dpkg-buildpackage", "dpkg-dev"), ("dh", "debhelper"),
                      ("lintian", "lintian")):
        if not shutil.which(tool):
            skip_or_fail("%s is missing (apt-get install %s; scripts/install-deps.sh "
                         "installs it)" % (tool, pkg))
    builddir = os.path.abspath(os.environ.get("SKUA_BUILDDIR", os.path.join(REPO, "build")))
    if not os.path.isfile(os.path.join(builddir, "Makefile")):
        skip_or_fail("%s is not a configured build directory (scripts/build.sh)" % builddir)

    out = str(tmp_path_factory.mktemp("skua-deb"))
    src = os.path.join(out, "skua")
    # The tree make dist would pack, without packing it.
    run(["make", "-s", "-C", builddir, "distdir", "distdir=" + src], timeout=300)
    deps = run(["dpkg-checkbuilddeps"], timeout=60, check=False, cwd=src)
    if deps.returncode != 0:
        skip_or_fail("build dependencies missing: %s" % deps.stdout.strip())
    env = dict(os.environ, DEB_BUILD_OPTIONS=os.environ.get("SKUA_DEB_BUILD_OPTIONS",
                                                             "nocheck parallel=2"))
    log = os.path.join(out, "dpkg-buildpackage.log")
    with open(log, "w") as f:
        try:
            r = subprocess.run(["dpkg-buildpackage", "-us", "-uc", "-b"], cwd=src, env=env,
                               stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                               timeout=1500)
        except subprocess.TimeoutExpired:
            pytest.fail("dpkg-buildpackage took more than 1500 s (log: %s)" % log)
    if r.returncode != 0:
        with open(log) as f:
            tail = f.read()[-5000:]
        pytest.fail("dpkg-buildpackage exited %d (log: %s):\n%s" % (r.returncode, log, tail))
    debs = [f for f in os.listdir(out) if re.match(r"skua_.*\.deb$", f)]
    changes = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".changes")]
    assert len(debs) == 1 and len(changes) == 1, os.listdir(out)
    return {"deb": os.path.join(out, debs[0]), "changes": changes}


@pytest.mark.timeout(1800)
def test_lintian_clean(package):
    """No lintian error or warning in the package or the upload; the infos are printed."""
    for f in [package["deb"]] + package["changes"]:
        r = run(["lintian", "--fail-on", "error,warning", "--display-info", f], timeout=300,
                check=False)
        print("lintian %s:\n%s" % (os.path.basename(f), r.stdout))
        assert r.returncode == 0, "lintian %s:\n%s" % (f, r.stdout)


@pytest.mark.timeout(1800)
def test_package_contents_coexist(package):
    """bgpd and the shell are where FRR's and OpenBGPD's files are not."""
    listing = run(["dpkg-deb", "-c", package["deb"]], timeout=60).stdout
    paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    for p in ["/usr/lib/skua/bgpd", "/usr/bin/skua-vtysh", UNIT, "/etc/logrotate.d/skua",
              "/etc/skua/bgpd.conf", "/usr/share/man/man8/skua-bgpd.8.gz",
              "/usr/share/man/man5/skua-bgpd.conf.5.gz", "/usr/share/man/man1/skua-vtysh.1.gz"]:
        assert p in paths, "%s is not in the package" % p
    for p in FOREIGN:
        assert p not in paths, "%s belongs to FRR or OpenBGPD" % p
    conffiles = run(["dpkg-deb", "-I", package["deb"], "conffiles"], timeout=30).stdout.split()
    assert "/etc/skua/bgpd.conf" in conffiles and "/etc/logrotate.d/skua" in conffiles


# ---------------------------------------------------------------------------------------------
# A copy-on-write root to install into


class OverlayRoot:
    """/ seen through an overlay with a tmpfs upper layer, in private mount and network
    namespaces that one holder process keeps alive; commands enter them with nsenter and
    chroot. Writes land in the tmpfs; the host sees nothing, and everything goes away with
    the holder. /run is a fresh tmpfs (no host sockets, no /run/systemd/system: the
    maintainer scripts behave as on a system without systemd), lo is up."""

    def __init__(self, base, lifetime):
        self.base = base
        self.root = os.path.join(base, "root")
        script = f"""set -e
mount -t tmpfs -o mode=0755 skua-package-test {base}
mkdir {base}/upper {base}/work {self.root}
mount -t overlay overlay -o lowerdir=/,upperdir={base}/upper,workdir={base}/work {self.root}
mount -t proc proc {self.root}/proc
mount -t sysfs sysfs {self.root}/sys
mount --rbind /dev {self.root}/dev
mount -t tmpfs -o mode=0755 tmpfs {self.root}/run
ip link set lo up
echo ready
exec sleep {int(lifetime)}
"""
        self.holder = subprocess.Popen(
            ["unshare", "--mount", "--net", "--propagation", "private", "--", "sh", "-c",
             script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        ready, _, _ = select.select([self.holder.stdout], [], [], 20)
        line = self.holder.stdout.readline() if ready else ""
        if line.strip() != "ready":
            rest = ""
            if self.holder.poll() is not None:
                rest = self.holder.stdout.read()
            self.close()
            pytest.fail("could not set up the overlay root: %s%s" % (line, rest))

    def argv(self, argv):
        return ["nsenter", "-t", str(self.holder.pid), "-m", "-n", "chroot", self.root] + argv

    def run(self, argv, timeout=60, check=True, **kw):
        return run(self.argv(argv), timeout=timeout, check=check, **kw)

    def read(self, path):
        return self.run(["cat", path], timeout=10).stdout

    def exists(self, path):
        return self.run(["test", "-e", path], timeout=10, check=False).returncode == 0

    def stat(self, path):
        """(owner, group, octal mode) of path inside the root."""
        owner, group, mode = self.run(["stat", "-c", "%U %G %a", path], timeout=10).stdout.split()
        return owner, group, mode

    def close(self):
        stop_pid(self.holder)
        if self.holder.stdout:
            self.holder.stdout.close()


# ---------------------------------------------------------------------------------------------
# The unit, run as systemd would run it


def parse_unit(text):
    """{key: [values]} of a unit file's [Service] section (keys may repeat)."""
    section, out = None, {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]" and "=" in line:
            k, v = line.split("=", 1)
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def one(unit, key):
    vals = unit.get(key)
    assert vals and len(vals) == 1, "%s= must be set once in %s: %r" % (key, UNIT, vals)
    return vals[0]


def exec_argv(line, mainpid=None):
    """An Exec*= line as argv: the special prefixes of systemd.service(5) are refused here
    (the unit does not use them, and this test would not honour them)."""
    assert line[0] not in "-@:+!", "unsupported Exec prefix in %r" % line
    argv = shlex.split(line)
    if mainpid is not None:
        argv = [a.replace("$MAINPID", str(mainpid)) for a in argv]
    return argv


def credentials(unit):
    """setpriv arguments for the unit's User=, Group=, SupplementaryGroups=, capabilities and
    NoNewPrivileges=."""
    caps = ",".join("+" + c.lower().replace("cap_", "") for c in
                    one(unit, "AmbientCapabilities").split())
    bounding = ",".join("+" + c.lower().replace("cap_", "") for c in
                        one(unit, "CapabilityBoundingSet").split())
    groups = [one(unit, "Group")] + " ".join(unit.get("SupplementaryGroups", [])).split()
    args = ["setpriv", "--reuid=" + one(unit, "User"), "--regid=" + one(unit, "Group"),
            "--groups=" + ",".join(groups), "--inh-caps=" + caps, "--ambient-caps=" + caps,
            "--bounding-set=-all," + bounding]
    if unit.get("NoNewPrivileges", ["no"])[-1] in ("yes", "true", "1", "on"):
        args.append("--no-new-privs")
    return args + ["--"]


PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1


def memory_deny_write_execute(unit):
    """A preexec function giving the process the kernel's MDWE (prctl PR_SET_MDWE, kept
    across execve), which refuses what systemd's MemoryDenyWriteExecute= refuses: memory both
    writable and executable. None when the unit does not ask for it."""
    if unit.get("MemoryDenyWriteExecute", ["no"])[-1] not in ("yes", "true", "1", "on"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def apply():
        if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_MDWE)")
    return apply


def wait_for(what, cond, timeout=20.0, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(step)
    pytest.fail("%s: not within %.0f s" % (what, timeout))


@pytest.mark.timeout(1800)
def test_unit_verifies(package, tmp_path):
    """systemd-analyze verify accepts the installed unit: its directives, that its programs
    exist and are executable, that its man pages exist."""
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is absent (package systemd): the unit cannot be verified")
    base = str(tmp_path / "root")
    os.mkdir(base)
    root = OverlayRoot(base, lifetime=300)
    try:
        root.run(["dpkg", "-i", package["deb"]], timeout=120)
        v = root.run(["systemd-analyze", "verify", UNIT], timeout=60, check=False)
        assert v.returncode == 0 and not v.stdout.strip(), \
            "systemd-analyze verify %s:\n%s" % (UNIT, v.stdout)
        score = root.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", UNIT],
                         timeout=60, check=False).stdout.strip().splitlines()
        print(score[-1] if score else "systemd-analyze security printed nothing")
    finally:
        root.close()
        try:
            os.rmdir(base)
        except OSError:
            pass


def proc_uid(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Uid:"):
                return int(line.split()[1])
    return None


@pytest.mark.timeout(1800)
def test_install_run_reload_purge(package, tmp_path):
    host_before = {p: os.path.exists(p) for p in ["/usr/lib/skua", "/usr/bin/skua-vtysh",
                                                  "/etc/skua", UNIT, "/etc/logrotate.d/skua"]}
    base = str(tmp_path / "root")
    os.mkdir(base)
    root = OverlayRoot(base, lifetime=1500)
    bgpd = None
    journal_path = str(tmp_path / "journal.log")
    try:
        # --- installation
        r = root.run(["dpkg", "-i", package["deb"]], timeout=120)
        print(r.stdout)
        assert root.run(["getent", "passwd", "skua"], timeout=10).stdout
        assert "skuavty" in root.run(["id", "-nG", "skua"], timeout=10).stdout.split()
        assert root.stat("/etc/skua") == ("skua", "skua", "750")
        assert root.stat("/etc/skua/bgpd.conf") == ("skua", "skua", "640")
        assert root.stat("/var/log/skua") == ("skua", "adm", "750")
        for p in FOREIGN:
            owner = root.run(["dpkg", "-S", p], timeout=30, check=False).stdout
            assert not owner.startswith("skua:"), owner
        unit = parse_unit(root.read(UNIT))
        assert one(unit, "Type") == "simple"
        user = one(unit, "User")
        cred = credentials(unit)
        umask = int(one(unit, "UMask"), 8)
        mdwe = memory_deny_write_execute(unit)

        # --- start, as systemd would: RuntimeDirectory, ExecStartPre, ExecStart
        rundir = "/run/" + one(unit, "RuntimeDirectory")
        root.run(["install", "-d", "-m", one(unit, "RuntimeDirectoryMode"), "-o", user, "-g",
                  one(unit, "Group"), rundir], timeout=10)
        pre = exec_argv(one(unit, "ExecStartPre"))
        root.run(cred + pre, timeout=60, umask=umask, preexec_fn=mdwe)
        journal = open(journal_path, "w")
        bgpd = subprocess.Popen(root.argv(cred + exec_argv(one(unit, "ExecStart"))),
                                stdin=subprocess.DEVNULL, stdout=journal,
                                stderr=subprocess.STDOUT, umask=umask, preexec_fn=mdwe)
        journal.close()

        def journal_text():
            with open(journal_path) as f:
                return f.read()

        def vtysh(*cmds, check=True, as_user=None):
            argv = ["skua-vtysh"]
            for c in cmds:
                argv += ["-c", c]
            if as_user:
                argv = as_user + argv
            return root.run(argv, timeout=30, check=check)

        def up():
            assert bgpd.poll() is None, "bgpd exited %s:\n%s" % (bgpd.returncode,
                                                                 journal_text())
            return vtysh("show version", check=False).returncode == 0

        wait_for("bgpd answering on its vty socket", up)
        skua_uid = int(root.run(["id", "-u", user], timeout=10).stdout)
        assert proc_uid(bgpd.pid) == skua_uid, "bgpd does not run as %s" % user
        listen = root.run(["ss", "-Htln", "sport = :179"], timeout=10).stdout
        assert ":179" in listen, "bgpd (user %s, ambient capabilities) is not listening " \
            "on port 179:\n%s\n%s" % (user, listen, journal_text())
        assert root.read("/run/skua/bgpd.pid").strip() == str(bgpd.pid)

        # --- the shell: root, a member of skuavty, and someone who is not
        r = vtysh("show ip bgp summary", check=False)
        assert r.returncode in (0, 1) and "Unknown command" not in r.stdout, r.stdout
        member = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=skuavty", "--"]
        assert vtysh("show version", as_user=member).returncode == 0
        stranger = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
        assert vtysh("show version", as_user=stranger, check=False).returncode != 0

        # --- a change, saved with write memory into the conffile
        vtysh("configure terminal", "router bgp 64500",
              "neighbor 192.0.2.2 remote-as 64501", "exit",
              "log file /var/log/skua/bgpd.log", "end", "write memory")
        conf = root.read("/etc/skua/bgpd.conf")
        assert "neighbor 192.0.2.2 remote-as 64501" in conf, conf
        assert root.stat("/etc/skua/bgpd.conf") == ("skua", "skua", "640")
        assert "192.0.2.2" in vtysh("show ip bgp summary").stdout

        # --- RTR over TLS is a module: OpenSSL is not mapped until a TLS cache is
        # configured, then the module comes from the package's own directory
        def maps():
            with open("/proc/%d/maps" % bgpd.pid) as f:
                return f.read()
        assert "libcrypto" not in maps() and "rtr_tls.so" not in maps(), maps()
        tls_cache = "rpki cache tls 192.0.2.10 8324 ca-file /etc/ssl/certs/ca-certificates.crt"
        vtysh("configure terminal", "rpki", tls_cache + " preference 1", "end")
        assert re.search(r"/usr/lib/[^ ]*skua/rtr_tls\.so", maps()), maps()
        assert "libcrypto" in maps(), maps()
        vtysh("configure terminal", "rpki", "no rpki cache tls 192.0.2.10 8324 preference 1",
              "end")

        # --- a file that does not validate is stopped by ExecStartPre
        good = conf
        bad = good.replace("remote-as 64501", "remote-as 64501\n neighbor 192.0.2.2 bogus-word")
        root.run(["sh", "-c", 'cat > "$0"', "/etc/skua/bgpd.conf"], timeout=10, input=bad)
        r = root.run(cred + pre, timeout=60, check=False)
        assert r.returncode != 0 and "/etc/skua/bgpd.conf:" in r.stdout, r.stdout

        # --- reload after an edit: only the edit is applied
        edited = good.replace("remote-as 64501",
                              "remote-as 64501\n neighbor 192.0.2.2 description via-reload")
        assert edited != good
        root.run(["sh", "-c", 'cat > "$0"', "/etc/skua/bgpd.conf"], timeout=10, input=edited)
        root.run(cred + exec_argv(one(unit, "ExecReload"), mainpid=bgpd.pid), timeout=30)
        wait_for("the reloaded description in show running-config",
                 lambda: "description via-reload" in vtysh("show running-config").stdout)
        assert bgpd.poll() is None

        # --- logrotate: the file is rotated and bgpd writes to the new one
        assert root.exists("/var/log/skua/bgpd.log")
        root.run(["logrotate", "-f", "-s", "/run/logrotate-test.state",
                  "/etc/logrotate.d/skua"], timeout=60)
        assert root.exists("/var/log/skua/bgpd.log.1")
        wait_for("bgpd writing to the new log file after SIGHUP",
                 lambda: "configuration reloaded" in root.read("/var/log/skua/bgpd.log"))
        assert root.stat("/var/log/skua/bgpd.log")[0] == "skua"

        # --- stop (systemd's KillSignal: SIGTERM)
        bgpd.send_signal(signal.SIGTERM)
        try:
            rc = bgpd.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("bgpd did not stop within 20 s of SIGTERM")
        assert rc == 0, "bgpd exited %d:\n%s" % (rc, journal_text())
        assert not root.exists("/run/skua/bgpd.pid")

        # --- purge
        root.run(["dpkg", "--purge", "skua"], timeout=120)
        for p in ["/etc/skua", "/var/log/skua", "/usr/lib/skua", "/usr/bin/skua-vtysh", UNIT,
                  "/etc/logrotate.d/skua", "/usr/share/man/man8/skua-bgpd.8.gz"]:
            assert not root.exists(p), "%s is left after dpkg --purge" % p
        assert root.run(["dpkg", "-s", "skua"], timeout=30, check=False).returncode != 0
        # Debian practice: the system accounts stay after a purge.
        assert root.run(["getent", "passwd", "skua"], timeout=10, check=False).returncode == 0
    finally:
        stop_pid(bgpd)
        root.close()
        try:
            os.rmdir(base)
        except OSError:
            pass
    host_after = {p: os.path.exists(p) for p in host_before}
    assert host_after == host_before, "the host changed: %r -> %r" % (host_before, host_after)
