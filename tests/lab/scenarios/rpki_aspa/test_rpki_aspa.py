# SPDX-License-Identifier: ISC
"""ASPA over RTR version 2 (issue 12, "Must build" 3 and the ASPA case of the lab): StayRTR
0.5.1 serves two ASPA records from its JSON ("provider_authorizations"); skua (dut) holds
them (`show rpki aspa-table json`, compared with what a version-2 client reads from the same
cache), judges the paths of two customers (`neighbor X local-role provider`: upstream
verification, draft-ietf-sidrops-aspa-verification) and `match aspa invalid` denies the
invalid ones.

    AS 64500 providers 65010 65020      AS 64501 providers 64999      64502: no record

FRR 8.4 has no ASPA: the scenario needs skua.
"""

import json

import pytest

from skualab import rpki_show
from skualab.daemons import FrrBgpd

SEE, POL = "192.0.2.11", "192.0.2.12"
ASPAS = {64500: [65010, 65020], 64501: [64999]}
# prefix: (AS path after the customer's AS, designed state)
CASES = {
    "198.51.100.0/26": ("64500", "valid"),         # 64500 -> customer: its provider
    "198.51.100.64/26": ("64501", "invalid"),      # 64501 -> customer: not its provider
    "198.51.100.128/26": ("64502", "unknown"),     # no record for 64502
    "198.51.100.192/26": ("64500 64501", "invalid"),  # 64501 -> 64500: not its provider
}


@pytest.fixture(scope="module")
def skua(lab):
    if isinstance(lab["dut"], FrrBgpd):
        pytest.skip("FRR 8.4 (standing in) has no ASPA")
    return lab["dut"]


@pytest.fixture(scope="module")
def fed(lab, skua):
    """The customers' routes, sent once dut holds the ASPA records."""
    test_aspa_table_is_the_caches(lab, skua)
    lab.start_router("inj")
    lab.wait_established("dut", [SEE, POL], timeout=60)
    return skua


@pytest.mark.timeout(60)
def test_cache_serves_the_records_over_version_2(lab):
    out = lab["dut"].netns.exec(["/usr/bin/python3", "-c", "import sys; sys.path.insert(0, %r)"
                                 "; import rtr_dump, json; print(json.dumps(rtr_dump.dump("
                                 "'192.0.2.10', 8282, 2)))" % rpki_show.__file__.rsplit("/", 1)[0]],
                                timeout=30)
    got = json.loads(out)
    assert got["version"] == 2
    assert {c: sorted(p) for _, c, p in got["aspas"]} == ASPAS


@pytest.mark.timeout(60)
def test_aspa_table_is_the_caches(lab, skua):
    def table():
        doc = skua.vtysh_json("show rpki aspa-table json")
        return {a["customerAsn"]: sorted(a["providers"]) for a in doc.get("aspas", [])}
    lab.expect("dut holds the cache's ASPA records", table,
               lambda got: None if got == ASPAS else "designed %s" % ASPAS, timeout=30)


def states(daemon):
    out = {}
    for prefix in CASES:
        doc = daemon.vtysh_json("show bgp ipv4 unicast %s json" % prefix)
        for p in doc.get("paths", []):
            peer = (p.get("peer") or {}).get("peerId")
            out.setdefault(prefix, {})[peer] = p.get("aspaValidationState")
    return out


@pytest.mark.timeout(60)
def test_upstream_verification_and_match_aspa_invalid(lab, fed):
    want = {}
    for prefix, (_, state) in CASES.items():
        want[prefix] = {SEE: state}
        if state != "invalid":
            want[prefix][POL] = state
    lab.expect("every path's ASPA state, invalid ones denied from pol", lambda: states(fed),
               lambda got: None if got == want else "designed %s" % want, timeout=15)
