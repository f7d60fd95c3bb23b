/*
 * clock.c - see clock.h.
 */
#include <errno.h>
#include <time.h>

#include "clock.h"

uint64_t pp_mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int pp_ms_until(uint64_t deadline_ns)
{
    uint64_t now = pp_mono_ns();
    uint64_t left_ms;

    if (now >= deadline_ns)
        return 0;
    /* Rounded up: a deadline 0.4 ms away is not "now". */
    left_ms = (deadline_ns - now + 999999u) / 1000000u;
    return left_ms > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)left_ms;
}

uint64_t pp_deadline_ms(uint64_t ms)
{
    return pp_mono_ns() + ms * 1000000u;
}

void pp_sleep_until(uint64_t t_ns)
{
    struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000u),
                           .tv_nsec = (long)(t_ns % 1000000000u) };

    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
