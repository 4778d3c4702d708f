# SPDX-License-Identifier: ISC
"""RTR transports against StayRTR (issue 12, "Must show" 1), one skua per transport:

- dtcp, plain TCP: synchronised; `show rpki prefix-table json` holds exactly the cache's VRPs,
  and rtrclient (RTRlib) run on the same cache from the same namespace agrees;
- dtls, TLS with a CA and certificates the test makes (skualab/pki.py): an expired server
  certificate, one from another CA and one for another host name never get an RTR query
  through (StayRTR's logs) and `show rpki cache-server [json]` (skua's last error of each
  cache) and `show rpki cache-connection` (FRR's lines, then why each failed cache is not
  connected) say why, with OpenSSL's words, as does the log; the good certificate (with a client certificate offered)
  synchronises;
- dcert and dnocert, TLS to a scripted cache that requires a client certificate from the
  test CA: dcert's (`client-cert`, `client-key`) is presented and it synchronises; dnocert,
  without one, is refused by the cache and synchronises nothing;
- dmd5, TCP-MD5 to a scripted cache whose listener holds the key for dmd5's and dmd5bad's
  addresses: dmd5 synchronises (the listener answers signed SYNs only); dmd5bad's wrong key
  never connects, its SYNs counted in the cache's TCPMD5Failure.

FRR 8.4 has neither TLS nor TCP-MD5 for RTR: with SKUALAB_STANDIN=frr only dtcp runs.
"""

import json
import os
import time

import pytest

from skualab import pki, probes, rpki_show, rtrclient
from skualab.daemons import FrrBgpd

CONVERGE = 30
VRPS = [("198.51.100.0/24", 24, 64500), ("198.51.100.0/22", 24, 64501),
        ("203.0.113.0/24", 28, 0), ("2001:db8:100::/40", 48, 64500)]
MD5_VRPS = [("192.0.2.128/25", 25, 64510)]
MD5_KEY = "lab-md5-key"
TLSC_VRPS = [("198.51.100.128/25", 25, 64520)]
# preference: (StayRTR listener, what OpenSSL says)
TLS_FAILURES = {1: ("expired", "certificate has expired"),
                2: ("otherca", "unable to get local issuer certificate"),
                3: ("wronghost", "IP address mismatch")}


def standin(lab):
    return isinstance(lab["dtcp"], FrrBgpd)


@pytest.fixture(scope="module")
def started(lab):
    pki.make_pki(os.path.join(lab.dir, "pki"), server_ips=["192.0.2.10", "192.0.2.30"])
    lab.start_router("cache")
    lab["md5"].run_script({
        "listen": "192.0.2.20", "port": 8282,
        "md5": [{"peer": "192.0.2.3", "key": MD5_KEY}, {"peer": "192.0.2.4", "key": MD5_KEY}],
        "sessions": [[{"serve": {"version": 1, "serial": 1, "vrps": MD5_VRPS}}]]})
    d = os.path.join(lab.dir, "pki")
    lab["tlsc"].run_script({
        "listen": "192.0.2.30", "port": 8282,
        "tls": {"cert": os.path.join(d, "server.pem"), "key": os.path.join(d, "server.key"),
                "client_ca": os.path.join(d, "ca.pem")},
        "sessions": [[{"serve": {"version": 1, "serial": 1, "vrps": TLSC_VRPS}}]]})
    lab.start_router("dtcp")
    if not standin(lab):
        for r in ("dtls", "dmd5", "dmd5bad", "dcert", "dnocert"):
            lab.start_router(r)
    return lab


def skua_only(lab):
    if standin(lab):
        pytest.skip("FRR 8.4 (standing in) has no RTR over TLS or TCP-MD5")


def wait_table(lab, router, vrps):
    want = rpki_show.normal_vrps(vrps)
    return lab.expect("%s holds the cache's VRPs" % router,
                      lambda: rpki_show.prefix_table(lab[router]),
                      lambda got: None if got == want else "designed %s" % want,
                      timeout=CONVERGE, interval=0.5)


def connections(lab, router):
    return {c["preference"]: c for c in rpki_show.cache_connection(lab[router])["connections"]}


@pytest.mark.timeout(60)
def test_certificates_are_broken_as_designed(lab, started):
    d = os.path.join(lab.dir, "pki")
    assert pki.verify(d, "server")[0] == 0
    assert pki.verify(d, "client")[0] == 0
    assert "expired" in pki.verify(d, "expired")[1]
    assert "unable to get local issuer" in pki.verify(d, "otherca")[1]
    assert pki.verify(d, "otherca", ca="otherca-ca")[0] == 0
    assert pki.verify(d, "wronghost")[0] == 0  # valid, but for another name


@pytest.mark.timeout(60)
def test_tcp_synchronised_and_rtrclient_agrees(lab, started):
    got = wait_table(lab, "dtcp", VRPS)
    assert rtrclient.export(lab["dtcp"].netns, "192.0.2.10", 8282) == got
    conn = connections(lab, "dtcp")
    assert conn[1]["state"] == "connected", conn


@pytest.mark.timeout(60)
def test_tls_good_certificate_synchronises(lab, started):
    skua_only(lab)
    wait_table(lab, "dtls", VRPS)
    conn = connections(lab, "dtls")
    assert conn[4]["state"] == "connected", conn
    assert conn[4].get("mode") == "tls", conn
    # What the broken listeners must never log, this one does.
    assert "Received PDU" in stayrtr_log(lab, "tls")


def stayrtr_log(lab, listener):
    with open(os.path.join(lab.dir, "cache", "stayrtr-%s.log" % listener)) as f:
        return f.read()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pref", sorted(TLS_FAILURES))
def test_tls_broken_certificate_never_connects_and_says_why(lab, started, pref):
    skua_only(lab)
    listener, reason = TLS_FAILURES[pref]
    wait_table(lab, "dtls", VRPS)  # by then every more preferred cache has been tried

    def said(_):
        text = lab["dtls"].vtysh("show rpki cache-server")
        doc = json.dumps(rpki_show.cache_servers(lab["dtls"])[pref])
        conn = lab["dtls"].vtysh("show rpki cache-connection")
        missing = [w for w, t in (("cache-server", text), ("cache-server json", doc),
                                  ("cache-connection", conn)) if reason not in t]
        return ("%s do not say %r:\n%s\n%s\n%s"
                % (", ".join(missing), reason, text, doc, conn)) if missing else None
    lab.expect("dtls says why preference %d failed" % pref, lambda: None, said, timeout=10)
    assert pref not in connections(lab, "dtls") or (
        connections(lab, "dtls")[pref]["state"] != "connected")
    with open(lab["dtls"].logs()[0]) as f:
        assert reason in f.read(), "bgpd's log does not say %r" % reason
    assert "Received PDU" not in stayrtr_log(lab, listener), (
        "an RTR query got through the %s certificate" % listener)


@pytest.mark.timeout(60)
def test_md5_key_is_used(lab, started):
    skua_only(lab)
    wait_table(lab, "dmd5", MD5_VRPS)
    peers = [c["peer"] for c in lab["md5"].record()["connections"]]
    assert "192.0.2.3" in peers and "192.0.2.4" not in peers, peers


@pytest.mark.timeout(60)
def test_md5_wrong_key_never_connects(lab, started):
    skua_only(lab)
    before = probes.tcpext(lab["md5"].netns)
    time.sleep(3)  # dmd5bad keeps trying: its SYNs fail the digest
    after = probes.tcpext(lab["md5"].netns)
    failures = after.get("TCPMD5Failure", 0)
    assert failures > 0, "no SYN with a wrong digest seen: %s" % probes.counter_delta(before,
                                                                                      after)
    peers = [c["peer"] for c in lab["md5"].record()["connections"]]
    assert "192.0.2.4" not in peers, peers
    assert rpki_show.cache_connection(lab["dmd5bad"])["connections"] == []
    assert rpki_show.cache_servers(lab["dmd5bad"])[1]["state"] != "established"
    try:
        table = rpki_show.prefix_table(lab["dmd5bad"])
    except Exception:  # noqa: B902 - skua and FRR answer an error when nothing is connected
        table = []
    assert table == []


@pytest.mark.timeout(60)
def test_tls_client_certificate_presented(lab, started):
    skua_only(lab)
    wait_table(lab, "dcert", TLSC_VRPS)
    conns = [c for c in lab["tlsc"].record()["connections"] if c["peer"] == "192.0.2.5"]
    assert conns and conns[-1].get("client_cert") == "skua lab router", conns


@pytest.mark.timeout(60)
def test_tls_without_client_certificate_refused(lab, started):
    skua_only(lab)
    lab.expect("the cache refused dnocert's handshake",
               lambda: [c for c in lab["tlsc"].record()["connections"]
                        if c["peer"] == "192.0.2.6"],
               lambda got: None if got and all("tls_error" in c for c in got)
               else "connections: %s" % got, timeout=20)
    assert rpki_show.cache_servers(lab["dnocert"])[1]["state"] != "established"
