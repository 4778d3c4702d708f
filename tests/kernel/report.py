#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Print the unpatched and the patched kernel's results side by side and check them:
   report.py UNPATCHED_RESULTS_DIR PATCHED_RESULTS_DIR
Exit 1 when a kernel did not behave as the patch claims: IPv4 unpatched, the forged
"fragmentation needed" lowers the path MTU and TCPMinTTLDrop does not move; IPv4 patched and
IPv6 on both, the MTU stays and every forged error is counted.  On both kernels and families
the control (the same error from the peer on the link, at TTL 255) must be obeyed.  The lab's
outcome (when it ran) is printed and checked too, and so is the kernel selftest, which must
fail on the unpatched kernel and pass on the patched one."""

import json
import os
import sys


def load(path):
    try:
        with open(os.path.join(path, "icmp.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        log = os.path.join(path, "icmp.log")
        sys.exit("report: no result in %s (%s): see %s and %s/console.log" % (path, e, log, path))


def row(r):
    b, a = r["before"]["mtu"], r["after"]["mtu"]
    return {"path MTU before (ss pmtu)": b["ss_pmtu"],
            "path MTU after (ss pmtu)": a["ss_pmtu"],
            "ip route get mtu after": a["route_mtu"] or "-",
            "TCPMinTTLDrop +": r["TCPMinTTLDrop"],
            "OutOfWindowIcmps +": r["OutOfWindowIcmps"],
            "socket error": r["socket_error"] or "-",
            "control from b: MTU %d ->" % r["control"]["mtu_sent"]:
            "pmtu %s, TCPMinTTLDrop +%d" % (r["control"]["ss_pmtu"], r["control"]["TCPMinTTLDrop"])}


def check(kind, r):
    forged = r["forged"]["mtu"] + r["forged"]["unreach"]
    before, after = r["before"]["mtu"]["ss_pmtu"], r["after"]["mtu"]["ss_pmtu"]
    if kind == "unpatched" and r["family"] == "IPv4":
        ok = after == r["forged_mtu"] and r["TCPMinTTLDrop"] == 0
        want = "MTU %d, TCPMinTTLDrop +0 (the gap)" % r["forged_mtu"]
    else:
        ok = after == before and r["TCPMinTTLDrop"] == forged and not r["socket_error"]
        want = "MTU unchanged, TCPMinTTLDrop +%d, no socket error" % forged
    control = r["control"]
    ok = ok and control["ss_pmtu"] == control["mtu_sent"] and control["TCPMinTTLDrop"] == 0
    return ok, want + "; the on-link control obeyed"


def main():
    runs = {"unpatched": load(sys.argv[1]), "patched": load(sys.argv[2])}
    failed = 0
    print("%-28s %-32s %-32s" % ("", "unpatched", "patched"))
    print("%-28s %-32s %-32s" % ("kernel", runs["unpatched"]["kernel"][:31],
                                 runs["patched"]["kernel"][:31]))
    for i, fam in enumerate(("IPv4", "IPv6")):
        rows = {k: row(runs[k]["results"][i]) for k in runs}
        r0 = runs["patched"]["results"][i]
        print("\n%s: %d forged \"%s\" (MTU %d) + %d \"port unreachable\", outer TTL 254, inner 255"
              % (fam, r0["forged"]["mtu"],
                 "fragmentation needed" if fam == "IPv4" else "packet too big",
                 r0["forged_mtu"], r0["forged"]["unreach"]))
        for label in rows["patched"]:
            print("  %-26s %-32s %-32s" % (label, rows["unpatched"][label],
                                           rows["patched"][label]))
        for kind in runs:
            ok, want = check(kind, runs[kind]["results"][i])
            print("  %-9s %s: expected %s" % (kind, "ok" if ok else "FAIL", want))
            failed += not ok
    # The selftest (kernel/patches/0002) must fail without the fix and pass with it.
    print()
    for kind, path, want in (("unpatched", sys.argv[1], "1"), ("patched", sys.argv[2], "0")):
        try:
            with open(os.path.join(path, "selftest.rc")) as f:
                rc = f.read().strip()
            with open(os.path.join(path, "selftest.log")) as f:
                first = [line.strip() for line in f if line.startswith(("ok", "not ok"))]
        except OSError:
            rc, first = "missing", []
        ok = rc == want
        print("selftest tcp_minttl_icmp, %-9s rc %s (%s): %s" % (kind, rc, "ok" if ok else "FAIL",
                                                                  "; ".join(first)))
        failed += not ok
    lab_rc = os.path.join(sys.argv[2], "lab.rc")
    if os.path.exists(lab_rc):
        with open(lab_rc) as f:
            rc = f.read().strip()
        with open(os.path.join(sys.argv[2], "lab.log")) as f:
            tail = [line.rstrip() for line in f if line.strip()][-1:]
        print("\ngtsm_attack lab on the patched kernel: rc %s: %s" % (rc, tail[0] if tail else ""))
        failed += rc != "0"
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
