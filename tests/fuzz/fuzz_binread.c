/* Fuzz target: the binary capture reader (lib/capture/binread.c). */
#include <stdio.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "capture/binread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;   /* fmemopen refuses a zero-size buffer */
    FILE *in = fmemopen((void *)data, size, "rb");
    if (!in)
        return 0;
    char err[256];
    struct pp_binread *r = pp_binread_open(in, "<fuzz>", err, sizeof err);
    if (r) {
        const struct pp_cap_sample *smp;
        unsigned long guard = 0;
        while (pp_binread_next(r, &smp) == 1 && guard++ < 1000000)
            ;
        struct pp_cap_summary sum;
        (void)pp_binread_summary(r, &sum);
        (void)pp_binread_truncated(r);
        (void)pp_binread_partial_bytes(r);
        (void)pp_binread_records(r);
        pp_binread_free(r);
    }
    fclose(in);
    return 0;
}
