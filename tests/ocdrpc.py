#!/usr/bin/env python3
"""ocdrpc.py - a tiny OpenOCD TCL-RPC client for the tests.

Each request is Tcl script bytes ended by 0x1a; each reply is the result
text ended by one 0x1a, with no status (spec/openocd.md 3.1, 3.2).

  ocdrpc.py [--wait S] PORT SCRIPT...   sends each SCRIPT on one connection
                                        and prints each reply on its own
  ocdrpc.py [--wait S] --check PORT SCRIPT
                                        runs SCRIPT inside catch/capture
                                        (spec 3.3) and prints three parts:
                                          rc=N
                                          result=...
                                          log=...   (possibly several lines)
                                        exit status 0 if rc is 0, else 1
--wait S retries the connection for up to S seconds (OpenOCD listens only
once its 'init' is done, spec 2.1).  Exit status 2: no connection/reply.
"""
import socket
import sys
import time

SUB = b"\x1a"


def connect(port, wait):
    deadline = time.time() + wait
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return s
        except OSError:
            if time.time() >= deadline:
                raise
            time.sleep(0.1)


class Rpc:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def call(self, script):
        self.sock.sendall(script.encode() + SUB)
        while SUB not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("OpenOCD closed the connection")
            self.buf += chunk
        reply, self.buf = self.buf.split(SUB, 1)
        return reply.decode(errors="replace")


def checked(script):
    # The value is stored inside capture, so log text cannot replace it.
    return ("set ::ocdrpc_r {}; set ::ocdrpc_rc [catch {capture {set ::ocdrpc_r [%s]}} "
            "::ocdrpc_log]; format \"rc=%%d\\nresult=%%s\\nlog=%%s\" $::ocdrpc_rc "
            "$::ocdrpc_r $::ocdrpc_log" % script)


def main(argv):
    args = argv[1:]
    wait, check = 0.0, False
    while args and args[0].startswith("--"):
        if args[0] == "--wait" and len(args) > 1:
            wait, args = float(args[1]), args[2:]
        elif args[0] == "--check":
            check, args = True, args[1:]
        else:
            break
    if len(args) < 2 or not args[0].isdigit() or (check and len(args) != 2):
        sys.stderr.write(__doc__)
        return 2
    try:
        rpc = Rpc(connect(int(args[0]), wait))
        if check:
            reply = rpc.call(checked(args[1]))
            print(reply)
            return 0 if reply.startswith("rc=0\n") else 1
        for script in args[1:]:
            print(rpc.call(script))
    except (OSError, EOFError) as e:
        print("ocdrpc: %s" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
