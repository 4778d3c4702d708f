# SPDX-License-Identifier: ISC
"""RTR caches for the lab: StayRTR (kind "stayrtr") serving a VRP/ASPA file the test writes,
and the scripted fake cache (kind "rtrfake", fake_rtr.py).

StayRTR's router directory holds `stayrtr.toml`:

    refresh = 1                  # -refresh: seconds between rereads of the VRP file
    protocol = 2                 # -protocol: highest RTR version served
    rtr_refresh = 5              # -rtr.refresh/-rtr.retry/-rtr.expire: the intervals its
    rtr_retry = 5                #   End of Data gives routers (optional)
    rtr_expire = 600
    [[listen]]                   # one StayRTR process per entry (one TLS listener each)
    name = "tcp"
    bind = "192.0.2.10:8282"     # plain TCP
    [[listen]]
    name = "tls"
    tls_bind = "192.0.2.10:8323" # TLS, with <lab dir>/pki/NAME.pem and NAME.key
    cert = "server"

Every process reads the same <rundir>/vrps.json: the scenario's own vrps.json when there is
one, else an empty set; set_vrps() rewrites it (StayRTR picks it up at its next refresh).
"""

import json
import os
import time
import tomllib

from .daemons import Daemon, DaemonError, wait_for
from .netns import CommandError

STAYRTR = "/usr/bin/stayrtr"


def vrp_file(vrps, aspas=(), generated=None):
    """StayRTR 0.5.1's JSON: vrps as (prefix, maxLength, asn), aspas as (customer, [providers],
    afi) with afi "ipv4", "ipv6" or "both" (ASPA PDUs carry an AFI flag in 8210bis-10)."""
    roas = [{"prefix": p, "maxLength": m, "asn": a, "ta": "lab"} for p, m, a in vrps]
    data = {"metadata": {"counts": len(roas), "generated": int(generated or time.time())},
            "roas": roas}
    if aspas:
        pa = {"ipv4": [], "ipv6": []}
        for customer, providers, afi in aspas:
            for fam in (("ipv4", "ipv6") if afi == "both" else (afi,)):
                pa[fam].append({"customer_asid": customer, "providers": list(providers)})
        data["provider_authorizations"] = pa
    return data


def write_json_atomically(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


class StayRtr(Daemon):
    kind = "stayrtr"
    config_name = "stayrtr.toml"
    binaries = (STAYRTR,)

    def __init__(self, *args):
        super().__init__(*args)
        self.vrps_path = os.path.join(self.rundir, "vrps.json")

    def settings(self):
        with open(self.install_config()) as f:
            return tomllib.loads(f.read())

    def set_vrps(self, vrps, aspas=()):
        """Serve these VRPs and ASPA records from the next refresh on."""
        write_json_atomically(self.vrps_path, vrp_file(vrps, aspas))

    def start(self, transform=None):
        conf = self.settings()
        if not os.path.exists(self.vrps_path):
            src = os.path.join(self.router.config_dir, "vrps.json")
            if os.path.exists(src):
                with open(src) as f:
                    write_json_atomically(self.vrps_path, json.load(f))
            else:
                self.set_vrps([])
        common = [STAYRTR, "-cache", self.vrps_path, "-checktime=false", "-metrics.addr", "",
                  "-refresh", str(conf.get("refresh", 1)),
                  "-protocol", str(conf.get("protocol", 2)), "-loglevel", "debug"]
        for key in ("rtr_refresh", "rtr_retry", "rtr_expire"):
            if key in conf:
                common += ["-" + key.replace("_", "."), str(conf[key])]
        pki = os.path.join(self.lab.dir, "pki")
        for lis in conf.get("listen", []):
            argv = list(common)
            if "tls_bind" in lis:
                # StayRTR always opens its plain listener too: park it on the namespace's
                # loopback, out of the way.
                argv += ["-bind", lis.get("bind", "127.0.0.1:0"), "-tls.bind", lis["tls_bind"],
                         "-tls.cert", os.path.join(pki, lis["cert"] + ".pem"),
                         "-tls.key", os.path.join(pki, lis["cert"] + ".key")]
                addr = lis["tls_bind"]
            else:
                argv += ["-bind", lis["bind"]]
                addr = lis["bind"]
            p = self.spawn("stayrtr-" + lis["name"], argv)
            host, port = addr.rsplit(":", 1)
            wait_for("%s stayrtr %s on %s" % (self.name, lis["name"], addr),
                     lambda: self.listening(host, int(port)), 15, [p])

    def listening(self, host, port):
        try:
            out = self.netns.exec(["ss", "-Hltn", "src", host, "sport", "= :%d" % port])
        except CommandError:
            return False
        return bool(out.strip())

    def stop_listener(self, name):
        """Stop one StayRTR process (a cache that goes away)."""
        for p in self.procs:
            if p.name.endswith("/stayrtr-" + name):
                p.stop()
                self.procs.remove(p)
                return
        raise DaemonError("%s: no StayRTR listener %r" % (self.name, name))


class FakeRtr(Daemon):
    """fake_rtr.py in the router's namespace; run_script() (re)starts it with a script."""

    kind = "rtrfake"
    binaries = ("/usr/bin/python3",)

    def start(self, transform=None):
        pass  # nothing until a test gives it a script

    def run_script(self, script):
        self.stop()
        self.procs = []
        self.record_path = os.path.join(self.rundir, "record.json")
        if os.path.exists(self.record_path):
            os.unlink(self.record_path)
        path = os.path.join(self.rundir, "script.json")
        script = dict(script, record=self.record_path)
        with open(path, "w") as f:
            json.dump(script, f, indent=1)
        me = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_rtr.py")
        p = self.spawn("fake_rtr", ["/usr/bin/python3", "-u", me, path])
        wait_for("%s fake RTR cache" % self.name, lambda: os.path.exists(self.record_path),
                 10, [p])

    def record(self):
        try:
            with open(self.record_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {"connections": []}
