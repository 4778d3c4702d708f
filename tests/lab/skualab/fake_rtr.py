# SPDX-License-Identifier: ISC
"""A scripted RTR cache for the lab: sends exactly the PDUs a test wrote (well-formed or not)
and records what the router sends back, Error Reports included.

    /usr/bin/python3 fake_rtr.py SCRIPT.json

SCRIPT.json:
  {"listen": "192.0.2.10", "port": 8282, "record": "/path/record.json",
   "md5": [{"peer": "192.0.2.1", "key": "secret"}, ...], (optional: TCP-MD5 keys on the
                                                            listener, one per router address)
   "tls": {"cert": PEM, "key": PEM, "client_ca": PEM},     (optional: RTR over TLS, a client
                                                            certificate signed by client_ca
                                                            required)
   "sessions": [[ACTION, ...], ...]}                       (one list per accepted connection;
                                                            the last one serves every later one)
ACTION:
  {"recv": "reset-query"}     wait (at most "timeout" s, default 30) for the next PDU and
                              record it; the type named is what the test expects, noted in the
                              record as "expected"
  {"send": "HEX"}             send these bytes (built with rtr_pdu.py)
  {"sleep": S}
  {"hold": S}                 keep reading and recording for S s, or until the router closes
  {"close": true}             close the connection
  {"serve": {"version": 1, "session": 7, "serial": 1, "vrps": [["198.51.100.0/24", 24, 64500]],
             "refresh": 3600, "retry": 600, "expire": 7200}}
                              act as a correct cache until the router closes (at most 600 s):
                              the whole set on a Reset Query, no change on a Serial Query
  {"reply": {"reset-query": [RECIPE, ...], "serial-query": [RECIPE, ...]}}
                              wait for the router's query (at most 30 s) and answer with the
                              PDUs of the list for its type, at the version it asked in
                              ({"reply": [RECIPE, ...]}: the same list for both)
RECIPE (a PDU, see build()): ["cache_response"], ["prefix", "198.51.100.0/24", 24, 64500,
  true (announce) | false (withdraw)], ["end_of_data", serial, refresh, retry, expire],
  ["header", type, field, length] (a bare header), ["raw", "HEX"], and mutations of another
  recipe: ["truncate", RECIPE, bytes kept], ["length", RECIPE, length field],
  ["version", RECIPE, version], ["type", RECIPE, type], ["pad", RECIPE, n] (n zero bytes
  more, the length field counting them)
When a list ends without a close, the connection is held as with "hold" for 600 s.

The record is rewritten after every event: {"connections": [{"peer": "192.0.2.1",
"received": [PDU, ...], "closed_by": "router"|"cache"|null}]}, PDUs as rtr_pdu.parse() gives;
with TLS also "client_cert" (the subject the router presented) or "tls_error" (the handshake
failed: nothing else happens on that connection).
Runs until SIGTERM.
"""

import json
import os
import select
import signal
import socket
import ssl
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtr_pdu  # noqa: E402

TCP_MD5SIG = 14  # linux/tcp.h
HOLD_MAX = 600


def md5sig(peer, key):
    """struct tcp_md5sig for one peer address (a full-length prefix)."""
    k = key.encode()
    if len(k) > 80:
        raise ValueError("TCP-MD5 key longer than 80 bytes")
    fam = socket.AF_INET6 if ":" in peer else socket.AF_INET
    if fam == socket.AF_INET:
        sa = struct.pack("=H", fam) + struct.pack("!H", 0) + socket.inet_pton(fam, peer)
    else:
        sa = (struct.pack("=H", fam) + struct.pack("!HI", 0, 0) + socket.inet_pton(fam, peer)
              + struct.pack("=I", 0))
    sa = sa.ljust(128, b"\0")  # struct sockaddr_storage
    return sa + struct.pack("=BBHI", 0, 0, len(k), 0) + k.ljust(80, b"\0")


class Recorder:
    def __init__(self, path):
        self.path = path
        self.connections = []
        self.lock = threading.Lock()
        self.save()

    def save(self):
        with self.lock:
            tmp = self.path + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"connections": self.connections}, f, indent=1)
            os.replace(tmp, self.path)


class Connection:
    def __init__(self, sock, peer, recorder):
        self.sock = sock
        self.buf = b""
        self.closed = False
        self.rec = {"peer": peer, "start": time.time(), "received": [], "closed_by": None}
        self.recorder = recorder
        with recorder.lock:
            recorder.connections.append(self.rec)
        recorder.save()

    def read_pdus(self, timeout):
        """PDUs that arrive within `timeout` s (returns at the first batch)."""
        if self.closed:
            return []
        pending = getattr(self.sock, "pending", lambda: 0)()  # TLS: decrypted, unread
        r = pending or select.select([self.sock], [], [], max(0.0, timeout))[0]
        if not r:
            return []
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.closed = True
            with self.recorder.lock:
                self.rec["closed_by"] = self.rec["closed_by"] or "router"
            self.recorder.save()
            return []
        pdus, self.buf = rtr_pdu.parse_all(self.buf + data)
        for p in pdus:
            p["at"] = round(time.time() - self.rec["start"], 3)
        with self.recorder.lock:
            self.rec["received"] += pdus
        self.recorder.save()
        return pdus

    def send(self, data):
        if not self.closed:
            try:
                self.sock.sendall(data)
            except OSError:
                self.closed = True

    def close(self):
        if not self.closed:
            with self.recorder.lock:
                self.rec["closed_by"] = "cache"
            self.recorder.save()
        self.closed = True
        self.sock.close()

    def hold(self, seconds, on_pdu=None):
        deadline = time.monotonic() + seconds
        while not self.closed and time.monotonic() < deadline:
            for p in self.read_pdus(deadline - time.monotonic()):
                if on_pdu:
                    on_pdu(p)

    def recv(self, expected, timeout):
        deadline = time.monotonic() + timeout
        n = len(self.rec["received"])
        while not self.closed and time.monotonic() < deadline:
            self.read_pdus(deadline - time.monotonic())
            if len(self.rec["received"]) > n:
                with self.recorder.lock:  # another thread may be writing the record
                    self.rec["received"][n]["expected"] = expected
                self.recorder.save()
                return

    def serve(self, spec):
        v = spec.get("version", 1)
        session = spec.get("session", 7)
        serial = spec.get("serial", 1)
        eod = rtr_pdu.end_of_data(v, session, serial, spec.get("refresh", 3600),
                                  spec.get("retry", 600), spec.get("expire", 7200))
        full = b"".join(rtr_pdu.prefix(v, p, m, a) for p, m, a in spec.get("vrps", []))

        def answer(p):
            if p["type"] == "reset-query":
                self.send(rtr_pdu.cache_response(v, session) + full + eod)
            elif p["type"] == "serial-query":
                self.send(rtr_pdu.cache_response(v, session) + eod)
        self.hold(HOLD_MAX, answer)


SESSION = 7


def build(recipe, v):
    """The bytes of one RECIPE at RTR version v."""
    kind, args = recipe[0], recipe[1:]
    if kind == "cache_response":
        return rtr_pdu.cache_response(v, SESSION)
    if kind == "prefix":
        return rtr_pdu.prefix(v, args[0], args[1], args[2], args[3] if len(args) > 3 else True)
    if kind == "end_of_data":
        return rtr_pdu.end_of_data(v, SESSION, *args)
    if kind == "header":
        return rtr_pdu.header(v, *args)
    if kind == "raw":
        return bytes.fromhex(args[0])
    inner = bytearray(build(args[0], v))
    if kind == "truncate":
        return bytes(inner[:args[1]])
    if kind == "length":
        inner[4:8] = struct.pack("!I", args[1])
    elif kind == "version":
        inner[0] = args[1]
    elif kind == "type":
        inner[1] = args[1]
    elif kind == "pad":
        inner += b"\0" * args[1]
        inner[4:8] = struct.pack("!I", len(inner))
    else:
        raise ValueError("unknown recipe %r" % (recipe,))
    return bytes(inner)


def reply(conn, spec, timeout=30):
    """Wait for a query and answer it from spec."""
    n = len(conn.rec["received"])
    conn.recv("query", timeout)
    if len(conn.rec["received"]) <= n:
        return
    q = conn.rec["received"][n]
    recipes = spec if isinstance(spec, list) else spec.get(q["type"], [])
    conn.send(b"".join(build(r, q["version"]) for r in recipes))


def run_actions(conn, actions):
    for a in actions:
        if conn.closed:
            return
        if "recv" in a:
            conn.recv(a["recv"], a.get("timeout", 30))
        elif "send" in a:
            conn.send(bytes.fromhex(a["send"]))
        elif "sleep" in a:
            time.sleep(a["sleep"])
        elif "hold" in a:
            conn.hold(a["hold"])
        elif "close" in a:
            conn.close()
            return
        elif "serve" in a:
            conn.serve(a["serve"])
        elif "reply" in a:
            reply(conn, a["reply"], a.get("timeout", 30))
    conn.hold(HOLD_MAX)


def main():
    with open(sys.argv[1]) as f:
        script = json.load(f)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    host = script.get("listen", "0.0.0.0")
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    lsock = socket.socket(fam, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    md5 = script.get("md5") or []
    for m in md5:
        # On the listener: the kernel signs the SYN-ACK and checks every segment from this
        # peer; a connection without the right key never completes.
        lsock.setsockopt(socket.IPPROTO_TCP, TCP_MD5SIG, md5sig(m["peer"], m["key"]))
    lsock.bind((host, script.get("port", 8282)))
    lsock.listen(8)
    recorder = Recorder(script["record"])
    sessions = script.get("sessions") or [[]]
    print("fake RTR cache listening on %s port %d%s" % (host, script.get("port", 8282),
                                                         " with TCP-MD5" if md5 else ""),
          flush=True)
    tls = script.get("tls")
    ctx = None
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(tls["cert"], tls["key"])
        ctx.load_verify_locations(tls["client_ca"])
        ctx.verify_mode = ssl.CERT_REQUIRED
    n = 0
    while True:
        sock, addr = lsock.accept()
        print("connection %d from %s" % (n + 1, addr[0]), flush=True)
        # Each connection in its own thread: a session held open does not keep another
        # router (or a refused handshake) waiting.  Sessions are given out in accept order.
        threading.Thread(target=serve_one, daemon=True,
                         args=(sock, addr[0], ctx, recorder,
                               sessions[min(n, len(sessions) - 1)])).start()
        n += 1


def serve_one(sock, peer, ctx, recorder, actions):
    if ctx:
        try:
            sock.settimeout(10)
            sock = ctx.wrap_socket(sock, server_side=True)
            sock.settimeout(None)
        except (ssl.SSLError, OSError) as e:
            with recorder.lock:
                recorder.connections.append({"peer": peer, "tls_error": str(e),
                                             "received": [], "closed_by": None})
            recorder.save()
            sock.close()
            return
    conn = Connection(sock, peer, recorder)
    if ctx:
        subject = dict(x[0] for x in sock.getpeercert().get("subject", ()))
        with recorder.lock:
            conn.rec["client_cert"] = subject.get("commonName")
        recorder.save()
    try:
        run_actions(conn, actions)
    finally:
        if not conn.closed:
            conn.close()


if __name__ == "__main__":
    main()
