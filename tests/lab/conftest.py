# SPDX-License-Identifier: ISC
"""pytest glue for the lab: the `lab` fixture, per-test timeouts, logs on failure.

Environment:
  SKUA_BUILDDIR     skua build directory holding bgpd/bgpd and vtysh/vtysh (default: build/)
  SKUALAB_LOGDIR    where configs, sockets and daemon logs go (default /tmp/skualab-<pid>)
  SKUALAB_STRICT=1  a missing binary or missing root fails instead of skipping (CI)
  SKUALAB_STANDIN=frr   run `skua` routers with FRR's bgpd (proves a scenario today)
  SKUALAB_TIMEOUT   default per-test timeout in seconds (default 180)
  SKUALAB_TIME_SCALE  stretch every per-test timeout, the lab's bounded waits and the BGP
                    hold times by this factor (1-100, default 1) on a slow machine, e.g. the
                    TCG VM of tests/kernel/run.sh; never what tests assert
                    (skualab/timescale.py)
"""

import os
import signal
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from skualab import Lab, base_logdir  # noqa: E402
from skualab import cleanup, timescale  # noqa: E402

DEFAULT_TIMEOUT = int(os.environ.get("SKUALAB_TIMEOUT", "180"))


def strict():
    return os.environ.get("SKUALAB_STRICT") == "1"


def skip_or_fail(reason):
    if strict():
        pytest.fail("SKUALAB_STRICT=1 and " + reason, pytrace=False)
    pytest.skip(reason)


def _has_timeout_plugin(config):
    return config.pluginmanager.hasplugin("timeout")


def pytest_configure(config):
    try:
        timescale.factor()
    except ValueError as e:
        raise pytest.UsageError(str(e))
    cleanup.install_handlers()
    if not _has_timeout_plugin(config):
        config.addinivalue_line("markers", "timeout(seconds): fail the test after this many "
                                "seconds (conftest fallback when pytest-timeout is absent)")


def pytest_report_header(config):
    mode = "pytest-timeout" if _has_timeout_plugin(config) else "conftest SIGALRM fallback"
    standin = os.environ.get("SKUALAB_STANDIN")
    lines = ["skualab: logs and configs under %s; per-test timeout %ds default (%s)"
             % (base_logdir(), DEFAULT_TIMEOUT, mode)]
    if timescale.factor() != 1:
        lines.append("skualab: %s=%g: timeouts, waits and hold times stretched by %g"
                     % (timescale.ENV, timescale.factor(), timescale.factor()))
    if standin:
        lines.append("skualab: SKUALAB_STANDIN=%s: `skua` routers run %s's bgpd"
                     % (standin, standin))
    return lines


def pytest_collection_modifyitems(config, items):
    # Every test gets a bound; with pytest-timeout use the signal method so fixtures still
    # tear down (its thread method would exit the process and leave namespaces behind).
    # The marker added goes first: pytest-timeout reads the closest one, which would
    # otherwise be the test's own, unscaled.
    for item in items:
        m = item.get_closest_marker("timeout")
        seconds = timescale.seconds(m.args[0] if m and m.args else DEFAULT_TIMEOUT)
        if _has_timeout_plugin(config):
            item.add_marker(pytest.mark.timeout(seconds, method="signal"), append=False)
        item._skualab_timeout = seconds


class _Alarm:
    """SIGALRM bound on one test phase (used when pytest-timeout is not installed)."""

    def __init__(self, item, phase):
        self.enabled = not _has_timeout_plugin(item.config)
        self.seconds = getattr(item, "_skualab_timeout", DEFAULT_TIMEOUT)
        self.phase = phase

    def _fire(self, signum, frame):
        pytest.fail("%s exceeded the per-test timeout of %ds" % (self.phase, self.seconds),
                    pytrace=True)

    def __enter__(self):
        if self.enabled:
            self.old = signal.signal(signal.SIGALRM, self._fire)
            signal.alarm(int(self.seconds))

    def __exit__(self, *exc):
        if self.enabled:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, self.old)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    with _Alarm(item, "setup"):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    with _Alarm(item, "test"):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    with _Alarm(item, "teardown"):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        lab = (getattr(item, "funcargs", {}).get("lab")
               or getattr(getattr(item, "module", None), "_skualab", None))
        if lab is not None:
            rep.sections.append(("skualab logs", lab.log_tails()))


@pytest.fixture(scope="module")
def lab(request):
    """The scenario of the test module's directory, started once per module."""
    scenario = os.path.dirname(str(request.module.__file__))
    lab = Lab(scenario)
    why = lab.missing()
    if why:
        skip_or_fail(why)
    request.module._skualab = lab  # for the failure report of setup errors

    def finish():
        lab.teardown()
        reports = lab.sanitizer_reports()
        if reports:
            pytest.fail("sanitizer reports in skua's logs (a memory or UB error seen in this "
                        "scenario):\n" + "\n".join(reports[:20]), pytrace=False)
    request.addfinalizer(finish)
    lab.start()
    return lab


def pytest_terminal_summary(terminalreporter):
    if os.path.isdir(base_logdir()):
        terminalreporter.write_line("skualab: daemon logs and configs kept in %s"
                                    % base_logdir())
