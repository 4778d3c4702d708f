# SPDX-License-Identifier: ISC
"""What an RTR cache serves, as JSON: one Reset Query, every PDU up to End of Data.

    /usr/bin/python3 rtr_dump.py HOST PORT [VERSION]

rtrclient (rtr-tools 0.8) speaks versions 0 and 1 only; this one also asks for version 2 and
so sees StayRTR's ASPA records.  A version the cache refuses (Error Report "Unsupported
Protocol Version") is retried one lower, as RFC 8210 7 says a router does.  Prints
{"version": V, "session": S, "serial": N, "vrps": [[prefix, maxlen, asn], ...],
 "aspas": [[afi_flags, customer, [providers]], ...], "intervals": [refresh, retry, expire]}.
Everything is bounded by a 20 s timeout.
"""

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtr_pdu  # noqa: E402

TIMEOUT = 20


def dump(host, port, version=2):
    deadline = time.monotonic() + TIMEOUT
    while True:
        out = _one(host, port, version, deadline)
        if out.get("refused_version") and version > 0:
            version -= 1
            continue
        return out


def _one(host, port, version, deadline):
    s = socket.create_connection((host, port), timeout=TIMEOUT)
    try:
        s.sendall(rtr_pdu.reset_query(version))
        buf = b""
        out = {"version": version, "vrps": [], "aspas": []}
        while time.monotonic() < deadline:
            s.settimeout(max(0.1, deadline - time.monotonic()))
            data = s.recv(65536)
            if not data:
                raise RuntimeError("%s port %d closed the connection before End of Data"
                                   % (host, port))
            pdus, buf = rtr_pdu.parse_all(buf + data)
            for p in pdus:
                t = p["type"]
                if t == "error-report":
                    if p["code"] == rtr_pdu.UNSUPPORTED_VERSION:
                        return {"refused_version": version}
                    raise RuntimeError("%s port %d sent an Error Report: %s %r"
                                       % (host, port, p["code_name"], p.get("text")))
                if t in ("ipv4-prefix", "ipv6-prefix") and p["announce"]:
                    out["vrps"].append([p["prefix"], p["max_length"], p["asn"]])
                elif t == "aspa" and p["announce"]:
                    out["aspas"].append([p["afi_flags"], p["customer"], p["providers"]])
                elif t == "cache-response":
                    out["session"] = p["session"]
                    out["version"] = p["version"]
                elif t == "end-of-data":
                    out["serial"] = p["serial"]
                    out["intervals"] = [p.get("refresh"), p.get("retry"), p.get("expire")]
                    return out
        raise RuntimeError("%s port %d: no End of Data within %d s" % (host, port, TIMEOUT))
    finally:
        s.close()


if __name__ == "__main__":
    v = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    print(json.dumps(dump(sys.argv[1], int(sys.argv[2]), v)))
