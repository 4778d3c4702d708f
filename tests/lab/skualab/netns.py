# SPDX-License-Identifier: ISC
"""Network namespaces, veth pairs, bridges and addresses, through iproute2."""

import subprocess

from . import cleanup


class CommandError(Exception):
    pass


def run(argv, timeout=15, check=True, input=None):
    """Run a command with a bound; raise CommandError with its output when it fails."""
    try:
        p = subprocess.run(argv, input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise CommandError("%s: no answer within %ds" % (" ".join(argv), timeout))
    except FileNotFoundError:
        raise CommandError("%s: command not found" % argv[0])
    out = p.stdout.decode(errors="replace")
    if check and p.returncode != 0:
        raise CommandError("%s: exit %d: %s%s" % (" ".join(argv), p.returncode, out,
                                                   p.stderr.decode(errors="replace")))
    return out


class Netns:
    def __init__(self, name):
        self.name = name
        self.created = False

    def create(self):
        run(["ip", "netns", "add", self.name])
        self.created = True
        cleanup.register_netns(self.name)
        self.ip("link", "set", "lo", "up")
        # Quiet, deterministic IPv6: no DAD delay, no router solicitations.  No reverse-path
        # filter (a new namespace may inherit the host's): the GTSM tests forge source
        # addresses and decide themselves what reaches TCP.
        for key in ("net.ipv6.conf.all.accept_dad", "net.ipv6.conf.default.accept_dad",
                    "net.ipv6.conf.default.accept_ra", "net.ipv6.conf.all.accept_ra",
                    "net.ipv4.conf.all.rp_filter", "net.ipv4.conf.default.rp_filter"):
            self.exec(["sysctl", "-q", "-w", key + "=0"], check=False)

    def delete(self, log=None):
        if self.created:
            cleanup.delete_netns(self.name, log)
            self.created = False

    def set_forwarding(self):
        """A transit router: forward IPv4 and IPv6, and keep spoofed sources flowing (no
        reverse-path filter, see create()), as an attacker's upstream that does not filter."""
        for key in ("net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1"):
            self.exec(["sysctl", "-q", "-w", key])

    def ip(self, *args, check=True):
        return run(["ip", "-n", self.name] + list(args), check=check)

    def exec(self, argv, timeout=15, check=True, input=None):
        return run(["ip", "netns", "exec", self.name] + list(argv), timeout=timeout,
                   check=check, input=input)

    def exec_argv(self, argv):
        """argv that runs `argv` inside the namespace (ip netns exec execs, same pid)."""
        return ["ip", "netns", "exec", self.name] + list(argv)

    def add_address(self, ifname, iface):
        args = ["addr", "add", str(iface), "dev", ifname]
        if iface.version == 6:
            args.append("nodad")
        self.ip(*args)


def veth(ns_a, if_a, ns_b, if_b):
    """A veth pair created directly inside both namespaces (no name clash in the root ns)."""
    run(["ip", "link", "add", if_a, "netns", ns_a.name, "type", "veth", "peer", "name", if_b,
         "netns", ns_b.name])


def bridge(ns_sw, brname, members):
    """A bridge in namespace ns_sw with one veth per member: members = [(netns, ifname)]."""
    ns_sw.ip("link", "add", brname, "type", "bridge")
    ns_sw.ip("link", "set", brname, "type", "bridge", "stp_state", "0", "forward_delay", "0")
    for i, (ns, ifname) in enumerate(members):
        port = "p%d" % i
        veth(ns, ifname, ns_sw, port)
        ns_sw.ip("link", "set", port, "master", brname)
        ns_sw.ip("link", "set", port, "up")
    ns_sw.ip("link", "set", brname, "up")
