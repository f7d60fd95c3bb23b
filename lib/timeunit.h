/*
 * timeunit.h - the time units every time written by a person takes
 * (internal): "500us", "10ms", "1.5s", "5m", "1h".  One table, so the
 * CLI's -i/-d and the simulator's "cpu1:off@2m" read the same way.
 */
#ifndef PP_TIMEUNIT_H
#define PP_TIMEUNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_time_unit {
    const char *suffix;        /* "ns", "us", "ms", "s", "m", "h" */
    uint64_t ns;               /* nanoseconds in one */
};

/* The units, smallest first; *n gets their number. */
const struct pp_time_unit *pp_time_units(size_t *n);

/* Nanoseconds in one unit named suffix (the whole string); 0 when no
 * unit has that name. */
uint64_t pp_time_unit_ns(const char *suffix);

/* s[0..n): a decimal number (digits, an optional fraction) and a unit,
 * nothing else, below about 292 years.  false otherwise. */
bool pp_time_parse(const char *s, size_t n, uint64_t *ns);

/* ns in the largest unit that holds it exactly: "0", "1ns", "1h". */
void pp_time_format(uint64_t ns, char *buf, size_t n);

#endif
