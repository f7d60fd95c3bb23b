/*
 * timeunit.c - the time units of times written by a person (timeunit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "pmuprobe.h"
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

/* The public face of pp_time_parse (pmuprobe.h), so a binding (the
 * Python package) takes exactly the strings the library does. */
int pp_parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen)
{
    char names[64] = "", shown[48];
    size_t n, len = 0;
    const struct pp_time_unit *u = pp_time_units(&n);

    if (!text || !ns) {
        pp_errmsg(err, errlen, "a text and a place for the result are required");
        return PP_E_INVAL;
    }
    if (pp_time_parse(text, strlen(text), ns))
        return PP_OK;
    /* The caller's text goes into a message a terminal may show. */
    pp_escape(shown, sizeof(shown), text, strlen(text));
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
                                u[i].suffix);
    pp_errmsg(err, errlen, "'%s': expected a time such as 500us, 10ms, 1.5s, 5m or 1h "
              "(a number and a unit: %s)", shown, names);
    return PP_E_PARSE;
}
