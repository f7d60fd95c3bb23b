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

/* The CLOCK_MONOTONIC time ms milliseconds from now, in nanoseconds: a
 * deadline for pp_ms_until or a comparison with pp_mono_ns. */
uint64_t pp_deadline_ms(uint64_t ms);

/* Sleeps until t_ns (CLOCK_MONOTONIC); returns at once when it has passed.
 * A signal does not cut the sleep short. */
void pp_sleep_until(uint64_t t_ns);

#endif
