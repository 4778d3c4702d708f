#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The route-reflector scenario's data and configs: two copies of one iBGP topology.

Copy A's reflector (ra) is skua, copy B's (rb) is FRR; everything else is FRR.  Each copy
is one LAN (its own bridge), addressed the same in both copies so the two can be compared
as they are.  All routers are AS 65000; the clients and the non-clients peer with the
reflector only (non-clients n1 and n2 deliberately not with each other: a non-client's
route must then reach the clients and never the other non-client).

    role        copy A  copy B  LAN address = router ID   announces
    reflector   ra      rb      192.0.2.1                 198.51.100.0/28
    client 1    ac1     bc1     192.0.2.11                198.51.100.16/28
    client 2    ac2     bc2     192.0.2.12                198.51.100.32/28
    client 3    ac3     bc3     192.0.2.13                198.51.100.48/28
    non-client  an1     bn1     192.0.2.21                198.51.100.64/28
    non-client  an2     bn2     192.0.2.22                198.51.100.80/28

Both reflectors set `bgp cluster-id 203.0.113.1` (not their router ID, so a CLUSTER_LIST
naming it shows the configured id is used).  Run this file to regenerate the configs after
editing; a test checks that the files on disk are what it renders.
"""

import os

AS = 65000
CLUSTER_ID = "203.0.113.1"
LAN_LEN = 26
# role: (LAN address, announced prefix)
ROLES = {
    "rr": ("192.0.2.1", "198.51.100.0/28"),
    "c1": ("192.0.2.11", "198.51.100.16/28"),
    "c2": ("192.0.2.12", "198.51.100.32/28"),
    "c3": ("192.0.2.13", "198.51.100.48/28"),
    "n1": ("192.0.2.21", "198.51.100.64/28"),
    "n2": ("192.0.2.22", "198.51.100.80/28"),
}
CLIENTS = ("c1", "c2", "c3")
NONCLIENTS = ("n1", "n2")
COPIES = {"a": "skua", "b": "frr"}  # copy: the reflector's kind


def router(copy, role):
    """The router playing `role` in `copy` (ra, ac1, bn2...)."""
    return "r" + copy if role == "rr" else copy + role


def addr(role):
    return ROLES[role][0]


def prefix(role):
    return ROLES[role][1]


def peers_of(role):
    """The roles `role` has sessions with."""
    return [r for r in ROLES if r != "rr"] if role == "rr" else ["rr"]


def expected_table(role):
    """{prefix: (next hop, originator, cluster list)} that `role` should end with, by RFC 4456:
    a client's route goes to everyone, a non-client's to the clients only; a route the
    reflector passes on keeps its next hop and gains ORIGINATOR_ID and CLUSTER_LIST."""
    table = {prefix(role): ("0.0.0.0", None, None)}
    if role == "rr":
        for src in peers_of("rr"):
            table[prefix(src)] = (addr(src), None, None)
        return table
    table[prefix("rr")] = (addr("rr"), None, None)
    for src in CLIENTS + NONCLIENTS:
        if src == role:
            continue
        if src in NONCLIENTS and role in NONCLIENTS:
            continue
        table[prefix(src)] = (addr(src), addr(src), [CLUSTER_ID])
    return table


def render(copy, role):
    """The bgpd.conf text of `role` in `copy`."""
    lines = ["hostname %s" % router(copy, role), "!", "router bgp %d" % AS,
             " bgp router-id %s" % addr(role)]
    # FRR and skua alike announce a network only with a kernel route for it, which the
    # lab does not add.
    lines.append(" no bgp network import-check")
    if role == "rr":
        lines.append(" bgp cluster-id %s" % CLUSTER_ID)
    lines.append(" no bgp default ipv4-unicast")
    for p in peers_of(role):
        lines += [" neighbor %s remote-as %d" % (addr(p), AS),
                  " neighbor %s description %s" % (addr(p), router(copy, p)),
                  " neighbor %s timers connect 5" % addr(p)]
    lines += [" !", " address-family ipv4 unicast", "  network %s" % prefix(role)]
    for p in peers_of(role):
        lines.append("  neighbor %s activate" % addr(p))
        if role == "rr" and p in CLIENTS:
            lines.append("  neighbor %s route-reflector-client" % addr(p))
    lines += [" exit-address-family", "exit", ""]
    return "\n".join(lines)


def config_path(copy, role):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), router(copy, role),
                        "bgpd.conf")


def main():
    for copy in COPIES:
        for role in ROLES:
            path = config_path(copy, role)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(render(copy, role))


if __name__ == "__main__":
    main()
