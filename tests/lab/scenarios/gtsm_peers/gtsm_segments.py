# SPDX-License-Identifier: ISC
"""Sorting the BGP segments a router sent in a capture (skualab.probes.Capture): those its
sockets sent, and the resets (RST) the kernel sends for it from its per-namespace control
socket at the default TTL (64), whatever the socket's IP_TTL / IPV6_UNICAST_HOPS said, for a
segment that matches no socket.

The ACK of the peer's FIN after the router closed first counts as a socket's segment: a
socket closed right after its FIN would leave that ACK to a TIME_WAIT mini-socket, which keeps
no TTL (it would leave at 64 and a GTSM peer would drop it and retransmit its FIN); skua keeps
the socket open until the peer's FIN (bgpd/session/bgp_closer.c), so the ACK must be at 255 too.
"""

from scapy.layers.inet import TCP

BGP_PORT = 179


def describe(p):
    return "%s.%d > %s.%d %s ttl %d" % (p.src, p[TCP].sport, p.dst, p[TCP].dport,
                                        str(p[TCP].flags), p.ttl if hasattr(p, "ttl")
                                        else p.hlim)


def payload_length(p):
    """TCP payload bytes, from the IP lengths (scapy would count link padding too)."""
    if hasattr(p, "ihl"):
        return p.len - 4 * p.ihl - 4 * p[TCP].dataofs
    return p.plen - 4 * p[TCP].dataofs


def sort_sent(packets, mine):
    """{"socket": [...], "rst": [...], "final_ack": [...]}: the BGP segments sent from the
    addresses in `mine`, in capture order. "final_ack" lists, among the socket's segments,
    the ACKs of the peer's FIN sent after our own FIN (to show they were captured)."""
    out = {"socket": [], "rst": [], "final_ack": []}
    fin_sent, fin_seen = set(), set()  # connections (local, lport, remote, rport)
    for p in packets:
        if not p.haslayer(TCP) or BGP_PORT not in (p[TCP].sport, p[TCP].dport):
            continue
        flags = str(p[TCP].flags)
        if p.src in mine:
            conn = (p.src, p[TCP].sport, p.dst, p[TCP].dport)
            if "R" in flags:
                out["rst"].append(p)
                continue
            out["socket"].append(p)
            if flags == "A" and not payload_length(p) and conn in fin_sent \
                    and conn in fin_seen:
                out["final_ack"].append(p)
            if "F" in flags:
                fin_sent.add(conn)
        elif p.dst in mine and "F" in flags:
            fin_seen.add((p.dst, p[TCP].dport, p.src, p[TCP].sport))
    return out
