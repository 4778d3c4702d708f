# SPDX-License-Identifier: ISC
"""Plumbing of bench/many_peers.py: with skua only and tiny tables (a fan-out of 300 prefixes
to 1 and 3 collectors, a mesh of 4 peers x 50), the script runs every case, exits 0, writes its
JSON with every field the report is made of (times, CPU, memory, the ratio to one collector),
and leaves no namespace behind. Seconds, not a benchmark: no figure is judged.

Run as root:
  SKUA_BUILDDIR=/path/to/build /usr/bin/python3 -m pytest tests/lab/test_bench_many_peers.py
"""

import glob
import json
import os
import subprocess
import sys

import pytest

from conftest import skip_or_fail

pytestmark = pytest.mark.timeout(150)

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SKUA_BUILDDIR", os.path.join(TOP, "build"))


def netns_list():
    out = subprocess.run(["ip", "netns", "list"], stdout=subprocess.PIPE, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def test_many_peers_produces_its_fields(tmp_path):
    if os.geteuid() != 0:
        skip_or_fail("the benchmark needs root (network namespaces)")
    for binary in ("bgpd/bgpd", "bench/bgp_blaster"):
        if not os.access(os.path.join(BUILD, binary), os.X_OK):
            skip_or_fail("%s is not built in %s" % (binary, BUILD))
    before = netns_list()
    r = subprocess.run([sys.executable, os.path.join(TOP, "bench", "many_peers.py"),
                        "--duts", "skua", "--build-dir", BUILD, "--prefixes", "300",
                        "--per-set", "10", "--collectors", "1,3", "--mesh-peers", "4",
                        "--mesh-prefixes", "50", "--timeout", "60", "--stall", "10",
                        "--settle", "0", "--out-dir", str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=140)
    assert r.returncode == 0, r.stderr
    assert not {ns for ns in netns_list() - before if ns.startswith("mp")}, \
        "the script left namespaces behind"

    (path,) = glob.glob(str(tmp_path / "many_peers-300-*.json"))
    with open(path) as f:
        data = json.load(f)
    assert data["meta"]["collectors"] == [1, 3] and data["meta"]["mesh_peers"] == 4
    cases = data["summary"]["skua"]
    assert set(cases) == {"fanout-1", "fanout-3", "mesh-4x50"}
    for name, s in cases.items():
        assert s["runs"] == 1 and s["failed"] == 0, (name, s)
        assert 0 <= s["first_peer_s"] <= s["time_s"] < 60 and s["time_s"] > 0, (name, s)
        assert s["cpu_s"] >= 0 and s["vmhwm_mib"] > 1, (name, s)
    assert cases["fanout-3"]["time_s_vs_1"] > 0
    assert "cpu_s_vs_1" in cases["fanout-3"]  # None when the single run took 0 ticks
    runs = {r["case"]: r for r in data["runs"]}
    assert runs["fanout-3"]["peers"] == 4 and runs["mesh-4x50"]["peers"] == 4
    assert "| skua" in r.stdout and "fanout-3" in r.stdout and "mesh-4x50" in r.stdout
