# SPDX-License-Identifier: ISC
"""skualab: pytest + network namespace lab for skua and the BGP speakers it must work with.

See tests/lab/README.md (running) and doc/lab.md (writing scenarios).
"""

from .daemons import DaemonError, SkuaBgpd, daemon_class
from .jsoncmp import json_cmp, run_and_expect
from .lab import Lab, base_logdir
from .topology import Topology, TopologyError

__all__ = ["Lab", "Topology", "TopologyError", "DaemonError", "SkuaBgpd", "daemon_class",
           "json_cmp", "run_and_expect", "base_logdir"]
