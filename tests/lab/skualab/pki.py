# SPDX-License-Identifier: ISC
"""A throw-away PKI for RTR over TLS, made with the openssl command line in the lab directory.

make_pki(dir, server_ips) writes, as NAME.pem (certificate) and NAME.key (key):
  ca          the test CA (what the router's ca-file holds)
  server      signed by ca, subjectAltName DNS:localhost, DNS:rtr.example.net and the given
              addresses: what a correct cache presents
  wronghost   signed by ca, but only for DNS:other.example.net and 203.0.113.99: the router
              connecting by address or by rtr.example.net must refuse it
  expired     signed by ca, valid from 2020-01-01 to 2020-01-02
  otherca     the same names as server, signed by a second CA (otherca-ca) the router does
              not trust
  client      signed by ca, extendedKeyUsage clientAuth: the router's client certificate
Keys are EC P-256 (quick to make).  Every file is readable by the user skua's bgpd runs as.
"""

import os
import subprocess

from . import runuser

OPENSSL = "/usr/bin/openssl"


def _run(argv, cwd):
    p = subprocess.run([OPENSSL] + argv, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    if p.returncode:
        raise RuntimeError("openssl %s failed in %s:\n%s"
                           % (" ".join(argv), cwd, p.stdout.decode(errors="replace")))


def _key(d, name):
    _run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
          "-out", name + ".key"], d)


def _ca(d, name, cn):
    _key(d, name)
    _run(["req", "-x509", "-new", "-key", name + ".key", "-out", name + ".pem", "-days", "30",
          "-subj", "/CN=" + cn, "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign,cRLSign"], d)


def _leaf(d, name, ca, cn, san, usage="serverAuth", dates=None):
    _key(d, name)
    _run(["req", "-new", "-key", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + cn], d)
    ext = name + ".ext"
    with open(os.path.join(d, ext), "w") as f:
        f.write("basicConstraints=CA:FALSE\nextendedKeyUsage=%s\n" % usage)
        if san:
            f.write("subjectAltName=%s\n" % ",".join(san))
    if dates:
        # `openssl ca` is the CLI way to pick both dates; x509 -req only takes -days.
        _expired_by_ca(d, name, ca, ext, dates)
    else:
        _run(["x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
              "-CAcreateserial", "-out", name + ".pem", "-days", "30", "-extfile", ext], d)


def _expired_by_ca(d, name, ca, ext, dates):
    db = os.path.join(d, "ca-db")
    os.makedirs(db, exist_ok=True)
    open(os.path.join(db, "index.txt"), "w").close()
    with open(os.path.join(db, "serial"), "w") as f:
        f.write("1000\n")
    conf = os.path.join(db, "ca.cnf")
    with open(conf, "w") as f:
        f.write("[ca]\ndefault_ca=lab\n[lab]\ndatabase=%s/index.txt\nserial=%s/serial\n"
                "new_certs_dir=%s\ndefault_md=sha256\npolicy=any\nunique_subject=no\n"
                "[any]\ncommonName=supplied\n" % (db, db, db))
    _run(["ca", "-batch", "-config", conf, "-cert", ca + ".pem", "-keyfile", ca + ".key",
          "-in", name + ".csr", "-out", name + ".pem", "-extfile", ext, "-notext",
          "-startdate", dates[0], "-enddate", dates[1]], d)


def make_pki(d, server_ips=()):
    os.makedirs(d, mode=0o755, exist_ok=True)
    names = ["DNS:localhost", "DNS:rtr.example.net"] + ["IP:" + ip for ip in server_ips]
    _ca(d, "ca", "skua lab RTR CA")
    _ca(d, "otherca-ca", "another CA")
    _leaf(d, "server", "ca", "rtr.example.net", names)
    _leaf(d, "wronghost", "ca", "other.example.net",
          ["DNS:other.example.net", "IP:203.0.113.99"])
    _leaf(d, "expired", "ca", "rtr.example.net", names, dates=("20200101000000Z",
                                                              "20200102000000Z"))
    _leaf(d, "otherca", "otherca-ca", "rtr.example.net", names)
    _leaf(d, "client", "ca", "skua lab router", [], usage="clientAuth")
    for f in os.listdir(d):
        p = os.path.join(d, f)
        if os.path.isfile(p):
            os.chmod(p, 0o644 if f.endswith(".pem") else 0o600)
            runuser.give_to_run_user(p)
    return d


def verify(d, name, ca="ca"):
    """openssl verify's one-line verdict on NAME.pem against CA.pem (for the tests' own
    check that each certificate is broken the way it is meant to be)."""
    p = subprocess.run([OPENSSL, "verify", "-CAfile", ca + ".pem", name + ".pem"], cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    return p.returncode, p.stdout.decode(errors="replace")
