/* Placeholder until event-name resolution lands. */
#include "pmu/evname.h"

int pp_event_resolve(const struct pp_core_type *ct, const char *spec,
                     struct pp_evsel *out, char *err, size_t errlen)
{
    (void)ct; (void)spec; (void)out; (void)err; (void)errlen;
    return -5;
}

bool pp_event_core_has(const struct pp_catalog *cat, uint16_t code)
{
    (void)cat; (void)code;
    return false;
}
