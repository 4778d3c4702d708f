# SPDX-License-Identifier: ISC
"""Every bad line of a configuration file in one run (issue 14, must-show 2).

tests/unit/conf/bad-five-lines.conf holds five independent mistakes (keyword typos, values out
of range, host bits set); bad-five-mixed.conf is an FRR 8.4 edge configuration with typos and
FRR statements skua lacks mixed (those must say "not supported by skua", the typos "Unknown
command"). For each, the real bgpd must name all five, with their line numbers, in file
order, both from `bgpd -C` and when started on the file, and must refuse to start: exit 1, no
vty socket left behind. The expected lines are the unit suite's .err file, with the file's
path in front as bgpd prints it. No network is used: bgpd refuses before it listens.

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
SAMPLES = ("bad-five-lines", "bad-five-mixed")
RUN_TIMEOUT = 20  # seconds for one bgpd run that must refuse at once


def sample_path(name):
    return os.path.abspath(os.path.join(CONF_DIR, name + ".conf"))


def expected_lines(name):
    with open(os.path.join(CONF_DIR, name + ".err")) as f:
        return ["bgpd: %s/%s" % (os.path.dirname(sample_path(name)), ln.rstrip("\n"))
                for ln in f]


def bgpd_error_lines(args):
    if not os.access(SkuaBgpd.bgpd_path(), os.X_OK):
        pytest.skip("no bgpd in %s (build first)" % SkuaBgpd.builddir())
    p = subprocess.run([SkuaBgpd.bgpd_path()] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT,
                       check=False)
    lines = p.stderr.decode(errors="replace").splitlines()
    return p.returncode, [ln for ln in lines if ln.startswith("bgpd: ")]


@pytest.mark.parametrize("name", SAMPLES)
def test_check_reports_all_five_in_order(name):
    rc, lines = bgpd_error_lines(["-C", "-f", sample_path(name)])
    assert rc == 1
    assert len(expected_lines(name)) == 5
    assert lines == expected_lines(name)


def test_mixed_sample_names_typos_and_missing_statements():
    """The mixed sample has both kinds: FRR's statements are named, typos are unknown."""
    kinds = [("not supported by skua: " in ln, "Unknown command: " in ln)
             for ln in expected_lines("bad-five-mixed")]
    assert sum(k[0] for k in kinds) == 2 and sum(k[1] for k in kinds) == 3


@pytest.mark.parametrize("name", SAMPLES)
def test_startup_reports_all_five_and_refuses(name):
    work = tempfile.mkdtemp(prefix="skua-conferr-")
    try:
        sock = os.path.join(work, "bgpd.vty")
        args = ["-f", sample_path(name), "-i", os.path.join(work, "bgpd.pid"), "--vty-socket", sock,
                "--log-dir", work, "-n", "-p", "0", "-l", "127.0.0.1"]
        if os.geteuid() == 0:
            args += ["-u", "root"]
        rc, lines = bgpd_error_lines(args)
        assert rc == 1
        assert lines == expected_lines(name)
        assert not os.path.exists(sock)
    finally:
        shutil.rmtree(work, ignore_errors=True)
