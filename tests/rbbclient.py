#!/usr/bin/env python3
"""rbbclient.py - a raw remote_bitbang client for the pmuprobe-sim tests.

Speaks the OpenOCD 0.12.0 wire protocol byte by byte (spec/openocd.md 1),
independently of pmuprobe's own JTAG stack, so the server is tested
against a second implementation.

  rbbclient.py ADDR idcode            IDCODE after Test-Logic-Reset, as 0x%08X
  rbbclient.py ADDR dpread A          DPACC read of DP register A (0x0-0xC):
                                      prints "ack=N value=0x%08X" of the
                                      RDBUFF scan that collects it, and the
                                      ACK of the request scan as "req_ack=N"
  rbbclient.py ADDR raw BYTES         sends BYTES in one write, prints every
                                      reply byte until EOF or 2 s of silence
  rbbclient.py ADDR hold SECONDS      connects and holds the connection open
  rbbclient.py ADDR idcode-after-hold HOLD_ADDR
                                      (reserved)
ADDR is a TCP port on 127.0.0.1 or a UNIX socket path.  Exit status 0,
1 on a protocol surprise (printed), 2 on usage or connection errors.
"""
import socket
import sys
import time

IR_DPACC = 0xA
IR_IDCODE = 0xE
ACK_OK, ACK_WAIT = 0b010, 0b001


def connect(addr):
    if addr.isdigit():
        s = socket.create_connection(("127.0.0.1", int(addr)), timeout=10)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    else:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(addr)
    return s


class Jtag:
    """Builds a pipelined byte stream; bits() sends it and reads the answers."""

    def __init__(self, sock):
        self.sock = sock
        self.out = bytearray()
        self.nsamples = 0

    def clock(self, tms, tdi, sample=False):
        low = ord('0') + (tms << 1 | tdi)
        self.out.append(low)
        if sample:
            self.out += b'R'
            self.nsamples += 1
        self.out.append(low + 4)

    def reset(self):
        for _ in range(6):
            self.clock(1, 0)
        self.clock(0, 0)                     # Run-Test/Idle

    def scan(self, path_tms, bits, nbits, sample=True):
        """From Idle: path_tms moves to Shift; shifts nbits LSB first; back to Idle."""
        for tms in path_tms:
            self.clock(tms, 0)
        for i in range(nbits):
            self.clock(1 if i == nbits - 1 else 0, (bits >> i) & 1, sample)
        self.clock(1, 0)                     # Update
        self.clock(0, 0)                     # Idle

    def ir(self, value):
        self.scan([1, 1, 0, 0], value, 4, sample=False)

    def dr(self, value, nbits):
        self.scan([1, 0, 0], value, nbits)

    def run(self):
        """Sends everything in one write; returns the sampled bits as ints."""
        self.sock.sendall(bytes(self.out))
        want, got = self.nsamples, bytearray()
        while len(got) < want:
            chunk = self.sock.recv(want - len(got))
            if not chunk:
                raise EOFError("server closed after %d of %d answers" % (len(got), want))
            got += chunk
        self.out, self.nsamples = bytearray(), 0
        bad = [b for b in got if b not in b'01']
        if bad:
            raise ValueError("answer bytes other than '0'/'1': %r" % bytes(bad))
        return [b - ord('0') for b in got]


def to_int(bits):
    return sum(b << i for i, b in enumerate(bits))


def cmd_idcode(sock):
    j = Jtag(sock)
    j.reset()
    j.dr(0, 32)
    print("0x%08X" % to_int(j.run()))


def cmd_dpread(sock, reg):
    j = Jtag(sock)
    j.reset()
    j.ir(IR_DPACC)
    a = (reg >> 2) & 3
    j.dr(1 | a << 1, 35)                     # the read request
    j.dr(1 | 3 << 1, 35)                     # RDBUFF collects it
    bits = j.run()
    req, col = to_int(bits[:35]), to_int(bits[35:])
    print("req_ack=%d ack=%d value=0x%08X" % (req & 7, col & 7, col >> 3))


def cmd_raw(sock, data):
    sock.sendall(data.encode("latin-1"))
    sock.settimeout(2)
    got = bytearray()
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                print("%s<EOF>" % got.decode("latin-1"))
                return
            got += chunk
    except socket.timeout:
        print("%s<open>" % got.decode("latin-1"))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    try:
        sock = connect(argv[1])
    except OSError as e:
        print("cannot connect to %s: %s" % (argv[1], e))
        return 2
    try:
        if argv[2] == "idcode":
            cmd_idcode(sock)
        elif argv[2] == "dpread" and len(argv) == 4:
            cmd_dpread(sock, int(argv[3], 0))
        elif argv[2] == "raw" and len(argv) == 4:
            cmd_raw(sock, argv[3])
        elif argv[2] == "hold" and len(argv) == 4:
            time.sleep(float(argv[3]))
        else:
            sys.stderr.write(__doc__)
            return 2
    except (EOFError, ValueError, OSError) as e:
        print("error: %s" % e)
        return 1
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
