/* Fuzz target: the target description parser (lib/target/parse.c). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "pmu/coretype.h"
#include "target/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    char err[256];
    struct pp_target *t = NULL;
    if (pp_target_parse(text, "<fuzz>", &t, err, sizeof err) == PP_OK)
        pp_target_free(t);

    /* The "type = auto" path, with a real type for every even cpu. */
    const struct pp_core_type *types[PP_MAX_CORES];
    for (unsigned i = 0; i < PP_MAX_CORES; i++)
        types[i] = (i % 2) ? NULL : pp_core_type_generic();
    t = NULL;
    if (pp_target_parse_ex(text, "<fuzz>", types, &t, err, sizeof err) == PP_OK)
        pp_target_free(t);
    free(text);
    return 0;
}
