# SPDX-License-Identifier: ISC
"""The lab cleans up after itself however a run ends: SIGTERM, Ctrl-C, a per-test timeout
(with pytest-timeout and with the conftest fallback), and even SIGKILL, after which the next
run reaps the leftovers.  "Clean" = every namespace gone and every daemon process gone,
including FRR's (running as user frr) and ExaBGP's (dropped to user exabgp)."""

import json
import os
import shutil
import signal
import subprocess
import textwrap
import time

import pytest

from skualab import cleanup

HERE = os.path.dirname(os.path.abspath(__file__))
LABDIR = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3"


def needs_root_and_peers():
    from skualab import Lab
    why = Lab(HERE).missing()
    if why:
        if os.environ.get("SKUALAB_STRICT") == "1":
            pytest.fail(why)
        pytest.skip(why)


def process_alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def namespaces():
    return set(cleanup.list_netns())


def start_holder():
    env = dict(os.environ, PYTHONPATH=LABDIR)
    child = subprocess.Popen([PY, os.path.join(HERE, "holder.py")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, start_new_session=True)
    line = child.stdout.readline()
    if not line:
        child.kill()
        pytest.fail("holder.py did not start the lab: %s" % child.stderr.read().decode())
    state = json.loads(line)
    assert set(state["namespaces"]) <= namespaces()
    assert len(state["pids"]) == 4 and all(process_alive(p) for p in state["pids"])
    return child, state


def assert_clean(state, within=15):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        left_ns = set(state["namespaces"]) & namespaces()
        left_pids = [p for p in state["pids"] if process_alive(p)]
        if not left_ns and not left_pids:
            return
        time.sleep(0.2)
    pytest.fail("left behind: namespaces %s, processes %s" % (left_ns, left_pids))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_signal_tears_everything_down(sig):
    needs_root_and_peers()
    child, state = start_holder()
    t0 = time.monotonic()
    child.send_signal(sig)
    try:
        child.wait(timeout=90)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("holder still tearing down after 90 s; its log:\n%s"
                    % child.stderr.read().decode(errors="replace"))
    print("holder exited %.1fs after the signal" % (time.monotonic() - t0))
    assert_clean(state)


@pytest.mark.timeout(60)
def test_sigkill_leftovers_are_reaped_by_the_next_run():
    needs_root_and_peers()
    child, state = start_holder()
    child.kill()
    child.wait(timeout=10)
    time.sleep(0.5)
    # SIGKILL gives no chance to clean: everything is still there...
    assert set(state["namespaces"]) <= namespaces()
    assert any(process_alive(p) for p in state["pids"])
    # ...until a later run reaps namespaces whose run is gone, and what runs inside them
    # (at once here: a lab starting reaps only leftovers a minute old).
    cleanup.reap_stale(min_age=0)
    assert_clean(state)


CHILD_TEST = '''
import json, os, time
import pytest

@pytest.mark.timeout(6)
def test_sleeps_past_its_timeout(lab):
    with open(os.environ["SKUALAB_STATE"], "w") as f:
        json.dump({"namespaces": [n.name for n in lab.namespaces.values()],
                   "pids": [p.pid for d in lab.daemons.values() for p in d.procs]}, f)
    time.sleep(120)
'''


@pytest.mark.timeout(90)
@pytest.mark.parametrize("plugin", ["pytest-timeout", "fallback"])
def test_per_test_timeout_fails_the_test_and_tears_down(tmp_path, plugin):
    needs_root_and_peers()
    if plugin == "pytest-timeout":
        pytest.importorskip("pytest_timeout")
    for name in ("topology.toml", "f1", "b1", "x1"):
        src = os.path.join(HERE, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, tmp_path / name)
    # The lab's conftest (hooks and fixtures), loaded under another module name.
    (tmp_path / "conftest.py").write_text(textwrap.dedent('''
        import importlib.util
        spec = importlib.util.spec_from_file_location("skualab_conftest", %r)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        globals().update({k: v for k, v in vars(mod).items() if not k.startswith("__")})
        ''' % os.path.join(LABDIR, "conftest.py")))
    (tmp_path / "test_child.py").write_text(CHILD_TEST)
    state_file = tmp_path / "state.json"
    argv = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_child.py"),
            "--rootdir", str(tmp_path)]
    if plugin == "fallback":
        argv += ["-p", "no:timeout"]
    env = dict(os.environ, SKUALAB_STATE=str(state_file), PYTHONPATH=LABDIR)
    run = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                         timeout=80, cwd=str(tmp_path))
    out = run.stdout.decode(errors="replace")
    assert run.returncode == 1, out
    assert ("Timeout >6" if plugin == "pytest-timeout"
            else "test exceeded the per-test timeout of 6s") in out, out
    assert_clean(json.loads(state_file.read_text()))
