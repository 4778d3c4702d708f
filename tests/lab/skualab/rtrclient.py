# SPDX-License-Identifier: ISC
"""rtrclient (rtr-tools, RTRlib 0.8) as a second opinion on what a cache serves.

`rtrclient -e tcp HOST PORT` synchronises once, prints "Sync done" and the prefix table one
VRP a line ("198.51.100.0/24-24 AS 64500"), and exits; its RTRlib log goes to stderr.  It
would wait forever for a cache that never answers: the run is bounded by `timeout`.
"""

import re

from .netns import CommandError

RTRCLIENT = "/usr/bin/rtrclient"
VRP_LINE = re.compile(r"^(\S+)/(\d+)-(\d+) AS (\d+)$")


def parse_export(text):
    """[(prefix "198.51.100.0/24", max_length, asn)] sorted, from rtrclient -e's output."""
    vrps = []
    for line in text.splitlines():
        m = VRP_LINE.match(line.strip())
        if m:
            vrps.append(("%s/%s" % (m.group(1), m.group(2)), int(m.group(3)), int(m.group(4))))
    if "Sync done" not in text:
        raise ValueError("rtrclient never finished a synchronisation:\n%s" % text[-2000:])
    return sorted(vrps)


def export(netns, host, port, timeout=20):
    """The VRPs the cache at host:port serves, as seen from inside `netns`."""
    try:
        out = netns.exec(["timeout", str(timeout), RTRCLIENT, "-e", "tcp", host, str(port)],
                         timeout=timeout + 5)
    except CommandError as e:
        raise AssertionError("rtrclient -e tcp %s %s failed: %s" % (host, port, e))
    return parse_export(out)
