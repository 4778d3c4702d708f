# SPDX-License-Identifier: ISC
"""A raw client of skua's vty socket, for tests that misbehave on purpose (vtysh never does):
read part of an answer and hang up, or connect and say nothing.

The protocol (lib/vty.h): a request is a kind byte ('x' execute), the line and a NUL; the
answer is text, three NULs and a status byte.
"""

import socket


def connect(path, timeout=10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    return s


def request(sock, line):
    sock.sendall(b"x" + line.encode() + b"\0")


def read_some(sock, nbytes):
    """Read at least nbytes of the answer (less if it ends first); the bytes read."""
    got = b""
    while len(got) < nbytes:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def execute(path, line, timeout=10):
    """The whole answer to one command: (text, status byte)."""
    with connect(path, timeout) as s:
        request(s, line)
        got = b""
        while not (len(got) >= 4 and got[-4:-1] == b"\0\0\0"):
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("bgpd closed the vty connection before the answer ended")
            got += chunk
    return got[:-4].decode(errors="replace"), got[-1]
