# SPDX-License-Identifier: ISC
"""Starts the teardown scenario, prints what it created as one JSON line, then sleeps until
a signal arrives (test_teardown.py decides which)."""

import json
import os
import sys
import time

from skualab import Lab

def log(msg):
    # On stderr with a timestamp: test_teardown.py shows it when teardown takes too long.
    sys.stderr.write("%.3f holder: %s\n" % (time.monotonic(), msg))
    sys.stderr.flush()


lab = Lab(os.path.dirname(os.path.abspath(__file__)), log=log)
with lab:
    pids = [p.pid for d in lab.daemons.values() for p in d.procs]
    print(json.dumps({"namespaces": [n.name for n in lab.namespaces.values()], "pids": pids}),
          flush=True)
    try:
        time.sleep(600)
    finally:
        log("tearing down")
log("torn down")
sys.exit(0)
