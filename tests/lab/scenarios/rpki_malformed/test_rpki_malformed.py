# SPDX-License-Identifier: ISC
"""Malformed PDUs from a cache (issue 12, "Must show" 4): a scripted cache (skualab/fake_rtr.py)
gives skua's RTR client (dut) a good data set, then one connection per broken case, then good
data again.  Each broken answer starts with a Cache Response and a "canary" VRP, then the
fault; so a client that applied part of a broken answer keeps the canary.

For every case: the client sends the Error Report RFC 8210 12 names (except for a PDU cut
short by the cache closing the connection, where there is nobody left to tell) and closes;
it reconnects (after the retry interval of the last End of Data: 1 s); bgpd answers vtysh
throughout; the prefix table is never anything but the good data (never the canary); at the
end a good answer adds one VRP and the table is exactly the good data plus it.
"""


import pytest

from skualab import rpki_show
from skualab import rtr_pdu as P
from skualab.daemons import FrrBgpd

GOOD = [("198.51.100.0/24", 24, 64500), ("2001:db8:100::/40", 48, 64500)]
CANARY = ("203.0.113.0/24", 24, 64666)
LATER = ("192.0.2.128/25", 25, 64501)
CANARY_PDU = ["prefix", CANARY[0], CANARY[1], CANARY[2], True]
V4 = ["prefix", "198.51.100.0/25", 25, 64501, True]

# (case, recipes after the Cache Response and the canary, Error Report code or None)
CASES = [
    ("truncated", [["truncate", V4, 12]], None),
    ("length-below-header", [["length", V4, 4]], P.CORRUPT_DATA),
    ("length-wrong-for-type", [["pad", V4, 4]], P.CORRUPT_DATA),
    ("length-huge", [["length", V4, 0x7FFFFFF0]], P.CORRUPT_DATA),
    ("unknown-type", [["header", 99, 0, 8]], P.UNSUPPORTED_PDU_TYPE),
    ("version-changed-mid-session", [["version", V4, 0]], P.UNEXPECTED_VERSION),
    ("withdraw-never-announced", [["prefix", "198.51.100.128/25", 25, 64502, False]],
     P.WITHDRAWAL_OF_UNKNOWN),
    ("duplicate-announcement", [CANARY_PDU], P.DUPLICATE_ANNOUNCEMENT),
]
# rtrlib 0.8 (FRR 8.4 standing in) departs from RFC 8210 here (seen in this lab): an unknown
# PDU type is "Corrupt Data"; a withdrawal of an unknown record closes the connection without
# an Error Report and the next attempt comes a minute later; a duplicate announcement is
# passed over in silence.
RTRLIB_CODES = {"unknown-type": P.CORRUPT_DATA, "withdraw-never-announced": None,
                "duplicate-announcement": None}


def script():
    good = [["cache_response"]] + [["prefix", p, m, a, True] for p, m, a in GOOD] + [
        ["end_of_data", 1, 3600, 1, 7200]]
    # The cache ends each session itself once the client has had time to apply it: the
    # client comes back after the retry interval for the next case.
    sessions = [[{"reply": good}, {"hold": 2}, {"close": True}]]
    for _, recipes, code in CASES:
        answer = [["cache_response"], CANARY_PDU] + recipes
        steps = [{"reply": answer}]
        # Wait for the Error Report and the close; a cut-short PDU: the cache closes.
        steps.append({"close": True} if code is None else {"hold": 10})
        sessions.append(steps)
    later = ["prefix", LATER[0], LATER[1], LATER[2], True]
    sessions.append([{"reply": {
        "reset-query": good[:-1] + [later, ["end_of_data", 2, 3600, 1, 7200]],
        "serial-query": [["cache_response"], later, ["end_of_data", 2, 3600, 1, 7200]]}},
        {"hold": 600}])
    return {"listen": "192.0.2.10", "port": 8282, "sessions": sessions}


@pytest.fixture(scope="module")
def run(lab):
    lab["cache"].run_script(script())
    lab.start_router("dut")
    seen_tables = []
    want_conns = len(CASES) + 2

    def progress():
        seen_tables.append(rpki_show.prefix_table(lab["dut"]))
        return lab["cache"].record()["connections"]
    bound = len(CASES) * 8 + 20
    if isinstance(lab["dut"], FrrBgpd):
        bound += 90  # rtrlib's long pause, see RTRLIB_CODES
    conns = lab.expect("the client went through every case", progress,
                       lambda c: None if len(c) >= want_conns else "%d connections" % len(c),
                       timeout=bound, interval=0.5)
    final = lab.expect("the good data plus the later VRP",
                       lambda: rpki_show.prefix_table(lab["dut"]),
                       lambda t: None if t == rpki_show.normal_vrps(GOOD + [LATER]) else
                       "differs", timeout=15, interval=0.5)
    return {"connections": conns, "tables": seen_tables, "final": final}


def error_reports(conn):
    return [p for p in conn["received"] if p["type"] == "error-report"]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("index,case", [(i, c[0]) for i, c in enumerate(CASES)])
def test_error_report_and_reconnect(lab, run, index, case):
    _, _, code = CASES[index]
    conn = run["connections"][index + 1]
    reports = error_reports(conn)
    if isinstance(lab["dut"], FrrBgpd):
        code = RTRLIB_CODES.get(case, code)
    if code is None:
        assert not reports and conn["closed_by"] in ("cache", "router"), conn
    else:
        assert [r["code"] for r in reports] == [code], (
            "%s: Error Reports %s, want one with code %d (%s); the client sent %s"
            % (case, [(r["code"], r["code_name"]) for r in reports], code,
               P.ERROR_NAMES[code], conn["received"]))
        assert conn["closed_by"] == "router", "%s: the client kept the connection" % case
    nxt = run["connections"][index + 2]
    assert nxt["received"] and nxt["received"][0]["type"] in ("reset-query", "serial-query")


@pytest.mark.timeout(240)
def test_store_never_half_applied(lab, run):
    good = rpki_show.normal_vrps(GOOD)
    final = rpki_show.normal_vrps(GOOD + [LATER])
    bad = [t for t in run["tables"] if t not in ([], good, final)]
    assert not bad, "prefix tables seen while the cases ran: %s" % bad[:3]
    assert run["final"] == final


@pytest.mark.timeout(30)
def test_bgpd_alive(lab, run):
    lab.check_alive()
    assert "Connected" in lab["dut"].vtysh("show rpki cache-connection")
