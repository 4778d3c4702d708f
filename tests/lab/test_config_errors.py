# SPDX-License-Identifier: ISC
"""Every bad line of a configuration file in one run (issue 14, must-show 2).

tests/unit/conf/bad-five-lines.conf holds five independent mistakes (keyword typos, values out
of range, host bits set). The real bgpd must name all five, with their line numbers, in file
order, both from `bgpd -C` and when started on the file, and must refuse to start: exit 1, no
vty socket left behind. The expected lines are the unit suite's bad-five-lines.err, with the
file's path in front as bgpd prints it. No network is used: bgpd refuses before it listens.

Run: SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_config_errors.py
"""

import os
import shutil
import subprocess
import tempfile

import pytest

from skualab.daemons import SkuaBgpd

pytestmark = pytest.mark.timeout(60)

HERE = os.path.dirname(os.path.abspath(__file__))
CONF_DIR = os.path.join(HERE, "..", "unit", "conf")
SAMPLE = os.path.abspath(os.path.join(CONF_DIR, "bad-five-lines.conf"))
RUN_TIMEOUT = 20  # seconds for one bgpd run that must refuse at once


def expected_lines():
    with open(os.path.join(CONF_DIR, "bad-five-lines.err")) as f:
        return ["bgpd: %s/%s" % (os.path.dirname(SAMPLE), ln.rstrip("\n")) for ln in f]


def bgpd_error_lines(args):
    if not os.access(SkuaBgpd.bgpd_path(), os.X_OK):
        pytest.skip("no bgpd in %s (build first)" % SkuaBgpd.builddir())
    p = subprocess.run([SkuaBgpd.bgpd_path()] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT,
                       check=False)
    lines = p.stderr.decode(errors="replace").splitlines()
    return p.returncode, [ln for ln in lines if ln.startswith("bgpd: ")]


def test_check_reports_all_five_in_order():
    rc, lines = bgpd_error_lines(["-C", "-f", SAMPLE])
    assert rc == 1
    assert len(expected_lines()) == 5
    assert lines == expected_lines()


def test_startup_reports_all_five_and_refuses():
    work = tempfile.mkdtemp(prefix="skua-conferr-")
    try:
        sock = os.path.join(work, "bgpd.vty")
        args = ["-f", SAMPLE, "-i", os.path.join(work, "bgpd.pid"), "--vty-socket", sock,
                "--log-dir", work, "-n", "-p", "0", "-l", "127.0.0.1"]
        if os.geteuid() == 0:
            args += ["-u", "root"]
        rc, lines = bgpd_error_lines(args)
        assert rc == 1
        assert lines == expected_lines()
        assert not os.path.exists(sock)
    finally:
        shutil.rmtree(work, ignore_errors=True)
