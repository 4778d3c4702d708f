# SPDX-License-Identifier: ISC
"""SKUALAB_TIME_SCALE: the lab's time bounds on a slow machine.

The scenarios' waits and hold times are sized for native speed.  Under an emulated CPU (the
kernel patch's qemu VM under TCG, tests/kernel/run.sh, 3.5 to 6 times slower) the same lab
needs more time for everything to happen, not a different outcome.  The scale stretches:

- the per-test timeouts (conftest.py),
- the lab's bounded waits: Lab.expect, Lab.wait_established / wait_all_established,
  Lab.budget, the daemons' start-up waits,
- the BGP hold times in the routers' configs (`neighbor X timers K H` and `timers bgp K H`,
  skua's and FRR's syntax): H becomes H * scale; the keepalive interval stays, so a session
  still exchanges its messages as often and only tolerates longer silences.

Never what a test asserts: counts, states, the CPU a flood may cost, uptime slack.  A scenario
that asserts the configured hold time itself is not meant to run scaled.  Default 1 (off).
"""

import math
import os
import re

ENV = "SKUALAB_TIME_SCALE"
HOLD_MAX = 65535  # RFC 4271: the OPEN's Hold Time is 16 bits

_HOLD_RE = re.compile(r"^(\s*(?:neighbor\s+\S+\s+timers|timers\s+bgp)\s+)(\d+)(\s+)(\d+)(\s*)$",
                      re.MULTILINE)


def parse(text):
    """The scale given as `text` (None or empty: 1.0).  A number from 1 to 100, or
    ValueError saying what is wrong and what to write instead."""
    if text is None or text.strip() == "":
        return 1.0
    try:
        value = float(text)
    except ValueError:
        raise ValueError("%s=%r is not a number: give a factor such as 10 (or unset it)"
                         % (ENV, text))
    if not math.isfinite(value) or value < 1 or value > 100:
        raise ValueError("%s=%r is out of range: give a factor from 1 (native speed) to 100"
                         % (ENV, text))
    return value


def factor():
    """The scale of this run, from the environment."""
    return parse(os.environ.get(ENV))


def seconds(value):
    """`value` seconds stretched by the run's scale."""
    return value * factor()


def stretch_hold_times(text, scale=None):
    """The config `text` with every hold time multiplied by `scale` (default: the run's),
    rounded up and capped at 65535; a hold time of 0 (no keepalives) stays 0."""
    scale = factor() if scale is None else scale
    if scale == 1:
        return text

    def one(m):
        hold = int(m.group(4))
        if hold:
            hold = min(HOLD_MAX, math.ceil(hold * scale))
        return "%s%s%s%d%s" % (m.group(1), m.group(2), m.group(3), hold, m.group(5))
    return _HOLD_RE.sub(one, text)
