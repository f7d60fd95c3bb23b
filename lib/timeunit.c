/*
 * timeunit.c - the time units of times written by a person (timeunit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeunit.h"

static const struct pp_time_unit units[] = {
    { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
    { "m", 60000000000ull }, { "h", 3600000000000ull },
};
#define NUNITS (sizeof(units) / sizeof(units[0]))

const struct pp_time_unit *pp_time_units(size_t *n)
{
    *n = NUNITS;
    return units;
}

uint64_t pp_time_unit_ns(const char *suffix)
{
    for (size_t i = 0; i < NUNITS; i++)
        if (strcmp(suffix, units[i].suffix) == 0)
            return units[i].ns;
    return 0;
}

bool pp_time_parse(const char *s, size_t n, uint64_t *ns)
{
    char buf[40];
    char *end;
    double v;
    uint64_t mul;

    /* strtod alone would also take "inf", "nan", hex and a sign. */
    if (n == 0 || n >= sizeof(buf) || s[0] < '0' || s[0] > '9' ||
        (n > 1 && (s[1] == 'x' || s[1] == 'X')))
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    if (end == buf || (mul = pp_time_unit_ns(end)) == 0)
        return false;
    /* Compared as a double: the product may not fit in 64 bits. */
    if (v * (double)mul >= 9.2e18)
        return false;
    *ns = (uint64_t)(v * (double)mul + 0.5);
    return true;
}

void pp_time_format(uint64_t ns, char *buf, size_t n)
{
    size_t u = NUNITS;

    if (ns == 0) {
        snprintf(buf, n, "0");
        return;
    }
    while (u-- > 1 && ns % units[u].ns != 0)
        ;
    snprintf(buf, n, "%llu%s", (unsigned long long)(ns / units[u].ns), units[u].suffix);
}
