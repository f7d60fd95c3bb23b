#!/bin/sh
# Runs one check test program under valgrind memcheck when configure found
# valgrind ($VALGRIND), so a leak or an invalid access fails `make check`.
# CK_FORK=no keeps each test in the process valgrind watches.
if [ -n "${VALGRIND:-}" ]; then
    CK_FORK=no exec "$VALGRIND" -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$@"
fi
exec "$@"
