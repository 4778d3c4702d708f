"""The user skua's bgpd becomes after start-up, and handing it the files it works on.

Started as root, bgpd drops to the user `skua` (bgpd -u, default skua) once its sockets and
netlink channel are open: the configuration file is then read, `write memory` writes it and
the pid file and vty socket are removed by that user.  The lab runs bgpd that way (as an
operator would), so the directories it hands to bgpd belong to that user.
"""

import os
import pwd
import resource
import subprocess

RUN_USER = "skua"


def run_user():
    """(uid, gid) of the user bgpd will become, or None: not root (bgpd keeps the caller's
    identity) or no such user (scripts/install-deps.sh creates it)."""
    if os.geteuid() != 0:
        return None
    try:
        pw = pwd.getpwnam(RUN_USER)
    except KeyError:
        return None
    return pw.pw_uid, pw.pw_gid


def missing_run_user():
    """A sentence when bgpd, started as root, would refuse to start for want of its user."""
    if os.geteuid() == 0 and run_user() is None:
        return ("no user %r: bgpd started as root drops to it (create it with "
                "scripts/install-deps.sh)" % RUN_USER)
    return None


def give_to_run_user(*paths):
    """chown each path (not recursively) to the run user, when there is one."""
    ids = run_user()
    if ids is None:
        return
    for p in paths:
        os.chown(p, *ids)


def set_nofile(pid, limits):
    """prlimit(2) RLIMIT_NOFILE (soft, hard) on a bgpd.  It runs as the run user: changing
    another user's limits takes CAP_SYS_RESOURCE, which root in a container may lack, so ask
    as bgpd's own user (util-linux setpriv and prlimit)."""
    ids = run_user()
    if ids is None:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, limits)
        return
    subprocess.run(["setpriv", "--reuid=%d" % ids[0], "--regid=%d" % ids[1], "--clear-groups",
                    "prlimit", "--pid", str(pid), "--nofile=%d:%d" % tuple(limits)],
                   check=True, timeout=10)
