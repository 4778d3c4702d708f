# SPDX-License-Identifier: ISC
"""Scenario topology files (topology.toml): routers, links, addresses.

    description = "one line"

    [routers.r1]            # name: 1-12 characters [a-z0-9_]
    kind = "skua"           # skua | frr | bird | gobgp | exabgp | speaker | host | stayrtr | rtrfake
    loopback = ["192.0.2.101/32"]   # optional, added to lo
    autostart = true        # optional; false = the test starts it with lab.start("r1")
    zebra = true            # frr only: run zebra next to bgpd (default true, see doc/lab.md)
    strace = true           # skua only: bgpd under strace (a list adds strace arguments)
    forwarding = true       # optional: the namespace forwards IPv4 and IPv6 (a transit router)
    routes = ["203.0.113.0/24 via 198.51.100.1"]   # optional static routes, documentation only

    [[links]]               # two members: a veth pair; more: a bridge in its own namespace
    r1 = ["192.0.2.1/30", "2001:db8:0:1::1/64"]
    r2 = ["192.0.2.2/30", "2001:db8:0:1::2/64"]

Only documentation space is allowed (RFC 5737 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
RFC 3849 2001:db8::/32), and no route is ever added towards anything else: a lab can never
leak into a real network even when run on a routed host.
"""

import ipaddress
import os
import re
import tomllib

KINDS = ("skua", "frr", "bird", "gobgp", "exabgp", "speaker", "host", "stayrtr", "rtrfake")
ALLOWED_NETS = [ipaddress.ip_network(n) for n in
                ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32")]
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,11}$")


class TopologyError(Exception):
    pass


def check_documentation_address(text, where):
    """Parse ADDR/LEN and insist it lies in documentation space."""
    try:
        iface = ipaddress.ip_interface(text)
    except ValueError as e:
        raise TopologyError("%s: %r is not an address/prefix-length (%s)" % (where, text, e))
    if not any(iface.network.version == n.version and iface.network.subnet_of(n)
               for n in ALLOWED_NETS):
        raise TopologyError("%s: %s is outside the documentation ranges; the lab only uses "
                            "192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 and 2001:db8::/32"
                            % (where, text))
    return iface


def parse_route(text, where):
    """"PREFIX via GATEWAY", both in documentation space: the lab never routes elsewhere."""
    parts = text.split()
    if len(parts) != 3 or parts[1] != "via":
        raise TopologyError("%s: route %r: write it as \"PREFIX via GATEWAY\"" % (where, text))
    dest = check_documentation_address(parts[0], where).network
    gateway = check_documentation_address(parts[2], where).ip
    if dest.version != gateway.version:
        raise TopologyError("%s: route %r mixes IPv4 and IPv6" % (where, text))
    return dest, gateway


class Router:
    def __init__(self, name, spec, scenario_dir):
        self.name = name
        self.kind = spec.get("kind")
        self.options = dict(spec)
        self.loopback = [check_documentation_address(a, "router %s loopback" % name)
                         for a in spec.get("loopback", [])]
        self.forwarding = bool(spec.get("forwarding", False))
        self.routes = [parse_route(r, "router %s" % name) for r in spec.get("routes", [])]
        self.autostart = bool(spec.get("autostart", True))
        self.config_dir = os.path.join(scenario_dir, name)
        self.interfaces = []  # (ifname, [ip_interface]) filled in by Topology

    def addresses(self, version=None):
        out = []
        for _, addrs in self.interfaces:
            out += [a for a in addrs if version is None or a.version == version]
        out += [a for a in self.loopback if version is None or a.version == version]
        return out


class Link:
    def __init__(self, index, members, name):
        self.index = index
        self.members = members  # {router name: [ip_interface]}
        self.name = name
        self.ifnames = {}  # {router name: interface name inside that router}

    @property
    def is_lan(self):
        return len(self.members) > 2


class Topology:
    def __init__(self, scenario_dir, filename="topology.toml"):
        self.dir = os.path.abspath(scenario_dir)
        self.path = os.path.join(self.dir, filename)
        try:
            with open(self.path, "rb") as f:
                data = tomllib.load(f)
        except FileNotFoundError:
            raise TopologyError("no topology file %s" % self.path)
        except tomllib.TOMLDecodeError as e:
            raise TopologyError("%s: %s" % (self.path, e))
        self.name = os.path.basename(self.dir)
        self.description = data.get("description", "")
        self.routers = {}
        for name, spec in data.get("routers", {}).items():
            if not _NAME_RE.match(name):
                raise TopologyError("%s: router name %r must be 1-12 characters [a-z0-9_] "
                                    "starting with a letter (it becomes part of interface "
                                    "names)" % (self.path, name))
            if spec.get("kind") not in KINDS:
                raise TopologyError("%s: router %s: kind must be one of %s"
                                    % (self.path, name, ", ".join(KINDS)))
            self.routers[name] = Router(name, spec, self.dir)
        if not self.routers:
            raise TopologyError("%s: no [routers.NAME] table" % self.path)
        self.links = []
        for i, spec in enumerate(data.get("links", [])):
            spec = dict(spec)
            lname = spec.pop("name", "lan%d" % i)
            if not _NAME_RE.match(lname) or lname in self.routers:
                raise TopologyError("%s: link name %r: 1-12 characters [a-z0-9_], and not a "
                                    "router's name (a LAN gets a namespace of that name)"
                                    % (self.path, lname))
            members = {}
            for rname, addrs in spec.items():
                if rname not in self.routers:
                    raise TopologyError("%s: link %d names unknown router %r"
                                        % (self.path, i, rname))
                if isinstance(addrs, str):
                    addrs = [addrs]
                members[rname] = [check_documentation_address(
                    a, "%s link %d router %s" % (self.path, i, rname)) for a in addrs]
            if len(members) < 2:
                raise TopologyError("%s: link %d needs at least two routers" % (self.path, i))
            link = Link(i, members, lname)
            self.links.append(link)
            for rname, addrs in members.items():
                if link.is_lan:
                    ifname = lname
                else:
                    (other,) = [m for m in members if m != rname]
                    ifname = "to-" + other
                    if any(n == ifname for n, _ in self.routers[rname].interfaces):
                        ifname = "%s-%d" % (ifname[:12], i)
                link.ifnames[rname] = ifname
                self.routers[rname].interfaces.append((ifname, addrs))

    def peer_address(self, router, peer, version=4):
        """The address `peer` uses on the link it shares with `router`."""
        for link in self.links:
            if router in link.members and peer in link.members:
                for a in link.members[peer]:
                    if a.version == version:
                        return str(a.ip)
        raise TopologyError("%s and %s share no IPv%d link" % (router, peer, version))
