/*
 * Fuzz target: event names (lib/pmu/evname.c) and register names
 * (lib/pmu/regs.c).  The first byte picks the core type (and whether the
 * generic NULL type is used for registers); the rest is a comma-separated
 * list, each item resolved both as an event and as a register name.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "pmu/coretype.h"
#include "pmu/evname.h"
#include "pmu/regs.h"

static void resolve_one(const struct pp_core_type *ct, unsigned counters, const char *item)
{
    char err[256];
    struct pp_evsel ev;
    (void)pp_event_resolve(ct, item, &ev, err, sizeof err);

    struct pp_reg_ref ref;
    (void)pp_reg_resolve(ct, counters, item, &ref);
    (void)pp_reg_resolve(NULL, 0, item, &ref);

    const char *names[4];
    (void)pp_reg_suggest(ct, item, names, 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned ntypes = 0;
    const struct pp_core_type *types = pp_core_types(&ntypes);
    if (!types || ntypes == 0)
        return 0;
    const struct pp_core_type *ct = &types[data[0] % ntypes];
    unsigned counters = (data[0] >> 4) & 0x1f;   /* 0: the type's default */

    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';

    char *save = NULL;
    for (char *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save))
        resolve_one(ct, counters, item);
    free(text);
    return 0;
}
