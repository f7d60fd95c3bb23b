#!/bin/sh
# Runs one check test program under valgrind memcheck when configure found
# valgrind ($VALGRIND), so a leak or an invalid access fails `make check`.
# CK_FORK=no keeps each test in the process valgrind watches.  A program
# linked against the shared lib/libpmuprobe.la is a libtool wrapper
# script: libtool --mode=execute runs valgrind on the real binary, where
# plain valgrind would watch only the shell that execs it.
if [ -n "${VALGRIND:-}" ]; then
    CK_FORK=no exec "${top_builddir:-.}/libtool" --mode=execute "$VALGRIND" -q \
        --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$@"
fi
exec "$@"
