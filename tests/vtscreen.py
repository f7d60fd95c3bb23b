#!/usr/bin/env python3
"""vtscreen.py LOG: the screen a terminal would show after LOG, the bytes
script(1) captured from a curses program run with TERM=xterm (tests/
top.test), printed as plain text lines with trailing blanks removed.

curses sends only the cells that changed, so the log itself cannot say
what the screen shows (a core moved from one block to another may be one
changed digit); pyte (Debian python3-pyte), a VT100/xterm emulator,
replays it.  The screen is xterm's 80x24: script(1) runs with no terminal
of its own, so ncurses takes the size from terminfo."""
import sys

import pyte


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: vtscreen.py LOG")
    try:
        with open(sys.argv[1], "rb") as f:
            data = f.read()
    except OSError as e:
        print("vtscreen.py: %s" % e, file=sys.stderr)
        sys.exit(2)
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(data)
    for line in screen.display:
        print(line.rstrip())


if __name__ == "__main__":
    main()
