/*
 * evlist.c - an event list ("cycles,instructions") turned into a core's
 * counter plan: names resolved for the core's type, then counters
 * allocated.  Shared by the CLI's capture commands and config (through
 * plan_events) and the public capture API, so both refuse the same lists
 * with the same words.
 */
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "capture/capture.h"

#define LIST_MAX 512

/* strtok_r would skip an empty name silently: "cycles,,instructions" is
 * more likely a name left out than two commas meant. */
static bool has_empty_name(const char *events)
{
    size_t n = strlen(events);

    return events[0] == ',' || strstr(events, ",,") || (n && events[n - 1] == ',');
}

int pp_cap_plan_events(const struct pp_core_desc *c, const char *events, struct pp_evsel *ev,
                       unsigned *n, struct pp_pmu_prog *prog, char *err, size_t errlen)
{
    char list[LIST_MAX], why[256], *save = NULL;
    int rc;

    *n = 0;
    if (strlen(events) >= sizeof(list)) {
        pp_errmsg(err, errlen, "event list too long: '%.40s...' (at most %zu characters)",
                  events, sizeof(list) - 1);
        return PP_E_INVAL;
    }
    if (has_empty_name(events)) {
        pp_errmsg(err, errlen, "-e '%s': an empty event name (a comma at an end, or two in a "
                  "row); expected names separated by single commas, e.g. cycles,instructions",
                  events);
        return PP_E_PARSE;
    }
    strcpy(list, events);
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == PP_CAP_PLAN_MAX) {
            pp_errmsg(err, errlen, "cpu%u: more than %d events; a PMU has at most %d counters "
                      "plus the cycle counter", c->cpu, PP_CAP_PLAN_MAX, PP_MAX_COUNTERS);
            return PP_E_BUSY;
        }
        rc = pp_event_resolve(c->type, tok, &ev[*n], why, sizeof(why));
        if (rc != PP_OK) {
            pp_errmsg(err, errlen, "cpu%u: %s", c->cpu, why);
            return rc;
        }
        (*n)++;
    }
    if (*n == 0) {
        pp_errmsg(err, errlen, "no events given (expected e.g. -e cycles,instructions)");
        return PP_E_PARSE;
    }
    rc = pp_pmu_allocate(c, ev, *n, prog, why, sizeof(why));
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "%s; drop events or split them over two runs", why);
    return rc;
}
