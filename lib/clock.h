/*
 * clock.h - the one monotonic clock of the library (internal).  Deadlines,
 * sample times and statistics all read CLOCK_MONOTONIC, so times taken in
 * different layers compare.
 */
#ifndef PP_CLOCK_H
#define PP_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t pp_mono_ns(void);

/* Milliseconds left until deadline_ns (CLOCK_MONOTONIC), clamped to what
 * poll() takes: 0 once it has passed. */
int pp_ms_until(uint64_t deadline_ns);

#endif
