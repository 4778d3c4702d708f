# SPDX-License-Identifier: ISC
"""Why a session went down, read from bgpd's log rather than from `show`.

`show bgp neighbors` keeps only the last reset reason and the last NOTIFICATION.  After an
attack drops a session, both ends reconnect at once; when the reading comes late (a slow
machine, a busy CI runner) a collision NOTIFICATION of that reconnection (Cease 6/7) has
already replaced the attack's reason.  bgpd logs every such event with the neighbor's
address, in order, so the first one after a mark taken before the attack is the attack's.
"""

import os

# The lines skua's bgpd writes when a session ends (bgpd/session/bgp_io.c, bgp_packet.c,
# bgp_fsm.c); anything else for the neighbor (connect attempts) is not a reason.
DOWN_EVENTS = ("read error on fd", "write error on fd", "sending NOTIFICATION",
               "received NOTIFICATION", "hold timer expired")


class LogMark:
    """The end of a daemon's log files now; lines() reads what was written after it."""

    def __init__(self, daemon):
        self.offsets = {p: os.path.getsize(p) for p in daemon.logs()}

    def lines(self, neighbor):
        """The lines about `neighbor` (skua writes "BGP: <address>: ...") since the mark."""
        tag = " BGP: %s: " % neighbor
        out = []
        for path, offset in self.offsets.items():
            with open(path, "rb") as f:
                f.seek(offset)
                text = f.read().decode(errors="replace")
            out += [line for line in text.splitlines() if tag in line]
        return out

    def first_down(self, neighbor):
        """The first line since the mark saying why the session with `neighbor` ended, or
        None when there is none yet."""
        for line in self.lines(neighbor):
            if any(event in line for event in DOWN_EVENTS):
                return line
        return None
