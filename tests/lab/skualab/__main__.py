# SPDX-License-Identifier: ISC
"""Command line: bring a scenario up by hand, look at it, tear it down.

    sudo PYTHONPATH=tests/lab /usr/bin/python3 -m skualab up tests/lab/scenarios/demo \\
        --show 'show ip bgp summary' --hold
    sudo PYTHONPATH=tests/lab /usr/bin/python3 -m skualab reap

`up` starts every router, waits (bounded) until each BGP speaker reports all its sessions
Established, runs the --show commands on every skua/FRR router, then either tears everything
down or, with --hold, waits for Enter or Ctrl-C first.  Exit status 0 when every session came
up, 1 otherwise.
"""

import argparse
import sys
import time

from . import cleanup
from .daemons import DaemonError, VtyshDaemon
from .lab import Lab


def all_established(lab):
    """Names of routers whose peers are not all Established (those we can ask)."""
    pending = {}
    for name in lab.started:
        d = lab[name]
        try:
            peers = d.peers()
        except NotImplementedError:
            continue
        except Exception as e:  # not answering yet
            pending[name] = str(e).splitlines()[0]
            continue
        down = sorted(a for a, p in peers.items() if p.get("state") != "Established")
        if down or not peers:
            pending[name] = "not Established: %s" % (", ".join(down) or "no peers yet")
    return pending


def best_paths(lab):
    """Every skua/FRR router's best paths, to see when the tables stop changing."""
    snap = {}
    for name in sorted(lab.started):
        d = lab[name]
        if isinstance(d, VtyshDaemon):
            for afi in ("ipv4", "ipv6"):
                try:
                    routes = d.routes(afi)
                except Exception as e:
                    snap[name, afi] = str(e)
                    continue
                snap[name, afi] = sorted((p, x["path"], tuple(x["nexthops"]))
                                         for p, paths in routes.items()
                                         for x in paths if x["best"])
    return snap


def cmd_up(args):
    lab = Lab(args.scenario, log=lambda m: print("skualab: " + m, flush=True))
    why = lab.missing()
    if why:
        print("skualab: cannot run %s: %s" % (lab.topology.name, why), file=sys.stderr)
        return 2
    status = 0
    try:
        lab.start()
        print("skualab: %s: %s" % (lab.topology.name, lab.topology.description))
        deadline = time.monotonic() + args.wait
        pending = all_established(lab)
        while pending and time.monotonic() < deadline:
            lab.check_alive()
            time.sleep(1)
            pending = all_established(lab)
        if pending:
            status = 1
            for name, why in sorted(pending.items()):
                print("skualab: after %ds %s: %s" % (args.wait, name, why))
        else:
            print("skualab: every session is Established")
            # Let the best paths settle (no change over two polls) before showing them.
            settle_end = time.monotonic() + 15
            prev, cur = None, best_paths(lab)
            while cur != prev and time.monotonic() < settle_end:
                time.sleep(1.5)
                prev, cur = cur, best_paths(lab)
        for name in lab.topology.routers:
            d = lab[name]
            if not isinstance(d, VtyshDaemon):
                continue
            for c in args.show:
                print("\n=== %s (%s): %s ===" % (name, d.kind, c), flush=True)
                try:
                    print(d.vtysh(c).rstrip())
                except Exception as e:
                    status = 1
                    print("(failed: %s)" % e)
        if args.hold:
            print("\nskualab: the lab stays up; in another shell, for example:")
            for name in lab.topology.routers:
                d = lab[name]
                if isinstance(d, VtyshDaemon):
                    print("  " + " ".join(d.vtysh_argv(["show bgp summary"])))
                    break
            print("  ip netns exec %s bash" % lab.namespaces[next(iter(lab.namespaces))].name)
            print("skualab: press Enter (or Ctrl-C) to tear it down")
            try:
                sys.stdin.readline()
            except KeyboardInterrupt:
                pass
    except DaemonError as e:
        print("skualab: %s" % e, file=sys.stderr)
        print(lab.log_tails(), file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        status = 130
    finally:
        lab.teardown()
        print("skualab: torn down; logs in %s" % lab.dir)
    return status


def main():
    ap = argparse.ArgumentParser(prog="python3 -m skualab",
                                 description="skua lab: network namespace scenarios")
    sub = ap.add_subparsers(dest="cmd", required=True)
    up = sub.add_parser("up", help="start a scenario, show, tear down")
    up.add_argument("scenario", help="scenario directory (holding topology.toml)")
    up.add_argument("--show", action="append", default=[], metavar="CMD",
                    help="vtysh command to run on every skua/FRR router (repeatable)")
    up.add_argument("--wait", type=int, default=90,
                    help="seconds to wait for the sessions (default 90)")
    up.add_argument("--hold", action="store_true", help="keep the lab up until Enter")
    sub.add_parser("reap", help="remove namespaces left by runs that were killed")
    args = ap.parse_args()
    cleanup.install_handlers()
    if args.cmd == "reap":
        cleanup.reap_stale(lambda m: print("skualab: " + m), min_age=0)  # by hand: all
        return 0
    return cmd_up(args)


if __name__ == "__main__":
    sys.exit(main())
