#!/usr/bin/env python3
"""hostile-peer.py MODE PORTFILE: a TCP server on 127.0.0.1 that plays a
broken or hostile OpenOCD TCL server or remote_bitbang server, for
tests/hostile.test.  Writes its port to PORTFILE, serves one client, and
ends when the client goes or after 120 s, whichever comes first.

OpenOCD modes answer the first request (bytes up to 0x1A) with:
  ocd-endless   'x' for ever, never a 0x1A
  ocd-trickle   one 'x' a second, never a 0x1A
  ocd-huge      100 MiB of 'x', then 0x1A
  ocd-escape    a reply full of terminal escape sequences, to every request
remote_bitbang modes answer each 'R' (a TDO read):
  rbb-trickle   '1', one answer every 4.5 s
  rbb-escape    an escape sequence instead of '0'/'1'
"""
import socket
import sys
import time

LIFETIME = 120.0
EVIL = b"\x1b[31mEVIL\x1b]0;pwned\x07\x1b[2J"


def serve(mode, conn):
    conn.settimeout(LIFETIME)
    end = time.monotonic() + LIFETIME
    buf = b""
    while time.monotonic() < end:
        data = conn.recv(65536)
        if not data:
            return
        buf += data
        if mode.startswith("ocd-") and b"\x1a" not in buf:
            continue
        if mode == "ocd-escape":
            while b"\x1a" in buf:
                buf = buf[buf.index(b"\x1a") + 1:]
                conn.sendall(EVIL + b"\x1a")
            continue
        if mode == "ocd-endless":
            chunk = b"x" * 65536
            while time.monotonic() < end:
                conn.sendall(chunk)
            return
        if mode == "ocd-trickle":
            while time.monotonic() < end:
                conn.sendall(b"x")
                time.sleep(1.0)
            return
        if mode == "ocd-huge":
            chunk = b"x" * (1 << 20)
            for _ in range(100):
                conn.sendall(chunk)
            conn.sendall(b"\x1a")
            return
        if mode == "rbb-trickle":
            for _ in range(buf.count(b"R")):
                time.sleep(4.5)
                conn.sendall(b"1")
            buf = b""
            continue
        if mode == "rbb-escape":
            if b"R" in buf:
                conn.sendall(EVIL)
            buf = b""
            continue
        raise SystemExit("hostile-peer.py: unknown mode " + mode)


def main():
    mode, portfile = sys.argv[1], sys.argv[2]
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    srv.settimeout(LIFETIME)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % srv.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    try:
        conn, _ = srv.accept()
        serve(mode, conn)
    except (OSError, socket.timeout):
        pass


if __name__ == "__main__":
    main()
