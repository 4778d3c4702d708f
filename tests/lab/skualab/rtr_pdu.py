# SPDX-License-Identifier: ISC
"""RTR PDUs (RFC 6810 version 0, RFC 8210 version 1, draft-ietf-sidrops-8210bis version 2 as
StayRTR 0.5.1 sends it), built and parsed for the lab's fake cache and its small client.

Builders return bytes and take every field, so a test can build a PDU that is wrong on
purpose (a length that lies, a version the session did not negotiate).  parse() never reads
past its input: it returns (pdu dict, bytes used) or (None, 0) while a PDU is incomplete.
"""

import ipaddress
import struct

SERIAL_NOTIFY, SERIAL_QUERY, RESET_QUERY, CACHE_RESPONSE = 0, 1, 2, 3
IPV4_PREFIX, IPV6_PREFIX, END_OF_DATA, CACHE_RESET = 4, 6, 7, 8
ROUTER_KEY, ERROR_REPORT, ASPA = 9, 10, 11

TYPE_NAMES = {SERIAL_NOTIFY: "serial-notify", SERIAL_QUERY: "serial-query",
              RESET_QUERY: "reset-query", CACHE_RESPONSE: "cache-response",
              IPV4_PREFIX: "ipv4-prefix", IPV6_PREFIX: "ipv6-prefix",
              END_OF_DATA: "end-of-data", CACHE_RESET: "cache-reset",
              ROUTER_KEY: "router-key", ERROR_REPORT: "error-report", ASPA: "aspa"}

# Error Report codes (RFC 8210 12).
CORRUPT_DATA = 0
INTERNAL_ERROR = 1
NO_DATA_AVAILABLE = 2
INVALID_REQUEST = 3
UNSUPPORTED_VERSION = 4
UNSUPPORTED_PDU_TYPE = 5
WITHDRAWAL_OF_UNKNOWN = 6
DUPLICATE_ANNOUNCEMENT = 7
UNEXPECTED_VERSION = 8

ERROR_NAMES = {CORRUPT_DATA: "Corrupt Data", INTERNAL_ERROR: "Internal Error",
               NO_DATA_AVAILABLE: "No Data Available", INVALID_REQUEST: "Invalid Request",
               UNSUPPORTED_VERSION: "Unsupported Protocol Version",
               UNSUPPORTED_PDU_TYPE: "Unsupported PDU Type",
               WITHDRAWAL_OF_UNKNOWN: "Withdrawal of Unknown Record",
               DUPLICATE_ANNOUNCEMENT: "Duplicate Announcement Received",
               UNEXPECTED_VERSION: "Unexpected Protocol Version"}

HEADER = struct.Struct("!BBHI")
MAX_PDU = 64 * 1024  # nothing legitimate is longer; a longer length field is corrupt


def header(version, ptype, field, length):
    return HEADER.pack(version, ptype, field, length)


def serial_notify(version, session, serial):
    return header(version, SERIAL_NOTIFY, session, 12) + struct.pack("!I", serial)


def cache_response(version, session):
    return header(version, CACHE_RESPONSE, session, 8)


def cache_reset(version):
    return header(version, CACHE_RESET, 0, 8)


def prefix(version, prefix_text, max_length, asn, announce=True):
    """An IPv4 or IPv6 Prefix PDU for `prefix_text` ("198.51.100.0/24")."""
    net = ipaddress.ip_network(prefix_text)
    flags = 1 if announce else 0
    body = struct.pack("!BBBB", flags, net.prefixlen, max_length, 0) + net.network_address.packed
    body += struct.pack("!I", asn)
    ptype = IPV4_PREFIX if net.version == 4 else IPV6_PREFIX
    return header(version, ptype, 0, 8 + len(body)) + body


def end_of_data(version, session, serial, refresh=3600, retry=600, expire=7200):
    if version == 0:
        return header(0, END_OF_DATA, session, 12) + struct.pack("!I", serial)
    return (header(version, END_OF_DATA, session, 24)
            + struct.pack("!IIII", serial, refresh, retry, expire))


def aspa(version, customer, providers, announce=True, afi_flags=3):
    """An ASPA PDU as StayRTR 0.5.1 writes it (8210bis-10): flags, AFI flags, provider count,
    customer ASN, provider ASNs."""
    body = struct.pack("!BBHI", 1 if announce else 0, afi_flags, len(providers), customer)
    body += b"".join(struct.pack("!I", p) for p in providers)
    return header(version, ASPA, 0, 8 + len(body)) + body


def error_report(version, code, pdu=b"", text=""):
    t = text.encode()
    body = struct.pack("!I", len(pdu)) + pdu + struct.pack("!I", len(t)) + t
    return header(version, ERROR_REPORT, code, 8 + len(body)) + body


def reset_query(version):
    return header(version, RESET_QUERY, 0, 8)


def serial_query(version, session, serial):
    return header(version, SERIAL_QUERY, session, 12) + struct.pack("!I", serial)


def parse(buf):
    """(pdu, used) for the first PDU in buf, (None, 0) if it is not all there yet.  A length
    below 8 or above MAX_PDU gives {"type": "corrupt"} consuming everything (the stream is
    lost)."""
    if len(buf) < 8:
        return None, 0
    version, ptype, field, length = HEADER.unpack_from(buf)
    if length < 8 or length > MAX_PDU:
        return {"version": version, "type_code": ptype, "type": "corrupt",
                "length": length}, len(buf)
    if len(buf) < length:
        return None, 0
    body = bytes(buf[8:length])
    pdu = {"version": version, "type_code": ptype,
           "type": TYPE_NAMES.get(ptype, "unknown-%d" % ptype), "length": length}
    try:
        _decode_body(pdu, ptype, field, body)
    except (struct.error, ValueError) as e:
        pdu["malformed"] = str(e)
    return pdu, length


def _decode_body(pdu, ptype, field, body):
    if ptype in (SERIAL_NOTIFY, SERIAL_QUERY, CACHE_RESPONSE, END_OF_DATA):
        pdu["session"] = field
    if ptype in (SERIAL_NOTIFY, SERIAL_QUERY):
        pdu["serial"] = struct.unpack("!I", body[:4])[0]
    elif ptype in (IPV4_PREFIX, IPV6_PREFIX):
        alen = 4 if ptype == IPV4_PREFIX else 16
        flags, plen, maxlen, _ = struct.unpack("!BBBB", body[:4])
        addr = ipaddress.ip_address(body[4:4 + alen])
        (asn,) = struct.unpack("!I", body[4 + alen:8 + alen])
        pdu.update(announce=bool(flags & 1), prefix="%s/%d" % (addr, plen), max_length=maxlen,
                   asn=asn)
    elif ptype == END_OF_DATA:
        pdu["serial"] = struct.unpack("!I", body[:4])[0]
        if len(body) >= 16:
            pdu["refresh"], pdu["retry"], pdu["expire"] = struct.unpack("!III", body[4:16])
    elif ptype == ERROR_REPORT:
        pdu["code"] = field
        pdu["code_name"] = ERROR_NAMES.get(field, "code %d" % field)
        (plen,) = struct.unpack("!I", body[:4])
        pdu["encapsulated"] = body[4:4 + plen].hex()
        (tlen,) = struct.unpack("!I", body[4 + plen:8 + plen])
        pdu["text"] = body[8 + plen:8 + plen + tlen].decode(errors="replace")
    elif ptype == ASPA:
        flags, afi, count, customer = struct.unpack("!BBHI", body[:8])
        pdu.update(announce=bool(flags & 1), afi_flags=afi, customer=customer,
                   providers=list(struct.unpack("!%dI" % count, body[8:8 + 4 * count])))


def parse_all(buf):
    """Every complete PDU in buf, and what is left over."""
    out = []
    while True:
        pdu, used = parse(buf)
        if pdu is None:
            return out, buf
        out.append(pdu)
        buf = buf[used:]
        if pdu["type"] == "corrupt":
            return out, b""
